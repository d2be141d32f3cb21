/*
 * kube-scheduler's filter-plugin tables, replayed against lib/sched/fit.h and
 * lib/sched/nodeaffinity.h: tests/vectors/upstream/node_unschedulable.json,
 * taint_toleration_filter.json, node_ports.json, scheduler_fit.json and
 * node_affinity_plugin.json.
 *
 * Each Filter row becomes a snapshot holding the node and the pods already on
 * it; the row's pod is read outside the snapshot (into a copy of its atom
 * table, so ids agree) and dsi_run_filters runs every filter. The row's
 * plugin must give upstream's code and reasons, and no other plugin may fail:
 * upstream's unit tests run one plugin alone, so fixtures that do not say are
 * completed with what keeps the other filters quiet (a node without
 * status.allocatable gets pods: 110; a node without a name is "node", or the
 * nodeName its pods carry). A plugin's code is UnschedulableAndUnresolvable
 * when dsi_fit.unresolvable is set, else Unschedulable. PreFilter has no
 * library counterpart except NodePorts' Skip (no host port asked for).
 *
 * The public ds_fit reads the pod into an overlay of the snapshot's atoms
 * instead; it replays the NodeResourcesFit and NodePorts rows as well, once
 * overlays resolve their own strings (see overlay_probe), and checks the
 * "field" each of its reasons names.
 *
 * Rows with featureGates (TestRestartableInitContainers: SidecarContainers)
 * read the pod, and call ds_fit, with those gates over upstream's defaults.
 */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <stdlib.h>
#include <string.h>

#include "api/api_options.h"
#include "harness.h"
#include "sched/cycle.h"
#include "sched/fit.h"
#include "sched/nodeaffinity.h"
#include "vectors.h"

/* Cases that fail because of a library bug, with the reason. */
static const vt_entry known_none[] = {
	{NULL, NULL},
};

/* scheduler_fit.json rows the library gets wrong: none. */
static const vt_entry fit_known[] = {
	{NULL, NULL},
};

/* Rows whose subject the library does not model. */
static const vt_entry skips[] = {
	{"TaintToleration.PreScore+Score+NormalizeScore", "the library has no TaintToleration scoring (intolerable "
							  "PreferNoSchedule counts); DaemonSet pods are pinned to "
							  "their node, so scoring never decides their placement"},
	{"args.addedAffinity", "NodeAffinityArgs.addedAffinity is kube-scheduler profile configuration; the library "
			       "models the default profile, which has none"},
	{"args.ignoredResources", "NodeResourcesFitArgs.ignoredResources / ignoredResourceGroups are kube-scheduler "
				  "profile configuration; the library models the default profile, which ignores none"},
	{NULL, NULL},
};

/*
 * Expectations of scheduler_fit.json that the current upstream no longer has.
 * The vectors were ported from fit_test.go at commit 24fbb13e, where the Filter
 * status was always Unschedulable. Upstream's fit.go now marks an insufficient
 * resource Unresolvable when the pod's request exceeds the node's allocatable
 * (preemption cannot help), and Filter then returns UnschedulableAndUnresolvable;
 * fit_test.go TestEnoughRequests expects exactly that for these rows (kubernetes/
 * kubernetes pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest,
 * fit_test.go index id 789199930). The library follows current upstream.
 */
#define UNRESOLVABLE "requested > allocatable: UnschedulableAndUnresolvable in current fit.go fitsRequest"
static const vt_entry fit_corrections[] = {
	{"storage ephemeral local storage request exceeds allocatable", UNRESOLVABLE},
	{"extended resource capacity enforced", UNRESOLVABLE},
	{"extended resource capacity enforced for init container", UNRESOLVABLE},
	{"extended resource allocatable enforced for multiple containers", UNRESOLVABLE},
	{"extended resource allocatable enforced for multiple init containers", UNRESOLVABLE},
	{"extended resource allocatable enforced for unknown resource", UNRESOLVABLE},
	{"extended resource allocatable enforced for unknown resource for init container", UNRESOLVABLE},
	{"kubernetes.io resource capacity enforced", UNRESOLVABLE},
	{"kubernetes.io resource capacity enforced for init container", UNRESOLVABLE},
	{"hugepages resource capacity enforced", UNRESOLVABLE},
	{"hugepages resource capacity enforced for init container", UNRESOLVABLE},
	{"hugepages resource allocatable enforced for multiple containers", UNRESOLVABLE},
	{NULL, NULL},
};

/* ---- fixtures ------------------------------------------------------------------ */

typedef struct fx {
	ds_cluster *c;
	dsi_atoms atoms; /* for the pod under test: a copy of the snapshot's (same ids), see overlay_probe */
	dsi_podspec spec;
	int have_spec;
} fx;

static json_t *node_fixture(const json_t *node, const char *default_name)
{
	json_t *n = node ? vt_with_meta(node, default_name, NULL, NULL)
			 : json_pack("{s:s, s:s, s:{s:s}}", "apiVersion", "v1", "kind", "Node", "metadata", "name",
				     default_name);
	json_t *status = json_object_get(n, "status");
	if (!json_is_object(status)) {
		status = json_object();
		json_object_set_new(n, "status", status);
	}
	if (!json_object_get(status, "allocatable"))
		json_object_set_new(status, "allocatable", json_pack("{s:s}", "pods", "110"));
	return n;
}

/* A snapshot of nodes and existing pods (bound to pods_node when they name none),
 * and the pod under test read from pod (may be NULL). */
static char *fx_init(fx *f, const json_t *pod, const json_t *nodes, const json_t *existing, const char *pods_node,
		     unsigned gates)
{
	memset(f, 0, sizeof(*f));
	json_t *objs = json_array();
	size_t i;
	json_t *v;
	json_array_foreach(nodes, i, v) { json_array_append(objs, v); }
	json_array_foreach(existing, i, v)
	{
		char name[32], uid[40];
		snprintf(name, sizeof(name), "existing-%zu", i);
		snprintf(uid, sizeof(uid), "existing-%zu-uid", i);
		json_t *p = vt_with_meta(v, name, "default", uid);
		json_t *spec = json_object_get(p, "spec");
		if (!json_is_object(spec)) {
			spec = json_object();
			json_object_set_new(p, "spec", spec);
		}
		if (!*vt_str(spec, "nodeName"))
			json_object_set_new(spec, "nodeName", json_string(pods_node));
		json_array_append_new(objs, p);
	}
	f->c = vt_cluster(objs, NULL);
	json_decref(objs);
	ck_assert_int_eq(dsi_atoms_copy(&f->atoms, &f->c->atoms), 0);
	if (!pod)
		return NULL;
	ds_error err;
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	size_t m = dsi_rd_push(&rd, "spec");
	int rc = dsi_podspec_read(&rd, &f->atoms, json_object_get(pod, "spec"), DSI_PODSPEC_PLACEMENT, gates, &f->spec);
	dsi_rd_pop(&rd, m);
	if (rc < 0)
		return vt_fmt("the reader refused the pod: %s: %s", err.path, err.message);
	f->have_spec = 1;
	return NULL;
}

static void fx_free(fx *f)
{
	if (f->have_spec)
		dsi_podspec_release(&f->atoms, &f->spec);
	dsi_atoms_free(&f->atoms);
	ds_cluster_free(f->c);
}

/* The row's options: upstream's defaults with the row's featureGates set
 * (NULL, the defaults, when it has none). Freed with ds_options_free. */
static ds_options *case_opts(const json_t *cs)
{
	const json_t *gates = json_object_get(cs, "featureGates");
	if (!json_object_size(gates))
		return NULL;
	ds_options *o;
	ck_assert_int_eq(ds_options_new(&o), 0);
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)gates, k, v)
	{
		ck_assert_msg(json_is_boolean(v), "featureGates.%s is not a boolean", k);
		char *kv = vt_fmt("%s=%s", k, json_is_true(v) ? "true" : "false");
		ds_error err;
		ck_assert_msg(ds_options_set(o, "featureGates", kv, &err) == 0, "%s: %s", kv, err.message);
		free(kv);
	}
	return o;
}

static unsigned case_gates(const json_t *cs)
{
	ds_options *o = case_opts(cs);
	unsigned g = dsi_o_core(o)->gates;
	ds_options_free(o);
	return g;
}

/* ---- filters --------------------------------------------------------------------- */

/* Two lists of strings are equal; a missing list (NULL) is the empty one. */
static int same_list(const json_t *got, const json_t *want)
{
	if (!want)
		return json_array_size(got) == 0;
	return json_equal(got, want);
}

/* The resource an InsufficientResource reason names ("Insufficient cpu" -> cpu). */
static const char *resource_of(const char *reason)
{
	if (strcmp(reason, "Too many pods") == 0)
		return "pods";
	return strncmp(reason, "Insufficient ", 13) == 0 ? reason + 13 : reason;
}

static int cmp_gate(void)
{
	return dsi_gate(dsi_core_options_default(), DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS);
}

/* Run every filter for the pod on node; check plugin's code, reasons and (for
 * NodeResourcesFit) insufficient resources against expect. */
static char *check_filter(fx *f, const dsi_node *node, const char *plugin, const json_t *expect)
{
	dsi_node_usage u;
	ck_assert_int_eq(dsi_node_usage_init(f->c, node, NULL, NULL, &u), 0);
	static const dsi_labels none = {NULL, 0};
	dsi_cycle cy;
	dsi_sched_pod sp = {&f->atoms,
			    DSI_ATOM_NONE,
			    &none,
			    &f->spec,
			    &f->spec.tolerations,
			    cmp_gate(),
			    0,
			    DSI_ATOM_NONE,
			    DSI_ATOM_NONE,
			    1,
			    dsi_core_options_default()->gates};
	ck_assert_int_eq(dsi_cycle_init(&cy, f->c, &sp, NULL, NULL), 0);
	dsi_fit fit;
	dsi_run_filters(f->c, &f->atoms, &f->spec, &f->spec.tolerations, cmp_gate(), node, &u, &cy, &fit);
	dsi_cycle_release(&cy);
	dsi_node_usage_release(&u);
	json_t *reasons = json_array(), *others = json_array(), *insufficient = json_array();
	for (uint32_t i = 0; i < fit.n; i++) {
		const dsi_fit_reason *r = &fit.reasons[i];
		if (strcmp(r->plugin, plugin) != 0) {
			json_array_append_new(others, json_sprintf("%s: %s", r->plugin, r->message));
			continue;
		}
		json_array_append_new(reasons, json_string(r->message));
		json_array_append_new(insufficient,
				      json_pack("{s:s, s:s, s:I, s:I, s:I}", "resourceName", resource_of(r->message),
						"reason", r->message, "requested", (json_int_t)r->requested, "used",
						(json_int_t)r->used, "capacity", (json_int_t)r->capacity));
	}
	const char *code = !json_array_size(reasons) ? "Success"
			   : fit.unresolvable        ? "UnschedulableAndUnresolvable"
						     : "Unschedulable";
	json_t *want_reasons = json_object_get(expect, "reasons");
	json_t *want_ir = json_object_get(expect, "insufficientResources");
	char *bad = NULL;
	if (json_array_size(others)) {
		char *o = vt_dump(others);
		bad = vt_fmt("other plugins failed too: %s", o);
		free(o);
	} else if (strcmp(code, vt_str(expect, "code")) != 0 || !same_list(reasons, want_reasons)) {
		char *g = vt_dump(reasons), *w = vt_dump(want_reasons);
		bad = vt_fmt("%s %s, upstream %s %s", code, g, vt_str(expect, "code"), w);
		free(g);
		free(w);
	} else if (want_ir && strcmp(plugin, "NodeResourcesFit") == 0 && !json_equal(insufficient, want_ir)) {
		char *g = vt_dump(insufficient), *w = vt_dump(want_ir);
		bad = vt_fmt("insufficient resources %s, upstream %s", g, w);
		free(g);
		free(w);
	}
	json_decref(reasons);
	json_decref(others);
	json_decref(insufficient);
	return bad;
}

/* A Filter row: one pod, one node (or none: a default one), existing pods. */
static char *filter_case(const json_t *cs, const char *plugin, const json_t *expect)
{
	const json_t *existing = json_object_get(cs, "existingPods");
	const char *default_name = "node";
	json_t *first = json_array_get(existing, 0);
	if (*vt_str(json_object_get(first, "spec"), "nodeName"))
		default_name = vt_str(json_object_get(first, "spec"), "nodeName");
	const json_t *jnode = json_object_get(cs, "node");
	/* a default name would take part in matchFields: no such fixture may rely on it */
	if (jnode && !*vt_str(json_object_get(jnode, "metadata"), "name")) {
		char *pod = vt_dump(json_object_get(cs, "pod"));
		ck_assert_msg(!strstr(pod, "matchFields"), "%s: an unnamed node against matchFields",
			      vt_str(cs, "name"));
		free(pod);
	}
	json_t *node = node_fixture(jnode, default_name);
	json_t *nodes = json_pack("[O]", node);
	fx f;
	char *bad = fx_init(&f, json_object_get(cs, "pod"), nodes, existing, default_name, case_gates(cs));
	if (!bad) {
		const dsi_node *n = dsi_cluster_node_by_name(f.c, vt_str(json_object_get(node, "metadata"), "name"));
		ck_assert_ptr_nonnull(n);
		bad = check_filter(&f, n, plugin, expect);
	}
	fx_free(&f);
	json_decref(node);
	json_decref(nodes);
	return bad;
}

/* ---- per file ---------------------------------------------------------------------- */

typedef char *(*case_fn)(const json_t *cs, vt_run *r);

static void run_file(const char *file, const char *label, const vt_entry *known, case_fn fn, unsigned want_skipped)
{
	json_t *doc = vt_load(file);
	json_t *cs;
	size_t i;
	vt_run r;
	vt_begin(&r, label ? label : file, known);
	json_array_foreach(vt_cases(doc), i, cs)
	{
		unsigned before = r.skipped;
		char *bad = fn(cs, &r);
		if (r.skipped == before)
			vt_record(&r, vt_str(cs, "name"), bad);
		else
			ck_assert_ptr_null(bad);
	}
	ck_assert_uint_eq(r.skipped, want_skipped);
	vt_end(&r);
	json_decref(doc);
}

static char *unschedulable_case(const json_t *cs, vt_run *r)
{
	(void)r;
	ck_assert_str_eq(vt_str(cs, "function"), "NodeUnschedulable.Filter");
	return filter_case(cs, "NodeUnschedulable", json_object_get(cs, "expect"));
}

START_TEST(node_unschedulable_json) { run_file("node_unschedulable.json", NULL, known_none, unschedulable_case, 0); }
END_TEST

static char *taint_case(const json_t *cs, vt_run *r)
{
	const char *fn = vt_str(cs, "function");
	const vt_entry *skip = vt_find(skips, fn);
	if (skip) {
		vt_skip(r, vt_str(cs, "name"), skip->reason);
		return NULL;
	}
	ck_assert_str_eq(fn, "TaintToleration.Filter");
	return filter_case(cs, "TaintToleration", json_object_get(cs, "expect"));
}

START_TEST(taint_toleration_filter_json) { run_file("taint_toleration_filter.json", NULL, known_none, taint_case, 5); }
END_TEST

/* getContainerPorts: the library keeps a pod's host ports (hostIP, hostPort,
 * protocol) in container order; containerPort plays no part in conflicts and
 * is not kept, so the rows are compared on hostPort and protocol. */
static char *container_ports(const json_t *cs)
{
	json_t *got = json_array();
	size_t i;
	json_t *p;
	char *bad = NULL;
	json_array_foreach(json_object_get(cs, "pods"), i, p)
	{
		fx f;
		bad = fx_init(&f, p, NULL, NULL, "node", case_gates(cs));
		for (uint32_t k = 0; !bad && k < f.spec.nports; k++) {
			const dsi_host_port *hp = &f.spec.ports[k];
			static const char *const protos[] = {"TCP", "UDP", "SCTP"};
			json_array_append_new(
				got, json_pack("{s:i, s:s}", "hostPort", (int)hp->port, "protocol", protos[hp->proto]));
		}
		fx_free(&f);
		if (bad)
			break;
	}
	json_t *want = json_array();
	json_array_foreach(json_object_get(json_object_get(cs, "expect"), "ports"), i, p)
		json_array_append_new(want, json_pack("{s:O, s:O}", "hostPort", json_object_get(p, "hostPort"),
						      "protocol", json_object_get(p, "protocol")));
	if (!bad && !json_equal(got, want)) {
		char *g = vt_dump(got), *w = vt_dump(want);
		bad = vt_fmt("ports %s, upstream %s", g, w);
		free(g);
		free(w);
	}
	json_decref(got);
	json_decref(want);
	return bad;
}

static char *ports_case(const json_t *cs, vt_run *r)
{
	(void)r;
	if (strcmp(vt_str(cs, "function"), "getContainerPorts") == 0)
		return container_ports(cs);
	ck_assert_str_eq(vt_str(cs, "function"), "NodePorts.PreFilter+Filter");
	const json_t *expect = json_object_get(cs, "expect");
	/* PreFilter: Skip exactly when the pod asks for no host port */
	fx f;
	char *bad = fx_init(&f, json_object_get(cs, "pod"), NULL, NULL, "node", case_gates(cs));
	const char *pre = !bad && f.spec.nports ? "Success" : "Skip";
	fx_free(&f);
	if (bad)
		return bad;
	if (strcmp(pre, vt_str(expect, "preFilter")) != 0)
		return vt_fmt("PreFilter %s (%u host ports), upstream %s", pre, f.spec.nports,
			      vt_str(expect, "preFilter"));
	if (strcmp(pre, "Skip") == 0)
		return NULL;
	return filter_case(cs, "NodePorts", expect);
}

START_TEST(node_ports_json) { run_file("node_ports.json", NULL, known_none, ports_case, 0); }
END_TEST

/*
 * What the library must say for a NodeResourcesFit row (a new reference). The
 * library has no PreFilter: when upstream's PreFilter fails, Filter never runs
 * and the PreFilter status is the pod's verdict for the node, so that status
 * is the expectation; otherwise the Filter's, with fit_corrections applied.
 */
static json_t *fit_expect(const json_t *cs)
{
	const json_t *given = json_object_get(cs, "expect");
	const json_t *pre = json_object_get(given, "preFilter");
	ck_assert_msg(!pre || json_is_object(pre) || strcmp(json_string_value(pre), "Success") == 0, "%s: preFilter",
		      vt_str(cs, "name"));
	json_t *expect = json_deep_copy(json_is_object(pre) ? pre : given);
	if (vt_find(fit_corrections, vt_str(cs, "name"))) {
		/* the correction must still be one: the vector says Unschedulable */
		ck_assert_msg(strcmp(vt_str(expect, "code"), "Unschedulable") == 0,
			      "%s: the vector now says %s: drop its correction", vt_str(cs, "name"),
			      vt_str(expect, "code"));
		json_object_set_new(expect, "code", json_string("UnschedulableAndUnresolvable"));
	}
	return expect;
}

static char *fit_case(const json_t *cs, vt_run *r)
{
	ck_assert_str_eq(vt_str(cs, "function"), "NodeResourcesFit.PreFilter+Filter");
	if (json_object_size(json_object_get(cs, "args"))) {
		vt_skip(r, vt_str(cs, "name"), vt_find(skips, "args.ignoredResources")->reason);
		return NULL;
	}
	json_t *expect = fit_expect(cs);
	char *bad = filter_case(cs, "NodeResourcesFit", expect);
	json_decref(expect);
	return bad;
}

START_TEST(scheduler_fit_json)
{
	run_file("scheduler_fit.json", NULL, fit_known, fit_case, 2);
	/* every correction names a row */
	json_t *doc = vt_load("scheduler_fit.json");
	for (const vt_entry *e = fit_corrections; e->name; e++) {
		int found = 0;
		size_t i;
		json_t *cs;
		json_array_foreach(vt_cases(doc), i, cs) { found |= strcmp(vt_str(cs, "name"), e->name) == 0; }
		ck_assert_msg(found, "correction for a row that does not exist: %s", e->name);
	}
	json_decref(doc);
}
END_TEST

/* NodeAffinity PreScore + Score + NormalizeScore over the row's nodes. */
static char *affinity_score(const json_t *cs)
{
	const json_t *expect = json_object_get(cs, "expect");
	json_t *nodes = json_array();
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(cs, "nodes"), i, n)
	{
		json_array_append_new(nodes, node_fixture(n, "node"));
	}
	fx f;
	char *bad = fx_init(&f, json_object_get(cs, "pod"), nodes, NULL, "node", case_gates(cs));
	json_decref(nodes);
	if (bad) {
		fx_free(&f);
		return bad;
	}
	size_t nn = json_array_size(json_object_get(cs, "nodes"));
	int64_t *raw = calloc(nn + 1, sizeof(int64_t)), max = 0;
	const char *pre = f.spec.preferred.present ? "Success" : "Skip";
	json_array_foreach(json_object_get(cs, "nodes"), i, n)
	{
		const dsi_node *node = dsi_cluster_node_by_name(f.c, vt_str(json_object_get(n, "metadata"), "name"));
		ck_assert_ptr_nonnull(node);
		raw[i] = dsi_preferred_score(&f.atoms, &f.spec.preferred, node);
		if (raw[i] < 0)
			pre = "Error";
		if (raw[i] > max)
			max = raw[i];
	}
	const json_t *want_pre = json_object_get(expect, "preScore");
	if (json_is_true(json_object_get(cs, "runPreScore")) && strcmp(pre, vt_str(want_pre, "code")) != 0) {
		bad = vt_fmt("PreScore %s, upstream %s", pre, vt_str(want_pre, "code"));
	} else if (strcmp(pre, "Error") == 0) {
		/* upstream's message names the field from the preferred list on
		 * ("[0].matchExpressions[0].key"); the library's term error names its
		 * JSON path, which also spells the preference member */
		const char *msg = vt_str(want_pre, "message");
		ck_assert_msg(msg[0] == '[', "message %s", msg);
		const char *close = strchr(msg, ']');
		ck_assert_ptr_nonnull(close);
		char *want = vt_fmt(
			"spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution%.*s.preference%s",
			(int)(close + 1 - msg), msg, close + 1);
		unsigned idx = (unsigned)strtoul(msg + 1, NULL, 10);
		const char *got = idx < f.spec.preferred.n && f.spec.preferred.terms[idx].error
					  ? f.spec.preferred.terms[idx].error
					  : "";
		if (strcmp(got, want) != 0)
			bad = vt_fmt("PreScore error \"%s\", upstream \"%s\" (at the library's path)", got, want);
		free(want);
	} else if (strcmp(pre, "Skip") != 0 || !json_is_true(json_object_get(cs, "runPreScore"))) {
		json_t *got = json_array();
		json_array_foreach(json_object_get(cs, "nodes"), i, n) json_array_append_new(
			got, json_pack("{s:s, s:I}", "name", vt_str(json_object_get(n, "metadata"), "name"), "score",
				       (json_int_t)(max ? 100 * raw[i] / max : 0)));
		if (!json_equal(got, json_object_get(expect, "scores"))) {
			char *g = vt_dump(got), *w = vt_dump(json_object_get(expect, "scores"));
			bad = vt_fmt("scores %s, upstream %s", g, w);
			free(g);
			free(w);
		}
		json_decref(got);
	}
	free(raw);
	fx_free(&f);
	return bad;
}

static char *affinity_case(const json_t *cs, vt_run *r)
{
	const char *fn = vt_str(cs, "function");
	if (json_object_get(json_object_get(cs, "args"), "addedAffinity")) {
		vt_skip(r, vt_str(cs, "name"), vt_find(skips, "args.addedAffinity")->reason);
		return NULL;
	}
	if (strcmp(fn, "NodeAffinity.PreScore+Score+NormalizeScore") == 0)
		return affinity_score(cs);
	ck_assert_str_eq(fn, "NodeAffinity.PreFilter+Filter");
	/* PreFilter (Skip, the node-name narrowing, the conflict status) has no
	 * library counterpart: the Filter verdict is what these rows check */
	return filter_case(cs, "NodeAffinity", json_object_get(cs, "expect"));
}

START_TEST(node_affinity_plugin_json) { run_file("node_affinity_plugin.json", NULL, known_none, affinity_case, 5); }
END_TEST

/* ---- the public ds_fit ------------------------------------------------------------ */

/* An overlay's own atoms must read back as the strings interned (ds_fit,
 * the planner, drain and upgrade read pods into overlays). */
static char *overlay_probe(void)
{
	dsi_atoms parent, ov;
	dsi_atoms_init(&parent);
	ck_assert_uint_ne(dsi_atom_intern_cstr(&parent, "in-parent"), DSI_ATOM_ERROR);
	dsi_atoms_init_overlay(&ov, &parent);
	dsi_atom a = dsi_atom_intern_cstr(&ov, "first-new"), b = dsi_atom_intern_cstr(&ov, "second-new");
	ck_assert(a != DSI_ATOM_ERROR && b != DSI_ATOM_ERROR && a != b);
	/* b first: with the bug, a's slot is the unused entry 0 and reads as NULL */
	const char *sb = dsi_atom_str(&ov, b);
	char *bad = NULL;
	if (!sb || strcmp(sb, "second-new") != 0 || dsi_atom_len(&ov, b) != 10)
		bad = vt_fmt("the overlay's atom for \"second-new\" reads as \"%s\"", sb ? sb : "(null)");
	else if (!dsi_atom_str(&ov, a) || strcmp(dsi_atom_str(&ov, a), "first-new") != 0)
		bad = vt_fmt("the overlay's atom for \"first-new\" reads as \"%s\"",
			     dsi_atom_str(&ov, a) ? dsi_atom_str(&ov, a) : "(null)");
	dsi_atoms_free(&ov);
	dsi_atoms_free(&parent);
	return bad;
}

#define OVERLAY "overlay atoms resolve their own strings"

/* The field of the pod ds_fit must name for a reason (lib/api/placement.c reason_json). */
static const char *fit_field(const char *plugin, const char *message)
{
	if (strcmp(plugin, "NodeResourcesFit") == 0 && strstr(message, "restartable init container"))
		return "spec.initContainers[*].restartPolicy"; /* the PreFilter's refusal */
	if (strcmp(plugin, "NodeResourcesFit") == 0)
		return strcmp(message, "Too many pods") == 0 ? "spec" : "spec.containers[*].resources.requests";
	if (strcmp(plugin, "NodePorts") == 0)
		return "spec.containers[*].ports";
	return NULL; /* the rows replayed here fail no other plugin */
}

/*
 * ds_fit's preemption note for a pod of priority 0 that does not fit where
 * every pod has priority 0. Preempt (scheduler framework/preemption/
 * preemption.go) only tries nodes that failed Unschedulable; an Unresolvable
 * node gets "Preemption is not helpful for scheduling". On an Unschedulable
 * node SelectVictimsOnNode finds no pod of lower priority (derived, not
 * asserted by these upstream tables).
 */
static json_t *want_preemption(const char *code)
{
	return json_pack("{s:b, s:[], s:i, s:s}", "possible", 0, "victims", "pdbViolations", 0, "message",
			 strcmp(code, "UnschedulableAndUnresolvable") == 0
				 ? "Preemption is not helpful for scheduling"
				 : "No preemption victims found for incoming pod");
}

/* One Filter row through ds_fit (with the row's gates): fits, reasons in order
 * with their fields, for resources the numbers, and the preemption note. */
static char *ds_fit_row(const json_t *cs, const json_t *expect)
{
	const json_t *existing = json_object_get(cs, "existingPods");
	const char *node_name = "node";
	json_t *first = json_array_get(existing, 0);
	if (*vt_str(json_object_get(first, "spec"), "nodeName"))
		node_name = vt_str(json_object_get(first, "spec"), "nodeName");
	json_t *node = node_fixture(json_object_get(cs, "node"), node_name);
	json_t *nodes = json_pack("[O]", node);
	fx f;
	char *bad = fx_init(&f, NULL, nodes, existing, node_name, 0);
	char *pod = vt_dump(json_object_get(cs, "pod")), *out = NULL;
	ds_error err;
	ds_options *opts = case_opts(cs);
	if (!bad &&
	    ds_fit(f.c, pod, strlen(pod), vt_str(json_object_get(node, "metadata"), "name"), opts, &out, &err) < 0)
		bad = vt_fmt("ds_fit: %s: %s", err.path, err.message);
	ds_options_free(opts);
	if (!bad) {
		json_t *doc = json_loads(out, 0, NULL);
		ck_assert_ptr_nonnull(doc);
		json_t *msgs = json_array(), *ir = json_array();
		size_t i;
		json_t *r;
		const char *wrong_field = NULL;
		json_array_foreach(json_object_get(doc, "reasons"), i, r)
		{
			json_array_append(msgs, json_object_get(r, "message"));
			const char *want_f = fit_field(vt_str(r, "plugin"), vt_str(r, "message"));
			if (!wrong_field && (!want_f || strcmp(vt_str(r, "field"), want_f) != 0))
				wrong_field = vt_str(r, "message");
			const json_t *res = json_object_get(r, "resource");
			const char *m = vt_str(r, "message");
			if (res)
				json_array_append_new(ir, json_pack("{s:s, s:s, s:O, s:O, s:O}", "resourceName",
								    resource_of(m), "reason", m, "requested",
								    json_object_get(res, "requested"), "used",
								    json_object_get(res, "used"), "capacity",
								    json_object_get(res, "allocatable")));
		}
		const json_t *want_r = json_object_get(expect, "reasons"),
			     *want_ir = json_object_get(expect, "insufficientResources");
		int want_fits = strcmp(vt_str(expect, "code"), "Success") == 0;
		json_t *want_pre = want_fits ? NULL : want_preemption(vt_str(expect, "code"));
		if (json_is_true(json_object_get(doc, "fits")) != want_fits || !same_list(msgs, want_r) ||
		    (want_ir && !json_equal(ir, want_ir))) {
			char *w = vt_dump(expect);
			bad = vt_fmt("ds_fit says %s; upstream %s", out, w);
			free(w);
		} else if (wrong_field) {
			bad = vt_fmt("ds_fit names the wrong field for \"%s\": %s", wrong_field, out);
		} else if (want_pre ? !json_equal(json_object_get(doc, "preemption"), want_pre)
				    : json_object_get(doc, "preemption") != NULL) {
			char *w = vt_dump(want_pre);
			bad = vt_fmt("ds_fit's preemption: %s; expected %s", out, w ? w : "none");
			free(w);
		}
		json_decref(want_pre);
		json_decref(msgs);
		json_decref(ir);
		json_decref(doc);
	}
	ds_free(out);
	free(pod);
	fx_free(&f);
	json_decref(node);
	json_decref(nodes);
	return bad;
}

static char *ds_fit_case(const json_t *cs, vt_run *r)
{
	const char *fn = vt_str(cs, "function");
	if (json_object_size(json_object_get(cs, "args"))) {
		vt_skip(r, vt_str(cs, "name"), vt_find(skips, "args.ignoredResources")->reason);
		return NULL;
	}
	if (strcmp(fn, "NodePorts.PreFilter+Filter") == 0 &&
	    !strcmp(vt_str(json_object_get(cs, "expect"), "preFilter"), "Skip"))
		return NULL; /* no Filter to compare */
	if (strcmp(fn, "getContainerPorts") == 0) {
		vt_skip(r, vt_str(cs, "name"), "not a Filter row");
		return NULL;
	}
	if (strcmp(fn, "NodeResourcesFit.PreFilter+Filter") != 0)
		return ds_fit_row(cs, json_object_get(cs, "expect"));
	json_t *expect = fit_expect(cs);
	char *bad = ds_fit_row(cs, expect);
	json_decref(expect);
	return bad;
}

START_TEST(ds_fit_replay)
{
	vt_run r;
	vt_begin(&r, "library", known_none);
	/* an overlay's own strings must read back (ds_fit crashed on unseen resource names when they did not) */
	vt_record(&r, OVERLAY, overlay_probe());
	vt_end(&r);
	run_file("scheduler_fit.json", "scheduler_fit.json via ds_fit", fit_known, ds_fit_case, 2);
	run_file("node_ports.json", "node_ports.json via ds_fit", known_none, ds_fit_case, 1);
}
END_TEST

/* The driver itself: a wrong code and a wrong reason are both reported. */
START_TEST(driver_reports_mismatches)
{
	json_t *doc = vt_load("node_unschedulable.json");
	json_t *cs = json_deep_copy(json_array_get(vt_cases(doc), 0));
	json_t *expect = json_pack("{s:s, s:[s]}", "code", "Unschedulable", "reasons", "node(s) were unschedulable");
	char *bad = filter_case(cs, "NodeUnschedulable", expect);
	ck_assert_ptr_nonnull(bad);
	free(bad);
	json_object_set_new(expect, "code", json_string("UnschedulableAndUnresolvable"));
	bad = filter_case(cs, "NodeUnschedulable", expect);
	ck_assert_msg(bad == NULL, "%s", bad);
	json_object_set_new(expect, "reasons", json_pack("[s]", "node(s) were cordoned"));
	bad = filter_case(cs, "NodeUnschedulable", expect);
	ck_assert_ptr_nonnull(bad);
	free(bad);
	json_decref(expect);
	json_decref(cs);
	json_decref(doc);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vec_scheduler");
	TCase *tc = tcase_create("vectors");
	tcase_add_test(tc, node_unschedulable_json);
	tcase_add_test(tc, taint_toleration_filter_json);
	tcase_add_test(tc, node_ports_json);
	tcase_add_test(tc, scheduler_fit_json);
	tcase_add_test(tc, node_affinity_plugin_json);
	tcase_add_test(tc, ds_fit_replay);
	tcase_add_test(tc, driver_reports_mismatches);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
