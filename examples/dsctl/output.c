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

size_t terminal_width(void)
{
	/* COLUMNS first, as less, ls and git do: a user sets it to ask for a width */
	const char *cols = getenv("COLUMNS");
	char *end;
	long n = cols ? strtol(cols, &end, 10) : 0;
	if (cols && *cols && !*end && n > 0)
		return (size_t)n;
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 0;
}

/*
 * The end of the first line of s that fits in room characters: after the last blank, or else the
 * last ',', '/', '.', '-', '=' or ':', that the room holds; a word longer than the room is cut
 * between characters. Colour codes take no room. *next is where the next line starts (blanks
 * skipped). Returns the length of the line's text (trailing blanks left out).
 */
static size_t fit_line(const char *s, size_t room, const char **next)
{
	size_t chars = 0, i = 0, blank = 0, punct = 0;
	while (s[i] && s[i] != '\n') {
		if (s[i] == '\033' && s[i + 1] == '[') {
			while (s[i] && s[i] != 'm')
				i++;
			if (s[i])
				i++;
			continue;
		}
		if (((unsigned char)s[i] & 0xC0) != 0x80) {
			if (chars == room)
				break;
			chars++;
		}
		if (s[i] == ' ')
			blank = i + 1;
		else if (strchr(",/.-=:", s[i]))
			punct = i + 1;
		i++;
	}
	size_t end = i;
	if (s[i] && s[i] != '\n' && s[i] != ' ')
		end = blank ? blank : punct ? punct : i;
	if (end == 0) /* room 0: one character all the same, so that the text moves on */
		end = s[0] ? 1 : 0;
	while (end < i && ((unsigned char)s[end] & 0xC0) == 0x80)
		end++;
	size_t shown = end;
	while (shown > 0 && s[shown - 1] == ' ')
		shown--;
	const char *n = s + end;
	while (*n == ' ')
		n++;
	if (*n == '\n') /* a cell's own line break */
		n++;
	*next = n;
	return shown;
}

void say(const ctx *c, size_t hang, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = NULL;
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	text = malloc((size_t)n + 1);
	if (!text)
		return;
	va_start(ap, fmt);
	vsnprintf(text, (size_t)n + 1, fmt, ap);
	va_end(ap);
	size_t term = c->out == OUT_TABLE ? c->width : 0;
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line), lead = strspn(line, " ");
		char *one = strndup(line, len);
		if (!one)
			break;
		/* a continuation is indented under the line's text, hang columns further */
		size_t indent = lead + hang;
		if (!term || width(one) <= term || indent + 8 > term) {
			fputs(one, stdout);
		} else {
			const char *s = one, *next;
			size_t room = term;
			while (*s) {
				size_t shown = fit_line(s, room, &next);
				if (s != one)
					printf("\n%*s", (int)indent, "");
				fwrite(s, 1, shown, stdout);
				s = next;
				room = term - indent;
			}
		}
		free(one);
		if (nl)
			fputc('\n', stdout);
		line = nl ? nl + 1 : line + len;
	}
	free(text);
}

/* The lines of cell s at most room characters wide: their starts and lengths (NULL, 0 past the end). */
typedef struct cell_lines {
	const char *at[64];
	size_t len[64], n;
} cell_lines;

static void split_cell(const char *s, size_t room, cell_lines *out)
{
	out->n = 0;
	if (!room || width(s) <= room) {
		out->at[0] = s;
		out->len[0] = strlen(s);
		out->n = 1;
		return;
	}
	while (*s && out->n < 64) {
		const char *next;
		size_t shown = fit_line(s, room, &next);
		out->at[out->n] = s;
		out->len[out->n++] = shown;
		s = next;
	}
	if (*s && out->n == 64) /* more than 64 lines: the rest on the last one */
		out->len[63] = strlen(out->at[63]);
}

/* The longest word of a header: a header may wrap between its words ("NODE SELECTOR") and after a
 * hyphen ("UP-TO-DATE"), not inside a word. */
static size_t longest_word(const char *s)
{
	size_t best = 0;
	while (*s) {
		size_t n = strcspn(s, " -");
		n += s[n] == '-'; /* the hyphen stays on its line */
		if (n > best)
			best = n;
		s += n + (s[n] == ' ');
	}
	return best;
}

/*
 * The widths that fit term (cw), from the natural widths w: the widest columns narrowed to one cap,
 * none below its header's longest word; then a column that the cap cuts by only a little gets its
 * width back from the widest, if that one keeps at least 16. When even the headers do not fit, the
 * natural widths stay: the lines pass the edge, as kubectl's wide tables do, rather than every column
 * being cut to a few letters. Returns the space between columns: 3 as kubectl's, 2 where that makes
 * the headers fit.
 */
/* Water-filling: the largest cap under which the columns, each at least its floor, fit budget; the
 * widths in cw and the cap returned, 0 when even the floors do not fit. */
static size_t water_fill(const size_t *w, const size_t *floor, int ncols, size_t budget, size_t *cw)
{
	size_t lo = 1, hi = 0, cap = 0;
	for (int i = 0; i < ncols; i++)
		hi = w[i] > hi ? w[i] : hi;
	while (lo <= hi) {
		size_t mid = (lo + hi) / 2, sum = 0;
		for (int i = 0; i < ncols; i++) {
			size_t x = w[i] < mid ? w[i] : mid;
			sum += x > floor[i] ? x : floor[i];
		}
		if (sum <= budget) {
			cap = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	for (int i = 0; i < ncols; i++) {
		size_t x = w[i] < (cap ? cap : 1) ? w[i] : (cap ? cap : 1);
		cw[i] = x > floor[i] ? x : floor[i];
	}
	return cap;
}

static size_t fit_widths(const size_t *w, char *const *header, int ncols, size_t term, size_t *cw)
{
	size_t total = 0, gap = 3;
	size_t *floor = calloc((size_t)ncols, sizeof(*floor)), *alt = calloc((size_t)ncols, sizeof(*alt));
	if (!floor || !alt)
		abort();
	for (int i = 0; i < ncols; i++) {
		cw[i] = w[i];
		total += w[i];
		floor[i] = longest_word(header[i]) < w[i] ? longest_word(header[i]) : w[i];
	}
	size_t gaps3 = 3 * (size_t)(ncols - 1), gaps2 = 2 * (size_t)(ncols - 1);
	size_t cap3 = 0, cap2 = 0;
	if (term && total + gaps3 > term) {
		cap3 = term > gaps3 ? water_fill(w, floor, ncols, term - gaps3, cw) : 0;
		/* kubectl's 3 spaces between columns, or 2 when that cuts the columns less */
		cap2 = term > gaps2 ? water_fill(w, floor, ncols, term - gaps2, alt) : 0;
		if (cap2 > cap3) {
			memcpy(cw, alt, (size_t)ncols * sizeof(*cw));
			gap = 2;
		}
	}
	free(alt);
	if (!term || total + gaps3 <= term || (!cap3 && !cap2)) {
		for (int i = 0; i < ncols; i++)
			cw[i] = w[i];
		free(floor);
		return 3;
	}
	size_t budget = term - (gap == 2 ? gaps2 : gaps3), used = 0;
	for (int i = 0; i < ncols; i++)
		used += cw[i];
	size_t spare = budget > used ? budget - used : 0;
	for (int pass = 0; pass < ncols; pass++) { /* the last bits of room, then near misses, to the smallest cut */
		int widest = -1, near = -1;
		for (int i = 0; i < ncols; i++) {
			if (w[i] <= cw[i])
				continue;
			if (widest < 0 || cw[i] > cw[widest] || (cw[i] == cw[widest] && w[i] > w[widest]))
				widest = i;
			if (w[i] - cw[i] <= 8 && (near < 0 || w[i] - cw[i] < w[near] - cw[near]))
				near = i;
		}
		if (near < 0)
			break;
		size_t need = w[near] - cw[near];
		if (spare >= need) {
			spare -= need;
		} else if (near != widest && cw[widest] >= 16 + need - spare) {
			cw[widest] -= need - spare;
			spare = 0;
		} else {
			break;
		}
		cw[near] = w[near];
	}
	for (int i = 0; spare && i < ncols; i++) /* what is left, to the columns still cut */
		if (w[i] > cw[i]) {
			size_t more = w[i] - cw[i] < spare ? w[i] - cw[i] : spare;
			cw[i] += more;
			spare -= more;
		}
	free(floor);
	return gap;
}

void table_print(table *t, const ctx *c)
{
	size_t *w = calloc((size_t)t->ncols, sizeof(size_t)), *cw = calloc((size_t)t->ncols, sizeof(size_t));
	cell_lines *lines = calloc((size_t)t->ncols, sizeof(cell_lines));
	if (!w || !cw || !lines)
		abort();
	for (size_t r = c->no_headers ? 1 : 0; r < t->nrows; r++)
		for (int i = 0; i < t->ncols; i++) {
			size_t l = width(t->cells[r * (size_t)t->ncols + (size_t)i]);
			if (l > w[i])
				w[i] = l;
		}
	/* columns that would pass the terminal's edge are narrowed, and their cells wrap in place */
	size_t gap = fit_widths(w, t->cells, t->ncols, c->out == OUT_TABLE ? c->width : 0, cw);
	for (size_t r = c->no_headers ? 1 : 0; r < t->nrows; r++) {
		char **row = t->cells + r * (size_t)t->ncols;
		size_t height = 1;
		for (int i = 0; i < t->ncols; i++) {
			split_cell(row[i], cw[i] < w[i] ? cw[i] : 0, &lines[i]);
			if (lines[i].n > height)
				height = lines[i].n;
		}
		/* no padding after the last non-empty cell: lines end without blanks */
		for (size_t k = 0; k < height; k++) {
			int last = t->ncols - 1;
			while (last > 0 && (k >= lines[last].n || !lines[last].len[k]))
				last--;
			if (r == 0)
				fputs(colour(c, "bold"), stdout);
			for (int i = 0; i <= last; i++) {
				const char *s = k < lines[i].n ? lines[i].at[k] : "";
				size_t len = k < lines[i].n ? lines[i].len[k] : 0;
				char *piece = strndup(s, len);
				if (!piece)
					abort();
				fputs(piece, stdout);
				if (i < last)
					printf("%*s", (int)(cw[i] - width(piece) + gap), "");
				free(piece);
			}
			if (r == 0)
				fputs(colour(c, "reset"), stdout);
			fputc('\n', stdout);
		}
	}
	for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(w);
	free(cw);
	free(lines);
	free(t);
}
