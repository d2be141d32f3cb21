/*
 * pkg/controller/daemon/util's tables, replayed: tests/vectors/upstream/daemonset_util.json.
 * IsPodUpdated (dsi_revision_key_init + dsi_pod_updated on a snapshot holding the
 * DaemonSet and the pod), CreatePodTemplate (the labels and tolerations of
 * dsi_new_pod's pod), ReplaceDaemonSetPodNodeNameNodeAffinity (dsi_pin_node_affinity)
 * and GetTargetNodeName (dsi_target_node_name).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/podupdated.h"
#include "daemon/newpod.h"
#include "harness.h"
#include "vectors.h"

/* Cases that fail because of a library bug, with the reason. */
static const vt_entry known[] = {
	{NULL, NULL},
};

/* A DaemonSet default/ds whose template generation annotation is gen and whose template is tmpl. */
static json_t *daemonset(json_int_t gen, const json_t *tmpl)
{
	char g[32];
	snprintf(g, sizeof(g), "%lld", (long long)gen);
	return json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:{s:s}}, s:{s:{s:{s:s}}, s:O}}", "apiVersion", "apps/v1",
			 "kind", "DaemonSet", "metadata", "name", "ds", "namespace", "default", "uid", "ds-uid",
			 "annotations", "deprecated.daemonset.template.generation", g, "spec", "selector",
			 "matchLabels", "app", "vt", "template", tmpl);
}

static char *is_pod_updated(const json_t *cs)
{
	const json_t *pod = json_object_get(cs, "pod");
	json_t *empty = json_object();
	json_t *ds = daemonset(json_integer_value(json_object_get(cs, "templateGeneration")), empty);
	json_decref(empty);
	json_t *objs = json_pack("[o, o]", ds, vt_with_meta(pod, "pod", "default", "pod-uid"));
	ds_cluster *c = vt_cluster(objs, NULL);
	json_decref(objs);
	const dsi_daemonset *d = dsi_cluster_daemonset(c, "default", "ds");
	ck_assert_ptr_nonnull(d);
	ck_assert(d->has_template_generation);
	const json_t *meta = json_object_get(pod, "metadata");
	const dsi_pod *p = dsi_cluster_pod(c, dsi_atom_lookup_cstr(&c->atoms, vt_str(meta, "namespace")),
					   dsi_atom_lookup_cstr(&c->atoms, vt_str(meta, "name")));
	ck_assert_ptr_nonnull(p);
	dsi_revision_key k;
	dsi_revision_key_init(c, d, vt_str(cs, "hash"), &k);
	int got = dsi_pod_updated(&k, p);
	int want = json_is_true(json_object_get(json_object_get(cs, "expect"), "updated"));
	ds_cluster_free(c);
	return got == want ? NULL : vt_fmt("updated = %d, upstream %d", got, want);
}

/* CreatePodTemplate as the pod the controller creates shows it: the template's
 * labels plus the generation and hash labels, and the default daemon tolerations. */
static char *create_pod_template(const json_t *cs)
{
	json_t *objs = json_pack("[o]", daemonset(json_integer_value(json_object_get(cs, "templateGeneration")),
						  json_object_get(cs, "template")));
	ds_cluster *c = vt_cluster(objs, NULL);
	json_decref(objs);
	const dsi_daemonset *d = dsi_cluster_daemonset(c, "default", "ds");
	ck_assert_ptr_nonnull(d);
	dsi_placement p;
	ck_assert_int_eq(dsi_placement_init(&p, c, d, dsi_core_options_default()), 0);
	ds_error err;
	json_t *pod = dsi_new_pod(&p, "node-1", vt_str(cs, "hash"), &err);
	dsi_placement_release(&p);
	char *bad = NULL;
	const json_t *expect = json_object_get(cs, "expect");
	if (!pod) {
		bad = vt_fmt("dsi_new_pod: %s: %s", err.path, err.message);
	} else {
		const json_t *labels = json_object_get(json_object_get(pod, "metadata"), "labels");
		const json_t *tols = json_object_get(json_object_get(pod, "spec"), "tolerations");
		if (!json_equal(labels, json_object_get(expect, "labels")) ||
		    !json_equal(tols, json_object_get(expect, "tolerations"))) {
			char *gl = vt_dump(labels), *gt = vt_dump(tols), *w = vt_dump(expect);
			bad = vt_fmt("labels %s, tolerations %s; upstream %s", gl, gt, w);
			free(gl);
			free(gt);
			free(w);
		}
	}
	json_decref(pod);
	ds_cluster_free(c);
	return bad;
}

static char *replace_node_affinity(const json_t *cs)
{
	json_t *spec = json_object();
	const json_t *aff = json_object_get(cs, "affinity");
	if (!json_is_null(aff)) /* null: a nil *Affinity, i.e. no member at all */
		json_object_set_new(spec, "affinity", json_deep_copy(aff));
	char *bad = NULL;
	if (dsi_pin_node_affinity(spec, vt_str(cs, "nodeName")) < 0) {
		bad = vt_fmt("dsi_pin_node_affinity failed");
	} else {
		const json_t *want = json_object_get(json_object_get(cs, "expect"), "affinity");
		const json_t *got = json_object_get(spec, "affinity");
		if (!json_equal(got, want) || json_object_size(spec) != 1) {
			char *g = vt_dump(spec), *w = vt_dump(want);
			bad = vt_fmt("spec %s, upstream affinity %s", g, w);
			free(g);
			free(w);
		}
	}
	json_decref(spec);
	return bad;
}

/* upstream asserts only that an error occurs; the library says -1 with no text */
static char *target_node_name(const json_t *cs)
{
	const json_t *expect = json_object_get(cs, "expect");
	const char *got = NULL;
	int rc = dsi_target_node_name(json_object_get(json_object_get(cs, "pod"), "spec"), &got);
	if (json_is_true(json_object_get(expect, "error")))
		return rc < 0 ? NULL : vt_fmt("node \"%s\", upstream an error", got);
	if (rc < 0)
		return vt_fmt("no node name, upstream \"%s\"", vt_str(expect, "nodeName"));
	return strcmp(got, vt_str(expect, "nodeName")) == 0
		       ? NULL
		       : vt_fmt("\"%s\", upstream \"%s\"", got, vt_str(expect, "nodeName"));
}

START_TEST(daemonset_util_json)
{
	json_t *doc = vt_load("daemonset_util.json");
	json_t *cs;
	size_t i;
	vt_run r;
	vt_begin(&r, "daemonset_util.json", known);
	json_array_foreach(vt_cases(doc), i, cs)
	{
		const char *name = vt_str(cs, "name"), *fn = vt_str(cs, "function");
		if (strcmp(fn, "IsPodUpdated") == 0)
			vt_record(&r, name, is_pod_updated(cs));
		else if (strcmp(fn, "CreatePodTemplate") == 0)
			vt_record(&r, name, create_pod_template(cs));
		else if (strcmp(fn, "ReplaceDaemonSetPodNodeNameNodeAffinity") == 0)
			vt_record(&r, name, replace_node_affinity(cs));
		else if (strcmp(fn, "GetTargetNodeName") == 0)
			vt_record(&r, name, target_node_name(cs));
		else
			ck_abort_msg("%s: unknown function %s", name, fn);
	}
	vt_end(&r);
	json_decref(doc);
}
END_TEST

/* The pinned pod of a hostNetwork template also tolerates network-unavailable
 * (AddOrUpdateDaemonPodTolerations), appended after the six of CreatePodTemplate[0]. */
START_TEST(host_network_adds_network_unavailable)
{
	json_t *doc = vt_load("daemonset_util.json");
	json_t *cs = NULL, *c;
	size_t i;
	json_array_foreach(vt_cases(doc), i, c)
	{
		if (strcmp(vt_str(c, "name"), "CreatePodTemplate[0]") == 0)
			cs = c;
	}
	ck_assert_ptr_nonnull(cs);
	json_t *row = json_deep_copy(cs);
	json_object_set_new(row, "template", json_pack("{s:{s:b}}", "spec", "hostNetwork", 1));
	json_array_append_new(json_object_get(json_object_get(row, "expect"), "tolerations"),
			      json_pack("{s:s, s:s, s:s}", "key", "node.kubernetes.io/network-unavailable", "operator",
					"Exists", "effect", "NoSchedule"));
	char *bad = create_pod_template(row);
	ck_assert_msg(bad == NULL, "%s", bad);
	json_decref(row);
	json_decref(doc);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vec_daemonutil");
	TCase *tc = tcase_create("vectors");
	tcase_add_test(tc, daemonset_util_json);
	tcase_add_test(tc, host_network_adds_network_unavailable);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
