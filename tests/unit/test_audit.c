/* The security audit: admission texts on real-world shapes, risk findings, reports and bad inputs. */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/riskaudit.h"
#include "harness.h"

#define VEC "tests/vectors/audit/"

static json_t *audit_text(const char *text, const ds_options *opts)
{
	char *out = NULL;
	ds_error err;
	int rc = ds_audit(text, strlen(text), opts, &out, &err);
	ck_assert_msg(rc == 0, "ds_audit: %s: %s: %s", ds_strerror(rc), err.path, err.message);
	return dsi_test_take_json(out);
}

static json_t *audit_file(const char *path, const ds_options *opts)
{
	char *text = dsi_test_read_file(path, NULL);
	json_t *r = audit_text(text, opts);
	free(text);
	return r;
}

static json_t *evaluate_file(const char *path, const char *level, const char *version, const ds_options *opts)
{
	char *text = dsi_test_read_file(path, NULL), *out = NULL;
	ds_error err;
	int rc = ds_pod_security_evaluate(text, strlen(text), level, version, opts, &out, &err);
	free(text);
	ck_assert_msg(rc == 0, "ds_pod_security_evaluate: %s: %s", err.path, err.message);
	return dsi_test_take_json(out);
}

static const char *str_at(json_t *obj, const char *k1, const char *k2)
{
	json_t *v = json_object_get(obj, k1);
	if (k2)
		v = json_object_get(v, k2);
	ck_assert_msg(json_is_string(v), "%s%s%s is not a string", k1, k2 ? "." : "", k2 ? k2 : "");
	return json_string_value(v);
}

/* "id severity path" of each finding, one per line */
static char *finding_lines(json_t *report)
{
	json_t *fs = json_object_get(report, "findings");
	ck_assert(json_is_array(fs));
	size_t size = 1, i;
	json_t *f;
	json_array_foreach(fs, i, f) size += strlen(str_at(f, "path", NULL)) + 64;
	char *s = calloc(1, size);
	json_array_foreach(fs, i, f)
	{
		snprintf(s + strlen(s), size - strlen(s), "%s %s %s\n", str_at(f, "id", NULL),
			 str_at(f, "severity", NULL), str_at(f, "path", NULL));
		ck_assert_msg(strlen(str_at(f, "message", NULL)) > 0 && strlen(str_at(f, "remediation", NULL)) > 0,
			      "finding %zu without message or remediation", i);
	}
	return s;
}

/* Compare multi-line texts, printing both on a mismatch (Check's messages are short). */
#define assert_lines(got, want)                                                                                        \
	do {                                                                                                           \
		if (strcmp((got), (want)) != 0) {                                                                      \
			fprintf(stderr, "--- got:\n%s--- want:\n%s", (got), (want));                                   \
			ck_abort_msg("findings differ (see above)");                                                   \
		}                                                                                                      \
	} while (0)

static json_t *finding(json_t *report, const char *id, const char *path)
{
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(report, "findings"), i,
			   f) if (strcmp(str_at(f, "id", NULL), id) == 0 &&
				  strcmp(str_at(f, "path", NULL), path) == 0) return f;
	ck_abort_msg("no finding %s at %s", id, path);
	return NULL;
}

/* The digest's sample messages (reference/pod-security.md section 5). */
START_TEST(sample_node_exporter_pod)
{
	json_t *r = evaluate_file(VEC "node-exporter-pod.yaml", "baseline", "latest", NULL);
	ck_assert_int_eq(json_is_false(json_object_get(r, "allowed")), 1);
	/* hostPort 9100 comes from the API server's hostNetwork defaulting */
	ck_assert_str_eq(
		str_at(r, "error", NULL),
		"pods \"node-exporter-7xk2p\" is forbidden: violates PodSecurity \"baseline:latest\": host namespaces "
		"(hostNetwork=true, hostPID=true), hostPath volumes (volumes \"proc\", \"sys\", \"root\"), hostPort "
		"(container \"node-exporter\" uses hostPort 9100)");
	ck_assert_str_eq(
		str_at(r, "warning", NULL),
		"would violate PodSecurity \"baseline:latest\": host namespaces (hostNetwork=true, hostPID=true), "
		"hostPath volumes (volumes \"proc\", \"sys\", \"root\"), hostPort (container \"node-exporter\" uses "
		"hostPort 9100)");
	ck_assert_str_eq(str_at(r, "kind", NULL), "Pod");
	ck_assert_str_eq(str_at(r, "namespace", NULL), "monitoring");
	ck_assert_ptr_null(json_object_get(r, "pods"));
	json_decref(r);
}
END_TEST

START_TEST(sample_calico_pod)
{
	json_t *r = evaluate_file(VEC "calico-node-pod.yaml", "baseline", "latest", NULL);
	ck_assert_str_eq(
		str_at(r, "warning", NULL),
		"would violate PodSecurity \"baseline:latest\": host namespaces (hostNetwork=true), hostPath volumes "
		"(volumes \"lib-modules\", \"xtables-lock\", \"cni-bin-dir\", \"cni-net-dir\"), probe or lifecycle "
		"host "
		"(container \"calico-node\" uses probe or lifecycle host \"localhost\"), privileged (containers "
		"\"install-cni\", \"calico-node\" must not set securityContext.privileged=true)");
	json_t *v = json_object_get(r, "violations");
	ck_assert_uint_eq(json_array_size(v), 4);
	ck_assert_str_eq(str_at(json_array_get(v, 2), "check", NULL), "hostProbesAndHostLifecycle");
	json_decref(r);
	/* before 1.34 the probe host is not checked */
	r = evaluate_file(VEC "calico-node-pod.yaml", "baseline", "v1.33", NULL);
	ck_assert_uint_eq(json_array_size(json_object_get(r, "violations")), 3);
	ck_assert_str_eq(str_at(r, "effectiveVersion", NULL), "v1.33");
	json_decref(r);
}
END_TEST

START_TEST(fluentd_daemonset)
{
	json_t *r = audit_file(VEC "fluentd-daemonset.yaml", NULL);
	char *lines = finding_lines(r);
	assert_lines(
		lines,
		"hostPath high spec.template.spec.volumes[0].hostPath.path\n"
		"hostPath high spec.template.spec.volumes[1].hostPath.path\n"
		"serviceAccountToken medium spec.template.spec.automountServiceAccountToken\n"
		"runAsRoot medium spec.template.spec.containers[0].securityContext.runAsUser\n"
		"priorityClassName medium spec.template.spec.priorityClassName\n"
		"seccompProfile medium spec.template.spec.securityContext.seccompProfile\n"
		"minReadySeconds low spec.minReadySeconds\n"
		"livenessProbe low spec.template.spec.containers[0].livenessProbe\n"
		"readinessProbe low spec.template.spec.containers[0].readinessProbe\n"
		"allowPrivilegeEscalation low "
		"spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation\n"
		"capabilitiesNotDropped low spec.template.spec.containers[0].securityContext.capabilities.drop\n"
		"readOnlyRootFilesystem low spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem\n"
		"appArmorProfile low spec.template.spec.securityContext.appArmorProfile\n"
		"cpuLimit info spec.template.spec.containers[0].resources.limits.cpu\n"
		"seLinuxOptions info spec.template.spec.securityContext.seLinuxOptions\n"
		"controlPlane info spec.template.spec.tolerations\n");
	free(lines);
	ck_assert_str_eq(
		str_at(finding(r, "hostPath", "spec.template.spec.volumes[0].hostPath.path"), "message", NULL),
		"hostPath volume \"varlog\" mounts /var/log (node and container logs (the kubelet follows links "
		"placed there when it serves logs)); writable in container \"fluentd-elasticsearch\"");
	ck_assert_str_eq(
		str_at(finding(r, "hostPath", "spec.template.spec.volumes[1].hostPath.path"), "message", NULL),
		"hostPath volume \"varlibdockercontainers\" mounts /var/lib/docker/containers (Docker's storage: "
		"every container's filesystem); read-only in container \"fluentd-elasticsearch\"");
	ck_assert_ptr_nonnull(
		strstr(str_at(finding(r, "controlPlane", "spec.template.spec.tolerations"), "message", NULL),
		       "they also run there"));
	ck_assert_ptr_nonnull(
		strstr(str_at(finding(r, "serviceAccountToken", "spec.template.spec.automountServiceAccountToken"),
			      "message", NULL),
		       "\"fluentd\""));
	/* summary and identity */
	json_t *sum = json_object_get(r, "summary");
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "critical")), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "high")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "medium")), 4);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "low")), 7);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "info")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "total")), 16);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "suppressed")), 0);
	/* 100 - high (15 + 5) - medium (6 + 3 * 2) - low (2 + 6 * 1) */
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "score")), 60);
	ck_assert_str_eq(str_at(r, "kind", NULL), "DaemonSet");
	ck_assert_str_eq(str_at(r, "name", NULL), "fluentd-elasticsearch");
	ck_assert_str_eq(str_at(r, "namespace", NULL), "kube-system");
	ck_assert_str_eq(str_at(r, "level", NULL), "privileged");
	/* PSS: baseline fails only on the hostPath volumes */
	json_t *ps = json_object_get(r, "podSecurity");
	ck_assert_str_eq(str_at(ps, "version", NULL), "latest");
	ck_assert_str_eq(str_at(ps, "effectiveVersion", NULL), "v1.35");
	json_t *bv = json_object_get(json_object_get(ps, "baseline"), "violations");
	ck_assert_uint_eq(json_array_size(bv), 1);
	ck_assert_str_eq(str_at(json_array_get(bv, 0), "detail", NULL),
			 "volumes \"varlog\", \"varlibdockercontainers\"");
	json_t *req = json_object_get(r, "requested");
	ck_assert_str_eq(str_at(req, "level", NULL), "restricted");
	ck_assert_str_eq(
		str_at(req, "warning", NULL),
		"would violate PodSecurity \"restricted:latest\": allowPrivilegeEscalation != false (container "
		"\"fluentd-elasticsearch\" must set securityContext.allowPrivilegeEscalation=false), unrestricted "
		"capabilities "
		"(container \"fluentd-elasticsearch\" must set securityContext.capabilities.drop=[\"ALL\"]), "
		"restricted volume "
		"types (volumes \"varlog\", \"varlibdockercontainers\" use restricted volume type \"hostPath\"), "
		"runAsNonRoot != "
		"true (pod or container \"fluentd-elasticsearch\" must set securityContext.runAsNonRoot=true), "
		"runAsUser=0 "
		"(container \"fluentd-elasticsearch\" must not set runAsUser=0), seccompProfile (pod or container "
		"\"fluentd-elasticsearch\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or "
		"\"Localhost\")");
	ck_assert_ptr_null(json_object_get(req, "error"));
	ck_assert(json_is_false(json_object_get(json_object_get(req, "pods"), "allowed")));
	json_decref(r);
}
END_TEST

START_TEST(node_exporter_daemonset)
{
	json_t *r = audit_file(VEC "node-exporter-daemonset.yaml", NULL);
	char *lines = finding_lines(r);
	assert_lines(
		lines,
		"privileged critical spec.template.spec.containers[0].securityContext.privileged\n"
		"hostPath critical spec.template.spec.volumes[2].hostPath.path\n"
		"hostNetwork high spec.template.spec.hostNetwork\n"
		"hostPID high spec.template.spec.hostPID\n"
		"memoryLimit medium spec.template.spec.containers[0].resources.limits.memory\n"
		"resourceRequests medium spec.template.spec.containers[0].resources.requests\n"
		"priorityClassName medium spec.template.spec.priorityClassName\n"
		"hostPath medium spec.template.spec.volumes[0].hostPath.path\n"
		"hostPath medium spec.template.spec.volumes[1].hostPath.path\n"
		"minReadySeconds low spec.minReadySeconds\n"
		"serviceAccountToken low spec.template.spec.automountServiceAccountToken\n"
		"livenessProbe low spec.template.spec.containers[0].livenessProbe\n"
		"readinessProbe low spec.template.spec.containers[0].readinessProbe\n"
		"readOnlyRootFilesystem low spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem\n"
		"dnsPolicy low spec.template.spec.dnsPolicy\n"
		"runAsNonRoot low spec.template.spec.securityContext.runAsNonRoot\n"
		"cpuLimit info spec.template.spec.containers[0].resources.limits.cpu\n"
		"controlPlane info spec.template.spec.tolerations\n");
	free(lines);
	ck_assert_str_eq(str_at(finding(r, "hostPath", "spec.template.spec.volumes[2].hostPath.path"), "message", NULL),
			 "hostPath volume \"root\" mounts / (the host's root filesystem), which includes the container "
			 "runtime's socket; read-only in container \"node-exporter\"");
	ck_assert_str_eq(
		str_at(finding(r, "hostNetwork", "spec.template.spec.hostNetwork"), "message", NULL),
		"the pods share the node's network namespace: they can bind any port of the node, reach services that "
		"listen only on its loopback and see all of its traffic; the API server sets hostPort = containerPort "
		"on every pod it creates from this template (port 9100), so the pods also fail the baseline hostPort "
		"check although the template does not");
	ck_assert_ptr_nonnull(
		strstr(str_at(finding(r, "controlPlane", "spec.template.spec.tolerations"), "message", NULL),
		       "will not run on control-plane nodes"));
	/* the DaemonSet warns without hostPort; its pods are rejected with it */
	json_t *req = json_object_get(r, "requested");
	json_t *bv = json_object_get(json_object_get(json_object_get(r, "podSecurity"), "baseline"), "violations");
	ck_assert_uint_eq(json_array_size(bv), 3);
	ck_assert_str_eq(str_at(json_array_get(bv, 0), "check", NULL), "hostNamespaces");
	ck_assert_str_eq(str_at(json_array_get(bv, 1), "check", NULL), "hostPathVolumes");
	ck_assert_str_eq(str_at(json_array_get(bv, 2), "check", NULL), "privileged");
	ck_assert_ptr_null(strstr(str_at(req, "warning", NULL), "hostPort"));
	ck_assert_ptr_nonnull(
		strstr(str_at(json_object_get(req, "pods"), "error", NULL),
		       "host namespaces (hostNetwork=true, hostPID=true), hostPort (container \"node-exporter\" "
		       "uses hostPort 9100), privileged"));
	ck_assert_str_eq(str_at(r, "level", NULL), "privileged");
	json_decref(r);
}
END_TEST

/* requested level and version from the options; kubernetesVersion bounds "latest" (emulation version) */
START_TEST(options_select_level_and_version)
{
	ds_options *o;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ds_error err;
	ck_assert_int_eq(ds_options_set(o, "podSecurityLevel", "baseline", &err), 0);
	json_t *r = audit_file(VEC "fluentd-daemonset.yaml", o);
	json_t *req = json_object_get(r, "requested");
	ck_assert_str_eq(str_at(req, "level", NULL), "baseline");
	ck_assert_str_eq(str_at(req, "warning", NULL),
			 "would violate PodSecurity \"baseline:latest\": hostPath volumes "
			 "(volumes \"varlog\", \"varlibdockercontainers\")");
	json_decref(r);
	ck_assert_int_eq(ds_options_set(o, "podSecurityLevel", "privileged", &err), 0);
	r = audit_file(VEC "fluentd-daemonset.yaml", o);
	req = json_object_get(r, "requested");
	ck_assert(json_is_true(json_object_get(req, "allowed")));
	ck_assert_ptr_null(json_object_get(req, "warning"));
	ck_assert_uint_eq(json_array_size(json_object_get(req, "violations")), 0);
	json_decref(r);
	/* kubernetesVersion 1.37: latest is v1.37; newer requests clamp to it */
	ck_assert_int_eq(ds_options_set(o, "kubernetesVersion", "1.37", &err), 0);
	ck_assert_int_eq(ds_options_set(o, "podSecurityVersion", "v1.99", &err), 0);
	r = audit_file(VEC "fluentd-daemonset.yaml", o);
	ck_assert_str_eq(str_at(json_object_get(r, "podSecurity"), "effectiveVersion", NULL), "v1.37");
	ck_assert_str_eq(str_at(json_object_get(r, "podSecurity"), "version", NULL), "v1.99");
	json_decref(r);
	ck_assert_int_eq(ds_options_set(o, "kubernetesVersion", "1.30", &err), 0);
	ck_assert_int_eq(ds_options_set(o, "podSecurityVersion", "latest", &err), 0);
	r = audit_file(VEC "fluentd-daemonset.yaml", o);
	ck_assert_str_eq(str_at(json_object_get(r, "podSecurity"), "effectiveVersion", NULL), "v1.30");
	json_decref(r);
	/* a bad version is DS_EVALUE on the option */
	ck_assert_int_eq(ds_options_set(o, "podSecurityVersion", "v1.05", &err), 0);
	char *text = dsi_test_read_file(VEC "fluentd-daemonset.yaml", NULL), *out = (char *)1;
	ck_assert_int_eq(ds_audit(text, strlen(text), o, &out, &err), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "podSecurityVersion");
	ck_assert_ptr_null(out);
	free(text);
	ds_options_free(o);
	/* explicit arguments of ds_pod_security_evaluate; levels are case-sensitive */
	r = evaluate_file(VEC "fluentd-daemonset.yaml", "restricted", "v1.22", NULL);
	ck_assert_str_eq(str_at(r, "effectiveVersion", NULL), "v1.22");
	ck_assert_ptr_null(strstr(str_at(r, "warning", NULL), "runAsUser=0"));
	json_decref(r);
	text = dsi_test_read_file(VEC "fluentd-daemonset.yaml", NULL);
	ck_assert_int_eq(ds_pod_security_evaluate(text, strlen(text), "Baseline", NULL, NULL, &out, &err), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "podSecurityLevel");
	ck_assert_int_eq(ds_pod_security_evaluate(text, strlen(text), NULL, "1.30", NULL, &out, &err), DS_EVALUE);
	ck_assert_error(err, DS_EVALUE, "podSecurityVersion");
	free(text);
}
END_TEST

/* Runtime sockets, sensitive directories, subPath and path normalisation. */
START_TEST(host_path_ratings)
{
	static const struct {
		const char *path;
		int writable, sev;
	} cases[] = {
		{"/run/containerd/containerd.sock", 0, DSI_SEV_CRITICAL},
		{"/var/run/docker.sock", 0, DSI_SEV_CRITICAL},
		{"/var/run/crio/crio.sock", 0, DSI_SEV_CRITICAL},
		{"/var/run/../run/containerd//containerd.sock/", 0, DSI_SEV_CRITICAL},
		{"/run/containerd", 0, DSI_SEV_CRITICAL},
		{"/var/run", 0, DSI_SEV_CRITICAL},
		{"/var", 0, DSI_SEV_CRITICAL}, /* includes /var/lib/etcd and the sockets */
		{"/", 1, DSI_SEV_CRITICAL},
		{"/", 0, DSI_SEV_CRITICAL}, /* read-only still reaches the runtime socket */
		{"/etc", 1, DSI_SEV_CRITICAL},
		{"/etc/kubernetes/pki", 0, DSI_SEV_HIGH},
		{"/proc", 0, DSI_SEV_MEDIUM},
		{"/proc", 1, DSI_SEV_CRITICAL},
		{"/sys/fs/cgroup", 1, DSI_SEV_CRITICAL},
		{"/var/lib/kubelet", 1, DSI_SEV_CRITICAL},
		{"/var/lib/kubelet/pods", 0, DSI_SEV_HIGH},
		{"/var/lib/docker/containers", 0, DSI_SEV_HIGH},
		{"/var/log", 1, DSI_SEV_HIGH},
		{"/var/log", 0, DSI_SEV_MEDIUM},
		{"/lib/modules", 0, DSI_SEV_LOW},
		{"/lib/modules", 1, DSI_SEV_HIGH},
		{"/run/xtables.lock", 1, DSI_SEV_MEDIUM}, /* inside /run, but not a socket */
		{"/run/xtables.lock", 0, DSI_SEV_LOW},
		{"/data/agent", 1, DSI_SEV_MEDIUM},
		{"/data/agent", 0, DSI_SEV_LOW},
		{"/etcd-backup", 1, DSI_SEV_MEDIUM}, /* a prefix of the string, not of the path */
		{"/opt/cni/bin", 1, DSI_SEV_CRITICAL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *what = NULL;
		int sev = dsi_audit_host_path_severity(cases[i].path, cases[i].writable, &what);
		ck_assert_msg(sev == cases[i].sev, "%s (%s): %s, want %s", cases[i].path,
			      cases[i].writable ? "rw" : "ro", dsi_severity_name(sev), dsi_severity_name(cases[i].sev));
		ck_assert_ptr_nonnull(what);
	}
	/* subPath narrows or widens what a mount reaches; a socket mounted read-only stays critical */
	json_t *r = audit_text(
		"kind: DaemonSet\n"
		"metadata: {name: agent}\n"
		"spec:\n"
		"  template:\n"
		"    spec:\n"
		"      automountServiceAccountToken: false\n"
		"      containers:\n"
		"      - name: a\n"
		"        volumeMounts:\n"
		"        - {name: host, mountPath: /host/etc, subPath: etc}\n"
		"        - {name: sock, mountPath: /run/containerd/containerd.sock, readOnly: true}\n"
		"        - {name: unused-sub, mountPath: /x, subPath: ../../var/lib/kubelet, readOnly: true}\n"
		"      volumes:\n"
		"      - {name: host, hostPath: {path: /}}\n"
		"      - {name: sock, hostPath: {path: /run/containerd/containerd.sock, type: Socket}}\n"
		"      - {name: unused-sub, hostPath: {path: /srv/data}}\n"
		"      - {name: lonely, hostPath: {path: /srv/lonely}}\n",
		NULL);
	json_t *f = finding(r, "hostPath", "spec.template.spec.volumes[0].hostPath.path");
	ck_assert_str_eq(str_at(f, "severity", NULL), "critical");
	ck_assert_str_eq(str_at(f, "message", NULL),
			 "hostPath volume \"host\" mounts /etc (host configuration, including "
			 "kubelet and control-plane credentials); writable in container \"a\"");
	f = finding(r, "hostPath", "spec.template.spec.volumes[1].hostPath.path");
	ck_assert_str_eq(str_at(f, "severity", NULL), "critical");
	ck_assert_ptr_nonnull(strstr(str_at(f, "remediation", NULL), "readOnly does not prevent connecting"));
	f = finding(r, "hostPath", "spec.template.spec.volumes[2].hostPath.path");
	ck_assert_str_eq(str_at(f, "severity", NULL), "high"); /* /srv/data/../../var/lib/kubelet */
	f = finding(r, "hostPath", "spec.template.spec.volumes[3].hostPath.path");
	ck_assert_str_eq(str_at(f, "severity", NULL), "low");
	ck_assert_ptr_nonnull(strstr(str_at(f, "message", NULL), "not mounted by any container"));
	json_decref(r);
}
END_TEST

START_TEST(capabilities_and_confinement)
{
	json_t *r = audit_text("{\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"net\"},\"spec\":{\"template\":{"
			       "\"metadata\":{\"annotations\":{"
			       "\"container.apparmor.security.beta.kubernetes.io/agent\":\"unconfined\"}},\"spec\":{"
			       "\"automountServiceAccountToken\":false,\"tolerations\":[{\"operator\":\"Exists\"},{"
			       "\"operator\":\"Exists\","
			       "\"effect\":\"NoExecute\"}],\"securityContext\":{\"runAsNonRoot\":true,\"runAsUser\":"
			       "1000,\"seccompProfile\":{"
			       "\"type\":\"RuntimeDefault\"},\"seLinuxOptions\":{\"type\":\"spc_t\"},\"sysctls\":[{"
			       "\"name\":\"net.core.somaxconn\""
			       ",\"value\":\"1024\"},{\"name\":\"net.ipv4.tcp_syncookies\",\"value\":\"1\"}]},"
			       "\"containers\":[{\"name\":\"agent\","
			       "\"ports\":[{\"containerPort\":8080,\"hostPort\":8080}],\"securityContext\":{"
			       "\"allowPrivilegeEscalation\":false,"
			       "\"readOnlyRootFilesystem\":true,\"seccompProfile\":{\"type\":\"Unconfined\"},"
			       "\"procMount\":\"Unmasked\","
			       "\"capabilities\":{\"drop\":[\"ALL\"],\"add\":[\"SYS_ADMIN\",\"NET_ADMIN\",\"cap_sys_"
			       "ptrace\",\"NET_RAW\",\"CHOWN\","
			       "\"BPF\"]}}}]}}}}",
			       NULL);
	char *lines = finding_lines(r);
	assert_lines(lines,
		     "capabilities critical spec.template.spec.containers[0].securityContext.capabilities.add[0]\n"
		     "appArmorProfile high "
		     "spec.template.metadata.annotations[\"container.apparmor.security.beta.kubernetes.io/agent\"]\n"
		     "capabilities high spec.template.spec.containers[0].securityContext.capabilities.add[1]\n"
		     "capabilities high spec.template.spec.containers[0].securityContext.capabilities.add[2]\n"
		     "capabilities high spec.template.spec.containers[0].securityContext.capabilities.add[5]\n"
		     "procMount high spec.template.spec.containers[0].securityContext.procMount\n"
		     "seccompProfile high spec.template.spec.containers[0].securityContext.seccompProfile.type\n"
		     "seLinuxOptions high spec.template.spec.securityContext.seLinuxOptions.type\n"
		     "hostPort medium spec.template.spec.containers[0].ports[0].hostPort\n"
		     "memoryLimit medium spec.template.spec.containers[0].resources.limits.memory\n"
		     "resourceRequests medium spec.template.spec.containers[0].resources.requests\n"
		     "capabilities medium spec.template.spec.containers[0].securityContext.capabilities.add[3]\n"
		     "priorityClassName medium spec.template.spec.priorityClassName\n"
		     "sysctls medium spec.template.spec.securityContext.sysctls[0].name\n"
		     "toleratesAllTaints medium spec.template.spec.tolerations[0]\n"
		     "toleratesAllTaints medium spec.template.spec.tolerations[1]\n"
		     "minReadySeconds low spec.minReadySeconds\n"
		     "livenessProbe low spec.template.spec.containers[0].livenessProbe\n"
		     "readinessProbe low spec.template.spec.containers[0].readinessProbe\n"
		     "cpuLimit info spec.template.spec.containers[0].resources.limits.cpu\n"
		     "controlPlane info spec.template.spec.tolerations\n");
	free(lines);
	ck_assert_str_eq(str_at(finding(r, "seLinuxOptions", "spec.template.spec.securityContext.seLinuxOptions.type"),
				"message", NULL),
			 "the pod runs with SELinux type spc_t (super-privileged container: unconfined)");
	ck_assert_str_eq(str_at(finding(r, "toleratesAllTaints", "spec.template.spec.tolerations[1]"), "message", NULL),
			 "the pods tolerate every NoExecute taint");
	ck_assert_ptr_nonnull(
		strstr(str_at(finding(r, "controlPlane", "spec.template.spec.tolerations"), "message", NULL),
		       "they also run there"));
	json_decref(r);
}
END_TEST

/* Other kinds: paths follow the template's place; the control-plane note is for DaemonSets only. */
START_TEST(other_kinds)
{
	json_t *r = audit_text(
		"kind: CronJob\nmetadata: {name: backup, namespace: ops}\nspec:\n  jobTemplate:\n    spec:\n"
		"      template:\n        spec:\n          hostIPC: true\n          containers: [{name: b}]\n",
		NULL);
	(void)finding(r, "hostIPC", "spec.jobTemplate.spec.template.spec.hostIPC");
	(void)finding(r, "readOnlyRootFilesystem",
		      "spec.jobTemplate.spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem");
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(r, "findings"), i, f)
		ck_assert_str_ne(str_at(f, "id", NULL), "controlPlane");
	json_decref(r);
	/* a Pod: hostUsers false relaxes the root findings; the forbidden message names the pod */
	r = audit_text(
		"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"hostUsers\":false,\"securityContext\":"
		"{\"runAsUser\":0},\"containers\":[{\"name\":\"c\",\"securityContext\":{\"runAsUser\":0}}]}}",
		NULL);
	json_array_foreach(json_object_get(r, "findings"), i, f)
	{
		ck_assert_str_ne(str_at(f, "id", NULL), "runAsRoot");
		ck_assert_str_ne(str_at(f, "id", NULL), "runAsNonRoot");
		ck_assert_int_eq(strncmp(str_at(f, "path", NULL), "spec.", 5), 0);
	}
	ck_assert_ptr_nonnull(
		strstr(str_at(json_object_get(r, "requested"), "error", NULL), "pods \"p\" is forbidden: "));
	json_decref(r);
	/* a Deployment without a template is an empty pod: allowed at every level */
	r = audit_text("{\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"}}", NULL);
	ck_assert_str_eq(str_at(r, "level", NULL), "restricted");
	ck_assert(json_is_null(json_object_get(r, "namespace")));
	json_decref(r);
}
END_TEST

/* Wrong types with exact paths, empty and non-object input, NULL arguments, limits. */
START_TEST(bad_inputs)
{
	static const struct {
		const char *text;
		int code;
		const char *path;
		int audit_only; /* tolerations are read by the audit, not by PSS */
	} cases[] = {
		{"kind: DaemonSet\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n      - name: b\n"
		 "        securityContext: {privileged: 'yes'}\n",
		 DS_ETYPE, "spec.template.spec.containers[1].securityContext.privileged", 0},
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"template\":{\"spec\":{\"tolerations\":[{\"effect\":\"Sometimes\"}"
		 "]}}}}",
		 DS_EVALUE, "spec.template.spec.tolerations[0].effect", 1},
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"template\":{\"spec\":{\"tolerations\":{}}}}}", DS_ETYPE,
		 "spec.template.spec.tolerations", 1},
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"template\":{\"spec\":{\"volumes\":[{\"name\":\"v\",\"hostPath\":{"
		 "\"path\":[\"/\"]}}]}}}}",
		 DS_ETYPE, "spec.template.spec.volumes[0].hostPath.path", 0},
		{"{\"kind\":\"DaemonSet\",\"metadata\":{\"name\":5}}", DS_ETYPE, "metadata.name", 0},
		{"", DS_EMISSING, "", 0},
		{"   \n", DS_EMISSING, "", 0},
		{"[1, 2]", DS_ETYPE, "", 0},
		{"42", DS_ETYPE, "", 0},
		{"just a string", DS_ETYPE, "", 0},
		{"{\"kind\": \"DaemonSet\",", DS_ESYNTAX, "", 0},
		{"kind: Service\nspec: {}\n", DS_EUNSUPPORTED, "kind", 0},
		{"a: 1\n---\nb: 2\n", DS_EARG, "", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int fn = 0; fn < 2 - cases[i].audit_only; fn++) {
			char *out = (char *)1;
			ds_error err;
			int rc = fn ? ds_pod_security_evaluate(cases[i].text, strlen(cases[i].text), "baseline",
							       "latest", NULL, &out, &err)
				    : ds_audit(cases[i].text, strlen(cases[i].text), NULL, &out, &err);
			ck_assert_msg(rc == cases[i].code, "case %zu fn %d: %s (%s: %s)", i, fn, ds_strerror(rc),
				      err.path, err.message);
			ck_assert_error(err, cases[i].code, cases[i].path);
			ck_assert_ptr_null(out);
		}
	}
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_audit(NULL, 0, NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_audit("{}", 2, NULL, NULL, &err), DS_EARG);
	ck_assert_int_eq(ds_pod_security_evaluate(NULL, 0, NULL, NULL, NULL, &out, NULL), DS_EARG);
	ck_assert_int_eq(ds_pod_security_evaluate("{}", 2, NULL, NULL, NULL, NULL, NULL), DS_EARG);
	/* the loading limits come from the options */
	ds_options *o;
	ds_options_new(&o);
	ck_assert_int_eq(ds_options_set(o, "maxDocumentBytes", "16", &err), 0);
	const char *big = "{\"kind\":\"Pod\",\"spec\":{\"containers\":[]}}";
	ck_assert_int_eq(ds_audit(big, strlen(big), o, &out, &err), DS_ELIMIT);
	ck_assert_int_eq(ds_pod_security_evaluate(big, strlen(big), NULL, NULL, o, &out, &err), DS_ELIMIT);
	ds_options_free(o);
	/* a size shorter than the text: only size bytes are read */
	ck_assert_int_eq(ds_audit(big, 10, NULL, &out, &err), DS_ESYNTAX);
}
END_TEST

/* Findings are ordered by severity, then path; the report is deterministic. */
START_TEST(deterministic_report)
{
	char *text = dsi_test_read_file(VEC "node-exporter-daemonset.yaml", NULL);
	char *a = NULL, *b = NULL;
	ds_error err;
	ck_assert_int_eq(ds_audit(text, strlen(text), NULL, &a, &err), 0);
	ck_assert_int_eq(ds_audit(text, strlen(text), NULL, &b, &err), 0);
	ck_assert_str_eq(a, b);
	json_t *r = dsi_test_take_json(a);
	ds_free(b);
	static const char *const order[] = {"critical", "high", "medium", "low", "info"};
	int last = 0;
	const char *last_path = "";
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(r, "findings"), i, f)
	{
		int sev = -1;
		for (int k = 0; k < 5; k++)
			if (strcmp(str_at(f, "severity", NULL), order[k]) == 0)
				sev = k;
		ck_assert_int_ge(sev, last);
		if (sev == last)
			ck_assert_int_le(strcmp(last_path, str_at(f, "path", NULL)), 0);
		else
			last = sev;
		last_path = str_at(f, "path", NULL);
	}
	json_decref(r);
	free(text);
	ck_assert_str_eq(dsi_severity_name(DSI_SEV_CRITICAL), "critical");
	ck_assert_str_eq(dsi_severity_name(DSI_SEV_INFO), "info");
}
END_TEST

static Suite *audit_suite(void)
{
	Suite *s = suite_create("audit");
	TCase *tc = tcase_create("audit");
	tcase_add_test(tc, sample_node_exporter_pod);
	tcase_add_test(tc, sample_calico_pod);
	tcase_add_test(tc, fluentd_daemonset);
	tcase_add_test(tc, node_exporter_daemonset);
	tcase_add_test(tc, options_select_level_and_version);
	tcase_add_test(tc, host_path_ratings);
	tcase_add_test(tc, capabilities_and_confinement);
	tcase_add_test(tc, other_kinds);
	tcase_add_test(tc, bad_inputs);
	tcase_add_test(tc, deterministic_report);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(audit_suite)
