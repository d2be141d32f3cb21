/*
 * yamlecho: JSON values in, YAML out, written by dsctl's emitter (examples/dsctl/yamlout.c) exactly as
 * dsctl -o yaml writes them. One JSON value per input line; the YAML documents are separated by "---"
 * lines, as dsctl separates several documents. For tests/python/test_yaml_roundtrip.py.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../examples/dsctl/yamlout.h"

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int first = 1, rc = 0, lineno = 0;
	while (rc == 0 && (n = getline(&line, &cap, stdin)) >= 0) {
		lineno++;
		if (n == 0 || (n == 1 && line[0] == '\n'))
			continue;
		json_error_t je;
		json_t *v = json_loadb(line, (size_t)n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
		if (!v) {
			fprintf(stderr, "yamlecho: line %d: %s\n", lineno, je.text);
			rc = 1;
			break;
		}
		if (!first)
			puts("---");
		first = 0;
		fflush(stdout);
		if (yamlout_write(stdout, v) < 0)
			rc = 1;
		json_decref(v);
	}
	free(line);
	return rc;
}
