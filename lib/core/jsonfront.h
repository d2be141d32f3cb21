/*
 * The JSON front end of a List's items. The default build parses them with jansson; a build with
 * `make SIMDJSON=1` parses them with simdjson's On-Demand API (jsonfront_simd.cpp) into the same
 * jansson tree, and hands to jansson every item whose tree simdjson's reading might not equal:
 * a repeated key, an integer beyond int64, a real that jansson would refuse, "\u0000", a surrogate
 * escape, a control character in a string, nesting beyond simdjson's 1024 (jansson's 2048), and
 * anything simdjson refuses (invalid UTF-8 among it) so that every error is jansson's own.
 */
#ifndef DSI_JSONFRONT_H
#define DSI_JSONFRONT_H

#include <jansson.h>
#include <stddef.h>

/* A parser for one thread's items (simdjson reuses its buffers); NULL in the default build, and
 * without memory, when jansson parses every item. */
typedef struct dsi_json_front dsi_json_front;
dsi_json_front *dsi_json_front_new(void);
void dsi_json_front_free(dsi_json_front *f);

/* The value that is all of text[0, n) (a List item, whose bounds the scanner found), as
 * json_loadb(text, n, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK, je) gives it: the same
 * tree with je->position n, or NULL with je as jansson fills it. f may be NULL. */
json_t *dsi_json_front_item(dsi_json_front *f, const char *text, size_t n, json_error_t *je);

/* Whether this build has the simdjson front end (for the tests and the benchmark's label). */
int dsi_json_front_simd(void);

#endif
