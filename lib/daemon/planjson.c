/* A plan as JSON (ds_daemonset_plan(3) lists every key), and the patches that adopt and release pods. The
 * plan may be read by several threads at once: what it holds is copied, never referenced. */
#include "core/time.h"
#include "daemon/syncplan.h"

static json_t *status_json(const dsi_ds_status *st)
{
	json_t *o = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:I}", "desiredNumberScheduled",
			      st->desired_number_scheduled, "currentNumberScheduled", st->current_number_scheduled,
			      "numberMisscheduled", st->number_misscheduled, "numberReady", st->number_ready,
			      "updatedNumberScheduled", st->updated_number_scheduled, "numberAvailable",
			      st->number_available, "numberUnavailable", st->number_unavailable, "observedGeneration",
			      (json_int_t)st->observed_generation);
	if (o && st->has_collision_count)
		json_object_set_new(o, "collisionCount", json_integer(st->collision_count));
	return o;
}

json_t *dsi_plan_owner_ref(const dsi_plan *p)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:b, s:b}", "apiVersion", p->owner_api, "kind", "DaemonSet", "name",
			 p->name, "uid", p->uid, "controller", 1, "blockOwnerDeletion", 1);
}

json_t *dsi_plan_adopt_patch(const dsi_plan *p, const char *uid)
{
	return json_pack("{s:{s:[o], s:s}}", "metadata", "ownerReferences", dsi_plan_owner_ref(p), "uid", uid);
}

json_t *dsi_plan_release_patch(const dsi_plan *p, const char *uid)
{
	return json_pack("{s:{s:[{s:s, s:s}], s:s}}", "metadata", "ownerReferences", "$patch", "delete", "uid", p->uid,
			 "uid", uid);
}

static json_t *events_json(const dsi_plan *p)
{
	json_t *a = json_array();
	for (uint32_t i = 0; a && i < p->nevents; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "type", p->events[i].type, "reason",
						   p->events[i].reason, "message", p->events[i].message));
	return a;
}

static json_t *claims_json(const dsi_plan *p, const dsi_plan_claim *v, uint32_t n,
			   json_t *(*patch)(const dsi_plan *, const char *))
{
	json_t *a = json_array();
	for (uint32_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:o}", "namespace", v[i].ns, "name", v[i].name, "patch",
						   patch(p, v[i].uid)));
	return a;
}

static json_t *names_json(const dsi_plan_names *l)
{
	json_t *a = json_array();
	for (uint32_t i = 0; a && i < l->n; i++)
		json_array_append_new(a, json_string(l->v[i]));
	return a;
}

/* {"hash","revision","current","create"|"bumpRevision","deleteDuplicates","relabelPods","adopt","release","delete"} */
static json_t *history_json(const dsi_plan_history *h)
{
	json_t *o = json_pack("{s:s, s:I, s:s}", "hash", h->hash, "revision", (json_int_t)h->revision, "current",
			      h->current);
	if (!o)
		return NULL;
	if (h->create) /* copies: the plan may be read by several threads, and its values' counts are not atomic */
		json_object_set_new(o, "create", json_deep_copy(h->create));
	if (h->bump)
		json_object_set_new(o, "bumpRevision",
				    json_pack("{s:s, s:I}", "name", h->current, "revision", (json_int_t)h->revision));
	if (h->delete_duplicates.n) {
		json_object_set_new(o, "deleteDuplicates", names_json(&h->delete_duplicates));
		json_object_set_new(o, "relabelPods", names_json(&h->relabel_pods));
	}
	if (h->adopt.n)
		json_object_set_new(o, "adopt", names_json(&h->adopt));
	if (h->release.n)
		json_object_set_new(o, "release", names_json(&h->release));
	if (h->remove.n)
		json_object_set_new(o, "delete", names_json(&h->remove));
	return o;
}

json_t *dsi_plan_to_json(const dsi_plan *p)
{
	char now[40];
	dsi_time_format(p->now, now, sizeof(now));
	json_t *doc = json_pack("{s:{s:s, s:s, s:s}, s:s}", "daemonSet", "namespace", p->ns, "name", p->name, "uid",
				p->uid, "now", now);
	if (!doc)
		return NULL;
	if (p->skipped) {
		json_object_set_new(doc, "skipped", json_string(dsi_plan_skip_name(p->skipped)));
		json_object_set_new(doc, "events", events_json(p));
		return doc;
	}
	json_object_set_new(doc, "hash", json_string(p->hash));
	if (p->warning)
		json_object_set_new(doc, "warnings", json_pack("[s]", p->warning));
	uint32_t nc = p->ncreates < p->burst ? p->ncreates : p->burst;
	uint32_t nd = p->ndeletes < p->burst ? p->ndeletes : p->burst;
	json_t *creates = json_array(), *deletes = json_array(), *batches = json_array();
	for (uint32_t i = 0; creates && i < nc; i++) {
		json_t *c = json_pack("{s:s, s:s}", "node", p->creates[i].node, "reason",
				      dsi_create_reason_name(p->creates[i].reason));
		/* no pod in a plan of decisions only (DSI_SYNC_DECISIONS_ONLY) */
		if (c && p->creates[i].pod)
			json_object_set_new(c, "pod", json_deep_copy(p->creates[i].pod));
		json_array_append_new(creates, c);
	}
	for (uint32_t i = 0; deletes && i < nd; i++) {
		const dsi_plan_delete *d = &p->deletes[i];
		json_array_append_new(deletes,
				      json_pack("{s:s, s:s, s:s, s:s, s:s}", "namespace", d->ns, "name", d->name, "uid",
						d->uid, "node", d->node, "reason", dsi_delete_reason_name(d->reason)));
	}
	/* syncNodes: slow-start batches 1, 2, 4, ... */
	uint32_t batch = p->slow_start < nc ? p->slow_start : nc;
	for (uint32_t pos = 0; pos < nc && batches;) {
		json_array_append_new(batches, json_integer(batch));
		pos += batch;
		uint32_t next = 2 * batch, left = nc - pos;
		batch = next < left ? next : left;
	}
	json_object_set_new(doc, "creates", creates);
	json_object_set_new(doc, "createBatches", batches);
	json_object_set_new(doc, "deletes", deletes);
	if (p->ncreates > nc || p->ndeletes > nd)
		json_object_set_new(doc, "deferred",
				    json_pack("{s:i, s:i}", "creates", (int)(p->ncreates - nc), "deletes",
					      (int)(p->ndeletes - nd)));
	if (p->nadopt)
		json_object_set_new(doc, "adoptPods", claims_json(p, p->adopt, p->nadopt, dsi_plan_adopt_patch));
	if (p->nrelease)
		json_object_set_new(doc, "releasePods",
				    claims_json(p, p->release, p->nrelease, dsi_plan_release_patch));
	if (p->history.present)
		json_object_set_new(doc, "history", history_json(&p->history));
	json_t *ru = json_pack("{s:b}", "ran", p->rolling_ran);
	if (ru && p->rolling_ran) {
		json_object_set_new(ru, "maxUnavailable", json_integer(p->max_unavailable));
		json_object_set_new(ru, "maxSurge", json_integer(p->max_surge));
		json_object_set_new(ru, "desired", json_integer(p->desired_for_update));
		if (p->max_surge)
			json_object_set_new(ru, "surging", json_integer(p->num_surge));
		else
			json_object_set_new(ru, "unavailable", json_integer(p->num_unavailable));
	}
	if (ru && p->rolling_paused)
		json_object_set_new(ru, "paused", json_true());
	if (ru && p->partition >= 0)
		json_object_set_new(ru, "partition", json_integer(p->partition));
	if (ru && p->allowed_nodes >= 0)
		json_object_set_new(ru, "nodesAllowedToUpdate", json_integer(p->allowed_nodes));
	if (ru && p->rolling_error)
		json_object_set_new(ru, "error", json_string(p->rolling_error));
	json_object_set_new(doc, "rollingUpdate", ru);
	json_object_set_new(doc, "status", status_json(&p->status));
	json_object_set_new(doc, "statusChanged", json_boolean(p->status_changed));
	if (p->requeue_ms >= 0) {
		json_object_set_new(doc, "requeueAfterMs", json_integer(p->requeue_ms));
		json_object_set_new(doc, "requeueBy", json_string(p->requeue_cause));
	}
	json_object_set_new(doc, "events", events_json(p));
	json_object_set_new(doc, "backoff", dsi_backoff_to_json(&p->backoff));
	return doc;
}
