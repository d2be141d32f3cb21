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

#include "loopworld.h"

static const char *const restart_patch = "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{"
					 "\"kubectl.kubernetes.io/restartedAt\":\"2026-12-01T16:00:00Z\"}}}}}";

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
		ck_assert_int_eq(mem_patch(w->m, "daemonsets", "kube-system", "fluentd-logging", restart_patch),
				 DS_TRANSPORT_OK);
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
	mem_options mo = {.ready_after_ms = 2000, .grace_ms = 2000, .seed = 7};
	static const char *const opts[] = {"seed", "42", NULL};
	lworld w;
	lw_init(&w, "examples/cluster", &mo, opts);
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
	ck_assert_int_eq(w.started[DS_IO_LIST], 4);
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
		ck_assert_int_eq(mem_start(w.m, &io), 0);
	}
	ck_assert_str_eq(paths[0], "/api/v1/nodes?resourceVersion=0");
	ck_assert_str_eq(paths[1], "/api/v1/pods?resourceVersion=0");
	ck_assert_str_eq(paths[2], "/apis/apps/v1/daemonsets?resourceVersion=0");
	ck_assert_str_eq(paths[3], "/apis/apps/v1/controllerrevisions?resourceVersion=0");
	ds_io io = DS_IO_INIT;
	ck_assert_int_eq(ds_controller_step(w.ctrl, LW_T0, &io, &err), DS_IO_WAIT);
	ck_assert_int_eq(io.wait_ms, 60000); /* the lists' deadline */
	ck_assert_int_eq(mem_calls(w.m, "create", NULL), 0);
	/* the answers: then a watch per kind from its list's resourceVersion */
	ck_assert_int_gt(mem_serve(w.m, w.ctrl, 0, &err), 0);
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
		ck_assert_int_eq(mem_start(w.m, &io), 0);
	}
	/* then the syncs run (inside the step) and the creates go through the transport */
	ck_assert_int_eq(ds_controller_step(w.ctrl, LW_T0, &io, &err), DS_IO_WAIT);
	ck_assert_int_gt(mem_calls(w.m, "create", "pods"), 0);
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
		mem_start(w.m, &io);
	}
	mem_serve(w.m, w.ctrl, 0, &err);
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

static Suite *watchloop_suite(void)
{
	Suite *s = suite_create("watchloop");
	TCase *tc = tcase_create("loop");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_sample_converges);
	tcase_add_test(tc, test_first_actions);
	tcase_add_test(tc, test_seeded);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(watchloop_suite)
