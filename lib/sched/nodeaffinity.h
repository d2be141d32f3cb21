/* Node affinity matching (component-helpers scheduling/corev1/nodeaffinity). */
#ifndef DSI_NODEAFFINITY_H
#define DSI_NODEAFFINITY_H

#include "model/snapshot.h"
#include "model/node.h"
#include "model/nodeselector.h"
#include "model/podspec.h"

/* One NodeSelectorTerm: every expression and field requirement holds. Invalid
 * or empty terms never match. */
int dsi_term_matches(const dsi_atoms *atoms, const dsi_ns_term *t, const dsi_node *node);
/* NodeSelector.Match: any term matches (a present selector with no terms matches nothing). */
int dsi_node_selector_matches(const dsi_atoms *atoms, const dsi_node_selector *s, const dsi_node *node);
/* The same two with the selector's strings in table ta and the node's in tb (objects parsed
 * apart, ds_object: each key is looked up in the node's table, and values compared as strings). */
int dsi_term_matches_x(const dsi_atoms *ta, const dsi_ns_term *t, const dsi_atoms *tb, const dsi_node *node);
int dsi_node_selector_matches_x(const dsi_atoms *ta, const dsi_node_selector *s, const dsi_atoms *tb,
				const dsi_node *node);
/* An expression of a required selector as a pass over many nodes evaluates it. */
typedef struct dsi_expr_pass {
	uint32_t hint;   /* where its key was, or would go, in the node before (dsi_labels_get_hinted) */
	dsi_atom cmp;    /* In or NotIn with one value: that value; Exists, DoesNotExist: DSI_ATOM_NONE */
	uint8_t neg;     /* it holds when the node's value is not cmp (NotIn, Exists); else when it is */
	uint8_t general; /* any other form: dsi_requirement_matches_value */
} dsi_expr_pass;
/* *out: one dsi_expr_pass per expression of s, term by term (NULL when s has none); free it with
 * dsi_free. -1: no memory. */
int dsi_node_selector_pass_init(const dsi_node_selector *s, dsi_expr_pass **out);
/* NodeSelector.Match in such a pass: e from dsi_node_selector_pass_init, carried from one node to
 * the next (the hints). */
int dsi_node_selector_matches_pass(const dsi_atoms *atoms, const dsi_node_selector *s, const dsi_node *node,
				   dsi_expr_pass *e);
/* RequiredNodeAffinity.Match: nodeSelector labels, then the required terms.
 * *which (may be NULL) gets 1 when nodeSelector failed, 2 when the affinity did. */
int dsi_required_affinity_matches(const dsi_atoms *atoms, const dsi_podspec *spec, const dsi_node *node, int *which);
int dsi_required_affinity_matches_x(const dsi_atoms *ta, const dsi_podspec *spec, const dsi_atoms *tb,
				    const dsi_node *node, int *which);
/* The same with the required terms given (a folded copy of spec->required, below) and, in a pass
 * over many nodes, their dsi_expr_pass (NULL: none); the pod's strings in table ta, the node's in
 * tb (the same table but for objects parsed apart; a pass needs one table). Inline: a pod without
 * a nodeSelector or required affinity costs placement no call. */
static inline int dsi_required_affinity_matches_with_x(const dsi_atoms *ta, const dsi_labels *node_selector,
						       const dsi_node_selector *required, dsi_expr_pass *pass,
						       const dsi_atoms *tb, const dsi_node *node, int *which)
{
	if (which)
		*which = 0;
	if (node_selector->n && !(ta == tb ? dsi_labels_subset(node_selector, &node->meta.labels)
					   : dsi_labels_subset_x(ta, node_selector, tb, &node->meta.labels))) {
		if (which)
			*which = 1;
		return 0;
	}
	if (required->present && !(pass ? dsi_node_selector_matches_pass(ta, required, node, pass)
					: dsi_node_selector_matches_x(ta, required, tb, node))) {
		if (which)
			*which = 2;
		return 0;
	}
	return 1;
}
static inline int dsi_required_affinity_matches_with(const dsi_atoms *atoms, const dsi_labels *node_selector,
						     const dsi_node_selector *required, dsi_expr_pass *pass,
						     const dsi_node *node, int *which)
{
	return dsi_required_affinity_matches_with_x(atoms, node_selector, required, pass, atoms, node, which);
}
/* The required selector s as the nodes of snapshot c see it. A requirement on a label key that
 * none of c's nodes has reads an absent label on each of them, so it is decided here, once:
 * dropped when that holds, its term dropped when it fails. Matching *out gives the same answer
 * as matching s for every node of c, and only for those (any other node may have such a key).
 * *out borrows s's atoms; free it with dsi_node_selector_fold_release. -1: no memory. */
int dsi_node_selector_fold(const dsi_node_selector *s, const dsi_cluster *c, dsi_node_selector *out);
void dsi_node_selector_fold_release(dsi_node_selector *out);
/* PreferredSchedulingTerms.Score: sum of weights of matching terms (weight-0
 * and empty terms skipped). -1 when a term is invalid (upstream's PreScore error). */
int64_t dsi_preferred_score(const dsi_atoms *atoms, const dsi_node_selector *preferred, const dsi_node *node);

#endif
