/* PodTopologySpread's Filter (kube-scheduler plugins/podtopologyspread/filtering.go, common.go):
 * the pod's DoNotSchedule topologySpreadConstraints, each a skew check of the node's domain
 * against the global minimum over the eligible domains. PreFilter counts the matching pods per
 * domain in one pass over the nodes and their pods; Filter reads the node's labels. */
#ifndef DSI_PODTOPOLOGYSPREAD_H
#define DSI_PODTOPOLOGYSPREAD_H

#include "sched/fit.h"
#include "sched/topocount.h"

/* criticalPaths (filtering.go): the two domains with the fewest matching pods, as upstream keeps
 * them through AddPod / RemovePod (the first always holds the minimum). */
typedef struct dsi_pts_path {
	dsi_atom value; /* DSI_ATOM_NONE: none yet */
	int64_t num;
} dsi_pts_path;

typedef struct dsi_pts_constraint {
	const dsi_spread_constraint *c;
	dsi_label *match; /* matchLabelKeys with the pod's values, merged into the selector */
	uint32_t nmatch;
	uint8_t empty;        /* selector.Empty() after the merge: counts no pod (countPodsMatchSelector) */
	uint8_t pinned;       /* NodeAffinityPolicy Honor for a daemon pod pinned to the node filtered:
			       * the only eligible node is that node (per_node below) */
	dsi_topocount counts; /* TpValueToMatchNum: topology value -> matching pods; present = domains */
	dsi_pts_path paths[2];
	dsi_topocount per_node; /* pinned: matching pods per node (by dsi_node.index) */
} dsi_pts_constraint;

typedef struct dsi_pts_state {
	const dsi_sched_pod *pod; /* borrowed */
	dsi_pts_constraint *v;    /* the DoNotSchedule constraints */
	uint32_t n;
	uint8_t skip;      /* no DoNotSchedule constraint: PreFilter returns Skip */
	const char *error; /* the constraints did not parse (PreFilter's error status), borrowed */
} dsi_pts_state;

/* PreFilter (calPreFilterState): the pods bound to the snapshot's nodes, except terminal ones and
 * those skip refuses. -1 without memory. */
int dsi_pts_prefilter(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_pod_filter skip, void *ctx,
		      dsi_pts_state *st);
/* AddPod / RemovePod (updateWithPod). -1 without memory. */
int dsi_pts_update(dsi_pts_state *st, const dsi_cluster *c, const dsi_pod *p, const dsi_node *node, int sign);
/* Clone (O(constraints)): dst reads through to src, which must outlive it and not change meanwhile. */
int dsi_pts_clone(const dsi_pts_state *src, dsi_pts_state *dst);
void dsi_pts_release(dsi_pts_state *st);

enum { DSI_PTS_OK = 0, DSI_PTS_SKEW, DSI_PTS_MISSING_LABEL };
/* Filter (filtering.go): DSI_PTS_OK or the failure. */
int dsi_pts_filter(const dsi_cluster *c, const dsi_pts_state *st, const dsi_node *node);
/* The failure's reason text and whether it is UnschedulableAndUnresolvable. */
const char *dsi_pts_reason(int which, int *unresolvable);

#endif
