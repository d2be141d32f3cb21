/*
 * DynamicResources (kube-scheduler plugins/dynamicresources/dynamicresources.go) through the public
 * pure function ds_scheduler_filter(3) and the snapshot path (ds_daemonset_explain(3)).
 *
 * The subset the library evaluates, and why (lib/sched/dynamicresources.c has the rules):
 * - PreEnqueue/PreFilter whole: claims by name and through status.resourceClaimStatuses, a missing
 *   claim, a claim being deleted, a template claim the pod does not own, a missing DeviceClass. These
 *   are lookups with fixed messages: exact at no cost.
 * - Filter of allocated claims: the allocation's nodeSelector on the node (NodeSelector matching
 *   the library already has).
 * - Filter of unallocated claims: ExactCount and All requests whose request and DeviceClass
 *   selectors are none or `device.driver == "name"`, against the node's ResourceSlices minus the
 *   devices allocated to any claim. This is what a GPU or NIC agent DaemonSet asks for ("one device
 *   of this driver's class", "all of them"), and the one form of CEL whose answer needs no CEL
 *   evaluator: the allocator's exhaustive search then reduces to counting (Hall's condition on a
 *   laminar family), so the answer is exact without reimplementing the search or CEL.
 * Everything else (other CEL, constraints, adminAccess, prioritized lists, consumable capacity,
 * partitionable devices, device taints, binding conditions, extended resources backed by a
 * DeviceClass with DRAExtendedResource on, template claims of a pod not created yet) leaves the
 * plugin "not evaluated" on the node: never "fits". DynamicResourceAllocation off: skipped.
 *
 * Upstream's rows: tests/vectors/upstream/dynamicresources_filter.json, transcribed from
 * dynamicresources_test.go TestPlugin (resource.k8s.io/v1 version): the 25 rows inside the subset
 * are replayed; the 37 left out are listed in the file's "skipped" with the reason. The other
 * tests here are derived from the upstream code, not from its tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vectors.h"

static const vt_entry known[] = {
	{NULL, NULL},
};

static const char *const P = "DynamicResources";

static int listed(const json_t *filters, const char *which)
{
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(filters, which), i, v) if (strcmp(json_string_value(v), P) == 0) return 1;
	return 0;
}

/* The plugin's reason in a ds_scheduler_filter answer (NULL: none); *n counts them. */
static const json_t *reason_of(const json_t *got, size_t *n)
{
	const json_t *mine = NULL;
	size_t i;
	json_t *r;
	*n = 0;
	json_array_foreach(json_object_get(got, "reasons"), i,
			   r) if (strcmp(json_string_value(json_object_get(r, "plugin")), P) == 0)
	{
		mine = r;
		(*n)++;
	}
	return mine;
}

/* NULL when the plugin's outcome on one node agrees with want, else a description. */
static char *check_node(const char *prefilter, const json_t *want, const json_t *got)
{
	size_t n;
	const json_t *mine = reason_of(got, &n);
	const json_t *filters = json_object_get(got, "filters");
	int ran = listed(filters, "ran"), skipped = listed(filters, "skipped");
	if (n > 1)
		return vt_fmt("%zu reasons", n);
	if (listed(filters, "notEvaluated"))
		return vt_fmt("not evaluated");
	if (strcmp(prefilter, "Skip") == 0)
		return !skipped || ran || mine ? vt_fmt("want PreFilter Skip, got ran=%d skipped=%d", ran, skipped)
					       : NULL;
	if (!ran)
		return vt_fmt("want the filter to run, got skipped=%d", skipped);
	if (json_is_null(want)) {
		if (mine)
			return vt_fmt("want Success, got %s: %s", json_string_value(json_object_get(mine, "code")),
				      json_string_value(json_object_get(mine, "message")));
		/* the rows' nodes have no allocatable: NodeResourcesFit fails on them, as upstream runs the
		 * plugin alone */
		return json_is_true(json_object_get(got, "fits")) || json_array_size(json_object_get(got, "reasons"))
			       ? NULL
			       : vt_fmt("no reason, yet fits is false");
	}
	const char *wc = json_string_value(json_object_get(want, "code"));
	const char *wm = json_string_value(json_object_get(want, "message"));
	if (!mine)
		return vt_fmt("want %s: %s, got Success", wc, wm);
	const char *gc = json_string_value(json_object_get(mine, "code"));
	const char *gm = json_string_value(json_object_get(mine, "message"));
	if (strcmp(wc, gc) != 0 || strcmp(wm, gm) != 0)
		return vt_fmt("want %s: %s, got %s: %s", wc, wm, gc, gm);
	return json_is_true(json_object_get(got, "fits")) ? vt_fmt("a failing filter, yet fits is true") : NULL;
}

/* ds_scheduler_filter on pod and node with objects; the answer (the test fails on an error). */
static json_t *filter(const char *pod, const char *node, const char *objs)
{
	char *out = NULL;
	ds_error err;
	int rc = ds_scheduler_filter(pod, strlen(pod), node, strlen(node), objs, objs ? strlen(objs) : 0, NULL, &out,
				     &err);
	ck_assert_msg(rc == 0, "ds_scheduler_filter: %d %s: %s", rc, err.path, err.message);
	return dsi_test_take_json(out);
}

START_TEST(upstream_rows)
{
	const char *file = "dynamicresources_filter.json";
	json_t *doc = vt_load(file);
	vt_run run;
	vt_begin(&run, file, known);
	size_t i;
	json_t *cs;
	json_array_foreach(vt_cases(doc), i, cs)
	{
		const char *name = json_string_value(json_object_get(cs, "name"));
		json_t *nodes = json_object_get(cs, "nodes");
		const json_t *expect = json_object_get(cs, "expect");
		const char *prefilter = json_string_value(json_object_get(expect, "preFilter"));
		const json_t *statuses = json_object_get(expect, "statuses");
		ck_assert_msg(json_array_size(statuses) == json_array_size(nodes), "%s: one status per node", name);
		json_t *objects = json_array();
		json_array_extend(objects, nodes);
		json_array_extend(objects, json_object_get(cs, "objects"));
		char *pod = json_dumps(json_object_get(cs, "pod"), JSON_COMPACT);
		char *objs = json_dumps(objects, JSON_COMPACT);
		char *mismatch = NULL;
		size_t k;
		json_t *node;
		json_array_foreach(nodes, k, node)
		{
			char *ntext = json_dumps(node, JSON_COMPACT);
			json_t *got = filter(pod, ntext, objs);
			free(ntext);
			char *m = check_node(prefilter, json_array_get(statuses, k), got);
			json_decref(got);
			if (m) {
				mismatch = vt_fmt("node %zu: %s", k, m);
				free(m);
				break;
			}
		}
		free(pod);
		free(objs);
		json_decref(objects);
		vt_record(&run, name, mismatch);
	}
	json_array_foreach(json_object_get(doc, "skipped"), i, cs) vt_skip(
		&run, json_string_value(json_object_get(cs, "name")), json_string_value(json_object_get(cs, "reason")));
	vt_end(&run);
	json_decref(doc);
}
END_TEST

/* ---- derived from dynamicresources.go and the stable allocator ---- */

static const char *const NODE = "{\"metadata\": {\"name\": \"w\", \"labels\": {\"kubernetes.io/hostname\": \"w\"}}, "
				"\"status\": {\"allocatable\": {\"pods\": \"10\"}}}";
static const char *const POD = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\", \"uid\": \"u1\"}, \"spec\": "
			       "{\"resourceClaims\": [{\"name\": \"gpu\", \"resourceClaimName\": \"c\"}]}}";

/* The objects of one case: a claim c (requests given), a class (selectors given), slices. */
static char *objects(const char *requests, const char *class_spec, const char *slices, const char *extra)
{
	return vt_fmt("[{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaim\", \"metadata\": {\"name\": "
		      "\"c\", \"namespace\": \"d\"}, \"spec\": {\"devices\": {\"requests\": %s}}}, "
		      "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"DeviceClass\", \"metadata\": {\"name\": "
		      "\"gpu\"}, \"spec\": %s}%s%s%s]",
		      requests, class_spec, *slices ? ", " : "", slices, extra);
}

static char *slice(const char *name, const char *driver, const char *pool, int count, const char *devices)
{
	return vt_fmt("{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceSlice\", \"metadata\": {\"name\": "
		      "\"%s\"}, \"spec\": {\"driver\": \"%s\", \"nodeName\": \"w\", \"pool\": {\"name\": \"%s\", "
		      "\"resourceSliceCount\": %d}, \"devices\": %s}}",
		      name, driver, pool, count, devices);
}

/* A slice of devices named for node (NULL: allNodes), in a pool of that name (malloc). */
static char *slice_on(const char *node, const char *driver, const char *devices)
{
	const char *n = node ? node : "all";
	char *where = node ? vt_fmt("\"nodeName\": \"%s\"", node) : vt_fmt("\"allNodes\": true");
	char *out = vt_fmt("{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceSlice\", \"metadata\": "
			   "{\"name\": \"s-%s\"}, \"spec\": {\"driver\": \"%s\", %s, \"pool\": {\"name\": \"p-%s\", "
			   "\"resourceSliceCount\": 1}, \"devices\": %s}}",
			   n, driver, where, n, devices);
	free(where);
	return out;
}

/* The plugin's outcome: "ok", "notEvaluated: why", or "<code>: <message>" (malloc). */
static char *outcome(const char *pod, const char *objs)
{
	json_t *got = filter(pod, NODE, objs);
	size_t n;
	const json_t *mine = reason_of(got, &n);
	char *s;
	if (listed(json_object_get(got, "filters"), "notEvaluated"))
		s = vt_fmt("notEvaluated: %s", json_string_value(json_object_get(mine, "why")));
	else if (mine)
		s = vt_fmt("%s: %s", json_string_value(json_object_get(mine, "code")),
			   json_string_value(json_object_get(mine, "message")));
	else if (listed(json_object_get(got, "filters"), "ran"))
		s = vt_fmt("ok");
	else
		s = vt_fmt("skipped");
	json_decref(got);
	return s;
}

static void expect(const char *requests, const char *class_spec, const char *slices, const char *want)
{
	char *objs = objects(requests, class_spec, slices, "");
	char *got = outcome(POD, objs);
	ck_assert_msg(strcmp(got, want) == 0, "requests %s class %s: want %s, got %s", requests, class_spec, want, got);
	free(got);
	free(objs);
}

#define EXACT(n) "[{\"name\": \"r\", \"exactly\": {\"deviceClassName\": \"gpu\", \"count\": " #n "}}]"
#define ALL "[{\"name\": \"r\", \"exactly\": {\"deviceClassName\": \"gpu\", \"allocationMode\": \"All\"}}]"

START_TEST(allocator_counts)
{
	char *two = slice("s1", "gpu.example.com", "w", 1, "[{\"name\": \"g0\"}, {\"name\": \"g1\"}]");
	char *nic = slice("s2", "nic.example.com", "w-nic", 1, "[{\"name\": \"n0\"}]");
	char *both = vt_fmt("%s, %s", two, nic);
	const char *drv =
		"{\"selectors\": [{\"cel\": {\"expression\": \"device.driver == \\\"gpu.example.com\\\"\"}}]}";
	const char *cannot = "UnschedulableAndUnresolvable: cannot allocate all claims";
	/* ExactCount against the node's devices */
	expect(EXACT(1), "{}", two, "ok");
	expect(EXACT(2), "{}", two, "ok");
	expect(EXACT(3), "{}", two, cannot);
	expect(EXACT(3), "{}", both, "ok");
	/* the class's driver selector narrows the devices */
	expect(EXACT(3), drv, both, cannot);
	expect(EXACT(2), drv, both, "ok");
	/* All: every matching device, at least one */
	expect(ALL, drv, both, "ok");
	expect(ALL, "{\"selectors\": [{\"cel\": {\"expression\": \"device.driver == 'none'\"}}]}", both, cannot);
	/* Hall: the driver-bound request takes the gpus, the free one takes the nic */
	expect("[{\"name\": \"a\", \"exactly\": {\"deviceClassName\": \"gpu\", \"count\": 1}}, {\"name\": \"b\", "
	       "\"exactly\": {\"deviceClassName\": \"gpu\", \"count\": 2, \"selectors\": [{\"cel\": {\"expression\": "
	       "\"device.driver == \\\"gpu.example.com\\\"\"}}]}}]",
	       "{}", both, "ok");
	expect("[{\"name\": \"a\", \"exactly\": {\"deviceClassName\": \"gpu\", \"count\": 2}}, {\"name\": \"b\", "
	       "\"exactly\": {\"deviceClassName\": \"gpu\", \"count\": 2, \"selectors\": [{\"cel\": {\"expression\": "
	       "\"device.driver == \\\"gpu.example.com\\\"\"}}]}}]",
	       "{}", both, cannot);
	/* more than AllocationResultsMaxSize devices in one claim: the allocator's error */
	expect(EXACT(33), "{}", two, "Error: claim d/c: number of requested devices 33 exceeds the claim limit of 32");
	/* an incomplete pool: skipped for ExactCount, an error for All */
	char *partial = slice("s3", "gpu.example.com", "w", 2, "[{\"name\": \"g0\"}]");
	expect(EXACT(1), "{}", partial, cannot);
	expect(ALL, "{}", partial,
	       "Error: claim d/c, request r: asks for all devices, but resource pool gpu.example.com/w is currently "
	       "being updated");
	/* slices named for other nodes (sorted before and after w) give w nothing; an allNodes one does */
	char *sa = slice_on("a", "gpu.example.com", "[{\"name\": \"a0\"}]");
	char *sz = slice_on("z", "gpu.example.com", "[{\"name\": \"z0\"}]");
	char *sall = slice_on(NULL, "gpu.example.com", "[{\"name\": \"s0\"}]");
	char *elsewhere = vt_fmt("%s, %s, %s", sa, two, sz);
	expect(EXACT(2), "{}", elsewhere, "ok");
	expect(EXACT(3), "{}", elsewhere, cannot);
	char *everywhere = vt_fmt("%s, %s", elsewhere, sall);
	expect(EXACT(3), "{}", everywhere, "ok");
	expect(EXACT(4), "{}", everywhere, cannot);
	free(everywhere);
	free(elsewhere);
	free(sa);
	free(sz);
	free(sall);
	/* no slice for the node at all: nothing to allocate from */
	expect(EXACT(1), "{}", "", cannot);
	free(partial);
	free(both);
	free(two);
	free(nic);
}
END_TEST

START_TEST(in_use_devices)
{
	char *one = slice("s1", "gpu.example.com", "w", 1, "[{\"name\": \"g0\"}]");
	const char *taken =
		", {\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaim\", \"metadata\": "
		"{\"name\": \"other\", \"namespace\": \"e\"}, \"spec\": {}, \"status\": {\"allocation\": "
		"{\"devices\": {\"results\": [{\"request\": \"x\", \"driver\": \"gpu.example.com\", \"pool\": "
		"\"w\", \"device\": \"g0\"%s}]}}}}";
	char *extra = vt_fmt(taken, "");
	char *objs = objects(EXACT(1), "{}", one, extra);
	char *got = outcome(POD, objs);
	ck_assert_str_eq(got, "UnschedulableAndUnresolvable: cannot allocate all claims");
	free(got);
	free(objs);
	free(extra);
	/* an adminAccess result does not hold the device (ListAllAllocatedDevices) */
	extra = vt_fmt(taken, ", \"adminAccess\": true");
	objs = objects(EXACT(1), "{}", one, extra);
	got = outcome(POD, objs);
	ck_assert_str_eq(got, "ok");
	free(got);
	free(objs);
	free(extra);
	free(one);
}
END_TEST

/* Outside the subset: not evaluated on the node, with why; never fits. */
START_TEST(outside_subset)
{
	char *one = slice("s1", "gpu.example.com", "w", 1, "[{\"name\": \"g0\"}]");
	char *tainted = slice("s1", "gpu.example.com", "w", 1,
			      "[{\"name\": \"g0\", \"taints\": [{\"key\": \"k\", \"effect\": \"NoSchedule\"}]}]");
	struct {
		const char *requests, *cls, *why;
		char *slices;
	} cases[] = {
		{"[{\"name\": \"r\", \"exactly\": {\"deviceClassName\": \"gpu\", \"selectors\": [{\"cel\": "
		 "{\"expression\": \"device.attributes[\\\"x\\\"].healthy\"}}]}}]",
		 "{}", "a CEL selector other than device.driver == \"name\"", one},
		{EXACT(1), "{\"selectors\": [{\"cel\": {\"expression\": \"device.capacity['m'].memory > 1\"}}]}",
		 "a CEL selector other than device.driver == \"name\"", one},
		{"[{\"name\": \"r\", \"exactly\": {\"deviceClassName\": \"gpu\", \"adminAccess\": true}}]", "{}",
		 "adminAccess", one},
		{"[{\"name\": \"r\", \"firstAvailable\": [{\"name\": \"s\", \"deviceClassName\": \"gpu\"}]}]", "{}",
		 "firstAvailable (a prioritized list)", one},
		{EXACT(1), "{}", "a device with taints", tainted},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *objs = objects(cases[i].requests, cases[i].cls, cases[i].slices, "");
		json_t *got = filter(POD, NODE, objs);
		ck_assert_msg(listed(json_object_get(got, "filters"), "notEvaluated"), "case %zu: %s", i,
			      json_dumps(got, 0));
		ck_assert(!json_is_true(json_object_get(got, "fits")));
		size_t n;
		const json_t *mine = reason_of(got, &n);
		ck_assert_int_eq(n, 1);
		ck_assert_str_eq(json_string_value(json_object_get(mine, "code")), "NotEvaluated");
		ck_assert_str_eq(json_string_value(json_object_get(mine, "message")),
				 "not evaluated: DynamicResources");
		ck_assert_str_eq(json_string_value(json_object_get(mine, "why")), cases[i].why);
		char detail[160];
		snprintf(detail, sizeof(detail), "not evaluated: DynamicResources: %s", cases[i].why);
		ck_assert_str_eq(json_string_value(json_object_get(mine, "detail")), detail);
		json_decref(got);
		free(objs);
	}
	/* PreFilter stops at the first claim it cannot read (an allocation's invalid node selector is
	 * upstream's Error, whose text is not ours): a later claim's missing class is not reported */
	const char *two_claims = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\"}, \"spec\": "
				 "{\"resourceClaims\": [{\"name\": \"a\", \"resourceClaimName\": \"bad\"}, {\"name\": "
				 "\"b\", \"resourceClaimName\": \"c\"}]}}";
	const char *bad = ", {\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaim\", \"metadata\": "
			  "{\"name\": \"bad\", \"namespace\": \"d\"}, \"status\": {\"allocation\": {\"nodeSelector\": "
			  "{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"k\", \"operator\": "
			  "\"Bogus\"}]}]}}}}";
	char *o2 = objects("[{\"name\": \"r\", \"exactly\": {\"deviceClassName\": \"nope\"}}]", "{}", one, bad);
	char *g2 = outcome(two_claims, o2);
	ck_assert_str_eq(g2, "notEvaluated: an invalid allocation node selector");
	free(g2);
	free(o2);
	/* no ResourceClaim in the objects at all: a dump without claims is not evaluated */
	char *got = outcome(POD, "[]");
	ck_assert_str_eq(got, "notEvaluated: no ResourceClaim loaded");
	free(got);
	/* with claims loaded, a missing one is upstream's not-found */
	char *objs = objects(EXACT(1), "{}", one, "");
	const char *pod2 = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\"}, \"spec\": {\"resourceClaims\": "
			   "[{\"name\": \"gpu\", \"resourceClaimName\": \"missing\"}]}}";
	got = outcome(pod2, objs);
	ck_assert_str_eq(got, "UnschedulableAndUnresolvable: could not find ResourceClaim \"d/missing\"");
	free(got);
	free(objs);
	free(one);
	free(tainted);
}
END_TEST

/* The _obj form on parsed objects: a Pod parsed as "Pod" keeps its status's claim names. */
START_TEST(obj_form)
{
	const char *pod = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\", \"uid\": \"u1\"}, \"spec\": "
			  "{\"resourceClaims\": [{\"name\": \"gpu\", \"resourceClaimTemplateName\": \"t\"}]}, "
			  "\"status\": {\"resourceClaimStatuses\": [{\"name\": \"gpu\", \"resourceClaimName\": "
			  "\"p-gpu\"}]}}";
	char *one = slice("s1", "gpu.example.com", "w", 1, "[{\"name\": \"g0\"}]");
	char *objs = objects(EXACT(1), "{}", one, "");
	ds_object *p = NULL, *n = NULL, *l = NULL;
	ds_error err;
	ck_assert_int_eq(ds_object_parse("Pod", pod, strlen(pod), NULL, &p, &err), 0);
	ck_assert_int_eq(ds_object_parse("Node", NODE, strlen(NODE), NULL, &n, &err), 0);
	ck_assert_int_eq(ds_object_parse("List", objs, strlen(objs), NULL, &l, &err), 0);
	char *out = NULL;
	ck_assert_int_eq(ds_scheduler_filter_obj(p, n, l, NULL, &out, &err), 0);
	json_t *got = dsi_test_take_json(out);
	size_t k;
	const json_t *mine = reason_of(got, &k);
	/* the status names p-gpu, which objects lack: upstream's not-found, not "not created yet" */
	ck_assert_ptr_nonnull(mine);
	ck_assert_str_eq(json_string_value(json_object_get(mine, "message")),
			 "could not find ResourceClaim \"d/p-gpu\"");
	json_decref(got);
	ds_object_free(p);
	ds_object_free(n);
	ds_object_free(l);
	free(objs);
	free(one);
}
END_TEST

/* Bad input: a stable code, the field's path, what was expected. */
START_TEST(bad_input)
{
	struct {
		const char *obj;
		int code;
		const char *path;
	} cases[] = {
		{"{\"apiVersion\": \"resource.k8s.io/v1beta1\", \"kind\": \"ResourceClaim\", \"metadata\": {\"name\": "
		 "\"c\", \"namespace\": \"d\"}}",
		 DS_EUNSUPPORTED, "apiVersion"},
		{"{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaim\", \"metadata\": {\"name\": "
		 "\"c\", "
		 "\"namespace\": \"d\"}, \"spec\": {\"devices\": {\"requests\": [{\"name\": \"r\", \"exactly\": "
		 "{\"count\": \"1\"}}]}}}",
		 DS_ETYPE, "spec.devices.requests[0].exactly.count"},
		{"{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaim\", \"metadata\": {\"name\": "
		 "\"c\", "
		 "\"namespace\": \"d\"}, \"spec\": {\"devices\": {\"requests\": [{\"name\": \"r\", \"exactly\": "
		 "{\"allocationMode\": \"Some\"}}]}}}",
		 DS_EVALUE, "spec.devices.requests[0].exactly.allocationMode"},
		{"{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceSlice\", \"metadata\": {\"name\": "
		 "\"s\"}, "
		 "\"spec\": {\"driver\": \"d\", \"pool\": {\"name\": \"p\"}, \"devices\": [{}]}}",
		 DS_EMISSING, "spec.devices[0].name"},
		{"{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"DeviceClass\", \"metadata\": {\"name\": \"g\"}, "
		 "\"spec\": {\"selectors\": [{\"cel\": {\"expression\": 1}}]}}",
		 DS_ETYPE, "spec.selectors[0].cel.expression"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ds_cluster *c = NULL;
		ds_error err;
		ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
		int rc = ds_cluster_load(c, cases[i].obj, strlen(cases[i].obj), NULL, &err);
		ck_assert_msg(rc == cases[i].code, "case %zu: want %d, got %d (%s)", i, cases[i].code, rc, err.message);
		ck_assert_str_eq(err.path, cases[i].path);
		ck_assert(err.message[0]);
		ds_cluster_free(c);
	}
}
END_TEST

/* The snapshot path: explain says ran / notEvaluated per node, and fails a node the claim's
 * allocation does not reach; on a copy of the snapshot too. */
START_TEST(explain_rows)
{
	const char *ds_fmt =
		"{\"apiVersion\": \"apps/v1\", \"kind\": \"DaemonSet\", \"metadata\": {\"name\": \"ds\", "
		"\"namespace\": "
		"\"d\", \"uid\": \"u\"}, \"spec\": {\"selector\": {\"matchLabels\": {\"a\": \"b\"}}, \"template\": "
		"{\"metadata\": {\"labels\": {\"a\": \"b\"}}, \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": "
		"\"i\"}], \"resourceClaims\": [{\"name\": \"gpu\", \"%s\": \"c\"}]}}}}";
	const char *nodes = "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"w\", \"uid\": "
			    "\"n1\"}, \"status\": {\"allocatable\": {\"pods\": \"10\"}}}, {\"apiVersion\": \"v1\", "
			    "\"kind\": \"Node\", \"metadata\": {\"name\": \"x\", \"uid\": \"n2\"}, \"status\": "
			    "{\"allocatable\": {\"pods\": \"10\"}}}";
	const char *claim = "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaim\", \"metadata\": "
			    "{\"name\": \"c\", \"namespace\": \"d\", \"uid\": \"c1\"}, \"spec\": {}, \"status\": "
			    "{\"allocation\": {\"nodeSelector\": {\"nodeSelectorTerms\": [{\"matchFields\": [{\"key\": "
			    "\"metadata.name\", \"operator\": \"In\", \"values\": [\"w\"]}]}]}}}}";
	for (int tmpl = 0; tmpl < 2; tmpl++) {
		char *ds = vt_fmt(ds_fmt, tmpl ? "resourceClaimTemplateName" : "resourceClaimName");
		char *text = vt_fmt("{\"kind\": \"List\", \"apiVersion\": \"v1\", \"items\": [%s, %s, %s]}", nodes,
				    claim, ds);
		ds_cluster *orig = dsi_test_cluster_text(text), *cl = NULL;
		char *out = NULL;
		ds_error err;
		/* a copy of the snapshot reads the DRA objects again from their JSON: explain the copy */
		ck_assert_int_eq(ds_cluster_copy(orig, &cl, &err), 0);
		ds_cluster_free(orig);
		ck_assert_int_eq(ds_daemonset_explain(cl, "d", "ds", NULL, &out, &err), 0);
		json_t *doc = dsi_test_take_json(out);
		size_t i;
		json_t *row;
		ck_assert_int_eq(json_array_size(json_object_get(doc, "rows")), 2);
		json_array_foreach(json_object_get(doc, "rows"), i, row)
		{
			const char *node = json_string_value(json_object_get(row, "node"));
			const char *status = json_string_value(json_object_get(row, "status"));
			const json_t *filters = json_object_get(row, "filters");
			if (tmpl) {
				/* the claim of a template exists once the pod does */
				ck_assert_str_eq(status, "not-evaluated");
				ck_assert(listed(filters, "notEvaluated"));
			} else if (strcmp(node, "w") == 0) {
				ck_assert(listed(filters, "ran"));
				ck_assert_str_ne(status, "not-evaluated");
				ck_assert_str_ne(status, "unschedulable");
			} else {
				ck_assert(listed(filters, "ran"));
				ck_assert_str_eq(status, "unschedulable");
				const json_t *r = json_array_get(json_object_get(row, "scheduler"), 0);
				ck_assert_str_eq(json_string_value(json_object_get(r, "message")),
						 "resourceclaim not available on the node");
			}
		}
		json_decref(doc);
		/* at 1.33 DynamicResourceAllocation is off: the plugin is skipped on both nodes and refuses
		 * neither, and the template's claim leaves nothing unevaluated */
		ds_options *o133 = dsi_test_options("{\"kubernetesVersion\": \"1.33\"}");
		ck_assert_int_eq(ds_daemonset_explain(cl, "d", "ds", o133, &out, &err), 0);
		ds_options_free(o133);
		doc = dsi_test_take_json(out);
		ck_assert_int_eq(json_array_size(json_object_get(doc, "rows")), 2);
		json_array_foreach(json_object_get(doc, "rows"), i, row)
		{
			const json_t *filters = json_object_get(row, "filters");
			const char *status = json_string_value(json_object_get(row, "status"));
			ck_assert(listed(filters, "skipped") && !listed(filters, "ran") &&
				  !listed(filters, "notEvaluated"));
			ck_assert_str_ne(status, "not-evaluated");
			ck_assert_str_ne(status, "unschedulable");
		}
		json_decref(doc);
		ds_cluster_free(cl);
		free(text);
		free(ds);
	}
}
END_TEST

/* Manifests (no uid): a ResourceClaim without a namespace gets kubectl's, as the DaemonSet does; a
 * DeviceClass is cluster-scoped whatever namespace its text names. */
START_TEST(manifest_namespaces)
{
	const char *text =
		"{\"kind\": \"List\", \"apiVersion\": \"v1\", \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"Node\", "
		"\"metadata\": {\"name\": \"w\"}, \"status\": {\"allocatable\": {\"pods\": \"10\"}}}, "
		"{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"DeviceClass\", \"metadata\": {\"name\": \"gpu\", "
		"\"namespace\": \"x\"}}, "
		"{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceSlice\", \"metadata\": {\"name\": "
		"\"s\"}, "
		"\"spec\": {\"driver\": \"d\", \"nodeName\": \"w\", \"pool\": {\"name\": \"w\", "
		"\"resourceSliceCount\": 1}, "
		"\"devices\": [{\"name\": \"g0\"}]}}, "
		"{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaim\", \"metadata\": {\"name\": "
		"\"c\"}, "
		"\"spec\": {\"devices\": {\"requests\": [{\"name\": \"r\", \"exactly\": {\"deviceClassName\": "
		"\"gpu\"}}]}}}, "
		"{\"apiVersion\": \"apps/v1\", \"kind\": \"DaemonSet\", \"metadata\": {\"name\": \"ds\"}, \"spec\": "
		"{\"selector\": {\"matchLabels\": {\"a\": \"b\"}}, \"template\": {\"metadata\": {\"labels\": {\"a\": "
		"\"b\"}}, \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"i\"}], \"resourceClaims\": "
		"[{\"name\": \"gpu\", \"resourceClaimName\": \"c\"}]}}}}]}";
	ds_cluster *cl = dsi_test_cluster_text(text);
	char *out = NULL;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_explain(cl, "default", "ds", NULL, &out, &err), 0);
	json_t *doc = dsi_test_take_json(out);
	const json_t *row = json_array_get(json_object_get(doc, "rows"), 0);
	ck_assert(listed(json_object_get(row, "filters"), "ran"));
	ck_assert_str_eq(json_string_value(json_object_get(row, "status")), "create");
	json_decref(doc);
	ds_cluster_free(cl);
}
END_TEST

/* An empty ResourceClaimList (the API server's reply when there are none) says the cluster has no
 * claims: a pod's claim is then upstream's not-found, not "not evaluated"; a generic empty List
 * says nothing. Through the text, a parsed List object and the snapshot (explain). */
START_TEST(typed_empty_claim_list)
{
	const char *nf = "UnschedulableAndUnresolvable: could not find ResourceClaim \"d/c\"";
	static const char *const typed[] = {
		"{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaimList\", \"items\": []}",
		"apiVersion: resource.k8s.io/v1beta2\nkind: ResourceClaimList\nitems: null\n",
		("{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"DeviceClassList\", \"items\": []}\n"
		 "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaimList\", \"items\": []}"),
	};
	for (size_t i = 0; i < sizeof(typed) / sizeof(typed[0]); i++) {
		char *got = outcome(POD, typed[i]);
		ck_assert_msg(strcmp(got, nf) == 0, "%s: got %s", typed[i], got);
		free(got);
	}
	static const char *const untyped[] = {
		"{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": []}",
		"{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"DeviceClassList\", \"items\": []}",
		"{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceSliceList\", \"items\": []}",
	};
	for (size_t i = 0; i < sizeof(untyped) / sizeof(untyped[0]); i++) {
		char *got = outcome(POD, untyped[i]);
		ck_assert_msg(strcmp(got, "notEvaluated: no ResourceClaim loaded") == 0, "%s: got %s", untyped[i], got);
		free(got);
	}
	ds_object *p = NULL, *n = NULL, *l = NULL;
	ds_error err;
	char *out = NULL;
	ck_assert_int_eq(ds_object_parse("Pod", POD, strlen(POD), NULL, &p, &err), 0);
	ck_assert_int_eq(ds_object_parse("Node", NODE, strlen(NODE), NULL, &n, &err), 0);
	ck_assert_int_eq(ds_object_parse("List", typed[0], strlen(typed[0]), NULL, &l, &err), 0);
	ck_assert_int_eq(ds_scheduler_filter_obj(p, n, l, NULL, &out, &err), 0);
	json_t *got = dsi_test_take_json(out);
	size_t nr;
	const json_t *mine = reason_of(got, &nr);
	ck_assert_ptr_nonnull(mine);
	ck_assert_str_eq(json_string_value(json_object_get(mine, "message")), "could not find ResourceClaim \"d/c\"");
	json_decref(got);
	ds_object_free(l), ds_object_free(n), ds_object_free(p);
}
END_TEST

/* ds_scheduler_filter with the options of a JSON object text (NULL: the defaults). */
static json_t *filter_with(const char *pod, const char *node, const char *objs, const char *opts_json)
{
	ds_options *o = dsi_test_options(opts_json);
	char *out = NULL;
	ds_error err;
	int rc =
		ds_scheduler_filter(pod, strlen(pod), node, strlen(node), objs, objs ? strlen(objs) : 0, o, &out, &err);
	ck_assert_msg(rc == 0, "ds_scheduler_filter: %d %s: %s", rc, err.path, err.message);
	ds_options_free(o);
	return dsi_test_take_json(out);
}

/* The first reason of plugin in an answer, "<code>: <message>", or "none" (malloc). */
static char *reason_text(const json_t *got, const char *plugin)
{
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(got, "reasons"), i, r)
	{
		if (strcmp(json_string_value(json_object_get(r, "plugin")), plugin) == 0)
			return vt_fmt("%s: %s", json_string_value(json_object_get(r, "code")),
				      json_string_value(json_object_get(r, "message")));
	}
	return vt_fmt("none");
}

/* DynamicResourceAllocation (pkg/features: beta and off in 1.32-1.33, GA 1.34): off, New returns a
 * disabled plugin whose PreFilter returns Skip (dynamicresources.go): skipped, its PreFilter
 * refusals refuse nothing. */
START_TEST(gate_dynamic_resource_allocation)
{
	char *one = slice("s1", "gpu.example.com", "w", 1, "[{\"name\": \"g0\"}]");
	char *objs = objects(EXACT(1), "{}", one, "");
	const char *missing = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\"}, \"spec\": {\"resourceClaims\": "
			      "[{\"name\": \"gpu\", \"resourceClaimName\": \"missing\"}]}}";
	static const struct {
		const char *opts;
		int on;
	} cases[] = {
		{NULL, 1},
		{"{\"kubernetesVersion\": \"1.35\"}", 1},
		{"{\"kubernetesVersion\": \"1.34\"}", 1},
		{"{\"kubernetesVersion\": \"1.33\"}", 0},
		{"{\"kubernetesVersion\": \"1.32\"}", 0},
		{"{\"featureGates\": \"DynamicResourceAllocation=false\"}", 0},
		{"{\"kubernetesVersion\": \"1.33\", \"featureGates\": \"DynamicResourceAllocation=true\"}", 1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *o = cases[i].opts ? cases[i].opts : "(defaults)";
		/* a PreFilter refusal: the missing claim */
		json_t *got = filter_with(missing, NODE, objs, cases[i].opts);
		const json_t *filters = json_object_get(got, "filters");
		char *r = reason_text(got, P);
		if (cases[i].on) {
			ck_assert_msg(listed(filters, "ran") && !listed(filters, "skipped"), "%s", o);
			ck_assert_str_eq(r, "UnschedulableAndUnresolvable: could not find ResourceClaim \"d/missing\"");
			ck_assert_msg(json_is_false(json_object_get(got, "fits")), "%s", o);
		} else {
			ck_assert_msg(listed(filters, "skipped") && !listed(filters, "ran") &&
					      !listed(filters, "notEvaluated"),
				      "%s: %s", o, json_dumps(filters, 0));
			ck_assert_msg(strcmp(r, "none") == 0, "%s: %s", o, r);
			ck_assert_msg(json_is_true(json_object_get(got, "fits")), "%s", o);
		}
		free(r);
		json_decref(got);
		/* a claim the node cannot satisfy: refused when on, fits when off */
		char *objs3 = objects(EXACT(3), "{}", one, "");
		got = filter_with(POD, NODE, objs3, cases[i].opts);
		r = reason_text(got, P);
		ck_assert_msg(strcmp(r, cases[i].on ? "UnschedulableAndUnresolvable: cannot allocate all claims"
						    : "none") == 0,
			      "%s: %s", o, r);
		ck_assert_msg(json_is_true(json_object_get(got, "fits")) == !cases[i].on, "%s", o);
		free(r);
		json_decref(got);
		free(objs3);
		/* outside the subset: not evaluated when on; skipped (nothing to evaluate) when off */
		char *objs4 = objects("[{\"name\": \"r\", \"exactly\": {\"deviceClassName\": \"gpu\", \"adminAccess\": "
				      "true}}]",
				      "{}", one, "");
		got = filter_with(POD, NODE, objs4, cases[i].opts);
		filters = json_object_get(got, "filters");
		ck_assert_msg(listed(filters, "notEvaluated") == cases[i].on, "%s", o);
		ck_assert_msg(listed(filters, "skipped") == !cases[i].on, "%s", o);
		json_decref(got);
		free(objs4);
	}
	free(objs);
	free(one);
}
END_TEST

/* DRAExtendedResource (pkg/features: alpha, off, 1.34-1.35; beta 1.36): on, DynamicResources'
 * preFilterExtendedResources takes the pod's extended resources a DeviceClass backs (the library
 * does not evaluate that allocation), and NodeResourcesFit's shouldDelegateResourceToDRA leaves
 * them to it on a node whose allocatable lacks them (fit.go). Off, neither looks at the class. */
START_TEST(gate_dra_extended_resource)
{
	const char *cls =
		"{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"DeviceClass\", \"metadata\": {\"name\": "
		"\"gpu\"}, \"spec\": {\"extendedResourceName\": \"example.com/gpu\"}}";
	char *objs = vt_fmt("[%s]", cls);
	const char *bare = "{\"metadata\": {\"name\": \"w\", \"labels\": {\"kubernetes.io/hostname\": \"w\"}}, "
			   "\"status\": {\"allocatable\": {\"pods\": \"10\"}}}";
	const char *has_one = "{\"metadata\": {\"name\": \"w\", \"labels\": {\"kubernetes.io/hostname\": \"w\"}}, "
			      "\"status\": {\"allocatable\": {\"pods\": \"10\", \"example.com/gpu\": \"1\"}}}";
	static const char *const pod_fmt = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\", \"uid\": \"u1\"}, "
					   "\"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"i\", "
					   "\"resources\": {\"requests\": {\"%s\": \"%d\"}, \"limits\": {\"%s\": "
					   "\"%d\"}}}]}}";
	const char *on = "{\"featureGates\": \"DRAExtendedResource=true\"}";
	static const struct {
		const char *resource;
		int count, node_has_one, gate_on;
		const char *fit; /* NodeResourcesFit's reason code, or "none" */
		int dra;         /* DynamicResources: 1 not evaluated, 0 skipped */
	} cases[] = {
		/* off (1.35's default): counted like any extended resource; DRA has no claim to look at */
		{"example.com/gpu", 1, 0, 0, "UnschedulableAndUnresolvable: Insufficient example.com/gpu", 0},
		{"deviceclass.resource.kubernetes.io/gpu", 1, 0, 0,
		 "UnschedulableAndUnresolvable: Insufficient deviceclass.resource.kubernetes.io/gpu", 0},
		/* on: left to DRA on a node that does not advertise it, by either name */
		{"example.com/gpu", 1, 0, 1, "none", 1},
		{"deviceclass.resource.kubernetes.io/gpu", 1, 0, 1, "none", 1},
		/* on, the node advertises it (a device plugin): NodeResourcesFit counts it */
		{"example.com/gpu", 1, 1, 1, "none", 1},
		{"example.com/gpu", 2, 1, 1, "UnschedulableAndUnresolvable: Insufficient example.com/gpu", 1},
		/* on, no class backs it: an ordinary extended resource */
		{"example.com/nic", 1, 0, 1, "UnschedulableAndUnresolvable: Insufficient example.com/nic", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *pod = vt_fmt(pod_fmt, cases[i].resource, cases[i].count, cases[i].resource, cases[i].count);
		json_t *got =
			filter_with(pod, cases[i].node_has_one ? has_one : bare, objs, cases[i].gate_on ? on : NULL);
		char *fit = reason_text(got, "NodeResourcesFit");
		const json_t *filters = json_object_get(got, "filters");
		ck_assert_msg(strcmp(fit, cases[i].fit) == 0, "case %zu: NodeResourcesFit %s, want %s", i, fit,
			      cases[i].fit);
		ck_assert_msg(listed(filters, "notEvaluated") == cases[i].dra, "case %zu: %s", i,
			      json_dumps(filters, 0));
		ck_assert_msg(listed(filters, "skipped") == !cases[i].dra, "case %zu: %s", i, json_dumps(filters, 0));
		if (cases[i].dra) {
			size_t n;
			const json_t *mine = reason_of(got, &n);
			ck_assert_str_eq(json_string_value(json_object_get(mine, "why")),
					 "extended resources backed by a DeviceClass (DRAExtendedResource)");
		}
		/* never "fits" unless both plugins passed */
		ck_assert(!json_is_true(json_object_get(got, "fits")));
		free(fit);
		free(pod);
		json_decref(got);
	}
	/* on, but DynamicResourceAllocation off: NodeResourcesFit still delegates (its own gate), and
	 * the disabled DRA plugin skips the pod: it fits, as upstream would have it */
	char *pod = vt_fmt(pod_fmt, "example.com/gpu", 1, "example.com/gpu", 1);
	json_t *got = filter_with(pod, bare, objs,
				  "{\"featureGates\": \"DRAExtendedResource=true,DynamicResourceAllocation=false\"}");
	ck_assert(json_is_true(json_object_get(got, "fits")));
	ck_assert(listed(json_object_get(got, "filters"), "skipped"));
	json_decref(got);
	free(pod);
	free(objs);
}
END_TEST

static Suite *vec_dynamicresources_suite(void)
{
	Suite *s = suite_create("vec_dynamicresources");
	TCase *tc = tcase_create("rows");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, upstream_rows);
	tcase_add_test(tc, allocator_counts);
	tcase_add_test(tc, in_use_devices);
	tcase_add_test(tc, outside_subset);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, obj_form);
	tcase_add_test(tc, explain_rows);
	tcase_add_test(tc, manifest_namespaces);
	tcase_add_test(tc, typed_empty_claim_list);
	tcase_add_test(tc, gate_dynamic_resource_allocation);
	tcase_add_test(tc, gate_dra_extended_resource);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(vec_dynamicresources_suite)
