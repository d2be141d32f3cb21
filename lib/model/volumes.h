/* The storage objects the volume plugins of kube-scheduler read (k8s.io/api core/v1
 * PersistentVolumeClaim and PersistentVolume, storage/v1 StorageClass and CSINode): only the
 * fields those plugins use. */
#ifndef DSI_VOLUMES_H
#define DSI_VOLUMES_H

#include <jansson.h>

#include "model/meta.h"

/* PersistentVolumeClaim (v1) */
typedef struct dsi_pvc {
	dsi_meta meta;
	uint8_t rwop;           /* spec.accessModes holds ReadWriteOncePod */
	uint8_t has_class;      /* GetPersistentVolumeClaimClass found a class (annotation or field) */
	dsi_atom volume_name;   /* spec.volumeName (NONE: unbound) */
	dsi_atom storage_class; /* GetPersistentVolumeClaimClass: the beta annotation, else spec.storageClassName */
	dsi_atom phase;         /* status.phase */
	uint32_t index;
} dsi_pvc;

/* The in-tree sources csi-translation-lib migrates (IsPVMigratable / IsInlineMigratable). */
#define DSI_INTREE_MIGRATABLE_KEYS                                                                                     \
	{                                                                                                              \
		"gcePersistentDisk", "awsElasticBlockStore", "azureDisk", "azureFile", "cinder", "vsphereVolume",      \
			"portworxVolume"                                                                               \
	}

/* PersistentVolume (v1) */
typedef struct dsi_pv {
	dsi_meta meta;
	dsi_atom csi_driver, csi_handle; /* spec.csi.driver / volumeHandle (NONE: no csi source) */
	uint8_t intree;                  /* a migratable in-tree source (DSI_INTREE_MIGRATABLE_KEYS) */
	uint32_t index;
} dsi_pv;

/* StorageClass (storage.k8s.io/v1) */
typedef struct dsi_storage_class {
	dsi_meta meta;
	dsi_atom provisioner;
	uint8_t wait_for_first_consumer; /* volumeBindingMode WaitForFirstConsumer (default Immediate) */
	uint32_t index;
} dsi_storage_class;

/* CSINode (storage.k8s.io/v1): spec.drivers[] */
typedef struct dsi_csi_driver {
	dsi_atom name;
	uint8_t has_count; /* allocatable.count set */
	int32_t count;
} dsi_csi_driver;

typedef struct dsi_csinode {
	dsi_meta meta;
	dsi_csi_driver *drivers;
	uint32_t ndrivers;
	uint8_t migrated; /* annotation storage.alpha.kubernetes.io/migrated-plugins names a plugin */
	uint32_t index;
} dsi_csinode;

int dsi_pvc_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_pvc *out);
void dsi_pvc_release(dsi_atoms *atoms, dsi_pvc *p);
int dsi_pvc_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_pvc *src, dsi_pvc *dst);
int dsi_pv_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_pv *out);
void dsi_pv_release(dsi_atoms *atoms, dsi_pv *p);
int dsi_pv_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_pv *src, dsi_pv *dst);
int dsi_storage_class_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_storage_class *out);
void dsi_storage_class_release(dsi_atoms *atoms, dsi_storage_class *s);
int dsi_storage_class_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_storage_class *src,
			     dsi_storage_class *dst);
int dsi_csinode_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_csinode *out);
void dsi_csinode_release(dsi_atoms *atoms, dsi_csinode *n);
int dsi_csinode_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_csinode *src, dsi_csinode *dst);

#endif
