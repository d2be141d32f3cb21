/*
 * One sync of a DaemonSet (syncDaemonSet) executed through the transport:
 * the context the steps share, and the steps themselves, each in its file
 * (events.c, claim.c, revisions.c, podcontrol.c, statuswrite.c). A step
 * returns 0 when its API calls succeeded, 1 when one failed (the message is
 * in errs, worded as upstream's error), or a negative ds_error_code when the
 * library itself failed (out of memory).
 */
#ifndef DSI_CTRL_SYNC_H
#define DSI_CTRL_SYNC_H

#include <jansson.h>

#include "controller/controller.h"
#include "daemon/syncplan.h"

typedef struct dsi_sync {
	dsi_controller *c;
	dsi_dsstate *st;
	const dsi_daemonset *ds; /* in the snapshot; the snapshot does not change during a sync */
	const char *ns, *name, *uid, *key;
	ds_time now;
	json_t *events;  /* what was recorded: [{"type","reason","message"}] */
	json_t *created; /* names of the pods created */
	json_t *deleted; /* names of the pods deleted (or already gone) */
	int creates, deletes;
	int status_written;
	ds_error *err;
} dsi_sync;

/* EventRecorder.Eventf on the DaemonSet: a core/v1 Event through record_event
 * (fire and forget, as upstream's broadcaster). */
int dsi_record_event(dsi_sync *s, const char *type, const char *reason, const char *message);

/* RecheckDeletionTimestamp (controller_ref_manager.go) on an uncached GET of
 * the DaemonSet: 0 when adoption may go on, 1 with *why set (new string) when not. */
int dsi_can_adopt(dsi_sync *s, char **why);

/* ClaimPods' patches (controller_ref_manager.go): adopt orphans, release pods that
 * stopped matching. */
int dsi_claim_pods(dsi_sync *s, const dsi_plan *p, json_t *errs);

/* constructHistory (update.go): claim revisions, label the unlabelled, create the
 * current one (AlreadyExists: the collision protocol), or dedup and bump it. */
int dsi_history_execute(dsi_sync *s, const dsi_plan *p, json_t *errs);
/* cleanupHistory's deletes (update.go). */
int dsi_history_cleanup_execute(dsi_sync *s, const dsi_plan *p, json_t *errs);

/* syncNodes (daemon_controller.go): expectations, creates in slow-start batches, deletes. */
int dsi_sync_nodes(dsi_sync *s, const dsi_plan *p, json_t *errs);

/* storeDaemonSetStatus (daemon_controller.go): skipped when unchanged; one re-GET
 * and retry after a failed write. */
int dsi_store_status(dsi_sync *s, const dsi_ds_status *st, int changed, int update_observed_generation, json_t *errs);

/* Go's time.Time.String() for UTC: "2006-01-02 15:04:05 +0000 UTC" (fraction when not zero). */
void dsi_go_time_string(ds_time t, char *buf, size_t size);

#endif
