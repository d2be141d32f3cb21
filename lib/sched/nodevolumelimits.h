/* NodeVolumeLimits (kube-scheduler plugins/nodevolumelimits/csi.go, CSILimits): the CSI volumes of
 * the pod, through its claims (PersistentVolumeClaim -> PersistentVolume -> csi driver and handle,
 * or the StorageClass's provisioner for a claim not bound yet), with those of the pods on the node,
 * against the node's attach limit per driver (CSINode spec.drivers[].allocatable.count, or the
 * node's allocatable attachable-volumes-csi-<driver>).
 *
 * What the snapshot does not say leaves the plugin "not evaluated": no CSINode in the input (the
 * limits are unknown), claims and no PersistentVolumeClaim in the input (a typed empty list of the
 * kind says there are none, which is saying: dsi_cluster_supplied), an ephemeral volume of a
 * pod not created yet (its claim's name has the pod's), and in-tree volumes (gcePersistentDisk,
 * awsElasticBlockStore, ...) on a node whose CSINode says their plugin is migrated to CSI (the
 * translation csi-translation-lib does is not reproduced). */
#ifndef DSI_NODEVOLUMELIMITS_H
#define DSI_NODEVOLUMELIMITS_H

#include "sched/fit.h"

/* The PreFilter's answer for the pod. */
typedef struct dsi_nvl_state {
	uint8_t skip;          /* no persistentVolumeClaim, ephemeral or migratable inline volume */
	uint8_t not_evaluated; /* for every node: see above */
} dsi_nvl_state;

/* CSILimits.PreFilter (nodevolumelimits/csi.go), with what the snapshot lacks. */
void dsi_nvl_prefilter(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_nvl_state *out);

enum {
	DSI_NVL_OK,
	DSI_NVL_EXCEEDED,      /* Unschedulable: ErrReasonMaxVolumeCountExceeded */
	DSI_NVL_UNRESOLVABLE,  /* UnschedulableAndUnresolvable: the pod's claim is not found (msg) */
	DSI_NVL_ERROR,         /* Error: a claim without a name, an ephemeral claim the pod does not own (msg) */
	DSI_NVL_NOT_EVALUATED, /* migrated in-tree volumes on this node */
	DSI_NVL_NOMEM = -1
};
#define DSI_NVL_EXCEEDED_MSG "node(s) exceed max volume count"

/* CSILimits.Filter (nodevolumelimits/csi.go) on node with the pods u counts: DSI_NVL_*, msg filled
 * for UNRESOLVABLE and ERROR. */
int dsi_nvl_filter(const dsi_cluster *c, const dsi_sched_pod *pod, const dsi_node *node, const dsi_node_usage *u,
		   char *msg, size_t msgsize);

#endif
