#include "daemon/syncplan.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"
#include "core/time.h"
#include "daemon/availability.h"
#include "daemon/newpod.h"
#include "daemon/status.h"

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

const char *dsi_create_reason_name(int r)
{
	switch (r) {
	case DSI_CREATE_SURGE: return "surge";
	case DSI_CREATE_REPLACEMENT: return "replacement";
	default: return "missing";
	}
}

/* What one pass works with. */
typedef struct pass {
	const dsi_cluster *c;
	const dsi_daemonset *ds;
	const dsi_daemon_cfg *o;
	ds_time now;
	dsi_placement place;
	dsi_ds_pods pods;
	dsi_verdict *verdict; /* per node index */
	uint32_t *order;      /* node indexes in name order (so that passes need not touch the nodes) */
	dsi_revision_key key;
	const char *hash;
	dsi_plan *plan;
	ds_error *err;
	size_t cap_creates, cap_deletes;
	uint8_t *deleting; /* per pod index of the snapshot: already in plan->deletes (allocated on first use) */
} pass;

/* An event of the plan; -1 without memory. */
static int plan_event(dsi_plan *p, const char *type, const char *reason, const char *message)
{
	char *m = dsi_strdup(message);
	if (!m || DSI_GROW(p->events, p->cap_events, p->nevents + 1) < 0) {
		dsi_free(m);
		return -1;
	}
	p->events[p->nevents++] = (dsi_plan_event){type, reason, m};
	return 0;
}

static int add_event(pass *s, const char *type, const char *reason, const char *message)
{
	return plan_event(s->plan, type, reason, message) < 0 ? dsi_error_nomem(s->err) : 0;
}

static int add_create(pass *s, const dsi_node *node, int reason)
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

static int add_delete(pass *s, const dsi_pod *pod, int reason)
{
	dsi_plan *p = s->plan;
	/* a pod is deleted once (manage and update may both want it) */
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
static int name_deletes(pass *s)
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

/* Forget the creates and deletes planned since the plan held nc creates and nd deletes. */
static void drop_since(pass *s, uint32_t nc, uint32_t nd)
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

static void note_requeue(pass *s, int64_t ms)
{
	if (ms >= 0 && (s->plan->requeue_ms < 0 || ms < s->plan->requeue_ms))
		s->plan->requeue_ms = ms;
}

/* The pods claimed for a node, in claim order, as indices into s->pods.v: the passes look at
 * s->pods.state first and read a pod only when they act on it. */
static uint32_t pods_of(const pass *s, int32_t first, int32_t *out, uint32_t max)
{
	uint32_t n = 0;
	for (int32_t k = first; k >= 0 && n < max; k = s->pods.next[k])
		out[n++] = k;
	return n;
}

#define MAX_PODS_PER_NODE 256

#define MAX_UNAVAILABLE "spec.updateStrategy.rollingUpdate.maxUnavailable"
#define MAX_SURGE "spec.updateStrategy.rollingUpdate.maxSurge"

/* util.SurgeCount / util.UnavailableCount: 0 unless RollingUpdate; percents round up. field: the
 * value's path, for the error. */
static int scaled(pass *s, const dsi_intstr *v, int has, const char *field, int total, int32_t *out)
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

/* util.AllowsSurge: SurgeCount(ds, 1) > 0 */
static int allows_surge(pass *s)
{
	int32_t v;
	ds_error tmp, *saved = s->err;
	s->err = &tmp;
	int rc = scaled(s, &s->ds->max_surge, s->ds->has_max_surge, MAX_SURGE, 1, &v);
	s->err = saved;
	return rc == 0 && v > 0;
}

static void failed_key(const pass *s, const dsi_node *node, char *buf, size_t size)
{
	/* failedPodsBackoffKey (daemon_controller.go): "<uid>/<observedGeneration>/<node>" */
	snprintf(buf, size, "%s/%lld/%s", dsi_cstr(s->c, s->ds->meta.uid), (long long)s->ds->status.observed_generation,
		 dsi_cstr(s->c, node->meta.name));
}

/* podsShouldBeOnNode (daemon_controller.go) */
static int pods_should_be_on_node(pass *s, uint32_t idx, int surge)
{
	const dsi_node *node = s->c->objs[DSI_KIND_NODE].v[idx]; /* read only for its name */
	const dsi_verdict *v = &s->verdict[idx];
	int32_t first = s->pods.first[idx];
	int exists = s->pods.count[idx] > 0;
	const dsi_cluster *c = s->c;
	if (v->should_run && !exists)
		return add_create(s, node, DSI_CREATE_MISSING);
	int32_t on[MAX_PODS_PER_NODE];
	const dsi_pod *running[MAX_PODS_PER_NODE];
	uint32_t n = pods_of(s, first, on, MAX_PODS_PER_NODE), nrun = 0;
	const uint8_t *state = s->pods.state;
	int rc = 0;
	if (v->should_continue) {
		for (uint32_t i = 0; i < n && rc == 0; i++) {
			const dsi_pod *pod = s->pods.v[on[i]]; /* not read unless acted on */
			if (state[on[i]] & DSI_DSP_DELETING)
				continue;
			char msg[700];
			if (state[on[i]] & DSI_DSP_FAILED) {
				/* the controller and the kubelet fight over a rejected pod: back off per node */
				char key[600];
				failed_key(s, node, key, sizeof(key));
				int64_t max = s->o->daemon->backoff_max_ms;
				if (dsi_backoff_in_backoff(&s->plan->backoff, key, s->now, max)) {
					note_requeue(s, dsi_backoff_get(&s->plan->backoff, key));
					continue;
				}
				if (dsi_backoff_next(&s->plan->backoff, key, s->now, s->o->daemon->backoff_initial_ms,
						     max) < 0)
					return dsi_error_nomem(s->err);
				snprintf(msg, sizeof(msg),
					 "Found failed daemon pod %s/%s on node %s, will try to kill it",
					 dsi_cstr(c, pod->meta.ns), dsi_cstr(c, pod->meta.name),
					 dsi_cstr(c, node->meta.name));
				if ((rc = add_event(s, "Warning", "FailedDaemonPod", msg)) == 0)
					rc = add_delete(s, pod, DSI_DEL_FAILED);
				continue;
			}
			if (state[on[i]] & DSI_DSP_SUCCEEDED) {
				snprintf(msg, sizeof(msg),
					 "Found succeeded daemon pod %s/%s on node %s, will try to delete it",
					 dsi_cstr(c, pod->meta.ns), dsi_cstr(c, pod->meta.name),
					 dsi_cstr(c, node->meta.name));
				if ((rc = add_event(s, "Normal", "SucceededDaemonPod", msg)) == 0)
					rc = add_delete(s, pod, DSI_DEL_SUCCEEDED);
				continue;
			}
			running[nrun++] = pod;
		}
		if (rc < 0)
			return rc;
		if (!surge) {
			if (nrun <= 1)
				return 0;
			dsi_sort_stable(running, nrun, sizeof(running[0]), dsi_pod_cmp_creation, (void *)c);
			for (uint32_t i = 1; i < nrun && rc == 0; i++)
				rc = add_delete(s, running[i], DSI_DEL_DUPLICATE);
			return rc;
		}
		if (nrun <= 1) {
			if (nrun == 0 && v->should_run) /* surging: keep one non-deleted pod on the node */
				return add_create(s, node, DSI_CREATE_MISSING);
			return 0;
		}
		/* surge: keep the oldest pod of the current hash and the oldest other one */
		dsi_sort_stable(running, nrun, sizeof(running[0]), dsi_pod_cmp_creation, (void *)c);
		const dsi_pod *newest = NULL, *oldest_old = NULL;
		for (uint32_t i = 0; i < nrun && rc == 0; i++) {
			int cur = s->key.hash && running[i]->revision_hash == s->key.hash;
			if (cur && !newest)
				newest = running[i];
			else if (!cur && !oldest_old)
				oldest_old = running[i];
			else
				rc = add_delete(s, running[i], DSI_DEL_DUPLICATE);
		}
		if (rc == 0 && newest && oldest_old &&
		    (!dsi_pod_ready_p(oldest_old) ||
		     dsi_pod_available(newest, s->ds->min_ready_seconds, s->now, s->o->core->k8s_minor)))
			rc = add_delete(s, oldest_old, DSI_DEL_SURGE_REPLACED);
		return rc;
	}
	if (exists) /* it should not run here any more: every pod that is not already going */
		for (uint32_t i = 0; i < n && rc == 0; i++)
			if (!(state[on[i]] & DSI_DSP_DELETING))
				rc = add_delete(s, s->pods.v[on[i]], DSI_DEL_NOT_WANTED);
	return rc;
}

/* manage (daemon_controller.go) */
static int manage(pass *s)
{
	int surge = allows_surge(s);
	int rc = 0;
	size_t nn = dsi_cluster_count(s->c, DSI_KIND_NODE);
	for (size_t i = 0; i < nn && rc == 0; i++)
		rc = pods_should_be_on_node(s, s->order[i], surge);
	/* getUnscheduledPodsWithoutNode (daemon_controller.go): pending pods pinned to a node that is
	 * gone can never run. Upstream has no deletionTimestamp check here: a terminating one is
	 * deleted again (terminal pods with a deletionTimestamp are not collected at all). */
	for (int32_t k = s->pods.lost; k >= 0 && rc == 0; k = s->pods.next[k])
		if (!s->pods.v[k]->spec.node_name)
			rc = add_delete(s, s->pods.v[k], DSI_DEL_NODE_GONE);
	return rc;
}

/* findUpdatedPodsOnNode (update.go): at most one updated and one old pod, ignoring deleting ones
 * (indices into s->pods.v, -1 for none). */
static int find_updated(const pass *s, const int32_t *pods, uint32_t n, int32_t *newk, int32_t *oldk)
{
	*newk = *oldk = -1;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t st = s->pods.state[pods[i]];
		if (st & DSI_DSP_DELETING)
			continue;
		int32_t *slot = st & DSI_DSP_UPDATED ? newk : oldk;
		if (*slot >= 0)
			return 0;
		*slot = pods[i];
	}
	return 1;
}

/* One entry of rollingUpdate's node -> pods map. */
typedef struct upd_node {
	const dsi_node *node; /* NULL for a node that is not in the snapshot */
	int32_t first;
	const char *name; /* only without node (read the node's name with upd_name) */
} upd_node;

/* The node's name, looked up only when needed (a sync touches the nodes as little as it can). */
static const char *upd_name(const dsi_cluster *c, const upd_node *u)
{
	return u->node ? dsi_cstr(c, u->node->meta.name) : u->name;
}

static int by_upd_name(const void *a, const void *b, void *ctx) { return strcmp(upd_name(ctx, a), upd_name(ctx, b)); }

/* The map rollingUpdate walks: nodes with pods (also unknown ones) plus every node
 * that should run a pod (updatedDesiredNodeCounts), in name order. */
static int update_nodes(pass *s, upd_node **out, uint32_t *n, int32_t *desired)
{
	size_t nn = dsi_cluster_count(s->c, DSI_KIND_NODE);
	uint32_t lost = 0;
	for (int32_t k = s->pods.lost; k >= 0; k = s->pods.next[k])
		lost++;
	upd_node *v = dsi_reallocarray(NULL, nn + lost + 1, sizeof(*v)); /* v[0..m) written below */
	if (!v)
		return dsi_error_nomem(s->err);
	uint32_t m = 0;
	*desired = 0;
	for (size_t i = 0; i < nn; i++) {
		uint32_t idx = s->order[i];
		int want = s->verdict[idx].should_run;
		*desired += want;
		if (want || s->pods.count[idx])
			v[m++] = (upd_node){s->c->objs[DSI_KIND_NODE].v[idx], s->pods.first[idx], NULL};
	}
	/* pods whose node is gone, grouped by the node name they name */
	uint32_t lost_start = m;
	for (int32_t k = s->pods.lost; k >= 0; k = s->pods.next[k]) {
		const char *name = dsi_cstr(s->c, s->pods.v[k]->spec.target_node);
		uint32_t j;
		for (j = lost_start; j < m && strcmp(v[j].name, name) != 0;
		     j++) /* entries without a node carry their name */
			;
		if (j == m)
			v[m++] = (upd_node){NULL, -1, name};
	}
	/* nodes come in name order already; only pods of vanished nodes need sorting in */
	if (m > lost_start)
		dsi_sort_stable(v, m, sizeof(*v), by_upd_name, (void *)s->c);
	*out = v;
	*n = m;
	return 0;
}

static uint32_t upd_pods(const pass *s, const upd_node *u, int32_t *out)
{
	if (u->node)
		return pods_of(s, u->first, out, MAX_PODS_PER_NODE);
	uint32_t n = 0;
	for (int32_t k = s->pods.lost; k >= 0 && n < MAX_PODS_PER_NODE; k = s->pods.next[k])
		if (strcmp(dsi_cstr(s->c, s->pods.v[k]->spec.target_node), u->name) == 0)
			out[n++] = k;
	return n;
}

/*
 * Rollout controls beyond upstream (OpenKruise Advanced DaemonSet semantics,
 * pkg/controller/daemonset/daemonset_update.go filterDaemonPodsNodeToUpdate):
 * from an apps.kruise.io DaemonSet's own fields, or from options for any
 * DaemonSet. Budgets are computed over all nodes first; then only some nodes
 * may be updated: those already updated, then those being updated, then the
 * candidates (matching the rollout selector, when set), in update order, cut
 * to nodes - partition.
 */
typedef struct advanced {
	int active;
	int paused;
	int has_partition;
	dsi_intstr partition;
	const dsi_selector *selector; /* over node labels */
	dsi_selector own;             /* parsed from the option */
	dsi_atoms atoms;              /* overlay for the option's strings: the snapshot stays untouched */
	int order;                    /* ORDER_* */
	dsi_atom order_label;
} advanced;

enum { ORDER_NAME_ASC, ORDER_NAME_DESC, ORDER_LABEL };

static void advanced_release(advanced *a)
{
	if (a->selector == &a->own)
		dsi_selector_release(&a->atoms, &a->own);
	dsi_atoms_free(&a->atoms);
}

static int advanced_init(pass *s, advanced *a)
{
	const dsi_ds_advanced *k = &s->ds->adv;
	const dsi_daemon_options *o = s->o->daemon;
	memset(a, 0, sizeof(*a));
	dsi_atoms_init_overlay(&a->atoms, &s->c->atoms);
	a->order = s->ds->kruise ? ORDER_NAME_DESC : ORDER_NAME_ASC; /* Kruise walks names from the end */
	if (s->ds->kruise) {
		a->paused = k->paused;
		a->has_partition = k->has_partition;
		a->partition = k->partition;
		if (k->has_rollout_selector)
			a->selector = &k->rollout_selector;
	}
	ds_error tmp;
	dsi_error_clear(&tmp);
	if (o->paused >= 0)
		a->paused = o->paused;
	if (o->partition) {
		int probe = 0;
		/* an int or a percentage, never negative: checked here, where the option is read,
		 * because the scaling below falls back to 0 for a bad value from a stored object */
		if (dsi_intstr_parse_text(o->partition, &a->partition, &tmp) < 0 ||
		    dsi_intstr_scaled(&a->partition, 100, 0, &probe, &tmp) < 0)
			return dsi_error_set(s->err, DS_EVALUE, "partition", "%s (expected an integer or a percentage)",
					     tmp.message);
		if (probe < 0)
			return dsi_error_set(s->err, DS_EVALUE, "partition",
					     "must be greater than or equal to 0, got %s", o->partition);
		a->has_partition = 1;
	}
	if (o->rollout_node_selector) {
		dsi_rd rd;
		dsi_rd_init(&rd, &tmp);
		const char *t = o->rollout_node_selector;
		int rc;
		if (*t == '{') {
			json_error_t je;
			json_t *j = json_loads(t, 0, &je);
			rc = j ? dsi_selector_from_json(&rd, &a->atoms, j, &a->own)
			       : dsi_error_set(&tmp, DS_ESYNTAX, NULL, "%s", je.text);
			json_decref(j);
		} else {
			rc = dsi_selector_parse(&rd, &a->atoms, t, &a->own);
		}
		if (rc < 0)
			return dsi_error_set(s->err, tmp.code, "rolloutNodeSelector", "%s", tmp.message);
		a->selector = &a->own;
	}
	if (o->update_order) {
		const char *u = o->update_order;
		if (strcmp(u, "name") == 0)
			a->order = ORDER_NAME_ASC;
		else if (strcmp(u, "name-desc") == 0)
			a->order = ORDER_NAME_DESC;
		else if (strncmp(u, "label:", 6) == 0 && u[6]) {
			a->order = ORDER_LABEL;
			a->order_label = dsi_atom_lookup_cstr(&s->c->atoms, u + 6);
		} else
			return dsi_error_set(s->err, DS_EVALUE, "updateOrder",
					     "expected \"name\", \"name-desc\" or \"label:<key>\", got \"%s\"", u);
	}
	a->active = a->paused || a->has_partition || a->selector || o->update_order || s->ds->kruise;
	return 0;
}

typedef struct order_ctx {
	const pass *s;
	const advanced *a;
} order_ctx;

/* The update order: by name (either way), or by a node label's value (nodes without it last), then name. */
static int by_update_order(const void *x, const void *y, void *vctx)
{
	const order_ctx *oc = vctx;
	const upd_node *a = x, *b = y;
	if (oc->a->order == ORDER_LABEL) {
		dsi_atom la = a->node ? dsi_labels_get(&a->node->meta.labels, oc->a->order_label) : 0;
		dsi_atom lb = b->node ? dsi_labels_get(&b->node->meta.labels, oc->a->order_label) : 0;
		if (!oc->a->order_label)
			la = lb = 0;
		if ((la == 0) != (lb == 0))
			return la ? -1 : 1;
		if (la != lb) {
			int c = strcmp(dsi_cstr(oc->s->c, la), dsi_cstr(oc->s->c, lb));
			if (c)
				return c;
		}
	}
	int c = strcmp(upd_name(oc->s->c, a), upd_name(oc->s->c, b));
	return oc->a->order == ORDER_NAME_DESC ? -c : c;
}

/* filterDaemonPodsNodeToUpdate (OpenKruise daemonset_update.go), in our update order. */
static uint32_t filter_update_nodes(pass *s, const advanced *a, upd_node *nodes, uint32_t n)
{
	int32_t pods[MAX_PODS_PER_NODE];
	upd_node *groups[3];
	uint32_t counts[3] = {0, 0, 0};
	for (int g = 0; g < 3; g++)
		groups[g] = dsi_calloc(n + 1, sizeof(upd_node));
	if (!groups[0] || !groups[1] || !groups[2]) {
		for (int g = 0; g < 3; g++)
			dsi_free(groups[g]);
		return (uint32_t)-1;
	}
	uint32_t total = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (!nodes[i].node)
			continue; /* nodes missing from the lister are dropped */
		total++;
		uint32_t k = upd_pods(s, &nodes[i], pods);
		int32_t newk, oldk;
		int ok = find_updated(s, pods, k, &newk, &oldk);
		int g;
		if (!ok || newk >= 0)
			g = 0; /* updated */
		else if (oldk < 0)
			g = 1; /* being updated */
		else if (a->selector && !dsi_selector_matches(&a->atoms, a->selector, &nodes[i].node->meta.labels))
			continue; /* outside the rollout selector: never updated */
		else
			g = 2;
		groups[g][counts[g]++] = nodes[i];
	}
	order_ctx oc = {s, a};
	uint32_t m = 0;
	for (int g = 0; g < 3; g++) {
		dsi_sort_stable(groups[g], counts[g], sizeof(upd_node), by_update_order, &oc);
		memcpy(nodes + m, groups[g], counts[g] * sizeof(upd_node));
		m += counts[g];
		dsi_free(groups[g]);
	}
	int32_t partition = 0;
	if (a->has_partition) {
		int v = 0;
		ds_error tmp;
		/* Kruise scales the partition against the last status, rounding down */
		if (dsi_intstr_scaled(&a->partition, s->ds->status.desired_number_scheduled, 0, &v, &tmp) == 0)
			partition = v;
	}
	s->plan->partition = a->has_partition ? partition : -1;
	int64_t max_update = (int64_t)total - partition;
	if (max_update <= 0)
		m = 0;
	else if ((uint64_t)max_update < m)
		m = (uint32_t)max_update;
	s->plan->allowed_nodes = (int32_t)m;
	return m;
}

/* rollingUpdate (update.go), both branches */
static int rolling_update(pass *s)
{
	dsi_plan *p = s->plan;
	upd_node *nodes = NULL;
	uint32_t n = 0;
	int32_t desired = 0;
	int rc = update_nodes(s, &nodes, &n, &desired);
	if (rc < 0)
		return rc;
	int32_t max_surge, max_unavailable;
	if ((rc = scaled(s, &s->ds->max_unavailable, s->ds->has_max_unavailable, MAX_UNAVAILABLE, desired,
			 &max_unavailable)) < 0 ||
	    (rc = scaled(s, &s->ds->max_surge, s->ds->has_max_surge, MAX_SURGE, desired, &max_surge)) < 0) {
		dsi_free(nodes);
		return rc;
	}
	/* an impossible configuration (both zero) falls back to one unavailable pod */
	if (desired > 0 && max_unavailable == 0 && max_surge == 0)
		max_unavailable = 1;
	p->rolling_ran = 1;
	p->max_unavailable = max_unavailable;
	p->max_surge = max_surge;
	p->desired_for_update = desired;
	advanced adv;
	if ((rc = advanced_init(s, &adv)) < 0) {
		advanced_release(&adv);
		dsi_free(nodes);
		return rc;
	}
	if (adv.active && adv.paused) {
		p->rolling_paused = 1;
		advanced_release(&adv);
		dsi_free(nodes);
		return 0;
	}
	if (adv.active) {
		n = filter_update_nodes(s, &adv, nodes, n);
		if (n == (uint32_t)-1) {
			advanced_release(&adv);
			dsi_free(nodes);
			return dsi_error_nomem(s->err);
		}
	}
	advanced_release(&adv);
	const dsi_pod *const *v = s->pods.v;
	const uint8_t *state = s->pods.state;
	int32_t pods[MAX_PODS_PER_NODE];
	if (max_surge == 0) {
		int32_t num_unavailable = 0;
		const dsi_pod **candidates = dsi_reallocarray(NULL, n + 1, sizeof(*candidates));
		uint32_t ncand = 0;
		if (!candidates) {
			dsi_free(nodes);
			return dsi_error_nomem(s->err);
		}
		for (uint32_t i = 0; i < n && rc == 0; i++) {
			uint32_t k = upd_pods(s, &nodes[i], pods);
			int32_t newk, oldk;
			if (!find_updated(s, pods, k, &newk, &oldk)) {
				num_unavailable++; /* excess pods: manage cleans up first */
				continue;
			}
			if ((oldk < 0) == (newk < 0))
				num_unavailable++;
			else if (newk >= 0)
				num_unavailable += !(state[newk] & DSI_DSP_AVAILABLE);
			else if (!(state[oldk] & DSI_DSP_AVAILABLE)) {
				rc = add_delete(s, v[oldk], DSI_DEL_UPDATE_UNAVAILABLE); /* always replaced */
				num_unavailable++;
			} else if (num_unavailable < max_unavailable)
				candidates[ncand++] = v[oldk];
		}
		int32_t remaining = max_unavailable - num_unavailable;
		if (remaining < 0)
			remaining = 0;
		if ((uint32_t)remaining > ncand)
			remaining = (int32_t)ncand;
		for (int32_t i = 0; i < remaining && rc == 0; i++)
			rc = add_delete(s, candidates[i], DSI_DEL_UPDATE);
		p->num_unavailable = num_unavailable;
		dsi_free(candidates);
		dsi_free(nodes);
		return rc;
	}
	/* surge: create first, delete once the replacement is available */
	const uint32_t nc0 = p->ncreates, nd0 = p->ndeletes;
	int32_t num_surge = 0, num_available = 0;
	const dsi_node **cand_nodes = dsi_reallocarray(NULL, n + 1, sizeof(*cand_nodes));
	const dsi_pod **not_wanted = dsi_reallocarray(NULL, n + 1, sizeof(*not_wanted));
	uint32_t ncand = 0, nnot = 0;
	if (!cand_nodes || !not_wanted)
		rc = dsi_error_nomem(s->err);
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		uint32_t k = upd_pods(s, &nodes[i], pods);
		int32_t newk, oldk;
		if (!find_updated(s, pods, k, &newk, &oldk)) {
			num_surge++;
			continue;
		}
		if (oldk >= 0)
			num_available += !!(state[oldk] & DSI_DSP_AVAILABLE);
		else if (newk >= 0)
			num_available += !!(state[newk] & DSI_DSP_AVAILABLE);
		if (oldk < 0)
			continue; /* manage creates on empty nodes */
		const dsi_pod *oldp = v[oldk];
		if (newk < 0) {
			if (!nodes[i].node) { /* upstream: the node lister fails and the whole update with it */
				char msg[400];
				snprintf(msg, sizeof(msg),
					 "couldn't get node for nodeName \"%s\": node \"%s\" not found", nodes[i].name,
					 nodes[i].name);
				if (!(p->rolling_error = dsi_strdup(msg)))
					rc = dsi_error_nomem(s->err);
				break;
			}
			int should_run = s->verdict[nodes[i].node->index].should_run;
			if (!(state[oldk] & DSI_DSP_AVAILABLE)) {
				if (!should_run)
					rc = add_delete(s, oldp, DSI_DEL_SURGE_CONSTRAINTS);
				else
					rc = add_create(s, nodes[i].node, DSI_CREATE_REPLACEMENT);
			} else if (!should_run) {
				not_wanted[nnot++] = oldp;
			} else if (num_surge < max_surge) {
				cand_nodes[ncand++] = nodes[i].node;
			}
			continue;
		}
		if (!(state[newk] & DSI_DSP_AVAILABLE))
			num_surge++;
		else
			rc = add_delete(s, oldp, DSI_DEL_SURGE_REPLACED);
	}
	if (rc == 0 && !p->rolling_error) {
		/* only delete pods on nodes that left the constraints while more than desired are available */
		int32_t deletable = num_available - desired;
		if (deletable > (int32_t)nnot)
			deletable = (int32_t)nnot;
		for (int32_t i = 0; i < deletable && rc == 0; i++)
			rc = add_delete(s, not_wanted[i], DSI_DEL_SURGE_CONSTRAINTS);
		int32_t remaining = max_surge - num_surge;
		if (remaining < 0)
			remaining = 0;
		if ((uint32_t)remaining > ncand)
			remaining = (int32_t)ncand;
		for (int32_t i = 0; i < remaining && rc == 0; i++)
			rc = add_create(s, cand_nodes[i], DSI_CREATE_SURGE);
	}
	/* the error returns before syncNodes: nothing the update planned is done this sync */
	if (rc == 0 && p->rolling_error)
		drop_since(s, nc0, nd0);
	p->num_surge = num_surge;
	dsi_free(cand_nodes);
	dsi_free(not_wanted);
	dsi_free(nodes);
	return rc;
}

static void status(pass *s)
{
	dsi_status_input in = {s->c, s->ds, s->verdict, &s->pods, &s->key, s->now, s->o->core->k8s_minor};
	dsi_status_count(&in, &s->plan->status);
	s->plan->status_changed = dsi_status_changed(s->ds, &s->plan->status);
	if (s->ds->min_ready_seconds > 0 && s->plan->status.number_ready != s->plan->status.number_available)
		note_requeue(s, (int64_t)s->ds->min_ready_seconds * 1000);
}

/* The claimed pods (index i of s->pods) that keep() selects, by name: what a plan lists does not
 * depend on claim order (dsi_ds_pods_collect says why). *out is freed with dsi_free. */
static int claimed_by_name(const pass *s, int (*keep)(const pass *s, uint32_t i, const void *ctx), const void *ctx,
			   const dsi_pod ***out, uint32_t *n)
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

static int is_adopted(const pass *s, uint32_t i, const void *ctx)
{
	(void)ctx;
	return s->pods.adopt[i];
}

/* dedupCurHistories relabels every daemon pod whose hash differs from the kept revision's (ctx) */
static int needs_relabel(const pass *s, uint32_t i, const void *ctx)
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
static int claim_patches(pass *s)
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
static int history_actions(pass *s, dsi_history *h)
{
	const dsi_cluster *c = s->c;
	dsi_plan_history *ph = &s->plan->history;
	ph->present = 1;
	snprintf(ph->hash, sizeof(ph->hash), "%s", h->hash);
	ph->revision = h->current ? (h->bump ? h->next_revision : h->current->revision) : h->next_revision;
	if (h->current) {
		ph->current = dsi_strdup(dsi_cstr(c, h->current->meta.name));
		ph->bump = h->bump;
	} else {
		ph->current =
			dsi_strdup(json_string_value(json_object_get(json_object_get(h->create, "metadata"), "name")));
		ph->create = json_incref(h->create);
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

static int history_cleanup(pass *s, const dsi_history *h)
{
	const dsi_revision **kill = dsi_calloc(h->nold + 1, sizeof(*kill));
	if (!kill)
		return dsi_error_nomem(s->err);
	uint32_t k = dsi_history_cleanup(s->c, s->ds, h, kill);
	int rc = names_of(s->c, kill, k, &s->plan->history.remove);
	dsi_free(kill);
	return rc < 0 ? dsi_error_nomem(s->err) : 0;
}

static int build_pods(pass *s)
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

int dsi_plan_sync_ex(const dsi_cluster *c, const dsi_daemonset *ds, ds_time now, const dsi_daemon_cfg *o,
		     const dsi_backoff *backoff, int mode, dsi_plan *plan, ds_error *err)
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
	    (backoff && dsi_backoff_copy(backoff, &plan->backoff) < 0)) {
		dsi_plan_release(plan);
		return dsi_error_nomem(err);
	}
	/* syncDaemonSet: an empty selector selects every pod of the namespace; refuse */
	if (ds->selector_empty) {
		plan->skipped = "SelectingAll";
		int rc = plan_event(plan, "Warning", "SelectingAll",
				    "This daemon set is selecting all pods. A non-empty selector is required.");
		return rc ? (dsi_plan_release(plan), dsi_error_nomem(err)) : 0;
	}
	if (ds->meta.has_deletion) {
		plan->skipped = "Deleting";
		return 0;
	}
	pass s;
	memset(&s, 0, sizeof(s));
	s.c = c;
	s.ds = ds;
	s.o = o;
	s.now = now;
	s.plan = plan;
	s.err = err;
	dsi_history h;
	int rc = dsi_history_construct(c, ds, o->daemon->revision_hash, DSI_HISTORY_CREATE, &h, err);
	if (rc < 0) {
		dsi_plan_release(plan);
		return rc;
	}
	snprintf(plan->hash, sizeof(plan->hash), "%s", h.hash);
	char wbuf[600];
	const char *w = dsi_history_warning(c, ds, &h, wbuf, sizeof(wbuf));
	if (w && !(plan->warning = dsi_strdup(w))) {
		dsi_history_release(&h);
		dsi_plan_release(plan);
		return dsi_error_nomem(err);
	}
	s.hash = plan->hash;
	dsi_revision_key_init(c, ds, s.hash, &s.key);
	size_t nn = dsi_cluster_count(c, DSI_KIND_NODE);
	s.verdict = dsi_reallocarray(NULL, nn ? nn : 1, sizeof(dsi_verdict)); /* each written by the placement pass */
	s.order = dsi_malloc((nn ? nn : 1) * sizeof(uint32_t));
	if (!s.verdict || !s.order || dsi_placement_init(&s.place, c, ds, o->core) < 0) {
		dsi_free(s.verdict);
		dsi_free(s.order);
		dsi_history_release(&h);
		dsi_plan_release(plan);
		return dsi_error_nomem(err);
	}
	/* what each pass asks of a pod, noted once (dsi_ds_pods.state) */
	const dsi_ds_pods_when when = {&s.key, ds->min_ready_seconds, now, o->core->k8s_minor};
	if (dsi_ds_pods_collect_when(c, ds, 0, &when, &s.pods) < 0) {
		rc = dsi_error_nomem(err);
		goto out;
	}
	/* the per-node verdict, once per node for the whole sync */
	dsi_node_should_run_all(&s.place, s.verdict, s.order);
	if ((rc = history_actions(&s, &h)) < 0 || (rc = claim_patches(&s)) < 0)
		goto out;
	if (mode != DSI_SYNC_ROLLING_ONLY)
		rc = manage(&s);
	/* updateDaemonSet: the rolling update runs only once manage's actions are observed
	 * (expectations satisfied), i.e. when manage had nothing to do */
	if (rc == 0 && mode != DSI_SYNC_MANAGE_ONLY && plan->ncreates == 0 && plan->ndeletes == 0 &&
	    ds->strategy == DSI_STRATEGY_ROLLING_UPDATE)
		rc = rolling_update(&s);
	/* updateDaemonSet: a rolling update error returns before cleanupHistory */
	if (rc == 0 && !plan->rolling_error)
		rc = history_cleanup(&s, &h);
	if (rc == 0) {
		status(&s);
		dsi_backoff_gc(&plan->backoff, now, o->daemon->backoff_max_ms);
		if ((rc = build_pods(&s)) == 0)
			rc = name_deletes(&s);
	}
out:
	dsi_ds_pods_release(&s.pods);
	dsi_placement_release(&s.place);
	dsi_free(s.verdict);
	dsi_free(s.order);
	dsi_free(s.deleting);
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

static json_t *status_json(const dsi_ds_status *st)
{
	json_t *o = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:I}", "desiredNumberScheduled",
			      st->desired_number_scheduled, "currentNumberScheduled", st->current_number_scheduled,
			      "numberMisscheduled", st->number_misscheduled, "numberReady", st->number_ready,
			      "updatedNumberScheduled", st->updated_number_scheduled, "numberAvailable",
			      st->number_available, "numberUnavailable", st->number_unavailable, "observedGeneration",
			      (json_int_t)st->observed_generation);
	if (o && st->has_collision_count)
		json_object_set_new(o, "collisionCount", json_integer(st->collision_count));
	return o;
}

json_t *dsi_plan_owner_ref(const dsi_plan *p)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:b, s:b}", "apiVersion", p->owner_api, "kind", "DaemonSet", "name",
			 p->name, "uid", p->uid, "controller", 1, "blockOwnerDeletion", 1);
}

json_t *dsi_plan_adopt_patch(const dsi_plan *p, const char *uid)
{
	return json_pack("{s:{s:[o], s:s}}", "metadata", "ownerReferences", dsi_plan_owner_ref(p), "uid", uid);
}

json_t *dsi_plan_release_patch(const dsi_plan *p, const char *uid)
{
	return json_pack("{s:{s:[{s:s, s:s}], s:s}}", "metadata", "ownerReferences", "$patch", "delete", "uid", p->uid,
			 "uid", uid);
}

static json_t *events_json(const dsi_plan *p)
{
	json_t *a = json_array();
	for (uint32_t i = 0; a && i < p->nevents; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "type", p->events[i].type, "reason",
						   p->events[i].reason, "message", p->events[i].message));
	return a;
}

static json_t *claims_json(const dsi_plan *p, const dsi_plan_claim *v, uint32_t n,
			   json_t *(*patch)(const dsi_plan *, const char *))
{
	json_t *a = json_array();
	for (uint32_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:o}", "namespace", v[i].ns, "name", v[i].name, "patch",
						   patch(p, v[i].uid)));
	return a;
}

static json_t *names_json(const dsi_plan_names *l)
{
	json_t *a = json_array();
	for (uint32_t i = 0; a && i < l->n; i++)
		json_array_append_new(a, json_string(l->v[i]));
	return a;
}

/* {"hash","revision","current","create"|"bumpRevision","deleteDuplicates","relabelPods","adopt","release","delete"} */
static json_t *history_json(const dsi_plan_history *h)
{
	json_t *o = json_pack("{s:s, s:I, s:s}", "hash", h->hash, "revision", (json_int_t)h->revision, "current",
			      h->current);
	if (!o)
		return NULL;
	if (h->create) /* copies: the plan may be read by several threads, and its values' counts are not atomic */
		json_object_set_new(o, "create", json_deep_copy(h->create));
	if (h->bump)
		json_object_set_new(o, "bumpRevision",
				    json_pack("{s:s, s:I}", "name", h->current, "revision", (json_int_t)h->revision));
	if (h->delete_duplicates.n) {
		json_object_set_new(o, "deleteDuplicates", names_json(&h->delete_duplicates));
		json_object_set_new(o, "relabelPods", names_json(&h->relabel_pods));
	}
	if (h->adopt.n)
		json_object_set_new(o, "adopt", names_json(&h->adopt));
	if (h->release.n)
		json_object_set_new(o, "release", names_json(&h->release));
	if (h->remove.n)
		json_object_set_new(o, "delete", names_json(&h->remove));
	return o;
}

json_t *dsi_plan_to_json(const dsi_plan *p)
{
	char now[40];
	dsi_time_format(p->now, now, sizeof(now));
	json_t *doc = json_pack("{s:{s:s, s:s, s:s}, s:s}", "daemonSet", "namespace", p->ns, "name", p->name, "uid",
				p->uid, "now", now);
	if (!doc)
		return NULL;
	if (p->skipped) {
		json_object_set_new(doc, "skipped", json_string(p->skipped));
		json_object_set_new(doc, "events", events_json(p));
		return doc;
	}
	json_object_set_new(doc, "hash", json_string(p->hash));
	if (p->warning)
		json_object_set_new(doc, "warnings", json_pack("[s]", p->warning));
	uint32_t nc = p->ncreates < p->burst ? p->ncreates : p->burst;
	uint32_t nd = p->ndeletes < p->burst ? p->ndeletes : p->burst;
	json_t *creates = json_array(), *deletes = json_array(), *batches = json_array();
	for (uint32_t i = 0; creates && i < nc; i++)
		json_array_append_new(creates, json_pack("{s:s, s:s, s:o}", "node", p->creates[i].node, "reason",
							 dsi_create_reason_name(p->creates[i].reason), "pod",
							 json_deep_copy(p->creates[i].pod)));
	for (uint32_t i = 0; deletes && i < nd; i++) {
		const dsi_plan_delete *d = &p->deletes[i];
		json_array_append_new(deletes,
				      json_pack("{s:s, s:s, s:s, s:s, s:s}", "namespace", d->ns, "name", d->name, "uid",
						d->uid, "node", d->node, "reason", dsi_delete_reason_name(d->reason)));
	}
	/* syncNodes: slow-start batches 1, 2, 4, ... */
	uint32_t batch = p->slow_start < nc ? p->slow_start : nc;
	for (uint32_t pos = 0; pos < nc && batches;) {
		json_array_append_new(batches, json_integer(batch));
		pos += batch;
		uint32_t next = 2 * batch, left = nc - pos;
		batch = next < left ? next : left;
	}
	json_object_set_new(doc, "creates", creates);
	json_object_set_new(doc, "createBatches", batches);
	json_object_set_new(doc, "deletes", deletes);
	if (p->ncreates > nc || p->ndeletes > nd)
		json_object_set_new(doc, "deferred",
				    json_pack("{s:i, s:i}", "creates", (int)(p->ncreates - nc), "deletes",
					      (int)(p->ndeletes - nd)));
	if (p->nadopt)
		json_object_set_new(doc, "adoptPods", claims_json(p, p->adopt, p->nadopt, dsi_plan_adopt_patch));
	if (p->nrelease)
		json_object_set_new(doc, "releasePods",
				    claims_json(p, p->release, p->nrelease, dsi_plan_release_patch));
	if (p->history.present)
		json_object_set_new(doc, "history", history_json(&p->history));
	json_t *ru = json_pack("{s:b}", "ran", p->rolling_ran);
	if (ru && p->rolling_ran) {
		json_object_set_new(ru, "maxUnavailable", json_integer(p->max_unavailable));
		json_object_set_new(ru, "maxSurge", json_integer(p->max_surge));
		json_object_set_new(ru, "desired", json_integer(p->desired_for_update));
		if (p->max_surge)
			json_object_set_new(ru, "surging", json_integer(p->num_surge));
		else
			json_object_set_new(ru, "unavailable", json_integer(p->num_unavailable));
	}
	if (ru && p->rolling_paused)
		json_object_set_new(ru, "paused", json_true());
	if (ru && p->partition >= 0)
		json_object_set_new(ru, "partition", json_integer(p->partition));
	if (ru && p->allowed_nodes >= 0)
		json_object_set_new(ru, "nodesAllowedToUpdate", json_integer(p->allowed_nodes));
	if (ru && p->rolling_error)
		json_object_set_new(ru, "error", json_string(p->rolling_error));
	json_object_set_new(doc, "rollingUpdate", ru);
	json_object_set_new(doc, "status", status_json(&p->status));
	json_object_set_new(doc, "statusChanged", json_boolean(p->status_changed));
	if (p->requeue_ms >= 0)
		json_object_set_new(doc, "requeueAfterMs", json_integer(p->requeue_ms));
	json_object_set_new(doc, "events", events_json(p));
	json_object_set_new(doc, "backoff", dsi_backoff_to_json(&p->backoff));
	return doc;
}
