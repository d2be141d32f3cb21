/* The scheduler's view of one pod on one node as JSON: filters with their status codes, priority,
 * preferred score and preemption. Shared by ds_pod_fit (a snapshot's node and pods) and
 * ds_scheduler_filter (objects given on their own). */
#ifndef DSI_FITREPORT_H
#define DSI_FITREPORT_H

#include <jansson.h>

#include "sched/preemption.h"
#include "sched/sched_options.h"

/* A Pod object's metadata and spec as the scheduler reads them (placement parts), with rd (which
 * may read leniently). Release both with dsi_meta_release and dsi_podspec_release. */
int dsi_pod_read_for_fit(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, unsigned gates, dsi_meta *meta,
			 dsi_podspec *spec);
/* {"node","fits","reasons":[{"plugin","code","message","field","nodeField","resource"}],"priority",
 * "preferredScore","preemption","warning"} for the pod (meta, spec) on node n of c: every filter,
 * the node's other pods counted except one with the pod's namespace and name. spec's requests lose
 * what so ignores (NodeResourcesFitArgs). atoms resolves the pod's strings. */
int dsi_fit_report(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_meta *meta, dsi_podspec *spec,
		   const dsi_node *n, const dsi_core_options *o, const dsi_sched_options *so, json_t **out,
		   ds_error *err);
/* SelectVictimsOnNode's outcome: {"possible","victims":[{"namespace","name"}],"pdbViolations","message"}. */
json_t *dsi_preemption_json(const dsi_cluster *c, const dsi_preemption *pre);
/* "preferredScore" (and "preferredScoreError") into o: PreferredSchedulingTerms.Score, the raw sum
 * of the weights of the matching preferred terms before NormalizeScore; null when a term is
 * invalid (upstream's PreScore fails). */
void dsi_preferred_score_json(json_t *o, const dsi_atoms *atoms, const dsi_node_selector *pref, const dsi_node *node);

/* {"ran":[...],"skipped":[...],"notEvaluated":[...]}: the Filter plugins of the profile, in its order,
 * by what became of them on the node. */
json_t *dsi_filters_json(const dsi_fit *fit);
/* Append {"plugin","code":"NotEvaluated","message":"not evaluated: <plugin>","field"} to arr for each
 * plugin the pod needs and the library does not evaluate; fields under prefix ("spec", or
 * "spec.template.spec"). */
void dsi_not_evaluated_json(json_t *arr, const dsi_fit *fit, const char *prefix);
/* The pod's field behind an InterPodAffinity reason (by its message), for a pod ("spec") or a
 * DaemonSet's template (any other prefix). */
const char *dsi_ipa_field(const char *message, const char *prefix);

#endif
