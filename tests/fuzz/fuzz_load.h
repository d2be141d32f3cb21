/*
 * The body of the ingest targets (fuzz_load_json.c, fuzz_load_yaml.c):
 * ds_cluster_load on arbitrary bytes into a snapshot that already holds a
 * few objects. Invariants: the ABI error contract; all or nothing (a failed
 * load leaves the snapshot's summary unchanged); loading the same bytes
 * twice gives the same snapshot (objects replace their namesakes); a copy
 * has the same summary; every DaemonSet and node named by the summary can
 * be fetched with ds_cluster_get.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_FUZZ_LOAD_H
#define DS_FUZZ_LOAD_H

#include "fuzz_common.h"

/* What the snapshot holds before the fuzzed bytes arrive. */
static const char fuzz_base_objects[] =
	"{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
	"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"base-node\",\"labels\":{\"a\":\"b\"}},"
	"\"status\":{\"allocatable\":{\"cpu\":\"2\",\"pods\":\"10\"},\"conditions\":[{\"type\":\"Ready\",\"status\":"
	"\"True\"}]}},"
	"{\"apiVersion\":\"apps/"
	"v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"base-ds\",\"namespace\":\"default\","
	"\"uid\":\"u1\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"x\"}},\"template\":{\"metadata\":"
	"{\"labels\":{\"app\":\"x\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}]}";

static int fuzz_cmp_ds(const void *a, const void *b)
{
	const json_t *x = *(const json_t *const *)a, *y = *(const json_t *const *)b;
	int c = strcmp(json_string_value(json_object_get(x, "namespace")),
		       json_string_value(json_object_get(y, "namespace")));
	return c ? c
		 : strcmp(json_string_value(json_object_get(x, "name")), json_string_value(json_object_get(y, "name")));
}

/* ds_cluster_summary with its daemonSets in (namespace, name) order: the
 * library lists them in storage order, which depends on the history of
 * loads (see tests/unit/test_regress_fuzz.c, summary_order). Free with free(). */
static inline char *fuzz_summary(const ds_cluster *c)
{
	char *s = NULL;
	ds_error err;
	int rc = ds_cluster_summary(c, &s, &err);
	fuzz_check_rc("ds_cluster_summary", rc, &err);
	FUZZ_ASSERT(rc == 0 && s, "ds_cluster_summary failed: %s", err.message);
	json_error_t je;
	json_t *v = json_loads(s, 0, &je);
	FUZZ_ASSERT(v, "ds_cluster_summary is not JSON: %s", je.text);
	ds_free(s);
	json_t *dss = json_object_get(v, "daemonSets");
	size_t n = json_array_size(dss);
	json_t **items = calloc(n ? n : 1, sizeof(*items));
	FUZZ_ASSERT(items, "out of memory");
	for (size_t i = 0; i < n; i++) {
		items[i] = json_incref(json_array_get(dss, i));
		FUZZ_ASSERT(json_is_string(json_object_get(items[i], "namespace")) &&
				    json_is_string(json_object_get(items[i], "name")),
			    "summary daemonSets[%zu] without namespace and name", i);
	}
	qsort(items, n, sizeof(*items), fuzz_cmp_ds);
	json_array_clear(dss);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(dss, items[i]);
	free(items);
	char *out = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	FUZZ_ASSERT(out, "json_dumps failed");
	json_decref(v);
	return out;
}

static inline void fuzz_load_one(const uint8_t *data, size_t size, const ds_options *opts)
{
	ds_cluster *c = NULL;
	ds_error err;
	int rc = ds_cluster_new(opts, &c, &err);
	FUZZ_ASSERT(rc == 0, "ds_cluster_new: %s", err.message);
	rc = ds_cluster_load(c, fuzz_base_objects, sizeof(fuzz_base_objects) - 1, NULL, &err);
	FUZZ_ASSERT(rc == 0, "base objects: %s", err.message);
	char *before = fuzz_summary(c);

	size_t count = 0;
	rc = ds_cluster_load(c, (const char *)data, size, &count, &err);
	fuzz_check_rc("ds_cluster_load", rc, &err);
	char *after = fuzz_summary(c);
	if (rc < 0) {
		FUZZ_ASSERT(strcmp(before, after) == 0, "a failed load (%s) changed the snapshot", err.message);
		FUZZ_ASSERT(count == 0, "a failed load reports %zu objects", count);
	} else {
		/* the same bytes again: every object replaces itself */
		size_t again = 0;
		rc = ds_cluster_load(c, (const char *)data, size, &again, &err);
		fuzz_check_rc("ds_cluster_load (again)", rc, &err);
		FUZZ_ASSERT(rc == 0, "the second load of the same bytes failed: %s", err.message);
		FUZZ_ASSERT(again == count, "the second load counted %zu objects, the first %zu", again, count);
		char *twice = fuzz_summary(c);
		FUZZ_ASSERT(strcmp(after, twice) == 0, "loading the same bytes twice changed the snapshot");
		free(twice);

		ds_cluster *copy = NULL;
		rc = ds_cluster_copy(c, &copy, &err);
		fuzz_check_rc("ds_cluster_copy", rc, &err);
		FUZZ_ASSERT(rc == 0, "ds_cluster_copy: %s", err.message);
		char *copied = fuzz_summary(copy);
		FUZZ_ASSERT(strcmp(after, copied) == 0, "the copy has another summary");
		free(copied);
		ds_cluster_free(copy);

		fuzz_names n;
		fuzz_names_get(c, &n, 16, 32);
		for (size_t i = 0; i < n.nds; i++) {
			char *out = NULL;
			rc = ds_cluster_get(c, "DaemonSet", n.ds_ns[i], n.ds_name[i], &out, &err);
			fuzz_check_rc("ds_cluster_get DaemonSet", rc, &err);
			FUZZ_ASSERT(rc == 0, "DaemonSet %s/%s of the summary: %s", n.ds_ns[i], n.ds_name[i],
				    err.message);
			fuzz_check_json("ds_cluster_get DaemonSet", out);
			ds_free(out);
		}
		for (size_t i = 0; i < n.nnodes; i++) {
			char *out = NULL;
			rc = ds_cluster_get(c, "Node", NULL, n.node[i], &out, &err);
			fuzz_check_rc("ds_cluster_get Node", rc, &err);
			FUZZ_ASSERT(rc == 0, "Node %s of the summary: %s", n.node[i], err.message);
			fuzz_check_json("ds_cluster_get Node", out);
			ds_free(out);
		}
		fuzz_names_free(&n);
	}
	free(before);
	free(after);
	ds_cluster_free(c);
}

#endif
