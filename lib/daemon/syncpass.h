/*
 * One sync's working state, shared by its passes along upstream's own seams (pkg/controller/daemon):
 * syncplan.c (syncDaemonSet, the history, syncNodes and the plan's records), manage.c (manage,
 * podsShouldBeOnNode: daemon_controller.go) and rollingupdate.c (rollingUpdate: update.go).
 */
#ifndef DSI_SYNCPASS_H
#define DSI_SYNCPASS_H

#include "core/error.h"
#include "daemon/syncplan.h"

typedef struct dsi_sync_pass {
	const dsi_cluster *c;
	const dsi_daemonset *ds;
	const dsi_daemon_cfg *o;
	ds_time now;
	dsi_placement place;
	dsi_ds_pods pods;
	dsi_verdict *verdict; /* per node index */
	uint32_t *order;      /* node indexes in name order (so that passes need not touch the nodes) */
	dsi_revision_key key;
	const char *hash;
	dsi_plan *plan;
	ds_error *err;
	size_t cap_creates, cap_deletes;
	uint8_t *deleting; /* per pod index of the snapshot: already in plan->deletes (allocated on first use) */
	/* room for the pods of any one node (the most any node has, pods of vanished nodes included) */
	int32_t *node_pods;
	const dsi_pod **running;
	uint32_t node_pods_cap;
} dsi_sync_pass;

int dsi_sync_add_create(dsi_sync_pass *s, const dsi_node *node, int reason);
/* A pod is deleted once (manage and the update may both want it). */
int dsi_sync_add_delete(dsi_sync_pass *s, const dsi_pod *pod, int reason);
/* An event of the plan with a formatted message (of any length). */
int dsi_sync_add_event(dsi_sync_pass *s, const char *type, const char *reason, const char *fmt, ...) DSI_PRINTF(4, 5);
/* Forget the creates and deletes planned since the plan held nc creates and nd deletes. */
void dsi_sync_drop_since(dsi_sync_pass *s, uint32_t nc, uint32_t nd);
/* Sync again after ms at the latest (-1: no request). */
void dsi_sync_note_requeue(dsi_sync_pass *s, int64_t ms);

/* The pods claimed for a node, in claim order, as indices into s->pods.v (the passes look at
 * s->pods.state first and read a pod only when they act on it), into out, which has room for
 * s->node_pods_cap. */
static inline uint32_t dsi_sync_pods_of(const dsi_sync_pass *s, int32_t first, int32_t *out)
{
	uint32_t n = 0;
	for (int32_t k = first; k >= 0 && n < s->node_pods_cap; k = s->pods.next[k])
		out[n++] = k;
	return n;
}

#define DSI_MAX_UNAVAILABLE_PATH "spec.updateStrategy.rollingUpdate.maxUnavailable"
#define DSI_MAX_SURGE_PATH "spec.updateStrategy.rollingUpdate.maxSurge"
/* util.SurgeCount / util.UnavailableCount: 0 unless RollingUpdate; percents round up. field: the
 * value's path, for the error. */
int dsi_sync_scaled(dsi_sync_pass *s, const dsi_intstr *v, int has, const char *field, int total, int32_t *out);

/* manage (daemon_controller.go), manage.c */
int dsi_sync_manage(dsi_sync_pass *s);
/* rollingUpdate (update.go), rollingupdate.c */
int dsi_sync_rolling_update(dsi_sync_pass *s);

#endif
