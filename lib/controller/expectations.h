/*
 * ControllerExpectations as upstream keeps them (pkg/controller/controller_utils.go):
 * per DaemonSet, the creates and deletes a sync issued and has not yet seen in
 * the watch. The next full sync waits until both counts are <= 0 or the
 * expectations are older than the timeout (ExpectationsTimeout, 5 minutes), so a
 * cache that lags never causes a duplicate create or delete.
 */
#ifndef DSI_CTRL_EXPECTATIONS_H
#define DSI_CTRL_EXPECTATIONS_H

#include "controller/table.h"

/* SetExpectations: forget what was there, expect add creates and del deletes from now. */
void dsi_exp_set(dsi_dsstate *s, int64_t add, int64_t del, ds_time now);
/* LowerExpectations (CreationObserved is (1, 0), DeletionObserved (0, 1)); nothing without expectations. */
void dsi_exp_lower(dsi_dsstate *s, int64_t add, int64_t del);
/* DeleteExpectations */
void dsi_exp_delete(dsi_dsstate *s);
/* Fulfilled: add <= 0 and del <= 0. */
int dsi_exp_fulfilled(const dsi_dsstate *s);
/* isExpired: more than timeout_ms since they were set. */
int dsi_exp_expired(const dsi_dsstate *s, ds_time now, int64_t timeout_ms);
/* SatisfiedExpectations: none recorded, fulfilled, or expired. s may be NULL. */
int dsi_exp_satisfied(const dsi_dsstate *s, ds_time now, int64_t timeout_ms);

#endif
