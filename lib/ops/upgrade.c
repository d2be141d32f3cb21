/* Cluster upgrade planning: batches of nodes drained together, with budget warnings. */
#include "ops/upgrade.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "core/time.h"
#include "daemon/availability.h"
#include "daemon/dspods.h"
#include "daemon/shouldrun.h"
#include "ops/cordon.h"
#include "ops/drain.h"

static const char *const cp_labels[] = {"node-role.kubernetes.io/control-plane", "node-role.kubernetes.io/master"};

static int is_control_plane(const dsi_cluster *c, const dsi_node *n)
{
	for (size_t i = 0; i < DSI_ARRAY_LEN(cp_labels); i++) {
		dsi_atom k = dsi_atom_lookup_cstr(&c->atoms, cp_labels[i]);
		if (k && dsi_labels_get(&n->meta.labels, k) != DSI_ATOM_NONE)
			return 1;
	}
	return 0;
}

static int cmp_upgrade_order(const void *a, const void *b, void *ctx)
{
	const dsi_cluster *c = ctx;
	const dsi_node *x = a, *y = b;
	int cx = is_control_plane(c, x), cy = is_control_plane(c, y);
	if (cx != cy)
		return cx - cy;
	return strcmp(dsi_cstr(c, x->meta.name), dsi_cstr(c, y->meta.name));
}

int dsi_upgrade_select(const dsi_cluster *c, const char *const *names, size_t nnames, const char *selector,
		       const dsi_node ***out, size_t *nout, size_t *ncp, ds_error *err)
{
	*out = NULL;
	*nout = *ncp = 0;
	if (nnames && selector) /* kubectl drain Complete */
		return dsi_error_set(err, DS_EARG, NULL,
				     "error: cannot specify both a node name and a --selector option");
	if (!nnames && !selector)
		return dsi_error_set(
			err, DS_EARG, NULL,
			"nodes or selector required: give node names, or a label selector (\"\" for every node)");
	size_t total = dsi_cluster_count(c, DSI_KIND_NODE), cap = nnames ? nnames : total;
	const dsi_node **v = cap ? dsi_calloc(cap, sizeof(*v)) : NULL;
	if (cap && !v)
		return dsi_error_nomem(err);
	size_t n = 0;
	if (nnames) {
		for (size_t i = 0; i < nnames; i++) {
			char path[32];
			snprintf(path, sizeof(path), "nodes[%zu]", i);
			const char *name = names[i] ? dsi_cordon_node_arg(names[i]) : NULL;
			if (!name) {
				dsi_free(v);
				return dsi_error_set(err, DS_EARG, path,
						     "expected a node name (\"NAME\" or \"node/NAME\"), got %s%s%s",
						     names[i] ? "\"" : "", names[i] ? names[i] : "NULL",
						     names[i] ? "\"" : "");
			}
			const dsi_node *node = dsi_cluster_node_by_name(c, name);
			if (!node) {
				dsi_free(v);
				return dsi_error_set(err, DS_ENOTFOUND, path, "nodes \"%s\" not found", name);
			}
			int dup = 0;
			for (size_t j = 0; j < n && !dup; j++)
				dup = v[j] == node;
			if (!dup)
				v[n++] = node;
		}
	} else {
		dsi_atoms atoms;
		dsi_atoms_init_overlay(&atoms, &c->atoms);
		dsi_selector sel;
		dsi_rd rd;
		dsi_rd_init(&rd, err);
		size_t m = dsi_rd_push(&rd, "selector");
		int rc = dsi_selector_parse(&rd, &atoms, selector, &sel);
		dsi_rd_pop(&rd, m);
		if (rc < 0) {
			dsi_atoms_free(&atoms);
			dsi_free(v);
			return rc;
		}
		for (size_t i = 0; i < c->norder; i++)
			if (dsi_selector_matches(&atoms, &sel, &dsi_cluster_node_at(c, i)->meta.labels))
				v[n++] = dsi_cluster_node_at(c, i);
		dsi_selector_release(&atoms, &sel);
		dsi_atoms_free(&atoms);
	}
	dsi_sort_ptrs((void **)v, n, cmp_upgrade_order, (void *)c);
	for (size_t i = 0; i < n; i++)
		*ncp += (size_t)is_control_plane(c, v[i]);
	*out = v;
	*nout = n;
	return 0;
}

/* ---- per DaemonSet: where it should run and where it is available ---- */

typedef struct dset_info {
	const dsi_daemonset *ds;
	uint8_t *run;   /* per node index: NodeShouldRunDaemonPod's shouldRun */
	uint8_t *avail; /* per node index: one of its pods there is available */
	uint8_t *pods;  /* per node index: number of its pods there (capped) */
	int desired, unavailable;
	int has_budget; /* RollingUpdate with a usable maxUnavailable */
	int max_unavailable;
	char budget_error[DS_ERROR_MESSAGE_MAX];
} dset_info;

static void dset_info_release(dset_info *d)
{
	dsi_free(d->run);
	dsi_free(d->avail);
	dsi_free(d->pods);
}

static int cmp_ds(const void *a, const void *b, void *ctx)
{
	const dsi_cluster *c = ctx;
	const dsi_daemonset *x = a, *y = b;
	int r = strcmp(dsi_cstr(c, x->meta.ns), dsi_cstr(c, y->meta.ns));
	return r ? r : strcmp(dsi_cstr(c, x->meta.name), dsi_cstr(c, y->meta.name));
}

/* UnavailableCount (pkg/controller/daemon/util/daemonset_util.go): maxUnavailable
 * scaled against desiredNumberScheduled, rounding up; OnDelete has no budget. */
static int dset_info_init(const dsi_cluster *c, const dsi_daemonset *ds, ds_time now, const dsi_ops_cfg *o,
			  dset_info *d)
{
	memset(d, 0, sizeof(*d));
	d->ds = ds;
	size_t nn = dsi_cluster_count(c, DSI_KIND_NODE);
	d->run = dsi_calloc(nn ? nn : 1, 1);
	d->avail = dsi_calloc(nn ? nn : 1, 1);
	d->pods = dsi_calloc(nn ? nn : 1, 1);
	dsi_placement pl;
	if (!d->run || !d->avail || !d->pods || dsi_placement_init(&pl, c, ds, o->core) < 0)
		return -1;
	dsi_ds_pods pods;
	if (dsi_ds_pods_collect(c, ds, 0, &pods) < 0) {
		dsi_placement_release(&pl);
		return -1;
	}
	for (size_t i = 0; i < c->norder; i++) {
		const dsi_node *node = dsi_cluster_node_at(c, i);
		if (node->index >= nn)
			continue;
		dsi_verdict v;
		dsi_node_should_run(&pl, node, &v);
		d->run[node->index] = v.should_run;
		if (node->index < pods.nnodes)
			for (int32_t k = pods.first[node->index]; k >= 0; k = pods.next[k]) {
				if (d->pods[node->index] < 255)
					d->pods[node->index]++;
				if (dsi_pod_available(pods.v[k], ds->min_ready_seconds, now, o->core->k8s_minor))
					d->avail[node->index] = 1;
			}
		if (v.should_run) {
			d->desired++;
			d->unavailable += !d->avail[node->index];
		}
	}
	dsi_ds_pods_release(&pods);
	dsi_placement_release(&pl);
	if (ds->strategy == DSI_STRATEGY_ROLLING_UPDATE && ds->has_max_unavailable) {
		ds_error e;
		dsi_error_clear(&e);
		if (dsi_intstr_scaled(&ds->max_unavailable, d->desired, 1, &d->max_unavailable, &e) == 0)
			d->has_budget = 1;
		else
			snprintf(d->budget_error, sizeof(d->budget_error), "%s", e.message);
	}
	return 0;
}

/* ---- per PodDisruptionBudget: what the spec asks, from the snapshot ---- */

/* getExpectedPodCount (pkg/controller/disruption/disruption.go) as far as the
 * snapshot tells: an integer minAvailable needs the matched pods only; the
 * other forms need the controllers' scale, taken from status.expectedPods.
 * Returns 0 and *desired, or -1 when it cannot be known. */
static int pdb_spec_desired(const dsi_pdb *pdb, int matched, int *desired)
{
	int expected = pdb->expected_pods, v;
	ds_error e;
	if (pdb->has_max_unavailable) {
		if (expected <= 0 || dsi_intstr_scaled(&pdb->max_unavailable, expected, 1, &v, &e) < 0)
			return -1;
		*desired = expected - v < 0 ? 0 : expected - v;
		return 0;
	}
	if (pdb->has_min_available) {
		if (!pdb->min_available.is_string) {
			*desired = pdb->min_available.ival;
			return matched > 0 ? 0 : -1;
		}
		if (expected <= 0 || dsi_intstr_scaled(&pdb->min_available, expected, 1, &v, &e) < 0)
			return -1;
		*desired = v;
		return 0;
	}
	return -1;
}

static int pdb_selects(const dsi_cluster *c, const dsi_pdb *pdb, const dsi_pod *p)
{
	return pdb->meta.ns == p->meta.ns && !dsi_selector_is_everything(&pdb->selector) &&
	       !dsi_selector_is_nothing(&pdb->selector) &&
	       dsi_selector_matches(&c->atoms, &pdb->selector, &p->meta.labels);
}

/* countHealthyPods: not being deleted, Ready */
static int pod_healthy(const dsi_pod *p) { return !p->meta.has_deletion && p->ready; }

typedef struct pdb_info {
	const dsi_pdb *pdb;
	int matched, healthy;
	int lost, lost_healthy; /* in the current batch */
} pdb_info;

static int cmp_pdb(const void *a, const void *b, void *ctx)
{
	const dsi_cluster *c = ctx;
	const pdb_info *x = a, *y = b;
	int r = strcmp(dsi_cstr(c, x->pdb->meta.ns), dsi_cstr(c, y->pdb->meta.ns));
	return r ? r : strcmp(dsi_cstr(c, x->pdb->meta.name), dsi_cstr(c, y->pdb->meta.name));
}

/* ---- the plan ---------------------------------------------------------------- */

typedef struct upgrade {
	const dsi_cluster *c;
	const dsi_ops_cfg *o;
	dsi_drain_cfg cfg;
	ds_time now;
	dset_info *ds;
	size_t nds;
	pdb_info *pdbs;
	size_t npdbs;
	size_t total_evictions, total_blocked, total_errors, total_warnings, total_ignored;
	int oom;
} upgrade;

static void add(upgrade *u, json_t *arr, json_t *v)
{
	if (!v || json_array_append_new(arr, v) < 0)
		u->oom = 1;
}

static json_t *daemonset_warning(upgrade *u, const dset_info *d, const dsi_node *const *nodes, size_t n)
{
	const dsi_cluster *c = u->c;
	int lost = 0;
	json_t *where = json_array();
	for (size_t i = 0; i < n && where; i++) {
		uint32_t x = nodes[i]->index;
		if (d->pods[x])
			json_array_append_new(where, json_string(dsi_cstr(c, nodes[i]->meta.name)));
		if (d->run[x] && d->avail[x])
			lost++;
	}
	if (!where) {
		u->oom = 1;
		return NULL;
	}
	int during = d->unavailable + lost;
	if (!d->has_budget || lost == 0 || during <= d->max_unavailable) {
		json_decref(where);
		return NULL;
	}
	const dsi_daemonset *ds = d->ds;
	char spec[DSI_INTSTR_TEXT_MAX + 48];
	if (ds->max_unavailable.is_string)
		snprintf(spec, sizeof(spec), "%d (%s of %d desired, rounded up)", d->max_unavailable,
			 ds->max_unavailable.text, d->desired);
	else
		snprintf(spec, sizeof(spec), "%d", d->max_unavailable);
	json_t *w =
		json_pack("{s:s, s:s, s:s, s:s, s:o, s:i, s:i, s:i, s:i, s:i, s:o}", "type", "DaemonSetMaxUnavailable",
			  "group", ds->kruise ? "apps.kruise.io" : "apps", "namespace", dsi_cstr(c, ds->meta.ns),
			  "name", dsi_cstr(c, ds->meta.name), "nodes", where, "podsDown", lost, "alreadyUnavailable",
			  d->unavailable, "unavailable", during, "desiredNumberScheduled", d->desired, "maxUnavailable",
			  d->max_unavailable, "maxUnavailableSpec", dsi_intstr_to_json(&ds->max_unavailable));
	json_t *msg =
		json_sprintf("DaemonSet %s/%s: %d available pod(s) on this batch's nodes go down together at "
			     "reboot (kubectl drain does not evict them) while %d %s already unavailable: %d of %d "
			     "desired unavailable, above its maxUnavailable of %s",
			     dsi_cstr(c, ds->meta.ns), dsi_cstr(c, ds->meta.name), lost, d->unavailable,
			     d->unavailable == 1 ? "is" : "are", during, d->desired, spec);
	if (!w || !msg || json_object_set_new(w, "message", msg) < 0) {
		json_decref(w);
		u->oom = 1;
		return NULL;
	}
	return w;
}

static json_t *pdb_warning(upgrade *u, const pdb_info *pi)
{
	const dsi_cluster *c = u->c;
	const dsi_pdb *pdb = pi->pdb;
	if (!pi->lost)
		return NULL;
	int desired = 0, spec_known = pdb_spec_desired(pdb, pi->matched, &desired) == 0;
	int over_status = pi->lost_healthy > pdb->disruptions_allowed;
	int left = pi->healthy - pi->lost_healthy;
	int over_spec = spec_known && left < desired;
	if (!over_status && !over_spec)
		return NULL;
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_strbuf_printf(&b, "PodDisruptionBudget %s/%s: this batch takes %d of its pods down (%d Ready)",
			  dsi_cstr(c, pdb->meta.ns), dsi_cstr(c, pdb->meta.name), pi->lost, pi->lost_healthy);
	if (over_status)
		dsi_strbuf_printf(&b,
				  "; it allows %d disruption(s) (status.disruptionsAllowed), so evictions beyond "
				  "that are refused until replacements are Ready",
				  (int)pdb->disruptions_allowed);
	if (over_spec)
		dsi_strbuf_printf(&b, "; that leaves %d healthy where its %s asks for %d", left,
				  pdb->has_max_unavailable ? "maxUnavailable" : "minAvailable", desired);
	json_t *w = b.oom ? NULL
			  : json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:o, s:s}", "type",
				      "PodDisruptionBudget", "namespace", dsi_cstr(c, pdb->meta.ns), "name",
				      dsi_cstr(c, pdb->meta.name), "podsDown", pi->lost, "readyPodsDown",
				      pi->lost_healthy, "disruptionsAllowed", (int)pdb->disruptions_allowed, "healthy",
				      pi->healthy, "healthyAfter", left, "desiredHealthy",
				      spec_known ? json_integer(desired) : json_null(), "message", b.data);
	dsi_strbuf_free(&b);
	if (!w)
		u->oom = 1;
	return w;
}

static json_t *plan_batch(upgrade *u, size_t index, const dsi_node *const *nodes, size_t n, int cp, ds_error *err,
			  int *rc)
{
	const dsi_cluster *c = u->c;
	json_t *names = json_array(), *cordons = json_array(), *evictions = json_array(), *ignored = json_array(),
	       *blocked = json_array(), *errors = json_array(), *warnings = json_array(), *uncordon = json_array();
	if (!names || !cordons || !evictions || !ignored || !blocked || !errors || !warnings || !uncordon)
		u->oom = 1;
	dsi_pdb_budget *budgets = dsi_pdb_budgets_new(c);
	if (!budgets)
		u->oom = 1;
	for (size_t i = 0; i < u->npdbs; i++)
		u->pdbs[i].lost = u->pdbs[i].lost_healthy = 0;
	int failed = 0, retry = 0;
	for (size_t i = 0; i < n && !u->oom && *rc == 0; i++) {
		const dsi_node *node = nodes[i];
		const char *nn = dsi_cstr(c, node->meta.name);
		add(u, names, json_string(nn));
		json_t *core = dsi_cordon_core_json(c, node, 1);
		add(u, cordons,
		    core ? json_pack("{s:s, s:O, s:O, s:O}", "node", nn, "changed", json_object_get(core, "changed"),
				     "patch", json_object_get(core, "patch"), "stdout", json_object_get(core, "stdout"))
			 : NULL);
		json_decref(core);
		if (!node->unschedulable) /* restore what the plan changed */
			add(u, uncordon, json_string(nn));
		dsi_drain_plan p;
		if ((*rc = dsi_drain_plan_node(&u->cfg, node, u->now, budgets, &p, err)) < 0)
			break;
		for (size_t k = 0; k < p.n && !u->oom; k++) {
			const dsi_drain_pod *dp = &p.pods[k];
			const dsi_pod *q = dp->pod;
			const char *ns = dsi_cstr(c, q->meta.ns), *pn = dsi_cstr(c, q->meta.name);
			if (!dsi_pod_terminal(q))
				for (size_t j = 0; j < u->npdbs; j++)
					if (pdb_selects(c, u->pdbs[j].pdb, q)) {
						u->pdbs[j].lost++;
						u->pdbs[j].lost_healthy += pod_healthy(q);
					}
			if (dp->removal == DSI_RM_EVICTED || dp->removal == DSI_RM_EVICTED_DIRECT ||
			    dp->removal == DSI_RM_DELETED) {
				add(u, evictions,
				    json_pack("{s:s, s:s, s:s, s:s, s:o}", "namespace", ns, "name", pn, "node", nn,
					      "method", dp->removal == DSI_RM_DELETED ? "delete" : "evict", "pdb",
					      dp->pdb ? json_string(dsi_cstr(c, dp->pdb->meta.name)) : json_null()));
				u->total_evictions++;
			} else if (dp->removal == DSI_RM_RETRY) {
				add(u, blocked,
				    json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "namespace", ns, "name", pn, "node", nn,
					      "pdb", dsi_cstr(c, dp->pdb->meta.name), "message", dp->error, "cause",
					      dp->cause));
				u->total_blocked++;
			} else if (dp->owner.is_daemon && !dp->st.del) {
				const char *slash = strchr(dp->owner.group_kind, '/');
				add(u, ignored,
				    json_pack("{s:s, s:s, s:s, s:{s:s%, s:s, s:s, s:s}, s:s}", "namespace", ns, "name",
					      pn, "node", nn, "daemonSet", "group", dp->owner.group_kind,
					      (size_t)(slash - dp->owner.group_kind), "kind", slash + 1, "namespace",
					      ns, "name", dsi_cstr(c, q->meta.controller.name), "reason",
					      dp->st.reason == DSI_PDS_ERROR ? "refused" : "ignored"));
				u->total_ignored++;
			}
		}
		json_t *texts = NULL;
		if (p.has_errors)
			texts = dsi_drain_groups(c, &p, DSI_PDS_ERROR);
		else if (p.nfailed)
			texts = dsi_drain_eviction_errors(c, &p);
		if (p.has_errors || p.nfailed) {
			char *agg = texts ? dsi_aggregate_text(texts) : NULL;
			add(u, errors,
			    agg ? json_pack("{s:s, s:s, s:O}", "node", nn, "message", agg, "errors", texts) : NULL);
			dsi_free(agg);
			failed = 1;
			u->total_errors++;
		}
		json_decref(texts);
		retry |= p.nretry > 0;
		dsi_drain_plan_release(&p);
	}
	dsi_free(budgets);
	for (size_t i = 0; i < u->nds && !u->oom && *rc == 0; i++) {
		json_t *w = daemonset_warning(u, &u->ds[i], nodes, n);
		if (w) {
			add(u, warnings, w);
			u->total_warnings++;
		}
	}
	for (size_t i = 0; i < u->npdbs && !u->oom && *rc == 0; i++) {
		json_t *w = pdb_warning(u, &u->pdbs[i]);
		if (w) {
			add(u, warnings, w);
			u->total_warnings++;
		}
	}
	json_t *batch = NULL;
	if (!u->oom && *rc == 0)
		batch = json_pack("{s:I, s:O, s:b, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:s}", "index", (json_int_t)index,
				  "nodes", names, "controlPlane", cp, "cordons", cordons, "evictions", evictions,
				  "ignoredDaemonPods", ignored, "blocked", blocked, "errors", errors, "warnings",
				  warnings, "uncordonAfter", uncordon, "verdict",
				  failed  ? "failed"
				  : retry ? "blocked"
					  : "drained");
	if (!batch && *rc == 0)
		u->oom = 1;
	json_decref(names);
	json_decref(cordons);
	json_decref(evictions);
	json_decref(ignored);
	json_decref(blocked);
	json_decref(errors);
	json_decref(warnings);
	json_decref(uncordon);
	return batch;
}

static int upgrade_init(upgrade *u, const dsi_cluster *c, ds_time now, const dsi_ops_cfg *o, ds_error *err)
{
	memset(u, 0, sizeof(*u));
	u->c = c;
	u->o = o;
	u->now = now;
	int rc = dsi_drain_cfg_init(&u->cfg, c, o, err);
	if (rc < 0)
		return rc;
	size_t nds = dsi_cluster_count(c, DSI_KIND_DAEMONSET), np = dsi_cluster_count(c, DSI_KIND_PDB);
	void **dss = nds ? dsi_calloc(nds, sizeof(*dss)) : NULL;
	u->ds = nds ? dsi_calloc(nds, sizeof(*u->ds)) : NULL;
	u->pdbs = np ? dsi_calloc(np, sizeof(*u->pdbs)) : NULL;
	if ((nds && (!dss || !u->ds)) || (np && !u->pdbs)) {
		dsi_free(dss);
		return dsi_error_nomem(err);
	}
	if (nds)
		memcpy(dss, c->objs[DSI_KIND_DAEMONSET].v, nds * sizeof(*dss));
	dsi_sort_ptrs(dss, nds, cmp_ds, (void *)c);
	for (size_t i = 0; i < nds; i++) {
		u->nds++;
		if (dset_info_init(c, dss[i], now, o, &u->ds[i]) < 0) {
			dsi_free(dss);
			return dsi_error_nomem(err);
		}
	}
	dsi_free(dss);
	for (size_t i = 0; i < np; i++) {
		pdb_info *pi = &u->pdbs[u->npdbs++];
		pi->pdb = c->objs[DSI_KIND_PDB].v[i];
		for (size_t k = 0; k < dsi_cluster_count(c, DSI_KIND_POD); k++) {
			const dsi_pod *q = c->objs[DSI_KIND_POD].v[k];
			if (pdb_selects(c, pi->pdb, q)) {
				pi->matched++;
				pi->healthy += pod_healthy(q);
			}
		}
	}
	dsi_sort_stable(u->pdbs, u->npdbs, sizeof(*u->pdbs), cmp_pdb, (void *)c);
	return 0;
}

static void upgrade_release(upgrade *u)
{
	for (size_t i = 0; i < u->nds; i++)
		dset_info_release(&u->ds[i]);
	dsi_free(u->ds);
	dsi_free(u->pdbs);
	dsi_drain_cfg_release(&u->cfg);
}

int dsi_upgrade_json(const dsi_cluster *c, const dsi_node *const *nodes, size_t n, size_t ncp, const char *selector,
		     ds_time now, const dsi_ops_cfg *o, json_t **out, ds_error *err)
{
	*out = NULL;
	upgrade u;
	int rc = upgrade_init(&u, c, now, o, err);
	if (rc < 0) {
		upgrade_release(&u);
		return rc;
	}
	json_t *batches = json_array(), *order = json_array();
	if (!batches || !order)
		u.oom = 1;
	for (size_t i = 0; i < n && !u.oom; i++)
		add(&u, order, json_string(dsi_cstr(c, nodes[i]->meta.name)));
	size_t workers = n - ncp, size = o->ops->batch_size > 0 ? (size_t)o->ops->batch_size : 1, index = 0;
	/* workers in batches of batchSize, then each control-plane node alone */
	for (size_t i = 0; i < n && !u.oom && rc == 0;) {
		int cp = i >= workers;
		size_t len = cp ? 1 : (workers - i < size ? workers - i : size);
		json_t *b = plan_batch(&u, ++index, nodes + i, len, cp, err, &rc);
		if (b)
			add(&u, batches, b);
		i += len;
	}
	char when[40];
	dsi_time_format(now, when, sizeof(when));
	json_t *doc = NULL;
	if (!u.oom && rc == 0) {
		size_t failed = 0, blocked = 0;
		for (size_t i = 0; i < json_array_size(batches); i++) {
			const char *v = json_string_value(json_object_get(json_array_get(batches, i), "verdict"));
			failed += strcmp(v, "failed") == 0;
			blocked += strcmp(v, "blocked") == 0;
		}
		doc = json_pack(
			"{s:s, s:O, s:o, s:i, s:s, s:O, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:b}}", "now", when,
			"nodes", order, "selector", selector ? json_string(selector) : json_null(), "batchSize",
			(int)size, "order",
			"nodes without a control-plane role by name in batches of batchSize, then each control-plane "
			"node alone by name",
			"batches", batches, "summary", "batches", (json_int_t)json_array_size(batches), "nodes",
			(json_int_t)n, "evictions", (json_int_t)u.total_evictions, "blocked",
			(json_int_t)u.total_blocked, "ignoredDaemonPods", (json_int_t)u.total_ignored, "errors",
			(json_int_t)u.total_errors, "warnings", (json_int_t)u.total_warnings, "failedBatches",
			(json_int_t)failed, "ok", failed == 0 && blocked == 0 && u.total_warnings == 0);
		if (!doc)
			u.oom = 1;
	}
	json_decref(batches);
	json_decref(order);
	upgrade_release(&u);
	if (rc < 0) {
		json_decref(doc);
		return rc;
	}
	if (u.oom) {
		json_decref(doc);
		return dsi_error_nomem(err);
	}
	*out = doc;
	return 0;
}
