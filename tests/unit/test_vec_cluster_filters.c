/*
 * kube-scheduler's filter tables of the plugins that read the whole cluster, replayed row by row
 * through the public pure function ds_scheduler_filter(3): InterPodAffinity (filtering_test.go
 * TestRequiredAffinitySingleNode and TestRequiredAffinityMultipleNodes,
 * tests/vectors/upstream/interpodaffinity_filter.json) and PodTopologySpread (filtering_test.go
 * TestSingleConstraint and TestMultipleConstraints, podtopologyspread_filter.json). For each node
 * of a row: the incoming pod against that node with every node, pod and Namespace of the row as
 * the cluster. Only the plugin under test is compared (upstream runs it alone; the rows' nodes
 * have no allocatable, so NodeResourcesFit fails on every one of them): its status code and
 * message, and whether its Filter ran or its PreFilter returned Skip.
 */
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

static Suite *vec_cluster_filters_suite(void)
{
	Suite *s = suite_create("vec_cluster_filters");
	TCase *tc = tcase_create("rows");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, inter_pod_affinity_rows);
	tcase_add_test(tc, pod_topology_spread_rows);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(vec_cluster_filters_suite)
