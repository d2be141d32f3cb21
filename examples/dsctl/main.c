/*
 * dsctl: DaemonSet decisions from cluster dumps, offline.
 *   dsctl [flags] COMMAND [ARGS] [flags]
 * See dsctl(1). The command line is read in args.c, the commands are in cmd_*.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dsctl.h"

int fail(const char *what, const ds_error *err)
{
	fprintf(stderr, "error: %s", what);
	if (err->source[0])
		fprintf(stderr, ": %s", err->source);
	if (err->line)
		fprintf(stderr, ": line %d, column %d", err->line, err->column);
	if (err->path[0])
		fprintf(stderr, ": %s", err->path);
	fprintf(stderr, ": %s\n", err->message);
	return EXIT_ERROR;
}

static int vusage_error(const char *cmd, suggestions *s, const char *fmt, va_list ap)
{
	fputs("error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	if (s && s->n) {
		suggestions_print(s, stderr);
		fputc('\n', stderr);
	}
	fprintf(stderr, "See 'dsctl %s%s--help' for usage.\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vusage_error(cmd, NULL, fmt, ap);
	va_end(ap);
	return rc;
}

int usage_error_suggest(const char *cmd, suggestions *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vusage_error(cmd, s, fmt, ap);
	va_end(ap);
	return rc;
}

json_t *take_json(char *text)
{
	json_error_t je;
	json_t *v = text ? json_loads(text, 0, &je) : NULL;
	ds_free(text);
	return v;
}

/* The option maxDocumentBytes: the most any one input may hold. */
static size_t input_limit(const ctx *c)
{
	char *v = NULL;
	size_t max = (size_t)256 << 20;
	if (c && c->opts && ds_options_get(c->opts, "maxDocumentBytes", &v, NULL) == 0 && v) {
		unsigned long long n = strtoull(v, NULL, 10);
		if (n > 0 && n < SIZE_MAX)
			max = (size_t)n;
	}
	ds_free(v);
	return max;
}

char *read_file(const ctx *c, const char *path, size_t *len)
{
	int is_stdin = strcmp(path, "-") == 0;
	const char *what = is_stdin ? "standard input" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "error: cannot open %s: %s\n", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "error: cannot read %s: it is a directory\n", what);
		if (!is_stdin)
			fclose(f);
		return NULL;
	}
	/* read in pieces up to the limit, so that an endless pipe costs the limit, not all memory */
	size_t max = input_limit(c), cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap + 1);
	int too_big = 0;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n > max) {
			too_big = 1;
			break;
		}
		if (n == cap) {
			size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			char *nb = ncap > cap ? realloc(buf, ncap + 1) : NULL;
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap = ncap;
		}
	}
	int bad = ferror(f);
	if (!is_stdin)
		fclose(f);
	if (too_big) {
		fprintf(stderr,
			"error: %s is larger than the limit of %zu bytes (the option maxDocumentBytes: --set "
			"maxDocumentBytes=N raises it)\n",
			what, max);
		free(buf);
		return NULL;
	}
	if (!buf || bad) {
		fprintf(stderr, "error: cannot read %s%s%s\n", what, bad && errno ? ": " : "",
			bad && errno ? strerror(errno) : "");
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

void name_source(ds_error *err, const char *file)
{
	if (err->source[0] && strncmp(err->source, "document", 8) != 0)
		return;
	char src[2 * sizeof(err->source) + 8];
	snprintf(src, sizeof(src), "%s%s%s", strcmp(file, "-") == 0 ? "<stdin>" : file, err->source[0] ? ", " : "",
		 err->source);
	/* the tail, where the document number is, if it is long */
	size_t l = strlen(src), keep = l >= sizeof(err->source) ? sizeof(err->source) - 1 : l;
	memmove(err->source, src + (l - keep), keep + 1);
}

int node_exists(ctx *c, const char *node)
{
	char *text = NULL;
	ds_error err;
	int ok = ds_cluster_get(c->cluster, "Node", "", node, &text, &err) == 0;
	ds_free(text);
	return ok;
}

int not_found(ctx *c, const char *kind, const char *ns, const char *name)
{
	int is_ds = strcmp(kind, "DaemonSet") == 0;
	/* kubectl's NotFound, without "from server": dsctl reads files, there is no server */
	fprintf(stderr, "error: %s \"%s\" not found%s%s%s\n", is_ds ? "daemonsets.apps" : "nodes", name,
		ns ? " in namespace \"" : "", ns ? ns : "", ns ? "\"" : "");
	suggestions s;
	suggestions_init(&s);
	if (is_ds) {
		const char *dns, *dname;
		for (size_t i = 0; ds_cluster_daemonset_at(c->cluster, i, &dns, &dname, NULL) == 0; i++) {
			char full[2 * DSCTL_NAME_MAX + 2];
			snprintf(full, sizeof(full), "%s/%s", dns, dname);
			/* close to the name, or the name in another namespace: the full name says where */
			if (suggestion_matches(name, dname) || (strcmp(dname, name) == 0 && ns && strcmp(dns, ns) != 0))
				suggestions_push(&s, full);
		}
	} else {
		const char *node;
		for (size_t i = 0; ds_cluster_node_name_at(c->cluster, i, &node, NULL) == 0; i++)
			suggestions_add(&s, name, node);
	}
	suggestions_print(&s, stderr);
	return EXIT_ERROR;
}

static double elapsed(const struct timespec *a)
{
	struct timespec b;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) / 1e9;
}

/*
 * --validate=strict|warn on the inputs, as kubectl apply sends them with fieldValidation: an object with
 * unknown or repeated fields is the API server's 400 (Strict; nothing is loaded) or a warning (Warn).
 */
static int check_fields(ctx *c, const char *label, const char *text, size_t len)
{
	char *out;
	ds_error err;
	if (ds_manifest_check_fields(text, len, c->opts, &out, &err) < 0)
		return fail("cannot read the input", &err);
	json_t *r = take_json(out), *x;
	size_t i;
	int bad = 0;
	json_array_foreach(json_object_get(r, "warnings"), i, x)
		fprintf(stderr, "Warning: %s\n", json_string_value(json_object_get(x, "message")));
	json_array_foreach(json_object_get(r, "objects"), i, x)
	{
		const char *msg = json_string_value(json_object_get(x, "message"));
		if (!msg)
			continue;
		fprintf(stderr, "Error from server (BadRequest): error when creating \"%s\": %s\n", label, msg);
		bad = 1;
	}
	json_decref(r);
	return bad ? EXIT_ERROR : EXIT_OK;
}

static int validate_input(ctx *c, const char *path, const char *text, size_t len)
{
	if (text)
		return check_fields(c, "STDIN", text, len);
	char *list;
	ds_error err;
	if (ds_manifests_list(path, &list, &err) < 0)
		return fail("cannot load the input", &err);
	json_t *files = take_json(list), *f;
	size_t i;
	int rc = EXIT_OK;
	json_array_foreach(files, i, f)
	{
		size_t n;
		char *t = read_file(c, json_string_value(f), &n);
		int r = t ? check_fields(c, json_string_value(f), t, n) : EXIT_ERROR;
		free(t);
		if (r > rc)
			rc = r;
	}
	json_decref(files);
	return rc;
}

int load_inputs(ctx *c)
{
	ds_error err;
	if (ds_cluster_new(c->opts, &c->cluster, &err) < 0)
		return fail("cannot create a snapshot", &err);
	const char *stdin_only[] = {"-"};
	const char **files = c->files;
	int n = c->nfiles;
	if (n == 0) {
		if (isatty(STDIN_FILENO)) {
			fprintf(stderr, "error: no input: give -f FILE|DIR, or pipe a dump (kubectl get nodes,pods,ds,"
					"controllerrevisions -A -o yaml | dsctl ...)\n");
			return EXIT_USAGE;
		}
		files = stdin_only;
		n = 1;
	}
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	int progress = isatty(STDERR_FILENO), checks = c->validate == 1 || c->validate == 2;
	size_t total = 0;
	for (int i = 0; i < n; i++) {
		size_t count = 0;
		int rc;
		if (strcmp(files[i], "-") == 0) {
			size_t len;
			if (c->stdin_text) { /* "-f - -f -": standard input is read once */
				fprintf(stderr, "error: standard input (-f -) can be given only once\n");
				return EXIT_USAGE;
			}
			char *text = read_file(c, "-", &len);
			if (!text)
				return EXIT_ERROR;
			if (checks && (rc = validate_input(c, "-", text, len)) != EXIT_OK) {
				free(text);
				return rc;
			}
			rc = ds_cluster_load(c->cluster, text, len, &count, &err);
			/* get prints the objects themselves: it reads them again from the text */
			c->stdin_text = text;
			c->stdin_len = len;
			if (rc < 0 && !err.source[0])
				snprintf(err.source, sizeof(err.source), "<stdin>");
		} else {
			struct stat st;
			if (checks && (rc = validate_input(c, files[i], NULL, 0)) != EXIT_OK)
				return rc;
			if (progress && stat(files[i], &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (64 << 20))
				fprintf(stderr, "loading %s (%lld MB)...\n", files[i], (long long)(st.st_size >> 20));
			rc = ds_cluster_load_file(c->cluster, files[i], &count, &err);
		}
		if (rc < 0)
			return fail("cannot load the input", &err);
		total += count;
		if (progress && elapsed(&start) > 1.0)
			fprintf(stderr, "\rloaded %zu objects from %d of %d inputs", total, i + 1, n);
	}
	if (progress && elapsed(&start) > 1.0)
		fprintf(stderr, "\rloaded %zu objects from %d inputs in %.1fs\n", total, n, elapsed(&start));
	if (total == 0) { /* nothing to answer about: say so rather than print empty tables */
		if (c->nfiles == 0)
			fprintf(stderr,
				"error: no objects in standard input: give -f FILE|DIR, or pipe a dump (kubectl get "
				"nodes,pods,ds,controllerrevisions -A -o yaml | dsctl ...)\n");
		else
			fprintf(stderr,
				"error: no objects in %s%s: dsctl reads JSON or YAML objects, a List, or a "
				"directory of *.json, *.yaml and *.yml files\n",
				strcmp(files[0], "-") == 0 ? "standard input" : files[0],
				n > 1 ? " and the other inputs" : "");
		return EXIT_ERROR;
	}
	return EXIT_OK;
}

/* "TYPE/NAME": the name when TYPE is one of kubectl's names for the resource, else NULL. */
static const char *typed_name(const char *arg, const char *const *types)
{
	const char *slash = strchr(arg, '/');
	for (size_t i = 0; slash && types[i]; i++)
		if (strlen(types[i]) == (size_t)(slash - arg) && strncmp(arg, types[i], (size_t)(slash - arg)) == 0)
			return slash + 1;
	return NULL;
}

static const char *const ds_types[] = {"ds", "daemonset", "daemonsets", "daemonset.apps", "daemonsets.apps", NULL};
static const char *const node_types[] = {"no", "node", "nodes", NULL};

const char *node_arg(const char *arg)
{
	const char *n = typed_name(arg, node_types);
	return n ? n : arg;
}

int resolve_ds(ctx *c, const char *arg, char ns[DSCTL_NAME_MAX], char name[DSCTL_NAME_MAX])
{
	const char *typed = typed_name(arg, ds_types);
	const char *slash = typed ? NULL : strchr(arg, '/');
	if (typed) /* ds/NAME: kubectl's form, the namespace from -n */
		arg = typed;
	if (slash) {
		snprintf(ns, DSCTL_NAME_MAX, "%.*s", (int)(slash - arg), arg);
		snprintf(name, DSCTL_NAME_MAX, "%s", slash + 1);
		return EXIT_OK;
	}
	snprintf(name, DSCTL_NAME_MAX, "%s", arg);
	if (!*name || strchr(name, '/'))
		return usage_error(c->cmd->name, "\"%s\" is not a DaemonSet: use NAME, NAMESPACE/NAME or ds/NAME", arg);
	if (c->ns) {
		snprintf(ns, DSCTL_NAME_MAX, "%s", c->ns);
		return EXIT_OK;
	}
	/* without -n, a name that is unique across namespaces is enough */
	size_t found = 0;
	const char *dns, *dname;
	for (size_t i = 0; ds_cluster_daemonset_at(c->cluster, i, &dns, &dname, NULL) == 0; i++)
		if (strcmp(dname, name) == 0 && found++ == 0)
			snprintf(ns, DSCTL_NAME_MAX, "%s", dns);
	if (found == 1)
		return EXIT_OK;
	if (found == 0)
		return not_found(c, "DaemonSet", NULL, name);
	fprintf(stderr, "error: daemonset \"%s\" exists in %zu namespaces: use NAMESPACE/NAME or -n\n", name, found);
	return EXIT_USAGE;
}

/* Whether node's labels match -l (checked for syntax in select_nodes). */
int node_selected(ctx *c, const char *node)
{
	const char *sel = flag_value(c, "selector");
	if (!sel)
		return 1;
	char *text;
	ds_error err;
	if (ds_cluster_get(c->cluster, "Node", "", node, &text, &err) < 0)
		return 0;
	json_t *n = take_json(text); /* the library's view of a Node: its labels at the top */
	char *labels = json_dumps(json_object_get(n, "labels"), JSON_ENCODE_ANY);
	json_decref(n);
	int match = 0;
	if (labels && ds_selector_match(sel, strlen(sel), labels, strlen(labels), &match, &err) < 0)
		match = 0;
	free(labels);
	return match;
}

int select_nodes(ctx *c, int first_arg, int all_if_none, const char ***names, size_t *n)
{
	const char *sel = flag_value(c, "selector");
	size_t nn = ds_cluster_count(c->cluster, "Node"),
	       named = c->argc > first_arg ? (size_t)(c->argc - first_arg) : 0;
	*n = 0;
	*names = calloc(named + nn + 1, sizeof(**names));
	if (!*names)
		return EXIT_ERROR;
	if (named && sel) /* kubectl drain's words */
		return usage_error(c->cmd->name, "cannot specify both a node name and a --selector option");
	if (sel) {
		int m;
		ds_error err;
		if (ds_selector_match(sel, strlen(sel), "{}", 2, &m, &err) < 0)
			return usage_error(c->cmd->name, "invalid label selector \"%s\": %s", sel, err.message);
	}
	for (size_t i = 0; i < named; i++) {
		const char *node = node_arg(c->argv[first_arg + (int)i]);
		if (!node_exists(c, node))
			return not_found(c, "Node", NULL, node);
		(*names)[(*n)++] = node;
	}
	if (!named && (sel || all_if_none))
		for (size_t i = 0; i < nn; i++) {
			const char *node = NULL;
			if (ds_cluster_node_name_at(c->cluster, i, &node, NULL) == 0 && node_selected(c, node))
				(*names)[(*n)++] = node;
		}
	if (!named && !sel && !all_if_none)
		return usage_error(c->cmd->name, "USAGE: %s %s", c->cmd->name, c->cmd->args);
	if (!*n && sel) {
		fprintf(stderr, "No resources found\n"); /* kubectl's, when a selector matches no node */
		return EXIT_ERROR;
	}
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	ctx c;
	memset(&c, 0, sizeof(c));
	int done, rc = EXIT_ERROR;
	if (ds_options_create(&c.opts, NULL) == 0)
		rc = parse_command_line(&c, argc, argv, &done);
	else
		fprintf(stderr, "error: out of memory\n");
	if (rc == EXIT_OK && !done) {
		if (c.cmd->needs_cluster)
			rc = load_inputs(&c);
		if (rc == EXIT_OK)
			rc = c.cmd->run(&c);
	}
	if (fflush(stdout) != 0 && rc == EXIT_OK) {
		fprintf(stderr, "error: cannot write the output: %s\n", strerror(errno));
		rc = EXIT_ERROR;
	}
	ds_cluster_free(c.cluster);
	ds_options_free(c.opts);
	free(c.out_text);
	free(c.stdin_text);
	free(c.files);
	free(c.given);
	free(c.argv);
	return rc;
}
