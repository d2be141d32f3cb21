/* Checks on privileges: privileged, capabilities (baseline and restricted), allowPrivilegeEscalation. */
#include <string.h>

#include "pss/pss.h"

/* privileged_1_0 (policy/check_privileged.go) */
int dsi_pss_privileged_1_0(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs names = {0};
	for (uint32_t i = 0; i < pod->n_containers; i++)
		if (pod->containers[i].sc.privileged == 1)
			dsi_pss_strs_add(&names, pod->containers[i].name);
	return dsi_pss_names_verdict(res, "privileged", &names, "container", "containers",
				     " must not set securityContext.privileged=true");
}

/* capabilities_allowed_1_0 (policy/check_capabilities_baseline.go): exact, case-sensitive */
int dsi_pss_capability_in_baseline(const char *cap)
{
	static const char *const allowed[] = {"AUDIT_WRITE", "CHOWN",  "DAC_OVERRIDE",     "FOWNER",  "FSETID",
					      "KILL",        "MKNOD",  "NET_BIND_SERVICE", "SETFCAP", "SETGID",
					      "SETPCAP",     "SETUID", "SYS_CHROOT"};
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		if (strcmp(cap, allowed[i]) == 0)
			return 1;
	return 0;
}

/* `<containers> must not include <caps> in securityContext.capabilities.add` */
static void must_not_include(dsi_strbuf *b, dsi_pss_strs *names, dsi_pss_strs *caps)
{
	dsi_pss_strs_sort_unique(caps);
	dsi_pss_containers_phrase(b, names);
	dsi_strbuf_puts(b, " must not include ");
	dsi_pss_join_quote(b, caps->v, caps->n);
	dsi_strbuf_puts(b, " in securityContext.capabilities.add");
}

/* capabilitiesBaseline_1_0 (policy/check_capabilities_baseline.go); drop is ignored */
int dsi_pss_capabilities_baseline_1_0(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs names = {0}, caps = {0};
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		const dsi_pss_sc *sc = &pod->containers[i].sc;
		int bad = 0;
		for (uint32_t k = 0; k < sc->n_add; k++)
			if (!dsi_pss_capability_in_baseline(sc->cap_add[k])) {
				bad = 1;
				dsi_pss_strs_add(&caps, sc->cap_add[k]);
			}
		if (bad)
			dsi_pss_strs_add(&names, pod->containers[i].name);
	}
	int rc = 0;
	if (names.oom || caps.oom) {
		rc = DS_ENOMEM;
	} else if (!names.n) {
		res->allowed = 1;
	} else {
		dsi_strbuf b = DSI_STRBUF_INIT;
		must_not_include(&b, &names, &caps);
		rc = dsi_pss_finish(res, "non-default capabilities", &b);
	}
	dsi_pss_strs_free(&names);
	dsi_pss_strs_free(&caps);
	return rc;
}

/* allowPrivilegeEscalation_1_8 (policy/check_allowPrivilegeEscalation.go): must be explicitly false */
int dsi_pss_allow_privilege_escalation_1_8(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs names = {0};
	for (uint32_t i = 0; i < pod->n_containers; i++)
		if (pod->containers[i].sc.allow_privilege_escalation != 0)
			dsi_pss_strs_add(&names, pod->containers[i].name);
	return dsi_pss_names_verdict(res, "allowPrivilegeEscalation != false", &names, "container", "containers",
				     " must set securityContext.allowPrivilegeEscalation=false");
}

/* spec.os.name == "windows" exempts three restricted checks from 1.25 */
static int windows_pod(const dsi_pss_pod *pod) { return pod->os_name && strcmp(pod->os_name, "windows") == 0; }

/* allowPrivilegeEscalation_1_25 (policy/check_allowPrivilegeEscalation.go) */
int dsi_pss_allow_privilege_escalation_1_25(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	if (windows_pod(pod)) {
		res->allowed = 1;
		return 0;
	}
	return dsi_pss_allow_privilege_escalation_1_8(pod, res);
}

/* capabilitiesRestricted_1_22 (policy/check_capabilities_restricted.go) */
int dsi_pss_capabilities_restricted_1_22(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs missing = {0}, adding = {0}, caps = {0};
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		const dsi_pss_container *c = &pod->containers[i];
		if (!c->sc.set || !c->sc.has_capabilities) {
			dsi_pss_strs_add(&missing, c->name);
			continue;
		}
		int dropped_all = 0;
		for (uint32_t k = 0; k < c->sc.n_drop && !dropped_all; k++)
			dropped_all = strcmp(c->sc.cap_drop[k], "ALL") == 0;
		if (!dropped_all)
			dsi_pss_strs_add(&missing, c->name);
		int bad = 0;
		for (uint32_t k = 0; k < c->sc.n_add; k++)
			if (strcmp(c->sc.cap_add[k], "NET_BIND_SERVICE") != 0) {
				bad = 1;
				dsi_pss_strs_add(&caps, c->sc.cap_add[k]);
			}
		if (bad)
			dsi_pss_strs_add(&adding, c->name);
	}
	int rc = 0;
	if (missing.oom || adding.oom || caps.oom) {
		rc = DS_ENOMEM;
	} else if (!missing.n && !adding.n) {
		res->allowed = 1;
	} else {
		dsi_strbuf b = DSI_STRBUF_INIT;
		if (missing.n) {
			dsi_pss_containers_phrase(&b, &missing);
			dsi_strbuf_puts(&b, " must set securityContext.capabilities.drop=[\"ALL\"]");
		}
		if (adding.n) {
			if (missing.n)
				dsi_strbuf_puts(&b, "; ");
			must_not_include(&b, &adding, &caps);
		}
		rc = dsi_pss_finish(res, "unrestricted capabilities", &b);
	}
	dsi_pss_strs_free(&missing);
	dsi_pss_strs_free(&adding);
	dsi_pss_strs_free(&caps);
	return rc;
}

/* capabilitiesRestricted_1_25 (policy/check_capabilities_restricted.go) */
int dsi_pss_capabilities_restricted_1_25(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	if (windows_pod(pod)) {
		res->allowed = 1;
		return 0;
	}
	return dsi_pss_capabilities_restricted_1_22(pod, res);
}
