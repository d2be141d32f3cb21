/*
 * The fault matrix of the list-watch loop (#27): a 50-node cluster on the fake
 * API server of tests/support, two DaemonSets created and then rolled out (a
 * template change of each), driven through ds_controller_step by fakeloop.h's
 * host. A clean run counts the fake's calls (lists, watches, the syncs' writes),
 * its watches and the watch events the link carried; then each fault of the
 * matrix is injected at each call index, or watch or event index, in turn -
 * the server's own faults through the fake's hooks (fake_add_fault,
 * fake_add_event_fault), what a network does through the link's
 * (fake_loop_add_link_fault) - and every run must reach the goal (lw_goal: one
 * pod of the current revision on each node that should run one, none
 * elsewhere, never two on one node at any write, the status written).
 *
 * DS_FAULT_RUNS=N runs N evenly spaced indices per fault (default 3: make check;
 * make sanitize sets 1); 0 runs every index (make faults). The figures are printed.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loopworld.h"

#define NODES 50
#define GPU_NODES 10
#define MAX_VIRTUAL_MS (3LL * 3600 * 1000) /* not converged after 3 virtual hours: a failure */

/* 50 nodes (every fifth with a GPU), "agent" on all of them (5 at a time in a rolling update) and
 * "gpu-plugin" on the GPU nodes (1 at a time), both with a 2 s termination grace period. */
static char *cluster_text(void)
{
	json_t *items = json_array();
	for (int i = 0; i < NODES; i++) {
		char name[32];
		snprintf(name, sizeof(name), "node-%02d", i);
		json_t *labels = json_pack("{s:s, s:s}", "kubernetes.io/hostname", name, "kubernetes.io/os", "linux");
		if (i % (NODES / GPU_NODES) == 0)
			json_object_set_new(labels, "gpu", json_string("true"));
		json_array_append_new(items,
				      json_pack("{s:s, s:s, s:{s:s, s:o}, s:{}, s:{s:{s:s, s:s, s:s}, s:[{s:s, s:s}]}}",
						"apiVersion", "v1", "kind", "Node", "metadata", "name", name, "labels",
						labels, "spec", "status", "allocatable", "cpu", "8", "memory", "32Gi",
						"pods", "110", "conditions", "type", "Ready", "status", "True"));
	}
	static const struct {
		const char *name;
		int unavailable;
		const char *selector;
	} dss[] = {{"agent", 5, NULL}, {"gpu-plugin", 1, "gpu"}};
	for (size_t d = 0; d < 2; d++) {
		json_t *podspec = json_pack("{s:[{s:s, s:s}], s:[{s:s}], s:i}", "containers", "name", "main", "image",
					    "registry.example/agent:1.0", "tolerations", "operator", "Exists",
					    "terminationGracePeriodSeconds", 2);
		if (dss[d].selector)
			json_object_set_new(podspec, "nodeSelector", json_pack("{s:s}", dss[d].selector, "true"));
		json_array_append_new(
			items,
			json_pack("{s:s, s:s, s:{s:s, s:s}, s:{s:{s:{s:s}}, s:{s:s, s:{s:i}}, s:{s:{s:{s:s}}, s:o}}}",
				  "apiVersion", "apps/v1", "kind", "DaemonSet", "metadata", "name", dss[d].name,
				  "namespace", "kube-system", "spec", "selector", "matchLabels", "app", dss[d].name,
				  "updateStrategy", "type", "RollingUpdate", "rollingUpdate", "maxUnavailable",
				  dss[d].unavailable, "template", "metadata", "labels", "app", dss[d].name, "spec",
				  podspec));
	}
	json_t *list = json_pack("{s:s, s:s, s:o}", "apiVersion", "v1", "kind", "List", "items", items);
	char *text = json_dumps(list, JSON_COMPACT);
	json_decref(list);
	return text;
}

/* Where a case's indices come from. */
enum { AT_CALL, AT_LIST, AT_WATCH, AT_WATCH_CALL, AT_EVENT };

typedef struct fault_case {
	const char *name;
	int at;       /* AT_*: the index space */
	int hook;     /* 0: fake_add_fault, 1: fake_add_event_fault, 2: a link fault */
	int code;     /* the fake's call fault: its code; event fault: its kind; link: its kind */
	int executed; /* the fake's call fault: the write happens, the answer is lost */
	int relist;   /* relistPeriod 1m */
} fault_case;

static const fault_case matrix[] = {
	{"transient error (500)", AT_CALL, 0, 500, 0, 0},
	{"timeout after write", AT_CALL, 0, FAKE_ETIMEDOUT, 1, 0},
	{"409", AT_CALL, 0, 409, 0, 0},
	{"410 on list", AT_LIST, 0, 410, 0, 0},
	{"410 on watch", AT_WATCH, 0, 410, 0, 0},
	{"410 in the watch stream", AT_EVENT, 1, FAKE_EVENT_EXPIRE, 0, 0},
	{"404", AT_CALL, 0, 404, 0, 0},
	{"403", AT_CALL, 0, 403, 0, 0},
	{"connection reset mid-body", AT_CALL, 2, FAKE_LINK_RESET, 0, 0},
	{"connection reset mid-event", AT_EVENT, 2, FAKE_LINK_RESET, 0, 0},
	{"watch stream closed", AT_EVENT, 1, FAKE_EVENT_CLOSE, 0, 0},
	{"truncated JSON", AT_CALL, 2, FAKE_LINK_TRUNCATE, 0, 0},
	{"truncated watch event", AT_EVENT, 2, FAKE_LINK_TRUNCATE, 0, 0},
	{"malformed watch line", AT_EVENT, 2, FAKE_LINK_MALFORMED, 0, 0},
	{"dropped event (periodic relist)", AT_EVENT, 1, FAKE_EVENT_DROP, 0, 1},
	{"duplicated event", AT_EVENT, 1, FAKE_EVENT_DUPLICATE, 0, 0},
	{"silent watch", AT_WATCH_CALL, 2, FAKE_LINK_SILENT, 0, 0},
};

typedef struct outcome {
	long calls, lists, watches, events, hits;
	json_t *watch_calls; /* the clean run's */
	ds_time took;
	char *problem;
} outcome;

/* The scenario; fc (may be NULL) injected at index. */
static outcome scenario(const char *text, const fault_case *fc, long index)
{
	outcome o;
	memset(&o, 0, sizeof(o));
	fake_options fo = {.ready_after_ms = 2000, .seed = 11};
	static const char *const plain[] = {"seed", "5", NULL};
	static const char *const relisting[] = {"seed", "5", "relistPeriod", "1m", NULL};
	lworld w;
	lw_init(&w, NULL, &fo, fc && fc->relist ? relisting : plain);
	char why[300];
	ck_assert_msg(fake_load(w.api, text, strlen(text), why, sizeof(why)) == 0, "%s", why);
	if (fc && fc->hook == 0) {
		static const char *const ops[] = {NULL, "list", "watch"};
		fake_fault f = {.op = ops[fc->at == AT_LIST    ? 1
					  : fc->at == AT_WATCH ? 2
							       : 0],
				.skip = index,
				.count = 1,
				.code = fc->code,
				.executed = fc->executed};
		fake_add_fault(w.api, &f);
	} else if (fc && fc->hook == 1) {
		fake_event_fault f = {.skip = index, .count = 1, .kind = fc->code};
		fake_add_event_fault(w.api, &f);
	} else if (fc) {
		fake_link_fault f = {.events = fc->at == AT_EVENT, .index = index, .kind = fc->code};
		fake_loop_add_link_fault(w.loop, &f);
	}
	int phase = 0;
	while (lw_now(&w) - LW_T0 < MAX_VIRTUAL_MS) {
		lw_turn(&w);
		char *p = lw_goal(&w);
		if (p) {
			free(p);
			continue;
		}
		if (phase == 1) {
			phase = 2;
			break;
		}
		lw_restart(&w, "kube-system", "agent");
		lw_restart(&w, "kube-system", "gpu-plugin");
		phase = 1;
	}
	o.took = lw_now(&w) - LW_T0;
	if (phase != 2) {
		char *p = lw_goal(&w);
		const json_t *logs = fake_loop_logs(w.loop);
		o.problem = lw_problem("not converged after %lld virtual seconds (phase %d): %s; last log: %s",
				       (long long)(o.took / 1000), phase, p ? p : "?",
				       json_array_size(logs)
					       ? json_string_value(json_array_get(logs, json_array_size(logs) - 1))
					       : "-");
		free(p);
	}
	o.calls = fake_calls(w.api, NULL, NULL);
	o.lists = fake_calls(w.api, "list", NULL);
	o.watches = fake_calls(w.api, "watch", NULL);
	o.events = fake_loop_events(w.loop);
	o.hits = fake_loop_link_hits(w.loop) + fake_fault_hits(w.api);
	o.watch_calls = json_deep_copy(fake_loop_watch_calls(w.loop));
	lw_free(&w);
	return o;
}

static long runs_wanted(void)
{
	const char *e = getenv("DS_FAULT_RUNS");
	return e && *e ? atol(e) : 3;
}

START_TEST(test_clean)
{
	char *text = cluster_text();
	outcome o = scenario(text, NULL, 0);
	ck_assert_msg(o.problem == NULL, "%s", o.problem);
	ck_assert_int_eq(o.lists, 4); /* nothing failed: each kind listed once */
	ck_assert_int_gt(o.calls, 2 * (NODES + GPU_NODES));
	ck_assert_int_gt(o.events, 4 * (NODES + GPU_NODES));
	printf("faults: the clean run: %ld calls (%ld lists, %ld watches), %ld watch events, %.0f virtual s\n", o.calls,
	       o.lists, o.watches, o.events, (double)o.took / 1000);
	json_decref(o.watch_calls);
	free(text);
}
END_TEST

/* Every case at every index (DS_FAULT_RUNS limits how many, evenly spaced). */
START_TEST(test_matrix)
{
	char *text = cluster_text();
	outcome clean = scenario(text, NULL, 0);
	ck_assert_msg(clean.problem == NULL, "%s", clean.problem);
	long want = runs_wanted();
	long total_runs = 0, total_failures = 0;
	for (size_t i = 0; i < sizeof(matrix) / sizeof(matrix[0]); i++) {
		const fault_case *fc = &matrix[i];
		long n = fc->at == AT_CALL    ? clean.calls
			 : fc->at == AT_LIST  ? clean.lists
			 : fc->at == AT_WATCH ? clean.watches
			 : fc->at == AT_EVENT ? clean.events
					      : (long)json_array_size(clean.watch_calls);
		long stride = want > 0 && n > want ? n / want : 1;
		long runs = 0, failures = 0, bit = 0;
		ds_time slowest = 0;
		for (long k = (stride / 2) % (n ? n : 1); k < n; k += stride) {
			long index = fc->at == AT_WATCH_CALL
					     ? (long)json_integer_value(json_array_get(clean.watch_calls, k))
					     : k;
			outcome o = scenario(text, fc, index);
			json_decref(o.watch_calls);
			runs++;
			bit += o.hits > 0; /* the fault was there (the fake or the link counted it) */
			if (o.took > slowest)
				slowest = o.took;
			if (o.problem) {
				if (failures++ < 3)
					fprintf(stderr, "faults: %s at index %ld: %s\n", fc->name, index, o.problem);
				free(o.problem);
			}
		}
		static const char *const spaces[] = {"call", "list", "watch", "watch", "event"};
		printf("faults: %-32s at %4ld of %4ld %s indices: %ld did not converge, slowest %.0f virtual s%s\n",
		       fc->name, runs, n, spaces[fc->at], failures, (double)slowest / 1000,
		       bit < runs ? " (some indices were never reached)" : "");
		fflush(stdout);
		ck_assert_msg(bit > 0, "%s: no run met the fault", fc->name);
		total_runs += runs;
		total_failures += failures;
	}
	printf("faults: %ld runs, %ld did not converge\n", total_runs, total_failures);
	json_decref(clean.watch_calls);
	ck_assert_int_eq(total_failures, 0);
	free(text);
}
END_TEST

static Suite *faults_suite(void)
{
	Suite *s = suite_create("watchloop_faults");
	TCase *tc = tcase_create("matrix");
	tcase_set_timeout(tc, 7200);
	tcase_add_test(tc, test_clean);
	tcase_add_test(tc, test_matrix);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(faults_suite)
