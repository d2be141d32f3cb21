/* Public wrappers for placement (include/daemonset/placement.h). */
#include <stdio.h>
#include <string.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "api/lookup.h"
#include "core/jsonout.h"
#include "core/load.h"
#include "daemon/explain.h"
#include "sched/fit.h"
#include "sched/nodeaffinity.h"
#include "sched/preemption.h"
#include "sched/tolerations.h"

static int find_node(const ds_cluster *c, const char *name, const dsi_node **out, ds_error *err)
{
	*out = name ? dsi_cluster_node_by_name(c, name) : NULL;
	if (!*out)
		return dsi_error_set(err, name ? DS_ENOTFOUND : DS_EARG, NULL, "nodes \"%s\" not found", name ? name : "(null)");
	return 0;
}

/* The DaemonSet and the node, and the placement verdict for them; p is the caller's to release when 0 is returned. */
static int node_verdict(const ds_cluster *cluster, const char *ns, const char *name, const char *node,
			const ds_options *opts, dsi_placement *p, const dsi_node **n, dsi_verdict *v, ds_error *err)
{
	const dsi_daemonset *ds;
	int rc;
	if ((rc = dsi_api_find_ds(cluster, ns, name, &ds, err)) < 0 || (rc = find_node(cluster, node, n, err)) < 0)
		return rc;
	if (dsi_placement_init(p, cluster, ds, dsi_o_core(opts)) < 0)
		return dsi_error_nomem(err);
	dsi_node_should_run(p, *n, v);
	return 0;
}

int ds_daemonset_should_run(const ds_cluster *cluster, const char *namespace_, const char *name, const char *node,
			    const ds_options *opts, int *should_run, int *should_continue_running, char **json_out,
			    ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	dsi_placement p;
	const dsi_node *n;
	dsi_verdict v;
	int rc = node_verdict(cluster, namespace_, name, node, opts, &p, &n, &v, err);
	if (rc < 0)
		return rc;
	if (should_run)
		*should_run = v.should_run;
	if (should_continue_running)
		*should_continue_running = v.should_continue;
	if (json_out)
		rc = dsi_json_emit(dsi_verdict_json(&p, n, &v), json_out, err);
	dsi_placement_release(&p);
	return rc;
}

int ds_daemonset_explain(const ds_cluster *cluster, const char *namespace_, const char *name, const ds_options *opts,
			 char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	const dsi_daemonset *ds;
	int rc;
	if ((rc = dsi_api_find_ds_json(cluster, namespace_, name, json_out, &ds, err)) < 0)
		return rc;
	json_t *doc;
	if ((rc = dsi_explain(cluster, ds, dsi_o_core(opts), &doc, err)) < 0)
		return rc;
	return dsi_json_emit(doc, json_out, err);
}

typedef struct same_pod {
	dsi_atom ns, name;
} same_pod;

static int is_same_pod(const dsi_pod *p, void *ctx)
{
	const same_pod *s = ctx;
	return p->meta.ns == s->ns && p->meta.name == s->name;
}

/* The field of the pod (as given to ds_pod_fit) a user would change, named as ds_explain names
 * the template's; nodeField names the node's field where one decided it. */
static json_t *reason_json(const dsi_atoms *atoms, const dsi_podspec *spec, int cmp, const dsi_node *node,
			   const dsi_fit_reason *r)
{
	const char *field = "spec", *node_field = NULL;
	char taint_field[64];
	int resource = 0;
	if (spec->sidecar_gate_off) { /* the PreFilter's refusal: no resource was counted */
		field = "spec.initContainers[*].restartPolicy";
	} else if (strcmp(r->plugin, "NodeResourcesFit") == 0) {
		resource = 1;
		/* any pod counts one against the node's pod limit: no field of the pod decides it */
		if (strcmp(r->message, "Too many pods") == 0)
			node_field = "status.allocatable.pods";
		else
			field = "spec.containers[*].resources.requests";
	} else if (strcmp(r->plugin, "NodePorts") == 0) {
		field = "spec.containers[*].ports";
	} else if (strcmp(r->plugin, "NodeUnschedulable") == 0) {
		field = "spec.tolerations";
		node_field = "spec.unschedulable";
	} else if (strcmp(r->plugin, "TaintToleration") == 0) {
		field = "spec.tolerations";
		const dsi_taint *t = dsi_find_untolerated_taint(atoms, &node->taints, &spec->tolerations,
								DSI_EFFECTS_NOSCHEDULE_NOEXECUTE, cmp, NULL);
		if (t) {
			snprintf(taint_field, sizeof(taint_field), "spec.taints[%u]", (unsigned)(t - node->taints.v));
			node_field = taint_field;
		}
	} else if (strcmp(r->plugin, "NodeAffinity") == 0) {
		int which;
		dsi_required_affinity_matches(atoms, spec, node, &which);
		field = which == 1 ? "spec.nodeSelector"
				   : "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution";
	}
	json_t *o = json_pack("{s:s, s:s, s:s}", "plugin", r->plugin, "message", r->message, "field", field);
	if (o && node_field)
		json_object_set_new(o, "nodeField", json_string(node_field));
	if (o && resource)
		json_object_set_new(o, "resource",
				    json_pack("{s:I, s:I, s:I, s:I}", "requested", (json_int_t)r->requested, "free",
					      (json_int_t)r->available, "used", (json_int_t)r->used, "allocatable",
					      (json_int_t)r->capacity));
	return o;
}

static json_t *reasons_json(const dsi_atoms *atoms, const dsi_podspec *spec, int cmp, const dsi_node *node,
			    const dsi_fit *fit)
{
	json_t *arr = json_array();
	for (uint32_t i = 0; arr && i < fit->n; i++)
		json_array_append_new(arr, reason_json(atoms, spec, cmp, node, &fit->reasons[i]));
	return arr;
}

int ds_pod_fit(const ds_cluster *cluster, const char *pod, size_t size, const char *node, const ds_options *opts,
	       char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!cluster || !pod || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "cluster, pod and json_out must not be NULL");
	*json_out = NULL;
	const dsi_node *n;
	int rc = find_node(cluster, node, &n, err);
	if (rc < 0)
		return rc;
	const dsi_core_options *o = dsi_o_core(opts);
	json_t *obj;
	if ((rc = dsi_parse_one(pod, size, &cluster->core.limits, &obj, err)) < 0)
		return rc;
	/* the pod's strings go into an overlay: the snapshot stays untouched (it may be shared) */
	dsi_atoms atoms;
	dsi_atoms_init_overlay(&atoms, &cluster->atoms);
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	dsi_meta meta;
	dsi_podspec spec;
	memset(&spec, 0, sizeof(spec));
	json_t *jspec = NULL, *out = NULL;
	if (!json_is_object(obj)) {
		rc = dsi_error_set(err, DS_ETYPE, NULL, "expected a Pod object, got %s", dsi_json_type_name(obj));
		goto done_obj;
	}
	if ((rc = dsi_meta_read(&rd, &atoms, obj, 0, &meta)) < 0)
		goto done_obj;
	if ((rc = dsi_rd_object(&rd, obj, "spec", &jspec)) < 0)
		goto done_meta;
	size_t m = dsi_rd_push(&rd, "spec");
	rc = dsi_podspec_read(&rd, &atoms, jspec, DSI_PODSPEC_PLACEMENT, o->gates, &spec);
	dsi_rd_pop(&rd, m);
	if (rc < 0)
		goto done_meta;
	int cmp = dsi_gate(o, DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS);
	same_pod self = {meta.ns, meta.name};
	dsi_node_usage u;
	if (dsi_node_usage_init(cluster, n, is_same_pod, &self, &u) < 0) {
		rc = dsi_error_nomem(err);
		goto done_spec;
	}
	dsi_fit fit;
	dsi_run_filters(cluster, &atoms, &spec, &spec.tolerations, cmp, n, &u, &fit);
	dsi_node_usage_release(&u);
	int32_t prio = 0;
	int prio_ok = dsi_pod_priority(cluster, &atoms, &spec, &prio) == 0;
	out = json_pack("{s:s, s:b, s:o, s:i}", "node", node, "fits", fit.n == 0, "reasons", reasons_json(&atoms, &spec, cmp, n, &fit),
			"priority", prio);
	if (out)
		dsi_explain_preferred_score(out, &atoms, &spec.preferred, n);
	if (out && fit.n && !fit.unresolvable && prio_ok) {
		dsi_preemption pre;
		if (dsi_select_victims(cluster, &atoms, &spec, prio, &spec.tolerations, cmp, n, is_same_pod, &self, &pre) < 0) {
			rc = dsi_error_nomem(err);
			goto done_spec;
		}
		json_t *pj = json_pack("{s:b}", "possible", pre.possible);
		json_t *victims = json_array();
		for (uint32_t i = 0; pj && victims && i < pre.nvictims; i++)
			json_array_append_new(victims, json_pack("{s:s, s:s}", "namespace",
								 dsi_cstr(cluster, pre.victims[i]->meta.ns), "name",
								 dsi_cstr(cluster, pre.victims[i]->meta.name)));
		json_object_set_new(pj, "victims", victims);
		json_object_set_new(pj, "pdbViolations", json_integer(pre.pdb_violations));
		if (!pre.possible && pre.message)
			json_object_set_new(pj, "message", json_string(pre.message));
		json_object_set_new(out, "preemption", pj);
		dsi_preemption_release(&pre);
	}
	/* Preempt (scheduler framework/preemption/preemption.go): after PodEligibleToPreemptOthers,
	 * only nodes that failed Unschedulable are candidates; the others get this status */
	if (out && fit.n && fit.unresolvable && prio_ok)
		json_object_set_new(out, "preemption",
				    json_pack("{s:b, s:[], s:i, s:s}", "possible", 0, "victims", "pdbViolations", 0,
					      "message",
					      spec.preempt_never ? "not eligible due to preemptionPolicy=Never."
								 : "Preemption is not helpful for scheduling"));
	if (out && !prio_ok)
		json_object_set_new(out, "warning", json_sprintf("no PriorityClass with name %s was found",
								  dsi_atom_str(&atoms, spec.priority_class)));
	rc = dsi_json_emit(out, json_out, err);
	out = NULL;
done_spec:
	json_decref(out);
	dsi_podspec_release(&atoms, &spec);
done_meta:
	dsi_meta_release(&atoms, &meta);
done_obj:
	json_decref(obj);
	dsi_atoms_free(&atoms);
	return rc;
}
