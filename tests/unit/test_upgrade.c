/* Cluster upgrade planning: batch order, shared budgets, DaemonSet and PDB warnings, bad inputs. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ops/upgrade.h"

#define OWN "tests/vectors/ops/"

static json_t *load_json_file(const char *path)
{
	char *text = dsi_test_read_file(path, NULL);
	json_error_t je;
	json_t *v = json_loads(text, 0, &je);
	free(text);
	ck_assert_msg(v != NULL, "%s: %s (line %d)", path, je.text, je.line);
	return v;
}

static ds_cluster *cluster_of(const json_t *objects)
{
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	json_t *list = json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List", "items", objects);
	char *text = json_dumps(list, JSON_COMPACT);
	int rc = ds_cluster_load(c, text, strlen(text), NULL, &err);
	ck_assert_msg(rc == 0, "load: %s: %s", err.path, err.message);
	free(text);
	json_decref(list);
	return c;
}

static ds_options *options_of(const json_t *o)
{
	ds_options *opts;
	ck_assert_int_eq(ds_options_new(&opts), 0);
	if (o && json_object_size(o)) {
		char *text = json_dumps(o, JSON_COMPACT);
		ds_error err;
		ck_assert_int_eq(ds_options_set_json(opts, text, &err), 0);
		free(text);
	}
	return opts;
}

/* want is a subset of got (objects by want's keys, arrays element by element) */
static int subset(const json_t *want, const json_t *got, char *where, size_t len, size_t cap)
{
	if (json_is_object(want)) {
		if (!json_is_object(got)) {
			snprintf(where + len, cap - len, ": not an object");
			return 0;
		}
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)want, k, v)
		{
			int n = snprintf(where + len, cap - len, ".%s", k);
			json_t *g = json_object_get(got, k);
			if (!g) {
				snprintf(where + len + (size_t)n, cap - len - (size_t)n, ": missing");
				return 0;
			}
			if (!subset(v, g, where, len + (size_t)n, cap))
				return 0;
		}
		where[len] = '\0';
		return 1;
	}
	if (json_is_array(want)) {
		if (!json_is_array(got) || json_array_size(got) != json_array_size(want)) {
			snprintf(where + len, cap - len, ": %zu elements, want %zu", json_array_size(got),
				 json_array_size(want));
			return 0;
		}
		for (size_t i = 0; i < json_array_size(want); i++) {
			int n = snprintf(where + len, cap - len, "[%zu]", i);
			if (!subset(json_array_get(want, i), json_array_get(got, i), where, len + (size_t)n, cap))
				return 0;
		}
		where[len] = '\0';
		return 1;
	}
	if (!json_equal((json_t *)want, (json_t *)got)) {
		snprintf(where + len, cap - len, ": different value");
		return 0;
	}
	return 1;
}

static int code_of(const char *name)
{
	if (strcmp(name, "DS_EARG") == 0)
		return DS_EARG;
	if (strcmp(name, "DS_EVALUE") == 0)
		return DS_EVALUE;
	ck_assert_str_eq(name, "DS_ENOTFOUND");
	return DS_ENOTFOUND;
}

static void run_case(const json_t *cs)
{
	const char *name = json_string_value(json_object_get(cs, "name"));
	ds_cluster *c = cluster_of(json_object_get(cs, "objects"));
	ds_options *opts = options_of(json_object_get(cs, "options"));
	const json_t *nodes = json_object_get(cs, "nodes");
	const char *names[16];
	size_t n = json_array_size(nodes);
	ck_assert_uint_le(n, 16);
	for (size_t i = 0; i < n; i++)
		names[i] = json_string_value(json_array_get(nodes, i));
	ds_time now;
	ds_error err;
	ck_assert_int_eq(ds_time_parse(json_string_value(json_object_get(cs, "now")), &now, &err), 0);
	char *out = NULL;
	int rc = ds_upgrade(c, n ? names : NULL, n, json_string_value(json_object_get(cs, "selector")), now, opts, &out,
			    &err);
	const json_t *ee = json_object_get(cs, "expectError");
	if (ee) {
		ck_assert_msg(rc == code_of(json_string_value(json_object_get(ee, "code"))), "%s: rc %d: %s", name, rc,
			      err.message);
		ck_assert_ptr_null(out);
		ck_assert_error(err, rc, json_string_value(json_object_get(ee, "path")));
		const char *prefix = json_string_value(json_object_get(ee, "messagePrefix"));
		ck_assert_msg(strncmp(err.message, prefix, strlen(prefix)) == 0, "%s: message '%s'", name, err.message);
	} else {
		ck_assert_msg(rc == 0, "%s: %s: %s: %s", name, ds_strerror(rc), err.path, err.message);
		json_error_t je;
		json_t *got = json_loads(out, 0, &je);
		ds_free(out);
		ck_assert_ptr_nonnull(got);
		char where[512] = "";
		if (!subset(json_object_get(cs, "expect"), got, where, 0, sizeof(where))) {
			char *g = json_dumps(got, JSON_INDENT(1) | JSON_SORT_KEYS);
			fprintf(stderr, "%s: mismatch at %s\n%s\n", name, where, g);
			free(g);
			ck_abort_msg("%s: mismatch at %s", name, where);
		}
		json_decref(got);
	}
	ds_options_free(opts);
	ds_cluster_free(c);
}

START_TEST(upgrade_vectors)
{
	json_t *doc = load_json_file(OWN "upgrade.json");
	json_t *cases = json_object_get(doc, "cases");
	ck_assert_uint_ge(json_array_size(cases), 10);
	for (size_t i = 0; i < json_array_size(cases); i++)
		run_case(json_array_get(cases, i));
	printf("ops/upgrade.json: %zu cases run\n", json_array_size(cases));
	json_decref(doc);
}
END_TEST

/* The same plan from names and from a selector; batchSize larger than the nodes. */
START_TEST(selection_forms_agree)
{
	json_t *objs = json_pack("[{s:s, s:s, s:{s:s, s:{s:s}}}, {s:s, s:s, s:{s:s, s:{s:s}}}, {s:s, s:s, s:{s:s}}]",
				 "apiVersion", "v1", "kind", "Node", "metadata", "name", "b", "labels", "x", "1",
				 "apiVersion", "v1", "kind", "Node", "metadata", "name", "a", "labels", "x", "1",
				 "apiVersion", "v1", "kind", "Node", "metadata", "name", "c");
	ds_cluster *c = cluster_of(objs);
	json_decref(objs);
	ds_options *opts = options_of(NULL);
	ds_error err;
	ck_assert_int_eq(ds_options_set(opts, "batchSize", "10", &err), 0);
	const char *names[] = {"b", "a"};
	char *a = NULL, *b = NULL;
	ck_assert_int_eq(ds_upgrade(c, names, 2, NULL, 0, opts, &a, &err), 0);
	ck_assert_int_eq(ds_upgrade(c, NULL, 0, "x=1", 0, opts, &b, NULL), 0);
	json_t *ja = json_loads(a, 0, NULL), *jb = json_loads(b, 0, NULL);
	ck_assert(json_equal(json_object_get(ja, "batches"), json_object_get(jb, "batches")));
	ck_assert_uint_eq(json_array_size(json_object_get(ja, "batches")), 1);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(ja, "nodes"), 0)), "a");
	json_decref(ja);
	json_decref(jb);
	ds_free(a);
	ds_free(b);
	/* NULL arguments */
	char *out = (char *)1;
	ck_assert_int_eq(ds_upgrade(NULL, names, 2, NULL, 0, NULL, &out, &err), DS_EARG);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(ds_upgrade(c, names, 2, NULL, 0, NULL, NULL, &err), DS_EARG);
	ck_assert_int_eq(ds_upgrade(c, NULL, 2, NULL, 0, NULL, &out, &err), DS_EARG);
	const char *with_null[] = {"a", NULL};
	ck_assert_int_eq(ds_upgrade(c, with_null, 2, NULL, 0, NULL, &out, &err), DS_EARG);
	ck_assert_str_eq(err.path, "nodes[1]");
	ds_options_free(opts);
	ds_cluster_free(c);
}
END_TEST

static Suite *upgrade_suite(void)
{
	Suite *s = suite_create("upgrade");
	TCase *tc = tcase_create("upgrade");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, upgrade_vectors);
	tcase_add_test(tc, selection_forms_agree);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(upgrade_suite)
