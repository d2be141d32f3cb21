/*
 * One check of a scenario (daemonset-scenario(5)): call the public function
 * the check names and compare its result with the expectations. The check's
 * form was verified by scenario_form.c, so expectations have their types;
 * the library's results are still read defensively (a member that is absent
 * reads as absent, never as a crash).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/strbuf.h"

typedef struct run {
	json_t *failures;
	const char *name; /* the check's name, prefixed to each failure; NULL when it has none */
	ds_error *err;
} run;

/* Texts are cut to fixed buffers (ds_error's, failf's), which can split a UTF-8
 * sequence; jansson refuses such strings, so bytes that are not UTF-8 become '?'. */
json_t *dsi_scenario_text(const char *s)
{
	json_t *v = json_string(s);
	if (v)
		return v;
	char *copy = dsi_strdup(s);
	if (!copy)
		return NULL;
	unsigned char *p = (unsigned char *)copy;
	while (*p) {
		size_t n = *p < 0x80             ? 1
			   : (*p & 0xE0) == 0xC0 ? 2
			   : (*p & 0xF0) == 0xE0 ? 3
			   : (*p & 0xF8) == 0xF0 ? 4
						 : 0;
		size_t i = 1;
		while (n && i < n && (p[i] & 0xC0) == 0x80)
			i++;
		if (!n || i < n) { /* not a lead byte, or a sequence cut short */
			*p++ = '?';
			continue;
		}
		p += n;
	}
	v = json_string(copy);
	if (!v) /* overlong forms and surrogates: keep the ASCII */
		for (p = (unsigned char *)copy; *p; p++)
			if (*p >= 0x80)
				*p = '?';
	if (!v)
		v = json_string(copy);
	dsi_free(copy);
	return v;
}

static void failf(run *r, const char *fmt, ...) DSI_PRINTF(2, 3);
static void failf(run *r, const char *fmt, ...)
{
	/* whole: a failure quotes values of the cluster, which have no bound */
	dsi_strbuf b = DSI_STRBUF_INIT;
	if (r->name)
		dsi_strbuf_printf(&b, "%s: ", r->name);
	va_list ap;
	va_start(ap, fmt);
	dsi_strbuf_vprintf(&b, fmt, ap);
	va_end(ap);
	json_array_append_new(r->failures, dsi_scenario_text(b.oom ? "out of memory" : b.data ? b.data : ""));
	dsi_strbuf_free(&b);
}

static json_t *parse_result(char *text)
{
	json_t *v = text ? json_loads(text, 0, NULL) : NULL;
	ds_free(text);
	return v;
}

/* The text of a result member, or NULL when it is absent or not text. */
static const char *str(const json_t *v) { return json_string_value(v); }
static const char *member(const json_t *obj, const char *key) { return json_string_value(json_object_get(obj, key)); }
static int same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/* "ns/name" or "name" (namespace default); *ns and *name are new strings. */
typedef struct ref {
	char *ns, *name;
} ref;

static int split_ref(const char *s, ref *out, ds_error *err)
{
	const char *slash = strchr(s, '/');
	out->ns = slash ? dsi_strndup(s, (size_t)(slash - s)) : dsi_strdup("default");
	out->name = dsi_strdup(slash ? slash + 1 : s);
	if (!out->ns || !out->name) {
		dsi_free(out->ns);
		dsi_free(out->name);
		return dsi_error_nomem(err);
	}
	return 0;
}

static void ref_free(ref *r)
{
	dsi_free(r->ns);
	dsi_free(r->name);
}

static int contains(const json_t *arr, const char *s)
{
	size_t i;
	json_t *v;
	json_array_foreach(arr, i, v)
	{
		if (same(str(v), s))
			return 1;
	}
	return 0;
}

/* A list expectation is an exact set; an integer is a count. */
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
		if (!contains(got, str(v)))
			failf(r, "%s: missing %s", what, str(v));
	}
	json_array_foreach(got, i, v)
	{
		if (str(v) && !contains(want, str(v)))
			failf(r, "%s: unexpected %s", what, str(v));
	}
}

/* A number expectation is exact; {max: n} / {min: n} bound it. */
static void expect_number(run *r, const char *what, const json_t *want, const json_t *got_v)
{
	if (!want)
		return;
	if (!json_is_number(got_v)) {
		failf(r, "%s: absent from the result", what);
		return;
	}
	double got = json_number_value(got_v);
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

/* Text: the result contains it; null: the result has none. */
static void expect_substring(run *r, const char *what, const json_t *want, const char *got)
{
	if (!want)
		return;
	if (json_is_null(want)) {
		if (got)
			failf(r, "%s: \"%s\", want none", what, got);
		return;
	}
	if (!got || !strstr(got, str(want)))
		failf(r, "%s: \"%s\", want it to contain \"%s\"", what, got ? got : "(none)", str(want));
}

/* Every member named in want equals got's. */
static void expect_fields(run *r, const char *what, const json_t *want, const json_t *got)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)want, k, v)
	{
		json_t *g = json_object_get(got, k);
		if (!g) {
			failf(r, "%s.%s: absent", what, k);
		} else if (!json_equal(g, v)) {
			char *gs = json_dumps(g, JSON_ENCODE_ANY | JSON_COMPACT),
			     *ws = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
			failf(r, "%s.%s: %s, want %s", what, k, gs ? gs : "?", ws ? ws : "?");
			free(gs);
			free(ws);
		}
	}
}

/* The message and detail of each of a row's reasons and scheduler entries, each followed by "; ". */
static void reasons_text(const json_t *row, dsi_strbuf *b)
{
	static const char *const lists[] = {"reasons", "scheduler"};
	dsi_strbuf_puts(b, "");
	for (size_t l = 0; l < 2; l++) {
		size_t i;
		json_t *x;
		json_array_foreach(json_object_get(row, lists[l]), i, x)
		{
			const char *msg = member(x, "message"), *detail = member(x, "detail");
			dsi_strbuf_printf(b, "%s; %s; ", msg ? msg : "", detail ? detail : "");
		}
	}
}

static const json_t *row_of(const json_t *rows, const char *node)
{
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row)
	{
		if (same(member(row, "node"), node))
			return row;
	}
	return NULL;
}

/* ds_daemonset_explain's rows against the status sets, notPlaced and statuses. */
static int check_explain(run *r, const ds_cluster *c, const ref *d, const json_t *chk, const ds_options *o)
{
	char *text;
	if (ds_daemonset_explain(c, d->ns, d->name, o, &text, r->err) < 0)
		return -1;
	json_t *doc = parse_result(text), *rows = json_object_get(doc, "rows"), *by_status = json_object();
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row)
	{
		const char *st = member(row, "status"), *node = member(row, "node");
		if (!st || !node)
			continue;
		json_t *list = json_object_get(by_status, st);
		if (!list && json_object_set_new(by_status, st, list = json_array()) < 0)
			continue;
		json_array_append_new(list, json_string(node));
	}
	static const struct {
		const char *key, *status;
	} lists[] = {{"placed", "placed"},
		     {"create", "create"},
		     {"evict", "evict"},
		     {"kept", "kept"},
		     {"pending", "pending"},
		     {"unschedulable", "unschedulable"},
		     {"needsPreemption", "needs-preemption"}};
	json_t *empty = json_array();
	for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
		json_t *got = json_object_get(by_status, lists[k].status);
		expect_set(r, lists[k].key, json_object_get(chk, lists[k].key), got ? got : empty);
	}
	/* notPlaced: a set of nodes (or a count), or node -> a text one of the reasons must contain */
	json_t *np = json_object_get(chk, "notPlaced");
	if (np && !json_is_object(np)) {
		json_t *got = json_object_get(by_status, "not-placed");
		expect_set(r, "notPlaced", np, got ? got : empty);
	} else if (np) {
		const char *node;
		json_t *want;
		json_object_foreach(np, node, want)
		{
			const json_t *hit = row_of(rows, node);
			if (!hit) {
				failf(r, "notPlaced: no node %s", node);
				continue;
			}
			const char *st = member(hit, "status");
			if (!same(st, "not-placed"))
				failf(r, "notPlaced: %s is %s", node, st ? st : "(none)");
			dsi_strbuf b = DSI_STRBUF_INIT;
			reasons_text(hit, &b);
			const char *why = b.data ? b.data : "";
			if (json_is_string(want) && !strstr(why, str(want)))
				failf(r, "notPlaced: %s: reasons \"%s\" do not contain \"%s\"", node, why, str(want));
			dsi_strbuf_free(&b);
		}
	}
	const char *node;
	json_t *want;
	json_object_foreach(json_object_get(chk, "statuses"), node, want)
	{
		const char *got = member(row_of(rows, node), "status");
		if (!same(got, str(want)))
			failf(r, "statuses: %s is %s, want %s", node, got ? got : "absent", str(want));
	}
	json_decref(empty);
	json_decref(by_status);
	json_decref(doc);
	return 0;
}

static int check_should_run(run *r, const ds_cluster *c, const ref *d, const json_t *chk, const ds_options *o)
{
	int should_run, keep;
	if (ds_daemonset_should_run(c, d->ns, d->name, member(chk, "node"), o, &should_run, &keep, NULL, r->err) < 0)
		return -1;
	expect_bool(r, "shouldRun", json_object_get(chk, "shouldRun"), should_run);
	expect_bool(r, "shouldContinueRunning", json_object_get(chk, "shouldContinueRunning"), keep);
	return 0;
}

/* The members key of each element of list, as strings. */
static json_t *pluck(const json_t *list, const char *key)
{
	json_t *out = json_array();
	size_t i;
	json_t *x;
	json_array_foreach(list, i, x)
	{
		const char *s = member(x, key);
		if (s)
			json_array_append_new(out, json_string(s));
	}
	return out;
}

static int check_plan(run *r, const ds_cluster *c, const ref *d, const json_t *chk, ds_time now, const ds_options *o)
{
	ds_plan *p;
	if (ds_daemonset_plan(c, d->ns, d->name, now, o, NULL, 0, &p, r->err) < 0)
		return -1;
	char *text;
	int rc = ds_plan_to_json(p, &text, r->err);
	ds_plan_free(p);
	if (rc < 0)
		return -1;
	json_t *doc = parse_result(text);
	json_t *creates = pluck(json_object_get(doc, "creates"), "node");
	json_t *deletes = pluck(json_object_get(doc, "deletes"), "name");
	json_t *reasons = pluck(json_object_get(doc, "events"), "reason");
	expect_set(r, "creates", json_object_get(chk, "creates"), creates);
	expect_set(r, "deletes", json_object_get(chk, "deletes"), deletes);
	expect_set(r, "events", json_object_get(chk, "events"), reasons);
	if (json_object_get(chk, "status"))
		expect_fields(r, "status", json_object_get(chk, "status"), json_object_get(doc, "status"));
	expect_substring(r, "skipped", json_object_get(chk, "skipped"), member(doc, "skipped"));
	json_decref(creates);
	json_decref(deletes);
	json_decref(reasons);
	json_decref(doc);
	return 0;
}

static int check_status(run *r, const ds_cluster *c, const ref *d, const json_t *chk, ds_time now, const ds_options *o)
{
	ds_status st;
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	if (ds_daemonset_status(c, d->ns, d->name, now, o, &st, r->err) < 0)
		return -1;
	static const char *const counters[] = {
		"desiredNumberScheduled", "currentNumberScheduled", "numberMisscheduled", "numberReady",
		"updatedNumberScheduled", "numberAvailable",        "numberUnavailable"};
	const int32_t got[] = {
		st.desired_number_scheduled, st.current_number_scheduled, st.number_misscheduled, st.number_ready,
		st.updated_number_scheduled, st.number_available,         st.number_unavailable};
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		json_t *want = json_object_get(chk, counters[i]);
		if (want && json_integer_value(want) != got[i])
			failf(r, "status.%s: %ld, want %lld", counters[i], (long)got[i],
			      (long long)json_integer_value(want));
	}
	return 0;
}

static int check_pod(run *r, const ds_cluster *c, const ref *d, const json_t *chk, const ds_options *o)
{
	const char *node = member(chk, "node");
	char *text;
	if (ds_daemonset_pod(c, d->ns, d->name, node, o, &text, r->err) < 0)
		return -1;
	json_t *pod = parse_result(text), *spec = json_object_get(pod, "spec");
	json_t *labels = json_object_get(json_object_get(pod, "metadata"), "labels");
	if (json_object_get(chk, "labels"))
		expect_fields(r, "labels", json_object_get(chk, "labels"), labels);
	json_t *keys = json_array();
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(spec, "tolerations"), i, t)
	{
		const char *k = member(t, "key");
		json_array_append_new(keys, json_string(k ? k : ""));
	}
	json_array_foreach(json_object_get(chk, "tolerations"), i, t)
	{
		if (!contains(keys, str(t)))
			failf(r, "tolerations: no toleration for %s", str(t));
	}
	/* the node pin: exactly one required term, matchFields metadata.name In [node] */
	json_t *terms =
		json_object_get(json_object_get(json_object_get(json_object_get(spec, "affinity"), "nodeAffinity"),
						"requiredDuringSchedulingIgnoredDuringExecution"),
				"nodeSelectorTerms");
	json_t *pin =
		json_object_get(json_array_get(json_object_get(json_array_get(terms, 0), "matchFields"), 0), "values");
	if (json_array_size(terms) != 1 || !contains(pin, node))
		failf(r, "affinity: the pod is not pinned to %s", node);
	json_decref(keys);
	json_decref(pod);
	return 0;
}

static int check_rollout(run *r, const ds_cluster *c, const ref *d, const json_t *chk, ds_time now, const ds_options *o)
{
	char *text;
	if (ds_daemonset_rollout(c, d->ns, d->name, now, o, &text, r->err) < 0)
		return -1;
	json_t *doc = parse_result(text);
	expect_substring(r, "result", json_object_get(chk, "result"), member(doc, "result"));
	static const char *const nums[] = {"maxUnavailableSeen", "maxSurgeSeen", "updated",
					   "durationSeconds",    "creates",      "deletes"};
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		expect_number(r, nums[i], json_object_get(chk, nums[i]), json_object_get(doc, nums[i]));
	expect_bool(r, "budgetExceeded", json_object_get(chk, "budgetExceeded"),
		    json_is_true(json_object_get(doc, "budgetExceeded")));
	expect_substring(r, "stall", json_object_get(chk, "stall"), member(json_object_get(doc, "stall"), "reason"));
	json_decref(doc);
	return 0;
}

/* want is "namespace/name" or "name" */
static int same_pod(const json_t *p, const char *want)
{
	const char *ns = member(p, "namespace"), *name = member(p, "name");
	if (!name)
		return 0;
	const char *slash = strchr(want, '/');
	if (!slash)
		return strcmp(name, want) == 0;
	return ns && strlen(ns) == (size_t)(slash - want) && strncmp(ns, want, strlen(ns)) == 0 &&
	       strcmp(name, slash + 1) == 0;
}

static int check_drain(run *r, const ds_cluster *c, const char *node, const json_t *chk, ds_time now,
		       const ds_options *o)
{
	char *text;
	if (ds_node_drain(c, node, now, o, &text, r->err) < 0)
		return -1;
	json_t *doc = parse_result(text);
	expect_bool(r, "drained", json_object_get(chk, "drained"), json_is_true(json_object_get(doc, "drained")));
	expect_substring(r, "verdict", json_object_get(chk, "verdict"), member(doc, "verdict"));
	expect_substring(r, "error", json_object_get(chk, "error"), member(doc, "error"));
	expect_substring(r, "warning", json_object_get(chk, "warning"), member(doc, "warning"));
	const char *pod;
	json_t *want;
	json_object_foreach(json_object_get(chk, "outcomes"), pod, want)
	{
		const char *got = NULL;
		size_t i;
		json_t *p;
		json_array_foreach(json_object_get(doc, "pods"), i, p)
		{
			if (same_pod(p, pod))
				got = member(p, "outcome");
		}
		if (!same(got, str(want)))
			failf(r, "outcomes: %s is %s, want %s", pod, got ? got : "absent", str(want));
	}
	json_decref(doc);
	return 0;
}

static int check_audit(run *r, const ds_cluster *c, const ref *d, const json_t *chk, const ds_options *o)
{
	char *obj, *text;
	if (ds_cluster_get(c, "DaemonSet", d->ns, d->name, &obj, r->err) < 0)
		return -1;
	int rc = ds_object_audit(obj, strlen(obj), o, &text, r->err);
	ds_free(obj);
	if (rc < 0)
		return -1;
	json_t *doc = parse_result(text), *ids = pluck(json_object_get(doc, "findings"), "id");
	expect_substring(r, "level", json_object_get(chk, "level"), member(doc, "level"));
	expect_bool(r, "allowed", json_object_get(chk, "allowed"),
		    json_is_true(json_object_get(json_object_get(doc, "requested"), "allowed")));
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(chk, "findings"), i, f)
	{
		if (!contains(ids, str(f)))
			failf(r, "findings: no %s finding", str(f));
	}
	json_array_foreach(json_object_get(chk, "noFindings"), i, f)
	{
		if (contains(ids, str(f)))
			failf(r, "findings: unexpected %s finding", str(f));
	}
	json_decref(ids);
	json_decref(doc);
	return 0;
}

int dsi_scenario_check(const ds_cluster *c, const json_t *chk, ds_time now, const ds_options *o, json_t *failures,
		       ds_error *err)
{
	dsi_sc_kind kind = dsi_scenario_kind_of(chk);
	const char *target = member(chk, dsi_scenario_kind_name(kind));
	if (kind == DSI_SC_KINDS || !target)
		return dsi_error_set(err, DS_EARG, NULL, "not a well-formed check");
	run r = {failures, member(chk, "name"), err};
	ref d = {NULL, NULL};
	int rc = 0;
	if (kind != DSI_SC_DRAIN && split_ref(target, &d, err) < 0)
		rc = -1;
	else
		switch (kind) {
		case DSI_SC_EXPLAIN: rc = check_explain(&r, c, &d, chk, o); break;
		case DSI_SC_SHOULD_RUN: rc = check_should_run(&r, c, &d, chk, o); break;
		case DSI_SC_PLAN: rc = check_plan(&r, c, &d, chk, now, o); break;
		case DSI_SC_STATUS: rc = check_status(&r, c, &d, chk, now, o); break;
		case DSI_SC_POD: rc = check_pod(&r, c, &d, chk, o); break;
		case DSI_SC_ROLLOUT: rc = check_rollout(&r, c, &d, chk, now, o); break;
		case DSI_SC_DRAIN: rc = check_drain(&r, c, target, chk, now, o); break;
		case DSI_SC_AUDIT: rc = check_audit(&r, c, &d, chk, o); break;
		case DSI_SC_KINDS: break;
		}
	ref_free(&d);
	if (rc < 0) /* the function's error fails the check, in its own words */
		failf(&r, "%s: %s%s%s", ds_strerror(err->code), err->path, err->path[0] ? ": " : "", err->message);
	return 0;
}
