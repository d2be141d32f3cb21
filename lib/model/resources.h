/*
 * Resource lists and the scheduler's view of them: a pod's aggregate request
 * (component-helpers resource.PodRequests) and a node's allocatable, in the
 * units NodeResourcesFit compares (cpu in millicores, the rest in Value()).
 */
#ifndef DSI_RESOURCES_H
#define DSI_RESOURCES_H

#include <jansson.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/reader.h"
#include "model/quantity.h"

/* A ResourceList: name -> exact quantity. */
typedef struct dsi_qentry {
	dsi_atom name;
	dsi_quantity q;
} dsi_qentry;

typedef struct dsi_qlist {
	dsi_qentry *v;
	uint32_t n, cap;
} dsi_qlist;

int dsi_qlist_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_qlist *out);
void dsi_qlist_release(dsi_atoms *atoms, dsi_qlist *l);
dsi_quantity *dsi_qlist_get(dsi_qlist *l, dsi_atom name);
/* l[name] = max(l[name], q) / l[name] += q. -1 on allocation failure or overflow. */
int dsi_qlist_max(dsi_atoms *atoms, dsi_qlist *l, dsi_atom name, const dsi_quantity *q);
int dsi_qlist_add(dsi_atoms *atoms, dsi_qlist *l, dsi_atom name, const dsi_quantity *q);

/* A scalar resource (extended, hugepages-*, prefixed native, attachable-volumes-*). */
typedef struct dsi_scalar {
	dsi_atom name;
	int64_t value;
} dsi_scalar;

/* framework.Resource: what NodeResourcesFit compares. */
typedef struct dsi_resources {
	int64_t milli_cpu;
	int64_t memory;
	int64_t ephemeral;
	int64_t pods; /* allowed pod count (nodes); unused for pods */
	dsi_scalar *scalars;
	uint32_t nscalars;
} dsi_resources;

void dsi_resources_release(dsi_atoms *atoms, dsi_resources *r);
int dsi_resources_copy(dsi_atoms *atoms, const dsi_resources *src, dsi_resources *dst);
int dsi_resources_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_resources *src, dsi_resources *dst);
int64_t dsi_resources_scalar(const dsi_resources *r, dsi_atom name);
/* Convert a ResourceList the way the scheduler's Resource.Add does: cpu to
 * milli, memory/ephemeral-storage/scalars to Value(), pods to the count,
 * other names ignored. Overflow is DS_EVALUE at the entry's path. */
int dsi_resources_from_qlist(dsi_rd *rd, dsi_atoms *atoms, const dsi_qlist *l, dsi_resources *out);

/* v1helper resource-name classes (pkg/apis/core/v1/helper/helpers.go). */
int dsi_is_scalar_resource_name(const char *name);
int dsi_is_extended_resource_name(const char *name);

/* Containers as PodRequests needs them. */
typedef struct dsi_container_req {
	dsi_qlist requests;
	uint8_t restartable_init; /* init container with restartPolicy: Always (sidecar) */
} dsi_container_req;

/* PodRequests (component-helpers resource/helpers.go): max(sum(containers) +
 * sum(sidecars), max over init containers of their request plus the sidecars
 * started before them); pod-level cpu/memory/hugepages requests replace those
 * entries when PodLevelResources is on; then overhead is added. */
int dsi_pod_requests(dsi_atoms *atoms, const dsi_container_req *containers, uint32_t ncontainers,
		     const dsi_container_req *inits, uint32_t ninits, const dsi_qlist *pod_level,
		     const dsi_qlist *overhead, int pod_level_resources, dsi_qlist *out);

#endif
