/* Node affinity matching (component-helpers scheduling/corev1/nodeaffinity). */
#ifndef DSI_NODEAFFINITY_H
#define DSI_NODEAFFINITY_H

#include "model/node.h"
#include "model/nodeselector.h"
#include "model/podspec.h"

/* One NodeSelectorTerm: every expression and field requirement holds. Invalid
 * or empty terms never match. */
int dsi_term_matches(const dsi_atoms *atoms, const dsi_ns_term *t, const dsi_node *node);
/* NodeSelector.Match: any term matches (a present selector with no terms matches nothing). */
int dsi_node_selector_matches(const dsi_atoms *atoms, const dsi_node_selector *s, const dsi_node *node);
/* RequiredNodeAffinity.Match: nodeSelector labels, then the required terms.
 * *which (may be NULL) gets 1 when nodeSelector failed, 2 when the affinity did. */
int dsi_required_affinity_matches(const dsi_atoms *atoms, const dsi_podspec *spec, const dsi_node *node, int *which);
/* PreferredSchedulingTerms.Score: sum of weights of matching terms (weight-0
 * and empty terms skipped). -1 when a term is invalid (upstream's PreScore error). */
int64_t dsi_preferred_score(const dsi_atoms *atoms, const dsi_node_selector *preferred, const dsi_node *node);

#endif
