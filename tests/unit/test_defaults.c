/* DaemonSet defaults: upstream's SetDefaults_DaemonSet table, the pod template defaults, image pull policies by
 * tag, quantities as served, and bad input. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/defaults.h"
#include "apiserver/goencode.h"
#include "apiserver/schema.h"
#include "harness.h"

#define VECTORS "tests/vectors/upstream/validation_daemonset.json"

static json_t *defaults_text(const char *text)
{
	char *out = NULL;
	ds_error err;
	int rc = ds_daemonset_defaults(text, strlen(text), NULL, &out, &err);
	ck_assert_msg(rc == 0, "ds_daemonset_defaults: %s: %s: %s", ds_strerror(rc), err.path, err.message);
	return dsi_test_take_json(out);
}

/* The member at a dotted path with [i] indexes, or NULL. */
static json_t *at(json_t *v, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = strtok(buf, "."); p && v; p = strtok(NULL, ".")) {
		char *br = strchr(p, '[');
		if (br)
			*br = '\0';
		v = json_object_get(v, p);
		while (br && v) {
			v = json_array_get(v, strtoul(br + 1, NULL, 10));
			br = strchr(br + 1, '[');
		}
	}
	return v;
}

static void expect_json(json_t *v, const char *path, const char *want)
{
	json_t *got = at(v, path);
	json_error_t je;
	json_t *w = json_loads(want, JSON_DECODE_ANY, &je);
	ck_assert_msg(w != NULL, "bad expectation %s", want);
	char *g = got ? json_dumps(got, JSON_ENCODE_ANY | JSON_SORT_KEYS | JSON_COMPACT) : NULL;
	ck_assert_msg(got && json_equal(got, w) && json_typeof(got) == json_typeof(w), "%s is %s, want %s", path,
		      g ? g : "absent", want);
	free(g);
	json_decref(w);
}

START_TEST(upstream_table)
{
	json_t *doc = dsi_test_load_json(VECTORS);
	json_t *cases = json_object_get(doc, "cases");
	size_t run = 0;
	for (size_t i = 0; i < json_array_size(cases); i++) {
		json_t *c = json_array_get(cases, i);
		if (strcmp(json_string_value(json_object_get(c, "function")), "SetDefaults_DaemonSet") != 0)
			continue;
		char *in = json_dumps(json_object_get(c, "daemonset"), 0);
		json_t *out = defaults_text(in);
		/* the table's expected struct as Go prints it (the served form prints every field of it) */
		json_t *want = dsi_go_print(json_object_get(json_object_get(c, "expect"), "spec"),
					    dsi_schema_at(dsi_schema_root_type("apps/v1", "DaemonSet"), "spec"), 0);
		char *g = json_dumps(json_object_get(out, "spec"), JSON_SORT_KEYS | JSON_COMPACT);
		char *w = json_dumps(want, JSON_SORT_KEYS | JSON_COMPACT);
		ck_assert_msg(json_equal(json_object_get(out, "spec"), want), "%s:\n got  %s\n want %s",
			      json_string_value(json_object_get(c, "name")), g, w);
		free(g);
		free(w);
		free(in);
		json_decref(out);
		json_decref(want);
		run++;
	}
	ck_assert_uint_eq(run, 4);
	json_decref(doc);
}
END_TEST

START_TEST(strategy_defaults)
{
	/* OnDelete gets no rollingUpdate; an explicit revisionHistoryLimit of 0 stays */
	json_t *v = defaults_text("{\"spec\":{\"updateStrategy\":{\"type\":\"OnDelete\"},\"revisionHistoryLimit\":0}}");
	expect_json(v, "spec.updateStrategy", "{\"type\":\"OnDelete\"}");
	expect_json(v, "spec.revisionHistoryLimit", "0");
	json_decref(v);
	/* only the missing knob is defaulted: maxUnavailable 1 next to a surge (validation then refuses both) */
	v = defaults_text("{\"spec\":{\"updateStrategy\":{\"rollingUpdate\":{\"maxSurge\":\"10%\"}}}}");
	expect_json(v, "spec.updateStrategy",
		    "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1,\"maxSurge\":\"10%\"}}");
	json_decref(v);
	v = defaults_text("{\"spec\":{\"updateStrategy\":{\"type\":\"\",\"rollingUpdate\":null}}}");
	expect_json(v, "spec.updateStrategy",
		    "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1,\"maxSurge\":0}}");
	json_decref(v);
	/* an object without spec gets one; other fields are untouched, and served as Go prints them: the
	 * status counters without omitempty are there (DaemonSetStatus in k8s.io/api apps/v1 types.go) */
	v = defaults_text("kind: DaemonSet\nmetadata: {name: x, labels: {a: b}}\nstatus: {numberReady: 2}\n");
	expect_json(v, "metadata", "{\"name\":\"x\",\"labels\":{\"a\":\"b\"}}");
	expect_json(v, "status",
		    "{\"currentNumberScheduled\":0,\"numberMisscheduled\":0,\"desiredNumberScheduled\":0,"
		    "\"numberReady\":2}");
	expect_json(v, "spec.revisionHistoryLimit", "10");
	expect_json(v, "spec.template.spec.schedulerName", "\"default-scheduler\"");
	json_decref(v);
}
END_TEST

START_TEST(pod_template_defaults)
{
	json_t *v = defaults_text("spec:\n"
				  "  template:\n"
				  "    spec:\n"
				  "      dnsPolicy: ''\n"
				  "      serviceAccount: legacy\n"
				  "      securityContext: {runAsUser: 1000}\n"
				  "      terminationGracePeriodSeconds: 0\n"
				  "      containers:\n"
				  "      - name: a\n"
				  "        image: nginx\n"
				  "        ports: [{containerPort: 80}, {containerPort: 53, protocol: UDP}]\n"
				  "        env: [{name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}]\n"
				  "        livenessProbe: {httpGet: {port: 80}}\n"
				  "        readinessProbe: {grpc: {port: 9000}, periodSeconds: 5}\n"
				  "        lifecycle: {preStop: {httpGet: {port: 80, path: /quit}}}\n"
				  "        terminationMessagePolicy: FallbackToLogsOnError\n"
				  "      initContainers:\n"
				  "      - {name: init, image: 'busybox:1.36', imagePullPolicy: Never}\n"
				  "      - null\n");
	expect_json(v, "spec.template.spec.dnsPolicy", "\"ClusterFirst\"");
	expect_json(v, "spec.template.spec.restartPolicy", "\"Always\"");
	expect_json(v, "spec.template.spec.securityContext", "{\"runAsUser\":1000}");
	expect_json(v, "spec.template.spec.terminationGracePeriodSeconds", "0");
	expect_json(v, "spec.template.spec.serviceAccountName", "\"legacy\"");
	expect_json(v, "spec.template.spec.containers[0].imagePullPolicy", "\"Always\"");
	expect_json(v, "spec.template.spec.containers[0].terminationMessagePath", "\"/dev/termination-log\"");
	expect_json(v, "spec.template.spec.containers[0].terminationMessagePolicy", "\"FallbackToLogsOnError\"");
	expect_json(v, "spec.template.spec.containers[0].ports",
		    "[{\"containerPort\":80,\"protocol\":\"TCP\"},{\"containerPort\":53,\"protocol\":\"UDP\"}]");
	expect_json(v, "spec.template.spec.containers[0].env[0].valueFrom.fieldRef",
		    "{\"fieldPath\":\"spec.nodeName\",\"apiVersion\":\"v1\"}");
	expect_json(v, "spec.template.spec.containers[0].livenessProbe",
		    "{\"httpGet\":{\"port\":80,\"path\":\"/"
		    "\",\"scheme\":\"HTTP\"},\"timeoutSeconds\":1,\"periodSeconds\":10,"
		    "\"successThreshold\":1,\"failureThreshold\":3}");
	expect_json(v, "spec.template.spec.containers[0].readinessProbe",
		    "{\"grpc\":{\"port\":9000,\"service\":\"\"},\"timeoutSeconds\":1,\"periodSeconds\":5,"
		    "\"successThreshold\":1,"
		    "\"failureThreshold\":3}");
	expect_json(v, "spec.template.spec.containers[0].lifecycle.preStop.httpGet",
		    "{\"port\":80,\"path\":\"/quit\",\"scheme\":\"HTTP\"}");
	expect_json(v, "spec.template.spec.initContainers[0].imagePullPolicy", "\"Never\"");
	/* a null element decodes as the zero container, which is then defaulted and printed: its name has
	 * no omitempty, its resources are a struct value */
	expect_json(v, "spec.template.spec.initContainers[1]",
		    "{\"name\":\"\",\"imagePullPolicy\":\"IfNotPresent\",\"resources\":{},"
		    "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\"}");
	json_decref(v);
	v = defaults_text(
		"{\"spec\":{\"template\":{\"spec\":{\"serviceAccountName\":\"sa\",\"serviceAccount\":\"old\"}}}}");
	expect_json(v, "spec.template.spec.serviceAccount", "\"sa\"");
	json_decref(v);
}
END_TEST

START_TEST(volume_defaults)
{
	json_t *v = defaults_text(
		"{\"spec\":{\"template\":{\"spec\":{\"volumes\":["
		"{\"name\":\"a\"},{\"name\":\"b\",\"secret\":{\"secretName\":\"s\"}},{\"name\":\"c\",\"configMap\":{"
		"\"name\":\"c\","
		"\"defaultMode\":256}},{\"name\":\"d\",\"hostPath\":{\"path\":\"/var/log\"}},"
		"{\"name\":\"e\",\"projected\":{\"sources\":[{\"serviceAccountToken\":{\"path\":\"t\"}},{"
		"\"downwardAPI\":{\"items\":"
		"[{\"path\":\"p\",\"fieldRef\":{\"fieldPath\":\"metadata.name\"}}]}}]}},"
		"{\"name\":\"f\",\"emptyDir\":{\"sizeLimit\":1.5e9}},{\"name\":\"g\",\"rbd\":{\"image\":\"i\"}},"
		"{\"name\":\"h\",\"iscsi\":{\"iqn\":\"iqn.x\"}},{\"name\":\"i\",\"azureDisk\":{\"diskName\":\"d\"}},"
		"{\"name\":\"j\",\"scaleIO\":{\"system\":\"s\"}},{\"name\":\"k\",\"downwardAPI\":{}},"
		"{\"name\":\"l\",\"ephemeral\":{\"volumeClaimTemplate\":{\"spec\":{\"resources\":{\"requests\":{"
		"\"storage\":1073741824}}}}}},"
		"{\"name\":\"m\",\"hostPath\":null,\"foo\":{}},{\"name\":\"n\",\"nfs\":{\"server\":\"s\"}}"
		"]}}}}");
	expect_json(v, "spec.template.spec.volumes[0]", "{\"name\":\"a\",\"emptyDir\":{}}");
	expect_json(v, "spec.template.spec.volumes[1].secret", "{\"secretName\":\"s\",\"defaultMode\":420}");
	expect_json(v, "spec.template.spec.volumes[2].configMap", "{\"name\":\"c\",\"defaultMode\":256}");
	expect_json(v, "spec.template.spec.volumes[3].hostPath", "{\"path\":\"/var/log\",\"type\":\"\"}");
	expect_json(v, "spec.template.spec.volumes[4].projected",
		    "{\"defaultMode\":420,\"sources\":[{\"serviceAccountToken\":{\"path\":\"t\",\"expirationSeconds\":"
		    "3600}},"
		    "{\"downwardAPI\":{\"items\":[{\"path\":\"p\",\"fieldRef\":{\"fieldPath\":\"metadata.name\","
		    "\"apiVersion\":\"v1\"}}]}}]}");
	expect_json(v, "spec.template.spec.volumes[5].emptyDir.sizeLimit", "\"1500M\"");
	/* served as Go prints the structs (k8s.io/api core/v1 types.go): RBDVolumeSource's monitors, ISCSI's
	 * targetPortal and lun, AzureDisk's diskURI, ScaleIO's gateway and secretRef have no omitempty */
	expect_json(v, "spec.template.spec.volumes[6].rbd",
		    "{\"image\":\"i\",\"pool\":\"rbd\",\"user\":\"admin\",\"keyring\":\"/etc/ceph/keyring\","
		    "\"monitors\":null}");
	expect_json(v, "spec.template.spec.volumes[7].iscsi",
		    "{\"iqn\":\"iqn.x\",\"iscsiInterface\":\"default\",\"lun\":0,\"targetPortal\":\"\"}");
	expect_json(v, "spec.template.spec.volumes[8].azureDisk",
		    "{\"diskName\":\"d\",\"cachingMode\":\"ReadWrite\",\"fsType\":\"ext4\",\"readOnly\":false,\"kind\":"
		    "\"Shared\",\"diskURI\":\"\"}");
	expect_json(v, "spec.template.spec.volumes[9].scaleIO",
		    "{\"system\":\"s\",\"storageMode\":\"ThinProvisioned\",\"fsType\":\"xfs\",\"gateway\":\"\","
		    "\"secretRef\":null}");
	expect_json(v, "spec.template.spec.volumes[10].downwardAPI", "{\"defaultMode\":420}");
	/* the claim template's metadata is an ObjectMeta value: {} */
	expect_json(v, "spec.template.spec.volumes[11].ephemeral.volumeClaimTemplate",
		    "{\"metadata\":{},\"spec\":{\"volumeMode\":\"Filesystem\",\"resources\":{\"requests\":{\"storage\":"
		    "\"1073741824\"}}}}");
	/* a null source, or a member of another name, is no source (ptr.AllPtrFieldsNil); one is enough */
	expect_json(v, "spec.template.spec.volumes[12]", "{\"name\":\"m\",\"emptyDir\":{}}");
	ck_assert_ptr_null(at(v, "spec.template.spec.volumes[13].emptyDir"));
	ck_assert_ptr_nonnull(at(v, "spec.template.spec.volumes[13].nfs"));
	json_decref(v);
}
END_TEST

START_TEST(quantities_as_served)
{
	json_t *v = defaults_text(
		"spec:\n  template:\n    spec:\n      overhead: {cpu: 0.25}\n"
		"      containers:\n      - name: a\n        image: a\n"
		"        resources:\n          limits: {cpu: 2, memory: 1e3, ephemeral-storage: '1.5Gi'}\n"
		"          requests: {cpu: 100u, memory: '1000Mi', example.com/x: '0.0001'}\n");
	expect_json(v, "spec.template.spec.overhead", "{\"cpu\":\"250m\"}");
	expect_json(v, "spec.template.spec.containers[0].resources.limits",
		    "{\"cpu\":\"2\",\"memory\":\"1k\",\"ephemeral-storage\":\"1536Mi\"}");
	/* SetDefaults_ResourceList rounds up to milli precision */
	expect_json(v, "spec.template.spec.containers[0].resources.requests",
		    "{\"cpu\":\"1m\",\"memory\":\"1000Mi\",\"example.com/x\":\"1m\"}");
	json_decref(v);
}
END_TEST

/* Every Quantity field of the pod template is served in canonical form (Quantity.MarshalJSON), resource lists
 * after SetDefaults_ResourceList's rounding, the others as they are. */
START_TEST(quantity_fields_as_served)
{
	json_t *v = defaults_text(
		"spec:\n  template:\n    spec:\n"
		"      overhead: {cpu: '1000m', memory: 0.5Gi}\n"
		"      resources: {requests: {cpu: 0.15}}\n"
		"      initContainers:\n      - name: init\n        image: busybox\n"
		"        resources: {requests: {cpu: 0.15, memory: 1e3, example.com/s: '1e3', storage: 100Mi}}\n"
		"        env:\n        - {name: A, valueFrom: {resourceFieldRef: {resource: limits.cpu}}}\n"
		"        - {name: B, valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1024Ki}}}\n"
		"        - {name: C, valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: null}}}\n"
		"      containers:\n      - name: a\n        image: a\n"
		"        resources: {limits: {memory: '0.5Gi', cpu: 1e3}}\n"
		"      volumes:\n"
		"      - {name: e, emptyDir: {sizeLimit: 0.5Gi}}\n"
		"      - {name: s, emptyDir: {sizeLimit: 500u}}\n"
		"      - {name: d, downwardAPI: {items: [{path: p, resourceFieldRef: {resource: limits.cpu, divisor: "
		"0.001}}]}}\n"
		"      - {name: p, projected: {sources: [{downwardAPI: {items: [{path: p, resourceFieldRef: {resource: "
		"limits.memory}}]}}]}}\n");
	expect_json(v, "spec.template.spec.overhead", "{\"cpu\":\"1\",\"memory\":\"512Mi\"}");
	expect_json(v, "spec.template.spec.resources", "{\"requests\":{\"cpu\":\"150m\"}}");
	/* YAML reads 1e3 as a float, which reaches the API server as 1000: 1k; the string "1e3" is kept verbatim */
	expect_json(v, "spec.template.spec.initContainers[0].resources.requests",
		    "{\"cpu\":\"150m\",\"memory\":\"1k\",\"example.com/s\":\"1e3\",\"storage\":\"100Mi\"}");
	expect_json(v, "spec.template.spec.containers[0].resources.limits", "{\"memory\":\"512Mi\",\"cpu\":\"1k\"}");
	/* a divisor is a Quantity, not a pointer: absent or null is served as "0" */
	expect_json(v, "spec.template.spec.initContainers[0].env[0].valueFrom.resourceFieldRef",
		    "{\"resource\":\"limits.cpu\",\"divisor\":\"0\"}");
	expect_json(v, "spec.template.spec.initContainers[0].env[1].valueFrom.resourceFieldRef.divisor", "\"1Mi\"");
	expect_json(v, "spec.template.spec.initContainers[0].env[2].valueFrom.resourceFieldRef.divisor", "\"0\"");
	expect_json(v, "spec.template.spec.volumes[0].emptyDir.sizeLimit", "\"512Mi\"");
	/* sizeLimit is not a ResourceList: no rounding up to milli precision */
	expect_json(v, "spec.template.spec.volumes[1].emptyDir.sizeLimit", "\"500u\"");
	expect_json(v, "spec.template.spec.volumes[2].downwardAPI.items[0].resourceFieldRef.divisor", "\"1m\"");
	expect_json(v,
		    "spec.template.spec.volumes[3].projected.sources[0].downwardAPI.items[0].resourceFieldRef.divisor",
		    "\"0\"");
	json_decref(v);
}
END_TEST

START_TEST(image_pull_policy_by_tag)
{
	static const struct {
		const char *image, *tag; /* NULL: no tag (IfNotPresent) */
	} cases[] = {
		{"nginx", "latest"},
		{"nginx:latest", "latest"},
		{"nginx:1.25", "1.25"},
		{"library/nginx:alpine", "alpine"},
		{"localhost:5000/app", "latest"},
		{"registry.example.com:5000/team/app:v1", "v1"},
		{"Registry.Example.com/app", "latest"}, /* an uppercase domain is fine */
		{"[::1]:5000/app:dev", "dev"},
		{"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", NULL},
		{"nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "latest"},
		{"nginx@sha256:0123", NULL}, /* a short digest does not parse */
		{"Nginx", NULL},             /* repository names must be lowercase */
		{"nginx:", NULL},
		{"nginx:-x", NULL},
		{"my__app", "latest"},
		{"my___app", NULL},
		{"a--b/c.d", "latest"},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", NULL},
		{"", NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		const char *tag = dsi_image_tag(cases[i].image, strlen(cases[i].image), &len);
		if (!cases[i].tag) {
			ck_assert_msg(tag == NULL, "%s: tag %.*s, want none", cases[i].image, (int)len, tag ? tag : "");
			continue;
		}
		ck_assert_msg(tag && len == strlen(cases[i].tag) && memcmp(tag, cases[i].tag, len) == 0,
			      "%s: tag %.*s, want %s", cases[i].image, (int)len, tag ? tag : "(none)", cases[i].tag);
	}
	json_t *v = defaults_text(
		"{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"image\":\"app\"},{\"image\":\"app:v2\"},"
		"{\"image\":\"App\"},{\"image\":\"app:latest\",\"imagePullPolicy\":\"Never\"}]}}}}");
	expect_json(v, "spec.template.spec.containers[0].imagePullPolicy", "\"Always\"");
	expect_json(v, "spec.template.spec.containers[1].imagePullPolicy", "\"IfNotPresent\"");
	expect_json(v, "spec.template.spec.containers[2].imagePullPolicy", "\"IfNotPresent\"");
	expect_json(v, "spec.template.spec.containers[3].imagePullPolicy", "\"Never\"");
	json_decref(v);
}
END_TEST

static void expect_error(const char *text, int code, const char *path)
{
	char *out = (char *)1;
	ds_error err;
	int rc = ds_daemonset_defaults(text, strlen(text), NULL, &out, &err);
	ck_assert_msg(rc == code, "%s: rc %d (%s: %s), want %d", text, rc, err.path, err.message, code);
	ck_assert_ptr_null(out);
	ck_assert_error(err, code, path);
}

START_TEST(bad_input)
{
	expect_error("", DS_EMISSING, "");
	expect_error("{", DS_ESYNTAX, "");
	expect_error("[]", DS_ETYPE, "");
	expect_error("kind: Pod", DS_EUNSUPPORTED, "kind");
	expect_error("{\"spec\":[]}", DS_ETYPE, "spec");
	expect_error("{\"spec\":{\"updateStrategy\":{\"type\":7}}}", DS_ETYPE, "spec.updateStrategy.type");
	expect_error("{\"spec\":{\"revisionHistoryLimit\":\"10\"}}", DS_ETYPE, "spec.revisionHistoryLimit");
	expect_error("{\"spec\":{\"template\":{\"spec\":{\"containers\":{}}}}}", DS_ETYPE,
		     "spec.template.spec.containers");
	expect_error("{\"spec\":{\"template\":{\"spec\":{\"containers\":[7]}}}}", DS_ETYPE,
		     "spec.template.spec.containers[0]");
	expect_error("{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"image\":5}]}}}}", DS_ETYPE,
		     "spec.template.spec.containers[0].image");
	expect_error("{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"livenessProbe\":{\"timeoutSeconds\":\"1\"}}"
		     "]}}}}",
		     DS_ETYPE, "spec.template.spec.containers[0].livenessProbe.timeoutSeconds");
	expect_error("{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"resources\":{\"requests\":{\"cpu\":\"x\"}}}"
		     "]}}}}",
		     DS_EVALUE, "spec.template.spec.containers[0].resources.requests.cpu");
	expect_error("{\"spec\":{\"template\":{\"spec\":{\"volumes\":[{\"name\":\"v\",\"emptyDir\":{\"sizeLimit\":true}"
		     "}]}}}}",
		     DS_ETYPE, "spec.template.spec.volumes[0].emptyDir.sizeLimit");
	/* the API server refuses to decode any quantity that does not parse, divisors included */
	expect_error("{\"spec\":{\"template\":{\"spec\":{\"volumes\":[{\"name\":\"v\",\"emptyDir\":{\"sizeLimit\":"
		     "\"abc\"}}]}}}}",
		     DS_EVALUE, "spec.template.spec.volumes[0].emptyDir.sizeLimit");
	expect_error("{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"a\",\"env\":[{\"name\":\"A\","
		     "\"valueFrom\":"
		     "{\"resourceFieldRef\":{\"resource\":\"limits.cpu\",\"divisor\":\"abc\"}}}]}]}}}}",
		     DS_EVALUE, "spec.template.spec.containers[0].env[0].valueFrom.resourceFieldRef.divisor");
	expect_error(
		"{\"spec\":{\"template\":{\"spec\":{\"volumes\":[{\"name\":\"v\",\"projected\":{\"sources\":[{"
		"\"downwardAPI\":"
		"{\"items\":[{\"path\":\"p\",\"resourceFieldRef\":{\"resource\":\"limits.cpu\",\"divisor\":[]}}]}}]}}]}"
		"}}}",
		DS_ETYPE,
		"spec.template.spec.volumes[0].projected.sources[0].downwardAPI.items[0].resourceFieldRef.divisor");
	char *out = (char *)1;
	ck_assert_int_eq(ds_daemonset_defaults(NULL, 0, NULL, &out, NULL), DS_EARG);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(ds_daemonset_defaults("{}", 2, NULL, NULL, NULL), DS_EARG);
	/* the internal entry point refuses a non-object too */
	ds_error err;
	json_t *arr = json_array();
	ck_assert_int_eq(dsi_daemonset_set_defaults(arr, &err), DS_ETYPE);
	json_decref(arr);
}
END_TEST

/* Defaulting twice changes nothing more. */
START_TEST(idempotent)
{
	json_t *once = defaults_text(
		"spec:\n  template:\n    spec:\n      containers: [{name: a, image: a, resources: {limits: {cpu: 0.5}},"
		" env: [{name: e, valueFrom: {resourceFieldRef: {resource: limits.cpu}}}]}]\n"
		"      volumes: [{name: v}, {name: w, emptyDir: {sizeLimit: 1e3}}]\n");
	char *text = json_dumps(once, 0);
	json_t *twice = defaults_text(text);
	ck_assert(json_equal(once, twice));
	free(text);
	json_decref(once);
	json_decref(twice);
}
END_TEST

static Suite *defaults_suite(void)
{
	Suite *s = suite_create("defaults");
	TCase *tc = tcase_create("defaults");
	tcase_add_test(tc, upstream_table);
	tcase_add_test(tc, strategy_defaults);
	tcase_add_test(tc, pod_template_defaults);
	tcase_add_test(tc, volume_defaults);
	tcase_add_test(tc, quantities_as_served);
	tcase_add_test(tc, quantity_fields_as_served);
	tcase_add_test(tc, image_pull_policy_by_tag);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, idempotent);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(defaults_suite)
