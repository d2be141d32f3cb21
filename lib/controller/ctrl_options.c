#include "controller/ctrl_options.h"

#include "core/alloc.h"

/* The reflector's defaults are client-go's (tools/cache/reflector.go): defaultMinWatchTimeout 5m,
 * defaultBackoffInit 800ms, defaultBackoffMax 30s, defaultBackoffReset 2m; no periodic relist. The
 * list timeout is kube-apiserver's --request-timeout (1m), after which it ends a list itself. A
 * watch that allows bookmarks gets one about every minute from the API server's watch cache
 * (cacheWatcher.nextBookmarkTime, apiserver/pkg/storage/cacher/cache_watcher.go): one that sends
 * nothing for two minutes is hung, and is closed long before the expectations (5m) give up on
 * what it should have shown. */
static const dsi_ctrl_options defaults = {
	.expectations_timeout_ms = 5 * 60 * 1000,
	.min_watch_timeout_ms = 5 * 60 * 1000,
	.watch_margin_ms = 30 * 1000,
	.watch_idle_ms = 2 * 60 * 1000,
	.list_timeout_ms = 60 * 1000,
	.backoff_initial_ms = 800,
	.backoff_max_ms = 30 * 1000,
	.backoff_reset_ms = 2 * 60 * 1000,
	.relist_period_ms = 0,
	.seed = 0,
};

const dsi_ctrl_options *dsi_ctrl_options_default(void) { return &defaults; }

#define O(field) offsetof(dsi_ctrl_options, field)
static const dsi_opt_def defs[] = {
	{"expectationsTimeout", DSI_OPT_DURATION, O(expectations_timeout_ms), 0, INT64_MAX, NULL, NULL, NULL},
	{"minWatchTimeout", DSI_OPT_DURATION, O(min_watch_timeout_ms), 1000, INT64_MAX / 4, NULL, NULL, NULL},
	{"watchTimeoutMargin", DSI_OPT_DURATION, O(watch_margin_ms), 0, INT64_MAX / 4, NULL, NULL, NULL},
	{"watchIdleTimeout", DSI_OPT_DURATION, O(watch_idle_ms), 0, INT64_MAX / 4, NULL, NULL, NULL},
	{"listTimeout", DSI_OPT_DURATION, O(list_timeout_ms), 1, INT64_MAX / 4, NULL, NULL, NULL},
	{"reflectorBackoffInitial", DSI_OPT_DURATION, O(backoff_initial_ms), 1, INT64_MAX / 4, NULL, NULL, NULL},
	{"reflectorBackoffMax", DSI_OPT_DURATION, O(backoff_max_ms), 1, INT64_MAX / 4, NULL, NULL, NULL},
	{"reflectorBackoffReset", DSI_OPT_DURATION, O(backoff_reset_ms), 0, INT64_MAX / 4, NULL, NULL, NULL},
	{"relistPeriod", DSI_OPT_DURATION, O(relist_period_ms), 0, INT64_MAX / 4, NULL, NULL, NULL},
	{"seed", DSI_OPT_INT64, O(seed), INT64_MIN, INT64_MAX, NULL, NULL, NULL},
	{"leaseRetryPeriod", DSI_OPT_DURATION, O(lease_retry_ms), 0, INT64_MAX / 4, NULL, NULL, NULL},
};
#undef O

const dsi_opt_table dsi_ctrl_option_table = {defs, DSI_ARRAY_LEN(defs), sizeof(dsi_ctrl_options), &defaults};
