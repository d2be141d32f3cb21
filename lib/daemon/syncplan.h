/*
 * One sync of the DaemonSet controller, planned as data (syncDaemonSet:
 * history, manage, rolling update, history cleanup, status): syncplan.c,
 * manage.c, rollingupdate.c; planjson.c writes it out.
 */
#ifndef DSI_PLAN_H
#define DSI_PLAN_H

#include <jansson.h>

#include "daemon/backoff.h"
#include "daemon/daemon_options.h"
#include "daemon/dspods.h"
#include "daemon/podupdated.h"
#include "daemon/history.h"
#include "daemon/shouldrun.h"

typedef enum dsi_delete_reason {
	DSI_DEL_FAILED,             /* phase Failed (FailedDaemonPod) */
	DSI_DEL_SUCCEEDED,          /* phase Succeeded (SucceededDaemonPod) */
	DSI_DEL_NOT_WANTED,         /* the node should not run it any more (selector, affinity, NoExecute taint) */
	DSI_DEL_DUPLICATE,          /* more than one pod on the node */
	DSI_DEL_NODE_GONE,          /* unscheduled pod for a node that no longer exists */
	DSI_DEL_UPDATE,             /* rolling update: an old pod within maxUnavailable */
	DSI_DEL_UPDATE_UNAVAILABLE, /* rolling update: an old pod that is not available (always replaced) */
	DSI_DEL_SURGE_REPLACED,     /* surge: its replacement is available (or it is no longer ready) */
	DSI_DEL_SURGE_CONSTRAINTS,  /* surge: old pod on a node outside the scheduling constraints */
	DSI_DEL_COUNT
} dsi_delete_reason;

typedef enum dsi_create_reason {
	DSI_CREATE_MISSING,     /* the node should run a pod and has none */
	DSI_CREATE_SURGE,       /* surge: a new pod beside an available old one, within maxSurge */
	DSI_CREATE_REPLACEMENT, /* surge: the old pod is unavailable (no budget needed) */
} dsi_create_reason;

typedef struct dsi_plan_create {
	char *node;
	uint8_t reason;
	json_t *pod; /* the full Pod (NULL beyond the burst limit); read-only: shares subtrees with the plan's other pods */
} dsi_plan_create;

typedef struct dsi_plan_delete {
	/* in the plan's string blocks; set for the executed deletes (the first `burst`) only: a
	 * rolling update may plan thousands, and copying names nobody reads cost a fifth of a sync */
	char *ns, *name, *uid, *node;
	uint32_t pod; /* the pod's index in the snapshot, while planning only */
	uint8_t reason;
} dsi_plan_delete;

/* An event the sync records on the DaemonSet (type and reason are static strings). */
typedef struct dsi_plan_event {
	const char *type;   /* "Normal", "Warning" */
	const char *reason; /* "FailedDaemonPod", "SucceededDaemonPod", "SelectingAll" */
	char *message;
} dsi_plan_event;

/* A pod ClaimPods adopts (a strategic merge patch adding the controller reference, with the pod's
 * uid as precondition) or releases (one deleting the DaemonSet's reference). */
typedef struct dsi_plan_claim {
	char *ns, *name, *uid;
} dsi_plan_claim;

typedef struct dsi_plan_names {
	char **v;
	uint32_t n;
} dsi_plan_names;

/* constructHistory's and cleanupHistory's ControllerRevision actions. */
typedef struct dsi_plan_history {
	uint8_t present; /* the sync got as far as the history */
	char hash[DSI_HASH_MAX + 8];
	int64_t revision;                 /* the current revision's number after this sync */
	char *current;                    /* the current revision's name */
	json_t *create;                   /* the ControllerRevision to create (the object as POSTed), or NULL */
	uint8_t bump;                     /* the current revision is renumbered to `revision` */
	dsi_plan_names delete_duplicates; /* dedupCurHistories: revisions equal to the current one */
	dsi_plan_names relabel_pods;      /* ... and the pods relabelled to the kept hash before */
	dsi_plan_names adopt, release;    /* revisions claimed (ControllerRevisionControllerRefManager) */
	dsi_plan_names remove;            /* cleanupHistory: old revisions beyond revisionHistoryLimit */
} dsi_plan_history;

/* Why a sync does nothing but record (syncDaemonSet's early returns). */
typedef enum dsi_plan_skip {
	DSI_SKIP_NONE,
	DSI_SKIP_SELECTING_ALL, /* an empty selector: the SelectingAll event */
	DSI_SKIP_DELETING,      /* the DaemonSet is being deleted */
} dsi_plan_skip;

/* "SelectingAll", "Deleting", NULL for DSI_SKIP_NONE. */
const char *dsi_plan_skip_name(dsi_plan_skip k);

typedef struct dsi_plan {
	char *ns, *name, *uid;
	char *owner_api; /* the apiVersion of the DaemonSet's controller references */
	ds_time now;
	char hash[DSI_HASH_MAX + 8];
	dsi_plan_skip skipped; /* the controller does nothing else */
	dsi_plan_create *creates;
	uint32_t ncreates; /* all the sync wants; the first `burst` are executed */
	dsi_plan_delete *deletes;
	uint32_t ndeletes;
	struct dsi_plan_chunk *strings; /* blocks the deletes' strings live in (plan.c) */
	uint32_t burst;                 /* burstReplicas */
	uint32_t slow_start;            /* initial batch size */
	/* rolling update */
	uint8_t rolling_ran;
	uint8_t rolling_paused; /* advanced controls: paused (placement on new nodes continues) */
	int32_t partition;      /* advanced controls: pods kept on old revisions, -1 when not set */
	int32_t allowed_nodes;  /* advanced controls: nodes the update may touch, -1 when not limited */
	int32_t max_unavailable, max_surge, desired_for_update;
	int32_t num_unavailable, num_surge;
	char *rolling_error;
	char *warning; /* dsi_history_warning: the template was edited without the API server */
	dsi_plan_history history;
	/* ClaimPods */
	dsi_plan_claim *adopt, *release;
	uint32_t nadopt, nrelease;
	/* status */
	dsi_ds_status status;
	uint8_t status_changed;
	/* when to sync again (ms, -1 none), events, backoff state after this sync */
	int64_t requeue_ms;
	const char *requeue_cause; /* static: the upstream function that requeues ("updateDaemonSetStatus") */
	dsi_plan_event *events;
	uint32_t nevents;
	size_t cap_events;
	dsi_backoff backoff;
} dsi_plan;

/* Plan one sync of ds at now. backoff (may be NULL) is the failed-pod backoff
 * state before the sync; the plan holds the state after it. */
int dsi_plan_sync(const dsi_cluster *c, const dsi_daemonset *ds, ds_time now, const dsi_daemon_cfg *o,
		  const dsi_backoff *backoff, dsi_plan *plan, ds_error *err);
void dsi_plan_release(dsi_plan *plan);
json_t *dsi_plan_to_json(const dsi_plan *plan);
/* The controller reference the plan's adoptions add (a new object, NULL without memory). */
json_t *dsi_plan_owner_ref(const dsi_plan *plan);
/* The patch that adopts or releases a claimed pod or revision (uid: its uid, the precondition). */
json_t *dsi_plan_adopt_patch(const dsi_plan *plan, const char *uid);
json_t *dsi_plan_release_patch(const dsi_plan *plan, const char *uid);
const char *dsi_delete_reason_name(int r);
const char *dsi_create_reason_name(int r);
/* Parts of a sync, for replaying upstream's unit tests, whose fake pod control
 * makes manage's creates visible before the rolling update runs in the same call. */
enum { DSI_SYNC_FULL = 0, DSI_SYNC_MANAGE_ONLY = 1, DSI_SYNC_ROLLING_ONLY = 2 };
/* Or'ed into the mode: the plan's decisions without the objects it would send (the creates' pods,
 * the ControllerRevision history.create), for a caller that reports only what is decided. */
#define DSI_SYNC_DECISIONS_ONLY 4
int dsi_plan_sync_ex(const dsi_cluster *c, const dsi_daemonset *ds, ds_time now, const dsi_daemon_cfg *o,
		     const dsi_backoff *backoff, int mode, dsi_plan *plan, ds_error *err);

#endif
