/* VolumeRestrictions' disk conflicts (kube-scheduler pkg/scheduler/framework/plugins/
 * volumerestrictions/volume_restrictions.go). */
#include "sched/volumerestrictions.h"

/* haveOverlap (volume_restrictions.go): a common element */
static int have_overlap(const dsi_atom *a, uint32_t na, const dsi_atom *b, uint32_t nb)
{
	for (uint32_t i = 0; i < na; i++)
		for (uint32_t k = 0; k < nb; k++)
			if (a[i] == b[k])
				return 1;
	return 0;
}

/* isVolumeConflict (volume_restrictions.go) */
int dsi_disk_conflict(const dsi_disk *want, const dsi_disk *have)
{
	if (want->kind != have->kind)
		return 0;
	int both_ro = want->read_only && have->read_only;
	switch (want->kind) {
	case DSI_DISK_GCE: /* the same PD conflicts unless every mount is read-only */
		return want->id == have->id && !both_ro;
	case DSI_DISK_AWS: /* the same EBS volume always conflicts */ return want->id == have->id;
	case DSI_DISK_ISCSI: /* the same IQN, unless both read-only */ return want->id == have->id && !both_ro;
	case DSI_DISK_RBD: /* a shared monitor, the same pool and image, unless both read-only */
		return have_overlap(want->monitors, want->nmonitors, have->monitors, have->nmonitors) &&
		       want->pool == have->pool && want->id == have->id && !both_ro;
	default: return 0;
	}
}

/* satisfyVolumeConflicts (volume_restrictions.go) */
int dsi_disks_fit(const dsi_disk *want, uint32_t nwant, const dsi_disk *have, uint32_t nhave)
{
	for (uint32_t i = 0; i < nwant; i++)
		for (uint32_t k = 0; k < nhave; k++)
			if (dsi_disk_conflict(&want[i], &have[k]))
				return 0;
	return 1;
}
