#include "pss/pss_options.h"

#include "core/alloc.h"

static const dsi_pss_options defaults = {NULL, NULL, 1};

const dsi_pss_options *dsi_pss_options_default(void) { return &defaults; }

static const char *const levels[] = {"privileged", "baseline", "restricted", NULL};

static const dsi_opt_def defs[] = {
	{"podSecurityLevel", DSI_OPT_STRING, offsetof(dsi_pss_options, level), 0, 0, levels, NULL, "restricted"},
	{"podSecurityVersion", DSI_OPT_STRING, offsetof(dsi_pss_options, version), 0, 0, NULL, NULL, "latest"},
	{"podSecurityDefaulting", DSI_OPT_BOOL, offsetof(dsi_pss_options, defaulting), 0, 1, NULL, NULL, NULL},
};

const dsi_opt_table dsi_pss_option_table = {defs, DSI_ARRAY_LEN(defs), sizeof(dsi_pss_options), &defaults};
