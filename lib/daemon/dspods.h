/*
 * The pods a DaemonSet owns, grouped by the node they are for: the
 * ControllerRefManager claim (ClaimPods) and getNodesToDaemonPods.
 */
#ifndef DSI_DSPODS_H
#define DSI_DSPODS_H

#include "core/prefetch.h"
#include "model/cluster.h"

#define DSI_DS_PODS_NO_TARGET (UINT32_MAX - 1) /* the pod names no node (GetTargetNodeName fails) */

typedef struct dsi_ds_pods {
	const dsi_pod **v;   /* claimed pods: controlled by the DaemonSet, or orphans it adopts */
	uint8_t *adopt;      /* per claimed pod: an orphan that the sync adopts (patch) */
	uint32_t *node;      /* per claimed pod: index of its node, DSI_NO_NODE or DSI_DS_PODS_NO_TARGET */
	uint32_t n;
	const dsi_pod **released; /* controlled by it but no longer matching the selector */
	uint32_t nreleased;
	/* by node (indexed by dsi_node.index) */
	uint32_t nnodes;
	int32_t *first; /* per node: first claimed pod on it, or -1 */
	int32_t *next;  /* per claimed pod: next one on the same node, or -1 */
	int32_t lost;   /* first pod whose target node is not in the snapshot (chained by next), or -1 */
	uint32_t *count; /* per node: number of pods */
} dsi_ds_pods;

/* Collect the DaemonSet's pods. With include_deleted_terminal false, pods that
 * are terminal and already have a deletionTimestamp are left out (upstream
 * since ~1.28 for manage, rolling update and status). */
int dsi_ds_pods_collect(const dsi_cluster *c, const dsi_daemonset *ds, int include_deleted_terminal, dsi_ds_pods *out);
void dsi_ds_pods_release(dsi_ds_pods *p);

/* Starts loading the pod at index k of p->v (none when k < 0): what the passes of a sync read of
 * most pods is in its first cache line (dsi_pod). The passes over nodes call it a few nodes ahead. */
static inline void dsi_ds_pods_prefetch(const dsi_ds_pods *p, int32_t k)
{
	if (k >= 0)
		DSI_PREFETCH(p->v[k]);
}

/* Pods by name (a DaemonSet's pods share its namespace): a and b are dsi_pod pointers, ctx the
 * snapshot. */
int dsi_pod_cmp_name(const void *a, const void *b, void *ctx);

/* podByCreationTimestampAndPhase (daemon_controller.go): bound pods first, then
 * older creationTimestamp, then name; a and b point to dsi_pod pointers, ctx is
 * the snapshot. Phase plays no part despite the name. */
int dsi_pod_cmp_creation(const void *a, const void *b, void *ctx);

#endif
