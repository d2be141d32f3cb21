/*
 * libdaemonset's list-watch loop (ds_controller_step(3)) hosted over the fake
 * API server of fakeapi.h: every call the library starts (lists, watches, the
 * Lease) is made on the fake and its answer handed back in pieces of random
 * sizes; the syncs' writes go through fake_transport (fakehost.h); virtual time
 * passes to the fake's next change when there is nothing to hand over.
 *
 * Between the fake and the controller sits a link - what a network or a proxy
 * is - with faults of its own, for what the API server never does itself: an
 * answer cut by a reset, an answer cut short but ended as if whole, a watch line
 * that is not JSON, a watch answered and then silent. A link fault hits the
 * call with a given index in the fake's count of calls (fake_calls(api, NULL,
 * NULL) before it), writes included, or the watch event with a given index
 * among those the link has carried. The fake's own faults (fake_add_fault,
 * fake_add_event_fault) are the server's.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_TEST_FAKELOOP_H
#define DS_TEST_FAKELOOP_H

#include "fakeapi.h"

typedef struct fake_loop fake_loop;

/* A controller over api with opts and cfg (both may be NULL), its loop not started; seed picks
 * the sizes of the pieces. NULL (with the reason in errbuf) when it cannot be made. */
fake_loop *fake_loop_new(fake_api *api, const ds_options *opts, const ds_controller_config *cfg, unsigned seed,
			 char *errbuf, size_t errlen);
void fake_loop_free(fake_loop *l);
ds_controller *fake_loop_controller(const fake_loop *l);

/* One turn of the host: step until the library waits, doing what it says (log lines are kept,
 * see fake_loop_logs); then hand over what the fake has, and when there was nothing let virtual
 * time pass first: up to what the library asked, at most max_wait_ms (-1: no limit), never past
 * the fake's next change. Returns the wait the library asked for; -2 once it stopped. Aborts
 * (abort()) on a library error: tests want to see those. */
int64_t fake_loop_turn(fake_loop *l, int64_t max_wait_ms);
/* fake_loop_turn, but a library error ends the turn with FAKE_LOOP_ERROR and the error in
 * fake_loop_error(l) instead of aborting. */
#define FAKE_LOOP_ERROR (-3)
int64_t fake_loop_try_turn(fake_loop *l, int64_t max_wait_ms);
const char *fake_loop_error(const fake_loop *l);
/* Hand answers over in pieces of chunk bytes (0, the default: sizes at random, from the seed). */
void fake_loop_set_chunk(fake_loop *l, size_t chunk);

/* The calls of the loop, for a host of its own: start one, abort one, and hand over what is due
 * (letting time pass as fake_loop_turn does). */
int fake_loop_start(fake_loop *l, const ds_io *io);
void fake_loop_cancel(fake_loop *l, uint64_t id);
int fake_loop_serve(fake_loop *l, int64_t wait_ms);

enum {
	FAKE_LINK_RESET,     /* half the answer (or of the event), then the connection drops */
	FAKE_LINK_TRUNCATE,  /* half the answer (or of the event), then it ends as if whole */
	FAKE_LINK_MALFORMED, /* events: a line that is not JSON in its place */
	FAKE_LINK_SILENT     /* calls: the status (200), then nothing; a write: no answer (a timeout) */
};
typedef struct fake_link_fault {
	int events; /* index counts the watch events the link carried; else the fake's calls */
	long index;
	int kind;
} fake_link_fault;
void fake_loop_add_link_fault(fake_loop *l, const fake_link_fault *f);
/* Link faults that hit so far. */
long fake_loop_link_hits(const fake_loop *l);
/* Watch events the link carried. */
long fake_loop_events(const fake_loop *l);
/* The index among the fake's calls of each watch the loop started, in order (borrowed). */
const json_t *fake_loop_watch_calls(const fake_loop *l);
/* Every call the syncs made through the transport, in order (borrowed): {"atMs" (since FAKE_T0),
 * "op" (list, get, create, delete, updateStatus, patch, event), "resource", "namespace"?, "name"?,
 * "result" (the ds_transport_result's name: OK, NOT_FOUND, CONFLICT, ...)}. */
const json_t *fake_loop_sync_calls(const fake_loop *l);
/* Every log line of the loop, in order (borrowed). */
const json_t *fake_loop_logs(const fake_loop *l);
/* How many log lines contain needle. */
int fake_loop_logged(const fake_loop *l, const char *needle);
/* Print the log lines as they come (debugging). */
void fake_loop_print(fake_loop *l, int on);

#endif
