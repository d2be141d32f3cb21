/* libFuzzer target: JSON ingest (ds_cluster_load) with the default limits. See fuzz_load.h.
 * SPDX-License-Identifier: Apache-2.0 */
#include "fuzz_load.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_one(data, size, NULL);
	return 0;
}
