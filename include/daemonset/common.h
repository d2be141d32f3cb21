/*
 * libdaemonset: common definitions (versions, errors, memory, time, options).
 *
 * Include <daemonset.h> rather than this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_COMMON_H
#define DAEMONSET_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define DS_EXTERN __attribute__((visibility("default")))
#else
#define DS_EXTERN
#endif

/*
 * The 24 names of 1.0 that 1.1 superseded, and those 1.2 did (5 accessors and 4 upstream functions
 * of 1.1, 2 reply functions of 1.0; daemonset(7), CONVENTIONS), stay exported for the life of SONAME
 * 1 and are declared deprecated: calling one warns and names its successor. A program that
 * keeps calling them on purpose defines DS_NO_DEPRECATION_WARNINGS before including <daemonset.h>;
 * one that wants to be sure it uses none defines DS_NO_DEPRECATED, which hides their declarations
 * (as libgit2's GIT_DEPRECATE_HARD does).
 */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(DS_NO_DEPRECATION_WARNINGS)
#define DS_DEPRECATED(successor) __attribute__((deprecated("use " successor)))
#else
#define DS_DEPRECATED(successor)
#endif

/* Version of the headers. ds_version_number() gives the library's. */
#define DS_VERSION_MAJOR 1
#define DS_VERSION_MINOR 2
#define DS_VERSION_PATCH 0
#define DS_VERSION_STRING "1.2.0"
/* 0xMMmmpp, as jansson and libcurl do. */
#define DS_VERSION_HEX ((DS_VERSION_MAJOR << 16) | (DS_VERSION_MINOR << 8) | DS_VERSION_PATCH)

/* The library's version as "MAJOR.MINOR.PATCH" (static storage). */
DS_EXTERN const char *ds_version(void);
/* The library's version as DS_VERSION_HEX. A program built against headers
 * with a larger MINOR than this must not use functions added since. */
DS_EXTERN int ds_version_number(void);

/*
 * Error codes. Stable: a code keeps its number and meaning across all
 * releases with the same SONAME. Every fallible call returns 0 (DS_OK) or a
 * negative code and, when given a ds_error, fills it.
 */
typedef enum ds_error_code {
	DS_OK = 0,
	DS_ENOMEM = -1,       /* out of memory */
	DS_EARG = -2,         /* an argument is invalid (NULL, unknown name, ...) */
	DS_ESYNTAX = -3,      /* JSON or YAML text is malformed */
	DS_ETYPE = -4,        /* a field has the wrong JSON type */
	DS_EVALUE = -5,       /* a field has a value that is not allowed */
	DS_EMISSING = -6,     /* a required field is absent */
	DS_ENOTFOUND = -7,    /* the named object is not in the snapshot */
	DS_ELIMIT = -8,       /* a limit was exceeded (size, depth, aliases, count) */
	DS_EUNSUPPORTED = -9, /* kind or apiVersion the library does not handle */
	DS_EINVALID = -10,    /* validation found the object invalid */
	DS_EIO = -11,         /* a file could not be read */
	DS_ECONFLICT = -12,   /* transport: the object changed (HTTP 409) */
	DS_ETRANSPORT = -13,  /* transport: the host's callback failed */
	DS_ESTATE = -14       /* the call is not valid in the object's state */
} ds_error_code;

#define DS_ERROR_SOURCE_MAX 128
#define DS_ERROR_PATH_MAX 256
#define DS_ERROR_MESSAGE_MAX 320

/*
 * A caller-provided error report, in the spirit of jansson's json_error_t.
 * Its layout is frozen for the life of SONAME 1.
 *   code     a ds_error_code
 *   line, column  1-based position for syntax errors, 0 when not known
 *   source   where the input came from (file name), "" when not known
 *   path     JSON path of the offending field, e.g.
 *            "items[3].spec.taints[0].effect"; "" when not about a field
 *   message  what was wrong and what was expected
 * Strings are always NUL-terminated and truncated to fit.
 */
typedef struct ds_error {
	int code;
	int line;
	int column;
	int reserved;
	char source[DS_ERROR_SOURCE_MAX];
	char path[DS_ERROR_PATH_MAX];
	char message[DS_ERROR_MESSAGE_MAX];
} ds_error;

/* Static, human-readable name of a code ("DS_ESYNTAX: malformed JSON or YAML"). */
DS_EXTERN const char *ds_strerror(int code);
/* Reset err to DS_OK with empty strings. NULL is fine. */
DS_EXTERN void ds_error_clear(ds_error *err);

/* DS_SIZED_INIT(T): an initializer for a size-versioned struct T with .size set and every other
 * member zero (the DS_*_INIT macros of each struct use it). C gets a designated initializer, which
 * -Wmissing-field-initializers accepts; C++ before C++20 has none, so there it is {sizeof(T)}. */
#ifdef __cplusplus
#define DS_SIZED_INIT(T)                                                                                               \
	{                                                                                                              \
		sizeof(T)                                                                                              \
	}
#else
#define DS_SIZED_INIT(T)                                                                                               \
	{                                                                                                              \
		.size = sizeof(T)                                                                                      \
	}
#endif

/* Release memory the library returned (strings, arrays). NULL is fine. */
DS_EXTERN void ds_free(void *ptr);

/*
 * Time is always a parameter, never read from a clock: milliseconds since
 * 1970-01-01T00:00:00Z.
 */
typedef int64_t ds_time;
/* Parse an RFC 3339 timestamp ("2026-12-02T15:04:05Z", fractional seconds
 * and numeric offsets allowed) as Kubernetes writes them. */
DS_EXTERN int ds_time_parse(const char *text, ds_time *out, ds_error *err);
/* Format as RFC 3339 in UTC with second precision (metav1.Time's form), or
 * with milliseconds when t has a fraction. buf needs 32 bytes. Returns the
 * length written, or DS_EARG. */
DS_EXTERN int ds_time_format(ds_time t, char *buf, size_t size);

/*
 * Options: an opaque set of named settings shared by every operation. Each
 * operation reads the names it knows and ignores the others; ds_options(3)
 * lists every name, its type, default and the operations that read it.
 * Values are given as text ("true", "250", "30s", "1.35") or as JSON.
 */
typedef struct ds_options ds_options;

/* A new set with every option at its default. */
DS_EXTERN int ds_options_create(ds_options **out, ds_error *err);
DS_EXTERN void ds_options_free(ds_options *opts);
/* Set one option from text. Unknown names and bad values are DS_EARG /
 * DS_EVALUE with the name in err->path. */
DS_EXTERN int ds_options_set(ds_options *opts, const char *name, const char *value, ds_error *err);
/* Set every member of a JSON (or YAML) object {"name": value, ...} given as
 * text and size. All or nothing. */
DS_EXTERN int ds_options_set_all(ds_options *opts, const char *text, size_t size, ds_error *err);
/* The current value of an option as text (new string, free with ds_free). */
DS_EXTERN int ds_options_get(const ds_options *opts, const char *name, char **out, ds_error *err);

/* ---- superseded names (SONAME 1 keeps them; see "Conventions" in daemonset(7)) ---- */
#ifndef DS_NO_DEPRECATED
/* ds_options_create without an error report. */
DS_EXTERN DS_DEPRECATED("ds_options_create") int ds_options_new(ds_options **out);
/* ds_options_set_all on a NUL-terminated object. */
DS_EXTERN DS_DEPRECATED("ds_options_set_all") int ds_options_set_json(ds_options *opts, const char *json,
								      ds_error *err);
#endif

#ifdef __cplusplus
}
#endif
#endif
