/*
 * Parsed objects (include/daemonset/object.h): what ds_object_parse, ds_object_from_json and
 * ds_cluster_get_object make, references, the checks of the _obj decisions, and that a decision on
 * objects changes nothing of them (jansson's reference counts of the JSON an object keeps included).
 * The answers themselves are held to the text forms' by tests/unit/test_upstream.c (every table case
 * through both) and test_upstream_diff.c (random cases, objects parsed and taken from snapshots).
 */
#include <stdlib.h>
#include <string.h>

#include "api/object.h"
#include "harness.h"
#include "vectors.h"

static ds_object *parse(const char *type, const char *text)
{
	ds_object *o = NULL;
	ds_error err;
	int rc = ds_object_parse(type, text, strlen(text), NULL, &o, &err);
	ck_assert_msg(rc == 0, "%s: %s: %s", err.source, err.path, err.message);
	return o;
}

static const char DS[] = "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"agent\","
			 "\"namespace\":\"kube-system\",\"uid\":\"u1\"},\"spec\":{\"selector\":{\"matchLabels\":{"
			 "\"app\":\"a\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"a\"}},\"spec\":{"
			 "\"nodeSelector\":{\"disk\":\"ssd\"},\"tolerations\":[{\"key\":\"dedicated\",\"operator\":"
			 "\"Exists\",\"effect\":\"NoSchedule\"}],\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}";
static const char NODE_OK[] = "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"disk\":\"ssd\"}},"
			      "\"spec\":{\"taints\":[{\"key\":\"dedicated\",\"effect\":\"NoSchedule\"}]}}";
static const char NODE_NOSEL[] = "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\",\"labels\":{\"disk\":\"hdd\"}}}";
static const char NODE_EVICT[] = "{\"metadata\":{\"name\":\"n3\",\"labels\":{\"disk\":\"ssd\"}},\"spec\":{\"taints\":"
				 "[{\"key\":\"gone\",\"value\":\"x\",\"effect\":\"NoExecute\"}]}}";

START_TEST(types_and_kinds)
{
	ds_object *o = parse("Toleration", "{\"operator\":\"Exists\"}");
	ck_assert_str_eq(ds_object_type(o), "Toleration");
	ds_object_free(o);
	o = parse("Taint", "key: k\neffect: NoSchedule\n");
	ck_assert_str_eq(ds_object_type(o), "Taint");
	ds_object_free(o);
	/* NULL: the kind says; a Node without a kind is a Node when the type says so */
	o = parse(NULL, DS);
	ck_assert_str_eq(ds_object_type(o), "DaemonSet");
	ds_object_free(o);
	o = parse(NULL, NODE_OK);
	ck_assert_str_eq(ds_object_type(o), "Node");
	ds_object_free(o);
	o = parse("Node", NODE_EVICT);
	ck_assert_str_eq(ds_object_type(o), "Node");
	ds_object_free(o);
	/* a NodeList of one node */
	char *list = vt_fmt("{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"items\":[%s]}", NODE_EVICT);
	o = parse(NULL, list);
	ck_assert_str_eq(ds_object_type(o), "Node");
	ds_object_free(o);
	free(list);
	ck_assert_str_eq(ds_object_type(NULL), "");
}
END_TEST

START_TEST(parse_errors)
{
	ds_object *o = (ds_object *)1;
	ds_error err;
	ck_assert_int_eq(ds_object_parse("Pod!", "{}", 2, NULL, &o, &err), DS_EARG);
	ck_assert_ptr_null(o);
	ck_assert_int_eq(ds_object_parse("Toleration", "{}", 2, NULL, NULL, &err), DS_EARG);
	/* as the text functions report them: the argument's name as the source */
	ck_assert_int_eq(ds_object_parse("Toleration", "{\"key\": 5}", 10, NULL, &o, &err), DS_ETYPE);
	ck_assert_error(err, DS_ETYPE, "key");
	ck_assert_str_eq(err.source, "toleration");
	ck_assert_int_eq(ds_object_parse("Taint", "", 0, NULL, &o, &err), DS_EMISSING);
	ck_assert_str_eq(err.source, "taint");
	ck_assert_int_eq(ds_object_parse("Node", NULL, 3, NULL, &o, &err), DS_EARG);
	/* another kind than the type's */
	ck_assert_int_eq(ds_object_parse("DaemonSet", NODE_OK, strlen(NODE_OK), NULL, &o, &err), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "kind");
	/* without a type: a kind is needed, and one of ours */
	ck_assert_int_eq(ds_object_parse(NULL, NODE_EVICT, strlen(NODE_EVICT), NULL, &o, &err), DS_EMISSING);
	ck_assert_error(err, DS_EMISSING, "kind");
	const char *cm = "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\"}}";
	ck_assert_int_eq(ds_object_parse(NULL, cm, strlen(cm), NULL, &o, &err), DS_EUNSUPPORTED);
	/* two objects where one is wanted */
	char *two = vt_fmt("%s\n%s\n", NODE_OK, NODE_NOSEL); /* concatenated JSON values */
	ck_assert_int_eq(ds_object_parse("Node", two, strlen(two), NULL, &o, &err), DS_EARG);
	free(two);
	/* a field of the wrong type in an item of a List: its path in the text */
	const char *bad = "{\"kind\":\"List\",\"items\":[{\"kind\":\"Node\",\"metadata\":{\"name\":5}}]}";
	ck_assert_int_eq(ds_object_parse(NULL, bad, strlen(bad), NULL, &o, &err), DS_ETYPE);
	ck_assert_error(err, DS_ETYPE, "items[0].metadata.name");
	ck_assert_str_eq(err.source, "object");
	ck_assert_ptr_null(o);
}
END_TEST

START_TEST(references)
{
	ds_object *o = parse("Taint", "{\"key\":\"k\",\"effect\":\"NoSchedule\"}");
	ck_assert_ptr_eq(ds_object_ref(o), o);
	ck_assert_uint_eq(atomic_load(&o->refs), 2);
	ds_object_free(o);
	ck_assert_uint_eq(atomic_load(&o->refs), 1);
	ck_assert_str_eq(ds_object_type(o), "Taint");
	ds_object_free(o); /* the last: freed (the sanitizer and valgrind runs would see a leak or a double free) */
	ck_assert_ptr_null(ds_object_ref(NULL));
	ds_object_free(NULL);
}
END_TEST

/* A jansson value is read as its text is, and left as it was. */
START_TEST(from_json)
{
	json_t *v = json_loads(DS, 0, NULL);
	ck_assert_ptr_nonnull(v);
	char *before = json_dumps(v, JSON_SORT_KEYS);
	size_t refs = v->refcount;
	ds_object *o = NULL, *t = parse("DaemonSet", DS), *n = parse("Node", NODE_OK);
	ds_error err;
	ck_assert_int_eq(ds_object_from_json("DaemonSet", v, NULL, &o, &err), 0);
	char *after = json_dumps(v, JSON_SORT_KEYS);
	ck_assert_str_eq(after, before);
	ck_assert_uint_eq(v->refcount, refs);
	json_decref(v); /* the object keeps nothing of it */
	char *j1 = NULL, *j2 = NULL;
	ck_assert_int_eq(ds_daemonset_node_should_run_obj(o, n, NULL, NULL, NULL, &j1, &err), 0);
	ck_assert_int_eq(ds_daemonset_node_should_run_obj(t, n, NULL, NULL, NULL, &j2, &err), 0);
	ck_assert_str_eq(j1, j2);
	ds_free(j1);
	ds_free(j2);
	ds_object_free(o);
	ds_object_free(t);
	ds_object_free(n);
	/* the type of a value, and nothing */
	json_t *tol = json_pack("{s:s, s:i}", "key", "k", "tolerationSeconds", 5);
	ck_assert_int_eq(ds_object_from_json("Toleration", tol, NULL, &o, &err), 0);
	ds_object_free(o);
	json_object_set_new(tol, "tolerationSeconds", json_string("5"));
	ck_assert_int_eq(ds_object_from_json("Toleration", tol, NULL, &o, &err), DS_ETYPE);
	ck_assert_error(err, DS_ETYPE, "tolerationSeconds");
	ck_assert_int_eq(ds_object_from_json("Toleration", NULL, NULL, &o, &err), DS_EMISSING);
	json_decref(tol);
	free(before);
	free(after);
}
END_TEST

/* Objects taken from a snapshot: copies that outlive it, and answer as the snapshot does. */
START_TEST(from_a_snapshot)
{
	char *text = vt_fmt("{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[%s,%s,%s]}", DS, NODE_OK, NODE_NOSEL);
	ds_cluster *c = dsi_test_cluster_text(text);
	free(text);
	ds_object *d = NULL, *n1 = NULL, *n2 = NULL, *x = NULL;
	ds_error err;
	ck_assert_int_eq(ds_cluster_get_object(c, "DaemonSet", "kube-system", "agent", &d, &err), 0);
	ck_assert_int_eq(ds_cluster_get_object(c, "Node", NULL, "n1", &n1, &err), 0);
	ck_assert_int_eq(ds_cluster_get_object(c, "Node", "ignored", "n2", &n2, &err), 0);
	ck_assert_int_eq(ds_cluster_get_object(c, "Node", NULL, "n9", &x, &err), DS_ENOTFOUND);
	ck_assert_str_eq(err.message, "nodes \"n9\" not found");
	ck_assert_int_eq(ds_cluster_get_object(c, "DaemonSet", "default", "agent", &x, &err), DS_ENOTFOUND);
	ck_assert_int_eq(ds_cluster_get_object(c, "Pod", NULL, "p", &x, &err), DS_EARG);
	ck_assert_int_eq(ds_cluster_get_object(NULL, "Node", NULL, "n1", &x, &err), DS_EARG);
	ck_assert_ptr_null(x);
	char *want[2];
	const char *names[2] = {"n1", "n2"};
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(
			ds_daemonset_should_run(c, "kube-system", "agent", names[i], NULL, NULL, NULL, &want[i], &err),
			0);
	ds_cluster_free(c);
	ds_object *nodes[2] = {n1, n2};
	for (int i = 0; i < 2; i++) {
		char *got = NULL;
		int run = -1;
		ck_assert_int_eq(ds_daemonset_node_should_run_obj(d, nodes[i], NULL, &run, NULL, &got, &err), 0);
		ck_assert_int_eq(run, i == 0);
		ck_assert_str_eq(got, want[i]);
		ds_free(got);
		ds_free(want[i]);
	}
	ds_object_free(d);
	ds_object_free(n1);
	ds_object_free(n2);
}
END_TEST

START_TEST(decisions_check_their_arguments)
{
	ds_object *tol = parse("Toleration", "{\"operator\":\"Exists\"}"),
		  *taint = parse("Taint", "{\"key\":\"k\",\"effect\":\"NoSchedule\"}"), *d = parse("DaemonSet", DS),
		  *n = parse("Node", NODE_OK);
	ds_error err;
	int v = -1;
	ck_assert_int_eq(ds_toleration_tolerates_taint_obj(taint, tol, NULL, &v, &err), DS_EARG);
	ck_assert_str_eq(err.message, "toleration: expected a Toleration object, got a Taint");
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(ds_toleration_tolerates_taint_obj(tol, NULL, NULL, &v, &err), DS_EARG);
	ck_assert_int_eq(ds_toleration_tolerates_taint_obj(tol, taint, NULL, NULL, &err), DS_EARG);
	ck_assert_int_eq(ds_toleration_tolerates_taint_obj(tol, taint, NULL, &v, NULL), 0);
	ck_assert_int_eq(v, 1);
	char *out = (char *)1;
	ck_assert_int_eq(ds_daemonset_node_should_run_obj(n, d, NULL, NULL, NULL, &out, &err), DS_EARG);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(ds_daemonset_node_should_run_obj(d, NULL, NULL, NULL, NULL, NULL, &err), DS_EARG);
	/* a successful call leaves the report empty */
	strcpy(err.path, "stale");
	strcpy(err.message, "stale");
	ck_assert_int_eq(ds_daemonset_node_should_run_obj(d, n, NULL, NULL, NULL, NULL, &err), 0);
	ck_assert_int_eq(err.code, 0);
	ck_assert_str_eq(err.path, "");
	ck_assert_str_eq(err.message, "");
	ds_object_free(tol);
	ds_object_free(taint);
	ds_object_free(d);
	ds_object_free(n);
}
END_TEST

/* The decisions across two tables of strings, where ids mean nothing: the reasons name the right
 * strings of each object. */
START_TEST(verdicts_across_objects)
{
	ds_object *d = parse("DaemonSet", DS);
	const char *texts[3] = {NODE_OK, NODE_NOSEL, NODE_EVICT};
	for (int i = 0; i < 3; i++) {
		ds_object *n = parse("Node", texts[i]);
		int run = -1, cont = -1, trun = -1, tcont = -1;
		char *got = NULL, *want = NULL;
		ds_error err;
		ck_assert_int_eq(ds_daemonset_node_should_run_obj(d, n, NULL, &run, &cont, &got, &err), 0);
		ck_assert_int_eq(ds_daemonset_node_should_run(DS, strlen(DS), texts[i], strlen(texts[i]), NULL, &trun,
							      &tcont, &want, &err),
				 0);
		ck_assert_int_eq(run, trun);
		ck_assert_int_eq(cont, tcont);
		ck_assert_str_eq(got, want);
		ck_assert_int_eq(run, i == 0);
		ck_assert_int_eq(cont, i == 0);
		if (i == 1)
			ck_assert_ptr_nonnull(strstr(got, "label disk is \\\"hdd\\\", nodeSelector wants \\\"ssd\\\""));
		if (i == 2)
			ck_assert_ptr_nonnull(strstr(got, "untolerated taint {gone: x} (effect NoExecute"));
		ds_free(got);
		ds_free(want);
		ds_object_free(n);
	}
	ds_object_free(d);
	/* effects and operators the API does not know, compared as strings across objects */
	ds_object *t = parse("Toleration", "{\"operator\":\"Exists\",\"effect\":\"noschedule\"}"),
		  *x1 = parse("Taint", "{\"key\":\"k\",\"effect\":\"noschedule\"}"),
		  *x2 = parse("Taint", "{\"key\":\"k\",\"effect\":\"NoSchedule\"}");
	int v1 = -1, v2 = -1;
	ck_assert_int_eq(ds_toleration_tolerates_taint_obj(t, x1, NULL, &v1, NULL), 0);
	ck_assert_int_eq(ds_toleration_tolerates_taint_obj(t, x2, NULL, &v2, NULL), 0);
	ck_assert_int_eq(v1, 1);
	ck_assert_int_eq(v2, 0);
	ds_object_free(t);
	ds_object_free(x1);
	ds_object_free(x2);
}
END_TEST

/* The reference counts of every value of a tree, in document order. */
static void refcounts(const json_t *v, json_t *out)
{
	json_array_append_new(out, json_integer((json_int_t)v->refcount));
	size_t i;
	const char *k;
	json_t *x;
	if (json_is_array(v))
		json_array_foreach(v, i, x) refcounts(x, out);
	else if (json_is_object(v))
		json_object_foreach((json_t *)v, k, x) refcounts(x, out);
}

/* A decision touches none of jansson's reference counts in the JSON an object keeps (they are not
 * atomic in every jansson build, and objects are shared by threads). */
START_TEST(decisions_leave_the_json_alone)
{
	ds_object *d = parse("DaemonSet", DS), *n = parse("Node", NODE_EVICT);
	ck_assert_ptr_nonnull(d->u.ds.d.obj);
	json_t *before = json_array(), *after = json_array();
	refcounts(d->u.ds.d.obj, before);
	char *out = NULL;
	ck_assert_int_eq(ds_daemonset_node_should_run_obj(d, n, NULL, NULL, NULL, &out, NULL), 0);
	ds_free(out);
	refcounts(d->u.ds.d.obj, after);
	ck_assert_msg(json_equal(before, after), "a reference count changed");
	ck_assert_uint_gt(json_array_size(before), 20);
	json_decref(before);
	json_decref(after);
	ds_object_free(d);
	ds_object_free(n);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("object");
	TCase *tc = tcase_create("object");
	tcase_add_test(tc, types_and_kinds);
	tcase_add_test(tc, parse_errors);
	tcase_add_test(tc, references);
	tcase_add_test(tc, from_json);
	tcase_add_test(tc, from_a_snapshot);
	tcase_add_test(tc, decisions_check_their_arguments);
	tcase_add_test(tc, verdicts_across_objects);
	tcase_add_test(tc, decisions_leave_the_json_alone);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
