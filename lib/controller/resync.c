/*
 * The initial list (and every relist after a watch broke): the informers'
 * List + Replace. The new snapshot replaces the old one only when every list
 * succeeded; the pods that appeared or went away between the two are
 * observed by the expectations as the informer's notifications would be.
 */
#include <string.h>

#include "controller/controller.h"
#include "controller/expectations.h"
#include "controller/queue.h"
#include "controller/transport.h"
#include "core/alloc.h"

static const char *const resources[] = {"nodes", "pods", "daemonsets", "controllerrevisions"};

/* The DaemonSet key a pod's controller reference resolves to in snapshot c (resolveControllerRef), or NULL. */
static char *owner_key(const dsi_cluster *c, const dsi_pod *p)
{
	if (!p->meta.controller.uid || strcmp(dsi_cstr(c, p->meta.controller.kind), "DaemonSet") != 0)
		return NULL;
	const char *ns = dsi_cstr(c, p->meta.ns);
	const dsi_daemonset *ds = dsi_cluster_daemonset(c, ns, dsi_cstr(c, p->meta.controller.name));
	if (!ds || ds->meta.uid != p->meta.controller.uid)
		return NULL;
	return dsi_ctrl_key(ns, dsi_cstr(c, ds->meta.name));
}

/* The pod of the same namespace, name and uid in c, or NULL. */
static const dsi_pod *same_pod(const dsi_cluster *c, const dsi_cluster *from, const dsi_pod *p)
{
	dsi_atom ns = dsi_atom_lookup_id(&c->atoms, dsi_cstr(from, p->meta.ns));
	dsi_atom name = dsi_atom_lookup_id(&c->atoms, dsi_cstr(from, p->meta.name));
	if (!name || (p->meta.ns && !ns))
		return NULL;
	const dsi_pod *q = dsi_cluster_pod(c, ns, name);
	if (!q || strcmp(dsi_cstr(c, q->meta.uid), dsi_cstr(from, p->meta.uid)) != 0)
		return NULL;
	return q;
}

/* One observation on the DaemonSet key resolved in c: a creation (add) or a deletion. */
static void observe(dsi_controller *ctrl, const dsi_cluster *c, const dsi_pod *p, int add, int del)
{
	char *key = owner_key(c, p);
	if (key)
		dsi_exp_lower(dsi_dstable_get(&ctrl->table, key), add, del);
	dsi_free(key);
}

/* What the informer's Replace notifies: deletes for pods gone, adds (or, when already
 * deleting, deletes) for new pods, deletes for pods that started deleting. */
static void observe_changes(dsi_controller *ctrl, const dsi_cluster *old, const dsi_cluster *cur)
{
	size_t n = dsi_cluster_count(old, DSI_KIND_POD);
	for (size_t i = 0; i < n; i++) {
		const dsi_pod *p = old->objs[DSI_KIND_POD].v[i];
		const dsi_pod *q = same_pod(cur, old, p);
		if (!q)
			observe(ctrl, old, p, 0, 1);
		else if (q->meta.has_deletion && !p->meta.has_deletion)
			observe(ctrl, cur, q, 0, 1);
	}
	n = dsi_cluster_count(cur, DSI_KIND_POD);
	for (size_t i = 0; i < n; i++) {
		const dsi_pod *q = cur->objs[DSI_KIND_POD].v[i];
		if (same_pod(old, cur, q))
			continue;
		if (q->meta.has_deletion)
			observe(ctrl, cur, q, 0, 1);
		else
			observe(ctrl, cur, q, 1, 0);
	}
}

static int enqueue_all(dsi_controller *ctrl, const dsi_cluster *c, ds_time now, json_t *queued, ds_error *err)
{
	size_t n = dsi_cluster_count(c, DSI_KIND_DAEMONSET);
	for (size_t i = 0; i < n; i++) {
		const dsi_daemonset *ds = c->objs[DSI_KIND_DAEMONSET].v[i];
		char *key = dsi_ctrl_key(dsi_cstr(c, ds->meta.ns), dsi_cstr(c, ds->meta.name));
		dsi_dsstate *s = key ? dsi_dstable_ensure(&ctrl->table, key) : NULL;
		if (!s || json_array_append_new(queued, json_string(key))) {
			dsi_free(key);
			return dsi_error_nomem(err);
		}
		dsi_queue_add(s, now);
		dsi_free(key);
	}
	return 0;
}

/* DaemonSets that were there and are gone: deleteDaemonset (expectations dropped, key queued). */
static int forget_gone(dsi_controller *ctrl, const dsi_cluster *old, const dsi_cluster *cur, ds_time now,
		       json_t *queued, ds_error *err)
{
	size_t n = dsi_cluster_count(old, DSI_KIND_DAEMONSET);
	for (size_t i = 0; i < n; i++) {
		const dsi_daemonset *ds = old->objs[DSI_KIND_DAEMONSET].v[i];
		const char *ns = dsi_cstr(old, ds->meta.ns), *name = dsi_cstr(old, ds->meta.name);
		const dsi_daemonset *now_ds = dsi_cluster_daemonset(cur, ns, name);
		if (now_ds && strcmp(dsi_cstr(cur, now_ds->meta.uid), dsi_cstr(old, ds->meta.uid)) == 0)
			continue;
		char *key = dsi_ctrl_key(ns, name);
		dsi_dsstate *s = key ? dsi_dstable_ensure(&ctrl->table, key) : NULL;
		if (!s) {
			dsi_free(key);
			return dsi_error_nomem(err);
		}
		dsi_exp_delete(s);
		if (!now_ds) {
			dsi_queue_add(s, now);
			if (json_array_append_new(queued, json_string(key))) {
				dsi_free(key);
				return dsi_error_nomem(err);
			}
		}
		dsi_free(key);
	}
	return 0;
}

int dsi_ctrl_resync(dsi_controller *c, ds_time now, json_t **out, ds_error *err)
{
	*out = NULL;
	dsi_cluster *fresh = dsi_calloc(1, sizeof(*fresh));
	if (!fresh || dsi_cluster_init(fresh, &c->core, &c->model) < 0) {
		dsi_free(fresh);
		return dsi_error_nomem(err);
	}
	json_t *rvs = json_object(), *counts = json_object(), *queued = json_array();
	int rc = rvs && counts && queued ? 0 : dsi_error_nomem(err);
	for (size_t i = 0; rc == 0 && i < sizeof(resources) / sizeof(resources[0]); i++) {
		/* nodes are cluster-scoped: never filtered by namespace */
		const char *ns = i == 0 ? NULL : c->ns_filter;
		dsi_call call;
		if ((rc = dsi_tp_list(c, resources[i], ns, NULL, &call, err)) < 0)
			break;
		if (call.result != DS_TRANSPORT_OK) {
			rc = dsi_error_set(err, DS_ETRANSPORT, resources[i], "list %s: %s (%s)", resources[i],
					   call.message, dsi_result_name(call.result));
			dsi_call_release(&call);
			break;
		}
		const char *rv =
			json_string_value(json_object_get(json_object_get(call.body, "metadata"), "resourceVersion"));
		json_object_set_new(rvs, resources[i], json_string(rv ? rv : ""));
		size_t count = 0;
		rc = dsi_cluster_load_value(fresh, call.body, &count, err);
		if (rc < 0)
			dsi_error_prefix_path(err, resources[i]);
		json_object_set_new(counts, resources[i], json_integer((json_int_t)count));
		dsi_call_release(&call);
	}
	if (rc == 0)
		rc = forget_gone(c, c->cluster, fresh, now, queued, err);
	if (rc == 0)
		rc = enqueue_all(c, fresh, now, queued, err);
	if (rc == 0 &&
	    !(*out = json_pack("{s:O, s:O, s:O}", "resourceVersions", rvs, "counts", counts, "queued", queued)))
		rc = dsi_error_nomem(err);
	if (rc == 0) {
		observe_changes(c, c->cluster, fresh);
		dsi_cluster_destroy(c->cluster);
		dsi_free(c->cluster);
		c->cluster = fresh;
	} else {
		dsi_cluster_destroy(fresh);
		dsi_free(fresh);
	}
	json_decref(rvs);
	json_decref(counts);
	json_decref(queued);
	return rc;
}
