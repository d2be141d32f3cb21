/*
 * Upstream's TestNodeShouldRunDaemonPod (and the should-run facts its single-sync
 * tests imply), replayed through the public API: tests/vectors/upstream/should_run.json
 * loaded into a snapshot with ds_cluster_load_json, asked with ds_should_run and
 * ds_should_run_json (which must agree), then cross-checked against the
 * internal verdict (lib/daemon/shouldrun.h) and its reason.
 */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <stdlib.h>
#include <string.h>

#include "daemon/shouldrun.h"
#include "harness.h"
#include "vectors.h"

/* Cases that fail because of a library bug, with the reason. */
static const vt_entry known[] = {
	{NULL, NULL},
};

/* The snapshot of a case: its DaemonSet (default identity default/ds), its node
 * and the pods already on it (default names pod-<i>). */
static ds_cluster *case_cluster(const json_t *cs, const char **ns, const char **name, const char **node)
{
	json_t *objs = json_array();
	json_t *ds = vt_with_meta(json_object_get(cs, "daemonset"), "ds", "default", "ds-uid");
	json_t *n = vt_with_meta(json_object_get(cs, "node"), "node", NULL, NULL);
	json_array_append(objs, ds);
	json_array_append(objs, n);
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(cs, "pods"), i, p)
	{
		char pname[32], uid[48];
		snprintf(pname, sizeof(pname), "pod-%zu", i);
		snprintf(uid, sizeof(uid), "pod-%zu-uid", i);
		json_array_append_new(objs, vt_with_meta(p, pname, "default", uid));
	}
	ds_cluster *c = vt_cluster(objs, NULL);
	/* the names live on in the snapshot's atoms */
	const dsi_daemonset *d = dsi_cluster_daemonset(c, vt_str(json_object_get(ds, "metadata"), "namespace"),
						       vt_str(json_object_get(ds, "metadata"), "name"));
	ck_assert_ptr_nonnull(d);
	*ns = dsi_cstr(c, d->meta.ns);
	*name = dsi_cstr(c, d->meta.name);
	const dsi_node *dn = dsi_cluster_node_by_name(c, vt_str(json_object_get(n, "metadata"), "name"));
	ck_assert_ptr_nonnull(dn);
	*node = dsi_cstr(c, dn->meta.name);
	json_decref(ds);
	json_decref(n);
	json_decref(objs);
	return c;
}

static char *should_run(const json_t *cs)
{
	const char *ns, *name, *node;
	ds_cluster *c = case_cluster(cs, &ns, &name, &node);
	const json_t *expect = json_object_get(cs, "expect");
	int want_run = json_is_true(json_object_get(expect, "shouldRun"));
	int want_cont = json_is_true(json_object_get(expect, "shouldContinueRunning"));
	int run = -1, cont = -1;
	ds_error err;
	char *bad = NULL, *out = NULL;
	int rc = ds_should_run(c, ns, name, node, NULL, &run, &cont, &err);
	if (rc < 0) {
		bad = vt_fmt("ds_should_run: %s: %s", err.path, err.message);
		goto done;
	}
	if (run != want_run || cont != want_cont) {
		bad = vt_fmt("shouldRun %d, shouldContinueRunning %d; upstream %d, %d", run, cont, want_run, want_cont);
		goto done;
	}
	/* the JSON form and the internal verdict tell the same story */
	ck_assert_int_eq(ds_should_run_json(c, ns, name, node, NULL, &out, &err), 0);
	json_t *doc = json_loads(out, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(json_is_true(json_object_get(doc, "shouldRun")), run);
	ck_assert_int_eq(json_is_true(json_object_get(doc, "shouldContinueRunning")), cont);
	ck_assert_str_eq(vt_str(doc, "node"), node);
	size_t nreasons = json_array_size(json_object_get(doc, "reasons"));
	json_decref(doc);
	dsi_placement p;
	ck_assert_int_eq(dsi_placement_init(&p, c, dsi_cluster_daemonset(c, ns, name), dsi_core_options_default()), 0);
	dsi_verdict v, all;
	const dsi_node *dn = dsi_cluster_node_by_name(c, node);
	dsi_node_should_run(&p, dn, &v);
	/* the pass over every node, which decides requirements on keys no node has once, agrees
	 * (the case's node is the snapshot's only one: every key it lacks is folded there) */
	ck_assert_uint_eq(dsi_cluster_count(c, DSI_KIND_NODE), 1);
	dsi_node_should_run_all(&p, &all, NULL);
	dsi_placement_release(&p);
	ck_assert_int_eq(v.should_run, run);
	ck_assert_int_eq(v.should_continue, cont);
	ck_assert_int_eq(all.should_run, run);
	ck_assert_int_eq(all.should_continue, cont);
	ck_assert_int_eq(all.why, v.why);
	if (run)
		ck_assert_msg(v.why == DSI_WHY_OK && nreasons == 0, "placed with reason %d and %zu reasons", v.why,
			      nreasons);
	else
		ck_assert_msg(v.why != DSI_WHY_OK && nreasons > 0 && *dsi_why_message(v.why),
			      "not placed without a reason (why %d, %zu reasons)", v.why, nreasons);
	if (v.why == DSI_WHY_TAINT)
		ck_assert_ptr_nonnull(v.taint);
done:
	ds_free(out);
	ds_cluster_free(c);
	return bad;
}

START_TEST(should_run_json)
{
	json_t *doc = vt_load("should_run.json");
	json_t *cs;
	size_t i;
	vt_run r;
	vt_begin(&r, "should_run.json", known);
	json_array_foreach(vt_cases(doc), i, cs) { vt_record(&r, vt_str(cs, "name"), should_run(cs)); }
	vt_end(&r);
	json_decref(doc);
}
END_TEST

/* The driver itself: a flipped expectation is reported. */
START_TEST(driver_reports_mismatches)
{
	json_t *doc = vt_load("should_run.json");
	json_t *cs = json_deep_copy(json_array_get(vt_cases(doc), 0));
	json_object_set_new(json_object_get(cs, "expect"), "shouldRun", json_false());
	char *bad = should_run(cs);
	ck_assert_ptr_nonnull(bad);
	ck_assert_ptr_nonnull(strstr(bad, "shouldRun 1"));
	free(bad);
	json_decref(cs);
	json_decref(doc);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vec_shouldrun");
	TCase *tc = tcase_create("vectors");
	tcase_add_test(tc, should_run_json);
	tcase_add_test(tc, driver_reports_mismatches);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
