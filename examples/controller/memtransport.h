/*
 * An in-memory Kubernetes API for ds_transport(3) and for the list-watch loop
 * of ds_controller_step(3): a fake cluster with uids, resourceVersions,
 * generateName, creation timestamps, 404/409/422 answers, lists and watches
 * served as bytes (in chunks of random sizes, with bookmarks, 410 Gone for a
 * resourceVersion older than the history it keeps), a scheduler and a kubelet
 * that make pods Running and Ready, virtual time, and faults in the transport's
 * calls. dsrun and the driver's suites drive the controller with it (the loop's
 * fault matrix runs on the fuller fake of tests/support); it uses only the
 * public API of libdaemonset and jansson.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_EXAMPLE_MEMTRANSPORT_H
#define DS_EXAMPLE_MEMTRANSPORT_H

#include <daemonset.h>
#include <jansson.h>

#include "backend.h"

typedef struct mem_cluster mem_cluster;

typedef struct mem_options {
	int64_t ready_after_ms; /* a bound pod is Running and Ready this long after its creation (default 2000) */
	int64_t grace_ms;       /* a deleted pod lingers with a deletionTimestamp this long (default 0: gone at once) */
	unsigned seed;          /* for generateName suffixes and chunk sizes (default 1) */
	long history;           /* watch events kept; a watch from before them gets 410 (default 20000) */
	int64_t bookmark_ms;    /* a watch gets a BOOKMARK this often (default 60000) */
} mem_options;

/* A new, empty cluster whose clock reads now. o may be NULL. */
mem_cluster *mem_new(ds_time now, const mem_options *o);
void mem_free(mem_cluster *m);
/* The uid of obj's controller owner reference, or NULL. */
const char *mem_controller_uid(const json_t *obj);
/* Add objects from manifests (JSON or YAML, Lists, streams), or a file or a
 * directory of them. Existing objects keep their uid and status; the rest
 * get them. Returns 0 or a ds_error_code. */
int mem_load(mem_cluster *m, const char *text, size_t len, ds_error *err);
int mem_load_file(mem_cluster *m, const char *path, ds_error *err);
/* Fill t with callbacks into m (t->size set, user_data = m). */
void mem_transport(mem_cluster *m, ds_transport *t);

/* The watch: every change since the last call, as newline-delimited watch events
 * (free the text with free()); NULL when nothing changed. */
char *mem_take_events(mem_cluster *m, size_t *len);
/* Move the clock to now: the scheduler binds pinned pods, the kubelet starts
 * them and makes them Ready after ready_after_ms, graceful deletions finish. */
void mem_advance(mem_cluster *m, ds_time now);
ds_time mem_now(const mem_cluster *m);
/* Pods bound to node never become Ready (a broken node). */
int mem_break_node(mem_cluster *m, const char *node);

/* A write of the host's own (kubectl): a merge patch of any object, with the API
 * server's generation bookkeeping for DaemonSets. Returns a ds_transport_result. */
int mem_patch(mem_cluster *m, const char *resource, const char *ns, const char *name, const char *merge_patch);

/*
 * Faults: calls of op ("list", "get", "create", "delete", "updateStatus",
 * "patch", "recordEvent"; NULL: any) on resource (NULL: any) pass skip
 * times, then the next count (-1: all) return result with message. With
 * executed set, the call takes effect first and only its answer is lost
 * (a timeout after the write).
 */
void mem_add_fault(mem_cluster *m, const char *op, const char *resource, long skip, long count, int result,
		   int executed, const char *message);
void mem_clear_faults(mem_cluster *m);
/* Calls made so far (op and resource may be NULL: any). The loop's calls count as "list",
 * "watch" and "get"/"create"/"update" (leases); faults hit the transport's callbacks only. */
long mem_calls(const mem_cluster *m, const char *op, const char *resource);

/* ---- the list-watch loop's calls (ds_controller_step(3)) ---- */

/* Start the call io asks for (LIST, WATCH, GET, CREATE, UPDATE); it is answered by mem_serve. */
int mem_start(mem_cluster *m, const ds_io *io);
/* The library closed call id. */
void mem_cancel(mem_cluster *m, uint64_t id);
/* Hand ctrl what is due: statuses, bytes (in chunks of random sizes) and ends. When there was
 * nothing, let virtual time pass first: up to wait_ms (-1: no limit), never past the cluster's
 * next change (a pod becoming ready, a deletion finishing, a watch's bookmark or end). Returns
 * how many answers were handed over, or a negative ds_error_code from ctrl. */
int mem_serve(mem_cluster *m, ds_controller *ctrl, int64_t wait_ms, ds_error *err);
/* Calls open now. */
long mem_open_calls(const mem_cluster *m);

/* A host backend over a new cluster loaded from path (virtual time from now): the
 * clock moves by what each wait asks for. 0, or a ds_error_code with err filled. */
int mem_backend(const char *path, ds_time now, host_backend *b, ds_error *err);

/* The stored objects of a resource (borrowed: "ns/name" -> object). */
const json_t *mem_objects(const mem_cluster *m, const char *resource);
/* The most pods a controller (by uid) ever had at once on one node. */
int mem_max_pods_per_node(const mem_cluster *m, const char *owner_uid);

#endif
