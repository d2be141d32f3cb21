#include "controller/ctrl_options.h"

#include "core/alloc.h"

static const dsi_ctrl_options defaults = {.expectations_timeout_ms = 5 * 60 * 1000};

const dsi_ctrl_options *dsi_ctrl_options_default(void) { return &defaults; }

static const dsi_opt_def defs[] = {
	{"expectationsTimeout", DSI_OPT_DURATION, offsetof(dsi_ctrl_options, expectations_timeout_ms), 0, INT64_MAX,
	 NULL, NULL, NULL},
};

const dsi_opt_table dsi_ctrl_option_table = {defs, DSI_ARRAY_LEN(defs), sizeof(dsi_ctrl_options), &defaults};
