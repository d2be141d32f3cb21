#include "core/objects.h"

#include "core/load.h"
#include "core/strbuf.h"

json_t *dsi_loaded_object(const dsi_loaded *it)
{
	json_t *o = json_deep_copy(it->obj);
	if (!o)
		return NULL;
	/* the API server's list items carry no kind: their list's kind says it */
	if (it->kind && !json_object_get(o, "kind"))
		json_object_set_new(o, "kind", json_string(it->kind));
	if (it->api_version && !json_object_get(o, "apiVersion"))
		json_object_set_new(o, "apiVersion", json_string(it->api_version));
	return o;
}

static int to_strbuf(const char *buf, size_t size, void *data)
{
	dsi_strbuf *b = data;
	dsi_strbuf_append(b, buf, size);
	return b->oom ? -1 : 0;
}

/*
 * Each object is written out as soon as the loader hands it over, and its tree dropped: a List's items
 * arrive one at a time (dsi_load_text_staged), so that what a call holds at its most is the input, the
 * text written so far and one item (a 223 MB List of 10^6 nodes once took 6.7 GB as one tree and a
 * copy of every item).
 */
static int add(void *ctx, const dsi_loaded *it, ds_error *err)
{
	dsi_strbuf *b = ctx;
	if (!json_is_object(it->obj))
		return dsi_error_set(err, DS_ETYPE, it->path, "expected an object, got %s",
				     json_is_array(it->obj) ? "array" : "a scalar");
	/* kind and apiVersion from the list, on a shallow copy: the item itself is the loader's */
	json_t *o = it->obj, *copy = NULL;
	int need_kind = it->kind && !json_object_get(o, "kind");
	int need_api = it->api_version && !json_object_get(o, "apiVersion");
	if (need_kind || need_api) {
		if (!(copy = json_copy(o)) ||
		    (need_kind && json_object_set_new(copy, "kind", json_string(it->kind)) < 0) ||
		    (need_api && json_object_set_new(copy, "apiVersion", json_string(it->api_version)) < 0)) {
			json_decref(copy);
			return dsi_error_nomem(err);
		}
		o = copy;
	}
	if (b->len > 1) /* after "[" and an object */
		dsi_strbuf_putc(b, ',');
	int rc = json_dump_callback(o, to_strbuf, b, JSON_COMPACT | JSON_SORT_KEYS) < 0 ? dsi_error_nomem(err) : 0;
	json_decref(copy);
	return rc;
}

/* What the loader handed out of a text it then read another way: gone. */
static void forget(void *ctx) { dsi_strbuf_truncate(ctx, 1); }

int dsi_objects_text(const char *data, size_t size, const dsi_limits *lim, char **out, ds_error *err)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_strbuf_putc(&b, '[');
	int rc = b.oom ? dsi_error_nomem(err) : dsi_load_text_staged(data, size, lim, add, forget, &b, err);
	if (rc == 0) {
		dsi_strbuf_putc(&b, ']');
		if (b.oom)
			rc = dsi_error_nomem(err);
	}
	*out = rc == 0 ? dsi_strbuf_detach(&b) : NULL;
	if (rc < 0)
		dsi_strbuf_free(&b);
	return rc;
}
