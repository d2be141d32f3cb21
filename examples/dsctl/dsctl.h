/*
 * dsctl: a command-line front end to libdaemonset, built only on the public
 * API (like libgit2's examples). Shared pieces of the commands.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DSCTL_H
#define DSCTL_H

#include <jansson.h>
#include <stdio.h>

#include "daemonset.h"

enum { EXIT_OK = 0, EXIT_ERROR = 1, EXIT_USAGE = 2, EXIT_CHECK = 3 };

/* -o: the table (OUT_TABLE, also -o wide), a document, or kubectl's templates over the document. */
enum { OUT_TABLE, OUT_JSON, OUT_YAML, OUT_JSONPATH, OUT_COLUMNS, OUT_NAME, OUT_SVG, OUT_SARIF };

/* A flag of the command line, as pflag has them: FLAG_BOOL takes --x, --x=true or --x=false;
 * FLAG_VALUE takes --x V, --x=V (and -l V, -lV for a letter); FLAG_LIST is a FLAG_VALUE that may
 * be repeated (each value kept). */
enum { FLAG_BOOL, FLAG_VALUE, FLAG_LIST };

typedef struct flag {
	const char *name;  /* without the dashes */
	int letter;        /* the one-letter form, 0: none */
	int kind;          /* FLAG_* */
	const char *value; /* the value's name in help: "SELECTOR" */
	const char *help;
} flag;

struct command;

typedef struct given {
	const flag *flag;
	const char *value; /* FLAG_BOOL: "true" or "false" */
} given;

typedef struct ctx {
	const struct command *cmd;
	const char **files; /* -f paths ("-" is stdin) */
	int nfiles;
	const char *ns;      /* -n */
	int out;             /* OUT_* */
	const char *out_arg; /* the template of -o jsonpath=, custom-columns= (or the file's text) */
	int wide;            /* -o wide: a table with more detail */
	int no_headers;      /* --no-headers */
	int allow_missing;   /* --allow-missing-template-keys (default true) */
	int color;           /* ANSI colours on stdout */
	int validate;        /* --validate given: 0 no, else 1 + the level's index in "strict, warn, ignore" */
	ds_time now;         /* --now, else the clock */
	ds_options *opts;    /* --set name=value */
	ds_cluster *cluster;
	given *given; /* the command's flags as given, in order */
	int ngiven;
	int argc; /* the command's arguments (flags taken out) */
	char **argv;
} ctx;

typedef struct command {
	const char *name;
	const char *args;       /* usage after the name */
	const char *summary;    /* one line */
	const char *help;       /* longer text, may be NULL */
	const char *examples;   /* "  # what\n  dsctl ...\n" lines, may be NULL */
	const flag *flags;      /* the command's own flags, ended by {NULL}; NULL: none */
	int min_args, max_args; /* positional arguments; max -1: any number */
	unsigned formats;       /* the -o formats beyond table, json and yaml: 1 << OUT_* */
	const char *rows;       /* the member of the JSON result holding the rows custom-columns prints
				 * (NULL: the result is one row) */
	int needs_cluster;
	int (*run)(ctx *c);
} command;

extern const command dsctl_commands[];
extern const flag dsctl_global_flags[];

/* The commands (cmd_*.c). */
int cmd_version(ctx *c);
int cmd_get(ctx *c);
int cmd_explain(ctx *c);
int cmd_fit(ctx *c);
int cmd_plan(ctx *c);
int cmd_status(ctx *c);
int cmd_pod(ctx *c);
int cmd_history(ctx *c);
int cmd_rollback(ctx *c);
int cmd_audit(ctx *c);
int cmd_demo(ctx *c);
int cmd_rollout(ctx *c);
int cmd_set(ctx *c);
int cmd_test(ctx *c);
int cmd_validate(ctx *c);
int cmd_defaults(ctx *c);
int cmd_cordon(ctx *c);
int cmd_uncordon(ctx *c);
int cmd_drain(ctx *c);
int cmd_upgrade(ctx *c);
int cmd_completion(ctx *c);
int cmd_complete(ctx *c); /* __complete: the candidates the completion scripts offer */
int cmd_help(ctx *c);

/* ---- the command line (args.c) ---------------------------------------------------------------- */

/* Parse argv into c: the command, its flags and arguments, the global settings. Returns EXIT_OK,
 * or an exit status after a message (help printed: *done set and EXIT_OK). */
int parse_command_line(ctx *c, int argc, char **argv, int *done);
/* The value of the command's flag name as last given (FLAG_BOOL: "true"/"false"), NULL if absent. */
const char *flag_value(const ctx *c, const char *name);
/* A FLAG_BOOL flag: 1 if given true. */
int flag_on(const ctx *c, const char *name);
/* The i-th value of a FLAG_LIST flag (NULL past the end). */
const char *flag_nth(const ctx *c, const char *name, int i);
/* The help of a command, as kubectl lays it out; dsctl's own with cmd NULL. */
void command_help(const command *cmd, FILE *f);

/* ---- shared helpers (main.c) ------------------------------------------------------------------ */

/* Report a library error and return EXIT_ERROR. */
int fail(const char *what, const ds_error *err);
/* "error: ..." and where to find help; returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...);
/* Load every -f input into c->cluster (progress on stderr for slow loads). */
int load_inputs(ctx *c);
/* Read a file ("-": standard input) whole; NULL after a message. */
char *read_file(const char *path, size_t *len);
/* Resolve "ns/name", "ds/name" (daemonset[s][.apps]/) or "name" (with -n, or unique across
 * namespaces) to a DaemonSet. */
#define DSCTL_NAME_MAX 256
int resolve_ds(ctx *c, const char *arg, char ns[DSCTL_NAME_MAX], char name[DSCTL_NAME_MAX]);
/* A node argument: "NAME" or "node/NAME" (no/, nodes/). */
const char *node_arg(const char *arg);
/* The nodes the command's arguments and -l select (kubectl drain's rules: names or a selector,
 * not both; none: every node when all_if_none, else a usage error). *names is malloc'ed, its
 * strings belong to argv or the snapshot. */
int select_nodes(ctx *c, int first_arg, int all_if_none, const char ***names, size_t *n);
/* Whether node has the labels -l asks for (always 1 without -l). */
int node_selected(ctx *c, const char *node);
/* The command's first argument as a DaemonSet, after the edits of --image, --template and
 * --strategy are made to the snapshot (edit.c). */
int command_ds(ctx *c, char ns[DSCTL_NAME_MAX], char name[DSCTL_NAME_MAX]);
/* Apply --image, --template and --strategy to ns/name in the snapshot (edit.c). */
int apply_edits(ctx *c, const char *ns, const char *name);
/* Parse a library JSON result (takes ownership of text, frees it with ds_free). */
json_t *take_json(char *text);

/* ---- output (output.c) ------------------------------------------------------------------------ */

void print_json(const json_t *v);
void print_yaml(const json_t *v);
/* Print v in the format -o names when it is not the table (JSON, YAML, jsonpath, custom-columns of
 * the command's rows); returns 1 if it did, -1 (after a message, exit status 1) if the template
 * failed, 0 for the table. */
int print_structured(const ctx *c, const json_t *v);
typedef struct table table;
table *table_new(int ncols, ...);
void table_row(table *t, ...);
/* Print and free t: columns padded to their widest cell (colour codes not counted), the header
 * unless --no-headers, a last column too long for the terminal wrapped under itself. */
void table_print(table *t, const ctx *c);
const char *colour(const ctx *c, const char *what); /* "ok", "warn", "bad", "dim", "bold", "reset" */
void heading(const ctx *c, const char *text);
/* The strings of arr (or of member k of its objects) joined with sep; when more than max (0: no
 * limit), the first max and "(+N more)". Returns a malloc'ed string. */
char *join_list(const json_t *arr, const char *k, const char *sep, size_t max);

#endif
