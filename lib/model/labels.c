#include "model/labels.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

typedef struct build_ctx {
	dsi_rd *rd;
	dsi_atoms *atoms;
	dsi_labels *out;
	size_t cap;
} build_ctx;

static int add_pair(void *vctx, const char *k, size_t klen, const char *v, size_t vlen)
{
	build_ctx *c = vctx;
	if (DSI_GROW(c->out->v, c->cap, (size_t)c->out->n + 1) < 0)
		return dsi_error_nomem(c->rd->err);
	dsi_atom ka = dsi_atom_intern(c->atoms, k, klen);
	if (ka == DSI_ATOM_ERROR)
		return dsi_error_nomem(c->rd->err);
	dsi_atom va = dsi_atom_intern(c->atoms, v, vlen);
	if (va == DSI_ATOM_ERROR) {
		dsi_atom_unref(c->atoms, ka);
		return dsi_error_nomem(c->rd->err);
	}
	c->out->v[c->out->n].key = ka;
	c->out->v[c->out->n].value = va;
	c->out->n++;
	return 0;
}

static int by_key(const void *a, const void *b)
{
	const dsi_label *x = a, *y = b;
	return (x->key > y->key) - (x->key < y->key);
}

static int finish(build_ctx *c, int rc)
{
	if (rc < 0) {
		dsi_labels_release(c->atoms, c->out);
		return rc;
	}
	if (c->out->n > 1)
		qsort(c->out->v, c->out->n, sizeof(dsi_label), by_key);
	return 0;
}

int dsi_labels_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_labels *out)
{
	build_ctx c = {rd, atoms, out, 0};
	out->v = NULL;
	out->n = 0;
	return finish(&c, dsi_rd_string_map(rd, obj, key, add_pair, &c));
}

int dsi_labels_from_object(dsi_rd *rd, dsi_atoms *atoms, const json_t *map, dsi_labels *out)
{
	build_ctx c = {rd, atoms, out, 0};
	out->v = NULL;
	out->n = 0;
	if (!map || json_is_null(map))
		return 0;
	if (dsi_rd_expect_object(rd, map) < 0)
		return rd->err->code;
	const char *k;
	size_t klen;
	json_t *v;
	int rc = 0;
	json_object_keylen_foreach((json_t *)map, k, klen, v)
	{
		if (json_is_null(v)) {
			rc = add_pair(&c, k, klen, "", 0);
		} else if (!json_is_string(v)) {
			rc = dsi_rd_fail(rd, k, DS_ETYPE, "expected string, got %s", dsi_json_type_name(v));
		} else {
			rc = add_pair(&c, k, klen, json_string_value(v), json_string_length(v));
		}
		if (rc < 0)
			break;
	}
	return finish(&c, rc);
}

/* The key and value lead each element (the arrays' users assert it next to their types). */
static void kv_atoms(dsi_atoms *atoms, const void *v, uint32_t n, size_t esz, void (*fn)(dsi_atoms *, dsi_atom))
{
	for (uint32_t i = 0; i < n; i++) {
		const dsi_atom *kv = (const dsi_atom *)((const char *)v + (size_t)i * esz);
		fn(atoms, kv[0]);
		fn(atoms, kv[1]);
	}
}

void dsi_kv_array_release(dsi_atoms *atoms, void **v, uint32_t *n, size_t esz)
{
	kv_atoms(atoms, *v, *n, esz, dsi_atom_unref);
	dsi_free(*v);
	*v = NULL;
	*n = 0;
}

void dsi_kv_array_disown(dsi_atoms *atoms, void **v, uint32_t *n, size_t esz)
{
	kv_atoms(atoms, *v, *n, esz, dsi_atom_unref);
	*v = NULL;
	*n = 0;
}

int dsi_kv_array_copy_x(dsi_atoms *to, const dsi_atoms *from, const void *src, uint32_t n, size_t esz, void **dst,
			uint32_t *dst_n, int *failed)
{
	*dst_n = 0;
	*dst = NULL;
	if (!n)
		return 0;
	if (!(*dst = dsi_malloc(n * esz)))
		return -1;
	memcpy(*dst, src, n * esz);
	*dst_n = n;
	for (uint32_t i = 0; i < n; i++) {
		dsi_atom *kv = (dsi_atom *)(void *)((char *)*dst + (size_t)i * esz);
		kv[0] = dsi_atom_carry_or_none(to, from, kv[0], failed);
		kv[1] = dsi_atom_carry_or_none(to, from, kv[1], failed);
	}
	return 0;
}

int dsi_kv_array_copy(dsi_atoms *atoms, const void *src, uint32_t n, size_t esz, void **dst, uint32_t *dst_n)
{
	int failed = 0; /* one table: references only, which cannot fail */
	return dsi_kv_array_copy_x(atoms, atoms, src, n, esz, dst, dst_n, &failed);
}

_Static_assert(offsetof(dsi_label, key) == 0 && offsetof(dsi_label, value) == sizeof(dsi_atom),
	       "a label begins with its key and value");

void dsi_labels_release(dsi_atoms *atoms, dsi_labels *l)
{
	dsi_kv_array_release(atoms, (void **)&l->v, &l->n, sizeof(*l->v));
}

int dsi_labels_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_labels *src, dsi_labels *dst)
{
	int failed = 0;
	if (dsi_kv_array_copy_x(to, from, src->v, src->n, sizeof(*src->v), (void **)&dst->v, &dst->n, &failed) < 0)
		return -1;
	if (failed) {
		dsi_labels_release(to, dst);
		return -1;
	}
	if (to != from && dst->n > 1)
		qsort(dst->v, dst->n, sizeof(dsi_label), by_key);
	return 0;
}

int dsi_labels_copy(dsi_atoms *atoms, const dsi_labels *src, dsi_labels *dst)
{
	return dsi_labels_copy_x(atoms, atoms, src, dst);
}

int dsi_labels_subset(const dsi_labels *sub, const dsi_labels *l)
{
	for (uint32_t i = 0; i < sub->n; i++)
		if (dsi_labels_get(l, sub->v[i].key) != sub->v[i].value)
			return 0;
	return 1;
}

int dsi_labels_subset_x(const dsi_atoms *ta, const dsi_labels *sub, const dsi_atoms *tb, const dsi_labels *l)
{
	if (ta == tb)
		return dsi_labels_subset(sub, l);
	for (uint32_t i = 0; i < sub->n; i++) {
		dsi_atom have = dsi_labels_get(l, dsi_atom_rebase(ta, sub->v[i].key, tb));
		if (!have || !dsi_atom_eq_x(ta, sub->v[i].value, tb, have))
			return 0;
	}
	return 1;
}

json_t *dsi_labels_to_json(const dsi_atoms *atoms, const dsi_labels *l)
{
	json_t *o = json_object();
	for (uint32_t i = 0; o && i < l->n; i++)
		if (json_object_set_new(
			    o, dsi_atom_str(atoms, l->v[i].key),
			    json_stringn(dsi_atom_str(atoms, l->v[i].value), dsi_atom_len(atoms, l->v[i].value)))) {
			json_decref(o);
			return NULL;
		}
	return o;
}
