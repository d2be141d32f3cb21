/*
 * kubectl drain as a plan (kubectl pkg/drain/{drain,filters}.go and
 * pkg/cmd/drain/drain.go): which pods of a node are evicted, skipped, ignored
 * or refused, with kubectl's texts; what the API server's eviction handler
 * answers given the PodDisruptionBudgets of the snapshot; and the transcript
 * kubectl prints. Pure: the snapshot is only read.
 */
#ifndef DSI_DRAIN_H
#define DSI_DRAIN_H

#include <jansson.h>

#include "ops/ops_options.h"
#include "model/snapshot.h"

/* PodDeleteStatus.Reason (filters.go) */
enum { DSI_PDS_OKAY = 0, DSI_PDS_SKIP, DSI_PDS_WARNING, DSI_PDS_ERROR };

/* The filter that produced a status, in makeFilters' order. */
enum {
	DSI_FILTER_SKIP_DELETED = 0,
	DSI_FILTER_DAEMONSET,
	DSI_FILTER_MIRROR,
	DSI_FILTER_LOCAL_STORAGE,
	DSI_FILTER_UNREPLICATED,
	DSI_FILTER_ADDITIONAL
};

/* kubectl's messages (filters.go) */
#define DSI_DRAIN_DAEMONSET_FATAL "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
#define DSI_DRAIN_DAEMONSET_WARNING "ignoring DaemonSet-managed Pods"
#define DSI_DRAIN_LOCAL_STORAGE_FATAL "Pods with local storage (use --delete-emptydir-data to override)"
#define DSI_DRAIN_LOCAL_STORAGE_WARNING "deleting Pods with local storage"
#define DSI_DRAIN_UNMANAGED_FATAL "Pods that declare no controller (use --force to override)"
#define DSI_DRAIN_UNMANAGED_WARNING "deleting Pods that declare no controller"
/* The eviction subresource's refusal (pkg/registry/core/pod/storage/eviction.go) */
#define DSI_EVICTION_PDB_MESSAGE "Cannot evict pod as it would violate the pod's disruption budget."
#define DSI_EVICTION_MULTIPLE_PDBS                                                                                     \
	"This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
/* EvictErrorRetryDelay (NewDrainCmdOptions) */
#define DSI_DRAIN_RETRY_DELAY "5s"

/* A PodDeleteStatus. message points to a static text or to owned. */
typedef struct dsi_pod_status {
	uint8_t del;    /* Delete */
	uint8_t reason; /* DSI_PDS_* */
	uint8_t filter; /* DSI_FILTER_* */
	const char *message;
	char *owned;
} dsi_pod_status;

void dsi_pod_status_release(dsi_pod_status *st);

/* What the daemonSet filter learnt about a pod's controller. */
typedef struct dsi_daemon_owner {
	uint8_t is_daemon;       /* apps/v1 DaemonSet, or a daemonSetKinds kind */
	uint8_t opt_in;          /* counted only through daemonSetKinds */
	uint8_t found;           /* the owner exists in the snapshot */
	const dsi_daemonset *ds; /* the owner when the snapshot has it as a DaemonSet */
	char group_kind[128];    /* "apps/DaemonSet", "apps.kruise.io/DaemonSet" (truncated) */
} dsi_daemon_owner;

typedef struct dsi_drain_cfg dsi_drain_cfg;

/* A caller-supplied filter (Helper.AdditionalFilters); message must be static. */
typedef void (*dsi_pod_filter_fn)(const dsi_drain_cfg *cfg, const dsi_pod *p, void *ctx, dsi_pod_status *out);

struct dsi_drain_cfg {
	const dsi_cluster *c;
	const dsi_ops_cfg *o;
	int force, ignore_daemonsets, delete_emptydir_data, disable_eviction;
	int64_t grace_period_seconds;      /* < 0: the pod's own */
	int64_t skip_wait_timeout_seconds; /* 0: off */
	int has_pod_selector;
	dsi_selector pod_selector; /* in atoms */
	dsi_atoms atoms;           /* overlay on the snapshot's table, for the selector */
	char **kinds;              /* daemonSetKinds: "group/Kind" */
	size_t nkinds;
	/* The eviction group/version the server advertises (CheckEvictionSupport);
	 * NULL: no eviction subresource, pods are deleted. Defaults to "policy/v1". */
	const char *eviction_gv;
	const dsi_pod_filter_fn *extra; /* AdditionalFilters, after the built-in five */
	void *const *extra_ctx;
	size_t nextra;
};

/* Read the drain options (force, ignoreDaemonSets, deleteEmptyDirData,
 * disableEviction, gracePeriodSeconds, skipWaitForDeleteTimeoutSeconds,
 * podSelector, daemonSetKinds). A bad podSelector is DS_EVALUE at
 * "podSelector" with kubectl's text; a bad daemonSetKinds entry DS_EVALUE at
 * "daemonSetKinds". Release with dsi_drain_cfg_release in every case. */
int dsi_drain_cfg_init(dsi_drain_cfg *cfg, const dsi_cluster *c, const dsi_ops_cfg *o, ds_error *err);
void dsi_drain_cfg_release(dsi_drain_cfg *cfg);

/* The built-in filters (filters.go); each fills *out (and owner for the
 * daemonSet filter). Return 0 or -1 when out of memory. */
int dsi_skip_deleted_filter(const dsi_drain_cfg *cfg, const dsi_pod *p, ds_time now, dsi_pod_status *out);
int dsi_daemonset_filter(const dsi_drain_cfg *cfg, const dsi_pod *p, dsi_pod_status *out, dsi_daemon_owner *owner);
int dsi_mirror_pod_filter(const dsi_drain_cfg *cfg, const dsi_pod *p, dsi_pod_status *out);
int dsi_local_storage_filter(const dsi_drain_cfg *cfg, const dsi_pod *p, dsi_pod_status *out);
int dsi_unreplicated_filter(const dsi_drain_cfg *cfg, const dsi_pod *p, dsi_pod_status *out);
/* filterPods (drain.go) for one pod: the filters in order, stopping at the
 * first status with Delete=false; the last status evaluated is the pod's.
 * owner may be NULL. */
int dsi_drain_filter_pod(const dsi_drain_cfg *cfg, const dsi_pod *p, ds_time now, dsi_pod_status *st,
			 dsi_daemon_owner *owner);

/* How a pod left (or did not leave) the node. */
enum {
	DSI_RM_NONE = 0,       /* not removed (filtered out, or the node failed its filters) */
	DSI_RM_EVICTED,        /* eviction accepted; a PodDisruptionBudget was decremented or none covers it */
	DSI_RM_EVICTED_DIRECT, /* eviction accepted without a budget: finished, pending, deleting or unready pod */
	DSI_RM_RETRY,          /* 429: kubectl retries every 5s until the budget allows it */
	DSI_RM_FAILED,         /* any other refusal: the eviction fails and so does the node */
	DSI_RM_DELETED         /* DELETE (disableEviction, or no eviction subresource): budgets are bypassed */
};

/* Remaining disruptions per PodDisruptionBudget (by dsi_pdb.index), shared by
 * the nodes drained together (an upgrade batch). */
typedef struct dsi_pdb_budget {
	int32_t allowed;    /* status.disruptionsAllowed, decremented by accepted evictions */
	uint32_t disrupted; /* len(status.disruptedPods), grown by accepted evictions */
} dsi_pdb_budget;

/* Budgets as the snapshot has them; NULL when out of memory. Release with dsi_free. */
dsi_pdb_budget *dsi_pdb_budgets_new(const dsi_cluster *c);

typedef struct dsi_drain_pod {
	const dsi_pod *pod;
	dsi_pod_status st;
	dsi_daemon_owner owner;
	uint8_t removal;     /* DSI_RM_* */
	uint8_t pdb_skipped; /* why no budget was consulted: 0, or one of the DSI_PDB_SKIP_* */
	const dsi_pdb *pdb;  /* the budget consulted (eviction) or bypassed (delete) */
	uint32_t npdbs;      /* budgets that select the pod */
	int64_t grace;       /* the grace period the API server applies (CheckGracefulDelete) */
	char *error;         /* the refusal's text (RETRY, FAILED) */
	char *cause;         /* its DisruptionBudget cause, when it has one */
} dsi_drain_pod;

enum {
	DSI_PDB_SKIP_NONE = 0,
	DSI_PDB_SKIP_PHASE,
	DSI_PDB_SKIP_DELETING,
	DSI_PDB_SKIP_UNHEALTHY_ALWAYS_ALLOW,
	DSI_PDB_SKIP_UNHEALTHY_BUDGET_HEALTHY
};

typedef struct dsi_drain_plan {
	const dsi_node *node;
	dsi_drain_pod *pods; /* in the API server's list order (namespace/name, bytewise) */
	size_t n;
	int has_errors;   /* a pod's status is Error: nothing is removed */
	int removal_ran;  /* DeleteOrEvictPods ran (no filter error) */
	int use_eviction; /* eviction (1) or DELETE (0) */
	size_t nretry, nfailed;
} dsi_drain_plan;

/* GetPodsForDeletion and DeleteOrEvictPods planned for node at now. budgets
 * (may be NULL: the snapshot's) is updated by accepted evictions. */
int dsi_drain_plan_node(const dsi_drain_cfg *cfg, const dsi_node *node, ds_time now, dsi_pdb_budget *budgets,
			dsi_drain_plan *out, ds_error *err);
void dsi_drain_plan_release(dsi_drain_plan *p);

/* PodDeleteList.Warnings() and errors() as separate group texts, in the
 * order of each group's first pod (kubectl's map order is random):
 * "<message>: ns/pod, ns/pod" and "cannot delete <message>: ns/pod, ...".
 * Returns a JSON array of strings (NULL when out of memory). */
json_t *dsi_drain_groups(const dsi_cluster *c, const dsi_drain_plan *p, int reason);
/* evictPods' errors: "error when evicting pods/\"NAME\" -n \"NS\": MESSAGE" for each pod whose
 * eviction failed, in list order. Returns a JSON array of strings (NULL when out of memory). */
json_t *dsi_drain_eviction_errors(const dsi_cluster *c, const dsi_drain_plan *p);
/* utilerrors aggregate Error(): one text as is, several "[a, b]" with
 * duplicates dropped. texts is an array of strings; returns a new string
 * (NULL when out of memory or empty). */
char *dsi_aggregate_text(const json_t *texts);

/* The ds_drain result (see ds_drain(3)). */
int dsi_drain_json(const dsi_drain_cfg *cfg, const dsi_node *node, ds_time now, json_t **out, ds_error *err);

#endif
