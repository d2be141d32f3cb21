#include "sched/fit.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "sched/cycle.h"
#include "sched/nodevolumelimits.h"
#include "sched/nodeaffinity.h"
#include "sched/tolerations.h"
#include "sched/volumerestrictions.h"

void dsi_node_usage_release(dsi_node_usage *u)
{
	dsi_free(u->requested.scalars);
	dsi_free(u->ports);
	dsi_free(u->disks);
	dsi_free(u->vpods);
	memset(u, 0, sizeof(*u));
}

/* Scalars in a usage borrow atoms from the pods (no references). */
static int add_scalar(dsi_resources *r, dsi_atom name, int64_t v)
{
	for (uint32_t i = 0; i < r->nscalars; i++)
		if (r->scalars[i].name == name) {
			r->scalars[i].value += v;
			return 0;
		}
	size_t cap = r->nscalars;
	if (dsi_grow((void **)&r->scalars, &cap, (size_t)r->nscalars + 1, sizeof(dsi_scalar)) < 0)
		return -1;
	r->scalars[r->nscalars].name = name;
	r->scalars[r->nscalars].value = v;
	r->nscalars++;
	return 0;
}

int dsi_node_usage_add_pod(dsi_node_usage *u, const dsi_podspec *p, int sign)
{
	u->requested.milli_cpu += sign * p->requests.milli_cpu;
	u->requested.memory += sign * p->requests.memory;
	u->requested.ephemeral += sign * p->requests.ephemeral;
	for (uint32_t i = 0; i < p->requests.nscalars; i++)
		if (add_scalar(&u->requested, p->requests.scalars[i].name, sign * p->requests.scalars[i].value) < 0)
			return -1;
	u->pods = sign > 0 ? u->pods + 1 : u->pods - 1;
	if (sign > 0 && p->nports) {
		size_t cap = u->nports;
		if (dsi_grow((void **)&u->ports, &cap, (size_t)u->nports + p->nports, sizeof(dsi_host_port)) < 0)
			return -1;
		memcpy(u->ports + u->nports, p->ports, p->nports * sizeof(dsi_host_port));
		u->nports += p->nports;
	}
	if (sign > 0 && p->ndisks) {
		size_t cap = u->ndisks;
		if (dsi_grow((void **)&u->disks, &cap, (size_t)u->ndisks + p->ndisks, sizeof(dsi_disk)) < 0)
			return -1;
		memcpy(u->disks + u->ndisks, p->disks, p->ndisks * sizeof(dsi_disk));
		u->ndisks += p->ndisks;
	}
	return 0;
}

int dsi_node_usage_add_volumes(dsi_node_usage *u, const dsi_pod *p)
{
	if (!p->spec.nvclaims && !p->spec.has_intree_inline)
		return 0;
	const dsi_pod **grown = dsi_reallocarray(u->vpods, (size_t)u->nvpods + 1, sizeof(*grown));
	if (!grown)
		return -1;
	u->vpods = grown;
	u->vpods[u->nvpods++] = p;
	return 0;
}

int dsi_node_usage_init(const dsi_cluster *c, const dsi_node *node, dsi_pod_filter skip, void *ctx, dsi_node_usage *u)
{
	memset(u, 0, sizeof(*u));
	/* terminal pods have given their resources back (the scheduler's cache drops them) */
	for (const dsi_pod *p = dsi_cluster_pods_on_node(c, node->meta.name); p; p = p->node_next) {
		if (dsi_pod_terminal(p) || (skip && skip(p, ctx)))
			continue;
		if (dsi_node_usage_add_pod(u, &p->spec, 1) < 0 || dsi_node_usage_add_volumes(u, p) < 0) {
			dsi_node_usage_release(u);
			return -1;
		}
	}
	return 0;
}

/* The reason added, or NULL when reasons[] is full: then it is counted in omitted. */
static dsi_fit_reason *add_reason(dsi_fit *f, const char *plugin, const char *msg, int64_t req, int64_t avail,
				  int64_t used, int64_t cap)
{
	if (f->n >= DSI_FIT_MAX_REASONS) {
		if (!f->omitted++)
			f->omitted_plugin = plugin;
		return NULL;
	}
	dsi_fit_reason *r = &f->reasons[f->n++];
	r->plugin = plugin;
	snprintf(r->message, sizeof(r->message), "%s", msg);
	r->requested = req;
	r->available = avail;
	r->used = used;
	r->capacity = cap;
	r->unresolvable = 0;
	r->error = 0;
	return r;
}

/* A reason whose plugin says UnschedulableAndUnresolvable (NULL when only counted). */
static dsi_fit_reason *add_unresolvable(dsi_fit *f, const char *plugin, const char *msg)
{
	/* the node's status is the first failing plugin's (RunFilterPlugins stops there) */
	if (f->n == 0)
		f->unresolvable = 1;
	dsi_fit_reason *r = add_reason(f, plugin, msg, 0, 0, 0, 0);
	if (r)
		r->unresolvable = 1;
	return r;
}

static int cmp_scalar(const dsi_scalar *a, const dsi_scalar *b, const dsi_atoms *atoms)
{
	return strcmp(dsi_atom_str(atoms, a->name), dsi_atom_str(atoms, b->name));
}

/* fitsRequest (scheduler plugins/noderesources/fit.go) */
void dsi_fits_request(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_resources *req, const dsi_node *node,
		      const dsi_node_usage *u, dsi_fit *out)
{
	const dsi_resources *a = &node->allocatable;
	const char *P = "NodeResourcesFit";
	uint32_t first = out->n;
	if ((int64_t)u->pods + 1 > a->pods)
		add_reason(out, P, "Too many pods", 1, a->pods - (int64_t)u->pods, u->pods, a->pods);
	if (req->milli_cpu == 0 && req->memory == 0 && req->ephemeral == 0 && req->nscalars == 0)
		return;
	int exceeds = 0; /* a request beyond the node's whole allocatable: preemption cannot help */
	struct {
		const char *msg;
		int64_t want, alloc, used;
	} base[] = {
		{"Insufficient cpu", req->milli_cpu, a->milli_cpu, u->requested.milli_cpu},
		{"Insufficient memory", req->memory, a->memory, u->requested.memory},
		{"Insufficient ephemeral-storage", req->ephemeral, a->ephemeral, u->requested.ephemeral},
	};
	for (size_t i = 0; i < 3; i++) {
		if (base[i].want > 0 && base[i].want > base[i].alloc - base[i].used) {
			add_reason(out, P, base[i].msg, base[i].want, base[i].alloc - base[i].used, base[i].used,
				   base[i].alloc);
			if (base[i].want > base[i].alloc)
				exceeds = 1;
		}
	}
	/* scalars: upstream walks a map; we report them in name order, every one of them (each step
	 * takes the smallest name after the previous one: no copy, no limit on their number) */
	const dsi_scalar *prev = NULL;
	for (uint32_t step = 0; step < req->nscalars; step++) {
		const dsi_scalar *s = NULL;
		for (uint32_t i = 0; i < req->nscalars; i++) {
			const dsi_scalar *x = &req->scalars[i];
			if ((!prev || cmp_scalar(x, prev, atoms) > 0) && (!s || cmp_scalar(x, s, atoms) < 0))
				s = x;
		}
		if (!s)
			break; /* the rest repeat a name already checked */
		prev = s;
		int64_t want = s->value;
		if (want <= 0)
			continue;
		int64_t alloc = dsi_resources_scalar(a, s->name);
		int64_t used = dsi_resources_scalar(&u->requested, s->name);
		/* shouldDelegateResourceToDRA (noderesources/fit.go): not on the node, backed by a class */
		if (c && alloc <= 0 && dsi_dra_backs_extended(c, dsi_atom_str(atoms, s->name)))
			continue;
		if (want > alloc - used) {
			char msg[128];
			snprintf(msg, sizeof(msg), "Insufficient %s", dsi_atom_str(atoms, s->name));
			add_reason(out, P, msg, want, alloc - used, used, alloc);
			if (want > alloc)
				exceeds = 1;
		}
	}
	/* the plugin returns one status for all its reasons */
	if (exceeds) {
		if (first == 0) /* NodeResourcesFit is the first failing plugin: the node's status is its */
			out->unresolvable = 1;
		for (uint32_t i = first; i < out->n; i++)
			out->reasons[i].unresolvable = 1;
	}
}

/* HostPortInfo.CheckConflict (kube-scheduler framework types): 0.0.0.0 conflicts with every IP. */
static int port_conflict(const dsi_host_port *want, const dsi_host_port *used)
{
	if (want->port != used->port || want->proto != used->proto)
		return 0;
	return want->ip == DSI_ATOM_NONE || used->ip == DSI_ATOM_NONE || want->ip == used->ip;
}

int dsi_fits_ports(const dsi_host_port *want, uint32_t nwant, const dsi_node_usage *u)
{
	for (uint32_t i = 0; i < nwant; i++)
		for (uint32_t j = 0; j < u->nports; j++)
			if (port_conflict(&want[i], &u->ports[j]))
				return 0;
	return 1;
}

/* NodeUnschedulable.Filter (scheduler plugins/nodeunschedulable/node_unschedulable.go) */
int dsi_fits_unschedulable(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_node *node,
			   const dsi_tolerations *tols, int comparison_ops)
{
	if (!node->unschedulable)
		return 1;
	/* the synthetic taint node.kubernetes.io/unschedulable:NoSchedule (no value) */
	dsi_taint t = {c->k_taints[DSI_WK_UNSCHEDULABLE], DSI_ATOM_NONE, DSI_EFFECT_NO_SCHEDULE};
	return dsi_tolerations_tolerate_taint(atoms, tols, &t, comparison_ops);
}

const char *dsi_plugin_name(dsi_plugin p)
{
	static const char *const names[DSI_P_COUNT] = {
		"NodeUnschedulable", "TaintToleration",    "NodeAffinity",     "NodePorts",
		"NodeResourcesFit",  "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding",
		"VolumeZone",        "PodTopologySpread",  "InterPodAffinity", "DynamicResources",
	};
	return (unsigned)p < DSI_P_COUNT ? names[p] : "";
}

#define BIT(p) (1u << (p))

/* The volume and claim plugins the library does not evaluate: skipped when their PreFilter would
 * return Skip (the pod has nothing they check), else not evaluated. */
static void unevaluated_plugins(const dsi_podspec *spec, dsi_fit *out)
{
	/* VolumeBinding.PreFilter: Skip without claims (ephemeral volumes make claims) */
	uint32_t *claims = spec->has_pvc ? &out->not_evaluated : &out->skipped;
	*claims |= BIT(DSI_P_VOLUME_BINDING);
}

/* VolumeRestrictions.Filter (volumerestrictions/volume_restrictions.go): the disk conflicts, then
 * the ReadWriteOncePod claims, with the cycle's PreFilter state. */
static void volume_restrictions(const dsi_cycle *cy, const dsi_podspec *spec, const dsi_node_usage *u, dsi_fit *out)
{
	const dsi_vr_state *vr = &cy->vr;
	if (vr->error[0]) { /* PreFilter: a claim not found, the pod is refused everywhere */
		out->ran |= BIT(DSI_P_VOLUME_RESTRICTIONS);
		add_unresolvable(out, "VolumeRestrictions", vr->error);
		return;
	}
	if (vr->not_evaluated) /* the disks are checked; the claims could not be */
		out->not_evaluated |= BIT(DSI_P_VOLUME_RESTRICTIONS);
	if (vr->skip) {
		out->skipped |= BIT(DSI_P_VOLUME_RESTRICTIONS);
		return;
	}
	out->ran |= BIT(DSI_P_VOLUME_RESTRICTIONS);
	if (!dsi_disks_fit(spec->disks, spec->ndisks, u->disks, u->ndisks))
		add_reason(out, "VolumeRestrictions", "node(s) had no available disk", 0, 0, 0, 0);
	else if (!dsi_vr_rwop_fits(vr))
		add_reason(out, "VolumeRestrictions",
			   "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access "
			   "mode",
			   0, 0, 0, 0);
}

/* NodeVolumeLimits (CSILimits.Filter, nodevolumelimits/csi.go) with the PreFilter's answer. */
static void node_volume_limits(const dsi_cluster *c, const dsi_cycle *cy, const dsi_node *node, const dsi_node_usage *u,
			       dsi_fit *out)
{
	if (cy->nvl.skip) {
		out->skipped |= BIT(DSI_P_NODE_VOLUME_LIMITS);
		return;
	}
	if (cy->nvl.not_evaluated) {
		out->not_evaluated |= BIT(DSI_P_NODE_VOLUME_LIMITS);
		return;
	}
	char msg[512] = "";
	int rc = dsi_nvl_filter(c, &cy->pod, node, u, msg, sizeof(msg));
	if (rc == DSI_NVL_NOT_EVALUATED || rc == DSI_NVL_NOMEM) {
		out->not_evaluated |= BIT(DSI_P_NODE_VOLUME_LIMITS);
		return;
	}
	out->ran |= BIT(DSI_P_NODE_VOLUME_LIMITS);
	if (rc == DSI_NVL_EXCEEDED) {
		add_reason(out, "NodeVolumeLimits", DSI_NVL_EXCEEDED_MSG, 0, 0, 0, 0);
	} else if (rc == DSI_NVL_UNRESOLVABLE) {
		add_unresolvable(out, "NodeVolumeLimits", msg);
	} else if (rc == DSI_NVL_ERROR) { /* framework.AsStatus: Error, which preemption cannot help */
		dsi_fit_reason *r = add_unresolvable(out, "NodeVolumeLimits", msg);
		if (r)
			r->error = 1;
	}
}

/* PodTopologySpread.Filter, or its PreFilter's failure, with the cycle's state. */
static void pod_topology_spread(const dsi_cluster *c, const dsi_cycle *cy, const dsi_node *node, dsi_fit *out)
{
	if (cy->pts.error) {
		/* PreFilter returned an error (framework.AsStatus): the pod is refused everywhere */
		out->ran |= BIT(DSI_P_POD_TOPOLOGY_SPREAD);
		dsi_fit_reason *r = add_unresolvable(out, "PodTopologySpread", cy->pts.error);
		if (r)
			r->error = 1;
		return;
	}
	if (cy->pts.skip) {
		out->skipped |= BIT(DSI_P_POD_TOPOLOGY_SPREAD);
		return;
	}
	out->ran |= BIT(DSI_P_POD_TOPOLOGY_SPREAD);
	int which = dsi_pts_filter(c, &cy->pts, node), unresolvable;
	if (which == DSI_PTS_OK)
		return;
	const char *msg = dsi_pts_reason(which, &unresolvable);
	if (unresolvable)
		add_unresolvable(out, "PodTopologySpread", msg);
	else
		add_reason(out, "PodTopologySpread", msg, 0, 0, 0, 0);
}

/* VolumeZone.Filter (volumezone/volume_zone.go), or its PreFilter's refusal, with the cycle's state. */
static void volume_zone(const dsi_cluster *c, const dsi_cycle *cy, const dsi_node *node, dsi_fit *out)
{
	const dsi_vz_state *vz = &cy->vz;
	if (vz->not_evaluated) {
		out->not_evaluated |= BIT(DSI_P_VOLUME_ZONE);
		return;
	}
	if (vz->error[0]) { /* PreFilter: UnschedulableAndUnresolvable on every node */
		out->ran |= BIT(DSI_P_VOLUME_ZONE);
		add_unresolvable(out, "VolumeZone", vz->error);
		return;
	}
	if (vz->skip) {
		out->skipped |= BIT(DSI_P_VOLUME_ZONE);
		return;
	}
	out->ran |= BIT(DSI_P_VOLUME_ZONE);
	if (!dsi_vz_filter(c, vz, node))
		add_unresolvable(out, "VolumeZone", DSI_VZ_CONFLICT_MSG);
}

/* DynamicResources.Filter (dynamicresources/dynamicresources.go), or its PreFilter's refusal, with
 * the cycle's state (lib/sched/dynamicresources.c: the subset it evaluates). */
static void dynamic_resources(const dsi_cluster *c, const dsi_cycle *cy, const dsi_node *node, dsi_fit *out)
{
	if (cy->dra.skip) {
		out->skipped |= BIT(DSI_P_DYNAMIC_RESOURCES);
		return;
	}
	char msg[512];
	const char *why;
	int rc = dsi_dra_filter(c, &cy->dra, node, msg, sizeof(msg), &why);
	if (rc == DSI_DRA_NOT_EVALUATED) {
		out->not_evaluated |= BIT(DSI_P_DYNAMIC_RESOURCES);
		out->dra_not_evaluated = why;
		return;
	}
	out->ran |= BIT(DSI_P_DYNAMIC_RESOURCES);
	if (rc != DSI_DRA_OK) {
		dsi_fit_reason *r = add_unresolvable(out, "DynamicResources", msg);
		if (r && rc == DSI_DRA_ERROR)
			r->error = 1;
	}
}

/* InterPodAffinity.Filter, or its PreFilter's refusal, with the cycle's state. */
static void inter_pod_affinity(const dsi_cycle *cy, const dsi_node *node, dsi_fit *out)
{
	if (cy->ipa.error) {
		out->ran |= BIT(DSI_P_INTER_POD_AFFINITY);
		add_unresolvable(out, "InterPodAffinity", cy->ipa.error);
		return;
	}
	if (cy->ipa.skip) {
		out->skipped |= BIT(DSI_P_INTER_POD_AFFINITY);
		return;
	}
	out->ran |= BIT(DSI_P_INTER_POD_AFFINITY);
	int which = dsi_ipa_filter(&cy->ipa, node), unresolvable;
	if (which == DSI_IPA_OK)
		return;
	const char *msg = dsi_ipa_reason(which, &unresolvable);
	if (unresolvable)
		add_unresolvable(out, "InterPodAffinity", msg);
	else
		add_reason(out, "InterPodAffinity", msg, 0, 0, 0, 0);
}

void dsi_run_filters(const dsi_cluster *c, const dsi_atoms *atoms, const dsi_podspec *spec, const dsi_tolerations *tols,
		     int comparison_ops, const dsi_node *node, const dsi_node_usage *u, const dsi_cycle *cy,
		     dsi_fit *out)
{
	memset(out, 0, sizeof(*out));
	/* NodeResourcesFit PreFilter (noderesources/fit.go): refused before any filter runs */
	if (spec->sidecar_gate_off) {
		add_unresolvable(out, "NodeResourcesFit",
				 "Pod has a restartable init container and the SidecarContainers feature is disabled");
		out->ran |= BIT(DSI_P_NODE_RESOURCES_FIT);
		return;
	}
	out->ran |= BIT(DSI_P_NODE_UNSCHEDULABLE) | BIT(DSI_P_TAINT_TOLERATION) | BIT(DSI_P_NODE_AFFINITY);
	/* NodePorts.PreFilter: Skip for a pod without host ports */
	if (spec->nports)
		out->ran |= BIT(DSI_P_NODE_PORTS);
	else
		out->skipped |= BIT(DSI_P_NODE_PORTS);
	out->ran |= BIT(DSI_P_NODE_RESOURCES_FIT);
	if (!dsi_fits_unschedulable(c, atoms, node, tols, comparison_ops)) {
		add_unresolvable(out, "NodeUnschedulable", "node(s) were unschedulable");
	}
	if (dsi_find_untolerated_taint(atoms, &node->taints, tols, DSI_EFFECTS_NOSCHEDULE_NOEXECUTE, comparison_ops,
				       NULL)) {
		add_unresolvable(out, "TaintToleration", "node(s) had untolerated taint(s)");
	}
	if (!dsi_required_affinity_matches(atoms, spec, node, NULL)) {
		add_unresolvable(out, "NodeAffinity", "node(s) didn't match Pod's node affinity/selector");
	}
	if (!dsi_fits_ports(spec->ports, spec->nports, u))
		add_reason(out, "NodePorts", "node(s) didn't have free ports for the requested pod ports", 0, 0, 0, 0);
	dsi_fits_request((cy->pod.gates & DSI_GATE_DRA_EXTENDED_RESOURCE) ? c : NULL, atoms, &spec->requests, node, u,
			 out);
	volume_restrictions(cy, spec, u, out);
	node_volume_limits(c, cy, node, u, out);
	unevaluated_plugins(spec, out);
	volume_zone(c, cy, node, out);
	pod_topology_spread(c, cy, node, out);
	inter_pod_affinity(cy, node, out);
	dynamic_resources(c, cy, node, out);
}
