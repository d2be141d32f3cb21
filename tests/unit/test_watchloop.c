/*
 * The list-watch loop (ds_controller_step): what the library tells a host to do
 * and what it makes of the answers, against the in-memory API of
 * examples/controller in virtual time, and against answers written by hand
 * where the exact bytes matter (chunking, byte offsets, maxDocumentBytes).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/retry.h"
#include "model/snapshot.h"
#include "loopworld.h"

/* Turns until the sample cluster reaches its goal (at most limit turns); then a restart of
 * fluentd-logging and again. Returns NULL or what went wrong. */
static char *run_sample(lworld *w, long limit)
{
	int phase = 0;
	for (long t = 0; t < limit; t++) {
		lw_turn(w);
		char *p = lw_goal(w);
		if (p) {
			free(p);
			continue;
		}
		if (phase == 1)
			return NULL;
		lw_restart(w, "kube-system", "fluentd-logging");
		phase = 1;
	}
	char *p = lw_goal(w);
	char buf[700];
	snprintf(buf, sizeof(buf), "not converged after %ld turns (phase %d): %s", limit, phase, p ? p : "?");
	free(p);
	return strdup(buf);
}

START_TEST(test_sample_converges)
{
	fake_options fo = {.ready_after_ms = 2000};
	static const char *const opts[] = {"seed", "42", NULL};
	lworld w;
	lw_init(&w, "examples/cluster", &fo, opts);
	char *p = run_sample(&w, 2000);
	ck_assert_msg(p == NULL, "%s", p);
	json_t *st = lw_status(&w);
	/* each resource listed once, and watched since: no failure, nothing to relist */
	static const char *const res[] = {"nodes", "pods", "daemonsets", "controllerrevisions"};
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(lw_res(st, res[i], "lists"), 1);
		ck_assert_int_ge(lw_res(st, res[i], "watches"), 1);
		ck_assert_int_eq(lw_res(st, res[i], "failures"), 0);
		ck_assert_str_eq(json_string_value(json_object_get(
					 json_object_get(json_object_get(st, "resources"), res[i]), "state")),
				 "watching");
	}
	ck_assert_int_gt(lw_res(st, "pods", "events"), 10);
	ck_assert(json_is_true(json_object_get(st, "synced")));
	json_decref(st);
	ck_assert_int_eq(fake_calls(w.api, "list", NULL), 4);
	lw_free(&w);
}
END_TEST

/* The actions of a step, by hand: the first four are the lists, with client-go's
 * relistResourceVersion "0"; nothing syncs until every kind has been listed. */
START_TEST(test_first_actions)
{
	lworld w;
	lw_init(&w, "examples/cluster", NULL, NULL);
	ds_error err;
	const char *paths[4];
	char *saved[4];
	for (int i = 0; i < 4; i++) {
		ds_io io = DS_IO_INIT;
		ck_assert_int_eq(ds_controller_step(w.ctrl, LW_T0, &io, &err), DS_IO_LIST);
		ck_assert_str_eq(io.method, "GET");
		ck_assert_str_eq(io.resource_version, "0");
		ck_assert_int_eq(io.timeout_ms, 60000);
		saved[i] = strdup(io.path);
		paths[i] = saved[i];
		ck_assert_int_eq(fake_loop_start(w.loop, &io), 0);
	}
	ck_assert_str_eq(paths[0], "/api/v1/nodes?resourceVersion=0");
	ck_assert_str_eq(paths[1], "/api/v1/pods?resourceVersion=0");
	ck_assert_str_eq(paths[2], "/apis/apps/v1/daemonsets?resourceVersion=0");
	ck_assert_str_eq(paths[3], "/apis/apps/v1/controllerrevisions?resourceVersion=0");
	ds_io io = DS_IO_INIT;
	ck_assert_int_eq(ds_controller_step(w.ctrl, LW_T0, &io, &err), DS_IO_WAIT);
	ck_assert_int_eq(io.wait_ms, 60000); /* the lists' deadline */
	ck_assert_int_eq(fake_calls(w.api, "create", NULL), 0);
	/* the answers: then a watch per kind from its list's resourceVersion */
	ck_assert_int_gt(fake_loop_serve(w.loop, 0), 0);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(ds_controller_step(w.ctrl, LW_T0, &io, &err), DS_IO_WATCH);
		ck_assert_int_eq(io.allow_watch_bookmarks, 1);
		ck_assert_int_ge(io.timeout_seconds, 300);
		ck_assert_int_lt(io.timeout_seconds, 600);
		ck_assert_int_eq(io.timeout_ms, io.timeout_seconds * 1000 + 30000);
		char want[200];
		snprintf(want, sizeof(want),
			 "%.*s?allowWatchBookmarks=true&resourceVersion=%s&timeoutSeconds=%lld&watch=true",
			 (int)(strchr(paths[i], '?') - paths[i]), paths[i], io.resource_version,
			 (long long)io.timeout_seconds);
		ck_assert_str_eq(io.path, want);
		ck_assert_int_eq(fake_loop_start(w.loop, &io), 0);
	}
	/* then the syncs run (inside the step) and the creates go through the transport */
	ck_assert_int_eq(ds_controller_step(w.ctrl, LW_T0, &io, &err), DS_IO_WAIT);
	ck_assert_int_gt(fake_calls(w.api, "create", "pods"), 0);
	for (int i = 0; i < 4; i++)
		free(saved[i]);
	lw_free(&w);
}
END_TEST

/* The same seed, the same watch timeouts and back-off delays; another seed, others. */
static json_t *timeouts(int64_t seed)
{
	char s[32];
	snprintf(s, sizeof(s), "%lld", (long long)seed);
	const char *opts[] = {"seed", s, NULL};
	lworld w;
	lw_init(&w, "examples/cluster", NULL, opts);
	json_t *got = json_array();
	ds_error err;
	for (int i = 0; i < 4; i++) {
		ds_io io = DS_IO_INIT;
		ck_assert_int_eq(ds_controller_step(w.ctrl, LW_T0, &io, &err), DS_IO_LIST);
		fake_loop_start(w.loop, &io);
	}
	fake_loop_serve(w.loop, 0);
	for (int i = 0; i < 4; i++) {
		ds_io io = DS_IO_INIT;
		ck_assert_int_eq(ds_controller_step(w.ctrl, LW_T0, &io, &err), DS_IO_WATCH);
		json_array_append_new(got, json_integer(io.timeout_seconds));
	}
	lw_free(&w);
	return got;
}

START_TEST(test_seeded)
{
	json_t *a = timeouts(1), *b = timeouts(1), *c = timeouts(2);
	ck_assert(json_equal(a, b));
	ck_assert(!json_equal(a, c));
	json_decref(a);
	json_decref(b);
	json_decref(c);
}
END_TEST

/* ---- a host written by hand: exact bytes and times ---- */

/* The log lines a test's own host (act) got. */
static json_t *logs;

static void fresh_logs(void)
{
	json_decref(logs);
	logs = json_array();
}

static int logged(const char *needle)
{
	int n = 0;
	for (size_t i = 0; i < json_array_size(logs); i++)
		n += strstr(json_string_value(json_array_get(logs, i)), needle) != NULL;
	return n;
}

/* The next action that is not a log line (those are kept in logs). */
static int act(lworld *w, ds_time now, ds_io *io)
{
	ds_error err;
	if (!logs)
		logs = json_array();
	for (;;) {
		memset(io, 0, sizeof(*io));
		io->size = sizeof(*io);
		int op = ds_controller_step(w->ctrl, now, io, &err);
		ck_assert_msg(op >= 0, "step: %s", err.message);
		if (op != DS_IO_LOG)
			return op;
		json_array_append_new(logs, json_string(io->message));
	}
}

static void respond(lworld *w, uint64_t id, int status, const char *body, size_t chunk, ds_time now, int end)
{
	ds_error err;
	ck_assert_int_eq(ds_controller_io_response(w->ctrl, id, status, now, &err), 0);
	size_t n = body ? strlen(body) : 0;
	for (size_t i = 0; i < n; i += chunk) {
		int rc = ds_controller_io_data(w->ctrl, id, body + i, n - i < chunk ? n - i : chunk, now, &err);
		ck_assert_msg(rc == 0, "io_data: %d %s", rc, err.message);
	}
	if (end)
		ck_assert_int_eq(ds_controller_io_end(w->ctrl, id, NULL, now, &err), 0);
}

static const char *const empty_lists[] = {
	"{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"10\"},\"items\":[]}",
	"{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"11\"},\"items\":[]}",
	"{\"kind\":\"DaemonSetList\",\"apiVersion\":\"apps/"
	"v1\",\"metadata\":{\"resourceVersion\":\"12\"},\"items\":[]}",
	"{\"kind\":\"ControllerRevisionList\",\"apiVersion\":\"apps/v1\",\"metadata\":{\"resourceVersion\":\"13\"},"
	"\"items\":[]}",
};

/* A controller over an empty cluster, its four lists answered (empty) and its four watches
 * started: ids[i] is the watch of resource i. */
static void listed(lworld *w, const char *const *opts, uint64_t ids[4])
{
	fresh_logs();
	lw_init(w, NULL, NULL, opts);
	ds_io io;
	uint64_t lists[4];
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(act(w, LW_T0, &io), DS_IO_LIST);
		lists[i] = io.id;
	}
	for (int i = 0; i < 4; i++)
		respond(w, lists[i], 200, empty_lists[i], 7, LW_T0, 1);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(act(w, LW_T0, &io), DS_IO_WATCH);
		ids[i] = io.id;
		char rv[16];
		snprintf(rv, sizeof(rv), "%d", 10 + i);
		ck_assert_str_eq(io.resource_version, rv);
	}
}

static const char pod_event[] =
	"{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\","
	"\"namespace\":\"default\",\"uid\":\"u1\",\"resourceVersion\":\"20\"},\"spec\":{\"nodeName\":\"n1\","
	"\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}\n";

/* Events in any chunking; a bookmark moves the resourceVersion; a malformed event is logged with
 * its byte offset, its watch closed, and the resource listed again after a back-off step. */
START_TEST(test_events_bookmarks_malformed)
{
	lworld w;
	uint64_t ids[4];
	static const char *const opts[] = {"seed", "3", NULL};
	listed(&w, opts, ids);
	ds_error err;
	char stream[2048];
	snprintf(stream, sizeof(stream),
		 "%s  \n{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":"
		 "{\"resourceVersion\":\"25\"}}}\n",
		 pod_event);
	respond(&w, ids[1], 200, stream, 1, LW_T0 + 10, 0); /* one byte at a time */
	json_t *st = lw_status(&w);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(st, "resources"), "pods"),
							   "resourceVersion")),
			 "25");
	ck_assert_int_eq(lw_res(st, "pods", "events"), 2);
	json_decref(st);
	ck_assert_int_eq(ds_cluster_count(ds_controller_cluster(w.ctrl), "Pod"), 1);
	/* now an event that is not JSON, at byte offset strlen(stream) of the watch */
	const char *bad = "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Pod\",}}\n";
	int rc = ds_controller_io_data(w.ctrl, ids[1], bad, strlen(bad), LW_T0 + 20, &err);
	ck_assert_int_eq(rc, 1); /* given up: the host aborts it */
	char want[200];
	snprintf(want, sizeof(want), "malformed watch event at byte offset %zu of the watch on pods: not JSON",
		 strlen(stream));
	ds_io io;
	ck_assert_int_eq(act(&w, LW_T0 + 20, &io), DS_IO_CLOSE);
	ck_assert_int_eq(io.id, ids[1]);
	ck_assert_msg(logged(want) == 1, "%s", json_string_value(json_array_get(logs, 0)));
	ck_assert_int_eq(logged("listing again in 0."), 1); /* 800 ms, jittered up to 1.6 s */
	/* nothing more of that call is wanted */
	ck_assert_int_eq(ds_controller_io_data(w.ctrl, ids[1], "x", 1, LW_T0 + 20, &err), 1);
	ck_assert_int_eq(ds_controller_io_end(w.ctrl, ids[1], NULL, LW_T0 + 20, &err), 1);
	/* the relist waits for the back-off, then asks from the last resourceVersion */
	ck_assert_int_eq(act(&w, LW_T0 + 20, &io), DS_IO_WAIT);
	ck_assert_int_ge(io.wait_ms, 800);
	ck_assert_int_lt(io.wait_ms, 1600);
	ck_assert_int_eq(act(&w, LW_T0 + 20 + io.wait_ms, &io), DS_IO_LIST);
	ck_assert_str_eq(io.path, "/api/v1/pods?resourceVersion=25");
	lw_free(&w);
}
END_TEST

/* A Node event of n1 with the given type, resourceVersion, zone label and heartbeat. */
static void node_event(char *buf, size_t size, const char *type, int rv, const char *zone, int beat)
{
	snprintf(buf, size,
		 "{\"type\":\"%s\",\"object\":{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n1\","
		 "\"uid\":\"n1u\",\"resourceVersion\":\"%d\",\"labels\":{\"zone\":\"%s\"}},\"status\":{\"conditions\":"
		 "[{\"type\":\"Ready\",\"status\":\"True\",\"lastHeartbeatTime\":\"2026-12-01T15:%02d:00Z\"}],"
		 "\"images\":[{\"names\":[\"i:%d\"],\"sizeBytes\":%d}]}}}\n",
		 type, rv, zone, beat, beat, 1000 + beat);
}

static uint64_t quiet_events(const lworld *w)
{
	return ((const dsi_cluster *)ds_controller_cluster(w->ctrl))->quiet_events;
}

static const char *node_label(const lworld *w)
{
	const dsi_cluster *c = (const dsi_cluster *)ds_controller_cluster(w->ctrl);
	const dsi_node *n = dsi_cluster_node_by_name(c, "n1");
	ck_assert_ptr_nonnull(n);
	return dsi_cstr(c, n->meta.labels.v[0].value);
}

/* Kubelets' heartbeats on the nodes' watch (model/nodeevent.h): applied without a tree, the
 * watch's resourceVersion and count move as for any event; an update that changes a label is
 * applied whole; so through ds_controller_apply_events too. */
START_TEST(test_node_heartbeats)
{
	lworld w;
	uint64_t ids[4];
	listed(&w, NULL, ids);
	char ev[1024], stream[4096] = "";
	node_event(ev, sizeof(ev), "ADDED", 20, "a", 0);
	strcat(stream, ev);
	node_event(ev, sizeof(ev), "MODIFIED", 21, "a", 1);
	strcat(stream, ev);
	node_event(ev, sizeof(ev), "MODIFIED", 22, "a", 2);
	strcat(stream, ev);
	respond(&w, ids[0], 200, stream, 5, LW_T0 + 10, 0);
	ck_assert_uint_eq(quiet_events(&w), 2);
	json_t *st = lw_status(&w);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(st, "resources"), "nodes"),
							   "resourceVersion")),
			 "22");
	ck_assert_int_eq(lw_res(st, "nodes", "events"), 3);
	json_decref(st);
	const dsi_cluster *c = (const dsi_cluster *)ds_controller_cluster(w.ctrl);
	ck_assert_str_eq(dsi_cstr(c, dsi_cluster_node_by_name(c, "n1")->meta.resource_version), "22");
	/* a label changes with the heartbeat: the whole event */
	ds_error err;
	node_event(ev, sizeof(ev), "MODIFIED", 23, "b", 3);
	ck_assert_int_eq(ds_controller_io_data(w.ctrl, ids[0], ev, strlen(ev), LW_T0 + 20, &err), 0);
	ck_assert_uint_eq(quiet_events(&w), 2);
	ck_assert_str_eq(node_label(&w), "b");
	/* the host's own events: a heartbeat wakes nobody, and is quiet; a label change is not */
	char *out = NULL;
	size_t count = 0;
	node_event(ev, sizeof(ev), "MODIFIED", 24, "b", 4);
	ck_assert_int_eq(ds_controller_apply_events(w.ctrl, ev, strlen(ev), LW_T0 + 30, &count, &out, &err), 0);
	ck_assert_uint_eq(count, 1);
	ck_assert_uint_eq(quiet_events(&w), 3);
	json_t *doc = dsi_test_take_json(out);
	ck_assert_int_eq(json_integer_value(json_object_get(doc, "applied")), 1);
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "queued")), 0);
	json_decref(doc);
	node_event(ev, sizeof(ev), "MODIFIED", 25, "c", 5);
	ck_assert_int_eq(ds_controller_apply_events(w.ctrl, ev, strlen(ev), LW_T0 + 30, &count, NULL, &err), 0);
	ck_assert_uint_eq(quiet_events(&w), 3);
	ck_assert_str_eq(node_label(&w), "c");
	lw_free(&w);
}
END_TEST

/* 410: an ERROR event relists from the last version; a list that meets 410 too lists again at
 * once from etcd (resourceVersion unset). */
START_TEST(test_gone)
{
	lworld w;
	uint64_t ids[4];
	listed(&w, NULL, ids);
	const char *gone = "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":"
			   "\"Failure\",\"message\":\"too old resource version: 11 (40)\",\"reason\":\"Expired\","
			   "\"code\":410}}\n";
	ds_error err;
	ck_assert_int_eq(ds_controller_io_data(w.ctrl, ids[1], gone, strlen(gone), LW_T0, &err), 1);
	ds_io io;
	ck_assert_int_eq(act(&w, LW_T0, &io), DS_IO_CLOSE);
	ck_assert_int_eq(logged("watch of pods closed with: too old resource version: 11 (40)"), 1);
	ck_assert_int_eq(act(&w, LW_T0, &io), DS_IO_WAIT);
	ds_time t = LW_T0 + io.wait_ms;
	ck_assert_int_eq(act(&w, t, &io), DS_IO_LIST);
	ck_assert_str_eq(io.resource_version, "11");
	respond(&w, io.id, 410,
		"{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"too old resource "
		"version: 11 (40)\",\"reason\":\"Expired\",\"code\":410}",
		100, t, 1);
	ck_assert_int_eq(act(&w, t, &io), DS_IO_LIST); /* at once */
	ck_assert_str_eq(io.resource_version, "");
	ck_assert_str_eq(io.path, "/api/v1/pods");
	respond(&w, io.id, 200, "{\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"40\"},\"items\":[]}", 5, t,
		1);
	ck_assert_int_eq(act(&w, t, &io), DS_IO_WATCH);
	ck_assert_str_eq(io.resource_version, "40");
	lw_free(&w);
}
END_TEST

/* client-go's back-off over every failure: every watch answered 500 (and the relists it causes
 * succeed): 0.8 s doubled at each step up to 30 s, each plus up to as much again at random;
 * shared by the four resources; after a quiet period it starts over. */
START_TEST(test_backoff)
{
	lworld w;
	uint64_t ids[4];
	static const char *const opts[] = {"seed", "9", NULL};
	listed(&w, opts, ids);
	ds_time now = LW_T0;
	const char *st500 = "{\"kind\":\"Status\",\"status\":\"Failure\",\"message\":\"internal error\",\"code\":500}";
	for (int i = 0; i < 4; i++)
		respond(&w, ids[i], 500, st500, 1000, now, 1);
	/* the four waits come from one back-off: 0.8, 1.6, 3.2, 6.4 s bases */
	json_t *st = lw_status(&w);
	static const char *const res[] = {"nodes", "pods", "daemonsets", "controllerrevisions"};
	int64_t base = 800;
	for (int i = 0; i < 4; i++, base *= 2) {
		json_int_t next = lw_res(st, res[i], "nextInMs");
		ck_assert_msg(next >= base && next < 2 * base, "%s: %lld not in [%lld, %lld)", res[i], (long long)next,
			      (long long)base, (long long)(2 * base));
	}
	json_decref(st);
	/* keep failing every watch for 10 virtual minutes: count the requests */
	long requests = 0;
	ds_time end = now + 10 * 60 * 1000;
	int64_t last_wait = 0;
	while (now < end) {
		ds_io io;
		int op = act(&w, now, &io);
		if (op == DS_IO_WAIT) {
			now += io.wait_ms;
			last_wait = io.wait_ms;
			continue;
		}
		requests++;
		if (op == DS_IO_LIST) {
			int i = strstr(io.path, "/nodes")        ? 0
				: strstr(io.path, "/pods")       ? 1
				: strstr(io.path, "/daemonsets") ? 2
								 : 3;
			respond(&w, io.id, 200, empty_lists[i], 4096, now, 1);
		} else {
			ck_assert_int_eq(op, DS_IO_WATCH);
			respond(&w, io.id, 500, st500, 1000, now, 1);
		}
	}
	(void)last_wait;
	/* at the cap a resource tries (a list and a watch) once every 30 to 60 s */
	ck_assert_msg(requests < 4 * 2 * (600 / 30 + 8), "%ld requests in 10 minutes", requests);
	ck_assert_int_gt(requests, 4 * 2 * (600 / 60 - 2));
	st = lw_status(&w);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(st, "backoff"), "nextBaseMs")), 30000);
	json_decref(st);
	lw_free(&w);
}
END_TEST

/* apimachinery's Backoff as the reflector configures it, and the quiet-period reset. */
START_TEST(test_retry_steps)
{
	dsi_retry b;
	dsi_rng r;
	dsi_rng_seed(&r, 1);
	dsi_retry_init(&b, 800, 30000, 120000);
	ck_assert_int_eq(b.steps, 38); /* ceil(30s / 0.8s), NewReflectorWithOptions */
	int64_t base = 800;
	ds_time t = 0, last = 0;
	for (int i = 0; i < 12; i++) {
		last = t;
		int64_t d = dsi_retry_step(&b, t, &r);
		ck_assert_msg(d >= base && d < 2 * base, "step %d: %lld not in [%lld, %lld)", i, (long long)d,
			      (long long)base, (long long)(2 * base));
		base = base * 2 > 30000 ? 30000 : base * 2;
		t += d;
	}
	/* failures keep coming (less than 2 minutes apart): it stays at the cap */
	t = last + 119000;
	int64_t d = dsi_retry_step(&b, t, &r);
	ck_assert(d >= 30000 && d < 60000);
	/* a quiet period longer than 2 minutes: back to 0.8 s */
	t += 120001;
	d = dsi_retry_step(&b, t, &r);
	ck_assert(d >= 800 && d < 1600);
	/* the generator: uniform enough over [0, 1) */
	double sum = 0;
	for (int i = 0; i < 10000; i++) {
		double x = dsi_rng_float(&r);
		ck_assert(x >= 0 && x < 1);
		sum += x;
	}
	ck_assert(sum > 4800 && sum < 5200);
}
END_TEST

/* A watch that answers 200 and then nothing is closed after watchIdleTimeout and watched again
 * from the same version; one kept alive by bookmarks but never ended is closed at its
 * timeoutSeconds plus watchTimeoutMargin. A watch the server ends within a second with nothing
 * in it is a very short watch: relisted after a back-off. Ended later, it is watched again at once. */
START_TEST(test_watch_timeouts)
{
	lworld w;
	uint64_t ids[4];
	listed(&w, NULL, ids);
	ds_error err;
	ds_io io;
	ds_time now = LW_T0;
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(ds_controller_io_response(w.ctrl, ids[i], 200, now, &err), 0);
	ck_assert_int_eq(act(&w, now, &io), DS_IO_WAIT);
	ck_assert_int_eq(io.wait_ms, 120000);
	now += 120000;
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(act(&w, now, &io), DS_IO_CLOSE);
		ck_assert_int_eq(io.id, ids[i]);
	}
	ck_assert_int_eq(logged("watch of pods sent nothing for 120.000s (watchIdleTimeout): closing it"), 1);
	ck_assert_int_eq(act(&w, now, &io), DS_IO_WAIT);
	now += io.wait_ms;
	ck_assert_int_eq(act(&w, now, &io), DS_IO_WATCH); /* not a list: nothing was lost */
	ck_assert_str_eq(io.resource_version, "10");
	/* bookmarks every minute keep it open until its timeoutSeconds plus the margin */
	uint64_t id = io.id;
	int64_t timeout = io.timeout_seconds;
	ds_time start = now;
	ck_assert_int_eq(ds_controller_io_response(w.ctrl, id, 200, now, &err), 0);
	const char *bm =
		"{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"resourceVersion\":\"10\"}}}\n";
	for (;;) {
		int op = act(&w, now, &io);
		if (op == DS_IO_CLOSE && io.id == id)
			break;
		if (op != DS_IO_WAIT) { /* the other watches: keep them quiet but alive */
			if (op == DS_IO_WATCH)
				ds_controller_io_response(w.ctrl, io.id, 200, now, &err);
			continue;
		}
		now += io.wait_ms < 60000 ? io.wait_ms : 60000;
		ds_controller_io_data(w.ctrl, id, bm, strlen(bm), now, &err);
	}
	ck_assert_int_eq(now - start, timeout * 1000 + 30000);
	lw_free(&w);

	/* very short, then a normal end */
	listed(&w, NULL, ids);
	now = LW_T0;
	respond(&w, ids[0], 200, "", 1, now + 500, 1);
	ck_assert_int_eq(act(&w, now + 500, &io), DS_IO_WAIT);
	ck_assert_int_eq(logged("very short watch: nodes: Unexpected watch close - watch lasted less than a "
				"second and no items received; listing again in "),
			 1);
	respond(&w, ids[1], 200, "", 1, now + 1500, 1);
	int op;
	while ((op = act(&w, now + 1500, &io)) == DS_IO_LIST) /* the nodes' relist may be due too */
		ck_assert_str_eq(io.resource, "nodes");
	ck_assert_int_eq(op, DS_IO_WATCH);
	ck_assert_str_eq(io.resource_version, "11");
	lw_free(&w);
}
END_TEST

/* relistPeriod: off by default (client-go lists only when it must); on, each resource is listed
 * again that long after its last list, its watch closed first. */
START_TEST(test_periodic_relist)
{
	static const char *const opts[] = {"relistPeriod", "1m", NULL};
	lworld w;
	uint64_t ids[4];
	listed(&w, opts, ids);
	ds_io io;
	ds_time now = LW_T0;
	const char *bm =
		"{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"resourceVersion\":\"10\"}}}\n";
	ck_assert_int_eq(act(&w, now, &io), DS_IO_WAIT);
	ck_assert_int_eq(io.wait_ms, 60000);
	now += 60000;
	ck_assert_int_eq(act(&w, now, &io), DS_IO_CLOSE);
	ck_assert_int_eq(io.id, ids[0]);
	ck_assert_int_eq(logged("periodic relist of nodes (relistPeriod)"), 1);
	int lists = 0;
	while (act(&w, now, &io) != DS_IO_WAIT)
		lists += io.op == DS_IO_LIST;
	ck_assert_int_eq(lists, 4);
	lw_free(&w);
	listed(&w, NULL, ids); /* off: an hour of bookmarks, no list */
	now = LW_T0;
	for (int i = 0; i < 60; i++) {
		now += 60000;
		ds_controller_io_data(w.ctrl, ids[0], bm, strlen(bm), now, NULL);
		while (act(&w, now, &io) != DS_IO_WAIT)
			ck_assert_int_ne(io.op, DS_IO_LIST);
		for (int k = 1; k < 4; k++) /* the others idle out and are watched again: answer those */
			(void)k;
	}
	json_t *st = lw_status(&w);
	ck_assert_int_eq(lw_res(st, "nodes", "lists"), 1);
	json_decref(st);
	lw_free(&w);
}
END_TEST

/* maxDocumentBytes: a list reply, or one watch event, larger than it is refused at the chunk that
 * crosses it, not after: the host reads no further. */
START_TEST(test_max_document_bytes)
{
	static const char *const opts[] = {"maxDocumentBytes", "1000", NULL};
	lworld w;
	fresh_logs();
	lw_init(&w, NULL, NULL, opts);
	ds_io io;
	ds_error err;
	ck_assert_int_eq(act(&w, LW_T0, &io), DS_IO_LIST);
	uint64_t id = io.id;
	ck_assert_int_eq(ds_controller_io_response(w.ctrl, id, 200, LW_T0, &err), 0);
	char chunk[300];
	memset(chunk, ' ', sizeof(chunk));
	int rc = 0, sent = 0;
	while (rc == 0 && sent < 100) {
		rc = ds_controller_io_data(w.ctrl, id, chunk, sizeof(chunk), LW_T0, &err);
		sent++;
	}
	ck_assert_int_eq(rc, 1);
	ck_assert_int_eq(sent, 4); /* 900 bytes kept, the fourth chunk crosses 1000 */
	while (act(&w, LW_T0, &io) == DS_IO_LIST)
		;
	ck_assert_int_eq(logged("failed to list nodes: the reply is larger than maxDocumentBytes (1000 bytes)"), 1);
	lw_free(&w);
	/* a watch event: 200 bytes of a first event is fine; one that grows past 1000 is refused */
	uint64_t ids[4];
	static const char *const small[] = {"maxDocumentBytes", "1000", "seed", "1", NULL};
	listed(&w, small, ids);
	ck_assert_int_eq(ds_controller_io_response(w.ctrl, ids[1], 200, LW_T0, &err), 0);
	ck_assert_int_eq(
		ds_controller_io_data(w.ctrl, ids[1], "\n\n{\"type\":\"ADDED\",\"object\":{\"x\":\"", 33, LW_T0, &err),
		0);
	memset(chunk, 'a', sizeof(chunk));
	sent = 0;
	rc = 0;
	while (rc == 0 && sent < 100) {
		rc = ds_controller_io_data(w.ctrl, ids[1], chunk, sizeof(chunk), LW_T0, &err);
		sent++;
	}
	ck_assert_int_eq(rc, 1);
	ck_assert_int_eq(sent, 4);
	ck_assert_int_eq(act(&w, LW_T0, &io), DS_IO_CLOSE);
	ck_assert_int_eq(logged("malformed watch event at byte offset 2 of the watch on pods: the event is "
				"larger than maxDocumentBytes (1000 bytes)"),
			 1);
	lw_free(&w);
}
END_TEST

/* Stop: every call closed, then STOPPED, and nothing starts after it. */
START_TEST(test_stop)
{
	lworld w;
	uint64_t ids[4];
	listed(&w, NULL, ids);
	ds_error err;
	ds_io io;
	ck_assert_int_eq(ds_controller_stop(w.ctrl, LW_T0, &err), 0);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(act(&w, LW_T0, &io), DS_IO_CLOSE);
		ck_assert_int_eq(io.id, ids[i]);
	}
	ck_assert_int_eq(act(&w, LW_T0, &io), DS_IO_STOPPED);
	ck_assert_int_eq(act(&w, LW_T0 + 3600000, &io), DS_IO_STOPPED);
	ck_assert_int_eq(ds_controller_io_end(w.ctrl, ids[0], NULL, LW_T0, &err), 1); /* forgotten */
	lw_free(&w);
}
END_TEST

/* The entry points refuse what is not theirs to take. */
static int reenter(void *ud, const char *resource, const char *ns, const char *name, ds_reply *reply)
{
	(void)resource;
	(void)ns;
	(void)name;
	ds_io io = DS_IO_INIT;
	ds_error err;
	int rc = ds_controller_step(ud, LW_T0, &io, &err);
	ds_reply_set_message2(reply, rc == DS_ESTATE ? "refused" : "allowed", NULL);
	return DS_TRANSPORT_FATAL;
}

static int big_reply(void *ud, const char *resource, const char *ns, const char *name, ds_reply *reply)
{
	(void)ud;
	(void)resource;
	(void)ns;
	(void)name;
	char buf[400];
	memset(buf, ' ', sizeof(buf));
	ds_error err;
	for (int i = 0; i < 3; i++)
		if (ds_reply_append2(reply, buf, sizeof(buf), &err) < 0)
			return err.code == DS_ELIMIT && i == 2 ? DS_TRANSPORT_TRANSIENT : DS_TRANSPORT_OK;
	return DS_TRANSPORT_OK;
}

START_TEST(test_arguments)
{
	ds_error err;
	ds_io io = DS_IO_INIT;
	ck_assert_int_eq(ds_controller_step(NULL, 0, &io, &err), DS_EARG);
	ds_transport tp = DS_TRANSPORT_INIT;
	tp.get = reenter;
	ds_controller *ctrl;
	ck_assert_int_eq(ds_controller_new(&tp, NULL, NULL, &ctrl, &err), 0);
	tp.user_data = ctrl;
	ds_controller_free(ctrl);
	ck_assert_int_eq(ds_controller_new(&tp, NULL, NULL, &ctrl, &err), 0);
	io.size = 8;
	ck_assert_int_eq(ds_controller_step(ctrl, 0, &io, &err), DS_EARG);
	ck_assert_int_eq(ds_controller_io_response(ctrl, 1, -1, 0, &err), DS_EARG);
	ck_assert_int_eq(ds_controller_io_data(ctrl, 1, NULL, 3, 0, &err), DS_EARG);
	ck_assert_int_eq(ds_controller_io_data(ctrl, 99, "x", 1, 0, &err), 1); /* no such call: not wanted */
	char *out = NULL;
	ck_assert_int_eq(ds_controller_loop_status(ctrl, 0, &out, &err), 0);
	json_t *st = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert(json_is_false(json_object_get(st, "started")));
	json_decref(st);
	ds_controller_free(ctrl);
	/* ds_reply_append2: maxDocumentBytes at the write that crosses it */
	ds_options *opts;
	ck_assert_int_eq(ds_options_create(&opts, &err), 0);
	ck_assert_int_eq(ds_options_set(opts, "maxDocumentBytes", "1000", &err), 0);
	tp.get = big_reply;
	ck_assert_int_eq(ds_controller_new(&tp, opts, NULL, &ctrl, &err), 0);
	ck_assert_int_eq(ds_reply_append2(NULL, "x", 1, &err), DS_EARG);
	ck_assert_int_eq(ds_reply_set_message2(NULL, "x", &err), DS_EARG);
	ds_controller_free(ctrl);
	ds_options_free(opts);
	/* a lease configuration NewLeaderElector would refuse */
	ds_lease_config lc = DS_LEASE_CONFIG_INIT;
	lc.identity = "a";
	lc.namespace_ = "kube-system";
	lc.name = "l";
	lc.lease_duration_ms = 15000;
	lc.renew_deadline_ms = 10000;
	ck_assert_int_eq(ds_options_create(&opts, &err), 0);
	ck_assert_int_eq(ds_options_set(opts, "leaseRetryPeriod", "9s", &err), 0);
	ck_assert_int_eq(ds_controller_new(&tp, opts, NULL, &ctrl, &err), 0);
	ck_assert_int_eq(ds_controller_set_lease(ctrl, &lc, &err), DS_EVALUE);
	ck_assert_str_eq(err.message, "renewDeadline must be greater than retryPeriod*JitterFactor");
	ds_controller_free(ctrl);
	ds_options_free(opts);
	/* the lease is set before the loop starts, not after */
	ck_assert_int_eq(ds_controller_new(&tp, NULL, NULL, &ctrl, &err), 0);
	ds_io io2 = DS_IO_INIT;
	ck_assert_int_ge(ds_controller_step(ctrl, LW_T0, &io2, &err), 0);
	ck_assert_int_eq(ds_controller_set_lease(ctrl, &lc, &err), DS_ESTATE);
	ds_controller_free(ctrl);
}
END_TEST

/* Leader election in the loop: the Lease first, nothing listed before it is held; renewed every
 * retry period; given up on stop. Another holder's fresh Lease: followed, nothing listed. */
START_TEST(test_leader_election)
{
	fake_options fo = {.ready_after_ms = 2000};
	ds_lease_config lc = DS_LEASE_CONFIG_INIT;
	lc.identity = "replica-a";
	lc.namespace_ = "kube-system";
	lc.name = "dsrun";
	lc.lease_duration_ms = 15000;
	lc.renew_deadline_ms = 10000;
	static const char *const opts[] = {"seed", "4", "leaseRetryPeriod", "2s", NULL};
	lworld w;
	lw_init_with(&w, "examples/cluster", &fo, opts, &lc);
	ds_io io;
	fresh_logs();
	ck_assert_int_eq(act(&w, LW_T0, &io), DS_IO_GET);
	ck_assert_str_eq(io.path, "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/dsrun");
	ck_assert_int_eq(io.timeout_ms, 10000);
	ck_assert_int_eq(fake_loop_start(w.loop, &io), 0);
	ck_assert_int_eq(act(&w, LW_T0, &io), DS_IO_WAIT);
	ck_assert_int_eq(logged("attempting to acquire leader lease kube-system/dsrun..."), 1);
	ds_error err;
	ck_assert_int_gt(fake_loop_serve(w.loop, 0), 0); /* 404 */
	ck_assert_int_eq(act(&w, LW_T0, &io), DS_IO_CREATE);
	ck_assert_str_eq(io.method, "POST");
	json_t *lease = json_loads(io.body, 0, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(lease, "spec"), "holderIdentity")),
			 "replica-a");
	json_decref(lease);
	ck_assert_int_eq(fake_calls(w.api, "list", NULL), 0);
	fake_loop_start(w.loop, &io);
	fake_loop_serve(w.loop, 0);
	ck_assert_int_eq(act(&w, LW_T0, &io), DS_IO_LIST);
	ck_assert_int_eq(logged("successfully acquired lease kube-system/dsrun"), 1); /* said at the write's end */
	fake_loop_start(w.loop, &io);
	/* run to the goal: renewals every 2 s meanwhile */
	for (int t = 0; t < 500; t++) {
		lw_turn(&w);
		char *p = lw_goal(&w);
		free(p);
		if (!p && lw_now(&w) - LW_T0 > 20000)
			break;
	}
	char *p = lw_goal(&w);
	ck_assert_msg(!p, "%s", p);
	long puts = fake_calls(w.api, "update", "leases");
	ck_assert_int_ge(puts, (lw_now(&w) - LW_T0) / 2000 - 2);
	ck_assert_int_le(puts, (lw_now(&w) - LW_T0) / 2000 + 1);
	ck_assert_int_eq(ds_controller_stop(w.ctrl, lw_now(&w), &err), 0);
	int stopped = 0;
	for (int t = 0; t < 100 && !stopped; t++)
		stopped = lw_turn(&w) == -2;
	ck_assert(stopped);
	ck_assert_int_eq(lw_logged(&w, "released lease kube-system/dsrun"), 1);
	const json_t *stored = fake_object(w.api, "leases", "kube-system", "dsrun");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(stored, "spec"), "holderIdentity")), "");
	lw_free(&w);

	/* another replica holds a fresh Lease: no list, GETs every 2 s plus up to 2.4 s */
	lw_init_with(&w, "examples/cluster", &fo, opts, &lc);
	const char *held =
		"{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":\"dsrun\","
		"\"namespace\":\"kube-system\"},\"spec\":{\"holderIdentity\":\"other\","
		"\"leaseDurationSeconds\":15,\"renewTime\":\"2026-12-01T15:00:00.000000Z\"}}";
	char why[200];
	ck_assert_msg(fake_load(w.api, held, strlen(held), why, sizeof(why)) == 0, "%s", why);
	for (int t = 0; t < 1000 && lw_now(&w) - LW_T0 < 14000; t++)
		lw_turn(&w);
	ck_assert_int_ge(lw_now(&w) - LW_T0, 14000);
	ck_assert_int_eq(fake_calls(w.api, "list", NULL), 0);
	long gets = fake_calls(w.api, "get", "leases");
	ck_assert_msg(gets >= 14 / 4.4 && gets <= 14 / 2 + 1, "%ld gets in 14 s", gets);
	ck_assert_int_eq(lw_logged(&w, "the lease kube-system/dsrun is held by other"), 1);
	/* not renewed by its holder: taken over a lease duration after it was first seen */
	for (int t = 0; t < 1000 && fake_calls(w.api, "list", NULL) == 0; t++)
		lw_turn(&w);
	ck_assert_int_ge(lw_now(&w) - LW_T0, 15000);
	ck_assert_int_lt(lw_now(&w) - LW_T0, 15000 + 4400 + 100);
	lw_free(&w);
}
END_TEST

static Suite *watchloop_suite(void)
{
	Suite *s = suite_create("watchloop");
	TCase *tc = tcase_create("loop");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_sample_converges);
	tcase_add_test(tc, test_first_actions);
	tcase_add_test(tc, test_node_heartbeats);
	tcase_add_test(tc, test_seeded);
	tcase_add_test(tc, test_events_bookmarks_malformed);
	tcase_add_test(tc, test_gone);
	tcase_add_test(tc, test_backoff);
	tcase_add_test(tc, test_retry_steps);
	tcase_add_test(tc, test_watch_timeouts);
	tcase_add_test(tc, test_periodic_relist);
	tcase_add_test(tc, test_max_document_bytes);
	tcase_add_test(tc, test_stop);
	tcase_add_test(tc, test_arguments);
	tcase_add_test(tc, test_leader_election);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(watchloop_suite)
