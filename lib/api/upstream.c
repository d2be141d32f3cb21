/*
 * Public wrappers of upstream's decisions on plain JSON (include/daemonset/upstream.h). Each first
 * checks every input document as Go's JSON decoder would decode it into the upstream function's
 * argument types (apiserver/decodecheck.h: wrong JSON types, fractions and ranges of integers,
 * IntOrString, Quantity, Time), then reads its objects leniently (dsi_rd.lenient: as Go's decoder
 * does, not as the API server validates) and asks the same internal function the snapshot API
 * asks; those that need several objects load them into a private snapshot read the same way. The
 * Go structs they return (a Pod, a PodSpec, an Affinity, a Taint) are printed as encoding/json
 * prints them (apiserver/goencode.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "api/docs.h"
#include "api/lookup.h"
#include "apiserver/decodecheck.h"
#include "apiserver/goencode.h"
#include "apiserver/schema.h"
#include "core/alloc.h"
#include "core/jsonout.h"
#include "core/load.h"
#include "core/objects.h"
#include "daemon/daemontolerations.h"
#include "daemon/explain.h"
#include "daemon/newpod.h"
#include "daemon/syncplan.h"
#include "sched/fitreport.h"
#include "sched/nodeaffinity.h"
#include "sched/tolerations.h"

/* The only object of a kind in a scratch snapshot. */
static void *only(const dsi_cluster *c, dsi_kind k) { return dsi_cluster_count(c, k) ? c->objs[k].v[0] : NULL; }

/* ---- taints and tolerations ----------------------------------------------------------------- */

/* ToleratesTaint (k8s.io/api core/v1 toleration.go) */
int ds_toleration_tolerates_taint(const char *toleration, size_t toleration_size, const char *taint, size_t taint_size,
				  const ds_options *opts, int *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!out)
		return dsi_error_set(err, DS_EARG, NULL, "out must not be NULL");
	*out = 0;
	json_t *jtol, *jtaint = NULL;
	int rc = dsi_api_parse_object(toleration, toleration_size, "toleration", "Toleration", &jtol, err);
	if (rc == 0)
		rc = dsi_api_parse_object(taint, taint_size, "taint", "Taint", &jtaint, err);
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_toleration tol = {0};
	dsi_taint t = {0};
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	if (rc == 0 && (rc = dsi_toleration_read(&rd, &atoms, jtol, &tol)) < 0)
		dsi_error_set_source(err, "toleration");
	else if (rc == 0 && (rc = dsi_taint_read(&rd, &atoms, jtaint, &t)) < 0) {
		dsi_toleration_release(&atoms, &tol);
		dsi_error_set_source(err, "taint");
	}
	if (rc == 0) {
		*out = dsi_tolerates_taint(&atoms, &tol, &t,
					   dsi_gate(dsi_o_core(opts), DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS));
		dsi_toleration_release(&atoms, &tol);
		dsi_taint_release(&atoms, &t);
	}
	json_decref(jtol);
	json_decref(jtaint);
	dsi_atoms_free(&atoms);
	return rc;
}

/* The public effect bits as the internal mask. */
static unsigned effect_mask(unsigned effects)
{
	if (!effects)
		return DSI_EFFECTS_ALL;
	unsigned m = 0;
	if (effects & DS_TAINT_EFFECT_NO_SCHEDULE)
		m |= 1u << DSI_EFFECT_NO_SCHEDULE;
	if (effects & DS_TAINT_EFFECT_PREFER_NO_SCHEDULE)
		m |= 1u << DSI_EFFECT_PREFER_NO_SCHEDULE;
	if (effects & DS_TAINT_EFFECT_NO_EXECUTE)
		m |= 1u << DSI_EFFECT_NO_EXECUTE;
	if (effects & DS_TAINT_EFFECT_OTHER)
		m |= (1u << DSI_EFFECT_ALL) | (1u << DSI_EFFECT_OTHER);
	return m;
}

/* Taint.TimeAdded of the taint object given, as metav1.Time marshals it: UTC, whole seconds (the
 * reader has checked it is a time; null is Go's nil and stays out). */
static void add_time_added(json_t *out, const json_t *given)
{
	const char *s = json_string_value(json_object_get(given, "timeAdded"));
	ds_time t;
	char buf[40];
	if (!s || ds_time_parse(s, &t, NULL) < 0)
		return;
	t -= (t % 1000 + 1000) % 1000;
	if (ds_time_format(t, buf, sizeof(buf)) > 0)
		json_object_set_new(out, "timeAdded", json_string(buf));
}

/* FindMatchingUntoleratedTaint (component-helpers scheduling/corev1/helpers.go) */
int ds_taints_find_untolerated(const char *taints, size_t taints_size, const char *tolerations, size_t tolerations_size,
			       unsigned effects, const ds_options *opts, int *found, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (found)
		*found = 0;
	if (json_out)
		*json_out = NULL;
	if (effects & ~(DS_TAINT_EFFECT_NO_SCHEDULE | DS_TAINT_EFFECT_PREFER_NO_SCHEDULE | DS_TAINT_EFFECT_NO_EXECUTE |
			DS_TAINT_EFFECT_OTHER))
		return dsi_error_set(err, DS_EARG, NULL, "unknown effect bits 0x%x", effects);
	json_t *jt = NULL, *jl = NULL;
	int rc = dsi_api_parse_list(taints, taints_size, "taints", dsi_decode_type_taints(), &jt, err);
	if (rc == 0)
		rc = dsi_api_parse_list(tolerations, tolerations_size, "tolerations", dsi_decode_type_tolerations(),
					&jl, err);
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_taints ts = {0};
	dsi_tolerations tl = {0};
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	/* paths as the lists' own: "[2].effect" */
	if (rc == 0 && (rc = dsi_taints_read(&rd, &atoms, jt, "v", &ts)) < 0)
		dsi_error_set_source(err, "taints");
	if (rc == 0 && (rc = dsi_tolerations_read(&rd, &atoms, jl, "v", &tl)) < 0)
		dsi_error_set_source(err, "tolerations");
	if (rc < 0 && strncmp(err->path, "v[", 2) == 0)
		memmove(err->path, err->path + 1, strlen(err->path));
	if (rc == 0) {
		const dsi_taint *t = dsi_find_untolerated_taint(
			&atoms, &ts, &tl, effect_mask(effects),
			dsi_gate(dsi_o_core(opts), DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS), NULL);
		if (found)
			*found = t != NULL;
		if (json_out) {
			json_t *o = t ? dsi_taint_to_json(&atoms, t) : json_null();
			if (t && o) /* the taint as given, which dsi_taint does not keep whole */
				add_time_added(o, json_array_get(json_object_get(jt, "v"), (size_t)(t - ts.v)));
			if (t && o && dsi_go_encode(o, dsi_decode_type_named("Taint")) < 0) {
				json_decref(o);
				o = NULL;
			}
			rc = dsi_json_emit(o, json_out, err);
		}
	}
	dsi_taints_release(&atoms, &ts);
	dsi_tolerations_release(&atoms, &tl);
	json_decref(jt);
	json_decref(jl);
	dsi_atoms_free(&atoms);
	return rc;
}

/* ---- node affinity ------------------------------------------------------------------------------ */

/* RequiredNodeAffinity.Match (component-helpers scheduling/corev1/nodeaffinity/nodeaffinity.go) */
int ds_pod_required_node_affinity_match(const char *pod, size_t pod_size, const char *node, size_t node_size, int *out,
					ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!out)
		return dsi_error_set(err, DS_EARG, NULL, "out must not be NULL");
	*out = 0;
	json_t *jpod, *jnode = NULL;
	int rc = dsi_api_parse_object(pod, pod_size, "pod", "Pod", &jpod, err);
	if (rc == 0)
		rc = dsi_api_parse_object(node, node_size, "node", "Node", &jnode, err);
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_podspec spec;
	dsi_node n;
	memset(&spec, 0, sizeof(spec));
	memset(&n, 0, sizeof(n));
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	int have_spec = 0, have_node = 0;
	if (rc == 0) {
		const json_t *s = dsi_api_spec_of(jpod);
		size_t m = s != jpod ? dsi_rd_push(&rd, "spec") : 0;
		rc = dsi_podspec_read(&rd, &atoms, s, DSI_PODSPEC_PLACEMENT, dsi_core_options_default()->gates, &spec);
		dsi_rd_pop(&rd, m);
		have_spec = rc == 0;
		if (rc < 0)
			dsi_error_set_source(err, "pod");
	}
	if (rc == 0) {
		dsi_rd_init(&rd, err);
		rd.lenient = 1;
		have_node = (rc = dsi_node_read(&rd, &atoms, jnode, &n)) == 0;
		if (rc < 0)
			dsi_error_set_source(err, "node");
	}
	if (rc == 0) {
		int which;
		*out = dsi_required_affinity_matches(&atoms, &spec, &n, &which);
		/* LazyErrorNodeSelector.Match: the terms' parse errors come with false */
		if (!*out && which == 2)
			rc = dsi_api_node_selector_errors(&spec.required, err);
	}
	if (have_node)
		dsi_node_release(&atoms, &n);
	if (have_spec)
		dsi_podspec_release(&atoms, &spec);
	json_decref(jpod);
	json_decref(jnode);
	dsi_atoms_free(&atoms);
	return rc;
}

/* ---- the DaemonSet controller ------------------------------------------------------------------- */

/* A scratch snapshot holding the DaemonSet of text (and, when node is not NULL, that Node). */
static int ds_scratch(dsi_cluster *c, const char *ds, size_t ds_size, const char *node, size_t node_size,
		      const ds_options *opts, const dsi_daemonset **d, const dsi_node **n, ds_error *err)
{
	int rc = dsi_api_scratch_init(c, opts, err);
	if (rc < 0)
		return rc;
	rc = dsi_api_scratch_add(c, ds, ds_size, "DaemonSet", "apps/v1", NULL, 1, "daemonset", err);
	if (rc == 0 && node)
		rc = dsi_api_scratch_add(c, node, node_size, "Node", "v1", NULL, 1, "node", err);
	if (rc == 0 && !(*d = only(c, DSI_KIND_DAEMONSET)))
		rc = dsi_error_set(err, DS_EVALUE, "kind", "expected a DaemonSet");
	if (rc == 0 && node && !(*n = dsi_cluster_count(c, DSI_KIND_NODE) ? dsi_cluster_node_at(c, 0) : NULL))
		rc = dsi_error_set(err, DS_EVALUE, "kind", "expected a Node");
	if (rc < 0)
		dsi_cluster_destroy(c);
	return rc;
}

/* NodeShouldRunDaemonPod (pkg/controller/daemon/daemon_controller.go) */
int ds_daemonset_node_should_run(const char *daemonset, size_t daemonset_size, const char *node, size_t node_size,
				 const ds_options *opts, int *should_run, int *should_continue_running, char **json_out,
				 ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	if (!node && node_size) /* ds_scratch takes a NULL node as "no node wanted" */
		return dsi_error_set(err, DS_EARG, NULL, "node is NULL with size %zu", node_size);
	if (!node)
		node = ""; /* parsed as no document: the error says a Node was expected */
	dsi_cluster c;
	const dsi_daemonset *d;
	const dsi_node *n;
	int rc = ds_scratch(&c, daemonset, daemonset_size, node, node_size, opts, &d, &n, err);
	if (rc < 0)
		return rc;
	dsi_placement p;
	if (dsi_placement_init(&p, &c, d, dsi_o_core(opts)) < 0) {
		dsi_cluster_destroy(&c);
		return dsi_error_nomem(err);
	}
	dsi_verdict v;
	dsi_node_should_run(&p, n, &v);
	if (should_run)
		*should_run = v.should_run;
	if (should_continue_running)
		*should_continue_running = v.should_continue;
	if (json_out)
		rc = dsi_json_emit(dsi_verdict_json(&p, n, &v), json_out, err);
	dsi_placement_release(&p);
	dsi_cluster_destroy(&c);
	return rc;
}

/* CreatePodTemplate + ReplaceDaemonSetPodNodeNameNodeAffinity + GetPodFromTemplate (syncNodes) */
int ds_daemonset_new_pod(const char *daemonset, size_t size, const char *node_name, const char *hash,
			 const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!node_name || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "node_name and json_out must not be NULL");
	*json_out = NULL;
	dsi_cluster c;
	const dsi_daemonset *d;
	int rc = ds_scratch(&c, daemonset, size, NULL, 0, opts, &d, NULL, err);
	if (rc < 0)
		return rc;
	if (!hash)
		hash = dsi_o_daemon(opts)->revision_hash ? dsi_o_daemon(opts)->revision_hash : d->hash;
	rc = dsi_api_emit_pod(&c, d, node_name, hash, opts, json_out, err);
	dsi_cluster_destroy(&c);
	return rc;
}

/* AddOrUpdateDaemonPodTolerations (pkg/controller/daemon/util/daemonset_util.go) */
int ds_podspec_add_daemon_tolerations(const char *podspec, size_t size, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!json_out)
		return dsi_error_set(err, DS_EARG, NULL, "json_out must not be NULL");
	*json_out = NULL;
	json_t *obj;
	int rc = dsi_api_parse_object(podspec, size, "podspec", "Pod", &obj, err);
	if (rc < 0)
		return rc;
	json_t *spec = json_deep_copy(dsi_api_spec_of(obj));
	int nested = dsi_api_spec_of(obj) != obj; /* errors name the field in what was given */
	json_decref(obj);
	if (!spec)
		return dsi_error_nomem(err);
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	/* the default keys must be atoms of the table for dsi_daemon_tolerations to find them */
	dsi_atom pinned[DSI_N_WELL_KNOWN_TAINTS];
	for (int i = 0; i < DSI_N_WELL_KNOWN_TAINTS; i++)
		if ((pinned[i] = dsi_atom_intern_cstr(&atoms, dsi_well_known_taint_keys[i])) == DSI_ATOM_ERROR)
			rc = dsi_error_nomem(err);
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	dsi_tolerations tols = {0}, merged = {0};
	int host_network = 0;
	if (rc == 0)
		rc = dsi_rd_bool(&rd, spec, "hostNetwork", &host_network, NULL);
	if (rc == 0)
		rc = dsi_tolerations_read(&rd, &atoms, spec, "tolerations", &tols);
	if (rc < 0 && nested)
		dsi_error_prefix_path(err, "spec");
	if (rc == 0 && dsi_daemon_tolerations(&atoms, &tols, host_network, &merged) < 0)
		rc = dsi_error_nomem(err);
	json_t *arr = rc == 0 ? json_array() : NULL;
	for (uint32_t i = 0; arr && i < merged.n; i++)
		if (json_array_append_new(arr, dsi_toleration_to_json(&atoms, &merged.v[i])) < 0) {
			json_decref(arr);
			arr = NULL;
		}
	if (rc == 0 && (!arr || json_object_set_new(spec, "tolerations", arr) < 0))
		rc = dsi_error_nomem(err);
	if (rc < 0)
		dsi_error_set_source(err, "podspec");
	dsi_free(merged.v); /* its atoms are borrowed */
	dsi_tolerations_release(&atoms, &tols);
	for (int i = 0; i < DSI_N_WELL_KNOWN_TAINTS; i++)
		if (pinned[i] != DSI_ATOM_ERROR)
			dsi_atom_unref(&atoms, pinned[i]);
	dsi_atoms_free(&atoms);
	if (rc == 0 && dsi_go_encode(spec, dsi_decode_type_named("PodSpec")) < 0)
		rc = dsi_error_nomem(err);
	if (rc < 0) {
		json_decref(spec);
		return rc;
	}
	return dsi_json_emit(spec, json_out, err);
}

/* ReplaceDaemonSetPodNodeNameNodeAffinity (pkg/controller/daemon/util/daemonset_util.go) */
int ds_affinity_replace_node_name(const char *affinity, size_t size, const char *node_name, char **json_out,
				  ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!node_name || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "node_name and json_out must not be NULL");
	*json_out = NULL;
	json_t *aff;
	int rc = dsi_api_parse_doc(affinity, size, "affinity", &aff, err);
	if (rc == 0 && aff && (rc = dsi_api_go_decode(aff, dsi_decode_type_named("Affinity"), err)) < 0) {
		dsi_error_set_source(err, "affinity");
		json_decref(aff);
	}
	if (rc < 0)
		return rc;
	/* the Go types: each level an object (a pointer: null reads as nil) */
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	json_t *na = NULL, *req = NULL;
	if (aff && (rc = dsi_rd_expect_object(&rd, aff)) == 0 &&
	    (rc = dsi_rd_object(&rd, aff, "nodeAffinity", &na)) == 0 && na) {
		size_t m = dsi_rd_push(&rd, "nodeAffinity");
		rc = dsi_rd_object(&rd, na, "requiredDuringSchedulingIgnoredDuringExecution", &req);
		dsi_rd_pop(&rd, m);
	}
	json_t *spec = rc == 0 ? json_object() : NULL;
	if (rc == 0 && (!spec || (aff && json_object_set(spec, "affinity", aff) < 0) ||
			dsi_pin_node_affinity(spec, node_name) < 0))
		rc = dsi_error_nomem(err);
	if (rc < 0)
		dsi_error_set_source(err, "affinity");
	json_t *out = rc == 0 ? json_incref(json_object_get(spec, "affinity")) : NULL;
	json_decref(spec);
	json_decref(aff);
	if (out && dsi_go_encode(out, dsi_decode_type_named("Affinity")) < 0) {
		json_decref(out);
		return dsi_error_nomem(err);
	}
	return rc < 0 ? rc : dsi_json_emit(out, json_out, err);
}

/* rollingUpdate (pkg/controller/daemon/update.go), alone */
int ds_daemonset_rolling_update(const char *daemonset, size_t daemonset_size, const char *objects, size_t objects_size,
				const char *hash, ds_time now, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!json_out)
		return dsi_error_set(err, DS_EARG, NULL, "json_out must not be NULL");
	*json_out = NULL;
	dsi_cluster c;
	const dsi_daemonset *d;
	int rc = ds_scratch(&c, daemonset, daemonset_size, NULL, 0, opts, &d, NULL, err);
	if (rc < 0)
		return rc;
	if ((rc = dsi_api_scratch_add(&c, objects, objects_size, "Pod", "v1", NULL, 0, "objects", err)) < 0) {
		dsi_cluster_destroy(&c);
		return rc;
	}
	d = only(&c, DSI_KIND_DAEMONSET); /* the loads may have moved it */
	/* every delete named (a sync names only the burst it executes), the hash as given */
	dsi_daemon_options dopt = *dsi_o_daemon(opts); /* borrows the strings */
	dopt.burst_replicas = INT32_MAX;
	if (hash && *hash)
		dopt.revision_hash = (char *)hash;
	dsi_daemon_cfg cfg = {dsi_o_core(opts), &dopt};
	dsi_plan p;
	rc = dsi_plan_sync_ex(&c, d, now, &cfg, NULL, DSI_SYNC_ROLLING_ONLY, &p, err);
	if (rc < 0) {
		dsi_cluster_destroy(&c);
		return rc;
	}
	json_t *creates = json_array(), *deletes = json_array();
	for (uint32_t i = 0; creates && i < p.ncreates; i++)
		json_array_append_new(creates, json_pack("{s:s, s:s}", "node", p.creates[i].node, "reason",
							 dsi_create_reason_name(p.creates[i].reason)));
	for (uint32_t i = 0; deletes && i < p.ndeletes; i++) {
		const dsi_plan_delete *x = &p.deletes[i];
		json_array_append_new(deletes, json_pack("{s:s, s:s, s:s, s:s}", "namespace", x->ns, "name", x->name,
							 "node", x->node, "reason", dsi_delete_reason_name(x->reason)));
	}
	json_t *doc = json_pack("{s:s, s:b, s:o, s:o}", "hash", p.hash, "ran", p.rolling_ran, "creates", creates,
				"deletes", deletes);
	if (doc && p.rolling_ran) {
		json_object_set_new(doc, "maxUnavailable", json_integer(p.max_unavailable));
		json_object_set_new(doc, "maxSurge", json_integer(p.max_surge));
		json_object_set_new(doc, "desired", json_integer(p.desired_for_update));
		json_object_set_new(doc, p.max_surge ? "surging" : "unavailable",
				    json_integer(p.max_surge ? p.num_surge : p.num_unavailable));
	}
	if (doc && p.rolling_error)
		json_object_set_new(doc, "error", json_string(p.rolling_error));
	dsi_plan_release(&p);
	dsi_cluster_destroy(&c);
	return dsi_json_emit(doc, json_out, err);
}

/* ---- the scheduler --------------------------------------------------------------------------------- */

/* The scratch snapshot of a node and its pods, and the pod read into an overlay of its atoms. */
typedef struct sched_in {
	dsi_cluster c;
	const dsi_node *node;
	dsi_atoms atoms;
	dsi_meta meta;
	dsi_podspec spec;
	int have_pod;
} sched_in;

static void sched_in_release(sched_in *s)
{
	if (s->have_pod) {
		dsi_podspec_release(&s->atoms, &s->spec);
		dsi_meta_release(&s->atoms, &s->meta);
		dsi_atoms_free(&s->atoms);
	}
	dsi_cluster_destroy(&s->c);
}

static int sched_in_load(sched_in *s, const char *pod, size_t pod_size, const char *node, size_t node_size,
			 const char *objects, size_t objects_size, const ds_options *opts, ds_error *err)
{
	memset(s, 0, sizeof(*s));
	json_t *jpod, *jnode;
	int rc = dsi_api_parse_object(pod, pod_size, "pod", NULL, &jpod, err);
	if (rc == 0 && (rc = dsi_api_go_decode(jpod, dsi_schema_root_type("v1", "Pod"), err)) < 0) {
		dsi_error_set_source(err, "pod");
		json_decref(jpod);
	}
	if (rc < 0)
		return rc;
	/* the node is checked where the snapshot loads it */
	if ((rc = dsi_api_parse_object(node, node_size, "node", NULL, &jnode, err)) < 0) {
		json_decref(jpod);
		return rc;
	}
	const char *name = json_string_value(json_object_get(json_object_get(jnode, "metadata"), "name"));
	if ((rc = dsi_api_scratch_init(&s->c, opts, err)) < 0) {
		json_decref(jpod);
		json_decref(jnode);
		return rc;
	}
	if ((rc = dsi_api_scratch_add(&s->c, node, node_size, "Node", "v1", NULL, 1, "node", err)) == 0)
		rc = dsi_api_scratch_add(&s->c, objects, objects_size, "Pod", "v1", name ? name : "", 0, "objects",
					 err);
	json_decref(jnode);
	if (rc == 0 && !(s->node = dsi_cluster_count(&s->c, DSI_KIND_NODE) == 1 ? dsi_cluster_node_at(&s->c, 0) : NULL))
		rc = dsi_error_set(err, DS_EVALUE, NULL, "objects: expected no Node besides the node argument");
	if (rc == 0) {
		dsi_atoms_init_overlay(&s->atoms, &s->c.atoms);
		dsi_rd rd;
		dsi_api_lenient_rd(&rd, err);
		if ((rc = dsi_pod_read_for_fit(&rd, &s->atoms, jpod, s->c.core.gates, &s->meta, &s->spec)) < 0) {
			dsi_atoms_free(&s->atoms);
			dsi_error_set_source(err, "pod");
		}
		s->have_pod = rc == 0;
	}
	json_decref(jpod);
	if (rc < 0)
		dsi_cluster_destroy(&s->c);
	return rc;
}

int ds_scheduler_filter(const char *pod, size_t pod_size, const char *node, size_t node_size, const char *objects,
			size_t objects_size, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!json_out)
		return dsi_error_set(err, DS_EARG, NULL, "json_out must not be NULL");
	*json_out = NULL;
	sched_in s;
	int rc = sched_in_load(&s, pod, pod_size, node, node_size, objects, objects_size, opts, err);
	if (rc < 0)
		return rc;
	json_t *out;
	rc = dsi_fit_report(&s.c, &s.atoms, &s.meta, &s.spec, s.node, dsi_o_core(opts), dsi_o_sched(opts), &out, err);
	sched_in_release(&s);
	return rc < 0 ? rc : dsi_json_emit(out, json_out, err);
}

/* The pod itself, when it is among the node's pods, does not count against it. */
static int is_pod(const dsi_pod *p, void *ctx)
{
	const dsi_meta *m = ctx;
	return p->meta.ns == m->ns && p->meta.name == m->name;
}

/* SelectVictimsOnNode (scheduler plugins/defaultpreemption/default_preemption.go) */
int ds_preemption_select_victims(const char *pod, size_t pod_size, const char *node, size_t node_size,
				 const char *objects, size_t objects_size, const ds_options *opts, char **json_out,
				 ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!json_out)
		return dsi_error_set(err, DS_EARG, NULL, "json_out must not be NULL");
	*json_out = NULL;
	sched_in s;
	int rc = sched_in_load(&s, pod, pod_size, node, node_size, objects, objects_size, opts, err);
	if (rc < 0)
		return rc;
	dsi_requests_ignore(&s.atoms, &s.spec.requests, dsi_o_sched(opts));
	int32_t prio = 0;
	if (dsi_pod_priority(&s.c, &s.atoms, &s.spec, &prio) < 0) {
		rc = dsi_error_set(err, DS_EVALUE, "spec.priorityClassName", "no PriorityClass with name %s was found",
				   dsi_atom_str(&s.atoms, s.spec.priority_class));
		sched_in_release(&s);
		return rc;
	}
	dsi_preemption pre;
	if (dsi_select_victims(&s.c, &s.atoms, &s.spec, prio, &s.spec.tolerations,
			       dsi_gate(dsi_o_core(opts), DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS), s.node,
			       is_pod, &s.meta, &pre) < 0) {
		sched_in_release(&s);
		return dsi_error_nomem(err);
	}
	json_t *out = dsi_preemption_json(&s.c, &pre);
	dsi_preemption_release(&pre);
	sched_in_release(&s);
	return dsi_json_emit(out, json_out, err);
}
