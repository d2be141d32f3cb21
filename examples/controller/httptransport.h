/*
 * The Kubernetes REST API with libcurl, for a host of the list-watch loop
 * (ds_controller_step(3)) and for ds_transport(3): by default against `kubectl
 * proxy` on http://127.0.0.1:8001, or in-cluster with the service account's
 * token and CA (the token read again before every request, as bound tokens
 * rotate; tests point DSRUN_SERVICEACCOUNT_DIR at another directory than
 * /var/run/secrets/kubernetes.io/serviceaccount).
 *
 * One thread, one curl multi handle, nothing blocks: the loop's calls (lists,
 * watches, the Lease) and the syncs' writes all run on it; bytes go to the
 * library as they arrive, never collected into a whole reply, so the
 * library's maxDocumentBytes bounds what is held. TLS is verified; redirects
 * are not followed; the bearer token goes into the Authorization header only
 * and is never printed.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_EXAMPLE_HTTPTRANSPORT_H
#define DS_EXAMPLE_HTTPTRANSPORT_H

#include <daemonset.h>
#include <stddef.h>

#include "backend.h"

typedef struct http_client http_client;

typedef struct http_options {
	const char *base_url; /* NULL: http://127.0.0.1:8001 (kubectl proxy) */
	int in_cluster;       /* https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT, token and CA
			       * from /var/run/secrets/kubernetes.io/serviceaccount (tests only: from
			       * $DSRUN_SERVICEACCOUNT_DIR, read by http_new) */
	long timeout_ms;      /* per write (0: 30 s); the loop's calls get theirs from the library */
} http_options;

/* NULL on failure, with the reason in errbuf. */
http_client *http_new(const http_options *o, char *errbuf, size_t errlen);
void http_free(http_client *h);
/* Fill t with callbacks into h (t->size set, user_data = h). */
void http_transport(http_client *h, ds_transport *t);

/* The loop's calls: start one, abort one, and hand what arrived to ctrl (waiting up to wait_ms,
 * -1: until something arrives). */
int http_start(http_client *h, const ds_io *io);
void http_cancel(http_client *h, uint64_t id);
int http_poll(http_client *h, ds_controller *ctrl, int64_t wait_ms, ds_error *err);

/* A merge patch of the host's own (kubectl patch --type merge). Returns a ds_transport_result. */
int http_patch(http_client *h, const char *resource, const char *namespace_, const char *name, const char *patch);

/* A host backend over a new client: real time. */
int http_backend(const http_options *o, host_backend *b, char *errbuf, size_t errlen);

#endif
