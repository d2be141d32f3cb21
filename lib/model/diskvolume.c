/* Disk volumes of a pod, as VolumeRestrictions compares them (kube-scheduler
 * plugins/volumerestrictions/volume_restrictions.go isVolumeConflict). */
#include "model/diskvolume.h"

#include <string.h>

#include "core/alloc.h"
#include "model/meta.h"

void dsi_disks_release(dsi_atoms *atoms, dsi_disk *disks, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		dsi_atom_unref(atoms, disks[i].id);
		dsi_atom_unref(atoms, disks[i].pool);
		for (uint32_t k = 0; k < disks[i].nmonitors; k++)
			dsi_atom_unref(atoms, disks[i].monitors[k]);
		dsi_free(disks[i].monitors);
	}
	dsi_free(disks);
}

static int read_monitors(dsi_rd *rd, dsi_atoms *atoms, const json_t *src, dsi_disk *d)
{
	json_t *arr;
	int rc = dsi_rd_array(rd, src, "monitors", &arr);
	size_t len = arr ? json_array_size(arr) : 0;
	if (rc < 0 || !len)
		return rc;
	if (!(d->monitors = dsi_calloc(len, sizeof(dsi_atom))))
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, "monitors"), i;
	json_t *v;
	json_array_foreach(arr, i, v)
	{
		const char *s;
		size_t m2 = dsi_rd_push_index(rd, i);
		rc = dsi_rd_expect_string(rd, v, &s);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
		dsi_atom a = dsi_atom_intern(atoms, s, json_string_length(v));
		if (a == DSI_ATOM_ERROR) {
			rc = dsi_error_nomem(rd->err);
			break;
		}
		d->monitors[d->nmonitors++] = a;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

int dsi_disk_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *v, dsi_disk **disks, uint32_t *n)
{
	static const struct {
		const char *source, *id;
		uint8_t kind;
	} kinds[] = {{"gcePersistentDisk", "pdName", DSI_DISK_GCE},
		     {"awsElasticBlockStore", "volumeID", DSI_DISK_AWS},
		     {"iscsi", "iqn", DSI_DISK_ISCSI},
		     {"rbd", "image", DSI_DISK_RBD}};
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		json_t *src;
		int rc = dsi_rd_object(rd, v, kinds[k].source, &src);
		if (rc < 0)
			return rc;
		if (!src)
			continue;
		dsi_disk *grown = dsi_reallocarray(*disks, *n + 1, sizeof(dsi_disk));
		if (!grown)
			return dsi_error_nomem(rd->err);
		*disks = grown;
		dsi_disk *d = &grown[*n];
		memset(d, 0, sizeof(*d));
		d->kind = kinds[k].kind;
		(*n)++;
		int ro = 0;
		size_t m = dsi_rd_push(rd, kinds[k].source);
		rc = dsi_rd_atom(rd, atoms, src, kinds[k].id, 0, &d->id);
		if (rc == 0)
			rc = dsi_rd_bool(rd, src, "readOnly", &ro, NULL);
		if (rc == 0 && d->kind == DSI_DISK_RBD) {
			rc = dsi_rd_atom(rd, atoms, src, "pool", 0, &d->pool);
			if (rc == 0 && !d->pool && (d->pool = dsi_atom_intern_cstr(atoms, "rbd")) == DSI_ATOM_ERROR) {
				d->pool = DSI_ATOM_NONE;
				rc = dsi_error_nomem(rd->err);
			}
			if (rc == 0)
				rc = read_monitors(rd, atoms, src, d);
		}
		dsi_rd_pop(rd, m);
		d->read_only = (uint8_t)ro;
		if (rc < 0)
			return rc;
	}
	return 0;
}

int dsi_disks_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_disk *src, uint32_t n, dsi_disk **dst)
{
	*dst = NULL;
	if (!n)
		return 0;
	dsi_disk *d = dsi_calloc(n, sizeof(dsi_disk));
	if (!d)
		return -1;
	int failed = 0;
	uint32_t done = 0;
	for (; done < n && !failed; done++) {
		d[done] = src[done];
		d[done].monitors = NULL;
		d[done].nmonitors = 0;
		d[done].id = dsi_atom_carry_or_none(to, from, src[done].id, &failed);
		d[done].pool = dsi_atom_carry_or_none(to, from, src[done].pool, &failed);
		if (src[done].nmonitors) {
			if (!(d[done].monitors = dsi_calloc(src[done].nmonitors, sizeof(dsi_atom)))) {
				failed = 1;
				break;
			}
			for (uint32_t k = 0; k < src[done].nmonitors; k++)
				d[done].monitors[k] = dsi_atom_carry_or_none(to, from, src[done].monitors[k], &failed);
			d[done].nmonitors = src[done].nmonitors;
		}
	}
	if (failed) {
		dsi_disks_release(to, d, done < n ? done + 1 : n);
		return -1;
	}
	*dst = d;
	return 0;
}
