/*
 * One canonical form (lib/apiserver/canonical.c): every spelling the API server stores alike hashes
 * alike, whatever path the template comes by (ds_template_hash, a manifest, a dump, a watch event),
 * and what it keeps apart hashes apart; the canonical form is a fixpoint; integers out of range are
 * refused alike everywhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

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
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(canonical_suite)
