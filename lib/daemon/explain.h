/* Explaining placement: the controller's verdict and the scheduler's view, as JSON. */
#ifndef DSI_EXPLAIN_H
#define DSI_EXPLAIN_H

#include <jansson.h>

#include "daemon/shouldrun.h"

/* {"plugin","message","detail","field"[,"nodeField"]} objects for a verdict (empty array when it runs). */
json_t *dsi_verdict_reasons(const dsi_placement *p, const dsi_node *node, const dsi_verdict *v);
/* {"node","shouldRun","shouldContinueRunning","reasons"}: NodeShouldRunDaemonPod's answer as JSON (new reference). */
json_t *dsi_verdict_json(const dsi_placement *p, const dsi_node *node, const dsi_verdict *v);
/* The same two for a node whose strings are in node_atoms (dsi_node_should_run_x). */
json_t *dsi_verdict_reasons_x(const dsi_placement *p, const dsi_atoms *node_atoms, const dsi_node *node,
			      const dsi_verdict *v);
json_t *dsi_verdict_json_x(const dsi_placement *p, const dsi_atoms *node_atoms, const dsi_node *node,
			   const dsi_verdict *v);
/* The explain document for one DaemonSet over every node. */
int dsi_explain(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_core_options *o, json_t **out, ds_error *err);

#endif
