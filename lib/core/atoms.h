/*
 * Interned strings ("atoms"). Every label key and value, name, namespace and
 * other string the predicates compare is interned once per snapshot, so that
 * matching compares 32-bit ids instead of strings and equal strings share one
 * copy. Atoms are reference-counted so that watch-event churn does not grow
 * the table without bound.
 */
#ifndef DSI_ATOMS_H
#define DSI_ATOMS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/numfmt.h"

typedef uint32_t dsi_atom;
#define DSI_ATOM_NONE ((dsi_atom)0)            /* absent (not the empty string) */
#define DSI_ATOM_ERROR ((dsi_atom)0xffffffffu) /* allocation failed */

typedef struct dsi_atom_entry {
	char *str;
	uint32_t len;
	uint32_t refs; /* 0 on the free list */
	int64_t ival;  /* value when int_ok */
	uint32_t hash;
	uint8_t int_ok; /* the string parses as Go strconv.ParseInt(s, 10, 64) */
} dsi_atom_entry;

#define DSI_ATOM_SLOT_CLASSES 32 /* strings of up to 8 * 32 bytes with their NUL */

typedef struct dsi_atoms {
	const struct dsi_atoms *parent; /* overlay: read-only parent whose ids are below base */
	uint32_t base;                  /* overlay: ids from base on are this table's (ents[id - base]) */
	dsi_atom_entry *ents;           /* index 0 unused */
	size_t count, cap;              /* slots used in ents (including freed), capacity */
	dsi_atom free_head;             /* chain of freed entries through ival */
	uint32_t *table;                /* open addressing of atom ids, 0 = empty */
	size_t table_cap;               /* power of two */
	size_t live;
	/* where short strings live (atoms.c): blocks of their own, carved in 8-byte steps, freed
	 * slots reused by size, so that a snapshot's strings do not sit among a parser's garbage */
	struct dsi_atom_block *blocks;
	char *bump;
	size_t bump_left;
	char *free_slots[DSI_ATOM_SLOT_CLASSES];
	int ending; /* dsi_atoms_ending: references are no longer dropped one by one */
} dsi_atoms;

void dsi_atoms_init(dsi_atoms *a);
/* An overlay on a table that must not change (a snapshot shared by readers):
 * strings the parent knows keep the parent's ids (no references are taken on
 * them); new strings get ids above the parent's, which can never be equal to
 * a parent id - exactly right for matching. Free with dsi_atoms_free. */
void dsi_atoms_init_overlay(dsi_atoms *a, const dsi_atoms *parent);
void dsi_atoms_free(dsi_atoms *a);
/* The table is about to go whole (dsi_atoms_free) after its holders are released: from now on
 * dsi_atom_unref leaves it alone, instead of unlinking and freeing each string that dsi_atoms_free
 * would free anyway. */
static inline void dsi_atoms_ending(dsi_atoms *a) { a->ending = 1; }
int dsi_atoms_copy(dsi_atoms *dst, const dsi_atoms *src);

/* Intern s[0..n) and take a reference. DSI_ATOM_ERROR on allocation failure. */
dsi_atom dsi_atom_intern(dsi_atoms *a, const char *s, size_t n);
static inline dsi_atom dsi_atom_intern_cstr(dsi_atoms *a, const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return dsi_atom_intern(a, s, n);
}
/* Find without interning: DSI_ATOM_NONE if no such string is interned. Read-only. */
dsi_atom dsi_atom_lookup(const dsi_atoms *a, const char *s, size_t n);
dsi_atom dsi_atom_lookup_cstr(const dsi_atoms *a, const char *s);
/* An identity string (namespace, name, uid) as the object readers keep it: NULL and "" are
 * DSI_ATOM_NONE (an empty label value, by contrast, is an atom of its own). */
static inline dsi_atom dsi_atom_lookup_id(const dsi_atoms *a, const char *s)
{
	return s && *s ? dsi_atom_lookup_cstr(a, s) : DSI_ATOM_NONE;
}
void dsi_atom_ref(dsi_atoms *a, dsi_atom id);
void dsi_atom_unref(dsi_atoms *a, dsi_atom id);

/* The entry of a live id, through the overlay's parent when needed. */
static inline const dsi_atom_entry *dsi_atom_entry_of(const dsi_atoms *a, dsi_atom id)
{
	if (a->parent) {
		if (id < a->base)
			return &a->parent->ents[id];
		return &a->ents[id - a->base + 1]; /* slot 1 is id base (atoms.c to_slot) */
	}
	return &a->ents[id];
}
static inline const char *dsi_atom_str(const dsi_atoms *a, dsi_atom id)
{
	return id && id != DSI_ATOM_ERROR ? dsi_atom_entry_of(a, id)->str : NULL;
}
static inline size_t dsi_atom_len(const dsi_atoms *a, dsi_atom id) { return id ? dsi_atom_entry_of(a, id)->len : 0; }
/*
 * Two tables. Objects parsed on their own (a ds_object each) keep their strings in tables of their
 * own, and a decision between two of them compares strings across tables: by content, with the
 * hashes both entries keep first. Same table: the ids, as everywhere else (callers pass the same
 * pointer twice and the compiler folds the test away).
 */
/* A string the table does not hold, from dsi_atom_rebase: equal to no id of it, no label key of
 * it; it has no entry (dsi_atom_str gives NULL; never ask its length). */
#define DSI_ATOM_FOREIGN DSI_ATOM_ERROR
/* Find s[0..n) whose hash32 is h (the hash an entry keeps): DSI_ATOM_NONE when not interned. */
dsi_atom dsi_atom_lookup_hashed(const dsi_atoms *a, const char *s, size_t n, uint32_t h);
/* The same string in another table: id when to == from, else to's id for it, DSI_ATOM_FOREIGN
 * when to lacks it; DSI_ATOM_NONE stays NONE. Read-only on both. */
static inline dsi_atom dsi_atom_rebase(const dsi_atoms *from, dsi_atom id, const dsi_atoms *to)
{
	if (from == to || id == DSI_ATOM_NONE)
		return id;
	const dsi_atom_entry *e = dsi_atom_entry_of(from, id);
	dsi_atom r = dsi_atom_lookup_hashed(to, e->str, e->len, e->hash);
	return r ? r : DSI_ATOM_FOREIGN;
}
/* Atom a of table ta and atom b of tb are the same string (NONE only equals NONE). */
static inline int dsi_atom_eq_x(const dsi_atoms *ta, dsi_atom a, const dsi_atoms *tb, dsi_atom b)
{
	if (ta == tb || a == DSI_ATOM_NONE || b == DSI_ATOM_NONE)
		return a == b;
	const dsi_atom_entry *x = dsi_atom_entry_of(ta, a), *y = dsi_atom_entry_of(tb, b);
	return x->hash == y->hash && x->len == y->len && memcmp(x->str, y->str, x->len) == 0;
}
/* Atom id of table from, interned in to with a reference (to == from: the reference only).
 * DSI_ATOM_ERROR without memory. */
dsi_atom dsi_atom_carry(dsi_atoms *to, const dsi_atoms *from, dsi_atom id);
/* The same for copies that carry many atoms: a failure is recorded in *failed and gives
 * DSI_ATOM_NONE, so that releasing what was built drops exactly the references taken. */
static inline dsi_atom dsi_atom_carry_or_none(dsi_atoms *to, const dsi_atoms *from, dsi_atom id, int *failed)
{
	dsi_atom a = dsi_atom_carry(to, from, id);
	if (a != DSI_ATOM_ERROR)
		return a;
	*failed = 1;
	return DSI_ATOM_NONE;
}

/* Integer value per Go strconv.ParseInt(s, 10, 64); returns 1 when it parses. */
static inline int dsi_atom_int(const dsi_atoms *a, dsi_atom id, int64_t *out)
{
	if (!id)
		return 0;
	const dsi_atom_entry *e = dsi_atom_entry_of(a, id);
	if (!e->int_ok)
		return 0;
	*out = e->ival;
	return 1;
}

#endif
