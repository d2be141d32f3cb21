/* Public wrappers of the sync planner (include/daemonset/plan.h). */
#include <stddef.h>
#include <string.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "api/args.h"
#include "api/lookup.h"
#include "core/sized.h"
#include "core/alloc.h"
#include "core/jsonout.h"
#include "daemon/syncplan.h"
#include "daemon/simulate.h"
#include "daemon/status.h"

struct ds_plan {
	dsi_plan p;
};

int ds_daemonset_plan(const ds_cluster *cluster, const char *namespace_, const char *name, ds_time now,
		      const ds_options *opts, const char *backoff, size_t backoff_size, ds_plan **out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	const dsi_daemon_cfg dcfg = dsi_o_daemon_cfg(opts);
	DSI_ARGS_NONNULL(err, out);
	*out = NULL;
	const dsi_daemonset *ds;
	int rc = dsi_api_find_ds(cluster, namespace_, name, &ds, err);
	if (rc < 0)
		return rc;
	dsi_backoff b;
	if ((rc = dsi_backoff_read(backoff, backoff_size, &b, err)) < 0)
		return rc;
	ds_plan *p = dsi_calloc(1, sizeof(*p));
	if (!p) {
		dsi_backoff_free(&b);
		return dsi_error_nomem(err);
	}
	rc = dsi_plan_sync(cluster, ds, now, &dcfg, &b, &p->p, err);
	dsi_backoff_free(&b);
	if (rc < 0) {
		dsi_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

void ds_plan_free(ds_plan *plan)
{
	if (!plan)
		return;
	dsi_plan_release(&plan->p);
	dsi_free(plan);
}

int ds_plan_to_json(const ds_plan *plan, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, plan, json_out);
	return dsi_json_emit(dsi_plan_to_json(&plan->p), json_out, err);
}

static uint32_t executed(uint32_t n, uint32_t burst) { return n < burst ? n : burst; }

size_t ds_plan_create_count(const ds_plan *plan) { return plan ? executed(plan->p.ncreates, plan->p.burst) : 0; }

size_t ds_plan_delete_count(const ds_plan *plan) { return plan ? executed(plan->p.ndeletes, plan->p.burst) : 0; }

/* Which slow-start batch create i falls in (batches of s, 2s, 4s, ...). */
static size_t batch_of(size_t i, size_t start)
{
	size_t b = 0, end = start ? start : 1, size = end;
	while (i >= end) {
		size *= 2;
		end += size;
		b++;
	}
	return b;
}

/* The caller's struct may be older (smaller) than ours: fill only what it has room for. */

int ds_plan_create_at(const ds_plan *plan, size_t i, ds_plan_create *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, plan);
	DSI_ARG_SIZED(err, out, ds_plan_create, node);
	if (i >= ds_plan_create_count(plan))
		return dsi_error_set(err, DS_EARG, NULL, "create %zu out of range (%zu)", i,
				     ds_plan_create_count(plan));
	const dsi_plan_create *c = &plan->p.creates[i];
	out->node = c->node;
	if (DSI_SIZE_COVERS(out, ds_plan_create, reason))
		out->reason = dsi_create_reason_name(c->reason);
	if (DSI_SIZE_COVERS(out, ds_plan_create, batch))
		out->batch = batch_of(i, plan->p.slow_start);
	return 0;
}

int ds_plan_create_pod(const ds_plan *plan, size_t i, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, plan, json_out);
	if (i >= ds_plan_create_count(plan))
		return dsi_error_set(err, DS_EARG, NULL, "create %zu out of range (%zu)", i,
				     ds_plan_create_count(plan));
	return dsi_json_emit_shared(plan->p.creates[i].pod, json_out, err); /* a plan may be read by several threads */
}

int ds_plan_delete_at(const ds_plan *plan, size_t i, ds_plan_delete *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, plan);
	DSI_ARG_SIZED(err, out, ds_plan_delete, node);
	if (i >= ds_plan_delete_count(plan))
		return dsi_error_set(err, DS_EARG, NULL, "delete %zu out of range (%zu)", i,
				     ds_plan_delete_count(plan));
	const dsi_plan_delete *d = &plan->p.deletes[i];
	out->namespace_ = d->ns;
	out->name = d->name;
	out->uid = d->uid;
	out->node = d->node;
	if (DSI_SIZE_COVERS(out, ds_plan_delete, reason))
		out->reason = dsi_delete_reason_name(d->reason);
	return 0;
}

size_t ds_plan_event_count(const ds_plan *plan) { return plan ? plan->p.nevents : 0; }

int ds_plan_event_at(const ds_plan *plan, size_t i, ds_plan_event *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	/* all three strings were there from the start: the smallest size covers them */
	DSI_ARGS_NONNULL(err, plan);
	DSI_ARG_SIZED(err, out, ds_plan_event, message);
	if (i >= ds_plan_event_count(plan))
		return dsi_error_set(err, DS_EARG, NULL, "event %zu out of range (%zu)", i, ds_plan_event_count(plan));
	/* the plan's events never change once made: the strings live as long as the plan */
	const dsi_plan_event *e = &plan->p.events[i];
	out->type = e->type;
	out->reason = e->reason;
	out->message = e->message;
	return 0;
}

static void fill_status(const dsi_ds_status *st, ds_status *out)
{
	out->desired_number_scheduled = st->desired_number_scheduled;
	out->current_number_scheduled = st->current_number_scheduled;
	out->number_misscheduled = st->number_misscheduled;
	out->number_ready = st->number_ready;
	out->updated_number_scheduled = st->updated_number_scheduled;
	out->number_available = st->number_available;
	out->number_unavailable = st->number_unavailable;
	out->observed_generation = st->observed_generation;
	if (DSI_SIZE_COVERS(out, ds_status, collision_count))
		out->collision_count = st->has_collision_count ? st->collision_count : -1;
}

int ds_plan_status(const ds_plan *plan, ds_status *out, int *changed, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, plan);
	DSI_ARG_SIZED(err, out, ds_status, observed_generation);
	fill_status(&plan->p.status, out);
	if (changed)
		*changed = plan->p.status_changed;
	return 0;
}

int64_t ds_plan_requeue_after(const ds_plan *plan) { return plan ? plan->p.requeue_ms : -1; }

int ds_plan_backoff(const ds_plan *plan, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, plan, json_out);
	return dsi_json_emit(dsi_backoff_to_json(&plan->p.backoff), json_out, err);
}

int ds_daemonset_status(const ds_cluster *cluster, const char *namespace_, const char *name, ds_time now,
			const ds_options *opts, ds_status *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	const dsi_daemon_cfg dcfg = dsi_o_daemon_cfg(opts);
	DSI_ARG_SIZED(err, out, ds_status, observed_generation);
	const dsi_daemonset *ds;
	int rc = dsi_api_find_ds(cluster, namespace_, name, &ds, err);
	if (rc < 0)
		return rc;
	dsi_ds_status st;
	if ((rc = dsi_status_compute(cluster, ds, now, &dcfg, &st, err)) < 0)
		return rc;
	fill_status(&st, out);
	return 0;
}

int ds_daemonset_rollout(const ds_cluster *cluster, const char *namespace_, const char *name, ds_time start,
			 const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	const dsi_daemon_cfg dcfg = dsi_o_daemon_cfg(opts);
	const dsi_daemonset *ds;
	int rc = dsi_api_find_ds_json(cluster, namespace_, name, json_out, &ds, err);
	if (rc < 0)
		return rc;
	json_t *out;
	if ((rc = dsi_simulate(cluster, ds, start, &dcfg, &out, err)) < 0)
		return rc;
	return dsi_json_emit(out, json_out, err);
}
