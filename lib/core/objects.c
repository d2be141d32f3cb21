#include "core/objects.h"

#include "core/load.h"

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

static int add(void *ctx, const dsi_loaded *it, ds_error *err)
{
	json_t *arr = ctx;
	if (!json_is_object(it->obj))
		return dsi_error_set(err, DS_ETYPE, it->path, "expected an object, got %s",
				     json_is_array(it->obj) ? "array" : "a scalar");
	json_t *o = dsi_loaded_object(it);
	if (!o || json_array_append_new(arr, o))
		return dsi_error_nomem(err);
	return 0;
}

int dsi_objects_parse(const char *data, size_t size, const dsi_limits *lim, json_t **out, ds_error *err)
{
	*out = json_array();
	if (!*out)
		return dsi_error_nomem(err);
	int rc = dsi_load_text(data, size, lim, add, *out, err);
	if (rc < 0) {
		json_decref(*out);
		*out = NULL;
	}
	return rc;
}
