/*
 * DefaultPreemption's dry run and PodPriority, replayed against lib/sched/preemption.h:
 * tests/vectors/upstream/preemption.json.
 *
 * dryRunPreemption asks SelectVictimsOnNode of every node; a node is a candidate
 * when it succeeds with at least one victim. Each row is one snapshot (nodes,
 * the pods bound to them, the PDBs); the preemptor is read outside it, into a
 * copy of the snapshot's atom table. Upstream's fixtures lack namespaces and
 * PDB names: pods and PDBs go to "default", PDBs are named pdb-<i>.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sched/cycle.h"
#include "sched/preemption.h"
#include "vectors.h"

/* Cases that fail because of a library bug, with the reason. */
static const vt_entry known[] = {
	{NULL, NULL},
};

static ds_cluster *case_cluster(const json_t *cs)
{
	json_t *objs = json_array();
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(cs, "nodes"), i, v) { json_array_append(objs, v); }
	json_array_foreach(json_object_get(cs, "pods"), i, v)
	{
		json_array_append_new(objs, vt_with_meta(v, NULL, "default", NULL));
	}
	json_array_foreach(json_object_get(cs, "pdbs"), i, v)
	{
		char name[32];
		snprintf(name, sizeof(name), "pdb-%zu", i);
		json_array_append_new(objs, vt_with_meta(v, name, "default", NULL));
	}
	ds_cluster *c = vt_cluster(objs, NULL);
	json_decref(objs);
	return c;
}

static char *read_spec(dsi_atoms *atoms, const json_t *pod, dsi_podspec *spec)
{
	ds_error err;
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	size_t m = dsi_rd_push(&rd, "spec");
	int rc = dsi_podspec_read(&rd, atoms, json_object_get(pod, "spec"), DSI_PODSPEC_PLACEMENT,
				  dsi_core_options_default()->gates, spec);
	dsi_rd_pop(&rd, m);
	return rc < 0 ? vt_fmt("the reader refused the pod: %s: %s", err.path, err.message) : NULL;
}

/* Victim names as a sorted array (sets compare without order). */
static json_t *sorted_names(json_t *names)
{
	size_t n = json_array_size(names);
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(json_string_value(json_array_get(names, j - 1)),
						   json_string_value(json_array_get(names, j))) > 0;
		     j--) {
			json_t *a = json_incref(json_array_get(names, j - 1));
			json_array_set(names, j - 1, json_array_get(names, j));
			json_array_set_new(names, j, a);
		}
	return names;
}

static char *dry_run(const json_t *cs)
{
	ds_cluster *c = case_cluster(cs);
	dsi_atoms atoms;
	ck_assert_int_eq(dsi_atoms_copy(&atoms, &c->atoms), 0);
	dsi_podspec spec;
	char *bad = read_spec(&atoms, json_object_get(cs, "preemptor"), &spec);
	json_t *got = json_object();
	if (!bad) {
		int32_t prio;
		ck_assert_int_eq(dsi_pod_priority(c, &atoms, &spec, &prio), 0);
		int cmp = dsi_gate(dsi_core_options_default(), DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS);
		static const dsi_labels none = {NULL, 0};
		dsi_cycle cy;
		dsi_sched_pod sp = {&atoms,
				    DSI_ATOM_NONE,
				    &none,
				    &spec,
				    &spec.tolerations,
				    cmp,
				    0,
				    DSI_ATOM_NONE,
				    DSI_ATOM_NONE,
				    1,
				    dsi_core_options_default()->gates};
		ck_assert_int_eq(dsi_cycle_init(&cy, c, &sp, NULL, NULL), 0);
		for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_NODE); i++) {
			const dsi_node *node = dsi_cluster_node_at(c, i);
			dsi_preemption pre;
			ck_assert_int_eq(dsi_select_victims(c, &atoms, &spec, prio, &spec.tolerations, cmp, node, &cy,
							    NULL, NULL, &pre),
					 0);
			ck_assert(pre.attempted);
			if (pre.possible && pre.nvictims > 0) {
				json_t *victims = json_array();
				for (uint32_t k = 0; k < pre.nvictims; k++)
					json_array_append_new(victims,
							      json_string(dsi_cstr(c, pre.victims[k]->meta.name)));
				json_object_set_new(got, dsi_cstr(c, node->meta.name),
						    json_pack("{s:o, s:i}", "victims", sorted_names(victims),
							      "numPDBViolations", (int)pre.pdb_violations));
			} else if (!pre.possible) {
				ck_assert_msg(pre.message && *pre.message, "no candidate without a reason");
			}
			dsi_preemption_release(&pre);
		}
		dsi_cycle_release(&cy);
		dsi_podspec_release(&atoms, &spec);
	}
	json_t *want = json_deep_copy(json_object_get(json_object_get(cs, "expect"), "candidates"));
	const char *k;
	json_t *v;
	json_object_foreach(want, k, v) { sorted_names(json_object_get(v, "victims")); }
	if (!bad && !json_equal(got, want)) {
		char *g = vt_dump(got), *w = vt_dump(want);
		bad = vt_fmt("candidates %s, upstream %s", g, w);
		free(g);
		free(w);
	}
	json_decref(got);
	json_decref(want);
	dsi_atoms_free(&atoms);
	ds_cluster_free(c);
	return bad;
}

static char *pod_priority(const json_t *cs)
{
	json_t *none = json_array();
	ds_cluster *c = vt_cluster(none, NULL);
	json_decref(none);
	dsi_atoms atoms;
	ck_assert_int_eq(dsi_atoms_copy(&atoms, &c->atoms), 0);
	dsi_podspec spec;
	char *bad = read_spec(&atoms, json_object_get(cs, "pod"), &spec);
	if (!bad) {
		int32_t prio = -12345;
		json_int_t want = json_integer_value(json_object_get(json_object_get(cs, "expect"), "priority"));
		if (dsi_pod_priority(c, &atoms, &spec, &prio) < 0)
			bad = vt_fmt("no priority (a named class that does not exist)");
		else if (prio != want)
			bad = vt_fmt("priority %d, upstream %lld", prio, (long long)want);
		dsi_podspec_release(&atoms, &spec);
	}
	dsi_atoms_free(&atoms);
	ds_cluster_free(c);
	return bad;
}

START_TEST(preemption_json)
{
	json_t *doc = vt_load("preemption.json");
	json_t *cs;
	size_t i;
	vt_run r;
	vt_begin(&r, "preemption.json", known);
	json_array_foreach(vt_cases(doc), i, cs)
	{
		const char *name = vt_str(cs, "name"), *fn = vt_str(cs, "function");
		if (strcmp(fn, "PodPriority") == 0) {
			vt_record(&r, name, pod_priority(cs));
		} else {
			ck_assert_str_eq(fn, "dryRunPreemption (per node: SelectVictimsOnNode)");
			/* the only filter upstream enables is NodeResourcesFit; the others pass on these fixtures */
			ck_assert_uint_eq(json_array_size(json_object_get(cs, "filterPlugins")), 1);
			ck_assert_str_eq(json_string_value(json_array_get(json_object_get(cs, "filterPlugins"), 0)),
					 "NodeResourcesFit");
			vt_record(&r, name, dry_run(cs));
		}
	}
	vt_end(&r);
	json_decref(doc);
}
END_TEST

/*
 * Start times below the library's resolution. Upstream's row "pick later
 * StartTime one when priorities are equal" gives p1.1 and p1.2 start times 1ns
 * apart; ds_time counts milliseconds, so the two tie and the order among them
 * falls to the snapshot's pod order. The same question one second apart must
 * not depend on that order: here the earlier pod is listed first, then last.
 */
START_TEST(start_time_breaks_priority_ties)
{
	json_t *doc = vt_load("preemption.json");
	json_t *cs = NULL, *c;
	size_t i;
	json_array_foreach(vt_cases(doc), i, c)
	{
		if (strstr(vt_str(c, "name"), "pick later StartTime"))
			cs = c;
	}
	ck_assert_ptr_nonnull(cs);
	for (int flip = 0; flip < 2; flip++) {
		json_t *row = json_deep_copy(cs);
		json_t *pods = json_object_get(row, "pods");
		json_array_foreach(pods, i, c)
		{
			/* upstream's order (p1.1 latest ... p2 earliest), one second apart */
			static const char *const names[] = {"p1.1", "p1.2", "p1.3", "p1.4", "p2"};
			const char *n = vt_str(json_object_get(c, "metadata"), "name");
			int sec = 0;
			for (int k = 0; k < 5; k++)
				if (strcmp(n, names[k]) == 0)
					sec = 5 - k;
			ck_assert_int_gt(sec, 0);
			char t[32];
			snprintf(t, sizeof(t), "2026-01-01T00:00:0%dZ", sec);
			json_object_set_new(json_object_get(c, "status"), "startTime", json_string(t));
		}
		if (flip) { /* reverse the pod order */
			json_t *rev = json_array();
			for (size_t k = json_array_size(pods); k-- > 0;)
				json_array_append(rev, json_array_get(pods, k));
			json_object_set_new(row, "pods", rev);
		}
		char *bad = dry_run(row);
		ck_assert_msg(bad == NULL, "pod order %d: %s", flip, bad);
		json_decref(row);
	}
	json_decref(doc);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vec_preemption");
	TCase *tc = tcase_create("vectors");
	tcase_add_test(tc, preemption_json);
	tcase_add_test(tc, start_time_breaks_priority_ties);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
