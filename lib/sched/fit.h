/* The scheduler's filters for one pod on one node, and preemption on that node. */
#ifndef DSI_FIT_H
#define DSI_FIT_H

#include "model/snapshot.h"

/* One failed check, in the scheduler's words. */
typedef struct dsi_fit_reason {
	const char *plugin;                           /* "NodeResourcesFit", "NodePorts", ... */
	char message[512];                            /* "Insufficient cpu" */
	int64_t requested, available, used, capacity; /* for resources; 0 otherwise */
	uint8_t unresolvable; /* the plugin's status is UnschedulableAndUnresolvable, else Unschedulable */
	uint8_t error;        /* the plugin's PreFilter failed: status Error */
} dsi_fit_reason;

/* The Filter plugins of kube-scheduler's default profile, in its order (pkg/scheduler/apis/config/v1
 * default_plugins.go getDefaultPlugins; DynamicResources goes before DefaultPreemption). */
typedef enum dsi_plugin {
	DSI_P_NODE_UNSCHEDULABLE,
	DSI_P_TAINT_TOLERATION,
	DSI_P_NODE_AFFINITY,
	DSI_P_NODE_PORTS,
	DSI_P_NODE_RESOURCES_FIT,
	DSI_P_VOLUME_RESTRICTIONS,
	DSI_P_NODE_VOLUME_LIMITS,
	DSI_P_VOLUME_BINDING,
	DSI_P_VOLUME_ZONE,
	DSI_P_POD_TOPOLOGY_SPREAD,
	DSI_P_INTER_POD_AFFINITY,
	DSI_P_DYNAMIC_RESOURCES,
	DSI_P_COUNT
} dsi_plugin;
const char *dsi_plugin_name(dsi_plugin p);

/* How many reasons a dsi_fit keeps. A pod can fail on more (NodeResourcesFit gives one per extended
 * resource): those are counted in omitted, never dropped silently. */
#define DSI_FIT_MAX_REASONS 16

typedef struct dsi_fit {
	dsi_fit_reason reasons[DSI_FIT_MAX_REASONS];
	uint32_t n;
	/* the reasons found beyond reasons[] (answers end with an "Omitted" entry counting them, "and N
	 * more reasons"), and the plugin of the first of them */
	uint32_t omitted;
	const char *omitted_plugin;
	/* bit (1u << dsi_plugin): its Filter ran; its PreFilter returned Skip (nothing of the pod
	 * concerns it: the Filter passes without running); the pod needs it and the library does not
	 * evaluate it (volumes, resource claims): the node's answer is unknown, never "fits" */
	uint32_t ran, skipped, not_evaluated;
	const char *dra_not_evaluated; /* why DynamicResources was not evaluated (static) */
	uint8_t unresolvable;          /* the node's status, the first failing plugin's (framework RunFilterPlugins
					* stops at it), is UnschedulableAndUnresolvable: preemption cannot help */
} dsi_fit;

/* The incoming pod as the cluster-wide filters (InterPodAffinity, PodTopologySpread) read it: its
 * strings in atoms (the snapshot's table, or an overlay on it). */
typedef struct dsi_sched_pod {
	const dsi_atoms *atoms;
	dsi_atom ns;
	const dsi_labels *labels;
	const dsi_podspec *spec;
	const dsi_tolerations *tols; /* the tolerations the pod has (a daemon pod: with the defaults) */
	int comparison_ops;          /* the TaintTolerationComparisonOperators gate */
	/* a daemon pod whose required node affinity is the metadata.name pin to the node filtered
	 * (ReplaceDaemonSetPodNodeNameNodeAffinity) beside its nodeSelector; else spec's own */
	int pinned;
	/* DynamicResources and NodeVolumeLimits: the pod's name and uid (resourceclaim.IsForPod and its
	 * messages; an ephemeral volume's claim is named after the pod and controlled by it), and
	 * whether it is a Pod object, whose status names the claims made from templates (0: the pod a
	 * DaemonSet would create, whose template claims do not exist yet) */
	dsi_atom name, uid;
	int exists;
	unsigned gates; /* DSI_GATE_* in force (DynamicResourceAllocation, DRAExtendedResource) */
} dsi_sched_pod;

/* Which existing pods to count: those bound to the node that are not terminal,
 * skipping one pod (the one being replaced) and an optional set of victims. */
typedef struct dsi_node_usage {
	dsi_resources requested; /* sum of counted pods' requests */
	uint32_t pods;           /* number of counted pods */
	dsi_host_port *ports;    /* used host ports */
	uint32_t nports;
	dsi_disk *disks; /* the counted pods' disk volumes (borrowed monitors) */
	uint32_t ndisks;
	const struct dsi_pod **vpods; /* the counted pods with claims or migratable inline volumes */
	uint32_t nvpods;
} dsi_node_usage;

/* skip(pod, ctx) returns 1 for pods that must not count (may be NULL). */
typedef int (*dsi_pod_filter)(const dsi_pod *p, void *ctx);
int dsi_node_usage_init(const dsi_cluster *c, const dsi_node *node, dsi_pod_filter skip, void *ctx, dsi_node_usage *u);
void dsi_node_usage_release(dsi_node_usage *u);
int dsi_node_usage_add_pod(dsi_node_usage *u, const dsi_podspec *p, int sign);
/* Count pod p's claims and inline volumes for NodeVolumeLimits too (dsi_node_usage_init does). */
int dsi_node_usage_add_volumes(dsi_node_usage *u, const dsi_pod *p);

/* NodeResourcesFit.Filter (scheduler plugins/noderesources/fit.go fitsRequest); c non-NULL: the
 * DRAExtendedResource gate is on, and a resource the node does not advertise that one of c's
 * DeviceClasses backs is left to DynamicResources (shouldDelegateResourceToDRA) */
void dsi_fits_request(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_resources *req, const dsi_node *node,
		      const dsi_node_usage *u, dsi_fit *out);
/* NodePorts.Filter (scheduler plugins/nodeports/node_ports.go) */
int dsi_fits_ports(const dsi_host_port *want, uint32_t nwant, const dsi_node_usage *u);
/* NodeUnschedulable.Filter (scheduler plugins/nodeunschedulable) with the pod's tolerations. */
int dsi_fits_unschedulable(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_node *node,
			   const dsi_tolerations *tols, int comparison_ops);

struct dsi_cycle;
/* Every filter for a pod spec (with the given tolerations) on a node, in the profile's order; the
 * cluster-wide ones (PodTopologySpread, InterPodAffinity) from the pod's cycle (lib/sched/cycle.h),
 * whose PreFilter ran on the same pods as u counts. atoms resolves the pod's strings: the
 * snapshot's table, or an overlay on it. */
void dsi_run_filters(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_podspec *spec, const dsi_tolerations *tols,
		     int comparison_ops, const dsi_node *node, const dsi_node_usage *u, const struct dsi_cycle *cy,
		     dsi_fit *out);
/* "fits": no filter failed and none was left unevaluated. */
static inline int dsi_fit_ok(const dsi_fit *f) { return f->n == 0 && f->not_evaluated == 0; }

#endif
