/*
 * The work queue of DaemonSet keys with due times (workqueue's Add, AddAfter,
 * AddRateLimited, Forget), on the per-DaemonSet state. Time is a parameter.
 */
#ifndef DSI_CTRL_QUEUE_H
#define DSI_CTRL_QUEUE_H

#include "controller/table.h"

/* Add: due now (an entry due later moves up). */
void dsi_queue_add(dsi_dsstate *s, ds_time now);
/* AddAfter: due at now + after_ms (0: Add), or earlier if already waiting for earlier; a
 * wait is kept apart from the queue, so that a sync before it does not cancel it. */
void dsi_queue_add_after(dsi_dsstate *s, ds_time now, int64_t after_ms);
/* When s is due (the earlier of the queue and the wait), -1 when neither. */
ds_time dsi_queue_due(const dsi_dsstate *s);
/* Get: s is taken for a sync at now; a wait due by now went into the queue and goes with it. */
void dsi_queue_take(dsi_dsstate *s, ds_time now);
/* AddRateLimited with ItemExponentialFailureRateLimiter(base, max): base * 2^failures. Returns the delay. */
int64_t dsi_queue_add_rate_limited(dsi_dsstate *s, ds_time now, int64_t base_ms, int64_t max_ms);
/* Forget: the next failure starts from base again. */
void dsi_queue_forget(dsi_dsstate *s);
/* The queued state due first (ties: by key), or NULL. */
dsi_dsstate *dsi_queue_first(const dsi_dstable *t);
/* Milliseconds until the first entry is due (0 if due), -1 when nothing is queued. */
int64_t dsi_queue_wait(const dsi_dstable *t, ds_time now);

#endif
