/* The synthetic cluster of make bench: nodes, pods and DaemonSets shaped like real ones (bench.c, ingest.c). */
#include "gen.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void put(buf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
		if (k >= 0 && (size_t)k < b->cap - b->n) {
			b->n += (size_t)k;
			return;
		}
		b->cap = b->cap ? b->cap * 2 : 1 << 20;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
}

unsigned rnd(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16) & 0x7fff;
}

static const char *const zones[] = {"eu-west-1a", "eu-west-1b", "eu-west-1c"};

void gen_node(buf *b, int i, unsigned *seed)
{
	char name[32];
	snprintf(name, sizeof(name), "node-%06d", i);
	int gpu = i % 10 == 0;
	put(b,
	    "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"%s\",\"uid\":\"6b7c1d0e-%04x-4000-8000-%"
	    "012d\","
	    "\"resourceVersion\":\"%d\",\"creationTimestamp\":\"2026-11-01T08:00:00Z\",\"labels\":{",
	    name, i & 0xffff, i, 100000 + i);
	put(b,
	    "\"kubernetes.io/hostname\":\"%s\",\"kubernetes.io/os\":\"linux\",\"kubernetes.io/arch\":\"amd64\","
	    "\"topology.kubernetes.io/zone\":\"%s\",\"topology.kubernetes.io/region\":\"eu-west-1\","
	    "\"node.kubernetes.io/instance-type\":\"m6i.%dxlarge\",\"node-type\":\"%s\"",
	    name, zones[i % 3], 1 << (i % 4), i % 7 == 0 ? "edge" : "standard");
	if (gpu)
		put(b, ",\"accelerator\":\"nvidia\"");
	for (int l = 0; l < 18 - gpu; l++)
		put(b, ",\"example.com/team-label-%02d\":\"value-%d\"", l, (i + l) % 5);
	put(b,
	    "},\"annotations\":{\"node.alpha.kubernetes.io/ttl\":\"0\",\"volumes.kubernetes.io/"
	    "controller-managed-attach-detach\":\"true\"}},"
	    "\"spec\":{\"podCIDR\":\"10.%d.%d.0/24\",\"providerID\":\"aws:///eu-west-1a/i-0%015d\"",
	    (i >> 8) & 255, i & 255, i);
	int taints = (int)(rnd(seed) % 4);
	if (gpu)
		taints = taints ? taints : 1;
	if (taints) {
		put(b, ",\"taints\":[");
		static const char *const tk[] = {"nvidia.com/gpu", "dedicated", "node.kubernetes.io/memory-pressure"};
		static const char *const te[] = {"NoSchedule", "PreferNoSchedule", "NoSchedule"};
		for (int t = 0; t < taints; t++)
			put(b, "%s{\"key\":\"%s\",\"value\":\"v%d\",\"effect\":\"%s\"}", t ? "," : "", tk[t], t, te[t]);
		put(b, "]");
	}
	put(b,
	    "},\"status\":{\"capacity\":{\"cpu\":\"16\",\"memory\":\"64Gi\",\"pods\":\"110\",\"ephemeral-storage\":"
	    "\"200Gi\"%s},"
	    "\"allocatable\":{\"cpu\":\"15800m\",\"memory\":\"62Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"190Gi\"%"
	    "s},\"conditions\":[",
	    gpu ? ",\"nvidia.com/gpu\":\"4\"" : "", gpu ? ",\"nvidia.com/gpu\":\"4\"" : "");
	static const char *const conds[] = {"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"};
	for (int c = 0; c < 4; c++)
		put(b,
		    "%s{\"type\":\"%s\",\"status\":\"%s\",\"lastHeartbeatTime\":\"2026-12-02T14:59:00Z\","
		    "\"lastTransitionTime\":\"2026-11-01T08:01:00Z\",\"reason\":\"Kubelet%s\",\"message\":\"kubelet "
		    "has no %s\"}",
		    c ? "," : "", conds[c], c == 3 ? "True" : "False", conds[c], conds[c]);
	put(b,
	    "],\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"10.0.%d.%d\"},{\"type\":\"Hostname\",\"address\":"
	    "\"%s\"}],"
	    "\"nodeInfo\":{\"kubeletVersion\":\"v1.35.0\",\"containerRuntimeVersion\":\"containerd://2.1.4\","
	    "\"kernelVersion\":\"6.8.0-1012-aws\",\"osImage\":\"Ubuntu 24.04.1 "
	    "LTS\",\"architecture\":\"amd64\"},\"images\":[",
	    (i >> 8) & 255, i & 255, name);
	for (int m = 0; m < 40; m++)
		put(b,
		    "%s{\"names\":[\"registry.example.com/platform/image-%02d@sha256:%064d\",\"registry.example.com/"
		    "platform/image-%02d:v1.%d.%d\"],"
		    "\"sizeBytes\":%u}",
		    m ? "," : "", m, m * 7919 + i, m, m % 9, (m * 3) % 11, 10000000u + rnd(seed) * 1000u);
	put(b, "]}}");
}

const char *const ds_names[4] = {"logs", "gpu-plugin", "netd", "monitor"};
const char *const ds_hash_new[4] = {"7c9d8b6f54", "5b8f9c7d46", "6d4f8c7b92", "9b5d7c6f48"};
const char *const ds_hash_old[4] = {"4c8f9d7b65", "2d7f8c9b54", "8f6d5c7b49", "5c9f8d6b72"};

/* Which DaemonSets run on node i (mirrors their selectors below). */
int ds_on_node(int d, int i)
{
	switch (d) {
	case 0: return 1;
	case 1: return i % 10 == 0;
	case 2: return 1;
	default: return i % 7 != 0; /* node-type edge is excluded by the NotIn term */
	}
}

void gen_pod(buf *b, int node, int d, int app) { gen_pod_k(b, node, d, app, 0); }

void gen_pod_k(buf *b, int node, int d, int app, int k)
{
	char name[64], nodename[32];
	snprintf(nodename, sizeof(nodename), "node-%06d", node);
	if (app && k)
		snprintf(name, sizeof(name), "web-%06d-%d", node, k);
	else if (app)
		snprintf(name, sizeof(name), "web-%06d", node);
	else
		snprintf(name, sizeof(name), "%s-%06d", ds_names[d], node);
	int old = node % 2;
	put(b,
	    "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"%s\",\"uid\":"
	    "\"5c2e0a11-%04x-4%03d-8000-%012d\","
	    "\"resourceVersion\":\"%d\",\"creationTimestamp\":\"2026-12-01T09:0%d:00Z\",\"labels\":{",
	    name, app ? "shop" : "kube-system", d, app + k, node, 200000 + node, d);
	if (app)
		put(b, "\"app\":\"web\",\"pod-template-hash\":\"6f7d9c8b5\",\"tier\":\"frontend\"},\"ownerReferences\":"
		       "[{\"apiVersion\":\"apps/v1\","
		       "\"kind\":\"ReplicaSet\",\"name\":\"web-6f7d9c8b5\",\"uid\":\"7d1e2f30-0005-4000-8000-"
		       "000000000001\",\"controller\":true,"
		       "\"blockOwnerDeletion\":true}]");
	else
		put(b,
		    "\"app\":\"%s\",\"controller-revision-hash\":\"%s\",\"pod-template-generation\":\"%d\"},"
		    "\"ownerReferences\":"
		    "[{\"apiVersion\":\"apps/"
		    "v1\",\"kind\":\"DaemonSet\",\"name\":\"%s\",\"uid\":\"3f1a2b3c-0002-4000-8000-00000000000%d\","
		    "\"controller\":true,\"blockOwnerDeletion\":true}]",
		    ds_names[d], old ? ds_hash_old[d] : ds_hash_new[d], old ? 1 : 2, ds_names[d], d);
	put(b,
	    ",\"annotations\":{\"kubectl.kubernetes.io/default-container\":\"main\",\"prometheus.io/scrape\":\"true\","
	    "\"prometheus.io/port\":\"9102\"}},\"spec\":{\"nodeName\":\"%s\",\"serviceAccountName\":\"default\","
	    "\"terminationGracePeriodSeconds\":30,\"dnsPolicy\":\"ClusterFirst\",\"restartPolicy\":\"Always\","
	    "\"schedulerName\":\"default-scheduler\",\"priority\":%d,\"containers\":[{\"name\":\"main\",\"image\":"
	    "\"registry.example.com/platform/%s:v1.%d\",\"args\":[\"--log-level=info\",\"--metrics-addr=:9102\"],"
	    "\"env\":[{\"name\":\"NODE_NAME\",\"valueFrom\":{\"fieldRef\":{\"apiVersion\":\"v1\",\"fieldPath\":\"spec."
	    "nodeName\"}}},"
	    "{\"name\":\"POD_IP\",\"valueFrom\":{\"fieldRef\":{\"apiVersion\":\"v1\",\"fieldPath\":\"status.podIP\"}}}]"
	    ","
	    "\"ports\":[{\"name\":\"metrics\",\"containerPort\":9102,\"protocol\":\"TCP\"}],"
	    "\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"128Mi\"},\"limits\":{\"memory\":\"256Mi\"}},"
	    "\"volumeMounts\":[{\"name\":\"kube-api-access\",\"readOnly\":true,\"mountPath\":\"/var/run/secrets/"
	    "kubernetes.io/serviceaccount\"}],"
	    "\"terminationMessagePath\":\"/dev/"
	    "termination-log\",\"terminationMessagePolicy\":\"File\",\"imagePullPolicy\":\"IfNotPresent\"}],",
	    nodename, app ? 0 : 2000001000, app ? "web" : ds_names[d], old);
	put(b,
	    "\"volumes\":[{\"name\":\"kube-api-access\",\"projected\":{\"defaultMode\":420,\"sources\":[{"
	    "\"serviceAccountToken\":"
	    "{\"expirationSeconds\":3607,\"path\":\"token\"}},{\"configMap\":{\"name\":\"kube-root-ca.crt\",\"items\":["
	    "{\"key\":\"ca.crt\","
	    "\"path\":\"ca.crt\"}]}},{\"downwardAPI\":{\"items\":[{\"path\":\"namespace\",\"fieldRef\":{\"apiVersion\":"
	    "\"v1\","
	    "\"fieldPath\":\"metadata.namespace\"}}]}}]}}],\"tolerations\":[{\"key\":\"node.kubernetes.io/"
	    "not-ready\",\"operator\":\"Exists\","
	    "\"effect\":\"NoExecute\"},{\"key\":\"node.kubernetes.io/"
	    "unreachable\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"}]},"
	    "\"status\":{\"phase\":\"Running\",\"hostIP\":\"10.0.%d.%d\",\"podIP\":\"10.244.%d.%d\",\"startTime\":"
	    "\"2026-12-01T09:00:02Z\","
	    "\"qosClass\":\"Burstable\",\"conditions\":[",
	    (node >> 8) & 255, node & 255, (node >> 8) & 255, node & 255);
	static const char *const conds[] = {"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady",
					    "PodScheduled"};
	for (int c = 0; c < 5; c++)
		put(b,
		    "%s{\"type\":\"%s\",\"status\":\"True\",\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-12-"
		    "01T09:00:1%dZ\"}",
		    c ? "," : "", conds[c], c);
	put(b,
	    "],\"containerStatuses\":[{\"name\":\"main\",\"state\":{\"running\":{\"startedAt\":\"2026-12-01T09:00:"
	    "05Z\"}},"
	    "\"lastState\":{},\"ready\":true,\"restartCount\":0,\"image\":\"registry.example.com/platform/%s:v1.%d\","
	    "\"imageID\":\"registry.example.com/platform/%s@sha256:%064d\",\"containerID\":\"containerd://"
	    "%064d\",\"started\":true}]}}",
	    app ? "web" : ds_names[d], old, app ? "web" : ds_names[d], node, node + d);
}

const char *ds_template(int d, int hash_new)
{
	(void)hash_new;
	static char buf4[4][4096];
	const char *extra[] = {
		"\"tolerations\":[{\"key\":\"dedicated\",\"operator\":\"Exists\"}]",
		"\"nodeSelector\":{\"accelerator\":\"nvidia\"},\"tolerations\":[{\"key\":\"nvidia.com/"
		"gpu\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]",
		"\"hostNetwork\":true,\"tolerations\":[{\"operator\":\"Exists\"}]",
		"\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{"
		"\"nodeSelectorTerms\":[{\"matchExpressions\":["
		"{\"key\":\"node-type\",\"operator\":\"NotIn\",\"values\":[\"edge\",\"virtual\"]},"
		"{\"key\":\"example.com/team-label-00\",\"operator\":\"NotIn\",\"values\":[\"value-9\"]},"
		"{\"key\":\"example.com/team-label-01\",\"operator\":\"NotIn\",\"values\":[\"value-9\"]},"
		"{\"key\":\"example.com/team-label-02\",\"operator\":\"NotIn\",\"values\":[\"value-9\"]},"
		"{\"key\":\"kubernetes.io/os\",\"operator\":\"NotIn\",\"values\":[\"windows\"]},"
		"{\"key\":\"kubernetes.io/arch\",\"operator\":\"NotIn\",\"values\":[\"s390x\"]}]}]}}},"
		"\"tolerations\":[{\"key\":\"dedicated\",\"operator\":\"Exists\"},{\"key\":\"nvidia.com/"
		"gpu\",\"operator\":\"Exists\"}]",
	};
	snprintf(
		buf4[d], sizeof(buf4[d]),
		"{\"metadata\":{\"labels\":{\"app\":\"%s\"}},\"spec\":{%s,\"containers\":[{\"name\":\"main\",\"image\":"
		"\"registry.example.com/platform/"
		"%s:v1.0\",\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"128Mi\"}}}]}}",
		ds_names[d], extra[d], ds_names[d]);
	return buf4[d];
}

void gen_daemonsets(buf *b)
{
	put(b, "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[");
	for (int d = 0; d < 4; d++) {
		const char *t = ds_template(d, 1);
		put(b,
		    "%s{\"apiVersion\":\"apps/"
		    "v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"kube-system\","
		    "\"uid\":\"3f1a2b3c-0002-4000-8000-00000000000%d\",\"generation\":2,\"annotations\":{\"deprecated."
		    "daemonset.template.generation\":\"2\"}},"
		    "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"%s\"}},\"template\":%s,\"updateStrategy\":{"
		    "\"type\":\"RollingUpdate\","
		    "\"rollingUpdate\":{\"maxUnavailable\":\"10%%\",\"maxSurge\":0}}}}",
		    d ? "," : "", ds_names[d], d, ds_names[d], t);
		/* its current revision, so that the hash label of half the pods is current */
		put(b,
		    ",{\"apiVersion\":\"apps/"
		    "v1\",\"kind\":\"ControllerRevision\",\"metadata\":{\"name\":\"%s-%s\",\"namespace\":\"kube-"
		    "system\","
		    "\"labels\":{\"app\":\"%s\",\"controller-revision-hash\":\"%s\"},\"ownerReferences\":[{"
		    "\"apiVersion\":\"apps/v1\","
		    "\"kind\":\"DaemonSet\",\"name\":\"%s\",\"uid\":\"3f1a2b3c-0002-4000-8000-00000000000%d\","
		    "\"controller\":true}]},"
		    "\"data\":{\"spec\":{\"template\":",
		    ds_names[d], ds_hash_new[d], ds_names[d], ds_hash_new[d], ds_names[d], d);
		/* data = the template with "$patch":"replace" added */
		size_t tl = strlen(t);
		put(b, "%.*s,\"$patch\":\"replace\"}}},\"revision\":2}", (int)(tl - 1), t);
	}
	put(b, "]}");
}

/* ---- YAML as kubectl writes it (sigs.k8s.io/yaml on go-yaml: block style, keys sorted) ---- */

/* A string go-yaml would write plain: nothing YAML would read as another type or as syntax. */
static int plain_ok(const char *s, size_t n)
{
	static const char *const words[] = {"y",   "n",  "yes", "no",  "on",   "off",   "true", "false", "null",
					    "Y",   "N",  "Yes", "No",  "On",   "Off",   "True", "False", "Null",
					    "YES", "NO", "ON",  "OFF", "TRUE", "FALSE", "NULL", "~",     NULL};
	if (!n || strchr("-+.0123456789", s[0]))
		return 0;
	for (const char *const *w = words; *w; w++)
		if (strlen(*w) == n && memcmp(*w, s, n) == 0)
			return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 strchr("._/-=@+", c) || (c == ':' && i + 1 < n && s[i + 1] != ' ');
		if (!ok || !c)
			return 0;
	}
	return 1;
}

static void yaml_scalar(buf *b, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING: {
		const char *s = json_string_value(v);
		size_t n = json_string_length(v);
		if (plain_ok(s, n)) {
			put(b, "%s", s);
		} else {
			char *q = json_dumps(v, JSON_ENCODE_ANY);
			put(b, "%s", q);
			free(q);
		}
		break;
	}
	case JSON_INTEGER: put(b, "%lld", (long long)json_integer_value(v)); break;
	case JSON_REAL: put(b, "%.17g", json_real_value(v)); break;
	case JSON_TRUE: put(b, "true"); break;
	case JSON_FALSE: put(b, "false"); break;
	default: put(b, "null"); break;
	}
}

static int by_key(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static int empty_container(const json_t *v)
{
	return (json_is_object(v) && !json_object_size(v)) || (json_is_array(v) && !json_array_size(v));
}

static void yaml_value(buf *b, const json_t *v, int indent, int in_seq);

/* The members of a mapping; the first starts where the cursor is (after "- " in a sequence). */
static void yaml_map(buf *b, const json_t *v, int indent, int first_inline)
{
	size_t n = json_object_size(v), i = 0;
	const char **keys = malloc(n * sizeof(*keys));
	const char *k;
	json_t *m;
	json_object_foreach((json_t *)v, k, m) keys[i++] = k;
	qsort(keys, n, sizeof(*keys), by_key);
	for (i = 0; i < n; i++) {
		if (i || !first_inline)
			put(b, "%*s", indent, "");
		json_t *key = json_string(keys[i]);
		yaml_scalar(b, key);
		json_decref(key);
		put(b, ":");
		m = json_object_get(v, keys[i]);
		if ((json_is_object(m) || json_is_array(m)) && !empty_container(m)) {
			put(b, "\n");
			/* go-yaml writes a sequence under a key at the key's own indentation */
			yaml_value(b, m, json_is_array(m) ? indent : indent + 2, 0);
		} else {
			put(b, " ");
			yaml_value(b, m, indent, 0);
		}
	}
	free(keys);
}

static void yaml_value(buf *b, const json_t *v, int indent, int in_seq)
{
	(void)in_seq;
	if (json_is_object(v) && json_object_size(v)) {
		yaml_map(b, v, indent, 0);
	} else if (json_is_array(v) && json_array_size(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e)
		{
			put(b, "%*s- ", indent, "");
			if (json_is_object(e) && json_object_size(e))
				yaml_map(b, e, indent + 2, 1);
			else if (json_is_array(e) && json_array_size(e)) {
				put(b, "\n");
				yaml_value(b, e, indent + 2, 1);
			} else {
				yaml_value(b, e, indent, 1);
			}
		}
	} else {
		if (json_is_object(v))
			put(b, "{}");
		else if (json_is_array(v))
			put(b, "[]");
		else
			yaml_scalar(b, v);
		put(b, "\n");
	}
}

void yaml_item(buf *b, const char *json, size_t len)
{
	json_error_t je;
	json_t *v = json_loadb(json, len, 0, &je);
	if (!v) {
		fprintf(stderr, "gen: invalid JSON item: %s\n", je.text);
		abort();
	}
	put(b, "- ");
	yaml_map(b, v, 2, 1);
	json_decref(v);
}
