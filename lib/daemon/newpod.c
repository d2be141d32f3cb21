#include "daemon/newpod.h"

#include <stdio.h>
#include <string.h>

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
	if (ds->has_template_generation) {
		char g[32];
		snprintf(g, sizeof(g), "%lld", (long long)ds->template_generation);
		json_object_set_new(labels, "pod-template-generation", json_string(g));
	}
	if (hash && *hash)
		json_object_set_new(labels, "controller-revision-hash", json_string(hash));
	if (!json_object_size(labels)) { /* GetPodFromTemplate refuses a pod without labels */
		json_decref(labels);
		json_decref(spec);
		dsi_error_set(err, DS_EINVALID, "spec.template.metadata.labels", "unable to create pods, no labels");
		return NULL;
	}
	json_t *tols = json_array();
	for (uint32_t i = 0; tols && i < p->tolerations.n; i++)
		json_array_append_new(tols, dsi_toleration_to_json(atoms, &p->tolerations.v[i]));
	json_object_set_new(spec, "tolerations", tols);
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
