/* IntOrString: GetScaledValueFromIntOrPercent, UnmarshalJSON and Parse (tests/vectors/values/intstr.json). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "harness.h"
#include "model/intstr.h"

#define VECTORS "tests/vectors/values/intstr.json"

START_TEST(scaled_table)
{
	json_t *doc = dsi_test_load_json(VECTORS), *row;
	size_t i;
	json_array_foreach(dsi_test_rows(doc, "scaled"), i, row)
	{
		json_t *value = json_object_get(row, "value");
		char *shown = json_dumps(value, JSON_ENCODE_ANY);
		dsi_intstr v;
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		int present = 0;
		ck_assert_int_eq(dsi_intstr_from_json(&rd, value, &v, &present), 0);
		ck_assert_int_eq(present, 1);
		int out = -12345;
		ds_error_clear(&err);
		int rc = dsi_intstr_scaled(&v, (int)json_integer_value(json_object_get(row, "total")),
					   json_is_true(json_object_get(row, "round_up")), &out, &err);
		json_t *want = json_object_get(row, "out"), *msg = json_object_get(row, "error"),
		       *code = json_object_get(row, "code");
		if (want) {
			ck_assert_msg(rc == 0, "%s: %s", shown, err.message);
			ck_assert_msg(out == json_integer_value(want), "%s of %lld: %d", shown,
				      (long long)json_integer_value(json_object_get(row, "total")), out);
		} else if (msg) {
			ck_assert_msg(rc == DS_EVALUE, "%s: rc %d", shown, rc);
			ck_assert_str_eq(err.message, json_string_value(msg));
			ck_assert_str_eq(err.path, "");
			ck_assert_int_eq(out, 0);
		} else {
			ck_assert_int_eq(rc, dsi_test_code(json_string_value(code)));
			ck_assert_msg(err.message[0], "no message");
		}
		free(shown);
	}
	json_decref(doc);
}
END_TEST

START_TEST(json_forms)
{
	json_t *doc = dsi_test_load_json(VECTORS), *row;
	size_t i;
	json_array_foreach(dsi_test_rows(doc, "json_errors"), i, row)
	{
		const char *text = json_string_value(json_object_get(row, "json"));
		json_t *obj = json_pack("{s:o}", "maxSurge", json_loads(text, JSON_DECODE_ANY, NULL));
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		dsi_rd_push(&rd, "spec");
		dsi_intstr v;
		int present = -1, want = dsi_test_code(json_string_value(json_object_get(row, "code")));
		int rc = dsi_intstr_read(&rd, obj, "maxSurge", &v, &present);
		if (want == DS_EMISSING) {
			/* null is a nil *IntOrString: absent, and scaling it is upstream's error */
			ck_assert_int_eq(rc, 0);
			ck_assert_int_eq(present, 0);
			int out;
			ck_assert_int_eq(dsi_intstr_scaled(NULL, 1, 1, &out, &err), DS_EMISSING);
			ck_assert_str_eq(err.message, json_string_value(json_object_get(row, "message")));
		} else {
			ck_assert_msg(rc == want, "%s: rc %d", text, rc);
			ck_assert_error(err, want, "spec.maxSurge");
		}
		ck_assert_str_eq(rd.path, "spec");
		json_decref(obj);
	}
	json_array_foreach(dsi_test_rows(doc, "unmarshal"), i, row)
	{
		json_t *obj = json_loads(json_string_value(json_object_get(row, "json")), 0, NULL);
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		dsi_intstr v;
		int present;
		ck_assert_int_eq(dsi_intstr_read(&rd, obj, "val", &v, &present), 0);
		ck_assert_int_eq(present, 1);
		ck_assert_int_eq(v.is_string, json_is_true(json_object_get(row, "is_string")));
		if (v.is_string)
			ck_assert_str_eq(v.text, json_string_value(json_object_get(row, "string")));
		else
			ck_assert_int_eq(v.ival, json_integer_value(json_object_get(row, "int")));
		json_t *back = dsi_intstr_to_json(&v);
		ck_assert(json_equal(back, json_object_get(obj, "val")));
		json_decref(back);
		json_decref(obj);
	}
	json_decref(doc);
}
END_TEST

START_TEST(parse_text)
{
	json_t *doc = dsi_test_load_json(VECTORS), *row;
	size_t i;
	json_array_foreach(dsi_test_rows(doc, "parse"), i, row)
	{
		const char *in = json_string_value(json_object_get(row, "in"));
		dsi_intstr v;
		ds_error err;
		ck_assert_int_eq(dsi_intstr_parse_text(in, &v, &err), 0);
		ck_assert_msg(v.is_string == json_is_true(json_object_get(row, "is_string")), "%s", in);
		if (v.is_string)
			ck_assert_str_eq(v.text, in);
		else
			ck_assert_int_eq(v.ival, strtol(in, NULL, 10));
	}
	dsi_intstr v;
	ds_error err;
	ck_assert_int_eq(dsi_intstr_parse_text(NULL, &v, &err), DS_EARG);
	/* an option "25%" scales like the API field */
	ck_assert_int_eq(dsi_intstr_parse_text("25%", &v, &err), 0);
	int out;
	ck_assert_int_eq(dsi_intstr_scaled(&v, 10, 1, &out, &err), 0);
	ck_assert_int_eq(out, 3);
	json_decref(doc);
}
END_TEST

START_TEST(long_strings_are_truncated_in_messages)
{
	char text[300];
	memset(text, '7', sizeof(text) - 2);
	text[sizeof(text) - 2] = 'x';
	text[sizeof(text) - 1] = '\0';
	dsi_intstr v;
	ds_error err;
	ck_assert_int_eq(dsi_intstr_parse_text(text, &v, &err), 0);
	ck_assert(v.is_string && v.truncated && strlen(v.text) == DSI_INTSTR_TEXT_MAX - 1);
	int out;
	ck_assert_int_eq(dsi_intstr_scaled(&v, 10, 1, &out, &err), DS_EVALUE);
	ck_assert_str_eq(err.message, "invalid value for IntOrString: invalid type: string is not a percentage");
	text[sizeof(text) - 2] = '%';
	ck_assert_int_eq(dsi_intstr_parse_text(text, &v, &err), 0);
	ck_assert_int_eq(v.atoi, 2); /* the whole text was parsed, not the kept prefix */
	ck_assert_int_eq(dsi_intstr_scaled(&v, 10, 1, &out, &err), DS_EVALUE);
	ck_assert_msg(strstr(err.message, "...\"") != NULL, "%s", err.message);
	ck_assert_msg(strncmp(err.message, "invalid value for IntOrString: invalid value \"777", 49) == 0, "%s",
		      err.message);
}
END_TEST

/* strconv.ParseInt(s, 10, 64): what Atoi reports, and the value it returns with it. */
START_TEST(go_parse_int64)
{
	static const struct {
		const char *s;
		int rc;
		int64_t v;
	} cases[] = {
		{"0", 0, 0},
		{"+7", 0, 7},
		{"-9223372036854775808", 0, INT64_MIN},
		{"9223372036854775807", 0, INT64_MAX},
		{"9223372036854775808", 2, INT64_MAX},
		{"-9223372036854775809", 2, INT64_MIN},
		/* only a uint64 overflow is reported before the rest is read: */
		{"9223372036854775808x", 1, 0},
		{"99999999999999999999x", 2, INT64_MAX},
		{"", 1, 0},
		{"-", 1, 0},
		{"1_000", 1, 0},
		{" 1", 1, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = 42;
		int rc = dsi_go_parse_int64(cases[i].s, strlen(cases[i].s), &v);
		ck_assert_msg(rc == cases[i].rc && v == cases[i].v, "%s: rc %d value %lld", cases[i].s, rc,
			      (long long)v);
	}
}
END_TEST

static Suite *intstr_suite(void)
{
	Suite *s = suite_create("intstr");
	TCase *tc = tcase_create("intstr");
	tcase_add_test(tc, scaled_table);
	tcase_add_test(tc, json_forms);
	tcase_add_test(tc, parse_text);
	tcase_add_test(tc, long_strings_are_truncated_in_messages);
	tcase_add_test(tc, go_parse_int64);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(intstr_suite)
