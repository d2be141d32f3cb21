/*
 * Rollout simulation: plan -> apply -> time passes, on a private copy of the
 * snapshot, until the rollout completes or stalls. Every decision comes from
 * dsi_plan_sync, the same function a controller uses; this file only models
 * the world around the controller: the scheduler binds a pending pod when its
 * filters pass, the kubelet makes a pod Ready after simReadyAfter (never on
 * simFailNodes), a deleted pod goes away after simTerminateAfter, and every
 * pod change wakes the controller (as its informer would).
 */
#include "daemon/simulate.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "daemon/availability.h"
#include "daemon/plan.h"
#include "daemon/status.h"
#include "sched/fit.h"

/* A pod the simulation is waiting on. */
typedef struct pending {
	dsi_atom ns, name;
	ds_time ready_at; /* becomes Ready; -1: never, or not ours to make ready */
	ds_time gone_at;  /* deleted: disappears; -1: not deleted */
	uint8_t bound;
} pending;

typedef struct sim {
	dsi_cluster c; /* the private copy */
	dsi_daemonset *ds;
	const dsi_options *o;
	ds_time now;
	pending *v;
	size_t n, cap;
	dsi_backoff backoff;
	json_t *waves, *timeline, *node_times;
	int32_t max_unavailable_seen, max_surge_seen, budget_unavailable, budget_surge;
	int32_t initial_unavailable; /* before the controller acted: not the rollout's doing */
	uint64_t syncs, creates, deletes;
	int seq;
	ds_error *err;
	char **fail_nodes;
	size_t nfail;
	dsi_placement place; /* for the scheduler's view of new pods */
} sim;

static pending *track(sim *s, dsi_atom ns, dsi_atom name)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].ns == ns && s->v[i].name == name)
			return &s->v[i];
	if (DSI_GROW(s->v, s->cap, s->n + 1) < 0)
		return NULL;
	pending *p = &s->v[s->n++];
	memset(p, 0, sizeof(*p));
	p->ns = ns;
	p->name = name;
	p->ready_at = p->gone_at = -1;
	return p;
}

static int failing_node(const sim *s, const char *node)
{
	for (size_t i = 0; i < s->nfail; i++)
		if (strcmp(s->fail_nodes[i], node) == 0)
			return 1;
	return 0;
}

/* The scheduler's Filter for a pending daemon pod on its pinned node, against the node's pods. */
static int fits(sim *s, const dsi_pod *pod, const dsi_node *node)
{
	dsi_node_usage u;
	if (dsi_node_usage_init(&s->c, node, NULL, NULL, &u) < 0)
		return 0;
	dsi_fit fit;
	dsi_run_filters(&s->c, &s->c.atoms, &s->ds->tspec, &s->place.tolerations, s->place.comparison_ops, node, &u, &fit);
	dsi_node_usage_release(&u);
	(void)pod;
	return fit.n == 0;
}

/* Bind pending pods whose node now has room; returns how many changed. */
static int schedule(sim *s)
{
	int changed = 0;
	for (size_t i = 0; i < s->n; i++) {
		pending *p = &s->v[i];
		if (p->bound || p->gone_at >= 0)
			continue;
		dsi_pod *pod = dsi_cluster_pod(&s->c, p->ns, p->name);
		if (!pod || pod->spec.node_name) {
			p->bound = 1;
			continue;
		}
		const dsi_node *node = dsi_cluster_node(&s->c, pod->spec.target_node);
		if (!node || !fits(s, pod, node))
			continue;
		if (dsi_cluster_bind_pod(&s->c, pod, pod->spec.target_node) < 0)
			return -1;
		p->bound = 1;
		pod->phase = DSI_PHASE_RUNNING;
		p->ready_at = failing_node(s, dsi_cstr(&s->c, node->meta.name)) ? -1 : s->now + s->o->sim_ready_after_ms;
		changed++;
	}
	return changed;
}

/* Apply the events due at s->now; returns how many there were. */
static int advance(sim *s)
{
	int changed = 0;
	size_t w = 0;
	for (size_t i = 0; i < s->n; i++) {
		pending *p = &s->v[i];
		dsi_pod *pod = dsi_cluster_pod(&s->c, p->ns, p->name);
		if (p->gone_at >= 0 && p->gone_at <= s->now) {
			if (pod)
				dsi_cluster_remove(&s->c, DSI_KIND_POD, NULL, dsi_cstr(&s->c, p->ns), dsi_cstr(&s->c, p->name),
						   s->err);
			changed++;
			continue; /* forget it */
		}
		if (p->ready_at >= 0 && p->ready_at <= s->now && pod && !pod->ready) {
			pod->ready = 1;
			pod->has_ready_time = 1;
			pod->ready_time = p->ready_at;
			p->ready_at = -1;
			changed++;
		}
		s->v[w++] = *p;
	}
	s->n = w;
	return changed;
}

/* The next time something happens by itself, or -1. */
static ds_time next_event(const sim *s, int64_t requeue_ms)
{
	ds_time t = -1;
	for (size_t i = 0; i < s->n; i++) {
		if (s->v[i].gone_at >= 0 && (t < 0 || s->v[i].gone_at < t))
			t = s->v[i].gone_at;
		if (s->v[i].ready_at >= 0 && (t < 0 || s->v[i].ready_at < t))
			t = s->v[i].ready_at;
	}
	/* a Ready pod turns available after minReadySeconds: the controller requeues for it */
	if (requeue_ms >= 0 && (t < 0 || s->now + requeue_ms < t))
		t = s->now + requeue_ms;
	return t;
}

static char *new_pod_name(sim *s, const dsi_plan_create *cr, char *buf, size_t size)
{
	snprintf(buf, size, "%s%05d", json_string_value(json_object_get(json_object_get(cr->pod, "metadata"), "generateName")),
		 s->seq++);
	return buf;
}

static int apply_plan(sim *s, const dsi_plan *p)
{
	dsi_cluster *c = &s->c;
	json_t *create = p->history ? json_object_get(p->history, "create") : NULL;
	if (create && dsi_cluster_load_value(c, create, NULL, s->err) < 0)
		return -1;
	uint32_t nc = p->ncreates < p->burst ? p->ncreates : p->burst;
	uint32_t nd = p->ndeletes < p->burst ? p->ndeletes : p->burst;
	char now[40];
	ds_time_format(s->now, now, sizeof(now));
	json_t *wave = json_pack("{s:s, s:[], s:[]}", "at", now, "creates", "deletes");
	for (uint32_t i = 0; i < nc; i++) {
		json_t *pod = json_deep_copy(p->creates[i].pod);
		json_t *m = json_object_get(pod, "metadata");
		char name[300], uid[320];
		new_pod_name(s, &p->creates[i], name, sizeof(name));
		snprintf(uid, sizeof(uid), "sim-%s", name);
		json_object_set_new(m, "name", json_string(name));
		json_object_set_new(m, "uid", json_string(uid));
		json_object_set_new(m, "creationTimestamp", json_string(now));
		json_object_set_new(pod, "status", json_pack("{s:s}", "phase", "Pending"));
		int rc = dsi_cluster_load_value(c, pod, NULL, s->err);
		json_decref(pod);
		if (rc < 0) {
			json_decref(wave);
			return -1;
		}
		pending *t = track(s, dsi_atom_lookup_cstr(&c->atoms, p->ns), dsi_atom_lookup_cstr(&c->atoms, name));
		if (!t) {
			json_decref(wave);
			return dsi_error_nomem(s->err);
		}
		json_array_append_new(json_object_get(wave, "creates"), json_string(p->creates[i].node));
	}
	for (uint32_t i = 0; i < nd; i++) {
		dsi_atom ns = dsi_atom_lookup_cstr(&c->atoms, p->deletes[i].ns);
		dsi_atom name = dsi_atom_lookup_cstr(&c->atoms, p->deletes[i].name);
		dsi_pod *pod = dsi_cluster_pod(c, ns, name);
		if (!pod || pod->meta.has_deletion)
			continue;
		pod->meta.has_deletion = 1; /* the kubelet stops it; it stays until terminated */
		pod->meta.deletion = s->now;
		pending *t = track(s, ns, name);
		if (!t) {
			json_decref(wave);
			return dsi_error_nomem(s->err);
		}
		/* an unbound pod has nothing to stop: it goes at once */
		t->gone_at = pod->spec.node_name ? s->now + s->o->sim_terminate_after_ms : s->now;
		t->ready_at = -1;
		json_array_append_new(json_object_get(wave, "deletes"), json_string(p->deletes[i].name));
	}
	s->creates += nc;
	s->deletes += nd;
	if (nc || nd)
		json_array_append_new(s->waves, wave);
	else
		json_decref(wave);
	/* storeDaemonSetStatus: the controller writes status; later syncs read it (Kruise's partition does) */
	if (p->status_changed)
		s->ds->status = p->status;
	dsi_backoff_free(&s->backoff);
	return dsi_backoff_copy(&p->backoff, &s->backoff) < 0 ? dsi_error_nomem(s->err) : 0;
}

/* Sample the state the budgets speak of: unavailable (desired - available) and surge (nodes with two pods). */
static int sample(sim *s, int32_t *updated_available, int32_t *desired)
{
	dsi_ds_status st;
	if (dsi_status_compute(&s->c, s->ds, s->now, s->o, &st, s->err) < 0)
		return -1;
	dsi_ds_pods pods;
	if (dsi_ds_pods_collect(&s->c, s->ds, 0, &pods) < 0)
		return dsi_error_nomem(s->err);
	/* surge as the budget counts it: nodes with two pods that are not being deleted */
	int32_t surge = 0;
	for (uint32_t i = 0; i < pods.nnodes; i++) {
		int live = 0;
		for (int32_t k = pods.first[i]; k >= 0; k = pods.next[k])
			live += !pods.v[k]->meta.has_deletion;
		surge += live > 1;
	}
	dsi_ds_pods_release(&pods);
	if (st.number_unavailable > s->max_unavailable_seen)
		s->max_unavailable_seen = st.number_unavailable;
	if (surge > s->max_surge_seen)
		s->max_surge_seen = surge;
	char now[40];
	ds_time_format(s->now, now, sizeof(now));
	json_array_append_new(s->timeline, json_pack("{s:s, s:i, s:i, s:i, s:i}", "at", now, "unavailable",
						     st.number_unavailable, "updated", st.updated_number_scheduled,
						     "available", st.number_available, "surge", surge));
	*desired = st.desired_number_scheduled;
	*updated_available = 0;
	/* done when every node that should run a pod runs exactly one, updated and available */
	dsi_history h;
	if (dsi_history_construct(&s->c, s->ds, 0, &h, s->err) < 0)
		return -1;
	dsi_revision_key key;
	dsi_revision_key_init(&s->c, s->ds, h.hash, &key);
	if (dsi_ds_pods_collect(&s->c, s->ds, 0, &pods) < 0) {
		dsi_history_release(&h);
		return dsi_error_nomem(s->err);
	}
	dsi_placement *pl = &s->place;
	size_t nn = dsi_cluster_count(&s->c, DSI_KIND_NODE);
	for (size_t i = 0; i < nn; i++) {
		const dsi_node *node = dsi_cluster_node_at(&s->c, i);
		dsi_verdict v;
		dsi_node_should_run(pl, node, &v);
		if (!v.should_run || pods.count[node->index] != 1)
			continue;
		const dsi_pod *pod = pods.v[pods.first[node->index]];
		if (dsi_pod_updated(&key, pod) && !pod->meta.has_deletion &&
		    dsi_pod_available(pod, s->ds->min_ready_seconds, s->now, s->o->k8s_minor)) {
			(*updated_available)++;
			const char *nn_s = dsi_cstr(&s->c, node->meta.name);
			if (!json_object_get(s->node_times, nn_s))
				json_object_set_new(s->node_times, nn_s, json_string(now));
		}
	}
	dsi_ds_pods_release(&pods);
	dsi_history_release(&h);
	return 0;
}

/* Why nothing moves any more. */
static json_t *stall_cause(sim *s, const dsi_plan *last)
{
	json_t *nodes = json_array();
	const char *reason = "the controller has nothing left to do but the rollout is not complete";
	for (size_t i = 0; i < s->n; i++) {
		dsi_pod *pod = dsi_cluster_pod(&s->c, s->v[i].ns, s->v[i].name);
		if (pod && !pod->spec.node_name) {
			reason = "new pods cannot be scheduled on their nodes (the scheduler's filters fail)";
			json_array_append_new(nodes, json_string(dsi_cstr(&s->c, pod->spec.target_node)));
		}
	}
	if (!json_array_size(nodes)) {
		dsi_ds_pods pods;
		if (dsi_ds_pods_collect(&s->c, s->ds, 0, &pods) == 0) {
			for (uint32_t i = 0; i < pods.n; i++) {
				const dsi_pod *p = pods.v[i];
				if (p->spec.node_name && !p->ready && !p->meta.has_deletion) {
					reason = "new pods never become Ready, and they hold the maxUnavailable budget";
					json_array_append_new(nodes, json_string(dsi_cstr(&s->c, p->spec.node_name)));
				}
			}
			dsi_ds_pods_release(&pods);
		}
	}
	if (last && last->rolling_paused)
		reason = "the rollout is paused";
	else if (last && last->partition >= 0 && !json_array_size(nodes))
		reason = "the partition keeps the remaining pods on the old revision";
	if (last && last->rolling_error)
		reason = last->rolling_error;
	return json_pack("{s:s, s:o}", "reason", reason, "nodes", nodes);
}

static void split_fail_nodes(sim *s)
{
	const char *list = s->o->sim_fail_nodes;
	if (!list || !*list)
		return;
	size_t n = 1;
	for (const char *p = list; *p; p++)
		n += *p == ',';
	s->fail_nodes = dsi_calloc(n, sizeof(char *));
	if (!s->fail_nodes)
		return;
	const char *p = list;
	while (*p) {
		size_t l = strcspn(p, ",");
		if (l && (s->fail_nodes[s->nfail] = dsi_strndup(p, l)))
			s->nfail++;
		p += l;
		if (*p == ',')
			p++;
	}
}

int dsi_simulate(const dsi_cluster *c, const dsi_daemonset *ds0, ds_time start, const dsi_options *o, json_t **out,
		 ds_error *err)
{
	*out = NULL;
	sim s;
	memset(&s, 0, sizeof(s));
	s.o = o;
	s.now = start;
	s.err = err;
	if (dsi_cluster_copy(c, &s.c, err) < 0)
		return err->code;
	char ns[256], name[256];
	snprintf(ns, sizeof(ns), "%s", dsi_cstr(c, ds0->meta.ns));
	snprintf(name, sizeof(name), "%s", dsi_cstr(c, ds0->meta.name));
	s.ds = dsi_cluster_daemonset(&s.c, ns, name);
	s.waves = json_array();
	s.timeline = json_array();
	s.node_times = json_object();
	dsi_backoff_init(&s.backoff);
	split_fail_nodes(&s);
	int rc = 0;
	const char *result = NULL;
	json_t *stall = NULL;
	dsi_plan last;
	memset(&last, 0, sizeof(last));
	int have_last = 0;
	if (!s.ds || !s.waves || !s.timeline || !s.node_times || dsi_placement_init(&s.place, &s.c, s.ds, o) < 0) {
		rc = dsi_error_nomem(err);
		goto done;
	}
	ds_time end = start + o->sim_max_time_ms;
	int32_t desired = 0, done_nodes = 0;
	if (sample(&s, &done_nodes, &desired) < 0) {
		rc = err->code;
		goto done;
	}
	s.initial_unavailable = s.max_unavailable_seen;
	for (;;) {
		/* the world moves, the scheduler binds, then the controller syncs until it settles */
		if (advance(&s) < 0 || schedule(&s) < 0) {
			rc = err->code ? err->code : dsi_error_nomem(err);
			break;
		}
		int settled = 0;
		for (int round = 0; round < 64 && !settled; round++) {
			if (have_last)
				dsi_plan_release(&last);
			have_last = 0;
			if ((rc = dsi_plan_sync(&s.c, s.ds, s.now, o, &s.backoff, &last, err)) < 0)
				break;
			have_last = 1;
			s.syncs++;
			if (!s.budget_unavailable && last.rolling_ran) {
				s.budget_unavailable = last.max_unavailable;
				s.budget_surge = last.max_surge;
			}
			settled = last.ncreates == 0 && last.ndeletes == 0;
			if ((rc = apply_plan(&s, &last)) < 0)
				break;
			if (!settled && (rc = schedule(&s)) < 0)
				break;
			rc = 0;
		}
		if (rc < 0)
			break;
		if (sample(&s, &done_nodes, &desired) < 0) {
			rc = err->code;
			break;
		}
		if (done_nodes == desired) {
			result = "complete";
			break;
		}
		ds_time t = next_event(&s, have_last ? last.requeue_ms : -1);
		if (t < 0 || t <= s.now) {
			result = (have_last && last.rolling_paused) ? "paused" : "stalled";
			stall = stall_cause(&s, have_last ? &last : NULL);
			break;
		}
		if (t > end) {
			result = "timeout";
			stall = stall_cause(&s, have_last ? &last : NULL);
			break;
		}
		s.now = t;
	}
	if (rc == 0) {
		char a[40], b[40];
		ds_time_format(start, a, sizeof(a));
		ds_time_format(s.now, b, sizeof(b));
		*out = json_pack("{s:{s:s, s:s}, s:s, s:s, s:s, s:f, s:I, s:I, s:I, s:i, s:i, s:i, s:i, s:b, s:i, s:i, s:i, s:o, s:o, s:o}",
				 "daemonSet", "namespace", ns, "name", name, "result", result, "start", a, "end", b,
				 "durationSeconds", (double)(s.now - start) / 1000.0, "syncs", (json_int_t)s.syncs, "creates",
				 (json_int_t)s.creates, "deletes", (json_int_t)s.deletes, "maxUnavailable",
				 s.budget_unavailable, "maxSurge", s.budget_surge, "maxUnavailableSeen",
				 s.max_unavailable_seen, "maxSurgeSeen", s.max_surge_seen, "budgetExceeded",
				 s.max_unavailable_seen > (s.budget_unavailable > 0 ? s.budget_unavailable : 0) &&
					 s.budget_surge == 0,
				 "desired", desired, "updated", done_nodes, "initialUnavailable", s.initial_unavailable, "waves", s.waves, "nodeUpdatedAt", s.node_times,
				 "timeline", s.timeline);
		s.waves = s.timeline = s.node_times = NULL;
		if (*out && stall)
			json_object_set_new(*out, "stall", stall), stall = NULL;
		if (!*out)
			rc = dsi_error_nomem(err);
	}
done:
	if (have_last)
		dsi_plan_release(&last);
	json_decref(stall);
	json_decref(s.waves);
	json_decref(s.timeline);
	json_decref(s.node_times);
	dsi_backoff_free(&s.backoff);
	dsi_placement_release(&s.place);
	for (size_t i = 0; i < s.nfail; i++)
		dsi_free(s.fail_nodes[i]);
	dsi_free(s.fail_nodes);
	dsi_free(s.v);
	dsi_cluster_destroy(&s.c);
	return rc;
}
