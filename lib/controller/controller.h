/*
 * The controller driver (ds_controller): the host's transport, the snapshot
 * it keeps current from watch events, and per DaemonSet the expectations,
 * the work-queue entry, the retry count and the failed-pod backoff. One
 * thread at a time: the host serialises calls (no locks inside).
 */
#ifndef DSI_CONTROLLER_H
#define DSI_CONTROLLER_H

#include <jansson.h>

#include "daemonset/controller.h"
#include "controller/table.h"
#include "core/options.h"
#include "model/snapshot.h"

struct ds_controller {
	ds_transport tp;         /* the host's table; members beyond its size are NULL */
	ds_options *opts;        /* a copy of the caller's (or the defaults), owned */
	char *ns_filter;         /* resync only this namespace, or NULL */
	int64_t retry_base_ms;   /* rate-limited requeue */
	int64_t retry_max_ms;
	char *component;         /* Event source component */
	dsi_cluster *cluster;    /* the snapshot */
	dsi_dstable table;       /* per-DaemonSet state */
	uint64_t event_seq;      /* keeps Event names apart within one millisecond */
	int busy;                /* inside a call: a callback must not re-enter */
	json_t *call_log;        /* during a sync: each API call, in order */
	int failed_calls;        /* during a sync */
};

typedef struct ds_controller dsi_controller;

static inline const dsi_options *dsi_ctrl_opts(const dsi_controller *c) { return dsi_opts(c->opts); }

/* controller.KeyFunc: "namespace/name" ("name" without a namespace). New string or NULL. */
char *dsi_ctrl_key(const char *ns, const char *name);

/* The entry points behind include/daemonset/controller.h (each in its file). */
int dsi_ctrl_init(dsi_controller *c, const ds_transport *tp, const ds_options *opts, const ds_controller_config *cfg,
		  ds_error *err);
void dsi_ctrl_destroy(dsi_controller *c);
/* resync.c */
int dsi_ctrl_resync(dsi_controller *c, ds_time now, json_t **out, ds_error *err);
/* handlers.c */
int dsi_ctrl_apply_events(dsi_controller *c, const char *data, size_t size, ds_time now, size_t *count, json_t **out,
			  ds_error *err);
/* sync.c: *out gets the result document; res (may be NULL) the counters. */
int dsi_ctrl_sync(dsi_controller *c, const char *ns, const char *name, ds_time now, ds_sync_result *res, json_t **out,
		  ds_error *err);
/* driver.c */
int dsi_ctrl_run(dsi_controller *c, ds_time now, int64_t *wait_ms, json_t **out, ds_error *err);
json_t *dsi_ctrl_expectations(const dsi_controller *c, const char *key, ds_time now);

#endif
