/*
 * The fault matrix of the list-watch loop: a 50-node cluster, two DaemonSets
 * created and then rolled out (a template change), driven through
 * ds_controller_step by the in-memory API of examples/controller. A clean run
 * counts its calls (lists, watches, the syncs' writes) and the watch events it
 * got; then each fault of the matrix is injected at each call index, or each
 * event index, in turn, and every run must reach the goal (lw_goal: one pod of
 * the current revision on each node that should run one, none elsewhere, never
 * two at once, the status written).
 *
 * DS_FAULT_RUNS=N runs N evenly spaced indices per fault (make check: 10;
 * make sanitize: 2); 0 runs every index (make faults). The figures are printed.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loopworld.h"

#define NODES 50
#define GPU_NODES 10
#define MAX_VIRTUAL_MS (3LL * 3600 * 1000) /* a run that has not converged after 3 virtual hours fails */

/* 50 nodes (every fifth has a GPU), "agent" on all of them (5 at a time in a rolling update) and
 * "gpu-plugin" on the GPU nodes (1 at a time). */
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
		json_t *podspec = json_pack("{s:[{s:s, s:s}], s:[{s:s}]}", "containers", "name", "main", "image",
					    "registry.example/agent:1.0", "tolerations", "operator", "Exists");
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

typedef struct fault_case {
	const char *name;
	mem_fault_spec spec; /* skip is the index */
	int relist;          /* with relistPeriod 1m */
} fault_case;

static const fault_case matrix[] = {
	{"transient error (500)", {NULL, NULL, 0, 1, MEM_FAULT_STATUS, 0, 500, 0, "injected 500"}, 0},
	{"timeout after write", {NULL, NULL, 0, 1, MEM_FAULT_SILENT, 0, 0, 1, "injected timeout"}, 0},
	{"409", {NULL, NULL, 0, 1, MEM_FAULT_STATUS, 0, 409, 0, "injected conflict"}, 0},
	{"410 on list", {"list", NULL, 0, 1, MEM_FAULT_STATUS, 0, 410, 0, "too old resource version"}, 0},
	{"410 on watch", {"watch", NULL, 0, 1, MEM_FAULT_STATUS, 0, 410, 0, "too old resource version"}, 0},
	{"410 in the watch stream", {"event", NULL, 0, 1, MEM_FAULT_GONE, 0, 0, 0, NULL}, 0},
	{"404", {NULL, NULL, 0, 1, MEM_FAULT_STATUS, 0, 404, 0, "injected not found"}, 0},
	{"403", {NULL, NULL, 0, 1, MEM_FAULT_STATUS, 0, 403, 0, "injected forbidden"}, 0},
	{"connection reset mid-body", {NULL, NULL, 0, 1, MEM_FAULT_RESET, 0, 0, 1, "injected reset"}, 0},
	{"connection reset mid-event", {"event", NULL, 0, 1, MEM_FAULT_RESET, 0, 0, 0, NULL}, 0},
	{"truncated JSON", {NULL, NULL, 0, 1, MEM_FAULT_TRUNCATED, 0, 0, 1, "injected truncation"}, 0},
	{"truncated watch event", {"event", NULL, 0, 1, MEM_FAULT_TRUNCATED, 0, 0, 0, NULL}, 0},
	{"malformed watch line", {"event", NULL, 0, 1, MEM_FAULT_MALFORMED, 0, 0, 0, NULL}, 0},
	{"dropped event (periodic relist)", {"event", NULL, 0, 1, MEM_FAULT_DROP, 0, 0, 0, NULL}, 1},
	{"duplicated event", {"event", NULL, 0, 1, MEM_FAULT_DUPLICATE, 0, 0, 0, NULL}, 0},
	{"silent watch", {"watch", NULL, 0, 1, MEM_FAULT_SILENT, 0, 0, 0, "injected silence"}, 0},
};

typedef struct outcome {
	long calls, lists, watches, events, faults_hit;
	ds_time took;
	char *problem;
} outcome;

static const char *const restart_patch = "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{"
					 "\"kubectl.kubernetes.io/restartedAt\":\"2026-12-01T16:00:00Z\"}}}}}";

/* The scenario; fc (may be NULL) injected at index. */
static outcome scenario(const char *text, const fault_case *fc, long index)
{
	outcome o;
	memset(&o, 0, sizeof(o));
	mem_options mo = {.ready_after_ms = 2000, .grace_ms = 1000, .seed = 11};
	static const char *const plain[] = {"seed", "5", NULL};
	static const char *const relisting[] = {"seed", "5", "relistPeriod", "1m", NULL};
	lworld w;
	lw_init(&w, NULL, &mo, fc && fc->relist ? relisting : plain);
	ds_error err;
	ck_assert_msg(mem_load(w.m, text, strlen(text), &err) == 0, "%s", err.message);
	if (fc) {
		mem_fault_spec spec = fc->spec;
		spec.skip = index;
		mem_add_fault_spec(w.m, &spec);
	}
	int phase = 0;
	ds_time t0 = lw_now(&w);
	while (lw_now(&w) - t0 < MAX_VIRTUAL_MS) {
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
		/* kubectl rollout restart of both */
		ck_assert_int_eq(mem_patch(w.m, "daemonsets", "kube-system", "agent", restart_patch), DS_TRANSPORT_OK);
		ck_assert_int_eq(mem_patch(w.m, "daemonsets", "kube-system", "gpu-plugin", restart_patch),
				 DS_TRANSPORT_OK);
		phase = 1;
	}
	o.took = lw_now(&w) - t0;
	if (phase != 2) {
		char *p = lw_goal(&w);
		o.problem = lw_problem("not converged after %lld virtual seconds (phase %d): %s",
				       (long long)(o.took / 1000), phase, p ? p : "?");
		free(p);
	}
	o.calls = mem_calls(w.m, NULL, NULL);
	o.lists = mem_calls(w.m, "list", NULL);
	o.watches = mem_calls(w.m, "watch", NULL);
	o.events = mem_calls(w.m, "event", NULL);
	o.faults_hit = mem_faults_hit(w.m);
	lw_free(&w);
	return o;
}

static long runs_wanted(long dflt)
{
	const char *e = getenv("DS_FAULT_RUNS");
	return e && *e ? atol(e) : dflt;
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
	free(text);
}
END_TEST

/* Every case at every index (DS_FAULT_RUNS limits how many, evenly spaced). */
START_TEST(test_matrix)
{
	char *text = cluster_text();
	outcome clean = scenario(text, NULL, 0);
	ck_assert_msg(clean.problem == NULL, "%s", clean.problem);
	long want = runs_wanted(10);
	long total_runs = 0, total_failures = 0;
	for (size_t i = 0; i < sizeof(matrix) / sizeof(matrix[0]); i++) {
		const fault_case *fc = &matrix[i];
		int events = fc->spec.op && strcmp(fc->spec.op, "event") == 0;
		long n = events                             ? clean.events
			 : !fc->spec.op                     ? clean.calls
			 : strcmp(fc->spec.op, "list") == 0 ? clean.lists
							    : clean.watches;
		long stride = want > 0 && n > want ? n / want : 1;
		long runs = 0, failures = 0, missed = 0;
		ds_time slowest = 0;
		for (long k = (stride / 2) % (n ? n : 1); k < n; k += stride) {
			outcome o = scenario(text, fc, k);
			runs++;
			missed += o.faults_hit == 0;
			if (o.took > slowest)
				slowest = o.took;
			if (o.problem) {
				if (failures++ < 3)
					fprintf(stderr, "faults: %s at %s %ld: %s\n", fc->name,
						events ? "event" : "call", k, o.problem);
				free(o.problem);
			}
		}
		printf("faults: %-32s at %4ld of %4ld %s indices: %ld failed to converge, slowest %.0f virtual s%s\n",
		       fc->name, runs, n, events ? "event" : "call", failures, (double)slowest / 1000,
		       missed ? " (some faults never hit)" : "");
		total_runs += runs;
		total_failures += failures;
		ck_assert_int_eq(missed == runs, 0); /* the faults were really injected */
	}
	printf("faults: %ld runs, %ld did not converge\n", total_runs, total_failures);
	ck_assert_int_eq(total_failures, 0);
	free(text);
}
END_TEST

static Suite *faults_suite(void)
{
	Suite *s = suite_create("watchloop_faults");
	TCase *tc = tcase_create("matrix");
	tcase_set_timeout(tc, 3600);
	tcase_add_test(tc, test_clean);
	tcase_add_test(tc, test_matrix);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(faults_suite)
