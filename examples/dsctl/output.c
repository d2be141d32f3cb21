/* Tables like kubectl's, JSON and a small YAML emitter for -o yaml. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"

void print_json(const json_t *v)
{
	char *s = json_dumps(v, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (s) {
		puts(s);
		free(s);
	}
}

/* Does a string need quotes in YAML (so that it reads back as the same string)? */
static int yaml_needs_quotes(const char *s)
{
	static const char *const special[] = {"",     "~",    "null", "Null", "NULL", "true", "True",  "TRUE",  "false",
					      "False", "FALSE", "yes",  "Yes",  "YES",  "no",   "No",    "NO",    "on",
					      "On",   "ON",   "off",  "Off",  "OFF",  "y",    "Y",     "n",     "N",
					      NULL};
	for (int i = 0; special[i]; i++)
		if (strcmp(s, special[i]) == 0)
			return 1;
	if (strchr("-?:,[]{}#&*!|>'\"%@` \t", s[0]) || s[strlen(s) - 1] == ' ')
		return 1;
	if (strstr(s, ": ") || strstr(s, " #") || strchr(s, '\n') || strchr(s, '\t'))
		return 1;
	/* anything YAML 1.1 would read as a number or a date */
	char *end;
	strtod(s, &end);
	if (*end == '\0')
		return 1;
	size_t n = strlen(s), digits = 0;
	for (size_t i = 0; i < n; i++)
		digits += (s[i] >= '0' && s[i] <= '9') || s[i] == '_';
	if (digits == n || (n > 2 && s[0] == '0' && strchr("xXoObB", s[1])))
		return 1;
	if (n >= 10 && s[4] == '-' && s[7] == '-' && s[0] >= '0' && s[0] <= '9')
		return 1;
	return 0;
}

static void yaml_scalar(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING: {
		const char *s = json_string_value(v);
		if (!yaml_needs_quotes(s)) {
			fputs(s, stdout);
			break;
		}
		char *q = json_dumps(v, JSON_ENCODE_ANY); /* a JSON string is a valid YAML double-quoted scalar */
		fputs(q, stdout);
		free(q);
		break;
	}
	case JSON_INTEGER: printf("%lld", (long long)json_integer_value(v)); break;
	case JSON_REAL: printf("%.17g", json_real_value(v)); break;
	case JSON_TRUE: fputs("true", stdout); break;
	case JSON_FALSE: fputs("false", stdout); break;
	default: fputs("null", stdout); break;
	}
}

static int is_container(const json_t *v)
{
	return (json_is_object(v) && json_object_size(v)) || (json_is_array(v) && json_array_size(v));
}

/* A value that fits on its line (an empty object or array, or a scalar), and the line's end. */
static void yaml_inline(const json_t *v)
{
	if (json_is_object(v))
		fputs("{}", stdout);
	else if (json_is_array(v))
		fputs("[]", stdout);
	else
		yaml_scalar(v);
	fputc('\n', stdout);
}

static void yaml_value(const json_t *v, int indent);

static void yaml_object(const json_t *v, int indent, int first_inline)
{
	const char **keys = malloc(json_object_size(v) * sizeof(*keys));
	size_t n = 0;
	const char *k;
	json_t *x;
	json_object_foreach((json_t *)v, k, x) keys[n++] = k;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
			const char *t = keys[j];
			keys[j] = keys[j - 1];
			keys[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		if (!(first_inline && i == 0))
			printf("%*s", indent, "");
		json_t *kv = json_string(keys[i]);
		yaml_scalar(kv);
		json_decref(kv);
		x = json_object_get(v, keys[i]);
		if (is_container(x)) {
			fputs(":\n", stdout);
			yaml_value(x, json_is_array(x) ? indent : indent + 2);
		} else {
			fputs(": ", stdout);
			yaml_inline(x);
		}
	}
	free(keys);
}

static void yaml_value(const json_t *v, int indent)
{
	if (json_is_object(v)) {
		yaml_object(v, indent, 0);
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
		{
			printf("%*s- ", indent, "");
			if (json_is_object(x) && json_object_size(x))
				yaml_object(x, indent + 2, 1);
			else if (json_is_array(x) && json_array_size(x)) {
				fputc('\n', stdout);
				yaml_value(x, indent + 2);
			} else {
				yaml_inline(x);
			}
		}
	} else {
		printf("%*s", indent, "");
		yaml_scalar(v);
		fputc('\n', stdout);
	}
}

void print_yaml(const json_t *v) { yaml_value(v, 0); }

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
