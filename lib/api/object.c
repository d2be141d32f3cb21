/*
 * Parsed objects (include/daemonset/object.h): made from text, from a jansson value or from a
 * snapshot, reference counted, never changed. Their documents are read as the text functions of
 * upstream.c read theirs (api/docs.h), into a table of strings of the object's own; the text
 * functions themselves parse their documents through here.
 */
#include "api/args.h"
#include "api/object.h"

#include <string.h>

#include "daemonset/jansson.h"
#include "api/api_options.h"
#include "api/docs.h"
#include "api/lookup.h"
#include "apiserver/canonical.h"
#include "apiserver/decodecheck.h"
#include "core/alloc.h"
#include "sched/fitreport.h"

static const char *const type_names[DSI_OT_COUNT] = {"Toleration", "Taint",     "[]Toleration", "[]Taint", "Node",
						     "Pod",        "DaemonSet", "Affinity",     "List"};

/* The name of an argument of type t in errors, as the text functions name theirs. */
static const char *const type_args[DSI_OT_COUNT] = {"toleration", "taint",     "tolerations", "taints", "node",
						    "pod",        "daemonset", "affinity",    "objects"};

const char *dsi_object_type_name(dsi_otype t) { return t < DSI_OT_COUNT ? type_names[t] : ""; }

static void object_init(ds_object *o, dsi_otype t, const dsi_core_options *core)
{
	memset(o, 0, sizeof(*o));
	atomic_init(&o->refs, 1);
	o->type = t;
	o->gates = core->gates;
	o->k8s_minor = core->k8s_minor;
	dsi_atoms_init(&o->atoms);
}

static ds_object *object_new(dsi_otype t, const dsi_core_options *core)
{
	ds_object *o = dsi_malloc(sizeof(*o));
	if (o)
		object_init(o, t, core);
	return o;
}

/* Release what a fully or partly built object holds (its typed view is zeroed until read), but not
 * the object itself. */
static void object_clear(ds_object *o)
{
	switch (o->type) {
	case DSI_OT_TOLERATION: dsi_toleration_release(&o->atoms, &o->u.tol); break;
	case DSI_OT_TAINT: dsi_taint_release(&o->atoms, &o->u.taint); break;
	case DSI_OT_TOLERATIONS: dsi_tolerations_release(&o->atoms, &o->u.tols); break;
	case DSI_OT_TAINTS: dsi_taints_release(&o->atoms, &o->u.taints); break;
	case DSI_OT_NODE: dsi_node_release(&o->atoms, &o->u.node); break;
	case DSI_OT_POD:
		dsi_meta_release(&o->atoms, &o->u.pod.meta);
		dsi_podspec_release(&o->atoms, &o->u.pod.spec);
		break;
	case DSI_OT_DAEMONSET:
		dsi_placement_release(&o->u.ds.place);
		dsi_daemonset_release(&o->atoms, &o->u.ds.d);
		break;
	case DSI_OT_LIST:
		dsi_cluster_destroy(&o->u.list.c);
		dsi_free(o->u.list.unbound);
		break;
	default: break;
	}
	for (int i = 0; i < DSI_N_WELL_KNOWN_TAINTS; i++)
		dsi_atom_unref(&o->atoms, o->pinned[i]);
	json_decref(o->json);
	dsi_free(o->times);
	dsi_atoms_free(&o->atoms);
}

static void object_destroy(ds_object *o)
{
	object_clear(o);
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

const char *ds_object_type(const ds_object *obj) { return obj ? dsi_object_type_name(obj->type) : ""; }

int dsi_object_want(const ds_object *obj, dsi_otype t, const char *what, ds_error *err)
{
	if (obj && obj->type == t)
		return 0;
	if (!obj)
		return dsi_error_set(err, DS_EARG, NULL, "%s must not be NULL", what);
	return dsi_error_set(err, DS_EARG, NULL, "%s: expected a %s object, got a %s", what, type_names[t],
			     type_names[obj->type]);
}

const dsi_taints *dsi_object_taints(const ds_object *o, dsi_taints *one)
{
	switch (o ? o->type : DSI_OT_COUNT) {
	case DSI_OT_TAINTS: return &o->u.taints;
	case DSI_OT_NODE: return &o->u.node.taints;
	case DSI_OT_TAINT:
		one->v = (dsi_taint *)&o->u.taint;
		one->n = 1;
		return one;
	default: return NULL;
	}
}

const dsi_tolerations *dsi_object_tolerations(const ds_object *o, dsi_tolerations *one)
{
	switch (o ? o->type : DSI_OT_COUNT) {
	case DSI_OT_TOLERATIONS: return &o->u.tols;
	case DSI_OT_POD: return &o->u.pod.spec.tolerations;
	case DSI_OT_DAEMONSET: return &o->u.ds.d.tspec.tolerations;
	case DSI_OT_TOLERATION:
		one->v = (dsi_toleration *)&o->u.tol;
		one->n = 1;
		return one;
	default: return NULL;
	}
}

/* ---- reading ------------------------------------------------------------------------------------ */

/* What an object is made from: text, or a jansson value of the caller's. */
typedef struct input {
	const char *text;
	size_t size;
	const json_t *value; /* when not NULL */
	/* when not NULL, a DaemonSet's strings go to this table (a snapshot's) instead of the object's,
	 * whose typed view the caller takes (dsi_object_parse_daemonset_into) */
	dsi_atoms *atoms;
} input;

/* The keys dsi_daemon_tolerations looks up, interned in o's table. */
static int pin(ds_object *o, ds_error *err)
{
	for (int i = 0; i < DSI_N_WELL_KNOWN_TAINTS; i++)
		if ((o->pinned[i] = dsi_atom_intern_cstr(&o->atoms, dsi_well_known_taint_keys[i])) == DSI_ATOM_ERROR) {
			o->pinned[i] = DSI_ATOM_NONE;
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

/* The timeAdded of taints[i] of the array arr (a taint object alone when arr is one), which the
 * reader has checked to be a time (null: nil). */
static int taint_times(ds_object *o, const json_t *arr, uint32_t n, ds_error *err)
{
	for (uint32_t i = 0; i < n; i++) {
		const json_t *t = json_is_array(arr) ? json_array_get(arr, i) : arr;
		const char *s = json_string_value(json_object_get(t, "timeAdded"));
		ds_time at;
		if (!s || !*s || ds_time_parse(s, &at, NULL) < 0)
			continue;
		if (!o->times && !(o->times = dsi_calloc(n, sizeof(*o->times))))
			return dsi_error_nomem(err);
		o->times[i].t = at;
		o->times[i].has = 1;
	}
	return 0;
}

/* One object, decoded as its Go type (or a value of the caller's, copied), for the types that are one
 * object: *out owned by the caller. */
static int one_object(const input *in, const char *what, const char *type_name, json_t **out, ds_error *err)
{
	*out = NULL;
	if (!in->value)
		return dsi_api_parse_object(in->text, in->size, what, type_name, out, err);
	if (!(*out = json_deep_copy(in->value)))
		return dsi_error_nomem(err);
	return dsi_api_check_object(out, what, type_name, err);
}

/* A toleration or a taint: one object, decoded as its Go type, read as Go's decoder reads it. */
static int read_small(ds_object *o, const input *in, const char *what, ds_error *err)
{
	json_t *j;
	int rc = one_object(in, what, type_names[o->type], &j, err);
	if (rc < 0)
		return rc;
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	if (o->type == DSI_OT_TOLERATION) {
		rc = dsi_toleration_read(&rd, &o->atoms, j, &o->u.tol);
	} else if ((rc = dsi_taint_read(&rd, &o->atoms, j, &o->u.taint)) == 0) {
		rc = taint_times(o, j, 1, err);
	}
	if (rc < 0)
		dsi_error_set_source(err, what);
	json_decref(j);
	return rc;
}

/* []Toleration or []Taint: an array (nothing or null: empty), decoded, each element read. */
static int read_array(ds_object *o, const input *in, const char *what, ds_error *err)
{
	int taints = o->type == DSI_OT_TAINTS;
	int type = taints ? dsi_decode_type_taints() : dsi_decode_type_tolerations();
	json_t *wrapped = NULL, *copy = NULL;
	int rc;
	if (!in->value)
		rc = dsi_api_parse_list(in->text, in->size, what, type, &wrapped, err);
	else if (!(copy = json_deep_copy(in->value)))
		rc = dsi_error_nomem(err);
	else
		rc = dsi_api_check_list(copy, what, type, &wrapped, err);
	if (rc < 0)
		return rc;
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	/* paths as the list's own ("[2].effect"), not the wrapper's */
	rc = taints ? dsi_taints_read(&rd, &o->atoms, wrapped, "v", &o->u.taints)
		    : dsi_tolerations_read(&rd, &o->atoms, wrapped, "v", &o->u.tols);
	if (rc == 0 && taints)
		rc = taint_times(o, json_object_get(wrapped, "v"), o->u.taints.n, err);
	if (rc < 0) {
		if (strncmp(err->path, "v[", 2) == 0)
			memmove(err->path, err->path + 1, strlen(err->path));
		dsi_error_set_source(err, what);
	}
	json_decref(wrapped);
	return rc;
}

/* A Pod's metadata and spec from its decoded JSON j: strict, a Pod's metadata and spec member, as the
 * scheduler reads it (dsi_pod_read_for_fit); else a Pod or PodTemplateSpec (metadata and spec) or a
 * bare PodSpec (nested 0). Both are released on failure. */
static int pod_read(const json_t *j, int strict, unsigned gates, dsi_rd *rd, dsi_atoms *atoms, dsi_meta *meta,
		    dsi_podspec *spec, uint8_t *nested)
{
	if (strict) {
		*nested = 1;
		return dsi_pod_read_for_fit(rd, atoms, j, gates, meta, spec);
	}
	int rc = 0;
	const json_t *s = dsi_api_spec_of(j);
	memset(meta, 0, sizeof(*meta));
	memset(spec, 0, sizeof(*spec));
	*nested = s != j;
	if (*nested)
		rc = dsi_meta_read(rd, atoms, j, 0, meta);
	size_t m = *nested ? dsi_rd_push(rd, "spec") : 0;
	if (rc == 0 && (rc = dsi_podspec_read(rd, atoms, s, DSI_PODSPEC_PLACEMENT, gates, spec)) < 0)
		dsi_meta_release(atoms, meta);
	dsi_rd_pop(rd, m);
	/* a Pod's status names the claims made from templates (DynamicResources) */
	if (rc == 0 && *nested && spec->claims.n && json_is_object(json_object_get(j, "status")) &&
	    (rc = dsi_pod_claim_statuses_read(rd, atoms, j, &spec->claims)) < 0) {
		dsi_podspec_release(atoms, spec);
		dsi_meta_release(atoms, meta);
	}
	return rc;
}

int dsi_object_pod_read(const ds_object *pod, dsi_rd *rd, dsi_atoms *atoms, dsi_meta *meta, dsi_podspec *spec)
{
	uint8_t nested;
	return pod_read(pod->json, pod->u.pod.strict, pod->gates, rd, atoms, meta, spec, &nested);
}

/* A Pod, a PodTemplateSpec or a bare PodSpec (mode DSI_READ_POD_STRICT: a Pod, as the scheduler's
 * text functions read theirs), decoded, its metadata and spec read with the placement parts. */
static int read_pod(ds_object *o, const input *in, int mode, const char *what, ds_error *err)
{
	int strict = mode == DSI_READ_POD_STRICT;
	json_t *j;
	int rc = one_object(in, what, strict ? NULL : "Pod", &j, err);
	if (rc == 0 && strict && (rc = dsi_api_go_decode(j, dsi_api_pod_type_strict(), err)) < 0) {
		dsi_error_set_source(err, what);
		json_decref(j);
	}
	if (rc < 0)
		return rc;
	o->u.pod.strict = (uint8_t)strict;
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	rc = pod_read(j, strict, o->gates, &rd, &o->atoms, &o->u.pod.meta, &o->u.pod.spec, &o->u.pod.nested);
	if (rc == 0)
		rc = pin(o, err);
	if (rc < 0) {
		dsi_error_set_source(err, what);
		json_decref(j);
		return rc;
	}
	o->json = j;
	return 0;
}

/* An Affinity (nothing or null: nil), decoded, each level an object as the Go types say. */
static int read_affinity(ds_object *o, const input *in, const char *what, ds_error *err)
{
	json_t *aff = NULL;
	int rc = 0;
	if (!in->value)
		rc = dsi_api_parse_doc(in->text, in->size, what, &aff, err);
	else if (!json_is_null(in->value) && !(aff = json_deep_copy(in->value)))
		rc = dsi_error_nomem(err);
	if (rc == 0 && aff)
		rc = dsi_api_go_decode(aff, dsi_decode_type_named("Affinity"), err);
	/* the Go types: each level an object (a pointer: null reads as nil) */
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	json_t *na = NULL, *req = NULL;
	if (rc == 0 && aff && (rc = dsi_rd_expect_object(&rd, aff)) == 0 &&
	    (rc = dsi_rd_object(&rd, aff, "nodeAffinity", &na)) == 0 && na) {
		size_t m = dsi_rd_push(&rd, "nodeAffinity");
		rc = dsi_rd_object(&rd, na, "requiredDuringSchedulingIgnoredDuringExecution", &req);
		dsi_rd_pop(&rd, m);
	}
	if (rc < 0) {
		dsi_error_set_source(err, what);
		json_decref(aff);
		return rc;
	}
	o->json = aff;
	return 0;
}

/* A Node as ds_pod_required_node_affinity_match2 reads its node: one object decoded as a Node. */
static int read_node_plain(ds_object *o, const input *in, const char *what, ds_error *err)
{
	json_t *j;
	int rc = one_object(in, what, "Node", &j, err);
	if (rc < 0)
		return rc;
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	if ((rc = dsi_node_read(&rd, &o->atoms, j, &o->u.node)) == 0)
		rc = taint_times(o, json_object_get(json_object_get(j, "spec"), "taints"), o->u.node.taints.n, err);
	if (rc < 0)
		dsi_error_set_source(err, what);
	json_decref(j);
	return rc;
}

/* The one object of a document as the kind want (DSI_KIND_COUNT: a Node or a DaemonSet, whichever it
 * is), as the text functions load theirs into a snapshot (a List or a stream of one object, a kind
 * or apiVersion defaulted, read leniently), but straight into o. */
static int read_kind(ds_object *o, dsi_kind want, int mode, const input *in, const ds_options *opts, const char *what,
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
		/* the message first: kn is in the objects released next */
		rc = want == DSI_KIND_COUNT ? dsi_error_set(err, DS_EUNSUPPORTED, "kind",
							    "expected a Node or a DaemonSet (or a type for "
							    "ds_object_parse), got %s",
							    kn)
					    : dsi_error_set(err, DS_EVALUE, "kind", "expected a %s", kind);
		dsi_api_objects_release(&objs);
		return rc;
	}
	if (rc == 0 && k == DSI_KIND_NODE) {
		o->type = DSI_OT_NODE;
		if ((rc = dsi_node_read(&rd, &o->atoms, obj, &o->u.node)) == 0) {
			/* a cluster-scoped object has no namespace, whatever its text says (the snapshot's
			 * clear_cluster_scoped_namespace) */
			dsi_atom_unref(&o->atoms, o->u.node.meta.ns);
			o->u.node.meta.ns = DSI_ATOM_NONE;
			rc = taint_times(o, json_object_get(json_object_get(obj, "spec"), "taints"), o->u.node.taints.n,
					 err);
		}
	} else if (rc == 0) {
		o->type = DSI_OT_DAEMONSET;
		/* read as the Go function receives it, its template hashed in canonical form (unless the
		 * decision needs no hash: the canonical form is only for it, and a template that does not
		 * decode is no error there) */
		dsi_prepared prep;
		memset(&prep, 0, sizeof(prep));
		int hash_only = mode == DSI_READ_DS_HASH || mode == DSI_READ_DS_PLACEMENT_HASH;
		unsigned skip =
			mode == DSI_READ_DS_PLACEMENT ? DSI_DS_NO_HASH | DSI_DS_PLACEMENT_ONLY
			: hash_only ? DSI_DS_NO_PATCH | (mode == DSI_READ_DS_PLACEMENT_HASH ? DSI_DS_PLACEMENT_ONLY : 0)
				    : 0;
		/* the objects' decoding above checked the template; without the patch, the canonical
		 * template is read by the hash alone */
		unsigned how = DSI_PREPARE_LENIENT | DSI_PREPARE_CHECKED | (hash_only ? DSI_PREPARE_HASH_ONLY : 0);
		/* read into another table, it is the caller's to place */
		dsi_atoms *atoms = in->atoms ? in->atoms : &o->atoms;
		if ((rc = in->atoms ? 0 : pin(o, err)) == 0 &&
		    (mode == DSI_READ_DS_PLACEMENT ||
		     (rc = dsi_canonical_prepare(obj, DSI_KIND_DAEMONSET, how, &prep, err)) == 0)) {
			if ((rc = dsi_daemonset_read_ex(&rd, atoms, obj, prep.hashed, av, legacy, o->gates,
							o->k8s_minor, skip, &o->u.ds.d)) == 0 &&
			    !in->atoms)
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

/* Any objects (a node's pods, a DaemonSet's nodes and pods), loaded leniently into a private snapshot,
 * an object without a kind taken as a Pod, pods without a node left so. */
static int read_list(ds_object *o, const input *in, const ds_options *opts, const char *what, ds_error *err)
{
	dsi_cluster *c = &o->u.list.c;
	int rc = dsi_api_scratch_init(c, opts, err);
	if (rc < 0)
		return rc;
	json_t *copy = NULL;
	if (in->value && !json_is_null(in->value) && !(copy = json_deep_copy(in->value)))
		return dsi_error_nomem(err);
	dsi_api_objects kept;
	rc = in->value && !copy
		     ? 0
		     : dsi_api_scratch_add_objects(c, in->text, in->size, copy, "Pod", "v1", NULL, 0, &kept, what, err);
	if (rc < 0 || (in->value && !copy))
		return rc;
	/* which pods are not bound to the node a function is asked about (those that had no spec object or
	 * a nodeName): the last object of a name is the one loaded */
	size_t npods = dsi_cluster_count(c, DSI_KIND_POD), i;
	json_t *obj;
	if (npods && !(o->u.list.unbound = dsi_calloc(npods, 1)))
		rc = dsi_error_nomem(err);
	json_array_foreach(rc == 0 ? kept.arr : NULL, i, obj)
	{
		const json_t *meta = json_object_get(obj, "metadata");
		dsi_atom ns = dsi_atom_lookup_id(&c->atoms, json_string_value(json_object_get(meta, "namespace")));
		dsi_atom name = dsi_atom_lookup_id(&c->atoms, json_string_value(json_object_get(meta, "name")));
		const char *api = json_string_value(json_object_get(obj, "apiVersion"));
		const dsi_pod *p = strcmp(json_string_value(json_object_get(obj, "kind")), "Pod") == 0 &&
						   (!api || !*api || strcmp(api, "v1") == 0)
					   ? dsi_cluster_pod(c, ns, name)
					   : NULL;
		if (p)
			o->u.list.unbound[p->index] =
				!json_is_object(json_object_get(obj, "spec")) ||
				json_string_value(json_object_get(json_object_get(obj, "spec"), "nodeName")) != NULL;
	}
	dsi_api_objects_release(&kept);
	return rc;
}

/* Read in into o, made by object_init (released on failure). */
static int read_into(ds_object *o, dsi_otype t, int mode, const input *in, const ds_options *opts, const char *what,
		     ds_error *err)
{
	int rc;
	switch (t) {
	case DSI_OT_TOLERATION:
	case DSI_OT_TAINT: rc = read_small(o, in, what, err); break;
	case DSI_OT_TOLERATIONS:
	case DSI_OT_TAINTS: rc = read_array(o, in, what, err); break;
	case DSI_OT_POD: rc = read_pod(o, in, mode, what, err); break;
	case DSI_OT_AFFINITY: rc = read_affinity(o, in, what, err); break;
	case DSI_OT_LIST: rc = read_list(o, in, opts, what, err); break;
	case DSI_OT_NODE:
		rc = mode == DSI_READ_NODE_PLAIN ? read_node_plain(o, in, what, err)
						 : read_kind(o, DSI_KIND_NODE, 0, in, opts, what, err);
		break;
	case DSI_OT_DAEMONSET: rc = read_kind(o, DSI_KIND_DAEMONSET, mode, in, opts, what, err); break;
	default: rc = read_kind(o, DSI_KIND_COUNT, 0, in, opts, what, err); break;
	}
	if (rc < 0)
		object_clear(o);
	return rc;
}

static int make(dsi_otype t, int mode, const input *in, const ds_options *opts, const char *what, ds_object **out,
		ds_error *err)
{
	*out = NULL;
	ds_object *o = object_new(t == DSI_OT_COUNT ? DSI_OT_NODE : t, dsi_o_core(opts));
	if (!o)
		return dsi_error_nomem(err);
	int rc = read_into(o, t, mode, in, opts, what, err);
	if (rc < 0) {
		dsi_free(o);
		return rc;
	}
	*out = o;
	return 0;
}

int dsi_object_parse_as(dsi_otype t, int mode, const char *text, size_t size, const ds_options *opts, const char *what,
			ds_object **out, ds_error *err)
{
	const input in = {text, size, NULL, NULL};
	return make(t, mode, &in, opts, what, out, err);
}

int dsi_object_parse_local(dsi_otype t, int mode, const char *text, size_t size, const ds_options *opts,
			   const char *what, ds_object *o, ds_error *err)
{
	const input in = {text, size, NULL, NULL};
	object_init(o, t == DSI_OT_COUNT ? DSI_OT_NODE : t, dsi_o_core(opts));
	return read_into(o, t, mode, &in, opts, what, err);
}

void dsi_object_release_local(ds_object *o) { object_clear(o); }

int dsi_object_parse_daemonset_into(int mode, const char *text, size_t size, const ds_options *opts, const char *what,
				    dsi_atoms *atoms, dsi_daemonset *out, ds_error *err)
{
	const input in = {text, size, NULL, atoms};
	ds_object o;
	object_init(&o, DSI_OT_DAEMONSET, dsi_o_core(opts));
	int rc = read_kind(&o, DSI_KIND_DAEMONSET, mode, &in, opts, what, err);
	/* the typed view is the caller's (its strings are in atoms), the rest the object's */
	memcpy(out, &o.u.ds.d, sizeof(*out));
	memset(&o.u.ds.d, 0, sizeof(o.u.ds.d));
	object_clear(&o);
	return rc;
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
	return dsi_error_set(err, DS_EARG, NULL,
			     "unknown type \"%s\": expected Toleration, Taint, []Toleration, []Taint, Node, Pod, "
			     "DaemonSet, Affinity or List",
			     type);
}

int ds_object_parse(const char *type, const char *text, size_t size, const ds_options *opts, ds_object **out,
		    ds_error *err)
{
	DSI_ERR_BEGIN(err);
	dsi_otype t;
	int rc;
	DSI_ARGS_NONNULL(err, out);
	*out = NULL;
	if ((rc = type_of(type, &t, err)) < 0)
		return rc;
	return dsi_object_parse_as(t, DSI_READ_DEFAULT, text, size, opts, type ? type_args[t] : "object", out, err);
}

int ds_object_from_json(const char *type, const json_t *value, const ds_options *opts, ds_object **out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	dsi_otype t;
	int rc;
	DSI_ARGS_NONNULL(err, out);
	*out = NULL;
	if ((rc = type_of(type, &t, err)) < 0)
		return rc;
	const input in = {NULL, 0, value ? value : json_null(), NULL};
	return make(t, DSI_READ_DEFAULT, &in, opts, type ? type_args[t] : "object", out, err);
}

/* ---- from a snapshot ---------------------------------------------------------------------------- */

int ds_cluster_get_object(const ds_cluster *cluster, const char *kind, const char *namespace_, const char *name,
			  ds_object **out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, out);
	*out = NULL;
	DSI_ARGS_NONNULL(err, cluster, kind, name);
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
	if ((rc = pin(o, err)) == 0 && (rc = dsi_daemonset_read(&rd, &o->atoms, copy, hashed, api, d->legacy != 0,
								o->gates, o->k8s_minor, &o->u.ds.d)) == 0) {
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
