/*
 * Regression cases for what the fuzzers (tests/fuzz) found. Each case
 * replays the minimised input, kept under tests/vectors/regress/<target>/
 * (the fuzzers also start from those files), and asserts the behaviour the
 * library must have once the finding is fixed.
 *
 * Findings not fixed yet are marked OPEN_* = 1 below: their case prints
 * "known unfixed" and does not fail the suite. When a fix lands the case
 * passes, and the suite fails until the mark is set back to 0 - so the list
 * of open findings stays true.
 *
 * Some findings are undefined behaviour with no other visible effect: their
 * cases always pass in a plain build and catch a regression only under
 * clang's UBSan (make CC=clang SAN_BUILD=build/x sanitize): GCC's
 * -fsanitize=undefined does not include float-cast-overflow.
 * SPDX-License-Identifier: Apache-2.0
 */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* Open findings (1 while the library still has the bug). */
#define OPEN_CLUSTER_SCOPED_NAMESPACE 0   /* a Node with metadata.namespace cannot be found by name */
#define OPEN_YAML_FLOAT_OVERFLOW 0        /* YAML 1e309 is DS_ENOMEM instead of the string "1e309" */
#define OPEN_SUMMARY_ORDER 0              /* ds_cluster_summary lists DaemonSets in storage order */
#define OPEN_RELEASE_ORDER 0              /* a plan's releasePods depend on the snapshot's history */
#define OPEN_SIMULATE_SELECTOR_MISMATCH 0 /* simulating a selector/template mismatch creates pods every round */

#define NOW ((ds_time)1796223600000LL) /* 2026-12-02T15:00:00Z, the fuzzers' instant */

/* The verdict of a case: ok must hold, unless the finding is still open. */
static void verdict(const char *name, int open, int ok, const char *detail)
{
	if (open && !ok) {
		fprintf(stderr, "regress_fuzz: %s: known unfixed: %s\n", name, detail);
		return;
	}
	ck_assert_msg(!open, "%s now passes: set its OPEN_* mark in tests/unit/test_regress_fuzz.c to 0", name);
	ck_assert_msg(ok, "%s: %s", name, detail);
}

static char *input(const char *target, const char *name, size_t *len)
{
	char path[256];
	snprintf(path, sizeof(path), "tests/vectors/regress/%s/%s", target, name);
	return dsi_test_read_file(path, len);
}

static ds_cluster *load(const char *text, size_t len, int times)
{
	ds_cluster *c = NULL;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	for (int i = 0; i < times; i++) {
		int rc = ds_cluster_load(c, text, len, NULL, &err);
		ck_assert_msg(rc == 0, "load: %d %s: %s", rc, err.path, err.message);
	}
	return c;
}

/* Options from JSON (ds_options_free them). */
static ds_options *options(const char *json)
{
	ds_options *o = NULL;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_msg(ds_options_set_json(o, json, &err) == 0, "%s: %s", err.path, err.message);
	return o;
}

/* The first node name of the snapshot's summary (new string). */
static char *first_node(const ds_cluster *c)
{
	char *s = NULL;
	ds_error err;
	ck_assert_int_eq(ds_cluster_summary(c, &s, &err), 0);
	json_t *v = json_loads(s, 0, NULL);
	ds_free(s);
	const char *n = json_string_value(json_array_get(json_object_get(v, "nodeNames"), 0));
	ck_assert_ptr_nonnull(n);
	char *copy = strdup(n);
	json_decref(v);
	return copy;
}

/*
 * fuzz_load_json, fuzz_drain: {"kind":"List","items":[{"kind":"Node","metadata":{"name":r,"namespace":t}}]}
 * (YAML flow style). The summary lists node "r", but ds_cluster_get("Node", NULL, "r"), ds_drain and
 * ds_cordon say it does not exist: the Node was stored under namespace "t". The API server clears
 * metadata.namespace of cluster-scoped objects (apiserver pkg/registry/rest BeforeCreate ->
 * EnsureObjectNamespaceMatchesRequestNamespace); the loader (lib/model/snapshot.c stage) should too,
 * for Node and PriorityClass.
 */
START_TEST(cluster_scoped_namespace)
{
	static const char *const files[][2] = {{"fuzz_load_json", "node-with-namespace"},
					       {"fuzz_drain", "node-with-namespace"}};
	for (size_t f = 0; f < 2; f++) {
		size_t len;
		char *text = input(files[f][0], files[f][1], &len);
		ds_cluster *c = load(text, len, 1);
		char *node = first_node(c);
		char *out = NULL;
		ds_error err;
		int get = ds_cluster_get(c, "Node", NULL, node, &out, &err);
		ds_free(out);
		out = NULL;
		int drain = ds_drain(c, node, NOW, NULL, &out, &err);
		ds_free(out);
		out = NULL;
		int cordon = ds_cordon(c, node, 1, NULL, &out, &err);
		ds_free(out);
		char detail[200];
		snprintf(detail, sizeof(detail), "node %s of the summary: get %d, drain %d, cordon %d (want 0)", node,
			 get, drain, cordon);
		verdict(files[f][1], OPEN_CLUSTER_SCOPED_NAMESPACE, get == 0 && drain == 0 && cordon == 0, detail);
		free(node);
		ds_cluster_free(c);
		free(text);
	}
}
END_TEST

/*
 * fuzz_selector_string, fuzz_selector_json, fuzz_events: a YAML plain scalar such as 5E55 or 9E99
 * (a float beyond int64). lib/core/yaml.c json_from_double converted it to int64_t before checking
 * the range: undefined behaviour (clang UBSan: "outside the range of representable values of type
 * 'long'"). Fix: test the range first. The value stays a JSON real, so a label value 5E55 is the
 * type error it always was.
 */
START_TEST(yaml_float_beyond_int64)
{
	size_t len;
	char *text = input("fuzz_selector_string", "yaml-float-beyond-int64", &len); /* "\0" "5E55" */
	ck_assert_uint_eq(len, 5);
	int match = -1;
	ds_error err;
	ck_assert_int_eq(ds_selector_matches(text, text + 1, &match, &err), DS_ETYPE);
	free(text);
	text = input("fuzz_selector_json", "yaml-float-beyond-int64", &len); /* "{9E99" */
	char *out = NULL;
	int rc = ds_selector_string(text, &out, &err);
	ck_assert_msg(rc < 0 && rc != DS_ENOMEM, "ds_selector_string(\"{9E99\"): %d %s", rc, err.message);
	ds_free(out);
	free(text);
	/* the same values as numbers that fit: unchanged */
	ck_assert_int_eq(ds_selector_matches("", "x: 5E5", &match, &err), DS_ETYPE);
	ck_assert_str_eq(err.path, "x");
}
END_TEST

/*
 * A YAML plain scalar that looks like a float but overflows float64 (1e309): go-yaml v2's resolve
 * tries strconv.ParseFloat, which fails with ErrRange, and keeps the scalar as the string "1e309".
 * The library got +Inf from strtod, which jansson refuses, and reported DS_ENOMEM ("out of
 * memory"). Fix (lib/core/yaml.c dsi_yaml_resolve_plain): a non-finite result stays a string.
 */
START_TEST(yaml_float_overflow_is_string)
{
	size_t len;
	char *text = input("fuzz_selector_string", "yaml-float-overflow-is-string", &len); /* "x=1e309\0x: 1e309" */
	int match = -1;
	ds_error err;
	int rc = ds_selector_matches(text, text + strlen(text) + 1, &match, &err);
	char detail[400];
	snprintf(detail, sizeof(detail), "selector x=1e309 on labels {x: 1e309}: rc %d (%s), match %d; want 0, 1", rc,
		 err.message, match);
	verdict("yaml-float-overflow-is-string", OPEN_YAML_FLOAT_OVERFLOW, rc == 0 && match == 1, detail);
	free(text);
}
END_TEST

/*
 * fuzz_drain: the empty input. ds_upgrade on a snapshot without DaemonSets called
 * memcpy(NULL, NULL, 0) (lib/ops/upgrade.c), undefined behaviour. Fixed.
 */
START_TEST(upgrade_empty_snapshot)
{
	size_t len;
	char *text = input("fuzz_drain", "empty-snapshot", &len);
	ck_assert_uint_eq(len, 0);
	ds_cluster *c = load(text, len, 1);
	char *out = NULL;
	ds_error err;
	int rc = ds_upgrade(c, NULL, 0, "", NOW, NULL, &out, &err);
	ck_assert_msg(rc == 0, "ds_upgrade on an empty snapshot: %d %s", rc, err.message);
	ck_assert_ptr_nonnull(out);
	ds_free(out);
	ds_cluster_free(c);
	free(text);
}
END_TEST

/*
 * fuzz_fit: any Pod with resource requests, on the sample cluster. The snapshot's atom overlay
 * (ds_fit reads the pod's strings into an overlay of the snapshot's table) mapped the overlay's
 * own ids one slot off (lib/core/atoms.h dsi_atom_entry_of), so a request name read as NULL:
 * strcmp(NULL, "cpu") in dsi_resources_from_qlist. Fixed.
 */
START_TEST(fit_pod_with_requests)
{
	size_t len;
	char *pod = input("fuzz_fit", "pod-with-requests", &len);
	ds_cluster *c = NULL;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	ck_assert_int_eq(ds_cluster_load_file(c, "examples/cluster", NULL, &err), 0);
	static const char *const nodes[] = {"cp-1", "worker-1"};
	for (size_t i = 0; i < 2; i++) {
		char *out = NULL;
		int rc = ds_fit(c, pod, len, nodes[i], NULL, &out, &err);
		ck_assert_msg(rc == 0, "ds_fit on %s: %d %s", nodes[i], rc, err.message);
		json_t *v = json_loads(out, 0, NULL);
		ck_assert_msg(json_is_boolean(json_object_get(v, "fits")), "no \"fits\": %s", out);
		json_decref(v);
		ds_free(out);
	}
	ds_cluster_free(c);
	free(pod);
}
END_TEST

/*
 * fuzz_plan: a node without labels and a DaemonSet with required node affinity.
 * lib/sched/nodeaffinity.c dsi_term_matches computed labels.v + labels.n with v == NULL:
 * NULL + 0 is undefined behaviour (clang UBSan: "applying zero offset to null pointer").
 */
START_TEST(node_without_labels_affinity)
{
	size_t len;
	char *text = input("fuzz_plan", "node-without-labels-affinity", &len);
	ds_cluster *c = load(text, len, 1);
	char *node = first_node(c);
	int sr = -1, scr = -1;
	ds_error err;
	ck_assert_int_eq(ds_should_run(c, "default", "foo", node, NULL, &sr, &scr, &err), 0);
	ck_assert_int_eq(sr, 0); /* the affinity requires a label the node does not have */
	free(node);
	ds_cluster_free(c);
	free(text);
}
END_TEST

static char *summary_of(const ds_cluster *c)
{
	char *s = NULL;
	ds_error err;
	ck_assert_int_eq(ds_cluster_summary(c, &s, &err), 0);
	return s;
}

/*
 * fuzz_load_json/yaml: examples/cluster/daemonsets.yaml loaded twice. Replacing an object moves it in
 * the snapshot's storage (swap-remove), and ds_cluster_summary lists "daemonSets" in storage order,
 * so the same snapshot content gives another summary. Proposed: list them by (namespace, name), as
 * nodeNames are sorted and as ds_cordon and ds_upgrade already sort their DaemonSets.
 */
START_TEST(summary_order)
{
	size_t len;
	char *text = dsi_test_read_file("examples/cluster/daemonsets.yaml", &len);
	ds_cluster *once = load(text, len, 1), *twice = load(text, len, 2);
	char *a = summary_of(once), *b = summary_of(twice);
	char detail[1200];
	snprintf(detail, sizeof(detail), "once: %.500s\ntwice: %.500s", a, b);
	verdict("summary-order", OPEN_SUMMARY_ORDER, strcmp(a, b) == 0, detail);
	ds_free(a);
	ds_free(b);
	ds_cluster_free(once);
	ds_cluster_free(twice);
	free(text);
}
END_TEST

static char *plan_json(const ds_cluster *c, const char *ns, const char *name)
{
	ds_plan *p = NULL;
	char *out = NULL;
	ds_error err;
	int rc = ds_plan_sync(c, ns, name, NOW, NULL, NULL, &p, &err);
	ck_assert_msg(rc == 0, "plan: %d %s", rc, err.message);
	ck_assert_int_eq(ds_plan_to_json(p, &out, &err), 0);
	ds_plan_free(p);
	return out;
}

static char *explain_json(const ds_cluster *c, const char *ns, const char *name)
{
	char *out = NULL;
	ds_error err;
	ck_assert_msg(ds_explain(c, ns, name, NULL, &out, &err) == 0, "explain: %s", err.message);
	return out;
}

/* fn's answer for ns/name on a fuzz_plan input loaded once, loaded twice, and a copy of the latter:
 * three histories of the same objects. Free each out[i] with ds_free. */
static void three_histories(const char *input_name, const char *ns, const char *name,
			    char *(*fn)(const ds_cluster *, const char *, const char *), char *out[3])
{
	size_t len;
	char *text = input("fuzz_plan", input_name, &len);
	ds_cluster *once = load(text, len, 1), *twice = load(text, len, 2), *copy = NULL;
	ds_error err;
	ck_assert_int_eq(ds_cluster_copy(twice, &copy, &err), 0);
	out[0] = fn(once, ns, name);
	out[1] = fn(twice, ns, name);
	out[2] = fn(copy, ns, name);
	ds_cluster_free(copy);
	ds_cluster_free(twice);
	ds_cluster_free(once);
	free(text);
}

/*
 * fuzz_plan: a DaemonSet with two pods it controls that no longer match its selector. The plan
 * releases them ("releasePods") in the order of the snapshot's per-owner pod list, which changes
 * when the objects are replaced (the same bytes loaded again) and when the snapshot is copied, so
 * the plan depends on the snapshot's history. Fixed: lib/daemon/dspods.c dsi_ds_pods_collect
 * sorts the released pods by name (the DaemonSet's pods share its namespace).
 */
START_TEST(release_order_after_copy)
{
	char *p[3];
	three_histories("release-order-after-copy", "default", "o", plan_json, p);
	ck_assert_ptr_nonnull(strstr(p[0], "\"releasePods\":[{")); /* the case is about released pods */
	char detail[200];
	snprintf(detail, sizeof(detail), "plan JSON: loaded once vs twice %s, twice vs its copy %s",
		 strcmp(p[0], p[1]) ? "differ" : "agree", strcmp(p[1], p[2]) ? "differ" : "agree");
	verdict("release-order-after-copy", OPEN_RELEASE_ORDER, strcmp(p[0], p[1]) == 0 && strcmp(p[1], p[2]) == 0,
		detail);
	for (int i = 0; i < 3; i++)
		ds_free(p[i]);
}
END_TEST

/*
 * fuzz_plan: two orphans the DaemonSet adopts. The plan listed "adoptPods" in claim order (the
 * orphan list's, which depends on the snapshot's history). Fixed: lib/daemon/syncplan.c lists adopted
 * pods (and history's relabelPods) by name, and dsi_ds_pods_collect orders each node's pods and
 * those of vanished nodes by name.
 */
START_TEST(adopt_order_after_copy)
{
	char *p[3];
	three_histories("adopt-order-after-copy", "default", "foo", plan_json, p);
	ck_assert_str_eq(p[0], p[1]);
	ck_assert_str_eq(p[1], p[2]);
	const char *adopt = strstr(p[0], "\"adoptPods\":[");
	ck_assert_ptr_nonnull(adopt); /* the case is about adopted pods */
	const char *n0 = strstr(adopt, "\"node-0-0\""), *n1 = strstr(adopt, "\"node-1-0\"");
	ck_assert(n0 && n1 && n0 < n1);
	for (int i = 0; i < 3; i++)
		ds_free(p[i]);
}
END_TEST

/*
 * fuzz_plan: four pods of one DaemonSet on one node. ds_explain listed a node's pods in claim order,
 * which (as above) depends on the snapshot's history. Fixed: lib/daemon/explain.c lists them in the
 * controller's order (podByCreationTimestampAndPhase: bound first, oldest, then by name).
 */
START_TEST(explain_pod_order_after_copy)
{
	char *e[3];
	three_histories("explain-pod-order-after-copy", "default", "foo", explain_json, e);
	/* the case is about a node with several pods */
	ck_assert_ptr_nonnull(strstr(e[0], "\"node-0-3\""));
	ck_assert_str_eq(e[0], e[1]);
	ck_assert_str_eq(e[1], e[2]);
	/* all four are bound to node-0 and have no creationTimestamp: by name */
	const char *p0 = strstr(e[0], "node-0-0"), *p1 = strstr(e[0], "node-0-1"), *p2 = strstr(e[0], "node-0-2"),
		   *p3 = strstr(e[0], "node-0-3");
	ck_assert(p0 && p1 && p2 && p3);
	ck_assert(p0 < p1 && p1 < p2 && p2 < p3);
	for (int i = 0; i < 3; i++)
		ds_free(e[i]);
}
END_TEST

/* The fuzz_plan input name loaded, and the rollout of its DaemonSet ns/foo simulated with the
 * options in json: returns ds_rollout_simulate's code, the result in *out (ds_free), the snapshot
 * and the options in *cp and *op for the caller to use and free. */
static int simulate_input(const char *name, const char *ns, const char *json, ds_cluster **cp, ds_options **op,
			  char **out)
{
	size_t len;
	char *text = input("fuzz_plan", name, &len);
	*op = options(json);
	/* loaded with the options: defaultNamespace decides where objects without a namespace go */
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(*op, cp, &err), 0);
	ck_assert_msg(ds_cluster_load(*cp, text, len, NULL, &err) == 0, "load: %s: %s", err.path, err.message);
	free(text);
	*out = NULL;
	return ds_rollout_simulate(*cp, ns, "foo", NOW, *op, out, &err);
}

/*
 * fuzz_plan (slow unit, 5 s under ASan): a DaemonSet whose selector does not match its template's
 * labels, on 20 nodes. Every pod a sync creates is released by the next (it does not match), so
 * ds_rollout_simulate's settle loop creates 20 pods in each of its 64 rounds per step: 3840 creates
 * before it reports "stalled", and the work grows with nodes x rounds x pods. The API server
 * refuses such a DaemonSet (ValidateDaemonSetSpec: "selector does not match template labels").
 * Proposed: lib/daemon/simulate.c stops at once with result "stalled" (or DS_EINVALID) when the
 * selector does not match the template; at most one wave of creates.
 */
START_TEST(simulate_selector_mismatch)
{
	ds_cluster *c;
	ds_options *o;
	char *out;
	int rc = simulate_input("simulate-selector-mismatch", "default", "{\"simMaxTime\": \"2m\"}", &c, &o, &out);
	json_t *v = rc == 0 ? json_loads(out, 0, NULL) : NULL;
	json_int_t creates = json_integer_value(json_object_get(v, "creates"));
	json_int_t desired = json_integer_value(json_object_get(v, "desired"));
	const char *result = json_string_value(json_object_get(v, "result"));
	char detail[200];
	snprintf(detail, sizeof(detail),
		 "rc %d, result %s, %lld creates for %lld nodes (want an error, or at most one per node)", rc,
		 result ? result : "-", (long long)creates, (long long)desired);
	int ok = rc == DS_EINVALID || (rc == 0 && creates <= desired && desired > 0);
	verdict("simulate-selector-mismatch", OPEN_SIMULATE_SELECTOR_MISMATCH, ok, detail);
	json_decref(v);
	ds_free(out);
	ds_options_free(o);
	ds_cluster_free(c);
}
END_TEST

/*
 * fuzz_plan (a timeout: 56-60 s per run under the fuzz build): a DaemonSet with neither a
 * namespace nor a uid, on 18 nodes. Its pods (namespace "", an owner reference without a uid)
 * are orphans of the empty namespace, and the snapshot listed no orphans there (a namespace of
 * 0 was taken for "no group"), so each sync of ds_rollout_simulate created a pod on every node
 * again: 16,128 creates in 896 syncs. The scheduler model also summed a node's pods again for
 * each pending pod, quadratic in the pods piling up. Now the orphans are found and adopted: one
 * create per node. node-7's status key is garbled (no allocatable pods), so it stalls there.
 */
START_TEST(simulate_no_namespace)
{
	ds_cluster *c;
	ds_options *o;
	char *out;
	/* the objects stay in the empty namespace (they are read as a dump's, not given kubectl's) */
	int rc = simulate_input("simulate-no-namespace", "",
				"{\"simMaxTime\": \"2m\", \"simReadyAfter\": \"5s\", \"simTerminateAfter\": \"3s\", "
				"\"defaultNamespace\": \"\"}",
				&c, &o, &out);
	ck_assert_int_eq(rc, 0);
	json_t *v = json_loads(out, 0, NULL);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(json_integer_value(json_object_get(v, "desired")), 18);
	ck_assert_int_eq(json_integer_value(json_object_get(v, "creates")), 18);
	ck_assert_int_eq(json_integer_value(json_object_get(v, "updated")), 17);
	ck_assert_str_eq(json_string_value(json_object_get(v, "result")), "stalled");
	json_t *stalled = json_object_get(json_object_get(v, "stall"), "nodes");
	ck_assert_int_eq(json_array_size(stalled), 1);
	ck_assert_str_eq(json_string_value(json_array_get(stalled, 0)), "node-7");
	json_decref(v);
	ds_free(out);

	ds_error err;
	/* the plan alone: a pod it created (namespace "", no uid in its owner reference) is adopted
	 * by the next sync, not created again */
	ds_plan *p = NULL;
	ck_assert_int_eq(ds_plan_sync(c, "", "foo", NOW, o, NULL, &p, &err), 0);
	ck_assert_uint_eq(ds_plan_create_count(p), 18);
	ds_plan_create cr;
	memset(&cr, 0, sizeof(cr));
	cr.size = sizeof(cr);
	ck_assert_int_eq(ds_plan_get_create(p, 0, &cr, &err), 0);
	char *text_pod = NULL;
	ck_assert_int_eq(ds_daemon_pod(c, "", "foo", cr.node, o, &text_pod, &err), 0);
	json_t *pod = json_loads(text_pod, 0, NULL);
	ds_free(text_pod);
	ck_assert_ptr_nonnull(pod);
	json_object_set_new(json_object_get(pod, "metadata"), "name", json_string("foo-abcde"));
	json_object_set_new(json_object_get(pod, "spec"), "nodeName", json_string(cr.node));
	ds_plan_free(p);
	ck_assert_int_eq(ds_cluster_load_json(c, (const struct json_t *)pod, NULL, &err), 0);
	json_decref(pod);
	ck_assert_int_eq(ds_plan_sync(c, "", "foo", NOW, o, NULL, &p, &err), 0);
	ck_assert_uint_eq(ds_plan_create_count(p), 17);
	char *json = NULL;
	ck_assert_int_eq(ds_plan_to_json(p, &json, &err), 0);
	ck_assert_msg(strstr(json, "\"adoptPods\"") && strstr(json, "foo-abcde"), "no adoption of foo-abcde: %.400s",
		      json);
	ds_free(json);
	ds_plan_free(p);
	ds_options_free(o);
	ds_cluster_free(c);
}
END_TEST

/*
 * fuzz_plan: a DaemonSet named with more than 255 characters could not be simulated: the
 * simulation copied the name into a fixed buffer to find the DaemonSet in its own copy of the
 * snapshot, cut it, found nothing and reported DS_ENOMEM. Kubernetes names are at most 253
 * characters, but the snapshot takes what it is given, and the error was false.
 */
START_TEST(simulate_long_name)
{
	size_t len;
	char *text = input("fuzz_plan", "simulate-long-name", &len);
	ds_cluster *c = load(text, len, 1);
	char name[301];
	memcpy(name, "agent-", 6);
	memset(name + 6, 'x', 294);
	name[300] = '\0';
	char *out = NULL;
	ds_error err;
	int rc = ds_rollout_simulate(c, "default", name, NOW, NULL, &out, &err);
	ck_assert_msg(rc == 0, "rc %d: %s", rc, err.message);
	json_t *v = json_loads(out, 0, NULL);
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(v, "daemonSet"), "name")), name);
	ck_assert_int_eq(json_integer_value(json_object_get(v, "desired")), 1);
	json_decref(v);
	ds_free(out);
	ds_cluster_free(c);
	free(text);
}
END_TEST

/*
 * fuzz_quantity "8Ei|1": not a library bug (the harness compared formats wrongly), kept as the
 * upstream behaviour it exercises: ParseQuantity caps BinarySI at 2^63-1 (maxAllowed), whose
 * canonical form has no binary suffix and reads back as DecimalSI; Add is exact beyond int64 and
 * keeps the first operand's format.
 */
START_TEST(quantity_binary_cap)
{
	size_t len;
	char *text = input("fuzz_quantity", "binary-cap-plus-one", &len); /* "8Ei|1" */
	ck_assert_str_eq(text, "8Ei|1");
	free(text);
	char *s = NULL;
	ds_quantity_info info;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	ds_error err;
	ck_assert_int_eq(ds_quantity_parse("8Ei", &s, &info, &err), 0);
	ck_assert_str_eq(s, "9223372036854775807");
	ck_assert_int_eq(info.format, DS_QUANTITY_BINARY_SI);
	ck_assert(info.value == INT64_MAX && !info.value_overflow);
	ds_free(s);
	ck_assert_int_eq(ds_quantity_add("8Ei", "1", &s, &err), 0);
	ck_assert_str_eq(s, "8Ei"); /* 2^63 in BinarySI */
	ds_free(s);
	ck_assert_int_eq(ds_quantity_add("9223372036854775807", "1", &s, &err), 0);
	ck_assert_str_eq(s, "9223372036854775808"); /* the same sum in DecimalSI */
	ds_free(s);
}
END_TEST

/*
 * fuzz_selector_json (after 3.2 million runs): "In" with a duplicate value. Not a library bug (the
 * harness expected String() to be a fixed point at once), kept as the upstream behaviour it
 * exercises: LabelSelectorAsSelector passes the values to NewRequirement as they are and
 * Requirement.String sorts a copy, so the duplicate stays; labels.Parse collects the values in a
 * set, so it goes (apimachinery pkg/apis/meta/v1/helpers.go, pkg/labels/selector.go).
 */
START_TEST(selector_duplicate_values)
{
	size_t len;
	char *text = input("fuzz_selector_json", "duplicate-values", &len); /* selector "\0" labels */
	char *s = NULL, *again = NULL;
	ds_error err;
	ck_assert_int_eq(ds_selector_string(text, &s, &err), 0);
	ck_assert_str_eq(s, "baz in (norf,norf,qaaaaaaa)");
	ck_assert_int_eq(ds_selector_string(s, &again, &err), 0);
	ck_assert_str_eq(again, "baz in (norf,qaaaaaaa)");
	int m1 = -1, m2 = -1;
	ck_assert_int_eq(ds_selector_matches(text, "{\"baz\": \"norf\"}", &m1, &err), 0);
	ck_assert_int_eq(ds_selector_matches(s, "{\"baz\": \"norf\"}", &m2, &err), 0);
	ck_assert(m1 == 1 && m2 == 1);
	ds_free(s);
	ds_free(again);
	free(text);
}
END_TEST

/*
 * fuzz_load_yaml: a DaemonSet from a manifest (no uid). The summary says "fromManifest" (the
 * namespace and defaults loading gave it), but ds_cluster_copy read the object's JSON again and lost
 * the mark, so the copy's summary differed. Fixed: lib/model/snapshot.c copy_obj keeps it.
 */
START_TEST(manifest_mark_after_copy)
{
	size_t len;
	char *text = input("fuzz_load_yaml", "manifest-copy", &len);
	ds_cluster *c = load(text, len, 1), *copy = NULL;
	ds_error err;
	ck_assert_int_eq(ds_cluster_copy(c, &copy, &err), 0);
	char *a, *b;
	ck_assert_int_eq(ds_cluster_summary(c, &a, &err), 0);
	ck_assert_int_eq(ds_cluster_summary(copy, &b, &err), 0);
	ck_assert_ptr_nonnull(strstr(a, "\"fromManifest\""));
	ck_assert_str_eq(a, b);
	ds_free(a);
	ds_free(b);
	ds_cluster_free(copy);
	ds_cluster_free(c);
	free(text);
}
END_TEST

/*
 * fuzz_plan (LeakSanitizer): a List of more than 64 items loads its items in parallel; that path
 * returned without freeing the items' kind (lib/core/load.c stream_list). Loaded here, make sanitize
 * sees the leak; the load itself must hold every object.
 */
START_TEST(list_kind_freed_in_parallel)
{
	size_t len;
	char *text = input("fuzz_plan", "list-kind-freed-in-parallel", &len);
	ds_cluster *c = load(text, len, 1);
	ck_assert_uint_gt(ds_cluster_count(c, "Pod") + ds_cluster_count(c, "Node"), 64);
	ds_cluster_free(c);
	free(text);
}
END_TEST

static Suite *regress_suite(void)
{
	Suite *s = suite_create("regress_fuzz");
	TCase *tc = tcase_create("findings");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, cluster_scoped_namespace);
	tcase_add_test(tc, yaml_float_beyond_int64);
	tcase_add_test(tc, yaml_float_overflow_is_string);
	tcase_add_test(tc, upgrade_empty_snapshot);
	tcase_add_test(tc, fit_pod_with_requests);
	tcase_add_test(tc, node_without_labels_affinity);
	tcase_add_test(tc, summary_order);
	tcase_add_test(tc, release_order_after_copy);
	tcase_add_test(tc, explain_pod_order_after_copy);
	tcase_add_test(tc, adopt_order_after_copy);
	tcase_add_test(tc, simulate_selector_mismatch);
	tcase_add_test(tc, simulate_long_name);
	tcase_add_test(tc, simulate_no_namespace);
	tcase_add_test(tc, quantity_binary_cap);
	tcase_add_test(tc, selector_duplicate_values);
	tcase_add_test(tc, manifest_mark_after_copy);
	tcase_add_test(tc, list_kind_freed_in_parallel);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(regress_suite)
