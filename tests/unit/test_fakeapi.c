/*
 * The fake API server of tests/support against what kube-apiserver does, so that the
 * suites built on it (the upstream replays, the list-watch fault matrix) can trust it:
 * resourceVersions, generateName, preconditions, the status subresource, DaemonSet
 * defaulting and generations, graceful deletion and finalizers, garbage collection,
 * eviction, patches, selectors, pagination, watches (chunks, selectors, 410, bookmarks),
 * faults, the scheduler and the kubelet, and the controller driven through it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/fakehost.h"
#include "harness.h"

static const char ds_yaml[] =
	"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: default}\n"
	"spec:\n  selector: {matchLabels: {app: agent}}\n"
	"  template:\n    metadata: {labels: {app: agent}}\n"
	"    spec: {containers: [{name: a, image: 'agent:v1'}], terminationGracePeriodSeconds: 0}\n";

static const char nodes_yaml[] = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
				 "status: {allocatable: {cpu: '2', memory: 4Gi, pods: '110'}}\n---\n"
				 "apiVersion: v1\nkind: Node\nmetadata: {name: n2}\n"
				 "status: {allocatable: {cpu: '2', memory: 4Gi, pods: '110'}}\n";

static fake_api *new_fake(const fake_options *o, const char *yaml)
{
	fake_api *api = fake_new(o);
	ck_assert_ptr_nonnull(api);
	char why[256];
	if (yaml)
		ck_assert_msg(fake_load(api, yaml, strlen(yaml), why, sizeof(why)) == 0, "%s", why);
	return api;
}

/* The body of a call, parsed (new reference); the call's code must be want. */
static json_t *expect(int code, int want, char **out)
{
	ck_assert_msg(code == want, "code %d, want %d: %s", code, want, *out ? *out : "(no body)");
	json_t *v = *out ? json_loads(*out, 0, NULL) : NULL;
	free(*out);
	*out = NULL;
	return v;
}

static const char *str_at(const json_t *v, const char *a, const char *b)
{
	return json_string_value(json_object_get(json_object_get(v, a), b));
}

static json_t *read_events(fake_watch *w, size_t chunk)
{
	json_t *evs = json_array();
	char buf[8192], *all = NULL;
	size_t len = 0, n;
	while ((n = fake_watch_read(w, buf, chunk < sizeof(buf) ? chunk : sizeof(buf))) > 0) {
		all = realloc(all, len + n + 1);
		memcpy(all + len, buf, n);
		len += n;
	}
	for (size_t s = 0; s < len;) {
		char *nl = memchr(all + s, '\n', len - s);
		ck_assert_ptr_nonnull(nl);
		json_t *ev = json_loadb(all + s, (size_t)(nl - all) - s, 0, NULL);
		ck_assert_ptr_nonnull(ev);
		json_array_append_new(evs, ev);
		s = (size_t)(nl - all) + 1;
	}
	free(all);
	return evs;
}

START_TEST(test_resource_versions_and_generate_name)
{
	fake_api *api = new_fake(NULL, nodes_yaml);
	unsigned long long rv0 = fake_resource_version(api);
	char *out;
	json_t *pod = expect(
		fake_create(api, "pods", "default",
			    "{\"metadata\":{\"generateName\":\"agent-\"},\"spec\":{\"containers\":[{\"name\":\"a\","
			    "\"image\":\"x\"}]}}",
			    &out),
		201, &out);
	const char *name = str_at(pod, "metadata", "name");
	ck_assert_int_eq(strlen(name), strlen("agent-") + 5);
	ck_assert_int_eq(strncmp(name, "agent-", 6), 0);
	ck_assert_uint_eq(strspn(name + 6, "bcdfghjklmnpqrstvwxz2456789"), 5);
	ck_assert_uint_eq(strtoull(str_at(pod, "metadata", "resourceVersion"), NULL, 10), rv0 + 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(pod, "status"), "phase")), "Pending");
	ck_assert_ptr_nonnull(str_at(pod, "metadata", "uid"));
	/* the same name again: AlreadyExists */
	char body[300];
	snprintf(body, sizeof(body), "{\"metadata\":{\"name\":\"%s\"},\"spec\":{\"containers\":[{\"name\":\"a\"}]}}",
		 name);
	json_t *st = expect(fake_create(api, "pods", "default", body, &out), 409, &out);
	ck_assert_str_eq(json_string_value(json_object_get(st, "reason")), "AlreadyExists");
	char *st_text = json_dumps(st, 0);
	ck_assert_int_eq(fake_transport_result(409, st_text), DS_TRANSPORT_ALREADY_EXISTS);
	free(st_text);
	json_decref(st);
	/* a list carries the current resourceVersion; a create with one set is refused */
	json_t *list = expect(fake_list(api, "pods", NULL, NULL, &out), 200, &out);
	ck_assert_uint_eq(strtoull(str_at(list, "metadata", "resourceVersion"), NULL, 10), fake_resource_version(api));
	ck_assert_int_eq(json_array_size(json_object_get(list, "items")), 1);
	json_decref(list);
	st = expect(
		fake_create(api, "pods", "default",
			    "{\"metadata\":{\"name\":\"p\",\"resourceVersion\":\"5\"},\"spec\":{\"containers\":[{}]}}",
			    &out),
		500, &out);
	ck_assert_str_eq(json_string_value(json_object_get(st, "message")),
			 "resourceVersion should not be set on objects to be created");
	json_decref(st);
	json_decref(pod);
	fake_free(api);
}
END_TEST

START_TEST(test_preconditions_and_status_subresource)
{
	fake_api *api = new_fake(&(fake_options){.no_scheduler = 1}, ds_yaml);
	const json_t *ds = fake_object(api, "daemonsets", "default", "agent");
	ck_assert_ptr_nonnull(ds);
	char *out, body[4096];
	/* delete with the wrong uid: 409 with upstream's words */
	json_t *st = expect(
		fake_delete(api, "daemonsets", "default", "agent", "{\"preconditions\":{\"uid\":\"nope\"}}", &out), 409,
		&out);
	char want[300];
	snprintf(
		want, sizeof(want),
		"Operation cannot be fulfilled on daemonsets.apps \"agent\": Precondition failed: UID in precondition: "
		"nope, UID in object meta: %s",
		str_at(ds, "metadata", "uid"));
	ck_assert_str_eq(json_string_value(json_object_get(st, "message")), want);
	json_decref(st);
	/* the status subresource writes the status only; a stale resourceVersion conflicts */
	snprintf(body, sizeof(body),
		 "{\"metadata\":{\"name\":\"agent\",\"resourceVersion\":\"%s\"},\"spec\":{\"minReadySeconds\":9},"
		 "\"status\":{\"numberReady\":3}}",
		 str_at(ds, "metadata", "resourceVersion"));
	json_t *got = expect(fake_update(api, "daemonsets", "default", "agent", "status", body, &out), 200, &out);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(got, "status"), "numberReady")), 3);
	ck_assert_ptr_null(json_object_get(json_object_get(got, "spec"), "minReadySeconds"));
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(got, "metadata"), "generation")), 1);
	json_decref(got);
	st = expect(fake_update(api, "daemonsets", "default", "agent", "status", body, &out), 409, &out);
	ck_assert_str_eq(json_string_value(json_object_get(st, "reason")), "Conflict");
	json_decref(st);
	/* a PUT of the object keeps the status, bumps generation and the template generation */
	ds = fake_object(api, "daemonsets", "default", "agent");
	json_t *upd = json_deep_copy(ds);
	json_object_del(json_object_get(upd, "metadata"), "resourceVersion"); /* unconditional */
	json_object_set_new(json_object_get(upd, "status"), "numberReady", json_integer(0));
	json_t *c0 = json_array_get(
		json_object_get(json_object_get(json_object_get(json_object_get(upd, "spec"), "template"), "spec"),
				"containers"),
		0);
	json_object_set_new(c0, "image", json_string("agent:v2"));
	char *text = json_dumps(upd, 0);
	got = expect(fake_update(api, "daemonsets", "default", "agent", NULL, text, &out), 200, &out);
	free(text);
	json_decref(upd);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(got, "status"), "numberReady")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(got, "metadata"), "generation")), 2);
	ck_assert_str_eq(
		json_string_value(json_object_get(json_object_get(json_object_get(got, "metadata"), "annotations"),
						  "deprecated.daemonset.template.generation")),
		"2");
	/* the same PUT again changes nothing: no new resourceVersion */
	unsigned long long rv = fake_resource_version(api);
	text = json_dumps(got, 0);
	json_decref(expect(fake_update(api, "daemonsets", "default", "agent", NULL, text, &out), 200, &out));
	free(text);
	ck_assert_uint_eq(fake_resource_version(api), rv);
	json_decref(got);
	/* an invalid DaemonSet: 422 with ValidateDaemonSet's message */
	st = expect(
		fake_create(api, "daemonsets", "default",
			    "{\"metadata\":{\"name\":\"bad\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},"
			    "\"template\":{\"metadata\":{\"labels\":{\"a\":\"c\"}},\"spec\":{\"containers\":[{\"name\":"
			    "\"c\",\"image\":\"i\"}]}}}}",
			    &out),
		422, &out);
	ck_assert_msg(strstr(json_string_value(json_object_get(st, "message")),
			     "DaemonSet.apps \"bad\" is invalid: spec.template.metadata.labels: Invalid value") != NULL,
		      "%s", json_string_value(json_object_get(st, "message")));
	json_decref(st);
	/* and the defaults of a created one */
	got = expect(
		fake_create(api, "daemonsets", "default",
			    "{\"metadata\":{\"name\":\"d\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},"
			    "\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":"
			    "\"c\",\"image\":\"i:1\"}]}}},\"status\":{\"numberReady\":7}}",
			    &out),
		201, &out);
	ck_assert_str_eq(str_at(json_object_get(got, "spec"), "updateStrategy", "type"), "RollingUpdate");
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(got, "spec"), "revisionHistoryLimit")), 10);
	ck_assert_int_eq(json_object_size(json_object_get(got, "status")), 0);
	json_decref(got);
	fake_free(api);
}
END_TEST

static void add_pod(fake_api *api, const char *name, const char *node, const char *extra)
{
	char body[1024], *out;
	snprintf(body, sizeof(body),
		 "{\"metadata\":{\"name\":\"%s\",\"labels\":{\"app\":\"web\"}%s},\"spec\":{\"nodeName\":\"%s\","
		 "\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}",
		 name, extra ? extra : "", node);
	json_decref(expect(fake_create(api, "pods", "default", body, &out), 201, &out));
}

START_TEST(test_graceful_deletion_and_finalizers)
{
	fake_api *api = new_fake(NULL, nodes_yaml);
	char *out;
	add_pod(api, "p1", "n1", NULL);
	add_pod(api, "p2", "n1", ",\"finalizers\":[\"test.k8s.io/f\"]");
	/* the pod's own grace period (30 s, the default): deleting until the kubelet ends it */
	json_t *p = expect(fake_delete(api, "pods", "default", "p1", NULL, &out), 200, &out);
	ck_assert_ptr_nonnull(str_at(p, "metadata", "deletionTimestamp"));
	ck_assert_int_eq(
		json_integer_value(json_object_get(json_object_get(p, "metadata"), "deletionGracePeriodSeconds")), 30);
	json_decref(p);
	ck_assert_ptr_nonnull(fake_next_due(api) > 0 ? fake_object(api, "pods", "default", "p1") : NULL);
	fake_advance(api, fake_now(api) + 29000);
	ck_assert_ptr_nonnull(fake_object(api, "pods", "default", "p1"));
	fake_advance(api, fake_now(api) + 1000);
	ck_assert_ptr_null(fake_object(api, "pods", "default", "p1"));
	/* gracePeriodSeconds 0 and a finalizer: it stays until the finalizer goes */
	json_decref(expect(fake_delete(api, "pods", "default", "p2", "{\"gracePeriodSeconds\":0}", &out), 200, &out));
	ck_assert_ptr_nonnull(fake_object(api, "pods", "default", "p2"));
	json_decref(expect(fake_patch(api, "pods", "default", "p2", NULL, "application/merge-patch+json",
				      "{\"metadata\":{\"finalizers\":null}}", &out),
			   200, &out));
	ck_assert_ptr_null(fake_object(api, "pods", "default", "p2"));
	/* a pod not yet bound goes at once */
	json_decref(expect(fake_create(api, "pods", "default",
				       "{\"metadata\":{\"name\":\"u\"},\"spec\":{\"containers\":[{\"name\":\"c\"}],"
				       "\"schedulerName\":\"other\"}}",
				       &out),
			   201, &out));
	json_decref(expect(fake_delete(api, "pods", "default", "u", NULL, &out), 200, &out));
	ck_assert_ptr_null(fake_object(api, "pods", "default", "u"));
	fake_free(api);
}
END_TEST

START_TEST(test_garbage_collection)
{
	fake_api *api = new_fake(NULL, nodes_yaml);
	char *out, extra[300];
	json_t *owner =
		expect(fake_create(api, "daemonsets", "default",
				   "{\"metadata\":{\"name\":\"o\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":"
				   "\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{"
				   "\"containers\":[{\"name\":\"c\",\"image\":\"i:1\"}]}}}}",
				   &out),
		       201, &out);
	snprintf(extra, sizeof(extra),
		 ",\"ownerReferences\":[{\"apiVersion\":\"apps/"
		 "v1\",\"kind\":\"DaemonSet\",\"name\":\"o\",\"uid\":\"%s\","
		 "\"controller\":true}]",
		 str_at(owner, "metadata", "uid"));
	add_pod(api, "a", "n1", extra);
	add_pod(api, "b", "n2", extra);
	/* orphaning: the pods stay, without the reference */
	json_decref(expect(fake_delete(api, "daemonsets", "default", "o", "{\"propagationPolicy\":\"Orphan\"}", &out),
			   200, &out));
	fake_advance(api, fake_now(api) + 1);
	ck_assert_ptr_null(fake_object(api, "daemonsets", "default", "o"));
	ck_assert_ptr_null(json_object_get(json_object_get(fake_object(api, "pods", "default", "a"), "metadata"),
					   "ownerReferences"));
	json_decref(owner);
	/* background: the owner goes, then its dependents */
	owner = expect(
		fake_create(api, "daemonsets", "default",
			    "{\"metadata\":{\"name\":\"o2\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"x\"}},"
			    "\"template\":{\"metadata\":{\"labels\":{\"app\":\"x\"}},\"spec\":{\"containers\":[{"
			    "\"name\":\"c\",\"image\":\"i:1\"}],\"terminationGracePeriodSeconds\":0}}}}",
			    &out),
		201, &out);
	snprintf(extra, sizeof(extra),
		 ",\"ownerReferences\":[{\"apiVersion\":\"apps/"
		 "v1\",\"kind\":\"DaemonSet\",\"name\":\"o2\",\"uid\":\"%s\","
		 "\"controller\":true}]",
		 str_at(owner, "metadata", "uid"));
	add_pod(api, "c", "n1", extra);
	json_decref(expect(fake_delete(api, "daemonsets", "default", "o2", NULL, &out), 200, &out));
	ck_assert_ptr_null(fake_object(api, "daemonsets", "default", "o2"));
	ck_assert_ptr_nonnull(fake_object(api, "pods", "default", "c"));
	fake_advance(api, fake_now(api) + 1);
	const json_t *c = fake_object(api, "pods", "default", "c");
	ck_assert_msg(!c || str_at(c, "metadata", "deletionTimestamp"), "the dependent is not being deleted");
	fake_advance(api, fake_now(api) + 31000);
	ck_assert_ptr_null(fake_object(api, "pods", "default", "c"));
	json_decref(owner);
	/* PodGC: a pod on a node that is gone */
	json_decref(expect(fake_delete(api, "nodes", NULL, "n2", NULL, &out), 200, &out));
	fake_advance(api, fake_now(api) + 1);
	ck_assert_ptr_null(fake_object(api, "pods", "default", "b"));
	fake_free(api);
}
END_TEST

START_TEST(test_patches)
{
	fake_api *api = new_fake(&(fake_options){.no_scheduler = 1}, ds_yaml);
	char *out;
	/* strategic merge: containers by name, env by name; the rest stays */
	json_t *got = expect(
		fake_patch(api, "daemonsets", "default", "agent", NULL, "application/strategic-merge-patch+json",
			   "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"a\",\"env\":[{\"name\":"
			   "\"VERSION\",\"value\":\"2\"}]},{\"name\":\"b\",\"image\":\"side:1\"}]}}}}",
			   &out),
		200, &out);
	json_t *cs = json_object_get(json_object_get(json_object_get(json_object_get(got, "spec"), "template"), "spec"),
				     "containers");
	ck_assert_int_eq(json_array_size(cs), 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(cs, 0), "image")), "agent:v1");
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_array_get(json_object_get(json_array_get(cs, 0), "env"), 0), "value")),
			 "2");
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(got, "metadata"), "generation")), 2);
	json_decref(got);
	/* $patch: replace on the template (kubectl rollout undo), $setElementOrder, item deletion */
	got = expect(
		fake_patch(
			api, "daemonsets", "default", "agent", NULL, "application/strategic-merge-patch+json",
			"{\"spec\":{\"template\":{\"$patch\":\"replace\",\"metadata\":{\"labels\":{\"app\":\"agent\"}},"
			"\"spec\":{\"containers\":[{\"name\":\"z\",\"image\":\"z:1\"},{\"name\":\"a\",\"image\":"
			"\"agent:v0\"}]}}}}",
			&out),
		200, &out);
	cs = json_object_get(json_object_get(json_object_get(json_object_get(got, "spec"), "template"), "spec"),
			     "containers");
	ck_assert_int_eq(json_array_size(cs), 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(cs, 0), "name")), "z");
	json_decref(got);
	got = expect(fake_patch(api, "daemonsets", "default", "agent", NULL, "application/strategic-merge-patch+json",
				"{\"spec\":{\"template\":{\"spec\":{\"$setElementOrder/containers\":[{\"name\":\"a\"},{"
				"\"name\":\"z\"}],\"containers\":[{\"name\":\"z\",\"$patch\":\"delete\"}]}}}}",
				&out),
		     200, &out);
	cs = json_object_get(json_object_get(json_object_get(json_object_get(got, "spec"), "template"), "spec"),
			     "containers");
	ck_assert_int_eq(json_array_size(cs), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(cs, 0), "name")), "a");
	json_decref(got);
	/* JSON patch, with a failing test operation */
	got = expect(
		fake_patch(
			api, "daemonsets", "default", "agent", NULL, "application/json-patch+json",
			"[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"x\":\"1\"}},{\"op\":\"replace\","
			"\"path\":\"/spec/minReadySeconds\",\"value\":5}]",
			&out),
		422, &out);
	json_decref(got); /* minReadySeconds is absent: replace fails */
	got = expect(
		fake_patch(api, "daemonsets", "default", "agent", NULL, "application/json-patch+json",
			   "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"x\":\"1\"}},{\"op\":\"add\","
			   "\"path\":\"/spec/minReadySeconds\",\"value\":5}]",
			   &out),
		200, &out);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(got, "spec"), "minReadySeconds")), 5);
	json_decref(got);
	/* a patch naming another uid is a failed precondition; an unknown patch type a 415 */
	json_decref(expect(fake_patch(api, "daemonsets", "default", "agent", NULL, "application/merge-patch+json",
				      "{\"metadata\":{\"uid\":\"other\"}}", &out),
			   409, &out));
	json_decref(
		expect(fake_patch(api, "daemonsets", "default", "agent", NULL, "text/plain", "{}", &out), 415, &out));
	fake_free(api);
}
END_TEST

START_TEST(test_selectors_and_pages)
{
	fake_api *api = new_fake(NULL, nodes_yaml);
	char *out;
	for (int i = 0; i < 5; i++) {
		char name[16];
		snprintf(name, sizeof(name), "p%d", i);
		add_pod(api, name, i % 2 ? "n2" : "n1", NULL);
	}
	json_t *l = expect(
		fake_list(api, "pods", NULL, &(fake_list_opts){"app in (web,x)", "spec.nodeName=n2", 0, NULL}, &out),
		200, &out);
	ck_assert_int_eq(json_array_size(json_object_get(l, "items")), 2);
	json_decref(l);
	json_decref(
		expect(fake_list(api, "pods", NULL, &(fake_list_opts){"app in (", NULL, 0, NULL}, &out), 400, &out));
	/* pages of two from one snapshot, even when the store changes between them */
	l = expect(fake_list(api, "pods", "default", &(fake_list_opts){NULL, NULL, 2, NULL}, &out), 200, &out);
	ck_assert_int_eq(json_array_size(json_object_get(l, "items")), 2);
	char token[128];
	snprintf(token, sizeof(token), "%s", str_at(l, "metadata", "continue"));
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(l, "metadata"), "remainingItemCount")), 3);
	json_decref(l);
	json_decref(expect(fake_delete(api, "pods", "default", "p4", "{\"gracePeriodSeconds\":0}", &out), 200, &out));
	l = expect(fake_list(api, "pods", "default", &(fake_list_opts){NULL, NULL, 2, token}, &out), 200, &out);
	ck_assert_str_eq(str_at(json_array_get(json_object_get(l, "items"), 0), "metadata", "name"), "p2");
	snprintf(token, sizeof(token), "%s", str_at(l, "metadata", "continue"));
	json_decref(l);
	l = expect(fake_list(api, "pods", "default", &(fake_list_opts){NULL, NULL, 2, token}, &out), 200, &out);
	ck_assert_int_eq(json_array_size(json_object_get(l, "items")), 1); /* p4, as it was */
	ck_assert_ptr_null(str_at(l, "metadata", "continue"));
	json_decref(l);
	/* a compacted snapshot: 410 */
	l = expect(fake_list(api, "pods", "default", &(fake_list_opts){NULL, NULL, 1, NULL}, &out), 200, &out);
	snprintf(token, sizeof(token), "%s", str_at(l, "metadata", "continue"));
	json_decref(l);
	fake_compact(api);
	json_decref(
		expect(fake_list(api, "pods", "default", &(fake_list_opts){NULL, NULL, 1, token}, &out), 410, &out));
	fake_free(api);
}
END_TEST

START_TEST(test_watch_chunks_selectors_and_expiry)
{
	fake_api *api = new_fake(&(fake_options){.watch_window = 8, .no_scheduler = 1}, nodes_yaml);
	char rv[32], *out;
	snprintf(rv, sizeof(rv), "%llu", fake_resource_version(api));
	fake_watch *all = fake_watch_open(api, "pods", NULL, rv, NULL, NULL, NULL);
	fake_watch *web =
		fake_watch_open(api, "pods", NULL, rv, &(fake_watch_opts){"app=web", NULL, 0, 0, 0}, NULL, NULL);
	add_pod(api, "p", "n1", NULL);
	json_decref(expect(fake_patch(api, "pods", "default", "p", NULL, "application/merge-patch+json",
				      "{\"metadata\":{\"labels\":{\"app\":\"db\"}}}", &out),
			   200, &out));
	json_decref(expect(fake_patch(api, "pods", "default", "p", NULL, "application/merge-patch+json",
				      "{\"metadata\":{\"labels\":{\"app\":\"web\"}}}", &out),
			   200, &out));
	/* one byte at a time comes out as the same events */
	json_t *evs = read_events(all, 1);
	ck_assert_int_eq(json_array_size(evs), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(evs, 0), "type")), "ADDED");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(evs, 2), "type")), "MODIFIED");
	json_decref(evs);
	/* through a selector: moving out is DELETED, moving in ADDED */
	evs = read_events(web, 7);
	ck_assert_int_eq(json_array_size(evs), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(evs, 1), "type")), "DELETED");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(evs, 2), "type")), "ADDED");
	json_decref(evs);
	/* a watch from before the window kept: one ERROR 410, then the end */
	for (int i = 0; i < 10; i++)
		json_decref(expect(fake_patch(api, "nodes", NULL, "n1", NULL, "application/merge-patch+json",
					      i % 2 ? "{\"metadata\":{\"labels\":{\"x\":\"1\"}}}"
						    : "{\"metadata\":{\"labels\":{\"x\":\"2\"}}}",
					      &out),
				   200, &out));
	fake_watch *old = fake_watch_open(api, "pods", NULL, rv, NULL, NULL, NULL);
	evs = read_events(old, 4096);
	ck_assert_int_eq(json_array_size(evs), 1);
	json_t *obj = json_object_get(json_array_get(evs, 0), "object");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(evs, 0), "type")), "ERROR");
	ck_assert_int_eq(json_integer_value(json_object_get(obj, "code")), 410);
	ck_assert_str_eq(json_string_value(json_object_get(obj, "reason")), "Expired");
	ck_assert_int_eq(strncmp(json_string_value(json_object_get(obj, "message")), "too old resource version: ", 26),
			 0);
	ck_assert_int_eq(fake_watch_done(old), 1);
	json_decref(evs);
	/* a watch that fell behind the window while open ends the same way */
	evs = read_events(all, 4096);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(evs, 0), "type")), "ERROR");
	json_decref(evs);
	/* without a resourceVersion: the state as ADDED first; bookmarks come when allowed */
	fake_watch *fresh =
		fake_watch_open(api, "nodes", NULL, NULL, &(fake_watch_opts){NULL, NULL, 1, 0, 0}, NULL, NULL);
	evs = read_events(fresh, 4096);
	ck_assert_int_eq(json_array_size(evs), 2);
	json_decref(evs);
	fake_advance(api, fake_now(api) + 60000);
	evs = read_events(fresh, 4096);
	ck_assert_int_eq(json_array_size(evs), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(evs, 0), "type")), "BOOKMARK");
	json_decref(evs);
	fake_free(api); /* closes the watches */
}
END_TEST

START_TEST(test_faults)
{
	fake_api *api = new_fake(&(fake_options){.no_scheduler = 1}, nodes_yaml);
	char *out;
	/* the second create of pods fails with 500, untouched */
	fake_add_fault(api, &(fake_fault){.op = "create",
					  .resource = "pods",
					  .skip = 1,
					  .count = 1,
					  .code = 500,
					  .message = "fakePodFailAdmission error"});
	add_pod(api, "a", "n1", NULL);
	json_t *st = expect(fake_create(api, "pods", "default",
					"{\"metadata\":{\"name\":\"b\"},\"spec\":{\"containers\":[{\"name\":\"c\"}]}}",
					&out),
			    500, &out);
	ck_assert_str_eq(json_string_value(json_object_get(st, "message")), "fakePodFailAdmission error");
	json_decref(st);
	ck_assert_ptr_null(fake_object(api, "pods", "default", "b"));
	add_pod(api, "c", "n1", NULL);
	/* a timeout after the write: no answer, but the pod exists */
	fake_add_fault(api, &(fake_fault){.op = "delete", .count = 1, .code = FAKE_ETIMEDOUT, .executed = 1});
	ck_assert_int_eq(fake_delete(api, "pods", "default", "a", "{\"gracePeriodSeconds\":0}", &out), FAKE_ETIMEDOUT);
	ck_assert_ptr_null(out);
	ck_assert_ptr_null(fake_object(api, "pods", "default", "a"));
	ck_assert_int_eq(fake_transport_result(FAKE_ETIMEDOUT, NULL), DS_TRANSPORT_TRANSIENT);
	/* a delay moves the clock */
	ds_time t = fake_now(api);
	fake_add_fault(api, &(fake_fault){.op = "get", .resource = "nodes", .count = 1, .delay_ms = 2500});
	json_decref(expect(fake_get(api, "nodes", NULL, "n1", &out), 200, &out));
	ck_assert_int_eq(fake_now(api) - t, 2500);
	ck_assert_int_eq(fake_calls(api, "create", "pods"), 3);
	ck_assert_int_eq(fake_calls(api, NULL, "pods"), 4);
	/* a create that reaches the server twice: two pods from one generateName */
	fake_add_fault(api, &(fake_fault){.op = "create", .resource = "pods", .count = 1, .duplicate = 1});
	json_t *one =
		expect(fake_create(api, "pods", "default",
				   "{\"metadata\":{\"generateName\":\"twice-\"},\"spec\":{\"containers\":[{\"name\":"
				   "\"c\"}]}}",
				   &out),
		       201, &out);
	int twins = 0;
	const char *k;
	json_t *p;
	json_object_foreach((json_t *)fake_objects(api, "pods"), k, p) twins += !strncmp(k, "default/twice-", 14);
	ck_assert_int_eq(twins, 2);
	ck_assert_ptr_nonnull(fake_object(
		api, "pods", "default", json_string_value(json_object_get(json_object_get(one, "metadata"), "name"))));
	json_decref(one);
	fake_clear_faults(api);
	/* event faults: drop the first, duplicate the second, end the stream at the fourth */
	char rv[32];
	snprintf(rv, sizeof(rv), "%llu", fake_resource_version(api));
	fake_watch *w = fake_watch_open(api, "pods", NULL, rv, NULL, NULL, NULL);
	fake_add_event_fault(api, &(fake_event_fault){"pods", 0, 1, FAKE_EVENT_DROP, 0});
	fake_add_event_fault(api, &(fake_event_fault){"pods", 1, 1, FAKE_EVENT_DUPLICATE, 0});
	fake_add_event_fault(api, &(fake_event_fault){"pods", 2, 1, FAKE_EVENT_DELAY, 500});
	fake_add_event_fault(api, &(fake_event_fault){"pods", 3, 1, FAKE_EVENT_CLOSE, 0});
	for (int i = 0; i < 5; i++) {
		char name[16];
		snprintf(name, sizeof(name), "e%d", i);
		add_pod(api, name, "n2", NULL);
	}
	json_t *evs = read_events(w, 4096);
	ck_assert_int_eq(json_array_size(evs), 2); /* e1 twice; e2 held back */
	ck_assert_str_eq(str_at(json_object_get(json_array_get(evs, 1), "object"), "metadata", "name"), "e1");
	json_decref(evs);
	ck_assert_int_eq(fake_watch_done(w), 0);
	fake_advance(api, fake_now(api) + 500);
	evs = read_events(w, 4096);
	ck_assert_int_eq(json_array_size(evs), 1);
	ck_assert_str_eq(str_at(json_object_get(json_array_get(evs, 0), "object"), "metadata", "name"), "e2");
	json_decref(evs);
	ck_assert_int_eq(fake_watch_done(w), 1);
	fake_free(api);
}
END_TEST

START_TEST(test_scheduler_kubelet_and_eviction)
{
	fake_api *api = new_fake(&(fake_options){.ready_after_ms = 2000}, nodes_yaml);
	char *out;
	/* a pod pinned to n1 that fits: bound, then Running and Ready after 2 s */
	json_decref(expect(
		fake_create(api, "pods", "default",
			    "{\"metadata\":{\"name\":\"d\",\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{"
			    "\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"affinity\":{"
			    "\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{"
			    "\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":"
			    "\"In\",\"values\":[\"n1\"]}]}]}}}}}",
			    &out),
		201, &out));
	/* and one that does not fit anywhere: Unschedulable, with the scheduler's reasons */
	json_decref(expect(fake_create(api, "pods", "default",
				       "{\"metadata\":{\"name\":\"big\"},\"spec\":{\"containers\":[{\"name\":\"c\","
				       "\"resources\":{\"requests\":{\"cpu\":\"3\"}}}]}}",
				       &out),
			   201, &out));
	fake_advance(api, fake_now(api) + 1);
	const json_t *d = fake_object(api, "pods", "default", "d");
	ck_assert_str_eq(str_at(d, "spec", "nodeName"), "n1");
	ck_assert_str_eq(str_at(d, "status", "phase"), "Pending");
	const json_t *big = fake_object(api, "pods", "default", "big");
	const json_t *cond = json_array_get(json_object_get(json_object_get(big, "status"), "conditions"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(cond, "reason")), "Unschedulable");
	ck_assert_str_eq(json_string_value(json_object_get(cond, "message")),
			 "0/2 nodes are available: 2 Insufficient cpu.");
	ck_assert_int_eq(fake_next_due(api), fake_now(api) + 2000); /* bound 1 ms after creation */
	fake_advance(api, fake_now(api) + 1999);
	ck_assert_str_eq(str_at(fake_object(api, "pods", "default", "d"), "status", "phase"), "Pending");
	fake_advance(api, fake_now(api) + 1);
	ck_assert_str_eq(str_at(fake_object(api, "pods", "default", "d"), "status", "phase"), "Running");
	/* eviction: a budget that allows nothing answers 429; without it, 201 */
	json_decref(expect(fake_create(api, "poddisruptionbudgets", "default",
				       "{\"metadata\":{\"name\":\"pdb\"},\"spec\":{\"minAvailable\":1,\"selector\":{"
				       "\"matchLabels\":{\"app\":\"web\"}}}}",
				       &out),
			   201, &out));
	fake_advance(api, fake_now(api) + 1);
	json_t *st = expect(fake_evict(api, "default", "d", "{}", &out), 429, &out);
	ck_assert_str_eq(json_string_value(json_object_get(st, "message")),
			 "Cannot evict pod as it would violate the pod's disruption budget.");
	ck_assert_str_eq(
		json_string_value(json_object_get(
			json_array_get(json_object_get(json_object_get(st, "details"), "causes"), 0), "message")),
		"The disruption budget pdb needs 1 healthy pods and has 1 currently");
	json_decref(st);
	json_decref(expect(fake_delete(api, "poddisruptionbudgets", "default", "pdb", NULL, &out), 200, &out));
	json_decref(expect(fake_evict(api, "default", "d", "{}", &out), 201, &out));
	ck_assert_ptr_nonnull(str_at(fake_object(api, "pods", "default", "d"), "metadata", "deletionTimestamp"));
	fake_free(api);
}
END_TEST

/* The driver over the fake, fed in pieces of every size: converges, one pod per node. */
START_TEST(test_controller_over_the_fake)
{
	static const size_t chunks[] = {0, 1, 3, 64};
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		fake_api *api = new_fake(&(fake_options){.ready_after_ms = 500}, nodes_yaml);
		char why[256];
		ck_assert(fake_load(api, ds_yaml, strlen(ds_yaml), why, sizeof(why)) == 0);
		fake_host h;
		ck_assert_int_eq(fake_host_start(&h, api, NULL, NULL), 0);
		h.chunk = chunks[c];
		for (int i = 0; i < 100; i++)
			ck_assert_int_ge(fake_host_step(&h, 100), 0);
		const json_t *ds = fake_object(api, "daemonsets", "default", "agent");
		const json_t *st = json_object_get(ds, "status");
		ck_assert_int_eq(json_integer_value(json_object_get(st, "desiredNumberScheduled")), 2);
		ck_assert_int_eq(json_integer_value(json_object_get(st, "numberAvailable")), 2);
		ck_assert_int_eq(json_integer_value(json_object_get(st, "updatedNumberScheduled")), 2);
		ck_assert_int_eq(json_object_size(fake_objects(api, "pods")), 2);
		ck_assert_int_eq(json_object_size(fake_objects(api, "controllerrevisions")), 1);
		ck_assert_int_eq(h.lists, 1);
		ck_assert_int_gt(h.events, 4);
		fake_host_stop(&h);
		fake_free(api);
	}
}
END_TEST

/* A watch that expires makes the host list again; the controller still converges. */
START_TEST(test_controller_relists_after_410)
{
	fake_api *api = new_fake(&(fake_options){.ready_after_ms = 500}, nodes_yaml);
	char why[256];
	ck_assert(fake_load(api, ds_yaml, strlen(ds_yaml), why, sizeof(why)) == 0);
	fake_host h;
	ck_assert_int_eq(fake_host_start(&h, api, NULL, NULL), 0);
	fake_add_event_fault(api, &(fake_event_fault){"pods", 1, 1, FAKE_EVENT_EXPIRE, 0});
	for (int i = 0; i < 100; i++)
		ck_assert_int_ge(fake_host_step(&h, 100), 0);
	ck_assert_int_eq(h.lists, 2);
	const json_t *st = json_object_get(fake_object(api, "daemonsets", "default", "agent"), "status");
	ck_assert_int_eq(json_integer_value(json_object_get(st, "numberAvailable")), 2);
	ck_assert_int_eq(json_object_size(fake_objects(api, "pods")), 2);
	fake_host_stop(&h);
	fake_free(api);
}
END_TEST

static Suite *fakeapi_suite(void)
{
	Suite *s = suite_create("fakeapi");
	TCase *tc = tcase_create("fakeapi");
	tcase_add_test(tc, test_resource_versions_and_generate_name);
	tcase_add_test(tc, test_preconditions_and_status_subresource);
	tcase_add_test(tc, test_graceful_deletion_and_finalizers);
	tcase_add_test(tc, test_garbage_collection);
	tcase_add_test(tc, test_patches);
	tcase_add_test(tc, test_selectors_and_pages);
	tcase_add_test(tc, test_watch_chunks_selectors_and_expiry);
	tcase_add_test(tc, test_faults);
	tcase_add_test(tc, test_scheduler_kubelet_and_eviction);
	tcase_add_test(tc, test_controller_over_the_fake);
	tcase_add_test(tc, test_controller_relists_after_410);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(fakeapi_suite)
