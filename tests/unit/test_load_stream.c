/*
 * A JSON List parsed item by item (dsi_load_text_staged) against the same
 * text parsed whole (dsi_load_text): the same items in the same order with
 * the same paths, kinds and documents; the same error, code, message, path,
 * line, column and source, whatever is wrong and wherever. Where streaming
 * should apply, a syntax error in the last item proves that it did: the
 * staged load has handed out the items before it, the whole parse none.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonfront.h"
#include "core/load.h"
#include "harness.h"

typedef struct seen {
	json_t *items;
	size_t fail_at; /* fn refuses this item (SIZE_MAX: none) */
	size_t undone;  /* items forgotten */
} seen;

static int collect(void *ctx, const dsi_loaded *it, ds_error *err)
{
	seen *s = ctx;
	if (json_array_size(s->items) == s->fail_at) {
		/* all of fn's error must go when a syntax error replaces it, its source too */
		snprintf(err->source, sizeof(err->source), "the callback");
		return dsi_error_set(err, DS_EVALUE, it->path, "refused by the callback");
	}
	char *obj = json_dumps(it->obj, JSON_COMPACT | JSON_SORT_KEYS);
	json_array_append_new(s->items, json_pack("{s:s, s:s, s:s?, s:s?, s:i, s:i}", "obj", obj, "path", it->path,
						  "kind", it->kind, "apiVersion", it->api_version, "doc",
						  (int)it->document, "line", it->line));
	free(obj);
	return 0;
}

static void forget(void *ctx)
{
	seen *s = ctx;
	s->undone += json_array_size(s->items);
	json_array_clear(s->items);
}

typedef struct outcome {
	int rc;
	ds_error err;
	json_t *items;
	size_t undone;
} outcome;

static outcome run(int staged, const char *text, size_t max_objects, size_t fail_at)
{
	dsi_limits lim;
	dsi_limits_default(&lim);
	lim.max_objects = max_objects;
	seen s = {json_array(), fail_at, 0};
	outcome o;
	ds_error_clear(&o.err);
	if (staged)
		o.rc = dsi_load_text_staged(text, strlen(text), &lim, collect, forget, &s, &o.err);
	else
		o.rc = dsi_load_text(text, strlen(text), &lim, collect, &s, &o.err);
	o.items = s.items;
	o.undone = s.undone;
	return o;
}

static size_t last_undone; /* items the last staged load forgot */

/* Both ways agree on text; returns how many items the staged load handed out. */
static size_t same3(const char *name, const char *text, size_t max_objects, size_t fail_at)
{
	outcome whole = run(0, text, max_objects, fail_at), part = run(1, text, max_objects, fail_at);
	ck_assert_msg(whole.rc == part.rc, "%s: rc %d whole, %d staged (%s / %s)", name, whole.rc, part.rc,
		      whole.err.message, part.err.message);
	if (whole.rc < 0) {
		ck_assert_msg(strcmp(whole.err.message, part.err.message) == 0,
			      "%s: message \"%s\" whole, \"%s\" staged", name, whole.err.message, part.err.message);
		ck_assert_msg(strcmp(whole.err.path, part.err.path) == 0, "%s: path %s whole, %s staged", name,
			      whole.err.path, part.err.path);
		ck_assert_msg(strcmp(whole.err.source, part.err.source) == 0, "%s: source %s whole, %s staged", name,
			      whole.err.source, part.err.source);
		ck_assert_msg(whole.err.line == part.err.line && whole.err.column == part.err.column,
			      "%s: position %d:%d whole, %d:%d staged", name, whole.err.line, whole.err.column,
			      part.err.line, part.err.column);
		/* what the whole parse handed out before failing, the staged one did too */
		size_t n = json_array_size(whole.items);
		ck_assert_msg(n <= json_array_size(part.items), "%s: %zu items whole, %zu staged", name, n,
			      json_array_size(part.items));
		for (size_t i = 0; i < n; i++)
			ck_assert_msg(json_equal(json_array_get(whole.items, i), json_array_get(part.items, i)),
				      "%s: item %zu differs", name, i);
	} else {
		ck_assert_msg(json_equal(whole.items, part.items), "%s: the items differ", name);
	}
	size_t n = json_array_size(part.items);
	last_undone = part.undone;
	ck_assert_msg(whole.undone == 0, "%s: dsi_load_text called undo", name);
	json_decref(whole.items);
	json_decref(part.items);
	return n;
}

static size_t same(const char *name, const char *text) { return same3(name, text, 1000, SIZE_MAX); }

/* "{...,\"items\":[" + n objects made by item(i) + "]...}" */
static char *list_text(const char *head, const char *tail, int n, const char *(*item)(int, char *))
{
	size_t cap = 1 << 16, len = 0;
	char *t = malloc(cap), one[4096];
	len += (size_t)snprintf(t, cap, "%s[", head);
	for (int i = 0; i < n; i++) {
		const char *s = item(i, one);
		size_t k = strlen(s);
		ck_assert(len + k + 4 + strlen(tail) < cap);
		if (i)
			t[len++] = ',';
		memcpy(t + len, s, k);
		len += k;
	}
	snprintf(t + len, cap - len, "]%s", tail);
	return t;
}

static const char *node(int i, char *b)
{
	snprintf(b, 4096,
		 "\n  {\"metadata\": {\"name\": \"n%d\", \"labels\": {\"a\\\"]}\": \"\\\\\", \"x\": \"[{\\u005d\"}},"
		 " \"spec\": {\"taints\": [{\"key\": \"k\", \"effect\": \"NoSchedule\"}], \"podCIDRs\": []},"
		 " \"status\": {\"capacity\": {\"cpu\": 4.5e0, \"pods\": 110}, \"images\": [[[[]]], {}, null, true, "
		 "-0.0]}}",
		 i);
	return b;
}

START_TEST(valid_lists)
{
	static const struct {
		const char *name, *head, *tail;
	} shapes[] = {
		{"NodeList", "{\"apiVersion\":\"v1\",\"kind\":\"NodeList\",\"items\":", "}"},
		{"kind after items", "{\"items\" :\r\n",
		 " , \"metadata\": {\"resourceVersion\": \"7\"}, \"kind\": \"NodeList\"}"},
		{"plain List", "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":", "}"},
		{"two values", "{\"kind\":\"NodeList\",\"items\":",
		 "} \n{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[{}]}"},
		{"apiVersion null", "{\"kind\":\"NodeList\",\"apiVersion\":null,\"items\":", "}"},
	};
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		char *t = list_text(shapes[s].head, shapes[s].tail, 5, node);
		size_t got = same(shapes[s].name, t);
		ck_assert_msg(got >= 5, "%s: %zu items", shapes[s].name, got);
		/* break the last item (for JSON and YAML): the four before it were handed
		 * out while streaming, and forgotten before the YAML parser had its go */
		char *last = strstr(t, "\"n4\"");
		ck_assert_ptr_nonnull(last);
		memcpy(last, "\"n\x01\"", 4);
		ck_assert_int_eq(same(shapes[s].name, t), 0);
		ck_assert_msg(last_undone == (strcmp(shapes[s].name, "apiVersion null") == 0 ? 0u : 4u),
			      "%s: %zu items handed out before the error", shapes[s].name, last_undone);
		free(t);
	}
	ck_assert_int_eq(same("empty", "{\"kind\":\"NodeList\",\"items\":[ ]}"), 0);
	ck_assert_int_eq(same("empty then more", "{\"kind\":\"NodeList\",\"items\":[]}{\"kind\":\"Node\"}"), 1);
	/* broken in the second value, which is not retried as YAML: the first value's
	 * two items and the second's first were handed out, and stay */
	ck_assert_int_eq(same("second value broken", "{\"kind\":\"NodeList\",\"items\":[{},{}]}"
						     "{\"kind\":\"NodeList\",\"items\":[{},{\"a\":\"\x01\"}]}"),
			 3);
}
END_TEST

START_TEST(broken_lists)
{
	static const char *const cases[] = {
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":2},]}",            /* trailing comma */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":2} {\"a\":3}]}",   /* missing comma */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},7,{\"a\":3}]}",           /* not an object */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":2,\"a\":3}]}",     /* duplicate key in an item */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1}],\"items\":[{\"b\":1}]}", /* items twice */
		"{\"kind\":\"NodeList\",\"\\u0069tems\":[{\"a\":1}],\"items\":[{}]}",  /* items twice, once escaped */
		"{\"kind\":\"NodeList\",\"\\u0069tems\":[{\"a\":1}]}",                 /* items only escaped */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":1e999}]}",         /* float64 overflow */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":\"\\ud800\"}]}",   /* lone surrogate */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":\"x\ty\"}]}",      /* control character */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":[}]}",             /* bracket mismatch */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":1}]]}",            /* one bracket too many */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":1}]",              /* unterminated */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":\"1}]}",           /* unterminated string */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1}],}",                      /* trailing comma at the top */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1}]} x",                     /* garbage after */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":1}]}{\"kind\":\"NodeList\",\"items\":[{},{\"b\":}]}",
		"{\"kind\":7,\"items\":[{\"a\":1}]}",                              /* kind not a string */
		"{\"kind\":\"Node\",\"items\":[{\"a\":1}]}",                       /* not a list */
		"{\"kind\":\"NodeList\",\"apiVersion\":[],\"items\":[{\"a\":1}]}", /* apiVersion not a string */
		"{\"kind\":\"NodeList\",\"items\":[{\"kind\":3}]}",                /* item kind not a string */
		"{\"kind\":\"NodeList\",\"items\":{\"a\":1}}",                     /* items an object */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":tru}]}",                 /* bad keyword */
		"{\"kind\":\"NodeList\",\"items\":[{\"a\":\"\xff\"}]}",            /* bad UTF-8 */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[32];
		snprintf(name, sizeof(name), "case %zu", i);
		same(name, cases[i]);
	}
}
END_TEST

/* jansson counts depth from the whole document's root: an item 2046 deep parses alone, not in its list. */
START_TEST(depth_counts_from_the_root)
{
	for (int object = 0; object < 2; object++)
		for (int depth = 2040; depth <= 2050; depth++) {
			size_t n = 64 + 2 * (size_t)depth;
			char *t = malloc(n);
			size_t k =
				(size_t)sprintf(t, "{\"kind\":\"NodeList\",\"items\":[{},%s", object ? "{\"a\":" : "");
			for (int d = 0; d < depth; d++)
				t[k++] = '[';
			for (int d = 0; d < depth; d++)
				t[k++] = ']';
			strcpy(t + k, object ? "}]}" : "]}");
			same("deep", t);
			free(t);
		}
}
END_TEST

START_TEST(callback_and_limit_errors)
{
	const char *ok = "{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":2},{\"a\":3},{\"a\":4}]}";
	/* not YAML either, so the JSON error is the answer */
	const char *late = "{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":2},{\"a\":3},{\"a\":\"\x01\"}]}";
	/* fn refuses item 1: its error, unless a syntax error further on comes
	 * first, as it does parsing whole (fn's item 0 was forgotten) */
	ck_assert_int_eq(same3("refused", ok, 1000, 1), 1);
	ck_assert_int_eq(same3("refused, then syntax", late, 1000, 1), 0);
	ck_assert_int_eq(last_undone, 1);
	ck_assert_int_eq(same3("refused first", ok, 1000, 0), 0);
	/* the object limit counts streamed items the same */
	ck_assert_int_eq(same3("limit", ok, 2, SIZE_MAX), 2);
	ck_assert_int_eq(same3("limit, then syntax", late, 2, SIZE_MAX), 0);
	ck_assert_int_eq(last_undone, 2);
	/* a refused item in the second value names the value */
	same3("second value", "{\"kind\":\"X\"}{\"kind\":\"NodeList\",\"items\":[{\"a\":1}]}", 1000, 1);
}
END_TEST

/* Not JSON but YAML flow style: the whole parse reads it as YAML; the staged
 * one had handed out the items before the unquoted key, forgets them, then
 * does the same. A stray comma between items is seen by the scanner before
 * any item is handed out. */
START_TEST(yaml_after_streaming)
{
	ck_assert_int_eq(same("yaml", "{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":2},{b: 3}]}"), 3);
	ck_assert_int_eq(last_undone, 2);
	ck_assert_int_eq(same("yaml, stray comma", "{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":2},]}"), 2);
	ck_assert_int_eq(last_undone, 0);
	ck_assert_int_eq(
		same("yaml, fn refuses", "{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":2},{\"a\":3},{b: 3}]}"),
		4);
	ck_assert_int_eq(same3("yaml, fn refuses",
			       "{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":2},{\"a\":3},{b: 3}]}", 1000, 1),
			 1);
	ck_assert_int_eq(last_undone, 1);
	/* neither JSON nor YAML: the JSON error, after the undo */
	same("neither", "{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":2},{b: 3}]}}");
	ck_assert_int_eq(last_undone, 2);
	/* a syntax error in a later value is not retried as YAML: nothing to forget */
	same("second value", "{}{\"kind\":\"NodeList\",\"items\":[{\"a\":1},{\"a\":2},{b: 3}]}");
	ck_assert_int_eq(last_undone, 0);
}
END_TEST

/* YAML: a List's items handed out as they are read (dsi_yaml_parse_items) against the document read
 * whole: the same items, paths, kinds and errors. Items that carry their kind go out at once; those
 * that do not wait for the list's kind, which kubectl writes after them. */
START_TEST(yaml_lists)
{
	static const char *const cases[] = {
		/* kubectl's order: apiVersion, items, kind; the items carry kind and apiVersion */
		"apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n"
		"- apiVersion: v1\n  kind: Node\n  metadata: {name: b}\nkind: List\nmetadata:\n  resourceVersion: "
		"\"\"\n",
		/* the API server's: items without kind, which they take from the NodeList after them */
		"apiVersion: v1\nitems:\n- metadata: {name: a}\n- kind: Node\n  metadata: {name: b}\n- metadata: "
		"{name: c}\n"
		"kind: NodeList\n",
		/* without apiVersion before the items: they wait for it */
		"items:\n- kind: Node\n  metadata: {name: a}\napiVersion: v1\nkind: NodeList\n",
		/* kind first */
		"kind: PodList\napiVersion: v1\nitems:\n- metadata: {name: a, namespace: x}\n",
		/* anchors and aliases across items, a merge key */
		"apiVersion: v1\nitems:\n- &n\n  kind: Node\n  metadata: &m {name: a, labels: {x: y}}\n- kind: Node\n"
		"  metadata:\n    <<: *m\n    name: b\n- *n\nkind: List\n",
		/* an anchored items sequence, which an alias reads after it */
		"apiVersion: v1\nitems: &all\n- kind: Node\n  metadata: {name: a}\nkind: List\nmore: *all\n",
		/* not a List after all: one object with an items member */
		"apiVersion: example.com/v1\nitems:\n- kind: Node\n  metadata: {name: a}\nkind: Widget\n"
		"metadata: {name: w}\n",
		/* kind not a string, apiVersion not a string */
		"apiVersion: v1\nitems:\n- kind: Node\n  metadata: {name: a}\nkind: [List]\n",
		"apiVersion: [v1]\nitems:\n- kind: Node\n  metadata: {name: a}\nkind: List\n",
		/* an item that is not an object, then more items; an item whose kind is not a string */
		"apiVersion: v1\nitems:\n- kind: Node\n  metadata: {name: a}\n- 7\n- kind: Node\nkind: List\n",
		"apiVersion: v1\nitems:\n- kind: [Node]\n- kind: Node\nkind: List\n",
		/* items twice */
		"apiVersion: v1\nitems:\n- kind: Node\nitems: []\nkind: List\n",
		/* a syntax error after an item that fails, in the same document: the syntax error */
		"apiVersion: v1\nitems:\n- 7\n- kind: Node\n  metadata: {name: [}\nkind: List\n",
		/* ... and in the next document: the item's */
		"apiVersion: v1\nitems:\n- 7\nkind: List\n---\nkind: Node\nmetadata: {name: [}\n",
		/* a bad scalar after a failing item */
		"apiVersion: v1\nitems:\n- 7\n- kind: Node\n  x: .inf\nkind: List\n",
		/* two Lists and an object in one stream, an empty document between */
		"apiVersion: v1\nitems:\n- kind: Node\n  metadata: {name: a}\nkind: List\n---\n---\nkind: Pod\n"
		"metadata: {name: p}\n---\napiVersion: v1\nitems: []\nkind: List\n---\nitems:\n- metadata: {name: c}\n"
		"kind: NodeList\n",
		/* items in flow style */
		"{apiVersion: v1, items: [{kind: Node, metadata: {name: a}}, {kind: Node}], kind: List}\n",
		/* a List inside an item is not the document's */
		"apiVersion: v1\nitems:\n- kind: List\n  items:\n  - kind: Node\nkind: List\n",
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[32];
		snprintf(name, sizeof(name), "yaml case %zu", i);
		same(name, cases[i]);
		same3(name, cases[i], 1000, 0);
		same3(name, cases[i], 1000, 1);
		same3(name, cases[i], 1, SIZE_MAX);
	}
	/* streamed: the items before a syntax error at the end of the document were handed out (the load
	 * fails, and the caller drops what it staged); a document that turns out not to be a List is read
	 * again whole, its items forgotten first */
	ck_assert_int_eq(same("yaml streamed", "apiVersion: v1\nitems:\n- kind: Node\n- kind: Node\n- kind: [\n"), 2);
	ck_assert_int_eq(last_undone, 0);
	ck_assert_int_eq(same("yaml not a list", "apiVersion: v1\nitems:\n- kind: Node\n- kind: Node\nkind: X\n"), 1);
	ck_assert_int_eq(last_undone, 2);
}
END_TEST

/* YAML: a Node's status.images left out (DSI_FRONT_NODE_IMAGES, as ds_cluster_load reads) against the
 * whole read: the same outcome, error (code, message, path, line, column, source) and items, but for
 * status.images, which is [] exactly where the case says it is in the plain form and the item is known
 * to be a Node when the images begin. */
static void same_cut(const char *name, const char *text, int cut)
{
	dsi_limits lim;
	dsi_limits_default(&lim);
	outcome whole = run(0, text, 1000, SIZE_MAX);
	seen s = {json_array(), SIZE_MAX, 0};
	ds_error err;
	ds_error_clear(&err);
	int rc = dsi_load_text_par(text, strlen(text), &lim, collect, forget, NULL, DSI_FRONT_NODE_IMAGES, &s, &err);
	ck_assert_msg(whole.rc == rc, "%s: rc %d whole, %d cut (%s / %s)", name, whole.rc, rc, whole.err.message,
		      err.message);
	if (rc < 0) {
		ck_assert_msg(
			whole.err.code == err.code && strcmp(whole.err.message, err.message) == 0 &&
				strcmp(whole.err.path, err.path) == 0 && strcmp(whole.err.source, err.source) == 0 &&
				whole.err.line == err.line && whole.err.column == err.column,
			"%s: \"%s\" at %s %d:%d whole, \"%s\" at %s %d:%d cut", name, whole.err.message, whole.err.path,
			whole.err.line, whole.err.column, err.message, err.path, err.line, err.column);
		ck_assert_msg(!cut, "%s: an error case cannot say cut", name);
	}
	ck_assert_msg(json_array_size(whole.items) == json_array_size(s.items), "%s: %zu items whole, %zu cut", name,
		      json_array_size(whole.items), json_array_size(s.items));
	int were_cut = 0;
	for (size_t i = 0; i < json_array_size(whole.items); i++) {
		json_t *w = json_array_get(whole.items, i), *c = json_array_get(s.items, i);
		if (json_equal(w, c))
			continue;
		json_t *wo = json_loads(json_string_value(json_object_get(w, "obj")), 0, NULL);
		json_t *co = json_loads(json_string_value(json_object_get(c, "obj")), 0, NULL);
		ck_assert_ptr_nonnull(wo);
		ck_assert_ptr_nonnull(co);
		json_t *images = json_object_get(json_object_get(co, "status"), "images");
		ck_assert_msg(json_is_array(images) && json_array_size(images) == 0 &&
				      json_array_size(json_object_get(json_object_get(wo, "status"), "images")) > 0,
			      "%s: item %zu differs, not by its images", name, i);
		json_object_set_new(json_object_get(wo, "status"), "images", json_array());
		ck_assert_msg(json_equal(wo, co), "%s: item %zu differs beyond status.images", name, i);
		json_object_set(w, "obj", json_object_get(c, "obj"));
		ck_assert_msg(json_equal(w, c), "%s: item %zu's path, kind or document differs", name, i);
		json_decref(wo);
		json_decref(co);
		were_cut++;
	}
	ck_assert_msg(were_cut == cut, "%s: %d items' images left out, expected %d", name, were_cut, cut);
	json_decref(whole.items);
	json_decref(s.items);
}

#define YHEAD "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: a}\n  status:\n"
#define YTAIL "kind: List\n"
#define IMG1 "    - names:\n      - r.io/a@sha256:00ff\n      - r.io/a:v1\n      sizeBytes: 1200\n"

START_TEST(yaml_node_images)
{
	static const struct {
		const char *text;
		int cut;
	} cases[] = {
		/* kubectl's form, one and two images, an empty image, no images */
		{YHEAD "    images:\n" IMG1 YTAIL, 1},
		{YHEAD "    images:\n" IMG1 IMG1 "    nodeInfo: {architecture: amd64}\n" YTAIL, 1},
		{YHEAD "    images:\n    - {}\n" IMG1 YTAIL, 1},
		{YHEAD "    images: []\n" YTAIL, 0},
		/* flow style; quoted names and keys; names only; sizeBytes only; 0 and 18 digits */
		{YHEAD "    images: [{names: [r.io/a, \"r.io/b\"], sizeBytes: 5}]\n" YTAIL, 1},
		{YHEAD "    images:\n    - \"names\": ['r.io/a']\n      'sizeBytes': 0\n" YTAIL, 1},
		{YHEAD "    images:\n    - names: [r.io/a]\n    - sizeBytes: 999999999999999999\n" YTAIL, 1},
		/* a name that starts like a number but resolves to a string (an ECR registry) */
		{YHEAD "    images:\n    - names: [123456789012.dkr.ecr.eu-west-1.amazonaws.com/x:1]\n" YTAIL, 1},
		/* names that would not be strings: a number, a bool, null, an empty plain scalar, ".inf" */
		{YHEAD "    images:\n" IMG1 "    - names: [12]\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - names: [yes]\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - names: [~]\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - names:\n      -\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - names: [.inf]\n" YTAIL, 0},
		/* non-ASCII and control characters in a quoted name */
		{YHEAD "    images:\n    - names: [\"r.io/\xc3\xa9\"]\n" YTAIL, 0},
		{YHEAD "    images:\n    - names: [\"r.io/\\t\"]\n" YTAIL, 0},
		{YHEAD "    images:\n    - names: [\"r.io/\\0\"]\n" YTAIL, 0},
		/* sizeBytes out of the plain form: quoted, octal, hex, negative, underscore, float, 19 digits, uint64 */
		{YHEAD "    images:\n" IMG1 "    - sizeBytes: \"12\"\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - sizeBytes: 012\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - sizeBytes: 0x12\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - sizeBytes: -12\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - sizeBytes: 1_000\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - sizeBytes: 1.5\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - sizeBytes: 1234567890123456789\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - sizeBytes: 18446744073709551615\n" YTAIL, 0},
		/* other keys, a merge key, a repeated key (an error), a non-string key */
		{YHEAD "    images:\n" IMG1 "    - names: [r.io/a]\n      extra: 1\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - <<: {sizeBytes: 1}\n      names: [r.io/a]\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - names: [r.io/a]\n      names: [r.io/b]\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - sizeBytes: 1\n      sizeBytes: 2\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - 7: [r.io/a]\n" YTAIL, 0},
		/* shapes out of the form: a scalar image, a names scalar, a nested sequence, images a mapping */
		{YHEAD "    images:\n" IMG1 "    - r.io/a\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - names: r.io/a\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - names: [[r.io/a]]\n" YTAIL, 0},
		{YHEAD "    images: {names: [r.io/a]}\n" YTAIL, 0},
		/* tags on the images, an image, a key, a name, sizeBytes (a !!str one fails the decoding) */
		{YHEAD "    images: !!seq\n" IMG1 YTAIL, 0},
		{YHEAD "    images:\n    - !!map {names: [r.io/a]}\n" YTAIL, 0},
		{YHEAD "    images:\n    - !!str names: [r.io/a]\n" YTAIL, 0},
		{YHEAD "    images:\n    - names: [!!str r.io/a]\n" YTAIL, 0},
		{YHEAD "    images:\n    - sizeBytes: !!int 12\n" YTAIL, 0},
		{YHEAD "    images:\n    - sizeBytes: !!str 12\n" YTAIL, 0},
		{YHEAD "    images:\n    - sizeBytes: !!bool 12\n" YTAIL, 0},
		{YHEAD "    images:\n    - names: [!custom r.io/a]\n" YTAIL, 0},
		/* anchors in the images and aliases into them (read later, in the same item and in another) */
		{YHEAD "    images: &i\n" IMG1 "    other: *i\n" YTAIL, 0},
		{YHEAD "    images:\n    - &i {names: [r.io/a]}\n    other: *i\n" YTAIL, 0},
		{YHEAD "    images:\n    - names: &n [r.io/a]\n    - names: *n\n" YTAIL, 0},
		{YHEAD "    images:\n    - names: [&s r.io/a]\n" YTAIL "other: *s\n", 0},
		{YHEAD "    images:\n    - names: [*nothing]\n" YTAIL, 0},
		/* an anchor on what holds the images (the item, its status), read by an alias */
		{"apiVersion: v1\nitems:\n- &node\n  kind: Node\n  status:\n    images:\n" IMG1 "- *node\n" YTAIL, 0},
		{"apiVersion: v1\nitems:\n- kind: Node\n  status: &st\n    images:\n" IMG1
		 "- kind: Node\n  status: *st\n" YTAIL,
		 0},
		/* not known to be a Node when the images begin: kind after status, no kind, another kind, kind in a
		 * merge, kind not a string; images not under status; status not at the item's root */
		{"apiVersion: v1\nitems:\n- status:\n    images:\n" IMG1 "  kind: Node\n" YTAIL, 0},
		{"apiVersion: v1\nitems:\n- status:\n    images:\n" IMG1 "kind: NodeList\n", 0},
		{"apiVersion: v1\nitems:\n- kind: Pod\n  metadata: {name: p, namespace: d}\n  status:\n    "
		 "images:\n" IMG1 YTAIL,
		 0},
		{"apiVersion: v1\nitems:\n- <<: {kind: Node}\n  status:\n    images:\n" IMG1 YTAIL, 0},
		{"apiVersion: v1\nitems:\n- kind: [Node]\n  status:\n    images:\n" IMG1 YTAIL, 0},
		{"apiVersion: v1\nitems:\n- kind: Node\n  spec:\n    images:\n" IMG1 YTAIL, 0},
		{"apiVersion: v1\nitems:\n- kind: Node\n  metadata:\n    status:\n      images:\n  " IMG1 YTAIL, 0},
		/* kind quoted is the same string: cut; a Node that is not a List's item is read whole */
		{"apiVersion: v1\nitems:\n- kind: \"Node\"\n  status:\n    images:\n" IMG1 YTAIL, 1},
		{"apiVersion: v1\nkind: Node\nmetadata: {name: a}\nstatus:\n  images:\n" IMG1, 0},
		/* images twice (an error, at the second's end), kind twice after the images (an error) */
		{YHEAD "    images:\n" IMG1 "    images:\n" IMG1 YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "  kind: Pod\n" YTAIL, 0},
		/* malformed YAML inside the images, at their end, right after them; the error position is libyaml's */
		{YHEAD "    images:\n" IMG1 "    - names: [r.io/a\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - names:\n      - r.io/a\n     - bad\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - names: [\"r.io/a]\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - names: [r.io/a]\n      sizeBytes: 1\n    x: [\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "    - names: [\"r.io/\xff\"]\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "  \tbad: 1\n" YTAIL, 0},
		/* a bad scalar after images that were cut; two Nodes, the second's images not plain */
		{YHEAD "    images:\n" IMG1 "    x: .inf\n" YTAIL, 0},
		{YHEAD "    images:\n" IMG1 "- kind: Node\n  status:\n    images:\n" IMG1 "    - names: [yes]\n" YTAIL,
		 1},
		/* the document not a List after all: read again whole */
		{YHEAD "    images:\n" IMG1 "kind: Widget\n", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[32];
		snprintf(name, sizeof(name), "images case %zu", i);
		same_cut(name, cases[i].text, cases[i].cut);
	}
}
END_TEST

/* Through the public API: a PodList that only YAML reads (a stray comma)
 * stages its pods while streaming, forgets them, and stages them again from
 * YAML: each pod once, counted once, in its owner's group once. */
START_TEST(cluster_forgets_what_it_staged)
{
	static const char pod[] =
		"{\"metadata\":{\"name\":\"p%d\",\"namespace\":\"default\",\"uid\":\"u%d\","
		"\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"name\":\"ds\","
		"\"uid\":\"d\",\"controller\":true}]},\"spec\":{\"nodeName\":\"n%d\",\"containers\":[]}}";
	char json[8192], yaml[8192];
	size_t k = (size_t)snprintf(json, sizeof(json), "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[");
	for (int i = 0; i < 6; i++)
		k += (size_t)snprintf(json + k, sizeof(json) - k, pod, i, i, i), json[k++] = ',';
	memcpy(yaml, json, k);
	strcpy(yaml + k, "]}");
	strcpy(json + k - 1, "]}");
	char *sums[2];
	for (int y = 0; y < 2; y++) {
		ds_cluster *c;
		ds_error err;
		size_t count = 0;
		ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
		ck_assert_msg(ds_cluster_load(c, y ? yaml : json, strlen(y ? yaml : json), &count, &err) == 0, "%s",
			      err.message);
		ck_assert_uint_eq(count, 6);
		ck_assert_int_eq(ds_cluster_summary(c, &sums[y], &err), 0);
		ds_cluster_free(c);
	}
	ck_assert_str_eq(sums[0], sums[1]);
	ds_free(sums[0]);
	ds_free(sums[1]);
}
END_TEST

static Suite *stream_suite(void)
{
	Suite *s = suite_create("load_stream");
	TCase *tc = tcase_create("staged-vs-whole");
	tcase_add_test(tc, valid_lists);
	tcase_add_test(tc, broken_lists);
	tcase_add_test(tc, depth_counts_from_the_root);
	tcase_add_test(tc, callback_and_limit_errors);
	tcase_add_test(tc, yaml_after_streaming);
	tcase_add_test(tc, yaml_lists);
	tcase_add_test(tc, yaml_node_images);
	tcase_add_test(tc, cluster_forgets_what_it_staged);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(stream_suite)
