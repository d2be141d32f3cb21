/*
 * The pod view the checks read: every field pod-security-admission (and the
 * risk audit) looks at, type-checked with the path-tracking reader, so that a
 * wrong JSON type is DS_ETYPE with its full path instead of a silent default.
 */
#include <stdalign.h>
#include <string.h>

#include "core/alloc.h"
#include "pss/pss.h"

/* ---- a bump allocator owned by the view ------------------------------------------ */

typedef struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	alignas(max_align_t) unsigned char data[];
} arena_block;

static void *arena_alloc(dsi_pss_pod *pod, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size / 2)
		return NULL;
	size_t n = count * size;
	n = (n + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
	if (n == 0)
		n = alignof(max_align_t);
	arena_block *b = pod->arena_;
	if (!b || b->cap - b->used < n) {
		size_t cap = n > 4096 ? n : 4096;
		arena_block *nb = dsi_malloc(sizeof(*nb) + cap);
		if (!nb)
			return NULL;
		nb->next = b;
		nb->used = 0;
		nb->cap = cap;
		pod->arena_ = b = nb;
	}
	void *p = b->data + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

void dsi_pss_pod_free(dsi_pss_pod *pod)
{
	arena_block *b = pod->arena_;
	while (b) {
		arena_block *next = b->next;
		dsi_free(b);
		b = next;
	}
	memset(pod, 0, sizeof(*pod));
}

/* ---- names --------------------------------------------------------------------------- */

const char *dsi_pss_container_list_name(int list)
{
	switch (list) {
	case DSI_PSS_INIT_CONTAINERS: return "initContainers";
	case DSI_PSS_EPHEMERAL_CONTAINERS: return "ephemeralContainers";
	default: return "containers";
	}
}

/* JSON names of VolumeSource members, in dsi_pss_volume_source order. */
static const char *const volume_sources[DSI_VOL_COUNT] = {
	"configMap",
	"csi",
	"downwardAPI",
	"emptyDir",
	"ephemeral",
	"image",
	"persistentVolumeClaim",
	"projected",
	"secret",
	"hostPath",
	"gcePersistentDisk",
	"awsElasticBlockStore",
	"gitRepo",
	"nfs",
	"iscsi",
	"glusterfs",
	"rbd",
	"flexVolume",
	"cinder",
	"cephfs",
	"flocker",
	"fc",
	"azureFile",
	"vsphereVolume",
	"quobyte",
	"azureDisk",
	"photonPersistentDisk",
	"portworxVolume",
	"scaleIO",
	"storageos",
	"unknown",
};

const char *dsi_pss_volume_source_name(int source)
{
	return source >= 0 && source < DSI_VOL_COUNT ? volume_sources[source] : "unknown";
}

/* ---- field readers ------------------------------------------------------------------ */

static int read_opt_bool(dsi_rd *rd, const json_t *obj, const char *key, int8_t *out)
{
	int v, present;
	int rc = dsi_rd_bool(rd, obj, key, &v, &present);
	*out = present ? (int8_t)(v != 0) : DSI_PSS_UNSET;
	return rc;
}

static int read_str(dsi_rd *rd, const json_t *obj, const char *key, const char **out)
{
	int rc = dsi_rd_string(rd, obj, key, out);
	if (!*out)
		*out = "";
	return rc;
}

/* A []string member (capabilities, ...). */
static int read_str_array(dsi_rd *rd, dsi_pss_pod *pod, const json_t *obj, const char *key, const char ***out,
			  uint32_t *n)
{
	json_t *arr;
	*out = NULL;
	*n = 0;
	int rc = dsi_rd_array(rd, obj, key, &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	if (json_array_size(arr) > UINT32_MAX)
		return dsi_rd_fail(rd, key, DS_ELIMIT, "too many elements");
	const char **v = arena_alloc(pod, json_array_size(arr), sizeof(*v));
	if (!v)
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, key), i;
	json_t *e;
	json_array_foreach(arr, i, e)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		if (json_is_null(e)) {
			v[i] = ""; /* Go decodes null in a []string as "" */
		} else if ((rc = dsi_rd_expect_string(rd, e, &v[i])) < 0) {
			dsi_rd_pop(rd, m2);
			break;
		}
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	if (rc < 0)
		return rc;
	*out = v;
	*n = (uint32_t)json_array_size(arr);
	return 0;
}

/* seccompProfile / appArmorProfile */
static int read_profile(dsi_rd *rd, const json_t *sc, const char *key, dsi_pss_profile *out)
{
	json_t *o;
	memset(out, 0, sizeof(*out));
	int rc = dsi_rd_object(rd, sc, key, &o);
	if (rc < 0 || !o)
		return rc;
	size_t m = dsi_rd_push(rd, key);
	out->set = 1;
	if ((rc = read_str(rd, o, "type", &out->type)) == 0)
		rc = dsi_rd_string(rd, o, "localhostProfile", &out->localhost);
	dsi_rd_pop(rd, m);
	return rc;
}

static int read_selinux(dsi_rd *rd, const json_t *sc, dsi_pss_selinux *out)
{
	json_t *o;
	memset(out, 0, sizeof(*out));
	int rc = dsi_rd_object(rd, sc, "seLinuxOptions", &o);
	if (rc < 0 || !o)
		return rc;
	size_t m = dsi_rd_push(rd, "seLinuxOptions");
	out->set = 1;
	if ((rc = read_str(rd, o, "user", &out->user)) == 0 && (rc = read_str(rd, o, "role", &out->role)) == 0 &&
	    (rc = read_str(rd, o, "type", &out->type)) == 0)
		rc = read_str(rd, o, "level", &out->level);
	dsi_rd_pop(rd, m);
	return rc;
}

/* windowsOptions.hostProcess */
static int read_host_process(dsi_rd *rd, const json_t *sc, int8_t *out)
{
	json_t *o;
	*out = DSI_PSS_UNSET;
	int rc = dsi_rd_object(rd, sc, "windowsOptions", &o);
	if (rc < 0 || !o)
		return rc;
	size_t m = dsi_rd_push(rd, "windowsOptions");
	rc = read_opt_bool(rd, o, "hostProcess", out);
	dsi_rd_pop(rd, m);
	return rc;
}

static int read_container_sc(dsi_rd *rd, dsi_pss_pod *pod, const json_t *c, dsi_pss_sc *sc)
{
	json_t *o, *caps;
	memset(sc, 0, sizeof(*sc));
	sc->privileged = sc->allow_privilege_escalation = sc->run_as_non_root = sc->read_only_root_filesystem =
		sc->host_process = DSI_PSS_UNSET;
	int rc = dsi_rd_object(rd, c, "securityContext", &o);
	if (rc < 0 || !o)
		return rc;
	size_t m = dsi_rd_push(rd, "securityContext");
	int present;
	sc->set = 1;
	if ((rc = read_opt_bool(rd, o, "privileged", &sc->privileged)) < 0 ||
	    (rc = read_opt_bool(rd, o, "allowPrivilegeEscalation", &sc->allow_privilege_escalation)) < 0 ||
	    (rc = read_opt_bool(rd, o, "runAsNonRoot", &sc->run_as_non_root)) < 0 ||
	    (rc = read_opt_bool(rd, o, "readOnlyRootFilesystem", &sc->read_only_root_filesystem)) < 0 ||
	    (rc = dsi_rd_int64(rd, o, "runAsUser", &sc->run_as_user, &present)) < 0)
		goto out;
	sc->has_run_as_user = (uint8_t)present;
	if ((rc = dsi_rd_string(rd, o, "procMount", &sc->proc_mount)) < 0 ||
	    (rc = read_profile(rd, o, "seccompProfile", &sc->seccomp)) < 0 ||
	    (rc = read_profile(rd, o, "appArmorProfile", &sc->apparmor)) < 0 ||
	    (rc = read_selinux(rd, o, &sc->selinux)) < 0 || (rc = read_host_process(rd, o, &sc->host_process)) < 0 ||
	    (rc = dsi_rd_object(rd, o, "capabilities", &caps)) < 0)
		goto out;
	if (caps) {
		size_t m2 = dsi_rd_push(rd, "capabilities");
		sc->has_capabilities = 1;
		if ((rc = read_str_array(rd, pod, caps, "add", &sc->cap_add, &sc->n_add)) == 0)
			rc = read_str_array(rd, pod, caps, "drop", &sc->cap_drop, &sc->n_drop);
		dsi_rd_pop(rd, m2);
	}
out:
	dsi_rd_pop(rd, m);
	return rc;
}

static int read_ports(dsi_rd *rd, dsi_pss_pod *pod, const json_t *c, dsi_pss_container *out)
{
	json_t *arr, *e;
	int rc = dsi_rd_array(rd, c, "ports", &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	out->ports = arena_alloc(pod, json_array_size(arr), sizeof(*out->ports));
	if (!out->ports)
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, "ports"), i;
	json_array_foreach(arr, i, e)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		dsi_pss_port *p = &out->ports[i];
		if ((rc = dsi_rd_expect_object(rd, e)) == 0 &&
		    (rc = dsi_rd_int32(rd, e, "containerPort", &p->container_port, NULL)) == 0)
			rc = dsi_rd_int32(rd, e, "hostPort", &p->host_port, NULL);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
	}
	dsi_rd_pop(rd, m);
	out->n_ports = rc < 0 ? 0 : (uint32_t)json_array_size(arr);
	return rc;
}

/* host of httpGet and tcpSocket of a Probe or LifecycleHandler, in that order */
static int read_handler_hosts(dsi_rd *rd, const json_t *h, const char **hosts, uint32_t *n)
{
	static const char *const actions[] = {"httpGet", "tcpSocket"};
	for (size_t i = 0; i < 2; i++) {
		json_t *a;
		const char *host;
		int rc = dsi_rd_object(rd, h, actions[i], &a);
		if (rc < 0)
			return rc;
		if (!a)
			continue;
		size_t m = dsi_rd_push(rd, actions[i]);
		rc = dsi_rd_string(rd, a, "host", &host);
		dsi_rd_pop(rd, m);
		if (rc < 0)
			return rc;
		if (host && *host)
			hosts[(*n)++] = host;
	}
	return 0;
}

static int read_probe_hosts(dsi_rd *rd, dsi_pss_pod *pod, const json_t *c, dsi_pss_container *out)
{
	static const char *const probes[] = {"livenessProbe", "readinessProbe", "startupProbe"};
	static const char *const hooks[] = {"postStart", "preStop"};
	const char *hosts[10];
	uint32_t n = 0;
	int rc = 0;
	for (size_t i = 0; i < 3 && rc == 0; i++) {
		json_t *p;
		if ((rc = dsi_rd_object(rd, c, probes[i], &p)) < 0 || !p)
			continue;
		size_t m = dsi_rd_push(rd, probes[i]);
		rc = read_handler_hosts(rd, p, hosts, &n);
		dsi_rd_pop(rd, m);
	}
	json_t *lc = NULL;
	if (rc == 0 && (rc = dsi_rd_object(rd, c, "lifecycle", &lc)) == 0 && lc) {
		size_t m = dsi_rd_push(rd, "lifecycle");
		for (size_t i = 0; i < 2 && rc == 0; i++) {
			json_t *h;
			if ((rc = dsi_rd_object(rd, lc, hooks[i], &h)) < 0 || !h)
				continue;
			size_t m2 = dsi_rd_push(rd, hooks[i]);
			rc = read_handler_hosts(rd, h, hosts, &n);
			dsi_rd_pop(rd, m2);
		}
		dsi_rd_pop(rd, m);
	}
	if (rc < 0 || !n)
		return rc;
	out->probe_hosts = arena_alloc(pod, n, sizeof(*out->probe_hosts));
	if (!out->probe_hosts)
		return dsi_error_nomem(rd->err);
	memcpy(out->probe_hosts, hosts, n * sizeof(*hosts));
	out->n_probe_hosts = n;
	return 0;
}

static int read_mounts(dsi_rd *rd, dsi_pss_pod *pod, const json_t *c, dsi_pss_container *out)
{
	json_t *arr, *e;
	int rc = dsi_rd_array(rd, c, "volumeMounts", &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	out->mounts = arena_alloc(pod, json_array_size(arr), sizeof(*out->mounts));
	if (!out->mounts)
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, "volumeMounts"), i;
	json_array_foreach(arr, i, e)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		dsi_pss_mount *vm = &out->mounts[i];
		const char *expr = NULL;
		int ro = 0;
		if ((rc = dsi_rd_expect_object(rd, e)) == 0 && (rc = read_str(rd, e, "name", &vm->name)) == 0 &&
		    (rc = read_str(rd, e, "mountPath", &vm->mount_path)) == 0 &&
		    (rc = read_str(rd, e, "subPath", &vm->sub_path)) == 0 &&
		    (rc = dsi_rd_string(rd, e, "subPathExpr", &expr)) == 0 &&
		    (rc = read_str(rd, e, "mountPropagation", &vm->propagation)) == 0)
			rc = dsi_rd_bool(rd, e, "readOnly", &ro, NULL);
		vm->read_only = (uint8_t)ro;
		vm->sub_path_expr = expr && *expr;
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
	}
	dsi_rd_pop(rd, m);
	out->n_mounts = rc < 0 ? 0 : (uint32_t)json_array_size(arr);
	return rc;
}

static int read_container(dsi_rd *rd, dsi_pss_pod *pod, const json_t *c, dsi_pss_container *out)
{
	int rc;
	if ((rc = dsi_rd_expect_object(rd, c)) < 0 || (rc = read_str(rd, c, "name", &out->name)) < 0 ||
	    (rc = read_container_sc(rd, pod, c, &out->sc)) < 0 || (rc = read_ports(rd, pod, c, out)) < 0 ||
	    (rc = read_probe_hosts(rd, pod, c, out)) < 0)
		return rc;
	return read_mounts(rd, pod, c, out);
}

static int read_containers(dsi_rd *rd, dsi_pss_pod *pod, const json_t *spec, unsigned flags)
{
	static const char *const lists[3] = {"initContainers", "containers", "ephemeralContainers"};
	json_t *arr[3];
	size_t total = 0;
	for (int l = 0; l < 3; l++) {
		int rc = dsi_rd_array(rd, spec, lists[l], &arr[l]);
		if (rc < 0)
			return rc;
		total += arr[l] ? json_array_size(arr[l]) : 0;
	}
	if (!total)
		return 0;
	if (total > UINT32_MAX)
		return dsi_rd_fail(rd, NULL, DS_ELIMIT, "too many containers");
	pod->containers = arena_alloc(pod, total, sizeof(*pod->containers));
	if (!pod->containers)
		return dsi_error_nomem(rd->err);
	for (int l = 0; l < 3; l++) {
		if (!arr[l])
			continue;
		size_t m = dsi_rd_push(rd, lists[l]), i;
		json_t *e;
		json_array_foreach(arr[l], i, e)
		{
			size_t m2 = dsi_rd_push_index(rd, i);
			dsi_pss_container *c = &pod->containers[pod->n_containers];
			c->list = (uint8_t)l;
			c->index = (uint32_t)i;
			int rc = read_container(rd, pod, e, c);
			dsi_rd_pop(rd, m2);
			if (rc < 0) {
				dsi_rd_pop(rd, m);
				return rc;
			}
			pod->n_containers++;
			/* SetDefaults_Pod: defaultHostNetworkPorts for containers and initContainers */
			if ((flags & DSI_PSS_DEFAULT_HOST_PORTS) && pod->host_network &&
			    l != DSI_PSS_EPHEMERAL_CONTAINERS)
				for (uint32_t p = 0; p < c->n_ports; p++)
					if (c->ports[p].host_port == 0) {
						c->ports[p].host_port = c->ports[p].container_port;
						c->ports[p].host_port_defaulted = c->ports[p].container_port != 0;
					}
		}
		dsi_rd_pop(rd, m);
	}
	return 0;
}

static int read_volume(dsi_rd *rd, const json_t *v, unsigned flags, dsi_pss_volume *out)
{
	int rc;
	if ((rc = dsi_rd_expect_object(rd, v)) < 0 || (rc = read_str(rd, v, "name", &out->name)) < 0)
		return rc;
	out->source = DSI_VOL_UNKNOWN;
	out->host_path = out->host_path_type = "";
	for (int s = 0; s < DSI_VOL_UNKNOWN; s++) {
		json_t *src;
		if ((rc = dsi_rd_object(rd, v, volume_sources[s], &src)) < 0)
			return rc;
		if (!src)
			continue;
		if (out->source == DSI_VOL_UNKNOWN)
			out->source = (uint8_t)s;
		if (s == DSI_VOL_HOST_PATH) {
			size_t m = dsi_rd_push(rd, "hostPath");
			out->has_host_path = 1;
			if ((rc = read_str(rd, src, "path", &out->host_path)) == 0)
				rc = read_str(rd, src, "type", &out->host_path_type);
			dsi_rd_pop(rd, m);
			if (rc < 0)
				return rc;
		}
	}
	/* SetDefaults_Volume (pkg/apis/core/v1/defaults.go): no source at all means emptyDir */
	if (out->source == DSI_VOL_UNKNOWN && (flags & DSI_PSS_DEFAULT_VOLUMES)) {
		out->source = DSI_VOL_EMPTY_DIR;
		out->defaulted = 1;
	}
	return 0;
}

static int read_volumes(dsi_rd *rd, dsi_pss_pod *pod, const json_t *spec, unsigned flags)
{
	json_t *arr, *e;
	int rc = dsi_rd_array(rd, spec, "volumes", &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	pod->volumes = arena_alloc(pod, json_array_size(arr), sizeof(*pod->volumes));
	if (!pod->volumes)
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, "volumes"), i;
	json_array_foreach(arr, i, e)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		rc = read_volume(rd, e, flags, &pod->volumes[i]);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
		pod->n_volumes++;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

static int read_sysctls(dsi_rd *rd, dsi_pss_pod *pod, const json_t *sc)
{
	json_t *arr, *e;
	int rc = dsi_rd_array(rd, sc, "sysctls", &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	pod->sysctls = arena_alloc(pod, json_array_size(arr), sizeof(*pod->sysctls));
	if (!pod->sysctls)
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, "sysctls"), i;
	json_array_foreach(arr, i, e)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		if ((rc = dsi_rd_expect_object(rd, e)) == 0)
			rc = read_str(rd, e, "name", &pod->sysctls[i]);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
		pod->n_sysctls++;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

static int read_pod_sc(dsi_rd *rd, dsi_pss_pod *pod, const json_t *spec)
{
	json_t *o;
	int rc = dsi_rd_object(rd, spec, "securityContext", &o);
	if (rc < 0 || !o)
		return rc;
	size_t m = dsi_rd_push(rd, "securityContext");
	int present = 0;
	pod->sc_set = 1;
	if ((rc = read_opt_bool(rd, o, "runAsNonRoot", &pod->run_as_non_root)) == 0 &&
	    (rc = dsi_rd_int64(rd, o, "runAsUser", &pod->run_as_user, &present)) == 0 &&
	    (rc = read_profile(rd, o, "seccompProfile", &pod->seccomp)) == 0 &&
	    (rc = read_profile(rd, o, "appArmorProfile", &pod->apparmor)) == 0 &&
	    (rc = read_selinux(rd, o, &pod->selinux)) == 0 && (rc = read_host_process(rd, o, &pod->host_process)) == 0)
		rc = read_sysctls(rd, pod, o);
	pod->has_run_as_user = rc == 0 && present;
	dsi_rd_pop(rd, m);
	return rc;
}

typedef struct ann_ctx {
	dsi_pss_pod *pod;
	size_t cap;
	ds_error *err;
} ann_ctx;

static int add_annotation(void *ctx, const char *key, size_t klen, const char *val, size_t vlen)
{
	(void)klen;
	(void)vlen;
	ann_ctx *a = ctx;
	if (a->pod->n_annotations >= a->cap)
		return dsi_error_nomem(a->err);
	a->pod->annotations[a->pod->n_annotations].key = key;
	a->pod->annotations[a->pod->n_annotations].value = val;
	a->pod->n_annotations++;
	return 0;
}

static int read_metadata(dsi_rd *rd, dsi_pss_pod *pod, const json_t *tmpl)
{
	json_t *meta, *ann;
	int rc = dsi_rd_object(rd, tmpl, "metadata", &meta);
	if (rc < 0 || !meta)
		return rc;
	size_t m = dsi_rd_push(rd, "metadata");
	if ((rc = dsi_rd_object(rd, meta, "annotations", &ann)) == 0 && ann && json_object_size(ann)) {
		ann_ctx ctx = {pod, json_object_size(ann), rd->err};
		pod->annotations = arena_alloc(pod, ctx.cap, sizeof(*pod->annotations));
		rc = pod->annotations ? dsi_rd_string_map(rd, meta, "annotations", add_annotation, &ctx)
				      : dsi_error_nomem(rd->err);
	}
	dsi_rd_pop(rd, m);
	return rc;
}

static int read_spec(dsi_rd *rd, dsi_pss_pod *pod, const json_t *spec, unsigned flags)
{
	int rc, v;
	json_t *os;
	if ((rc = dsi_rd_bool(rd, spec, "hostNetwork", &v, NULL)) < 0)
		return rc;
	pod->host_network = (uint8_t)v;
	if ((rc = dsi_rd_bool(rd, spec, "hostPID", &v, NULL)) < 0)
		return rc;
	pod->host_pid = (uint8_t)v;
	if ((rc = dsi_rd_bool(rd, spec, "hostIPC", &v, NULL)) < 0)
		return rc;
	pod->host_ipc = (uint8_t)v;
	if ((rc = read_opt_bool(rd, spec, "hostUsers", &pod->host_users)) < 0 ||
	    (rc = read_opt_bool(rd, spec, "automountServiceAccountToken", &pod->automount_sa_token)) < 0 ||
	    (rc = read_str(rd, spec, "serviceAccountName", &pod->service_account_name)) < 0 ||
	    (rc = dsi_rd_object(rd, spec, "os", &os)) < 0)
		return rc;
	if (os) {
		size_t m = dsi_rd_push(rd, "os");
		rc = read_str(rd, os, "name", &pod->os_name);
		dsi_rd_pop(rd, m);
		if (rc < 0)
			return rc;
	}
	if ((rc = read_pod_sc(rd, pod, spec)) < 0 || (rc = read_containers(rd, pod, spec, flags)) < 0)
		return rc;
	return read_volumes(rd, pod, spec, flags);
}

int dsi_pss_pod_read(dsi_rd *rd, const json_t *tmpl, unsigned flags, dsi_pss_pod *out)
{
	memset(out, 0, sizeof(*out));
	out->host_users = out->run_as_non_root = out->host_process = out->automount_sa_token = DSI_PSS_UNSET;
	out->service_account_name = "";
	json_t *spec;
	int rc = read_metadata(rd, out, tmpl);
	if (rc == 0 && (rc = dsi_rd_object(rd, tmpl, "spec", &spec)) == 0 && spec) {
		size_t m = dsi_rd_push(rd, "spec");
		rc = read_spec(rd, out, spec, flags);
		dsi_rd_pop(rd, m);
	}
	if (rc < 0)
		dsi_pss_pod_free(out);
	return rc;
}
