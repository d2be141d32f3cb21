/*
 * Upstream's decisions on parsed objects (include/daemonset/object.h, api/decide.h): the typed views
 * the objects hold, read as they are, in the tables of the objects (compared across tables by
 * content). No parsing, no decoding check, and no allocation but the result, except where the
 * decision needs a snapshot of several objects (rolling update, scheduler, preemption), which it
 * copies. The text functions of upstream.c parse their documents into objects and call the same
 * dsi_decide_* functions.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "api/args.h"
#include "api/decide.h"
#include "api/docs.h"
#include "api/lookup.h"
#include "apiserver/canonical.h"
#include "apiserver/decodecheck.h"
#include "apiserver/goemit.h"
#include "apiserver/goencode.h"
#include "apiserver/schema.h"
#include "core/alloc.h"
#include "core/jsonout.h"
#include "core/prefetch.h"
#include "daemon/daemontolerations.h"
#include "daemon/explain.h"
#include "daemon/newpod.h"
#include "daemon/syncplan.h"
#include "sched/fitreport.h"
#include "sched/nodeaffinity.h"

int dsi_decide_comparison_ops(const ds_options *opts)
{
	return dsi_gate(dsi_o_core(opts), DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS);
}

/* The string of an atom, "" for none. */
static const char *str(const dsi_atoms *a, dsi_atom id)
{
	const char *s = dsi_atom_str(a, id);
	return s ? s : "";
}

/* ---- taints and tolerations ----------------------------------------------------------------- */

int dsi_decide_filter(const ds_taint_filter *pf, dsi_effect_filter *out, int *nil, ds_error *err)
{
	*nil = !pf;
	if (!pf)
		return 0;
	if (pf->size < offsetof(ds_taint_filter, count) + sizeof(pf->count))
		return dsi_error_set(err, DS_EARG, NULL, "filter->size %zu: expected sizeof(ds_taint_filter) (%zu)",
				     pf->size, sizeof(ds_taint_filter));
	if (pf->count && !pf->effects)
		return dsi_error_set(err, DS_EARG, NULL, "filter->effects is NULL with count %zu", pf->count);
	/* the known effects by their bits; every other string is compared with the effect of each
	 * unknown one (a known name never equals an unknown effect) */
	out->mask = 0;
	out->unknown = pf->effects;
	out->nunknown = pf->count;
	for (size_t i = 0; i < pf->count; i++) {
		const char *e = pf->effects[i];
		if (!e)
			return dsi_error_set(err, DS_EARG, NULL, "filter->effects[%zu] is NULL", i);
		out->mask |= !*e                                  ? 1u << DSI_EFFECT_ALL
			     : strcmp(e, "NoSchedule") == 0       ? 1u << DSI_EFFECT_NO_SCHEDULE
			     : strcmp(e, "PreferNoSchedule") == 0 ? 1u << DSI_EFFECT_PREFER_NO_SCHEDULE
			     : strcmp(e, "NoExecute") == 0        ? 1u << DSI_EFFECT_NO_EXECUTE
								  : 1u << DSI_EFFECT_OTHER;
	}
	return 0;
}

/* Taint.TimeAdded as metav1.Time marshals it: UTC, whole seconds. */
static void time_added_json(json_t *out, const dsi_time_added *at)
{
	char buf[40];
	ds_time t = at->t - (at->t % 1000 + 1000) % 1000;
	if (at->has && ds_time_format(t, buf, sizeof(buf)) > 0)
		json_object_set_new(out, "timeAdded", json_string(buf));
}

/* FindMatchingUntoleratedTaint (component-helpers scheduling/corev1/helpers.go) */
int dsi_decide_find(const ds_object *taints, const ds_object *tolerations, const dsi_effect_filter *filter,
		    const ds_options *opts, int *found, char **json_out, ds_error *err)
{
	dsi_taints one_taint;
	dsi_tolerations one_tol;
	const dsi_taints *ts = dsi_object_taints(taints, &one_taint);
	const dsi_taint *t = dsi_find_untolerated_taint_x(&taints->atoms, ts, &tolerations->atoms,
							  dsi_object_tolerations(tolerations, &one_tol), filter,
							  dsi_decide_comparison_ops(opts), NULL);
	if (found)
		*found = t != NULL;
	if (!json_out)
		return 0;
	json_t *o = t ? dsi_taint_to_json(&taints->atoms, t) : json_null();
	if (t && o && taints->times) /* the taint as given, which dsi_taint does not keep whole */
		time_added_json(o, &taints->times[t - ts->v]);
	if (t && o && dsi_go_encode(o, dsi_decode_type_named("Taint")) < 0) {
		json_decref(o);
		o = NULL;
	}
	return dsi_json_emit(o, json_out, err);
}

/* ---- node affinity and placement ------------------------------------------------------------ */

/* RequiredNodeAffinity.Match (component-helpers scheduling/corev1/nodeaffinity/nodeaffinity.go) */
int dsi_decide_affinity(const ds_object *pod, const ds_object *node, int *out, ds_error *err)
{
	int which;
	*out = dsi_required_affinity_matches_x(&pod->atoms, &pod->u.pod.spec, &node->atoms, &node->u.node, &which);
	/* LazyErrorNodeSelector.Match: the terms' parse errors come with false */
	if (!*out && which == 2)
		return dsi_api_node_selector_errors(&pod->u.pod.spec.required, err);
	return 0;
}

/* The DaemonSet's placement with the decision's comparison gate. */
static dsi_placement placement(const ds_object *daemonset, const ds_options *opts)
{
	dsi_placement p = daemonset->u.ds.place;
	p.comparison_ops = dsi_decide_comparison_ops(opts);
	p.gates = dsi_o_core(opts)->gates;
	return p;
}

/* NodeShouldRunDaemonPod (pkg/controller/daemon/daemon_controller.go) */
int dsi_decide_should_run(const ds_object *daemonset, const ds_object *node, const ds_options *opts, int *should_run,
			  int *should_continue_running, char **json_out, ds_error *err)
{
	dsi_placement p = placement(daemonset, opts);
	dsi_verdict v;
	dsi_node_should_run_x(&p, &node->atoms, &node->u.node, &v);
	if (should_run)
		*should_run = v.should_run;
	if (should_continue_running)
		*should_continue_running = v.should_continue;
	return json_out ? dsi_json_emit(dsi_verdict_json_x(&p, &node->atoms, &node->u.node, &v), json_out, err) : 0;
}

/* ---- the pod the controller creates ----------------------------------------------------------- */

/* CreatePodTemplate + ReplaceDaemonSetPodNodeNameNodeAffinity + GetPodFromTemplate (syncNodes) */
int dsi_decide_new_pod(const ds_object *daemonset, const char *node_name, const char *hash, const ds_options *opts,
		       char **json_out, ds_error *err)
{
	if (!hash)
		hash = dsi_o_daemon(opts)->revision_hash ? dsi_o_daemon(opts)->revision_hash : daemonset->u.ds.d.hash;
	dsi_placement p = placement(daemonset, opts);
	return dsi_api_emit_pod_placed(&p, node_name, hash, json_out, err);
}

/* What dsi_go_encode and dsi_json_emit make of v (a value of type `type`, NULL: absent) with patch
 * merged and the member m set (goemit.h; either may be NULL), written from v; or, where the writer
 * hands it back, from the tree built (v copied, merged, m set, encoded). Consumes patch. */
static int emit_patched(const json_t *v, json_t *patch, const dsi_go_member *m, int type, char **json_out,
			ds_error *err)
{
	dsi_jout o = DSI_JOUT_INIT;
	dsi_go_emit_with(&o, v, patch, type, DSI_GO_STRUCT, m);
	if ((*json_out = dsi_jout_finish(&o))) {
		json_decref(patch);
		return 0;
	}
	json_t *tree = o.fail > 0 ? json_is_object(v) ? json_deep_copy(v) : json_object() : NULL;
	int rc = tree && (!patch || dsi_go_merge(tree, patch) == 0) &&
				 (!m || json_object_set_new(tree, m->key, m->json(m->ctx)) == 0)
			 ? dsi_go_encode(tree, type)
			 : -1;
	json_decref(patch);
	if (rc < 0) {
		json_decref(tree);
		return dsi_error_nomem(err);
	}
	return dsi_json_emit(tree, json_out, err);
}

/* AddOrUpdateDaemonPodTolerations (pkg/controller/daemon/util/daemonset_util.go) */
int dsi_decide_add_tolerations(const ds_object *pod, char **json_out, ds_error *err)
{
	const json_t *spec = dsi_api_spec_of(pod->json);
	dsi_tolerations merged = {0};
	if (!spec || dsi_daemon_tolerations(&pod->atoms, &pod->u.pod.spec.tolerations, pod->u.pod.spec.host_network,
					    &merged) < 0)
		return dsi_error_nomem(err);
	dsi_tolerations_ref ref = {&pod->atoms, &merged};
	dsi_go_member m = {"tolerations", dsi_tolerations_ref_write, dsi_tolerations_ref_json, &ref, merged.n == 0};
	int rc = emit_patched(spec, NULL, &m, dsi_decode_type_named("PodSpec"), json_out, err);
	dsi_free(merged.v); /* its atoms are borrowed */
	return rc;
}

/* ReplaceDaemonSetPodNodeNameNodeAffinity (pkg/controller/daemon/util/daemonset_util.go) */
int dsi_decide_replace_affinity(const ds_object *affinity, const char *node_name, char **json_out, ds_error *err)
{
	/* dsi_pin_node_affinity's changes are the merge of its patch */
	json_t *patch = dsi_pin_patch(node_name);
	if (!patch)
		return dsi_error_nomem(err);
	return emit_patched(affinity ? affinity->json : NULL, patch, NULL, dsi_decode_type_named("Affinity"), json_out,
			    err);
}

/* ---- decisions on a snapshot of several objects ------------------------------------------------ */

/* A copy of the list's snapshot (a new scratch one without a list), which a decision changes. */
static int scratch_of(const ds_object *list, const ds_options *opts, dsi_cluster *c, ds_error *err)
{
	return list ? dsi_cluster_copy(&list->u.list.c, c, err) : dsi_api_scratch_init(c, opts, err);
}

/* rollingUpdate (pkg/controller/daemon/update.go), alone */
int dsi_decide_rolling_update(dsi_cluster *c, const ds_object *daemonset, dsi_daemonset *read, const char *hash,
			      ds_time now, const ds_options *opts, char **json_out, ds_error *err)
{
	const dsi_atoms *atoms = read ? &c->atoms : &daemonset->atoms;
	const dsi_daemonset *od = read ? read : &daemonset->u.ds.d;
	const char *ns = str(atoms, od->meta.ns), *name = str(atoms, od->meta.name);
	/* the DaemonSet joins its nodes and pods (one of the objects with its name stands for it, as the
	 * objects' load replaces it in the text functions); it reads a JSON of its own */
	const dsi_daemonset *d = dsi_cluster_daemonset(c, ns, name);
	int rc = 0;
	if (d && read) {
		dsi_daemonset_release(&c->atoms, read);
	} else if (!d) {
		dsi_daemonset *nd = dsi_malloc(sizeof(*nd));
		if (nd && read) { /* read as the snapshot reads it, into its table */
			memcpy(nd, read, sizeof(*nd));
		} else if (nd) { /* the caller's object, read again into the table */
			/* the hash is the object's, computed from the same JSON with the same version;
			 * without a ControllerRevision to compare it with, no patch either, and so no
			 * canonical template to make them from; and its JSON, which the plan of decisions
			 * only reads, borrowed for the call rather than copied */
			int reuse = od->hash[0] && !dsi_cluster_count(c, DSI_KIND_REVISION);
			json_t *copy = reuse ? od->obj : json_deep_copy(od->obj),
			       *hashed = od->hashed && !reuse ? json_deep_copy(od->hashed) : NULL;
			dsi_rd rd;
			dsi_api_lenient_rd(&rd, err);
			if (!copy || (od->hashed && !reuse && !hashed))
				rc = dsi_error_nomem(err);
			else if ((rc = dsi_daemonset_read_ex(&rd, &c->atoms, copy, hashed,
							     json_string_value(json_object_get(copy, "apiVersion")),
							     od->legacy != 0, daemonset->gates, daemonset->k8s_minor,
							     reuse ? DSI_DS_NO_HASH | DSI_DS_BORROW : 0, nd)) == 0 &&
				 reuse)
				memcpy(nd->hash, od->hash, sizeof(nd->hash));
			if (!reuse)
				json_decref(copy);
			json_decref(hashed);
		} else {
			rc = dsi_error_nomem(err);
		}
		if (rc == 0) {
			const dsi_kind k = DSI_KIND_DAEMONSET;
			void *obj = nd;
			d = nd; /* the snapshot keeps it where it is (a DaemonSet without a name too) */
			nd = NULL;
			rc = dsi_cluster_add_objects(c, &k, &obj, 1, err);
		} else if (read) {
			dsi_daemonset_release(&c->atoms, read);
		}
		dsi_free(nd);
		if (rc < 0)
			return rc;
	}
	/* every delete named (a sync names only the burst it executes), the hash as given */
	dsi_daemon_options dopt = *dsi_o_daemon(opts); /* borrows the strings */
	dopt.burst_replicas = INT32_MAX;
	if (hash && *hash)
		dopt.revision_hash = (char *)hash;
	dsi_daemon_cfg cfg = {dsi_o_core(opts), &dopt};
	dsi_plan p;
	const int mode = DSI_SYNC_ROLLING_ONLY | DSI_SYNC_DECISIONS_ONLY; /* the pods and revision go unread */
	if ((rc = dsi_plan_sync_ex(c, d, now, &cfg, NULL, mode, &p, err)) < 0)
		return rc;
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
	return dsi_json_emit(doc, json_out, err);
}

/* The pod itself, when it is among the node's pods, does not count against it. */
static int is_pod(const dsi_pod *p, void *ctx)
{
	const dsi_meta *m = ctx;
	return p->meta.ns == m->ns && p->meta.name == m->name;
}

/* The node of c for the scheduler: one of the objects with its name (which the text functions load
 * after it, replacing it), else the node object's, copied in. The objects' other Nodes are the rest
 * of the cluster, which InterPodAffinity and PodTopologySpread read. */
static int sched_node(dsi_cluster *c, const ds_object *node, const dsi_node **out, ds_error *err)
{
	const char *name = str(&node->atoms, node->u.node.meta.name);
	const dsi_node *found = node->u.node.meta.name ? dsi_cluster_node_by_name(c, name) : NULL;
	if (found) {
		*out = found;
		return 0;
	}
	if (!node->u.node.meta.name) {
		/* a Node without a name: the other Nodes must not be taken for it */
		for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_NODE); i++)
			if (!dsi_cluster_node_at(c, i)->meta.name)
				return dsi_error_set(
					err, DS_EVALUE, NULL,
					"objects: expected no Node without a name besides the node argument");
	}
	dsi_node *n = dsi_calloc(1, sizeof(*n));
	if (!n || dsi_node_copy_x(&c->atoms, &node->atoms, &node->u.node, n) < 0) {
		dsi_free(n);
		return dsi_error_nomem(err);
	}
	const dsi_kind k = DSI_KIND_NODE;
	void *obj = n;
	int rc = dsi_cluster_add_objects(c, &k, &obj, 1, err);
	if (rc < 0)
		return rc;
	*out = n;
	return 0;
}

int dsi_decide_scheduler(dsi_cluster *c, const ds_object *list, const ds_object *pod, const ds_object *node,
			 const ds_options *opts, int victims, char **json_out, ds_error *err)
{
	const dsi_node *n = NULL;
	int rc = sched_node(c, node, &n, err);
	if (rc < 0)
		return rc;
	/* the node's pods: those without a node are bound to it, as the text functions load them */
	for (size_t i = 0; n->meta.name && i < dsi_cluster_count(c, DSI_KIND_POD); i++) {
		dsi_pod *p = c->objs[DSI_KIND_POD].v[i];
		if (!p->spec.node_name && !(list && list->u.list.unbound && list->u.list.unbound[p->index]) &&
		    dsi_cluster_bind_pod(c, p, n->meta.name) < 0)
			return dsi_error_nomem(err);
	}
	/* the pod, read into an overlay of the snapshot's strings */
	dsi_atoms atoms;
	dsi_atoms_init_overlay(&atoms, &c->atoms);
	dsi_meta meta;
	dsi_podspec spec;
	dsi_rd rd;
	dsi_api_lenient_rd(&rd, err);
	if ((rc = dsi_object_pod_read(pod, &rd, &atoms, &meta, &spec)) < 0) {
		dsi_atoms_free(&atoms);
		dsi_error_set_source(err, "pod");
		return rc;
	}
	json_t *out = NULL;
	if (!victims) {
		rc = dsi_fit_report(c, &atoms, &meta, &spec, n, dsi_o_core(opts), dsi_o_sched(opts), &out, err);
	} else {
		/* SelectVictimsOnNode (scheduler plugins/defaultpreemption/default_preemption.go) */
		dsi_requests_ignore(&atoms, &spec.requests, dsi_o_sched(opts));
		int32_t prio = 0;
		dsi_preemption pre;
		if (dsi_pod_priority(c, &atoms, &spec, &prio) < 0)
			rc = dsi_error_set(err, DS_EVALUE, "spec.priorityClassName",
					   "no PriorityClass with name %s was found",
					   dsi_atom_str(&atoms, spec.priority_class));
		else {
			dsi_cycle cy;
			dsi_sched_pod sp = {&atoms,
					    meta.ns,
					    &meta.labels,
					    &spec,
					    &spec.tolerations,
					    dsi_decide_comparison_ops(opts),
					    0,
					    meta.name,
					    meta.uid,
					    1,
					    dsi_o_core(opts)->gates};
			if (dsi_cycle_init(&cy, c, &sp, is_pod, &meta) < 0)
				rc = dsi_error_nomem(err);
			else if (dsi_select_victims(c, &atoms, &spec, prio, &spec.tolerations,
						    dsi_decide_comparison_ops(opts), n, &cy, is_pod, &meta, &pre) < 0)
				rc = dsi_error_nomem(err);
			else {
				out = dsi_preemption_json(c, &pre);
				dsi_preemption_release(&pre);
			}
			dsi_cycle_release(&cy);
		}
	}
	dsi_podspec_release(&atoms, &spec);
	dsi_meta_release(&atoms, &meta);
	dsi_atoms_free(&atoms);
	return rc < 0 ? rc : dsi_json_emit(out, json_out, err);
}

/* ---- the _obj forms ------------------------------------------------------------------------- */

/* ToleratesTaint (k8s.io/api core/v1 toleration.go) */
int ds_toleration_tolerates_taint_obj(const ds_object *toleration, const ds_object *taint, const ds_options *opts,
				      int *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	int rc;
	DSI_ARGS_NONNULL(err, out);
	*out = 0;
	if ((rc = dsi_object_want(toleration, DSI_OT_TOLERATION, "toleration", err)) < 0 ||
	    (rc = dsi_object_want(taint, DSI_OT_TAINT, "taint", err)) < 0)
		return rc;
	*out = dsi_tolerates_taint_x(&toleration->atoms, &toleration->u.tol, &taint->atoms, &taint->u.taint,
				     dsi_decide_comparison_ops(opts));
	return 0;
}

/* DS_EARG unless o holds taints (what: the argument). */
static int want_taints(const ds_object *o, const char *what, ds_error *err)
{
	dsi_taints one;
	if (dsi_object_taints(o, &one))
		return 0;
	return o ? dsi_error_set(err, DS_EARG, NULL, "%s: expected a []Taint, a Taint or a Node object, got a %s", what,
				 dsi_object_type_name(o->type))
		 : dsi_error_set(err, DS_EARG, NULL, "%s must not be NULL", what);
}

static int want_tolerations(const ds_object *o, ds_error *err)
{
	dsi_tolerations one;
	if (dsi_object_tolerations(o, &one))
		return 0;
	return o ? dsi_error_set(err, DS_EARG, NULL,
				 "tolerations: expected a []Toleration, a Toleration, a Pod or a DaemonSet object, "
				 "got a %s",
				 dsi_object_type_name(o->type))
		 : dsi_error_set(err, DS_EARG, NULL, "tolerations must not be NULL");
}

/* FindMatchingUntoleratedTaint (component-helpers scheduling/corev1/helpers.go) */
int ds_taints_find_untolerated_obj(const ds_object *taints, const ds_object *tolerations, const ds_taint_filter *filter,
				   const ds_options *opts, int *found, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (found)
		*found = 0;
	if (json_out)
		*json_out = NULL;
	dsi_effect_filter f;
	int nil, rc;
	if ((rc = dsi_decide_filter(filter, &f, &nil, err)) < 0 || (rc = want_taints(taints, "taints", err)) < 0 ||
	    (rc = want_tolerations(tolerations, err)) < 0)
		return rc;
	return dsi_decide_find(taints, tolerations, nil ? NULL : &f, opts, found, json_out, err);
}

/* RequiredNodeAffinity.Match (component-helpers scheduling/corev1/nodeaffinity/nodeaffinity.go) */
int ds_pod_required_node_affinity_match_obj(const ds_object *pod, const ds_object *node, const ds_options *opts,
					    int *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	(void)opts; /* the objects were read with theirs; Match reads none */
	int rc;
	DSI_ARGS_NONNULL(err, out);
	*out = 0;
	if ((rc = dsi_object_want(pod, DSI_OT_POD, "pod", err)) < 0 ||
	    (rc = dsi_object_want(node, DSI_OT_NODE, "node", err)) < 0)
		return rc;
	return dsi_decide_affinity(pod, node, out, err);
}

/* NodeShouldRunDaemonPod (pkg/controller/daemon/daemon_controller.go) */
int ds_daemonset_node_should_run_obj(const ds_object *daemonset, const ds_object *node, const ds_options *opts,
				     int *should_run, int *should_continue_running, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	int rc;
	if (json_out)
		*json_out = NULL;
	if ((rc = dsi_object_want(daemonset, DSI_OT_DAEMONSET, "daemonset", err)) < 0 ||
	    (rc = dsi_object_want(node, DSI_OT_NODE, "node", err)) < 0)
		return rc;
	return dsi_decide_should_run(daemonset, node, opts, should_run, should_continue_running, json_out, err);
}

/* CreatePodTemplate + ReplaceDaemonSetPodNodeNameNodeAffinity + GetPodFromTemplate (syncNodes) */
int ds_daemonset_new_pod_obj(const ds_object *daemonset, const char *node_name, const char *hash,
			     const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	int rc;
	DSI_ARGS_NONNULL(err, node_name, json_out);
	*json_out = NULL;
	if ((rc = dsi_object_want(daemonset, DSI_OT_DAEMONSET, "daemonset", err)) < 0)
		return rc;
	return dsi_decide_new_pod(daemonset, node_name, hash, opts, json_out, err);
}

/* AddOrUpdateDaemonPodTolerations (pkg/controller/daemon/util/daemonset_util.go) */
int ds_podspec_add_daemon_tolerations_obj(const ds_object *podspec, const ds_options *opts, char **json_out,
					  ds_error *err)
{
	DSI_ERR_BEGIN(err);
	(void)opts;
	int rc;
	DSI_ARGS_NONNULL(err, json_out);
	*json_out = NULL;
	if ((rc = dsi_object_want(podspec, DSI_OT_POD, "podspec", err)) < 0)
		return rc;
	return dsi_decide_add_tolerations(podspec, json_out, err);
}

/* ReplaceDaemonSetPodNodeNameNodeAffinity (pkg/controller/daemon/util/daemonset_util.go) */
int ds_affinity_replace_node_name_obj(const ds_object *affinity, const char *node_name, const ds_options *opts,
				      char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	(void)opts;
	int rc;
	DSI_ARGS_NONNULL(err, node_name, json_out);
	*json_out = NULL;
	if (affinity && (rc = dsi_object_want(affinity, DSI_OT_AFFINITY, "affinity", err)) < 0)
		return rc;
	return dsi_decide_replace_affinity(affinity, node_name, json_out, err);
}

/* DS_EARG unless objects is NULL or a List. */
static int want_list(const ds_object *objects, ds_error *err)
{
	return objects ? dsi_object_want(objects, DSI_OT_LIST, "objects", err) : 0;
}

/* rollingUpdate (pkg/controller/daemon/update.go), alone */
int ds_daemonset_rolling_update_obj(const ds_object *daemonset, const ds_object *objects, const char *hash, ds_time now,
				    const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	int rc;
	DSI_ARGS_NONNULL(err, json_out);
	*json_out = NULL;
	if ((rc = dsi_object_want(daemonset, DSI_OT_DAEMONSET, "daemonset", err)) < 0 ||
	    (rc = want_list(objects, err)) < 0)
		return rc;
	dsi_cluster c;
	if ((rc = scratch_of(objects, opts, &c, err)) < 0)
		return rc;
	rc = dsi_decide_rolling_update(&c, daemonset, NULL, hash, now, opts, json_out, err);
	dsi_cluster_destroy(&c);
	return rc;
}

static int scheduler_obj(const ds_object *pod, const ds_object *node, const ds_object *objects, const ds_options *opts,
			 int victims, char **json_out, ds_error *err)
{
	int rc;
	DSI_ARGS_NONNULL(err, json_out);
	*json_out = NULL;
	if ((rc = dsi_object_want(pod, DSI_OT_POD, "pod", err)) < 0 ||
	    (rc = dsi_object_want(node, DSI_OT_NODE, "node", err)) < 0 || (rc = want_list(objects, err)) < 0)
		return rc;
	dsi_cluster c;
	if ((rc = scratch_of(objects, opts, &c, err)) < 0)
		return rc;
	rc = dsi_decide_scheduler(&c, objects, pod, node, opts, victims, json_out, err);
	dsi_cluster_destroy(&c);
	return rc;
}

int ds_scheduler_filter_obj(const ds_object *pod, const ds_object *node, const ds_object *objects,
			    const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	return scheduler_obj(pod, node, objects, opts, 0, json_out, err);
}

/* SelectVictimsOnNode (scheduler plugins/defaultpreemption/default_preemption.go) */
int ds_preemption_select_victims_obj(const ds_object *pod, const ds_object *node, const ds_object *objects,
				     const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	return scheduler_obj(pod, node, objects, opts, 1, json_out, err);
}

/* ---- batches ------------------------------------------------------------------------------------ */

_Static_assert(DSI_WHY_OK == DS_SHOULD_RUN_OK && DSI_WHY_NODE_NAME == DS_SHOULD_RUN_NODE_NAME &&
		       DSI_WHY_NODE_SELECTOR == DS_SHOULD_RUN_NODE_SELECTOR &&
		       DSI_WHY_NODE_AFFINITY == DS_SHOULD_RUN_NODE_AFFINITY && DSI_WHY_TAINT == DS_SHOULD_RUN_TAINT,
	       "the public reasons are the verdict's");

/* Every object of objs (count) of type t, else DS_EARG naming the first that is not ("nodes[3]"). */
static int want_all(const ds_object *const *objs, size_t count, dsi_otype t, const char *what, ds_error *err)
{
	if (count && !objs)
		return dsi_error_set(err, DS_EARG, NULL, "%s is NULL with count %zu", what, count);
	for (size_t i = 0; i < count; i++)
		if (!objs[i] || objs[i]->type != t) {
			char at[64];
			snprintf(at, sizeof(at), "%s[%zu]", what, i);
			return dsi_object_want(objs[i], t, at, err);
		}
	return 0;
}

/* The element size of a results array: results[0].size, which must hold the size itself. */
static int results_size(const ds_should_run_result *results, size_t count, size_t *esz, ds_error *err)
{
	*esz = 0;
	if (!count)
		return 0;
	if (!results)
		return dsi_error_set(err, DS_EARG, NULL, "results is NULL with count %zu", count);
	if (results[0].size < sizeof(results[0].size))
		return dsi_error_set(err, DS_EARG, NULL,
				     "results[0].size %zu: expected sizeof(ds_should_run_result) (%zu)",
				     results[0].size, sizeof(ds_should_run_result));
	*esz = results[0].size;
	return 0;
}

/* Result i of an array of esz-byte elements: the verdict v on node n (the members within esz). */
static void put_result(ds_should_run_result *results, size_t esz, size_t i, const dsi_verdict *v, const dsi_node *n)
{
	ds_should_run_result r;
	r.size = esz;
	r.should_run = v->should_run;
	r.should_continue_running = v->should_continue;
	r.reason = v->why;
	r.taint = v->taint ? (int)(v->taint - n->taints.v) : -1;
	memcpy((char *)results + i * esz, &r, esz < sizeof(r) ? esz : sizeof(r));
}

/* What deciding on a node object reads first: its labels, taints and string table. */
static void prefetch_node(const ds_object *n)
{
	DSI_PREFETCH(n->u.node.meta.labels.v);
	DSI_PREFETCH(n->u.node.taints.v);
	DSI_PREFETCH(n->atoms.table);
	DSI_PREFETCH(n->atoms.ents);
}

int ds_daemonset_node_should_run_nodes(const ds_object *daemonset, const ds_object *const *nodes, size_t count,
				       const ds_options *opts, ds_should_run_result *results, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	size_t esz;
	int rc;
	if ((rc = dsi_object_want(daemonset, DSI_OT_DAEMONSET, "daemonset", err)) < 0 ||
	    (rc = want_all(nodes, count, DSI_OT_NODE, "nodes", err)) < 0 ||
	    (rc = results_size(results, count, &esz, err)) < 0)
		return rc;
	dsi_placement p = placement(daemonset, opts);
	for (size_t i = 0; i < count; i++) {
		/* objects parsed apart lie apart, each with its table: start loading what the next ones
		 * read (the object, then its labels, taints and table) while this one is decided */
		if (i + 2 * DSI_PREFETCH_AHEAD < count)
			DSI_PREFETCH(nodes[i + 2 * DSI_PREFETCH_AHEAD]);
		if (i + DSI_PREFETCH_AHEAD < count)
			prefetch_node(nodes[i + DSI_PREFETCH_AHEAD]);
		dsi_verdict v;
		dsi_node_should_run_x(&p, &nodes[i]->atoms, &nodes[i]->u.node, &v);
		put_result(results, esz, i, &v, &nodes[i]->u.node);
	}
	return 0;
}

int ds_daemonset_node_should_run_daemonsets(const ds_object *const *daemonsets, size_t count, const ds_object *node,
					    const ds_options *opts, ds_should_run_result *results, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	size_t esz;
	int rc;
	if ((rc = want_all(daemonsets, count, DSI_OT_DAEMONSET, "daemonsets", err)) < 0 ||
	    (rc = dsi_object_want(node, DSI_OT_NODE, "node", err)) < 0 ||
	    (rc = results_size(results, count, &esz, err)) < 0)
		return rc;
	for (size_t i = 0; i < count; i++) {
		dsi_placement p = placement(daemonsets[i], opts);
		dsi_verdict v;
		dsi_node_should_run_x(&p, &node->atoms, &node->u.node, &v);
		put_result(results, esz, i, &v, &node->u.node);
	}
	return 0;
}

int ds_pod_required_node_affinity_match_nodes(const ds_object *pod, const ds_object *const *nodes, size_t count,
					      const ds_options *opts, int *matches, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	(void)opts;
	int rc;
	if ((rc = dsi_object_want(pod, DSI_OT_POD, "pod", err)) < 0 ||
	    (rc = want_all(nodes, count, DSI_OT_NODE, "nodes", err)) < 0)
		return rc;
	if (count && !matches)
		return dsi_error_set(err, DS_EARG, NULL, "matches is NULL with count %zu", count);
	int invalid = 0;
	for (size_t i = 0; i < count; i++) {
		int which;
		matches[i] = dsi_required_affinity_matches_x(&pod->atoms, &pod->u.pod.spec, &nodes[i]->atoms,
							     &nodes[i]->u.node, &which);
		invalid |= !matches[i] && which == 2;
	}
	/* LazyErrorNodeSelector.Match: the terms' parse errors come with false */
	return invalid ? dsi_api_node_selector_errors(&pod->u.pod.spec.required, err) : 0;
}

int ds_taints_find_untolerated_nodes(const ds_object *const *nodes, size_t count, const ds_object *tolerations,
				     const ds_taint_filter *filter, const ds_options *opts, int *found,
				     int *taint_index, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	dsi_effect_filter f;
	int nil, rc;
	if ((rc = dsi_decide_filter(filter, &f, &nil, err)) < 0 || (rc = want_tolerations(tolerations, err)) < 0)
		return rc;
	if (count && (!nodes || !found))
		return dsi_error_set(err, DS_EARG, NULL, "nodes and found must not be NULL with count %zu", count);
	for (size_t i = 0; i < count; i++) {
		dsi_taints one;
		char at[64];
		if (dsi_object_taints(nodes[i], &one))
			continue;
		snprintf(at, sizeof(at), "nodes[%zu]", i);
		return want_taints(nodes[i], at, err);
	}
	dsi_tolerations one_tol;
	const dsi_tolerations *tl = dsi_object_tolerations(tolerations, &one_tol);
	int ops = dsi_decide_comparison_ops(opts);
	for (size_t i = 0; i < count; i++) {
		dsi_taints one_taint;
		const dsi_taints *ts = dsi_object_taints(nodes[i], &one_taint);
		const dsi_taint *t = dsi_find_untolerated_taint_x(&nodes[i]->atoms, ts, &tolerations->atoms, tl,
								  nil ? NULL : &f, ops, NULL);
		found[i] = t != NULL;
		if (taint_index)
			taint_index[i] = t ? (int)(t - ts->v) : -1;
	}
	return 0;
}
