#include "controller/sync.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "controller/errors.h"
#include "controller/expectations.h"
#include "controller/queue.h"
#include "core/alloc.h"

static json_t *status_json(const dsi_ds_status *st)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:I}", "desiredNumberScheduled",
			 st->desired_number_scheduled, "currentNumberScheduled", st->current_number_scheduled,
			 "numberMisscheduled", st->number_misscheduled, "numberReady", st->number_ready,
			 "updatedNumberScheduled", st->updated_number_scheduled, "numberAvailable",
			 st->number_available, "numberUnavailable", st->number_unavailable, "observedGeneration",
			 (json_int_t)st->observed_generation);
}

static int record_plan_events(dsi_sync *s, const dsi_plan *p)
{
	for (uint32_t i = 0; i < p->nevents; i++) {
		int rc = dsi_record_event(s, p->events[i].type, p->events[i].reason, p->events[i].message);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Wrap the aggregate of errs as "<prefix><aggregate>" into *error (first error wins). */
static int set_error(char **error, const char *prefix, const json_t *errs, ds_error *err)
{
	if (*error)
		return 0;
	char *agg = dsi_errs_message(errs);
	if (!agg)
		return dsi_error_nomem(err);
	size_t n = strlen(prefix) + strlen(agg) + 1;
	*error = dsi_malloc(n);
	if (*error)
		snprintf(*error, n, "%s%s", prefix, agg);
	dsi_free(agg);
	return *error ? 0 : dsi_error_nomem(err);
}

typedef struct outcome {
	int found, satisfied;
	const char *skipped;
	char *error;
	json_t *status; /* what was computed (written or not) */
	char hash[DSI_HASH_MAX + 8];
} outcome;

/* The full pass: manage (claim, syncNodes), rolling update (in the plan), cleanupHistory, status. */
static int full_pass(dsi_sync *s, dsi_plan *p, outcome *o)
{
	int rc;
	json_t *errs = json_array();
	if (!errs)
		return dsi_error_nomem(s->err);
	char prefix[700];
	/* getNodesToDaemonPods' claim comes before anything of manage */
	int claim = dsi_claim_pods(s, p, errs);
	if (claim < 0) {
		rc = claim;
		goto out;
	}
	if (claim) {
		snprintf(prefix, sizeof(prefix),
			 "couldn't get node to daemon pod mapping for daemon set \"%s\": ", s->name);
		rc = set_error(&o->error, prefix, errs, s->err);
		goto out; /* the status would need the same claim */
	}
	/* podsShouldBeOnNode's events, and the failed-pod backoff it moved on */
	if ((rc = record_plan_events(s, p)) < 0)
		goto out;
	dsi_backoff_free(&s->st->backoff);
	s->st->backoff = p->backoff;
	memset(&p->backoff, 0, sizeof(p->backoff));
	if ((rc = dsi_sync_nodes(s, p, errs)) < 0)
		goto out;
	if (rc) {
		if ((rc = set_error(&o->error, "", errs, s->err)) < 0)
			goto out;
	} else if (p->rolling_error) {
		if (!(o->error = dsi_strdup(p->rolling_error))) {
			rc = dsi_error_nomem(s->err);
			goto out;
		}
	} else {
		if ((rc = dsi_history_cleanup_execute(s, p, errs)) < 0)
			goto out;
		if (rc && (rc = set_error(&o->error, "failed to clean up revisions of DaemonSet: ", errs, s->err)) < 0)
			goto out;
	}
	json_array_clear(errs);
	if ((rc = dsi_store_status(s, &p->status, p->status_changed, 1, errs)) < 0)
		goto out;
	if (rc && (rc = set_error(&o->error, "", errs, s->err)) < 0) /* the manage error wins */
		goto out;
	rc = 0;
	if (p->requeue_ms >= 0)
		dsi_queue_add_after(s->st, s->now, p->requeue_ms);
out:
	json_decref(errs);
	return rc;
}

/* Expectations not yet satisfied: only the status, observedGeneration unchanged. */
static int status_pass(dsi_sync *s, dsi_plan *p, outcome *o)
{
	json_t *errs = json_array();
	if (!errs)
		return dsi_error_nomem(s->err);
	char prefix[700];
	int rc = dsi_claim_pods(s, p, errs);
	if (rc > 0) {
		snprintf(prefix, sizeof(prefix),
			 "couldn't get node to daemon pod mapping for daemon set \"%s\": ", s->name);
		rc = set_error(&o->error, prefix, errs, s->err);
	} else if (rc == 0) {
		dsi_ds_status st = p->status;
		st.observed_generation = s->ds->status.observed_generation;
		json_decref(o->status);
		o->status = status_json(&st);
		rc = dsi_store_status(s, &st, p->status_changed, 0, errs);
		if (rc > 0)
			rc = set_error(&o->error, "", errs, s->err);
	}
	json_decref(errs);
	if (rc < 0)
		return rc;
	const dsi_ds_status *st = &p->status;
	if (s->ds->min_ready_seconds > 0 && st->number_ready != st->number_available)
		dsi_queue_add_after(s->st, s->now, (int64_t)s->ds->min_ready_seconds * 1000);
	/* beyond upstream: wake up when the expectations expire, in case the watch lost the events */
	const int64_t timeout = s->c->ctrl.expectations_timeout_ms;
	dsi_queue_add_after(s->st, s->now, s->st->exp_time + timeout + 1 - s->now);
	return 0;
}

static json_t *result_doc(const dsi_sync *s, const outcome *o, const dsi_controller *c, const dsi_sync_report *r)
{
	json_t *doc = json_pack("{s:s, s:b}", "key", s->key, "found", o->found);
	if (!doc)
		return NULL;
	if (o->skipped)
		json_object_set_new(doc, "skipped", json_string(o->skipped));
	if (o->found && !o->skipped) {
		json_object_set_new(doc, "hash", json_string(o->hash));
		json_object_set_new(doc, "expectationsSatisfied", json_boolean(o->satisfied));
	}
	if (s->created) {
		json_object_set(doc, "created", s->created);
		json_object_set(doc, "deleted", s->deleted);
		json_object_set(doc, "events", s->events);
	}
	if (c->call_log)
		json_object_set(doc, "calls", c->call_log);
	if (o->status)
		json_object_set(doc, "status", o->status);
	json_object_set_new(doc, "statusWritten", json_boolean(r->status_written));
	json_object_set_new(doc, "failedCalls", json_integer(r->failed_calls));
	json_object_set_new(doc, "error", r->error ? json_string(r->error) : json_null());
	json_object_set_new(doc, "requeueAfterMs", json_integer(r->requeue_after_ms));
	return doc;
}

void dsi_sync_report_release(dsi_sync_report *r)
{
	dsi_free(r->error);
	memset(r, 0, sizeof(*r));
}

/* syncDaemonSet (daemon_controller.go) */
int dsi_ctrl_sync(dsi_controller *c, const char *ns, const char *name, ds_time now, dsi_sync_report *rep, json_t **out,
		  ds_error *err)
{
	memset(rep, 0, sizeof(*rep));
	if (out)
		*out = NULL;
	char *key = dsi_ctrl_key(ns, name);
	if (!key)
		return dsi_error_nomem(err);
	dsi_sync s;
	memset(&s, 0, sizeof(s));
	s.c = c;
	s.key = key;
	s.ns = ns;
	s.name = name;
	s.now = now;
	s.err = err;
	outcome o;
	memset(&o, 0, sizeof(o));
	dsi_plan plan;
	memset(&plan, 0, sizeof(plan));
	int have_plan = 0, rc = 0;
	dsi_dsstate *st = dsi_dstable_get(&c->table, key);
	if (st)
		dsi_queue_take(st, now);         /* taken off the queue: processing */
	c->call_log = out ? json_array() : NULL; /* the calls are only reported in the document */
	c->failed_calls = 0;
	const dsi_daemonset *ds = dsi_cluster_daemonset(c->cluster, ns, name);
	if (out && !c->call_log) {
		rc = dsi_error_nomem(err);
		goto done;
	}
	if (!ds) { /* gone: forget its expectations */
		if (st) {
			dsi_exp_delete(st);
			dsi_queue_forget(st);
			dsi_backoff_free(&st->backoff);
			dsi_backoff_init(&st->backoff);
			dsi_dstable_gc(&c->table, st);
			st = NULL;
		}
		goto done;
	}
	o.found = 1;
	if (!(st = dsi_dstable_ensure(&c->table, key)) || !(s.events = json_array()) || !(s.created = json_array()) ||
	    !(s.deleted = json_array())) {
		rc = dsi_error_nomem(err);
		goto done;
	}
	s.st = st;
	s.ds = ds;
	s.uid = dsi_cstr(c->cluster, ds->meta.uid);
	ds_error perr;
	dsi_error_clear(&perr);
	rc = dsi_plan_sync(c->cluster, ds, now, &c->sync_cfg, &st->backoff, &plan, &perr);
	if (rc == DS_ENOMEM) {
		*err = perr;
		goto done;
	}
	if (rc < 0) { /* a DaemonSet the planner refuses: an error of this sync, retried with backoff */
		rc = 0;
		char msg[DS_ERROR_PATH_MAX + DS_ERROR_MESSAGE_MAX + 8];
		snprintf(msg, sizeof(msg), "%s%s%s", perr.path, perr.path[0] ? ": " : "", perr.message);
		if (!(o.error = dsi_strdup(msg)))
			rc = dsi_error_nomem(err);
		goto done;
	}
	have_plan = 1;
	snprintf(o.hash, sizeof(o.hash), "%s", plan.hash);
	if (plan.skipped) {
		o.skipped = dsi_plan_skip_name(plan.skipped);
		if (plan.skipped == DSI_SKIP_SELECTING_ALL)
			rc = record_plan_events(&s, &plan);
		goto done;
	}
	o.status = status_json(&plan.status);
	json_t *errs = json_array();
	if (!errs) {
		rc = dsi_error_nomem(err);
		goto done;
	}
	rc = dsi_history_execute(&s, &plan, errs);
	if (rc > 0)
		rc = set_error(&o.error, "failed to construct revisions of DaemonSet: ", errs, err);
	json_decref(errs);
	if (rc < 0 || o.error)
		goto done;
	o.satisfied = dsi_exp_satisfied(st, now, c->ctrl.expectations_timeout_ms);
	rc = o.satisfied ? full_pass(&s, &plan, &o) : status_pass(&s, &plan, &o);
done:
	if (rc == 0 && st) {
		if (o.error)
			dsi_queue_add_rate_limited(st, now, c->retry_base_ms, c->retry_max_ms);
		else
			dsi_queue_forget(st);
	}
	if (rc == 0) {
		rep->found = o.found;
		rep->satisfied = o.satisfied;
		rep->creates = s.creates;
		rep->deletes = s.deletes;
		rep->failed_calls = c->failed_calls;
		rep->status_written = s.status_written;
		ds_time due = st ? dsi_queue_due(st) : -1;
		rep->requeue_after_ms = due < 0 ? -1 : due > now ? due - now : 0;
		rep->error = o.error; /* handed over */
		o.error = NULL;
	}
	json_t *doc = rc == 0 && out ? result_doc(&s, &o, c, rep) : NULL;
	if (rc == 0 && out && !doc) {
		rc = dsi_error_nomem(err);
		dsi_sync_report_release(rep);
	}
	if (out)
		*out = doc;
	if (have_plan)
		dsi_plan_release(&plan);
	json_decref(o.status);
	dsi_free(o.error);
	json_decref(s.events);
	json_decref(s.created);
	json_decref(s.deleted);
	json_decref(c->call_log);
	c->call_log = NULL;
	dsi_free(key);
	return rc;
}
