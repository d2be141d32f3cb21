/* libFuzzer target: label selectors in the JSON LabelSelector form (LabelSelectorAsSelector), matched
 * against fuzzed labels. See fuzz_selector.h.
 * SPDX-License-Identifier: Apache-2.0 */
#include "fuzz_selector.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_selector_one(data, size, 1);
	return 0;
}
