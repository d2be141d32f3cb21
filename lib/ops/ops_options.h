/* The settings of the node operations: kubectl drain's flags and the upgrade's batch size. */
#ifndef DSI_OPS_OPTIONS_H
#define DSI_OPS_OPTIONS_H

#include <stdint.h>

#include "core/optparse.h"
#include "pss/pss_options.h"

typedef struct dsi_ops_options {
	/* kubectl drain */
	int force;
	int ignore_daemonsets;
	int delete_emptydir_data;
	int disable_eviction;
	int64_t grace_period_seconds; /* -1: the pod's own */
	int64_t skip_wait_for_delete_timeout_seconds;
	char *pod_selector;
	char *daemonset_kinds; /* extra owner kinds treated as DaemonSets: "group/Kind,..." */
	/* upgrade */
	int32_t batch_size;
	/* audit */
	char *audit_fail_on; /* critical|high|medium|low|info|none; NULL: none */
	char *audit_ignore;  /* finding ids suppressed in every report: "id,id" */
} dsi_ops_options;

extern const dsi_opt_table dsi_ops_option_table;

/* What the operations read: the core settings, their own, and the Pod Security level and version
 * the audit evaluates against. */
typedef struct dsi_ops_cfg {
	const dsi_core_options *core;
	const dsi_ops_options *ops;
	const dsi_pss_options *pss;
} dsi_ops_cfg;
const dsi_ops_options *dsi_ops_options_default(void);

#endif
