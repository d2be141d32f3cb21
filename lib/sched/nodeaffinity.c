#include "sched/nodeaffinity.h"

#include <string.h>

#include "core/alloc.h"

static int field_matches(const dsi_atoms *ta, const dsi_field_req *f, const dsi_atoms *tb, const dsi_node *node)
{
	/* metadata.name is the only node field; any other key reads as "" */
	int eq;
	if (f->is_name)
		eq = dsi_atom_eq_x(tb, node->meta.name, ta, f->value);
	else
		eq = dsi_atom_len(ta, f->value) == 0;
	return f->not_in ? !eq : eq;
}

/* The term's matchFields (a node without a name has no fields: they are skipped, as upstream). */
static int fields_match(const dsi_atoms *ta, const dsi_ns_term *t, const dsi_atoms *tb, const dsi_node *node)
{
	if (node->meta.name)
		for (uint32_t i = 0; i < t->nfields; i++)
			if (!field_matches(ta, &t->fields[i], tb, node))
				return 0;
	return 1;
}

/* nodeSelectorTerm match (component-helpers nodeaffinity.go nodeSelectorTerm.match) */
int dsi_term_matches_x(const dsi_atoms *ta, const dsi_ns_term *t, const dsi_atoms *tb, const dsi_node *node)
{
	if (t->invalid || t->empty)
		return 0;
	if (ta != tb) { /* the expressions are in ta's key order: each key looked up in the node */
		for (uint32_t i = 0; i < t->nexprs; i++) {
			const dsi_requirement *r = &t->exprs[i];
			dsi_atom v = dsi_labels_get(&node->meta.labels, dsi_atom_rebase(ta, r->key, tb));
			if (!dsi_requirement_matches_value_x(ta, r, tb, v))
				return 0;
		}
		return fields_match(ta, t, tb, node);
	}
	/* expressions and labels are both sorted by key atom: one merge pass */
	/* no labels: v is NULL, and NULL + 0 is undefined behaviour in C */
	const dsi_label *l = node->meta.labels.v, *end = node->meta.labels.n ? l + node->meta.labels.n : l;
	for (uint32_t i = 0; i < t->nexprs; i++) {
		const dsi_requirement *r = &t->exprs[i];
		while (l < end && l->key < r->key)
			l++;
		if (!dsi_requirement_matches_value(ta, r, l < end && l->key == r->key ? l->value : DSI_ATOM_NONE))
			return 0;
	}
	return fields_match(ta, t, tb, node);
}

int dsi_term_matches(const dsi_atoms *atoms, const dsi_ns_term *t, const dsi_node *node)
{
	return dsi_term_matches_x(atoms, t, atoms, node);
}

/* NodeSelector.Match / LazyErrorNodeSelector.Match (component-helpers nodeaffinity.go) */
int dsi_node_selector_matches_x(const dsi_atoms *ta, const dsi_node_selector *s, const dsi_atoms *tb,
				const dsi_node *node)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (dsi_term_matches_x(ta, &s->terms[i], tb, node))
			return 1;
	return 0;
}

int dsi_node_selector_matches(const dsi_atoms *atoms, const dsi_node_selector *s, const dsi_node *node)
{
	return dsi_node_selector_matches_x(atoms, s, atoms, node);
}

int dsi_node_selector_pass_init(const dsi_node_selector *s, dsi_expr_pass **out)
{
	size_t n = 0;
	for (uint32_t i = 0; i < s->n; i++)
		n += s->terms[i].nexprs;
	*out = NULL;
	if (!n)
		return 0;
	dsi_expr_pass *e = dsi_calloc(n, sizeof(*e));
	if (!e)
		return -1;
	*out = e;
	for (uint32_t i = 0; i < s->n; i++)
		for (uint32_t j = 0; j < s->terms[i].nexprs; j++, e++) {
			const dsi_requirement *r = &s->terms[i].exprs[j];
			/* one value, never DSI_ATOM_NONE (an absent label): In holds for it alone, NotIn
			 * for anything else, an absent label included */
			int one = r->nvalues == 1 && r->value1 != DSI_ATOM_NONE;
			switch (r->op) {
			case DSI_SEL_IN: e->general = !one, e->cmp = r->value1; break;
			case DSI_SEL_NOT_IN: e->general = !one, e->cmp = r->value1, e->neg = 1; break;
			case DSI_SEL_EXISTS: e->neg = 1; break;
			case DSI_SEL_DOES_NOT_EXIST: break;
			default: e->general = 1; break;
			}
		}
	return 0;
}

/* nodeSelectorTerm.match in a pass: each key looked up from where it was in the node before
 * instead of a merge pass over every label up to the last key, and the common forms compared
 * without a switch on the operator. */
static int term_matches_pass(const dsi_atoms *atoms, const dsi_ns_term *t, const dsi_node *node, dsi_expr_pass *e)
{
	if (t->invalid || t->empty)
		return 0;
	for (uint32_t i = 0; i < t->nexprs; i++) {
		dsi_atom v = dsi_labels_get_hinted(&node->meta.labels, t->exprs[i].key, &e[i].hint);
		if (e[i].general ? !dsi_requirement_matches_value(atoms, &t->exprs[i], v) : (v == e[i].cmp) == e[i].neg)
			return 0;
	}
	return fields_match(atoms, t, atoms, node);
}

int dsi_node_selector_matches_pass(const dsi_atoms *atoms, const dsi_node_selector *s, const dsi_node *node,
				   dsi_expr_pass *e)
{
	for (uint32_t i = 0; i < s->n; i++) {
		if (term_matches_pass(atoms, &s->terms[i], node, e))
			return 1;
		e += s->terms[i].nexprs;
	}
	return 0;
}

/* RequiredNodeAffinity.Match (component-helpers nodeaffinity.go) */
int dsi_required_affinity_matches_x(const dsi_atoms *ta, const dsi_podspec *spec, const dsi_atoms *tb,
				    const dsi_node *node, int *which)
{
	return dsi_required_affinity_matches_with_x(ta, &spec->node_selector, &spec->required, NULL, tb, node, which);
}

int dsi_required_affinity_matches(const dsi_atoms *atoms, const dsi_podspec *spec, const dsi_node *node, int *which)
{
	return dsi_required_affinity_matches_x(atoms, spec, atoms, node, which);
}

int dsi_node_selector_fold(const dsi_node_selector *s, const dsi_cluster *c, dsi_node_selector *out)
{
	memset(out, 0, sizeof(*out));
	out->present = s->present;
	if (!s->n)
		return 0;
	size_t nexprs = 0;
	for (uint32_t i = 0; i < s->n; i++)
		nexprs += s->terms[i].nexprs;
	/* the terms, then their expressions, in one block */
	out->terms = dsi_malloc(s->n * sizeof(dsi_ns_term) + nexprs * sizeof(dsi_requirement));
	if (!out->terms)
		return -1;
	dsi_requirement *r = (dsi_requirement *)(void *)(out->terms + s->n);
	for (uint32_t i = 0; i < s->n; i++) {
		const dsi_ns_term *t = &s->terms[i];
		if (t->invalid || t->empty)
			continue; /* never matches */
		dsi_ns_term *f = &out->terms[out->n];
		*f = *t;
		f->exprs = r;
		f->nexprs = 0;
		f->error = NULL;
		int fails = 0;
		for (uint32_t j = 0; j < t->nexprs && !fails; j++) {
			const dsi_requirement *e = &t->exprs[j];
			if (dsi_cluster_nodes_with_label_key(c, e->key))
				r[f->nexprs++] = *e; /* kept in key order, as the merge pass needs */
			else
				fails = !dsi_requirement_matches_value(&c->atoms, e, DSI_ATOM_NONE);
		}
		if (fails)
			continue;
		r += f->nexprs;
		out->n++;
	}
	return 0;
}

void dsi_node_selector_fold_release(dsi_node_selector *out)
{
	dsi_free(out->terms);
	memset(out, 0, sizeof(*out));
}

/* PreferredSchedulingTerms.Score (component-helpers nodeaffinity.go) */
int64_t dsi_preferred_score(const dsi_atoms *atoms, const dsi_node_selector *preferred, const dsi_node *node)
{
	int64_t score = 0;
	for (uint32_t i = 0; i < preferred->n; i++) {
		const dsi_ns_term *t = &preferred->terms[i];
		if (t->weight == 0 || t->empty)
			continue;
		if (t->invalid)
			return -1;
		if (dsi_term_matches(atoms, t, node))
			score += t->weight;
	}
	return score;
}
