#include "controller/queue.h"

#include <string.h>

/* Type.Add (client-go util/workqueue) */
void dsi_queue_add(dsi_dsstate *s, ds_time now) { dsi_queue_add_after(s, now, 0); }

/* delayingType.AddAfter (client-go util/workqueue): the earlier time wins */
void dsi_queue_add_after(dsi_dsstate *s, ds_time now, int64_t after_ms)
{
	if (after_ms < 0)
		after_ms = 0;
	ds_time due = now + after_ms;
	if (!s->queued || due < s->due)
		s->due = due;
	s->queued = 1;
}

/* ItemExponentialFailureRateLimiter.When (client-go util/workqueue/default_rate_limiters.go) */
int64_t dsi_queue_add_rate_limited(dsi_dsstate *s, ds_time now, int64_t base_ms, int64_t max_ms)
{
	int64_t delay = base_ms;
	for (uint32_t i = 0; i < s->failures && delay < max_ms; i++)
		delay = delay > max_ms / 2 ? max_ms : delay * 2;
	if (delay > max_ms)
		delay = max_ms;
	if (s->failures < UINT32_MAX)
		s->failures++;
	dsi_queue_add_after(s, now, delay);
	return delay;
}

/* ItemExponentialFailureRateLimiter.Forget */
void dsi_queue_forget(dsi_dsstate *s) { s->failures = 0; }

dsi_dsstate *dsi_queue_first(const dsi_dstable *t)
{
	dsi_dsstate *best = NULL;
	for (size_t i = 0; i < t->n; i++) {
		dsi_dsstate *s = t->all[i];
		if (!s->queued)
			continue;
		if (!best || s->due < best->due || (s->due == best->due && strcmp(s->key, best->key) < 0))
			best = s;
	}
	return best;
}

int64_t dsi_queue_wait(const dsi_dstable *t, ds_time now)
{
	const dsi_dsstate *s = dsi_queue_first(t);
	if (!s)
		return -1;
	return s->due > now ? s->due - now : 0;
}
