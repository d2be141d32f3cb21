/*
 * libFuzzer target: the two JSON front ends (lib/core/jsonfront.h) on every input. The fuzz build
 * has the simdjson front end when simdjson is installed (tests/fuzz/run.sh builds SIMDJSON=1 then),
 * and the bytes go through it and through jansson alone. Invariant: the same tree (types exact,
 * reals bit for bit, keys in the same order) or the same error (text, line, column, position).
 * The same again with the bytes inside a larger text (dsi_json_front_set_buffer), with 64 bytes
 * after them (read in place) and none (copied).
 * The ingest targets (fuzz_load_json, fuzz_events, fuzz_plan...) go through the front end too.
 * Then again with a Node's status.images left out (DSI_FRONT_NODE_IMAGES, as the snapshot loads),
 * the item's List a NodeList: the same error, or jansson's tree or that tree with status.images []
 * where the images were ContainerImages Go decodes without error (so the cut never hides what the
 * decoding check would refuse).
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>

#include "fuzz_common.h"
#include "core/jsonfront.h"
#include "../support/jsonsame.h"

static dsi_json_front *front; /* reused, as a loading thread reuses its own */

/* v is []ContainerImage that the decoding check passes whatever the text's spelling: objects with
 * names (strings) and sizeBytes (an integer >= 0), nothing else. */
static int plain_images(const json_t *v)
{
	size_t i;
	json_t *img;
	if (!json_is_array(v))
		return 0;
	json_array_foreach(v, i, img)
	{
		const char *k;
		json_t *m;
		if (!json_is_object(img))
			return 0;
		json_object_foreach(img, k, m)
		{
			size_t j;
			json_t *name;
			if (strcmp(k, "sizeBytes") == 0 && json_is_integer(m) && json_integer_value(m) >= 0)
				continue;
			if (strcmp(k, "names") != 0 || !json_is_array(m))
				return 0;
			json_array_foreach(m, j, name) if (!json_is_string(name)) return 0;
		}
	}
	return 1;
}

/* The front end f (NULL: jansson) with a Node's status.images left out, against jansson's b and
 * jj on the whole text. */
static void cut_alike(dsi_json_front *f, const uint8_t *data, size_t size, const json_t *b, const json_error_t *jj)
{
	json_error_t jf;
	memset(&jf, 0, sizeof(jf));
	json_t *a = dsi_json_front_item(f, (const char *)data, size, DSI_FRONT_NODE_IMAGES, "Node", &jf);
	FUZZ_ASSERT(!a == !b, "images left out: front end %s, jansson %s", a ? "a tree" : jf.text,
		    b ? "a tree" : jj->text);
	if (a) {
		FUZZ_ASSERT(jf.position == jj->position, "images left out: positions %d and %d", jf.position,
			    jj->position);
		if (!dsi_test_json_same(a, b)) {
			const json_t *images = json_object_get(json_object_get(b, "status"), "images");
			FUZZ_ASSERT(plain_images(images), "images left out that are not plain ContainerImages");
			json_t *cut = json_deep_copy(b);
			if (cut)
				json_object_set_new(json_object_get(cut, "status"), "images", json_array());
			FUZZ_ASSERT(!cut || dsi_test_json_same(a, cut),
				    "images left out: the trees differ beyond status.images");
			json_decref(cut);
		}
	} else {
		FUZZ_ASSERT(strcmp(jf.text, jj->text) == 0 && jf.line == jj->line && jf.column == jj->column &&
				    jf.position == jj->position,
			    "images left out: errors differ: %s against %s", jf.text, jj->text);
	}
	json_decref(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!front)
		front = dsi_json_front_new();
	json_error_t jf, jj;
	memset(&jf, 0, sizeof(jf));
	memset(&jj, 0, sizeof(jj));
	json_t *a = dsi_json_front_item(front, (const char *)data, size, 0, NULL, &jf);
	json_t *b = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK, &jj);
	FUZZ_ASSERT(!a == !b, "front end %s, jansson %s", a ? "a tree" : jf.text, b ? "a tree" : jj.text);
	if (a) {
		FUZZ_ASSERT(dsi_test_json_same(a, b), "the trees differ");
		FUZZ_ASSERT(jf.position == jj.position, "positions %d and %d", jf.position, jj.position);
	} else {
		FUZZ_ASSERT(strcmp(jf.text, jj.text) == 0 && jf.line == jj.line && jf.column == jj.column &&
				    jf.position == jj.position,
			    "errors differ: %s against %s", jf.text, jj.text);
	}
	json_decref(a);
	/* the bytes inside a larger text, as a List's items are read (dsi_json_front_set_buffer): in
	 * place when SIMDJSON_PADDING bytes follow (the input's own bytes again here), else copied */
	for (size_t pad = 0; pad <= 64; pad += 64) {
		char *buf = malloc(size + pad + 1);
		if (!buf)
			break;
		buf[0] = '[';
		memcpy(buf + 1, data, size);
		for (size_t k = 0; k < pad; k++)
			buf[1 + size + k] = size ? (char)data[k % size] : '"';
		dsi_json_front_set_buffer(front, buf, size + pad + 1);
		json_error_t jp;
		memset(&jp, 0, sizeof(jp));
		json_t *p = dsi_json_front_item(front, buf + 1, size, 0, NULL, &jp);
		FUZZ_ASSERT(!p == !b, "in place: front end %s, jansson %s", p ? "a tree" : jp.text,
			    b ? "a tree" : jj.text);
		if (p)
			FUZZ_ASSERT(dsi_test_json_same(p, b) && jp.position == jj.position,
				    "in place: the trees differ");
		else
			FUZZ_ASSERT(strcmp(jp.text, jj.text) == 0 && jp.line == jj.line && jp.column == jj.column &&
					    jp.position == jj.position,
				    "in place: errors differ: %s against %s", jp.text, jj.text);
		json_decref(p);
		dsi_json_front_set_buffer(front, NULL, 0);
		free(buf);
	}
	/* images left out, by this build's front end and by jansson alone (the default build's way) */
	for (int with = 0; with < 2; with++)
		cut_alike(with ? NULL : front, data, size, b, &jj);
	json_decref(b);
	return 0;
}
