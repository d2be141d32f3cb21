/*
 * Offline scenario tests (include/daemonset/scenario.h): a cluster (inline
 * objects and/or dumps on disk) plus expectations about placement, plans,
 * status, generated pods, rollouts, drains and audits. Built on the public
 * API only, so a scenario checks exactly what a library user would get.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/jsonout.h"
#include "core/load.h"
#include "core/options.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "daemonset.h"

typedef struct run {
	json_t *failures; /* of the current check */
	ds_error *err;
} run;

static void failf(run *r, const char *fmt, ...) DSI_PRINTF(2, 3);
static void failf(run *r, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_append_new(r->failures, json_string(buf));
}

static json_t *parse_result(char *text)
{
	json_t *v = text ? json_loads(text, 0, NULL) : NULL;
	ds_free(text);
	return v;
}

/* "ns/name" or "name" (namespace default). */
static void split_ref(const char *ref, char *ns, size_t nsz, char *name, size_t nmsz)
{
	const char *slash = strchr(ref, '/');
	if (slash) {
		snprintf(ns, nsz, "%.*s", (int)(slash - ref), ref);
		snprintf(name, nmsz, "%s", slash + 1);
	} else {
		snprintf(ns, nsz, "default");
		snprintf(name, nmsz, "%s", ref);
	}
}

static int contains(const json_t *arr, const char *s)
{
	size_t i;
	json_t *v;
	json_array_foreach(arr, i, v)
	{
		if (json_is_string(v) && strcmp(json_string_value(v), s) == 0)
			return 1;
	}
	return 0;
}

/* A list expectation is an exact set; a number is a count. */
static void expect_set(run *r, const char *what, const json_t *want, const json_t *got)
{
	if (!want)
		return;
	if (json_is_integer(want)) {
		if ((json_int_t)json_array_size(got) != json_integer_value(want))
			failf(r, "%s: %zu, want %lld", what, json_array_size(got), (long long)json_integer_value(want));
		return;
	}
	size_t i;
	json_t *v;
	json_array_foreach(want, i, v)
	{
		if (!contains(got, json_string_value(v)))
			failf(r, "%s: missing %s", what, json_string_value(v));
	}
	json_array_foreach(got, i, v)
	{
		if (!contains(want, json_string_value(v)))
			failf(r, "%s: unexpected %s", what, json_string_value(v));
	}
}

/* A number expectation is exact; {max: n} / {min: n} bound it. */
static void expect_number(run *r, const char *what, const json_t *want, double got)
{
	if (!want)
		return;
	if (json_is_number(want)) {
		if (got != json_number_value(want))
			failf(r, "%s: %g, want %g", what, got, json_number_value(want));
		return;
	}
	json_t *mx = json_object_get(want, "max"), *mn = json_object_get(want, "min");
	if (mx && got > json_number_value(mx))
		failf(r, "%s: %g, want at most %g", what, got, json_number_value(mx));
	if (mn && got < json_number_value(mn))
		failf(r, "%s: %g, want at least %g", what, got, json_number_value(mn));
}

static void expect_bool(run *r, const char *what, const json_t *want, int got)
{
	if (want && json_is_true(want) != (got != 0))
		failf(r, "%s: %s, want %s", what, got ? "true" : "false", json_is_true(want) ? "true" : "false");
}

static void expect_substring(run *r, const char *what, const json_t *want, const char *got)
{
	if (!want)
		return;
	if (json_is_null(want)) {
		if (got)
			failf(r, "%s: \"%s\", want none", what, got);
		return;
	}
	if (!got || !strstr(got, json_string_value(want)))
		failf(r, "%s: \"%s\", want it to contain \"%s\"", what, got ? got : "(none)", json_string_value(want));
}

/* Every counter named in want equals got's. */
static void expect_fields(run *r, const char *what, const json_t *want, const json_t *got)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)want, k, v)
	{
		json_t *g = json_object_get(got, k);
		if (!g)
			failf(r, "%s.%s: absent", what, k);
		else if (!json_equal(g, v) && !(json_is_number(g) && json_is_number(v) &&
						json_number_value(g) == json_number_value(v))) {
			char *gs = json_dumps(g, JSON_ENCODE_ANY | JSON_COMPACT), *ws = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
			failf(r, "%s.%s: %s, want %s", what, k, gs, ws);
			free(gs);
			free(ws);
		}
	}
}

static const char *reasons_text(const json_t *row, dsi_strbuf *b)
{
	size_t i;
	json_t *x;
	const char *lists[] = {"reasons", "scheduler"};
	for (int l = 0; l < 2; l++)
		json_array_foreach(json_object_get(row, lists[l]), i, x)
		{
			dsi_strbuf_printf(b, "%s; %s; ", json_string_value(json_object_get(x, "message")),
					  json_string_value(json_object_get(x, "detail")) ? json_string_value(json_object_get(x, "detail"))
											: "");
		}
	return b->data ? b->data : "";
}

static int check_explain(run *r, ds_cluster *c, const char *ref, const json_t *chk, const ds_options *o)
{
	char ns[256], name[256];
	split_ref(ref, ns, sizeof(ns), name, sizeof(name));
	char *text;
	if (ds_explain(c, ns, name, o, &text, r->err) < 0)
		return -1;
	json_t *doc = parse_result(text), *by_status = json_object();
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(doc, "rows"), i, row)
	{
		const char *st = json_string_value(json_object_get(row, "status"));
		if (!json_object_get(by_status, st))
			json_object_set_new(by_status, st, json_array());
		json_array_append(json_object_get(by_status, st), json_object_get(row, "node"));
	}
	static const struct {
		const char *key, *status;
	} lists[] = {{"placed", "placed"}, {"create", "create"},   {"evict", "evict"},   {"kept", "kept"},
		     {"pending", "pending"}, {"unschedulable", "unschedulable"}, {"needsPreemption", "needs-preemption"}};
	json_t *empty = json_array();
	for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
		json_t *got = json_object_get(by_status, lists[k].status);
		expect_set(r, lists[k].key, json_object_get(chk, lists[k].key), got ? got : empty);
	}
	/* notPlaced: a list of nodes, or node -> a text one of the reasons must contain */
	json_t *np = json_object_get(chk, "notPlaced");
	if (json_is_array(np)) {
		json_t *got = json_object_get(by_status, "not-placed");
		expect_set(r, "notPlaced", np, got ? got : empty);
	} else if (json_is_object(np)) {
		const char *node;
		json_t *want;
		json_object_foreach(np, node, want)
		{
			json_t *hit = NULL;
			json_array_foreach(json_object_get(doc, "rows"), i, row)
			{
				if (strcmp(json_string_value(json_object_get(row, "node")), node) == 0)
					hit = row;
			}
			if (!hit) {
				failf(r, "notPlaced: no node %s", node);
				continue;
			}
			const char *st = json_string_value(json_object_get(hit, "status"));
			if (strcmp(st, "not-placed") != 0)
				failf(r, "notPlaced: %s is %s", node, st);
			dsi_strbuf b = DSI_STRBUF_INIT;
			const char *why = reasons_text(hit, &b);
			if (json_is_string(want) && !strstr(why, json_string_value(want)))
				failf(r, "notPlaced: %s: reasons \"%s\" do not contain \"%s\"", node, why, json_string_value(want));
			dsi_strbuf_free(&b);
		}
	}
	json_t *statuses = json_object_get(chk, "statuses");
	const char *node;
	json_t *want;
	json_object_foreach(statuses, node, want)
	{
		const char *got = NULL;
		json_array_foreach(json_object_get(doc, "rows"), i, row)
		{
			if (strcmp(json_string_value(json_object_get(row, "node")), node) == 0)
				got = json_string_value(json_object_get(row, "status"));
		}
		if (!got || strcmp(got, json_string_value(want)) != 0)
			failf(r, "statuses: %s is %s, want %s", node, got ? got : "absent", json_string_value(want));
	}
	json_decref(empty);
	json_decref(by_status);
	json_decref(doc);
	return 0;
}

static int check_should_run(run *r, ds_cluster *c, const char *ref, const json_t *chk, const ds_options *o)
{
	char ns[256], name[256];
	split_ref(ref, ns, sizeof(ns), name, sizeof(name));
	const char *node = json_string_value(json_object_get(chk, "node"));
	int run_, keep;
	if (ds_should_run(c, ns, name, node, o, &run_, &keep, r->err) < 0)
		return -1;
	expect_bool(r, "shouldRun", json_object_get(chk, "shouldRun"), run_);
	expect_bool(r, "shouldContinueRunning", json_object_get(chk, "shouldContinueRunning"), keep);
	return 0;
}

static int check_plan(run *r, ds_cluster *c, const char *ref, const json_t *chk, ds_time now, const ds_options *o)
{
	char ns[256], name[256];
	split_ref(ref, ns, sizeof(ns), name, sizeof(name));
	ds_plan *p;
	if (ds_plan_sync(c, ns, name, now, o, NULL, &p, r->err) < 0)
		return -1;
	char *text;
	int rc = ds_plan_to_json(p, &text, r->err);
	ds_plan_free(p);
	if (rc < 0)
		return -1;
	json_t *doc = parse_result(text), *creates = json_array(), *deletes = json_array(), *reasons = json_array();
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(doc, "creates"), i, x) json_array_append(creates, json_object_get(x, "node"));
	json_array_foreach(json_object_get(doc, "deletes"), i, x) json_array_append(deletes, json_object_get(x, "name"));
	json_array_foreach(json_object_get(doc, "events"), i, x) json_array_append(reasons, json_object_get(x, "reason"));
	expect_set(r, "creates", json_object_get(chk, "creates"), creates);
	expect_set(r, "deletes", json_object_get(chk, "deletes"), deletes);
	expect_set(r, "events", json_object_get(chk, "events"), reasons);
	if (json_object_get(chk, "status"))
		expect_fields(r, "status", json_object_get(chk, "status"), json_object_get(doc, "status"));
	if (json_object_get(chk, "skipped"))
		expect_substring(r, "skipped", json_object_get(chk, "skipped"), json_string_value(json_object_get(doc, "skipped")));
	json_decref(creates);
	json_decref(deletes);
	json_decref(reasons);
	json_decref(doc);
	return 0;
}

static int check_status(run *r, ds_cluster *c, const char *ref, const json_t *chk, ds_time now, const ds_options *o)
{
	char ns[256], name[256];
	split_ref(ref, ns, sizeof(ns), name, sizeof(name));
	ds_status st;
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	if (ds_status_compute(c, ns, name, now, o, &st, r->err) < 0)
		return -1;
	json_t *got = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "desiredNumberScheduled", st.desired_number_scheduled,
				"currentNumberScheduled", st.current_number_scheduled, "numberMisscheduled",
				st.number_misscheduled, "numberReady", st.number_ready, "updatedNumberScheduled",
				st.updated_number_scheduled, "numberAvailable", st.number_available, "numberUnavailable",
				st.number_unavailable);
	json_t *want = json_deep_copy(chk);
	json_object_del(want, "status");
	json_object_del(want, "options");
	json_object_del(want, "now");
	json_object_del(want, "name");
	expect_fields(r, "status", want, got);
	json_decref(want);
	json_decref(got);
	return 0;
}

static int check_pod(run *r, ds_cluster *c, const char *ref, const json_t *chk, const ds_options *o)
{
	char ns[256], name[256];
	split_ref(ref, ns, sizeof(ns), name, sizeof(name));
	const char *node = json_string_value(json_object_get(chk, "node"));
	char *text;
	if (ds_daemon_pod(c, ns, name, node, o, &text, r->err) < 0)
		return -1;
	json_t *pod = parse_result(text);
	json_t *labels = json_object_get(json_object_get(pod, "metadata"), "labels");
	if (json_object_get(chk, "labels"))
		expect_fields(r, "labels", json_object_get(chk, "labels"), labels);
	json_t *keys = json_array();
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(json_object_get(pod, "spec"), "tolerations"), i, t)
	{
		const char *k = json_string_value(json_object_get(t, "key"));
		json_array_append_new(keys, json_string(k ? k : ""));
	}
	json_t *want = json_object_get(chk, "tolerations");
	json_array_foreach(want, i, t)
	{
		if (!contains(keys, json_string_value(t)))
			failf(r, "tolerations: no toleration for %s", json_string_value(t));
	}
	/* the node pin: exactly one required term, matchFields metadata.name In [node] */
	json_t *terms = json_object_get(json_object_get(json_object_get(json_object_get(json_object_get(pod, "spec"), "affinity"),
									  "nodeAffinity"),
							  "requiredDuringSchedulingIgnoredDuringExecution"),
					"nodeSelectorTerms");
	json_t *pin = json_object_get(json_array_get(json_object_get(json_array_get(terms, 0), "matchFields"), 0), "values");
	if (json_array_size(terms) != 1 || !contains(pin, node))
		failf(r, "affinity: the pod is not pinned to %s", node);
	json_decref(keys);
	json_decref(pod);
	return 0;
}

static int check_rollout(run *r, ds_cluster *c, const char *ref, const json_t *chk, ds_time now, const ds_options *o)
{
	char ns[256], name[256];
	split_ref(ref, ns, sizeof(ns), name, sizeof(name));
	char *text;
	if (ds_rollout_simulate(c, ns, name, now, o, &text, r->err) < 0)
		return -1;
	json_t *doc = parse_result(text);
	expect_substring(r, "result", json_object_get(chk, "result"), json_string_value(json_object_get(doc, "result")));
	static const char *const nums[] = {"maxUnavailableSeen", "maxSurgeSeen", "updated", "durationSeconds", "creates",
					   "deletes"};
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		expect_number(r, nums[i], json_object_get(chk, nums[i]), json_number_value(json_object_get(doc, nums[i])));
	expect_bool(r, "budgetExceeded", json_object_get(chk, "budgetExceeded"),
		    json_is_true(json_object_get(doc, "budgetExceeded")));
	if (json_object_get(chk, "stall"))
		expect_substring(r, "stall", json_object_get(chk, "stall"),
				 json_string_value(json_object_get(json_object_get(doc, "stall"), "reason")));
	json_decref(doc);
	return 0;
}

static int check_drain(run *r, ds_cluster *c, const char *node, const json_t *chk, ds_time now, const ds_options *o)
{
	char *text;
	if (ds_drain(c, node, now, o, &text, r->err) < 0)
		return -1;
	json_t *doc = parse_result(text);
	expect_bool(r, "drained", json_object_get(chk, "drained"), json_is_true(json_object_get(doc, "drained")));
	expect_substring(r, "verdict", json_object_get(chk, "verdict"), json_string_value(json_object_get(doc, "verdict")));
	expect_substring(r, "error", json_object_get(chk, "error"), json_string_value(json_object_get(doc, "error")));
	expect_substring(r, "warning", json_object_get(chk, "warning"), json_string_value(json_object_get(doc, "warning")));
	const char *pod;
	json_t *want;
	json_object_foreach(json_object_get(chk, "outcomes"), pod, want)
	{
		const char *got = NULL;
		size_t i;
		json_t *p;
		json_array_foreach(json_object_get(doc, "pods"), i, p)
		{
			char full[600];
			snprintf(full, sizeof(full), "%s/%s", json_string_value(json_object_get(p, "namespace")),
				 json_string_value(json_object_get(p, "name")));
			if (strcmp(full, pod) == 0 || strcmp(json_string_value(json_object_get(p, "name")), pod) == 0)
				got = json_string_value(json_object_get(p, "outcome"));
		}
		if (!got || strcmp(got, json_string_value(want)) != 0)
			failf(r, "outcomes: %s is %s, want %s", pod, got ? got : "absent", json_string_value(want));
	}
	json_decref(doc);
	return 0;
}

static int check_audit(run *r, ds_cluster *c, const char *ref, const json_t *chk, const ds_options *o)
{
	char ns[256], name[256];
	split_ref(ref, ns, sizeof(ns), name, sizeof(name));
	char *obj, *text;
	if (ds_cluster_get(c, "DaemonSet", ns, name, &obj, r->err) < 0)
		return -1;
	int rc = ds_audit(obj, strlen(obj), o, &text, r->err);
	ds_free(obj);
	if (rc < 0)
		return -1;
	json_t *doc = parse_result(text), *ids = json_array();
	expect_substring(r, "level", json_object_get(chk, "level"), json_string_value(json_object_get(doc, "level")));
	expect_bool(r, "allowed", json_object_get(chk, "allowed"),
		    json_is_true(json_object_get(json_object_get(doc, "requested"), "allowed")));
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(doc, "findings"), i, f) json_array_append(ids, json_object_get(f, "id"));
	json_array_foreach(json_object_get(chk, "findings"), i, f)
	{
		if (!contains(ids, json_string_value(f)))
			failf(r, "findings: no %s finding", json_string_value(f));
	}
	json_array_foreach(json_object_get(chk, "noFindings"), i, f)
	{
		if (contains(ids, json_string_value(f)))
			failf(r, "findings: unexpected %s finding", json_string_value(f));
	}
	json_decref(ids);
	json_decref(doc);
	return 0;
}

/* Fields each kind of check accepts: a typo must not silently pass. */
static const struct kind {
	const char *name;
	const char *const fields[12];
} kinds[] = {
	{"explain", {"placed", "create", "evict", "kept", "pending", "unschedulable", "needsPreemption", "notPlaced", "statuses"}},
	{"shouldRunOn", {"node", "shouldRun", "shouldContinueRunning"}},
	{"plan", {"creates", "deletes", "events", "status", "skipped"}},
	{"status",
	 {"desiredNumberScheduled", "currentNumberScheduled", "numberMisscheduled", "numberReady", "updatedNumberScheduled",
	  "numberAvailable", "numberUnavailable"}},
	{"pod", {"node", "labels", "tolerations"}},
	{"rollout", {"result", "maxUnavailableSeen", "maxSurgeSeen", "updated", "durationSeconds", "creates", "deletes",
		     "budgetExceeded", "stall"}},
	{"drain", {"drained", "verdict", "error", "warning", "outcomes"}},
	{"audit", {"level", "allowed", "findings", "noFindings"}},
};

static const struct kind *kind_of(const json_t *chk, const char **ref)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		json_t *v = json_object_get(chk, kinds[i].name);
		if (json_is_string(v)) {
			*ref = json_string_value(v);
			return &kinds[i];
		}
	}
	return NULL;
}

static int options_for(const json_t *base, const json_t *extra, ds_options **out, ds_error *err)
{
	if (ds_options_new(out) < 0)
		return dsi_error_nomem(err);
	const json_t *layers[2] = {base, extra};
	for (int i = 0; i < 2; i++) {
		if (!layers[i])
			continue;
		char *t = dsi_json_dumps(layers[i], JSON_COMPACT);
		int rc = t ? ds_options_set_json(*out, t, err) : dsi_error_nomem(err);
		dsi_free(t);
		if (rc < 0) {
			ds_options_free(*out);
			*out = NULL;
			return rc;
		}
	}
	return 0;
}

/* Run one check; its failures (and errors) land in the result object. */
static json_t *run_check(ds_cluster *c, const json_t *chk, size_t index, const json_t *base_opts, ds_time now)
{
	json_t *res = json_object(), *failures = json_array();
	ds_error err;
	ds_error_clear(&err);
	run r = {failures, &err};
	const char *ref = NULL;
	const struct kind *k = json_is_object(chk) ? kind_of(chk, &ref) : NULL;
	char label[600];
	snprintf(label, sizeof(label), "checks[%zu]", index);
	if (!k) {
		failf(&r, "%s: expected one of explain, shouldRunOn, plan, status, pod, rollout, drain, audit "
			  "naming its DaemonSet (or node, for drain)",
		      label);
		goto out;
	}
	snprintf(label, sizeof(label), "%s %s%s%s", k->name, ref, json_object_get(chk, "node") ? " on " : "",
		 json_object_get(chk, "node") ? json_string_value(json_object_get(chk, "node")) : "");
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)chk, key, v)
	{
		int known = strcmp(key, k->name) == 0 || strcmp(key, "options") == 0 || strcmp(key, "now") == 0 ||
			    strcmp(key, "name") == 0;
		for (int f = 0; !known && f < 12 && k->fields[f]; f++)
			known = strcmp(k->fields[f], key) == 0;
		if (!known)
			failf(&r, "unknown field \"%s\" for a %s check", key, k->name);
	}
	if (json_array_size(failures))
		goto out;
	ds_options *o;
	if (options_for(base_opts, json_object_get(chk, "options"), &o, &err) < 0) {
		failf(&r, "options: %s: %s", err.path, err.message);
		goto out;
	}
	ds_time t = now;
	const char *ct = json_string_value(json_object_get(chk, "now"));
	if (ct && ds_time_parse(ct, &t, &err) < 0) {
		failf(&r, "now: %s", err.message);
		ds_options_free(o);
		goto out;
	}
	int rc = 0;
	if (strcmp(k->name, "explain") == 0)
		rc = check_explain(&r, c, ref, chk, o);
	else if (strcmp(k->name, "shouldRunOn") == 0)
		rc = check_should_run(&r, c, ref, chk, o);
	else if (strcmp(k->name, "plan") == 0)
		rc = check_plan(&r, c, ref, chk, t, o);
	else if (strcmp(k->name, "status") == 0)
		rc = check_status(&r, c, ref, chk, t, o);
	else if (strcmp(k->name, "pod") == 0)
		rc = check_pod(&r, c, ref, chk, o);
	else if (strcmp(k->name, "rollout") == 0)
		rc = check_rollout(&r, c, ref, chk, t, o);
	else if (strcmp(k->name, "drain") == 0)
		rc = check_drain(&r, c, ref, chk, t, o);
	else
		rc = check_audit(&r, c, ref, chk, o);
	if (rc < 0)
		failf(&r, "%s: %s%s%s", ds_strerror(err.code), err.path, err.path[0] ? ": " : "", err.message);
	ds_options_free(o);
out:
	json_object_set_new(res, "check", json_string(label));
	json_object_set_new(res, "passed", json_boolean(json_array_size(failures) == 0));
	json_object_set_new(res, "failures", failures);
	return res;
}

/* Load a scenario's cluster: its files (relative to base_dir) and inline objects. */
static int load_cluster(const json_t *sc, const char *base_dir, const ds_options *o, ds_cluster **out, ds_error *err)
{
	int rc = ds_cluster_new(o, out, err);
	if (rc < 0)
		return rc;
	json_t *files = json_object_get(sc, "load");
	if (json_is_string(files)) {
		json_t *one = json_array();
		json_array_append(one, files);
		files = one;
	} else {
		json_incref(files);
	}
	size_t i;
	json_t *f;
	json_array_foreach(files, i, f)
	{
		if (!json_is_string(f)) {
			rc = dsi_error_set(err, DS_ETYPE, "load", "expected a path or a list of paths");
			break;
		}
		const char *p = json_string_value(f);
		dsi_strbuf path = DSI_STRBUF_INIT;
		if (p[0] != '/' && base_dir && *base_dir)
			dsi_strbuf_printf(&path, "%s/%s", base_dir, p);
		else
			dsi_strbuf_puts(&path, p);
		rc = path.oom ? dsi_error_nomem(err) : ds_cluster_load_file(*out, path.data, NULL, err);
		dsi_strbuf_free(&path);
		if (rc < 0)
			break;
	}
	json_decref(files);
	json_t *objs = json_object_get(sc, "objects");
	if (rc == 0 && objs) {
		json_t *list = json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List", "items", objs);
		rc = list ? ds_cluster_load_json(*out, (const struct json_t *)list, NULL, err) : dsi_error_nomem(err);
		if (rc < 0)
			dsi_error_prefix_path(err, "objects");
		json_decref(list);
	}
	if (rc < 0) {
		ds_cluster_free(*out);
		*out = NULL;
	}
	return rc;
}

static json_t *run_scenario(const json_t *sc, const char *file, size_t doc, const char *base_dir, const ds_options *opts)
{
	char name[512];
	const char *n = json_string_value(json_object_get(sc, "name"));
	if (n)
		snprintf(name, sizeof(name), "%s", n);
	else
		snprintf(name, sizeof(name), "%s#%zu", file ? file : "scenario", doc + 1);
	json_t *res = json_pack("{s:s, s:s}", "name", name, "file", file ? file : "");
	json_t *checks = json_array();
	ds_error err;
	ds_error_clear(&err);
	const char *problem = NULL;
	char msg[1024];
	ds_time now = 0;
	const char *nt = json_string_value(json_object_get(sc, "now"));
	if (!json_is_object(sc))
		problem = "a scenario is a mapping with load/objects, now, options and checks";
	else if (!json_is_array(json_object_get(sc, "checks")) || !json_array_size(json_object_get(sc, "checks")))
		problem = "a scenario needs a non-empty list of checks";
	else if (!nt)
		problem = "a scenario needs now: the time its plans are computed at (RFC 3339)";
	else if (ds_time_parse(nt, &now, &err) < 0) {
		snprintf(msg, sizeof(msg), "now: %s", err.message);
		problem = msg;
	}
	ds_cluster *c = NULL;
	if (!problem && load_cluster(sc, base_dir, opts, &c, &err) < 0) {
		snprintf(msg, sizeof(msg), "loading the cluster: %s%s%s%s%s", err.source, err.source[0] ? ": " : "", err.path,
			 err.path[0] ? ": " : "", err.message);
		problem = msg;
	}
	int passed = !problem;
	if (!problem) {
		size_t i;
		json_t *chk;
		json_array_foreach(json_object_get(sc, "checks"), i, chk)
		{
			json_t *cr = run_check(c, chk, i, json_object_get(sc, "options"), now);
			passed &= json_is_true(json_object_get(cr, "passed"));
			json_array_append_new(checks, cr);
		}
	}
	ds_cluster_free(c);
	if (problem)
		json_object_set_new(res, "error", json_string(problem));
	json_object_set_new(res, "passed", json_boolean(passed));
	json_object_set_new(res, "checks", checks);
	return res;
}

typedef struct collect {
	json_t *scenarios;
	const char *file;
	const char *base_dir;
	const ds_options *opts;
} collect;

static int one_doc(void *ctx, const dsi_loaded *it, ds_error *err)
{
	(void)err;
	collect *k = ctx;
	json_array_append_new(k->scenarios, run_scenario(it->obj, k->file, it->document, k->base_dir, k->opts));
	return 0;
}

/* Every document of the text is a scenario (they have no kind: the loader emits them as they are). */
static int run_text(collect *k, const char *text, size_t size, ds_error *err)
{
	return dsi_load_text(text, size, &dsi_opts(k->opts)->limits, one_doc, k, err);
}

static json_t *summary(json_t *scenarios)
{
	size_t i, passed = 0;
	json_t *s;
	json_array_foreach(scenarios, i, s) passed += json_is_true(json_object_get(s, "passed"));
	return json_pack("{s:I, s:I, s:o}", "passed", (json_int_t)passed, "failed",
			 (json_int_t)(json_array_size(scenarios) - passed), "scenarios", scenarios);
}

int ds_scenario_run(const char *text, size_t size, const char *base_dir, const ds_options *opts, char **json_out,
		    ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!text || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "text and json_out must not be NULL");
	*json_out = NULL;
	collect k = {json_array(), NULL, base_dir, opts};
	int rc = run_text(&k, text, size, err);
	if (rc < 0) {
		json_decref(k.scenarios);
		return rc;
	}
	return dsi_json_emit(summary(k.scenarios), json_out, err);
}

static int scenario_name(const char *n)
{
	size_t l = strlen(n);
	return n[0] != '.' && ((l > 5 && strcmp(n + l - 5, ".yaml") == 0) || (l > 4 && strcmp(n + l - 4, ".yml") == 0) ||
			       (l > 5 && strcmp(n + l - 5, ".json") == 0));
}

static int cmp_names(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(a, b);
}

static int run_file(collect *k, const char *path, ds_error *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return dsi_error_set(err, DS_EIO, NULL, "cannot open %s: %s", path, strerror(errno));
	dsi_strbuf b = DSI_STRBUF_INIT;
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0 && !b.oom)
		dsi_strbuf_append(&b, chunk, n);
	fclose(f);
	if (b.oom)
		return dsi_error_nomem(err);
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	k->file = path;
	k->base_dir = dir;
	ds_error e;
	ds_error_clear(&e);
	int rc = run_text(k, b.data ? b.data : "", b.len, &e);
	dsi_strbuf_free(&b);
	if (rc < 0) { /* a broken file is a failed scenario, not the end of the run */
		char msg[1024], where[64] = "";
		if (e.line)
			snprintf(where, sizeof(where), "line %d, column %d: ", e.line, e.column);
		snprintf(msg, sizeof(msg), "%s%s%s%s", where, e.path, e.path[0] ? ": " : "", e.message);
		json_array_append_new(k->scenarios, json_pack("{s:s, s:s, s:b, s:s, s:[]}", "name", path, "file", path,
							       "passed", 0, "error", msg, "checks"));
	}
	return 0;
}

int ds_scenario_run_file(const char *path, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!path || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "path and json_out must not be NULL");
	*json_out = NULL;
	struct stat st;
	if (stat(path, &st) < 0)
		return dsi_error_set(err, DS_EIO, NULL, "cannot open %s: %s", path, strerror(errno));
	collect k = {json_array(), NULL, NULL, opts};
	int rc = 0;
	if (!S_ISDIR(st.st_mode)) {
		rc = run_file(&k, path, err);
	} else {
		DIR *d = opendir(path);
		if (!d) {
			json_decref(k.scenarios);
			return dsi_error_set(err, DS_EIO, NULL, "cannot open %s: %s", path, strerror(errno));
		}
		char **names = NULL;
		size_t n = 0, cap = 0;
		struct dirent *e;
		while ((e = readdir(d)) != NULL)
			if (scenario_name(e->d_name) && DSI_GROW(names, cap, n + 1) == 0 && (names[n] = dsi_strdup(e->d_name)))
				n++;
		closedir(d);
		dsi_sort_ptrs((void **)names, n, cmp_names, NULL);
		for (size_t i = 0; i < n && rc == 0; i++) {
			dsi_strbuf p = DSI_STRBUF_INIT;
			dsi_strbuf_printf(&p, "%s/%s", path, names[i]);
			rc = p.oom ? dsi_error_nomem(err) : run_file(&k, p.data, err);
			dsi_strbuf_free(&p);
		}
		for (size_t i = 0; i < n; i++)
			dsi_free(names[i]);
		dsi_free(names);
	}
	if (rc < 0) {
		json_decref(k.scenarios);
		return rc;
	}
	return dsi_json_emit(summary(k.scenarios), json_out, err);
}
