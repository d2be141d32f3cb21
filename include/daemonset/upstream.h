/*
 * libdaemonset: upstream's decisions, one function each, on plain JSON.
 * Include <daemonset.h> rather than this file.
 *
 * Each function is named after the upstream Kubernetes function it mirrors
 * (its page in section 3 says which) and evaluates whatever objects it is
 * given as that function does: no snapshot, and no validation. A toleration
 * with operator "In", an effect "noschedule", a taint without a key or an
 * effect, a Node without metadata.name, an empty node name: upstream's
 * function answers, and so do these. Only what Go's JSON decoder would refuse
 * (a field of the wrong JSON type, an unparsable quantity or time) is an
 * error, DS_ETYPE or DS_EVALUE with the field's path. Validation stays in
 * ds_daemonset_validate(3).
 *
 * Objects are JSON or YAML text with its size (a Node, a Pod, a DaemonSet);
 * lists of objects (a node's pods) may be a JSON array, a List or a YAML
 * stream. Options (may be NULL) are read as each page says, featureGates
 * among them.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_UPSTREAM_H
#define DAEMONSET_UPSTREAM_H

#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- taints and tolerations (k8s.io/api core/v1, component-helpers) -------- */

/* Toleration.ToleratesTaint: does the toleration (an object) tolerate the
 * taint (an object)? Lt and Gt follow the TaintTolerationComparisonOperators
 * gate of option featureGates. */
DS_EXTERN int ds_toleration_tolerates_taint(const char *toleration, size_t toleration_size, const char *taint,
					    size_t taint_size, const ds_options *opts, int *out, ds_error *err);

/* The inclusion filter of FindMatchingUntoleratedTaint (upstream passes a
 * function of the taint; every one it passes keeps taints by effect): a
 * taint is considered when its effect is one of the count strings of
 * effects, compared exactly ("" is a taint without an effect, "noschedule"
 * an effect the API does not know). count 0 is a filter that keeps no taint;
 * a NULL filter is upstream's nil filter: every taint. */
typedef struct ds_taint_filter {
	size_t size; /* sizeof(ds_taint_filter): DS_TAINT_FILTER_INIT */
	const char *const *effects;
	size_t count;
} ds_taint_filter;
#define DS_TAINT_FILTER_INIT DS_SIZED_INIT(ds_taint_filter)

/* FindMatchingUntoleratedTaint: the first taint of taints (an array, in its
 * order) that filter (may be NULL) keeps and no toleration of tolerations
 * (an array) tolerates. *found (may be NULL) gets 1 or 0; *json_out (may be
 * NULL) the taint as JSON, or "null". */
DS_EXTERN int ds_taints_find_untolerated2(const char *taints, size_t taints_size, const char *tolerations,
					  size_t tolerations_size, const ds_taint_filter *filter,
					  const ds_options *opts, int *found, char **json_out, ds_error *err);

/* Effect filters of the superseded ds_taints_find_untolerated (below): a
 * taint is considered when its effect's bit is set. 0 is a nil filter: every
 * taint. */
#define DS_TAINT_EFFECT_NO_SCHEDULE 0x1u
#define DS_TAINT_EFFECT_PREFER_NO_SCHEDULE 0x2u
#define DS_TAINT_EFFECT_NO_EXECUTE 0x4u
#define DS_TAINT_EFFECT_OTHER 0x8u /* an empty effect, or one the API does not know */

/* ---- node affinity (component-helpers scheduling/corev1/nodeaffinity) -------- */

/* GetRequiredNodeAffinity(pod).Match(node): spec.nodeSelector and the
 * required node affinity of a Pod (or a PodTemplateSpec, or a bare PodSpec)
 * against a Node. When no term matched and some term could not be parsed,
 * *out is 0 and the call returns DS_EVALUE with upstream's parse errors, as
 * Match returns them beside false. */
DS_EXTERN int ds_pod_required_node_affinity_match2(const char *pod, size_t pod_size, const char *node, size_t node_size,
						   const ds_options *opts, int *out, ds_error *err);

/* ---- the DaemonSet controller (pkg/controller/daemon) ------------------------ */

/* NodeShouldRunDaemonPod(node, ds): shouldRun and shouldContinueRunning, and
 * in *json_out (may be NULL) {"node","shouldRun","shouldContinueRunning",
 * "reasons":[{"plugin","message","detail","field"}]}. Any output may be NULL. */
DS_EXTERN int ds_daemonset_node_should_run(const char *daemonset, size_t daemonset_size, const char *node,
					   size_t node_size, const ds_options *opts, int *should_run,
					   int *should_continue_running, char **json_out, ds_error *err);

/* The Pod the controller creates for node_name (any name, "" included) and
 * labels with hash: CreatePodTemplate (labels, AddOrUpdateDaemonPodTolerations),
 * ReplaceDaemonSetPodNodeNameNodeAffinity and GetPodFromTemplate (generateName,
 * owner reference), as the API server would serve it. hash NULL: the
 * DaemonSet's template hash (ds_template_hash(3)); "": no hash label. */
DS_EXTERN int ds_daemonset_new_pod(const char *daemonset, size_t size, const char *node_name, const char *hash,
				   const ds_options *opts, char **json_out, ds_error *err);

/* AddOrUpdateDaemonPodTolerations on a PodSpec (an object; a Pod or a
 * PodTemplateSpec is taken at its spec): the PodSpec with the default
 * DaemonSet tolerations merged in, as upstream merges them (every matching
 * entry is replaced, losing its tolerationSeconds). */
DS_EXTERN int ds_podspec_add_daemon_tolerations2(const char *podspec, size_t size, const ds_options *opts,
						 char **json_out, ds_error *err);

/* ReplaceDaemonSetPodNodeNameNodeAffinity: the Affinity (an object, or
 * "null" / NULL for nil) with its required node affinity replaced by the
 * matchFields metadata.name pin to node_name. */
DS_EXTERN int ds_affinity_replace_node_name2(const char *affinity, size_t size, const char *node_name,
					     const ds_options *opts, char **json_out, ds_error *err);

/* rollingUpdate (pkg/controller/daemon/update.go) alone: for the DaemonSet
 * and the nodes and pods in objects (any mix, a list or a stream), which old
 * pods it deletes and which surge pods it creates now. The current hash, as
 * constructHistory finds it: that of a ControllerRevision in objects whose
 * data matches the template; else hash; else (hash NULL or "") the option
 * revisionHash; else the template's own hash (ds_template_hash(3)).
 * JSON: {"hash","ran","maxUnavailable","maxSurge","desired",
 * "unavailable"|"surging","creates":[{"node","reason"}],
 * "deletes":[{"namespace","name","node","reason"}],"error"?}; "ran" false
 * (and no budget members) when rollingUpdate does not run. The pods are
 * claimed as the controller claims them (owner uid and selector). Reads the
 * planning options of ds_daemonset_plan(3). */
DS_EXTERN int ds_daemonset_rolling_update(const char *daemonset, size_t daemonset_size, const char *objects,
					  size_t objects_size, const char *hash, ds_time now, const ds_options *opts,
					  char **json_out, ds_error *err);

/* ---- the scheduler (kube-scheduler plugins) --------------------------------- */

/* The filters of the default scheduler profile that bear on a pod and one
 * node (NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts,
 * NodeResourcesFit) with the node's pods (objects: the pods assigned to it;
 * PriorityClasses and PodDisruptionBudgets may come along). JSON as
 * ds_pod_fit(3): {"node","fits","reasons":[{"plugin","code","message",...}],
 * "priority","preferredScore","preemption"}, each reason with its plugin's
 * status code, "Unschedulable" or "UnschedulableAndUnresolvable". Reads
 * options ignoredResources, ignoredResourceGroups and featureGates. */
DS_EXTERN int ds_scheduler_filter(const char *pod, size_t pod_size, const char *node, size_t node_size,
				  const char *objects, size_t objects_size, const ds_options *opts, char **json_out,
				  ds_error *err);

/* DefaultPreemption's SelectVictimsOnNode for the pod on the node with its
 * pods (objects, as for ds_scheduler_filter, PodDisruptionBudgets counted):
 * {"possible","victims":[{"namespace","name"}],"pdbViolations","message"?}. */
DS_EXTERN int ds_preemption_select_victims(const char *pod, size_t pod_size, const char *node, size_t node_size,
					   const char *objects, size_t objects_size, const ds_options *opts,
					   char **json_out, ds_error *err);

/* ---- superseded names (SONAME 1 keeps them; see "Conventions" in daemonset(7)) ---- */
#ifndef DS_NO_DEPRECATED
/* ds_taints_find_untolerated2 with the filter as DS_TAINT_EFFECT_* bits
 * (which cannot say "no effect", nor one unknown effect apart from the
 * others); bits beyond the four are DS_EARG. */
DS_EXTERN DS_DEPRECATED("ds_taints_find_untolerated2") int ds_taints_find_untolerated(
	const char *taints, size_t taints_size, const char *tolerations, size_t tolerations_size, unsigned effects,
	const ds_options *opts, int *found, char **json_out, ds_error *err);
/* The successor's with every option at its default (opts NULL). */
DS_EXTERN DS_DEPRECATED("ds_pod_required_node_affinity_match2") int ds_pod_required_node_affinity_match(
	const char *pod, size_t pod_size, const char *node, size_t node_size, int *out, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_podspec_add_daemon_tolerations2") int ds_podspec_add_daemon_tolerations(const char *podspec,
												    size_t size,
												    char **json_out,
												    ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_affinity_replace_node_name2") int ds_affinity_replace_node_name(
	const char *affinity, size_t size, const char *node_name, char **json_out, ds_error *err);
#endif

#ifdef __cplusplus
}
#endif
#endif
