#include "daemon/daemon_options.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "model/labelvalid.h"

static const dsi_daemon_options defaults = {
	.burst_replicas = 250,
	.slow_start_initial_batch = 1,
	.backoff_initial_ms = 1000,
	.backoff_max_ms = 15 * 60 * 1000,
	.paused = -1,
	.sim_ready_after_ms = 10 * 1000,
	.sim_terminate_after_ms = 5 * 1000,
	.sim_step_ms = 1000,
	.sim_max_time_ms = 24LL * 3600 * 1000,
};

const dsi_daemon_options *dsi_daemon_options_default(void) { return &defaults; }

/* The order nodes are updated in (lib/daemon/syncplan.c reads it). */
static const char *check_update_order(const char *v)
{
	if (!strcmp(v, "name") || !strcmp(v, "name-desc") || (!strncmp(v, "label:", 6) && v[6]))
		return NULL;
	return "\"name\", \"name-desc\" or \"label:<key>\"";
}

/* A count or a percentage of nodes, never negative, as an IntOrString in a
 * DaemonSet spec would be written ("3", "10%"); at most INT32_MAX. */
static const char *check_count_or_percent(const char *v)
{
	static const char *want = "a non-negative integer or percentage (e.g. 3 or 10%)";
	size_t n = strspn(v, "0123456789");
	if (n == 0 || n > 10 || (v[n] && strcmp(v + n, "%") != 0))
		return want;
	return strtoll(v, NULL, 10) > INT32_MAX ? want : NULL;
}

/* A hash is a label value (controller-revision-hash), and not empty. */
static const char *check_hash(const char *v)
{
	if (*v && dsi_validate_label_value(v, strlen(v), NULL) == 0)
		return NULL;
	return "a non-empty label value (at most 63 characters: letters, digits, '-', '_', '.')";
}

#define O(field) offsetof(dsi_daemon_options, field)
static const dsi_opt_def defs[] = {
	{"burstReplicas", DSI_OPT_INT32, O(burst_replicas), 1, INT32_MAX, NULL, NULL, NULL},
	{"slowStartInitialBatchSize", DSI_OPT_INT32, O(slow_start_initial_batch), 1, INT32_MAX, NULL, NULL, NULL},
	{"backoffInitial", DSI_OPT_DURATION, O(backoff_initial_ms), 0, INT64_MAX, NULL, NULL, NULL},
	{"backoffMax", DSI_OPT_DURATION, O(backoff_max_ms), 0, INT64_MAX, NULL, NULL, NULL},
	{"updateOrder", DSI_OPT_STRING, O(update_order), 0, 0, NULL, check_update_order, NULL},
	{"partition", DSI_OPT_STRING, O(partition), 0, 0, NULL, check_count_or_percent, NULL},
	{"paused", DSI_OPT_TRISTATE, O(paused), 0, 1, NULL, NULL, NULL},
	{"rolloutNodeSelector", DSI_OPT_STRING, O(rollout_node_selector), 0, 0, NULL, NULL, NULL},
	{"simReadyAfter", DSI_OPT_DURATION, O(sim_ready_after_ms), 0, INT64_MAX, NULL, NULL, NULL},
	{"simTerminateAfter", DSI_OPT_DURATION, O(sim_terminate_after_ms), 0, INT64_MAX, NULL, NULL, NULL},
	{"simStep", DSI_OPT_DURATION, O(sim_step_ms), 1, INT64_MAX, NULL, NULL, NULL},
	{"simMaxTime", DSI_OPT_DURATION, O(sim_max_time_ms), 1, INT64_MAX, NULL, NULL, NULL},
	{"simFailNodes", DSI_OPT_STRING, O(sim_fail_nodes), 0, 0, NULL, NULL, NULL},
	{"revisionHash", DSI_OPT_STRING, O(revision_hash), 0, 0, NULL, check_hash, NULL},
};
#undef O

const dsi_opt_table dsi_daemon_option_table = {defs, DSI_ARRAY_LEN(defs), sizeof(dsi_daemon_options), &defaults};
