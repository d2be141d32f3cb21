/*
 * libFuzzer target: the writer of Go structs as text (lib/apiserver/goemit.h) against the tree it
 * stands in for. The input is a JSON value and, after a line "===", a JSON patch (optional); the
 * value is written as a PodSpec, an Affinity, a Pod and a DaemonSet, with the patch merged and, for
 * the PodSpec, with the tolerations written by their caller (a fixed typed list). Invariant: the
 * writer's text is byte for byte what a deep copy of the value, the patch merged into it
 * (dsi_go_merge), the member set, dsi_go_encode and dsi_json_dumps (compact, sorted) give; or the
 * writer hands the value back (fail 1) and the tree decides.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_common.h"
#include "api/object.h"
#include "apiserver/decodecheck.h"
#include "apiserver/goemit.h"
#include "apiserver/goencode.h"
#include "apiserver/schema.h"
#include "core/alloc.h"
#include "core/jsonout.h"
#include "model/taints.h"
#include "../support/gotree.h"

static ds_object *tols; /* the caller's tolerations, parsed once */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	static const char text[] = "[{\"key\":\"k\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"},"
				   "{\"key\":\"\",\"operator\":\"Equal\",\"value\":\"v\",\"tolerationSeconds\":5}]";
	ds_error err;
	FUZZ_ASSERT(ds_object_parse("[]Toleration", text, sizeof(text) - 1, NULL, &tols, &err) == 0, "%s", err.message);
	return 0;
}

static void same(const json_t *v, const json_t *patch, const dsi_go_member *m, int type, const char *what)
{
	dsi_jout o = DSI_JOUT_INIT;
	dsi_go_emit_with(&o, v, patch, type, DSI_GO_STRUCT, m);
	char *ours = dsi_jout_finish(&o);
	if (!ours) {
		FUZZ_ASSERT(o.fail == 1, "%s: the writer failed (%d)", what, o.fail);
		return;
	}
	char *tree;
	FUZZ_ASSERT(dsi_test_go_tree(v, patch, m, type, &tree) == 0, "%s: the tree: no memory", what);
	FUZZ_ASSERT(tree != NULL, "%s: the writer wrote %s where the tree's dump fails", what, ours);
	FUZZ_ASSERT(strcmp(ours, tree) == 0, "%s:\n writer %s\n tree   %s", what, ours, tree);
	dsi_free(ours);
	dsi_free(tree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *sep = NULL;
	for (size_t i = 0; i + 4 <= size; i++)
		if ((i == 0 || s[i - 1] == '\n') && memcmp(s + i, "===\n", 4) == 0) {
			sep = s + i;
			break;
		}
	size_t vn = sep ? (size_t)(sep - s) : size;
	json_t *v = json_loadb(s, vn, JSON_DECODE_ANY, NULL), *patch = NULL;
	if (sep)
		patch = json_loadb(sep + 4, size - vn - 4, JSON_DECODE_ANY, NULL);
	if (!v && !patch)
		return 0;
	const int types[] = {dsi_decode_type_named("PodSpec"), dsi_decode_type_named("Affinity"),
			     dsi_schema_root_type("v1", "Pod"), dsi_schema_root_type("apps/v1", "DaemonSet")};
	const char *names[] = {"PodSpec", "Affinity", "Pod", "DaemonSet"};
	dsi_tolerations_ref ref = {&tols->atoms, &tols->u.tols};
	dsi_go_member m = {"tolerations", dsi_tolerations_ref_write, dsi_tolerations_ref_json, &ref, 0};
	for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
		same(v, patch, NULL, types[k], names[k]);
		if (k == 0)
			same(v, patch, &m, types[k], "PodSpec with tolerations");
	}
	json_decref(v);
	json_decref(patch);
	return 0;
}
