/*
 * What a host loop needs from where the objects live, besides the transport:
 * the time, the watch, kubectl's own writes, and the host's own calls (the
 * Lease of leader election, leader.c). memtransport.c and
 * httptransport.c each provide one, so dsrun.c runs unchanged against both.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_EXAMPLE_BACKEND_H
#define DS_EXAMPLE_BACKEND_H

#include <daemonset.h>
#include <stddef.h>

typedef struct host_backend {
	ds_transport transport;
	void *self;
	/* the clock: virtual in memory, real over HTTP */
	ds_time (*now)(void *self);
	/* up to wait_ms for watch events (newline-delimited, free()); *relist: list again */
	char *(*wait)(void *self, long wait_ms, size_t *len, int *relist);
	/* after a list: watch resource from resourceVersion rv (NULL: nothing to do) */
	int (*watch)(void *self, const char *resource, const char *rv);
	/* kubectl patch --type merge; returns a ds_transport_result */
	int (*patch)(void *self, const char *resource, const char *ns, const char *name, const char *merge_patch);
	/* the host's own call: "GET" or "PUT" (body: the whole object, metadata.resourceVersion set)
	 * of ns/name, or "POST" (body) to the collection; returns a ds_transport_result, and in *out
	 * the answer (the object, or a Status; free(); may be NULL) */
	int (*request)(void *self, const char *method, const char *resource, const char *ns, const char *name,
		       const char *body, char **out);
	void (*close)(void *self);
} host_backend;

#endif
