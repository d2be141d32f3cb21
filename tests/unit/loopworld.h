/*
 * A host of the list-watch loop (ds_controller_step) over the in-memory API of
 * examples/controller, for the loop's suites: the host's whole job in one
 * function (lw_turn), virtual time, and the log lines kept for the checks.
 * The suites that include it are linked with examples/controller/memtransport.o.
 */
#ifndef DSI_TEST_LOOPWORLD_H
#define DSI_TEST_LOOPWORLD_H

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../examples/controller/memtransport.h"
#include "harness.h"

#define LW_T0 1796137200000LL /* 2026-12-01T15:00:00Z */

typedef struct lworld {
	mem_cluster *m;
	ds_controller *ctrl;
	ds_transport tp;
	ds_options *opts;
	json_t *logs;     /* every log line, in order */
	long steps;       /* ds_controller_step calls */
	long started[9];  /* actions by op */
	int stopped;      /* DS_IO_STOPPED was returned */
	int64_t max_wait; /* the host waits no longer than this at a time (virtual time) */
	int print;        /* print the log lines (debugging) */
} lworld;

/* opts: NULL-terminated name, value pairs for ds_options_set; lease may be NULL. */
static inline void lw_init_with(lworld *w, const char *path, const mem_options *mo, const char *const *opts,
				const ds_lease_config *lease)
{
	ds_error err;
	memset(w, 0, sizeof(*w));
	w->m = mem_new(LW_T0, mo);
	ck_assert_ptr_nonnull(w->m);
	if (path)
		ck_assert_msg(mem_load_file(w->m, path, &err) == 0, "%s: %s", path, err.message);
	mem_transport(w->m, &w->tp);
	ck_assert_int_eq(ds_options_create(&w->opts, &err), 0);
	for (size_t i = 0; opts && opts[i]; i += 2)
		ck_assert_msg(ds_options_set(w->opts, opts[i], opts[i + 1], &err) == 0, "%s: %s", opts[i], err.message);
	ds_controller_config cfg = DS_CONTROLLER_CONFIG_INIT;
	cfg.lease = lease;
	ck_assert_msg(ds_controller_new(&w->tp, w->opts, &cfg, &w->ctrl, &err) == 0, "%s", err.message);
	w->logs = json_array();
	w->max_wait = -1;
}

static inline void lw_init(lworld *w, const char *path, const mem_options *mo, const char *const *opts)
{
	lw_init_with(w, path, mo, opts, NULL);
}

static inline ds_time lw_now(const lworld *w) { return mem_now(w->m); }

/* Steps until the library waits (or stopped), doing what it says; then serves the calls, letting
 * virtual time pass when there is nothing to hand over. Returns the wait the library asked for. */
static inline int64_t lw_turn(lworld *w)
{
	ds_error err;
	for (int guard = 0;; guard++) {
		ck_assert_msg(guard < 100000, "the loop never waits");
		ds_io io = DS_IO_INIT;
		int op = ds_controller_step(w->ctrl, lw_now(w), &io, &err);
		ck_assert_msg(op >= 0, "step: %s", err.message);
		w->steps++;
		w->started[op]++;
		switch (op) {
		case DS_IO_LOG:
			json_array_append_new(w->logs, json_string(io.message));
			if (w->print)
				fprintf(stderr, "[%lld] %s\n", (long long)(lw_now(w) - LW_T0), io.message);
			continue;
		case DS_IO_CLOSE: mem_cancel(w->m, io.id); continue;
		case DS_IO_STOPPED: w->stopped = 1; return -1;
		case DS_IO_WAIT: {
			int64_t wait = io.wait_ms;
			if (w->max_wait >= 0 && (wait < 0 || wait > w->max_wait))
				wait = w->max_wait;
			int rc = mem_serve(w->m, w->ctrl, wait, &err);
			ck_assert_msg(rc >= 0, "serve: %s", err.message);
			return io.wait_ms;
		}
		default: ck_assert_int_eq(mem_start(w->m, &io), 0); continue;
		}
	}
}

/* How many log lines contain needle. */
static inline int lw_logged(const lworld *w, const char *needle)
{
	int n = 0;
	for (size_t i = 0; i < json_array_size(w->logs); i++)
		n += strstr(json_string_value(json_array_get(w->logs, i)), needle) != NULL;
	return n;
}

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
	char buf[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return strdup(buf);
}

/* The goal, judged on the API server's own objects (not the controller's cache): for every
 * DaemonSet, exactly one pod on each node it should run on and none elsewhere, each of its
 * current revision and running, never two on a node at any time, and the stored status that of
 * the current generation with every pod updated and available. NULL, or what is wrong. */
/* The stored statuses say every DaemonSet is done (what lw_goal checks last, and cheaply). */
static inline int lw_statuses_final(lworld *w)
{
	const char *k;
	json_t *ds;
	json_object_foreach((json_t *)mem_objects(w->m, "daemonsets"), k, ds)
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

static inline char *lw_goal(lworld *w)
{
	ds_error err;
	ds_cluster *c;
	if (!lw_statuses_final(w))
		return lw_problem("a stored status is not final yet");
	ck_assert_int_eq(ds_cluster_new(w->opts, &c, &err), 0);
	static const char *const resources[] = {"nodes", "daemonsets", "controllerrevisions", "pods"};
	for (size_t i = 0; i < 4; i++) {
		const char *k;
		json_t *obj;
		json_object_foreach((json_t *)mem_objects(w->m, resources[i]), k, obj)
		{
			char *text = json_dumps(obj, JSON_COMPACT);
			int rc = ds_cluster_load(c, text, strlen(text), NULL, &err);
			free(text);
			if (rc < 0) {
				ds_cluster_free(c);
				return lw_problem("the server's %s %s does not load: %s", resources[i], k, err.message);
			}
		}
	}
	char *problem = NULL;
	const char *k;
	json_t *ds;
	json_object_foreach((json_t *)mem_objects(w->m, "daemonsets"), k, ds)
	{
		const json_t *meta = json_object_get(ds, "metadata");
		const char *ns = json_string_value(json_object_get(meta, "namespace"));
		const char *name = json_string_value(json_object_get(meta, "name"));
		const char *uid = json_string_value(json_object_get(meta, "uid"));
		int desired = 0;
		for (size_t n = 0; !problem && n < ds_cluster_count(c, "Node"); n++) {
			const char *node = ds_cluster_node_at(c, n);
			int run = 0, stay = 0;
			if (ds_daemonset_should_run(c, ns, name, node, w->opts, &run, &stay, NULL, &err) < 0) {
				problem = lw_problem("%s: %s", name, err.message);
				break;
			}
			desired += run;
			int count = 0;
			const char *pk;
			json_t *pod, *last = NULL;
			json_object_foreach((json_t *)mem_objects(w->m, "pods"), pk, pod)
			{
				const char *owner = mem_controller_uid(pod);
				const char *on =
					json_string_value(json_object_get(json_object_get(pod, "spec"), "nodeName"));
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
		if (mem_max_pods_per_node(w->m, uid) > 1) {
			problem = lw_problem("%s had %d pods on one node at once", name,
					     mem_max_pods_per_node(w->m, uid));
			break;
		}
		const json_t *st = json_object_get(ds, "status");
		json_int_t gen = json_integer_value(json_object_get(meta, "generation"));
		json_int_t observed = json_integer_value(json_object_get(st, "observedGeneration"));
		json_int_t want = json_integer_value(json_object_get(st, "desiredNumberScheduled"));
		json_int_t updated = json_integer_value(json_object_get(st, "updatedNumberScheduled"));
		json_int_t available = json_integer_value(json_object_get(st, "numberAvailable"));
		if (observed != gen || want != desired || updated != desired || available != desired)
			problem = lw_problem(
				"%s: the stored status says observed %lld of %lld, desired %lld, updated %lld, "
				"available %lld; want %d of each",
				name, (long long)observed, (long long)gen, (long long)want, (long long)updated,
				(long long)available, desired);
		if (problem)
			break;
	}
	ds_cluster_free(c);
	return problem;
}

static inline void lw_free(lworld *w)
{
	ds_controller_free(w->ctrl);
	ds_options_free(w->opts);
	mem_free(w->m);
	json_decref(w->logs);
	memset(w, 0, sizeof(*w));
}

#endif
