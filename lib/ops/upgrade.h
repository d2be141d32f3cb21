/*
 * Cluster upgrade planning (beyond kubectl): nodes drained and rebooted in
 * batches, each batch checked against the DaemonSets' maxUnavailable and the
 * PodDisruptionBudgets of the snapshot.
 */
#ifndef DSI_UPGRADE_H
#define DSI_UPGRADE_H

#include <jansson.h>

#include "ops/ops_options.h"
#include "model/snapshot.h"

/* The nodes of an upgrade: the named ones (each must exist; duplicates are
 * dropped) or, with names empty, those whose labels match selector
 * (labels.Parse syntax; "" is every node). Both given is DS_EARG, as kubectl
 * refuses a node name together with --selector; neither is DS_EARG too.
 * *out (release with dsi_free) gets the nodes in the upgrade's order: nodes
 * without a control-plane role by name, then control-plane nodes
 * (node-role.kubernetes.io/control-plane or .../master label) by name.
 * *ncp gets the number of control-plane nodes (at the end). */
int dsi_upgrade_select(const dsi_cluster *c, const char *const *names, size_t nnames, const char *selector,
		       const dsi_node ***out, size_t *nout, size_t *ncp, ds_error *err);

/* The ds_upgrade result for the selected nodes (see ds_upgrade(3)). */
int dsi_upgrade_json(const dsi_cluster *c, const dsi_node *const *nodes, size_t n, size_t ncp, const char *selector,
		     ds_time now, const dsi_ops_cfg *o, json_t **out, ds_error *err);

#endif
