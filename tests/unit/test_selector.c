/* Label selectors: labels.Parse, NewRequirement, LabelSelectorAsSelector, Matches, String
 * (tests/vectors/values/selector.json, label_selector.json). */
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
		ck_assert_int_eq(dsi_selector_is_everything(&s), str(row, "in")[strspn(str(row, "in"), " \t\r\n")] == '\0');
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
		ck_assert_msg(dsi_selector_parse(&rd, &atoms, str(row, "selector"), &s) == 0, "%s: %s", str(row, "selector"),
			      err.message);
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
	} ops[] = {{"In", DSI_SEL_IN},         {"NotIn", DSI_SEL_NOT_IN},          {"Exists", DSI_SEL_EXISTS},
		   {"DoesNotExist", DSI_SEL_DOES_NOT_EXIST}, {"Equals", DSI_SEL_EQUALS}, {"NotEquals", DSI_SEL_NOT_EQUALS},
		   {"Gt", DSI_SEL_GT},         {"Lt", DSI_SEL_LT},                 {"DoubleEquals", DSI_SEL_DOUBLE_EQUALS}};
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
			ck_assert_int_eq(dsi_selector_is_everything(&s), json_is_true(json_object_get(row, "everything")));
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
	json_t *obj = json_loads("{\"spec\": {\"selector\": {\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"In\", "
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
	static const char *const pieces[] = {"a",  "b.c/d", "x", "=",     "==", "!=", "!",  "(",  ")",  ",",   " ",
					     "in", "notin", "<", ">",     "1",  "-2", "",   "\t", "*", "\xc3", "a b"};
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
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(selector_suite)
