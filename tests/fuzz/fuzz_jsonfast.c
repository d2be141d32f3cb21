/*
 * libFuzzer target: the fast JSON reader (lib/core/jsonfast.h) against json_loadb on every input,
 * under each flag set the library uses. Invariant: when the reader returns a tree, json_loadb
 * returns the same tree (types exact, reals bit for bit, keys in the same order) with the same
 * position; when it gives up, dsi_json_loadb_fast gives jansson's own outcome. And when the input
 * has a Node's status.images where the scanner finds them (core/jsonscan.h), the reading with them
 * cut is jansson's on the text with [] in their place. How often the reader gave up (inputs that
 * jansson reads, per flag set) is printed when the run ends: the one line this target prints.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>

#include "fuzz_common.h"
#include "core/jsonfast.h"
#include "core/jsonscan.h"
#include "../support/jsonsame.h"

static const size_t flag_sets[] = {
	0,
	JSON_REJECT_DUPLICATES,
	JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK,
	JSON_DECODE_ANY,
	JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK,
};
#define N_SETS (sizeof(flag_sets) / sizeof(flag_sets[0]))

/* statistics only, never read by the invariants */
static size_t read_by_jansson[N_SETS], read_by_us[N_SETS];

static void report(void)
{
	fprintf(stderr, "fuzz_jsonfast: of the inputs jansson read, we read");
	for (size_t k = 0; k < N_SETS; k++)
		fprintf(stderr, " %zu/%zu (flags %zx)", read_by_us[k], read_by_jansson[k], flag_sets[k]);
	fputc('\n', stderr);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	atexit(report);
	return 0;
}

static void cut_alike(const char *text, size_t size)
{
	size_t from, to;
	if (!dsi_jsonscan_node_images(text, size, "Node", &from, &to))
		return;
	const size_t flags = JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK;
	json_error_t jf, jj;
	json_t *a = dsi_json_fast_loadb_cut(text, size, from, to, flags, &jf);
	if (!a)
		return;
	char *c = malloc(size + 2);
	FUZZ_ASSERT(c != NULL, "no memory");
	memcpy(c, text, from);
	memcpy(c + from, "[]", 2);
	memcpy(c + from + 2, text + to, size - to);
	json_t *b = json_loadb(c, size - (to - from) + 2, flags, &jj);
	free(c);
	FUZZ_ASSERT(b != NULL, "images cut: we read a tree, jansson says %s", jj.text);
	FUZZ_ASSERT(dsi_test_json_same(a, b), "images cut: the trees differ");
	FUZZ_ASSERT((size_t)jf.position == (size_t)jj.position + (to - from) - 2, "images cut: positions %d and %d",
		    jf.position, jj.position);
	json_decref(a);
	json_decref(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	for (size_t k = 0; k < N_SETS; k++) {
		json_error_t jf, jj, jd;
		memset(&jf, 0, sizeof(jf));
		json_t *a = dsi_json_fast_loadb(text, size, flag_sets[k], &jf);
		json_t *b = json_loadb(text, size, flag_sets[k], &jj);
		if (b)
			read_by_jansson[k]++;
		if (a) {
			read_by_us[k]++;
			FUZZ_ASSERT(b != NULL, "flags %zx: we read a tree, jansson says %s", flag_sets[k], jj.text);
			FUZZ_ASSERT(dsi_test_json_same(a, b), "flags %zx: the trees differ", flag_sets[k]);
			FUZZ_ASSERT(jf.position == jj.position && jf.line == jj.line && jf.column == jj.column,
				    "flags %zx: positions %d and %d", flag_sets[k], jf.position, jj.position);
		}
		json_t *d = dsi_json_loadb_fast(text, size, flag_sets[k], &jd);
		FUZZ_ASSERT(!d == !b, "flags %zx: dsi_json_loadb_fast and json_loadb disagree", flag_sets[k]);
		if (!d)
			FUZZ_ASSERT(strcmp(jd.text, jj.text) == 0 && jd.line == jj.line && jd.column == jj.column &&
					    jd.position == jj.position,
				    "errors differ: %s against %s", jd.text, jj.text);
		json_decref(a);
		json_decref(b);
		json_decref(d);
	}
	cut_alike(text, size);
	return 0;
}
