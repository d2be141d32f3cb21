/*
 * One canonical form (lib/apiserver/canonical.c): every spelling the API server stores alike hashes
 * alike, whatever path the template comes by (ds_template_hash, a manifest, a dump, a watch event),
 * and what it keeps apart hashes apart; the canonical form is a fixpoint; integers out of range are
 * refused alike everywhere. The canonical form the pure functions build for the hash alone
 * (dsi_canonical_template_for_hash: print, then defaults) equals the canonical form (defaults, then
 * print) on every template of examples/ and tests/ and on each default's edge cases.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/canonical.h"
#include "apiserver/schema.h"
#include "core/limits.h"
#include "core/yaml.h"
#include "harness.h"
#include "model/gohash.h"
#include "model/templatehash.h"

#define CORPUS "tests/vectors/canonical/templates.yaml"

/* The documents of a YAML vector file, as ds_objects_parse reads them. */
static json_t *load_yaml(const char *path)
{
	size_t len;
	char *text = dsi_test_read_file(path, &len), *out = NULL;
	ds_error err;
	int rc = ds_objects_parse(text, len, NULL, &out, &err);
	free(text);
	ck_assert_msg(rc == 0, "%s: %s: %s", path, err.path, err.message);
	return dsi_test_take_json(out);
}

static char *dump(const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	ck_assert_ptr_nonnull(s);
	return s;
}

/* ds_template_hash of the template's text. */
static void hash_of(const json_t *tmpl, char out[16])
{
	char *text = dump(tmpl);
	ds_error err;
	int rc = ds_template_hash(text, strlen(text), -1, out, 16, &err);
	ck_assert_msg(rc == 0, "ds_template_hash: %s: %s", err.path, err.message);
	free(text);
}

/* A DaemonSet around tmpl: served (a uid, as a dump has it) or a manifest. */
static json_t *daemonset(const json_t *tmpl, int served)
{
	json_t *ds =
		json_pack("{s:s, s:s, s:{s:s, s:s}, s:{s:{s:O}, s:O}}", "apiVersion", "apps/v1", "kind", "DaemonSet",
			  "metadata", "name", "agent", "namespace", "kube-system", "spec", "selector", "matchLabels",
			  json_object_get(json_object_get(tmpl, "metadata"), "labels"), "template", tmpl);
	ck_assert_ptr_nonnull(ds);
	if (served)
		json_object_set_new(json_object_get(ds, "metadata"), "uid", json_string("uid-agent"));
	return ds;
}

/* The hash ds_daemonset_history gives the DaemonSet around tmpl, loaded as a manifest (way 0), from
 * a dump (1) or by a watch event (2). */
static void hash_loaded(const json_t *tmpl, int way, char *out, size_t size)
{
	json_t *ds = daemonset(tmpl, way > 0);
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	char *text;
	int rc;
	if (way == 2) {
		json_t *ev = json_pack("{s:s, s:O}", "type", "ADDED", "object", ds);
		text = dump(ev);
		json_decref(ev);
		rc = ds_cluster_apply_events(c, text, strlen(text), NULL, &err);
	} else {
		text = dump(ds);
		rc = ds_cluster_load(c, text, strlen(text), NULL, &err);
	}
	ck_assert_msg(rc == 0, "load (way %d): %s: %s", way, err.path, err.message);
	free(text);
	char *js;
	ck_assert_int_eq(ds_daemonset_history(c, "kube-system", "agent", NULL, &js, &err), 0);
	json_t *h = dsi_test_take_json(js);
	snprintf(out, size, "%s", json_string_value(json_object_get(h, "hash")));
	json_decref(h);
	ds_cluster_free(c);
	json_decref(ds);
}

/* Every variant of a class hashes as its first, on every path; the classes hash apart. */
START_TEST(one_hash_per_class)
{
	json_t *classes = load_yaml(CORPUS);
	size_t n = json_array_size(classes), variants = 0;
	ck_assert_uint_ge(n, 15);
	char(*first)[16] = calloc(n, sizeof(*first));
	ck_assert_ptr_nonnull(first);
	for (size_t i = 0; i < n; i++) {
		json_t *cls = json_array_get(classes, i), *v;
		const char *name = json_string_value(json_object_get(cls, "name"));
		size_t j;
		json_array_foreach(json_object_get(cls, "variants"), j, v)
		{
			char h[16], loaded[64];
			hash_of(v, h);
			if (j == 0)
				memcpy(first[i], h, sizeof(h));
			ck_assert_msg(strcmp(h, first[i]) == 0, "%s: variant %zu hashes %s, variant 0 %s", name, j, h,
				      first[i]);
			for (int way = 0; way < 3; way++) {
				hash_loaded(v, way, loaded, sizeof(loaded));
				ck_assert_msg(strcmp(loaded, h) == 0,
					      "%s: variant %zu loaded (way %d) hashes %s, not %s", name, j, way, loaded,
					      h);
			}
			variants++;
		}
		for (size_t k = 0; k < i; k++)
			ck_assert_msg(strcmp(first[k], first[i]) != 0, "%s and %s hash alike (%s)", name,
				      json_string_value(json_object_get(json_array_get(classes, k), "name")), first[i]);
	}
	ck_assert_uint_ge(variants, 30);
	free(first);
	json_decref(classes);
}
END_TEST

/* The canonical form is a fixpoint: the served object, given again, is served as it is and hashes as
 * the manifest it came from. */
START_TEST(canonical_is_a_fixpoint)
{
	json_t *classes = load_yaml(CORPUS), *cls;
	size_t i, j;
	json_array_foreach(classes, i, cls)
	{
		json_t *v;
		json_array_foreach(json_object_get(cls, "variants"), j, v)
		{
			json_t *ds = daemonset(v, 0);
			char *text = dump(ds), *out, *again;
			ds_error err;
			ck_assert_int_eq(ds_daemonset_defaults(text, strlen(text), NULL, &out, &err), 0);
			ck_assert_int_eq(ds_daemonset_defaults(out, strlen(out), NULL, &again, &err), 0);
			json_t *once = dsi_test_take_json(out), *twice = dsi_test_take_json(again);
			ck_assert_msg(json_equal(once, twice), "%s: variant %zu: defaults of defaults differ",
				      json_string_value(json_object_get(cls, "name")), j);
			char h[16], hs[16];
			hash_of(v, h);
			hash_of(json_object_get(json_object_get(once, "spec"), "template"), hs);
			ck_assert_str_eq(h, hs);
			free(text);
			json_decref(once);
			json_decref(twice);
			json_decref(ds);
		}
	}
	json_decref(classes);
}
END_TEST

/* A DaemonSet with one field set to a number spelt as text. */
static char *with_number(int json, const char *field, const char *number)
{
	static const char *const yaml_fmt =
		"apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\n  namespace: default\n%s"
		"spec:\n%s  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n"
		"    spec:\n      containers:\n      - name: c\n        image: i\n        ports:\n"
		"        - containerPort: %s\n";
	static const char *const json_fmt =
		"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"x\",\"namespace\":"
		"\"default\"%s},\"spec\":{%s\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"template\":{\"metadata\":"
		"{\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"ports\":[{"
		"\"containerPort\":%s}]}]}}}}";
	char meta[128] = "", spec[128] = "", port[64] = "80";
	if (strcmp(field, "metadata.generation") == 0)
		snprintf(meta, sizeof(meta), json ? ",\"generation\":%s" : "  generation: %s\n", number);
	else if (strcmp(field, "spec.minReadySeconds") == 0)
		snprintf(spec, sizeof(spec), json ? "\"minReadySeconds\":%s," : "  minReadySeconds: %s\n", number);
	else
		snprintf(port, sizeof(port), "%s", number);
	char *out = malloc(2048);
	ck_assert_ptr_nonnull(out);
	snprintf(out, 2048, json ? json_fmt : yaml_fmt, meta, spec, port);
	return out;
}

/* The same error: code, path and message. */
static void same_error(const char *what, int rc, const ds_error *err, const char *path, const char *message)
{
	ck_assert_msg(rc == DS_ETYPE, "%s: rc %d (%s: %s), want DS_ETYPE", what, rc, err->path, err->message);
	ck_assert_msg(strcmp(err->path, path) == 0 && strcmp(err->message, message) == 0, "%s: %s: %s, want %s: %s",
		      what, err->path, err->message, path, message);
}

/* An integer out of its Go type's range is refused alike by validation, defaults, loading, watch events
 * and the pure functions, with its JSON path, whether the text is JSON or YAML. */
START_TEST(out_of_range_refused_alike)
{
	static const struct {
		const char *field, *number, *path, *message;
	} cases[] = {
		{"metadata.generation", "9223372036854775808", "metadata.generation",
		 "expected a 64-bit integer, got 9223372036854775808"},
		{"metadata.generation", "18446744073709551615", "metadata.generation",
		 "expected a 64-bit integer, got 18446744073709551616"},
		{"spec.minReadySeconds", "2147483648", "spec.minReadySeconds",
		 "expected a 32-bit integer, got 2147483648"},
		{"port", "4294967296", "spec.template.spec.containers[0].ports[0].containerPort",
		 "expected a 32-bit integer, got 4294967296"},
		{"port", "80.5", "spec.template.spec.containers[0].ports[0].containerPort",
		 "expected an integer, got 80.5"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int json = 0; json < 2; json++) {
			char *text = with_number(json, cases[i].field, cases[i].number), *out = NULL, what[160];
			size_t len = strlen(text);
			ds_error err;
			snprintf(what, sizeof(what), "%s %s (%s)", cases[i].field, cases[i].number,
				 json ? "JSON" : "YAML");
			int rc = ds_daemonset_validate(text, len, 0, NULL, &out, &err);
			same_error(what, rc, &err, cases[i].path, cases[i].message);
			rc = ds_daemonset_defaults(text, len, NULL, &out, &err);
			same_error(what, rc, &err, cases[i].path, cases[i].message);
			/* the stream reports the document's error, as dsctl validate prints it */
			ck_assert_int_eq(ds_daemonset_validate_stream(text, len, 0, NULL, &out, &err), 0);
			json_t *st = dsi_test_take_json(out),
			       *e = json_object_get(json_array_get(json_object_get(st, "documents"), 0), "error");
			ck_assert_msg(json_is_false(json_object_get(st, "valid")) && e, "%s: the stream finds it valid",
				      what);
			ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "DS_ETYPE");
			ck_assert_str_eq(json_string_value(json_object_get(e, "path")), cases[i].path);
			ck_assert_str_eq(json_string_value(json_object_get(e, "message")), cases[i].message);
			json_decref(st);
			ds_cluster *c;
			ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
			rc = ds_cluster_load(c, text, len, NULL, &err);
			same_error(what, rc, &err, cases[i].path, cases[i].message);
			ck_assert_uint_eq(ds_cluster_count(c, "DaemonSet"), 0);
			ds_cluster_free(c);
			int run, cont;
			const char node[] = "{\"metadata\":{\"name\":\"n\"}}";
			rc = ds_daemonset_node_should_run(text, len, node, strlen(node), NULL, &run, &cont, &out, &err);
			same_error(what, rc, &err, cases[i].path, cases[i].message);
			free(text);
		}
	}
	/* a watch event of an object from a server: the same refusal */
	char *text = with_number(1, "metadata.generation", "9223372036854775808"), ev[4096];
	snprintf(ev, sizeof(ev), "{\"type\":\"MODIFIED\",\"object\":%s}", text);
	free(text);
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	int rc = ds_cluster_apply_events(c, ev, strlen(ev), NULL, &err);
	ck_assert_int_eq(rc, DS_ETYPE);
	ck_assert_ptr_nonnull(strstr(err.path, "metadata.generation"));
	ck_assert_str_eq(err.message, "expected a 64-bit integer, got 9223372036854775808");
	ds_cluster_free(c);
}
END_TEST

/* kube-flannel as published, applied to a cluster that holds it as a 1.30 API server stored it
 * (resources: {}, every default, creationTimestamp: null, its ControllerRevision and pods): the
 * template is unchanged, nothing is bumped, and the sync matches the existing revision and plans
 * nothing, as the real controller does. */
START_TEST(unchanged_manifest_plans_nothing)
{
	size_t len;
	char *text = dsi_test_read_file("tests/vectors/canonical/flannel-cluster.yaml", &len), *out;
	ds_cluster *c = dsi_test_cluster_text(text);
	free(text);
	ds_error err;
	ds_time now;
	ck_assert_int_eq(ds_time_parse("2026-12-01T12:00:00Z", &now, &err), 0);
	text = dsi_test_read_file("tests/vectors/canonical/flannel-manifest.yaml", &len);
	int rc = ds_daemonset_update(c, text, len, NULL, &out, &err);
	free(text);
	ck_assert_msg(rc == 0, "%s: %s", err.path, err.message);
	json_t *r = dsi_test_take_json(out);
	ck_assert(json_is_false(json_object_get(r, "templateChanged")));
	ck_assert_int_eq(json_integer_value(json_object_get(r, "generation")), 1);
	ck_assert_str_eq(
		json_string_value(json_object_get(
			json_object_get(json_object_get(json_object_get(r, "object"), "metadata"), "annotations"),
			"deprecated.daemonset.template.generation")),
		"1");
	json_decref(r);
	ds_plan *p;
	ck_assert_int_eq(ds_daemonset_plan(c, "kube-flannel", "kube-flannel-ds", now, NULL, NULL, 0, &p, &err), 0);
	ck_assert_int_eq(ds_plan_to_json(p, &out, &err), 0);
	ds_plan_free(p);
	json_t *plan = dsi_test_take_json(out), *h = json_object_get(plan, "history");
	ck_assert_str_eq(json_string_value(json_object_get(plan, "hash")), "747bf8b47");
	ck_assert_uint_eq(json_array_size(json_object_get(plan, "creates")), 0);
	ck_assert_uint_eq(json_array_size(json_object_get(plan, "deletes")), 0);
	ck_assert_ptr_null(json_object_get(h, "create"));
	ck_assert_str_eq(json_string_value(json_object_get(h, "current")), "kube-flannel-ds-747bf8b47");
	json_decref(plan);
	/* a change the API server keeps is one: the image */
	ck_assert_int_eq(ds_daemonset_set_image(c, "kube-flannel", "kube-flannel-ds", "kube-flannel",
						"ghcr.io/flannel-io/flannel:v0.26.5", NULL, &out, &err),
			 0);
	r = dsi_test_take_json(out);
	ck_assert(json_is_true(json_object_get(r, "templateChanged")));
	ck_assert_int_eq(json_integer_value(json_object_get(r, "generation")), 2);
	json_decref(r);
	ds_cluster_free(c);
}
END_TEST

/*
 * ds_daemonset_defaults prints the object as the API server serves it. The expected object is
 * written by hand from upstream's encoding rules (k8s.io/api at kubernetes/api 10b39a39b and
 * k8s.io/apimachinery at eed236ce, the struct tags encoding/json follows):
 * - DaemonSetStatus: currentNumberScheduled, numberMisscheduled, desiredNumberScheduled and
 *   numberReady have no omitempty, so a new object is served with them at 0 (apps/v1 types.go);
 * - ObjectMeta.CreationTimestamp is omitempty,omitzero since 1.34: no "creationTimestamp": null;
 * - Container.Resources is a ResourceRequirements value: {} when empty (core/v1 types.go);
 * - EnvVar.Value, Container.Env, PodSpec.Tolerations and Container.SecurityContext (a pointer) are
 *   omitempty: value "" or null, env [], tolerations null, securityContext null all vanish;
 * - SetDefaults_DaemonSet, SetDefaults_PodSpec, SetDefaults_Container, SetDefaults_ContainerPort,
 *   SetDefaults_HostPathVolumeSource and SetDefaults_ResourceList (pkg/apis/apps/v1 and core/v1
 *   defaults.go): the defaults, and quantities in canonical form ("0.1" cpu is 100m, 1024Mi is 1Gi).
 */
START_TEST(defaults_as_served)
{
	static const char manifest[] = "apiVersion: apps/v1\n"
				       "kind: DaemonSet\n"
				       "metadata:\n"
				       "  name: agent\n"
				       "  namespace: kube-system\n"
				       "  labels: {app: agent}\n"
				       "  creationTimestamp: null\n"
				       "spec:\n"
				       "  selector:\n"
				       "    matchLabels: {app: agent}\n"
				       "  template:\n"
				       "    metadata:\n"
				       "      labels: {app: agent}\n"
				       "    spec:\n"
				       "      tolerations: null\n"
				       "      containers:\n"
				       "      - name: agent\n"
				       "        image: example.com/agent:1.0\n"
				       "        env:\n"
				       "        - name: A\n"
				       "          value:\n"
				       "        - name: B\n"
				       "          value: \"\"\n"
				       "        - name: C\n"
				       "          value: c\n"
				       "        securityContext: null\n"
				       "        resources:\n"
				       "          requests: {cpu: \"0.1\", memory: 1024Mi}\n"
				       "      - name: sidecar\n"
				       "        image: example.com/sidecar\n"
				       "        env: []\n"
				       "        ports:\n"
				       "        - containerPort: 8080\n"
				       "      volumes:\n"
				       "      - name: logs\n"
				       "        hostPath: {path: /var/log}\n";
	static const char served[] =
		"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\","
		"\"metadata\":{\"labels\":{\"app\":\"agent\"},\"name\":\"agent\",\"namespace\":\"kube-system\"},"
		"\"spec\":{\"revisionHistoryLimit\":10,\"selector\":{\"matchLabels\":{\"app\":\"agent\"}},"
		"\"template\":{\"metadata\":{\"labels\":{\"app\":\"agent\"}},\"spec\":{"
		"\"containers\":["
		"{\"env\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\",\"value\":\"c\"}],"
		"\"image\":\"example.com/agent:1.0\",\"imagePullPolicy\":\"IfNotPresent\",\"name\":\"agent\","
		"\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"1Gi\"}},"
		"\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\"},"
		"{\"image\":\"example.com/sidecar\",\"imagePullPolicy\":\"Always\",\"name\":\"sidecar\","
		"\"ports\":[{\"containerPort\":8080,\"protocol\":\"TCP\"}],\"resources\":{},"
		"\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\"}],"
		"\"dnsPolicy\":\"ClusterFirst\",\"restartPolicy\":\"Always\",\"schedulerName\":\"default-scheduler\","
		"\"securityContext\":{},\"terminationGracePeriodSeconds\":30,"
		"\"volumes\":[{\"hostPath\":{\"path\":\"/var/log\",\"type\":\"\"},\"name\":\"logs\"}]}},"
		"\"updateStrategy\":{\"rollingUpdate\":{\"maxSurge\":0,\"maxUnavailable\":1},\"type\":"
		"\"RollingUpdate\"}},"
		"\"status\":{\"currentNumberScheduled\":0,\"desiredNumberScheduled\":0,\"numberMisscheduled\":0,"
		"\"numberReady\":0}}";
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_defaults(manifest, strlen(manifest), NULL, &out, &err), 0);
	json_t *got = dsi_test_take_json(out), *want = json_loads(served, 0, NULL);
	ck_assert_ptr_nonnull(want);
	char *g = json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS), *w = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS);
	ck_assert_msg(json_equal(got, want), "served\n %s\nwant\n %s", g, w);
	free(g);
	free(w);
	json_decref(got);
	json_decref(want);
	/* kube-flannel as published is served as the 1.30 dump holds it, but for what 1.34 changed: no
	 * creationTimestamp: null in the template */
	size_t len;
	char *text = dsi_test_read_file("tests/vectors/canonical/flannel-manifest.yaml", &len);
	ck_assert_int_eq(ds_daemonset_defaults(text, len, NULL, &out, &err), 0);
	free(text);
	got = dsi_test_take_json(out);
	json_t *dump = load_yaml("tests/vectors/canonical/flannel-cluster.yaml"), *o;
	size_t i;
	json_array_foreach(dump, i, o) if (strcmp(json_string_value(json_object_get(o, "kind")), "DaemonSet") == 0)
		want = json_object_get(o, "spec");
	json_object_del(json_object_get(json_object_get(want, "template"), "metadata"), "creationTimestamp");
	g = json_dumps(json_object_get(got, "spec"), JSON_COMPACT | JSON_SORT_KEYS);
	w = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS);
	ck_assert_msg(json_equal(json_object_get(got, "spec"), want), "served\n %s\nwant\n %s", g, w);
	free(g);
	free(w);
	json_decref(got);
	json_decref(dump);
}
END_TEST

/* Lists as real dumps write them: "items": null (Go's nil slice) is an empty list, and items without kind
 * or apiVersion are the list's kind in its version, for every reader (the stored object says so: the
 * audit and an update read it). */
START_TEST(lists_as_dumps_write_them)
{
	static const char *const empty[] = {
		"{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"metadata\":{},\"items\":null}",
		"apiVersion: v1\nkind: NodeList\nitems:\n",
		"apiVersion: v1\nkind: List\nitems: ~\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\n",
		"[{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"items\":null}]",
	};
	for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
		ds_cluster *c;
		ds_error err;
		size_t count = 99;
		ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
		int rc = ds_cluster_load(c, empty[i], strlen(empty[i]), &count, &err);
		if (i == 3) { /* an array is not a Kubernetes object: still refused */
			ck_assert_int_eq(rc, DS_ETYPE);
		} else {
			ck_assert_msg(rc == 0, "%zu: %s: %s", i, err.path, err.message);
			ck_assert_uint_eq(count, i == 2 ? 1 : 0);
		}
		ds_cluster_free(c);
	}
	/* kubectl cluster-info dump writes a DaemonSetList's items without kind and apiVersion */
	static const char dump[] =
		"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSetList\",\"items\":[{\"metadata\":{\"name\":\"a\","
		"\"namespace\":\"ns\",\"uid\":\"u1\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},"
		"\"template\":"
		"{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i:1\"}]"
		"}}}}]}";
	ds_cluster *c = dsi_test_cluster_text(dump);
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_cluster_get(c, "DaemonSet", "ns", "a", &out, &err), 0);
	json_t *ds = dsi_test_take_json(out);
	ck_assert_str_eq(json_string_value(json_object_get(ds, "kind")), "DaemonSet");
	ck_assert_str_eq(json_string_value(json_object_get(ds, "apiVersion")), "apps/v1");
	json_decref(ds);
	ck_assert_msg(ds_daemonset_audit(c, "ns", "a", NULL, &out, &err) == 0, "audit: %s", err.message);
	ds_free(out);
	ck_assert_msg(ds_daemonset_set_image(c, "ns", "a", "c", "i:2", NULL, &out, &err) == 0, "set image: %s: %s",
		      err.path, err.message);
	json_t *r = dsi_test_take_json(out);
	ck_assert(json_is_true(json_object_get(r, "templateChanged")));
	json_decref(r);
	/* the pure functions' objects and ds_objects_parse say the same */
	ck_assert_int_eq(ds_objects_parse(dump, strlen(dump), NULL, &out, &err), 0);
	json_t *objs = dsi_test_take_json(out);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(objs, 0), "kind")), "DaemonSet");
	json_decref(objs);
	ds_cluster_free(c);
}
END_TEST

/* ---- the canonical template for the hash alone ------------------------------------------------- */

typedef struct for_hash_count {
	size_t templates, refused, files;
} for_hash_count;

/* dsi_canonical_template_for_hash(t) against dsi_canonical_template(t, DSI_CANON_SERVED): the same
 * return, equal values (json_equal: member order aside) and the same hash, with the decoding
 * checked again or (where it passed) not. */
static void for_hash_alike(const json_t *t, const char *where, for_hash_count *n)
{
	json_t *want = NULL;
	ds_error err;
	int rc = dsi_canonical_template(t, DSI_CANON_SERVED, &want, &err);
	n->templates++;
	n->refused += rc < 0;
	for (int checked = 0; checked < 2 && !(checked && rc < 0); checked++) {
		json_t *got = NULL;
		ds_error err2;
		int rc2 = dsi_canonical_template_for_hash(t, checked, &got, &err2);
		ck_assert_msg(rc2 == rc, "%s (checked %d): %d (%s) against %d (%s)", where, checked, rc2,
			      rc2 < 0 ? err2.message : "", rc, rc < 0 ? err.message : "");
		if (rc < 0) {
			ck_assert_ptr_null(got);
			continue;
		}
		if (!json_equal(want, got)) {
			char *a = dump(got), *b = dump(want);
			ck_abort_msg("%s (checked %d): %s against %s", where, checked, a, b);
		}
		for (int minor = dsi_gohash_min_minor(); minor <= dsi_gohash_max_minor(); minor += 5) {
			char h1[DSI_HASH_MAX], h2[DSI_HASH_MAX];
			unsigned i1, i2;
			ck_assert_int_eq(dsi_template_hash(want, minor, 1, 7, h1, &i1), 0);
			ck_assert_int_eq(dsi_template_hash(got, minor, 1, 7, h2, &i2), 0);
			ck_assert_msg(strcmp(h1, h2) == 0 && i1 == i2, "%s: 1.%d: %s against %s", where, minor, h2, h1);
		}
		json_decref(got);
	}
	json_decref(want);
}

/* Every template in v: members named template, and objects with a spec or metadata taken as one. */
static void for_hash_walk(const json_t *v, const char *where, for_hash_count *n)
{
	const char *k;
	json_t *m;
	size_t i;
	if (json_is_object(v)) {
		if (json_object_get(v, "spec") || json_object_get(v, "metadata"))
			for_hash_alike(v, where, n);
		json_object_foreach((json_t *)v, k, m)
		{
			if (strcmp(k, "template") == 0 && (json_is_object(m) || json_is_null(m)))
				for_hash_alike(m, where, n);
			for_hash_walk(m, where, n);
		}
	}
	json_array_foreach(json_is_array(v) ? v : NULL, i, m) for_hash_walk(m, where, n);
}

static int for_hash_doc(void *ctx, json_t *doc, size_t index, int line)
{
	for_hash_count *n = ctx;
	(void)index;
	(void)line;
	for_hash_walk(doc, "(yaml)", n);
	json_decref(doc);
	return 0;
}

/* The templates of a JSON or YAML file of the source tree. */
static void for_hash_file(const char *path, void *ctx)
{
	for_hash_count *n = ctx;
	size_t size, len = strlen(path);
	char *text = dsi_test_read_file(path, &size);
	int json = len > 5 && strcmp(path + len - 5, ".json") == 0;
	json_t *v = json ? json_loadb(text, size, 0, NULL) : NULL;
	n->files++;
	if (v) {
		for_hash_walk(v, path, n);
		json_decref(v);
	} else {
		dsi_limits lim;
		dsi_limits_default(&lim);
		ds_error err;
		(void)dsi_yaml_parse(text, size, &lim, for_hash_doc, n, &err); /* the bad ones on purpose too */
	}
	free(text);
}

START_TEST(template_for_hash_on_the_corpus)
{
	static const char *const files[] = {".json", ".yaml", ".yml", NULL};
	for_hash_count n = {0, 0, 0};
	dsi_test_each_file("examples", files, for_hash_file, &n);
	dsi_test_each_file("tests", files, for_hash_file, &n);
	printf("canonical: %zu templates of %zu files alike for the hash (%zu refused by both)\n", n.templates, n.files,
	       n.refused);
	ck_assert_uint_ge(n.templates, 1000);
	ck_assert_uint_ge(n.files, 50);
}
END_TEST

/* Each default's edge cases: absent, null, zero and set, wherever the print and the defaults could
 * part (omitempty drops what a default reads as absent; a default's value must print as itself). */
static const char *const for_hash_edges[] = {
	"null",
	"{}",
	"{\"spec\":null}",
	"{\"spec\":{}}",
	"{\"metadata\":null,\"spec\":{\"containers\":null,\"volumes\":[]}}",
	"{\"metadata\":{\"labels\":{},\"annotations\":{\"a\":\"\"},\"creationTimestamp\":\"2020-01-02T03:04:05.6Z\"}}",
	"{\"foo\":1,\"spec\":{\"foo\":{},\"containers\":[{\"foo\":null}]}}",
	/* the pod's own defaults */
	"{\"spec\":{\"dnsPolicy\":\"\",\"restartPolicy\":null,\"schedulerName\":\"\",\"securityContext\":null,"
	"\"terminationGracePeriodSeconds\":null}}",
	"{\"spec\":{\"dnsPolicy\":\"None\",\"restartPolicy\":\"Never\",\"schedulerName\":\"s\",\"securityContext\":{},"
	"\"terminationGracePeriodSeconds\":0}}",
	"{\"spec\":{\"securityContext\":{\"runAsUser\":0,\"supplementalGroups\":[],\"sysctls\":null}}}",
	"{\"spec\":{\"serviceAccount\":\"a\"}}",
	"{\"spec\":{\"serviceAccountName\":\"\",\"serviceAccount\":\"b\"}}",
	"{\"spec\":{\"serviceAccountName\":\"c\",\"serviceAccount\":\"d\"}}",
	"{\"spec\":{\"serviceAccountName\":null,\"serviceAccount\":null}}",
	"{\"spec\":{\"overhead\":{\"cpu\":\"0.0001\",\"memory\":null},\"resources\":{\"limits\":{\"cpu\":\"1.0001\"},"
	"\"requests\":{}}}}",
	"{\"spec\":{\"tolerations\":[],\"nodeSelector\":{},\"affinity\":{},\"hostNetwork\":false,\"priority\":null}}",
	/* containers */
	"{\"spec\":{\"containers\":[null,{},{\"name\":\"a\",\"image\":\"\"}],\"initContainers\":[{\"image\":null}],"
	"\"ephemeralContainers\":[{\"name\":\"e\",\"image\":\"busybox:latest\",\"ports\":[{}]}]}}",
	"{\"spec\":{\"containers\":[{\"image\":\"nginx\"},{\"image\":\"nginx:latest\"},{\"image\":\"Bad Image\"},"
	"{\"image\":\"nginx@sha256:0123456789012345678901234567890123456789012345678901234567890123\"},"
	"{\"image\":\"reg.example.com:5000/a/b:latest\",\"imagePullPolicy\":\"\"},{\"image\":\"x:1\","
	"\"imagePullPolicy\":\"Never\",\"terminationMessagePath\":\"\",\"terminationMessagePolicy\":null}]}}",
	"{\"spec\":{\"containers\":[{\"name\":\"p\",\"ports\":[null,{},{\"containerPort\":80},{\"containerPort\":81,"
	"\"protocol\":\"\"},{\"protocol\":\"UDP\",\"name\":\"u\"}]}]}}",
	"{\"spec\":{\"containers\":[{\"env\":[{\"name\":\"a\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"x\"}}},"
	"{\"name\":\"b\",\"valueFrom\":{\"fieldRef\":{\"apiVersion\":\"\",\"fieldPath\":\"y\"}}},{\"name\":\"c\","
	"\"valueFrom\":null},{\"name\":\"d\",\"valueFrom\":{\"fieldRef\":null,\"resourceFieldRef\":{\"resource\":"
	"\"limits.cpu\",\"divisor\":\"0.001\"}}},{\"name\":\"e\",\"value\":\"\"},{\"name\":\"f\",\"value\":null},"
	"null]}]}}",
	/* probes and handlers */
	"{\"spec\":{\"containers\":[{\"livenessProbe\":{},\"readinessProbe\":null,\"startupProbe\":{\"httpGet\":{"
	"\"port\":80}}}]}}",
	"{\"spec\":{\"containers\":[{\"livenessProbe\":{\"httpGet\":{\"port\":\"http\",\"path\":\"\",\"scheme\":\"\"},"
	"\"timeoutSeconds\":0,\"periodSeconds\":null,\"successThreshold\":5,\"failureThreshold\":0},"
	"\"readinessProbe\":{\"grpc\":{\"port\":1}},\"startupProbe\":{\"grpc\":{\"port\":2,\"service\":null}}}]}}",
	"{\"spec\":{\"containers\":[{\"livenessProbe\":{\"grpc\":{\"port\":1,\"service\":\"\"}},\"readinessProbe\":{"
	"\"exec\":{\"command\":[]}},\"startupProbe\":{\"tcpSocket\":{\"port\":1},\"initialDelaySeconds\":3}}]}}",
	"{\"spec\":{\"containers\":[{\"lifecycle\":{\"postStart\":{\"httpGet\":{\"port\":1}},\"preStop\":{\"exec\":{}}}"
	"},"
	"{\"lifecycle\":{\"preStop\":null}},{\"lifecycle\":{}},{\"lifecycle\":{\"postStart\":{\"httpGet\":{\"port\":"
	"1,\"path\":\"/p\",\"scheme\":\"HTTPS\",\"httpHeaders\":[]}}}}]}}",
	/* resources and quantities */
	"{\"spec\":{\"containers\":[{\"resources\":{\"limits\":{\"cpu\":\"0.0001\",\"memory\":\"1.0001\"},\"requests\":"
	"{"
	"\"cpu\":\"1e-7\",\"memory\":\"0.5Ki\",\"x\":null}}},{\"resources\":{\"requests\":{}}},{\"resources\":{"
	"\"limits\":null,\"claims\":[]}},{\"resources\":null}]}}",
	"{\"spec\":{\"containers\":[{\"resources\":{\"limits\":{\"a\":\"999999999999999999999.0001\",\"b\":\"12e-4\","
	"\"c\":\"0.0000000001\",\"d\":\"1E-4\",\"e\":\"100n\",\"f\":\"1.5\",\"g\":\"0\",\"h\":\"-1m\",\"i\":\"+1\","
	"\"j\":\"1e3\",\"k\":\"1000m\",\"l\":\"0.1\",\"m\":\"1Ki\",\"n\":\"1.5Gi\",\"o\":\"0.0001Ki\",\"p\":"
	"\"5000000000000000000000000000000000000000e-40\",\"q\":\"1.0000000001\",\"r\":\"123456789012345678\","
	"\"s\":\"0.000999\",\"t\":\"1e-3\",\"u\":\"7u\",\"v\":\"9223372036854775807m\",\"w\":\"0.5e-3\",\"x\":1,"
	"\"y\":0.25,\"z\":\"1.5e-5\"}}}]}}",
	/* volumes */
	"{\"spec\":{\"volumes\":[null,{\"name\":\"a\"},{\"name\":\"b\",\"hostPath\":{\"path\":\"/x\"}},{\"name\":\"c\","
	"\"hostPath\":{\"path\":\"/y\",\"type\":null}},{\"name\":\"d\",\"hostPath\":{\"type\":\"\"}},{\"name\":\"e\","
	"\"hostPath\":{\"type\":\"Directory\"}},{\"name\":\"f\",\"emptyDir\":null},{\"name\":\"g\",\"emptyDir\":{"
	"\"sizeLimit\":\"1.5Gi\",\"medium\":\"\"}},{\"name\":\"h\",\"foo\":{}},{\"name\":\"i\",\"hostPath\":null}]}}",
	"{\"spec\":{\"volumes\":[{\"name\":\"s\",\"secret\":{}},{\"name\":\"t\",\"secret\":{\"defaultMode\":null,"
	"\"items\":[]}},{\"name\":\"u\",\"configMap\":{\"defaultMode\":420}},{\"name\":\"v\",\"configMap\":{\"name\":"
	"\"x\",\"optional\":false}}]}}",
	"{\"spec\":{\"volumes\":[{\"name\":\"d\",\"downwardAPI\":{\"items\":[{\"path\":\"x\",\"fieldRef\":{"
	"\"fieldPath\":\"y\"}},{\"path\":\"z\",\"resourceFieldRef\":{\"resource\":\"limits.cpu\",\"divisor\":"
	"\"1m\"}},null]}},{\"name\":\"e\",\"downwardAPI\":{}}]}}",
	"{\"spec\":{\"volumes\":[{\"name\":\"p\",\"projected\":{\"sources\":[{\"downwardAPI\":{\"items\":[{\"path\":"
	"\"a\",\"fieldRef\":{\"fieldPath\":\"b\",\"apiVersion\":\"\"}}]}},{\"serviceAccountToken\":{\"path\":\"t\"}},"
	"{\"serviceAccountToken\":{\"path\":\"u\",\"expirationSeconds\":null}},{\"configMap\":{\"name\":\"x\"}},null,"
	"{}]}},{\"name\":\"q\",\"projected\":{\"sources\":[]}},{\"name\":\"r\",\"projected\":{\"sources\":null,"
	"\"defaultMode\":0}}]}}",
	"{\"spec\":{\"volumes\":[{\"name\":\"i\",\"iscsi\":{}},{\"name\":\"j\",\"iscsi\":{\"iscsiInterface\":\"\"}},"
	"{\"name\":\"r\",\"rbd\":{\"monitors\":[]}},{\"name\":\"s\",\"rbd\":{\"pool\":\"\",\"user\":null,\"keyring\":"
	"\"k\"}},{\"name\":\"a\",\"azureDisk\":{}},{\"name\":\"b\",\"azureDisk\":{\"cachingMode\":null,\"fsType\":\"\","
	"\"readOnly\":true,\"kind\":\"Managed\"}},{\"name\":\"c\",\"scaleIO\":{}},{\"name\":\"d\",\"scaleIO\":{"
	"\"storageMode\":\"\",\"fsType\":null}}]}}",
	"{\"spec\":{\"volumes\":[{\"name\":\"e\",\"ephemeral\":{\"volumeClaimTemplate\":{}}},{\"name\":\"f\","
	"\"ephemeral\":{\"volumeClaimTemplate\":{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"1.0001\"}},"
	"\"accessModes\":[]}}}},{\"name\":\"g\",\"ephemeral\":{\"volumeClaimTemplate\":null}},{\"name\":\"h\","
	"\"ephemeral\":{}},{\"name\":\"i\",\"ephemeral\":{\"volumeClaimTemplate\":{\"spec\":null}}},{\"name\":\"j\","
	"\"ephemeral\":{\"volumeClaimTemplate\":{\"spec\":{\"volumeMode\":\"\"}}}}]}}",
	"{\"spec\":{\"volumes\":[{\"name\":\"x\",\"image\":{\"reference\":\"r\"}},{\"name\":\"y\",\"image\":null},"
	"{\"name\":\"z\",\"csi\":{\"driver\":\"d\",\"volumeAttributes\":{}}}]}}",
	/* what does not decode: refused by both */
	"{\"spec\":{\"containers\":[{\"ports\":[{\"containerPort\":\"80\"}]}]}}",
	"{\"spec\":{\"containers\":[{\"resources\":{\"limits\":{\"cpu\":\"abc\"}}}]}}",
	"{\"spec\":[]}",
	"{\"spec\":{\"volumes\":[{\"name\":\"a\",\"hostPath\":\"x\"}]}}",
};

START_TEST(template_for_hash_edges)
{
	for_hash_count n = {0, 0, 0};
	for (size_t i = 0; i < sizeof(for_hash_edges) / sizeof(for_hash_edges[0]); i++) {
		json_error_t je;
		json_t *t = json_loads(for_hash_edges[i], JSON_DECODE_ANY, &je);
		ck_assert_msg(t != NULL, "edge %zu: %s", i, je.text);
		for_hash_alike(t, for_hash_edges[i], &n);
		json_decref(t);
	}
	for_hash_alike(NULL, "NULL", &n);
	ck_assert_uint_eq(n.refused, 4);
	/* every source of a volume the schema knows, as {} and as null, alone and with another */
	int vt = dsi_schema_named("io.k8s.api.core.v1.Volume");
	ck_assert_int_ge(vt, 0);
	size_t sources = 0;
	for (size_t i = 0; i < dsi_schema_nfields_of(vt); i++) {
		const char *src = dsi_schema_field_name(vt, i);
		if (strcmp(src, "name") == 0)
			continue;
		sources++;
		json_t *t = json_pack("{s:{s:[{s:s, s:{}}, {s:s, s:n}, {s:s, s:{}, s:{}}]}}", "spec", "volumes", "name",
				      "a", src, "name", "b", src, "name", "c", src, "hostPath");
		ck_assert_ptr_nonnull(t);
		for_hash_alike(t, src, &n);
		json_decref(t);
	}
	ck_assert_uint_ge(sources, 30);
}
END_TEST

static Suite *canonical_suite(void)
{
	Suite *s = suite_create("canonical");
	TCase *tc = tcase_create("canonical");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, one_hash_per_class);
	tcase_add_test(tc, canonical_is_a_fixpoint);
	tcase_add_test(tc, out_of_range_refused_alike);
	tcase_add_test(tc, unchanged_manifest_plans_nothing);
	tcase_add_test(tc, defaults_as_served);
	tcase_add_test(tc, lists_as_dumps_write_them);
	tcase_add_test(tc, template_for_hash_on_the_corpus);
	tcase_add_test(tc, template_for_hash_edges);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(canonical_suite)
