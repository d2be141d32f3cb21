/* Cluster upgrade planning: batch order, shared budgets, DaemonSet and PDB warnings, bad inputs. */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ops/upgrade.h"
#include "vectors.h"

#define OWN "tests/vectors/ops/"

static void run_case(const json_t *cs)
{
	const char *name = json_string_value(json_object_get(cs, "name"));
	ds_cluster *c = vt_cluster(json_object_get(cs, "objects"), NULL);
	ds_options *opts = dsi_test_options_of(json_object_get(cs, "options"));
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
	dsi_test_expect_outcome(name, cs, rc, &err, out);
	ds_options_free(opts);
	ds_cluster_free(c);
}

START_TEST(upgrade_vectors)
{
	json_t *doc = dsi_test_load_json(OWN "upgrade.json");
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
	ds_cluster *c = vt_cluster(objs, NULL);
	json_decref(objs);
	ds_options *opts = dsi_test_options_of(NULL);
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
