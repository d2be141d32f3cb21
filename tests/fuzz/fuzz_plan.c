/*
 * libFuzzer target: planning on a fuzzed snapshot. The bytes are loaded into
 * an empty snapshot (JSON or YAML, any mix of kinds); for every DaemonSet
 * (up to 6): ds_should_run and ds_should_run_json on every node (up to 12),
 * ds_explain, ds_plan_sync (every accessor, then a second sync fed the first
 * one's backoff state), ds_status_compute, ds_daemon_pod, ds_daemon_history
 * and (for the first two, when their selector matches their template)
 * ds_rollout_simulate with a small simMaxTime.
 * Invariants: the ABI error contract; every JSON result parses;
 * shouldRun implies shouldContinueRunning; ds_should_run_json agrees with
 * ds_should_run; with every node asked, the status's desired count is the
 * number of nodes ds_should_run places; the plan's accessors agree with its counts; ds_explain and
 * the plan do not depend on the snapshot's history (the same bytes loaded
 * twice, which replaces every object, and a copy give the same JSON).
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_common.h"

static ds_options *load_opts, *plan_opts; /* read-only after LLVMFuzzerInitialize */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	load_opts = fuzz_options("{\"maxAliasNodes\": 2000, \"maxObjects\": 400}");
	plan_opts = fuzz_options("{\"simMaxTime\": \"2m\", \"simReadyAfter\": \"5s\", \"simTerminateAfter\": \"3s\"}");
	return 0;
}

/* shouldRun for one node: 0 or 1, -1 on an error */
static int should_run(const ds_cluster *c, const char *ns, const char *name, const char *node)
{
	ds_error err;
	int sr = -1, scr = -1;
	int rc = ds_should_run(c, ns, name, node, plan_opts, &sr, &scr, &err);
	fuzz_check_rc("ds_should_run", rc, &err);
	char *json = NULL;
	int rcj = ds_should_run_json(c, ns, name, node, plan_opts, &json, &err);
	fuzz_check_rc("ds_should_run_json", rcj, &err);
	FUZZ_ASSERT(rc == rcj, "ds_should_run %d but ds_should_run_json %d", rc, rcj);
	if (rc < 0)
		return -1;
	FUZZ_ASSERT((sr == 0 || sr == 1) && (scr == 0 || scr == 1), "should_run %d, should_continue_running %d", sr,
		    scr);
	FUZZ_ASSERT(!sr || scr, "shouldRun without shouldContinueRunning on %s", node);
	json_error_t je;
	json_t *v = json_loads(json, 0, &je);
	FUZZ_ASSERT(v, "ds_should_run_json is not JSON: %s", je.text);
	FUZZ_ASSERT(json_is_boolean(json_object_get(v, "shouldRun")) &&
			    json_is_true(json_object_get(v, "shouldRun")) == sr &&
			    json_is_true(json_object_get(v, "shouldContinueRunning")) == scr,
		    "ds_should_run_json disagrees with ds_should_run (%d, %d): %.300s", sr, scr, json);
	json_decref(v);
	ds_free(json);
	return sr;
}

static void plan(const ds_cluster *c, const char *ns, const char *name)
{
	ds_error err;
	ds_plan *p = NULL;
	int rc = ds_plan_sync(c, ns, name, FUZZ_NOW, plan_opts, NULL, &p, &err);
	fuzz_check_rc("ds_plan_sync", rc, &err);
	if (rc < 0) {
		FUZZ_ASSERT(p == NULL, "ds_plan_sync failed but gave a plan");
		return;
	}
	char *json = NULL;
	rc = ds_plan_to_json(p, &json, &err);
	fuzz_check_rc("ds_plan_to_json", rc, &err);
	fuzz_check_json("ds_plan_to_json", json);
	ds_free(json);

	size_t nc = ds_plan_create_count(p), nd = ds_plan_delete_count(p);
	for (size_t i = 0; i <= nc && i < 8; i++) {
		ds_plan_create cr;
		memset(&cr, 0, sizeof(cr));
		cr.size = sizeof(cr);
		rc = ds_plan_create_at(p, i, &cr, &err);
		fuzz_check_rc("ds_plan_create_at", rc, &err);
		FUZZ_ASSERT((rc == 0) == (i < nc), "ds_plan_create_at(%zu) of %zu: %d", i, nc, rc);
		char *pod = NULL;
		rc = ds_plan_create_pod(p, i, &pod, &err);
		fuzz_check_rc("ds_plan_create_pod", rc, &err);
		FUZZ_ASSERT((rc == 0) == (i < nc), "ds_plan_create_pod(%zu) of %zu: %d", i, nc, rc);
		if (rc == 0) {
			FUZZ_ASSERT(cr.node && cr.reason, "create %zu without node or reason", i);
			fuzz_check_json("ds_plan_create_pod", pod);
		}
		ds_free(pod);
	}
	for (size_t i = 0; i <= nd && i < 64; i++) {
		ds_plan_delete d;
		memset(&d, 0, sizeof(d));
		d.size = sizeof(d);
		rc = ds_plan_delete_at(p, i, &d, &err);
		fuzz_check_rc("ds_plan_delete_at", rc, &err);
		FUZZ_ASSERT((rc == 0) == (i < nd), "ds_plan_delete_at(%zu) of %zu: %d", i, nd, rc);
		if (rc == 0)
			FUZZ_ASSERT(d.name && d.reason, "delete %zu without name or reason", i);
	}
	ds_status st;
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	int changed = -1;
	rc = ds_plan_status(p, &st, &changed, &err);
	fuzz_check_rc("ds_plan_status", rc, &err);
	FUZZ_ASSERT(changed == 0 || changed == 1, "ds_plan_status changed %d", changed);
	(void)ds_plan_requeue_after(p);

	char *backoff = NULL;
	rc = ds_plan_backoff(p, &backoff, &err);
	fuzz_check_rc("ds_plan_backoff", rc, &err);
	fuzz_check_json("ds_plan_backoff", backoff);
	ds_plan_free(p);

	/* the next sync, a second later, with the backoff state of this one */
	p = NULL;
	rc = ds_plan_sync(c, ns, name, FUZZ_NOW + 1000, plan_opts, backoff, &p, &err);
	fuzz_check_rc("ds_plan_sync (with backoff)", rc, &err);
	FUZZ_ASSERT(rc == 0, "the backoff state of a plan is refused by the next sync: %s (%s)", err.message, backoff);
	ds_plan_free(p);
	ds_free(backoff);
}

/* explain and plan JSON of ns/name on c (NULL when the call fails); free with ds_free */
static void explain_and_plan(const ds_cluster *c, const char *ns, const char *name, char **explain, char **plan_json)
{
	ds_error err;
	*explain = *plan_json = NULL;
	if (ds_explain(c, ns, name, plan_opts, explain, &err) < 0)
		*explain = NULL;
	ds_plan *p = NULL;
	if (ds_plan_sync(c, ns, name, FUZZ_NOW, plan_opts, NULL, &p, &err) == 0 &&
	    ds_plan_to_json(p, plan_json, &err) < 0)
		*plan_json = NULL;
	ds_plan_free(p);
}

static int same(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

/* The same answers from a snapshot with another history: the bytes loaded twice, then copied. */
static void history(const ds_cluster *c, const uint8_t *data, size_t size, const fuzz_names *n)
{
	ds_cluster *twice = NULL, *copy = NULL;
	ds_error err;
	int rc = ds_cluster_new(load_opts, &twice, &err);
	FUZZ_ASSERT(rc == 0, "ds_cluster_new: %s", err.message);
	for (int i = 0; i < 2; i++) {
		rc = ds_cluster_load(twice, (const char *)data, size, NULL, &err);
		FUZZ_ASSERT(rc == 0, "the bytes load once but not %s: %s", i ? "twice" : "again", err.message);
	}
	rc = ds_cluster_copy(twice, &copy, &err);
	FUZZ_ASSERT(rc == 0, "ds_cluster_copy: %s", err.message);
	for (size_t d = 0; d < n->nds; d++) {
		char *e1, *p1, *e2, *p2, *e3, *p3;
		explain_and_plan(c, n->ds_ns[d], n->ds_name[d], &e1, &p1);
		explain_and_plan(twice, n->ds_ns[d], n->ds_name[d], &e2, &p2);
		explain_and_plan(copy, n->ds_ns[d], n->ds_name[d], &e3, &p3);
		FUZZ_ASSERT(same(e1, e2) && same(p1, p2),
			    "%s/%s: loading the bytes twice changes %s:\n%.2000s\n%.2000s", n->ds_ns[d], n->ds_name[d],
			    same(e1, e2) ? "the plan" : "ds_explain", same(e1, e2) ? p1 : e1, same(e1, e2) ? p2 : e2);
		FUZZ_ASSERT(same(e2, e3) && same(p2, p3), "%s/%s: ds_cluster_copy changes %s:\n%.2000s\n%.2000s",
			    n->ds_ns[d], n->ds_name[d], same(e2, e3) ? "the plan" : "ds_explain",
			    same(e2, e3) ? p2 : e2, same(e2, e3) ? p3 : e3);
		ds_free(e1), ds_free(p1), ds_free(e2), ds_free(p2), ds_free(e3), ds_free(p3);
	}
	ds_cluster_free(copy);
	ds_cluster_free(twice);
}

/* Whether the DaemonSet's selector matches its template's labels, as API validation requires.
 * When it does not, ds_rollout_simulate must refuse (DS_EINVALID) rather than create pods that
 * each next sync releases (tests/unit/test_regress_fuzz.c, simulate_selector_mismatch). */
static int selector_matches_template(const ds_cluster *c, const char *ns, const char *name)
{
	char *text = NULL;
	ds_error err;
	if (ds_cluster_get(c, "DaemonSet", ns, name, &text, &err) < 0)
		return 0;
	json_t *ds = json_loads(text, 0, NULL);
	ds_free(text);
	json_t *spec = json_object_get(ds, "spec");
	json_t *sel = json_object_get(spec, "selector");
	json_t *labels = json_object_get(json_object_get(json_object_get(spec, "template"), "metadata"), "labels");
	char *s = json_is_object(sel) ? json_dumps(sel, JSON_COMPACT) : NULL;
	char *l = json_is_object(labels) ? json_dumps(labels, JSON_COMPACT) : strdup("{}");
	int match = 0;
	if (s && l && ds_selector_matches(s, l, &match, &err) < 0)
		match = 0;
	free(s);
	free(l);
	json_decref(ds);
	return match;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	ds_error err;
	int rc;
	ds_cluster *c = fuzz_cluster(load_opts, data, size);
	if (c) {
		fuzz_names n;
		fuzz_names_get(c, &n, 6, 12);
		for (size_t d = 0; d < n.nds; d++) {
			const char *ns = n.ds_ns[d], *name = n.ds_name[d];
			int placed = 0;
			for (size_t i = 0; i < n.nnodes; i++) {
				int sr = should_run(c, ns, name, n.node[i]);
				placed = placed < 0 || sr < 0 ? -1 : placed + sr;
			}
			char *json = NULL;
			rc = ds_explain(c, ns, name, plan_opts, &json, &err);
			fuzz_check_result("ds_explain", rc, json, &err);
			plan(c, ns, name);
			ds_status st;
			memset(&st, 0, sizeof(st));
			st.size = sizeof(st);
			rc = ds_status_compute(c, ns, name, FUZZ_NOW, plan_opts, &st, &err);
			fuzz_check_rc("ds_status_compute", rc, &err);
			/* the pass over all nodes (requirements on keys no node has decided once) agrees
			 * with asking node by node */
			if (rc == 0 && placed >= 0 && n.nnodes == ds_cluster_count(c, "Node"))
				FUZZ_ASSERT(st.desired_number_scheduled == placed,
					    "%s/%s: status desires %d pods, ds_should_run places %d", ns, name,
					    st.desired_number_scheduled, placed);
			json = NULL;
			rc = ds_daemon_pod(c, ns, name, n.nnodes ? n.node[0] : "fuzz-node", plan_opts, &json, &err);
			fuzz_check_result("ds_daemon_pod", rc, json, &err);
			json = NULL;
			rc = ds_daemon_history(c, ns, name, plan_opts, &json, &err);
			fuzz_check_result("ds_daemon_history", rc, json, &err);
			if (d >= 2)
				continue; /* the simulation is the slowest call by far: two DaemonSets suffice */
			json = NULL;
			rc = ds_rollout_simulate(c, ns, name, FUZZ_NOW, plan_opts, &json, &err);
			FUZZ_ASSERT(rc == DS_EINVALID || selector_matches_template(c, ns, name),
				    "%s/%s: simulated although the selector does not match the template (rc %d)", ns,
				    name, rc);
			fuzz_check_result("ds_rollout_simulate", rc, json, &err);
		}
		history(c, data, size, &n);
		fuzz_names_free(&n);
	}
	ds_cluster_free(c);
	return 0;
}
