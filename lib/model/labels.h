/* Label sets (metadata.labels, nodeSelector) as sorted arrays of interned key/value pairs. */
#ifndef DSI_LABELS_H
#define DSI_LABELS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/reader.h"

typedef struct dsi_label {
	dsi_atom key, value; /* value "" is a real atom, never DSI_ATOM_NONE */
} dsi_label;

typedef struct dsi_labels {
	dsi_label *v; /* sorted by key atom id */
	uint32_t n;
} dsi_labels;

/* Read the map[string]string member `key` of obj (labels, annotations,
 * nodeSelector). Absent or null gives an empty set. */
int dsi_labels_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_labels *out);
/* Build from a JSON object directly (values must be strings). */
int dsi_labels_from_object(dsi_rd *rd, dsi_atoms *atoms, const json_t *map, dsi_labels *out);
void dsi_labels_release(dsi_atoms *atoms, dsi_labels *l);
int dsi_labels_copy(dsi_atoms *atoms, const dsi_labels *src, dsi_labels *dst);
/* A copy of labels of table from in table to (sorted again by to's ids); -1 without memory. */
int dsi_labels_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_labels *src, dsi_labels *dst);

/* Arrays *v of *n elements, esz bytes each, that begin with an interned key and value
 * (dsi_label, dsi_taint, dsi_toleration): what their release and copy functions share. */
/* Drop the references on every key and value and free the array; *v becomes NULL, *n 0. */
void dsi_kv_array_release(dsi_atoms *atoms, void **v, uint32_t *n, size_t esz);
/* The same for an array that lives in a block owned elsewhere (a snapshot slab): the references are
 * dropped, nothing is freed. */
void dsi_kv_array_disown(dsi_atoms *atoms, void **v, uint32_t *n, size_t esz);
/* *dst a copy of the n elements of src (NULL when n is 0) with its own references, *dst_n n;
 * 0, or -1 when out of memory (then *dst is NULL and *dst_n 0). */
int dsi_kv_array_copy(dsi_atoms *atoms, const void *src, uint32_t n, size_t esz, void **dst, uint32_t *dst_n);
/* The same from an array whose atoms are in table from into table to (interned there when the
 * tables differ); *failed set when an atom could not be interned (its place then NONE). */
int dsi_kv_array_copy_x(dsi_atoms *to, const dsi_atoms *from, const void *src, uint32_t n, size_t esz, void **dst,
			uint32_t *dst_n, int *failed);

/* Where key is in l, or would go (the first label whose key is not below it). */
static inline uint32_t dsi_labels_position(const dsi_labels *l, dsi_atom key)
{
	uint32_t lo = 0, hi = l->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (l->v[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The value for key, or DSI_ATOM_NONE when the key is absent. */
static inline dsi_atom dsi_labels_get(const dsi_labels *l, dsi_atom key)
{
	uint32_t i = dsi_labels_position(l, key);
	return (i < l->n && l->v[i].key == key) ? l->v[i].value : DSI_ATOM_NONE;
}

/* The same, starting from *hint: where key was, or would go, in the label set looked at before.
 * The nodes of a cluster mostly carry the same label keys, so in a pass over all of them the hint
 * is mostly right and the key is found (or known absent) in one or two comparisons, reading only
 * the labels around it. A wrong hint costs a search, which leaves *hint right for this set. */
static inline dsi_atom dsi_labels_get_hinted(const dsi_labels *l, dsi_atom key, uint32_t *hint)
{
	uint32_t h = *hint, n = l->n;
	const dsi_label *v = l->v;
	if (h < n && v[h].key == key)
		return v[h].value;
	if (h <= n && (h == n || v[h].key > key) && (h == 0 || v[h - 1].key < key))
		return DSI_ATOM_NONE; /* between its neighbours: absent */
	*hint = h = dsi_labels_position(l, key);
	return (h < n && v[h].key == key) ? v[h].value : DSI_ATOM_NONE;
}

/* Every pair of sub is in l (labels.SelectorFromSet(sub).Matches(l)). */
int dsi_labels_subset(const dsi_labels *sub, const dsi_labels *l);
/* The same with sub's strings in table ta and l's in tb (objects parsed apart). */
int dsi_labels_subset_x(const dsi_atoms *ta, const dsi_labels *sub, const dsi_atoms *tb, const dsi_labels *l);
/* The same set, as a JSON object (new reference). */
json_t *dsi_labels_to_json(const dsi_atoms *atoms, const dsi_labels *l);

#endif
