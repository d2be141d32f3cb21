/* One sync of the DaemonSet controller as a plan: syncDaemonSet (pkg/controller/daemon/daemon_controller.go),
 * constructHistory and cleanupHistory (update.go), syncNodes' pods, and the plan's records. manage.c and
 * rollingupdate.c are the passes between; planjson.c writes the plan out. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "daemon/newpod.h"
#include "daemon/status.h"
#include "daemon/syncpass.h"

static const char *const delete_reasons[DSI_DEL_COUNT] = {
	"failed",
	"succeeded",
	"not-wanted",
	"duplicate",
	"node-gone",
	"update",
	"update-unavailable",
	"surge-replaced",
	"surge-scheduling-constraints",
};

const char *dsi_delete_reason_name(int r) { return r >= 0 && r < DSI_DEL_COUNT ? delete_reasons[r] : ""; }

const char *dsi_plan_skip_name(dsi_plan_skip k)
{
	switch (k) {
	case DSI_SKIP_SELECTING_ALL: return "SelectingAll";
	case DSI_SKIP_DELETING: return "Deleting";
	default: return NULL;
	}
}

const char *dsi_create_reason_name(int r)
{
	switch (r) {
	case DSI_CREATE_SURGE: return "surge";
	case DSI_CREATE_REPLACEMENT: return "replacement";
	default: return "missing";
	}
}

/* An event of the plan, with its message m (taken, NULL: no memory); -1 without memory. */
static int plan_event(dsi_plan *p, const char *type, const char *reason, char *m)
{
	if (!m || DSI_GROW(p->events, p->cap_events, p->nevents + 1) < 0) {
		dsi_free(m);
		return -1;
	}
	p->events[p->nevents++] = (dsi_plan_event){type, reason, m};
	return 0;
}

int dsi_sync_add_event(dsi_sync_pass *s, const char *type, const char *reason, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *m = dsi_vformat(fmt, ap);
	va_end(ap);
	return plan_event(s->plan, type, reason, m) < 0 ? dsi_error_nomem(s->err) : 0;
}

int dsi_sync_add_create(dsi_sync_pass *s, const dsi_node *node, int reason)
{
	dsi_plan *p = s->plan;
	if (DSI_GROW(p->creates, s->cap_creates, (size_t)p->ncreates + 1) < 0)
		return dsi_error_nomem(s->err);
	dsi_plan_create *cr = &p->creates[p->ncreates];
	memset(cr, 0, sizeof(*cr));
	if (!(cr->node = dsi_strdup(dsi_cstr(s->c, node->meta.name))))
		return dsi_error_nomem(s->err);
	cr->reason = (uint8_t)reason;
	p->ncreates++;
	return 0;
}

/* The deletes' strings, bump-allocated in blocks (a rolling update may delete thousands of pods:
 * one malloc per delete showed in the profile). Freed with the plan. */
typedef struct dsi_plan_chunk {
	struct dsi_plan_chunk *next;
	size_t used, cap;
	char data[];
} dsi_plan_chunk;

static char *plan_strings_alloc(dsi_plan *p, size_t n)
{
	dsi_plan_chunk *ch = p->strings;
	if (!ch || ch->cap - ch->used < n) {
		size_t cap = n > 65536 - sizeof(*ch) ? n : 65536 - sizeof(*ch);
		if (!(ch = dsi_malloc(sizeof(*ch) + cap)))
			return NULL;
		ch->next = p->strings;
		ch->used = 0;
		ch->cap = cap;
		p->strings = ch;
	}
	char *r = ch->data + ch->used;
	ch->used += n;
	return r;
}

int dsi_sync_add_delete(dsi_sync_pass *s, const dsi_pod *pod, int reason)
{
	dsi_plan *p = s->plan;
	if (!s->deleting && !(s->deleting = dsi_calloc(dsi_cluster_count(s->c, DSI_KIND_POD) + 1, 1)))
		return dsi_error_nomem(s->err);
	if (s->deleting[pod->index])
		return 0;
	s->deleting[pod->index] = 1;
	if (DSI_GROW(p->deletes, s->cap_deletes, (size_t)p->ndeletes + 1) < 0)
		return dsi_error_nomem(s->err);
	dsi_plan_delete *d = &p->deletes[p->ndeletes];
	memset(d, 0, sizeof(*d)); /* named by name_deletes, if executed */
	d->pod = pod->index;
	d->reason = (uint8_t)reason;
	p->ndeletes++;
	return 0;
}

/* The names of the deletes the sync executes (within burstReplicas), copied from their pods. */
static int name_deletes(dsi_sync_pass *s)
{
	dsi_plan *p = s->plan;
	const dsi_cluster *c = s->c;
	uint32_t n = p->ndeletes < p->burst ? p->ndeletes : p->burst;
	for (uint32_t k = 0; k < n; k++) {
		dsi_plan_delete *d = &p->deletes[k];
		const dsi_pod *pod = c->objs[DSI_KIND_POD].v[d->pod];
		/* the four strings are consecutive in the plan's blocks */
		const dsi_atom a[4] = {pod->meta.ns, pod->meta.name, pod->meta.uid,
				       pod->spec.node_name ? pod->spec.node_name : pod->spec.target_node};
		const char *src[4];
		size_t len[4], total = 0;
		for (int i = 0; i < 4; i++) {
			src[i] = dsi_cstr(c, a[i]);
			total += (len[i] = dsi_atom_len(&c->atoms, a[i])) + 1;
		}
		char *block = plan_strings_alloc(p, total);
		if (!block)
			return dsi_error_nomem(s->err);
		char **dst[4] = {&d->ns, &d->name, &d->uid, &d->node};
		for (int i = 0; i < 4; i++) {
			memcpy(block, src[i], len[i] + 1);
			*dst[i] = block;
			block += len[i] + 1;
		}
	}
	return 0;
}

void dsi_sync_drop_since(dsi_sync_pass *s, uint32_t nc, uint32_t nd)
{
	dsi_plan *p = s->plan;
	for (uint32_t i = nc; i < p->ncreates; i++) {
		dsi_free(p->creates[i].node);
		json_decref(p->creates[i].pod);
	}
	for (uint32_t i = nd; i < p->ndeletes; i++) /* not named yet: name_deletes runs last */
		s->deleting[p->deletes[i].pod] = 0; /* set by add_delete, so allocated */
	if (p->ncreates > nc)
		p->ncreates = nc;
	if (p->ndeletes > nd)
		p->ndeletes = nd;
}

/* AddAfter of the sync's key: the delaying queue keeps the earliest time (client-go workqueue
 * delaying_queue.go insert), so the plan keeps the smallest delay and what asked for it. */
void dsi_sync_note_requeue(dsi_sync_pass *s, int64_t ms, const char *cause)
{
	if (ms >= 0 && (s->plan->requeue_ms < 0 || ms < s->plan->requeue_ms)) {
		s->plan->requeue_ms = ms;
		s->plan->requeue_cause = cause;
	}
}

int dsi_sync_scaled(dsi_sync_pass *s, const dsi_intstr *v, int has, const char *field, int total, int32_t *out)
{
	*out = 0;
	if (s->ds->strategy != DSI_STRATEGY_ROLLING_UPDATE || !has)
		return 0;
	int r;
	ds_error tmp;
	dsi_error_clear(&tmp);
	if (dsi_intstr_scaled(v, total, 1, &r, &tmp) < 0)
		return dsi_error_set(s->err, DS_EVALUE, field, "%s", tmp.message);
	*out = r;
	return 0;
}

static void status(dsi_sync_pass *s)
{
	dsi_status_input in = {s->c, s->ds, s->verdict, &s->pods, &s->key, s->now, s->o->core->k8s_minor};
	dsi_status_count(&in, &s->plan->status);
	s->plan->status_changed = dsi_status_changed(s->ds, &s->plan->status) != 0;
	if (s->ds->min_ready_seconds > 0 && s->plan->status.number_ready != s->plan->status.number_available)
		dsi_sync_note_requeue(s, (int64_t)s->ds->min_ready_seconds * 1000, "updateDaemonSetStatus");
}

/* The claimed pods (index i of s->pods) that keep() selects, by name: what a plan lists does not
 * depend on claim order (dsi_ds_pods_collect says why). *out is freed with dsi_free. */
static int claimed_by_name(const dsi_sync_pass *s, int (*keep)(const dsi_sync_pass *s, uint32_t i, const void *ctx),
			   const void *ctx, const dsi_pod ***out, uint32_t *n)
{
	*out = NULL;
	*n = 0;
	for (uint32_t i = 0; i < s->pods.n; i++)
		*n += keep(s, i, ctx) != 0;
	if (!*n)
		return 0;
	const dsi_pod **v = dsi_reallocarray(NULL, *n, sizeof(*v));
	if (!v)
		return -1;
	for (uint32_t i = 0, m = 0; i < s->pods.n; i++)
		if (keep(s, i, ctx))
			v[m++] = s->pods.v[i];
	dsi_sort_ptrs((void **)v, *n, dsi_pod_cmp_name, (void *)s->c);
	*out = v;
	return 0;
}

static int is_adopted(const dsi_sync_pass *s, uint32_t i, const void *ctx)
{
	(void)ctx;
	return s->pods.adopt[i];
}

/* dedupCurHistories relabels every daemon pod whose hash differs from the kept revision's (ctx) */
static int needs_relabel(const dsi_sync_pass *s, uint32_t i, const void *ctx)
{
	return s->pods.v[i]->revision_hash != ((const dsi_revision *)ctx)->hash;
}

/* A claimed pod of the plan: its namespace, name and uid. */
static int claim_of(const dsi_cluster *c, const dsi_pod *pod, dsi_plan_claim *out)
{
	out->ns = dsi_strdup(dsi_cstr(c, pod->meta.ns));
	out->name = dsi_strdup(dsi_cstr(c, pod->meta.name));
	out->uid = dsi_strdup(dsi_cstr(c, pod->meta.uid));
	return out->ns && out->name && out->uid ? 0 : -1;
}

/* The pods ClaimPods adopts and releases (controller_ref_manager.go). */
static int claim_patches(dsi_sync_pass *s)
{
	dsi_plan *p = s->plan;
	uint32_t nadopt = 0;
	const dsi_pod **adopt = NULL;
	if (claimed_by_name(s, is_adopted, NULL, &adopt, &nadopt) < 0)
		return dsi_error_nomem(s->err);
	int rc = 0;
	if (nadopt && !(p->adopt = dsi_calloc(nadopt, sizeof(*p->adopt))))
		rc = -1;
	for (uint32_t i = 0; rc == 0 && i < nadopt; i++, p->nadopt++)
		rc = claim_of(s->c, adopt[i], &p->adopt[i]);
	dsi_free(adopt);
	uint32_t nrel = s->pods.nreleased;
	if (rc == 0 && nrel && !(p->release = dsi_calloc(nrel, sizeof(*p->release))))
		rc = -1;
	for (uint32_t i = 0; rc == 0 && i < nrel; i++, p->nrelease++)
		rc = claim_of(s->c, s->pods.released[i], &p->release[i]);
	return rc < 0 ? dsi_error_nomem(s->err) : 0;
}

/* The names of revisions, into the plan. */
static int names_of(const dsi_cluster *c, const dsi_revision *const *v, uint32_t n, dsi_plan_names *out)
{
	if (!n)
		return 0;
	if (!(out->v = dsi_calloc(n, sizeof(char *))))
		return -1;
	for (; out->n < n; out->n++)
		if (!(out->v[out->n] = dsi_strdup(dsi_cstr(c, v[out->n]->meta.name))))
			return -1;
	return 0;
}

/* constructHistory's actions, and cleanupHistory's deletions. */
static int history_actions(dsi_sync_pass *s, dsi_history *h)
{
	const dsi_cluster *c = s->c;
	dsi_plan_history *ph = &s->plan->history;
	ph->present = 1;
	snprintf(ph->hash, sizeof(ph->hash), "%s", h->hash);
	ph->revision = h->current ? (h->bump ? h->next_revision : h->current->revision) : h->next_revision;
	if (h->current) {
		ph->current = dsi_strdup(dsi_cstr(c, h->current->meta.name));
		ph->bump = h->bump != 0;
	} else if (h->create) {
		ph->current =
			dsi_strdup(json_string_value(json_object_get(json_object_get(h->create, "metadata"), "name")));
		ph->create = json_incref(h->create);
	} else { /* DSI_SYNC_DECISIONS_ONLY: its name alone */
		char name[600];
		dsi_history_new_name(c, s->ds, h, name, sizeof(name));
		ph->current = dsi_strdup(name);
	}
	if (!ph->current)
		return dsi_error_nomem(s->err);
	if (h->ndups) {
		const dsi_pod **pods = NULL;
		uint32_t n = 0;
		if (names_of(c, h->dups, h->ndups, &ph->delete_duplicates) < 0 ||
		    claimed_by_name(s, needs_relabel, h->current, &pods, &n) < 0)
			return dsi_error_nomem(s->err);
		int rc = n && !(ph->relabel_pods.v = dsi_calloc(n, sizeof(char *))) ? -1 : 0;
		for (; rc == 0 && ph->relabel_pods.n < n; ph->relabel_pods.n++)
			if (!(ph->relabel_pods.v[ph->relabel_pods.n] =
				      dsi_strdup(dsi_cstr(c, pods[ph->relabel_pods.n]->meta.name))))
				rc = -1;
		dsi_free(pods);
		if (rc < 0)
			return dsi_error_nomem(s->err);
	}
	if (names_of(c, h->adopt, h->nadopt, &ph->adopt) < 0 || names_of(c, h->release, h->nrelease, &ph->release) < 0)
		return dsi_error_nomem(s->err);
	return 0;
}

static int history_cleanup(dsi_sync_pass *s, const dsi_history *h)
{
	const dsi_revision **kill = dsi_calloc(h->nold + 1, sizeof(*kill));
	if (!kill)
		return dsi_error_nomem(s->err);
	uint32_t k = dsi_history_cleanup(s->c, s->ds, h, kill);
	int rc = names_of(s->c, kill, k, &s->plan->history.remove);
	dsi_free(kill);
	return rc < 0 ? dsi_error_nomem(s->err) : 0;
}

static int build_pods(dsi_sync_pass *s)
{
	dsi_plan *p = s->plan;
	uint32_t n = p->ncreates < p->burst ? p->ncreates : p->burst;
	if (!n)
		return 0;
	json_t *proto = dsi_new_pod_proto(&s->place, s->hash, s->err);
	if (!proto)
		return s->err->code ? s->err->code : dsi_error_nomem(s->err);
	for (uint32_t i = 0; i < n; i++)
		if (!(p->creates[i].pod = dsi_new_pod_for(proto, p->creates[i].node))) {
			json_decref(proto);
			return dsi_error_nomem(s->err);
		}
	json_decref(proto);
	return 0;
}

void dsi_plan_release(dsi_plan *p)
{
	for (uint32_t i = 0; i < p->ncreates; i++) {
		dsi_free(p->creates[i].node);
		json_decref(p->creates[i].pod);
	}
	for (dsi_plan_chunk *ch = p->strings, *next; ch; ch = next) { /* the deletes' strings */
		next = ch->next;
		dsi_free(ch);
	}
	dsi_free(p->creates);
	dsi_free(p->deletes);
	dsi_free(p->ns);
	dsi_free(p->name);
	dsi_free(p->uid);
	dsi_free(p->rolling_error);
	dsi_free(p->warning);
	dsi_free(p->owner_api);
	dsi_plan_history *h = &p->history;
	dsi_free(h->current);
	json_decref(h->create);
	dsi_plan_names *lists[] = {&h->delete_duplicates, &h->relabel_pods, &h->adopt, &h->release, &h->remove};
	for (size_t l = 0; l < DSI_ARRAY_LEN(lists); l++) {
		for (uint32_t i = 0; i < lists[l]->n; i++)
			dsi_free(lists[l]->v[i]);
		dsi_free(lists[l]->v);
	}
	for (int rel = 0; rel < 2; rel++) {
		dsi_plan_claim *v = rel ? p->release : p->adopt;
		uint32_t n = rel ? p->nrelease : p->nadopt;
		for (uint32_t i = 0; i < n; i++) {
			dsi_free(v[i].ns);
			dsi_free(v[i].name);
			dsi_free(v[i].uid);
		}
		dsi_free(v);
	}
	for (uint32_t i = 0; i < p->nevents; i++)
		dsi_free(p->events[i].message);
	dsi_free(p->events);
	dsi_backoff_free(&p->backoff);
	memset(p, 0, sizeof(*p));
}

/* Room for the pods of the node that has the most (pods of vanished nodes counted as one node). */
static int reserve_node_pods(dsi_sync_pass *s)
{
	uint32_t most = 0, lost = 0;
	for (uint32_t i = 0; i < s->pods.nnodes; i++)
		if (s->pods.count[i] > most)
			most = s->pods.count[i];
	for (int32_t k = s->pods.lost; k >= 0; k = s->pods.next[k])
		lost++;
	s->node_pods_cap = (most > lost ? most : lost) + 1;
	s->node_pods = dsi_reallocarray(NULL, s->node_pods_cap, sizeof(*s->node_pods));
	s->running = dsi_reallocarray(NULL, s->node_pods_cap, sizeof(*s->running));
	return s->node_pods && s->running ? 0 : dsi_error_nomem(s->err);
}

/* The plan's own copies of what it reports about the DaemonSet. */
static int plan_init(const dsi_cluster *c, const dsi_daemonset *ds, ds_time now, const dsi_daemon_cfg *o,
		     const dsi_backoff *backoff, dsi_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	plan->now = now;
	plan->requeue_ms = -1;
	plan->partition = plan->allowed_nodes = -1;
	plan->burst = (uint32_t)o->daemon->burst_replicas;
	plan->slow_start = (uint32_t)o->daemon->slow_start_initial_batch;
	const char *api = ds->kruise ? json_string_value(json_object_get(ds->obj, "apiVersion")) : "apps/v1";
	plan->owner_api = dsi_strdup(api ? api : "apps/v1");
	plan->ns = dsi_strdup(dsi_cstr(c, ds->meta.ns));
	plan->name = dsi_strdup(dsi_cstr(c, ds->meta.name));
	plan->uid = dsi_strdup(dsi_cstr(c, ds->meta.uid));
	if (!plan->owner_api || !plan->ns || !plan->name || !plan->uid ||
	    (backoff && dsi_backoff_copy(backoff, &plan->backoff) < 0))
		return -1;
	return 0;
}

/* syncDaemonSet (daemon_controller.go) after the expectations: the history, manage, the rolling update,
 * cleanupHistory, the status and syncNodes' pods. */
int dsi_plan_sync_ex(const dsi_cluster *c, const dsi_daemonset *ds, ds_time now, const dsi_daemon_cfg *o,
		     const dsi_backoff *backoff, int mode, dsi_plan *plan, ds_error *err)
{
	if (plan_init(c, ds, now, o, backoff, plan) < 0) {
		dsi_plan_release(plan);
		return dsi_error_nomem(err);
	}
	/* syncDaemonSet: an empty selector selects every pod of the namespace; refuse */
	if (ds->selector_empty) {
		plan->skipped = DSI_SKIP_SELECTING_ALL;
		if (plan_event(plan, "Warning", "SelectingAll",
			       dsi_strdup("This daemon set is selecting all pods. A non-empty selector is required.")) <
		    0) {
			dsi_plan_release(plan);
			return dsi_error_nomem(err);
		}
		return 0;
	}
	if (ds->meta.has_deletion) {
		plan->skipped = DSI_SKIP_DELETING;
		return 0;
	}
	dsi_sync_pass s;
	memset(&s, 0, sizeof(s));
	s.c = c;
	s.ds = ds;
	s.o = o;
	s.now = now;
	s.plan = plan;
	s.err = err;
	int decisions_only = (mode & DSI_SYNC_DECISIONS_ONLY) != 0;
	mode &= ~DSI_SYNC_DECISIONS_ONLY;
	dsi_history h;
	int rc = dsi_history_construct(c, ds, o->daemon->revision_hash, decisions_only ? 0 : DSI_HISTORY_CREATE, &h,
				       err);
	if (rc < 0) {
		dsi_plan_release(plan);
		return rc;
	}
	snprintf(plan->hash, sizeof(plan->hash), "%s", h.hash);
	s.hash = plan->hash;
	dsi_revision_key_init(c, ds, s.hash, &s.key);
	size_t nn = dsi_cluster_count(c, DSI_KIND_NODE);
	s.verdict = dsi_reallocarray(NULL, nn ? nn : 1, sizeof(dsi_verdict)); /* each written by the placement pass */
	s.order = dsi_malloc((nn ? nn : 1) * sizeof(uint32_t));
	/* what each pass asks of a pod, noted once (dsi_ds_pods.state) */
	const dsi_ds_pods_when when = {&s.key, ds->min_ready_seconds, now, o->core->k8s_minor};
	if (dsi_history_warning(c, ds, &h, &plan->warning) < 0 || !s.verdict || !s.order ||
	    dsi_placement_init(&s.place, c, ds, o->core) < 0 ||
	    dsi_ds_pods_collect_when(c, ds, 0, &when, &s.pods) < 0) {
		rc = dsi_error_nomem(err);
		goto out;
	}
	/* the per-node verdict, once per node for the whole sync */
	dsi_node_should_run_all(&s.place, s.verdict, s.order);
	if ((rc = reserve_node_pods(&s)) < 0 || (rc = history_actions(&s, &h)) < 0 || (rc = claim_patches(&s)) < 0)
		goto out;
	if (mode != DSI_SYNC_ROLLING_ONLY)
		rc = dsi_sync_manage(&s);
	/* updateDaemonSet: the rolling update runs only once manage's actions are observed
	 * (expectations satisfied), i.e. when manage had nothing to do */
	if (rc == 0 && mode != DSI_SYNC_MANAGE_ONLY && plan->ncreates == 0 && plan->ndeletes == 0 &&
	    ds->strategy == DSI_STRATEGY_ROLLING_UPDATE)
		rc = dsi_sync_rolling_update(&s);
	/* updateDaemonSet: a rolling update error returns before cleanupHistory */
	if (rc == 0 && !plan->rolling_error)
		rc = history_cleanup(&s, &h);
	if (rc == 0) {
		status(&s);
		dsi_backoff_gc(&plan->backoff, now, o->daemon->backoff_max_ms);
		if ((rc = decisions_only ? 0 : build_pods(&s)) == 0)
			rc = name_deletes(&s);
	}
out:
	dsi_ds_pods_release(&s.pods);
	dsi_placement_release(&s.place);
	dsi_free(s.verdict);
	dsi_free(s.order);
	dsi_free(s.deleting);
	dsi_free(s.node_pods);
	dsi_free(s.running);
	dsi_history_release(&h);
	if (rc < 0)
		dsi_plan_release(plan);
	return rc;
}

int dsi_plan_sync(const dsi_cluster *c, const dsi_daemonset *ds, ds_time now, const dsi_daemon_cfg *o,
		  const dsi_backoff *backoff, dsi_plan *plan, ds_error *err)
{
	return dsi_plan_sync_ex(c, ds, now, o, backoff, 0, plan, err);
}
