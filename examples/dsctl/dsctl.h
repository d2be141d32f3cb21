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
	char *out_text;      /* the text of -o jsonpath-file= or custom-columns-file= (owned) */
	size_t width;        /* the terminal's width for tables and their notes (COLUMNS, else the tty's); 0: none */
	int validate;        /* --validate given: 0 no, else 1 + the level's index in "strict, warn, ignore" */
	ds_time now;         /* --now, else the clock */
	ds_options *opts;    /* --set name=value */
	ds_cluster *cluster;
	char *stdin_text; /* standard input as loaded, kept for get's objects (owned) */
	size_t stdin_len;
	given *given; /* the command's flags as given, in order */
	int ngiven;
	const char *sub; /* rollout's subcommand (status, history, undo), taken out of argv */
	int argc;        /* the command's arguments (flags taken out) */
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
	const char *suggest_for; /* other words that suggest this command, blank-separated (cobra's SuggestFor) */
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
int cmd_rollout_status(ctx *c);  /* rollout status DAEMONSET */
int cmd_rollout_history(ctx *c); /* rollout history DAEMONSET */
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
/* Read a file ("-": standard input) whole, at most the option maxDocumentBytes of c's options (read in
 * pieces: a larger input stops being read at the limit); NULL after a message. */
char *read_file(const ctx *c, const char *path, size_t *len);
/* "FILE" (or "<stdin>" for "-") into err->source when the library did not name one, so that a syntax
 * error says where it is; a document number the library gave stays after it ("FILE, document 2"). */
void name_source(ds_error *err, const char *file);
/* An object the loaded inputs do not have, in kubectl's words but not "from server" (there is none):
 * 'error: daemonsets.apps "x" not found', then the loaded names close to it. kind: "DaemonSet" or
 * "Node" (ns NULL: any namespace). Returns EXIT_ERROR. */
int not_found(ctx *c, const char *kind, const char *ns, const char *name);
/* Whether node is in the snapshot (a node argument is checked before anything is computed for it). */
int node_exists(ctx *c, const char *node);
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

/* ---- "did you mean" (suggest.c) --------------------------------------------------------------- */

#define DSCTL_SUGGESTIONS 8
typedef struct suggestions {
	char *items[DSCTL_SUGGESTIONS];
	size_t n, more;
} suggestions;
/* cobra's rule (SuggestionsFor): Levenshtein distance at most 2 ignoring case, or a prefix. */
int suggestion_matches(const char *typed, const char *candidate);
void suggestions_init(suggestions *s);
/* Keep candidate (each once, the first DSCTL_SUGGESTIONS; the rest counted). */
void suggestions_push(suggestions *s, const char *candidate);
/* Keep candidate when it matches typed. */
void suggestions_add(suggestions *s, const char *typed, const char *candidate);
/* "\nDid you mean this?\n\tX\n..." when there are any; frees them. */
void suggestions_print(suggestions *s, FILE *f);
/* usage_error with suggestions printed between the error and the pointer to --help. */
int usage_error_suggest(const char *cmd, suggestions *s, const char *fmt, ...);

/* ---- get (cmd_get.c) -------------------------------------------------------------------------- */

/* The kinds get knows by kubectl's names; NULL when name is none of them. */
typedef struct resource_type resource_type;
const resource_type *resource_type_named(const char *name);
/* Suggestions for a resource type name that is not one. */
void suggest_resource_types(suggestions *s, const char *typed);

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
/* The terminal's width: COLUMNS when set to a number, else the width of the terminal on standard
 * output, else 0 (no limit). */
size_t terminal_width(void);
/* printf for the lines around a table: in table output with a width, each line that is too long is
 * broken between words, its continuations indented under its text and hang columns further. */
void say(const ctx *c, size_t hang, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void heading(const ctx *c, const char *text);
/* The strings of arr (or of member k of its objects) joined with sep; when more than max (0: no
 * limit), the first max and "(+N more)". Returns a malloc'ed string. */
char *join_list(const json_t *arr, const char *k, const char *sep, size_t max);

#endif
