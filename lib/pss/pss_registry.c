/*
 * The check registry: levels and versions, the default checks with their
 * revisions, which revisions run for a level and version (overrides and
 * order), and the aggregation of their results.
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "pss/pss.h"

/* ParseLevel (api/helpers.go) */
int dsi_pss_parse_level(const char *s, dsi_pss_level *out)
{
	if (!s)
		return -1;
	if (strcmp(s, "privileged") == 0)
		*out = DSI_PSS_PRIVILEGED;
	else if (strcmp(s, "baseline") == 0)
		*out = DSI_PSS_BASELINE;
	else if (strcmp(s, "restricted") == 0)
		*out = DSI_PSS_RESTRICTED;
	else
		return -1;
	return 0;
}

const char *dsi_pss_level_name(dsi_pss_level level)
{
	switch (level) {
	case DSI_PSS_PRIVILEGED: return "privileged";
	case DSI_PSS_BASELINE: return "baseline";
	default: return "restricted";
	}
}

/* ParseVersion (api/helpers.go): "latest" or ^v1\.([0-9]|[1-9][0-9]*)$ whose number fits Go's int */
int dsi_pss_parse_version(const char *s, int *minor)
{
	if (!s)
		return -1;
	if (strcmp(s, "latest") == 0) {
		*minor = DSI_PSS_LATEST;
		return 0;
	}
	if (strncmp(s, "v1.", 3) != 0)
		return -1;
	const char *p = s + 3;
	if (!*p || (p[0] == '0' && p[1]))
		return -1;
	int64_t v = 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		if (v > (INT64_MAX - (*p - '0')) / 10)
			return -1; /* strconv.Atoi: out of range */
		v = v * 10 + (*p - '0');
	}
	*minor = v >= DSI_PSS_LATEST ? DSI_PSS_LATEST - 1 : (int)v;
	return 0;
}

void dsi_pss_version_string(int minor, char *buf, size_t size)
{
	if (minor == DSI_PSS_LATEST)
		snprintf(buf, size, "latest");
	else
		snprintf(buf, size, "v1.%d", minor);
}

/* ---- the default checks (policy/check_*.go, registered by init) ------------------------ */

static const char *const over_hostpath[] = {"hostPathVolumes", NULL};
static const char *const over_caps[] = {"capabilities_baseline", NULL};
static const char *const over_seccomp[] = {"seccompProfile_baseline", NULL};
static const char *const over_procmount[] = {"procMount", NULL};

#define REVS(...)                                                                                                      \
	(const dsi_pss_revision[]){__VA_ARGS__},                                                                       \
		sizeof((const dsi_pss_revision[]){__VA_ARGS__}) / sizeof(dsi_pss_revision)

static const dsi_pss_check default_checks[] = {
	/* baseline */
	{"appArmorProfile", DSI_PSS_BASELINE, REVS({0, dsi_pss_apparmor_1_0, NULL})},
	{"capabilities_baseline", DSI_PSS_BASELINE, REVS({0, dsi_pss_capabilities_baseline_1_0, NULL})},
	{"hostNamespaces", DSI_PSS_BASELINE, REVS({0, dsi_pss_host_namespaces_1_0, NULL})},
	{"hostPathVolumes", DSI_PSS_BASELINE, REVS({0, dsi_pss_host_path_volumes_1_0, NULL})},
	{"hostPorts", DSI_PSS_BASELINE, REVS({0, dsi_pss_host_ports_1_0, NULL})},
	{"hostProbesAndHostLifecycle", DSI_PSS_BASELINE, REVS({34, dsi_pss_host_probes_1_34, NULL})},
	{"privileged", DSI_PSS_BASELINE, REVS({0, dsi_pss_privileged_1_0, NULL})},
	{"procMount", DSI_PSS_BASELINE, REVS({0, dsi_pss_proc_mount_1_0, NULL}, {35, dsi_pss_proc_mount_1_35, NULL})},
	{"seLinuxOptions", DSI_PSS_BASELINE, REVS({0, dsi_pss_selinux_1_0, NULL}, {31, dsi_pss_selinux_1_31, NULL})},
	{"seccompProfile_baseline", DSI_PSS_BASELINE,
	 REVS({0, dsi_pss_seccomp_baseline_1_0, NULL}, {19, dsi_pss_seccomp_baseline_1_19, NULL})},
	{"sysctls", DSI_PSS_BASELINE,
	 REVS({0, dsi_pss_sysctls_1_0, NULL}, {27, dsi_pss_sysctls_1_27, NULL}, {29, dsi_pss_sysctls_1_29, NULL},
	      {32, dsi_pss_sysctls_1_32, NULL}, {37, dsi_pss_sysctls_1_37, NULL})},
	{"windowsHostProcess", DSI_PSS_BASELINE, REVS({0, dsi_pss_windows_host_process_1_0, NULL})},
	/* restricted */
	{"allowPrivilegeEscalation", DSI_PSS_RESTRICTED,
	 REVS({8, dsi_pss_allow_privilege_escalation_1_8, NULL}, {25, dsi_pss_allow_privilege_escalation_1_25, NULL})},
	{"capabilities_restricted", DSI_PSS_RESTRICTED,
	 REVS({22, dsi_pss_capabilities_restricted_1_22, over_caps},
	      {25, dsi_pss_capabilities_restricted_1_25, over_caps})},
	{"procMount_restricted", DSI_PSS_RESTRICTED, REVS({35, dsi_pss_proc_mount_1_0, over_procmount})},
	{"restrictedVolumes", DSI_PSS_RESTRICTED, REVS({0, dsi_pss_restricted_volumes_1_0, over_hostpath})},
	{"runAsNonRoot", DSI_PSS_RESTRICTED,
	 REVS({0, dsi_pss_run_as_non_root_1_0, NULL}, {35, dsi_pss_run_as_non_root_1_35, NULL})},
	{"runAsUser", DSI_PSS_RESTRICTED,
	 REVS({23, dsi_pss_run_as_user_1_23, NULL}, {35, dsi_pss_run_as_user_1_35, NULL})},
	{"seccompProfile_restricted", DSI_PSS_RESTRICTED,
	 REVS({19, dsi_pss_seccomp_restricted_1_19, over_seccomp},
	      {25, dsi_pss_seccomp_restricted_1_25, over_seccomp})},
};

/* DefaultChecks (policy/checks.go) */
const dsi_pss_check *dsi_pss_default_checks(size_t *n)
{
	*n = sizeof(default_checks) / sizeof(default_checks[0]);
	return default_checks;
}

/* populate (policy/registry.go): the newest MinimumVersion of any check */
int dsi_pss_max_minor(const dsi_pss_check *checks, size_t n)
{
	int max = 0;
	for (size_t i = 0; i < n; i++)
		if (checks[i].n_revs && checks[i].revs[checks[i].n_revs - 1].min_minor > max)
			max = checks[i].revs[checks[i].n_revs - 1].min_minor;
	return max;
}

/* inflateVersions (policy/registry.go): the revision in force at minor, or NULL */
static const dsi_pss_revision *active_revision(const dsi_pss_check *c, int minor)
{
	const dsi_pss_revision *r = NULL;
	for (size_t i = 0; i < c->n_revs && c->revs[i].min_minor <= minor; i++)
		r = &c->revs[i];
	return r;
}

/* populate's orderedIDs: baseline IDs sorted bytewise, then restricted IDs */
static int check_before(const dsi_pss_check *a, const dsi_pss_check *b)
{
	if (a->level != b->level)
		return a->level == DSI_PSS_BASELINE;
	return strcmp(a->id, b->id) < 0;
}

/* NewEvaluator + EvaluatePod (policy/registry.go): the revisions that run, in order */
size_t dsi_pss_plan(const dsi_pss_check *checks, size_t n, dsi_pss_level level, int minor, int emulation_minor,
		    dsi_pss_planned *out, int *effective)
{
	int max = dsi_pss_max_minor(checks, n);
	if (emulation_minor < max)
		max = emulation_minor;
	if (minor > max)
		minor = max;
	if (effective)
		*effective = minor;
	if (level == DSI_PSS_PRIVILEGED || n > DSI_PSS_MAX_CHECKS)
		return 0;
	/* order (insertion sort of at most DSI_PSS_MAX_CHECKS pointers) */
	const dsi_pss_check *ordered[DSI_PSS_MAX_CHECKS];
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		while (j > 0 && check_before(&checks[i], ordered[j - 1])) {
			ordered[j] = ordered[j - 1];
			j--;
		}
		ordered[j] = &checks[i];
	}
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		const dsi_pss_check *c = ordered[i];
		const dsi_pss_revision *r = active_revision(c, minor);
		if (!r)
			continue;
		if (c->level == DSI_PSS_RESTRICTED && level != DSI_PSS_RESTRICTED)
			continue;
		if (c->level == DSI_PSS_BASELINE && level == DSI_PSS_RESTRICTED) {
			/* skipped when a restricted revision in force at minor overrides it */
			int overridden = 0;
			for (size_t k = 0; k < n && !overridden; k++) {
				const dsi_pss_revision *rr;
				if (checks[k].level != DSI_PSS_RESTRICTED ||
				    !(rr = active_revision(&checks[k], minor)) || !rr->overrides)
					continue;
				for (const char *const *o = rr->overrides; *o && !overridden; o++)
					overridden = strcmp(*o, c->id) == 0;
			}
			if (overridden)
				continue;
		}
		out[count].check = c;
		out[count].rev = r;
		count++;
	}
	return count;
}

void dsi_pss_result_free(dsi_pss_result *res)
{
	dsi_free(res->detail);
	res->detail = NULL;
}

void dsi_pss_eval_free(dsi_pss_eval *e)
{
	for (size_t i = 0; i < e->n; i++)
		dsi_free(e->v[i].detail);
	dsi_free(e->v);
	e->v = NULL;
	e->n = 0;
}

/* EvaluatePod + AggregateCheckResults (policy/registry.go, policy/checks.go) */
int dsi_pss_evaluate_checks(const dsi_pss_check *checks, size_t n, const dsi_pss_pod *pod, dsi_pss_level level,
			    int minor, int emulation_minor, dsi_pss_eval *out, ds_error *err)
{
	memset(out, 0, sizeof(*out));
	out->allowed = 1;
	if (n > DSI_PSS_MAX_CHECKS)
		return dsi_error_set(err, DS_ELIMIT, NULL, "more than %d checks", DSI_PSS_MAX_CHECKS);
	dsi_pss_planned plan[DSI_PSS_MAX_CHECKS];
	size_t np = dsi_pss_plan(checks, n, level, minor, emulation_minor, plan, &out->minor);
	if (!np)
		return 0;
	out->v = dsi_calloc(np, sizeof(*out->v));
	if (!out->v)
		return dsi_error_nomem(err);
	for (size_t i = 0; i < np; i++) {
		dsi_pss_result res = {0, NULL, NULL};
		if (plan[i].rev->fn(pod, &res) < 0) {
			dsi_pss_result_free(&res);
			dsi_pss_eval_free(out);
			return dsi_error_nomem(err);
		}
		if (res.allowed)
			continue;
		dsi_pss_violation *v = &out->v[out->n++];
		v->check = plan[i].check->id;
		v->reason = res.reason && *res.reason ? res.reason : "unknown forbidden reason";
		v->detail = res.detail;
		out->allowed = 0;
	}
	return 0;
}

int dsi_pss_evaluate(const dsi_pss_pod *pod, dsi_pss_level level, int minor, int emulation_minor, dsi_pss_eval *out,
		     ds_error *err)
{
	return dsi_pss_evaluate_checks(default_checks, sizeof(default_checks) / sizeof(default_checks[0]), pod, level,
				       minor, emulation_minor, out, err);
}

int dsi_pss_newest_minor(void)
{
	return dsi_pss_max_minor(default_checks, sizeof(default_checks) / sizeof(default_checks[0]));
}

int dsi_pss_run_check(const dsi_pss_pod *pod, const char *id, int minor, dsi_pss_result *res, ds_error *err)
{
	memset(res, 0, sizeof(*res));
	for (size_t i = 0; i < sizeof(default_checks) / sizeof(default_checks[0]); i++) {
		if (strcmp(default_checks[i].id, id) != 0)
			continue;
		const dsi_pss_revision *r = active_revision(&default_checks[i], minor);
		if (!r)
			return dsi_error_set(err, DS_ENOTFOUND, NULL, "check %s has no revision at v1.%d", id, minor);
		if (r->fn(pod, res) < 0) {
			dsi_pss_result_free(res);
			return dsi_error_nomem(err);
		}
		return 0;
	}
	return dsi_error_set(err, DS_ENOTFOUND, NULL, "unknown check %s", id);
}

/* AggregateCheckResult.ForbiddenReason (policy/checks.go) */
void dsi_pss_forbidden_reason(const dsi_pss_eval *e, dsi_strbuf *b)
{
	for (size_t i = 0; i < e->n; i++) {
		if (i)
			dsi_strbuf_puts(b, ", ");
		dsi_strbuf_puts(b, e->v[i].reason);
	}
}

/* AggregateCheckResult.ForbiddenDetail (policy/checks.go) */
void dsi_pss_forbidden_detail(const dsi_pss_eval *e, dsi_strbuf *b)
{
	for (size_t i = 0; i < e->n; i++) {
		if (i)
			dsi_strbuf_puts(b, ", ");
		dsi_strbuf_puts(b, e->v[i].reason);
		if (e->v[i].detail && *e->v[i].detail) {
			dsi_strbuf_puts(b, " (");
			dsi_strbuf_puts(b, e->v[i].detail);
			dsi_strbuf_putc(b, ')');
		}
	}
}
