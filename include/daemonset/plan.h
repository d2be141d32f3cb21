/*
 * libdaemonset: one sync planned, status, rollout simulation. Include
 * <daemonset.h> rather than this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_PLAN_H
#define DAEMONSET_PLAN_H

#include "daemonset/cluster.h"
#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What one sync of the upstream DaemonSet controller does for namespace/name
 * at time now, as data: pods to create (with the full Pod), pods to delete
 * (with a reason), ControllerRevision actions, claim patches, the new
 * status, when to sync again, the events, and the failed-pod backoff state.
 * Deterministic: nodes are walked in name order (upstream walks a Go map).
 * backoff (text, size) is the "backoff" member of a previous plan (NULL: none).
 * The plan copies what it needs; it stays valid after the snapshot changes.
 * Reads options burstReplicas, slowStartInitialBatchSize, backoffInitial,
 * backoffMax, kubernetesVersion, featureGates.
 */
typedef struct ds_plan ds_plan;

DS_EXTERN int ds_daemonset_plan(const ds_cluster *cluster, const char *namespace_, const char *name, ds_time now,
				const ds_options *opts, const char *backoff, size_t backoff_size, ds_plan **out,
				ds_error *err);
DS_EXTERN void ds_plan_free(ds_plan *plan);
/* The whole plan as JSON (see ds_daemonset_plan(3) for every key). */
DS_EXTERN int ds_plan_to_json(const ds_plan *plan, char **json_out, ds_error *err);

/* A create of the plan. Strings belong to the plan. */
typedef struct ds_plan_create {
	size_t size;        /* set to sizeof(ds_plan_create) before the call */
	const char *node;   /* the node the pod is for */
	const char *reason; /* "missing", "surge", "replacement" */
	size_t batch; /* slow-start batch (0, 1, 2, ...): batch k holds up to slowStartInitialBatchSize * 2^k creates */
} ds_plan_create;
#define DS_PLAN_CREATE_INIT DS_SIZED_INIT(ds_plan_create)

/* A delete of the plan. Strings belong to the plan. */
typedef struct ds_plan_delete {
	size_t size; /* set to sizeof(ds_plan_delete) before the call */
	const char *namespace_;
	const char *name;
	const char *uid; /* for a delete precondition */
	const char *node;
	const char *reason; /* "failed", "succeeded", "not-wanted", "duplicate", "node-gone", "update",
			       "update-unavailable", "surge-replaced", "surge-scheduling-constraints" */
} ds_plan_delete;
#define DS_PLAN_DELETE_INIT DS_SIZED_INIT(ds_plan_delete)

/* An event the sync records on the DaemonSet. Strings belong to the plan. */
typedef struct ds_plan_event {
	size_t size;         /* set to sizeof(ds_plan_event) before the call */
	const char *type;    /* "Normal" or "Warning" */
	const char *reason;  /* "FailedDaemonPod", "SucceededDaemonPod", "SelectingAll" */
	const char *message; /* upstream's text */
} ds_plan_event;
#define DS_PLAN_EVENT_INIT DS_SIZED_INIT(ds_plan_event)

/* The counters the controller writes to .status. */
typedef struct ds_status {
	size_t size; /* set to sizeof(ds_status) before the call */
	int32_t desired_number_scheduled;
	int32_t current_number_scheduled;
	int32_t number_misscheduled;
	int32_t number_ready;
	int32_t updated_number_scheduled;
	int32_t number_available;
	int32_t number_unavailable;
	int64_t observed_generation;
	int32_t collision_count; /* -1 when not set */
} ds_status;
#define DS_STATUS_INIT DS_SIZED_INIT(ds_status)

/* The creates and deletes this sync executes (within burstReplicas); DS_EARG past the end. */
DS_EXTERN size_t ds_plan_create_count(const ds_plan *plan);
DS_EXTERN int ds_plan_create_at(const ds_plan *plan, size_t i, ds_plan_create *out, ds_error *err);
/* The Pod to POST for create i, as JSON (free with ds_free). */
DS_EXTERN int ds_plan_create_pod(const ds_plan *plan, size_t i, char **json_out, ds_error *err);
DS_EXTERN size_t ds_plan_delete_count(const ds_plan *plan);
DS_EXTERN int ds_plan_delete_at(const ds_plan *plan, size_t i, ds_plan_delete *out, ds_error *err);
/* The events the sync records, in plan order (also for a skipped plan). */
DS_EXTERN size_t ds_plan_event_count(const ds_plan *plan);
DS_EXTERN int ds_plan_event_at(const ds_plan *plan, size_t i, ds_plan_event *out, ds_error *err);
/* The status the sync computes, and whether the controller would write it. */
DS_EXTERN int ds_plan_status(const ds_plan *plan, ds_status *out, int *changed, ds_error *err);
/* Milliseconds after which the DaemonSet should be synced again, or -1. */
DS_EXTERN int64_t ds_plan_requeue_after(const ds_plan *plan);
/* The failed-pod backoff state after this sync, to pass to the next one. */
DS_EXTERN int ds_plan_backoff(const ds_plan *plan, char **json_out, ds_error *err);

/*
 * The status alone (updateDaemonSetStatus): the same counters without planning
 * the rest of the sync. The fast path for watching many DaemonSets.
 */
DS_EXTERN int ds_daemonset_status(const ds_cluster *cluster, const char *namespace_, const char *name, ds_time now,
				  const ds_options *opts, ds_status *out, ds_error *err);

/*
 * Simulate a whole rollout of namespace/name from start: the sync planner in a
 * loop on a private copy of the snapshot, with a pod lifecycle model (options
 * simReadyAfter, simTerminateAfter, simFailNodes, simStep, simMaxTime). The result:
 * {"result": "complete"|"stalled"|"paused"|"timeout", "durationSeconds",
 *  "waves": [{"at","creates","deletes"}], "nodeUpdatedAt": {node: time},
 *  "maxUnavailable", "maxUnavailableSeen", "maxSurge", "maxSurgeSeen",
 *  "budgetExceeded", "stall": {"reason","nodes"}, "timeline": [...], ...}.
 * The snapshot is not changed.
 */
DS_EXTERN int ds_daemonset_rollout(const ds_cluster *cluster, const char *namespace_, const char *name, ds_time start,
				   const ds_options *opts, char **json_out, ds_error *err);

/* ---- superseded names (SONAME 1 keeps them; see "Conventions" in daemonset(7)) ---- */
#ifndef DS_NO_DEPRECATED
DS_EXTERN DS_DEPRECATED("ds_daemonset_plan") int ds_plan_sync(const ds_cluster *cluster, const char *namespace_,
							      const char *name, ds_time now, const ds_options *opts,
							      const char *backoff_json, ds_plan **out, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_daemonset_status") int ds_status_compute(const ds_cluster *cluster, const char *namespace_,
								     const char *name, ds_time now,
								     const ds_options *opts, ds_status *out,
								     ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_daemonset_rollout") int ds_rollout_simulate(const ds_cluster *cluster,
									const char *namespace_, const char *name,
									ds_time start, const ds_options *opts,
									char **json_out, ds_error *err);
/* 1.1's accessors, superseded in 1.2 by those of the one accessor shape (daemonset(7), Accessors) */
DS_EXTERN DS_DEPRECATED("ds_plan_create_at") int ds_plan_get_create(const ds_plan *plan, size_t i, ds_plan_create *out,
								    ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_plan_delete_at") int ds_plan_get_delete(const ds_plan *plan, size_t i, ds_plan_delete *out,
								    ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_plan_event_at") int ds_plan_get_event(const ds_plan *plan, size_t i, ds_plan_event *out,
								  ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_plan_status") int ds_plan_get_status(const ds_plan *plan, ds_status *out, int *changed,
								 ds_error *err);
#endif

#ifdef __cplusplus
}
#endif
#endif
