/* libFuzzer target: YAML ingest (ds_cluster_load) with small limits, so that
 * alias expansion ("billion laughs"), object counts and document size meet
 * their refusals within the fuzzer's memory. See fuzz_load.h. Also differential (fuzz_load_diff.h):
 * staged against whole, and a Node's status.images left out against read.
 * SPDX-License-Identifier: Apache-2.0 */
#include "fuzz_load_diff.h"

static ds_options *opts;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* immutable after this point: the targets keep no state between inputs */
	opts = fuzz_options("{\"maxAliasNodes\": 2000, \"maxObjects\": 500, \"maxDocumentBytes\": 65536}");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_one(data, size, opts);
	same_both_ways(data, size, DSI_DEFAULT_MAX_OBJECTS, SIZE_MAX);
	same_both_ways(data, size, 3 + size % 3, size % 4);
	return 0;
}
