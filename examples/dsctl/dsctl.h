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
enum { OUT_TABLE, OUT_JSON, OUT_YAML };

typedef struct ctx {
	const char **files; /* -f paths ("-" is stdin) */
	int nfiles;
	const char *ns;     /* -n */
	int out;            /* OUT_* */
	int wide;           /* -o wide: a table with more detail (rollout: per-node times) */
	int color;          /* ANSI colours on stdout */
	ds_time now;        /* --now, else the clock */
	ds_options *opts;   /* --set name=value */
	ds_cluster *cluster;
	int argc;           /* the command's own arguments */
	char **argv;
} ctx;

typedef struct command {
	const char *name;
	const char *args;    /* usage after the name */
	const char *summary; /* one line */
	const char *help;    /* longer text, may be NULL */
	int needs_cluster;
	int (*run)(ctx *c);
} command;

extern const command dsctl_commands[];

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
int cmd_test(ctx *c);
int cmd_validate(ctx *c);
int cmd_defaults(ctx *c);
int cmd_cordon(ctx *c);
int cmd_uncordon(ctx *c);
int cmd_drain(ctx *c);
int cmd_upgrade(ctx *c);

/* Report a library error and return EXIT_ERROR. */
int fail(const char *what, const ds_error *err);
int usage_error(const char *cmd, const char *fmt, ...);
/* Load every -f input into c->cluster (progress on stderr for slow loads). */
int load_inputs(ctx *c);
/* Resolve "ns/name" or "name" (with -n, or unique across namespaces) to a DaemonSet. */
int resolve_ds(ctx *c, const char *arg, char *ns, size_t nsz, char *name, size_t nmsz);
/* A command whose first argument names a DaemonSet: it takes min to max arguments (else the usage error
 * `need`), and the first is resolved into ns and name as resolve_ds does. */
#define DSCTL_NAME_MAX 256
int command_ds(ctx *c, const char *cmd, int min, int max, const char *need, char ns[DSCTL_NAME_MAX],
	       char name[DSCTL_NAME_MAX]);
/* Parse a library JSON result (takes ownership of text, frees it with ds_free). */
json_t *take_json(char *text);

/* Output */
void print_json(const json_t *v);
void print_yaml(const json_t *v);
/* Print v as JSON or YAML when -o says so; returns 1 if it did. */
int print_structured(const ctx *c, const json_t *v);
typedef struct table table;
table *table_new(int ncols, ...);
void table_row(table *t, ...);
void table_print(table *t, const ctx *c);
const char *colour(const ctx *c, const char *what); /* "ok", "warn", "bad", "dim", "bold", "reset" */
void heading(const ctx *c, const char *text);

#endif
