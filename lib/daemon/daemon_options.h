/* The settings of the DaemonSet layer: the controller's planning constants, the opt-in advanced
 * rollout controls (OpenKruise semantics) and the rollout simulation's lifecycle model. */
#ifndef DSI_DAEMON_OPTIONS_H
#define DSI_DAEMON_OPTIONS_H

#include <stdint.h>

#include "core/optparse.h"

typedef struct dsi_daemon_options {
	/* planning (kube-controller-manager's constants) */
	int32_t burst_replicas;
	int32_t slow_start_initial_batch;
	int64_t backoff_initial_ms;
	int64_t backoff_max_ms;
	/* advanced rollout controls (OpenKruise semantics, opt-in) */
	char *partition;             /* int or percent; NULL = not set */
	int paused;                  /* -1 unset, 0, 1 */
	char *rollout_node_selector; /* label selector (JSON or string form); NULL = not set */
	char *update_order;          /* NULL, "name", "name-desc" or "label:<key>" */
	/* rollout simulation */
	int64_t sim_ready_after_ms;
	int64_t sim_terminate_after_ms;
	int64_t sim_step_ms;
	int64_t sim_max_time_ms;
	char *sim_fail_nodes; /* comma-separated node names whose new pods never become ready */
	/* the template's hash when no ControllerRevision matches it (a dump without them); NULL: computed */
	char *revision_hash;
} dsi_daemon_options;

extern const dsi_opt_table dsi_daemon_option_table;

/* What a sync, its status and the rollout simulation read: the core settings and the layer's own. */
typedef struct dsi_daemon_cfg {
	const dsi_core_options *core;
	const dsi_daemon_options *daemon;
} dsi_daemon_cfg;
const dsi_daemon_options *dsi_daemon_options_default(void);

#endif
