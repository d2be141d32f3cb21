/*
 * libdaemonset: Kubernetes value types with upstream semantics:
 * resource.Quantity, IntOrString scaling, label key/value and DNS name
 * validation, label selectors, node selectors. Text in, text out.
 *
 * Include <daemonset.h> rather than this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_VALUES_H
#define DAEMONSET_VALUES_H

#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- resource.Quantity: ds_quantity_parse(3) ------------------------------- */

/* The format a quantity remembers from its suffix (resource.Format). The last enumerator keeps the type
 * as wide as an int under any compiler option (-fshort-enums), as ds_quantity_info's layout needs. */
typedef enum ds_quantity_format {
	DS_QUANTITY_DECIMAL_SI = 0,       /* no suffix, or n u m k M G T P E */
	DS_QUANTITY_BINARY_SI = 1,        /* Ki Mi Gi Ti Pi Ei */
	DS_QUANTITY_DECIMAL_EXPONENT = 2, /* e3, E-6, ... */
	DS_QUANTITY_FORMAT_INT_ = 0x7fffffff
} ds_quantity_format;

/*
 * What a quantity is worth. The caller sets size to
 * sizeof(ds_quantity_info); later versions only append fields.
 */
typedef struct ds_quantity_info {
	size_t size;
	int sign;                  /* -1, 0, 1 */
	ds_quantity_format format; /* int-sized: see ds_quantity_format */
	int verbatim;              /* Kubernetes' String() returns the text unchanged */
	int value_overflow;        /* value does not fit in int64: value is INT64_MAX or INT64_MIN */
	int milli_overflow;        /* likewise for milli_value */
	int reserved;
	int64_t value;       /* Value(): rounded up, away from zero */
	int64_t milli_value; /* MilliValue(): value * 1000 rounded up, away from zero */
} ds_quantity_info;
#define DS_QUANTITY_INFO_INIT DS_SIZED_INIT(ds_quantity_info)

/* Parse text as resource.Quantity (no surrounding white space). canonical
 * (free with ds_free) and info may each be NULL. */
DS_EXTERN int ds_quantity_parse(const char *text, char **canonical, ds_quantity_info *info, ds_error *err);
/* *result = -1, 0 or 1 as a < b, a == b, a > b (exact). */
DS_EXTERN int ds_quantity_compare(const char *a, const char *b, int *result, ds_error *err);
/* a + b in its canonical form (Quantity.Add: the sum keeps a's format unless
 * a is zero). DS_ELIMIT when the exact sum exceeds the representation. */
DS_EXTERN int ds_quantity_add(const char *a, const char *b, char **sum, ds_error *err);

/* ---- IntOrString: ds_intstr_scale(3) --------------------------------------- */

/* GetScaledValueFromIntOrPercent: the value is JSON (or YAML) text, 3 or "25%";
 * "3" (a string) is an error, as upstream; "null" or nothing is a nil value.
 * round_up: ceil, else floor. */
DS_EXTERN int ds_intstr_scale(const char *text, size_t size, int total, int round_up, int *out, ds_error *err);

/* ---- validation: ds_label_key_validate(3) ----------------------------------- */

/* 0, or DS_EVALUE with upstream's messages joined by "; ". */
DS_EXTERN int ds_label_key_validate(const char *key, ds_error *err);
DS_EXTERN int ds_label_value_validate(const char *value, ds_error *err);
DS_EXTERN int ds_dns1123_subdomain_validate(const char *name, ds_error *err);
DS_EXTERN int ds_dns1123_label_validate(const char *name, ds_error *err);

/* ---- label selectors: ds_selector_match(3) ------------------------------------ */

/*
 * selector: a LabelSelector as JSON ({"matchLabels": ..., "matchExpressions":
 * [...]}; text starting with '{') or the string syntax of labels.Parse
 * ("app=web,tier in (a,b),!legacy"); NULL is a nil selector, which matches
 * nothing. labels: a JSON or YAML object of strings ("null" or nothing: none).
 */
DS_EXTERN int ds_selector_match(const char *selector, size_t selector_size, const char *labels, size_t labels_size,
				int *out, ds_error *err);
/* Selector.String(): the canonical string form (free with ds_free). */
DS_EXTERN int ds_selector_format(const char *selector, size_t size, char **out, ds_error *err);

/* ---- node selectors: ds_node_selector_match(3) --------------------------------- */

/*
 * node_selector: a core/v1 NodeSelector as JSON or YAML ({"nodeSelectorTerms":
 * [{"matchExpressions": [...], "matchFields": [...]}]}); node: a Node object
 * (metadata.name and metadata.labels count; "null" is a nil node, which
 * matches nothing). Terms are ORed, requirements ANDed, as
 * MatchNodeSelectorTerms: *out = 1 when a valid term matches; else *out = 0
 * and DS_EVALUE with upstream's parse errors if a term is invalid.
 */
DS_EXTERN int ds_node_selector_match(const char *node_selector, size_t selector_size, const char *node,
				     size_t node_size, int *out, ds_error *err);

/* ---- superseded names (SONAME 1 keeps them; see "Conventions" in daemonset(7)) ---- */
#ifndef DS_NO_DEPRECATED
DS_EXTERN DS_DEPRECATED("ds_intstr_scale") int ds_intstr_scaled(const char *value, int total, int round_up, int *out,
								ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_selector_match") int ds_selector_matches(const char *selector, const char *labels, int *out,
								     ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_selector_format") int ds_selector_string(const char *selector, char **out, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_node_selector_match") int ds_node_selector_matches(const char *node_selector,
									       const char *node, int *out,
									       ds_error *err);
#endif

#ifdef __cplusplus
}
#endif
#endif
