#include "daemon/shouldrun.h"

#include <string.h>

#include "core/alloc.h"
#include "core/prefetch.h"
#include "daemon/daemontolerations.h"
#include "sched/nodeaffinity.h"
#include "sched/tolerations.h"

int dsi_placement_init_atoms(dsi_placement *p, const dsi_atoms *atoms, const dsi_daemonset *ds,
			     const dsi_core_options *o)
{
	p->c = NULL;
	p->atoms = atoms;
	p->ds = ds;
	p->comparison_ops = dsi_gate(o, DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS);
	p->gates = o->gates;
	return dsi_daemon_tolerations(atoms, &ds->tspec.tolerations, ds->tspec.host_network, &p->tolerations);
}

int dsi_placement_init(dsi_placement *p, const dsi_cluster *c, const dsi_daemonset *ds, const dsi_core_options *o)
{
	int rc = dsi_placement_init_atoms(p, &c->atoms, ds, o);
	p->c = c;
	return rc;
}

void dsi_placement_release(dsi_placement *p)
{
	dsi_free(p->tolerations.v);
	p->tolerations.v = NULL;
	p->tolerations.n = 0;
}

/* What a pass over all nodes keeps from one node to the next (a single node: the template's
 * selector, nothing kept). */
typedef struct node_pass {
	const dsi_node_selector *required; /* spec.required, or its folded copy */
	dsi_expr_pass *exprs;              /* its expressions as a pass evaluates them, or NULL */
	dsi_taint_memo *taints;            /* the verdicts on the taints met, or NULL */
} node_pass;

/* NodeShouldRunDaemonPod (pkg/controller/daemon/daemon_controller.go): nodeName,
 * then required node affinity (nodeSelector and terms), then taints. An
 * untolerated NoSchedule taint stops new pods but keeps a running one; an
 * untolerated NoExecute taint evicts it. The node's strings are in tb (p->atoms in a pass). */
static inline void should_run(const dsi_placement *p, const node_pass *np, const dsi_atoms *tb, const dsi_node *node,
			      dsi_verdict *out)
{
	const dsi_podspec *spec = &p->ds->tspec;
	const dsi_atoms *ta = p->atoms;
	out->should_run = out->should_continue = 0;
	out->taint = NULL;
	if (spec->node_name && !dsi_atom_eq_x(ta, spec->node_name, tb, node->meta.name)) {
		out->why = DSI_WHY_NODE_NAME;
		return;
	}
	int which;
	if (!dsi_required_affinity_matches_with_x(ta, &spec->node_selector, np->required, np->exprs, tb, node,
						  &which)) {
		out->why = which == 1 ? DSI_WHY_NODE_SELECTOR : DSI_WHY_NODE_AFFINITY;
		return;
	}
	static const dsi_effect_filter no_schedule_execute = {DSI_EFFECTS_NOSCHEDULE_NOEXECUTE, NULL, 0},
				       no_execute = {DSI_EFFECTS_NOEXECUTE, NULL, 0};
	const dsi_taint *t = node->taints.n
				     ? dsi_find_untolerated_taint_x(tb, &node->taints, ta, &p->tolerations,
								    &no_schedule_execute, p->comparison_ops, np->taints)
				     : NULL;
	if (!t) {
		out->should_run = out->should_continue = 1;
		out->why = DSI_WHY_OK;
		return;
	}
	out->why = DSI_WHY_TAINT;
	out->taint = t;
	out->should_continue = t->effect != DSI_EFFECT_NO_EXECUTE &&
			       !dsi_find_untolerated_taint_x(tb, &node->taints, ta, &p->tolerations, &no_execute,
							     p->comparison_ops, np->taints);
}

void dsi_node_should_run(const dsi_placement *p, const dsi_node *node, dsi_verdict *out)
{
	const node_pass one = {&p->ds->tspec.required, NULL, NULL};
	should_run(p, &one, p->atoms, node, out);
}

void dsi_node_should_run_x(const dsi_placement *p, const dsi_atoms *node_atoms, const dsi_node *node, dsi_verdict *out)
{
	const node_pass one = {&p->ds->tspec.required, NULL, NULL};
	should_run(p, &one, node_atoms, node, out);
}

/* Starts loading what dsi_node_should_run reads of a node: its labels and taints (the node itself
 * was prefetched earlier, since these pointers are in it). */
static void prefetch_node_data(const dsi_node *n)
{
	const char *l = (const char *)n->meta.labels.v;
	for (size_t off = 0; off < n->meta.labels.n * sizeof(dsi_label); off += 64)
		DSI_PREFETCH(l + off);
	if (n->taints.n)
		DSI_PREFETCH(n->taints.v);
}

void dsi_node_should_run_all(const dsi_placement *p, dsi_verdict *verdict, uint32_t *order)
{
	const dsi_cluster *c = p->c;
	size_t nn = dsi_cluster_count(c, DSI_KIND_NODE);
	/* the required affinity as these nodes see it (dsi_node_selector_fold); without memory for
	 * it, the whole selector gives the same verdicts, only more slowly */
	dsi_node_selector folded;
	const dsi_node_selector *required = &p->ds->tspec.required;
	if (dsi_node_selector_fold(required, c, &folded) == 0)
		required = &folded;
	/* its expressions as a pass evaluates them (dsi_expr_pass); without memory for them, each
	 * node is matched on its own */
	dsi_expr_pass *exprs = NULL;
	if (dsi_node_selector_pass_init(required, &exprs) < 0)
		exprs = NULL;
	dsi_taint_memo memo;
	memset(memo.state, 0, sizeof(memo.state));
	const node_pass np = {required, exprs, &memo};
	for (size_t i = 0; i < nn; i++) {
		if (i + 2 * DSI_PREFETCH_AHEAD < nn)
			DSI_PREFETCH(dsi_cluster_node_at(c, i + 2 * DSI_PREFETCH_AHEAD));
		if (i + DSI_PREFETCH_AHEAD < nn)
			prefetch_node_data(dsi_cluster_node_at(c, i + DSI_PREFETCH_AHEAD));
		const dsi_node *node = dsi_cluster_node_at(c, i);
		should_run(p, &np, p->atoms, node, &verdict[node->index]);
		if (order)
			order[i] = node->index;
	}
	dsi_free(exprs);
	dsi_node_selector_fold_release(&folded);
}

const char *dsi_why_message(int why)
{
	switch (why) {
	case DSI_WHY_NODE_NAME: return "node(s) didn't match the requested node name";
	case DSI_WHY_NODE_SELECTOR:
	case DSI_WHY_NODE_AFFINITY: return "node(s) didn't match Pod's node affinity/selector";
	case DSI_WHY_TAINT: return "node(s) had untolerated taint(s)";
	default: return "";
	}
}
