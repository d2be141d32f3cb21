/* Which nodes should run a daemon pod and which should keep one (NodeShouldRunDaemonPod). */
#ifndef DSI_SHOULDRUN_H
#define DSI_SHOULDRUN_H

#include "core/optparse.h"
#include "model/snapshot.h"

typedef enum dsi_why {
	DSI_WHY_OK = 0,
	DSI_WHY_NODE_NAME,     /* the template's nodeName names another node */
	DSI_WHY_NODE_SELECTOR, /* spec.nodeSelector does not match the node's labels */
	DSI_WHY_NODE_AFFINITY, /* no required node affinity term matches */
	DSI_WHY_TAINT,         /* an untolerated NoSchedule or NoExecute taint */
} dsi_why;

typedef struct dsi_verdict {
	uint8_t should_run;
	uint8_t should_continue;
	uint8_t why;
	const dsi_taint *taint; /* DSI_WHY_TAINT: the first untolerated taint (node order) */
} dsi_verdict;

/* Everything about a DaemonSet that does not depend on the node, computed once
 * per call (never per node): the template with the controller's default
 * tolerations merged in. Read-only on the snapshot. */
typedef struct dsi_placement {
	const dsi_cluster *c;   /* the DaemonSet's snapshot; NULL for a DaemonSet of its own (a ds_object) */
	const dsi_atoms *atoms; /* the DaemonSet's strings: &c->atoms, or its own table */
	const dsi_daemonset *ds;
	dsi_tolerations tolerations; /* borrowed atoms: free .v only */
	int comparison_ops;          /* TaintTolerationComparisonOperators */
	unsigned gates;              /* DSI_GATE_* in force (the scheduler's filters read the DRA ones) */
} dsi_placement;

int dsi_placement_init(dsi_placement *p, const dsi_cluster *c, const dsi_daemonset *ds, const dsi_core_options *o);
/* The same for a DaemonSet whose strings are in atoms, outside any snapshot (the well-known taint
 * keys must be interned there: dsi_daemon_tolerations looks them up). */
int dsi_placement_init_atoms(dsi_placement *p, const dsi_atoms *atoms, const dsi_daemonset *ds,
			     const dsi_core_options *o);
void dsi_placement_release(dsi_placement *p);

/* NodeShouldRunDaemonPod (pkg/controller/daemon/daemon_controller.go) */
void dsi_node_should_run(const dsi_placement *p, const dsi_node *node, dsi_verdict *out);
/* The same for a node whose strings are in node_atoms (p->atoms or another table: compared by
 * content). No allocation. */
void dsi_node_should_run_x(const dsi_placement *p, const dsi_atoms *node_atoms, const dsi_node *node, dsi_verdict *out);

/* The verdict for every node of the snapshot: verdict[node->index], and when order is not NULL
 * order[i] the index of the i-th node in name order. Requirements on label keys that none of
 * these nodes has are decided once, before the pass (dsi_node_selector_fold). */
void dsi_node_should_run_all(const dsi_placement *p, dsi_verdict *verdict, uint32_t *order);

/* Upstream's words for a verdict's reason (the scheduler's filter messages). */
const char *dsi_why_message(int why);

#endif
