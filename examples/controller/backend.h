/*
 * What a host of the list-watch loop (ds_controller_step(3)) does, besides the
 * transport of the syncs' writes: start the calls the library asks for, abort
 * the ones it closes, hand back what arrives, and tell the time. kubectl's own
 * write (dsrun --restart) is here too. memtransport.c (virtual time) and
 * httptransport.c (libcurl) each provide one, so dsrun.c runs one loop over both.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_EXAMPLE_BACKEND_H
#define DS_EXAMPLE_BACKEND_H

#include <daemonset.h>
#include <stddef.h>

typedef struct host_backend {
	ds_transport transport; /* the syncs' writes */
	void *self;
	/* the clock: virtual in memory, real over HTTP */
	ds_time (*now)(void *self);
	/* start the call io describes (LIST, WATCH, GET, CREATE, UPDATE); 0, or -1 when it cannot start
	 * (then it is ended at once, as failed, by the next poll) */
	int (*start)(void *self, const ds_io *io);
	/* abort call id (the library closed it) */
	void (*cancel)(void *self, uint64_t id);
	/* wait up to wait_ms (-1: until something arrives) and hand what arrived to ctrl
	 * (ds_controller_io_response, _io_data, _io_end); a negative ds_error_code from ctrl */
	int (*poll)(void *self, ds_controller *ctrl, int64_t wait_ms, ds_error *err);
	/* kubectl patch --type merge; returns a ds_transport_result */
	int (*patch)(void *self, const char *resource, const char *ns, const char *name, const char *merge_patch);
	void (*close)(void *self);
} host_backend;

#endif
