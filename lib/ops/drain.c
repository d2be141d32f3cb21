/* kubectl drain planned: pods for deletion, eviction against PodDisruptionBudgets, transcript. */
#include "ops/drain.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "core/time.h"
#include "daemon/shouldrun.h"
#include "ops/cordon.h"

/* MaxDisruptedPodSize (pkg/registry/core/pod/storage/eviction.go) */
#define MAX_DISRUPTED_POD_SIZE 2000

dsi_pdb_budget *dsi_pdb_budgets_new(const dsi_cluster *c)
{
	size_t n = dsi_cluster_count(c, DSI_KIND_PDB);
	dsi_pdb_budget *b = dsi_calloc(n ? n : 1, sizeof(*b));
	for (size_t i = 0; b && i < n; i++) {
		const dsi_pdb *pdb = c->objs[DSI_KIND_PDB].v[i];
		if (pdb->index < n)
			b[pdb->index] = (dsi_pdb_budget){pdb->disruptions_allowed, pdb->ndisrupted};
	}
	return b;
}

/* The API server lists pods in storage-key order: "<namespace>/<name>", bytewise. */
static int key_char(const char *ns, size_t nslen, const char *name, size_t i)
{
	if (i < nslen)
		return (unsigned char)ns[i];
	return i == nslen ? '/' : (unsigned char)name[i - nslen - 1];
}

static int cmp_list_order(const void *a, const void *b, void *ctx)
{
	const dsi_cluster *c = ctx;
	const dsi_pod *x = a, *y = b;
	const char *nsx = dsi_cstr(c, x->meta.ns), *nx = dsi_cstr(c, x->meta.name);
	const char *nsy = dsi_cstr(c, y->meta.ns), *ny = dsi_cstr(c, y->meta.name);
	size_t lx = strlen(nsx), ly = strlen(nsy), tx = lx + 1 + strlen(nx), ty = ly + 1 + strlen(ny);
	for (size_t i = 0; i < tx && i < ty; i++) {
		int d = key_char(nsx, lx, nx, i) - key_char(nsy, ly, ny, i);
		if (d)
			return d;
	}
	return (tx > ty) - (tx < ty);
}

/* CheckGracefulDelete (pkg/registry/core/pod/strategy.go): the grace period
 * the API server applies to makeDeleteOptions' request. */
static int64_t effective_grace(const dsi_drain_cfg *cfg, const dsi_pod *p)
{
	int64_t g = cfg->grace_period_seconds >= 0 ? cfg->grace_period_seconds : p->spec.termination_grace_seconds;
	if (!p->spec.node_name || dsi_pod_terminal(p))
		g = 0;
	return g < 0 ? 1 : g;
}

static int64_t pdb_observed_generation(const dsi_pdb *pdb)
{
	json_t *v = json_object_get(json_object_get(pdb->obj, "status"), "observedGeneration");
	return json_is_integer(v) ? (int64_t)json_integer_value(v) : 0;
}

static const char *pdb_unhealthy_policy(const dsi_pdb *pdb)
{
	return json_string_value(json_object_get(json_object_get(pdb->obj, "spec"), "unhealthyPodEvictionPolicy"));
}

/* getPodDisruptionBudgets (eviction.go): same namespace; a nil or empty
 * selector matches nothing. The first by name is kept for reports. */
static void match_pdbs(const dsi_cluster *c, const dsi_pod *p, const dsi_pdb **first, uint32_t *n)
{
	*first = NULL;
	*n = 0;
	for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_PDB); i++) {
		const dsi_pdb *pdb = c->objs[DSI_KIND_PDB].v[i];
		if (pdb->meta.ns != p->meta.ns || dsi_selector_is_everything(&pdb->selector) ||
		    dsi_selector_is_nothing(&pdb->selector) ||
		    !dsi_selector_matches(&c->atoms, &pdb->selector, &p->meta.labels))
			continue;
		(*n)++;
		if (!*first || strcmp(dsi_cstr(c, pdb->meta.name), dsi_cstr(c, (*first)->meta.name)) < 0)
			*first = pdb;
	}
}

static int set_text(char **dst, ds_error *err, const char *fmt, ...) DSI_PRINTF(3, 4);
static int set_text(char **dst, ds_error *err, const char *fmt, ...)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	dsi_strbuf_vprintf(&b, fmt, ap); /* whole: the names in it have no bound the message could assume */
	va_end(ap);
	if (b.oom) {
		dsi_strbuf_free(&b);
		return dsi_error_nomem(err);
	}
	*dst = dsi_strbuf_detach(&b);
	return 0;
}

/* EvictionREST.Create with canIgnorePDB and checkAndDecrement
 * (pkg/registry/core/pod/storage/eviction.go), as of the
 * PDBUnhealthyPodEvictionPolicy feature (GA): the answer to one eviction. */
static int evict(const dsi_drain_cfg *cfg, dsi_drain_pod *dp, dsi_pdb_budget *budgets, ds_error *err)
{
	const dsi_cluster *c = cfg->c;
	const dsi_pod *p = dp->pod;
	/* canIgnorePDB: terminal, pending or already deleting pods are deleted directly */
	if (dsi_pod_terminal(p) || p->phase == DSI_PHASE_PENDING || p->meta.has_deletion) {
		dp->removal = DSI_RM_EVICTED_DIRECT;
		dp->pdb_skipped = p->meta.has_deletion && !dsi_pod_terminal(p) && p->phase != DSI_PHASE_PENDING
					  ? DSI_PDB_SKIP_DELETING
					  : DSI_PDB_SKIP_PHASE;
		return 0;
	}
	if (dp->npdbs > 1) { /* a 500 Status: not retried, the eviction fails */
		dp->removal = DSI_RM_FAILED;
		return set_text(&dp->error, err, "%s", DSI_EVICTION_MULTIPLE_PDBS);
	}
	const dsi_pdb *pdb = dp->pdb;
	if (!pdb) {
		dp->removal = DSI_RM_EVICTED;
		return 0;
	}
	const char *name = dsi_cstr(c, pdb->meta.name);
	if (!p->ready) { /* IsPodReady is the current notion of healthy */
		const char *policy = pdb_unhealthy_policy(pdb);
		if (policy && strcmp(policy, "AlwaysAllow") == 0) {
			dp->removal = DSI_RM_EVICTED_DIRECT;
			dp->pdb_skipped = DSI_PDB_SKIP_UNHEALTHY_ALWAYS_ALLOW;
			return 0;
		}
		if (pdb->current_healthy >= pdb->desired_healthy && pdb->desired_healthy > 0) {
			dp->removal = DSI_RM_EVICTED_DIRECT;
			dp->pdb_skipped = DSI_PDB_SKIP_UNHEALTHY_BUDGET_HEALTHY;
			return 0;
		}
	}
	dsi_pdb_budget *b = &budgets[pdb->index];
	int rc;
	if (pdb_observed_generation(pdb) < pdb->meta.generation) { /* createTooManyRequestsError */
		dp->removal = DSI_RM_RETRY;
		if ((rc = set_text(&dp->error, err, "%s", DSI_EVICTION_PDB_MESSAGE)) < 0)
			return rc;
		return set_text(&dp->cause, err, "The disruption budget %s is still being processed by the server.",
				name);
	}
	if (b->allowed < 0) { /* NewForbidden(policy.Resource("poddisruptionbudget"), ...) */
		dp->removal = DSI_RM_FAILED;
		return set_text(&dp->error, err,
				"poddisruptionbudget.policy \"%s\" is forbidden: pdb disruptions allowed is negative",
				name);
	}
	if (b->disrupted > MAX_DISRUPTED_POD_SIZE) {
		dp->removal = DSI_RM_FAILED;
		return set_text(&dp->error, err,
				"poddisruptionbudget.policy \"%s\" is forbidden: DisruptedPods map too big - too many "
				"evictions not confirmed by PDB controller",
				name);
	}
	if (b->allowed == 0) {
		dp->removal = DSI_RM_RETRY;
		if ((rc = set_text(&dp->error, err, "%s", DSI_EVICTION_PDB_MESSAGE)) < 0)
			return rc;
		return set_text(&dp->cause, err, "The disruption budget %s needs %d healthy pods and has %d currently",
				name, (int)pdb->desired_healthy, (int)pdb->current_healthy);
	}
	b->allowed--;
	b->disrupted++;
	dp->removal = DSI_RM_EVICTED;
	return 0;
}

void dsi_drain_plan_release(dsi_drain_plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		dsi_pod_status_release(&p->pods[i].st);
		dsi_free(p->pods[i].error);
		dsi_free(p->pods[i].cause);
	}
	dsi_free(p->pods);
	memset(p, 0, sizeof(*p));
}

/* GetPodsForDeletion, then (without filter errors) DeleteOrEvictPods
 * (kubectl pkg/drain/drain.go) */
int dsi_drain_plan_node(const dsi_drain_cfg *cfg, const dsi_node *node, ds_time now, dsi_pdb_budget *budgets,
			dsi_drain_plan *out, ds_error *err)
{
	const dsi_cluster *c = cfg->c;
	memset(out, 0, sizeof(*out));
	out->node = node;
	size_t n = 0;
	for (const dsi_pod *q = dsi_cluster_pods_on_node(c, node->meta.name); q; q = q->node_next)
		if (!cfg->has_pod_selector || dsi_selector_matches(&cfg->atoms, &cfg->pod_selector, &q->meta.labels))
			n++;
	void **order = n ? dsi_calloc(n, sizeof(*order)) : NULL;
	out->pods = n ? dsi_calloc(n, sizeof(*out->pods)) : NULL;
	if (n && (!order || !out->pods)) {
		dsi_free(order);
		dsi_drain_plan_release(out);
		return dsi_error_nomem(err);
	}
	size_t k = 0;
	for (const dsi_pod *q = dsi_cluster_pods_on_node(c, node->meta.name); q; q = q->node_next)
		if (!cfg->has_pod_selector || dsi_selector_matches(&cfg->atoms, &cfg->pod_selector, &q->meta.labels))
			order[k++] = (void *)q;
	dsi_sort_ptrs(order, n, cmp_list_order, (void *)c);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		dsi_drain_pod *dp = &out->pods[i];
		dp->pod = order[i];
		out->n++;
		if (dsi_drain_filter_pod(cfg, dp->pod, now, &dp->st, &dp->owner) < 0)
			rc = dsi_error_nomem(err);
		if (dp->st.reason == DSI_PDS_ERROR)
			out->has_errors = 1;
		dp->grace = effective_grace(cfg, dp->pod);
		match_pdbs(c, dp->pod, &dp->pdb, &dp->npdbs);
	}
	dsi_free(order);
	out->use_eviction = !cfg->disable_eviction && cfg->eviction_gv != NULL;
	if (rc == 0 && !out->has_errors) {
		dsi_pdb_budget *own = budgets ? NULL : dsi_pdb_budgets_new(c);
		if (!budgets && !own)
			rc = dsi_error_nomem(err);
		out->removal_ran = rc == 0;
		for (size_t i = 0; i < out->n && rc == 0; i++) {
			dsi_drain_pod *dp = &out->pods[i];
			if (!dp->st.del)
				continue;
			if (!out->use_eviction)
				dp->removal = DSI_RM_DELETED; /* deletePods: budgets are bypassed */
			else
				rc = evict(cfg, dp, budgets ? budgets : own, err);
			out->nretry += dp->removal == DSI_RM_RETRY;
			out->nfailed += dp->removal == DSI_RM_FAILED;
		}
		dsi_free(own);
	}
	if (rc < 0)
		dsi_drain_plan_release(out);
	return rc;
}

/* PodDeleteList.Warnings() / errors() (kubectl pkg/drain/filters.go), groups
 * in the order of their first pod. */
json_t *dsi_drain_groups(const dsi_cluster *c, const dsi_drain_plan *p, int reason)
{
	json_t *out = json_array();
	uint8_t *done = p->n ? dsi_calloc(p->n, 1) : NULL;
	if (!out || (p->n && !done)) {
		json_decref(out);
		dsi_free(done);
		return NULL;
	}
	int oom = 0;
	for (size_t i = 0; i < p->n && !oom; i++) {
		if (done[i] || p->pods[i].st.reason != reason)
			continue;
		const char *msg = p->pods[i].st.message ? p->pods[i].st.message : "";
		if (reason == DSI_PDS_ERROR && !*msg)
			msg = "unexpected error";
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_strbuf_printf(&b, "%s%s: ", reason == DSI_PDS_ERROR ? "cannot delete " : "", msg);
		const char *sep = "";
		for (size_t j = i; j < p->n; j++) {
			const dsi_pod_status *st = &p->pods[j].st;
			if (done[j] || st->reason != reason)
				continue;
			const char *m = st->message ? st->message : "";
			if (reason == DSI_PDS_ERROR && !*m)
				m = "unexpected error";
			if (strcmp(m, msg) != 0)
				continue;
			done[j] = 1;
			dsi_strbuf_printf(&b, "%s%s/%s", sep, dsi_cstr(c, p->pods[j].pod->meta.ns),
					  dsi_cstr(c, p->pods[j].pod->meta.name));
			sep = ", ";
		}
		oom = b.oom || json_array_append_new(out, json_string(b.data)) < 0;
		dsi_strbuf_free(&b);
	}
	dsi_free(done);
	if (oom) {
		json_decref(out);
		return NULL;
	}
	return out;
}

/* aggregate.Error() (apimachinery pkg/util/errors/errors.go) */
char *dsi_aggregate_text(const json_t *texts)
{
	size_t n = json_array_size(texts);
	if (n == 0)
		return NULL;
	if (n == 1)
		return dsi_strdup(json_string_value(json_array_get(texts, 0)));
	dsi_strbuf b = DSI_STRBUF_INIT;
	size_t distinct = 0, first_len = 0;
	for (size_t i = 0; i < n; i++) {
		const char *s = json_string_value(json_array_get(texts, i));
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(s, json_string_value(json_array_get(texts, j))) == 0;
		if (seen)
			continue;
		dsi_strbuf_puts(&b, distinct++ ? ", " : "[");
		dsi_strbuf_puts(&b, s);
		if (distinct == 1)
			first_len = b.len;
	}
	if (distinct == 1) { /* one distinct text: no brackets */
		char *one = b.oom ? NULL : dsi_strndup(b.data + 1, first_len - 1);
		dsi_strbuf_free(&b);
		return one;
	}
	dsi_strbuf_putc(&b, ']');
	if (b.oom) {
		dsi_strbuf_free(&b);
		return NULL;
	}
	return dsi_strbuf_detach(&b);
}

/* ---- the JSON result ------------------------------------------------------- */

static const char *const reason_names[] = {"Okay", "Skip", "Warning", "Error"};
static const char *const filter_names[] = {"skipDeleted",  "daemonSet",    "mirror",
					   "localStorage", "unreplicated", "additional"};
static const char *const removal_names[] = {"none", "evicted", "evicted", "retry", "failed", "deleted"};

/* kubectl's outcome for a pod, in the words of drain.json's vectors */
static const char *outcome(const dsi_drain_plan *p, const dsi_drain_pod *dp)
{
	if (dp->st.del)
		return p->use_eviction ? "evict" : "delete";
	switch (dp->st.reason) {
	case DSI_PDS_SKIP: return "skip";
	case DSI_PDS_WARNING: return "ignore";
	default: return "error";
	}
}

static const char *budget_note(const dsi_drain_pod *dp)
{
	switch (dp->pdb_skipped) {
	case DSI_PDB_SKIP_PHASE: return "not checked: the pod is Pending, Succeeded or Failed";
	case DSI_PDB_SKIP_DELETING: return "not checked: the pod is already being deleted";
	case DSI_PDB_SKIP_UNHEALTHY_ALWAYS_ALLOW:
		return "not consumed: the pod is not Ready and the budget's unhealthyPodEvictionPolicy is AlwaysAllow";
	case DSI_PDB_SKIP_UNHEALTHY_BUDGET_HEALTHY:
		return "not consumed: the pod is not Ready and the budget has currentHealthy >= desiredHealthy";
	default: break;
	}
	if (dp->removal == DSI_RM_DELETED)
		return dp->pdb ? "bypassed: DELETE does not consult PodDisruptionBudgets" : "none";
	if (!dp->pdb)
		return "none";
	switch (dp->removal) {
	case DSI_RM_EVICTED: return "decremented";
	case DSI_RM_RETRY: return "exhausted";
	case DSI_RM_FAILED: return "refused";
	default: return "none";
	}
}

static json_t *pod_json(const dsi_drain_cfg *cfg, const dsi_drain_plan *p, const dsi_drain_pod *dp)
{
	const dsi_cluster *c = cfg->c;
	const dsi_pod *q = dp->pod;
	const dsi_owner *o = &q->meta.controller;
	json_t *ctl = json_null();
	if (o->kind || o->name || o->uid || o->api_version)
		ctl = json_pack("{s:s, s:s, s:s}", "apiVersion", dsi_cstr(c, o->api_version), "kind",
				dsi_cstr(c, o->kind), "name", dsi_cstr(c, o->name));
	json_t *ds = json_null();
	if (dp->owner.is_daemon) {
		const char *slash = strchr(dp->owner.group_kind, '/');
		ds = json_pack("{s:s%, s:s, s:s, s:s, s:b, s:b}", "group", dp->owner.group_kind,
			       (size_t)(slash - dp->owner.group_kind), "kind", slash + 1, "namespace",
			       dsi_cstr(c, q->meta.ns), "name", dsi_cstr(c, o->name), "found", dp->owner.found, "optIn",
			       dp->owner.opt_in);
	}
	json_t *rm = json_null();
	if (dp->st.del) {
		const char *result = p->removal_ran ? removal_names[dp->removal] : "not-run";
		rm = json_pack("{s:s, s:I, s:o, s:i, s:s, s:o, s:o}", "result", result, "gracePeriodSeconds",
			       (json_int_t)dp->grace, "pdb",
			       dp->pdb ? json_string(dsi_cstr(c, dp->pdb->meta.name)) : json_null(), "pdbCount",
			       (int)dp->npdbs, "budget", p->removal_ran ? budget_note(dp) : "none", "error",
			       dp->error ? json_string(dp->error) : json_null(), "cause",
			       dp->cause ? json_string(dp->cause) : json_null());
	}
	return json_pack("{s:s, s:s, s:s, s:b, s:o, s:s, s:s, s:o, s:o, s:o}", "namespace", dsi_cstr(c, q->meta.ns),
			 "name", dsi_cstr(c, q->meta.name), "reason", reason_names[dp->st.reason], "delete", dp->st.del,
			 "message", dp->st.message ? json_string(dp->st.message) : json_null(), "filter",
			 filter_names[dp->st.filter], "outcome", outcome(p, dp), "controller", ctl, "daemonSet", ds,
			 "removal", rm);
}

/* Why a pod is still on the node after the drain (NULL: it left). */
static const char *remaining_why(const dsi_drain_plan *p, const dsi_drain_pod *dp)
{
	if (dp->st.del) {
		if (!p->removal_ran)
			return "not removed: another pod failed the filters, so nothing is evicted";
		switch (dp->removal) {
		case DSI_RM_RETRY: return "eviction refused with 429 (PodDisruptionBudget); kubectl retries every 5s";
		case DSI_RM_FAILED: return "eviction failed";
		default: return NULL;
		}
	}
	if (dp->st.reason == DSI_PDS_ERROR)
		return "refused by the filters";
	switch (dp->st.filter) {
	case DSI_FILTER_SKIP_DELETED: return "skipped: deleting for longer than skipWaitForDeleteTimeoutSeconds";
	case DSI_FILTER_MIRROR: return "mirror pod: the kubelet runs the static pod and restarts it after a reboot";
	case DSI_FILTER_DAEMONSET: return "DaemonSet-managed: not evicted; it runs until the node shuts down";
	default: return "skipped by a filter";
	}
}

/* The daemon pods that stay, per owner: what a reboot does to them. */
static json_t *daemonsets_json(const dsi_drain_cfg *cfg, const dsi_drain_plan *p, int *oom)
{
	const dsi_cluster *c = cfg->c;
	json_t *rows = json_array();
	uint8_t *done = p->n ? dsi_calloc(p->n, 1) : NULL;
	dsi_node after;
	dsi_taint *buf = NULL;
	if (!rows || (p->n && !done) || dsi_cordoned_view(c, p->node, 1, &after, &buf) < 0) {
		json_decref(rows);
		dsi_free(done);
		*oom = 1;
		return NULL;
	}
	const char *node = dsi_cstr(c, p->node->meta.name);
	for (size_t i = 0; i < p->n && !*oom; i++) {
		const dsi_drain_pod *dp = &p->pods[i];
		if (done[i] || !dp->owner.is_daemon || !remaining_why(p, dp))
			continue;
		json_t *pods = json_array();
		for (size_t j = i; j < p->n && pods; j++) {
			const dsi_drain_pod *dq = &p->pods[j];
			if (done[j] || !dq->owner.is_daemon || !remaining_why(p, dq) ||
			    dq->pod->meta.ns != dp->pod->meta.ns ||
			    dq->pod->meta.controller.name != dp->pod->meta.controller.name ||
			    strcmp(dq->owner.group_kind, dp->owner.group_kind) != 0)
				continue;
			done[j] = 1;
			json_array_append_new(pods, json_string(dsi_cstr(c, dq->pod->meta.name)));
		}
		const char *ns = dsi_cstr(c, dp->pod->meta.ns), *name = dsi_cstr(c, dp->pod->meta.controller.name);
		json_t *recreated = json_null();
		dsi_strbuf note = DSI_STRBUF_INIT;
		dsi_strbuf_printf(&note,
				  "%s/%s loses %zu pod(s) on node %s when the node reboots: kubectl drain does not "
				  "evict DaemonSet pods, they run until the node shuts down",
				  ns, name, json_array_size(pods), node);
		if (dp->owner.ds) {
			dsi_placement pl;
			if (dsi_placement_init(&pl, c, dp->owner.ds, cfg->o->core) < 0) {
				*oom = 1;
			} else {
				dsi_verdict v;
				dsi_node_should_run(&pl, &after, &v);
				dsi_placement_release(&pl);
				recreated = json_boolean(v.should_run);
				if (v.should_run)
					dsi_strbuf_puts(
						&note, "; the DaemonSet controller recreates it there once the node is "
						       "back, even while cordoned (daemon pods tolerate "
						       "node.kubernetes.io/unschedulable)");
				else
					dsi_strbuf_printf(&note,
							  "; the DaemonSet controller does not recreate it there: %s",
							  dsi_why_message(v.why));
			}
		} else {
			dsi_strbuf_puts(&note, dp->owner.found
						       ? "; its owner is not a DaemonSet this library models, so "
							 "whether it comes back is unknown"
						       : "; its owner is not in the snapshot");
		}
		const char *slash = strchr(dp->owner.group_kind, '/');
		json_t *row = json_pack("{s:s%, s:s, s:s, s:s, s:b, s:o, s:I, s:o, s:s}", "group", dp->owner.group_kind,
					(size_t)(slash - dp->owner.group_kind), "kind", slash + 1, "namespace", ns,
					"name", name, "found", dp->owner.found, "pods", pods, "losesPodsAtReboot",
					(json_int_t)json_array_size(pods), "recreatedAfterReboot", recreated, "note",
					note.oom ? "" : note.data);
		dsi_strbuf_free(&note);
		if (!row || json_array_append_new(rows, row) < 0)
			*oom = 1;
	}
	dsi_free(done);
	dsi_free(buf);
	if (*oom) {
		json_decref(rows);
		return NULL;
	}
	return rows;
}

static int push_line(json_t *arr, const char *fmt, ...) DSI_PRINTF(2, 3);
static int push_line(json_t *arr, const char *fmt, ...)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	int rc = dsi_strbuf_vprintf(&b, fmt, ap); /* texts of any length (many pods) */
	va_end(ap);
	if (rc == 0)
		rc = json_array_append_new(arr, json_string(b.data));
	dsi_strbuf_free(&b);
	return rc;
}

/* evictPods (pkg/drain/drain.go): the error of each eviction that failed, in list order (NULL when out of
 * memory), for the transcript, the ds_drain result and the upgrade plan alike. */
json_t *dsi_drain_eviction_errors(const dsi_cluster *c, const dsi_drain_plan *p)
{
	json_t *texts = json_array();
	for (size_t i = 0; texts && i < p->n; i++) {
		const dsi_drain_pod *dp = &p->pods[i];
		if (dp->removal == DSI_RM_FAILED &&
		    push_line(texts, "error when evicting pods/\"%s\" -n \"%s\": %s", dsi_cstr(c, dp->pod->meta.name),
			      dsi_cstr(c, dp->pod->meta.ns), dp->error) < 0) {
			json_decref(texts);
			texts = NULL;
		}
	}
	return texts;
}

/* What `kubectl drain NODE` prints (pkg/cmd/drain/drain.go RunDrain,
 * deleteOrEvictPodsSimple; pkg/drain/drain.go evictPods, deletePods;
 * pkg/cmd/util/helpers.go checkErr). Lines of concurrent evictions come in
 * list order. */
static json_t *transcript(const dsi_drain_cfg *cfg, const dsi_drain_plan *p, json_t *cordon, const char *warning,
			  const json_t *errors, const char *error_text, int *oom)
{
	const dsi_cluster *c = cfg->c;
	const char *node = dsi_cstr(c, p->node->meta.name);
	json_t *out = json_array(), *err = json_array();
	int bad = !out || !err;
	json_t *cl = json_array_get(json_object_get(cordon, "stdout"), 0);
	if (!bad && cl)
		bad = json_array_append(out, cl) < 0;
	int complete = 1, fails = 0;
	json_t *node_errors = NULL; /* the errors of the node's failure, one per line at the end */
	if (p->has_errors) {
		fails = 1;
		node_errors = json_incref((json_t *)errors);
	} else {
		if (warning && !bad)
			bad = push_line(err, "Warning: %s", warning) < 0;
		for (size_t i = 0; i < p->n && !bad && p->use_eviction; i++)
			if (p->pods[i].st.del)
				bad = push_line(out, "evicting pod %s/%s", dsi_cstr(c, p->pods[i].pod->meta.ns),
						dsi_cstr(c, p->pods[i].pod->meta.name)) < 0;
		for (size_t i = 0; i < p->n && !bad; i++) {
			const dsi_drain_pod *dp = &p->pods[i];
			if (dp->removal == DSI_RM_RETRY)
				bad = push_line(err,
						"error when evicting pods/\"%s\" -n \"%s\" (will retry after %s): %s",
						dsi_cstr(c, dp->pod->meta.name), dsi_cstr(c, dp->pod->meta.ns),
						DSI_DRAIN_RETRY_DELAY, dp->error) < 0;
		}
		for (size_t i = 0; i < p->n && !bad; i++) {
			const dsi_drain_pod *dp = &p->pods[i];
			if (dp->removal == DSI_RM_EVICTED || dp->removal == DSI_RM_EVICTED_DIRECT)
				bad = push_line(out, "pod/%s evicted", dsi_cstr(c, dp->pod->meta.name)) < 0;
			else if (dp->removal == DSI_RM_DELETED)
				bad = push_line(out, "pod/%s deleted", dsi_cstr(c, dp->pod->meta.name)) < 0;
		}
		if (p->nretry) {
			complete = 0; /* evictPods waits for every goroutine; the refused ones retry without end */
		} else if (p->nfailed) {
			fails = 1;
			node_errors = dsi_drain_eviction_errors(c, p);
			bad = bad || !node_errors;
			char *agg = bad ? NULL : dsi_aggregate_text(node_errors);
			bad = bad || !agg;
			if (!bad)
				bad = push_line(err, "There are pending pods in node \"%s\" when an error occurred: %s",
						node, agg) < 0;
			for (size_t i = 0; i < p->n && !bad; i++)
				if (p->pods[i].removal == DSI_RM_FAILED)
					bad = push_line(err, "pod/%s", dsi_cstr(c, p->pods[i].pod->meta.name)) < 0;
			dsi_free(agg);
		} else if (!bad) {
			bad = push_line(out, "node/%s drained", node) < 0;
		}
	}
	if (fails && !bad) {
		char *agg = p->has_errors ? dsi_strdup(error_text) : dsi_aggregate_text(node_errors);
		bad = !agg;
		if (!bad)
			bad = push_line(err,
					"error: unable to drain node \"%s\" due to error: %s, continuing command...",
					node, agg) < 0;
		dsi_free(agg);
		if (!bad)
			bad = push_line(err, "There are pending nodes to be drained:") < 0 ||
			      push_line(err, " %s", node) < 0;
		/* checkErr: the one-node aggregate is unwrapped, then MultipleErrors prints each error */
		for (size_t i = 0; i < json_array_size(node_errors) && !bad; i++)
			bad = json_array_append(err, json_array_get(node_errors, i)) < 0;
	}
	json_decref(node_errors);
	json_t *t = bad ? NULL
			: json_pack("{s:O, s:O, s:o, s:b}", "stdout", out, "stderr", err, "exitCode",
				    complete ? json_integer(fails ? 1 : 0) : json_null(), "complete", complete);
	json_decref(out);
	json_decref(err);
	if (!t)
		*oom = 1;
	return t;
}

/* Set a member, consuming value in every case; *oom records a failure. */
static void put(json_t *obj, const char *key, json_t *value, int *oom)
{
	if (!value || json_object_set_new(obj, key, value) < 0)
		*oom = 1;
}

static json_t *options_json(const dsi_drain_cfg *cfg)
{
	json_t *kinds = json_array();
	for (size_t i = 0; kinds && i < cfg->nkinds; i++)
		json_array_append_new(kinds, json_string(cfg->kinds[i]));
	return json_pack("{s:b, s:b, s:b, s:b, s:I, s:I, s:o, s:o}", "force", cfg->force, "ignoreDaemonSets",
			 cfg->ignore_daemonsets, "deleteEmptyDirData", cfg->delete_emptydir_data, "disableEviction",
			 cfg->disable_eviction, "gracePeriodSeconds", (json_int_t)cfg->grace_period_seconds,
			 "skipWaitForDeleteTimeoutSeconds", (json_int_t)cfg->skip_wait_timeout_seconds, "podSelector",
			 cfg->o->ops->pod_selector ? json_string(cfg->o->ops->pod_selector) : json_null(),
			 "daemonSetKinds", kinds);
}

int dsi_drain_json(const dsi_drain_cfg *cfg, const dsi_node *node, ds_time now, json_t **out, ds_error *err)
{
	const dsi_cluster *c = cfg->c;
	*out = NULL;
	dsi_drain_plan p;
	int rc = dsi_drain_plan_node(cfg, node, now, NULL, &p, err);
	if (rc < 0)
		return rc;
	int oom = 0;
	json_t *doc = json_object(), *pods = json_array(), *removed = json_array(), *blocked = json_array(),
	       *failed = json_array(), *remaining = json_array();
	json_t *warnings = dsi_drain_groups(c, &p, DSI_PDS_WARNING), *errors = dsi_drain_groups(c, &p, DSI_PDS_ERROR);
	json_t *cordon = dsi_cordon_core_json(c, node, 1);
	oom = !doc || !pods || !removed || !blocked || !failed || !remaining || !warnings || !errors || !cordon;
	for (size_t i = 0; i < p.n && !oom; i++) {
		const dsi_drain_pod *dp = &p.pods[i];
		const char *ns = dsi_cstr(c, dp->pod->meta.ns), *name = dsi_cstr(c, dp->pod->meta.name);
		oom = json_array_append_new(pods, pod_json(cfg, &p, dp)) < 0;
		if (!oom && (dp->removal == DSI_RM_EVICTED || dp->removal == DSI_RM_EVICTED_DIRECT ||
			     dp->removal == DSI_RM_DELETED))
			oom = json_array_append_new(removed, json_sprintf("%s/%s", ns, name)) < 0;
		if (!oom && dp->removal == DSI_RM_RETRY)
			oom = json_array_append_new(blocked,
						    json_pack("{s:s, s:s, s:s, s:s, s:s}", "namespace", ns, "name",
							      name, "pdb", dsi_cstr(c, dp->pdb->meta.name), "message",
							      dp->error, "cause", dp->cause)) < 0;
		if (!oom && dp->removal == DSI_RM_FAILED)
			oom = json_array_append_new(failed, json_pack("{s:s, s:s, s:s}", "namespace", ns, "name", name,
								      "message", dp->error)) < 0;
		const char *why = remaining_why(&p, dp);
		if (!oom && why)
			oom = json_array_append_new(remaining, json_pack("{s:s, s:s, s:s}", "namespace", ns, "name",
									 name, "why", why)) < 0;
	}
	char *warning = NULL, *error = NULL;
	if (!oom && json_array_size(warnings)) { /* Warnings(): groups joined with "; " */
		dsi_strbuf b = DSI_STRBUF_INIT;
		for (size_t i = 0; i < json_array_size(warnings); i++) {
			dsi_strbuf_puts(&b, i ? "; " : "");
			dsi_strbuf_puts(&b, json_string_value(json_array_get(warnings, i)));
		}
		oom = b.oom;
		warning = dsi_strbuf_detach(&b);
	}
	if (!oom && json_array_size(errors))
		oom = !(error = dsi_aggregate_text(errors));
	if (!oom && !p.has_errors && p.nfailed) {
		json_t *texts = dsi_drain_eviction_errors(c, &p);
		oom = !texts || !(error = dsi_aggregate_text(texts));
		json_decref(texts);
	}
	json_t *dss = oom ? NULL : daemonsets_json(cfg, &p, &oom);
	json_t *tr = oom ? NULL : transcript(cfg, &p, cordon, warning, errors, error, &oom);
	if (!oom) {
		char when[40];
		dsi_time_format(now, when, sizeof(when));
		const char *verdict = p.has_errors || p.nfailed ? "failed" : p.nretry ? "blocked" : "drained";
		json_t *dopts = cfg->grace_period_seconds >= 0 ? json_pack("{s:I}", "gracePeriodSeconds",
									   (json_int_t)cfg->grace_period_seconds)
							       : json_object();
		put(doc, "node", json_string(dsi_cstr(c, node->meta.name)), &oom);
		put(doc, "now", json_string(when), &oom);
		put(doc, "options", options_json(cfg), &oom);
		put(doc, "cordon", json_incref(cordon), &oom);
		put(doc, "method", json_string(p.use_eviction ? "eviction" : "delete"), &oom);
		put(doc, "evictionGroupVersion", p.use_eviction ? json_string(cfg->eviction_gv) : json_null(), &oom);
		put(doc, "deleteOptions", dopts, &oom);
		put(doc, "pods", json_incref(pods), &oom);
		put(doc, "warnings", json_incref(warnings), &oom);
		put(doc, "errors", json_incref(errors), &oom);
		put(doc, "warning", warning ? json_string(warning) : json_null(), &oom);
		put(doc, "error", error ? json_string(error) : json_null(), &oom);
		put(doc, "removed", json_incref(removed), &oom);
		put(doc, "blocked", json_incref(blocked), &oom);
		put(doc, "failed", json_incref(failed), &oom);
		put(doc, "remaining", json_incref(remaining), &oom);
		put(doc, "daemonSets", dss, &oom);
		put(doc, "verdict", json_string(verdict), &oom);
		put(doc, "drained", json_boolean(!strcmp(verdict, "drained")), &oom);
		put(doc, "transcript", tr, &oom);
		dss = tr = NULL;
	}
	json_decref(dss);
	json_decref(tr);
	json_decref(pods);
	json_decref(removed);
	json_decref(blocked);
	json_decref(failed);
	json_decref(remaining);
	json_decref(warnings);
	json_decref(errors);
	json_decref(cordon);
	dsi_free(warning);
	dsi_free(error);
	dsi_drain_plan_release(&p);
	if (oom) {
		json_decref(doc);
		return dsi_error_nomem(err);
	}
	*out = doc;
	return 0;
}
