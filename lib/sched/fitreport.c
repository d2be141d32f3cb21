/* The scheduler's view of one pod on one node, as JSON: its filters, priority, preferred score and
 * preemption (ds_pod_fit(3), ds_scheduler_filter(3)). */
#include "sched/fitreport.h"

#include <stdio.h>
#include <string.h>

#include "sched/nodeaffinity.h"
#include "sched/preemption.h"
#include "sched/tolerations.h"

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
	} else if (strcmp(r->plugin, "VolumeRestrictions") == 0) {
		field = "spec.volumes";
	} else if (strcmp(r->plugin, "PodTopologySpread") == 0) {
		field = "spec.topologySpreadConstraints";
	} else if (strcmp(r->plugin, "InterPodAffinity") == 0) {
		field = dsi_ipa_field(r->message, "spec");
	} else if (strcmp(r->plugin, "NodeAffinity") == 0) {
		int which;
		dsi_required_affinity_matches(atoms, spec, node, &which);
		field = which == 1 ? "spec.nodeSelector"
				   : "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution";
	}
	/* the plugin's status code (framework.Code) */
	json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "plugin", r->plugin, "code",
			      r->error          ? "Error"
			      : r->unresolvable ? "UnschedulableAndUnresolvable"
						: "Unschedulable",
			      "message", r->message, "field", field);
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
	dsi_omitted_json(arr, fit, "spec");
	dsi_not_evaluated_json(arr, fit, "spec");
	return arr;
}

const char *dsi_ipa_field(const char *message, const char *prefix)
{
	static const char *const fields[2][3] = {
		{"spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution",
		 "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution", "metadata.labels"},
		{"spec.template.spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution",
		 "spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution",
		 "spec.template.metadata.labels"},
	};
	int t = strcmp(prefix, "spec") != 0;
	if (strstr(message, "existing pods"))
		return fields[t][2];
	if (strstr(message, "anti-affinity") || strstr(message, "AntiAffinity"))
		return fields[t][1];
	return fields[t][0];
}

void dsi_omitted_json(json_t *arr, const dsi_fit *fit, const char *prefix)
{
	if (!arr || !fit->omitted)
		return;
	json_array_append_new(arr, json_pack("{s:s, s:s, s:o, s:I, s:s}", "plugin", fit->omitted_plugin, "code",
					     "Omitted", "message", json_sprintf("and %u more reasons", fit->omitted),
					     "omitted", (json_int_t)fit->omitted, "field", prefix));
}

void dsi_not_evaluated_json(json_t *arr, const dsi_fit *fit, const char *prefix)
{
	for (int p = 0; arr && p < DSI_P_COUNT; p++) {
		if (!(fit->not_evaluated & (1u << p)))
			continue;
		const char *name = dsi_plugin_name((dsi_plugin)p);
		const char *field = p == DSI_P_DYNAMIC_RESOURCES ? "resourceClaims" : "volumes";
		json_t *o = json_pack("{s:s, s:s, s:o, s:o}", "plugin", name, "code", "NotEvaluated", "message",
				      json_sprintf("not evaluated: %s", name), "field",
				      json_sprintf("%s.%s", prefix, field));
		/* what of the pod's claims the library does not evaluate */
		if (o && p == DSI_P_DYNAMIC_RESOURCES && fit->dra_not_evaluated) {
			json_object_set_new(o, "why", json_string(fit->dra_not_evaluated));
			json_object_set_new(o, "detail",
					    json_sprintf("not evaluated: %s: %s", name, fit->dra_not_evaluated));
		}
		json_array_append_new(arr, o);
	}
}

json_t *dsi_filters_json(const dsi_fit *fit)
{
	json_t *o = json_pack("{s:[], s:[], s:[]}", "ran", "skipped", "notEvaluated");
	for (int p = 0; o && p < DSI_P_COUNT; p++) {
		/* a plugin evaluated in part (VolumeRestrictions' disks beside claims) is not evaluated */
		const char *which = fit->not_evaluated & (1u << p) ? "notEvaluated"
				    : fit->ran & (1u << p)         ? "ran"
				    : fit->skipped & (1u << p)     ? "skipped"
								   : NULL;
		if (which)
			json_array_append_new(json_object_get(o, which), json_string(dsi_plugin_name((dsi_plugin)p)));
	}
	return o;
}

void dsi_preferred_score_json(json_t *o, const dsi_atoms *atoms, const dsi_node_selector *pref, const dsi_node *node)
{
	int64_t score = dsi_preferred_score(atoms, pref, node);
	if (score >= 0) {
		json_object_set_new(o, "preferredScore", json_integer(score));
		return;
	}
	json_object_set_new(o, "preferredScore", json_null());
	for (uint32_t i = 0; i < pref->n; i++) {
		const dsi_ns_term *t = &pref->terms[i];
		if (t->weight != 0 && !t->empty && t->invalid) {
			json_object_set_new(o, "preferredScoreError",
					    json_string(t->error ? t->error : "invalid term"));
			break;
		}
	}
}

json_t *dsi_preemption_json(const dsi_cluster *c, const dsi_preemption *pre)
{
	json_t *pj = json_pack("{s:b}", "possible", pre->possible);
	json_t *victims = json_array();
	for (uint32_t i = 0; pj && victims && i < pre->nvictims; i++)
		json_array_append_new(victims,
				      json_pack("{s:s, s:s}", "namespace", dsi_cstr(c, pre->victims[i]->meta.ns),
						"name", dsi_cstr(c, pre->victims[i]->meta.name)));
	json_object_set_new(pj, "victims", victims);
	json_object_set_new(pj, "pdbViolations", json_integer(pre->pdb_violations));
	if (!pre->possible && pre->message)
		json_object_set_new(pj, "message", json_string(pre->message));
	return pj;
}

int dsi_pod_read_for_fit(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, unsigned gates, dsi_meta *meta,
			 dsi_podspec *spec)
{
	memset(meta, 0, sizeof(*meta));
	memset(spec, 0, sizeof(*spec));
	json_t *jspec = NULL;
	int rc;
	if (!json_is_object(obj))
		return dsi_error_set(rd->err, DS_ETYPE, NULL, "expected a Pod object, got %s", dsi_json_type_name(obj));
	if ((rc = dsi_meta_read(rd, atoms, obj, 0, meta)) < 0)
		return rc;
	if ((rc = dsi_rd_object(rd, obj, "spec", &jspec)) < 0) {
		dsi_meta_release(atoms, meta);
		return rc;
	}
	size_t m = dsi_rd_push(rd, "spec");
	rc = dsi_podspec_read(rd, atoms, jspec, DSI_PODSPEC_PLACEMENT, gates, spec);
	dsi_rd_pop(rd, m);
	/* Name (dynamic-resource-allocation resourceclaim.go) reads the claims' names from the status */
	if (rc == 0 && spec->claims.n && (rc = dsi_pod_claim_statuses_read(rd, atoms, obj, &spec->claims)) < 0)
		dsi_podspec_release(atoms, spec);
	if (rc < 0)
		dsi_meta_release(atoms, meta);
	return rc;
}

int dsi_fit_report(const dsi_cluster *cluster, const dsi_atoms *atoms, const dsi_meta *meta, dsi_podspec *spec,
		   const dsi_node *n, const dsi_core_options *o, const dsi_sched_options *so, json_t **result,
		   ds_error *err)
{
	*result = NULL;
	int rc = 0;
	json_t *out = NULL;
	dsi_requests_ignore(atoms, &spec->requests, so);
	int cmp = dsi_gate(o, DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS);
	same_pod self = {meta->ns, meta->name};
	dsi_node_usage u;
	dsi_cycle cy;
	dsi_sched_pod sp = {atoms,     meta->ns, &meta->labels, spec, &spec->tolerations, cmp, 0, meta->name,
			    meta->uid, 1,        o->gates};
	if (dsi_cycle_init(&cy, cluster, &sp, is_same_pod, &self) < 0)
		return dsi_error_nomem(err);
	if (dsi_node_usage_init(cluster, n, is_same_pod, &self, &u) < 0) {
		dsi_cycle_release(&cy);
		return dsi_error_nomem(err);
	}
	dsi_fit fit;
	dsi_run_filters(cluster, atoms, spec, &spec->tolerations, cmp, n, &u, &cy, &fit);
	dsi_node_usage_release(&u);
	int32_t prio = 0;
	int prio_ok = dsi_pod_priority(cluster, atoms, spec, &prio) == 0;
	out = json_pack("{s:s, s:b, s:o, s:o, s:i}", "node", dsi_cstr(cluster, n->meta.name), "fits", dsi_fit_ok(&fit),
			"reasons", reasons_json(atoms, spec, cmp, n, &fit), "filters", dsi_filters_json(&fit),
			"priority", prio);
	if (out)
		dsi_preferred_score_json(out, atoms, &spec->preferred, n);
	if (out && fit.n && !fit.unresolvable && prio_ok) {
		dsi_preemption pre;
		if (dsi_select_victims(cluster, atoms, spec, prio, &spec->tolerations, cmp, n, &cy, is_same_pod, &self,
				       &pre) < 0) {
			json_decref(out);
			dsi_cycle_release(&cy);
			return dsi_error_nomem(err);
		}
		json_object_set_new(out, "preemption", dsi_preemption_json(cluster, &pre));
		dsi_preemption_release(&pre);
	}
	/* Preempt (scheduler framework/preemption/preemption.go): after PodEligibleToPreemptOthers,
	 * only nodes that failed Unschedulable are candidates; the others get this status */
	if (out && fit.n && fit.unresolvable && prio_ok)
		json_object_set_new(out, "preemption",
				    json_pack("{s:b, s:[], s:i, s:s}", "possible", 0, "victims", "pdbViolations", 0,
					      "message",
					      spec->preempt_never ? "not eligible due to preemptionPolicy=Never."
								  : "Preemption is not helpful for scheduling"));
	if (out && !prio_ok)
		json_object_set_new(out, "warning",
				    json_sprintf("no PriorityClass with name %s was found",
						 dsi_atom_str(atoms, spec->priority_class)));
	dsi_cycle_release(&cy);
	if (!out)
		rc = dsi_error_nomem(err);
	*result = out;
	return rc;
}
