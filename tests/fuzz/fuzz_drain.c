/*
 * libFuzzer target: drain, cordon and upgrade planning on a fuzzed snapshot.
 * The bytes are loaded into an empty snapshot; for every node (up to 8):
 * ds_drain with kubectl's default flags and with --force
 * --ignore-daemonsets --delete-emptydir-data, ds_cordon and uncordon; then
 * ds_upgrade of every node (selector "") in batches of two, and of the
 * first two nodes by name. Invariants: the ABI error contract; every JSON
 * result parses; a node the summary names is found (never DS_ENOTFOUND)
 * when its name is a plain name.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_common.h"

static ds_options *load_opts, *plain, *forced; /* read-only after LLVMFuzzerInitialize */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	load_opts = fuzz_options("{\"maxAliasNodes\": 2000, \"maxObjects\": 400}");
	plain = fuzz_options("{\"batchSize\": 2}");
	forced = fuzz_options("{\"force\": true, \"ignoreDaemonSets\": true, \"deleteEmptyDirData\": true, "
			      "\"gracePeriodSeconds\": 30, \"batchSize\": 2}");
	return 0;
}

/* node: the node named, or NULL. kubectl's argument syntax reads "a/b" as
 * TYPE/NAME, so only a name without '/' must be found. */
static void json_call(const char *what, const char *node, int rc, char *json, const ds_error *err)
{
	if (node && !strchr(node, '/'))
		FUZZ_ASSERT(rc != DS_ENOTFOUND, "%s: node %s of the summary is not found: %s", what, node,
			    err->message);
	fuzz_check_result(what, rc, json, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	ds_error err;
	int rc;
	ds_cluster *c = fuzz_cluster(load_opts, data, size);
	if (c) {
		fuzz_names n;
		fuzz_names_get(c, &n, 0, 8);
		char *json;
		for (size_t i = 0; i < n.nnodes; i++) {
			json = NULL;
			rc = ds_drain(c, n.node[i], FUZZ_NOW, plain, &json, &err);
			json_call("ds_drain", n.node[i], rc, json, &err);
			json = NULL;
			rc = ds_drain(c, n.node[i], FUZZ_NOW, forced, &json, &err);
			json_call("ds_drain (forced)", n.node[i], rc, json, &err);
			for (int desired = 0; desired <= 1; desired++) {
				json = NULL;
				rc = ds_cordon(c, n.node[i], desired, plain, &json, &err);
				json_call("ds_cordon", n.node[i], rc, json, &err);
			}
		}
		json = NULL;
		rc = ds_upgrade(c, NULL, 0, "", FUZZ_NOW, plain, &json, &err);
		json_call("ds_upgrade", NULL, rc, json, &err);
		json = NULL;
		rc = ds_upgrade(c, n.node, n.nnodes < 2 ? n.nnodes : 2, NULL, FUZZ_NOW, forced, &json, &err);
		json_call("ds_upgrade (named)", NULL, rc, json, &err);
		fuzz_names_free(&n);
	}
	ds_cluster_free(c);
	return 0;
}
