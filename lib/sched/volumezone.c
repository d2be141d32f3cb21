/* VolumeZone (kube-scheduler pkg/scheduler/framework/plugins/volumezone/volume_zone.go). */
#include "sched/volumezone.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

/* topologyLabels (volume_zone.go): the beta and GA zone and region keys */
static const char *const TOPOLOGY_LABELS[] = {"failure-domain.beta.kubernetes.io/zone",
					      "failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/zone",
					      "topology.kubernetes.io/region"};

/* translateToGALabel (volume_zone.go) */
static const char *ga_label(const char *key)
{
	if (strcmp(key, TOPOLOGY_LABELS[1]) == 0)
		return TOPOLOGY_LABELS[3];
	if (strcmp(key, TOPOLOGY_LABELS[0]) == 0)
		return TOPOLOGY_LABELS[2];
	return key;
}

/* LabelZonesToSet (cloud-provider volume/helpers/zones.go): zones joined by "__", each trimmed of
 * spaces; an empty one makes the label unparsable (1: parses). */
static int zones_parse(const char *v)
{
	for (const char *p = v;;) {
		const char *end = strstr(p, "__");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		size_t a = 0;
		while (a < n &&
		       (p[a] == ' ' || p[a] == '\t' || p[a] == '\n' || p[a] == '\r' || p[a] == '\v' || p[a] == '\f'))
			a++;
		if (a == n)
			return 0;
		if (!end)
			return 1;
		p = end + 2;
	}
}

static int is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f'; }

/* Whether the zone set of value holds zone. */
static int zones_has(const char *value, const char *zone)
{
	size_t zl = strlen(zone);
	for (const char *p = value;;) {
		const char *end = strstr(p, "__");
		size_t n = end ? (size_t)(end - p) : strlen(p), a = 0;
		while (a < n && is_space(p[a]))
			a++;
		while (n > a && is_space(p[n - 1]))
			n--;
		if (n - a == zl && memcmp(p + a, zone, zl) == 0)
			return 1;
		if (!end)
			return 0;
		p = end + 2;
	}
}

/* The value of label key on l (NULL: absent). */
static const char *label_of(const dsi_cluster *c, const dsi_labels *l, const char *key)
{
	dsi_atom k = dsi_atom_lookup_cstr(&c->atoms, key);
	if (!k)
		return NULL;
	uint32_t i = dsi_labels_position(l, k);
	return i < l->n && l->v[i].key == k ? dsi_cstr(c, l->v[i].value) : NULL;
}

static int fail(dsi_vz_state *out, const char *fmt, const char *arg)
{
	snprintf(out->error, sizeof(out->error), fmt, arg);
	return 0;
}

/* VolumeZone.PreFilter with getPVbyPod (volume_zone.go) */
int dsi_vz_prefilter(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_vz_state *out)
{
	memset(out, 0, sizeof(*out));
	const dsi_podspec *spec = pod->spec;
	int claims = 0;
	for (uint32_t i = 0; i < spec->nvclaims; i++)
		claims |= !spec->vclaims[i].ephemeral; /* getPersistentVolumeClaimNameFromPod: PVC volumes only */
	if (!claims) {
		out->skip = 1;
		return 0;
	}
	if (!dsi_cluster_supplied(c, DSI_SUPPLY_PVC)) {
		out->not_evaluated = 1;
		return 0;
	}
	dsi_atom ns = dsi_atom_rebase(pod->atoms, pod->ns, &c->atoms);
	for (uint32_t i = 0; i < spec->nvclaims; i++) {
		const dsi_claim_ref *r = &spec->vclaims[i];
		if (r->ephemeral)
			continue;
		const char *cname = dsi_atom_str(pod->atoms, r->name);
		if (!cname || !*cname)
			return fail(out, "%sPersistentVolumeClaim had no name", "");
		dsi_atom name = dsi_atom_rebase(pod->atoms, r->name, &c->atoms);
		const dsi_pvc *pvc =
			name != DSI_ATOM_FOREIGN && ns != DSI_ATOM_FOREIGN ? dsi_cluster_pvc(c, ns, name) : NULL;
		if (!pvc)
			return fail(out, "persistentvolumeclaim \"%s\" not found", cname);
		if (!pvc->volume_name) {
			if (!pvc->storage_class)
				return fail(out, "%sPersistentVolumeClaim had no pv name and storageClass name", "");
			if (!dsi_cluster_supplied(c, DSI_SUPPLY_STORAGE_CLASS)) {
				out->not_evaluated = 1;
				return 0;
			}
			const dsi_storage_class *sc = dsi_cluster_storage_class(c, pvc->storage_class);
			if (!sc)
				return fail(out, "storageclass.storage.k8s.io \"%s\" not found",
					    dsi_cstr(c, pvc->storage_class));
			/* an absent volumeBindingMode is the API server's default, Immediate */
			if (sc->wait_for_first_consumer)
				continue; /* unbound volumes are skipped */
			return fail(out, "%sPersistentVolume had no name", "");
		}
		if (!dsi_cluster_supplied(c, DSI_SUPPLY_PV)) {
			out->not_evaluated = 1;
			return 0;
		}
		const dsi_pv *pv = dsi_cluster_pv(c, pvc->volume_name);
		if (!pv)
			return fail(out, "persistentvolume \"%s\" not found", dsi_cstr(c, pvc->volume_name));
		for (size_t k = 0; k < sizeof(TOPOLOGY_LABELS) / sizeof(TOPOLOGY_LABELS[0]); k++) {
			const char *v = label_of(c, &pv->meta.labels, TOPOLOGY_LABELS[k]);
			if (!v || !zones_parse(v))
				continue; /* absent, or unparsable: ignored */
			dsi_vz_topology *grown = dsi_reallocarray(out->topo, out->ntopo + 1, sizeof(*grown));
			if (!grown) {
				dsi_vz_release(out);
				return -1;
			}
			out->topo = grown;
			out->topo[out->ntopo++] =
				(dsi_vz_topology){dsi_atom_lookup_cstr(&c->atoms, TOPOLOGY_LABELS[k]), v};
		}
	}
	out->skip = out->ntopo == 0;
	return 0;
}

int dsi_vz_clone(const dsi_vz_state *src, dsi_vz_state *dst)
{
	*dst = *src;
	dst->topo = NULL;
	if (src->ntopo) {
		if (!(dst->topo = dsi_malloc(src->ntopo * sizeof(*dst->topo)))) {
			dst->ntopo = 0;
			return -1;
		}
		memcpy(dst->topo, src->topo, src->ntopo * sizeof(*dst->topo));
	}
	return 0;
}

void dsi_vz_release(dsi_vz_state *s)
{
	dsi_free(s->topo);
	memset(s, 0, sizeof(*s));
}

/* VolumeZone.Filter (volume_zone.go) */
int dsi_vz_filter(const dsi_cluster *c, const dsi_vz_state *s, const dsi_node *node)
{
	int constrained = 0; /* a node without topology labels fits (a single-zone cluster) */
	for (size_t k = 0; k < sizeof(TOPOLOGY_LABELS) / sizeof(TOPOLOGY_LABELS[0]) && !constrained; k++)
		constrained = label_of(c, &node->meta.labels, TOPOLOGY_LABELS[k]) != NULL;
	if (!constrained)
		return 1;
	for (uint32_t i = 0; i < s->ntopo; i++) {
		const char *key = dsi_cstr(c, s->topo[i].key);
		const char *v = label_of(c, &node->meta.labels, key);
		if (!v)
			v = label_of(c, &node->meta.labels, ga_label(key));
		if (!v || !zones_has(s->topo[i].value, v))
			return 0;
	}
	return 1;
}
