/* JSON text for results, allocated by the library (released with ds_free). */
#ifndef DSI_JSONOUT_H
#define DSI_JSONOUT_H

#include <jansson.h>

#include "core/error.h"

/* JSON text of v with jansson's flags, or NULL on allocation failure (or where jansson's dump fails:
 * a string that is not UTF-8, a loop). The compact forms are written by jsonout.c itself, byte for
 * byte as jansson writes them; the others go through json_dump_callback. Either way the result is
 * the library's memory (a host's json_set_alloc_funcs cannot make it unsafe to pass to ds_free). */
char *dsi_json_dumps(const json_t *v, size_t flags);
/* Dump v into *out (and release v); DS_ENOMEM when v is NULL or dumping fails. */
int dsi_json_emit(json_t *v, char **out, ds_error *err);
/* The same for a value the caller keeps, which other threads may be reading: no reference count is
 * touched (jansson's json_incref reads the count non-atomically). */
int dsi_json_emit_shared(const json_t *v, char **out, ds_error *err);

/*
 * The writer itself, for results written without a tree (apiserver/goemit.h): the same bytes as
 * dsi_json_dumps with JSON_COMPACT | JSON_SORT_KEYS. fail: 0, -1 out of memory, or 1 where jansson's
 * dump would decide (a real number, a string that is not UTF-8, a value nested deeper than
 * jansson's parser builds): the caller then writes its value another way. Once fail is set, every
 * call does nothing.
 */
typedef struct dsi_jout {
	char *p;
	size_t len, cap;
	int fail;
} dsi_jout;
#define DSI_JOUT_INIT                                                                                                  \
	{                                                                                                              \
		NULL, 0, 0, 0                                                                                          \
	}
/* Room for n more bytes (and the NUL of dsi_jout_finish): 0, or -1 with fail set. */
int dsi_jout_reserve(dsi_jout *o, size_t n);
void dsi_jout_put(dsi_jout *o, const char *s, size_t n);
static inline void dsi_jout_putc(dsi_jout *o, char c)
{
	if (o->fail == 0 && o->cap - o->len > 1) /* the common case, inline */
		o->p[o->len++] = c;
	else if (dsi_jout_reserve(o, 1) == 0)
		o->p[o->len++] = c;
}
/* A member's key: a comma first unless first, then the key as a JSON string and a colon. */
void dsi_jout_key(dsi_jout *o, int first, const char *key, size_t n);
/* A JSON string of the n bytes of s. */
void dsi_jout_string(dsi_jout *o, const char *s, size_t n);
void dsi_jout_integer(dsi_jout *o, json_int_t v);
/* v with its keys sorted; depth: how deep v is in what is written. */
void dsi_jout_value(dsi_jout *o, const json_t *v, int depth);
/* jansson's order of sorted keys (compare_keys: the bytes, then the length). */
int dsi_jout_key_cmp(const char *a, size_t alen, const char *b, size_t blen);
/* What the elements dsi_jout_sort_keyed sorts begin with. */
typedef struct dsi_jout_keyed {
	const char *key;
	size_t len;
} dsi_jout_keyed;
#define DSI_JOUT_KEYED_MAX 64 /* larger elements are sorted by qsort whatever their number */
/* Sorts n elements of size bytes (each beginning with a dsi_jout_keyed) in that order. */
void dsi_jout_sort_keyed(void *base, size_t n, size_t size);
/* The text written (NUL-terminated, the caller's to dsi_free), or NULL when fail is set (the buffer is
 * then freed, fail kept). */
char *dsi_jout_finish(dsi_jout *o);

#endif
