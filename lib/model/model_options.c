#include "model/model_options.h"

#include "core/alloc.h"

static const dsi_model_options defaults = {.legacy_daemonsets = 0};

const dsi_model_options *dsi_model_options_default(void) { return &defaults; }

static const dsi_opt_def defs[] = {
	{"legacyDaemonSets", DSI_OPT_BOOL, offsetof(dsi_model_options, legacy_daemonsets), 0, 1, NULL, NULL, NULL},
};

const dsi_opt_table dsi_model_option_table = {defs, DSI_ARRAY_LEN(defs), sizeof(dsi_model_options), &defaults};
