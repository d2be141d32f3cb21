/*
 * libFuzzer target: ds_fit of a fuzzed Pod (JSON or YAML bytes) on every
 * node of the sample cluster (examples/cluster, loaded once; the snapshot
 * is only read). Invariants: the ABI error contract; every result parses;
 * the result is the same when asked twice (no hidden state).
 * Run from the top of the source tree, or set DS_FUZZ_CLUSTER to the path
 * of examples/cluster.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_common.h"

static ds_cluster *cluster; /* read-only after LLVMFuzzerInitialize */
static fuzz_names names;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *path = getenv("DS_FUZZ_CLUSTER");
	if (!path)
		path = "examples/cluster";
	ds_error err;
	if (ds_cluster_new(NULL, &cluster, &err) < 0 || ds_cluster_load_file(cluster, path, NULL, &err) < 0) {
		fprintf(stderr, "fuzz_fit: cannot load %s: %s %s (run from the source tree or set DS_FUZZ_CLUSTER)\n",
			path, err.source, err.message);
		abort();
	}
	fuzz_names_get(cluster, &names, 0, 32);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	for (size_t i = 0; i < names.nnodes; i++) {
		char *a = NULL, *b = NULL;
		ds_error err;
		int rc = ds_fit(cluster, (const char *)data, size, names.node[i], NULL, &a, &err);
		fuzz_check_rc("ds_fit", rc, &err);
		if (rc < 0) {
			/* the pod is the same for every node: a refusal of the pod is the same everywhere */
			FUZZ_ASSERT(rc != DS_ENOTFOUND, "ds_fit: node %s not found: %s", names.node[i], err.message);
			return 0;
		}
		fuzz_check_json("ds_fit", a);
		rc = ds_fit(cluster, (const char *)data, size, names.node[i], NULL, &b, &err);
		FUZZ_ASSERT(rc == 0 && strcmp(a, b) == 0, "ds_fit gives another answer the second time on %s",
			    names.node[i]);
		ds_free(a);
		ds_free(b);
	}
	return 0;
}
