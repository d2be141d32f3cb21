/*
 * libdaemonset's controller over the fake API server of fakeapi.h: a ds_transport(3) whose
 * callbacks are the fake's REST calls (the syncs' writes), and a host of the library's own
 * list-watch loop (ds_controller_step(3)) on virtual time: fake_host is fake_loop (fakeloop.h)
 * without link faults, one step letting virtual time pass.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_TEST_FAKEHOST_H
#define DS_TEST_FAKEHOST_H

#include "fakeapi.h"
#include "fakeloop.h"

/* Fill t with callbacks into api (t->size set, user_data = api). */
void fake_transport(fake_api *api, ds_transport *t);
/* An answer of the fake as a ds_transport_result, as examples/controller/httptransport.c
 * maps HTTP answers: 2xx OK, 404, 409 (AlreadyExists or a conflict), 422, then what may
 * pass (429, 5xx, no answer) and what will not. */
int fake_transport_result(int code, const char *body);

typedef struct fake_host {
	fake_api *api;
	ds_controller *ctrl; /* the loop's controller (fake_loop_controller) */
	fake_loop *loop;     /* the host of ds_controller_step on the fake */
	size_t chunk;        /* answers are handed over in pieces of this size (0: sizes at random) */
	int lists;           /* the most lists one resource's reflector made (the first included) */
	long events;         /* watch events handed over */
	const json_t *calls; /* every call the syncs made through the transport (fake_loop_sync_calls) */
	char error[1024];    /* the library error that failed the last step */
} fake_host;

/* A controller (opts and cfg may be NULL) over api, its loop run until it has listed and
 * watches (or, when the fake refuses, until it retries). 0, or -1 with h->error set (the
 * controller could not be made, or the loop failed). */
int fake_host_start(fake_host *h, fake_api *api, const ds_options *opts, const ds_controller_config *cfg);
/* One step: turns of the loop (fake_loop_try_turn: the library's calls made on the fake,
 * the due syncs run, the answers handed over) until virtual time has passed: up to step_ms,
 * less when the library or the cluster acts sooner. Returns the number of turns, or -1 on a
 * library error (h->error). */
int fake_host_step(fake_host *h, int64_t step_ms);
void fake_host_stop(fake_host *h);

#endif
