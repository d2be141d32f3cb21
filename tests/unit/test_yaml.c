/* YAML and JSON ingest: scalars as Kubernetes reads them, streams, lists, limits. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/load.h"
#include "core/yaml.h"
#include "harness.h"

typedef struct collected {
	json_t *items; /* array of {"obj":..., "path":..., "kind":..., "doc":N} */
} collected;

static int collect(void *ctx, const dsi_loaded *it, ds_error *err)
{
	(void)err;
	collected *c = ctx;
	json_array_append_new(c->items,
			      json_pack("{s:O, s:s, s:s?, s:s?, s:i}", "obj", it->obj, "path", it->path, "kind",
					it->kind, "apiVersion", it->api_version, "doc", (int)it->document));
	return 0;
}

static json_t *load(const char *text, ds_error *err)
{
	dsi_limits lim;
	dsi_limits_default(&lim);
	collected c = {json_array()};
	ds_error_clear(err);
	int rc = dsi_load_text(text, strlen(text), &lim, collect, &c, err);
	if (rc < 0) {
		json_decref(c.items);
		return NULL;
	}
	return c.items;
}

static json_t *first_obj(json_t *items) { return json_object_get(json_array_get(items, 0), "obj"); }

/* Load one YAML document "v: <scalar>" and return a copy of v. */
static json_t *scalar(const char *yaml_value)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "kind: X\nv: %s\n", yaml_value);
	ds_error err;
	json_t *items = load(buf, &err);
	ck_assert_msg(items != NULL, "%s: %s", yaml_value, err.message);
	json_t *v = json_incref(json_object_get(first_obj(items), "v"));
	json_decref(items);
	return v;
}

START_TEST(yaml11_scalars)
{
	static const struct {
		const char *in, *want_json;
	} cases[] = {
		{"yes", "true"},
		{"No", "false"},
		{"on", "true"},
		{"OFF", "false"},
		{"y", "true"},
		{"true", "true"},
		{"~", "null"},
		{"null", "null"},
		{"", "null"},
		{"0600", "384"},
		{"0x1F", "31"},
		{"-0x10", "-16"},
		{"0b101", "5"},
		{"1_000", "1000"},
		{"+12", "12"},
		{"08", "8"},
		{"1e3", "1000"},
		{"1.0", "1"},
		{"0.15", "0.15"},
		{".5", "0.5"},
		{"'yes'", "\"yes\""},
		{"\"0600\"", "\"0600\""},
		{"!!str 1", "\"1\""},
		{"2001-12-14", "\"2001-12-14\""},
		{"C:\\\\Windows", "\"C:\\\\\\\\Windows\""},
		{"1.2.3", "\"1.2.3\""},
		{"-x", "\"-x\""},
		{"0o17", "15"},
		{"100m", "\"100m\""},
		{"1Gi", "\"1Gi\""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *v = scalar(cases[i].in);
		char *got = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		json_t *want = json_loads(cases[i].want_json, JSON_DECODE_ANY, NULL);
		ck_assert_msg(want != NULL, "bad expectation %s", cases[i].want_json);
		ck_assert_msg(json_equal(v, want) && json_typeof(v) == json_typeof(want), "%s -> %s, want %s",
			      cases[i].in, got, cases[i].want_json);
		free(got);
		json_decref(v);
		json_decref(want);
	}
}
END_TEST

/*
 * Numbers at the edges of 64 bits, as go-yaml v2's resolve (resolve.go) types them and sigs.k8s.io/yaml then
 * prints them with encoding/json:
 *  - ParseInt(plain, 0, 64), then ParseUint: 9223372036854775808 .. 18446744073709551615 (also in hex, octal,
 *    binary) are a uint64, printed as their exact digits. jansson integers are int64, so the library keeps the
 *    JSON real of that value: what Kubernetes holds for such a number in an untyped object
 *    (apimachinery pkg/util/json convertNumber: not an int64, so a float64);
 *  - then ParseFloat on text matching yamlStyleFloat: a float64 that overflows (ParseFloat's ErrRange) leaves
 *    the scalar a string; underflow is 0; a signed value beyond 64 bits is a float64 ("-9223372036854775809"
 *    rounds to -2^63, which encoding/json prints as digits that fit int64);
 *  - anything else stays a string.
 */
START_TEST(yaml_numbers_beyond_64_bits)
{
	static const struct {
		const char *in, *want_json;
	} cases[] = {
		{"1e309", "\"1e309\""},
		{"-1e309", "\"-1e309\""},
		{"+1E400", "\"+1E400\""},
		{".5e999", "\".5e999\""},
		{"1_0e308", "\"1_0e308\""},
		{"1e-400", "0"},
		{"1.7976931348623157e308", "1.7976931348623157e308"},
		{"9223372036854775807", "9223372036854775807"},
		{"9223372036854775808", "9223372036854775808.0"},
		{"18446744073709551615", "18446744073709551616.0"},
		{"0x8000000000000000", "9223372036854775808.0"},
		{"0xFFFFFFFFFFFFFFFF", "18446744073709551616.0"},
		{"0o1000000000000000000000", "9223372036854775808.0"},
		{"0b1000000000000000000000000000000000000000000000000000000000000000", "9223372036854775808.0"},
		{"9_223_372_036_854_775_808", "9223372036854775808.0"},
		{"+9223372036854775808", "9223372036854775808.0"},
		{"-9223372036854775808", "-9223372036854775808"},
		{"-0x8000000000000000", "-9223372036854775808"},
		{"-9223372036854775809", "-9223372036854775808"},
		{"18446744073709551616", "18446744073709551616.0"},
		{"0x10000000000000000", "\"0x10000000000000000\""},
		{"-0x8000000000000001", "\"-0x8000000000000001\""},
		{"1e20", "1e20"},
		{"9.2e18", "9200000000000000000"},
		{".5_0", "0.5"},
		{"._5", "\"._5\""},
		{".5_", "\".5_\""},
		{"!!int 9223372036854775808", "9223372036854775808.0"},
		{"!!float 5", "5"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *v = scalar(cases[i].in);
		char *got = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		json_t *want = json_loads(cases[i].want_json, JSON_DECODE_ANY, NULL);
		ck_assert_msg(want != NULL, "bad expectation %s", cases[i].want_json);
		ck_assert_msg(json_equal(v, want) && json_typeof(v) == json_typeof(want), "%s -> %s, want %s",
			      cases[i].in, got, cases[i].want_json);
		free(got);
		json_decref(v);
		json_decref(want);
	}
	/* a tag asks for a type resolve did not give: go-yaml's "cannot decode" */
	static const struct {
		const char *in, *message;
	} tagged[] = {
		{"!!float 9223372036854775808", "cannot decode !!int `9223372036854775808` as a !!float"},
		{"!!int 1e309", "cannot decode !!str `1e309` as a !!int"},
		{"!!float 1e309", "cannot decode !!str `1e309` as a !!float"},
		{"!!int 1.0", "cannot decode !!float `1.0` as a !!int"},
		{"!!int 08", "cannot decode !!float `08` as a !!int"},
		{"!!bool 1", "cannot decode !!int `1` as a !!bool"},
	};
	for (size_t i = 0; i < sizeof(tagged) / sizeof(tagged[0]); i++) {
		char buf[128];
		snprintf(buf, sizeof(buf), "kind: X\nv: %s\n", tagged[i].in);
		ds_error err;
		ck_assert_ptr_null(load(buf, &err));
		ck_assert_int_eq(err.code, DS_ESYNTAX);
		ck_assert_str_eq(err.message, tagged[i].message);
		ck_assert_int_eq(err.line, 2);
	}
	/* the library's own resolver entry point agrees, and never reports "out of memory" for a number */
	ds_error err;
	ds_error_clear(&err);
	json_t *v = dsi_yaml_resolve_plain("1e309", 5, &err);
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(json_string_value(v), "1e309");
	ck_assert_int_eq(err.code, 0);
	json_decref(v);
}
END_TEST

START_TEST(yaml_keys_become_strings)
{
	ds_error err;
	json_t *items = load("kind: X\nm:\n  on: a\n  1: b\n  0x10: c\n  1.5: d\n", &err);
	ck_assert_ptr_nonnull(items);
	json_t *m = json_object_get(first_obj(items), "m");
	ck_assert_str_eq(json_string_value(json_object_get(m, "true")), "a");
	ck_assert_str_eq(json_string_value(json_object_get(m, "1")), "b");
	ck_assert_str_eq(json_string_value(json_object_get(m, "16")), "c");
	ck_assert_str_eq(json_string_value(json_object_get(m, "1.5")), "d");
	json_decref(items);
	ck_assert_ptr_null(load("kind: X\nm:\n  ~: a\n", &err));
	ck_assert_int_eq(err.code, DS_ESYNTAX);
	ck_assert_int_eq(err.line, 3);
	/* a float64 key is spelled FormatFloat(f, 'g', -1, 32) even when integral; an overflowing one is a string */
	items = load(
		"kind: X\nm:\n  1e10: a\n  2.0: b\n  123456789.0: c\n  1e309: d\n  &k 1e3: e\n  nested: {*k : f}\n",
		&err);
	ck_assert_msg(items != NULL, "%s", err.message);
	m = json_object_get(first_obj(items), "m");
	ck_assert_str_eq(json_string_value(json_object_get(m, "1e+10")), "a");
	ck_assert_str_eq(json_string_value(json_object_get(m, "2")), "b");
	ck_assert_str_eq(json_string_value(json_object_get(m, "1.2345679e+08")), "c");
	ck_assert_str_eq(json_string_value(json_object_get(m, "1e309")), "d");
	ck_assert_str_eq(json_string_value(json_object_get(m, "1000")), "e");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(m, "nested"), "1000")), "f");
	json_decref(items);
	/* sigs.k8s.io/yaml has no case for a uint64 key */
	ck_assert_ptr_null(load("kind: X\nm:\n  9223372036854775808: a\n", &err));
	ck_assert_int_eq(err.code, DS_ESYNTAX);
	ck_assert_str_eq(err.message, "unsupported map key of type: uint64, key: 0x8000000000000000");
	ck_assert_int_eq(err.line, 3);
	ck_assert_ptr_null(load("kind: X\nv: &u 0xFFFFFFFFFFFFFFFF\nm: {*u : a}\n", &err));
	ck_assert_str_eq(err.message, "unsupported map key of type: uint64, key: 0xffffffffffffffff");
	/* as a value the same alias is fine */
	items = load("kind: X\nv: &u 0xFFFFFFFFFFFFFFFF\nw: *u\n", &err);
	ck_assert_msg(items != NULL, "%s", err.message);
	ck_assert(json_is_real(json_object_get(first_obj(items), "w")));
	json_decref(items);
}
END_TEST

START_TEST(yaml_duplicate_key)
{
	ds_error err;
	ck_assert_ptr_null(load("kind: X\nmetadata:\n  name: a\n  name: b\n", &err));
	ck_assert_int_eq(err.code, DS_ESYNTAX);
	ck_assert_int_eq(err.line, 4);
	ck_assert_msg(strstr(err.message, "key \"name\" already set in map") != NULL, "%s", err.message);
	ck_assert_ptr_null(load("{\"kind\":\"X\",\"a\":1,\"a\":2}", &err));
	ck_assert_int_eq(err.code, DS_ESYNTAX);
	ck_assert_msg(strstr(err.message, "duplicate") != NULL, "%s", err.message);
}
END_TEST

START_TEST(yaml_anchors_and_merge)
{
	ds_error err;
	const char *doc = "kind: X\n"
			  "base: &b {cpu: 1, memory: 2}\n"
			  "copy: *b\n"
			  "merged:\n"
			  "  <<: *b\n"
			  "  memory: 3\n"
			  "list:\n"
			  "  <<: [{a: 1}, {a: 2, b: 2}]\n";
	json_t *items = load(doc, &err);
	ck_assert_msg(items != NULL, "%s", err.message);
	json_t *o = first_obj(items);
	ck_assert(json_equal(json_object_get(o, "copy"), json_object_get(o, "base")));
	json_t *m = json_object_get(o, "merged");
	ck_assert_int_eq(json_integer_value(json_object_get(m, "cpu")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(m, "memory")), 3);
	json_t *l = json_object_get(o, "list");
	ck_assert_int_eq(json_integer_value(json_object_get(l, "a")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(l, "b")), 2);
	/* the tree no longer shares nodes: changing one copy leaves the other */
	json_object_set_new(json_object_get(o, "copy"), "cpu", json_integer(9));
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(o, "base"), "cpu")), 1);
	json_decref(items);
	ck_assert_ptr_null(load("kind: X\na: *nope\n", &err));
	ck_assert_int_eq(err.code, DS_ESYNTAX);
}
END_TEST

START_TEST(yaml_alias_bomb)
{
	const char *bomb = "kind: X\n"
			   "a: &a [x,x,x,x,x,x,x,x,x]\n"
			   "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
			   "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
			   "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
			   "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
			   "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
			   "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
			   "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
			   "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n";
	ds_error err;
	ck_assert_ptr_null(load(bomb, &err));
	ck_assert_int_eq(err.code, DS_ELIMIT);
	ck_assert_msg(strstr(err.message, "excessive aliasing") != NULL, "%s", err.message);
}
END_TEST

START_TEST(streams_and_lists)
{
	ds_error err;
	json_t *items = load("---\n# only a comment\n---\nkind: A\n---\n---\nkind: NodeList\napiVersion: v1\nitems:\n"
			     "- metadata: {name: n1}\n- kind: Node\n  metadata: {name: n2}\n",
			     &err);
	ck_assert_msg(items != NULL, "%s", err.message);
	ck_assert_int_eq(json_array_size(items), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(items, 1), "kind")), "Node");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(items, 1), "apiVersion")), "v1");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(items, 2), "path")), "items[1]");
	json_decref(items);
	/* concatenated JSON values, as a watch stream sends them */
	items = load("{\"kind\":\"A\"}\n{\"kind\":\"B\"}\n", &err);
	ck_assert_msg(items != NULL, "%s", err.message);
	ck_assert_int_eq(json_array_size(items), 2);
	json_decref(items);
	/* YAML flow style that is not JSON */
	items = load("{kind: A, x: yes}", &err);
	ck_assert_msg(items != NULL, "%s", err.message);
	ck_assert(json_is_true(json_object_get(first_obj(items), "x")));
	json_decref(items);
}
END_TEST

START_TEST(bad_inputs)
{
	ds_error err;
	ck_assert_ptr_null(load("{\"kind\": \"A\", ", &err));
	ck_assert_int_eq(err.code, DS_ESYNTAX);
	ck_assert_int_gt(err.line, 0);
	ck_assert_ptr_null(load("kind: A\n  bad: [\n", &err));
	ck_assert_int_eq(err.code, DS_ESYNTAX);
	ck_assert_int_gt(err.line, 0);
	ck_assert_ptr_null(load("- a\n- b\n", &err));
	ck_assert_error(err, DS_ETYPE, "");
	ck_assert_ptr_null(load("{\"kind\":\"List\",\"items\":[1]}", &err));
	ck_assert_error(err, DS_ETYPE, "items[0]");
	ck_assert_ptr_null(load("{\"kind\":\"List\",\"items\":[{\"kind\":3}]}", &err));
	ck_assert_error(err, DS_ETYPE, "items[0].kind");
	ck_assert_ptr_null(load("kind: A\nv: .inf\n", &err));
	ck_assert_int_eq(err.code, DS_EVALUE);
	ck_assert_ptr_null(load("kind: A\nv: \"a\\0b\"\n", &err));
	ck_assert_int_eq(err.code, DS_ESYNTAX);
	/* invalid UTF-8 in both syntaxes */
	ck_assert_ptr_null(load("{\"kind\":\"\xff\"}", &err));
	ck_assert_int_eq(err.code, DS_ESYNTAX);
	ck_assert_ptr_null(load("kind: \xc3\x28\n", &err));
	ck_assert_int_eq(err.code, DS_ESYNTAX);
	/* empty input is no objects at all */
	json_t *items = load("", &err);
	ck_assert_ptr_nonnull(items);
	ck_assert_int_eq(json_array_size(items), 0);
	json_decref(items);
}
END_TEST

static char *deep(const char *open, const char *close, size_t n)
{
	size_t lo = strlen(open), lc = strlen(close);
	char *s = malloc(n * (lo + lc) + 32);
	size_t k = 0;
	for (size_t i = 0; i < n; i++, k += lo)
		memcpy(s + k, open, lo);
	for (size_t i = 0; i < n; i++, k += lc)
		memcpy(s + k, close, lc);
	s[k] = '\0';
	return s;
}

/* libyaml's reader gives an offset, not a mark: the position is counted from it */
START_TEST(bad_utf8_position)
{
	ds_error err;
	ck_assert_ptr_null(load("kind: X\nmetadata:\n  name: \"\xc3\xa9"
				"b\xff\"\n",
				&err));
	ck_assert_int_eq(err.code, DS_ESYNTAX);
	ck_assert_str_eq(err.message, "invalid leading UTF-8 octet");
	ck_assert_int_eq(err.line, 3);
	ck_assert_int_eq(err.column, 12); /* the two-byte e-acute is one column */
	ck_assert_ptr_null(load("kind: X\x01\n", &err));
	ck_assert_int_eq(err.code, DS_ESYNTAX);
	ck_assert_int_eq(err.line, 1);
	ck_assert_int_eq(err.column, 8);
}
END_TEST

START_TEST(deep_nesting)
{
	ds_error err;
	char *j = deep("[", "]", 100000);
	ck_assert_ptr_null(load(j, &err));
	ck_assert_int_eq(err.code, DS_ELIMIT);
	free(j);
	char *y = deep("- ", "", 100000);
	ck_assert_ptr_null(load(y, &err));
	ck_assert_int_eq(err.code, DS_ELIMIT);
	free(y);
	char *f = deep("{a: ", "}", 100000);
	ck_assert_ptr_null(load(f, &err));
	ck_assert_int_eq(err.code, DS_ELIMIT);
	free(f);
}
END_TEST

START_TEST(size_limit_before_reading)
{
	dsi_limits lim;
	dsi_limits_default(&lim);
	ds_error err;
	ds_error_clear(&err);
	collected c = {json_array()};
	/* a 1 GB length claim over a tiny buffer must be refused without touching it */
	ck_assert_int_eq(dsi_load_text("{}", (size_t)1 << 30, &lim, collect, &c, &err), DS_ELIMIT);
	ck_assert_int_eq(err.code, DS_ELIMIT);
	json_decref(c.items);
}
END_TEST

/* dsi_yaml_locate: where a reader's path is in the text, every document counted. */
START_TEST(locate_paths)
{
	static const char text[] = "---\n"                               /* 1: document 0 (comment only) */
				   "# Source: chart/templates/sa.yaml\n" /* 2 */
				   "---\n"                               /* 3: document 1 */
				   "metadata:\n"                         /* 4 */
				   "  labels:\n"                         /* 5 */
				   "    a.b/c: x\n"                      /* 6 */
				   "spec:\n"                             /* 7 */
				   "  taints:\n"                         /* 8 */
				   "  - key: a\n"                        /* 9 */
				   "    effect: NoSchedule\n"            /* 10 */
				   "  - {key: b, effect: Bogus}\n"       /* 11 */
				   "items:\n"                            /* 12 */
				   "- &one {x: 1}\n"                     /* 13 */
				   "- *one\n";                           /* 14 */
	static const struct {
		size_t doc;
		const char *path;
		int rc, line, column;
	} cases[] = {
		{1, "spec.taints[1].effect", 0, 11, 14},
		{1, "spec.taints[0].effect", 0, 10, 5},
		{1, "spec.taints[0]", 0, 9, 5},
		{1, "metadata.labels[\"a.b/c\"]", 0, 6, 5},
		{1, "metadata.name", 1, 4, 1},      /* missing: its parent */
		{1, "spec.taints[7].key", 1, 8, 3}, /* past the end: the list's key */
		{1, "items[1].x", 1, 14, 3},        /* an alias is not followed */
		{1, "", 0, 4, 1},                   /* the document's root */
		{0, "spec", -1, 0, 0},              /* an empty document has no node */
		{5, "spec", -1, 0, 0},              /* no such document */
		{1, "spec.taints[x]", -1, 0, 0},    /* not a path */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int line = -1, column = -1;
		int rc = dsi_yaml_locate(text, strlen(text), cases[i].doc, cases[i].path, &line, &column);
		ck_assert_msg(rc == cases[i].rc && line == cases[i].line && column == cases[i].column,
			      "%s: rc %d line %d column %d, want %d %d %d", cases[i].path, rc, line, column,
			      cases[i].rc, cases[i].line, cases[i].column);
	}
}
END_TEST

/* A source too long for ds_error keeps its end: the document and line a reader needs. */
START_TEST(long_source_keeps_its_tail)
{
	char dir[400];
	memset(dir, 'd', sizeof(dir) - 1);
	dir[sizeof(dir) - 1] = '\0';
	char path[600];
	snprintf(path, sizeof(path), "/tmp/%s.yaml", dir);
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	/* a file that is not there: DS_EIO names the path in the message; a bad document names it in source */
	const char text[] = "kind: Node\nmetadata: {name: a}\n---\nkind: Node\nmetadata: {name: 7b, labels: {x: 1}}\n";
	ck_assert_int_lt(ds_cluster_load(c, text, strlen(text), NULL, &err), 0);
	ck_assert_str_eq(err.source, "document 2");
	ck_assert_int_eq(err.line, 5);
	ds_cluster_free(c);
	ds_error_clear(&err);
	char src[700];
	snprintf(src, sizeof(src), "%s: document 12", path);
	/* through the same call the loader uses */
	dsi_error_set_source(&err, src);
	ck_assert_uint_eq(strlen(err.source), sizeof(err.source) - 1);
	ck_assert(strncmp(err.source, "...", 3) == 0);
	const char *tail = ".yaml: document 12";
	ck_assert_str_eq(err.source + strlen(err.source) - strlen(tail), tail);
}
END_TEST

static Suite *yaml_suite(void)
{
	Suite *s = suite_create("ingest");
	TCase *tc = tcase_create("yaml-json");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, yaml11_scalars);
	tcase_add_test(tc, yaml_numbers_beyond_64_bits);
	tcase_add_test(tc, yaml_keys_become_strings);
	tcase_add_test(tc, yaml_duplicate_key);
	tcase_add_test(tc, yaml_anchors_and_merge);
	tcase_add_test(tc, yaml_alias_bomb);
	tcase_add_test(tc, streams_and_lists);
	tcase_add_test(tc, bad_inputs);
	tcase_add_test(tc, deep_nesting);
	tcase_add_test(tc, bad_utf8_position);
	tcase_add_test(tc, size_limit_before_reading);
	tcase_add_test(tc, locate_paths);
	tcase_add_test(tc, long_source_keeps_its_tail);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(yaml_suite)
