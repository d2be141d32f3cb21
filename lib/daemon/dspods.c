#include "daemon/dspods.h"

#include <string.h>

#include "core/alloc.h"
#include "core/prefetch.h"
#include "core/sort.h"
#include "daemon/availability.h"

void dsi_ds_pods_release(dsi_ds_pods *p)
{
	dsi_free(p->v);
	dsi_free(p->adopt);
	dsi_free(p->node);
	dsi_free(p->state);
	dsi_free(p->released);
	dsi_free(p->first);
	dsi_free(p->next);
	dsi_free(p->count);
	memset(p, 0, sizeof(*p));
}

/* The node a claimed pod is for (getNodesToDaemonPods): its index, DSI_NO_NODE when the node is
 * not in the snapshot, DSI_DS_PODS_NO_TARGET when the pod names none. */
static uint32_t target_index(const dsi_cluster *c, const dsi_pod *p)
{
	/* bound to a node of the snapshot: its target is its nodeName, whose index the snapshot keeps
	 * in the pod's first cache line (the spec is not read) */
	if (p->node_index != DSI_NO_NODE)
		return p->node_index;
	if (!p->spec.target_node) /* GetTargetNodeName failed: upstream skips the pod */
		return DSI_DS_PODS_NO_TARGET;
	const dsi_node *node = p->spec.node_name ? NULL : dsi_cluster_node(c, p->spec.target_node);
	return node ? node->index : DSI_NO_NODE;
}

uint8_t dsi_ds_pod_state(const dsi_ds_pods_when *w, const dsi_pod *p)
{
	return (uint8_t)((p->meta.has_deletion ? DSI_DSP_DELETING : 0) |
			 (p->phase == DSI_PHASE_FAILED ? DSI_DSP_FAILED : 0) |
			 (p->phase == DSI_PHASE_SUCCEEDED ? DSI_DSP_SUCCEEDED : 0) |
			 (dsi_pod_ready_p(p) ? DSI_DSP_READY : 0) |
			 (dsi_pod_available(p, w->min_ready_seconds, w->now, w->k8s_minor) ? DSI_DSP_AVAILABLE : 0) |
			 (dsi_pod_updated(w->key, p) ? DSI_DSP_UPDATED : 0));
}

static int push(const dsi_cluster *c, dsi_ds_pods *out, size_t *cap, const dsi_pod *p, int adopt)
{
	if (out->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		const dsi_pod **v = dsi_reallocarray(out->v, ncap, sizeof(*v));
		if (!v)
			return -1;
		out->v = v;
		uint8_t *a = dsi_reallocarray(out->adopt, ncap, 1);
		if (!a)
			return -1;
		out->adopt = a;
		uint32_t *w = dsi_reallocarray(out->node, ncap, sizeof(*w));
		if (!w)
			return -1;
		out->node = w;
		if (out->when.key) {
			uint8_t *st = dsi_reallocarray(out->state, ncap, 1);
			if (!st)
				return -1;
			out->state = st;
		}
		*cap = ncap;
	}
	out->v[out->n] = p;
	out->adopt[out->n] = (uint8_t)adopt;
	out->node[out->n] = target_index(c, p);
	if (out->when.key)
		out->state[out->n] = dsi_ds_pod_state(&out->when, p);
	out->n++;
	return 0;
}

int dsi_pod_cmp_name(const void *a, const void *b, void *ctx)
{
	const dsi_cluster *c = ctx;
	const dsi_pod *x = a, *y = b;
	return strcmp(dsi_cstr(c, x->meta.name), dsi_cstr(c, y->meta.name));
}

typedef struct chain_ctx {
	const dsi_cluster *c;
	const dsi_pod *const *v;
} chain_ctx;

/* Indices into v, by their pods' names. */
static int cmp_index_name(const void *a, const void *b, void *ctx)
{
	const chain_ctx *x = ctx;
	return dsi_pod_cmp_name(x->v[*(const int32_t *)a], x->v[*(const int32_t *)b], (void *)x->c);
}

/* Relinks the chain at *head (n indices into out->v) in name order, so that what is listed from
 * it does not depend on claim order. */
static int sort_chain(const dsi_cluster *c, dsi_ds_pods *out, int32_t *head, uint32_t n)
{
	int32_t *idx = dsi_reallocarray(NULL, n, sizeof(*idx));
	if (!idx)
		return -1;
	uint32_t m = 0;
	for (int32_t k = *head; k >= 0 && m < n; k = out->next[k])
		idx[m++] = k;
	chain_ctx ctx = {c, out->v};
	dsi_sort_stable(idx, m, sizeof(*idx), cmp_index_name, &ctx);
	for (uint32_t i = 0; i < m; i++)
		out->next[idx[i]] = i + 1 < m ? idx[i + 1] : -1;
	if (m)
		*head = idx[0];
	dsi_free(idx);
	return 0;
}

/* ClaimPods (pkg/controller/controller_ref_manager.go): keep matching pods it
 * controls, release non-matching ones, adopt matching orphans unless the
 * DaemonSet or the pod is being deleted; pods of other controllers are not ours. */
int dsi_ds_pods_collect(const dsi_cluster *c, const dsi_daemonset *ds, int include_deleted_terminal, dsi_ds_pods *out)
{
	return dsi_ds_pods_collect_when(c, ds, include_deleted_terminal, NULL, out);
}

int dsi_ds_pods_collect_when(const dsi_cluster *c, const dsi_daemonset *ds, int include_deleted_terminal,
			     const dsi_ds_pods_when *when, dsi_ds_pods *out)
{
	memset(out, 0, sizeof(*out));
	out->lost = -1;
	if (when)
		out->when = *when;
	size_t cap = 0, rcap = 0;
	int rc = 0;
	const dsi_pod_group *g = ds->meta.uid ? dsi_cluster_pods_of_owner(c, ds->meta.uid) : NULL;
	for (uint32_t i = 0; g && i < g->n && rc == 0; i++) {
		/* what this loop reads: the pod's first line (dsi_pod), then its labels */
		if (i + 2 * DSI_PREFETCH_AHEAD < g->n)
			DSI_PREFETCH(g->v[i + 2 * DSI_PREFETCH_AHEAD]);
		if (i + DSI_PREFETCH_AHEAD < g->n)
			DSI_PREFETCH(g->v[i + DSI_PREFETCH_AHEAD]->meta.labels.v);
		const dsi_pod *p = g->v[i];
		if (p->meta.ns != ds->meta.ns)
			continue; /* owner references never cross namespaces */
		if (!include_deleted_terminal && dsi_pod_terminal(p) && p->meta.has_deletion)
			continue;
		if (dsi_selector_matches(&c->atoms, &ds->selector, &p->meta.labels)) {
			rc = push(c, out, &cap, p, 0);
		} else if (!ds->meta.has_deletion) {
			if (DSI_GROW(out->released, rcap, (size_t)out->nreleased + 1) < 0)
				rc = -1;
			else
				out->released[out->nreleased++] = p;
		}
	}
	g = ds->meta.has_deletion ? NULL : dsi_cluster_orphans(c, ds->meta.ns);
	for (uint32_t i = 0; g && i < g->n && rc == 0; i++) {
		const dsi_pod *p = g->v[i];
		if (p->meta.has_deletion || !dsi_selector_matches(&c->atoms, &ds->selector, &p->meta.labels))
			continue;
		rc = push(c, out, &cap, p, 1);
	}
	/* Upstream walks the informer's cache, in no defined order; we list by name, so that a plan
	 * does not depend on the snapshot's history (owner groups change order when objects are
	 * replaced or the snapshot is copied): released pods here, each node's chain below, adopted
	 * pods where the plan lists them. Sorting all claimed pods would cost O(n log n) per sync. */
	if (rc == 0 && out->nreleased > 1)
		dsi_sort_ptrs((void **)out->released, out->nreleased, dsi_pod_cmp_name, (void *)c);
	size_t nn = dsi_cluster_count(c, DSI_KIND_NODE);
	out->nnodes = (uint32_t)nn;
	out->first = dsi_malloc((nn ? nn : 1) * sizeof(int32_t));
	out->count = dsi_calloc(nn ? nn : 1, sizeof(uint32_t));
	out->next = dsi_malloc((out->n ? out->n : 1) * sizeof(int32_t));
	if (rc < 0 || !out->first || !out->next || !out->count) {
		dsi_ds_pods_release(out);
		return -1;
	}
	memset(out->first, 0xff, (nn ? nn : 1) * sizeof(int32_t));
	/* walk backwards so that each node's chain lists pods in claim order (sorted below); the
	 * pods themselves are not read again */
	for (uint32_t i = out->n; i-- > 0;) {
		uint32_t ni = out->node[i];
		if (ni == DSI_DS_PODS_NO_TARGET) {
			out->next[i] = -2;
			continue;
		}
		if (ni == DSI_NO_NODE) {
			out->next[i] = out->lost;
			out->lost = (int32_t)i;
			continue;
		}
		out->next[i] = out->first[ni];
		out->first[ni] = (int32_t)i;
		out->count[ni]++;
	}
	/* Chains in name order (see above; most nodes have one pod: nothing to do). */
	uint32_t nlost = 0;
	for (int32_t k = out->lost; k >= 0; k = out->next[k])
		nlost++;
	rc = nlost > 1 ? sort_chain(c, out, &out->lost, nlost) : 0;
	for (size_t i = 0; i < nn && rc == 0; i++)
		if (out->count[i] > 1)
			rc = sort_chain(c, out, &out->first[i], out->count[i]);
	if (rc < 0) {
		dsi_ds_pods_release(out);
		return -1;
	}
	return 0;
}

/* podByCreationTimestampAndPhase.Less (daemon_controller.go) */
int dsi_pod_cmp_creation(const void *a, const void *b, void *ctx)
{
	const dsi_cluster *c = ctx;
	const dsi_pod *x = *(const dsi_pod *const *)a, *y = *(const dsi_pod *const *)b;
	int xb = x->spec.node_name != 0, yb = y->spec.node_name != 0;
	if (xb != yb)
		return xb ? -1 : 1;
	if (x->meta.creation != y->meta.creation)
		return x->meta.creation < y->meta.creation ? -1 : 1;
	return strcmp(dsi_cstr(c, x->meta.name), dsi_cstr(c, y->meta.name));
}
