/* The settings of the controller driver. */
#ifndef DSI_CTRL_OPTIONS_H
#define DSI_CTRL_OPTIONS_H

#include <stdint.h>

#include "core/optparse.h"

typedef struct dsi_ctrl_options {
	int64_t expectations_timeout_ms; /* ExpectationsTimeout: a create or delete not observed within it is forgotten */
	/* the list-watch loop (reflector.c) */
	int64_t min_watch_timeout_ms; /* timeoutSeconds of a watch is random in [this, twice this) */
	int64_t watch_margin_ms;      /* a watch still open this long after its timeoutSeconds is closed */
	int64_t watch_idle_ms;        /* a watch that sent nothing for this long is closed; 0: never */
	int64_t list_timeout_ms;      /* a list not answered within this is closed */
	int64_t backoff_initial_ms;   /* the reflector's back-off: first delay, */
	int64_t backoff_max_ms;       /* cap, */
	int64_t backoff_reset_ms;     /* and the quiet period after which it starts over */
	int64_t relist_period_ms;     /* list again this long after the last list; 0: never */
	int64_t seed;                 /* the controller's randomness; 0: from the first step's time */
	int64_t lease_retry_ms;       /* leader election's retry period; 0: the renew deadline / 5 */
} dsi_ctrl_options;

extern const dsi_opt_table dsi_ctrl_option_table;
const dsi_ctrl_options *dsi_ctrl_options_default(void);

#endif
