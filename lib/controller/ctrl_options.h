/* The settings of the controller driver. */
#ifndef DSI_CTRL_OPTIONS_H
#define DSI_CTRL_OPTIONS_H

#include <stdint.h>

#include "core/optparse.h"

typedef struct dsi_ctrl_options {
	int64_t expectations_timeout_ms; /* ExpectationsTimeout: a create or delete not observed within it is forgotten */
} dsi_ctrl_options;

extern const dsi_opt_table dsi_ctrl_option_table;
const dsi_ctrl_options *dsi_ctrl_options_default(void);

#endif
