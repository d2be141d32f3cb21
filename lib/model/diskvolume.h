/* The volumes VolumeRestrictions checks for conflicts between pods on a node (k8s.io/api core/v1
 * GCEPersistentDiskVolumeSource, AWSElasticBlockStoreVolumeSource, ISCSIVolumeSource,
 * RBDVolumeSource), as a pod carries them. */
#ifndef DSI_DISKVOLUME_H
#define DSI_DISKVOLUME_H

#include <jansson.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/reader.h"

enum { DSI_DISK_GCE, DSI_DISK_AWS, DSI_DISK_ISCSI, DSI_DISK_RBD };

typedef struct dsi_disk {
	uint8_t kind; /* DSI_DISK_* */
	uint8_t read_only;
	dsi_atom id;        /* pdName, volumeID, iqn, or the RBD image */
	dsi_atom pool;      /* RBD: pool (default "rbd", as the API server defaults it) */
	dsi_atom *monitors; /* RBD: monitors */
	uint32_t nmonitors;
} dsi_disk;

/* The disk of one Volume object v (rd at its path), appended to *disks when it has one of the
 * four sources. Wrong JSON types are errors. */
int dsi_disk_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *v, dsi_disk **disks, uint32_t *n);
void dsi_disks_release(dsi_atoms *atoms, dsi_disk *disks, uint32_t n);
int dsi_disks_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_disk *src, uint32_t n, dsi_disk **dst);

#endif
