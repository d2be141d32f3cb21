/*
 * libFuzzer target: watch events (ds_cluster_apply_events) on a copy of a
 * small snapshot, then a removal of every DaemonSet and node the events left.
 * Invariants: the ABI error contract; all or nothing (a failed batch leaves
 * the summary unchanged); ds_cluster_remove of an object the summary names
 * succeeds and the object is gone afterwards.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_load.h"

static ds_cluster *base; /* read-only after LLVMFuzzerInitialize */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	ds_error err;
	ds_options *o = fuzz_options("{\"maxAliasNodes\": 2000, \"maxObjects\": 500}");
	if (ds_cluster_new(o, &base, &err) < 0 ||
	    ds_cluster_load(base, fuzz_base_objects, sizeof(fuzz_base_objects) - 1, NULL, &err) < 0) {
		fprintf(stderr, "base snapshot: %s\n", err.message);
		abort();
	}
	ds_options_free(o);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ds_cluster *c = NULL;
	ds_error err;
	int rc = ds_cluster_copy(base, &c, &err);
	FUZZ_ASSERT(rc == 0, "ds_cluster_copy: %s", err.message);
	char *before = fuzz_summary(c);
	size_t count = 0;
	rc = ds_cluster_apply_events(c, (const char *)data, size, &count, &err);
	fuzz_check_rc("ds_cluster_apply_events", rc, &err);
	char *after = fuzz_summary(c);
	if (rc < 0) {
		FUZZ_ASSERT(strcmp(before, after) == 0, "a failed batch (%s) changed the snapshot", err.message);
	} else {
		fuzz_names n;
		fuzz_names_get(c, &n, 16, 32);
		for (size_t i = 0; i < n.nds; i++) {
			rc = ds_cluster_remove(c, "DaemonSet", n.ds_ns[i], n.ds_name[i], &err);
			fuzz_check_rc("ds_cluster_remove DaemonSet", rc, &err);
			FUZZ_ASSERT(rc == 0, "remove DaemonSet %s/%s of the summary: %s", n.ds_ns[i], n.ds_name[i],
				    err.message);
			char *out = NULL;
			rc = ds_cluster_get(c, "DaemonSet", n.ds_ns[i], n.ds_name[i], &out, &err);
			FUZZ_ASSERT(rc == DS_ENOTFOUND, "DaemonSet %s/%s still there after removal (%d)", n.ds_ns[i],
				    n.ds_name[i], rc);
		}
		for (size_t i = 0; i < n.nnodes; i++) {
			rc = ds_cluster_remove(c, "Node", NULL, n.node[i], &err);
			fuzz_check_rc("ds_cluster_remove Node", rc, &err);
			FUZZ_ASSERT(rc == 0, "remove Node %s of the summary: %s", n.node[i], err.message);
		}
		fuzz_names_free(&n);
		/* the events again on what is left: only the contract is checked */
		rc = ds_cluster_apply_events(c, (const char *)data, size, &count, &err);
		fuzz_check_rc("ds_cluster_apply_events (again)", rc, &err);
	}
	free(before);
	free(after);
	ds_cluster_free(c);
	return 0;
}
