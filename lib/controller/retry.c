#include "controller/retry.h"

/* splitmix64 (Steele, Lea, Flood 2014): one 64-bit state, every seed usable. */
static uint64_t next64(dsi_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void dsi_rng_seed(dsi_rng *r, uint64_t seed) { r->state = seed; }

double dsi_rng_float(dsi_rng *r) { return (double)(next64(r) >> 11) * (1.0 / 9007199254740992.0); }

/* Jitter (apimachinery pkg/util/wait/wait.go): a factor of 0 or less means 1. */
int64_t dsi_jitter(int64_t d_ms, double factor, dsi_rng *r)
{
	if (factor <= 0)
		factor = 1.0;
	return d_ms + (int64_t)(dsi_rng_float(r) * factor * (double)d_ms);
}

/* NewReflectorWithOptions (client-go tools/cache/reflector.go): Duration 800ms, Cap 30s,
 * Steps ceil(Cap/Duration), Factor 2, Jitter 1; the reset period is 2 minutes. */
void dsi_retry_init(dsi_retry *b, int64_t initial_ms, int64_t cap_ms, int64_t reset_ms)
{
	if (initial_ms < 1)
		initial_ms = 1;
	if (cap_ms < initial_ms)
		cap_ms = initial_ms;
	b->initial_ms = initial_ms;
	b->cap_ms = cap_ms;
	b->reset_ms = reset_ms;
	b->duration_ms = initial_ms;
	b->steps = (cap_ms + initial_ms - 1) / initial_ms;
	b->last = 0;
	b->stepped = 0;
	b->count = 0;
}

/* exponentialBackoffManagerImpl.getNextBackoff (apimachinery pkg/util/wait/backoff.go) for the
 * reset: the back-off starts over once no step was taken for the reset period (a quiet
 * period). client-go's reflector now uses Backoff.DelayWithReset, which starts over every
 * reset period even while failures go on; the quiet-period rule keeps an outage at the cap.
 * Then delay (backoff.go): the jittered duration, the next one doubled up to the cap. */
int64_t dsi_retry_step(dsi_retry *b, ds_time now, dsi_rng *r)
{
	if (b->stepped && now - b->last > b->reset_ms) {
		b->duration_ms = b->initial_ms;
		b->steps = (b->cap_ms + b->initial_ms - 1) / b->initial_ms;
	}
	b->last = now;
	b->stepped = 1;
	b->count++;
	int64_t d = b->duration_ms;
	if (b->steps >= 1) {
		b->steps--;
		int64_t next = d > INT64_MAX / 2 ? INT64_MAX : d * 2;
		if (next > b->cap_ms) {
			next = b->cap_ms;
			b->steps = 0;
		}
		b->duration_ms = next;
	}
	return dsi_jitter(d, 1.0, r);
}
