/*
 * The controller's randomness and its back-off, both with time as a parameter:
 * a seeded generator (so that tests are deterministic, and replicas given
 * different seeds spread out), and apimachinery's exponential back-off with
 * jitter (wait.Backoff), as client-go's reflector configures it.
 */
#ifndef DSI_CTRL_RETRY_H
#define DSI_CTRL_RETRY_H

#include <stdint.h>

#include "daemonset/common.h"

typedef struct dsi_rng {
	uint64_t state;
} dsi_rng;

void dsi_rng_seed(dsi_rng *r, uint64_t seed);
/* A uniform value in [0, 1). */
double dsi_rng_float(dsi_rng *r);

/* wait.Jitter: d plus up to factor * d at random. */
int64_t dsi_jitter(int64_t d_ms, double factor, dsi_rng *r);

typedef struct dsi_retry {
	int64_t initial_ms, cap_ms, reset_ms;
	int64_t duration_ms; /* the next step's base */
	int64_t steps;       /* steps left before the duration stays put */
	ds_time last;        /* when the last step was taken */
	int stepped;         /* a step was taken since the last reset */
	uint64_t count;      /* steps taken in all */
} dsi_retry;

/* The reflector's back-off: initial, doubled at each step up to cap, jitter 1.0. */
void dsi_retry_init(dsi_retry *b, int64_t initial_ms, int64_t cap_ms, int64_t reset_ms);
/* The next delay at now. */
int64_t dsi_retry_step(dsi_retry *b, ds_time now, dsi_rng *r);

#endif
