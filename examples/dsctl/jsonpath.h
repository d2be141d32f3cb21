/*
 * dsctl -o jsonpath=TEMPLATE: kubectl's JSONPath templates (k8s.io/client-go/util/jsonpath) over a jansson
 * document, printed as kubectl prints them. The grammar and what is left out: see jsonpath.c.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DSCTL_JSONPATH_H
#define DSCTL_JSONPATH_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

typedef struct jsonpath jsonpath;

/* Parse a template. NULL on a syntax error, with client-go's message and where it is in err (size errsz),
 * e.g. "unclosed action (at character 7)"; kubectl prints "error parsing jsonpath TEMPLATE, MESSAGE". NULL
 * with "out of memory" when allocation fails. */
jsonpath *jsonpath_parse(const char *template_, char *err, size_t errsz);

/* Execute p against doc and write the text to out. allow_missing is kubectl's --allow-missing-template-keys
 * (kubectl's default is 1: a missing field prints nothing; 0: it is an error). Nothing is written unless the
 * whole template succeeds. Returns 0, or -1 with client-go's message in err (e.g. "spec is not found");
 * kubectl prints it as "error executing jsonpath \"TEMPLATE\": Error executing template: MESSAGE. ...". */
int jsonpath_execute(const jsonpath *p, const json_t *doc, int allow_missing, FILE *out, char *err, size_t errsz);

/* One custom-columns cell as kubectl fills it: p run on row with missing keys allowed, each value as Go's
 * fmt.Sprint prints it (maps as map[k:v], lists as [a b], null as <nil>), ESC and CR made visible, the values
 * joined by ","; "<none>" first when the first expression finds nothing. *cell is malloc'd and NUL-terminated
 * (it may hold NUL bytes: *len is its length). Returns 0, or -1 with a message in err. */
int jsonpath_cell(const jsonpath *p, const json_t *row, char **cell, size_t *len, char *err, size_t errsz);

void jsonpath_free(jsonpath *p);

#endif
