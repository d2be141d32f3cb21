/*
 * libdaemonset: parsed objects, and upstream's decisions on them. Include
 * <daemonset.h> rather than this file.
 *
 * A ds_object is a Kubernetes object (or a toleration, a taint, ...) parsed
 * once: its text read, checked as Go's JSON decoder would decode it, and
 * turned into the typed view the decisions read. Every function of
 * <daemonset/upstream.h> has a form here that takes objects where that one
 * takes text (its name ends in _obj); a decision on objects parses nothing,
 * checks nothing and allocates nothing but its result, and answers what the
 * text form answers for the same documents.
 *
 * Ownership: an object is reference counted. The function that makes one
 * gives the caller one reference; ds_object_ref takes another and
 * ds_object_free drops one, the last freeing it. Objects are immutable: no
 * function changes one, so any number of threads may use the same object at
 * once (the count is atomic, and a decision touches nothing shared, jansson's
 * reference counts included). An object holds nothing of the text or value
 * it was made from, nor of the snapshot it was taken from.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_OBJECT_H
#define DAEMONSET_OBJECT_H

#include "daemonset/cluster.h"
#include "daemonset/common.h"
#include "daemonset/upstream.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ds_object ds_object;

/*
 * Parse one document as type, the Go type upstream's functions take:
 *   "Toleration", "Taint"   one object;
 *   "[]Toleration", "[]Taint"  an array (nothing or null: empty);
 *   "Node", "DaemonSet"     one object (or a List or stream of one), read
 *                           as ds_daemonset_node_should_run(3) reads it;
 *   "Pod"                   a Pod, a PodTemplateSpec or a bare PodSpec;
 *   "Affinity"              an Affinity (nothing or null: nil);
 *   "List"                  any objects (a JSON array, a List, a stream),
 *                           those without a kind Pods: a node's pods, a
 *                           DaemonSet's nodes and pods;
 *   NULL                    the object's kind says (Node or DaemonSet).
 * opts (may be NULL) gives the feature gates and limits the object is read
 * with, and legacyDaemonSets; a decision reads its own options for what it
 * decides. *out gets the object (one reference). Errors as the text
 * functions report them, the argument's name as their source.
 */
DS_EXTERN int ds_object_parse(const char *type, const char *text, size_t size, const ds_options *opts, ds_object **out,
			      ds_error *err);
/* Take a reference (obj may be NULL); returns obj. */
DS_EXTERN ds_object *ds_object_ref(ds_object *obj);
/* Drop a reference; the last frees the object. NULL is fine. */
DS_EXTERN void ds_object_free(ds_object *obj);
/* The object's type as ds_object_parse names it ("Node", ...), static. */
DS_EXTERN const char *ds_object_type(const ds_object *obj);

/* The Node or DaemonSet namespace_/name of a snapshot as an object of its
 * own (a copy: it stays valid, and unchanged, when the snapshot changes or
 * is freed), read with the snapshot's options. kind: "Node" (namespace_
 * ignored, may be NULL) or "DaemonSet". DS_ENOTFOUND when there is none. */
DS_EXTERN int ds_cluster_get_object(const ds_cluster *cluster, const char *kind, const char *namespace_,
				    const char *name, ds_object **out, ds_error *err);

/* ---- upstream's decisions on objects (the text forms: <daemonset/upstream.h>) ---- */

/* Toleration.ToleratesTaint, as ds_toleration_tolerates_taint(3). */
DS_EXTERN int ds_toleration_tolerates_taint_obj(const ds_object *toleration, const ds_object *taint,
						const ds_options *opts, int *out, ds_error *err);

/* FindMatchingUntoleratedTaint, as ds_taints_find_untolerated2(3): the
 * taints of taints (a []Taint, a Taint, or a Node: its spec.taints) and the
 * tolerations of tolerations (a []Toleration, a Toleration, a Pod: its
 * spec's, or a DaemonSet: its template's, as given). */
DS_EXTERN int ds_taints_find_untolerated_obj(const ds_object *taints, const ds_object *tolerations,
					     const ds_taint_filter *filter, const ds_options *opts, int *found,
					     char **json_out, ds_error *err);

/* GetRequiredNodeAffinity(pod).Match(node), as
 * ds_pod_required_node_affinity_match2(3): a Pod and a Node. */
DS_EXTERN int ds_pod_required_node_affinity_match_obj(const ds_object *pod, const ds_object *node,
						      const ds_options *opts, int *out, ds_error *err);

/* NodeShouldRunDaemonPod, as ds_daemonset_node_should_run(3): daemonset a
 * DaemonSet, node a Node. */
DS_EXTERN int ds_daemonset_node_should_run_obj(const ds_object *daemonset, const ds_object *node,
					       const ds_options *opts, int *should_run, int *should_continue_running,
					       char **json_out, ds_error *err);

/* The Pod the controller creates, as ds_daemonset_new_pod(3). */
DS_EXTERN int ds_daemonset_new_pod_obj(const ds_object *daemonset, const char *node_name, const char *hash,
				       const ds_options *opts, char **json_out, ds_error *err);

/* AddOrUpdateDaemonPodTolerations, as ds_podspec_add_daemon_tolerations2(3):
 * podspec a Pod (a Pod, a PodTemplateSpec or a bare PodSpec). */
DS_EXTERN int ds_podspec_add_daemon_tolerations_obj(const ds_object *podspec, const ds_options *opts, char **json_out,
						    ds_error *err);

/* ReplaceDaemonSetPodNodeNameNodeAffinity, as ds_affinity_replace_node_name2(3):
 * affinity an Affinity, or NULL for nil. */
DS_EXTERN int ds_affinity_replace_node_name_obj(const ds_object *affinity, const char *node_name,
						const ds_options *opts, char **json_out, ds_error *err);

/* rollingUpdate alone, as ds_daemonset_rolling_update(3): a DaemonSet and a
 * List of its nodes and pods (NULL: none). */
DS_EXTERN int ds_daemonset_rolling_update_obj(const ds_object *daemonset, const ds_object *objects, const char *hash,
					      ds_time now, const ds_options *opts, char **json_out, ds_error *err);

/* The scheduler's filters, as ds_scheduler_filter(3), and SelectVictimsOnNode,
 * as ds_preemption_select_victims(3): a Pod, a Node, and a List of the node's
 * pods (NULL: none). These two copy the node and its pods into a private
 * snapshot at each call (no parsing, no checks). */
DS_EXTERN int ds_scheduler_filter_obj(const ds_object *pod, const ds_object *node, const ds_object *objects,
				      const ds_options *opts, char **json_out, ds_error *err);
DS_EXTERN int ds_preemption_select_victims_obj(const ds_object *pod, const ds_object *node, const ds_object *objects,
					       const ds_options *opts, char **json_out, ds_error *err);

/* ---- batches: one object against many, the answers in an array ------------- */

/* One verdict of NodeShouldRunDaemonPod. Size-versioned: the caller sets
 * size (DS_SHOULD_RUN_RESULT_INIT); the library writes the members that
 * lie within it. */
typedef struct ds_should_run_result {
	size_t size;
	int should_run;
	int should_continue_running;
	int reason; /* DS_SHOULD_RUN_* below: why not, the first check that failed */
	int taint;  /* DS_SHOULD_RUN_TAINT: the index in spec.taints of the first untolerated taint; else -1 */
} ds_should_run_result;
#define DS_SHOULD_RUN_RESULT_INIT DS_SIZED_INIT(ds_should_run_result)
#define DS_SHOULD_RUN_OK 0            /* it runs (and keeps running) */
#define DS_SHOULD_RUN_NODE_NAME 1     /* the template's nodeName is another node */
#define DS_SHOULD_RUN_NODE_SELECTOR 2 /* spec.nodeSelector does not match */
#define DS_SHOULD_RUN_NODE_AFFINITY 3 /* no required node affinity term matches */
#define DS_SHOULD_RUN_TAINT 4         /* an untolerated NoSchedule or NoExecute taint */

/* NodeShouldRunDaemonPod of one DaemonSet for each of count nodes (Node
 * objects): results[i] for nodes[i]. results is an array of count structs,
 * whose size is results[0].size (each element's size is written). */
DS_EXTERN int ds_daemonset_node_should_run_nodes(const ds_object *daemonset, const ds_object *const *nodes,
						 size_t count, const ds_options *opts, ds_should_run_result *results,
						 ds_error *err);
/* The same for each of count DaemonSets on one node: results[i] for daemonsets[i]. */
DS_EXTERN int ds_daemonset_node_should_run_daemonsets(const ds_object *const *daemonsets, size_t count,
						      const ds_object *node, const ds_options *opts,
						      ds_should_run_result *results, ds_error *err);
/* GetRequiredNodeAffinity(pod).Match for each of count nodes: matches[i]
 * (1 or 0) for nodes[i]. Terms that do not parse never match; when some node
 * matched no term and a term does not parse, every match is written and the
 * call returns DS_EVALUE with upstream's parse errors, as Match returns them. */
DS_EXTERN int ds_pod_required_node_affinity_match_nodes(const ds_object *pod, const ds_object *const *nodes,
							size_t count, const ds_options *opts, int *matches,
							ds_error *err);
/* FindMatchingUntoleratedTaint for the taints of each of count nodes (or
 * other taint objects) with one set of tolerations: found[i] (1 or 0) for
 * nodes[i]; taint_index (may be NULL) the index of that taint, or -1. */
DS_EXTERN int ds_taints_find_untolerated_nodes(const ds_object *const *nodes, size_t count,
					       const ds_object *tolerations, const ds_taint_filter *filter,
					       const ds_options *opts, int *found, int *taint_index, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif
