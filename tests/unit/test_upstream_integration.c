/*
 * Upstream's DaemonSet integration tests replayed against libdaemonset's controller driver
 * over the fake cluster of tests/support: every test of
 *   kubernetes/kubernetes test/integration/daemonset/daemonset_test.go
 *   at commit 4a0608cb77f6a53af41cb4a453af104a4d4a0610
 * with its helpers (newDaemonSet, newNode, addNodes, validateDaemonSetPodsAndMarkReady, ...,
 * cleanupDaemonSets) and assertions, named as upstream names them. As in upstream's setup(),
 * the API server, kube-scheduler (the fake's, through libdaemonset's filters) and the
 * DaemonSet controller run; there is no kubelet (the test marks pods Running and Ready
 * itself) and no garbage collector; the controller's failed-pods backoff is
 * flowcontrol.NewBackOff(5s, 15m). Upstream polls on real time; here the same polls run on
 * virtual time. Besides upstream's own checks, every write of the cluster is checked against
 * what the tests take for granted: never two live pods of the DaemonSet on one node (at
 * most maxSurge nodes with two during a surge), never a pod on a node the DaemonSet must
 * not run on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/replay.h"
#include "harness.h"

static const fake_options integration = {.ready_after_ms = -1, .no_gc = 1};
static const char controller_options[] = "{\"backoffInitial\":\"5s\",\"backoffMax\":\"15m\"}";

/* ---- upstream's fixtures ---- */

static json_t *test_labels(void) { return json_pack("{s:s}", "name", "test"); }

/* newDaemonSet: revisionHistoryLimit 2, OnDelete, the container foo/bar, no grace period. */
static json_t *new_daemon_set(const char *name, const char *ns)
{
	return json_pack("{s:s, s:s, s:{s:s, s:s}, s:{s:i, s:{s:o}, s:{s:s}, s:{s:{s:o}, s:{s:[{s:s, s:s}], s:i}}}}",
			 "kind", "DaemonSet", "apiVersion", "apps/v1", "metadata", "namespace", ns, "name", name,
			 "spec", "revisionHistoryLimit", 2, "selector", "matchLabels", test_labels(), "updateStrategy",
			 "type", "OnDelete", "template", "metadata", "labels", test_labels(), "spec", "containers",
			 "name", "foo", "image", "bar", "terminationGracePeriodSeconds", 0);
}

static json_t *template_spec(json_t *ds)
{
	return json_object_get(json_object_get(json_object_get(ds, "spec"), "template"), "spec");
}

/* newRollbackStrategy and newOnDeleteStrategy: updateStrategies(). */
static json_t *strategy(int rolling)
{
	return rolling ? json_pack("{s:s, s:{s:i}}", "type", "RollingUpdate", "rollingUpdate", "maxUnavailable", 1)
		       : json_pack("{s:s}", "type", "OnDelete");
}

/* newNode: Ready, 100 pods allocatable. */
static json_t *new_node(const char *name, json_t *labels)
{
	json_t *n = json_pack("{s:s, s:s, s:{s:s}, s:{s:[{s:s, s:s}], s:{s:s}}}", "kind", "Node", "apiVersion", "v1",
			      "metadata", "name", name, "status", "conditions", "type", "Ready", "status", "True",
			      "allocatable", "pods", "100");
	if (labels)
		json_object_set_new(json_object_get(n, "metadata"), "labels", labels);
	return n;
}

static void add_node(replay *r, json_t *node)
{
	json_decref(rp_create(r, "nodes", NULL, node));
	json_decref(node);
}

static void add_nodes(replay *r, int start, int count, const char *label_key, const char *label_value)
{
	for (int i = start; i < start + count; i++) {
		char name[32];
		snprintf(name, sizeof(name), "node-%d", i);
		add_node(r, new_node(name, label_key ? json_pack("{s:s}", label_key, label_value) : NULL));
	}
}

static json_t *create_ds(replay *r, json_t *ds)
{
	json_t *got = rp_create(r, "daemonsets", rp_str(ds, "metadata.namespace"), ds);
	json_decref(ds);
	return got;
}

/* The pods the informer holds (every namespace), each with one controller reference to a DaemonSet. */
static int owner_ok(const json_t *pod, char *why, size_t size)
{
	const json_t *refs = json_object_get(json_object_get(pod, "metadata"), "ownerReferences");
	if (json_array_size(refs) != 1) {
		snprintf(why, size, "Pod %s has %zu OwnerReferences, expected only 1", rp_str(pod, "metadata.name"),
			 json_array_size(refs));
		return 0;
	}
	const json_t *ref = json_array_get(refs, 0);
	if (strcmp(rp_str(ref, "kind"), "DaemonSet")) {
		snprintf(why, size, "controllerRef.Kind = %s, want DaemonSet", rp_str(ref, "kind"));
		return 0;
	}
	if (!json_is_true(json_object_get(ref, "controller"))) {
		snprintf(why, size, "controllerRef.Controller is not set to true");
		return 0;
	}
	return 1;
}

/* validateDaemonSetPodsAndMarkReady: numberPods pods not terminated; bound pods not ready are
 * marked Running and Ready through the status subresource. */
static int pods_marked_ready(replay *r, void *arg, char *why, size_t size)
{
	int want = *(const int *)arg, nonterminated = 0;
	json_t *pods = rp_list(r, "pods", NULL, NULL, NULL);
	size_t i;
	json_t *pod;
	json_array_foreach(pods, i, pod)
	{
		if (!owner_ok(pod, why, size)) {
			json_decref(pods);
			return -1;
		}
		if (rp_pod_terminal(pod))
			continue;
		nonterminated++;
		if (!rp_pod_ready(pod) && rp_str(pod, "spec.nodeName")) {
			json_t *copy = json_deep_copy(pod);
			json_object_set_new(copy, "status",
					    json_pack("{s:s, s:[{s:s, s:s}]}", "phase", "Running", "conditions", "type",
						      "Ready", "status", "True"));
			char *text = json_dumps(copy, JSON_COMPACT), *out = NULL;
			json_decref(copy);
			int code = fake_update(r->api, "pods", rp_str(pod, "metadata.namespace"),
					       rp_str(pod, "metadata.name"), "status", text, &out);
			free(text);
			free(out);
			if (code != 200) {
				snprintf(why, size, "UpdateStatus of pod %s: %d", rp_str(pod, "metadata.name"), code);
				json_decref(pods);
				return -1;
			}
		}
	}
	json_decref(pods);
	snprintf(why, size, "%d pods not terminated, want %d", nonterminated, want);
	return nonterminated == want;
}

static void validate_pods_and_mark_ready(replay *r, int n)
{
	rp_wait(r, "validateDaemonSetPodsAndMarkReady", 1000, 60000, pods_marked_ready, &n);
}

/* validateDaemonSetPodsActive: at least numberPods pods, numberPods of them Running or Pending. */
static int pods_active(replay *r, void *arg, char *why, size_t size)
{
	int want = *(const int *)arg, active = 0;
	json_t *pods = rp_list(r, "pods", NULL, NULL, NULL);
	if ((int)json_array_size(pods) < want) {
		snprintf(why, size, "%zu pods, want at least %d", json_array_size(pods), want);
		json_decref(pods);
		return 0;
	}
	size_t i;
	json_t *pod;
	json_array_foreach(pods, i, pod)
	{
		if (!owner_ok(pod, why, size)) {
			json_decref(pods);
			return -1;
		}
		const char *ph = rp_str(pod, "status.phase");
		active += ph && (!strcmp(ph, "Running") || !strcmp(ph, "Pending"));
	}
	json_decref(pods);
	snprintf(why, size, "%d pods active, want %d", active, want);
	return active == want;
}

static void validate_pods_active(replay *r, int n)
{
	rp_wait(r, "validateDaemonSetPodsActive", 1000, 60000, pods_active, &n);
}

typedef struct ds_want {
	const char *ns, *name, *field;
	json_int_t value;
} ds_want;

/* A status field of the DaemonSet reaches a value (validateDaemonSetStatus: numberReady,
 * validateUpdatedNumberScheduled: updatedNumberScheduled). */
static int ds_status_is(replay *r, void *arg, char *why, size_t size)
{
	const ds_want *w = arg;
	json_t *ds = rp_get(r, "daemonsets", w->ns, w->name);
	if (!ds) {
		snprintf(why, size, "the DaemonSet is gone");
		return -1;
	}
	char path[128];
	snprintf(path, sizeof(path), "status.%s", w->field);
	json_int_t got = rp_int(ds, path);
	json_decref(ds);
	snprintf(why, size, "status.%s is %lld, want %lld", w->field, (long long)got, (long long)w->value);
	return got == w->value;
}

static void validate_status(replay *r, const char *ns, const char *name, const char *field, json_int_t value)
{
	ds_want w = {ns, name, field, value};
	char what[128];
	snprintf(what, sizeof(what), "the DaemonSet's status.%s to be %lld", field, (long long)value);
	rp_wait(r, what, 1000, 60000, ds_status_is, &w);
}

static int pods_created(replay *r, void *arg, char *why, size_t size)
{
	json_t *pods = rp_list(r, "pods", NULL, NULL, NULL);
	int n = (int)json_array_size(pods);
	json_decref(pods);
	snprintf(why, size, "%d pods, want %d", n, *(const int *)arg);
	return n == *(const int *)arg;
}

/* setup(): the fake cluster, the controller, the namespace. */
static void setup(replay *r, const char *test, const char *ns, rp_placement *pl)
{
	rp_start(r, test, &integration, controller_options, NULL);
	json_t *nso = json_pack("{s:s, s:s, s:{s:s}}", "apiVersion", "v1", "kind", "Namespace", "metadata", "name", ns);
	json_decref(rp_create(r, "namespaces", NULL, nso));
	json_decref(nso);
	rp_invariant(r, "one live daemon pod per node", rp_placement_holds, pl, 1);
}

static int drained(replay *r, void *arg, char *why, size_t size)
{
	const char *const *key = arg;
	json_t *ds = rp_get(r, "daemonsets", key[0], key[1]);
	if (!ds)
		return 0;
	json_int_t cur = rp_int(ds, "status.currentNumberScheduled"), mis = rp_int(ds, "status.numberMisscheduled");
	json_decref(ds);
	snprintf(why, size, "currentNumberScheduled %lld + numberMisscheduled %lld", (long long)cur, (long long)mis);
	return cur + mis == 0;
}

static void random_selector(json_t *ds, void *arg)
{
	(void)arg;
	json_object_set_new(
		template_spec(ds), "nodeSelector",
		json_pack("{s:s}", "2c2e4f3a-9b1d-4e55-8a8e-0f1f2a3b4c5d", "6a7b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c9d"));
	json_object_del(json_object_get(ds, "metadata"), "resourceVersion"); /* force update */
}

/* cleanupDaemonSets: a node selector no node has, the pods go, then the DaemonSet. */
static void cleanup_daemon_sets(replay *r, const char *ns, const char *name)
{
	rp_by(r, "cleanupDaemonSets %s/%s", ns, name);
	json_t *ds = rp_get(r, "daemonsets", ns, name);
	if (!ds)
		rp_fail(r, "Failed to get DaemonSet %s/%s", ns, name);
	int finalizers = json_array_size(json_object_get(
				 json_object_get(json_object_get(json_object_get(ds, "spec"), "template"), "metadata"),
				 "finalizers")) > 0;
	json_decref(ds);
	json_decref(rp_update(r, "daemonsets", ns, name, NULL, random_selector, NULL));
	if (finalizers) { /* testutils.RemovePodFinalizersInNamespace */
		json_t *pods = rp_list(r, "pods", ns, NULL, NULL);
		size_t i;
		json_t *pod;
		json_array_foreach(pods, i, pod)
		{
			if (json_array_size(json_object_get(json_object_get(pod, "metadata"), "finalizers")))
				json_decref(rp_patch(r, "pods", ns, rp_str(pod, "metadata.name"), NULL,
						     "application/merge-patch+json",
						     "{\"metadata\":{\"finalizers\":null}}"));
		}
		json_decref(pods);
	}
	const char *key[2] = {ns, name};
	rp_wait(r, "the daemon set controller to kill all the daemon pods", 100, 30000, drained, key);
	rp_delete(r, "daemonsets", ns, name, "{\"orphanDependents\":false}");
}

static void teardown(replay *r, const char *ns, const char *name)
{
	if (name)
		cleanup_daemon_sets(r, ns, name);
	rp_stop(r);
}

/* ---- the tests ---- */

static const char *const strategy_names[] = {"OnDelete", "RollingUpdate"};

START_TEST(TestOneNodeDaemonLaunchesPod)
{
	for (int s = 0; s < 2; s++) {
		replay r;
		rp_placement pl = {0, NULL, NULL};
		char test[128];
		snprintf(test, sizeof(test), "TestOneNodeDaemonLaunchesPod/%s", strategy_names[s]);
		setup(&r, test, "one-node-daemonset-test", &pl);
		json_t *ds = new_daemon_set("foo", "one-node-daemonset-test");
		json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", strategy(s));
		json_decref(create_ds(&r, ds));
		add_node(&r, new_node("single-node", NULL));
		rp_by(&r, "validateDaemonSetPodsAndMarkReady(1)");
		validate_pods_and_mark_ready(&r, 1);
		validate_status(&r, "one-node-daemonset-test", "foo", "numberReady", 1);
		teardown(&r, "one-node-daemonset-test", "foo");
	}
}
END_TEST

START_TEST(TestSimpleDaemonSetLaunchesPods)
{
	for (int s = 0; s < 2; s++) {
		replay r;
		rp_placement pl = {0, NULL, NULL};
		char test[128];
		snprintf(test, sizeof(test), "TestSimpleDaemonSetLaunchesPods/%s", strategy_names[s]);
		setup(&r, test, "simple-daemonset-test", &pl);
		json_t *ds = new_daemon_set("foo", "simple-daemonset-test");
		json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", strategy(s));
		json_decref(create_ds(&r, ds));
		add_nodes(&r, 0, 5, NULL, NULL);
		rp_by(&r, "validateDaemonSetPodsAndMarkReady(5)");
		validate_pods_and_mark_ready(&r, 5);
		validate_status(&r, "simple-daemonset-test", "foo", "numberReady", 5);
		teardown(&r, "simple-daemonset-test", "foo");
	}
}
END_TEST

START_TEST(TestSimpleDaemonSetRestartsPodsOnTerminalPhase)
{
	static const struct {
		const char *name, *phase;
		int finalizer;
	} cases[] = {
		{"Succeeded", "Succeeded", 0}, {"Failed", "Failed", 0}, {"Succeeded with finalizer", "Succeeded", 1}};
	const char *ns = "daemonset-restart-terminal-pod-test";
	for (size_t c = 0; c < 3; c++)
		for (int s = 0; s < 2; s++) {
			replay r;
			rp_placement pl = {0, NULL, NULL};
			char test[160];
			snprintf(test, sizeof(test), "TestSimpleDaemonSetRestartsPodsOnTerminalPhase/%s/%s",
				 cases[c].name, strategy_names[s]);
			setup(&r, test, ns, &pl);
			json_t *ds = new_daemon_set("restart-terminal-pod", ns);
			if (cases[c].finalizer)
				json_object_set_new(
					json_object_get(json_object_get(json_object_get(ds, "spec"), "template"),
							"metadata"),
					"finalizers", json_pack("[s]", "test.k8s.io/finalizer"));
			json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", strategy(s));
			json_decref(create_ds(&r, ds));
			add_nodes(&r, 0, 3, NULL, NULL);
			rp_by(&r, "validateDaemonSetPodsAndMarkReady(3)");
			validate_pods_and_mark_ready(&r, 3);
			validate_status(&r, ns, "restart-terminal-pod", "numberReady", 3);
			rp_by(&r, "mark a pod %s", cases[c].phase);
			json_t *pods = rp_list(&r, "pods", NULL, NULL, NULL);
			json_t *pod = json_deep_copy(json_array_get(pods, 0));
			json_decref(pods);
			json_object_set_new(json_object_get(pod, "status"), "phase", json_string(cases[c].phase));
			char *text = json_dumps(pod, JSON_COMPACT), *out = NULL;
			int code = fake_update(r.api, "pods", ns, rp_str(pod, "metadata.name"), "status", text, &out);
			free(text);
			json_decref(rp_expect(&r, 200, code, out, "Failed to mark the pod as terminal"));
			json_decref(pod);
			/* all pods active: they either continue Running or are Pending after restart */
			rp_by(&r, "validateDaemonSetPodsActive(3)");
			validate_pods_active(&r, 3);
			validate_pods_and_mark_ready(&r, 3);
			validate_status(&r, ns, "restart-terminal-pod", "numberReady", 3);
			teardown(&r, ns, "restart-terminal-pod");
		}
}
END_TEST

START_TEST(TestDaemonSetWithNodeSelectorLaunchesPods)
{
	for (int s = 0; s < 2; s++) {
		replay r;
		rp_placement pl = {0, NULL, NULL};
		char test[128];
		snprintf(test, sizeof(test), "TestDaemonSetWithNodeSelectorLaunchesPods/%s", strategy_names[s]);
		setup(&r, test, "simple-daemonset-test", &pl);
		json_t *ds = new_daemon_set("foo", "simple-daemonset-test");
		json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", strategy(s));
		/* zone=test, or the node named node-1 */
		json_object_set_new(template_spec(ds), "affinity",
				    json_pack("{s:{s:{s:[{s:[{s:s, s:s, s:[s]}]}, {s:[{s:s, s:s, s:[s]}]}]}}}",
					      "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
					      "nodeSelectorTerms", "matchExpressions", "key", "zone", "operator", "In",
					      "values", "test", "matchFields", "key", "metadata.name", "operator", "In",
					      "values", "node-1"));
		json_decref(create_ds(&r, ds));
		add_nodes(&r, 0, 2, NULL, NULL);
		add_nodes(&r, 2, 2, "zone", "test"); /* two nodes with labels */
		add_nodes(&r, 4, 2, NULL, NULL);
		rp_by(&r, "validateDaemonSetPodsAndMarkReady(3)");
		validate_pods_and_mark_ready(&r, 3);
		validate_status(&r, "simple-daemonset-test", "foo", "numberReady", 3);
		/* which nodes: node-1 by name, node-2 and node-3 by label */
		json_t *pods = rp_list(&r, "pods", NULL, NULL, NULL);
		json_t *on = json_object();
		size_t i;
		json_t *p;
		json_array_foreach(pods, i, p) json_object_set_new(on, rp_str(p, "spec.nodeName"), json_true());
		ck_assert_msg(json_object_get(on, "node-1") && json_object_get(on, "node-2") &&
				      json_object_get(on, "node-3"),
			      "the pods are not on node-1, node-2 and node-3");
		json_decref(on);
		json_decref(pods);
		teardown(&r, "simple-daemonset-test", "foo");
	}
}
END_TEST

START_TEST(TestNotReadyNodeDaemonDoesLaunchPod)
{
	for (int s = 0; s < 2; s++) {
		replay r;
		rp_placement pl = {0, NULL, NULL};
		char test[128];
		snprintf(test, sizeof(test), "TestNotReadyNodeDaemonDoesLaunchPod/%s", strategy_names[s]);
		setup(&r, test, "simple-daemonset-test", &pl);
		json_t *ds = new_daemon_set("foo", "simple-daemonset-test");
		json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", strategy(s));
		json_decref(create_ds(&r, ds));
		json_t *node = new_node("single-node", NULL);
		json_object_set_new(json_object_get(node, "status"), "conditions",
				    json_pack("[{s:s, s:s}]", "type", "Ready", "status", "False"));
		add_node(&r, node);
		rp_by(&r, "validateDaemonSetPodsAndMarkReady(1)");
		validate_pods_and_mark_ready(&r, 1);
		validate_status(&r, "simple-daemonset-test", "foo", "numberReady", 1);
		teardown(&r, "simple-daemonset-test", "foo");
	}
}
END_TEST

static int pod_unschedulable(replay *r, void *arg, char *why, size_t size)
{
	const json_t *want = arg;
	json_t *pod = rp_get(r, "pods", rp_str(want, "metadata.namespace"), rp_str(want, "metadata.name"));
	int ok = 0;
	const json_t *conds = json_object_get(json_object_get(pod, "status"), "conditions");
	for (size_t i = 0; i < json_array_size(conds); i++) {
		const json_t *c = json_array_get(conds, i);
		if (!strcmp(rp_str(c, "type"), "PodScheduled"))
			ok = !strcmp(rp_str(c, "status"), "False") && rp_str(c, "reason") &&
			     !strcmp(rp_str(c, "reason"), "Unschedulable");
	}
	snprintf(why, size, "pod %s is not Unschedulable", rp_str(want, "metadata.name"));
	json_decref(pod);
	return ok;
}

/* TestInsufficientCapacityNode: the controller creates pods regardless of the nodes' free
 * resources; kube-scheduler does not place them where they do not fit. */
START_TEST(TestInsufficientCapacityNode)
{
	for (int s = 0; s < 2; s++) {
		replay r;
		rp_placement pl = {0, NULL, NULL};
		char test[128];
		snprintf(test, sizeof(test), "TestInsufficientCapacityNode/%s", strategy_names[s]);
		setup(&r, test, "insufficient-capacity", &pl);
		json_t *ds = new_daemon_set("foo", "insufficient-capacity");
		/* resourcePodSpec("", "120M", "75m") */
		json_object_set_new(json_object_get(json_object_get(ds, "spec"), "template"), "spec",
				    json_pack("{s:[{s:s, s:s, s:{s:{s:s, s:s}}}], s:i}", "containers", "name", "foo",
					      "image", "bar", "resources", "requests", "memory", "120M", "cpu", "75m",
					      "terminationGracePeriodSeconds", 0));
		json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", strategy(s));
		json_decref(create_ds(&r, ds));
		json_t *node = new_node("node-with-limited-memory", NULL);
		json_object_set_new(json_object_get(node, "status"), "allocatable",
				    json_pack("{s:s, s:s, s:s}", "memory", "100M", "cpu", "200m", "pods", "100"));
		add_node(&r, node);
		int one = 1;
		rp_by(&r, "waitForPodsCreated(1)");
		rp_wait(&r, "pods created", 100, 10000, pods_created, &one);
		json_t *pods = rp_list(&r, "pods", NULL, NULL, NULL);
		size_t i;
		json_t *pod;
		json_array_foreach(pods, i, pod)
			rp_wait(&r, "unschedulable status of the pod", 100, 10000, pod_unschedulable, pod);
		json_decref(pods);
		node = new_node("node-with-enough-memory", NULL);
		json_object_set_new(json_object_get(node, "status"), "allocatable",
				    json_pack("{s:s, s:s, s:s}", "memory", "200M", "cpu", "2000m", "pods", "100"));
		add_node(&r, node);
		/* 2 pods are created, but only one of them is scheduled */
		rp_by(&r, "validateDaemonSetPodsAndMarkReady(2)");
		validate_pods_and_mark_ready(&r, 2);
		validate_status(&r, "insufficient-capacity", "foo", "numberReady", 1);
		json_t *small = rp_list(&r, "pods", NULL, NULL, "spec.nodeName=node-with-limited-memory");
		ck_assert_int_eq(json_array_size(small), 0);
		json_decref(small);
		teardown(&r, "insufficient-capacity", "foo");
	}
}
END_TEST

static json_t *grace_one(void) { return json_integer(1); }

static void set_grace_one(json_t *ds, void *arg)
{
	(void)arg;
	json_object_set_new(template_spec(ds), "terminationGracePeriodSeconds", grace_one());
}

typedef struct collision {
	const char *ns, *name;
} collision;

/* waitForDaemonSetAndControllerRevisionCreated */
static int ds_and_revision(replay *r, void *arg, char *why, size_t size)
{
	const collision *c = arg;
	json_t *ds = rp_get(r, "daemonsets", c->ns, c->name);
	if (!ds) {
		snprintf(why, size, "the DaemonSet is not there");
		return -1;
	}
	json_t *revs = rp_list(r, "controllerrevisions", c->ns, NULL, NULL);
	int found = 0;
	size_t i;
	json_t *rev;
	json_array_foreach(revs, i, rev) found |= rp_controlled_by(rev, ds);
	json_decref(revs);
	json_decref(ds);
	snprintf(why, size, "no ControllerRevision owned by the DaemonSet");
	return found;
}

/* The fake ControllerRevision of TestLaunchWithHashCollision and
 * TestDSCUpdatesPodLabelAfterDedupCurHistories: named and labelled with the hash of the
 * template with terminationGracePeriodSeconds 1, holding the current revision's data. */
static json_t *colliding_revision(replay *r, const json_t *ds, const json_t *revision, char *new_hash, size_t size)
{
	json_t *changed = json_deep_copy(ds);
	set_grace_one(changed, NULL);
	rp_template_hash(changed, new_hash, size);
	char name[300];
	snprintf(name, sizeof(name), "%s-%s", rp_str(ds, "metadata.name"), new_hash);
	json_t *labels = json_deep_copy(json_object_get(
		json_object_get(json_object_get(json_object_get(ds, "spec"), "template"), "metadata"), "labels"));
	json_object_set_new(labels, "controller-revision-hash", json_string(new_hash));
	json_t *rev = json_pack("{s:s, s:s, s:{s:s, s:s, s:o, s:O, s:[{s:s, s:s, s:s, s:s, s:b, s:b}]}, s:O, s:I}",
				"apiVersion", "apps/v1", "kind", "ControllerRevision", "metadata", "name", name,
				"namespace", rp_str(ds, "metadata.namespace"), "labels", labels, "annotations",
				json_object_get(json_object_get(ds, "metadata"), "annotations"), "ownerReferences",
				"apiVersion", "apps/v1", "kind", "DaemonSet", "name", rp_str(ds, "metadata.name"),
				"uid", rp_str(ds, "metadata.uid"), "controller", 1, "blockOwnerDeletion", 1, "data",
				json_object_get(revision, "data"), "revision", rp_int(revision, "revision") + 1);
	json_decref(changed);
	json_t *got = rp_create(r, "controllerrevisions", rp_str(ds, "metadata.namespace"), rev);
	json_decref(rev);
	return got;
}

static json_t *rolling_ds(const char *ns)
{
	json_t *ds = new_daemon_set("foo", ns);
	json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", strategy(1));
	return ds;
}

static int pod_with_grace_one(replay *r, void *arg, char *why, size_t size)
{
	(void)arg;
	json_t *pods = rp_list(r, "pods", NULL, NULL, NULL);
	int found = 0;
	size_t i;
	json_t *p;
	json_array_foreach(pods, i, p) found |= rp_int(p, "spec.terminationGracePeriodSeconds") == 1;
	json_decref(pods);
	snprintf(why, size, "no pod with the latest spec");
	return found;
}

/* TestLaunchWithHashCollision: the DaemonSet can be updated although a ControllerRevision
 * already has the name its new revision would get. */
START_TEST(TestLaunchWithHashCollision)
{
	replay r;
	rp_placement pl = {0, NULL, NULL};
	const char *ns = "one-node-daemonset-test";
	setup(&r, "TestLaunchWithHashCollision", ns, &pl);
	add_node(&r, new_node("single-node", NULL));
	json_decref(create_ds(&r, rolling_ds(ns)));
	collision c = {ns, "foo"};
	rp_by(&r, "waitForDaemonSetAndControllerRevisionCreated");
	rp_wait(&r, "the DaemonSet and its ControllerRevision", 100, 10000, ds_and_revision, &c);
	json_t *ds = rp_get(&r, "daemonsets", ns, "foo");
	json_int_t org_collision = rp_int(ds, "status.collisionCount");
	char hash[32], name[300], new_hash[32];
	rp_template_hash(ds, hash, sizeof(hash));
	snprintf(name, sizeof(name), "foo-%s", hash);
	json_t *revision = rp_get(&r, "controllerrevisions", ns, name);
	if (!revision)
		rp_fail(&r, "Failed to look up ControllerRevision %s", name);
	rp_by(&r, "create a ControllerRevision that collides with the next update");
	json_decref(colliding_revision(&r, ds, revision, new_hash, sizeof(new_hash)));
	json_decref(revision);
	json_decref(ds);
	rp_by(&r, "update the DaemonSet into the collision");
	json_decref(rp_update(&r, "daemonsets", ns, "foo", NULL, set_grace_one, NULL));
	rp_wait(&r, "Pods with the latest Spec to be created", 100, 10000, pod_with_grace_one, NULL);
	ds = rp_get(&r, "daemonsets", ns, "foo");
	if (rp_int(ds, "status.collisionCount") != org_collision + 1 ||
	    !json_object_get(json_object_get(ds, "status"), "collisionCount"))
		rp_fail(&r, "Expected collisionCount to be %lld, but found %lld", (long long)org_collision + 1,
			(long long)rp_int(ds, "status.collisionCount"));
	json_decref(ds);
	teardown(&r, ns, "foo");
}
END_TEST

typedef struct dedup {
	const char *ns, *new_hash, *new_name;
	json_t *ds;
} dedup;

static int pods_relabelled(replay *r, void *arg, char *why, size_t size)
{
	const dedup *d = arg;
	json_t *pods = rp_list(r, "pods", NULL, NULL, NULL);
	size_t i;
	json_t *p;
	json_array_foreach(pods, i, p)
	{
		const char *h = rp_str(p, "metadata.labels.controller-revision-hash");
		if (rp_controlled_by(p, d->ds) && (!h || strcmp(h, d->new_hash))) {
			snprintf(why, size, "pod %s has hash %s, want %s", rp_str(p, "metadata.name"), h ? h : "(none)",
				 d->new_hash);
			json_decref(pods);
			return 0;
		}
	}
	json_decref(pods);
	return 1;
}

static int only_new_revision(replay *r, void *arg, char *why, size_t size)
{
	const dedup *d = arg;
	json_t *revs = rp_list(r, "controllerrevisions", d->ns, NULL, NULL);
	if (!json_array_size(revs)) {
		json_decref(revs);
		snprintf(why, size, "no avaialable controllerrevision");
		return -1;
	}
	size_t i;
	json_t *rev;
	json_array_foreach(revs, i,
			   rev) if (rp_controlled_by(rev, d->ds) && strcmp(rp_str(rev, "metadata.name"), d->new_name))
	{
		snprintf(why, size, "waiting for duplicate controllerrevision %s to be deleted",
			 rp_str(rev, "metadata.name"));
		json_decref(revs);
		return 0;
	}
	json_decref(revs);
	return 1;
}

/* TestDSCUpdatesPodLabelAfterDedupCurHistories: another ControllerRevision of the DaemonSet,
 * with the current template's data and a higher revision; a node is added so that the
 * controller syncs; it must relabel the pod with the new revision's hash and delete the old
 * revision. */
START_TEST(TestDSCUpdatesPodLabelAfterDedupCurHistories)
{
	replay r;
	rp_placement pl = {0, NULL, NULL};
	const char *ns = "one-node-daemonset-test";
	setup(&r, "TestDSCUpdatesPodLabelAfterDedupCurHistories", ns, &pl);
	add_node(&r, new_node("single-node", NULL));
	json_decref(create_ds(&r, rolling_ds(ns)));
	collision c = {ns, "foo"};
	rp_wait(&r, "the DaemonSet and its ControllerRevision", 100, 10000, ds_and_revision, &c);
	json_t *ds = rp_get(&r, "daemonsets", ns, "foo");
	char hash[32], name[300], new_hash[32], new_name[300];
	rp_template_hash(ds, hash, sizeof(hash));
	snprintf(name, sizeof(name), "foo-%s", hash);
	json_t *revision = rp_get(&r, "controllerrevisions", ns, name);
	if (!revision)
		rp_fail(&r, "Failed to look up ControllerRevision %s", name);
	rp_by(&r, "create a ControllerRevision owned by the same DaemonSet");
	json_decref(colliding_revision(&r, ds, revision, new_hash, sizeof(new_hash)));
	snprintf(new_name, sizeof(new_name), "foo-%s", new_hash);
	json_decref(revision);
	rp_by(&r, "add a node to ensure the DaemonSet syncs");
	add_node(&r, new_node("second-node", NULL));
	dedup d = {ns, new_hash, new_name, ds};
	rp_wait(&r, "the pod label to be updated after the new ControllerRevision", 100, 10000, pods_relabelled, &d);
	rp_wait(&r, "the duplicate ControllerRevision to be deleted", 1000, 10000, only_new_revision, &d);
	json_decref(ds);
	teardown(&r, ns, "foo");
}
END_TEST

static void no_taints(json_t *node, void *arg)
{
	(void)arg;
	json_object_set_new(json_object_get(node, "spec"), "taints", json_array());
}

/* TestTaintedNode: a tainted node gets no pod until the taint goes. */
START_TEST(TestTaintedNode)
{
	for (int s = 0; s < 2; s++) {
		replay r;
		int tainted = 1;
		rp_placement pl = {0, "node-with-taint", &tainted};
		char test[128];
		snprintf(test, sizeof(test), "TestTaintedNode/%s", strategy_names[s]);
		setup(&r, test, "tainted-node", &pl);
		json_t *ds = new_daemon_set("foo", "tainted-node");
		json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", strategy(s));
		json_decref(create_ds(&r, ds));
		json_t *node = new_node("node-with-taint", NULL);
		json_object_set_new(node, "spec",
				    json_pack("{s:[{s:s, s:s, s:s}]}", "taints", "key", "key1", "value", "val1",
					      "effect", "NoSchedule"));
		add_node(&r, node);
		add_node(&r, new_node("node-without-taint", NULL));
		rp_by(&r, "validateDaemonSetPodsAndMarkReady(1)");
		validate_pods_and_mark_ready(&r, 1);
		validate_status(&r, "tainted-node", "foo", "numberReady", 1);
		rp_by(&r, "remove the taint from node-with-taint");
		tainted = 0;
		json_decref(rp_update(&r, "nodes", NULL, "node-with-taint", NULL, no_taints, NULL));
		validate_pods_and_mark_ready(&r, 2);
		validate_status(&r, "tainted-node", "foo", "numberReady", 2);
		teardown(&r, "tainted-node", "foo");
	}
}
END_TEST

/* TestUnschedulableNodeDaemonDoesLaunchPod: DaemonSet pods go to unschedulable nodes too. */
START_TEST(TestUnschedulableNodeDaemonDoesLaunchPod)
{
	for (int s = 0; s < 2; s++) {
		replay r;
		rp_placement pl = {0, NULL, NULL};
		char test[128];
		const char *ns = "daemonset-unschedulable-test";
		snprintf(test, sizeof(test), "TestUnschedulableNodeDaemonDoesLaunchPod/%s", strategy_names[s]);
		setup(&r, test, ns, &pl);
		json_t *ds = new_daemon_set("foo", ns);
		json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", strategy(s));
		json_object_set_new(template_spec(ds), "hostNetwork", json_true());
		json_decref(create_ds(&r, ds));
		json_t *node = new_node("unschedulable-node", NULL);
		json_object_set_new(node, "spec",
				    json_pack("{s:b, s:[{s:s, s:s}]}", "unschedulable", 1, "taints", "key",
					      "node.kubernetes.io/unschedulable", "effect", "NoSchedule"));
		add_node(&r, node);
		json_t *nu = new_node("network-unavailable-node", NULL);
		json_object_set_new(json_object_get(nu, "status"), "conditions",
				    json_pack("[{s:s, s:s}, {s:s, s:s}]", "type", "Ready", "status", "False", "type",
					      "NetworkUnavailable", "status", "True"));
		json_object_set_new(nu, "spec",
				    json_pack("{s:[{s:s, s:s}]}", "taints", "key",
					      "node.kubernetes.io/network-unavailable", "effect", "NoSchedule"));
		add_node(&r, nu);
		rp_by(&r, "validateDaemonSetPodsAndMarkReady(2)");
		validate_pods_and_mark_ready(&r, 2);
		validate_status(&r, ns, "foo", "numberReady", 2);
		teardown(&r, ns, "foo");
	}
}
END_TEST

/* TestUpdateStatusDespitePodCreationFailure: an admission plugin refuses every pod after
 * the second (fakePodFailAdmission: 500); the status is written all the same. */
START_TEST(TestUpdateStatusDespitePodCreationFailure)
{
	for (int s = 0; s < 2; s++) {
		replay r;
		rp_placement pl = {0, NULL, NULL};
		char test[128];
		const char *ns = "update-status-despite-pod-failure";
		snprintf(test, sizeof(test), "TestUpdateStatusDespitePodCreationFailure/%s", strategy_names[s]);
		setup(&r, test, ns, &pl);
		fake_add_fault(r.api, &(fake_fault){.op = "create",
						    .resource = "pods",
						    .skip = 2,
						    .count = -1,
						    .code = 500,
						    .message = "fakePodFailAdmission error"});
		json_t *ds = new_daemon_set("foo", ns);
		json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", strategy(s));
		json_decref(create_ds(&r, ds));
		add_nodes(&r, 0, 5, NULL, NULL);
		rp_by(&r, "validateDaemonSetPodsAndMarkReady(2)");
		validate_pods_and_mark_ready(&r, 2);
		validate_status(&r, ns, "foo", "numberReady", 2);
		json_t *got = rp_get(&r, "daemonsets", ns, "foo");
		ck_assert_int_eq(rp_int(got, "status.desiredNumberScheduled"), 5);
		json_decref(got);
		fake_clear_faults(r.api);
		teardown(&r, ns, "foo");
	}
}
END_TEST

/* validateDaemonSetPodsTolerations: every pod's tolerations with the prefix are exactly these. */
static void validate_tolerations(replay *r, const json_t *expected, const char *prefix)
{
	json_t *pods = rp_list(r, "pods", NULL, NULL, NULL);
	size_t i;
	json_t *pod;
	json_array_foreach(pods, i, pod)
	{
		char why[256];
		if (!owner_ok(pod, why, sizeof(why)))
			rp_fail(r, "%s", why);
		json_t *got = json_array();
		size_t j;
		json_t *t;
		json_array_foreach(json_object_get(json_object_get(pod, "spec"), "tolerations"), j, t)
		{
			const char *key = rp_str(t, "key");
			if (key && !strncmp(key, prefix, strlen(prefix)))
				json_array_append(got, t);
		}
		if (!json_equal(got, expected)) {
			char *a = json_dumps(expected, JSON_COMPACT), *b = json_dumps(got, JSON_COMPACT);
			char msg[1024];
			snprintf(msg, sizeof(msg), "Unexpected tolerations of %s (-want,+got): %s %s",
				 rp_str(pod, "metadata.name"), a, b);
			free(a);
			free(b);
			json_decref(got);
			json_decref(pods);
			rp_fail(r, "%s", msg);
		}
		json_decref(got);
	}
	json_decref(pods);
}

static void set_tolerations(json_t *ds, void *arg)
{
	json_t *tol = arg;
	if (tol)
		json_object_set(template_spec(ds), "tolerations", tol);
	else
		json_object_del(template_spec(ds), "tolerations");
}

static json_t *exists(const char *a, const char *b, const char *c)
{
	json_t *t = json_array();
	const char *keys[] = {a, b, c};
	for (int i = 0; i < 3; i++)
		if (keys[i])
			json_array_append_new(t, json_pack("{s:s, s:s}", "key", keys[i], "operator", "Exists"));
	return t;
}

/* TestDaemonSetRollingUpdateWithTolerations: maxUnavailable 0, maxSurge 1, over six nodes
 * tainted zone-y, zone-z and zone-common, while the tolerations change. */
START_TEST(TestDaemonSetRollingUpdateWithTolerations)
{
	replay r;
	rp_placement pl = {1, NULL, NULL}; /* maxSurge 1 */
	const char *ns = "daemonset-rollingupdate-with-tolerations-test";
	setup(&r, "TestDaemonSetRollingUpdateWithTolerations", ns, &pl);
	json_t *ds = new_daemon_set("foo", ns);
	json_object_set_new(json_object_get(ds, "spec"), "updateStrategy",
			    json_pack("{s:s, s:{s:i, s:i}}", "type", "RollingUpdate", "rollingUpdate", "maxUnavailable",
				      0, "maxSurge", 1));
	for (int i = 0; i < 6; i++) { /* six nodes: zone-y, zone-z or zone-common */
		char name[24];        /* "node-" and any int: gcc -O1 checks the bound */
		snprintf(name, sizeof(name), "node-%d", i);
		json_t *node = new_node(name, NULL);
		json_object_set_new(node, "spec",
				    json_pack("{s:[{s:s, s:s}]}", "taints", "key",
					      i < 2   ? "zone-y"
					      : i < 4 ? "zone-z"
						      : "zone-common",
					      "effect", "NoSchedule"));
		add_node(&r, node);
	}
	rp_by(&r, "create the DaemonSet with zone-y and zone-common tolerations");
	json_t *tol = exists("zone-y", "zone-common", NULL);
	json_object_set(template_spec(ds), "tolerations", tol);
	json_decref(create_ds(&r, ds));
	validate_pods_active(&r, 4);
	validate_pods_and_mark_ready(&r, 4);
	validate_status(&r, ns, "foo", "numberReady", 4);
	validate_status(&r, ns, "foo", "updatedNumberScheduled", 4);
	validate_tolerations(&r, tol, "zone-");
	json_decref(tol);

	rp_by(&r, "update the DaemonSet with zone-z and zone-common tolerations");
	tol = exists("zone-z", "zone-common", NULL);
	json_decref(rp_update(&r, "daemonsets", ns, "foo", NULL, set_tolerations, tol));
	/* 7 active before the updated pods are ready: 2 new Pending on zone-z, 1 new surge pod on
	 * zone-common, the 2 old ones on zone-y kept until the new ones are available */
	validate_pods_active(&r, 7);
	validate_pods_and_mark_ready(&r, 4);
	validate_status(&r, ns, "foo", "numberReady", 4);
	validate_status(&r, ns, "foo", "updatedNumberScheduled", 4);
	validate_tolerations(&r, tol, "zone-");
	json_decref(tol);

	rp_by(&r, "update the DaemonSet with zone-y, zone-z and zone-common tolerations");
	tol = exists("zone-y", "zone-z", "zone-common");
	json_decref(rp_update(&r, "daemonsets", ns, "foo", NULL, set_tolerations, tol));
	validate_pods_active(&r, 7);
	validate_pods_and_mark_ready(&r, 6);
	validate_status(&r, ns, "foo", "numberReady", 6);
	validate_status(&r, ns, "foo", "updatedNumberScheduled", 6);
	validate_tolerations(&r, tol, "zone-");
	json_decref(tol);

	rp_by(&r, "update the DaemonSet with no toleration");
	json_decref(rp_update(&r, "daemonsets", ns, "foo", NULL, set_tolerations, NULL));
	validate_pods_active(&r, 0);
	validate_status(&r, ns, "foo", "numberReady", 0);
	validate_status(&r, ns, "foo", "updatedNumberScheduled", 0);
	teardown(&r, ns, "foo");
}
END_TEST

static Suite *upstream_integration_suite(void)
{
	Suite *s = suite_create("upstream_integration");
	TCase *tc = tcase_create("daemonset_test.go");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, TestOneNodeDaemonLaunchesPod);
	tcase_add_test(tc, TestSimpleDaemonSetLaunchesPods);
	tcase_add_test(tc, TestSimpleDaemonSetRestartsPodsOnTerminalPhase);
	tcase_add_test(tc, TestDaemonSetWithNodeSelectorLaunchesPods);
	tcase_add_test(tc, TestNotReadyNodeDaemonDoesLaunchPod);
	tcase_add_test(tc, TestInsufficientCapacityNode);
	tcase_add_test(tc, TestLaunchWithHashCollision);
	tcase_add_test(tc, TestDSCUpdatesPodLabelAfterDedupCurHistories);
	tcase_add_test(tc, TestTaintedNode);
	tcase_add_test(tc, TestUnschedulableNodeDaemonDoesLaunchPod);
	tcase_add_test(tc, TestUpdateStatusDespitePodCreationFailure);
	tcase_add_test(tc, TestDaemonSetRollingUpdateWithTolerations);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(upstream_integration_suite)
