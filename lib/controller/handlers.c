/*
 * Watch events: each one updates the snapshot, and the DaemonSet controller's
 * event handlers (daemon_controller.go) decide which DaemonSets wake up and
 * which expectations are observed. As an informer does, an event for an object
 * the snapshot already holds is an update, otherwise an add.
 */
#include <stdio.h>
#include <string.h>

#include "controller/controller.h"
#include "controller/expectations.h"
#include "controller/queue.h"
#include "core/alloc.h"
#include "core/jsonout.h"
#include "core/load.h"
#include "daemon/shouldrun.h"

/* What the handlers compare of an object, copied out of the snapshot or the event. */
typedef struct facts {
	int present;
	char *rv;
	int deleting;
	int ready;
	int has_ref;
	char *ref_api, *ref_kind, *ref_name, *ref_uid;
	int ref_block;
	json_t *labels; /* never NULL when present */
	char *uid;      /* DaemonSets */
} facts;

static void facts_release(facts *f)
{
	dsi_free(f->rv);
	dsi_free(f->ref_api);
	dsi_free(f->ref_kind);
	dsi_free(f->ref_name);
	dsi_free(f->ref_uid);
	dsi_free(f->uid);
	json_decref(f->labels);
	memset(f, 0, sizeof(*f));
}

static char *dup_or_empty(const char *s) { return dsi_strdup(s ? s : ""); }

static int facts_from_meta(const dsi_cluster *c, const dsi_meta *m, facts *f)
{
	memset(f, 0, sizeof(*f));
	f->present = 1;
	f->deleting = m->has_deletion;
	f->rv = dup_or_empty(dsi_cstr(c, m->resource_version));
	f->uid = dup_or_empty(dsi_cstr(c, m->uid));
	f->labels = dsi_labels_to_json(&c->atoms, &m->labels);
	if (m->controller.uid) {
		f->has_ref = 1;
		f->ref_api = dup_or_empty(dsi_cstr(c, m->controller.api_version));
		f->ref_kind = dup_or_empty(dsi_cstr(c, m->controller.kind));
		f->ref_name = dup_or_empty(dsi_cstr(c, m->controller.name));
		f->ref_uid = dup_or_empty(dsi_cstr(c, m->controller.uid));
		f->ref_block = m->controller.block_owner_deletion;
		if (!f->ref_api || !f->ref_kind || !f->ref_name || !f->ref_uid)
			return -1;
	}
	return f->rv && f->uid && f->labels ? 0 : -1;
}

/* metav1.GetControllerOf on the event's object: the first owner reference with controller: true. */
static int facts_from_json(const json_t *obj, facts *f)
{
	memset(f, 0, sizeof(*f));
	f->present = 1;
	const json_t *meta = json_object_get(obj, "metadata");
	f->deleting = json_is_string(json_object_get(meta, "deletionTimestamp"));
	f->rv = dup_or_empty(json_string_value(json_object_get(meta, "resourceVersion")));
	f->uid = dup_or_empty(json_string_value(json_object_get(meta, "uid")));
	const json_t *labels = json_object_get(meta, "labels");
	f->labels = json_is_object(labels) ? json_deep_copy(labels) : json_object();
	const json_t *refs = json_object_get(meta, "ownerReferences");
	for (size_t i = 0; i < json_array_size(refs); i++) {
		const json_t *r = json_array_get(refs, i);
		if (!json_is_true(json_object_get(r, "controller")))
			continue;
		f->has_ref = 1;
		f->ref_api = dup_or_empty(json_string_value(json_object_get(r, "apiVersion")));
		f->ref_kind = dup_or_empty(json_string_value(json_object_get(r, "kind")));
		f->ref_name = dup_or_empty(json_string_value(json_object_get(r, "name")));
		f->ref_uid = dup_or_empty(json_string_value(json_object_get(r, "uid")));
		f->ref_block = json_is_true(json_object_get(r, "blockOwnerDeletion"));
		if (!f->ref_api || !f->ref_kind || !f->ref_name || !f->ref_uid)
			return -1;
		break;
	}
	/* podutil.IsPodReady: condition Ready with status True */
	const json_t *conds = json_object_get(json_object_get(obj, "status"), "conditions");
	for (size_t i = 0; i < json_array_size(conds); i++) {
		const json_t *cd = json_array_get(conds, i);
		const char *t = json_string_value(json_object_get(cd, "type"));
		const char *st = json_string_value(json_object_get(cd, "status"));
		if (t && strcmp(t, "Ready") == 0)
			f->ready = st && strcmp(st, "True") == 0;
	}
	return f->rv && f->uid && f->labels ? 0 : -1;
}

static int same_ref(const facts *a, const facts *b)
{
	if (a->has_ref != b->has_ref)
		return 0;
	if (!a->has_ref)
		return 1;
	return strcmp(a->ref_api, b->ref_api) == 0 && strcmp(a->ref_kind, b->ref_kind) == 0 &&
	       strcmp(a->ref_name, b->ref_name) == 0 && strcmp(a->ref_uid, b->ref_uid) == 0 &&
	       a->ref_block == b->ref_block;
}

typedef struct hctx {
	dsi_controller *c;
	ds_time now;
	json_t *queued, *queued_after;
	size_t applied;
	ds_error *err;
} hctx;

static int enqueue_after(hctx *h, const char *ns, const char *name, int64_t after_ms)
{
	char *key = dsi_ctrl_key(ns, name);
	dsi_dsstate *s = key ? dsi_dstable_ensure(&h->c->table, key) : NULL;
	int rc = s ? 0 : -1;
	json_t *list = after_ms > 0 ? h->queued_after : h->queued;
	if (s)
		dsi_queue_add_after(s, h->now, after_ms);
	if (s && list) { /* what was queued, for the caller's report */
		json_t *item = after_ms > 0 ? json_pack("{s:s, s:I}", "key", key, "afterMs", (json_int_t)after_ms)
					    : json_string(key);
		int dup = 0;
		for (size_t i = 0; i < json_array_size(list) && !dup; i++)
			dup = json_equal(json_array_get(list, i), item);
		if (!item || (!dup && json_array_append(list, item)))
			rc = -1;
		json_decref(item);
	}
	dsi_free(key);
	return rc < 0 ? dsi_error_nomem(h->err) : 0;
}

static int enqueue(hctx *h, const char *ns, const char *name) { return enqueue_after(h, ns, name, 0); }

static dsi_dsstate *state_of(hctx *h, const char *ns, const char *name)
{
	char *key = dsi_ctrl_key(ns, name);
	dsi_dsstate *s = key ? dsi_dstable_get(&h->c->table, key) : NULL;
	dsi_free(key);
	return s;
}

/* resolveControllerRef (daemon_controller.go): kind DaemonSet, same namespace, same uid. */
static const dsi_daemonset *resolve(hctx *h, const char *ns, const facts *f)
{
	if (!f->has_ref || strcmp(f->ref_kind, "DaemonSet") != 0)
		return NULL;
	const dsi_daemonset *ds = dsi_cluster_daemonset(h->c->cluster, ns, f->ref_name);
	if (!ds || strcmp(dsi_cstr(h->c->cluster, ds->meta.uid), f->ref_uid) != 0)
		return NULL;
	return ds;
}

/* The DaemonSet controlling f (resolveControllerRef), queued and, when out is not NULL, in *out;
 * none (*out NULL): nothing to do. */
static int enqueue_owner(hctx *h, const char *ns, const facts *f, const dsi_daemonset **out)
{
	const dsi_daemonset *ds = resolve(h, ns, f);
	if (out)
		*out = ds;
	return ds ? enqueue(h, ns, dsi_cstr(h->c->cluster, ds->meta.name)) : 0;
}

/* GetPodDaemonSets / GetHistoryDaemonSets (listers): DaemonSets of the namespace whose
 * non-empty selector matches labels; every one is queued. */
static int enqueue_matching(hctx *h, const char *ns, const dsi_labels *labels)
{
	const dsi_cluster *c = h->c->cluster;
	dsi_atom ns_atom = dsi_atom_lookup_id(&c->atoms, ns);
	size_t n = dsi_cluster_count(c, DSI_KIND_DAEMONSET);
	for (size_t i = 0; i < n; i++) {
		const dsi_daemonset *ds = c->objs[DSI_KIND_DAEMONSET].v[i];
		if (ds->meta.ns != ns_atom || ds->selector_empty || ds->selector_missing ||
		    !dsi_selector_matches(&c->atoms, &ds->selector, labels))
			continue;
		int rc = enqueue(h, ns, dsi_cstr(c, ds->meta.name));
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* deletePod (daemon_controller.go): only controlled pods matter. */
static int delete_pod(hctx *h, const char *ns, const facts *pod)
{
	const dsi_daemonset *ds;
	int rc = enqueue_owner(h, ns, pod, &ds);
	if (ds)
		dsi_exp_lower(state_of(h, ns, dsi_cstr(h->c->cluster, ds->meta.name)), 0, 1); /* DeletionObserved */
	return rc;
}

/* addPod / updatePod (daemon_controller.go) */
static int pod_event(hctx *h, const char *ns, const facts *old, const facts *cur, const dsi_labels *cur_labels)
{
	const dsi_cluster *c = h->c->cluster;
	int rc;
	if (!old->present) {       /* addPod */
		if (cur->deleting) /* a pod already going is no creation */
			return delete_pod(h, ns, cur);
		if (cur->has_ref) {
			const dsi_daemonset *ds;
			if ((rc = enqueue_owner(h, ns, cur, &ds)) < 0 || !ds)
				return rc;
			dsi_exp_lower(state_of(h, ns, dsi_cstr(c, ds->meta.name)), 1, 0); /* CreationObserved */
			return 0;
		}
		return cur_labels ? enqueue_matching(h, ns, cur_labels) : 0;
	}
	if (strcmp(old->rv, cur->rv) == 0) /* a periodic resync sends the same version again */
		return 0;
	if (cur->deleting)
		return delete_pod(h, ns, cur);
	int ref_changed = !same_ref(old, cur);
	if (ref_changed && old->has_ref && (rc = enqueue_owner(h, ns, old, NULL)) < 0)
		return rc;
	if (cur->has_ref) {
		const dsi_daemonset *ds;
		if ((rc = enqueue_owner(h, ns, cur, &ds)) < 0 || !ds)
			return rc;
		/* a pod turning ready is available after minReadySeconds: look again then (+1 s for skew) */
		if (!old->ready && cur->ready && ds->min_ready_seconds > 0)
			return enqueue_after(h, ns, dsi_cstr(c, ds->meta.name),
					     (int64_t)ds->min_ready_seconds * 1000 + 1000);
		return 0;
	}
	if (cur_labels && (ref_changed || !json_equal(old->labels, cur->labels)))
		return enqueue_matching(h, ns, cur_labels);
	return 0;
}

/* addHistory / updateHistory / deleteHistory (daemon_controller.go) */
static int history_event(hctx *h, const char *ns, int type, const facts *old, const facts *cur,
			 const dsi_labels *cur_labels)
{
	int rc;
	if (type == 'D' || (!old->present && cur->deleting)) /* deleteHistory */
		return enqueue_owner(h, ns, cur, NULL);
	if (!old->present) { /* addHistory: an owned revision wakes nobody */
		if (cur->has_ref)
			return 0;
		return cur_labels ? enqueue_matching(h, ns, cur_labels) : 0;
	}
	if (strcmp(old->rv, cur->rv) == 0)
		return 0;
	int ref_changed = !same_ref(old, cur);
	if (ref_changed && old->has_ref && (rc = enqueue_owner(h, ns, old, NULL)) < 0)
		return rc;
	if (cur->has_ref)
		return enqueue_owner(h, ns, cur, NULL);
	if (cur_labels && (ref_changed || !json_equal(old->labels, cur->labels)))
		return enqueue_matching(h, ns, cur_labels);
	return 0;
}

/* Every DaemonSet's verdict for one node (nodes are looked up by name). */
static dsi_verdict *verdicts(hctx *h, const char *node_name)
{
	const dsi_cluster *c = h->c->cluster;
	size_t n = dsi_cluster_count(c, DSI_KIND_DAEMONSET);
	dsi_verdict *v = dsi_calloc(n ? n : 1, sizeof(*v));
	const dsi_node *node = dsi_cluster_node_by_name(c, node_name);
	for (size_t i = 0; v && node && i < n; i++) {
		dsi_placement p;
		if (dsi_placement_init(&p, c, c->objs[DSI_KIND_DAEMONSET].v[i], &h->c->core) < 0) {
			dsi_free(v);
			return NULL;
		}
		dsi_node_should_run(&p, node, &v[i]);
		dsi_placement_release(&p);
	}
	return v;
}

/* addNode / updateNode (daemon_controller.go): a new node wakes the DaemonSets that should
 * run there; an update those whose verdict changed (labels and taints decide the verdict,
 * so other changes, status included, wake nobody). Node deletions are not watched. */
static int node_event(hctx *h, const dsi_verdict *before, const dsi_verdict *after, int existed)
{
	const dsi_cluster *c = h->c->cluster;
	size_t n = dsi_cluster_count(c, DSI_KIND_DAEMONSET);
	for (size_t i = 0; i < n; i++) {
		const dsi_daemonset *ds = c->objs[DSI_KIND_DAEMONSET].v[i];
		int wake = existed ? (before[i].should_run != after[i].should_run ||
				      before[i].should_continue != after[i].should_continue)
				   : after[i].should_run;
		if (wake) {
			int rc = enqueue(h, dsi_cstr(c, ds->meta.ns), dsi_cstr(c, ds->meta.name));
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

/* Apply one event to the snapshot (the snapshot's own all-or-nothing check). */
static int apply_one(hctx *h, const json_t *event, ds_error *err)
{
	char *text = dsi_json_dumps(event, JSON_COMPACT);
	if (!text)
		return dsi_error_nomem(err);
	int rc = dsi_cluster_apply_events(h->c->cluster, text, strlen(text), NULL, err);
	dsi_free(text);
	return rc;
}

static int handle(void *ctx, const dsi_loaded *it, ds_error *err)
{
	hctx *h = ctx;
	dsi_controller *c = h->c;
	const json_t *ev = it->obj;
	const char *type = json_string_value(json_object_get(ev, "type"));
	const json_t *obj = json_object_get(ev, "object");
	const char *kind = json_string_value(json_object_get(obj, "kind"));
	const json_t *meta = json_object_get(obj, "metadata");
	const char *ns = json_string_value(json_object_get(meta, "namespace"));
	const char *name = json_string_value(json_object_get(meta, "name"));
	int k = kind ? dsi_kind_from_name(kind) : -1;
	int t = type && strcmp(type, "DELETED") == 0 ? 'D' : 'A';
	int interesting =
		type && name && json_is_object(obj) &&
		(strcmp(type, "ADDED") == 0 || strcmp(type, "MODIFIED") == 0 || t == 'D') &&
		(k == DSI_KIND_POD || k == DSI_KIND_NODE || k == DSI_KIND_DAEMONSET || k == DSI_KIND_REVISION);
	if (!interesting) { /* BOOKMARK, ERROR, other kinds: the snapshot decides (and checks) */
		int rc = apply_one(h, ev, err);
		if (rc == 0)
			h->applied++;
		return rc;
	}
	if (!ns)
		ns = "";
	const dsi_cluster *cl = c->cluster;
	dsi_atom ns_atom = dsi_atom_lookup_id(&cl->atoms, ns);
	dsi_atom name_atom = dsi_atom_lookup_id(&cl->atoms, name);
	facts old, cur;
	memset(&old, 0, sizeof(old));
	memset(&cur, 0, sizeof(cur));
	dsi_verdict *before = NULL, *after = NULL;
	int rc = 0;
	const dsi_meta *om = NULL;
	if (name_atom && (!*ns || ns_atom)) {
		void *o = dsi_map_get(&cl->by_key[k], dsi_key2(k == DSI_KIND_NODE ? 0 : ns_atom, name_atom));
		if (o) {
			switch (k) {
			case DSI_KIND_POD: om = &((dsi_pod *)o)->meta; break;
			case DSI_KIND_NODE: om = &((dsi_node *)o)->meta; break;
			case DSI_KIND_DAEMONSET: om = &((dsi_daemonset *)o)->meta; break;
			default: om = &((dsi_revision *)o)->meta; break;
			}
			if (facts_from_meta(cl, om, &old) < 0)
				rc = dsi_error_nomem(err);
			if (k == DSI_KIND_POD)
				old.ready = ((dsi_pod *)o)->ready;
		}
	}
	if (rc == 0 && k == DSI_KIND_NODE && !(before = verdicts(h, name)))
		rc = dsi_error_nomem(err);
	if (rc == 0 && facts_from_json(obj, &cur) < 0)
		rc = dsi_error_nomem(err);
	if (rc == 0)
		rc = apply_one(h, ev, err);
	if (rc < 0)
		goto out;
	h->applied++;
	cl = c->cluster;
	/* the object as the snapshot now holds it (typed labels, for selectors) */
	const dsi_labels *cur_labels = NULL;
	if (t != 'D') {
		ns_atom = dsi_atom_lookup_id(&cl->atoms, ns);
		name_atom = dsi_atom_lookup_id(&cl->atoms, name);
		void *o = name_atom ? dsi_map_get(&cl->by_key[k], dsi_key2(k == DSI_KIND_NODE ? 0 : ns_atom, name_atom))
				    : NULL;
		if (o && k == DSI_KIND_POD)
			cur_labels = &((dsi_pod *)o)->meta.labels;
		else if (o && k == DSI_KIND_REVISION)
			cur_labels = &((dsi_revision *)o)->meta.labels;
	}
	switch (k) {
	case DSI_KIND_POD: rc = t == 'D' ? delete_pod(h, ns, &cur) : pod_event(h, ns, &old, &cur, cur_labels); break;
	case DSI_KIND_REVISION: rc = history_event(h, ns, t, &old, &cur, cur_labels); break;
	case DSI_KIND_DAEMONSET: {
		/* addDaemonset / updateDaemonset / deleteDaemonset: a deleted or recreated
		 * (new uid) DaemonSet starts with fresh expectations */
		if (t == 'D' || (old.present && strcmp(old.uid, cur.uid) != 0))
			dsi_exp_delete(state_of(h, ns, name));
		rc = enqueue(h, ns, name);
		break;
	}
	default:
		if (t == 'D')
			break;
		if (!(after = verdicts(h, name))) {
			rc = dsi_error_nomem(err);
			break;
		}
		rc = node_event(h, before, after, old.present);
		break;
	}
out:
	dsi_free(before);
	dsi_free(after);
	facts_release(&old);
	facts_release(&cur);
	return rc;
}

int dsi_ctrl_handle_event(dsi_controller *c, const json_t *event, ds_time now, ds_error *err)
{
	hctx h = {c, now, NULL, NULL, 0, err};
	dsi_loaded it = {(json_t *)event, "", NULL, NULL, 0, 0};
	return handle(&h, &it, err);
}

int dsi_ctrl_apply_events(dsi_controller *c, const char *data, size_t size, ds_time now, size_t *count, json_t **out,
			  ds_error *err)
{
	*out = NULL;
	hctx h = {c, now, json_array(), json_array(), 0, err};
	int rc = h.queued && h.queued_after ? 0 : dsi_error_nomem(err);
	if (rc == 0 && dsi_cluster_apply_quiet(c->cluster, data, size, NULL))
		h.applied = 1; /* a heartbeat (model/nodeevent.h): the node's verdicts stay, updateNode wakes nobody */
	else if (rc == 0)
		rc = dsi_load_text(data, size, &c->core.limits, handle, &h, err);
	if (count)
		*count = h.applied;
	if (rc == 0) {
		*out = json_pack("{s:I, s:O, s:O}", "applied", (json_int_t)h.applied, "queued", h.queued, "queuedAfter",
				 h.queued_after);
		if (!*out)
			rc = dsi_error_nomem(err);
	}
	json_decref(h.queued);
	json_decref(h.queued_after);
	return rc;
}
