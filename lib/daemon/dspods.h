/*
 * The pods a DaemonSet owns, grouped by the node they are for: the
 * ControllerRefManager claim (ClaimPods) and getNodesToDaemonPods.
 */
#ifndef DSI_DSPODS_H
#define DSI_DSPODS_H

#include "daemon/podupdated.h"
#include "model/snapshot.h"

#define DSI_DS_PODS_NO_TARGET (UINT32_MAX - 1) /* the pod names no node (GetTargetNodeName fails) */

/* What the passes of a sync ask of each claimed pod, noted by the claim pass while it has the pod
 * in cache: at 100k nodes a pass that reads every pod again waits on memory most of its time. */
enum {
	DSI_DSP_DELETING = 1,   /* metadata.deletionTimestamp is set */
	DSI_DSP_FAILED = 2,     /* phase Failed */
	DSI_DSP_SUCCEEDED = 4,  /* phase Succeeded */
	DSI_DSP_READY = 8,      /* IsPodReady */
	DSI_DSP_AVAILABLE = 16, /* IsPodAvailable at `now` with minReadySeconds */
	DSI_DSP_UPDATED = 32,   /* IsPodUpdated against `key` */
};

/* What the state of a pod is judged against. */
typedef struct dsi_ds_pods_when {
	const dsi_revision_key *key;
	int32_t min_ready_seconds;
	ds_time now;
	int k8s_minor;
} dsi_ds_pods_when;

typedef struct dsi_ds_pods {
	const dsi_pod **v; /* claimed pods: controlled by the DaemonSet, or orphans it adopts */
	uint8_t *adopt;    /* per claimed pod: an orphan that the sync adopts (patch) */
	uint32_t *node;    /* per claimed pod: index of its node, DSI_NO_NODE or DSI_DS_PODS_NO_TARGET */
	uint8_t *state;    /* per claimed pod: DSI_DSP_* as of `when`; NULL unless collected with one */
	dsi_ds_pods_when when;
	uint32_t n;
	const dsi_pod **released; /* controlled by it but no longer matching the selector */
	uint32_t nreleased;
	/* by node (indexed by dsi_node.index) */
	uint32_t nnodes;
	int32_t *first;  /* per node: first claimed pod on it, or -1 */
	int32_t *next;   /* per claimed pod: next one on the same node, or -1 */
	int32_t lost;    /* first pod whose target node is not in the snapshot (chained by next), or -1 */
	uint32_t *count; /* per node: number of pods */
} dsi_ds_pods;

/* Collect the DaemonSet's pods. With include_deleted_terminal false, pods that
 * are terminal and already have a deletionTimestamp are left out (upstream
 * since ~1.28 for manage, rolling update and status). With when, state is
 * filled as of it. */
int dsi_ds_pods_collect(const dsi_cluster *c, const dsi_daemonset *ds, int include_deleted_terminal, dsi_ds_pods *out);
int dsi_ds_pods_collect_when(const dsi_cluster *c, const dsi_daemonset *ds, int include_deleted_terminal,
			     const dsi_ds_pods_when *when, dsi_ds_pods *out);
void dsi_ds_pods_release(dsi_ds_pods *p);
/* The DSI_DSP_* flags of one pod as of w. */
uint8_t dsi_ds_pod_state(const dsi_ds_pods_when *w, const dsi_pod *p);

/* p's state answers for when (the same revision key, time, minReadySeconds and version). */
static inline int dsi_ds_pods_state_for(const dsi_ds_pods *p, const dsi_revision_key *key, int32_t min_ready_seconds,
					ds_time now, int k8s_minor)
{
	return p->state && p->when.key == key && p->when.min_ready_seconds == min_ready_seconds && p->when.now == now &&
	       p->when.k8s_minor == k8s_minor;
}

/* Pods by name (a DaemonSet's pods share its namespace): a and b are dsi_pod pointers, ctx the
 * snapshot. */
int dsi_pod_cmp_name(const void *a, const void *b, void *ctx);

/* podByCreationTimestampAndPhase (daemon_controller.go): bound pods first, then
 * older creationTimestamp, then name; a and b point to dsi_pod pointers, ctx is
 * the snapshot. Phase plays no part despite the name. */
int dsi_pod_cmp_creation(const void *a, const void *b, void *ctx);

#endif
