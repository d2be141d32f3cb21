/*
 * DynamicResources (kube-scheduler pkg/scheduler/framework/plugins/dynamicresources/
 * dynamicresources.go) with the structured allocator (k8s.io/dynamic-resource-allocation
 * structured/internal/stable allocator_stable.go, pools_stable.go), for a subset that is exact where
 * it answers:
 *
 * - PreFilter, whole: the pod's claims by name (resourceClaimName; resourceClaimTemplateName through
 *   status.resourceClaimStatuses), a missing claim (`could not find ResourceClaim "ns/name"`), a
 *   claim being deleted, a template claim the pod does not own, a request's missing DeviceClass,
 *   each with upstream's message and status (UnschedulableAndUnresolvable; Error where upstream's
 *   is). CanBeReserved is true upstream, so status.reservedFor never blocks a pod.
 * - Filter of an allocated claim: its allocation's nodeSelector must match the node ("resourceclaim
 *   not available on the node").
 * - Filter of unallocated claims (the allocator): requests `exactly` with allocationMode ExactCount
 *   or All, whose request and DeviceClass selectors are none or the exact CEL form
 *   `device.driver == "name"`, against the devices of the ResourceSlices for the node (nodeName,
 *   allNodes, nodeSelector; the newest generation of each pool; incomplete pools as upstream: skipped
 *   for ExactCount, an error for All) minus the devices allocated to any claim (adminAccess results
 *   excepted). The allocator's exhaustive search succeeds exactly when the wanted devices can be
 *   matched to distinct free devices; with driver-equality selectors the candidate sets are "any
 *   device" or "the devices of driver d", a laminar family, for which Hall's condition reduces to:
 *   per driver, what is asked of it fits its free devices, and all that is asked fits all of them.
 *
 * Outside the subset the plugin is not evaluated on the node (never "fits"): other CEL, constraints,
 * adminAccess, firstAvailable (prioritized lists), consumable capacity, partitionable devices (shared
 * counters, per-device node selection), device taints, binding conditions, pools with duplicate
 * device names, invalid node selectors (any ResourceSlice of the snapshot with one of these makes
 * the allocator's part not evaluated); a claim made from a ResourceClaimTemplate for the pod a
 * DaemonSet would create (it exists only once the pod does); extended resources backed by a
 * DeviceClass (DRAExtendedResource).
 *
 * What the snapshot holds: a snapshot without any ResourceClaim (a dump that lists none) leaves a
 * pod with claims not evaluated, since a missing claim cannot be told from an unloaded one. Once it
 * holds ResourceClaims, or was given a typed ResourceClaimList even with no items (the API server's
 * reply when there are none; dsi_cluster_supplied), it is taken to hold the cluster's DRA objects: a claim it lacks is
 * upstream's not-found, a DeviceClass it lacks does not exist, and the ResourceSlices it has are all the devices there
 * are (load them together: kubectl get resourceclaims,deviceclasses,resourceslices).
 */
#include "sched/dynamicresources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"
#include "sched/nodeaffinity.h"

/* resourceapi.AllocationResultsMaxSize */
#define DSI_DRA_MAX_RESULTS 32

static int cmp_ref(const dsi_dra_device_ref *a, const dsi_dra_device_ref *b)
{
	int r = strcmp(a->driver, b->driver);
	if (!r)
		r = strcmp(a->pool, b->pool);
	return r ? r : strcmp(a->device, b->device);
}

static int cmp_ref_ptr(const void *a, const void *b)
{
	return cmp_ref(*(const dsi_dra_device_ref *const *)a, *(const dsi_dra_device_ref *const *)b);
}

static int cmp_slice_node(const void *a, const void *b)
{
	return strcmp((*(const dsi_resource_slice *const *)a)->node_name,
		      (*(const dsi_resource_slice *const *)b)->node_name);
}

static int in_use(const dsi_dra_state *st, const dsi_dra_device_ref *d)
{
	size_t lo = 0, hi = st->nin_use;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int r = cmp_ref(st->in_use[mid], d);
		if (!r)
			return 1;
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static const dsi_dra_obj *typed(const dsi_cluster *c, size_t i)
{
	const dsi_other *o = c->objs[DSI_KIND_OTHER].v[i];
	return o->dra;
}

/* "namespace/name" as klog.KObj prints it */
static char *kobj(const char *ns, const char *name)
{
	return ns && *ns ? dsi_format("%s/%s", ns, name) : dsi_format("%s", name);
}

static int fail(dsi_dra_state *st, int is_error, char *msg)
{
	if (!msg)
		return -1;
	st->error = msg;
	st->error_is_error = (uint8_t)is_error;
	return 0;
}

static const dsi_device_class *find_class(const dsi_cluster *c, const char *name)
{
	const dsi_other *o = *name ? dsi_cluster_other(c, "resource.k8s.io/DeviceClass", NULL, name) : NULL;
	return o && o->dra && o->dra->kind == DSI_DRA_CLASS ? &o->dra->u.cls : NULL;
}

/* validateDeviceClass (dynamicresources.go); 1 when the class is there, 0 when st got the status */
static int validate_class(const dsi_cluster *c, dsi_dra_state *st, const char *cls, const char *request, int *nomem)
{
	if (!*cls) {
		*nomem = fail(st, 1, dsi_format("request %s: unsupported request type", request)) < 0;
		return 0;
	}
	if (find_class(c, cls))
		return 1;
	*nomem = fail(st, 0, dsi_format("request %s: device class %s does not exist", request, cls)) < 0;
	return 0;
}

/* DeviceClassMapping (dynamic-resource-allocation deviceclass/extendedresourcecache): a class's
 * implicit name deviceclass.resource.kubernetes.io/<class>, or its spec.extendedResourceName. */
int dsi_dra_backs_extended(const dsi_cluster *c, const char *name)
{
	if (!name)
		return 0;
	if (strncmp(name, "deviceclass.resource.kubernetes.io/", 35) == 0 && find_class(c, name + 35))
		return 1;
	for (size_t k = 0; k < dsi_cluster_count(c, DSI_KIND_OTHER); k++) {
		const dsi_dra_obj *o = typed(c, k);
		if (o && o->kind == DSI_DRA_CLASS && o->u.cls.extended_resource &&
		    strcmp(o->u.cls.extended_resource, name) == 0)
			return 1;
	}
	return 0;
}

/* preFilterExtendedResources (dynamicresources.go): with DRAExtendedResource on, the pod's extended
 * resources a DeviceClass backs make the plugin allocate them: not evaluated. Off: not looked at. */
static int extended_resources_backed(const dsi_cluster *c, const dsi_sched_pod *pod)
{
	if (!(pod->gates & DSI_GATE_DRA_EXTENDED_RESOURCE))
		return 0;
	const dsi_resources *r = &pod->spec->requests;
	for (uint32_t i = 0; i < r->nscalars; i++)
		if (r->scalars[i].value > 0 && dsi_dra_backs_extended(c, dsi_atom_str(pod->atoms, r->scalars[i].name)))
			return 1;
	return 0;
}

/* foreachPodResourceClaim (dynamicresources.go) with Name, IsForPod (dynamic-resource-allocation
 * resourceclaim.go): the claims in order; a claim not knowable yet sets *unknown. 0, or -1 without
 * memory; st->error on the first failure. */
static int pod_claims(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_dra_state *st, int have_claims,
		      const char **unknown)
{
	const dsi_pod_claims *pc = &pod->spec->claims;
	const char *ns = dsi_atom_str(pod->atoms, pod->ns), *pname = dsi_atom_str(pod->atoms, pod->name);
	ns = ns ? ns : "";
	pname = pname ? pname : "";
	for (uint32_t i = 0; i < pc->n; i++) {
		const dsi_pod_claim *r = &pc->v[i];
		dsi_atom name = DSI_ATOM_NONE;
		int has_name = 0, check_owner = 0;
		if (r->has_claim_name) {
			name = r->claim_name;
			has_name = 1;
		} else if (r->has_template) {
			if (!pod->exists) {
				*unknown = "a claim from a ResourceClaimTemplate (created with the pod)";
				continue;
			}
			int found = 0;
			for (uint32_t k = 0; k < pc->nstatus && !found; k++)
				if (pc->status[k].name == r->name) {
					found = 1;
					name = pc->status[k].claim_name;
					has_name = pc->status[k].has_claim_name;
				}
			if (!found)
				return fail(st, 0,
					    dsi_format("pod \"%s/%s\": ResourceClaim not created yet", ns, pname));
			if (!has_name) /* intentionally not created: the claim is skipped */
				continue;
			check_owner = 1;
		} else {
			const char *rn = dsi_atom_str(pod->atoms, r->name);
			return fail(st, 0,
				    dsi_format("pod \"%s/%s\", spec.resourceClaim \"%s\": none of the supported fields "
					       "are set",
					       ns, pname, rn ? rn : ""));
		}
		const char *cname = dsi_atom_str(pod->atoms, name);
		cname = cname ? cname : "";
		if (!have_claims) {
			*unknown = "no ResourceClaim loaded";
			continue;
		}
		const dsi_other *o = *cname ? dsi_cluster_other(c, "resource.k8s.io/ResourceClaim", ns, cname) : NULL;
		if (!o || !o->dra)
			return fail(st, 0, dsi_format("could not find ResourceClaim \"%s/%s\"", ns, cname));
		if (o->meta.has_deletion)
			return fail(st, 0, dsi_format("resourceclaim \"%s\" is being deleted", cname));
		/* IsForPod: metav1.IsControlledBy, the namespaces equal (the lookup made them so) */
		if (check_owner &&
		    (!pod->uid || !dsi_atom_eq_x(&c->atoms, o->meta.controller.uid, pod->atoms, pod->uid)))
			return fail(st, 0,
				    dsi_format("ResourceClaim %s/%s was not created for pod %s/%s (pod is not owner)",
					       ns, cname, ns, pname));
		char *ref = kobj(ns, cname);
		if (!ref)
			return -1;
		st->claims[st->nclaims] = &o->dra->u.claim;
		st->claim_refs[st->nclaims++] = ref;
	}
	return 0;
}

/* The snapshot's slices and in-use devices, and how many claims it has. */
static int gather(const dsi_cluster *c, dsi_dra_state *st, int *nclaims)
{
	size_t ndev = 0, nsl = 0;
	*nclaims = 0;
	for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_OTHER); i++) {
		const dsi_dra_obj *o = typed(c, i);
		if (!o)
			continue;
		if (o->kind == DSI_DRA_CLAIM) {
			(*nclaims)++;
			ndev += o->u.claim.nallocated;
		} else if (o->kind == DSI_DRA_SLICE) {
			nsl++;
		}
	}
	if ((nsl && !(st->slices = dsi_calloc(nsl, sizeof(*st->slices)))) ||
	    (ndev && !(st->in_use = dsi_calloc(ndev, sizeof(*st->in_use)))))
		return -1;
	for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_OTHER); i++) {
		const dsi_dra_obj *o = typed(c, i);
		if (o && o->kind == DSI_DRA_CLAIM)
			for (uint32_t k = 0; k < o->u.claim.nallocated; k++)
				st->in_use[st->nin_use++] = &o->u.claim.allocated_devices[k];
		else if (o && o->kind == DSI_DRA_SLICE)
			st->slices[st->nslices++] = &o->u.slice;
	}
	if (st->nin_use > 1)
		qsort(st->in_use, st->nin_use, sizeof(*st->in_use), cmp_ref_ptr);
	/* the slices of one node are found by name: those with a nodeName first, sorted by it */
	uint32_t named = 0;
	for (uint32_t i = 0; i < st->nslices; i++)
		if (st->slices[i]->node_name) {
			const dsi_resource_slice *t = st->slices[named];
			st->slices[named++] = st->slices[i];
			st->slices[i] = t;
		}
	st->nnamed = named;
	if (named > 1)
		qsort(st->slices, named, sizeof(*st->slices), cmp_slice_node);
	return 0;
}

/* PreFilter (dynamicresources.go) */
int dsi_dra_prefilter(const dsi_cluster *c, const dsi_sched_pod *pod, dsi_dra_state *st)
{
	memset(st, 0, sizeof(*st));
	st->owned = 1;
	/* New: DynamicResourceAllocation off, the plugin is disabled; its PreFilter returns Skip */
	if (!(pod->gates & DSI_GATE_DYNAMIC_RESOURCE_ALLOCATION)) {
		st->skip = 1;
		return 0;
	}
	const dsi_pod_claims *pc = &pod->spec->claims;
	if (!pc->n) {
		/* no claims: Skip, unless an extended resource is backed by a DeviceClass */
		if (extended_resources_backed(c, pod))
			st->not_evaluated = "extended resources backed by a DeviceClass (DRAExtendedResource)";
		else
			st->skip = 1;
		return 0;
	}
	int nclaims, nomem = 0;
	if (!(st->claims = dsi_calloc(pc->n, sizeof(*st->claims))) ||
	    !(st->claim_refs = dsi_calloc(pc->n, sizeof(*st->claim_refs))) || gather(c, st, &nclaims) < 0)
		return -1;
	const char *unknown = NULL;
	/* supplied: a claim, or an empty ResourceClaimList (dsi_cluster_supplied, without a second walk) */
	if (pod_claims(c, pod, st, nclaims > 0 || dsi_cluster_listed(c, DSI_SUPPLY_RESOURCE_CLAIM), &unknown) < 0)
		return -1;
	if (st->error)
		return 0;
	if (unknown) {
		st->not_evaluated = unknown;
		return 0;
	}
	if (extended_resources_backed(c, pod)) {
		st->not_evaluated = "extended resources backed by a DeviceClass (DRAExtendedResource)";
		return 0;
	}
	if (!st->nclaims) {
		st->skip = 1;
		return 0;
	}
	size_t nreq = 0;
	for (uint32_t i = 0; i < st->nclaims; i++)
		nreq += st->claims[i]->nreqs;
	if (nreq && !(st->want = dsi_calloc(nreq, sizeof(*st->want))))
		return -1;
	for (uint32_t i = 0; i < st->nclaims; i++) {
		const dsi_resource_claim *cl = st->claims[i];
		/* CanBeReserved is true: an allocated claim is never "in use" by too many */
		if (cl->allocated) {
			if (cl->selector_beyond) { /* NewNodeSelector's error ends PreFilter: its text is not ours */
				st->not_evaluated = cl->selector_beyond;
				return 0;
			}
			if (cl->binding_beyond) /* Filter's part: PreFilter's errors still come first */
				st->not_evaluated = cl->binding_beyond;
			continue;
		}
		if (cl->beyond)
			st->alloc_not_evaluated = cl->beyond;
		for (uint32_t k = 0; k < cl->nreqs; k++) {
			const dsi_dra_request *r = &cl->reqs[k];
			if (r->type == DSI_DRA_REQ_EXACT) {
				if (!validate_class(c, st, r->class_name, r->name, &nomem))
					return nomem ? -1 : 0;
				st->want[st->nwant++] = (dsi_dra_want){i, r, find_class(c, r->class_name)};
				if (r->beyond)
					st->alloc_not_evaluated = r->beyond;
				if (st->want[st->nwant - 1].cls->beyond)
					st->alloc_not_evaluated = st->want[st->nwant - 1].cls->beyond;
			} else if (r->type == DSI_DRA_REQ_FIRST_AVAILABLE) {
				/* DRAPrioritizedList (on by default): each subrequest's class must exist */
				for (uint32_t s = 0; s < r->nsub; s++) {
					char *q = dsi_format("%s/%s", r->name, r->sub_names[s]);
					if (!q)
						return -1;
					int ok = validate_class(c, st, r->sub_classes[s], q, &nomem);
					dsi_free(q);
					if (!ok)
						return nomem ? -1 : 0;
				}
				/* a claim to allocate all the same: the allocator's part is what is not evaluated */
				st->want[st->nwant++] = (dsi_dra_want){i, r, NULL};
				st->alloc_not_evaluated = r->beyond;
			} else {
				return fail(st, 0,
					    dsi_format("resource claim %s, request %s: unknown request type",
						       st->claim_refs[i], r->name));
			}
		}
		if (!cl->nreqs)
			st->want[st->nwant++] = (dsi_dra_want){i, NULL, NULL}; /* nothing to allocate: trivially */
	}
	if (st->nwant && !st->alloc_not_evaluated) {
		for (uint32_t i = 0; i < st->nslices; i++) {
			if (st->slices[i]->beyond)
				st->alloc_not_evaluated = st->slices[i]->beyond;
			if (st->slices[i]->selector_beyond)
				st->alloc_not_evaluated = st->slices[i]->selector_beyond;
		}
	}
	return 0;
}

void dsi_dra_clone(const dsi_dra_state *src, dsi_dra_state *dst)
{
	*dst = *src;
	dst->owned = 0;
}

void dsi_dra_release(dsi_dra_state *st)
{
	if (st->owned) {
		for (uint32_t i = 0; i < st->nclaims; i++)
			dsi_free(st->claim_refs[i]);
		dsi_free(st->claim_refs);
		dsi_free(st->claims);
		dsi_free(st->error);
		dsi_free(st->want);
		dsi_free(st->slices);
		dsi_free(st->in_use);
	}
	memset(st, 0, sizeof(*st));
}

/* ---- the allocator on one node ---- */

/* A pool of the node: its newest generation's slices (GatherPools, pools_stable.go). */
typedef struct pool {
	const char *driver, *name;
	int64_t generation, count, want_count;
	const dsi_resource_slice **slices;
	uint32_t n;
	uint8_t incomplete, invalid;
} pool;

/* nodeMatches (pools_stable.go) */
static int slice_for_node(const dsi_cluster *c, const dsi_resource_slice *s, const dsi_node *node)
{
	if (s->node_name)
		return strcmp(s->node_name, dsi_cstr(c, node->meta.name)) == 0;
	if (s->all_nodes)
		return 1;
	if (s->has_selector)
		return dsi_node_selector_matches(&c->atoms, &s->selector, node);
	return 0; /* nothing known set: skipped */
}

static void pools_free(pool *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		dsi_free(p[i].slices);
	dsi_free(p);
}

/* GatherPools (pools_stable.go): -1 without memory. The slices named for the node are a range of
 * the sorted ones; the others are each asked. */
static int gather_pools(const dsi_cluster *c, const dsi_dra_state *st, const dsi_node *node, pool **out, uint32_t *nout)
{
	pool *p = NULL;
	uint32_t n = 0;
	*out = NULL;
	*nout = 0;
	const char *name = dsi_cstr(c, node->meta.name);
	size_t lo = 0, hi = st->nnamed;
	while (lo < hi) { /* the first slice named for the node or after it */
		size_t mid = (lo + hi) / 2;
		if (strcmp(st->slices[mid]->node_name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t first = lo, end = lo;
	while (end < st->nnamed && strcmp(st->slices[end]->node_name, name) == 0)
		end++;
	size_t own = end - first, cand = own + (st->nslices - st->nnamed);
	if (cand && !(p = dsi_calloc(cand, sizeof(*p))))
		return -1;
	for (size_t j = 0; j < cand; j++) {
		const dsi_resource_slice *s = j < own ? st->slices[first + j] : st->slices[st->nnamed + (j - own)];
		if (j >= own && !slice_for_node(c, s, node))
			continue;
		uint32_t k;
		for (k = 0; k < n; k++)
			if (strcmp(p[k].driver, s->driver) == 0 && strcmp(p[k].name, s->pool) == 0)
				break;
		if (k == n) {
			if (!(p[n].slices = dsi_calloc(cand, sizeof(*p[n].slices)))) {
				pools_free(p, n);
				return -1;
			}
			p[n].driver = s->driver;
			p[n].name = s->pool;
			p[n].generation = s->generation;
			n++;
		} else if (s->generation < p[k].generation) {
			continue; /* out-dated */
		} else if (s->generation > p[k].generation) {
			p[k].n = 0; /* newer: replaces the old slices */
			p[k].generation = s->generation;
		}
		p[k].slices[p[k].n++] = s;
	}
	for (uint32_t k = 0; k < n; k++) {
		p[k].incomplete = (int64_t)p[k].n != p[k].slices[0]->slice_count;
		/* poolIsInvalid: a device name twice */
		for (uint32_t a = 0; a < p[k].n && !p[k].invalid; a++)
			for (uint32_t i = 0; i < p[k].slices[a]->ndevices && !p[k].invalid; i++)
				for (uint32_t b = a; b < p[k].n && !p[k].invalid; b++)
					for (uint32_t j = b == a ? i + 1 : 0; j < p[k].slices[b]->ndevices; j++)
						if (strcmp(p[k].slices[a]->devices[i], p[k].slices[b]->devices[j]) ==
						    0) {
							p[k].invalid = 1;
							break;
						}
	}
	*out = p;
	*nout = n;
	return 0;
}

/* The driver a request's devices must have: NULL any; *none when no device can match. */
static const char *want_driver(const dsi_dra_want *w, int *none)
{
	const char *a = w->cls->sel.driver, *b = w->req->sel.driver;
	*none = w->cls->sel.nothing || w->req->sel.nothing || (a && b && strcmp(a, b) != 0);
	return a ? a : b;
}

/* Devices taken by the "All" requests: a small set, kept as an array. */
typedef struct taken {
	dsi_dra_device_ref *v;
	size_t n, cap;
} taken;

static int taken_has(const taken *t, const dsi_dra_device_ref *d)
{
	for (size_t i = 0; i < t->n; i++)
		if (!cmp_ref(&t->v[i], d))
			return 1;
	return 0;
}

/* Per driver: devices free for ExactCount and what is asked of them. */
typedef struct per_driver {
	const char *driver;
	int64_t free, asked;
} per_driver;

static per_driver *driver_slot(per_driver *v, uint32_t *n, const char *d)
{
	for (uint32_t i = 0; i < *n; i++)
		if (strcmp(v[i].driver, d) == 0)
			return &v[i];
	v[*n].driver = d;
	v[*n].free = v[*n].asked = 0;
	return &v[(*n)++];
}

/* Allocate (allocator_stable.go) for the claims to allocate: DSI_DRA_OK, DSI_DRA_FAIL ("cannot
 * allocate all claims"), DSI_DRA_ERROR with msg, or -1 without memory. */
static int allocate(const dsi_cluster *c, const dsi_dra_state *st, const dsi_node *node, char *msg, size_t size)
{
	pool *pools;
	uint32_t npools;
	if (gather_pools(c, st, node, &pools, &npools) < 0)
		return -1;
	int rc = DSI_DRA_OK;
	taken t = {0};
	per_driver *drv = NULL;
	uint32_t ndrv = 0;
	size_t ndevices = 0;
	for (uint32_t k = 0; k < npools; k++)
		for (uint32_t a = 0; a < pools[k].n; a++)
			ndevices += pools[k].slices[a]->ndevices;
	if (!(drv = dsi_calloc(npools + st->nwant + 1, sizeof(*drv)))) {
		pools_free(pools, npools);
		return -1;
	}
	/* validateDeviceRequest and the per-claim limit, claim by claim, request by request */
	int64_t claim_devices = 0;
	for (uint32_t w = 0; w < st->nwant && rc == DSI_DRA_OK; w++) {
		const dsi_dra_want *x = &st->want[w];
		if (x->req) {
			int none;
			const char *d = want_driver(x, &none);
			if (!x->req->all) {
				claim_devices += x->req->count;
			} else {
				int64_t all = 0;
				for (uint32_t k = 0; k < npools && rc == DSI_DRA_OK; k++) {
					if (pools[k].incomplete || pools[k].invalid) {
						snprintf(
							msg, size,
							"claim %s, request %s: asks for all devices, but resource pool "
							"%s/%s is currently %s",
							st->claim_refs[x->claim], x->req->name, pools[k].driver,
							pools[k].name,
							pools[k].incomplete ? "being updated" : "invalid");
						rc = DSI_DRA_ERROR;
						break;
					}
					if (none || (d && strcmp(d, pools[k].driver) != 0))
						continue;
					for (uint32_t a = 0; a < pools[k].n; a++)
						all += pools[k].slices[a]->ndevices;
				}
				claim_devices += all;
			}
		}
		int last = w + 1 == st->nwant || st->want[w + 1].claim != x->claim;
		if (rc == DSI_DRA_OK && last) {
			if (claim_devices > DSI_DRA_MAX_RESULTS) {
				snprintf(msg, size,
					 "claim %s: number of requested devices %lld exceeds the claim limit of %d",
					 st->claim_refs[x->claim], (long long)claim_devices, DSI_DRA_MAX_RESULTS);
				rc = DSI_DRA_ERROR;
			}
			claim_devices = 0;
		}
	}
	/* "All" requests take every matching device, which must be free; they must not overlap */
	for (uint32_t w = 0; w < st->nwant && rc == DSI_DRA_OK; w++) {
		const dsi_dra_want *x = &st->want[w];
		if (!x->req || !x->req->all)
			continue;
		int none;
		const char *d = want_driver(x, &none);
		size_t got = 0;
		for (uint32_t k = 0; k < npools && rc == DSI_DRA_OK; k++) {
			if (none || (d && strcmp(d, pools[k].driver) != 0))
				continue;
			for (uint32_t a = 0; a < pools[k].n && rc == DSI_DRA_OK; a++)
				for (uint32_t i = 0; i < pools[k].slices[a]->ndevices; i++) {
					dsi_dra_device_ref ref = {pools[k].driver, pools[k].name,
								  pools[k].slices[a]->devices[i]};
					got++;
					if (in_use(st, &ref) || taken_has(&t, &ref)) {
						rc = DSI_DRA_FAIL;
						break;
					}
					if (DSI_GROW(t.v, t.cap, t.n + 1) < 0) {
						rc = -1;
						break;
					}
					t.v[t.n++] = ref;
				}
		}
		if (rc == DSI_DRA_OK && !got) /* at least one device for All */
			rc = DSI_DRA_FAIL;
	}
	/* ExactCount: Hall's condition per driver and over all free devices */
	if (rc == DSI_DRA_OK) {
		int64_t free_all = 0, asked_all = 0;
		for (uint32_t k = 0; k < npools; k++) {
			if (pools[k].incomplete || pools[k].invalid) /* not allocated from */
				continue;
			per_driver *pd = driver_slot(drv, &ndrv, pools[k].driver);
			for (uint32_t a = 0; a < pools[k].n; a++)
				for (uint32_t i = 0; i < pools[k].slices[a]->ndevices; i++) {
					dsi_dra_device_ref ref = {pools[k].driver, pools[k].name,
								  pools[k].slices[a]->devices[i]};
					if (!in_use(st, &ref) && !taken_has(&t, &ref)) {
						pd->free++;
						free_all++;
					}
				}
		}
		for (uint32_t w = 0; w < st->nwant && rc == DSI_DRA_OK; w++) {
			const dsi_dra_want *x = &st->want[w];
			if (!x->req || x->req->all || x->req->count <= 0)
				continue;
			int none;
			const char *d = want_driver(x, &none);
			asked_all += x->req->count;
			if (none) {
				rc = DSI_DRA_FAIL;
				break;
			}
			if (d)
				driver_slot(drv, &ndrv, d)->asked += x->req->count;
		}
		for (uint32_t i = 0; i < ndrv && rc == DSI_DRA_OK; i++)
			if (drv[i].asked > drv[i].free)
				rc = DSI_DRA_FAIL;
		if (rc == DSI_DRA_OK && asked_all > free_all)
			rc = DSI_DRA_FAIL;
	}
	(void)ndevices;
	dsi_free(t.v);
	dsi_free(drv);
	pools_free(pools, npools);
	if (rc == DSI_DRA_FAIL)
		snprintf(msg, size, "cannot allocate all claims");
	return rc;
}

/* Filter (dynamicresources.go) */
int dsi_dra_filter(const dsi_cluster *c, const dsi_dra_state *st, const dsi_node *node, char *msg, size_t size,
		   const char **why)
{
	*why = NULL;
	if (st->error) {
		snprintf(msg, size, "%s", st->error);
		return st->error_is_error ? DSI_DRA_ERROR : DSI_DRA_FAIL;
	}
	if (st->not_evaluated) {
		*why = st->not_evaluated;
		return DSI_DRA_NOT_EVALUATED;
	}
	if (st->skip)
		return DSI_DRA_OK;
	int unavailable = 0;
	for (uint32_t i = 0; i < st->nclaims; i++) {
		const dsi_resource_claim *cl = st->claims[i];
		if (cl->allocated && cl->has_selector && !dsi_node_selector_matches(&c->atoms, &cl->selector, node))
			unavailable = 1;
	}
	if (st->nwant) {
		if (st->alloc_not_evaluated) {
			*why = st->alloc_not_evaluated;
			return DSI_DRA_NOT_EVALUATED;
		}
		int rc = allocate(c, st, node, msg, size);
		if (rc < 0) {
			*why = "out of memory";
			return DSI_DRA_NOT_EVALUATED;
		}
		if (rc != DSI_DRA_OK)
			return rc;
	}
	if (unavailable) {
		snprintf(msg, size, "resourceclaim not available on the node");
		return DSI_DRA_FAIL;
	}
	return DSI_DRA_OK;
}
