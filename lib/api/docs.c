/*
 * Reading the document arguments of the pure functions (docs.h): one parse per text, Go's
 * decoding checks, the objects of a list with their places in the text.
 */
#include "api/docs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_options.h"
#include "apiserver/canonical.h"
#include "apiserver/decodecheck.h"
#include "apiserver/schema.h"
#include "core/alloc.h"
#include "core/load.h"

int dsi_api_parse_doc(const char *text, size_t size, const char *what, json_t **out, ds_error *err)
{
	*out = NULL;
	if (!text && size)
		return dsi_error_set(err, DS_EARG, NULL, "%s is NULL with size %zu", what, size);
	int rc = dsi_parse_one(text ? text : "", size, &dsi_core_options_default()->limits, out, err);
	if (rc == DS_EMISSING) { /* no document */
		ds_error_clear(err);
		return 0;
	}
	if (rc == 0 && json_is_null(*out)) {
		json_decref(*out);
		*out = NULL;
	}
	if (rc < 0)
		dsi_error_set_source(err, what);
	return rc;
}

int dsi_api_go_decode(json_t *v, int type, ds_error *err) { return dsi_decode(v, type, err); }

int dsi_api_pod_type(const json_t *obj)
{
	const json_t *spec = json_object_get(obj, "spec");
	return spec && !json_is_null(spec) ? dsi_schema_root_type("v1", "Pod") : dsi_decode_type_named("PodSpec");
}

int dsi_api_pod_type_strict(void) { return dsi_schema_root_type("v1", "Pod"); }

/* The named core/v1 type an argument decodes into, by name: "Pod" (or a PodSpec, see pod_type). */
static int go_type(const char *name, const json_t *v)
{
	return strcmp(name, "Pod") == 0 ? dsi_api_pod_type(v) : dsi_decode_type_named(name);
}

int dsi_api_parse_object(const char *text, size_t size, const char *what, const char *type_name, json_t **out,
			 ds_error *err)
{
	int rc = dsi_api_parse_doc(text, size, what, out, err);
	return rc < 0 ? rc : dsi_api_check_object(out, what, type_name, err);
}

int dsi_api_check_object(json_t **out, const char *what, const char *type_name, ds_error *err)
{
	int rc = 0;
	if (json_is_null(*out)) {
		json_decref(*out);
		*out = NULL;
	}
	if (!*out)
		rc = dsi_error_set(err, DS_EMISSING, NULL, "expected %s object, got nothing", what);
	else if (rc == 0 && !json_is_object(*out))
		rc = dsi_error_set(err, DS_ETYPE, NULL, "expected %s object, got %s", what, dsi_json_type_name(*out));
	else if (rc == 0 && type_name)
		rc = dsi_api_go_decode(*out, go_type(type_name, *out), err);
	if (rc < 0) {
		json_decref(*out);
		*out = NULL;
		dsi_error_set_source(err, what);
	}
	return rc;
}

int dsi_api_parse_list(const char *text, size_t size, const char *what, int type, json_t **wrapped, ds_error *err)
{
	json_t *v;
	*wrapped = NULL;
	int rc = dsi_api_parse_doc(text, size, what, &v, err);
	return rc < 0 ? rc : dsi_api_check_list(v, what, type, wrapped, err);
}

int dsi_api_check_list(json_t *v, const char *what, int type, json_t **wrapped, ds_error *err)
{
	int rc = 0;
	*wrapped = NULL;
	if (json_is_null(v)) {
		json_decref(v);
		v = NULL;
	}
	if (v && !json_is_array(v))
		rc = dsi_error_set(err, DS_ETYPE, NULL, "expected an array of %s, got %s", what, dsi_json_type_name(v));
	else if (v)
		rc = dsi_api_go_decode(v, type, err);
	if (rc < 0) {
		dsi_error_set_source(err, what);
		json_decref(v);
		return rc;
	}
	*wrapped = json_pack("{s:o}", "v", v ? v : json_array());
	return *wrapped ? 0 : dsi_error_nomem(err);
}

void dsi_api_lenient_rd(dsi_rd *rd, ds_error *err)
{
	dsi_rd_init(rd, err);
	rd->lenient = 1;
}

const json_t *dsi_api_spec_of(const json_t *obj)
{
	const json_t *spec = json_object_get(obj, "spec");
	return json_is_object(spec) ? spec : obj;
}

/* ---- the objects of a document argument -------------------------------------------------------- */

static int add_object(dsi_api_objects *o, json_t *obj, const char *path, size_t document, size_t *cap, ds_error *err)
{
	size_t n = json_array_size(o->arr);
	if (DSI_GROW(o->where, *cap, n + 1) < 0 || json_array_append(o->arr, obj) < 0)
		return dsi_error_nomem(err);
	snprintf(o->where[n].path, sizeof(o->where[n].path), "%s", path);
	o->where[n].document = document;
	if (document + 1 > o->documents)
		o->documents = document + 1;
	return 0;
}

typedef struct collector {
	dsi_api_objects *o;
	size_t cap;
} collector;

/* A loaded object, kept as it is: the tree is the one this parse made (never the caller's), so the
 * object is taken with a reference rather than copied, and its list's kind written into it. */
static int collect(void *ctx, const dsi_loaded *it, ds_error *err)
{
	collector *c = ctx;
	if (!json_is_object(it->obj))
		return dsi_error_set(err, DS_ETYPE, it->path, "expected an object, got %s",
				     dsi_json_type_name(it->obj));
	/* the API server's list items carry no kind: their list's kind says it */
	if ((it->kind && !json_object_get(it->obj, "kind") &&
	     json_object_set_new(it->obj, "kind", json_string(it->kind)) < 0) ||
	    (it->api_version && !json_object_get(it->obj, "apiVersion") &&
	     json_object_set_new(it->obj, "apiVersion", json_string(it->api_version)) < 0))
		return dsi_error_nomem(err);
	return add_object(c->o, it->obj, it->path, it->document, &c->cap, err);
}

void dsi_api_objects_release(dsi_api_objects *o)
{
	json_decref(o->arr);
	dsi_free(o->where);
	memset(o, 0, sizeof(*o));
}

static void objects_reset(dsi_api_objects *o) { json_array_clear(o->arr), o->documents = 0, o->listed = 0; }

/* A typed List of the text, so that the snapshot knows what kinds it was given none of. */
static void collect_list(void *ctx, const char *item_kind, const char *api)
{
	collector *c = ctx;
	int s = dsi_supply_of(item_kind, api);
	if (s >= 0)
		c->o->listed |= 1u << s;
}

/* The loader on text, each object to collect. */
static int load_all(const char *text, size_t size, const dsi_limits *lim, collector *c, ds_error *err)
{
	objects_reset(c->o);
	return dsi_load_text_lists(text, size, lim, collect, NULL, NULL, 0, collect_list, c, err);
}

int dsi_api_objects_of(const char *text, size_t size, const dsi_limits *lim, dsi_api_objects *o, ds_error *err)
{
	memset(o, 0, sizeof(*o));
	if (!(o->arr = json_array()))
		return dsi_error_nomem(err);
	collector c = {o, 0};
	size_t i = 0;
	while (i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	json_t *one = NULL;
	int rc = 0;
	if (i < size && text[i] == '{') {
		/* an object, a List or concatenated values: the loader's */
		return load_all(text, size, lim, &c, err);
	} else if (i < size && text[i] == '[') {
		rc = dsi_parse_one(text, size, lim, &one, err);
	} else {
		/* YAML: a sequence of objects reads as the JSON array does. One parse: a single document
		 * is walked as the loader walks it; a stream, or any error (whose report, its document and
		 * line, is the loader's), goes to the loader after all. */
		ds_error ignored;
		if (dsi_parse_one(text, size, lim, &one, &ignored) < 0)
			return load_all(text, size, lim, &c, err);
		if (!json_is_array(one)) {
			rc = dsi_load_value_lists(one, lim, collect, collect_list, &c, err);
			json_decref(one);
			if (rc < 0) {
				ds_error_clear(err);
				rc = load_all(text, size, lim, &c, err);
			}
			return rc;
		}
	}
	json_t *v;
	json_array_foreach(rc == 0 ? one : NULL, i, v)
	{
		char at[32];
		snprintf(at, sizeof(at), "[%zu]", i);
		if (!json_is_object(v)) {
			rc = dsi_error_set(err, DS_ETYPE, at, "expected an object, got %s", dsi_json_type_name(v));
			break;
		}
		if ((rc = add_object(o, v, at, 0, &c.cap, err)) < 0)
			break;
	}
	json_decref(one);
	return rc;
}

int dsi_api_objects_of_value(json_t *v, const dsi_limits *lim, dsi_api_objects *o, ds_error *err)
{
	memset(o, 0, sizeof(*o));
	collector c = {o, 0};
	int rc = 0;
	if (!(o->arr = json_array()))
		rc = dsi_error_nomem(err);
	else if (!json_is_array(v))
		rc = dsi_load_value_lists(v, lim, collect, collect_list, &c, err);
	size_t i;
	json_t *e;
	json_array_foreach(rc == 0 && json_is_array(v) ? v : NULL, i, e)
	{
		char at[32];
		snprintf(at, sizeof(at), "[%zu]", i);
		if (!json_is_object(e)) {
			rc = dsi_error_set(err, DS_ETYPE, at, "expected an object, got %s", dsi_json_type_name(e));
			break;
		}
		if ((rc = add_object(o, e, at, 0, &c.cap, err)) < 0)
			break;
	}
	json_decref(v);
	return rc;
}

int dsi_api_objects_decode(dsi_api_objects *o, const char *kind, const char *api_version, size_t *document,
			   ds_error *err)
{
	size_t i;
	*document = 0;
	json_t *obj;
	/* each object as Go decodes it into its kind's type (a kind given but not a string is the
	 * decoder's error, not the default kind) */
	json_array_foreach(o->arr, i, obj)
	{
		const json_t *k = json_object_get(obj, "kind");
		const char *kn = json_is_string(k) ? json_string_value(k) : kind;
		int rc = dsi_api_go_decode(obj, dsi_decode_type_of_kind(kn), err);
		if (rc < 0) {
			dsi_error_prefix_path(err, o->where[i].path);
			if (o->documents > 1)
				*document = o->where[i].document + 1;
			return rc;
		}
	}
	json_array_foreach(o->arr, i, obj)
	{
		if (json_string_value(json_object_get(obj, "kind")))
			continue;
		if (json_object_set_new(obj, "kind", json_string(kind)) < 0 ||
		    (!json_object_get(obj, "apiVersion") &&
		     json_object_set_new(obj, "apiVersion", json_string(api_version)) < 0))
			return dsi_error_nomem(err);
	}
	return 0;
}

size_t dsi_api_error_at_origin(ds_error *err, const dsi_api_objects *o)
{
	char *end;
	if (strncmp(err->path, "items[", 6) != 0)
		return 0;
	unsigned long i = strtoul(err->path + 6, &end, 10);
	if (*end != ']' || i >= json_array_size(o->arr))
		return 0;
	const dsi_api_origin *w = &o->where[i];
	const char *rest = end + 1, *at = w->path;
	if (!*at && *rest == '.')
		rest++;
	char path[DS_ERROR_PATH_MAX];
	snprintf(path, sizeof(path), "%s%.*s", at, (int)(sizeof(path) - 1 - strlen(at)), rest);
	memcpy(err->path, path, sizeof(path));
	return o->documents > 1 ? w->document + 1 : 0;
}

void dsi_api_error_source(ds_error *err, const char *what, size_t document)
{
	char src[DS_ERROR_SOURCE_MAX];
	if (document)
		snprintf(src, sizeof(src), "%s, document %zu", what, document);
	else if (err->source[0])
		snprintf(src, sizeof(src), "%s, %.*s", what, (int)(sizeof(src) - 3 - strlen(what)), err->source);
	else
		snprintf(src, sizeof(src), "%s", what);
	dsi_error_set_source(err, src);
}

/* ---- a private snapshot of the objects of an argument -------------------------------------------- */

int dsi_api_scratch_init(dsi_cluster *c, const ds_options *opts, ds_error *err)
{
	dsi_model_options m = *dsi_o_model(opts);
	m.lenient = 1;
	m.prepare = dsi_canonical_prepare; /* the template hashed in canonical form */
	return dsi_cluster_init(c, dsi_o_core(opts), &m) < 0 ? dsi_error_nomem(err) : 0;
}

int dsi_api_scratch_add(dsi_cluster *c, const char *text, size_t size, const char *kind, const char *api_version,
			const char *bind, int exactly, const char *what, ds_error *err)
{
	return dsi_api_scratch_add_objects(c, text, size, NULL, kind, api_version, bind, exactly, NULL, what, err);
}

int dsi_api_scratch_add_objects(dsi_cluster *c, const char *text, size_t size, json_t *value, const char *kind,
				const char *api_version, const char *bind, int exactly, dsi_api_objects *kept,
				const char *what, ds_error *err)
{
	if (!value && !text && size)
		return dsi_error_set(err, DS_EARG, NULL, "%s is NULL with size %zu", what, size);
	dsi_api_objects o;
	size_t document = 0;
	int rc = value ? dsi_api_objects_of_value(value, &c->core.limits, &o, err)
		       : dsi_api_objects_of(text ? text : "", size, &c->core.limits, &o, err);
	json_t *arr = o.arr;
	if (rc == 0 && exactly && json_array_size(arr) != 1)
		rc = dsi_error_set(err, json_array_size(arr) ? DS_EARG : DS_EMISSING, NULL, "expected one %s, got %zu",
				   kind, json_array_size(arr));
	if (rc == 0)
		rc = dsi_api_objects_decode(&o, kind, api_version, &document, err);
	size_t i;
	json_t *obj;
	json_array_foreach(rc == 0 && bind ? arr : NULL, i, obj)
	{
		const char *k = json_string_value(json_object_get(obj, "kind"));
		json_t *spec = json_object_get(obj, "spec");
		if (strcmp(k, "Pod") == 0 && json_is_object(spec) &&
		    !json_string_value(json_object_get(spec, "nodeName")))
			json_object_set_new(spec, "nodeName", json_string(bind));
	}
	if (rc == 0) { /* a List without an apiVersion: its items keep theirs, or have none (a kind of the
			* library without one is read as its own group's, as the snapshot reads it) */
		json_t *list = json_pack("{s:s, s:O}", "kind", "List", "items", arr);
		rc = list ? dsi_cluster_load_value(c, list, NULL, err) : dsi_error_nomem(err);
		json_decref(list);
		if (rc < 0)
			document = dsi_api_error_at_origin(err, &o);
		else /* the generic List that carried them names no kind: the typed ones the text held */
			dsi_cluster_mark_listed(c, o.listed);
	}
	if (rc == 0 && kept)
		*kept = o;
	else
		dsi_api_objects_release(&o);
	if (rc < 0)
		dsi_api_error_source(err, what, document);
	return rc;
}
