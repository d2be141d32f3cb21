/*
 * Upstream's template hash (model/gohash.c, model/templatehash.c) against upstream itself: the vectors
 * in tests/vectors/templatehash/vectors.json were computed by tests/oracle/main.go, controller.ComputeHash
 * over the real k8s.io/api types of each release Debian's Go builds (1.25-1.29), after the API server's
 * decoding and the protobuf round trip (make oracle). Every case must hash exactly as upstream's for every
 * release it names. Then what the vectors imply, stated directly (spellings the API server stores alike
 * hash alike, what differs stays different), the releases without an oracle (1.30-1.36: their facts are
 * generated from the same sources, and differ from their neighbours' where the structs changed), and what
 * cannot be reproduced (a set timestamp, a value Go's decoder refuses), which is reported.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/canonical.h"
#include "core/alloc.h"
#include "harness.h"
#include "model/gohash.h"
#include "model/templatehash.h"

#define VECTORS "tests/vectors/templatehash/vectors.json"

static json_t *parse(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, 0, &e);
	ck_assert_msg(v != NULL, "bad test JSON %s: %s", text, e.text);
	return v;
}

static void hash_of(const char *text, int minor, int32_t cc, char out[DSI_HASH_MAX])
{
	json_t *t = parse(text);
	unsigned inexact = 99;
	ck_assert_int_eq(dsi_template_hash(t, minor, cc >= 0, cc, out, &inexact), 0);
	ck_assert_uint_eq(inexact, 0);
	json_decref(t);
}

START_TEST(vectors_match_upstream)
{
	json_t *doc = dsi_test_load_json(VECTORS);
	json_t *cases = json_object_get(doc, "cases"), *cs;
	ck_assert_msg(json_array_size(cases) >= 300, "expected a few hundred cases");
	json_t *releases = json_object_get(json_object_get(doc, "oracle"), "releases");
	ck_assert_int_ge(json_object_size(releases), 5);
	size_t i, checked = 0, failed = 0;
	json_array_foreach(cases, i, cs)
	{
		const char *name = json_string_value(json_object_get(cs, "name"));
		json_t *tmpl = json_object_get(cs, "template"), *cc = json_object_get(cs, "collisionCount");
		json_t *hashes = json_object_get(cs, "hash"), *want;
		const char *release;
		ck_assert_msg(json_object_size(hashes) == json_object_size(releases), "%s: a hash per release", name);
		json_object_foreach(hashes, release, want)
		{
			int minor = atoi(release + 2);
			char got[DSI_HASH_MAX];
			unsigned inexact = 0;
			ck_assert_int_eq(dsi_template_hash(tmpl, minor, json_is_integer(cc),
							   (int32_t)json_integer_value(cc), got, &inexact),
					 0);
			checked++;
			if (strcmp(got, json_string_value(want)) == 0 && !inexact)
				continue;
			if (failed++ < 5) {
				char *p = dsi_gohash_print(tmpl, minor, NULL);
				fprintf(stderr, "%s %s: got %s (inexact %u), upstream %s; our print begins %.300s\n",
					name, release, got, inexact, json_string_value(want), p ? p : "(no memory)");
				dsi_free(p);
			}
		}
	}
	printf("templatehash vectors: %zu cases, %zu hashes checked against upstream's ComputeHash, %zu differ\n",
	       json_array_size(cases), checked, failed);
	ck_assert_msg(failed == 0, "%zu of %zu hashes differ from upstream's", failed, checked);
	json_decref(doc);
}
END_TEST

/* go-spew's %#v, piece by piece (formatter.go: "(T)" before a value outside slices and maps, "<nil>",
 * "<*>" for a pointer inside a slice, map keys sorted), on the zero template of 1.25 and a small one */
START_TEST(print_shape)
{
	json_t *t = parse("{}");
	char *p = dsi_gohash_print(t, 25, NULL);
	ck_assert_ptr_nonnull(p);
	ck_assert_msg(strncmp(p,
			      "(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){Name:(string) GenerateName:(string) "
			      "Namespace:(string) SelfLink:(string) UID:(types.UID) ResourceVersion:(string) "
			      "Generation:(int64)0 CreationTimestamp:(v1.Time){Time:(time.Time){wall:(uint64)0 "
			      "ext:(int64)0 loc:(*time.Location)<nil>}} DeletionTimestamp:(*v1.Time)<nil> ",
			      300) == 0,
		      "%.300s", p);
	/* 1.25's PodSpec ends with HostUsers (added in 1.25) */
	ck_assert_msg(strstr(p, " OS:(*v1.PodOS)<nil> HostUsers:(*bool)<nil>}}") != NULL, "%s", p);
	dsi_free(p);
	json_decref(t);

	t = parse("{\"metadata\":{\"labels\":{\"b\":\"2\",\"a\":\"1\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
		  "\"securityContext\":{}}],\"nodeSelector\":{},\"dnsConfig\":{\"options\":[{\"name\":\"ndots\"}]}}}");
	p = dsi_gohash_print(t, 29, NULL);
	ck_assert_ptr_nonnull(p);
	ck_assert_msg(strstr(p, "Labels:(map[string]string)map[a:1 b:2] ") != NULL, "%s", p);
	ck_assert_msg(strstr(p, "Containers:([]v1.Container)[{Name:(string)c ") != NULL, "%s", p);
	ck_assert_msg(strstr(p, "SecurityContext:(*v1.SecurityContext){Capabilities:(*v1.Capabilities)<nil> ") != NULL,
		      "%s", p);
	ck_assert_msg(strstr(p, "NodeSelector:(map[string]string)<nil> ") != NULL, "an empty map is nil: %s", p);
	ck_assert_msg(strstr(p, "Options:([]v1.PodDNSConfigOption)[{Name:(string)ndots Value:(*string)<nil>}]") != NULL,
		      "%s", p);
	dsi_free(p);
	json_decref(t);
}
END_TEST

/* What the API server stores alike hashes alike; what it keeps apart stays apart. */
START_TEST(equivalence_classes)
{
	static const char *const same[][4] = {
		{"{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"100m\"}}}]}}",
		 "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"0.1\"}}}]}}",
		 "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":0.1}}}]}}", NULL},
		{"{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"1\"}}}]}}",
		 "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"1000m\"}}}]}}",
		 "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":1}}}]}}", NULL},
		{"{\"spec\":{\"containers\":[{\"name\":\"c\"}]}}",
		 "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{}}],\"tolerations\":[]}}",
		 "{\"metadata\":{\"labels\":{}},\"spec\":{\"containers\":[{\"name\":\"c\",\"env\":null}],"
		 "\"tolerations\":null}}",
		 "{\"metadata\":null,\"spec\":{\"containers\":[{\"name\":\"c\",\"args\":[]}],\"volumes\":[]}}"},
		{"{\"spec\":{\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"A\"}]}]}}",
		 "{\"spec\":{\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"A\",\"value\":\"\"}]}]}}",
		 "{\"spec\":{\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"A\",\"value\":null}]}]}}", NULL},
	};
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		char h0[DSI_HASH_MAX], h[DSI_HASH_MAX];
		hash_of(same[i][0], 29, -1, h0);
		for (size_t j = 1; j < 4 && same[i][j]; j++) {
			hash_of(same[i][j], 29, -1, h);
			ck_assert_msg(strcmp(h0, h) == 0, "class %zu: %s and %s hash %s and %s", i, same[i][0],
				      same[i][j], h0, h);
		}
	}
	/* kept apart: a pointer to an empty struct is not nil; an int port is not the string "80"; 1G and
	 * 1e9 are one value in two Formats (ParseQuantity keeps "1e9" as it is written) */
	static const char *const apart[][2] = {
		{"{\"spec\":{\"containers\":[{\"name\":\"c\"}]}}",
		 "{\"spec\":{\"containers\":[{\"name\":\"c\",\"securityContext\":{}}]}}"},
		{"{\"spec\":{\"containers\":[{\"name\":\"c\",\"livenessProbe\":{\"tcpSocket\":{\"port\":80}}}]}}",
		 "{\"spec\":{\"containers\":[{\"name\":\"c\",\"livenessProbe\":{\"tcpSocket\":{\"port\":\"80\"}}}]}}"},
		{"{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"memory\":\"1G\"}}}]}}",
		 "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"memory\":\"1e9\"}}}]}}"},
	};
	for (size_t i = 0; i < sizeof(apart) / sizeof(apart[0]); i++) {
		char a[DSI_HASH_MAX], b[DSI_HASH_MAX];
		hash_of(apart[i][0], 29, -1, a);
		hash_of(apart[i][1], 29, -1, b);
		ck_assert_msg(strcmp(a, b) != 0, "%s and %s both hash %s", apart[i][0], apart[i][1], a);
	}
}
END_TEST

/* ComputeHash appends the collision count when it is set: nil, 0 and 1 give three hashes. */
START_TEST(collision_count)
{
	char n[DSI_HASH_MAX], z[DSI_HASH_MAX], one[DSI_HASH_MAX];
	const char *t = "{\"spec\":{\"containers\":[{\"name\":\"c\"}]}}";
	hash_of(t, 35, -1, n);
	hash_of(t, 35, 0, z);
	hash_of(t, 35, 1, one);
	ck_assert_str_ne(n, z);
	ck_assert_str_ne(z, one);
	ck_assert_str_ne(n, one);
}
END_TEST

/* The releases after 1.29 have no oracle here: their facts come from the same generator, checked
 * equal to Go's reflect for 1.25-1.29. A release hashes apart from the one before only when a
 * type the template reaches changed (a new root in the shared type graph), and most releases changed
 * the PodSpec or the Container; releases outside the table take the nearest one. */
START_TEST(derived_releases)
{
	ck_assert_int_eq(dsi_gohash_min_minor(), 25);
	ck_assert_int_ge(dsi_gohash_max_minor(), 36);
	ck_assert_uint_eq(dsi_gotype_nroots, (size_t)(dsi_gohash_max_minor() - dsi_gohash_min_minor() + 1));
	const char *t = "{\"spec\":{\"containers\":[{\"name\":\"c\"}]}}";
	char prev[DSI_HASH_MAX], h[DSI_HASH_MAX], lo[DSI_HASH_MAX], hi[DSI_HASH_MAX];
	hash_of(t, 25, -1, prev);
	hash_of(t, 20, -1, lo);
	ck_assert_str_eq(lo, prev);
	int changed = 0;
	for (size_t i = 1; i < dsi_gotype_nroots; i++) {
		int m = dsi_gotype_roots[i].minor;
		ck_assert_int_eq(m, dsi_gotype_roots[i - 1].minor + 1);
		hash_of(t, m, -1, h);
		int new_types = dsi_gotype_roots[i].type != dsi_gotype_roots[i - 1].type;
		/* a change may sit behind a nil pointer, which prints no fields */
		ck_assert_msg(strcmp(h, prev) == 0 || new_types, "1.%d: hash %s, 1.%d: %s, same types", m, h, m - 1,
			      prev);
		changed += strcmp(h, prev) != 0;
		memcpy(prev, h, sizeof(h));
	}
	ck_assert_int_ge(changed, 6);
	hash_of(t, 99, -1, hi);
	ck_assert_str_eq(hi, prev);
}
END_TEST

/* What cannot be reproduced is said: a set timestamp (its zone is the controller's), a value Go's
 * decoder refuses (the canonical form refuses it first). */
START_TEST(inexact_reported)
{
	static const struct {
		const char *text;
		unsigned bit;
	} rows[] = {
		{"{\"metadata\":{\"creationTimestamp\":\"2024-01-01T00:00:00Z\"}}", DSI_GOHASH_TIME},
		{"{\"metadata\":{\"creationTimestamp\":null}}", 0},
		{"{\"spec\":{\"containers\":\"x\"}}", DSI_GOHASH_RANGE},
		{"{\"spec\":{\"hostNetwork\":\"yes\"}}", DSI_GOHASH_RANGE},
		{"{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"1x\"}}}]}}",
		 DSI_GOHASH_RANGE},
		{"{\"spec\":{\"priority\":1.5}}", DSI_GOHASH_RANGE},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_t *t = parse(rows[i].text);
		char h[DSI_HASH_MAX];
		unsigned inexact = 0;
		ck_assert_int_eq(dsi_template_hash(t, 29, 0, 0, h, &inexact), 0);
		ck_assert_msg(inexact == rows[i].bit, "%s: inexact %u, want %u", rows[i].text, inexact, rows[i].bit);
		ck_assert_int_eq((int)strlen(h) > 0, 1);
		json_decref(t);
	}
}
END_TEST

/* ds_template_hash(3) is ds_template_hash_opts(3) with the default kubernetesVersion; the option
 * selects the release's types; the text is hashed in its canonical form. */
START_TEST(public_api)
{
	const char *text = "spec:\n  containers:\n  - name: c\n    image: nginx\n";
	char a[16], b[16], c[16];
	ds_error err;
	ck_assert_int_eq(ds_template_hash(text, strlen(text), -1, a, sizeof(a), &err), 0);
	ds_options *o = dsi_test_options("{\"kubernetesVersion\":\"1.29\"}");
	ck_assert_int_eq(ds_template_hash_opts(text, strlen(text), -1, o, b, sizeof(b), &err), 0);
	ds_options_free(o);
	ck_assert_str_ne(a, b);
	/* the text's template in canonical form (the API server's defaults), hashed for 1.29 */
	json_t *raw = parse("{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"), *canon = NULL;
	ck_assert_int_eq(dsi_canonical_template(raw, DSI_CANON_SERVED, &canon, &err), 0);
	char want[DSI_HASH_MAX], raw_hash[DSI_HASH_MAX];
	ck_assert_int_eq(dsi_template_hash(canon, 29, 0, 0, want, NULL), 0);
	ck_assert_int_eq(dsi_template_hash(raw, 29, 0, 0, raw_hash, NULL), 0);
	ck_assert_str_eq(b, want);
	ck_assert_str_ne(raw_hash, want); /* the defaults are part of what the controller hashes */
	json_decref(raw);
	json_decref(canon);
	ck_assert_int_eq(ds_template_hash_opts(text, strlen(text), -1, NULL, c, sizeof(c), &err), 0);
	ck_assert_str_eq(a, c);
	ck_assert_int_eq(ds_template_hash_opts(text, strlen(text), -2, NULL, c, sizeof(c), &err), DS_EARG);
	ck_assert_int_eq(ds_template_hash_opts("[]", 2, -1, NULL, c, sizeof(c), &err), DS_ETYPE);
	ck_assert_int_eq(ds_template_hash_opts(text, strlen(text), -1, NULL, c, 4, &err), DS_EARG);
}
END_TEST

/* A dump without ControllerRevisions (kubectl get ds,pods): the DaemonSet as the API server serves it,
 * its pods labelled with the hash upstream's controller of 1.29 computed (the oracle's, from the
 * vectors), and pod-template-generation behind, so that only the hash says they are updated. With
 * kubernetesVersion 1.29 the history's hash is the pods' label and they are updated; with 1.27 (other
 * Go types, another hash) they are not. */
static json_t *vector_case(json_t *doc, const char *name)
{
	json_t *cs;
	size_t i;
	json_array_foreach(json_object_get(doc, "cases"), i,
			   cs) if (strcmp(json_string_value(json_object_get(cs, "name")), name) == 0) return cs;
	ck_abort_msg("no vector %s", name);
	return NULL;
}

static ds_cluster *dump_cluster(const char *version, const json_t *tmpl, const char *label)
{
	json_t *objs = json_array();
	json_array_append_new(objs,
			      json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:i, s:{s:s}}, s:{s:{s:{s:s}}, s:O}, s:{}}",
					"apiVersion", "apps/v1", "kind", "DaemonSet", "metadata", "name", "fluentd",
					"namespace", "kube-system", "uid", "ds-uid-1", "generation", 3, "annotations",
					"deprecated.daemonset.template.generation", "3", "spec", "selector",
					"matchLabels", "name", "fluentd", "template", tmpl, "status"));
	for (int i = 0; i < 2; i++) {
		char name[32], node[16];
		snprintf(name, sizeof(name), "fluentd-%c", 'a' + i);
		snprintf(node, sizeof(node), "n%d", i);
		json_array_append_new(
			objs, json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:{s:s, s:s, s:s}, s:[{s:s, s:s, s:s, s:s, "
					"s:b}]}, s:{s:s, "
					"s:[{s:s, s:s}]}, s:{s:s}}",
					"apiVersion", "v1", "kind", "Pod", "metadata", "name", name, "namespace",
					"kube-system", "uid", name, "labels", "name", "fluentd",
					"controller-revision-hash", label, "pod-template-generation", "1",
					"ownerReferences", "apiVersion", "apps/v1", "kind", "DaemonSet", "name",
					"fluentd", "uid", "ds-uid-1", "controller", 1, "spec", "nodeName", node,
					"containers", "name", "fluentd", "image", "x", "status", "phase", "Running"));
	}
	json_t *list = json_pack("{s:s, s:s, s:o}", "apiVersion", "v1", "kind", "List", "items", objs);
	char *text = json_dumps(list, JSON_COMPACT);
	json_decref(list);
	char opts_json[64];
	snprintf(opts_json, sizeof(opts_json), "{\"kubernetesVersion\":\"%s\"}", version);
	ds_options *o = dsi_test_options(opts_json);
	ds_cluster *c = NULL;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(o, &c, &err), 0);
	ck_assert_msg(ds_cluster_load(c, text, strlen(text), NULL, &err) == 0, "%s: %s", err.path, err.message);
	ds_options_free(o);
	free(text);
	return c;
}

START_TEST(dump_without_revisions)
{
	json_t *doc = dsi_test_load_json(VECTORS);
	json_t *cs = vector_case(doc, "served-fluentd");
	const char *h29 = json_string_value(json_object_get(json_object_get(cs, "hash"), "1.29"));
	const char *h27 = json_string_value(json_object_get(json_object_get(cs, "hash"), "1.27"));
	ck_assert_ptr_nonnull(h29);
	ck_assert_ptr_nonnull(h27);
	ck_assert_str_ne(h29, h27);
	static const char *const versions[] = {"1.29", "1.27"};
	for (int v = 0; v < 2; v++) {
		ds_cluster *c = dump_cluster(versions[v], json_object_get(cs, "template"), h29);
		ds_error err;
		char *out = NULL;
		ck_assert_int_eq(ds_daemonset_history(c, "kube-system", "fluentd", NULL, &out, &err), 0);
		json_t *h = dsi_test_take_json(out);
		ck_assert_str_eq(json_string_value(json_object_get(h, "hash")), v == 0 ? h29 : h27);
		ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(h, "podsByHash"), h29)), 2);
		json_decref(h);
		int updated = -1;
		ck_assert_int_eq(
			ds_daemonset_pod_updated(c, "kube-system", "fluentd", "fluentd-a", NULL, &updated, &err), 0);
		ck_assert_int_eq(updated, v == 0);
		ds_cluster_free(c);
	}
	json_decref(doc);
}
END_TEST

static Suite *gohash_suite(void)
{
	Suite *s = suite_create("gohash");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, vectors_match_upstream);
	tcase_add_test(tc, print_shape);
	tcase_add_test(tc, equivalence_classes);
	tcase_add_test(tc, collision_count);
	tcase_add_test(tc, derived_releases);
	tcase_add_test(tc, inexact_reported);
	tcase_add_test(tc, public_api);
	tcase_add_test(tc, dump_without_revisions);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(gohash_suite)
