/* One scheduling cycle's state for a pod (the framework's CycleState): what the PreFilter of the
 * cluster-wide filters computed once, read by their Filter on each node, and updated by their
 * AddPod / RemovePod extensions (preemption removes victims, a simulation binds pods). */
#ifndef DSI_CYCLE_H
#define DSI_CYCLE_H

#include "sched/dynamicresources.h"
#include "sched/interpodaffinity.h"
#include "sched/nodevolumelimits.h"
#include "sched/podtopologyspread.h"
#include "sched/volumerestrictions.h"
#include "sched/volumezone.h"

typedef struct dsi_cycle {
	dsi_sched_pod pod;
	dsi_pts_state pts;
	dsi_ipa_state ipa;
	dsi_vr_state vr;   /* VolumeRestrictions */
	dsi_nvl_state nvl; /* NodeVolumeLimits */
	dsi_vz_state vz;   /* VolumeZone */
	dsi_dra_state dra;
} dsi_cycle;

/* PreFilter of each cluster-wide plugin for the pod (its strings in pod->atoms, which the cycle
 * copies; the pointers it holds are borrowed) over the pods of c's nodes, except terminal ones and
 * those skip refuses. -1 without memory. */
int dsi_cycle_init(dsi_cycle *cy, const dsi_cluster *c, const dsi_sched_pod *pod, dsi_pod_filter skip, void *ctx);
/* CycleState.Clone */
int dsi_cycle_clone(const dsi_cycle *src, dsi_cycle *dst);
/* AddPod (sign 1) / RemovePod (sign -1) of the PreFilterExtensions, for pod p on node. */
int dsi_cycle_update(dsi_cycle *cy, const dsi_cluster *c, const dsi_pod *p, const dsi_node *node, int sign);
void dsi_cycle_release(dsi_cycle *cy);

#endif
