/* A Node as the semantics need it (labels, taints, unschedulable, allocatable, conditions). */
#ifndef DSI_NODE_H
#define DSI_NODE_H

#include <jansson.h>

#include "model/meta.h"
#include "model/resources.h"
#include "model/taints.h"

enum { DSI_COND_UNKNOWN = 0, DSI_COND_TRUE = 1, DSI_COND_FALSE = 2 };

typedef struct dsi_condition {
	dsi_atom type;
	uint8_t status;
	uint8_t has_transition;
	ds_time last_transition;
} dsi_condition;

/* What the placement pass reads of every node (index, taints, unschedulable,
 * name, labels) is in the first 64 bytes, and slabs start nodes on a cache
 * line: one line per node, then its labels and taints (checked in node.c). */
typedef struct dsi_node {
	/* owned by the snapshot */
	uint32_t index; /* position in the snapshot's node array; pods: dsi_cluster_pods_on_node */
	uint8_t unschedulable;
	uint8_t has_allocatable; /* status.allocatable present */
	dsi_taints taints;
	dsi_meta meta;
	dsi_resources allocatable;
	dsi_condition *conditions;
	uint32_t nconditions;
	struct dsi_slab *slab; /* the block the node, its labels and taints live in (lib/model/snapshot.c), or NULL */
	/* the hash of the watch event's object this node was read from (model/nodeevent.h), so that a
	 * later event which changes nothing the model reads is known as one; has_event_hash 0: none
	 * (a node from a load, a copy, any other path) */
	uint64_t event_hash[2];
	uint8_t has_event_hash;
} dsi_node;

int dsi_node_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_node *out);
void dsi_node_release(dsi_atoms *atoms, dsi_node *n);
int dsi_node_copy(dsi_atoms *atoms, const dsi_node *src, dsi_node *dst);
/* A copy of a node of table from in table to (a node parsed on its own from a snapshot's). */
int dsi_node_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_node *src, dsi_node *dst);
json_t *dsi_node_to_json(const dsi_atoms *atoms, const dsi_node *n);

/* Conditions are read the same way for nodes and pods. */
int dsi_conditions_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *status, dsi_condition **out, uint32_t *n);
json_t *dsi_resources_to_json(const dsi_atoms *atoms, const dsi_resources *r);

#endif
