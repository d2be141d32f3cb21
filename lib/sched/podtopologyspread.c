/* PodTopologySpread's PreFilter and Filter (kube-scheduler pkg/scheduler/framework/plugins/
 * podtopologyspread/filtering.go and common.go). */
#include "sched/podtopologyspread.h"

#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "sched/nodeaffinity.h"
#include "sched/tolerations.h"

#define MAX_INT32 2147483647

/* Selector.Matches with matchLabelKeys merged (mergeLabelSetWithSelector: a Nothing selector
 * stays Nothing). */
static int selector_matches(const dsi_atoms *a, const dsi_pts_constraint *k, const dsi_labels *labels)
{
	if (!dsi_selector_matches(a, &k->c->selector, labels))
		return 0;
	for (uint32_t i = 0; i < k->nmatch; i++)
		if (dsi_labels_get(labels, k->match[i].key) != k->match[i].value)
			return 0;
	return 1;
}

/* nodeLabelsMatchSpreadConstraints (common.go) */
static int node_has_all_keys(const dsi_pts_state *st, const dsi_node *node)
{
	for (uint32_t i = 0; i < st->n; i++)
		if (!st->v[i].c->topology_key || !dsi_labels_get(&node->meta.labels, st->v[i].c->topology_key))
			return 0;
	return 1;
}

/* The pod's required node affinity (GetRequiredNodeAffinity(pod).Match): for a pinned daemon pod,
 * its nodeSelector and the metadata.name pin to target. */
static int affinity_matches(const dsi_sched_pod *pod, const dsi_node *node, const dsi_node *target)
{
	if (pod->pinned)
		return node == target && dsi_labels_subset(&pod->spec->node_selector, &node->meta.labels);
	return dsi_required_affinity_matches(pod->atoms, pod->spec, node, NULL);
}

static int taints_tolerated(const dsi_sched_pod *pod, const dsi_node *node)
{
	return !dsi_find_untolerated_taint(pod->atoms, &node->taints, pod->tols, DSI_EFFECTS_NOSCHEDULE_NOEXECUTE,
					   pod->comparison_ops, NULL);
}

/* matchNodeInclusionPolicies (common.go) */
static int inclusion(const dsi_sched_pod *pod, const dsi_pts_constraint *k, const dsi_node *node,
		     const dsi_node *target)
{
	if (!k->c->affinity_ignore && !affinity_matches(pod, node, target))
		return 0;
	return !k->c->taints_honor || taints_tolerated(pod, node);
}

/* countPodsMatchSelector (common.go): terminating pods and other namespaces do not count */
static int64_t count_pods(const dsi_cluster *c, const dsi_pts_state *st, const dsi_pts_constraint *k,
			  const dsi_node *node, dsi_pod_filter skip, void *ctx)
{
	if (k->empty)
		return 0;
	int64_t n = 0;
	for (const dsi_pod *p = dsi_cluster_pods_on_node(c, node->meta.name); p; p = p->node_next) {
		if (dsi_pod_terminal(p) || (skip && skip(p, ctx)) || p->meta.has_deletion || p->meta.ns != st->pod->ns)
			continue;
		n += selector_matches(st->pod->atoms, k, &p->meta.labels);
	}
	return n;
}

/* criticalPaths.update (filtering.go) */
static void paths_update(dsi_pts_path *p, dsi_atom value, int64_t num)
{
	int i = value == p[0].value ? 0 : value == p[1].value ? 1 : -1;
	if (i >= 0) {
		p[i].num = num;
		if (p[0].num > p[1].num) {
			dsi_pts_path t = p[0];
			p[0] = p[1];
			p[1] = t;
		}
	} else if (num < p[0].num) {
		p[1] = p[0];
		p[0].value = value;
		p[0].num = num;
	} else if (num < p[1].num) {
		p[1].value = value;
		p[1].num = num;
	}
}

static int64_t domain_count(const dsi_pts_constraint *k, dsi_atom value)
{
	return dsi_topocount_get(&k->counts, value);
}

void dsi_pts_release(dsi_pts_state *st)
{
	for (uint32_t i = 0; i < st->n; i++) {
		dsi_pts_constraint *k = &st->v[i];
		dsi_free(k->match);
		dsi_topocount_release(&k->counts);
		dsi_topocount_release(&k->per_node);
	}
	dsi_free(st->v);
	memset(st, 0, sizeof(*st));
}

/* filterTopologySpreadConstraints (common.go): the DoNotSchedule constraints, matchLabelKeys
 * merged with the pod's labels */
static int build_constraints(dsi_pts_state *st)
{
	const dsi_spread_constraints *sc = &st->pod->spec->spread;
	uint32_t n = 0;
	for (uint32_t i = 0; i < sc->n; i++)
		n += sc->v[i].do_not_schedule;
	if (!n)
		return 0;
	if (!(st->v = dsi_calloc(n, sizeof(dsi_pts_constraint))))
		return -1;
	for (uint32_t i = 0; i < sc->n; i++) {
		const dsi_spread_constraint *c = &sc->v[i];
		if (!c->do_not_schedule)
			continue;
		dsi_pts_constraint *k = &st->v[st->n++];
		k->c = c;
		dsi_topocount_init(&k->counts, NULL);
		dsi_topocount_init(&k->per_node, NULL);
		k->paths[0] = k->paths[1] = (dsi_pts_path){DSI_ATOM_NONE, MAX_INT32};
		if (c->nmatch_label_keys && c->selector.kind == DSI_SELECTOR_REQS) {
			if (!(k->match = dsi_calloc(c->nmatch_label_keys, sizeof(dsi_label))))
				return -1;
			for (uint32_t m = 0; m < c->nmatch_label_keys; m++) {
				dsi_atom v = dsi_labels_get(st->pod->labels, c->match_label_keys[m]);
				if (v)
					k->match[k->nmatch++] = (dsi_label){c->match_label_keys[m], v};
			}
		}
		k->empty = dsi_selector_is_everything(&c->selector) && k->nmatch == 0;
		k->pinned = st->pod->pinned && !c->affinity_ignore;
	}
	return 0;
}

static void paths_add(void *ctx, uint64_t value, int64_t n) { paths_update(ctx, (dsi_atom)value, n); }

/* calPreFilterState (filtering.go) */
int dsi_pts_prefilter(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_pod_filter skip, void *ctx, dsi_pts_state *st)
{
	memset(st, 0, sizeof(*st));
	st->pod = pod;
	if (pod->spec->spread.error) {
		st->error = pod->spec->spread.error;
		return 0;
	}
	size_t nn = dsi_cluster_count(c, DSI_KIND_NODE);
	if (build_constraints(st) < 0) {
		dsi_pts_release(st);
		return -1;
	}
	st->skip = st->n == 0;
	for (size_t j = 0; j < nn && st->n; j++) {
		const dsi_node *node = dsi_cluster_node_at(c, j);
		if (!node_has_all_keys(st, node))
			continue;
		for (uint32_t i = 0; i < st->n; i++) {
			dsi_pts_constraint *k = &st->v[i];
			int rc;
			if (k->pinned) { /* eligible only as the node filtered: counted per node */
				int64_t n = count_pods(c, st, k, node, skip, ctx);
				rc = n ? dsi_topocount_add(&k->per_node, node->index, n, NULL) : 0;
			} else if (!inclusion(pod, k, node, NULL)) {
				continue;
			} else {
				rc = dsi_topocount_add(&k->counts,
						       dsi_labels_get(&node->meta.labels, k->c->topology_key),
						       count_pods(c, st, k, node, skip, ctx), NULL);
			}
			if (rc < 0) {
				dsi_pts_release(st);
				return -1;
			}
		}
	}
	for (uint32_t i = 0; i < st->n; i++)
		dsi_topocount_each(&st->v[i].counts, paths_add, st->v[i].paths);
	return 0;
}

/* updateWithPod (filtering.go) */
int dsi_pts_update(dsi_pts_state *st, const dsi_cluster *c, const dsi_pod *p, const dsi_node *node, int sign)
{
	(void)c;
	if (!st->n || p->meta.ns != st->pod->ns || !node_has_all_keys(st, node))
		return 0;
	for (uint32_t i = 0; i < st->n; i++) {
		dsi_pts_constraint *k = &st->v[i];
		if (!selector_matches(st->pod->atoms, k, &p->meta.labels))
			continue;
		if (k->pinned) {
			if (dsi_topocount_add(&k->per_node, node->index, sign, NULL) < 0)
				return -1;
			continue;
		}
		if (!inclusion(st->pod, k, node, NULL))
			continue;
		dsi_atom v = dsi_labels_get(&node->meta.labels, k->c->topology_key);
		int64_t now;
		if (dsi_topocount_add(&k->counts, v, sign, &now) < 0)
			return -1;
		paths_update(k->paths, v, now);
	}
	return 0;
}

int dsi_pts_clone(const dsi_pts_state *src, dsi_pts_state *dst)
{
	*dst = *src;
	dst->v = NULL;
	dst->n = 0;
	if (!src->n)
		return 0;
	if (!(dst->v = dsi_calloc(src->n, sizeof(dsi_pts_constraint))))
		return -1;
	for (uint32_t i = 0; i < src->n; i++) {
		const dsi_pts_constraint *s = &src->v[i];
		dsi_pts_constraint *d = &dst->v[i];
		*d = *s;
		d->match = NULL;
		dsi_topocount_init(&d->counts, &s->counts);
		dsi_topocount_init(&d->per_node, &s->per_node);
		dst->n = i + 1;
		if (s->nmatch) {
			if (!(d->match = dsi_calloc(s->nmatch, sizeof(dsi_label)))) {
				dsi_pts_release(dst);
				return -1;
			}
			memcpy(d->match, s->match, s->nmatch * sizeof(dsi_label));
		}
	}
	return 0;
}

/* Filter (filtering.go), with minMatchNum */
int dsi_pts_filter(const dsi_cluster *c, const dsi_pts_state *st, const dsi_node *node)
{
	(void)c;
	for (uint32_t i = 0; i < st->n; i++) {
		const dsi_pts_constraint *k = &st->v[i];
		dsi_atom v =
			k->c->topology_key ? dsi_labels_get(&node->meta.labels, k->c->topology_key) : DSI_ATOM_NONE;
		if (v == DSI_ATOM_NONE)
			return DSI_PTS_MISSING_LABEL;
		int64_t min, match, domains;
		if (k->pinned) {
			/* the one node the pinned pod may go to, when it is eligible and has every key */
			int eligible = node_has_all_keys(st, node) && inclusion(st->pod, k, node, node);
			int64_t here = eligible ? dsi_topocount_get(&k->per_node, node->index) : 0;
			domains = eligible;
			match = here;
			min = eligible ? here : MAX_INT32;
		} else {
			domains = k->counts.present;
			match = domain_count(k, v);
			min = k->paths[0].num;
		}
		if (domains < k->c->min_domains)
			min = 0; /* fewer eligible domains than minDomains: the global minimum is 0 */
		int64_t self = selector_matches(st->pod->atoms, k, st->pod->labels);
		if (match + self - min > k->c->max_skew)
			return DSI_PTS_SKEW;
	}
	return DSI_PTS_OK;
}

const char *dsi_pts_reason(int which, int *unresolvable)
{
	*unresolvable = which == DSI_PTS_MISSING_LABEL;
	return which == DSI_PTS_MISSING_LABEL
		       ? "node(s) didn't match pod topology spread constraints (missing required label)"
		       : "node(s) didn't match pod topology spread constraints";
}
