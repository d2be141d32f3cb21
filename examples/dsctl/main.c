/*
 * dsctl: DaemonSet decisions from cluster dumps, offline.
 *   dsctl [-f PATH]... [-n NS] [-o table|json|yaml] [--now TIME] [--set NAME=VALUE]... COMMAND [ARGS]
 * See dsctl(1).
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
	fprintf(stderr, "\nSee 'dsctl %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

json_t *take_json(char *text)
{
	json_error_t je;
	json_t *v = text ? json_loads(text, 0, &je) : NULL;
	ds_free(text);
	return v;
}

static double elapsed(const struct timespec *a)
{
	struct timespec b;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) / 1e9;
}

static int read_stdin(char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, stdin)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	*out = buf;
	*len = n;
	return buf ? 0 : -1;
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
	int progress = isatty(STDERR_FILENO);
	size_t total = 0;
	for (int i = 0; i < n; i++) {
		size_t count = 0;
		int rc;
		if (strcmp(files[i], "-") == 0) {
			char *text;
			size_t len;
			if (read_stdin(&text, &len) < 0) {
				fprintf(stderr, "error: cannot read standard input\n");
				return EXIT_ERROR;
			}
			rc = ds_cluster_load(c->cluster, text, len, &count, &err);
			free(text);
			if (rc < 0 && !err.source[0])
				snprintf(err.source, sizeof(err.source), "<stdin>");
		} else {
			struct stat st;
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

int resolve_ds(ctx *c, const char *arg, char *ns, size_t nsz, char *name, size_t nmsz)
{
	const char *slash = strchr(arg, '/');
	if (slash) {
		snprintf(ns, nsz, "%.*s", (int)(slash - arg), arg);
		snprintf(name, nmsz, "%s", slash + 1);
		return 0;
	}
	snprintf(name, nmsz, "%s", arg);
	if (c->ns) {
		snprintf(ns, nsz, "%s", c->ns);
		return 0;
	}
	/* without -n, a name that is unique across namespaces is enough */
	char *text;
	ds_error err;
	if (ds_cluster_summary(c->cluster, &text, &err) < 0)
		return fail("cannot list DaemonSets", &err);
	json_t *s = take_json(text);
	size_t i, found = 0;
	json_t *d;
	json_array_foreach(json_object_get(s, "daemonSets"), i, d)
	{
		if (strcmp(json_string_value(json_object_get(d, "name")), name) == 0) {
			snprintf(ns, nsz, "%s", json_string_value(json_object_get(d, "namespace")));
			found++;
		}
	}
	json_decref(s);
	if (found == 1)
		return 0;
	if (found == 0) {
		fprintf(stderr, "error: daemonsets.apps \"%s\" not found\n", name);
		return EXIT_ERROR;
	}
	fprintf(stderr, "error: daemonset \"%s\" exists in %zu namespaces: use NAMESPACE/NAME or -n\n", name, found);
	return EXIT_USAGE;
}

int command_ds(ctx *c, const char *cmd, int min, int max, const char *need, char ns[DSCTL_NAME_MAX],
	       char name[DSCTL_NAME_MAX])
{
	if (c->argc < min || c->argc > max)
		return usage_error(cmd, "%s", need);
	return resolve_ds(c, c->argv[0], ns, DSCTL_NAME_MAX, name, DSCTL_NAME_MAX);
}

static void usage(FILE *f)
{
	fputs("Usage: dsctl [-f PATH]... [-n NAMESPACE] [-o table|json|yaml] [--now TIME] [--set NAME=VALUE]... COMMAND "
	      "[ARGS]\n\n"
	      "Kubernetes DaemonSet decisions, computed offline from cluster dumps by libdaemonset.\n\n"
	      "Commands:\n",
	      f);
	for (const command *cmd = dsctl_commands; cmd->name; cmd++)
		fprintf(f, "  %-10s %s\n", cmd->name, cmd->summary);
	fputs("\nOptions:\n"
	      "  -f, --filename PATH   a JSON or YAML file or a directory of them; '-' or none: standard input\n"
	      "  -n, --namespace NS    the namespace of the DaemonSet named by the command\n"
	      "  -o, --output FORMAT   table (default), json or yaml\n"
	      "      --now TIME        the time to plan at (RFC 3339); default: now\n"
	      "      --set NAME=VALUE  a library option (see ds_options(3)), e.g. --set burstReplicas=50\n"
	      "      --color WHEN      auto (default), always or never\n"
	      "  -h, --help            help for dsctl or for a command\n\n"
	      "Exit status: 0 success, 1 error, 2 usage error, 3 a check failed (validation, audit level, drain, tests).\n"
	      "Run 'dsctl COMMAND --help' for a command's arguments.\n",
	      f);
}

static void command_help(const command *cmd)
{
	printf("Usage: dsctl [OPTIONS] %s %s\n\n%s\n", cmd->name, cmd->args, cmd->summary);
	if (cmd->help)
		printf("\n%s\n", cmd->help);
	printf("\nGlobal options (-f, -n, -o, --now, --set, --color) are described in 'dsctl --help' and dsctl(1).\n");
}

static const char *arg_value(int argc, char **argv, int *i, const char *flag)
{
	const char *a = argv[*i];
	size_t n = strlen(flag);
	if (strncmp(a, flag, n) == 0 && a[n] == '=')
		return a + n + 1;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

int main(int argc, char **argv)
{
	ctx c;
	memset(&c, 0, sizeof(c));
	c.files = calloc((size_t)argc + 1, sizeof(char *));
	const char *color = "auto", *now = NULL, *cmdname = NULL;
	char **rest = calloc((size_t)argc + 1, sizeof(char *));
	int nrest = 0, help = 0, rc = EXIT_OK;
	ds_error err;
	/* every exit below goes through `out`, which frees what main allocated */
#define BAIL(x)                                                                                                        \
	do {                                                                                                           \
		rc = (x);                                                                                              \
		goto out;                                                                                              \
	} while (0)
	if (!c.files || !rest || ds_options_new(&c.opts) < 0)
		BAIL(EXIT_ERROR);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v;
#define FLAG(s, l) (strcmp(a, s) == 0 || strcmp(a, l) == 0 || strncmp(a, l "=", strlen(l) + 1) == 0)
		if (strcmp(a, "--") == 0) {
			while (++i < argc)
				rest[nrest++] = argv[i];
			break;
		} else if (FLAG("-f", "--filename")) {
			if (!(v = arg_value(argc, argv, &i, "--filename")))
				BAIL(usage_error(cmdname, "%s needs a path", a));
			c.files[c.nfiles++] = v;
		} else if (FLAG("-n", "--namespace")) {
			if (!(v = arg_value(argc, argv, &i, "--namespace")))
				BAIL(usage_error(cmdname, "%s needs a namespace", a));
			c.ns = v;
		} else if (FLAG("-o", "--output")) {
			if (!(v = arg_value(argc, argv, &i, "--output")))
				BAIL(usage_error(cmdname, "%s needs table, json or yaml", a));
			if (strcmp(v, "json") == 0)
				c.out = OUT_JSON;
			else if (strcmp(v, "yaml") == 0)
				c.out = OUT_YAML;
			else if (strcmp(v, "table") == 0 || strcmp(v, "wide") == 0)
				c.out = OUT_TABLE, c.wide = v[0] == 'w';
			else
				BAIL(usage_error(cmdname, "unknown output format \"%s\" (table, json, yaml)", v));
		} else if (strcmp(a, "--now") == 0 || strncmp(a, "--now=", 6) == 0) {
			if (!(now = arg_value(argc, argv, &i, "--now")))
				BAIL(usage_error(cmdname, "--now needs a time such as 2026-12-02T15:00:00Z"));
		} else if (strcmp(a, "--set") == 0 || strncmp(a, "--set=", 6) == 0) {
			if (!(v = arg_value(argc, argv, &i, "--set")) || !strchr(v, '='))
				BAIL(usage_error(cmdname, "--set needs NAME=VALUE"));
			char name[128];
			snprintf(name, sizeof(name), "%.*s", (int)(strchr(v, '=') - v), v);
			if (ds_options_set(c.opts, name, strchr(v, '=') + 1, &err) < 0) {
				fail("bad --set", &err);
				BAIL(EXIT_USAGE);
			}
		} else if (strcmp(a, "--color") == 0 || strncmp(a, "--color=", 8) == 0) {
			if (!(color = arg_value(argc, argv, &i, "--color")))
				BAIL(usage_error(cmdname, "--color needs auto, always or never"));
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			help = 1;
		} else if (a[0] == '-' && a[1] && !cmdname) {
			BAIL(usage_error(NULL, "unknown option %s", a));
		} else if (!cmdname) {
			cmdname = a;
		} else {
			rest[nrest++] = argv[i];
		}
#undef FLAG
	}
	if (!cmdname) {
		usage(help ? stdout : stderr);
		BAIL(help ? EXIT_OK : EXIT_USAGE);
	}
	const command *cmd;
	for (cmd = dsctl_commands; cmd->name && strcmp(cmd->name, cmdname) != 0; cmd++)
		;
	if (!cmd->name)
		BAIL(usage_error(NULL, "unknown command \"%s\"", cmdname));
	if (help) {
		command_help(cmd);
		BAIL(EXIT_OK);
	}
	c.color = strcmp(color, "always") == 0 || (strcmp(color, "auto") == 0 && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
	if (now) {
		if (ds_time_parse(now, &c.now, &err) < 0) {
			fail("bad --now", &err);
			BAIL(EXIT_USAGE);
		}
	} else {
		/* the library never reads a clock; the command line supplies one */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		c.now = (ds_time)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	}
	c.argc = nrest;
	c.argv = rest;
	if (cmd->needs_cluster)
		rc = load_inputs(&c);
	if (rc == EXIT_OK)
		rc = cmd->run(&c);
out:
#undef BAIL
	ds_cluster_free(c.cluster);
	ds_options_free(c.opts);
	free(c.files);
	free(rest);
	return rc;
}
