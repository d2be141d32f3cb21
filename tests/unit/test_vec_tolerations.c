/*
 * Upstream's toleration and taint tables, replayed against lib/sched/tolerations.h
 * and lib/model/taints.h: tests/vectors/upstream/tolerations.json
 * (ToleratesTaint with the TaintTolerationComparisonOperators gate, Taint.ToString)
 * and taint_helpers.json (FindMatchingUntoleratedTaint with effect filters).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model/taints.h"
#include "sched/tolerations.h"
#include "vectors.h"

/* Rows with no library function behind them. */
static const vt_entry skips[] = {
	{"Taint.MatchTaint", "the library has no Taint.MatchTaint (taint identity by key and effect); nothing in "
			     "DaemonSet placement compares two taints"},
	{"Toleration.MatchToleration",
	 "MatchToleration is a static helper of AddOrUpdateDaemonPodTolerations "
	 "(lib/daemon/daemontolerations.c) with no entry point; the default-toleration merge it "
	 "serves is covered by the CreatePodTemplate rows of daemonset_util.json"},
	{NULL, NULL},
};

/* Cases that fail because of a library bug: none. */
static const vt_entry known[] = {
	{NULL, NULL},
};

/* One toleration or taint read by the library's own reader from {"x":[obj]}. */
static char *read_toleration(dsi_atoms *atoms, const json_t *obj, dsi_tolerations *out)
{
	ds_error err;
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	json_t *w = json_pack("{s:[O]}", "tolerations", obj);
	int rc = dsi_tolerations_read(&rd, atoms, w, "tolerations", out);
	json_decref(w);
	if (rc < 0)
		return vt_fmt("the reader refused the toleration: %s: %s", err.path, err.message);
	ck_assert_uint_eq(out->n, 1);
	return NULL;
}

static char *read_taints(dsi_atoms *atoms, const json_t *arr, dsi_taints *out)
{
	ds_error err;
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	json_t *w = json_pack("{s:O}", "taints", arr);
	int rc = dsi_taints_read(&rd, atoms, w, "taints", out);
	json_decref(w);
	if (rc < 0)
		return vt_fmt("the reader refused the taints: %s: %s", err.path, err.message);
	ck_assert_uint_eq(out->n, json_array_size(arr));
	return NULL;
}

static char *tolerates_taint(const json_t *cs)
{
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_tolerations tols = {0};
	dsi_taints taints = {0};
	json_t *one = json_pack("[O]", json_object_get(cs, "taint"));
	char *bad = read_toleration(&atoms, json_object_get(cs, "toleration"), &tols);
	if (!bad)
		bad = read_taints(&atoms, one, &taints);
	if (!bad) {
		int gate = vt_gate(cs, "TaintTolerationComparisonOperators");
		int want = json_is_true(json_object_get(json_object_get(cs, "expect"), "tolerates"));
		int got = dsi_tolerates_taint(&atoms, &tols.v[0], &taints.v[0], gate);
		int any = dsi_tolerations_tolerate_taint(&atoms, &tols, &taints.v[0], gate);
		if (got != want)
			bad = vt_fmt("ToleratesTaint = %d, upstream %d", got, want);
		else if (any != want)
			bad = vt_fmt("TolerationsTolerateTaint = %d, ToleratesTaint = %d", any, got);
	}
	json_decref(one);
	dsi_tolerations_release(&atoms, &tols);
	dsi_taints_release(&atoms, &taints);
	dsi_atoms_free(&atoms);
	return bad;
}

/* Taint.ToString. A taint without an effect cannot come from the API (the
 * reader refuses it), so those rows build the typed taint directly. */
static char *taint_to_string(const json_t *cs)
{
	const json_t *t = json_object_get(cs, "taint");
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_taints taints = {0};
	dsi_taint manual;
	const dsi_taint *taint = &manual;
	char *bad = NULL;
	if (*vt_str(t, "effect")) {
		json_t *one = json_pack("[O]", t);
		bad = read_taints(&atoms, one, &taints);
		json_decref(one);
		taint = taints.v;
	} else {
		memset(&manual, 0, sizeof(manual));
		manual.key = *vt_str(t, "key") ? dsi_atom_intern_cstr(&atoms, vt_str(t, "key")) : DSI_ATOM_NONE;
		manual.value = *vt_str(t, "value") ? dsi_atom_intern_cstr(&atoms, vt_str(t, "value")) : DSI_ATOM_NONE;
		manual.effect = DSI_EFFECT_ALL;
	}
	if (!bad) {
		char buf[512];
		dsi_taint_string(&atoms, taint, buf, sizeof(buf));
		const char *want = vt_str(json_object_get(cs, "expect"), "string");
		if (strcmp(buf, want) != 0)
			bad = vt_fmt("\"%s\", upstream \"%s\"", buf, want);
	}
	if (taint == &manual) {
		dsi_atom_unref(&atoms, manual.key);
		dsi_atom_unref(&atoms, manual.value);
	}
	dsi_taints_release(&atoms, &taints);
	dsi_atoms_free(&atoms);
	return bad;
}

START_TEST(tolerations_json)
{
	json_t *doc = vt_load("tolerations.json");
	json_t *cs;
	size_t i;
	vt_run r;
	vt_begin(&r, "tolerations.json", known);
	json_array_foreach(vt_cases(doc), i, cs)
	{
		const char *name = vt_str(cs, "name"), *fn = vt_str(cs, "function");
		const vt_entry *skip = vt_find(skips, fn);
		if (skip)
			vt_skip(&r, name, skip->reason);
		else if (strcmp(fn, "ToleratesTaint") == 0)
			vt_record(&r, name, tolerates_taint(cs));
		else if (strcmp(fn, "Taint.ToString") == 0)
			vt_record(&r, name, taint_to_string(cs));
		else
			ck_abort_msg("%s: unknown function %s", name, fn);
	}
	ck_assert_uint_eq(r.skipped, 10); /* 4 MatchTaint + 6 MatchToleration rows */
	vt_end(&r);
	json_decref(doc);
}
END_TEST

/* The filter argument of FindMatchingUntoleratedTaint as an effect mask. */
static unsigned filter_mask(const json_t *filter)
{
	if (json_is_null(filter) || !filter)
		return DSI_EFFECTS_ANY; /* no filter keeps every taint */
	const char *f = json_string_value(filter);
	ck_assert_ptr_nonnull(f);
	if (strcmp(f, "all") == 0)
		return DSI_EFFECTS_ANY;
	if (strcmp(f, "none") == 0)
		return 0;
	if (strcmp(f, "NoExecute") == 0)
		return DSI_EFFECTS_NOEXECUTE;
	ck_abort_msg("unknown filter %s", f);
	return 0;
}

static char *find_untolerated(const json_t *cs)
{
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_taints taints = {0};
	dsi_tolerations tols = {0};
	char *bad = read_taints(&atoms, json_object_get(cs, "taints"), &taints);
	if (!bad) {
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		if (dsi_tolerations_read(&rd, &atoms, cs, "tolerations", &tols) < 0)
			bad = vt_fmt("the reader refused the tolerations: %s: %s", err.path, err.message);
	}
	if (!bad) {
		const json_t *expect = json_object_get(cs, "expect");
		int want = json_is_true(json_object_get(expect, "found"));
		unsigned mask = filter_mask(json_object_get(cs, "filter"));
		int gate = vt_gate(cs, "TaintTolerationComparisonOperators");
		const dsi_taint *t = dsi_find_untolerated_taint(&atoms, &taints, &tols, mask, gate, NULL);
		/* a pass's memo gives the same answer, when it learns the taints and once it knows them */
		dsi_taint_memo memo;
		memset(memo.state, 0, sizeof(memo.state));
		for (int round = 0; round < 2 && !bad; round++) {
			const dsi_taint *m = dsi_find_untolerated_taint(&atoms, &taints, &tols, mask, gate, &memo);
			if (m != t)
				bad = vt_fmt("with a memo (round %d) the taint found is %s, without it %s", round,
					     m ? "another" : "none", t ? "one" : "none");
		}
		if (!bad && (t != NULL) != want) {
			bad = vt_fmt("found = %d, upstream %d", t != NULL, want);
		} else if (!bad && t) {
			json_t *got = dsi_taint_to_json(&atoms, t);
			const json_t *wt = json_object_get(expect, "taint");
			/* the same taint: key, value ("" when absent) and effect */
			if (strcmp(vt_str(got, "key"), vt_str(wt, "key")) != 0 ||
			    strcmp(vt_str(got, "value"), vt_str(wt, "value")) != 0 ||
			    strcmp(vt_str(got, "effect"), vt_str(wt, "effect")) != 0) {
				char *g = vt_dump(got), *w = vt_dump(wt);
				bad = vt_fmt("taint %s, upstream %s", g, w);
				free(g);
				free(w);
			}
			json_decref(got);
		}
	}
	dsi_taints_release(&atoms, &taints);
	dsi_tolerations_release(&atoms, &tols);
	dsi_atoms_free(&atoms);
	return bad;
}

/* A memo carried across many taint sets, as the placement pass carries it from node to node, finds
 * what a search without it finds. First a tolerated taint alternates with 200 taints that differ
 * from it only in value, then 200 that differ only in key, so that those sharing its slot (of 64)
 * meet it there; then random sets
 * of five keys, 200 values and three effects. The tolerations tell taints apart by value (Equal)
 * and by effect. */
START_TEST(taint_memo_across_nodes)
{
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_tolerations tols = {0};
	json_t *tj = json_loads("[{\"key\":\"k0\",\"operator\":\"Equal\",\"value\":\"v1\",\"effect\":\"NoSchedule\"},"
				"{\"key\":\"k1\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"},"
				"{\"key\":\"k2\",\"operator\":\"Equal\",\"value\":\"v3\"},"
				"{\"key\":\"k3\",\"operator\":\"Exists\"}]",
				0, NULL);
	ck_assert_ptr_nonnull(tj);
	ds_error err;
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	json_t *w = json_pack("{s:O}", "tolerations", tj);
	ck_assert_int_eq(dsi_tolerations_read(&rd, &atoms, w, "tolerations", &tols), 0);
	json_decref(w);
	json_decref(tj);
	static const char *const effects[] = {"NoSchedule", "PreferNoSchedule", "NoExecute"};
	static const unsigned masks[] = {DSI_EFFECTS_NOSCHEDULE_NOEXECUTE, DSI_EFFECTS_NOEXECUTE, DSI_EFFECTS_ANY};
	dsi_taint_memo memo[3];
	memset(memo, 0, sizeof(memo));
	/* all the nodes first: a pass reads a snapshot whose atoms stay put (released taints would
	 * give their atom ids to the next strings) */
	enum { NODES = 3800 };
	dsi_taints *nodes = calloc(NODES, sizeof(*nodes));
	ck_assert_ptr_nonnull(nodes);
	unsigned seed = 5, found = 0;
	for (int node = 0; node < NODES; node++) {
		json_t *arr = json_array();
		char key[8], value[8];
		if (node < 800) {
			/* the tolerated k0=v1:NoSchedule, then a taint with another value (or key): whichever
			 * shares its slot finds it there */
			int other = node % 2 ? node / 2 % 200 + 2 : 0;
			snprintf(key, sizeof(key), "k%d", node >= 400 ? other : 0);
			snprintf(value, sizeof(value), "v%d", node < 400 && other ? other : 1);
			json_array_append_new(
				arr, json_pack("{s:s, s:s, s:s}", "key", key, "value", value, "effect", "NoSchedule"));
		}
		int n = node < 800 ? 0 : (int)((seed = seed * 1103515245u + 12345u) >> 16) % 4;
		for (int i = 0; i < n; i++) {
			unsigned r = (seed = seed * 1103515245u + 12345u) >> 8;
			snprintf(key, sizeof(key), "k%u", r % 5);
			snprintf(value, sizeof(value), "v%u", r / 5 % 200);
			json_array_append_new(arr, json_pack("{s:s, s:s, s:s}", "key", key, "value", value, "effect",
							     effects[r / 1000 % 3]));
		}
		ck_assert_ptr_null(read_taints(&atoms, arr, &nodes[node]));
		json_decref(arr);
	}
	for (int node = 0; node < NODES; node++) {
		const dsi_taints *taints = &nodes[node];
		for (int m = 0; m < 3; m++) {
			const dsi_taint *want = dsi_find_untolerated_taint(&atoms, taints, &tols, masks[m], 0, NULL);
			const dsi_taint *got = dsi_find_untolerated_taint(&atoms, taints, &tols, masks[m], 0, &memo[m]);
			ck_assert_msg(got == want, "node %d mask %d: memo found taint %ld, search %ld", node, m,
				      got ? (long)(got - taints->v) : -1L, want ? (long)(want - taints->v) : -1L);
			found += want != NULL;
		}
	}
	for (int node = 0; node < NODES; node++)
		dsi_taints_release(&atoms, &nodes[node]);
	free(nodes);
	ck_assert_uint_gt(found, 1000); /* untolerated taints were there to find */
	dsi_tolerations_release(&atoms, &tols);
	dsi_atoms_free(&atoms);
}
END_TEST

START_TEST(taint_helpers_json)
{
	json_t *doc = vt_load("taint_helpers.json");
	json_t *cs;
	size_t i;
	vt_run r;
	vt_begin(&r, "taint_helpers.json", known);
	json_array_foreach(vt_cases(doc), i, cs)
	{
		ck_assert_str_eq(vt_str(cs, "function"), "FindMatchingUntoleratedTaint");
		vt_record(&r, vt_str(cs, "name"), find_untolerated(cs));
	}
	vt_end(&r);
	json_decref(doc);
}
END_TEST

/* The driver itself: a wrong answer must be reported, not swallowed. */
START_TEST(driver_reports_mismatches)
{
	json_t *cs = json_pack("{s:s, s:{s:s, s:s, s:s}, s:{s:s, s:s, s:s}, s:{s:b}}", "name", "x", "toleration", "key",
			       "k", "operator", "Equal", "value", "a", "taint", "key", "k", "value", "b", "effect",
			       "NoSchedule", "expect", "tolerates", 1);
	char *bad = tolerates_taint(cs);
	ck_assert_ptr_nonnull(bad);
	ck_assert_ptr_nonnull(strstr(bad, "upstream 1"));
	free(bad);
	json_decref(cs);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vec_tolerations");
	TCase *tc = tcase_create("vectors");
	tcase_add_test(tc, tolerations_json);
	tcase_add_test(tc, taint_helpers_json);
	tcase_add_test(tc, taint_memo_across_nodes);
	tcase_add_test(tc, driver_reports_mismatches);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
