/*
 * The pure functions of include/daemonset/upstream.h against their tables:
 * the files of tests/vectors/pure (one per function, the same tables
 * tests/python/test_upstream_vectors.py replays through ctypes), and the rows
 * of tests/vectors/upstream each file names in its "upstream" member,
 * mapped onto the function as the Python replay maps them. Outputs are
 * compared whole (json_equal), errors by code, path and source.
 *
 * Beside the tables: every error case again with a NULL ds_error, and every
 * input document of every case with members replaced by values of other JSON
 * types (an answer or an error with a message, never a crash; run it under
 * `make sanitize`). And Go's decoding, field by field: in every input of every
 * answered case, each field the Go types have given a value of a wrong JSON
 * type is DS_ETYPE at exactly its path, null there is accepted (the zero value
 * or nil), and a field they do not have changes nothing.
 *
 * The tables name the current functions; every case of the four 1.2 gave a successor with a 2
 * runs through the superseded name too (superseded_names_agree), which SONAME 1 keeps: this suite
 * calls those names on purpose.
 */
#define DS_NO_DEPRECATION_WARNINGS

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/decodecheck.h"
#include "apiserver/schema.h"
#include "harness.h"
#include "vectors.h"

#define PURE_DIR "tests/vectors/pure"

/* ---- a case's inputs ---------------------------------------------------------------------- */

/* A document input: raw.<name> as is, nullInputs.<name> a NULL pointer with that size, absent NULL
 * with size 0, else the JSON value dumped. *buf (freed by the caller) holds what was allocated. */
static const char *doc(const json_t *cs, const char *name, size_t *size, char **buf)
{
	*buf = NULL;
	*size = 0;
	const char *raw = json_string_value(json_object_get(json_object_get(cs, "raw"), name));
	if (raw) {
		*size = strlen(raw);
		return raw;
	}
	const json_t *nul = json_object_get(json_object_get(cs, "nullInputs"), name);
	if (nul) {
		*size = (size_t)json_integer_value(nul);
		return NULL;
	}
	const json_t *v = json_object_get(cs, name);
	if (!v)
		return NULL;
	*buf = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	ck_assert_ptr_nonnull(*buf);
	*size = strlen(*buf);
	return *buf;
}

/* A string input (NULL when absent, null, or listed in nullInputs). */
static const char *str(const json_t *cs, const char *name)
{
	if (json_object_get(json_object_get(cs, "nullInputs"), name))
		return NULL;
	return json_string_value(json_object_get(cs, name));
}

static int null_output(const json_t *cs, const char *name)
{
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(cs, "nullOutputs"), i, v)
	{
		if (strcmp(json_string_value(v), name) == 0)
			return 1;
	}
	return 0;
}

static unsigned effects(const json_t *names)
{
	static const struct {
		const char *name;
		unsigned bit;
	} bits[] = {{"NoSchedule", DS_TAINT_EFFECT_NO_SCHEDULE},
		    {"PreferNoSchedule", DS_TAINT_EFFECT_PREFER_NO_SCHEDULE},
		    {"NoExecute", DS_TAINT_EFFECT_NO_EXECUTE},
		    {"Other", DS_TAINT_EFFECT_OTHER}};
	unsigned m = 0;
	size_t i;
	json_t *v;
	json_array_foreach(names, i, v)
	{
		const char *n = json_string_value(v);
		ck_assert_ptr_nonnull(n);
		if (strncmp(n, "0x", 2) == 0) {
			m |= (unsigned)strtoul(n, NULL, 16);
			continue;
		}
		size_t k = 0;
		while (k < sizeof(bits) / sizeof(bits[0]) && strcmp(bits[k].name, n) != 0)
			k++;
		ck_assert_msg(k < sizeof(bits) / sizeof(bits[0]), "unknown effect %s", n);
		m |= bits[k].bit;
	}
	return m;
}

static ds_time case_now(const json_t *cs)
{
	const char *t = json_string_value(json_object_get(cs, "now"));
	ds_time now = 0;
	if (t)
		ck_assert_int_eq(ds_time_parse(t, &now, NULL), 0);
	return now;
}

/* The JSON output of a call (taken) or JSON null when there is none. */
static json_t *out_json(char *out)
{
	if (!out)
		return json_null();
	json_error_t je;
	json_t *v = json_loads(out, JSON_DECODE_ANY, &je);
	ck_assert_msg(v != NULL, "output is not JSON: %s: %s", je.text, out);
	ds_free(out);
	return v;
}

/* The filter of a case's effect names (NoSchedule, PreferNoSchedule, NoExecute, Other for "" and
 * every unknown effect), as ds_taint_filter strings; NULL for a nil filter (none named). */
static const ds_taint_filter *case_filter(const json_t *cs, ds_taint_filter *f, const char **names, size_t max)
{
	unsigned bits = effects(json_object_get(cs, "effects"));
	if (!bits)
		return NULL;
	f->size = sizeof(*f);
	f->effects = names;
	f->count = 0;
	static const char *const known[] = {"NoSchedule", "PreferNoSchedule", "NoExecute"};
	for (int i = 0; i < 3; i++)
		if (bits & (1u << i))
			names[f->count++] = known[i];
	/* "Other": "" and the unknown effects the case's taints have */
	if (bits & DS_TAINT_EFFECT_OTHER) {
		names[f->count++] = "";
		size_t i;
		json_t *t;
		json_array_foreach(json_object_get(cs, "taints"), i, t)
		{
			const char *e = json_string_value(json_object_get(t, "effect"));
			if (e && *e && strcmp(e, "NoSchedule") && strcmp(e, "PreferNoSchedule") &&
			    strcmp(e, "NoExecute") && f->count < max)
				names[f->count++] = e;
		}
	}
	return f;
}

/* ---- one call ----------------------------------------------------------------------------- */

typedef struct outcome {
	int rc;
	ds_error err;
	json_t *outputs; /* named as the vector files name them */
} outcome;

/* Run case cs through the C function fn; with_err 0 passes a NULL ds_error. */
static void call(const char *fn, const json_t *cs, int with_err, outcome *o)
{
	memset(o, 0, sizeof(*o));
	ds_error_clear(&o->err);
	ds_error *err = with_err ? &o->err : NULL;
	const json_t *settings = json_object_get(cs, "options");
	ds_options *opts = json_is_object(settings) ? dsi_test_options_of(settings) : NULL;
	char *b1, *b2, *b3, *out = NULL;
	size_t s1, s2, s3;
	o->outputs = json_object();
	if (strcmp(fn, "ds_toleration_tolerates_taint") == 0) {
		const char *t1 = doc(cs, "toleration", &s1, &b1), *t2 = doc(cs, "taint", &s2, &b2);
		b3 = NULL;
		int v = -1;
		o->rc = ds_toleration_tolerates_taint(t1, s1, t2, s2, opts, null_output(cs, "out") ? NULL : &v, err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "tolerates", json_boolean(v));
	} else if (strcmp(fn, "ds_taints_find_untolerated2") == 0) {
		const char *t1 = doc(cs, "taints", &s1, &b1), *t2 = doc(cs, "tolerations", &s2, &b2);
		b3 = NULL;
		int found = -1;
		ds_taint_filter f;
		const char *names[16];
		unsigned bits = effects(json_object_get(cs, "effects"));
		int *fo = null_output(cs, "found") ? NULL : &found;
		char **jo = null_output(cs, "json_out") ? NULL : &out;
		if (bits >> 4) /* bits beyond the four: an error only the superseded form has */
			o->rc = ds_taints_find_untolerated(t1, s1, t2, s2, bits, opts, fo, jo, err);
		else
			o->rc = ds_taints_find_untolerated2(t1, s1, t2, s2, case_filter(cs, &f, names, 16), opts, fo,
							    jo, err);
		if (o->rc == 0) {
			json_object_set_new(o->outputs, "found", json_boolean(found));
			json_object_set_new(o->outputs, "taint", out_json(out));
			out = NULL;
		}
	} else if (strcmp(fn, "ds_pod_required_node_affinity_match2") == 0) {
		const char *t1 = doc(cs, "pod", &s1, &b1), *t2 = doc(cs, "node", &s2, &b2);
		b3 = NULL;
		int v = -1;
		o->rc = ds_pod_required_node_affinity_match2(t1, s1, t2, s2, opts, null_output(cs, "out") ? NULL : &v,
							     err);
		if (v >= 0) /* set on a DS_EVALUE of the terms too */
			json_object_set_new(o->outputs, "match", json_boolean(v));
	} else if (strcmp(fn, "ds_daemonset_node_should_run") == 0) {
		const char *t1 = doc(cs, "daemonset", &s1, &b1), *t2 = doc(cs, "node", &s2, &b2);
		b3 = NULL;
		int run = -1, cont = -1;
		o->rc = ds_daemonset_node_should_run(t1, s1, t2, s2, opts, &run, &cont,
						     null_output(cs, "json_out") ? NULL : &out, err);
		if (o->rc == 0) {
			json_object_set_new(o->outputs, "shouldRun", json_boolean(run));
			json_object_set_new(o->outputs, "shouldContinueRunning", json_boolean(cont));
			json_object_set_new(o->outputs, "result", out_json(out));
			out = NULL;
		}
	} else if (strcmp(fn, "ds_daemonset_new_pod") == 0) {
		const char *t1 = doc(cs, "daemonset", &s1, &b1);
		b2 = b3 = NULL;
		o->rc = ds_daemonset_new_pod(t1, s1, str(cs, "nodeName"), str(cs, "hash"), opts,
					     null_output(cs, "json_out") ? NULL : &out, err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "pod", out_json(out)), out = NULL;
	} else if (strcmp(fn, "ds_podspec_add_daemon_tolerations2") == 0) {
		const char *t1 = doc(cs, "podspec", &s1, &b1);
		b2 = b3 = NULL;
		o->rc = ds_podspec_add_daemon_tolerations2(t1, s1, opts, null_output(cs, "json_out") ? NULL : &out,
							   err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "podspec", out_json(out)), out = NULL;
	} else if (strcmp(fn, "ds_affinity_replace_node_name2") == 0) {
		const char *t1 = doc(cs, "affinity", &s1, &b1);
		b2 = b3 = NULL;
		o->rc = ds_affinity_replace_node_name2(t1, s1, str(cs, "nodeName"), opts,
						       null_output(cs, "json_out") ? NULL : &out, err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "affinity", out_json(out)), out = NULL;
	} else if (strcmp(fn, "ds_daemonset_rolling_update") == 0) {
		const char *t1 = doc(cs, "daemonset", &s1, &b1), *t2 = doc(cs, "objects", &s2, &b2);
		b3 = NULL;
		o->rc = ds_daemonset_rolling_update(t1, s1, t2, s2, str(cs, "hash"), case_now(cs), opts,
						    null_output(cs, "json_out") ? NULL : &out, err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "result", out_json(out)), out = NULL;
	} else {
		int victims = strcmp(fn, "ds_preemption_select_victims") == 0;
		ck_assert_msg(victims || strcmp(fn, "ds_scheduler_filter") == 0, "unknown function %s", fn);
		const char *t1 = doc(cs, "pod", &s1, &b1), *t2 = doc(cs, "node", &s2, &b2),
			   *t3 = doc(cs, "objects", &s3, &b3);
		char **jo = null_output(cs, "json_out") ? NULL : &out;
		o->rc = victims ? ds_preemption_select_victims(t1, s1, t2, s2, t3, s3, opts, jo, err)
				: ds_scheduler_filter(t1, s1, t2, s2, t3, s3, opts, jo, err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "result", out_json(out)), out = NULL;
	}
	ck_assert_msg(out == NULL, "%s: an output on failure", fn);
	free(b1);
	free(b2);
	free(b3);
	ds_options_free(opts);
}

/* Parse document name of cs as type (0), or fail o with the parse's error (-1). A document the text
 * function takes as none (NULL with size 0) is a NULL object where the _obj form takes one too
 * (optional: an affinity, the objects). */
static int obj_arg(const json_t *cs, const char *name, const char *type, int optional, const ds_options *opts,
		   ds_error *err, outcome *o, ds_object **out)
{
	char *b;
	size_t n;
	const char *t = doc(cs, name, &n, &b);
	*out = NULL;
	if (optional && !t && !n)
		return 0;
	o->rc = ds_object_parse(type, t, n, opts, out, err);
	/* the scheduler's text functions name their pod's errors as the Pod type does, and their
	 * objects' as the List type does: the sources agree */
	free(b);
	return o->rc < 0 ? -1 : 0;
}

/* Run case cs through the _obj form of fn (its documents parsed with ds_object_parse first, whose
 * errors are the outcome then): 0 when fn has none. */
static int call_obj(const char *fn, const json_t *cs, int with_err, outcome *o)
{
	memset(o, 0, sizeof(*o));
	ds_error_clear(&o->err);
	ds_error *err = with_err ? &o->err : NULL;
	const json_t *settings = json_object_get(cs, "options");
	ds_options *opts = json_is_object(settings) ? dsi_test_options_of(settings) : NULL;
	ds_object *a = NULL, *b = NULL;
	char *out = NULL;
	int known = 1;
	o->outputs = json_object();
	ds_object *c = NULL;
	char **jo = null_output(cs, "json_out") ? NULL : &out;
	if (strcmp(fn, "ds_toleration_tolerates_taint") == 0) {
		int v = -1;
		if (obj_arg(cs, "toleration", "Toleration", 0, opts, err, o, &a) == 0 &&
		    obj_arg(cs, "taint", "Taint", 0, opts, err, o, &b) == 0)
			o->rc = ds_toleration_tolerates_taint_obj(a, b, opts, null_output(cs, "out") ? NULL : &v, err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "tolerates", json_boolean(v));
	} else if (strcmp(fn, "ds_taints_find_untolerated2") == 0) {
		int found = -1;
		ds_taint_filter f;
		const char *names[16];
		if (effects(json_object_get(cs, "effects")) >>
		    4) { /* bits beyond the four: the superseded form's error */
			o->rc = ds_taints_find_untolerated(NULL, 0, NULL, 0, effects(json_object_get(cs, "effects")),
							   opts, NULL, NULL, err);
		} else if (obj_arg(cs, "taints", "[]Taint", 0, opts, err, o, &a) == 0 &&
			   obj_arg(cs, "tolerations", "[]Toleration", 0, opts, err, o, &b) == 0) {
			o->rc = ds_taints_find_untolerated_obj(a, b, case_filter(cs, &f, names, 16), opts,
							       null_output(cs, "found") ? NULL : &found, jo, err);
		}
		if (o->rc == 0) {
			json_object_set_new(o->outputs, "found", json_boolean(found));
			json_object_set_new(o->outputs, "taint", out_json(out));
			out = NULL;
		}
	} else if (strcmp(fn, "ds_pod_required_node_affinity_match2") == 0) {
		int v = -1;
		if (obj_arg(cs, "pod", "Pod", 0, opts, err, o, &a) == 0 &&
		    obj_arg(cs, "node", "Node", 0, opts, err, o, &b) == 0)
			o->rc = ds_pod_required_node_affinity_match_obj(a, b, opts, null_output(cs, "out") ? NULL : &v,
									err);
		if (v >= 0)
			json_object_set_new(o->outputs, "match", json_boolean(v));
	} else if (strcmp(fn, "ds_daemonset_node_should_run") == 0) {
		int run = -1, cont = -1;
		if (obj_arg(cs, "daemonset", "DaemonSet", 0, opts, err, o, &a) == 0 &&
		    obj_arg(cs, "node", "Node", 0, opts, err, o, &b) == 0)
			o->rc = ds_daemonset_node_should_run_obj(a, b, opts, &run, &cont, jo, err);
		if (o->rc == 0) {
			json_object_set_new(o->outputs, "shouldRun", json_boolean(run));
			json_object_set_new(o->outputs, "shouldContinueRunning", json_boolean(cont));
			json_object_set_new(o->outputs, "result", out_json(out));
			out = NULL;
		}
	} else if (strcmp(fn, "ds_daemonset_new_pod") == 0) {
		if (!str(cs, "nodeName") || !jo)
			o->rc = ds_daemonset_new_pod_obj(NULL, str(cs, "nodeName"), str(cs, "hash"), opts, jo, err);
		else if (obj_arg(cs, "daemonset", "DaemonSet", 0, opts, err, o, &a) == 0)
			o->rc = ds_daemonset_new_pod_obj(a, str(cs, "nodeName"), str(cs, "hash"), opts, jo, err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "pod", out_json(out)), out = NULL;
	} else if (strcmp(fn, "ds_podspec_add_daemon_tolerations2") == 0) {
		if (!jo)
			o->rc = ds_podspec_add_daemon_tolerations_obj(NULL, opts, jo, err);
		else if (obj_arg(cs, "podspec", "Pod", 0, opts, err, o, &a) == 0)
			o->rc = ds_podspec_add_daemon_tolerations_obj(a, opts, jo, err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "podspec", out_json(out)), out = NULL;
	} else if (strcmp(fn, "ds_affinity_replace_node_name2") == 0) {
		if (!str(cs, "nodeName") || !jo)
			o->rc = ds_affinity_replace_node_name_obj(NULL, str(cs, "nodeName"), opts, jo, err);
		else if (obj_arg(cs, "affinity", "Affinity", 1, opts, err, o, &a) == 0)
			o->rc = ds_affinity_replace_node_name_obj(a, str(cs, "nodeName"), opts, jo, err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "affinity", out_json(out)), out = NULL;
	} else if (strcmp(fn, "ds_daemonset_rolling_update") == 0) {
		if (!jo)
			o->rc = ds_daemonset_rolling_update_obj(NULL, NULL, NULL, 0, opts, jo, err);
		else if (obj_arg(cs, "daemonset", "DaemonSet", 0, opts, err, o, &a) == 0 &&
			 obj_arg(cs, "objects", "List", 1, opts, err, o, &b) == 0)
			o->rc = ds_daemonset_rolling_update_obj(a, b, str(cs, "hash"), case_now(cs), opts, jo, err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "result", out_json(out)), out = NULL;
	} else if (strcmp(fn, "ds_scheduler_filter") == 0 || strcmp(fn, "ds_preemption_select_victims") == 0) {
		int victims = strcmp(fn, "ds_preemption_select_victims") == 0;
		if (!jo)
			o->rc = ds_scheduler_filter_obj(NULL, NULL, NULL, opts, jo, err);
		else if (obj_arg(cs, "pod", "Pod", 0, opts, err, o, &a) == 0 &&
			 obj_arg(cs, "node", "Node", 0, opts, err, o, &b) == 0 &&
			 obj_arg(cs, "objects", "List", 1, opts, err, o, &c) == 0)
			o->rc = victims ? ds_preemption_select_victims_obj(a, b, c, opts, jo, err)
					: ds_scheduler_filter_obj(a, b, c, opts, jo, err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "result", out_json(out)), out = NULL;
	} else {
		known = 0;
	}
	ds_object_free(c);
	ck_assert_msg(out == NULL, "%s (objects): an output on failure", fn);
	/* ds_object_parse names the argument after its type ("pod"); the text function names its own
	 * "podspec": the same error otherwise */
	if (strcmp(fn, "ds_podspec_add_daemon_tolerations2") == 0 && strncmp(o->err.source, "pod", 3) == 0 &&
	    strncmp(o->err.source, "podspec", 7) != 0) {
		char src[sizeof(o->err.source)];
		snprintf(src, sizeof(src), "podspec%s", o->err.source + 3);
		memcpy(o->err.source, src, sizeof(src));
	}
	ds_object_free(a);
	ds_object_free(b);
	ds_options_free(opts);
	if (!known)
		json_decref(o->outputs);
	return known;
}

/* ---- "{{templateHash}}" -------------------------------------------------------------------- */

static json_t *fill(const json_t *v, const char *hash)
{
	if (json_is_string(v)) {
		const char *s = json_string_value(v), *at = strstr(s, "{{templateHash}}");
		if (!at)
			return json_deep_copy(v);
		char *r = vt_fmt("%.*s%s%s", (int)(at - s), s, hash, at + strlen("{{templateHash}}"));
		json_t *o = json_string(r);
		free(r);
		return o;
	}
	json_t *o = json_deep_copy(v);
	if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++)
			json_array_set_new(o, i, fill(json_array_get(v, i), hash));
	} else if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x) { json_object_set_new(o, k, fill(x, hash)); }
	}
	return o;
}

/* The case with "{{templateHash}}" replaced by ds_template_hash of its DaemonSet's template (new). */
static json_t *with_hash(const json_t *cs)
{
	char *text = vt_dump(cs);
	int has = strstr(text, "{{templateHash}}") != NULL;
	free(text);
	if (!has)
		return json_deep_copy(cs);
	const json_t *ds = json_object_get(cs, "daemonset");
	char *tmpl = json_dumps(json_object_get(json_object_get(ds, "spec"), "template"), JSON_COMPACT);
	ck_assert_ptr_nonnull(tmpl);
	const json_t *cc = json_object_get(json_object_get(ds, "status"), "collisionCount");
	char hash[16];
	ds_error err;
	ck_assert_int_eq(ds_template_hash(tmpl, strlen(tmpl), cc ? (int32_t)json_integer_value(cc) : -1, hash,
					  sizeof(hash), &err),
			 0);
	free(tmpl);
	return fill(cs, hash);
}

/* ---- checking a table case ------------------------------------------------------------------ */

static const char *code_name(int rc)
{
	static const char *const names[] = {"DS_OK",        "DS_ENOMEM",       "DS_EARG",     "DS_ESYNTAX",
					    "DS_ETYPE",     "DS_EVALUE",       "DS_EMISSING", "DS_ENOTFOUND",
					    "DS_ELIMIT",    "DS_EUNSUPPORTED", "DS_EINVALID", "DS_EIO",
					    "DS_ECONFLICT", "DS_ETRANSPORT",   "DS_ESTATE"};
	return rc <= 0 && -rc < (int)(sizeof(names) / sizeof(names[0])) ? names[-rc] : "?";
}

/* NULL when outcome o is case cs's expectation, else what differs (malloc). Releases o. */
static char *differs(const json_t *cs, outcome *op)
{
	outcome o = *op;
	const json_t *want = json_object_get(cs, "expect");
	const json_t *werr = json_object_get(want, "error");
	char *bad = NULL;
	if (werr) {
		const char *code = vt_str(werr, "code"), *path = vt_str(werr, "path");
		const char *source = json_string_value(json_object_get(werr, "source"));
		if (strcmp(code_name(o.rc), code) != 0 || strcmp(o.err.path, path) != 0)
			bad = vt_fmt("%s at \"%s\" (%s), want %s at \"%s\"", code_name(o.rc), o.err.path, o.err.message,
				     code, path);
		else if (source && strcmp(o.err.source, source) != 0)
			bad = vt_fmt("source \"%s\", want \"%s\"", o.err.source, source);
		else if (!o.err.message[0])
			bad = vt_fmt("an error without a message");
	} else if (o.rc != 0) {
		bad = vt_fmt("%s at \"%s\": %s (source %s)", code_name(o.rc), o.err.path, o.err.message, o.err.source);
	}
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)want, k, v)
	{
		if (bad || strcmp(k, "error") == 0)
			continue;
		const json_t *got = json_object_get(o.outputs, k);
		if (!got || !json_equal((json_t *)got, v)) {
			char *g = vt_dump(got), *w = vt_dump(v);
			bad = vt_fmt("%s: got %s\n    want %s", k, g, w);
			free(g);
			free(w);
		}
	}
	json_decref(o.outputs);
	return bad;
}

/* NULL when the outcome is the case's expectation, on text and (where the function has one) in the
 * _obj form on parsed objects, else what differs (malloc). */
static char *mismatch(const char *fn, const json_t *case_in)
{
	json_t *cs = with_hash(case_in);
	outcome o;
	call(fn, cs, 1, &o);
	char *bad = differs(cs, &o);
	if (!bad && call_obj(fn, cs, 1, &o)) {
		bad = differs(cs, &o);
		if (bad) {
			char *b = vt_fmt("(objects) %s", bad);
			free(bad);
			bad = b;
		}
	}
	json_decref(cs);
	return bad;
}

/* The pure files, by name (sorted), each parsed. */
static json_t *pure_files(void)
{
	DIR *d = opendir(PURE_DIR);
	ck_assert_msg(d != NULL, "cannot open %s (run the tests from the source tree)", PURE_DIR);
	json_t *names = json_array();
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0)
			json_array_append_new(names, json_string(e->d_name));
	}
	closedir(d);
	/* sorted, for a stable order of the output */
	for (size_t i = 1; i < json_array_size(names); i++)
		for (size_t j = i; j > 0 && strcmp(json_string_value(json_array_get(names, j - 1)),
						   json_string_value(json_array_get(names, j))) > 0;
		     j--) {
			json_t *a = json_incref(json_array_get(names, j - 1));
			json_array_set(names, j - 1, json_array_get(names, j));
			json_array_set_new(names, j, a);
		}
	json_t *files = json_object();
	size_t i;
	json_t *n;
	json_array_foreach(names, i, n)
	{
		char *path = vt_fmt("%s/%s", PURE_DIR, json_string_value(n));
		json_object_set_new(files, json_string_value(n), dsi_test_load_json(path));
		free(path);
	}
	json_decref(names);
	return files;
}

static const char *const FUNCTIONS[] = {
	"ds_toleration_tolerates_taint",  "ds_taints_find_untolerated2", "ds_pod_required_node_affinity_match2",
	"ds_daemonset_node_should_run",   "ds_daemonset_new_pod",        "ds_podspec_add_daemon_tolerations2",
	"ds_affinity_replace_node_name2", "ds_daemonset_rolling_update", "ds_scheduler_filter",
	"ds_preemption_select_victims",
};
#define NFUNCTIONS (sizeof(FUNCTIONS) / sizeof(FUNCTIONS[0]))

START_TEST(one_file_per_function)
{
	json_t *files = pure_files();
	ck_assert_uint_eq(json_object_size(files), NFUNCTIONS);
	for (size_t i = 0; i < NFUNCTIONS; i++) {
		int found = 0;
		const char *k;
		json_t *f;
		json_object_foreach(files, k, f) { found += strcmp(vt_str(f, "function"), FUNCTIONS[i]) == 0; }
		ck_assert_msg(found == 1, "%s: %d files", FUNCTIONS[i], found);
	}
	json_decref(files);
}
END_TEST

START_TEST(table_cases)
{
	json_t *files = pure_files();
	const char *name;
	json_t *f;
	unsigned total = 0, failed = 0;
	json_object_foreach(files, name, f)
	{
		size_t i;
		json_t *cs;
		unsigned n = 0, errors = 0;
		json_array_foreach(json_object_get(f, "cases"), i, cs)
		{
			char *bad = mismatch(vt_str(f, "function"), cs);
			if (bad) {
				fprintf(stderr, "  %s: \"%s\": %s\n", name, vt_str(cs, "name"), bad);
				failed++;
				free(bad);
			}
			n++;
			errors += json_object_get(json_object_get(cs, "expect"), "error") != NULL;
		}
		printf("%s: %u cases (%u of bad input)\n", name, n, errors);
		ck_assert_msg(errors > 0 && errors < n, "%s: both answers and errors are tabled", name);
		total += n;
	}
	fflush(stdout);
	json_decref(files);
	ck_assert_msg(failed == 0, "%u of %u cases differ, listed above", failed, total);
	ck_assert_uint_gt(total, 300);
}
END_TEST

/* Each error case again without a ds_error: the same code, no crash. */
START_TEST(errors_without_an_error_report)
{
	json_t *files = pure_files();
	const char *name;
	json_t *f;
	unsigned n = 0;
	json_object_foreach(files, name, f)
	{
		size_t i;
		json_t *cs;
		json_array_foreach(json_object_get(f, "cases"), i, cs)
		{
			const json_t *werr = json_object_get(json_object_get(cs, "expect"), "error");
			if (!werr)
				continue;
			json_t *c = with_hash(cs);
			outcome o;
			call(vt_str(f, "function"), c, 0, &o);
			ck_assert_msg(strcmp(code_name(o.rc), vt_str(werr, "code")) == 0, "%s: \"%s\": %s", name,
				      vt_str(cs, "name"), code_name(o.rc));
			json_decref(o.outputs);
			json_decref(c);
			n++;
		}
	}
	json_decref(files);
	ck_assert_uint_gt(n, 50);
}
END_TEST

/* Run case cs of the successor fn through the name it superseded (which reads every option at its
 * default, or the effects as bits): 0 when fn superseded none or the case cannot be said to it. */
static int call_superseded(const char *fn, const json_t *cs, outcome *o)
{
	memset(o, 0, sizeof(*o));
	ds_error_clear(&o->err);
	const json_t *settings = json_object_get(cs, "options");
	int with_opts = strcmp(fn, "ds_taints_find_untolerated2") == 0;
	if (!with_opts && json_object_size(settings))
		return 0;
	ds_options *opts = json_is_object(settings) ? dsi_test_options_of(settings) : NULL;
	char *b1 = NULL, *b2 = NULL, *out = NULL;
	size_t s1 = 0, s2 = 0;
	char **jo = null_output(cs, "json_out") ? NULL : &out;
	int known = 1;
	o->outputs = json_object();
	if (with_opts) {
		const char *t1 = doc(cs, "taints", &s1, &b1), *t2 = doc(cs, "tolerations", &s2, &b2);
		int found = -1;
		o->rc = ds_taints_find_untolerated(t1, s1, t2, s2, effects(json_object_get(cs, "effects")), opts,
						   null_output(cs, "found") ? NULL : &found, jo, &o->err);
		if (o->rc == 0) {
			json_object_set_new(o->outputs, "found", json_boolean(found));
			json_object_set_new(o->outputs, "taint", out_json(out));
			out = NULL;
		}
	} else if (strcmp(fn, "ds_pod_required_node_affinity_match2") == 0) {
		const char *t1 = doc(cs, "pod", &s1, &b1), *t2 = doc(cs, "node", &s2, &b2);
		int v = -1;
		o->rc = ds_pod_required_node_affinity_match(t1, s1, t2, s2, null_output(cs, "out") ? NULL : &v,
							    &o->err);
		if (v >= 0)
			json_object_set_new(o->outputs, "match", json_boolean(v));
	} else if (strcmp(fn, "ds_podspec_add_daemon_tolerations2") == 0) {
		const char *t1 = doc(cs, "podspec", &s1, &b1);
		o->rc = ds_podspec_add_daemon_tolerations(t1, s1, jo, &o->err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "podspec", out_json(out)), out = NULL;
	} else if (strcmp(fn, "ds_affinity_replace_node_name2") == 0) {
		const char *t1 = doc(cs, "affinity", &s1, &b1);
		o->rc = ds_affinity_replace_node_name(t1, s1, str(cs, "nodeName"), jo, &o->err);
		if (o->rc == 0)
			json_object_set_new(o->outputs, "affinity", out_json(out)), out = NULL;
	} else {
		known = 0;
	}
	ck_assert_msg(out == NULL, "%s (superseded name): an output on failure", fn);
	free(b1);
	free(b2);
	ds_options_free(opts);
	if (!known)
		json_decref(o->outputs);
	return known;
}

/* Each case of the four functions 1.2 superseded with a 2 (daemonset(7), Superseded names), through
 * the old name: the table's expectation and the successor's outcome, message included. */
START_TEST(superseded_names_agree)
{
	json_t *files = pure_files();
	const char *name;
	json_t *f;
	unsigned ran = 0, files_with = 0;
	json_object_foreach(files, name, f)
	{
		const char *fn = vt_str(f, "function");
		size_t i;
		json_t *cs;
		unsigned here = 0;
		json_array_foreach(json_object_get(f, "cases"), i, cs)
		{
			outcome old, cur;
			if (!call_superseded(fn, cs, &old))
				continue;
			call(fn, cs, 1, &cur);
			ck_assert_msg(
				old.rc == cur.rc && strcmp(old.err.path, cur.err.path) == 0 &&
					strcmp(old.err.source, cur.err.source) == 0 &&
					strcmp(old.err.message, cur.err.message) == 0,
				"%s: \"%s\": the superseded name: %s at \"%s\" (%s), the successor: %s at \"%s\" (%s)",
				name, vt_str(cs, "name"), code_name(old.rc), old.err.path, old.err.message,
				code_name(cur.rc), cur.err.path, cur.err.message);
			ck_assert_msg(json_equal(old.outputs, cur.outputs), "%s: \"%s\": outputs differ", name,
				      vt_str(cs, "name"));
			json_decref(cur.outputs);
			char *bad = differs(cs, &old);
			ck_assert_msg(bad == NULL, "%s: \"%s\" (superseded name): %s", name, vt_str(cs, "name"), bad);
			here++;
		}
		files_with += here > 0;
		ran += here;
	}
	json_decref(files);
	ck_assert_uint_eq(files_with, 4);
	ck_assert_uint_gt(ran, 120);
}
END_TEST

/* The checker itself: a flipped expectation, a wrong path and a wrong output are all reported. */
START_TEST(checker_reports_mismatches)
{
	json_t *files = pure_files();
	json_t *cs = json_deep_copy(
		json_array_get(json_object_get(json_object_get(files, "tolerates_taint.json"), "cases"), 0));
	json_t *expect = json_object_get(cs, "expect");
	json_object_set_new(expect, "tolerates", json_boolean(!json_is_true(json_object_get(expect, "tolerates"))));
	char *bad = mismatch("ds_toleration_tolerates_taint", cs);
	ck_assert_ptr_nonnull(bad);
	free(bad);
	json_object_set_new(cs, "expect", json_pack("{s:{s:s, s:s}}", "error", "code", "DS_ETYPE", "path", "key"));
	bad = mismatch("ds_toleration_tolerates_taint", cs);
	ck_assert_ptr_nonnull(bad);
	free(bad);
	json_decref(cs);
	/* a pod differing in one toleration */
	json_t *np =
		json_deep_copy(json_array_get(json_object_get(json_object_get(files, "new_pod.json"), "cases"), 0));
	json_t *tols = json_object_get(json_object_get(json_object_get(json_object_get(np, "expect"), "pod"), "spec"),
				       "tolerations");
	ck_assert_uint_gt(json_array_size(tols), 0);
	json_object_set_new(json_array_get(tols, 0), "tolerationSeconds", json_integer(300));
	bad = mismatch("ds_daemonset_new_pod", np);
	ck_assert_ptr_nonnull(bad);
	ck_assert_ptr_nonnull(strstr(bad, "pod:"));
	free(bad);
	json_decref(np);
	json_decref(files);
}
END_TEST

/* ---- upstream rows through the pure functions ------------------------------------------------ */

typedef enum map_kind {
	M_SKIP,     /* not expressible: the row is not for this function */
	M_CHECK,    /* a table case of the function */
	M_AFFINITY, /* Match's bool (its parse errors, which come with false, are not compared) */
	M_FILTER,   /* one plugin's code and reasons in ds_scheduler_filter */
	M_TEMPLATE, /* CreatePodTemplate: tolerations and labels */
	M_PRIORITY, /* PodPriority: ds_scheduler_filter's priority */
	M_DRYRUN,   /* dryRunPreemption: SelectVictimsOnNode per node */
} map_kind;

/* The row's featureGates as options (NULL: none). */
static json_t *gate_options(const json_t *row)
{
	const json_t *g = json_object_get(row, "featureGates");
	if (!json_object_size(g))
		return NULL;
	char buf[512] = "";
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)g, k, v)
	{
		size_t n = strlen(buf);
		snprintf(buf + n, sizeof(buf) - n, "%s%s=%s", n ? "," : "", k, json_is_true(v) ? "true" : "false");
	}
	return json_pack("{s:s}", "featureGates", buf);
}

static json_t *named(const json_t *obj, const char *name) { return vt_with_meta(obj, name, NULL, NULL); }

/* Upstream's plugin tests run one plugin: a node gets a name and allocatable pods 110 when it has none. */
static json_t *node_fixture(const json_t *n, const char *name)
{
	json_t *o = n ? named(n, name)
		      : json_pack("{s:s, s:s, s:{s:s}}", "apiVersion", "v1", "kind", "Node", "metadata", "name", name);
	json_t *st = json_object_get(o, "status");
	if (!json_is_object(st)) {
		st = json_object();
		json_object_set_new(o, "status", st);
	}
	if (!json_object_get(st, "allocatable"))
		json_object_set_new(st, "allocatable", json_pack("{s:s}", "pods", "110"));
	return o;
}

static int starts_with(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* The case for an upstream row, as tests/python/test_upstream_vectors.py map_row makes it (new
 * reference), or NULL with *kind M_SKIP. */
static json_t *map_row(const json_t *entry, const json_t *row, map_kind *kind)
{
	const char *fn = vt_str(entry, "function"), *rfn = json_string_value(json_object_get(row, "function"));
	*kind = M_SKIP;
	if (rfn && strcmp(rfn, fn) != 0)
		return NULL;
	const json_t *ex = json_object_get(row, "expect");
	json_t *cs = json_object();
	json_t *opts = gate_options(row);
	if (opts)
		json_object_set_new(cs, "options", opts);
	if (strcmp(fn, "ToleratesTaint") == 0) {
		json_object_set(cs, "toleration", json_object_get(row, "toleration"));
		json_object_set(cs, "taint", json_object_get(row, "taint"));
		json_object_set_new(cs, "expect", json_pack("{s:O}", "tolerates", json_object_get(ex, "tolerates")));
		*kind = M_CHECK;
	} else if (strcmp(fn, "FindMatchingUntoleratedTaint") == 0) {
		const json_t *filter = json_object_get(row, "filter");
		json_t *eff = json_array();
		if (json_is_string(filter) && strcmp(json_string_value(filter), "NoExecute") == 0) {
			json_array_append_new(eff, json_string("NoExecute"));
		} else if (json_is_string(filter) && strcmp(json_string_value(filter), "none") == 0) {
			/* a filter that keeps no taint of the row: the bits of the effects it lacks */
			static const char *const all[] = {"NoSchedule", "PreferNoSchedule", "NoExecute"};
			int have[4] = {0, 0, 0, 0};
			size_t i;
			json_t *t;
			json_array_foreach(json_object_get(row, "taints"), i, t)
			{
				int k = 3;
				for (int j = 0; j < 3; j++)
					if (strcmp(vt_str(t, "effect"), all[j]) == 0)
						k = j;
				have[k] = 1;
			}
			for (int j = 0; j < 4; j++)
				if (!have[j])
					json_array_append_new(eff, json_string(j < 3 ? all[j] : "Other"));
			if (!json_array_size(eff)) {
				json_decref(eff);
				json_decref(cs);
				return NULL;
			}
		}
		json_object_set_new(cs, "effects", eff);
		json_object_set(cs, "taints", json_object_get(row, "taints"));
		json_object_set(cs, "tolerations", json_object_get(row, "tolerations"));
		json_t *want = json_pack("{s:O}", "found", json_object_get(ex, "found"));
		if (json_is_true(json_object_get(ex, "found")))
			json_object_set(want, "taint", json_object_get(ex, "taint"));
		json_object_set_new(cs, "expect", want);
		*kind = M_CHECK;
	} else if (strcmp(fn, "GetRequiredNodeAffinity(pod).Match") == 0 || strcmp(fn, "MatchNodeSelectorTerms") == 0) {
		if (json_is_null(json_object_get(row, "node"))) { /* a nil node: the function takes a Node */
			json_decref(cs);
			return NULL;
		}
		if (strcmp(fn, "MatchNodeSelectorTerms") == 0) {
			const json_t *sel = json_object_get(row, "nodeSelector");
			json_t *req = json_is_null(sel) ? json_pack("{s:n}", "nodeSelectorTerms")
							: json_incref((json_t *)sel);
			json_object_set_new(cs, "pod",
					    json_pack("{s:{s:{s:{s:o}}}}", "spec", "affinity", "nodeAffinity",
						      "requiredDuringSchedulingIgnoredDuringExecution", req));
		} else {
			json_object_set(cs, "pod", json_object_get(row, "pod"));
		}
		json_object_set(cs, "node", json_object_get(row, "node"));
		json_object_set_new(cs, "expect", json_pack("{s:O}", "match", json_object_get(ex, "match")));
		*kind = M_AFFINITY;
	} else if (strcmp(fn, "NodeShouldRunDaemonPod") == 0) {
		json_object_set(cs, "daemonset", json_object_get(row, "daemonset"));
		json_object_set(cs, "node", json_object_get(row, "node"));
		json_object_set(cs, "expect", (json_t *)ex);
		*kind = M_CHECK;
	} else if (strcmp(fn, "ReplaceDaemonSetPodNodeNameNodeAffinity") == 0) {
		json_object_set(cs, "affinity", json_object_get(row, "affinity"));
		json_object_set(cs, "nodeName", json_object_get(row, "nodeName"));
		json_object_set_new(cs, "expect", json_pack("{s:O}", "affinity", json_object_get(ex, "affinity")));
		*kind = M_CHECK;
	} else if (strcmp(fn, "CreatePodTemplate") == 0) {
		json_object_set(cs, "podspec", json_object_get(row, "template"));
		json_object_set(cs, "row", (json_t *)row);
		*kind = M_TEMPLATE;
	} else if (strcmp(fn, "PodPriority") == 0) {
		json_object_set(cs, "pod", json_object_get(row, "pod"));
		json_object_set_new(cs, "node", node_fixture(NULL, "node"));
		json_object_set(cs, "expect", (json_t *)ex);
		*kind = M_PRIORITY;
	} else if (starts_with(fn, "dryRunPreemption")) {
		json_object_set(cs, "row", (json_t *)row);
		*kind = M_DRYRUN;
	} else { /* a scheduler plugin's Filter */
		const json_t *pre = json_object_get(ex, "preFilter");
		if (json_object_get(json_object_get(row, "args"), "addedAffinity") ||
		    (starts_with(fn, "NodePorts") && json_is_string(pre) &&
		     strcmp(json_string_value(pre), "Skip") == 0)) {
			json_decref(cs);
			return NULL;
		}
		const char *plugin = vt_str(entry, "plugin");
		json_t *want =
			json_deep_copy(json_is_object(pre) && strcmp(plugin, "NodeResourcesFit") == 0 ? pre : ex);
		const json_t *corr = json_object_get(json_object_get(entry, "corrections"), vt_str(row, "name"));
		if (corr) {
			ck_assert_msg(strcmp(vt_str(want, "code"), vt_str(corr, "from")) == 0,
				      "%s: the upstream row now says %s: drop its correction", vt_str(row, "name"),
				      vt_str(want, "code"));
			json_object_set(want, "code", json_object_get(corr, "to"));
		}
		const json_t *existing = json_object_get(row, "existingPods");
		const char *name = "node";
		if (*vt_str(json_object_get(json_array_get(existing, 0), "spec"), "nodeName"))
			name = vt_str(json_object_get(json_array_get(existing, 0), "spec"), "nodeName");
		json_t *objects = json_array();
		size_t i;
		json_t *p;
		json_array_foreach(existing, i, p)
		{
			char pn[32];
			snprintf(pn, sizeof(pn), "existing-%zu", i);
			json_array_append_new(objects, named(p, pn));
		}
		json_t *o = json_object_get(cs, "options");
		const char *k;
		json_t *v;
		json_object_foreach(json_object_get(row, "args"), k, v)
		{
			if (!o) {
				o = json_object();
				json_object_set_new(cs, "options", o);
			}
			char buf[256] = "";
			size_t j;
			json_t *x;
			json_array_foreach(v, j, x)
			{
				size_t n = strlen(buf);
				snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? "," : "", json_string_value(x));
			}
			json_object_set_new(o, k, json_string(buf));
		}
		json_object_set(cs, "pod", json_object_get(row, "pod"));
		json_object_set_new(cs, "node", node_fixture(json_object_get(row, "node"), name));
		json_object_set_new(cs, "objects", objects);
		json_object_set_new(cs, "plugin", json_string(plugin));
		json_object_set_new(cs, "expect", want);
		*kind = M_FILTER;
	}
	if (*kind == M_SKIP) {
		json_decref(cs);
		return NULL;
	}
	return cs;
}

static char *differ(const char *what, const json_t *got, const json_t *want)
{
	if (got && want && json_equal((json_t *)got, (json_t *)want))
		return NULL;
	char *g = vt_dump(got), *w = vt_dump(want);
	char *r = vt_fmt("%s %s, upstream %s", what, g, w);
	free(g);
	free(w);
	return r;
}

/* One plugin of a ds_scheduler_filter result against a Filter row. */
static char *filter_row(const json_t *cs)
{
	outcome o;
	call("ds_scheduler_filter", cs, 1, &o);
	if (o.rc < 0) {
		json_decref(o.outputs);
		return vt_fmt("%s: %s", code_name(o.rc), o.err.message);
	}
	const char *plugin = vt_str(cs, "plugin");
	const json_t *want = json_object_get(cs, "expect");
	json_t *reasons = json_array(), *others = json_array(), *ir = json_array();
	const char *code = "Success";
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(json_object_get(o.outputs, "result"), "reasons"), i, r)
	{
		if (strcmp(vt_str(r, "plugin"), plugin) != 0) {
			json_array_append(others, json_object_get(r, "message"));
			continue;
		}
		if (!json_array_size(reasons))
			code = vt_str(r, "code");
		json_array_append(reasons, json_object_get(r, "message"));
		const json_t *res = json_object_get(r, "resource");
		if (res) {
			const char *m = vt_str(r, "message");
			const char *rn = strcmp(m, "Too many pods") == 0 ? "pods" : m + strlen("Insufficient ");
			json_array_append_new(ir, json_pack("{s:s, s:s, s:O, s:O, s:O}", "resourceName", rn, "reason",
							    m, "requested", json_object_get(res, "requested"), "used",
							    json_object_get(res, "used"), "capacity",
							    json_object_get(res, "allocatable")));
		}
	}
	const json_t *wr = json_object_get(want, "reasons");
	json_t *none = json_array();
	char *bad = NULL;
	if (json_array_size(others))
		bad = differ("other plugins failed:", others, none);
	else if (strcmp(code, vt_str(want, "code")) != 0)
		bad = vt_fmt("code %s, upstream %s", code, vt_str(want, "code"));
	else
		bad = differ("reasons", reasons, wr ? wr : none);
	if (!bad && json_object_get(want, "insufficientResources") && strcmp(plugin, "NodeResourcesFit") == 0)
		bad = differ("insufficient resources", ir, json_object_get(want, "insufficientResources"));
	json_decref(none);
	json_decref(reasons);
	json_decref(others);
	json_decref(ir);
	json_decref(o.outputs);
	return bad;
}

/* CreatePodTemplate: the tolerations of ds_podspec_add_daemon_tolerations2 and the labels of
 * ds_daemonset_new_pod for a DaemonSet with the row's generation. */
static char *template_row(const json_t *cs)
{
	const json_t *row = json_object_get(cs, "row"), *ex = json_object_get(row, "expect");
	outcome o;
	call("ds_podspec_add_daemon_tolerations2", cs, 1, &o);
	char *bad =
		o.rc < 0 ? vt_fmt("%s", o.err.message)
			 : differ("tolerations", json_object_get(json_object_get(o.outputs, "podspec"), "tolerations"),
				  json_object_get(ex, "tolerations"));
	json_decref(o.outputs);
	if (bad)
		return bad;
	char gen[32];
	snprintf(gen, sizeof(gen), "%lld", (long long)json_integer_value(json_object_get(row, "templateGeneration")));
	json_t *np =
		json_pack("{s:{s:s, s:s, s:{s:s, s:s, s:s, s:{s:s}}, s:{s:O}}, s:s, s:O}", "daemonset", "apiVersion",
			  "apps/v1", "kind", "DaemonSet", "metadata", "name", "ds", "namespace", "default", "uid", "u",
			  "annotations", "deprecated.daemonset.template.generation", gen, "spec", "template",
			  json_object_get(row, "template"), "nodeName", "node", "hash", json_object_get(row, "hash"));
	call("ds_daemonset_new_pod", np, 1, &o);
	bad = o.rc < 0 ? vt_fmt("%s", o.err.message)
		       : differ("labels",
				json_object_get(json_object_get(json_object_get(o.outputs, "pod"), "metadata"),
						"labels"),
				json_object_get(ex, "labels"));
	json_decref(o.outputs);
	json_decref(np);
	return bad;
}

/* dryRunPreemption: each node of the row alone, with its pods and the PDBs. */
static char *dry_run_row(const json_t *cs)
{
	const json_t *row = json_object_get(cs, "row");
	json_t *pdbs = json_array();
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(row, "pdbs"), i, v)
	{
		char name[32];
		snprintf(name, sizeof(name), "pdb-%zu", i);
		json_t *p = named(v, name);
		if (!json_object_get(p, "kind")) {
			json_object_set_new(p, "apiVersion", json_string("policy/v1"));
			json_object_set_new(p, "kind", json_string("PodDisruptionBudget"));
		}
		json_array_append_new(pdbs, p);
	}
	char *bad = NULL;
	json_t *n;
	json_array_foreach(json_object_get(row, "nodes"), i, n)
	{
		if (bad)
			break;
		const char *name = vt_str(json_object_get(n, "metadata"), "name");
		json_t *objects = json_array();
		size_t j;
		json_t *p;
		json_array_foreach(json_object_get(row, "pods"), j, p)
		{
			if (strcmp(vt_str(json_object_get(p, "spec"), "nodeName"), name) == 0)
				json_array_append(objects, p);
		}
		json_array_extend(objects, pdbs);
		json_t *c = json_pack("{s:O, s:O, s:o}", "pod", json_object_get(row, "preemptor"), "node", n, "objects",
				      objects);
		outcome o;
		call("ds_preemption_select_victims", c, 1, &o);
		const json_t *res = json_object_get(o.outputs, "result");
		const json_t *cand =
			json_object_get(json_object_get(json_object_get(row, "expect"), "candidates"), name);
		if (o.rc < 0) {
			bad = vt_fmt("%s: %s", name, o.err.message);
		} else if (json_is_true(json_object_get(res, "possible")) != (cand != NULL)) {
			bad = vt_fmt("%s: possible %d, upstream %d", name,
				     json_is_true(json_object_get(res, "possible")), cand != NULL);
		} else if (cand) {
			/* victims as a set: upstream's test compares them so */
			json_t *got = json_array();
			size_t k;
			json_t *x;
			json_array_foreach(json_object_get(res, "victims"), k, x)
			{
				json_array_append(got, json_object_get(x, "name"));
			}
			const json_t *want = json_object_get(cand, "victims");
			int same = json_array_size(got) == json_array_size(want);
			json_array_foreach(want, k, x)
			{
				int found = 0;
				size_t m;
				json_t *y;
				json_array_foreach(got, m, y) { found |= json_equal(x, y); }
				same &= found;
			}
			if (!same)
				bad = differ(name, got, want);
			else if (json_integer_value(json_object_get(res, "pdbViolations")) !=
				 json_integer_value(json_object_get(cand, "numPDBViolations")))
				bad = vt_fmt("%s: %lld PDB violations, upstream %lld", name,
					     (long long)json_integer_value(json_object_get(res, "pdbViolations")),
					     (long long)json_integer_value(json_object_get(cand, "numPDBViolations")));
			json_decref(got);
		}
		json_decref(o.outputs);
		json_decref(c);
	}
	json_decref(pdbs);
	return bad;
}

static char *run_row(const char *fn, map_kind kind, const json_t *cs)
{
	outcome o;
	char *bad = NULL;
	switch (kind) {
	case M_CHECK: return mismatch(fn, cs);
	case M_AFFINITY:
		call(fn, cs, 1, &o);
		if (o.rc != 0 && o.rc != DS_EVALUE)
			bad = vt_fmt("%s: %s", code_name(o.rc), o.err.message);
		else
			bad = differ("match", json_object_get(o.outputs, "match"),
				     json_object_get(json_object_get(cs, "expect"), "match"));
		if (!bad && o.rc == DS_EVALUE && json_is_true(json_object_get(o.outputs, "match")))
			bad = vt_fmt("a parse error with a match");
		json_decref(o.outputs);
		return bad;
	case M_FILTER: return filter_row(cs);
	case M_TEMPLATE: return template_row(cs);
	case M_PRIORITY:
		call("ds_scheduler_filter", cs, 1, &o);
		bad = o.rc < 0 ? vt_fmt("%s", o.err.message)
			       : differ("priority", json_object_get(json_object_get(o.outputs, "result"), "priority"),
					json_object_get(json_object_get(cs, "expect"), "priority"));
		json_decref(o.outputs);
		return bad;
	case M_DRYRUN: return dry_run_row(cs);
	default: ck_abort_msg("unexpected kind"); return NULL;
	}
}

START_TEST(upstream_rows)
{
	json_t *files = pure_files();
	const char *name;
	json_t *f;
	unsigned total = 0;
	json_object_foreach(files, name, f)
	{
		size_t e;
		json_t *entry;
		json_array_foreach(json_object_get(f, "upstream"), e, entry)
		{
			json_t *doc = vt_load(vt_str(entry, "file"));
			char *label = vt_fmt("%s via %s (%s)", vt_str(entry, "file"), vt_str(f, "function"),
					     vt_str(entry, "function"));
			vt_run r;
			vt_begin(&r, label, NULL);
			size_t i;
			json_t *row;
			json_array_foreach(vt_cases(doc), i, row)
			{
				map_kind kind;
				json_t *cs = map_row(entry, row, &kind);
				if (!cs)
					continue;
				vt_record(&r, vt_str(row, "name"), run_row(vt_str(f, "function"), kind, cs));
				json_decref(cs);
			}
			/* every row the entry maps ran: one that stops mapping fails here, not silently */
			ck_assert_msg(r.ncases == json_integer_value(json_object_get(entry, "rows")),
				      "%s: %u rows ran, %lld listed", label, r.ncases,
				      (long long)json_integer_value(json_object_get(entry, "rows")));
			total += r.ncases;
			vt_end(&r);
			free(label);
			json_decref(doc);
		}
	}
	json_decref(files);
	ck_assert_uint_gt(total, 200);
}
END_TEST

/* ---- wrong types anywhere: an answer or an error, never a crash ------------------------------- */

/* The k-th JSON value inside v (pre-order, v itself excluded): its container and key or index. */
static int nth_member(json_t *v, size_t *k, json_t **parent, const char **key, size_t *index)
{
	if (json_is_object(v)) {
		const char *kk;
		json_t *x;
		json_object_foreach(v, kk, x)
		{
			if ((*k)-- == 0) {
				*parent = v;
				*key = kk;
				return 1;
			}
			if (nth_member(x, k, parent, key, index))
				return 1;
		}
	} else if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++) {
			if ((*k)-- == 0) {
				*parent = v;
				*key = NULL;
				*index = i;
				return 1;
			}
			if (nth_member(json_array_get(v, i), k, parent, key, index))
				return 1;
		}
	}
	return 0;
}

static size_t count_members(const json_t *v)
{
	size_t n = 0;
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x) { n += 1 + count_members(x); }
	} else if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++)
			n += 1 + count_members(json_array_get(v, i));
	}
	return n;
}

static const char *const INPUTS[] = {"toleration", "taint",     "taints",  "tolerations", "pod",
				     "node",       "daemonset", "podspec", "affinity",    "objects"};

START_TEST(wrong_types_anywhere)
{
	json_t *files = pure_files();
	const char *name;
	json_t *f;
	uint64_t seed = 0x5eed5eedULL;
	unsigned calls = 0, answered = 0;
	json_object_foreach(files, name, f)
	{
		size_t i;
		json_t *cs;
		json_array_foreach(json_object_get(f, "cases"), i, cs)
		{
			for (size_t in = 0; in < sizeof(INPUTS) / sizeof(INPUTS[0]); in++) {
				const json_t *v = json_object_get(cs, INPUTS[in]);
				size_t n = count_members(v);
				for (int m = 0; n && m < 12; m++) {
					json_t *c = with_hash(cs);
					json_t *target = json_object_get(c, INPUTS[in]), *parent = NULL;
					size_t k = (size_t)(dsi_test_rand(&seed) % n), index = 0;
					const char *key = NULL;
					ck_assert(nth_member(target, &k, &parent, &key, &index));
					json_t *repl;
					switch (dsi_test_rand(&seed) % 7) {
					case 0: repl = json_integer(-1); break;
					case 1: repl = json_string("x"); break;
					case 2: repl = json_array(); break;
					case 3: repl = json_object(); break;
					case 4: repl = json_null(); break;
					case 5: repl = json_true(); break;
					default: repl = json_real(2.5); break;
					}
					if (key)
						json_object_set_new(parent, key, repl);
					else
						json_array_set_new(parent, index, repl);
					outcome o;
					call(vt_str(f, "function"), c, 1, &o);
					ck_assert_msg(o.rc <= 0, "%s: rc %d", name, o.rc);
					if (o.rc < 0) {
						ck_assert_msg(o.err.message[0], "%s: \"%s\": %s without a message",
							      name, vt_str(cs, "name"), code_name(o.rc));
						ck_assert_msg(o.rc != DS_ENOMEM, "%s: out of memory", name);
					}
					answered += o.rc == 0;
					calls++;
					json_decref(o.outputs);
					json_decref(c);
				}
			}
		}
	}
	json_decref(files);
	printf("wrong types anywhere: %u calls, %u answered\n", calls, answered);
	ck_assert_uint_gt(calls, 1000);
}
END_TEST

/* ---- Go's decoding at every field ------------------------------------------------------------- */

/* The schema type an input decodes into, as upstream.c picks it (-1: none). */
static int input_type(const char *fn, const char *input, const json_t *v)
{
	if (strcmp(input, "toleration") == 0)
		return dsi_decode_type_named("Toleration");
	if (strcmp(input, "taint") == 0)
		return dsi_decode_type_named("Taint");
	if (strcmp(input, "taints") == 0)
		return dsi_decode_type_taints();
	if (strcmp(input, "tolerations") == 0)
		return dsi_decode_type_tolerations();
	if (strcmp(input, "node") == 0)
		return dsi_schema_root_type("v1", "Node");
	if (strcmp(input, "affinity") == 0)
		return dsi_decode_type_named("Affinity");
	if (strcmp(input, "daemonset") == 0) {
		const char *k = json_string_value(json_object_get(v, "kind"));
		return dsi_decode_type_of_kind(k ? k : "DaemonSet");
	}
	if (strcmp(input, "podspec") == 0 ||
	    (strcmp(input, "pod") == 0 && strcmp(fn, "ds_pod_required_node_affinity_match2") == 0)) {
		const json_t *spec = json_object_get(v, "spec");
		return spec && !json_is_null(spec) ? dsi_schema_root_type("v1", "Pod")
						   : dsi_decode_type_named("PodSpec");
	}
	if (strcmp(input, "pod") == 0)
		return dsi_schema_root_type("v1", "Pod");
	return -1; /* objects: per element, see object_type */
}

/* An element of objects: by its kind, Pod without one. */
static int object_type(const json_t *obj)
{
	const char *k = json_string_value(json_object_get(obj, "kind"));
	return dsi_decode_type_of_kind(k ? k : "Pod");
}

/* A path step as the library writes it: ".key", or ["key"] for a key that is not plain. */
static char *path_key(const char *path, const char *key)
{
	int plain = *key != '\0';
	for (const char *p = key; *p; p++)
		plain &= !strchr(".[]\" /", *p);
	return plain ? vt_fmt("%s%s%s", path, *path ? "." : "", key) : vt_fmt("%s[\"%s\"]", path, key);
}

/* One typed place in a document: its container, key or index, type and path. */
typedef struct place {
	json_t *parent;
	const char *key; /* NULL: index */
	size_t index;
	int type;
	char *path;
} place;

typedef struct places {
	place *v;
	size_t n, cap;
} places;

static void places_free(places *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->v[i].path);
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}

static void add_place(places *ps, json_t *parent, const char *key, size_t index, int type, char *path)
{
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 64;
		ps->v = realloc(ps->v, ps->cap * sizeof(*ps->v));
		ck_assert_ptr_nonnull(ps->v);
	}
	ps->v[ps->n++] = (place){parent, key, index, type, path};
}

/* Every member of v (of type) the Go types type, in document order. */
static void typed_places(json_t *v, int type, const char *path, places *ps)
{
	if (type < 0)
		return;
	dsi_schema_kind k = dsi_schema_kind_of(type);
	if (k == DSI_SK_OBJECT && json_is_object(v)) {
		const char *key;
		json_t *m;
		json_object_foreach(v, key, m)
		{
			int ft = dsi_schema_field_type(type, key, strlen(key));
			if (ft < 0)
				continue;
			char *p = path_key(path, key);
			add_place(ps, v, key, 0, ft, p);
			typed_places(m, ft, p, ps);
		}
	} else if (k == DSI_SK_MAP && json_is_object(v)) {
		const char *key;
		json_t *m;
		json_object_foreach(v, key, m)
		{
			char *p = path_key(path, key);
			add_place(ps, v, key, 0, dsi_schema_elem(type), p);
			typed_places(m, dsi_schema_elem(type), p, ps);
		}
	} else if (k == DSI_SK_ARRAY && json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++) {
			char *p = vt_fmt("%s[%zu]", path, i);
			add_place(ps, v, NULL, i, dsi_schema_elem(type), p);
			typed_places(json_array_get(v, i), dsi_schema_elem(type), p, ps);
		}
	}
}

/* The typed places of an input of a case (objects: each element at "[i]"). */
static void input_places(const char *fn, const char *input, json_t *v, places *ps)
{
	if (strcmp(input, "objects") != 0) {
		typed_places(v, input_type(fn, input, v), "", ps);
		return;
	}
	for (size_t i = 0; json_is_array(v) && i < json_array_size(v); i++) {
		char *p = vt_fmt("[%zu]", i);
		typed_places(json_array_get(v, i), object_type(json_array_get(v, i)), p, ps);
		free(p);
	}
}

/* A value Go's decoder refuses for type (NULL: it takes anything). */
static json_t *wrong_value(int type)
{
	switch (dsi_schema_kind_of(type)) {
	case DSI_SK_STRING: return json_integer(5);
	case DSI_SK_INTEGER:
	case DSI_SK_NUMBER:
	case DSI_SK_BOOLEAN: return json_string("x");
	case DSI_SK_OBJECT:
	case DSI_SK_ARRAY: return json_boolean(1);
	case DSI_SK_MAP: return json_array();
	case DSI_SK_INT_OR_STRING:
	case DSI_SK_QUANTITY: return json_object();
	default: return NULL;
	}
}

static void put(const place *pl, json_t *v)
{
	if (pl->key)
		json_object_set_new(pl->parent, pl->key, v);
	else
		json_array_set_new(pl->parent, pl->index, v);
}

/* The cases the decoding tests start from: answered ones whose inputs are JSON values. */
static int decodable_case(const json_t *cs)
{
	return !json_object_get(json_object_get(cs, "expect"), "error") && !json_object_get(cs, "raw") &&
	       !json_object_get(cs, "nullInputs");
}

typedef enum mutation { MUT_WRONG, MUT_NULL, MUT_UNKNOWN } mutation;

/* Every typed place of every input of every answered case, mutated; returns how many calls. */
static unsigned each_place(mutation mut, unsigned *failed)
{
	json_t *files = pure_files();
	const char *name;
	json_t *f;
	unsigned calls = 0;
	json_object_foreach(files, name, f)
	{
		const char *fn = vt_str(f, "function");
		size_t i;
		json_t *cs;
		json_array_foreach(json_object_get(f, "cases"), i, cs)
		{
			if (!decodable_case(cs))
				continue;
			outcome base;
			json_t *c0 = with_hash(cs);
			call(fn, c0, 1, &base);
			ck_assert_msg(base.rc == 0, "%s: \"%s\": %s", name, vt_str(cs, "name"), base.err.message);
			for (size_t in = 0; in < sizeof(INPUTS) / sizeof(INPUTS[0]); in++) {
				if (!json_object_get(c0, INPUTS[in]))
					continue;
				places ps = {0};
				input_places(fn, INPUTS[in], json_object_get(c0, INPUTS[in]), &ps);
				size_t n = ps.n;
				places_free(&ps);
				for (size_t k = 0; k < n; k++) {
					/* a fresh copy per place: the places of the copy */
					json_t *c = json_deep_copy(c0);
					input_places(fn, INPUTS[in], json_object_get(c, INPUTS[in]), &ps);
					const place *pl = &ps.v[k];
					json_t *wrong = NULL;
					if (mut == MUT_WRONG && !(wrong = wrong_value(pl->type))) {
						places_free(&ps);
						json_decref(c);
						continue;
					}
					if (mut == MUT_WRONG) {
						put(pl, wrong);
					} else if (mut == MUT_NULL) {
						put(pl, json_null());
					} else {
						json_t *at = pl->key ? json_object_get(pl->parent, pl->key)
								     : json_array_get(pl->parent, pl->index);
						if (dsi_schema_kind_of(pl->type) != DSI_SK_OBJECT ||
						    !json_is_object(at) ||
						    /* the library's template hash is of the template's text */
						    strstr(pl->path, "template")) {
							places_free(&ps);
							json_decref(c);
							continue;
						}
						json_object_set_new(at, "zzNotAGoField",
								    json_pack("[i, {s:b}]", 1, "x", 1));
					}
					outcome o;
					call(fn, c, 1, &o);
					char *bad = NULL;
					if (mut == MUT_WRONG) {
						const char *src = o.err.source;
						if (o.rc != DS_ETYPE || strcmp(o.err.path, pl->path) != 0 ||
						    strncmp(src, INPUTS[in], strlen(INPUTS[in])) != 0)
							bad = vt_fmt(
								"%s at \"%s\" (%s; source %s), want DS_ETYPE at \"%s\"",
								code_name(o.rc), o.err.path, o.err.message, src,
								pl->path);
					} else if (mut == MUT_NULL) {
						if (o.rc == DS_ETYPE)
							bad = vt_fmt("null at \"%s\": DS_ETYPE at \"%s\": %s", pl->path,
								     o.err.path, o.err.message);
					} else if (o.rc != 0 || !json_equal(o.outputs, base.outputs)) {
						char *g = vt_dump(o.outputs), *w = vt_dump(base.outputs);
						bad = vt_fmt("an unknown field in \"%s\": %s %s (%s)\n    got %s\n    "
							     "want %s",
							     pl->path, code_name(o.rc), o.err.path, o.err.message, g,
							     w);
						free(g);
						free(w);
					}
					if (bad) {
						if (*failed < 20 || getenv("DSI_TEST_ALL"))
							fprintf(stderr, "  %s: \"%s\": %s: %s\n", name,
								vt_str(cs, "name"), INPUTS[in], bad);
						(*failed)++;
						free(bad);
					}
					calls++;
					json_decref(o.outputs);
					places_free(&ps);
					json_decref(c);
				}
			}
			json_decref(base.outputs);
			json_decref(c0);
		}
	}
	json_decref(files);
	return calls;
}

/* encoding/json: "If a JSON value is not appropriate for a given target type ... Unmarshal skips
 * that field and completes the unmarshaling as best it can ... returns an UnmarshalTypeError
 * describing the earliest such error." Here: DS_ETYPE at that field's path. */
START_TEST(wrong_type_at_every_field)
{
	unsigned failed = 0, calls = each_place(MUT_WRONG, &failed);
	printf("a wrong JSON type at every typed field: %u calls\n", calls);
	ck_assert_msg(failed == 0, "%u of %u calls differ, the first listed above", failed, calls);
	ck_assert_uint_gt(calls, 3000);
}
END_TEST

/* "The JSON null value unmarshals into an interface, map, pointer, or slice by setting that Go
 * value to nil ... Otherwise, unmarshaling a JSON null into any other Go type has no effect on the
 * value": null is never a type error. */
START_TEST(null_at_every_field)
{
	unsigned failed = 0, calls = each_place(MUT_NULL, &failed);
	printf("null at every typed field: %u calls\n", calls);
	ck_assert_msg(failed == 0, "%u of %u calls differ, the first listed above", failed, calls);
	ck_assert_uint_gt(calls, 3000);
}
END_TEST

/* Fields the Go struct does not have are ignored on the way in (and so are not in a returned
 * object): the answer is the same. */
START_TEST(unknown_fields_change_nothing)
{
	unsigned failed = 0, calls = each_place(MUT_UNKNOWN, &failed);
	printf("an unknown field in every typed object: %u calls\n", calls);
	ck_assert_msg(failed == 0, "%u of %u calls differ, the first listed above", failed, calls);
	ck_assert_uint_gt(calls, 500);
}
END_TEST

/* ds_daemonset_rolling_update reports the DaemonSet's error when it does not read, else the
 * objects' when they do not, else the decision's: every field of the report as each argument gives
 * it alone (with a valid other argument), whatever the order it reads them in. */
START_TEST(rolling_update_errors_in_argument_order)
{
#define DS_OF(strategy)                                                                                                \
	"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"ds\",\"namespace\":\"default\","  \
	"\"uid\":\"u\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"d\"}},\"template\":{\"metadata\":{"         \
	"\"labels\":{\"app\":\"d\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}},"                   \
	"\"updateStrategy\":" strategy "}}"
	static const struct {
		const char *text; /* NULL: NULL with size 5 */
		int decided;      /* read, its error the decision's (GetIntOrPercentValue) */
	} dss[] = {
		{DS_OF("{\"type\":\"RollingUpdate\"}"), 0},
		{"{", 0},
		{"", 0},
		{NULL, 0},
		{DS_OF("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":\"abc\"}}"), 1},
		{DS_OF("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxSurge\":1.5}}"), 0},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}}", 0},
	};
	static const struct {
		const char *text; /* NULL: NULL with size 3 */
	} objs[] = {
		{"[{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n0\"}}]"},
		{"[{"},
		{NULL},
		{"[{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n0\"}},{\"metadata\":{\"name\":"
		 "\"p\","
		 "\"labels\":{\"app\":1}}}]"},
		{"[1]"},
		{"{\"kind\":\"List\",\"items\":[{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"nodeName\":"
		 "7}}]}"},
	};
	const size_t nd = sizeof(dss) / sizeof(dss[0]), no = sizeof(objs) / sizeof(objs[0]);
	unsigned both_bad = 0;
	for (size_t i = 0; i < nd; i++)
		for (size_t j = 0; j < no; j++) {
			const char *d = dss[i].text, *o = objs[j].text;
			size_t dn = d ? strlen(d) : 5, on = o ? strlen(o) : 3;
			ds_error e, ed, eo;
			char *out = NULL;
			int rc = ds_daemonset_rolling_update(d, dn, o, on, "h", 0, NULL, &out, &e);
			ds_free(out);
			/* each argument alone, the other one valid */
			int rd = ds_daemonset_rolling_update(d, dn, objs[0].text, strlen(objs[0].text), "h", 0, NULL,
							     &out, &ed);
			ds_free(out);
			int ro = ds_daemonset_rolling_update(dss[0].text, strlen(dss[0].text), o, on, "h", 0, NULL,
							     &out, &eo);
			ds_free(out);
			ck_assert_msg((i == 0) == (rd == 0) && (j == 0) == (ro == 0),
				      "daemonset %zu objects %zu: %d %d", i, j, rd, ro);
			int first = rd < 0 && (!dss[i].decided || ro == 0);
			const ds_error *want = first ? &ed : ro < 0 ? &eo : NULL;
			both_bad += rd < 0 && ro < 0;
			ck_assert_msg(rc == (first ? rd : ro), "daemonset %zu objects %zu: rc %d (%s)", i, j, rc,
				      e.message);
			if (!want)
				continue;
			ck_assert_int_eq(e.code, want->code);
			ck_assert_int_eq(e.line, want->line);
			ck_assert_int_eq(e.column, want->column);
			ck_assert_str_eq(e.source, want->source);
			ck_assert_str_eq(e.path, want->path);
			ck_assert_str_eq(e.message, want->message);
		}
	ck_assert_uint_eq(both_bad, (nd - 1) * (no - 1));
#undef DS_OF
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("upstream");
	TCase *tc = tcase_create("vectors");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, one_file_per_function);
	tcase_add_test(tc, table_cases);
	tcase_add_test(tc, errors_without_an_error_report);
	tcase_add_test(tc, checker_reports_mismatches);
	tcase_add_test(tc, superseded_names_agree);
	tcase_add_test(tc, upstream_rows);
	tcase_add_test(tc, wrong_types_anywhere);
	tcase_add_test(tc, rolling_update_errors_in_argument_order);
	suite_add_tcase(s, tc);
	TCase *go = tcase_create("gotypes");
	tcase_set_timeout(go, 300);
	tcase_add_test(go, wrong_type_at_every_field);
	tcase_add_test(go, null_at_every_field);
	tcase_add_test(go, unknown_fields_change_nothing);
	suite_add_tcase(s, go);
	return s;
}

DSI_TEST_MAIN(suite)
