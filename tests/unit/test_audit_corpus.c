/* The audit over a corpus of realistic DaemonSets (tests/vectors/audit/corpus): the findings per file, the
 * placement claims, the Windows rules; with a snapshot, the node counts; suppression, failOn, the line of
 * each finding, the unknown-field hook, SARIF and bad inputs. */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/audit_internal.h"
#include "core/yaml.h"
#include "harness.h"

#define CORPUS "tests/vectors/audit/corpus/"

static json_t *audit_text(const char *text, const ds_options *opts)
{
	char *out = NULL;
	ds_error err;
	int rc = ds_audit(text, strlen(text), opts, &out, &err);
	ck_assert_msg(rc == 0, "ds_audit: %s: %s: %s", ds_strerror(rc), err.path, err.message);
	return dsi_test_take_json(out);
}

static json_t *audit_file(const char *name, const ds_options *opts)
{
	char path[256];
	snprintf(path, sizeof(path), CORPUS "%s", name);
	char *text = dsi_test_read_file(path, NULL);
	json_t *r = audit_text(text, opts);
	free(text);
	return r;
}

static const char *str(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	ck_assert_msg(json_is_string(v), "%s is not a string", k);
	return json_string_value(v);
}

/* "id severity path[ suppressed]" of each finding, one per line */
static char *finding_lines(const json_t *report)
{
	const json_t *fs = json_object_get(report, "findings");
	ck_assert(json_is_array(fs));
	size_t size = 1, i;
	json_t *f;
	json_array_foreach(fs, i, f) size += strlen(str(f, "path")) + 80;
	char *s = calloc(1, size);
	json_array_foreach(fs, i, f)
	{
		ck_assert_msg(*str(f, "message") && *str(f, "remediation"),
			      "finding %zu without message or remediation", i);
		snprintf(s + strlen(s), size - strlen(s), "%s %s %s%s\n", str(f, "id"), str(f, "severity"),
			 str(f, "path"), json_is_true(json_object_get(f, "suppressed")) ? " suppressed" : "");
	}
	return s;
}

static json_t *find(const json_t *report, const char *id, const char *path)
{
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(report, "findings"), i,
			   f) if (strcmp(str(f, "id"), id) == 0 &&
				  (!path || strcmp(str(f, "path"), path) == 0)) return f;
	return NULL;
}

static long summary(const json_t *report, const char *k)
{
	return (long)json_integer_value(json_object_get(json_object_get(report, "summary"), k));
}

typedef struct corpus_case {
	const char *file, *rule_set, *os, *control_plane;
	int score;
	const char *claim, *findings;
} corpus_case;

static const corpus_case corpus[] = {
	{"csi-node-windows.yaml", "windows", "windows", "no", 29,
	 "every Windows node, whatever their taints, not control-plane nodes (its node selection excludes them)",
	 "hostPath critical spec.template.spec.volumes[4].hostPath.path\n"
	 "windowsNamedPipe high spec.template.spec.volumes[0].hostPath.path\n"
	 "windowsNamedPipe high spec.template.spec.volumes[1].hostPath.path\n"
	 "windowsNamedPipe high spec.template.spec.volumes[2].hostPath.path\n"
	 "hostPath high spec.template.spec.volumes[3].hostPath.path\n"
	 "hostPath high spec.template.spec.volumes[5].hostPath.path\n"
	 "serviceAccountToken medium spec.template.spec.automountServiceAccountToken\n"
	 "windowsRunAsUserName medium spec.template.spec.securityContext.windowsOptions.runAsUserName\n"
	 "toleratesAllTaints medium spec.template.spec.tolerations[0]\n"
	 "readinessProbe low spec.template.spec.containers[0].readinessProbe\n"
	 "livenessProbe low spec.template.spec.containers[1].livenessProbe\n"
	 "readinessProbe low spec.template.spec.containers[1].readinessProbe\n"
	 "livenessProbe low spec.template.spec.containers[2].livenessProbe\n"
	 "readinessProbe low spec.template.spec.containers[2].readinessProbe\n"
	 "cpuLimit info spec.template.spec.containers[0].resources.limits.cpu\n"
	 "cpuLimit info spec.template.spec.containers[1].resources.limits.cpu\n"
	 "cpuLimit info spec.template.spec.containers[2].resources.limits.cpu\n"
	 "controlPlane info spec.template.spec.tolerations\n"},
	{"csi-node.yaml", "linux", "linux", "yes", 4,
	 "every Linux node, whatever their taints, including control-plane nodes",
	 "privileged critical spec.template.spec.containers[0].securityContext.privileged\n"
	 "hostPath critical spec.template.spec.volumes[0].hostPath.path\n"
	 "hostPath critical spec.template.spec.volumes[3].hostPath.path\n"
	 "mountPropagation high spec.template.spec.containers[0].volumeMounts[0].mountPropagation\n"
	 "hostPath high spec.template.spec.volumes[1].hostPath.path\n"
	 "hostPath high spec.template.spec.volumes[2].hostPath.path\n"
	 "serviceAccountToken medium spec.template.spec.automountServiceAccountToken\n"
	 "runAsRoot medium spec.template.spec.securityContext.runAsUser\n"
	 "seccompProfile medium spec.template.spec.securityContext.seccompProfile\n"
	 "toleratesAllTaints medium spec.template.spec.tolerations[0]\n"
	 "minReadySeconds low spec.minReadySeconds\n"
	 "readinessProbe low spec.template.spec.containers[0].readinessProbe\n"
	 "readinessProbe low spec.template.spec.containers[1].readinessProbe\n"
	 "capabilitiesNotDropped low spec.template.spec.containers[1].securityContext.capabilities.drop\n"
	 "livenessProbe low spec.template.spec.containers[2].livenessProbe\n"
	 "readinessProbe low spec.template.spec.containers[2].readinessProbe\n"
	 "capabilitiesNotDropped low spec.template.spec.containers[2].securityContext.capabilities.drop\n"
	 "appArmorProfile low spec.template.spec.securityContext.appArmorProfile\n"
	 "cpuLimit info spec.template.spec.containers[0].resources.limits.cpu\n"
	 "cpuLimit info spec.template.spec.containers[1].resources.limits.cpu\n"
	 "cpuLimit info spec.template.spec.containers[2].resources.limits.cpu\n"
	 "seLinuxOptions info spec.template.spec.securityContext.seLinuxOptions\n"
	 "controlPlane info spec.template.spec.tolerations\n"},
	{"flannel.yaml", "linux", "linux", "yes", 15,
	 "every Linux node that has no NoExecute taint it does not tolerate, whatever their NoSchedule taints, "
	 "including control-plane nodes",
	 "hostPath critical spec.template.spec.volumes[1].hostPath.path\n"
	 "hostPath critical spec.template.spec.volumes[2].hostPath.path\n"
	 "capabilities high spec.template.spec.containers[0].securityContext.capabilities.add[0]\n"
	 "hostNetwork high spec.template.spec.hostNetwork\n"
	 "serviceAccountToken medium spec.template.spec.automountServiceAccountToken\n"
	 "memoryLimit medium spec.template.spec.containers[0].resources.limits.memory\n"
	 "capabilities medium spec.template.spec.containers[0].securityContext.capabilities.add[1]\n"
	 "seccompProfile medium spec.template.spec.securityContext.seccompProfile\n"
	 "toleratesAllTaints medium spec.template.spec.tolerations[0]\n"
	 "hostPath medium spec.template.spec.volumes[0].hostPath.path\n"
	 "hostPath medium spec.template.spec.volumes[4].hostPath.path\n"
	 "minReadySeconds low spec.minReadySeconds\n"
	 "livenessProbe low spec.template.spec.containers[0].livenessProbe\n"
	 "readinessProbe low spec.template.spec.containers[0].readinessProbe\n"
	 "allowPrivilegeEscalation low spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation\n"
	 "capabilitiesNotDropped low spec.template.spec.containers[0].securityContext.capabilities.drop\n"
	 "readOnlyRootFilesystem low spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem\n"
	 "dnsPolicy low spec.template.spec.dnsPolicy\n"
	 "allowPrivilegeEscalation low spec.template.spec.initContainers[0].securityContext.allowPrivilegeEscalation\n"
	 "capabilitiesNotDropped low spec.template.spec.initContainers[0].securityContext.capabilities.drop\n"
	 "readOnlyRootFilesystem low spec.template.spec.initContainers[0].securityContext.readOnlyRootFilesystem\n"
	 "allowPrivilegeEscalation low spec.template.spec.initContainers[1].securityContext.allowPrivilegeEscalation\n"
	 "capabilitiesNotDropped low spec.template.spec.initContainers[1].securityContext.capabilities.drop\n"
	 "readOnlyRootFilesystem low spec.template.spec.initContainers[1].securityContext.readOnlyRootFilesystem\n"
	 "appArmorProfile low spec.template.spec.securityContext.appArmorProfile\n"
	 "runAsNonRoot low spec.template.spec.securityContext.runAsNonRoot\n"
	 "cpuLimit info spec.template.spec.containers[0].resources.limits.cpu\n"
	 "seLinuxOptions info spec.template.spec.securityContext.seLinuxOptions\n"
	 "controlPlane info spec.template.spec.tolerations\n"},
	{"fluent-bit.yaml", "linux", "any", "yes", 57,
	 "every node, whatever their taints, including control-plane nodes",
	 "hostPath high spec.template.spec.volumes[1].hostPath.path\n"
	 "hostPath high spec.template.spec.volumes[2].hostPath.path\n"
	 "serviceAccountToken medium spec.template.spec.automountServiceAccountToken suppressed\n"
	 "imageTag medium spec.template.spec.containers[0].image\n"
	 "memoryLimit medium spec.template.spec.containers[0].resources.limits.memory\n"
	 "resourceRequests medium spec.template.spec.containers[0].resources.requests\n"
	 "priorityClassName medium spec.template.spec.priorityClassName\n"
	 "seccompProfile medium spec.template.spec.securityContext.seccompProfile\n"
	 "toleratesAllTaints medium spec.template.spec.tolerations[0]\n"
	 "minReadySeconds low spec.minReadySeconds\n"
	 "imagePullPolicy low spec.template.spec.containers[0].imagePullPolicy\n"
	 "allowPrivilegeEscalation low spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation\n"
	 "capabilitiesNotDropped low spec.template.spec.containers[0].securityContext.capabilities.drop\n"
	 "readOnlyRootFilesystem low spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem "
	 "suppressed\n"
	 "appArmorProfile low spec.template.spec.securityContext.appArmorProfile\n"
	 "runAsNonRoot low spec.template.spec.securityContext.runAsNonRoot\n"
	 "hostPath low spec.template.spec.volumes[3].hostPath.path\n"
	 "cpuLimit info spec.template.spec.containers[0].resources.limits.cpu\n"
	 "seLinuxOptions info spec.template.spec.securityContext.seLinuxOptions\n"
	 "controlPlane info spec.template.spec.tolerations\n"},
	{"node-exporter.yaml", "linux", "linux", "yes", 27,
	 "every Linux node, whatever their taints, including control-plane nodes",
	 "hostPath critical spec.template.spec.volumes[1].hostPath.path\n"
	 "capabilities high spec.template.spec.containers[0].securityContext.capabilities.add[0]\n"
	 "hostNetwork high spec.template.spec.hostNetwork\n"
	 "hostPID high spec.template.spec.hostPID\n"
	 "hostPort medium spec.template.spec.containers[1].ports[0].hostPort\n"
	 "toleratesAllTaints medium spec.template.spec.tolerations[0]\n"
	 "hostPath medium spec.template.spec.volumes[0].hostPath.path\n"
	 "minReadySeconds low spec.minReadySeconds\n"
	 "livenessProbe low spec.template.spec.containers[0].livenessProbe\n"
	 "readinessProbe low spec.template.spec.containers[0].readinessProbe\n"
	 "livenessProbe low spec.template.spec.containers[1].livenessProbe\n"
	 "readinessProbe low spec.template.spec.containers[1].readinessProbe\n"
	 "dnsPolicy low spec.template.spec.dnsPolicy\n"
	 "appArmorProfile low spec.template.spec.securityContext.appArmorProfile\n"
	 "seLinuxOptions info spec.template.spec.securityContext.seLinuxOptions\n"
	 "controlPlane info spec.template.spec.tolerations\n"},
	{"nvidia-device-plugin.yaml", "linux", "any", "no", 68,
	 "only nodes that match (feature.node.kubernetes.io/pci-10de.present=true) or (nvidia.com/gpu.present=true) "
	 "that have no NoSchedule or NoExecute taint it does not tolerate, not control-plane nodes (it does not "
	 "tolerate node-role.kubernetes.io/control-plane:NoSchedule)",
	 "hostPath high spec.template.spec.volumes[0].hostPath.path\n"
	 "memoryLimit medium spec.template.spec.containers[0].resources.limits.memory\n"
	 "resourceRequests medium spec.template.spec.containers[0].resources.requests\n"
	 "seccompProfile medium spec.template.spec.securityContext.seccompProfile\n"
	 "minReadySeconds low spec.minReadySeconds\n"
	 "livenessProbe low spec.template.spec.containers[0].livenessProbe\n"
	 "readinessProbe low spec.template.spec.containers[0].readinessProbe\n"
	 "readOnlyRootFilesystem low spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem\n"
	 "appArmorProfile low spec.template.spec.securityContext.appArmorProfile\n"
	 "runAsNonRoot low spec.template.spec.securityContext.runAsNonRoot\n"
	 "cpuLimit info spec.template.spec.containers[0].resources.limits.cpu\n"
	 "seLinuxOptions info spec.template.spec.securityContext.seLinuxOptions\n"
	 "controlPlane info spec.template.spec.tolerations\n"},
	{"windows-exporter-hostprocess.yaml", "windows", "windows", "no", 43,
	 "every Windows node that has no NoSchedule or NoExecute taint it does not tolerate, not control-plane nodes "
	 "(it does not tolerate node-role.kubernetes.io/control-plane:NoSchedule)",
	 "hostProcess critical spec.template.spec.securityContext.windowsOptions.hostProcess\n"
	 "windowsRunAsUserName high spec.template.spec.securityContext.windowsOptions.runAsUserName\n"
	 "hostPort medium spec.template.spec.containers[0].ports[0].hostPort\n"
	 "priorityClassName medium spec.template.spec.priorityClassName\n"
	 "minReadySeconds low spec.minReadySeconds\n"
	 "serviceAccountToken low spec.template.spec.automountServiceAccountToken\n"
	 "dnsPolicy low spec.template.spec.dnsPolicy\n"
	 "cpuLimit info spec.template.spec.containers[0].resources.limits.cpu\n"
	 "hostNetwork info spec.template.spec.hostNetwork\n"
	 "controlPlane info spec.template.spec.tolerations\n"},
};

START_TEST(corpus_findings)
{
	const corpus_case *c = &corpus[_i];
	json_t *r = audit_file(c->file, NULL);
	char *lines = finding_lines(r);
	if (strcmp(lines, c->findings) != 0) {
		fprintf(stderr, "%s: got\n%s--- want:\n%s", c->file, lines, c->findings);
		ck_abort_msg("%s: findings differ (see above)", c->file);
	}
	free(lines);
	ck_assert_str_eq(str(r, "ruleSet"), c->rule_set);
	const json_t *pl = json_object_get(r, "placement");
	ck_assert_str_eq(str(pl, "os"), c->os);
	ck_assert_str_eq(str(pl, "controlPlane"), c->control_plane);
	ck_assert_str_eq(str(pl, "claim"), c->claim);
	ck_assert_int_eq(summary(r, "score"), c->score);
	/* no option: nothing fails */
	ck_assert_str_eq(str(r, "failOn"), "none");
	ck_assert(json_is_false(json_object_get(r, "failed")));
	/* YAML input: every finding knows its line */
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(r, "findings"), i, f) ck_assert_msg(
		json_integer_value(json_object_get(f, "line")) > 0, "%s: finding %zu has no line", c->file, i);
	json_decref(r);
}
END_TEST

/* What the claims say, beyond the strings: a GPU-only, Windows-only or opt-in DaemonSet is not everywhere. */
START_TEST(placement_claims)
{
	json_t *r = audit_file("nvidia-device-plugin.yaml", NULL);
	const json_t *pl = json_object_get(r, "placement");
	ck_assert(json_is_false(json_object_get(pl, "everyNode")));
	ck_assert_str_eq(str(pl, "selection"), "(feature.node.kubernetes.io/pci-10de.present=true) or "
					       "(nvidia.com/gpu.present=true)");
	ck_assert_ptr_null(strstr(str(find(r, "controlPlane", NULL), "message"), "they also run there"));
	json_decref(r);
	r = audit_file("csi-node-windows.yaml", NULL);
	pl = json_object_get(r, "placement");
	ck_assert_str_eq(str(pl, "toleratesAllTaints"), "all");
	ck_assert_str_eq(str(r, "ruleSetReason"), "its node selection matches only Windows nodes");
	/* tolerating the control-plane taint is not running there when the selection excludes those nodes */
	ck_assert_ptr_nonnull(strstr(str(find(r, "controlPlane", NULL), "message"), "excludes control-plane nodes"));
	ck_assert_ptr_nonnull(
		strstr(str(find(r, "toleratesAllTaints", NULL), "message"), "(kubernetes.io/os=windows)"));
	json_decref(r);
	r = audit_file("flannel.yaml", NULL);
	ck_assert_str_eq(str(json_object_get(r, "placement"), "toleratesAllTaints"), "NoSchedule");
	json_decref(r);

	static const struct {
		const char *spec, *os, *cp, *claim;
		int every;
	} cases[] = {
		/* s390x only: an architecture the audit cannot know */
		{"{\"nodeSelector\":{\"kubernetes.io/arch\":\"s390x\"},\"tolerations\":[{\"operator\":\"Exists\"}]}",
		 "any", "if-selected",
		 "only nodes that match kubernetes.io/arch=s390x, whatever their taints; control-plane nodes only if "
		 "they "
		 "match that selection",
		 0},
		/* an opt-in label, no tolerations */
		{"{\"nodeSelector\":{\"example.com/logging\":\"enabled\",\"kubernetes.io/os\":\"linux\"}}", "linux",
		 "no",
		 "only nodes that match example.com/logging=enabled, kubernetes.io/os=linux that have no NoSchedule or "
		 "NoExecute taint it does not tolerate, not control-plane nodes (it does not tolerate "
		 "node-role.kubernetes.io/control-plane:NoSchedule)",
		 0},
		/* Windows by required affinity; the os label's beta name counts too */
		{"{\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{"
		 "\"nodeSelectorTerms\":"
		 "[{\"matchExpressions\":[{\"key\":\"beta.kubernetes.io/"
		 "os\",\"operator\":\"In\",\"values\":[\"windows\"]}]}]}}}}",
		 "windows", "no",
		 "every Windows node that has no NoSchedule or NoExecute taint it does not tolerate, not control-plane "
		 "nodes (it does not tolerate node-role.kubernetes.io/control-plane:NoSchedule)",
		 1},
		/* workers only: the control-plane label excluded although its taint is tolerated */
		{"{\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{"
		 "\"nodeSelectorTerms\":"
		 "[{\"matchExpressions\":[{\"key\":\"node-role.kubernetes.io/"
		 "control-plane\",\"operator\":\"DoesNotExist\"}]}]"
		 "}}},\"tolerations\":[{\"key\":\"node-role.kubernetes.io/control-plane\",\"operator\":\"Exists\","
		 "\"effect\":\"NoSchedule\"}]}",
		 "any", "no",
		 "every node that has no NoSchedule or NoExecute taint it does not tolerate, not control-plane nodes "
		 "(its "
		 "node selection excludes them)",
		 1},
		/* control-plane only */
		{"{\"nodeSelector\":{\"node-role.kubernetes.io/control-plane\":\"\"},\"tolerations\":[{\"key\":"
		 "\"node-role.kubernetes.io/control-plane\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]}",
		 "none", "yes",
		 "only nodes that match node-role.kubernetes.io/control-plane= that have no NoSchedule or NoExecute "
		 "taint "
		 "it does not tolerate, including control-plane nodes",
		 0},
		/* nothing at all: every node, but not control-plane nodes */
		{"{}", "any", "no",
		 "every node that has no NoSchedule or NoExecute taint it does not tolerate, not control-plane nodes "
		 "(it "
		 "does not tolerate node-role.kubernetes.io/control-plane:NoSchedule)",
		 1},
		/* an empty term matches no node: with it alone, nothing */
		{"{\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{"
		 "\"nodeSelectorTerms\":"
		 "[{}]}}}}",
		 "none", "no", "no Linux or Windows node matches its node selection ((empty term))", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[2048];
		snprintf(text, sizeof(text),
			 "{\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"x\"},\"spec\":{\"template\":{\"spec\":%s}}}",
			 cases[i].spec);
		r = audit_text(text, NULL);
		pl = json_object_get(r, "placement");
		ck_assert_msg(strcmp(str(pl, "os"), cases[i].os) == 0, "case %zu: os %s", i, str(pl, "os"));
		ck_assert_msg(strcmp(str(pl, "controlPlane"), cases[i].cp) == 0, "case %zu: controlPlane %s", i,
			      str(pl, "controlPlane"));
		ck_assert_msg(strcmp(str(pl, "claim"), cases[i].claim) == 0, "case %zu: claim %s", i, str(pl, "claim"));
		ck_assert_int_eq(json_is_true(json_object_get(pl, "everyNode")), cases[i].every);
		json_decref(r);
	}
	/* not a DaemonSet: no placement */
	r = audit_text("{\"kind\":\"Deployment\",\"spec\":{\"template\":{\"spec\":{}}}}", NULL);
	ck_assert_ptr_null(json_object_get(r, "placement"));
	ck_assert_ptr_null(find(r, "controlPlane", NULL));
	json_decref(r);
}
END_TEST

/* Windows pods: the Linux-only findings are gone, whatever made the pod a Windows pod. */
START_TEST(windows_rules)
{
	static const char *const linux_only[] = {"seccompProfile",
						 "appArmorProfile",
						 "seLinuxOptions",
						 "capabilities",
						 "capabilitiesNotDropped",
						 "allowPrivilegeEscalation",
						 "readOnlyRootFilesystem",
						 "runAsNonRoot",
						 "runAsRoot",
						 "procMount",
						 "sysctls"};
	static const char *const specs[] = {
		"\"os\":{\"name\":\"windows\"}",
		"\"nodeSelector\":{\"kubernetes.io/os\":\"windows\"}",
		"\"securityContext\":{\"windowsOptions\":{\"hostProcess\":true}},\"hostNetwork\":true",
	};
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		char text[1024];
		snprintf(text, sizeof(text),
			 "{\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"w\"},\"spec\":{\"template\":{\"spec\":{%s,"
			 "\"containers\":[{\"name\":\"c\",\"image\":\"x:1\",\"securityContext\":{\"capabilities\":{"
			 "\"add\":"
			 "[\"NET_RAW\"]},\"runAsUser\":0,\"procMount\":\"Unmasked\"}}],\"volumes\":[{\"name\":\"p\","
			 "\"hostPath\":{\"path\":\"\\\\\\\\.\\\\pipe\\\\docker_engine\"}},{\"name\":\"s\",\"hostPath\":"
			 "{\"path\":"
			 "\"C:/Windows/System32\"}}]}}}}",
			 specs[i]);
		json_t *r = audit_text(text, NULL);
		ck_assert_str_eq(str(r, "ruleSet"), "windows");
		for (size_t k = 0; k < sizeof(linux_only) / sizeof(linux_only[0]); k++)
			ck_assert_msg(!find(r, linux_only[k], NULL), "case %zu: Linux-only finding %s", i,
				      linux_only[k]);
		/* the pipe is not mounted: low; the drive path rates as Windows' system directory */
		const json_t *pipe = find(r, "windowsNamedPipe", "spec.template.spec.volumes[0].hostPath.path");
		ck_assert_ptr_nonnull(pipe);
		ck_assert_str_eq(str(pipe, "severity"), "low");
		ck_assert_ptr_nonnull(strstr(str(pipe, "message"), "the Docker engine's named pipe"));
		const json_t *sys = find(r, "hostPath", "spec.template.spec.volumes[1].hostPath.path");
		ck_assert_ptr_nonnull(strstr(str(sys, "message"), "the Windows system directory"));
		ck_assert_ptr_nonnull(find(r, "windowsRunAsUserName", NULL));
		json_decref(r);
	}
	/* the same pod on Linux keeps the Linux findings */
	json_t *r =
		audit_text("{\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"l\"},\"spec\":{\"template\":{\"spec\":{"
			   "\"containers\":[{\"name\":\"c\",\"image\":\"x:1\",\"securityContext\":{\"capabilities\":{"
			   "\"add\":[\"NET_RAW\"]}}}]}}}}",
			   NULL);
	ck_assert_str_eq(str(r, "ruleSet"), "linux");
	ck_assert_ptr_nonnull(find(r, "capabilities", NULL));
	ck_assert_ptr_nonnull(find(r, "seccompProfile", NULL));
	ck_assert_ptr_null(find(r, "windowsRunAsUserName", NULL));
	json_decref(r);

	/* Windows host paths and pipes, rated */
	static const struct {
		const char *path;
		int writable, sev;
		const char *id, *what;
	} paths[] = {
		{"\\\\.\\pipe\\csi-proxy-disk-v1", 1, DSI_SEV_HIGH, "windowsNamedPipe", "csi-proxy's disk API"},
		{"\\\\.\\PIPE\\csi-proxy-volume-v1beta2", 0, DSI_SEV_HIGH, "windowsNamedPipe",
		 "csi-proxy's volume API"},
		{"\\\\.\\pipe\\csi-proxy-future-v9", 0, DSI_SEV_HIGH, "windowsNamedPipe", "a csi-proxy API"},
		{"\\\\.\\pipe\\containerd-containerd", 0, DSI_SEV_CRITICAL, "windowsNamedPipe",
		 "containerd's named pipe"},
		{"\\\\.\\pipe\\some-agent", 1, DSI_SEV_MEDIUM, "windowsNamedPipe", "a named pipe of a host service"},
		{"C:\\", 0, DSI_SEV_HIGH, "hostPath", "the host's system drive"},
		{"c:/var/lib/kubelet/pods", 1, DSI_SEV_CRITICAL, "hostPath", "the kubelet's state"},
		{"C:\\var", 1, DSI_SEV_CRITICAL, "hostPath", "a host directory, which includes C:\\var\\lib\\kubelet"},
		{"C:\\var\\log\\", 0, DSI_SEV_MEDIUM, "hostPath", "node and container logs"},
		{"D:\\data", 1, DSI_SEV_MEDIUM, "hostPath", "a host directory"},
		{"C:\\Program Files\\agent", 0, DSI_SEV_LOW, "hostPath", "host programs"},
	};
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		const char *what, *id, *fix;
		ck_assert(dsi_audit_windows_path(paths[i].path));
		int sev = dsi_audit_windows_path_rating(paths[i].path, paths[i].writable, &what, &id, &fix);
		ck_assert_msg(sev == paths[i].sev, "%s: %s", paths[i].path, dsi_severity_name(sev));
		ck_assert_str_eq(id, paths[i].id);
		ck_assert_msg(strncmp(what, paths[i].what, strlen(paths[i].what)) == 0, "%s: %s", paths[i].path, what);
	}
	ck_assert(!dsi_audit_windows_path("/var/lib/kubelet"));
	ck_assert(!dsi_audit_windows_path("C"));
}
END_TEST

/* Accounts: SYSTEM on the host is high, ContainerUser is fine, the service accounts of HostProcess are fine. */
START_TEST(windows_accounts)
{
	static const struct {
		const char *sc; /* the container's securityContext */
		int host_process;
		const char *sev; /* NULL: no finding */
	} cases[] = {
		{"{\"windowsOptions\":{\"runAsUserName\":\"ContainerUser\"}}", 0, NULL},
		{"{\"windowsOptions\":{\"runAsUserName\":\"ContainerAdministrator\"}}", 0, "medium"},
		{"{\"windowsOptions\":{\"runAsUserName\":\"NT AUTHORITY\\\\SYSTEM\"}}", 0, "medium"},
		{"{\"windowsOptions\":{\"runAsUserName\":\"NT AUTHORITY\\\\SYSTEM\"}}", 1, "high"},
		{"{\"windowsOptions\":{\"runAsUserName\":\"NT AUTHORITY\\\\Local service\"}}", 1, NULL},
		{"{\"windowsOptions\":{\"runAsUserName\":\"NT AUTHORITY\\\\NetworkService\"}}", 1, NULL},
		{"{\"windowsOptions\":{\"runAsUserName\":\"agent-group\"}}", 1, "low"},
		{"{}", 0, "low"},
		{"{}", 1, "medium"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[1024];
		snprintf(text, sizeof(text),
			 "{\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"w\"},\"spec\":{\"template\":{\"spec\":{"
			 "\"os\":{\"name\":\"windows\"},%s\"containers\":[{\"name\":\"c\",\"image\":\"x:1\","
			 "\"securityContext\":%s}]}}}}",
			 cases[i].host_process
				 ? "\"hostNetwork\":true,\"securityContext\":{\"windowsOptions\":{\"hostProcess\":"
				   "true}},"
				 : "",
			 cases[i].sc);
		json_t *r = audit_text(text, NULL);
		const json_t *f = find(r, "windowsRunAsUserName",
				       "spec.template.spec.containers[0].securityContext.windowsOptions.runAsUserName");
		if (!cases[i].sev)
			ck_assert_msg(!f, "case %zu: unexpected %s", i, f ? str(f, "message") : "");
		else
			ck_assert_msg(f && strcmp(str(f, "severity"), cases[i].sev) == 0, "case %zu: %s", i,
				      f ? str(f, "severity") : "no finding");
		json_decref(r);
	}
}
END_TEST

/* With a snapshot: how many nodes, how many of them control-plane nodes. */
static ds_cluster *forty_nodes(void)
{
	size_t size = 64 * 1024;
	char *text = calloc(1, size);
	for (int i = 0; i < 40; i++) {
		char node[768];
		if (i < 3)
			snprintf(node, sizeof(node),
				 "---\nkind: Node\napiVersion: v1\nmetadata:\n  name: cp-%d\n  labels:\n"
				 "    kubernetes.io/os: linux\n    node-role.kubernetes.io/control-plane: \"\"\n"
				 "spec:\n  taints:\n  - key: node-role.kubernetes.io/control-plane\n    effect: "
				 "NoSchedule\n",
				 i);
		else if (i < 6)
			snprintf(node, sizeof(node),
				 "---\nkind: Node\napiVersion: v1\nmetadata:\n  name: gpu-%d\n  labels:\n"
				 "    kubernetes.io/os: linux\n    nvidia.com/gpu.present: \"true\"\n"
				 "spec:\n  taints:\n  - key: nvidia.com/gpu\n    effect: NoSchedule\n",
				 i);
		else if (i < 8)
			snprintf(node, sizeof(node),
				 "---\nkind: Node\napiVersion: v1\nmetadata:\n  name: win-%d\n  labels:\n"
				 "    kubernetes.io/os: windows\n",
				 i);
		else
			snprintf(node, sizeof(node),
				 "---\nkind: Node\napiVersion: v1\nmetadata:\n  name: worker-%02d\n  labels:\n"
				 "    kubernetes.io/os: linux\n",
				 i);
		strcat(text, node);
	}
	static const char *const files[] = {"nvidia-device-plugin.yaml", "node-exporter.yaml", "csi-node-windows.yaml",
					    "flannel.yaml", "fluent-bit.yaml"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[256];
		snprintf(path, sizeof(path), CORPUS "%s", files[i]);
		char *ds = dsi_test_read_file(path, NULL);
		ck_assert(strlen(text) + strlen(ds) + 8 < size);
		strcat(text, "---\n");
		strcat(text, ds);
		free(ds);
	}
	ds_cluster *c = dsi_test_cluster_text(text);
	free(text);
	return c;
}

START_TEST(snapshot_counts)
{
	ds_cluster *c = forty_nodes();
	static const struct {
		const char *ns, *name, *summary;
		long run, cp_run;
	} cases[] = {
		{"kube-system", "nvidia-device-plugin-daemonset",
		 "runs on 3 of 40 nodes, including 0 control-plane nodes", 3, 0},
		{"monitoring", "node-exporter", "runs on 38 of 40 nodes, including 3 control-plane nodes", 38, 3},
		{"kube-system", "ebs-csi-node-windows", "runs on 2 of 40 nodes, including 0 control-plane nodes", 2, 0},
		/* tolerates every NoSchedule taint, so the GPU nodes too */
		{"kube-flannel", "kube-flannel-ds", "runs on 38 of 40 nodes, including 3 control-plane nodes", 38, 3},
		{"logging", "fluent-bit", "runs on 40 of 40 nodes, including 3 control-plane nodes", 40, 3},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out;
		ds_error err;
		int rc = ds_daemonset_audit(c, cases[i].ns, cases[i].name, NULL, &out, &err);
		ck_assert_msg(rc == 0, "%s: %s: %s", cases[i].name, err.path, err.message);
		json_t *r = dsi_test_take_json(out);
		const json_t *pl = json_object_get(r, "placement"), *nodes = json_object_get(pl, "nodes");
		ck_assert_str_eq(str(pl, "summary"), cases[i].summary);
		ck_assert_int_eq(json_integer_value(json_object_get(nodes, "total")), 40);
		ck_assert_int_eq(json_integer_value(json_object_get(nodes, "shouldRun")), cases[i].run);
		ck_assert_int_eq(json_integer_value(json_object_get(nodes, "controlPlane")), 3);
		ck_assert_int_eq(json_integer_value(json_object_get(nodes, "controlPlaneShouldRun")), cases[i].cp_run);
		/* the rest of the report is ds_audit's */
		ck_assert_ptr_nonnull(json_object_get(r, "findings"));
		ck_assert_ptr_nonnull(json_object_get(pl, "claim"));
		json_decref(r);
	}
	char *out = (char *)1;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_audit(c, "kube-system", "missing", NULL, &out, &err), DS_ENOTFOUND);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(ds_daemonset_audit(c, "kube-system", "missing", NULL, NULL, &err), DS_EARG);
	ds_cluster_free(c);
}
END_TEST

/* The ignore annotation and the auditIgnore option: findings stay, marked, and leave the counts and score. */
START_TEST(suppression)
{
	json_t *r = audit_file("fluent-bit.yaml", NULL);
	const json_t *f = find(r, "serviceAccountToken", NULL);
	ck_assert(json_is_true(json_object_get(f, "suppressed")));
	ck_assert_str_eq(str(f, "suppressedBy"), "annotation");
	ck_assert_int_eq(summary(r, "suppressed"), 2);
	ck_assert_int_eq(summary(r, "total"), (long)json_array_size(json_object_get(r, "findings")) - 2);
	ck_assert_int_eq(summary(r, "medium"), 6); /* seven medium findings, one suppressed */
	long score = summary(r, "score");
	json_decref(r);

	ds_options *o = dsi_test_options("{\"auditIgnore\":\"imageTag, memoryLimit\"}");
	r = audit_file("fluent-bit.yaml", o);
	f = find(r, "imageTag", NULL);
	ck_assert_str_eq(str(f, "suppressedBy"), "option");
	ck_assert_int_eq(summary(r, "suppressed"), 4);
	ck_assert_int_eq(summary(r, "medium"), 4);
	/* medium findings cost 6 + 2 each up to 15: six of them were at the cap, four cost 12 */
	ck_assert_int_eq(summary(r, "score"), score + 3);
	json_decref(r);
	ds_options_free(o);

	/* unknown ids in the annotation are reported, not ignored */
	r = audit_text(
		"{\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"x\",\"annotations\":{"
		"\"audit.libdaemonset.io/ignore\":\"hostNetwork,hostNetwrok\"}},\"spec\":{\"template\":{\"spec\":{"
		"\"hostNetwork\":true}}}}",
		NULL);
	ck_assert(json_is_true(json_object_get(find(r, "hostNetwork", NULL), "suppressed")));
	f = find(r, "auditIgnore", "metadata.annotations[\"audit.libdaemonset.io/ignore\"]");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(strstr(str(f, "message"), "\"hostNetwrok\""));
	json_decref(r);

	/* the option refuses an unknown id */
	ds_options *bad;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&bad), 0);
	ck_assert_int_eq(ds_options_set(bad, "auditIgnore", "hostNetwrok", &err), DS_EVALUE);
	ck_assert_str_eq(err.path, "auditIgnore");
	ck_assert_int_eq(ds_options_set(bad, "auditFailOn", "severe", &err), DS_EVALUE);
	ds_options_free(bad);
}
END_TEST

START_TEST(fail_on)
{
	static const struct {
		const char *level;
		int failed;
	} cases[] = {{"critical", 0}, {"high", 1}, {"medium", 1}, {"info", 1}, {"none", 0}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char opts[64];
		snprintf(opts, sizeof(opts), "{\"auditFailOn\":\"%s\"}", cases[i].level);
		ds_options *o = dsi_test_options(opts);
		/* fluent-bit: high findings, no critical one */
		json_t *r = audit_file("fluent-bit.yaml", o);
		ck_assert_str_eq(str(r, "failOn"), cases[i].level);
		ck_assert_msg(json_is_true(json_object_get(r, "failed")) == cases[i].failed, "failOn %s",
			      cases[i].level);
		json_decref(r);
		ds_options_free(o);
	}
	/* a suppressed finding does not fail: the only high finding of this pod, ignored */
	ds_options *o = dsi_test_options("{\"auditFailOn\":\"high\"}");
	const char *text = "{\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"x\",\"annotations\":{"
			   "\"audit.libdaemonset.io/ignore\":\"hostNetwork\"}},\"spec\":{\"template\":{\"spec\":{"
			   "\"hostNetwork\":true}}}}";
	json_t *r = audit_text(text, o);
	ck_assert(json_is_false(json_object_get(r, "failed")));
	ck_assert_int_eq(summary(r, "high"), 0);
	json_decref(r);
	ds_options_free(o);
}
END_TEST

/* The hook for strict field validation: unknown fields become findings. */
START_TEST(unknown_fields)
{
	json_t *obj =
		json_loads("{\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"x\"},\"spec\":{\"template\":{\"spec\":"
			   "{\"containers\":[{\"name\":\"c\",\"imagePullPolicy\":\"Always\",\"imagePulPolicy\":1}]}}}}",
			   0, NULL);
	ck_assert_ptr_nonnull(obj);
	const dsi_audit_field unknown[] = {{"spec.template.spec.containers[0].imagePulPolicy", "imagePullPolicy"}};
	const dsi_audit_input in = {.obj = obj, .unknown_fields = unknown, .n_unknown_fields = 1};
	dsi_core_options core = *dsi_core_options_default();
	const dsi_ops_cfg cfg = {&core, dsi_ops_options_default(), dsi_pss_options_default()};
	json_t *r;
	ds_error err;
	ck_assert_int_eq(dsi_audit_report(&in, &cfg, &r, &err), 0);
	const json_t *f = find(r, "unknownField", "spec.template.spec.containers[0].imagePulPolicy");
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(str(f, "severity"), "medium");
	ck_assert_ptr_nonnull(strstr(str(f, "message"), "(did you mean imagePullPolicy?)"));
	json_decref(r);
	json_decref(obj);
}
END_TEST

/* The line of a path in YAML text. */
START_TEST(locate_lines)
{
	static const char yaml[] = "# comment\n"
				   "apiVersion: apps/v1\n"                   /* 2 */
				   "kind: DaemonSet\n"                       /* 3 */
				   "spec:\n"                                 /* 4 */
				   "  template:\n"                           /* 5 */
				   "    spec:\n"                             /* 6 */
				   "      containers:\n"                     /* 7 */
				   "      - name: a\n"                       /* 8 */
				   "        image: a:1\n"                    /* 9 */
				   "      -   name: b\n"                     /* 10 */
				   "\n"                                      /* 11 */
				   "          \"image\": b:1\n"              /* 12 */
				   "          ports: [{containerPort: 1}]\n" /* 13 */
				   "      volumes:\n"                        /* 14 */
				   "        - name: v\n"                     /* 15 */
				   "          hostPath:\n"                   /* 16 */
				   "            path: /x\n"                  /* 17 */
				   "  selector: {}\n";                       /* 18 */
	static const struct {
		const char *path;
		int line;
	} cases[] = {
		{"kind", 3},
		{"spec.template.spec.containers[0].image", 9},
		{"spec.template.spec.containers[1]", 10},
		{"spec.template.spec.containers[1].name", 10},
		{"spec.template.spec.containers[1].image", 12},
		{"spec.template.spec.containers[1].ports[0].containerPort", 13}, /* flow: the key's line */
		{"spec.template.spec.containers[2].image", 7},                   /* no such item: the list */
		{"spec.template.spec.volumes[0].hostPath.path", 17},
		{"spec.template.spec.securityContext.runAsUser", 6}, /* missing: the parent */
		{"spec.selector", 18},
		{"metadata.name", 2}, /* missing: the document itself */
		{"spec[\"template\"].spec.volumes[0].name", 15},
	};
	/* dsi_yaml_locate, the one locator of the library (core/yaml.c), as the audit asks it */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int line = 0, column;
		ck_assert_msg(dsi_yaml_locate(yaml, sizeof(yaml) - 1, 0, cases[i].path, &line, &column) >= 0 &&
				      line == cases[i].line,
			      "%s: %d", cases[i].path, line);
	}
	/* JSON text is YAML to the locator: its lines too */
	static const char json[] = "{\n  \"kind\": \"DaemonSet\"\n}\n";
	int line = 0, column;
	ck_assert_int_eq(dsi_yaml_locate(json, sizeof(json) - 1, 0, "kind", &line, &column), 0);
	ck_assert_int_eq(line, 2);
	ck_assert_int_eq(dsi_yaml_locate(yaml, sizeof(yaml) - 1, 0, "spec[\"bad", &line, &column), -1);
	ck_assert_int_eq(dsi_yaml_locate("", 0, 0, "kind", &line, &column), -1);
	/* ds_object_audit of JSON text on one line: every finding on line 1 */
	json_t *r = audit_text("{\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"x\"},\"spec\":{\"template\":{\"spec\":"
			       "{\"hostNetwork\":true}}}}",
			       NULL);
	ck_assert_int_eq(json_integer_value(json_object_get(find(r, "hostNetwork", NULL), "line")), 1);
	json_decref(r);
}
END_TEST

static json_t *sarif_of(json_t *reports)
{
	char *text = json_dumps(reports, 0), *out;
	ds_error err;
	int rc = ds_audit_sarif(text, strlen(text), NULL, &out, &err);
	free(text);
	ck_assert_msg(rc == 0, "ds_audit_sarif: %s: %s", err.path, err.message);
	return dsi_test_take_json(out);
}

START_TEST(sarif)
{
	json_t *reports = json_array();
	static const char *const files[] = {"csi-node-windows.yaml", "fluent-bit.yaml"};
	size_t total = 0;
	for (size_t i = 0; i < 2; i++) {
		json_t *r = audit_file(files[i], NULL);
		char file[128];
		snprintf(file, sizeof(file), "manifests/%s", files[i]);
		json_object_set_new(r, "file", json_string(file));
		total += json_array_size(json_object_get(r, "findings"));
		json_array_append_new(reports, r);
	}
	json_t *log = sarif_of(reports);
	ck_assert_str_eq(str(log, "version"), "2.1.0");
	const json_t *run = json_array_get(json_object_get(log, "runs"), 0);
	const json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
	ck_assert_str_eq(str(driver, "name"), "libdaemonset audit");
	const json_t *rules = json_object_get(driver, "rules"), *results = json_object_get(run, "results");
	ck_assert_uint_eq(json_array_size(results), total);
	/* each result names its rule by id and index, its file and line, and its object and field */
	size_t i;
	json_t *res;
	int suppressed = 0;
	json_array_foreach(results, i, res)
	{
		const json_t *rule =
			json_array_get(rules, (size_t)json_integer_value(json_object_get(res, "ruleIndex")));
		ck_assert_str_eq(str(rule, "id"), str(res, "ruleId"));
		const json_t *loc = json_array_get(json_object_get(res, "locations"), 0);
		const json_t *phys = json_object_get(loc, "physicalLocation");
		ck_assert_ptr_nonnull(strstr(str(json_object_get(phys, "artifactLocation"), "uri"), "manifests/"));
		ck_assert_int_gt(json_integer_value(json_object_get(json_object_get(phys, "region"), "startLine")), 0);
		const json_t *logical = json_array_get(json_object_get(loc, "logicalLocations"), 0);
		ck_assert_ptr_nonnull(strstr(str(logical, "fullyQualifiedName"), "DaemonSet/"));
		suppressed += json_array_size(json_object_get(res, "suppressions")) == 1;
	}
	ck_assert_int_eq(suppressed, 2); /* fluent-bit's annotation */
	/* the levels: critical and high are errors, medium warnings, the rest notes */
	res = json_array_get(results, 0);
	ck_assert_str_eq(str(res, "ruleId"), "hostPath");
	ck_assert_str_eq(str(res, "level"), "error");
	ck_assert_str_eq(str(json_object_get(json_object_get(json_array_get(json_object_get(res, "locations"), 0),
							     "physicalLocation"),
					     "artifactLocation"),
			     "uri"),
			 "manifests/csi-node-windows.yaml");
	json_decref(log);
	/* one report alone, without a file: logical locations only */
	json_t *alone = json_deep_copy(json_array_get(reports, 1));
	json_object_del(alone, "file");
	log = sarif_of(alone);
	json_decref(alone);
	res = json_array_get(json_object_get(json_array_get(json_object_get(log, "runs"), 0), "results"), 0);
	ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(res, "locations"), 0), "physicalLocation"));
	json_decref(log);
	json_decref(reports);
	/* a file name becomes a URI reference */
	json_t *one = json_pack("{s:s, s:[{s:s, s:s, s:s, s:s}]}", "file", "my dir\\ds #1.yaml", "findings", "id",
				"hostPath", "severity", "low", "path", "spec", "message", "m");
	log = sarif_of(one);
	json_decref(one);
	res = json_array_get(json_object_get(json_array_get(json_object_get(log, "runs"), 0), "results"), 0);
	ck_assert_str_eq(str(json_object_get(json_object_get(json_array_get(json_object_get(res, "locations"), 0),
							     "physicalLocation"),
					     "artifactLocation"),
			     "uri"),
			 "my%20dir/ds%20%231.yaml");
	json_decref(log);
}
END_TEST

START_TEST(bad_inputs)
{
	static const struct {
		const char *text;
		int code;
		const char *path;
	} cases[] = {
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":{\"a\":1}}}}}", DS_ETYPE,
		 "spec.template.spec.nodeSelector.a"},
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"template\":{\"spec\":{\"affinity\":{\"nodeAffinity\":{"
		 "\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":[{"
		 "\"key\":\"k\",\"operator\":\"In\",\"values\":[1]}]}]}}}}}}}",
		 DS_ETYPE,
		 "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
		 "nodeSelectorTerms[0].matchExpressions[0].values[0]"},
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"template\":{\"spec\":{\"affinity\":{\"nodeAffinity\":{"
		 "\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[3]}}}}}}}",
		 DS_ETYPE,
		 "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
		 "nodeSelectorTerms[0]"},
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"template\":{\"spec\":{\"os\":{\"name\":\"windows\"},"
		 "\"containers\":[{"
		 "\"name\":\"c\",\"securityContext\":{\"windowsOptions\":{\"runAsUserName\":5}}}]}}}}",
		 DS_ETYPE, "spec.template.spec.containers[0].securityContext.windowsOptions.runAsUserName"},
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\","
		 "\"resources\":{"
		 "\"limits\":[]}}]}}}}",
		 DS_ETYPE, "spec.template.spec.containers[0].resources.limits"},
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":"
		 "7}]}}}}",
		 DS_ETYPE, "spec.template.spec.containers[0].image"},
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"template\":{\"spec\":{\"terminationGracePeriodSeconds\":\"30\"}}}"
		 "}",
		 DS_ETYPE, "spec.template.spec.terminationGracePeriodSeconds"},
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"updateStrategy\":{\"type\":1},\"template\":{\"spec\":{}}}}",
		 DS_ETYPE, "spec.updateStrategy.type"},
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"minReadySeconds\":\"5\",\"template\":{\"spec\":{}}}}", DS_ETYPE,
		 "spec.minReadySeconds"},
		{"{\"kind\":\"DaemonSet\",\"metadata\":{\"annotations\":{\"audit.libdaemonset.io/"
		 "ignore\":[]}},\"spec\":{"
		 "\"template\":{\"spec\":{}}}}",
		 DS_ETYPE, "metadata.annotations[\"audit.libdaemonset.io/ignore\"]"},
		{"{\"kind\":\"DaemonSet\",\"metadata\":{\"annotations\":7},\"spec\":{\"template\":{\"spec\":{}}}}",
		 DS_ETYPE, "metadata.annotations"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = (char *)1;
		ds_error err;
		int rc = ds_audit(cases[i].text, strlen(cases[i].text), NULL, &out, &err);
		ck_assert_msg(rc == cases[i].code, "case %zu: %s (%s: %s)", i, ds_strerror(rc), err.path, err.message);
		ck_assert_str_eq(err.path, cases[i].path);
		ck_assert_ptr_null(out);
	}
	/* odd but legal values are no error */
	static const char *const odd[] = {
		"{\"kind\":\"DaemonSet\",\"spec\":{\"updateStrategy\":{\"rollingUpdate\":{\"maxSurge\":\"x%\","
		"\"maxUnavailable\":[]}},\"template\":{\"spec\":{\"affinity\":{\"nodeAffinity\":{"
		"\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":[{"
		"\"key\":\"kubernetes.io/"
		"os\",\"operator\":\"Gt\",\"values\":[\"1\"]},{\"key\":\"x\",\"operator\":\"Bogus\"}]}]"
		"}}},\"containers\":[{\"name\":\"c\",\"image\":\"@\"},{\"name\":\"d\",\"image\":\"\"},"
		"{\"name\":\"e\",\"image\":\"r:5000/i\"}]}}}}",
		"{\"kind\":\"DaemonSet\",\"spec\":{\"template\":{\"spec\":{\"volumes\":[{\"name\":\"v\",\"hostPath\":{"
		"\"path\":\"\\\\\\\\\"}},{\"name\":\"w\",\"hostPath\":{\"path\":\"C:\"}}]}}}}",
	};
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		json_decref(audit_text(odd[i], NULL));

	/* SARIF input */
	static const struct {
		const char *text;
		int code;
		const char *path;
	} sarif_cases[] = {
		{"3", DS_ETYPE, ""},
		{"[{\"kind\":\"DaemonSet\"}]", DS_EMISSING, "[0].findings"},
		{"[{\"findings\":[]},{\"findings\":{}}]", DS_ETYPE, "[1].findings"},
		{"{\"findings\":[{\"id\":\"x\",\"severity\":\"severe\",\"path\":\"p\",\"message\":\"m\"}]}", DS_EVALUE,
		 "findings[0].severity"},
		{"{\"findings\":[{\"id\":\"x\",\"severity\":\"low\",\"message\":\"m\"}]}", DS_ETYPE,
		 "findings[0].path"},
		{"{\"file\":1,\"findings\":[]}", DS_ETYPE, "file"},
		{"{\"findings\":[{\"id\":\"x\",\"severity\":\"low\",\"path\":\"p\",\"message\":\"m\",\"line\":\"1\"}]}",
		 DS_ETYPE, "findings[0].line"},
		{"[1, 2", DS_ESYNTAX, NULL},
	};
	for (size_t i = 0; i < sizeof(sarif_cases) / sizeof(sarif_cases[0]); i++) {
		char *out = (char *)1;
		ds_error err;
		int rc = ds_audit_sarif(sarif_cases[i].text, strlen(sarif_cases[i].text), NULL, &out, &err);
		ck_assert_msg(rc == sarif_cases[i].code, "sarif case %zu: %s (%s: %s)", i, ds_strerror(rc), err.path,
			      err.message);
		if (sarif_cases[i].path)
			ck_assert_str_eq(err.path, sarif_cases[i].path);
		ck_assert_ptr_null(out);
	}
	char *out;
	ck_assert_int_eq(ds_audit_sarif(NULL, 0, NULL, &out, NULL), DS_EARG);
	ck_assert_int_eq(ds_audit_sarif("{}", 2, NULL, NULL, NULL), DS_EARG);
	/* an empty list of reports is a valid, empty log */
	json_t *none = json_array(), *log = sarif_of(none);
	json_decref(none);
	ck_assert_uint_eq(json_array_size(json_object_get(json_array_get(json_object_get(log, "runs"), 0), "results")),
			  0);
	json_decref(log);
}
END_TEST

static Suite *audit_corpus_suite(void)
{
	Suite *s = suite_create("audit_corpus");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, corpus_findings, 0, (int)(sizeof(corpus) / sizeof(corpus[0])));
	tcase_add_test(tc, placement_claims);
	tcase_add_test(tc, windows_rules);
	tcase_add_test(tc, windows_accounts);
	tcase_add_test(tc, snapshot_counts);
	tcase_add_test(tc, suppression);
	tcase_add_test(tc, fail_on);
	tcase_add_test(tc, unknown_fields);
	tcase_add_test(tc, locate_lines);
	tcase_add_test(tc, sarif);
	tcase_add_test(tc, bad_inputs);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(audit_corpus_suite)
