/*
 * The list-watch loop (ds_controller_step) over the fake cluster of tests/support
 * (fakeapi.h, hosted by fakeloop.h), for the loop's suites: a world, one turn of
 * the host, the goal judged on the fake's own objects, and the invariant "never
 * two pods of a DaemonSet on one node" checked at every write the fake makes.
 * The suites that include it are linked with the fake (FAKE_SUITES, Makefile).
 */
#ifndef DSI_TEST_LOOPWORLD_H
#define DSI_TEST_LOOPWORLD_H

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/fakeloop.h"
#include "harness.h"

#define LW_T0 FAKE_T0

typedef struct lworld {
	fake_api *api;
	fake_loop *loop;
	ds_controller *ctrl;
	ds_options *opts;
	int most_pods;    /* the most pods (deleting ones too) one DaemonSet ever had on one node */
	char worst[200];  /* where */
	int64_t max_wait; /* the host waits no longer than this at a time (virtual; -1: as asked) */
} lworld;

/* After every write of the fake: a pod's owner and node still have at most one pod. */
static inline void lw_observe(void *ud, const char *type, const char *resource, const json_t *obj)
{
	lworld *w = ud;
	(void)type;
	if (strcmp(resource, "pods") != 0)
		return;
	const char *owner = fake_controller_uid(obj), *node = fake_pod_node(obj);
	if (!owner || !node)
		return;
	int n = 0;
	const char *k;
	json_t *pod;
	json_object_foreach((json_t *)fake_objects(w->api, "pods"), k, pod)
	{
		const char *o = fake_controller_uid(pod), *on = fake_pod_node(pod);
		n += o && on && strcmp(o, owner) == 0 && strcmp(on, node) == 0;
	}
	if (n > w->most_pods) {
		w->most_pods = n;
		snprintf(w->worst, sizeof(w->worst), "%d pods of %s on %s at %lld ms", n, owner, node,
			 (long long)(fake_now(w->api) - LW_T0));
	}
}

/* Every file ds_manifests_list names for path, into the fake. */
static inline void lw_load_path(lworld *w, const char *path)
{
	char *names = NULL, why[300];
	ds_error err;
	ck_assert_int_eq(ds_manifests_list(path, &names, &err), 0);
	json_t *arr = json_loads(names, 0, NULL);
	ds_free(names);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		size_t len;
		char *text = dsi_test_read_file(json_string_value(json_array_get(arr, i)), &len);
		ck_assert_msg(fake_load(w->api, text, len, why, sizeof(why)) == 0, "%s", why);
		free(text);
	}
	json_decref(arr);
}

/* A world: the fake (fo may be NULL) holding path (NULL: nothing), a controller with the
 * options opts (NULL-terminated name, value pairs) and lease (may be NULL). */
static inline void lw_init_with(lworld *w, const char *path, const fake_options *fo, const char *const *opts,
				const ds_lease_config *lease)
{
	ds_error err;
	char why[300];
	memset(w, 0, sizeof(*w));
	w->max_wait = -1;
	w->api = fake_new(fo);
	ck_assert_ptr_nonnull(w->api);
	fake_observe(w->api, lw_observe, w);
	if (path)
		lw_load_path(w, path);
	ck_assert_int_eq(ds_options_create(&w->opts, &err), 0);
	for (size_t i = 0; opts && opts[i]; i += 2)
		ck_assert_msg(ds_options_set(w->opts, opts[i], opts[i + 1], &err) == 0, "%s: %s", opts[i], err.message);
	w->loop = fake_loop_new(w->api, w->opts, NULL, 7, why, sizeof(why));
	ck_assert_msg(w->loop != NULL, "%s", why);
	w->ctrl = fake_loop_controller(w->loop);
	if (lease)
		ck_assert_msg(ds_controller_set_lease(w->ctrl, lease, &err) == 0, "%s", err.message);
}

static inline void lw_init(lworld *w, const char *path, const fake_options *fo, const char *const *opts)
{
	lw_init_with(w, path, fo, opts, NULL);
}

static inline ds_time lw_now(const lworld *w) { return fake_now(w->api); }

/* One turn of the host (fake_loop_turn); -2 once the loop stopped. */
static inline int64_t lw_turn(lworld *w) { return fake_loop_turn(w->loop, w->max_wait); }

static inline int lw_logged(const lworld *w, const char *needle) { return fake_loop_logged(w->loop, needle); }

/* The loop's state (ds_controller_loop_status). */
static inline json_t *lw_status(const lworld *w)
{
	char *out = NULL;
	ds_error err;
	ck_assert_int_eq(ds_controller_loop_status(w->ctrl, lw_now(w), &out, &err), 0);
	json_t *v = json_loads(out, 0, NULL);
	ds_free(out);
	return v;
}

static inline json_int_t lw_res(const json_t *status, const char *resource, const char *field)
{
	return json_integer_value(
		json_object_get(json_object_get(json_object_get(status, "resources"), resource), field));
}

static inline char *lw_problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline char *lw_problem(const char *fmt, ...)
{
	char buf[800];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return strdup(buf);
}

/* The stored statuses say every DaemonSet is done (what lw_goal checks last, and cheaply). */
static inline int lw_statuses_final(const lworld *w)
{
	const char *k;
	json_t *ds;
	json_object_foreach((json_t *)fake_objects(w->api, "daemonsets"), k, ds)
	{
		const json_t *st = json_object_get(ds, "status");
		json_int_t want = json_integer_value(json_object_get(st, "desiredNumberScheduled"));
		if (json_integer_value(json_object_get(st, "observedGeneration")) !=
			    json_integer_value(json_object_get(json_object_get(ds, "metadata"), "generation")) ||
		    json_integer_value(json_object_get(st, "updatedNumberScheduled")) != want ||
		    json_integer_value(json_object_get(st, "numberAvailable")) != want)
			return 0;
	}
	return 1;
}

/* The goal, judged on the fake's own objects (not the controller's cache): for every DaemonSet,
 * exactly one pod on each node it should run on and none elsewhere, each of its current revision,
 * running and not deleting, never two on one node at any write, and the stored status that of the
 * current generation with every pod updated and available. NULL, or what is wrong. */
static inline char *lw_goal(lworld *w)
{
	if (!lw_statuses_final(w))
		return lw_problem("a stored status is not final yet");
	if (w->most_pods > 1)
		return lw_problem("two pods on one node: %s", w->worst);
	ds_error err;
	ds_cluster *c;
	ck_assert_int_eq(ds_cluster_new(w->opts, &c, &err), 0);
	static const char *const resources[] = {"nodes", "daemonsets", "controllerrevisions", "pods"};
	for (size_t i = 0; i < 4; i++) {
		const char *k;
		json_t *obj;
		json_object_foreach((json_t *)fake_objects(w->api, resources[i]), k, obj)
		{
			char *text = json_dumps(obj, JSON_COMPACT);
			int rc = ds_cluster_load(c, text, strlen(text), NULL, &err);
			free(text);
			if (rc < 0) {
				ds_cluster_free(c);
				return lw_problem("the fake's %s %s does not load: %s", resources[i], k, err.message);
			}
		}
	}
	char *problem = NULL;
	const char *k;
	json_t *ds;
	json_object_foreach((json_t *)fake_objects(w->api, "daemonsets"), k, ds)
	{
		const json_t *meta = json_object_get(ds, "metadata");
		const char *ns = json_string_value(json_object_get(meta, "namespace"));
		const char *name = json_string_value(json_object_get(meta, "name"));
		const char *uid = json_string_value(json_object_get(meta, "uid"));
		int desired = 0;
		for (size_t n = 0; !problem && n < ds_cluster_count(c, "Node"); n++) {
			const char *node = NULL;
			ck_assert_int_eq(ds_cluster_node_name_at(c, n, &node, &err), 0);
			int run = 0, stay = 0;
			if (ds_daemonset_should_run(c, ns, name, node, w->opts, &run, &stay, NULL, &err) < 0) {
				problem = lw_problem("%s: %s", name, err.message);
				break;
			}
			desired += run;
			int count = 0;
			const char *pk;
			json_t *pod, *last = NULL;
			json_object_foreach((json_t *)fake_objects(w->api, "pods"), pk, pod)
			{
				const char *owner = fake_controller_uid(pod), *on = fake_pod_node(pod);
				if (owner && on && strcmp(owner, uid) == 0 && strcmp(on, node) == 0) {
					count++;
					last = pod;
				}
			}
			if (count != (run ? 1 : 0)) {
				problem = lw_problem("%s on %s: %d pods, want %d", name, node, count, run);
				break;
			}
			if (!run)
				continue;
			const json_t *pm = json_object_get(last, "metadata");
			const char *pod_name = json_string_value(json_object_get(pm, "name"));
			const char *phase =
				json_string_value(json_object_get(json_object_get(last, "status"), "phase"));
			int updated = 0;
			ds_daemonset_pod_updated(c, ns, name, pod_name, w->opts, &updated, &err);
			if (!updated || !phase || strcmp(phase, "Running") != 0 ||
			    json_object_get(pm, "deletionTimestamp"))
				problem =
					lw_problem("%s: updated %d, phase %s%s", pod_name, updated, phase ? phase : "-",
						   json_object_get(pm, "deletionTimestamp") ? ", deleting" : "");
		}
		if (problem)
			break;
		const json_t *st = json_object_get(ds, "status");
		json_int_t gen = json_integer_value(json_object_get(meta, "generation"));
		json_int_t observed = json_integer_value(json_object_get(st, "observedGeneration"));
		json_int_t want = json_integer_value(json_object_get(st, "desiredNumberScheduled"));
		json_int_t updated = json_integer_value(json_object_get(st, "updatedNumberScheduled"));
		json_int_t available = json_integer_value(json_object_get(st, "numberAvailable"));
		if (observed != gen || want != desired || updated != desired || available != desired) {
			problem = lw_problem(
				"%s: the stored status says observed %lld of %lld, desired %lld, updated %lld, "
				"available %lld; want %d of each",
				name, (long long)observed, (long long)gen, (long long)want, (long long)updated,
				(long long)available, desired);
			break;
		}
	}
	ds_cluster_free(c);
	return problem;
}

/* kubectl rollout restart of ns/name on the fake, tried again (as a user would) when an injected
 * fault hits it rather than the controller. */
static inline void lw_restart(lworld *w, const char *ns, const char *name)
{
	static const char patch[] = "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{"
				    "\"kubectl.kubernetes.io/restartedAt\":\"2026-12-01T16:00:00Z\"}}}}}";
	int code = 0;
	for (int attempt = 0; attempt < 5 && code != 200; attempt++) {
		char *out = NULL;
		code = fake_patch(w->api, "daemonsets", ns, name, NULL, "application/merge-patch+json", patch, &out);
		free(out);
	}
	ck_assert_msg(code == 200, "restart %s: %d", name, code);
}

static inline void lw_free(lworld *w)
{
	fake_loop_free(w->loop);
	ds_options_free(w->opts);
	fake_free(w->api);
	memset(w, 0, sizeof(*w));
}

#endif
