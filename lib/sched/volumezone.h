/* VolumeZone (kube-scheduler plugins/volumezone/volume_zone.go): the zone and region labels of the
 * PersistentVolumes bound to the pod's persistentVolumeClaim volumes against the node's labels.
 * The claims, volumes and classes are the snapshot's: when it holds no PersistentVolumeClaim (or,
 * for a bound claim, no PersistentVolume; for an unbound one, no StorageClass), the plugin is not
 * evaluated; when it holds some (or a typed list of the kind, even empty: dsi_cluster_supplied), one
 * that is missing is upstream's not-found. */
#ifndef DSI_VOLUMEZONE_H
#define DSI_VOLUMEZONE_H

#include "sched/fit.h"

/* One topology label of a bound volume (pvTopology): key and its value as the PV carries it (zones
 * joined by "__"), both of the snapshot. */
typedef struct dsi_vz_topology {
	dsi_atom key;
	const char *value;
} dsi_vz_topology;

typedef struct dsi_vz_state {
	uint8_t skip;          /* no topology to check (PreFilter Skip) */
	uint8_t not_evaluated; /* the snapshot lacks a kind the claims need */
	char error[320];       /* PreFilter's UnschedulableAndUnresolvable; "" none */
	dsi_vz_topology *topo;
	uint32_t ntopo;
} dsi_vz_state;

/* VolumeZone.PreFilter (getPVbyPod). -1 without memory. */
int dsi_vz_prefilter(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_vz_state *out);
int dsi_vz_clone(const dsi_vz_state *src, dsi_vz_state *dst);
void dsi_vz_release(dsi_vz_state *s);
/* VolumeZone.Filter: 1 when the node fits (ErrReasonConflict otherwise). */
int dsi_vz_filter(const dsi_cluster *c, const dsi_vz_state *s, const dsi_node *node);
#define DSI_VZ_CONFLICT_MSG "node(s) had no available volume zone"

#endif
