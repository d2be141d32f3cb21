/*
 * Differential test of the filters that read the whole cluster (PodTopologySpread,
 * InterPodAffinity) and of VolumeRestrictions' disk conflicts: the pure function ds_scheduler_filter(3), given the
 * daemon pod of ds_daemonset_new_pod(3) for a node and every Node, Pod and Namespace as objects, against the snapshot
 * path, ds_daemonset_explain(3) on a snapshot of the same objects (one PreFilter per DaemonSet, the daemon pod's node
 * pin taken into account without a pod). On randomly generated clusters (zones, hostnames, racks, taints; pods of two
 * namespaces, some Succeeded, some terminating, some bound to a node that does not exist, some with required
 * anti-affinity) and DaemonSets (required pod affinity and anti-affinity, DoNotSchedule spread constraints with
 * minDomains, nodeAffinityPolicy, nodeTaintsPolicy and matchLabelKeys, pod (anti-)affinity terms with namespaces,
 * namespaceSelectors, matchLabelKeys and mismatchLabelKeys, nodeSelectors, tolerations), every node that explain puts
 * to the scheduler is one case: both paths must give the same reasons (plugin and message) for the three plugins, and
 * list them alike as ran or skipped (pods and templates draw GCE PD volumes, read-only or not). Two clusters in five
 * also hold DeviceClasses (none, a driver selector, other CEL), ResourceSlices (per node, some pools incomplete, one
 * for all nodes, one by zone) and ResourceClaims (ExactCount or All, some allocated to a node), and their DaemonSet
 * claims one or two of them by name (or one that does not exist): DynamicResources is compared as well, its
 * reasons and whether it ran, was skipped or was not evaluated.
 * The volume filters too: some clusters carry PersistentVolumeClaims (ReadWriteOncePod or not, bound
 * to a PersistentVolume of one of two CSI drivers, or to one that is gone, or not bound, with a
 * StorageClass), PersistentVolumes and CSINodes with attach limits; pods and templates draw
 * persistentVolumeClaim volumes, some naming a claim that does not exist, and volumes and nodes
 * carry zone labels: VolumeRestrictions', NodeVolumeLimits' and VolumeZone's reasons and their
 * place in filters (ran, skipped, notEvaluated) must agree.
 *
 * Deterministic: DS_DIFF_SEED seeds the generator; DS_DIFF_CLUSTER_CASES (default 50000) is the
 * number of cases, DS_DIFF_CASES / 3 when only that is set (make sanitize sets it to 30000).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vectors.h"

#define DEFAULT_SEED 20261205u
#define DEFAULT_CASES 50000

static uint64_t state;
static uint32_t rnd(uint32_t n) { return n ? (uint32_t)(dsi_test_rand(&state) >> 11) % n : 0; }
static int chance(unsigned percent) { return rnd(100) < percent; }
#define PICK(arr) ((arr)[rnd(sizeof(arr) / sizeof((arr)[0]))])

static const char *const APPS[] = {"agent", "web", "db"};
static const char *const TIERS[] = {"a", "b"};
static const char *const ZONES[] = {"z1", "z2", "z3"};
static const char *const KEYS[] = {"zone", "kubernetes.io/hostname", "rack"};

static json_t *selector(void)
{
	switch (rnd(4)) {
	case 0: return json_pack("{s:{s:s}}", "matchLabels", "app", PICK(APPS));
	case 1: return json_pack("{s:[{s:s, s:s}]}", "matchExpressions", "key", "app", "operator", "Exists");
	case 2:
		return json_pack("{s:[{s:s, s:s, s:[s, s]}]}", "matchExpressions", "key", "app", "operator", "In",
				 "values", PICK(APPS), PICK(APPS));
	default: return json_pack("{s:[{s:s, s:s}]}", "matchExpressions", "key", "tier", "operator", "Exists");
	}
}

static json_t *term(void)
{
	json_t *t = json_pack("{s:o, s:s}", "labelSelector", selector(), "topologyKey", PICK(KEYS));
	switch (rnd(6)) {
	case 0: json_object_set_new(t, "namespaces", json_pack("[s]", "other")); break;
	case 1: json_object_set_new(t, "namespaceSelector", json_object()); break;
	case 2:
		json_object_set_new(t, "namespaceSelector",
				    json_pack("{s:{s:s}}", "matchLabels", "team", chance(50) ? "x" : "y"));
		break;
	default: break;
	}
	if (chance(15))
		json_object_set_new(t, chance(50) ? "matchLabelKeys" : "mismatchLabelKeys", json_pack("[s]", "tier"));
	return t;
}

static json_t *node(unsigned i)
{
	char name[16];
	snprintf(name, sizeof(name), "n%u", i);
	json_t *labels = json_object();
	if (chance(90))
		json_object_set_new(labels, "zone", json_string(PICK(ZONES)));
	if (chance(80)) /* VolumeZone's key */
		json_object_set_new(labels, "topology.kubernetes.io/zone", json_string(PICK(ZONES)));
	if (chance(90))
		json_object_set_new(labels, "kubernetes.io/hostname", json_string(name));
	if (chance(50))
		json_object_set_new(labels, "rack", json_string(chance(50) ? "r1" : "r2"));
	json_t *n = json_pack("{s:s, s:s, s:{s:s, s:o}, s:{s:{s:s}}}", "apiVersion", "v1", "kind", "Node", "metadata",
			      "name", name, "labels", labels, "status", "allocatable", "pods", "110");
	if (chance(20))
		json_object_set_new(n, "spec",
				    json_pack("{s:[{s:s, s:s, s:s}]}", "taints", "key", "dedicated", "value", "x",
					      "effect", "NoSchedule"));
	return n;
}

/* persistentVolumeClaim volumes of claims c0..c4 (c4 never exists), or none. */
static json_t *claim_volumes(void)
{
	json_t *vols = json_array();
	unsigned n = chance(70) ? 0 : 1 + rnd(2);
	for (unsigned i = 0; i < n; i++) {
		char claim[16], vname[16];
		snprintf(claim, sizeof(claim), "c%u", rnd(5));
		snprintf(vname, sizeof(vname), "v%u", i);
		json_array_append_new(
			vols, json_pack("{s:s, s:{s:s}}", "name", vname, "persistentVolumeClaim", "claimName", claim));
	}
	return vols;
}

/* The storage objects of a cluster (none in a third of them): claims c0..c3 in default, their
 * volumes, a StorageClass, CSINodes for some nodes. */
static void storage(json_t *objects, unsigned nnodes)
{
	if (chance(33))
		return;
	static const char *const drivers[] = {"d1.csi.example.com", "d2.csi.example.com"};
	for (unsigned i = 0; i < 4; i++) {
		char name[16], pv[16], handle[16];
		snprintf(name, sizeof(name), "c%u", i);
		snprintf(pv, sizeof(pv), "pv%u", i);
		snprintf(handle, sizeof(handle), "h%u", rnd(3));
		json_t *spec = json_pack("{s:[s]}", "accessModes", chance(40) ? "ReadWriteOncePod" : "ReadWriteOnce");
		unsigned how = rnd(4);
		if (how < 2) /* bound, to a volume that exists (0) or not (1) */
			json_object_set_new(spec, "volumeName", json_string(pv));
		if (how != 2) /* a class: also the fallback for a volume that is gone */
			json_object_set_new(spec, "storageClassName", json_string("sc"));
		json_array_append_new(objects, json_pack("{s:s, s:s, s:{s:s, s:s}, s:o}", "apiVersion", "v1", "kind",
							 "PersistentVolumeClaim", "metadata", "name", name, "namespace",
							 "default", "spec", spec));
		if (how == 0) {
			json_t *v = json_pack("{s:s, s:s, s:{s:s}, s:{s:{s:s, s:s}}}", "apiVersion", "v1", "kind",
					      "PersistentVolume", "metadata", "name", pv, "spec", "csi", "driver",
					      PICK(drivers), "volumeHandle", handle);
			if (chance(90)) /* a zone, or two */
				json_object_set_new(json_object_get(v, "metadata"), "labels",
						    json_pack("{s:s}", "topology.kubernetes.io/zone",
							      chance(70) ? PICK(ZONES) : "z1__z2"));
			json_array_append_new(objects, v);
		}
	}
	json_array_append_new(objects, json_pack("{s:s, s:s, s:{s:s}, s:s}", "apiVersion", "storage.k8s.io/v1", "kind",
						 "StorageClass", "metadata", "name", "sc", "provisioner", drivers[0]));
	for (unsigned i = 0; i < nnodes; i++) {
		if (chance(30))
			continue;
		char name[16];
		snprintf(name, sizeof(name), "n%u", i);
		json_t *ds = json_array();
		for (unsigned d = 0; d < 2; d++)
			if (chance(70))
				json_array_append_new(ds, json_pack("{s:s, s:s, s:{s:i}}", "name", drivers[d], "nodeID",
								    name, "allocatable", "count", (int)rnd(3)));
		json_array_append_new(objects,
				      json_pack("{s:s, s:s, s:{s:s}, s:{s:o}}", "apiVersion", "storage.k8s.io/v1",
						"kind", "CSINode", "metadata", "name", name, "spec", "drivers", ds));
	}
}

static json_t *pod(unsigned i, unsigned nnodes)
{
	char name[16], nn[16];
	snprintf(name, sizeof(name), "p%u", i);
	unsigned k = rnd(nnodes + 1);
	if (k == nnodes)
		snprintf(nn, sizeof(nn), "ghost");
	else
		snprintf(nn, sizeof(nn), "n%u", k);
	json_t *labels = json_object();
	if (chance(80))
		json_object_set_new(labels, "app", json_string(PICK(APPS)));
	if (chance(50))
		json_object_set_new(labels, "tier", json_string(PICK(TIERS)));
	json_t *meta = json_pack("{s:s, s:s, s:o}", "name", name, "namespace", chance(80) ? "default" : "other",
				 "labels", labels);
	if (chance(5))
		json_object_set_new(meta, "deletionTimestamp", json_string("2026-01-01T00:00:00Z"));
	json_t *spec = json_pack("{s:s, s:[{s:s, s:s}]}", "nodeName", nn, "containers", "name", "c", "image", "i");
	if (chance(20))
		json_object_set_new(spec, "affinity",
				    json_pack("{s:{s:[o]}}", "podAntiAffinity",
					      "requiredDuringSchedulingIgnoredDuringExecution", term()));
	json_t *vols = claim_volumes();
	if (json_array_size(vols))
		json_object_set_new(spec, "volumes", vols);
	else
		json_decref(vols);
	json_t *p =
		json_pack("{s:s, s:s, s:o, s:o}", "apiVersion", "v1", "kind", "Pod", "metadata", meta, "spec", spec);
	if (chance(5))
		json_object_set_new(p, "status", json_pack("{s:s}", "phase", "Succeeded"));
	return p;
}

static json_t *spread(void)
{
	json_t *c = json_pack("{s:i, s:s, s:s, s:o}", "maxSkew", 1 + (int)rnd(2), "topologyKey", PICK(KEYS),
			      "whenUnsatisfiable", chance(85) ? "DoNotSchedule" : "ScheduleAnyway", "labelSelector",
			      selector());
	if (chance(30))
		json_object_set_new(c, "minDomains", json_integer(2 + rnd(3)));
	if (chance(40))
		json_object_set_new(c, "nodeAffinityPolicy", json_string(chance(70) ? "Ignore" : "Honor"));
	if (chance(30))
		json_object_set_new(c, "nodeTaintsPolicy", json_string(chance(70) ? "Honor" : "Ignore"));
	if (chance(20))
		json_object_set_new(c, "matchLabelKeys", json_pack("[s]", "tier"));
	return c;
}

static json_t *pod_claims(void);

static json_t *daemonset(int with_dra)
{
	json_t *labels = json_pack("{s:s}", "app", "agent");
	if (chance(50))
		json_object_set_new(labels, "tier", json_string(PICK(TIERS)));
	json_t *spec = json_pack("{s:[{s:s, s:s}]}", "containers", "name", "c", "image", "i");
	json_t *aff = json_object();
	if (chance(50)) {
		json_t *terms = json_pack("[o]", term());
		if (chance(30))
			json_array_append_new(terms, term());
		json_object_set_new(aff, "podAntiAffinity",
				    json_pack("{s:o}", "requiredDuringSchedulingIgnoredDuringExecution", terms));
	}
	if (chance(25))
		json_object_set_new(aff, "podAffinity",
				    json_pack("{s:[o]}", "requiredDuringSchedulingIgnoredDuringExecution", term()));
	if (json_object_size(aff))
		json_object_set_new(spec, "affinity", aff);
	else
		json_decref(aff);
	if (chance(50)) {
		json_t *cs = json_pack("[o]", spread());
		if (chance(30))
			json_array_append_new(cs, spread());
		json_object_set_new(spec, "topologySpreadConstraints", cs);
	}
	if (chance(15))
		json_object_set_new(spec, "nodeSelector", json_pack("{s:s}", "zone", PICK(ZONES)));
	if (chance(30))
		json_object_set_new(spec, "tolerations",
				    json_pack("[{s:s, s:s}]", "key", "dedicated", "operator", "Exists"));
	json_t *vols = claim_volumes();
	if (json_array_size(vols) || chance(50)) { /* templates: with claims more often than pods */
		json_t *more = claim_volumes();
		json_array_extend(vols, more);
		json_decref(more);
	}
	if (json_array_size(vols))
		json_object_set_new(spec, "volumes", vols);
	else
		json_decref(vols);
	if (with_dra)
		json_object_set_new(spec, "resourceClaims", pod_claims());
	return json_pack("{s:s, s:s, s:{s:s, s:s, s:s}, s:{s:{s:{s:s}}, s:{s:{s:o}, s:o}}}", "apiVersion", "apps/v1",
			 "kind", "DaemonSet", "metadata", "name", "ds", "namespace", "default", "uid", "uid-ds", "spec",
			 "selector", "matchLabels", "app", "agent", "template", "metadata", "labels", labels, "spec",
			 spec);
}

static int compared(const char *p)
{
	return strcmp(p, "PodTopologySpread") == 0 || strcmp(p, "InterPodAffinity") == 0 ||
	       strcmp(p, "VolumeRestrictions") == 0 || strcmp(p, "NodeVolumeLimits") == 0 ||
	       strcmp(p, "VolumeZone") == 0 || strcmp(p, "DynamicResources") == 0;
}

/* ---- dynamic resource allocation: classes, slices, claims, and the template's resourceClaims ---- */

static const char *const DRIVERS[] = {"gpu.example.com", "nic.example.com"};
static const char *const CLASSES[] = {"any", "gpu", "gpu", "any", "any", "gpu", "cel", "missing"};

static json_t *device_class(const char *name, const char *expr)
{
	json_t *c = json_pack("{s:s, s:s, s:{s:s}, s:{}}", "apiVersion", "resource.k8s.io/v1", "kind", "DeviceClass",
			      "metadata", "name", name, "spec");
	if (expr)
		json_object_set_new(json_object_get(c, "spec"), "selectors",
				    json_pack("[{s:{s:s}}]", "cel", "expression", expr));
	return c;
}

/* A slice of driver d in pool pool with n devices named <pool>-<i>; where: nodeName, allNodes or a
 * zone selector. */
static json_t *resource_slice(const char *name, const char *d, const char *pool, unsigned n, json_t *where, int count)
{
	json_t *devs = json_array();
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(devs, json_pack("{s:o}", "name", json_sprintf("%s-%u", pool, i)));
	json_t *spec = json_pack("{s:s, s:{s:s, s:i}, s:o}", "driver", d, "pool", "name", pool, "resourceSliceCount",
				 count, "devices", devs);
	json_object_update(spec, where);
	json_decref(where);
	return json_pack("{s:s, s:s, s:{s:s}, s:o}", "apiVersion", "resource.k8s.io/v1", "kind", "ResourceSlice",
			 "metadata", "name", name, "spec", spec);
}

/* Classes, slices and claims c0..c3 over nn nodes, appended to objects. */
static void dra_objects(json_t *objects, unsigned nn)
{
	json_array_append_new(objects, device_class("any", NULL));
	json_array_append_new(objects, device_class("gpu", "device.driver == \"gpu.example.com\""));
	json_array_append_new(objects, device_class("cel", "device.attributes[\"x\"].ok"));
	char name[32], pool[32];
	for (unsigned i = 0; i < nn; i++) {
		if (!chance(80))
			continue;
		const char *d = PICK(DRIVERS);
		snprintf(name, sizeof(name), "s-n%u", i);
		snprintf(pool, sizeof(pool), "n%u-%c", i, d[0]);
		/* one in ten pools says it has two slices: incomplete */
		json_array_append_new(objects,
				      resource_slice(name, d, pool, 1 + rnd(3),
						     json_pack("{s:s}", "nodeName", name + 2), chance(10) ? 2 : 1));
	}
	if (chance(30))
		json_array_append_new(objects, resource_slice("s-all", "nic.example.com", "shared", 1 + rnd(2),
							      json_pack("{s:b}", "allNodes", 1), 1));
	if (chance(20))
		json_array_append_new(objects,
				      resource_slice("s-zone", "gpu.example.com", "zonal", 1 + rnd(2),
						     json_pack("{s:{s:[{s:[{s:s, s:s, s:[s]}]}]}}", "nodeSelector",
							       "nodeSelectorTerms", "matchExpressions", "key", "zone",
							       "operator", "In", "values", PICK(ZONES)),
						     1));
	for (unsigned c = 0; c < 4; c++) {
		snprintf(name, sizeof(name), "c%u", c);
		json_t *ex = json_pack("{s:s}", "deviceClassName", PICK(CLASSES));
		if (chance(20))
			json_object_set_new(ex, "allocationMode", json_string("All"));
		else
			json_object_set_new(ex, "count", json_integer(chance(70) ? 1 : 2));
		json_t *claim =
			json_pack("{s:s, s:s, s:{s:s, s:s}, s:{s:{s:[{s:s, s:o}]}}}", "apiVersion",
				  "resource.k8s.io/v1", "kind", "ResourceClaim", "metadata", "name", name, "namespace",
				  "default", "spec", "devices", "requests", "name", "r", "exactly", ex);
		if (chance(40)) { /* allocated to a node: that node's pool's first device */
			unsigned k = rnd(nn);
			snprintf(pool, sizeof(pool), "n%u", k);
			json_t *res = json_array();
			for (size_t d = 0; d < 2; d++) {
				char p2[40], dev[48];
				snprintf(p2, sizeof(p2), "n%u-%c", k, DRIVERS[d][0]);
				snprintf(dev, sizeof(dev), "%s-0", p2);
				if (chance(50))
					json_array_append_new(res, json_pack("{s:s, s:s, s:s, s:s}", "request", "r",
									     "driver", DRIVERS[d], "pool", p2, "device",
									     dev));
			}
			json_object_set_new(claim, "status",
					    json_pack("{s:{s:{s:o}, s:{s:[{s:[{s:s, s:s, s:[s]}]}]}}}", "allocation",
						      "devices", "results", res, "nodeSelector", "nodeSelectorTerms",
						      "matchFields", "key", "metadata.name", "operator", "In", "values",
						      pool));
		}
		json_array_append_new(objects, claim);
	}
}

/* The template's resourceClaims: one or two, by name (c0..c3, or one that does not exist). */
static json_t *pod_claims(void)
{
	json_t *a = json_array();
	unsigned n = chance(70) ? 1 : 2;
	for (unsigned i = 0; i < n; i++) {
		char ref[16];
		if (chance(5))
			snprintf(ref, sizeof(ref), "absent");
		else
			snprintf(ref, sizeof(ref), "c%u", rnd(4));
		json_array_append_new(
			a, json_pack("{s:o, s:s}", "name", json_sprintf("claim%u", i), "resourceClaimName", ref));
	}
	return a;
}

/* The plugins' reasons as "plugin: message" strings, and their place in filters. */
static json_t *summary(const json_t *reasons, const json_t *filters)
{
	json_t *out = json_pack("{s:[], s:[], s:[], s:[]}", "reasons", "ran", "skipped", "notEvaluated");
	size_t i;
	json_t *r;
	json_array_foreach(reasons, i, r)
	{
		const char *p = json_string_value(json_object_get(r, "plugin"));
		if (compared(p))
			json_array_append_new(
				json_object_get(out, "reasons"),
				json_sprintf("%s: %s", p, json_string_value(json_object_get(r, "message"))));
	}
	const char *lists[] = {"ran", "skipped", "notEvaluated"};
	for (size_t l = 0; l < 3; l++)
		json_array_foreach(json_object_get(filters, lists[l]), i, r)
		{
			const char *p = json_string_value(r);
			if (compared(p))
				json_array_append_new(json_object_get(out, lists[l]), json_string(p));
		}
	return out;
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
	const char *v = getenv(name);
	return v && *v ? strtoull(v, NULL, 10) : dflt;
}

START_TEST(pure_against_snapshot)
{
	state = env_u64("DS_DIFF_SEED", DEFAULT_SEED);
	if (!state)
		state = 1;
	uint64_t want = getenv("DS_DIFF_CLUSTER_CASES") ? env_u64("DS_DIFF_CLUSTER_CASES", DEFAULT_CASES)
			: getenv("DS_DIFF_CASES")       ? env_u64("DS_DIFF_CASES", 3 * DEFAULT_CASES) / 3
							: DEFAULT_CASES;
	uint64_t cases = 0, failing = 0, scenarios = 0, with_pts = 0, with_ipa = 0, with_dra_fail = 0, with_dra_ran = 0,
		 with_dra_ne = 0;
	uint64_t with_rwop = 0, with_limit = 0, with_missing = 0, limits_ran = 0, with_zone = 0;
	while (cases < want) {
		scenarios++;
		unsigned nn = 3 + rnd(6), np = rnd(21);
		json_t *nodes = json_array(), *objects = json_array();
		for (unsigned i = 0; i < nn; i++)
			json_array_append_new(nodes, node(i));
		json_array_extend(objects, nodes);
		for (unsigned i = 0; i < np; i++)
			json_array_append_new(objects, pod(i, nn));
		json_array_append_new(objects,
				      json_pack("{s:s, s:s, s:{s:s, s:{s:s}}}", "apiVersion", "v1", "kind", "Namespace",
						"metadata", "name", "other", "labels", "team", "x"));
		storage(objects, nn);
		/* two clusters in five have DRA objects and a DaemonSet with claims */
		int with_dra = chance(40);
		if (with_dra)
			dra_objects(objects, nn);
		json_t *ds = daemonset(with_dra);
		char *ds_text = json_dumps(ds, JSON_COMPACT), *objs_text = json_dumps(objects, JSON_COMPACT);
		json_t *all = json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List", "items", objects);
		json_array_append(json_object_get(all, "items"), ds);
		char *all_text = json_dumps(all, JSON_COMPACT);
		ds_cluster *c = dsi_test_cluster_text(all_text);
		char *out = NULL;
		ds_error err;
		ck_assert_msg(ds_daemonset_explain(c, "default", "ds", NULL, &out, &err) == 0, "explain: %s",
			      err.message);
		json_t *doc = dsi_test_take_json(out);
		size_t i;
		json_t *row;
		json_array_foreach(json_object_get(doc, "rows"), i, row)
		{
			const json_t *filters = json_object_get(row, "filters");
			if (!filters)
				continue;
			const char *name = json_string_value(json_object_get(row, "node"));
			json_t *n = NULL, *x;
			size_t k;
			json_array_foreach(nodes, k, x) if (strcmp(json_string_value(json_object_get(
									   json_object_get(x, "metadata"), "name")),
								   name) == 0) n = x;
			ck_assert_ptr_nonnull(n);
			char *pod_text = NULL;
			ck_assert_msg(
				ds_daemonset_new_pod(ds_text, strlen(ds_text), name, NULL, NULL, &pod_text, &err) == 0,
				"new pod: %s", err.message);
			char *node_text = json_dumps(n, JSON_COMPACT), *res = NULL;
			int rc = ds_scheduler_filter(pod_text, strlen(pod_text), node_text, strlen(node_text),
						     objs_text, strlen(objs_text), NULL, &res, &err);
			ck_assert_msg(rc == 0, "scheduler filter: %s %s", err.path, err.message);
			json_t *pure = dsi_test_take_json(res);
			json_t *a = summary(json_object_get(pure, "reasons"), json_object_get(pure, "filters"));
			json_t *b = summary(json_object_get(row, "scheduler"), filters);
			json_t *g;
			json_array_foreach(json_object_get(a, "reasons"), k, g)
			{
				with_pts += strncmp(json_string_value(g), "PodTopologySpread", 17) == 0;
				with_ipa += strncmp(json_string_value(g), "InterPodAffinity", 16) == 0;
				with_rwop += strstr(json_string_value(g), "ReadWriteOncePod") != NULL;
				with_limit += strstr(json_string_value(g), "max volume count") != NULL;
				with_zone += strstr(json_string_value(g), "available volume zone") != NULL;
				with_missing += strncmp(json_string_value(g), "DynamicResources", 16) != 0 &&
						strstr(json_string_value(g), "not found") != NULL;
				with_dra_fail += strncmp(json_string_value(g), "DynamicResources", 16) == 0 &&
						 !strstr(json_string_value(g), "not evaluated");
			}
			json_array_foreach(json_object_get(a, "ran"), k, g) limits_ran +=
				strcmp(json_string_value(g), "NodeVolumeLimits") == 0;
			with_dra_ran += json_array_size(json_object_get(a, "ran")) &&
					strcmp(json_string_value(
						       json_array_get(json_object_get(a, "ran"),
								      json_array_size(json_object_get(a, "ran")) - 1)),
					       "DynamicResources") == 0;
			json_array_foreach(json_object_get(a, "notEvaluated"), k, g) with_dra_ne +=
				strcmp(json_string_value(g), "DynamicResources") == 0;
			if (!json_equal(a, b)) {
				failing++;
				if (failing <= 3) {
					char *sa = vt_dump(a), *sb = vt_dump(b);
					printf("case %" PRIu64
					       " node %s: pure %s, explain %s\n  objects %s\n  daemonset %s\n",
					       cases, name, sa, sb, objs_text, ds_text);
					free(sa);
					free(sb);
				}
			}
			json_decref(a);
			json_decref(b);
			json_decref(pure);
			ds_free(pod_text);
			free(node_text);
			cases++;
		}
		json_decref(doc);
		ds_cluster_free(c);
		free(ds_text);
		free(objs_text);
		free(all_text);
		json_decref(all);
		json_decref(ds);
		json_decref(objects);
		json_decref(nodes);
	}
	printf("cluster filters, pure vs snapshot: %" PRIu64 " cases over %" PRIu64 " clusters (%" PRIu64
	       " with a PodTopologySpread failure, %" PRIu64 " with an InterPodAffinity one, %" PRIu64
	       " with a ReadWriteOncePod conflict, %" PRIu64 " with NodeVolumeLimits run, %" PRIu64
	       " over a volume limit, %" PRIu64 " with a claim not found, %" PRIu64
	       " with a volume zone conflict; DynamicResources ran on %" PRIu64 ", failed on %" PRIu64
	       ", not evaluated on %" PRIu64 "), %" PRIu64 " differ (DS_DIFF_SEED=%" PRIu64 ")\n",
	       cases, scenarios, with_pts, with_ipa, with_rwop, limits_ran, with_limit, with_missing, with_zone,
	       with_dra_ran, with_dra_fail, with_dra_ne, failing, env_u64("DS_DIFF_SEED", DEFAULT_SEED));
	/* the generator must reach the plugins' failures, or the comparison proves little */
	ck_assert_msg(with_pts > cases / 50 && with_ipa > cases / 50, "too few failures to compare");
	ck_assert_msg(with_dra_ran > cases / 50 && with_dra_fail > cases / 50 && with_dra_ne > cases / 100,
		      "too few DynamicResources outcomes to compare");
	ck_assert_msg(with_rwop > cases / 100 && with_limit > cases / 100 && with_missing > cases / 100 &&
			      with_zone > cases / 100 && limits_ran > cases / 20,
		      "too few volume filter outcomes to compare");
	ck_assert_msg(failing == 0, "%" PRIu64 " of %" PRIu64 " cases differ", failing, cases);
}
END_TEST

static Suite *diff_cluster_filters_suite(void)
{
	Suite *s = suite_create("diff_cluster_filters");
	TCase *tc = tcase_create("diff");
	tcase_set_timeout(tc, 900);
	tcase_add_test(tc, pure_against_snapshot);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(diff_cluster_filters_suite)
