/* The settings of the model layer (read when objects are loaded into a snapshot). */
#ifndef DSI_MODEL_OPTIONS_H
#define DSI_MODEL_OPTIONS_H

#include <jansson.h>

#include "core/optparse.h"

typedef struct dsi_model_options {
	int legacy_daemonsets; /* accept extensions/v1beta1 and apps/v1beta2 with their old defaults */
	/* objects from manifests (no metadata.uid: not served by an API server) */
	char *default_namespace; /* the namespace kubectl would give a namespaced object without one; "": none */
	int apply_defaults;      /* the API server's defaults, applied through `prepare` */
	/* not public options: */
	int lenient; /* the private snapshots of the pure functions read leniently (dsi_rd.lenient) */
	/* what the API layer (which owns the API server's defaulting, a layer above) does to a
	 * DaemonSet or Pod from a manifest before the snapshot reads it; NULL: nothing */
	int (*prepare)(json_t *obj, int kind, ds_error *err);
} dsi_model_options;

extern const dsi_opt_table dsi_model_option_table;
const dsi_model_options *dsi_model_options_default(void);

#endif
