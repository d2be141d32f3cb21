/*
 * The controller driver against the in-memory cluster of examples/controller:
 * expectations (a lagging cache never duplicates), slow start, status writes
 * and their retry, deletes that find nothing, the revision collision protocol,
 * the adoption race, requeue with backoff, the transport contract, and a whole
 * rollout of the sample cluster.
 */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctrlworld.h"
#include "vectors.h"

/* Three nodes and one DaemonSet. */
static const char *const small_cluster =
	"apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n2}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n3}\n---\n"
	"apiVersion: apps/v1\nkind: DaemonSet\n"
	"metadata: {name: agent, namespace: default, uid: uid-agent}\n"
	"spec:\n"
	"  selector: {matchLabels: {app: agent}}\n"
	"  template:\n"
	"    metadata: {labels: {app: agent}}\n"
	"    spec: {containers: [{name: a, image: 'agent:v1'}]}\n"
	"  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}\n";

static void small_world(world *w, const mem_options *mo)
{
	cw_init(w, NULL, mo);
	cw_load(w, small_cluster);
	cw_resync(w);
}

static long count_pods(world *w, const char *owner_uid)
{
	long n = 0;
	const char *k;
	json_t *p;
	json_object_foreach((json_t *)mem_objects(w->m, "pods"), k, p)
	{
		const char *uid = mem_controller_uid(p);
		n += uid && strcmp(uid, owner_uid) == 0;
	}
	return n;
}

static json_t *expectations(world *w, const char *ns, const char *name)
{
	char *out = NULL;
	ds_error err;
	ck_assert_int_eq(ds_controller_expectations(w->ctrl, ns, name, w->now, &out, &err), 0);
	json_t *e = json_loads(out, 0, NULL);
	ds_free(out);
	return e;
}

static int has_event(world *w, const char *reason, const char *message_prefix)
{
	const char *k;
	json_t *e;
	json_object_foreach((json_t *)mem_objects(w->m, "events"), k, e)
	{
		const char *r = json_string_value(json_object_get(e, "reason"));
		const char *m = json_string_value(json_object_get(e, "message"));
		if (r && m && strcmp(r, reason) == 0 && strncmp(m, message_prefix, strlen(message_prefix)) == 0)
			return 1;
	}
	return 0;
}

START_TEST(test_new_arguments)
{
	ds_controller *c = (ds_controller *)1;
	ds_error err;
	ck_assert_int_eq(ds_controller_new(NULL, NULL, NULL, &c, &err), DS_EARG);
	ck_assert_ptr_null(c);
	ds_transport t;
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(ds_controller_new(&t, NULL, NULL, &c, &err), DS_EARG);
	ck_assert_str_eq(err.message, "transport must not be NULL; set transport->size");
	t.size = sizeof(t);
	ds_controller_config cfg = {0};
	ck_assert_int_eq(ds_controller_new(&t, NULL, &cfg, &c, &err), DS_EARG);
	ck_assert_int_eq(ds_controller_new(&t, NULL, NULL, NULL, &err), DS_EARG);
	/* a table without callbacks: every call is a fatal result, never a crash */
	ck_assert_int_eq(ds_controller_new(&t, NULL, NULL, &c, &err), 0);
	ck_assert_int_eq(ds_controller_resync(c, CW_T0, NULL, &err), DS_ETRANSPORT);
	ck_assert_str_eq(err.path, "nodes");
	ck_assert_ptr_nonnull(strstr(err.message, "no list callback"));
	ck_assert_int_eq(ds_controller_sync(c, "default", "none", CW_T0, NULL, NULL, &err), 0);
	ck_assert_int_eq(ds_controller_sync(c, "default", NULL, CW_T0, NULL, NULL, &err), DS_EARG);
	ck_assert_ptr_nonnull(ds_controller_cluster(c));
	ck_assert_ptr_null(ds_controller_cluster(NULL));
	ds_controller_free(c);
	ds_controller_free(NULL);
}
END_TEST

START_TEST(test_first_sync_slow_start)
{
	world w;
	small_world(&w, NULL);
	json_t *doc = cw_sync(&w, "default", "agent");
	/* 3 creates in batches of 1 and 2, a revision first, a status write last */
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 3);
	ck_assert_int_eq(count_pods(&w, "uid-agent"), 3);
	ck_assert_int_eq(mem_calls(w.m, "create", "pods"), 3);
	ck_assert_int_eq(mem_calls(w.m, "create", "controllerrevisions"), 1);
	ck_assert(json_is_true(json_object_get(doc, "statusWritten")));
	ck_assert(json_is_true(json_object_get(doc, "expectationsSatisfied")));
	ck_assert(json_is_null(json_object_get(doc, "error")));
	/* the calls in order: create revision, pod, pod, pod, status */
	json_t *calls = json_object_get(doc, "calls");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(calls, 0), "resource")),
			 "controllerrevisions");
	const char *first = json_string_value(json_array_get(json_object_get(doc, "created"), 0));
	ck_assert_ptr_nonnull(first);
	ck_assert_int_eq(strncmp(first, "agent-", 6), 0);
	ck_assert_int_eq(strlen(first), 11);
	char msg[128];
	snprintf(msg, sizeof(msg), "Created pod: %s", first);
	ck_assert(has_event(&w, "SuccessfulCreate", msg));
	/* the status of the pre-sync cache: desired 3, nothing scheduled yet */
	json_t *st = json_object_get(doc, "status");
	ck_assert_int_eq(json_integer_value(json_object_get(st, "desiredNumberScheduled")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(st, "currentNumberScheduled")), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(st, "observedGeneration")), 1);
	json_t *e = expectations(&w, "default", "agent");
	ck_assert_int_eq(json_integer_value(json_object_get(e, "add")), 3);
	ck_assert(json_is_false(json_object_get(e, "satisfied")));
	json_decref(e);
	json_decref(doc);
	cw_free(&w);
}
END_TEST

/* The cache lags: a second sync before any watch event must not create again. */
START_TEST(test_lagging_cache_never_duplicates)
{
	world w;
	small_world(&w, NULL);
	json_decref(cw_sync(&w, "default", "agent"));
	ck_assert_int_eq(count_pods(&w, "uid-agent"), 3);
	w.now += 1000;
	json_t *doc = cw_sync(&w, "default", "agent");
	ck_assert(json_is_false(json_object_get(doc, "expectationsSatisfied")));
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 0);
	ck_assert_int_eq(count_pods(&w, "uid-agent"), 3);
	ck_assert_int_eq(mem_calls(w.m, "create", "pods"), 3);
	/* only the status, observedGeneration not bumped (the cache still shows the old status,
	 * so the write goes out again: a conflict, a re-read and a retry) */
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(doc, "status"), "observedGeneration")), 0);
	ck_assert(json_is_true(json_object_get(doc, "statusWritten")));
	ck_assert_int_eq(mem_calls(w.m, "updateStatus", "daemonsets"), 3);
	json_decref(doc);
	/* two of the three creations arrive: still waiting */
	size_t len;
	char *ev = mem_take_events(w.m, &len);
	char *cut = ev;
	for (int i = 0; i < 3; i++) /* ADDED revision, ADDED pod, ADDED pod */
		cut = strchr(cut, '\n') + 1;
	ds_error err;
	ck_assert_int_eq(ds_controller_apply_events(w.ctrl, ev, (size_t)(cut - ev), w.now, NULL, NULL, &err), 0);
	json_t *e = expectations(&w, "default", "agent");
	ck_assert_int_eq(json_integer_value(json_object_get(e, "add")), 1);
	json_decref(e);
	doc = cw_sync(&w, "default", "agent");
	ck_assert(json_is_false(json_object_get(doc, "expectationsSatisfied")));
	ck_assert_int_eq(mem_calls(w.m, "create", "pods"), 3);
	json_decref(doc);
	/* the rest: satisfied, and the pods are there, so nothing to create */
	ck_assert_int_eq(ds_controller_apply_events(w.ctrl, cut, len - (size_t)(cut - ev), w.now, NULL, NULL, &err), 0);
	free(ev);
	doc = cw_sync(&w, "default", "agent");
	ck_assert(json_is_true(json_object_get(doc, "expectationsSatisfied")));
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 0);
	ck_assert_int_eq(mem_calls(w.m, "create", "pods"), 3);
	json_decref(doc);
	cw_free(&w);
}
END_TEST

/* Expectations older than expectationsTimeout (5 min) no longer hold the sync back. */
START_TEST(test_expectations_expire)
{
	world w;
	small_world(&w, NULL);
	json_decref(cw_sync(&w, "default", "agent"));
	w.now += 5 * 60 * 1000; /* exactly the timeout: not yet expired (strictly more) */
	json_t *e = expectations(&w, "default", "agent");
	ck_assert(json_is_false(json_object_get(e, "expired")));
	json_decref(e);
	json_t *doc = cw_sync(&w, "default", "agent");
	ck_assert(json_is_false(json_object_get(doc, "expectationsSatisfied")));
	/* the gated sync asks to be woken when they expire */
	ck_assert_int_eq(json_integer_value(json_object_get(doc, "requeueAfterMs")), 1);
	json_decref(doc);
	w.now += 1;
	e = expectations(&w, "default", "agent");
	ck_assert(json_is_true(json_object_get(e, "expired")));
	ck_assert(json_is_true(json_object_get(e, "satisfied")));
	json_decref(e);
	/* upstream's trade-off: a cache five minutes behind gets the creates again */
	doc = cw_sync(&w, "default", "agent");
	ck_assert(json_is_true(json_object_get(doc, "expectationsSatisfied")));
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 3);
	json_decref(doc);
	/* the controller copied the options: a later change by the caller does not reach it */
	ds_error err;
	ck_assert_int_eq(ds_options_set(w.opts, "expectationsTimeout", "10s", &err), 0);
	w.now += 10001;
	doc = cw_sync(&w, "default", "agent");
	ck_assert(json_is_false(json_object_get(doc, "expectationsSatisfied")));
	json_decref(doc);
	cw_free(&w);
	/* set before ds_controller_new, the option sets the timeout */
	world w2;
	small_world(&w2, NULL);
	ds_controller_free(w2.ctrl);
	ck_assert_int_eq(ds_options_set(w2.opts, "expectationsTimeout", "10s", &err), 0);
	ck_assert_int_eq(ds_controller_new(&w2.tp, w2.opts, NULL, &w2.ctrl, &err), 0);
	cw_resync(&w2);
	json_decref(cw_sync(&w2, "default", "agent"));
	w2.now += 10000;
	doc = cw_sync(&w2, "default", "agent");
	ck_assert(json_is_false(json_object_get(doc, "expectationsSatisfied")));
	json_decref(doc);
	w2.now += 1;
	doc = cw_sync(&w2, "default", "agent");
	ck_assert(json_is_true(json_object_get(doc, "expectationsSatisfied")));
	json_decref(doc);
	cw_free(&w2);
}
END_TEST

static json_t *apply(world *w, const char *events)
{
	char *out = NULL;
	ds_error err;
	size_t count = 0;
	int rc = ds_controller_apply_events(w->ctrl, events, strlen(events), w->now, &count, &out, &err);
	ck_assert_msg(rc == 0, "%s: %s", err.path, err.message);
	json_t *doc = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_int_eq((json_int_t)count, json_integer_value(json_object_get(doc, "applied")));
	return doc;
}

static int queued(const json_t *doc, const char *key)
{
	const json_t *q = json_object_get(doc, "queued");
	for (size_t i = 0; i < json_array_size(q); i++)
		if (strcmp(json_string_value(json_array_get(q, i)), key) == 0)
			return 1;
	return 0;
}

/* Watch events reach the snapshot and the expectations as upstream's handlers do. */
START_TEST(test_watch_handlers)
{
	world w;
	small_world(&w, NULL);
	json_decref(cw_sync(&w, "default", "agent"));
	char *ev = mem_take_events(w.m, NULL);
	json_t *doc = apply(&w, ev);
	free(ev);
	ck_assert_int_eq(json_integer_value(json_object_get(doc, "applied")), 5); /* revision, 3 pods, status */
	ck_assert(queued(doc, "default/agent"));
	json_decref(doc);
	json_t *e = expectations(&w, "default", "agent");
	ck_assert_int_eq(json_integer_value(json_object_get(e, "add")), 0);
	json_decref(e);
	ck_assert_int_eq(ds_cluster_count(ds_controller_cluster(w.ctrl), "Pod"), 3);
	/* an orphan that matches wakes the DaemonSet; one that does not, nobody */
	doc = apply(&w, "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":"
			"{\"name\":\"stray\",\"namespace\":\"default\",\"uid\":\"u1\",\"resourceVersion\":\"5\","
			"\"labels\":{\"app\":\"agent\"}},\"spec\":{\"nodeName\":\"n1\"}}}");
	ck_assert(queued(doc, "default/agent"));
	json_decref(doc);
	doc = apply(&w, "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":"
			"{\"name\":\"other\",\"namespace\":\"default\",\"uid\":\"u2\",\"resourceVersion\":\"6\","
			"\"labels\":{\"app\":\"web\"}}}}");
	ck_assert_int_eq(json_array_size(json_object_get(doc, "queued")), 0);
	json_decref(doc);
	/* the same resourceVersion again (a resync) wakes nobody */
	doc = apply(&w, "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":"
			"{\"name\":\"stray\",\"namespace\":\"default\",\"uid\":\"u1\",\"resourceVersion\":\"5\","
			"\"labels\":{\"app\":\"agent\"}},\"spec\":{\"nodeName\":\"n1\"}}}");
	ck_assert_int_eq(json_array_size(json_object_get(doc, "queued")), 0);
	json_decref(doc);
	/* a node that should run the DaemonSet wakes it; a status-only change does not */
	doc = apply(&w, "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":"
			"{\"name\":\"n4\",\"resourceVersion\":\"7\"}}}");
	ck_assert(queued(doc, "default/agent"));
	json_decref(doc);
	doc = apply(&w, "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":"
			"{\"name\":\"n4\",\"resourceVersion\":\"8\"},\"status\":{\"allocatable\":{\"pods\":\"10\"}}}}");
	ck_assert_int_eq(json_array_size(json_object_get(doc, "queued")), 0);
	json_decref(doc);
	/* a NoExecute taint changes shouldContinueRunning: wakes it */
	doc = apply(&w, "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":"
			"{\"name\":\"n4\",\"resourceVersion\":\"9\"},\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":"
			"\"NoExecute\"}]}}}");
	ck_assert(queued(doc, "default/agent"));
	json_decref(doc);
	/* a deleted DaemonSet drops its expectations */
	json_decref(cw_sync(&w, "default", "agent"));
	doc = apply(&w, "{\"type\":\"DELETED\",\"object\":{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\","
			"\"metadata\":{\"name\":\"agent\",\"namespace\":\"default\",\"uid\":\"uid-agent\"}}}");
	ck_assert(queued(doc, "default/agent"));
	json_decref(doc);
	e = expectations(&w, "default", "agent");
	ck_assert(json_is_false(json_object_get(e, "set")));
	json_decref(e);
	json_t *res = cw_sync(&w, "default", "agent");
	ck_assert(json_is_false(json_object_get(res, "found")));
	json_decref(res);
	/* errors: a watch ERROR means relist; garbage is a syntax error */
	ds_error err;
	const char *bad =
		"{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"message\":\"too old resource version\"}}";
	ck_assert_int_eq(ds_controller_apply_events(w.ctrl, bad, strlen(bad), w.now, NULL, NULL, &err), DS_ETRANSPORT);
	ck_assert_int_eq(ds_controller_apply_events(w.ctrl, "{", 1, w.now, NULL, NULL, &err), DS_ESYNTAX);
	ck_assert_int_eq(ds_controller_apply_events(w.ctrl, NULL, 3, w.now, NULL, NULL, &err), DS_EARG);
	cw_free(&w);
}
END_TEST

START_TEST(test_status_conflict_retry)
{
	world w;
	small_world(&w, NULL);
	mem_add_fault(w.m, "updateStatus", "daemonsets", 0, 1, DS_TRANSPORT_CONFLICT, 0,
		      "the object has been modified");
	json_t *doc = cw_sync(&w, "default", "agent");
	ck_assert(json_is_true(json_object_get(doc, "statusWritten")));
	ck_assert(json_is_null(json_object_get(doc, "error")));
	ck_assert_int_eq(mem_calls(w.m, "updateStatus", "daemonsets"), 2);
	ck_assert_int_eq(mem_calls(w.m, "get", "daemonsets"), 1);
	json_decref(doc);
	const json_t *ds = json_object_get(mem_objects(w.m, "daemonsets"), "default/agent");
	ck_assert_int_eq(cw_int(ds, "status", "desiredNumberScheduled"), 3);
	ck_assert_int_eq(cw_int(ds, "status", "observedGeneration"), 1);
	cw_free(&w);
}
END_TEST

START_TEST(test_status_fails_twice)
{
	world w;
	small_world(&w, NULL);
	mem_add_fault(w.m, "updateStatus", "daemonsets", 0, -1, DS_TRANSPORT_TRANSIENT, 0, "etcd timeout");
	json_t *doc = cw_sync(&w, "default", "agent");
	ck_assert(json_is_false(json_object_get(doc, "statusWritten")));
	ck_assert_str_eq(json_string_value(json_object_get(doc, "error")),
			 "error storing status for daemon set \"default/agent\": etcd timeout");
	ck_assert_int_eq(mem_calls(w.m, "updateStatus", "daemonsets"), 2);
	/* requeued with the rate limiter's first delay */
	ck_assert_int_eq(json_integer_value(json_object_get(doc, "requeueAfterMs")), 5);
	json_decref(doc);
	/* a fatal answer is not retried */
	mem_clear_faults(w.m);
	mem_add_fault(w.m, "updateStatus", "daemonsets", 0, -1, DS_TRANSPORT_FATAL, 0, "forbidden");
	cw_feed(&w);
	w.now += 5;
	long before = mem_calls(w.m, "updateStatus", "daemonsets");
	doc = cw_sync(&w, "default", "agent");
	ck_assert_int_eq(mem_calls(w.m, "updateStatus", "daemonsets"), before + 1);
	ck_assert_int_eq(json_integer_value(json_object_get(doc, "requeueAfterMs")), 10); /* 5 ms doubled */
	json_decref(doc);
	cw_free(&w);
}
END_TEST

/* The small cluster converged on agent:v1, then the template moves to agent:v2. */
static void converged_then_updated(world *w)
{
	small_world(w, NULL);
	for (int i = 0; i < 10; i++)
		cw_step(w, 1000);
	ck_assert(cw_converged(w, "default", "agent"));
	ck_assert_int_eq(mem_patch(w->m, "daemonsets", "default", "agent",
				   "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"a\","
				   "\"image\":\"agent:v2\"}]}}}}"),
			 DS_TRANSPORT_OK);
	cw_feed(w);
}

/* A pod that is already gone (404), or replaced (409 on the uid precondition), is no error. */
START_TEST(test_delete_gone_is_fine)
{
	world w;
	converged_then_updated(&w);
	mem_add_fault(w.m, "delete", "pods", 0, 1, DS_TRANSPORT_NOT_FOUND, 1, "pods \"x\" not found");
	json_t *doc = cw_sync(&w, "default", "agent");
	ck_assert_int_eq(json_array_size(json_object_get(doc, "deleted")), 1);
	ck_assert(json_is_null(json_object_get(doc, "error")));
	ck_assert(!has_event(&w, "FailedDelete", ""));
	json_decref(doc);
	json_t *e = expectations(&w, "default", "agent");
	ck_assert_int_eq(json_integer_value(json_object_get(e, "del")), 0); /* lowered by the failure */
	json_decref(e);
	cw_free(&w);

	converged_then_updated(&w);
	mem_add_fault(w.m, "delete", "pods", 0, 1, DS_TRANSPORT_CONFLICT, 0,
		      "Precondition failed: UID in precondition");
	doc = cw_sync(&w, "default", "agent");
	ck_assert(json_is_null(json_object_get(doc, "error")));
	ck_assert_int_eq(json_array_size(json_object_get(doc, "deleted")), 1);
	json_decref(doc);
	cw_free(&w);
}
END_TEST

/* A delete that fails: FailedDelete, the sync's error, the expectation lowered, a requeue. */
START_TEST(test_delete_fails)
{
	world w;
	converged_then_updated(&w);
	mem_add_fault(w.m, "delete", "pods", 0, 1, DS_TRANSPORT_FATAL, 0, "pods is forbidden");
	json_t *doc = cw_sync(&w, "default", "agent");
	ck_assert_int_eq(json_array_size(json_object_get(doc, "deleted")), 0);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "error")), "unable to delete pods: pods is forbidden");
	ck_assert(has_event(&w, "FailedDelete", "Error deleting: pods is forbidden"));
	ck_assert_int_eq(json_integer_value(json_object_get(doc, "requeueAfterMs")), 5);
	json_decref(doc);
	json_t *e = expectations(&w, "default", "agent");
	ck_assert_int_eq(json_integer_value(json_object_get(e, "del")), 0);
	ck_assert(json_is_true(json_object_get(e, "satisfied")));
	json_decref(e);
	/* the retry, 5 ms later, deletes it */
	w.now += 5;
	doc = cw_sync(&w, "default", "agent");
	ck_assert_int_eq(json_array_size(json_object_get(doc, "deleted")), 1);
	ck_assert(has_event(&w, "SuccessfulDelete", "Deleted pod: agent-"));
	json_decref(doc);
	cw_free(&w);
}
END_TEST

/* Slow start: creates after the 10th fail; batches 1, 2, 4, 8 stop after the failing one. */
START_TEST(test_slow_start_failure)
{
	world w;
	cw_init(&w, NULL, NULL);
	cw_load(&w, small_cluster);
	for (int i = 4; i <= 100; i++) { /* 100 nodes */
		char node[80];
		snprintf(node, sizeof(node),
			 "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n%d\"}}", i);
		cw_load(&w, node);
	}
	cw_resync(&w);
	mem_add_fault(w.m, "create", "pods", 10, -1, DS_TRANSPORT_TRANSIENT, 0, "exceeded quota");
	json_t *doc = cw_sync(&w, "default", "agent");
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 10);
	ck_assert_int_eq(mem_calls(w.m, "create", "pods"), 15);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "error")), "exceeded quota");
	ck_assert(has_event(&w, "FailedCreate", "Error creating: exceeded quota"));
	json_decref(doc);
	/* 100 expected, 5 failed and 85 skipped: only the 10 creations are awaited */
	json_t *e = expectations(&w, "default", "agent");
	ck_assert_int_eq(json_integer_value(json_object_get(e, "add")), 10);
	json_decref(e);
	cw_feed(&w);
	e = expectations(&w, "default", "agent");
	ck_assert(json_is_true(json_object_get(e, "satisfied")));
	json_decref(e);
	/* the quota is lifted: the next sync picks up the other 90, 1 + 2 + 4 + ... */
	mem_clear_faults(w.m);
	w.now += 5;
	doc = cw_sync(&w, "default", "agent");
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 90);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(doc, "status"), "currentNumberScheduled")),
			 10);
	json_decref(doc);
	cw_free(&w);
}
END_TEST

/* An error longer than any fixed buffer (an admission webhook's denial with its details) reaches the
 * sync's "error" and its FailedCreate event whole: both are built from the message as it came. The
 * error was cut at 1023 bytes and the event at 1199, and where a cut fell inside a UTF-8 character (at
 * some of the shifts below) the sync failed as out of memory. */
START_TEST(test_long_error_whole)
{
	for (int shift = 0; shift < 26; shift++) {
		world w;
		cw_init(&w, NULL, NULL);
		cw_load(&w, small_cluster);
		cw_resync(&w);
		size_t cap = 8192, n = 0;
		char *msg = malloc(cap);
		ck_assert_ptr_nonnull(msg);
		n += (size_t)snprintf(msg, cap, "admission webhook \"quota.example.com\" denied the request:%*s", shift,
				      "");
		for (int i = 0; i < 120; i++) /* an e with an acute accent, two bytes in UTF-8 */
			n += (size_t)snprintf(msg + n, cap - n, " pod %03d over the quota \xc3\xa9;", i);
		snprintf(msg + n, cap - n, " (end)");
		ck_assert_uint_gt(strlen(msg), 3000);
		ck_assert_uint_lt(strlen(msg), cap - 1);
		mem_add_fault(w.m, "create", "pods", 0, -1, DS_TRANSPORT_TRANSIENT, 0, msg);
		json_t *doc = cw_sync(&w, "default", "agent");
		ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 0);
		const char *got = json_string_value(json_object_get(doc, "error"));
		ck_assert_ptr_nonnull(got);
		ck_assert_msg(strcmp(got, msg) == 0, "shift %d: error of %zu bytes, the message %zu", shift,
			      strlen(got), strlen(msg));
		json_decref(doc);
		/* the event, exactly */
		char *ev = malloc(cap + 32);
		ck_assert_ptr_nonnull(ev);
		snprintf(ev, cap + 32, "Error creating: %s", msg);
		int whole = 0;
		const char *k;
		json_t *e;
		json_object_foreach((json_t *)mem_objects(w.m, "events"), k, e)
		{
			const char *r = json_string_value(json_object_get(e, "reason"));
			const char *m = json_string_value(json_object_get(e, "message"));
			whole |= r && m && strcmp(r, "FailedCreate") == 0 && strcmp(m, ev) == 0;
		}
		ck_assert_msg(whole, "shift %d: no event with exactly the message", shift);
		free(ev);
		free(msg);
		cw_free(&w);
	}
}
END_TEST

/* The revision name is taken by different data: bump collisionCount, fail this sync, and
 * the next one creates the revision under the new hash. Taken by the same data: fine. */
START_TEST(test_revision_collision)
{
	world w;
	small_world(&w, NULL);
	/* the name the controller will choose */
	ds_plan *plan;
	ds_error err;
	ck_assert_int_eq(
		ds_plan_sync(ds_controller_cluster(w.ctrl), "default", "agent", w.now, NULL, NULL, &plan, &err), 0);
	char *pj;
	ck_assert_int_eq(ds_plan_to_json(plan, &pj, &err), 0);
	ds_plan_free(plan);
	json_t *pd = json_loads(pj, 0, NULL);
	ds_free(pj);
	json_t *create = json_deep_copy(json_object_get(json_object_get(pd, "history"), "create"));
	json_decref(pd);
	ck_assert_ptr_nonnull(create);
	const char *name = json_string_value(json_object_get(json_object_get(create, "metadata"), "name"));
	/* someone else's revision of that name: different data */
	json_t *other = json_deep_copy(create);
	json_object_set_new(other, "data", json_pack("{s:s}", "other", "data"));
	json_object_del(other, "metadata");
	json_object_set_new(other, "metadata", json_pack("{s:s, s:s}", "name", name, "namespace", "default"));
	char *ot = json_dumps(other, 0);
	cw_load(&w, ot);
	free(ot);
	json_decref(other);
	free(mem_take_events(w.m, NULL)); /* the cache never sees it */
	json_t *doc = cw_sync(&w, "default", "agent");
	char want[300];
	snprintf(want, sizeof(want),
		 "failed to construct revisions of DaemonSet: controllerrevisions.apps \"%s\" already exists", name);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "error")), want);
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 0);
	ck_assert(json_is_false(json_object_get(doc, "statusWritten"))); /* constructHistory failed: no status */
	json_decref(doc);
	const json_t *ds = json_object_get(mem_objects(w.m, "daemonsets"), "default/agent");
	ck_assert_int_eq(cw_int(ds, "status", "collisionCount"), 1);
	cw_feed(&w);
	w.now += 5;
	doc = cw_sync(&w, "default", "agent");
	ck_assert(json_is_null(json_object_get(doc, "error")));
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 3);
	ck_assert_str_ne(json_string_value(json_object_get(doc, "hash")), name + strlen("agent-"));
	json_decref(doc);
	ck_assert_int_eq(json_object_size(mem_objects(w.m, "controllerrevisions")), 2);
	cw_free(&w);

	/* the same data under that name (our own create whose reply was lost): used as is */
	small_world(&w, NULL);
	char *ct = json_dumps(create, 0);
	cw_load(&w, ct);
	free(ct);
	free(mem_take_events(w.m, NULL));
	doc = cw_sync(&w, "default", "agent");
	ck_assert(json_is_null(json_object_get(doc, "error")));
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 3);
	json_decref(doc);
	ds = json_object_get(mem_objects(w.m, "daemonsets"), "default/agent");
	ck_assert_ptr_null(json_object_get(json_object_get(ds, "status"), "collisionCount"));
	json_decref(create);
	cw_free(&w);
}
END_TEST

/* TestDontDoAnythingIfBeingDeletedRace: the cache has the DaemonSet, the API server has it
 * being deleted; adopting an orphan re-reads it and the sync stops. */
START_TEST(test_adoption_race)
{
	world w;
	small_world(&w, NULL);
	cw_load(&w,
		"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"orphan\",\"namespace\":\"default\","
		"\"labels\":{\"app\":\"agent\"}},\"spec\":{\"nodeName\":\"n1\"}}");
	cw_feed(&w);
	ck_assert_int_eq(mem_patch(w.m, "daemonsets", "default", "agent",
				   "{\"metadata\":{\"deletionTimestamp\":\"2026-12-01T15:00:00Z\"}}"),
			 DS_TRANSPORT_OK);
	free(mem_take_events(w.m, NULL));
	json_t *doc = cw_sync(&w, "default", "agent");
	const char *e = json_string_value(json_object_get(doc, "error"));
	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_nonnull(strstr(e, "can't adopt Pod default/orphan ("));
	ck_assert_ptr_nonnull(strstr(e, "default/agent has just been deleted at 2026-12-01 15:00:00 +0000 UTC"));
	ck_assert_int_eq(mem_calls(w.m, "create", "pods"), 0);
	ck_assert_int_eq(mem_calls(w.m, "patch", "pods"), 0);
	ck_assert_int_eq(mem_calls(w.m, "delete", NULL), 0);
	json_decref(doc);
	cw_free(&w);

	/* without the race the orphan is adopted (a strategic patch with its uid) and kept */
	small_world(&w, NULL);
	cw_load(&w,
		"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"orphan\",\"namespace\":\"default\","
		"\"labels\":{\"app\":\"agent\"}},\"spec\":{\"nodeName\":\"n1\"}}");
	cw_feed(&w);
	doc = cw_sync(&w, "default", "agent");
	ck_assert(json_is_null(json_object_get(doc, "error")));
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 2); /* n2, n3 */
	json_decref(doc);
	const json_t *pod = json_object_get(mem_objects(w.m, "pods"), "default/orphan");
	ck_assert_str_eq(mem_controller_uid(pod), "uid-agent");
	cw_free(&w);
}
END_TEST

START_TEST(test_selecting_all)
{
	world w;
	cw_init(&w, NULL, NULL);
	cw_load(&w, "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: all, namespace: default}\n"
		    "spec: {selector: {}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c}]}}}\n");
	cw_resync(&w);
	json_t *doc = cw_sync(&w, "default", "all");
	ck_assert_str_eq(json_string_value(json_object_get(doc, "skipped")), "SelectingAll");
	ck_assert(json_is_false(json_object_get(doc, "statusWritten")));
	ck_assert_int_eq(json_integer_value(json_object_get(doc, "requeueAfterMs")), -1);
	ck_assert(has_event(&w, "SelectingAll",
			    "This daemon set is selecting all pods. A non-empty selector is required."));
	const json_t *ev = NULL;
	const char *k;
	json_object_foreach((json_t *)mem_objects(w.m, "events"), k, ev) break;
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(ev, "involvedObject"), "kind")),
			 "DaemonSet");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(ev, "source"), "component")),
			 "daemonset-controller");
	json_decref(doc);
	cw_free(&w);
}
END_TEST

/* The transport contract: a callback that re-enters, an unknown result, a body that is not JSON. */
static ds_controller *reenter_ctrl;
static int reenter_rc;
static int reentering_list(void *ud, const char *resource, const char *ns, const char *sel, ds_reply *reply)
{
	(void)ud;
	(void)resource;
	(void)ns;
	(void)sel;
	ds_error err;
	reenter_rc = ds_controller_sync(reenter_ctrl, "a", "b", 0, NULL, NULL, &err);
	ds_reply_set_message2(reply, "no", NULL);
	return DS_TRANSPORT_TRANSIENT;
}

static int weird_result;
static const char *weird_body;
static int weird_list(void *ud, const char *resource, const char *ns, const char *sel, ds_reply *reply)
{
	(void)ud;
	(void)resource;
	(void)ns;
	(void)sel;
	if (weird_body)
		ds_reply_append2(reply, weird_body, strlen(weird_body), NULL);
	return weird_result;
}

START_TEST(test_transport_contract)
{
	ds_transport t;
	memset(&t, 0, sizeof(t));
	t.size = sizeof(t);
	t.list = reentering_list;
	ds_error err;
	ck_assert_int_eq(ds_controller_new(&t, NULL, NULL, &reenter_ctrl, &err), 0);
	ck_assert_int_eq(ds_controller_resync(reenter_ctrl, 0, NULL, &err), DS_ETRANSPORT);
	ck_assert_str_eq(err.message, "list nodes: no (transient)");
	ck_assert_int_eq(reenter_rc, DS_ESTATE);
	ds_controller_free(reenter_ctrl);

	t.list = weird_list;
	ds_controller *c;
	ck_assert_int_eq(ds_controller_new(&t, NULL, NULL, &c, &err), 0);
	weird_result = 42;
	ck_assert_int_eq(ds_controller_resync(c, 0, NULL, &err), DS_ETRANSPORT);
	ck_assert_ptr_nonnull(strstr(err.message, "unknown result 42"));
	weird_result = DS_TRANSPORT_OK;
	weird_body = "{not json";
	ck_assert_int_eq(ds_controller_resync(c, 0, NULL, &err), DS_ETRANSPORT);
	ck_assert_ptr_nonnull(strstr(err.message, "is not JSON"));
	weird_body = "[1,2]";
	ck_assert_int_eq(ds_controller_resync(c, 0, NULL, &err), DS_ETRANSPORT);
	ck_assert_ptr_nonnull(strstr(err.message, "not a JSON object"));
	weird_body = NULL;
	ck_assert_int_eq(ds_controller_resync(c, 0, NULL, &err), DS_ETRANSPORT);
	/* a list of the wrong objects: the snapshot refuses it, and keeps what it had */
	weird_body = "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[{\"metadata\":{\"name\":7}}]}";
	ck_assert_int_eq(ds_controller_resync(c, 0, NULL, &err), DS_ETYPE);
	ck_assert_str_eq(err.path, "nodes.items[0].metadata.name");
	ck_assert_uint_eq(ds_cluster_count(ds_controller_cluster(c), "Pod"), 0);
	ds_controller_free(c);
	/* the reply's own checks */
	ck_assert_int_eq(ds_reply_append(NULL, "x", 1), DS_EARG);
	ck_assert_int_eq(ds_reply_set_message(NULL, "x"), DS_EARG);
}
END_TEST

START_TEST(test_queue)
{
	world w;
	small_world(&w, NULL);
	char *key = NULL;
	int64_t wait = 0;
	ds_error err;
	ck_assert_int_eq(ds_controller_next(w.ctrl, w.now, &key, &wait, &err), 1);
	ck_assert_str_eq(key, "default/agent");
	ds_free(key);
	ck_assert_int_eq(ds_controller_next(w.ctrl, w.now, &key, &wait, &err), 0);
	ck_assert_ptr_null(key);
	ck_assert_int_eq(wait, -1);
	ck_assert_int_eq(ds_controller_enqueue(w.ctrl, "default", "agent", w.now, 3000, &err), 0);
	ck_assert_int_eq(ds_controller_enqueue(w.ctrl, "default", "agent", w.now, 7000, &err), 0); /* earlier wins */
	ck_assert_int_eq(ds_controller_next(w.ctrl, w.now, &key, &wait, &err), 0);
	ck_assert_int_eq(wait, 3000);
	char *out = NULL;
	ck_assert_int_eq(ds_controller_run(w.ctrl, w.now + 2999, &wait, &out, &err), 0);
	ck_assert_str_eq(out, "[]");
	ds_free(out);
	ck_assert_int_eq(ds_controller_run(w.ctrl, w.now + 3000, &wait, &out, &err), 1);
	json_t *runs = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(runs, 0), "key")), "default/agent");
	json_decref(runs);
	ck_assert_int_eq(ds_controller_next(w.ctrl, w.now, NULL, &wait, &err), DS_EARG);
	cw_free(&w);
}
END_TEST

/* The sample cluster, to completion, then a template change rolled out: one updated,
 * ready pod per eligible node, never two at once, every status written. */
START_TEST(test_sample_rollout)
{
	world w;
	cw_init(&w, "examples/cluster", NULL);
	cw_resync(&w);
	static const char *const dss[][2] = {{"kube-system", "fluentd-logging"},
					     {"kube-system", "nvidia-device-plugin"},
					     {"monitoring", "node-exporter"}};
	int i;
	for (i = 0; i < 200; i++) {
		cw_step(&w, 1000);
		int done = 1;
		for (size_t d = 0; d < 3; d++)
			done &= cw_converged(&w, dss[d][0], dss[d][1]);
		if (done)
			break;
	}
	ck_assert_msg(i < 200, "not converged");
	ck_assert_int_eq(mem_patch(w.m, "daemonsets", "kube-system", "fluentd-logging",
				   "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"kubectl.kubernetes.io/"
				   "restartedAt\":\"2026-12-01T15:10:00Z\"}}}}}"),
			 DS_TRANSPORT_OK);
	for (i = 0; i < 200; i++) {
		cw_step(&w, 1000);
		if (cw_converged(&w, "kube-system", "fluentd-logging"))
			break;
	}
	ck_assert_msg(i < 200, "the rolling update did not finish");
	const ds_cluster *c = ds_controller_cluster(w.ctrl);
	static const char *const nodes[] = {"cp-1", "worker-1", "worker-2", "worker-3", "worker-4", "gpu-1"};
	int eligible = 0;
	for (size_t n = 0; n < 6; n++) {
		int run = 0, stay = 0;
		ds_error err;
		ck_assert_int_eq(ds_should_run(c, "kube-system", "fluentd-logging", nodes[n], NULL, &run, &stay, &err),
				 0);
		json_t *pod = NULL;
		int count = cw_pods_on(&w, "3f1a2b3c-0002-4000-8000-000000000001", nodes[n], &pod);
		ck_assert_int_eq(count, run ? 1 : 0);
		eligible += run;
		if (!run)
			continue;
		int updated = 0;
		const char *pname = json_string_value(json_object_get(json_object_get(pod, "metadata"), "name"));
		ck_assert_int_eq(ds_daemon_pod_updated(c, "kube-system", "fluentd-logging", pname, &updated, &err), 0);
		ck_assert_msg(updated, "%s runs an old revision", pname);
		ck_assert_str_eq(json_string_value(json_object_get(json_object_get(pod, "status"), "phase")),
				 "Running");
	}
	ck_assert_int_eq(eligible, 4);
	ck_assert_int_eq(mem_max_pods_per_node(w.m, "3f1a2b3c-0002-4000-8000-000000000001"), 1);
	const json_t *ds = json_object_get(mem_objects(w.m, "daemonsets"), "kube-system/fluentd-logging");
	ck_assert_int_eq(cw_int(ds, "metadata", "generation"), 3);
	ck_assert_int_eq(cw_int(ds, "status", "observedGeneration"), 3);
	ck_assert_int_eq(cw_int(ds, "status", "updatedNumberScheduled"), 4);
	ck_assert_int_eq(cw_int(ds, "status", "numberAvailable"), 4);
	cw_free(&w);
}
END_TEST

START_TEST(test_objects_parse)
{
	char *out = NULL;
	ds_error err;
	const char *list = "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[{\"metadata\":{\"name\":\"a\"}}]}";
	ck_assert_int_eq(ds_objects_parse(list, strlen(list), NULL, &out, &err), 0);
	ck_assert_str_eq(out, "[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"}}]");
	ds_free(out);
	const char *yaml = "kind: Node\nmetadata: {name: x}\n---\nkind: Node\nmetadata: {name: y}\n";
	ck_assert_int_eq(ds_objects_parse(yaml, strlen(yaml), NULL, &out, &err), 0);
	json_t *v = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_int_eq(json_array_size(v), 2);
	json_decref(v);
	ck_assert_int_eq(ds_objects_parse("[1]", 3, NULL, &out, &err), DS_ETYPE);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(ds_objects_parse(": :", 3, NULL, &out, &err), DS_ESYNTAX);
	ck_assert_int_eq(ds_objects_parse("x", 1, NULL, NULL, &err), DS_EARG);
}
END_TEST

static const char *pod_on(world *w, const char *node)
{
	json_t *pod = NULL;
	ck_assert_int_eq(cw_pods_on(w, "uid-agent", node, &pod), 1);
	return json_string_value(json_object_get(json_object_get(pod, "metadata"), "name"));
}

/* A failed pod is deleted with an event, and the next failure on that node within the
 * backoff is left alone until the backoff passes; the backoff lives between syncs. */
START_TEST(test_failed_pod_backoff)
{
	world w;
	small_world(&w, NULL);
	for (int i = 0; i < 10; i++)
		cw_step(&w, 1000);
	ck_assert(cw_converged(&w, "default", "agent"));
	char name[64];
	snprintf(name, sizeof(name), "%s", pod_on(&w, "n1"));
	ck_assert_int_eq(mem_patch(w.m, "pods", "default", name, "{\"status\":{\"phase\":\"Failed\"}}"),
			 DS_TRANSPORT_OK);
	cw_feed(&w);
	json_t *doc = cw_sync(&w, "default", "agent");
	ck_assert_int_eq(json_array_size(json_object_get(doc, "deleted")), 1);
	char msg[200];
	snprintf(msg, sizeof(msg), "Found failed daemon pod default/%s on node n1, will try to kill it", name);
	ck_assert(has_event(&w, "FailedDaemonPod", msg));
	json_decref(doc);
	cw_feed(&w);
	doc = cw_sync(&w, "default", "agent"); /* the replacement */
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 1);
	json_decref(doc);
	mem_advance(w.m, w.now); /* the scheduler binds it */
	cw_feed(&w);
	snprintf(name, sizeof(name), "%s", pod_on(&w, "n1"));
	ck_assert_int_eq(mem_patch(w.m, "pods", "default", name, "{\"status\":{\"phase\":\"Failed\"}}"),
			 DS_TRANSPORT_OK);
	cw_feed(&w);
	w.now += 500; /* within the first 1 s of backoff: left alone, looked at again then */
	doc = cw_sync(&w, "default", "agent");
	ck_assert_int_eq(json_array_size(json_object_get(doc, "deleted")), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(doc, "requeueAfterMs")), 1000);
	json_decref(doc);
	w.now += 500;
	doc = cw_sync(&w, "default", "agent");
	ck_assert_int_eq(json_array_size(json_object_get(doc, "deleted")), 1);
	json_decref(doc);
	cw_free(&w);
}
END_TEST

/* A relist (after a broken watch) observes what the lost events would have shown. */
START_TEST(test_resync_observes)
{
	world w;
	small_world(&w, NULL);
	json_decref(cw_sync(&w, "default", "agent"));
	json_t *e = expectations(&w, "default", "agent");
	ck_assert_int_eq(json_integer_value(json_object_get(e, "add")), 3);
	json_decref(e);
	char *out = NULL;
	ds_error err;
	ck_assert_int_eq(ds_controller_resync(w.ctrl, w.now, &out, &err), 0);
	json_t *doc = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(doc, "counts"), "pods")), 3);
	ck_assert_ptr_nonnull(json_string_value(json_object_get(json_object_get(doc, "resourceVersions"), "pods")));
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(doc, "queued"), 0)), "default/agent");
	json_decref(doc);
	e = expectations(&w, "default", "agent");
	ck_assert_int_eq(json_integer_value(json_object_get(e, "add")), 0);
	ck_assert(json_is_true(json_object_get(e, "satisfied")));
	json_decref(e);
	/* a DaemonSet gone between two lists loses its expectations */
	w.now += 1000;
	json_decref(cw_sync(&w, "default", "agent"));
	const json_t *pods = mem_objects(w.m, "pods");
	const char *k;
	json_t *p;
	void *tmp;
	json_object_foreach_safe((json_t *)pods, tmp, k, p) json_object_del((json_t *)pods, k);
	json_object_del((json_t *)mem_objects(w.m, "daemonsets"), "default/agent");
	ck_assert_int_eq(ds_controller_resync(w.ctrl, w.now, NULL, &err), 0);
	e = expectations(&w, "default", "agent");
	ck_assert(json_is_false(json_object_get(e, "set")));
	json_decref(e);
	ck_assert_uint_eq(ds_cluster_count(ds_controller_cluster(w.ctrl), "Pod"), 0);
	cw_free(&w);
}
END_TEST

/* TestExpectationsOnRecreate's facts (upstream drives real informers there, so the vector
 * file keeps no table): creates leave expectations unfulfilled until observed, a deleted
 * DaemonSet drops them, and one recreated under the same name (a new uid) starts fresh. */
START_TEST(test_expectations_on_recreate)
{
	world w;
	cw_init(&w, NULL, NULL);
	cw_load(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: only}\n---\n"
		    "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds, namespace: default, uid: uid-1}\n"
		    "spec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, "
		    "spec: {containers: [{name: c}]}}}\n");
	cw_resync(&w);
	json_t *doc = cw_sync(&w, "default", "ds");
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 1);
	json_decref(doc);
	json_t *e = expectations(&w, "default", "ds");
	ck_assert(json_is_false(json_object_get(e, "satisfied")));
	json_decref(e);
	/* deleted and created again before the pod was seen: the new one is not held back */
	json_decref(apply(&w, "{\"type\":\"DELETED\",\"object\":{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\","
			      "\"metadata\":{\"name\":\"ds\",\"namespace\":\"default\",\"uid\":\"uid-1\"}}}"));
	e = expectations(&w, "default", "ds");
	ck_assert(json_is_false(json_object_get(e, "set")));
	json_decref(e);
	json_decref(apply(
		&w, "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\","
		    "\"metadata\":{\"name\":\"ds\",\"namespace\":\"default\",\"uid\":\"uid-2\",\"generation\":1},"
		    "\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"template\":{\"metadata\":{\"labels\":"
		    "{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\"}]}}}}}"));
	doc = cw_sync(&w, "default", "ds");
	ck_assert(json_is_true(json_object_get(doc, "expectationsSatisfied")));
	ck_assert_int_eq(json_array_size(json_object_get(doc, "created")), 1);
	json_decref(doc);
	/* and so does a new uid seen as an update */
	json_decref(apply(
		&w, "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\","
		    "\"metadata\":{\"name\":\"ds\",\"namespace\":\"default\",\"uid\":\"uid-3\",\"generation\":1},"
		    "\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"template\":{\"metadata\":{\"labels\":"
		    "{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\"}]}}}}}"));
	e = expectations(&w, "default", "ds");
	ck_assert(json_is_false(json_object_get(e, "set")));
	json_decref(e);
	cw_free(&w);
}
END_TEST

/* ---- upstream's controller tests that need the driver (daemon_controller.json, "needs") ---- */

static int needs_driver(const json_t *cs)
{
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(cs, "needs"), i, n)
	{
		const char *s = json_string_value(n);
		if (strcmp(s, "transportFaults") == 0 || strcmp(s, "expectations") == 0 || strcmp(s, "adoption") == 0 ||
		    strcmp(s, "handlers") == 0)
			return 1;
	}
	return 0;
}

/* The hash the library gives the case's DaemonSet, for the "{{hash}}" placeholders. */
static char *hash_of(const json_t *ds)
{
	json_t *objs = json_pack("[O]", ds);
	ds_cluster *c = vt_cluster(objs, NULL);
	json_decref(objs);
	const json_t *m = json_object_get(ds, "metadata");
	ds_plan *p;
	ds_error err;
	ck_assert_int_eq(ds_plan_sync(c, vt_str(m, "namespace"), vt_str(m, "name"), 0, NULL, NULL, &p, &err), 0);
	char *pj;
	ck_assert_int_eq(ds_plan_to_json(p, &pj, &err), 0);
	json_t *doc = json_loads(pj, 0, NULL);
	char *h = strdup(vt_str(doc, "hash"));
	json_decref(doc);
	ds_free(pj);
	ds_plan_free(p);
	ds_cluster_free(c);
	return h;
}

static void replace_placeholder(json_t *v, const char *hash)
{
	const char *k;
	json_t *x;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach(v, k, x)
		{
			if (json_is_string(x) && strcmp(json_string_value(x), "{{hash}}") == 0)
				json_object_set_new(v, k, json_string(hash));
			else
				replace_placeholder(x, hash);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x) replace_placeholder(x, hash);
	}
}

static void load_json(world *w, const json_t *obj)
{
	char *t = json_dumps(obj, 0);
	cw_load(w, t);
	free(t);
}

/* A world at the case's time with its objects, listed by the controller. */
static void vec_world(world *w, const json_t *cs, const char *hash)
{
	ds_time now = CW_T0;
	ds_error err;
	if (json_is_string(json_object_get(cs, "now")))
		ck_assert_int_eq(ds_time_parse(vt_str(cs, "now"), &now, &err), 0);
	memset(w, 0, sizeof(*w));
	w->now = now;
	w->m = mem_new(now, NULL);
	mem_transport(w->m, &w->tp);
	ck_assert_int_eq(ds_options_new(&w->opts), 0);
	ck_assert_int_eq(ds_controller_new(&w->tp, w->opts, NULL, &w->ctrl, &err), 0);
	static const char *const keys[] = {"daemonset", "daemonsets", "nodes", "pods"};
	for (size_t i = 0; i < 4; i++) {
		json_t *v = json_deep_copy(json_object_get(cs, keys[i]));
		if (!v)
			continue;
		replace_placeholder(v, hash);
		if (json_is_array(v)) {
			size_t j;
			json_t *o;
			json_array_foreach(v, j, o) load_json(w, o);
		} else {
			load_json(w, v);
		}
		json_decref(v);
	}
	cw_resync(w);
}

static json_t *event_of(const char *type, const json_t *obj, const char *hash)
{
	int node = strcmp(vt_str(obj, "kind"), "Node") == 0; /* cluster-scoped */
	json_t *o = vt_with_meta(obj, NULL, node ? NULL : "default", NULL);
	replace_placeholder(o, hash);
	return json_pack("{s:s, s:o}", "type", type, "object", o);
}

/* The keys an event queues, sorted, as a JSON array. */
static json_t *queued_by(world *w, const json_t *ev)
{
	char *t = json_dumps(ev, 0);
	json_t *doc = apply(w, t);
	free(t);
	json_t *q = json_deep_copy(json_object_get(doc, "queued"));
	json_decref(doc);
	return q;
}

static char *compare_sets(const char *what, const json_t *got, const json_t *want)
{
	int ok = json_array_size(got) == json_array_size(want);
	for (size_t i = 0; ok && i < json_array_size(want); i++) {
		int found = 0;
		for (size_t j = 0; j < json_array_size(got) && !found; j++)
			found = json_equal(json_array_get(want, i), json_array_get(got, j));
		ok = found;
	}
	if (ok)
		return NULL;
	char *g = vt_dump(got), *x = vt_dump(want);
	char *m = vt_fmt("%s %s, want %s", what, g, x);
	free(g);
	free(x);
	return m;
}

static char *handler_case(const json_t *cs, const char *hash)
{
	world w;
	vec_world(&w, cs, hash);
	const char *ev = vt_str(cs, "event");
	json_t *last = NULL, *q = NULL;
	if (strcmp(ev, "nodeAdd") == 0) {
		last = event_of("ADDED", json_object_get(cs, "node"), hash);
	} else if (strcmp(ev, "podAdd") == 0) {
		last = event_of("ADDED", json_object_get(cs, "pod"), hash);
	} else if (strcmp(ev, "podUpdate") == 0) {
		json_t *first = event_of("ADDED", json_object_get(cs, "oldPod"), hash);
		json_decref(queued_by(&w, first));
		json_decref(first);
		last = event_of("MODIFIED", json_object_get(cs, "newPod"), hash);
	} else if (strcmp(ev, "podDelete") == 0) {
		json_t *first = event_of("ADDED", json_object_get(cs, "pod"), hash);
		json_decref(queued_by(&w, first));
		json_decref(first);
		last = event_of("DELETED", json_object_get(cs, "pod"), hash);
	}
	ck_assert_msg(last != NULL, "unknown event %s", ev);
	q = queued_by(&w, last);
	json_decref(last);
	char *m = compare_sets("queued", q, json_object_get(json_object_get(cs, "expect"), "enqueued"));
	json_decref(q);
	cw_free(&w);
	return m;
}

/* The events the controller records itself (pod control's own are not counted upstream). */
static json_t *own_events(const json_t *doc)
{
	json_t *out = json_array();
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(doc, "events"), i, e)
	{
		const char *r = vt_str(e, "reason");
		if (strcmp(r, "SuccessfulCreate") && strcmp(r, "FailedCreate") && strcmp(r, "SuccessfulDelete") &&
		    strcmp(r, "FailedDelete"))
			json_array_append(out, e);
	}
	return out;
}

static char *check_sync(world *w, const json_t *doc, const json_t *ex, long create_calls_before, int count_calls)
{
	long calls = mem_calls(w->m, "create", "pods") - create_calls_before;
	json_int_t creates = count_calls ? calls : (json_int_t)json_array_size(json_object_get(doc, "created"));
	json_int_t deletes = (json_int_t)json_array_size(json_object_get(doc, "deleted"));
	if (creates != json_integer_value(json_object_get(ex, "creates")) ||
	    deletes != json_integer_value(json_object_get(ex, "deletes")))
		return vt_fmt("creates %lld deletes %lld, want %lld and %lld", (long long)creates, (long long)deletes,
			      (long long)json_integer_value(json_object_get(ex, "creates")),
			      (long long)json_integer_value(json_object_get(ex, "deletes")));
	if (json_is_integer(json_object_get(ex, "maxCreateCalls")) &&
	    calls > json_integer_value(json_object_get(ex, "maxCreateCalls")))
		return vt_fmt("%ld create calls, at most %lld", calls,
			      (long long)json_integer_value(json_object_get(ex, "maxCreateCalls")));
	json_t *evs = own_events(doc);
	char *m = json_is_array(json_object_get(ex, "events"))
			  ? compare_sets("events", evs, json_object_get(ex, "events"))
			  : NULL;
	json_decref(evs);
	if (m)
		return m;
	const char *want_err = json_string_value(json_object_get(ex, "error"));
	const char *got_err = json_string_value(json_object_get(doc, "error"));
	if (want_err && (!got_err || !strstr(got_err, want_err)))
		return vt_fmt("error \"%s\", want one with \"%s\"", got_err ? got_err : "(none)", want_err);
	return NULL;
}

static char *steps_case(const json_t *cs, const char *hash)
{
	world w;
	vec_world(&w, cs, hash);
	char *m = NULL;
	size_t i;
	json_t *st;
	json_array_foreach(json_object_get(cs, "steps"), i, st)
	{
		const char *a = vt_str(st, "action");
		const json_t *ex = json_object_get(st, "expect");
		if (strcmp(a, "sync") == 0) {
			json_t *doc =
				cw_sync(&w, "default",
					vt_str(json_object_get(json_object_get(cs, "daemonset"), "metadata"), "name"));
			m = check_sync(&w, doc, ex, 0, 0);
			json_decref(doc);
			cw_feed(&w);
		} else {
			json_t *ev = strcmp(a, "nodeUpdate") == 0
					     ? event_of("MODIFIED", json_object_get(st, "newNode"), hash)
					     : event_of("DELETED", json_object_get(st, "pod"), hash);
			json_t *q = queued_by(&w, ev);
			json_decref(ev);
			m = compare_sets("queued", q, json_object_get(ex, "enqueued"));
			json_decref(q);
		}
		if (m)
			break;
	}
	cw_free(&w);
	return m;
}

static char *store_status_case(const json_t *cs, const char *hash)
{
	world w;
	vec_world(&w, cs, hash);
	const json_t *f = json_object_get(cs, "faults");
	json_int_t nu = json_integer_value(json_object_get(f, "failFirstUpdates"));
	json_int_t ng = json_integer_value(json_object_get(f, "failFirstGets"));
	if (nu)
		mem_add_fault(w.m, "updateStatus", "daemonsets", 0, (long)nu, DS_TRANSPORT_TRANSIENT, 0,
			      vt_str(f, "updateError"));
	if (ng)
		mem_add_fault(w.m, "get", "daemonsets", 0, (long)ng, DS_TRANSPORT_TRANSIENT, 0, vt_str(f, "getError"));
	json_t *doc =
		cw_sync(&w, "default", vt_str(json_object_get(json_object_get(cs, "daemonset"), "metadata"), "name"));
	const json_t *ex = json_object_get(cs, "expect");
	long updates = mem_calls(w.m, "updateStatus", "daemonsets"), gets = mem_calls(w.m, "get", "daemonsets");
	const char *want = json_string_value(json_object_get(ex, "error"));
	const char *got = json_string_value(json_object_get(doc, "error"));
	char *m = NULL;
	if (updates != json_integer_value(json_object_get(ex, "updateCalls")) ||
	    gets != json_integer_value(json_object_get(ex, "getCalls")))
		m = vt_fmt("%ld updates and %ld gets, want %lld and %lld", updates, gets,
			   (long long)json_integer_value(json_object_get(ex, "updateCalls")),
			   (long long)json_integer_value(json_object_get(ex, "getCalls")));
	else if ((want == NULL) != (got == NULL) || (want && !strstr(got, want)))
		m = vt_fmt("error \"%s\", want \"%s\"", got ? got : "(none)", want ? want : "(none)");
	json_decref(doc);
	cw_free(&w);
	return m;
}

static char *sync_case(const json_t *cs, const char *hash)
{
	world w;
	vec_world(&w, cs, hash);
	const json_t *pc = json_object_get(cs, "podControl");
	const char *name = vt_str(json_object_get(json_object_get(cs, "daemonset"), "metadata"), "name");
	if (json_is_integer(json_object_get(pc, "createLimit"))) {
		char msg[120];
		snprintf(msg, sizeof(msg), "not creating pod, limit %lld already reached",
			 (long long)json_integer_value(json_object_get(pc, "createLimit")));
		mem_add_fault(w.m, "create", "pods", (long)json_integer_value(json_object_get(pc, "createLimit")), -1,
			      DS_TRANSPORT_TRANSIENT, 0, msg);
	}
	if (json_is_string(json_object_get(pc, "err")))
		mem_add_fault(w.m, "create", "pods", 0, -1, DS_TRANSPORT_TRANSIENT, 0, vt_str(pc, "err"));
	if (json_is_string(json_object_get(pc, "statusUpdateErr")))
		mem_add_fault(w.m, "updateStatus", "daemonsets", 0, -1, DS_TRANSPORT_TRANSIENT, 0,
			      vt_str(pc, "statusUpdateErr"));
	if (json_object_get(cs, "apiServerDaemonSet")) { /* what an uncached GET returns */
		load_json(&w, json_object_get(cs, "apiServerDaemonSet"));
		free(mem_take_events(w.m, NULL));
	}
	const json_t *ex = json_object_get(cs, "expect");
	json_t *doc = cw_sync(&w, "default", name);
	char *m = check_sync(&w, doc, ex, 0, json_is_string(json_object_get(pc, "err")));
	json_decref(doc);
	/* what upstream's fake makes visible at once arrives here through the watch */
	cw_feed(&w);
	if (!m && json_is_true(json_object_get(ex, "expectationsSatisfied"))) {
		json_t *e = expectations(&w, "default", name);
		if (!json_is_true(json_object_get(e, "satisfied")))
			m = vt_fmt("expectations not satisfied after the sync: %s", vt_str(e, "key"));
		json_decref(e);
	}
	if (!m && json_object_get(ex, "status")) { /* the next status counts the pods that exist */
		w.now += 5;
		doc = cw_sync(&w, "default", name);
		const char *k;
		json_t *v;
		json_object_foreach(json_object_get(ex, "status"), k, v)
		{
			json_t *got = json_object_get(json_object_get(doc, "status"), k);
			if (!m && !json_equal(got, v))
				m = vt_fmt("status.%s %lld, want %lld", k, (long long)json_integer_value(got),
					   (long long)json_integer_value(v));
		}
		json_decref(doc);
	}
	cw_free(&w);
	return m;
}

START_TEST(test_upstream_vectors)
{
	json_t *doc = vt_load("daemon_controller.json");
	vt_run run;
	static const vt_entry known[] = {{NULL, NULL}};
	vt_begin(&run, "daemon_controller.json (driver)", known);
	size_t i;
	json_t *cs;
	json_array_foreach(vt_cases(doc), i, cs)
	{
		if (!needs_driver(cs))
			continue;
		const char *name = vt_str(cs, "name");
		const json_t *ds = json_object_get(cs, "daemonset");
		if (!ds)
			ds = json_array_get(json_object_get(cs, "daemonsets"), 0);
		char *hash = hash_of(ds);
		const char *fn = vt_str(cs, "function");
		char *m;
		if (strcmp(fn, "eventHandler") == 0)
			m = handler_case(cs, hash);
		else if (strcmp(fn, "storeDaemonSetStatus") == 0)
			m = store_status_case(cs, hash);
		else if (json_object_get(cs, "steps"))
			m = steps_case(cs, hash);
		else
			m = sync_case(cs, hash);
		free(hash);
		vt_record(&run, name, m);
	}
	vt_end(&run);
	ck_assert_uint_eq(run.ncases, 56);
	json_decref(doc);
}
END_TEST

static Suite *controller_suite(void)
{
	Suite *s = suite_create("driver");
	TCase *tc = tcase_create("driver");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_new_arguments);
	tcase_add_test(tc, test_first_sync_slow_start);
	tcase_add_test(tc, test_lagging_cache_never_duplicates);
	tcase_add_test(tc, test_expectations_expire);
	tcase_add_test(tc, test_watch_handlers);
	tcase_add_test(tc, test_status_conflict_retry);
	tcase_add_test(tc, test_status_fails_twice);
	tcase_add_test(tc, test_delete_gone_is_fine);
	tcase_add_test(tc, test_delete_fails);
	tcase_add_test(tc, test_slow_start_failure);
	tcase_add_test(tc, test_long_error_whole);
	tcase_add_test(tc, test_revision_collision);
	tcase_add_test(tc, test_adoption_race);
	tcase_add_test(tc, test_selecting_all);
	tcase_add_test(tc, test_transport_contract);
	tcase_add_test(tc, test_queue);
	tcase_add_test(tc, test_sample_rollout);
	tcase_add_test(tc, test_objects_parse);
	tcase_add_test(tc, test_failed_pod_backoff);
	tcase_add_test(tc, test_resync_observes);
	tcase_add_test(tc, test_expectations_on_recreate);
	suite_add_tcase(s, tc);
	TCase *tv = tcase_create("upstream");
	tcase_set_timeout(tv, 120);
	tcase_add_test(tv, test_upstream_vectors);
	suite_add_tcase(s, tv);
	return s;
}

DSI_TEST_MAIN(controller_suite)
