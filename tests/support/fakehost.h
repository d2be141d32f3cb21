/*
 * libdaemonset's controller driver over the fake API server of fakeapi.h, as a host
 * program runs it today: a ds_transport(3) whose callbacks are the fake's REST calls,
 * and the host's loop - list (ds_controller_resync), watch each resource from the
 * resourceVersion its list ended at, feed the watch bytes to ds_controller_apply_events
 * in pieces of any size, run the due syncs, let virtual time pass; list again after a
 * 410 or an event the controller refused, watch again from the last resourceVersion
 * seen when a stream ends.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_TEST_FAKEHOST_H
#define DS_TEST_FAKEHOST_H

#include "fakeapi.h"

/* Fill t with callbacks into api (t->size set, user_data = api). */
void fake_transport(fake_api *api, ds_transport *t);
/* An answer of the fake as a ds_transport_result, as examples/controller/httptransport.c
 * maps HTTP answers: 2xx OK, 404, 409 (AlreadyExists or a conflict), 422, then what may
 * pass (429, 5xx, no answer) and what will not. */
int fake_transport_result(int code, const char *body);

#define FAKE_HOST_WATCHES 4 /* nodes, pods, daemonsets, controllerrevisions */

typedef struct fake_host {
	fake_api *api;
	ds_controller *ctrl;
	size_t chunk; /* watch bytes are read and fed in pieces of this size (0: 4096) */
	fake_watch *watch[FAKE_HOST_WATCHES];
	char *rv[FAKE_HOST_WATCHES];   /* the last resourceVersion each watch delivered */
	char *part[FAKE_HOST_WATCHES]; /* the start of an event not yet complete */
	size_t part_len[FAKE_HOST_WATCHES];
	int need_list;
	int lists;        /* lists made (the first one included) */
	long syncs;       /* syncs run */
	long events;      /* watch events fed */
	json_t *last;     /* the result documents of the last run that synced something */
	json_t *acted;    /* ... and of the last run whose syncs made API calls */
	char error[1024]; /* the last problem the host met (a failed list, a refused event) */
} fake_host;

/* A controller (opts and cfg may be NULL) over api, listed and watching. 0, or -1 with
 * h->error set (the controller could not be made). A failed first list is retried by
 * the next step. */
int fake_host_start(fake_host *h, fake_api *api, const ds_options *opts, const ds_controller_config *cfg);
/* Read every watch and feed what came to the controller. */
void fake_host_feed(fake_host *h);
/* One turn of the loop: list again if needed, run the syncs due now, feed the watches,
 * then let up to step_ms of virtual time pass (less when the controller or the cluster
 * acts sooner) and feed again. Returns the number of syncs run, or -1 on a library
 * error (h->error). */
int fake_host_step(fake_host *h, int64_t step_ms);
void fake_host_stop(fake_host *h);

#endif
