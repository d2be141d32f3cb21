/*
 * The sync planner against upstream's syncDaemonSet where the vector replays
 * do not reach: a rolling update that stops on a node missing from the lister,
 * unbound pods of vanished nodes, the event iterator, and the preferred
 * node-affinity score of ds_fit and ds_explain.
 */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon_options.h"
#include "daemon/syncplan.h"
#include "harness.h"

#define NOW "2026-12-02T10:00:00Z"

/* Nodes a and b (b has an untolerated NoSchedule taint), a surge DaemonSet
 * keeping no old revision, and two old revisions: old1 (the pods' own) and
 * older (used by no pod, so cleanup deletes it). */
static const char base[] =
	"apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: b}\nspec: {taints: [{key: x, effect: NoSchedule}]}\n---\n"
	"apiVersion: apps/v1\nkind: DaemonSet\n"
	"metadata: {name: ds, namespace: default, uid: uid-ds, generation: 2}\n"
	"spec:\n"
	"  selector: {matchLabels: {app: agent}}\n"
	"  revisionHistoryLimit: 0\n"
	"  template:\n"
	"    metadata: {labels: {app: agent}}\n"
	"    spec: {containers: [{name: a, image: 'agent:v2'}]}\n"
	"  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}\n"
	"---\n"
	"apiVersion: apps/v1\nkind: ControllerRevision\n"
	"metadata: {name: ds-older, namespace: default, labels: {app: agent, controller-revision-hash: older},\n"
	"  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds, uid: uid-ds, controller: true}]}\n"
	"data: {spec: {template: {$patch: replace, spec: {containers: [{name: a, image: 'agent:v0'}]}}}}\n"
	"revision: 1\n"
	"---\n"
	"apiVersion: apps/v1\nkind: ControllerRevision\n"
	"metadata: {name: ds-old1, namespace: default, labels: {app: agent, controller-revision-hash: old1},\n"
	"  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds, uid: uid-ds, controller: true}]}\n"
	"data: {spec: {template: {$patch: replace, spec: {containers: [{name: a, image: 'agent:v1'}]}}}}\n"
	"revision: 2\n";

/* A pod of the DaemonSet. where: "nodeName: x" or an affinity pin; extra: more metadata, or "". */
static void add_pod(ds_cluster *c, const char *name, const char *hash, const char *where, const char *phase,
		    const char *ready, const char *extra)
{
	char buf[2048];
	snprintf(
		buf, sizeof(buf),
		"apiVersion: v1\nkind: Pod\n"
		"metadata:\n  name: %s\n  namespace: default\n  uid: u-%s\n"
		"  creationTimestamp: '2026-12-01T00:00:00Z'\n"
		"  labels: {app: agent, controller-revision-hash: %s}\n"
		"  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds, uid: uid-ds, controller: true}]\n"
		"%s"
		"spec:\n  %s\n  containers: [{name: a, image: 'agent:v1'}]\n"
		"status: {phase: %s, conditions: [{type: Ready, status: '%s', lastTransitionTime: "
		"'2026-12-01T00:00:10Z'}]}\n",
		name, name, hash, extra, where, phase, ready);
	ds_error err;
	ck_assert_msg(ds_cluster_load(c, buf, strlen(buf), NULL, &err) == 0, "%s: %s", err.path, err.message);
}

static ds_plan *plan_of(ds_cluster *c, const char *ns, const char *name)
{
	ds_time now;
	ds_error err;
	ck_assert_int_eq(ds_time_parse(NOW, &now, &err), 0);
	ds_plan *p;
	ck_assert_msg(ds_plan_sync(c, ns, name, now, NULL, NULL, &p, &err) == 0, "%s", err.message);
	return p;
}

static json_t *to_json(const ds_plan *p)
{
	char *text;
	ds_error err;
	ck_assert_int_eq(ds_plan_to_json(p, &text, &err), 0);
	json_t *j = json_loads(text, 0, NULL);
	ck_assert_ptr_nonnull(j);
	ds_free(text);
	return j;
}

/* a: old pod not ready (a replacement is created); b: old pod not ready on a node that
 * should no longer get a pod (it is deleted); both before z in name order. */
static ds_cluster *surge_cluster(void)
{
	ds_cluster *c = dsi_test_cluster_text(base);
	add_pod(c, "old-a", "old1", "nodeName: a", "Running", "False", "");
	add_pod(c, "old-b", "old1", "nodeName: b", "Running", "False", "");
	return c;
}

START_TEST(surge_update_without_missing_node_acts)
{
	/* the control: the same cluster without the pod on the vanished node */
	ds_cluster *c = surge_cluster();
	ds_plan *p = plan_of(c, "default", "ds");
	ck_assert_uint_eq(ds_plan_create_count(p), 1);
	ck_assert_uint_eq(ds_plan_delete_count(p), 1);
	ds_plan_create cr = {.size = sizeof cr};
	ds_plan_delete d = {.size = sizeof d};
	ds_error err;
	ck_assert_int_eq(ds_plan_get_create(p, 0, &cr, &err), 0);
	ck_assert_str_eq(cr.node, "a");
	ck_assert_str_eq(cr.reason, "replacement");
	ck_assert_int_eq(ds_plan_get_delete(p, 0, &d, &err), 0);
	ck_assert_str_eq(d.name, "old-b");
	ck_assert_str_eq(d.reason, "surge-scheduling-constraints");
	json_t *j = to_json(p);
	json_t *ru = json_object_get(j, "rollingUpdate");
	ck_assert(json_is_true(json_object_get(ru, "ran")));
	ck_assert_ptr_null(json_object_get(ru, "error"));
	json_t *del = json_object_get(json_object_get(j, "history"), "delete");
	ck_assert_uint_eq(json_array_size(del), 1);
	ck_assert_str_eq(json_string_value(json_array_get(del, 0)), "ds-older");
	json_decref(j);
	ds_plan_free(p);
	ds_cluster_free(c);
}
END_TEST

START_TEST(surge_update_on_missing_node_does_nothing)
{
	/* rollingUpdate returns the node lister's error before syncNodes: neither the
	 * replacement on a nor the delete on b happens, nor cleanupHistory */
	ds_cluster *c = surge_cluster();
	add_pod(c, "old-z", "old1", "nodeName: z", "Running", "True", "");
	ds_plan *p = plan_of(c, "default", "ds");
	ck_assert_uint_eq(ds_plan_create_count(p), 0);
	ck_assert_uint_eq(ds_plan_delete_count(p), 0);
	json_t *j = to_json(p);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "creates")), 0);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "deletes")), 0);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "createBatches")), 0);
	ck_assert_ptr_null(json_object_get(j, "deferred"));
	json_t *ru = json_object_get(j, "rollingUpdate");
	ck_assert(json_is_true(json_object_get(ru, "ran")));
	ck_assert_str_eq(json_string_value(json_object_get(ru, "error")),
			 "couldn't get node for nodeName \"z\": node \"z\" not found");
	ck_assert_ptr_null(json_object_get(json_object_get(j, "history"), "delete"));
	/* the status is still computed and written, as upstream's syncDaemonSet does */
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j, "status"), "desiredNumberScheduled")),
			 1);
	ck_assert(json_is_true(json_object_get(j, "statusChanged")));
	json_decref(j);
	ds_plan_free(p);
	ds_cluster_free(c);
}
END_TEST

START_TEST(surge_update_missing_node_keeps_manage_actions)
{
	/* manage's actions are not the rolling update's: a Failed pod on a is still
	 * deleted (the rolling update does not run while manage has work) */
	ds_cluster *c = dsi_test_cluster_text(base);
	add_pod(c, "old-a", "old1", "nodeName: a", "Failed", "False", "");
	add_pod(c, "old-z", "old1", "nodeName: z", "Running", "True", "");
	ds_plan *p = plan_of(c, "default", "ds");
	ck_assert_uint_eq(ds_plan_delete_count(p), 1);
	ds_plan_delete d = {.size = sizeof d};
	ds_error err;
	ck_assert_int_eq(ds_plan_get_delete(p, 0, &d, &err), 0);
	ck_assert_str_eq(d.reason, "failed");
	json_t *j = to_json(p);
	ck_assert(json_is_false(json_object_get(json_object_get(j, "rollingUpdate"), "ran")));
	json_decref(j);
	ds_plan_free(p);
	ds_cluster_free(c);
}
END_TEST

static const char pin_gone[] =
	"affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
	"{nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [gone]}]}]}}}";

START_TEST(unbound_pods_of_vanished_node)
{
	/* getUnscheduledPodsWithoutNode: every unbound pod pinned to a node that is gone,
	 * terminating or not; terminal pods with a deletionTimestamp are not collected at
	 * all; bound pods are left to the pod GC */
	ds_cluster *c = dsi_test_cluster_text(base);
	add_pod(c, "old-a", "old1", "nodeName: a", "Running", "True", "");
	add_pod(c, "pending", "old1", pin_gone, "Pending", "False", "");
	add_pod(c, "pending-terminating", "old1", pin_gone, "Pending", "False",
		"  deletionTimestamp: '2026-12-02T09:00:00Z'\n");
	add_pod(c, "failed-terminating", "old1", pin_gone, "Failed", "False",
		"  deletionTimestamp: '2026-12-02T09:00:00Z'\n");
	add_pod(c, "bound", "old1", "nodeName: gone", "Running", "True", "");
	ds_plan *p = plan_of(c, "default", "ds");
	size_t n = ds_plan_delete_count(p);
	int seen_pending = 0, seen_terminating = 0;
	for (size_t i = 0; i < n; i++) {
		ds_plan_delete d = {.size = sizeof d};
		ds_error err;
		ck_assert_int_eq(ds_plan_get_delete(p, i, &d, &err), 0);
		ck_assert_str_eq(d.reason, "node-gone");
		ck_assert_str_eq(d.node, "gone");
		if (strcmp(d.name, "pending") == 0)
			seen_pending++;
		else if (strcmp(d.name, "pending-terminating") == 0)
			seen_terminating++;
		else
			ck_abort_msg("unexpected delete of %s", d.name);
	}
	ck_assert_int_eq(seen_pending, 1);
	ck_assert_int_eq(seen_terminating, 1);
	ck_assert_uint_eq(n, 2);
	ds_plan_free(p);
	ds_cluster_free(c);
}
END_TEST

START_TEST(events_iterate_like_json)
{
	ds_cluster *c = dsi_test_cluster_text(base);
	add_pod(c, "failed-a", "old1", "nodeName: a", "Failed", "False", "");
	add_pod(c, "done-b", "old1", "nodeName: b", "Succeeded", "False", "");
	ds_plan *p = plan_of(c, "default", "ds");
	json_t *j = to_json(p);
	json_t *events = json_object_get(j, "events");
	ck_assert_uint_eq(ds_plan_event_count(p), 2);
	ck_assert_uint_eq(json_array_size(events), 2);
	for (size_t i = 0; i < 2; i++) {
		ds_plan_event e = {.size = sizeof e};
		ds_error err;
		ck_assert_int_eq(ds_plan_get_event(p, i, &e, &err), 0);
		json_t *je = json_array_get(events, i);
		ck_assert_str_eq(e.type, json_string_value(json_object_get(je, "type")));
		ck_assert_str_eq(e.reason, json_string_value(json_object_get(je, "reason")));
		ck_assert_str_eq(e.message, json_string_value(json_object_get(je, "message")));
	}
	ds_plan_event e = {.size = sizeof e};
	ds_error err;
	ck_assert_int_eq(ds_plan_get_event(p, 0, &e, &err), 0);
	ck_assert_str_eq(e.type, "Warning");
	ck_assert_str_eq(e.reason, "FailedDaemonPod");
	ck_assert_str_eq(e.message, "Found failed daemon pod default/failed-a on node a, will try to kill it");
	ck_assert_int_eq(ds_plan_get_event(p, 1, &e, &err), 0);
	ck_assert_str_eq(e.type, "Normal");
	ck_assert_str_eq(e.reason, "SucceededDaemonPod");
	ck_assert_str_eq(e.message, "Found succeeded daemon pod default/done-b on node b, will try to delete it");
	/* the strings stay valid after the snapshot goes */
	json_decref(j);
	ds_cluster_free(c);
	ck_assert_int_eq(ds_plan_get_event(p, 0, &e, &err), 0);
	ck_assert_str_eq(e.reason, "FailedDaemonPod");
	/* errors */
	ck_assert_int_eq(ds_plan_get_event(p, 2, &e, &err), DS_EARG);
	ck_assert_str_eq(err.message, "event 2 out of range (2)");
	ds_plan_event small = {.size = sizeof(size_t) + 2 * sizeof(const char *)};
	ck_assert_int_eq(ds_plan_get_event(p, 0, &small, &err), DS_EARG);
	ck_assert_ptr_null(small.type);
	ck_assert_int_eq(ds_plan_get_event(NULL, 0, &e, &err), DS_EARG);
	ck_assert_int_eq(ds_plan_get_event(p, 0, NULL, &err), DS_EARG);
	ck_assert_int_eq(ds_plan_get_event(p, 0, &e, NULL), 0);
	/* a newer caller's larger struct: the members beyond ours are left alone */
	struct {
		ds_plan_event e;
		const char *more;
	} big = {{.size = sizeof big}, "untouched"};
	ck_assert_int_eq(ds_plan_get_event(p, 1, &big.e, &err), 0);
	ck_assert_str_eq(big.e.reason, "SucceededDaemonPod");
	ck_assert_str_eq(big.more, "untouched");
	ck_assert_uint_eq(ds_plan_event_count(NULL), 0);
	ds_plan_free(p);
}
END_TEST

START_TEST(events_of_a_skipped_plan)
{
	ds_cluster *c = dsi_test_cluster_text("apiVersion: apps/v1\nkind: DaemonSet\n"
					      "metadata: {name: all, namespace: default, uid: uid-all}\n"
					      "spec:\n  selector: {}\n  template:\n    metadata: {labels: {app: x}}\n"
					      "    spec: {containers: [{name: a, image: i}]}\n");
	ds_plan *p = plan_of(c, "default", "all");
	ck_assert_uint_eq(ds_plan_event_count(p), 1);
	ds_plan_event e = {.size = sizeof e};
	ds_error err;
	ck_assert_int_eq(ds_plan_get_event(p, 0, &e, &err), 0);
	ck_assert_str_eq(e.type, "Warning");
	ck_assert_str_eq(e.reason, "SelectingAll");
	ck_assert_str_eq(e.message, "This daemon set is selecting all pods. A non-empty selector is required.");
	ds_plan_free(p);
	ds_cluster_free(c);
}
END_TEST

START_TEST(events_none)
{
	ds_cluster *c = dsi_test_cluster_text(base);
	ds_plan *p = plan_of(c, "default", "ds");
	ck_assert_uint_eq(ds_plan_event_count(p), 0);
	ds_plan_event e = {.size = sizeof e};
	ds_error err;
	ck_assert_int_eq(ds_plan_get_event(p, 0, &e, &err), DS_EARG);
	ck_assert_str_eq(err.message, "event 0 out of range (0)");
	ds_plan_free(p);
	ds_cluster_free(c);
}
END_TEST

/* Preferred terms: zone=z1 weighs 10, disk=ssd 5, a weight-0 term never counts. */
#define PREFERRED                                                                                                      \
	"affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [\n"                               \
	"  {weight: 10, preference: {matchExpressions: [{key: zone, operator: In, values: [z1]}]}},\n"                 \
	"  {weight: 5, preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}},\n"                 \
	"  {weight: 0, preference: {matchExpressions: [{key: zone, operator: Exists}]}}]}}"

static const char scored_nodes[] =
	"apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {zone: z1, disk: ssd}}\n"
	"status: {allocatable: {pods: '10'}}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n2, labels: {zone: z1, disk: hdd}}\n"
	"status: {allocatable: {pods: '10'}}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n3, labels: {zone: z2}}\n"
	"status: {allocatable: {pods: '10'}}\n---\n"
	"apiVersion: apps/v1\nkind: DaemonSet\n"
	"metadata: {name: pref, namespace: default, uid: uid-pref}\n"
	"spec:\n  selector: {matchLabels: {app: pref}}\n  template:\n    metadata: {labels: {app: pref}}\n"
	"    spec:\n      containers: [{name: a, image: i}]\n      " PREFERRED "\n";

static json_t *fit_json(ds_cluster *c, const char *pod, const char *node)
{
	char *text;
	ds_error err;
	ck_assert_msg(ds_fit(c, pod, strlen(pod), node, NULL, &text, &err) == 0, "%s: %s", err.path, err.message);
	json_t *j = json_loads(text, 0, NULL);
	ds_free(text);
	ck_assert_ptr_nonnull(j);
	return j;
}

START_TEST(fit_preferred_score)
{
	ds_cluster *c = dsi_test_cluster_text(scored_nodes);
	static const char pod[] = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
				  "spec:\n  containers: [{name: a, image: i}]\n  " PREFERRED "\n";
	static const struct {
		const char *node;
		int score;
	} want[] = {{"n1", 15}, {"n2", 10}, {"n3", 0}};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		json_t *j = fit_json(c, pod, want[i].node);
		ck_assert(json_is_true(json_object_get(j, "fits")));
		ck_assert_msg(json_integer_value(json_object_get(j, "preferredScore")) == want[i].score,
			      "%s: %lld, want %d", want[i].node,
			      (long long)json_integer_value(json_object_get(j, "preferredScore")), want[i].score);
		ck_assert_ptr_null(json_object_get(j, "preferredScoreError"));
		json_decref(j);
	}
	/* no preferred terms: 0 */
	static const char plain[] = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a}]}\n";
	json_t *j = fit_json(c, plain, "n1");
	ck_assert(json_is_integer(json_object_get(j, "preferredScore")));
	ck_assert_int_eq(json_integer_value(json_object_get(j, "preferredScore")), 0);
	json_decref(j);
	/* an invalid term fails upstream's PreScore: null and the reason */
	static const char bad[] =
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
		"  containers: [{name: a}]\n"
		"  affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [\n"
		"    {weight: 10, preference: {matchExpressions: [{key: zone, operator: In, values: [z1]}]}},\n"
		"    {weight: 3, preference: {matchExpressions: [{key: size, operator: Gt, values: [big]}]}}]}}\n";
	j = fit_json(c, bad, "n1");
	ck_assert(json_is_null(json_object_get(j, "preferredScore")));
	const char *msg = json_string_value(json_object_get(j, "preferredScoreError"));
	ck_assert_ptr_nonnull(msg);
	ck_assert_msg(strstr(msg, "[1]") != NULL, "the error names the second term: %s", msg);
	/* the filters do not look at preferences */
	ck_assert(json_is_true(json_object_get(j, "fits")));
	json_decref(j);
	ds_cluster_free(c);
}
END_TEST

START_TEST(explain_preferred_score_per_node)
{
	ds_cluster *c = dsi_test_cluster_text(scored_nodes);
	char *text;
	ds_error err;
	ck_assert_int_eq(ds_explain(c, "default", "pref", NULL, &text, &err), 0);
	json_t *j = json_loads(text, 0, NULL);
	ds_free(text);
	json_t *rows = json_object_get(j, "rows");
	ck_assert_uint_eq(json_array_size(rows), 3);
	static const int want[] = {15, 10, 0};
	for (size_t i = 0; i < 3; i++) {
		json_t *row = json_array_get(rows, i);
		ck_assert_msg(json_integer_value(json_object_get(row, "preferredScore")) == want[i], "%s: %lld",
			      json_string_value(json_object_get(row, "node")),
			      (long long)json_integer_value(json_object_get(row, "preferredScore")));
		/* the score never moves a daemon pod: every node is placed */
		ck_assert_str_eq(json_string_value(json_object_get(row, "status")), "create");
	}
	json_decref(j);
	ds_cluster_free(c);
}
END_TEST

/* Only the deletes within burstReplicas are executed, and only they are named (the rest are
 * counted as deferred): each executed one names its own pod, uid and node. */
START_TEST(deletes_beyond_the_burst_are_deferred)
{
	ds_cluster *c = dsi_test_cluster_text(base);
	const char *names[] = {"p1", "p2", "p3", "p4", "p5"};
	for (int i = 0; i < 5; i++)
		add_pod(c, names[i], "old1", "nodeName: a", "Running", "True", "");
	ds_options *o;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set(o, "burstReplicas", "2", &err), 0);
	ds_time now;
	ck_assert_int_eq(ds_time_parse(NOW, &now, &err), 0);
	ds_plan *p;
	ck_assert_msg(ds_plan_sync(c, "default", "ds", now, o, NULL, &p, &err) == 0, "%s", err.message);
	ck_assert_uint_eq(ds_plan_delete_count(p), 2);
	int seen[5] = {0};
	for (size_t i = 0; i < 2; i++) {
		ds_plan_delete d = {.size = sizeof(d)};
		ck_assert_int_eq(ds_plan_get_delete(p, i, &d, &err), 0);
		ck_assert_str_eq(d.namespace_, "default");
		ck_assert_str_eq(d.node, "a");
		ck_assert_str_eq(d.reason, "duplicate");
		int k = -1;
		for (int j = 0; j < 5; j++)
			if (strcmp(d.name, names[j]) == 0)
				k = j;
		ck_assert_int_ge(k, 0);
		ck_assert_int_eq(seen[k]++, 0);
		char uid[16];
		snprintf(uid, sizeof(uid), "u-%s", d.name);
		ck_assert_str_eq(d.uid, uid);
	}
	ds_plan_delete d = {.size = sizeof(d)};
	ck_assert_int_eq(ds_plan_get_delete(p, 2, &d, &err), DS_EARG);
	json_t *j = to_json(p);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "deletes")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j, "deferred"), "deletes")), 2);
	json_decref(j);
	ds_plan_free(p);
	ds_options_free(o);
	ds_cluster_free(c);
}
END_TEST

/* podsShouldBeOnNode (daemon_controller.go) has no limit on the pods of a node: with 300 running pods of
 * one DaemonSet on a node it keeps the oldest and deletes the other 299, the first burstReplicas of them
 * this sync. */
START_TEST(three_hundred_pods_on_a_node)
{
	enum { NPODS = 300 };
	size_t cap = 4096 + NPODS * 512, n = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	n += (size_t)snprintf(text + n, cap - n,
			      "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\n"
			      "apiVersion: apps/v1\nkind: DaemonSet\n"
			      "metadata: {name: ds, namespace: default, uid: uid-ds, generation: 1}\n"
			      "spec:\n  selector: {matchLabels: {app: agent}}\n"
			      "  template:\n    metadata: {labels: {app: agent}}\n"
			      "    spec: {containers: [{name: a, image: 'agent:v1'}]}\n");
	/* p000 is the oldest; the names run against the ages so that no order but age picks p000 */
	for (int i = 0; i < NPODS; i++)
		n += (size_t)snprintf(
			text + n, cap - n,
			"---\napiVersion: v1\nkind: Pod\n"
			"metadata:\n  name: p%03d\n  namespace: default\n  uid: u-%d\n"
			"  creationTimestamp: '2026-11-%02dT%02d:%02d:00Z'\n"
			"  labels: {app: agent}\n"
			"  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds, uid: uid-ds, "
			"controller: true}]\n"
			"spec: {nodeName: a, containers: [{name: a, image: 'agent:v1'}]}\n"
			"status: {phase: Running}\n",
			i, i, 1 + i / 24 / 60, i / 60 % 24, i % 60);
	ck_assert_uint_lt(n, cap);
	ds_cluster *c = dsi_test_cluster_text(text);
	free(text);
	ck_assert_uint_eq(ds_cluster_count(c, "Pod"), NPODS);
	ds_time now;
	ds_error err;
	ck_assert_int_eq(ds_time_parse(NOW, &now, &err), 0);
	for (int burst = 0; burst < 2; burst++) {
		ds_options *o = dsi_test_options(burst ? "{\"burstReplicas\": 1000}" : NULL);
		ds_plan *p;
		ck_assert_msg(ds_daemonset_plan(c, "default", "ds", now, o, NULL, 0, &p, &err) == 0, "%s", err.message);
		json_t *j = to_json(p);
		json_t *deletes = json_object_get(j, "deletes");
		size_t shown = burst ? NPODS - 1 : 250; /* burstReplicas: 250 by default */
		ck_assert_uint_eq(ds_plan_delete_count(p), shown);
		ck_assert_uint_eq(json_array_size(deletes), shown);
		ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j, "deferred"), "deletes")),
				 NPODS - 1 - (int)shown);
		ck_assert_uint_eq(ds_plan_create_count(p), 0);
		int seen[NPODS] = {0};
		for (size_t i = 0; i < shown; i++) {
			json_t *d = json_array_get(deletes, i);
			ck_assert_str_eq(json_string_value(json_object_get(d, "reason")), "duplicate");
			ck_assert_str_eq(json_string_value(json_object_get(d, "node")), "a");
			int k = atoi(json_string_value(json_object_get(d, "name")) + 1);
			ck_assert_int_gt(k, 0); /* never p000, the oldest */
			ck_assert_int_eq(seen[k]++, 0);
			ds_plan_delete pd = DS_PLAN_DELETE_INIT; /* the accessor agrees with the JSON */
			ck_assert_int_eq(ds_plan_delete_at(p, i, &pd, &err), 0);
			ck_assert_str_eq(pd.name, json_string_value(json_object_get(d, "name")));
		}
		ds_plan_delete past = DS_PLAN_DELETE_INIT;
		ck_assert_int_eq(ds_plan_delete_at(p, shown, &past, &err), DS_EARG);
		json_decref(j);
		ds_plan_free(p);
		ds_options_free(o);
	}
	ds_cluster_free(c);
}
END_TEST

/* The plan of mode | DSI_SYNC_DECISIONS_ONLY as JSON, and the plan of mode with what it leaves out (the
 * creates' pods, the revision to create) taken out, which must have had them. */
static void plans_of(ds_cluster *c, int mode, const char *hash, json_t **lean, json_t **full)
{
	dsi_core_options core = *dsi_core_options_default();
	dsi_daemon_options daemon = *dsi_daemon_options_default();
	daemon.revision_hash = (char *)hash;
	dsi_daemon_cfg cfg = {&core, &daemon};
	ds_time now;
	ds_error err;
	ck_assert_int_eq(ds_time_parse(NOW, &now, &err), 0);
	const dsi_daemonset *ds = dsi_cluster_daemonset(c, "default", "ds");
	ck_assert_ptr_nonnull(ds);
	dsi_plan p;
	ck_assert_msg(dsi_plan_sync_ex(c, ds, now, &cfg, NULL, mode | DSI_SYNC_DECISIONS_ONLY, &p, &err) == 0, "%s",
		      err.message);
	ck_assert_ptr_null(p.history.create);
	for (uint32_t i = 0; i < p.ncreates; i++)
		ck_assert_ptr_null(p.creates[i].pod);
	*lean = dsi_plan_to_json(&p);
	dsi_plan_release(&p);
	ck_assert_msg(dsi_plan_sync_ex(c, ds, now, &cfg, NULL, mode, &p, &err) == 0, "%s", err.message);
	*full = dsi_plan_to_json(&p);
	dsi_plan_release(&p);
	ck_assert_ptr_nonnull(*lean);
	ck_assert_ptr_nonnull(*full);
	json_t *history = json_object_get(*full, "history");
	ck_assert_ptr_nonnull(json_object_get(history, "create"));
	json_object_del(history, "create");
	size_t i;
	json_t *cr;
	json_array_foreach(json_object_get(*full, "creates"), i, cr)
	{
		ck_assert(json_is_object(json_object_get(cr, "pod")));
		json_object_del(cr, "pod");
	}
}

/* A plan of decisions only decides as the whole plan does: the same creates, deletes, history
 * (the new revision's name too) and rolling update, without the pods and the revision to send. */
START_TEST(decisions_only_plan_decides_the_same)
{
	ds_cluster *c = surge_cluster();
	const int modes[] = {DSI_SYNC_FULL, DSI_SYNC_ROLLING_ONLY, DSI_SYNC_MANAGE_ONLY};
	const char *hashes[] = {NULL, "a-revision-hash-longer-than-the-hash-label-buffer-of-the-history-0123456789"};
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
		for (size_t h = 0; h < 2; h++) {
			json_t *lean, *full;
			plans_of(c, modes[m], hashes[h], &lean, &full);
			if (modes[m] == DSI_SYNC_ROLLING_ONLY) /* the surge's replacement on a */
				ck_assert_uint_eq(json_array_size(json_object_get(full, "creates")), 1);
			const char *cur =
				json_string_value(json_object_get(json_object_get(lean, "history"), "current"));
			char want[256];
			snprintf(want, sizeof(want), "ds-%s",
				 hashes[h] ? hashes[h] : json_string_value(json_object_get(lean, "hash")));
			ck_assert_str_eq(cur, want);
			char *a = json_dumps(lean, JSON_SORT_KEYS), *b = json_dumps(full, JSON_SORT_KEYS);
			ck_assert_str_eq(a, b);
			free(a);
			free(b);
			json_decref(lean);
			json_decref(full);
		}
	ds_cluster_free(c);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("syncplan");
	TCase *tc = tcase_create("plan");
	tcase_add_test(tc, surge_update_without_missing_node_acts);
	tcase_add_test(tc, surge_update_on_missing_node_does_nothing);
	tcase_add_test(tc, surge_update_missing_node_keeps_manage_actions);
	tcase_add_test(tc, unbound_pods_of_vanished_node);
	tcase_add_test(tc, events_iterate_like_json);
	tcase_add_test(tc, events_of_a_skipped_plan);
	tcase_add_test(tc, events_none);
	tcase_add_test(tc, fit_preferred_score);
	tcase_add_test(tc, explain_preferred_score_per_node);
	tcase_add_test(tc, deletes_beyond_the_burst_are_deferred);
	tcase_add_test(tc, three_hundred_pods_on_a_node);
	tcase_add_test(tc, decisions_only_plan_decides_the_same);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
