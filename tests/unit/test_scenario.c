/* The scenario runner: the shipped scenarios pass; failures, typos, wrong types and broken files are reported;
 * options reach loading and checks; mutated scenarios never crash and never pass when they are malformed. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "core/alloc.h"
#include "core/limits.h"
#include "core/load.h"
#include "harness.h"

#define HEAD "load: ../cluster\nnow: 2026-12-02T15:00:00Z\n"
#define FLUENTD "kube-system/fluentd-logging"

static json_t *run_with(const char *text, const ds_options *opts)
{
	char *out;
	ds_error err;
	ck_assert_msg(ds_scenario_run(text, strlen(text), "examples/scenarios", opts, &out, &err) == 0, "%s",
		      err.message);
	json_t *j = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_ptr_nonnull(j);
	return j;
}

static json_t *run_text(const char *text) { return run_with(text, NULL); }

static const json_t *scenario(const json_t *res, size_t i)
{
	return json_array_get(json_object_get(res, "scenarios"), i);
}

static const char *error_of(const json_t *res) { return json_string_value(json_object_get(scenario(res, 0), "error")); }

static const char *first_failure(const json_t *sc)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(sc, "checks"), i, c)
	{
		json_t *f = json_array_get(json_object_get(c, "failures"), 0);
		if (f)
			return json_string_value(f);
	}
	return NULL;
}

START_TEST(shipped_scenarios_pass)
{
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_scenario_run_file("examples/scenarios", NULL, &out, &err), 0);
	json_t *j = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "failed")), 0);
	ck_assert_int_ge(json_integer_value(json_object_get(j, "passed")), 6);
	json_decref(j);
}
END_TEST

START_TEST(failures_are_reported)
{
	json_t *j = run_text("name: wrong on purpose\n" HEAD "checks:\n"
			     "- explain: " FLUENTD "\n  placed: [cp-1]\n"
			     "- plan: " FLUENTD "\n  creates: 3\n"
			     "- rollout: " FLUENTD "\n  durationSeconds: {max: 5}\n");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "failed")), 1);
	const json_t *sc = scenario(j, 0);
	ck_assert(json_is_false(json_object_get(sc, "passed")));
	ck_assert_ptr_null(json_object_get(sc, "error"));
	json_t *checks = json_object_get(sc, "checks");
	ck_assert_uint_eq(json_array_size(checks), 3);
	/* each failing check says what it got and what was wanted */
	const char *f0 = json_string_value(json_array_get(json_object_get(json_array_get(checks, 0), "failures"), 0));
	ck_assert_str_eq(f0, "placed: missing cp-1");
	const char *f1 = json_string_value(json_array_get(json_object_get(json_array_get(checks, 1), "failures"), 0));
	ck_assert_str_eq(f1, "creates: 1, want 3");
	const char *f2 = json_string_value(json_array_get(json_object_get(json_array_get(checks, 2), "failures"), 0));
	ck_assert_str_eq(f2, "durationSeconds: 25, want at most 5");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(checks, 2), "check")), "rollout " FLUENTD);
	json_decref(j);
}
END_TEST

/* Every malformed scenario is an error naming the field's path: never a crash, never a pass. */
static const struct {
	const char *text, *error;
} bad[] = {
	/* wrong types that used to crash the runner */
	{HEAD "checks:\n- plan: " FLUENTD "\n- plan: " FLUENTD "\n- plan: " FLUENTD "\n  creates: [1]\n",
	 "checks[2].creates[0]: expected a string, got an integer"},
	{HEAD "checks:\n- rollout: " FLUENTD "\n  result: 1\n",
	 "checks[0].result: expected a string or null, got an integer"},
	{HEAD "checks:\n- explain: " FLUENTD "\n  statuses: {worker-1: 1}\n",
	 "checks[0].statuses.worker-1: expected a string, got an integer"},
	{HEAD "checks:\n- drain: worker-2\n  outcomes: {pod: 1}\n",
	 "checks[0].outcomes.pod: expected a string, got an integer"},
	{HEAD "checks:\n- pod: " FLUENTD "\n  node: worker-1\n  tolerations: [1]\n",
	 "checks[0].tolerations[0]: expected a string, got an integer"},
	{HEAD "checks:\n- audit: monitoring/node-exporter\n  level: 3\n",
	 "checks[0].level: expected a string or null, got an integer"},
	{HEAD "checks:\n- explain: " FLUENTD "\n  placed: [worker-1, null]\n",
	 "checks[0].placed[1]: expected a string, got null"},
	{HEAD "checks:\n- explain: " FLUENTD "\n  notPlaced: {cp-1: 3}\n",
	 "checks[0].notPlaced.cp-1: expected a string or null, got an integer"},
	{HEAD "checks:\n- explain: " FLUENTD "\n  notPlaced: [1]\n",
	 "checks[0].notPlaced[0]: expected a string, got an integer"},
	{HEAD "checks:\n- audit: monitoring/node-exporter\n  findings: [1]\n",
	 "checks[0].findings[0]: expected a string, got an integer"},
	{HEAD "checks:\n- audit: monitoring/node-exporter\n  noFindings: privileged\n",
	 "checks[0].noFindings: expected a list of strings, got a string"},
	{HEAD "checks:\n- pod: " FLUENTD "\n  node: worker-4\n  labels: {pod-template-generation: 2}\n",
	 "checks[0].labels.pod-template-generation: expected a string, got an integer"},
	{HEAD "checks:\n- pod: " FLUENTD "\n  node: 4\n", "checks[0].node: expected a string, got an integer"},
	{HEAD "checks:\n- plan: 1\n",
	 "checks[0].plan: expected a string (namespace/name of a DaemonSet), got an integer"},
	{HEAD "checks:\n- drain: \"\"\n", "checks[0].drain: expected a node name, got an empty string"},
	{HEAD "checks:\n- plan: " FLUENTD "\n  skipped: [x]\n",
	 "checks[0].skipped: expected a string or null, got a list"},
	{HEAD "checks:\n- plan: " FLUENTD "\n  status: {numberReady: \"3\"}\n",
	 "checks[0].status.numberReady: expected an integer, got a string"},
	{HEAD "checks:\n- status: " FLUENTD "\n  numberReady: 3.5\n",
	 "checks[0].numberReady: expected an integer, got a fraction"},
	/* booleans compared by truth would pass silently */
	{HEAD "checks:\n- shouldRunOn: " FLUENTD "\n  node: worker-1\n  shouldRun: 1\n",
	 "checks[0].shouldRun: expected true or false, got an integer"},
	{HEAD "checks:\n- drain: worker-2\n  drained: \"false\"\n",
	 "checks[0].drained: expected true or false, got a string"},
	/* comparisons that compared nothing */
	{HEAD "checks:\n- rollout: " FLUENTD "\n  updated: \"4\"\n",
	 "checks[0].updated: expected a number or bounds {max: n, min: n}, got a string"},
	{HEAD "checks:\n- rollout: " FLUENTD "\n  maxUnavailableSeen: {maximum: 1}\n",
	 "checks[0].maxUnavailableSeen.maximum: unknown bound (expected max or min)"},
	{HEAD "checks:\n- rollout: " FLUENTD "\n  maxUnavailableSeen: {max: \"1\"}\n",
	 "checks[0].maxUnavailableSeen.max: expected a number, got a string"},
	{HEAD "checks:\n- rollout: " FLUENTD "\n  durationSeconds: {}\n",
	 "checks[0].durationSeconds: expected max, min or both, got an empty mapping"},
	{HEAD "checks:\n- plan: " FLUENTD "\n  creates: -1\n", "checks[0].creates: expected a count from 0, got -1"},
	{HEAD "checks:\n- plan: " FLUENTD "\n  status: {ready: 3}\n",
	 "checks[0].status.ready: unknown status field (expected desiredNumberScheduled, currentNumberScheduled, "
	 "numberMisscheduled, numberReady, updatedNumberScheduled, numberAvailable, numberUnavailable, "
	 "observedGeneration or collisionCount)"},
	{HEAD "checks:\n- explain: " FLUENTD "\n  statuses: {worker-1: running}\n",
	 "checks[0].statuses.worker-1: expected placed, create, evict, kept, pending, unschedulable, needs-preemption "
	 "or "
	 "not-placed, got \"running\""},
	{HEAD "checks:\n- drain: worker-2\n  outcomes: {web-1: evicted}\n",
	 "checks[0].outcomes.web-1: expected evict, delete, skip, ignore or error, got \"evicted\""},
	/* unknown keys, kinds and fields */
	{HEAD "objcts: []\nchecks:\n- plan: " FLUENTD "\n",
	 "objcts: unknown field (expected name, load, objects, steps, now, options or checks)"},
	{HEAD "checks:\n- plan: " FLUENTD "\n- frobnicate: x\n",
	 "checks[1]: expected one of explain, shouldRunOn, plan, status, pod, rollout, drain or audit naming its "
	 "DaemonSet (or node, for drain)"},
	{HEAD "checks:\n- explain: " FLUENTD "\n  placd: [worker-1]\n",
	 "checks[0].placd: unknown field of an explain check (expected placed, create, evict, kept, pending, "
	 "unschedulable, needsPreemption, notPlaced, statuses, name, options or now)"},
	{HEAD "checks:\n- explain: " FLUENTD "\n  plan: " FLUENTD "\n",
	 "checks[0].plan: unknown field of an explain check (expected placed, create, evict, kept, pending, "
	 "unschedulable, needsPreemption, notPlaced, statuses, name, options or now)"},
	{HEAD "checks:\n- shouldRunOn: " FLUENTD "\n",
	 "checks[0]: a shouldRunOn check needs node: the node it asks about"},
	{HEAD "checks:\n- 3\n",
	 "checks[0]: expected a mapping with one of explain, shouldRunOn, plan, status, pod, rollout, drain or audit, "
	 "got an integer"},
	/* top-level keys of the wrong type */
	{"load: {path: ../cluster}\nnow: 2026-12-02T15:00:00Z\nchecks: [{plan: x}]\n",
	 "load: expected a path or a list of paths, got a mapping"},
	{"load: 3\nnow: 2026-12-02T15:00:00Z\nchecks: [{plan: x}]\n",
	 "load: expected a path or a list of paths, got an integer"},
	{"load: [../cluster, 3]\nnow: 2026-12-02T15:00:00Z\nchecks: [{plan: x}]\n",
	 "load[1]: expected a string (a path), got an integer"},
	{HEAD "objects: {kind: Node}\nchecks: [{plan: x}]\n",
	 "objects: expected a list of Kubernetes objects, got a mapping"},
	{HEAD "objects: [x]\nchecks: [{plan: x}]\n", "objects[0]: expected a Kubernetes object, got a string"},
	{HEAD "name: 7\nchecks: [{plan: x}]\n", "name: expected a string, got an integer"},
	{HEAD "options: [burstReplicas]\nchecks: [{plan: x}]\n",
	 "options: expected a mapping of option names to values, got a list"},
	{"load: ../cluster\nnow: 1\nchecks: [{plan: x}]\n",
	 "now: expected an RFC 3339 time as a string, got an integer"},
	{HEAD "checks: {plan: x}\n", "checks: expected a non-empty list of checks, got a mapping"},
	{HEAD "checks: []\n", "checks: expected a non-empty list of checks, got an empty list"},
	{"load: ../cluster\nchecks: [{plan: x}]\n",
	 "a scenario needs now: the time its plans are computed at (RFC 3339)"},
	{HEAD "name: no checks\n", "a scenario needs a non-empty list of checks"},
	{"[1, 2]\n", "expected a mapping with name, load, objects, steps, now, options and checks, got a list"},
	/* steps: their form, then what the API server says to them */
	{HEAD "steps: {setImage: x}\nchecks: [{plan: x}]\n", "steps: expected a list of steps, got a mapping"},
	{HEAD "steps: [3]\nchecks: [{plan: x}]\n",
	 "steps[0]: expected a mapping with setImage or patch, got an integer"},
	{HEAD "steps: [{image: x}]\nchecks: [{plan: x}]\n",
	 "steps[0]: expected setImage or patch naming its DaemonSet"},
	{HEAD "steps:\n- setImage: " FLUENTD "\n  imag: x\nchecks: [{plan: x}]\n",
	 "steps[0].imag: unknown field of a setImage step (expected container or image)"},
	{HEAD "steps:\n- setImage: " FLUENTD "\nchecks: [{plan: x}]\n",
	 "steps[0]: a setImage step needs image: the image to set (as kubectl set image)"},
	{HEAD "steps:\n- setImage: " FLUENTD "\n  image: 3\nchecks: [{plan: x}]\n",
	 "steps[0].image: expected a string, got an integer"},
	{HEAD "steps:\n- patch: " FLUENTD "\n  merge: [1]\nchecks: [{plan: x}]\n",
	 "steps[0].merge: expected a mapping (a JSON merge patch), got a list"},
	{HEAD "steps:\n- patch: " FLUENTD "\nchecks: [{plan: x}]\n",
	 "steps[0]: a patch step needs merge: a JSON merge patch of the DaemonSet"},
	{HEAD "steps:\n- setImage: kube-system/nope\n  image: x\nchecks: [{plan: x}]\n",
	 "editing the cluster: steps[0]: daemonsets.apps \"nope\" not found"},
	{HEAD "steps:\n- setImage: " FLUENTD "\n  image: a:1\n- setImage: " FLUENTD "\n  container: nope\n  image: x\n"
	      "checks: [{plan: x}]\n",
	 "editing the cluster: steps[1]: unable to find container named \"nope\""},
	{HEAD "steps:\n- patch: " FLUENTD "\n  merge: {spec: {template: {spec: {containers: null}}}}\n"
	      "checks: [{plan: x}]\n",
	 "editing the cluster: steps[0]: DaemonSet.apps \"fluentd-logging\" is invalid: "
	 "spec.template.spec.containers: Required value"},
	/* values read when the scenario is prepared */
	{"load: ../cluster\nnow: yesterday\nchecks: [{plan: x}]\n",
	 "now: expected an RFC 3339 time such as 2006-01-02T15:04:05Z, got \"yesterday\""},
	{HEAD "checks:\n- plan: " FLUENTD "\n- plan: " FLUENTD "\n  now: tomorrow\n",
	 "checks[1].now: expected an RFC 3339 time such as 2006-01-02T15:04:05Z, got \"tomorrow\""},
	{HEAD "options: {burstReplicas: 0}\nchecks: [{plan: x}]\n",
	 "options.burstReplicas: expected an integer from 1 to 2147483647, got \"0\""},
	{HEAD "checks:\n- plan: " FLUENTD "\n  options: {simReadyAfter: 2.5}\n",
	 "checks[0].options.simReadyAfter: expected a string, integer or boolean, got a fraction"},
	{HEAD "checks:\n- plan: " FLUENTD "\n  options: {burstReplica: 3}\n",
	 "checks[0].options.burstReplica: unknown option \"burstReplica\" (see ds_options(3))"},
	/* the cluster */
	{"load: ../no-such-dir\nnow: 2026-12-02T15:00:00Z\nchecks: [{plan: x/y}]\n",
	 "loading the cluster: cannot open examples/scenarios/../no-such-dir: No such file or directory"},
	{HEAD "objects: [{apiVersion: v1, kind: Node, metadata: {name: 3}}]\nchecks: [{plan: x}]\n",
	 "loading the cluster: objects[0].metadata.name: expected string, got number"},
};

START_TEST(malformed_scenarios_are_errors)
{
	json_t *j = run_text(bad[_i].text);
	const json_t *sc = scenario(j, 0);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "scenarios")), 1);
	ck_assert_msg(error_of(j) != NULL, "case %d: no error", _i);
	ck_assert_str_eq(error_of(j), bad[_i].error);
	ck_assert(json_is_false(json_object_get(sc, "passed")));
	ck_assert_uint_eq(json_array_size(json_object_get(sc, "checks")), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "failed")), 1);
	json_decref(j);
}
END_TEST

START_TEST(long_texts_stay_utf8)
{
	/* a path cut to ds_error's size in the middle of a character still gives an error text */
	char text[2048] = HEAD "checks: [{plan: x}]\n";
	size_t n = strlen(text);
	memcpy(text + n, "xy", 2); /* 2 + 2k bytes: ds_error's 255 cut one in two */
	n += 2;
	for (int i = 0; i < 300; i++, n += 2)
		memcpy(text + n, "\xc3\xa9", 2); /* é */
	memcpy(text + n, ": 1\n", 5);
	json_t *j = run_text(text);
	const char *e = error_of(j);
	ck_assert_ptr_nonnull(e);
	ck_assert_msg(strncmp(e, "xy\xc3\xa9\xc3\xa9", 6) == 0, "%s", e);
	ck_assert_ptr_nonnull(strstr(e, "\xc3\xa9?: unknown field"));
	ck_assert_ptr_nonnull(strstr(e, "unknown field (expected name, load, objects, steps, now, options or checks)"));
	json_decref(j);
}
END_TEST

START_TEST(several_documents)
{
	/* several documents are several scenarios; one that is malformed does not stop the others */
	json_t *j = run_text("name: a\n" HEAD "checks:\n- status: " FLUENTD "\n  desiredNumberScheduled: 4\n---\n"
			     "name: b\n" HEAD "checks:\n- status: " FLUENTD "\n  desiredNumberScheduled: 5\n---\n"
			     "- not a scenario\n---\n" HEAD "checks: [{plan: " FLUENTD "}]\n");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "passed")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "failed")), 2);
	ck_assert_str_eq(first_failure(scenario(j, 1)), "status.desiredNumberScheduled: 4, want 5");
	ck_assert_str_eq(json_string_value(json_object_get(scenario(j, 2), "name")), "scenario#3");
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(scenario(j, 2), "error")), "got a list"));
	ck_assert_str_eq(json_string_value(json_object_get(scenario(j, 3), "name")), "scenario#4");
	ck_assert(json_is_true(json_object_get(scenario(j, 3), "passed")));
	json_decref(j);
	/* concatenated JSON values, and YAML flow style that starts like JSON */
	j = run_text("{\"load\": \"../cluster\", \"now\": \"2026-12-02T15:00:00Z\", \"checks\": [{\"plan\": \"" FLUENTD
		     "\"}]}\n{\"load\": \"../cluster\", \"now\": \"2026-12-02T15:00:00Z\", \"checks\": [{\"plan\": "
		     "\"x/y\"}]}");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "passed")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "failed")), 1);
	ck_assert_ptr_nonnull(strstr(first_failure(scenario(j, 1)), "DS_ENOTFOUND"));
	json_decref(j);
	j = run_text("{load: ../cluster, now: 2026-12-02T15:00:00Z, checks: [{plan: " FLUENTD
		     ", creates: [worker-4]}]}");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "passed")), 1);
	json_decref(j);
}
END_TEST

START_TEST(library_errors_fail_the_check)
{
	/* a check against an unknown DaemonSet fails with the library's error; the other checks still run */
	json_t *j = run_text(HEAD "checks:\n- plan: kube-system/nope\n- plan: " FLUENTD "\n  creates: [worker-4]\n");
	const json_t *sc = scenario(j, 0);
	ck_assert_str_eq(first_failure(sc), "DS_ENOTFOUND: object not found: daemonsets.apps \"nope\" not found");
	ck_assert(json_is_true(json_object_get(json_array_get(json_object_get(sc, "checks"), 1), "passed")));
	json_decref(j);
}
END_TEST

START_TEST(check_names_are_reported)
{
	json_t *j = run_text(HEAD "checks:\n- rollout: " FLUENTD "\n  name: slow pods\n  durationSeconds: 20\n"
				  "- plan: " FLUENTD "\n  name: one create\n  creates: [worker-4]\n"
				  "- plan: " FLUENTD "\n  creates: 2\n");
	json_t *checks = json_object_get(scenario(j, 0), "checks");
	json_t *c0 = json_array_get(checks, 0), *c1 = json_array_get(checks, 1), *c2 = json_array_get(checks, 2);
	ck_assert_str_eq(json_string_value(json_object_get(c0, "name")), "slow pods");
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(c0, "failures"), 0)),
			 "slow pods: durationSeconds: 25, want 20");
	ck_assert_str_eq(json_string_value(json_object_get(c0, "check")), "rollout " FLUENTD);
	ck_assert_str_eq(json_string_value(json_object_get(c1, "name")), "one create");
	ck_assert(json_is_true(json_object_get(c1, "passed")));
	ck_assert_ptr_null(json_object_get(c2, "name"));
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(c2, "failures"), 0)), "creates: 1, want 2");
	json_decref(j);
	/* the library's error in a named check carries the name too */
	j = run_text(HEAD "checks:\n- plan: kube-system/nope\n  name: missing\n");
	ck_assert_ptr_nonnull(strstr(first_failure(scenario(j, 0)), "missing: DS_ENOTFOUND: "));
	json_decref(j);
}
END_TEST

static const char *duration_failure(const char *text, const ds_options *o, json_t **keep)
{
	*keep = run_with(text, o);
	return first_failure(scenario(*keep, 0));
}

START_TEST(options_are_layered)
{
	/* simReadyAfter R: worker-4 Ready at R, worker-2's old pod goes (5 s), its new one Ready R later: 2R + 5 s */
	static const char rollout[] = HEAD "checks:\n- rollout: " FLUENTD "\n  durationSeconds: 0\n";
	static const char scenario_20s[] = HEAD "options: {simReadyAfter: 20s}\nchecks:\n- rollout: " FLUENTD
						"\n  durationSeconds: 0\n- rollout: " FLUENTD
						"\n  options: {simReadyAfter: 1s}\n  durationSeconds: 0\n";
	json_t *j;
	ck_assert_str_eq(duration_failure(rollout, NULL, &j), "durationSeconds: 25, want 0");
	json_decref(j);
	/* the caller's options reach the checks (dsctl --set simReadyAfter=30s test ...) */
	ds_options *caller = dsi_test_options("{\"simReadyAfter\": \"30s\", \"burstReplicas\": 7}");
	ck_assert_str_eq(duration_failure(rollout, caller, &j), "durationSeconds: 65, want 0");
	json_decref(j);
	/* the scenario's options override the caller's, the check's override both */
	ck_assert_str_eq(duration_failure(scenario_20s, caller, &j), "durationSeconds: 45, want 0");
	json_t *second = json_array_get(json_object_get(scenario(j, 0), "checks"), 1);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(second, "failures"), 0)),
			 "durationSeconds: 7, want 0");
	json_decref(j);
	/* the caller's options object is not changed */
	char *v;
	ck_assert_int_eq(ds_options_get(caller, "simReadyAfter", &v, NULL), 0);
	ck_assert_str_eq(v, "30s");
	ds_free(v);
	ds_options_free(caller);
}
END_TEST

START_TEST(options_reach_loading)
{
	static const char legacy[] = "load: ../cluster/nodes.yaml\nnow: 2026-12-02T15:00:00Z\n%s"
				     "objects:\n- apiVersion: extensions/v1beta1\n  kind: DaemonSet\n"
				     "  metadata: {name: old, namespace: kube-system, uid: old-uid}\n"
				     "  spec:\n    template:\n      metadata: {labels: {app: old}}\n"
				     "      spec: {containers: [{name: c, image: \"old:1.0\"}]}\n"
				     "checks:\n- status: kube-system/old\n  desiredNumberScheduled: 4\n"
				     "- explain: kube-system/old\n  create: [worker-1, worker-2, worker-3, worker-4]\n";
	char text[2048];
	snprintf(text, sizeof(text), legacy, "");
	json_t *j = run_text(text);
	ck_assert_ptr_nonnull(strstr(error_of(j), "loading the cluster: objects[0].apiVersion: no matches for kind "
						  "\"DaemonSet\" in version \"extensions/v1beta1\""));
	json_decref(j);
	/* the scenario's options */
	snprintf(text, sizeof(text), legacy, "options: {legacyDaemonSets: true}\n");
	j = run_text(text);
	ck_assert_msg(json_is_true(json_object_get(scenario(j, 0), "passed")), "%s",
		      error_of(j) ? error_of(j) : "failed");
	json_decref(j);
	/* the caller's */
	snprintf(text, sizeof(text), legacy, "");
	ds_options *caller = dsi_test_options("{\"legacyDaemonSets\": true}");
	j = run_with(text, caller);
	ck_assert(json_is_true(json_object_get(scenario(j, 0), "passed")));
	json_decref(j);
	/* and the scenario's win */
	snprintf(text, sizeof(text), legacy, "options: {legacyDaemonSets: false}\n");
	j = run_with(text, caller);
	ck_assert_ptr_nonnull(strstr(error_of(j), "no matches for kind"));
	json_decref(j);
	ds_options_free(caller);
}
END_TEST

START_TEST(malformed_text)
{
	char *out = (char *)"untouched";
	ds_error err;
	/* text that cannot be parsed has no scenario to report: the call fails, with the position */
	ck_assert_int_eq(ds_scenario_run("checks: [unclosed", 17, NULL, NULL, &out, &err), DS_ESYNTAX);
	ck_assert_ptr_null(out);
	ck_assert_int_gt(err.line, 0);
	ck_assert_int_gt(err.column, 0);
	/* JSON that YAML cannot read either: the JSON error */
	ck_assert_int_eq(ds_scenario_run("{\"now\": 1,,}", 12, NULL, NULL, &out, &err), DS_ESYNTAX);
	ck_assert_int_eq(err.line, 1);
	ck_assert_int_eq(err.column, 11);
	ck_assert_str_eq(err.message, "string or '}' expected near ','");
	/* even when documents before it were fine */
	static const char two[] = HEAD "checks: [{plan: " FLUENTD "}]\n---\nchecks: [unclosed\n";
	ck_assert_int_eq(ds_scenario_run(two, strlen(two), "examples/scenarios", NULL, &out, &err), DS_ESYNTAX);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(err.line, 6); /* where libyaml finds the sequence unclosed: the end */
	/* a file is named, so a malformed file is one failed scenario with the position, and the run goes on */
	ck_assert_int_eq(ds_scenario_run_file("tests/scenarios/bad", NULL, &out, &err), 0);
	json_t *j = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_ptr_nonnull(j);
	size_t i;
	json_t *sc;
	int malformed = 0, typed = 0;
	json_array_foreach(json_object_get(j, "scenarios"), i, sc)
	{
		const char *file = json_string_value(json_object_get(sc, "file")),
			   *e = json_string_value(json_object_get(sc, "error"));
		ck_assert(json_is_false(json_object_get(sc, "passed")));
		ck_assert_msg(e != NULL, "%s passed", json_string_value(json_object_get(sc, "name")));
		if (strcmp(file, "tests/scenarios/bad/malformed.yaml") == 0) {
			malformed++;
			ck_assert_str_eq(json_string_value(json_object_get(sc, "name")), file);
			ck_assert_ptr_nonnull(strstr(e, "line 6, column "));
		} else {
			typed++;
		}
	}
	ck_assert_int_eq(malformed, 1);
	ck_assert_int_eq(typed, 10);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "passed")), 0);
	json_decref(j);
}
END_TEST

START_TEST(bad_arguments)
{
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_scenario_run(NULL, 0, NULL, NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_scenario_run("x", 1, NULL, NULL, NULL, &err), DS_EARG);
	ck_assert_int_eq(ds_scenario_run_file(NULL, NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_scenario_run_file("tests/vectors/no-such-file.yaml", NULL, &out, &err), DS_EIO);
	ck_assert_str_eq(err.message, "cannot open tests/vectors/no-such-file.yaml: No such file or directory");
	/* the loading limits of the caller's options apply to the scenario text */
	ds_options *o = dsi_test_options("{\"maxDocumentBytes\": 10}");
	ck_assert_int_eq(ds_scenario_run(HEAD, strlen(HEAD), NULL, o, &out, &err), DS_ELIMIT);
	ds_options_free(o);
	/* no documents: nothing ran, nothing failed */
	ck_assert_int_eq(ds_scenario_run("", 0, NULL, NULL, &out, &err), 0);
	ck_assert_str_eq(out, "{\"failed\":0,\"passed\":0,\"scenarios\":[]}");
	ds_free(out);
}
END_TEST

/* Check's assertions record every passing one; the loop below makes thousands, so it asserts only on failure. */
#define REQUIRE(cond, ...)                                                                                             \
	do {                                                                                                           \
		if (!(cond))                                                                                           \
			ck_abort_msg(__VA_ARGS__);                                                                     \
	} while (0)

/* ---- mutation fuzzing ------------------------------------------------------------------------------------- */

typedef struct rng {
	uint64_t s;
} rng;

static uint32_t next(rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (uint32_t)(r->s >> 16);
}

/* A place in the tree: member key of an object, or element index of an array. */
typedef struct place {
	json_t *parent;
	const char *key;
	size_t index;
	int strict;     /* outside objects and options: a value there must have a type its field takes */
	int in_objects; /* inside objects: Kubernetes objects, read by the loader */
} place;

typedef struct places {
	place v[4096];
	size_t n;
	const json_t *root;
} places;

static void collect_places(json_t *v, int strict, int in_objects, places *out)
{
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach(v, k, x)
		{
			int s = strict && strcmp(k, "objects") != 0 && strcmp(k, "options") != 0;
			int o = in_objects || (v == out->root && strcmp(k, "objects") == 0);
			if (out->n < DSI_ARRAY_LEN(out->v))
				out->v[out->n++] = (place){v, k, 0, s, o};
			collect_places(x, s, o, out);
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
		{
			if (out->n < DSI_ARRAY_LEN(out->v))
				out->v[out->n++] = (place){v, NULL, i, strict, in_objects};
			collect_places(x, strict, in_objects, out);
		}
	}
}

static json_t *random_value(rng *r)
{
	switch (next(r) % 18) {
	case 0: return json_null();
	case 1: return json_true();
	case 2: return json_false();
	case 3: return json_integer(0);
	case 4: return json_integer(-1);
	case 5: return json_integer(7);
	case 6: return json_real(2.5);
	case 7: return json_string("");
	case 8: return json_string("fuzz");
	case 9: return json_string(FLUENTD);
	case 10: return json_string("worker-1");
	case 11: return json_array();
	case 12: return json_pack("[i]", 1);
	case 13: return json_pack("[s]", "fuzz");
	case 14: return json_object();
	case 15: return json_pack("{s:i}", "max", 1);
	case 16: {
		char long_text[901] = "";
		for (int i = 0; i < 300; i++)
			strcat(long_text, "\xc3\xa9/"); /* é/ */
		return json_string(long_text);
	}
	default: return json_pack("{s:b}", "fuzz", 1);
	}
}

static void set_at(const place *p, json_t *v)
{
	if (p->key)
		json_object_set_new(p->parent, p->key, v);
	else
		json_array_set_new(p->parent, p->index, v);
}

/* One mutation; returns 1 when it must make the scenario an error (a value no field takes, or an unknown key,
 * where the form is checked). */
static int mutate(json_t *doc, rng *r)
{
	places *ps = malloc(sizeof(*ps));
	REQUIRE(ps, "out of memory");
	ps->n = 0;
	ps->root = doc;
	collect_places(doc, 1, 0, ps);
	int must_fail = 0;
	unsigned op = next(r) % 8;
	if (ps->n == 0 || op == 7) { /* an unknown key in a mapping */
		json_t *target = doc;
		int strict = 1;
		for (size_t tries = 0; ps->n && tries < 8; tries++) {
			place *p = &ps->v[next(r) % ps->n];
			json_t *v = p->key ? json_object_get(p->parent, p->key) : json_array_get(p->parent, p->index);
			if (json_is_object(v)) {
				target = v;
				strict = p->strict;
				break;
			}
		}
		if (json_is_object(target) && !json_object_get(target, "fuzz")) {
			json_object_set_new(target, "fuzz", json_true());
			must_fail = strict;
		}
	} else {
		place *p = &ps->v[next(r) % ps->n];
		if (op < 2) { /* drop the key or element */
			if (p->key)
				json_object_del(p->parent, p->key);
			else
				json_array_remove(p->parent, p->index);
		} else if (op == 2) { /* a mapping no field takes */
			set_at(p, json_pack("{s:b}", "fuzz", 1));
			must_fail = p->strict;
		} else {
			set_at(p, random_value(r));
		}
	}
	free(ps);
	return must_fail;
}

/* The result of one run is well formed: passed (0), failed with failures (1), or an error without checks (2). */
static int verdict(const json_t *res, size_t nchecks, const char *text)
{
	const json_t *sc = scenario(res, 0);
	json_t *passed = json_object_get(sc, "passed"), *checks = json_object_get(sc, "checks");
	REQUIRE(json_array_size(json_object_get(res, "scenarios")) == 1, "%s: not one scenario", text);
	REQUIRE(json_is_boolean(passed) && json_is_string(json_object_get(sc, "name")) && json_is_array(checks),
		"%s: malformed result", text);
	REQUIRE(json_integer_value(json_object_get(res, "passed")) == json_is_true(passed) &&
			json_integer_value(json_object_get(res, "failed")) == !json_is_true(passed),
		"%s: counts disagree", text);
	json_t *e = json_object_get(sc, "error");
	if (e) {
		REQUIRE(json_is_string(e) && json_string_length(e) > 0, "%s: empty error", text);
		REQUIRE(json_is_false(passed) && json_array_size(checks) == 0, "%s: an error with checks", text);
		return 2;
	}
	REQUIRE(json_array_size(checks) == nchecks, "%s: %zu checks reported", text, json_array_size(checks));
	int all = 1;
	size_t i;
	json_t *c;
	json_array_foreach(checks, i, c)
	{
		json_t *f = json_object_get(c, "failures");
		REQUIRE(json_is_string(json_object_get(c, "check")) && json_is_array(f), "%s: check %zu", text, i);
		REQUIRE(json_is_true(json_object_get(c, "passed")) == (json_array_size(f) == 0), "%s: check %zu", text,
			i);
		all &= json_array_size(f) == 0;
	}
	REQUIRE(json_is_true(passed) == all, "%s: passed disagrees with the checks", text);
	return all ? 0 : 1;
}

START_TEST(mutated_scenarios_never_crash)
{
	static const char *const files[] = {"examples/scenarios/01-fluentd-everywhere.yaml",
					    "examples/scenarios/02-control-plane-toleration.yaml",
					    "examples/scenarios/03-gpu-nodes.yaml",
					    "examples/scenarios/04-rolling-update.yaml",
					    "examples/scenarios/05-drain.yaml",
					    "examples/scenarios/06-audit.yaml"};
	json_t *docs[DSI_ARRAY_LEN(files)];
	dsi_limits lim;
	dsi_limits_default(&lim);
	for (size_t i = 0; i < DSI_ARRAY_LEN(files); i++) {
		size_t len;
		char *text = dsi_test_read_file(files[i], &len);
		ds_error err;
		ck_assert_msg(dsi_parse_one(text, len, &lim, &docs[i], &err) == 0, "%s: %s", files[i], err.message);
		free(text);
	}
	rng r = {0x5ce4a510d1ce5eedULL};
	int seen[3] = {0, 0, 0}, strict_errors = 0;
	for (int run = 0; run < 3000; run++) {
		size_t which = next(&r) % DSI_ARRAY_LEN(files);
		json_t *doc = json_deep_copy(docs[which]);
		int rounds = run == 0 ? 0 : next(&r) % 3 == 0 ? 2 + (int)(next(&r) % 3) : 1;
		int must_fail = 0;
		for (int k = 0; k < rounds; k++)
			must_fail = mutate(doc, &r) && rounds == 1;
		char *text = json_dumps(doc, JSON_COMPACT | JSON_ENCODE_ANY);
		REQUIRE(text, "run %d: cannot dump", run);
		char *out;
		ds_error err;
		int rc = ds_scenario_run(text, strlen(text), "examples/scenarios", NULL, &out, &err);
		REQUIRE(rc == 0, "run %d: %s: %s", run, ds_strerror(rc), err.message);
		json_t *res = json_loads(out, 0, NULL);
		ds_free(out);
		REQUIRE(res, "run %d: the result is not JSON", run);
		json_t *checks = json_object_get(doc, "checks");
		int v = verdict(res, json_is_array(checks) ? json_array_size(checks) : 0, text);
		REQUIRE(!must_fail || v == 2, "run %d: %s was not an error", run, text);
		REQUIRE(run != 0 || v == 0, "the unmutated scenario, as JSON text, did not pass: %s", text);
		seen[v]++;
		strict_errors += must_fail;
		free(text);
		json_decref(res);
		json_decref(doc);
	}
	/* the loop reached every outcome, and the oracle had work to do */
	ck_assert_int_gt(seen[0], 100);
	ck_assert_int_gt(seen[1], 100);
	ck_assert_int_gt(seen[2], 100);
	ck_assert_int_gt(strict_errors, 100);
	for (size_t i = 0; i < DSI_ARRAY_LEN(files); i++)
		json_decref(docs[i]);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *tc = tcase_create("runner");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, shipped_scenarios_pass);
	tcase_add_test(tc, failures_are_reported);
	tcase_add_loop_test(tc, malformed_scenarios_are_errors, 0, (int)DSI_ARRAY_LEN(bad));
	tcase_add_test(tc, several_documents);
	tcase_add_test(tc, long_texts_stay_utf8);
	tcase_add_test(tc, library_errors_fail_the_check);
	tcase_add_test(tc, check_names_are_reported);
	tcase_add_test(tc, options_are_layered);
	tcase_add_test(tc, options_reach_loading);
	tcase_add_test(tc, malformed_text);
	tcase_add_test(tc, bad_arguments);
	suite_add_tcase(s, tc);
	TCase *fz = tcase_create("fuzz");
	tcase_set_timeout(fz, 120);
	tcase_add_test(fz, mutated_scenarios_never_crash);
	suite_add_tcase(s, fz);
	return s;
}

DSI_TEST_MAIN(suite)
