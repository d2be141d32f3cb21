/* Baseline checks on sharing the host: namespaces, ports, probe hosts, Windows HostProcess. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "pss/pss.h"

/* hostNamespaces_1_0 (policy/check_hostNamespaces.go) */
int dsi_pss_host_namespaces_1_0(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	const char *ns[3];
	size_t n = 0;
	if (pod->host_network)
		ns[n++] = "hostNetwork=true";
	if (pod->host_pid)
		ns[n++] = "hostPID=true";
	if (pod->host_ipc)
		ns[n++] = "hostIPC=true";
	if (!n) {
		res->allowed = 1;
		return 0;
	}
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_pss_join(&b, ns, n, ", ");
	return dsi_pss_finish(res, "host namespaces", &b);
}

/* hostPorts_1_0 (policy/check_hostPorts.go): distinct ports as decimal strings, sorted as strings */
int dsi_pss_host_ports_1_0(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs names = {0}, ports = {0};
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		const dsi_pss_container *c = &pod->containers[i];
		int bad = 0;
		for (uint32_t p = 0; p < c->n_ports; p++) {
			if (c->ports[p].host_port == 0)
				continue;
			bad = 1;
			char buf[16];
			snprintf(buf, sizeof(buf), "%ld", (long)c->ports[p].host_port);
			size_t k;
			for (k = 0; k < ports.n && strcmp(ports.v[k], buf) != 0; k++)
				;
			if (k == ports.n)
				dsi_pss_strs_add_owned(&ports, dsi_strdup(buf));
		}
		if (bad)
			dsi_pss_strs_add(&names, c->name);
	}
	int rc = 0;
	if (names.oom || ports.oom) {
		rc = DS_ENOMEM;
	} else if (!names.n) {
		res->allowed = 1;
	} else {
		dsi_pss_strs_sort_unique(&ports); /* already distinct: this only sorts */
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_pss_containers_phrase(&b, &names);
		dsi_strbuf_printf(&b, " %s %s ", dsi_pss_plural("uses", "use", names.n),
				  dsi_pss_plural("hostPort", "hostPorts", ports.n));
		dsi_pss_join(&b, ports.v, ports.n, ", ");
		rc = dsi_pss_finish(res, "hostPort", &b);
	}
	dsi_pss_strs_free(&names);
	dsi_pss_strs_free_owned(&ports);
	return rc;
}

/*
 * hostProbesAndHostLifecycleV1Dot34 (policy/check_hostProbesAndhostLifecycle.go). Confirmed against
 * kubernetes/kubernetes staging/src/k8s.io/pod-security-admission/policy/check_hostProbesAndhostLifecycle.go
 * at commit 2e94b405ac89 (a tree whose CHANGELOG reaches v1.38): still the check's only revision,
 * MinimumVersion 1.34, baseline. visitContainers (init, regular, ephemeral containers); for each, the
 * liveness, readiness and startup probes, then lifecycle postStart and preStop; in each handler httpGet.host
 * then tcpSocket.host when non-empty (grpc and exec have no host); both sets listed sorted; reason "probe or
 * lifecycle host". The fixtures are in tests/unit/test_pss.c.
 */
int dsi_pss_host_probes_1_34(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs names = {0}, hosts = {0};
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		const dsi_pss_container *c = &pod->containers[i];
		if (!c->n_probe_hosts)
			continue;
		dsi_pss_strs_add(&names, c->name);
		for (uint32_t h = 0; h < c->n_probe_hosts; h++)
			dsi_pss_strs_add(&hosts, c->probe_hosts[h]);
	}
	int rc = 0;
	if (names.oom || hosts.oom) {
		rc = DS_ENOMEM;
	} else if (!names.n) {
		res->allowed = 1;
	} else {
		/* both are sets here, listed sorted */
		dsi_pss_strs_sort_unique(&names);
		dsi_pss_strs_sort_unique(&hosts);
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_pss_containers_phrase(&b, &names);
		dsi_strbuf_printf(&b, " %s %s ", dsi_pss_plural("uses", "use", names.n),
				  dsi_pss_plural("probe or lifecycle host", "probe or lifecycle hosts", hosts.n));
		dsi_pss_join_quote(&b, hosts.v, hosts.n);
		rc = dsi_pss_finish(res, "probe or lifecycle host", &b);
	}
	dsi_pss_strs_free(&names);
	dsi_pss_strs_free(&hosts);
	return rc;
}

/* windowsHostProcess_1_0 (policy/check_windowsHostProcess.go) */
int dsi_pss_windows_host_process_1_0(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs names = {0};
	for (uint32_t i = 0; i < pod->n_containers; i++)
		if (pod->containers[i].sc.host_process == 1)
			dsi_pss_strs_add(&names, pod->containers[i].name);
	int pod_bad = pod->host_process == 1;
	int rc = 0;
	if (names.oom) {
		rc = DS_ENOMEM;
	} else if (!pod_bad && !names.n) {
		res->allowed = 1;
	} else {
		dsi_strbuf b = DSI_STRBUF_INIT;
		if (pod_bad)
			dsi_strbuf_puts(&b, "pod");
		if (names.n) {
			if (pod_bad)
				dsi_strbuf_puts(&b, " and ");
			dsi_pss_containers_phrase(&b, &names);
		}
		dsi_strbuf_puts(&b, " must not set securityContext.windowsOptions.hostProcess=true");
		rc = dsi_pss_finish(res, "hostProcess", &b);
	}
	dsi_pss_strs_free(&names);
	return rc;
}
