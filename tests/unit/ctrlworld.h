/*
 * A controller driving the in-memory cluster of examples/controller, for the
 * controller suites: the host's event loop in a few helpers. The suites that
 * include it are linked with examples/controller/memtransport.o (Makefile).
 */
#ifndef DSI_TEST_CTRLWORLD_H
#define DSI_TEST_CTRLWORLD_H

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../../examples/controller/memtransport.h"
#include "harness.h"

#define CW_T0 1796137200000LL /* 2026-12-01T15:00:00Z */

typedef struct world {
	mem_cluster *m;
	ds_controller *ctrl;
	ds_transport tp;
	ds_options *opts;
	ds_time now;
	int syncs;
} world;

/* A controller over a fake cluster loaded from path (NULL: empty), resynced. */
static inline void cw_init(world *w, const char *path, const mem_options *mo)
{
	ds_error err;
	memset(w, 0, sizeof(*w));
	w->now = CW_T0;
	w->m = mem_new(w->now, mo);
	ck_assert_ptr_nonnull(w->m);
	if (path)
		ck_assert_msg(mem_load_file(w->m, path, &err) == 0, "%s: %s", path, err.message);
	free(mem_take_events(w->m, NULL));
	mem_transport(w->m, &w->tp);
	ck_assert_int_eq(ds_options_new(&w->opts), 0);
	ck_assert_int_eq(ds_controller_new(&w->tp, w->opts, NULL, &w->ctrl, &err), 0);
}

static inline void cw_load(world *w, const char *text)
{
	ds_error err;
	ck_assert_msg(mem_load(w->m, text, strlen(text), &err) == 0, "%s", err.message);
}

static inline void cw_resync(world *w)
{
	ds_error err;
	free(mem_take_events(w->m, NULL)); /* the list covers them */
	int rc = ds_controller_resync(w->ctrl, w->now, NULL, &err);
	ck_assert_msg(rc == 0, "resync: %s", err.message);
}

/* The fake's watch events into the controller. */
static inline void cw_feed(world *w)
{
	size_t len;
	char *ev = mem_take_events(w->m, &len);
	if (!ev)
		return;
	ds_error err;
	int rc = ds_controller_apply_events(w->ctrl, ev, len, w->now, NULL, NULL, &err);
	ck_assert_msg(rc == 0, "apply_events: %s: %s", err.path, err.message);
	free(ev);
}

/* One sync of ns/name now; the result document (json_decref it). */
static inline json_t *cw_sync(world *w, const char *ns, const char *name)
{
	ds_error err;
	char *out = NULL;
	int rc = ds_controller_sync(w->ctrl, ns, name, w->now, NULL, &out, &err);
	ck_assert_msg(rc == 0, "sync: %s", err.message);
	json_t *doc = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_ptr_nonnull(doc);
	w->syncs++;
	return doc;
}

/* The host's loop, one turn: sync what is due, feed the watch, let time pass. */
static inline void cw_step(world *w, int64_t step_ms)
{
	ds_error err;
	int64_t wait;
	int rc = ds_controller_run(w->ctrl, w->now, &wait, NULL, &err);
	ck_assert_msg(rc >= 0, "run: %s", err.message);
	w->syncs += rc;
	cw_feed(w);
	w->now += step_ms;
	mem_advance(w->m, w->now);
	cw_feed(w);
}

static inline json_t *cw_get(world *w, const char *kind, const char *ns, const char *name)
{
	char *out = NULL;
	ds_error err;
	if (ds_cluster_get(ds_controller_cluster(w->ctrl), kind, ns, name, &out, &err) < 0)
		return NULL;
	json_t *v = json_loads(out, 0, NULL);
	ds_free(out);
	return v;
}

static inline json_int_t cw_int(const json_t *obj, const char *a, const char *b)
{
	return json_integer_value(json_object_get(json_object_get(obj, a), b));
}

/* The DaemonSet as the controller's snapshot holds it has reached its goal: every
 * pod updated and available, the status says so for the current generation, and
 * the status is what the snapshot's pods give. */
static inline int cw_converged(world *w, const char *ns, const char *name)
{
	json_t *ds = cw_get(w, "DaemonSet", ns, name);
	if (!ds)
		return 0;
	json_int_t desired = cw_int(ds, "status", "desiredNumberScheduled");
	int ok = cw_int(ds, "status", "observedGeneration") >= cw_int(ds, "metadata", "generation") &&
		 cw_int(ds, "status", "updatedNumberScheduled") == desired &&
		 cw_int(ds, "status", "numberAvailable") == desired &&
		 cw_int(ds, "status", "currentNumberScheduled") == desired;
	json_decref(ds);
	if (!ok)
		return 0;
	ds_status st = {.size = sizeof(ds_status)};
	ds_error err;
	if (ds_status_compute(ds_controller_cluster(w->ctrl), ns, name, w->now, w->opts, &st, &err) < 0)
		return 0;
	ds = cw_get(w, "DaemonSet", ns, name);
	ok = st.desired_number_scheduled == desired && st.updated_number_scheduled == desired &&
	     st.number_available == desired && cw_int(ds, "status", "numberMisscheduled") == st.number_misscheduled;
	json_decref(ds);
	char *exp = NULL;
	ds_controller_expectations(w->ctrl, ns, name, w->now, &exp, &err);
	json_t *e = json_loads(exp, 0, NULL);
	ds_free(exp);
	ok = ok && json_is_true(json_object_get(e, "satisfied"));
	json_decref(e);
	return ok;
}

static inline void cw_free(world *w)
{
	ds_controller_free(w->ctrl);
	ds_options_free(w->opts);
	mem_free(w->m);
	memset(w, 0, sizeof(*w));
}

/* Pods of the fake owned by uid on node (deleting ones too). */
static inline int cw_pods_on(world *w, const char *owner_uid, const char *node, json_t **last)
{
	const char *k;
	json_t *p;
	int n = 0;
	json_object_foreach((json_t *)mem_objects(w->m, "pods"), k, p)
	{
		const json_t *refs = json_object_get(json_object_get(p, "metadata"), "ownerReferences");
		const char *uid = json_string_value(json_object_get(json_array_get(refs, 0), "uid"));
		const char *on = json_string_value(json_object_get(json_object_get(p, "spec"), "nodeName"));
		if (uid && on && strcmp(uid, owner_uid) == 0 && strcmp(on, node) == 0) {
			n++;
			if (last)
				*last = p;
		}
	}
	return n;
}

#endif
