/* The best-practice checks (lib/ops/audit_practice.c), each with a passing and a failing fixture: a DaemonSet
 * that passes every check, and edits that make one check pass in another way or fail. */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* Passes every check of the audit: only the controlPlane note remains. */
static const char clean[] =
	"{\"apiVersion\":\"apps/"
	"v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"agent\",\"namespace\":\"kube-system\"},"
	"\"spec\":{\"minReadySeconds\":10,\"selector\":{\"matchLabels\":{\"app\":\"agent\"}},"
	"\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1}},"
	"\"template\":{\"metadata\":{\"labels\":{\"app\":\"agent\"}},\"spec\":{"
	"\"priorityClassName\":\"system-node-critical\",\"automountServiceAccountToken\":false,"
	"\"securityContext\":{\"runAsNonRoot\":true,\"runAsUser\":65534,\"seccompProfile\":{\"type\":"
	"\"RuntimeDefault\"},"
	"\"appArmorProfile\":{\"type\":\"RuntimeDefault\"},\"seLinuxOptions\":{\"type\":\"container_t\"}},"
	"\"containers\":[{\"name\":\"agent\",\"image\":\"registry.example.com/agent:1.2.3\","
	"\"imagePullPolicy\":\"IfNotPresent\","
	"\"resources\":{\"requests\":{\"cpu\":\"10m\",\"memory\":\"32Mi\"},\"limits\":{\"cpu\":\"100m\",\"memory\":"
	"\"64Mi\"}},"
	"\"livenessProbe\":{\"httpGet\":{\"path\":\"/healthz\",\"port\":8080}},"
	"\"readinessProbe\":{\"httpGet\":{\"path\":\"/ready\",\"port\":8080}},"
	"\"ports\":[{\"containerPort\":8080}],"
	"\"securityContext\":{\"allowPrivilegeEscalation\":false,\"readOnlyRootFilesystem\":true,"
	"\"capabilities\":{\"drop\":[\"ALL\"]}}}]}}}}";

/* Apply "a.b.0.c=<json>" edits separated by ';' (a value "-" deletes the member). */
static void edit(json_t *root, const char *edits)
{
	char *copy = strdup(edits), *save = NULL;
	for (char *e = strtok_r(copy, ";", &save); e; e = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(e, '=');
		ck_assert_msg(eq != NULL, "edit %s", e);
		*eq = '\0';
		json_t *cur = root;
		char *last = NULL, *s2 = NULL;
		for (char *k = strtok_r(e, ".", &s2); k; k = strtok_r(NULL, ".", &s2)) {
			if (last) {
				json_t *next = json_is_array(cur) ? json_array_get(cur, strtoul(last, NULL, 10))
								  : json_object_get(cur, last);
				if (!next) {
					next = json_object();
					json_object_set_new(cur, last, next);
				}
				cur = next;
			}
			last = k;
		}
		if (strcmp(eq + 1, "-") == 0) {
			json_object_del(cur, last);
			continue;
		}
		json_error_t jerr;
		json_t *v = json_loads(eq + 1, JSON_DECODE_ANY, &jerr);
		ck_assert_msg(v != NULL, "edit value %s: %s", eq + 1, jerr.text);
		if (json_is_array(cur))
			json_array_set_new(cur, strtoul(last, NULL, 10), v);
		else
			json_object_set_new(cur, last, v);
	}
	free(copy);
}

static json_t *audit_edited(const char *edits)
{
	json_t *obj = json_loads(clean, 0, NULL);
	ck_assert_ptr_nonnull(obj);
	if (edits)
		edit(obj, edits);
	char *text = json_dumps(obj, 0), *out;
	json_decref(obj);
	ds_error err;
	int rc = ds_audit(text, strlen(text), NULL, &out, &err);
	ck_assert_msg(rc == 0, "ds_audit: %s: %s", err.path, err.message);
	free(text);
	return dsi_test_take_json(out);
}

static const json_t *find(const json_t *r, const char *id, const char *path)
{
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(r, "findings"), i,
			   f) if (strcmp(json_string_value(json_object_get(f, "id")), id) == 0 &&
				  (!path || strcmp(json_string_value(json_object_get(f, "path")), path) == 0)) return f;
	return NULL;
}

START_TEST(clean_daemonset)
{
	json_t *r = audit_edited(NULL);
	json_t *fs = json_object_get(r, "findings");
	ck_assert_msg(json_array_size(fs) == 1, "%zu findings, the first %s", json_array_size(fs),
		      json_string_value(json_object_get(json_array_get(fs, 0), "id")));
	ck_assert_ptr_nonnull(find(r, "controlPlane", "spec.template.spec.tolerations"));
	ck_assert_str_eq(json_string_value(json_object_get(r, "level")), "restricted");
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(r, "summary"), "score")), 100);
	json_decref(r);
}
END_TEST

#define C0 "spec.template.spec.containers.0."
#define P0 "spec.template.spec.containers[0]."

static const struct check_case {
	const char *id;
	const char *pass; /* edits after which id is not reported */
	const char *fail; /* edits after which id is reported at path with severity */
	const char *severity, *path;
} cases[] = {
	/* a limit stands for a missing request (the API server defaults it) */
	{"resourceRequests", C0 "resources.requests=-",
	 C0 "resources.requests.memory=-;" C0 "resources.limits.memory=-", "medium", P0 "resources.requests"},
	{"resourceRequests", C0 "resources.requests.cpu=-", C0 "resources=-", "medium", P0 "resources.requests"},
	{"memoryLimit", C0 "resources.limits.cpu=-", C0 "resources.limits.memory=-", "medium",
	 P0 "resources.limits.memory"},
	{"cpuLimit", C0 "resources.limits.memory=-", C0 "resources.limits.cpu=-", "info", P0 "resources.limits.cpu"},
	/* plain init containers need no probes; sidecars (restartPolicy Always) do */
	{"livenessProbe",
	 "spec.template.spec.initContainers=[{\"name\":\"init\",\"image\":\"i:1\",\"resources\":{\"limits\":{\"cpu\":1,"
	 "\"memory\":1}}}]",
	 C0 "livenessProbe=-", "low", P0 "livenessProbe"},
	{"livenessProbe", NULL,
	 "spec.template.spec.initContainers=[{\"name\":\"sidecar\",\"image\":\"s:1\",\"restartPolicy\":\"Always\"}]",
	 "low", "spec.template.spec.initContainers[0].livenessProbe"},
	{"readinessProbe", C0 "readinessProbe={\"exec\":{\"command\":[\"true\"]}}", C0 "readinessProbe=-", "low",
	 P0 "readinessProbe"},
	{"imageTag", C0 "image=\"registry.example.com:5000/agent@sha256:0123\"",
	 C0 "image=\"registry.example.com/agent\"", "medium", P0 "image"},
	{"imageTag", C0 "image=\"registry.example.com:5000/agent:1.0\"", C0 "image=\"agent:latest\"", "medium",
	 P0 "image"},
	/* a floating tag pulled Always gets every node the same image; IfNotPresent keeps the first */
	{"imagePullPolicy", C0 "image=\"agent:latest\";" C0 "imagePullPolicy=\"Always\"",
	 C0 "image=\"agent:latest\";" C0 "imagePullPolicy=\"IfNotPresent\"", "low", P0 "imagePullPolicy"},
	{"imagePullPolicy", C0 "image=\"agent:2\";" C0 "imagePullPolicy=\"Never\"",
	 C0 "image=\"agent\";" C0 "imagePullPolicy=\"Never\"", "low", P0 "imagePullPolicy"},
	{"priorityClassName", "spec.template.spec.priorityClassName=\"node-agents\"",
	 "spec.template.spec.priorityClassName=-", "medium", "spec.template.spec.priorityClassName"},
	/* a Deployment is not a node agent */
	{"priorityClassName", "kind=\"Deployment\";spec.template.spec.priorityClassName=-",
	 "spec.template.spec.priorityClassName=\"\"", "medium", "spec.template.spec.priorityClassName"},
	{"updateStrategy", "spec.updateStrategy.rollingUpdate.maxUnavailable=\"10%\"",
	 "spec.updateStrategy={\"type\":\"OnDelete\"}", "low", "spec.updateStrategy.type"},
	{"updateStrategy", "spec.updateStrategy.rollingUpdate.maxUnavailable=\"49%\"",
	 "spec.updateStrategy.rollingUpdate.maxUnavailable=\"100%\"", "medium",
	 "spec.updateStrategy.rollingUpdate.maxUnavailable"},
	{"updateStrategy", "spec.updateStrategy.rollingUpdate={\"maxSurge\":\"25%\",\"maxUnavailable\":0}",
	 "spec.updateStrategy.rollingUpdate={\"maxSurge\":\"50%\",\"maxUnavailable\":0}", "low",
	 "spec.updateStrategy.rollingUpdate.maxSurge"},
	/* surge with host ports stalls: the new pod cannot share the old one's ports */
	{"updateStrategy",
	 "spec.updateStrategy.rollingUpdate={\"maxSurge\":0,\"maxUnavailable\":1};" C0 "ports.0.hostPort=8080",
	 "spec.updateStrategy.rollingUpdate={\"maxSurge\":1,\"maxUnavailable\":0};" C0 "ports.0.hostPort=8080",
	 "medium", "spec.updateStrategy.rollingUpdate.maxSurge"},
	{"updateStrategy", "spec.updateStrategy.rollingUpdate={\"maxSurge\":1,\"maxUnavailable\":0}",
	 "spec.updateStrategy.rollingUpdate={\"maxSurge\":\"10%\",\"maxUnavailable\":0};spec.template.spec.hostNetwork="
	 "true;"
	 "spec.template.spec.dnsPolicy=\"ClusterFirstWithHostNet\"",
	 "medium", "spec.updateStrategy.rollingUpdate.maxSurge"},
	{"terminationGracePeriodSeconds", "spec.template.spec.terminationGracePeriodSeconds=30",
	 "spec.template.spec.terminationGracePeriodSeconds=0", "medium",
	 "spec.template.spec.terminationGracePeriodSeconds"},
	{"terminationGracePeriodSeconds", "spec.template.spec.terminationGracePeriodSeconds=600",
	 "spec.template.spec.terminationGracePeriodSeconds=3600", "low",
	 "spec.template.spec.terminationGracePeriodSeconds"},
	{"dnsPolicy", "spec.template.spec.hostNetwork=true;spec.template.spec.dnsPolicy=\"ClusterFirstWithHostNet\"",
	 "spec.template.spec.hostNetwork=true", "low", "spec.template.spec.dnsPolicy"},
	{"dnsPolicy", "spec.template.spec.hostNetwork=true;spec.template.spec.dnsPolicy=\"Default\"",
	 "spec.template.spec.hostNetwork=true;spec.template.spec.dnsPolicy=\"ClusterFirst\"", "low",
	 "spec.template.spec.dnsPolicy"},
	{"minReadySeconds", "spec.minReadySeconds=1", "spec.minReadySeconds=-", "low", "spec.minReadySeconds"},
	{"minReadySeconds", NULL, "spec.minReadySeconds=0", "low", "spec.minReadySeconds"},
	{"hostPort", NULL, C0 "ports.0.hostPort=8080", "medium", P0 "ports[0].hostPort"},
	{"serviceAccountToken", NULL, "spec.template.spec.automountServiceAccountToken=-", "low",
	 "spec.template.spec.automountServiceAccountToken"},
	{"serviceAccountToken", NULL,
	 "spec.template.spec.automountServiceAccountToken=true;spec.template.spec.serviceAccountName=\"agent\"",
	 "medium", "spec.template.spec.automountServiceAccountToken"},
};

START_TEST(check_fixtures)
{
	const struct check_case *c = &cases[_i];
	json_t *r;
	if (c->pass) {
		r = audit_edited(c->pass);
		const json_t *f = find(r, c->id, NULL);
		ck_assert_msg(!f, "%s passing fixture %d: %s", c->id, _i,
			      f ? json_string_value(json_object_get(f, "message")) : "");
		json_decref(r);
	}
	r = audit_edited(c->fail);
	const json_t *f = find(r, c->id, c->path);
	ck_assert_msg(f != NULL, "%s failing fixture %d: no finding at %s", c->id, _i, c->path);
	ck_assert_str_eq(json_string_value(json_object_get(f, "severity")), c->severity);
	ck_assert(strlen(json_string_value(json_object_get(f, "message"))) > 20);
	ck_assert(strlen(json_string_value(json_object_get(f, "remediation"))) > 20);
	json_decref(r);
}
END_TEST

/* The rules SARIF declares are the audit's ids: a new check must be added here, with its fixtures above or in
 * test_audit.c / test_audit_corpus.c. */
START_TEST(every_rule_is_known)
{
	static const char want[] =
		"allowPrivilegeEscalation appArmorProfile auditIgnore capabilities capabilitiesNotDropped controlPlane "
		"cpuLimit dnsPolicy hostIPC hostNetwork hostPID hostPath hostPort hostProcess imagePullPolicy imageTag "
		"livenessProbe memoryLimit minReadySeconds mountPropagation priorityClassName procMount "
		"readOnlyRootFilesystem readinessProbe resourceRequests runAsNonRoot runAsRoot seLinuxOptions "
		"seccompProfile serviceAccountToken sysctls terminationGracePeriodSeconds toleratesAllTaints "
		"unknownField updateStrategy windowsNamedPipe windowsRunAsUserName ";
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_audit_sarif("[]", 2, NULL, &out, &err), 0);
	json_t *log = dsi_test_take_json(out);
	json_t *rules = json_object_get(
		json_object_get(json_object_get(json_array_get(json_object_get(log, "runs"), 0), "tool"), "driver"),
		"rules");
	char got[2048] = "";
	size_t i;
	json_t *rule;
	json_array_foreach(rules, i, rule)
	{
		const char *lvl =
			json_string_value(json_object_get(json_object_get(rule, "defaultConfiguration"), "level"));
		ck_assert(strcmp(lvl, "error") == 0 || strcmp(lvl, "warning") == 0 || strcmp(lvl, "note") == 0);
		ck_assert(json_string_length(json_object_get(json_object_get(rule, "shortDescription"), "text")) > 5);
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s ",
			 json_string_value(json_object_get(rule, "id")));
	}
	ck_assert_str_eq(got, want);
	json_decref(log);
}
END_TEST

static Suite *audit_practice_suite(void)
{
	Suite *s = suite_create("audit_practice");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, clean_daemonset);
	tcase_add_loop_test(tc, check_fixtures, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, every_rule_is_known);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(audit_practice_suite)
