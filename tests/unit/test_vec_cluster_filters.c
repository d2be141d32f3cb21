/*
 * kube-scheduler's filter tables of the plugins that read the whole cluster, replayed row by row
 * through the public pure function ds_scheduler_filter(3): InterPodAffinity (filtering_test.go
 * TestRequiredAffinitySingleNode and TestRequiredAffinityMultipleNodes,
 * tests/vectors/upstream/interpodaffinity_filter.json) and PodTopologySpread (filtering_test.go
 * TestSingleConstraint and TestMultipleConstraints, podtopologyspread_filter.json), and
 * VolumeRestrictions' disk conflicts (volume_restrictions_test.go, volumerestrictions_filter.json:
 * the plugin reads the node's pods only). For each node
 * of a row: the incoming pod against that node with every node, pod and Namespace of the row as
 * the cluster. Only the plugin under test is compared (upstream runs it alone; the rows' nodes
 * have no allocatable, so NodeResourcesFit fails on every one of them): its status code and
 * message, and whether its Filter ran or its PreFilter returned Skip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vectors.h"

static const vt_entry known[] = {
	{NULL, NULL},
};

/* The plugin's outcome on one node: NULL when it agrees with want, else a description. */
static char *check_node(const char *plugin, const char *prefilter, const json_t *want, const json_t *got)
{
	const json_t *reasons = json_object_get(got, "reasons");
	const json_t *mine = NULL;
	size_t i, n = 0;
	json_t *r;
	json_array_foreach(reasons, i, r)
	{
		if (strcmp(json_string_value(json_object_get(r, "plugin")), plugin) == 0) {
			mine = r;
			n++;
		}
	}
	const json_t *filters = json_object_get(got, "filters");
	int ran = 0, skipped = 0;
	json_array_foreach(json_object_get(filters, "ran"), i, r) ran |= strcmp(json_string_value(r), plugin) == 0;
	json_array_foreach(json_object_get(filters, "skipped"), i, r) skipped |=
		strcmp(json_string_value(r), plugin) == 0;
	if (n > 1)
		return vt_fmt("%zu %s reasons", n, plugin);
	if (strcmp(prefilter, "Skip") == 0) {
		if (!skipped || ran || mine)
			return vt_fmt("want PreFilter Skip, got ran=%d skipped=%d reason=%s", ran, skipped,
				      mine ? json_string_value(json_object_get(mine, "message")) : "none");
		return NULL;
	}
	if (!ran)
		return vt_fmt("want the filter to run, got skipped=%d", skipped);
	if (json_is_null(want)) {
		if (mine)
			return vt_fmt("want Success, got %s: %s", json_string_value(json_object_get(mine, "code")),
				      json_string_value(json_object_get(mine, "message")));
		if (!json_is_true(json_object_get(got, "fits")) && json_array_size(reasons) == 0)
			return vt_fmt("no reason, yet fits is false");
		return NULL;
	}
	const char *wc = json_string_value(json_object_get(want, "code"));
	const char *wm = json_string_value(json_object_get(want, "message"));
	if (!mine)
		return vt_fmt("want %s: %s, got Success", wc, wm);
	const char *gc = json_string_value(json_object_get(mine, "code"));
	const char *gm = json_string_value(json_object_get(mine, "message"));
	if (strcmp(wc, gc) != 0 || strcmp(wm, gm) != 0)
		return vt_fmt("want %s: %s, got %s: %s", wc, wm, gc, gm);
	if (json_is_true(json_object_get(got, "fits")))
		return vt_fmt("a failing filter, yet fits is true");
	return NULL;
}

/* Every row of file, for plugin. */
static void replay(const char *file, const char *plugin)
{
	json_t *doc = vt_load(file);
	vt_run run;
	vt_begin(&run, file, known);
	size_t i;
	json_t *cs;
	json_array_foreach(vt_cases(doc), i, cs)
	{
		const char *name = json_string_value(json_object_get(cs, "name"));
		json_t *nodes = json_object_get(cs, "nodes");
		const json_t *expect = json_object_get(cs, "expect");
		const char *prefilter = json_string_value(json_object_get(expect, "preFilter"));
		const json_t *statuses = json_object_get(expect, "statuses");
		ck_assert_msg(json_array_size(statuses) == json_array_size(nodes), "%s: one status per node", name);
		json_t *objects = json_array();
		json_array_extend(objects, json_object_get(cs, "namespaces"));
		json_array_extend(objects, nodes);
		json_array_extend(objects, json_object_get(cs, "pods"));
		char *pod = json_dumps(json_object_get(cs, "pod"), JSON_COMPACT);
		char *objs = json_dumps(objects, JSON_COMPACT);
		char *mismatch = NULL;
		size_t k;
		json_t *node;
		json_array_foreach(nodes, k, node)
		{
			char *ntext = json_dumps(node, JSON_COMPACT);
			char *out = NULL;
			ds_error err;
			int rc = ds_scheduler_filter(pod, strlen(pod), ntext, strlen(ntext), objs, strlen(objs), NULL,
						     &out, &err);
			free(ntext);
			if (rc != 0) {
				mismatch = vt_fmt("node %zu: error %d %s: %s", k, rc, err.path, err.message);
				break;
			}
			json_t *got = dsi_test_take_json(out);
			char *m = check_node(plugin, prefilter, json_array_get(statuses, k), got);
			json_decref(got);
			if (m) {
				mismatch = vt_fmt("node %zu: %s", k, m);
				free(m);
				break;
			}
		}
		free(pod);
		free(objs);
		json_decref(objects);
		vt_record(&run, name, mismatch);
	}
	vt_end(&run);
	json_decref(doc);
}

START_TEST(inter_pod_affinity_rows) { replay("interpodaffinity_filter.json", "InterPodAffinity"); }
END_TEST

START_TEST(pod_topology_spread_rows) { replay("podtopologyspread_filter.json", "PodTopologySpread"); }
END_TEST

START_TEST(volume_restrictions_rows) { replay("volumerestrictions_filter.json", "VolumeRestrictions"); }
END_TEST

/* The InterPodAffinity reason ds_scheduler_filter gives pod on node n1 (in zone z1) beside pods,
 * or NULL (malloc). */
static char *ipa_reason(const char *pod, const char *pods)
{
	const char *node = "{\"metadata\": {\"name\": \"n1\", \"labels\": {\"zone\": \"z1\"}}}";
	char *out = NULL;
	ds_error err;
	ck_assert_msg(ds_scheduler_filter(pod, strlen(pod), node, strlen(node), pods, strlen(pods), NULL, &out, &err) ==
			      0,
		      "%s", err.message);
	json_t *got = dsi_test_take_json(out), *r;
	size_t i;
	char *msg = NULL;
	json_array_foreach(json_object_get(got, "reasons"), i,
			   r) if (strcmp(json_string_value(json_object_get(r, "plugin")), "InterPodAffinity") == 0)
		msg = strdup(json_string_value(json_object_get(r, "message")));
	json_decref(got);
	return msg;
}

/* matchLabelKeys / mismatchLabelKeys of a required anti-affinity term, as the API server merges
 * them (derived: pkg/registry/core/pod/strategy.go, not an upstream table) */
START_TEST(pod_affinity_label_keys)
{
	const char *anti_match = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\", \"labels\": {\"app\": "
				 "\"x\", \"rev\": \"2\"}}, \"spec\": {\"affinity\": {\"podAntiAffinity\": "
				 "{\"requiredDuringSchedulingIgnoredDuringExecution\": [{\"labelSelector\": "
				 "{\"matchLabels\": {\"app\": \"x\"}}, \"topologyKey\": \"zone\", "
				 "\"%s\": [\"rev\"]}]}}}}";
	const char *other_rev = "[{\"metadata\": {\"name\": \"q\", \"namespace\": \"d\", \"labels\": {\"app\": "
				"\"x\", \"rev\": \"1\"}}, \"spec\": {\"nodeName\": \"n1\"}}]";
	const char *same_rev = "[{\"metadata\": {\"name\": \"q\", \"namespace\": \"d\", \"labels\": {\"app\": "
			       "\"x\", \"rev\": \"2\"}}, \"spec\": {\"nodeName\": \"n1\"}}]";
	char pod[1024];
	const char *anti = "node(s) didn't match pod anti-affinity rules";
	/* matchLabelKeys rev: only pods of the same revision repel */
	snprintf(pod, sizeof(pod), anti_match, "matchLabelKeys");
	char *m = ipa_reason(pod, other_rev);
	ck_assert_ptr_null(m);
	m = ipa_reason(pod, same_rev);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(m, anti);
	free(m);
	/* mismatchLabelKeys rev: only pods of another revision repel */
	snprintf(pod, sizeof(pod), anti_match, "mismatchLabelKeys");
	m = ipa_reason(pod, same_rev);
	ck_assert_ptr_null(m);
	m = ipa_reason(pod, other_rev);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(m, anti);
	free(m);
}
END_TEST

/* SelectVictimsOnNode removes the victims from InterPodAffinity's counts too (RemovePod on a clone
 * of the state): a lower-priority pod that anti-affinity refuses is a victim that makes room
 * (derived from default_preemption.go and filtering.go's RemovePod, not an upstream table). */
START_TEST(preemption_removes_from_counts)
{
	const char *node = "{\"metadata\": {\"name\": \"n1\", \"labels\": {\"kubernetes.io/hostname\": \"n1\"}}, "
			   "\"status\": {\"allocatable\": {\"pods\": \"10\"}}}";
	const char *pod = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\"}, \"spec\": {\"priority\": 10, "
			  "\"affinity\": {\"podAntiAffinity\": {\"requiredDuringSchedulingIgnoredDuringExecution\": "
			  "[{\"labelSelector\": {\"matchLabels\": {\"app\": \"x\"}}, \"topologyKey\": "
			  "\"kubernetes.io/hostname\"}]}}}}";
	const char *pods = "[{\"metadata\": {\"name\": \"q\", \"namespace\": \"d\", \"labels\": {\"app\": \"x\"}}, "
			   "\"spec\": {\"nodeName\": \"n1\", \"priority\": 0}}]";
	char *out = NULL;
	ds_error err;
	ck_assert_int_eq(
		ds_scheduler_filter(pod, strlen(pod), node, strlen(node), pods, strlen(pods), NULL, &out, &err), 0);
	json_t *got = dsi_test_take_json(out);
	const json_t *r = json_array_get(json_object_get(got, "reasons"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(r, "plugin")), "InterPodAffinity");
	ck_assert_str_eq(json_string_value(json_object_get(r, "code")), "Unschedulable");
	const json_t *pre = json_object_get(got, "preemption");
	ck_assert(json_is_true(json_object_get(pre, "possible")));
	ck_assert_int_eq(json_array_size(json_object_get(pre, "victims")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(pre, "victims"), 0), "name")),
			 "q");
	json_decref(got);
}
END_TEST

/* The plugins the library does not evaluate: a pod with a claim, a CSI volume or resource claims
 * never fits ("not evaluated: <plugin>"), and explain never calls its node create. */
START_TEST(not_evaluated_plugins)
{
	const char *node = "{\"metadata\": {\"name\": \"n1\"}, \"status\": {\"allocatable\": {\"pods\": \"10\"}}}";
	const char *pvc = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\"}, \"spec\": {\"volumes\": "
			  "[{\"name\": \"v\", \"persistentVolumeClaim\": {\"claimName\": \"c\"}}]}}";
	const char *dra = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\"}, \"spec\": {\"resourceClaims\": "
			  "[{\"name\": \"gpu\", \"resourceClaimName\": \"gpu-claim\"}]}}";
	const char *host = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\"}, \"spec\": {\"volumes\": "
			   "[{\"name\": \"v\", \"hostPath\": {\"path\": \"/var/log\"}}]}}";
	struct {
		const char *pod;
		const char *want[5];
	} cases[] = {
		{pvc, {"VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", NULL}},
		{dra, {"DynamicResources", NULL}},
		{host, {NULL}},
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char *out = NULL;
		ds_error err;
		ck_assert_int_eq(ds_scheduler_filter(cases[c].pod, strlen(cases[c].pod), node, strlen(node), NULL, 0,
						     NULL, &out, &err),
				 0);
		json_t *got = dsi_test_take_json(out);
		size_t n = 0;
		while (cases[c].want[n])
			n++;
		const json_t *reasons = json_object_get(got, "reasons");
		ck_assert_int_eq(json_array_size(reasons), n);
		ck_assert_int_eq(json_array_size(json_object_get(json_object_get(got, "filters"), "notEvaluated")), n);
		for (size_t i = 0; i < n; i++) {
			const json_t *r = json_array_get(reasons, i);
			char msg[64];
			snprintf(msg, sizeof(msg), "not evaluated: %s", cases[c].want[i]);
			ck_assert_str_eq(json_string_value(json_object_get(r, "plugin")), cases[c].want[i]);
			ck_assert_str_eq(json_string_value(json_object_get(r, "code")), "NotEvaluated");
			ck_assert_str_eq(json_string_value(json_object_get(r, "message")), msg);
		}
		ck_assert(json_is_boolean(json_object_get(got, "fits")));
		ck_assert_int_eq(json_is_true(json_object_get(got, "fits")), n == 0);
		ck_assert_ptr_null(json_object_get(got, "preemption"));
		json_decref(got);
	}
	/* explain: the node of a DaemonSet whose template has a claim is not-evaluated, not create */
	ds_cluster *cl = dsi_test_cluster_text(
		"{\"kind\": \"List\", \"apiVersion\": \"v1\", \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"Node\", "
		"\"metadata\": {\"name\": \"n1\"}, \"status\": {\"allocatable\": {\"pods\": \"10\"}}}, "
		"{\"apiVersion\": \"apps/v1\", \"kind\": \"DaemonSet\", \"metadata\": {\"name\": \"ds\", "
		"\"namespace\": "
		"\"d\", \"uid\": \"u\"}, \"spec\": {\"selector\": {\"matchLabels\": {\"a\": \"b\"}}, \"template\": "
		"{\"metadata\": {\"labels\": {\"a\": \"b\"}}, \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": "
		"\"i\"}], \"volumes\": [{\"name\": \"v\", \"ephemeral\": {\"volumeClaimTemplate\": {\"spec\": "
		"{}}}}]}}}}]}");
	char *out = NULL;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_explain(cl, "d", "ds", NULL, &out, &err), 0);
	json_t *doc = dsi_test_take_json(out);
	const json_t *row = json_array_get(json_object_get(doc, "rows"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(row, "status")), "not-evaluated");
	/* NodeVolumeLimits (the claim is named after a pod not created yet) and VolumeBinding;
	 * VolumeRestrictions and VolumeZone read persistentVolumeClaim volumes only: an ephemeral one
	 * is their Skip */
	const json_t *sched = json_object_get(row, "scheduler");
	ck_assert_int_eq(json_array_size(sched), 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(sched, 0), "plugin")), "NodeVolumeLimits");
	json_decref(doc);
	ds_cluster_free(cl);
}
END_TEST

static Suite *vec_cluster_filters_suite(void)
{
	Suite *s = suite_create("vec_cluster_filters");
	TCase *tc = tcase_create("rows");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, inter_pod_affinity_rows);
	tcase_add_test(tc, pod_topology_spread_rows);
	tcase_add_test(tc, volume_restrictions_rows);
	tcase_add_test(tc, pod_affinity_label_keys);
	tcase_add_test(tc, preemption_removes_from_counts);
	tcase_add_test(tc, not_evaluated_plugins);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(vec_cluster_filters_suite)
