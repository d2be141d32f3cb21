/*
 * Cordon and uncordon as kubectl does them (kubectl pkg/drain/cordon.go,
 * pkg/cmd/drain/drain.go RunCordonOrUncordon), and what the change means for
 * DaemonSets once the node lifecycle controller has reacted to it.
 */
#ifndef DSI_CORDON_H
#define DSI_CORDON_H

#include <jansson.h>

#include "ops/ops_options.h"
#include "model/snapshot.h"

/* The node name of a kubectl argument: "NAME", "node/NAME", "nodes/NAME" or
 * "no/NAME" (the resource builder's forms for nodes). NULL for another
 * resource type ("pod/x") or an empty name. Returns a pointer into arg. */
const char *dsi_cordon_node_arg(const char *arg);

/* CordonHelper.UpdateIfRequired (kubectl pkg/drain/cordon.go): a PATCH is
 * needed when spec.unschedulable differs from desired. */
static inline int dsi_cordon_update_required(const dsi_node *node, int desired)
{
	return (node->unschedulable != 0) != (desired != 0);
}

/*
 * The node as the DaemonSet controller sees it after the cordon (desired 1)
 * or uncordon (0) and the node lifecycle controller's doNoScheduleTaintingPass:
 * spec.unschedulable = desired, and the taint
 * node.kubernetes.io/unschedulable:NoSchedule present exactly when desired
 * (added without a value when missing; every NoSchedule taint with that key
 * removed on uncordon). *out is a shallow copy sharing node's atoms; release
 * *buf with dsi_free (it may be NULL). Returns 0 or -1 (out of memory).
 */
int dsi_cordoned_view(const dsi_cluster *c, const dsi_node *node, int desired, dsi_node *out, dsi_taint **buf);

/* Whether a controller reference on pod p names DaemonSet ds (same
 * namespace, kind DaemonSet, same name, and the same uid when both have one). */
int dsi_owned_by_daemonset(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_pod *p);

/* The cordon part of a result: node, operation, unschedulable, changed,
 * patch, stdout, taint (see ds_cordon(3)). NULL on allocation failure. */
json_t *dsi_cordon_core_json(const dsi_cluster *c, const dsi_node *node, int desired);

/* The whole ds_cordon result, with the DaemonSets the change concerns. */
int dsi_cordon_json(const dsi_cluster *c, const dsi_node *node, int desired, const dsi_ops_cfg *o, json_t **out,
		    ds_error *err);

#endif
