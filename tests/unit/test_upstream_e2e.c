/*
 * Upstream's DaemonSet e2e tests replayed against libdaemonset's controller driver over the
 * fake cluster of tests/support: every test of
 *   kubernetes/kubernetes test/e2e/apps/daemon_set.go
 * in its ginkgo/v2 revision with the surge, list-and-delete-collection and status tests (the
 * stored copy read has no commit id; the indexed commit bdc575e10c35a3e65a1c02bceea432832b7e4f4f
 * is an older revision without them), with e2e's fixtures and checks from
 *   test/e2e/framework/daemonset/fixtures.go at 2e0908106e4420a601e50d6edfd41475de87a3e1
 * (NewDaemonSet, CheckRunningOnAllNodes, SchedulableNodes, CheckDaemonPodOnNodes,
 * CheckDaemonStatus), named as upstream names them ("Daemon set [Serial] should ...").
 *
 * The cluster is a small kind-like one: a control-plane node tainted NoSchedule and three
 * workers, a kubelet that runs a bound pod 2 s after binding (plus its readiness probe's
 * initial delay), pods' default 30 s grace period, the garbage collector. Upstream polls
 * every second for up to five minutes of real time; here the same polls run on virtual
 * time. What only a real node does is not checked: images are not pulled (the kubelet
 * starts any image; "foo:non-existent" is declared missing so that its pods stay Pending
 * as ErrImagePull leaves them), preStop hooks and readiness-probe commands do not run (the
 * surge test's "make an old pod unready" is the kubelet reporting it unready), and pods'
 * containers never restart. Besides upstream's checks, every write of the cluster is
 * checked: never two live pods of the DaemonSet on a node outside a surge, and in the
 * surge replay without injected failures never more than maxSurge extra pods and never a
 * node without an available pod (maxUnavailable is 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/replay.h"
#include "harness.h"

#define NS "daemonsets-4961" /* framework.NewDefaultFramework("daemonsets") */
#define DS_NAME "daemon-set"
#define NAME_LABEL "daemonset-name"   /* daemonsetNameLabel */
#define COLOR_LABEL "daemonset-color" /* daemonsetColorLabel */
#define RETRY_PERIOD 1000             /* dsRetryPeriod */
#define RETRY_TIMEOUT 300000          /* dsRetryTimeout */

static const char webserver_image[] = "registry.k8s.io/e2e-test-images/httpd:2.4.38-4"; /* WebserverImage */
static const char agnhost_image[] = "registry.k8s.io/e2e-test-images/agnhost:2.53";     /* AgnhostImage */

static const char kind_cluster[] =
	"apiVersion: v1\nkind: Node\nmetadata:\n  name: kind-control-plane\n"
	"  labels: {kubernetes.io/hostname: kind-control-plane, node-role.kubernetes.io/control-plane: ''}\n"
	"spec: {taints: [{key: node-role.kubernetes.io/control-plane, effect: NoSchedule}]}\n"
	"status:\n  conditions: [{type: Ready, status: 'True'}]\n  allocatable: {cpu: '8', memory: 16Gi, pods: '110'}\n"
	"---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: kind-worker, labels: {kubernetes.io/hostname: kind-worker}}\n"
	"status:\n  conditions: [{type: Ready, status: 'True'}]\n  allocatable: {cpu: '8', memory: 16Gi, pods: '110'}\n"
	"---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: kind-worker2, labels: {kubernetes.io/hostname: kind-worker2}}\n"
	"status:\n  conditions: [{type: Ready, status: 'True'}]\n  allocatable: {cpu: '8', memory: 16Gi, pods: '110'}\n"
	"---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: kind-worker3, labels: {kubernetes.io/hostname: kind-worker3}}\n"
	"status:\n  conditions: [{type: Ready, status: 'True'}]\n  allocatable: {cpu: '8', memory: 16Gi, pods: "
	"'110'}\n";

static const fake_options kind = {.ready_after_ms = 2000};

/* ---- e2e's fixtures ---- */

static json_t *label(void) { return json_pack("{s:s}", NAME_LABEL, DS_NAME); }

/* newDaemonSetWithLabel: e2edaemonset.NewDaemonSet with the port 9376 (with_label: the labels on
 * the DaemonSet itself too, else newDaemonSet). */
static json_t *new_daemon_set(const char *image, int with_label)
{
	json_t *ds = json_pack(
		"{s:s, s:s, s:{s:s}, s:{s:{s:o}, s:{s:{s:o}, s:{s:[{s:s, s:s, s:[{s:i}], s:{}}], s:{}}}}}",
		"apiVersion", "apps/v1", "kind", "DaemonSet", "metadata", "name", DS_NAME, "spec", "selector",
		"matchLabels", label(), "template", "metadata", "labels", label(), "spec", "containers", "name", "app",
		"image", image, "ports", "containerPort", 9376, "securityContext", "securityContext");
	if (with_label)
		json_object_set_new(json_object_get(ds, "metadata"), "labels", label());
	return ds;
}

static json_t *tspec(json_t *ds)
{
	return json_object_get(json_object_get(json_object_get(ds, "spec"), "template"), "spec");
}

static json_t *container0(json_t *ds) { return json_array_get(json_object_get(tspec(ds), "containers"), 0); }

static json_t *create(replay *r, json_t *ds)
{
	json_t *got = rp_create(r, "daemonsets", NS, ds);
	json_decref(ds);
	return got;
}

/* checkDaemonPodStateOnNodes with IsPodAvailable: exactly one available pod of ds on each of
 * the nodes, and none elsewhere (deleting pods are not counted). */
typedef struct on_nodes {
	const json_t *ds;
	json_t *nodes; /* NULL: SchedulableNodes(ds) */
} on_nodes;

static int daemon_pod_on_nodes(replay *r, void *arg, char *why, size_t size)
{
	const on_nodes *o = arg;
	json_t *nodes = o->nodes ? json_incref(o->nodes) : rp_schedulable_nodes(r, o->ds);
	json_t *pods = rp_list(r, "pods", NS, NULL, NULL), *count = json_object();
	json_int_t min_ready = rp_int(o->ds, "spec.minReadySeconds");
	size_t i;
	json_t *p;
	json_array_foreach(pods, i, p)
	{
		if (!rp_controlled_by(p, o->ds) || rp_str(p, "metadata.deletionTimestamp") ||
		    !rp_pod_available(r, p, min_ready))
			continue;
		const char *node = rp_str(p, "spec.nodeName");
		json_object_set_new(count, node ? node : "",
				    json_integer(json_integer_value(json_object_get(count, node ? node : "")) + 1));
	}
	int ok = 1;
	json_t *n;
	json_array_foreach(nodes, i, n)
	{
		json_int_t c = json_integer_value(json_object_get(count, json_string_value(n)));
		if (c != 1) {
			snprintf(why, size, "Node %s is running %lld daemon pod, expected 1", json_string_value(n),
				 (long long)c);
			ok = 0;
			break;
		}
	}
	if (ok && json_object_size(count) != json_array_size(nodes)) {
		snprintf(why, size, "Number of running nodes: %zu, number of available pods: %zu",
			 json_array_size(nodes), json_object_size(count));
		ok = 0;
	}
	json_decref(count);
	json_decref(pods);
	json_decref(nodes);
	return ok;
}

static void check_running_on_all_nodes(replay *r, const json_t *ds, const char *what)
{
	on_nodes o = {ds, NULL};
	rp_wait(r, what, RETRY_PERIOD, RETRY_TIMEOUT, daemon_pod_on_nodes, &o);
}

static void check_running_on_no_nodes(replay *r, const json_t *ds, const char *what)
{
	on_nodes o = {ds, json_array()};
	rp_wait(r, what, RETRY_PERIOD, RETRY_TIMEOUT, daemon_pod_on_nodes, &o);
	json_decref(o.nodes);
}

static void check_daemon_pod_on_nodes(replay *r, const json_t *ds, const char *node, const char *what)
{
	on_nodes o = {ds, json_pack("[s]", node)};
	rp_wait(r, what, RETRY_PERIOD, RETRY_TIMEOUT, daemon_pod_on_nodes, &o);
	json_decref(o.nodes);
}

/* e2edaemonset.CheckDaemonStatus: desired, scheduled and ready agree. */
static int daemon_status_agrees(replay *r, void *arg, char *why, size_t size)
{
	(void)arg;
	json_t *ds = rp_get(r, "daemonsets", NS, DS_NAME);
	json_int_t desired = rp_int(ds, "status.desiredNumberScheduled"),
		   scheduled = rp_int(ds, "status.currentNumberScheduled"), ready = rp_int(ds, "status.numberReady");
	json_decref(ds);
	snprintf(why, size,
		 "Expected daemon set to reach state where all desired pods are scheduled and ready. Got instead "
		 "DesiredScheduled: %lld, CurrentScheduled: %lld, Ready: %lld",
		 (long long)desired, (long long)scheduled, (long long)ready);
	return desired == scheduled && scheduled == ready;
}

static void check_daemon_status(replay *r)
{
	rp_wait(r, "CheckDaemonStatus", RETRY_PERIOD, RETRY_TIMEOUT, daemon_status_agrees, NULL);
}

/* setDaemonSetNodeLabels: the node's daemonset-* labels become exactly labels. */
static void set_labels(json_t *node, void *arg)
{
	json_t *meta = json_object_get(node, "metadata"), *labels = json_object_get(meta, "labels"),
	       *keep = json_object();
	const char *k;
	json_t *v;
	json_object_foreach(labels, k, v) if (strncmp(k, "daemonset-", 10)) json_object_set(keep, k, v);
	json_object_update(keep, arg);
	json_object_set_new(meta, "labels", keep);
}

static json_t *set_daemon_set_node_labels(replay *r, const char *node, json_t *labels)
{
	json_t *n = rp_update(r, "nodes", NULL, node, NULL, set_labels, labels);
	json_decref(labels);
	return n;
}

/* e2enode.GetReadySchedulableNodes: Ready, schedulable, not tainted NoSchedule/NoExecute. */
static json_t *ready_schedulable_nodes(replay *r)
{
	json_t *nodes = rp_list(r, "nodes", NULL, NULL, NULL), *out = json_array();
	size_t i;
	json_t *n;
	json_array_foreach(nodes, i, n)
	{
		int ok = !json_is_true(json_object_get(json_object_get(n, "spec"), "unschedulable"));
		const json_t *taints = json_object_get(json_object_get(n, "spec"), "taints");
		for (size_t j = 0; j < json_array_size(taints); j++) {
			const char *e = rp_str(json_array_get(taints, j), "effect");
			ok &= strcmp(e, "NoSchedule") && strcmp(e, "NoExecute");
		}
		if (ok)
			json_array_append_new(out, json_string(rp_str(n, "metadata.name")));
	}
	json_decref(nodes);
	return out;
}

static void clear_daemon_set_node_labels(replay *r)
{
	json_t *nodes = ready_schedulable_nodes(r);
	size_t i;
	json_t *n;
	json_array_foreach(nodes, i, n) json_decref(set_daemon_set_node_labels(r, json_string_value(n), json_object()));
	json_decref(nodes);
}

/* BeforeEach: the namespace's node-selector annotation emptied, no daemonset-* node labels. */
static void before_each(replay *r, const char *test, rp_placement *pl)
{
	rp_start(r, test, &kind, NULL, kind_cluster);
	json_t *nso = json_pack("{s:s, s:s, s:{s:s}}", "apiVersion", "v1", "kind", "Namespace", "metadata", "name", NS);
	json_decref(rp_create(r, "namespaces", NULL, nso));
	json_decref(nso);
	json_decref(
		rp_patch(r, "namespaces", NULL, NS, NULL, "application/strategic-merge-patch+json",
			 "{\"metadata\":{\"annotations\":{\"scheduler.alpha.kubernetes.io/node-selector\":\"\"}}}"));
	clear_daemon_set_node_labels(r);
	if (pl)
		rp_invariant(r, "one live daemon pod per node", rp_placement_holds, pl, 1);
}

static int pods_gone(replay *r, void *arg, char *why, size_t size)
{
	const char *selector = arg;
	json_t *pods = rp_list(r, "pods", NS, selector, NULL);
	size_t n = json_array_size(pods);
	json_decref(pods);
	snprintf(why, size, "%zu pods left", n);
	return n == 0;
}

/* AfterEach: every DaemonSet deleted and its pods garbage collected, no daemonset-* labels. */
static void after_each(replay *r)
{
	rp_by(r, "AfterEach");
	rp_invariants_clear(r);
	json_t *dss = rp_list(r, "daemonsets", NS, NULL, NULL);
	size_t i;
	json_t *ds;
	json_array_foreach(dss, i, ds)
	{
		rp_by(r, "Deleting DaemonSet \"%s\"", rp_str(ds, "metadata.name"));
		rp_delete(r, "daemonsets", NS, rp_str(ds, "metadata.name"), "{\"propagationPolicy\":\"Background\"}");
		char *sel = NULL;
		char *text = json_dumps(json_object_get(json_object_get(ds, "spec"), "selector"), JSON_COMPACT);
		ds_error err;
		ck_assert_int_eq(ds_selector_format(text, strlen(text), &sel, &err), 0);
		free(text);
		rp_wait(r, "the garbage collector to delete the DaemonSet's pods", RETRY_PERIOD, 600000, pods_gone,
			sel);
		ds_free(sel);
		check_running_on_no_nodes(r, ds, "daemon pod to be reaped");
	}
	json_decref(dss);
	clear_daemon_set_node_labels(r);
	rp_stop(r);
}

/* listDaemonPods: the pods with the DaemonSet's label, at least one. */
static json_t *list_daemon_pods(replay *r)
{
	json_t *pods = rp_list(r, "pods", NS, NAME_LABEL "=" DS_NAME, NULL);
	if (!json_array_size(pods))
		rp_fail(r, "listDaemonPods: no pods");
	return pods;
}

/* ---- the tests ---- */

/* Conformance, DaemonSet-Creation: a deleted daemon pod is replaced. */
START_TEST(should_run_and_stop_simple_daemon)
{
	replay r;
	rp_placement pl = {0, NULL, NULL};
	before_each(&r, "Daemon set [Serial] should run and stop simple daemon", &pl);
	rp_by(&r, "Creating simple DaemonSet \"%s\"", DS_NAME);
	json_t *ds = create(&r, new_daemon_set(webserver_image, 0));
	rp_by(&r, "Check that daemon pods launch on every node of the cluster.");
	check_running_on_all_nodes(&r, ds, "daemon pod to start");
	check_daemon_status(&r);
	json_t *schedulable = rp_schedulable_nodes(&r, ds);
	ck_assert_int_eq(json_array_size(schedulable), 3); /* not on the control plane */
	json_decref(schedulable);
	rp_by(&r, "Stop a daemon pod, check that the daemon pod is revived.");
	json_t *pods = list_daemon_pods(&r);
	rp_delete(&r, "pods", NS, rp_str(json_array_get(pods, 0), "metadata.name"), NULL);
	json_decref(pods);
	check_running_on_all_nodes(&r, ds, "daemon pod to revive");
	json_decref(ds);
	after_each(&r);
}
END_TEST

/* Conformance, DaemonSet-NodeSelection: node selection via label selectors. */
START_TEST(should_run_and_stop_complex_daemon)
{
	replay r;
	rp_placement pl = {0, NULL, NULL};
	before_each(&r, "Daemon set [Serial] should run and stop complex daemon", &pl);
	json_t *ds = new_daemon_set(webserver_image, 0);
	json_object_set_new(tspec(ds), "nodeSelector", json_pack("{s:s}", COLOR_LABEL, "blue"));
	ds = create(&r, ds);
	rp_by(&r, "Initially, daemon pods should not be running on any nodes.");
	check_running_on_no_nodes(&r, ds, "daemon pods to be running on no nodes");
	rp_by(&r, "Change node label to blue, check that daemon pod is launched.");
	json_t *ready = ready_schedulable_nodes(&r);
	const char *node = json_string_value(json_array_get(ready, (size_t)rp_intn(&r, (int)json_array_size(ready))));
	json_decref(set_daemon_set_node_labels(&r, node, json_pack("{s:s}", COLOR_LABEL, "blue")));
	check_daemon_pod_on_nodes(&r, ds, node, "daemon pods to be running on new nodes");
	check_daemon_status(&r);
	rp_by(&r, "Update the node label to green, and wait for daemons to be unscheduled");
	json_decref(set_daemon_set_node_labels(&r, node, json_pack("{s:s}", COLOR_LABEL, "green")));
	check_running_on_no_nodes(&r, ds, "daemon pod to not be running on nodes");
	rp_by(&r, "Update DaemonSet node selector to green, and change its update strategy to RollingUpdate");
	json_decref(ds);
	ds = rp_patch(&r, "daemonsets", NS, DS_NAME, NULL, "application/strategic-merge-patch+json",
		      "{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":{\"" COLOR_LABEL
		      "\":\"green\"}}},\"updateStrategy\":{\"type\":\"RollingUpdate\"}}}");
	check_daemon_pod_on_nodes(&r, ds, node, "daemon pods to be running on new nodes");
	check_daemon_status(&r);
	json_decref(ds);
	json_decref(ready);
	after_each(&r);
}
END_TEST

START_TEST(should_run_and_stop_complex_daemon_with_node_affinity)
{
	replay r;
	rp_placement pl = {0, NULL, NULL};
	before_each(&r, "Daemon set [Serial] should run and stop complex daemon with node affinity", &pl);
	json_t *ds = new_daemon_set(webserver_image, 0);
	json_object_set_new(tspec(ds), "affinity",
			    json_pack("{s:{s:{s:[{s:[{s:s, s:s, s:[s]}]}]}}}", "nodeAffinity",
				      "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms",
				      "matchExpressions", "key", COLOR_LABEL, "operator", "In", "values", "blue"));
	ds = create(&r, ds);
	rp_by(&r, "Initially, daemon pods should not be running on any nodes.");
	check_running_on_no_nodes(&r, ds, "daemon pods to be running on no nodes");
	rp_by(&r, "Change node label to blue, check that daemon pod is launched.");
	json_t *ready = ready_schedulable_nodes(&r);
	const char *node = json_string_value(json_array_get(ready, (size_t)rp_intn(&r, (int)json_array_size(ready))));
	json_decref(set_daemon_set_node_labels(&r, node, json_pack("{s:s}", COLOR_LABEL, "blue")));
	check_daemon_pod_on_nodes(&r, ds, node, "daemon pods to be running on new nodes");
	check_daemon_status(&r);
	rp_by(&r, "Remove the node label and wait for daemons to be unscheduled");
	json_decref(set_daemon_set_node_labels(&r, node, json_object()));
	check_running_on_no_nodes(&r, ds, "daemon pod to not be running on nodes");
	json_decref(ready);
	json_decref(ds);
	after_each(&r);
}
END_TEST

static int failed_pod_deleted(replay *r, void *arg, char *why, size_t size)
{
	json_t *pod = rp_get(r, "pods", NS, arg);
	snprintf(why, size, "the failed pod %s is still there", (const char *)arg);
	json_decref(pod);
	return pod == NULL;
}

static void phase_failed(json_t *pod, void *arg)
{
	(void)arg;
	json_object_del(json_object_get(pod, "metadata"), "resourceVersion");
	json_object_set_new(json_object_get(pod, "status"), "phase", json_string("Failed"));
}

/* Conformance, DaemonSet-FailedPodCreation: a failed daemon pod is replaced. */
START_TEST(should_retry_creating_failed_daemon_pods)
{
	replay r;
	rp_placement pl = {0, NULL, NULL};
	before_each(&r, "Daemon set [Serial] should retry creating failed daemon pods", &pl);
	json_t *ds = create(&r, new_daemon_set(webserver_image, 0));
	rp_by(&r, "Check that daemon pods launch on every node of the cluster.");
	check_running_on_all_nodes(&r, ds, "daemon pod to start");
	check_daemon_status(&r);
	rp_by(&r, "Set a daemon pod's phase to 'Failed', check that the daemon pod is revived.");
	json_t *pods = list_daemon_pods(&r);
	char name[256];
	snprintf(name, sizeof(name), "%s", rp_str(json_array_get(pods, 0), "metadata.name"));
	json_decref(pods);
	json_decref(rp_update(&r, "pods", NS, name, "status", phase_failed, NULL));
	check_running_on_all_nodes(&r, ds, "daemon pod to revive");
	rp_by(&r, "Wait for the failed daemon pod to be completely deleted.");
	rp_wait(&r, "the failed daemon pod to be completely deleted", RETRY_PERIOD, RETRY_TIMEOUT, failed_pod_deleted,
		name);
	json_decref(ds);
	after_each(&r);
}
END_TEST

/* curHistory over the DaemonSet's label: exactly one ControllerRevision matches its template. */
static json_t *cur_history(replay *r, const json_t *ds, json_t **list)
{
	*list = rp_list(r, "controllerrevisions", NS, NAME_LABEL "=" DS_NAME, NULL);
	if (!json_array_size(*list))
		rp_fail(r, "listDaemonHistories: none");
	return rp_cur_history(r, ds, *list);
}

static int histories(replay *r, void *arg, char *why, size_t size)
{
	json_t *l = rp_list(r, "controllerrevisions", NS, NAME_LABEL "=" DS_NAME, NULL);
	int n = (int)json_array_size(l);
	json_decref(l);
	snprintf(why, size, "%d/%d controllerrevisions created.", n, *(const int *)arg);
	return n == *(const int *)arg;
}

static void wait_for_history_created(replay *r, int n)
{
	rp_wait(r, "controllerrevisions to be created", RETRY_PERIOD, RETRY_TIMEOUT, histories, &n);
}

/* checkDaemonSetPodsLabels: every live pod has a hash label, and it is hash. */
static void check_pods_labels(replay *r, const char *hash)
{
	json_t *pods = list_daemon_pods(r);
	size_t i;
	json_t *p;
	json_array_foreach(pods, i, p)
	{
		if (rp_str(p, "metadata.deletionTimestamp"))
			continue;
		const char *h = rp_str(p, "metadata.labels.controller-revision-hash");
		if (!h || !*h || (hash && strcmp(h, hash)))
			rp_fail(r, "unexpected hash for pod %s: %s, want %s", rp_str(p, "metadata.name"),
				h ? h : "(none)", hash);
	}
	json_decref(pods);
}

typedef struct image_check {
	const json_t *ds;
	const char *image;
	int max_unavailable;
} image_check;

/* checkDaemonPodsImageAndAvailability: never more unavailable pods than maxUnavailable (a
 * failure at once), and every schedulable node with a pod of the image. */
static int image_and_availability(replay *r, void *arg, char *why, size_t size)
{
	const image_check *c = arg;
	json_t *pods = rp_list(r, "pods", NS, NULL, NULL), *updated = json_object();
	int unavailable = 0;
	size_t i;
	json_t *p;
	json_array_foreach(pods, i, p)
	{
		if (rp_str(p, "metadata.deletionTimestamp") || !rp_controlled_by(p, c->ds))
			continue;
		const char *image =
			rp_str(json_array_get(json_object_get(json_object_get(p, "spec"), "containers"), 0), "image");
		if (image && !strcmp(image, c->image) && rp_str(p, "spec.nodeName"))
			json_object_set_new(updated, rp_str(p, "spec.nodeName"), json_true());
		unavailable += !rp_pod_available(r, p, rp_int(c->ds, "spec.minReadySeconds"));
	}
	json_decref(pods);
	if (unavailable > c->max_unavailable) {
		json_decref(updated);
		snprintf(why, size, "number of unavailable pods: %d is greater than maxUnavailable: %d", unavailable,
			 c->max_unavailable);
		return -1;
	}
	json_t *nodes = rp_schedulable_nodes(r, c->ds);
	int ok = 1;
	json_t *n;
	json_array_foreach(nodes, i, n) if (!json_object_get(updated, json_string_value(n)))
	{
		snprintf(why, size, "node %s has no pod of %s", json_string_value(n), c->image);
		ok = 0;
	}
	json_decref(nodes);
	json_decref(updated);
	return ok;
}

START_TEST(should_not_update_pod_when_spec_was_updated_and_update_strategy_is_OnDelete)
{
	replay r;
	rp_placement pl = {0, NULL, NULL};
	before_each(&r,
		    "Daemon set [Serial] should not update pod when spec was updated and update strategy is OnDelete",
		    &pl);
	json_t *ds = new_daemon_set(webserver_image, 0);
	json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", json_pack("{s:s}", "type", "OnDelete"));
	ds = create(&r, ds);
	rp_by(&r, "Check that daemon pods launch on every node of the cluster.");
	check_running_on_all_nodes(&r, ds, "daemon pod to start");
	json_decref(ds);
	ds = rp_get(&r, "daemonsets", NS, DS_NAME);
	wait_for_history_created(&r, 1);
	json_t *list;
	json_t *first = cur_history(&r, ds, &list);
	char first_hash[64];
	snprintf(first_hash, sizeof(first_hash), "%s", rp_str(first, "metadata.labels.controller-revision-hash"));
	ck_assert_int_eq(rp_int(first, "revision"), 1);
	json_decref(list);
	check_pods_labels(&r, first_hash);
	rp_by(&r, "Update daemon pods image.");
	json_decref(ds);
	char patch[512];
	snprintf(patch, sizeof(patch),
		 "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"%s\"}]}}}}",
		 agnhost_image);
	ds = rp_patch(&r, "daemonsets", NS, DS_NAME, NULL, "application/strategic-merge-patch+json", patch);
	rp_by(&r, "Check that daemon pods images aren't updated.");
	image_check c = {ds, webserver_image, 0};
	rp_wait(&r, "checkDaemonPodsImageAndAvailability", RETRY_PERIOD, RETRY_TIMEOUT, image_and_availability, &c);
	/* and not later either */
	rp_run(&r, 30000);
	rp_wait(&r, "checkDaemonPodsImageAndAvailability", RETRY_PERIOD, RETRY_TIMEOUT, image_and_availability, &c);
	rp_by(&r, "Check that daemon pods are still running on every node of the cluster.");
	check_running_on_all_nodes(&r, ds, "daemon pod to start");
	json_decref(ds);
	ds = rp_get(&r, "daemonsets", NS, DS_NAME);
	wait_for_history_created(&r, 2);
	json_t *cur = cur_history(&r, ds, &list);
	ck_assert_int_eq(rp_int(cur, "revision"), 2);
	ck_assert_str_ne(rp_str(cur, "metadata.labels.controller-revision-hash"), first_hash);
	json_decref(list);
	check_pods_labels(&r, first_hash);
	json_decref(ds);
	after_each(&r);
}
END_TEST

/* Conformance, DaemonSet-RollingUpdate. */
START_TEST(should_update_pod_when_spec_was_updated_and_update_strategy_is_RollingUpdate)
{
	replay r;
	rp_placement pl = {0, NULL, NULL};
	before_each(&r,
		    "Daemon set [Serial] should update pod when spec was updated and update strategy is RollingUpdate",
		    &pl);
	json_t *ds = new_daemon_set(webserver_image, 0);
	json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", json_pack("{s:s}", "type", "RollingUpdate"));
	ds = create(&r, ds);
	rp_by(&r, "Check that daemon pods launch on every node of the cluster.");
	check_running_on_all_nodes(&r, ds, "daemon pod to start");
	json_decref(ds);
	ds = rp_get(&r, "daemonsets", NS, DS_NAME);
	wait_for_history_created(&r, 1);
	json_t *list;
	json_t *cur = cur_history(&r, ds, &list);
	ck_assert_int_eq(rp_int(cur, "revision"), 1);
	check_pods_labels(&r, rp_str(cur, "metadata.labels.controller-revision-hash"));
	json_decref(list);
	rp_by(&r, "Update daemon pods image.");
	json_decref(ds);
	char patch[512];
	snprintf(patch, sizeof(patch),
		 "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"%s\"}]}}}}",
		 agnhost_image);
	ds = rp_patch(&r, "daemonsets", NS, DS_NAME, NULL, "application/strategic-merge-patch+json", patch);
	json_t *nodes = rp_list(&r, "nodes", NULL, NULL, NULL);
	int64_t timeout = RETRY_TIMEOUT + (int64_t)json_array_size(nodes) * 30000;
	json_decref(nodes);
	rp_by(&r, "Check that daemon pods images are updated.");
	image_check c = {ds, agnhost_image, 1};
	rp_wait(&r, "checkDaemonPodsImageAndAvailability", RETRY_PERIOD, timeout, image_and_availability, &c);
	rp_by(&r, "Check that daemon pods are still running on every node of the cluster.");
	check_running_on_all_nodes(&r, ds, "daemon pod to start");
	json_decref(ds);
	ds = rp_get(&r, "daemonsets", NS, DS_NAME);
	wait_for_history_created(&r, 2);
	cur = cur_history(&r, ds, &list);
	ck_assert_int_eq(rp_int(cur, "revision"), 2);
	check_pods_labels(&r, rp_str(cur, "metadata.labels.controller-revision-hash"));
	json_decref(list);
	json_decref(ds);
	after_each(&r);
}
END_TEST

static void set_image(json_t *ds, void *arg) { json_object_set_new(container0(ds), "image", json_string(arg)); }

static int at_least_one_new_pod(replay *r, void *arg, char *why, size_t size)
{
	json_t *pods = list_daemon_pods(r);
	int found = 0;
	size_t i;
	json_t *p;
	json_array_foreach(pods, i, p) found |= !strcmp(
		rp_str(json_array_get(json_object_get(json_object_get(p, "spec"), "containers"), 0), "image"), arg);
	json_decref(pods);
	snprintf(why, size, "no pod of %s yet", (const char *)arg);
	return found;
}

/* Conformance, DaemonSet-Rollback: a rollback before the rollout completes restarts no pod
 * that still runs the old template. */
START_TEST(should_rollback_without_unnecessary_restarts)
{
	replay r;
	rp_placement pl = {0, NULL, NULL};
	before_each(&r, "Daemon set [Serial] should rollback without unnecessary restarts", &pl);
	json_t *schedulable = ready_schedulable_nodes(&r);
	ck_assert_int_gt(json_array_size(schedulable), 1); /* a cluster with at least 2 nodes */
	json_decref(schedulable);
	json_t *ds = new_daemon_set(webserver_image, 0);
	json_object_set_new(json_object_get(ds, "spec"), "updateStrategy", json_pack("{s:s}", "type", "RollingUpdate"));
	ds = create(&r, ds);
	rp_by(&r, "Check that daemon pods launch on every node of the cluster");
	check_running_on_all_nodes(&r, ds, "daemon pod to start");
	rp_by(&r, "Update the DaemonSet to trigger a rollout");
	/* a nonexistent image, so that the rollout cannot finish */
	const char *new_image = "foo:non-existent";
	fake_image_missing(r.api, new_image, 1);
	json_decref(rp_update(&r, "daemonsets", NS, DS_NAME, NULL, set_image, (void *)new_image));
	rp_wait(&r, "at least one new pod", RETRY_PERIOD, RETRY_TIMEOUT, at_least_one_new_pod, (void *)new_image);
	json_t *pods = list_daemon_pods(&r), *existing = json_array();
	size_t i, n_new = 0;
	json_t *p;
	json_array_foreach(pods, i, p)
	{
		const char *image =
			rp_str(json_array_get(json_object_get(json_object_get(p, "spec"), "containers"), 0), "image");
		if (!strcmp(image, webserver_image))
			json_array_append_new(existing, json_string(rp_str(p, "metadata.name")));
		else if (!strcmp(image, new_image))
			n_new++;
		else
			rp_fail(&r, "unexpected pod found, image = %s", image);
	}
	json_decref(pods);
	ck_assert_int_ne(json_array_size(existing), 0); /* two or more schedulable nodes */
	ck_assert_int_ne(n_new, 0);
	rp_by(&r, "Roll back the DaemonSet before rollout is complete");
	json_t *rollback = rp_update(&r, "daemonsets", NS, DS_NAME, NULL, set_image, (void *)webserver_image);
	rp_by(&r, "Make sure DaemonSet rollback is complete");
	image_check c = {rollback, webserver_image, 1};
	rp_wait(&r, "checkDaemonPodsImageAndAvailability", RETRY_PERIOD, RETRY_TIMEOUT, image_and_availability, &c);
	/* the pods of the old template seen during the rollout were not restarted */
	pods = list_daemon_pods(&r);
	json_t *names = json_object();
	json_array_foreach(pods, i, p) json_object_set_new(names, rp_str(p, "metadata.name"), json_true());
	json_array_foreach(existing, i, p) if (!json_object_get(names, json_string_value(p)))
		rp_fail(&r, "unexpected pod %s be restarted", json_string_value(p));
	json_decref(names);
	json_decref(pods);
	json_decref(existing);
	json_decref(rollback);
	json_decref(ds);
	after_each(&r);
}
END_TEST

/* ---- the surge test ---- */

typedef struct surge {
	json_t *ds;
	json_t *age_of_old_pod;       /* uid -> when first seen next to a new one */
	json_t *deliberately_deleted; /* uid -> true */
	int inject;                   /* upstream's random failures */
	int max_surge;
	int64_t max_surge_overlap_ms;
	int unready, deleted; /* failures injected */
} surge;

static const char *pod_version(const json_t *pod)
{
	return rp_str(
		json_array_get(
			json_object_get(json_array_get(json_object_get(json_object_get(pod, "spec"), "containers"), 0),
					"env"),
			0),
		"value");
}

/* The poll of "Check that daemon pods surge and invariants are preserved during that rollout". */
static int surge_poll(replay *r, void *arg, char *why, size_t size)
{
	surge *s = arg;
	const char *old_version = "1", *new_version = "2";
	json_t *pods = rp_list(r, "pods", NS, NULL, NULL);
	ds_time now = fake_now(r->api);
	json_t *pod_uids = json_object(), *deleted_uids = json_object(), *nodes = json_object(),
	       *versions = json_object();
	json_t *to_versions = json_object(), *to_deleted = json_object();
	int surge_count = 0, new_unavailable = 0, new_deliberately_deleted = 0, old_unavailable = 0,
	    nodes_without_old = 0;
	json_int_t min_ready = rp_int(s->ds, "spec.minReadySeconds");
	size_t i;
	json_t *p;
	json_array_foreach(pods, i, p)
	{
		if (!rp_controlled_by(p, s->ds))
			continue;
		const char *node = rp_str(p, "spec.nodeName") ? rp_str(p, "spec.nodeName") : "";
		const char *uid = rp_str(p, "metadata.uid"), *version = pod_version(p);
		json_object_set_new(nodes, node, json_true());
		json_object_set_new(versions, version, json_true());
		int deleting = rp_str(p, "metadata.deletionTimestamp") != NULL;
		json_t *table = deleting ? to_deleted : to_versions;
		if (!deleting || !json_object_get(s->deliberately_deleted, uid)) {
			json_t *v = json_object_get(table, node);
			if (!v) {
				v = json_object();
				json_object_set_new(table, node, v);
			}
			json_object_set_new(v, version,
					    json_integer(json_integer_value(json_object_get(v, version)) + 1));
		}
		int ready = rp_pod_available(r, p, min_ready);
		if (!strcmp(version, new_version)) {
			surge_count++;
			if (!ready || deleting) {
				new_deliberately_deleted += json_object_get(s->deliberately_deleted, uid) != NULL;
				new_unavailable++;
			}
		} else if (!ready || deleting) {
			old_unavailable++;
		}
	}
	/* an old pod next to a new one: when that was first seen */
	json_t *deleted_per_node = json_object();
	json_array_foreach(pods, i, p)
	{
		if (!rp_controlled_by(p, s->ds))
			continue;
		const char *uid = rp_str(p, "metadata.uid"),
			   *node = rp_str(p, "spec.nodeName") ? rp_str(p, "spec.nodeName") : "";
		if (rp_str(p, "metadata.deletionTimestamp")) {
			json_object_set_new(deleted_uids, uid, json_true());
			if (!json_object_get(s->deliberately_deleted, uid))
				json_object_set_new(
					deleted_per_node, node,
					json_integer(json_integer_value(json_object_get(deleted_per_node, node)) + 1));
			continue;
		}
		json_object_set_new(pod_uids, uid, json_true());
		if (!strcmp(pod_version(p), new_version))
			continue;
		if (json_integer_value(json_object_get(json_object_get(to_versions, node), new_version)) > 0) {
			if (!json_object_get(s->age_of_old_pod, uid))
				json_object_set_new(s->age_of_old_pod, uid, json_integer(now));
		} else {
			json_object_del(s->age_of_old_pod, uid);
		}
	}
	const char *k;
	json_t *v;
	void *tmp;
	json_object_foreach_safe(s->age_of_old_pod, tmp, k, v) if (!json_object_get(pod_uids, k))
		json_object_del(s->age_of_old_pod, k);
	json_object_foreach_safe(s->deliberately_deleted, tmp, k, v) if (!json_object_get(deleted_uids, k))
		json_object_del(s->deliberately_deleted, k);
	json_object_foreach(to_versions, k, v) nodes_without_old += !json_object_get(v, old_version);

	char errs[2048] = "";
	size_t off = 0;
#define ERR(...)                                                                                                       \
	do {                                                                                                           \
		if (off < sizeof(errs))                                                                                \
			off += (size_t)snprintf(errs + off, sizeof(errs) - off, __VA_ARGS__);                          \
	} while (0)
	json_object_foreach(deleted_per_node, k, v) if (json_integer_value(v) > 1)
		ERR("Node %s has %lld deleted pods, which may indicate a problem on the node or a controller race "
		    "condition\n",
		    k, (long long)json_integer_value(v));
	json_object_foreach(s->age_of_old_pod, k, v) if (now - json_integer_value(v) > s->max_surge_overlap_ms)
		ERR("An old pod with UID %s has been running alongside a newer version for longer than 60s\n", k);
	if (new_unavailable > s->max_surge + old_unavailable + new_deliberately_deleted + nodes_without_old)
		ERR("observed %d new unavailable pods greater than (surge count %d + old unavailable count %d + "
		    "deliberately deleted new count %d + nodes without old version %d), may be infrastructure flake\n",
		    new_unavailable, s->max_surge, old_unavailable, new_deliberately_deleted, nodes_without_old);
	if (json_object_size(versions) > 2)
		ERR("observed %zu versions running simultaneously, must have max 2\n", json_object_size(versions));
	json_object_foreach(nodes, k, v)
	{
		if (!*k)
			continue; /* not scheduled yet */
		json_t *count = json_object();
		const char *ver;
		json_t *c;
		json_object_foreach(json_object_get(to_versions, k), ver, c)
		{
			if (json_integer_value(c) > 1)
				ERR("node %s has %lld instances of version %s running simultaneously, must have max "
				    "1\n",
				    k, (long long)json_integer_value(c), ver);
			json_object_set_new(
				count, ver,
				json_integer(json_integer_value(json_object_get(count, ver)) + json_integer_value(c)));
		}
		json_object_foreach(json_object_get(to_deleted, k), ver, c)
		{
			if (json_integer_value(c) > 2)
				ERR("node %s has %lld deleted instances of version %s running simultaneously, must "
				    "have max 1\n",
				    k, (long long)json_integer_value(c), ver);
			json_object_set_new(
				count, ver,
				json_integer(json_integer_value(json_object_get(count, ver)) + json_integer_value(c)));
		}
		json_object_foreach(count, ver, c) if (json_integer_value(c) > 2) ERR(
			"node %s has %lld total instances of version %s running simultaneously, must have max 2 (one "
			"deleted and one running)\n",
			k, (long long)json_integer_value(c), ver);
		json_decref(count);
	}
#undef ERR
	int rc = 1;
	if (errs[0]) {
		snprintf(why, size, "invariants were violated during daemonset update:\n%s", errs);
		rc = -1;
	} else { /* every daemon pod on the node updated? */
		json_t *names = rp_schedulable_nodes(r, s->ds);
		json_t *n;
		json_array_foreach(names, i, n)
		{
			const char *node = json_string_value(n);
			json_t *vs = json_object_get(to_versions, node);
			if (!json_integer_value(json_object_get(vs, new_version)) || json_object_size(vs) > 1 ||
			    json_object_size(json_object_get(to_deleted, node)) > 0 || new_unavailable > 0) {
				snprintf(why, size, "node %s is not updated yet", node);
				rc = 0;
				break;
			}
		}
		json_decref(names);
		if (!rc && s->inject) { /* inject a failure randomly to ensure the controller recovers */
			int dice = rp_intn(r, 25);
			size_t n_pods = json_array_size(pods);
			if ((dice == 0 || dice == 1) && n_pods > 0) {
				size_t off0 = (size_t)rp_intn(r, (int)n_pods);
				for (size_t j = 0; j + 1 < n_pods; j++) { /* randomPod */
					json_t *cand = json_array_get(pods, (off0 + j) % n_pods);
					if (rp_str(cand, "metadata.deletionTimestamp"))
						continue;
					if (dice == 0 && strcmp(pod_version(cand), old_version))
						continue;
					if (dice == 0) { /* the readiness probe starts failing */
						fake_pod_set_ready(r->api, NS, rp_str(cand, "metadata.name"), 0);
						s->unready++;
					} else {
						char *out = NULL;
						if (fake_delete(r->api, "pods", NS, rp_str(cand, "metadata.name"), NULL,
								&out) == 200) {
							json_object_set_new(s->deliberately_deleted,
									    rp_str(cand, "metadata.uid"), json_true());
							s->deleted++;
						}
						free(out);
					}
					break;
				}
			}
		}
	}
	json_decref(pods);
	json_decref(pod_uids);
	json_decref(deleted_uids);
	json_decref(nodes);
	json_decref(versions);
	json_decref(to_versions);
	json_decref(to_deleted);
	json_decref(deleted_per_node);
	return rc;
}

/* Without injected failures, at every write: no node of the DaemonSet without an available
 * pod (maxUnavailable 0), never more than maxSurge nodes with an extra pod. */
static int surge_strict(replay *r, void *arg, char *why, size_t size)
{
	surge *s = arg;
	json_t *nodes = rp_schedulable_nodes(r, s->ds), *avail = json_object(), *live = json_object();
	json_int_t min_ready = rp_int(s->ds, "spec.minReadySeconds");
	const char *k;
	json_t *p;
	json_object_foreach((json_t *)fake_objects(r->api, "pods"), k, p)
	{
		const char *node = rp_str(p, "spec.nodeName");
		if (!node || !rp_controlled_by(p, s->ds) || rp_str(p, "metadata.deletionTimestamp"))
			continue;
		json_object_set_new(live, node, json_integer(json_integer_value(json_object_get(live, node)) + 1));
		if (rp_pod_available(r, p, min_ready))
			json_object_set_new(avail, node, json_true());
	}
	int ok = 1, extra = 0;
	size_t i;
	json_t *n;
	json_array_foreach(nodes, i, n) if (ok && !json_object_get(avail, json_string_value(n)))
	{
		snprintf(why, size, "node %s has no available pod while maxUnavailable is 0", json_string_value(n));
		ok = 0;
	}
	json_t *c;
	json_object_foreach(live, k, c) extra += json_integer_value(c) - 1;
	if (ok && extra > s->max_surge) {
		snprintf(why, size, "%d extra pods, maxSurge is %d", extra, s->max_surge);
		ok = 0;
	}
	json_decref(nodes);
	json_decref(avail);
	json_decref(live);
	return ok;
}

static void surge_replay(int inject)
{
	replay r;
	rp_placement pl = {1, NULL, NULL};
	char test[256];
	snprintf(test, sizeof(test),
		 "Daemon set [Serial] should surge pods onto nodes when spec was updated and update strategy is "
		 "RollingUpdate%s",
		 inject ? "" : " (without the injected failures, every write checked)");
	before_each(&r, test, &pl);
	json_t *ds = new_daemon_set(webserver_image, 0);
	json_t *c = container0(ds);
	json_object_set_new(c, "env", json_pack("[{s:s, s:s}]", "name", "VERSION", "value", "1"));
	/* shutdown delayed 15s (preStop) so that containers overlap; a readiness probe that can be made to fail */
	json_object_set_new(
		c, "lifecycle",
		json_pack("{s:{s:{s:[s, s, s]}}}", "preStop", "exec", "command", "/bin/sh", "-c", "sleep 15"));
	json_object_set_new(c, "readinessProbe",
			    json_pack("{s:{s:[s, s, s]}, s:i, s:i, s:i, s:i}", "exec", "command", "/bin/sh", "-ec",
				      "touch /var/tmp/ready; [[ \"$( cat /var/tmp/ready )\" == \"\" ]]",
				      "initialDelaySeconds", 7, "periodSeconds", 3, "successThreshold", 1,
				      "failureThreshold", 1));
	json_object_set_new(json_object_get(ds, "spec"), "updateStrategy",
			    json_pack("{s:s, s:{s:i, s:s}}", "type", "RollingUpdate", "rollingUpdate", "maxUnavailable",
				      0, "maxSurge", "20%"));
	json_object_set_new(json_object_get(ds, "spec"), "minReadySeconds", json_integer(10));
	ds = create(&r, ds);
	rp_by(&r, "Check that daemon pods launch on every node of the cluster.");
	check_running_on_all_nodes(&r, ds, "daemon pod to start");
	json_decref(ds);
	ds = rp_get(&r, "daemonsets", NS, DS_NAME);
	wait_for_history_created(&r, 1);
	json_t *list;
	json_t *cur = cur_history(&r, ds, &list);
	ck_assert_int_eq(rp_int(cur, "revision"), 1);
	check_pods_labels(&r, rp_str(cur, "metadata.labels.controller-revision-hash"));
	json_decref(list);
	rp_by(&r, "Update daemon pods environment var");
	json_decref(ds);
	ds = rp_patch(
		&r, "daemonsets", NS, DS_NAME, NULL, "application/strategic-merge-patch+json",
		"{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"env\":[{\"name\":\"VERSION\","
		"\"value\":\"2\"}]}]}}}}");
	json_t *nodes = rp_list(&r, "nodes", NULL, NULL, NULL);
	int64_t timeout = RETRY_TIMEOUT + (int64_t)json_array_size(nodes) * 30000;
	json_decref(nodes);
	rp_by(&r, "Check that daemon pods surge and invariants are preserved during that rollout");
	surge s = {ds, json_object(), json_object(), inject, 1, 60000, 0, 0};
	if (!inject)
		rp_invariant(&r, "maxUnavailable 0 and maxSurge 1 hold", surge_strict, &s, 1);
	rp_wait(&r, "the surge rollout", RETRY_PERIOD, timeout, surge_poll, &s);
	if (inject) /* the controller recovered from upstream's random failures (the seed injects some) */
		ck_assert_int_gt(s.unready + s.deleted, 0);
	rp_invariants_clear(&r);
	rp_invariant(&r, "one live daemon pod per node", rp_placement_holds, &pl, 1);
	rp_by(&r, "Check that daemon pods are still running on every node of the cluster.");
	check_running_on_all_nodes(&r, ds, "daemon pod to start");
	json_decref(ds);
	ds = rp_get(&r, "daemonsets", NS, DS_NAME);
	wait_for_history_created(&r, 2);
	cur = cur_history(&r, ds, &list);
	ck_assert_int_eq(rp_int(cur, "revision"), 2);
	check_pods_labels(&r, rp_str(cur, "metadata.labels.controller-revision-hash"));
	json_decref(list);
	json_decref(ds);
	json_decref(s.age_of_old_pod);
	json_decref(s.deliberately_deleted);
	after_each(&r);
}

START_TEST(should_surge_pods_onto_nodes_when_spec_was_updated_and_update_strategy_is_RollingUpdate)
{
	surge_replay(1);
	surge_replay(0);
}
END_TEST

/* Conformance (v1.22): list and delete a collection of DaemonSets. */
START_TEST(should_list_and_delete_a_collection_of_DaemonSets)
{
	replay r;
	rp_placement pl = {0, NULL, NULL};
	before_each(&r, "Daemon set [Serial] should list and delete a collection of DaemonSets", &pl);
	rp_by(&r, "Creating simple DaemonSet \"%s\"", DS_NAME);
	json_t *ds = create(&r, new_daemon_set(webserver_image, 1));
	rp_by(&r, "Check that daemon pods launch on every node of the cluster.");
	check_running_on_all_nodes(&r, ds, "daemon pod to start");
	check_daemon_status(&r);
	rp_by(&r, "listing all DeamonSets");
	json_t *l = rp_list(&r, "daemonsets", NULL, NAME_LABEL "=" DS_NAME, NULL);
	ck_assert_int_eq(json_array_size(l), 1);
	json_decref(l);
	rp_by(&r, "DeleteCollection of the DaemonSets");
	char *out = NULL;
	int code = fake_delete_collection(r.api, "daemonsets", NS,
					  &(fake_list_opts){NAME_LABEL "=" DS_NAME, NULL, 0, NULL},
					  "{\"gracePeriodSeconds\":1}", &out);
	json_decref(rp_expect(&r, 200, code, out, "failed to delete DaemonSets"));
	rp_by(&r, "Verify that ReplicaSets have been deleted");
	l = rp_list(&r, "daemonsets", NULL, NAME_LABEL "=" DS_NAME, NULL);
	ck_assert_int_eq(json_array_size(l), 0);
	json_decref(l);
	json_decref(ds);
	after_each(&r);
}
END_TEST

typedef struct status_watch {
	fake_watch *w;
	const char *type; /* the condition type looked for */
	char *part;
	size_t len;
} status_watch;

/* watchtools.Until over the DaemonSet watch: an event of the DaemonSet with the condition. */
static int condition_seen(replay *r, void *arg, char *why, size_t size)
{
	(void)r;
	status_watch *sw = arg;
	char buf[4096];
	size_t n;
	while ((n = fake_watch_read(sw->w, buf, sizeof(buf))) > 0) {
		sw->part = realloc(sw->part, sw->len + n + 1);
		memcpy(sw->part + sw->len, buf, n);
		sw->len += n;
	}
	int found = 0;
	size_t start = 0;
	for (size_t i = 0; i < sw->len; i++) {
		if (sw->part[i] != '\n')
			continue;
		json_t *ev = json_loadb(sw->part + start, i - start, 0, NULL);
		start = i + 1;
		const json_t *ds = json_object_get(ev, "object");
		if (!strcmp(rp_str(ds, "metadata.name") ? rp_str(ds, "metadata.name") : "", DS_NAME) &&
		    rp_str(ds, "metadata.labels." NAME_LABEL)) {
			const json_t *conds = json_object_get(json_object_get(ds, "status"), "conditions");
			for (size_t j = 0; j < json_array_size(conds); j++)
				found |= !strcmp(rp_str(json_array_get(conds, j), "type"), sw->type);
		}
		json_decref(ev);
	}
	memmove(sw->part, sw->part + start, sw->len - start);
	sw->len -= start;
	snprintf(why, size, "no event of the DaemonSet with the %s condition", sw->type);
	if (fake_watch_done(sw->w) && !found) {
		snprintf(why, size, "the watch ended");
		return -1;
	}
	return found;
}

static void add_condition(json_t *ds, void *arg)
{
	(void)arg;
	json_t *st = json_object_get(ds, "status"), *conds = json_object_get(st, "conditions");
	if (!json_is_array(conds)) {
		conds = json_array();
		json_object_set_new(st, "conditions", conds);
	}
	json_array_append_new(conds, json_pack("{s:s, s:s, s:s, s:s}", "type", "StatusUpdate", "status", "True",
					       "reason", "E2E", "message", "Set from e2e test"));
}

/* Conformance (v1.22), DaemonSet status sub-resource: read, update and patch it. */
START_TEST(should_verify_changes_to_a_daemon_set_status)
{
	replay r;
	rp_placement pl = {0, NULL, NULL};
	before_each(&r, "Daemon set [Serial] should verify changes to a daemon set status", &pl);
	char *out = NULL;
	int code = fake_list(r.api, "daemonsets", NULL, &(fake_list_opts){NAME_LABEL "=" DS_NAME, NULL, 0, NULL}, &out);
	json_t *ds_list = rp_expect(&r, 200, code, out, "failed to list Daemon Sets");
	char rv[32];
	snprintf(rv, sizeof(rv), "%s", rp_str(ds_list, "metadata.resourceVersion"));
	json_decref(ds_list);
	rp_by(&r, "Creating simple DaemonSet \"%s\"", DS_NAME);
	json_t *ds = create(&r, new_daemon_set(webserver_image, 1));
	rp_by(&r, "Check that daemon pods launch on every node of the cluster.");
	check_running_on_all_nodes(&r, ds, "daemon pod to start");
	check_daemon_status(&r);
	rp_by(&r, "Getting /status");
	json_t *st = rp_get(&r, "daemonsets", NS, DS_NAME); /* the dynamic client's GET .../status is the object */
	ck_assert_ptr_nonnull(json_object_get(st, "status"));
	json_decref(st);
	rp_by(&r, "updating the DaemonSet Status");
	json_decref(rp_update(&r, "daemonsets", NS, DS_NAME, "status", add_condition, NULL));
	rp_by(&r, "watching for the daemon set status to be updated");
	fake_watch_opts wo = {NAME_LABEL "=" DS_NAME, NULL, 0, 0, 0};
	status_watch sw = {fake_watch_open(r.api, "daemonsets", NS, rv, &wo, NULL, NULL), "StatusUpdate", NULL, 0};
	ck_assert_ptr_nonnull(sw.w);
	rp_wait(&r, "the daemon set status to be updated", 100, RETRY_TIMEOUT, condition_seen, &sw);
	fake_watch_close(sw.w);
	free(sw.part);
	rp_by(&r, "patching the DaemonSet Status");
	json_decref(rp_patch(&r, "daemonsets", NS, DS_NAME, "status", "application/merge-patch+json",
			     "{\"status\":{\"conditions\":[{\"type\":\"StatusPatched\",\"status\":\"True\"}]}}"));
	rp_by(&r, "watching for the daemon set status to be patched");
	status_watch sw2 = {fake_watch_open(r.api, "daemonsets", NS, rv, &wo, NULL, NULL), "StatusPatched", NULL, 0};
	rp_wait(&r, "the daemon set status to be patched", 100, RETRY_TIMEOUT, condition_seen, &sw2);
	fake_watch_close(sw2.w);
	free(sw2.part);
	json_decref(ds);
	after_each(&r);
}
END_TEST

static Suite *upstream_e2e_suite(void)
{
	Suite *s = suite_create("upstream_e2e");
	TCase *tc = tcase_create("daemon_set.go");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, should_run_and_stop_simple_daemon);
	tcase_add_test(tc, should_run_and_stop_complex_daemon);
	tcase_add_test(tc, should_run_and_stop_complex_daemon_with_node_affinity);
	tcase_add_test(tc, should_retry_creating_failed_daemon_pods);
	tcase_add_test(tc, should_not_update_pod_when_spec_was_updated_and_update_strategy_is_OnDelete);
	tcase_add_test(tc, should_update_pod_when_spec_was_updated_and_update_strategy_is_RollingUpdate);
	tcase_add_test(tc, should_rollback_without_unnecessary_restarts);
	tcase_add_test(tc, should_surge_pods_onto_nodes_when_spec_was_updated_and_update_strategy_is_RollingUpdate);
	tcase_add_test(tc, should_list_and_delete_a_collection_of_DaemonSets);
	tcase_add_test(tc, should_verify_changes_to_a_daemon_set_status);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(upstream_e2e_suite)
