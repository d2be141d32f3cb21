#include "daemon/status.h"

#include <string.h>

#include "core/alloc.h"
#include "daemon/history.h"

/* updateDaemonSetStatus (daemon_controller.go) */
void dsi_status_count(const dsi_status_input *in, dsi_ds_status *st)
{
	const dsi_cluster *c = in->c;
	const int32_t mrs = in->ds->min_ready_seconds;
	size_t nn = dsi_cluster_count(c, DSI_KIND_NODE);
	memset(st, 0, sizeof(*st));
	/* the claim pass noted what is asked here of each pod (dsi_ds_pods.state) */
	const dsi_ds_pods_when when = {in->key, mrs, in->now, in->k8s_minor};
	const uint8_t *state =
		dsi_ds_pods_state_for(in->pods, in->key, mrs, in->now, in->k8s_minor) ? in->pods->state : NULL;
	/* counts do not depend on the order: walk the per-node arrays by node index, without
	 * touching the nodes themselves */
	for (uint32_t idx = 0; idx < nn; idx++) {
		int scheduled = in->pods->count[idx] > 0;
		if (!in->verdict[idx].should_run) {
			st->number_misscheduled += scheduled;
			continue;
		}
		st->desired_number_scheduled++;
		if (!scheduled)
			continue;
		st->current_number_scheduled++;
		/* the oldest pod by podByCreationTimestampAndPhase, without sorting; a lone pod is not
		 * read when the claim pass noted its state */
		int32_t oldest = in->pods->first[idx];
		for (int32_t k = in->pods->next[oldest]; k >= 0; k = in->pods->next[k])
			if (dsi_pod_cmp_creation(&in->pods->v[k], &in->pods->v[oldest], (void *)c) < 0)
				oldest = k;
		uint8_t f = state ? state[oldest] : dsi_ds_pod_state(&when, in->pods->v[oldest]);
		st->number_ready += !!(f & DSI_DSP_READY);
		st->number_available += !!(f & DSI_DSP_AVAILABLE); /* available implies ready */
		st->updated_number_scheduled += !!(f & DSI_DSP_UPDATED);
	}
	st->number_unavailable = st->desired_number_scheduled - st->number_available;
	st->observed_generation = in->ds->meta.generation;
	st->collision_count = in->ds->status.collision_count;
	st->has_collision_count = in->ds->status.has_collision_count;
}

/* storeDaemonSetStatus (daemon_controller.go) */
int dsi_status_changed(const dsi_daemonset *ds, const dsi_ds_status *st)
{
	const dsi_ds_status *old = &ds->status;
	return !(old->desired_number_scheduled == st->desired_number_scheduled &&
		 old->current_number_scheduled == st->current_number_scheduled &&
		 old->number_misscheduled == st->number_misscheduled && old->number_ready == st->number_ready &&
		 old->updated_number_scheduled == st->updated_number_scheduled &&
		 old->number_available == st->number_available && old->number_unavailable == st->number_unavailable &&
		 old->observed_generation >= ds->meta.generation);
}

int dsi_status_compute(const dsi_cluster *c, const dsi_daemonset *ds, ds_time now, const dsi_daemon_cfg *o,
		       dsi_ds_status *out, ds_error *err)
{
	dsi_history h;
	int rc = dsi_history_construct(c, ds, o->daemon->revision_hash, 0, &h, err);
	if (rc < 0)
		return rc;
	dsi_placement p;
	dsi_ds_pods pods;
	size_t nn = dsi_cluster_count(c, DSI_KIND_NODE);
	dsi_verdict *v = dsi_malloc((nn ? nn : 1) * sizeof(*v));
	if (!v || dsi_placement_init(&p, c, ds, o->core) < 0) {
		dsi_free(v);
		dsi_history_release(&h);
		return dsi_error_nomem(err);
	}
	dsi_revision_key key;
	dsi_revision_key_init(c, ds, h.hash, &key);
	const dsi_ds_pods_when when = {&key, ds->min_ready_seconds, now, o->core->k8s_minor};
	if (dsi_ds_pods_collect_when(c, ds, 0, &when, &pods) < 0) {
		rc = dsi_error_nomem(err);
		goto out;
	}
	dsi_node_should_run_all(&p, v, NULL);
	dsi_status_input in = {c, ds, v, &pods, &key, now, o->core->k8s_minor};
	dsi_status_count(&in, out);
	dsi_ds_pods_release(&pods);
out:
	dsi_placement_release(&p);
	dsi_free(v);
	dsi_history_release(&h);
	return rc;
}
