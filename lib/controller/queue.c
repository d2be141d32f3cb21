#include "controller/queue.h"

#include <string.h>

/* Type.Add (client-go util/workqueue) */
void dsi_queue_add(dsi_dsstate *s, ds_time now) { dsi_queue_add_after(s, now, 0); }

/* delayingType.AddAfter (client-go util/workqueue/delaying_queue.go): no delay is an Add; a
 * delay waits apart from the queue (insert: the earlier time wins), so that a sync before it
 * comes does not cancel it */
void dsi_queue_add_after(dsi_dsstate *s, ds_time now, int64_t after_ms)
{
	if (after_ms <= 0) {
		if (!s->queued || now < s->due)
			s->due = now;
		s->queued = 1;
		return;
	}
	ds_time due = now + after_ms;
	if (!s->waiting || due < s->wait_due)
		s->wait_due = due;
	s->waiting = 1;
}

ds_time dsi_queue_due(const dsi_dsstate *s)
{
	if (s->queued && (!s->waiting || s->due <= s->wait_due))
		return s->due;
	return s->waiting ? s->wait_due : -1;
}

/* Get (queue.go): off the queue; a wait that came due by now was added to it and goes too. */
void dsi_queue_take(dsi_dsstate *s, ds_time now)
{
	s->queued = 0;
	if (s->waiting && s->wait_due <= now)
		s->waiting = 0;
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
		ds_time due = dsi_queue_due(s);
		if (due < 0)
			continue;
		ds_time bdue = best ? dsi_queue_due(best) : 0;
		if (!best || due < bdue || (due == bdue && strcmp(s->key, best->key) < 0))
			best = s;
	}
	return best;
}

int64_t dsi_queue_wait(const dsi_dstable *t, ds_time now)
{
	const dsi_dsstate *s = dsi_queue_first(t);
	if (!s)
		return -1;
	ds_time due = dsi_queue_due(s);
	return due > now ? due - now : 0;
}
