#include "ops/ops_options.h"

#include <string.h>

#include "core/alloc.h"
#include "ops/audit_internal.h"

static const dsi_ops_options defaults = {
	.grace_period_seconds = -1,
	.batch_size = 1,
};

const dsi_ops_options *dsi_ops_options_default(void) { return &defaults; }

/* Owner kinds kubectl drain should treat as DaemonSets: "group/Kind" entries separated by commas
 * (lib/ops/drain_filters.c splits them). Group: DNS subdomain characters; Kind: letters and digits. */
static const char *check_kinds(const char *v)
{
	static const char *want = "group/Kind entries separated by commas, e.g. \"apps.kruise.io/DaemonSet\" "
				  "(\"/Kind\" for the core group)";
	for (const char *s = v; *s;) {
		s += strspn(s, ", \t");
		if (!*s)
			break;
		size_t group = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789.-");
		if (s[group] != '/')
			return want;
		size_t kind = strspn(s + group + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");
		s += group + 1 + kind;
		s += strspn(s, " \t");
		if (!kind || (*s && *s != ','))
			return want;
	}
	return NULL;
}

/* Finding ids separated by commas, each one the audit knows (a typo would silently suppress nothing). */
static const char *check_ids(const char *v)
{
	for (const char *s = v; *s;) {
		s += strspn(s, ", \t");
		size_t n = strcspn(s, ", \t");
		if (n && !dsi_audit_rule_find(s, n))
			return "finding ids separated by commas, each one of those listed in ds_object_audit(3)";
		s += n;
	}
	return NULL;
}

static const char *const fail_on_levels[] = {"critical", "high", "medium", "low", "info", "none", NULL};

#define O(field) offsetof(dsi_ops_options, field)
static const dsi_opt_def defs[] = {
	{"force", DSI_OPT_BOOL, O(force), 0, 1, NULL, NULL, NULL},
	{"ignoreDaemonSets", DSI_OPT_BOOL, O(ignore_daemonsets), 0, 1, NULL, NULL, NULL},
	{"deleteEmptyDirData", DSI_OPT_BOOL, O(delete_emptydir_data), 0, 1, NULL, NULL, NULL},
	{"disableEviction", DSI_OPT_BOOL, O(disable_eviction), 0, 1, NULL, NULL, NULL},
	{"gracePeriodSeconds", DSI_OPT_INT64, O(grace_period_seconds), -1, INT64_MAX, NULL, NULL, NULL},
	{"skipWaitForDeleteTimeoutSeconds", DSI_OPT_INT64, O(skip_wait_for_delete_timeout_seconds), 0, INT64_MAX, NULL,
	 NULL, NULL},
	{"podSelector", DSI_OPT_STRING, O(pod_selector), 0, 0, NULL, NULL, NULL},
	{"daemonSetKinds", DSI_OPT_STRING, O(daemonset_kinds), 0, 0, NULL, check_kinds, NULL},
	{"batchSize", DSI_OPT_INT32, O(batch_size), 1, INT32_MAX, NULL, NULL, NULL},
	{"auditFailOn", DSI_OPT_STRING, O(audit_fail_on), 0, 0, fail_on_levels, NULL, "none"},
	{"auditIgnore", DSI_OPT_STRING, O(audit_ignore), 0, 0, NULL, check_ids, NULL},
};
#undef O

const dsi_opt_table dsi_ops_option_table = {defs, DSI_ARRAY_LEN(defs), sizeof(dsi_ops_options), &defaults};
