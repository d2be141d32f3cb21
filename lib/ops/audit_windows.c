/*
 * The audit of Windows pods: Windows host paths and named pipes (csi-proxy's pipes give control of
 * the host's disks and volumes; the runtime's pipe gives control of every container), and the
 * account each container runs as (windowsOptions.runAsUserName). Linux-only findings are not
 * reported for these pods (riskaudit.c decides which pods are Windows pods: audit_placement.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"
#include "ops/audit_internal.h"

int dsi_audit_windows_path(const char *p)
{
	if (p[0] == '\\' && p[1] == '\\')
		return 1; /* \\.\pipe\..., \\server\share */
	return isalpha((unsigned char)p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/' || p[2] == '\0');
}

/* Lowercase, '/' as '\', no repeated or trailing separators (but "c:\" and the leading "\\" stay). */
static void normalise(const char *in, char *out, size_t size)
{
	size_t n = 0;
	for (size_t i = 0; in[i] && n + 1 < size; i++) {
		char ch = in[i] == '/' ? '\\' : (char)tolower((unsigned char)in[i]);
		if (ch == '\\' && n > 0 && out[n - 1] == '\\' && !(i == 1 && out[0] == '\\'))
			continue;
		out[n++] = ch;
	}
	while (n > 3 && out[n - 1] == '\\')
		n--;
	out[n] = '\0';
}

typedef struct win_risk {
	const char *path; /* normalised */
	uint8_t subtree, rw, ro;
	const char *what;
} win_risk;

#define C DSI_SEV_CRITICAL
#define H DSI_SEV_HIGH
#define M DSI_SEV_MEDIUM
#define L DSI_SEV_LOW
static const win_risk win_paths[] = {
	{"c:\\", 0, C, H, "the host's system drive"},
	{"c:\\windows", 1, C, H, "the Windows system directory"},
	{"c:\\var\\lib\\kubelet", 1, C, H,
	 "the kubelet's state, including every pod's secrets and service-account tokens"},
	{"c:\\var\\lib\\kubelet\\device-plugins", 1, H, M,
	 "the kubelet's device-plugin sockets: registering device plugins and answering its device allocations"},
	{"c:\\var\\lib\\kubelet\\plugins_registry", 1, H, M,
	 "the kubelet's plugin registration sockets: registering CSI drivers and device plugins"},
	{"c:\\var\\lib\\kubelet\\plugins", 1, H, M, "CSI drivers' sockets"},
	{"c:\\k", 1, C, H, "the kubelet, its kubeconfig and the node's Kubernetes binaries on many Windows nodes"},
	{"c:\\etc\\kubernetes", 1, C, H, "Kubernetes configuration and credentials"},
	{"c:\\programdata\\docker", 1, C, H, "Docker's configuration and storage: every container's filesystem"},
	{"c:\\programdata\\containerd", 1, C, H, "containerd's storage: every container's filesystem"},
	{"c:\\program files", 1, C, L, "host programs"},
	{"c:\\users", 1, H, M, "users' profiles"},
	{"c:\\var\\log", 1, H, M, "node and container logs"},
};

/* csi-proxy's APIs, by the pipe's name (\\.\pipe\csi-proxy-<api>-<version>) */
static const struct {
	const char *api, *what;
} csi_proxy_apis[] = {
	{"disk", "csi-proxy's disk API: listing, partitioning and bringing online any disk of the host"},
	{"volume", "csi-proxy's volume API: formatting, mounting and resizing any volume of the host"},
	{"filesystem", "csi-proxy's filesystem API: creating, linking and removing paths anywhere on the host"},
	{"smb", "csi-proxy's SMB API: mapping remote shares with credentials on the host"},
	{"iscsi", "csi-proxy's iSCSI API: connecting the host to iSCSI targets"},
	{"system", "csi-proxy's system API: starting and stopping the host's services"},
};
#undef M
#undef L

static int covers(const char *a, const char *b)
{
	size_t la = strlen(a);
	if (la && a[la - 1] == '\\') /* the drive root */
		return strncmp(a, b, la) == 0;
	return strncmp(a, b, la) == 0 && (b[la] == '\0' || b[la] == '\\');
}

int dsi_audit_windows_path_rating(const char *path, int writable, const char **what, const char **id, const char **fix)
{
	char p[512];
	normalise(path, p, sizeof(p));
	static const char pipe[] = "\\\\.\\pipe\\";
	if (strncmp(p, pipe, sizeof(pipe) - 1) == 0) {
		const char *name = p + sizeof(pipe) - 1;
		*id = "windowsNamedPipe";
		*fix = "Mount only the pipes the agent uses; whoever can write to the pipe acts with the privileges of "
		       "the service behind it on the node, and readOnly does not limit that. Keep such DaemonSets in "
		       "a namespace of their own with only the RBAC they need.";
		if (strcmp(name, "docker_engine") == 0 || strncmp(name, "containerd-containerd", 21) == 0) {
			*what = strcmp(name, "docker_engine") == 0
					? "the Docker engine's named pipe: control of every "
					  "container on the node"
					: "containerd's named pipe: control of every container "
					  "on the node";
			return C;
		}
		if (strncmp(name, "csi-proxy-", 10) == 0) {
			for (size_t i = 0; i < sizeof(csi_proxy_apis) / sizeof(csi_proxy_apis[0]); i++) {
				size_t n = strlen(csi_proxy_apis[i].api);
				if (strncmp(name + 10, csi_proxy_apis[i].api, n) == 0 &&
				    (name[10 + n] == '-' || name[10 + n] == '\0')) {
					*what = csi_proxy_apis[i].what;
					return H;
				}
			}
			*what = "a csi-proxy API: control of the host's disks and volumes";
			return H;
		}
		*what = "a named pipe of a host service: its privileges on the node";
		return DSI_SEV_MEDIUM;
	}
	*id = "hostPath";
	*fix = writable ? "Mount it readOnly: true and narrow the path to the files the agent needs; prefer a CSI or "
			  "projected volume where one exists."
			: "Narrow the path to the files the agent needs; prefer a CSI or projected volume where one "
			  "exists.";
	/* as for Linux paths: the most specific entry covering the path, and anything below it */
	const win_risk *near = NULL, *worst;
	size_t n = sizeof(win_paths) / sizeof(win_paths[0]);
	for (size_t i = 0; i < n; i++)
		if ((strcmp(win_paths[i].path, p) == 0 || (win_paths[i].subtree && covers(win_paths[i].path, p))) &&
		    (!near || strlen(win_paths[i].path) > strlen(near->path)))
			near = &win_paths[i];
	worst = near;
	for (size_t i = 0; i < n; i++) {
		const win_risk *r = &win_paths[i];
		if (strcmp(r->path, p) == 0 || !covers(p, r->path))
			continue;
		if (!worst || (writable ? r->rw : r->ro) < (writable ? worst->rw : worst->ro))
			worst = r;
	}
	if (!worst) {
		*what = "a host directory";
		return writable ? DSI_SEV_MEDIUM : DSI_SEV_LOW;
	}
	*what = near ? near->what : "a host directory";
	if (!near) {
		/* a directory above what the table rates: name what it includes */
		static const struct {
			const char *path, *what;
		} includes[] = {
			{"c:\\windows", "a host directory, which includes C:\\Windows (the Windows system directory)"},
			{"c:\\var\\lib\\kubelet", "a host directory, which includes C:\\var\\lib\\kubelet (the "
						  "kubelet's state, including every pod's "
						  "secrets and service-account tokens)"},
			{"c:\\k", "a host directory, which includes C:\\k (the kubelet and its kubeconfig)"},
			{"c:\\etc\\kubernetes", "a host directory, which includes C:\\etc\\kubernetes (Kubernetes "
						"configuration and credentials)"},
			{"c:\\programdata\\docker", "a host directory, which includes C:\\ProgramData\\docker (every "
						    "container's filesystem)"},
			{"c:\\programdata\\containerd", "a host directory, which includes C:\\ProgramData\\containerd "
							"(every container's filesystem)"},
			{"c:\\program files", "a host directory, which includes C:\\Program Files (host programs)"},
			{"c:\\users", "a host directory, which includes C:\\Users (users' profiles)"},
			{"c:\\var\\log", "a host directory, which includes C:\\var\\log (node and container logs)"},
		};
		for (size_t i = 0; i < sizeof(includes) / sizeof(includes[0]); i++)
			if (strcmp(includes[i].path, worst->path) == 0)
				*what = includes[i].what;
	}
	return writable ? worst->rw : worst->ro;
}
#undef C
#undef H

static int ieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
	return *a == *b;
}

/* securityContext.windowsOptions.runAsUserName of obj (a container or the pod spec), NULL when unset */
static int run_as_user_name(dsi_rd *rd, const json_t *obj, const char **out)
{
	json_t *sc, *wo;
	*out = NULL;
	int rc = dsi_rd_object(rd, obj, "securityContext", &sc);
	if (rc < 0 || !sc)
		return rc;
	size_t m = dsi_rd_push(rd, "securityContext");
	if ((rc = dsi_rd_object(rd, sc, "windowsOptions", &wo)) < 0 || !wo)
		return rc;
	dsi_rd_push(rd, "windowsOptions");
	if ((rc = dsi_rd_string(rd, wo, "runAsUserName", out)) < 0)
		return rc;
	dsi_rd_pop(rd, m);
	return 0;
}

/* How an account is rated: 0 and *sev when it is worth a finding, -1 when not; *what ends the message. */
static int rate_user(const char *user, int hp, int *sev, const char **what)
{
	if (!user) {
		*sev = hp ? DSI_SEV_MEDIUM : DSI_SEV_LOW;
		*what = hp ? "set no runAsUserName: the image decides which host account the HostProcess container "
			     "runs as"
			   : "set no runAsUserName: the image decides, which is ContainerAdministrator for most "
			     "Windows "
			     "base images";
		return 0;
	}
	if (ieq(user, "NT AUTHORITY\\SYSTEM")) {
		*sev = hp ? DSI_SEV_HIGH : DSI_SEV_MEDIUM;
		*what = hp ? "run as NT AUTHORITY\\SYSTEM, the most privileged account of the node, directly on the "
			     "host"
			   : "run as NT AUTHORITY\\SYSTEM, the most privileged account inside the container";
		return 0;
	}
	if (ieq(user, "ContainerAdministrator")) {
		*sev = DSI_SEV_MEDIUM;
		*what = "run as ContainerAdministrator: an administrator of the container, who can change anything "
			"mounted from the host";
		return 0;
	}
	if (hp && !ieq(user, "NT AUTHORITY\\Local service") && !ieq(user, "NT AUTHORITY\\LocalService") &&
	    !ieq(user, "NT AUTHORITY\\NetworkService") && !ieq(user, "NT AUTHORITY\\Network service")) {
		*sev = DSI_SEV_LOW;
		*what = "run as a host account or group of the HostProcess pod's choosing: it has that account's "
			"rights on "
			"the node";
		return 0;
	}
	return -1;
}

static const char user_fix[] = "Run as ContainerUser (or, for HostProcess containers, as NT AUTHORITY\\Local service, "
			       "NT AUTHORITY\\NetworkService or a local group created for the agent) and grant it only "
			       "the rights the agent needs.";

int dsi_audit_windows(dsi_audit_ctx *a, ds_error *err)
{
	const dsi_pss_pod *pod = a->pod;
	const json_t *spec = a->target->tmpl ? json_object_get(a->target->tmpl, "spec") : NULL;
	if (!json_is_object(spec))
		return 0;
	dsi_rd rd;
	dsi_pss_rd_at(&rd, err, a->spec);
	const char *pod_user;
	int rc = run_as_user_name(&rd, spec, &pod_user);
	if (rc < 0)
		return rc;
	/* containers that take the pod's account, one finding for them at the pod's field: [hp] */
	dsi_pss_strs from_pod[2] = {{0}, {0}};
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		const dsi_pss_container *c = &pod->containers[i];
		if (c->list == DSI_PSS_EPHEMERAL_CONTAINERS)
			continue;
		const char *list = dsi_pss_container_list_name(c->list);
		const json_t *cj = json_array_get(json_object_get(spec, list), c->index);
		const char *user = NULL;
		dsi_pss_rd_at(&rd, err, a->spec);
		dsi_rd_push(&rd, list);
		dsi_rd_push_index(&rd, c->index);
		if (cj && (rc = run_as_user_name(&rd, cj, &user)) < 0)
			break;
		int hp = c->sc.host_process == 1 || (pod->host_process == 1 && c->sc.host_process != 0);
		if (!user && pod_user) {
			dsi_pss_strs_add(&from_pod[hp], c->name);
			continue;
		}
		int sev;
		const char *what;
		if (rate_user(user, hp, &sev, &what) == 0)
			dsi_findings_add(a->out, "windowsRunAsUserName", sev,
					 dsi_audit_cpath(a, c, ".securityContext.windowsOptions.runAsUserName"),
					 user_fix, "%s \"%s\" %.*ss%s", hp ? "HostProcess container" : "container",
					 c->name, (int)strcspn(what, " "), what, what + strcspn(what, " "));
	}
	for (int hp = 0; hp < 2 && rc == 0; hp++) {
		int sev;
		const char *what;
		if (from_pod[hp].oom)
			a->out->oom = 1;
		if (!from_pod[hp].n || rate_user(pod_user, hp, &sev, &what) < 0)
			continue;
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_pss_containers_phrase(&b, &from_pod[hp]);
		dsi_findings_add(a->out, "windowsRunAsUserName", sev,
				 dsi_format("%s.securityContext.windowsOptions.runAsUserName", a->spec), user_fix,
				 "%s%s %.*s%s%s (the pod's runAsUserName)", hp ? "HostProcess " : "",
				 b.data ? b.data : "", (int)strcspn(what, " "), what, from_pod[hp].n == 1 ? "s" : "",
				 what + strcspn(what, " "));
		if (b.oom)
			a->out->oom = 1;
		dsi_strbuf_free(&b);
	}
	dsi_pss_strs_free(&from_pod[0]);
	dsi_pss_strs_free(&from_pod[1]);
	return rc;
}
