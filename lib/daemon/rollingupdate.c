/* rollingUpdate (pkg/controller/daemon/update.go): which old pods a sync replaces and how, within
 * maxUnavailable or maxSurge, and OpenKruise's rollout controls beyond upstream. */
#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "daemon/syncpass.h"

/* findUpdatedPodsOnNode (update.go): at most one updated and one old pod, ignoring deleting ones
 * (indices into s->pods.v, -1 for none). */
static int find_updated(const dsi_sync_pass *s, const int32_t *pods, uint32_t n, int32_t *newk, int32_t *oldk)
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
static int update_nodes(dsi_sync_pass *s, upd_node **out, uint32_t *n, int32_t *desired)
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

/* The pods of a node of the map, into s->node_pods. */
static uint32_t upd_pods(const dsi_sync_pass *s, const upd_node *u)
{
	int32_t *out = s->node_pods;
	if (u->node)
		return dsi_sync_pods_of(s, u->first, out);
	uint32_t n = 0;
	for (int32_t k = s->pods.lost; k >= 0 && n < s->node_pods_cap; k = s->pods.next[k])
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

static int advanced_init(dsi_sync_pass *s, advanced *a)
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
	const dsi_sync_pass *s;
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
static uint32_t filter_update_nodes(dsi_sync_pass *s, const advanced *a, upd_node *nodes, uint32_t n)
{
	const int32_t *pods = s->node_pods;
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
		uint32_t k = upd_pods(s, &nodes[i]);
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

/* rollingUpdate with maxSurge 0 (update.go): delete old pods, within maxUnavailable; manage creates their
 * replacements on the next sync. */
static int update_by_deleting(dsi_sync_pass *s, const upd_node *nodes, uint32_t n, int32_t max_unavailable)
{
	const dsi_pod *const *v = s->pods.v;
	const uint8_t *state = s->pods.state;
	const int32_t *pods = s->node_pods;
	int32_t num_unavailable = 0;
	const dsi_pod **candidates = dsi_reallocarray(NULL, n + 1, sizeof(*candidates));
	uint32_t ncand = 0;
	if (!candidates)
		return dsi_error_nomem(s->err);
	int rc = 0;
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		uint32_t k = upd_pods(s, &nodes[i]);
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
			rc = dsi_sync_add_delete(s, v[oldk], DSI_DEL_UPDATE_UNAVAILABLE); /* always replaced */
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
		rc = dsi_sync_add_delete(s, candidates[i], DSI_DEL_UPDATE);
	s->plan->num_unavailable = num_unavailable;
	dsi_free(candidates);
	return rc;
}

/* rollingUpdate with maxSurge > 0 (update.go): create the new pod first, delete the old one once its
 * replacement is available. */
static int update_by_surging(dsi_sync_pass *s, const upd_node *nodes, uint32_t n, int32_t max_surge, int32_t desired)
{
	dsi_plan *p = s->plan;
	const dsi_pod *const *v = s->pods.v;
	const uint8_t *state = s->pods.state;
	const int32_t *pods = s->node_pods;
	const uint32_t nc0 = p->ncreates, nd0 = p->ndeletes;
	int32_t num_surge = 0, num_available = 0;
	const dsi_node **cand_nodes = dsi_reallocarray(NULL, n + 1, sizeof(*cand_nodes));
	const dsi_pod **not_wanted = dsi_reallocarray(NULL, n + 1, sizeof(*not_wanted));
	uint32_t ncand = 0, nnot = 0;
	int rc = cand_nodes && not_wanted ? 0 : dsi_error_nomem(s->err);
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		uint32_t k = upd_pods(s, &nodes[i]);
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
				if (!(p->rolling_error =
					      dsi_format("couldn't get node for nodeName \"%s\": node \"%s\" "
							 "not found",
							 nodes[i].name, nodes[i].name)))
					rc = dsi_error_nomem(s->err);
				break;
			}
			int should_run = s->verdict[nodes[i].node->index].should_run;
			if (!(state[oldk] & DSI_DSP_AVAILABLE)) {
				if (!should_run)
					rc = dsi_sync_add_delete(s, oldp, DSI_DEL_SURGE_CONSTRAINTS);
				else
					rc = dsi_sync_add_create(s, nodes[i].node, DSI_CREATE_REPLACEMENT);
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
			rc = dsi_sync_add_delete(s, oldp, DSI_DEL_SURGE_REPLACED);
	}
	if (rc == 0 && !p->rolling_error) {
		/* only delete pods on nodes that left the constraints while more than desired are available */
		int32_t deletable = num_available - desired;
		if (deletable > (int32_t)nnot)
			deletable = (int32_t)nnot;
		for (int32_t i = 0; i < deletable && rc == 0; i++)
			rc = dsi_sync_add_delete(s, not_wanted[i], DSI_DEL_SURGE_CONSTRAINTS);
		int32_t remaining = max_surge - num_surge;
		if (remaining < 0)
			remaining = 0;
		if ((uint32_t)remaining > ncand)
			remaining = (int32_t)ncand;
		for (int32_t i = 0; i < remaining && rc == 0; i++)
			rc = dsi_sync_add_create(s, cand_nodes[i], DSI_CREATE_SURGE);
	}
	/* the error returns before syncNodes: nothing the update planned is done this sync */
	if (rc == 0 && p->rolling_error)
		dsi_sync_drop_since(s, nc0, nd0);
	p->num_surge = num_surge;
	dsi_free(cand_nodes);
	dsi_free(not_wanted);
	return rc;
}

/* rollingUpdate (update.go): the budgets, the nodes the advanced controls allow, then either branch. */
int dsi_sync_rolling_update(dsi_sync_pass *s)
{
	dsi_plan *p = s->plan;
	upd_node *nodes = NULL;
	uint32_t n = 0;
	int32_t desired = 0, max_surge = 0, max_unavailable = 0;
	advanced adv;
	memset(&adv, 0, sizeof(adv)); /* released at the one exit, whether or not advanced_init ran */
	int rc = update_nodes(s, &nodes, &n, &desired);
	if (rc < 0 ||
	    (rc = dsi_sync_scaled(s, &s->ds->max_unavailable, s->ds->has_max_unavailable, DSI_MAX_UNAVAILABLE_PATH,
				  desired, &max_unavailable)) < 0 ||
	    (rc = dsi_sync_scaled(s, &s->ds->max_surge, s->ds->has_max_surge, DSI_MAX_SURGE_PATH, desired,
				  &max_surge)) < 0)
		goto out;
	/* an impossible configuration (both zero) falls back to one unavailable pod */
	if (desired > 0 && max_unavailable == 0 && max_surge == 0)
		max_unavailable = 1;
	p->rolling_ran = 1;
	p->max_unavailable = max_unavailable;
	p->max_surge = max_surge;
	p->desired_for_update = desired;
	if ((rc = advanced_init(s, &adv)) < 0)
		goto out;
	if (adv.active && adv.paused) {
		p->rolling_paused = 1;
		goto out;
	}
	if (adv.active && (n = filter_update_nodes(s, &adv, nodes, n)) == (uint32_t)-1) {
		rc = dsi_error_nomem(s->err);
		goto out;
	}
	rc = max_surge == 0 ? update_by_deleting(s, nodes, n, max_unavailable)
			    : update_by_surging(s, nodes, n, max_surge, desired);
out:
	advanced_release(&adv);
	dsi_free(nodes);
	return rc;
}
