/* PodDisruptionBudget (policy/v1) and PriorityClass (scheduling.k8s.io/v1). */
#ifndef DSI_PDB_H
#define DSI_PDB_H

#include <jansson.h>

#include "model/intstr.h"
#include "model/meta.h"
#include "model/selector.h"

typedef struct dsi_pdb {
	dsi_meta meta;
	json_t *obj; /* the object as loaded (owned) */
	dsi_selector selector;
	uint8_t selector_empty_or_nil; /* protects nothing (filterPodsWithPDBViolation) */
	uint8_t has_min_available, has_max_unavailable;
	dsi_intstr min_available, max_unavailable;
	int32_t disruptions_allowed, current_healthy, desired_healthy, expected_pods;
	dsi_atom *disrupted; /* status.disruptedPods names */
	uint32_t ndisrupted;
	uint32_t index;
} dsi_pdb;

int dsi_pdb_read(dsi_rd *rd, dsi_atoms *atoms, json_t *obj, dsi_pdb *out);
void dsi_pdb_release(dsi_atoms *atoms, dsi_pdb *p);

typedef struct dsi_priority_class {
	dsi_meta meta;
	int32_t value;
	uint8_t global_default;
	uint8_t preempt_never;
	uint32_t index;
} dsi_priority_class;

int dsi_priority_class_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_priority_class *out);
void dsi_priority_class_release(dsi_atoms *atoms, dsi_priority_class *p);

#endif
