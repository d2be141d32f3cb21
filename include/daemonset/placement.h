/*
 * libdaemonset: placement and the scheduler's view. Include <daemonset.h>
 * rather than this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_PLACEMENT_H
#define DAEMONSET_PLACEMENT_H

#include "daemonset/cluster.h"
#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The DaemonSet controller's own view (NodeShouldRunDaemonPod): should the
 * DaemonSet namespace/name run a pod on node (shouldRun: create one there),
 * and may a pod already there keep running (shouldContinueRunning)? An
 * untolerated NoSchedule taint gives (0, 1), an untolerated NoExecute taint
 * (0, 0). Reads options featureGates. Any of the outputs may be NULL; json_out
 * gets the answer with the reasons:
 * {"node","shouldRun","shouldContinueRunning","reasons":[{"plugin","message","detail","field"}]}
 */
DS_EXTERN int ds_daemonset_should_run(const ds_cluster *cluster, const char *namespace_, const char *name,
				      const char *node, const ds_options *opts, int *should_run,
				      int *should_continue_running, char **json_out, ds_error *err);

/*
 * Explain a DaemonSet over every node of the snapshot, in node-name order:
 * the controller's verdict, the daemon pods already there, and for nodes that
 * should run a pod the scheduler's view of the pod the controller would
 * create (NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts,
 * NodeResourcesFit) and, when it does not fit, preemption on that node.
 * Each row has a status: "placed", "create", "needs-preemption",
 * "unschedulable", "pending", "kept" (misscheduled but tolerated to stay),
 * "evict" or "not-placed". See ds_daemonset_explain(3) for the JSON.
 */
DS_EXTERN int ds_daemonset_explain(const ds_cluster *cluster, const char *namespace_, const char *name,
				   const ds_options *opts, char **json_out, ds_error *err);

/*
 * Resource fit, host ports and the other filters of the scheduler for a pod
 * (JSON or YAML text of a Pod) on a node of the snapshot, against what the
 * node's other pods request; and, when it does not fit, the victims that
 * preemption would choose. A pod of the snapshot with the same namespace and
 * name is not counted against the node (so a pod can be checked in place).
 */
DS_EXTERN int ds_pod_fit(const ds_cluster *cluster, const char *pod, size_t size, const char *node,
			 const ds_options *opts, char **json_out, ds_error *err);

/* ---- superseded names (SONAME 1 keeps them; see "Conventions" in daemonset(7)) ---- */
#ifndef DS_NO_DEPRECATED
DS_EXTERN DS_DEPRECATED("ds_daemonset_should_run") int ds_should_run(const ds_cluster *cluster, const char *namespace_,
								     const char *name, const char *node,
								     const ds_options *opts, int *should_run,
								     int *should_continue_running, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_daemonset_should_run") int ds_should_run_json(const ds_cluster *cluster,
									  const char *namespace_, const char *name,
									  const char *node, const ds_options *opts,
									  char **json_out, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_daemonset_explain") int ds_explain(const ds_cluster *cluster, const char *namespace_,
							       const char *name, const ds_options *opts,
							       char **json_out, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_pod_fit") int ds_fit(const ds_cluster *cluster, const char *pod, size_t size,
						 const char *node, const ds_options *opts, char **json_out,
						 ds_error *err);
#endif

#ifdef __cplusplus
}
#endif
#endif
