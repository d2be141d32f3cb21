/*
 * Parsed objects (include/daemonset/object.h): made from text, from a jansson value or from a
 * snapshot, reference counted, never changed. Their documents are read as the text functions of
 * upstream.c read theirs (api/docs.h), into a table of strings of the object's own.
 */
#include "api/object.h"

#include <string.h>

#include "daemonset/jansson.h"

#include "api/api_options.h"
#include "api/docs.h"
#include "api/lookup.h"
#include "apiserver/canonical.h"
#include "core/alloc.h"

static const char *const type_names[DSI_OT_COUNT] = {"Toleration", "Taint", "Node", "DaemonSet"};

/* The name of an argument of type t in errors, as the text functions name theirs. */
static const char *const type_args[DSI_OT_COUNT] = {"toleration", "taint", "node", "daemonset"};

static ds_object *object_new(dsi_otype t, const dsi_core_options *core)
{
	ds_object *o = dsi_calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	atomic_init(&o->refs, 1);
	o->type = t;
	o->gates = core->gates;
	o->k8s_minor = core->k8s_minor;
	dsi_atoms_init(&o->atoms);
	return o;
}

/* Release what a fully or partly built object holds (its typed view is zeroed until read). */
static void object_destroy(ds_object *o)
{
	switch (o->type) {
	case DSI_OT_TOLERATION: dsi_toleration_release(&o->atoms, &o->u.tol); break;
	case DSI_OT_TAINT: dsi_taint_release(&o->atoms, &o->u.taint); break;
	case DSI_OT_NODE: dsi_node_release(&o->atoms, &o->u.node); break;
	case DSI_OT_DAEMONSET:
		dsi_placement_release(&o->u.ds.place);
		dsi_daemonset_release(&o->atoms, &o->u.ds.d);
		for (int i = 0; i < DSI_N_WELL_KNOWN_TAINTS; i++)
			dsi_atom_unref(&o->atoms, o->u.ds.pinned[i]);
		break;
	default: break;
	}
	dsi_atoms_free(&o->atoms);
	dsi_free(o);
}

ds_object *ds_object_ref(ds_object *obj)
{
	if (obj)
		atomic_fetch_add_explicit(&obj->refs, 1, memory_order_relaxed);
	return obj;
}

void ds_object_free(ds_object *obj)
{
	/* release: this thread's use of obj happens before the count drops; acquire (for the last one):
	 * every other thread's happens before the destruction. (acq_rel on the decrement rather than
	 * an acquire fence after it: ThreadSanitizer does not model fences.) */
	if (!obj || atomic_fetch_sub_explicit(&obj->refs, 1, memory_order_acq_rel) != 1)
		return;
	object_destroy(obj);
}

const char *ds_object_type(const ds_object *obj)
{
	return obj && obj->type < DSI_OT_COUNT ? type_names[obj->type] : "";
}

int dsi_object_want(const ds_object *obj, dsi_otype t, const char *what, ds_error *err)
{
	if (obj && obj->type == t)
		return 0;
	if (!obj)
		return dsi_error_set(err, DS_EARG, NULL, "%s must not be NULL", what);
	return dsi_error_set(err, DS_EARG, NULL, "%s: expected a %s object, got a %s", what, type_names[t],
			     type_names[obj->type]);
}

/* ---- reading ------------------------------------------------------------------------------------ */

/* The DaemonSet's placement (the default tolerations merged in), once: its keys are pinned first. */
static int ds_prepare(ds_object *o, ds_error *err)
{
	for (int i = 0; i < DSI_N_WELL_KNOWN_TAINTS; i++)
		if ((o->u.ds.pinned[i] = dsi_atom_intern_cstr(&o->atoms, dsi_well_known_taint_keys[i])) ==
		    DSI_ATOM_ERROR) {
			o->u.ds.pinned[i] = DSI_ATOM_NONE;
			return dsi_error_nomem(err);
		}
	return 0;
}

static int ds_place(ds_object *o, ds_error *err)
{
	const dsi_core_options core = {.gates = o->gates};
	if (dsi_placement_init_atoms(&o->u.ds.place, &o->atoms, &o->u.ds.d, &core) < 0)
		return dsi_error_nomem(err);
	return 0;
}

/* What an object is made from: text, or a jansson value of the caller's. */
typedef struct input {
	const char *text;
	size_t size;
	const json_t *value; /* when not NULL */
} input;

/* A toleration or a taint: one object, decoded as its Go type, read as Go's decoder reads it. */
static int read_small(ds_object *o, const input *in, const char *what, ds_error *err)
{
	json_t *j = NULL;
	int rc;
	if (!in->value)
		rc = dsi_api_parse_object(in->text, in->size, what, type_names[o->type], &j, err);
	else if (!(j = json_deep_copy(in->value)))
		rc = dsi_error_nomem(err);
	else
		rc = dsi_api_check_object(&j, what, type_names[o->type], err);
	if (rc < 0)
		return rc;
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	rc = o->type == DSI_OT_TOLERATION ? dsi_toleration_read(&rd, &o->atoms, j, &o->u.tol)
					  : dsi_taint_read(&rd, &o->atoms, j, &o->u.taint);
	if (rc < 0)
		dsi_error_set_source(err, what);
	json_decref(j);
	return rc;
}

/* The one object of a document as the kind want (DSI_KIND_COUNT: a Node or a DaemonSet, whichever it
 * is), as the text functions load theirs into a snapshot (a List or a stream of one object, a kind
 * or apiVersion defaulted, read leniently), but straight into o. *type gets what it was. */
static int read_kind(ds_object *o, dsi_kind want, const input *in, const ds_options *opts, const char *what,
		     ds_error *err)
{
	const char *kind = want == DSI_KIND_NODE ? "Node" : "DaemonSet";
	const char *api = want == DSI_KIND_NODE ? "v1" : "apps/v1";
	if (!in->value && !in->text && in->size)
		return dsi_error_set(err, DS_EARG, NULL, "%s is NULL with size %zu", what, in->size);
	dsi_api_objects objs;
	size_t document = 0;
	const dsi_limits *lim = &dsi_o_core(opts)->limits;
	json_t *copy = in->value ? json_deep_copy(in->value) : NULL;
	int rc = !in->value ? dsi_api_objects_of(in->text ? in->text : "", in->size, lim, &objs, err)
		 : copy     ? dsi_api_objects_of_value(copy, lim, &objs, err)
			    : (memset(&objs, 0, sizeof(objs)), dsi_error_nomem(err));
	size_t n = json_array_size(objs.arr);
	if (rc == 0 && n != 1)
		rc = dsi_error_set(err, n ? DS_EARG : DS_EMISSING, NULL, "expected one %s, got %zu",
				   want == DSI_KIND_COUNT ? "object" : kind, n);
	json_t *obj = rc == 0 ? json_array_get(objs.arr, 0) : NULL;
	if (obj && want == DSI_KIND_COUNT && !json_object_get(obj, "kind")) {
		rc = dsi_error_set(err, DS_EMISSING, "kind",
				   "required value: an object without a kind needs a type (Node, DaemonSet, ...)");
		dsi_error_prefix_path(err, objs.where[0].path);
	}
	if (rc == 0)
		rc = dsi_api_objects_decode(&objs, kind, api, &document, err);
	if (rc < 0)
		obj = NULL; /* the path already names the object */
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	dsi_kind k = DSI_KIND_OTHER;
	int legacy = 0;
	const char *kn = json_string_value(json_object_get(obj, "kind"));
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	if (rc == 0)
		rc = dsi_classify_kind(kn, av, dsi_o_model(opts)->legacy_daemonsets, &rd, &k, &legacy);
	int wrong = rc == 0 && (want == DSI_KIND_COUNT ? k != DSI_KIND_NODE && k != DSI_KIND_DAEMONSET : k != want);
	if (wrong) { /* as the text functions find their objects missing after loading */
		dsi_api_objects_release(&objs);
		if (want == DSI_KIND_COUNT)
			return dsi_error_set(err, DS_EUNSUPPORTED, "kind",
					     "expected a Node or a DaemonSet (or a type for ds_object_parse), got %s",
					     kn);
		return dsi_error_set(err, DS_EVALUE, "kind", "expected a %s", kind);
	}
	if (rc == 0 && k == DSI_KIND_NODE) {
		o->type = DSI_OT_NODE;
		if ((rc = dsi_node_read(&rd, &o->atoms, obj, &o->u.node)) == 0) {
			/* a cluster-scoped object has no namespace, whatever its text says (the snapshot's
			 * clear_cluster_scoped_namespace) */
			dsi_atom_unref(&o->atoms, o->u.node.meta.ns);
			o->u.node.meta.ns = DSI_ATOM_NONE;
		}
	} else if (rc == 0) {
		o->type = DSI_OT_DAEMONSET;
		/* read as the Go function receives it, its template hashed in canonical form */
		dsi_prepared prep;
		if ((rc = ds_prepare(o, err)) == 0 &&
		    (rc = dsi_canonical_prepare(obj, DSI_KIND_DAEMONSET, DSI_PREPARE_LENIENT, &prep, err)) == 0) {
			if ((rc = dsi_daemonset_read(&rd, &o->atoms, obj, prep.hashed, av, legacy, o->gates,
						     o->k8s_minor, &o->u.ds.d)) == 0)
				rc = ds_place(o, err);
			json_decref(prep.hashed);
		}
	}
	if (rc < 0 && obj) {
		dsi_error_prefix_path(err, objs.where[0].path);
		if (objs.documents > 1)
			document = objs.where[0].document + 1;
	}
	dsi_api_objects_release(&objs);
	if (rc < 0)
		dsi_api_error_source(err, what, document);
	return rc;
}

static int make(dsi_otype t, const input *in, const ds_options *opts, const char *what, ds_object **out, ds_error *err)
{
	*out = NULL;
	ds_object *o = object_new(t == DSI_OT_COUNT ? DSI_OT_NODE : t, dsi_o_core(opts));
	if (!o)
		return dsi_error_nomem(err);
	int rc;
	switch (t) {
	case DSI_OT_TOLERATION:
	case DSI_OT_TAINT: rc = read_small(o, in, what, err); break;
	case DSI_OT_NODE: rc = read_kind(o, DSI_KIND_NODE, in, opts, what, err); break;
	case DSI_OT_DAEMONSET: rc = read_kind(o, DSI_KIND_DAEMONSET, in, opts, what, err); break;
	default: rc = read_kind(o, DSI_KIND_COUNT, in, opts, what, err); break;
	}
	if (rc < 0) {
		object_destroy(o);
		return rc;
	}
	*out = o;
	return 0;
}

int dsi_object_parse_as(dsi_otype t, const char *text, size_t size, const ds_options *opts, const char *what,
			ds_object **out, ds_error *err)
{
	const input in = {text, size, NULL};
	return make(t, &in, opts, what, out, err);
}

/* The type named type (NULL: DSI_OT_COUNT, by the object's kind), else DS_EARG. */
static int type_of(const char *type, dsi_otype *t, ds_error *err)
{
	*t = DSI_OT_COUNT;
	if (!type)
		return 0;
	for (*t = 0; *t < DSI_OT_COUNT; (*t)++)
		if (strcmp(type, type_names[*t]) == 0)
			return 0;
	return dsi_error_set(err, DS_EARG, NULL, "unknown type \"%s\": expected Toleration, Taint, Node or DaemonSet",
			     type);
}

int ds_object_parse(const char *type, const char *text, size_t size, const ds_options *opts, ds_object **out,
		    ds_error *err)
{
	DSI_ERR_BEGIN(err);
	dsi_otype t;
	int rc;
	if (!out)
		return dsi_error_set(err, DS_EARG, NULL, "out must not be NULL");
	*out = NULL;
	if ((rc = type_of(type, &t, err)) < 0)
		return rc;
	return dsi_object_parse_as(t, text, size, opts, type ? type_args[t] : "object", out, err);
}

int ds_object_from_json(const char *type, const json_t *value, const ds_options *opts, ds_object **out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	dsi_otype t;
	int rc;
	if (!out)
		return dsi_error_set(err, DS_EARG, NULL, "out must not be NULL");
	*out = NULL;
	if ((rc = type_of(type, &t, err)) < 0)
		return rc;
	const input in = {NULL, 0, value ? value : json_null()};
	return make(t, &in, opts, type ? type_args[t] : "object", out, err);
}

/* ---- from a snapshot ---------------------------------------------------------------------------- */

int ds_cluster_get_object(const ds_cluster *cluster, const char *kind, const char *namespace_, const char *name,
			  ds_object **out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!out)
		return dsi_error_set(err, DS_EARG, NULL, "out must not be NULL");
	*out = NULL;
	if (!cluster || !kind || !name)
		return dsi_error_set(err, DS_EARG, NULL, "cluster, kind and name must not be NULL");
	int rc;
	if (strcmp(kind, "Node") == 0) {
		const dsi_node *n;
		if ((rc = dsi_api_find_node(cluster, name, NULL, &n, err)) < 0)
			return rc;
		ds_object *o = object_new(DSI_OT_NODE, &cluster->core);
		if (!o)
			return dsi_error_nomem(err);
		if (dsi_node_copy_x(&o->atoms, &cluster->atoms, n, &o->u.node) < 0) {
			object_destroy(o);
			return dsi_error_nomem(err);
		}
		*out = o;
		return 0;
	}
	if (strcmp(kind, "DaemonSet") != 0)
		return dsi_error_set(err, DS_EARG, NULL, "kind \"%s\": expected Node or DaemonSet", kind);
	const dsi_daemonset *d;
	if ((rc = dsi_api_find_ds(cluster, namespace_, name, &d, err)) < 0)
		return rc;
	ds_object *o = object_new(DSI_OT_DAEMONSET, &cluster->core);
	/* the snapshot's JSON is the snapshot's: the object reads a copy of its own */
	json_t *copy = o ? json_deep_copy(d->obj) : NULL, *hashed = d->hashed ? json_deep_copy(d->hashed) : NULL;
	if (!copy || (d->hashed && !hashed)) {
		json_decref(copy);
		if (o)
			object_destroy(o);
		return dsi_error_nomem(err);
	}
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	rd.lenient = cluster->model.lenient;
	const char *api = json_string_value(json_object_get(copy, "apiVersion"));
	if ((rc = ds_prepare(o, err)) == 0 &&
	    (rc = dsi_daemonset_read(&rd, &o->atoms, copy, hashed, api, d->legacy != 0, o->gates, o->k8s_minor,
				     &o->u.ds.d)) == 0) {
		o->u.ds.d.manifest = d->manifest; /* what loading gave it, which its JSON does not say */
		rc = ds_place(o, err);
	}
	json_decref(copy);
	json_decref(hashed);
	if (rc < 0) {
		object_destroy(o);
		return rc;
	}
	*out = o;
	return 0;
}
