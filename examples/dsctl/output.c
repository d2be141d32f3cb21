/* Tables like kubectl's, JSON, and YAML for -o yaml. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"
#include "yamlout.h"

void print_json(const json_t *v)
{
	char *s = json_dumps(v, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (s) {
		puts(s);
		free(s);
	}
}

/* Through libyaml, quoted as kubectl quotes (yamlout.c). */
void print_yaml(const json_t *v) { yamlout_write(stdout, v); }

int print_structured(const ctx *c, const json_t *v)
{
	if (c->out == OUT_JSON)
		print_json(v);
	else if (c->out == OUT_YAML)
		print_yaml(v);
	else
		return 0;
	return 1;
}

const char *colour(const ctx *c, const char *what)
{
	if (!c->color)
		return "";
	if (strcmp(what, "ok") == 0)
		return "\033[32m";
	if (strcmp(what, "warn") == 0)
		return "\033[33m";
	if (strcmp(what, "bad") == 0)
		return "\033[31m";
	if (strcmp(what, "dim") == 0)
		return "\033[2m";
	if (strcmp(what, "bold") == 0)
		return "\033[1m";
	return "\033[0m";
}

void heading(const ctx *c, const char *text) { printf("%s%s%s\n", colour(c, "bold"), text, colour(c, "reset")); }

struct table {
	int ncols;
	char **cells; /* row-major, first row the header */
	size_t nrows, cap;
};

table *table_new(int ncols, ...)
{
	table *t = calloc(1, sizeof(*t));
	t->ncols = ncols;
	va_list ap;
	va_start(ap, ncols);
	t->cap = 16;
	t->cells = calloc(t->cap * (size_t)ncols, sizeof(char *));
	for (int i = 0; i < ncols; i++)
		t->cells[i] = strdup(va_arg(ap, const char *));
	va_end(ap);
	t->nrows = 1;
	return t;
}

void table_row(table *t, ...)
{
	if (t->nrows == t->cap) {
		t->cap *= 2;
		t->cells = realloc(t->cells, t->cap * (size_t)t->ncols * sizeof(char *));
	}
	va_list ap;
	va_start(ap, t);
	for (int i = 0; i < t->ncols; i++) {
		const char *s = va_arg(ap, const char *);
		t->cells[t->nrows * (size_t)t->ncols + (size_t)i] = strdup(s ? s : "");
	}
	va_end(ap);
	t->nrows++;
}

/* Column widths count characters, not bytes, so that UTF-8 text aligns. */
static size_t width(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

void table_print(table *t, const ctx *c)
{
	size_t *w = calloc((size_t)t->ncols, sizeof(size_t));
	for (size_t r = 0; r < t->nrows; r++)
		for (int i = 0; i < t->ncols; i++) {
			size_t l = width(t->cells[r * (size_t)t->ncols + (size_t)i]);
			if (l > w[i])
				w[i] = l;
		}
	for (size_t r = 0; r < t->nrows; r++) {
		if (r == 0)
			fputs(colour(c, "bold"), stdout);
		/* no padding after the last non-empty cell: lines end without blanks */
		int last = t->ncols - 1;
		while (last > 0 && !*t->cells[r * (size_t)t->ncols + (size_t)last])
			last--;
		for (int i = 0; i <= last; i++) {
			const char *s = t->cells[r * (size_t)t->ncols + (size_t)i];
			if (i == last)
				fputs(s, stdout);
			else
				printf("%s%*s", s, (int)(w[i] - width(s) + 3), "");
		}
		if (r == 0)
			fputs(colour(c, "reset"), stdout);
		fputc('\n', stdout);
	}
	for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(w);
	free(t);
}
