/* PersistentVolumeClaim, PersistentVolume, StorageClass and CSINode as the volume plugins of
 * kube-scheduler read them. */
#include "model/volumes.h"

#include <string.h>

#include "core/alloc.h"

/* An annotation's value (NULL when absent); a wrong type of metadata or annotations is an error. */
static int annotation(dsi_rd *rd, const json_t *obj, const char *key, const char **out)
{
	*out = NULL;
	json_t *meta, *ann;
	int rc = dsi_rd_object(rd, obj, "metadata", &meta);
	if (rc < 0 || !meta)
		return rc;
	size_t m = dsi_rd_push(rd, "metadata");
	rc = dsi_rd_object(rd, meta, "annotations", &ann);
	if (rc == 0 && ann) {
		size_t m2 = dsi_rd_push(rd, "annotations");
		rc = dsi_rd_string(rd, ann, key, out);
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	return rc;
}

/* GetPersistentVolumeClaimClass (component-helpers storage/volume/helpers.go): the beta annotation
 * volume.beta.kubernetes.io/storage-class when present, else spec.storageClassName, else "". */
static int claim_class(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const json_t *spec, dsi_pvc *out)
{
	const char *beta;
	int rc = annotation(rd, obj, "volume.beta.kubernetes.io/storage-class", &beta);
	if (rc < 0)
		return rc;
	if (beta) {
		out->has_class = 1;
		if (!*beta)
			return 0;
		out->storage_class = dsi_atom_intern_cstr(atoms, beta);
		if (out->storage_class == DSI_ATOM_ERROR) {
			out->storage_class = DSI_ATOM_NONE;
			return dsi_error_nomem(rd->err);
		}
		return 0;
	}
	const char *cls = NULL;
	if (spec) {
		size_t m = dsi_rd_push(rd, "spec");
		rc = dsi_rd_string(rd, spec, "storageClassName", &cls);
		if (rc == 0 && cls && *cls)
			rc = dsi_rd_atom(rd, atoms, spec, "storageClassName", 1, &out->storage_class);
		dsi_rd_pop(rd, m);
	}
	out->has_class = cls != NULL;
	return rc;
}

int dsi_pvc_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_pvc *out)
{
	memset(out, 0, sizeof(*out));
	json_t *spec = NULL, *status = NULL, *modes = NULL;
	int rc = dsi_meta_read(rd, atoms, obj, 1, &out->meta);
	if (rc == 0)
		rc = dsi_rd_object(rd, obj, "spec", &spec);
	if (rc == 0 && spec) {
		size_t m = dsi_rd_push(rd, "spec");
		rc = dsi_rd_array(rd, spec, "accessModes", &modes);
		if (rc == 0 && modes) {
			size_t m2 = dsi_rd_push(rd, "accessModes"), i;
			json_t *v;
			json_array_foreach(modes, i, v)
			{
				const char *s;
				size_t m3 = dsi_rd_push_index(rd, i);
				rc = dsi_rd_expect_string(rd, v, &s);
				dsi_rd_pop(rd, m3);
				if (rc < 0)
					break;
				if (strcmp(s, "ReadWriteOncePod") == 0)
					out->rwop = 1;
			}
			dsi_rd_pop(rd, m2);
		}
		if (rc == 0)
			rc = dsi_rd_atom(rd, atoms, spec, "volumeName", 1, &out->volume_name);
		dsi_rd_pop(rd, m);
	}
	if (rc == 0)
		rc = claim_class(rd, atoms, obj, spec, out);
	if (rc == 0)
		rc = dsi_rd_object(rd, obj, "status", &status);
	if (rc == 0 && status) {
		size_t m = dsi_rd_push(rd, "status");
		rc = dsi_rd_atom(rd, atoms, status, "phase", 1, &out->phase);
		dsi_rd_pop(rd, m);
	}
	if (rc < 0)
		dsi_pvc_release(atoms, out);
	return rc;
}

void dsi_pvc_release(dsi_atoms *atoms, dsi_pvc *p)
{
	dsi_meta_release(atoms, &p->meta);
	dsi_atom_unref(atoms, p->volume_name);
	dsi_atom_unref(atoms, p->storage_class);
	dsi_atom_unref(atoms, p->phase);
	memset(p, 0, sizeof(*p));
}

int dsi_pvc_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_pvc *src, dsi_pvc *dst)
{
	*dst = *src;
	int failed = 0;
	dst->volume_name = dsi_atom_carry_or_none(to, from, src->volume_name, &failed);
	dst->storage_class = dsi_atom_carry_or_none(to, from, src->storage_class, &failed);
	dst->phase = dsi_atom_carry_or_none(to, from, src->phase, &failed);
	memset(&dst->meta, 0, sizeof(dst->meta));
	if (failed || dsi_meta_copy_x(to, from, &src->meta, &dst->meta) < 0) {
		dsi_pvc_release(to, dst);
		return -1;
	}
	return 0;
}

int dsi_pv_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_pv *out)
{
	memset(out, 0, sizeof(*out));
	json_t *spec = NULL, *csi = NULL;
	int rc = dsi_meta_read(rd, atoms, obj, 1, &out->meta);
	if (rc == 0)
		rc = dsi_rd_object(rd, obj, "spec", &spec);
	if (rc == 0 && spec) {
		size_t m = dsi_rd_push(rd, "spec");
		rc = dsi_rd_object(rd, spec, "csi", &csi);
		if (rc == 0 && csi) {
			size_t m2 = dsi_rd_push(rd, "csi");
			rc = dsi_rd_atom(rd, atoms, csi, "driver", 1, &out->csi_driver);
			if (rc == 0)
				rc = dsi_rd_atom(rd, atoms, csi, "volumeHandle", 1, &out->csi_handle);
			dsi_rd_pop(rd, m2);
		}
		static const char *const intree[] = DSI_INTREE_MIGRATABLE_KEYS;
		for (size_t i = 0; rc == 0 && i < sizeof(intree) / sizeof(intree[0]); i++) {
			json_t *src;
			if ((rc = dsi_rd_object(rd, spec, intree[i], &src)) == 0 && src)
				out->intree = 1;
		}
		dsi_rd_pop(rd, m);
	}
	if (rc < 0)
		dsi_pv_release(atoms, out);
	return rc;
}

void dsi_pv_release(dsi_atoms *atoms, dsi_pv *p)
{
	dsi_meta_release(atoms, &p->meta);
	dsi_atom_unref(atoms, p->csi_driver);
	dsi_atom_unref(atoms, p->csi_handle);
	memset(p, 0, sizeof(*p));
}

int dsi_pv_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_pv *src, dsi_pv *dst)
{
	*dst = *src;
	int failed = 0;
	dst->csi_driver = dsi_atom_carry_or_none(to, from, src->csi_driver, &failed);
	dst->csi_handle = dsi_atom_carry_or_none(to, from, src->csi_handle, &failed);
	memset(&dst->meta, 0, sizeof(dst->meta));
	if (failed || dsi_meta_copy_x(to, from, &src->meta, &dst->meta) < 0) {
		dsi_pv_release(to, dst);
		return -1;
	}
	return 0;
}

int dsi_storage_class_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_storage_class *out)
{
	memset(out, 0, sizeof(*out));
	const char *mode = NULL;
	int rc = dsi_meta_read(rd, atoms, obj, 1, &out->meta);
	if (rc == 0)
		rc = dsi_rd_atom(rd, atoms, obj, "provisioner", 1, &out->provisioner);
	if (rc == 0)
		rc = dsi_rd_string(rd, obj, "volumeBindingMode", &mode);
	if (rc == 0 && mode && strcmp(mode, "WaitForFirstConsumer") != 0 && strcmp(mode, "Immediate") != 0)
		rc = dsi_rd_fail(rd, "volumeBindingMode", DS_EVALUE,
				 "Unsupported value: \"%s\": supported values: \"Immediate\", \"WaitForFirstConsumer\"",
				 mode);
	if (rc < 0) {
		dsi_storage_class_release(atoms, out);
		return rc;
	}
	out->wait_for_first_consumer = mode && strcmp(mode, "WaitForFirstConsumer") == 0;
	return 0;
}

void dsi_storage_class_release(dsi_atoms *atoms, dsi_storage_class *s)
{
	dsi_meta_release(atoms, &s->meta);
	dsi_atom_unref(atoms, s->provisioner);
	memset(s, 0, sizeof(*s));
}

int dsi_storage_class_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_storage_class *src, dsi_storage_class *dst)
{
	*dst = *src;
	int failed = 0;
	dst->provisioner = dsi_atom_carry_or_none(to, from, src->provisioner, &failed);
	memset(&dst->meta, 0, sizeof(dst->meta));
	if (failed || dsi_meta_copy_x(to, from, &src->meta, &dst->meta) < 0) {
		dsi_storage_class_release(to, dst);
		return -1;
	}
	return 0;
}

static int read_driver(dsi_rd *rd, dsi_atoms *atoms, const json_t *v, dsi_csi_driver *d)
{
	json_t *alloc;
	int present = 0;
	int rc = dsi_rd_expect_object(rd, v);
	if (rc == 0)
		rc = dsi_rd_atom(rd, atoms, v, "name", 1, &d->name);
	if (rc == 0 && d->name == DSI_ATOM_NONE)
		rc = dsi_rd_fail(rd, "name", DS_EMISSING, "required value: every CSINode driver needs a name");
	if (rc == 0)
		rc = dsi_rd_object(rd, v, "allocatable", &alloc);
	if (rc == 0 && alloc) {
		size_t m = dsi_rd_push(rd, "allocatable");
		rc = dsi_rd_int32(rd, alloc, "count", &d->count, &present);
		dsi_rd_pop(rd, m);
	}
	d->has_count = (uint8_t)present;
	return rc;
}

int dsi_csinode_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_csinode *out)
{
	memset(out, 0, sizeof(*out));
	json_t *spec = NULL, *drivers = NULL;
	const char *migrated = NULL;
	int rc = dsi_meta_read(rd, atoms, obj, 1, &out->meta);
	if (rc == 0)
		rc = annotation(rd, obj, "storage.alpha.kubernetes.io/migrated-plugins", &migrated);
	if (rc == 0)
		rc = dsi_rd_object(rd, obj, "spec", &spec);
	if (rc == 0 && spec) {
		size_t m = dsi_rd_push(rd, "spec");
		rc = dsi_rd_array(rd, spec, "drivers", &drivers);
		if (rc == 0 && drivers && json_array_size(drivers)) {
			out->drivers = dsi_calloc(json_array_size(drivers), sizeof(dsi_csi_driver));
			if (!out->drivers)
				rc = dsi_error_nomem(rd->err);
			size_t m2 = dsi_rd_push(rd, "drivers"), i;
			json_t *v;
			json_array_foreach(drivers, i, v)
			{
				if (rc < 0)
					break;
				size_t m3 = dsi_rd_push_index(rd, i);
				rc = read_driver(rd, atoms, v, &out->drivers[out->ndrivers++]);
				dsi_rd_pop(rd, m3);
			}
			dsi_rd_pop(rd, m2);
		}
		dsi_rd_pop(rd, m);
	}
	if (rc < 0) {
		dsi_csinode_release(atoms, out);
		return rc;
	}
	out->migrated = migrated && *migrated;
	return 0;
}

void dsi_csinode_release(dsi_atoms *atoms, dsi_csinode *n)
{
	dsi_meta_release(atoms, &n->meta);
	for (uint32_t i = 0; i < n->ndrivers; i++)
		dsi_atom_unref(atoms, n->drivers[i].name);
	dsi_free(n->drivers);
	memset(n, 0, sizeof(*n));
}

int dsi_csinode_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_csinode *src, dsi_csinode *dst)
{
	*dst = *src;
	dst->drivers = NULL;
	dst->ndrivers = 0;
	memset(&dst->meta, 0, sizeof(dst->meta));
	int failed = 0;
	if (src->ndrivers && !(dst->drivers = dsi_calloc(src->ndrivers, sizeof(dsi_csi_driver))))
		failed = 1;
	for (uint32_t i = 0; !failed && i < src->ndrivers; i++) {
		dst->drivers[i] = src->drivers[i];
		dst->drivers[i].name = dsi_atom_carry_or_none(to, from, src->drivers[i].name, &failed);
		dst->ndrivers = i + 1;
	}
	if (failed || dsi_meta_copy_x(to, from, &src->meta, &dst->meta) < 0) {
		dsi_csinode_release(to, dst);
		return -1;
	}
	return 0;
}
