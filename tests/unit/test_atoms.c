/* The interned-string table (lib/core/atoms.c): ids, references, the overlay, copies, and where the
 * strings live. Short strings are carved from blocks the table owns and a freed one's slot is
 * reused by a string of the same size class; long strings (and every string in AddressSanitizer
 * builds) are malloc'ed. These tests hold in every build: they check what the table promises, and
 * the slot reuse only where the build pools. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/atoms.h"
#include "harness.h"

/* A string of n >= 2 bytes: k (< 676) in its first two letters, the rest from salt. */
static void make(char *buf, size_t n, unsigned k, unsigned salt)
{
	buf[0] = (char)('a' + k / 26 % 26);
	buf[1] = (char)('a' + k % 26);
	for (size_t i = 2; i < n; i++)
		buf[i] = (char)('a' + (salt * 7 + i * 13) % 26);
	buf[n] = '\0';
}

START_TEST(intern_lookup_and_refs)
{
	dsi_atoms a;
	dsi_atoms_init(&a);
	dsi_atom x = dsi_atom_intern_cstr(&a, "kube-system");
	ck_assert_uint_ne(x, DSI_ATOM_NONE);
	ck_assert_uint_ne(x, DSI_ATOM_ERROR);
	ck_assert_uint_eq(dsi_atom_intern_cstr(&a, "kube-system"), x); /* same string, same id, second reference */
	ck_assert_str_eq(dsi_atom_str(&a, x), "kube-system");
	ck_assert_uint_eq(dsi_atom_len(&a, x), 11);
	ck_assert_uint_eq(dsi_atom_lookup_cstr(&a, "kube-system"), x);
	ck_assert_uint_eq(dsi_atom_lookup_cstr(&a, "default"), DSI_ATOM_NONE);
	dsi_atom empty = dsi_atom_intern(&a, "", 0); /* the empty string is an atom, not DSI_ATOM_NONE */
	ck_assert_uint_ne(empty, DSI_ATOM_NONE);
	ck_assert_str_eq(dsi_atom_str(&a, empty), "");
	dsi_atom_unref(&a, x);
	ck_assert_uint_eq(dsi_atom_lookup_cstr(&a, "kube-system"), x); /* one reference left */
	dsi_atom_unref(&a, x);
	ck_assert_uint_eq(dsi_atom_lookup_cstr(&a, "kube-system"), DSI_ATOM_NONE);
	ck_assert_uint_eq(a.live, 1);
	dsi_atoms_free(&a);
}
END_TEST

START_TEST(integer_values)
{
	dsi_atoms a;
	dsi_atoms_init(&a);
	int64_t v = 0;
	ck_assert_int_eq(dsi_atom_int(&a, dsi_atom_intern_cstr(&a, "-42"), &v), 1);
	ck_assert_int_eq(v, -42);
	ck_assert_int_eq(dsi_atom_int(&a, dsi_atom_intern_cstr(&a, "4x"), &v), 0);
	dsi_atoms_free(&a);
}
END_TEST

/* Every length around the size classes' edges (a class per 8 bytes up to 256 with the NUL), many
 * strings per length so that blocks fill up, then half of them released and interned again: what
 * comes back must be the right text, whatever slot it got. */
START_TEST(lengths_blocks_and_reuse)
{
	enum { PER_LEN = 400, MAXLEN = 300 }; /* 8-byte classes up to 256 bytes, and beyond */
	dsi_atoms a;
	dsi_atoms_init(&a);
	static dsi_atom ids[MAXLEN + 1][PER_LEN];
	char buf[MAXLEN + 1];
	for (size_t n = 2; n <= MAXLEN; n++)
		for (unsigned k = 0; k < PER_LEN; k++) {
			make(buf, n, k, (unsigned)n);
			ids[n][k] = dsi_atom_intern(&a, buf, n);
			ck_assert_uint_ne(ids[n][k], DSI_ATOM_ERROR);
			ck_assert_uint_eq(dsi_atom_len(&a, ids[n][k]), n);
			ck_assert_str_eq(dsi_atom_str(&a, ids[n][k]), buf);
		}
	/* every string is still intact after all the others were written */
	for (size_t n = 2; n <= MAXLEN; n++)
		for (unsigned k = 0; k < PER_LEN; k++) {
			const char *s = dsi_atom_str(&a, ids[n][k]);
			ck_assert_uint_eq(strlen(s), n);
			ck_assert_uint_eq(dsi_atom_lookup(&a, s, n), ids[n][k]);
		}
	size_t live = a.live;
	/* release the odd ones; their slots go back to their classes */
	for (size_t n = 2; n <= MAXLEN; n++)
		for (unsigned k = 1; k < PER_LEN; k += 2) {
			char keep[MAXLEN + 1];
			memcpy(keep, dsi_atom_str(&a, ids[n][k]), n + 1);
			dsi_atom_unref(&a, ids[n][k]);
			ck_assert_uint_eq(dsi_atom_lookup(&a, keep, n), DSI_ATOM_NONE);
		}
	ck_assert_uint_lt(a.live, live);
	/* new strings of every length take the freed slots; the even ones must not be disturbed */
	for (size_t n = 2; n <= MAXLEN; n++)
		for (unsigned k = 1; k < PER_LEN; k += 2) {
			make(buf, n, k, (unsigned)n + 1000);
			buf[0] = 'Z'; /* differs from every first round string */
			dsi_atom id = dsi_atom_intern(&a, buf, n);
			ck_assert_uint_ne(id, DSI_ATOM_ERROR);
			ck_assert_int_eq(memcmp(dsi_atom_str(&a, id), buf, n), 0);
		}
	for (size_t n = 2; n <= MAXLEN; n++)
		for (unsigned k = 0; k < PER_LEN; k += 2) {
			const char *s = dsi_atom_str(&a, ids[n][k]);
			ck_assert_uint_eq(strlen(s), n);
			ck_assert_uint_eq(dsi_atom_lookup(&a, s, n), ids[n][k]);
		}
#ifndef DSI_SANITIZE_ADDRESS
	ck_assert_ptr_nonnull(a.blocks); /* this build pools short strings */
#endif
	dsi_atoms_free(&a);
	ck_assert_ptr_null(a.blocks);
}
END_TEST

/* A freed short string's slot is the next one handed out for its size class. */
START_TEST(freed_slot_reused_by_size)
{
#ifdef DSI_SANITIZE_ADDRESS
	return; /* no pool in this build: every string is its own allocation */
#endif
	dsi_atoms a;
	dsi_atoms_init(&a);
	dsi_atom x = dsi_atom_intern_cstr(&a, "node-000001"); /* 12 bytes with the NUL: the 16-byte class */
	dsi_atom keep = dsi_atom_intern_cstr(&a, "zone-a");
	const char *slot = dsi_atom_str(&a, x);
	dsi_atom_unref(&a, x);
	dsi_atom y = dsi_atom_intern_cstr(&a, "pod-0000123"); /* same class */
	ck_assert_ptr_eq(dsi_atom_str(&a, y), slot);
	ck_assert_str_eq(dsi_atom_str(&a, y), "pod-0000123");
	ck_assert_str_eq(dsi_atom_str(&a, keep), "zone-a");
	dsi_atom_unref(&a, y);
	dsi_atom z = dsi_atom_intern_cstr(&a, "a-much-longer-name-of-another-class");
	ck_assert_ptr_ne(dsi_atom_str(&a, z), slot); /* another class: the freed slot waits */
	dsi_atoms_free(&a);
}
END_TEST

START_TEST(copy_is_independent)
{
	dsi_atoms a, b;
	dsi_atoms_init(&a);
	char longer[400];
	make(longer, sizeof(longer) - 1, 3, 3);
	dsi_atom s = dsi_atom_intern_cstr(&a, "short");
	dsi_atom l = dsi_atom_intern_cstr(&a, longer);
	dsi_atom gone = dsi_atom_intern_cstr(&a, "gone");
	dsi_atom_unref(&a, gone);
	ck_assert_int_eq(dsi_atoms_copy(&b, &a), 0);
	ck_assert_str_eq(dsi_atom_str(&b, s), "short");
	ck_assert_str_eq(dsi_atom_str(&b, l), longer);
	ck_assert_ptr_ne(dsi_atom_str(&b, s), dsi_atom_str(&a, s));
	dsi_atoms_free(&a); /* the copy owns its strings */
	ck_assert_str_eq(dsi_atom_str(&b, s), "short");
	ck_assert_str_eq(dsi_atom_str(&b, l), longer);
	ck_assert_uint_eq(dsi_atom_lookup_cstr(&b, "gone"), DSI_ATOM_NONE);
	dsi_atom again = dsi_atom_intern_cstr(&b, "gone"); /* the freed entry is reused in the copy */
	ck_assert_str_eq(dsi_atom_str(&b, again), "gone");
	dsi_atoms_free(&b);
}
END_TEST

START_TEST(overlay_keeps_parent_ids)
{
	dsi_atoms p, o;
	dsi_atoms_init(&p);
	dsi_atom shared = dsi_atom_intern_cstr(&p, "app");
	dsi_atoms_init_overlay(&o, &p);
	ck_assert_uint_eq(dsi_atom_intern_cstr(&o, "app"), shared);
	dsi_atom mine = dsi_atom_intern_cstr(&o, "tier");
	ck_assert_uint_ge(mine, o.base);
	ck_assert_str_eq(dsi_atom_str(&o, mine), "tier");
	ck_assert_str_eq(dsi_atom_str(&o, shared), "app");
	ck_assert_uint_eq(dsi_atom_lookup_cstr(&p, "tier"), DSI_ATOM_NONE); /* the parent is untouched */
	dsi_atoms_free(&o);
	ck_assert_str_eq(dsi_atom_str(&p, shared), "app");
	dsi_atoms_free(&p);
}
END_TEST

START_TEST(ending_table_keeps_its_strings_until_freed)
{
	dsi_atoms a;
	dsi_atoms_init(&a);
	char long_text[600]; /* beyond the blocks' sizes: a string of its own, which dsi_atoms_free frees */
	memset(long_text, 'x', sizeof(long_text));
	dsi_atom s = dsi_atom_intern_cstr(&a, "short"), l = dsi_atom_intern(&a, long_text, sizeof(long_text));
	size_t live = a.live;
	dsi_atoms_ending(&a);
	dsi_atom_unref(&a, s);
	dsi_atom_unref(&a, l);
	/* nothing unlinked or freed one by one: the table goes whole (under ASan, nothing leaks) */
	ck_assert_uint_eq(a.live, live);
	ck_assert_str_eq(dsi_atom_str(&a, s), "short");
	ck_assert_uint_eq(dsi_atom_len(&a, l), sizeof(long_text));
	dsi_atoms_free(&a);
	ck_assert_int_eq(a.ending, 0); /* a freed table is a new one */
}
END_TEST

static Suite *atoms_suite(void)
{
	Suite *s = suite_create("atoms");
	TCase *tc = tcase_create("atoms");
	tcase_add_test(tc, intern_lookup_and_refs);
	tcase_add_test(tc, integer_values);
	tcase_add_test(tc, lengths_blocks_and_reuse);
	tcase_add_test(tc, freed_slot_reused_by_size);
	tcase_add_test(tc, copy_is_independent);
	tcase_add_test(tc, overlay_keeps_parent_ids);
	tcase_add_test(tc, ending_table_keeps_its_strings_until_freed);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(atoms_suite)
