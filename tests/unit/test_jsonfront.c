/*
 * The JSON front end of a List's items (lib/core/jsonfront.h): on every text, the same outcome as
 * json_loadb(text, n, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK): the same tree (types
 * exact, reals bit for bit) or the same error (text, line, column, position). In a SIMDJSON=1
 * build, also which texts simdjson reads itself and which it leaves to jansson: each of the
 * cases jansson reads differently (a repeated key, "\u0000", an integer beyond int64, a real out
 * of range or subnormal, surrogate escapes, raw control characters, invalid UTF-8, deep nesting,
 * something after the value) must go to jansson, and plain items must not.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "core/jsonfront.h"

#ifdef DSI_SIMDJSON
json_t *dsi_json_front_simd_item(dsi_json_front *f, const char *text, size_t n);
#endif

/* a and b are the same tree: json_equal, and reals with the same bits (json_equal says -0.0 == 0.0) */
static int same(const json_t *a, const json_t *b)
{
	if (json_typeof(a) != json_typeof(b) || !json_equal(a, b))
		return 0;
	size_t i;
	const char *k;
	json_t *v;
	switch (json_typeof(a)) {
	case JSON_REAL: return signbit(json_real_value(a)) == signbit(json_real_value(b));
	case JSON_ARRAY: json_array_foreach(a, i, v) if (!same(v, json_array_get(b, i))) return 0; return 1;
	case JSON_OBJECT: {
		/* and in the same order, which the readers and encoders keep */
		void *ia = json_object_iter((json_t *)a), *ib = json_object_iter((json_t *)b);
		for (; ia && ib;
		     ia = json_object_iter_next((json_t *)a, ia), ib = json_object_iter_next((json_t *)b, ib))
			if (strcmp(json_object_iter_key(ia), json_object_iter_key(ib)) != 0)
				return 0;
		(void)k;
		json_object_foreach((json_t *)a, k, v) if (!same(v, json_object_get(b, k))) return 0;
		return !ia && !ib;
	}
	default: return 1;
	}
}

/* text through the front end and through jansson: the same outcome. Returns whether simdjson read
 * it itself (always 0 in the default build). */
static int alike(dsi_json_front *f, const char *text, size_t n)
{
	json_error_t jf, jj;
	memset(&jf, 0, sizeof(jf));
	memset(&jj, 0, sizeof(jj));
	json_t *a = dsi_json_front_item(f, text, n, &jf);
	json_t *b = json_loadb(text, n, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK, &jj);
	ck_assert_msg(!a == !b, "%.60s: %s against %s", text, a ? "a tree" : jf.text, b ? "a tree" : jj.text);
	if (a) {
		ck_assert_msg(same(a, b), "%.60s: the trees differ", text);
		ck_assert_int_eq(jf.position, jj.position);
	} else {
		ck_assert_str_eq(jf.text, jj.text);
		ck_assert_int_eq(jf.line, jj.line);
		ck_assert_int_eq(jf.column, jj.column);
		ck_assert_int_eq(jf.position, jj.position);
	}
	json_decref(a);
	json_decref(b);
	int simd = 0;
#ifdef DSI_SIMDJSON
	json_t *s = f ? dsi_json_front_simd_item(f, text, n) : NULL;
	simd = s != NULL;
	json_decref(s);
#endif
	return simd;
}

static const char *const plain[] = {
	"{}",
	("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"a\":\"b\"}},"
	 "\"status\":{\"allocatable\":{\"cpu\":\"4\"},\"images\":[{\"names\":[\"x\"],\"sizeBytes\":123}]}}"),
	"{\"a\":true,\"b\":false,\"c\":null,\"d\":[],\"e\":{},\"f\":[1,2.5,\"x\",[{}]]}",
	"{ \"a\" : 1 ,\n\t\"b\" :\r\n[ -1 , 0 ] }",
	"{\"min\":-9223372036854775808,\"max\":9223372036854775807}",
	"{\"r\":1.0,\"e\":1E2,\"f\":0.1,\"g\":-2.5e-3,\"h\":123456789012345678.5,\"z\":-0.0,\"u\":1e-400}",
	/* digits beyond what a double holds: simdjson 3.0.1 alone reads 8.96e-11 (fuzz_jsonfront) */
	"{\"a\":0.40872000752518720007525113333,\"b\":1.00000000000000011102230246251565404236316680908203125}",
	"{\"a\\\"b\":1,\"\\u00e9\":\"\\u00e9\\n\\t\\\\\\/\\u003c\",\"\":\"empty\"}",
	"{\"utf8\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}",
};

static const char *const jansson_only[] = {
	"{\"a\":1,\"a\":2}",            /* a repeated key */
	"{\"a\":{\"b\":1,\"b\":1}}",    /* deeper */
	"{\"a\":\"x\\u0000y\"}",        /* NUL */
	"{\"a\\u0000\":1}",             /* NUL in a key */
	"{\"a\":9223372036854775808}",  /* beyond int64 */
	"{\"a\":-9223372036854775809}", /* below */
	"{\"a\":1e400}",                /* a real out of range */
	"{\"a\":4e-320}",               /* subnormal: strtod says ERANGE */
	"{\"a\":\"\\ud83d\\ude00\"}",   /* a surrogate pair */
	"{\"a\":\"\\ud800\"}",          /* a lone surrogate */
	"{\"\\uDC00\":1}",              /* in a key */
	"{\"a\":\"tab\there\"}",        /* a raw control character */
	"{\"a\":\"\xff\"}",             /* invalid UTF-8 */
	"{\"a\":\"\xc3\"}",             /* truncated UTF-8 */
	"{\"a\":1} x",                  /* something after the value */
	"{\"a\":1}\n",                  /* space after it: jansson's position is before it */
	"{\"a\":01}",                   /* not JSON */
	"{\"a\":1,}",                   /* not JSON */
	"{\"a\" 1}",                    /* not JSON */
	"{\"a\":[1,2}",                 /* not JSON */
	"{\"a\":tru}",                  /* not JSON */
	"{\"a\":-}",                    /* not JSON */
	"[1]",                          /* not an object: the scanner hands none */
};

START_TEST(plain_items_alike)
{
	dsi_json_front *f = dsi_json_front_new();
	ck_assert_int_eq(f != NULL, dsi_json_front_simd());
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		ck_assert_msg(alike(f, plain[i], strlen(plain[i])) == dsi_json_front_simd(), "%s: not read by simdjson",
			      plain[i]);
	/* a large item, then small ones again in the grown buffer */
	size_t n = 200000, len = 0;
	char *big = malloc(n + 64);
	ck_assert_ptr_nonnull(big);
	len += (size_t)sprintf(big, "{\"items\":[");
	for (int i = 0; len < n - 100; i++)
		len += (size_t)sprintf(big + len, "%s{\"k%d\":\"v%d\",\"n\":%d}", i ? "," : "", i, i, i * 7);
	len += (size_t)sprintf(big + len, "]}");
	ck_assert_int_eq(alike(f, big, len), dsi_json_front_simd());
	free(big);
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		ck_assert_int_eq(alike(f, plain[i], strlen(plain[i])), dsi_json_front_simd());
	dsi_json_front_free(f);
	/* without a front end, jansson reads everything */
	ck_assert_int_eq(alike(NULL, plain[1], strlen(plain[1])), 0);
}
END_TEST

START_TEST(doubtful_items_are_janssons)
{
	dsi_json_front *f = dsi_json_front_new();
	/* no bytes at all, first on a front end that has no buffer yet (fuzz_jsonfront found a memcpy
	 * to NULL there: tests/vectors/regress/fuzz_jsonfront/empty) */
	ck_assert(!alike(f, "", 0));
	for (size_t i = 0; i < sizeof(jansson_only) / sizeof(jansson_only[0]); i++)
		ck_assert_msg(!alike(f, jansson_only[i], strlen(jansson_only[i])), "%s: read by simdjson",
			      jansson_only[i]);
	/* nesting: 1,500 levels are jansson's (simdjson stops at 1024), 100 simdjson's */
	for (int depth = 100; depth <= 1500; depth += 1400) {
		size_t n = 16 + 2 * (size_t)depth;
		char *t = malloc(n);
		ck_assert_ptr_nonnull(t);
		size_t len = (size_t)sprintf(t, "{\"a\":");
		for (int d = 0; d < depth; d++)
			t[len++] = '[';
		for (int d = 0; d < depth; d++)
			t[len++] = ']';
		t[len++] = '}';
		ck_assert_int_eq(alike(f, t, len), depth < 1000 && dsi_json_front_simd());
		free(t);
	}
	dsi_json_front_free(f);
}
END_TEST

static Suite *jsonfront_suite(void)
{
	Suite *s = suite_create("jsonfront");
	TCase *tc = tcase_create("alike");
	tcase_add_test(tc, plain_items_alike);
	tcase_add_test(tc, doubtful_items_are_janssons);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(jsonfront_suite)
