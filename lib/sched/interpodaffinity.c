/* InterPodAffinity's PreFilter and Filter (kube-scheduler pkg/scheduler/framework/plugins/
 * interpodaffinity/filtering.go), with AffinityTerm.Matches (kube-scheduler framework types.go). */
#include "sched/interpodaffinity.h"

#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"

static const dsi_labels no_labels = {NULL, 0};

/* GetNamespaceLabelsSnapshot (interpodaffinity/plugin.go): the Namespace's labels, or none when it
 * is not among the objects (upstream's lister answers NotFound). *found says which. */
static const dsi_labels *namespace_labels(const dsi_cluster *c, const dsi_atoms *atoms, dsi_atom ns, int *found)
{
	const char *name = dsi_atom_str(atoms, ns);
	const dsi_other *o = name ? dsi_cluster_other(c, "/Namespace", NULL, name) : NULL;
	*found = o != NULL;
	return o ? &o->meta.labels : &no_labels;
}

static int has_ns(const dsi_pod_affinity_term *t, dsi_atom ns)
{
	for (uint32_t i = 0; i < t->nns; i++)
		if (t->namespaces[i] == ns)
			return 1;
	return 0;
}

/* The requirements the API server merges into a term's labelSelector for the pod that owns it
 * (pkg/registry/core/pod/strategy.go applyMatchLabelKeysAndMismatchLabelKeys): key In (owner's
 * value) per matchLabelKeys entry, key NotIn (owner's value) per mismatchLabelKeys entry, for the
 * keys the owner has; checked against the labels of the pod matched. */
static int label_keys_match(const dsi_pod_affinity_term *t, const dsi_labels *owner, const dsi_labels *labels)
{
	for (uint32_t i = 0; i < t->nmatch_keys; i++) {
		dsi_atom v = dsi_labels_get(owner, t->match_keys[i]);
		if (v && dsi_labels_get(labels, t->match_keys[i]) != v)
			return 0;
	}
	for (uint32_t i = 0; i < t->nmismatch_keys; i++) {
		dsi_atom v = dsi_labels_get(owner, t->mismatch_keys[i]);
		if (v && dsi_labels_get(labels, t->mismatch_keys[i]) == v)
			return 0;
	}
	return 1;
}

/* AffinityTerm.Matches (kube-scheduler framework types.go) for one of the incoming pod's terms,
 * whose namespaceSelector PreFilter merged into its namespaces (mergeAffinityTermNamespacesIfNotEmpty:
 * the Namespaces the lister holds that match; an empty selector stays and matches every namespace). */
static int incoming_term_matches(const dsi_ipa_state *st, const dsi_cluster *c, const dsi_pod_affinity_term *t,
				 dsi_atom ns, const dsi_labels *labels)
{
	const dsi_atoms *a = st->pod->atoms;
	int in = t->own_ns ? ns == st->pod->ns : has_ns(t, ns);
	if (!in && t->ns_selector.kind == DSI_SELECTOR_REQS) {
		if (t->ns_selector.n == 0) {
			in = 1;
		} else {
			int found;
			const dsi_labels *nl = namespace_labels(c, a, ns, &found);
			in = found && dsi_selector_matches(a, &t->ns_selector, nl);
		}
	}
	return in && dsi_selector_matches(a, &t->selector, labels) && label_keys_match(t, st->pod->labels, labels);
}

/* podMatchesAllAffinityTerms (interpodaffinity/filtering.go) */
static int matches_all_affinity_terms(const dsi_ipa_state *st, const dsi_cluster *c, dsi_atom ns,
				      const dsi_labels *labels)
{
	const dsi_pod_affinity_terms *ts = &st->pod->spec->pod_affinity;
	if (!ts->n)
		return 0;
	for (uint32_t i = 0; i < ts->n; i++)
		if (!incoming_term_matches(st, c, &ts->v[i], ns, labels))
			return 0;
	return 1;
}

/* AffinityTerm.Matches for an existing pod's term (owner namespace ens) against the incoming pod,
 * with the incoming pod's namespace labels for its namespaceSelector. */
static int existing_term_matches(const dsi_ipa_state *st, const dsi_pod_affinity_term *t, dsi_atom ens,
				 const dsi_labels *owner)
{
	const dsi_atoms *a = st->pod->atoms;
	int in = t->own_ns ? ens == st->pod->ns : has_ns(t, st->pod->ns);
	if (!in)
		in = dsi_selector_matches(a, &t->ns_selector, &st->ns_labels);
	return in && dsi_selector_matches(a, &t->selector, st->pod->labels) &&
	       label_keys_match(t, owner, st->pod->labels);
}

static int bump(dsi_topocount *m, dsi_atom key, const dsi_node *node, int sign)
{
	dsi_atom v = dsi_labels_get(&node->meta.labels, key);
	if (key == DSI_ATOM_NONE || v == DSI_ATOM_NONE)
		return 0; /* the node has no label with the term's topology key */
	/* the count may go down to zero (upstream then deletes the entry: nonzero counts len()) */
	return dsi_topocount_add(m, dsi_key2(key, v), sign, NULL);
}

/* updateWithPod (interpodaffinity/filtering.go): updateWithAntiAffinityTerms for the existing
 * pod's terms, updateWithAffinityTerms and updateWithAntiAffinityTerms for the incoming pod's. */
int dsi_ipa_update(dsi_ipa_state *st, const dsi_cluster *c, const dsi_pod *p, const dsi_node *node, int sign)
{
	const dsi_pod_affinity_terms *ea = &p->spec.pod_anti_affinity;
	for (uint32_t i = 0; i < ea->n; i++)
		if (existing_term_matches(st, &ea->v[i], p->meta.ns, &p->meta.labels) &&
		    bump(&st->existing_anti, ea->v[i].topology_key, node, sign) < 0)
			return -1;
	const dsi_pod_affinity_terms *ia = &st->pod->spec->pod_affinity;
	if (matches_all_affinity_terms(st, c, p->meta.ns, &p->meta.labels))
		for (uint32_t i = 0; i < ia->n; i++)
			if (bump(&st->affinity, ia->v[i].topology_key, node, sign) < 0)
				return -1;
	const dsi_pod_affinity_terms *ian = &st->pod->spec->pod_anti_affinity;
	for (uint32_t i = 0; i < ian->n; i++)
		if (incoming_term_matches(st, c, &ian->v[i], p->meta.ns, &p->meta.labels) &&
		    bump(&st->anti, ian->v[i].topology_key, node, sign) < 0)
			return -1;
	return 0;
}

void dsi_ipa_release(dsi_ipa_state *st)
{
	dsi_topocount_release(&st->existing_anti);
	dsi_topocount_release(&st->affinity);
	dsi_topocount_release(&st->anti);
	dsi_free(st->error);
	memset(st, 0, sizeof(*st));
}

int dsi_ipa_clone(const dsi_ipa_state *src, dsi_ipa_state *dst)
{
	*dst = *src;
	dsi_topocount_init(&dst->existing_anti, &src->existing_anti);
	dsi_topocount_init(&dst->affinity, &src->affinity);
	dsi_topocount_init(&dst->anti, &src->anti);
	dst->error = NULL;
	if (src->error && !(dst->error = dsi_strdup(src->error))) {
		dsi_ipa_release(dst);
		return -1;
	}
	return 0;
}

/* PreFilter (interpodaffinity/filtering.go): getExistingAntiAffinityCounts and
 * getIncomingAffinityAntiAffinityCounts in one pass over the pods of every node. */
int dsi_ipa_prefilter(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_pod_filter skip, void *ctx, dsi_ipa_state *st)
{
	memset(st, 0, sizeof(*st));
	st->pod = pod;
	dsi_topocount_init(&st->existing_anti, NULL);
	dsi_topocount_init(&st->affinity, NULL);
	dsi_topocount_init(&st->anti, NULL);
	const dsi_podspec *spec = pod->spec;
	/* NewPodInfo's parse errors: the plugin refuses the pod on every node */
	const char *e1 = spec->pod_affinity.error, *e2 = spec->pod_anti_affinity.error;
	if (e1 || e2) {
		st->error = e1 && e2 ? dsi_format("parsing pod: [%s, %s]", e1, e2)
				     : dsi_format("parsing pod: %s", e1 ? e1 : e2);
		return st->error ? 0 : -1;
	}
	int found;
	st->ns_labels = *namespace_labels(c, pod->atoms, pod->ns, &found);
	size_t nn = dsi_cluster_count(c, DSI_KIND_NODE);
	for (size_t i = 0; i < nn; i++) {
		const dsi_node *node = dsi_cluster_node_at(c, i);
		for (const dsi_pod *p = dsi_cluster_pods_on_node(c, node->meta.name); p; p = p->node_next) {
			if (dsi_pod_terminal(p) || (skip && skip(p, ctx)))
				continue;
			if (dsi_ipa_update(st, c, p, node, 1) < 0) {
				dsi_ipa_release(st);
				return -1;
			}
		}
	}
	st->self_match = (uint8_t)matches_all_affinity_terms(st, c, pod->ns, pod->labels);
	st->skip = st->existing_anti.nonzero == 0 && spec->pod_affinity.n == 0 && spec->pod_anti_affinity.n == 0;
	return 0;
}

static int64_t count_of(const dsi_topocount *m, dsi_atom key, dsi_atom value)
{
	return dsi_topocount_get(m, dsi_key2(key, value));
}

/* satisfyPodAffinity (interpodaffinity/filtering.go) */
static int satisfy_pod_affinity(const dsi_ipa_state *st, const dsi_node *node)
{
	const dsi_pod_affinity_terms *ts = &st->pod->spec->pod_affinity;
	int pods_exist = 1;
	for (uint32_t i = 0; i < ts->n; i++) {
		dsi_atom v = dsi_labels_get(&node->meta.labels, ts->v[i].topology_key);
		if (ts->v[i].topology_key == DSI_ATOM_NONE || v == DSI_ATOM_NONE)
			return 0; /* all topology labels must exist on the node */
		if (count_of(&st->affinity, ts->v[i].topology_key, v) <= 0)
			pods_exist = 0;
	}
	/* the first pod of a series with affinity to itself: no pod matches anywhere, and the pod
	 * matches its own terms */
	return pods_exist || (st->affinity.nonzero == 0 && st->self_match);
}

/* satisfyPodAntiAffinity (interpodaffinity/filtering.go) */
static int satisfy_pod_anti_affinity(const dsi_ipa_state *st, const dsi_node *node)
{
	const dsi_pod_affinity_terms *ts = &st->pod->spec->pod_anti_affinity;
	if (!st->anti.nonzero)
		return 1;
	for (uint32_t i = 0; i < ts->n; i++) {
		dsi_atom v = dsi_labels_get(&node->meta.labels, ts->v[i].topology_key);
		if (ts->v[i].topology_key != DSI_ATOM_NONE && v != DSI_ATOM_NONE &&
		    count_of(&st->anti, ts->v[i].topology_key, v) > 0)
			return 0;
	}
	return 1;
}

/* satisfyExistingPodsAntiAffinity (interpodaffinity/filtering.go) */
static int satisfy_existing_pods_anti_affinity(const dsi_ipa_state *st, const dsi_node *node)
{
	if (!st->existing_anti.nonzero)
		return 1;
	for (uint32_t i = 0; i < node->meta.labels.n; i++)
		if (count_of(&st->existing_anti, node->meta.labels.v[i].key, node->meta.labels.v[i].value) > 0)
			return 0;
	return 1;
}

/* Filter (interpodaffinity/filtering.go) */
int dsi_ipa_filter(const dsi_ipa_state *st, const dsi_node *node)
{
	if (st->skip)
		return DSI_IPA_OK;
	if (!satisfy_pod_affinity(st, node))
		return DSI_IPA_AFFINITY;
	if (!satisfy_pod_anti_affinity(st, node))
		return DSI_IPA_ANTI_AFFINITY;
	if (!satisfy_existing_pods_anti_affinity(st, node))
		return DSI_IPA_EXISTING_ANTI_AFFINITY;
	return DSI_IPA_OK;
}

const char *dsi_ipa_reason(int which, int *unresolvable)
{
	*unresolvable = which == DSI_IPA_AFFINITY;
	switch (which) {
	case DSI_IPA_AFFINITY: return "node(s) didn't match pod affinity rules";
	case DSI_IPA_ANTI_AFFINITY: return "node(s) didn't match pod anti-affinity rules";
	case DSI_IPA_EXISTING_ANTI_AFFINITY: return "node(s) didn't satisfy existing pods anti-affinity rules";
	default: return "";
	}
}
