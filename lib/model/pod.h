/* A Pod as placement, planning, fit and drain read it. */
#ifndef DSI_POD_H
#define DSI_POD_H

#include <jansson.h>

#include "model/meta.h"
#include "model/podspec.h"

enum {
	DSI_PHASE_NONE = 0,
	DSI_PHASE_PENDING,
	DSI_PHASE_RUNNING,
	DSI_PHASE_SUCCEEDED,
	DSI_PHASE_FAILED,
	DSI_PHASE_UNKNOWN
};

#define DSI_NO_NODE UINT32_MAX

/* The fields a sync's passes read for every pod (phase, readiness, revision labels, the node's
 * index, metadata.namespace, labels and deletionTimestamp) lie in the first 64 bytes, which is one cache
 * line in a snapshot's slab (lib/model/snapshot.c aligns pods there): a sync walks tens of
 * thousands of pods several times. The layout is no part of any interface. */
typedef struct dsi_pod {
	/* owned by the snapshot */
	uint32_t index;
	uint32_t group_pos;  /* position in its owner group (dsi_cluster_pods_of_owner, dsi_cluster_orphans) */
	uint32_t node_index; /* with spec.node_name: index of the node of that name, DSI_NO_NODE when absent */
	/* read from the object */
	dsi_atom revision_hash;       /* label controller-revision-hash (the labels hold the reference) */
	dsi_atom template_generation; /* label pod-template-generation (likewise) */
	uint8_t phase;
	uint8_t ready;          /* condition Ready is True */
	uint8_t has_ready_time; /* its lastTransitionTime */
	ds_time ready_time;
	dsi_meta meta;
	uint8_t has_start_time;
	uint8_t is_mirror; /* annotation kubernetes.io/config.mirror present */
	ds_time start_time;
	dsi_podspec spec;
	/* owned by the snapshot */
	struct dsi_pod *node_next, *node_prev; /* pods with the same spec.nodeName */
	struct dsi_slab *slab; /* the block the pod and its labels live in (lib/model/snapshot.c), or NULL */
} dsi_pod;

int dsi_pod_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, unsigned gates, dsi_pod *out);
void dsi_pod_release(dsi_atoms *atoms, dsi_pod *p);
int dsi_pod_copy(dsi_atoms *atoms, const dsi_pod *src, dsi_pod *dst);
/* The same from table from into table to. */
int dsi_pod_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_pod *src, dsi_pod *dst);
const char *dsi_phase_name(int phase);
/* Terminal: phase Succeeded or Failed. */
static inline int dsi_pod_terminal(const dsi_pod *p)
{
	return p->phase == DSI_PHASE_SUCCEEDED || p->phase == DSI_PHASE_FAILED;
}

#endif
