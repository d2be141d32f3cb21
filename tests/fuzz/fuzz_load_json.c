/* libFuzzer target: JSON ingest (ds_cluster_load) with the default limits. See fuzz_load.h.
 * Also differential: a List parsed item by item (dsi_load_text_staged, what
 * ds_cluster_load uses) against the same bytes parsed whole (dsi_load_text):
 * the same items, or the same error to the last field (tests/unit/test_load_stream.c); and
 * again with a Node's status.images left out (DSI_FRONT_NODE_IMAGES, as ds_cluster_load reads):
 * the same error, and the same items but for status.images [] in a Node's.
 * SPDX-License-Identifier: Apache-2.0 */
#include "fuzz_load_diff.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_one(data, size, NULL);
	same_both_ways(data, size, DSI_DEFAULT_MAX_OBJECTS, SIZE_MAX);
	/* fn refusing an item, and the object limit, in the middle of a list */
	same_both_ways(data, size, 3 + size % 3, size % 4);
	return 0;
}
