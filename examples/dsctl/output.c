/* Tables like kubectl's, JSON, YAML, and kubectl's templates (jsonpath, custom-columns). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "columns.h"
#include "dsctl.h"
#include "jsonpath.h"
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

/* -o jsonpath=... over the whole result, -o custom-columns=... over the command's rows. */
static int print_template(const ctx *c, const json_t *v)
{
	char err[512];
	int rc = -1;
	if (c->out == OUT_JSONPATH) {
		jsonpath *p = jsonpath_parse(c->out_arg, err, sizeof(err));
		if (p)
			rc = jsonpath_execute(p, v, c->allow_missing, stdout, err, sizeof(err));
		jsonpath_free(p);
	} else {
		const char *file = strstr(flag_value(c, "output"), "-file=");
		columns *cols = file ? columns_parse_file(c->out_arg, err, sizeof(err))
				     : columns_parse(c->out_arg, err, sizeof(err));
		const json_t *rows = c->cmd->rows ? json_object_get(v, c->cmd->rows) : v;
		if (cols)
			rc = columns_print(cols, rows ? rows : json_array(), !c->no_headers, stdout, err, sizeof(err));
		columns_free(cols);
	}
	if (rc < 0)
		fprintf(stderr, "error: %s\n", err);
	return rc < 0 ? -1 : 1;
}

int print_structured(const ctx *c, const json_t *v)
{
	switch (c->out) {
	case OUT_JSON: print_json(v); return 1;
	case OUT_YAML: print_yaml(v); return 1;
	case OUT_JSONPATH:
	case OUT_COLUMNS: return print_template(c, v);
	default: return 0;
	}
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

char *join_list(const json_t *arr, const char *k, const char *sep, size_t max)
{
	size_t n = json_array_size(arr), shown = max && n > max ? max : n, len = 32, i;
	json_t *x;
	json_array_foreach(arr, i, x)
	{
		const char *s = k ? json_string_value(json_object_get(x, k)) : json_string_value(x);
		len += (s ? strlen(s) : 0) + strlen(sep);
	}
	char *buf = malloc(len);
	if (!buf)
		return NULL;
	size_t l = 0;
	buf[0] = '\0';
	for (i = 0; i < shown; i++) {
		x = json_array_get(arr, i);
		const char *s = k ? json_string_value(json_object_get(x, k)) : json_string_value(x);
		l += (size_t)snprintf(buf + l, len - l, "%s%s", i ? sep : "", s ? s : "");
	}
	if (shown < n)
		snprintf(buf + l, len - l, "%s(+%zu more)", shown ? " " : "", n - shown);
	return buf;
}

struct table {
	int ncols;
	char **cells; /* row-major, first row the header */
	size_t nrows, cap;
};

table *table_new(int ncols, ...)
{
	table *t = calloc(1, sizeof(*t));
	if (!t)
		abort();
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
		char **cells = realloc(t->cells, t->cap * (size_t)t->ncols * sizeof(char *));
		if (!cells)
			abort();
		t->cells = cells;
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

/* Column widths count characters, not bytes, so that UTF-8 text aligns, and not the colour codes
 * (ESC [ ... m), which take no room on the screen. */
static size_t width(const char *s)
{
	size_t n = 0;
	while (*s) {
		if (*s == '\033' && s[1] == '[') {
			s += 2;
			while (*s && *s != 'm')
				s++;
			if (*s)
				s++;
			continue;
		}
		n += ((unsigned char)*s & 0xC0) != 0x80;
		s++;
	}
	return n;
}

/* The terminal's width when stdout is one (else COLUMNS when set), 0: do not wrap. */
static size_t terminal_width(void)
{
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	const char *cols = getenv("COLUMNS");
	long n = cols ? strtol(cols, NULL, 10) : 0;
	return n > 0 ? (size_t)n : 0;
}

/* Print s in lines of at most room characters, broken after a blank or a comma where it can be,
 * each line after the first indented by indent. */
static void print_wrapped(const char *s, size_t room, size_t indent)
{
	while (width(s) > room) {
		size_t cut = 0, chars = 0, i = 0;
		for (; s[i] && chars < room; i++) {
			if (((unsigned char)s[i] & 0xC0) != 0x80)
				chars++;
			if (s[i] == ' ' || s[i] == ',')
				cut = i + 1;
		}
		if (!cut) /* one word longer than the room: cut it, between characters */
			while (((unsigned char)s[i] & 0xC0) == 0x80)
				i++;
		size_t end = cut ? cut : i;
		size_t shown = end;
		while (shown > 0 && s[shown - 1] == ' ')
			shown--;
		printf("%.*s\n%*s", (int)shown, s, (int)indent, "");
		s += end;
		while (*s == ' ')
			s++;
	}
	fputs(s, stdout);
}

void table_print(table *t, const ctx *c)
{
	size_t *w = calloc((size_t)t->ncols, sizeof(size_t));
	if (!w)
		abort();
	for (size_t r = c->no_headers ? 1 : 0; r < t->nrows; r++)
		for (int i = 0; i < t->ncols; i++) {
			size_t l = width(t->cells[r * (size_t)t->ncols + (size_t)i]);
			if (l > w[i])
				w[i] = l;
		}
	size_t term = terminal_width(), start = 0;
	for (int i = 0; i + 1 < t->ncols; i++)
		start += w[i] + 3;
	/* wrap the last column when the terminal leaves it a useful width */
	size_t room = term && start + 24 <= term ? term - start : 0;
	for (size_t r = c->no_headers ? 1 : 0; r < t->nrows; r++) {
		if (r == 0)
			fputs(colour(c, "bold"), stdout);
		/* no padding after the last non-empty cell: lines end without blanks */
		int last = t->ncols - 1;
		while (last > 0 && !*t->cells[r * (size_t)t->ncols + (size_t)last])
			last--;
		for (int i = 0; i <= last; i++) {
			const char *s = t->cells[r * (size_t)t->ncols + (size_t)i];
			if (i < last)
				printf("%s%*s", s, (int)(w[i] - width(s) + 3), "");
			else if (i == t->ncols - 1 && room && !strchr(s, '\033'))
				print_wrapped(s, room, start);
			else
				fputs(s, stdout);
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
