/*
 * dsctl -o custom-columns=SPEC and -o custom-columns-file=FILE: kubectl's custom columns
 * (k8s.io/kubectl/pkg/cmd/get/customcolumn.go), each cell a JSONPath (jsonpath.h), aligned as kubectl's
 * tabwriter aligns them. See columns.c.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DSCTL_COLUMNS_H
#define DSCTL_COLUMNS_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

typedef struct columns columns;

/* "NAME:.metadata.name,IMAGE:.spec.template.spec.containers[*].image": comma-separated HEADER:PATH pairs, a
 * path written .a.b, a.b, {.a.b} or {a.b}. NULL with kubectl's message in err (size errsz) when the spec is
 * empty, a pair has no ":", a path has braces inside, or a path does not parse. */
columns *columns_parse(const char *spec, char *err, size_t errsz);

/* The file form: the first line the headers, the second the paths, both separated by white space; the rest
 * of the text is ignored. NULL with kubectl's message in err when a line is missing or the counts differ. */
columns *columns_parse_file(const char *text, char *err, size_t errsz);

/* Write the table of rows to out: rows is the array of rows (an object or any other value is one row; NULL
 * none); headers 0 is kubectl's --no-headers. A cell lists the values its path finds joined by ",", or
 * "<none>"; columns are padded to their widest cell plus 3 spaces (at least 6 wide), the last one is not.
 * Nothing is written when a path fails. Returns 0, or -1 with a message in err. */
int columns_print(const columns *c, const json_t *rows, int headers, FILE *out, char *err, size_t errsz);

void columns_free(columns *c);

#endif
