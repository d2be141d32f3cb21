/*
 * The JSON front end of a List's items. The default build parses them with the library's own reader
 * (core/jsonfast.h), jansson behind it for whatever it leaves; a build with
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

/* The text the items given to dsi_json_front_item lie in, data[0, size) readable as long as they are
 * parsed (NULL: none): simdjson reads an item there, with no copy, when the text goes on for
 * SIMDJSON_PADDING bytes after it (what those bytes hold does not matter); an item elsewhere or too
 * near the end is copied as before. f may be NULL; a no-op in the default build. */
void dsi_json_front_set_buffer(dsi_json_front *f, const char *data, size_t size);

/* What an item's tree may leave out, for a caller that never reads it: */
enum {
	/* a Node's status.images (core/jsonscan.h, dsi_jsonscan_node_images) in the form kubelets write,
	 * which jansson reads without error and Go's decoder into []ContainerImage: [] in its place */
	DSI_FRONT_NODE_IMAGES = 1u
};

/* The value that is all of text[0, n) (a List item, whose bounds the scanner found), as
 * json_loadb(text, n, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK, je) gives it: the same
 * tree with je->position n, or NULL with je as jansson fills it. f may be NULL. skip: the
 * DSI_FRONT_* that may be left out (then the tree is that one with each such value replaced by an
 * empty array, and the errors are still jansson's on the whole text); item_kind: the kind the item's
 * List gives it ("Node" for a NodeList, may be NULL). */
json_t *dsi_json_front_item(dsi_json_front *f, const char *text, size_t n, unsigned skip, const char *item_kind,
			    json_error_t *je);

/* Whether this build has the simdjson front end (for the tests and the benchmark's label). */
int dsi_json_front_simd(void);

#endif
