/* Toleration matching (k8s.io/api core/v1 toleration.go, component-helpers scheduling/corev1 helpers.go). */
#ifndef DSI_TOLERATIONS_H
#define DSI_TOLERATIONS_H

#include "model/taints.h"

/* Lt and Gt of ToleratesTaint: both values must be decimal integers. */
int dsi_tolerates_taint_compare(const dsi_atoms *atoms, const dsi_toleration *tol, const dsi_taint *taint,
				int comparison_ops);

/* ToleratesTaint (k8s.io/api core/v1 toleration.go): effect, then key, then operator;
 * comparison_ops is the TaintTolerationComparisonOperators gate. Inline: placement asks it for
 * each taint of each node and each of a DaemonSet's tolerations. */
static inline int dsi_tolerates_taint(const dsi_atoms *atoms, const dsi_toleration *tol, const dsi_taint *taint,
				      int comparison_ops)
{
	if (tol->effect != DSI_EFFECT_ALL && tol->effect != taint->effect)
		return 0;
	if (tol->key != DSI_ATOM_NONE && tol->key != taint->key)
		return 0;
	if (tol->op == DSI_TOL_EXISTS)
		return 1;
	if (tol->op == DSI_TOL_EQUAL)
		return tol->value == taint->value;
	return dsi_tolerates_taint_compare(atoms, tol, taint, comparison_ops);
}
/* TolerationsTolerateTaint: any toleration tolerates the taint. */
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

/* FindMatchingUntoleratedTaint: the first taint (node order) whose effect is
 * in the mask and that no toleration tolerates; NULL when there is none. memo may be NULL. */
const dsi_taint *dsi_find_untolerated_taint(const dsi_atoms *atoms, const dsi_taints *taints,
					    const dsi_tolerations *tols, unsigned effect_mask, int comparison_ops,
					    dsi_taint_memo *memo);

/* content.IsDecimalInteger: "0" or -?[1-9][0-9]* that fits in int64. */
int dsi_is_decimal_integer(const char *s, size_t n, int64_t *out);

#endif
