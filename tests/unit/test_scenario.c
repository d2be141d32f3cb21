/* The scenario runner: the shipped scenarios pass, and failures, typos and broken files are reported. */
#include <jansson.h>
#include <string.h>

#include "harness.h"

static json_t *run_text(const char *text)
{
	char *out;
	ds_error err;
	ck_assert_msg(ds_scenario_run(text, strlen(text), "examples/scenarios", NULL, &out, &err) == 0, "%s", err.message);
	json_t *j = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_ptr_nonnull(j);
	return j;
}

static const json_t *scenario(const json_t *res, size_t i) { return json_array_get(json_object_get(res, "scenarios"), i); }

static const char *first_failure(const json_t *sc)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(sc, "checks"), i, c)
	{
		json_t *f = json_array_get(json_object_get(c, "failures"), 0);
		if (f)
			return json_string_value(f);
	}
	return NULL;
}

START_TEST(shipped_scenarios_pass)
{
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_scenario_run_file("examples/scenarios", NULL, &out, &err), 0);
	json_t *j = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "failed")), 0);
	ck_assert_int_ge(json_integer_value(json_object_get(j, "passed")), 6);
	json_decref(j);
}
END_TEST

START_TEST(failures_are_reported)
{
	json_t *j = run_text("name: wrong on purpose\nload: ../cluster\nnow: 2026-12-02T15:00:00Z\nchecks:\n"
			     "- explain: kube-system/fluentd-logging\n  placed: [cp-1]\n"
			     "- plan: kube-system/fluentd-logging\n  creates: 3\n"
			     "- rollout: kube-system/fluentd-logging\n  durationSeconds: {max: 5}\n");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "failed")), 1);
	const json_t *sc = scenario(j, 0);
	ck_assert(json_is_false(json_object_get(sc, "passed")));
	json_t *checks = json_object_get(sc, "checks");
	ck_assert_uint_eq(json_array_size(checks), 3);
	/* each failing check says what it got and what was wanted */
	const char *f0 = json_string_value(json_array_get(json_object_get(json_array_get(checks, 0), "failures"), 0));
	ck_assert_str_eq(f0, "placed: missing cp-1");
	const char *f1 = json_string_value(json_array_get(json_object_get(json_array_get(checks, 1), "failures"), 0));
	ck_assert_str_eq(f1, "creates: 1, want 3");
	const char *f2 = json_string_value(json_array_get(json_object_get(json_array_get(checks, 2), "failures"), 0));
	ck_assert_str_eq(f2, "durationSeconds: 25, want at most 5");
	json_decref(j);
}
END_TEST

START_TEST(typos_and_bad_scenarios_fail)
{
	json_t *j = run_text("load: ../cluster\nnow: 2026-12-02T15:00:00Z\nchecks:\n- explain: kube-system/fluentd-logging\n"
			     "  placd: [worker-1]\n");
	ck_assert_str_eq(first_failure(scenario(j, 0)), "unknown field \"placd\" for a explain check");
	json_decref(j);
	j = run_text("load: ../cluster\nnow: 2026-12-02T15:00:00Z\nchecks:\n- frobnicate: x\n");
	ck_assert_ptr_nonnull(strstr(first_failure(scenario(j, 0)), "expected one of explain"));
	json_decref(j);
	j = run_text("load: ../cluster\nchecks:\n- plan: kube-system/fluentd-logging\n");
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(scenario(j, 0), "error")), "needs now"));
	json_decref(j);
	j = run_text("load: ../no-such-dir\nnow: 2026-12-02T15:00:00Z\nchecks:\n- plan: x/y\n");
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(scenario(j, 0), "error")), "cannot open"));
	json_decref(j);
	/* a check against an unknown DaemonSet fails with the library's error */
	j = run_text("load: ../cluster\nnow: 2026-12-02T15:00:00Z\nchecks:\n- plan: kube-system/nope\n");
	ck_assert_ptr_nonnull(strstr(first_failure(scenario(j, 0)), "DS_ENOTFOUND"));
	json_decref(j);
	/* several documents are several scenarios */
	j = run_text("name: a\nnow: 2026-12-02T15:00:00Z\nload: ../cluster\nchecks:\n- status: kube-system/fluentd-logging\n"
		     "  desiredNumberScheduled: 4\n---\nname: b\nnow: 2026-12-02T15:00:00Z\nload: ../cluster\nchecks:\n"
		     "- status: kube-system/fluentd-logging\n  desiredNumberScheduled: 5\n");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "passed")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "failed")), 1);
	json_decref(j);
}
END_TEST

START_TEST(bad_arguments)
{
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_scenario_run(NULL, 0, NULL, NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_scenario_run_file("tests/vectors/no-such-file.yaml", NULL, &out, &err), DS_EIO);
	/* a file that is not YAML is a failed scenario with the syntax error, not an aborted run */
	ck_assert_int_eq(ds_scenario_run("checks: [unclosed", 17, NULL, NULL, &out, &err), DS_ESYNTAX);
	ck_assert_int_gt(err.line, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *tc = tcase_create("runner");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, shipped_scenarios_pass);
	tcase_add_test(tc, failures_are_reported);
	tcase_add_test(tc, typos_and_bad_scenarios_fail);
	tcase_add_test(tc, bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
