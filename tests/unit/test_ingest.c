/*
 * Ingest. A large List staged on several threads (loadThreads, dsi_load_par) against the same text loaded on
 * one: the same objects in the same order (the snapshot's arrays are in commit order, so an item
 * committed out of its place shows), the same winner where an object appears twice, and, whatever is
 * wrong and wherever, the same error (code, message, path, line, column, source) and an unchanged
 * snapshot. The lists are long enough (hundreds of items in chunks of 16) for the threads to
 * interleave, and each comparison is repeated.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "core/load.h"
#include "core/objects.h"
#include "model/snapshot.h"

typedef struct text {
	char *p;
	size_t n, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int k = vsnprintf(t->p + t->n, t->cap - t->n, fmt, ap);
		va_end(ap);
		if (k >= 0 && (size_t)k < t->cap - t->n) {
			t->n += (size_t)k;
			return;
		}
		t->cap = t->cap ? t->cap * 2 : 1 << 16;
		t->p = realloc(t->p, t->cap);
		ck_assert_ptr_nonnull(t->p);
	}
}

/* Item i of the list, every kind the snapshot reads and one it does not; every 97th item is a node
 * given again (a later version of an earlier one, which must win), every 89th a pod likewise. */
static void item(text *t, int i)
{
	int v = i; /* which version: the name repeats, the content differs */
	switch (i % 9) {
	case 0:
	case 1:
	case 2:
		if (i % 97 == 0 && i)
			i -= 50 * 9; /* the same node as 50 rounds before */
		add(t,
		    "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n%d\",\"uid\":\"u%d\","
		    "\"resourceVersion\":\"%d\",\"labels\":{\"zone\":\"z%d\",\"v\":\"%d\",\"k%d\":\"x\"}},"
		    "\"spec\":{\"taints\":[{\"key\":\"t%d\",\"effect\":\"NoSchedule\"}]},"
		    "\"status\":{\"allocatable\":{\"cpu\":\"%dm\",\"memory\":\"1Gi\",\"pods\":\"110\",\"ex.com/r%d\":"
		    "\"3\"},\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"lastHeartbeatTime\":"
		    "\"2026-01-01T00:00:00Z\"}],\"images\":[{\"names\":[\"a\"],\"sizeBytes\":%d}]}}",
		    i, v, v, i % 3, v, i % 7, i % 5, 1000 + v, i % 4, v);
		break;
	case 3:
	case 4:
	case 5:
	case 6:
		if (i % 89 == 0 && i)
			i -= 40 * 9;
		add(t,
		    "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p%d\",\"namespace\":\"ns%d\","
		    "\"uid\":"
		    "\"pu%d\",\"labels\":{\"app\":\"a%d\",\"controller-revision-hash\":\"h%d\",\"v\":\"%d\"},"
		    "\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"name\":\"ds%d\",\"uid\":"
		    "\"dsu%d\",\"controller\":true}]},\"spec\":{\"nodeName\":\"n%d\",\"priority\":%d,\"containers\":"
		    "[{\"name\":\"c\",\"image\":\"i\",\"ports\":[{\"containerPort\":80,\"hostPort\":%d,\"hostIP\":"
		    "\"10.0.0.%d\"}],\"resources\":{\"requests\":{\"cpu\":\"%dm\",\"ex.com/r%d\":\"1\"}}}]},"
		    "\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}",
		    i, i % 4, v, i % 6, i % 2, v, i % 3, i % 3, i / 9 * 3, v % 100, 8000 + i % 50, i % 200, 10 + v % 90,
		    i % 4);
		break;
	case 7:
		if (i % 18 == 7)
			add(t,
			    "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"ds%d\","
			    "\"namespace\":\"ns0\",\"uid\":\"dsu%d\",\"generation\":1},\"spec\":{\"selector\":{"
			    "\"matchLabels\":{\"app\":\"a%d\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"a%"
			    "d\"}},"
			    "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i%d\"}]}}}}",
			    i, i, i, i, v);
		else
			add(t,
			    "{\"apiVersion\":\"apps/"
			    "v1\",\"kind\":\"ControllerRevision\",\"metadata\":{\"name\":\"r%d\","
			    "\"namespace\":\"ns0\",\"labels\":{\"controller-revision-hash\":\"h%d\"}},\"revision\":%d,"
			    "\"data\":{\"spec\":{\"template\":{\"spec\":{\"containers\":[]}}}}}",
			    i, i, v);
		break;
	default:
		if (i % 27 == 8)
			add(t,
			    "{\"apiVersion\":\"policy/"
			    "v1\",\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"b%d\","
			    "\"namespace\":\"ns1\"},\"spec\":{\"maxUnavailable\":1,\"selector\":{\"matchLabels\":{"
			    "\"app\":"
			    "\"a%d\"}}}}",
			    i, i % 6);
		else if (i % 27 == 17)
			add(t,
			    "{\"apiVersion\":\"scheduling.k8s.io/"
			    "v1\",\"kind\":\"PriorityClass\",\"metadata\":{\"name\":"
			    "\"pc%d\"},\"value\":%d}",
			    i, v);
		else
			add(t,
			    "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d%d\","
			    "\"namespace\":\"ns2\",\"uid\":\"du%d\"}}",
			    i, v);
		break;
	}
}

/* A List of n items; bad(t, i) may write item i instead (returns 1 when it did). */
static char *list(int n, int (*bad)(text *, int))
{
	text t = {0};
	add(&t, "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n");
	for (int i = 0; i < n; i++) {
		if (i)
			add(&t, ",\n  ");
		if (!bad || !bad(&t, i))
			item(&t, i);
	}
	add(&t, "\n], \"metadata\": {\"resourceVersion\": \"\"}}");
	return t.p;
}

/* The same as a YAML List, as kubectl writes one (apiVersion, items, kind): each item a block sequence entry
 * holding the item's JSON (flow style), every third one in block style; bad as for list, its items written
 * the same way. tail ends the document (NULL: kind List). */
static char *yaml_list(int n, int (*bad)(text *, int), const char *tail)
{
	text t = {0};
	add(&t, "apiVersion: v1\nitems:\n");
	for (int i = 0; i < n; i++) {
		text one = {0};
		int broke = bad && bad(&one, i);
		if (!broke)
			item(&one, i);
		if (i % 3 == 1 && !broke) { /* block style: the top-level members one a line */
			json_error_t je;
			json_t *v = json_loads(one.p, 0, &je);
			ck_assert_msg(v != NULL, "item %d: %s", i, je.text);
			const char *k;
			json_t *m;
			int first = 1;
			json_object_foreach(v, k, m)
			{
				char *mt = json_dumps(m, JSON_ENCODE_ANY | JSON_COMPACT);
				add(&t, "%s%s: %s\n", first ? "- " : "  ", k, mt);
				free(mt);
				first = 0;
			}
			json_decref(v);
		} else {
			add(&t, "- %s\n", one.p);
		}
		free(one.p);
	}
	add(&t, "%s", tail ? tail : "kind: List\nmetadata:\n  resourceVersion: \"\"\n");
	return t.p;
}

/* Every object of the snapshot in its array's order, with what ds_cluster_get shows of it. */
static json_t *state(const ds_cluster *c)
{
	static const char *const kinds[] = {"Node", "Pod", "DaemonSet", "ControllerRevision"};
	json_t *all = json_array();
	for (int k = 0; k < DSI_KIND_COUNT; k++) {
		json_t *objs = json_array();
		for (size_t i = 0; i < c->objs[k].n; i++) {
			const void *o = c->objs[k].v[i];
			const dsi_meta *m = k == DSI_KIND_NODE             ? &((const dsi_node *)o)->meta
					    : k == DSI_KIND_POD            ? &((const dsi_pod *)o)->meta
					    : k == DSI_KIND_PDB            ? &((const dsi_pdb *)o)->meta
					    : k == DSI_KIND_OTHER          ? &((const dsi_other *)o)->meta
					    : k == DSI_KIND_PRIORITY_CLASS ? &((const dsi_priority_class *)o)->meta
					    : k == DSI_KIND_DAEMONSET      ? &((const dsi_daemonset *)o)->meta
									   : &((const dsi_revision *)o)->meta;
			const char *ns = dsi_cstr(c, m->ns), *name = dsi_cstr(c, m->name);
			json_t *one = json_pack("{s:s, s:s, s:s}", "ns", ns, "name", name, "uid", dsi_cstr(c, m->uid));
			char *out = NULL;
			ds_error err;
			if (k < 4) {
				ck_assert_msg(ds_cluster_get(c, kinds[k], ns, name, &out, &err) == 0, "%s",
					      err.message);
				json_object_set_new(one, "get", dsi_test_take_json(out));
			}
			json_array_append_new(objs, one);
		}
		json_array_append_new(all, objs);
	}
	return all;
}

typedef struct outcome {
	int rc;
	size_t count;
	ds_error err;
	json_t *state;
} outcome;

static outcome load(const char *t, const char *threads, const char *before)
{
	char opts[128];
	snprintf(opts, sizeof(opts), "{\"loadThreads\": %s}", threads);
	ds_options *o = dsi_test_options(opts);
	ds_cluster *c;
	outcome r;
	ck_assert_int_eq(ds_cluster_new(o, &c, &r.err), 0);
	ds_options_free(o);
	if (before)
		ck_assert_int_eq(ds_cluster_load(c, before, strlen(before), NULL, &r.err), 0);
	r.rc = ds_cluster_load(c, t, strlen(t), &r.count, &r.err);
	r.state = state(c);
	ds_cluster_free(c);
	return r;
}

static void same(const char *name, const char *t, const char *before)
{
	outcome one = load(t, "1", before);
	for (int rep = 0; rep < 2; rep++) {
		outcome many = load(t, rep ? "3" : "4", before);
		ck_assert_msg(one.rc == many.rc, "%s: rc %d on one thread, %d on several (%s / %s)", name, one.rc,
			      many.rc, one.err.message, many.err.message);
		ck_assert_uint_eq(one.count, many.count);
		ck_assert_msg(one.err.code == many.err.code && strcmp(one.err.message, many.err.message) == 0 &&
				      strcmp(one.err.path, many.err.path) == 0 &&
				      strcmp(one.err.source, many.err.source) == 0 && one.err.line == many.err.line &&
				      one.err.column == many.err.column,
			      "%s: error %s at %s (%d:%d) on one thread, %s at %s (%d:%d) on several", name,
			      one.err.message, one.err.path, one.err.line, one.err.column, many.err.message,
			      many.err.path, many.err.line, many.err.column);
		ck_assert_msg(json_equal(one.state, many.state), "%s: the snapshots differ", name);
		json_decref(many.state);
	}
	json_decref(one.state);
}

START_TEST(valid_lists_load_alike)
{
	for (int n = 60; n <= 1300; n = n * 3 + 7) {
		char *t = list(n, NULL);
		outcome o = load(t, "4", NULL);
		ck_assert_msg(o.rc == 0, "%d items: %s at %s", n, o.err.message, o.err.path);
		json_decref(o.state);
		same("valid", t, NULL);
		/* into a snapshot that already holds some of the objects and their strings */
		char *before = list(n / 2, NULL);
		same("valid, over an earlier load", t, before);
		free(before);
		free(t);
	}
}
END_TEST

/* The item at `at` (and at `at2`, when set) broken in the way `how` says. */
static int at, at2, how;

static int broken(text *t, int i)
{
	if (i != at && i != at2)
		return 0;
	switch (how) {
	case 0: add(t, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"x\x01\"}}"); break; /* a control character */
	case 1: add(t, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"x\",\"labels\":5}}"); break; /* a wrong type */
	case 2: add(t, "{\"kind\":7}"); break;                                                   /* kind not a string */
	case 3: add(t, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"a\":1,\"a\":2}}"); break; /* a repeat */
	case 4:
		add(t, "{\"apiVersion\":\"extensions/v1beta1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"x\"}}");
		break;
	case 5: add(t, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"priority\":1.5}}"); break;
	default: add(t, "{\"kind\":\"Node\",\"metadata\":{}}"); break; /* no name */
	}
	return 1;
}

START_TEST(errors_are_the_serial_ones)
{
	static const int places[] = {0, 1, 15, 16, 17, 63, 200, 399};
	for (how = 0; how <= 6; how++)
		for (size_t p = 0; p < sizeof(places) / sizeof(places[0]); p++) {
			at = places[p];
			at2 = how == 1 || how == 6 ? at + 37 : -1; /* two: the first in order is the one */
			char *t = list(400, broken);
			char name[64];
			snprintf(name, sizeof(name), "broken %d at %d", how, at);
			outcome o = load(t, "4", NULL);
			ck_assert_msg(o.rc < 0, "%s: loaded", name);
			for (size_t k = 0; k < json_array_size(o.state); k++)
				ck_assert_msg(json_array_size(json_array_get(o.state, k)) == 0,
					      "%s: the snapshot changed", name);
			json_decref(o.state);
			same(name, t, NULL);
			free(t);
		}
}
END_TEST

/* A List indented as kubectl writes one, over the megabyte from which the items array is scanned in
 * parts on several threads (core/load.c, par_scan): every 50th item a Deployment whose nested array has
 * its elements at the items' indentation after a line ending in a comma (where a part's guessed start
 * is no item's); bad as for list. */
static char *indented_list(int n, int (*bad)(text *, int))
{
	text t = {0};
	add(&t, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        ");
	for (int i = 0; i < n; i++) {
		if (i)
			add(&t, ",\n        ");
		if (bad && bad(&t, i))
			continue;
		if (i % 50 == 49)
			add(&t,
			    "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"m%d\","
			    "\"namespace\":\"ns2\"},\"spec\":{\"x\":[\n        {\"a\":1},\n        {\"b\":\"},\"}]}}",
			    i);
		else
			item(&t, i);
	}
	add(&t, "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\"resourceVersion\": \"\"}\n}\n");
	return t.p;
}

START_TEST(split_scan_is_the_serial_scan)
{
	char *t = indented_list(3000, NULL);
	ck_assert_msg(strlen(t) > 1200 * 1024, "%zu bytes: too small for the scan in parts", strlen(t));
	outcome o = load(t, "4", NULL);
	ck_assert_msg(o.rc == 0 && o.count == 3000, "%s at %s", o.err.message, o.err.path);
	json_decref(o.state);
	same("indented", t, NULL);
	free(t);
	/* wrong where a part begins, and late in the list: the serial load's error */
	static const int places[] = {1499, 1500, 2250, 2999};
	for (size_t p = 0; p < sizeof(places) / sizeof(places[0]); p++) {
		at = places[p];
		at2 = -1;
		how = (int)p % 7;
		t = indented_list(3000, broken);
		same("indented, broken", t, NULL);
		free(t);
	}
}
END_TEST

/* A YAML List large enough for the pipeline (libyaml on one thread, the rest on another): the serial load's
 * outcome, whatever is wrong and wherever. */
START_TEST(yaml_pipeline_is_the_serial_load)
{
	char *t = yaml_list(900, NULL, NULL);
	ck_assert_msg(strlen(t) > 300 * 1024, "%zu bytes: too small for the pipeline", strlen(t));
	outcome o = load(t, "2", NULL);
	ck_assert_msg(o.rc == 0 && o.count == 900, "%s at %s (%d:%d)", o.err.message, o.err.path, o.err.line,
		      o.err.column);
	json_decref(o.state);
	same("yaml", t, NULL);
	free(t);
	/* the JSON List of the same items: the same snapshot */
	char *j = list(900, NULL);
	char *y = yaml_list(900, NULL, NULL);
	outcome a = load(j, "1", NULL), b = load(y, "2", NULL);
	ck_assert_msg(json_equal(a.state, b.state), "JSON and YAML load differently");
	json_decref(a.state);
	json_decref(b.state);
	free(j);
	free(y);
	static const char *const tails[] = {
		"kind: List\n",
		"kind: List\nmetadata: {resourceVersion: [}\n",          /* a syntax error at the end */
		"kind: List\nkind: List\n",                              /* a repeated key */
		"kind: Widget\n",                                        /* not a List: one object */
		"kind: List\n---\nkind: Node\nmetadata: {name: late}\n", /* another document */
		"kind: List\n---\napiVersion: v1\nitems:\n- metadata: {name: z}\nkind: NodeList\n",
		"kind: List\nx: \"\\xff\"\n", /* bad UTF-8 in an escape */
		"kind: List\n\t\n",           /* a tab where YAML forbids it */
	};
	for (how = 0; how <= 6; how += 6)
		for (size_t k = 0; k < sizeof(tails) / sizeof(tails[0]); k++) {
			at = k == 0 ? 400 : 850;
			at2 = -1;
			t = yaml_list(900, how == 6 ? NULL : broken, tails[k]);
			char name[64];
			snprintf(name, sizeof(name), "yaml broken %d, tail %zu", how, k);
			same(name, t, NULL);
			free(t);
		}
}
END_TEST

/* A list longer than maxObjects allows: the serial load's error (which names the item). */
START_TEST(object_limit)
{
	char *t = list(300, NULL);
	for (int threads = 1; threads <= 4; threads += 3) {
		char opts[128];
		snprintf(opts, sizeof(opts), "{\"loadThreads\": %d, \"maxObjects\": 250}", threads);
		ds_options *o = dsi_test_options(opts);
		ds_cluster *c;
		ds_error err;
		ck_assert_int_eq(ds_cluster_new(o, &c, &err), 0);
		ds_options_free(o);
		ck_assert_int_eq(ds_cluster_load(c, t, strlen(t), NULL, &err), DS_ELIMIT);
		ck_assert_str_eq(err.path, "items[250]");
		ck_assert_uint_eq(ds_cluster_count(c, "Node"), 0);
		ds_cluster_free(c);
	}
	free(t);
}
END_TEST

/* A snapshot whose inputs may hold max bytes. */
static ds_cluster *limited(size_t max)
{
	char opts[64];
	snprintf(opts, sizeof(opts), "{\"maxDocumentBytes\": %zu}", max);
	ds_options *o = dsi_test_options(opts);
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(o, &c, &err), 0);
	ds_options_free(o);
	return c;
}

/* Beyond maxDocumentBytes: the error names the option and the value that reads the input, and that value
 * does. Text, a file, a directory's file, a stream of unknown length. */
START_TEST(size_limit_names_its_option)
{
	const char *doc = "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}";
	size_t n = strlen(doc);
	char want[256];
	ds_cluster *c = limited(n - 1);
	ds_error err;
	ck_assert_int_eq(ds_cluster_load(c, doc, n, NULL, &err), DS_ELIMIT);
	snprintf(want, sizeof(want),
		 "input of %zu bytes is larger than the limit of %zu bytes: set the option maxDocumentBytes to %zu or "
		 "more to read it",
		 n, n - 1, n);
	ck_assert_str_eq(err.message, want);
	ds_cluster_free(c);
	c = limited(n);
	ck_assert_int_eq(ds_cluster_load(c, doc, n, NULL, &err), 0);
	ds_cluster_free(c);

	char dir[] = "/tmp/ds-ingest-XXXXXX", path[128];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/node.json", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(doc, f);
	fclose(f);
	for (int whole_dir = 0; whole_dir < 2; whole_dir++) {
		c = limited(n - 1);
		ck_assert_int_eq(ds_cluster_load_file(c, whole_dir ? dir : path, NULL, &err), DS_ELIMIT);
		snprintf(want, sizeof(want),
			 "%s is %zu bytes, larger than the limit of %zu bytes: set the option maxDocumentBytes to %zu "
			 "or more to read it",
			 path, n, n - 1, n);
		ck_assert_str_eq(err.message, want);
		ds_cluster_free(c);
		c = limited(n);
		ck_assert_int_eq(ds_cluster_load_file(c, whole_dir ? dir : path, NULL, &err), 0);
		ck_assert_uint_eq(ds_cluster_count(c, "Node"), 1);
		ds_cluster_free(c);
	}
	remove(path);
	rmdir(dir);
	/* a stream without end: read as far as the limit, then refused; its size is not known */
	c = limited(1000);
	ck_assert_int_eq(ds_cluster_load_file(c, "/dev/zero", NULL, &err), DS_ELIMIT);
	ck_assert_str_eq(err.message,
			 "/dev/zero is larger than the limit of 1000 bytes: set the option maxDocumentBytes higher to "
			 "read it");
	ds_cluster_free(c);
}
END_TEST

/* ds_objects_parse as the whole-tree algorithm it replaced computes it: every object loaded (a List whole),
 * each a copy with its list's kind and apiVersion, dumped as one array. */
static int collect_copy(void *ctx, const dsi_loaded *it, ds_error *err)
{
	if (!json_is_object(it->obj))
		return dsi_error_set(err, DS_ETYPE, it->path, "expected an object");
	json_array_append_new(ctx, dsi_loaded_object(it));
	return 0;
}

static void objects_alike(const char *name, const char *t)
{
	dsi_limits lim;
	dsi_limits_default(&lim);
	json_t *arr = json_array();
	ds_error e1, e2;
	int rc1 = dsi_load_text(t, strlen(t), &lim, collect_copy, arr, &e1);
	char *want = rc1 == 0 ? json_dumps(arr, JSON_COMPACT | JSON_SORT_KEYS) : NULL, *got = NULL;
	json_decref(arr);
	int rc2 = ds_objects_parse(t, strlen(t), NULL, &got, &e2);
	ck_assert_msg(rc1 == rc2, "%s: rc %d, want %d (%s)", name, rc2, rc1, e2.message);
	if (rc1 == 0)
		ck_assert_msg(strcmp(want, got) == 0, "%s: %.200s\nwant %.200s", name, got, want);
	else
		ck_assert_msg(strcmp(e1.message, e2.message) == 0 && strcmp(e1.path, e2.path) == 0 &&
				      e1.line == e2.line && e1.column == e2.column,
			      "%s: %s at %s, want %s at %s", name, e2.message, e2.path, e1.message, e1.path);
	free(want);
	ds_free(got);
}

/* ds_objects_parse writes each object out as it comes (a List item by item), with what the whole parse gave. */
START_TEST(objects_parse_streams)
{
	char *t = list(300, NULL);
	objects_alike("JSON List", t);
	free(t);
	t = yaml_list(300, NULL, NULL);
	objects_alike("YAML List", t);
	free(t);
	static const char *const cases[] = {
		("{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"items\":[{\"metadata\":{\"name\":\"a\"}},"
		 "{\"kind\":\"X\"}]}"),
		"kind: PodList\napiVersion: v1\nitems:\n- metadata: {name: a}\n---\nkind: Node\n",
		"{\"kind\":\"Node\"}{\"kind\":\"List\",\"items\":[]}[]",
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},7]}",
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":\"\x01\"}]}",
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{b: 2}]}",
		"apiVersion: v1\nitems:\n- kind: Node\n- 7\nkind: List\n",
		"",
		"---\n",
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[32];
		snprintf(name, sizeof(name), "objects case %zu", i);
		objects_alike(name, cases[i]);
	}
}
END_TEST

static Suite *ingest_suite(void)
{
	Suite *s = suite_create("ingest");
	TCase *tc = tcase_create("threads-vs-one");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, valid_lists_load_alike);
	tcase_add_test(tc, errors_are_the_serial_ones);
	tcase_add_test(tc, split_scan_is_the_serial_scan);
	tcase_add_test(tc, object_limit);
	tcase_add_test(tc, yaml_pipeline_is_the_serial_load);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_test(tc, size_limit_names_its_option);
	tcase_add_test(tc, objects_parse_streams);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(ingest_suite)
