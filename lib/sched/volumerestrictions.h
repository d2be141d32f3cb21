/* VolumeRestrictions' disk conflicts (kube-scheduler plugins/volumerestrictions): the pod's GCE PD,
 * AWS EBS, iSCSI and RBD volumes against those of the pods on the node. The ReadWriteOncePod part
 * reads PersistentVolumeClaims, which the library does not load: a pod with claims gets the plugin
 * "not evaluated". */
#ifndef DSI_VOLUMERESTRICTIONS_H
#define DSI_VOLUMERESTRICTIONS_H

#include "model/diskvolume.h"

/* isVolumeConflict (volumerestrictions/volume_restrictions.go) for one disk of the pod against one
 * of an existing pod. */
int dsi_disk_conflict(const dsi_disk *want, const dsi_disk *have);
/* satisfyVolumeConflicts: 1 when no disk of want conflicts with one of have. */
int dsi_disks_fit(const dsi_disk *want, uint32_t nwant, const dsi_disk *have, uint32_t nhave);

#endif
