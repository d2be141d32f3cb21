#include "sched/preemption.h"

#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"

/* PodPriority (component-helpers scheduling/corev1/helpers.go), with the Priority admission's resolution */
int dsi_pod_priority(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_podspec *spec, int32_t *out)
{
	if (spec->has_priority) {
		*out = spec->priority;
		return 0;
	}
	if (spec->priority_class) {
		const char *name = dsi_atom_str(atoms, spec->priority_class);
		const dsi_priority_class *pc = dsi_cluster_priority_class(c, spec->priority_class);
		if (pc) {
			*out = pc->value;
			return 0;
		}
		if (strcmp(name, "system-node-critical") == 0) {
			*out = DSI_SYSTEM_NODE_CRITICAL;
			return 0;
		}
		if (strcmp(name, "system-cluster-critical") == 0) {
			*out = DSI_SYSTEM_CLUSTER_CRITICAL;
			return 0;
		}
		return -1;
	}
	for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_PRIORITY_CLASS); i++) {
		const dsi_priority_class *pc = c->objs[DSI_KIND_PRIORITY_CLASS].v[i];
		if (pc->global_default) {
			*out = pc->value;
			return 0;
		}
	}
	*out = 0;
	return 0;
}

typedef struct cand {
	const dsi_pod *pod;
	int32_t prio;
	uint8_t victim; /* currently removed */
	uint8_t violating;
} cand;

/* MoreImportantPod (scheduler util): higher priority, then earlier start (no start time = now). */
static int more_important_first(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const cand *x = a, *y = b;
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	int xs = x->pod->has_start_time, ys = y->pod->has_start_time;
	if (xs != ys)
		return xs ? -1 : 1;
	if (xs && x->pod->start_time != y->pod->start_time)
		return x->pod->start_time < y->pod->start_time ? -1 : 1;
	return 0;
}

typedef struct skip_ctx {
	dsi_pod_filter outer;
	void *outer_ctx;
	cand *cands;
	uint32_t n;
} skip_ctx;

static int skip_victims(const dsi_pod *p, void *vctx)
{
	skip_ctx *s = vctx;
	if (s->outer && s->outer(p, s->outer_ctx))
		return 1;
	for (uint32_t i = 0; i < s->n; i++)
		if (s->cands[i].pod == p)
			return s->cands[i].victim;
	return 0;
}

/* The filters with the victims removed: from the node's usage, and from the cycle's state through
 * RemovePod (SelectVictimsOnNode's removePod on a clone of the state), so that removing a pod can
 * satisfy anti-affinity. */
static int fits_without_victims(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_podspec *spec,
				const dsi_tolerations *tols, int cmp, const dsi_node *node, const dsi_cycle *cy,
				skip_ctx *s, dsi_fit *fit)
{
	dsi_node_usage u;
	dsi_cycle state;
	if (dsi_cycle_clone(cy, &state) < 0)
		return -1;
	for (uint32_t i = 0; i < s->n; i++)
		if (s->cands[i].victim && dsi_cycle_update(&state, c, s->cands[i].pod, node, -1) < 0) {
			dsi_cycle_release(&state);
			return -1;
		}
	if (dsi_node_usage_init(c, node, skip_victims, s, &u) < 0) {
		dsi_cycle_release(&state);
		return -1;
	}
	dsi_run_filters(c, atoms, spec, tols, cmp, node, &u, &state, fit);
	dsi_node_usage_release(&u);
	dsi_cycle_release(&state);
	return fit->n == 0;
}

/* filterPodsWithPDBViolation (default_preemption.go): each PDB's budget is its
 * disruptionsAllowed; pods already listed in disruptedPods do not spend it. */
static void mark_pdb_violations(const dsi_cluster *c, cand *cands, uint32_t n)
{
	size_t npdb = dsi_cluster_count(c, DSI_KIND_PDB);
	if (!npdb)
		return;
	int32_t *budget = dsi_calloc(npdb, sizeof(int32_t));
	if (!budget)
		return;
	for (size_t k = 0; k < npdb; k++)
		budget[k] = ((const dsi_pdb *)c->objs[DSI_KIND_PDB].v[k])->disruptions_allowed;
	for (uint32_t i = 0; i < n; i++) {
		const dsi_pod *p = cands[i].pod;
		if (!p->meta.labels.n)
			continue;
		for (size_t k = 0; k < npdb; k++) {
			const dsi_pdb *pdb = c->objs[DSI_KIND_PDB].v[k];
			if (pdb->meta.ns != p->meta.ns || pdb->selector_empty_or_nil ||
			    !dsi_selector_matches(&c->atoms, &pdb->selector, &p->meta.labels))
				continue;
			int disrupted = 0;
			for (uint32_t d = 0; d < pdb->ndisrupted; d++)
				disrupted |= pdb->disrupted[d] == p->meta.name;
			if (disrupted)
				continue;
			if (--budget[k] < 0)
				cands[i].violating = 1;
		}
	}
	dsi_free(budget);
}

int dsi_select_victims(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_podspec *spec, int32_t priority,
		       const dsi_tolerations *tols, int comparison_ops, const dsi_node *node, const dsi_cycle *cy,
		       dsi_pod_filter skip, void *ctx, dsi_preemption *out)
{
	memset(out, 0, sizeof(*out));
	out->attempted = 1;
	if (spec->preempt_never) {
		out->message = "not eligible due to preemptionPolicy=Never.";
		return 0;
	}
	uint32_t n = 0;
	for (const dsi_pod *p = dsi_cluster_pods_on_node(c, node->meta.name); p; p = p->node_next)
		n++;
	cand *cands = dsi_calloc(n ? n : 1, sizeof(cand));
	if (!cands)
		return -1;
	uint32_t k = 0;
	for (const dsi_pod *p = dsi_cluster_pods_on_node(c, node->meta.name); p; p = p->node_next) {
		if (dsi_pod_terminal(p) || (skip && skip(p, ctx)))
			continue;
		int32_t pr;
		if (dsi_pod_priority(c, &c->atoms, &p->spec, &pr) < 0)
			pr = 0;
		if (pr < priority)
			cands[k++] = (cand){p, pr, 1, 0};
	}
	if (!k) {
		out->message = "No preemption victims found for incoming pod";
		dsi_free(cands);
		return 0;
	}
	dsi_sort_stable(cands, k, sizeof(cand), more_important_first, NULL);
	skip_ctx s = {skip, ctx, cands, k};
	int fits = fits_without_victims(c, atoms, spec, tols, comparison_ops, node, cy, &s, &out->after);
	if (fits < 0) {
		dsi_free(cands);
		return -1;
	}
	if (!fits) {
		out->message = out->after.n ? out->after.reasons[0].message : "the pod does not fit";
		dsi_free(cands);
		return 0;
	}
	mark_pdb_violations(c, cands, k);
	/* reprieve: the PDB violators first, then the others, most important first */
	for (int pass = 1; pass >= 0; pass--) {
		for (uint32_t i = 0; i < k; i++) {
			if (cands[i].violating != pass)
				continue;
			cands[i].victim = 0;
			dsi_fit f;
			int ok = fits_without_victims(c, atoms, spec, tols, comparison_ops, node, cy, &s, &f);
			if (ok < 0) {
				dsi_free(cands);
				return -1;
			}
			if (!ok)
				cands[i].victim = 1;
		}
	}
	out->possible = 1;
	out->victims = dsi_calloc(k, sizeof(*out->victims));
	if (!out->victims) {
		dsi_free(cands);
		return -1;
	}
	for (uint32_t i = 0; i < k; i++)
		if (cands[i].victim) {
			out->victims[out->nvictims++] = cands[i].pod;
			out->pdb_violations += cands[i].violating;
		}
	dsi_free(cands);
	return 0;
}

void dsi_preemption_release(dsi_preemption *p)
{
	dsi_free(p->victims);
	p->victims = NULL;
	p->nvictims = 0;
}
