/* Rollouts: the advanced controls (partition, paused, rollout selector, update order) and the simulator. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/plan.h"
#include "harness.h"

#define T0 "2026-12-02T10:00:00Z"

/* A cluster of n nodes (node-000...), zone label z-(i % zones), each running a Ready pod of
 * revision 1 of DaemonSet ds; the DaemonSet's template is at revision 2 (image v2). */
static ds_cluster *make_cluster(int n, int zones, const char *strategy_json, const char *api)
{
	json_t *items = json_array();
	const char *uid = "uid-ds";
	json_t *tmpl1 = json_pack("{s:{s:{s:s}}, s:{s:[{s:s, s:s}]}}", "metadata", "labels", "app", "agent", "spec",
				  "containers", "name", "agent", "image", "agent:v1");
	json_t *tmpl2 = json_deep_copy(tmpl1);
	json_object_set_new(json_array_get(json_object_get(json_object_get(tmpl2, "spec"), "containers"), 0), "image",
			    json_string("agent:v2"));
	json_t *strategy = json_loads(strategy_json, 0, NULL);
	ck_assert_ptr_nonnull(strategy);
	json_array_append_new(items, json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:I}, s:{s:{s:{s:s}}, s:o, s:o}, s:{s:i}}",
					       "apiVersion", api, "kind", "DaemonSet", "metadata", "name", "ds", "namespace",
					       "default", "uid", uid, "generation", (json_int_t)2, "spec", "selector",
					       "matchLabels", "app", "agent", "template", tmpl2, "updateStrategy", strategy,
					       "status", "desiredNumberScheduled", n));
	/* revision 1 with its own hash label, so that pods can point at it */
	json_t *patch = json_deep_copy(tmpl1);
	json_object_set_new(patch, "$patch", json_string("replace"));
	json_array_append_new(items, json_pack("{s:s, s:s, s:{s:s, s:s, s:{s:s, s:s}, s:[{s:s, s:s, s:s, s:s, s:b}]}, "
					       "s:{s:{s:o}}, s:i}",
					       "apiVersion", "apps/v1", "kind", "ControllerRevision", "metadata", "name",
					       "ds-old1", "namespace", "default", "labels", "app", "agent",
					       "controller-revision-hash", "old1", "ownerReferences", "apiVersion", "apps/v1",
					       "kind", "DaemonSet", "name", "ds", "uid", uid, "controller", 1, "data", "spec",
					       "template", patch, "revision", 1));
	for (int i = 0; i < n; i++) {
		char node[32], zone[16], pod[48];
		snprintf(node, sizeof(node), "node-%03d", i);
		snprintf(zone, sizeof(zone), "z-%d", i % zones);
		snprintf(pod, sizeof(pod), "ds-old-%03d", i);
		json_array_append_new(items, json_pack("{s:s, s:s, s:{s:s, s:{s:s}}, s:{s:{s:s}}}", "apiVersion", "v1",
						       "kind", "Node", "metadata", "name", node, "labels", "zone", zone,
						       "status", "allocatable", "pods", "110"));
		json_array_append_new(
			items, json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:s, s:{s:s, s:s}, s:[{s:s, s:s, s:s, s:s, s:b}]}, "
					 "s:{s:s, s:[{s:s, s:s}]}, s:{s:s, s:[{s:s, s:s, s:s}]}}",
					 "apiVersion", "v1", "kind", "Pod", "metadata", "name", pod, "namespace", "default", "uid",
					 pod, "creationTimestamp", "2026-12-01T00:00:00Z", "labels", "app", "agent",
					 "controller-revision-hash", "old1", "ownerReferences", "apiVersion", "apps/v1", "kind",
					 "DaemonSet", "name", "ds", "uid", uid, "controller", 1, "spec", "nodeName", node,
					 "containers", "name", "agent", "image", "agent:v1", "status", "phase", "Running",
					 "conditions", "type", "Ready", "status", "True", "lastTransitionTime",
					 "2026-12-01T00:00:10Z"));
	}
	json_decref(tmpl1);
	json_t *list = json_pack("{s:s, s:s, s:o}", "apiVersion", "v1", "kind", "List", "items", items);
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	ck_assert_msg(ds_cluster_load_json(c, (const struct json_t *)list, NULL, &err) == 0, "%s: %s", err.path,
		      err.message);
	json_decref(list);
	return c;
}

static json_t *plan_json(ds_cluster *c, ds_options *o)
{
	ds_time now;
	ds_time_parse(T0, &now, NULL);
	ds_plan *p;
	ds_error err;
	ck_assert_msg(ds_plan_sync(c, "default", "ds", now, o, NULL, &p, &err) == 0, "%s", err.message);
	char *text;
	ck_assert_int_eq(ds_plan_to_json(p, &text, &err), 0);
	json_t *j = json_loads(text, 0, NULL);
	ds_free(text);
	ds_plan_free(p);
	return j;
}

static json_t *deleted_nodes(const json_t *plan)
{
	json_t *a = json_array();
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(plan, "deletes"), i, d) json_array_append(a, json_object_get(d, "node"));
	return a;
}

static void assert_nodes(const json_t *got, const char *const *want, size_t n)
{
	char *g = json_dumps(got, JSON_COMPACT);
	ck_assert_msg(json_array_size(got) == n, "got %s", g);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(strcmp(json_string_value(json_array_get(got, i)), want[i]) == 0, "got %s, want %s at %zu", g,
			      want[i], i);
	free(g);
}

START_TEST(upstream_order_is_by_name)
{
	ds_cluster *c = make_cluster(5, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":2}}", "apps/v1");
	json_t *p = plan_json(c, NULL);
	json_t *d = deleted_nodes(p);
	static const char *const want[] = {"node-000", "node-001"};
	assert_nodes(d, want, 2);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(p, "rollingUpdate"), "maxUnavailable")), 2);
	json_decref(d);
	json_decref(p);
	ds_cluster_free(c);
}
END_TEST

START_TEST(kruise_partition_keeps_lowest_names_old)
{
	/* OpenKruise: partition 3 of 5 keeps the old revision on the three lowest names */
	ds_cluster *c = make_cluster(
		5, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":5,\"partition\":3}}",
		"apps.kruise.io/v1beta1");
	json_t *p = plan_json(c, NULL);
	json_t *d = deleted_nodes(p);
	static const char *const want[] = {"node-004", "node-003"};
	assert_nodes(d, want, 2);
	json_t *ru = json_object_get(p, "rollingUpdate");
	ck_assert_int_eq(json_integer_value(json_object_get(ru, "partition")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(ru, "nodesAllowedToUpdate")), 2);
	json_decref(d);
	json_decref(p);
	ds_cluster_free(c);
}
END_TEST

START_TEST(partition_percent_rounds_down_from_status)
{
	/* 50% of status.desiredNumberScheduled 5 is 2 (rounded down): 3 nodes may update */
	ds_cluster *c = make_cluster(
		5, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":5,\"partition\":\"50%\"}}",
		"apps.kruise.io/v1beta1");
	json_t *p = plan_json(c, NULL);
	ck_assert_uint_eq(json_array_size(json_object_get(p, "deletes")), 3);
	json_decref(p);
	ds_cluster_free(c);
}
END_TEST

START_TEST(paused_stops_updates_not_placement)
{
	ds_cluster *c = make_cluster(
		3, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":3,\"paused\":true}}",
		"apps.kruise.io/v1alpha1");
	json_t *p = plan_json(c, NULL);
	ck_assert_uint_eq(json_array_size(json_object_get(p, "deletes")), 0);
	ck_assert(json_is_true(json_object_get(json_object_get(p, "rollingUpdate"), "paused")));
	json_decref(p);
	/* a new node still gets a pod while paused */
	const char *node = "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-new\"},"
			   "\"status\":{\"allocatable\":{\"pods\":\"110\"}}}";
	ds_error err;
	ck_assert_int_eq(ds_cluster_load(c, node, strlen(node), NULL, &err), 0);
	p = plan_json(c, NULL);
	ck_assert_uint_eq(json_array_size(json_object_get(p, "creates")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(p, "creates"), 0), "node")),
			 "node-new");
	json_decref(p);
	ds_cluster_free(c);
}
END_TEST

START_TEST(options_control_an_upstream_daemonset)
{
	ds_cluster *c = make_cluster(6, 3, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":6}}", "apps/v1");
	ds_options *o;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&o), 0);
	/* only zone z-1 (node-001, node-004) may be updated */
	ck_assert_int_eq(ds_options_set(o, "rolloutNodeSelector", "zone=z-1", &err), 0);
	json_t *p = plan_json(c, o);
	json_t *d = deleted_nodes(p);
	static const char *const want1[] = {"node-001", "node-004"};
	assert_nodes(d, want1, 2);
	json_decref(d);
	json_decref(p);
	/* zone by zone: with maxUnavailable 2, zone z-0 first */
	ds_options_free(o);
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set(o, "updateOrder", "label:zone", &err), 0);
	ck_assert_int_eq(ds_options_set(o, "partition", "4", &err), 0);
	p = plan_json(c, o);
	d = deleted_nodes(p);
	static const char *const want2[] = {"node-000", "node-003"};
	assert_nodes(d, want2, 2);
	json_decref(d);
	json_decref(p);
	/* bad option values are errors with the option's name, where they are set */
	ck_assert_int_eq(ds_options_set(o, "updateOrder", "sideways", &err), DS_EVALUE);
	ck_assert_str_eq(err.path, "updateOrder");
	ds_options_free(o);
	ds_cluster_free(c);
}
END_TEST

static json_t *simulate(ds_cluster *c, ds_options *o)
{
	ds_time now;
	ds_time_parse(T0, &now, NULL);
	char *text;
	ds_error err;
	ck_assert_msg(ds_rollout_simulate(c, "default", "ds", now, o, &text, &err) == 0, "%s: %s", err.path, err.message);
	json_t *j = json_loads(text, 0, NULL);
	ds_free(text);
	ck_assert_ptr_nonnull(j);
	return j;
}

static int64_t ival(const json_t *o, const char *k) { return json_integer_value(json_object_get(o, k)); }

START_TEST(simulate_max_unavailable_1000_nodes)
{
	ds_cluster *c = make_cluster(1000, 4, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":25}}",
				     "apps/v1");
	json_t *r = simulate(c, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(r, "result")), "complete");
	ck_assert_int_eq(ival(r, "updated"), 1000);
	ck_assert_int_eq(ival(r, "maxUnavailable"), 25);
	ck_assert_int_le(ival(r, "maxUnavailableSeen"), 25);
	ck_assert_int_gt(ival(r, "maxUnavailableSeen"), 0);
	ck_assert(json_is_false(json_object_get(r, "budgetExceeded")));
	ck_assert_int_eq(ival(r, "deletes"), 1000);
	ck_assert_int_eq(ival(r, "creates"), 1000);
	/* every timeline sample respects the budget, not just the maximum */
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(r, "timeline"), i, s) ck_assert_int_le(ival(s, "unavailable"), 25);
	/* 1000 nodes at 25 at a time: 40 waves of 5 s termination + 10 s to Ready */
	ck_assert(json_real_value(json_object_get(r, "durationSeconds")) == 40 * 15.0);
	ck_assert_uint_eq(json_object_size(json_object_get(r, "nodeUpdatedAt")), 1000);
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

START_TEST(simulate_max_surge_1000_nodes)
{
	ds_cluster *c = make_cluster(
		1000, 4, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":0,\"maxSurge\":\"5%\"}}",
		"apps/v1");
	json_t *r = simulate(c, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(r, "result")), "complete");
	ck_assert_int_eq(ival(r, "maxSurge"), 50);
	ck_assert_int_le(ival(r, "maxSurgeSeen"), 50);
	ck_assert_int_gt(ival(r, "maxSurgeSeen"), 0);
	/* surging never takes an available pod away first */
	ck_assert_int_eq(ival(r, "maxUnavailableSeen"), 0);
	ck_assert(json_is_false(json_object_get(r, "budgetExceeded")));
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(r, "timeline"), i, s)
	{
		ck_assert_int_le(ival(s, "surge"), 50);
		ck_assert_int_eq(ival(s, "unavailable"), 0);
	}
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

START_TEST(simulate_stall_on_a_failing_node)
{
	ds_cluster *c = make_cluster(10, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1}}",
				     "apps/v1");
	ds_options *o;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set(o, "simFailNodes", "node-003", &err), 0);
	json_t *r = simulate(c, o);
	ck_assert_str_eq(json_string_value(json_object_get(r, "result")), "stalled");
	json_t *stall = json_object_get(r, "stall");
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(stall, "reason")), "never become Ready"));
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(stall, "nodes"), 0)), "node-003");
	/* name order: nodes 000-002 were updated before the stuck one */
	ck_assert_int_eq(ival(r, "updated"), 3);
	json_decref(r);
	ds_options_free(o);
	ds_cluster_free(c);
}
END_TEST

START_TEST(simulate_partition_and_pause)
{
	ds_cluster *c = make_cluster(
		8, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":2,\"partition\":5}}",
		"apps.kruise.io/v1beta1");
	json_t *r = simulate(c, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(r, "result")), "stalled");
	ck_assert_int_eq(ival(r, "updated"), 3);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(json_object_get(r, "stall"), "reason")), "partition"));
	json_t *times = json_object_get(r, "nodeUpdatedAt");
	ck_assert_ptr_nonnull(json_object_get(times, "node-007"));
	ck_assert_ptr_null(json_object_get(times, "node-000"));
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

START_TEST(simulate_sample_cluster)
{
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	ck_assert_int_eq(ds_cluster_load_file(c, "examples/cluster", NULL, &err), 0);
	ds_time now;
	ds_time_parse(T0, &now, NULL);
	char *text;
	ck_assert_int_eq(ds_rollout_simulate(c, "kube-system", "fluentd-logging", now, NULL, &text, &err), 0);
	json_t *r = json_loads(text, 0, NULL);
	ds_free(text);
	/* worker-4 gets its pod, worker-2 is replaced: 4 nodes on revision 2 */
	ck_assert_str_eq(json_string_value(json_object_get(r, "result")), "complete");
	ck_assert_int_eq(ival(r, "updated"), 4);
	ck_assert_int_eq(ival(r, "creates"), 2);
	ck_assert_int_eq(ival(r, "deletes"), 1);
	ck_assert(json_is_false(json_object_get(r, "budgetExceeded")));
	/* the snapshot itself is untouched */
	ck_assert_uint_eq(ds_cluster_count(c, "Pod"), 9);
	json_decref(r);
	ck_assert_int_eq(ds_rollout_simulate(c, "kube-system", "nope", now, NULL, &text, &err), DS_ENOTFOUND);
	ds_cluster_free(c);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rollout");
	TCase *tc = tcase_create("controls and simulation");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, upstream_order_is_by_name);
	tcase_add_test(tc, kruise_partition_keeps_lowest_names_old);
	tcase_add_test(tc, partition_percent_rounds_down_from_status);
	tcase_add_test(tc, paused_stops_updates_not_placement);
	tcase_add_test(tc, options_control_an_upstream_daemonset);
	tcase_add_test(tc, simulate_max_unavailable_1000_nodes);
	tcase_add_test(tc, simulate_max_surge_1000_nodes);
	tcase_add_test(tc, simulate_stall_on_a_failing_node);
	tcase_add_test(tc, simulate_partition_and_pause);
	tcase_add_test(tc, simulate_sample_cluster);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
