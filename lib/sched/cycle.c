/* The CycleState of the cluster-wide filters (kube-scheduler framework cycle_state.go). */
#include "sched/cycle.h"

#include <string.h>

int dsi_cycle_init(dsi_cycle *cy, const dsi_cluster *c, const dsi_sched_pod *pod, dsi_pod_filter skip, void *ctx)
{
	memset(cy, 0, sizeof(*cy));
	cy->pod = *pod;
	if (dsi_pts_prefilter(c, &cy->pod, skip, ctx, &cy->pts) < 0)
		return -1;
	if (dsi_ipa_prefilter(c, &cy->pod, skip, ctx, &cy->ipa) < 0) {
		dsi_pts_release(&cy->pts);
		return -1;
	}
	if (dsi_vr_prefilter(c, &cy->pod, skip, ctx, &cy->vr) < 0) {
		dsi_pts_release(&cy->pts);
		dsi_ipa_release(&cy->ipa);
		return -1;
	}
	dsi_nvl_prefilter(c, &cy->pod, &cy->nvl);
	if (dsi_vz_prefilter(c, &cy->pod, &cy->vz) < 0) {
		dsi_vr_release(&cy->vr);
		dsi_ipa_release(&cy->ipa);
		dsi_pts_release(&cy->pts);
		return -1;
	}
	if (dsi_dra_prefilter(c, &cy->pod, &cy->dra) < 0) {
		dsi_dra_release(&cy->dra);
		dsi_vz_release(&cy->vz);
		dsi_vr_release(&cy->vr);
		dsi_ipa_release(&cy->ipa);
		dsi_pts_release(&cy->pts);
		return -1;
	}
	return 0;
}

int dsi_cycle_clone(const dsi_cycle *src, dsi_cycle *dst)
{
	memset(dst, 0, sizeof(*dst));
	dst->pod = src->pod;
	if (dsi_pts_clone(&src->pts, &dst->pts) < 0)
		return -1;
	if (dsi_ipa_clone(&src->ipa, &dst->ipa) < 0) {
		dsi_pts_release(&dst->pts);
		return -1;
	}
	if (dsi_vr_clone(&src->vr, &dst->vr) < 0) {
		dsi_pts_release(&dst->pts);
		dsi_ipa_release(&dst->ipa);
		return -1;
	}
	dst->nvl = src->nvl;
	if (dsi_vz_clone(&src->vz, &dst->vz) < 0) {
		dsi_pts_release(&dst->pts);
		dsi_ipa_release(&dst->ipa);
		dsi_vr_release(&dst->vr);
		return -1;
	}
	dsi_dra_clone(&src->dra, &dst->dra);
	dst->pts.pod = &dst->pod;
	dst->ipa.pod = &dst->pod;
	return 0;
}

int dsi_cycle_update(dsi_cycle *cy, const dsi_cluster *c, const dsi_pod *p, const dsi_node *node, int sign)
{
	if (dsi_pts_update(&cy->pts, c, p, node, sign) < 0)
		return -1;
	dsi_vr_update(&cy->vr, c, p, sign);
	return dsi_ipa_update(&cy->ipa, c, p, node, sign);
}

void dsi_cycle_release(dsi_cycle *cy)
{
	dsi_pts_release(&cy->pts);
	dsi_ipa_release(&cy->ipa);
	dsi_vr_release(&cy->vr);
	dsi_vz_release(&cy->vz);
	dsi_dra_release(&cy->dra);
	memset(cy, 0, sizeof(*cy));
}
