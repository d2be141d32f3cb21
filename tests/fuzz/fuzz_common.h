/*
 * Helpers shared by the libFuzzer targets (tests/fuzz/fuzz_*.c).
 *
 * Every target is deterministic (no clock, no randomness, no global state
 * kept between inputs), never calls exit() and prints nothing on success.
 * A broken invariant is reported on stderr and aborts, which libFuzzer
 * records as a crash like any sanitizer report.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_FUZZ_COMMON_H
#define DS_FUZZ_COMMON_H

/* The targets also fuzz the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemonset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Report a broken invariant and abort (libFuzzer saves the input). */
#define FUZZ_ASSERT(cond, ...)                                                                                         \
	do {                                                                                                           \
		if (!(cond)) {                                                                                         \
			fprintf(stderr, "%s:%d: invariant failed: %s: ", __FILE__, __LINE__, #cond);                   \
			fprintf(stderr, __VA_ARGS__);                                                                  \
			fputc('\n', stderr);                                                                           \
			abort();                                                                                       \
		}                                                                                                      \
	} while (0)

/* A NUL-terminated copy of the input (free with free()). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The ABI contract of every fallible call: 0 with err->code 0, or a negative
 * ds_error_code that is also in err->code, with a message, and every string
 * of err NUL-terminated within its array. */
static inline void fuzz_check_rc(const char *what, int rc, const ds_error *err)
{
	FUZZ_ASSERT(memchr(err->source, 0, sizeof(err->source)) && memchr(err->path, 0, sizeof(err->path)) &&
			    memchr(err->message, 0, sizeof(err->message)),
		    "%s: an error string is not NUL-terminated", what);
	if (rc == 0) {
		FUZZ_ASSERT(err->code == 0, "%s: returned 0 with err->code %d (%s)", what, err->code, err->message);
		return;
	}
	FUZZ_ASSERT(rc <= DS_ENOMEM && rc >= DS_ESTATE, "%s: returned %d, not a ds_error_code", what, rc);
	FUZZ_ASSERT(err->code == rc, "%s: returned %d but err->code is %d (%s)", what, rc, err->code, err->message);
	FUZZ_ASSERT(err->message[0] != '\0', "%s: error %d without a message", what, rc);
	FUZZ_ASSERT(rc != DS_ENOMEM, "%s: DS_ENOMEM without memory pressure", what);
}

/* Options from a JSON object literal; aborts when the literal is wrong. */
static inline ds_options *fuzz_options(const char *json)
{
	ds_options *o = NULL;
	ds_error err;
	if (ds_options_create(&o, &err) < 0 || (json && ds_options_set_all(o, json, strlen(json), &err) < 0)) {
		fprintf(stderr, "fuzz_options(%s): %s\n", json ? json : "NULL", err.message);
		abort();
	}
	return o;
}

/* The instant every target plans at: 2026-12-02T15:00:00Z. */
#define FUZZ_NOW ((ds_time)1796223600000LL)

/* The snapshot's DaemonSets and node names from ds_cluster_summary. */
typedef struct fuzz_names {
	json_t *summary;
	size_t nds, nnodes;
	const char *ds_ns[16], *ds_name[16];
	const char *node[32];
} fuzz_names;

static inline void fuzz_names_get(const ds_cluster *c, fuzz_names *n, size_t max_ds, size_t max_nodes)
{
	memset(n, 0, sizeof(*n));
	char *text = NULL;
	ds_error err;
	int rc = ds_cluster_summary(c, &text, &err);
	fuzz_check_rc("ds_cluster_summary", rc, &err);
	FUZZ_ASSERT(rc == 0, "ds_cluster_summary failed: %s", err.message);
	json_error_t je;
	n->summary = json_loads(text, 0, &je);
	FUZZ_ASSERT(n->summary != NULL, "ds_cluster_summary is not JSON: %s", je.text);
	ds_free(text);
	json_t *dss = json_object_get(n->summary, "daemonSets");
	json_t *nodes = json_object_get(n->summary, "nodeNames");
	FUZZ_ASSERT(json_is_array(dss) && json_is_array(nodes), "summary without daemonSets or nodeNames");
	if (max_ds > 16)
		max_ds = 16;
	if (max_nodes > 32)
		max_nodes = 32;
	for (size_t i = 0; i < json_array_size(dss) && n->nds < max_ds; i++) {
		json_t *d = json_array_get(dss, i);
		n->ds_ns[n->nds] = json_string_value(json_object_get(d, "namespace"));
		n->ds_name[n->nds] = json_string_value(json_object_get(d, "name"));
		FUZZ_ASSERT(n->ds_ns[n->nds] && n->ds_name[n->nds], "summary daemonSets[%zu] without strings", i);
		n->nds++;
	}
	for (size_t i = 0; i < json_array_size(nodes) && n->nnodes < max_nodes; i++) {
		n->node[n->nnodes] = json_string_value(json_array_get(nodes, i));
		FUZZ_ASSERT(n->node[n->nnodes], "summary nodeNames[%zu] is not a string", i);
		n->nnodes++;
	}
}

static inline void fuzz_names_free(fuzz_names *n) { json_decref(n->summary); }

/* A returned JSON document must parse. */
static inline void fuzz_check_json(const char *what, const char *text)
{
	FUZZ_ASSERT(text != NULL, "%s: success without output", what);
	json_error_t je;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &je);
	FUZZ_ASSERT(v != NULL, "%s: output is not JSON (%s): %.200s", what, je.text, text);
	json_decref(v);
}

/* A call's result: its code is a documented one, and its output on success parses. Frees json. */
static inline void fuzz_check_result(const char *what, int rc, char *json, const ds_error *err)
{
	fuzz_check_rc(what, rc, err);
	if (rc == 0)
		fuzz_check_json(what, json);
	ds_free(json);
}

/* A snapshot of the bytes, or NULL when they do not load (which must be a documented error). */
static inline ds_cluster *fuzz_cluster(const ds_options *load_opts, const uint8_t *data, size_t size)
{
	ds_cluster *c = NULL;
	ds_error err;
	int rc = ds_cluster_new(load_opts, &c, &err);
	FUZZ_ASSERT(rc == 0, "ds_cluster_new: %s", err.message);
	rc = ds_cluster_load(c, (const char *)data, size, NULL, &err);
	fuzz_check_rc("ds_cluster_load", rc, &err);
	if (rc == 0)
		return c;
	ds_cluster_free(c);
	return NULL;
}

#endif
