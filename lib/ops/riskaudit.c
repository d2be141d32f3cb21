/*
 * DaemonSet security audit: risk findings beyond the Pod Security Standards
 * (host access, privileges, confinement, credentials, placement), and the
 * report that puts them next to the PSS verdicts.
 */
#include "ops/riskaudit.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"
#include "model/taints.h"
#include "ops/audit_internal.h"
#include "sched/tolerations.h"

/* ---- findings -------------------------------------------------------------------------- */

const char *dsi_severity_name(int severity)
{
	static const char *const names[DSI_SEV_COUNT] = {"critical", "high", "medium", "low", "info"};
	return severity >= 0 && severity < DSI_SEV_COUNT ? names[severity] : "info";
}

void dsi_findings_free(dsi_findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		dsi_free(f->v[i].path);
		dsi_free(f->v[i].message);
	}
	dsi_free(f->v);
	memset(f, 0, sizeof(*f));
}

static int cmp_finding(const void *pa, const void *pb)
{
	const dsi_finding *a = pa, *b = pb;
	if (a->severity != b->severity)
		return a->severity < b->severity ? -1 : 1;
	int c = strcmp(a->path, b->path);
	if (c)
		return c;
	if ((c = strcmp(a->id, b->id)) != 0)
		return c;
	return strcmp(a->message, b->message);
}

void dsi_findings_sort(dsi_findings *f)
{
	if (f->n > 1)
		qsort(f->v, f->n, sizeof(*f->v), cmp_finding);
}

void dsi_findings_add_owned(dsi_findings *f, const char *id, int sev, char *path, char *message,
			    const char *remediation)
{
	if (!f->oom && path && message && DSI_GROW(f->v, f->cap, f->n + 1) == 0) {
		f->v[f->n++] = (dsi_finding){id, sev, path, message, remediation};
		return;
	}
	f->oom = 1;
	dsi_free(path);
	dsi_free(message);
}

void dsi_findings_add(dsi_findings *f, const char *id, int sev, char *path, const char *remediation, const char *fmt,
		      ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = dsi_vformat(fmt, ap);
	va_end(ap);
	dsi_findings_add_owned(f, id, sev, path, msg, remediation);
}

#define format dsi_format
#define add dsi_findings_add
#define add_owned dsi_findings_add_owned

/* ---- host paths -------------------------------------------------------------------------- */

/* path.Clean (Go path/path.go), lexically; the result is at most as long as the input */
static void clean_path(const char *in, char *out, size_t size)
{
	size_t n = 0;
	int rooted = in[0] == '/';
	if (rooted && size > 1)
		out[n++] = '/';
	size_t base = n; /* out[0..base) cannot be backtracked over */
	const char *p = in;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == 1 && p[0] == '.') {
			/* skip */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			if (n > base) {
				while (n > base && out[n - 1] != '/')
					n--;
				if (n > base)
					n--; /* the separator */
			} else if (!rooted) {
				if (n > 0 && n + 1 < size)
					out[n++] = '/';
				for (size_t i = 0; i < 2 && n + 1 < size; i++)
					out[n++] = '.';
				base = n;
			}
		} else {
			if (n > (rooted ? 1u : 0u) && n + 1 < size)
				out[n++] = '/';
			for (size_t i = 0; i < len && n + 1 < size; i++)
				out[n++] = p[i];
		}
		p += len;
	}
	if (n == 0 && size > 1)
		out[n++] = '.';
	out[n] = '\0';
}

/* path.Clean of in as a new string (dsi_free; NULL without memory): the result is never longer than
 * in plus a "/" or a ".". */
static char *cleaned(const char *in)
{
	size_t size = strlen(in) + 2;
	char *out = dsi_malloc(size);
	if (out)
		clean_path(in, out, size);
	return out;
}

/* a is b or one of its ancestors */
static int covers(const char *a, const char *b)
{
	size_t la = strlen(a);
	if (strcmp(a, "/") == 0)
		return b[0] == '/';
	return strncmp(a, b, la) == 0 && (b[la] == '\0' || b[la] == '/');
}

typedef struct host_path_risk {
	const char *path;
	uint8_t subtree; /* paths inside inherit the rating */
	uint8_t socket;  /* a runtime socket or its directory: readOnly does not help */
	uint8_t rw, ro;  /* severities */
	const char *what;
} host_path_risk;

#define C DSI_SEV_CRITICAL
#define H DSI_SEV_HIGH
#define M DSI_SEV_MEDIUM
#define L DSI_SEV_LOW
static const host_path_risk host_paths[] = {
	/* container runtime sockets: whoever reaches one controls every container on the node */
	{"/var/run/docker.sock", 1, 1, C, C, "the Docker daemon's socket"},
	{"/run/docker.sock", 1, 1, C, C, "the Docker daemon's socket"},
	{"/var/run/containerd/containerd.sock", 1, 1, C, C, "containerd's socket"},
	{"/run/containerd/containerd.sock", 1, 1, C, C, "containerd's socket"},
	{"/var/run/crio/crio.sock", 1, 1, C, C, "CRI-O's socket"},
	{"/run/crio/crio.sock", 1, 1, C, C, "CRI-O's socket"},
	{"/var/run/cri-dockerd.sock", 1, 1, C, C, "cri-dockerd's socket"},
	{"/run/cri-dockerd.sock", 1, 1, C, C, "cri-dockerd's socket"},
	{"/var/run/dockershim.sock", 1, 1, C, C, "the dockershim socket"},
	{"/run/k3s/containerd/containerd.sock", 1, 1, C, C, "k3s's containerd socket"},
	{"/run/podman/podman.sock", 1, 1, C, C, "Podman's socket"},
	{"/var/run/podman/podman.sock", 1, 1, C, C, "Podman's socket"},
	{"/", 0, 0, C, H, "the host's root filesystem"},
	{"/etc", 1, 0, C, H, "host configuration, including kubelet and control-plane credentials"},
	{"/etc/machine-id", 0, 0, M, L, "the machine id"},
	{"/etc/localtime", 0, 0, M, L, "the host's time zone"},
	{"/root", 1, 0, C, H, "root's home directory"},
	{"/home", 1, 0, H, M, "users' home directories"},
	{"/boot", 1, 0, C, M, "the kernel and boot loader"},
	{"/dev", 1, 0, C, H, "host devices"},
	{"/proc", 1, 0, C, M, "the host's /proc: kernel settings and every process"},
	{"/sys", 1, 0, C, M, "the host's /sys: kernel, cgroups and devices"},
	{"/lib/modules", 1, 0, H, L, "kernel modules"},
	{"/usr", 1, 0, C, L, "host programs"},
	{"/bin", 1, 0, C, L, "host programs"},
	{"/sbin", 1, 0, C, L, "host programs"},
	{"/lib", 1, 0, C, L, "host libraries"},
	{"/lib64", 1, 0, C, L, "host libraries"},
	{"/opt/cni/bin", 1, 0, C, L, "CNI plugins, which the runtime executes as root"},
	{"/var/lib/kubelet", 1, 0, C, H,
	 "the kubelet's state, including every pod's secrets and service-account tokens"},
	/* the kubelet's plugin sockets: what node agents are meant to mount instead of all of its state */
	{"/var/lib/kubelet/device-plugins", 1, 0, H, M,
	 "the kubelet's device-plugin sockets: registering device plugins and answering its device allocations"},
	{"/var/lib/kubelet/plugins_registry", 1, 0, H, M,
	 "the kubelet's plugin registration sockets: registering CSI drivers and device plugins"},
	{"/var/lib/kubelet/plugins", 1, 0, H, M, "CSI drivers' sockets"},
	{"/var/lib/kubelet/pod-resources", 1, 0, M, L, "the kubelet's pod-resources API: the devices of every pod"},
	{"/var/lib/etcd", 1, 0, C, C, "etcd's data: every Secret of the cluster"},
	{"/var/lib/docker", 1, 0, C, H, "Docker's storage: every container's filesystem"},
	{"/var/lib/containerd", 1, 0, C, H, "containerd's storage: every container's filesystem"},
	{"/var/lib/containers", 1, 0, C, H, "CRI-O and Podman storage: every container's filesystem"},
	{"/var/log", 1, 0, H, M,
	 "node and container logs (the kubelet follows links placed there when it serves logs)"},
	{"/var/run", 0, 1, C, C, "the runtime directory, with the container runtime's socket"},
	{"/run", 0, 1, C, C, "the runtime directory, with the container runtime's socket"},
};
#undef C
#undef H
#undef M
#undef L

/*
 * The worst entry a mount of path exposes: the most specific entry that
 * describes the path itself (equal, or an enclosing subtree), and every entry
 * below it. *exact gets that most specific entry (NULL when none).
 */
static const host_path_risk *rate_path(const char *path, int writable, const host_path_risk **exact)
{
	const host_path_risk *worst = NULL, *near = NULL;
	size_t n = sizeof(host_paths) / sizeof(host_paths[0]);
	for (size_t i = 0; i < n; i++) {
		const host_path_risk *r = &host_paths[i];
		if ((strcmp(r->path, path) == 0 || (r->subtree && covers(r->path, path))) &&
		    (!near || strlen(r->path) > strlen(near->path)))
			near = r;
	}
	worst = near;
	for (size_t i = 0; i < n; i++) {
		const host_path_risk *r = &host_paths[i];
		if (strcmp(r->path, path) == 0 || !covers(path, r->path))
			continue; /* only what lies below the mounted path */
		int sev = writable ? r->rw : r->ro;
		if (!worst || sev < (writable ? worst->rw : worst->ro))
			worst = r;
	}
	*exact = near;
	return worst;
}

int dsi_audit_host_path_severity(const char *path, int writable, const char **what)
{
	char clean[DS_ERROR_PATH_MAX * 4];
	clean_path(path, clean, sizeof(clean));
	const host_path_risk *exact;
	const host_path_risk *r = rate_path(clean, writable, &exact);
	if (what)
		*what = r ? r->what : "a host directory";
	if (!r)
		return writable ? DSI_SEV_MEDIUM : DSI_SEV_LOW;
	return writable ? r->rw : r->ro;
}

/* ---- capabilities ------------------------------------------------------------------------ */

static const struct {
	const char *name;
	uint8_t sev;
	const char *what;
} capability_risks[] = {
	{"ALL", DSI_SEV_CRITICAL, "every capability: root on the node in all but name"},
	{"SYS_ADMIN", DSI_SEV_CRITICAL,
	 "mounts, namespaces and most of the kernel's administration: a known escape path"},
	{"SYS_MODULE", DSI_SEV_CRITICAL, "loading kernel modules: arbitrary code in the node's kernel"},
	{"SYS_RAWIO", DSI_SEV_CRITICAL, "raw I/O to devices and memory"},
	{"DAC_READ_SEARCH", DSI_SEV_CRITICAL, "bypassing read permissions and open_by_handle_at: reading host files"},
	{"MAC_ADMIN", DSI_SEV_CRITICAL, "changing the mandatory access control policy"},
	{"MAC_OVERRIDE", DSI_SEV_CRITICAL, "overriding the mandatory access control policy"},
	{"SYS_PTRACE", DSI_SEV_HIGH, "tracing and injecting code into other processes"},
	{"NET_ADMIN", DSI_SEV_HIGH, "reconfiguring interfaces, routes and firewall rules"},
	{"BPF", DSI_SEV_HIGH, "loading eBPF programs into the kernel"},
	{"SYS_BOOT", DSI_SEV_HIGH, "rebooting the node"},
	{"SYS_TIME", DSI_SEV_HIGH, "setting the node's clock"},
	{"AUDIT_CONTROL", DSI_SEV_HIGH, "changing the kernel's audit rules"},
	{"CHECKPOINT_RESTORE", DSI_SEV_HIGH, "checkpointing and restoring other processes"},
	{"NET_RAW", DSI_SEV_MEDIUM, "raw and packet sockets: spoofing and sniffing on the pod network"},
	{"PERFMON", DSI_SEV_MEDIUM, "performance monitoring of the whole node"},
	{"SYSLOG", DSI_SEV_MEDIUM, "reading and clearing the kernel log"},
	{"SYS_RESOURCE", DSI_SEV_MEDIUM, "overriding resource limits"},
	{"IPC_OWNER", DSI_SEV_MEDIUM, "bypassing IPC permission checks"},
	{"LINUX_IMMUTABLE", DSI_SEV_MEDIUM, "changing immutable and append-only file flags"},
	{"SYS_PACCT", DSI_SEV_MEDIUM, "process accounting"},
	{"AUDIT_READ", DSI_SEV_MEDIUM, "reading the audit log"},
	{"SYS_NICE", DSI_SEV_LOW, "raising priorities of any process"},
	{"IPC_LOCK", DSI_SEV_LOW, "locking memory"},
	{"NET_BROADCAST", DSI_SEV_LOW, "broadcast and multicast"},
	{"WAKE_ALARM", DSI_SEV_LOW, "alarms that wake the system"},
	{"BLOCK_SUSPEND", DSI_SEV_LOW, "blocking system suspend"},
	{"SYS_TTY_CONFIG", DSI_SEV_LOW, "configuring terminals"},
	{"LEASE", DSI_SEV_LOW, "file leases"},
};

/* Severity of an added capability (runtimes accept "CAP_" prefixes and any case); -1 for the default set. */
static int capability_severity(const char *cap, const char **what)
{
	char norm[64];
	size_t n = 0;
	const char *p = cap;
	if ((p[0] == 'c' || p[0] == 'C') && (p[1] == 'a' || p[1] == 'A') && (p[2] == 'p' || p[2] == 'P') && p[3] == '_')
		p += 4;
	for (; *p && n + 1 < sizeof(norm); p++)
		norm[n++] = (char)toupper((unsigned char)*p);
	norm[n] = '\0';
	if (dsi_pss_capability_in_baseline(norm))
		return -1;
	for (size_t i = 0; i < sizeof(capability_risks) / sizeof(capability_risks[0]); i++)
		if (strcmp(norm, capability_risks[i].name) == 0) {
			*what = capability_risks[i].what;
			return capability_risks[i].sev;
		}
	*what = "not a capability the audit knows";
	return DSI_SEV_MEDIUM;
}

/* ---- the checks -------------------------------------------------------------------------- */

typedef dsi_audit_ctx audit_ctx;

char *dsi_audit_cpath(const dsi_audit_ctx *a, const dsi_pss_container *c, const char *rest)
{
	return format("%s.%s[%u]%s", a->spec, dsi_pss_container_list_name(c->list), (unsigned)c->index, rest);
}

/* `container "a"` / `containers "a", "b"` as a new string */
static char *phrase(const dsi_pss_strs *names)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_pss_containers_phrase(&b, names);
	return b.oom ? (dsi_strbuf_free(&b), NULL) : dsi_strbuf_detach(&b);
}

static void host_namespaces(audit_ctx *a)
{
	const dsi_pss_pod *pod = a->pod;
	if (pod->host_network) {
		/* SetDefaults_Pod: each pod created gets hostPort = containerPort */
		dsi_pss_strs ports = {0};
		for (uint32_t i = 0; i < pod->n_containers; i++) {
			const dsi_pss_container *c = &pod->containers[i];
			if (c->list == DSI_PSS_EPHEMERAL_CONTAINERS)
				continue;
			for (uint32_t p = 0; p < c->n_ports; p++)
				if (c->ports[p].container_port &&
				    (c->ports[p].host_port == 0 || c->ports[p].host_port_defaulted))
					dsi_pss_strs_add_owned(&ports, format("%ld", (long)c->ports[p].container_port));
		}
		dsi_strbuf note = DSI_STRBUF_INIT;
		if (ports.n && !a->target->is_pod) {
			dsi_strbuf_printf(
				&note,
				"; the API server sets hostPort = containerPort on every pod it creates from this "
				"template (%s ",
				dsi_pss_plural("port", "ports", ports.n));
			dsi_pss_join(&note, ports.v, ports.n, ", ");
			dsi_strbuf_puts(&note,
					"), so the pods also fail the baseline hostPort check although the template "
					"does not");
		} else if (ports.n) {
			dsi_strbuf_printf(&note, "; the API server sets hostPort = containerPort (%s ",
					  dsi_pss_plural("port", "ports", ports.n));
			dsi_pss_join(&note, ports.v, ports.n, ", ");
			dsi_strbuf_puts(&note, "), which the baseline hostPort check forbids");
		}
		if (ports.oom)
			note.oom = 1;
		int host_process = pod->host_process == 1;
		for (uint32_t i = 0; i < pod->n_containers; i++)
			host_process |= pod->containers[i].sc.host_process == 1;
		if (host_process) /* HostProcess pods must set it: the hostProcess finding says what matters */
			dsi_strbuf_puts(&note, "; HostProcess pods require hostNetwork, so the hostProcess finding "
					       "covers it");
		add(a->out, "hostNetwork", host_process ? DSI_SEV_INFO : DSI_SEV_HIGH,
		    format("%s.hostNetwork", a->spec),
		    "Remove hostNetwork unless the agent must manage or observe the node's network; expose the ports "
		    "it "
		    "serves through a Service instead. Host namespaces need a namespace whose "
		    "pod-security.kubernetes.io/enforce label is privileged.",
		    "the pods share the node's network namespace: they can bind any port of the node, reach services "
		    "that listen only on its loopback and see all of its traffic%s",
		    note.oom ? "" : (note.data ? note.data : ""));
		if (note.oom)
			a->out->oom = 1;
		dsi_strbuf_free(&note);
		dsi_pss_strs_free_owned(&ports);
	}
	if (pod->host_pid)
		add(a->out, "hostPID", DSI_SEV_HIGH, format("%s.hostPID", a->spec),
		    "Remove hostPID unless the agent must see or signal host processes; for process metrics a "
		    "read-only mount of /proc exposes less.",
		    "the pods share the node's process namespace: they see every process on the node and their command "
		    "lines, and with SYS_PTRACE or privileged can enter them");
	if (pod->host_ipc)
		add(a->out, "hostIPC", DSI_SEV_MEDIUM, format("%s.hostIPC", a->spec), "Remove hostIPC.",
		    "the pods share the node's IPC namespace: shared memory and message queues of every process on the "
		    "node");
}

static void privileges(audit_ctx *a, const dsi_pss_container *c)
{
	const dsi_pss_sc *sc = &c->sc;
	if (sc->privileged == 1)
		add(a->out, "privileged", DSI_SEV_CRITICAL, dsi_audit_cpath(a, c, ".securityContext.privileged"),
		    "Set privileged: false; drop ALL capabilities and add back only those the agent needs.",
		    "container \"%s\" is privileged: every capability, all host devices, no seccomp, AppArmor or "
		    "SELinux "
		    "confinement; a compromise is root on the node",
		    c->name);
	if (sc->host_process == 1)
		add(a->out, "hostProcess", DSI_SEV_CRITICAL,
		    dsi_audit_cpath(a, c, ".securityContext.windowsOptions.hostProcess"),
		    "Run the agent as a normal Windows container unless it must act on the host itself.",
		    "container \"%s\" is a Windows HostProcess container: it runs directly on the node with the node's "
		    "privileges",
		    c->name);
	if (!a->place->windows) { /* Linux-only settings: Windows pods get audit_windows.c's findings */
		if (sc->privileged != 1) {
			if (sc->allow_privilege_escalation == 1)
				add(a->out, "allowPrivilegeEscalation", DSI_SEV_MEDIUM,
				    dsi_audit_cpath(a, c, ".securityContext.allowPrivilegeEscalation"),
				    "Set securityContext.allowPrivilegeEscalation: false.",
				    "container \"%s\" allows privilege escalation: setuid binaries and file "
				    "capabilities can "
				    "gain "
				    "more privileges than the process started with",
				    c->name);
			else if (sc->allow_privilege_escalation == DSI_PSS_UNSET)
				add(a->out, "allowPrivilegeEscalation", DSI_SEV_LOW,
				    dsi_audit_cpath(a, c, ".securityContext.allowPrivilegeEscalation"),
				    "Set securityContext.allowPrivilegeEscalation: false.",
				    "container \"%s\" does not set allowPrivilegeEscalation: false, so setuid binaries "
				    "can "
				    "gain "
				    "privileges (the default is true)",
				    c->name);
		}
		for (uint32_t k = 0; k < sc->n_add; k++) {
			const char *what = "";
			int sev = capability_severity(sc->cap_add[k], &what);
			if (sev < 0)
				continue;
			char rest[64];
			snprintf(rest, sizeof(rest), ".securityContext.capabilities.add[%u]", (unsigned)k);
			add(a->out, "capabilities", sev, dsi_audit_cpath(a, c, rest),
			    "Drop ALL capabilities and add back only what the agent needs; prefer a narrower "
			    "capability or a "
			    "helper running elsewhere.",
			    "container \"%s\" adds capability %s: %s", c->name, sc->cap_add[k], what);
		}
		if (sc->privileged != 1) {
			int dropped_all = 0;
			for (uint32_t k = 0; k < sc->n_drop; k++)
				dropped_all |= strcmp(sc->cap_drop[k], "ALL") == 0;
			if (!dropped_all)
				add(a->out, "capabilitiesNotDropped", DSI_SEV_LOW,
				    dsi_audit_cpath(a, c, ".securityContext.capabilities.drop"),
				    "Set securityContext.capabilities.drop: [\"ALL\"] and add back only what the agent "
				    "needs.",
				    "container \"%s\" keeps the runtime's default capabilities (it does not drop ALL), "
				    "NET_RAW "
				    "among them",
				    c->name);
		}
		if (sc->read_only_root_filesystem != 1)
			add(a->out, "readOnlyRootFilesystem", DSI_SEV_LOW,
			    dsi_audit_cpath(a, c, ".securityContext.readOnlyRootFilesystem"),
			    "Set securityContext.readOnlyRootFilesystem: true and mount an emptyDir where the agent "
			    "writes.",
			    "container \"%s\" has a writable root filesystem: an intruder can change its programs and "
			    "configuration",
			    c->name);
		if (sc->proc_mount && strcmp(sc->proc_mount, "Default") != 0)
			add(a->out, "procMount", DSI_SEV_HIGH, dsi_audit_cpath(a, c, ".securityContext.procMount"),
			    "Remove procMount (or set Default) unless the pod runs in a user namespace (hostUsers: "
			    "false).",
			    "container \"%s\" sets procMount %s: the kernel's /proc masks are removed", c->name,
			    sc->proc_mount);
		if (sc->has_run_as_user && sc->run_as_user == 0 && !dsi_pss_user_namespace(a->pod))
			add(a->out, "runAsRoot", DSI_SEV_MEDIUM, dsi_audit_cpath(a, c, ".securityContext.runAsUser"),
			    "Run as a non-zero UID with runAsNonRoot: true; grant file access through group ownership "
			    "or "
			    "capabilities, or use a user namespace (hostUsers: false).",
			    "container \"%s\" runs as root (runAsUser: 0)", c->name);
	}
	for (uint32_t p = 0; p < c->n_ports; p++) {
		if (c->ports[p].host_port == 0 || c->ports[p].host_port_defaulted)
			continue;
		char rest[48];
		snprintf(rest, sizeof(rest), ".ports[%u].hostPort", (unsigned)p);
		add(a->out, "hostPort", DSI_SEV_MEDIUM, dsi_audit_cpath(a, c, rest),
		    "Expose the port through a Service; if a node port is required, restrict who can reach it.",
		    "container \"%s\" binds host port %ld on every node it runs on", c->name,
		    (long)c->ports[p].host_port);
	}
	for (uint32_t m = 0; m < c->n_mounts; m++) {
		if (strcmp(c->mounts[m].propagation, "Bidirectional") != 0)
			continue;
		char rest[64];
		snprintf(rest, sizeof(rest), ".volumeMounts[%u].mountPropagation", (unsigned)m);
		add(a->out, "mountPropagation", DSI_SEV_HIGH, dsi_audit_cpath(a, c, rest),
		    "Use HostToContainer (or None) unless the agent must publish mounts to the host, as CSI node "
		    "plugins do.",
		    "container \"%s\" propagates mounts of volume \"%s\" back to the host (Bidirectional)", c->name,
		    c->mounts[m].name);
	}
}

/* One finding for the containers that set no profile of a kind, nor does the pod: "<containers> set no ...";
 * the kind is the finding's id and the pod's securityContext member. */
static void no_profile(audit_ctx *a, const dsi_pss_strs *names, const char *id, int sev, const char *fix,
		       const char *what)
{
	if (!names->n)
		return;
	char *p = phrase(names);
	add(a->out, id, sev, format("%s.securityContext.%s", a->spec, id), fix, "%s %s %s", p ? p : "",
	    dsi_pss_plural("sets", "set", names->n), what);
	dsi_free(p);
}

/* seccomp, AppArmor and SELinux: explicit bad settings per setter, missing ones aggregated */
static void confinement(audit_ctx *a)
{
	const dsi_pss_pod *pod = a->pod;
	dsi_pss_strs no_seccomp = {0}, no_apparmor = {0}, no_selinux = {0};
	static const char *const seccomp_fix =
		"Set securityContext.seccompProfile.type: RuntimeDefault (or Localhost with a profile for the agent).";
	static const char *const apparmor_fix =
		"Set securityContext.appArmorProfile.type: RuntimeDefault (or Localhost with a profile for the agent).";
	static const char *const selinux_fix = "Leave the type to the runtime (container_t) or use a container_* type; "
					       "never spc_t, which is unconfined.";
	static const char *const selinux_allowed[] = {"", "container_t", "container_init_t", "container_kvm_t",
						      "container_engine_t"};
	/* the pod (i == 0), then each container */
	for (uint32_t i = 0; i <= pod->n_containers; i++) {
		const dsi_pss_container *c = i ? &pod->containers[i - 1] : NULL;
		const dsi_pss_profile *sp = c ? &c->sc.seccomp : &pod->seccomp;
		const dsi_pss_profile *ap = c ? &c->sc.apparmor : &pod->apparmor;
		const dsi_pss_selinux *se = c ? &c->sc.selinux : &pod->selinux;
		char *who = c ? format("container \"%s\"", c->name) : dsi_strdup("the pod");
#define SETTER_PATH(rest)                                                                                              \
	(c ? dsi_audit_cpath(a, c, ".securityContext" rest) : format("%s.securityContext" rest, a->spec))
		if (sp->set && !dsi_pss_profile_type_allowed(sp->type))
			add(a->out, "seccompProfile", DSI_SEV_HIGH, SETTER_PATH(".seccompProfile.type"), seccomp_fix,
			    "%s sets seccomp profile type \"%s\": system calls are not filtered", who ? who : "",
			    sp->type);
		if (ap->set && !dsi_pss_profile_type_allowed(ap->type))
			add(a->out, "appArmorProfile", DSI_SEV_HIGH, SETTER_PATH(".appArmorProfile.type"), apparmor_fix,
			    "%s sets AppArmor profile type \"%s\": no AppArmor confinement", who ? who : "", ap->type);
		if (se->set) {
			int ok = 0;
			for (size_t t = 0; t < sizeof(selinux_allowed) / sizeof(selinux_allowed[0]); t++)
				ok |= strcmp(se->type, selinux_allowed[t]) == 0;
			if (!ok)
				add(a->out, "seLinuxOptions", DSI_SEV_HIGH, SETTER_PATH(".seLinuxOptions.type"),
				    selinux_fix, "%s runs with SELinux type %s%s", who ? who : "", se->type,
				    strcmp(se->type, "spc_t") == 0 ? " (super-privileged container: unconfined)" : "");
			if (*se->user || *se->role)
				add(a->out, "seLinuxOptions", DSI_SEV_MEDIUM, SETTER_PATH(".seLinuxOptions"),
				    selinux_fix, "%s sets an SELinux %s", who ? who : "",
				    *se->user && *se->role ? "user and role"
				    : *se->user            ? "user"
							   : "role");
		}
#undef SETTER_PATH
		dsi_free(who);
		if (!c || c->sc.privileged == 1)
			continue; /* privileged containers are unconfined anyway: reported as privileged */
		if (!sp->set && !pod->seccomp.set)
			dsi_pss_strs_add(&no_seccomp, c->name);
		if (!se->set && !pod->selinux.set)
			dsi_pss_strs_add(&no_selinux, c->name);
		if (!ap->set && !pod->apparmor.set) {
			int annotated = 0;
			for (uint32_t k = 0; k < pod->n_annotations && !annotated; k++) {
				const char *key = pod->annotations[k].key;
				static const char prefix[] = "container.apparmor.security.beta.kubernetes.io/";
				annotated = strncmp(key, prefix, sizeof(prefix) - 1) == 0 &&
					    strcmp(key + sizeof(prefix) - 1, c->name) == 0;
			}
			if (!annotated)
				dsi_pss_strs_add(&no_apparmor, c->name);
		}
	}
	/* the beta AppArmor annotations, still honoured */
	for (uint32_t k = 0; k < pod->n_annotations; k++) {
		const dsi_pss_annotation *an = &pod->annotations[k];
		static const char prefix[] = "container.apparmor.security.beta.kubernetes.io/";
		if (strncmp(an->key, prefix, sizeof(prefix) - 1) != 0)
			continue;
		const char *v = an->value;
		if (!*v || strcmp(v, "runtime/default") == 0 || strncmp(v, "localhost/", 10) == 0)
			continue;
		dsi_rd rd;
		ds_error e;
		dsi_pss_rd_at(&rd, &e, a->meta);
		dsi_rd_push(&rd, "annotations");
		dsi_rd_push(&rd, an->key);
		add(a->out, "appArmorProfile", DSI_SEV_HIGH, dsi_strdup(rd.path), apparmor_fix,
		    "container \"%s\" runs with AppArmor profile %s", an->key + sizeof(prefix) - 1, v);
	}
	no_profile(a, &no_seccomp, "seccompProfile", DSI_SEV_MEDIUM, seccomp_fix,
		   "no seccomp profile: unless the kubelet runs with seccompDefault, system calls are not filtered");
	no_profile(a, &no_apparmor, "appArmorProfile", DSI_SEV_LOW, apparmor_fix,
		   "no AppArmor profile: on AppArmor hosts the runtime applies its default, but nothing requires it");
	no_profile(a, &no_selinux, "seLinuxOptions", DSI_SEV_INFO,
		   "Nothing to do for most agents; set seLinuxOptions.type to a container_* type only when a policy "
		   "requires an explicit one.",
		   "no SELinux options: on SELinux hosts the runtime assigns container_t with a private MCS label");
	if (no_seccomp.oom || no_apparmor.oom || no_selinux.oom)
		a->out->oom = 1;
	dsi_pss_strs_free(&no_seccomp);
	dsi_pss_strs_free(&no_apparmor);
	dsi_pss_strs_free(&no_selinux);
}

static void users(audit_ctx *a)
{
	const dsi_pss_pod *pod = a->pod;
	if (dsi_pss_user_namespace(pod))
		return; /* root in a user namespace is not root on the node */
	if (pod->has_run_as_user && pod->run_as_user == 0)
		add(a->out, "runAsRoot", DSI_SEV_MEDIUM, format("%s.securityContext.runAsUser", a->spec),
		    "Run as a non-zero UID with runAsNonRoot: true; grant file access through group ownership or "
		    "capabilities, or use a user namespace (hostUsers: false).",
		    "the pod runs its containers as root (runAsUser: 0)");
	dsi_pss_strs maybe_root = {0};
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		const dsi_pss_container *c = &pod->containers[i];
		int has_uid = c->sc.has_run_as_user || pod->has_run_as_user;
		int non_root =
			c->sc.run_as_non_root != DSI_PSS_UNSET ? c->sc.run_as_non_root == 1 : pod->run_as_non_root == 1;
		if (!has_uid && !non_root)
			dsi_pss_strs_add(&maybe_root, c->name);
	}
	if (maybe_root.n) {
		char *p = phrase(&maybe_root);
		add(a->out, "runAsNonRoot", DSI_SEV_LOW, format("%s.securityContext.runAsNonRoot", a->spec),
		    "Set securityContext.runAsNonRoot: true and a non-zero runAsUser.",
		    "%s may run as root: no runAsUser is set and runAsNonRoot is not true, so the image decides",
		    p ? p : "");
		dsi_free(p);
	}
	if (maybe_root.oom)
		a->out->oom = 1;
	dsi_pss_strs_free(&maybe_root);
}

static void pod_settings(audit_ctx *a)
{
	const dsi_pss_pod *pod = a->pod;
	if (pod->host_process == 1)
		add(a->out, "hostProcess", DSI_SEV_CRITICAL,
		    format("%s.securityContext.windowsOptions.hostProcess", a->spec),
		    "Run the agent as a normal Windows container unless it must act on the host itself.",
		    "the pod is a Windows HostProcess pod: its containers run directly on the node");
	for (uint32_t i = 0; i < pod->n_sysctls && !a->place->windows; i++) {
		if (dsi_pss_sysctl_safe(pod->sysctls[i]))
			continue;
		add(a->out, "sysctls", DSI_SEV_MEDIUM,
		    format("%s.securityContext.sysctls[%u].name", a->spec, (unsigned)i),
		    "Set node-wide kernel parameters with node configuration, not from a pod.",
		    "sysctl %s is not in the safe, namespaced set: the kubelet must allow it "
		    "(--allowed-unsafe-sysctls) "
		    "and it may affect the whole node",
		    pod->sysctls[i]);
	}
	if (pod->automount_sa_token != 0) {
		int named = *pod->service_account_name && strcmp(pod->service_account_name, "default") != 0;
		add(a->out, "serviceAccountToken", named ? DSI_SEV_MEDIUM : DSI_SEV_LOW,
		    format("%s.automountServiceAccountToken", a->spec),
		    "Set automountServiceAccountToken: false unless the agent calls the Kubernetes API; otherwise give "
		    "its ServiceAccount only the permissions it needs.",
		    "each pod mounts an API token of service account \"%s\"%s: whoever compromises a pod on any node "
		    "can "
		    "use its permissions",
		    *pod->service_account_name ? pod->service_account_name : "default",
		    pod->automount_sa_token == DSI_PSS_UNSET ? " (automountServiceAccountToken is not false)" : "");
	}
}

typedef struct vol_use {
	dsi_pss_strs rw, ro;
	int worst;
	const host_path_risk *risk, *exact;
	char *eff; /* the mounted path of the worst mount (owned) */
	int oom;
} vol_use;

static void host_path_volumes(audit_ctx *a)
{
	const dsi_pss_pod *pod = a->pod;
	for (uint32_t v = 0; v < pod->n_volumes; v++) {
		const dsi_pss_volume *vol = &pod->volumes[v];
		if (!vol->has_host_path)
			continue;
		vol_use u = {.worst = DSI_SEV_COUNT};
		int windows = dsi_audit_windows_path(vol->host_path);
		/* paths of any length, as the API server takes them */
		char *base = windows ? dsi_strdup(vol->host_path) : cleaned(vol->host_path);
		u.eff = base ? dsi_strdup(base) : NULL;
		u.oom = !u.eff;
		for (uint32_t i = 0; i < pod->n_containers; i++) {
			const dsi_pss_container *c = &pod->containers[i];
			for (uint32_t m = 0; m < c->n_mounts; m++) {
				const dsi_pss_mount *mt = &c->mounts[m];
				if (strcmp(mt->name, vol->name) != 0)
					continue;
				char *joined = NULL, *eff = NULL;
				if (u.oom)
					continue;
				if (*mt->sub_path && !mt->sub_path_expr && !windows) {
					joined = dsi_format("%s/%s", base, mt->sub_path);
					eff = joined ? cleaned(joined) : NULL;
					dsi_free(joined);
				} else {
					eff = dsi_strdup(base);
				}
				if (!eff) {
					u.oom = 1;
					continue;
				}
				int writable = !mt->read_only;
				const host_path_risk *exact = NULL, *r = NULL;
				int sev;
				if (windows) {
					const char *w, *id, *fix;
					sev = dsi_audit_windows_path_rating(vol->host_path, writable, &w, &id, &fix);
				} else {
					r = rate_path(eff, writable, &exact);
					sev = r ? (writable ? r->rw : r->ro)
						: (writable ? DSI_SEV_MEDIUM : DSI_SEV_LOW);
				}
				dsi_pss_strs *list = writable ? &u.rw : &u.ro;
				size_t k;
				for (k = 0; k < list->n && strcmp(list->v[k], c->name) != 0; k++)
					;
				if (k == list->n)
					dsi_pss_strs_add(list, c->name);
				if (sev < u.worst) {
					u.worst = sev;
					u.risk = r;
					u.exact = exact;
					dsi_free(u.eff);
					u.eff = eff;
					eff = NULL;
				}
				dsi_free(eff);
			}
		}
		dsi_strbuf msg = DSI_STRBUF_INIT;
		const char *fix;
		if (windows) {
			const char *what, *id;
			int sev = dsi_audit_windows_path_rating(vol->host_path, u.rw.n > 0, &what, &id, &fix);
			dsi_strbuf_printf(&msg, "hostPath volume \"%s\" mounts %s (%s)", vol->name, vol->host_path,
					  what);
			if (u.rw.n) {
				dsi_strbuf_puts(&msg, "; writable in ");
				dsi_pss_containers_phrase(&msg, &u.rw);
			}
			if (u.ro.n) {
				dsi_strbuf_puts(&msg, "; read-only in ");
				dsi_pss_containers_phrase(&msg, &u.ro);
			}
			if (!u.rw.n && !u.ro.n) {
				dsi_strbuf_puts(&msg, "; not mounted by any container");
				sev = DSI_SEV_LOW;
			}
			if (u.rw.oom || u.ro.oom || u.oom)
				msg.oom = 1;
			add_owned(a->out, id, sev, format("%s.volumes[%u].hostPath.path", a->spec, (unsigned)v),
				  msg.oom ? (dsi_strbuf_free(&msg), NULL) : dsi_strbuf_detach(&msg), fix);
			dsi_pss_strs_free(&u.rw);
			dsi_pss_strs_free(&u.ro);
			dsi_free(u.eff);
			dsi_free(base);
			continue;
		}
		if (u.worst == DSI_SEV_COUNT && base) {
			/* not mounted: nothing is reachable, but the volume still names a host path */
			const host_path_risk *exact, *r = rate_path(base, 0, &exact);
			u.risk = r, u.exact = exact;
			u.worst = DSI_SEV_LOW;
		}
		const char *what = u.exact ? u.exact->what : u.risk ? u.risk->what : "a host directory";
		dsi_strbuf_printf(&msg, "hostPath volume \"%s\" mounts %s (%s)", vol->name, u.eff ? u.eff : "", what);
		if (u.risk && u.risk != u.exact && !(u.exact && strcmp(u.exact->what, u.risk->what) == 0)) {
			if (u.risk->socket)
				dsi_strbuf_puts(&msg, ", which includes the container runtime's socket");
			else
				dsi_strbuf_printf(&msg, ", which includes %s (%s)", u.risk->path, u.risk->what);
		}
		if (u.rw.n) {
			dsi_strbuf_puts(&msg, "; writable in ");
			dsi_pss_containers_phrase(&msg, &u.rw);
		}
		if (u.ro.n) {
			dsi_strbuf_puts(&msg, "; read-only in ");
			dsi_pss_containers_phrase(&msg, &u.ro);
		}
		if (!u.rw.n && !u.ro.n)
			dsi_strbuf_puts(&msg, "; not mounted by any container");
		if (u.risk && u.risk->socket)
			fix = "Do not mount the container runtime's socket or directory: whoever reaches the socket "
			      "controls "
			      "every container on the node, and readOnly does not prevent connecting to it. Talk to "
			      "the "
			      "Kubernetes API instead, or mount only the file the agent needs.";
		else if (u.rw.n)
			fix = "Mount it readOnly: true, narrow the path to the files the agent needs, and set "
			      "hostPath.type "
			      "(Directory or File) so that nothing is created on the host.";
		else
			fix = "Narrow the path to the files the agent needs and keep it read-only; prefer a CSI or "
			      "projected "
			      "volume where one exists.";
		if (u.rw.oom || u.ro.oom || u.oom)
			msg.oom = 1;
		add_owned(a->out, "hostPath", u.worst, format("%s.volumes[%u].hostPath.path", a->spec, (unsigned)v),
			  msg.oom ? (dsi_strbuf_free(&msg), NULL) : dsi_strbuf_detach(&msg), fix);
		dsi_pss_strs_free(&u.rw);
		dsi_pss_strs_free(&u.ro);
		dsi_free(u.eff);
		dsi_free(base);
	}
}

static int tolerations(audit_ctx *a, const dsi_ops_cfg *o, ds_error *err)
{
	const json_t *spec = a->target->tmpl ? json_object_get(a->target->tmpl, "spec") : NULL;
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_tolerations tols = {NULL, 0};
	dsi_rd rd;
	dsi_pss_rd_at(&rd, err, a->spec);
	(void)o;
	int rc = spec ? dsi_tolerations_read(&rd, &atoms, spec, "tolerations", &tols) : 0;
	if (rc < 0) {
		dsi_atoms_free(&atoms);
		return rc;
	}
	const dsi_audit_placement *p = a->place;
	/* where "every node" stops: the node selection (a GPU, Windows or opt-in DaemonSet is not everywhere) */
	char *where = p->has_selection ? format("every node that matches its node selection (%s)", p->selection)
				       : dsi_strdup("every node");
	for (uint32_t i = 0; i < tols.n; i++) {
		const dsi_toleration *t = &tols.v[i];
		if (t->key != DSI_ATOM_NONE || t->op != DSI_TOL_EXISTS)
			continue;
		if (t->effect == DSI_EFFECT_ALL)
			add(a->out, "toleratesAllTaints", DSI_SEV_MEDIUM,
			    format("%s.tolerations[%u]", a->spec, (unsigned)i),
			    "List the taints the agent must tolerate (for example "
			    "node-role.kubernetes.io/control-plane:NoSchedule) instead of tolerating all of them.",
			    "the pods tolerate every taint: they run on %s whatever its taints, including nodes "
			    "reserved for other workloads and nodes being evacuated with NoExecute taints%s",
			    where ? where : "every node",
			    strcmp(dsi_audit_placement_cp(p), "yes") == 0 ? ", and on control-plane nodes" : "");
		else
			add(a->out, "toleratesAllTaints", DSI_SEV_MEDIUM,
			    format("%s.tolerations[%u]", a->spec, (unsigned)i),
			    "List the taints the agent must tolerate instead of tolerating all of them.",
			    "the pods tolerate every %s taint", dsi_effect_name(t->effect));
	}
	dsi_free(where);
	if (a->is_daemonset) {
		/* the DaemonSet controller's own tolerations never include the control-plane taint; whether the
		 * pods land there also depends on the node selection (audit_placement.c) */
		const char *cp = dsi_audit_placement_cp(p);
		if (strcmp(cp, "yes") == 0)
			add(a->out, "controlPlane", DSI_SEV_INFO, format("%s.tolerations", a->spec),
			    "Keep that only for agents that must run there: a compromised pod on a control-plane node "
			    "is a control-plane compromise.",
			    "the pods tolerate node-role.kubernetes.io/control-plane:NoSchedule and their node "
			    "selection matches control-plane nodes: they also run there, next to etcd and the "
			    "control-plane credentials");
		else if (strcmp(cp, "if-selected") == 0)
			add(a->out, "controlPlane", DSI_SEV_INFO, format("%s.tolerations", a->spec),
			    "Keep the toleration only if the agent must run on control-plane nodes that carry those "
			    "labels.",
			    "the pods tolerate node-role.kubernetes.io/control-plane:NoSchedule, so they run on the "
			    "control-plane nodes that match their node selection (%s), if any",
			    p->selection);
		else if (p->tolerates_cp)
			add(a->out, "controlPlane", DSI_SEV_INFO, format("%s.tolerations", a->spec),
			    "Nothing to do; drop the toleration if it is left over.",
			    "the pods tolerate node-role.kubernetes.io/control-plane:NoSchedule, but their node "
			    "selection (%s) excludes control-plane nodes, so they do not run there",
			    p->selection);
		else
			add(a->out, "controlPlane", DSI_SEV_INFO, format("%s.tolerations", a->spec),
			    "Add the toleration {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: "
			    "NoSchedule} if the agent must run on control-plane nodes too.",
			    "the pods do not tolerate node-role.kubernetes.io/control-plane:NoSchedule, so they will "
			    "not run on control-plane nodes (the DaemonSet controller's default tolerations do not "
			    "include that taint)");
	}
	dsi_tolerations_release(&atoms, &tols);
	dsi_atoms_free(&atoms);
	return rc;
}

int dsi_audit_risks(const json_t *obj, const dsi_pss_target *target, const dsi_pss_pod *pod,
		    const dsi_audit_placement *place, const dsi_ops_cfg *o, dsi_findings *out, ds_error *err)
{
	audit_ctx a = {.obj = obj, .pod = pod, .target = target, .place = place, .out = out};
	a.is_daemonset = target->kind && strcmp(target->kind, "DaemonSet") == 0;
	snprintf(a.spec, sizeof(a.spec), "%s%sspec", target->path, target->path[0] ? "." : "");
	snprintf(a.meta, sizeof(a.meta), "%s%smetadata", target->path, target->path[0] ? "." : "");
	host_namespaces(&a);
	for (uint32_t i = 0; i < pod->n_containers; i++)
		privileges(&a, &pod->containers[i]);
	int rc;
	if (place->windows) {
		if ((rc = dsi_audit_windows(&a, err)) < 0)
			return rc;
	} else {
		confinement(&a);
		users(&a);
	}
	pod_settings(&a);
	host_path_volumes(&a);
	if ((rc = tolerations(&a, o, err)) < 0 || (rc = dsi_audit_practice(&a, err)) < 0)
		return rc;
	if (out->oom)
		return dsi_error_nomem(err);
	dsi_findings_sort(out);
	return 0;
}

/* ---- reports ------------------------------------------------------------------------------- */

static json_t *violations_json(const dsi_pss_eval *e)
{
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < e->n; i++)
		if (json_array_append_new(arr,
					  json_pack("{s:s, s:s, s:s}", "check", e->v[i].check, "reason", e->v[i].reason,
						    "detail", e->v[i].detail ? e->v[i].detail : "")) < 0) {
			json_decref(arr);
			return NULL;
		}
	return arr;
}

/* Set key to a new string built in b; a NULL from an allocation failure fails the whole object later. */
static int set_text(json_t *obj, const char *key, dsi_strbuf *b)
{
	int rc = b->oom ? -1 : json_object_set_new(obj, key, json_string(b->data ? b->data : ""));
	dsi_strbuf_free(b);
	return rc;
}

typedef struct eval_set {
	dsi_pss_target target;
	dsi_pss_pod view; /* as admission sees the object (templates: no hostPort default) */
	dsi_pss_pod pods; /* pods created from a template (Pod defaulting) */
	int have_pods;
	int minor, emulation;
	const char *version;
} eval_set;

static void eval_set_free(eval_set *s)
{
	dsi_pss_pod_free(&s->view);
	if (s->have_pods)
		dsi_pss_pod_free(&s->pods);
}

static int eval_set_read(const json_t *obj, const char *version, const dsi_ops_cfg *o, eval_set *s, ds_error *err)
{
	memset(s, 0, sizeof(*s));
	if (dsi_pss_parse_version(version, &s->minor) < 0)
		return dsi_error_set(err, DS_EVALUE, "podSecurityVersion", "must be \"latest\" or \"v1.x\", got \"%s\"",
				     version);
	s->version = version;
	/* NewEvaluator's emulation version: the modelled release bounds "latest" */
	s->emulation = o->core->k8s_minor;
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	int rc = dsi_pss_find_target(&rd, obj, &s->target);
	if (rc < 0)
		return rc;
	/* admission sees the object after the API server's defaults; podSecurityDefaulting false runs the
	 * checks alone on the object as given (policy.Evaluator on an undefaulted pod) */
	unsigned dflt = o->pss->defaulting ? DSI_PSS_DEFAULT_VOLUMES | DSI_PSS_DEFAULT_HOST_PORTS : 0;
	unsigned flags = dflt & (DSI_PSS_DEFAULT_VOLUMES | (s->target.is_pod ? DSI_PSS_DEFAULT_HOST_PORTS : 0));
	dsi_pss_rd_at(&rd, err, s->target.path);
	if (s->target.tmpl) {
		if ((rc = dsi_pss_pod_read(&rd, s->target.tmpl, flags, &s->view)) < 0)
			return rc;
	} else {
		memset(&s->view, 0, sizeof(s->view));
		s->view.host_users = s->view.run_as_non_root = s->view.host_process = s->view.automount_sa_token =
			DSI_PSS_UNSET;
		s->view.service_account_name = "";
	}
	if (!s->target.is_pod && s->target.tmpl) {
		dsi_pss_rd_at(&rd, err, s->target.path);
		if ((rc = dsi_pss_pod_read(&rd, s->target.tmpl, dflt, &s->pods)) < 0) {
			dsi_pss_pod_free(&s->view);
			return rc;
		}
		s->have_pods = 1;
	}
	return 0;
}

/* "latest" as evaluated, when the modelled release (option kubernetesVersion, the API server's
 * emulation version) kept it below the newest checks: said, never silent. NULL otherwise. */
static json_t *latest_note(const eval_set *s, int effective)
{
	if (strcmp(s->version, "latest") != 0)
		return NULL;
	int newest = dsi_pss_newest_minor();
	if (effective >= newest)
		return NULL;
	char eff[16], nv[16];
	dsi_pss_version_string(effective, eff, sizeof(eff));
	dsi_pss_version_string(newest, nv, sizeof(nv));
	return json_pack(
		"{s:s, s:s, s:s}", "evaluatedAs", eff, "newestChecks", nv, "because",
		"option kubernetesVersion bounds \"latest\" as the API server's emulation version does; set it "
		"to a newer release, or podSecurityVersion to a version, to run newer checks");
}

/* {"level","version","effectiveVersion","latest"?,"allowed","violations","warning"?,"error"?,"pods"?} */
static int requested_json(eval_set *s, dsi_pss_level level, json_t **out, ds_error *err)
{
	dsi_pss_eval e, pe;
	int rc = dsi_pss_evaluate(&s->view, level, s->minor, s->emulation, &e, err);
	if (rc < 0)
		return rc;
	char eff[16];
	int effective = e.minor; /* the clamped version, also for privileged (nothing is checked) */
	dsi_pss_version_string(effective, eff, sizeof(eff));
	const char *lname = dsi_pss_level_name(level);
	json_t *r = json_pack("{s:s, s:s, s:s, s:b, s:o}", "level", lname, "version", s->version, "effectiveVersion",
			      eff, "allowed", e.allowed, "violations", violations_json(&e));
	rc = r ? 0 : -1;
	json_t *note = r ? latest_note(s, effective) : NULL;
	if (note)
		rc |= json_object_set_new(r, "latest", note);
	if (r && !e.allowed) {
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_pss_warning(&b, lname, s->version, &e);
		rc |= set_text(r, "warning", &b);
		if (s->target.is_pod) {
			dsi_pss_forbidden_message(&b, s->target.name, lname, s->version, &e);
			rc |= set_text(r, "error", &b);
		}
	}
	if (r && rc == 0 && s->have_pods) {
		if ((rc = dsi_pss_evaluate(&s->pods, level, s->minor, s->emulation, &pe, err)) < 0) {
			json_decref(r);
			dsi_pss_eval_free(&e);
			return rc;
		}
		json_t *p = json_pack("{s:b, s:o}", "allowed", pe.allowed, "violations", violations_json(&pe));
		if (p && !pe.allowed) {
			dsi_strbuf b = DSI_STRBUF_INIT;
			dsi_pss_violation_text(&b, lname, s->version, &pe);
			if (set_text(p, "error", &b) < 0) {
				json_decref(p);
				p = NULL;
			}
		}
		rc = p ? json_object_set_new(r, "pods", p) : -1;
		dsi_pss_eval_free(&pe);
	}
	dsi_pss_eval_free(&e);
	if (rc < 0) {
		json_decref(r);
		return dsi_error_nomem(err);
	}
	*out = r;
	return 0;
}

static const char *option_level(const char *level, const dsi_ops_cfg *o)
{
	return level ? level : o->pss->level ? o->pss->level : "restricted";
}

static const char *option_version(const char *version, const dsi_ops_cfg *o)
{
	return version ? version : o->pss->version ? o->pss->version : "latest";
}

static json_t *identity(const dsi_pss_target *t)
{
	return json_pack("{s:s?, s:s?, s:s?}", "kind", t->kind, "namespace", t->namespace_, "name", t->name);
}

int dsi_pss_evaluate_object(const json_t *obj, const char *level, const char *version, const dsi_ops_cfg *o,
			    json_t **out, ds_error *err)
{
	*out = NULL;
	level = option_level(level, o);
	version = option_version(version, o);
	dsi_pss_level l;
	if (dsi_pss_parse_level(level, &l) < 0)
		return dsi_error_set(err, DS_EVALUE, "podSecurityLevel",
				     "must be one of privileged, baseline, restricted, got \"%s\"", level);
	eval_set s;
	int rc = eval_set_read(obj, version, o, &s, err);
	if (rc < 0)
		return rc;
	json_t *req = NULL, *r = identity(&s.target);
	if (!r)
		rc = dsi_error_nomem(err);
	else if ((rc = requested_json(&s, l, &req, err)) == 0 && json_object_update(r, req) < 0)
		rc = dsi_error_nomem(err);
	json_decref(req);
	eval_set_free(&s);
	if (rc < 0) {
		json_decref(r);
		return rc;
	}
	*out = r;
	return 0;
}

static json_t *level_result(const dsi_pss_eval *e)
{
	return json_pack("{s:b, s:o}", "allowed", e->allowed, "violations", violations_json(e));
}

int dsi_audit_report(const dsi_audit_input *in, const dsi_ops_cfg *o, json_t **out, ds_error *err)
{
	*out = NULL;
	const char *level = option_level(NULL, o), *version = option_version(NULL, o);
	dsi_pss_level l;
	if (dsi_pss_parse_level(level, &l) < 0)
		return dsi_error_set(err, DS_EVALUE, "podSecurityLevel",
				     "must be one of privileged, baseline, restricted, got \"%s\"", level);
	eval_set s;
	int rc = eval_set_read(in->obj, version, o, &s, err);
	if (rc < 0)
		return rc;
	dsi_pss_eval base, restr;
	dsi_findings f = {0};
	dsi_audit_placement place;
	json_t *r = NULL, *req = NULL;
	char spec_path[96];
	snprintf(spec_path, sizeof(spec_path), "%s%sspec", s.target.path, s.target.path[0] ? "." : "");
	if ((rc = dsi_audit_placement_read(&s.target, &s.view, spec_path, o, &place, err)) < 0)
		goto fail_eval;
	if ((rc = dsi_pss_evaluate(&s.view, DSI_PSS_BASELINE, s.minor, s.emulation, &base, err)) < 0)
		goto fail_place;
	if ((rc = dsi_pss_evaluate(&s.view, DSI_PSS_RESTRICTED, s.minor, s.emulation, &restr, err)) < 0) {
		dsi_pss_eval_free(&base);
		goto fail_place;
	}
	if ((rc = requested_json(&s, l, &req, err)) < 0 ||
	    (rc = dsi_audit_risks(in->obj, &s.target, &s.view, &place, o, &f, err)) < 0)
		goto done;
	char eff[16];
	dsi_pss_version_string(base.minor, eff, sizeof(eff));
	const char *strictest = restr.allowed ? "restricted" : base.allowed ? "baseline" : "privileged";
	r = identity(&s.target);
	if (!r ||
	    json_object_set_new(r, "podSecurity",
				json_pack("{s:s, s:s, s:o, s:o}", "version", s.version, "effectiveVersion", eff,
					  "baseline", level_result(&base), "restricted", level_result(&restr))) < 0 ||
	    json_object_set_new(r, "level", json_string(strictest)) < 0 || json_object_set(r, "requested", req) < 0) {
		rc = dsi_error_nomem(err);
		goto done;
	}
	if ((rc = dsi_audit_finish(r, &f, in, &s.target, &place, o, err)) < 0)
		goto done;
	*out = r;
	r = NULL;
done:
	json_decref(r);
	json_decref(req);
	dsi_findings_free(&f);
	dsi_pss_eval_free(&base);
	dsi_pss_eval_free(&restr);
fail_place:
	dsi_audit_placement_free(&place);
fail_eval:
	eval_set_free(&s);
	return rc;
}
