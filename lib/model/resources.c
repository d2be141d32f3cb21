#include "model/resources.h"

#include <string.h>

#include "core/alloc.h"
#include "model/labelvalid.h"

void dsi_qlist_release(dsi_atoms *atoms, dsi_qlist *l)
{
	for (uint32_t i = 0; i < l->n; i++)
		dsi_atom_unref(atoms, l->v[i].name);
	dsi_free(l->v);
	memset(l, 0, sizeof(*l));
}

dsi_quantity *dsi_qlist_get(dsi_qlist *l, dsi_atom name)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i].name == name)
			return &l->v[i].q;
	return NULL;
}

static dsi_qentry *qlist_slot(dsi_atoms *atoms, dsi_qlist *l, dsi_atom name, int *fresh)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i].name == name) {
			*fresh = 0;
			return &l->v[i];
		}
	size_t cap = l->cap;
	if (DSI_GROW(l->v, cap, (size_t)l->n + 1) < 0)
		return NULL;
	l->cap = (uint32_t)cap;
	dsi_atom_ref(atoms, name);
	l->v[l->n].name = name;
	*fresh = 1;
	return &l->v[l->n++];
}

int dsi_qlist_max(dsi_atoms *atoms, dsi_qlist *l, dsi_atom name, const dsi_quantity *q)
{
	int fresh;
	dsi_qentry *e = qlist_slot(atoms, l, name, &fresh);
	if (!e)
		return -1;
	if (fresh || dsi_quantity_cmp(q, &e->q) > 0)
		e->q = *q;
	return 0;
}

int dsi_qlist_add(dsi_atoms *atoms, dsi_qlist *l, dsi_atom name, const dsi_quantity *q)
{
	int fresh;
	dsi_qentry *e = qlist_slot(atoms, l, name, &fresh);
	if (!e)
		return -1;
	if (fresh) {
		e->q = *q;
		return 0;
	}
	return dsi_quantity_add(&e->q, q);
}

int dsi_qlist_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_qlist *out)
{
	memset(out, 0, sizeof(*out));
	json_t *map;
	int rc = dsi_rd_object(rd, obj, key, &map);
	if (rc < 0 || !map || !json_object_size(map))
		return rc;
	size_t m = dsi_rd_push(rd, key);
	const char *name;
	json_t *v;
	json_object_foreach(map, name, v)
	{
		dsi_quantity q;
		int present;
		if ((rc = dsi_quantity_read(rd, map, name, &q, &present)) < 0)
			break;
		if (!present)
			continue;
		dsi_atom a = dsi_atom_intern_cstr(atoms, name);
		if (a == DSI_ATOM_ERROR) {
			rc = dsi_error_nomem(rd->err);
			break;
		}
		int fresh;
		dsi_qentry *e = qlist_slot(atoms, out, a, &fresh);
		dsi_atom_unref(atoms, a);
		if (!e) {
			rc = dsi_error_nomem(rd->err);
			break;
		}
		e->q = q;
	}
	dsi_rd_pop(rd, m);
	if (rc < 0)
		dsi_qlist_release(atoms, out);
	return rc;
}

/* IsPrefixedNativeResource, IsExtendedResourceName, IsHugePageResourceName,
 * IsAttachableVolumeResourceName, IsScalarResourceName (pkg/apis/core/v1/helper/helpers.go) */
static int is_prefixed_native(const char *name) { return strstr(name, "kubernetes.io/") != NULL; }

int dsi_is_extended_resource_name(const char *name)
{
	/* not native (native = no "/" or prefixed native), not "requests."-prefixed,
	 * and "requests." + name must be a qualified name */
	if (!strchr(name, '/') || is_prefixed_native(name))
		return 0;
	if (strncmp(name, "requests.", 9) == 0)
		return 0;
	size_t n = strlen(name);
	char buf[512];
	if (n + 10 > sizeof(buf))
		return 0;
	memcpy(buf, "requests.", 9);
	memcpy(buf + 9, name, n + 1);
	return dsi_validate_label_key(buf, n + 9, NULL) == 0;
}

int dsi_is_scalar_resource_name(const char *name)
{
	return dsi_is_extended_resource_name(name) || strncmp(name, "hugepages-", 10) == 0 ||
	       is_prefixed_native(name) || strncmp(name, "attachable-volumes-", 19) == 0;
}

void dsi_resources_release(dsi_atoms *atoms, dsi_resources *r)
{
	for (uint32_t i = 0; i < r->nscalars; i++)
		dsi_atom_unref(atoms, r->scalars[i].name);
	dsi_free(r->scalars);
	memset(r, 0, sizeof(*r));
}

int dsi_resources_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_resources *src, dsi_resources *dst)
{
	*dst = *src;
	dst->scalars = NULL;
	if (!src->nscalars)
		return 0;
	if (!(dst->scalars = dsi_malloc(src->nscalars * sizeof(dsi_scalar)))) {
		dst->nscalars = 0;
		return -1;
	}
	memcpy(dst->scalars, src->scalars, src->nscalars * sizeof(dsi_scalar));
	int failed = 0;
	for (uint32_t i = 0; i < src->nscalars; i++)
		dst->scalars[i].name = dsi_atom_carry_or_none(to, from, src->scalars[i].name, &failed);
	if (failed)
		dsi_resources_release(to, dst);
	return failed ? -1 : 0;
}

int dsi_resources_copy(dsi_atoms *atoms, const dsi_resources *src, dsi_resources *dst)
{
	return dsi_resources_copy_x(atoms, atoms, src, dst);
}

int64_t dsi_resources_scalar(const dsi_resources *r, dsi_atom name)
{
	for (uint32_t i = 0; i < r->nscalars; i++)
		if (r->scalars[i].name == name)
			return r->scalars[i].value;
	return 0;
}

int dsi_resources_from_qlist(dsi_rd *rd, dsi_atoms *atoms, const dsi_qlist *l, dsi_resources *out)
{
	memset(out, 0, sizeof(*out));
	for (uint32_t i = 0; i < l->n; i++) {
		const char *name = dsi_atom_str(atoms, l->v[i].name);
		int overflow = 0;
		int64_t v;
		int64_t *slot = NULL;
		if (strcmp(name, "cpu") == 0) {
			v = dsi_quantity_milli(&l->v[i].q, &overflow);
			slot = &out->milli_cpu;
		} else {
			v = dsi_quantity_value(&l->v[i].q, &overflow);
			if (strcmp(name, "memory") == 0)
				slot = &out->memory;
			else if (strcmp(name, "ephemeral-storage") == 0)
				slot = &out->ephemeral;
			else if (strcmp(name, "pods") == 0)
				slot = &out->pods;
			else if (!dsi_is_scalar_resource_name(name))
				continue; /* the scheduler ignores other names */
		}
		if (overflow) {
			dsi_resources_release(atoms, out);
			return dsi_rd_fail(rd, name, DS_EVALUE,
					   "quantity is too large to be compared (overflows int64)");
		}
		if (slot) {
			*slot = v;
			continue;
		}
		size_t cap = out->nscalars;
		if (dsi_grow((void **)&out->scalars, &cap, (size_t)out->nscalars + 1, sizeof(dsi_scalar)) < 0) {
			dsi_resources_release(atoms, out);
			return dsi_error_nomem(rd->err);
		}
		dsi_atom_ref(atoms, l->v[i].name);
		out->scalars[out->nscalars].name = l->v[i].name;
		out->scalars[out->nscalars].value = v;
		out->nscalars++;
	}
	return 0;
}

static int add_all(dsi_atoms *atoms, dsi_qlist *dst, const dsi_qlist *src)
{
	for (uint32_t i = 0; i < src->n; i++)
		if (dsi_qlist_add(atoms, dst, src->v[i].name, &src->v[i].q) < 0)
			return -1;
	return 0;
}

static int max_all(dsi_atoms *atoms, dsi_qlist *dst, const dsi_qlist *src)
{
	for (uint32_t i = 0; i < src->n; i++)
		if (dsi_qlist_max(atoms, dst, src->v[i].name, &src->v[i].q) < 0)
			return -1;
	return 0;
}

static int pod_level_replaces(const char *name)
{
	return strcmp(name, "cpu") == 0 || strcmp(name, "memory") == 0 || strncmp(name, "hugepages-", 10) == 0;
}

/* PodRequests (component-helpers resource/helpers.go) */
int dsi_pod_requests(dsi_atoms *atoms, const dsi_container_req *containers, uint32_t ncontainers,
		     const dsi_container_req *inits, uint32_t ninits, const dsi_qlist *pod_level,
		     const dsi_qlist *overhead, int pod_level_resources, dsi_qlist *out)
{
	memset(out, 0, sizeof(*out));
	dsi_qlist sidecars = {0}, init_max = {0}, candidate = {0};
	int rc = -1;
	for (uint32_t i = 0; i < ncontainers; i++)
		if (add_all(atoms, out, &containers[i].requests) < 0)
			goto done;
	for (uint32_t i = 0; i < ninits; i++) {
		if (inits[i].restartable_init) {
			/* a sidecar runs beside the app containers and after it starts */
			if (add_all(atoms, out, &inits[i].requests) < 0 ||
			    add_all(atoms, &sidecars, &inits[i].requests) < 0 ||
			    max_all(atoms, &init_max, &sidecars) < 0)
				goto done;
		} else {
			dsi_qlist_release(atoms, &candidate);
			if (add_all(atoms, &candidate, &inits[i].requests) < 0 ||
			    add_all(atoms, &candidate, &sidecars) < 0 || max_all(atoms, &init_max, &candidate) < 0)
				goto done;
		}
	}
	if (max_all(atoms, out, &init_max) < 0)
		goto done;
	if (pod_level_resources && pod_level) {
		for (uint32_t i = 0; i < pod_level->n; i++) {
			if (!pod_level_replaces(dsi_atom_str(atoms, pod_level->v[i].name)))
				continue;
			int fresh;
			dsi_qentry *e = qlist_slot(atoms, out, pod_level->v[i].name, &fresh);
			if (!e)
				goto done;
			e->q = pod_level->v[i].q;
		}
	}
	if (overhead && add_all(atoms, out, overhead) < 0)
		goto done;
	rc = 0;
done:
	dsi_qlist_release(atoms, &sidecars);
	dsi_qlist_release(atoms, &init_max);
	dsi_qlist_release(atoms, &candidate);
	if (rc < 0)
		dsi_qlist_release(atoms, out);
	return rc;
}
