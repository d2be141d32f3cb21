#include <stdio.h>
#include <string.h>

#include "controller/errors.h"
#include "controller/sync.h"
#include "controller/transport.h"
#include "core/alloc.h"

static const dsi_revision *find_revision(const dsi_sync *s, const char *name)
{
	const dsi_cluster *c = s->c->cluster;
	dsi_atom a = dsi_atom_lookup_id(&c->atoms, name);
	return a ? dsi_map_get(&c->by_key[DSI_KIND_REVISION], dsi_key2(s->ds->meta.ns, a)) : NULL;
}

/* One API call whose failure is an error of the step; NotFound may be allowed. */
static int step_call_result(dsi_sync *s, dsi_call *call, int allow_not_found, json_t *errs)
{
	int ok = call->result == DS_TRANSPORT_OK || (allow_not_found && call->result == DS_TRANSPORT_NOT_FOUND);
	int rc = 0;
	if (!ok)
		rc = dsi_errs_add(errs, "%s", call->message) < 0 ? dsi_error_nomem(s->err) : 1;
	dsi_call_release(call);
	return rc;
}

/* ControllerRevisionControllerRefManager.AdoptControllerRevision / ReleaseControllerRevision
 * (controller_ref_manager.go) for the names constructHistory's claim chose. */
static int claim_revisions(dsi_sync *s, const dsi_plan *p, json_t *errs)
{
	int failed = 0, can_adopt = -1;
	char *why = NULL;
	for (int pass = 0; pass < 2; pass++) {
		const dsi_plan_names *list = pass == 0 ? &p->history.adopt : &p->history.release;
		for (uint32_t i = 0; i < list->n; i++) {
			const char *name = list->v[i];
			const dsi_revision *r = find_revision(s, name);
			if (!r)
				continue;
			const char *ruid = dsi_cstr(s->c->cluster, r->meta.uid);
			if (pass == 0 && can_adopt < 0) {
				int rc = dsi_can_adopt(s, &why);
				if (rc < 0) {
					dsi_free(why);
					return rc;
				}
				can_adopt = rc == 0;
			}
			if (pass == 0 && !can_adopt) {
				failed = 1;
				if (dsi_errs_add(errs, "can't adopt ControllerRevision %s/%s (%s): %s", s->ns, name,
						 ruid, why) < 0) {
					dsi_free(why);
					return dsi_error_nomem(s->err);
				}
				continue;
			}
			json_t *patch = pass == 0 ? dsi_plan_adopt_patch(p, ruid) : dsi_plan_release_patch(p, ruid);
			dsi_call call;
			int rc = patch ? dsi_tp_patch(s->c, "controllerrevisions", s->ns, name, DS_PATCH_STRATEGIC,
						      patch, &call, s->err)
				       : dsi_error_nomem(s->err);
			json_decref(patch);
			if (rc < 0) {
				dsi_free(why);
				return rc;
			}
			if (pass == 1 && call.result == DS_TRANSPORT_INVALID)
				call.result = DS_TRANSPORT_OK; /* ReleaseControllerRevision ignores 422 */
			rc = step_call_result(s, &call, 1, errs);
			if (rc < 0) {
				dsi_free(why);
				return rc;
			}
			failed |= rc;
		}
	}
	dsi_free(why);
	return failed;
}

/* constructHistory: a claimed revision without the hash label gets its own name as the label. */
static int label_unlabelled(dsi_sync *s, json_t *errs)
{
	const dsi_cluster *c = s->c->cluster;
	const dsi_daemonset *ds = s->ds;
	size_t n = dsi_cluster_count(c, DSI_KIND_REVISION);
	for (size_t i = 0; i < n; i++) {
		const dsi_revision *r = c->objs[DSI_KIND_REVISION].v[i];
		if (r->meta.ns != ds->meta.ns || dsi_labels_get(&r->meta.labels, c->k_hash_label))
			continue;
		int matches = dsi_selector_matches(&c->atoms, &ds->selector, &r->meta.labels);
		int ours = ds->meta.uid && r->meta.controller.uid == ds->meta.uid;
		if (!matches || (!ours && (r->meta.controller.uid || r->meta.has_deletion)))
			continue;
		const char *name = dsi_cstr(c, r->meta.name);
		json_t *patch = json_pack("{s:{s:{s:s}}}", "metadata", "labels", "controller-revision-hash", name);
		dsi_call call;
		int rc = patch ? dsi_tp_patch(s->c, "controllerrevisions", s->ns, name, DS_PATCH_MERGE, patch, &call,
					      s->err)
			       : dsi_error_nomem(s->err);
		json_decref(patch);
		if (rc < 0)
			return rc;
		if ((rc = step_call_result(s, &call, 0, errs)) != 0)
			return rc;
	}
	return 0;
}

/* snapshot (update.go): create the revision; on AlreadyExists, an identical one is ours,
 * otherwise bump status.collisionCount so the next sync hashes differently. */
static int create_revision(dsi_sync *s, const json_t *create, json_t *errs)
{
	const char *name = json_string_value(json_object_get(json_object_get(create, "metadata"), "name"));
	dsi_call call;
	int rc = dsi_tp_create(s->c, "controllerrevisions", s->ns, create, &call, s->err);
	if (rc < 0)
		return rc;
	if (call.result != DS_TRANSPORT_ALREADY_EXISTS)
		return step_call_result(s, &call, 0, errs);
	char *outer = call.message;
	call.message = NULL;
	dsi_call_release(&call);
	dsi_call got;
	if ((rc = dsi_tp_get(s->c, "controllerrevisions", s->ns, name ? name : "", &got, s->err)) < 0)
		goto out;
	if (got.result != DS_TRANSPORT_OK) {
		rc = step_call_result(s, &got, 0, errs);
		goto out;
	}
	int same = json_equal(json_object_get(got.body, "data"), json_object_get(create, "data"));
	dsi_call_release(&got);
	if (same) { /* we created it before (a lost reply, or the cache is behind) */
		rc = 0;
		goto out;
	}
	dsi_call cur;
	if ((rc = dsi_tp_get(s->c, "daemonsets", s->ns, s->name, &cur, s->err)) < 0)
		goto out;
	if (cur.result != DS_TRANSPORT_OK) {
		rc = step_call_result(s, &cur, 0, errs);
		goto out;
	}
	json_t *status = json_object_get(cur.body, "status");
	json_t *cc = json_object_get(status, "collisionCount");
	const dsi_ds_status *cached = &s->ds->status;
	int fresh_has = json_is_integer(cc);
	json_int_t fresh = fresh_has ? json_integer_value(cc) : 0;
	if (fresh_has != cached->has_collision_count || (fresh_has && fresh != cached->collision_count)) {
		rc = dsi_errs_add(
			     errs,
			     "found a stale collision count (%d, expected %lld) of DaemonSet \"%s\" while processing; "
			     "will retry until it is updated",
			     cached->has_collision_count ? cached->collision_count : 0, (long long)fresh, s->name) < 0
			     ? dsi_error_nomem(s->err)
			     : 1;
		dsi_call_release(&cur);
		goto out;
	}
	if (!json_is_object(status)) {
		status = json_object();
		json_object_set_new(cur.body, "status", status);
	}
	json_object_set_new(status, "collisionCount", json_integer(fresh + 1));
	dsi_call upd;
	rc = dsi_tp_update_status(s->c, "daemonsets", s->ns, s->name, cur.body, &upd, s->err);
	dsi_call_release(&cur);
	if (rc < 0)
		goto out;
	if (upd.result != DS_TRANSPORT_OK) {
		rc = step_call_result(s, &upd, 0, errs);
		goto out;
	}
	dsi_call_release(&upd);
	/* the create's AlreadyExists is the error of this sync: the next one uses the new count */
	rc = dsi_errs_add(errs, "%s", outer) < 0 ? dsi_error_nomem(s->err) : 1;
out:
	dsi_free(outer);
	return rc;
}

/* Deletes the named revisions (with their uid as precondition; one gone already is skipped); the first
 * delete that fails ends the list, as in dedupCurHistories and cleanupHistory. */
static int delete_revisions(dsi_sync *s, const dsi_plan_names *names, json_t *errs)
{
	for (uint32_t i = 0; i < names->n; i++) {
		const char *name = names->v[i];
		const dsi_revision *r = find_revision(s, name);
		if (!r)
			continue;
		dsi_call call;
		int rc = dsi_tp_remove(s->c, "controllerrevisions", s->ns, name, dsi_cstr(s->c->cluster, r->meta.uid),
				       &call, s->err);
		if (rc < 0)
			return rc;
		if ((rc = step_call_result(s, &call, 0, errs)) != 0)
			return rc;
	}
	return 0;
}

/* dedupCurHistories (update.go): relabel pods to the kept hash, then delete the duplicates. */
static int dedup(dsi_sync *s, const dsi_plan_history *h, json_t *errs)
{
	for (uint32_t i = 0; i < h->relabel_pods.n; i++) {
		const char *pod = h->relabel_pods.v[i];
		json_t *patch = json_pack("{s:{s:{s:s}}}", "metadata", "labels", "controller-revision-hash", h->hash);
		dsi_call call;
		int rc = patch && pod ? dsi_tp_patch(s->c, "pods", s->ns, pod, DS_PATCH_MERGE, patch, &call, s->err)
				      : dsi_error_nomem(s->err);
		json_decref(patch);
		if (rc < 0)
			return rc;
		if ((rc = step_call_result(s, &call, 0, errs)) != 0)
			return rc;
	}
	return delete_revisions(s, &h->delete_duplicates, errs);
}

/* constructHistory (update.go) */
int dsi_history_execute(dsi_sync *s, const dsi_plan *p, json_t *errs)
{
	const dsi_plan_history *h = &p->history;
	if (!h->present)
		return 0;
	int rc = claim_revisions(s, p, errs);
	if (rc != 0)
		return rc;
	if ((rc = label_unlabelled(s, errs)) != 0)
		return rc;
	if (h->create)
		return create_revision(s, h->create, errs);
	if ((rc = dedup(s, h, errs)) != 0)
		return rc;
	if (h->bump) { /* upstream updates the whole object; a merge patch of .revision does the same */
		json_t *patch = json_pack("{s:I}", "revision", (json_int_t)h->revision);
		dsi_call call;
		rc = patch ? dsi_tp_patch(s->c, "controllerrevisions", s->ns, h->current, DS_PATCH_MERGE, patch, &call,
					  s->err)
			   : dsi_error_nomem(s->err);
		json_decref(patch);
		if (rc < 0)
			return rc;
		return step_call_result(s, &call, 0, errs);
	}
	return 0;
}

/* cleanupHistory (update.go): each delete that fails ends the cleanup. */
int dsi_history_cleanup_execute(dsi_sync *s, const dsi_plan *p, json_t *errs)
{
	return delete_revisions(s, &p->history.remove, errs);
}
