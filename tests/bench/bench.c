/*
 * make bench: synthetic clusters shaped like real ones, measured through the
 * public API. Prints a table and, with -j, JSON.
 *
 *   bench [-j] [-s 1000,5000,20000,100000] [-q] [-P | -S] [-I FILE] [-T 10000:5,20000:5] [-t]
 *         [-p plan|status|explain|drain|rollout|ingest|jansson [-r N]]
 *
 * The pure functions come first (tests/bench/pure.c): -P measures only them, -S skips them;
 * -I FILE writes their inputs for tests/bench/pure.py.
 *
 * -p runs one operation N times (default 200) on the first size and nothing
 * else: a target for perf record or callgrind. It says on stderr when the
 * operation starts (attach then with perf record -p PID). ingest and jansson
 * are the two sides of the ingest ratio, each timed alone.
 *
 * Nodes are ~10 KB of JSON (25 labels, 0-3 taints, 40 images, 4 conditions),
 * pods ~4 KB; four DaemonSets (everywhere, GPU nodeSelector, host network
 * tolerating everything, an agent with six NotIn affinity expressions); half
 * of the daemon pods run an old revision. Times are the best of several runs. EXPL-TOPO explains
 * a fifth DaemonSet (TOPOLOGY_DS, loaded after the rest was measured) with required pod
 * anti-affinity and a DoNotSchedule spread constraint against the web pods: the cost of the
 * cluster-wide filters (PodTopologySpread, InterPodAffinity) beside EXPLAIN's.
 *
 * -T NODES:PODS_PER_NODE,... sizes the whole-profile section (default 10000:5,20000:5: the issue's
 * 10,000 nodes with 50,000 pods, and twice both): its own clusters, where each node's daemon pods are
 * topped up with web pods, so the other sections' figures do not change. -t runs that section only.
 */
#define _GNU_SOURCE
/* The benchmark also times the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Resident memory in bytes, after giving freed heap back (the snapshot's own footprint). */
static long rss_bytes(void)
{
	malloc_trim(0);
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = 0, resident = 0;
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * sysconf(_SC_PAGESIZE);
}

static size_t heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}

/* A growable text buffer. */
#include "gen.h"

typedef struct page {
	char *text;
	size_t len;
	size_t objects;
} page;

/* The cluster as pages of 500 objects, as a paged list (limit=500) returns them. pods_per_node 0: the
 * daemon pods and one web pod per node (about 3.96 per node); otherwise each node's daemon pods and as
 * many web pods as make pods_per_node (at least one web pod). */
static page *gen_pages(int nodes, int with_pods, int pods_per_node, size_t *npages, size_t *nnode_pages,
		       size_t *bytes_nodes, size_t *bytes_pods, size_t *npods)
{
	size_t cap = 64, n = 0;
	page *pages = malloc(cap * sizeof(page));
	unsigned seed = 12345;
	*bytes_nodes = *bytes_pods = *npods = 0;
	for (int i = 0; i < nodes; i += 500) {
		buf b = {0};
		put(&b, "{\"apiVersion\":\"v1\",\"kind\":\"NodeList\",\"items\":[");
		int k = 0;
		for (int j = i; j < nodes && j < i + 500; j++, k++) {
			if (k)
				put(&b, ",");
			gen_node(&b, j, &seed);
		}
		put(&b, "]}");
		if (n == cap)
			pages = realloc(pages, (cap *= 2) * sizeof(page));
		pages[n++] = (page){b.p, b.n, (size_t)k};
		*bytes_nodes += b.n;
	}
	*nnode_pages = n;
	if (with_pods) {
		buf b = {0};
		int k = 0;
		for (int i = 0; i < nodes; i++) {
			int daemons = 0;
			for (int d = 0; d < 4; d++)
				daemons += ds_on_node(d, i);
			int webs = pods_per_node - daemons > 1 ? pods_per_node - daemons : 1;
			for (int d = 0; d < 4 + webs; d++) {
				int app = d >= 4;
				if (!app && !ds_on_node(d, i))
					continue;
				if (!b.n)
					put(&b, "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"items\":[");
				else
					put(&b, ",");
				gen_pod_k(&b, i, app ? 0 : d, app, app ? d - 4 : 0);
				k++;
				if (k == 500) {
					put(&b, "]}");
					if (n == cap)
						pages = realloc(pages, (cap *= 2) * sizeof(page));
					pages[n++] = (page){b.p, b.n, (size_t)k};
					*bytes_pods += b.n;
					*npods += (size_t)k;
					memset(&b, 0, sizeof(b));
					k = 0;
				}
			}
		}
		if (k) {
			put(&b, "]}");
			pages[n++] = (page){b.p, b.n, (size_t)k};
			*bytes_pods += b.n;
			*npods += (size_t)k;
		}
	}
	*npages = n;
	return pages;
}

static void die(const char *what, const ds_error *err)
{
	fprintf(stderr, "bench: %s: %s: %s\n", what, err->path, err->message);
	exit(1);
}

/* Best of `reps` runs of fn, in seconds. */
typedef void (*op_fn)(void *);
static double best(op_fn fn, void *arg, int reps)
{
	double b = 1e30;
	for (int r = 0; r < reps; r++) {
		double t = now_s();
		fn(arg);
		t = now_s() - t;
		if (t < b)
			b = t;
	}
	return b;
}

typedef struct op_ctx {
	ds_cluster *c;
	const char *ds;
	const char *node;
	ds_time now;
	ds_options *opts;
} op_ctx;

static void op_plan(void *a)
{
	op_ctx *o = a;
	ds_plan *p;
	ds_error err;
	if (ds_plan_sync(o->c, "kube-system", o->ds, o->now, o->opts, NULL, &p, &err) < 0)
		die("plan", &err);
	ds_plan_free(p);
}

static void op_status(void *a)
{
	op_ctx *o = a;
	ds_status st = {.size = sizeof(st)};
	ds_error err;
	if (ds_status_compute(o->c, "kube-system", o->ds, o->now, o->opts, &st, &err) < 0)
		die("status", &err);
}

static void op_explain(void *a)
{
	op_ctx *o = a;
	char *out;
	ds_error err;
	if (ds_explain(o->c, "kube-system", o->ds, o->opts, &out, &err) < 0)
		die("explain", &err);
	ds_free(out);
}

/* The DaemonSet of EXPL-TOPO: required anti-affinity to the web pods by hostname (every node runs
 * one, so every node fails it) and a zone spread of web and topology pods that ignores node
 * affinity. */
static const char TOPOLOGY_DS[] =
	"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"topology-agent\","
	"\"namespace\":\"shop\",\"uid\":\"3f1a2b3c-0002-4000-8000-0000000000f1\"},\"spec\":{\"selector\":"
	"{\"matchLabels\":{\"app\":\"topology-agent\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":"
	"\"topology-agent\"}},\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"registry.k8s.io/pause:3.10\"}],"
	"\"affinity\":{\"podAntiAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":[{\"labelSelector\":"
	"{\"matchLabels\":{\"app\":\"web\"}},\"topologyKey\":\"kubernetes.io/hostname\"}]}},"
	"\"topologySpreadConstraints\":[{\"maxSkew\":1,\"topologyKey\":\"topology.kubernetes.io/zone\","
	"\"whenUnsatisfiable\":\"DoNotSchedule\",\"nodeAffinityPolicy\":\"Ignore\",\"labelSelector\":"
	"{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\",\"values\":[\"web\","
	"\"topology-agent\"]}]}}]}}}}";

static void op_explain_topology(void *a)
{
	op_ctx *o = a;
	char *out;
	ds_error err;
	if (ds_explain(o->c, "shop", "topology-agent", o->opts, &out, &err) < 0)
		die("explain", &err);
	ds_free(out);
}

/* TOPOLOGY_DS without its pod anti-affinity and spread constraint: what explain of the same DaemonSet
 * costs with only the five filters that ran before issue 28 doing work (NodeUnschedulable,
 * TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit). */
static const char PLAIN_DS[] =
	"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"plain-agent\","
	"\"namespace\":\"shop\",\"uid\":\"3f1a2b3c-0002-4000-8000-0000000000f2\"},\"spec\":{\"selector\":"
	"{\"matchLabels\":{\"app\":\"plain-agent\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":"
	"\"plain-agent\"}},\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"registry.k8s.io/pause:3.10\"}]}}}}";

static void op_explain_plain(void *a)
{
	op_ctx *o = a;
	char *out;
	ds_error err;
	if (ds_explain(o->c, "shop", "plain-agent", o->opts, &out, &err) < 0)
		die("explain", &err);
	ds_free(out);
}

static void op_drain(void *a)
{
	op_ctx *o = a;
	char *out;
	ds_error err;
	if (ds_drain(o->c, o->node, o->now, o->opts, &out, &err) < 0)
		die("drain", &err);
	ds_free(out);
}

static void op_rollout(void *a)
{
	op_ctx *o = a;
	char *out;
	ds_error err;
	if (ds_rollout_simulate(o->c, "kube-system", o->ds, o->now, o->opts, &out, &err) < 0)
		die("rollout", &err);
	ds_free(out);
}

static const char *profile_op;
static int profile_reps = 200;

/* Runs per operation at every size, the best of which counts: the machine has fast and slow
 * phases (README, Performance), and the best of two, once used at 100k nodes, reported a slow
 * phase as often as not. Twenty syncs at 100k nodes take about 0.2 s, next to minutes of
 * generating and loading. */
#define OP_REPS 20

/* One size: ingest, memory, operations. */
static json_t *measure(int nodes, int quiet)
{
	size_t npages, nnode_pages, bn, bp, npods;
	if (!quiet)
		fprintf(stderr, "bench: %d nodes: generating...\n", nodes);
	page *pages = gen_pages(nodes, 1, 0, &npages, &nnode_pages, &bn, &bp, &npods);
	/* bare jansson: parse and free the same bytes */
	double t_bare = 1e30, t_ours = 1e30;
	int reps = nodes >= 20000 ? 1 : 3;
	/* -p measures one operation only; -p jansson and -p ingest are the two sides of the ingest ratio */
	int bare = !profile_op || strcmp(profile_op, "jansson") == 0;
	if (profile_op && (strcmp(profile_op, "jansson") == 0 || strcmp(profile_op, "ingest") == 0))
		fprintf(stderr, "bench: pid %ld: %s starts\n", (long)getpid(), profile_op);
	for (int r = 0; r < reps && bare; r++) {
		double t = now_s();
		for (size_t i = 0; i < npages; i++) {
			json_error_t je;
			json_t *v = json_loadb(pages[i].text, pages[i].len, 0, &je);
			if (!v) {
				fprintf(stderr, "bench: generated JSON is invalid: %s at %d\n", je.text, je.position);
				exit(1);
			}
			json_decref(v);
		}
		t = now_s() - t;
		if (t < t_bare)
			t_bare = t;
	}
	/* jansson at its best for this input: each item of a page parsed alone (what our ingest does) */
	double t_item = 1e30;
	for (int r = 0; r < reps && bare; r++) {
		double t = now_s();
		for (size_t i = 0; i < npages; i++) {
			const char *items = strstr(pages[i].text, "\"items\":[");
			size_t pos = (size_t)(items - pages[i].text) + 9;
			while (pages[i].text[pos] != ']') {
				json_error_t je;
				json_t *v = json_loadb(pages[i].text + pos, pages[i].len - pos, JSON_DISABLE_EOF_CHECK,
						       &je);
				if (!v) {
					fprintf(stderr, "bench: generated item is invalid: %s\n", je.text);
					exit(1);
				}
				json_decref(v);
				pos += (size_t)je.position;
				pos += pages[i].text[pos] == ',';
			}
		}
		t = now_s() - t;
		if (t < t_item)
			t_item = t;
	}
	if (profile_op && strcmp(profile_op, "jansson") == 0) {
		fprintf(stderr, "bench: jansson on %d nodes: best %.3f s of %d runs\n", nodes, t_bare, reps);
		exit(0);
	}
	ds_cluster *c = NULL;
	long rss0 = 0, rss_nodes = 0, rss_all = 0;
	size_t heap0 = 0, heap_nodes = 0, heap_all = 0;
	for (int r = 0; r < reps; r++) {
		ds_cluster_free(c);
		c = NULL;
		rss0 = rss_bytes();
		heap0 = heap_bytes();
		ds_error err;
		if (ds_cluster_new(NULL, &c, &err) < 0)
			die("new", &err);
		double t = now_s();
		for (size_t i = 0; i < npages; i++) {
			if (ds_cluster_load(c, pages[i].text, pages[i].len, NULL, &err) < 0)
				die("load", &err);
			if (i + 1 == nnode_pages) {
				double pause = now_s();
				rss_nodes = rss_bytes();
				heap_nodes = heap_bytes();
				t -= now_s() - pause; /* the trim is not ingest */
			}
		}
		t = now_s() - t;
		if (t < t_ours)
			t_ours = t;
		rss_all = rss_bytes();
		heap_all = heap_bytes();
	}
	if (profile_op && strcmp(profile_op, "ingest") == 0) {
		fprintf(stderr, "bench: ingest on %d nodes: best %.3f s of %d runs\n", nodes, t_ours, reps);
		exit(0);
	}
	buf dsb = {0};
	gen_daemonsets(&dsb);
	ds_error err;
	if (ds_cluster_load(c, dsb.p, dsb.n, NULL, &err) < 0)
		die("daemonsets", &err);
	free(dsb.p);
	for (size_t i = 0; i < npages; i++)
		free(pages[i].text);
	free(pages);
	size_t bytes = bn + bp, objects = (size_t)nodes + npods;
	json_t *res = json_pack("{s:i, s:I, s:I, s:f}", "nodes", nodes, "pods", (json_int_t)npods, "bytes",
				(json_int_t)bytes, "nodeKB", (double)bn / nodes / 1024.0);
	json_object_set_new(res, "podKB", json_real((double)bp / (double)npods / 1024.0));
	json_object_set_new(res, "ingest",
			    json_pack("{s:f, s:f, s:f, s:f, s:f}", "oursMBps", (double)bytes / t_ours / 1e6,
				      "janssonMBps", (double)bytes / t_bare / 1e6, "ratio", t_ours / t_bare,
				      "oursUsPerObject", t_ours * 1e6 / (double)objects, "janssonUsPerObject",
				      t_bare * 1e6 / (double)objects));
	json_object_set_new(json_object_get(res, "ingest"), "janssonPerItemMBps",
			    json_real((double)bytes / t_item / 1e6));
	json_object_set_new(json_object_get(res, "ingest"), "ratioPerItem", json_real(t_ours / t_item));
	json_object_set_new(res, "memory",
			    json_pack("{s:f, s:f, s:f, s:f}", "rssPerNodeBytes", (double)(rss_nodes - rss0) / nodes,
				      "rssPerPodBytes", (double)(rss_all - rss_nodes) / (double)npods,
				      "heapPerNodeBytes", (double)(heap_nodes - heap0) / nodes, "heapPerPodBytes",
				      (double)(heap_all - heap_nodes) / (double)npods));
	/* operations, ns per node; the agent with six NotIn expressions is the heaviest placement */
	op_ctx o = {c, "monitor", "node-000001", 0, NULL};
	ds_time_parse("2026-12-02T15:00:00Z", &o.now, NULL);
	int rp = OP_REPS;
	ds_error terr;
	if (ds_cluster_load(c, TOPOLOGY_DS, sizeof(TOPOLOGY_DS) - 1, NULL, &terr) < 0)
		die("load", &terr);
	if (profile_op) {
		static const struct {
			const char *name;
			op_fn fn;
		} ops_by_name[] = {{"plan", op_plan},       {"status", op_status},
				   {"explain", op_explain}, {"explain-topology", op_explain_topology},
				   {"drain", op_drain},     {"rollout", op_rollout}};
		for (size_t i = 0; i < sizeof(ops_by_name) / sizeof(ops_by_name[0]); i++)
			if (strcmp(profile_op, ops_by_name[i].name) == 0) {
				/* the moment to attach: perf record -p PID */
				fprintf(stderr, "bench: pid %ld: %s starts\n", (long)getpid(), profile_op);
				double t = best(ops_by_name[i].fn, &o, profile_reps);
				fprintf(stderr,
					"bench: %s on %d nodes, %zu pods: best %.1f us (%.1f ns/node) of %d runs\n",
					profile_op, nodes, npods, t * 1e6, t * 1e9 / nodes, profile_reps);
				exit(0);
			}
		fprintf(stderr, "bench: unknown operation %s\n", profile_op);
		exit(2);
	}
	json_t *ops = json_object();
	json_object_set_new(ops, "planNsPerNode", json_real(best(op_plan, &o, rp) * 1e9 / nodes));
	json_object_set_new(ops, "statusNsPerNode", json_real(best(op_status, &o, rp) * 1e9 / nodes));
	json_object_set_new(ops, "explainNsPerNode", json_real(best(op_explain, &o, rp > 5 ? 5 : rp) * 1e9 / nodes));
	json_object_set_new(ops, "explainTopologyNsPerNode",
			    json_real(best(op_explain_topology, &o, rp > 5 ? 5 : rp) * 1e9 / nodes));
	json_object_set_new(ops, "drainOneNodeUs", json_real(best(op_drain, &o, rp) * 1e6));
	ds_options_new(&o.opts);
	ds_options_set(o.opts, "simMaxTime", "6h", &err);
	double tr = best(op_rollout, &o, 1);
	json_object_set_new(ops, "rolloutNsPerNode", json_real(tr * 1e9 / nodes));
	json_object_set_new(ops, "rolloutSeconds", json_real(tr));
	ds_options_free(o.opts);
	json_object_set_new(res, "operations", ops);
	ds_cluster_free(c);
	return res;
}

/* The whole profile at the size (-T NODES:PODS_PER_NODE,...; make bench: 10,000 nodes with 50,000
 * pods and twice both): the synthetic nodes, each with its daemon pods topped up with web pods to
 * pods_per_node, then explain of TOPOLOGY_DS (every node fails the anti-affinity and goes to
 * preemption) beside explain of PLAIN_DS (the same DaemonSet, five filters) on the same cluster. */
static json_t *measure_topology(int nodes, int pods_per_node, int quiet)
{
	size_t npages, nnode_pages, bn, bp, npods;
	if (!quiet)
		fprintf(stderr, "bench: topology: %d nodes, %d pods per node: generating...\n", nodes, pods_per_node);
	page *pages = gen_pages(nodes, 1, pods_per_node, &npages, &nnode_pages, &bn, &bp, &npods);
	ds_cluster *c;
	ds_error err;
	if (ds_cluster_new(NULL, &c, &err) < 0)
		die("new", &err);
	for (size_t i = 0; i < npages; i++) {
		if (ds_cluster_load(c, pages[i].text, pages[i].len, NULL, &err) < 0)
			die("load", &err);
		free(pages[i].text);
	}
	free(pages);
	buf dsb = {0};
	gen_daemonsets(&dsb);
	if (ds_cluster_load(c, dsb.p, dsb.n, NULL, &err) < 0 ||
	    ds_cluster_load(c, TOPOLOGY_DS, sizeof(TOPOLOGY_DS) - 1, NULL, &err) < 0 ||
	    ds_cluster_load(c, PLAIN_DS, sizeof(PLAIN_DS) - 1, NULL, &err) < 0)
		die("daemonsets", &err);
	free(dsb.p);
	/* what is measured is what the table says: every node refused by anti-affinity, none by the five */
	char *out;
	if (ds_explain(c, "shop", "topology-agent", NULL, &out, &err) < 0)
		die("explain", &err);
	if (!strstr(out, "didn't match pod anti-affinity rules")) {
		fprintf(stderr, "bench: topology-agent's explain has no anti-affinity refusal\n");
		exit(1);
	}
	ds_free(out);
	op_ctx o = {c, "plain-agent", "node-000001", 0, NULL};
	/* alternated, one run of each at a time, so that a slow phase of the shared machine hits both */
	double plain = 1e30, whole = 1e30;
	for (int r = 0; r < 10; r++) {
		double t = best(op_explain_plain, &o, 1);
		plain = t < plain ? t : plain;
		t = best(op_explain_topology, &o, 1);
		whole = t < whole ? t : whole;
	}
	ds_cluster_free(c);
	return json_pack("{s:i, s:I, s:f, s:f, s:f, s:f}", "nodes", nodes, "pods", (json_int_t)npods,
			 "fiveFiltersNsPerNode", plain * 1e9 / nodes, "wholeProfileNsPerNode", whole * 1e9 / nodes,
			 "fiveFiltersMs", plain * 1e3, "wholeProfileMs", whole * 1e3);
}

/* Upstream's BenchmarkUpdateDaemonSetStatus shape: nodes labelled hostname, zone (3), region; no pods.
 * affinity 2 is ours, not upstream's: the nodes also have the five keys a..e (with other values), so
 * that no requirement can be decided once for all nodes and all six are matched on each node. */
static json_t *upstream_status(int nodes, int affinity)
{
	buf b = {0};
	put(&b, "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[");
	for (int i = 0; i < nodes; i++)
		put(&b,
		    "%s{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-%d\",\"labels\":{"
		    "\"kubernetes.io/hostname\":\"node-%d\",\"topology.kubernetes.io/zone\":\"zone-%d\","
		    "%s\"topology.kubernetes.io/region\":\"region-1\"}}}",
		    i ? "," : "", i, i, i % 3,
		    affinity == 2 ? "\"a\":\"y\",\"b\":\"y\",\"c\":\"y\",\"d\":\"y\",\"e\":\"y\"," : "");
	put(&b,
	    ",{\"apiVersion\":\"apps/"
	    "v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"ds\",\"namespace\":\"default\",\"uid\":\"u\","
	    "\"generation\":1},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"ds\"}},\"template\":{\"metadata\":{"
	    "\"labels\":"
	    "{\"app\":\"ds\"}},\"spec\":{%s\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}},\"status\":{"
	    "\"observedGeneration\":1}}]}",
	    affinity ? "\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{"
		       "\"nodeSelectorTerms\":"
		       "[{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"NotIn\",\"values\":[\"x\"]},{\"key\":"
		       "\"b\",\"operator\":"
		       "\"NotIn\",\"values\":[\"x\"]},{\"key\":\"c\",\"operator\":\"NotIn\",\"values\":[\"x\"]},{"
		       "\"key\":\"d\","
		       "\"operator\":\"NotIn\",\"values\":[\"x\"]},{\"key\":\"e\",\"operator\":\"NotIn\",\"values\":["
		       "\"x\"]},"
		       "{\"key\":\"topology.kubernetes.io/zone\",\"operator\":\"NotIn\",\"values\":[\"zone-9\"]}]}]}}},"
		     : "");
	ds_cluster *c;
	ds_error err;
	if (ds_cluster_new(NULL, &c, &err) < 0 || ds_cluster_load(c, b.p, b.n, NULL, &err) < 0)
		die("upstream shape", &err);
	free(b.p);
	ds_status st = {.size = sizeof(st)};
	double bestt = 1e30;
	int reps = nodes >= 10000 ? 200 : 2000;
	for (int r = 0; r < reps; r++) {
		double t = now_s();
		if (ds_status_compute(c, "default", "ds", 0, NULL, &st, &err) < 0)
			die("status", &err);
		t = now_s() - t;
		if (t < bestt)
			bestt = t;
	}
	if (st.desired_number_scheduled != nodes)
		fprintf(stderr, "bench: expected %d desired, got %d\n", nodes, st.desired_number_scheduled);
	ds_cluster_free(c);
	return json_pack("{s:i, s:b, s:b, s:f, s:f}", "nodes", nodes, "affinity", affinity != 0, "keysOnNodes",
			 affinity == 2, "microseconds", bestt * 1e6, "nsPerNode", bestt * 1e9 / nodes);
}

int main(int argc, char **argv)
{
	int sizes[8] = {1000, 5000, 20000, 100000}, nsizes = 4, json = 0, quiet = 0, pure = 1, clusters = 1;
	/* the whole profile at the size: 10,000 nodes with 50,000 pods, then twice both */
	int topo_nodes[8] = {10000, 20000}, topo_ppn[8] = {5, 5}, ntopo = 2, topo_only = 0;
	const char *inputs_file = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-j") == 0)
			json = 1;
		else if (strcmp(argv[i], "-q") == 0)
			quiet = 1;
		else if (strcmp(argv[i], "-P") == 0)
			clusters = 0;
		else if (strcmp(argv[i], "-S") == 0)
			pure = 0;
		else if (strcmp(argv[i], "-O") == 0 && i + 1 < argc)
			return bench_objects_parse_probe(atol(argv[i + 1]));
		else if (strcmp(argv[i], "-L") == 0 && i + 1 < argc)
			return bench_pure_loop(argv[i + 1],
					       getenv("BENCH_LOOP_SECONDS") ? atof(getenv("BENCH_LOOP_SECONDS")) : 5);
		else if (strcmp(argv[i], "-I") == 0 && i + 1 < argc)
			inputs_file = argv[++i];
		else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
			profile_op = argv[++i];
		else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
			profile_reps = atoi(argv[++i]);
		else if (strcmp(argv[i], "-t") == 0)
			topo_only = 1;
		else if (strcmp(argv[i], "-T") == 0 && i + 1 < argc) {
			ntopo = 0;
			for (char *p = strtok(argv[++i], ","); p && ntopo < 8; p = strtok(NULL, ","))
				if (sscanf(p, "%d:%d", &topo_nodes[ntopo], &topo_ppn[ntopo]) == 2 &&
				    topo_nodes[ntopo] > 0 && topo_ppn[ntopo] > 0)
					ntopo++;
		} else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
			nsizes = 0;
			for (char *p = strtok(argv[++i], ","); p && nsizes < 8; p = strtok(NULL, ","))
				sizes[nsizes++] = atoi(p);
		}
	}
	json_t *doc = json_pack("{s:s, s:[], s:[], s:[]}", "library", ds_version(), "upstreamStatusShape", "sizes",
				"wholeProfile");
	if (topo_only)
		pure = 0;
	if (pure && !profile_op)
		json_object_set_new(doc, "pure", bench_pure(quiet, inputs_file));
	for (int n = 1000; clusters && !topo_only && !profile_op && n <= 10000; n *= 10)
		for (int a = 0; a < 3; a++)
			json_array_append_new(json_object_get(doc, "upstreamStatusShape"), upstream_status(n, a));
	for (int i = 0; clusters && !topo_only && i < nsizes; i++)
		json_array_append_new(json_object_get(doc, "sizes"), measure(sizes[i], quiet));
	for (int i = 0; clusters && !profile_op && i < ntopo; i++)
		json_array_append_new(json_object_get(doc, "wholeProfile"),
				      measure_topology(topo_nodes[i], topo_ppn[i], quiet));
	if (json) {
		char *s = json_dumps(doc, JSON_INDENT(2));
		puts(s);
		free(s);
	}
	if (json_object_get(doc, "pure"))
		bench_pure_print(json_object_get(doc, "pure"));
	if (!clusters) {
		json_decref(doc);
		return 0;
	}
	size_t i;
	json_t *r;
	if (json_array_size(json_object_get(doc, "wholeProfile"))) {
		printf("\nExplain with the whole profile (issue 28): topology-agent (pod anti-affinity + zone spread,\n"
		       "every node refused and put to preemption) beside the same DaemonSet with neither (five\n"
		       "filters), on one cluster; best of 10 alternated runs:\n");
		printf("%8s %8s  %18s %18s  %10s %10s\n", "NODES", "PODS", "FIVE ns/node", "WHOLE ns/node", "FIVE ms",
		       "WHOLE ms");
		json_array_foreach(json_object_get(doc, "wholeProfile"), i, r)
			printf("%8lld %8lld  %18.1f %18.1f  %10.1f %10.1f\n",
			       (long long)json_integer_value(json_object_get(r, "nodes")),
			       (long long)json_integer_value(json_object_get(r, "pods")),
			       json_real_value(json_object_get(r, "fiveFiltersNsPerNode")),
			       json_real_value(json_object_get(r, "wholeProfileNsPerNode")),
			       json_real_value(json_object_get(r, "fiveFiltersMs")),
			       json_real_value(json_object_get(r, "wholeProfileMs")));
		printf("(work growing with nodes x pods would double ns/node at twice the nodes and pods)\n");
	}
	if (topo_only) {
		json_decref(doc);
		return 0;
	}
	printf("\nUpstream BenchmarkUpdateDaemonSetStatus shape (status pass, no pods; target <= 25 ns/node):\n");
	printf("%8s  %-9s  %12s  %10s\n", "NODES", "AFFINITY", "MICROSECONDS", "NS/NODE");
	json_array_foreach(json_object_get(doc, "upstreamStatusShape"), i, r) printf(
		"%8lld  %-9s  %12.1f  %10.1f\n", (long long)json_integer_value(json_object_get(r, "nodes")),
		json_is_true(json_object_get(r, "keysOnNodes")) ? "6 NotIn*"
		: json_is_true(json_object_get(r, "affinity"))  ? "6 NotIn"
								: "none",
		json_real_value(json_object_get(r, "microseconds")), json_real_value(json_object_get(r, "nsPerNode")));
	printf("  * not upstream's shape: the nodes also have the keys a..e, so all six requirements are matched per "
	       "node\n");
	printf("\nSynthetic clusters (ns per node; ingest ratio = ours / bare jansson on the same bytes):\n");
	printf("%7s %8s %7s %7s %7s %6s %6s %7s %7s %8s %8s %8s %9s %9s %9s %9s\n", "NODES", "PODS", "OURS", "JANSSON",
	       "J/ITEM", "RATIO", "R/ITEM", "B/NODE", "B/POD", "PLAN", "STATUS", "EXPLAIN", "EXPL-TOPO", "DRAIN-US",
	       "ROLLOUT", "ROLLOUT-S");
	json_array_foreach(json_object_get(doc, "sizes"), i, r)
	{
		json_t *in = json_object_get(r, "ingest"), *m = json_object_get(r, "memory"),
		       *o = json_object_get(r, "operations");
		printf("%7lld %8lld %5.0fMB %5.0fMB %5.0fMB %6.2f %6.2f %7.0f %7.0f %8.1f %8.1f %8.1f %9.1f %9.1f "
		       "%9.1f "
		       "%9.2f\n",
		       (long long)json_integer_value(json_object_get(r, "nodes")),
		       (long long)json_integer_value(json_object_get(r, "pods")),
		       json_real_value(json_object_get(in, "oursMBps")),
		       json_real_value(json_object_get(in, "janssonMBps")),
		       json_real_value(json_object_get(in, "janssonPerItemMBps")),
		       json_real_value(json_object_get(in, "ratio")),
		       json_real_value(json_object_get(in, "ratioPerItem")),
		       json_real_value(json_object_get(m, "rssPerNodeBytes")),
		       json_real_value(json_object_get(m, "rssPerPodBytes")),
		       json_real_value(json_object_get(o, "planNsPerNode")),
		       json_real_value(json_object_get(o, "statusNsPerNode")),
		       json_real_value(json_object_get(o, "explainNsPerNode")),
		       json_real_value(json_object_get(o, "explainTopologyNsPerNode")),
		       json_real_value(json_object_get(o, "drainOneNodeUs")),
		       json_real_value(json_object_get(o, "rolloutNsPerNode")),
		       json_real_value(json_object_get(o, "rolloutSeconds")));
	}
	printf("(OURS/JANSSON in MB/s; JANSSON parses each page whole, J/ITEM each item of a page alone, as our\n"
	       " ingest does; R/ITEM = ours / J/ITEM; B/NODE and B/POD: resident memory per object after malloc_trim; "
	       "the JSON\n"
	       " output also has malloc's heap in use, which leaves out the atoms' mapped blocks)\n");
	json_decref(doc);
	return 0;
}
