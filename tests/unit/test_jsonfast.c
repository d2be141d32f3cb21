/*
 * The fast JSON reader (lib/core/jsonfast.h): whenever it returns a tree, that tree is json_loadb's
 * on the same text and flags (types exact, reals bit for bit, keys in the same order, the same
 * compact dump) and je is as jansson fills it on success (position above all, which the loader
 * uses); whenever jansson refuses a text or might read it otherwise, it gives up (NULL), and
 * dsi_json_loadb_fast then gives jansson's own error (text, line, column, position). Checked on
 * every JSON file of examples/ and tests/ under each flag the library uses, on the cases it must
 * leave to jansson, on edge cases, on Node items with status.images cut, and on mutated texts.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "core/jsonfast.h"
#include "core/jsonscan.h"
#include "../support/jsonsame.h"

#define DUMP_FLAGS (JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17))

static const size_t flag_sets[] = {
	0,
	JSON_REJECT_DUPLICATES,
	JSON_DISABLE_EOF_CHECK,
	JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK,
	JSON_DECODE_ANY,
	JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK,
};
#define N_FLAG_SETS (sizeof(flag_sets) / sizeof(flag_sets[0]))

/* text under flags through our reader and through jansson: our tree is jansson's, with jansson's je;
 * and dsi_json_loadb_fast gives jansson's outcome either way. Returns 1 when we read it, 0 when we
 * gave up. */
static int alike(const char *what, const char *text, size_t n, size_t flags)
{
	json_error_t jf, jj, jd;
	memset(&jf, 0x5a, sizeof(jf));
	memset(&jj, 0x5a, sizeof(jj));
	json_t *a = dsi_json_fast_loadb(text, n, flags, &jf);
	json_t *b = json_loadb(text, n, flags, &jj);
	if (a) {
		ck_assert_msg(b != NULL, "%s (flags %zx): we read a tree, jansson says %s", what, flags, jj.text);
		ck_assert_msg(dsi_test_json_same(a, b), "%s (flags %zx): the trees differ", what, flags);
		char *da = json_dumps(a, DUMP_FLAGS), *db = json_dumps(b, DUMP_FLAGS);
		ck_assert_ptr_nonnull(da);
		ck_assert_ptr_nonnull(db);
		ck_assert_msg(strcmp(da, db) == 0, "%s (flags %zx): dumps differ", what, flags);
		free(da);
		free(db);
		ck_assert_msg(jf.position == jj.position, "%s (flags %zx): position %d, jansson's %d", what, flags,
			      jf.position, jj.position);
		ck_assert_int_eq(jf.line, jj.line);
		ck_assert_int_eq(jf.column, jj.column);
		ck_assert_str_eq(jf.text, jj.text);
		ck_assert_str_eq(jf.source, jj.source);
	} else {
		/* je untouched: the caller's json_loadb fills it */
		json_error_t untouched;
		memset(&untouched, 0x5a, sizeof(untouched));
		ck_assert_msg(memcmp(&jf, &untouched, sizeof(jf)) == 0, "%s: je written on giving up", what);
	}
	json_t *d = dsi_json_loadb_fast(text, n, flags, &jd);
	ck_assert_msg(!d == !b, "%s (flags %zx): dsi_json_loadb_fast and json_loadb disagree", what, flags);
	if (d) {
		ck_assert(dsi_test_json_same(d, b));
		ck_assert_int_eq(jd.position, jj.position);
	} else {
		ck_assert_str_eq(jd.text, jj.text);
		ck_assert_int_eq(jd.line, jj.line);
		ck_assert_int_eq(jd.column, jj.column);
		ck_assert_int_eq(jd.position, jj.position);
		ck_assert_int_eq(json_error_code(&jd), json_error_code(&jj));
	}
	json_decref(a);
	json_decref(b);
	json_decref(d);
	return a != NULL;
}

/* ---- the corpus: every JSON file of examples/ and tests/ ---- */

typedef struct corpus {
	size_t files, texts, jansson, ours, bytes, our_bytes; /* texts: files times flag sets */
} corpus;

static void corpus_file(const char *path, void *ctx)
{
	corpus *c = ctx;
	size_t n;
	char *text = dsi_test_read_file(path, &n);
	c->files++;
	for (size_t k = 0; k < N_FLAG_SETS; k++) {
		json_error_t jj;
		json_t *b = json_loadb(text, n, flag_sets[k], &jj);
		int ours = alike(path, text, n, flag_sets[k]);
		c->texts++;
		if (b) {
			c->jansson++;
			c->bytes += n;
		}
		if (ours) {
			c->ours++;
			c->our_bytes += n;
		} else if (b) {
			printf("jsonfast: gave up on %s (flags %zx), which jansson reads\n", path, flag_sets[k]);
		}
		json_decref(b);
	}
	free(text);
}

START_TEST(corpus_alike)
{
	corpus c = {0};
	static const char *const json_files[] = {".json", NULL};
	dsi_test_each_file("examples", json_files, corpus_file, &c);
	dsi_test_each_file("tests", json_files, corpus_file, &c);
	printf("jsonfast: corpus of %zu JSON files x %zu flag sets: jansson reads %zu texts (%zu bytes), we read %zu "
	       "(%zu bytes) and leave %zu to jansson\n",
	       c.files, N_FLAG_SETS, c.jansson, c.bytes, c.ours, c.our_bytes, c.texts - c.ours);
	ck_assert_uint_ge(c.files, 50);
	/* the realistic inputs: Kubernetes objects and vector files, which jansson reads. We leave only
	 * what jansson refuses, or reads otherwise, to it. */
	ck_assert_uint_le(c.ours, c.jansson);
	ck_assert_uint_ge(c.our_bytes * 100, c.bytes * 99);
}
END_TEST

/* ---- what we must leave to jansson ---- */

static const char *const give_ups[] = {
	"{\"a\":1,\"a\":2}",            /* a repeated key (a give-up under JSON_REJECT_DUPLICATES only) */
	"{\"a\":{\"b\":1,\"b\":[]}}",   /* deeper */
	"{\"a\":\"x\\u0000y\"}",        /* NUL */
	"{\"a\\u0000\":1}",             /* NUL in a key */
	"{\"a\":9223372036854775808}",  /* beyond int64 */
	"{\"a\":-9223372036854775809}", /* below */
	"{\"a\":99999999999999999999}", /* far beyond */
	"{\"a\":1e400}",                /* a real beyond double */
	"{\"a\":-1e400}",               /* and below */
	"{\"a\":\"\\ud800\"}",          /* a lone high surrogate */
	"{\"a\":\"\\ud800x\"}",         /* followed by no escape */
	"{\"a\":\"\\ud800\\u0041\"}",   /* followed by no low one */
	"{\"\\uDC00\":1}",              /* a lone low one, in a key */
	"{\"a\":\"tab\there\"}",        /* a raw control character */
	"{\"a\":\"new\nline\"}",        /* a raw newline */
	"{\"a\":\"\xff\"}",             /* invalid UTF-8 */
	"{\"a\":\"\xc3\"}",             /* truncated UTF-8 */
	"{\"a\":\"\xc0\xaf\"}",         /* overlong */
	"{\"a\":\"\xed\xa0\x80\"}",     /* an encoded surrogate */
	"{\"a\":\"\xf4\x90\x80\x80\"}", /* beyond U+10FFFF */
	"{\"a\":\"\\x\"}",              /* an unknown escape */
	"{\"a\":\"\\u12g4\"}",          /* bad hex */
	"{\"a\":\"unterminated}",       /* no closing quote */
	"{\"a\":1} x",                  /* something after the value */
	"{\"a\":01}",                   /* not JSON */
	"{\"a\":1.}",                   /* not JSON */
	"{\"a\":.5}",                   /* not JSON */
	"{\"a\":1e}",                   /* not JSON */
	"{\"a\":1e+}",                  /* not JSON */
	"{\"a\":+1}",                   /* not JSON */
	"{\"a\":-}",                    /* not JSON */
	"{\"a\":1,}",                   /* not JSON */
	"{\"a\" 1}",                    /* not JSON */
	"{\"a\":[1,2}",                 /* not JSON */
	"{\"a\":[1,]}",                 /* not JSON */
	"{\"a\":tru}",                  /* not JSON */
	"{\"a\":truex}",                /* not JSON */
	"{\"a\":NaN}",                  /* not JSON */
	"{a:1}",                        /* not JSON */
	"{\"a\":1",                     /* premature end */
	"",                             /* nothing */
	"   ",                          /* nothing but space */
	"\xef\xbb\xbf{}",               /* a BOM */
	"1",                            /* not an object or array without JSON_DECODE_ANY */
	"\"s\"",                        /* nor a string */
	"{\"a\":1}\x01",                /* a control character after the value */
};

START_TEST(give_up_cases)
{
	for (size_t i = 0; i < sizeof(give_ups) / sizeof(give_ups[0]); i++) {
		size_t n = strlen(give_ups[i]);
		json_error_t je;
		for (size_t k = 0; k < N_FLAG_SETS; k++) {
			size_t flags = flag_sets[k];
			json_t *v = dsi_json_fast_loadb(give_ups[i], n, flags, &je);
			/* top-level scalars under JSON_DECODE_ANY, and "{\"a\":1} x" without the EOF check,
			 * are jansson's trees too: then ours must be jansson's (alike) */
			int scalar = give_ups[i][0] == '1' || give_ups[i][0] == '"';
			int trailing = strstr(give_ups[i], "} x") || strstr(give_ups[i], "}\x01");
			/* a repeated key without JSON_REJECT_DUPLICATES: jansson's tree, the later value in
			 * the earlier key's place, which ours is by construction */
			int repeat = i < 2 && !(flags & JSON_REJECT_DUPLICATES);
			if (!((scalar && (flags & JSON_DECODE_ANY)) || (trailing && (flags & JSON_DISABLE_EOF_CHECK)) ||
			      repeat))
				ck_assert_msg(v == NULL, "%s (flags %zx): read, not left to jansson", give_ups[i],
					      flags);
			json_decref(v);
			int ours = alike(give_ups[i], give_ups[i], n, flags);
			if (repeat)
				ck_assert_msg(ours, "%s (flags %zx): left to jansson", give_ups[i], flags);
		}
	}
	/* a key repeated, without JSON_REJECT_DUPLICATES: its first place, its last value */
	const char *rep = "{\"z\":1,\"a\":{\"q\":[1]},\"z\":{\"y\":2,\"y\":\"3\"}}";
	ck_assert_int_eq(alike(rep, rep, strlen(rep), JSON_DISABLE_EOF_CHECK), 1);
	json_t *v = dsi_json_fast_loadb(rep, strlen(rep), 0, NULL);
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(json_object_iter_key(json_object_iter(v)), "z");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(v, "z"), "y")), "3");
	ck_assert_uint_eq(json_object_size(v), 2);
	json_decref(v);
	ck_assert_ptr_null(dsi_json_fast_loadb(rep, strlen(rep), JSON_REJECT_DUPLICATES, NULL));
	/* an embedded NUL byte, as text and after the value */
	alike("NUL in a string", "{\"a\":\"x\0y\"}", 11, 0);
	ck_assert_ptr_null(dsi_json_fast_loadb("{\"a\":\"x\0y\"}", 11, 0, NULL));
	alike("NUL after", "{}\0", 3, 0);
	ck_assert_ptr_null(dsi_json_fast_loadb("{}\0", 3, 0, NULL));
	/* flags we do not know */
	ck_assert_ptr_null(dsi_json_fast_loadb("{}", 2, JSON_DECODE_INT_AS_REAL, NULL));
	ck_assert_ptr_null(dsi_json_fast_loadb("{}", 2, JSON_ALLOW_NUL, NULL));
	ck_assert_ptr_null(dsi_json_fast_loadb(NULL, 0, 0, NULL));
	alike("int as real", "{\"a\":1}", 7, JSON_DECODE_INT_AS_REAL);
	alike("allow NUL", "{\"a\":\"\\u0000\"}", 14, JSON_ALLOW_NUL);
}
END_TEST

/* ---- edge cases we read ---- */

static const char *const edges[] = {
	"{}",
	"[]",
	"[{}]",
	"{\"\":\"\"}",
	" \t\r\n{ \"a\" : [ 1 , { } , [ ] ] }",
	"{\"z\":0,\"a\":1,\"m\":2,\"b\":3}", /* the text's order, not sorted */
	"{\"a\":-0,\"b\":0,\"c\":-0.0,\"d\":0.0,\"e\":0e0,\"f\":-0E-0}",
	"{\"a\":1E2,\"b\":1e2,\"c\":1e+2,\"d\":1e-2,\"e\":1.5E+300,\"f\":2.2250738585072014e-308}",
	"{\"min\":-9223372036854775808,\"max\":9223372036854775807,\"z\":-1,\"y\":1234567890123456789}",
	"{\"a\":0.40872000752518720007525113333,\"b\":1.00000000000000011102230246251565404236316680908203125}",
	"{\"u\":1e-400,\"s\":4e-320,\"n\":-5e-324}", /* underflow: jansson keeps strtod's value */
	"{\"a\\\"b\":1,\"\\u00e9\":\"\\u00e9\\n\\t\\\\\\/\\u003c\\b\\f\\r\",\"\":\"empty\"}",
	"{\"pair\":\"\\ud83d\\ude00\",\"PAIR\":\"\\uD83D\\uDE00x\",\"key\\uD83D\\uDE00\":1}",
	"{\"utf8\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbf\xf4\x8f\xbf\xbf\"}",
	"{\"long\":\"0123456789abcdef0123456789abcdef0123456789abcdef\\\"0123456789abcdef0123456789\xc3\xa9\"}",
	"{\"esc\\n\":\"\\\\\",\"esc2\\\\\":\"\\\\\\\\\"}",
	"{\"t\":true,\"f\":false,\"n\":null,\"a\":[true,false,null]}",
	"{\"del\":\"\x7f\"}",
	"{\"a\":1}   ",     /* space after: position before it with JSON_DISABLE_EOF_CHECK, the end without */
	"{\"a\":1} \n\t\r", /* the same */
	"[1,2.5,\"x\",[{}],-3e-2]",
};

START_TEST(edge_cases)
{
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		for (size_t k = 0; k < N_FLAG_SETS; k++)
			ck_assert_msg(alike(edges[i], edges[i], strlen(edges[i]), flag_sets[k]),
				      "%s (flags %zx): left to jansson", edges[i], flag_sets[k]);
	/* the position after the value, with and without the EOF check */
	json_error_t je;
	json_t *v = dsi_json_fast_loadb("{\"a\":1}   ", 10, JSON_DISABLE_EOF_CHECK, &je);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(je.position, 7);
	json_decref(v);
	v = dsi_json_fast_loadb("{\"a\":1}   ", 10, 0, &je);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(je.position, 10);
	json_decref(v);
	/* values: -0 is the integer 0, 1E2 the real 100, big ints exact */
	v = dsi_json_fast_loadb(edges[6], strlen(edges[6]), 0, &je);
	ck_assert(json_is_integer(json_object_get(v, "a")) && json_integer_value(json_object_get(v, "a")) == 0);
	ck_assert(json_is_real(json_object_get(v, "c")) && signbit(json_real_value(json_object_get(v, "c"))));
	json_decref(v);
	v = dsi_json_fast_loadb(edges[8], strlen(edges[8]), 0, &je);
	ck_assert(json_integer_value(json_object_get(v, "min")) == INT64_MIN);
	ck_assert(json_integer_value(json_object_get(v, "max")) == INT64_MAX);
	json_decref(v);
	/* with JSON_DECODE_ANY: scalars at the root, and what follows them without the EOF check */
	static const char *const scalars[] = {"1",         "-0",    "2.5",    "\"s\"",   "true", "false", "null",
					      " 7 ",       "1 2",   "true 1", "\"a\"b",  "12,",  "1x",    "truex",
					      "1\xc3\xa9", "1\xff", "nul",    "[1] [2]", "{}{}", "-"};
	for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); i++)
		for (size_t k = 0; k < N_FLAG_SETS; k++)
			alike(scalars[i], scalars[i], strlen(scalars[i]), flag_sets[k]);
	/* long strings with escapes, which grow the reader's buffer: plain runs, escapes, UTF-8 */
	char *t = malloc(70000);
	ck_assert_ptr_nonnull(t);
	size_t n = (size_t)sprintf(t, "{\"k\":[\"");
	for (int i = 0; i < 3000; i++)
		n += (size_t)sprintf(t + n, "%s",
				     i % 3 == 0   ? "plain text\\n"
				     : i % 3 == 1 ? "\\u00e9\xc3\xa9\\\""
						  : "x");
	n += (size_t)sprintf(t + n, "\",\"\\ud83d\\ude00");
	for (int i = 0; i < 2000; i++)
		t[n++] = 'y';
	n += (size_t)sprintf(t + n, "\\t\"]}");
	ck_assert_int_eq(alike("long escaped strings", t, n, JSON_REJECT_DUPLICATES), 1);
	free(t);
	ck_assert_int_eq(alike("1", "1", 1, JSON_DECODE_ANY), 1);
	ck_assert_int_eq(alike("\"s\"", "\"s\"", 3, JSON_DECODE_ANY), 1);
}
END_TEST

/* nesting near the limits: ours (DSI_JSON_FAST_MAX_DEPTH) and jansson's (2048) */
static char *nested(size_t depth, size_t *n)
{
	char *t = malloc(2 * depth + 16);
	ck_assert_ptr_nonnull(t);
	size_t k = 0;
	for (size_t i = 0; i < depth - 1; i++)
		t[k++] = '[';
	t[k++] = '1';
	for (size_t i = 0; i < depth - 1; i++)
		t[k++] = ']';
	*n = k;
	return t;
}

START_TEST(deep_nesting)
{
	size_t n;
	const size_t depths[] = {
		DSI_JSON_FAST_MAX_DEPTH - 1, DSI_JSON_FAST_MAX_DEPTH, DSI_JSON_FAST_MAX_DEPTH + 1, 2048, 2049, 3000};
	for (size_t i = 0; i < sizeof(depths) / sizeof(depths[0]); i++) {
		char *t = nested(depths[i], &n);
		int ours = alike("nested", t, n, 0);
		ck_assert_int_eq(ours, depths[i] <= DSI_JSON_FAST_MAX_DEPTH);
		free(t);
	}
	/* objects too */
	char *t = malloc(8 * 1100 + 16);
	ck_assert_ptr_nonnull(t);
	n = 0;
	for (int i = 0; i < 1000; i++)
		n += (size_t)sprintf(t + n, "{\"k\":");
	n += (size_t)sprintf(t + n, "1");
	for (int i = 0; i < 1000; i++)
		t[n++] = '}';
	ck_assert_int_eq(alike("nested objects", t, n, JSON_REJECT_DUPLICATES), 1);
	free(t);
}
END_TEST

/* ---- a Node's status.images read as [] ---- */

/* the tree jansson gives text[0, from) "[]" text[to, n), with its position */
static json_t *cut_by_jansson(const char *text, size_t n, size_t from, size_t to, json_error_t *je)
{
	char *c = malloc(n + 2);
	ck_assert_ptr_nonnull(c);
	memcpy(c, text, from);
	memcpy(c + from, "[]", 2);
	memcpy(c + from + 2, text + to, n - to);
	json_t *v = json_loadb(c, n - (to - from) + 2, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK, je);
	free(c);
	return v;
}

static const char *const nodes[] = {
	("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"a\":\"b\"}},"
	 "\"status\":{\"allocatable\":{\"cpu\":\"4\"},\"images\":[{\"names\":[\"x\"],\"sizeBytes\":123}],"
	 "\"phase\":\"Ready\"}}"),
	("{\"kind\":\"Node\",\"status\":{\"images\" : [ {\"names\":[\"a\",\"b\"]} , {\"sizeBytes\":0} ] },"
	 "\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]}}"),
	"{\"status\":{\"images\":[]},\"metadata\":{\"name\":\"\\u00e9\"}}",
	/* an error after the images: nothing of ours, jansson's error on the whole text */
	"{\"kind\":\"Node\",\"status\":{\"images\":[{\"sizeBytes\":1}]},\"x\":01}",
	/* a repeated key after them */
	"{\"kind\":\"Node\",\"status\":{\"images\":[{\"sizeBytes\":1}]},\"kind\":\"Node\"}",
};

START_TEST(node_images_cut)
{
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		const char *text = nodes[i];
		size_t n = strlen(text), from, to;
		ck_assert_msg(dsi_jsonscan_node_images(text, n, "Node", &from, &to), "%s: no images found", text);
		json_error_t jf, jj;
		json_t *a = dsi_json_fast_loadb_cut(text, n, from, to, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK,
						    &jf);
		json_t *b = cut_by_jansson(text, n, from, to, &jj);
		if (i < 3) {
			ck_assert_msg(a != NULL, "%s: left to jansson", text);
			ck_assert(b != NULL && dsi_test_json_same(a, b));
			ck_assert_int_eq(jf.position, (int)n);
			ck_assert_int_eq(jj.position, (int)(n - (to - from) + 2));
			ck_assert_int_eq(json_array_size(json_object_get(json_object_get(a, "status"), "images")), 0);
		} else {
			ck_assert_ptr_null(a);
		}
		json_decref(a);
		json_decref(b);
	}
	/* a cut where no value begins: given up (the caller's jansson decides) */
	const char *t = "{\"status\":{\"images\":[1]}}";
	ck_assert_ptr_null(dsi_json_fast_loadb_cut(t, strlen(t), 3, 8, JSON_DISABLE_EOF_CHECK, NULL));
	ck_assert_ptr_null(dsi_json_fast_loadb_cut(t, strlen(t), 8, 3, JSON_DISABLE_EOF_CHECK, NULL));
}
END_TEST

/* ---- mutated texts: whatever we read is jansson's ---- */

START_TEST(mutations_alike)
{
	static const char alphabet[] = "{}[]:,\"\\ 0123456789.eE+-tfnul\x01\x7f\xc3\xa9\xff\n";
	uint64_t rng = 0x9e3779b97f4a7c15u;
	for (size_t s = 0; s < sizeof(edges) / sizeof(edges[0]); s++) {
		size_t n = strlen(edges[s]);
		char *t = malloc(n + 8);
		ck_assert_ptr_nonnull(t);
		for (int round = 0; round < 300; round++) {
			memcpy(t, edges[s], n);
			size_t m = n;
			for (int k = 1 + (int)(dsi_test_rand(&rng) % 3); k > 0; k--) {
				size_t at = (size_t)(dsi_test_rand(&rng) % m);
				switch (dsi_test_rand(&rng) % 3) {
				case 0: t[at] = alphabet[dsi_test_rand(&rng) % (sizeof(alphabet) - 1)]; break;
				case 1: memmove(t + at, t + at + 1, m - at - 1), m--; break;
				default:
					memmove(t + at + 1, t + at, m - at);
					t[at] = alphabet[dsi_test_rand(&rng) % (sizeof(alphabet) - 1)];
					m++;
				}
				if (m == 0 || m >= n + 7)
					break;
			}
			alike("mutated", t, m, flag_sets[dsi_test_rand(&rng) % N_FLAG_SETS]);
		}
		free(t);
	}
}
END_TEST

static Suite *jsonfast_suite(void)
{
	Suite *s = suite_create("jsonfast");
	TCase *tc = tcase_create("alike");
	tcase_add_test(tc, corpus_alike);
	tcase_add_test(tc, give_up_cases);
	tcase_add_test(tc, edge_cases);
	tcase_add_test(tc, deep_nesting);
	tcase_add_test(tc, node_images_cut);
	tcase_add_test(tc, mutations_alike);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(jsonfast_suite)
