/*
 * A fake Kubernetes API server for tests: in memory, deterministic, on a
 * virtual clock. It answers as kube-apiserver answers where the tests depend
 * on it (status codes and Status bodies, one global resourceVersion counter,
 * generateName, uid and resourceVersion preconditions, the status
 * subresource, DaemonSet defaulting, validation and generation bookkeeping,
 * graceful deletion, finalizers, owner references and garbage collection,
 * eviction with PodDisruptionBudgets, label and field selectors, paginated
 * lists, watches with bookmarks and 410 Gone), and it runs the three other
 * parts of a cluster the DaemonSet tests need: a scheduler (kube-scheduler's
 * filters, through libdaemonset's ds_scheduler_filter), a kubelet and a
 * garbage collector. Faults can be injected into any call and any watch event.
 *
 * The calls are REST calls, not a client's: the shape of a request and of
 * its answer (an HTTP status code and a JSON body), so that any client can be
 * put on top: fakehost.h's ds_transport(3) adapter, the HTTP server of
 * fakeserver.c, or a list-watch loop fed with the bytes of fake_watch_read in
 * whatever pieces it likes. README.md in this directory is the guide.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_TEST_FAKEAPI_H
#define DS_TEST_FAKEAPI_H

#include <daemonset.h>
#include <jansson.h>
#include <stddef.h>

#define FAKE_T0 1796137200000LL /* 2026-12-01T15:00:00Z, the clock of a new fake unless told */

/* What a call returns instead of an HTTP status code when no answer came (a fault). */
#define FAKE_ETIMEDOUT (-1)    /* the client gave up waiting (the request may have taken effect) */
#define FAKE_ECONNRESET (-2)   /* the connection broke before an answer */
#define FAKE_ECONNREFUSED (-3) /* nothing reached the server */

typedef struct fake_api fake_api;
typedef struct fake_watch fake_watch;

typedef struct fake_options {
	ds_time now;               /* the virtual clock at start (0: FAKE_T0) */
	unsigned seed;             /* generateName suffixes (0: 1) */
	size_t watch_window;       /* watch events kept; a watch or a continued list from before them: 410 (0: 10000) */
	int64_t schedule_after_ms; /* the scheduler looks at a pod this long after its creation (0: at once) */
	int64_t ready_after_ms;    /* the kubelet runs a bound pod and reports it Ready this long after binding
				    * (0: 1000), plus its readiness probe's initialDelaySeconds (negative: no
				    * kubelet, pods stay Pending as in upstream's integration tests, where the test
				    * marks them Ready) */
	int64_t bookmark_every_ms; /* a BOOKMARK on watches that allow them, this often (0: 60000) */
	int no_scheduler;          /* pods stay unbound unless created with spec.nodeName */
	int no_gc;                 /* no garbage collector (upstream's integration tests run none) */
} fake_options;

/* A new fake (o may be NULL: the defaults). NULL when out of memory. */
fake_api *fake_new(const fake_options *o);
/* Frees the fake and every watch still open on it. */
void fake_free(fake_api *api);

/*
 * Setup: store the objects of a JSON or YAML text (one object, a List, a
 * stream) as they are, with what the server adds (uid, resourceVersion,
 * creationTimestamp, namespace "default", DaemonSet defaults). Not an API
 * call (no faults, no admission), but watches see ADDED or MODIFIED events.
 * 0, or -1 with the reason in errbuf.
 */
int fake_load(fake_api *api, const char *text, size_t len, char *errbuf, size_t errlen);

/* ---- the REST API ------------------------------------------------------------------
 * Each call returns the HTTP status code of the answer (200, 201, 404, 409, 422, ...)
 * or a FAKE_E* code, and puts its body in *out (may be NULL): the object, a List, or a
 * Status, as JSON text (free()). resource is the REST resource ("pods", "daemonsets",
 * ...; fake_resources() lists them); ns is NULL for cluster-scoped resources and for
 * lists and watches across namespaces. */

typedef struct fake_list_opts {
	const char *label_selector; /* labels.Parse syntax, NULL: everything */
	const char *field_selector; /* metadata.name, metadata.namespace, spec.nodeName, status.phase (=, ==, !=) */
	long limit;                 /* > 0: pages of this many, with metadata.continue */
	const char *continue_;      /* the token of the previous page */
} fake_list_opts;

int fake_list(fake_api *api, const char *resource, const char *ns, const fake_list_opts *o, char **out);
int fake_get(fake_api *api, const char *resource, const char *ns, const char *name, char **out);
/* POST to the collection (generateName, AlreadyExists, validation). */
int fake_create(fake_api *api, const char *resource, const char *ns, const char *body, char **out);
/* PUT of the object (subresource NULL) or of its "status" (metadata.resourceVersion: a
 * precondition when set; the other half of the object is kept as stored). */
int fake_update(fake_api *api, const char *resource, const char *ns, const char *name, const char *subresource,
		const char *body, char **out);
/* PATCH: patch_type "application/merge-patch+json", "application/strategic-merge-patch+json"
 * or "application/json-patch+json" (a 415 otherwise); subresource NULL or "status". */
int fake_patch(fake_api *api, const char *resource, const char *ns, const char *name, const char *subresource,
	       const char *patch_type, const char *body, char **out);
/* DELETE with DeleteOptions (JSON, may be NULL): preconditions (uid, resourceVersion),
 * gracePeriodSeconds, propagationPolicy (Background, Foreground, Orphan), orphanDependents. */
int fake_delete(fake_api *api, const char *resource, const char *ns, const char *name, const char *options, char **out);
int fake_delete_collection(fake_api *api, const char *resource, const char *ns, const fake_list_opts *sel,
			   const char *options, char **out);
/* POST pods/NAME/eviction (a policy/v1 Eviction): 429 when a PodDisruptionBudget forbids it. */
int fake_evict(fake_api *api, const char *ns, const char *name, const char *body, char **out);

/* ---- watches ------------------------------------------------------------------------ */

typedef struct fake_watch_opts {
	const char *label_selector, *field_selector; /* as for lists; objects moving out are DELETED, in ADDED */
	int bookmarks;                               /* allowWatchBookmarks */
	int send_initial_events;                     /* sendInitialEvents: ADDED for each object, then a BOOKMARK
						      * with the k8s.io/initial-events-end annotation */
	int64_t timeout_ms;                          /* timeoutSeconds: the server ends the watch then (0: never) */
} fake_watch_opts;

/*
 * Watch resource (in ns, NULL: all) from resourceVersion rv: the events of every
 * change after rv, as kube-apiserver's watch cache sends them. rv NULL, "" or "0":
 * first an ADDED event for each object there is (then the changes). An rv older than
 * the events kept gives a stream with one ERROR event (410 Expired, "too old resource
 * version: R (O)") that then ends. NULL (with *code and *out, a Status) when the
 * request is refused (an unknown resource, a fault). The fake owns the stream:
 * fake_watch_close or fake_free ends it.
 */
fake_watch *fake_watch_open(fake_api *api, const char *resource, const char *ns, const char *rv,
			    const fake_watch_opts *o, int *code, char **out);
/* Up to n bytes of the stream: watch events, one JSON object a line; a line may be
 * cut anywhere and go on at the next read. 0 when nothing is due now. */
size_t fake_watch_read(fake_watch *w, char *buf, size_t n);
/* 1 once the server ended the stream and every byte of it was read. */
int fake_watch_done(const fake_watch *w);
void fake_watch_close(fake_watch *w);

/* ---- time, and the cluster's other parts ------------------------------------------------- */

ds_time fake_now(const fake_api *api);
/* Move the clock to now (never back): the scheduler binds pods, the kubelet starts them
 * and reports them Ready, graceful deletions end, the garbage collector deletes
 * dependents of deleted owners, bookmarks and delayed events come due. */
void fake_advance(fake_api *api, ds_time now);
/* When something happens next on its own (a pod gets Ready, a deletion ends, a delayed
 * event comes): a time after now, or -1 when nothing will. */
ds_time fake_next_due(const fake_api *api);

/* The kubelet of a node reports a pod's phase ("Running", "Succeeded", "Failed"); Ready
 * follows (true only when Running). 0, or the HTTP code of the status write. */
int fake_pod_set_phase(fake_api *api, const char *ns, const char *name, const char *phase);
/* A broken node: its kubelet never starts pods (they stay Pending). */
void fake_node_break(fake_api *api, const char *node, int broken);
/* An image no registry has: pods with a container of it stay Pending (ErrImagePull). */
void fake_image_missing(fake_api *api, const char *image, int missing);
/* The kubelet's readiness probe of a running pod starts failing (ready 0) or passing again
 * (Ready and ContainersReady flip, with their lastTransitionTime). 0, or 404. */
int fake_pod_set_ready(fake_api *api, const char *ns, const char *name, int ready);

/* ---- faults ------------------------------------------------------------------------------
 * A call fault hits calls of op ("list", "watch", "get", "create", "update",
 * "updateStatus", "patch", "patchStatus", "delete", "deleteCollection", "evict"; NULL: any)
 * on resource (NULL: any): it lets skip of them pass, then hits the next count (-1: all).
 * A hit call answers code (an HTTP code with a Status body, or FAKE_E*) - after doing
 * its work when executed is set (the answer is lost, not the write) - and delay_ms of
 * virtual time passes first (code 0: only the delay, or only the duplicate; the call
 * answers as it would). */
typedef struct fake_fault {
	const char *op, *resource;
	long skip, count;
	int code;
	int executed;
	int64_t delay_ms;
	const char *message; /* the Status message (NULL: one naming the fault) */
	int duplicate;       /* a write reaches the server twice (repeated on the way): it is done twice, the
			      * first answer comes back (a create with generateName makes two objects) */
} fake_fault;
void fake_add_fault(fake_api *api, const fake_fault *f);

/* A watch-event fault hits the events watches of resource (NULL: any) deliver, counted
 * over every stream: skip pass, the next count (-1: all) are hit. */
enum {
	FAKE_EVENT_DROP,      /* the stream never sends it */
	FAKE_EVENT_DUPLICATE, /* sent twice */
	FAKE_EVENT_DELAY,     /* held back delay_ms (with everything after it on that stream) */
	FAKE_EVENT_CLOSE,     /* the stream ends before it (a connection reset) */
	FAKE_EVENT_EXPIRE     /* an ERROR 410 Expired instead, and the stream ends */
};
typedef struct fake_event_fault {
	const char *resource;
	long skip, count;
	int kind;
	int64_t delay_ms;
} fake_event_fault;
void fake_add_event_fault(fake_api *api, const fake_event_fault *f);
void fake_clear_faults(fake_api *api);
/* Forget the watch history: watches and continued lists from before now get 410. */
void fake_compact(fake_api *api);
/* The server ends every watch (a restart, a load balancer's timeout). */
void fake_close_watches(fake_api *api);

/* ---- what tests look at -------------------------------------------------------------------- */

/* Calls made so far of op on resource (either NULL: any). */
long fake_calls(const fake_api *api, const char *op, const char *resource);
/* Call and watch-event faults that hit so far. */
long fake_fault_hits(const fake_api *api);
/* The current resourceVersion (the global counter). */
unsigned long long fake_resource_version(const fake_api *api);
/* The stored objects of a resource, borrowed: {"ns/name" or "name": object}. */
const json_t *fake_objects(const fake_api *api, const char *resource);
/* One stored object (borrowed), or NULL. */
const json_t *fake_object(const fake_api *api, const char *resource, const char *ns, const char *name);
/* The served resources (new reference): [{"name","kind","group","version","namespaced",
 * "shortNames","subresources"}], for discovery. */
json_t *fake_resources(void);
/* Called after every change the fake makes (type "ADDED", "MODIFIED", "DELETED"; obj as
 * stored, borrowed), so that a test can check an invariant at every single write. */
typedef void (*fake_observer)(void *user_data, const char *type, const char *resource, const json_t *obj);
void fake_observe(fake_api *api, fake_observer fn, void *user_data);

/* The uid of obj's controller owner reference, or NULL. */
const char *fake_controller_uid(const json_t *obj);
/* The node a pod is bound to, or else the node its nodeAffinity pins it to (matchFields
 * metadata.name In [one]), or NULL. */
const char *fake_pod_node(const json_t *pod);

#endif
