/*
 * libFuzzer target: the security audit on arbitrary bytes: ds_audit with
 * the default options and with baseline/v1.25, and ds_pod_security_evaluate
 * at every level for the versions latest, v1.0 and v1.29.
 * Invariants: the ABI error contract; every report parses and has the
 * boolean "allowed"; the levels nest (allowed at restricted implies allowed
 * at baseline, which implies allowed at privileged) for each version.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_common.h"

static ds_options *opts_baseline; /* read-only after LLVMFuzzerInitialize */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	opts_baseline = fuzz_options("{\"podSecurityLevel\": \"baseline\", \"podSecurityVersion\": \"v1.25\", "
				     "\"maxAliasNodes\": 2000}");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	const char *text = (const char *)data;
	ds_error err;
	char *out = NULL;
	int rc = ds_audit(text, size, NULL, &out, &err);
	fuzz_check_rc("ds_audit", rc, &err);
	if (rc == 0)
		fuzz_check_json("ds_audit", out);
	ds_free(out);
	out = NULL;
	rc = ds_audit(text, size, opts_baseline, &out, &err);
	fuzz_check_rc("ds_audit (baseline v1.25)", rc, &err);
	if (rc == 0)
		fuzz_check_json("ds_audit (baseline v1.25)", out);
	ds_free(out);

	static const char *const levels[] = {"restricted", "baseline", "privileged"};
	static const char *const versions[] = {"latest", "v1.0", "v1.29"};
	for (size_t v = 0; v < 3; v++) {
		int prev_allowed = -1, prev_rc = 1;
		for (size_t l = 0; l < 3; l++) {
			out = NULL;
			rc = ds_pod_security_evaluate(text, size, levels[l], versions[v], opts_baseline, &out, &err);
			fuzz_check_rc("ds_pod_security_evaluate", rc, &err);
			if (prev_rc != 1)
				FUZZ_ASSERT(rc == prev_rc, "ds_pod_security_evaluate %s/%s gives %d, %s %d", levels[l],
					    versions[v], rc, levels[l - 1], prev_rc);
			prev_rc = rc;
			if (rc == 0) {
				json_error_t je;
				json_t *r = json_loads(out, 0, &je);
				FUZZ_ASSERT(r, "ds_pod_security_evaluate output is not JSON: %s", je.text);
				json_t *a = json_object_get(r, "allowed");
				FUZZ_ASSERT(json_is_boolean(a), "no boolean \"allowed\": %.300s", out);
				int allowed = json_is_true(a);
				FUZZ_ASSERT(prev_allowed != 1 || allowed, "allowed at %s but not at %s (%s): %.500s",
					    levels[l - 1], levels[l], versions[v], out);
				prev_allowed = allowed;
				json_decref(r);
			}
			ds_free(out);
		}
	}
	return 0;
}
