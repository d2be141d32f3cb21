/* The public daemon calls (include/daemonset/daemon.h): the template hash, the pod for a node, revision history,
 * rollback and IsPodUpdated, on the sample cluster (examples/cluster) and on small hand-written snapshots. */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define NS "kube-system"
#define DS "fluentd-logging"
#define CURRENT "7c9d8b6f54" /* revision 2's controller-revision-hash label in the sample */
#define OLD "5b8f9c7d46"     /* revision 1's */

/* ---- helpers ------------------------------------------------------------------------------- */

/* The value at a dotted path such as "metadata.labels" or "spec.tolerations.3" (numbers index arrays). */
static json_t *at(json_t *v, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	char *save = NULL;
	for (char *p = strtok_r(buf, ".", &save); v && p; p = strtok_r(NULL, ".", &save))
		v = json_is_array(v) ? json_array_get(v, strtoul(p, NULL, 10)) : json_object_get(v, p);
	ck_assert_msg(v != NULL, "no value at %s", path);
	return v;
}

static const char *str_at(json_t *v, const char *path)
{
	json_t *s = at(v, path);
	ck_assert_msg(json_is_string(s), "%s is not a string", path);
	return json_string_value(s);
}

/* v equals the JSON text want (object key order does not matter). */
static void assert_json(json_t *v, const char *want, int line)
{
	json_error_t je;
	json_t *w = json_loads(want, JSON_DECODE_ANY, &je);
	ck_assert_msg(w != NULL, "line %d: bad expected JSON: %s", line, je.text);
	char *got = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	ck_assert_msg(json_equal(v, w), "line %d: got %s\nwant %s", line, got, want);
	free(got);
	json_decref(w);
}
#define ASSERT_JSON(v, want) assert_json((v), (want), __LINE__)

static void template_hash(const char *text, int32_t cc, char out[16])
{
	ds_error err;
	int rc = ds_template_hash(text, strlen(text), cc, out, 16, &err);
	ck_assert_msg(rc == 0, "ds_template_hash: %s: %s", ds_strerror(rc), err.message);
}

/* The "hash" of the plan of one sync, and the history's, for DaemonSet ns/name. */
static void plan_hash(const ds_cluster *c, const char *ns, const char *name, char *out, size_t size)
{
	ds_error err;
	ds_time now;
	ck_assert_int_eq(ds_time_parse("2026-12-02T00:00:00Z", &now, &err), 0);
	ds_plan *p = NULL;
	int rc = ds_plan_sync(c, ns, name, now, NULL, NULL, &p, &err);
	ck_assert_msg(rc == 0, "ds_plan_sync: %s: %s", ds_strerror(rc), err.message);
	char *text = NULL;
	ck_assert_int_eq(ds_plan_to_json(p, &text, &err), 0);
	ds_plan_free(p);
	json_t *plan = dsi_test_take_json(text);
	snprintf(out, size, "%s", str_at(plan, "hash"));
	json_decref(plan);

	ck_assert_int_eq(ds_daemon_history(c, ns, name, NULL, &text, &err), 0);
	json_t *h = dsi_test_take_json(text);
	ck_assert_str_eq(str_at(h, "hash"), out);
	json_decref(h);
}

/* ---- ds_template_hash -------------------------------------------------------------------------- */

#define TEMPLATE                                                                                                       \
	"{\"metadata\":{\"labels\":{\"app\":\"agent\"}},"                                                              \
	"\"spec\":{\"containers\":[{\"name\":\"agent\",\"image\":\"agent:1.0\"}]}}"

START_TEST(template_hash_collision_count)
{
	char unset[16], zero[16], one[16], again[16];
	template_hash(TEMPLATE, -1, unset);
	template_hash(TEMPLATE, 0, zero);
	template_hash(TEMPLATE, 1, one);
	/* collisionCount is hashed when set: nil, 0 and 1 are three different hashes */
	ck_assert_str_ne(unset, zero);
	ck_assert_str_ne(zero, one);
	ck_assert_str_ne(unset, one);
	/* deterministic */
	template_hash(TEMPLATE, -1, again);
	ck_assert_str_eq(again, unset);
	template_hash(TEMPLATE, 1, again);
	ck_assert_str_eq(again, one);
	/* upstream's alphabet (rand.SafeEncodeString), at most 10 characters for a 32-bit decimal */
	for (const char *p = unset; *p; p++)
		ck_assert_msg(strchr("bcdfghjklmnpqrstvwxz2456789", *p) != NULL, "'%c' outside the safe alphabet", *p);
	ck_assert_uint_ge(strlen(unset), 1);
	ck_assert_uint_le(strlen(unset), 10);
	/* the canonical form: YAML text, other key order and whitespace hash alike */
	template_hash(
		"spec:\n  containers:\n  - {image: 'agent:1.0', name: agent}\nmetadata:\n  labels: {app: agent}\n", -1,
		again);
	ck_assert_str_eq(again, unset);
	/* any change to the template changes the hash */
	template_hash("{\"metadata\":{\"labels\":{\"app\":\"agent\"}},"
		      "\"spec\":{\"containers\":[{\"name\":\"agent\",\"image\":\"agent:1.1\"}]}}",
		      -1, again);
	ck_assert_str_ne(again, unset);
}
END_TEST

/* The hash a plan (and the history) reports for a DaemonSet without ControllerRevisions is ds_template_hash of
 * its template with its status.collisionCount. */
START_TEST(template_hash_matches_plan)
{
	static const char *const status[] = {"", ",\"status\":{\"collisionCount\":0}",
					     ",\"status\":{\"collisionCount\":1}"};
	static const int32_t counts[] = {-1, 0, 1};
	char seen[3][16];
	for (int i = 0; i < 3; i++) {
		char text[2048];
		snprintf(text, sizeof(text),
			 "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
			 "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}},"
			 "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\","
			 "\"metadata\":{\"name\":\"agent\",\"namespace\":\"default\",\"uid\":\"u-1\"},"
			 "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"agent\"}},\"template\":" TEMPLATE "}%s}]}",
			 status[i]);
		ds_cluster *c = dsi_test_cluster_text(text);
		char from_plan[64], from_hash[16];
		plan_hash(c, "default", "agent", from_plan, sizeof(from_plan));
		template_hash(TEMPLATE, counts[i], from_hash);
		ck_assert_str_eq(from_plan, from_hash);
		/* and the pod for a node carries it */
		char *out = NULL;
		ds_error err;
		ck_assert_int_eq(ds_daemon_pod(c, "default", "agent", "n1", NULL, &out, &err), 0);
		json_t *pod = dsi_test_take_json(out);
		ck_assert_str_eq(str_at(pod, "metadata.labels.controller-revision-hash"), from_hash);
		json_decref(pod);
		snprintf(seen[i], sizeof(seen[i]), "%s", from_hash);
		ds_cluster_free(c);
	}
	ck_assert_str_ne(seen[0], seen[1]);
	ck_assert_str_ne(seen[1], seen[2]);
}
END_TEST

static void hash_error(const char *text, size_t size, int32_t cc, size_t out_size, int code, const char *message)
{
	char out[32];
	memset(out, 'x', sizeof(out));
	ds_error err;
	int rc = ds_template_hash(text, size, cc, out_size ? out : NULL, out_size, &err);
	ck_assert_msg(rc == code, "rc %d (%s), want %d", rc, err.message, code);
	ck_assert_int_eq(err.code, code);
	ck_assert_str_eq(err.message, message);
	ck_assert_int_eq(out[0], 'x'); /* nothing written */
}

START_TEST(template_hash_errors)
{
	hash_error(NULL, 0, -1, 16, DS_EARG, "template_text must not be NULL: expected a PodTemplateSpec");
	hash_error("{}", 2, -1, 0, DS_EARG, "out must not be NULL: expected a buffer of at least 16 bytes");
	hash_error("{}", 2, -1, 15, DS_EARG, "out_size is 15: expected at least 16 bytes");
	hash_error("{}", 2, -2, 16, DS_EARG, "collision_count is -2: expected -1 (not set) or a non-negative count");
	/* not an object: the message names what was there (it once said "null" for everything) */
	hash_error("[1,2]", 5, -1, 16, DS_ETYPE, "expected a PodTemplateSpec object, got array");
	hash_error("- a\n- b\n", 8, -1, 16, DS_ETYPE, "expected a PodTemplateSpec object, got array");
	hash_error("\"x\"", 3, -1, 16, DS_ETYPE, "expected a PodTemplateSpec object, got string");
	hash_error("5", 1, -1, 16, DS_ETYPE, "expected a PodTemplateSpec object, got number");
	hash_error("true", 4, -1, 16, DS_ETYPE, "expected a PodTemplateSpec object, got boolean");
	hash_error("", 0, -1, 16, DS_EMISSING, "the input holds no document");
	/* exactly 16 bytes is enough; a NULL err is allowed */
	char out[16];
	ck_assert_int_eq(ds_template_hash("{}", 2, -1, out, sizeof(out), NULL), 0);
	ck_assert_int_eq(ds_template_hash("[]", 2, -1, out, sizeof(out), NULL), DS_ETYPE);
	ck_assert_int_eq(ds_template_hash("{", 1, -1, out, sizeof(out), NULL), DS_ESYNTAX);
}
END_TEST

/* ---- ds_daemon_pod ----------------------------------------------------------------------------- */

START_TEST(daemon_pod_sample)
{
	ds_cluster *c = dsi_test_load_sample();
	char *out = NULL;
	ds_error err;
	int rc = ds_daemon_pod(c, NS, DS, "worker-4", NULL, &out, &err);
	ck_assert_msg(rc == 0, "%s", err.message);
	json_t *pod = dsi_test_take_json(out);
	ck_assert_str_eq(str_at(pod, "apiVersion"), "v1");
	ck_assert_str_eq(str_at(pod, "kind"), "Pod");
	ck_assert_str_eq(str_at(pod, "metadata.generateName"), DS "-");
	ck_assert_str_eq(str_at(pod, "metadata.namespace"), NS);
	ck_assert_ptr_null(json_object_get(at(pod, "metadata"), "name"));
	/* the template's labels, the current revision's hash label and the template generation */
	ASSERT_JSON(at(pod, "metadata.labels"), "{\"name\":\"fluentd\",\"controller-revision-hash\":\"" CURRENT
						"\",\"pod-template-generation\":\"2\"}");
	ASSERT_JSON(
		at(pod, "metadata.ownerReferences"),
		"[{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"name\":\"fluentd-logging\","
		"\"uid\":\"3f1a2b3c-0002-4000-8000-000000000001\",\"controller\":true,\"blockOwnerDeletion\":true}]");
	/* the default tolerations (AddOrUpdateDaemonPodTolerations), in order; not hostNetwork: no network-unavailable */
	ASSERT_JSON(
		at(pod, "spec.tolerations"),
		"[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"},"
		"{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"},"
		"{\"key\":\"node.kubernetes.io/disk-pressure\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"},"
		"{\"key\":\"node.kubernetes.io/memory-pressure\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"},"
		"{\"key\":\"node.kubernetes.io/pid-pressure\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"},"
		"{\"key\":\"node.kubernetes.io/unschedulable\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]");
	/* ReplaceDaemonSetPodNodeNameNodeAffinity: the matchFields pin, no nodeName */
	ASSERT_JSON(
		at(pod, "spec.affinity"),
		"{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":"
		"[{\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"worker-4\"]}]}]}}}");
	ck_assert_ptr_null(json_object_get(at(pod, "spec"), "nodeName"));
	/* the rest of the template is carried over */
	ck_assert_str_eq(str_at(pod, "spec.containers.0.image"), "fluent/fluentd:v1.17");
	ck_assert_int_eq(json_integer_value(at(pod, "spec.terminationGracePeriodSeconds")), 30);
	ck_assert_uint_eq(json_array_size(at(pod, "spec.volumes")), 2);
	json_decref(pod);

	/* the node need not be in the snapshot */
	ck_assert_int_eq(ds_daemon_pod(c, NS, DS, "not-a-node", NULL, &out, &err), 0);
	pod = dsi_test_take_json(out);
	ck_assert_str_eq(str_at(pod, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
				     "nodeSelectorTerms.0.matchFields.0.values.0"),
			 "not-a-node");
	json_decref(pod);

	/* errors */
	out = (char *)1;
	ck_assert_int_eq(ds_daemon_pod(c, NS, "nope", "worker-4", NULL, &out, &err), DS_ENOTFOUND);
	ck_assert_str_eq(err.message, "daemonsets.apps \"nope\" not found");
	ck_assert_ptr_null(out);
	ck_assert_int_eq(ds_daemon_pod(c, NS, DS, "", NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_daemon_pod(c, NS, DS, NULL, NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_daemon_pod(c, NS, DS, "worker-4", NULL, NULL, NULL), DS_EARG);
	ck_assert_int_eq(ds_daemon_pod(NULL, NS, DS, "worker-4", NULL, &out, &err), DS_EARG);
	ds_cluster_free(c);
}
END_TEST

/* A template whose quantities are numbers, non-canonical strings and canonical strings. */
#define QTEMPLATE                                                                                                      \
	"{\"metadata\":{\"labels\":{\"app\":\"q\"}},\"spec\":{"                                                        \
	"\"overhead\":{\"cpu\":0.25,\"memory\":\"0.5Gi\"},"                                                            \
	"\"resources\":{\"limits\":{\"cpu\":\"2000m\"}},"                                                              \
	"\"initContainers\":[{\"name\":\"init\",\"image\":\"busybox\",\"resources\":{\"requests\":{\"cpu\":\"1000m\"}" \
	"}}],"                                                                                                         \
	"\"containers\":[{\"name\":\"q\",\"image\":\"q:1\",\"resources\":{"                                            \
	"\"requests\":{\"cpu\":0.15,\"memory\":\"100Mi\",\"example.com/n\":1e3,\"example.com/s\":\"1e3\","             \
	"\"example.com/i\":5,\"ephemeral-storage\":\"0.5Gi\"},"                                                        \
	"\"limits\":{\"memory\":\"1024Mi\",\"example.com/z\":null}},"                                                  \
	"\"env\":[{\"name\":\"CPU\",\"valueFrom\":{\"resourceFieldRef\":{\"resource\":\"limits.cpu\"}}},"              \
	"{\"name\":\"MEM\",\"valueFrom\":{\"resourceFieldRef\":{\"resource\":\"limits.memory\",\"divisor\":"           \
	"\"1024Ki\"}}},"                                                                                               \
	"{\"name\":\"PLAIN\",\"value\":\"v\"}]}],"                                                                     \
	"\"ephemeralContainers\":[{\"name\":\"debug\",\"image\":\"busybox\",\"resources\":{\"limits\":{\"memory\":"    \
	"\"2048Mi\"}}}],"                                                                                              \
	"\"volumes\":[{\"name\":\"a\",\"emptyDir\":{\"sizeLimit\":\"0.5Gi\"}},{\"name\":\"b\",\"emptyDir\":{"          \
	"\"sizeLimit\":1e9}},"                                                                                         \
	"{\"name\":\"c\",\"emptyDir\":{\"sizeLimit\":\"0.25Gi\"}},{\"name\":\"d\",\"emptyDir\":{}},"                   \
	"{\"name\":\"e\",\"downwardAPI\":{\"items\":[{\"path\":\"cpu\",\"resourceFieldRef\":{\"containerName\":\"q\"," \
	"\"resource\":\"limits.cpu\",\"divisor\":0.001}},{\"path\":\"name\",\"fieldRef\":{\"fieldPath\":\"metadata."   \
	"name\"}}]}},"                                                                                                 \
	"{\"name\":\"f\",\"projected\":{\"sources\":[{\"downwardAPI\":{\"items\":[{\"path\":\"mem\","                  \
	"\"resourceFieldRef\":"                                                                                        \
	"{\"containerName\":\"q\",\"resource\":\"limits.memory\"}}]}}]}},"                                             \
	"{\"name\":\"g\",\"ephemeral\":{\"volumeClaimTemplate\":{\"spec\":{\"resources\":{\"requests\":"               \
	"{\"storage\":\"1024Mi\"},\"limits\":{\"storage\":1073741824}}}}}}]}}"

/* The pod spec carries every Quantity as the API server stores it: Quantity.String(). The DaemonSet was served
 * (it has a uid): its template has the API server's defaults. */
static void assert_canonical_quantities(json_t *pod)
{
	ASSERT_JSON(at(pod, "spec.overhead"), "{\"cpu\":\"250m\",\"memory\":\"512Mi\"}");
	ASSERT_JSON(at(pod, "spec.resources"), "{\"limits\":{\"cpu\":\"2\"}}");
	ASSERT_JSON(at(pod, "spec.initContainers.0.resources"), "{\"requests\":{\"cpu\":\"1\"}}");
	/* 0.15 -> 150m; "100Mi" and "1e3" (upstream keeps that text) unchanged; the number 1e3 reaches the API
	 * server as 1000 (YAML and kubectl decode it to a float64), so 1k */
	ASSERT_JSON(at(pod, "spec.containers.0.resources.requests"),
		    "{\"cpu\":\"150m\",\"memory\":\"100Mi\",\"example.com/n\":\"1k\",\"example.com/s\":\"1e3\","
		    "\"example.com/i\":\"5\",\"ephemeral-storage\":\"512Mi\"}");
	ASSERT_JSON(at(pod, "spec.containers.0.resources.limits"), "{\"memory\":\"1Gi\",\"example.com/z\":\"0\"}");
	/* a divisor is a Quantity, not a pointer: absent is served as "0" */
	ASSERT_JSON(at(pod, "spec.containers.0.env"), "[{\"name\":\"CPU\",\"valueFrom\":{\"resourceFieldRef\":{"
						      "\"resource\":\"limits.cpu\",\"divisor\":\"0\"}}},"
						      "{\"name\":\"MEM\",\"valueFrom\":{\"resourceFieldRef\":{"
						      "\"resource\":\"limits.memory\",\"divisor\":\"1Mi\"}}},"
						      "{\"name\":\"PLAIN\",\"value\":\"v\"}]");
	ASSERT_JSON(at(pod, "spec.ephemeralContainers.0.resources"), "{\"limits\":{\"memory\":\"2Gi\"}}");
	ASSERT_JSON(at(pod, "spec.volumes.0.emptyDir"), "{\"sizeLimit\":\"512Mi\"}");
	ASSERT_JSON(at(pod, "spec.volumes.1.emptyDir"), "{\"sizeLimit\":\"1G\"}");
	ASSERT_JSON(at(pod, "spec.volumes.2.emptyDir"), "{\"sizeLimit\":\"256Mi\"}");
	ASSERT_JSON(at(pod, "spec.volumes.3.emptyDir"), "{}");
	ASSERT_JSON(at(pod, "spec.volumes.4.downwardAPI.items"),
		    "[{\"path\":\"cpu\",\"resourceFieldRef\":{\"containerName\":\"q\",\"resource\":\"limits.cpu\","
		    "\"divisor\":\"1m\"}},"
		    "{\"path\":\"name\",\"fieldRef\":{\"apiVersion\":\"v1\",\"fieldPath\":\"metadata.name\"}}]");
	ASSERT_JSON(at(pod, "spec.volumes.5.projected.sources.0.downwardAPI.items.0.resourceFieldRef"),
		    "{\"containerName\":\"q\",\"resource\":\"limits.memory\",\"divisor\":\"0\"}");
	/* a number is DecimalSI: 2^30 has no power-of-1000 factor and stays digits */
	ASSERT_JSON(at(pod, "spec.volumes.6.ephemeral.volumeClaimTemplate.spec.resources"),
		    "{\"requests\":{\"storage\":\"1Gi\"},\"limits\":{\"storage\":\"1073741824\"}}");
}

START_TEST(daemon_pod_canonical_quantities)
{
	ds_cluster *c = dsi_test_cluster_text(
		"{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
		"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}},"
		"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\","
		"\"metadata\":{\"name\":\"q\",\"namespace\":\"default\",\"uid\":\"u-q\"},"
		"\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"q\"}},\"template\":" QTEMPLATE "}}]}");
	char *out = NULL;
	ds_error err;
	int rc = ds_daemon_pod(c, "default", "q", "n1", NULL, &out, &err);
	ck_assert_msg(rc == 0, "%s", err.message);
	json_t *pod = dsi_test_take_json(out);
	assert_canonical_quantities(pod);
	/* the hash is that of the template in canonical form, which ds_template_hash computes from the
	 * template's text (numbers and all): the pod and the plan agree */
	char want[16];
	template_hash(QTEMPLATE, -1, want);
	ck_assert_str_eq(str_at(pod, "metadata.labels.controller-revision-hash"), want);
	json_decref(pod);
	char from_plan[64];
	plan_hash(c, "default", "q", from_plan, sizeof(from_plan));
	ck_assert_str_eq(from_plan, want);

	/* the plan's create carries the same pod */
	ds_time now;
	ck_assert_int_eq(ds_time_parse("2026-12-02T00:00:00Z", &now, &err), 0);
	ds_plan *p = NULL;
	ck_assert_int_eq(ds_plan_sync(c, "default", "q", now, NULL, NULL, &p, &err), 0);
	ck_assert_uint_eq(ds_plan_create_count(p), 1);
	ck_assert_int_eq(ds_plan_create_pod(p, 0, &out, &err), 0);
	ds_plan_free(p);
	pod = dsi_test_take_json(out);
	assert_canonical_quantities(pod);
	json_decref(pod);
	ds_cluster_free(c);
}
END_TEST

/* ---- ds_daemon_history ------------------------------------------------------------------------- */

START_TEST(daemon_history_sample)
{
	ds_cluster *c = dsi_test_load_sample();
	char *out = NULL;
	ds_error err;
	ck_assert_int_eq(ds_daemon_history(c, NS, DS, NULL, &out, &err), 0);
	json_t *h = dsi_test_take_json(out);
	ck_assert_str_eq(str_at(h, "hash"), CURRENT);
	ASSERT_JSON(at(h, "current"), "{\"name\":\"fluentd-logging-" CURRENT "\",\"revision\":2,\"exists\":true}");
	ASSERT_JSON(at(h, "revisions"),
		    "[{\"revision\":1,\"name\":\"fluentd-logging-" OLD "\",\"hash\":\"" OLD "\",\"current\":false},"
		    "{\"revision\":2,\"name\":\"fluentd-logging-" CURRENT "\",\"hash\":\"" CURRENT
		    "\",\"current\":true}]");
	/* worker-1 and worker-3 run revision 2, worker-2 revision 1 */
	ASSERT_JSON(at(h, "podsByHash"), "{\"" OLD "\":1,\"" CURRENT "\":2}");
	ASSERT_JSON(at(h, "wouldDelete"), "[]");
	ASSERT_JSON(at(h, "duplicates"), "[]");
	ck_assert_int_eq(json_integer_value(at(h, "revisionHistoryLimit")), 10);
	json_decref(h);

	/* the sample's revisions carry the hash the plan reports */
	char from_plan[64];
	plan_hash(c, NS, DS, from_plan, sizeof(from_plan));
	ck_assert_str_eq(from_plan, CURRENT);

	out = (char *)1;
	ck_assert_int_eq(ds_daemon_history(c, NS, "nope", NULL, &out, &err), DS_ENOTFOUND);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(ds_daemon_history(c, NS, DS, NULL, NULL, &err), DS_EARG);
	ds_cluster_free(c);
}
END_TEST

/* ---- ds_daemon_rollback ------------------------------------------------------------------------ */

START_TEST(daemon_rollback_sample)
{
	ds_cluster *c = dsi_test_load_sample();
	char *out = (char *)1;
	ds_error err;
	/* kubectl's message for a revision that is not there */
	ck_assert_int_eq(ds_daemon_rollback(c, NS, DS, 9, NULL, &out, &err), DS_ENOTFOUND);
	ck_assert_str_eq(err.message, "unable to find specified revision 9 in history");
	ck_assert_ptr_null(out);

	/* to revision 1: the old image comes back */
	ck_assert_int_eq(ds_daemon_rollback(c, NS, DS, 1, NULL, &out, &err), 0);
	json_t *r = dsi_test_take_json(out);
	ck_assert_str_eq(str_at(r, "message"), "daemonset.apps/fluentd-logging rolled back");
	ck_assert_int_eq(json_integer_value(at(r, "toRevision")), 1);
	ck_assert(json_is_false(at(r, "skipped")));
	ck_assert_str_eq(str_at(r, "daemonSet.spec.template.spec.containers.0.image"), "fluent/fluentd:v1.16");
	ck_assert_str_eq(str_at(r, "patch.spec.template.spec.containers.0.image"), "fluent/fluentd:v1.16");
	ck_assert_str_eq(str_at(r, "patch.spec.template.$patch"), "replace");
	ck_assert_str_eq(str_at(r, "daemonSet.metadata.name"), DS);

	/* loaded back, the restored template matches revision 1's data: its hash is current again */
	ds_cluster *after = NULL;
	ck_assert_int_eq(ds_cluster_copy(c, &after, &err), 0);
	char *ds_text = json_dumps(at(r, "daemonSet"), JSON_COMPACT);
	size_t n = 0;
	ck_assert_int_eq(ds_cluster_load(after, ds_text, strlen(ds_text), &n, &err), 0);
	free(ds_text);
	ck_assert_int_eq(ds_daemon_history(after, NS, DS, NULL, &out, &err), 0);
	json_t *h = dsi_test_take_json(out);
	ck_assert_str_eq(str_at(h, "hash"), OLD);
	ck_assert_str_eq(str_at(h, "current.name"), "fluentd-logging-" OLD);
	json_decref(h);
	ds_cluster_free(after);
	json_decref(r);

	/* 0: the previous revision */
	ck_assert_int_eq(ds_daemon_rollback(c, NS, DS, 0, NULL, &out, &err), 0);
	r = dsi_test_take_json(out);
	ck_assert_int_eq(json_integer_value(at(r, "toRevision")), 1);
	ck_assert_str_eq(str_at(r, "daemonSet.spec.template.spec.containers.0.image"), "fluent/fluentd:v1.16");
	json_decref(r);

	/* the current revision: skipped */
	ck_assert_int_eq(ds_daemon_rollback(c, NS, DS, 2, NULL, &out, &err), 0);
	r = dsi_test_take_json(out);
	ck_assert_str_eq(
		str_at(r, "message"),
		"daemonset.apps/fluentd-logging skipped rollback (current template already matches revision 2)");
	ck_assert(json_is_true(at(r, "skipped")));
	ck_assert_str_eq(str_at(r, "daemonSet.spec.template.spec.containers.0.image"), "fluent/fluentd:v1.17");
	json_decref(r);

	ck_assert_int_eq(ds_daemon_rollback(c, NS, DS, -1, NULL, &out, &err), DS_ENOTFOUND);
	ck_assert_str_eq(err.message, "unable to find specified revision -1 in history");
	ck_assert_int_eq(ds_daemon_rollback(c, NS, "nope", 1, NULL, &out, &err), DS_ENOTFOUND);
	ck_assert_int_eq(ds_daemon_rollback(c, NS, DS, 1, NULL, NULL, &err), DS_EARG);
	ds_cluster_free(c);

	/* a DaemonSet with no revisions has nothing to roll back to */
	c = dsi_test_cluster_text("{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\","
				  "\"metadata\":{\"name\":\"agent\",\"namespace\":\"default\",\"uid\":\"u-1\"},"
				  "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"agent\"}},\"template\":" TEMPLATE
				  "}}");
	ck_assert_int_eq(ds_daemon_rollback(c, "default", "agent", 0, NULL, &out, &err), DS_ESTATE);
	ck_assert_str_eq(err.message, "no last revision to roll back to");
	ds_cluster_free(c);
}
END_TEST

/* ---- ds_daemon_pod_updated --------------------------------------------------------------------- */

static int updated(const ds_cluster *c, const char *pod)
{
	int u = -1;
	ds_error err;
	int rc = ds_daemon_pod_updated(c, NS, DS, pod, &u, &err);
	ck_assert_msg(rc == 0, "%s: %s", pod, err.message);
	ck_assert(u == 0 || u == 1);
	return u;
}

START_TEST(daemon_pod_updated_sample)
{
	ds_cluster *c = dsi_test_load_sample();
	ck_assert_int_eq(updated(c, "fluentd-logging-x7k2p"), 1);
	ck_assert_int_eq(updated(c, "fluentd-logging-q8m4n"), 0); /* worker-2 still runs revision 1 */
	ck_assert_int_eq(updated(c, "fluentd-logging-t5w9z"), 1);
	int u = -1;
	ds_error err;
	ck_assert_int_eq(ds_daemon_pod_updated(c, NS, DS, "nope", &u, &err), DS_ENOTFOUND);
	ck_assert_str_eq(err.message, "pods \"nope\" not found");
	ck_assert_int_eq(ds_daemon_pod_updated(c, NS, DS, NULL, &u, &err), DS_EARG);
	ck_assert_int_eq(ds_daemon_pod_updated(c, NS, DS, "fluentd-logging-x7k2p", NULL, &err), DS_EARG);
	ck_assert_int_eq(ds_daemon_pod_updated(c, NS, "nope", "fluentd-logging-x7k2p", &u, &err), DS_ENOTFOUND);

	/* IsPodUpdated also accepts the pod-template-generation label alone */
	ds_cluster *c2 = dsi_test_cluster_text(
		"{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
		"{\"apiVersion\":\"apps/"
		"v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"fluentd-logging\",\"namespace\":"
		"\"kube-system\",\"uid\":\"u-1\",\"annotations\":{\"deprecated.daemonset.template.generation\":\"3\"}},"
		"\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"agent\"}},\"template\":" TEMPLATE "}},"
		"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"by-generation\",\"namespace\":\"kube-"
		"system\","
		"\"labels\":{\"app\":\"agent\",\"controller-revision-hash\":\"other\",\"pod-template-generation\":"
		"\"3\"}},"
		"\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"agent\",\"image\":\"agent:1.0\"}]}},"
		"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"stale\",\"namespace\":\"kube-"
		"system\","
		"\"labels\":{\"app\":\"agent\",\"controller-revision-hash\":\"other\",\"pod-template-generation\":"
		"\"2\"}},"
		"\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"agent\",\"image\":\"agent:1.0\"}]}}]}");
	ck_assert_int_eq(updated(c2, "by-generation"), 1);
	ck_assert_int_eq(updated(c2, "stale"), 0);
	ds_cluster_free(c2);
	ds_cluster_free(c);
}
END_TEST

static Suite *daemon_suite(void)
{
	Suite *s = suite_create("daemon");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, template_hash_collision_count);
	tcase_add_test(tc, template_hash_matches_plan);
	tcase_add_test(tc, template_hash_errors);
	tcase_add_test(tc, daemon_pod_sample);
	tcase_add_test(tc, daemon_pod_canonical_quantities);
	tcase_add_test(tc, daemon_history_sample);
	tcase_add_test(tc, daemon_rollback_sample);
	tcase_add_test(tc, daemon_pod_updated_sample);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(daemon_suite)
