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
#include "controller/ctrl_options.h"
#include "controller/loop.h"
#include "core/optparse.h"
#include "daemon/daemon_options.h"
#include "model/model_options.h"
#include "model/snapshot.h"

struct ds_controller {
	ds_transport tp; /* the host's table; members beyond its size are NULL */
	/* copies of the caller's settings (strings owned) */
	dsi_core_options core;
	dsi_model_options model;
	dsi_daemon_options daemon;
	dsi_ctrl_options ctrl;
	dsi_daemon_cfg sync_cfg; /* what each sync reads: &core and &daemon */
	char *ns_filter;         /* resync only this namespace, or NULL */
	int64_t retry_base_ms;   /* rate-limited requeue */
	int64_t retry_max_ms;
	char *component;      /* Event source component */
	dsi_cluster *cluster; /* the snapshot */
	dsi_dstable table;    /* per-DaemonSet state */
	uint64_t event_seq;   /* keeps Event names apart within one millisecond */
	int busy;             /* inside a call: a callback must not re-enter */
	json_t *call_log;     /* during a sync that reports its calls: each API call, in order */
	int failed_calls;     /* during a sync */
	dsi_loop loop;        /* the list-watch loop (ds_controller_step) */
};

typedef struct ds_controller dsi_controller;

/* controller.KeyFunc: "namespace/name" ("name" without a namespace). New string or NULL. */
char *dsi_ctrl_key(const char *ns, const char *name);

/* The entry points behind include/daemonset/controller.h (each in its file). */
/* The settings a controller keeps a copy of. */
typedef struct dsi_ctrl_settings {
	const dsi_core_options *core;
	const dsi_model_options *model;
	const dsi_daemon_options *daemon;
	const dsi_ctrl_options *ctrl;
} dsi_ctrl_settings;
int dsi_ctrl_init(dsi_controller *c, const ds_transport *tp, const dsi_ctrl_settings *set,
		  const ds_controller_config *cfg, ds_error *err);
void dsi_ctrl_destroy(dsi_controller *c);
/* resync.c */
int dsi_ctrl_resync(dsi_controller *c, ds_time now, json_t **out, ds_error *err);
/* handlers.c */
int dsi_ctrl_apply_events(dsi_controller *c, const char *data, size_t size, ds_time now, size_t *count, json_t **out,
			  ds_error *err);
/* One watch event (parsed) through the snapshot and upstream's event handlers. */
int dsi_ctrl_handle_event(dsi_controller *c, const json_t *event, ds_time now, ds_error *err);
/* The informer's Replace for one kind (replace.c): the objects of kind k become the items of
 * list, each change told to the handlers as the informer's notifications would be. Check the
 * list first (dsi_ctrl_check_list): then only running out of memory fails. */
int dsi_ctrl_replace(dsi_controller *c, int kind, const json_t *list, ds_time now, ds_error *err);
/* Check a list as the snapshot would load it: every item of kind k; *count: how many. */
int dsi_ctrl_check_list(dsi_controller *c, int kind, const json_t *list, size_t *count, ds_error *err);

/* What one sync did (sync.c), typed: the JSON document is made from it only when asked for. */
typedef struct dsi_sync_report {
	int found, satisfied, creates, deletes, failed_calls, status_written;
	int64_t requeue_after_ms; /* -1: not queued */
	char *error;              /* what failed, upstream's words; NULL when nothing did */
} dsi_sync_report;
void dsi_sync_report_release(dsi_sync_report *r);
/* sync.c: rep gets what the sync did; *out (out may be NULL) the result document. */
int dsi_ctrl_sync(dsi_controller *c, const char *ns, const char *name, ds_time now, dsi_sync_report *rep, json_t **out,
		  ds_error *err);
/* driver.c: every key due at now, once each. out (may be NULL): the documents; fn (may be NULL)
 * sees each report (a negative return stops the run). */
typedef int (*dsi_sync_fn)(void *ctx, const char *key, const dsi_sync_report *rep, ds_error *err);
int dsi_ctrl_run(dsi_controller *c, ds_time now, int64_t *wait_ms, json_t **out, dsi_sync_fn fn, void *ctx,
		 ds_error *err);
json_t *dsi_ctrl_expectations(const dsi_controller *c, const char *key, ds_time now);

#endif
