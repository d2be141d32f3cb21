/*
 * The reasons a node fails on are never dropped silently (lib/sched/fit.h keeps a fixed number of
 * them): a pod that fails on more reasons than fit gets every one it can and a final "Omitted"
 * entry counting the rest, in ds_scheduler_filter(3) and in explain; and every extended resource
 * a pod requests is checked, however many it requests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* A pod requesting n extended resources example.com/rNN (1 each), in the order of their names. */
static char *pod_requesting(int n)
{
	size_t cap = 256 + (size_t)n * 40, len = 0;
	char *s = malloc(cap);
	ck_assert_ptr_nonnull(s);
	len += (size_t)snprintf(s + len, cap - len,
				"{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\"}, \"spec\": {\"containers\": "
				"[{\"name\": \"c\", \"image\": \"i\", \"resources\": {\"requests\": {");
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, "%s\"example.com/r%02d\": \"1\"", i ? ", " : "", i);
	snprintf(s + len, cap - len, "}}}]}}");
	return s;
}

/* A node with room for pods and n of the pod's extended resources (r00 .. r(n-1)), 1 each. */
static char *node_with(int n)
{
	size_t cap = 256 + (size_t)n * 40, len = 0;
	char *s = malloc(cap);
	ck_assert_ptr_nonnull(s);
	len += (size_t)snprintf(s + len, cap - len,
				"{\"metadata\": {\"name\": \"n1\"}, \"status\": {\"allocatable\": {\"pods\": \"10\"");
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, ", \"example.com/r%02d\": \"1\"", i);
	snprintf(s + len, cap - len, "}}}");
	return s;
}

static json_t *filter(const char *pod, const char *node)
{
	char *out = NULL;
	ds_error err;
	ck_assert_int_eq(ds_scheduler_filter(pod, strlen(pod), node, strlen(node), NULL, 0, NULL, &out, &err), 0);
	return dsi_test_take_json(out);
}

/* 20 insufficient resources: the kept reasons and the counted rest add up to 20. */
START_TEST(more_reasons_than_kept)
{
	char *pod = pod_requesting(20), *node = node_with(0);
	json_t *got = filter(pod, node);
	ck_assert(json_is_false(json_object_get(got, "fits")));
	const json_t *reasons = json_object_get(got, "reasons");
	size_t n = json_array_size(reasons), listed = 0;
	ck_assert_uint_ge(n, 2);
	for (size_t i = 0; i + 1 < n; i++) {
		const json_t *r = json_array_get(reasons, i);
		char want[64];
		snprintf(want, sizeof(want), "Insufficient example.com/r%02zu", i);
		ck_assert_str_eq(json_string_value(json_object_get(r, "message")), want);
		/* more than the node has at all: preemption cannot help */
		ck_assert_str_eq(json_string_value(json_object_get(r, "code")), "UnschedulableAndUnresolvable");
		listed++;
	}
	const json_t *last = json_array_get(reasons, n - 1);
	ck_assert_str_eq(json_string_value(json_object_get(last, "code")), "Omitted");
	json_int_t omitted = json_integer_value(json_object_get(last, "omitted"));
	ck_assert_int_eq((json_int_t)listed + omitted, 20);
	char msg[64];
	snprintf(msg, sizeof(msg), "and %lld more reasons", (long long)omitted);
	ck_assert_str_eq(json_string_value(json_object_get(last, "message")), msg);
	ck_assert_str_eq(json_string_value(json_object_get(last, "plugin")), "NodeResourcesFit");
	json_decref(got);
	/* a node with all 20: no reason, and no Omitted entry */
	free(node);
	node = node_with(20);
	got = filter(pod, node);
	ck_assert(json_is_true(json_object_get(got, "fits")));
	ck_assert_int_eq(json_array_size(json_object_get(got, "reasons")), 0);
	json_decref(got);
	free(pod);
	free(node);
}
END_TEST

/* 70 extended resources, the node has all but the last: that one is checked too. */
START_TEST(every_extended_resource_checked)
{
	char *pod = pod_requesting(70), *node = node_with(69);
	json_t *got = filter(pod, node);
	ck_assert(json_is_false(json_object_get(got, "fits")));
	const json_t *reasons = json_object_get(got, "reasons");
	ck_assert_int_eq(json_array_size(reasons), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(reasons, 0), "message")),
			 "Insufficient example.com/r69");
	json_decref(got);
	free(pod);
	free(node);
}
END_TEST

/* explain: the node's scheduler reasons end with the same count. */
START_TEST(explain_counts_omitted)
{
	char *pod = pod_requesting(20);
	/* the pod's spec, as the DaemonSet's template */
	const char *spec = strstr(pod, "{\"containers\"");
	char text[4096];
	snprintf(
		text, sizeof(text),
		"{\"kind\": \"List\", \"apiVersion\": \"v1\", \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"Node\", "
		"\"metadata\": {\"name\": \"n1\"}, \"status\": {\"allocatable\": {\"pods\": \"10\"}}}, "
		"{\"apiVersion\": \"apps/v1\", \"kind\": \"DaemonSet\", \"metadata\": {\"name\": \"ds\", "
		"\"namespace\": "
		"\"d\", \"uid\": \"u\"}, \"spec\": {\"selector\": {\"matchLabels\": {\"a\": \"b\"}}, \"template\": "
		"{\"metadata\": {\"labels\": {\"a\": \"b\"}}, \"spec\": %.*s}}}]}",
		(int)(strlen(spec) - 1), spec);
	ds_cluster *cl = dsi_test_cluster_text(text);
	char *out = NULL;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_explain(cl, "d", "ds", NULL, &out, &err), 0);
	json_t *doc = dsi_test_take_json(out);
	const json_t *row = json_array_get(json_object_get(doc, "rows"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(row, "status")), "unschedulable");
	const json_t *sched = json_object_get(row, "scheduler");
	size_t n = json_array_size(sched);
	ck_assert_uint_ge(n, 2);
	const json_t *last = json_array_get(sched, n - 1);
	ck_assert_str_eq(json_string_value(json_object_get(last, "code")), "Omitted");
	ck_assert_int_eq((json_int_t)(n - 1) + json_integer_value(json_object_get(last, "omitted")), 20);
	json_decref(doc);
	ds_cluster_free(cl);
	free(pod);
}
END_TEST

static Suite *fit_reasons_suite(void)
{
	Suite *s = suite_create("fit_reasons");
	TCase *tc = tcase_create("reasons");
	tcase_add_test(tc, more_reasons_than_kept);
	tcase_add_test(tc, every_extended_resource_checked);
	tcase_add_test(tc, explain_counts_omitted);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(fit_reasons_suite)
