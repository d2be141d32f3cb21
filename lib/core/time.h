/* RFC 3339 timestamps as metav1.Time reads and writes them. */
#ifndef DSI_TIME_H
#define DSI_TIME_H

#include <stddef.h>

#include "daemonset/common.h"

/* Go time.Parse(time.RFC3339, s) semantics; returns 0 or DS_EVALUE with a message. */
int dsi_time_parse(const char *s, size_t n, ds_time *out, ds_error *err);
/* Days since 1970-01-01 for a proleptic Gregorian date. */
/* RFC 3339 in UTC, whole seconds, or milliseconds when t has a fraction (ds_time_format(3));
 * buf needs 32 bytes. The length written, or DS_EARG. */
int dsi_time_format(ds_time t, char *buf, size_t size);
int64_t dsi_days_from_civil(int64_t y, unsigned m, unsigned d);

#endif
