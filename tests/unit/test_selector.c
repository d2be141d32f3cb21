/* Label selectors: labels.Parse, NewRequirement, LabelSelectorAsSelector, Matches, String
 * (tests/vectors/values/selector.json, label_selector.json); node selectors through the ABI,
 * ds_node_selector_matches(3) (MatchNodeSelectorTerms). */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model/selector.h"

static const char *str(json_t *row, const char *key) { return json_string_value(json_object_get(row, key)); }

static void expect_string(const dsi_atoms *atoms, const dsi_selector *s, const char *want, const char *ctx)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_selector_string(atoms, s, &b);
	ck_assert_ptr_nonnull(b.data);
	ck_assert_msg(strcmp(b.data, want) == 0, "%s: String() = '%s', want '%s'", ctx, b.data, want);
	dsi_strbuf_free(&b);
}

static void labels_of(dsi_atoms *atoms, json_t *obj, dsi_labels *out)
{
	ds_error err;
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	ck_assert_int_eq(dsi_labels_from_object(&rd, atoms, obj, out), 0);
}

START_TEST(parse_and_string)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/selector.json"), *row;
	size_t i;
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	json_array_foreach(dsi_test_rows(doc, "parse"), i, row)
	{
		dsi_selector s;
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		int rc = dsi_selector_parse(&rd, &atoms, str(row, "in"), &s);
		ck_assert_msg(rc == 0, "'%s': %s", str(row, "in"), err.message);
		ck_assert(!dsi_selector_is_nothing(&s)); /* MatchesNothing is never true for a parsed selector */
		ck_assert_int_eq(dsi_selector_is_everything(&s),
				 str(row, "in")[strspn(str(row, "in"), " \t\r\n")] == '\0');
		expect_string(&atoms, &s, str(row, "string"), str(row, "in"));
		/* the string form parses to the same selector */
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_selector_string(&atoms, &s, &b);
		dsi_selector again;
		ck_assert_int_eq(dsi_selector_parse(&rd, &atoms, b.data, &again), 0);
		expect_string(&atoms, &again, b.data, "reparsed");
		dsi_strbuf_free(&b);
		dsi_selector_release(&atoms, &again);
		dsi_selector_release(&atoms, &s);
	}
	ck_assert_int_eq(atoms.live, 0); /* every reference was released */
	dsi_atoms_free(&atoms);
	json_decref(doc);
}
END_TEST

START_TEST(parse_errors)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/selector.json"), *row;
	size_t i;
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	json_array_foreach(dsi_test_rows(doc, "parse_errors"), i, row)
	{
		dsi_selector s;
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		dsi_rd_push(&rd, "spec");
		dsi_rd_push(&rd, "podSelector");
		int rc = dsi_selector_parse(&rd, &atoms, str(row, "in"), &s);
		ck_assert_msg(rc == DS_EVALUE, "'%s' parsed", str(row, "in"));
		ck_assert_error(err, DS_EVALUE, "spec.podSelector");
		ck_assert_msg(strncmp(err.message, str(row, "message"), sizeof(err.message) - 1) == 0,
			      "'%s'\n got: %s\nwant: %s", str(row, "in"), err.message, str(row, "message"));
		ck_assert(dsi_selector_is_nothing(&s));
	}
	ck_assert_int_eq(atoms.live, 0);
	dsi_atoms_free(&atoms);
	json_decref(doc);
}
END_TEST

START_TEST(parse_and_match)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/selector.json"), *row;
	size_t i;
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	json_array_foreach(dsi_test_rows(doc, "matches"), i, row)
	{
		dsi_selector s;
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		ck_assert_msg(dsi_selector_parse(&rd, &atoms, str(row, "selector"), &s) == 0, "%s: %s",
			      str(row, "selector"), err.message);
		dsi_labels l;
		labels_of(&atoms, json_object_get(row, "labels"), &l);
		int want = json_is_true(json_object_get(row, "match"));
		ck_assert_msg(dsi_selector_matches(&atoms, &s, &l) == want, "'%s' on %s", str(row, "selector"),
			      json_dumps(json_object_get(row, "labels"), JSON_COMPACT));
		dsi_labels_release(&atoms, &l);
		dsi_selector_release(&atoms, &s);
	}
	dsi_atoms_free(&atoms);
	json_decref(doc);
}
END_TEST

static dsi_selector_op op_of(const char *name)
{
	static const struct {
		const char *name;
		dsi_selector_op op;
	} ops[] = {{"In", DSI_SEL_IN},
		   {"NotIn", DSI_SEL_NOT_IN},
		   {"Exists", DSI_SEL_EXISTS},
		   {"DoesNotExist", DSI_SEL_DOES_NOT_EXIST},
		   {"Equals", DSI_SEL_EQUALS},
		   {"NotEquals", DSI_SEL_NOT_EQUALS},
		   {"Gt", DSI_SEL_GT},
		   {"Lt", DSI_SEL_LT},
		   {"DoubleEquals", DSI_SEL_DOUBLE_EQUALS}};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(ops[i].name, name) == 0)
			return ops[i].op;
	ck_abort_msg("unknown operator %s", name);
	return DSI_SEL_IN;
}

START_TEST(requirements)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/selector.json"), *row;
	size_t i;
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	json_array_foreach(dsi_test_rows(doc, "requirements"), i, row)
	{
		json_t *jv = json_object_get(row, "values");
		const char *vals[16];
		size_t n = json_array_size(jv);
		ck_assert(n <= 16);
		for (size_t k = 0; k < n; k++)
			vals[k] = json_string_value(json_array_get(jv, k));
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		dsi_rd_push(&rd, "expr");
		dsi_requirement r;
		const char *fp = str(row, "field_path");
		int rc = dsi_requirement_init_at(&rd, &atoms, fp, str(row, "key"), op_of(str(row, "op")),
						 json_is_null(jv) ? NULL : vals, n, &r);
		const char *msg = str(row, "message");
		if (!msg) {
			ck_assert_msg(rc == 0, "%s: %s", str(row, "key"), err.message);
			if (str(row, "string")) {
				dsi_strbuf b = DSI_STRBUF_INIT;
				dsi_requirement_string(&atoms, &r, &b);
				ck_assert_str_eq(b.data, str(row, "string"));
				dsi_strbuf_free(&b);
			}
			dsi_requirement_release(&atoms, &r);
			continue;
		}
		ck_assert_msg(rc == DS_EVALUE, "%.40s accepted", str(row, "key"));
		char path[DS_ERROR_PATH_MAX];
		snprintf(path, sizeof(path), "expr.%s", str(row, "path"));
		ck_assert_error(err, DS_EVALUE, path);
		ck_assert_msg(strncmp(err.message, msg, sizeof(err.message) - 1) == 0, "%.40s\n got: %s\nwant: %s",
			      str(row, "key"), err.message, msg);
		ck_assert_int_eq(r.key, DSI_ATOM_NONE); /* nothing interned on failure */
	}
	ck_assert_int_eq(atoms.live, 0);
	dsi_atoms_free(&atoms);
	json_decref(doc);
}
END_TEST

START_TEST(label_selector_as_selector)
{
	json_t *doc = dsi_test_load_json("tests/vectors/values/label_selector.json"), *row;
	size_t i;
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	json_array_foreach(dsi_test_rows(doc, "selectors"), i, row)
	{
		json_t *sel = json_object_get(row, "selector");
		char *shown = json_dumps(sel, JSON_COMPACT | JSON_ENCODE_ANY);
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		dsi_selector s;
		int rc = dsi_selector_from_json(&rd, &atoms, sel, &s);
		const char *code = str(row, "code");
		if (code) {
			ck_assert_msg(rc == dsi_test_code(code), "%s: rc %d (%s)", shown, rc, err.message);
			ck_assert_error(err, dsi_test_code(code), str(row, "path"));
			if (str(row, "message"))
				ck_assert_msg(strncmp(err.message, str(row, "message"), sizeof(err.message) - 1) == 0,
					      "%s\n got: %s\nwant: %s", shown, err.message, str(row, "message"));
			ck_assert(dsi_selector_is_nothing(&s));
		} else {
			ck_assert_msg(rc == 0, "%s: %s", shown, err.message);
			ck_assert_int_eq(dsi_selector_is_nothing(&s), json_is_true(json_object_get(row, "nothing")));
			ck_assert_int_eq(dsi_selector_is_everything(&s),
					 json_is_true(json_object_get(row, "everything")));
			expect_string(&atoms, &s, str(row, "string"), shown);
			dsi_selector copy;
			ck_assert_int_eq(dsi_selector_copy(&atoms, &s, &copy), 0);
			dsi_selector_release(&atoms, &s);
			expect_string(&atoms, &copy, str(row, "string"), "copy");
			dsi_selector_release(&atoms, &copy);
		}
		free(shown);
	}
	json_array_foreach(dsi_test_rows(doc, "matches"), i, row)
	{
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		dsi_selector s;
		ck_assert_int_eq(dsi_selector_from_json(&rd, &atoms, json_object_get(row, "selector"), &s), 0);
		dsi_labels l;
		labels_of(&atoms, json_object_get(row, "labels"), &l);
		ck_assert_int_eq(dsi_selector_matches(&atoms, &s, &l), json_is_true(json_object_get(row, "match")));
		dsi_labels_release(&atoms, &l);
		dsi_selector_release(&atoms, &s);
	}
	ck_assert_int_eq(atoms.live, 0);
	dsi_atoms_free(&atoms);
	json_decref(doc);
}
END_TEST

START_TEST(selector_member)
{
	json_t *obj =
		json_loads("{\"spec\": {\"selector\": {\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"In\", "
			   "\"values\": [\"x\"]}, {\"key\": \"b\", \"operator\": \"Gt\", \"values\": [\"1\"]}]}, "
			   "\"nil\": null}}",
			   0, NULL);
	ck_assert_ptr_nonnull(obj);
	json_t *spec = json_object_get(obj, "spec");
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	ds_error err;
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	dsi_rd_push(&rd, "spec");
	dsi_selector s;
	ck_assert_int_eq(dsi_selector_read(&rd, &atoms, spec, "selector", &s), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "spec.selector.matchExpressions[1].operator");
	ck_assert_str_eq(err.message, "\"Gt\" is not a valid label selector operator");
	ck_assert_str_eq(rd.path, "spec");
	ck_assert_int_eq(atoms.live, 0); /* the first requirement was released */
	ck_assert_int_eq(dsi_selector_read(&rd, &atoms, spec, "nil", &s), 0);
	ck_assert(dsi_selector_is_nothing(&s));
	ck_assert_int_eq(dsi_selector_read(&rd, &atoms, spec, "absent", &s), 0);
	ck_assert(dsi_selector_is_nothing(&s));
	dsi_labels none = {NULL, 0};
	ck_assert(!dsi_selector_matches(&atoms, &s, &none));
	/* a zeroed selector is Nothing: fail closed */
	dsi_selector zero;
	memset(&zero, 0, sizeof(zero));
	ck_assert(dsi_selector_is_nothing(&zero) && !dsi_selector_matches(&atoms, &zero, &none));
	dsi_atoms_free(&atoms);
	json_decref(obj);
}
END_TEST

START_TEST(requirement_direct)
{
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	ds_error err;
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	/* node affinity uses Gt/Lt through the same requirement: the value must be a label value too */
	const char *v1[] = {"10"}, *many[] = {"e", "d", "c", "b", "a", "j", "i", "h", "g", "f", "k", "a"};
	dsi_requirement gt, in;
	ck_assert_int_eq(dsi_requirement_init(&rd, &atoms, "cores", DSI_SEL_GT, v1, 1, &gt), 0);
	ck_assert_int_eq(gt.ival, 10);
	ck_assert_int_eq(dsi_requirement_init(&rd, &atoms, "zone", DSI_SEL_IN, many, 12, &in), 0);
	ck_assert_int_eq(in.nvalues, 12);
	for (uint32_t i = 1; i < in.nvalues; i++)
		ck_assert(in.values[i - 1] <= in.values[i]); /* sorted by atom id */
	json_t *obj = json_loads("{\"cores\": \"0012\", \"zone\": \"k\"}", 0, NULL);
	dsi_labels l;
	labels_of(&atoms, obj, &l);
	ck_assert(dsi_requirement_matches(&atoms, &gt, &l));
	ck_assert(dsi_requirement_matches(&atoms, &in, &l));
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_requirement_string(&atoms, &in, &b);
	ck_assert_str_eq(b.data, "zone in (a,a,b,c,d,e,f,g,h,i,j,k)");
	dsi_strbuf_free(&b);
	dsi_requirement copy;
	ck_assert_int_eq(dsi_requirement_copy(&atoms, &in, &copy), 0);
	dsi_requirement_release(&atoms, &in);
	ck_assert(dsi_requirement_matches(&atoms, &copy, &l));
	dsi_requirement_release(&atoms, &copy);
	dsi_requirement_release(&atoms, &gt);
	dsi_labels_release(&atoms, &l);
	ck_assert_int_eq(atoms.live, 0);
	/* values == NULL with a count is an argument error, not a crash */
	ck_assert_int_eq(dsi_requirement_init(&rd, &atoms, "k", DSI_SEL_IN, NULL, 2, &in), DS_EARG);
	/* a NULL key is the empty key */
	ck_assert_int_eq(dsi_requirement_init(&rd, &atoms, NULL, DSI_SEL_EXISTS, NULL, 0, &in), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "key");
	dsi_atoms_free(&atoms);
	json_decref(obj);
}
END_TEST

START_TEST(garbage_in)
{
	/* random text from the syntax's own alphabet: an error or a selector whose string form reads back */
	static const char *const pieces[] = {"a",  "b.c/d", "x", "=", "==", "!=", "!", "(",  ")", ",",    " ",
					     "in", "notin", "<", ">", "1",  "-2", "",  "\t", "*", "\xc3", "a b"};
	uint64_t seed = 88172645463325252ULL;
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	for (int i = 0; i < 20000; i++) {
		char text[128] = "";
		int n = (int)(dsi_test_rand(&seed) % 9);
		for (int k = 0; k < n; k++)
			strcat(text, pieces[dsi_test_rand(&seed) % (sizeof(pieces) / sizeof(pieces[0]))]);
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		dsi_selector s;
		int rc = dsi_selector_parse(&rd, &atoms, text, &s);
		ck_assert_msg(rc == 0 || rc == DS_EVALUE, "'%s': rc %d", text, rc);
		if (rc < 0) {
			ck_assert_msg(err.message[0], "'%s': no message", text);
			continue;
		}
		dsi_strbuf b = DSI_STRBUF_INIT, b2 = DSI_STRBUF_INIT;
		dsi_selector_string(&atoms, &s, &b);
		dsi_selector again;
		ck_assert_msg(dsi_selector_parse(&rd, &atoms, b.data, &again) == 0, "'%s' -> '%s': %s", text, b.data,
			      err.message);
		dsi_selector_string(&atoms, &again, &b2);
		ck_assert_str_eq(b.data, b2.data);
		dsi_strbuf_free(&b);
		dsi_strbuf_free(&b2);
		dsi_selector_release(&atoms, &again);
		dsi_selector_release(&atoms, &s);
	}
	ck_assert_int_eq(atoms.live, 0);
	dsi_atoms_free(&atoms);
}
END_TEST

/* ---- ds_node_selector_matches(3): the public NodeSelector matcher ---------------------------------------- */

/* Call the ABI; on success check that *out is 0 or 1. */
static int nsm(const char *sel, const char *node, int *out, ds_error *err)
{
	*out = -1;
	int rc = ds_node_selector_matches(sel, node, out, err);
	if (rc == 0)
		ck_assert_msg(*out == 0 || *out == 1, "out %d", *out);
	else
		ck_assert_int_eq(*out, 0);
	return rc;
}

/* Whether one selector matches one node (the call must succeed). */
static int matches(const char *sel, const char *node)
{
	ds_error err;
	int out;
	int rc = nsm(sel, node, &out, &err);
	ck_assert_msg(rc == 0, "%s against %s: rc %d %s: %s", sel, node, rc, err.path, err.message);
	return out;
}

/* A selector with one term holding one matchExpressions requirement. */
static char *one_expr(char *buf, size_t size, const char *key, const char *op, const char *values)
{
	snprintf(buf, size,
		 "{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"%s\", \"operator\": \"%s\"%s%s}]}]}",
		 key, op, values ? ", \"values\": " : "", values ? values : "");
	return buf;
}

#define NODE_A                                                                                                         \
	"{\"kind\": \"Node\", \"metadata\": {\"name\": \"n1\", \"labels\": {\"a\": \"x\", \"n\": \"02\", \"s\": \" "   \
	"1\", "                                                                                                        \
	"\"p\": \"+3\", \"w\": \"word\"}}}"

/* dsi_labels_get_hinted gives dsi_labels_get's answer whatever the hint: a pass carries one hint
 * per key from set to set, across sets with the key, without it, shorter and longer. */
START_TEST(labels_get_hinted_agrees)
{
	unsigned seed = 11;
	dsi_label v[16];
	uint32_t hints[48] = {0};
	for (int round = 0; round < 4000; round++) {
		dsi_labels l = {v, 0};
		/* keys 1..40, sorted and unique; mostly the same keys from one set to the next */
		int sparse = (seed = seed * 1103515245u + 12345u) >> 16 & 1;
		for (dsi_atom k = 1; k <= 40 && l.n < 16; k++) {
			unsigned r = (seed = seed * 1103515245u + 12345u) >> 16;
			if (r % (sparse ? 3 : 40) == 0 || (!sparse && k % 3 == 0)) {
				v[l.n].key = k;
				v[l.n].value = 100 + r % 7;
				l.n++;
			}
		}
		if (round % 97 == 0)
			l.n = 0, l.v = NULL; /* no labels at all */
		for (dsi_atom k = 0; k < 48; k++) {
			dsi_atom want = dsi_labels_get(&l, k), got = dsi_labels_get_hinted(&l, k, &hints[k]);
			ck_assert_msg(got == want, "round %d key %u: hinted %u, want %u", round, k, got, want);
			ck_assert_uint_le(hints[k], 48);
		}
	}
}
END_TEST

START_TEST(node_selector_operators)
{
	static const struct {
		const char *key, *op, *values;
		int want;
	} rows[] = {
		{"a", "In", "[\"y\", \"x\"]", 1},
		{"a", "In", "[\"y\"]", 0},
		{"missing", "In", "[\"x\"]", 0},
		{"a", "NotIn", "[\"x\"]", 0},
		{"a", "NotIn", "[\"y\"]", 1},
		{"missing", "NotIn", "[\"x\"]", 1}, /* NotIn holds for an absent label */
		{"a", "Exists", NULL, 1},
		{"missing", "Exists", NULL, 0},
		{"a", "DoesNotExist", NULL, 0},
		{"missing", "DoesNotExist", NULL, 1},
		/* Gt/Lt: strconv.ParseInt(label, 10, 64) and of the one value */
		{"n", "Gt", "[\"1\"]", 1}, /* "02" is 2 */
		{"n", "Gt", "[\"2\"]", 0},
		{"n", "Lt", "[\"3\"]", 1},
		{"n", "Lt", "[\"2\"]", 0},
		{"n", "Gt", "[\"01\"]", 1}, /* the value may have leading zeros too */
		{"p", "Gt", "[\"2\"]", 1},  /* ParseInt accepts a sign: "+3" is 3 */
		{"s", "Gt", "[\"0\"]", 0},  /* " 1" is not an integer: no match, no error */
		{"s", "Lt", "[\"9\"]", 0},
		{"w", "Gt", "[\"0\"]", 0}, /* nor is "word" */
		{"w", "Lt", "[\"0\"]", 0},
		{"missing", "Gt", "[\"0\"]", 0},
		{"missing", "Lt", "[\"0\"]", 0},
		{"n", "Lt", "[\"9223372036854775807\"]", 1},
		{"n", "Gt", "[\"0000000000000000000000000001\"]", 1},
	};
	char buf[512];
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		one_expr(buf, sizeof(buf), rows[i].key, rows[i].op, rows[i].values);
		ck_assert_msg(matches(buf, NODE_A) == rows[i].want, "row %zu: %s %s %s: want %d", i, rows[i].key,
			      rows[i].op, rows[i].values ? rows[i].values : "", rows[i].want);
	}
	/* YAML in, as every text input of the library */
	ck_assert_int_eq(matches("nodeSelectorTerms:\n- matchExpressions:\n  - {key: a, operator: In, values: [x]}\n",
				 "metadata: {name: n1, labels: {a: x}}\n"),
			 1);
}
END_TEST

START_TEST(node_selector_terms_and_fields)
{
	/* matchFields: metadata.name is the only node field */
	const char *by_name = "{\"nodeSelectorTerms\": [{\"matchFields\": [{\"key\": \"metadata.name\", \"operator\": "
			      "\"In\", \"values\": [\"n1\"]}]}]}";
	const char *not_name = "{\"nodeSelectorTerms\": [{\"matchFields\": [{\"key\": \"metadata.name\", \"operator\": "
			       "\"NotIn\", \"values\": [\"n1\"]}]}]}";
	ck_assert_int_eq(matches(by_name, NODE_A), 1);
	ck_assert_int_eq(matches(not_name, NODE_A), 0);
	ck_assert_int_eq(matches(by_name, "{\"metadata\": {\"name\": \"n2\"}}"), 0);
	ck_assert_int_eq(matches(not_name, "{\"metadata\": {\"name\": \"n2\"}}"), 1);
	/* a label called metadata.name is not the field */
	ck_assert_int_eq(
		matches(by_name, "{\"metadata\": {\"name\": \"n2\", \"labels\": {\"metadata.name\": \"n1\"}}}"), 0);
	/* any other field key reads as "" */
	ck_assert_int_eq(matches("{\"nodeSelectorTerms\": [{\"matchFields\": [{\"key\": \"spec.x\", \"operator\": "
				 "\"In\", \"values\": [\"\"]}]}]}",
				 NODE_A),
			 1);
	/* upstream (extractNodeFields): a node without a name has no fields, and the field part is skipped */
	ck_assert_int_eq(matches(by_name, "{\"metadata\": {\"labels\": {\"a\": \"x\"}}}"), 1);
	ck_assert_int_eq(matches(by_name, "{\"metadata\": {\"name\": \"\"}}"), 1);
	ck_assert_int_eq(matches(by_name, "{}"), 1);

	/* requirements ANDed within a term (expressions and fields), terms ORed */
	const char *and_term =
		"{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"In\", "
		"\"values\": [\"x\"]}, {\"key\": \"n\", \"operator\": \"Gt\", \"values\": [\"1\"]}], "
		"\"matchFields\": [{\"key\": \"metadata.name\", \"operator\": \"In\", \"values\": [\"n1\"]}]}]}";
	ck_assert_int_eq(matches(and_term, NODE_A), 1);
	ck_assert_int_eq(
		matches(and_term, "{\"metadata\": {\"name\": \"n1\", \"labels\": {\"a\": \"x\", \"n\": \"1\"}}}"), 0);
	ck_assert_int_eq(
		matches(and_term, "{\"metadata\": {\"name\": \"n9\", \"labels\": {\"a\": \"x\", \"n\": \"5\"}}}"), 0);
	const char *or_terms =
		"{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"In\", "
		"\"values\": [\"nope\"]}]}, {\"matchFields\": [{\"key\": \"metadata.name\", \"operator\": "
		"\"In\", \"values\": [\"n1\"]}]}]}";
	ck_assert_int_eq(matches(or_terms, NODE_A), 1);
	ck_assert_int_eq(matches(or_terms, "{\"metadata\": {\"name\": \"n2\", \"labels\": {\"a\": \"x\"}}}"), 0);

	/* empty terms (neither list, or both empty) match nothing and are no error; so do no terms */
	ck_assert_int_eq(matches("{\"nodeSelectorTerms\": [{}]}", NODE_A), 0);
	ck_assert_int_eq(matches("{\"nodeSelectorTerms\": [{\"matchExpressions\": [], \"matchFields\": []}]}", NODE_A),
			 0);
	ck_assert_int_eq(matches("{\"nodeSelectorTerms\": []}", NODE_A), 0);
	ck_assert_int_eq(matches("{}", NODE_A), 0);
	/* ... but do not stop a later term from matching */
	ck_assert_int_eq(matches("{\"nodeSelectorTerms\": [{}, {\"matchExpressions\": [{\"key\": \"a\", \"operator\": "
				 "\"Exists\"}]}]}",
				 NODE_A),
			 1);
	/* a nil node ("null" or no document) matches nothing, without error */
	ck_assert_int_eq(matches(by_name, "null"), 0);
	ck_assert_int_eq(matches(by_name, ""), 0);
	/* err may be NULL */
	int out = -1;
	ck_assert_int_eq(ds_node_selector_matches(by_name, NODE_A, &out, NULL), 0);
	ck_assert_int_eq(out, 1);
}
END_TEST

#define BAD_OP_TERM "{\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"Bad\"}]}"
#define BAD_OP_MSG                                                                                                     \
	"nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: \"Bad\": supported values: \"In\", "    \
	"\"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\""

START_TEST(node_selector_invalid_terms)
{
	ds_error err;
	int out;
	/* an invalid term never matches; when another term matches, that is the answer and no error */
	ck_assert_int_eq(matches("{\"nodeSelectorTerms\": [" BAD_OP_TERM ", {\"matchExpressions\": [{\"key\": \"a\", "
				 "\"operator\": \"In\", \"values\": [\"x\"]}]}]}",
				 NODE_A),
			 1);
	/* when nothing matched, its parse error is the result (LazyErrorNodeSelector.Match) */
	ck_assert_int_eq(nsm("{\"nodeSelectorTerms\": [" BAD_OP_TERM ", {\"matchExpressions\": [{\"key\": \"a\", "
			     "\"operator\": \"In\", \"values\": [\"y\"]}]}]}",
			     NODE_A, &out, &err),
			 DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "nodeSelectorTerms[0].matchExpressions[0].operator");
	ck_assert_str_eq(err.message, BAD_OP_MSG);
	ck_assert_str_eq(err.source, "node_selector");
	/* even against a node no valid term could match, the error is reported */
	ck_assert_int_eq(nsm("{\"nodeSelectorTerms\": [" BAD_OP_TERM "]}", "{}", &out, &err), DS_EVALUE);
	ck_assert_str_eq(err.message, BAD_OP_MSG);
	/* but a nil node short-cuts everything, as upstream */
	ck_assert_int_eq(matches("{\"nodeSelectorTerms\": [" BAD_OP_TERM "]}", "null"), 0);

	/* matchFields: In/NotIn only, exactly one value */
	ck_assert_int_eq(nsm("{\"nodeSelectorTerms\": [{\"matchFields\": [{\"key\": \"metadata.name\", \"operator\": "
			     "\"In\", \"values\": [\"n1\", \"n2\"]}]}]}",
			     NODE_A, &out, &err),
			 DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "nodeSelectorTerms[0].matchFields[0].values");
	ck_assert_str_eq(err.message, "nodeSelectorTerms[0].matchFields[0].values: Invalid value: [\"n1\",\"n2\"]: "
				      "must have one element");
	ck_assert_int_eq(nsm("{\"nodeSelectorTerms\": [{\"matchFields\": [{\"key\": \"metadata.name\", \"operator\": "
			     "\"Exists\"}]}]}",
			     NODE_A, &out, &err),
			 DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "nodeSelectorTerms[0].matchFields[0].operator");
	ck_assert_str_eq(err.message, "nodeSelectorTerms[0].matchFields[0].operator: Unsupported value: \"Exists\": "
				      "supported values: \"In\", \"NotIn\"");

	/* Gt/Lt values: exactly one, an integer by strconv.ParseInt ("02" yes, " 1" no) */
	char buf[512];
	ck_assert_int_eq(matches(one_expr(buf, sizeof(buf), "n", "Lt", "[\"03\"]"), NODE_A), 1);
	ck_assert_int_eq(nsm(one_expr(buf, sizeof(buf), "n", "Gt", "[\"1x\"]"), NODE_A, &out, &err), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "nodeSelectorTerms[0].matchExpressions[0].values[0]");
	ck_assert_str_eq(err.message, "nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: \"1x\": "
				      "for 'Gt', 'Lt' operators, the value must be an integer");
	ck_assert_int_eq(nsm(one_expr(buf, sizeof(buf), "n", "Gt", "[\" 1\"]"), NODE_A, &out, &err), DS_EVALUE);
	ck_assert_ptr_nonnull(strstr(err.message, "values[0]: Invalid value: \" 1\": for 'Gt', 'Lt' operators, the "
						  "value must be an integer"));
	/* the value must also be a label value: no sign (upstream checks it at path values[0][<key>]) */
	ck_assert_int_eq(nsm(one_expr(buf, sizeof(buf), "n", "Lt", "[\"-5\"]"), NODE_A, &out, &err), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "nodeSelectorTerms[0].matchExpressions[0].values[0][n]");
	const char *neg = "nodeSelectorTerms[0].matchExpressions[0].values[0][n]: Invalid value: \"-5\": a valid label "
			  "must be an empty string or consist of alphanumeric characters";
	ck_assert_int_eq(strncmp(err.message, neg, strlen(neg)), 0);
	ck_assert_int_eq(nsm(one_expr(buf, sizeof(buf), "n", "Lt", "[\"99999999999999999999\"]"), NODE_A, &out, &err),
			 DS_EVALUE);
	ck_assert_ptr_nonnull(strstr(err.message, "the value must be an integer"));
	ck_assert_int_eq(nsm(one_expr(buf, sizeof(buf), "n", "Lt", NULL), NODE_A, &out, &err), DS_EVALUE);
	ck_assert_str_eq(err.message, "nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: null: for 'Gt', "
				      "'Lt' operators, exactly one value is required");
	ck_assert_int_eq(nsm(one_expr(buf, sizeof(buf), "a", "Exists", "[\"x\"]"), NODE_A, &out, &err), DS_EVALUE);
	ck_assert_str_eq(err.message, "nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: [\"x\"]: values "
				      "set must be empty for exists and does not exist");

	/* several errors, of one requirement and of several terms: one flattened aggregate, terms in order */
	ck_assert_int_eq(nsm("{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"n\", \"operator\": \"Gt\", "
			     "\"values\": [\"1\", \"x\"]}]}, {}, " BAD_OP_TERM "]}",
			     NODE_A, &out, &err),
			 DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "nodeSelectorTerms[0].matchExpressions[0].values");
	const char *agg =
		"[nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: [\"1\",\"x\"]: for 'Gt', 'Lt' "
		"operators, exactly one value is required, nodeSelectorTerms[0].matchExpressions[0].values[1]: "
		"Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer, "
		"nodeSelectorTerms[2].matchExpressions[0].operator: Unsupported value: \"Bad\": supported "
		"values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\"]";
	/* the message is cut to the size of ds_error's buffer */
	ck_assert_uint_eq(strlen(err.message), sizeof(err.message) - 1);
	ck_assert_int_eq(strncmp(err.message, agg, sizeof(err.message) - 1), 0);
	ck_assert_int_eq(nsm("{\"nodeSelectorTerms\": [{\"matchFields\": [{\"key\": \"metadata.name\", \"operator\": "
			     "\"NotIn\"}]}, " BAD_OP_TERM "]}",
			     NODE_A, &out, &err),
			 DS_EVALUE);
	ck_assert_str_eq(err.message,
			 "[nodeSelectorTerms[0].matchFields[0].values: Invalid value: null: must have one "
			 "element, nodeSelectorTerms[1].matchExpressions[0].operator: Unsupported value: "
			 "\"Bad\": supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", "
			 "\"Lt\"]");
}
END_TEST

START_TEST(node_selector_bad_input)
{
	ds_error err;
	int out;
#define OK_SEL "{\"nodeSelectorTerms\": []}"
	const char *ok = OK_SEL;
	ck_assert_int_eq(ds_node_selector_matches(NULL, NODE_A, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_node_selector_matches(ok, NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_node_selector_matches(ok, NODE_A, NULL, &err), DS_EARG);
	ck_assert_int_eq(ds_node_selector_matches(NULL, NULL, NULL, NULL), DS_EARG);

	/* syntax errors carry the position */
	ck_assert_int_eq(nsm("{\n  \"nodeSelectorTerms\": [\n    {,]}", NODE_A, &out, &err), DS_ESYNTAX);
	ck_assert_int_eq(err.line, 3);
	ck_assert_int_gt(err.column, 0);
	ck_assert_str_eq(err.source, "node_selector");
	ck_assert_int_eq(nsm(ok, "{\"metadata\": ", &out, &err), DS_ESYNTAX);
	ck_assert_str_eq(err.source, "node");
	ck_assert_int_eq(nsm("", NODE_A, &out, &err), DS_EMISSING);

	/* wrong types, at their JSON path from the document's root */
	static const struct {
		const char *sel, *node, *path;
	} rows[] = {
		{"[]", NODE_A, ""},
		{"\"x\"", NODE_A, ""},
		{"{\"nodeSelectorTerms\": {}}", NODE_A, "nodeSelectorTerms"},
		{"{\"nodeSelectorTerms\": [7]}", NODE_A, "nodeSelectorTerms[0]"},
		{"{\"nodeSelectorTerms\": [{}, {\"matchExpressions\": {}}]}", NODE_A,
		 "nodeSelectorTerms[1].matchExpressions"},
		{"{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": 1}]}]}", NODE_A,
		 "nodeSelectorTerms[0].matchExpressions[0].key"},
		{"{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"In\", \"values\": "
		 "[\"x\", "
		 "2]}]}]}",
		 NODE_A, "nodeSelectorTerms[0].matchExpressions[0].values[1]"},
		{"{\"nodeSelectorTerms\": [{\"matchFields\": [{\"key\": \"metadata.name\", \"operator\": true}]}]}",
		 NODE_A, "nodeSelectorTerms[0].matchFields[0].operator"},
		{OK_SEL, "[]", ""},
		{OK_SEL, "{\"metadata\": []}", "metadata"},
		{OK_SEL, "{\"metadata\": {\"name\": 5}}", "metadata.name"},
		{OK_SEL, "{\"metadata\": {\"labels\": {\"a\": 1}}}", "metadata.labels.a"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ck_assert_msg(nsm(rows[i].sel, rows[i].node, &out, &err) == DS_ETYPE, "row %zu: %d %s", i, err.code,
			      err.message);
		ck_assert_error(err, DS_ETYPE, rows[i].path);
		ck_assert_str_eq(err.source, i < 8 ? "node_selector" : "node");
	}

	/* hostile text: every prefix of a valid pair, and random byte changes, give 0/1 or an error, never a crash */
	const char *sel = "{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"n\", \"operator\": \"Gt\", "
			  "\"values\": [\"1\"]}], \"matchFields\": [{\"key\": \"metadata.name\", \"operator\": \"In\", "
			  "\"values\": [\"n1\"]}]}]}";
	char buf[512], nbuf[256];
	size_t len = strlen(sel);
	for (size_t cut = 0; cut < len; cut++) {
		memcpy(buf, sel, cut);
		buf[cut] = '\0';
		int rc = nsm(buf, NODE_A, &out, &err);
		ck_assert_msg(rc == 0 || (rc < 0 && rc != DS_ENOMEM && err.message[0]), "cut %zu: rc %d", cut, rc);
	}
	static const char alphabet[] = "{}[]\":,x0 -\\\n\xc3";
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	for (int i = 0; i < 3000; i++) {
		strcpy(buf, sel);
		strcpy(nbuf, NODE_A);
		for (int k = 0; k < 3; k++) {
			uint64_t r = dsi_test_rand(&seed);
			buf[r % len] = alphabet[(r >> 20) % (sizeof(alphabet) - 1)];
			nbuf[(r >> 40) % strlen(NODE_A)] = alphabet[(r >> 8) % (sizeof(alphabet) - 1)];
		}
		int rc = nsm(buf, i % 2 ? nbuf : NODE_A, &out, &err);
		ck_assert_msg(rc == 0 || (rc < 0 && rc != DS_ENOMEM && err.message[0]), "'%s': rc %d", buf, rc);
	}
}
END_TEST

static Suite *selector_suite(void)
{
	Suite *s = suite_create("selector");
	TCase *tc = tcase_create("selector");
	tcase_add_test(tc, parse_and_string);
	tcase_add_test(tc, parse_errors);
	tcase_add_test(tc, parse_and_match);
	tcase_add_test(tc, requirements);
	tcase_add_test(tc, label_selector_as_selector);
	tcase_add_test(tc, selector_member);
	tcase_add_test(tc, requirement_direct);
	tcase_add_test(tc, garbage_in);
	tcase_add_test(tc, labels_get_hinted_agrees);
	suite_add_tcase(s, tc);
	TCase *ns = tcase_create("node_selector");
	tcase_add_test(ns, node_selector_operators);
	tcase_add_test(ns, node_selector_terms_and_fields);
	tcase_add_test(ns, node_selector_invalid_terms);
	tcase_add_test(ns, node_selector_bad_input);
	suite_add_tcase(s, ns);
	return s;
}

DSI_TEST_MAIN(selector_suite)
