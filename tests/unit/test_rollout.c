/* Rollouts: the advanced controls (partition, paused, rollout selector, update order) and the simulator. */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/syncplan.h"
#include "harness.h"

#define T0 "2026-12-02T10:00:00Z"

/* Changes a test makes to the objects of make_cluster_ex before they are loaded:
 * i is the pod's (and node's) number, -1 for the DaemonSet. */
typedef void (*edit_fn)(json_t *obj, int i);

static ds_cluster *make_cluster_ex(int n, int zones, const char *strategy_json, const char *api, edit_fn edit);

/* A cluster of n nodes (node-000...), zone label z-(i % zones), each running a Ready pod of
 * revision 1 of DaemonSet ds; the DaemonSet's template is at revision 2 (image v2). */
static ds_cluster *make_cluster(int n, int zones, const char *strategy_json, const char *api)
{
	return make_cluster_ex(n, zones, strategy_json, api, NULL);
}

static ds_cluster *make_cluster_ex(int n, int zones, const char *strategy_json, const char *api, edit_fn edit)
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
					       "apiVersion", api, "kind", "DaemonSet", "metadata", "name", "ds",
					       "namespace", "default", "uid", uid, "generation", (json_int_t)2, "spec",
					       "selector", "matchLabels", "app", "agent", "template", tmpl2,
					       "updateStrategy", strategy, "status", "desiredNumberScheduled", n));
	if (edit)
		edit(json_array_get(items, 0), -1);
	/* revision 1 with its own hash label, so that pods can point at it */
	json_t *patch = json_deep_copy(tmpl1);
	json_object_set_new(patch, "$patch", json_string("replace"));
	json_array_append_new(items, json_pack("{s:s, s:s, s:{s:s, s:s, s:{s:s, s:s}, s:[{s:s, s:s, s:s, s:s, s:b}]}, "
					       "s:{s:{s:o}}, s:i}",
					       "apiVersion", "apps/v1", "kind", "ControllerRevision", "metadata",
					       "name", "ds-old1", "namespace", "default", "labels", "app", "agent",
					       "controller-revision-hash", "old1", "ownerReferences", "apiVersion",
					       "apps/v1", "kind", "DaemonSet", "name", "ds", "uid", uid, "controller",
					       1, "data", "spec", "template", patch, "revision", 1));
	for (int i = 0; i < n; i++) {
		char node[32], zone[16], pod[48];
		snprintf(node, sizeof(node), "node-%03d", i);
		snprintf(zone, sizeof(zone), "z-%d", i % zones);
		snprintf(pod, sizeof(pod), "ds-old-%03d", i);
		json_array_append_new(items, json_pack("{s:s, s:s, s:{s:s, s:{s:s}}, s:{s:{s:s}}}", "apiVersion", "v1",
						       "kind", "Node", "metadata", "name", node, "labels", "zone", zone,
						       "status", "allocatable", "pods", "110"));
		json_array_append_new(
			items,
			json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:s, s:{s:s, s:s}, s:[{s:s, s:s, s:s, s:s, s:b}]}, "
				  "s:{s:s, s:[{s:s, s:s}]}, s:{s:s, s:[{s:s, s:s, s:s}]}}",
				  "apiVersion", "v1", "kind", "Pod", "metadata", "name", pod, "namespace", "default",
				  "uid", pod, "creationTimestamp", "2026-12-01T00:00:00Z", "labels", "app", "agent",
				  "controller-revision-hash", "old1", "ownerReferences", "apiVersion", "apps/v1",
				  "kind", "DaemonSet", "name", "ds", "uid", uid, "controller", 1, "spec", "nodeName",
				  node, "containers", "name", "agent", "image", "agent:v1", "status", "phase",
				  "Running", "conditions", "type", "Ready", "status", "True", "lastTransitionTime",
				  "2026-12-01T00:00:10Z"));
		if (edit)
			edit(json_array_get(items, json_array_size(items) - 1), i);
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
		ck_assert_msg(strcmp(json_string_value(json_array_get(got, i)), want[i]) == 0, "got %s, want %s at %zu",
			      g, want[i], i);
	free(g);
}

START_TEST(upstream_order_is_by_name)
{
	ds_cluster *c =
		make_cluster(5, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":2}}", "apps/v1");
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
	ds_cluster *c =
		make_cluster(6, 3, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":6}}", "apps/v1");
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
	ck_assert_msg(ds_rollout_simulate(c, "default", "ds", now, o, &text, &err) == 0, "%s: %s", err.path,
		      err.message);
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
	ds_cluster *c =
		make_cluster(10, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1}}", "apps/v1");
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
	ck_assert_ptr_nonnull(
		strstr(json_string_value(json_object_get(json_object_get(r, "stall"), "reason")), "partition"));
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
	ck_assert_int_eq(ival(r, "maxUnavailableSeen"), 1);
	/* While worker-2's old pod terminates (still Ready) the status counts it available; the
	 * budget does not (rollingUpdate does not see terminating pods): the sample 10 s after T0. */
	size_t i;
	json_t *t;
	int seen = 0;
	json_array_foreach(json_object_get(r, "timeline"), i, t)
	{
		if (strcmp(json_string_value(json_object_get(t, "at")), "2026-12-02T10:00:10Z") != 0)
			continue;
		ck_assert_int_eq(ival(t, "unavailable"), 0);
		ck_assert_int_eq(ival(t, "unavailableForBudget"), 1);
		seen = 1;
	}
	ck_assert(seen);
	/* the snapshot itself is untouched */
	ck_assert_uint_eq(ds_cluster_count(c, "Pod"), 9);
	json_decref(r);
	ck_assert_int_eq(ds_rollout_simulate(c, "kube-system", "nope", now, NULL, &text, &err), DS_ENOTFOUND);
	ds_cluster_free(c);
}
END_TEST

/* ---- the lifecycle model, the budgets, the reasons and simStep ---- */

/* Simulate with options given as name, value pairs (NULL-terminated). */
static json_t *simulate_set(ds_cluster *c, const char *const *settings)
{
	ds_options *o;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&o), 0);
	for (size_t i = 0; settings && settings[i]; i += 2)
		ck_assert_msg(ds_options_set(o, settings[i], settings[i + 1], &err) == 0, "%s: %s", err.path,
			      err.message);
	json_t *r = simulate(c, o);
	ds_options_free(o);
	return r;
}

static const char *result_of(const json_t *r) { return json_string_value(json_object_get(r, "result")); }
static const char *stall_reason(const json_t *r)
{
	const char *s = json_string_value(json_object_get(json_object_get(r, "stall"), "reason"));
	return s ? s : "";
}
static const json_t *stall_nodes(const json_t *r) { return json_object_get(json_object_get(r, "stall"), "nodes"); }
static double seconds(const json_t *r) { return json_real_value(json_object_get(r, "durationSeconds")); }

static json_t *pod_status(json_t *pod) { return json_object_get(pod, "status"); }
static void set_ready(json_t *pod, const char *status)
{
	json_object_set_new(json_array_get(json_object_get(pod_status(pod), "conditions"), 0), "status",
			    json_string(status));
}

/* An event due at the instant it is scheduled is processed, not taken for a stall. */
START_TEST(simulate_zero_durations)
{
	ds_cluster *c =
		make_cluster(10, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":2}}", "apps/v1");
	static const char *const set[] = {"simReadyAfter", "0s", "simTerminateAfter", "0s", NULL};
	json_t *r = simulate_set(c, set);
	ck_assert_msg(strcmp(result_of(r), "complete") == 0, "%s: %s", result_of(r), stall_reason(r));
	ck_assert(seconds(r) == 0.0);
	ck_assert_int_eq(ival(r, "updated"), 10);
	ck_assert_int_eq(ival(r, "deletes"), 10);
	ck_assert_int_eq(ival(r, "creates"), 10);
	ck_assert_int_le(ival(r, "maxUnavailableSeen"), 2);
	ck_assert(json_is_false(json_object_get(r, "budgetExceeded")));
	/* five rounds of two deletes, then two creates: ten waves, all at the start */
	ck_assert_uint_eq(json_array_size(json_object_get(r, "waves")), 10);
	json_decref(r);
	/* one of them alone */
	static const char *const ready0[] = {"simReadyAfter", "0s", NULL};
	r = simulate_set(c, ready0);
	ck_assert_str_eq(result_of(r), "complete");
	ck_assert(seconds(r) == 5 * 5.0); /* 5 waves, each waiting only for termination */
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

/* node-001 gets a NoExecute taint and its old pod is Pending and unbound: the controller
 * deletes it (the node should not run it any more), and an unbound pod goes at once. */
static void unbound_on_tainted_node(json_t *obj, int i)
{
	if (i != 1)
		return;
	if (json_object_get(obj, "kind") && strcmp(json_string_value(json_object_get(obj, "kind")), "Node") == 0) {
		json_object_set_new(obj, "spec",
				    json_pack("{s:[{s:s, s:s}]}", "taints", "key", "dedicated", "effect", "NoExecute"));
		return;
	}
	json_t *spec = json_object_get(obj, "spec");
	json_object_del(spec, "nodeName");
	json_object_set_new(spec, "affinity",
			    json_pack("{s:{s:{s:[{s:[{s:s, s:s, s:[s]}]}]}}}", "nodeAffinity",
				      "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms",
				      "matchFields", "key", "metadata.name", "operator", "In", "values", "node-001"));
	json_object_set_new(obj, "status", json_pack("{s:s}", "phase", "Pending"));
}

START_TEST(simulate_unbound_pod_deleted_at_once)
{
	ds_cluster *c = make_cluster_ex(4, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1}}",
					"apps/v1", unbound_on_tainted_node);
	/* the node's taint: load the node again with it */
	json_t *node =
		json_pack("{s:s, s:s, s:{s:s, s:{s:s}}, s:{s:{s:s}}}", "apiVersion", "v1", "kind", "Node", "metadata",
			  "name", "node-001", "labels", "zone", "z-0", "status", "allocatable", "pods", "110");
	unbound_on_tainted_node(node, 1);
	ds_error err;
	ck_assert_int_eq(ds_cluster_load_json(c, (const struct json_t *)node, NULL, &err), 0);
	json_decref(node);
	json_t *r = simulate(c, NULL);
	ck_assert_msg(strcmp(result_of(r), "complete") == 0, "%s: %s", result_of(r), stall_reason(r));
	ck_assert_int_eq(ival(r, "desired"), 3);
	ck_assert_int_eq(ival(r, "updated"), 3);
	/* the unbound pod is deleted in the first wave, and the rollout goes on from there */
	const json_t *first = json_array_get(json_object_get(r, "waves"), 0);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(first, "deletes"), 0)), "ds-old-001");
	ck_assert(seconds(r) == 3 * 15.0);
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

static void onDelete_one_not_ready(json_t *obj, int i)
{
	if (i == 2)
		set_ready(obj, "False");
}

/* budgetExceeded needs a rolling update to exceed: OnDelete has no budget. */
START_TEST(simulate_on_delete_has_no_budget)
{
	ds_cluster *c = make_cluster_ex(4, 1, "{\"type\":\"OnDelete\"}", "apps/v1", onDelete_one_not_ready);
	json_t *r = simulate(c, NULL);
	ck_assert_str_eq(result_of(r), "stalled");
	ck_assert_msg(strstr(stall_reason(r), "OnDelete") != NULL, "%s", stall_reason(r));
	ck_assert_uint_eq(json_array_size(stall_nodes(r)), 4);
	ck_assert_int_eq(ival(r, "maxUnavailable"), 0);
	ck_assert_int_eq(ival(r, "maxUnavailableSeen"), 1);
	ck_assert_int_eq(ival(r, "initialUnavailable"), 1);
	ck_assert(json_is_false(json_object_get(r, "budgetExceeded")));
	ck_assert_int_eq(ival(r, "deletes"), 0);
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

static void three_not_ready(json_t *obj, int i)
{
	if (i >= 0 && i < 3)
		set_ready(obj, "False");
}

/* rollingUpdate counts pre-existing unavailable pods against maxUnavailable and replaces
 * unavailable old pods at once: 3 unavailable with maxUnavailable 1 is not the controller's doing. */
START_TEST(simulate_preexisting_unavailable_is_not_exceeding)
{
	ds_cluster *c = make_cluster_ex(10, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1}}",
					"apps/v1", three_not_ready);
	json_t *r = simulate(c, NULL);
	ck_assert_str_eq(result_of(r), "complete");
	ck_assert_int_eq(ival(r, "initialUnavailable"), 3);
	ck_assert_int_eq(ival(r, "maxUnavailableSeen"), 3);
	ck_assert(json_is_false(json_object_get(r, "budgetExceeded")));
	/* the three unavailable ones went in the first wave, beyond the budget of 1 */
	ck_assert_uint_eq(json_array_size(json_object_get(json_array_get(json_object_get(r, "waves"), 0), "deletes")),
			  3);
	/* once they are back, never more than 1 at a time: the later samples stay within the budget */
	size_t i;
	json_t *smp;
	int after = 0;
	json_array_foreach(json_object_get(r, "timeline"), i, smp)
	{
		if (ival(smp, "unavailable") == 0)
			after = 1;
		if (after)
			ck_assert_int_le(ival(smp, "unavailable"), 1);
	}
	ck_assert(after);
	json_decref(r);

	ds_cluster_free(c);
}
END_TEST

/* Old pods 000-002 Ready for 10 s of a minReadySeconds of 60: not available yet. */
static void three_not_available(json_t *obj, int i)
{
	if (i < 0)
		json_object_set_new(json_object_get(obj, "spec"), "minReadySeconds", json_integer(60));
	else if (i < 3)
		json_object_set_new(json_array_get(json_object_get(pod_status(obj), "conditions"), 0),
				    "lastTransitionTime", json_string("2026-12-02T09:59:50Z"));
}

/* Surging, rollingUpdate replaces an unavailable old pod at once without counting it against
 * maxSurge: with three unavailable, four nodes surge under a maxSurge of 1, within the rules. */
START_TEST(simulate_surge_replaces_unavailable_beyond_max_surge)
{
	ds_cluster *c = make_cluster_ex(
		10, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":0,\"maxSurge\":1}}",
		"apps/v1", three_not_available);
	json_t *r = simulate(c, NULL);
	ck_assert_int_eq(ival(r, "maxSurge"), 1);
	ck_assert_int_eq(ival(r, "initialUnavailable"), 3);
	ck_assert_int_eq(ival(r, "initialSurge"), 0);
	ck_assert_int_eq(ival(r, "maxSurgeSeen"), 4);
	ck_assert(json_is_false(json_object_get(r, "budgetExceeded")));
	const json_t *first = json_array_get(json_object_get(r, "waves"), 0);
	ck_assert_uint_eq(json_array_size(json_object_get(first, "creates")), 4);
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

static void two_terminating(json_t *obj, int i)
{
	if (i == 0 || i == 1)
		json_object_set_new(json_object_get(obj, "metadata"), "deletionTimestamp",
				    json_string("2026-12-02T09:59:59Z"));
}

/* Terminating pods of the snapshot go away simTerminateAfter after the start; they count as
 * unavailable at the start (the rolling update does not count them, the status does). */
START_TEST(simulate_preexisting_terminating)
{
	ds_cluster *c = make_cluster_ex(6, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1}}",
					"apps/v1", two_terminating);
	json_t *r = simulate(c, NULL);
	ck_assert_msg(strcmp(result_of(r), "complete") == 0, "%s: %s", result_of(r), stall_reason(r));
	ck_assert_int_eq(ival(r, "updated"), 6);
	ck_assert_int_eq(ival(r, "initialUnavailable"), 2);
	ck_assert_int_eq(ival(r, "maxUnavailableSeen"), 2);
	ck_assert(json_is_false(json_object_get(r, "budgetExceeded")));
	/* gone at 5 s, replaced and Ready at 15 s; the controller deleted only the other four */
	json_t *times = json_object_get(r, "nodeUpdatedAt");
	ck_assert_str_eq(json_string_value(json_object_get(times, "node-000")), "2026-12-02T10:00:15Z");
	ck_assert_str_eq(json_string_value(json_object_get(times, "node-001")), "2026-12-02T10:00:15Z");
	ck_assert_int_eq(ival(r, "deletes"), 4);
	ck_assert_int_eq(ival(r, "creates"), 6);
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

/* Every pod already on the DaemonSet's template generation (so there is nothing to update). */
static void current(json_t *obj, int i)
{
	if (i < 0) {
		json_object_set_new(json_object_get(obj, "metadata"), "annotations",
				    json_pack("{s:s}", "deprecated.daemonset.template.generation", "2"));
		return;
	}
	json_object_set_new(json_object_get(json_object_get(obj, "metadata"), "labels"), "pod-template-generation",
			    json_string("2"));
}

static void current_one_pending(json_t *obj, int i)
{
	current(obj, i);
	if (i == 1)
		json_object_set_new(obj, "status", json_pack("{s:s}", "phase", "Pending"));
	if (i == 2) { /* not even bound yet, and no status at all */
		json_t *spec = json_object_get(obj, "spec");
		json_object_del(spec, "nodeName");
		json_object_set_new(spec, "affinity",
				    json_pack("{s:{s:{s:[{s:[{s:s, s:s, s:[s]}]}]}}}", "nodeAffinity",
					      "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms",
					      "matchFields", "key", "metadata.name", "operator", "In", "values",
					      "node-002"));
		json_object_del(obj, "status");
	}
}

/* Pending pods of the snapshot are bound and become Ready like the simulation's own. */
START_TEST(simulate_preexisting_pending)
{
	ds_cluster *c = make_cluster_ex(4, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1}}",
					"apps/v1", current_one_pending);
	json_t *r = simulate(c, NULL);
	ck_assert_msg(strcmp(result_of(r), "complete") == 0, "%s: %s", result_of(r), stall_reason(r));
	ck_assert(seconds(r) == 10.0);
	ck_assert_int_eq(ival(r, "creates"), 0);
	ck_assert_int_eq(ival(r, "deletes"), 0);
	ck_assert_int_eq(ival(r, "initialUnavailable"), 2);
	json_t *times = json_object_get(r, "nodeUpdatedAt");
	ck_assert_str_eq(json_string_value(json_object_get(times, "node-000")), T0);
	ck_assert_str_eq(json_string_value(json_object_get(times, "node-001")), "2026-12-02T10:00:10Z");
	ck_assert_str_eq(json_string_value(json_object_get(times, "node-002")), "2026-12-02T10:00:10Z");
	json_decref(r);
	/* but not on a failing node */
	static const char *const fail[] = {"simFailNodes", "node-001", NULL};
	r = simulate_set(c, fail);
	ck_assert_str_eq(result_of(r), "stalled");
	ck_assert_ptr_nonnull(strstr(stall_reason(r), "never become Ready"));
	static const char *const want[] = {"node-001"};
	assert_nodes(stall_nodes(r), want, 1);
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

/* Two pending pods of the current revision pinned to a node with room for one pod (allocatable
 * pods 1): the scheduler binds the first, and the second does not fit, because the node's usage
 * counts the pod just bound. The controller keeps the bound one (podByCreationTimestampAndPhase:
 * scheduled first) and deletes the other, which goes at once, being unbound. Were both bound, the
 * second would terminate for simTerminateAfter (30 s) and the node would be done only then. */
START_TEST(simulate_binds_only_what_fits)
{
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	static const char base[] =
		"{\"kind\":\"List\",\"items\":["
		"{\"apiVersion\":\"apps/"
		"v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"ds\",\"namespace\":\"default\","
		"\"uid\":\"uid-ds\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"agent\"}},\"template\":{"
		"\"metadata\":"
		"{\"labels\":{\"app\":\"agent\"}},\"spec\":{\"containers\":[{\"name\":\"agent\",\"image\":\"agent:v2\"}"
		"]}}}},"
		"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-000\"},"
		"\"status\":{\"allocatable\":{\"pods\":\"1\"}}}]}";
	ck_assert_msg(ds_cluster_load(c, base, sizeof(base) - 1, NULL, &err) == 0, "%s: %s", err.path, err.message);
	char *text;
	ck_assert_int_eq(ds_daemon_pod(c, "default", "ds", "node-000", NULL, &text, &err), 0);
	json_t *pod = json_loads(text, 0, NULL);
	ds_free(text);
	ck_assert_ptr_nonnull(pod);
	json_t *meta = json_object_get(pod, "metadata");
	json_object_del(meta, "generateName");
	json_object_set_new(pod, "status", json_pack("{s:s}", "phase", "Pending"));
	static const char *const names[] = {"ds-a", "ds-b"};
	static const char *const created[] = {"2026-12-02T09:59:58Z", "2026-12-02T09:59:59Z"};
	for (int i = 0; i < 2; i++) {
		json_object_set_new(meta, "name", json_string(names[i]));
		json_object_set_new(meta, "uid", json_string(names[i]));
		json_object_set_new(meta, "creationTimestamp", json_string(created[i]));
		ck_assert_msg(ds_cluster_load_json(c, (const struct json_t *)pod, NULL, &err) == 0, "%s: %s", err.path,
			      err.message);
	}
	json_decref(pod);
	static const char *const set[] = {"simReadyAfter", "5s", "simTerminateAfter", "30s", NULL};
	json_t *r = simulate_set(c, set);
	ck_assert_msg(strcmp(result_of(r), "complete") == 0, "%s: %s", result_of(r), stall_reason(r));
	ck_assert_int_eq(ival(r, "creates"), 0);
	ck_assert_int_eq(ival(r, "deletes"), 1);
	ck_assert_msg(seconds(r) == 5.0, "done after %g s, want 5", seconds(r));
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

static void min_ready_60(json_t *obj, int i)
{
	if (i < 0)
		json_object_set_new(json_object_get(obj, "spec"), "minReadySeconds", json_integer(60));
}

/* At simMaxTime the reason says what the simulation was still waiting for. */
START_TEST(simulate_timeout_reasons)
{
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	ck_assert_int_eq(ds_cluster_load_file(c, "examples/cluster", NULL, &err), 0);
	ds_time now;
	ds_time_parse(T0, &now, NULL);
	struct {
		const char *set[5];
		const char *reason, *node;
		double at;
	} cases[] = {
		/* worker-2's old pod was deleted at 10 s and terminates until 15 s */
		{{"simMaxTime", "12s", NULL}, "pods are still terminating", "worker-2", 10.0},
		/* worker-4's new pod would be Ready at 30 s */
		{{"simReadyAfter", "30s", "simMaxTime", "20s", NULL},
		 "waiting for pods to become Ready",
		 "worker-4",
		 0.0},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		ds_options *o;
		ck_assert_int_eq(ds_options_new(&o), 0);
		for (size_t i = 0; cases[k].set[i]; i += 2)
			ck_assert_int_eq(ds_options_set(o, cases[k].set[i], cases[k].set[i + 1], &err), 0);
		char *text;
		ck_assert_int_eq(ds_rollout_simulate(c, "kube-system", "fluentd-logging", now, o, &text, &err), 0);
		ds_options_free(o);
		json_t *r = json_loads(text, 0, NULL);
		ds_free(text);
		ck_assert_str_eq(result_of(r), "timeout");
		ck_assert_msg(strstr(stall_reason(r), cases[k].reason), "case %zu: %s", k, stall_reason(r));
		assert_nodes(stall_nodes(r), &cases[k].node, 1);
		ck_assert(seconds(r) == cases[k].at);
		json_decref(r);
	}
	ds_cluster_free(c);
	/* minReadySeconds 60: node-000's new pod is Ready at 15 s, available at 75 s */
	c = make_cluster_ex(2, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1}}", "apps/v1",
			    min_ready_60);
	static const char *const horizon[] = {"simMaxTime", "30s", NULL};
	json_t *r = simulate_set(c, horizon);
	ck_assert_str_eq(result_of(r), "timeout");
	ck_assert_msg(strstr(stall_reason(r), "minReadySeconds") != NULL, "%s", stall_reason(r));
	static const char *const want[] = {"node-000"};
	assert_nodes(stall_nodes(r), want, 1);
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

/* simFailNodes is read in place: empty items are skipped, every listed node fails. */
START_TEST(simulate_fail_nodes_list)
{
	ds_cluster *c =
		make_cluster(6, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":6}}", "apps/v1");
	static const char *const set[] = {"simFailNodes", ",node-001,,node-004,node-0,node-0011,", NULL};
	json_t *r = simulate_set(c, set);
	ck_assert_str_eq(result_of(r), "stalled");
	const json_t *nodes = stall_nodes(r);
	ck_assert_uint_eq(json_array_size(nodes), 2);
	const char *a = json_string_value(json_array_get(nodes, 0)), *b = json_string_value(json_array_get(nodes, 1));
	ck_assert_msg((strcmp(a, "node-001") == 0 && strcmp(b, "node-004") == 0) ||
			      (strcmp(a, "node-004") == 0 && strcmp(b, "node-001") == 0),
		      "%s %s", a, b);
	ck_assert_int_eq(ival(r, "updated"), 4);
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

/* simStep: the simulation looks every simStep; an event in between is handled at the next look. */
START_TEST(simulate_step_rounds_event_times_up)
{
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	ck_assert_int_eq(ds_cluster_load_file(c, "examples/cluster", NULL, &err), 0);
	ds_time now;
	ds_time_parse(T0, &now, NULL);
	ds_options *o;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set(o, "simStep", "4s", &err), 0);
	char *text;
	ck_assert_int_eq(ds_rollout_simulate(c, "kube-system", "fluentd-logging", now, o, &text, &err), 0);
	json_t *r = json_loads(text, 0, NULL);
	ds_free(text);
	/* Ready at 10 s seen at 12 s; the old pod goes at 17 s, seen at 20 s; its replacement Ready at 30 s, seen at 32 s */
	ck_assert_str_eq(result_of(r), "complete");
	ck_assert(seconds(r) == 32.0);
	const json_t *w = json_object_get(r, "waves");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(w, 1), "at")), "2026-12-02T10:00:12Z");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(w, 2), "at")), "2026-12-02T10:00:20Z");
	json_decref(r);
	/* a step of 1 ms is the exact event times */
	ck_assert_int_eq(ds_options_set(o, "simStep", "1ms", &err), 0);
	ck_assert_int_eq(ds_options_set(o, "simReadyAfter", "1500ms", &err), 0);
	ck_assert_int_eq(ds_rollout_simulate(c, "kube-system", "fluentd-logging", now, o, &text, &err), 0);
	r = json_loads(text, 0, NULL);
	ds_free(text);
	ck_assert(seconds(r) == 8.0); /* 1.5 + 5 + 1.5 */
	json_decref(r);
	/* with the default of 1 s, 1.5 s is seen at 2 s: 2 + 5 (at 7) + 1.5 (seen at 9) */
	ds_options_free(o);
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set(o, "simReadyAfter", "1500ms", &err), 0);
	ck_assert_int_eq(ds_rollout_simulate(c, "kube-system", "fluentd-logging", now, o, &text, &err), 0);
	r = json_loads(text, 0, NULL);
	ds_free(text);
	ck_assert(seconds(r) == 9.0);
	json_decref(r);
	ds_options_free(o);
	ds_cluster_free(c);
}
END_TEST

/* The clock stays where RFC 3339 can write it (the pods it creates carry it): a start beyond
 * is refused (it used to overflow the horizon), and the horizon stops at the end of 9999. */
START_TEST(simulate_clock_stays_in_rfc3339)
{
	ds_cluster *c =
		make_cluster(3, 1, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1}}", "apps/v1");
	char *text = (char *)"untouched";
	ds_error err;
	ck_assert_int_eq(ds_rollout_simulate(c, "default", "ds", INT64_MAX - 1000, NULL, &text, &err), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "start");
	ck_assert_ptr_null(text);
	ck_assert_int_eq(ds_rollout_simulate(c, "default", "ds", INT64_MIN, NULL, &text, &err), DS_EVALUE);
	ds_time start;
	ds_time_parse("9999-12-31T23:59:50Z", &start, NULL);
	ck_assert_int_eq(ds_rollout_simulate(c, "default", "ds", start, NULL, &text, &err), 0);
	json_t *r = json_loads(text, 0, NULL);
	ds_free(text);
	/* node-000's old pod goes at 23:59:55; its replacement would be Ready in year 10000 */
	ck_assert_str_eq(result_of(r), "timeout");
	ck_assert_msg(strstr(stall_reason(r), "Ready") != NULL, "%s", stall_reason(r));
	ck_assert_str_eq(json_string_value(json_object_get(r, "end")), "9999-12-31T23:59:55Z");
	json_decref(r);
	/* before 1970 times are negative: they are times all the same */
	ds_time_parse("1969-12-31T23:58:00Z", &start, NULL);
	ck_assert_int_eq(ds_rollout_simulate(c, "default", "ds", start, NULL, &text, &err), 0);
	r = json_loads(text, 0, NULL);
	ds_free(text);
	ck_assert_msg(strcmp(result_of(r), "complete") == 0, "%s: %s", result_of(r), stall_reason(r));
	ck_assert_str_eq(json_string_value(json_object_get(r, "end")), "1969-12-31T23:58:45Z");
	json_decref(r);
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
	tcase_add_test(tc, simulate_zero_durations);
	tcase_add_test(tc, simulate_unbound_pod_deleted_at_once);
	tcase_add_test(tc, simulate_on_delete_has_no_budget);
	tcase_add_test(tc, simulate_preexisting_unavailable_is_not_exceeding);
	tcase_add_test(tc, simulate_surge_replaces_unavailable_beyond_max_surge);
	tcase_add_test(tc, simulate_preexisting_terminating);
	tcase_add_test(tc, simulate_preexisting_pending);
	tcase_add_test(tc, simulate_binds_only_what_fits);
	tcase_add_test(tc, simulate_timeout_reasons);
	tcase_add_test(tc, simulate_fail_nodes_list);
	tcase_add_test(tc, simulate_step_rounds_event_times_up);
	tcase_add_test(tc, simulate_clock_stays_in_rfc3339);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
