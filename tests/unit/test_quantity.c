/* resource.Quantity: upstream's tables (tests/vectors/values/quantity_*.json) and our limits. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model/quantity.h"

static const char *str(json_t *row, const char *key)
{
	json_t *v = json_object_get(row, key);
	ck_assert_msg(json_is_string(v), "row member %s is not a string", key);
	return json_string_value(v);
}

static int format_of(const char *name)
{
	if (strcmp(name, "DecimalSI") == 0)
		return DSI_QFMT_DECIMAL_SI;
	if (strcmp(name, "BinarySI") == 0)
		return DSI_QFMT_BINARY_SI;
	ck_assert_str_eq(name, "DecimalExponent");
	return DSI_QFMT_DECIMAL_EXPONENT;
}

static dsi_quantity parse_ok(const char *s)
{
	dsi_quantity q;
	ds_error err;
	ds_error_clear(&err);
	int rc = dsi_quantity_parse(s, strlen(s), &q, &err);
	ck_assert_msg(rc == 0, "parse '%s': %d %s", s, rc, err.message);
	return q;
}

static void expect_string(const dsi_quantity *q, const char *want, const char *ctx)
{
	char buf[DSI_QUANTITY_STRING_MAX];
	int n = dsi_quantity_format(q, buf, sizeof(buf));
	ck_assert_msg(strcmp(buf, want) == 0, "%s: String() = '%s', want '%s'", ctx, buf, want);
	ck_assert_int_eq(n, (int)strlen(want));
}

static void expect_equal(const dsi_quantity *got, const char *value, const char *ctx)
{
	dsi_quantity want = parse_ok(value);
	char g[DSI_QUANTITY_STRING_MAX];
	dsi_quantity_format(got, g, sizeof(g));
	ck_assert_msg(dsi_quantity_cmp(got, &want) == 0, "%s: got %s, want value %s", ctx, g, value);
}

START_TEST(parse_table)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/quantity_parse.json");
	json_t *r = dsi_test_rows(doc, "parse"), *row;
	size_t i;
	json_array_foreach(r, i, row)
	{
		const char *in = str(row, "in"), *value = str(row, "value");
		int format = format_of(str(row, "format"));
		char buf[128];
		/* as written, with a leading '+', and negated with a leading '-' */
		for (int variant = 0; variant < 3; variant++) {
			snprintf(buf, sizeof(buf), "%s%s", variant == 1 ? "+" : variant == 2 ? "-" : "", in);
			dsi_quantity q = parse_ok(buf);
			char want[128];
			snprintf(want, sizeof(want), "%s%s", variant == 2 ? "-" : "", value);
			expect_equal(&q, want, buf);
			ck_assert_msg(q.format == format, "%s: format %d, want %d", buf, q.format, format);
		}
	}
	json_decref(doc);
}
END_TEST

START_TEST(parse_errors)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/quantity_parse.json");
	json_t *r = dsi_test_rows(doc, "parse_invalid"), *row;
	size_t i;
	json_array_foreach(r, i, row)
	{
		const char *in = str(row, "in");
		dsi_quantity q;
		ds_error err;
		ds_error_clear(&err);
		q.sign = 5;
		int rc = dsi_quantity_parse(in, strlen(in), &q, &err);
		ck_assert_msg(rc == DS_EVALUE, "'%s' parsed (rc %d)", in, rc);
		ck_assert_int_eq(err.code, DS_EVALUE);
		ck_assert_str_eq(err.message, str(row, "message"));
		ck_assert_int_eq(q.sign, 0); /* zeroed, never half-filled */
	}
	r = dsi_test_rows(doc, "parse_limits");
	json_array_foreach(r, i, row)
	{
		const char *in = str(row, "in");
		dsi_quantity q;
		ds_error err;
		ds_error_clear(&err);
		ck_assert_int_eq(dsi_quantity_parse(in, strlen(in), &q, &err), DS_ELIMIT);
		ck_assert_msg(strstr(err.message, str(row, "message_contains")) != NULL, "%s: %s", in, err.message);
	}
	json_decref(doc);
}
END_TEST

START_TEST(canonical_strings)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/quantity_parse.json");
	json_t *row;
	size_t i;
	json_array_foreach(dsi_test_rows(doc, "canonical"), i, row)
	{
		dsi_quantity q = parse_ok(str(row, "in"));
		expect_string(&q, str(row, "string"), str(row, "in"));
	}
	json_array_foreach(dsi_test_rows(doc, "emit"), i, row)
	{
		char buf[64], want[64];
		dsi_quantity q = parse_ok(str(row, "in"));
		expect_string(&q, str(row, "string"), str(row, "in"));
		snprintf(buf, sizeof(buf), "-%s", str(row, "in"));
		snprintf(want, sizeof(want), "-%s", str(row, "string"));
		q = parse_ok(buf);
		expect_string(&q, want, buf);
	}
	json_decref(doc);
}
END_TEST

START_TEST(string_forms)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/quantity_parse.json");
	json_t *row;
	size_t i;
	json_array_foreach(dsi_test_rows(doc, "string"), i, row)
	{
		const char *expect = str(row, "expect"), *alt = str(row, "alternate");
		dsi_quantity q = parse_ok(str(row, "value"));
		q.format = (uint8_t)format_of(str(row, "format"));
		expect_string(&q, expect, str(row, "value"));
		/* the negated value prints with a '-' */
		if (q.sign) {
			char neg[64];
			dsi_quantity zero;
			memset(&zero, 0, sizeof(zero));
			zero.format = q.format;
			ck_assert_int_eq(dsi_quantity_sub(&zero, &q), 0);
			snprintf(neg, sizeof(neg), "-%s", expect);
			expect_string(&zero, neg, "negated");
		}
		dsi_quantity p = parse_ok(expect);
		ck_assert_msg(p.verbatim, "%s: canonical text should be kept verbatim", expect);
		expect_string(&p, expect, expect);
		if (*alt) {
			p = parse_ok(alt);
			ck_assert_msg(!p.verbatim, "%s: alternate text must not be kept", alt);
			expect_string(&p, expect, alt);
		}
	}
	json_decref(doc);
}
END_TEST

START_TEST(json_values)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/quantity_parse.json");
	json_t *row;
	size_t i;
	json_array_foreach(dsi_test_rows(doc, "json"), i, row)
	{
		json_t *v = json_loads(str(row, "json"), JSON_DECODE_ANY, NULL);
		ck_assert_ptr_nonnull(v);
		dsi_quantity q;
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		ck_assert_int_eq(dsi_quantity_from_json(&rd, v, &q), 0);
		expect_string(&q, str(row, "string"), str(row, "json"));
		json_decref(v);
	}
	json_decref(doc);
}
END_TEST

START_TEST(compare_tables)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/quantity_arith.json");
	const char *sections[] = {"cmp", "cmp_int64_and_dec"};
	for (size_t s = 0; s < 2; s++) {
		json_t *row;
		size_t i;
		json_array_foreach(dsi_test_rows(doc, sections[s]), i, row)
		{
			dsi_quantity a = parse_ok(str(row, "a")), b = parse_ok(str(row, "b"));
			int want = (int)json_integer_value(json_object_get(row, "cmp"));
			ck_assert_msg(dsi_quantity_cmp(&a, &b) == want, "%s vs %s", str(row, "a"), str(row, "b"));
			ck_assert_msg(dsi_quantity_cmp(&b, &a) == -want, "%s vs %s inverted", str(row, "b"),
				      str(row, "a"));
		}
	}
	json_decref(doc);
}
END_TEST

START_TEST(add_sub_tables)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/quantity_arith.json");
	const char *sections[] = {"add", "sub"};
	for (size_t s = 0; s < 2; s++) {
		json_t *row;
		size_t i;
		json_array_foreach(dsi_test_rows(doc, sections[s]), i, row)
		{
			dsi_quantity a = parse_ok(str(row, "a")), b = parse_ok(str(row, "b"));
			a.format = (uint8_t)format_of(str(row, "af"));
			b.format = (uint8_t)format_of(str(row, "bf"));
			int rc = s == 0 ? dsi_quantity_add(&a, &b) : dsi_quantity_sub(&a, &b);
			ck_assert_int_eq(rc, 0);
			expect_equal(&a, str(row, s == 0 ? "sum" : "diff"), sections[s]);
			ck_assert_int_eq(a.format, format_of(str(row, "format")));
		}
	}
	json_t *row;
	size_t i;
	json_array_foreach(dsi_test_rows(doc, "zero_keeps_suffix"), i, row)
	{
		dsi_quantity a = parse_ok(str(row, "a")), b = parse_ok(str(row, "b"));
		int rc = strcmp(str(row, "op"), "add") == 0 ? dsi_quantity_add(&a, &b) : dsi_quantity_sub(&a, &b);
		ck_assert_int_eq(rc, 0);
		expect_string(&a, str(row, "string"), str(row, "a"));
	}
	json_array_foreach(dsi_test_rows(doc, "neg"), i, row)
	{
		dsi_quantity zero, q = parse_ok(str(row, "in"));
		memset(&zero, 0, sizeof(zero));
		ck_assert_int_eq(dsi_quantity_sub(&zero, &q), 0);
		expect_string(&zero, str(row, "string"), "neg");
	}
	json_array_foreach(dsi_test_rows(doc, "add_limits"), i, row)
	{
		dsi_quantity a = parse_ok(str(row, "a")), b = parse_ok(str(row, "b")), before = a;
		json_t *sum = json_object_get(row, "sum");
		if (json_is_null(sum)) {
			ck_assert_msg(dsi_quantity_add(&a, &b) == -1, "%s + %s should overflow", str(row, "a"),
				      str(row, "b"));
			ck_assert_int_eq(memcmp(&a, &before, sizeof(a)), 0); /* unchanged */
		} else {
			ck_assert_int_eq(dsi_quantity_add(&a, &b), 0);
			expect_string(&a, json_string_value(sum), "sum");
		}
	}
	json_decref(doc);
}
END_TEST

START_TEST(integer_views)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/quantity_arith.json");
	json_t *row;
	size_t i;
	json_array_foreach(dsi_test_rows(doc, "scaled_value"), i, row)
	{
		dsi_quantity q = parse_ok(str(row, "in"));
		int ovf = 1;
		int64_t v = dsi_quantity_scaled(&q, (int)json_integer_value(json_object_get(row, "scale")), &ovf);
		ck_assert_int_eq(v, json_integer_value(json_object_get(row, "value")));
		ck_assert_int_eq(ovf, 0);
	}
	const char *made[] = {"new_scaled", "new_milli", "new"};
	for (size_t s = 0; s < 3; s++)
		json_array_foreach(dsi_test_rows(doc, made[s]), i, row)
		{
			char text[64];
			int64_t value = json_integer_value(json_object_get(row, "value"));
			int scale = (int)json_integer_value(json_object_get(row, "scale"));
			snprintf(text, sizeof(text), "%llde%d", (long long)value, scale);
			dsi_quantity q = parse_ok(text);
			q.format = (uint8_t)format_of(str(row, "format"));
			expect_string(&q, str(row, "string"), text);
			json_t *exact = json_object_get(row, "exact");
			if (exact && !json_is_true(exact))
				continue;
			dsi_quantity back = parse_ok(str(row, "string"));
			ck_assert_int_eq(dsi_quantity_scaled(&back, scale, NULL), value);
		}
	json_array_foreach(dsi_test_rows(doc, "value"), i, row)
	{
		dsi_quantity q = parse_ok(str(row, "in"));
		int vo = -1, mo = -1;
		int64_t v = dsi_quantity_value(&q, &vo), m = dsi_quantity_milli(&q, &mo);
		int want_vo = json_is_true(json_object_get(row, "value_overflow"));
		int want_mo = json_is_true(json_object_get(row, "milli_overflow"));
		ck_assert_msg(vo == want_vo && mo == want_mo, "%s: overflow flags %d %d", str(row, "in"), vo, mo);
		if (!want_vo)
			ck_assert_int_eq(v, json_integer_value(json_object_get(row, "value")));
		else
			ck_assert_int_eq(v, q.sign > 0 ? INT64_MAX : INT64_MIN);
		if (!want_mo)
			ck_assert_int_eq(m, json_integer_value(json_object_get(row, "milli")));
		else
			ck_assert_int_eq(m, q.sign > 0 ? INT64_MAX : INT64_MIN);
	}
	json_decref(doc);
}
END_TEST

START_TEST(strings_and_verbatim)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/quantity_arith.json");
	json_t *row;
	size_t i;
	json_array_foreach(dsi_test_rows(doc, "strings_beyond_suffixes"), i, row)
	{
		dsi_quantity q = parse_ok(str(row, "in"));
		expect_string(&q, str(row, "string"), str(row, "in"));
		/* the printed form reads back as the same value */
		dsi_quantity back = parse_ok(str(row, "string"));
		ck_assert_int_eq(dsi_quantity_cmp(&q, &back), 0);
	}
	json_array_foreach(dsi_test_rows(doc, "verbatim"), i, row)
	{
		dsi_quantity q = parse_ok(str(row, "in"));
		ck_assert_msg(q.verbatim == json_is_true(json_object_get(row, "verbatim")), "%s: verbatim %d",
			      str(row, "in"), q.verbatim);
		expect_string(&q, str(row, "canonical"), str(row, "in"));
	}
	json_decref(doc);
}
END_TEST

START_TEST(format_buffer_is_bounded)
{
	dsi_quantity q = parse_ok("1.5Gi");
	char small[4];
	memset(small, 'x', sizeof(small));
	ck_assert_int_eq(dsi_quantity_format(&q, small, sizeof(small)), 6); /* "1536Mi" */
	ck_assert_str_eq(small, "153");
	/* the longest forms fit DSI_QUANTITY_STRING_MAX */
	const char *big[] = {"-99999999999999999999999999999999999999e2000000000",
			     "-9999999999999999999999999999999999999.9", "-99999999999999999999999999999999999999E"};
	for (size_t i = 0; i < 3; i++) {
		dsi_quantity b = parse_ok(big[i]);
		char buf[DSI_QUANTITY_STRING_MAX];
		int n = dsi_quantity_format(&b, buf, sizeof(buf));
		ck_assert_msg(n < DSI_QUANTITY_STRING_MAX, "%s: %d bytes", big[i], n);
		dsi_quantity back = parse_ok(buf);
		ck_assert_int_eq(dsi_quantity_cmp(&b, &back), 0);
	}
}
END_TEST

START_TEST(read_members)
{
	json_t *obj =
		json_loads("{\"s\": \" 100m\\u3000\", \"i\": 2, \"r\": 0.15, \"e\": 1e21, \"b\": true, \"n\": null, "
			   "\"bad\": \"1K\", \"a.b/c\": \"x\"}",
			   0, NULL);
	ck_assert_ptr_nonnull(obj);
	ds_error err;
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	dsi_rd_push(&rd, "resources");
	dsi_quantity q;
	int present = -1;
	ck_assert_int_eq(dsi_quantity_read(&rd, obj, "s", &q, &present), 0);
	ck_assert_int_eq(present, 1);
	expect_string(&q, "100m", "s");
	ck_assert_int_eq(dsi_quantity_read(&rd, obj, "i", &q, NULL), 0);
	expect_string(&q, "2", "i");
	ck_assert_int_eq(dsi_quantity_read(&rd, obj, "r", &q, NULL), 0);
	expect_string(&q, "150m", "r");
	ck_assert_int_eq(dsi_quantity_read(&rd, obj, "e", &q, NULL), 0);
	expect_string(&q, "1e21", "e"); /* the number's text is "1e+21": DecimalExponent */
	ck_assert_int_eq(dsi_quantity_read(&rd, obj, "n", &q, &present), 0);
	ck_assert_int_eq(present, 0);
	ck_assert_int_eq(dsi_quantity_read(&rd, obj, "missing", &q, &present), 0);
	ck_assert_int_eq(present, 0);
	ck_assert_int_eq(dsi_quantity_read(&rd, obj, "b", &q, NULL), DS_ETYPE);
	ck_assert_error(err, DS_ETYPE, "resources.b");
	ck_assert_int_eq(dsi_quantity_read(&rd, obj, "bad", &q, NULL), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "resources.bad");
	ck_assert_str_eq(err.message, "unable to parse quantity's suffix");
	ck_assert_int_eq(dsi_quantity_read(&rd, obj, "a.b/c", &q, NULL), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "resources[\"a.b/c\"]");
	ck_assert_str_eq(rd.path, "resources"); /* the reader's path is restored */
	json_decref(obj);
}
END_TEST

START_TEST(normalize_members)
{
	json_t *m = json_loads(
		"{\"cpu\": 1, \"memory\": \"1Gi\", \"x\": 0.15, \"y\": \"1000m\", \"z\": \" 2 \", \"w\": null, "
		"\"v\": \"1.G\", \"u\": 1.5, \"t\": 1000}",
		0, NULL);
	ck_assert_ptr_nonnull(m);
	ds_error err;
	ck_assert_int_eq(dsi_quantity_normalize_json(m, &err), 0);
	json_t *want = json_loads("{\"cpu\": \"1\", \"memory\": \"1Gi\", \"x\": \"150m\", \"y\": \"1\", \"z\": \"2\", "
				  "\"w\": \"0\", \"v\": \"1.G\", \"u\": \"1500m\", \"t\": \"1k\"}",
				  0, NULL);
	char *got = json_dumps(m, JSON_SORT_KEYS);
	ck_assert_msg(json_equal(m, want), "normalized to %s", got);
	free(got);
	json_decref(want);
	json_decref(m);

	/* all or nothing, with the member as path */
	m = json_loads("{\"a\": 1, \"nvidia.com/gpu\": \"2x\"}", 0, NULL);
	ck_assert_int_eq(dsi_quantity_normalize_json(m, &err), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "[\"nvidia.com/gpu\"]");
	ck_assert(json_is_integer(json_object_get(m, "a")));
	json_decref(m);
	m = json_loads("{\"a\": [1]}", 0, NULL);
	ck_assert_int_eq(dsi_quantity_normalize_json(m, &err), DS_ETYPE);
	ck_assert_error(err, DS_ETYPE, "a");
	json_decref(m);
	m = json_loads("[1]", 0, NULL);
	ck_assert_int_eq(dsi_quantity_normalize_json(m, &err), DS_ETYPE);
	json_decref(m);
	ck_assert_int_eq(dsi_quantity_normalize_json(NULL, &err), 0);
}
END_TEST

START_TEST(round_trips)
{
	static const char *const sfx[] = {"",   "n",  "u",  "m",  "k",  "M",  "G",  "T",   "P",    "E",
					  "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3", "e-7", "E+12", "e0"};
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	for (int i = 0; i < 20000; i++) {
		char text[96];
		uint64_t r = dsi_test_rand(&seed);
		int frac = (int)(r % 8);
		unsigned long long mant = dsi_test_rand(&seed) % 1000000000000ULL, scale = 1;
		for (int k = 0; k < frac; k++)
			scale *= 10;
		const char *sign = (r >> 8) & 1 ? "-" : "", *suffix = sfx[(r >> 16) % (sizeof(sfx) / sizeof(sfx[0]))];
		if (frac)
			snprintf(text, sizeof(text), "%s%llu.%0*llu%s", sign, mant / scale, frac, mant % scale, suffix);
		else
			snprintf(text, sizeof(text), "%s%llu%s", sign, mant, suffix);
		dsi_quantity q;
		ds_error err;
		if (dsi_quantity_parse(text, strlen(text), &q, &err) < 0)
			ck_abort_msg("%s: %s", text, err.message);
		char canon[DSI_QUANTITY_STRING_MAX];
		dsi_quantity_format(&q, canon, sizeof(canon));
		dsi_quantity back = parse_ok(canon);
		ck_assert_msg(dsi_quantity_cmp(&q, &back) == 0, "%s -> %s does not read back", text, canon);
		char again[DSI_QUANTITY_STRING_MAX];
		back.format = q.format;
		dsi_quantity_format(&back, again, sizeof(again));
		ck_assert_str_eq(canon, again);
		/* q + q - q == q, and q - q == 0 */
		dsi_quantity acc = q;
		if (dsi_quantity_add(&acc, &q) == 0) {
			ck_assert_int_eq(dsi_quantity_sub(&acc, &q), 0);
			ck_assert_int_eq(dsi_quantity_cmp(&acc, &q), 0);
		}
		acc = q;
		ck_assert_int_eq(dsi_quantity_sub(&acc, &q), 0);
		ck_assert(dsi_quantity_is_zero(&acc));
		/* milli value agrees with the value where both fit */
		int o1, o2;
		int64_t v = dsi_quantity_value(&q, &o1), m = dsi_quantity_milli(&q, &o2);
		if (!o1 && !o2 && q.sign > 0)
			ck_assert_msg(v == (m + 999) / 1000, "%s: value %lld milli %lld", text, (long long)v,
				      (long long)m);
	}
}
END_TEST

START_TEST(add_many_cancels)
{
	/* TestAddSubRoundTrip: sums of scaled int64s cancel exactly */
	uint64_t seed = 12345;
	for (int k = -9; k <= 10; k++) {
		dsi_quantity acc;
		memset(&acc, 0, sizeof(acc));
		long long vals[100];
		for (int i = 0; i < 100; i++) {
			vals[i] = (long long)(dsi_test_rand(&seed) >> 40);
			char t[64];
			snprintf(t, sizeof(t), "%llde%d", vals[i], k);
			dsi_quantity q = parse_ok(t);
			ck_assert_int_eq(dsi_quantity_add(&acc, &q), 0);
		}
		for (int i = 0; i < 100; i++) {
			char t[64];
			snprintf(t, sizeof(t), "%llde%d", vals[i], k);
			dsi_quantity q = parse_ok(t);
			ck_assert_int_eq(dsi_quantity_sub(&acc, &q), 0);
		}
		ck_assert(dsi_quantity_is_zero(&acc));
	}
}
END_TEST

START_TEST(garbage_in)
{
	static const char alphabet[] = "0123456789.+-eEinumkKMGTPx _";
	uint64_t seed = 0xdeadbeefcafef00dULL;
	for (int i = 0; i < 50000; i++) {
		char text[24];
		int n = (int)(dsi_test_rand(&seed) % (sizeof(text) - 1));
		for (int k = 0; k < n; k++)
			text[k] = alphabet[dsi_test_rand(&seed) % (sizeof(alphabet) - 1)];
		text[n] = '\0';
		dsi_quantity q;
		ds_error err;
		ds_error_clear(&err);
		int rc = dsi_quantity_parse(text, (size_t)n, &q, &err);
		ck_assert_msg(rc == 0 || rc == DS_EVALUE || rc == DS_ELIMIT, "'%s': rc %d", text, rc);
		if (rc < 0)
			continue;
		char canon[DSI_QUANTITY_STRING_MAX];
		dsi_quantity_format(&q, canon, sizeof(canon));
		dsi_quantity back = parse_ok(canon);
		ck_assert_msg(dsi_quantity_cmp(&q, &back) == 0, "'%s' -> '%s'", text, canon);
	}
}
END_TEST

/* dsi_quantity_plain, the decoding check's shortcut: every text it calls plain is one dsi_quantity_parse
 * accepts, and it calls plain only digits with an SI suffix. */
START_TEST(plain_forms)
{
	static const char *const digits[] = {"0",     "1",         "00",        "007",        "64",
					     "95690", "999999999", "000000001", "1234567890", "9999999999"};
	static const char *const suffixes[] = {"",   "m",  "k",  "M",  "G",   "T", "P",  "E", "Ki",
					       "Mi", "Gi", "Ti", "Pi", "Ei",  "n", "u",  "K", "ki",
					       "KI", "i",  "e3", "E3", "Mi ", " ", ".5", "-"};
	int plain = 0;
	for (size_t i = 0; i < sizeof(digits) / sizeof(digits[0]); i++)
		for (size_t j = 0; j < sizeof(suffixes) / sizeof(suffixes[0]); j++) {
			char text[64];
			snprintf(text, sizeof(text), "%s%s", digits[i], suffixes[j]);
			if (!dsi_quantity_plain(text, strlen(text)))
				continue;
			plain++;
			dsi_quantity q;
			ds_error err;
			ck_assert_msg(dsi_quantity_parse(text, strlen(text), &q, &err) == 0, "%s: %s", text,
				      err.message);
			ck_assert_msg(strlen(digits[i]) <= 9 && j < 14, "%s is not plain", text);
		}
	ck_assert_int_eq(plain, 8 * 14); /* the eight digit strings of at most 9 digits, the 14 suffixes */
	static const char *const not_plain[] = {"", "m", "Ki", "-1", "+1", "1.5", "1e3", " 1", "1 ", "0x10", "1Kii"};
	for (size_t i = 0; i < sizeof(not_plain) / sizeof(not_plain[0]); i++)
		ck_assert_msg(!dsi_quantity_plain(not_plain[i], strlen(not_plain[i])), "%s", not_plain[i]);
}
END_TEST

static Suite *quantity_suite(void)
{
	Suite *s = suite_create("quantity");
	TCase *tc = tcase_create("upstream");
	tcase_add_test(tc, parse_table);
	tcase_add_test(tc, parse_errors);
	tcase_add_test(tc, canonical_strings);
	tcase_add_test(tc, string_forms);
	tcase_add_test(tc, json_values);
	tcase_add_test(tc, compare_tables);
	tcase_add_test(tc, add_sub_tables);
	tcase_add_test(tc, integer_views);
	tcase_add_test(tc, strings_and_verbatim);
	suite_add_tcase(s, tc);
	tc = tcase_create("ours");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, format_buffer_is_bounded);
	tcase_add_test(tc, read_members);
	tcase_add_test(tc, normalize_members);
	tcase_add_test(tc, round_trips);
	tcase_add_test(tc, add_many_cancels);
	tcase_add_test(tc, garbage_in);
	tcase_add_test(tc, plain_forms);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(quantity_suite)
