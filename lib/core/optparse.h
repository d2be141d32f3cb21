/*
 * Named settings, typed and validated when set: the mechanism behind ds_options. Each layer owns
 * a struct of its settings and a table describing them (X/X_options.h); the public, string-keyed
 * ds_options (lib/api/api_options.c) holds one struct per layer and feeds them through these
 * tables. This layer's own settings (version, feature gates, limits) are at the end.
 */
#ifndef DSI_OPTPARSE_H
#define DSI_OPTPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "core/limits.h"
#include "core/strbuf.h"
#include "daemonset/common.h"

typedef enum dsi_opt_type {
	DSI_OPT_BOOL,     /* int 0/1 */
	DSI_OPT_TRISTATE, /* int -1 (unset), 0, 1 */
	DSI_OPT_INT32,
	DSI_OPT_INT64,
	DSI_OPT_SIZE,     /* size_t */
	DSI_OPT_DURATION, /* int64_t milliseconds, set as a Go duration ("30s") */
	DSI_OPT_STRING,   /* char * owned by the struct, NULL when unset */
	DSI_OPT_VERSION,  /* int: the minor of 1.<minor>; the core options only (it sets the gates' defaults) */
	DSI_OPT_GATES,    /* unsigned: DSI_GATE_* bits; the core options only (dsi_core_options.gates_*) */
} dsi_opt_type;

typedef struct dsi_opt_def {
	const char *name; /* the public name: "burstReplicas" */
	dsi_opt_type type;
	size_t offset; /* of the field in the layer's struct */
	int64_t min, max;
	const char *const *choices;              /* DSI_OPT_STRING: the allowed values, NULL = any */
	const char *(*check)(const char *value); /* DSI_OPT_STRING: NULL, or what was expected */
	const char *unset;                       /* DSI_OPT_STRING: what reading an unset value shows ("" when NULL) */
} dsi_opt_def;

/* A layer's settings: its definitions, the size of its struct and the defaults. */
typedef struct dsi_opt_table {
	const dsi_opt_def *defs;
	size_t n;
	size_t size;
	const void *defaults;
} dsi_opt_table;

/* The definition named name in t, or NULL. */
const dsi_opt_def *dsi_opt_find(const dsi_opt_table *t, const char *name);
/* Set d's field of the struct at base from text; DS_EVALUE with the name as path when it does not
 * parse or is out of range (the field is then unchanged). */
int dsi_opt_set(const dsi_opt_def *d, void *base, const char *value, ds_error *err);
/* d's field as text, as ds_options_get shows it. */
void dsi_opt_format(const dsi_opt_def *d, const void *base, dsi_strbuf *b);
/* dst = src with its strings duplicated; on failure (-1) dst holds nothing to free. */
int dsi_opt_copy(const dsi_opt_table *t, void *dst, const void *src);
/* Free the strings of the struct at base and set them to NULL. */
void dsi_opt_free(const dsi_opt_table *t, void *base);

/* Go time.ParseDuration into milliseconds (sub-millisecond parts truncated). */
int dsi_parse_duration_ms(const char *s, int64_t *out);

/* ---- core's own settings ---------------------------------------------------------------------- */

/* Feature gates (upstream names), one bit each: those whose value changes a decision the library
 * makes (optparse.c has their defaults per Kubernetes version). */
enum {
	DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS = 1u << 0, /* toleration operators Gt and Lt */
	DSI_GATE_POD_LEVEL_RESOURCES = 1u << 1,                   /* spec.resources in the fit */
	DSI_GATE_SIDECAR_CONTAINERS = 1u << 2,                    /* restartable init containers */
	DSI_GATE_DRA_EXTENDED_RESOURCE = 1u << 3,                 /* extended resources backed by DRA */
	DSI_GATE_RELAXED_ENV_VAR_VALIDATION = 1u << 4,            /* env var names: any printable ASCII but = */
	DSI_GATE_DYNAMIC_RESOURCE_ALLOCATION = 1u << 5,           /* the DynamicResources plugin runs */
};

/* What every layer may read: the Kubernetes version whose behaviour to follow, the feature gates,
 * and the limits for reading input. */
typedef struct dsi_core_options {
	int k8s_minor;      /* kubernetesVersion 1.<minor> */
	unsigned gates;     /* DSI_GATE_*: the version's defaults, then those featureGates set */
	unsigned gates_set; /* the gates featureGates named ... */
	unsigned gates_on;  /* ... and their values */
	dsi_limits limits;
	int load_threads; /* loadThreads: threads a load may use, 0 for the online CPUs */
} dsi_core_options;

/* The gates on by default in Kubernetes 1.<minor> (upstream's versioned specs). */
unsigned dsi_gates_default(int minor);

extern const dsi_opt_table dsi_core_option_table;
const dsi_core_options *dsi_core_options_default(void);
static inline int dsi_gate(const dsi_core_options *o, unsigned gate) { return (o->gates & gate) != 0; }

#endif
