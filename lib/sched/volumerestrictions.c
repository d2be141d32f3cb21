/* VolumeRestrictions' disk conflicts (kube-scheduler pkg/scheduler/framework/plugins/
 * volumerestrictions/volume_restrictions.go). */
#include "sched/volumerestrictions.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

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

/* ---- ReadWriteOncePod ---- */

/* Pod p (of c) uses claim name in namespace ns: one of its persistentVolumeClaim volumes. */
static int pod_uses_claim(const dsi_pod *p, dsi_atom ns, dsi_atom name)
{
	if (p->meta.ns != ns)
		return 0;
	for (uint32_t i = 0; i < p->spec.nvclaims; i++)
		if (!p->spec.vclaims[i].ephemeral && p->spec.vclaims[i].name == name)
			return 1;
	return 0;
}

/* IsPVCUsedByPods (framework's StorageInfoLister, the snapshot's usedPVCSet): a pod bound to one of
 * c's nodes, not terminal and not skipped, has a persistentVolumeClaim volume of that key. */
static int claim_used(const dsi_cluster *c, dsi_atom ns, dsi_atom name, dsi_pod_filter skip, void *ctx)
{
	size_t nn = dsi_cluster_count(c, DSI_KIND_NODE);
	for (size_t i = 0; i < nn; i++)
		for (const dsi_pod *p = dsi_cluster_pods_on_node(c, dsi_cluster_node_at(c, i)->meta.name); p;
		     p = p->node_next)
			if (!dsi_pod_terminal(p) && !(skip && skip(p, ctx)) && pod_uses_claim(p, ns, name))
				return 1;
	return 0;
}

/* VolumeRestrictions.PreFilter with readWriteOncePodPVCsForPod and calPreFilterState
 * (volumerestrictions/volume_restrictions.go) */
int dsi_vr_prefilter(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_pod_filter skip, void *ctx, dsi_vr_state *out)
{
	memset(out, 0, sizeof(*out));
	const dsi_podspec *spec = pod->spec;
	int needs_check = spec->ndisks > 0, has_claims = 0;
	for (uint32_t i = 0; i < spec->nvclaims; i++)
		has_claims |= !spec->vclaims[i].ephemeral;
	if (has_claims && !dsi_cluster_supplied(c, DSI_SUPPLY_PVC)) {
		/* no PersistentVolumeClaim in the input (nor an empty PersistentVolumeClaimList): the claims
		 * cannot be read */
		out->not_evaluated = 1;
		out->skip = !needs_check;
		return 0;
	}
	dsi_atom ns = dsi_atom_rebase(pod->atoms, pod->ns, &c->atoms);
	for (uint32_t i = 0; i < spec->nvclaims; i++) {
		const dsi_claim_ref *r = &spec->vclaims[i];
		if (r->ephemeral)
			continue;
		dsi_atom name = dsi_atom_rebase(pod->atoms, r->name, &c->atoms);
		const dsi_pvc *pvc =
			name != DSI_ATOM_FOREIGN && ns != DSI_ATOM_FOREIGN ? dsi_cluster_pvc(c, ns, name) : NULL;
		if (!pvc) {
			/* the lister's apierrors.NewNotFound: UnschedulableAndUnresolvable with its text */
			const char *s = dsi_atom_str(pod->atoms, r->name);
			snprintf(out->error, sizeof(out->error), "persistentvolumeclaim \"%s\" not found", s ? s : "");
			return 0;
		}
		if (!pvc->rwop)
			continue;
		int seen = 0;
		for (uint32_t k = 0; k < out->nrwop; k++)
			seen |= out->rwop[k] == name;
		if (seen)
			continue;
		dsi_atom *grown = dsi_reallocarray(out->rwop, out->nrwop + 1, sizeof(dsi_atom));
		if (!grown) {
			dsi_vr_release(out);
			return -1;
		}
		out->rwop = grown;
		out->rwop[out->nrwop++] = name;
		/* there can only be at most one pod using the ReadWriteOncePod claim */
		if (claim_used(c, ns, name, skip, ctx))
			out->conflicts++;
	}
	out->skip = !needs_check && out->conflicts == 0;
	return 0;
}

/* updateWithPod (volume_restrictions.go): by claim name alone, whatever the namespace, as upstream */
void dsi_vr_update(dsi_vr_state *s, const dsi_cluster *c, const dsi_pod *p, int sign)
{
	(void)c;
	for (uint32_t i = 0; i < p->spec.nvclaims; i++) {
		if (p->spec.vclaims[i].ephemeral)
			continue;
		for (uint32_t k = 0; k < s->nrwop; k++)
			if (s->rwop[k] == p->spec.vclaims[i].name)
				s->conflicts += sign;
	}
}

int dsi_vr_clone(const dsi_vr_state *src, dsi_vr_state *dst)
{
	*dst = *src;
	dst->rwop = NULL;
	if (src->nrwop) {
		if (!(dst->rwop = dsi_malloc(src->nrwop * sizeof(dsi_atom)))) {
			dst->nrwop = 0;
			return -1;
		}
		memcpy(dst->rwop, src->rwop, src->nrwop * sizeof(dsi_atom));
	}
	return 0;
}

void dsi_vr_release(dsi_vr_state *s)
{
	dsi_free(s->rwop);
	memset(s, 0, sizeof(*s));
}
