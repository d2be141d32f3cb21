/*
 * The command line, read as kubectl (cobra and pflag) reads one: flags before or after the
 * command and its arguments, `-ojson`, `-nNS`, `--output=json`, `--force=false`, `--` ending the
 * flags; a flag the command does not have, a missing value or a bad one is a usage error (exit 2)
 * in kubectl's words. getopt_long does the reading; its abbreviations of long flags are refused,
 * as pflag knows none.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "dsctl.h"

const flag dsctl_global_flags[] = {
	{"filename", 'f', FLAG_LIST, "PATH", "a JSON or YAML file or a directory of them; '-' or none: standard input"},
	{"namespace", 'n', FLAG_VALUE, "NAMESPACE", "the namespace of the DaemonSet the command names"},
	{"output", 'o', FLAG_VALUE, "FORMAT",
	 "table (default), wide, json, yaml, name, jsonpath=TEMPLATE, jsonpath-file=FILE, custom-columns=SPEC, "
	 "custom-columns-file=FILE"},
	{"no-headers", 0, FLAG_BOOL, NULL, "tables and custom-columns without the header line"},
	{"allow-missing-template-keys", 0, FLAG_BOOL, NULL,
	 "jsonpath and custom-columns print nothing for a missing field instead of failing (default true)"},
	{"now", 0, FLAG_VALUE, "TIME", "the time to plan at (RFC 3339); default: now"},
	{"set", 0, FLAG_LIST, "NAME=VALUE", "a library option (see ds_options_create(3)), e.g. --set burstReplicas=50"},
	{"validate", 0, FLAG_VALUE, "LEVEL",
	 "strict (or true), warn or ignore (or false): unknown and repeated fields in the inputs, as kubectl's "
	 "--validate"},
	{"color", 0, FLAG_VALUE, "WHEN", "auto (default), always or never"},
	{"help", 'h', FLAG_BOOL, NULL, "help for dsctl or for the command"},
	{NULL, 0, 0, NULL, NULL},
};

static const char *const format_names[] = {
	[OUT_TABLE] = "table",
	[OUT_JSON] = "json",
	[OUT_YAML] = "yaml",
	[OUT_JSONPATH] = "jsonpath",
	[OUT_COLUMNS] = "custom-columns",
	[OUT_NAME] = "name",
	[OUT_SVG] = "svg",
	[OUT_SARIF] = "sarif",
};

/* ---- reading the flags ------------------------------------------------------------------------ */

static size_t count_flags(const flag *f)
{
	size_t n = 0;
	while (f && f[n].name)
		n++;
	return n;
}

/* The flags a command has: the global ones and its own, in one array. */
static const flag **all_flags(const command *cmd, size_t *n)
{
	size_t ng = count_flags(dsctl_global_flags), nc = cmd ? count_flags(cmd->flags) : 0;
	const flag **v = calloc(ng + nc + 1, sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < ng; i++)
		v[i] = &dsctl_global_flags[i];
	for (size_t i = 0; i < nc; i++)
		v[ng + i] = &cmd->flags[i];
	*n = ng + nc;
	return v;
}

/* Go's strconv.ParseBool, which pflag uses. */
static int parse_bool(const char *s, int *out)
{
	static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True"};
	static const char *const no[] = {"0", "f", "F", "FALSE", "false", "False"};
	for (size_t i = 0; i < 6; i++) {
		if (strcmp(s, yes[i]) == 0)
			return *out = 1, 0;
		if (strcmp(s, no[i]) == 0)
			return *out = 0, 0;
	}
	return -1;
}

/* The command: the first argument that is not a flag or the value of a global flag before it. Only
 * global flags can precede the command (its own are not known yet), as with kubectl. */
static const char *find_command(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0)
			return i + 1 < argc ? argv[i + 1] : NULL;
		if (a[0] != '-' || !a[1])
			return a;
		for (const flag *f = dsctl_global_flags; f->name; f++) {
			if (f->kind == FLAG_BOOL)
				continue;
			size_t n = strlen(f->name);
			int takes_next = (a[1] == '-' && strncmp(a + 2, f->name, n) == 0 && a[2 + n] == '\0') ||
					 (f->letter && a[1] == f->letter && a[2] == '\0');
			if (takes_next) {
				i++;
				break;
			}
		}
	}
	return NULL;
}

static const command *command_named(const char *name)
{
	for (const command *cmd = dsctl_commands; name && cmd->name; cmd++)
		if (strcmp(cmd->name, name) == 0)
			return cmd;
	return NULL;
}

/* cobra's legacyArgs error for a command it does not have, with its suggestions (SuggestionsFor:
 * the commands close to the word, and those that name it in their suggest_for). */
static int unknown_command(const char *name)
{
	suggestions s;
	suggestions_init(&s);
	for (const command *cmd = dsctl_commands; cmd->name; cmd++) {
		if (cmd->name[0] == '_')
			continue;
		suggestions_add(&s, name, cmd->name);
		for (const char *w = cmd->suggest_for; w && *w;) {
			size_t len = strcspn(w, " ");
			if (strlen(name) == len && strncasecmp(w, name, len) == 0)
				suggestions_push(&s, cmd->name);
			w += len + (w[len] == ' ');
		}
	}
	return usage_error_suggest(NULL, &s, "unknown command \"%s\" for \"dsctl\"", name);
}

/* kubectl's "unknown flag" family of messages, for the argument at argv[at]; an unknown long flag
 * gets the command's flags that are close to it (cobra's rule for commands), and a flag that only
 * another command has says which. */
static int flag_error(const command *cmd, const char *what, const char *arg, int letter)
{
	const char *name = cmd ? cmd->name : NULL;
	if (letter)
		return usage_error(name, "%s: '%c' in %s", what, letter, arg);
	char flagname[256];
	snprintf(flagname, sizeof(flagname), "%.*s", (int)strcspn(arg, "="), arg);
	suggestions s;
	suggestions_init(&s);
	if (strcmp(what, "unknown flag") == 0 && strncmp(flagname, "--", 2) == 0 && flagname[2]) {
		size_t n = 0;
		const flag **flags = all_flags(cmd, &n);
		char cand[320];
		for (size_t i = 0; flags && i < n; i++) {
			snprintf(cand, sizeof(cand), "--%s", flags[i]->name);
			suggestions_add(&s, flagname, cand);
		}
		free(flags);
		if (!s.n) /* a flag of another command: name it */
			for (const command *other = dsctl_commands; other->name; other++)
				for (const flag *f = other->flags; f && f->name && other != cmd; f++)
					if (strcmp(f->name, flagname + 2) == 0 && other->name[0] != '_') {
						snprintf(cand, sizeof(cand), "dsctl %s %s", other->name, flagname);
						suggestions_push(&s, cand);
						break;
					}
	}
	return usage_error_suggest(name, &s, "%s: %s", what, flagname);
}

static int record(ctx *c, const flag *f, const char *value)
{
	if (f->kind == FLAG_BOOL) {
		int b = 1;
		if (value && parse_bool(value, &b) < 0)
			return usage_error(
				c->cmd ? c->cmd->name : NULL,
				"invalid argument \"%s\" for \"--%s\" flag: strconv.ParseBool: parsing \"%s\": "
				"invalid syntax",
				value, f->name, value);
		value = b ? "true" : "false";
	}
	c->given[c->ngiven++] = (given){f, value};
	return EXIT_OK;
}

/* Reads argv into c->given and c->argv (the command's name dropped). */
static int read_flags(ctx *c, int argc, char **argv)
{
	size_t n = 0;
	const flag **flags = all_flags(c->cmd, &n);
	struct option *longopts = calloc(n + 1, sizeof(*longopts));
	char *shorts = calloc(2 * n + 3, 1);
	c->given = calloc((size_t)argc + 1, sizeof(*c->given));
	c->argv = calloc((size_t)argc + 1, sizeof(*c->argv));
	int rc = EXIT_OK;
	if (!flags || !longopts || !shorts || !c->given || !c->argv) {
		fprintf(stderr, "error: out of memory\n");
		rc = EXIT_ERROR;
		goto out;
	}
	/* "-": arguments in order (code 1), whatever POSIXLY_CORRECT says; ":": a missing value is ':' */
	size_t ns = 0;
	shorts[ns++] = '-';
	shorts[ns++] = ':';
	for (size_t i = 0; i < n; i++) {
		longopts[i] = (struct option){flags[i]->name,
					      flags[i]->kind == FLAG_BOOL ? optional_argument : required_argument, NULL,
					      256 + (int)i};
		if (flags[i]->letter) {
			shorts[ns++] = (char)flags[i]->letter;
			if (flags[i]->kind != FLAG_BOOL)
				shorts[ns++] = ':';
		}
	}
	opterr = 0;
	optind = 1;
	int ch, seen_command = 0;
	while ((ch = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		const char *arg = argv[optind - 1];
		if (ch == 1) {
			if (!seen_command && c->cmd && strcmp(optarg, c->cmd->name) == 0)
				seen_command = 1;
			else
				c->argv[c->argc++] = optarg;
			continue;
		}
		if (ch == '?') {
			rc = optopt ? flag_error(c->cmd, "unknown shorthand flag", arg, optopt)
				    : flag_error(c->cmd, "unknown flag", arg, 0);
			goto out;
		}
		if (ch == ':') {
			rc = optopt && optopt < 256 ? flag_error(c->cmd, "flag needs an argument", arg, optopt)
						    : flag_error(c->cmd, "flag needs an argument", arg, 0);
			goto out;
		}
		const flag *f = NULL;
		if (ch >= 256) {
			f = flags[ch - 256];
			/* the argument that named the flag: before its value when that came separately */
			const char *named = optarg && optarg == argv[optind - 1] ? argv[optind - 2] : arg;
			size_t len = strlen(f->name);
			if (strncmp(named + 2, f->name, len) != 0 ||
			    (named[2 + len] != '\0' && named[2 + len] != '=')) {
				rc = flag_error(c->cmd, "unknown flag", named, 0); /* an abbreviation */
				goto out;
			}
		} else {
			for (size_t i = 0; i < n && !f; i++)
				if (flags[i]->letter == ch)
					f = flags[i];
		}
		if ((rc = record(c, f, optarg)) != EXIT_OK)
			goto out;
	}
	while (optind < argc) /* after "--" */
		c->argv[c->argc++] = argv[optind++];
out:
	free(flags);
	free(longopts);
	free(shorts);
	return rc;
}

const char *flag_value(const ctx *c, const char *name)
{
	for (int i = c->ngiven - 1; i >= 0; i--)
		if (strcmp(c->given[i].flag->name, name) == 0)
			return c->given[i].value;
	return NULL;
}

int flag_on(const ctx *c, const char *name)
{
	const char *v = flag_value(c, name);
	return v && strcmp(v, "true") == 0;
}

const char *flag_nth(const ctx *c, const char *name, int i)
{
	for (int k = 0; k < c->ngiven; k++)
		if (strcmp(c->given[k].flag->name, name) == 0 && i-- == 0)
			return c->given[k].value;
	return NULL;
}

/* ---- the global settings ---------------------------------------------------------------------- */

/* -o: the format, and the template of jsonpath and custom-columns (read from the file of the -file
 * forms; kept until exit). */
static int read_output(ctx *c, const char *v)
{
	static const struct {
		const char *name;
		int out, wide, file;
	} forms[] = {
		{"table", OUT_TABLE, 0, 0},
		{"wide", OUT_TABLE, 1, 0},
		{"json", OUT_JSON, 0, 0},
		{"yaml", OUT_YAML, 0, 0},
		{"name", OUT_NAME, 0, 0},
		{"jsonpath", OUT_JSONPATH, 0, 0},
		{"jsonpath-file", OUT_JSONPATH, 0, 1},
		{"custom-columns", OUT_COLUMNS, 0, 0},
		{"custom-columns-file", OUT_COLUMNS, 0, 1},
		{"svg", OUT_SVG, 0, 0},
		{"sarif", OUT_SARIF, 0, 0},
	};
	const char *eq = strchr(v, '=');
	size_t len = eq ? (size_t)(eq - v) : strlen(v);
	unsigned allowed = (1u << OUT_TABLE) | (1u << OUT_JSON) | (1u << OUT_YAML) | (1u << OUT_JSONPATH) |
			   (1u << OUT_COLUMNS) | (c->cmd ? c->cmd->formats : 0);
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		if (strlen(forms[i].name) != len || strncmp(forms[i].name, v, len) != 0 ||
		    !(allowed & (1u << forms[i].out)))
			continue;
		int templated = forms[i].out == OUT_JSONPATH || forms[i].out == OUT_COLUMNS;
		if (templated != (eq != NULL))
			break;
		if (templated && !eq[1])
			return usage_error(c->cmd->name, "%s format specified but no %s given", forms[i].name,
					   forms[i].file                  ? "file"
					   : forms[i].out == OUT_JSONPATH ? "template"
									  : "custom-columns");
		c->out = forms[i].out;
		c->wide = forms[i].wide;
		c->out_arg = templated ? eq + 1 : NULL;
		if (forms[i].file) {
			size_t n;
			free(c->out_text);
			c->out_text = read_file(c, eq + 1, &n); /* freed at exit */
			c->out_arg = c->out_text;
			if (!c->out_text)
				return EXIT_ERROR;
		}
		return EXIT_OK;
	}
	/* kubectl's message, with the formats this command has */
	char list[256] = "";
	for (int f = OUT_TABLE; f <= OUT_SARIF; f++) {
		if (!(allowed & (1u << f)))
			continue;
		size_t l = strlen(list);
		snprintf(list + l, sizeof(list) - l, "%s%s", l ? "," : "", format_names[f]);
		if (f == OUT_TABLE)
			strncat(list, ",wide", sizeof(list) - strlen(list) - 1);
		else if (f == OUT_JSONPATH)
			strncat(list, ",jsonpath-file", sizeof(list) - strlen(list) - 1);
		else if (f == OUT_COLUMNS)
			strncat(list, ",custom-columns-file", sizeof(list) - strlen(list) - 1);
	}
	return usage_error(c->cmd ? c->cmd->name : NULL,
			   "unable to match a printer suitable for the output format \"%s\", allowed formats are: %s",
			   v, list);
}

/* The global flags into c's fields and options. */
static int apply_globals(ctx *c)
{
	const char *cmd = c->cmd ? c->cmd->name : NULL, *v;
	int rc;
	c->files = calloc((size_t)c->ngiven + 1, sizeof(*c->files));
	if (!c->files)
		return EXIT_ERROR;
	for (int i = 0; (v = flag_nth(c, "filename", i)) != NULL; i++)
		c->files[c->nfiles++] = v;
	c->ns = flag_value(c, "namespace");
	if (c->ns && !*c->ns)
		return usage_error(cmd, "--namespace needs a namespace");
	if ((v = flag_value(c, "output")) != NULL && (rc = read_output(c, v)) != EXIT_OK)
		return rc;
	c->no_headers = flag_on(c, "no-headers");
	c->width = terminal_width();
	c->allow_missing = !flag_value(c, "allow-missing-template-keys") || flag_on(c, "allow-missing-template-keys");
	const char *color = flag_value(c, "color");
	if (color && strcmp(color, "auto") != 0 && strcmp(color, "always") != 0 && strcmp(color, "never") != 0)
		return usage_error(cmd, "invalid argument \"%s\" for \"--color\" flag: must be auto, always or never",
				   color);
	c->color = color && strcmp(color, "always") == 0  ? 1
		   : color && strcmp(color, "never") == 0 ? 0
							  : isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	ds_error err;
	for (int i = 0; (v = flag_nth(c, "set", i)) != NULL; i++) {
		const char *eq = strchr(v, '=');
		if (!eq || eq == v)
			return usage_error(cmd, "--set needs NAME=VALUE, got \"%s\"", v);
		char name[128];
		snprintf(name, sizeof(name), "%.*s", (int)(eq - v), v);
		if (ds_options_set(c->opts, name, eq + 1, &err) < 0) {
			fail("bad --set", &err);
			return EXIT_USAGE;
		}
	}
	if ((v = flag_value(c, "validate")) != NULL) {
		/* kubectl's values: strict (true), warn, ignore (false); the option fieldValidation */
		static const char *const levels[][2] = {{"strict", "Strict"},
							{"warn", "Warn"},
							{"ignore", "Ignore"},
							{"true", "Strict"},
							{"false", "Ignore"}};
		size_t k = 0;
		while (k < 5 && strcmp(v, levels[k][0]) != 0)
			k++;
		if (k == 5)
			return usage_error(cmd,
					   "invalid - validate option \"%s\"; must be one of: strict (or true), warn, "
					   "ignore (or false)",
					   v);
		c->validate = k == 3 ? 1 : k == 4 ? 3 : (int)k + 1;
		if (ds_options_set(c->opts, "fieldValidation", levels[k][1], &err) < 0)
			return fail("bad --validate", &err);
	}
	if ((v = flag_value(c, "now")) != NULL) {
		if (ds_time_parse(v, &c->now, &err) < 0) {
			fail("bad --now", &err);
			return EXIT_USAGE;
		}
	} else {
		/* the library never reads a clock; the command line supplies one */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		c->now = (ds_time)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	}
	return EXIT_OK;
}

/* ---- help ------------------------------------------------------------------------------------- */

static void print_flags(const flag *flags, FILE *f)
{
	for (const flag *x = flags; x && x->name; x++) {
		char left[96];
		if (x->letter)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", x->letter, x->name, x->value ? " " : "",
				 x->value ? x->value : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", x->name, x->value ? " " : "",
				 x->value ? x->value : "");
		fprintf(f, "  %-34s %s\n", left, x->help);
	}
}

static void usage(FILE *f)
{
	fputs("dsctl: Kubernetes DaemonSet decisions, computed offline from cluster dumps by libdaemonset.\n\n"
	      "Commands:\n",
	      f);
	for (const command *cmd = dsctl_commands; cmd->name; cmd++)
		if (cmd->name[0] != '_')
			fprintf(f, "  %-11s %s\n", cmd->name, cmd->summary);
	fputs("\nGlobal flags (before or after the command):\n", f);
	print_flags(dsctl_global_flags, f);
	fputs("\nUsage:\n  dsctl [flags] COMMAND [ARGS] [flags]\n\n"
	      "Exit status: 0 success, 1 error, 2 usage error, 3 a check failed (validation, audit level, drain, "
	      "tests).\n"
	      "Use \"dsctl COMMAND --help\" for more information about a command.\n",
	      f);
}

void command_help(const command *cmd, FILE *f)
{
	if (!cmd) {
		usage(f);
		return;
	}
	fprintf(f, "%s.\n", cmd->summary);
	if (cmd->help)
		fprintf(f, "\n%s\n", cmd->help);
	if (cmd->examples)
		fprintf(f, "\nExamples:\n%s", cmd->examples);
	if (cmd->flags && cmd->flags->name) {
		fputs("\nFlags:\n", f);
		print_flags(cmd->flags, f);
	}
	fprintf(f, "\nUsage:\n  dsctl %s%s%s [flags]\n\n", cmd->name, cmd->args[0] ? " " : "", cmd->args);
	fputs("Global flags (-f, -n, -o, --no-headers, --now, --set, --validate, --color) are listed by \"dsctl "
	      "--help\"; see dsctl(1).\n",
	      f);
}

/* ---- kubectl's argument forms ------------------------------------------------------------------ */

static void shift_args(ctx *c)
{
	memmove(c->argv, c->argv + 1, (size_t)c->argc * sizeof(*c->argv)); /* the NULL at the end too */
	c->argc--;
}

/* rollout status|history|undo ...: kubectl's subcommands; pause, resume and restart change a live
 * DaemonSet, which a snapshot does not have. */
static int read_subcommand(ctx *c)
{
	static const char *const subs[] = {"status", "history", "undo", NULL};
	static const char *const live[] = {"pause", "resume", "restart", NULL};
	if (strcmp(c->cmd->name, "rollout") != 0 || c->argc < 1)
		return EXIT_OK;
	for (size_t i = 0; subs[i]; i++)
		if (strcmp(c->argv[0], subs[i]) == 0 && c->argc >= 2) {
			c->sub = subs[i];
			shift_args(c);
			return EXIT_OK;
		}
	for (size_t i = 0; live[i]; i++)
		if (strcmp(c->argv[0], live[i]) == 0 && c->argc >= 2)
			return usage_error(
				"rollout",
				"rollout %s changes a DaemonSet in a cluster; dsctl reads a snapshot. To see "
				"what a new template does: dsctl rollout DAEMONSET --template FILE or --image "
				"CONTAINER=IMAGE",
				live[i]);
	/* a subcommand misspelt: "rollout stauts ds/x" */
	suggestions s;
	suggestions_init(&s);
	for (size_t i = 0; subs[i] && c->argc >= 2; i++)
		suggestions_add(&s, c->argv[0], subs[i]);
	if (s.n)
		return usage_error_suggest("rollout", &s, "unknown rollout subcommand \"%s\"", c->argv[0]);
	return EXIT_OK;
}

/* kubectl's TYPE NAME form for the commands whose first argument is a DaemonSet ("explain ds x", "rollout
 * status daemonset x"): the type word goes. One word alone stays a name. */
static void drop_type_word(ctx *c)
{
	static const char *const words[] = {"ds", "daemonset", "daemonsets", "daemonset.apps", "daemonsets.apps", NULL};
	const char *args = c->cmd->args;
	int offset = strncmp(args, "image ", 6) == 0; /* set image DAEMONSET */
	if (strncmp(args + (offset ? 6 : 0), "DAEMONSET", 9) != 0 && strncmp(args, "[DAEMONSET]", 11) != 0 &&
	    strncmp(args, "[status|history|undo] DAEMONSET", 31) != 0)
		return;
	if (c->argc < offset + 2)
		return;
	for (size_t i = 0; words[i]; i++)
		if (strcmp(c->argv[offset], words[i]) == 0) {
			memmove(c->argv + offset, c->argv + offset + 1, (size_t)(c->argc - offset) * sizeof(*c->argv));
			c->argc--;
			return;
		}
}

/* ---- all of it -------------------------------------------------------------------------------- */

int parse_command_line(ctx *c, int argc, char **argv, int *done)
{
	*done = 0;
	const char *name = find_command(argc, argv);
	c->cmd = command_named(name);
	int rc = read_flags(c, argc, argv);
	if (rc != EXIT_OK)
		return rc;
	if (!c->cmd) {
		if (name) {
			*done = 1;
			return unknown_command(name);
		}
		usage(flag_on(c, "help") ? stdout : stderr);
		*done = 1;
		return flag_on(c, "help") ? EXIT_OK : EXIT_USAGE;
	}
	if (flag_on(c, "help")) {
		command_help(c->cmd, stdout);
		*done = 1;
		return EXIT_OK;
	}
	if ((rc = apply_globals(c)) != EXIT_OK)
		return rc;
	if ((rc = read_subcommand(c)) != EXIT_OK)
		return rc;
	drop_type_word(c);
	if (c->argc < c->cmd->min_args || (c->cmd->max_args >= 0 && c->argc > c->cmd->max_args)) {
		if (c->cmd->max_args >= 0 && c->argc > c->cmd->max_args)
			return usage_error(c->cmd->name, "unexpected argument \"%s\": usage: dsctl %s %s",
					   c->argv[c->cmd->max_args], c->cmd->name, c->cmd->args);
		return usage_error(c->cmd->name, "%s needs %s", c->cmd->name, c->cmd->args);
	}
	return EXIT_OK;
}

int cmd_help(ctx *c)
{
	if (c->argc == 0) {
		command_help(NULL, stdout);
		return EXIT_OK;
	}
	const command *cmd = command_named(c->argv[0]);
	if (!cmd || cmd->name[0] == '_')
		return unknown_command(c->argv[0]);
	command_help(cmd, stdout);
	return EXIT_OK;
}
