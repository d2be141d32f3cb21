/*
 * dsctl validate, dsctl defaults: the API server's validation and defaults for DaemonSet manifests
 * (ds_daemonset_validate_stream(3), ds_daemonset_validate_update(3)). No snapshot: the inputs are
 * the manifests themselves, read as kubectl apply -f reads them, documents numbered as the library
 * numbers them everywhere.
 */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"

static const char *str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

/* The files of the inputs: -f paths, then the command's arguments; standard input when none.
 * Directories are read as the library reads them (ds_manifests_list(3)). */
static json_t *input_files(ctx *c)
{
	json_t *files = json_array();
	int n = c->nfiles + c->argc;
	for (int i = 0; i < n || (n == 0 && i == 0); i++) {
		const char *path = n == 0 ? "-" : i < c->nfiles ? c->files[i] : c->argv[i - c->nfiles];
		char *list;
		ds_error err;
		if (strcmp(path, "-") == 0) {
			json_array_append_new(files, json_string("-"));
		} else if (ds_manifests_list(path, &list, &err) < 0) {
			fail("cannot read the input", &err);
			json_decref(files);
			return NULL;
		} else {
			json_t *l = take_json(list);
			json_array_extend(files, l);
			json_decref(l);
		}
	}
	return files;
}

/* "FILE", or "FILE (document 2)" / "FILE (document 1, items[3])" when the file has several objects. */
static void where(const json_t *e, const char *file, int several, char *buf, size_t size)
{
	const char *f = strcmp(file, "-") == 0 ? "<stdin>" : file;
	if (json_object_get(e, "item"))
		snprintf(buf, size, "%s (document %lld, items[%lld])", f,
			 (long long)json_integer_value(json_object_get(e, "document")),
			 (long long)json_integer_value(json_object_get(e, "item")));
	else if (several)
		snprintf(buf, size, "%s (document %lld)", f,
			 (long long)json_integer_value(json_object_get(e, "document")));
	else
		snprintf(buf, size, "%s", f);
}

/*
 * What kubectl prints for a 422 Invalid (checkErr and MultilineError in kubectl
 * pkg/cmd/util/helpers.go): "The Kind "name" is invalid: " and the causes "field: body", each text
 * once; one cause on the same line, several as "* " lines under it.
 */
static void print_invalid(const ctx *c, const json_t *res)
{
	const char *msg = str(res, "message");
	/* the name as the server quoted it: DaemonSet.apps "NAME" is invalid: ... */
	const char *q = strchr(msg, '"'), *is = strstr(msg, " is invalid");
	json_t *seen = json_object(), *lines = json_array(), *e;
	size_t i;
	json_array_foreach(json_object_get(res, "errors"), i, e)
	{
		const char *m = json_string_value(json_object_get(e, "message"));
		if (m && !json_object_get(seen, m)) {
			json_object_set_new(seen, m, json_true());
			json_array_append_new(lines, json_string(m));
		}
	}
	printf("%s", colour(c, "bad"));
	if (q && is && is > q)
		printf("The DaemonSet %.*s is invalid", (int)(is - q), q);
	else
		printf("The request is invalid");
	if (json_array_size(lines) == 1) {
		printf(": %s%s\n", colour(c, "reset"), json_string_value(json_array_get(lines, 0)));
	} else {
		printf(": %s\n", colour(c, "reset"));
		json_array_foreach(lines, i, e) printf("* %s\n", json_string_value(e));
	}
	json_decref(seen);
	json_decref(lines);
}

static void print_valid(const ctx *c, const json_t *e, int update)
{
	const char *name = str(e, "name");
	const json_t *gen =
		json_object_get(json_object_get(json_object_get(e, "defaulted"), "metadata"), "generateName");
	if (name[0])
		printf("daemonset.apps/%s ", name);
	else if (json_is_string(gen))
		printf("daemonset.apps (generateName \"%s\") ", json_string_value(gen));
	else
		printf("daemonset.apps ");
	printf("%svalid%s%s\n", colour(c, "ok"), colour(c, "reset"), update ? " (update)" : "");
}

typedef struct tally {
	int valid, invalid, errors, skipped;
	json_t *kinds; /* skipped kinds: {"ConfigMap": 2} */
} tally;

/* One document's verdict: counted, and in table form printed as kubectl would print it. */
static void report(ctx *c, const json_t *e, const char *file, int several, int update, tally *t)
{
	char at[1024];
	where(e, file, several, at, sizeof(at));
	json_t *w;
	size_t i;
	json_array_foreach(json_object_get(e, "warnings"), i, w)
		fprintf(stderr, "Warning: %s: %s\n", at, str(w, "message")); /* as kubectl prints the server's */
	if (json_object_get(e, "code")) { /* fieldValidation=Strict: the server's 400 */
		t->invalid++;
		if (c->out == OUT_TABLE)
			printf("%sError from server (BadRequest):%s error when creating \"%s\": %s\n", colour(c, "bad"),
			       colour(c, "reset"), at, str(e, "message"));
		return;
	}
	if (json_is_true(json_object_get(e, "skipped"))) {
		t->skipped++;
		const char *k = json_object_get(e, "kind") ? str(e, "kind") : "(no kind)";
		json_object_set_new(t->kinds, k, json_integer(json_integer_value(json_object_get(t->kinds, k)) + 1));
		return;
	}
	json_t *err = json_object_get(e, "error");
	if (err) {
		t->errors++;
		fprintf(stderr, "error: cannot validate: %s", at);
		if (json_integer_value(json_object_get(err, "line")))
			fprintf(stderr, ": line %lld, column %lld",
				(long long)json_integer_value(json_object_get(err, "line")),
				(long long)json_integer_value(json_object_get(err, "column")));
		fprintf(stderr, "%s%s: %s\n", str(err, "path")[0] ? ": " : "", str(err, "path"), str(err, "message"));
		return;
	}
	if (json_is_true(json_object_get(e, "valid"))) {
		t->valid++;
		if (c->out == OUT_TABLE)
			print_valid(c, e, update);
	} else {
		t->invalid++;
		if (c->out == OUT_TABLE)
			print_invalid(c, e);
	}
}

/* --old FILE: one DaemonSet against the stored one (ds_daemonset_validate_update(3)). */
static int validate_update(ctx *c, json_t *files, const char *old_path, unsigned flags, json_t *all, tally *t)
{
	if (json_array_size(files) != 1)
		return usage_error("validate", "--old compares one DaemonSet with one stored DaemonSet; got %zu files",
				   json_array_size(files));
	const char *file = json_string_value(json_array_get(files, 0));
	size_t len, old_len;
	char *text = read_file(c, file, &len), *old = text ? read_file(c, old_path, &old_len) : NULL, *out;
	if (!old) {
		free(text);
		return EXIT_ERROR;
	}
	ds_error err;
	/* one object each; the name of the new one for the verdict */
	json_t *objs[2] = {NULL, NULL};
	const char *texts[2] = {text, old};
	size_t lens[2] = {len, old_len};
	for (int k = 0; k < 2; k++)
		if (ds_objects_parse(texts[k], lens[k], c->opts, &out, &err) == 0)
			objs[k] = take_json(out);
	if ((objs[0] && json_array_size(objs[0]) != 1) || (objs[1] && json_array_size(objs[1]) != 1)) {
		int rc = usage_error("validate",
				     "--old compares one DaemonSet with one stored DaemonSet; got %zu and %zu objects",
				     json_array_size(objs[0]), json_array_size(objs[1]));
		json_decref(objs[0]);
		json_decref(objs[1]);
		free(text);
		free(old);
		return rc;
	}
	json_t *name = json_object_get(json_object_get(json_array_get(objs[0], 0), "metadata"), "name");
	json_incref(name);
	json_decref(objs[0]);
	json_decref(objs[1]);
	int rc = ds_daemonset_validate_update(text, len, old, old_len, flags, c->opts, &out, &err);
	free(text);
	free(old);
	if (rc < 0) {
		json_decref(name);
		if (strncmp(err.path, "(old)", 5) == 0)
			snprintf(err.source, sizeof(err.source), "%s", old_path);
		else if (!err.source[0])
			snprintf(err.source, sizeof(err.source), "%s", file);
		return fail(strncmp(err.path, "(old)", 5) == 0 ? "cannot read the stored DaemonSet" : "cannot validate",
			    &err);
	}
	json_t *e = take_json(out);
	if (json_is_string(name))
		json_object_set(e, "name", name);
	json_decref(name);
	json_object_set_new(e, "source", json_string(file));
	json_object_set_new(e, "document", json_integer(1));
	report(c, e, file, 0, 1, t);
	json_array_append_new(all, e);
	return EXIT_OK;
}

int cmd_validate(ctx *c)
{
	const char *old_path = flag_value(c, "old"), *sub = flag_value(c, "subresource");
	if (sub && strcmp(sub, "status") != 0)
		return usage_error("validate", "invalid --subresource \"%s\": a DaemonSet's only subresource is status",
				   sub);
	int status = flag_on(c, "status") || sub;
	if (status && !old_path)
		return usage_error(
			"validate",
			"--subresource=status validates an update: give the stored DaemonSet with --old FILE");
	unsigned flags = (flag_on(c, "as-is") ? DS_VALIDATE_AS_IS : 0) | (status ? DS_VALIDATE_STATUS : 0);
	json_t *files = input_files(c);
	if (!files)
		return EXIT_ERROR;
	json_t *all = json_array();
	tally t = {0, 0, 0, 0, json_object()};
	int rc = EXIT_OK;
	if (old_path) {
		rc = validate_update(c, files, old_path, flags, all, &t);
	} else {
		size_t i;
		json_t *f;
		json_array_foreach(files, i, f)
		{
			const char *file = json_string_value(f);
			size_t len;
			char *text = read_file(c, file, &len), *out;
			ds_error err;
			if (!text) {
				rc = EXIT_ERROR;
				break;
			}
			int r = ds_daemonset_validate_stream(text, len, flags, c->opts, &out, &err);
			free(text);
			if (r < 0) { /* the text is not YAML or JSON at all */
				name_source(&err, file);
				fail("cannot read the input", &err);
				t.errors++;
				continue;
			}
			json_t *res = take_json(out), *e;
			size_t k, n = json_array_size(json_object_get(res, "documents"));
			json_array_foreach(json_object_get(res, "documents"), k, e)
			{
				json_object_set_new(e, "source", json_string(file));
				report(c, e, file, n > 1, 0, &t);
				json_array_append(all, e);
			}
			json_decref(res);
		}
	}
	if (rc == EXIT_OK) {
		if (c->out != OUT_TABLE) {
			if (print_structured(c, all) < 0)
				rc = EXIT_ERROR;
		} else if (t.valid + t.invalid + t.errors > 1) {
			printf("%d valid, %d invalid", t.valid, t.invalid);
			if (t.errors)
				printf(", %d not readable", t.errors);
			printf("\n");
		}
		if (t.skipped) { /* one line for the other kinds, which kubectl apply sends elsewhere */
			fprintf(stderr, "skipped %d object(s) of other kinds (", t.skipped);
			const char *k;
			json_t *v;
			int first = 1;
			json_object_foreach(t.kinds, k, v)
			{
				fprintf(stderr, "%s%s %lld", first ? "" : ", ", k, (long long)json_integer_value(v));
				first = 0;
			}
			fprintf(stderr, ")\n");
		}
		if (t.valid + t.invalid + t.errors == 0) {
			fprintf(stderr, "error: no DaemonSet in the input (%d object(s) of other kinds)\n", t.skipped);
			rc = EXIT_ERROR;
		} else if (rc == EXIT_OK) {
			rc = t.errors ? EXIT_ERROR : t.invalid ? EXIT_CHECK : EXIT_OK;
		}
	}
	json_decref(t.kinds);
	json_decref(all);
	json_decref(files);
	return rc;
}

int cmd_defaults(ctx *c)
{
	json_t *files = input_files(c);
	if (!files)
		return EXIT_ERROR;
	ds_error err;
	/* defaults are not validation: unknown fields are dropped as the API server drops them,
	 * unless --validate asks otherwise */
	if (!c->validate && ds_options_set(c->opts, "fieldValidation", "Ignore", &err) < 0) {
		json_decref(files);
		return fail("cannot set the options", &err);
	}
	json_t *items = json_array(), *f;
	int rc = EXIT_OK;
	size_t i;
	json_array_foreach(files, i, f)
	{
		const char *file = json_string_value(f);
		size_t len;
		char *text = read_file(c, file, &len), *out;
		if (!text || ds_daemonset_validate_stream(text, len, 0, c->opts, &out, &err) < 0) {
			if (text) {
				name_source(&err, file);
				fail("cannot read the input", &err);
			}
			free(text);
			rc = EXIT_ERROR;
			break;
		}
		free(text);
		json_t *res = take_json(out), *e;
		size_t k, n = json_array_size(json_object_get(res, "documents"));
		json_array_foreach(json_object_get(res, "documents"), k, e)
		{
			char at[1024];
			where(e, file, n > 1, at, sizeof(at));
			if (json_object_get(e, "defaulted"))
				json_array_append(items, json_object_get(e, "defaulted"));
			else if (json_is_true(json_object_get(e, "skipped")))
				fprintf(stderr, "%s: skipped: a %s, not a DaemonSet\n", at, str(e, "kind"));
			else if (json_object_get(e, "code")) {
				fprintf(stderr, "error: %s: %s\n", at, str(e, "message"));
				rc = EXIT_ERROR;
			} else {
				json_t *er = json_object_get(e, "error");
				fprintf(stderr,
					"error: cannot apply the defaults: %s: line %lld, column %lld: %s: %s\n", at,
					(long long)json_integer_value(json_object_get(er, "line")),
					(long long)json_integer_value(json_object_get(er, "column")), str(er, "path"),
					str(er, "message"));
				rc = EXIT_ERROR;
			}
		}
		json_decref(res);
	}
	if (rc == EXIT_OK && json_array_size(items) == 0) {
		fprintf(stderr, "error: no DaemonSet in the input\n");
		rc = EXIT_ERROR;
	}
	if (rc == EXIT_OK) {
		size_t n = json_array_size(items);
		json_t *x;
		if (c->out == OUT_JSON || c->out == OUT_JSONPATH || c->out == OUT_COLUMNS) {
			/* several objects: a v1 List, which dsctl and kubectl read back */
			json_t *v = n == 1 ? json_incref(json_array_get(items, 0))
					   : json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List", "items",
						       items);
			if (print_structured(c, v) < 0)
				rc = EXIT_ERROR;
			json_decref(v);
		} else { /* a manifest reads best as YAML, also by default; several as a stream */
			json_array_foreach(items, i, x)
			{
				if (i)
					puts("---");
				print_yaml(x);
			}
		}
	}
	json_decref(items);
	json_decref(files);
	return rc;
}
