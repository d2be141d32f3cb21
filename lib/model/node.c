#include "model/node.h"

#include <stddef.h>
#include <string.h>

#include "core/alloc.h"

/* What the placement pass reads of every node shares its first cache line (see dsi_node). */
_Static_assert(offsetof(dsi_node, taints) + sizeof(dsi_taints) <= 64 &&
		       offsetof(dsi_node, meta.labels) + sizeof(dsi_labels) <= 64 &&
		       offsetof(dsi_node, meta.name) < 64 && offsetof(dsi_node, unschedulable) < 64,
	       "dsi_node: the fields the placement pass reads must stay in the first 64 bytes");

int dsi_conditions_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *status, dsi_condition **out, uint32_t *n)
{
	json_t *arr;
	*out = NULL;
	*n = 0;
	int rc = dsi_rd_array(rd, status, "conditions", &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	*out = dsi_calloc(json_array_size(arr), sizeof(dsi_condition));
	if (!*out)
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, "conditions"), i;
	json_t *c;
	json_array_foreach(arr, i, c)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		const char *st;
		dsi_condition *d = &(*out)[*n];
		if ((rc = dsi_rd_expect_object(rd, c)) < 0 || (rc = dsi_rd_string(rd, c, "status", &st)) < 0 ||
		    (rc = dsi_rd_time(rd, c, "lastTransitionTime", &d->last_transition, &d->has_transition)) < 0 ||
		    (rc = dsi_rd_atom(rd, atoms, c, "type", 1, &d->type)) < 0) {
			dsi_rd_pop(rd, m2);
			break;
		}
		d->status = !st                        ? DSI_COND_UNKNOWN
			    : strcmp(st, "True") == 0  ? DSI_COND_TRUE
			    : strcmp(st, "False") == 0 ? DSI_COND_FALSE
						       : DSI_COND_UNKNOWN;
		(*n)++;
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	if (rc < 0) {
		for (uint32_t k = 0; k < *n; k++)
			dsi_atom_unref(atoms, (*out)[k].type);
		dsi_free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

/* Reads no status.images: ds_cluster_load leaves it out of the trees (snapshot.c, load_staged). */
int dsi_node_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_node *out)
{
	memset(out, 0, sizeof(*out));
	json_t *spec, *status;
	int rc, b;
	dsi_qlist alloc = {0};
	if ((rc = dsi_meta_read(rd, atoms, obj, 1, &out->meta)) < 0)
		return rc;
	if ((rc = dsi_rd_object(rd, obj, "spec", &spec)) < 0 || (rc = dsi_rd_object(rd, obj, "status", &status)) < 0)
		goto fail;
	if (spec) {
		size_t m = dsi_rd_push(rd, "spec");
		rc = dsi_taints_read(rd, atoms, spec, "taints", &out->taints);
		if (rc == 0)
			rc = dsi_rd_bool(rd, spec, "unschedulable", &b, NULL);
		dsi_rd_pop(rd, m);
		if (rc < 0)
			goto fail;
		out->unschedulable = (uint8_t)b;
	}
	if (status) {
		size_t m = dsi_rd_push(rd, "status");
		out->has_allocatable = json_is_object(json_object_get(status, "allocatable"));
		rc = dsi_qlist_read(rd, atoms, status, "allocatable", &alloc);
		if (rc == 0) {
			size_t m2 = dsi_rd_push(rd, "allocatable");
			rc = dsi_resources_from_qlist(rd, atoms, &alloc, &out->allocatable);
			dsi_rd_pop(rd, m2);
		}
		if (rc == 0)
			rc = dsi_conditions_read(rd, atoms, status, &out->conditions, &out->nconditions);
		dsi_rd_pop(rd, m);
		dsi_qlist_release(atoms, &alloc);
		if (rc < 0)
			goto fail;
	}
	return 0;
fail:
	dsi_node_release(atoms, out);
	return rc;
}

void dsi_node_release(dsi_atoms *atoms, dsi_node *n)
{
	dsi_meta_release(atoms, &n->meta);
	dsi_taints_release(atoms, &n->taints);
	dsi_resources_release(atoms, &n->allocatable);
	for (uint32_t i = 0; i < n->nconditions; i++)
		dsi_atom_unref(atoms, n->conditions[i].type);
	dsi_free(n->conditions);
	memset(n, 0, sizeof(*n));
}

int dsi_node_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_node *src, dsi_node *dst)
{
	memset(dst, 0, sizeof(*dst));
	if (dsi_meta_copy_x(to, from, &src->meta, &dst->meta) < 0)
		return -1;
	dst->unschedulable = src->unschedulable;
	dst->has_allocatable = src->has_allocatable;
	if (dsi_taints_copy_x(to, from, &src->taints, &dst->taints) < 0 ||
	    dsi_resources_copy_x(to, from, &src->allocatable, &dst->allocatable) < 0)
		goto fail;
	if (src->nconditions) {
		dst->conditions = dsi_malloc(src->nconditions * sizeof(dsi_condition));
		if (!dst->conditions)
			goto fail;
		memcpy(dst->conditions, src->conditions, src->nconditions * sizeof(dsi_condition));
		dst->nconditions = src->nconditions;
		int failed = 0;
		for (uint32_t i = 0; i < src->nconditions; i++)
			dst->conditions[i].type = dsi_atom_carry_or_none(to, from, src->conditions[i].type, &failed);
		if (failed)
			goto fail;
	}
	return 0;
fail:
	dsi_node_release(to, dst);
	return -1;
}

int dsi_node_copy(dsi_atoms *atoms, const dsi_node *src, dsi_node *dst)
{
	return dsi_node_copy_x(atoms, atoms, src, dst);
}

json_t *dsi_resources_to_json(const dsi_atoms *atoms, const dsi_resources *r)
{
	json_t *o =
		json_pack("{s:I, s:I, s:I, s:I}", "milliCPU", (json_int_t)r->milli_cpu, "memory", (json_int_t)r->memory,
			  "ephemeralStorage", (json_int_t)r->ephemeral, "pods", (json_int_t)r->pods);
	if (o && r->nscalars) {
		json_t *s = json_object();
		for (uint32_t i = 0; s && i < r->nscalars; i++)
			json_object_set_new(s, dsi_atom_str(atoms, r->scalars[i].name),
					    json_integer(r->scalars[i].value));
		json_object_set_new(o, "scalar", s);
	}
	return o;
}

json_t *dsi_node_to_json(const dsi_atoms *atoms, const dsi_node *n)
{
	json_t *taints = json_array();
	for (uint32_t i = 0; taints && i < n->taints.n; i++)
		json_array_append_new(taints, dsi_taint_to_json(atoms, &n->taints.v[i]));
	return json_pack("{s:s, s:o, s:o, s:b, s:o}", "name", dsi_atom_str(atoms, n->meta.name), "labels",
			 dsi_labels_to_json(atoms, &n->meta.labels), "taints", taints, "unschedulable",
			 n->unschedulable, "allocatable", dsi_resources_to_json(atoms, &n->allocatable));
}
