/*
 * Manifests as users have them (loading a hand-written file, not a server's dump): kubectl's
 * namespace for objects that name none, the API server's defaults before anything hashes or copies
 * the template, and what a dump keeps as it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* A node-agent DaemonSet as published charts write it: no namespace, no uid, no defaults. */
static const char agent[] = "apiVersion: apps/v1\n"
			    "kind: DaemonSet\n"
			    "metadata:\n"
			    "  name: agent\n"
			    "spec:\n"
			    "  selector:\n"
			    "    matchLabels: {app: agent}\n"
			    "  template:\n"
			    "    metadata:\n"
			    "      labels: {app: agent}\n"
			    "    spec:\n"
			    "      containers:\n"
			    "      - name: agent\n"
			    "        image: example.com/agent:1.0\n"
			    "        resources:\n"
			    "          limits: {memory: 200Mi}\n"
			    "      volumes:\n"
			    "      - name: logs\n"
			    "        hostPath: {path: /var/log}\n"
			    "---\n"
			    "apiVersion: v1\n"
			    "kind: Node\n"
			    "metadata:\n"
			    "  name: n1\n"
			    "  labels:\n"
			    "    node-role.kubernetes.io/control-plane: \"\"\n"
			    "status:\n"
			    "  allocatable: {cpu: '4', memory: 8Gi, pods: '110'}\n";

static ds_cluster *load_with(const char *options_json, const char *text)
{
	ds_options *o = dsi_test_options(options_json);
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(o, &c, &err), 0);
	ck_assert_msg(ds_cluster_load(c, text, strlen(text), NULL, &err) == 0, "%s: %s", err.path, err.message);
	ds_options_free(o);
	return c;
}

static json_t *summary_ds(ds_cluster *c, size_t i)
{
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_cluster_summary(c, &out, &err), 0);
	json_t *s = dsi_test_take_json(out);
	json_t *d = json_incref(json_array_get(json_object_get(s, "daemonSets"), i));
	json_decref(s);
	ck_assert_ptr_nonnull(d);
	return d;
}

/* kubectl apply puts a namespaced object that names no namespace into "default" (or -n). */
START_TEST(manifest_gets_kubectls_namespace)
{
	ds_cluster *c = load_with(NULL, agent);
	json_t *d = summary_ds(c, 0);
	ck_assert_str_eq(json_string_value(json_object_get(d, "namespace")), "default");
	ck_assert(json_is_true(json_object_get(json_object_get(d, "fromManifest"), "namespaceDefaulted")));
	json_decref(d);
	int run = 0;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_should_run(c, "default", "agent", "n1", NULL, &run, NULL, NULL, &err), 0);
	ck_assert_int_eq(run, 1);
	char *out;
	ck_assert_int_eq(ds_daemonset_pod(c, "default", "agent", "n1", NULL, &out, &err), 0);
	json_t *pod = dsi_test_take_json(out);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(pod, "metadata"), "namespace")), "default");
	json_decref(pod);
	ds_cluster_free(c);
	/* like kubectl -n */
	c = load_with("{\"defaultNamespace\": \"agents\"}", agent);
	d = summary_ds(c, 0);
	ck_assert_str_eq(json_string_value(json_object_get(d, "namespace")), "agents");
	json_decref(d);
	ds_cluster_free(c);
	/* "" keeps the empty namespace */
	c = load_with("{\"defaultNamespace\": \"\"}", agent);
	d = summary_ds(c, 0);
	ck_assert_str_eq(json_string_value(json_object_get(d, "namespace")), "");
	ck_assert(json_is_false(json_object_get(json_object_get(d, "fromManifest"), "namespaceDefaulted")));
	json_decref(d);
	ds_cluster_free(c);
}
END_TEST

/* An object from a server (it has a uid) keeps what it says, even an empty namespace; so does a
 * watch event. Cluster-scoped kinds never get one. */
START_TEST(dump_keeps_its_own)
{
	static const char dump[] =
		"{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
		"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"x\",\"uid\":\"u-1\"},"
		"\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"template\":{\"metadata\":{\"labels\":{\"a\":"
		"\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}},"
		"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}]}";
	ds_cluster *c = load_with(NULL, dump);
	json_t *d = summary_ds(c, 0);
	ck_assert_str_eq(json_string_value(json_object_get(d, "namespace")), "");
	ck_assert_ptr_null(json_object_get(d, "fromManifest"));
	json_decref(d);
	char *out;
	ds_error err;
	/* the stored object is the dump's as the API server serves it: a hand-written dump lacking the
	 * defaults gets them, as the API server defaults what it decodes from storage; its namespace and
	 * uid are its own */
	ck_assert_int_eq(ds_cluster_get(c, "DaemonSet", "", "x", &out, &err), 0);
	json_t *obj = dsi_test_take_json(out);
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(json_object_get(obj, "spec"), "updateStrategy"), "type")),
			 "RollingUpdate");
	ck_assert_ptr_null(json_object_get(json_object_get(obj, "metadata"), "namespace"));
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(obj, "metadata"), "uid")), "u-1");
	json_decref(obj);
	/* a Node from a manifest is not put in a namespace */
	ck_assert_int_eq(ds_cluster_get(c, "Node", NULL, "n1", &out, &err), 0);
	ds_free(out);
	const char ev[] = "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":"
			  "{\"name\":\"p\"},\"spec\":{\"nodeName\":\"n1\"}}}";
	ck_assert_int_eq(ds_cluster_apply_events(c, ev, strlen(ev), NULL, &err), 0);
	ck_assert_int_eq(ds_cluster_get(c, "Pod", "", "p", &out, &err), 0);
	ds_free(out);
	ck_assert_int_eq(ds_cluster_get(c, "Pod", "default", "p", &out, &err), DS_ENOTFOUND);
	ds_cluster_free(c);
}
END_TEST

/* The controller hashes and copies the stored template, which the API server defaulted: a
 * manifest's hash and pods are those of the defaulted object, and equal what
 * ds_daemonset_defaults(3) makes of it. */
START_TEST(manifest_gets_the_api_servers_defaults)
{
	ds_cluster *c = load_with(NULL, agent);
	json_t *d = summary_ds(c, 0);
	ck_assert(json_is_true(json_object_get(json_object_get(d, "fromManifest"), "apiDefaults")));
	json_decref(d);
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_pod(c, "default", "agent", "n1", NULL, &out, &err), 0);
	json_t *pod = dsi_test_take_json(out), *spec = json_object_get(pod, "spec");
	ck_assert_str_eq(json_string_value(json_object_get(spec, "dnsPolicy")), "ClusterFirst");
	ck_assert_str_eq(json_string_value(json_object_get(spec, "restartPolicy")), "Always");
	ck_assert_str_eq(json_string_value(json_object_get(spec, "schedulerName")), "default-scheduler");
	ck_assert_int_eq(json_integer_value(json_object_get(spec, "terminationGracePeriodSeconds")), 30);
	json_t *c0 = json_array_get(json_object_get(spec, "containers"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(c0, "imagePullPolicy")), "IfNotPresent");
	ck_assert_str_eq(json_string_value(json_object_get(c0, "terminationMessagePath")), "/dev/termination-log");
	json_t *v0 = json_array_get(json_object_get(spec, "volumes"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(v0, "hostPath"), "type")), "");
	const char *hash = json_string_value(json_object_get(
		json_object_get(json_object_get(pod, "metadata"), "labels"), "controller-revision-hash"));
	ck_assert_ptr_nonnull(hash);
	/* the same hash as the defaulted template's */
	const char *ds_text = agent;
	const char *end = strstr(agent, "---\n");
	char *one = strndup(ds_text, (size_t)(end - ds_text));
	ck_assert_int_eq(ds_daemonset_defaults(one, strlen(one), NULL, &out, &err), 0);
	json_t *defaulted = dsi_test_take_json(out);
	char *tmpl = json_dumps(json_object_get(json_object_get(defaulted, "spec"), "template"), JSON_COMPACT);
	char want[32];
	ck_assert_int_eq(ds_template_hash(tmpl, strlen(tmpl), -1, want, sizeof(want), &err), 0);
	ck_assert_str_eq(hash, want);
	/* and not the raw template's */
	ck_assert_int_eq(ds_cluster_get(c, "DaemonSet", "default", "agent", &out, &err), 0);
	json_t *stored = dsi_test_take_json(out);
	ck_assert(json_equal(json_object_get(stored, "spec"), json_object_get(defaulted, "spec")));
	json_decref(stored);
	free(tmpl);
	free(one);
	json_decref(defaulted);
	ds_cluster_free(c);
	/* applyDefaults false: read as written (pod stays: hash points into it) */
	c = load_with("{\"applyDefaults\": false}", agent);
	ck_assert_int_eq(ds_daemonset_pod(c, "default", "agent", "n1", NULL, &out, &err), 0);
	json_t *raw = dsi_test_take_json(out);
	ck_assert_ptr_null(json_object_get(json_object_get(raw, "spec"), "dnsPolicy"));
	ck_assert_str_ne(json_string_value(json_object_get(json_object_get(json_object_get(raw, "metadata"), "labels"),
							   "controller-revision-hash")),
			 hash);
	json_decref(raw);
	json_decref(pod);
	ds_cluster_free(c);
}
END_TEST

/* A Pod from a manifest: its containers' limits become their requests (SetDefaults_Pod), which the
 * scheduler's view then counts. */
START_TEST(manifest_pod_requests_from_limits)
{
	static const char text[] = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
				   "status: {allocatable: {cpu: '1', memory: 1Gi, pods: '10'}}\n"
				   "---\n"
				   "apiVersion: v1\nkind: Pod\nmetadata: {name: big}\n"
				   "spec:\n  nodeName: n1\n  containers:\n  - name: c\n    image: i\n"
				   "    resources: {limits: {cpu: 800m}}\n";
	ds_cluster *c = load_with(NULL, text);
	const char pod[] = "{\"metadata\":{\"name\":\"new\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"
			   "{\"requests\":{\"cpu\":\"300m\"}}}]}}";
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_pod_fit(c, pod, strlen(pod), "n1", NULL, &out, &err), 0);
	json_t *fit = dsi_test_take_json(out);
	ck_assert(json_is_false(json_object_get(fit, "fits")));
	json_t *r = json_array_get(json_object_get(fit, "reasons"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(r, "message")), "Insufficient cpu");
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(r, "resource"), "used")), 800);
	json_decref(fit);
	ds_cluster_free(c);
}
END_TEST

/* A DaemonSet in the empty namespace rolls out even once the empty string is an atom (a label
 * value ""): the simulation looked pods up by a namespace atom the snapshot never gives "". */
START_TEST(rollout_in_the_empty_namespace_with_an_empty_label_value)
{
	ds_cluster *c = load_with("{\"defaultNamespace\": \"\"}", agent);
	char *out;
	ds_error err;
	ds_options *o = dsi_test_options("{\"simMaxTime\": \"10m\"}");
	ck_assert_int_eq(ds_daemonset_rollout(c, "", "agent", 1796137200000LL, o, &out, &err), 0);
	json_t *sim = dsi_test_take_json(out);
	ck_assert_str_eq(json_string_value(json_object_get(sim, "result")), "complete");
	ck_assert_int_eq(json_integer_value(json_object_get(sim, "creates")), 1);
	json_decref(sim);
	ds_options_free(o);
	ds_cluster_free(c);
}
END_TEST

/* Option values are checked where they are set. */
START_TEST(options_are_checked)
{
	ds_options *o = dsi_test_options(NULL);
	ds_error err;
	ck_assert_int_eq(ds_options_set(o, "defaultNamespace", "Not_A_Label", &err), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "defaultNamespace");
	ck_assert_int_eq(ds_options_set(o, "applyDefaults", "maybe", &err), DS_EVALUE);
	ck_assert_int_eq(ds_options_set(o, "revisionHash", "", &err), DS_EVALUE);
	ck_assert_int_eq(ds_options_set(o, "revisionHash", "not a label", &err), DS_EVALUE);
	ck_assert_int_eq(ds_options_set(o, "revisionHash", "6b8f9c7d5", &err), 0);
	ds_options_free(o);
}
END_TEST

/* revisionHash: the hash pods are labelled with when no ControllerRevision matches the template. */
START_TEST(revision_hash_option_labels_pods)
{
	ds_cluster *c = load_with(NULL, agent);
	ds_options *o = dsi_test_options("{\"revisionHash\": \"6b8f9c7d5\"}");
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_pod(c, "default", "agent", "n1", o, &out, &err), 0);
	json_t *pod = dsi_test_take_json(out);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(pod, "metadata"), "labels"),
							   "controller-revision-hash")),
			 "6b8f9c7d5");
	json_decref(pod);
	ds_plan *p;
	ck_assert_int_eq(ds_daemonset_plan(c, "default", "agent", 1796137200000LL, o, NULL, 0, &p, &err), 0);
	ck_assert_int_eq(ds_plan_to_json(p, &out, &err), 0);
	json_t *plan = dsi_test_take_json(out);
	ck_assert_str_eq(json_string_value(json_object_get(plan, "hash")), "6b8f9c7d5");
	/* the revision it would create carries the hash in its name and label */
	json_t *create = json_object_get(json_object_get(plan, "history"), "create");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(create, "metadata"), "name")),
			 "agent-6b8f9c7d5");
	json_decref(plan);
	ds_plan_free(p);
	ds_options_free(o);
	ds_cluster_free(c);
}
END_TEST

static json_t *plan_json(ds_cluster *c, const char *ns, const char *name)
{
	ds_plan *p;
	char *out;
	ds_error err;
	ds_options *o = dsi_test_options("{\"burstReplicas\": 1000}");
	ck_assert_msg(ds_daemonset_plan(c, ns, name, 1796137200000LL, o, NULL, 0, &p, &err) == 0, "%s", err.message);
	ck_assert_int_eq(ds_plan_to_json(p, &out, &err), 0);
	ds_plan_free(p);
	ds_options_free(o);
	return dsi_test_take_json(out);
}

/* kubectl set image, as the API server stores it: generation and template generation go up, the
 * pods of the old template become out of date, and nothing warns. */
START_TEST(set_image_updates_as_the_server_does)
{
	ds_cluster *c = dsi_test_load_sample();
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_set_image(c, "kube-system", "fluentd-logging", "fluentd", "fluent/fluentd:v1.18",
						NULL, &out, &err),
			 0);
	json_t *r = dsi_test_take_json(out);
	ck_assert(json_is_true(json_object_get(r, "valid")));
	ck_assert(json_is_true(json_object_get(r, "templateChanged")));
	ck_assert_int_eq(json_integer_value(json_object_get(r, "previousGeneration")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(r, "generation")), 3);
	json_decref(r);
	ck_assert_int_eq(ds_cluster_get(c, "DaemonSet", "kube-system", "fluentd-logging", &out, &err), 0);
	json_t *obj = dsi_test_take_json(out), *meta = json_object_get(obj, "metadata");
	ck_assert_int_eq(json_integer_value(json_object_get(meta, "generation")), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(meta, "annotations"),
							   "deprecated.daemonset.template.generation")),
			 "3");
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(obj, "status"), "observedGeneration")), 2);
	json_decref(obj);
	json_t *plan = plan_json(c, "kube-system", "fluentd-logging");
	ck_assert_ptr_null(json_object_get(plan, "warnings"));
	/* no pod runs the new template: the status counts none updated */
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(plan, "status"), "updatedNumberScheduled")),
			 0);
	json_decref(plan);
	/* the same image again: no change, generation stays */
	ck_assert_int_eq(ds_daemonset_set_image(c, "kube-system", "fluentd-logging", "*", "fluent/fluentd:v1.18", NULL,
						&out, &err),
			 0);
	r = dsi_test_take_json(out);
	ck_assert(json_is_false(json_object_get(r, "templateChanged")));
	ck_assert_int_eq(json_integer_value(json_object_get(r, "generation")), 3);
	json_decref(r);
	/* kubectl's words for a container that is not there */
	ck_assert_int_eq(ds_daemonset_set_image(c, "kube-system", "fluentd-logging", "nope", "x:1", NULL, &out, &err),
			 DS_ENOTFOUND);
	ck_assert_str_eq(err.message, "unable to find container named \"nope\"");
	ds_cluster_free(c);
}
END_TEST

/* A hand edit of a dump's template (generation untouched) is what the API server never stores: the
 * plan, the history and the rollout say so, and counting pods by their template generation goes
 * wrong, which the edit through ds_daemonset_update does not. */
START_TEST(template_edited_without_the_server_warns)
{
	ds_cluster *c = dsi_test_load_sample();
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_cluster_get(c, "DaemonSet", "kube-system", "fluentd-logging", &out, &err), 0);
	json_t *obj = dsi_test_take_json(out);
	json_t *c0 = json_array_get(
		json_object_get(json_object_get(json_object_get(json_object_get(obj, "spec"), "template"), "spec"),
				"containers"),
		0);
	json_object_set_new(c0, "image", json_string("fluent/fluentd:v1.18"));
	char *text = json_dumps(obj, JSON_COMPACT);
	ds_cluster *edited = dsi_test_load_sample();
	ck_assert_int_eq(ds_cluster_load(edited, text, strlen(text), NULL, &err), 0);
	json_t *plan = plan_json(edited, "kube-system", "fluentd-logging");
	json_t *w = json_object_get(plan, "warnings");
	ck_assert_uint_eq(json_array_size(w), 1);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(w, 0)), "changed without the API server"));
	/* pods labelled with the unchanged template generation pass for updated */
	json_int_t wrong =
		json_integer_value(json_object_get(json_object_get(plan, "status"), "updatedNumberScheduled"));
	ck_assert_int_gt(wrong, 0);
	json_decref(plan);
	ck_assert_int_eq(ds_daemonset_history(edited, "kube-system", "fluentd-logging", NULL, &out, &err), 0);
	json_t *h = dsi_test_take_json(out);
	ck_assert_uint_eq(json_array_size(json_object_get(h, "warnings")), 1);
	json_decref(h);
	ds_options *o = dsi_test_options("{\"simMaxTime\": \"5m\"}");
	ck_assert_int_eq(ds_daemonset_rollout(edited, "kube-system", "fluentd-logging", 1796137200000LL, o, &out, &err),
			 0);
	json_t *sim = dsi_test_take_json(out);
	ck_assert_uint_eq(json_array_size(json_object_get(sim, "warnings")), 1);
	json_decref(sim);
	/* the same edit through the API server's update path: the right count, no warning */
	ck_assert_int_eq(ds_daemonset_update(c, text, strlen(text), NULL, NULL, &err), 0);
	plan = plan_json(c, "kube-system", "fluentd-logging");
	ck_assert_ptr_null(json_object_get(plan, "warnings"));
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(plan, "status"), "updatedNumberScheduled")),
			 0);
	json_decref(plan);
	free(text);
	json_decref(obj);
	ds_options_free(o);
	ds_cluster_free(edited);
	ds_cluster_free(c);
}
END_TEST

/* An update the API server refuses leaves the snapshot as it was and says why, in its words. */
START_TEST(invalid_update_is_refused)
{
	ds_cluster *c = dsi_test_load_sample();
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_cluster_get(c, "DaemonSet", "kube-system", "fluentd-logging", &out, &err), 0);
	json_t *obj = dsi_test_take_json(out);
	json_object_set_new(json_object_get(obj, "spec"), "selector",
			    json_pack("{s:{s:s}}", "matchLabels", "name", "other"));
	char *text = json_dumps(obj, JSON_COMPACT);
	ck_assert_int_eq(ds_daemonset_update(c, text, strlen(text), NULL, &out, &err), DS_EINVALID);
	ck_assert_ptr_nonnull(strstr(err.message, "field is immutable"));
	json_t *r = dsi_test_take_json(out);
	ck_assert(json_is_false(json_object_get(r, "valid")));
	json_decref(r);
	ck_assert_int_eq(ds_cluster_get(c, "DaemonSet", "kube-system", "fluentd-logging", &out, &err), 0);
	json_t *still = dsi_test_take_json(out);
	ck_assert_str_eq(
		json_string_value(json_object_get(
			json_object_get(json_object_get(json_object_get(still, "spec"), "selector"), "matchLabels"),
			"name")),
		"fluentd");
	json_decref(still);
	free(text);
	/* not a DaemonSet of the snapshot; bad text */
	ck_assert_int_eq(ds_daemonset_update(c, "{\"metadata\":{\"name\":\"zz\"}}", 26, NULL, NULL, &err),
			 DS_ENOTFOUND);
	ck_assert_int_eq(ds_daemonset_update(c, "[1]", 3, NULL, NULL, &err), DS_ETYPE);
	ck_assert_int_eq(ds_daemonset_update(c, "{\"spec\":{}}", 11, NULL, NULL, &err), DS_EMISSING);
	ck_assert_int_eq(ds_daemonset_update(NULL, "{}", 2, NULL, NULL, &err), DS_EARG);
	json_decref(obj);
	ds_cluster_free(c);
}
END_TEST

/* The rollout simulation says what it assumes. */
START_TEST(rollout_states_its_assumptions)
{
	ds_cluster *c = dsi_test_load_sample();
	char *out;
	ds_error err;
	ds_options *o = dsi_test_options("{\"simReadyAfter\": \"20s\", \"simFailNodes\": \"worker-1,worker-2\"}");
	ck_assert_int_eq(ds_daemonset_rollout(c, "kube-system", "fluentd-logging", 1796137200000LL, o, &out, &err), 0);
	json_t *sim = dsi_test_take_json(out), *a = json_object_get(sim, "assumptions");
	ck_assert(json_real_value(json_object_get(a, "readyAfterSeconds")) == 20.0);
	ck_assert(json_real_value(json_object_get(a, "terminateAfterSeconds")) == 5.0);
	ck_assert_uint_eq(json_array_size(json_object_get(a, "failNodes")), 2);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(a, "failNodes"), 1)), "worker-2");
	ck_assert_ptr_nonnull(json_string_value(json_object_get(a, "scheduler")));
	json_decref(sim);
	ds_options_free(o);
	ds_cluster_free(c);
}
END_TEST

/* Validation of a stream: Helm's output with comment-only documents, a List, other kinds; the
 * documents numbered as the loader numbers them, errors placed at their field. */
START_TEST(validate_stream_numbers_documents_as_the_loader)
{
	static const char helm[] =
		"---\n# Source: agent/templates/serviceaccount.yaml\n" /* document 1 */
		"---\n# Source: agent/templates/daemonset.yaml\n"      /* document 2 */
		"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\n"
		"spec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n"
		"    spec:\n      containers: [{name: c, image: i}]\n"
		"---\napiVersion: v1\nkind: List\nitems:\n" /* document 3 */
		"- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm}}\n"
		"- apiVersion: apps/v1\n  kind: DaemonSet\n  metadata: {name: typo}\n"
		"  spec:\n    selector: {matchLabels: {a: b}}\n"
		"    template:\n      metadata: {labels: {a: b}}\n"
		"      spec:\n        hostNetwork: yes please\n        containers: [{name: c, image: i}]\n";
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_validate_stream(helm, strlen(helm), 0, NULL, &out, &err), 0);
	json_t *r = dsi_test_take_json(out), *docs = json_object_get(r, "documents");
	ck_assert(json_is_false(json_object_get(r, "valid")));
	ck_assert_int_eq(json_integer_value(json_object_get(r, "daemonSets")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(r, "skipped")), 1);
	ck_assert_uint_eq(json_array_size(docs), 3);
	json_t *d0 = json_array_get(docs, 0), *d1 = json_array_get(docs, 1), *d2 = json_array_get(docs, 2);
	ck_assert_int_eq(json_integer_value(json_object_get(d0, "document")), 2);
	ck_assert(json_is_true(json_object_get(d0, "valid")));
	/* its defaulted form comes along */
	json_t *dspec = json_object_get(json_object_get(d0, "defaulted"), "spec");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(dspec, "updateStrategy"), "type")),
			 "RollingUpdate");
	ck_assert_int_eq(json_integer_value(json_object_get(d1, "document")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(d1, "item")), 0);
	ck_assert(json_is_true(json_object_get(d1, "skipped")));
	ck_assert_int_eq(json_integer_value(json_object_get(d2, "item")), 1);
	json_t *e = json_object_get(d2, "error");
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "DS_ETYPE");
	ck_assert_str_eq(json_string_value(json_object_get(e, "path")), "spec.template.spec.hostNetwork");
	ck_assert_int_eq(json_integer_value(json_object_get(e, "line")), 27); /* the hostNetwork key */
	json_decref(r);
	/* loading the same text numbers the same document */
	ds_cluster *c;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	ck_assert_int_eq(ds_cluster_load(c, helm, strlen(helm), NULL, &err), DS_ETYPE);
	ck_assert_str_eq(err.source, "document 3");
	ck_assert_int_eq(err.line, 27);
	ds_cluster_free(c);
	/* text that is not YAML fails the call with its position */
	ck_assert_int_eq(ds_daemonset_validate_stream("a: [", 4, 0, NULL, &out, &err), DS_ESYNTAX);
	ck_assert_int_gt(err.line, 0);
	ck_assert_int_eq(ds_daemonset_validate_stream("x", 1, 8, NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_daemonset_validate_stream("x", 1, 0, NULL, NULL, &err), DS_EARG);
}
END_TEST

/* fieldValidation over a stream: each object is judged as a request with it as the body. Strict
 * turns an object with an unknown field into the API server's 400 (not validated, not defaulted),
 * other kinds included; Warn keeps the verdict and adds the warnings; Ignore says nothing. */
START_TEST(validate_stream_applies_field_validation)
{
	static const char text[] =
		"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: a}\n"
		"spec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n"
		"    spec:\n      containers: [{name: c, image: i, imagePullPolicy: Always, imagee: j}]\n"
		"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndataa: {}\n"
		"---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: b}\n"
		"spec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n"
		"    spec:\n      containers: [{name: c, image: i}]\n";
	static const char *const levels[] = {"Strict", "Warn", "Ignore"};
	for (size_t l = 0; l < 3; l++) {
		char opt[64], *out;
		ds_error err;
		snprintf(opt, sizeof(opt), "{\"fieldValidation\": \"%s\"}", levels[l]);
		ds_options *o = dsi_test_options(opt);
		ck_assert_int_eq(ds_daemonset_validate_stream(text, strlen(text), 0, o, &out, &err), 0);
		ds_options_free(o);
		json_t *r = dsi_test_take_json(out), *docs = json_object_get(r, "documents");
		json_t *a = json_array_get(docs, 0), *cm = json_array_get(docs, 1), *b = json_array_get(docs, 2);
		ck_assert_str_eq(json_string_value(json_object_get(r, "fieldValidation")), levels[l]);
		ck_assert(json_is_true(json_object_get(b, "valid")));
		ck_assert_ptr_null(json_object_get(b, "code"));
		if (l == 0) {
			ck_assert_int_eq(json_integer_value(json_object_get(r, "invalid")), 2);
			ck_assert(json_is_false(json_object_get(a, "valid")));
			ck_assert_int_eq(json_integer_value(json_object_get(a, "code")), 400);
			ck_assert_ptr_null(json_object_get(a, "defaulted"));
			ck_assert_str_eq(
				json_string_value(json_object_get(a, "message")),
				"DaemonSet in version \"v1\" cannot be handled as a DaemonSet: strict decoding error: "
				"unknown field \"spec.template.spec.containers[0].imagee\"");
			json_t *e = json_array_get(json_object_get(a, "errors"), 0);
			ck_assert_str_eq(json_string_value(json_object_get(e, "field")),
					 "spec.template.spec.containers[0].imagee");
			ck_assert_str_eq(json_string_value(json_object_get(e, "detail")), "did you mean \"image\"?");
			ck_assert_int_eq(json_integer_value(json_object_get(e, "line")), 9);
			ck_assert_int_eq(json_integer_value(json_object_get(cm, "code")), 400);
			ck_assert(json_is_true(json_object_get(cm, "skipped")));
		} else if (l == 1) {
			ck_assert_int_eq(json_integer_value(json_object_get(r, "invalid")), 0);
			ck_assert(json_is_true(json_object_get(a, "valid")));
			ck_assert_ptr_nonnull(json_object_get(a, "defaulted"));
			json_t *w = json_array_get(json_object_get(a, "warnings"), 0);
			ck_assert_str_eq(json_string_value(json_object_get(w, "message")),
					 "unknown field \"spec.template.spec.containers[0].imagee\"");
			ck_assert_str_eq(json_string_value(json_object_get(w, "reason")), "Warning");
			ck_assert_uint_eq(json_array_size(json_object_get(cm, "warnings")), 1);
			ck_assert_uint_eq(json_array_size(json_object_get(b, "warnings")), 0);
		} else {
			ck_assert_int_eq(json_integer_value(json_object_get(r, "invalid")), 0);
			ck_assert(json_is_true(json_object_get(a, "valid")));
			ck_assert_ptr_null(json_object_get(a, "warnings"));
			ck_assert_ptr_null(json_object_get(cm, "code"));
		}
		json_decref(r);
	}
}
END_TEST

/* Where a field of a result is in the file: documents counted as the loader counts them (the
 * comment-only one too), items of a List through items[i], an absent field at its parent. */
START_TEST(manifest_locate_finds_fields)
{
	static const char text[] = "---\n"                              /* document 1 */
				   "# Source: chart/templates/a.yaml\n" /* comments only, as Helm */
				   "---\n"                              /* document 2 */
				   "apiVersion: apps/v1\n"
				   "kind: DaemonSet\n"
				   "spec:\n"
				   "  template:\n"
				   "    spec:\n"
				   "      containers:\n"
				   "      - name: c\n"    /* line 10 */
				   "        image: i:1\n" /* line 11 */
				   "---\n"
				   "kind: List\n" /* document 3 */
				   "items:\n"
				   "- {kind: ConfigMap, data: {a: b}}\n" /* line 15 */
				   "- kind: Node\n"
				   "  metadata: {name: n1}\n"; /* line 17 */
	int line, column, exact;
	ds_error err;
	ck_assert_int_eq(ds_manifest_locate(text, strlen(text), 2, "spec.template.spec.containers[0].image", &line,
					    &column, &exact, &err),
			 0);
	ck_assert_int_eq(line, 11);
	ck_assert_int_eq(column, 9); /* the key */
	ck_assert_int_eq(exact, 1);
	/* absent: where its parent is */
	ck_assert_int_eq(ds_manifest_locate(text, strlen(text), 2, "spec.template.spec.containers[0].resources", &line,
					    &column, &exact, &err),
			 0);
	ck_assert_int_eq(line, 10);
	ck_assert_int_eq(exact, 0);
	ck_assert_int_eq(
		ds_manifest_locate(text, strlen(text), 3, "items[1].metadata.name", &line, &column, NULL, &err), 0);
	ck_assert_int_eq(line, 17);
	ck_assert_int_eq(ds_manifest_locate(text, strlen(text), 3, "items[0].data.a", &line, &column, NULL, &err), 0);
	ck_assert_int_eq(line, 15);
	ck_assert_int_eq(ds_manifest_locate(text, strlen(text), 4, "kind", &line, &column, NULL, &err), DS_ENOTFOUND);
	ck_assert_int_eq(ds_manifest_locate(text, strlen(text), 0, "kind", &line, &column, NULL, &err), DS_EARG);
	ck_assert_int_eq(ds_manifest_locate(text, strlen(text), 1, NULL, &line, &column, NULL, &err), DS_EARG);
	ck_assert_int_eq(ds_manifest_locate(NULL, 3, 1, "kind", &line, &column, NULL, &err), DS_EARG);
	/* JSON text is one document */
	static const char json[] = "{\"kind\": \"DaemonSet\",\n \"spec\": {\"minReadySeconds\": 5}}";
	ck_assert_int_eq(
		ds_manifest_locate(json, strlen(json), 1, "spec.minReadySeconds", &line, &column, &exact, &err), 0);
	ck_assert_int_eq(line, 2);
	ck_assert_int_eq(exact, 1);
}
END_TEST

static Suite *manifests_suite(void)
{
	Suite *s = suite_create("manifests");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, manifest_gets_kubectls_namespace);
	tcase_add_test(tc, dump_keeps_its_own);
	tcase_add_test(tc, manifest_gets_the_api_servers_defaults);
	tcase_add_test(tc, manifest_pod_requests_from_limits);
	tcase_add_test(tc, rollout_in_the_empty_namespace_with_an_empty_label_value);
	tcase_add_test(tc, options_are_checked);
	tcase_add_test(tc, revision_hash_option_labels_pods);
	tcase_add_test(tc, set_image_updates_as_the_server_does);
	tcase_add_test(tc, template_edited_without_the_server_warns);
	tcase_add_test(tc, invalid_update_is_refused);
	tcase_add_test(tc, rollout_states_its_assumptions);
	tcase_add_test(tc, validate_stream_numbers_documents_as_the_loader);
	tcase_add_test(tc, validate_stream_applies_field_validation);
	tcase_add_test(tc, manifest_locate_finds_fields);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(manifests_suite)
