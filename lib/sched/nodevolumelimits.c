/* NodeVolumeLimits: the CSI attach limits (kube-scheduler pkg/scheduler/framework/plugins/
 * nodevolumelimits/csi.go). */
#include "sched/nodevolumelimits.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

/* CSIAttachLimitPrefix and ResourceNameLengthLimit (pkg/volume/util/attach_limit.go) */
#define ATTACH_PREFIX "attachable-volumes-csi-"
#define RESOURCE_NAME_LIMIT 63

/* The in-tree provisioners csi-translation-lib migrates (IsMigratableIntreePluginByName). */
static int intree_provisioner(const char *p)
{
	static const char *const names[] = {"kubernetes.io/gce-pd",         "kubernetes.io/aws-ebs",
					    "kubernetes.io/azure-disk",     "kubernetes.io/azure-file",
					    "kubernetes.io/cinder",         "kubernetes.io/vsphere-volume",
					    "kubernetes.io/portworx-volume"};
	for (size_t i = 0; p && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(p, names[i]) == 0)
			return 1;
	return 0;
}

/* CSILimits.PreFilter (nodevolumelimits/csi.go): Skip unless the pod has a persistentVolumeClaim,
 * an ephemeral or a migratable inline volume. */
void dsi_nvl_prefilter(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_nvl_state *out)
{
	memset(out, 0, sizeof(*out));
	const dsi_podspec *spec = pod->spec;
	if (!spec->nvclaims && !spec->has_intree_inline) {
		out->skip = 1;
		return;
	}
	int ephemeral = 0;
	for (uint32_t i = 0; i < spec->nvclaims; i++)
		ephemeral |= spec->vclaims[i].ephemeral;
	/* the limits come from CSINodes; claims from PersistentVolumeClaims; an ephemeral claim is
	 * named after its pod, which a pod not created yet (a DaemonSet's template) does not have */
	out->not_evaluated = !dsi_cluster_supplied(c, DSI_SUPPLY_CSINODE) ||
			     (spec->nvclaims && !dsi_cluster_supplied(c, DSI_SUPPLY_PVC)) ||
			     (ephemeral && pod->name == DSI_ATOM_NONE);
}

/* One attachable volume: driver and handle (a bound claim's PersistentVolume), or driver and the
 * claim itself (getCSIDriverInfoFromSC names it after the claim). All in the snapshot's table. */
typedef struct vol_key {
	dsi_atom driver, handle;
	const dsi_pvc *pvc;
} vol_key;

typedef struct vol_set {
	vol_key *v;
	uint32_t n;
	size_t cap;
} vol_set;

static int set_find(const vol_set *s, const vol_key *k)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (s->v[i].driver == k->driver && s->v[i].handle == k->handle && s->v[i].pvc == k->pvc)
			return (int)i;
	return -1;
}

static int set_add(vol_set *s, vol_key k)
{
	if (set_find(s, &k) >= 0)
		return 0;
	if (dsi_grow((void **)&s->v, &s->cap, (size_t)s->n + 1, sizeof(vol_key)) < 0)
		return -1;
	s->v[s->n++] = k;
	return 0;
}

/* A pod as filterAttachableVolumes reads it; its strings in atoms. */
typedef struct vol_pod {
	const dsi_atoms *atoms;
	dsi_atom ns, name, uid;
	const dsi_podspec *spec;
} vol_pod;

/* isCSIMigrationOn (nodevolumelimits/utils.go) for any plugin: the CSINode names migrated plugins.
 * Which plugin it names is not checked: such volumes are then not evaluated. */
static int migration_on(const dsi_csinode *cn) { return cn && cn->migrated; }

/* getCSIDriverInfoFromSC (csi.go) */
static int from_storage_class(const dsi_cluster *c, const dsi_csinode *cn, const dsi_pvc *pvc, vol_key *k)
{
	if (!pvc->storage_class)
		return 0; /* no class: bound before scheduling, not counted */
	const dsi_storage_class *sc = dsi_cluster_storage_class(c, pvc->storage_class);
	if (!sc || !sc->provisioner)
		return 0;
	if (intree_provisioner(dsi_cstr(c, sc->provisioner)))
		return migration_on(cn) ? DSI_NVL_NOT_EVALUATED : 0;
	*k = (vol_key){sc->provisioner, DSI_ATOM_NONE, pvc};
	return 1;
}

/* getCSIDriverInfo (csi.go): 1 and *k for a CSI volume, 0 when not counted, or NOT_EVALUATED. */
static int driver_info(const dsi_cluster *c, const dsi_csinode *cn, const dsi_pvc *pvc, vol_key *k)
{
	if (!pvc->volume_name)
		return from_storage_class(c, cn, pvc, k);
	const dsi_pv *pv = dsi_cluster_pv(c, pvc->volume_name);
	if (!pv) /* deleted, or the claim is prebound to one not created yet */
		return from_storage_class(c, cn, pvc, k);
	if (!pv->csi_driver && !pv->csi_handle) {
		if (!pv->intree)
			return 0;
		return migration_on(cn) ? DSI_NVL_NOT_EVALUATED : 0;
	}
	if (!pv->csi_driver || !pv->csi_handle)
		return 0;
	*k = (vol_key){pv->csi_driver, pv->csi_handle, NULL};
	return 1;
}

/* filterAttachableVolumes (csi.go): the pod's volumes into set. DSI_NVL_* (OK to go on). */
static int attachable(const dsi_cluster *c, const dsi_csinode *cn, const vol_pod *p, int new_pod, vol_set *set,
		      char *msg, size_t msgsize)
{
	const dsi_podspec *spec = p->spec;
	const char *ns = dsi_atom_str(p->atoms, p->ns);
	ns = ns ? ns : "";
	/* checkAttachableInlineVolume: counted only through the translation, when migrated */
	if (spec->has_intree_inline && migration_on(cn))
		return DSI_NVL_NOT_EVALUATED;
	for (uint32_t i = 0; i < spec->nvclaims; i++) {
		const dsi_claim_ref *r = &spec->vclaims[i];
		const char *vname = dsi_atom_str(p->atoms, r->name);
		char name[512];
		if (r->ephemeral) { /* ephemeral.VolumeClaimName: <pod name>-<volume name> */
			if (!p->name)
				return DSI_NVL_NOT_EVALUATED;
			snprintf(name, sizeof(name), "%s-%s", dsi_atom_str(p->atoms, p->name), vname ? vname : "");
		} else {
			snprintf(name, sizeof(name), "%s", vname ? vname : "");
		}
		if (!name[0]) {
			snprintf(msg, msgsize, "PersistentVolumeClaim had no name");
			return DSI_NVL_ERROR;
		}
		dsi_atom cns = dsi_atom_rebase(p->atoms, p->ns, &c->atoms);
		dsi_atom cname = dsi_atom_lookup_cstr(&c->atoms, name);
		const dsi_pvc *pvc = cns != DSI_ATOM_FOREIGN && cname ? dsi_cluster_pvc(c, cns, cname) : NULL;
		if (!pvc) {
			if (!new_pod)
				continue; /* an existing pod's claim that is gone is not counted */
			snprintf(msg, msgsize, "looking up PVC %s/%s: persistentvolumeclaim \"%s\" not found", ns, name,
				 name);
			return DSI_NVL_UNRESOLVABLE;
		}
		/* ephemeral.VolumeIsForPod: the claim must be controlled by the pod */
		if (r->ephemeral && (!p->uid || !pvc->meta.controller.uid ||
				     !dsi_atom_eq_x(p->atoms, p->uid, &c->atoms, pvc->meta.controller.uid))) {
			snprintf(msg, msgsize, "PVC %s/%s was not created for pod %s/%s (pod is not owner)", ns, name,
				 ns, dsi_atom_str(p->atoms, p->name));
			return DSI_NVL_ERROR;
		}
		vol_key k;
		int found = driver_info(c, cn, pvc, &k);
		if (found == DSI_NVL_NOT_EVALUATED)
			return found;
		if (found == 1 && set_add(set, k) < 0)
			return DSI_NVL_NOMEM;
	}
	return DSI_NVL_OK;
}

/* The attach limit of driver on node (getVolumeLimits: the node's allocatable
 * attachable-volumes-csi-<driver>, then the CSINode's count, which wins): 1 and *limit when there
 * is one, 0 when none, DSI_NVL_NOT_EVALUATED when the node's key for a long driver name (hashed
 * by GetCSIAttachLimitKey) cannot be told. */
static int limit_of(const dsi_cluster *c, const dsi_node *node, const dsi_csinode *cn, dsi_atom driver, int64_t *limit)
{
	int found = 0;
	const char *d = dsi_cstr(c, driver);
	if (strlen(ATTACH_PREFIX) + strlen(d) <= RESOURCE_NAME_LIMIT) {
		char key[RESOURCE_NAME_LIMIT + 1];
		snprintf(key, sizeof(key), ATTACH_PREFIX "%s", d);
		dsi_atom a = dsi_atom_lookup_cstr(&c->atoms, key);
		for (uint32_t i = 0; a && i < node->allocatable.nscalars; i++)
			if (node->allocatable.scalars[i].name == a) {
				*limit = node->allocatable.scalars[i].value;
				found = 1;
			}
	} else {
		for (uint32_t i = 0; i < node->allocatable.nscalars; i++) {
			const char *n = dsi_cstr(c, node->allocatable.scalars[i].name);
			if (strncmp(n, ATTACH_PREFIX, strlen(ATTACH_PREFIX)) == 0)
				return DSI_NVL_NOT_EVALUATED;
		}
	}
	for (uint32_t i = 0; cn && i < cn->ndrivers; i++)
		if (cn->drivers[i].name == driver && cn->drivers[i].has_count) {
			*limit = cn->drivers[i].count;
			found = 1;
		}
	return found;
}

/* getVolumeLimits is not empty: the node's allocatable has an attachable-volumes-* resource, or
 * its CSINode a driver with a count. */
static int any_limit(const dsi_cluster *c, const dsi_node *node, const dsi_csinode *cn)
{
	for (uint32_t i = 0; i < node->allocatable.nscalars; i++)
		if (strncmp(dsi_cstr(c, node->allocatable.scalars[i].name), "attachable-volumes-", 19) == 0)
			return 1;
	for (uint32_t i = 0; cn && i < cn->ndrivers; i++)
		if (cn->drivers[i].has_count)
			return 1;
	return 0;
}

/* CSILimits.Filter (nodevolumelimits/csi.go) */
int dsi_nvl_filter(const dsi_cluster *c, const dsi_sched_pod *pod, const dsi_node *node, const dsi_node_usage *u,
		   char *msg, size_t msgsize)
{
	const dsi_csinode *cn = dsi_cluster_csinode(c, node->meta.name);
	vol_set want = {0}, have = {0};
	vol_pod np = {pod->atoms, pod->ns, pod->name, pod->uid, pod->spec};
	int rc = attachable(c, cn, &np, 1, &want, msg, msgsize);
	if (rc == DSI_NVL_OK && want.n && !any_limit(c, node, cn))
		want.n = 0; /* the node has no volume limits: it fits */
	for (uint32_t i = 0; rc == DSI_NVL_OK && want.n && i < u->nvpods; i++) {
		const dsi_pod *p = u->vpods[i];
		vol_pod ep = {&c->atoms, p->meta.ns, p->meta.name, p->meta.uid, &p->spec};
		rc = attachable(c, cn, &ep, 0, &have, msg, msgsize);
	}
	if (rc != DSI_NVL_OK || !want.n)
		goto done;
	/* a volume the node has already is not counted again */
	for (uint32_t i = 0; i < have.n; i++) {
		int at = set_find(&want, &have.v[i]);
		if (at >= 0)
			want.v[at] = want.v[--want.n];
	}
	for (uint32_t i = 0; i < want.n && rc == DSI_NVL_OK; i++) {
		dsi_atom d = want.v[i].driver;
		int first = 1;
		for (uint32_t k = 0; k < i; k++)
			first &= want.v[k].driver != d;
		if (!first)
			continue;
		int64_t limit = 0, count = 0, current = 0;
		int has = limit_of(c, node, cn, d, &limit);
		if (has == DSI_NVL_NOT_EVALUATED) {
			rc = has;
			break;
		}
		if (!has)
			continue;
		for (uint32_t k = i; k < want.n; k++)
			count += want.v[k].driver == d;
		for (uint32_t k = 0; k < have.n; k++)
			current += have.v[k].driver == d;
		if (current + count > limit)
			rc = DSI_NVL_EXCEEDED;
	}
done:
	dsi_free(want.v);
	dsi_free(have.v);
	return rc;
}
