/* Filling ds_error reports. */
#ifndef DSI_ERROR_H
#define DSI_ERROR_H

#include "daemonset/common.h"

#if defined(__GNUC__) || defined(__clang__)
#define DSI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DSI_PRINTF(a, b)
#endif

/* Reset err (may be NULL) to DS_OK with empty strings. */
void dsi_error_clear(ds_error *err);
/* Set code, path (may be NULL) and a formatted message; returns code. err may be NULL. */
int dsi_error_set(ds_error *err, int code, const char *path, const char *fmt, ...) DSI_PRINTF(4, 5);
/* Out of memory: a fixed message, no allocation. */
int dsi_error_nomem(ds_error *err);
/* DS_EIO "<what> <path>: <strerror(errnum)>", thread-safe. */
int dsi_error_io(ds_error *err, int errnum, const char *what, const char *path);
/* Prepend "prefix." (or "prefix" + "[..]" paths) to err->path. */
void dsi_error_prefix_path(ds_error *err, const char *prefix);
void dsi_error_set_source(ds_error *err, const char *source);
/* DS_ELIMIT for an input larger than the option maxDocumentBytes (max): what (NULL: "input"), its size
 * and the value of the option that would have read it; size 0 when it is not known (a stream stopped at
 * the limit), which then says how much was read. */
int dsi_error_too_large(ds_error *err, const char *what, size_t size, size_t max);
void dsi_error_set_position(ds_error *err, int line, int column);

/* Public entry points: make err usable (a local when the caller passed NULL) and clear it.
 * Internal functions may then assume err != NULL. */
#define DSI_ERR_BEGIN(err)                                                                                             \
	ds_error dsi_local_err_;                                                                                       \
	if (!(err))                                                                                                    \
		(err) = &dsi_local_err_;                                                                               \
	dsi_error_reset(err)

/* DS_OK with empty strings, as ds_error_clear leaves it, without writing the whole struct: a call
 * that takes nanoseconds (a decision on parsed objects) would spend them clearing 700 bytes. */
static inline void dsi_error_reset(ds_error *err)
{
	err->code = DS_OK;
	err->line = err->column = err->reserved = 0;
	err->source[0] = err->path[0] = err->message[0] = '\0';
}

#endif
