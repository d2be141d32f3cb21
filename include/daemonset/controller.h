/*
 * libdaemonset: the controller driver. Include <daemonset.h> rather than this file.
 *
 * The library decides; the host moves bytes. A host supplies a transport (a
 * table of callbacks that talk to the API server) and an event loop; the
 * driver keeps a snapshot fed by watch events, the expectations, the work
 * queue and the retry state, plans every sync with ds_daemonset_plan(3) and turns
 * the plan into API calls through the transport. No threads, no clocks:
 * time is always a parameter. See ds_transport(3) and ds_controller_new(3).
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_CONTROLLER_H
#define DAEMONSET_CONTROLLER_H

#include "daemonset/cluster.h"
#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the transport ------------------------------------------------------ */

/* What a transport callback returns: the outcome of one API call. */
typedef enum ds_transport_result {
	DS_TRANSPORT_OK = 0,             /* 200, 201 */
	DS_TRANSPORT_NOT_FOUND = 1,      /* 404 */
	DS_TRANSPORT_CONFLICT = 2,       /* 409: resourceVersion or precondition mismatch */
	DS_TRANSPORT_ALREADY_EXISTS = 3, /* 409 with reason AlreadyExists */
	DS_TRANSPORT_INVALID = 4,        /* 422 */
	DS_TRANSPORT_TRANSIENT = 5,      /* may succeed later: timeouts, 429, 5xx, connection errors */
	DS_TRANSPORT_FATAL = 6           /* will not succeed as sent: 400, 401, 403, ... */
} ds_transport_result;

/*
 * Where a callback puts what it returns. The library owns it; it is valid
 * during the callback only. The body is copied (so the host frees its own
 * buffers as it likes: FFI-safe), and may be given in pieces.
 */
typedef struct ds_reply ds_reply;

/* Append size bytes to the response body (JSON text), as they arrive: a body
 * beyond the option maxDocumentBytes is refused (DS_ELIMIT) at the append
 * that crosses it, so the host stops reading there. (1.2) */
DS_EXTERN int ds_reply_append2(ds_reply *reply, const char *data, size_t size, ds_error *err);
/* Set the error message of a failed call (Status.message), copied; NULL
 * clears it. (1.2) */
DS_EXTERN int ds_reply_set_message2(ds_reply *reply, const char *message, ds_error *err);

/* Patch types for ds_transport.patch (the Content-Type to send). */
#define DS_PATCH_MERGE "application/merge-patch+json"
#define DS_PATCH_STRATEGIC "application/strategic-merge-patch+json"

/*
 * The callback table. resource is the REST resource name: "nodes", "pods",
 * "daemonsets", "controllerrevisions", "events" (the HTTP path follows from
 * it); namespace_ is NULL for cluster-scoped resources and for lists across
 * all namespaces. Bodies are JSON text (NUL-terminated). Every callback gets
 * user_data, fills reply, and returns a ds_transport_result. Callbacks must
 * not call back into the controller. A NULL callback fails that operation
 * (record_event may be NULL: events are then dropped).
 */
typedef struct ds_transport {
	size_t size;     /* sizeof(ds_transport): later versions may add members */
	void *user_data; /* passed to every callback */
	/* GET a collection (label_selector may be NULL); reply: a List with metadata.resourceVersion */
	int (*list)(void *user_data, const char *resource, const char *namespace_, const char *label_selector,
		    ds_reply *reply);
	/* GET one object; reply: the object */
	int (*get)(void *user_data, const char *resource, const char *namespace_, const char *name, ds_reply *reply);
	/* POST (pods, controllerrevisions); reply: the created object (its generated name) */
	int (*create)(void *user_data, const char *resource, const char *namespace_, const char *body, ds_reply *reply);
	/* DELETE with DeleteOptions preconditions.uid = uid (when not NULL) */
	int (*remove)(void *user_data, const char *resource, const char *namespace_, const char *name, const char *uid,
		      ds_reply *reply);
	/* PUT .../status with the whole object (metadata.resourceVersion set) */
	int (*update_status)(void *user_data, const char *resource, const char *namespace_, const char *name,
			     const char *body, ds_reply *reply);
	/* PATCH with Content-Type patch_type (DS_PATCH_MERGE or DS_PATCH_STRATEGIC) */
	int (*patch)(void *user_data, const char *resource, const char *namespace_, const char *name,
		     const char *patch_type, const char *body, ds_reply *reply);
	/* POST a core/v1 Event */
	int (*record_event)(void *user_data, const char *namespace_, const char *body, ds_reply *reply);
} ds_transport;
#define DS_TRANSPORT_INIT DS_SIZED_INIT(ds_transport)

/* ---- the driver --------------------------------------------------------- */

typedef struct ds_controller ds_controller;

/* Settings of the driver itself (the planner's are in ds_options). */
typedef struct ds_controller_config {
	size_t size;            /* sizeof(ds_controller_config) */
	const char *namespace_; /* list (resync) only this namespace; NULL: all */
	int64_t retry_base_ms;  /* requeue after a failed sync: base * 2^failures; 0: 5 ms */
	int64_t retry_max_ms;   /* ... capped here; 0: 1000 s (workqueue.DefaultControllerRateLimiter) */
	const char *component;  /* the Event source; NULL: "daemonset-controller" */
} ds_controller_config;
#define DS_CONTROLLER_CONFIG_INIT DS_SIZED_INIT(ds_controller_config)

/*
 * A driver over transport (copied; user_data must outlive the controller).
 * opts (may be NULL: the defaults) is copied; the copy is read at every
 * sync: burstReplicas, slowStartInitialBatchSize, backoffInitial, backoffMax,
 * expectationsTimeout and everything ds_daemonset_plan(3) reads. config may be NULL.
 */
DS_EXTERN int ds_controller_new(const ds_transport *transport, const ds_options *opts,
				const ds_controller_config *config, ds_controller **out, ds_error *err);
DS_EXTERN void ds_controller_free(ds_controller *ctrl);

/* List nodes, pods, DaemonSets and ControllerRevisions through the transport
 * and replace the snapshot (all or nothing); expectations observe the pods
 * that came and went; every DaemonSet is queued. JSON: {"resourceVersions":
 * {"nodes","pods","daemonsets","controllerrevisions"}, "counts", "queued"}. */
DS_EXTERN int ds_controller_resync(ds_controller *ctrl, ds_time now, char **json_out, ds_error *err);

/* Feed watch events (one or several, as a watch stream sends them) to the
 * snapshot and to the expectations, and queue the DaemonSets upstream's event
 * handlers wake. Applied in order; on a bad event the earlier ones stay
 * applied (*count says how many) and err names it. JSON (may be NULL):
 * {"applied": N, "queued": ["ns/name", ...], "queuedAfter": [{"key","afterMs"}]}. */
DS_EXTERN int ds_controller_apply_events(ds_controller *ctrl, const char *data, size_t size, ds_time now, size_t *count,
					 char **json_out, ds_error *err);

/* What one sync did. */
typedef struct ds_sync_result {
	size_t size;                /* sizeof(ds_sync_result) */
	int found;                  /* the DaemonSet is in the snapshot */
	int expectations_satisfied; /* the full sync ran (else: status only) */
	int creates;                /* pods created */
	int deletes;                /* pods deleted (or already gone) */
	int failed_calls;           /* API calls that failed */
	int status_written;         /* the status was written */
	int64_t requeue_after_ms;   /* when this DaemonSet is queued again, -1: not */
} ds_sync_result;
#define DS_SYNC_RESULT_INIT DS_SIZED_INIT(ds_sync_result)

/* One sync of namespace/name at now (syncDaemonSet). API errors do not fail
 * the call: they are in the result ("error"), and the DaemonSet is requeued
 * with backoff. result and json_out may be NULL. */
DS_EXTERN int ds_controller_sync(ds_controller *ctrl, const char *namespace_, const char *name, ds_time now,
				 ds_sync_result *result, char **json_out, ds_error *err);

/* Queue namespace/name after after_ms (0: now); a delayed entry waits apart
 * from the queue, so a sync in between does not cancel it (workqueue AddAfter). */
DS_EXTERN int ds_controller_enqueue(ds_controller *ctrl, const char *namespace_, const char *name, ds_time now,
				    int64_t after_ms, ds_error *err);
/* Take the next DaemonSet due at now: returns 1 and "namespace/name" in
 * *key_out (free with ds_free), or 0 when none is due. *wait_ms (may be
 * NULL): milliseconds until the next one is due, -1 when the queue is empty. */
DS_EXTERN int ds_controller_next(ds_controller *ctrl, ds_time now, char **key_out, int64_t *wait_ms, ds_error *err);
/* Sync every DaemonSet due at now, once each. Returns how many were synced;
 * *wait_ms as for ds_controller_next; json_out (may be NULL): the results. */
DS_EXTERN int ds_controller_run(ds_controller *ctrl, ds_time now, int64_t *wait_ms, char **json_out, ds_error *err);

/* The expectations of namespace/name: {"add","del","satisfied","expired","set"}. */
DS_EXTERN int ds_controller_expectations(const ds_controller *ctrl, const char *namespace_, const char *name,
					 ds_time now, char **json_out, ds_error *err);
/* The driver's snapshot, for reads (ds_daemonset_explain, ds_cluster_get, ...) between
 * calls; it changes with every resync and event. NULL when ctrl is NULL. */
DS_EXTERN const ds_cluster *ds_controller_cluster(const ds_controller *ctrl);

/* ---- leader election on a coordination.k8s.io/v1 Lease ------------------ */

typedef struct ds_lease_config {
	size_t size;            /* sizeof(ds_lease_config) */
	const char *identity;   /* this replica (holderIdentity) */
	const char *namespace_; /* the Lease, for a create */
	const char *name;
	int64_t lease_duration_ms; /* 15 s in kube-controller-manager */
	int64_t renew_deadline_ms; /* 10 s; less than the lease duration */
} ds_lease_config;
#define DS_LEASE_CONFIG_INIT DS_SIZED_INIT(ds_lease_config)

/*
 * client-go's tryAcquireOrRenew as a pure function. lease: the Lease as GET
 * returned it (NULL or "null": it does not exist); state: the state from the
 * previous decision (NULL at first). JSON: {"decision": "acquire" | "renew" |
 * "follow", "write": "create" | "update" | "none", "lease": {...} (to write),
 * "holder", "leader" (after a successful write), "state" (keep it when the
 * write succeeds or when there is none), "stateIfFailed", "retryAfterMs"}.
 */
DS_EXTERN int ds_lease_try_acquire_or_renew(const ds_lease_config *cfg, const char *lease, size_t lease_size,
					    const char *state, size_t state_size, ds_time now, char **json_out,
					    ds_error *err);
/* tryRelease: the Lease to write to give the lease up (holderIdentity "",
 * leaseDurationSeconds 1), or write "none" when we do not hold it. */
DS_EXTERN int ds_lease_try_release(const ds_lease_config *cfg, const char *lease, size_t lease_size, const char *state,
				   size_t state_size, ds_time now, char **json_out, ds_error *err);
/* Whether state says we lead at now: we hold the lease and renewed it less
 * than renew_deadline_ms ago. */
DS_EXTERN int ds_lease_leading(const ds_lease_config *cfg, const char *state, size_t state_size, ds_time now,
			       int *leader, ds_error *err);

/* ---- 1.2: the list-watch loop (ds_controller_step(3), daemonset-watch-loop(7)) --------
 *
 * The library decides what I/O comes next; the host performs it and hands the
 * answers back. Each step returns one action: start a call (LIST, WATCH, GET,
 * CREATE, UPDATE: a request to the API server at path), abort one (CLOSE), print
 * a log line (LOG), or WAIT until bytes arrive or wait_ms passes. The answer to
 * a call goes back as its HTTP status (ds_controller_io_response), its body as
 * it arrives in any chunking (ds_controller_io_data) and how it ended
 * (ds_controller_io_end). Due syncs run inside the step, through the transport.
 */

typedef enum ds_io_op {
	DS_IO_WAIT = 0,   /* nothing to start: wait up to wait_ms (-1: until an answer arrives), then step */
	DS_IO_LIST = 1,   /* GET path: a collection */
	DS_IO_WATCH = 2,  /* GET path: a watch stream; hand over its bytes as they come */
	DS_IO_CLOSE = 3,  /* abort call id; do not end it (the library has forgotten it) */
	DS_IO_GET = 4,    /* GET path: one object (the Lease) */
	DS_IO_CREATE = 5, /* POST body to path */
	DS_IO_UPDATE = 6, /* PUT body to path */
	DS_IO_LOG = 7,    /* print message */
	DS_IO_STOPPED = 8 /* stopped (ds_controller_stop, or leadership lost): nothing more will start */
} ds_io_op;

typedef enum ds_log_level { DS_LOG_INFO = 0, DS_LOG_WARNING = 1, DS_LOG_ERROR = 2 } ds_log_level;

/* One action. The strings belong to the controller and live until the next call on it. */
typedef struct ds_io {
	size_t size;                  /* sizeof(ds_io) */
	int op;                       /* ds_io_op */
	uint64_t id;                  /* the call: name it in ds_controller_io_* (and CLOSE) */
	const char *method;           /* "GET", "POST", "PUT" */
	const char *path;             /* the request path with its query, "/api/v1/pods?resourceVersion=0" */
	const char *resource;         /* "nodes", "pods", "daemonsets", "controllerrevisions", "leases" */
	const char *namespace_;       /* NULL: cluster-scoped, or every namespace */
	const char *name;             /* GET, UPDATE: the object */
	const char *resource_version; /* LIST, WATCH: the resourceVersion parameter ("" when none) */
	int64_t timeout_seconds;      /* WATCH: timeoutSeconds, after which the server ends it */
	int allow_watch_bookmarks;    /* WATCH: 1 */
	int64_t timeout_ms;           /* the library closes the call this long after it started */
	const char *body;             /* CREATE, UPDATE: JSON */
	int64_t wait_ms;              /* WAIT */
	int level;                    /* LOG: ds_log_level */
	const char *message;          /* LOG: one line, no newline */
} ds_io;
#define DS_IO_INIT DS_SIZED_INIT(ds_io)

/* The next action at now: returns its op (>= 0) with *io filled, or a
 * negative ds_error_code. Runs the DaemonSets' syncs that are due. */
DS_EXTERN int ds_controller_step(ds_controller *ctrl, ds_time now, ds_io *io, ds_error *err);
/* The HTTP status of call id (before its body; 0 is none). Returns 0, or 1
 * when the library no longer wants the call (abort it). */
DS_EXTERN int ds_controller_io_response(ds_controller *ctrl, uint64_t id, int status, ds_time now, ds_error *err);
/* size bytes of call id's body, as they arrived. Returns 0, or 1 when the
 * library gave the call up (a reply or event beyond maxDocumentBytes, a
 * malformed event): abort it and hand over no more. */
DS_EXTERN int ds_controller_io_data(ds_controller *ctrl, uint64_t id, const char *data, size_t size, ds_time now,
				    ds_error *err);
/* Call id ended: error NULL when the answer ended as the server sent it,
 * else what failed (a reset, a timeout, a TLS error: for the log). */
DS_EXTERN int ds_controller_io_end(ds_controller *ctrl, uint64_t id, const char *error, ds_time now, ds_error *err);
/* Lead before listing: leader election on the Lease cfg names (copied), run by
 * the loop with the retry period of the option leaseRetryPeriod. Before the
 * first step (else DS_ESTATE). */
DS_EXTERN int ds_controller_set_lease(ds_controller *ctrl, const ds_lease_config *cfg, ds_error *err);
/* Stop: close every call, give the lease up when held (ReleaseOnCancel); the
 * steps that follow return the closes and the release, then DS_IO_STOPPED. */
DS_EXTERN int ds_controller_stop(ds_controller *ctrl, ds_time now, ds_error *err);
/* The loop's state: {"started", "synced", "stopped", "requests", "resources":
 * {"pods": {"state", "resourceVersion", "synced", "lists", "watches",
 * "failures", "events", "nextInMs", "lastError"}, ...}, "backoff",
 * "leaderElection"}. */
DS_EXTERN int ds_controller_loop_status(const ds_controller *ctrl, ds_time now, char **json_out, ds_error *err);

/* ---- superseded names (SONAME 1 keeps them; see "Conventions" in daemonset(7)) ---- */
#ifndef DS_NO_DEPRECATED
DS_EXTERN DS_DEPRECATED("ds_reply_append2") int ds_reply_append(ds_reply *reply, const char *data, size_t size);
DS_EXTERN DS_DEPRECATED("ds_reply_set_message2") int ds_reply_set_message(ds_reply *reply, const char *message);
DS_EXTERN DS_DEPRECATED("ds_lease_try_acquire_or_renew") int ds_lease_decide(const ds_lease_config *cfg,
									     const char *lease_json,
									     const char *state_json, ds_time now,
									     char **json_out, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_lease_try_release") int ds_lease_release(const ds_lease_config *cfg, const char *lease_json,
								     const char *state_json, ds_time now,
								     char **json_out, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_lease_leading") int ds_lease_is_leader(const ds_lease_config *cfg, const char *state_json,
								   ds_time now, int *leader, ds_error *err);
#endif

#ifdef __cplusplus
}
#endif
#endif
