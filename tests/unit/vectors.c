/* Shared driver pieces for the upstream test tables (see vectors.h). */
#include "vectors.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

json_t *vt_load(const char *file)
{
	char path[256];
	snprintf(path, sizeof(path), "tests/vectors/upstream/%s", file);
	return dsi_test_load_json(path);
}

json_t *vt_cases(const json_t *doc)
{
	json_t *cases = json_object_get(doc, "cases");
	ck_assert_msg(json_is_array(cases) && json_array_size(cases) > 0, "no cases in the vector file");
	return cases;
}

const vt_entry *vt_find(const vt_entry *t, const char *name)
{
	for (; t && t->name; t++)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}

void vt_begin(vt_run *r, const char *file, const vt_entry *known)
{
	memset(r, 0, sizeof(*r));
	r->file = file;
	r->known = known;
	while (known && known[r->nknown].name)
		r->nknown++;
	r->known_seen = calloc(r->nknown + 1, 1);
	r->problems = json_array();
	ck_assert(r->known_seen && r->problems);
}

static void problem(vt_run *r, char *msg)
{
	json_array_append_new(r->problems, json_string(msg));
	free(msg);
}

void vt_record(vt_run *r, const char *name, char *mismatch)
{
	r->ncases++;
	const vt_entry *k = vt_find(r->known, name);
	if (k) {
		r->known_seen[k - r->known] = mismatch ? 1 : 2;
		if (mismatch) {
			r->known_failed++;
			if (getenv("VT_VERBOSE")) /* what a known failure looks like today */
				fprintf(stderr, "  known failure: %s: \"%s\": %s\n", r->file, name, mismatch);
			free(mismatch);
		} else {
			r->passed++;
			problem(r, vt_fmt("%s: \"%s\" now agrees with upstream: remove it from the known failures (%s)",
					  r->file, name, k->reason));
		}
		return;
	}
	if (!mismatch) {
		r->passed++;
		return;
	}
	problem(r, vt_fmt("%s: \"%s\": %s", r->file, name, mismatch));
	free(mismatch);
}

void vt_skip(vt_run *r, const char *name, const char *reason)
{
	(void)name;
	(void)reason;
	r->ncases++;
	r->skipped++;
}

void vt_end(vt_run *r)
{
	for (size_t i = 0; i < r->nknown; i++)
		if (!r->known_seen[i])
			problem(r,
				vt_fmt("%s: known failure \"%s\" names no case that ran", r->file, r->known[i].name));
	printf("%s: %u cases: %u passed, %u known failures, %u skipped\n", r->file, r->ncases, r->passed,
	       r->known_failed, r->skipped);
	size_t n = json_array_size(r->problems);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "  %s\n", json_string_value(json_array_get(r->problems, i)));
	fflush(stdout);
	fflush(stderr);
	free(r->known_seen);
	json_decref(r->problems);
	ck_assert_msg(n == 0, "%s: %zu unexpected result(s), listed above", r->file, n);
}

char *vt_fmt(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	ck_assert_int_ge(n, 0);
	char *s = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(s);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

char *vt_dump(const json_t *v)
{
	if (!v)
		return vt_fmt("null");
	char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	ck_assert_ptr_nonnull(s);
	return s;
}

static void set_if_empty(json_t *meta, const char *key, const char *value)
{
	if (value && !*vt_str(meta, key))
		json_object_set_new(meta, key, json_string(value));
}

json_t *vt_with_meta(const json_t *obj, const char *name, const char *ns, const char *uid)
{
	json_t *o = json_deep_copy(obj);
	ck_assert_ptr_nonnull(o);
	json_t *meta = json_object_get(o, "metadata");
	if (!json_is_object(meta)) {
		meta = json_object();
		json_object_set_new(o, "metadata", meta);
	}
	set_if_empty(meta, "name", name);
	set_if_empty(meta, "namespace", ns);
	set_if_empty(meta, "uid", uid);
	return o;
}

ds_cluster *vt_cluster(const json_t *objs, const ds_options *opts)
{
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(opts, &c, &err), 0);
	json_t *list = json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List", "items", objs);
	ck_assert_ptr_nonnull(list);
	size_t n = 0;
	int rc = ds_cluster_load_json(c, list, &n, &err);
	json_decref(list);
	ck_assert_msg(rc == 0, "loading the case's objects: %s: %s", err.path, err.message);
	ck_assert_uint_eq(n, json_array_size(objs));
	return c;
}

int vt_gate(const json_t *cs, const char *gate)
{
	return json_is_true(json_object_get(json_object_get(cs, "featureGates"), gate));
}

const char *vt_str(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? s : "";
}
