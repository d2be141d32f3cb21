#include "daemon/explain.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "daemon/dspods.h"
#include "sched/cycle.h"
#include "sched/fit.h"
#include "sched/nodeaffinity.h"
#include "sched/fitreport.h"
#include "sched/preemption.h"
#include "sched/tolerations.h"

static const char *const tmpl_spec = "spec.template.spec";

static json_t *reason(const char *plugin, const char *message, const char *detail, const char *field)
{
	json_t *r = json_pack("{s:s, s:s, s:s}", "plugin", plugin, "message", message, "field", field);
	if (r && detail && *detail)
		json_object_set_new(r, "detail", json_string(detail));
	return r;
}

/* The string of an atom of table a, "" for none. */
static const char *str(const dsi_atoms *a, dsi_atom id)
{
	const char *s = dsi_atom_str(a, id);
	return s ? s : "";
}

/* Which nodeSelector pair the node lacks (the spec's strings in ta, the node's in tb): of several, the
 * first by key in byte order (the pairs are kept in the order of their atoms, which depends on what
 * else the table holds). */
static void selector_detail(const dsi_atoms *ta, const dsi_podspec *spec, const dsi_atoms *tb, const dsi_node *node,
			    dsi_strbuf *b)
{
	const dsi_label *first = NULL;
	dsi_atom first_have = DSI_ATOM_NONE;
	for (uint32_t i = 0; i < spec->node_selector.n; i++) {
		const dsi_label *l = &spec->node_selector.v[i];
		dsi_atom have = dsi_labels_get(&node->meta.labels, dsi_atom_rebase(ta, l->key, tb));
		if (have && dsi_atom_eq_x(tb, have, ta, l->value))
			continue;
		if (!first || strcmp(str(ta, l->key), str(ta, first->key)) < 0) {
			first = l;
			first_have = have;
		}
	}
	if (!first)
		return;
	if (!first_have)
		dsi_strbuf_printf(b, "node has no label %s (nodeSelector wants %s=%s)", str(ta, first->key),
				  str(ta, first->key), str(ta, first->value));
	else
		dsi_strbuf_printf(b, "label %s is \"%s\", nodeSelector wants \"%s\"", str(ta, first->key),
				  str(tb, first_have), str(ta, first->value));
}

/* The TaintToleration reason for taint t of the node (its strings in tb); note ends the detail. */
static json_t *taint_reason(const dsi_atoms *tb, const dsi_node *node, const dsi_taint *t, const char *note)
{
	dsi_strbuf d = DSI_STRBUF_INIT, f = DSI_STRBUF_INIT;
	/* upstream's older message named the taint; keep that as the detail */
	dsi_strbuf_printf(&d, "node(s) had untolerated taint {%s: %s} (effect %s%s)", str(tb, t->key),
			  str(tb, t->value), dsi_effect_text(tb, t->effect), note);
	dsi_strbuf_printf(&f, "%s.tolerations", tmpl_spec);
	json_t *r = reason("TaintToleration", dsi_why_message(DSI_WHY_TAINT), d.data, f.data);
	if (r) {
		char nf[64];
		snprintf(nf, sizeof(nf), "spec.taints[%u]", (unsigned)(t - node->taints.v));
		json_object_set_new(r, "nodeField", json_string(nf));
		json_object_set_new(r, "taint", dsi_taint_to_json(tb, t));
	}
	dsi_strbuf_free(&d);
	dsi_strbuf_free(&f);
	return r;
}

json_t *dsi_verdict_reasons(const dsi_placement *p, const dsi_node *node, const dsi_verdict *v)
{
	return dsi_verdict_reasons_x(p, p->atoms, node, v);
}

json_t *dsi_verdict_reasons_x(const dsi_placement *p, const dsi_atoms *tb, const dsi_node *node, const dsi_verdict *v)
{
	const dsi_atoms *ta = p->atoms;
	const dsi_podspec *spec = &p->ds->tspec;
	json_t *arr = json_array();
	if (!arr || v->why == DSI_WHY_OK)
		return arr;
	dsi_strbuf d = DSI_STRBUF_INIT, f = DSI_STRBUF_INIT;
	json_t *r = NULL;
	switch (v->why) {
	case DSI_WHY_NODE_NAME:
		dsi_strbuf_printf(&d, "the template sets nodeName %s", str(ta, spec->node_name));
		dsi_strbuf_printf(&f, "%s.nodeName", tmpl_spec);
		r = reason("NodeName", dsi_why_message(v->why), d.data, f.data);
		break;
	case DSI_WHY_NODE_SELECTOR:
		selector_detail(ta, spec, tb, node, &d);
		dsi_strbuf_printf(&f, "%s.nodeSelector", tmpl_spec);
		r = reason("NodeAffinity", dsi_why_message(v->why), d.data, f.data);
		break;
	case DSI_WHY_NODE_AFFINITY: {
		uint32_t invalid = 0;
		for (uint32_t i = 0; i < spec->required.n; i++)
			if (spec->required.terms[i].invalid) {
				dsi_strbuf_printf(&d, "%sterm %u is invalid and never matches: %s",
						  invalid++ ? "; " : "", i,
						  spec->required.terms[i].error ? spec->required.terms[i].error : "");
			}
		if (!invalid)
			dsi_strbuf_printf(&d,
					  spec->required.n
						  ? "none of the %u required node selector terms matches"
						  : "the required node selector has no terms (it matches no node)%.0u",
					  spec->required.n);
		dsi_strbuf_printf(&f, "%s.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution",
				  tmpl_spec);
		r = reason("NodeAffinity", dsi_why_message(v->why), d.data, f.data);
		break;
	}
	case DSI_WHY_TAINT: {
		static const dsi_effect_filter no_execute = {DSI_EFFECTS_NOEXECUTE, NULL, 0};
		const dsi_taint *t = v->taint;
		r = taint_reason(tb, node, t, v->should_continue ? ": existing pods may stay, no new ones" : "");
		/* The first untolerated taint (NodeShouldRunDaemonPod's) may be a NoSchedule one while
		 * a later NoExecute taint is what evicts running pods: name that one too. */
		const dsi_taint *evict = !v->should_continue && t->effect != DSI_EFFECT_NO_EXECUTE
						 ? dsi_find_untolerated_taint_x(tb, &node->taints, ta, &p->tolerations,
										&no_execute, p->comparison_ops, NULL)
						 : NULL;
		if (r && evict) {
			json_array_append_new(arr, r);
			r = taint_reason(tb, node, evict, ": running pods are evicted");
		}
		break;
	}
	default: break;
	}
	if (r)
		json_array_append_new(arr, r);
	dsi_strbuf_free(&d);
	dsi_strbuf_free(&f);
	return arr;
}

static json_t *fit_reasons_evaluated(const dsi_fit *fit)
{
	json_t *arr = json_array();
	for (uint32_t i = 0; arr && i < fit->n; i++) {
		const dsi_fit_reason *r = &fit->reasons[i];
		const char *field = strcmp(r->plugin, "NodeResourcesFit") == 0
					    ? "spec.template.spec.containers[*].resources.requests"
				    : strcmp(r->plugin, "NodePorts") == 0 ? "spec.template.spec.containers[*].ports"
				    : strcmp(r->plugin, "NodeUnschedulable") == 0 ? "spec.template.spec.tolerations"
				    : strcmp(r->plugin, "InterPodAffinity") == 0  ? dsi_ipa_field(r->message, tmpl_spec)
				    : strcmp(r->plugin, "PodTopologySpread") == 0
					    ? "spec.template.spec.topologySpreadConstraints"
				    : strcmp(r->plugin, "VolumeRestrictions") == 0 ? "spec.template.spec.volumes"
										   : "spec.template.spec";
		json_t *o = reason(r->plugin, r->message, NULL, field);
		if (o && strcmp(r->plugin, "NodeResourcesFit") == 0)
			json_object_set_new(o, "resource",
					    json_pack("{s:I, s:I, s:I, s:I}", "requested", (json_int_t)r->requested,
						      "free", (json_int_t)r->available, "used", (json_int_t)r->used,
						      "allocatable", (json_int_t)r->capacity));
		if (o && strcmp(r->plugin, "NodeUnschedulable") == 0)
			json_object_set_new(o, "nodeField", json_string("spec.unschedulable"));
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *fit_reasons(const dsi_fit *fit)
{
	json_t *arr = fit_reasons_evaluated(fit);
	dsi_omitted_json(arr, fit, tmpl_spec);
	dsi_not_evaluated_json(arr, fit, tmpl_spec);
	return arr;
}

static json_t *pod_brief(const dsi_cluster *c, const dsi_pod *p)
{
	json_t *o = json_pack("{s:s, s:s, s:b}", "name", dsi_cstr(c, p->meta.name), "phase",
			      p->phase ? dsi_phase_name(p->phase) : "Pending", "ready", p->ready);
	if (o && p->meta.has_deletion)
		json_object_set_new(o, "terminating", json_true());
	if (o && !p->spec.node_name)
		json_object_set_new(o, "bound", json_false());
	if (o && p->revision_hash)
		json_object_set_new(o, "revisionHash", json_string(dsi_cstr(c, p->revision_hash)));
	return o;
}

static json_t *victims_json(const dsi_cluster *c, const dsi_preemption *pre)
{
	json_t *arr = json_array();
	for (uint32_t i = 0; arr && i < pre->nvictims; i++) {
		const dsi_pod *v = pre->victims[i];
		int32_t prio;
		if (dsi_pod_priority(c, &c->atoms, &v->spec, &prio) < 0)
			prio = 0;
		json_array_append_new(arr, json_pack("{s:s, s:s, s:i}", "namespace", dsi_cstr(c, v->meta.ns), "name",
						     dsi_cstr(c, v->meta.name), "priority", prio));
	}
	return arr;
}

/* The scheduler's view of the pod the controller would create on node. */
static int scheduler_view(const dsi_placement *p, const dsi_node *node, const dsi_cycle *cy, int32_t prio, int prio_ok,
			  json_t *row, const char **status)
{
	const dsi_cluster *c = p->c;
	dsi_node_usage u;
	if (dsi_node_usage_init(c, node, NULL, NULL, &u) < 0)
		return -1;
	dsi_fit fit;
	dsi_run_filters(c, &c->atoms, &p->ds->tspec, &p->tolerations, p->comparison_ops, node, &u, cy, &fit);
	dsi_node_usage_release(&u);
	json_object_set_new(row, "filters", dsi_filters_json(&fit));
	if (dsi_fit_ok(&fit))
		return 0;
	json_object_set_new(row, "scheduler", fit_reasons(&fit));
	if (!fit.n) {
		*status = "not-evaluated"; /* no filter failed, but some could not be run */
		return 0;
	}
	*status = "unschedulable";
	if (fit.unresolvable || !prio_ok)
		return 0;
	dsi_preemption pre;
	if (dsi_select_victims(c, &c->atoms, &p->ds->tspec, prio, &p->tolerations, p->comparison_ops, node, cy, NULL,
			       NULL, &pre) < 0)
		return -1;
	json_t *pj = json_pack("{s:b, s:i}", "possible", pre.possible, "priority", prio);
	if (pj && pre.possible) {
		json_object_set_new(pj, "victims", victims_json(c, &pre));
		json_object_set_new(pj, "pdbViolations", json_integer(pre.pdb_violations));
		*status = "needs-preemption";
	} else if (pj && pre.message) {
		json_object_set_new(pj, "message", json_string(pre.message));
	}
	json_object_set_new(row, "preemption", pj);
	dsi_preemption_release(&pre);
	return 0;
}

int dsi_explain(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_core_options *o, json_t **out, ds_error *err)
{
	dsi_placement p;
	dsi_ds_pods pods;
	*out = NULL;
	if (dsi_placement_init(&p, c, ds, o) < 0)
		return dsi_error_nomem(err);
	if (dsi_ds_pods_collect(c, ds, 0, &pods) < 0) {
		dsi_placement_release(&p);
		return dsi_error_nomem(err);
	}
	int32_t prio = 0;
	int prio_ok = dsi_pod_priority(c, &c->atoms, &ds->tspec, &prio) == 0;
	/* the daemon pod's cycle: one PreFilter for every node (the same pods count on each) */
	dsi_cycle cy;
	dsi_sched_pod sp = {&c->atoms,        ds->meta.ns, &ds->template_labels, &ds->tspec,    &p.tolerations,
			    p.comparison_ops, 1,           DSI_ATOM_NONE,        DSI_ATOM_NONE, 0,
			    p.gates};
	if (dsi_cycle_init(&cy, c, &sp, NULL, NULL) < 0) {
		dsi_ds_pods_release(&pods);
		dsi_placement_release(&p);
		return dsi_error_nomem(err);
	}
	json_t *rows = json_array(), *counts = json_object();
	int rc = 0;
	const dsi_pod **sorted = NULL;
	uint32_t sorted_cap = 0;
	size_t nn = dsi_cluster_count(c, DSI_KIND_NODE);
	for (size_t i = 0; i < nn && rows && counts; i++) {
		const dsi_node *node = dsi_cluster_node_at(c, i);
		dsi_verdict v;
		dsi_node_should_run(&p, node, &v);
		json_t *row = json_pack("{s:s, s:b, s:b}", "node", dsi_cstr(c, node->meta.name), "shouldRun",
					v.should_run, "shouldContinueRunning", v.should_continue);
		json_t *plist = json_array();
		int running = 0, unbound = 0;
		/* listed as the controller orders a node's pods, not in claim order (the snapshot's history) */
		uint32_t npods = pods.count[node->index];
		if (npods > sorted_cap) {
			const dsi_pod **grown = dsi_reallocarray(sorted, npods, sizeof(*grown));
			if (!grown) {
				json_decref(row);
				json_decref(plist);
				rc = dsi_error_nomem(err);
				break;
			}
			sorted = grown;
			sorted_cap = npods;
		}
		uint32_t ns = 0;
		for (int32_t k = pods.first[node->index]; k >= 0; k = pods.next[k])
			sorted[ns++] = pods.v[k];
		dsi_sort_stable(sorted, ns, sizeof(*sorted), dsi_pod_cmp_creation, (void *)c);
		for (uint32_t k = 0; k < ns; k++) {
			const dsi_pod *pod = sorted[k];
			json_array_append_new(plist, pod_brief(c, pod));
			if (!pod->meta.has_deletion && !dsi_pod_terminal(pod)) {
				running++;
				unbound += !pod->spec.node_name;
			}
		}
		const char *status;
		if (running && !v.should_continue)
			status = "evict";
		else if (running && !v.should_run)
			status = "kept";
		else if (running && unbound == running)
			status = "pending";
		else if (running)
			status = "placed";
		else if (!v.should_run)
			status = "not-placed";
		else
			status = "create";
		json_object_set_new(row, "reasons", dsi_verdict_reasons(&p, node, &v));
		/* informative only: the daemon pod is pinned to this node, so the scheduler
		 * has one feasible node and never scores (schedulePod, schedule_one.go) */
		dsi_preferred_score_json(row, &c->atoms, &ds->tspec.preferred, node);
		if (strcmp(status, "create") == 0 || strcmp(status, "pending") == 0) {
			const char *s2 = status;
			if (scheduler_view(&p, node, &cy, prio, prio_ok, row, &s2) < 0) {
				json_decref(row);
				json_decref(plist);
				rc = dsi_error_nomem(err);
				break;
			}
			if (strcmp(status, "create") == 0)
				status = s2;
		}
		json_object_set_new(row, "status", json_string(status));
		json_object_set_new(row, "pods", plist);
		json_object_set_new(counts, status,
				    json_integer(json_integer_value(json_object_get(counts, status)) + 1));
		json_array_append_new(rows, row);
	}
	if (rc == 0 && (!rows || !counts))
		rc = dsi_error_nomem(err);
	if (rc == 0) {
		json_t *doc = json_pack("{s:{s:s, s:s}, s:I, s:o, s:o}", "daemonSet", "namespace",
					dsi_cstr(c, ds->meta.ns), "name", dsi_cstr(c, ds->meta.name), "nodes",
					(json_int_t)nn, "summary", counts, "rows", rows);
		counts = rows = NULL;
		if (doc && !prio_ok)
			json_object_set_new(
				doc, "warning",
				json_sprintf("no PriorityClass with name %s was found: the API server would "
					     "refuse the daemon pods",
					     dsi_cstr(c, ds->tspec.priority_class)));
		if (!doc)
			rc = dsi_error_nomem(err);
		*out = doc;
	}
	json_decref(rows);
	json_decref(counts);
	dsi_free(sorted);
	dsi_cycle_release(&cy);
	dsi_ds_pods_release(&pods);
	dsi_placement_release(&p);
	return rc;
}

json_t *dsi_verdict_json_x(const dsi_placement *p, const dsi_atoms *node_atoms, const dsi_node *node,
			   const dsi_verdict *v)
{
	return json_pack("{s:s, s:b, s:b, s:o}", "node", str(node_atoms, node->meta.name), "shouldRun", v->should_run,
			 "shouldContinueRunning", v->should_continue, "reasons",
			 dsi_verdict_reasons_x(p, node_atoms, node, v));
}

json_t *dsi_verdict_json(const dsi_placement *p, const dsi_node *node, const dsi_verdict *v)
{
	return dsi_verdict_json_x(p, p->atoms, node, v);
}
