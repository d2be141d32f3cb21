/*
 * libFuzzer target: the quiet path of Node watch events (model/nodeevent.h) against the full path.
 * Two snapshots hold fuzz_load.h's base objects and the same node n1: one read it from a watch event (so it keeps that
 * event's hash, and a heartbeat-only update of it is applied without a tree), the other from a load (no hash: every
 * event takes the full path). The fuzzed bytes go to both as watch events. Invariants: the ABI error contract; the same
 * outcome on both (return code, error code, message and path); the same summary and, node by node, what ds_cluster_get
 * shows, the resourceVersion, uid and conditions. SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_load.h"
#include "model/node.h"
#include "model/snapshot.h"

/* The seed corpus (tests/fuzz/corpus/fuzz_node_event) holds this event and heartbeats of it. */
static const char fuzz_node_added[] =
	"{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\","
	"\"uid\":\"u1\",\"resourceVersion\":\"10\",\"labels\":{\"zone\":\"a\"}},\"spec\":{\"taints\":[{\"key\":"
	"\"k\",\"effect\":\"NoSchedule\"}]},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"pods\":\"110\"},"
	"\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"lastHeartbeatTime\":\"2026-12-02T14:59:00Z\","
	"\"lastTransitionTime\":\"2026-11-01T08:00:00Z\"}],\"images\":[{\"names\":[\"r/a:v1\"],\"sizeBytes\":"
	"1000}]}}}";

static ds_cluster *with_node(int from_event)
{
	ds_cluster *c = NULL;
	ds_error err;
	int rc = ds_cluster_new(NULL, &c, &err);
	FUZZ_ASSERT(rc == 0, "ds_cluster_new: %s", err.message);
	rc = ds_cluster_load(c, fuzz_base_objects, sizeof(fuzz_base_objects) - 1, NULL, &err);
	FUZZ_ASSERT(rc == 0, "the base objects: %s", err.message);
	if (from_event) {
		rc = ds_cluster_apply_events(c, fuzz_node_added, sizeof(fuzz_node_added) - 1, NULL, &err);
	} else {
		const char *obj = strstr(fuzz_node_added, "\"object\":") + 9;
		rc = ds_cluster_load(c, obj, strlen(obj) - 1, NULL, &err);
	}
	FUZZ_ASSERT(rc == 0, "the base node: %s", err.message);
	return c;
}

static void same_nodes(const ds_cluster *a, const ds_cluster *b)
{
	const dsi_cluster *ca = (const dsi_cluster *)a, *cb = (const dsi_cluster *)b;
	size_t n = dsi_cluster_count(ca, DSI_KIND_NODE);
	FUZZ_ASSERT(n == dsi_cluster_count(cb, DSI_KIND_NODE), "node counts differ");
	for (size_t i = 0; i < n; i++) {
		const dsi_node *x = ca->objs[DSI_KIND_NODE].v[i];
		const dsi_node *y = dsi_cluster_node_by_name(cb, dsi_cstr(ca, x->meta.name));
		FUZZ_ASSERT(y, "node %s on one side only", dsi_cstr(ca, x->meta.name));
		json_t *jx = dsi_node_to_json(&ca->atoms, x), *jy = dsi_node_to_json(&cb->atoms, y);
		FUZZ_ASSERT(json_equal(jx, jy), "node %s differs", dsi_cstr(ca, x->meta.name));
		json_decref(jx);
		json_decref(jy);
		FUZZ_ASSERT(strcmp(dsi_cstr(ca, x->meta.resource_version), dsi_cstr(cb, y->meta.resource_version)) == 0,
			    "node %s: resourceVersion %s against %s", dsi_cstr(ca, x->meta.name),
			    dsi_cstr(ca, x->meta.resource_version), dsi_cstr(cb, y->meta.resource_version));
		FUZZ_ASSERT(strcmp(dsi_cstr(ca, x->meta.uid), dsi_cstr(cb, y->meta.uid)) == 0, "uid differs");
		FUZZ_ASSERT(x->nconditions == y->nconditions, "node %s: condition counts differ",
			    dsi_cstr(ca, x->meta.name));
		for (uint32_t k = 0; k < x->nconditions; k++)
			FUZZ_ASSERT(strcmp(dsi_cstr(ca, x->conditions[k].type), dsi_cstr(cb, y->conditions[k].type)) ==
						    0 &&
					    x->conditions[k].status == y->conditions[k].status &&
					    x->conditions[k].has_transition == y->conditions[k].has_transition &&
					    x->conditions[k].last_transition == y->conditions[k].last_transition,
				    "node %s: condition %u differs", dsi_cstr(ca, x->meta.name), k);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ds_cluster *quiet = with_node(1), *full = with_node(0);
	ds_error eq, ef;
	memset(&eq, 0, sizeof(eq));
	memset(&ef, 0, sizeof(ef));
	size_t nq = 0, nf = 0;
	int rq = ds_cluster_apply_events(quiet, (const char *)data, size, &nq, &eq);
	int rf = ds_cluster_apply_events(full, (const char *)data, size, &nf, &ef);
	fuzz_check_rc("ds_cluster_apply_events (quiet side)", rq, &eq);
	fuzz_check_rc("ds_cluster_apply_events (full side)", rf, &ef);
	FUZZ_ASSERT(rq == rf, "%d against %d (%s)", rq, rf, rq ? eq.message : ef.message);
	if (rq < 0) {
		FUZZ_ASSERT(eq.code == ef.code && strcmp(eq.message, ef.message) == 0 && strcmp(eq.path, ef.path) == 0,
			    "errors differ: %s: %s against %s: %s", eq.path, eq.message, ef.path, ef.message);
	} else {
		FUZZ_ASSERT(nq == nf, "counts differ: %zu against %zu", nq, nf);
		char *sq = fuzz_summary(quiet), *sf = fuzz_summary(full);
		FUZZ_ASSERT(strcmp(sq, sf) == 0, "summaries differ");
		free(sq);
		free(sf);
		same_nodes(quiet, full);
	}
	ds_cluster_free(quiet);
	ds_cluster_free(full);
	return 0;
}
