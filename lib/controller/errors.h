/* Errors of a sync as upstream aggregates them (apimachinery util/errors NewAggregate). */
#ifndef DSI_CTRL_ERRORS_H
#define DSI_CTRL_ERRORS_H

#include <jansson.h>

#include "core/error.h"

/* Append a formatted message to errs (a JSON array of strings); -1 on OOM. */
int dsi_errs_add(json_t *errs, const char *fmt, ...) DSI_PRINTF(2, 3);
/* aggregate.Error(): "" for none, the message for one, "[a, b]" for several
 * (duplicates dropped). New string or NULL on OOM. */
char *dsi_errs_message(const json_t *errs);

#endif
