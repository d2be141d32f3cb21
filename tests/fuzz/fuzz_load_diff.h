/* The differential half of the load targets (fuzz_load_json, fuzz_load_yaml): a List parsed item by
 * item (dsi_load_text_staged) against the same bytes parsed whole (dsi_load_text), the same items or
 * the same error to the last field; and again with a Node's status.images left out
 * (DSI_FRONT_NODE_IMAGES, as ds_cluster_load reads, JSON and YAML alike): the same error, and the same
 * items but for status.images [] in a Node's.
 * SPDX-License-Identifier: Apache-2.0 */
#ifndef FUZZ_LOAD_DIFF_H
#define FUZZ_LOAD_DIFF_H

#include "core/jsonfront.h"
#include "core/load.h"
#include "fuzz_load.h"

typedef struct seen {
	json_t *items;
	size_t fail_at; /* fn refuses this item */
} seen;

static int collect(void *ctx, const dsi_loaded *it, ds_error *err)
{
	seen *s = ctx;
	if (json_array_size(s->items) == s->fail_at) {
		snprintf(err->source, sizeof(err->source), "fn");
		return dsi_error_set(err, DS_EVALUE, it->path, "refused");
	}
	char *obj = json_dumps(it->obj, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	FUZZ_ASSERT(obj, "json_dumps failed");
	json_array_append_new(s->items,
			      json_pack("{s:s, s:s, s:s?, s:s?, s:I}", "obj", obj, "path", it->path, "kind", it->kind,
					"apiVersion", it->api_version, "doc", (json_int_t)it->document));
	free(obj);
	return 0;
}

static void forget(void *ctx) { json_array_clear(((seen *)ctx)->items); }

static void same_both_ways(const uint8_t *data, size_t size, size_t max_objects, size_t fail_at)
{
	dsi_limits lim;
	dsi_limits_default(&lim);
	lim.max_objects = max_objects;
	seen whole = {json_array(), fail_at}, part = {json_array(), fail_at};
	ds_error we, pe;
	ds_error_clear(&we);
	ds_error_clear(&pe);
	int wr = dsi_load_text((const char *)data, size, &lim, collect, &whole, &we);
	int pr = dsi_load_text_staged((const char *)data, size, &lim, collect, forget, &part, &pe);
	FUZZ_ASSERT(wr == pr, "rc %d whole, %d staged (%s / %s)", wr, pr, we.message, pe.message);
	if (wr < 0) {
		FUZZ_ASSERT(strcmp(we.message, pe.message) == 0 && strcmp(we.path, pe.path) == 0 &&
				    strcmp(we.source, pe.source) == 0 && we.line == pe.line && we.column == pe.column,
			    "errors differ: %s at %s (%s %d:%d) whole, %s at %s (%s %d:%d) staged", we.message, we.path,
			    we.source, we.line, we.column, pe.message, pe.path, pe.source, pe.line, pe.column);
		size_t n = json_array_size(whole.items);
		FUZZ_ASSERT(n <= json_array_size(part.items), "whole handed out %zu items, staged %zu", n,
			    json_array_size(part.items));
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT(json_equal(json_array_get(whole.items, i), json_array_get(part.items, i)),
				    "item %zu differs", i);
	} else
		FUZZ_ASSERT(json_equal(whole.items, part.items), "the items differ");
	/* the images left out: the same outcome, items alike but for a Node's status.images */
	seen cut = {json_array(), fail_at};
	ds_error ce;
	ds_error_clear(&ce);
	int cr = dsi_load_text_par((const char *)data, size, &lim, collect, forget, NULL, DSI_FRONT_NODE_IMAGES, &cut,
				   &ce);
	FUZZ_ASSERT(wr == cr, "rc %d whole, %d with the images left out (%s / %s)", wr, cr, we.message, ce.message);
	if (wr < 0)
		FUZZ_ASSERT(strcmp(we.message, ce.message) == 0 && strcmp(we.path, ce.path) == 0 &&
				    strcmp(we.source, ce.source) == 0 && we.line == ce.line && we.column == ce.column,
			    "errors differ: %s at %s whole, %s at %s with the images left out", we.message, we.path,
			    ce.message, ce.path);
	size_t n = json_array_size(whole.items) < json_array_size(cut.items) ? json_array_size(whole.items)
									     : json_array_size(cut.items);
	FUZZ_ASSERT(wr < 0 || json_array_size(whole.items) == json_array_size(cut.items), "the item counts differ");
	for (size_t i = 0; i < n; i++) {
		json_t *w = json_array_get(whole.items, i), *c = json_array_get(cut.items, i);
		if (json_equal(w, c))
			continue;
		/* the object's text: only its status.images may differ, and be [] */
		json_t *wo = json_loads(json_string_value(json_object_get(w, "obj")), 0, NULL);
		json_t *co = json_loads(json_string_value(json_object_get(c, "obj")), 0, NULL);
		const char *kind = json_string_value(json_object_get(w, "kind"));
		FUZZ_ASSERT(wo && co && kind && strcmp(kind, "Node") == 0, "item %zu differs, not a Node's images", i);
		json_t *images = json_object_get(json_object_get(co, "status"), "images");
		FUZZ_ASSERT(json_is_array(images) && json_array_size(images) == 0, "item %zu differs beyond images", i);
		json_object_set_new(json_object_get(wo, "status"), "images", json_array());
		FUZZ_ASSERT(json_equal(wo, co), "item %zu differs beyond status.images", i);
		json_object_set(w, "obj", json_object_get(c, "obj"));
		FUZZ_ASSERT(json_equal(w, c), "item %zu's path, kind or document differs", i);
		json_decref(wo);
		json_decref(co);
	}
	json_decref(cut.items);
	json_decref(whole.items);
	json_decref(part.items);
}

#endif
