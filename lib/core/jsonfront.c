#include "core/jsonfront.h"

#include <string.h>

#include "core/jsonfast.h"
#include "core/jsonscan.h"

/* jsonfront_simd.cpp, in SIMDJSON=1 builds */
#ifdef DSI_SIMDJSON
dsi_json_front *dsi_json_front_simd_new(void);
void dsi_json_front_simd_free(dsi_json_front *f);
void dsi_json_front_simd_set_buffer(dsi_json_front *f, const char *data, size_t size);
json_t *dsi_json_front_simd_item(dsi_json_front *f, const char *text, size_t n, unsigned skip, const char *item_kind);
#endif

#define ITEM_FLAGS (JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK)

dsi_json_front *dsi_json_front_new(void)
{
#ifdef DSI_SIMDJSON
	return dsi_json_front_simd_new();
#else
	return NULL;
#endif
}

void dsi_json_front_free(dsi_json_front *f)
{
#ifdef DSI_SIMDJSON
	dsi_json_front_simd_free(f);
#else
	(void)f;
#endif
}

void dsi_json_front_set_buffer(dsi_json_front *f, const char *data, size_t size)
{
#ifdef DSI_SIMDJSON
	if (f)
		dsi_json_front_simd_set_buffer(f, data, size);
#else
	(void)f;
	(void)data;
	(void)size;
#endif
}

/* The text jansson reads when a value is left out: the bytes before it, "[]", the bytes after. */
typedef struct cut_feed {
	const char *part[3];
	size_t len[3];
	unsigned k;
	size_t off;
} cut_feed;

static size_t feed(void *buf, size_t size, void *data)
{
	cut_feed *c = data;
	while (c->k < 3 && c->off == c->len[c->k]) {
		c->k++;
		c->off = 0;
	}
	if (c->k == 3)
		return 0;
	size_t m = c->len[c->k] - c->off < size ? c->len[c->k] - c->off : size;
	memcpy(buf, c->part[c->k] + c->off, m);
	c->off += m;
	return m;
}

/* jansson's tree of text[0, n) with text[from, to) read as [], or NULL (any error: the caller
 * parses the whole text, whose error is the answer). */
static json_t *load_cut(const char *text, size_t n, size_t from, size_t to, json_error_t *je)
{
	cut_feed c = {{text, "[]", text + to}, {from, 2, n - to}, 0, 0};
	json_t *v = json_load_callback(feed, &c, ITEM_FLAGS, je);
	if (v && (size_t)je->position == n - (to - from) + 2) {
		je->position = (int)n;
		return v;
	}
	json_decref(v);
	return NULL;
}

json_t *dsi_json_front_item(dsi_json_front *f, const char *text, size_t n, unsigned skip, const char *item_kind,
			    json_error_t *je)
{
#ifdef DSI_SIMDJSON
	json_t *v = f && n <= (size_t)0x7fffffff ? dsi_json_front_simd_item(f, text, n, skip, item_kind) : NULL;
	if (v) {
		je->position = (int)n;
		return v;
	}
#else
	(void)f;
#endif
	size_t from, to;
	if ((skip & DSI_FRONT_NODE_IMAGES) && n <= (size_t)0x7fffffff &&
	    dsi_jsonscan_node_images(text, n, item_kind, &from, &to)) {
		/* our reader first (core/jsonfast.h), then jansson's through the callback */
		json_t *cut = dsi_json_fast_loadb_cut(text, n, from, to, ITEM_FLAGS, je);
		if (cut && (size_t)je->position == n)
			return cut;
		json_decref(cut);
		cut = load_cut(text, n, from, to, je);
		if (cut)
			return cut;
	}
	/* our reader's (core/jsonfast.h), else jansson's: whatever simdjson could not */
	return dsi_json_loadb_fast(text, n, ITEM_FLAGS, je);
}

int dsi_json_front_simd(void)
{
#ifdef DSI_SIMDJSON
	return 1;
#else
	return 0;
#endif
}
