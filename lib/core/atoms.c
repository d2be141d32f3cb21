#include "core/atoms.h"

#include "core/numfmt.h"

#include <stddef.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"

void dsi_atoms_init(dsi_atoms *a) { memset(a, 0, sizeof(*a)); }

/*
 * Where the strings live. A load interns a few unique strings per pod (name, uid,
 * resourceVersion) while the parser's tree of that pod is alive; one malloc each scatters the
 * snapshot's strings among the tree's chunks, and once the tree is freed malloc's free lists are
 * full of holes between them: a 20k-node ingest then spent more time in malloc than parsing.
 * Short strings are therefore carved from blocks the table owns (freed ones reused by size);
 * long ones, and every one in AddressSanitizer builds, are malloc'ed. The first block is small
 * and each next one twice the last, up to 64 KiB (mapped from the system, dsi_block_alloc): a
 * table that holds one object's strings (a parsed object, a pure function's private table) costs
 * a malloc of a few hundred bytes, not a 64 KiB mapping and its unmapping.
 */
typedef struct dsi_atom_block {
	struct dsi_atom_block *next;
	size_t bytes; /* as allocated, header included */
	max_align_t data[];
} dsi_atom_block;

#define ATOM_BLOCK_FIRST ((size_t)512)
#define ATOM_BLOCK_BYTES ((size_t)64 * 1024)

/* A freed slot holds the next free one of its class (slots are 8-byte aligned, 8 bytes at least). */
typedef struct free_slot {
	char *next;
} free_slot;

static size_t slot_size(size_t n) { return (n + 1 + 7) & ~(size_t)7; }
static int in_blocks(size_t n)
{
#ifdef DSI_SANITIZE_ADDRESS
	(void)n;
	return 0;
#else
	return slot_size(n) <= (size_t)DSI_ATOM_SLOT_CLASSES * 8;
#endif
}

static char *str_alloc(dsi_atoms *a, const char *s, size_t n)
{
	if (!in_blocks(n))
		return dsi_strndup(s, n);
	size_t sz = slot_size(n), cls = sz / 8 - 1;
	char *p = a->free_slots[cls];
	if (p) {
		a->free_slots[cls] = ((free_slot *)(void *)p)->next;
	} else {
		if (a->bump_left < sz) {
			size_t bytes = a->blocks ? a->blocks->bytes * 2 : ATOM_BLOCK_FIRST;
			if (bytes > ATOM_BLOCK_BYTES)
				bytes = ATOM_BLOCK_BYTES;
			dsi_atom_block *b = dsi_block_alloc(bytes);
			if (!b)
				return NULL;
			b->next = a->blocks;
			b->bytes = bytes;
			a->blocks = b;
			a->bump = (char *)b->data;
			a->bump_left = bytes - offsetof(dsi_atom_block, data);
		}
		p = a->bump;
		a->bump += sz;
		a->bump_left -= sz;
	}
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static void str_free(dsi_atoms *a, char *p, size_t n)
{
	if (!in_blocks(n)) {
		dsi_free(p);
		return;
	}
	size_t cls = slot_size(n) / 8 - 1;
	((free_slot *)(void *)p)->next = a->free_slots[cls];
	a->free_slots[cls] = p;
}

void dsi_atoms_init_overlay(dsi_atoms *a, const dsi_atoms *parent)
{
	memset(a, 0, sizeof(*a));
	a->parent = parent;
	a->base = (uint32_t)(parent->count ? parent->count : 1);
}

void dsi_atoms_free(dsi_atoms *a)
{
	for (size_t i = 1; i < a->count; i++)
		if (a->ents[i].refs && !in_blocks(a->ents[i].len))
			dsi_free(a->ents[i].str);
	while (a->blocks) {
		dsi_atom_block *next = a->blocks->next;
		dsi_block_free(a->blocks, a->blocks->bytes);
		a->blocks = next;
	}
	dsi_free(a->ents);
	dsi_free(a->table);
	dsi_atoms_init(a);
}

static uint32_t hash32(const char *s, size_t n) { return (uint32_t)dsi_hash_bytes(s, n); }

static int table_insert_id(uint32_t *table, size_t cap, const dsi_atom_entry *ents, dsi_atom id)
{
	size_t mask = cap - 1;
	size_t i = ents[id].hash & mask;
	while (table[i])
		i = (i + 1) & mask;
	table[i] = id;
	return 0;
}

static int table_grow(dsi_atoms *a)
{
	size_t ncap = a->table_cap ? a->table_cap * 2 : 64;
	uint32_t *t = dsi_calloc(ncap, sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < a->table_cap; i++)
		if (a->table[i])
			table_insert_id(t, ncap, a->ents, a->table[i]);
	dsi_free(a->table);
	a->table = t;
	a->table_cap = ncap;
	return 0;
}

/* Local slot index (not the public id) of s in this table, or 0. */
static uint32_t find(const dsi_atoms *a, const char *s, size_t n, uint32_t h)
{
	if (!a->table_cap)
		return 0;
	size_t mask = a->table_cap - 1;
	for (size_t i = h & mask; a->table[i]; i = (i + 1) & mask) {
		const dsi_atom_entry *e = &a->ents[a->table[i]];
		if (e->hash == h && e->len == n && memcmp(e->str, s, n) == 0)
			return a->table[i];
	}
	return 0;
}

/* Public ids of an overlay's own atoms start at base (slot 1 is id base). */
static dsi_atom to_id(const dsi_atoms *a, uint32_t slot) { return slot && a->parent ? a->base + slot - 1 : slot; }
static uint32_t to_slot(const dsi_atoms *a, dsi_atom id) { return a->parent ? id - a->base + 1 : id; }

dsi_atom dsi_atom_lookup(const dsi_atoms *a, const char *s, size_t n)
{
	return dsi_atom_lookup_hashed(a, s, n, hash32(s, n));
}

dsi_atom dsi_atom_lookup_cstr(const dsi_atoms *a, const char *s) { return dsi_atom_lookup(a, s, strlen(s)); }

dsi_atom dsi_atom_lookup_hashed(const dsi_atoms *a, const char *s, size_t n, uint32_t h)
{
	if (a->parent) {
		uint32_t p = find(a->parent, s, n, h);
		if (p)
			return p;
	}
	return to_id(a, find(a, s, n, h));
}

dsi_atom dsi_atom_carry(dsi_atoms *to, const dsi_atoms *from, dsi_atom id)
{
	if (id == DSI_ATOM_NONE)
		return id;
	if (to == from || (from->parent == to && id < from->base)) { /* an overlay's parent has its ids below base */
		dsi_atom_ref(to, id);
		return id;
	}
	const dsi_atom_entry *e = dsi_atom_entry_of(from, id);
	return dsi_atom_intern(to, e->str, e->len);
}

dsi_atom dsi_atom_intern(dsi_atoms *a, const char *s, size_t n)
{
	if (n > UINT32_MAX)
		return DSI_ATOM_ERROR;
	uint32_t h = hash32(s, n);
	if (a->parent) { /* the parent is read-only: use its id without a reference */
		uint32_t p = find(a->parent, s, n, h);
		if (p)
			return p;
	}
	dsi_atom id = find(a, s, n, h);
	if (id) {
		a->ents[id].refs++;
		return to_id(a, id);
	}
	if ((a->live + 1) * 2 > a->table_cap && table_grow(a) < 0)
		return DSI_ATOM_ERROR;
	char *copy = str_alloc(a, s, n);
	if (!copy)
		return DSI_ATOM_ERROR;
	if (a->free_head) {
		id = a->free_head;
		a->free_head = (dsi_atom)a->ents[id].ival;
	} else {
		size_t need = a->count ? a->count + 1 : 2;
		if (need >= DSI_ATOM_ERROR || DSI_GROW(a->ents, a->cap, need) < 0) {
			str_free(a, copy, n);
			return DSI_ATOM_ERROR;
		}
		if (!a->count) {
			memset(&a->ents[0], 0, sizeof(a->ents[0])); /* id 0 is DSI_ATOM_NONE */
			a->count = 1;
		}
		id = (dsi_atom)a->count++;
	}
	dsi_atom_entry *e = &a->ents[id];
	e->str = copy;
	e->len = (uint32_t)n;
	e->refs = 1;
	e->hash = h;
	e->ival = 0;
	e->int_ok = (uint8_t)dsi_parse_go_int64(s, n, &e->ival);
	table_insert_id(a->table, a->table_cap, a->ents, id);
	a->live++;
	return to_id(a, id);
}

void dsi_atom_ref(dsi_atoms *a, dsi_atom id)
{
	if (!id || id == DSI_ATOM_ERROR || (a->parent && id < a->base))
		return;
	a->ents[to_slot(a, id)].refs++;
}

static void table_remove(dsi_atoms *a, dsi_atom id)
{
	size_t mask = a->table_cap - 1;
	size_t i = a->ents[id].hash & mask;
	while (a->table[i] != id)
		i = (i + 1) & mask;
	size_t hole = i;
	for (size_t j = (i + 1) & mask; a->table[j]; j = (j + 1) & mask) {
		size_t home = a->ents[a->table[j]].hash & mask;
		int stays = (hole <= j) ? (hole < home && home <= j) : (hole < home || home <= j);
		if (!stays) {
			a->table[hole] = a->table[j];
			hole = j;
		}
	}
	a->table[hole] = 0;
}

void dsi_atom_unref(dsi_atoms *a, dsi_atom id)
{
	if (!id || id == DSI_ATOM_ERROR || a->ending || (a->parent && id < a->base))
		return;
	id = to_slot(a, id);
	dsi_atom_entry *e = &a->ents[id];
	if (--e->refs)
		return;
	table_remove(a, id);
	str_free(a, e->str, e->len);
	e->str = NULL;
	e->ival = a->free_head;
	a->free_head = id;
	a->live--;
}

int dsi_atoms_copy(dsi_atoms *dst, const dsi_atoms *src)
{
	dsi_atoms_init(dst);
	if (!src->count)
		return 0;
	dst->ents = dsi_calloc(src->cap, sizeof(*dst->ents));
	dst->table = dsi_malloc(src->table_cap * sizeof(*dst->table));
	if (!dst->ents || !dst->table)
		goto fail;
	dst->cap = src->cap;
	memcpy(dst->table, src->table, src->table_cap * sizeof(*dst->table));
	dst->table_cap = src->table_cap;
	for (size_t i = 0; i < src->count; i++) {
		dst->ents[i] = src->ents[i];
		dst->count = i + 1;
		if (src->ents[i].refs) {
			dst->ents[i].str = str_alloc(dst, src->ents[i].str, src->ents[i].len);
			if (!dst->ents[i].str) {
				dst->ents[i].refs = 0;
				goto fail;
			}
		}
	}
	dst->free_head = src->free_head;
	dst->live = src->live;
	return 0;
fail:
	dsi_atoms_free(dst);
	return -1;
}
