/* The scheduler's filters for one pod on one node, and preemption on that node. */
#ifndef DSI_FIT_H
#define DSI_FIT_H

#include "model/snapshot.h"

/* One failed check, in the scheduler's words. */
typedef struct dsi_fit_reason {
	const char *plugin;                           /* "NodeResourcesFit", "NodePorts", ... */
	char message[128];                            /* "Insufficient cpu" */
	int64_t requested, available, used, capacity; /* for resources; 0 otherwise */
	uint8_t unresolvable; /* the plugin's status is UnschedulableAndUnresolvable, else Unschedulable */
} dsi_fit_reason;

typedef struct dsi_fit {
	dsi_fit_reason reasons[16];
	uint32_t n;
	uint8_t unresolvable; /* the node's status, the first failing plugin's (framework RunFilterPlugins
			       * stops at it), is UnschedulableAndUnresolvable: preemption cannot help */
} dsi_fit;

/* Which existing pods to count: those bound to the node that are not terminal,
 * skipping one pod (the one being replaced) and an optional set of victims. */
typedef struct dsi_node_usage {
	dsi_resources requested; /* sum of counted pods' requests */
	uint32_t pods;           /* number of counted pods */
	dsi_host_port *ports;    /* used host ports */
	uint32_t nports;
} dsi_node_usage;

/* skip(pod, ctx) returns 1 for pods that must not count (may be NULL). */
typedef int (*dsi_pod_filter)(const dsi_pod *p, void *ctx);
int dsi_node_usage_init(const dsi_cluster *c, const dsi_node *node, dsi_pod_filter skip, void *ctx, dsi_node_usage *u);
void dsi_node_usage_release(dsi_node_usage *u);
int dsi_node_usage_add_pod(dsi_node_usage *u, const dsi_podspec *p, int sign);

/* NodeResourcesFit.Filter (scheduler plugins/noderesources/fit.go fitsRequest) */
void dsi_fits_request(const dsi_atoms *atoms, const dsi_resources *req, const dsi_node *node, const dsi_node_usage *u,
		      dsi_fit *out);
/* NodePorts.Filter (scheduler plugins/nodeports/node_ports.go) */
int dsi_fits_ports(const dsi_host_port *want, uint32_t nwant, const dsi_node_usage *u);
/* NodeUnschedulable.Filter (scheduler plugins/nodeunschedulable) with the pod's tolerations. */
int dsi_fits_unschedulable(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_node *node,
			   const dsi_tolerations *tols, int comparison_ops);

/* Every filter for a pod spec (with the given tolerations) on a node. atoms
 * resolves the pod's strings: the snapshot's table, or an overlay on it. */
void dsi_run_filters(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_podspec *spec, const dsi_tolerations *tols,
		     int comparison_ops, const dsi_node *node, const dsi_node_usage *u, dsi_fit *out);

#endif
