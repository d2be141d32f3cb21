/*
 * libFuzzer target: the pure functions of upstream's decisions (include/daemonset/upstream.h) on
 * fuzzed objects. The input is up to three documents separated by a line "===" (a DaemonSet or a
 * Pod or a toleration, a Node or a taint, a list of objects); every function is called with the
 * parts that fit it. Invariants: the ABI error contract; every result parses; the same answer
 * when asked twice; ToleratesTaint agrees with FindMatchingUntoleratedTaint on a one-element
 * list; ds_daemonset_node_should_run's outputs agree with its JSON.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* Up to three parts of the input, split at lines "===". */
typedef struct parts {
	const char *p[3];
	size_t n[3];
	int count;
} parts;

static void split(const uint8_t *data, size_t size, parts *out)
{
	memset(out, 0, sizeof(*out));
	const char *s = (const char *)data, *end = s + size;
	out->p[0] = s;
	out->count = 1;
	for (const char *q = s; q + 4 <= end && out->count < 3; q++) {
		if ((q == s || q[-1] == '\n') && memcmp(q, "===\n", 4) == 0) {
			out->n[out->count - 1] = (size_t)(q - out->p[out->count - 1]);
			out->p[out->count] = q + 4;
			out->count++;
			q += 3;
		}
	}
	out->n[out->count - 1] = (size_t)(end - out->p[out->count - 1]);
	for (int i = out->count; i < 3; i++) {
		out->p[i] = "";
		out->n[i] = 0;
	}
}

/* f's JSON answer twice: the same both times; its code documented. */
#define TWICE(what, call_a, call_b)                                                                                    \
	do {                                                                                                           \
		char *a = NULL, *b = NULL;                                                                             \
		ds_error ea, eb;                                                                                       \
		int ra = (call_a), rb = (call_b);                                                                      \
		fuzz_check_rc(what, ra, &ea);                                                                          \
		FUZZ_ASSERT(ra == rb, "%s: %d, then %d", what, ra, rb);                                                \
		if (ra == 0) {                                                                                         \
			fuzz_check_json(what, a);                                                                      \
			FUZZ_ASSERT(strcmp(a, b) == 0, "%s: another answer the second time", what);                    \
		}                                                                                                      \
		ds_free(a);                                                                                            \
		ds_free(b);                                                                                            \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 32768)
		return 0;
	parts x;
	split(data, size, &x);
	ds_error err;

	/* ToleratesTaint and FindMatchingUntoleratedTaint on one taint and one toleration */
	int tol = -1;
	int rc = ds_toleration_tolerates_taint(x.p[0], x.n[0], x.p[1], x.n[1], NULL, &tol, &err);
	fuzz_check_rc("ds_toleration_tolerates_taint", rc, &err);
	if (rc == 0) {
		size_t n0 = x.n[0], n1 = x.n[1];
		char *tl = malloc(n0 + 3), *ta = malloc(n1 + 3);
		FUZZ_ASSERT(tl && ta, "out of memory");
		/* as one-element JSON arrays: the parts are JSON or YAML flow objects here, so "[" part "]" */
		tl[0] = ta[0] = '[';
		memcpy(tl + 1, x.p[0], n0);
		memcpy(ta + 1, x.p[1], n1);
		tl[n0 + 1] = ta[n1 + 1] = ']';
		tl[n0 + 2] = ta[n1 + 2] = '\0';
		int found = -1;
		int r2 = ds_taints_find_untolerated2(ta, n1 + 2, tl, n0 + 2, NULL, NULL, &found, NULL, &err);
		fuzz_check_rc("ds_taints_find_untolerated2", r2, &err);
		/* both read the same two objects; only a text that is not a single JSON value may differ */
		if (r2 == 0)
			FUZZ_ASSERT(found == !tol, "ToleratesTaint %d but FindMatchingUntoleratedTaint found %d", tol,
				    found);
		free(tl);
		free(ta);
	}
	static const char *const no_schedule[] = {"NoSchedule"};
	const ds_taint_filter filter = {sizeof(ds_taint_filter), no_schedule, 1};
	TWICE("ds_taints_find_untolerated2",
	      ds_taints_find_untolerated2(x.p[1], x.n[1], x.p[0], x.n[0], &filter, NULL, NULL, &a, &ea),
	      ds_taints_find_untolerated2(x.p[1], x.n[1], x.p[0], x.n[0], &filter, NULL, NULL, &b, &eb));

	int m = -1;
	rc = ds_pod_required_node_affinity_match2(x.p[0], x.n[0], x.p[1], x.n[1], NULL, &m, &err);
	fuzz_check_rc("ds_pod_required_node_affinity_match2", rc, &err);
	FUZZ_ASSERT(rc < 0 ? m == 0 : (m == 0 || m == 1), "match %d with rc %d", m, rc);

	int run = -1, keep = -1;
	char *j = NULL;
	rc = ds_daemonset_node_should_run(x.p[0], x.n[0], x.p[1], x.n[1], NULL, &run, &keep, &j, &err);
	fuzz_check_rc("ds_daemonset_node_should_run", rc, &err);
	if (rc == 0) {
		json_t *v = json_loads(j, 0, NULL);
		FUZZ_ASSERT(v != NULL, "ds_daemonset_node_should_run: not JSON");
		FUZZ_ASSERT(json_is_true(json_object_get(v, "shouldRun")) == (run == 1) &&
				    json_is_true(json_object_get(v, "shouldContinueRunning")) == (keep == 1),
			    "ds_daemonset_node_should_run: outputs %d %d disagree with its JSON", run, keep);
		/* upstream: shouldRun implies shouldContinueRunning */
		FUZZ_ASSERT(!run || keep, "shouldRun without shouldContinueRunning");
		json_decref(v);
	}
	ds_free(j);

	TWICE("ds_daemonset_new_pod", ds_daemonset_new_pod(x.p[0], x.n[0], "node-1", NULL, NULL, &a, &ea),
	      ds_daemonset_new_pod(x.p[0], x.n[0], "node-1", NULL, NULL, &b, &eb));
	TWICE("ds_podspec_add_daemon_tolerations2", ds_podspec_add_daemon_tolerations2(x.p[0], x.n[0], NULL, &a, &ea),
	      ds_podspec_add_daemon_tolerations2(x.p[0], x.n[0], NULL, &b, &eb));
	TWICE("ds_affinity_replace_node_name2", ds_affinity_replace_node_name2(x.p[1], x.n[1], "n", NULL, &a, &ea),
	      ds_affinity_replace_node_name2(x.p[1], x.n[1], "n", NULL, &b, &eb));
	TWICE("ds_scheduler_filter", ds_scheduler_filter(x.p[0], x.n[0], x.p[1], x.n[1], x.p[2], x.n[2], NULL, &a, &ea),
	      ds_scheduler_filter(x.p[0], x.n[0], x.p[1], x.n[1], x.p[2], x.n[2], NULL, &b, &eb));
	TWICE("ds_preemption_select_victims",
	      ds_preemption_select_victims(x.p[0], x.n[0], x.p[1], x.n[1], x.p[2], x.n[2], NULL, &a, &ea),
	      ds_preemption_select_victims(x.p[0], x.n[0], x.p[1], x.n[1], x.p[2], x.n[2], NULL, &b, &eb));
	TWICE("ds_daemonset_rolling_update",
	      ds_daemonset_rolling_update(x.p[0], x.n[0], x.p[2], x.n[2], NULL, 1796137200000LL, NULL, &a, &ea),
	      ds_daemonset_rolling_update(x.p[0], x.n[0], x.p[2], x.n[2], NULL, 1796137200000LL, NULL, &b, &eb));
	return 0;
}
