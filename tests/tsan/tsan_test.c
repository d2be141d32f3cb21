/*
 * Thread-safety test, run under ThreadSanitizer by tests/tsan/run.sh.
 *
 * One shared snapshot (examples/cluster plus a generated cluster of a few
 * hundred nodes, several DaemonSets and their pods) is read by N worker
 * threads at once: ds_should_run (and _json), ds_explain, ds_plan_sync,
 * ds_status_compute, ds_fit, ds_audit, ds_drain and ds_cordon for every
 * DaemonSet and a sample of nodes, with shared read-only options. Every
 * result must be byte-identical to the one computed before the threads
 * started, in every thread and iteration. Meanwhile a mutator thread works
 * on snapshots of its own: loads, watch events, removals, copies of the
 * shared snapshot (a copy only reads its source) and plans on them.
 *
 *   tsan_test [-t THREADS] [-i ITERATIONS] [-n NODES] [-C DIR]
 *
 * Uses the public API only (and jansson to read ds_cluster_summary). Prints
 * one summary line; exit 0 when every
 * result matched (ThreadSanitizer reports make the process exit non-zero
 * on their own: TSAN_OPTIONS=halt_on_error=1 in run.sh).
 * SPDX-License-Identifier: Apache-2.0
 */
/* This test also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

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

typedef struct job {
	char label[160];
	char *golden; /* the result computed before the threads started */
} job;

typedef struct shared {
	const ds_cluster *cluster;
	const ds_options *opts;
	const char *nodes[64];
	size_t nnodes;
	const char *dss[16][2];
	size_t ndss;
	char *ds_text[16]; /* each DaemonSet's stored JSON, for ds_audit */
	job *jobs;
	size_t njobs;
	int iterations;
	int stop; /* the mutator's stop flag, written under lock */
	pthread_mutex_t lock;
} shared;

static const char fit_pod[] =
	"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"probe\",\"namespace\":\"gen\"},\"spec\":{"
	"\"priority\":500,\"tolerations\":[{\"key\":\"dedicated\",\"operator\":\"Exists\"}],\"containers\":[{\"name\":"
	"\"p\",\"image\":\"p\",\"ports\":[{\"containerPort\":9100,\"hostPort\":9100}],\"resources\":{\"requests\":"
	"{\"cpu\":\"3\",\"memory\":\"1Gi\"}}}]}}";

/* Result k of the job list as text (new string), or an "error ..." text. */
static char *run_job(const shared *s, size_t k)
{
	char *out = NULL;
	ds_error err;
	int rc = 0;
	size_t per_ds = 4 + s->nnodes; /* explain, plan, status, audit, then should_run per node */
	size_t nds_jobs = s->ndss * per_ds;
	if (k < nds_jobs) {
		size_t d = k / per_ds, w = k % per_ds;
		const char *ns = s->dss[d][0], *name = s->dss[d][1];
		if (w == 0) {
			rc = ds_explain(s->cluster, ns, name, s->opts, &out, &err);
		} else if (w == 1) {
			ds_plan *p = NULL;
			rc = ds_plan_sync(s->cluster, ns, name, NOW, s->opts, NULL, &p, &err);
			if (rc == 0)
				rc = ds_plan_to_json(p, &out, &err);
			ds_plan_free(p);
		} else if (w == 2) {
			ds_status st;
			memset(&st, 0, sizeof(st));
			st.size = sizeof(st);
			rc = ds_status_compute(s->cluster, ns, name, NOW, s->opts, &st, &err);
			if (rc == 0) {
				buf b = {0};
				bprintf(&b, "%d %d %d %d %d %d %d %lld %d", st.desired_number_scheduled,
					st.current_number_scheduled, st.number_misscheduled, st.number_ready,
					st.updated_number_scheduled, st.number_available, st.number_unavailable,
					(long long)st.observed_generation, st.collision_count);
				out = b.p;
			}
		} else if (w == 3) {
			rc = ds_audit(s->ds_text[d], strlen(s->ds_text[d]), s->opts, &out, &err);
		} else {
			int sr = -1, scr = -1;
			rc = ds_should_run(s->cluster, ns, name, s->nodes[w - 4], s->opts, &sr, &scr, &err);
			char *json = NULL;
			if (rc == 0)
				rc = ds_should_run_json(s->cluster, ns, name, s->nodes[w - 4], s->opts, &json, &err);
			if (rc == 0) {
				buf b = {0};
				bprintf(&b, "%d %d %s", sr, scr, json);
				ds_free(json);
				return b.p;
			}
		}
	} else {
		size_t i = (k - nds_jobs) / 3, w = (k - nds_jobs) % 3;
		if (w == 0)
			rc = ds_fit(s->cluster, fit_pod, sizeof(fit_pod) - 1, s->nodes[i], s->opts, &out, &err);
		else if (w == 1)
			rc = ds_drain(s->cluster, s->nodes[i], NOW, s->opts, &out, &err);
		else
			rc = ds_cordon(s->cluster, s->nodes[i], 1, s->opts, &out, &err);
	}
	if (rc < 0) {
		buf b = {0};
		bprintf(&b, "error %d %s %s", rc, err.path, err.message);
		return b.p;
	}
	/* library strings are freed with ds_free: copy into our own */
	char *copy = strdup(out ? out : "");
	ds_free(out);
	if (!copy)
		die("out of memory");
	return copy;
}

typedef struct worker {
	shared *s;
	int id;
	size_t calls, mismatches;
	char first_mismatch[200];
} worker;

static void *reader(void *arg)
{
	worker *w = arg;
	const shared *s = w->s;
	for (int it = 0; it < s->iterations; it++)
		for (size_t j = 0; j < s->njobs; j++) {
			/* each thread starts at another job so that different calls overlap */
			size_t k = (j + (size_t)w->id * 7 + (size_t)it * 3) % s->njobs;
			char *r = run_job(s, k);
			w->calls++;
			if (strcmp(r, s->jobs[k].golden) != 0) {
				if (!w->mismatches++)
					snprintf(w->first_mismatch, sizeof(w->first_mismatch), "%s", s->jobs[k].label);
			}
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
		if (ds_plan_sync(c, "mut", "agent", NOW, m->s->opts, NULL, &p, &err) < 0)
			fail(m, "plan", &err);
		ds_plan_free(p);
		/* a copy of the shared snapshot reads it while the readers do; the copy is ours to change */
		if (ds_cluster_copy(m->s->cluster, &copy, &err) < 0) {
			fail(m, "copy", &err);
		} else {
			if (ds_cluster_remove(copy, "DaemonSet", "gen", "zonal", &err) < 0)
				fail(m, "remove from copy", &err);
			if (ds_cluster_load(copy, gen, strlen(gen), &n, &err) < 0)
				fail(m, "load into copy", &err);
			if (ds_cluster_apply_events(copy, ev, 0, &n, &err) < 0)
				fail(m, "empty events", &err);
			char *out = NULL;
			if (ds_explain(copy, "gen", "agent", m->s->opts, &out, &err) < 0)
				fail(m, "explain on copy", &err);
			ds_free(out);
			ds_cluster_free(copy);
		}
		ds_cluster_free(c);
	}
	free(gen);
	return NULL;
}

/* ---- main ------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	int threads = 4, iterations = 5, nodes = 400;
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
	s.iterations = iterations;
	ds_error err;
	ds_options *opts = NULL;
	if (ds_options_new(&opts) < 0 ||
	    ds_options_set_json(opts,
				"{\"ignoreDaemonSets\": true, \"deleteEmptyDirData\": true, \"burstReplicas\": 40}",
				&err) < 0)
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
		if (s.ndss == 16)
			break;
		s.dss[s.ndss][0] = json_string_value(json_object_get(v, "namespace"));
		s.dss[s.ndss][1] = json_string_value(json_object_get(v, "name"));
		if (ds_cluster_get(c, "DaemonSet", s.dss[s.ndss][0], s.dss[s.ndss][1], &s.ds_text[s.ndss], &err) < 0)
			die("get DaemonSet: %s", err.message);
		s.ndss++;
	}
	json_array_foreach(nodenames, i, v)
	{
		const char *name = json_string_value(v);
		if (s.nnodes < 64 && (strncmp(name, "gen-node-", 9) != 0 || i % 10 == 0))
			s.nodes[s.nnodes++] = name;
	}

	/* the golden results, single-threaded */
	s.njobs = s.ndss * (4 + s.nnodes) + 3 * s.nnodes;
	s.jobs = calloc(s.njobs, sizeof(*s.jobs));
	if (!s.jobs)
		die("out of memory");
	size_t errors = 0;
	for (size_t k = 0; k < s.njobs; k++) {
		s.jobs[k].golden = run_job(&s, k);
		if (strncmp(s.jobs[k].golden, "error ", 6) == 0)
			errors++;
		snprintf(s.jobs[k].label, sizeof(s.jobs[k].label), "job %zu (%s)", k, s.jobs[k].golden);
		/* the same call again, still alone: a difference here is not about threads */
		char *again = run_job(&s, k);
		if (strcmp(again, s.jobs[k].golden) != 0)
			die("%s differs when called twice in one thread", s.jobs[k].label);
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
		ws[t].s = &s;
		ws[t].id = t;
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

	printf("tsan: shared snapshot of %zu objects (%zu DaemonSets, %zu sampled nodes); %d threads x %d iterations x "
	       "%zu calls = %zu calls (%zu of the %zu results are errors, compared as such): %zu differ from the "
	       "single-threaded result; mutator: %zu rounds, %zu watch events, %zu failures\n",
	       loaded, s.ndss, s.nnodes, threads, iterations, s.njobs, calls, errors, s.njobs, mismatches, m.rounds,
	       m.events, m.failures);
	int bad = 0;
	if (mismatches) {
		printf("tsan: FAILED: first difference: %.200s\n", first);
		bad = 1;
	}
	if (m.failures) {
		printf("tsan: FAILED: mutator: %s\n", m.first_failure);
		bad = 1;
	}
	if (errors * 4 > s.njobs) {
		printf("tsan: FAILED: %zu of %zu golden results are errors: the workload does not exercise the "
		       "library\n",
		       errors, s.njobs);
		bad = 1;
	}
	for (size_t k = 0; k < s.njobs; k++)
		free(s.jobs[k].golden);
	free(s.jobs);
	for (size_t d = 0; d < s.ndss; d++)
		ds_free(s.ds_text[d]);
	free(tids);
	free(ws);
	json_decref(sum);
	ds_cluster_free(c);
	ds_options_free(opts);
	pthread_mutex_destroy(&s.lock);
	return bad;
}
