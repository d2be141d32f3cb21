/* The settings of the API-server layer: how strictly the fields of a manifest are checked. */
#ifndef DSI_APISERVER_OPTIONS_H
#define DSI_APISERVER_OPTIONS_H

#include "core/optparse.h"

/* The fieldValidation query parameter of the API (and kubectl's --validate). */
typedef enum dsi_field_validation {
	DSI_FV_STRICT, /* unknown and duplicate fields fail the request (kubectl's default) */
	DSI_FV_WARN,   /* they come back as warnings (the API server's default without the parameter) */
	DSI_FV_IGNORE, /* unknown fields are dropped, the last of duplicate fields is kept, silently */
} dsi_field_validation;

typedef struct dsi_apiserver_options {
	char *field_validation; /* "Strict", "Warn", "Ignore"; NULL: Strict */
} dsi_apiserver_options;

extern const dsi_opt_table dsi_apiserver_option_table;
const dsi_apiserver_options *dsi_apiserver_options_default(void);

/* The level the options name (NULL: the defaults). */
dsi_field_validation dsi_field_validation_of(const dsi_apiserver_options *o);
/* "Strict", "Warn" or "Ignore". */
const char *dsi_field_validation_name(dsi_field_validation v);

#endif
