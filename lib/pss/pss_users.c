/* Checks on users and what user namespaces relax: procMount, runAsNonRoot, runAsUser. */
#include <string.h>

#include "pss/pss.h"

/* procMount_1_0 (policy/check_procMount_baseline.go); also procMount_restricted from 1.35 */
int dsi_pss_proc_mount_1_0(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs names = {0}, values = {0};
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		const char *pm = pod->containers[i].sc.proc_mount;
		if (pm && strcmp(pm, "Default") != 0) {
			dsi_pss_strs_add(&names, pod->containers[i].name);
			dsi_pss_strs_add(&values, pm);
		}
	}
	int rc = 0;
	if (names.oom || values.oom) {
		rc = DS_ENOMEM;
	} else if (!names.n) {
		res->allowed = 1;
	} else {
		dsi_pss_strs_sort_unique(&values);
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_pss_containers_phrase(&b, &names);
		dsi_strbuf_puts(&b, " must not set securityContext.procMount to ");
		dsi_pss_join_quote(&b, values.v, values.n);
		rc = dsi_pss_finish(res, "procMount", &b);
	}
	dsi_pss_strs_free(&names);
	dsi_pss_strs_free(&values);
	return rc;
}

/* procMount1_35baseline (policy/check_procMount_baseline.go): any value in a user namespace */
int dsi_pss_proc_mount_1_35(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	if (dsi_pss_user_namespace(pod)) {
		res->allowed = 1;
		return 0;
	}
	return dsi_pss_proc_mount_1_0(pod, res);
}

/* runAsNonRoot1_0 (policy/check_runAsNonRoot.go) */
int dsi_pss_run_as_non_root_1_0(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs bad = {0}, implicit = {0};
	int pod_bad = pod->run_as_non_root == 0;
	int pod_true = pod->run_as_non_root == 1;
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		int v = pod->containers[i].sc.run_as_non_root;
		if (v == 0)
			dsi_pss_strs_add(&bad, pod->containers[i].name);
		else if (v == DSI_PSS_UNSET && !pod_true)
			dsi_pss_strs_add(&implicit, pod->containers[i].name);
	}
	int rc = 0;
	dsi_strbuf b = DSI_STRBUF_INIT;
	if (bad.oom || implicit.oom) {
		rc = DS_ENOMEM;
	} else if (pod_bad || bad.n) {
		/* an explicit false anywhere wins */
		if (pod_bad)
			dsi_strbuf_puts(&b, bad.n ? "pod and " : "pod");
		if (bad.n)
			dsi_pss_containers_phrase(&b, &bad);
		dsi_strbuf_puts(&b, " must not set securityContext.runAsNonRoot=false");
		rc = dsi_pss_finish(res, "runAsNonRoot != true", &b);
	} else if (implicit.n) {
		dsi_strbuf_puts(&b, "pod or ");
		dsi_pss_containers_phrase(&b, &implicit);
		dsi_strbuf_puts(&b, " must set securityContext.runAsNonRoot=true");
		rc = dsi_pss_finish(res, "runAsNonRoot != true", &b);
	} else {
		res->allowed = 1;
	}
	dsi_pss_strs_free(&bad);
	dsi_pss_strs_free(&implicit);
	return rc;
}

/* runAsNonRoot1_35 (policy/check_runAsNonRoot.go): any value in a user namespace */
int dsi_pss_run_as_non_root_1_35(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	if (dsi_pss_user_namespace(pod)) {
		res->allowed = 1;
		return 0;
	}
	return dsi_pss_run_as_non_root_1_0(pod, res);
}

/* runAsUser1_23 (policy/check_runAsUser.go) */
int dsi_pss_run_as_user_1_23(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs bad = {0};
	int pod_bad = pod->has_run_as_user && pod->run_as_user == 0;
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		const dsi_pss_sc *sc = &pod->containers[i].sc;
		if (sc->has_run_as_user && sc->run_as_user == 0)
			dsi_pss_strs_add(&bad, pod->containers[i].name);
	}
	int rc = 0;
	if (bad.oom) {
		rc = DS_ENOMEM;
	} else if (!pod_bad && !bad.n) {
		res->allowed = 1;
	} else {
		dsi_strbuf b = DSI_STRBUF_INIT;
		if (pod_bad)
			dsi_strbuf_puts(&b, bad.n ? "pod and " : "pod");
		if (bad.n)
			dsi_pss_containers_phrase(&b, &bad);
		dsi_strbuf_puts(&b, " must not set runAsUser=0");
		rc = dsi_pss_finish(res, "runAsUser=0", &b);
	}
	dsi_pss_strs_free(&bad);
	return rc;
}

/* runAsUser1_35 (policy/check_runAsUser.go): any value in a user namespace */
int dsi_pss_run_as_user_1_35(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	if (dsi_pss_user_namespace(pod)) {
		res->allowed = 1;
		return 0;
	}
	return dsi_pss_run_as_user_1_23(pod, res);
}
