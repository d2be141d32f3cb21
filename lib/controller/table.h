/*
 * Per-DaemonSet driver state, keyed by "namespace/name" (controller.KeyFunc):
 * the expectations (ControlleeExpectations), the work-queue entry, the
 * rate limiter's failure count and the failed-pod backoff between syncs.
 */
#ifndef DSI_CTRL_TABLE_H
#define DSI_CTRL_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/hash.h"
#include "daemon/backoff.h"

typedef struct dsi_dsstate {
	char *key;     /* "namespace/name" */
	size_t ns_len; /* key[0..ns_len) is the namespace; the name follows the '/' */
	/* ControlleeExpectations (controller_utils.go) */
	uint8_t exp_set;
	int64_t exp_add, exp_del;
	ds_time exp_time;
	/* the work queue: queued (due at due) is the queue itself; waiting (due at wait_due) the
	 * delaying queue's entry of AddAfter, which is apart from it and outlives a sync */
	uint8_t queued, waiting;
	ds_time due, wait_due;
	uint32_t failures; /* ItemExponentialFailureRateLimiter */
	dsi_backoff backoff;
	uint32_t index;            /* in the table's list */
	struct dsi_dsstate *chain; /* same hash */
} dsi_dsstate;

typedef struct dsi_dstable {
	dsi_map by_hash; /* hash(key) -> first state of that hash */
	dsi_dsstate **all;
	size_t n, cap;
} dsi_dstable;

void dsi_dstable_init(dsi_dstable *t);
void dsi_dstable_free(dsi_dstable *t);
dsi_dsstate *dsi_dstable_get(const dsi_dstable *t, const char *key);
/* The state of key, created when missing; NULL on allocation failure. */
dsi_dsstate *dsi_dstable_ensure(dsi_dstable *t, const char *key);
/* Drop the state when it holds nothing any more (no expectations, not queued,
 * no failures, no backoff). */
void dsi_dstable_gc(dsi_dstable *t, dsi_dsstate *s);

#endif
