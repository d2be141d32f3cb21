#include "daemon/newpod.h"

#include <stdio.h>
#include <string.h>

#include "apiserver/goemit.h"
#include "apiserver/goencode.h"
#include "apiserver/schema.h"
#include "core/alloc.h"
#include "core/strbuf.h"
#include "model/labelvalid.h"
#include "model/quantity_fields.h"

static json_t *pin_selector(const char *node)
{
	return json_pack("{s:[{s:[{s:s, s:s, s:[s]}]}]}", "nodeSelectorTerms", "matchFields", "key", "metadata.name",
			 "operator", "In", "values", node);
}

/* ReplaceDaemonSetPodNodeNameNodeAffinity (pkg/controller/daemon/util/daemonset_util.go) */
int dsi_pin_node_affinity(json_t *spec, const char *node)
{
	json_t *aff = json_object_get(spec, "affinity");
	if (!json_is_object(aff)) {
		json_t *a = json_pack("{s:{s:o}}", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
				      pin_selector(node));
		return a ? json_object_set_new(spec, "affinity", a) : -1;
	}
	json_t *na = json_object_get(aff, "nodeAffinity");
	if (!json_is_object(na)) {
		json_t *n = json_pack("{s:o}", "requiredDuringSchedulingIgnoredDuringExecution", pin_selector(node));
		return n ? json_object_set_new(aff, "nodeAffinity", n) : -1;
	}
	json_t *req = json_object_get(na, "requiredDuringSchedulingIgnoredDuringExecution");
	if (!json_is_object(req))
		return json_object_set_new(na, "requiredDuringSchedulingIgnoredDuringExecution", pin_selector(node));
	/* a required selector exists: its whole term list is replaced by the pin */
	json_t *sel = pin_selector(node);
	if (!sel)
		return -1;
	int rc = json_object_set(req, "nodeSelectorTerms", json_object_get(sel, "nodeSelectorTerms"));
	json_decref(sel);
	return rc;
}

json_t *dsi_pin_patch(const char *node)
{
	return json_pack("{s:{s:o}}", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
			 pin_selector(node));
}

char *dsi_pods_prefix(const char *name)
{
	/* getPodsPrefix (controller_utils.go): "<name>-" when ValidatePodName(prefix, true) accepts it.
	 * Its maskTrailingDash (apimachinery api/validation/generic.go) makes "<name>-" name[:len-2] + "a":
	 * the name with its last character replaced by 'a', which must be a DNS subdomain (so a name of
	 * 253 characters keeps its dash). An empty name makes upstream panic; here it gets no dash. */
	size_t n = strlen(name);
	char *masked = n ? dsi_strdup(name) : NULL;
	if (n && !masked)
		return NULL;
	if (masked)
		masked[n - 1] = 'a';
	int ok = masked && dsi_validate_dns1123_subdomain(masked, n, NULL) == 0;
	dsi_free(masked);
	return dsi_format(ok ? "%s-" : "%s", name);
}

/* The string of an atom, "" for none. */
static const char *cstr(const dsi_atoms *atoms, dsi_atom a)
{
	const char *s = dsi_atom_str(atoms, a);
	return s ? s : "";
}

/* GetPodFromTemplate's refusal of a pod without labels. */
static int no_labels(ds_error *err)
{
	return dsi_error_set(err, DS_EINVALID, "spec.template.metadata.labels", "unable to create pods, no labels");
}

/* The labels CreatePodTemplate adds, set in labels: pod-template-generation (from the annotation
 * deprecated.daemonset.template.generation, when it has one) and controller-revision-hash (a hash
 * not NULL nor empty). 0, or -1 without memory. */
static int controller_labels(json_t *labels, const dsi_daemonset *ds, const char *hash)
{
	if (ds->has_template_generation) {
		char g[32];
		snprintf(g, sizeof(g), "%lld", (long long)ds->template_generation);
		if (json_object_set_new(labels, "pod-template-generation", json_string(g)) < 0)
			return -1;
	}
	if (hash && *hash && json_object_set_new(labels, "controller-revision-hash", json_string(hash)) < 0)
		return -1;
	return 0;
}

json_t *dsi_new_pod_proto(const dsi_placement *p, const char *hash, ds_error *err)
{
	const dsi_atoms *atoms = p->atoms;
	const dsi_daemonset *ds = p->ds;
	json_t *tmpl = ds->template;
	json_t *tmeta = json_object_get(tmpl, "metadata");
	json_t *spec =
		json_deep_copy(json_is_object(json_object_get(tmpl, "spec")) ? json_object_get(tmpl, "spec") : NULL);
	if (!spec)
		spec = json_object();
	/* the template as the API server stored it: its quantities in canonical form (the rest is copied as is) */
	if (!spec || dsi_podspec_canonical_quantities(spec, 0, err) < 0) {
		json_decref(spec);
		dsi_error_nomem(err);
		return NULL;
	}
	/* labels: the template's, then the generation and hash labels (CreatePodTemplate) */
	json_t *labels = json_deep_copy(
		json_is_object(json_object_get(tmeta, "labels")) ? json_object_get(tmeta, "labels") : NULL);
	if (!labels)
		labels = json_object();
	if (controller_labels(labels, ds, hash) < 0) {
		json_decref(labels);
		json_decref(spec);
		dsi_error_nomem(err);
		return NULL;
	}
	if (!json_object_size(labels)) { /* GetPodFromTemplate refuses a pod without labels */
		json_decref(labels);
		json_decref(spec);
		no_labels(err);
		return NULL;
	}
	const dsi_tolerations_ref ref = {atoms, &p->tolerations};
	json_t *tols = dsi_tolerations_ref_json(&ref);
	json_object_set(spec, "tolerations", tols);
	json_decref(tols); /* NULL: no memory, said below */
	char *prefix = dsi_pods_prefix(cstr(atoms, ds->meta.name));
	const char *api = ds->kruise ? json_string_value(json_object_get(ds->obj, "apiVersion")) : "apps/v1";
	json_t *meta =
		json_pack("{s:s?, s:s, s:o, s:[{s:s, s:s, s:s, s:s, s:b, s:b}]}", "generateName", prefix, "namespace",
			  cstr(atoms, ds->meta.ns), "labels", labels, "ownerReferences", "apiVersion",
			  api ? api : "apps/v1", "kind", "DaemonSet", "name", cstr(atoms, ds->meta.name), "uid",
			  cstr(atoms, ds->meta.uid), "controller", 1, "blockOwnerDeletion", 1);
	if (meta && !prefix) { /* out of memory */
		json_decref(meta);
		meta = NULL;
	}
	dsi_free(prefix);
	/* ObjectMeta.Namespace is omitempty (a DaemonSet read without one) */
	if (meta && !*cstr(atoms, ds->meta.ns))
		json_object_del(meta, "namespace");
	/* GetPodFromTemplate copies annotations and finalizers too */
	json_t *ann = json_object_get(tmeta, "annotations"), *fin = json_object_get(tmeta, "finalizers");
	if (meta && json_is_object(ann) && json_object_size(ann))
		json_object_set_new(meta, "annotations", json_deep_copy(ann));
	if (meta && json_is_array(fin) && json_array_size(fin))
		json_object_set_new(meta, "finalizers", json_deep_copy(fin));
	if (!meta || !tols) {
		json_decref(meta);
		json_decref(spec);
		dsi_error_nomem(err);
		return NULL;
	}
	json_t *pod =
		json_pack("{s:s, s:s, s:o, s:o}", "apiVersion", "v1", "kind", "Pod", "metadata", meta, "spec", spec);
	if (!pod)
		dsi_error_nomem(err);
	return pod;
}

json_t *dsi_new_pod_for(const json_t *proto, const char *node)
{
	/* shallow copies share everything but the path to the pin: spec.affinity is the
	 * only part that differs between the nodes */
	json_t *pod = json_copy((json_t *)proto), *spec = json_copy(json_object_get(proto, "spec"));
	json_t *aff = json_object_get(spec, "affinity");
	if (!pod || !spec || (aff && json_object_set_new(spec, "affinity", json_deep_copy(aff)) < 0) ||
	    dsi_pin_node_affinity(spec, node) < 0 || json_object_set_new(pod, "spec", spec) < 0) {
		json_decref(pod);
		return NULL;
	}
	return pod;
}

json_t *dsi_new_pod(const dsi_placement *p, const char *node, const char *hash, ds_error *err)
{
	json_t *pod = dsi_new_pod_proto(p, hash, err);
	if (!pod)
		return NULL;
	/* one pod: the prototype is its own (its spec a copy of the template's), pinned in place */
	if (dsi_pin_node_affinity(json_object_get(pod, "spec"), node) < 0) {
		json_decref(pod);
		dsi_error_nomem(err);
		return NULL;
	}
	return pod;
}

/* Text written as it is (a literal: its length folds at build time). */
static inline void lit(dsi_jout *o, const char *s) { dsi_jout_put(o, s, strlen(s)); }

/* The type and Go facts of the field name of the struct type (-1 and 0 when it has none). */
static int field_of(int type, const char *name, unsigned *flags)
{
	long i = type < 0 ? -1 : dsi_schema_field_index(type, name, strlen(name));
	*flags = i < 0 ? 0 : dsi_schema_field_flags_at(type, (size_t)i);
	return i < 0 ? -1 : dsi_schema_field_type_at(type, (size_t)i);
}

/* "key":, then v of the struct type's field key through the writer (patch merged, member m set). */
static void put_field(dsi_jout *o, int type, const char *key, const json_t *v, const json_t *patch,
		      const dsi_go_member *m, int comma)
{
	unsigned flags;
	int ft = field_of(type, key, &flags);
	dsi_jout_key(o, !comma, key, strlen(key));
	dsi_go_emit_with(o, v, patch, ft, flags, m);
}

static void put_str_field(dsi_jout *o, const char *key, const char *value, int comma)
{
	dsi_jout_key(o, !comma, key, strlen(key));
	dsi_jout_string(o, value, strlen(value));
}

/* The pod's metadata (GetPodFromTemplate's ObjectMeta), as dsi_new_pod_proto builds it and
 * dsi_go_encode prints it, in jansson's sorted order: annotations, finalizers, generateName, labels,
 * namespace, ownerReferences. labels: the template's merged with the controller's. */
static void put_meta(dsi_jout *o, const dsi_placement *p, int meta_type, const json_t *tmeta, const json_t *labels,
		     const json_t *own_labels, const char *prefix)
{
	const dsi_atoms *atoms = p->atoms;
	const dsi_daemonset *ds = p->ds;
	const json_t *ann = json_object_get(tmeta, "annotations"), *fin = json_object_get(tmeta, "finalizers");
	dsi_jout_putc(o, '{');
	int first = 1;
	if (json_is_object(ann) && json_object_size(ann)) {
		put_field(o, meta_type, "annotations", ann, NULL, NULL, 0);
		first = 0;
	}
	if (json_is_array(fin) && json_array_size(fin)) {
		put_field(o, meta_type, "finalizers", fin, NULL, NULL, !first);
		first = 0;
	}
	if (*prefix) {
		put_str_field(o, "generateName", prefix, !first);
		first = 0;
	}
	put_field(o, meta_type, "labels", labels, own_labels, NULL, !first);
	const char *ns = cstr(atoms, ds->meta.ns);
	if (*ns)
		put_str_field(o, "namespace", ns, 1);
	const char *api = ds->kruise ? json_string_value(json_object_get(ds->obj, "apiVersion")) : "apps/v1";
	lit(o, ",\"ownerReferences\":[{");
	put_str_field(o, "apiVersion", api ? api : "apps/v1", 0);
	lit(o, ",\"blockOwnerDeletion\":true,\"controller\":true,\"kind\":\"DaemonSet\"");
	put_str_field(o, "name", cstr(atoms, ds->meta.name), 1);
	put_str_field(o, "uid", cstr(atoms, ds->meta.uid), 1);
	lit(o, "}]}");
}

int dsi_new_pod_write(const dsi_placement *p, const char *node, const char *hash, char **json_out, ds_error *err)
{
	*json_out = NULL;
	const dsi_atoms *atoms = p->atoms;
	const dsi_daemonset *ds = p->ds;
	json_t *tmpl = ds->template;
	json_t *tmeta = json_object_get(tmpl, "metadata"), *tspec = json_object_get(tmpl, "spec");
	const json_t *labels = json_object_get(tmeta, "labels");
	if (!json_is_object(labels))
		labels = NULL;
	/* the generation and hash labels (CreatePodTemplate), merged into the template's */
	json_t *own = json_object();
	if (!own || controller_labels(own, ds, hash) < 0) {
		json_decref(own);
		return dsi_error_nomem(err);
	}
	if (!json_object_size(own) && !json_object_size(labels)) { /* GetPodFromTemplate refuses a pod without labels */
		json_decref(own);
		return no_labels(err);
	}
	/* the spec: the template's, its tolerations merged and its affinity pinned to the node
	 * (ReplaceDaemonSetPodNodeNameNodeAffinity's cases are the merge's: see dsi_pin_node_affinity) */
	json_t *patch = json_pack("{s:o}", "affinity", dsi_pin_patch(node));
	dsi_tolerations_ref ref = {atoms, &p->tolerations};
	dsi_go_member tols = {"tolerations", dsi_tolerations_ref_write, dsi_tolerations_ref_json, &ref,
			      p->tolerations.n == 0};
	char *prefix = dsi_pods_prefix(cstr(atoms, ds->meta.name));
	if (!patch || !prefix) {
		json_decref(own);
		json_decref(patch);
		dsi_free(prefix);
		return dsi_error_nomem(err);
	}
	int pod = dsi_schema_root_type("v1", "Pod");
	unsigned mflags;
	int meta_type = field_of(pod, "metadata", &mflags);
	dsi_jout o = DSI_JOUT_INIT;
	dsi_jout_reserve(&o, 4096); /* a pod is a few KB: fewer reallocations (its failure is o's) */
	lit(&o, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":");
	put_meta(&o, p, meta_type, tmeta, labels, own, prefix);
	put_field(&o, pod, "spec", json_is_object(tspec) ? tspec : NULL, patch, &tols, 1);
	dsi_jout_putc(&o, '}');
	json_decref(own);
	json_decref(patch);
	dsi_free(prefix);
	if (!(*json_out = dsi_jout_finish(&o)))
		return o.fail > 0 ? 1 : dsi_error_nomem(err);
	return 0;
}
