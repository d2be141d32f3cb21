/* What pod-security-admission says about an object: where its pod is, and the message texts. */
#include <stdio.h>
#include <string.h>

#include "pss/pss.h"

/* `<verb> PodSecurity "<level>:<version>": <ForbiddenDetail>` */
static void violation(dsi_strbuf *b, const char *verb, const char *level, const char *version, const dsi_pss_eval *e)
{
	/* %q of LevelVersion.String(); level and version are validated, so this is plain quoting */
	char lv[96];
	snprintf(lv, sizeof(lv), "%s:%s", level, version);
	dsi_strbuf_puts(b, verb);
	dsi_strbuf_puts(b, " PodSecurity ");
	dsi_go_quote(b, lv, strlen(lv));
	dsi_strbuf_puts(b, ": ");
	dsi_pss_forbidden_detail(e, b);
}

/* EvaluatePod (admission/admission.go): the warning and audit-violations annotation text */
void dsi_pss_warning(dsi_strbuf *b, const char *level, const char *version, const dsi_pss_eval *e)
{
	violation(b, "would violate", level, version, e);
}

/* EvaluatePod (admission/admission.go): the error the enforce rejection wraps */
void dsi_pss_violation_text(dsi_strbuf *b, const char *level, const char *version, const dsi_pss_eval *e)
{
	violation(b, "violates", level, version, e);
}

/* forbiddenResponse (admission/response.go) with NewForbidden (apimachinery pkg/api/errors/errors.go) */
void dsi_pss_forbidden_message(dsi_strbuf *b, const char *pod_name, const char *level, const char *version,
			       const dsi_pss_eval *e)
{
	dsi_strbuf_puts(b, "pods ");
	if (pod_name && *pod_name) {
		dsi_go_quote(b, pod_name, strlen(pod_name));
		dsi_strbuf_putc(b, ' ');
	}
	dsi_strbuf_puts(b, "is forbidden: ");
	violation(b, "violates", level, version, e);
}

static int read_meta(dsi_rd *rd, const json_t *obj, dsi_pss_target *out)
{
	json_t *meta;
	int rc = dsi_rd_object(rd, obj, "metadata", &meta);
	if (rc < 0 || !meta)
		return rc;
	size_t m = dsi_rd_push(rd, "metadata");
	if ((rc = dsi_rd_string(rd, meta, "name", &out->name)) == 0)
		rc = dsi_rd_string(rd, meta, "namespace", &out->namespace_);
	dsi_rd_pop(rd, m);
	return rc;
}

/* Follow keys from obj; *out is NULL when a member is absent. */
static int follow(dsi_rd *rd, const json_t *obj, const char *const *keys, size_t n, const json_t **out)
{
	size_t m = rd->len;
	const json_t *cur = obj;
	int rc = 0;
	for (size_t i = 0; i < n && cur; i++) {
		json_t *next;
		if ((rc = dsi_rd_object(rd, cur, keys[i], &next)) < 0)
			break;
		dsi_rd_push(rd, keys[i]);
		cur = next;
	}
	dsi_rd_pop(rd, m);
	*out = rc < 0 ? NULL : cur;
	return rc;
}

/* DefaultPodSpecExtractor.ExtractPodSpec (admission/admission.go) */
int dsi_pss_find_target(dsi_rd *rd, const json_t *obj, dsi_pss_target *out)
{
	static const char *const k_tmpl[] = {"spec", "template"};
	static const char *const k_cron[] = {"spec", "jobTemplate", "spec", "template"};
	static const char *const k_podtemplate[] = {"template"};
	static const char *const k_spec[] = {"spec"};
	static const char *const workloads[] = {
		"DaemonSet", "Deployment", "StatefulSet", "ReplicaSet", "ReplicationController", "Job"};
	memset(out, 0, sizeof(*out));
	int rc;
	if (!json_is_object(obj))
		return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected an object, got %s", dsi_json_type_name(obj));
	if ((rc = dsi_rd_string(rd, obj, "kind", &out->kind)) < 0 || (rc = read_meta(rd, obj, out)) < 0)
		return rc;
	const char *kind = out->kind;
	const json_t *t;
	if (kind && strcmp(kind, "Pod") == 0) {
		out->is_pod = 1;
		out->tmpl = obj;
		return 0;
	}
	if (kind && strcmp(kind, "CronJob") == 0) {
		snprintf(out->path, sizeof(out->path), "spec.jobTemplate.spec.template");
		rc = follow(rd, obj, k_cron, 4, &t);
	} else if (kind && strcmp(kind, "PodTemplate") == 0) {
		snprintf(out->path, sizeof(out->path), "template");
		rc = follow(rd, obj, k_podtemplate, 1, &t);
	} else {
		snprintf(out->path, sizeof(out->path), "spec.template");
		rc = follow(rd, obj, k_tmpl, 2, &t);
		if (rc == 0 && !t) {
			int known = 0;
			for (size_t i = 0; kind && i < sizeof(workloads) / sizeof(workloads[0]); i++)
				known |= strcmp(kind, workloads[i]) == 0;
			if (!kind) {
				/* no kind: a pod when it has a spec without a template */
				const json_t *spec;
				if ((rc = follow(rd, obj, k_spec, 1, &spec)) < 0)
					return rc;
				if (!spec)
					return dsi_rd_fail(
						rd, "kind", DS_EMISSING,
						"required value: expected a Pod or an object with spec.template");
				out->path[0] = '\0';
				out->is_pod = 1;
				out->tmpl = obj;
				return 0;
			}
			if (!known)
				return dsi_rd_fail(
					rd, "kind", DS_EUNSUPPORTED,
					"kind %s has no pod template: expected a Pod, PodTemplate, CronJob or an "
					"object with spec.template",
					kind);
		}
	}
	if (rc < 0)
		return rc;
	out->tmpl = t; /* NULL: an absent template evaluates as an empty pod, which every level allows */
	return 0;
}
