/*
 * Leader election in the loop (client-go tools/leaderelection's LeaderElector
 * with a LeaseLock): the library decides when to read and write the Lease and
 * how long each call may take; the host performs the calls like any other.
 * tryAcquireOrRenew itself is lease.c's pure function.
 */
#ifndef DSI_CTRL_ELECTOR_H
#define DSI_CTRL_ELECTOR_H

#include "controller/controller.h"

/* From the caller's config (copied; checked as NewLeaderElector checks it); retry_ms 0:
 * the renew deadline / 5. */
int dsi_elector_new(const ds_lease_config *cfg, int64_t retry_ms, dsi_elector **out, ds_error *err);
void dsi_elector_free(dsi_elector *e);
void dsi_elector_start(dsi_elector *e, ds_time now);
/* We hold the lease and renewed it within the renew deadline. */
int dsi_elector_leading(const dsi_elector *e, ds_time now);
/* A call still to finish (a release in flight, say). */
int dsi_elector_busy(const dsi_elector *e);
/* Deadlines at now; *lost: we led and no longer do. */
int dsi_elector_timers(dsi_controller *c, dsi_elector *e, ds_time now, int *lost, ds_error *err);
/* Start what is due: 1 with io filled, 0 when nothing is, or a negative code. stopping: only a
 * release may start. */
int dsi_elector_next(dsi_controller *c, dsi_elector *e, ds_time now, int stopping, ds_io *io, ds_error *err);
int dsi_elector_data(dsi_controller *c, dsi_iocall *call, const char *data, size_t size, ds_error *err);
int dsi_elector_end(dsi_controller *c, dsi_elector *e, dsi_iocall *call, const char *error, ds_time now, ds_error *err);
/* ReleaseOnCancel: give the lease up when we hold it. */
int dsi_elector_stop(dsi_elector *e, ds_time now, ds_error *err);
int64_t dsi_elector_wait(const dsi_elector *e, ds_time now);
json_t *dsi_elector_status(const dsi_elector *e, ds_time now);

#endif
