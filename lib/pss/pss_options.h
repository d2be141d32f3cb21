/* The settings of the Pod Security Standards layer: the level and version to evaluate against. */
#ifndef DSI_PSS_OPTIONS_H
#define DSI_PSS_OPTIONS_H

#include "core/optparse.h"

typedef struct dsi_pss_options {
	char *level;   /* "privileged", "baseline", "restricted"; NULL: restricted */
	char *version; /* "latest" or "v1.N"; NULL: latest */
	int defaulting; /* the API server's defaults (volumes, host ports) before the checks, as admission sees the pod */
} dsi_pss_options;

extern const dsi_opt_table dsi_pss_option_table;
const dsi_pss_options *dsi_pss_options_default(void);

#endif
