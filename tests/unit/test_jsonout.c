/* The library's JSON writer (lib/core/jsonout.c): byte for byte what jansson's json_dumps writes with
 * the same flags, on every kind of value (escapes, UTF-8, key order, sizes of objects on either side
 * of its sorting strategies, the most negative integer, reals and invalid strings handed back to
 * jansson), on generated documents and on every vector file's documents. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/jsonout.h"
#include "harness.h"

/* dsi_json_dumps(v, flags) and jansson's json_dumps agree (both NULL or the same text). */
static void same(const json_t *v, size_t flags)
{
	char *ours = dsi_json_dumps(v, flags);
	char *theirs = json_dumps(v, flags | JSON_ENCODE_ANY);
	if (!theirs) {
		ck_assert_ptr_null(ours);
	} else {
		ck_assert_ptr_nonnull(ours);
		ck_assert_str_eq(ours, theirs);
	}
	dsi_free(ours);
	free(theirs);
}

static void both(const json_t *v)
{
	same(v, JSON_COMPACT | JSON_SORT_KEYS);
	same(v, JSON_COMPACT);
	same(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

START_TEST(scalars_and_escapes)
{
	json_t *vals[] = {json_null(),
			  json_true(),
			  json_false(),
			  json_integer(0),
			  json_integer(-1),
			  json_integer(INT64_MAX),
			  json_integer(INT64_MIN),
			  json_integer(1234567890123LL),
			  json_real(0.1),
			  json_real(-2.5e300),
			  json_real(3),
			  json_string(""),
			  json_string("plain/text with spaces"),
			  json_string("quote \" backslash \\ slash /"),
			  json_string("\b\f\n\r\t\x01\x1f\x7f"),
			  json_string("é ü 漢字 \xf0\x9f\x98\x80 \xe2\x80\xa8"),
			  json_stringn("nul \0 inside", 12),
			  json_stringn_nocheck("bad \xff utf-8", 12),
			  json_stringn_nocheck("overlong \xc0\xaf", 11),
			  json_stringn_nocheck("surrogate \xed\xa0\x80", 13),
			  json_stringn_nocheck("cut \xe2\x82", 6),
			  json_stringn_nocheck("above \xf4\x90\x80\x80", 10)};
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		ck_assert_ptr_nonnull(vals[i]);
		both(vals[i]);
		json_t *arr = json_pack("[O, {s:O}]", vals[i], "k", vals[i]);
		both(arr);
		json_decref(arr);
		json_decref(vals[i]);
	}
	/* every byte below 0x80 in a string and as a key */
	char all[128];
	for (int c = 0; c < 128; c++)
		all[c] = (char)c;
	json_t *s = json_stringn(all, sizeof(all)), *o = json_object();
	json_object_setn_new(o, all + 1, sizeof(all) - 1, json_integer(1));
	both(s);
	both(o);
	json_decref(s);
	json_decref(o);
	/* a byte to escape or check at every place of strings around the writer's 16-byte steps */
	static const char *const specials[] = {"\x01", "\"", "\\", "\x7f", "\xc3\xa9", "\xe2\x80\xa8", "\xff", "\xc3"};
	for (size_t len = 14; len <= 50; len += 6)
		for (size_t at = 0; at <= len; at++)
			for (size_t k = 0; k < sizeof(specials) / sizeof(specials[0]); k++) {
				char buf[64];
				size_t sl = strlen(specials[k]);
				memset(buf, 'a', len);
				memcpy(buf + at, specials[k], sl);
				json_t *v = json_stringn_nocheck(buf, at + sl > len ? at + sl : len);
				both(v);
				json_decref(v);
			}
}
END_TEST

/* An object of n members whose keys share prefixes and differ in length, inserted out of order. */
static json_t *object_of(int n, unsigned seed)
{
	json_t *o = json_object();
	for (int i = 0; i < n; i++) {
		char key[32];
		unsigned r = (unsigned)i * 2654435761u ^ seed;
		int len = snprintf(key, sizeof(key), "%s%u", (r & 1) ? "k" : "ke", r % 97);
		json_object_setn_new(o, key, (size_t)(r % 3 ? len : len > 1 ? len - 1 : len), json_integer(i));
	}
	return o;
}

START_TEST(key_order_at_every_size)
{
	for (int n = 0; n <= 70; n++) {
		json_t *o = object_of(n, (unsigned)n * 7919u);
		both(o);
		json_t *nested = json_pack("{s:[O, O], s:{s:O}}", "z", o, o, "a", "m", o);
		both(nested);
		json_decref(nested);
		json_decref(o);
	}
}
END_TEST

START_TEST(deep_and_empty)
{
	json_t *v = json_pack("{s:[], s:{}, s:[[], {}], s:null}", "a", "b", "c", "d");
	both(v);
	json_decref(v);
	json_t *root = json_array(), *cur = root;
	for (int i = 0; i < 3000; i++) { /* deeper than jansson's parser builds: jansson's dump decides */
		json_t *next = json_array();
		json_array_append_new(cur, next);
		cur = next;
	}
	both(root);
	json_decref(root);
}
END_TEST

START_TEST(vector_documents)
{
	/* every document of the upstream vectors, as parsed */
	const char *files[] = {"tests/vectors/upstream/daemon_update.json", "tests/vectors/upstream/should_run.json",
			       "tests/vectors/upstream/daemonset_util.json"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		json_t *doc = dsi_test_load_json(files[i]);
		both(doc);
		json_decref(doc);
	}
}
END_TEST

static Suite *jsonout_suite(void)
{
	Suite *s = suite_create("jsonout");
	TCase *tc = tcase_create("jsonout");
	tcase_add_test(tc, scalars_and_escapes);
	tcase_add_test(tc, key_order_at_every_size);
	tcase_add_test(tc, deep_and_empty);
	tcase_add_test(tc, vector_documents);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(jsonout_suite)
