#include "ops/cordon.h"

#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"
#include "daemon/shouldrun.h"

const char *dsi_cordon_node_arg(const char *arg)
{
	static const char *const prefixes[] = {"node/", "nodes/", "no/"};
	const char *slash = strchr(arg, '/');
	if (!slash)
		return *arg ? arg : NULL;
	for (size_t i = 0; i < DSI_ARRAY_LEN(prefixes); i++) {
		size_t n = strlen(prefixes[i]);
		if (strncmp(arg, prefixes[i], n) == 0)
			return arg[n] && !strchr(arg + n, '/') ? arg + n : NULL;
	}
	return NULL;
}

/* doNoScheduleTaintingPass (pkg/controller/nodelifecycle/node_lifecycle_controller.go):
 * the unschedulable taint is compared by key and effect only (TaintSetDiff). */
int dsi_cordoned_view(const dsi_cluster *c, const dsi_node *node, int desired, dsi_node *out, dsi_taint **buf)
{
	dsi_atom key = c->k_taints[DSI_WK_UNSCHEDULABLE];
	*out = *node;
	out->has_event_hash = 0; /* a view differs from the text the node was read from */
	*buf = NULL;
	out->unschedulable = desired ? 1 : 0;
	uint32_t present = 0;
	for (uint32_t i = 0; i < node->taints.n; i++)
		if (node->taints.v[i].key == key && node->taints.v[i].effect == DSI_EFFECT_NO_SCHEDULE)
			present++;
	if (desired ? present > 0 : present == 0)
		return 0;
	dsi_taint *v = dsi_calloc((size_t)node->taints.n + 1, sizeof(*v));
	if (!v)
		return -1;
	uint32_t n = 0;
	for (uint32_t i = 0; i < node->taints.n; i++)
		if (desired || node->taints.v[i].key != key || node->taints.v[i].effect != DSI_EFFECT_NO_SCHEDULE)
			v[n++] = node->taints.v[i];
	if (desired)
		v[n++] = (dsi_taint){key, DSI_ATOM_NONE, DSI_EFFECT_NO_SCHEDULE};
	out->taints.v = v;
	out->taints.n = n;
	*buf = v;
	return 0;
}

int dsi_owned_by_daemonset(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_pod *p)
{
	const dsi_owner *o = &p->meta.controller;
	if (p->meta.ns != ds->meta.ns || o->name != ds->meta.name || strcmp(dsi_cstr(c, o->kind), "DaemonSet") != 0)
		return 0;
	return !o->uid || !ds->meta.uid || o->uid == ds->meta.uid;
}

json_t *dsi_cordon_core_json(const dsi_cluster *c, const dsi_node *node, int desired)
{
	const char *name = dsi_cstr(c, node->meta.name);
	int changed = dsi_cordon_update_required(node, desired);
	/* CreateTwoWayMergePatch of the typed Node: unschedulable has omitempty,
	 * so uncordoning removes the field instead of writing false */
	json_t *patch = changed ? json_pack("{s:{s:o}}", "spec", "unschedulable", desired ? json_true() : json_null())
				: json_null();
	/* kubectl's name printer: "node/<name> <operation>" */
	const char *op =
		changed ? (desired ? "cordoned" : "uncordoned") : (desired ? "already cordoned" : "already uncordoned");
	json_t *line = json_sprintf("node/%s %s", name, op);
	int present = 0;
	for (uint32_t i = 0; i < node->taints.n; i++)
		if (node->taints.v[i].key == c->k_taints[DSI_WK_UNSCHEDULABLE] &&
		    node->taints.v[i].effect == DSI_EFFECT_NO_SCHEDULE)
			present = 1;
	const char *action = desired ? (present ? "none" : "add") : (present ? "remove" : "none");
	return json_pack("{s:s, s:s, s:b, s:b, s:o, s:[o], s:{s:s, s:s, s:s}}", "node", name, "operation",
			 desired ? "cordon" : "uncordon", "unschedulable", node->unschedulable != 0, "changed", changed,
			 "patch", patch, "stdout", line, "taint", "key", DSI_TAINT_UNSCHEDULABLE, "effect",
			 "NoSchedule", "action", action);
}

static int cmp_ds(const void *a, const void *b, void *ctx)
{
	const dsi_cluster *c = ctx;
	const dsi_daemonset *x = a, *y = b;
	int r = strcmp(dsi_cstr(c, x->meta.ns), dsi_cstr(c, y->meta.ns));
	return r ? r : strcmp(dsi_cstr(c, x->meta.name), dsi_cstr(c, y->meta.name));
}

/* One DaemonSet's row, or json_null() when the change does not concern it. */
static json_t *daemonset_row(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_node *before,
			     const dsi_node *after, const dsi_ops_cfg *o, int *oom)
{
	dsi_placement p;
	if (dsi_placement_init(&p, c, ds, o->core) < 0) {
		*oom = 1;
		return NULL;
	}
	dsi_verdict vb, va;
	dsi_node_should_run(&p, before, &vb);
	dsi_node_should_run(&p, after, &va);
	dsi_placement_release(&p);
	json_t *pods = json_array();
	for (const dsi_pod *q = dsi_cluster_pods_on_node(c, before->meta.name); q && pods; q = q->node_next)
		if (dsi_owned_by_daemonset(c, ds, q))
			json_array_append_new(pods, json_string(dsi_cstr(c, q->meta.name)));
	if (!pods) {
		*oom = 1;
		return NULL;
	}
	size_t npods = json_array_size(pods);
	const char *effect;
	if (npods)
		effect = va.should_continue ? "keeps" : "deletes";
	else if (va.should_run)
		effect = "creates";
	else {
		json_decref(pods);
		return json_null();
	}
	json_t *row = json_pack("{s:s, s:s, s:s, s:o, s:{s:b, s:b}, s:{s:b, s:b}, s:s}", "namespace",
				dsi_cstr(c, ds->meta.ns), "name", dsi_cstr(c, ds->meta.name), "group",
				ds->kruise ? "apps.kruise.io" : "apps", "podsOnNode", pods, "shouldRun", "before",
				vb.should_run, "after", va.should_run, "shouldContinueRunning", "before",
				vb.should_continue, "after", va.should_continue, "effect", effect);
	if (row && !va.should_run)
		json_object_set_new(row, "reason", json_string(dsi_why_message(va.why)));
	if (!row)
		*oom = 1;
	return row;
}

int dsi_cordon_json(const dsi_cluster *c, const dsi_node *node, int desired, const dsi_ops_cfg *o, json_t **out,
		    ds_error *err)
{
	*out = NULL;
	dsi_node after;
	dsi_taint *buf;
	if (dsi_cordoned_view(c, node, desired, &after, &buf) < 0)
		return dsi_error_nomem(err);
	size_t n = dsi_cluster_count(c, DSI_KIND_DAEMONSET);
	void **dss = n ? dsi_calloc(n, sizeof(*dss)) : NULL;
	json_t *doc = dsi_cordon_core_json(c, node, desired), *rows = json_array();
	int oom = !doc || !rows || (n && !dss);
	if (!oom) {
		if (n)
			memcpy(dss, c->objs[DSI_KIND_DAEMONSET].v, n * sizeof(*dss));
		dsi_sort_ptrs(dss, n, cmp_ds, (void *)c);
		for (size_t i = 0; i < n && !oom; i++) {
			json_t *row = daemonset_row(c, dss[i], node, &after, o, &oom);
			if (row && !json_is_null(row))
				oom = json_array_append_new(rows, row) < 0;
			else
				json_decref(row);
		}
	}
	dsi_free(dss);
	dsi_free(buf);
	if (oom) {
		json_decref(rows);
		json_decref(doc);
		return dsi_error_nomem(err);
	}
	if (json_object_set_new(doc, "daemonSets", rows) < 0) {
		json_decref(doc);
		return dsi_error_nomem(err);
	}
	*out = doc;
	return 0;
}
