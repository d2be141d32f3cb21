/*
 * The failed-pod backoff as explicit state (client-go util/flowcontrol
 * Backoff, without jitter as the controller configures it): per key
 * "<ds uid>/<observedGeneration>/<node>", the current delay and the time of
 * the last update. Time is a parameter.
 */
#ifndef DSI_BACKOFF_H
#define DSI_BACKOFF_H

#include <jansson.h>

#include "core/error.h"

typedef struct dsi_backoff_entry {
	char *key;
	int64_t delay_ms;
	ds_time last_update;
} dsi_backoff_entry;

typedef struct dsi_backoff {
	dsi_backoff_entry *v;
	size_t n, cap;
} dsi_backoff;

void dsi_backoff_init(dsi_backoff *b);
void dsi_backoff_free(dsi_backoff *b);
int dsi_backoff_copy(const dsi_backoff *src, dsi_backoff *dst);
/* {"entries":[{"key","delay":"2s","lastUpdate":"RFC3339"}]} (text may be NULL or empty). */
int dsi_backoff_read(const char *text, size_t size, dsi_backoff *out, ds_error *err);
json_t *dsi_backoff_to_json(const dsi_backoff *b);

/* IsInBackOffSinceUpdate: an entry, not expired (older than 2 x max), and now - lastUpdate < delay. */
int dsi_backoff_in_backoff(const dsi_backoff *b, const char *key, ds_time now, int64_t max_ms);
/* Get: the current delay (0 without an entry). */
int64_t dsi_backoff_get(const dsi_backoff *b, const char *key);
/* Next: first time (or after expiry) the initial delay, then doubling up to max. -1 on OOM. */
int dsi_backoff_next(dsi_backoff *b, const char *key, ds_time now, int64_t initial_ms, int64_t max_ms);
/* GC: forget entries not updated for more than 2 x max. */
void dsi_backoff_gc(dsi_backoff *b, ds_time now, int64_t max_ms);

#endif
