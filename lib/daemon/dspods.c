#include "daemon/dspods.h"

#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"

void dsi_ds_pods_release(dsi_ds_pods *p)
{
	dsi_free(p->v);
	dsi_free(p->adopt);
	dsi_free(p->released);
	dsi_free(p->first);
	dsi_free(p->next);
	dsi_free(p->count);
	memset(p, 0, sizeof(*p));
}

static int push(dsi_ds_pods *out, size_t *cap, const dsi_pod *p, int adopt)
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
		*cap = ncap;
	}
	out->v[out->n] = p;
	out->adopt[out->n] = (uint8_t)adopt;
	out->n++;
	return 0;
}

/* Pods by name: a DaemonSet's pods share its namespace. */
static int cmp_pod_name(const void *a, const void *b, void *ctx)
{
	const dsi_cluster *c = ctx;
	const dsi_pod *x = a, *y = b;
	return strcmp(dsi_cstr(c, x->meta.name), dsi_cstr(c, y->meta.name));
}

/* ClaimPods (pkg/controller/controller_ref_manager.go): keep matching pods it
 * controls, release non-matching ones, adopt matching orphans unless the
 * DaemonSet or the pod is being deleted; pods of other controllers are not ours. */
int dsi_ds_pods_collect(const dsi_cluster *c, const dsi_daemonset *ds, int include_deleted_terminal, dsi_ds_pods *out)
{
	memset(out, 0, sizeof(*out));
	out->lost = -1;
	size_t cap = 0, rcap = 0;
	int rc = 0;
	if (ds->meta.uid)
		for (const dsi_pod *p = dsi_cluster_pods_of_owner(c, ds->meta.uid); p && rc == 0; p = p->owner_next) {
			if (p->meta.ns != ds->meta.ns)
				continue; /* owner references never cross namespaces */
			if (!include_deleted_terminal && dsi_pod_terminal(p) && p->meta.has_deletion)
				continue;
			if (dsi_selector_matches(&c->atoms, &ds->selector, &p->meta.labels)) {
				rc = push(out, &cap, p, 0);
			} else if (!ds->meta.has_deletion) {
				if (DSI_GROW(out->released, rcap, (size_t)out->nreleased + 1) < 0)
					rc = -1;
				else
					out->released[out->nreleased++] = p;
			}
		}
	if (!ds->meta.has_deletion)
		for (const dsi_pod *p = dsi_cluster_orphans(c, ds->meta.ns); p && rc == 0; p = p->owner_next) {
			if (p->meta.has_deletion || !dsi_selector_matches(&c->atoms, &ds->selector, &p->meta.labels))
				continue;
			rc = push(out, &cap, p, 1);
		}
	/* Upstream releases in the informer's (undefined) order; by name, a plan's releasePods do not
	 * depend on the snapshot's history (owner lists change order when objects are replaced or
	 * the snapshot is copied). Claimed pods need no sort: each node's pods are ordered by
	 * podByCreationTimestampAndPhase, which ends in the name. */
	if (rc == 0 && out->nreleased > 1)
		dsi_sort_ptrs((void **)out->released, out->nreleased, cmp_pod_name, (void *)c);
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
	/* walk backwards so that each node's chain lists pods in claim order */
	for (uint32_t i = out->n; i-- > 0;) {
		const dsi_pod *p = out->v[i];
		if (!p->spec.target_node) { /* GetTargetNodeName failed: upstream skips the pod */
			out->next[i] = -2;
			continue;
		}
		/* a bound pod's target is its nodeName, whose node index the snapshot keeps */
		uint32_t ni = p->node_index;
		if (!p->spec.node_name) {
			const dsi_node *node = dsi_cluster_node(c, p->spec.target_node);
			ni = node ? node->index : DSI_NO_NODE;
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
