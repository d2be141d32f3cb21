#include "apiserver/apiserver_options.h"

#include <string.h>

#include "core/alloc.h"

static const dsi_apiserver_options defaults = {NULL};

const dsi_apiserver_options *dsi_apiserver_options_default(void) { return &defaults; }

static const char *const names[] = {"Strict", "Warn", "Ignore"};

const char *dsi_field_validation_name(dsi_field_validation v) { return names[v]; }

dsi_field_validation dsi_field_validation_of(const dsi_apiserver_options *o)
{
	const char *v = o ? o->field_validation : NULL;
	for (size_t i = 0; v && i < DSI_ARRAY_LEN(names); i++)
		if (strcmp(v, names[i]) == 0)
			return (dsi_field_validation)i;
	return DSI_FV_STRICT;
}

/* The API's values, spelt as the API spells them (kubectl's strict/warn/ignore/true/false are the
 * CLI's to map). */
static const char *check_level(const char *v)
{
	for (size_t i = 0; i < DSI_ARRAY_LEN(names); i++)
		if (strcmp(v, names[i]) == 0)
			return NULL;
	return "Strict, Warn or Ignore (the API's fieldValidation values)";
}

static const dsi_opt_def defs[] = {
	{"fieldValidation", DSI_OPT_STRING, offsetof(dsi_apiserver_options, field_validation), 0, 0, NULL, check_level,
	 "Strict"},
};

const dsi_opt_table dsi_apiserver_option_table = {defs, DSI_ARRAY_LEN(defs), sizeof(dsi_apiserver_options), &defaults};
