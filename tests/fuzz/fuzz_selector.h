/*
 * The body of the label selector targets (fuzz_selector_string.c,
 * fuzz_selector_json.c). Input: selector text, then optionally a NUL byte
 * and a label set as JSON or YAML (otherwise a fixed set). Invariants:
 * - the ABI error contract, and *out of ds_selector_matches is 0 or 1;
 * - String() is stable: the canonical string of the selector parses, and
 *   its own canonical string is the same text (for the JSON form, from the
 *   second round on: duplicate values survive LabelSelectorAsSelector but
 *   not labels.Parse, as upstream);
 * - the canonical string matches exactly the label sets the selector
 *   matches (same verdict on the fuzzed set and on the fixed one).
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_FUZZ_SELECTOR_H
#define DS_FUZZ_SELECTOR_H

#include "fuzz_common.h"

static const char fuzz_fixed_labels[] =
	"{\"app\":\"web\",\"tier\":\"a\",\"x\":\"y\",\"env\":\"prod\",\"k8s.io/n\":\"1\"}";

static inline int fuzz_match(const char *sel, const char *labels, int *out)
{
	ds_error err;
	*out = -1;
	int rc = ds_selector_matches(sel, labels, out, &err);
	fuzz_check_rc("ds_selector_matches", rc, &err);
	if (rc == 0)
		FUZZ_ASSERT(*out == 0 || *out == 1, "ds_selector_matches gave %d", *out);
	return rc;
}

/* json: only inputs whose selector is the JSON form (first non-blank '{'),
 * else only the string syntax, so that each target stays narrow. */
static inline void fuzz_selector_one(const uint8_t *data, size_t size, int json)
{
	if (size > 4096)
		return;
	size_t i = 0;
	while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
		i++;
	if ((i < size && data[i] == '{') != json)
		return;
	char *sel = fuzz_cstr(data, size);
	size_t sl = strlen(sel);
	const char *labels = sl < size ? sel + sl + 1 : fuzz_fixed_labels;

	char *canon = NULL;
	ds_error err;
	int rc = ds_selector_string(sel, &canon, &err);
	fuzz_check_rc("ds_selector_string", rc, &err);
	if (rc == 0) {
		FUZZ_ASSERT(canon != NULL, "ds_selector_string: success without a string");
		char *again = NULL;
		rc = ds_selector_string(canon, &again, &err);
		fuzz_check_rc("ds_selector_string (canonical)", rc, &err);
		FUZZ_ASSERT(rc == 0, "the canonical form '%s' of '%s' does not parse: %s", canon, sel, err.message);
		/* The JSON form keeps duplicate values ("In" ["b","a","a"] is "k in (a,a,b)", as upstream's
		 * LabelSelectorAsSelector and Requirement.String do), which labels.Parse drops: there the
		 * fixed point is reached one round later. The string syntax is stable at once. */
		char *third = NULL;
		rc = ds_selector_string(again, &third, &err);
		fuzz_check_rc("ds_selector_string (third)", rc, &err);
		FUZZ_ASSERT(rc == 0 && strcmp(again, third) == 0,
			    "String() is not stable: '%s' -> '%s' -> '%s' -> '%s'", sel, canon, again,
			    third ? third : "(error)");
		if (!json)
			FUZZ_ASSERT(strcmp(canon, again) == 0, "String() is not stable: '%s' -> '%s' -> '%s'", sel,
				    canon, again);
		ds_free(third);
		ds_free(again);
	}

	const char *sets[2] = {labels, fuzz_fixed_labels};
	for (int k = 0; k < (labels == fuzz_fixed_labels ? 1 : 2); k++) {
		int m1, m2;
		int rc1 = fuzz_match(sel, sets[k], &m1);
		if (canon && rc1 == 0) {
			int rc2 = fuzz_match(canon, sets[k], &m2);
			FUZZ_ASSERT(rc2 == 0, "'%s' matches but its canonical form '%s' fails on the same labels", sel,
				    canon);
			FUZZ_ASSERT(m1 == m2, "'%s' gives %d but its canonical form '%s' gives %d on %s", sel, m1,
				    canon, m2, sets[k]);
		}
	}
	ds_free(canon);
	free(sel);
}

#endif
