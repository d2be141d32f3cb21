/*
 * libdaemonset: cordon, drain and upgrade planning. Include <daemonset.h>
 * rather than this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_OPS_H
#define DAEMONSET_OPS_H

#include "daemonset/cluster.h"
#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * `kubectl cordon NODE` (desired 1) or `kubectl uncordon NODE` (desired 0)
 * planned on the snapshot: the PATCH kubectl sends ({"spec":{"unschedulable":
 * true}} or {"spec":{"unschedulable":null}}, none when nothing changes), the
 * line it prints ("node/NAME cordoned", "node/NAME already cordoned", ...),
 * what the node lifecycle controller then does with the
 * node.kubernetes.io/unschedulable:NoSchedule taint, and for each DaemonSet
 * whether it keeps, creates or deletes pods on the node afterwards. node may
 * be "NAME" or "node/NAME". Reads option featureGates. See ds_node_cordon(3).
 */
DS_EXTERN int ds_node_cordon(const ds_cluster *cluster, const char *node, int desired, const ds_options *opts,
			     char **json_out, ds_error *err);

/*
 * `kubectl drain NODE` planned at time now: every pod bound to the node
 * classified by kubectl's filters with its texts, the eviction (or DELETE)
 * of the others against the snapshot's PodDisruptionBudgets, the transcript
 * kubectl prints and its exit code, the node's verdict, and which DaemonSets
 * lose pods when the node reboots. Reads options force, ignoreDaemonSets,
 * deleteEmptyDirData, disableEviction, gracePeriodSeconds,
 * skipWaitForDeleteTimeoutSeconds, podSelector, daemonSetKinds and
 * featureGates. See ds_node_drain(3).
 */
DS_EXTERN int ds_node_drain(const ds_cluster *cluster, const char *node, ds_time now, const ds_options *opts,
			    char **json_out, ds_error *err);

/*
 * A cluster upgrade planned at time now: the nodes named in nodes[0..nnodes)
 * or, with nnodes 0, those matching the label selector ("" for all), drained
 * in batches of the option batchSize (control-plane nodes last, one at a
 * time); per batch the cordons, evictions, ignored daemon pods, evictions a
 * PodDisruptionBudget blocks, errors, and warnings where the batch takes a
 * DaemonSet past its maxUnavailable or a PodDisruptionBudget past its budget.
 * Reads the options of ds_node_drain and batchSize. See ds_cluster_upgrade(3).
 */
DS_EXTERN int ds_cluster_upgrade(const ds_cluster *cluster, const char *const *nodes, size_t nnodes,
				 const char *selector, ds_time now, const ds_options *opts, char **json_out,
				 ds_error *err);

/* ---- superseded names (SONAME 1 keeps them; see "Conventions" in daemonset(7)) ---- */
#ifndef DS_NO_DEPRECATED
DS_EXTERN DS_DEPRECATED("ds_node_cordon") int ds_cordon(const ds_cluster *cluster, const char *node, int desired,
							const ds_options *opts, char **json_out, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_node_drain") int ds_drain(const ds_cluster *cluster, const char *node, ds_time now,
						      const ds_options *opts, char **json_out, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_cluster_upgrade") int ds_upgrade(const ds_cluster *cluster, const char *const *nodes,
							     size_t nnodes, const char *selector, ds_time now,
							     const ds_options *opts, char **json_out, ds_error *err);
#endif

#ifdef __cplusplus
}
#endif
#endif
