/*
 * Reading jansson trees with the JSON path of every field at hand, so that a
 * wrong type anywhere becomes DS_ETYPE with "spec.taints[0].effect" rather
 * than a crash or a silent default. null reads as absent, as Go's
 * encoding/json does for the Kubernetes API types.
 */
#ifndef DSI_READER_H
#define DSI_READER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

typedef struct dsi_rd {
	ds_error *err;
	/* Read as Go's decoder does: JSON types are checked, but not the values of string enums nor
	 * required fields, which the API server's validation refuses (the pure functions evaluate any
	 * object as upstream's functions do). Each reader that honours it says so. */
	int lenient;
	/* When set, a reader whose error text may not fit ds_error's message (the selector's
	 * requirement errors) also stores the whole text here (malloc'ed, first error only). */
	char **whole_message;
	size_t len;
	char path[DS_ERROR_PATH_MAX];
} dsi_rd;

void dsi_rd_init(dsi_rd *rd, ds_error *err);
/* Descend into member key / element i; returns a mark for dsi_rd_pop. */
size_t dsi_rd_push(dsi_rd *rd, const char *key);
size_t dsi_rd_push_index(dsi_rd *rd, size_t i);
static inline void dsi_rd_pop(dsi_rd *rd, size_t mark)
{
	rd->len = mark;
	rd->path[mark] = '\0';
}
/* Report code at the current path, extended by key when key is not NULL. */
int dsi_rd_fail(dsi_rd *rd, const char *key, int code, const char *fmt, ...) DSI_PRINTF(4, 5);

/* "object", "array", "string", "number", "boolean" or "null". */
const char *dsi_json_type_name(const json_t *v);

/* Each getter sets *out to the member or to "absent" (NULL / 0) when the
 * member is missing or null; returns 0, or a negative code with err filled. */
int dsi_rd_object(dsi_rd *rd, const json_t *obj, const char *key, json_t **out);
int dsi_rd_array(dsi_rd *rd, const json_t *obj, const char *key, json_t **out);
int dsi_rd_string(dsi_rd *rd, const json_t *obj, const char *key, const char **out);
int dsi_rd_bool(dsi_rd *rd, const json_t *obj, const char *key, int *out, int *present);
/* int64 and int32 fields: what Go's decoder refuses (dsi_go_int_refusal) is DS_ETYPE. */
int dsi_rd_int64(dsi_rd *rd, const json_t *obj, const char *key, int64_t *out, int *present);
int dsi_rd_int32(dsi_rd *rd, const json_t *obj, const char *key, int32_t *out, int *present);
/* Whether encoding/json decodes the number v into a Go int of bits (32 or 64): NULL, or the
 * message of its UnmarshalTypeError in our words (in buf): a fraction or an exponent ("expected an
 * integer, got 1.5"), a value out of range ("expected a 64-bit integer, got 9223372036854775808",
 * the digits of a YAML uint64 or a JSON number beyond int64). Every path (decoding, validation,
 * loading, the pure functions) refuses integers through it. NULL for what is not a number. */
const char *dsi_go_int_refusal(const json_t *v, int bits, char *buf, size_t size);
/* Same checks for an already-fetched element (path is the current one). */
int dsi_rd_expect_object(dsi_rd *rd, const json_t *v);
int dsi_rd_expect_string(dsi_rd *rd, const json_t *v, const char **out);

/* Callback for dsi_rd_string_map: each member of a map[string]string. */
typedef int (*dsi_rd_kv_fn)(void *ctx, const char *key, size_t klen, const char *val, size_t vlen);
/* Walk a map[string]string member (labels, annotations, nodeSelector). */
int dsi_rd_string_map(dsi_rd *rd, const json_t *obj, const char *key, dsi_rd_kv_fn fn, void *ctx);

#endif
