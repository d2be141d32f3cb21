/*
 * One measurement of make bench's ingest section, in a process of its own so that its peak resident
 * memory (the driver reads it with wait4) is that case's alone. Built once per library under test
 * (this tree's, the baseline commit's, the SIMDJSON=1 build's: tests/bench/run.sh), so the same code
 * measures each.
 *
 *   ingest_probe load FILE THREADS      ds_cluster_load of the whole file (JSON or YAML)
 *   ingest_probe jansson FILE           json_loadb of each List item alone (the file is a List)
 *   ingest_probe libyaml FILE           libyaml's event parse of the whole file, nothing built
 *   ingest_probe simdjson FILE          simdjson's parse of the whole file (SIMDJSON builds only)
 *   ingest_probe events FILE THREADS    watch events on the nodes of FILE: a heartbeat-only Node
 *                                       update against one that changes a label, each applied alone
 *
 * Prints one line: "seconds BYTES CPU" (events: "full_us heartbeat_us"), CPU the user and system
 * seconds of all the process's threads over the case (so CPU / seconds shows how many cores it kept
 * busy: on a shared machine, what it was given).
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <yaml.h>

#include "daemonset.h"

/* the simdjson side (ingest_simd.cpp), in SIMDJSON builds */
#ifdef BENCH_SIMDJSON
double bench_simdjson_parse(const char *text, size_t size);
#endif

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *p = malloc((size_t)len + 1);
	if (!p || fread(p, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "ingest_probe: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	p[len] = '\0';
	*n = (size_t)len;
	return p;
}

static void die(const char *what, const ds_error *err)
{
	fprintf(stderr, "ingest_probe: %s: %s: %s\n", what, err->path, err->message);
	exit(1);
}

/* A snapshot that takes inputs of size bytes, with threads load threads (0: the library's default). The
 * baseline library has no option "loadThreads": it loads on one thread whatever is asked. */
static ds_cluster *cluster_for(size_t size, int threads)
{
	ds_options *o;
	ds_error err;
	char v[32];
	if (ds_options_create(&o, &err) < 0)
		die("options", &err);
	snprintf(v, sizeof(v), "%zu", size + 1);
	if (ds_options_set(o, "maxDocumentBytes", v, &err) < 0)
		die("options", &err);
	if (threads > 0) {
		snprintf(v, sizeof(v), "%d", threads);
		ds_options_set(o, "loadThreads", v, &err);
	}
	ds_cluster *c;
	if (ds_cluster_new(o, &c, &err) < 0)
		die("new", &err);
	ds_options_free(o);
	return c;
}

static double run_load(const char *text, size_t n, int threads)
{
	ds_cluster *c = cluster_for(n, threads);
	ds_error err;
	size_t count;
	double t = now_s();
	if (ds_cluster_load(c, text, n, &count, &err) < 0)
		die("load", &err);
	t = now_s() - t;
	if (!count)
		exit(1);
	ds_cluster_free(c);
	return t;
}

/* The index of the first item of the List in text (after "items": [ and any space). */
static size_t first_item(const char *text)
{
	const char *items = strstr(text, "\"items\"");
	const char *open = items ? strchr(items, '[') : NULL;
	if (!open) {
		fprintf(stderr, "ingest_probe: not a List\n");
		exit(2);
	}
	return (size_t)(open + 1 - text);
}

static size_t skip_space(const char *text, size_t pos)
{
	while (text[pos] == ' ' || text[pos] == '\n' || text[pos] == '\t' || text[pos] == '\r')
		pos++;
	return pos;
}

/* The item of the List at text[*pos] parsed alone; *pos moves past it and its comma. */
static json_t *next_item(const char *text, size_t n, size_t *pos)
{
	json_error_t je;
	json_t *v = json_loadb(text + *pos, n - *pos, JSON_DISABLE_EOF_CHECK, &je);
	if (!v) {
		fprintf(stderr, "ingest_probe: item at %zu: %s\n", *pos, je.text);
		exit(1);
	}
	*pos = skip_space(text, *pos + (size_t)je.position);
	if (text[*pos] == ',')
		*pos = skip_space(text, *pos + 1);
	return v;
}

/* Each item of the List alone, as the library's load parses them. */
static double run_jansson(const char *text, size_t n)
{
	double t = now_s();
	size_t pos = skip_space(text, first_item(text));
	while (text[pos] != ']')
		json_decref(next_item(text, n, &pos));
	return now_s() - t;
}

static double run_libyaml(const char *text, size_t n)
{
	double t = now_s();
	yaml_parser_t p;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)text, n);
	size_t events = 0;
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			fprintf(stderr, "ingest_probe: libyaml: %s\n", p.problem);
			exit(1);
		}
		int done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
		events++;
		if (done)
			break;
	}
	yaml_parser_delete(&p);
	return events ? now_s() - t : 0;
}

/* A MODIFIED event of node v with label node-type, heartbeats, resourceVersion (and the first image's
 * size) as given. */
static char *node_event(json_t *v, const char *label, const char *heartbeat, long rv)
{
	json_t *meta = json_object_get(v, "metadata");
	char s[32];
	snprintf(s, sizeof(s), "%ld", rv);
	json_object_set_new(meta, "resourceVersion", json_string(s));
	json_object_set_new(json_object_get(meta, "labels"), "node-type", json_string(label));
	size_t j;
	json_t *cond;
	json_array_foreach(json_object_get(json_object_get(v, "status"), "conditions"), j, cond)
		json_object_set_new(cond, "lastHeartbeatTime", json_string(heartbeat));
	/* and what kubelets report beside it, which the model never reads: an image's size */
	json_t *image = json_array_get(json_object_get(json_object_get(v, "status"), "images"), 0);
	if (image)
		json_object_set_new(image, "sizeBytes", json_integer(rv));
	json_t *ev = json_pack("{s:s, s:O}", "type", "MODIFIED", "object", v);
	char *text = json_dumps(ev, JSON_COMPACT);
	json_decref(ev);
	return text;
}

/* The nodes of the dump, then watch events, each applied alone, in three rounds: each node with a label
 * changed (and a new heartbeat, image size and resourceVersion), then each node with only a new
 * heartbeat, image size and resourceVersion (the kubelet's status update every 40 s). The events of a round are the
 * same size. Prints the best round of each, microseconds per event. */
static void run_events(const char *text, size_t n, int threads)
{
	ds_cluster *c = cluster_for(n, threads);
	ds_error err;
	if (ds_cluster_load(c, text, n, NULL, &err) < 0)
		die("load", &err);
	size_t nodes = ds_cluster_count(c, "Node");
	size_t k = nodes < 1000 ? nodes : 1000;
	json_t **v = calloc(k, sizeof(*v));
	size_t pos = skip_space(text, first_item(text));
	for (size_t i = 0; i < k; i++)
		v[i] = next_item(text, n, &pos);
	char **ev = calloc(k, sizeof(*ev));
	double best[2] = {1e30, 1e30};
	for (int round = 0; round < 3; round++)
		for (int hb = 0; hb < 2; hb++) {
			char label[32], when[32];
			snprintf(label, sizeof(label), "round-%d", round);
			snprintf(when, sizeof(when), "2026-12-02T15:%02d:%02dZ", round, hb * 40);
			for (size_t i = 0; i < k; i++)
				ev[i] = node_event(v[i], label, when, 1000000 + round * 10 + hb);
			double t = now_s();
			for (size_t i = 0; i < k; i++)
				if (ds_cluster_apply_events(c, ev[i], strlen(ev[i]), NULL, &err) < 0)
					die("event", &err);
			t = now_s() - t;
			if (t < best[hb])
				best[hb] = t;
			for (size_t i = 0; i < k; i++)
				free(ev[i]);
		}
	printf("%.3f %.3f\n", best[0] * 1e6 / (double)k, best[1] * 1e6 / (double)k);
	ds_cluster_free(c);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: ingest_probe load|jansson|libyaml|simdjson|events FILE [THREADS]\n");
		return 2;
	}
	size_t n;
	char *text = slurp(argv[2], &n);
	int threads = argc > 3 ? atoi(argv[3]) : 0;
	double t;
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	if (strcmp(argv[1], "load") == 0)
		t = run_load(text, n, threads);
	else if (strcmp(argv[1], "jansson") == 0)
		t = run_jansson(text, n);
	else if (strcmp(argv[1], "libyaml") == 0)
		t = run_libyaml(text, n);
#ifdef BENCH_SIMDJSON
	else if (strcmp(argv[1], "simdjson") == 0)
		t = bench_simdjson_parse(text, n);
#endif
	else if (strcmp(argv[1], "events") == 0) {
		run_events(text, n, threads);
		return 0;
	} else {
		fprintf(stderr, "ingest_probe: unknown case %s\n", argv[1]);
		return 2;
	}
	getrusage(RUSAGE_SELF, &r1);
	double cpu = (double)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) +
		     (double)(r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) +
		     (double)(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) / 1e6 +
		     (double)(r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) / 1e6;
	printf("%.6f %zu %.6f\n", t, n, cpu);
	free(text);
	return 0;
}
