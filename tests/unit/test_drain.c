/* Cordon and drain planning: kubectl's test tables, our own cases, texts and bad inputs. */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_options.h"
#include "harness.h"
#include "ops/cordon.h"
#include "ops/drain.h"
#include "vectors.h"

#define UPSTREAM "tests/vectors/upstream/"
#define OWN "tests/vectors/ops/"

/* ---- helpers ------------------------------------------------------------------------ */

static ds_time time_of(const json_t *v)
{
	ds_time t = 0;
	if (json_is_string(v)) {
		ds_error err;
		ck_assert_int_eq(ds_time_parse(json_string_value(v), &t, &err), 0);
	}
	return t;
}

/* Every line of a transcript stream joined with newlines (new string). */
static char *joined(const json_t *lines)
{
	size_t size = 1;
	for (size_t i = 0; i < json_array_size(lines); i++)
		size += strlen(json_string_value(json_array_get(lines, i))) + 1;
	char *s = calloc(1, size);
	for (size_t i = 0; i < json_array_size(lines); i++) {
		strcat(s, json_string_value(json_array_get(lines, i)));
		strcat(s, "\n");
	}
	return s;
}

static int string_set_equal(const json_t *a, const json_t *b)
{
	if (json_array_size(a) != json_array_size(b))
		return 0;
	for (size_t i = 0; i < json_array_size(a); i++) {
		int found = 0;
		for (size_t j = 0; j < json_array_size(b) && !found; j++)
			found = json_equal(json_array_get(a, i), json_array_get(b, j));
		if (!found)
			return 0;
	}
	return 1;
}

static const json_t *pod_of(const json_t *result, const char *key)
{
	const json_t *pods = json_object_get(result, "pods");
	for (size_t i = 0; i < json_array_size(pods); i++) {
		const json_t *p = json_array_get(pods, i);
		char k[600];
		snprintf(k, sizeof(k), "%s/%s", json_string_value(json_object_get(p, "namespace")),
			 json_string_value(json_object_get(p, "name")));
		if (strcmp(k, key) == 0)
			return p;
	}
	return NULL;
}

/* ---- our own vectors ------------------------------------------------------------------ */

static void run_own_case(const json_t *cs)
{
	const char *name = json_string_value(json_object_get(cs, "name"));
	const char *fn = json_string_value(json_object_get(cs, "function"));
	ds_cluster *c = vt_cluster(json_object_get(cs, "objects"), NULL);
	ds_options *opts = dsi_test_options_of(json_object_get(cs, "options"));
	const char *node = json_string_value(json_object_get(cs, "node"));
	char *out = NULL;
	ds_error err;
	int rc;
	if (strcmp(fn, "cordon") == 0)
		rc = ds_cordon(c, node, (int)json_integer_value(json_object_get(cs, "desired")), opts, &out, &err);
	else
		rc = ds_drain(c, node, time_of(json_object_get(cs, "now")), opts, &out, &err);
	dsi_test_expect_outcome(name, cs, rc, &err, out);
	ds_options_free(opts);
	ds_cluster_free(c);
}

START_TEST(own_drain_and_cordon_vectors)
{
	json_t *doc = dsi_test_load_json(OWN "drain.json");
	json_t *cases = json_object_get(doc, "cases");
	ck_assert_uint_ge(json_array_size(cases), 30);
	for (size_t i = 0; i < json_array_size(cases); i++)
		run_own_case(json_array_get(cases, i));
	printf("ops/drain.json: %zu cases run\n", json_array_size(cases));
	json_decref(doc);
}
END_TEST

/* ---- kubectl's tables (tests/vectors/upstream/drain.json) ------------------------------- */

/* TestDrain: every row with both removal methods. */
static void run_test_drain(const json_t *cs)
{
	const char *name = json_string_value(json_object_get(cs, "name"));
	const json_t *expect = json_object_get(cs, "expect");
	json_t *objects = json_array();
	json_array_append(objects, json_object_get(cs, "node"));
	json_array_extend(objects, json_object_get(cs, "pods"));
	json_array_extend(objects, json_object_get(cs, "daemonsets"));
	ds_cluster *c = vt_cluster(objects, NULL);
	json_decref(objects);
	int faults = json_object_get(cs, "transportFaults") != NULL;
	const char *node = json_string_value(json_array_get(json_object_get(cs, "args"), 0));
	static const char *const methods[] = {"eviction", "delete"};
	for (int m = 0; m < 2; m++) {
		ds_options *opts = dsi_test_options_of(json_object_get(cs, "options"));
		ds_error err;
		ck_assert_int_eq(ds_options_set(opts, "disableEviction", m ? "true" : "false", &err), 0);
		char *out = NULL;
		int rc = ds_drain(c, node, 0, opts, &out, &err);
		ck_assert_msg(rc == 0, "%s: %s", name, err.message);
		json_t *r = dsi_test_take_json(out);
		ck_assert_str_eq(json_string_value(json_object_get(r, "method")), methods[m]);
		const json_t *t = json_object_get(r, "transcript");
		char *so = joined(json_object_get(t, "stdout")), *se = joined(json_object_get(t, "stderr"));
		/* fatal: kubectl exits non-zero (a transport fault is what fails the "fail to list pods" row) */
		if (!faults) {
			int fatal = json_integer_value(json_object_get(t, "exitCode")) != 0;
			ck_assert_msg(json_is_integer(json_object_get(t, "exitCode")), "%s: incomplete transcript",
				      name);
			ck_assert_msg(fatal == json_is_true(json_object_get(expect, "fatal")), "%s (%s): fatal %d\n%s",
				      name, methods[m], fatal, se);
			ck_assert_int_eq(json_is_true(json_object_get(r, "drained")), !fatal);
		}
		const json_t *cordon = json_object_get(r, "cordon");
		int cordoned = json_is_true(
			json_object_get(json_object_get(json_object_get(cordon, "patch"), "spec"), "unschedulable"));
		ck_assert_int_eq(cordoned, json_is_true(json_object_get(expect, "cordoned")));
		ck_assert_ptr_nonnull(strstr(so, "node/node cordoned\n"));
		/* per pod: delete | skip | ignore-warning | error */
		const char *key;
		json_t *want;
		size_t npods = 0;
		json_object_foreach(json_object_get(expect, "pods"), key, want)
		{
			const json_t *p = pod_of(r, key);
			ck_assert_msg(p != NULL, "%s: pod %s not planned", name, key);
			const char *o = json_string_value(json_object_get(p, "outcome"));
			const char *w = json_string_value(want);
			const char *mapped = o; /* drain.json's words */
			if (strcmp(o, "evict") == 0 || strcmp(o, "delete") == 0)
				mapped = "delete";
			else if (strcmp(o, "ignore") == 0)
				mapped = "ignore-warning";
			ck_assert_msg(strcmp(mapped, w) == 0, "%s: %s is %s, want %s", name, key, mapped, w);
			if (strcmp(w, "delete") == 0 && !faults)
				ck_assert_str_eq(
					json_string_value(json_object_get(json_object_get(p, "removal"), "result")),
					m ? "deleted" : "evicted");
			npods++;
		}
		ck_assert_uint_eq(npods, json_array_size(json_object_get(r, "pods")));
		const json_t *errs = json_object_get(expect, "errors");
		if (errs)
			ck_assert_msg(string_set_equal(errs, json_object_get(r, "errors")), "%s: errors differ", name);
		else
			ck_assert_uint_eq(json_array_size(json_object_get(r, "errors")), 0);
		const char *warning = json_string_value(json_object_get(expect, "warning"));
		if (warning)
			ck_assert_msg(strstr(se, warning) != NULL, "%s: no '%s' in stderr:\n%s", name, warning, se);
		const char *contains = json_string_value(json_object_get(expect, "stdoutContains"));
		if (contains && !faults)
			ck_assert_msg(strstr(so, contains) != NULL, "%s: no '%s' in stdout:\n%s", name, contains, so);
		/* the removal lines of the method */
		const char *bar = json_string_value(json_object_get(json_object_get(expect, "pods"), "default/bar"));
		if (bar && strcmp(bar, "delete") == 0)
			ck_assert_ptr_nonnull(
				strstr(so, m ? "pod/bar deleted\n" : "evicting pod default/bar\npod/bar evicted\n"));
		else
			ck_assert_ptr_null(strstr(so, "pod/bar "));
		free(so);
		free(se);
		json_decref(r);
		ds_options_free(opts);
	}
	ds_cluster_free(c);
}

/* TestCordon: every name the fake API knows returns the same node object. */
static void run_test_cordon(const json_t *cs)
{
	const char *name = json_string_value(json_object_get(cs, "name"));
	const json_t *expect = json_object_get(cs, "expect");
	int desired = strcmp(json_string_value(json_object_get(cs, "function")), "cordon") == 0;
	json_t *objects = json_array();
	const json_t *names = json_object_get(cs, "nodesExisting");
	for (size_t i = 0; i < json_array_size(names); i++) {
		json_t *n = json_deep_copy(json_object_get(cs, "node"));
		json_object_set(json_object_get(n, "metadata"), "name", json_array_get(names, i));
		json_array_append_new(objects, n);
	}
	ds_cluster *c = vt_cluster(objects, NULL);
	json_decref(objects);
	const json_t *args = json_object_get(cs, "args");
	/* kubectl resolves every argument first: a missing node fails before any PATCH */
	int fatal = 0, patched = 0, after = -1;
	json_t *results = json_array();
	for (size_t i = 0; i < json_array_size(args); i++) {
		char *out = NULL;
		ds_error err;
		int rc = ds_cordon(c, json_string_value(json_array_get(args, i)), desired, NULL, &out, &err);
		if (rc == DS_ENOTFOUND) {
			fatal = 1;
			ck_assert_ptr_null(out);
			ck_assert_str_eq(err.path, "node");
			continue;
		}
		ck_assert_msg(rc == 0, "%s: %s", name, err.message);
		json_array_append_new(results, dsi_test_take_json(out));
	}
	if (fatal) {
		json_array_clear(results);
		after = json_is_true(
			json_object_get(json_object_get(json_object_get(cs, "node"), "spec"), "unschedulable"));
	}
	for (size_t i = 0; i < json_array_size(results); i++) {
		const json_t *r = json_array_get(results, i);
		int changed = json_is_true(json_object_get(r, "changed"));
		patched |= changed;
		int now = changed ? desired : json_is_true(json_object_get(r, "unschedulable"));
		ck_assert(after < 0 || after == now);
		after = now;
		char line[300];
		snprintf(line, sizeof(line), "node/%s %s%s", json_string_value(json_object_get(r, "node")),
			 changed ? "" : "already ", desired ? "cordoned" : "uncordoned");
		ck_assert_str_eq(json_string_value(json_array_get(json_object_get(r, "stdout"), 0)), line);
		/* the patch kubectl sends: true to cordon, null (omitempty) to uncordon */
		const json_t *patch = json_object_get(r, "patch");
		if (changed)
			ck_assert(json_equal(json_object_get(json_object_get(patch, "spec"), "unschedulable"),
					     desired ? json_true() : json_null()));
		else
			ck_assert(json_is_null(patch));
	}
	ck_assert_msg(fatal == json_is_true(json_object_get(expect, "fatal")), "%s: fatal %d", name, fatal);
	ck_assert_msg(after == json_is_true(json_object_get(expect, "unschedulable")), "%s: unschedulable %d", name,
		      after);
	if (json_object_get(expect, "patched"))
		ck_assert_msg(patched == json_is_true(json_object_get(expect, "patched")), "%s: patched %d", name,
			      patched);
	json_decref(results);
	ds_cluster_free(c);
}

/* TestDeleteOrEvict: the pods to remove are put on the drained node (naked,
 * so with force) and the others elsewhere; eviction support is the helper's
 * eviction_gv (the host's discovery), the public API assumes policy/v1. */
static void run_test_delete_or_evict(const json_t *cs)
{
	const char *name = json_string_value(json_object_get(cs, "name"));
	const json_t *expect = json_object_get(cs, "expect"), *remove = json_object_get(cs, "podsToRemove");
	json_t *objects =
		json_pack("[{s:s, s:s, s:{s:s}}]", "apiVersion", "v1", "kind", "Node", "metadata", "name", "node");
	const json_t *pods = json_object_get(cs, "pods");
	for (size_t i = 0; i < json_array_size(pods); i++) {
		json_t *p = json_deep_copy(json_array_get(pods, i));
		char key[300];
		snprintf(key, sizeof(key), "%s/%s",
			 json_string_value(json_object_get(json_object_get(p, "metadata"), "namespace")),
			 json_string_value(json_object_get(json_object_get(p, "metadata"), "name")));
		int on = 0;
		for (size_t j = 0; j < json_array_size(remove); j++)
			on |= strcmp(json_string_value(json_array_get(remove, j)), key) == 0;
		json_object_set_new(json_object_get(p, "spec"), "nodeName", json_string(on ? "node" : "elsewhere"));
		json_array_append_new(objects, p);
	}
	ds_cluster *c = vt_cluster(objects, NULL);
	json_decref(objects);
	json_t *o = json_deep_copy(json_object_get(cs, "options"));
	json_object_set_new(o, "force", json_true());
	ds_options *opts = dsi_test_options_of(o);
	json_decref(o);
	dsi_drain_cfg cfg;
	ds_error err;
	const dsi_ops_cfg ocfg = dsi_o_ops_cfg(opts); /* cfg keeps a pointer to it */
	ck_assert_int_eq(dsi_drain_cfg_init(&cfg, c, &ocfg, &err), 0);
	if (!json_is_true(json_object_get(cs, "evictionSupported")))
		cfg.eviction_gv = NULL;
	json_t *r;
	ck_assert_int_eq(dsi_drain_json(&cfg, dsi_cluster_node_by_name(c, "node"), 0, &r, &err), 0);
	int eviction = json_is_true(json_object_get(expect, "usingEviction"));
	ck_assert_msg(strcmp(json_string_value(json_object_get(r, "method")), eviction ? "eviction" : "delete") == 0,
		      "%s", name);
	ck_assert(string_set_equal(json_object_get(r, "removed"), remove));
	const json_t *evictions = json_object_get(expect, "evictions");
	for (size_t i = 0; i < json_array_size(evictions); i++) {
		const json_t *e = json_array_get(evictions, i);
		char key[300];
		snprintf(key, sizeof(key), "%s/%s", json_string_value(json_object_get(e, "namespace")),
			 json_string_value(json_object_get(e, "name")));
		const json_t *p = pod_of(r, key);
		ck_assert_ptr_nonnull(p);
		ck_assert_str_eq(json_string_value(json_object_get(json_object_get(p, "removal"), "result")),
				 "evicted");
		/* makeDeleteOptions: the same options ride in every Eviction */
		ck_assert(json_equal(json_object_get(r, "deleteOptions"), json_object_get(e, "deleteOptions")));
	}
	if (!eviction)
		for (size_t i = 0; i < json_array_size(remove); i++)
			ck_assert_str_eq(
				json_string_value(json_object_get(
					json_object_get(pod_of(r, json_string_value(json_array_get(remove, i))),
							"removal"),
					"result")),
				"deleted");
	const json_t *remaining = json_object_get(expect, "remainingPods");
	for (size_t i = 0; i < json_array_size(remaining); i++)
		ck_assert_ptr_null(pod_of(r, json_string_value(json_array_get(remaining, i))));
	json_decref(r);
	dsi_drain_cfg_release(&cfg);
	ds_options_free(opts);
	ds_cluster_free(c);
}

START_TEST(upstream_drain_table)
{
	json_t *doc = dsi_test_load_json(UPSTREAM "drain.json");
	json_t *cases = json_object_get(doc, "cases");
	size_t ran = 0, skipped = 0;
	for (size_t i = 0; i < json_array_size(cases); i++) {
		const json_t *cs = json_array_get(cases, i);
		const char *fn = json_string_value(json_object_get(cs, "function"));
		const json_t *o = json_object_get(cs, "options");
		if (strcmp(fn, "drain") == 0) {
			run_test_drain(cs);
			ran++;
		} else if (strcmp(fn, "cordon") == 0 || strcmp(fn, "uncordon") == 0) {
			run_test_cordon(cs);
			ran++;
		} else if (strcmp(fn, "DeleteOrEvictPods") == 0 && !json_object_get(cs, "evictionResponse") &&
			   !json_object_get(o, "dryRun")) {
			run_test_delete_or_evict(cs);
			ran++;
		} else {
			/* not expressible in a plan: API discovery (CheckEvictionSupport), polling
			 * for deletion (waitForDelete), live eviction answers and server dry-run */
			ck_assert_msg(strcmp(fn, "CheckEvictionSupport") == 0 || strcmp(fn, "waitForDelete") == 0 ||
					      strcmp(fn, "DeleteOrEvictPods") == 0,
				      "unexpected function %s", fn);
			skipped++;
		}
	}
	printf("drain.json: %zu cases run (TestDrain with both methods, TestCordon, TestDeleteOrEvict), %zu not "
	       "expressible "
	       "in a plan (discovery, deletion polling, live eviction answers, server dry-run)\n",
	       ran, skipped);
	ck_assert_uint_eq(ran, 30);
	ck_assert_uint_eq(skipped, 13);
	json_decref(doc);
}
END_TEST

/* ---- drain_filters.json ------------------------------------------------------------------- */

static void skip_filter(const dsi_drain_cfg *cfg, const dsi_pod *p, void *ctx, dsi_pod_status *out)
{
	(void)cfg, (void)p, (void)ctx;
	out->del = 0;
	out->reason = DSI_PDS_SKIP;
}

static void okay_filter(const dsi_drain_cfg *cfg, const dsi_pod *p, void *ctx, dsi_pod_status *out)
{
	(void)cfg, (void)p, (void)ctx;
	out->del = 1;
	out->reason = DSI_PDS_OKAY;
}

static const dsi_pod *first_pod(const ds_cluster *c, const json_t *pod)
{
	const json_t *md = json_object_get(pod, "metadata");
	const dsi_pod *p =
		dsi_cluster_pod(c, dsi_atom_lookup_cstr(&c->atoms, json_string_value(json_object_get(md, "namespace"))),
				dsi_atom_lookup_cstr(&c->atoms, json_string_value(json_object_get(md, "name"))));
	ck_assert_ptr_nonnull(p);
	return p;
}

START_TEST(upstream_filter_table)
{
	json_t *doc = dsi_test_load_json(UPSTREAM "drain_filters.json");
	json_t *cases = json_object_get(doc, "cases");
	size_t ran = 0;
	for (size_t i = 0; i < json_array_size(cases); i++) {
		const json_t *cs = json_array_get(cases, i);
		const char *name = json_string_value(json_object_get(cs, "name"));
		const char *fn = json_string_value(json_object_get(cs, "function"));
		const json_t *expect = json_object_get(cs, "expect");
		ds_options *opts = dsi_test_options_of(json_object_get(cs, "options"));
		dsi_drain_cfg cfg;
		ds_error err;
		if (strcmp(fn, "skipDeletedFilter") == 0) {
			json_t *objs = json_pack("[O]", json_object_get(cs, "pod"));
			ds_cluster *c = vt_cluster(objs, NULL);
			json_decref(objs);
			const dsi_ops_cfg ocfg = dsi_o_ops_cfg(opts); /* cfg keeps a pointer to it */
			ck_assert_int_eq(dsi_drain_cfg_init(&cfg, c, &ocfg, &err), 0);
			dsi_pod_status st;
			ck_assert_int_eq(dsi_skip_deleted_filter(&cfg, first_pod(c, json_object_get(cs, "pod")),
								 time_of(json_object_get(cs, "now")), &st),
					 0);
			ck_assert_msg(st.del == json_is_true(json_object_get(expect, "delete")), "%s", name);
			ck_assert_int_eq(st.reason, st.del ? DSI_PDS_OKAY : DSI_PDS_SKIP);
			dsi_drain_cfg_release(&cfg);
			ds_cluster_free(c);
		} else {
			ck_assert_str_eq(fn, "filterPods");
			ds_cluster *c = vt_cluster(json_object_get(cs, "pods"), NULL);
			const dsi_ops_cfg ocfg = dsi_o_ops_cfg(opts); /* cfg keeps a pointer to it */
			ck_assert_int_eq(dsi_drain_cfg_init(&cfg, c, &ocfg, &err), 0);
			const json_t *af = json_object_get(cs, "additionalFilters");
			dsi_pod_filter_fn fns[4];
			for (size_t k = 0; k < json_array_size(af); k++)
				fns[k] = strcmp(json_string_value(json_array_get(af, k)), "skip") == 0 ? skip_filter
												       : okay_filter;
			cfg.extra = fns;
			cfg.nextra = json_array_size(af);
			size_t del = 0;
			const json_t *pods = json_object_get(cs, "pods");
			for (size_t k = 0; k < json_array_size(pods); k++) {
				dsi_pod_status st;
				ck_assert_int_eq(
					dsi_drain_filter_pod(&cfg, first_pod(c, json_array_get(pods, k)), 0, &st, NULL),
					0);
				del += st.del;
				dsi_pod_status_release(&st);
			}
			ck_assert_msg(del == (size_t)json_integer_value(json_object_get(expect, "podsToDelete")),
				      "%s: %zu", name, del);
			dsi_drain_cfg_release(&cfg);
			ds_cluster_free(c);
		}
		ds_options_free(opts);
		ran++;
	}
	printf("drain_filters.json: %zu cases run\n", ran);
	ck_assert_uint_eq(ran, 7);
	json_decref(doc);
}
END_TEST

/* ---- texts and internals -------------------------------------------------------------------- */

START_TEST(aggregate_texts)
{
	json_t *a = json_pack("[]");
	ck_assert_ptr_null(dsi_aggregate_text(a));
	json_array_append_new(a, json_string("one"));
	char *s = dsi_aggregate_text(a);
	ck_assert_str_eq(s, "one");
	ds_free(s);
	json_array_append_new(a, json_string("one")); /* duplicates collapse, and so do the brackets */
	s = dsi_aggregate_text(a);
	ck_assert_str_eq(s, "one");
	ds_free(s);
	json_array_append_new(a, json_string("two"));
	s = dsi_aggregate_text(a);
	ck_assert_str_eq(s, "[one, two]");
	ds_free(s);
	json_decref(a);
}
END_TEST

START_TEST(node_arguments)
{
	ck_assert_str_eq(dsi_cordon_node_arg("n1"), "n1");
	ck_assert_str_eq(dsi_cordon_node_arg("node/n1"), "n1");
	ck_assert_str_eq(dsi_cordon_node_arg("nodes/n1"), "n1");
	ck_assert_str_eq(dsi_cordon_node_arg("no/n1"), "n1");
	ck_assert_ptr_null(dsi_cordon_node_arg("pod/n1"));
	ck_assert_ptr_null(dsi_cordon_node_arg("node/"));
	ck_assert_ptr_null(dsi_cordon_node_arg("node/a/b"));
	ck_assert_ptr_null(dsi_cordon_node_arg(""));
}
END_TEST

/* A deletionTimestamp at the far ends of time: Go's Sub saturates, nothing overflows. */
START_TEST(skip_deleted_extreme_times)
{
	json_t *objs =
		json_pack("[{s:s, s:s, s:{s:s, s:s, s:s}, s:{}}]", "apiVersion", "v1", "kind", "Pod", "metadata",
			  "name", "p", "namespace", "default", "deletionTimestamp", "0001-01-01T00:00:00Z", "spec");
	ds_cluster *c = vt_cluster(objs, NULL);
	ds_options *opts = dsi_test_options_of(NULL);
	ds_error err;
	ck_assert_int_eq(ds_options_set(opts, "skipWaitForDeleteTimeoutSeconds", "9223372036", &err), 0);
	dsi_drain_cfg cfg;
	const dsi_ops_cfg ocfg = dsi_o_ops_cfg(opts); /* cfg keeps a pointer to it */
	ck_assert_int_eq(dsi_drain_cfg_init(&cfg, c, &ocfg, &err), 0);
	dsi_pod_status st;
	const dsi_pod *p = first_pod(c, json_array_get(objs, 0));
	/* 9999 years later: the duration saturates at 9223372036.85 s, not more than the limit */
	ck_assert_int_eq(dsi_skip_deleted_filter(&cfg, p, INT64_MAX, &st), 0);
	ck_assert_int_eq(st.del, 1);
	cfg.skip_wait_timeout_seconds = 9223372035;
	ck_assert_int_eq(dsi_skip_deleted_filter(&cfg, p, INT64_MAX, &st), 0);
	ck_assert_int_eq(st.del, 0);
	/* a deletion in the future is never "older than" anything */
	ck_assert_int_eq(dsi_skip_deleted_filter(&cfg, p, INT64_MIN, &st), 0);
	ck_assert_int_eq(st.del, 1);
	dsi_drain_cfg_release(&cfg);
	ds_options_free(opts);
	ds_cluster_free(c);
	json_decref(objs);
}
END_TEST

START_TEST(cordoned_view_taints)
{
	json_t *objs = json_pack("[{s:s, s:s, s:{s:s}, s:{s:[{s:s, s:s}, {s:s, s:s, s:s}]}}]", "apiVersion", "v1",
				 "kind", "Node", "metadata", "name", "n1", "spec", "taints", "key",
				 "node.kubernetes.io/unschedulable", "effect", "NoExecute", "key",
				 "node.kubernetes.io/unschedulable", "value", "x", "effect", "NoSchedule");
	ds_cluster *c = vt_cluster(objs, NULL);
	json_decref(objs);
	const dsi_node *n = dsi_cluster_node_by_name(c, "n1");
	dsi_node v;
	dsi_taint *buf;
	/* cordon: a NoSchedule taint with that key is there already (value ignored): unchanged */
	ck_assert_int_eq(dsi_cordoned_view(c, n, 1, &v, &buf), 0);
	ck_assert_ptr_null(buf);
	ck_assert_uint_eq(v.taints.n, 2);
	ck_assert_int_eq(v.unschedulable, 1);
	/* uncordon: the NoSchedule one goes, the NoExecute one (not the controller's) stays */
	ck_assert_int_eq(dsi_cordoned_view(c, n, 0, &v, &buf), 0);
	ck_assert_uint_eq(v.taints.n, 1);
	ck_assert_int_eq(v.taints.v[0].effect, DSI_EFFECT_NO_EXECUTE);
	ck_assert_int_eq(v.unschedulable, 0);
	ds_free(buf);
	ds_cluster_free(c);
}
END_TEST

START_TEST(bad_arguments)
{
	json_t *objs = json_pack("[{s:s, s:s, s:{s:s}}]", "apiVersion", "v1", "kind", "Node", "metadata", "name", "n1");
	ds_cluster *c = vt_cluster(objs, NULL);
	json_decref(objs);
	char *out = (char *)1;
	ds_error err;
	ck_assert_int_eq(ds_drain(NULL, "n1", 0, NULL, &out, &err), DS_EARG);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(ds_drain(c, NULL, 0, NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_drain(c, "n1", 0, NULL, NULL, &err), DS_EARG);
	ck_assert_int_eq(ds_drain(c, "n1", 0, NULL, NULL, NULL), DS_EARG);
	ck_assert_int_eq(ds_cordon(NULL, "n1", 1, NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_cordon(c, NULL, 1, NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_cordon(c, "n1", 1, NULL, NULL, NULL), DS_EARG);
	ck_assert_int_eq(ds_cordon(c, "n1", -1, NULL, &out, &err), DS_EARG);
	ck_assert_str_eq(err.path, "desired");
	ck_assert_int_eq(ds_drain(c, "n2", 0, NULL, &out, NULL), DS_ENOTFOUND);
	/* an empty snapshot node: the plan is just the cordon and "drained" */
	ck_assert_int_eq(ds_drain(c, "n1", 0, NULL, &out, &err), 0);
	json_t *r = dsi_test_take_json(out);
	json_t *want =
		json_pack("{s:s, s:b, s:{s:[s, s], s:[], s:i, s:b}}", "verdict", "drained", "drained", 1, "transcript",
			  "stdout", "node/n1 cordoned", "node/n1 drained", "stderr", "exitCode", 0, "complete", 1);
	dsi_test_assert_subset("empty node", want, r);
	json_decref(want);
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

static Suite *drain_suite(void)
{
	Suite *s = suite_create("drain");
	TCase *tc = tcase_create("drain");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, upstream_drain_table);
	tcase_add_test(tc, upstream_filter_table);
	tcase_add_test(tc, own_drain_and_cordon_vectors);
	tcase_add_test(tc, aggregate_texts);
	tcase_add_test(tc, node_arguments);
	tcase_add_test(tc, skip_deleted_extreme_times);
	tcase_add_test(tc, cordoned_view_taints);
	tcase_add_test(tc, bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(drain_suite)
