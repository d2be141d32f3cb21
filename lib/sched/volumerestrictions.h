/* VolumeRestrictions (kube-scheduler plugins/volumerestrictions): the pod's GCE PD, AWS EBS, iSCSI
 * and RBD volumes against those of the pods on the node, and its ReadWriteOncePod claims against
 * the pods of the cluster that use them. The claims are looked up among the snapshot's
 * PersistentVolumeClaims: when it holds none (the input had no PersistentVolumeClaim, nor a typed
 * PersistentVolumeClaimList, which with no items says there are none: dsi_cluster_supplied), a pod
 * with persistentVolumeClaim volumes gets the plugin "not evaluated"; when it holds some, a claim that
 * is not among them is upstream's not-found. */
#ifndef DSI_VOLUMERESTRICTIONS_H
#define DSI_VOLUMERESTRICTIONS_H

#include "model/diskvolume.h"
#include "sched/fit.h"

/* isVolumeConflict (volumerestrictions/volume_restrictions.go) for one disk of the pod against one
 * of an existing pod. */
int dsi_disk_conflict(const dsi_disk *want, const dsi_disk *have);
/* satisfyVolumeConflicts: 1 when no disk of want conflicts with one of have. */
int dsi_disks_fit(const dsi_disk *want, uint32_t nwant, const dsi_disk *have, uint32_t nhave);

/* The PreFilter's state (preFilterState of volume_restrictions.go). */
typedef struct dsi_vr_state {
	uint8_t skip;          /* PreFilter returned Skip */
	uint8_t not_evaluated; /* the pod has claims and the snapshot no PersistentVolumeClaim */
	char error[320];       /* PreFilter's UnschedulableAndUnresolvable (a claim not found); "" none */
	int32_t conflicts;     /* conflictingPVCRefCount */
	dsi_atom *rwop;        /* readWriteOncePodPVCs: claim names, in the snapshot's table */
	uint32_t nrwop;
} dsi_vr_state;

/* PreFilter (volume_restrictions.go) for the pod over the pods of c's nodes (not terminal, not
 * refused by skip). -1 without memory. */
int dsi_vr_prefilter(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_pod_filter skip, void *ctx, dsi_vr_state *out);
/* AddPod / RemovePod (updateWithPod) for pod p of c. */
void dsi_vr_update(dsi_vr_state *s, const dsi_cluster *c, const dsi_pod *p, int sign);
int dsi_vr_clone(const dsi_vr_state *src, dsi_vr_state *dst);
void dsi_vr_release(dsi_vr_state *s);
/* Filter's ReadWriteOncePod part (satisfyReadWriteOncePod): 1 when it passes. */
static inline int dsi_vr_rwop_fits(const dsi_vr_state *s) { return s->conflicts <= 0; }

#endif
