/* Required pod affinity and anti-affinity terms (PodAffinityTerm) as a pod carries them, parsed
 * once per object as the scheduler's PodInfo holds them (kube-scheduler framework types.go
 * AffinityTerm); matching lives in lib/sched/interpodaffinity.c. */
#ifndef DSI_PODAFFINITY_H
#define DSI_PODAFFINITY_H

#include <jansson.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/reader.h"
#include "model/selector.h"

typedef struct dsi_pod_affinity_term {
	dsi_selector selector;    /* labelSelector: nil is Nothing */
	dsi_selector ns_selector; /* namespaceSelector: nil is Nothing, {} Everything */
	dsi_atom *namespaces;     /* term.namespaces */
	uint32_t nns;
	dsi_atom topology_key;
	/* matchLabelKeys / mismatchLabelKeys (MatchLabelKeysInPodAffinity): the API server merges
	 * key In / NotIn (the pod's value) into labelSelector when it creates the pod; matching
	 * applies them again, which is the same for a pod it created and the merge for one it has
	 * not (a DaemonSet's template) */
	dsi_atom *match_keys, *mismatch_keys;
	uint32_t nmatch_keys, nmismatch_keys;
	uint8_t own_ns; /* neither namespaces nor a namespaceSelector: the pod's own namespace
			 * (getNamespacesFromPodAffinityTerm), resolved when matching */
} dsi_pod_affinity_term;

/* The required terms of one kind. When a term does not parse, upstream's GetAffinityTerms returns
 * no term at all and the error: then n is 0 and error holds its text. */
typedef struct dsi_pod_affinity_terms {
	dsi_pod_affinity_term *v;
	uint32_t n;
	char *error;
} dsi_pod_affinity_terms;

/* Read affinity.podAffinity and affinity.podAntiAffinity requiredDuringScheduling... of the
 * Affinity object aff (may be NULL). Wrong JSON types are errors; a
 * selector that does not convert (LabelSelectorAsSelector) only sets the list's error. */
int dsi_pod_affinity_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *aff, dsi_pod_affinity_terms *affinity,
			  dsi_pod_affinity_terms *anti);
void dsi_pod_affinity_terms_release(dsi_atoms *atoms, dsi_pod_affinity_terms *t);
/* Copy from table from into table to (the same table is fine). */
int dsi_pod_affinity_terms_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_pod_affinity_terms *src,
				  dsi_pod_affinity_terms *dst);

#endif
