/*
 * make bench, ingest section: loading whole dumps (`kubectl get nodes,pods -A -o json`, and -o yaml) of
 * 1,000, 10,000 and 50,000 nodes with their pods, against the same bytes parsed by jansson (each List
 * item alone), Python's json (likewise), simdjson (SIMDJSON builds) and libyaml's bare event parse, and
 * against the library as it was before this work (the baseline commit, built by tests/bench/run.sh). Each
 * measurement runs in a process of its own (tests/bench/ingest_probe.c), whose peak resident memory
 * wait4 reports: the input it holds and everything the load needed at its worst.
 *
 *   ingest -b DIR [-s 1000,10000,50000] [-r REPS] [-j]
 *
 * DIR holds the probes (ingest_probe, and ingest_probe_base, ingest_probe_simd when built) and the
 * dumps (DIR/dumps, generated once per size). Prints a table (with -j, JSON first).
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen.h"

static const char *dir;

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* The dump of n nodes and their pods as one List, as kubectl writes it: JSON indented by 4, YAML in
 * block style with sorted keys. Written once; later runs reuse it. */
static void gen_dump(int n, const char *json_path, const char *yaml_path)
{
	if (exists(json_path) && exists(yaml_path))
		return;
	fprintf(stderr, "ingest: generating %d nodes...\n", n);
	FILE *fj = fopen(json_path, "w"), *fy = fopen(yaml_path, "w");
	if (!fj || !fy) {
		perror("ingest: dumps");
		exit(2);
	}
	fputs("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n", fj);
	fputs("apiVersion: v1\nitems:\n", fy);
	unsigned seed = 12345;
	int first = 1;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++)
			for (int d = 0; d <= (pass ? 4 : 0); d++) {
				buf item = {0};
				if (pass == 0)
					gen_node(&item, i, &seed);
				else if (d == 4 || ds_on_node(d, i))
					gen_pod(&item, i, d == 4 ? 0 : d, d == 4);
				else
					continue;
				json_error_t je;
				json_t *v = json_loadb(item.p, item.n, 0, &je);
				char *pretty = json_dumps(v, JSON_INDENT(4));
				/* each line of the item indented by 8, as it sits in the List */
				fputs(first ? "" : ",\n", fj);
				first = 0;
				fputs("        ", fj);
				for (const char *p = pretty; *p; p++) {
					fputc(*p, fj);
					if (*p == '\n')
						fputs("        ", fj);
				}
				free(pretty);
				json_decref(v);
				buf y = {0};
				yaml_item(&y, item.p, item.n);
				fwrite(y.p, 1, y.n, fy);
				free(y.p);
				free(item.p);
			}
	fputs("\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n",
	      fj);
	fputs("kind: List\nmetadata:\n  resourceVersion: \"\"\n", fy);
	if (fclose(fj) || fclose(fy)) {
		perror("ingest: dumps");
		exit(2);
	}
}

typedef struct result {
	double seconds; /* best of the runs; < 0: not run */
	double out2;    /* a second figure (events: the heartbeat's) */
	long peak_kb;   /* the largest peak resident set of the runs */
	size_t bytes;
	double cpu; /* the CPU seconds of the best run's case, all threads (the probe's third figure; < 0: none) */
} result;

/* argv in a child; its output line and peak resident set. */
static int run_child(char *const argv[], result *r)
{
	int fds[2];
	if (pipe(fds) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	close(fds[1]);
	char out[256] = "";
	size_t n = 0;
	ssize_t k;
	while ((k = read(fds[0], out + n, sizeof(out) - 1 - n)) > 0)
		n += (size_t)k;
	out[n] = '\0';
	close(fds[0]);
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "ingest: %s %s failed\n", argv[0], argv[1]);
		return -1;
	}
	double a = 0, b = 0;
	if (sscanf(out, "%lf %lf", &a, &b) != 2)
		return -1;
	r->seconds = a;
	r->out2 = b;
	r->bytes = (size_t)b;
	r->peak_kb = ru.ru_maxrss;
	r->cpu = -1;
	sscanf(out, "%*f %*f %lf", &r->cpu);
	return 0;
}

/* Best time and largest peak of reps runs of the probe; seconds < 0 when it cannot run. */
static result measure(const char *probe, const char *what, const char *file, const char *threads, int reps)
{
	result best = {-1, 0, 0, 0, 0};
	char path[4096];
	if (strcmp(probe, "python3") == 0)
		snprintf(path, sizeof(path), "python3");
	else
		snprintf(path, sizeof(path), "%s/%s", dir, probe);
	if (strcmp(probe, "python3") != 0 && !exists(path))
		return best;
	for (int i = 0; i < reps; i++) {
		result r;
		char *argv[] = {path, (char *)what, (char *)file, (char *)threads, NULL};
		if (strcmp(probe, "python3") == 0) {
			argv[1] = "tests/bench/ingest.py";
			argv[3] = NULL;
		}
		if (run_child(argv, &r) < 0)
			return best;
		if (best.seconds < 0 || r.seconds < best.seconds) {
			long peak = best.peak_kb > r.peak_kb ? best.peak_kb : r.peak_kb;
			best = r;
			best.peak_kb = peak;
		} else if (r.peak_kb > best.peak_kb) {
			best.peak_kb = r.peak_kb;
		}
	}
	return best;
}

static json_t *fig(result r)
{
	if (r.seconds < 0)
		return json_null();
	return json_pack("{s:f, s:f, s:f, s:f}", "MBps", (double)r.bytes / r.seconds / 1e6, "seconds", r.seconds,
			 "peakPerInputByte", (double)r.peak_kb * 1024.0 / (double)r.bytes, "cpuSeconds", r.cpu);
}

static double mbps(const json_t *f) { return json_is_object(f) ? json_real_value(json_object_get(f, "MBps")) : -1; }
static double peak(const json_t *f)
{
	return json_is_object(f) ? json_real_value(json_object_get(f, "peakPerInputByte")) : -1;
}

/* CPU seconds over wall seconds: the cores the case kept busy */
static double cores(const json_t *f)
{
	double cpu = json_is_object(f) ? json_real_value(json_object_get(f, "cpuSeconds")) : -1;
	return cpu >= 0 ? cpu / json_real_value(json_object_get(f, "seconds")) : -1;
}

static void cell(double v, const char *fmt)
{
	if (v < 0)
		printf(" %7s", "-");
	else
		printf(fmt, v);
}

int main(int argc, char **argv)
{
	int sizes[8] = {1000, 10000, 50000}, nsizes = 3, reps = 3, json = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-b") == 0 && i + 1 < argc)
			dir = argv[++i];
		else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (strcmp(argv[i], "-j") == 0)
			json = 1;
		else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
			nsizes = 0;
			for (char *p = strtok(argv[++i], ","); p && nsizes < 8; p = strtok(NULL, ","))
				sizes[nsizes++] = atoi(p);
		}
	}
	if (!dir) {
		fprintf(stderr, "usage: ingest -b DIR [-s SIZES] [-r REPS] [-j]\n");
		return 2;
	}
	char dumps[4096];
	snprintf(dumps, sizeof(dumps), "%s/dumps", dir);
	mkdir(dumps, 0777);
	json_t *doc = json_pack("{s:[], s:n}", "sizes", "events");
	for (int s = 0; s < nsizes; s++) {
		char jp[4200], yp[4200];
		snprintf(jp, sizeof(jp), "%s/dump-%d.json", dumps, sizes[s]);
		snprintf(yp, sizeof(yp), "%s/dump-%d.yaml", dumps, sizes[s]);
		gen_dump(sizes[s], jp, yp);
		/* one run at the largest size: minutes each, and the machine's noise is smaller than the gaps */
		int r = sizes[s] >= 50000 ? 1 : reps;
		fprintf(stderr, "ingest: %d nodes...\n", sizes[s]);
		json_t *row = json_pack("{s:i}", "nodes", sizes[s]);
		json_t *j = json_object(), *y = json_object();
		json_object_set_new(j, "ours", fig(measure("ingest_probe", "load", jp, "0", r)));
		json_object_set_new(j, "oursOneThread", fig(measure("ingest_probe", "load", jp, "1", r)));
		json_object_set_new(j, "today", fig(measure("ingest_probe_base", "load", jp, "0", r)));
		json_object_set_new(j, "janssonPerItem", fig(measure("ingest_probe", "jansson", jp, "0", r)));
		json_object_set_new(j, "python", fig(measure("python3", "", jp, "0", r)));
		json_object_set_new(j, "oursSimdjson", fig(measure("ingest_probe_simd", "load", jp, "0", r)));
		json_object_set_new(j, "simdjson", fig(measure("ingest_probe_simd", "simdjson", jp, "0", r)));
		json_object_set_new(y, "ours", fig(measure("ingest_probe", "load", yp, "0", r)));
		json_object_set_new(y, "oursOneThread", fig(measure("ingest_probe", "load", yp, "1", r)));
		/* the baseline held a YAML dump as one tree, about 8x its size: not at 50,000 nodes */
		json_object_set_new(y, "today",
				    sizes[s] <= 10000 ? fig(measure("ingest_probe_base", "load", yp, "0", r))
						      : json_null());
		json_object_set_new(y, "libyamlEvents", fig(measure("ingest_probe", "libyaml", yp, "0", r)));
		json_object_set_new(row, "json", j);
		json_object_set_new(row, "yaml", y);
		json_array_append_new(json_object_get(doc, "sizes"), row);
		if (s == 0) {
			result ev = measure("ingest_probe", "events", jp, "0", 1);
			result evb = measure("ingest_probe_base", "events", jp, "0", 1);
			json_object_set_new(doc, "events",
					    json_pack("{s:i, s:f, s:f, s:f, s:f}", "nodes", sizes[s], "fullUs",
						      ev.seconds, "heartbeatUs", ev.out2, "todayFullUs", evb.seconds,
						      "todayHeartbeatUs", evb.out2));
		}
	}
	if (json) {
		char *t = json_dumps(doc, JSON_INDENT(2));
		puts(t);
		free(t);
	}
	printf("\nIngest of whole dumps (MB/s; CORES: CPU seconds / wall seconds of OURS, the cores it was given; "
	       "PEAK: peak resident memory of the process / input bytes):\n");
	printf("%6s %4s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s\n", "NODES", "FMT", "MB", "OURS",
	       "CORES", "1-THR", "TODAY", "xTODAY", "J/ITEM", "PYTHON", "SIMD-LD", "S-CORES", "S-xTDY", "SIMDJSN",
	       "LIBYAML", "PEAK", "PEAK-T");
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(doc, "sizes"), i, row)
	{
		for (int f = 0; f < 2; f++) {
			json_t *x = json_object_get(row, f ? "yaml" : "json");
			json_t *o = json_object_get(x, "ours"), *t = json_object_get(x, "today");
			double mb = json_is_object(o) ? mbps(o) * json_real_value(json_object_get(o, "seconds")) : -1;
			printf("%6lld %4s", (long long)json_integer_value(json_object_get(row, "nodes")),
			       f ? "yaml" : "json");
			cell(mb, " %7.0f");
			cell(mbps(o), " %7.1f");
			cell(cores(o), " %7.2f");
			cell(mbps(json_object_get(x, "oursOneThread")), " %7.1f");
			cell(mbps(t), " %7.1f");
			cell(mbps(o) > 0 && mbps(t) > 0 ? mbps(o) / mbps(t) : -1, " %6.2fx");
			cell(mbps(json_object_get(x, "janssonPerItem")), " %7.1f");
			cell(mbps(json_object_get(x, "python")), " %7.1f");
			json_t *sl = json_object_get(x, "oursSimdjson"); /* the SIMDJSON=1 build's load */
			cell(mbps(sl), " %7.1f");
			cell(cores(sl), " %7.2f");
			cell(mbps(sl) > 0 && mbps(t) > 0 ? mbps(sl) / mbps(t) : -1, " %6.2fx");
			cell(mbps(json_object_get(x, "simdjson")), " %7.1f");
			cell(mbps(json_object_get(x, "libyamlEvents")), " %7.1f");
			cell(peak(o), " %7.2f");
			cell(peak(t), " %7.2f");
			printf("\n");
		}
	}
	json_t *ev = json_object_get(doc, "events");
	printf("\nWatch events on %lld nodes (us per event, each applied alone): full Node update %.1f, heartbeat-only "
	       "%.1f (%.3f of full); baseline %.1f and %.1f\n",
	       (long long)json_integer_value(json_object_get(ev, "nodes")),
	       json_real_value(json_object_get(ev, "fullUs")), json_real_value(json_object_get(ev, "heartbeatUs")),
	       json_real_value(json_object_get(ev, "heartbeatUs")) / json_real_value(json_object_get(ev, "fullUs")),
	       json_real_value(json_object_get(ev, "todayFullUs")),
	       json_real_value(json_object_get(ev, "todayHeartbeatUs")));
	json_decref(doc);
	return 0;
}
