/*
 * make bench, the pure functions: each function of <daemonset/upstream.h> on text and on parsed
 * objects (<daemonset/object.h>), next to the snapshot path where there is one and to jansson
 * parsing (json_loadb and json_decref) of the same texts, all in one run; the inline-C
 * ToleratesTaint; one DaemonSet against 10,000 nodes (the batch on objects, the snapshot's status
 * pass); validation of 10,000 and 100,000 containers. Realistic objects: a GPU node of ~6 KB, a
 * DaemonSet of ~1.1 KB, a toleration and a taint of ~65 B. Every figure is the best of several
 * runs of a loop (the machine is shared and noisy: best-of is what a quiet moment gives).
 * The inputs go to pure_inputs.json for tests/bench/pure.py (the Python figures).
 * SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemonset.h"
#include "pure.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fail(const char *what, const ds_error *err)
{
	fprintf(stderr, "bench (pure): %s: %s: %s: %s\n", what, err->source, err->path, err->message);
	exit(1);
}

static char *fmt(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	char *s = NULL;
	if (vasprintf(&s, f, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

/* ---- the objects ------------------------------------------------------------------------------- */

/* A GPU node as a cloud provider's kubelet reports it (~6 KB), named name. */
static char *gpu_node(const char *name)
{
	char images[8192] = "";
	size_t n = 0;
	static const char *const img[] = {"nvcr.io/nvidia/k8s-device-plugin",
					  "nvcr.io/nvidia/gpu-feature-discovery",
					  "nvcr.io/nvidia/dcgm-exporter",
					  "nvcr.io/nvidia/cuda",
					  "nvcr.io/nvidia/pytorch",
					  "registry.example.com/platform/logs",
					  "registry.example.com/platform/netd",
					  "registry.example.com/ml/train",
					  "registry.example.com/ml/serve",
					  "registry.k8s.io/kube-proxy",
					  "registry.k8s.io/pause",
					  "registry.k8s.io/coredns/coredns"};
	for (int i = 0; i < 12; i++)
		n += (size_t)snprintf(images + n, sizeof(images) - n,
				      "%s{\"names\":[\"%s@sha256:%064d\",\"%s:v1.%d.0\"],\"sizeBytes\":%d}",
				      i ? "," : "", img[i], 1234567 * (i + 1), img[i], i, 50000000 + i * 7919);
	return fmt(
		"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"%s\",\"uid\":\"6b7c1d0e-0a0b-4c0d-"
		"8e0f-"
		"0123456789ab\",\"resourceVersion\":\"4815162342\",\"creationTimestamp\":\"2026-11-01T08:00:00Z\","
		"\"labels\":{\"kubernetes.io/hostname\":\"%s\",\"kubernetes.io/os\":\"linux\",\"kubernetes.io/arch\":"
		"\"amd64\",\"beta.kubernetes.io/os\":\"linux\",\"beta.kubernetes.io/arch\":\"amd64\","
		"\"topology.kubernetes.io/zone\":\"eu-west-1a\",\"topology.kubernetes.io/region\":\"eu-west-1\","
		"\"node.kubernetes.io/"
		"instance-type\":\"p4d.24xlarge\",\"node-type\":\"gpu\",\"accelerator\":\"nvidia\","
		"\"nvidia.com/gpu.present\":\"true\",\"nvidia.com/gpu.product\":\"A100-SXM4-40GB\",\"nvidia.com/"
		"gpu.count\":\"8\",\"nvidia.com/cuda.driver.major\":\"550\",\"example.com/team\":\"ml-platform\","
		"\"example.com/cost-center\":\"4711\",\"karpenter.sh/nodepool\":\"gpu\"},\"annotations\":{\"node.alpha."
		"kubernetes.io/ttl\":\"0\",\"volumes.kubernetes.io/controller-managed-attach-detach\":\"true\","
		"\"nvidia.com/gpu-driver-upgrade-state\":\"upgrade-done\"}},\"spec\":{\"podCIDR\":\"10.244.17.0/24\","
		"\"podCIDRs\":[\"10.244.17.0/24\"],\"providerID\":\"aws:///eu-west-1a/i-0123456789abcdef0\",\"taints\":"
		"[{\"key\":\"nvidia.com/gpu\",\"value\":\"present\",\"effect\":\"NoSchedule\"},{\"key\":\"dedicated\","
		"\"value\":\"ml\",\"effect\":\"PreferNoSchedule\"}]},\"status\":{\"capacity\":{\"cpu\":\"96\","
		"\"memory\":"
		"\"1152Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"7680Gi\",\"hugepages-1Gi\":\"0\",\"hugepages-"
		"2Mi\":"
		"\"0\",\"nvidia.com/gpu\":\"8\"},\"allocatable\":{\"cpu\":\"95690m\",\"memory\":\"1140Gi\",\"pods\":"
		"\"110\",\"ephemeral-storage\":\"7068Gi\",\"hugepages-1Gi\":\"0\",\"hugepages-2Mi\":\"0\",\"nvidia.com/"
		"gpu\":\"8\"},\"conditions\":[{\"type\":\"MemoryPressure\",\"status\":\"False\",\"lastHeartbeatTime\":"
		"\"2026-12-02T14:59:00Z\",\"lastTransitionTime\":\"2026-11-01T08:01:00Z\",\"reason\":"
		"\"KubeletHasSufficientMemory\",\"message\":\"kubelet has sufficient memory available\"},{\"type\":"
		"\"DiskPressure\",\"status\":\"False\",\"lastHeartbeatTime\":\"2026-12-02T14:59:00Z\","
		"\"lastTransitionTime\":\"2026-11-01T08:01:00Z\",\"reason\":\"KubeletHasNoDiskPressure\",\"message\":"
		"\"kubelet has no disk "
		"pressure\"},{\"type\":\"PIDPressure\",\"status\":\"False\",\"lastHeartbeatTime\":"
		"\"2026-12-02T14:59:00Z\",\"lastTransitionTime\":\"2026-11-01T08:01:00Z\",\"reason\":"
		"\"KubeletHasSufficientPID\",\"message\":\"kubelet has sufficient PID available\"},{\"type\":\"Ready\","
		"\"status\":\"True\",\"lastHeartbeatTime\":\"2026-12-02T14:59:00Z\",\"lastTransitionTime\":\"2026-11-"
		"01T08:02:00Z\",\"reason\":\"KubeletReady\",\"message\":\"kubelet is posting ready status\"}],"
		"\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"10.0.17.23\"},{\"type\":\"Hostname\","
		"\"address\":"
		"\"%s\"},{\"type\":\"InternalDNS\",\"address\":\"ip-10-0-17-23.eu-west-1.compute.internal\"}],"
		"\"daemonEndpoints\":{\"kubeletEndpoint\":{\"Port\":10250}},\"nodeInfo\":{\"machineID\":"
		"\"ec2f1d7e4b9a4c2e8f0a1b2c3d4e5f60\",\"systemUUID\":\"ec2f1d7e-4b9a-4c2e-8f0a-1b2c3d4e5f60\","
		"\"bootID\":\"5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d\",\"kernelVersion\":\"6.8.0-1012-aws\",\"osImage\":"
		"\"Ubuntu 24.04.1 LTS\",\"containerRuntimeVersion\":\"containerd://2.1.4\",\"kubeletVersion\":"
		"\"v1.35.0\",\"kubeProxyVersion\":\"v1.35.0\",\"operatingSystem\":\"linux\",\"architecture\":\"amd64\"}"
		","
		"\"images\":[%s]}}",
		name, name, name, images);
}

/* The NVIDIA device plugin's DaemonSet, as it is applied (~1.1 KB). */
static const char DS[] =
	"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"nvidia-device-plugin\","
	"\"namespace\":\"kube-system\",\"uid\":\"3f1a2b3c-0002-4000-8000-000000000001\",\"generation\":3},\"spec\":{"
	"\"selector\":{\"matchLabels\":{\"name\":"
	"\"nvidia-device-plugin\"}},\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{"
	"\"maxUnavailable\":\"10%\"}},\"template\":{\"metadata\":{\"labels\":{\"name\":\"nvidia-device-plugin\"}},"
	"\"spec\":{\"priorityClassName\":\"system-node-critical\",\"nodeSelector\":{\"accelerator\":\"nvidia\"},"
	"\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":"
	"[{\"matchExpressions\":[{\"key\":\"node-type\",\"operator\":\"NotIn\",\"values\":[\"edge\",\"virtual\"]},"
	"{\"key\":\"kubernetes.io/arch\",\"operator\":\"In\",\"values\":[\"amd64\",\"arm64\"]}]}]}}},"
	"\"tolerations\":[{\"key\":\"nvidia.com/gpu\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"},"
	"{\"key\":\"CriticalAddonsOnly\",\"operator\":\"Exists\"}],\"containers\":[{\"name\":\"nvidia-device-plugin-"
	"ctr\",\"image\":\"nvcr.io/nvidia/k8s-device-plugin:v0.17.0\",\"resources\":{\"requests\":{\"cpu\":"
	"\"50m\",\"memory\":\"64Mi\"}},\"volumeMounts\":[{\"name\":\"device-plugin\",\"mountPath\":\"/var/lib/kubelet/"
	"device-plugins\"}]}],"
	"\"volumes\":[{\"name\":\"device-plugin\",\"hostPath\":{\"path\":\"/var/lib/kubelet/device-plugins\"}}]}}}}";

static const char TOLERATION[] = "{\"key\":\"nvidia.com/gpu\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}";
static const char TAINT[] = "{\"key\":\"nvidia.com/gpu\",\"value\":\"present\",\"effect\":\"NoSchedule\"}";

/* The node's pods: a DaemonSet's pod and four workload pods. */
static char *node_pods(const char *node)
{
	char *out = strdup("[");
	for (int i = 0; i < 5; i++) {
		char *p = fmt(
			"%s{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"train-%d\",\"namespace\":"
			"\"ml\","
			"\"uid\":\"5c2e0a11-0000-4000-8000-00000000000%d\",\"labels\":{\"app\":\"train\"}},\"spec\":{"
			"\"nodeName\":\"%s\",\"priority\":%d,\"tolerations\":[{\"key\":\"nvidia.com/gpu\",\"operator\":"
			"\"Exists\",\"effect\":\"NoSchedule\"}],\"containers\":[{\"name\":\"main\",\"image\":"
			"\"registry."
			"example.com/ml/train:v3\",\"ports\":[{\"containerPort\":%d,\"hostPort\":%d}],\"resources\":{"
			"\"requests\":{\"cpu\":\"%d\",\"memory\":\"%dGi\",\"nvidia.com/gpu\":\"%d\"},\"limits\":{"
			"\"nvidia.com/gpu\":\"%d\"}}}]},\"status\":{\"phase\":\"Running\"}}",
			i ? "," : "", i, i, node, i * 100, 9000 + i, 9000 + i, 8 + i * 4, 64 + i * 32, 1 + i % 2,
			1 + i % 2);
		char *o = fmt("%s%s", out, p);
		free(out);
		free(p);
		out = o;
	}
	char *o = fmt("%s]", out);
	free(out);
	return o;
}

/* ---- timing ---------------------------------------------------------------------------------- */

typedef void (*op)(void *);

/* ns per call of fn: the best of reps runs of a loop sized to take ~2 ms. */
static double ns_per_call(op fn, void *ctx, int reps)
{
	long n = 1;
	for (;;) { /* calibrate */
		double t = now_s();
		for (long i = 0; i < n; i++)
			fn(ctx);
		t = now_s() - t;
		if (t > 0.002 || n > (1L << 30))
			break;
		n *= 2;
	}
	double best = 1e30;
	for (int r = 0; r < reps; r++) {
		double t = now_s();
		for (long i = 0; i < n; i++)
			fn(ctx);
		t = now_s() - t;
		if (t < best)
			best = t;
	}
	return best * 1e9 / (double)n;
}

/* A toleration and a taint as C strings, for ToleratesTaint written inline in C. */
typedef struct ctol {
	const char *key, *op, *value, *effect;
} ctol;
typedef struct ctaint {
	const char *key, *value, *effect;
} ctaint;

typedef struct inputs {
	char *node, *node_taints, *ds_tolerations, *tmpl, *affinity, *pods, *pod, *objects;
	size_t node_n;
	ds_object *o_ds, *o_node, *o_tol, *o_taint, *o_taints, *o_tols, *o_tmpl, *o_aff, *o_pods, *o_pod, *o_objects;
	ds_cluster *c;  /* the node, the DaemonSet and the pods */
	ctol *ctol;     /* the toleration and the taint as C strings of their own (not literals the */
	ctaint *ctaint; /* compiler could compare at build time) */
	ds_time now;
	int sink;
} inputs;

#define CALL(expr, what)                                                                                               \
	do {                                                                                                           \
		ds_error err_;                                                                                         \
		if ((expr) < 0)                                                                                        \
			fail(what, &err_);                                                                             \
	} while (0)
/* The ds_error of CALL, by name. */
#define E (&err_)

static void jansson(const char *const *texts, int n)
{
	for (int i = 0; i < n; i++) {
		json_error_t je;
		json_t *v = json_loadb(texts[i], strlen(texts[i]), 0, &je);
		if (!v) {
			fprintf(stderr, "bench (pure): bad JSON: %s\n", je.text);
			exit(1);
		}
		json_decref(v);
	}
}

/* Each function's three forms (text, objects, jansson on its texts) and its snapshot path. */
static void t_tol_text(void *a)
{
	inputs *in = a;
	CALL(ds_toleration_tolerates_taint(TOLERATION, sizeof(TOLERATION) - 1, TAINT, sizeof(TAINT) - 1, NULL,
					   &in->sink, E),
	     "tolerates_taint");
}
static void t_tol_obj(void *a)
{
	inputs *in = a;
	CALL(ds_toleration_tolerates_taint_obj(in->o_tol, in->o_taint, NULL, &in->sink, E), "tolerates_taint_obj");
}
static void t_tol_json(void *a)
{
	(void)a;
	const char *t[] = {TOLERATION, TAINT};
	jansson(t, 2);
}

/* ToleratesTaint written inline in C, on C strings: the comparison itself. */
__attribute__((noinline)) static int c_tolerates(const ctol *t, const ctaint *x)
{
	if (*t->effect && strcmp(t->effect, x->effect) != 0)
		return 0;
	if (*t->key && strcmp(t->key, x->key) != 0)
		return 0;
	if (strcmp(t->op, "Exists") == 0)
		return 1;
	return (!*t->op || strcmp(t->op, "Equal") == 0) && strcmp(t->value, x->value) == 0;
}
static void t_tol_c(void *a)
{
	inputs *in = a;
	in->sink += c_tolerates(in->ctol, in->ctaint);
}

static void t_find_text(void *a)
{
	inputs *in = a;
	CALL(ds_taints_find_untolerated2(in->node_taints, strlen(in->node_taints), in->ds_tolerations,
					 strlen(in->ds_tolerations), NULL, NULL, &in->sink, NULL, E),
	     "find_untolerated");
}
static void t_find_obj(void *a)
{
	inputs *in = a;
	CALL(ds_taints_find_untolerated_obj(in->o_taints, in->o_tols, NULL, NULL, &in->sink, NULL, E),
	     "find_untolerated_obj");
}
static void t_find_json(void *a)
{
	inputs *in = a;
	const char *t[] = {in->node_taints, in->ds_tolerations};
	jansson(t, 2);
}

static void t_aff_text(void *a)
{
	inputs *in = a;
	CALL(ds_pod_required_node_affinity_match2(in->tmpl, strlen(in->tmpl), in->node, in->node_n, NULL, &in->sink, E),
	     "affinity");
}
static void t_aff_obj(void *a)
{
	inputs *in = a;
	CALL(ds_pod_required_node_affinity_match_obj(in->o_tmpl, in->o_node, NULL, &in->sink, E), "affinity_obj");
}
static void t_aff_json(void *a)
{
	inputs *in = a;
	const char *t[] = {in->tmpl, in->node};
	jansson(t, 2);
}

static void t_run_text(void *a)
{
	inputs *in = a;
	CALL(ds_daemonset_node_should_run(DS, sizeof(DS) - 1, in->node, in->node_n, NULL, &in->sink, NULL, NULL, E),
	     "should_run");
}
static void t_run_obj(void *a)
{
	inputs *in = a;
	CALL(ds_daemonset_node_should_run_obj(in->o_ds, in->o_node, NULL, &in->sink, NULL, NULL, E), "should_run_obj");
}
static void t_run_snap(void *a)
{
	inputs *in = a;
	CALL(ds_daemonset_should_run(in->c, "kube-system", "nvidia-device-plugin", "gpu-node-0", NULL, &in->sink, NULL,
				     NULL, E),
	     "should_run (snapshot)");
}
static void t_ds_node_json(void *a)
{
	inputs *in = a;
	const char *t[] = {DS, in->node};
	jansson(t, 2);
}

static void t_pod_text(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_daemonset_new_pod(DS, sizeof(DS) - 1, "gpu-node-0", NULL, NULL, &out, E), "new_pod");
	ds_free(out);
	(void)in;
}
static void t_pod_obj(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_daemonset_new_pod_obj(in->o_ds, "gpu-node-0", NULL, NULL, &out, E), "new_pod_obj");
	ds_free(out);
}
static void t_pod_snap(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_daemonset_pod(in->c, "kube-system", "nvidia-device-plugin", "gpu-node-0", NULL, &out, E),
	     "daemonset_pod (snapshot)");
	ds_free(out);
}
/* NewPod as the controller calls it, with the hash of the current revision given (upstream's
 * CreatePodTemplate takes it): no template hash to compute */
static void t_podh_text(void *a)
{
	char *out;
	CALL(ds_daemonset_new_pod(DS, sizeof(DS) - 1, "gpu-node-0", "5d8c6b7f9", NULL, &out, E), "new_pod (hash)");
	ds_free(out);
	(void)a;
}
static void t_podh_obj(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_daemonset_new_pod_obj(in->o_ds, "gpu-node-0", "5d8c6b7f9", NULL, &out, E), "new_pod_obj (hash)");
	ds_free(out);
}
static void t_ds_json(void *a)
{
	(void)a;
	const char *t[] = {DS};
	jansson(t, 1);
}

static void t_tols_text(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_podspec_add_daemon_tolerations2(in->tmpl, strlen(in->tmpl), NULL, &out, E), "add_tolerations");
	ds_free(out);
}
static void t_tols_obj(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_podspec_add_daemon_tolerations_obj(in->o_tmpl, NULL, &out, E), "add_tolerations_obj");
	ds_free(out);
}
static void t_tmpl_json(void *a)
{
	inputs *in = a;
	const char *t[] = {in->tmpl};
	jansson(t, 1);
}

static void t_aff2_text(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_affinity_replace_node_name2(in->affinity, strlen(in->affinity), "gpu-node-0", NULL, &out, E),
	     "replace_affinity");
	ds_free(out);
}
static void t_aff2_obj(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_affinity_replace_node_name_obj(in->o_aff, "gpu-node-0", NULL, &out, E), "replace_affinity_obj");
	ds_free(out);
}
static void t_aff2_json(void *a)
{
	inputs *in = a;
	const char *t[] = {in->affinity};
	jansson(t, 1);
}

static void t_roll_text(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_daemonset_rolling_update(DS, sizeof(DS) - 1, in->objects, strlen(in->objects), "h1", in->now, NULL,
					 &out, E),
	     "rolling_update");
	ds_free(out);
}
static void t_roll_obj(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_daemonset_rolling_update_obj(in->o_ds, in->o_objects, "h1", in->now, NULL, &out, E),
	     "rolling_update_obj");
	ds_free(out);
}
static void t_roll_json(void *a)
{
	inputs *in = a;
	const char *t[] = {DS, in->objects};
	jansson(t, 2);
}

static void t_sched_text(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_scheduler_filter(in->pod, strlen(in->pod), in->node, in->node_n, in->pods, strlen(in->pods), NULL, &out,
				 E),
	     "scheduler_filter");
	ds_free(out);
}
static void t_sched_obj(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_scheduler_filter_obj(in->o_pod, in->o_node, in->o_pods, NULL, &out, E), "scheduler_filter_obj");
	ds_free(out);
}
static void t_sched_snap(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_pod_fit(in->c, in->pod, strlen(in->pod), "gpu-node-0", NULL, &out, E), "pod_fit (snapshot)");
	ds_free(out);
}
static void t_sched_json(void *a)
{
	inputs *in = a;
	const char *t[] = {in->pod, in->node, in->pods};
	jansson(t, 3);
}

static void t_vict_text(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_preemption_select_victims(in->pod, strlen(in->pod), in->node, in->node_n, in->pods, strlen(in->pods),
					  NULL, &out, E),
	     "select_victims");
	ds_free(out);
}
static void t_vict_obj(void *a)
{
	inputs *in = a;
	char *out;
	CALL(ds_preemption_select_victims_obj(in->o_pod, in->o_node, in->o_pods, NULL, &out, E), "select_victims_obj");
	ds_free(out);
}

/* ---- one DaemonSet against many nodes ---------------------------------------------------------- */

typedef struct many {
	ds_object *ds, **nodes;
	ds_should_run_result *res;
	size_t n;
	ds_cluster *c;
} many;

static void t_batch(void *a)
{
	many *m = a;
	CALL(ds_daemonset_node_should_run_nodes(m->ds, (const ds_object *const *)m->nodes, m->n, NULL, m->res, E),
	     "should_run_nodes");
}
static void t_pass(void *a)
{
	many *m = a;
	ds_status st = DS_STATUS_INIT;
	CALL(ds_daemonset_status(m->c, "kube-system", "nvidia-device-plugin", 0, NULL, &st, E), "status pass");
}

/* ---- validation ------------------------------------------------------------------------------- */

/* Seconds to validate a DaemonSet with n containers. */
static double validate_containers(int n)
{
	size_t cap = 512 + (size_t)n * 64, len = 0;
	char *b = malloc(cap);
	len += (size_t)snprintf(b, cap,
				"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"many\","
				"\"namespace\":\"default\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},"
				"\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":[");
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(b + len, cap - len, "%s{\"name\":\"c%d\",\"image\":\"img\"}", i ? "," : "", i);
	len += (size_t)snprintf(b + len, cap - len, "]}}}}");
	double best = 1e30;
	for (int r = 0; r < 5; r++) { /* as many runs at both sizes: the ratio compares like with like */
		char *out;
		ds_error err;
		double t = now_s();
		if (ds_daemonset_validate(b, len, 0, NULL, &out, &err) < 0)
			fail("validate", &err);
		t = now_s() - t;
		ds_free(out);
		if (t < best)
			best = t;
	}
	free(b);
	return best;
}

/* ---- ds_objects_parse's memory ---------------------------------------------------------------- */

/* The probe (bench -O N, in a process of its own so that its peak resident set is its own): a NodeList
 * of n small nodes (~220 B each, the 10^6-node list is 223 MB) built in one allocation of its
 * size, then ds_objects_parse. Prints the input's bytes; the parent reads the peak from wait4. */
int bench_objects_parse_probe(long n)
{
	size_t cap = 64 + (size_t)n * 256, len = 0;
	char *b = malloc(cap);
	if (!b)
		return 1;
	len += (size_t)snprintf(b, cap, "{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"items\":[");
	for (long i = 0; i < n; i++)
		len += (size_t)snprintf(
			b + len, cap - len,
			"%s{\"metadata\":{\"name\":\"node-%07ld\",\"labels\":{\"kubernetes.io/hostname\":"
			"\"node-%07ld\",\"zone\":\"z%ld\"}},\"spec\":{\"podCIDR\":\"10.%ld.%ld.0/24\"},"
			"\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"16Gi\",\"pods\":\"110\"}}}",
			i ? "," : "", i, i, i % 3, (i >> 8) & 255, i & 255);
	len += (size_t)snprintf(b + len, cap - len, "]}");
	ds_options *opts;
	ds_error err;
	char *out;
	/* the default limit (256 MiB) would refuse this input: raise it as a user would */
	if (ds_options_create(&opts, &err) < 0 || ds_options_set(opts, "maxDocumentBytes", "1073741824", &err) < 0 ||
	    ds_objects_parse(b, len, opts, &out, &err) < 0)
		fail("objects_parse", &err);
	printf("%zu %zu\n", len, strlen(out));
	ds_free(out);
	ds_options_free(opts);
	free(b);
	return 0;
}

/* Run the probe on n nodes: {inputBytes, outputBytes, peakResidentBytes, ratio}. */
static json_t *objects_parse_memory(long n)
{
	int fds[2];
	if (pipe(fds) < 0)
		return json_null();
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		char arg[32];
		snprintf(arg, sizeof(arg), "%ld", n);
		execl("/proc/self/exe", "bench", "-O", arg, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	char buf[128] = "";
	ssize_t got = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	int status;
	struct rusage ru;
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || got <= 0)
		return json_null();
	unsigned long long in = 0, out = 0;
	if (sscanf(buf, "%llu %llu", &in, &out) != 2)
		return json_null();
	double peak = (double)ru.ru_maxrss * 1024.0;
	return json_pack("{s:I, s:I, s:I, s:f, s:f}", "nodes", (json_int_t)n, "inputBytes", (json_int_t)in,
			 "outputBytes", (json_int_t)out, "peakResidentBytes", peak, "ratio", peak / (double)in);
}

/* ---- the section ------------------------------------------------------------------------------- */

static ds_object *parse(const char *type, const char *text)
{
	ds_object *o;
	ds_error err;
	if (ds_object_parse(type, text, strlen(text), NULL, &o, &err) < 0)
		fail(type, &err);
	return o;
}

/* member path of a JSON text, dumped (new string) */
static char *member(const char *text, const char *a, const char *b, const char *c)
{
	json_t *v = json_loads(text, 0, NULL);
	json_t *m = json_object_get(v, a);
	if (b)
		m = json_object_get(m, b);
	if (c)
		m = json_object_get(m, c);
	char *s = json_dumps(m, JSON_COMPACT | JSON_ENCODE_ANY);
	json_decref(v);
	return s;
}

typedef struct row {
	const char *name;
	op text, obj, snap, json;
	const char *snap_what;
} row;

/* The inputs of every row, parsed and loaded. */
static void inputs_init(inputs *pin)
{
	inputs in;
	memset(&in, 0, sizeof(in));
	ds_time_parse("2026-12-02T15:00:00Z", &in.now, NULL);
	in.node = gpu_node("gpu-node-0");
	in.node_n = strlen(in.node);
	in.node_taints = member(in.node, "spec", "taints", NULL);
	in.tmpl = member(DS, "spec", "template", NULL);
	in.ds_tolerations = member(in.tmpl, "spec", "tolerations", NULL);
	in.affinity = member(in.tmpl, "spec", "affinity", NULL);
	in.pods = node_pods("gpu-node-0");
	char *out;
	ds_error err;
	if (ds_daemonset_new_pod(DS, sizeof(DS) - 1, "gpu-node-0", NULL, NULL, &out, &err) < 0)
		fail("new_pod", &err);
	in.pod = strdup(out);
	ds_free(out);
	in.objects = fmt("[%s,%.*s]", in.node, (int)strlen(in.pods) - 2, in.pods + 1);
	static ctol ct;
	static ctaint cx;
	ct = (ctol){strdup("nvidia.com/gpu"), strdup("Exists"), strdup(""), strdup("NoSchedule")};
	cx = (ctaint){strdup("nvidia.com/gpu"), strdup("present"), strdup("NoSchedule")};
	in.ctol = &ct;
	in.ctaint = &cx;
	in.o_ds = parse("DaemonSet", DS);
	in.o_node = parse("Node", in.node);
	in.o_tol = parse("Toleration", TOLERATION);
	in.o_taint = parse("Taint", TAINT);
	in.o_taints = parse("[]Taint", in.node_taints);
	in.o_tols = parse("[]Toleration", in.ds_tolerations);
	in.o_tmpl = parse("Pod", in.tmpl);
	in.o_aff = parse("Affinity", in.affinity);
	in.o_pods = parse("List", in.pods);
	in.o_pod = parse("Pod", in.pod);
	in.o_objects = parse("List", in.objects);
	char *all = fmt("{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[%s,%s,%.*s]}", DS, in.node,
			(int)strlen(in.pods) - 2, in.pods + 1);
	if (ds_cluster_new(NULL, &in.c, &err) < 0 || ds_cluster_load(in.c, all, strlen(all), NULL, &err) < 0)
		fail("snapshot", &err);
	free(all);
	*pin = in;
}

static const row rows[] = {
	{"tolerates_taint", t_tol_text, t_tol_obj, t_tol_c, t_tol_json, "inline C"},
	{"find_untolerated", t_find_text, t_find_obj, NULL, t_find_json, NULL},
	{"required_node_affinity_match", t_aff_text, t_aff_obj, t_run_snap, t_aff_json, "should_run, 1 node"},
	{"node_should_run", t_run_text, t_run_obj, t_run_snap, t_ds_node_json, "should_run, 1 node"},
	{"new_pod", t_pod_text, t_pod_obj, t_pod_snap, t_ds_json, "ds_daemonset_pod"},
	{"new_pod, hash given", t_podh_text, t_podh_obj, NULL, t_ds_json, NULL},
	{"add_daemon_tolerations", t_tols_text, t_tols_obj, NULL, t_tmpl_json, NULL},
	{"replace_node_name_affinity", t_aff2_text, t_aff2_obj, NULL, t_aff2_json, NULL},
	{"rolling_update", t_roll_text, t_roll_obj, NULL, t_roll_json, NULL},
	{"scheduler_filter (5 pods)", t_sched_text, t_sched_obj, t_sched_snap, t_sched_json, "ds_pod_fit"},
	{"select_victims (5 pods)", t_vict_text, t_vict_obj, NULL, t_sched_json, NULL},
};

static void inputs_free(inputs *in)
{
	ds_object *objs[] = {in->o_ds,   in->o_node, in->o_tol,  in->o_taint, in->o_taints, in->o_tols,
			     in->o_tmpl, in->o_aff,  in->o_pods, in->o_pod,   in->o_objects};
	for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++)
		ds_object_free(objs[i]);
	ds_cluster_free(in->c);
	free(in->node);
	free(in->node_taints);
	free(in->ds_tolerations);
	free(in->tmpl);
	free(in->affinity);
	free(in->pods);
	free(in->pod);
	free(in->objects);
}

int bench_pure_loop(const char *name, double seconds)
{
	size_t len = strcspn(name, ":");
	const char *form = name[len] ? name + len + 1 : "text";
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const row *r = &rows[i];
		if (strncmp(r->name, name, len) != 0 || (r->name[len] && r->name[len] != ' '))
			continue;
		op fn = strcmp(form, "objects") == 0   ? r->obj
			: strcmp(form, "jansson") == 0 ? r->json
			: strcmp(form, "other") == 0   ? r->snap
						       : r->text;
		if (!fn)
			break;
		inputs in;
		inputs_init(&in);
		long n = 0;
		double t0 = now_s(), t;
		do {
			for (int k = 0; k < 100; k++)
				fn(&in);
			n += 100;
		} while ((t = now_s() - t0) < seconds);
		fprintf(stderr, "bench: %s (%s): %ld calls, %.1f ns/call\n", r->name, form, n, t * 1e9 / (double)n);
		inputs_free(&in);
		return 0;
	}
	fprintf(stderr, "bench: -L %s: no such row or form (text, objects, jansson, other)\n", name);
	return 2;
}

json_t *bench_pure(int quiet, const char *inputs_file)
{
	inputs in;
	inputs_init(&in);
	if (!quiet)
		fprintf(stderr,
			"bench: pure functions (node %zu B, DaemonSet %zu B, toleration %zu B, taint %zu B)...\n",
			in.node_n, sizeof(DS) - 1, sizeof(TOLERATION) - 1, sizeof(TAINT) - 1);
	ds_error err;
	json_t *fns = json_array();
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const row *r = &rows[i];
		json_t *o =
			json_pack("{s:s, s:f, s:f, s:f}", "function", r->name, "textNs", ns_per_call(r->text, &in, 9),
				  "objNs", ns_per_call(r->obj, &in, 15), "janssonNs", ns_per_call(r->json, &in, 9));
		if (r->snap) {
			json_object_set_new(o, "otherNs", json_real(ns_per_call(r->snap, &in, 15)));
			json_object_set_new(o, "other", json_string(r->snap_what));
		}
		json_array_append_new(fns, o);
	}

	/* one DaemonSet, 10,000 nodes: the batch on objects (each node parsed alone: a table of strings
	 * of its own) and the snapshot's status pass */
	many m;
	m.n = getenv("BENCH_BATCH_NODES") ? (size_t)atol(getenv("BENCH_BATCH_NODES")) : 10000;
	m.ds = in.o_ds;
	m.nodes = calloc(m.n, sizeof(*m.nodes));
	m.res = calloc(m.n, sizeof(*m.res));
	m.res[0].size = sizeof(m.res[0]);
	char *list = strdup("{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[");
	size_t ll = strlen(list), lc = ll + 1;
	for (size_t i = 0; i < m.n; i++) {
		char name[32];
		snprintf(name, sizeof(name), "gpu-node-%zu", i);
		char *t = gpu_node(name);
		m.nodes[i] = parse("Node", t);
		size_t tl = strlen(t);
		if (ll + tl + 8 > lc)
			list = realloc(list, lc = (ll + tl + 8) * 2);
		ll += (size_t)sprintf(list + ll, "%s%s", i ? "," : "", t);
		free(t);
	}
	list = realloc(list, ll + sizeof(DS) + 8);
	sprintf(list + ll, ",%s]}", DS);
	if (ds_cluster_new(NULL, &m.c, &err) < 0 || ds_cluster_load(m.c, list, strlen(list), NULL, &err) < 0)
		fail("snapshot of 10,000 nodes", &err);
	free(list);
	double batch = ns_per_call(t_batch, &m, 9) / (double)m.n, pass = ns_per_call(t_pass, &m, 9) / (double)m.n;
	size_t placed = 0;
	for (size_t i = 0; i < m.n; i++)
		placed += m.res[i].should_run;
	json_t *batch_o = json_pack("{s:I, s:I, s:f, s:f}", "nodes", (json_int_t)m.n, "placed", (json_int_t)placed,
				    "batchNsPerNode", batch, "statusPassNsPerNode", pass);
	for (size_t i = 0; i < m.n; i++)
		ds_object_free(m.nodes[i]);
	free(m.nodes);
	free(m.res);
	ds_cluster_free(m.c);

	double v10k = validate_containers(10000), v100k = validate_containers(100000);
	long parse_nodes = getenv("BENCH_PARSE_NODES") ? atol(getenv("BENCH_PARSE_NODES")) : 1000000;
	if (!quiet)
		fprintf(stderr, "bench: ds_objects_parse of a %ld-node list...\n", parse_nodes);
	json_t *parse_mem = objects_parse_memory(parse_nodes);
	json_t *res = json_pack("{s:{s:I, s:I, s:I, s:I}, s:o, s:o, s:{s:f, s:f, s:f}}", "bytes", "node",
				(json_int_t)in.node_n, "daemonset", (json_int_t)(sizeof(DS) - 1), "toleration",
				(json_int_t)(sizeof(TOLERATION) - 1), "taint", (json_int_t)(sizeof(TAINT) - 1),
				"functions", fns, "batch", batch_o, "validation", "containers10kSeconds", v10k,
				"containers100kSeconds", v100k, "ratio", v100k / v10k);
	json_object_set_new(res, "objectsParse", parse_mem);
	if (inputs_file) { /* for tests/bench/pure.py */
		json_t *doc = json_pack("{s:s, s:s, s:s, s:s}", "node", in.node, "daemonset", DS, "toleration",
					TOLERATION, "taint", TAINT);
		json_dump_file(doc, inputs_file, JSON_COMPACT);
		json_decref(doc);
	}
	inputs_free(&in);
	return res;
}

static double num(const json_t *o, const char *k) { return json_real_value(json_object_get(o, k)); }

void bench_pure_print(const json_t *res)
{
	const json_t *b = json_object_get(res, "bytes");
	printf("\nPure functions (ns per call; a %lld B GPU node, a %lld B DaemonSet, a %lld B toleration and a %lld B "
	       "taint):\n",
	       (long long)json_integer_value(json_object_get(b, "node")),
	       (long long)json_integer_value(json_object_get(b, "daemonset")),
	       (long long)json_integer_value(json_object_get(b, "toleration")),
	       (long long)json_integer_value(json_object_get(b, "taint")));
	printf("%-29s %10s %10s %10s %7s %7s %10s  %s\n", "FUNCTION", "TEXT", "OBJECTS", "JANSSON", "T/J", "T/O",
	       "OTHER", "(OTHER IS)");
	size_t i;
	const json_t *f;
	json_array_foreach(json_object_get(res, "functions"), i, f)
	{
		double t = num(f, "textNs"), o = num(f, "objNs"), j = num(f, "janssonNs");
		printf("%-29s %10.1f %10.1f %10.1f %7.2f %7.0f", json_string_value(json_object_get(f, "function")), t,
		       o, j, t / j, t / o);
		if (json_object_get(f, "otherNs"))
			printf(" %10.1f  %s (objects / it: %.2f)", num(f, "otherNs"),
			       json_string_value(json_object_get(f, "other")), o / num(f, "otherNs"));
		printf("\n");
	}
	const json_t *bt = json_object_get(res, "batch");
	printf("One DaemonSet against %lld nodes (%lld placed): the batch on objects %.1f ns/node, the snapshot's "
	       "status pass %.1f ns/node (%.2fx)\n",
	       (long long)json_integer_value(json_object_get(bt, "nodes")),
	       (long long)json_integer_value(json_object_get(bt, "placed")), num(bt, "batchNsPerNode"),
	       num(bt, "statusPassNsPerNode"), num(bt, "batchNsPerNode") / num(bt, "statusPassNsPerNode"));
	const json_t *v = json_object_get(res, "validation");
	printf("Validation: 10,000 containers %.3f s, 100,000 %.3f s (%.1fx)\n", num(v, "containers10kSeconds"),
	       num(v, "containers100kSeconds"), num(v, "ratio"));
	const json_t *op = json_object_get(res, "objectsParse");
	if (json_is_object(op))
		printf("ds_objects_parse of a %lld-node NodeList: %.1f MB in, %.1f MB out, peak resident "
		       "%.1f MB (%.2fx the input)\n",
		       (long long)json_integer_value(json_object_get(op, "nodes")),
		       (double)json_integer_value(json_object_get(op, "inputBytes")) / 1e6,
		       (double)json_integer_value(json_object_get(op, "outputBytes")) / 1e6,
		       num(op, "peakResidentBytes") / 1e6, num(op, "ratio"));
	else
		printf("ds_objects_parse memory probe: failed (run bench -O N alone to see why)\n");
	printf("(T/J: text / jansson parsing the same texts; T/O: text / objects; OTHER: the snapshot path, or for\n"
	       " tolerates_taint the comparison written inline in C)\n");
}
