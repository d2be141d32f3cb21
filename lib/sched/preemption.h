/* Priority and preemption on one node (DefaultPreemption's SelectVictimsOnNode). */
#ifndef DSI_PREEMPTION_H
#define DSI_PREEMPTION_H

#include "sched/cycle.h"
#include "sched/fit.h"

#define DSI_SYSTEM_CLUSTER_CRITICAL 2000000000
#define DSI_SYSTEM_NODE_CRITICAL 2000001000

/* PodPriority (component-helpers) after the Priority admission plugin:
 * spec.priority, else the named PriorityClass (built-ins system-node-critical
 * and system-cluster-critical, or one in the snapshot), else the global
 * default class, else 0. Returns -1 when a named class does not exist
 * (admission would refuse the pod). */
int dsi_pod_priority(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_podspec *spec, int32_t *out);

typedef struct dsi_preemption {
	uint8_t attempted;       /* the pod did not fit and may preempt */
	uint8_t possible;        /* removing the victims makes it fit */
	const dsi_pod **victims; /* most important first */
	uint32_t nvictims;
	uint32_t pdb_violations;
	dsi_fit after;       /* filters with every lower-priority pod removed (when not possible) */
	const char *message; /* why not, in the scheduler's words */
} dsi_preemption;

/* SelectVictimsOnNode (scheduler plugins/defaultpreemption/default_preemption.go):
 * strictly lower-priority pods are potential victims; all are removed, the pod
 * must then fit; victims are reprieved from the most important down (PDB
 * violators first) while the pod still fits. skip/ctx exclude pods from the
 * node as in dsi_node_usage_init; cy is the pod's cycle over the same pods, from which each
 * try removes its victims (RemovePod) before rerunning the filters. */
int dsi_select_victims(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_podspec *spec, int32_t priority,
		       const dsi_tolerations *tols, int comparison_ops, const dsi_node *node, const dsi_cycle *cy,
		       dsi_pod_filter skip, void *ctx, dsi_preemption *out);
void dsi_preemption_release(dsi_preemption *p);

#endif
