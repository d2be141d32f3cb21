/* Upstream's DaemonSet tests replayed over the fake cluster: the shared pieces (see replay.h). */
#include "replay.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* ---- facts about objects ---- */

static const json_t *at_path(const json_t *obj, const char *path)
{
	char p[256];
	snprintf(p, sizeof(p), "%s", path);
	const json_t *cur = obj;
	for (char *save = NULL, *t = strtok_r(p, ".", &save); t && cur; t = strtok_r(NULL, ".", &save))
		cur = json_object_get(cur, t);
	return cur;
}

const char *rp_str(const json_t *obj, const char *path) { return json_string_value(at_path(obj, path)); }

json_int_t rp_int(const json_t *obj, const char *path) { return json_integer_value(at_path(obj, path)); }

static const json_t *ready_condition(const json_t *pod)
{
	const json_t *conds = at_path(pod, "status.conditions");
	for (size_t i = 0; i < json_array_size(conds); i++) {
		const char *t = rp_str(json_array_get(conds, i), "type");
		if (t && !strcmp(t, "Ready"))
			return json_array_get(conds, i);
	}
	return NULL;
}

int rp_pod_ready(const json_t *pod)
{
	const char *st = rp_str(ready_condition(pod), "status");
	return st && !strcmp(st, "True");
}

int rp_pod_available(replay *r, const json_t *pod, json_int_t min_ready_seconds)
{
	if (!rp_pod_ready(pod))
		return 0;
	if (min_ready_seconds == 0)
		return 1;
	ds_time t;
	const char *since = rp_str(ready_condition(pod), "lastTransitionTime");
	return since && ds_time_parse(since, &t, NULL) == 0 && t + min_ready_seconds * 1000 < fake_now(r->api);
}

int rp_pod_terminal(const json_t *pod)
{
	const char *p = rp_str(pod, "status.phase");
	return p && (!strcmp(p, "Succeeded") || !strcmp(p, "Failed"));
}

int rp_controlled_by(const json_t *obj, const json_t *owner)
{
	const char *uid = fake_controller_uid(obj), *ouid = rp_str(owner, "metadata.uid");
	return uid && ouid && !strcmp(uid, ouid);
}

int rp_intn(replay *r, int n) { return (int)(dsi_test_rand(&r->rand) % (uint64_t)n); }

void rp_template_hash(const json_t *ds, char *out, size_t size)
{
	char *t = json_dumps(at_path(ds, "spec.template"), JSON_COMPACT);
	const json_t *cc = at_path(ds, "status.collisionCount");
	ds_error err;
	int rc = ds_template_hash(t, strlen(t), cc ? (int32_t)json_integer_value(cc) : -1, out, size, &err);
	free(t);
	ck_assert_msg(rc >= 0, "template hash: %s", err.message);
}

json_t *rp_cur_history(replay *r, const json_t *ds, const json_t *history)
{
	json_t *cur = NULL;
	int found = 0;
	size_t i;
	json_t *h;
	json_array_foreach(history, i, h)
	{
		if (!rp_str(h, "metadata.labels.controller-revision-hash"))
			rp_fail(r, "history %s has no controller-revision-hash label", rp_str(h, "metadata.name"));
		json_t *tmpl = json_deep_copy(at_path(h, "data.spec.template"));
		json_object_del(tmpl, "$patch");
		if (json_equal(tmpl, at_path(ds, "spec.template"))) { /* daemon.Match */
			cur = h;
			found++;
		}
		json_decref(tmpl);
	}
	if (found != 1)
		rp_fail(r, "%d histories match the DaemonSet's template, want 1", found);
	return cur;
}

json_t *rp_schedulable_nodes(replay *r, const json_t *ds)
{
	ds_cluster *c = NULL;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(r->opts, &c, &err), 0);
	json_t *objs = rp_list(r, "nodes", NULL, NULL, NULL);
	json_array_append(objs, (json_t *)ds);
	json_t *list = json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List", "items", objs);
	char *text = json_dumps(list, JSON_COMPACT);
	json_decref(list);
	ck_assert_msg(ds_cluster_load(c, text, strlen(text), NULL, &err) == 0, "load: %s", err.message);
	free(text);
	json_t *names = json_array();
	size_t i;
	json_t *n;
	json_array_foreach(objs, i, n)
	{
		if (strcmp(rp_str(n, "kind"), "Node"))
			continue;
		int run = 0;
		ck_assert_int_eq(ds_daemonset_should_run(c, rp_str(ds, "metadata.namespace"),
							 rp_str(ds, "metadata.name"), rp_str(n, "metadata.name"),
							 r->opts, &run, NULL, NULL, &err),
				 0);
		if (run)
			json_array_append_new(names, json_string(rp_str(n, "metadata.name")));
	}
	json_decref(objs);
	ds_cluster_free(c);
	return names;
}

/* ---- what upstream's tests take for granted ---- */

int rp_placement_holds(replay *r, void *arg, char *why, size_t size)
{
	const rp_placement *pl = arg;
	json_t *per_node = json_object();
	const char *k;
	json_t *pod;
	int doubled = 0;
	json_object_foreach((json_t *)fake_objects(r->api, "pods"), k, pod)
	{
		const char *node = fake_pod_node(pod), *owner = fake_controller_uid(pod);
		if (!node || !owner || rp_pod_terminal(pod) || rp_str(pod, "metadata.deletionTimestamp"))
			continue;
		if (pl->forbidden && (!pl->forbid || *pl->forbid) && !strcmp(node, pl->forbidden)) {
			snprintf(why, size, "pod %s is on %s, where the DaemonSet must not run",
				 rp_str(pod, "metadata.name"), node);
			json_decref(per_node);
			return 0;
		}
		char key[600];
		snprintf(key, sizeof(key), "%s %s", owner, node);
		json_int_t n = json_integer_value(json_object_get(per_node, key)) + 1;
		json_object_set_new(per_node, key, json_integer(n));
		if (n > 2) {
			snprintf(why, size, "%lld live pods on %s", (long long)n, node);
			json_decref(per_node);
			return 0;
		}
		doubled += n == 2;
	}
	json_decref(per_node);
	if (doubled > pl->max_surge) {
		snprintf(why, size, "%d nodes with two live pods, at most %d allowed", doubled, pl->max_surge);
		return 0;
	}
	return 1;
}

/* ---- the report ---- */

static void pod_line(FILE *f, const json_t *pod, ds_time now)
{
	const char *hash = rp_str(pod, "metadata.labels.controller-revision-hash");
	const char *image = rp_str(json_array_get(at_path(pod, "spec.containers"), 0), "image");
	const char *owner = NULL;
	const json_t *refs = at_path(pod, "metadata.ownerReferences");
	for (size_t i = 0; i < json_array_size(refs); i++)
		if (json_is_true(json_object_get(json_array_get(refs, i), "controller")))
			owner = rp_str(json_array_get(refs, i), "name");
	fprintf(f, "    %s/%s %s%s%s hash=%s image=%s owner=%s", rp_str(pod, "metadata.namespace"),
		rp_str(pod, "metadata.name"), rp_str(pod, "status.phase") ? rp_str(pod, "status.phase") : "-",
		rp_pod_ready(pod) ? " Ready" : "", rp_str(pod, "metadata.deletionTimestamp") ? " deleting" : "",
		hash ? hash : "-", image ? image : "-", owner ? owner : "-");
	const char *since = rp_str(ready_condition(pod), "lastTransitionTime");
	ds_time t;
	if (rp_pod_ready(pod) && since && ds_time_parse(since, &t, NULL) == 0)
		fprintf(f, " ready-for=%llds", (long long)((now - t) / 1000));
	fputc('\n', f);
}

static void print_json(FILE *f, const char *title, const json_t *v, size_t max)
{
	char *text = v ? json_dumps(v, JSON_INDENT(1) | JSON_COMPACT) : NULL;
	size_t len = text ? strlen(text) : 0;
	fprintf(f, "%s:\n%.*s%s\n", title, (int)(len > max ? max : len), text ? text : "(none)",
		len > max ? "\n..." : "");
	free(text);
}

/* The plan of each DaemonSet as the controller would make it now, from its own snapshot
 * (the pods to create without their bodies). */
static void plans(replay *r, FILE *f, ds_time now)
{
	const ds_cluster *c = ds_controller_cluster(r->host.ctrl);
	size_t n = c ? ds_cluster_count(c, "DaemonSet") : 0;
	for (size_t i = 0; i < n; i++) {
		const char *ns = NULL, *name = NULL;
		ds_plan *plan = NULL;
		char *text = NULL, title[300];
		ds_error err;
		if (ds_cluster_daemonset_at(c, i, &ns, &name, &err) < 0 ||
		    ds_daemonset_plan(c, ns, name, now, r->opts, NULL, 0, &plan, &err) < 0 ||
		    ds_plan_to_json(plan, &text, &err) < 0) {
			fprintf(f, "the controller's plan now: %s\n", err.message);
			ds_plan_free(plan);
			continue;
		}
		json_t *v = json_loads(text, 0, NULL);
		size_t j;
		json_t *cr;
		json_array_foreach(json_object_get(v, "creates"), j, cr) json_object_del(cr, "pod");
		snprintf(title, sizeof(title), "the controller's plan for %s/%s now, from its snapshot", ns, name);
		print_json(f, title, v, 6000);
		json_decref(v);
		ds_free(text);
		ds_plan_free(plan);
	}
}

void rp_report(replay *r, FILE *f)
{
	ds_time now = fake_now(r->api);
	char t[40];
	ds_time_format(now, t, sizeof(t));
	fprintf(f, "\n=== replay of %s\n", r->test);
	fprintf(f, "virtual time: +%.3fs (%s), after %ld steps\n", (double)(now - r->t0) / 1000.0, t, r->steps);
	fprintf(f, "step: %s%s%s\n", r->step[0] ? r->step : "(setup)", r->waiting ? "; waiting for " : "",
		r->waiting ? r->waiting : "");
	fprintf(f, "pods per node:\n");
	const json_t *pods = fake_objects(r->api, "pods");
	json_t *nodes = rp_list(r, "nodes", NULL, NULL, NULL);
	size_t i;
	json_t *n;
	json_array_foreach(nodes, i, n)
	{
		const char *name = rp_str(n, "metadata.name");
		fprintf(f, "  %s%s", name, json_is_true(at_path(n, "spec.unschedulable")) ? " (unschedulable)" : "");
		const json_t *taints = at_path(n, "spec.taints");
		for (size_t j = 0; j < json_array_size(taints); j++)
			fprintf(f, " taint=%s:%s", rp_str(json_array_get(taints, j), "key"),
				rp_str(json_array_get(taints, j), "effect"));
		fputc('\n', f);
		const char *k;
		json_t *p;
		json_object_foreach((json_t *)pods, k, p)
		{
			const char *on = rp_str(p, "spec.nodeName");
			if (on && !strcmp(on, name))
				pod_line(f, p, now);
		}
	}
	fprintf(f, "  (not bound)\n");
	const char *k;
	json_t *p;
	json_object_foreach((json_t *)pods, k, p) if (!rp_str(p, "spec.nodeName")) pod_line(f, p, now);
	json_decref(nodes);
	json_t *dss = rp_list(r, "daemonsets", NULL, NULL, NULL);
	json_array_foreach(dss, i, n)
	{
		char *st = json_dumps(json_object_get(n, "status"), JSON_COMPACT);
		fprintf(f, "daemonset %s/%s generation %lld: %s\n", rp_str(n, "metadata.namespace"),
			rp_str(n, "metadata.name"), (long long)rp_int(n, "metadata.generation"), st);
		free(st);
	}
	json_decref(dss);
	/* the last calls the syncs made, and the list-watch loop's state */
	size_t ncalls = json_array_size(r->host.calls), from = ncalls > 40 ? ncalls - 40 : 0;
	json_t *last = json_array();
	for (size_t c = from; c < ncalls; c++)
		json_array_append(last, json_array_get(r->host.calls, c));
	print_json(f, "the controller's last calls (its syncs')", last, 8000);
	json_decref(last);
	char *loop = NULL;
	ds_error err;
	json_t *lv = ds_controller_loop_status(r->host.ctrl, now, &loop, &err) == 0 ? json_loads(loop, 0, NULL) : NULL;
	ds_free(loop);
	print_json(f, "the controller's list-watch loop", lv, 4000);
	json_decref(lv);
	plans(r, f, now);
	if (r->host.error[0])
		fprintf(f, "the host's last problem: %s\n", r->host.error);
	fflush(f);
}

void rp_fail(replay *r, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->violation[0])
		fprintf(stderr, "%s", r->violation);
	rp_report(r, stderr);
	fprintf(stderr, "failure: %s\n", msg);
	ck_abort_msg("%s: %s (at +%.3fs, step: %s)", r->test, msg, (double)(fake_now(r->api) - r->t0) / 1000.0,
		     r->step);
	abort(); /* not reached */
}

/* ---- invariants ---- */

static void check_invariants(replay *r, int writes_only)
{
	if (r->in_check || r->violation[0])
		return;
	r->in_check = 1;
	for (int i = 0; i < r->ninv && !r->violation[0]; i++) {
		if (writes_only && !r->inv[i].every_write)
			continue;
		char why[2048] = "";
		if (r->inv[i].fn(r, r->inv[i].arg, why, sizeof(why)) == 1)
			continue;
		/* keep the report of this moment: the test fails at the end of the step */
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		fprintf(f, "=== invariant \"%s\" broken: %s\n", r->inv[i].name, why);
		rp_report(r, f);
		fclose(f);
		snprintf(r->violation, sizeof(r->violation), "%s", buf);
		free(buf);
	}
	r->in_check = 0;
}

static void on_write(void *ud, const char *type, const char *resource, const json_t *obj)
{
	replay *r = ud;
	if (getenv("DS_REPLAY_TRACE") && strcmp(resource, "events"))
		fprintf(stderr, "[+%.3fs] %s %s %s%s%s phase=%s ready=%d\n",
			(double)(fake_now(r->api) - r->t0) / 1000.0, type, resource, rp_str(obj, "metadata.name"),
			rp_str(obj, "metadata.deletionTimestamp") ? " deleting" : "",
			rp_str(obj, "spec.nodeName") ? "" : "",
			rp_str(obj, "status.phase") ? rp_str(obj, "status.phase") : "-", rp_pod_ready(obj));
	check_invariants(r, 1);
}

void rp_invariant(replay *r, const char *name, rp_cond fn, void *arg, int every_write)
{
	ck_assert_int_lt(r->ninv, RP_MAX_INVARIANTS);
	r->inv[r->ninv].name = name;
	r->inv[r->ninv].fn = fn;
	r->inv[r->ninv].arg = arg;
	r->inv[r->ninv].every_write = every_write;
	r->ninv++;
}

void rp_invariants_clear(replay *r) { r->ninv = 0; }

/* ---- the loop ---- */

/* DS_REPLAY_TRACE=1: every call the syncs made (and every write of the cluster) on stderr, with the
 * virtual time. */
static void trace_calls(replay *r)
{
	size_t n = json_array_size(r->host.calls);
	if (!getenv("DS_REPLAY_TRACE")) {
		r->traced = n;
		return;
	}
	for (; r->traced < n; r->traced++) {
		const json_t *c = json_array_get(r->host.calls, r->traced);
		const char *ns = rp_str(c, "namespace"), *name = rp_str(c, "name");
		fprintf(stderr, "[+%.3fs] sync call %s %s %s%s%s: %s\n",
			(double)(rp_int(c, "atMs") + FAKE_T0 - r->t0) / 1000.0, rp_str(c, "op"), rp_str(c, "resource"),
			ns ? ns : "", ns && name ? "/" : "", name ? name : "", rp_str(c, "result"));
	}
}

static void tick(replay *r, int64_t ms)
{
	r->steps++;
	if (fake_host_step(&r->host, ms) < 0)
		rp_fail(r, "the host: %s", r->host.error);
	trace_calls(r);
	check_invariants(r, 0);
	if (r->violation[0])
		rp_fail(r, "an invariant was broken (its report is above)");
}

void rp_run(replay *r, int64_t ms)
{
	ds_time until = fake_now(r->api) + ms;
	while (fake_now(r->api) < until) {
		int64_t left = until - fake_now(r->api);
		tick(r, left < r->step_ms ? left : r->step_ms);
	}
}

void rp_wait(replay *r, const char *what, int64_t poll_ms, int64_t timeout_ms, rp_cond cond, void *arg)
{
	ds_time start = fake_now(r->api), next = start;
	char why[2048] = "";
	r->waiting = what;
	for (;;) {
		ds_time now = fake_now(r->api);
		if (now >= next) {
			why[0] = '\0';
			int c = cond(r, arg, why, sizeof(why));
			if (c == 1) {
				r->waiting = NULL;
				return;
			}
			if (c < 0)
				rp_fail(r, "%s: %s", what, why);
			next += poll_ms;
			if (next <= now)
				next = now + poll_ms;
		}
		if (now - start >= timeout_ms)
			rp_fail(r, "timed out after %.1fs waiting for %s%s%s", (double)timeout_ms / 1000.0, what,
				why[0] ? ": " : "", why);
		int64_t dt = next - now < r->step_ms ? next - now : r->step_ms;
		tick(r, dt > 0 ? dt : 1);
	}
}

void rp_by(replay *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->step, sizeof(r->step), fmt, ap);
	va_end(ap);
}

void rp_start(replay *r, const char *test, const fake_options *fo, const char *options_json, const char *cluster_yaml)
{
	memset(r, 0, sizeof(*r));
	r->test = test;
	r->step_ms = 100;
	r->rand = 0x9e3779b97f4a7c15ull;
	r->api = fake_new(fo);
	ck_assert_ptr_nonnull(r->api);
	char why[512];
	if (cluster_yaml)
		ck_assert_msg(fake_load(r->api, cluster_yaml, strlen(cluster_yaml), why, sizeof(why)) == 0, "%s", why);
	r->opts = dsi_test_options(options_json);
	fake_observe(r->api, on_write, r);
	ck_assert_msg(fake_host_start(&r->host, r->api, r->opts, NULL) == 0, "%s", r->host.error);
	r->t0 = fake_now(r->api);
}

void rp_stop(replay *r)
{
	if (getenv("DS_REPLAY_REPORT")) /* the report of a replay that passed, on demand */
		rp_report(r, stderr);
	fake_host_stop(&r->host);
	fake_free(r->api);
	ds_options_free(r->opts);
	memset(r, 0, sizeof(*r));
}

/* ---- the tests' own calls ---- */

json_t *rp_expect(replay *r, int want, int code, char *out, const char *what)
{
	if (code != want) {
		char msg[1024];
		snprintf(msg, sizeof(msg), "%s: answered %d, want %d: %s", what, code, want, out ? out : "(no body)");
		free(out);
		rp_fail(r, "%s", msg);
	}
	json_t *v = out ? json_loads(out, 0, NULL) : NULL;
	free(out);
	return v;
}

json_t *rp_get(replay *r, const char *resource, const char *ns, const char *name)
{
	char *out = NULL;
	int code = fake_get(r->api, resource, ns, name, &out);
	if (code == 404) {
		free(out);
		return NULL;
	}
	return rp_expect(r, 200, code, out, "get");
}

json_t *rp_list(replay *r, const char *resource, const char *ns, const char *label_selector, const char *field_selector)
{
	char *out = NULL;
	fake_list_opts o = {label_selector, field_selector, 0, NULL};
	int code = fake_list(r->api, resource, ns, &o, &out);
	json_t *l = rp_expect(r, 200, code, out, "list");
	json_t *items = json_incref(json_object_get(l, "items"));
	json_decref(l);
	return items;
}

json_t *rp_create(replay *r, const char *resource, const char *ns, const json_t *obj)
{
	char *text = json_dumps(obj, JSON_COMPACT), *out = NULL;
	int code = fake_create(r->api, resource, ns, text, &out);
	free(text);
	return rp_expect(r, 201, code, out, "create");
}

json_t *rp_update(replay *r, const char *resource, const char *ns, const char *name, const char *subresource,
		  void (*mutate)(json_t *obj, void *arg), void *arg)
{
	for (int attempt = 0; attempt < 5; attempt++) { /* retry.DefaultBackoff: steps 4, then 5 */
		json_t *obj = rp_get(r, resource, ns, name);
		if (!obj)
			rp_fail(r, "update: %s %s/%s not found", resource, ns ? ns : "", name);
		mutate(obj, arg);
		char *text = json_dumps(obj, JSON_COMPACT), *out = NULL;
		json_decref(obj);
		int code = fake_update(r->api, resource, ns, name, subresource, text, &out);
		free(text);
		if (code == 409) {
			free(out);
			rp_run(r, 10);
			continue;
		}
		return rp_expect(r, 200, code, out, "update");
	}
	rp_fail(r, "update of %s %s: conflicts every time", resource, name);
}

json_t *rp_patch(replay *r, const char *resource, const char *ns, const char *name, const char *subresource,
		 const char *type, const char *body)
{
	char *out = NULL;
	int code = fake_patch(r->api, resource, ns, name, subresource, type, body, &out);
	return rp_expect(r, 200, code, out, "patch");
}

void rp_delete(replay *r, const char *resource, const char *ns, const char *name, const char *options)
{
	char *out = NULL;
	int code = fake_delete(r->api, resource, ns, name, options, &out);
	json_decref(rp_expect(r, 200, code, out, "delete"));
}
