/*
 * Rollout simulation: plan -> apply -> time passes, on a private copy of the
 * snapshot, until the rollout completes or stalls. Every decision comes from
 * dsi_plan_sync, the same function a controller uses; this file only models
 * the world around the controller: the scheduler binds a pending pod when its
 * filters pass, the kubelet makes a pod Ready after simReadyAfter (never on
 * simFailNodes), a deleted pod goes away after simTerminateAfter, and every
 * pod change wakes the controller (as its informer would). Pods of the
 * snapshot that are Pending or terminating are in the same model, counted
 * from the start. The clock jumps from event to event, on a grid of simStep.
 *
 * The controller also wakes when its work queue hands the DaemonSet back after
 * a delay (AddAfter), which upstream asks for in three places, all modelled:
 * - updatePod (pkg/controller/daemon/daemon_controller.go): a pod of the
 *   DaemonSet turned Ready and minReadySeconds > 0: after minReadySeconds + 1s;
 * - updateDaemonSetStatus (same file): minReadySeconds > 0 and numberReady !=
 *   numberAvailable: after minReadySeconds;
 * - podsShouldBeOnNode (same file): a failed pod whose node is in backoff:
 *   after the backoff's delay.
 * The queue keeps one time per key, the earliest asked for (client-go
 * util/workqueue delaying_queue.go, insert), so a later AddAfter never pushes
 * an earlier one back and one that comes due later than the pending one is
 * dropped. The other enqueues are immediate (pod, node, history and DaemonSet
 * events), and a sync that fails is requeued with rate limiting, which the
 * simulation, where syncs do not fail, never needs.
 */
#include "daemon/simulate.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "core/time.h"
#include "daemon/availability.h"
#include "daemon/syncplan.h"
#include "daemon/status.h"
#include "sched/cycle.h"
#include "sched/fit.h"

/* No such time (times before 1970 are negative, so -1 will not do). */
#define NEVER INT64_MIN

/* A pod the simulation is waiting on. */
typedef struct pending {
	dsi_atom ns, name;
	ds_time ready_at; /* becomes Ready; NEVER: never, or not ours to make ready */
	ds_time gone_at;  /* deleted: disappears; NEVER: not deleted */
	uint8_t bound;
} pending;

typedef struct sim {
	dsi_cluster c; /* the private copy */
	dsi_daemonset *ds;
	const dsi_daemon_cfg *o;
	ds_time now;
	pending *v;
	size_t n, cap;
	dsi_backoff backoff;
	json_t *waves, *timeline, *node_times;
	int32_t max_unavailable_seen, max_surge_seen, budget_unavailable, budget_surge;
	int32_t initial_unavailable, initial_surge; /* before the controller acted: not the rollout's doing */
	uint8_t rolling_ran;                        /* some sync ran the rolling update (the budgets are its) */
	uint64_t syncs, creates, deletes;
	/* the work queue's delayed entry for the DaemonSet (AddAfter): when, who asked, and when */
	ds_time wake_at, wake_set;
	const char *wake_by;
	char wake_pod[256];
	json_t *requeue_fired; /* the requeue that woke the controller at this instant, for the timeline */
	json_t *requeues;      /* every requeue that came due */
	char reason[300];      /* a stall's reason, when it is made up */
	int seq;
	ds_error *err;
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
	p->ready_at = p->gone_at = NEVER;
	return p;
}

/* The times RFC 3339 can write (years 0000 to 9999): the pods the simulation
 * creates carry the clock in creationTimestamp, so it stays within them. */
#define SIM_TIME_MIN (-62167219200000LL) /* 0000-01-01T00:00:00Z */
#define SIM_TIME_MAX 253402300799999LL   /* 9999-12-31T23:59:59.999Z */

/* a + b for b >= 0, saturating: huge durations must not overflow the clock */
static ds_time add_ms(ds_time a, int64_t b)
{
	if (b < 0)
		b = 0;
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* AddAfter(key, ms) on the controller's queue at time from: the earliest time wins
 * (delaying_queue.go insert). */
static void add_after(sim *s, ds_time from, int64_t ms, const char *by, const char *pod)
{
	ds_time t = add_ms(from, ms);
	if (s->wake_at != NEVER && s->wake_at <= t)
		return;
	s->wake_at = t;
	s->wake_set = from;
	s->wake_by = by;
	snprintf(s->wake_pod, sizeof(s->wake_pod), "%s", pod ? pod : "");
}

/* The delayed entry comes due at s->now: the controller is woken (it syncs this round in any case);
 * the requeue is noted for the timeline. 0, or DS_ENOMEM. */
static int wake(sim *s)
{
	if (s->wake_at == NEVER || s->wake_at > s->now)
		return 0;
	char set[40], due[40];
	dsi_time_format(s->wake_set, set, sizeof(set));
	dsi_time_format(s->wake_at, due, sizeof(due));
	json_t *r = json_pack("{s:s, s:s, s:s, s:f}", "by", s->wake_by, "requestedAt", set, "dueAt", due,
			      "afterSeconds", (double)(s->wake_at - s->wake_set) / 1000.0);
	if (r && s->wake_pod[0])
		json_object_set_new(r, "pod", json_string(s->wake_pod));
	s->wake_at = NEVER;
	if (!r || json_array_append(s->requeues, r) < 0) {
		json_decref(r);
		return dsi_error_nomem(s->err);
	}
	json_decref(s->requeue_fired);
	s->requeue_fired = r;
	return 0;
}

/* Is node listed in simFailNodes ("a,b,c"; empty items never match)? Read in
 * place: nothing to allocate, so nothing can fail. */
static int failing_node(const sim *s, const char *node)
{
	const char *p = s->o->daemon->sim_fail_nodes;
	size_t len = strlen(node);
	while (p && *p) {
		size_t l = strcspn(p, ",");
		if (l && l == len && memcmp(p, node, l) == 0)
			return 1;
		p += l;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* A pod waiting to be bound, and the node it is pinned to. */
typedef struct unbound {
	dsi_pod *pod;
	const dsi_node *node;
	pending *p;
} unbound;

static int by_node_index(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	uint32_t x = ((const unbound *)a)->node->index, y = ((const unbound *)b)->node->index;
	return (x > y) - (x < y);
}

/* Bind pending pods whose node has room (the scheduler's Filter for each on its pinned node),
 * in the order they were created; returns how many were bound, or an error code. The pods are
 * grouped by node, so that a node's usage is summed once per call and grows with each pod bound
 * there: summing it again for every pod made each step quadratic in the pods a full node holds. */
static int schedule(sim *s)
{
	unbound *w = NULL;
	size_t nw = 0, cap = 0;
	for (size_t i = 0; i < s->n; i++) {
		pending *p = &s->v[i];
		if (p->bound || p->gone_at != NEVER)
			continue;
		dsi_pod *pod = dsi_cluster_pod(&s->c, p->ns, p->name);
		if (!pod || pod->spec.node_name) {
			p->bound = 1;
			continue;
		}
		const dsi_node *node = dsi_cluster_node(&s->c, pod->spec.target_node);
		if (!node)
			continue;
		if (DSI_GROW(w, cap, nw + 1) < 0) {
			dsi_free(w);
			return dsi_error_nomem(s->err);
		}
		w[nw++] = (unbound){pod, node, p};
	}
	dsi_sort_stable(w, nw, sizeof(*w), by_node_index, NULL);
	int changed = 0, rc = 0;
	/* one scheduling cycle's PreFilter for the pass; each bound pod is added to it (AddPod), as the
	 * next cycle's PreFilter would count it */
	dsi_cycle cy;
	dsi_sched_pod sp = {&s->c.atoms,
			    s->ds->meta.ns,
			    &s->ds->template_labels,
			    &s->ds->tspec,
			    &s->place.tolerations,
			    s->place.comparison_ops,
			    1,
			    DSI_ATOM_NONE,
			    DSI_ATOM_NONE,
			    0,
			    s->place.gates};
	if (nw && dsi_cycle_init(&cy, &s->c, &sp, NULL, NULL) < 0) {
		dsi_free(w);
		return dsi_error_nomem(s->err);
	}
	for (size_t k = 0; k < nw && rc == 0;) {
		const dsi_node *node = w[k].node;
		size_t end = k;
		while (end < nw && w[end].node == node)
			end++;
		dsi_node_usage u;
		if (dsi_node_usage_init(&s->c, node, NULL, NULL, &u) < 0) {
			rc = dsi_error_nomem(s->err);
			break;
		}
		const char *node_name = dsi_cstr(&s->c, node->meta.name);
		for (; k < end && rc == 0; k++) {
			dsi_fit fit;
			dsi_run_filters(&s->c, &s->c.atoms, &s->ds->tspec, &s->place.tolerations,
					s->place.comparison_ops, node, &u, &cy, &fit);
			if (!dsi_fit_ok(&fit))
				continue;
			dsi_pod *pod = w[k].pod;
			if (dsi_cluster_bind_pod(&s->c, pod, pod->spec.target_node) < 0 ||
			    dsi_node_usage_add_pod(&u, &pod->spec, 1) < 0 || dsi_node_usage_add_volumes(&u, pod) < 0 ||
			    dsi_cycle_update(&cy, &s->c, pod, node, 1) < 0) {
				rc = dsi_error_nomem(s->err);
				break;
			}
			w[k].p->bound = 1;
			pod->phase = DSI_PHASE_RUNNING;
			w[k].p->ready_at =
				failing_node(s, node_name) ? NEVER : add_ms(s->now, s->o->daemon->sim_ready_after_ms);
			changed++;
		}
		dsi_node_usage_release(&u);
		k = end;
	}
	if (nw)
		dsi_cycle_release(&cy);
	dsi_free(w);
	return rc < 0 ? rc : changed;
}

/* Apply the events due at s->now; returns how many there were, or an error code. Every
 * event due is consumed (an entry whose pod is gone, or that waits for
 * nothing any more, is forgotten), so that the clock can never stick. */
static int advance(sim *s)
{
	int changed = 0;
	size_t w = 0;
	for (size_t i = 0; i < s->n; i++) {
		pending *p = &s->v[i];
		dsi_pod *pod = dsi_cluster_pod(&s->c, p->ns, p->name);
		if (!pod)
			continue;
		if (p->gone_at != NEVER && p->gone_at <= s->now) {
			if (dsi_cluster_remove(&s->c, DSI_KIND_POD, NULL, dsi_cstr(&s->c, p->ns),
					       dsi_cstr(&s->c, p->name), s->err) < 0)
				return s->err->code;
			changed++;
			continue; /* forget it */
		}
		if (p->ready_at != NEVER && p->ready_at <= s->now) {
			if (!pod->ready) {
				pod->ready = 1;
				pod->has_ready_time = 1;
				pod->ready_time = p->ready_at;
				if (pod->phase == DSI_PHASE_NONE || pod->phase == DSI_PHASE_PENDING)
					pod->phase = DSI_PHASE_RUNNING;
				/* updatePod: changedToReady && minReadySeconds > 0 ("add a second to avoid
				 * milliseconds skew in AddAfter") */
				if (s->ds->min_ready_seconds > 0)
					add_after(s, s->now, (int64_t)s->ds->min_ready_seconds * 1000 + 1000,
						  "updatePod", dsi_cstr(&s->c, pod->meta.name));
			}
			p->ready_at = NEVER;
			changed++;
		}
		if (p->bound && p->ready_at == NEVER && p->gone_at == NEVER)
			continue; /* nothing left to wait for */
		s->v[w++] = *p;
	}
	s->n = w;
	return changed;
}

/* Pods of the snapshot that are on their way: a Pending daemon pod (phase
 * Pending, or no phase yet, as the API server would set it) becomes Ready
 * simReadyAfter after the start once bound (never on simFailNodes); a
 * terminating pod of any owner goes away simTerminateAfter after the start
 * (at once if it was never bound, as the API server deletes an unbound pod). */
static int track_snapshot(sim *s)
{
	dsi_ds_pods pods;
	if (dsi_ds_pods_collect(&s->c, s->ds, 0, &pods) < 0)
		return dsi_error_nomem(s->err);
	int rc = 0;
	for (uint32_t i = 0; i < pods.n && rc == 0; i++) {
		const dsi_pod *pod = pods.v[i];
		/* a pod that turned Ready before the start and is not yet available: updatePod asked then
		 * for a sync minReadySeconds + 1s later, which may still be to come */
		if (pod->ready && !pod->meta.has_deletion && pod->has_ready_time && s->ds->min_ready_seconds > 0 &&
		    add_ms(pod->ready_time, (int64_t)s->ds->min_ready_seconds * 1000 + 1000) > s->now)
			add_after(s, pod->ready_time, (int64_t)s->ds->min_ready_seconds * 1000 + 1000, "updatePod",
				  dsi_cstr(&s->c, pod->meta.name));
		if (pod->meta.has_deletion || pod->ready ||
		    (pod->phase != DSI_PHASE_PENDING && pod->phase != DSI_PHASE_NONE))
			continue;
		pending *t = track(s, pod->meta.ns, pod->meta.name);
		if (!t) {
			rc = dsi_error_nomem(s->err);
			break;
		}
		if (pod->spec.node_name) {
			t->bound = 1;
			t->ready_at = failing_node(s, dsi_cstr(&s->c, pod->spec.node_name))
					      ? NEVER
					      : add_ms(s->now, s->o->daemon->sim_ready_after_ms);
		}
	}
	dsi_ds_pods_release(&pods);
	size_t np = dsi_cluster_count(&s->c, DSI_KIND_POD);
	for (size_t i = 0; i < np && rc == 0; i++) {
		const dsi_pod *pod = s->c.objs[DSI_KIND_POD].v[i];
		if (!pod->meta.has_deletion)
			continue;
		pending *t = track(s, pod->meta.ns, pod->meta.name);
		if (!t) {
			rc = dsi_error_nomem(s->err);
			break;
		}
		t->bound = 1;
		t->ready_at = NEVER;
		t->gone_at = pod->spec.node_name ? add_ms(s->now, s->o->daemon->sim_terminate_after_ms) : s->now;
	}
	return rc;
}

/* The next time something happens by itself (a pod Ready or gone, the queue's delayed entry), or
 * NEVER. */
static ds_time next_event(const sim *s)
{
	ds_time t = s->wake_at;
	for (size_t i = 0; i < s->n; i++) {
		if (s->v[i].gone_at != NEVER && (t == NEVER || s->v[i].gone_at < t))
			t = s->v[i].gone_at;
		if (s->v[i].ready_at != NEVER && (t == NEVER || s->v[i].ready_at < t))
			t = s->v[i].ready_at;
	}
	return t;
}

/* simStep: the simulation looks at the world at start, start + simStep, ...
 * (a time-stepped simulation, or a controller that notices changes only every
 * simStep); an event between two looks is handled at the next one. */
static ds_time on_step(ds_time start, ds_time t, int64_t step)
{
	if (step <= 1 || t <= start)
		return t;
	int64_t d = t - start, r = d % step;
	if (r)
		d = d > INT64_MAX - (step - r) ? INT64_MAX : d + (step - r);
	return add_ms(start, d);
}

/* The name the API server gives the pod: its generateName and a suffix (new string, NULL without memory). */
static char *new_pod_name(sim *s, const dsi_plan_create *cr)
{
	const char *prefix = json_string_value(json_object_get(json_object_get(cr->pod, "metadata"), "generateName"));
	return dsi_format("%s%05d", prefix ? prefix : "", s->seq++);
}

static int apply_plan(sim *s, const dsi_plan *p)
{
	dsi_cluster *c = &s->c;
	const json_t *create = p->history.create;
	if (create && dsi_cluster_load_value(c, create, NULL, s->err) < 0)
		return s->err->code;
	uint32_t nc = p->ncreates < p->burst ? p->ncreates : p->burst;
	uint32_t nd = p->ndeletes < p->burst ? p->ndeletes : p->burst;
	char now[40];
	dsi_time_format(s->now, now, sizeof(now));
	json_t *wave = json_pack("{s:s, s:[], s:[]}", "at", now, "creates", "deletes");
	for (uint32_t i = 0; i < nc; i++) {
		json_t *pod = json_deep_copy(p->creates[i].pod);
		json_t *m = json_object_get(pod, "metadata");
		char *name = new_pod_name(s, &p->creates[i]), *uid = name ? dsi_format("sim-%s", name) : NULL;
		if (!uid) {
			dsi_free(name);
			json_decref(pod);
			json_decref(wave);
			return dsi_error_nomem(s->err);
		}
		json_object_set_new(m, "name", json_string(name));
		json_object_set_new(m, "uid", json_string(uid));
		json_object_set_new(m, "creationTimestamp", json_string(now));
		json_object_set_new(pod, "status", json_pack("{s:s}", "phase", "Pending"));
		int rc = dsi_cluster_load_value(c, pod, NULL, s->err);
		json_decref(pod);
		dsi_atom ns = dsi_atom_lookup_id(&c->atoms, p->ns), an = dsi_atom_lookup_id(&c->atoms, name);
		dsi_free(name);
		dsi_free(uid);
		if (rc < 0) {
			json_decref(wave);
			return rc;
		}
		pending *t = track(s, ns, an);
		if (!t) {
			json_decref(wave);
			return dsi_error_nomem(s->err);
		}
		json_array_append_new(json_object_get(wave, "creates"), json_string(p->creates[i].node));
	}
	for (uint32_t i = 0; i < nd; i++) {
		dsi_atom ns = dsi_atom_lookup_id(&c->atoms, p->deletes[i].ns);
		dsi_atom name = dsi_atom_lookup_id(&c->atoms, p->deletes[i].name);
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
		t->gone_at = pod->spec.node_name ? add_ms(s->now, s->o->daemon->sim_terminate_after_ms) : s->now;
		t->ready_at = NEVER;
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

static int rolling_unavailable(sim *s, int32_t *out);

/* Sample the state the budgets speak of: unavailable as the rolling update counts it (a terminating
 * pod does not count, though the status still calls it available while it is Ready) and surge
 * (nodes with two pods that are not being deleted). The timeline also has the status's count. */
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
	int32_t unavailable;
	if (rolling_unavailable(s, &unavailable) < 0)
		return -1;
	if (unavailable > s->max_unavailable_seen)
		s->max_unavailable_seen = unavailable;
	if (surge > s->max_surge_seen)
		s->max_surge_seen = surge;
	char now[40];
	dsi_time_format(s->now, now, sizeof(now));
	json_t *entry = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i}", "at", now, "unavailable", st.number_unavailable,
				  "unavailableForBudget", unavailable, "updated", st.updated_number_scheduled,
				  "available", st.number_available, "surge", surge);
	/* what woke the controller at this instant, when its queue did */
	if (entry && s->requeue_fired)
		json_object_set(entry, "requeue", s->requeue_fired);
	json_decref(s->requeue_fired);
	s->requeue_fired = NULL;
	json_array_append_new(s->timeline, entry);
	*desired = st.desired_number_scheduled;
	*updated_available = 0;
	/* done when every node that should run a pod runs exactly one, updated and available */
	dsi_history h;
	if (dsi_history_construct(&s->c, s->ds, s->o->daemon->revision_hash, 0, &h, s->err) < 0)
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
		    dsi_pod_available(pod, s->ds->min_ready_seconds, s->now, s->o->core->k8s_minor)) {
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

/* Unavailable nodes for the maxUnavailable budget: nodes that should run a daemon pod and have
 * no available pod that is not terminating. rollingUpdate (update.go) does not see terminating
 * pods (findUpdatedPodsOnNode), so a node whose old pod is being deleted is unavailable until the
 * new one is available, although the status still counts the old one while it is Ready. With
 * maxSurge, a node whose old pod still serves while the new one starts is not unavailable. */
static int rolling_unavailable(sim *s, int32_t *out)
{
	dsi_ds_pods pods;
	if (dsi_ds_pods_collect(&s->c, s->ds, 0, &pods) < 0)
		return dsi_error_nomem(s->err);
	int32_t n = 0;
	size_t nn = dsi_cluster_count(&s->c, DSI_KIND_NODE);
	for (size_t i = 0; i < nn; i++) {
		const dsi_node *node = dsi_cluster_node_at(&s->c, i);
		dsi_verdict v;
		dsi_node_should_run(&s->place, node, &v);
		if (!v.should_run)
			continue;
		int available = 0;
		for (int32_t k = node->index < pods.nnodes ? pods.first[node->index] : -1; k >= 0 && !available;
		     k = pods.next[k]) {
			const dsi_pod *pod = pods.v[k];
			available = !pod->meta.has_deletion &&
				    dsi_pod_available(pod, s->ds->min_ready_seconds, s->now, s->o->core->k8s_minor);
		}
		n += !available;
	}
	dsi_ds_pods_release(&pods);
	*out = n;
	return 0;
}

static void add_node(json_t *nodes, const char *name)
{
	for (size_t i = 0; i < json_array_size(nodes); i++)
		if (strcmp(json_string_value(json_array_get(nodes, i)), name) == 0)
			return;
	json_array_append_new(nodes, json_string(name));
}

static const char *pod_node(const sim *s, const dsi_pod *pod)
{
	return dsi_cstr(&s->c, pod->spec.node_name ? pod->spec.node_name : pod->spec.target_node);
}

/* "<what> maxSurge budget (1): ..." or the maxUnavailable one: the budget that binds. A rollout that
 * surges (maxSurge > 0, rollingUpdate's surge path in update.go) replaces a node only while fewer
 * than maxSurge nodes have a new pod that is not yet available; without surge, a node counts
 * against maxUnavailable while it has no available pod. */
static const char *budget_reason(sim *s, const dsi_plan *last, const char *what)
{
	char *buf = s->reason;
	int surge = last && last->rolling_ran ? last->max_surge > 0 : s->budget_surge > 0;
	int32_t n = surge ? (last && last->rolling_ran ? last->max_surge : s->budget_surge)
			  : (last && last->rolling_ran ? last->max_unavailable : s->budget_unavailable);
	snprintf(buf, sizeof(s->reason), "%s %s budget (%d): %s", what, surge ? "maxSurge" : "maxUnavailable", (int)n,
		 surge ? "no other node gets a new pod until one of them is available"
		       : "no other old pod is deleted until one of them is available");
	return buf;
}

/* Why nothing moves any more: the first that applies of the rolling update's
 * error, a pause, the partition (when no node is listed), then pods that cannot
 * be scheduled, old pods under OnDelete, pods that never become Ready, Ready
 * pods waiting for minReadySeconds with nothing to wake the controller. */
static json_t *stall_cause(sim *s, const dsi_plan *last)
{
	json_t *nodes = json_array();
	const char *reason = "the controller has nothing left to do but the rollout is not complete";
	for (size_t i = 0; i < s->n; i++) {
		dsi_pod *pod = dsi_cluster_pod(&s->c, s->v[i].ns, s->v[i].name);
		if (pod && !pod->spec.node_name && !pod->meta.has_deletion) {
			reason = "new pods cannot be scheduled on their nodes (the scheduler's filters fail)";
			add_node(nodes, dsi_cstr(&s->c, pod->spec.target_node));
		}
	}
	dsi_ds_pods pods;
	if (!json_array_size(nodes) && dsi_ds_pods_collect(&s->c, s->ds, 0, &pods) == 0) {
		if (last && s->ds->strategy == DSI_STRATEGY_ON_DELETE) {
			dsi_revision_key key;
			dsi_revision_key_init(&s->c, s->ds, last->hash, &key);
			for (uint32_t i = 0; i < pods.n; i++)
				if (!pods.v[i]->meta.has_deletion && !dsi_pod_updated(&key, pods.v[i]))
					add_node(nodes, pod_node(s, pods.v[i]));
			if (json_array_size(nodes))
				reason = "the update strategy is OnDelete: old pods are replaced only when they are "
					 "deleted";
		}
		for (uint32_t i = 0; i < pods.n && !json_array_size(nodes); i++) {
			const dsi_pod *p = pods.v[i];
			if (p->spec.node_name && !p->ready && !p->meta.has_deletion) {
				reason = budget_reason(s, last, "new pods never become Ready, and they hold the");
				for (uint32_t k = i; k < pods.n; k++)
					if (pods.v[k]->spec.node_name && !pods.v[k]->ready &&
					    !pods.v[k]->meta.has_deletion)
						add_node(nodes, dsi_cstr(&s->c, pods.v[k]->spec.node_name));
			}
		}
		/* updateDaemonSetStatus requeues after minReadySeconds only when the status's
		 * (oldest) pod of a node is Ready but not available: a surged pod is not it */
		for (uint32_t i = 0; i < pods.n && !json_array_size(nodes); i++) {
			const dsi_pod *p = pods.v[i];
			if (p->ready && !p->meta.has_deletion &&
			    !dsi_pod_available(p, s->ds->min_ready_seconds, s->now, s->o->core->k8s_minor)) {
				reason =
					"pods are Ready but not yet available (minReadySeconds), and nothing makes the "
					"controller sync again when they become available";
				for (uint32_t k = i; k < pods.n; k++)
					if (pods.v[k]->ready && !pods.v[k]->meta.has_deletion &&
					    !dsi_pod_available(pods.v[k], s->ds->min_ready_seconds, s->now,
							       s->o->core->k8s_minor))
						add_node(nodes, pod_node(s, pods.v[k]));
			}
		}
		dsi_ds_pods_release(&pods);
	}
	if (last && last->rolling_paused)
		reason = "the rollout is paused";
	else if (last && last->partition >= 0 && !json_array_size(nodes))
		reason = "the partition keeps the remaining pods on the old revision";
	if (last && last->rolling_error)
		reason = last->rolling_error;
	return json_pack("{s:s, s:o}", "reason", reason, "nodes", nodes);
}

/* What the simulation was still waiting for when it reached simMaxTime: the
 * first of pods terminating, pods becoming Ready, Ready pods becoming
 * available (minReadySeconds), a requeue (failed-pod backoff). */
static json_t *timeout_cause(sim *s)
{
	json_t *nodes = json_array();
	const char *reason = NULL;
	for (int pass = 0; pass < 2 && !reason; pass++) {
		for (size_t i = 0; i < s->n; i++) {
			const pending *p = &s->v[i];
			dsi_pod *pod = dsi_cluster_pod(&s->c, p->ns, p->name);
			if (pod && (pass == 0 ? p->gone_at != NEVER : p->ready_at != NEVER))
				add_node(nodes, pod_node(s, pod));
		}
		if (json_array_size(nodes))
			reason = pass == 0 ? "pods are still terminating at the time limit (simMaxTime)"
					   : "waiting for pods to become Ready at the time limit (simMaxTime)";
	}
	if (!reason) {
		dsi_ds_pods pods;
		if (dsi_ds_pods_collect(&s->c, s->ds, 0, &pods) == 0) {
			for (uint32_t i = 0; i < pods.n; i++) {
				const dsi_pod *p = pods.v[i];
				if (p->ready && !p->meta.has_deletion &&
				    !dsi_pod_available(p, s->ds->min_ready_seconds, s->now, s->o->core->k8s_minor))
					add_node(nodes, pod_node(s, p));
			}
			dsi_ds_pods_release(&pods);
		}
		reason = json_array_size(nodes) ? "waiting for pods to become available (minReadySeconds) at the time "
						  "limit (simMaxTime)"
						: "waiting for failed pods' backoff at the time limit (simMaxTime)";
	}
	return json_pack("{s:s, s:o}", "reason", reason, "nodes", nodes);
}

int dsi_simulate(const dsi_cluster *c, const dsi_daemonset *ds0, ds_time start, const dsi_daemon_cfg *o, json_t **out,
		 ds_error *err)
{
	*out = NULL;
	if (start < SIM_TIME_MIN || start > SIM_TIME_MAX)
		return dsi_error_set(
			err, DS_EVALUE, "start",
			"expected a start time between 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, got %lld "
			"ms since the epoch",
			(long long)start);
	/* ValidateDaemonSetSpec refuses such a DaemonSet; simulated, each pod it creates is released by
	 * the next sync (it does not match), so the rollout would only create pods without end. */
	if (!ds0->selector_empty && !dsi_selector_matches(&c->atoms, &ds0->selector, &ds0->template_labels))
		return dsi_error_set(err, DS_EINVALID, "spec.template.metadata.labels",
				     "`selector` does not match template `labels`");
	sim s;
	memset(&s, 0, sizeof(s));
	s.o = o;
	s.now = start;
	s.err = err;
	if (dsi_cluster_copy(c, &s.c, err) < 0)
		return err->code;
	/* the caller's snapshot outlives the simulation: its strings serve (names have no length
	 * limit here; a copy into a fixed buffer cut a long one and the lookup failed) */
	const char *ns = dsi_cstr(c, ds0->meta.ns), *name = dsi_cstr(c, ds0->meta.name);
	s.ds = dsi_cluster_daemonset(&s.c, ns, name);
	s.waves = json_array();
	s.timeline = json_array();
	s.requeues = json_array();
	s.wake_at = NEVER;
	s.node_times = json_object();
	dsi_backoff_init(&s.backoff);
	int rc = 0;
	const char *result = NULL;
	json_t *stall = NULL;
	dsi_plan last;
	memset(&last, 0, sizeof(last));
	char *first_warning = NULL;
	int have_last = 0;
	if (!s.ds || !s.waves || !s.timeline || !s.node_times || !s.requeues ||
	    dsi_placement_init(&s.place, &s.c, s.ds, o->core) < 0) {
		rc = dsi_error_nomem(err);
		goto done;
	}
	ds_time end = add_ms(start, o->daemon->sim_max_time_ms);
	if (end > SIM_TIME_MAX)
		end = SIM_TIME_MAX;
	int32_t desired = 0, done_nodes = 0, unavailable = 0;
	if (sample(&s, &done_nodes, &desired) < 0 || (rc = rolling_unavailable(&s, &unavailable)) < 0 ||
	    (rc = track_snapshot(&s)) < 0) {
		rc = err->code;
		goto done;
	}
	/* what was unavailable or surging before the controller acted is not the rollout's doing */
	s.initial_unavailable = s.max_unavailable_seen > unavailable ? s.max_unavailable_seen : unavailable;
	s.initial_surge = s.max_surge_seen;
	/* Rounds at one instant: each consumes an event (a pod Ready or gone), and
	 * a rollout has at most a few per pod and node; beyond that it loops. */
	const uint64_t max_rounds = 2 * (uint64_t)dsi_cluster_count(&s.c, DSI_KIND_POD) +
				    4 * (uint64_t)dsi_cluster_count(&s.c, DSI_KIND_NODE) + 64;
	uint64_t rounds = 0;
	for (;;) {
		/* the world moves, the scheduler binds, then the controller syncs until it settles */
		if ((rc = wake(&s)) < 0 || (rc = advance(&s)) < 0 || (rc = schedule(&s)) < 0)
			break;
		rc = 0;
		int settled = 0;
		for (int round = 0; round < 64 && !settled; round++) {
			if (have_last)
				dsi_plan_release(&last);
			have_last = 0;
			if ((rc = dsi_plan_sync(&s.c, s.ds, s.now, o, &s.backoff, &last, err)) < 0)
				break;
			if (last.warning && !first_warning && !(first_warning = dsi_strdup(last.warning))) {
				rc = dsi_error_nomem(err);
				break;
			}
			have_last = 1;
			s.syncs++;
			if (!s.rolling_ran && last.rolling_ran) {
				s.rolling_ran = 1;
				s.budget_unavailable = last.max_unavailable;
				s.budget_surge = last.max_surge;
			}
			settled = last.ncreates == 0 && last.ndeletes == 0;
			if ((rc = apply_plan(&s, &last)) < 0)
				break;
			/* the sync's own AddAfter: updateDaemonSetStatus, failed pods in backoff */
			if (last.requeue_ms >= 0)
				add_after(&s, s.now, last.requeue_ms, last.requeue_cause, NULL);
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
		ds_time t = next_event(&s);
		if (t == NEVER) {
			result = (have_last && last.rolling_paused) ? "paused" : "stalled";
			stall = stall_cause(&s, have_last ? &last : NULL);
			break;
		}
		if (t <= s.now) {
			/* something is due at this very instant (a duration of 0, an unbound pod
			 * deleted): another round, without moving the clock */
			if (++rounds <= max_rounds)
				continue;
			result = "stalled";
			stall = json_pack("{s:s, s:[]}", "reason",
					  "the simulation does not settle: events keep falling due at the same instant",
					  "nodes");
			break;
		}
		if (t <= end)
			t = on_step(start, t, o->daemon->sim_step_ms);
		if (t > end) {
			result = "timeout";
			stall = timeout_cause(&s);
			break;
		}
		s.now = t;
		rounds = 0;
	}
	if (rc == 0) {
		char a[40], b[40];
		dsi_time_format(start, a, sizeof(a));
		dsi_time_format(s.now, b, sizeof(b));
		/* budgetExceeded: rollingUpdate (update.go) counts every unavailable node against
		 * maxUnavailable and replaces an unavailable old pod without counting it against
		 * maxSurge, so only what goes beyond the budget and the state at the start is the
		 * controller's doing; without a rolling update there is no budget to exceed */
		int32_t unavailable_limit =
			s.budget_unavailable > s.initial_unavailable ? s.budget_unavailable : s.initial_unavailable;
		int64_t surge_limit = (int64_t)(s.budget_surge > s.initial_surge ? s.budget_surge : s.initial_surge) +
				      s.initial_unavailable;
		int exceeded = s.rolling_ran &&
			       (s.max_unavailable_seen > unavailable_limit || (int64_t)s.max_surge_seen > surge_limit);
		*out = json_pack(
			"{s:{s:s, s:s}, s:s, s:s, s:s, s:f, s:I, s:I, s:I, s:i, s:i, s:i, s:i, s:b, s:i, s:i, s:i, "
			"s:i, s:o, s:o, s:o}",
			"daemonSet", "namespace", ns, "name", name, "result", result, "start", a, "end", b,
			"durationSeconds", (double)(s.now - start) / 1000.0, "syncs", (json_int_t)s.syncs, "creates",
			(json_int_t)s.creates, "deletes", (json_int_t)s.deletes, "maxUnavailable", s.budget_unavailable,
			"maxSurge", s.budget_surge, "maxUnavailableSeen", s.max_unavailable_seen, "maxSurgeSeen",
			s.max_surge_seen, "budgetExceeded", exceeded, "desired", desired, "updated", done_nodes,
			"initialUnavailable", s.initial_unavailable, "initialSurge", s.initial_surge, "waves", s.waves,
			"nodeUpdatedAt", s.node_times, "timeline", s.timeline);
		s.waves = s.timeline = s.node_times = NULL;
		if (*out)
			json_object_set(*out, "requeues", s.requeues);
		/* what the lifecycle model assumes (the options sim*): a reader should see them beside the result */
		json_t *fail = json_array();
		for (const char *p = o->daemon->sim_fail_nodes; fail && p && *p;) {
			size_t n = strcspn(p, ",");
			if (n)
				json_array_append_new(fail, json_stringn(p, n));
			p += n + (p[n] == ',');
		}
		if (*out)
			json_object_set_new(
				*out, "assumptions",
				json_pack("{s:f, s:f, s:f, s:f, s:o, s:s}", "readyAfterSeconds",
					  (double)o->daemon->sim_ready_after_ms / 1000.0, "terminateAfterSeconds",
					  (double)o->daemon->sim_terminate_after_ms / 1000.0, "stepSeconds",
					  (double)o->daemon->sim_step_ms / 1000.0, "maxTimeSeconds",
					  (double)o->daemon->sim_max_time_ms / 1000.0, "failNodes",
					  fail ? fail : json_array(), "scheduler",
					  "a pod is bound when the scheduler's filters pass on its node with the "
					  "pods bound there (resources, host ports, taints, affinity); a bound "
					  "pod is Ready readyAfterSeconds later, unless its node is in failNodes; "
					  "a deleted pod is gone terminateAfterSeconds later"));
		if (*out && first_warning)
			json_object_set_new(*out, "warnings", json_pack("[s]", first_warning));
		if (*out && stall)
			json_object_set_new(*out, "stall", stall), stall = NULL;
		if (!*out)
			rc = dsi_error_nomem(err);
	}
done:
	if (have_last)
		dsi_plan_release(&last);
	dsi_free(first_warning);
	json_decref(stall);
	json_decref(s.waves);
	json_decref(s.timeline);
	json_decref(s.requeues);
	json_decref(s.requeue_fired);
	json_decref(s.node_times);
	dsi_backoff_free(&s.backoff);
	dsi_placement_release(&s.place);
	dsi_free(s.v);
	dsi_cluster_destroy(&s.c);
	return rc;
}
