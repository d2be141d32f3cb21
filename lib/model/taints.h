/* Taints (node.spec.taints) and tolerations (pod.spec.tolerations), typed and interned. */
#ifndef DSI_TAINTS_H
#define DSI_TAINTS_H

#include <jansson.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/jsonout.h"
#include "core/reader.h"

/*
 * An effect or an operator is a small number for the values the API knows and, for any other
 * string (which only a lenient read accepts, see dsi_rd.lenient), DSI_EFFECT_OTHER or DSI_TOL_OTHER
 * plus the atom of the string, holding a reference. Two effects (or operators) are then the same
 * string exactly when the numbers are equal, which is all ToleratesTaint and MatchToleration ask.
 */
typedef enum dsi_effect {
	DSI_EFFECT_ALL = 0, /* "": a toleration with no effect matches every effect */
	DSI_EFFECT_NO_SCHEDULE = 1,
	DSI_EFFECT_PREFER_NO_SCHEDULE = 2,
	DSI_EFFECT_NO_EXECUTE = 3,
	DSI_EFFECT_OTHER = 4, /* + the atom of an effect the API does not know ("noschedule") */
} dsi_effect;

typedef enum dsi_toleration_op {
	DSI_TOL_EQUAL = 0, /* "" or "Equal" */
	DSI_TOL_EXISTS,
	DSI_TOL_LT, /* gated: TaintTolerationComparisonOperators */
	DSI_TOL_GT,
	DSI_TOL_OTHER, /* + the atom of an operator the API does not know ("In"): tolerates nothing */
} dsi_toleration_op;

/* The bit of an effect in an effect mask; every unknown effect shares one. */
static inline unsigned dsi_effect_bit(uint32_t effect)
{
	return effect < DSI_EFFECT_OTHER ? 1u << effect : 1u << DSI_EFFECT_OTHER;
}

/* Empty keys and values are DSI_ATOM_NONE on both sides, so equality is id equality. */
typedef struct dsi_taint {
	dsi_atom key, value;
	uint32_t effect; /* dsi_effect; DSI_EFFECT_ALL ("") only from a lenient read */
} dsi_taint;

typedef struct dsi_toleration {
	dsi_atom key, value;
	uint32_t op;      /* dsi_toleration_op */
	uint32_t effect;  /* dsi_effect */
	uint8_t op_empty; /* operator was "" (kept apart from "Equal": MatchToleration compares the strings) */
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
enum {
	DSI_WK_NOT_READY,
	DSI_WK_UNREACHABLE,
	DSI_WK_UNSCHEDULABLE,
	DSI_WK_MEMORY_PRESSURE,
	DSI_WK_DISK_PRESSURE,
	DSI_WK_NETWORK_UNAVAILABLE,
	DSI_WK_PID_PRESSURE,
	DSI_WK_OUT_OF_SERVICE
}; /* indexes of the list below */
extern const char *const dsi_well_known_taint_keys[DSI_N_WELL_KNOWN_TAINTS];

/* The string of a known effect or operator ("" for an unknown one: see dsi_effect_text). */
const char *dsi_effect_name(uint32_t effect);
const char *dsi_toleration_op_name(uint32_t op);
/* The string of any effect or operator, unknown ones included. */
const char *dsi_effect_text(const dsi_atoms *atoms, uint32_t effect);
const char *dsi_toleration_op_text(const dsi_atoms *atoms, uint32_t op);

/* Read node.spec.taints / pod.spec.tolerations (member `key` of obj). Unknown
 * effects and operators, and a taint without a key or an effect, are DS_EVALUE
 * or DS_EMISSING, as the API server would refuse them; a lenient read
 * (rd->lenient) takes them as Go's decoder does, as plain strings. */
int dsi_taints_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_taints *out);
int dsi_tolerations_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_tolerations *out);
/* One taint or toleration object (the value itself, at rd's current path); release with the pair below. */
int dsi_taint_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *v, dsi_taint *out);
int dsi_toleration_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *v, dsi_toleration *out);
void dsi_taint_release(dsi_atoms *atoms, dsi_taint *t);
void dsi_toleration_release(dsi_atoms *atoms, dsi_toleration *t);
void dsi_taints_release(dsi_atoms *atoms, dsi_taints *t);
void dsi_tolerations_release(dsi_atoms *atoms, dsi_tolerations *t);
int dsi_tolerations_copy(dsi_atoms *atoms, const dsi_tolerations *src, dsi_tolerations *dst);
int dsi_taints_copy(dsi_atoms *atoms, const dsi_taints *src, dsi_taints *dst);
/* The same two from table from into table to; -1 without memory. */
int dsi_tolerations_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_tolerations *src, dsi_tolerations *dst);
int dsi_taints_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_taints *src, dsi_taints *dst);

/* Taint.ToString: key=value:effect, key:effect, ... */
json_t *dsi_taint_to_json(const dsi_atoms *atoms, const dsi_taint *t);
json_t *dsi_toleration_to_json(const dsi_atoms *atoms, const dsi_toleration *t);
/* The tolerations as text: what dsi_toleration_to_json's objects print as Go's []Toleration
 * (dsi_go_encode, then compact with keys sorted: its empty strings left out). */
void dsi_tolerations_write(dsi_jout *o, const dsi_atoms *atoms, const dsi_tolerations *t);
/* Tolerations and the table of their strings, for writers that take one context pointer
 * (apiserver/goemit.h's dsi_go_member): the text of dsi_tolerations_write and its JSON (a new
 * array, NULL without memory). */
typedef struct dsi_tolerations_ref {
	const dsi_atoms *atoms;
	const dsi_tolerations *tols;
} dsi_tolerations_ref;
void dsi_tolerations_ref_write(dsi_jout *o, const void *ref);
json_t *dsi_tolerations_ref_json(const void *ref);
/* "key=value:Effect" as upstream's Taint.ToString prints it (into buf). */
void dsi_taint_string(const dsi_atoms *atoms, const dsi_taint *t, char *buf, size_t size);

#endif
