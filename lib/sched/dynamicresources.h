/* DynamicResources' PreFilter and Filter (kube-scheduler pkg/scheduler/framework/plugins/
 * dynamicresources/dynamicresources.go), for the subset of dynamic resource allocation that the
 * library evaluates exactly; see lib/sched/dynamicresources.c for the subset and why. Outside it
 * the plugin is "not evaluated" on the node, never "fits". */
#ifndef DSI_DYNAMICRESOURCES_H
#define DSI_DYNAMICRESOURCES_H

#include "sched/fit.h"

/* A request (or all of them) to allocate, flattened over the pod's claims in order. */
typedef struct dsi_dra_want {
	uint32_t claim;              /* index in claims[] */
	const dsi_dra_request *req;  /* the request */
	const dsi_device_class *cls; /* its DeviceClass */
} dsi_dra_want;

typedef struct dsi_dra_state {
	uint8_t skip;              /* PreFilter returned Skip: no claims (or all of them skipped) */
	const char *not_evaluated; /* the subset cannot answer (a static reason); NULL otherwise */
	char *error;               /* PreFilter's status message (every node fails with it) */
	uint8_t error_is_error;    /* status Error rather than UnschedulableAndUnresolvable */
	/* the pod's claims in spec.resourceClaims order (borrowed from the snapshot), their names */
	const dsi_resource_claim **claims;
	char **claim_refs; /* "namespace/name" (klog.KObj) */
	uint32_t nclaims;
	/* the claims to allocate: the allocator's part */
	dsi_dra_want *want;
	uint32_t nwant;
	const char *alloc_not_evaluated; /* the allocator's part is outside the subset */
	/* the snapshot's ResourceSlices (borrowed): those with a nodeName sorted by it, then the others
	 * (allNodes, nodeSelector, none); and the devices allocated to any claim */
	const dsi_resource_slice **slices;
	uint32_t nslices, nnamed;
	const dsi_dra_device_ref **in_use; /* sorted (driver, pool, device) */
	uint32_t nin_use;
	uint8_t owned; /* release frees the arrays (a clone borrows them) */
} dsi_dra_state;

/* PreFilter (dynamicresources.go) for the pod over c's claims, classes and slices. -1 without
 * memory. */
int dsi_dra_prefilter(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_dra_state *st);
/* Whether one of c's DeviceClasses backs the extended resource name (its extendedResourceName, or
 * deviceclass.resource.kubernetes.io/<class>: the DRAExtendedResource mapping). */
int dsi_dra_backs_extended(const dsi_cluster *c, const char *name);
/* Clone (O(1)): dst reads through to src, which must outlive it. */
void dsi_dra_clone(const dsi_dra_state *src, dsi_dra_state *dst);
void dsi_dra_release(dsi_dra_state *st);

enum { DSI_DRA_OK = 0, DSI_DRA_FAIL, DSI_DRA_ERROR, DSI_DRA_NOT_EVALUATED };
/* Filter (dynamicresources.go) on node: DSI_DRA_OK, DSI_DRA_FAIL (UnschedulableAndUnresolvable)
 * or DSI_DRA_ERROR (status Error) with the message in msg, or DSI_DRA_NOT_EVALUATED with the
 * reason in *why (static). */
int dsi_dra_filter(const dsi_cluster *c, const dsi_dra_state *st, const dsi_node *node, char *msg, size_t size,
		   const char **why);

#endif
