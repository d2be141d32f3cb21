/*
 * A ds_transport(3) over the Kubernetes REST API with libcurl: by default
 * against `kubectl proxy` on http://127.0.0.1:8001, or in-cluster with the
 * service account's token and CA (the token read again before every request,
 * as bound tokens rotate; tests point DSRUN_SERVICEACCOUNT_DIR at another
 * directory than /var/run/secrets/kubernetes.io/serviceaccount). Watches run
 * on a curl multi handle, so a single-threaded host polls them between syncs.
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
	long timeout_ms;      /* per request (0: 30 s) */
} http_options;

/* NULL on failure, with the reason in errbuf. */
http_client *http_new(const http_options *o, char *errbuf, size_t errlen);
void http_free(http_client *h);
/* Fill t with callbacks into h (t->size set, user_data = h). */
void http_transport(http_client *h, ds_transport *t);

/* Watch resource (in namespace_, NULL: all) from resourceVersion rv: GET ...?watch=1. */
int http_watch(http_client *h, const char *resource, const char *namespace_, const char *rv);
/* Wait up to timeout_ms for watch events; the complete ones are returned as
 * newline-delimited JSON (free with free(); NULL when none). A watch that ends
 * is started again from the last resourceVersion it delivered; *relist is set
 * when the server says that version is gone (410): resync, then watch again. */
char *http_poll(http_client *h, long timeout_ms, size_t *len, int *relist);
/* Stop every watch (before watching again after a relist). */
void http_unwatch(http_client *h);

/* A merge patch of the host's own (kubectl patch --type merge). Returns a ds_transport_result. */
int http_patch(http_client *h, const char *resource, const char *namespace_, const char *name, const char *patch);

/* A host backend over a new client: real time, watches polled with libcurl. */
int http_backend(const http_options *o, host_backend *b, char *errbuf, size_t errlen);

#endif
