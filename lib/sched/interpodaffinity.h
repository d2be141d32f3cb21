/* InterPodAffinity's Filter (kube-scheduler plugins/interpodaffinity/filtering.go): the incoming
 * pod's required pod affinity and anti-affinity against the pods already placed, and the
 * existing pods' anti-affinity against it, by topology domain. PreFilter counts, in one pass over
 * the pods, the existing pods per topology pair (key, value); Filter then looks up the node's
 * labels, so explaining a DaemonSet over every node costs pods + nodes, not pods x nodes. */
#ifndef DSI_INTERPODAFFINITY_H
#define DSI_INTERPODAFFINITY_H

#include "sched/fit.h"
#include "sched/topocount.h"

typedef struct dsi_ipa_state {
	const dsi_sched_pod *pod; /* borrowed: the incoming pod */
	dsi_labels ns_labels;     /* its namespace's labels (borrowed; empty when the Namespace is not loaded) */
	/* topology pair dsi_key2(key, value) -> count; "nonzero" is upstream's len() of the map */
	dsi_topocount existing_anti; /* existing pods' anti-affinity terms that match the pod */
	dsi_topocount affinity;      /* existing pods that match all the pod's affinity terms */
	dsi_topocount anti;          /* existing pods that match one of the pod's anti-affinity terms, per term */
	uint8_t skip;                /* PreFilter returned Skip: the Filter does not run */
	uint8_t self_match;          /* the pod matches all its own affinity terms */
	char *error;                 /* PreFilter failed: "parsing pod: ..." (UnschedulableAndUnresolvable) */
} dsi_ipa_state;

/* PreFilter (interpodaffinity/filtering.go): the pods bound to the snapshot's nodes, except
 * terminal ones and those skip(p, ctx) refuses. Returns -1 without memory. */
int dsi_ipa_prefilter(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_pod_filter skip, void *ctx,
		      dsi_ipa_state *st);
/* AddPod / RemovePod (updateWithPod): sign +1 or -1 for pod p on node. -1 without memory. */
int dsi_ipa_update(dsi_ipa_state *st, const dsi_cluster *c, const dsi_pod *p, const dsi_node *node, int sign);
/* Clone (O(1)): dst reads through to src, which must outlive it and not change meanwhile. */
int dsi_ipa_clone(const dsi_ipa_state *src, dsi_ipa_state *dst);
void dsi_ipa_release(dsi_ipa_state *st);

enum { DSI_IPA_OK = 0, DSI_IPA_AFFINITY, DSI_IPA_ANTI_AFFINITY, DSI_IPA_EXISTING_ANTI_AFFINITY };
/* Filter (interpodaffinity/filtering.go): DSI_IPA_OK or which check failed. */
int dsi_ipa_filter(const dsi_ipa_state *st, const dsi_node *node);
/* The failure's reason text and whether its status is UnschedulableAndUnresolvable. */
const char *dsi_ipa_reason(int which, int *unresolvable);

#endif
