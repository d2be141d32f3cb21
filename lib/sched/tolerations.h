/* Toleration matching (k8s.io/api core/v1 toleration.go, component-helpers scheduling/corev1 helpers.go). */
#ifndef DSI_TOLERATIONS_H
#define DSI_TOLERATIONS_H

#include "model/taints.h"

/*
 * The toleration's strings are in table ta and the taint's in tb: one table for objects of one
 * snapshot (pass it twice: the comparisons are of ids), two for objects parsed apart (ds_object),
 * whose strings are then compared (dsi_atom_eq_x).
 */

/* Lt and Gt of ToleratesTaint: both values must be decimal integers. */
int dsi_tolerates_taint_compare(const dsi_atoms *ta, const dsi_toleration *tol, const dsi_atoms *tb,
				const dsi_taint *taint, int comparison_ops);

/* Two effects are the same string: known ones by number, unknown ones by their strings. */
static inline int dsi_effect_eq_x(const dsi_atoms *ta, uint32_t a, const dsi_atoms *tb, uint32_t b)
{
	if (ta == tb || a < DSI_EFFECT_OTHER || b < DSI_EFFECT_OTHER)
		return a == b;
	return dsi_atom_eq_x(ta, a - DSI_EFFECT_OTHER, tb, b - DSI_EFFECT_OTHER);
}

/* ToleratesTaint (k8s.io/api core/v1 toleration.go): effect, then key, then operator;
 * comparison_ops is the TaintTolerationComparisonOperators gate. Inline: placement asks it for
 * each taint of each node and each of a DaemonSet's tolerations. */
static inline int dsi_tolerates_taint_x(const dsi_atoms *ta, const dsi_toleration *tol, const dsi_atoms *tb,
					const dsi_taint *taint, int comparison_ops)
{
	if (tol->effect != DSI_EFFECT_ALL && !dsi_effect_eq_x(ta, tol->effect, tb, taint->effect))
		return 0;
	if (tol->key != DSI_ATOM_NONE && !dsi_atom_eq_x(ta, tol->key, tb, taint->key))
		return 0;
	if (tol->op == DSI_TOL_EXISTS)
		return 1;
	if (tol->op == DSI_TOL_EQUAL)
		return dsi_atom_eq_x(ta, tol->value, tb, taint->value);
	return dsi_tolerates_taint_compare(ta, tol, tb, taint, comparison_ops);
}
static inline int dsi_tolerates_taint(const dsi_atoms *atoms, const dsi_toleration *tol, const dsi_taint *taint,
				      int comparison_ops)
{
	return dsi_tolerates_taint_x(atoms, tol, atoms, taint, comparison_ops);
}
/* TolerationsTolerateTaint: any toleration tolerates the taint. */
int dsi_tolerations_tolerate_taint_x(const dsi_atoms *ta, const dsi_tolerations *tols, const dsi_atoms *tb,
				     const dsi_taint *taint, int comparison_ops);
int dsi_tolerations_tolerate_taint(const dsi_atoms *atoms, const dsi_tolerations *tols, const dsi_taint *taint,
				   int comparison_ops);

/* Effect filters for FindMatchingUntoleratedTaint, as bit masks of dsi_effect_bit(effect). */
#define DSI_EFFECTS_NOSCHEDULE_NOEXECUTE ((1u << DSI_EFFECT_NO_SCHEDULE) | (1u << DSI_EFFECT_NO_EXECUTE))
#define DSI_EFFECTS_NOEXECUTE (1u << DSI_EFFECT_NO_EXECUTE)
#define DSI_EFFECTS_ANY                                                                                                \
	((1u << DSI_EFFECT_NO_SCHEDULE) | (1u << DSI_EFFECT_PREFER_NO_SCHEDULE) | (1u << DSI_EFFECT_NO_EXECUTE))
/* A nil filter: every taint, those with an empty or unknown effect included. */
#define DSI_EFFECTS_ALL (DSI_EFFECTS_ANY | (1u << DSI_EFFECT_ALL) | (1u << DSI_EFFECT_OTHER))

/* What one set of tolerations made of the taints met so far, for a pass over many nodes: a
 * cluster's nodes carry few distinct taints, and whether they are tolerated depends on the taint
 * alone. Zero its state before the pass; it belongs to one set of tolerations and one comparison_ops. */
#define DSI_TAINT_MEMO 64
typedef struct dsi_taint_memo {
	dsi_taint taint[DSI_TAINT_MEMO];
	uint8_t state[DSI_TAINT_MEMO]; /* 0: empty; 1: tolerated; 2: not */
} dsi_taint_memo;

/* The inclusion filter of FindMatchingUntoleratedTaint, on effects (every filter upstream passes
 * is one): a taint is considered when the bit of its effect is in mask (dsi_effect_bit; "" is
 * DSI_EFFECT_ALL's bit) and, for an effect the API does not know, when unknown is NULL or lists
 * its string. A NULL filter is upstream's nil one: every taint. */
typedef struct dsi_effect_filter {
	unsigned mask;
	const char *const *unknown;
	size_t nunknown;
} dsi_effect_filter;

/* FindMatchingUntoleratedTaint: the first taint (node order) whose effect is in the mask and that
 * no toleration tolerates; NULL when there is none. memo may be NULL. */
const dsi_taint *dsi_find_untolerated_taint(const dsi_atoms *atoms, const dsi_taints *taints,
					    const dsi_tolerations *tols, unsigned effect_mask, int comparison_ops,
					    dsi_taint_memo *memo);
/* The same with the taints' strings in tb and the tolerations' in ta, and a filter (NULL: nil). */
const dsi_taint *dsi_find_untolerated_taint_x(const dsi_atoms *tb, const dsi_taints *taints, const dsi_atoms *ta,
					      const dsi_tolerations *tols, const dsi_effect_filter *filter,
					      int comparison_ops, dsi_taint_memo *memo);

/* content.IsDecimalInteger: "0" or -?[1-9][0-9]* that fits in int64. */
int dsi_is_decimal_integer(const char *s, size_t n, int64_t *out);

#endif
