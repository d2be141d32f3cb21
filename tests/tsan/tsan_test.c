/*
 * Thread-safety test, run under ThreadSanitizer by tests/tsan/run.sh (make tsan).
 *
 * One shared snapshot (examples/cluster plus a generated cluster of a few hundred nodes, several
 * DaemonSets and their pods), one shared plan and one shared options set are read by N worker threads
 * at once, through every call that daemonset(7) (THREAD SAFETY) lets threads share: the snapshot's
 * readers (explain, should-run, plan, status, audit, history, rollback, the pod, pod-updated, the
 * rollout, get, summary and the accessors, fit, drain, cordon, upgrade, and ds_cluster_copy, whose copy
 * the thread then changes), the reads of a plan, and the functions of no snapshot (upstream's functions,
 * validation and defaults, the PSS evaluation and the audit, SARIF, value types, time, leases, a
 * scenario file). Every result must be byte-identical to the one computed before the threads started,
 * in every thread and iteration. Meanwhile a mutator thread works on snapshots of its own: loads,
 * watch events, removals, copies of the shared snapshot and plans on them.
 *
 *   tsan_test [-t THREADS] [-i ITERATIONS] [-n NODES] [-C DIR]     (default: 8 threads, 2, 200)
 *
 * Then parsed objects (ds_object) shared by OBJ_THREADS (8) threads: the DaemonSets parsed from their
 * JSON and taken from the snapshot, nodes taken from it, tolerations and taints parsed from text; every
 * thread takes and drops references on the objects it uses and asks ds_daemonset_node_should_run_obj
 * and ds_toleration_tolerates_taint_obj about them; the last reference of one object is dropped by
 * whichever thread finishes last.
 *
 * Uses the public API only (and jansson to read ds_cluster_summary). Prints one summary line per phase; exit 0
 * when every result matched (ThreadSanitizer reports make the process exit non-zero on their own:
 * TSAN_OPTIONS=halt_on_error=1 in run.sh).
 * SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "daemonset.h"

#define NOW ((ds_time)1796223600000LL) /* 2026-12-02T15:00:00Z */

/* ---- a growable text buffer -------------------------------------------------- */

typedef struct buf {
	char *p;
	size_t n, cap;
} buf;

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("tsan: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static void bprintf(buf *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		size_t room = b->cap - b->n;
		int k = vsnprintf(b->p ? b->p + b->n : NULL, room, fmt, ap);
		va_end(ap);
		if (k < 0)
			die("vsnprintf failed");
		if ((size_t)k < room) {
			b->n += (size_t)k;
			return;
		}
		size_t ncap = b->cap ? b->cap * 2 : 4096;
		while (ncap - b->n <= (size_t)k)
			ncap *= 2;
		char *np = realloc(b->p, ncap);
		if (!np)
			die("out of memory");
		b->p = np;
		b->cap = ncap;
	}
}

/* ---- the generated cluster ------------------------------------------------------ */

static const char *const zones[] = {"zone-a", "zone-b", "zone-c"};

/* A List of nodes, five DaemonSets, their pods (half of the agent's on an old revision),
 * ReplicaSet pods with requests and a PodDisruptionBudget; prefix keeps names apart. */
static char *generate(const char *prefix, int nodes)
{
	buf b = {0};
	bprintf(&b, "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[");
	for (int i = 0; i < nodes; i++) {
		const char *pool = i % 5 == 0 ? "gpu" : "cpu";
		bprintf(&b,
			"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"%s-node-%03d\",\"uid\":\"%s-"
			"n%d\","
			"\"creationTimestamp\":\"2026-11-01T08:00:00Z\",\"labels\":{\"kubernetes.io/"
			"hostname\":\"%s-node-%03d\","
			"\"kubernetes.io/os\":\"linux\",\"topology.kubernetes.io/zone\":\"%s\",\"pool\":\"%s\"}},"
			"\"spec\":{%s\"taints\":[",
			prefix, i, prefix, i, prefix, i, zones[i % 3], pool,
			i % 13 == 0 ? "\"unschedulable\":true," : "");
		int t = 0;
		if (i % 5 == 0)
			bprintf(&b, "%s{\"key\":\"dedicated\",\"value\":\"gpu\",\"effect\":\"NoSchedule\"}",
				t++ ? "," : "");
		if (i % 11 == 0)
			bprintf(&b,
				"%s{\"key\":\"maintenance\",\"effect\":\"NoExecute\",\"timeAdded\":\"2026-12-02T14:00:"
				"00Z\"}",
				t++ ? "," : "");
		if (i % 13 == 0)
			bprintf(&b, "%s{\"key\":\"node.kubernetes.io/unschedulable\",\"effect\":\"NoSchedule\"}",
				t++ ? "," : "");
		bprintf(&b,
			"]},\"status\":{\"allocatable\":{\"cpu\":\"%d\",\"memory\":\"%dGi\",\"pods\":\"110\","
			"\"ephemeral-storage\":\"100Gi\"},\"capacity\":{\"cpu\":\"%d\",\"memory\":\"%dGi\",\"pods\":"
			"\"110\"},"
			"\"conditions\":[{\"type\":\"Ready\",\"status\":\"%s\",\"lastTransitionTime\":\"2026-11-01T08:"
			"01:00Z\"}]}},",
			4 + i % 4 * 4, 16 + i % 4 * 16, 4 + i % 4 * 4, 16 + i % 4 * 16, i % 17 == 0 ? "False" : "True");
	}
	/* DaemonSets: tolerate-all agent, gpu plugin, zonal with required affinity, surge with a host port, OnDelete */
	static const char *const ds[][2] = {
		{"agent",
		 "\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":\"10%\"}},"
		 "\"template\":{\"metadata\":{\"labels\":{\"app\":\"agent\"}},\"spec\":{\"tolerations\":[{\"operator\":"
		 "\"Exists\"}],\"containers\":[{\"name\":\"a\",\"image\":\"agent:2\",\"resources\":{\"requests\":"
		 "{\"cpu\":\"50m\",\"memory\":\"64Mi\"}}}]}}"},
		{"gpu-plugin",
		 "\"updateStrategy\":{\"type\":\"RollingUpdate\"},\"template\":{\"metadata\":{\"labels\":"
		 "{\"app\":\"gpu-plugin\"}},\"spec\":{\"nodeSelector\":{\"pool\":\"gpu\"},\"tolerations\":[{\"key\":"
		 "\"dedicated\",\"value\":\"gpu\",\"effect\":\"NoSchedule\"}],\"containers\":[{\"name\":\"g\","
		 "\"image\":\"gpu:1\",\"securityContext\":{\"privileged\":true}}]}}"},
		{"zonal",
		 "\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":2}},"
		 "\"template\":{\"metadata\":{\"labels\":{\"app\":\"zonal\"}},\"spec\":{\"affinity\":{\"nodeAffinity\":"
		 "{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":["
		 "{\"key\":\"topology.kubernetes.io/zone\",\"operator\":\"In\",\"values\":[\"zone-a\",\"zone-b\"]},"
		 "{\"key\":\"pool\",\"operator\":\"NotIn\",\"values\":[\"gpu\"]}]}]}}},\"containers\":[{\"name\":\"z\","
		 "\"image\":\"zonal:3\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]}}"},
		{"surge",
		 "\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxSurge\":\"25%\","
		 "\"maxUnavailable\":0}},\"minReadySeconds\":30,\"template\":{\"metadata\":{\"labels\":{\"app\":"
		 "\"surge\"}},\"spec\":{\"hostNetwork\":true,\"containers\":[{\"name\":\"s\",\"image\":\"surge:1\","
		 "\"ports\":[{\"containerPort\":9100,\"hostPort\":9100}]}]}}"},
		{"ondelete",
		 "\"updateStrategy\":{\"type\":\"OnDelete\"},\"template\":{\"metadata\":{\"labels\":{\"app\":"
		 "\"ondelete\"}},\"spec\":{\"containers\":[{\"name\":\"o\",\"image\":\"o:1\",\"volumeMounts\":"
		 "[{\"name\":\"h\",\"mountPath\":\"/host\"}]}],\"volumes\":[{\"name\":\"h\",\"hostPath\":{\"path\":"
		 "\"/\"}}]}}"},
	};
	int nds = (int)(sizeof(ds) / sizeof(ds[0]));
	for (int d = 0; d < nds; d++)
		bprintf(&b,
			"{\"apiVersion\":\"apps/"
			"v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"%s\","
			"\"uid\":\"%s-ds-%s\",\"generation\":2,\"creationTimestamp\":\"2026-11-05T12:00:00Z\"},"
			"\"spec\":{"
			"\"selector\":{\"matchLabels\":{\"app\":\"%s\"}},%s}},",
			ds[d][0], prefix, prefix, ds[d][0], ds[d][0], ds[d][1]);
	/* daemon pods: every DaemonSet on every other node; odd ones on the old revision, some not ready, some failed */
	for (int d = 0; d < nds; d++)
		for (int i = d % 2; i < nodes; i += 2) {
			int old = (i / 2) % 2, ready = i % 7 != 0, failed = i % 23 == 0;
			bprintf(&b,
				"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s-%03d\","
				"\"namespace\":\"%s\","
				"\"uid\":\"%s-p-%s-%d\",\"creationTimestamp\":\"2026-11-%02dT10:00:00Z\",\"labels\":{"
				"\"app\":\"%s\","
				"\"pod-template-generation\":\"%d\",\"controller-revision-hash\":\"%s\"},"
				"\"ownerReferences\":[{"
				"\"apiVersion\":\"apps/"
				"v1\",\"kind\":\"DaemonSet\",\"name\":\"%s\",\"uid\":\"%s-ds-%s\","
				"\"controller\":true,\"blockOwnerDeletion\":true}]},\"spec\":{\"nodeName\":\"%s-node-%"
				"03d\","
				"\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]},\"status\":{\"phase\":\"%s\","
				"\"conditions\":"
				"[{\"type\":\"Ready\",\"status\":\"%s\",\"lastTransitionTime\":\"2026-12-02T14:00:"
				"00Z\"}]}},",
				ds[d][0], i, prefix, prefix, ds[d][0], i, 6 + i % 20, ds[d][0], old ? 1 : 2,
				old ? "oldhash" : "newhash", ds[d][0], prefix, ds[d][0], prefix, i,
				failed ? "Failed" : "Running", ready ? "True" : "False");
		}
	/* workload pods owned by a ReplicaSet, with requests, guarded by a PodDisruptionBudget */
	for (int i = 0; i < nodes; i += 3)
		bprintf(&b,
			"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web-%03d\",\"namespace\":\"%"
			"s\","
			"\"uid\":\"%s-web-%d\",\"labels\":{\"app\":\"web\"},\"ownerReferences\":[{\"apiVersion\":"
			"\"apps/v1\","
			"\"kind\":\"ReplicaSet\",\"name\":\"web\",\"uid\":\"%s-rs\",\"controller\":true}]},\"spec\":{"
			"\"nodeName\":\"%s-node-%03d\",\"priority\":%d,\"containers\":[{\"name\":\"w\",\"image\":"
			"\"web\","
			"\"resources\":{\"requests\":{\"cpu\":\"%dm\",\"memory\":\"256Mi\"}}}]%s},\"status\":{"
			"\"phase\":"
			"\"Running\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}},",
			i, prefix, prefix, i, prefix, prefix, i, i % 2 ? 1000 : 0, 500 + i % 4 * 500,
			i % 6 == 0 ? ",\"volumes\":[{\"name\":\"tmp\",\"emptyDir\":{}}]" : "");
	bprintf(&b,
		"{\"apiVersion\":\"policy/v1\",\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"web\","
		"\"namespace\":\"%s\"},\"spec\":{\"minAvailable\":\"60%%\",\"selector\":{\"matchLabels\":{\"app\":"
		"\"web\"}}},"
		"\"status\":{\"disruptionsAllowed\":2,\"currentHealthy\":%d,\"desiredHealthy\":%d,\"expectedPods\":%d}}"
		"]}",
		prefix, (nodes + 2) / 3, (nodes + 2) / 3 * 6 / 10, (nodes + 2) / 3);
	return b.p;
}

/* ---- the work every reader thread repeats --------------------------------------------- */

enum { MAX_DS = 16, MAX_NODES = 64 };

typedef struct shared {
	const ds_cluster *cluster;
	const ds_options *opts;
	const char *nodes[MAX_NODES];
	char *node_text[MAX_NODES]; /* each sampled node as ds_cluster_get gives it, for the pure functions */
	size_t nnodes;
	const char *dss[MAX_DS][2];
	char *ds_text[MAX_DS];   /* each DaemonSet's stored JSON */
	char *tmpl_text[MAX_DS]; /* its spec.template */
	size_t ndss;
	const ds_plan *plan; /* made before the threads start, then read by all of them */
	char *reports;       /* an audit report, for ds_audit_sarif */
	const char *scenario;
	int stop; /* the mutator's stop flag, written under lock */
	pthread_mutex_t lock;
} shared;

/* A job: one kind of call (or a few related ones) on one DaemonSet and/or node. */
typedef enum kind {
	/* per DaemonSet */
	K_EXPLAIN,
	K_PLAN,
	K_STATUS,
	K_DS_AUDIT,
	K_HISTORY,
	K_ROLLBACK,
	K_POD,
	K_POD_UPDATED,
	K_ROLLOUT,
	K_GET_DS,
	K_PURE_DS,
	K_PER_DS,
	/* per DaemonSet and node */
	K_SHOULD_RUN = K_PER_DS,
	/* per node */
	K_FIT,
	K_DRAIN,
	K_CORDON,
	K_GET_NODE,
	K_PURE_NODE,
	/* once */
	K_COPY,
	K_READ,
	K_UPGRADE,
	K_SHARED_PLAN,
	K_VALUES,
	K_SCENARIO
} kind;

typedef struct job {
	kind k;
	size_t d, n;  /* DaemonSet and node index */
	char *golden; /* the result computed before the threads started */
} job;

static const char fit_pod[] =
	"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"probe\",\"namespace\":\"gen\"},\"spec\":{"
	"\"priority\":500,\"tolerations\":[{\"key\":\"dedicated\",\"operator\":\"Exists\"}],\"containers\":[{\"name\":"
	"\"p\",\"image\":\"p\",\"ports\":[{\"containerPort\":9100,\"hostPort\":9100}],\"resources\":{\"requests\":"
	"{\"cpu\":\"3\",\"memory\":\"1Gi\"}}}]}}";

/* Append a call's outcome: its JSON (freed) or its error. */
static void put(buf *b, const char *what, int rc, char *out, const ds_error *err)
{
	if (rc < 0)
		bprintf(b, "%s: error %d %s %s\n", what, rc, err->path, err->message);
	else
		bprintf(b, "%s: %s\n", what, out ? out : "");
	ds_free(out);
}

static size_t len(const char *s) { return s ? strlen(s) : 0; }

static void plan_readout(buf *b, const ds_plan *p)
{
	ds_error err;
	char *out = NULL;
	int rc = ds_plan_to_json(p, &out, &err);
	put(b, "plan", rc, out, &err);
	for (size_t i = 0; i < ds_plan_create_count(p); i++) {
		ds_plan_create c = DS_PLAN_CREATE_INIT;
		if (ds_plan_create_at(p, i, &c, &err) == 0)
			bprintf(b, "create %zu %s %s %zu\n", i, c.node, c.reason, c.batch);
		if (i < 3) { /* the pods are in the plan's JSON too */
			rc = ds_plan_create_pod(p, i, &out, &err);
			put(b, "pod", rc, out, &err);
		}
	}
	for (size_t i = 0; i < ds_plan_delete_count(p); i++) {
		ds_plan_delete d = DS_PLAN_DELETE_INIT;
		if (ds_plan_delete_at(p, i, &d, &err) == 0)
			bprintf(b, "delete %s/%s %s %s %s\n", d.namespace_, d.name, d.uid, d.node, d.reason);
	}
	for (size_t i = 0; i < ds_plan_event_count(p); i++) {
		ds_plan_event e = DS_PLAN_EVENT_INIT;
		if (ds_plan_event_at(p, i, &e, &err) == 0)
			bprintf(b, "event %s %s %s\n", e.type, e.reason, e.message);
	}
	ds_status st = DS_STATUS_INIT;
	int changed = -1;
	rc = ds_plan_status(p, &st, &changed, &err);
	bprintf(b, "status %d %d %d %d %lld\n", rc, st.desired_number_scheduled, st.number_ready, changed,
		(long long)ds_plan_requeue_after(p));
	rc = ds_plan_backoff(p, &out, &err);
	put(b, "backoff", rc, out, &err);
}

/* The calls on DaemonSet d alone, without the snapshot (upstream's functions and the validation). */
static void pure_daemonset(buf *b, const shared *s, size_t d)
{
	const char *t = s->ds_text[d], *tmpl = s->tmpl_text[d], *node = s->node_text[0];
	size_t n = strlen(t);
	const ds_options *o = s->opts;
	ds_error err;
	char *out = NULL, hash[64];
	int rc, sr = -1, scr = -1;
	rc = ds_object_audit(t, n, o, &out, &err);
	put(b, "audit", rc, out, &err);
	rc = ds_pod_security_evaluate(t, n, "baseline", "latest", o, &out, &err);
	put(b, "pss", rc, out, &err);
	rc = ds_daemonset_validate(t, n, 0, o, &out, &err);
	put(b, "validate", rc, out, &err);
	rc = ds_daemonset_validate_update(t, n, t, n, 0, o, &out, &err);
	put(b, "validate update", rc, out, &err);
	rc = ds_daemonset_defaults(t, n, o, &out, &err);
	put(b, "defaults", rc, out, &err);
	rc = ds_manifest_check_fields(t, n, o, &out, &err);
	put(b, "fields", rc, out, &err);
	rc = ds_template_hash(tmpl, len(tmpl), 0, hash, sizeof(hash), &err);
	bprintf(b, "hash %d %s\n", rc, rc < 0 ? err.message : hash);
	rc = ds_daemonset_new_pod(t, n, s->nodes[0], NULL, o, &out, &err);
	put(b, "new pod", rc, out, &err);
	rc = ds_daemonset_node_should_run(t, n, node, len(node), o, &sr, &scr, &out, &err);
	bprintf(b, "node should run %d %d ", sr, scr);
	put(b, "", rc, out, &err);
	rc = ds_daemonset_rolling_update(t, n, node, len(node), NULL, NOW, o, &out, &err);
	put(b, "rolling update", rc, out, &err);
	rc = ds_podspec_add_daemon_tolerations2(tmpl, len(tmpl), o, &out, &err);
	put(b, "tolerations", rc, out, &err);
	rc = ds_affinity_replace_node_name2(NULL, 0, s->nodes[0], o, &out, &err);
	put(b, "affinity", rc, out, &err);
}

/* The pure calls about node n: the scheduler's filters, taints, affinity. */
static void pure_node(buf *b, const shared *s, size_t i)
{
	const char *node = s->node_text[i];
	size_t n = len(node);
	const ds_options *o = s->opts;
	ds_error err;
	char *out = NULL;
	int rc, found = -1, m = -1;
	static const char tols[] = "[{\"key\":\"dedicated\",\"operator\":\"Exists\"}]";
	static const char taint[] = "{\"key\":\"maintenance\",\"effect\":\"NoExecute\"}";
	static const char tol[] = "{\"key\":\"maintenance\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"}";
	static const char sel[] = "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"topology.kubernetes.io/"
				  "zone\",\"operator\":\"In\",\"values\":[\"zone-a\"]}]}]}";
	json_t *nj = json_loadb(node, n, 0, NULL);
	char *taints = json_dumps(json_object_get(json_object_get(nj, "spec"), "taints"), JSON_ENCODE_ANY);
	json_decref(nj);
	static const char *const no_schedule[] = {"NoSchedule"};
	const ds_taint_filter filter = {sizeof(ds_taint_filter), no_schedule, 1};
	rc = ds_taints_find_untolerated2(taints, len(taints), tols, sizeof(tols) - 1, &filter, o, &found, &out, &err);
	bprintf(b, "untolerated %d ", found);
	put(b, "", rc, out, &err);
	free(taints);
	rc = ds_toleration_tolerates_taint(tol, sizeof(tol) - 1, taint, sizeof(taint) - 1, o, &m, &err);
	bprintf(b, "tolerates %d %d\n", rc, m);
	rc = ds_pod_required_node_affinity_match2(fit_pod, sizeof(fit_pod) - 1, node, n, o, &m, &err);
	bprintf(b, "affinity %d %d\n", rc, m);
	rc = ds_node_selector_match(sel, sizeof(sel) - 1, node, n, &m, &err);
	bprintf(b, "node selector %d %d\n", rc, m);
	rc = ds_scheduler_filter(fit_pod, sizeof(fit_pod) - 1, node, n, NULL, 0, o, &out, &err);
	put(b, "filter", rc, out, &err);
	rc = ds_preemption_select_victims(fit_pod, sizeof(fit_pod) - 1, node, n, NULL, 0, o, &out, &err);
	put(b, "victims", rc, out, &err);
}

/* The value types, time, options and the other functions of no snapshot. */
static void values(buf *b, const shared *s)
{
	ds_error err;
	char *out = NULL;
	int rc, m = -1;
	ds_quantity_info qi = DS_QUANTITY_INFO_INIT;
	rc = ds_quantity_parse("1.5Gi", &out, &qi, &err);
	bprintf(b, "quantity %lld %lld ", (long long)qi.value, (long long)qi.milli_value);
	put(b, "", rc, out, &err);
	rc = ds_quantity_compare("100m", "0.1", &m, &err);
	bprintf(b, "compare %d %d\n", rc, m);
	rc = ds_quantity_add("1Gi", "512Mi", &out, &err);
	put(b, "add", rc, out, &err);
	rc = ds_intstr_scale("25%", 3, 7, 1, &m, &err);
	bprintf(b, "intstr %d %d\n", rc, m);
	bprintf(b, "labels %d %d %d %d\n", ds_label_key_validate("example.com/a", &err),
		ds_label_value_validate("-bad", &err), ds_dns1123_subdomain_validate("a.b", &err),
		ds_dns1123_label_validate("A", &err));
	static const char sel[] = "{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\",\"values\":[\"a\"]}]}";
	rc = ds_selector_match(sel, sizeof(sel) - 1, "{\"app\":\"a\"}", 11, &m, &err);
	bprintf(b, "selector %d %d\n", rc, m);
	rc = ds_selector_format(sel, sizeof(sel) - 1, &out, &err);
	put(b, "selector", rc, out, &err);
	ds_time t = 0;
	char when[40];
	rc = ds_time_parse("2026-12-02T16:04:05.250+01:00", &t, &err);
	bprintf(b, "time %d %d %s %s\n", rc, ds_time_format(t, when, sizeof(when)), when, ds_strerror(DS_ELIMIT));
	rc = ds_options_get(s->opts, "burstReplicas", &out, &err);
	put(b, "option", rc, out, &err);
	rc = ds_objects_parse(s->ds_text[0], strlen(s->ds_text[0]), s->opts, &out, &err);
	put(b, "objects", rc, out, &err);
	rc = ds_daemonset_validate_stream(s->ds_text[0], strlen(s->ds_text[0]), 0, s->opts, &out, &err);
	put(b, "stream", rc, out, &err);
	int line = 0, col = 0, exact = 0;
	rc = ds_manifest_locate(s->ds_text[0], strlen(s->ds_text[0]), 0, "spec.template.spec", &line, &col, &exact,
				&err);
	bprintf(b, "locate %d %d %d %d\n", rc, line, col, exact);
	rc = ds_audit_sarif(s->reports, strlen(s->reports), s->opts, &out, &err);
	put(b, "sarif", rc, out, &err);
	ds_lease_config lc = DS_LEASE_CONFIG_INIT;
	lc.identity = "me";
	lc.namespace_ = "kube-system";
	lc.name = "lease";
	lc.lease_duration_ms = 15000;
	lc.renew_deadline_ms = 10000;
	rc = ds_lease_try_acquire_or_renew(&lc, NULL, 0, NULL, 0, NOW, &out, &err);
	put(b, "lease", rc, out, &err);
	rc = ds_lease_leading(&lc, NULL, 0, NOW, &m, &err);
	bprintf(b, "leading %d %d %s %d\n", rc, m, ds_version(), ds_version_number());
}

/* Result of job j as text (new string); errors are results too ("error ..."). */
static char *run_job(const shared *s, const job *j)
{
	buf b = {0};
	ds_error err;
	char *out = NULL;
	int rc = 0;
	const ds_cluster *c = s->cluster;
	const ds_options *o = s->opts;
	const char *ns = s->dss[j->d][0], *name = s->dss[j->d][1], *node = s->nodes[j->n];
	bprintf(&b, "%s", "");
	switch (j->k) {
	case K_EXPLAIN:
		rc = ds_daemonset_explain(c, ns, name, o, &out, &err);
		put(&b, "explain", rc, out, &err);
		break;
	case K_PLAN: {
		ds_plan *p = NULL;
		rc = ds_daemonset_plan(c, ns, name, NOW, o, NULL, 0, &p, &err);
		if (rc < 0)
			put(&b, "plan", rc, NULL, &err);
		else
			plan_readout(&b, p);
		ds_plan_free(p);
		break;
	}
	case K_STATUS: {
		ds_status st = DS_STATUS_INIT;
		rc = ds_daemonset_status(c, ns, name, NOW, o, &st, &err);
		bprintf(&b, "%d %d %d %d %d %d %d %d %lld %d", rc, st.desired_number_scheduled,
			st.current_number_scheduled, st.number_misscheduled, st.number_ready,
			st.updated_number_scheduled, st.number_available, st.number_unavailable,
			(long long)st.observed_generation, st.collision_count);
		break;
	}
	case K_DS_AUDIT:
		rc = ds_daemonset_audit(c, ns, name, o, &out, &err);
		put(&b, "audit", rc, out, &err);
		break;
	case K_HISTORY:
		rc = ds_daemonset_history(c, ns, name, o, &out, &err);
		put(&b, "history", rc, out, &err);
		break;
	case K_ROLLBACK:
		rc = ds_daemonset_rollback(c, ns, name, 0, o, &out, &err);
		put(&b, "rollback", rc, out, &err);
		break;
	case K_POD:
		rc = ds_daemonset_pod(c, ns, name, s->nodes[j->d % s->nnodes], o, &out, &err);
		put(&b, "pod", rc, out, &err);
		break;
	case K_POD_UPDATED:
		for (int i = 0; i < 2; i++) {
			char pod[200];
			int updated = -1;
			snprintf(pod, sizeof(pod), "%s-%03d", name, i);
			rc = ds_daemonset_pod_updated(c, ns, name, pod, o, &updated, &err);
			bprintf(&b, "%s %d %d\n", pod, rc, updated);
		}
		break;
	case K_ROLLOUT:
		rc = ds_daemonset_rollout(c, ns, name, NOW, o, &out, &err);
		put(&b, "rollout", rc, out, &err);
		break;
	case K_GET_DS:
		rc = ds_cluster_get(c, "DaemonSet", ns, name, &out, &err);
		put(&b, "get", rc, out, &err);
		break;
	case K_PURE_DS: pure_daemonset(&b, s, j->d); break;
	case K_SHOULD_RUN: {
		int sr = -1, scr = -1;
		rc = ds_daemonset_should_run(c, ns, name, node, o, &sr, &scr, &out, &err);
		bprintf(&b, "%d %d ", sr, scr);
		put(&b, "", rc, out, &err);
		break;
	}
	case K_FIT:
		rc = ds_pod_fit(c, fit_pod, sizeof(fit_pod) - 1, node, o, &out, &err);
		put(&b, "fit", rc, out, &err);
		break;
	case K_DRAIN:
		rc = ds_node_drain(c, node, NOW, o, &out, &err);
		put(&b, "drain", rc, out, &err);
		break;
	case K_CORDON:
		rc = ds_node_cordon(c, node, 1, o, &out, &err);
		put(&b, "cordon", rc, out, &err);
		break;
	case K_GET_NODE:
		rc = ds_cluster_get(c, "Node", NULL, node, &out, &err);
		put(&b, "get", rc, out, &err);
		break;
	case K_PURE_NODE: pure_node(&b, s, j->n); break;
	case K_COPY: {
		/* a copy reads its source while the others do; the copy is this thread's to change */
		ds_cluster *copy = NULL;
		rc = ds_cluster_copy(c, &copy, &err);
		if (rc == 0)
			rc = ds_cluster_remove(copy, "DaemonSet", s->dss[0][0], s->dss[0][1], &err);
		if (rc == 0)
			rc = ds_cluster_summary(copy, &out, &err);
		put(&b, "copy", rc, out, &err);
		out = NULL;
		rc = copy ? ds_daemonset_explain(copy, s->dss[1][0], s->dss[1][1], o, &out, &err) : rc;
		put(&b, "explain", rc, out, &err);
		ds_cluster_free(copy);
		break;
	}
	case K_READ: {
		rc = ds_cluster_summary(c, &out, &err);
		put(&b, "summary", rc, out, &err);
		bprintf(&b, "%zu %zu %zu %zu\n", ds_cluster_count(c, "Node"), ds_cluster_count(c, "Pod"),
			ds_cluster_count(c, "DaemonSet"), ds_cluster_count(c, "Other"));
		const char *node_name;
		for (size_t i = 0; ds_cluster_node_name_at(c, i, &node_name, &err) == 0; i += 37)
			bprintf(&b, "%s\n", node_name);
		const char *dns, *dname;
		for (size_t i = 0; ds_cluster_daemonset_at(c, i, &dns, &dname, &err) == 0; i++)
			bprintf(&b, "%s/%s\n", dns, dname);
		break;
	}
	case K_UPGRADE:
		rc = ds_cluster_upgrade(c, NULL, 0, "pool=gpu", NOW, o, &out, &err);
		put(&b, "upgrade", rc, out, &err);
		break;
	case K_SHARED_PLAN: plan_readout(&b, s->plan); break;
	case K_VALUES: values(&b, s); break;
	case K_SCENARIO:
		rc = ds_scenario_run_file(s->scenario, o, &out, &err);
		put(&b, "scenario", rc, out, &err);
		break;
	}
	return b.p;
}

/* Every job once: per DaemonSet, per DaemonSet and node, per node, then the single ones. */
static job *make_jobs(const shared *s, size_t *count)
{
	size_t n = s->ndss * (K_PER_DS + s->nnodes) + s->nnodes * (K_PURE_NODE - K_FIT + 1) + (K_SCENARIO - K_COPY + 1);
	job *jobs = calloc(n, sizeof(*jobs)), *j = jobs;
	if (!jobs)
		die("out of memory");
	for (size_t d = 0; d < s->ndss; d++) {
		for (int k = 0; k < K_PER_DS; k++)
			*j++ = (job){.k = (kind)k, .d = d};
		for (size_t i = 0; i < s->nnodes; i++)
			*j++ = (job){.k = K_SHOULD_RUN, .d = d, .n = i};
	}
	for (size_t i = 0; i < s->nnodes; i++)
		for (int k = K_FIT; k <= K_PURE_NODE; k++)
			*j++ = (job){.k = (kind)k, .n = i};
	for (int k = K_COPY; k <= K_SCENARIO; k++)
		*j++ = (job){.k = (kind)k};
	*count = (size_t)(j - jobs);
	return jobs;
}

typedef struct worker {
	const shared *s;
	const job *jobs;
	size_t njobs;
	int id, iterations;
	size_t calls, mismatches;
	char first_mismatch[200];
} worker;

static void *reader(void *arg)
{
	worker *w = arg;
	for (int it = 0; it < w->iterations; it++)
		for (size_t i = 0; i < w->njobs; i++) {
			/* each thread starts at another job so that different calls overlap */
			size_t k = (i + (size_t)w->id * 7 + (size_t)it * 3) % w->njobs;
			char *r = run_job(w->s, &w->jobs[k]);
			w->calls++;
			if (strcmp(r, w->jobs[k].golden) != 0 && !w->mismatches++)
				snprintf(w->first_mismatch, sizeof(w->first_mismatch), "job %zu (kind %d): %s", k,
					 (int)w->jobs[k].k, w->jobs[k].golden);
			free(r);
		}
	return NULL;
}

/* ---- the mutator: snapshots of its own ---------------------------------------------- */

typedef struct mutator {
	shared *s;
	const char *cluster_dir;
	size_t rounds, events, failures;
	char first_failure[320];
} mutator;

static void fail(mutator *m, const char *what, const ds_error *err)
{
	if (!m->failures++)
		snprintf(m->first_failure, sizeof(m->first_failure), "%s: %s", what, err->message);
}

static int stopped(shared *s)
{
	pthread_mutex_lock(&s->lock);
	int v = s->stop;
	pthread_mutex_unlock(&s->lock);
	return v;
}

static void *mutate(void *arg)
{
	mutator *m = arg;
	char *gen = generate("mut", 40);
	while (!stopped(m->s)) {
		ds_cluster *c = NULL, *copy = NULL;
		ds_error err;
		size_t n;
		m->rounds++;
		if (ds_cluster_new(m->s->opts, &c, &err) < 0 || ds_cluster_load_file(c, m->cluster_dir, &n, &err) < 0 ||
		    ds_cluster_load(c, gen, strlen(gen), &n, &err) < 0) {
			fail(m, "load", &err);
			ds_cluster_free(c);
			break;
		}
		/* watch events: relabel a node, delete a pod, add one, delete a node; then remove objects */
		char ev[1024];
		int r = (int)(m->rounds % 40);
		snprintf(
			ev, sizeof(ev),
			"{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{"
			"\"name\":"
			"\"mut-node-%03d\",\"labels\":{\"pool\":\"gpu\",\"round\":\"%zu\"}}}}\n"
			"{\"type\":\"DELETED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{"
			"\"name\":"
			"\"agent-%03d\",\"namespace\":\"mut\"}}}\n"
			"{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":"
			"\"extra-%zu\",\"namespace\":\"mut\",\"labels\":{\"app\":\"agent\"}},\"spec\":{\"nodeName\":"
			"\"mut-node-%03d\",\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}\n"
			"{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":"
			"{\"resourceVersion\":\"%zu\"}}}",
			r, m->rounds, r - r % 2, m->rounds, (r + 1) % 40, m->rounds);
		if (ds_cluster_apply_events(c, ev, strlen(ev), &n, &err) < 0)
			fail(m, "events", &err);
		else
			m->events += n;
		snprintf(ev, sizeof(ev), "mut-node-%03d", (r + 5) % 40);
		if (ds_cluster_remove(c, "Node", NULL, ev, &err) < 0)
			fail(m, "remove node", &err);
		if (ds_cluster_remove(c, "DaemonSet", "mut", "surge", &err) < 0)
			fail(m, "remove daemonset", &err);
		ds_plan *p = NULL;
		if (ds_daemonset_plan(c, "mut", "agent", NOW, m->s->opts, NULL, 0, &p, &err) < 0)
			fail(m, "plan", &err);
		ds_plan_free(p);
		/* a copy of the shared snapshot, changed as this thread likes */
		if (ds_cluster_copy(m->s->cluster, &copy, &err) < 0) {
			fail(m, "copy", &err);
		} else {
			if (ds_cluster_remove(copy, "DaemonSet", "gen", "zonal", &err) < 0)
				fail(m, "remove from copy", &err);
			if (ds_cluster_load(copy, gen, strlen(gen), &n, &err) < 0)
				fail(m, "load into copy", &err);
			if (ds_cluster_apply_events(copy, ev, 0, &n, &err) < 0)
				fail(m, "empty events", &err);
			ds_cluster_free(copy);
		}
		ds_cluster_free(c);
	}
	free(gen);
	return NULL;
}

/* ---- a large List loaded on several threads (loadThreads) ------------------------------------- */

/* The summary and every node of a snapshot loaded from text with loadThreads threads. */
static char *load_with_threads(const char *text, const char *threads)
{
	ds_options *o = NULL;
	ds_cluster *c = NULL;
	ds_error err;
	char *summary = NULL;
	buf b = {0};
	if (ds_options_create(&o, &err) < 0 || ds_options_set(o, "loadThreads", threads, &err) < 0 ||
	    ds_cluster_new(o, &c, &err) < 0 || ds_cluster_load(c, text, strlen(text), NULL, &err) < 0 ||
	    ds_cluster_summary(c, &summary, &err) < 0)
		die("loading on %s threads: %s %s", threads, err.path, err.message);
	bprintf(&b, "%s\n", summary);
	ds_free(summary);
	for (size_t i = 0; i < ds_cluster_count(c, "Node"); i++) {
		char *out = NULL;
		const char *name;
		if (ds_cluster_node_name_at(c, i, &name, &err) < 0 ||
		    ds_cluster_get(c, "Node", NULL, name, &out, &err) < 0)
			die("get: %s", err.message);
		bprintf(&b, "%s\n", out);
		ds_free(out);
	}
	ds_cluster_free(c);
	ds_options_free(o);
	return b.p;
}

/* The List of text as YAML, as kubectl writes one: its items a block sequence (each in flow style). */
static char *as_yaml(const char *text)
{
	json_t *v = json_loads(text, 0, NULL), *it;
	buf b = {0};
	size_t i;
	if (!v)
		die("the generated cluster is not JSON");
	bprintf(&b, "apiVersion: v1\nitems:\n");
	json_array_foreach(json_object_get(v, "items"), i, it)
	{
		char *one = json_dumps(it, JSON_COMPACT);
		bprintf(&b, "- %s\n", one);
		free(one);
	}
	bprintf(&b, "kind: List\n");
	json_decref(v);
	return b.p;
}

/* The generated cluster loaded on one thread and on four, several times, as JSON and as YAML: the
 * library's own threads parse and stage a JSON List's items, each into a table of its own, and the
 * results are merged; a YAML text is parsed by libyaml on one thread while another builds and stages. */
static int load_phase(int nodes, int iterations)
{
	char *json = generate("par", nodes * 3);
	char *yaml = as_yaml(json);
	int bad = 0;
	for (int y = 0; y < 2; y++) {
		const char *text = y ? yaml : json;
		char *golden = load_with_threads(text, "1");
		for (int i = 0; i < iterations * 2; i++) {
			char *got = load_with_threads(text, "4");
			if (strcmp(got, golden) != 0)
				bad = 1;
			free(got);
		}
		printf("tsan: a %s List of %d nodes and their pods (%zu KB) loaded on 4 threads %d times: %s\n",
		       y ? "YAML" : "JSON", nodes * 3, strlen(text) >> 10, iterations * 2,
		       bad ? "FAILED: differs from the load on one thread" : "same as on one thread");
		free(golden);
	}
	free(json);
	free(yaml);
	return bad;
}

/* ---- main ------------------------------------------------------------------------------ */

/* ---- parsed objects shared by threads -------------------------------------------------------- */

#define OBJ_THREADS 8

static const char *const obj_tolerations[] = {
	"{\"key\":\"dedicated\",\"operator\":\"Exists\"}",
	"{\"key\":\"dedicated\",\"operator\":\"Equal\",\"value\":\"gpu\",\"effect\":\"NoSchedule\"}",
	"{\"operator\":\"Exists\",\"effect\":\"noschedule\"}",
	"{\"key\":\"n\",\"operator\":\"Gt\",\"value\":\"5\"}",
};
static const char *const obj_taints[] = {
	"{\"key\":\"dedicated\",\"value\":\"gpu\",\"effect\":\"NoSchedule\"}",
	"{\"key\":\"n\",\"value\":\"7\",\"effect\":\"NoExecute\"}",
	"{\"key\":\"other\",\"effect\":\"noschedule\"}",
};
#define NTOL (sizeof(obj_tolerations) / sizeof(obj_tolerations[0]))
#define NTAINT (sizeof(obj_taints) / sizeof(obj_taints[0]))

typedef struct objects {
	const ds_options *opts;
	ds_object *ds[32], *nodes[64], *tols[NTOL], *taints[NTAINT];
	ds_object *list; /* a few of the nodes, for each DaemonSet's rolling update */
	size_t nds, nnodes;
	ds_object *last; /* its last reference is dropped by the thread that finishes last */
	char **golden;
	size_t njobs;
	int iterations;
} objects;

/* Result k as text (new string). */
static char *obj_job(const objects *o, size_t k)
{
	ds_error err;
	buf b = {0};
	int rc;
	if (k < o->nds * o->nnodes) {
		ds_object *d = ds_object_ref(o->ds[k / o->nnodes]), *n = ds_object_ref(o->nodes[k % o->nnodes]);
		int sr = -1, scr = -1;
		char *json = NULL;
		rc = ds_daemonset_node_should_run_obj(d, n, o->opts, &sr, &scr, &json, &err);
		if (rc == 0)
			bprintf(&b, "%d %d %s", sr, scr, json);
		ds_free(json);
		ds_object_free(d);
		ds_object_free(n);
	} else if (k >= o->nds * o->nnodes + NTOL * NTAINT) {
		/* the DaemonSet's JSON and hash read by every thread's decision at once */
		ds_object *d = ds_object_ref(o->ds[k - o->nds * o->nnodes - NTOL * NTAINT]),
			  *l = ds_object_ref(o->list);
		char *json = NULL;
		rc = ds_daemonset_rolling_update_obj(d, l, NULL, NOW, o->opts, &json, &err);
		if (rc == 0)
			bprintf(&b, "%s", json);
		ds_free(json);
		ds_object_free(d);
		ds_object_free(l);
	} else {
		k -= o->nds * o->nnodes;
		ds_object *t = ds_object_ref(o->tols[k / NTAINT]), *x = ds_object_ref(o->taints[k % NTAINT]);
		int v = -1;
		rc = ds_toleration_tolerates_taint_obj(t, x, o->opts, &v, &err);
		if (rc == 0)
			bprintf(&b, "%d %s", v, ds_object_type(o->last));
		ds_object_free(t);
		ds_object_free(x);
	}
	if (rc < 0)
		bprintf(&b, "error %d %s %s", rc, err.path, err.message);
	return b.p;
}

typedef struct obj_worker {
	const objects *o;
	int id;
	size_t calls, mismatches;
} obj_worker;

static void *obj_reader(void *arg)
{
	obj_worker *w = arg;
	const objects *o = w->o;
	for (int it = 0; it < o->iterations; it++)
		for (size_t j = 0; j < o->njobs; j++) {
			size_t k = (j + (size_t)w->id * 5 + (size_t)it) % o->njobs;
			char *r = obj_job(o, k);
			w->calls++;
			w->mismatches += strcmp(r, o->golden[k]) != 0;
			free(r);
		}
	ds_object_free(o->last); /* one reference per thread */
	return NULL;
}

/* The objects phase; returns 1 when a result differed between threads. */
static int objects_phase(const shared *s, const ds_cluster *c, int iterations)
{
	objects o;
	memset(&o, 0, sizeof(o));
	o.opts = s->opts;
	o.iterations = iterations;
	ds_error err;
	for (size_t d = 0; d < s->ndss; d++) {
		if (ds_object_parse("DaemonSet", s->ds_text[d], strlen(s->ds_text[d]), s->opts, &o.ds[o.nds++], &err) <
			    0 ||
		    ds_cluster_get_object(c, "DaemonSet", s->dss[d][0], s->dss[d][1], &o.ds[o.nds++], &err) < 0)
			die("objects: DaemonSet %s: %s", s->dss[d][1], err.message);
	}
	for (size_t i = 0; i < s->nnodes && o.nnodes < 16; i += 4)
		if (ds_cluster_get_object(c, "Node", NULL, s->nodes[i], &o.nodes[o.nnodes++], &err) < 0)
			die("objects: node %s: %s", s->nodes[i], err.message);
	for (size_t i = 0; i < NTOL; i++)
		if (ds_object_parse("Toleration", obj_tolerations[i], strlen(obj_tolerations[i]), NULL, &o.tols[i],
				    &err) < 0)
			die("objects: toleration: %s", err.message);
	for (size_t i = 0; i < NTAINT; i++)
		if (ds_object_parse("Taint", obj_taints[i], strlen(obj_taints[i]), NULL, &o.taints[i], &err) < 0)
			die("objects: taint: %s", err.message);
	if (ds_object_parse("Taint", obj_taints[0], strlen(obj_taints[0]), NULL, &o.last, &err) < 0)
		die("objects: %s", err.message);
	buf lt = {0};
	for (size_t i = 0; i < s->nnodes && i < 4; i++)
		bprintf(&lt, "%s%s", i ? "," : "[", s->node_text[i]);
	bprintf(&lt, "]");
	if (ds_object_parse("List", lt.p, strlen(lt.p), s->opts, &o.list, &err) < 0)
		die("objects: list: %s", err.message);
	free(lt.p);
	o.njobs = o.nds * o.nnodes + NTOL * NTAINT + o.nds;
	o.golden = calloc(o.njobs, sizeof(char *));
	if (!o.golden)
		die("out of memory");
	size_t placed = 0;
	for (size_t k = 0; k < o.njobs; k++) {
		o.golden[k] = obj_job(&o, k);
		if (strncmp(o.golden[k], "error ", 6) == 0)
			die("objects: job %zu: %s", k, o.golden[k]);
		placed += o.golden[k][0] == '1';
	}
	pthread_t tids[OBJ_THREADS];
	obj_worker ws[OBJ_THREADS];
	for (int t = 0; t < OBJ_THREADS; t++)
		ds_object_ref(o.last);
	ds_object_free(o.last); /* the threads hold the only references now */
	for (int t = 0; t < OBJ_THREADS; t++) {
		ws[t] = (obj_worker){&o, t, 0, 0};
		if (pthread_create(&tids[t], NULL, obj_reader, &ws[t]) != 0)
			die("pthread_create");
	}
	size_t calls = 0, mismatches = 0;
	for (int t = 0; t < OBJ_THREADS; t++) {
		pthread_join(tids[t], NULL);
		calls += ws[t].calls;
		mismatches += ws[t].mismatches;
	}
	printf("tsan: %zu parsed objects shared by %d threads x %d iterations x %zu calls = %zu calls (%zu placed or "
	       "tolerated): %zu differ from the single-threaded result\n",
	       o.nds + o.nnodes + NTOL + NTAINT + 2, OBJ_THREADS, iterations, o.njobs, calls, placed, mismatches);
	for (size_t k = 0; k < o.njobs; k++)
		free(o.golden[k]);
	free(o.golden);
	for (size_t i = 0; i < o.nds; i++)
		ds_object_free(o.ds[i]);
	for (size_t i = 0; i < o.nnodes; i++)
		ds_object_free(o.nodes[i]);
	for (size_t i = 0; i < NTOL; i++)
		ds_object_free(o.tols[i]);
	for (size_t i = 0; i < NTAINT; i++)
		ds_object_free(o.taints[i]);
	ds_object_free(o.list);
	if (mismatches)
		printf("tsan: FAILED: parsed objects gave other results in threads\n");
	return mismatches != 0;
}

/* Member path of a JSON text as text (new string), or NULL. */
static char *member_text(const char *text, const char *k1, const char *k2)
{
	json_t *v = json_loads(text, 0, NULL);
	char *out = json_dumps(json_object_get(json_object_get(v, k1), k2), JSON_ENCODE_ANY | JSON_COMPACT);
	json_decref(v);
	return out;
}

int main(int argc, char **argv)
{
	int threads = 8, iterations = 2, nodes = 200;
	const char *dir = "examples/cluster";
	int opt;
	while ((opt = getopt(argc, argv, "t:i:n:C:")) != -1) {
		switch (opt) {
		case 't': threads = atoi(optarg); break;
		case 'i': iterations = atoi(optarg); break;
		case 'n': nodes = atoi(optarg); break;
		case 'C': dir = optarg; break;
		default: die("usage: tsan_test [-t THREADS] [-i ITERATIONS] [-n NODES] [-C examples/cluster]");
		}
	}
	if (threads < 1 || threads > 64 || iterations < 1 || nodes < 10 || nodes > 5000)
		die("bad arguments");

	shared s;
	memset(&s, 0, sizeof(s));
	pthread_mutex_init(&s.lock, NULL);
	ds_error err;
	ds_options *opts = NULL;
	static const char settings[] =
		"{\"ignoreDaemonSets\": true, \"deleteEmptyDirData\": true, \"burstReplicas\": 40}";
	if (ds_options_create(&opts, &err) < 0 || ds_options_set_all(opts, settings, strlen(settings), &err) < 0)
		die("options: %s", err.message);
	s.opts = opts;
	ds_cluster *c = NULL;
	char *gen = generate("gen", nodes);
	size_t loaded = 0, n;
	if (ds_cluster_new(opts, &c, &err) < 0 || ds_cluster_load_file(c, dir, &n, &err) < 0)
		die("loading %s: %s %s (run from the source tree)", dir, err.source, err.message);
	loaded += n;
	if (ds_cluster_load(c, gen, strlen(gen), &n, &err) < 0)
		die("loading the generated cluster: %s: %s", err.path, err.message);
	loaded += n;
	free(gen);
	s.cluster = c;
	s.scenario = "examples/scenarios/03-gpu-nodes.yaml";

	/* names: every DaemonSet, and a spread of nodes (all of examples/cluster's, every 10th generated) */
	char *summary = NULL;
	if (ds_cluster_summary(c, &summary, &err) < 0)
		die("summary: %s", err.message);
	json_t *sum = json_loads(summary, 0, NULL);
	ds_free(summary);
	json_t *v, *dss = json_object_get(sum, "daemonSets"), *nodenames = json_object_get(sum, "nodeNames");
	size_t i;
	if (!json_is_array(dss) || !json_is_array(nodenames))
		die("unexpected summary");
	json_array_foreach(dss, i, v)
	{
		if (s.ndss == MAX_DS)
			break;
		s.dss[s.ndss][0] = json_string_value(json_object_get(v, "namespace"));
		s.dss[s.ndss][1] = json_string_value(json_object_get(v, "name"));
		if (ds_cluster_get(c, "DaemonSet", s.dss[s.ndss][0], s.dss[s.ndss][1], &s.ds_text[s.ndss], &err) < 0)
			die("get DaemonSet: %s", err.message);
		s.tmpl_text[s.ndss] = member_text(s.ds_text[s.ndss], "spec", "template");
		s.ndss++;
	}
	json_array_foreach(nodenames, i, v)
	{
		const char *name = json_string_value(v);
		if (s.nnodes < MAX_NODES && (strncmp(name, "gen-node-", 9) != 0 || i % 10 == 0)) {
			if (ds_cluster_get(c, "Node", NULL, name, &s.node_text[s.nnodes], &err) < 0)
				die("get Node: %s", err.message);
			s.nodes[s.nnodes++] = name;
		}
	}
	if (s.ndss < 2 || !s.nnodes)
		die("the snapshot has too few DaemonSets or nodes");
	ds_plan *plan = NULL;
	if (ds_daemonset_plan(c, "gen", "agent", NOW, opts, NULL, 0, &plan, &err) < 0 || !ds_plan_create_count(plan))
		die("the shared plan: %s (or no creates)", err.message);
	s.plan = plan;
	if (ds_object_audit(s.ds_text[0], strlen(s.ds_text[0]), opts, &s.reports, &err) < 0)
		die("audit: %s", err.message);

	/* the golden results, single-threaded */
	size_t njobs;
	job *jobs = make_jobs(&s, &njobs);
	size_t errors = 0, kinds_seen = 0;
	int seen[K_SCENARIO + 1] = {0};
	for (size_t k = 0; k < njobs; k++) {
		jobs[k].golden = run_job(&s, &jobs[k]);
		if (strstr(jobs[k].golden, ": error -"))
			errors++;
		kinds_seen += !seen[jobs[k].k]++;
		/* the same call again, still alone: a difference here is not about threads */
		char *again = run_job(&s, &jobs[k]);
		if (strcmp(again, jobs[k].golden) != 0)
			die("job %zu (kind %d) differs when called twice in one thread", k, (int)jobs[k].k);
		free(again);
	}

	/* the readers and the mutator */
	pthread_t *tids = calloc((size_t)threads, sizeof(*tids));
	worker *ws = calloc((size_t)threads, sizeof(*ws));
	if (!tids || !ws)
		die("out of memory");
	mutator m;
	memset(&m, 0, sizeof(m));
	m.s = &s;
	m.cluster_dir = dir;
	pthread_t mt;
	if (pthread_create(&mt, NULL, mutate, &m) != 0)
		die("pthread_create");
	for (int t = 0; t < threads; t++) {
		ws[t] = (worker){.s = &s, .jobs = jobs, .njobs = njobs, .id = t, .iterations = iterations};
		if (pthread_create(&tids[t], NULL, reader, &ws[t]) != 0)
			die("pthread_create");
	}
	size_t calls = 0, mismatches = 0;
	const char *first = NULL;
	for (int t = 0; t < threads; t++) {
		pthread_join(tids[t], NULL);
		calls += ws[t].calls;
		mismatches += ws[t].mismatches;
		if (ws[t].mismatches && !first)
			first = ws[t].first_mismatch;
	}
	pthread_mutex_lock(&s.lock);
	s.stop = 1;
	pthread_mutex_unlock(&s.lock);
	pthread_join(mt, NULL);

	printf("tsan: shared snapshot of %zu objects (%zu DaemonSets, %zu sampled nodes), a shared plan and options; "
	       "%d threads x %d iterations x %zu jobs (%zu kinds) = %zu jobs (%zu of the %zu results hold an error, "
	       "compared as such): %zu differ from the single-threaded result; mutator: %zu rounds, %zu watch events, "
	       "%zu failures\n",
	       loaded, s.ndss, s.nnodes, threads, iterations, njobs, kinds_seen, calls, errors, njobs, mismatches,
	       m.rounds, m.events, m.failures);
	int bad = 0;
	if (mismatches) {
		printf("tsan: FAILED: first difference: %.200s\n", first);
		bad = 1;
	}
	if (m.failures) {
		printf("tsan: FAILED: mutator: %s\n", m.first_failure);
		bad = 1;
	}
	if (kinds_seen != K_SCENARIO + 1 || errors * 4 > njobs) {
		printf("tsan: FAILED: %zu kinds of job of %d; %zu of %zu golden results hold an error: the workload "
		       "does "
		       "not exercise the library\n",
		       kinds_seen, K_SCENARIO + 1, errors, njobs);
		bad = 1;
	}
	bad |= objects_phase(&s, c, iterations);
	bad |= load_phase(nodes, iterations);
	for (size_t k = 0; k < njobs; k++)
		free(jobs[k].golden);
	free(jobs);
	for (size_t d = 0; d < s.ndss; d++) {
		ds_free(s.ds_text[d]);
		free(s.tmpl_text[d]);
	}
	for (size_t k = 0; k < s.nnodes; k++)
		ds_free(s.node_text[k]);
	ds_free(s.reports);
	ds_plan_free(plan);
	free(tids);
	free(ws);
	json_decref(sum);
	ds_cluster_free(c);
	ds_options_free(opts);
	pthread_mutex_destroy(&s.lock);
	return bad;
}
