#include "model/model_options.h"

#include <string.h>

#include "core/alloc.h"
#include "model/labelvalid.h"

static const dsi_model_options defaults = {.legacy_daemonsets = 0, .default_namespace = "default", .apply_defaults = 1};

const dsi_model_options *dsi_model_options_default(void) { return &defaults; }

/* A namespace is a DNS label; "" turns the defaulting off. */
static const char *check_ns(const char *v)
{
	if (!*v || dsi_validate_dns1123_label(v, strlen(v), NULL) == 0)
		return NULL;
	return "a namespace name (a DNS-1123 label), or \"\" for none";
}

static const dsi_opt_def defs[] = {
	{"legacyDaemonSets", DSI_OPT_BOOL, offsetof(dsi_model_options, legacy_daemonsets), 0, 1, NULL, NULL, NULL},
	{"defaultNamespace", DSI_OPT_STRING, offsetof(dsi_model_options, default_namespace), 0, 0, NULL, check_ns,
	 NULL},
	{"applyDefaults", DSI_OPT_BOOL, offsetof(dsi_model_options, apply_defaults), 0, 1, NULL, NULL, NULL},
};

const dsi_opt_table dsi_model_option_table = {defs, DSI_ARRAY_LEN(defs), sizeof(dsi_model_options), &defaults};
