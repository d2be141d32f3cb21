/*
 * jsonpathecho: a JSON document on standard input, printed through dsctl's JSONPath engine
 * (examples/dsctl/jsonpath.c) or its custom columns (examples/dsctl/columns.c). For tests/python/test_jsonpath.py.
 *
 *   jsonpathecho [--allow-missing-template-keys=false] TEMPLATE
 *   jsonpathecho --columns SPEC [--no-headers]         (the document: the array of rows, or one row)
 *   jsonpathecho --columns-file FILE [--no-headers]
 *
 * Errors go to standard error worded as kubectl words them, with exit status 1; a bad command line is 2.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../examples/dsctl/columns.h"
#include "../../examples/dsctl/jsonpath.h"

static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap + 1);
	while (b) {
		n += fread(b + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *nb = realloc(b, cap * 2 + 1);
		if (!nb) {
			free(b);
			return NULL;
		}
		b = nb;
		cap *= 2;
	}
	if (!b || ferror(f)) {
		free(b);
		return NULL;
	}
	b[n] = 0;
	*len = n;
	return b;
}

static int usage(void)
{
	fprintf(stderr, "usage: jsonpathecho [--allow-missing-template-keys=false] TEMPLATE < doc.json\n"
			"       jsonpathecho (--columns SPEC | --columns-file FILE) [--no-headers] < rows.json\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *tmpl = NULL, *spec = NULL, *specfile = NULL;
	int allow_missing = 1, headers = 1;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--allow-missing-template-keys=false") == 0)
			allow_missing = 0;
		else if (strcmp(argv[i], "--allow-missing-template-keys=true") == 0)
			allow_missing = 1;
		else if (strcmp(argv[i], "--no-headers") == 0)
			headers = 0;
		else if (strcmp(argv[i], "--columns") == 0 && i + 1 < argc)
			spec = argv[++i];
		else if (strcmp(argv[i], "--columns-file") == 0 && i + 1 < argc)
			specfile = argv[++i];
		else if (strcmp(argv[i], "--") == 0 && i + 2 == argc && !tmpl)
			tmpl = argv[++i];
		else if (!tmpl && strncmp(argv[i], "--", 2) != 0)
			tmpl = argv[i];
		else
			return usage();
	}
	if (!!tmpl + !!spec + !!specfile != 1)
		return usage();

	size_t len = 0;
	char *text = slurp(stdin, &len);
	if (!text) {
		fprintf(stderr, "jsonpathecho: cannot read standard input\n");
		return 1;
	}
	json_error_t je;
	json_t *doc = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	free(text);
	if (!doc) {
		fprintf(stderr, "jsonpathecho: line %d: %s\n", je.line, je.text);
		return 1;
	}

	char err[1024];
	int rc = 0;
	if (tmpl) {
		jsonpath *p = jsonpath_parse(tmpl, err, sizeof err);
		if (!p) {
			fprintf(stderr, "error: error parsing jsonpath %s, %s\n", tmpl, err);
			rc = 1;
		} else if (jsonpath_execute(p, doc, allow_missing, stdout, err, sizeof err)) {
			fprintf(stderr, "error: error executing jsonpath \"%s\": Error executing template: %s\n", tmpl,
				err);
			rc = 1;
		}
		jsonpath_free(p);
	} else {
		columns *c = NULL;
		if (spec)
			c = columns_parse(spec, err, sizeof err);
		else {
			FILE *f = fopen(specfile, "r");
			char *t = f ? slurp(f, &len) : NULL;
			if (f)
				fclose(f);
			if (!t)
				snprintf(err, sizeof err, "error reading %s", specfile);
			else
				c = columns_parse_file(t, err, sizeof err);
			free(t);
		}
		if (!c || columns_print(c, doc, headers, stdout, err, sizeof err)) {
			fprintf(stderr, "error: %s\n", err);
			rc = 1;
		}
		columns_free(c);
	}
	json_decref(doc);
	if (fflush(stdout) != 0)
		rc = 1;
	return rc;
}
