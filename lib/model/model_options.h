/* The settings of the model layer (read when objects are loaded into a snapshot). */
#ifndef DSI_MODEL_OPTIONS_H
#define DSI_MODEL_OPTIONS_H

#include "core/optparse.h"

typedef struct dsi_model_options {
	int legacy_daemonsets; /* accept extensions/v1beta1 and apps/v1beta2 with their old defaults */
	/* not a public option: the private snapshots of the pure functions read leniently (dsi_rd.lenient) */
	int lenient;
} dsi_model_options;

extern const dsi_opt_table dsi_model_option_table;
const dsi_model_options *dsi_model_options_default(void);

#endif
