/* ds_options: typed named settings, validated when set, all-or-nothing JSON. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static char *get(const ds_options *o, const char *name)
{
	char *v = NULL;
	ds_error err;
	ck_assert_msg(ds_options_get(o, name, &v, &err) == 0, "%s: %s", name, err.message);
	return v;
}

static void assert_value(const ds_options *o, const char *name, const char *want)
{
	char *v = get(o, name);
	ck_assert_str_eq(v, want);
	ds_free(v);
}

START_TEST(defaults_read_back)
{
	ds_options *o;
	ck_assert_int_eq(ds_options_new(&o), 0);
	assert_value(o, "burstReplicas", "250");
	assert_value(o, "slowStartInitialBatchSize", "1");
	assert_value(o, "podSecurityLevel", "restricted");
	assert_value(o, "partition", "");
	ds_options_free(o);
}
END_TEST

START_TEST(set_and_get)
{
	ds_options *o;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set(o, "burstReplicas", "50", &err), 0);
	ck_assert_int_eq(ds_options_set(o, "partition", "10%", &err), 0);
	ck_assert_int_eq(ds_options_set(o, "updateOrder", "label:zone", &err), 0);
	assert_value(o, "burstReplicas", "50");
	assert_value(o, "partition", "10%");
	assert_value(o, "updateOrder", "label:zone");
	ck_assert_int_eq(ds_options_set(o, "partition", "0", &err), 0);
	assert_value(o, "partition", "0");
	ds_options_free(o);
}
END_TEST

/* A bad value is refused where it is set, names the option and leaves the old value. */
START_TEST(bad_values_are_refused)
{
	static const struct {
		const char *name, *value;
	} bad[] = {
		{"partition", "x"},        {"partition", "x%"},      {"partition", "-1"},
		{"partition", "-5%"},      {"partition", "1.5"},     {"partition", "99999999999"},
		{"partition", ""},         {"updateOrder", "zone"},  {"updateOrder", "label:"},
		{"burstReplicas", "0"},    {"burstReplicas", "abc"}, {"podSecurityLevel", "strict"},
		{"backoffInitial", "1 h"},
	};
	ds_options *o;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set(o, "partition", "2", &err), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(ds_options_set(o, bad[i].name, bad[i].value, &err) == DS_EVALUE, "%s=%s accepted",
			      bad[i].name, bad[i].value);
		ck_assert_error(err, DS_EVALUE, bad[i].name);
	}
	assert_value(o, "partition", "2");
	ck_assert_int_eq(ds_options_set(o, "noSuchOption", "1", &err), DS_EARG);
	ck_assert_str_eq(err.path, "noSuchOption");
	ds_options_free(o);
}
END_TEST

/* set_json applies all members or none. */
START_TEST(set_json_all_or_nothing)
{
	ds_options *o;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set_json(o, "{\"burstReplicas\": 7, \"partition\": \"x\"}", &err), DS_EVALUE);
	ck_assert_str_eq(err.path, "partition");
	assert_value(o, "burstReplicas", "250");
	ck_assert_int_eq(ds_options_set_json(o, "{\"burstReplicas\": 7, \"partition\": 3}", &err), 0);
	assert_value(o, "burstReplicas", "7");
	assert_value(o, "partition", "3");
	ck_assert_int_lt(ds_options_set_json(o, "[1]", &err), 0);
	ck_assert_int_lt(ds_options_set_json(o, "{", &err), 0);
	ds_options_free(o);
}
END_TEST

static Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("options");
	tcase_add_test(tc, defaults_read_back);
	tcase_add_test(tc, set_and_get);
	tcase_add_test(tc, bad_values_are_refused);
	tcase_add_test(tc, set_json_all_or_nothing);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(options_suite)
