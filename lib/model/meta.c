#include "model/meta.h"

#include <string.h>

#include "core/alloc.h"
#include "core/time.h"

int dsi_rd_atom(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, int empty_is_none, dsi_atom *out)
{
	const char *s;
	*out = DSI_ATOM_NONE;
	int rc = dsi_rd_string(rd, obj, key, &s);
	if (rc < 0 || !s || (empty_is_none && !*s))
		return rc;
	dsi_atom a = dsi_atom_intern(atoms, s, strlen(s));
	if (a == DSI_ATOM_ERROR)
		return dsi_error_nomem(rd->err);
	*out = a;
	return 0;
}

int dsi_rd_atoms(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_atom **out, uint32_t *n)
{
	json_t *arr;
	int rc = dsi_rd_array(rd, obj, key, &arr);
	size_t len = arr ? json_array_size(arr) : 0;
	if (rc < 0 || !len)
		return rc;
	if (!(*out = dsi_calloc(len, sizeof(dsi_atom))))
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, key), i;
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
		(*out)[(*n)++] = a;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

int dsi_atoms_carry_array(dsi_atoms *to, const dsi_atoms *from, const dsi_atom *src, uint32_t n, dsi_atom **out,
			  uint32_t *nout, int *failed)
{
	if (!n)
		return 0;
	if (!(*out = dsi_calloc(n, sizeof(dsi_atom)))) {
		*failed = 1;
		return -1;
	}
	for (uint32_t k = 0; k < n; k++)
		(*out)[k] = dsi_atom_carry_or_none(to, from, src[k], failed);
	*nout = n;
	return 0;
}

int dsi_rd_time(dsi_rd *rd, const json_t *obj, const char *key, ds_time *t, uint8_t *present)
{
	const char *s;
	*present = 0;
	*t = 0;
	int rc = dsi_rd_string(rd, obj, key, &s);
	if (rc < 0 || !s || !*s) /* metav1.Time reads "" as the zero time */
		return rc;
	ds_error tmp;
	dsi_error_clear(&tmp);
	if (dsi_time_parse(s, strlen(s), t, &tmp) < 0)
		return dsi_rd_fail(rd, key, DS_EVALUE, "%s", tmp.message);
	*present = 1;
	return 0;
}

static int read_owner_refs(dsi_rd *rd, dsi_atoms *atoms, const json_t *meta, dsi_meta *out)
{
	json_t *refs;
	int rc = dsi_rd_array(rd, meta, "ownerReferences", &refs);
	if (rc < 0 || !refs)
		return rc;
	size_t m1 = dsi_rd_push(rd, "ownerReferences"), i;
	json_t *r;
	out->n_owner_refs = (uint32_t)json_array_size(refs);
	json_array_foreach(refs, i, r)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		int is_controller, present;
		const char *kind, *name, *uid, *api;
		if ((rc = dsi_rd_expect_object(rd, r)) < 0 ||
		    (rc = dsi_rd_bool(rd, r, "controller", &is_controller, &present)) < 0 ||
		    (rc = dsi_rd_string(rd, r, "kind", &kind)) < 0 || (rc = dsi_rd_string(rd, r, "name", &name)) < 0 ||
		    (rc = dsi_rd_string(rd, r, "uid", &uid)) < 0 || (rc = dsi_rd_string(rd, r, "apiVersion", &api)) < 0)
			break;
		int block, bpresent;
		if ((rc = dsi_rd_bool(rd, r, "blockOwnerDeletion", &block, &bpresent)) < 0)
			break;
		dsi_rd_pop(rd, m2);
		if (!is_controller || out->controller.uid || out->controller.kind)
			continue; /* GetControllerOf: the first controller: true wins */
		if ((rc = dsi_rd_atom(rd, atoms, r, "apiVersion", 0, &out->controller.api_version)) < 0 ||
		    (rc = dsi_rd_atom(rd, atoms, r, "kind", 0, &out->controller.kind)) < 0 ||
		    (rc = dsi_rd_atom(rd, atoms, r, "name", 0, &out->controller.name)) < 0 ||
		    (rc = dsi_rd_atom(rd, atoms, r, "uid", 1, &out->controller.uid)) < 0)
			break;
		out->controller.block_owner_deletion = (uint8_t)block;
	}
	dsi_rd_pop(rd, m1);
	return rc;
}

int dsi_meta_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, int need_name, dsi_meta *out)
{
	memset(out, 0, sizeof(*out));
	json_t *meta;
	int rc = dsi_rd_object(rd, obj, "metadata", &meta);
	if (rc < 0)
		return rc;
	if (!meta) {
		if (need_name && !rd->lenient)
			return dsi_rd_fail(rd, "metadata", DS_EMISSING,
					   "required value: an object needs metadata.name");
		return 0;
	}
	size_t m = dsi_rd_push(rd, "metadata");
	const char *name;
	int grace = 0;
	if ((rc = dsi_rd_string(rd, meta, "name", &name)) < 0)
		goto out;
	if (need_name && !rd->lenient && (!name || !*name)) {
		rc = dsi_rd_fail(rd, "name", DS_EMISSING, "required value: name or generateName is required");
		goto out;
	}
	if ((rc = dsi_rd_atom(rd, atoms, meta, "namespace", 1, &out->ns)) < 0 ||
	    (rc = dsi_rd_atom(rd, atoms, meta, "name", 1, &out->name)) < 0 ||
	    (rc = dsi_rd_atom(rd, atoms, meta, "uid", 1, &out->uid)) < 0 ||
	    (rc = dsi_rd_atom(rd, atoms, meta, "resourceVersion", 1, &out->resource_version)) < 0 ||
	    (rc = dsi_rd_int64(rd, meta, "generation", &out->generation, NULL)) < 0 ||
	    (rc = dsi_labels_read(rd, atoms, meta, "labels", &out->labels)) < 0 ||
	    (rc = read_owner_refs(rd, atoms, meta, out)) < 0 ||
	    (rc = dsi_rd_time(rd, meta, "creationTimestamp", &out->creation, &out->has_creation)) < 0 ||
	    (rc = dsi_rd_time(rd, meta, "deletionTimestamp", &out->deletion, &out->has_deletion)) < 0 ||
	    (rc = dsi_rd_int64(rd, meta, "deletionGracePeriodSeconds", &out->deletion_grace_seconds, &grace)) < 0)
		goto out;
	out->has_deletion_grace = (uint8_t)grace;
	json_t *ann;
	if ((rc = dsi_rd_object(rd, meta, "annotations", &ann)) < 0)
		goto out;
	if (ann) { /* annotations are map[string]string: check the types even though we keep none */
		const char *k;
		json_t *v;
		size_t m2 = dsi_rd_push(rd, "annotations");
		json_object_foreach(ann, k, v)
		{
			if (!json_is_string(v) && !json_is_null(v)) {
				rc = dsi_rd_fail(rd, k, DS_ETYPE, "expected string, got %s", dsi_json_type_name(v));
				break;
			}
		}
		dsi_rd_pop(rd, m2);
	}
out:
	dsi_rd_pop(rd, m);
	if (rc < 0)
		dsi_meta_release(atoms, out);
	return rc;
}

/* Every atom of m but its labels. */
#define META_ATOMS 8
static void meta_atom_ptrs(dsi_meta *m, dsi_atom *a[META_ATOMS])
{
	a[0] = &m->ns;
	a[1] = &m->name;
	a[2] = &m->uid;
	a[3] = &m->resource_version;
	a[4] = &m->controller.api_version;
	a[5] = &m->controller.kind;
	a[6] = &m->controller.name;
	a[7] = &m->controller.uid;
}

void dsi_meta_release(dsi_atoms *atoms, dsi_meta *m)
{
	dsi_atom *a[META_ATOMS];
	meta_atom_ptrs(m, a);
	for (size_t i = 0; i < META_ATOMS; i++)
		dsi_atom_unref(atoms, *a[i]);
	dsi_labels_release(atoms, &m->labels);
	memset(m, 0, sizeof(*m));
}

int dsi_meta_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_meta *src, dsi_meta *dst)
{
	*dst = *src;
	if (dsi_labels_copy_x(to, from, &src->labels, &dst->labels) < 0) {
		memset(dst, 0, sizeof(*dst));
		return -1;
	}
	int failed = 0;
	dsi_atom *a[META_ATOMS];
	meta_atom_ptrs(dst, a);
	for (size_t i = 0; i < META_ATOMS; i++)
		*a[i] = dsi_atom_carry_or_none(to, from, *a[i], &failed);
	if (failed) {
		dsi_meta_release(to, dst);
		return -1;
	}
	return 0;
}

int dsi_meta_copy(dsi_atoms *atoms, const dsi_meta *src, dsi_meta *dst)
{
	return dsi_meta_copy_x(atoms, atoms, src, dst);
}
