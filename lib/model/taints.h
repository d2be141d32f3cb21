/* Taints (node.spec.taints) and tolerations (pod.spec.tolerations), typed and interned. */
#ifndef DSI_TAINTS_H
#define DSI_TAINTS_H

#include <jansson.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/reader.h"

typedef enum dsi_effect {
	DSI_EFFECT_ALL = 0, /* toleration with no effect: matches every effect */
	DSI_EFFECT_NO_SCHEDULE = 1,
	DSI_EFFECT_PREFER_NO_SCHEDULE = 2,
	DSI_EFFECT_NO_EXECUTE = 3,
} dsi_effect;

typedef enum dsi_toleration_op {
	DSI_TOL_EQUAL = 0, /* "" or "Equal" */
	DSI_TOL_EXISTS,
	DSI_TOL_LT, /* gated: TaintTolerationComparisonOperators */
	DSI_TOL_GT,
} dsi_toleration_op;

/* Empty keys and values are DSI_ATOM_NONE on both sides, so equality is id equality. */
typedef struct dsi_taint {
	dsi_atom key, value;
	uint8_t effect; /* never DSI_EFFECT_ALL: the API requires an effect */
} dsi_taint;

typedef struct dsi_toleration {
	dsi_atom key, value;
	uint8_t op;
	uint8_t op_empty; /* operator was "" (kept apart from "Equal": MatchToleration compares the strings) */
	uint8_t effect;
	uint8_t has_seconds;
	int64_t seconds; /* tolerationSeconds; no part in matching */
} dsi_toleration;

typedef struct dsi_taints {
	dsi_taint *v;
	uint32_t n;
} dsi_taints;

typedef struct dsi_tolerations {
	dsi_toleration *v;
	uint32_t n;
} dsi_tolerations;

/* Well-known taint keys (k8s.io/api core/v1 well_known_taints.go). The snapshot
 * keeps them interned so that read-only code can look them up. */
#define DSI_TAINT_NOT_READY "node.kubernetes.io/not-ready"
#define DSI_TAINT_UNREACHABLE "node.kubernetes.io/unreachable"
#define DSI_TAINT_UNSCHEDULABLE "node.kubernetes.io/unschedulable"
#define DSI_TAINT_MEMORY_PRESSURE "node.kubernetes.io/memory-pressure"
#define DSI_TAINT_DISK_PRESSURE "node.kubernetes.io/disk-pressure"
#define DSI_TAINT_NETWORK_UNAVAILABLE "node.kubernetes.io/network-unavailable"
#define DSI_TAINT_PID_PRESSURE "node.kubernetes.io/pid-pressure"
#define DSI_TAINT_OUT_OF_SERVICE "node.kubernetes.io/out-of-service"
#define DSI_N_WELL_KNOWN_TAINTS 8
enum { DSI_WK_NOT_READY, DSI_WK_UNREACHABLE, DSI_WK_UNSCHEDULABLE, DSI_WK_MEMORY_PRESSURE, DSI_WK_DISK_PRESSURE,
       DSI_WK_NETWORK_UNAVAILABLE, DSI_WK_PID_PRESSURE, DSI_WK_OUT_OF_SERVICE }; /* indexes of the list below */
extern const char *const dsi_well_known_taint_keys[DSI_N_WELL_KNOWN_TAINTS];

const char *dsi_effect_name(int effect);
const char *dsi_toleration_op_name(int op);

/* Read node.spec.taints / pod.spec.tolerations (member `key` of obj). Unknown
 * effects and operators are DS_EVALUE, as the API server would refuse them. */
int dsi_taints_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_taints *out);
int dsi_tolerations_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_tolerations *out);
void dsi_taints_release(dsi_atoms *atoms, dsi_taints *t);
void dsi_tolerations_release(dsi_atoms *atoms, dsi_tolerations *t);
int dsi_tolerations_copy(dsi_atoms *atoms, const dsi_tolerations *src, dsi_tolerations *dst);
int dsi_taints_copy(dsi_atoms *atoms, const dsi_taints *src, dsi_taints *dst);

/* Taint.ToString: key=value:effect, key:effect, ... */
json_t *dsi_taint_to_json(const dsi_atoms *atoms, const dsi_taint *t);
json_t *dsi_toleration_to_json(const dsi_atoms *atoms, const dsi_toleration *t);
/* "key=value:Effect" as upstream's Taint.ToString prints it (into buf). */
void dsi_taint_string(const dsi_atoms *atoms, const dsi_taint *t, char *buf, size_t size);

#endif
