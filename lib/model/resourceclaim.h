/*
 * The objects of dynamic resource allocation that kube-scheduler's DynamicResources plugin reads
 * (k8s.io/api resource/v1: ResourceClaim, DeviceClass, ResourceSlice; resource.k8s.io/v1beta2 has
 * the same field layout and is read alike), and a pod's spec.resourceClaims and
 * status.resourceClaimStatuses. Only what the plugin's subset (lib/sched/dynamicresources.c)
 * evaluates is typed; everything the subset does not evaluate is recorded as a reason in `beyond`
 * (a static string), so the plugin says "not evaluated" instead of guessing. Strings point into the
 * object's JSON, which the view keeps.
 */
#ifndef DSI_RESOURCECLAIM_H
#define DSI_RESOURCECLAIM_H

#include <jansson.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/reader.h"
#include "model/nodeselector.h"

/* The selectors of a request or a DeviceClass, as far as the subset reads them: none, or each the
 * exact CEL form `device.driver == "name"` (ANDed: two different names match no device). */
typedef struct dsi_dra_selectors {
	char *driver;    /* NULL: any driver (owned) */
	uint8_t nothing; /* two selectors name different drivers */
} dsi_dra_selectors;

enum { DSI_DRA_REQ_EXACT = 1, DSI_DRA_REQ_FIRST_AVAILABLE = 2, DSI_DRA_REQ_UNKNOWN = 3 };

/* spec.devices.requests[i] (DeviceRequest) */
typedef struct dsi_dra_request {
	const char *name;
	uint8_t type;           /* DSI_DRA_REQ_* */
	const char *class_name; /* exactly.deviceClassName ("" when absent) */
	uint8_t all;            /* exactly.allocationMode All (else ExactCount) */
	int64_t count;          /* ExactCount's count (default 1) */
	dsi_dra_selectors sel;  /* exactly.selectors */
	const char *beyond;     /* why allocating it is outside the subset (NULL: inside) */
	/* firstAvailable: the subrequests' names and device classes (PreFilter checks the classes) */
	const char **sub_names, **sub_classes;
	uint32_t nsub;
} dsi_dra_request;

/* A device by its DeviceID (driver, pool, device). */
typedef struct dsi_dra_device_ref {
	const char *driver, *pool, *device;
} dsi_dra_device_ref;

typedef struct dsi_resource_claim {
	dsi_dra_request *reqs;
	uint32_t nreqs;
	const char *beyond; /* spec.devices.constraints (NULL: inside the subset) */
	uint8_t allocated;  /* status.allocation is set */
	uint8_t has_selector;
	dsi_node_selector selector;            /* status.allocation.nodeSelector */
	const char *selector_beyond;           /* an invalid node selector (NewNodeSelector fails) */
	const char *binding_beyond;            /* results with binding conditions */
	dsi_dra_device_ref *allocated_devices; /* results without adminAccess (they count as in use) */
	uint32_t nallocated;
} dsi_resource_claim;

typedef struct dsi_device_class {
	dsi_dra_selectors sel;         /* spec.selectors */
	const char *extended_resource; /* spec.extendedResourceName (NULL: unset) */
	const char *beyond;
} dsi_device_class;

typedef struct dsi_resource_slice {
	const char *driver, *pool;
	int64_t generation, slice_count; /* spec.pool.generation, resourceSliceCount */
	const char *node_name;           /* spec.nodeName (NULL: unset or "") */
	uint8_t all_nodes;
	uint8_t has_selector;
	dsi_node_selector selector; /* spec.nodeSelector */
	const char *selector_beyond;
	const char **devices; /* spec.devices[].name */
	uint32_t ndevices;
	/* perDeviceNodeSelection, sharedCounters, or a device with consumesCounters, taints, binding
	 * conditions or multiple allocations */
	const char *beyond;
} dsi_resource_slice;

typedef enum dsi_dra_kind { DSI_DRA_CLAIM = 1, DSI_DRA_CLASS, DSI_DRA_SLICE } dsi_dra_kind;

/* The typed view a snapshot's dsi_other of one of these kinds carries. */
typedef struct dsi_dra_obj {
	dsi_dra_kind kind;
	json_t *obj; /* the object as loaded (owned): the strings above point into it */
	union {
		dsi_resource_claim claim;
		dsi_device_class cls;
		dsi_resource_slice slice;
	} u;
} dsi_dra_obj;

/* Which of these kinds kind and api name: 0 when none (another group or kind). A version of
 * resource.k8s.io other than v1 and v1beta2 is DS_EUNSUPPORTED at rd's path + "apiVersion" (v1beta1
 * and v1alpha3 lay requests and devices out differently). */
int dsi_dra_classify(dsi_rd *rd, const char *kind, const char *api, dsi_dra_kind *out);
/* Read obj (kind k) into a new view (*out, dsi_calloc'ed); wrong types are DS_ETYPE, missing names
 * DS_EMISSING (unless rd->lenient), with the field's path. */
int dsi_dra_read(dsi_rd *rd, dsi_atoms *atoms, dsi_dra_kind k, json_t *obj, dsi_dra_obj **out);
void dsi_dra_free(dsi_atoms *atoms, dsi_dra_obj *o);

/* ---- a pod's claims ---- */

/* spec.resourceClaims[i] (PodResourceClaim) */
typedef struct dsi_pod_claim {
	dsi_atom name, claim_name, template_name; /* NONE when absent */
	uint8_t has_claim_name, has_template;     /* the pointer fields are set ("" included) */
} dsi_pod_claim;

/* status.resourceClaimStatuses[i] (PodResourceClaimStatus) */
typedef struct dsi_pod_claim_status {
	dsi_atom name, claim_name;
	uint8_t has_claim_name;
} dsi_pod_claim_status;

typedef struct dsi_pod_claims {
	dsi_pod_claim *v;
	uint32_t n;
	dsi_pod_claim_status *status;
	uint32_t nstatus;
	uint8_t has_status; /* the statuses were read (a Pod object, not a template) */
} dsi_pod_claims;

/* Read spec's member resourceClaims. */
int dsi_pod_claims_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *spec, dsi_pod_claims *out);
/* Read status.resourceClaimStatuses of the Pod object pod. */
int dsi_pod_claim_statuses_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *pod, dsi_pod_claims *out);
void dsi_pod_claims_release(dsi_atoms *atoms, dsi_pod_claims *c);
int dsi_pod_claims_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_pod_claims *src, dsi_pod_claims *dst);

#endif
