/*
 * Offline scenario tests (include/daemonset/scenario.h, daemonset-scenario(5)):
 * a cluster (inline objects and/or dumps on disk) plus expectations about
 * placement, plans, status, generated pods, rollouts, drains and audits.
 * Checks go through the public API only, so a scenario checks exactly what a
 * library user would get.
 *
 * The rule for errors: text that cannot be parsed has no scenario to report,
 * so ds_scenario_run fails with DS_ESYNTAX (line and column); everything
 * wrong inside a parsed scenario (its form, its options, its time, its
 * cluster) is that scenario's "error", and the run goes on.
 */
#include <stdio.h>
#include <string.h>

#include "api/args.h"
#include "core/jsonfast.h"
#include "scenario/scenario.h"
#include "core/alloc.h"
#include "core/jsonout.h"
#include "core/files.h"
#include "api/api_options.h"
#include "core/optparse.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "core/yaml.h"

/* ---- options: the caller's, then the scenario's, then the check's ------------------ */

/* Apply a scenario's or a check's options (a mapping, checked by the form);
 * errors name the option under where ("options", "checks[2].options"). */
static int options_apply(ds_options *o, const json_t *layer, const char *where, ds_error *err)
{
	if (!layer)
		return 0;
	char *text = dsi_json_dumps(layer, JSON_COMPACT);
	int rc = text ? ds_options_set_all(o, text, strlen(text), err) : dsi_error_nomem(err);
	dsi_free(text);
	if (rc < 0)
		dsi_error_prefix_path(err, where);
	return rc;
}

/* ---- one scenario --------------------------------------------------------------- */

/* A check ready to run: its time and options (NULL: the scenario's). */
typedef struct prepared {
	ds_time now;
	ds_options *opts;
} prepared;

/* Load a scenario's cluster: its files (relative to base_dir), then its inline objects. */
static int load_cluster(const json_t *sc, const char *base_dir, const ds_options *o, ds_cluster **out, ds_error *err)
{
	int rc = ds_cluster_new(o, out, err);
	if (rc < 0)
		return rc;
	json_t *load = json_object_get(sc, "load");
	size_t n = json_is_array(load) ? json_array_size(load) : load ? 1 : 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const char *p = json_string_value(json_is_array(load) ? json_array_get(load, i) : load);
		dsi_strbuf path = DSI_STRBUF_INIT;
		if (p[0] != '/' && base_dir && *base_dir)
			dsi_strbuf_printf(&path, "%s/%s", base_dir, p);
		else
			dsi_strbuf_puts(&path, p);
		rc = path.oom ? dsi_error_nomem(err) : ds_cluster_load_file(*out, path.data, NULL, err);
		dsi_strbuf_free(&path);
	}
	json_t *objs = json_object_get(sc, "objects");
	if (rc == 0 && objs) {
		json_t *list = json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List", "items", objs);
		rc = list ? ds_cluster_load_json(*out, (const struct json_t *)list, NULL, err) : dsi_error_nomem(err);
		json_decref(list);
		/* the loader sees a List: "items[3].spec" is the scenario's "objects[3].spec" */
		if (rc < 0 && strncmp(err->path, "items[", 6) == 0) {
			char buf[DS_ERROR_PATH_MAX + 8];
			size_t len = (size_t)snprintf(buf, sizeof(buf), "objects%s", err->path + 5);
			if (len >= sizeof(err->path))
				len = sizeof(err->path) - 1;
			memcpy(err->path, buf, len);
			err->path[len] = '\0';
		} else if (rc < 0) {
			dsi_error_prefix_path(err, "objects");
		}
	}
	if (rc < 0) {
		ds_cluster_free(*out);
		*out = NULL;
	}
	return rc;
}

/* ---- steps: edits of the cluster before the checks ------------------------------ */

/* RFC 7386 JSON merge patch (what kubectl patch --type merge sends, applied as the API server's
 * jsonpatch.MergePatch applies it): mappings merge, null deletes a member, anything else replaces.
 * Returns the new value (a new reference); target is not changed. */
static json_t *merge_patch(const json_t *target, const json_t *patch)
{
	if (!json_is_object(patch))
		return json_deep_copy(patch);
	json_t *out = json_is_object(target) ? json_deep_copy(target) : json_object();
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)patch, key, v)
	{
		if (!out)
			break;
		if (json_is_null(v)) {
			json_object_del(out, key);
			continue;
		}
		json_t *merged = merge_patch(json_object_get(out, key), v);
		if (!merged || json_object_set_new(out, key, merged) < 0) {
			json_decref(out);
			out = NULL;
		}
	}
	return out;
}

/* A step's DaemonSet "namespace/name" ("name": option defaultNamespace's "default"). */
static int step_ref(const char *s, char *ns, size_t nsz, char *name, size_t namesz)
{
	const char *slash = strchr(s, '/');
	snprintf(ns, nsz, "%.*s", slash ? (int)(slash - s) : 7, slash ? s : "default");
	snprintf(name, namesz, "%s", slash ? slash + 1 : s);
	return 0;
}

/* One step, through the public API as a host would make it: setImage is ds_daemonset_set_image (kubectl set
 * image); patch is the merge patch of the stored DaemonSet, then ds_daemonset_update (a PUT: generation and
 * template generation bumped, validation). A refused update is the API server's message. */
static int apply_step(ds_cluster *c, const json_t *step, const ds_options *o, ds_error *err)
{
	const char *ref = json_string_value(json_object_get(step, "setImage"));
	char ns[DS_ERROR_PATH_MAX], name[DS_ERROR_PATH_MAX];
	char *out = NULL;
	int rc;
	if (ref) {
		const char *container = json_string_value(json_object_get(step, "container"));
		step_ref(ref, ns, sizeof(ns), name, sizeof(name));
		rc = ds_daemonset_set_image(c, ns, name, container ? container : "*",
					    json_string_value(json_object_get(step, "image")), o, &out, err);
	} else {
		ref = json_string_value(json_object_get(step, "patch"));
		step_ref(ref, ns, sizeof(ns), name, sizeof(name));
		char *stored = NULL;
		if ((rc = ds_cluster_get(c, "DaemonSet", ns, name, &stored, err)) < 0)
			return rc;
		json_error_t je;
		json_t *obj = json_loads(stored, 0, &je);
		ds_free(stored);
		json_t *patched = obj ? merge_patch(obj, json_object_get(step, "merge")) : NULL;
		json_decref(obj);
		char *text = patched ? dsi_json_dumps(patched, JSON_COMPACT) : NULL;
		json_decref(patched);
		if (!text)
			return dsi_error_nomem(err);
		rc = ds_daemonset_update(c, text, strlen(text), o, &out, err);
		dsi_free(text);
	}
	if (rc == DS_EINVALID && out) { /* the API server's 422, as kubectl prints it */
		json_error_t je;
		json_t *res = json_loads(out, 0, &je);
		const char *msg = json_string_value(json_object_get(res, "message"));
		if (msg)
			dsi_error_set(err, DS_EINVALID, NULL, "%s", msg);
		json_decref(res);
	}
	ds_free(out);
	return rc;
}

static int apply_steps(ds_cluster *c, const json_t *sc, const ds_options *o, ds_error *err)
{
	size_t i;
	json_t *step;
	json_array_foreach(json_object_get(sc, "steps"), i, step)
	{
		if (apply_step(c, step, o, err) < 0) {
			char where[32];
			snprintf(where, sizeof(where), "steps[%zu]", i);
			dsi_error_prefix_path(err, where);
			return err->code;
		}
	}
	return 0;
}

/* "path: message", or the message alone. */
static void error_text(const ds_error *e, const char *prefix, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s%s%s%s", prefix, e->source, e->source[0] ? ": " : "", e->path,
		 e->path[0] ? ": " : "", e->message);
}

/* The times and options of the checks, before anything runs: a bad one is the scenario's error. */
static int prepare(const json_t *sc, const ds_options *caller, ds_time *now, ds_options **opts, prepared *checks,
		   ds_error *err)
{
	if (ds_time_parse(json_string_value(json_object_get(sc, "now")), now, err) < 0) {
		dsi_error_prefix_path(err, "now");
		return err->code;
	}
	int rc = (dsi_options_dup(caller, opts) < 0 ? dsi_error_nomem(err) : 0);
	if (rc == 0)
		rc = options_apply(*opts, json_object_get(sc, "options"), "options", err);
	if (rc < 0)
		return rc;
	size_t i;
	json_t *chk;
	json_array_foreach(json_object_get(sc, "checks"), i, chk)
	{
		char where[64];
		const char *t = json_string_value(json_object_get(chk, "now"));
		checks[i].now = *now;
		if (t && ds_time_parse(t, &checks[i].now, err) < 0) {
			snprintf(where, sizeof(where), "checks[%zu].now", i);
			dsi_error_prefix_path(err, where);
			return err->code;
		}
		json_t *layer = json_object_get(chk, "options");
		if (!layer)
			continue;
		snprintf(where, sizeof(where), "checks[%zu].options", i);
		if ((rc = dsi_options_dup(caller, &checks[i].opts) < 0 ? dsi_error_nomem(err) : 0) < 0 ||
		    (rc = options_apply(checks[i].opts, json_object_get(sc, "options"), "options", err)) < 0 ||
		    (rc = options_apply(checks[i].opts, layer, where, err)) < 0)
			return rc;
	}
	return 0;
}

/* "kind reference", plus " on node" when the check names one. */
static json_t *check_label(const json_t *chk)
{
	dsi_sc_kind kind = dsi_scenario_kind_of(chk);
	const char *target = json_string_value(json_object_get(chk, dsi_scenario_kind_name(kind)));
	const char *node = json_string_value(json_object_get(chk, "node"));
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_strbuf_printf(&b, "%s %s", dsi_scenario_kind_name(kind), target ? target : "");
	if (node)
		dsi_strbuf_printf(&b, " on %s", node);
	json_t *s = b.oom ? NULL : json_stringn(b.data, b.len);
	dsi_strbuf_free(&b);
	return s;
}

static json_t *run_scenario(const json_t *sc, const char *file, size_t doc, const char *base_dir,
			    const ds_options *opts)
{
	const char *n = json_string_value(json_object_get(sc, "name"));
	json_t *res = json_object(), *checks = json_array();
	if (!res || !checks) {
		json_decref(res);
		json_decref(checks);
		return NULL;
	}
	if (n) {
		json_object_set_new(res, "name", json_string(n));
	} else {
		char *name = dsi_format("%s#%zu", file ? file : "scenario", doc + 1);
		json_object_set_new(res, "name", name ? dsi_scenario_text(name) : NULL);
		dsi_free(name);
	}
	json_object_set_new(res, "file", dsi_scenario_text(file ? file : ""));
	ds_error err;
	ds_error_clear(&err);
	char problem[DS_ERROR_SOURCE_MAX + DS_ERROR_PATH_MAX + DS_ERROR_MESSAGE_MAX + 64] = "";
	int failed = 0;
	ds_time now = 0;
	ds_options *so = NULL;
	ds_cluster *c = NULL;
	size_t nchecks = json_array_size(json_object_get(sc, "checks"));
	prepared *pc = NULL;
	if (dsi_scenario_form(sc, &err) < 0) {
		error_text(&err, "", problem, sizeof(problem));
	} else if (!(pc = dsi_calloc(nchecks, sizeof(*pc)))) {
		snprintf(problem, sizeof(problem), "out of memory");
	} else if (prepare(sc, opts, &now, &so, pc, &err) < 0) {
		error_text(&err, "", problem, sizeof(problem));
	} else if (load_cluster(sc, base_dir, so, &c, &err) < 0) {
		error_text(&err, "loading the cluster: ", problem, sizeof(problem));
	} else if (apply_steps(c, sc, so, &err) < 0) {
		error_text(&err, "editing the cluster: ", problem, sizeof(problem));
	} else {
		size_t i;
		json_t *chk;
		json_array_foreach(json_object_get(sc, "checks"), i, chk)
		{
			json_t *failures = json_array(), *cr = json_object();
			if (!failures || !cr) {
				json_decref(failures);
				json_decref(cr);
				snprintf(problem, sizeof(problem), "out of memory");
				break;
			}
			ds_error_clear(&err);
			if (dsi_scenario_check(c, chk, pc[i].now, pc[i].opts ? pc[i].opts : so, failures, &err) < 0)
				json_array_append_new(failures, dsi_scenario_text(err.message));
			json_object_set_new(cr, "check", check_label(chk));
			if (json_object_get(chk, "name"))
				json_object_set(cr, "name", json_object_get(chk, "name"));
			json_object_set_new(cr, "passed", json_boolean(json_array_size(failures) == 0));
			failed |= json_array_size(failures) != 0;
			json_object_set_new(cr, "failures", failures);
			json_array_append_new(checks, cr);
		}
	}
	for (size_t i = 0; pc && i < nchecks; i++)
		ds_options_free(pc[i].opts);
	dsi_free(pc);
	ds_options_free(so);
	ds_cluster_free(c);
	if (problem[0]) {
		json_object_set_new(res, "error", dsi_scenario_text(problem));
		json_array_clear(checks);
	}
	json_object_set_new(res, "passed", json_boolean(!problem[0] && !failed));
	json_object_set_new(res, "checks", checks);
	return res;
}

/* ---- texts and files ------------------------------------------------------------ */

typedef struct collect {
	json_t *scenarios;
	const char *file; /* NULL for ds_scenario_run's text */
	const char *base_dir;
	const ds_options *opts;
	ds_error *err;
} collect;

static int one_doc(collect *k, json_t *doc, size_t index)
{
	json_t *res = run_scenario(doc, k->file, index, k->base_dir, k->opts);
	if (!res || json_array_append_new(k->scenarios, res) < 0)
		return dsi_error_nomem(k->err);
	return 0;
}

static int yaml_doc(void *ctx, json_t *doc, size_t index, int line)
{
	(void)line;
	int rc = one_doc(ctx, doc, index);
	json_decref(doc);
	return rc;
}

static size_t skip_space(const char *data, size_t size)
{
	size_t i = 0;
	if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
		i++;
	return i;
}

static int json_error(const json_error_t *je, size_t index, ds_error *err)
{
	if (json_error_code(je) == json_error_out_of_memory)
		return dsi_error_nomem(err);
	int code = json_error_code(je) == json_error_stack_overflow ? DS_ELIMIT : DS_ESYNTAX;
	dsi_error_set(err, code, NULL, "%s", je->text);
	dsi_error_set_position(err, je->line > 0 ? je->line : 0, je->column > 0 ? je->column : 0);
	if (index)
		snprintf(err->source, sizeof(err->source), "JSON value %zu", index + 1);
	return code;
}

#define JSON_FLAGS (JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK)

/* "{now: ..., checks: [...]}" is YAML flow style: read the text as YAML, and
 * report the JSON error when YAML cannot read it either. */
static int yaml_or_json_error(collect *k, const char *text, size_t size, const json_error_t *je)
{
	ds_error yerr, *outer = k->err;
	ds_error_clear(&yerr);
	k->err = &yerr;
	int rc = dsi_yaml_parse(text, size, &dsi_o_core(k->opts)->limits, yaml_doc, k, &yerr);
	k->err = outer;
	if (rc == 0)
		return 0;
	if (yerr.code == DS_ESYNTAX)
		return json_error(je, 0, outer);
	*outer = yerr;
	return rc;
}

/*
 * Every document of the text is a scenario, read as the library reads
 * manifests (core/load.c): concatenated JSON values when the text starts
 * with { or [, else a YAML stream. Documents are taken as they are, whatever
 * their type: one that is not a scenario is that scenario's error.
 */
static int run_text(collect *k, const char *text, size_t size)
{
	const dsi_limits *lim = &dsi_o_core(k->opts)->limits;
	if (size > lim->max_bytes)
		return dsi_error_too_large(k->err, NULL, size, lim->max_bytes);
	size_t pos = skip_space(text, size);
	if (pos >= size || (text[pos] != '{' && text[pos] != '['))
		return dsi_yaml_parse(text, size, lim, yaml_doc, k, k->err);
	for (size_t index = 0; pos < size; index++) {
		json_error_t je;
		json_t *v = dsi_json_loadb_fast(text + pos, size - pos, JSON_FLAGS, &je);
		if (!v && index == 0 && json_error_code(&je) != json_error_out_of_memory &&
		    json_error_code(&je) != json_error_stack_overflow)
			return yaml_or_json_error(k, text, size, &je);
		if (!v)
			return json_error(&je, index, k->err);
		int rc = one_doc(k, v, index);
		json_decref(v);
		if (rc < 0)
			return rc;
		pos += (size_t)je.position;
		pos += skip_space(text + pos, size - pos);
	}
	return 0;
}

static json_t *summary(json_t *scenarios)
{
	size_t i, passed = 0;
	json_t *s;
	json_array_foreach(scenarios, i, s) passed += json_is_true(json_object_get(s, "passed"));
	return json_pack("{s:I, s:I, s:o}", "passed", (json_int_t)passed, "failed",
			 (json_int_t)(json_array_size(scenarios) - passed), "scenarios", scenarios);
}

int ds_scenario_run(const char *text, size_t size, const char *base_dir, const ds_options *opts, char **json_out,
		    ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, text, json_out);
	collect k = {json_array(), NULL, base_dir, opts, err};
	if (!k.scenarios)
		return dsi_error_nomem(err);
	int rc = run_text(&k, text, size);
	if (rc < 0) {
		json_decref(k.scenarios);
		return rc;
	}
	return dsi_json_emit(summary(k.scenarios), json_out, err);
}

/* One file's scenarios; a file whose text is malformed is one failed scenario named after it. */
static int run_file(void *ctx, const char *path, ds_error *err)
{
	collect *k = ctx;
	char *text;
	size_t len;
	int rc = dsi_read_file(path, dsi_o_core(k->opts)->limits.max_bytes, &text, &len, err);
	if (rc < 0)
		return rc;
	dsi_strbuf dir = DSI_STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	if (slash)
		dsi_strbuf_append(&dir, path, (size_t)(slash - path) + (slash == path));
	else
		dsi_strbuf_puts(&dir, ".");
	if (dir.oom) {
		dsi_free(text);
		dsi_strbuf_free(&dir);
		return dsi_error_nomem(err);
	}
	ds_error e;
	ds_error_clear(&e);
	k->file = path;
	k->base_dir = dir.data;
	k->err = &e;
	rc = run_text(k, text, len);
	k->err = err;
	dsi_free(text);
	dsi_strbuf_free(&dir);
	if (rc == DS_ENOMEM)
		return dsi_error_nomem(err);
	if (rc < 0) {
		char msg[DS_ERROR_SOURCE_MAX + DS_ERROR_PATH_MAX + DS_ERROR_MESSAGE_MAX + 64], where[64] = "";
		if (e.line)
			snprintf(where, sizeof(where), "line %d, column %d: ", e.line, e.column);
		error_text(&e, where, msg, sizeof(msg));
		json_t *s = json_object();
		if (s) {
			json_object_set_new(s, "name", dsi_scenario_text(path));
			json_object_set_new(s, "file", dsi_scenario_text(path));
			json_object_set_new(s, "passed", json_false());
			json_object_set_new(s, "error", dsi_scenario_text(msg));
			json_object_set_new(s, "checks", json_array());
		}
		if (!s || json_array_append_new(k->scenarios, s) < 0)
			return dsi_error_nomem(err);
	}
	return 0;
}

int ds_scenario_run_file(const char *path, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, path, json_out);
	collect k = {json_array(), NULL, NULL, opts, err};
	if (!k.scenarios)
		return dsi_error_nomem(err);
	int rc = dsi_each_manifest(path, run_file, &k, err);
	if (rc < 0) {
		json_decref(k.scenarios);
		return rc;
	}
	return dsi_json_emit(summary(k.scenarios), json_out, err);
}
