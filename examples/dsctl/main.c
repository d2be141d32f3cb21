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

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("error: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nSee 'dsctl %s%s--help' for usage.\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

json_t *take_json(char *text)
{
	json_error_t je;
	json_t *v = text ? json_loads(text, 0, &je) : NULL;
	ds_free(text);
	return v;
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "error: cannot open %s: %s\n", path, strerror(errno));
		return NULL;
	}
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap + 1);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *nb = realloc(buf, 2 * cap + 1);
			if (!nb)
				free(buf);
			buf = nb;
			cap *= 2;
		}
	}
	int bad = ferror(f);
	if (f != stdin)
		fclose(f);
	if (!buf || bad) {
		fprintf(stderr, "error: cannot read %s\n", strcmp(path, "-") == 0 ? "standard input" : path);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
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
		char *t = read_file(json_string_value(f), &n);
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
			char *text = read_file("-", &len);
			if (!text)
				return EXIT_ERROR;
			if (checks && (rc = validate_input(c, "-", text, len)) != EXIT_OK) {
				free(text);
				return rc;
			}
			rc = ds_cluster_load(c->cluster, text, len, &count, &err);
			free(text);
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
	if (found == 0) {
		fprintf(stderr, "Error from server (NotFound): daemonsets.apps \"%s\" not found\n", name);
		return EXIT_ERROR;
	}
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
		char *text;
		ds_error err;
		if (ds_cluster_get(c->cluster, "Node", "", node, &text, &err) < 0) {
			fprintf(stderr, "Error from server (NotFound): nodes \"%s\" not found\n", node);
			return EXIT_ERROR;
		}
		ds_free(text);
		(*names)[(*n)++] = node;
	}
	if (!named && (sel || all_if_none))
		for (size_t i = 0; i < nn; i++) {
			const char *node = ds_cluster_node_at(c->cluster, i);
			if (node_selected(c, node))
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
	if (flag_value(&c, "output") && c.out_arg && strstr(flag_value(&c, "output"), "-file="))
		free((char *)c.out_arg);
	free(c.files);
	free(c.given);
	free(c.argv);
	return rc;
}
