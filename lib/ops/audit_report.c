/*
 * The parts of an audit report that are about the findings as a whole: the rule table, suppression
 * (the audit.libdaemonset.io/ignore annotation and the auditIgnore option), lines in the manifest,
 * the summary and its score, the failOn threshold, the placement claim, and with a snapshot the
 * real node counts (ds_daemonset_audit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/yaml.h"
#include "daemon/shouldrun.h"
#include "model/labels.h"
#include "ops/audit_internal.h"

#define C DSI_SEV_CRITICAL
#define H DSI_SEV_HIGH
#define M DSI_SEV_MEDIUM
#define L DSI_SEV_LOW
#define I DSI_SEV_INFO
static const dsi_audit_rule rules[] = {
	{"allowPrivilegeEscalation", M, "Privilege escalation allowed"},
	{"appArmorProfile", H, "AppArmor confinement"},
	{"auditIgnore", I, "Unknown finding id in the ignore annotation"},
	{"capabilities", C, "Added Linux capability"},
	{"capabilitiesNotDropped", L, "Default capabilities kept"},
	{"controlPlane", I, "Control-plane nodes"},
	{"cpuLimit", I, "No CPU limit"},
	{"dnsPolicy", L, "hostNetwork without dnsPolicy ClusterFirstWithHostNet"},
	{"hostIPC", M, "Host IPC namespace"},
	{"hostNetwork", H, "Host network namespace"},
	{"hostPID", H, "Host PID namespace"},
	{"hostPath", C, "hostPath volume"},
	{"hostPort", M, "Host port"},
	{"hostProcess", C, "Windows HostProcess pod or container"},
	{"imagePullPolicy", L, "Pull policy with a floating image tag"},
	{"imageTag", M, "Floating image tag"},
	{"livenessProbe", L, "No liveness probe"},
	{"memoryLimit", M, "No memory limit"},
	{"minReadySeconds", L, "No minReadySeconds"},
	{"mountPropagation", H, "Bidirectional mount propagation"},
	{"priorityClassName", M, "No priority class"},
	{"procMount", H, "Unmasked /proc"},
	{"readOnlyRootFilesystem", L, "Writable root filesystem"},
	{"readinessProbe", L, "No readiness probe"},
	{"resourceRequests", M, "No CPU or memory request"},
	{"runAsNonRoot", L, "May run as root"},
	{"runAsRoot", M, "Runs as root"},
	{"seLinuxOptions", H, "SELinux options"},
	{"seccompProfile", H, "seccomp profile"},
	{"serviceAccountToken", M, "Service-account token mounted"},
	{"sysctls", M, "Unsafe sysctl"},
	{"terminationGracePeriodSeconds", M, "Termination grace period"},
	{"toleratesAllTaints", M, "Tolerates every taint"},
	{"unknownField", M, "Field unknown to the API"},
	{"updateStrategy", M, "Risky update strategy"},
	{"windowsNamedPipe", C, "Windows named pipe of a host service"},
	{"windowsRunAsUserName", H, "Windows account of a container"},
};
#undef C
#undef H
#undef M
#undef L
#undef I

const dsi_audit_rule *dsi_audit_rules(size_t *n)
{
	*n = sizeof(rules) / sizeof(rules[0]);
	return rules;
}

const dsi_audit_rule *dsi_audit_rule_find(const char *id, size_t len)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (strlen(rules[i].id) == len && memcmp(rules[i].id, id, len) == 0)
			return &rules[i];
	return NULL;
}

/* ---- suppression -------------------------------------------------------------------------- */

#define IGNORE_ANNOTATION "audit.libdaemonset.io/ignore"
#define IGNORE_PATH "metadata.annotations[\"" IGNORE_ANNOTATION "\"]"

/* id is one of the comma-separated ids of list */
static int listed(const char *list, const char *id)
{
	size_t len = strlen(id);
	for (const char *s = list; s && *s;) {
		s += strspn(s, ", \t");
		size_t n = strcspn(s, ", \t");
		if (n == len && memcmp(s, id, n) == 0)
			return 1;
		s += n;
	}
	return 0;
}

/* the annotation's value (NULL when absent); DS_ETYPE when annotations or the value has the wrong type */
static int ignore_annotation(const json_t *obj, const char **out, ds_error *err)
{
	*out = NULL;
	const json_t *ann = json_object_get(json_object_get(obj, "metadata"), "annotations");
	if (!ann || json_is_null(ann))
		return 0;
	if (!json_is_object(ann))
		return dsi_error_set(err, DS_ETYPE, "metadata.annotations", "expected object, got %s",
				     dsi_json_type_name(ann));
	const json_t *v = json_object_get(ann, IGNORE_ANNOTATION);
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return dsi_error_set(err, DS_ETYPE, IGNORE_PATH, "expected string, got %s", dsi_json_type_name(v));
	*out = json_string_value(v);
	return 0;
}

static void unknown_ignored_ids(dsi_findings *f, const char *list)
{
	for (const char *s = list; *s;) {
		s += strspn(s, ", \t");
		size_t n = strcspn(s, ", \t");
		if (n && !dsi_audit_rule_find(s, n))
			dsi_findings_add(
				f, "auditIgnore", DSI_SEV_INFO, dsi_strdup(IGNORE_PATH),
				"Use the ids of ds_object_audit(3) (the findings' \"id\"), separated by commas.",
				"the annotation " IGNORE_ANNOTATION " names \"%.*s\", which is not a finding id: it "
				"suppresses nothing",
				(int)n, s);
		s += n;
	}
}

/* ---- the report --------------------------------------------------------------------------- */

/*
 * The summary's score: 100 minus, for each severity, a penalty for the findings that are not
 * suppressed: the first costs `first`, each further one `next`, up to `cap`. The caps add up to
 * 100, so one class of findings never hides the others, and one critical finding weighs more than
 * any number of low ones.
 */
static const struct {
	int first, next, cap;
} score_penalty[DSI_SEV_COUNT] = {{30, 10, 50}, {15, 5, 25}, {6, 2, 15}, {2, 1, 10}, {0, 0, 0}};

static long score_of(const size_t *counts)
{
	long score = 100;
	for (int s = 0; s < DSI_SEV_COUNT; s++) {
		if (!counts[s])
			continue;
		long pen = score_penalty[s].first + (long)(counts[s] - 1) * score_penalty[s].next;
		score -= pen < score_penalty[s].cap ? pen : score_penalty[s].cap;
	}
	return score;
}

static int fail_on_level(const dsi_ops_cfg *o)
{
	static const char *const names[] = {"critical", "high", "medium", "low", "info"};
	const char *v = o->ops->audit_fail_on;
	for (int i = 0; v && i < DSI_SEV_COUNT; i++)
		if (strcmp(v, names[i]) == 0)
			return i;
	return -1; /* none */
}

int dsi_audit_finish(json_t *r, dsi_findings *f, const dsi_audit_input *in, const dsi_pss_target *t,
		     const dsi_audit_placement *place, const dsi_ops_cfg *o, ds_error *err)
{
	/* the hook for strict field validation (lib/apiserver): fields the API does not know */
	for (size_t i = 0; i < in->n_unknown_fields; i++) {
		const dsi_audit_field *u = &in->unknown_fields[i];
		dsi_findings_add(f, "unknownField", DSI_SEV_MEDIUM, dsi_strdup(u->path),
				 "Remove the field or correct its name (kubectl apply --validate=strict reports the "
				 "same).",
				 "field %s is not part of the API%s%s%s: the API server drops it (the setting it was "
				 "meant to make is lost), or rejects the object under fieldValidation=Strict",
				 u->path, u->suggestion ? " (did you mean " : "", u->suggestion ? u->suggestion : "",
				 u->suggestion ? "?)" : "");
	}
	const char *ignore;
	int rc = ignore_annotation(in->obj, &ignore, err);
	if (rc < 0)
		return rc;
	if (ignore)
		unknown_ignored_ids(f, ignore);
	if (f->oom)
		return dsi_error_nomem(err);
	dsi_findings_sort(f);
	size_t counts[DSI_SEV_COUNT] = {0}, suppressed = 0, total = 0;
	int threshold = fail_on_level(o), failed = 0;
	json_t *findings = json_array();
	for (size_t i = 0; findings && i < f->n; i++) {
		const dsi_finding *x = &f->v[i];
		const char *by = ignore && listed(ignore, x->id)                               ? "annotation"
				 : o->ops->audit_ignore && listed(o->ops->audit_ignore, x->id) ? "option"
											       : NULL;
		if (by) {
			suppressed++;
		} else {
			counts[x->severity]++;
			total++;
			failed |= threshold >= 0 && x->severity <= threshold;
		}
		json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:b}", "id", x->id, "severity",
				      dsi_severity_name(x->severity), "path", x->path, "message", x->message,
				      "remediation", x->remediation, "suppressed", by != NULL);
		/* the field's line in the manifest, or its deepest ancestor's for a field the finding misses */
		int line = 0, column;
		if (in->text && dsi_yaml_locate(in->text, in->size, 0, x->path, &line, &column) < 0)
			line = 0;
		if (!j || (by && json_object_set_new(j, "suppressedBy", json_string(by)) < 0) ||
		    (line > 0 && json_object_set_new(j, "line", json_integer(line)) < 0) ||
		    json_array_append_new(findings, j) < 0) {
			json_decref(findings);
			findings = NULL;
		}
	}
	long score = score_of(counts);
	json_t *summary =
		json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "critical", (json_int_t)counts[DSI_SEV_CRITICAL],
			  "high", (json_int_t)counts[DSI_SEV_HIGH], "medium", (json_int_t)counts[DSI_SEV_MEDIUM], "low",
			  (json_int_t)counts[DSI_SEV_LOW], "info", (json_int_t)counts[DSI_SEV_INFO], "total",
			  (json_int_t)total, "suppressed", (json_int_t)suppressed, "score", (json_int_t)score);
	int is_ds = t->kind && strcmp(t->kind, "DaemonSet") == 0;
	json_t *pl = is_ds ? dsi_audit_placement_json(place) : NULL;
	rc = findings && summary && (!is_ds || pl) ? 0 : -1;
	if (rc == 0)
		rc = json_object_set_new(r, "findings", findings) | json_object_set_new(r, "summary", summary) |
		     json_object_set_new(r, "ruleSet", json_string(place->windows ? "windows" : "linux")) |
		     (place->windows ? json_object_set_new(r, "ruleSetReason", json_string(place->windows_reason))
				     : 0) |
		     (pl ? json_object_set_new(r, "placement", pl) : 0) |
		     json_object_set_new(r, "failOn",
					 json_string(threshold < 0 ? "none" : dsi_severity_name(threshold))) |
		     json_object_set_new(r, "failed", json_boolean(failed));
	else {
		json_decref(findings);
		json_decref(summary);
		json_decref(pl);
	}
	return rc ? dsi_error_nomem(err) : 0;
}

/* ---- with a snapshot ------------------------------------------------------------------------ */

int dsi_audit_daemonset(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_audit_field *unknown_fields,
			size_t n_unknown_fields, const dsi_ops_cfg *o, json_t **out, ds_error *err)
{
	const dsi_audit_input in = {
		.obj = ds->obj, .unknown_fields = unknown_fields, .n_unknown_fields = n_unknown_fields};
	int rc = dsi_audit_report(&in, o, out, err);
	if (rc < 0)
		return rc;
	size_t nn = dsi_cluster_count(c, DSI_KIND_NODE);
	dsi_verdict *v = dsi_malloc((nn ? nn : 1) * sizeof(*v));
	dsi_placement p;
	if (!v || dsi_placement_init(&p, c, ds, o->core) < 0) {
		dsi_free(v);
		json_decref(*out);
		*out = NULL;
		return dsi_error_nomem(err);
	}
	dsi_node_should_run_all(&p, v, NULL);
	dsi_atom cp = dsi_atom_lookup_cstr(&c->atoms, "node-role.kubernetes.io/control-plane");
	size_t run = 0, cps = 0, cp_run = 0;
	for (size_t i = 0; i < nn; i++) {
		const dsi_node *node = dsi_cluster_node_at(c, i);
		int is_cp = cp != DSI_ATOM_NONE && dsi_labels_get(&node->meta.labels, cp) != DSI_ATOM_NONE;
		int yes = v[node->index].should_run;
		run += yes != 0;
		cps += is_cp != 0;
		cp_run += is_cp && yes;
	}
	dsi_placement_release(&p);
	dsi_free(v);
	char summary[160];
	snprintf(summary, sizeof(summary), "runs on %zu of %zu %s, including %zu control-plane %s", run, nn,
		 nn == 1 ? "node" : "nodes", cp_run, cp_run == 1 ? "node" : "nodes");
	json_t *pl = json_object_get(*out, "placement");
	if (!pl ||
	    json_object_set_new(pl, "nodes",
				json_pack("{s:I, s:I, s:I, s:I}", "total", (json_int_t)nn, "shouldRun", (json_int_t)run,
					  "controlPlane", (json_int_t)cps, "controlPlaneShouldRun",
					  (json_int_t)cp_run)) < 0 ||
	    json_object_set_new(pl, "summary", json_string(summary)) < 0) {
		json_decref(*out);
		*out = NULL;
		return dsi_error_nomem(err);
	}
	return 0;
}
