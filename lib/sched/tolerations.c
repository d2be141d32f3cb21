#include "sched/tolerations.h"

#include <string.h>

#include "core/atoms.h"

int dsi_is_decimal_integer(const char *s, size_t n, int64_t *out)
{
	if (!s || !n)
		return 0;
	if (n == 1 && s[0] == '0') {
		*out = 0;
		return 1;
	}
	size_t i = s[0] == '-' ? 1 : 0;
	if (i >= n || s[i] < '1' || s[i] > '9')
		return 0;
	return dsi_parse_go_int64(s, n, out);
}

int dsi_tolerates_taint_compare(const dsi_atoms *ta, const dsi_toleration *tol, const dsi_atoms *tb,
				const dsi_taint *taint, int comparison_ops)
{
	if ((tol->op != DSI_TOL_LT && tol->op != DSI_TOL_GT) || !comparison_ops)
		return 0;
	int64_t tv, xv;
	if (!dsi_is_decimal_integer(dsi_atom_str(ta, tol->value), dsi_atom_len(ta, tol->value), &tv) ||
	    !dsi_is_decimal_integer(dsi_atom_str(tb, taint->value), dsi_atom_len(tb, taint->value), &xv))
		return 0;
	return tol->op == DSI_TOL_LT ? xv < tv : xv > tv;
}

/* TolerationsTolerateTaint (component-helpers scheduling/corev1 helpers.go) */
int dsi_tolerations_tolerate_taint_x(const dsi_atoms *ta, const dsi_tolerations *tols, const dsi_atoms *tb,
				     const dsi_taint *taint, int comparison_ops)
{
	for (uint32_t i = 0; i < tols->n; i++)
		if (dsi_tolerates_taint_x(ta, &tols->v[i], tb, taint, comparison_ops))
			return 1;
	return 0;
}

int dsi_tolerations_tolerate_taint(const dsi_atoms *atoms, const dsi_tolerations *tols, const dsi_taint *taint,
				   int comparison_ops)
{
	return dsi_tolerations_tolerate_taint_x(atoms, tols, atoms, taint, comparison_ops);
}

/* TolerationsTolerateTaint, remembered in memo (a slot per hash of the taint; a collision only
 * replaces what the slot remembered). */
static int tolerated(const dsi_atoms *ta, const dsi_tolerations *tols, const dsi_atoms *tb, const dsi_taint *t,
		     int comparison_ops, dsi_taint_memo *memo)
{
	if (!memo)
		return dsi_tolerations_tolerate_taint_x(ta, tols, tb, t, comparison_ops);
	uint32_t h = ((uint32_t)t->key * 2654435761u ^ (uint32_t)t->value * 2246822519u ^ t->effect) % DSI_TAINT_MEMO;
	const dsi_taint *m = &memo->taint[h];
	if (memo->state[h] && m->key == t->key && m->value == t->value && m->effect == t->effect)
		return memo->state[h] == 1;
	int ok = dsi_tolerations_tolerate_taint_x(ta, tols, tb, t, comparison_ops);
	memo->taint[h] = *t;
	memo->state[h] = ok ? 1 : 2;
	return ok;
}

/* Does the filter keep a taint with this effect (its strings in atoms)? */
static int filter_keeps(const dsi_effect_filter *f, const dsi_atoms *atoms, uint32_t effect)
{
	if (!(f->mask & dsi_effect_bit(effect)))
		return 0;
	if (effect < DSI_EFFECT_OTHER || !f->unknown)
		return 1;
	const char *s = dsi_atom_str(atoms, effect - DSI_EFFECT_OTHER);
	size_t n = dsi_atom_len(atoms, effect - DSI_EFFECT_OTHER);
	for (size_t i = 0; i < f->nunknown; i++)
		if (strlen(f->unknown[i]) == n && memcmp(f->unknown[i], s, n) == 0)
			return 1;
	return 0;
}

/* FindMatchingUntoleratedTaint (component-helpers scheduling/corev1 helpers.go): getFilteredTaints
 * (nil filter: every taint), then the first that TolerationsTolerateTaint refuses. */
const dsi_taint *dsi_find_untolerated_taint_x(const dsi_atoms *tb, const dsi_taints *taints, const dsi_atoms *ta,
					      const dsi_tolerations *tols, const dsi_effect_filter *filter,
					      int comparison_ops, dsi_taint_memo *memo)
{
	for (uint32_t i = 0; i < taints->n; i++) {
		const dsi_taint *t = &taints->v[i];
		if (filter && !filter_keeps(filter, tb, t->effect))
			continue;
		if (!tolerated(ta, tols, tb, t, comparison_ops, memo))
			return t;
	}
	return NULL;
}

const dsi_taint *dsi_find_untolerated_taint(const dsi_atoms *atoms, const dsi_taints *taints,
					    const dsi_tolerations *tols, unsigned effect_mask, int comparison_ops,
					    dsi_taint_memo *memo)
{
	const dsi_effect_filter f = {effect_mask, NULL, 0};
	return dsi_find_untolerated_taint_x(atoms, taints, atoms, tols, &f, comparison_ops, memo);
}
