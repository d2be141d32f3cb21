/*
 * dsctl validate, dsctl defaults: the API server's validation and defaults
 * for DaemonSet manifests (ds_daemonset_validate(3), ds_daemonset_defaults(3)).
 * No snapshot: the inputs are the manifests themselves.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dsctl.h"

/* One DaemonSet document cut out of an input. */
typedef struct doc {
	char *text;
	size_t len;
	const char *source; /* the file ("-" is standard input) */
	int index;	    /* 1-based document (YAML document or JSON value) within its source */
	int item;	    /* its index in that document's List items, or -1 */
	int line;	    /* the line of the source where it starts, minus one */
} doc;

typedef struct docs {
	doc *v;
	size_t n, cap;
	char **paths; /* directory entries we allocated, freed at the end */
	size_t npaths;
} docs;

static int docs_add(docs *d, const char *text, size_t len, const char *source, int index, int item, int line)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 8;
		doc *nv = realloc(d->v, cap * sizeof(*nv));
		if (!nv)
			return -1;
		d->v = nv;
		d->cap = cap;
	}
	char *copy = malloc(len + 1);
	if (!copy)
		return -1;
	memcpy(copy, text, len);
	copy[len] = '\0';
	d->v[d->n++] = (doc){copy, len, source, index, item, line};
	return 0;
}

static void docs_free(docs *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].text);
	for (size_t i = 0; i < d->npaths; i++)
		free(d->paths[i]);
	free(d->v);
	free(d->paths);
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap + 1);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (f != stdin)
		fclose(f);
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

/* A YAML document that holds only blank lines, comments and directives. */
static int blank_yaml(const char *s, size_t len)
{
	int bol = 1, comment = 0;
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		if (ch == '\n') {
			bol = 1;
			comment = 0;
			continue;
		}
		if (comment)
			continue;
		if (ch == ' ' || ch == '\t' || ch == '\r')
			continue;
		if (ch == '#' || (bol && ch == '%')) {
			comment = 1;
			continue;
		}
		return 0;
	}
	return 1;
}

/* "---" or "..." at the start of a line, alone or followed by a blank. */
static int marker(const char *s, const char *end, const char *m)
{
	if (end - s < 3 || strncmp(s, m, 3) != 0)
		return 0;
	return s + 3 == end || s[3] == '\n' || s[3] == '\r' || s[3] == ' ' || s[3] == '\t';
}

static int add_json(docs *d, json_t *v, const char *source, int index, int item);

/* A document whose top-level kind ends in "List" (what kubectl get -o yaml prints). */
static int yaml_list(const char *s, size_t len)
{
	for (const char *p = s, *end = s + len; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((eol ? eol : end) - p);
		while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n > 9 && strncmp(p, "kind:", 5) == 0 && strncmp(p + n - 4, "List", 4) == 0)
			return 1;
		p = eol ? eol + 1 : end;
	}
	return 0;
}

/* One YAML document: a List is taken apart through ds_objects_parse (its items
 * lose their own line numbers); any other document keeps its text. */
static int add_yaml_doc(docs *d, const char *s, size_t len, const char *source, int *count, int line)
{
	char *out = NULL;
	json_t *items = NULL;
	if (yaml_list(s, len) && ds_objects_parse(s, len, NULL, &out, NULL) == 0)
		items = json_loads(out, 0, NULL);
	ds_free(out);
	if (!json_is_array(items)) { /* not a List, or one the library will report on */
		json_decref(items);
		return docs_add(d, s, len, source, ++*count, -1, line);
	}
	size_t i;
	json_t *x;
	int rc = 0;
	++*count; /* the items share their document's number, as the library's "items[i]" paths do */
	json_array_foreach(items, i, x)
	{
		if (rc == 0)
			rc = add_json(d, x, source, *count, (int)i);
	}
	json_decref(items);
	return rc;
}

/*
 * Cut a YAML stream at its document markers. Kubernetes manifests never hold
 * "---" at the start of a line inside a document (block scalars are
 * indented), so a textual cut gives what a YAML parser would. Each piece
 * keeps its own text, so the library's line numbers can be shifted back.
 */
static int split_yaml(docs *d, const char *text, size_t len, const char *source, int *count)
{
	const char *p = text, *end = text + len, *start = text;
	int line = 0, start_line = 0, in_doc = 1;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *next = eol ? eol + 1 : end;
		int dashes = marker(p, eol ? eol : end, "---"), dots = marker(p, eol ? eol : end, "...");
		if (dashes || dots) {
			if (in_doc && !blank_yaml(start, (size_t)(p - start))) {
				if (add_yaml_doc(d, start, (size_t)(p - start), source, count, start_line) < 0)
					return -1;
			}
			/* "--- value" starts a document on the marker's line: keep what follows it */
			start = dashes ? p + 3 : next;
			start_line = dashes ? line : line + 1;
			in_doc = dashes;
		}
		p = next;
		line++;
	}
	if (in_doc && !blank_yaml(start, (size_t)(end - start)))
		return add_yaml_doc(d, start, (size_t)(end - start), source, count, start_line);
	return 0;
}

static int add_json(docs *d, json_t *v, const char *source, int index, int item)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	if (!s)
		return -1;
	int rc = docs_add(d, s, strlen(s), source, index, item, 0);
	free(s);
	return rc;
}

/*
 * JSON input: one object, concatenated values, arrays, and *List kinds are
 * expanded (what `kubectl get -o json` prints). Returns 1 when the text is not
 * JSON jansson can read, so that the caller hands it to the library as it is.
 */
static int split_json(docs *d, const char *text, size_t len, const char *source, int *count)
{
	docs tmp;
	memset(&tmp, 0, sizeof(tmp));
	int n = *count, rc = 0;
	size_t off = 0;
	while (rc == 0) {
		while (off < len && strchr(" \t\r\n", text[off]))
			off++;
		if (off >= len)
			break;
		json_error_t je;
		json_t *v = json_loadb(text + off, len - off, JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY, &je);
		if (!v) {
			rc = 1;
			break;
		}
		const char *kind = json_string_value(json_object_get(v, "kind"));
		size_t kl = kind ? strlen(kind) : 0;
		json_t *items = json_object_get(v, "items");
		if (json_is_array(v) || (kl >= 4 && strcmp(kind + kl - 4, "List") == 0 && json_is_array(items))) {
			size_t i;
			json_t *x;
			/* a List's items share its number ("items[i]" as in the library's paths); the
			 * values of a bare array count as documents of their own */
			int list = !json_is_array(v);
			json_array_foreach(list ? items : v, i, x)
			{
				if (add_json(&tmp, x, source, list ? n + 1 : n + 1 + (int)i, list ? (int)i : -1) < 0)
					rc = -1;
			}
			n += list ? 1 : (int)json_array_size(v);
		} else if (docs_add(&tmp, text + off, je.position, source, ++n, -1, 0) < 0) {
			rc = -1; /* a single object: its own text, untouched */
		}
		json_decref(v);
		off += je.position;
	}
	if (rc == 0) {
		for (size_t i = 0; i < tmp.n && rc == 0; i++)
			rc = docs_add(d, tmp.v[i].text, tmp.v[i].len, source, tmp.v[i].index, tmp.v[i].item, 0);
		*count = n;
	}
	docs_free(&tmp);
	return rc;
}

static int add_text(docs *d, char *text, size_t len, const char *source)
{
	size_t i = 0;
	while (i < len && strchr(" \t\r\n", text[i]))
		i++;
	int count = 0, rc = 1;
	if (i < len && (text[i] == '{' || text[i] == '['))
		rc = split_json(d, text, len, source, &count);
	if (rc == 0) /* JSON, perhaps an empty List */
		return 0;
	if (rc == 1) {
		count = 0;
		rc = split_yaml(d, text, len, source, &count);
	}
	if (rc == 0 && count == 0) /* no YAML document: the library says so in its own words */
		rc = docs_add(d, text, len, source, 1, -1, 0);
	return rc;
}

static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

/* A file, "-", or every *.json, *.yaml and *.yml of a directory in name order. */
static int add_path(docs *d, const char *path)
{
	struct stat st;
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		DIR *dir = opendir(path);
		if (!dir) {
			fprintf(stderr, "error: cannot read directory %s\n", path);
			return EXIT_ERROR;
		}
		struct dirent *e;
		char **names = NULL;
		size_t n = 0;
		while ((e = readdir(dir))) {
			if (e->d_name[0] == '.' || !(has_suffix(e->d_name, ".json") || has_suffix(e->d_name, ".yaml") ||
						     has_suffix(e->d_name, ".yml")))
				continue;
			char **nn = realloc(names, (n + 1) * sizeof(*names));
			if (!nn)
				break;
			names = nn;
			size_t l = strlen(path) + strlen(e->d_name) + 2;
			names[n] = malloc(l);
			snprintf(names[n++], l, "%s/%s", path, e->d_name);
		}
		closedir(dir);
		qsort(names, n, sizeof(*names), name_cmp);
		int rc = EXIT_OK;
		for (size_t i = 0; i < n; i++) {
			char **np = realloc(d->paths, (d->npaths + 1) * sizeof(*np));
			if (np) {
				d->paths = np;
				d->paths[d->npaths++] = names[i];
			}
			if (rc == EXIT_OK)
				rc = add_path(d, names[i]);
		}
		free(names);
		return rc;
	}
	size_t len;
	char *text = read_all(path, &len);
	if (!text) {
		fprintf(stderr, "error: the path \"%s\" does not exist or cannot be read\n", path);
		return EXIT_ERROR;
	}
	int rc = add_text(d, text, len, strcmp(path, "-") == 0 ? "<stdin>" : path);
	free(text);
	if (rc < 0) {
		fprintf(stderr, "error: out of memory\n");
		return EXIT_ERROR;
	}
	return EXIT_OK;
}

/* The inputs of a command: -f paths, then its own arguments; standard input when none. */
static int gather(ctx *c, const char **args, int nargs, docs *d)
{
	memset(d, 0, sizeof(*d));
	int rc = EXIT_OK;
	for (int i = 0; i < c->nfiles && rc == EXIT_OK; i++)
		rc = add_path(d, c->files[i]);
	for (int i = 0; i < nargs && rc == EXIT_OK; i++)
		rc = add_path(d, args[i]);
	if (rc == EXIT_OK && c->nfiles + nargs == 0)
		rc = add_path(d, "-");
	return rc;
}

/* "FILE (document 2)", or "FILE (document 1, items[3])" for an item of a List. */
static void doc_where(const doc *dc, char *buf, size_t size)
{
	if (dc->item >= 0)
		snprintf(buf, size, "%s (document %d, items[%d])", dc->source, dc->index, dc->item);
	else
		snprintf(buf, size, "%s (document %d)", dc->source, dc->index);
}

/* Report a library error about one of ndocs documents, with its file and the line in that file;
 * the document is named when the input has more than one or it is an item of a List. */
static int doc_fail(const char *what, const doc *dc, size_t ndocs, ds_error *err)
{
	if (ndocs > 1 || dc->index > 1 || dc->item >= 0)
		doc_where(dc, err->source, sizeof(err->source));
	else
		snprintf(err->source, sizeof(err->source), "%s", dc->source);
	if (err->line)
		err->line += dc->line;
	return fail(what, err);
}

static json_t *error_json(const ds_error *err)
{
	char code[32]; /* "DS_ETYPE" out of "DS_ETYPE: field has the wrong type" */
	snprintf(code, sizeof(code), "%.*s", (int)strcspn(ds_strerror(err->code), ":"), ds_strerror(err->code));
	return json_pack("{s:s, s:s, s:s, s:i, s:i}", "code", code, "path", err->path, "message", err->message, "line",
			 err->line, "column", err->column);
}

/* Other kinds in a stream are not ours to check (kubectl apply would send them elsewhere). */
static int other_kind(ds_error *err)
{
	if (err->code != DS_EUNSUPPORTED || strcmp(err->path, "kind") != 0)
		return 0;
	return 1;
}

/* metadata.name and namespace as written (the defaults keep them), for the report. */
static void doc_identity(const doc *dc, const ds_options *opts, json_t *into)
{
	char *text;
	ds_error err;
	if (ds_daemonset_defaults(dc->text, dc->len, opts, &text, &err) < 0)
		return;
	json_t *obj = take_json(text);
	json_t *meta = json_object_get(obj, "metadata");
	json_object_set(into, "name", json_object_get(meta, "name") ? json_object_get(meta, "name") : json_null());
	json_object_set(into, "namespace",
			json_object_get(meta, "namespace") ? json_object_get(meta, "namespace") : json_null());
	if (json_object_get(meta, "generateName"))
		json_object_set(into, "generateName", json_object_get(meta, "generateName"));
	json_decref(obj);
}

/*
 * What kubectl prints for a 422 Invalid (checkErr and MultilineError in
 * kubectl pkg/cmd/util/helpers.go): "The Kind "name" is invalid: " and the
 * causes "field: body", each text once; one cause on the same line, several
 * as "* " lines under it.
 */
static void print_invalid(const ctx *c, const json_t *res)
{
	const char *msg = json_string_value(json_object_get(res, "message"));
	/* the name as the server quoted it: DaemonSet.apps "NAME" is invalid: ... */
	const char *q = msg ? strchr(msg, '"') : NULL, *is = msg ? strstr(msg, " is invalid") : NULL;
	json_t *errs = json_object_get(res, "errors"), *seen = json_object();
	json_t *lines = json_array();
	size_t i;
	json_t *e;
	json_array_foreach(errs, i, e)
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

static void print_valid(const ctx *c, const json_t *res, int update)
{
	const char *name = json_string_value(json_object_get(res, "name"));
	const char *gen = json_string_value(json_object_get(res, "generateName"));
	if (name && name[0])
		printf("daemonset.apps/%s ", name);
	else if (gen)
		printf("daemonset.apps (generateName \"%s\") ", gen);
	else
		printf("daemonset.apps ");
	printf("%svalid%s%s\n", colour(c, "ok"), colour(c, "reset"), update ? " (update)" : "");
}

int cmd_validate(ctx *c)
{
	const char *old_path = NULL;
	unsigned flags = 0;
	int status = 0;
	const char **args = calloc((size_t)c->argc + 1, sizeof(char *));
	int nargs = 0;
	for (int i = 0; i < c->argc; i++) {
		const char *a = c->argv[i];
		if (strcmp(a, "--old") == 0) {
			if (i + 1 >= c->argc) {
				free(args);
				return usage_error("validate", "--old needs the stored DaemonSet's file");
			}
			old_path = c->argv[++i];
		} else if (strncmp(a, "--old=", 6) == 0) {
			old_path = a + 6;
		} else if (strcmp(a, "--as-is") == 0) {
			flags |= DS_VALIDATE_AS_IS;
		} else if (strcmp(a, "--status") == 0) {
			status = 1;
		} else if (a[0] == '-' && a[1]) {
			free(args);
			return usage_error("validate", "unknown flag %s", a);
		} else {
			args[nargs++] = a;
		}
	}
	if (status && !old_path) {
		free(args);
		return usage_error("validate",
				   "--status validates an update: give the stored DaemonSet with --old FILE");
	}
	if (status)
		flags |= DS_VALIDATE_STATUS;
	docs in, old;
	memset(&old, 0, sizeof(old));
	int rc = gather(c, args, nargs, &in);
	free(args);
	if (rc == EXIT_OK && old_path)
		rc = add_path(&old, old_path);
	if (rc != EXIT_OK)
		goto out;
	if (old_path && (in.n != 1 || old.n != 1)) {
		rc = usage_error("validate",
				 "--old compares one DaemonSet with one stored DaemonSet; got %zu and %zu documents",
				 in.n, old.n);
		goto out;
	}
	json_t *all = json_array();
	int errors = 0, invalid = 0, valid = 0, skipped = 0;
	for (size_t i = 0; i < in.n; i++) {
		const doc *dc = &in.v[i];
		char *text;
		ds_error err;
		int r = old_path ? ds_daemonset_validate_update(dc->text, dc->len, old.v[0].text, old.v[0].len, flags,
								c->opts, &text, &err)
				 : ds_daemonset_validate(dc->text, dc->len, flags, c->opts, &text, &err);
		json_t *entry = json_pack("{s:s, s:i}", "source", dc->source, "document", dc->index);
		if (dc->item >= 0)
			json_object_set_new(entry, "item", json_integer(dc->item));
		if (r < 0 && other_kind(&err) && in.n > 1) {
			/* a stream may mix kinds: say what is skipped, on stderr */
			char where[512];
			doc_where(dc, where, sizeof(where));
			fprintf(stderr, "%s: skipped: %s\n", where, err.message);
			skipped++;
			json_decref(entry);
			continue;
		}
		if (r < 0) {
			doc_fail(old_path && strncmp(err.path, "(old)", 5) == 0 ? "cannot read the stored DaemonSet"
										: "cannot validate",
				 dc, in.n, &err);
			json_object_set_new(entry, "error", error_json(&err));
			json_array_append_new(all, entry);
			errors++;
			continue;
		}
		json_t *res = take_json(text);
		doc_identity(dc, c->opts, entry);
		json_object_update(entry, res);
		json_decref(res);
		if (json_is_true(json_object_get(entry, "valid"))) {
			valid++;
			if (c->out == OUT_TABLE)
				print_valid(c, entry, old_path != NULL);
		} else {
			invalid++;
			if (c->out == OUT_TABLE)
				print_invalid(c, entry);
		}
		json_array_append_new(all, entry);
	}
	if (c->out != OUT_TABLE) {
		print_structured(c, all);
	} else if (valid + invalid + errors > 1) {
		printf("%d valid, %d invalid", valid, invalid);
		if (errors)
			printf(", %d not readable", errors);
		printf("\n");
	}
	json_decref(all);
	if (valid + invalid + errors == 0) {
		fprintf(stderr, "error: no DaemonSet in the input (%d object(s) of other kinds)\n", skipped);
		rc = EXIT_ERROR;
	} else {
		rc = errors ? EXIT_ERROR : invalid ? EXIT_CHECK : EXIT_OK;
	}
out:
	docs_free(&in);
	docs_free(&old);
	return rc;
}

int cmd_defaults(ctx *c)
{
	for (int i = 0; i < c->argc; i++)
		if (c->argv[i][0] == '-' && c->argv[i][1])
			return usage_error("defaults", "unknown flag %s", c->argv[i]);
	docs in;
	int rc = gather(c, (const char **)c->argv, c->argc, &in);
	if (rc != EXIT_OK) {
		docs_free(&in);
		return rc;
	}
	json_t *items = json_array();
	for (size_t i = 0; i < in.n && rc == EXIT_OK; i++) {
		const doc *dc = &in.v[i];
		char *text;
		ds_error err;
		if (ds_daemonset_defaults(dc->text, dc->len, c->opts, &text, &err) < 0) {
			if (other_kind(&err) && in.n > 1) {
				char where[512];
			doc_where(dc, where, sizeof(where));
			fprintf(stderr, "%s: skipped: %s\n", where, err.message);
				continue;
			}
			rc = doc_fail("cannot apply the defaults", dc, in.n, &err);
			break;
		}
		json_array_append_new(items, take_json(text));
	}
	if (rc == EXIT_OK && json_array_size(items) == 0) {
		fprintf(stderr, "error: no DaemonSet in the input\n");
		rc = EXIT_ERROR;
	}
	if (rc == EXIT_OK) {
		size_t n = json_array_size(items);
		if (c->out == OUT_JSON) {
			/* several objects: a v1 List, which dsctl and kubectl read back */
			json_t *v = n == 1 ? json_incref(json_array_get(items, 0))
					   : json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List", "items",
						       items);
			print_json(v);
			json_decref(v);
		} else { /* a manifest reads best as YAML, also by default; several as a stream */
			size_t k;
			json_t *x;
			json_array_foreach(items, k, x)
			{
				if (k)
					puts("---");
				print_yaml(x);
			}
		}
	}
	json_decref(items);
	docs_free(&in);
	return rc;
}
