/*
 * The List scanner's items array in parts (core/jsonscan.h: dsi_jsonscan_elements, dsi_jsonscan_join,
 * dsi_jsonscan_guess_element), as the loader scans a large List on several threads: whatever the parts'
 * starting points (good guesses, bad guesses, bytes inside strings or inside items), the join gives the
 * items, the end and the verdict of one scan from the array's start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "core/jsonscan.h"

typedef struct text {
	char *p;
	size_t n, cap;
} text;

static void put(text *t, const char *s)
{
	size_t k = strlen(s);
	if (t->n + k + 1 > t->cap) {
		t->cap = (t->n + k + 1) * 2;
		t->p = realloc(t->p, t->cap);
		ck_assert_ptr_nonnull(t->p);
	}
	memcpy(t->p + t->n, s, k + 1);
	t->n += k;
}

static unsigned next(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 16;
}

/* A List as kubectl indents one, whose items hold what could mislead a guess: nested arrays whose
 * elements sit at the items' indentation after a line ending in a comma, braces and commas in strings,
 * escaped quotes. */
static char *list(unsigned *seed, int n)
{
	text t = {0};
	put(&t, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n");
	for (int i = 0; i < n; i++) {
		char buf[160];
		snprintf(buf, sizeof(buf), "        {\n            \"kind\": \"Pod\",\n            \"n\": %d", i);
		put(&t, buf);
		switch (next(seed) % 4) {
		case 0: put(&t, ",\n            \"x\": [\n        {\"a\": 1},\n        {\"b\": \"},{\"}\n]"); break;
		case 1: put(&t, ",\n            \"s\": \"\\\"},\\n        {\""); break;
		case 2: put(&t, ",\n            \"o\": {\"deep\": [[{}], {\"e\": []}]}"); break;
		default: break;
		}
		put(&t, "\n        }");
		put(&t, i + 1 < n ? ",\n" : "\n");
	}
	put(&t, "    ],\n    \"kind\": \"List\"\n}\n");
	return t.p;
}

/* One scan of the array at open, and the parts from the given starts joined: the same. */
static void join_is_one_scan(const char *t, size_t size, size_t open, const size_t *starts, unsigned np)
{
	size_t first = dsi_jsonscan_space(t, size, open + 1), at = 0;
	dsi_jsonscan_items one = {0}, joined = {0};
	int rc = dsi_jsonscan_elements(t, size, first, SIZE_MAX, &one, &at);
	long long want = rc == 1 ? (long long)at : rc;
	dsi_jsonscan_part parts[8];
	memset(parts, 0, sizeof(parts));
	parts[0].from = first;
	for (unsigned k = 1; k < np; k++)
		parts[k].from = starts[k];
	for (unsigned k = 0; k < np; k++) {
		parts[k].stop = k + 1 < np ? parts[k + 1].from : SIZE_MAX;
		dsi_jsonscan_part_scan(t, size, &parts[k]);
	}
	long long got = dsi_jsonscan_join(t, size, parts, np, &joined);
	ck_assert_int_eq(got, want);
	if (want > 0) {
		ck_assert_uint_eq(joined.n, one.n);
		for (size_t k = 0; k < one.n; k++) {
			ck_assert_uint_eq(joined.start[k], one.start[k]);
			ck_assert_uint_eq(joined.end[k], one.end[k]);
		}
	}
	dsi_jsonscan_items_free(&one);
	dsi_jsonscan_items_free(&joined);
}

START_TEST(parts_join_as_one_scan)
{
	unsigned seed = 36;
	int guessed = 0, wrong = 0;
	for (int round = 0; round < 400; round++) {
		char *t = list(&seed, 1 + (int)(next(&seed) % 60));
		size_t size = strlen(t);
		if (round % 4 == 3) { /* a broken byte somewhere: the verdict is still the one scan's */
			size_t k = next(&seed) % size;
			t[k] = "{}[]\",x"[next(&seed) % 7];
		}
		size_t open = (size_t)(strstr(t, "\"items\": [") - t) + 9,
		       first = dsi_jsonscan_space(t, size, open + 1);
		unsigned np = 1 + next(&seed) % 5;
		size_t starts[8] = {0};
		size_t prev = first;
		for (unsigned k = 1; k < np; k++) {
			/* half the rounds the loader's guesses, the others any byte after the last start */
			size_t from = prev + 1 + next(&seed) % (size / np + 1);
			size_t g = round % 2 ? dsi_jsonscan_guess_element(t, size, first, from) : from;
			if (g <= prev || g >= size) {
				np = k;
				break;
			}
			starts[k] = prev = g;
		}
		for (unsigned k = 1; k < np; k++) {
			guessed++;
			dsi_jsonscan_items probe = {0};
			size_t at;
			/* a start that is not an element's: no scan from the array's start stops there */
			int rc = dsi_jsonscan_elements(t, size, first, starts[k], &probe, &at);
			wrong += rc != 2 || at != starts[k];
			dsi_jsonscan_items_free(&probe);
		}
		join_is_one_scan(t, size, open, starts, np);
		free(t);
	}
	/* both kinds of start were tried */
	ck_assert_int_gt(guessed, 100);
	ck_assert_int_gt(wrong, 20);
	ck_assert_int_lt(wrong, guessed);
}
END_TEST

START_TEST(guesses_find_kubectl_items)
{
	unsigned seed = 37;
	char *t = list(&seed, 200);
	size_t size = strlen(t), open = (size_t)(strstr(t, "\"items\": [") - t) + 9;
	size_t first = dsi_jsonscan_space(t, size, open + 1);
	dsi_jsonscan_items one = {0};
	size_t at;
	ck_assert_int_eq(dsi_jsonscan_elements(t, size, first, SIZE_MAX, &one, &at), 1);
	/* from any byte, the guess is the next element's start, unless a nested array at the items'
	 * indentation comes first */
	int hits = 0;
	for (size_t from = first + 1; from < size; from += 97) {
		size_t g = dsi_jsonscan_guess_element(t, size, first, from);
		size_t k = 0;
		while (k < one.n && one.start[k] < from)
			k++;
		if (k < one.n && g == one.start[k])
			hits++;
		ck_assert(g == 0 || g >= from);
	}
	ck_assert_int_gt(hits, 0);
	/* text that is not indented gives no guess */
	const char *flat = "{\"items\":[{\"a\":1},{\"a\":2},{\"a\":3}]}";
	ck_assert_uint_eq(dsi_jsonscan_guess_element(flat, strlen(flat), 10, 12), 0);
	dsi_jsonscan_items_free(&one);
	free(t);
}
END_TEST

static Suite *jsonscan_suite(void)
{
	Suite *s = suite_create("jsonscan");
	TCase *tc = tcase_create("parts");
	tcase_add_test(tc, parts_join_as_one_scan);
	tcase_add_test(tc, guesses_find_kubectl_items);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(jsonscan_suite)
