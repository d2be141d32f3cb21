/*
 * The writer of Go structs as text (lib/apiserver/goemit.c) against the tree it stands in for: a
 * deep copy of the value, the patch merged into it (dsi_go_merge), the caller's member set,
 * dsi_go_encode, dsi_json_dumps with keys sorted. Byte for byte, on every Kubernetes object of the
 * repository's JSON files at its type, on every pod template's spec with the patches the pure
 * functions make (tolerations, the node pin) and with every other template's spec merged in, on
 * values made to hit each rule (null, wrong JSON types, unknown fields, empty omitempty fields,
 * quantities, times, merges into what is no object); and NewPod's writer (dsi_new_pod_write) against
 * dsi_new_pod's tree for every DaemonSet of those files, read as the pure functions read it and as
 * the snapshot holds it. Where the writer hands a value back (o.fail 1: a real number), the test
 * says which, and the tree is what the library then writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/object.h"
#include "apiserver/decodecheck.h"
#include "apiserver/goemit.h"
#include "apiserver/goencode.h"
#include "apiserver/schema.h"
#include "core/alloc.h"
#include "core/jsonout.h"
#include "daemon/newpod.h"
#include "harness.h"
#include "../support/gotree.h"
#include "model/snapshot.h"
#include "model/taints.h"

typedef struct counts {
	size_t same, handed_back;
} counts;

/* The writer's text and the tree's agree (or the writer hands the value back). */
static void check(counts *c, const char *what, const json_t *v, const json_t *patch, const dsi_go_member *m, int type)
{
	dsi_jout o = DSI_JOUT_INIT;
	dsi_go_emit_with(&o, v, patch, type, DSI_GO_STRUCT, m);
	char *ours = dsi_jout_finish(&o);
	char *tree;
	ck_assert_int_eq(dsi_test_go_tree(v, patch, m, type, &tree), 0);
	if (!ours) {
		ck_assert_msg(o.fail == 1, "%s: the writer failed (%d)", what, o.fail);
		c->handed_back++;
	} else {
		ck_assert_msg(tree != NULL, "%s: the writer wrote %s where the tree's dump fails", what, ours);
		ck_assert_msg(strcmp(ours, tree) == 0, "%s:\n writer %s\n tree   %s", what, ours, tree);
		c->same++;
	}
	dsi_free(ours);
	dsi_free(tree);
}

static json_t *parse(const char *text)
{
	json_error_t je;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &je);
	ck_assert_msg(v != NULL, "bad test JSON: %s: %s", text, je.text);
	return v;
}

/* ---- the corpus: every JSON file of examples/ and tests/ ---------------------------------------- */

typedef struct corpus {
	json_t *objects;   /* the Kubernetes objects found, with a type */
	json_t *templates; /* the pod templates' specs */
	json_t *daemonsets;
} corpus;

static void collect(corpus *c, json_t *v, int depth)
{
	if (depth > 64)
		return;
	if (json_is_array(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) collect(c, e, depth + 1);
		return;
	}
	if (!json_is_object(v))
		return;
	const char *kind = json_string_value(json_object_get(v, "kind"));
	const char *api = json_string_value(json_object_get(v, "apiVersion"));
	if (kind && api && dsi_schema_root_type(api, kind) >= 0)
		json_array_append(c->objects, v);
	if (kind && strcmp(kind, "DaemonSet") == 0)
		json_array_append(c->daemonsets, v);
	json_t *ts = json_object_get(json_object_get(json_object_get(v, "spec"), "template"), "spec");
	if (json_is_object(ts))
		json_array_append(c->templates, ts);
	const char *key;
	json_t *m;
	json_object_foreach(v, key, m) collect(c, m, depth + 1);
}

static void corpus_file(const char *path, void *ctx)
{
	json_t *v = json_load_file(path, JSON_DECODE_ANY, NULL);
	if (v)
		collect(ctx, v, 0);
	json_decref(v);
}

static corpus load_corpus(void)
{
	corpus c = {json_array(), json_array(), json_array()};
	static const char *const json_files[] = {".json", NULL};
	dsi_test_each_file("examples", json_files, corpus_file, &c);
	dsi_test_each_file("tests", json_files, corpus_file, &c);
	printf("goemit: corpus of %zu objects, %zu pod templates, %zu DaemonSets\n", json_array_size(c.objects),
	       json_array_size(c.templates), json_array_size(c.daemonsets));
	ck_assert_uint_ge(json_array_size(c.objects), 200);
	ck_assert_uint_ge(json_array_size(c.templates), 50);
	return c;
}

static void free_corpus(corpus *c)
{
	json_decref(c->objects);
	json_decref(c->templates);
	json_decref(c->daemonsets);
}

/* Some tolerations of the kinds AddOrUpdateDaemonPodTolerations merges: every field set or not. */
static json_t *some_tolerations(void)
{
	return parse("[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"},"
		     "{\"key\":\"\",\"operator\":\"\",\"value\":\"\",\"effect\":\"\"},"
		     "{\"key\":\"k\",\"operator\":\"Equal\",\"value\":\"v\",\"effect\":\"NoSchedule\","
		     "\"tolerationSeconds\":300},{\"operator\":\"Exists\"}]");
}

START_TEST(corpus_objects)
{
	corpus c = load_corpus();
	counts n = {0, 0};
	size_t i;
	json_t *v;
	json_array_foreach(c.objects, i, v)
	{
		int type = dsi_schema_root_type(json_string_value(json_object_get(v, "apiVersion")),
						json_string_value(json_object_get(v, "kind")));
		check(&n, json_string_value(json_object_get(v, "kind")), v, NULL, NULL, type);
	}
	printf("goemit: %zu objects alike, %zu handed back\n", n.same, n.handed_back);
	ck_assert_uint_ge(n.same, 200);
	free_corpus(&c);
}
END_TEST

START_TEST(corpus_template_patches)
{
	corpus c = load_corpus();
	counts n = {0, 0};
	int podspec = dsi_decode_type_named("PodSpec"), affinity = dsi_decode_type_named("Affinity");
	json_t *tols = some_tolerations(), *pin = dsi_pin_patch("node-7");
	json_t *p_tols = json_pack("{s:O}", "tolerations", tols), *p_pin = json_pack("{s:O}", "affinity", pin);
	json_t *p_both = json_pack("{s:O, s:O}", "tolerations", tols, "affinity", pin);
	json_t *p_none = json_array(); /* tolerations: [], which omitempty leaves out */
	json_t *p_empty = json_pack("{s:O}", "tolerations", p_none);
	size_t i, j;
	json_t *v, *w;
	json_array_foreach(c.templates, i, v)
	{
		check(&n, "template spec", v, NULL, NULL, podspec);
		check(&n, "template spec + tolerations", v, p_tols, NULL, podspec);
		check(&n, "template spec + []", v, p_empty, NULL, podspec);
		check(&n, "template spec + pin", v, p_pin, NULL, podspec);
		check(&n, "template spec + both", v, p_both, NULL, podspec);
		check(&n, "affinity + pin", json_object_get(v, "affinity"), pin, NULL, affinity);
		/* every other template merged in: merges at every depth, replacements of every kind */
		json_array_foreach(c.templates, j, w) if ((i * 31 + j) % 7 == 0)
			check(&n, "template spec + template spec", v, w, NULL, podspec);
	}
	printf("goemit: %zu template texts alike, %zu handed back\n", n.same, n.handed_back);
	ck_assert_uint_ge(n.same, 500);
	json_decref(tols);
	json_decref(pin);
	json_decref(p_tols);
	json_decref(p_pin);
	json_decref(p_both);
	json_decref(p_none);
	json_decref(p_empty);
	free_corpus(&c);
}
END_TEST

/* ---- values made to hit each rule ---------------------------------------------------------------- */

static const char *const SPECS[] = {
	"{}",
	"null",
	"{\"containers\":null,\"volumes\":[],\"nodeSelector\":{},\"hostNetwork\":false,\"tolerations\":null}",
	"{\"containers\":[null,{\"name\":\"c\",\"resources\":null,\"env\":[{\"name\":\"A\",\"value\":null},"
	"{\"name\":\"B\",\"value\":\"\"}]}],\"unknownField\":{\"x\":1},\"terminationGracePeriodSeconds\":0}",
	"{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":1,\"memory\":\"1000Mi\","
	"\"x\":\"0.1\"},\"limits\":{\"cpu\":\"1000m\",\"nvidia.com/gpu\":null}}}],\"overhead\":{\"cpu\":\"10m\"}}",
	"{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":0.5}}}]}", /* a quantity's String() */
	"{\"terminationGracePeriodSeconds\":30.5}", /* a real written as it is: jansson's to write */
	"{\"affinity\":null}",
	"{\"affinity\":{\"nodeAffinity\":null,\"podAffinity\":{}}}",
	"{\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":null,"
	"\"preferredDuringSchedulingIgnoredDuringExecution\":[{\"weight\":1,\"preference\":{}}]}}}",
	"{\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{"
	"\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\",\"values\":[\"b\"]}]}],"
	"\"extra\":1}}}}",
	"{\"affinity\":\"wrong type\",\"tolerations\":{\"not\":\"an array\"},\"containers\":\"x\"}",
	"{\"volumes\":[{\"name\":\"v\",\"hostPath\":{\"path\":\"/proc\",\"type\":\"\"}},{\"name\":\"e\","
	"\"emptyDir\":{\"sizeLimit\":\"1Gi\",\"medium\":\"\"}},{\"name\":\"x\",\"emptyDir\":null}]}",
	"{\"securityContext\":{},\"dnsConfig\":{\"options\":[{\"name\":\"ndots\",\"value\":null}]},"
	"\"readinessGates\":[],\"schedulingGates\":null,\"os\":{\"name\":\"\"}}",
	"{\"tolerations\":[{\"key\":\"a\",\"tolerationSeconds\":null},{\"effect\":\"\"},null]}",
	"{\"containers\":[{\"name\":\"\\u00e9\\\"\\\\\\n\\u0001\",\"image\":\"\\u2603\",\"args\":[\"\",null]}]}",
};

static const char *const PATCHES[] = {
	"{\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\"}]}",
	"{\"tolerations\":[]}",
	"{\"tolerations\":null}",
	("{\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":"
	 "[{\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"n\"]}]}]}}}}"),
	"{\"nodeSelector\":{\"a\":\"b\"},\"unknown\":1,\"hostNetwork\":true}",
	"{\"nodeSelector\":{},\"containers\":[]}",
	"{\"securityContext\":{\"runAsUser\":0}}",
	"{\"affinity\":{}}",
	"{\"containers\":[{\"name\":\"p\",\"resources\":{\"limits\":{\"cpu\":\"2000m\"}}}]}",
};

START_TEST(rules)
{
	counts n = {0, 0};
	int podspec = dsi_decode_type_named("PodSpec");
	for (size_t i = 0; i < sizeof(SPECS) / sizeof(SPECS[0]); i++) {
		json_t *v = parse(SPECS[i]);
		check(&n, SPECS[i], v, NULL, NULL, podspec);
		check(&n, SPECS[i], NULL, v, NULL, podspec); /* as a patch on nothing */
		for (size_t j = 0; j < sizeof(PATCHES) / sizeof(PATCHES[0]); j++) {
			json_t *p = parse(PATCHES[j]);
			check(&n, PATCHES[j], v, p, NULL, podspec);
			json_decref(p);
		}
		for (size_t j = 0; j < sizeof(SPECS) / sizeof(SPECS[0]); j++) {
			json_t *p = parse(SPECS[j]);
			if (json_is_object(p))
				check(&n, SPECS[j], v, p, NULL, podspec);
			json_decref(p);
		}
		json_decref(v);
	}
	/* times (ObjectMeta's creationTimestamp: omitzero... as the schema says), a Node's status */
	int pod = dsi_schema_root_type("v1", "Pod"), node = dsi_schema_root_type("v1", "Node");
	const char *objs[] = {
		"{\"metadata\":{\"name\":\"p\",\"creationTimestamp\":\"2026-12-02T15:00:00.123456Z\","
		"\"deletionTimestamp\":null,\"labels\":{\"a\":null}},\"status\":{\"startTime\":\"2026-12-02T16:00:00+"
		"01:00\"}}",
		"{\"metadata\":{\"creationTimestamp\":null,\"ownerReferences\":[{\"controller\":null}]}}",
		"{\"metadata\":{\"creationTimestamp\":\"0001-01-01T00:00:00Z\"}}",
		"{\"metadata\":{\"creationTimestamp\":\"not a time\"}}",
	};
	for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		json_t *v = parse(objs[i]);
		check(&n, objs[i], v, NULL, NULL, pod);
		json_decref(v);
	}
	json_t *nv = parse("{\"status\":{\"capacity\":{\"cpu\":\"96\",\"memory\":\"1152Gi\",\"pods\":110},"
			   "\"conditions\":[{\"type\":\"Ready\",\"lastHeartbeatTime\":\"2026-12-02T14:59:00Z\"}]}}");
	check(&n, "node", nv, NULL, NULL, node);
	json_decref(nv);
	printf("goemit: %zu made values alike, %zu handed back\n", n.same, n.handed_back);
	ck_assert_uint_ge(n.handed_back, 1); /* the real terminationGracePeriodSeconds */
	ck_assert_uint_ge(n.same, 300);
}
END_TEST

/* A member written by its caller: the tolerations of a typed list, replacing or adding, empty or not. */
START_TEST(member_written_by_caller)
{
	counts n = {0, 0};
	int podspec = dsi_decode_type_named("PodSpec");
	ds_object *o;
	ds_error err;
	static const char tol_text[] =
		"[{\"key\":\"k\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"},"
		"{\"key\":\"\",\"operator\":\"Equal\",\"value\":\"v\"},{\"tolerationSeconds\":5},"
		"{\"key\":\"\\u00e9\",\"effect\":\"Odd\"}]";
	ck_assert_int_eq(ds_object_parse("[]Toleration", tol_text, sizeof(tol_text) - 1, NULL, &o, &err), 0);
	dsi_tolerations none = {NULL, 0};
	dsi_tolerations_ref some = {&o->atoms, &o->u.tols}, empty = {&o->atoms, &none};
	dsi_go_member m = {"tolerations", dsi_tolerations_ref_write, dsi_tolerations_ref_json, &some, 0};
	dsi_go_member e = {"tolerations", dsi_tolerations_ref_write, dsi_tolerations_ref_json, &empty, 1};
	json_t *p = parse(PATCHES[3]);
	for (size_t i = 0; i < sizeof(SPECS) / sizeof(SPECS[0]); i++) {
		json_t *v = parse(SPECS[i]);
		check(&n, SPECS[i], v, NULL, &m, podspec);
		check(&n, SPECS[i], v, NULL, &e, podspec);
		check(&n, SPECS[i], v, p, &m, podspec);
		json_decref(v);
	}
	json_decref(p);
	ds_object_free(o);
	ck_assert_uint_ge(n.same, 40);
}
END_TEST

/* ---- NewPod ------------------------------------------------------------------------------------ */

/* dsi_new_pod_write and the tree of dsi_new_pod agree for p on a few nodes and hashes. */
static void check_pod(counts *c, const dsi_placement *p)
{
	static char long_name[254];
	if (!long_name[0]) {
		memset(long_name, 'n', 253);
		long_name[100] = '.';
	}
	const char *nodes[] = {"node-1", long_name, "\xc3\xa9\"quoted\""};
	const char *hashes[] = {"", "5d8c6b7f9", NULL};
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 3; j++) {
			char *ours = NULL;
			ds_error e1, e2;
			dsi_error_clear(&e1);
			dsi_error_clear(&e2);
			int rc = dsi_new_pod_write(p, nodes[i], hashes[j], &ours, &e1);
			json_t *pod = dsi_new_pod(p, nodes[i], hashes[j], &e2);
			if (!pod) { /* no labels: both refuse, alike */
				ck_assert_int_lt(rc, 0);
				ck_assert_int_eq(e1.code, e2.code);
				ck_assert_str_eq(e1.message, e2.message);
				ck_assert_str_eq(e1.path, e2.path);
				c->same++;
				continue;
			}
			ck_assert_int_eq(dsi_go_encode(pod, dsi_schema_root_type("v1", "Pod")), 0);
			char *tree = dsi_json_dumps(pod, JSON_COMPACT | JSON_SORT_KEYS);
			json_decref(pod);
			if (rc == 1) {
				c->handed_back++;
			} else {
				ck_assert_int_eq(rc, 0);
				ck_assert_msg(strcmp(ours, tree) == 0, "new pod:\n writer %s\n tree   %s", ours, tree);
				c->same++;
			}
			dsi_free(ours);
			dsi_free(tree);
		}
}

START_TEST(new_pod_of_every_daemonset)
{
	corpus c = load_corpus();
	counts n = {0, 0};
	size_t i, read = 0, loaded = 0;
	json_t *v;
	json_array_foreach(c.daemonsets, i, v)
	{
		/* as a pure function reads it */
		char *text = json_dumps(v, JSON_COMPACT);
		ds_object *o;
		ds_error err;
		if (ds_object_parse("DaemonSet", text, strlen(text), NULL, &o, &err) == 0) {
			check_pod(&n, &o->u.ds.place);
			ds_object_free(o);
			read++;
		}
		/* as the snapshot holds it (canonical, defaulted) */
		ds_cluster *cl;
		ck_assert_int_eq(ds_cluster_new(NULL, &cl, &err), 0);
		if (ds_cluster_load(cl, text, strlen(text), NULL, &err) == 0 &&
		    dsi_cluster_count(cl, DSI_KIND_DAEMONSET) == 1) {
			dsi_placement p;
			const dsi_daemonset *ds = cl->objs[DSI_KIND_DAEMONSET].v[0];
			ck_assert_int_eq(dsi_placement_init(&p, cl, ds, &cl->core), 0);
			check_pod(&n, &p);
			dsi_placement_release(&p);
			loaded++;
		}
		ds_cluster_free(cl);
		free(text);
	}
	printf("goemit: new pods of %zu DaemonSets read and %zu loaded: %zu alike, %zu handed back\n", read, loaded,
	       n.same, n.handed_back);
	ck_assert_uint_ge(read, 30);
	ck_assert_uint_ge(loaded, 30);
	free_corpus(&c);
}
END_TEST

static Suite *goemit_suite(void)
{
	Suite *s = suite_create("goemit");
	TCase *tc = tcase_create("goemit");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, corpus_objects);
	tcase_add_test(tc, corpus_template_patches);
	tcase_add_test(tc, rules);
	tcase_add_test(tc, member_written_by_caller);
	tcase_add_test(tc, new_pod_of_every_daemonset);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(goemit_suite)
