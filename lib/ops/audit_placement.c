/*
 * Where a template's pods can run, read from the template alone: spec.nodeSelector, the required
 * node affinity and the tolerations, evaluated against three kinds of node that the well-known
 * labels describe (a Linux worker, a Windows worker, a control-plane node). Labels the audit cannot
 * know (a GPU label, an opt-in label, the architecture) make the answer "only the nodes that carry
 * them", never "every node". With a snapshot, ds_daemonset_audit counts the real nodes instead
 * (audit_report.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"
#include "ops/audit_internal.h"
#include "sched/tolerations.h"

#define CP_LABEL "node-role.kubernetes.io/control-plane"

/* A kind of node, by the only labels the audit can be sure of. */
typedef struct node_model {
	const char *os;
	int control_plane;
} node_model;

static const node_model linux_worker = {"linux", 0}, windows_worker = {"windows", 0}, control_plane = {"linux", 1};

/* 1 present (value in *val), 0 absent, -1 unknown */
static int model_label(const node_model *m, const char *key, const char **val)
{
	if (strcmp(key, "kubernetes.io/os") == 0 || strcmp(key, "beta.kubernetes.io/os") == 0) {
		*val = m->os;
		return 1;
	}
	if (strcmp(key, CP_LABEL) == 0) {
		*val = "";
		return m->control_plane;
	}
	return -1;
}

static int in_values(const json_t *values, const char *v)
{
	size_t i;
	json_t *x;
	json_array_foreach(values, i, x) if (json_is_string(x) && strcmp(json_string_value(x), v) == 0) return 1;
	return 0;
}

/* NodeSelectorRequirement against a model (nodeSelectorRequirementsAsSelector semantics) */
static int eval_req(const node_model *m, const char *key, const char *op, const json_t *values)
{
	const char *v = NULL;
	int st = model_label(m, key, &v);
	if (st < 0)
		return DSI_TRI_UNKNOWN;
	if (strcmp(op, "In") == 0)
		return st && in_values(values, v);
	if (strcmp(op, "NotIn") == 0)
		return !st || !in_values(values, v);
	if (strcmp(op, "Exists") == 0)
		return st;
	if (strcmp(op, "DoesNotExist") == 0)
		return !st;
	if ((strcmp(op, "Gt") == 0 || strcmp(op, "Lt") == 0) && st && json_array_size(values) == 1) {
		char *end;
		long long have = strtoll(v, &end, 10);
		if (*v == '\0' || *end)
			return DSI_TRI_FALSE;
		const char *w = json_string_value(json_array_get(values, 0));
		long long want = w ? strtoll(w, &end, 10) : 0;
		if (!w || *end)
			return DSI_TRI_FALSE;
		return op[0] == 'G' ? have > want : have < want;
	}
	return DSI_TRI_FALSE;
}

static int tri_and(int a, int b)
{
	if (a == DSI_TRI_FALSE || b == DSI_TRI_FALSE)
		return DSI_TRI_FALSE;
	return a == DSI_TRI_UNKNOWN || b == DSI_TRI_UNKNOWN ? DSI_TRI_UNKNOWN : DSI_TRI_TRUE;
}

static int tri_or(int a, int b)
{
	if (a == DSI_TRI_TRUE || b == DSI_TRI_TRUE)
		return DSI_TRI_TRUE;
	return a == DSI_TRI_UNKNOWN || b == DSI_TRI_UNKNOWN ? DSI_TRI_UNKNOWN : DSI_TRI_FALSE;
}

/* A requirement in selector words: k=v, k in (a, b), k notin (a), k, !k, k>v, k<v */
static void req_text(dsi_strbuf *b, const char *key, const char *op, const json_t *values)
{
	size_t n = json_array_size(values);
	if (strcmp(op, "Exists") == 0) {
		dsi_strbuf_puts(b, key);
	} else if (strcmp(op, "DoesNotExist") == 0) {
		dsi_strbuf_printf(b, "!%s", key);
	} else if (strcmp(op, "In") == 0 && n == 1) {
		dsi_strbuf_printf(b, "%s=%s", key, json_string_value(json_array_get(values, 0)));
	} else if (strcmp(op, "Gt") == 0 || strcmp(op, "Lt") == 0) {
		dsi_strbuf_printf(b, "%s%c%s", key, op[0] == 'G' ? '>' : '<',
				  n ? json_string_value(json_array_get(values, 0)) : "");
	} else {
		dsi_strbuf_printf(b, "%s %s (", key, strcmp(op, "NotIn") == 0 ? "notin" : "in");
		for (size_t i = 0; i < n; i++)
			dsi_strbuf_printf(b, "%s%s", i ? ", " : "", json_string_value(json_array_get(values, i)));
		dsi_strbuf_puts(b, ")");
	}
}

/* Check the types of a requirement list (matchExpressions / matchFields) at rd's path. */
static int read_reqs(dsi_rd *rd, const json_t *term, const char *member, json_t **out)
{
	int rc = dsi_rd_array(rd, term, member, out);
	if (rc < 0 || !*out)
		return rc;
	size_t m = dsi_rd_push(rd, member), i;
	json_t *r;
	json_array_foreach(*out, i, r)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		const char *s;
		json_t *vals;
		if ((rc = dsi_rd_expect_object(rd, r)) < 0 || (rc = dsi_rd_string(rd, r, "key", &s)) < 0 ||
		    (rc = dsi_rd_string(rd, r, "operator", &s)) < 0 || (rc = dsi_rd_array(rd, r, "values", &vals)) < 0)
			return rc;
		if (vals) {
			size_t m3 = dsi_rd_push(rd, "values"), k;
			json_t *v;
			json_array_foreach(vals, k, v)
			{
				size_t m4 = dsi_rd_push_index(rd, k);
				if ((rc = dsi_rd_expect_string(rd, v, &s)) < 0)
					return rc;
				dsi_rd_pop(rd, m4);
			}
			dsi_rd_pop(rd, m3);
		}
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	return 0;
}

static const char *str_member(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

typedef struct selection {
	json_t *node_selector; /* borrowed */
	json_t *terms;         /* borrowed; NULL when there is no required node affinity */
} selection;

static int read_selection(dsi_rd *rd, const json_t *spec, selection *s)
{
	memset(s, 0, sizeof(*s));
	int rc = dsi_rd_object(rd, spec, "nodeSelector", &s->node_selector);
	if (rc < 0)
		return rc;
	if (s->node_selector) {
		size_t m = dsi_rd_push(rd, "nodeSelector");
		const char *k;
		json_t *v;
		json_object_foreach(s->node_selector, k, v) if (!json_is_string(v)) return dsi_rd_fail(
			rd, k, DS_ETYPE, "expected string, got %s", dsi_json_type_name(v));
		dsi_rd_pop(rd, m);
	}
	json_t *aff, *na, *req;
	if ((rc = dsi_rd_object(rd, spec, "affinity", &aff)) < 0 || !aff)
		return rc;
	size_t m = dsi_rd_push(rd, "affinity");
	if ((rc = dsi_rd_object(rd, aff, "nodeAffinity", &na)) < 0 || !na)
		return rc;
	dsi_rd_push(rd, "nodeAffinity");
	if ((rc = dsi_rd_object(rd, na, "requiredDuringSchedulingIgnoredDuringExecution", &req)) < 0 || !req)
		return rc;
	dsi_rd_push(rd, "requiredDuringSchedulingIgnoredDuringExecution");
	if ((rc = dsi_rd_array(rd, req, "nodeSelectorTerms", &s->terms)) < 0)
		return rc;
	if (!s->terms)
		s->terms = json_object_get(req, "nodeSelectorTerms"); /* null: no terms, which matches nothing */
	if (s->terms) {
		size_t m2 = dsi_rd_push(rd, "nodeSelectorTerms"), i;
		json_t *t, *x;
		json_array_foreach(s->terms, i, t)
		{
			size_t m3 = dsi_rd_push_index(rd, i);
			if ((rc = dsi_rd_expect_object(rd, t)) < 0 ||
			    (rc = read_reqs(rd, t, "matchExpressions", &x)) < 0 ||
			    (rc = read_reqs(rd, t, "matchFields", &x)) < 0)
				return rc;
			dsi_rd_pop(rd, m3);
		}
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	return 0;
}

/* The selection's answer for one kind of node. */
static int eval_selection(const selection *s, const node_model *m, int has_required)
{
	int r = DSI_TRI_TRUE;
	const char *k;
	json_t *v;
	if (s->node_selector)
		json_object_foreach(s->node_selector, k, v)
		{
			const char *val = NULL;
			int st = model_label(m, k, &val);
			r = tri_and(r, st < 0 ? DSI_TRI_UNKNOWN : st && strcmp(val, json_string_value(v)) == 0);
		}
	if (!has_required)
		return r;
	int any = DSI_TRI_FALSE;
	size_t i, j;
	json_t *t, *e;
	json_array_foreach(s->terms, i, t)
	{
		json_t *exprs = json_object_get(t, "matchExpressions"), *fields = json_object_get(t, "matchFields");
		if (!json_array_size(exprs) && !json_array_size(fields))
			continue; /* an empty term matches no node */
		int term = DSI_TRI_TRUE;
		json_array_foreach(exprs, j, e) term =
			tri_and(term, eval_req(m, str_member(e, "key"), str_member(e, "operator"),
					       json_object_get(e, "values")));
		if (json_array_size(fields))
			term = tri_and(term, DSI_TRI_UNKNOWN); /* metadata.name: particular nodes */
		any = tri_or(any, term);
	}
	return tri_and(r, any);
}

static void selection_text(dsi_strbuf *b, const selection *s, int has_required)
{
	const char *k;
	json_t *v;
	int first = 1;
	if (s->node_selector)
		json_object_foreach(s->node_selector, k, v)
		{
			dsi_strbuf_printf(b, "%s%s=%s", first ? "" : ", ", k, json_string_value(v));
			first = 0;
		}
	if (!has_required)
		return;
	size_t n = json_array_size(s->terms), i, j;
	json_t *t, *e;
	if (!first)
		dsi_strbuf_puts(b, "; ");
	if (n == 0)
		dsi_strbuf_puts(b, "(no node selector terms)");
	json_array_foreach(s->terms, i, t)
	{
		if (i)
			dsi_strbuf_puts(b, " or ");
		if (n > 1)
			dsi_strbuf_puts(b, "(");
		int f = 1;
		json_array_foreach(json_object_get(t, "matchExpressions"), j, e)
		{
			if (!f)
				dsi_strbuf_puts(b, ", ");
			req_text(b, str_member(e, "key"), str_member(e, "operator"), json_object_get(e, "values"));
			f = 0;
		}
		json_array_foreach(json_object_get(t, "matchFields"), j, e)
		{
			if (!f)
				dsi_strbuf_puts(b, ", ");
			req_text(b, str_member(e, "key"), str_member(e, "operator"), json_object_get(e, "values"));
			f = 0;
		}
		if (f)
			dsi_strbuf_puts(b, "(empty term)");
		if (n > 1)
			dsi_strbuf_puts(b, ")");
	}
}

static int read_tolerations(const json_t *spec, const char *spec_path, const dsi_ops_cfg *o, dsi_audit_placement *p,
			    ds_error *err)
{
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_tolerations tols = {NULL, 0};
	dsi_rd rd;
	dsi_pss_rd_at(&rd, err, spec_path);
	int rc = spec ? dsi_tolerations_read(&rd, &atoms, spec, "tolerations", &tols) : 0;
	if (rc == 0) {
		int gate = dsi_gate(o->core, DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS);
		dsi_taint cp = {dsi_atom_intern_cstr(&atoms, CP_LABEL), DSI_ATOM_NONE, DSI_EFFECT_NO_SCHEDULE};
		/* a key no toleration can name on purpose: tolerated only by tolerations of every key */
		dsi_taint any = {dsi_atom_intern_cstr(&atoms, "audit.libdaemonset.io/any-taint"), DSI_ATOM_NONE,
				 DSI_EFFECT_NO_SCHEDULE};
		if (cp.key == DSI_ATOM_ERROR || any.key == DSI_ATOM_ERROR) {
			rc = dsi_error_nomem(err);
		} else {
			p->tolerates_cp = dsi_tolerations_tolerate_taint(&atoms, &tols, &cp, gate);
			p->tolerates_all_noschedule = dsi_tolerations_tolerate_taint(&atoms, &tols, &any, gate);
			any.effect = DSI_EFFECT_NO_EXECUTE;
			p->tolerates_all = p->tolerates_all_noschedule &&
					   dsi_tolerations_tolerate_taint(&atoms, &tols, &any, gate);
		}
	}
	dsi_tolerations_release(&atoms, &tols);
	dsi_atoms_free(&atoms);
	return rc;
}

int dsi_audit_placement_read(const dsi_pss_target *t, const dsi_pss_pod *pod, const char *spec_path,
			     const dsi_ops_cfg *o, dsi_audit_placement *p, ds_error *err)
{
	memset(p, 0, sizeof(*p));
	p->linux_nodes = p->windows_nodes = p->control_plane_nodes = DSI_TRI_TRUE;
	const json_t *spec = t->tmpl ? json_object_get(t->tmpl, "spec") : NULL;
	selection s = {0};
	int rc = 0, has_required = 0;
	if (json_is_object(spec)) {
		dsi_rd rd;
		dsi_pss_rd_at(&rd, err, spec_path);
		if ((rc = read_selection(&rd, spec, &s)) < 0)
			return rc;
		const json_t *req = json_object_get(json_object_get(json_object_get(spec, "affinity"), "nodeAffinity"),
						    "requiredDuringSchedulingIgnoredDuringExecution");
		has_required = json_is_object(req);
	}
	p->has_selection = json_object_size(s.node_selector) > 0 || has_required;
	p->linux_nodes = eval_selection(&s, &linux_worker, has_required);
	p->windows_nodes = eval_selection(&s, &windows_worker, has_required);
	p->control_plane_nodes = eval_selection(&s, &control_plane, has_required);
	dsi_strbuf b = DSI_STRBUF_INIT;
	selection_text(&b, &s, has_required);
	if (b.oom)
		return dsi_error_nomem(err);
	p->selection = b.data ? dsi_strbuf_detach(&b) : dsi_strdup("");
	if (!p->selection)
		return dsi_error_nomem(err);
	if ((rc = read_tolerations(json_is_object(spec) ? spec : NULL, spec_path, o, p, err)) < 0) {
		dsi_audit_placement_free(p);
		return rc;
	}
	/* Windows pods: spec.os.name, a selection only Windows nodes match, or HostProcess */
	int host_process = pod->host_process == 1;
	for (uint32_t i = 0; i < pod->n_containers; i++)
		host_process |= pod->containers[i].sc.host_process == 1;
	if (pod->os_name && strcmp(pod->os_name, "windows") == 0)
		p->windows = 1, p->windows_reason = "spec.os.name is windows";
	else if (p->linux_nodes == DSI_TRI_FALSE && p->windows_nodes != DSI_TRI_FALSE)
		p->windows = 1, p->windows_reason = "its node selection matches only Windows nodes";
	else if (host_process)
		p->windows = 1, p->windows_reason = "it sets windowsOptions.hostProcess";
	return 0;
}

void dsi_audit_placement_free(dsi_audit_placement *p)
{
	dsi_free(p->selection);
	p->selection = NULL;
}

const char *dsi_audit_placement_cp(const dsi_audit_placement *p)
{
	if (!p->tolerates_cp || p->control_plane_nodes == DSI_TRI_FALSE)
		return "no";
	return p->control_plane_nodes == DSI_TRI_TRUE ? "yes" : "if-selected";
}

static const char *os_name(const dsi_audit_placement *p)
{
	int l = p->linux_nodes != DSI_TRI_FALSE, w = p->windows_nodes != DSI_TRI_FALSE;
	return l && w ? "any" : l ? "linux" : w ? "windows" : "none";
}

/* the selection matches every node of the operating systems it allows */
static int every_node(const dsi_audit_placement *p)
{
	const char *os = os_name(p);
	if (strcmp(os, "any") == 0)
		return p->linux_nodes == DSI_TRI_TRUE && p->windows_nodes == DSI_TRI_TRUE;
	if (strcmp(os, "linux") == 0)
		return p->linux_nodes == DSI_TRI_TRUE;
	if (strcmp(os, "windows") == 0)
		return p->windows_nodes == DSI_TRI_TRUE;
	return 0;
}

char *dsi_audit_placement_claim(const dsi_audit_placement *p)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	const char *os = os_name(p), *cp = dsi_audit_placement_cp(p);
	if (strcmp(os, "none") == 0 && p->control_plane_nodes == DSI_TRI_FALSE) {
		dsi_strbuf_printf(&b, "no Linux or Windows node matches its node selection (%s)", p->selection);
	} else {
		if (every_node(p))
			dsi_strbuf_printf(&b, "every %snode",
					  strcmp(os, "linux") == 0     ? "Linux "
					  : strcmp(os, "windows") == 0 ? "Windows "
								       : "");
		else
			dsi_strbuf_printf(&b, "only nodes that match %s", p->selection);
		int one = every_node(p); /* "every node that has", "nodes that have" */
		if (p->tolerates_all)
			dsi_strbuf_puts(&b, ", whatever their taints");
		else if (p->tolerates_all_noschedule)
			dsi_strbuf_printf(&b,
					  " that %s no NoExecute taint it does not tolerate, whatever their NoSchedule "
					  "taints",
					  one ? "has" : "have");
		else
			dsi_strbuf_printf(&b, " that %s no NoSchedule or NoExecute taint it does not tolerate",
					  one ? "has" : "have");
		if (strcmp(cp, "yes") == 0)
			dsi_strbuf_puts(&b, ", including control-plane nodes");
		else if (strcmp(cp, "if-selected") == 0)
			dsi_strbuf_puts(&b, "; control-plane nodes only if they match that selection");
		else if (p->tolerates_cp)
			dsi_strbuf_puts(&b, ", not control-plane nodes (its node selection excludes them)");
		else
			dsi_strbuf_puts(&b, ", not control-plane nodes (it does not tolerate " CP_LABEL ":NoSchedule)");
	}
	return b.oom ? (dsi_strbuf_free(&b), NULL) : dsi_strbuf_detach(&b);
}

json_t *dsi_audit_placement_json(const dsi_audit_placement *p)
{
	char *claim = dsi_audit_placement_claim(p);
	if (!claim)
		return NULL;
	json_t *j = json_pack("{s:s, s:s, s:b, s:s, s:s, s:b, s:s}", "os", os_name(p), "selection", p->selection,
			      "everyNode", every_node(p), "toleratesAllTaints",
			      p->tolerates_all              ? "all"
			      : p->tolerates_all_noschedule ? "NoSchedule"
							    : "none",
			      "controlPlane", dsi_audit_placement_cp(p), "windows", p->windows, "claim", claim);
	dsi_free(claim);
	return j;
}
