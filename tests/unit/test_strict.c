/* Strict field validation: the schema's field facts, unknown and duplicate fields with the API server's texts,
 * paths, suggestions and positions, the fieldValidation levels in ds_manifest_check_fields and
 * ds_daemonset_validate, the audit's entry point, and bad input. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/schema.h"
#include "apiserver/strict.h"
#include "core/keyscan.h"
#include "core/load.h"
#include "harness.h"

/* ---- helpers ------------------------------------------------------------------------------- */

/* ds_manifest_check_fields at a level (NULL: the default), which must succeed. */
static json_t *check_at(const char *text, const char *level)
{
	ds_options *o = NULL;
	if (level) {
		char buf[64];
		snprintf(buf, sizeof(buf), "{\"fieldValidation\": \"%s\"}", level);
		o = dsi_test_options(buf);
	}
	char *out = NULL;
	ds_error err;
	int rc = ds_manifest_check_fields(text, strlen(text), o, &out, &err);
	ck_assert_msg(rc == 0, "ds_manifest_check_fields: %s: %s: %s (line %d)", ds_strerror(rc), err.path, err.message,
		      err.line);
	ds_options_free(o);
	return dsi_test_take_json(out);
}

static json_t *check(const char *text) { return check_at(text, NULL); }

static json_t *errors(json_t *r) { return json_object_get(r, "errors"); }

static const char *str(const json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

static json_int_t num(const json_t *o, const char *k) { return json_integer_value(json_object_get(o, k)); }

/* Finding i is of type with message `<type> "<path>"`, suggestion (NULL: none) and position. */
static void assert_finding(const json_t *list, size_t i, const char *type, const char *path, const char *suggestion,
			   int line, int column)
{
	const json_t *f = json_array_get(list, i);
	ck_assert_msg(f != NULL, "no finding %zu (of %zu), want %s %s", i, json_array_size(list), type, path);
	char want[512];
	snprintf(want, sizeof(want), "%s \"%s\"", type, path);
	ck_assert_str_eq(str(f, "type"), type);
	ck_assert_str_eq(str(f, "path"), path);
	ck_assert_str_eq(str(f, "message"), want);
	const char *dot = strrchr(path, '.');
	ck_assert_str_eq(str(f, "field"), dot ? dot + 1 : path);
	if (suggestion)
		ck_assert_str_eq(str(f, "suggestion"), suggestion);
	else
		ck_assert_msg(json_is_null(json_object_get(f, "suggestion")), "%s: suggestion %s", path,
			      str(f, "suggestion"));
	ck_assert_int_eq(num(f, "line"), line);
	ck_assert_int_eq(num(f, "column"), column);
}

/* text with the first occurrence of from replaced by to (new string). */
static char *replace(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	ck_assert_msg(at != NULL, "%s not in the text", from);
	size_t n = strlen(text) - strlen(from) + strlen(to);
	char *s = malloc(n + 1);
	size_t head = (size_t)(at - text);
	memcpy(s, text, head);
	strcpy(s + head, to);
	strcat(s, at + strlen(from));
	return s;
}

/* ---- a published-manifest shape: a node agent with most of what a pod spec can hold --------------- */

static const char AGENT[] =
	"# A node agent in the style of the CNI and monitoring DaemonSets\n"
	"apiVersion: apps/v1\n"
	"kind: DaemonSet\n"
	"metadata:\n"
	"  name: node-agent\n"
	"  namespace: kube-system\n"
	"  labels: {app.kubernetes.io/name: node-agent, k8s-app: node-agent}\n"
	"  annotations: {deprecated.daemonset.template.generation: \"3\", anything/goes: \"x\"}\n"
	"spec:\n"
	"  selector:\n"
	"    matchLabels: {k8s-app: node-agent}\n"
	"    matchExpressions: [{key: tier, operator: In, values: [node]}]\n"
	"  updateStrategy:\n"
	"    type: RollingUpdate\n"
	"    rollingUpdate: {maxUnavailable: 10%, maxSurge: 0}\n"
	"  minReadySeconds: 5\n"
	"  revisionHistoryLimit: 10\n"
	"  template:\n"
	"    metadata:\n"
	"      labels: {k8s-app: node-agent, tier: node}\n"
	"      annotations: {prometheus.io/scrape: \"true\"}\n"
	"    spec:\n"
	"      hostNetwork: true\n"
	"      hostPID: true\n"
	"      dnsPolicy: ClusterFirstWithHostNet\n"
	"      dnsConfig: {options: [{name: ndots, value: \"2\"}], nameservers: [1.1.1.1]}\n"
	"      hostAliases: [{ip: 10.0.0.1, hostnames: [registry]}]\n"
	"      priorityClassName: system-node-critical\n"
	"      serviceAccountName: node-agent\n"
	"      terminationGracePeriodSeconds: 30\n"
	"      nodeSelector: {kubernetes.io/os: linux}\n"
	"      os: {name: linux}\n"
	"      tolerations:\n"
	"      - operator: Exists\n"
	"      - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}\n"
	"      affinity:\n"
	"        nodeAffinity:\n"
	"          requiredDuringSchedulingIgnoredDuringExecution:\n"
	"            nodeSelectorTerms:\n"
	"            - matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64, arm64]}]\n"
	"              matchFields: [{key: metadata.name, operator: NotIn, values: [bad-node]}]\n"
	"          preferredDuringSchedulingIgnoredDuringExecution:\n"
	"          - weight: 1\n"
	"            preference: {matchExpressions: [{key: zone, operator: Exists}]}\n"
	"        podAntiAffinity:\n"
	"          preferredDuringSchedulingIgnoredDuringExecution:\n"
	"          - weight: 10\n"
	"            podAffinityTerm:\n"
	"              topologyKey: kubernetes.io/hostname\n"
	"              labelSelector: {matchLabels: {k8s-app: other}}\n"
	"              namespaceSelector: {}\n"
	"              matchLabelKeys: [pod-template-hash]\n"
	"      topologySpreadConstraints:\n"
	"      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {a: "
	"b}},\n"
	"         nodeAffinityPolicy: Honor, minDomains: 1}\n"
	"      securityContext:\n"
	"        runAsNonRoot: false\n"
	"        fsGroup: 2000\n"
	"        seccompProfile: {type: RuntimeDefault}\n"
	"        sysctls: [{name: net.ipv4.ip_forward, value: \"1\"}]\n"
	"        seLinuxOptions: {type: spc_t}\n"
	"      initContainers:\n"
	"      - name: install-cni\n"
	"        image: example.com/cni:1.0\n"
	"        command: [/install.sh]\n"
	"        restartPolicy: Always\n"
	"        env:\n"
	"        - {name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}\n"
	"        - {name: CPU, valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1m}}}\n"
	"        - {name: CONF, valueFrom: {configMapKeyRef: {name: cni, key: conf, optional: true}}}\n"
	"        - {name: KEY, valueFrom: {secretKeyRef: {name: cni, key: key}}}\n"
	"        envFrom: [{configMapRef: {name: cni}, prefix: CNI_}, {secretRef: {name: cni}}]\n"
	"        volumeMounts: [{name: cni-bin, mountPath: /host/opt/cni/bin, mountPropagation: Bidirectional}]\n"
	"        securityContext: {privileged: true}\n"
	"      containers:\n"
	"      - name: agent\n"
	"        image: example.com/agent:2.1\n"
	"        imagePullPolicy: IfNotPresent\n"
	"        args: [--v=2]\n"
	"        workingDir: /\n"
	"        ports: [{name: metrics, containerPort: 9100, hostPort: 9100, protocol: TCP}]\n"
	"        resources:\n"
	"          requests: {cpu: 100m, memory: 64Mi}\n"
	"          limits: {memory: 128Mi, nvidia.com/gpu: 1, example.com/anything: \"2\"}\n"
	"          claims: [{name: gpu}]\n"
	"        resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}]\n"
	"        livenessProbe:\n"
	"          httpGet: {path: /healthz, port: metrics, scheme: HTTP, httpHeaders: [{name: X, value: y}]}\n"
	"          initialDelaySeconds: 10\n"
	"          periodSeconds: 10\n"
	"          failureThreshold: 6\n"
	"        readinessProbe: {exec: {command: [/ready]}, timeoutSeconds: 2}\n"
	"        startupProbe: {tcpSocket: {port: 9100}, successThreshold: 1}\n"
	"        lifecycle:\n"
	"          preStop: {exec: {command: [/bin/sh, -c, sleep 5]}}\n"
	"          postStart: {sleep: {seconds: 1}}\n"
	"        securityContext:\n"
	"          readOnlyRootFilesystem: true\n"
	"          runAsNonRoot: true\n"
	"          runAsUser: 65534\n"
	"          allowPrivilegeEscalation: false\n"
	"          capabilities: {add: [NET_ADMIN, SYS_TIME], drop: [ALL]}\n"
	"          appArmorProfile: {type: RuntimeDefault}\n"
	"        volumeMounts:\n"
	"        - {name: proc, mountPath: /host/proc, readOnly: true, recursiveReadOnly: IfPossible}\n"
	"        - {name: config, mountPath: /etc/agent, subPath: agent.yaml}\n"
	"        terminationMessagePolicy: FallbackToLogsOnError\n"
	"      - name: grpc-sidecar\n"
	"        image: example.com/sidecar:1\n"
	"        livenessProbe: {grpc: {port: 9090, service: health}}\n"
	"        stdin: false\n"
	"        tty: false\n"
	"      volumes:\n"
	"      - {name: proc, hostPath: {path: /proc, type: Directory}}\n"
	"      - {name: cni-bin, hostPath: {path: /opt/cni/bin, type: DirectoryOrCreate}}\n"
	"      - name: config\n"
	"        configMap: {name: agent, defaultMode: 0644, items: [{key: agent.yaml, path: agent.yaml, mode: "
	"0600}]}\n"
	"      - {name: tls, secret: {secretName: agent-tls, optional: true}}\n"
	"      - {name: scratch, emptyDir: {medium: Memory, sizeLimit: 64Mi}}\n"
	"      - name: token\n"
	"        projected:\n"
	"          sources:\n"
	"          - serviceAccountToken: {path: token, expirationSeconds: 3600, audience: api}\n"
	"          - downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}\n"
	"          - configMap: {name: ca, items: [{key: ca.crt, path: ca.crt}]}\n"
	"          - clusterTrustBundle: {signerName: example.com/signer, path: bundle.pem}\n"
	"      - {name: csi, csi: {driver: csi.example.com, readOnly: true, volumeAttributes: {any: thing}}}\n"
	"      - name: cache\n"
	"        ephemeral:\n"
	"          volumeClaimTemplate:\n"
	"            metadata: {labels: {a: b}}\n"
	"            spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n"
	"      - {name: img, image: {reference: example.com/data:1, pullPolicy: IfNotPresent}}\n"
	"      - {name: nfs, nfs: {server: nfs.example.com, path: /export}}\n";

/* ---- the schema -------------------------------------------------------------------------------- */

START_TEST(schema_field_facts)
{
	int ds = dsi_schema_root_type("apps/v1", "DaemonSet");
	ck_assert_int_ge(ds, 0);
	ck_assert_str_eq(dsi_schema_type_name(ds), "io.k8s.api.apps.v1.DaemonSet");
	static const struct {
		const char *path;
		dsi_schema_kind kind;
		const char *name; /* of the type, or the format of a scalar */
	} facts[] = {
		{"metadata", DSI_SK_OBJECT, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"},
		{"metadata.labels", DSI_SK_MAP, ""},
		{"metadata.labels[]", DSI_SK_STRING, ""},
		{"metadata.creationTimestamp", DSI_SK_STRING, "date-time"},
		{"metadata.generation", DSI_SK_INTEGER, "int64"},
		{"metadata.managedFields[].fieldsV1", DSI_SK_ANY, ""},
		{"spec.template", DSI_SK_OBJECT, "io.k8s.api.core.v1.PodTemplateSpec"},
		{"spec.template.spec", DSI_SK_OBJECT, "io.k8s.api.core.v1.PodSpec"},
		{"spec.updateStrategy.rollingUpdate.maxUnavailable", DSI_SK_INT_OR_STRING, ""},
		{"spec.template.spec.containers", DSI_SK_ARRAY, ""},
		{"spec.template.spec.containers[]", DSI_SK_OBJECT, "io.k8s.api.core.v1.Container"},
		{"spec.template.spec.containers[].ports[].containerPort", DSI_SK_INTEGER, "int32"},
		{"spec.template.spec.containers[].resources.limits[]", DSI_SK_QUANTITY, ""},
		{"spec.template.spec.containers[].securityContext", DSI_SK_OBJECT,
		 "io.k8s.api.core.v1.SecurityContext"},
		{"spec.template.spec.containers[].securityContext.readOnlyRootFilesystem", DSI_SK_BOOLEAN, ""},
		{"spec.template.spec.containers[].livenessProbe.httpGet.port", DSI_SK_INT_OR_STRING, ""},
		{"spec.template.spec.ephemeralContainers[]", DSI_SK_OBJECT, "io.k8s.api.core.v1.EphemeralContainer"},
		{"spec.template.spec.volumes[].hostPath", DSI_SK_OBJECT, "io.k8s.api.core.v1.HostPathVolumeSource"},
		{"spec.template.spec.volumes[].csi.volumeAttributes", DSI_SK_MAP, ""},
		{"spec.template.spec.topologySpreadConstraints[].labelSelector", DSI_SK_OBJECT,
		 "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector"},
		{"spec.template.spec.securityContext", DSI_SK_OBJECT, "io.k8s.api.core.v1.PodSecurityContext"},
		{"spec.template.spec.overhead[]", DSI_SK_QUANTITY, ""},
	};
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		int t = dsi_schema_at(ds, facts[i].path);
		ck_assert_msg(t >= 0, "%s: not in the schema", facts[i].path);
		ck_assert_msg(dsi_schema_kind_of(t) == facts[i].kind, "%s: kind %d, want %d", facts[i].path,
			      dsi_schema_kind_of(t), facts[i].kind);
		ck_assert_str_eq(dsi_schema_type_name(t), facts[i].name);
	}
	/* a container's fields, exactly as the API spells them (case matters to the decoder) */
	int c = dsi_schema_at(ds, "spec.template.spec.containers[]");
	ck_assert_int_ge(dsi_schema_field_type(c, "image", 5), 0);
	ck_assert_int_lt(dsi_schema_field_type(c, "Image", 5), 0);
	ck_assert_int_lt(dsi_schema_field_type(c, "imagee", 6), 0);
	ck_assert_int_lt(dsi_schema_at(ds, "spec.template.spec.hostPid"), 0);
	ck_assert_int_ge(dsi_schema_at(ds, "spec.template.spec.hostPID"), 0);
	/* the fields of an object are sorted, so that lookups can bisect */
	for (size_t i = 1; i < dsi_schema_nfields_of(c); i++)
		ck_assert_int_lt(strcmp(dsi_schema_field_name(c, i - 1), dsi_schema_field_name(c, i)), 0);
	ck_assert_uint_ge(dsi_schema_nfields_of(dsi_schema_at(ds, "spec.template.spec")), 40);
	/* the kinds a manifest holds besides DaemonSets */
	static const char *const kinds[][2] = {{"v1", "Pod"},
					       {"v1", "PodTemplate"},
					       {"apps/v1", "Deployment"},
					       {"batch/v1", "CronJob"},
					       {"v1", "ServiceAccount"},
					       {"v1", "ConfigMap"},
					       {"policy/v1", "PodDisruptionBudget"},
					       {"rbac.authorization.k8s.io/v1", "ClusterRole"},
					       {"v1", "Node"},
					       {"apps/v1", "ControllerRevision"}};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		ck_assert_msg(dsi_schema_root_type(kinds[i][0], kinds[i][1]) >= 0, "%s %s", kinds[i][0], kinds[i][1]);
	ck_assert_int_lt(dsi_schema_root_type("extensions/v1beta1", "DaemonSet"), 0);
	ck_assert_int_lt(dsi_schema_root_type("apps/v1", "Widget"), 0);
	ck_assert_int_lt(dsi_schema_root_type(NULL, "Pod"), 0);
	ck_assert_ptr_nonnull(strstr(dsi_schema_source, "sha256:"));
}
END_TEST

/* ---- unknown fields -------------------------------------------------------------------------- */

START_TEST(published_shape_is_clean)
{
	json_t *r = check(AGENT);
	ck_assert_uint_eq(json_array_size(errors(r)), 0);
	ck_assert_uint_eq(json_array_size(json_object_get(r, "warnings")), 0);
	json_t *obj = json_array_get(json_object_get(r, "objects"), 0);
	ck_assert(json_is_true(json_object_get(obj, "checked")));
	ck_assert_str_eq(str(obj, "kind"), "DaemonSet");
	ck_assert_str_eq(str(obj, "name"), "node-agent");
	ck_assert_str_eq(str(obj, "namespace"), "kube-system");
	ck_assert(json_is_null(json_object_get(obj, "message")));
	ck_assert_str_eq(str(r, "fieldValidation"), "Strict");
	json_decref(r);
}
END_TEST

START_TEST(security_context_typos)
{
	/* the typos of issue 21, each on its own line of the agent's container */
	char *a =
		replace(AGENT, "          readOnlyRootFilesystem: true\n", "          readOnlyRootFileSystem: true\n");
	char *b = replace(a, "          runAsNonRoot: true\n", "          runAsNonroot: true\n");
	char *t =
		replace(b, "          allowPrivilegeEscalation: false\n", "          allowPrivilegeEscalaton: false\n");
	json_t *r = check(t);
	json_t *e = errors(r);
	ck_assert_uint_eq(json_array_size(e), 3);
	/* the container's securityContext starts at line 97 of AGENT */
	assert_finding(e, 0, "unknown field", "spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem",
		       "readOnlyRootFilesystem", 98, 11);
	assert_finding(e, 1, "unknown field", "spec.template.spec.containers[0].securityContext.runAsNonroot",
		       "runAsNonRoot", 99, 11);
	assert_finding(e, 2, "unknown field",
		       "spec.template.spec.containers[0].securityContext.allowPrivilegeEscalaton",
		       "allowPrivilegeEscalation", 101, 11);
	const json_t *obj = json_array_get(json_object_get(r, "objects"), 0);
	ck_assert_str_eq(str(obj, "message"),
			 "DaemonSet in version \"v1\" cannot be handled as a DaemonSet: strict decoding error: "
			 "unknown field \"spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem\", "
			 "unknown field \"spec.template.spec.containers[0].securityContext.runAsNonroot\", "
			 "unknown field \"spec.template.spec.containers[0].securityContext.allowPrivilegeEscalaton\"");
	ck_assert_int_eq(num(json_array_get(e, 0), "document"), 1);
	ck_assert_str_eq(str(json_array_get(e, 0), "kind"), "DaemonSet");
	ck_assert_str_eq(str(json_array_get(e, 0), "name"), "node-agent");
	json_decref(r);
	free(a);
	free(b);
	free(t);
}
END_TEST

START_TEST(pod_spec_typos)
{
	static const struct {
		const char *from, *to, *path, *suggestion;
		int line, column;
	} cases[] = {
		{"      hostPID: true\n", "      hostPid: true\n", "spec.template.spec.hostPid", "hostPID", 24, 7},
		{"        image: example.com/agent:2.1\n", "        imagee: example.com/agent:2.1\n",
		 "spec.template.spec.containers[0].imagee", "image", 77, 9},
		{"      - {name: proc, hostPath:", "      - {name: proc, hostpath:",
		 "spec.template.spec.volumes[0].hostpath", "hostPath", 114, 22},
		{"  minReadySeconds: 5\n", "  minReadySecond: 5\n", "spec.minReadySecond", "minReadySeconds", 16, 3},
		/* a misplaced field: what it belongs under */
		{"        imagePullPolicy: IfNotPresent\n", "        requests: {cpu: 1}\n",
		 "spec.template.spec.containers[0].requests", "resources.requests", 78, 9},
		{"      hostNetwork: true\n", "      runAsUser: 0\n", "spec.template.spec.runAsUser",
		 "securityContext.runAsUser", 23, 7},
		/* nothing near */
		{"      os: {name: linux}\n", "      osFamily: {name: linux}\n", "spec.template.spec.osFamily", NULL,
		 32, 7},
		/* in an init container, a probe, a toleration, an env source, a projected source */
		{"        restartPolicy: Always\n", "        restartPolcy: Always\n",
		 "spec.template.spec.initContainers[0].restartPolcy", "restartPolicy", 66, 9},
		{"          initialDelaySeconds: 10\n", "          initialDelay: 10\n",
		 "spec.template.spec.containers[0].livenessProbe.initialDelay", NULL, 89, 11},
		{"tolerationSeconds: 300}", "tolerationsSeconds: 300}",
		 "spec.template.spec.tolerations[1].tolerationsSeconds", "tolerationSeconds", 35, 82},
		{"{fieldRef: {fieldPath: spec.nodeName}}", "{fieldRef: {fieldpath: spec.nodeName}}",
		 "spec.template.spec.initContainers[0].env[0].valueFrom.fieldRef.fieldpath", "fieldPath", 68, 47},
		{"expirationSeconds: 3600", "expirySeconds: 3600",
		 "spec.template.spec.volumes[5].projected.sources[0].serviceAccountToken.expirySeconds", NULL, 123, 48},
		{"  revisionHistoryLimit: 10\n", "  revisionHistoryLimit: 10\n  replicas: 3\n", "spec.replicas", NULL,
		 18, 3},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *t = replace(AGENT, cases[i].from, cases[i].to);
		json_t *r = check(t);
		ck_assert_msg(json_array_size(errors(r)) == 1, "%s: %zu findings", cases[i].path,
			      json_array_size(errors(r)));
		assert_finding(errors(r), 0, "unknown field", cases[i].path, cases[i].suggestion, cases[i].line,
			       cases[i].column);
		json_decref(r);
		free(t);
	}
}
END_TEST

START_TEST(unknown_top_level_and_nested_not_descended)
{
	/* an unknown field's own value is not looked into: only the top of it is reported */
	json_t *r = check("{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"x\"},\n"
			  "\"specs\":{\"template\":{\"bogus\":1}},\"Status\":{}}");
	ck_assert_uint_eq(json_array_size(errors(r)), 2);
	assert_finding(errors(r), 0, "unknown field", "specs", "spec", 2, 1);
	assert_finding(errors(r), 1, "unknown field", "Status", "status", 2, 34);
	json_decref(r);
}
END_TEST

START_TEST(free_form_fields)
{
	/* map keys are free (labels, annotations, nodeSelector, resources, volumeAttributes), and so are the
	 * fields of free-form types (FieldsV1, RawExtension) */
	json_t *r = check("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\n"
			  "  labels: {anything: goes, readOnlyRootFileSystem: \"true\"}\n"
			  "  annotations: {hostPid: \"1\"}\n"
			  "  managedFields:\n  - manager: kubectl\n    fieldsV1: {f:spec: {f:imagee: {}}}\n"
			  "spec:\n  template:\n    spec:\n      nodeSelector: {imagee: x}\n"
			  "      containers: [{name: c, image: i, resources: {limits: {bogus.example.com/thing: 1}}}]\n"
			  "---\napiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: r}\nrevision: 1\n"
			  "data: {spec: {template: {anything: 1}}}\n");
	ck_assert_uint_eq(json_array_size(errors(r)), 0);
	ck_assert_uint_eq(json_array_size(json_object_get(r, "objects")), 2);
	json_decref(r);
}
END_TEST

START_TEST(other_kinds)
{
	/* Pod, PodTemplate, CronJob (jobTemplate), and a kind without a schema (skipped, not an error) */
	json_t *r = check(
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, imagee: i}]\n"
		"---\napiVersion: v1\nkind: PodTemplate\nmetadata: {name: t}\n"
		"template: {spec: {hostPid: true, containers: []}}\n"
		"---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  schedule: '* * * * *'\n"
		"  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, Image: i}]}}}}\n"
		"---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {anything: 1}\n");
	json_t *e = errors(r);
	ck_assert_uint_eq(json_array_size(e), 3);
	assert_finding(e, 0, "unknown field", "spec.containers[0].imagee", "image", 5, 26);
	ck_assert_str_eq(str(json_array_get(e, 0), "kind"), "Pod");
	ck_assert_int_eq(num(json_array_get(e, 0), "document"), 1);
	assert_finding(e, 1, "unknown field", "template.spec.hostPid", "hostPID", 10, 19);
	ck_assert_int_eq(num(json_array_get(e, 1), "document"), 2);
	assert_finding(e, 2, "unknown field", "spec.jobTemplate.spec.template.spec.containers[0].Image", "image", 17,
		       87);
	json_t *objs = json_object_get(r, "objects");
	ck_assert_uint_eq(json_array_size(objs), 4);
	ck_assert(json_is_false(json_object_get(json_array_get(objs, 3), "checked")));
	ck_assert(json_is_null(json_object_get(json_array_get(objs, 3), "message")));
	ck_assert_str_eq(
		str(json_array_get(objs, 2), "message"),
		"CronJob in version \"v1\" cannot be handled as a CronJob: strict decoding error: unknown field "
		"\"spec.jobTemplate.spec.template.spec.containers[0].Image\"");
	json_decref(r);
}
END_TEST

START_TEST(list_items)
{
	/* a List's items are checked one by one, with paths in the item and the item's index */
	json_t *r = check(
		"{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n"
		"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"},\"spec\":{\"containers\":[]}},\n"
		"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"b\",\"label\":{}}}]}\n");
	json_t *e = errors(r);
	ck_assert_uint_eq(json_array_size(e), 1);
	assert_finding(e, 0, "unknown field", "metadata.label", "labels", 3, 56);
	ck_assert_int_eq(num(json_array_get(e, 0), "item"), 1);
	ck_assert_str_eq(str(json_array_get(e, 0), "name"), "b");
	json_decref(r);
}
END_TEST

START_TEST(at_most_one_hundred)
{
	/* the decoder keeps 100 strict errors of an object */
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_strbuf_puts(&b, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}");
	for (int i = 0; i < 150; i++)
		dsi_strbuf_printf(&b, ",\"x%d\":%d", i, i);
	dsi_strbuf_puts(&b, "}");
	json_t *r = check(b.data);
	ck_assert_uint_eq(json_array_size(errors(r)), DSI_STRICT_MAX);
	assert_finding(errors(r), 0, "unknown field", "x0", NULL, 1, 57);
	assert_finding(errors(r), 99, "unknown field", "x99", NULL, 1, 928);
	json_decref(r);
	dsi_strbuf_free(&b);
}
END_TEST

/* ---- duplicate fields -------------------------------------------------------------------------- */

START_TEST(duplicates_in_json)
{
	json_t *r = check(
		"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\n"
		" \"metadata\":{\"name\":\"x\",\"labels\":{\"app\":\"a\",\"app\":\"b\",\"app\":\"c\"},\n"
		"  \"managedFields\":[{\"fieldsV1\":{\"f:a\":{},\"f:a\":{}}}]},\n"
		" \"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\n"
		"   "
		"\"image\":\"j\"}],\"volumes\":[{\"name\":\"v\",\"hostPath\":{\"path\":\"/a\",\"path\":\"/b\"}}]}}},\n"
		" \"kind\":\"DaemonSet\"}");
	json_t *e = errors(r);
	/* in text order; a key repeated three times is one error; inside FieldsV1 (free form) none */
	ck_assert_uint_eq(json_array_size(e), 4);
	assert_finding(e, 0, "duplicate field", "metadata.labels.app", NULL, 2, 45);
	assert_finding(e, 1, "duplicate field", "spec.template.spec.containers[0].image", NULL, 5, 4);
	assert_finding(e, 2, "duplicate field", "spec.template.spec.volumes[0].hostPath.path", NULL, 5, 65);
	assert_finding(e, 3, "duplicate field", "kind", NULL, 6, 2);
	json_decref(r);
}
END_TEST

START_TEST(duplicates_in_yaml)
{
	json_t *r = check("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\n"
			  "  managedFields:\n  - fieldsV1: {f:a: {}, f:a: {}}\n"
			  "spec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: i\n"
			  "        volumeMounts: [{name: a, mountPath: /a}]\n        image: j\n"
			  "        volumeMounts: [{name: b, mountPath: /b}]\n");
	json_t *e = errors(r);
	/* YAML: go-yaml refuses a repeated key wherever it is, even in free-form fields */
	ck_assert_uint_eq(json_array_size(e), 3);
	assert_finding(e, 0, "duplicate field", "metadata.managedFields[0].fieldsV1.f:a", NULL, 6, 25);
	assert_finding(e, 1, "duplicate field", "spec.template.spec.containers[0].image", NULL, 14, 9);
	assert_finding(e, 2, "duplicate field", "spec.template.spec.containers[0].volumeMounts", NULL, 15, 9);
	json_decref(r);
}
END_TEST

START_TEST(yaml_merge_keys_are_not_repeats)
{
	/* keys a merge brings in are overridden, not repeated; a key written twice still is */
	json_t *r =
		check("base: &base {image: i, name: base}\n"
		      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
		      "spec:\n  containers:\n  - <<: *base\n    name: c\n  - <<: {image: j, imagePullPolicy: Always}\n"
		      "    name: d\n    name: e\n");
	json_t *e = errors(r);
	ck_assert_uint_eq(json_array_size(e), 2);
	assert_finding(e, 0, "unknown field", "base", NULL, 1, 1);
	assert_finding(e, 1, "duplicate field", "spec.containers[1].name", NULL, 11, 5);
	json_decref(r);
	/* a typo inside a merged mapping is found where it is written */
	r = check("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
		  "spec:\n  containers:\n  - <<: {imagee: j}\n    name: d\n");
	assert_finding(errors(r), 0, "unknown field", "spec.containers[0].imagee", "image", 6, 10);
	json_decref(r);
}
END_TEST

/* An observer that keeps the repeated keys: path, "line:column" and key. */
static int collect_repeat(void *ctx, const dsi_keyinfo *k)
{
	char at[32];
	snprintf(at, sizeof(at), "%d:%d", k->line, k->column);
	ck_assert_int_eq(k->document, 7);
	ck_assert(k->duplicate);
	ck_assert_uint_eq(strlen(k->path), k->len);
	json_array_append_new(ctx, json_pack("{s:s, s:s, s:s}", "path", k->path, "at", at, "key", k->path + k->key));
	return 0;
}

START_TEST(key_scanner)
{
	/* escapes in keys, many keys (the scanner's hash map), paths of a top-level array */
	static const char text[] =
		"[{\"a\\u0062\":1,\"ab\":2,\"\\ud83d\\ude00\":3,\"\\ud83d\\ude00\":4},\n"
		" {\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9,"
		"\"k10\":0,\"k11\":0,\"k12\":0,\"k13\":0,\"k14\":0,\"k15\":0,\"k16\":0,\"k17\":0,\"k3\":0,"
		"\"k17\":0,\"deep\":{\"x\":[{\"y\":1,\"y\":2}]}}]";
	json_t *seen = json_array();
	dsi_keyobs obs = {collect_repeat, seen, 0};
	ck_assert_int_eq(dsi_json_scan_keys(text, 0, strlen(text), 1, 1, 7, &obs), 0);
	ck_assert_uint_eq(json_array_size(seen), 5);
	static const char *const want[][2] = {{"[0].ab", "1:15"},
					      {"[0].\xf0\x9f\x98\x80", "1:39"},
					      {"[1].k3", "2:137"},
					      {"[1].k17", "2:144"},
					      {"[1].deep.x[0].y", "2:172"}};
	for (size_t i = 0; i < 5; i++) {
		json_t *k = json_array_get(seen, i);
		ck_assert_str_eq(str(k, "path"), want[i][0]);
		ck_assert_str_eq(str(k, "at"), want[i][1]);
	}
	json_decref(seen);
}
END_TEST

/* ---- levels --------------------------------------------------------------------------------------- */

static const char TYPO[] = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n"
			   "  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n"
			   "    spec:\n      containers:\n      - name: c\n        image: i\n        imagee: j\n";

START_TEST(levels_in_the_check)
{
	json_t *s = check_at(TYPO, "Strict"), *w = check_at(TYPO, "Warn"), *i = check_at(TYPO, "Ignore");
	ck_assert_uint_eq(json_array_size(errors(s)), 1);
	ck_assert_uint_eq(json_array_size(json_object_get(s, "warnings")), 0);
	ck_assert_uint_eq(json_array_size(errors(w)), 0);
	assert_finding(json_object_get(w, "warnings"), 0, "unknown field", "spec.template.spec.containers[0].imagee",
		       "image", 12, 9);
	ck_assert_uint_eq(json_array_size(errors(i)) + json_array_size(json_object_get(i, "warnings")), 0);
	ck_assert_str_eq(str(w, "fieldValidation"), "Warn");
	ck_assert_str_eq(str(i, "fieldValidation"), "Ignore");
	/* only Strict answers with the 400's message */
	ck_assert_ptr_nonnull(str(json_array_get(json_object_get(s, "objects"), 0), "message"));
	ck_assert(json_is_null(json_object_get(json_array_get(json_object_get(w, "objects"), 0), "message")));
	json_decref(s);
	json_decref(w);
	json_decref(i);
}
END_TEST

static json_t *validate_at(const char *text, const char *level)
{
	ds_options *o = NULL;
	if (level) {
		char buf[64];
		snprintf(buf, sizeof(buf), "{\"fieldValidation\": \"%s\"}", level);
		o = dsi_test_options(buf);
	}
	char *out = NULL;
	ds_error err;
	int rc = ds_daemonset_validate(text, strlen(text), 0, o, &out, &err);
	ck_assert_msg(rc == 0, "%s: %s", ds_strerror(rc), err.message);
	ds_options_free(o);
	return dsi_test_take_json(out);
}

START_TEST(levels_in_validate)
{
	/* Strict (the default): the API server's 400, instead of validation */
	json_t *r = validate_at(TYPO, NULL);
	ck_assert(json_is_false(json_object_get(r, "valid")));
	ck_assert_int_eq(num(r, "code"), 400);
	ck_assert_str_eq(str(r, "reason"), "BadRequest");
	ck_assert_str_eq(str(r, "message"),
			 "DaemonSet in version \"v1\" cannot be handled as a DaemonSet: strict decoding "
			 "error: unknown field \"spec.template.spec.containers[0].imagee\"");
	json_t *e = json_array_get(json_object_get(r, "errors"), 0);
	ck_assert_uint_eq(json_array_size(json_object_get(r, "errors")), 1);
	ck_assert_str_eq(str(e, "field"), "spec.template.spec.containers[0].imagee");
	ck_assert_str_eq(str(e, "type"), "unknown field");
	ck_assert_str_eq(str(e, "reason"), "BadRequest");
	ck_assert_str_eq(str(e, "message"), "unknown field \"spec.template.spec.containers[0].imagee\"");
	ck_assert_str_eq(str(e, "detail"), "did you mean \"image\"?");
	ck_assert_str_eq(str(e, "suggestion"), "image");
	ck_assert_int_eq(num(e, "line"), 12);
	ck_assert(json_object_get(r, "warnings") == NULL);
	json_decref(r);
	/* Warn: validated, with the warnings the API server would send */
	r = validate_at(TYPO, "Warn");
	ck_assert(json_is_true(json_object_get(r, "valid")));
	ck_assert_uint_eq(json_array_size(json_object_get(r, "warnings")), 1);
	ck_assert_str_eq(str(json_array_get(json_object_get(r, "warnings"), 0), "message"),
			 "unknown field \"spec.template.spec.containers[0].imagee\"");
	ck_assert_str_eq(str(json_array_get(json_object_get(r, "warnings"), 0), "reason"), "Warning");
	json_decref(r);
	/* Ignore: as if the field were not there */
	r = validate_at(TYPO, "Ignore");
	ck_assert(json_is_true(json_object_get(r, "valid")));
	ck_assert(json_object_get(r, "warnings") == NULL);
	ck_assert(json_object_get(r, "code") == NULL);
	json_decref(r);
	/* without findings nothing changes; Warn says so with an empty list */
	char *clean = replace(TYPO, "        imagee: j\n", "");
	r = validate_at(clean, NULL);
	ck_assert(json_is_true(json_object_get(r, "valid")));
	ck_assert(json_object_get(r, "code") == NULL);
	json_decref(r);
	r = validate_at(clean, "Warn");
	ck_assert_uint_eq(json_array_size(json_object_get(r, "warnings")), 0);
	ck_assert_ptr_nonnull(json_object_get(r, "warnings"));
	json_decref(r);
	free(clean);
	/* a duplicate is a strict error too, and a decoder error still wins over both */
	r = validate_at("kind: DaemonSet\nmetadata: {name: a, name: b}\n", NULL);
	ck_assert_str_eq(str(json_array_get(json_object_get(r, "errors"), 0), "message"),
			 "duplicate field \"metadata.name\"");
	json_decref(r);
	char *out = NULL;
	ds_error err;
	static const char wrong[] = "kind: DaemonSet\nspec: {minReadySeconds: x}\nbogus: 1\n";
	ck_assert_int_eq(ds_daemonset_validate(wrong, strlen(wrong), 0, NULL, &out, &err), DS_ETYPE);
	ck_assert_ptr_null(out);
	static const char other[] = "kind: Deployment\nbogus: 1\n";
	ck_assert_int_eq(ds_daemonset_validate(other, strlen(other), 0, NULL, &out, &err), DS_EUNSUPPORTED);
}
END_TEST

START_TEST(validate_update_checks_the_new_object)
{
	char *out = NULL;
	ds_error err;
	static const char old[] =
		"kind: DaemonSet\nmetadata: {name: agent, resourceVersion: \"1\", bogus: 1}\n"
		"spec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n"
		"    spec:\n      containers: [{name: c, image: i}]\n";
	char *upd = replace(TYPO, "metadata: {name: agent}", "metadata: {name: agent, resourceVersion: \"1\"}");
	ck_assert_int_eq(ds_daemonset_validate_update(upd, strlen(upd), old, strlen(old), 0, NULL, &out, &err), 0);
	json_t *r = dsi_test_take_json(out);
	ck_assert_int_eq(num(r, "code"), 400);
	ck_assert_uint_eq(json_array_size(json_object_get(r, "errors")), 1);
	json_decref(r);
	free(upd);
}
END_TEST

/* ---- the audit's entry point -------------------------------------------------------------------------- */

START_TEST(check_a_parsed_object)
{
	json_error_t je;
	json_t *obj =
		json_loads("{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"spec\":{\"template\":{\"spec\":"
			   "{\"containers\":[{\"name\":\"c\",\"securityContext\":{\"readOnlyRootFileSystem\":true}}],"
			   "\"hostPid\":true}}}}",
			   0, &je);
	ck_assert_ptr_nonnull(obj);
	dsi_strict_findings f;
	memset(&f, 0, sizeof(f));
	ck_assert_int_eq(dsi_strict_check(obj, &f), 0);
	ck_assert_uint_eq(f.n, 2);
	ck_assert_str_eq(f.v[0].path, "spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem");
	ck_assert_str_eq(f.v[0].path + f.v[0].key, "readOnlyRootFileSystem");
	ck_assert_str_eq(f.v[0].suggestion, "readOnlyRootFilesystem");
	ck_assert_int_eq(f.v[0].line, 0);
	ck_assert_str_eq(f.v[1].path, "spec.template.spec.hostPid");
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_strict_bad_request("DaemonSet", "apps/v1", &f, &b);
	ck_assert_str_eq(b.data,
			 "DaemonSet in version \"v1\" cannot be handled as a DaemonSet: strict decoding error: "
			 "unknown field \"spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem\", "
			 "unknown field \"spec.template.spec.hostPid\"");
	dsi_strbuf_free(&b);
	dsi_strict_findings_free(&f);
	json_decref(obj);
	obj = json_pack("{s:s, s:s, s:i}", "apiVersion", "example.com/v1", "kind", "Widget", "spec", 1);
	ck_assert_int_eq(dsi_strict_check(obj, &f), 1);
	ck_assert_uint_eq(f.n, 0);
	json_decref(obj);
}
END_TEST

START_TEST(parse_one_with_positions)
{
	dsi_limits lim;
	dsi_limits_default(&lim);
	json_t *obj;
	dsi_strict_findings f;
	memset(&f, 0, sizeof(f));
	static const char text[] =
		"kind: Pod\nmetadata:\n  name: a\n  name: b\nspec: {containers: [{name: c, Image: i}]}\n";
	ck_assert_int_eq(dsi_strict_parse_one(text, strlen(text), &lim, DSI_FV_STRICT, -1, &obj, &f, NULL), 0);
	/* kind without apiVersion: no schema; only the repeat (as an unstructured decoder sees it) */
	ck_assert_uint_eq(f.n, 1);
	ck_assert_str_eq(f.v[0].path, "metadata.name");
	ck_assert_int_eq(f.v[0].line, 4);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(obj, "metadata"), "name")), "b");
	json_decref(obj);
	dsi_strict_findings_free(&f);
	ck_assert_int_eq(dsi_strict_parse_one(text, strlen(text), &lim, DSI_FV_STRICT,
					      dsi_schema_root_type("v1", "Pod"), &obj, &f, NULL),
			 0);
	ck_assert_uint_eq(f.n, 2);
	ck_assert_str_eq(f.v[1].path, "spec.containers[0].Image");
	ck_assert_int_eq(f.v[1].line, 5);
	ck_assert_int_eq(f.v[1].column, 31);
	json_decref(obj);
	dsi_strict_findings_free(&f);
	ck_assert_int_eq(dsi_strict_parse_one(text, strlen(text), &lim, DSI_FV_IGNORE, -1, &obj, &f, NULL), 0);
	ck_assert_uint_eq(f.n, 0);
	json_decref(obj);
}
END_TEST

/* ---- the sample cluster and the vectors: nothing to report --------------------------------------------- */

START_TEST(repository_manifests_are_clean)
{
	static const char *const files[] = {
		"examples/cluster/daemonsets.yaml",
		"examples/cluster/pods.yaml",
		"examples/cluster/nodes.yaml",
		"examples/cluster/pdbs.yaml",
		"examples/cluster/controllerrevisions.json",
		"tests/vectors/audit/calico-node-pod.yaml",
		"tests/vectors/audit/fluentd-daemonset.yaml",
		"tests/vectors/audit/node-exporter-daemonset.yaml",
		"tests/vectors/audit/node-exporter-pod.yaml",
		"tests/dumps/kubectl-get-o-yaml.yaml",
	};
	size_t checked = 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t len;
		char *text = dsi_test_read_file(files[i], &len);
		json_t *r = check(text);
		json_t *e = errors(r);
		ck_assert_msg(json_array_size(e) == 0, "%s: %s", files[i], str(json_array_get(e, 0), "message"));
		size_t j;
		json_t *o;
		json_array_foreach(json_object_get(r, "objects"), j, o) checked +=
			json_is_true(json_object_get(o, "checked"));
		json_decref(r);
		free(text);
	}
	ck_assert_uint_ge(checked, 30);
}
END_TEST

/* ---- bad input ------------------------------------------------------------------------------------ */

START_TEST(bad_input)
{
	char *out = (char *)1;
	ds_error err;
	ck_assert_int_eq(ds_manifest_check_fields(NULL, 0, NULL, &out, &err), DS_EARG);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(ds_manifest_check_fields("a: 1", 4, NULL, NULL, &err), DS_EARG);
	ck_assert_int_eq(ds_manifest_check_fields("{\"kind\":", 8, NULL, &out, &err), DS_ESYNTAX);
	ck_assert_int_eq(err.line, 1);
	static const char yaml[] = "kind: Pod\nspec: [\n";
	ck_assert_int_eq(ds_manifest_check_fields(yaml, strlen(yaml), NULL, &out, &err), DS_ESYNTAX);
	ck_assert_int_gt(err.line, 1);
	/* empty and comment-only input: nothing to check */
	json_t *r = check("# nothing\n---\n");
	ck_assert_uint_eq(json_array_size(json_object_get(r, "objects")), 0);
	json_decref(r);
	ck_assert_int_eq(ds_manifest_check_fields("", 0, NULL, &out, &err), 0);
	ds_free(out);
	/* empty keys: a field named "" is unknown; a label key "" repeated (path with an empty last part) */
	r = check("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"\":1,\"\":2,\"metadata\":{\"labels\":{\"\":\"a\",\"\":"
		  "\"b\"}}}");
	ck_assert_uint_eq(json_array_size(errors(r)), 3);
	assert_finding(errors(r), 0, "unknown field", "", NULL, 1, 33);
	assert_finding(errors(r), 1, "duplicate field", "", NULL, 1, 38);
	assert_finding(errors(r), 2, "duplicate field", "metadata.labels.", NULL, 1, 72);
	json_decref(r);
	/* not objects, and fields of the wrong JSON type: not this check's business, never a crash */
	r = check("apiVersion: v1\nkind: Pod\nmetadata: 5\nspec: {containers: {name: x}, volumes: [1, null, [2]]}\n");
	ck_assert_uint_eq(json_array_size(errors(r)), 0);
	json_decref(r);
}
END_TEST

START_TEST(mutations_never_crash)
{
	/* the agent manifest with bytes flipped, dropped and cut, as JSON and YAML */
	size_t n = strlen(AGENT);
	uint64_t seed = 0x5eed;
	char *buf = malloc(n + 1);
	ds_error err_unused;
	for (int round = 0; round < 1500; round++) {
		memcpy(buf, AGENT, n + 1);
		size_t len = n;
		int edits = 1 + (int)(dsi_test_rand(&seed) % 4);
		for (int e = 0; e < edits; e++) {
			size_t at = dsi_test_rand(&seed) % len;
			switch (dsi_test_rand(&seed) % 4) {
			case 0: buf[at] = ":{}[]-#&*!|>'\" \n,\\"[dsi_test_rand(&seed) % 19]; break;
			case 1:
				memmove(buf + at, buf + at + 1, len - at);
				len--;
				break;
			case 2: len = at; break;
			default: buf[at] = (char)(dsi_test_rand(&seed) & 0xff); break;
			}
			if (!len)
				break;
		}
		for (int level = 0; level < 2; level++) {
			ds_options *o = dsi_test_options(level ? "{\"fieldValidation\": \"Warn\"}" : NULL);
			char *out = NULL;
			int rc = ds_manifest_check_fields(buf, len, o, &out, &err_unused);
			ck_assert_msg(rc == 0 ? out != NULL : out == NULL, "round %d", round);
			if (rc == 0) {
				json_t *r = dsi_test_take_json(out);
				ck_assert_ptr_nonnull(json_object_get(r, "objects"));
				json_decref(r);
			}
			out = NULL;
			rc = ds_daemonset_validate(buf, len, 0, o, &out, &err_unused);
			ds_free(out);
			ds_options_free(o);
		}
	}
	free(buf);
}
END_TEST

/* The audit reports the unknown fields of what it reads as "unknownField" findings at the key's
 * line, for a manifest and for a DaemonSet of a snapshot alike; fieldValidation Ignore drops them. */
static json_t *audit_finding(const char *level, int snapshot)
{
	char buf[64], *out = NULL;
	snprintf(buf, sizeof(buf), "{\"fieldValidation\": \"%s\"}", level);
	ds_options *o = dsi_test_options(buf);
	ds_error err;
	if (snapshot) {
		ds_cluster *c;
		ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
		ck_assert_int_eq(ds_cluster_load(c, TYPO, strlen(TYPO), NULL, &err), 0);
		ck_assert_int_eq(ds_daemonset_audit(c, "default", "agent", o, &out, &err), 0);
		ds_cluster_free(c);
	} else {
		ck_assert_int_eq(ds_object_audit(TYPO, strlen(TYPO), o, &out, &err), 0);
	}
	ds_options_free(o);
	json_t *r = dsi_test_take_json(out), *f, *found = NULL;
	size_t i;
	json_array_foreach(json_object_get(r, "findings"), i, f) if (strcmp(str(f, "id"), "unknownField") == 0) found =
		json_incref(f);
	json_decref(r);
	return found;
}

START_TEST(audit_reports_unknown_fields)
{
	for (int snapshot = 0; snapshot < 2; snapshot++) {
		json_t *f = audit_finding("Strict", snapshot);
		ck_assert_msg(f != NULL, "no unknownField finding (snapshot %d)", snapshot);
		ck_assert_str_eq(str(f, "path"), "spec.template.spec.containers[0].imagee");
		ck_assert_ptr_nonnull(strstr(str(f, "message"), "(did you mean image?)"));
		if (!snapshot)
			ck_assert_int_eq(num(f, "line"), 12);
		json_decref(f);
		f = audit_finding("Warn", snapshot);
		ck_assert_ptr_nonnull(f);
		json_decref(f);
		ck_assert_ptr_null(audit_finding("Ignore", snapshot));
	}
}
END_TEST

static Suite *strict_suite(void)
{
	Suite *s = suite_create("strict");
	TCase *tc = tcase_create("strict");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, schema_field_facts);
	tcase_add_test(tc, published_shape_is_clean);
	tcase_add_test(tc, security_context_typos);
	tcase_add_test(tc, pod_spec_typos);
	tcase_add_test(tc, unknown_top_level_and_nested_not_descended);
	tcase_add_test(tc, free_form_fields);
	tcase_add_test(tc, other_kinds);
	tcase_add_test(tc, list_items);
	tcase_add_test(tc, at_most_one_hundred);
	tcase_add_test(tc, duplicates_in_json);
	tcase_add_test(tc, duplicates_in_yaml);
	tcase_add_test(tc, yaml_merge_keys_are_not_repeats);
	tcase_add_test(tc, key_scanner);
	tcase_add_test(tc, levels_in_the_check);
	tcase_add_test(tc, levels_in_validate);
	tcase_add_test(tc, validate_update_checks_the_new_object);
	tcase_add_test(tc, check_a_parsed_object);
	tcase_add_test(tc, parse_one_with_positions);
	tcase_add_test(tc, repository_manifests_are_clean);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, mutations_never_crash);
	tcase_add_test(tc, audit_reports_unknown_fields);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(strict_suite)
