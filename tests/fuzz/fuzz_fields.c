/*
 * libFuzzer target: strict field validation on arbitrary bytes:
 * ds_manifest_check_fields at each fieldValidation level, and
 * ds_daemonset_validate with Strict and Ignore.
 * Invariants: the ABI error contract; the levels agree on whether the text
 * loads and on its objects; Strict's errors are Warn's warnings, message for
 * message, and Ignore reports nothing; every finding's message is its type
 * and quoted path, its field the end of the path, its position inside the
 * text; validate with Ignore succeeds exactly when validate with Strict does.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_common.h"

static ds_options *levels[3]; /* Strict, Warn, Ignore; read-only after LLVMFuzzerInitialize */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	levels[0] = fuzz_options("{\"fieldValidation\": \"Strict\", \"maxAliasNodes\": 2000}");
	levels[1] = fuzz_options("{\"fieldValidation\": \"Warn\", \"maxAliasNodes\": 2000}");
	levels[2] = fuzz_options("{\"fieldValidation\": \"Ignore\", \"maxAliasNodes\": 2000}");
	return 0;
}

static json_t *run(const char *text, size_t size, int level, int *rc_out)
{
	ds_error err;
	char *out = NULL;
	int rc = ds_manifest_check_fields(text, size, levels[level], &out, &err);
	fuzz_check_rc("ds_manifest_check_fields", rc, &err);
	*rc_out = rc;
	if (rc < 0) {
		FUZZ_ASSERT(out == NULL, "output on failure");
		return NULL;
	}
	json_error_t je;
	json_t *r = json_loads(out, 0, &je);
	FUZZ_ASSERT(r != NULL, "output is not JSON: %s", je.text);
	ds_free(out);
	return r;
}

static void check_findings(const json_t *list, size_t lines)
{
	size_t i;
	json_t *f;
	json_array_foreach(list, i, f)
	{
		const char *type = json_string_value(json_object_get(f, "type"));
		const char *path = json_string_value(json_object_get(f, "path"));
		const char *field = json_string_value(json_object_get(f, "field"));
		const char *msg = json_string_value(json_object_get(f, "message"));
		FUZZ_ASSERT(type && path && field && msg, "finding %zu lacks a member", i);
		FUZZ_ASSERT(strcmp(type, "unknown field") == 0 || strcmp(type, "duplicate field") == 0, "type %s",
			    type);
		FUZZ_ASSERT(strncmp(msg, type, strlen(type)) == 0 && msg[strlen(type)] == ' ' &&
				    msg[strlen(type) + 1] == '"',
			    "message %s", msg);
		size_t pl = strlen(path), fl = strlen(field);
		FUZZ_ASSERT(fl <= pl && strcmp(path + pl - fl, field) == 0, "field %s is not the end of %s", field,
			    path);
		json_int_t line = json_integer_value(json_object_get(f, "line"));
		FUZZ_ASSERT(line >= 0 && (size_t)line <= lines, "line %lld of %zu", (long long)line, lines);
	}
	FUZZ_ASSERT(json_array_size(list) <= 100 * 1024, "too many findings");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	const char *text = (const char *)data;
	/* the most lines a parser can count: YAML also breaks lines at CR, NEL, LS and PS */
	size_t lines = 1;
	for (size_t i = 0; i < size; i++) {
		unsigned char c = (unsigned char)text[i];
		lines += c == '\n' || c == '\r' || (c == 0xC2 && i + 1 < size && (unsigned char)text[i + 1] == 0x85) ||
			 (c == 0xE2 && i + 2 < size && (unsigned char)text[i + 1] == 0x80 &&
			  ((unsigned char)text[i + 2] == 0xA8 || (unsigned char)text[i + 2] == 0xA9));
	}
	int rc[3];
	json_t *r[3];
	for (int l = 0; l < 3; l++)
		r[l] = run(text, size, l, &rc[l]);
	FUZZ_ASSERT(rc[0] == rc[1] && rc[1] == rc[2], "levels disagree: %d %d %d", rc[0], rc[1], rc[2]);
	if (rc[0] == 0) {
		json_t *se = json_object_get(r[0], "errors"), *ww = json_object_get(r[1], "warnings");
		FUZZ_ASSERT(json_array_size(json_object_get(r[0], "warnings")) == 0 &&
				    json_array_size(json_object_get(r[1], "errors")) == 0,
			    "findings on the wrong side");
		FUZZ_ASSERT(json_array_size(json_object_get(r[2], "errors")) == 0 &&
				    json_array_size(json_object_get(r[2], "warnings")) == 0,
			    "Ignore reported something");
		FUZZ_ASSERT(json_equal(se, ww), "Strict's errors are not Warn's warnings");
		check_findings(se, lines);
		FUZZ_ASSERT(json_array_size(json_object_get(r[0], "objects")) ==
				    json_array_size(json_object_get(r[2], "objects")),
			    "levels see different objects");
	}
	for (int l = 0; l < 3; l++)
		json_decref(r[l]);

	ds_error err;
	char *a = NULL, *b = NULL;
	int ra = ds_daemonset_validate(text, size, 0, levels[0], &a, &err);
	fuzz_check_rc("ds_daemonset_validate (Strict)", ra, &err);
	int rb = ds_daemonset_validate(text, size, 0, levels[2], &b, &err);
	fuzz_check_rc("ds_daemonset_validate (Ignore)", rb, &err);
	FUZZ_ASSERT((ra == 0) == (rb == 0), "validate: Strict %d, Ignore %d", ra, rb);
	if (ra == 0) {
		json_t *v = json_loads(a, 0, NULL);
		FUZZ_ASSERT(v && json_is_boolean(json_object_get(v, "valid")), "validate output: %.300s", a);
		json_decref(v);
	}
	ds_free(a);
	ds_free(b);
	return 0;
}
