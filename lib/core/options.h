/* The settings behind ds_options; every layer reads them from here. */
#ifndef DSI_OPTIONS_H
#define DSI_OPTIONS_H

#include <stdint.h>

#include "core/limits.h"
#include "daemonset/common.h"

/* Feature gates (upstream names), one bit each. */
enum {
	DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS = 1u << 0, /* alpha 1.35, off */
	DSI_GATE_POD_LEVEL_RESOURCES = 1u << 1,                   /* beta 1.34, on */
	DSI_GATE_SIDECAR_CONTAINERS = 1u << 2,                    /* GA, on */
};

typedef struct dsi_options {
	int k8s_minor;  /* kubernetesVersion 1.<minor> */
	unsigned gates; /* DSI_GATE_* */
	/* loading */
	dsi_limits limits;
	int legacy_daemonsets; /* accept extensions/v1beta1 and apps/v1beta2 with their old defaults */
	/* planning */
	int32_t burst_replicas;
	int32_t slow_start_initial_batch;
	int64_t backoff_initial_ms;
	int64_t backoff_max_ms;
	int64_t expectations_timeout_ms;
	/* advanced rollout controls (OpenKruise semantics, opt-in) */
	char *partition;             /* int or percent; NULL = not set */
	int paused;                  /* -1 unset, 0, 1 */
	char *rollout_node_selector; /* label selector (JSON or string form); NULL = not set */
	char *update_order;          /* NULL, "name" or "label:<key>" */
	/* drain */
	int force;
	int ignore_daemonsets;
	int delete_emptydir_data;
	int disable_eviction;
	int64_t grace_period_seconds;
	int64_t skip_wait_for_delete_timeout_seconds;
	char *pod_selector;
	char *daemonset_kinds; /* extra owner kinds treated as DaemonSets: "group/Kind,..." */
	/* upgrade */
	int32_t batch_size;
	/* audit */
	char *pss_level;
	char *pss_version;
	/* rollout simulation */
	int64_t sim_ready_after_ms;
	int64_t sim_terminate_after_ms;
	int64_t sim_step_ms;
	int64_t sim_max_time_ms;
	char *sim_fail_nodes; /* comma-separated node names whose new pods never become ready */
} dsi_options;

struct ds_options {
	dsi_options v;
};

/* A new set equal to src (the defaults when src is NULL), for holders that
 * outlive the caller's options. 0 or DS_ENOMEM. */
int dsi_options_dup(const ds_options *src, ds_options **out);
/* The name of option i (0, 1, ...), NULL past the last. */
const char *dsi_options_name(size_t i);
/* The defaults (upstream's current defaults). */
const dsi_options *dsi_options_default(void);
/* opts ? &opts->v : defaults */
static inline const dsi_options *dsi_opts(const ds_options *opts) { return opts ? &opts->v : dsi_options_default(); }
static inline int dsi_gate(const dsi_options *o, unsigned gate) { return (o->gates & gate) != 0; }

/* Go time.ParseDuration into milliseconds (sub-millisecond parts truncated). */
int dsi_parse_duration_ms(const char *s, int64_t *out);

#endif
