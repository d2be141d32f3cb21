/*
 * kubectl's custom columns (k8s.io/kubectl/pkg/cmd/get/customcolumn.go):
 *  - A path is made a template by RelaxedJSONPathExpression: ".a.b", "a.b", "{.a.b}" and "{a.b}" all become
 *    "{.a.b}" (no braces inside); it runs with missing keys allowed, so a missing value is "<none>".
 *  - A cell is each value the template finds printed as Go's fmt.Sprint prints it (jsonpath_cell), joined by
 *    ",", with ESC shown as ^[ and CR as \r (printers.EscapeTerminal).
 *  - The header line, then one line per row, the cells separated by tabs, go through a copy of kubectl's
 *    tabwriter (github.com/liggitt/tabwriter at 89fcab3, text/tabwriter plus RememberWidths; minwidth 6,
 *    padding 3, padchar ' '). Width counts runes, as text/tabwriter does, not terminal columns. A value with
 *    a tab or a line break inside shifts the table as it does in kubectl.
 * Different from kubectl: the paths are parsed by columns_parse (kubectl parses them when it prints), a
 * parse error names the template ("error parsing jsonpath {.a[}, unterminated array ..."), and nothing is
 * printed when a path fails on some row (kubectl has printed the rows before it).
 * SPDX-License-Identifier: Apache-2.0
 */
#include "buf.h"
#include "columns.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonpath.h"

#define TW_MINWIDTH 6
#define TW_PADDING 3

struct column {
	char *header;
	char *tmpl; /* the path as a template, until it is parsed */
	jsonpath *path;
};

struct columns {
	struct column *v;
	size_t n;
};

static long rune_count(const char *s, size_t n)
{
	long c = 0;
	for (size_t i = 0, w; i < n; i += w, c++)
		utf8_decode((const unsigned char *)s + i, n - i, &w);
	return c;
}

static void set_err(char *err, size_t errsz, const char *msg)
{
	if (err && errsz)
		snprintf(err, errsz, "%s", msg);
}

void columns_free(columns *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].header);
		free(c->v[i].tmpl);
		jsonpath_free(c->v[i].path);
	}
	free(c->v);
	free(c);
}

/* RelaxedJSONPathExpression: ^\{\.?([^{}]+)\}$|^\.?([^{}]+)$ made "{.X}" (the empty path stays empty). */
static char *relaxed(const char *s, size_t n, char *err, size_t errsz)
{
	const char *x = NULL;
	size_t xn = 0;
	if (n == 0)
		return strdup("");
	if (n >= 3 && s[0] == '{' && s[n - 1] == '}' && !memchr(s + 1, '{', n - 2) && !memchr(s + 1, '}', n - 2)) {
		x = s + 1, xn = n - 2;
	} else if (!memchr(s, '{', n) && !memchr(s, '}', n)) {
		x = s, xn = n;
	} else {
		set_err(err, errsz,
			"unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or "
			"'{.name1.name2}'");
		return NULL;
	}
	if (xn >= 2 && x[0] == '.') /* the optional dot, when something is left after it */
		x++, xn--;
	char *t = malloc(xn + 4);
	if (!t) {
		set_err(err, errsz, "out of memory");
		return NULL;
	}
	memcpy(t, "{.", 2);
	memcpy(t + 2, x, xn);
	memcpy(t + 2 + xn, "}", 2);
	return t;
}

/* A column whose path is made a template but not parsed yet (kubectl checks every path's form first). */
static int add_column(columns *c, const char *h, size_t hn, const char *p, size_t pn, char *err, size_t errsz)
{
	char *tmpl = relaxed(p, pn, err, errsz);
	if (!tmpl)
		return -1;
	struct column col = {.header = malloc(hn + 1), .tmpl = tmpl};
	struct column *v = col.header ? realloc(c->v, (c->n + 1) * sizeof *v) : NULL;
	if (!v) {
		free(col.header);
		free(tmpl);
		set_err(err, errsz, "out of memory");
		return -1;
	}
	memcpy(col.header, h, hn);
	col.header[hn] = 0;
	c->v = v;
	c->v[c->n++] = col;
	return 0;
}

static int parse_paths(columns *c, char *err, size_t errsz)
{
	for (size_t i = 0; i < c->n; i++) {
		char perr[512];
		c->v[i].path = jsonpath_parse(c->v[i].tmpl, perr, sizeof perr);
		if (!c->v[i].path) {
			if (err && errsz)
				snprintf(err, errsz, "error parsing jsonpath %s, %s", c->v[i].tmpl, perr);
			return -1;
		}
		free(c->v[i].tmpl);
		c->v[i].tmpl = NULL;
	}
	return 0;
}

columns *columns_parse(const char *spec, char *err, size_t errsz)
{
	if (err && errsz)
		err[0] = 0;
	if (!spec || !*spec) {
		set_err(err, errsz, "custom-columns format specified but no custom columns given");
		return NULL;
	}
	columns *c = calloc(1, sizeof *c);
	if (!c) {
		set_err(err, errsz, "out of memory");
		return NULL;
	}
	for (const char *part = spec;;) {
		size_t n = strcspn(part, ",");
		const char *colon = memchr(part, ':', n);
		if (!colon) {
			if (err && errsz)
				snprintf(err, errsz,
					 "unexpected custom-columns spec: %.*s, expected <header>:<json-path-expr>",
					 (int)n, part);
			columns_free(c);
			return NULL;
		}
		if (add_column(c, part, (size_t)(colon - part), colon + 1, n - (size_t)(colon - part) - 1, err,
			       errsz)) {
			columns_free(c);
			return NULL;
		}
		if (!part[n])
			break;
		part += n + 1;
	}
	if (parse_paths(c, err, errsz)) {
		columns_free(c);
		return NULL;
	}
	return c;
}

/* bufio.ScanWords' white space (unicode.IsSpace). */
static int is_space(int32_t r)
{
	switch (r) {
	case ' ':
	case '\t':
	case '\n':
	case '\v':
	case '\f':
	case '\r':
	case 0x85:
	case 0xA0:
	case 0x1680:
	case 0x2028:
	case 0x2029:
	case 0x202F:
	case 0x205F:
	case 0x3000: return 1;
	default: return r >= 0x2000 && r <= 0x200A;
	}
}

/* The words of s[0..n): starts and lengths into w (at most n of them), their count returned. */
static size_t words(const char *s, size_t n, size_t *at, size_t *len)
{
	size_t k = 0, i = 0, w;
	while (i < n) {
		while (i < n && is_space(utf8_decode((const unsigned char *)s + i, n - i, &w)))
			i += w;
		if (i >= n)
			break;
		at[k] = i;
		while (i < n && !is_space(utf8_decode((const unsigned char *)s + i, n - i, &w)))
			i += w;
		len[k] = i - at[k];
		k++;
	}
	return k;
}

columns *columns_parse_file(const char *text, char *err, size_t errsz)
{
	static const char fmt[] = "Expected format is one line of space separated headers, one line of space "
				  "separated column specs.";
	if (err && errsz)
		err[0] = 0;
	size_t tn = text ? strlen(text) : 0;
	if (tn == 0) { /* bufio.Scanner finds no line in an empty text */
		if (err && errsz)
			snprintf(err, errsz, "invalid template, missing header line. %s", fmt);
		return NULL;
	}
	const char *l1 = text, *nl = memchr(text, '\n', tn);
	size_t n1 = nl ? (size_t)(nl - text) : tn;
	const char *l2 = nl ? nl + 1 : text + tn;
	size_t rest = tn - (size_t)(l2 - text);
	if (rest == 0) {
		if (err && errsz)
			snprintf(err, errsz, "invalid template, missing spec line. %s", fmt);
		return NULL;
	}
	const char *nl2 = memchr(l2, '\n', rest);
	size_t n2 = nl2 ? (size_t)(nl2 - l2) : rest;
	if (n1 && l1[n1 - 1] == '\r') /* ScanLines drops a CR before the LF */
		n1--;
	if (n2 && l2[n2 - 1] == '\r')
		n2--;
	size_t *ha = malloc((n1 + 1) * sizeof *ha), *hl = malloc((n1 + 1) * sizeof *hl);
	size_t *sa = malloc((n2 + 1) * sizeof *sa), *sl = malloc((n2 + 1) * sizeof *sl);
	columns *c = calloc(1, sizeof *c);
	if (!ha || !hl || !sa || !sl || !c) {
		set_err(err, errsz, "out of memory");
		goto fail;
	}
	size_t nh = words(l1, n1, ha, hl), ns = words(l2, n2, sa, sl);
	if (nh != ns) {
		if (err && errsz)
			snprintf(err, errsz, "number of headers (%zu) and field specifications (%zu) don't match", nh,
				 ns);
		goto fail;
	}
	for (size_t i = 0; i < nh; i++)
		if (add_column(c, l1 + ha[i], hl[i], l2 + sa[i], sl[i], err, errsz))
			goto fail;
	if (parse_paths(c, err, errsz))
		goto fail;
	free(ha), free(hl), free(sa), free(sl);
	return c;
fail:
	free(ha), free(hl), free(sa), free(sl);
	columns_free(c);
	return NULL;
}

/* ---- kubectl's tabwriter ----------------------------------------------------------------------------------- */

struct twcell {
	size_t size;
	long width;
	int htab;
};

struct twline {
	struct twcell *c;
	size_t n, cap;
};

struct tw {
	struct buf *out;
	struct buf text; /* the cells' text not yet written */
	size_t pos;      /* text up to here is counted in cell.width */
	struct twcell cell;
	int in_escape;
	struct twline *lines;
	size_t nlines, lcap;
	long *widths, *maxw; /* widths: the columns being formatted; maxw: RememberWidths */
	size_t nw, wcap, nmax, mcap;
	int oom;
};

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 8;
	while (c < need)
		c *= 2;
	void *q = realloc(*p, c * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static void tw_update_width(struct tw *t)
{
	t->cell.width += rune_count(t->text.p + t->pos, t->text.len - t->pos);
	t->pos = t->text.len;
}

static size_t tw_terminate(struct tw *t, int htab)
{
	struct twline *l = &t->lines[t->nlines - 1];
	t->cell.htab = htab;
	if (grow((void **)&l->c, &l->cap, l->n + 1, sizeof *l->c)) {
		t->oom = 1;
		return l->n;
	}
	l->c[l->n++] = t->cell;
	t->cell = (struct twcell){0};
	return l->n;
}

static void tw_add_line(struct tw *t)
{
	if (grow((void **)&t->lines, &t->lcap, t->nlines + 1, sizeof *t->lines)) {
		t->oom = 1;
		return;
	}
	t->lines[t->nlines++] = (struct twline){0};
}

static void tw_reset(struct tw *t)
{
	for (size_t i = 0; i < t->nlines; i++)
		free(t->lines[i].c);
	t->nlines = 0;
	t->text.len = 0;
	t->pos = 0;
	t->cell = (struct twcell){0};
	t->in_escape = 0;
	t->nw = 0;
	tw_add_line(t);
}

static void tw_pad(struct tw *t, long textw, long cellw)
{
	for (long i = textw; i < cellw; i++)
		buf_ch(t->out, ' ');
}

static size_t tw_write_lines(struct tw *t, size_t pos, size_t line0, size_t line1)
{
	for (size_t i = line0; i < line1; i++) {
		const struct twline *l = &t->lines[i];
		for (size_t j = 0; j < l->n; j++) {
			const struct twcell *c = &l->c[j];
			if (c->size) {
				buf_add(t->out, t->text.p + pos, c->size);
				pos += c->size;
			}
			if (j < t->nw)
				tw_pad(t, c->width, t->widths[j]);
		}
		if (i + 1 == t->nlines) {
			if (t->cell.size)
				buf_add(t->out, t->text.p + pos, t->cell.size);
			pos += t->cell.size;
		} else
			buf_ch(t->out, '\n');
	}
	return pos;
}

/* text/tabwriter's format (recursive there, a stack of column blocks here): a column block is a run of lines
 * with a cell in this column (the last cell of a line is in no column); its width is the widest cell plus the
 * padding, at least minwidth, at least what was remembered for the column. */
static void tw_format(struct tw *t)
{
	struct frame {
		size_t line0, line1, at;
	} *st = NULL;
	size_t n = 0, cap = 0, pos = 0;
	if (grow((void **)&st, &cap, 1, sizeof *st)) {
		t->oom = 1;
		return;
	}
	st[n++] = (struct frame){0, t->nlines, 0};
	while (n) {
		struct frame *f = &st[n - 1];
		size_t column = t->nw;
		while (f->at < f->line1 && !(column + 1 < t->lines[f->at].n))
			f->at++;
		if (f->at >= f->line1) { /* no block left: the rest of the lines, then back to the column left */
			pos = tw_write_lines(t, pos, f->line0, f->line1);
			size_t end = f->line1;
			if (--n == 0)
				break;
			t->nw--;
			st[n - 1].line0 = end;
			st[n - 1].at = end + 1;
			continue;
		}
		pos = tw_write_lines(t, pos, f->line0, f->at);
		f->line0 = f->at;
		long width = TW_MINWIDTH;
		size_t end = f->at;
		for (; end < f->line1 && column + 1 < t->lines[end].n; end++)
			if (t->lines[end].c[column].width + TW_PADDING > width)
				width = t->lines[end].c[column].width + TW_PADDING;
		if (t->nmax < t->nw) { /* RememberWidths */
			if (grow((void **)&t->maxw, &t->mcap, t->nw, sizeof *t->maxw))
				goto oom;
			memcpy(t->maxw + t->nmax, t->widths + t->nmax, (t->nw - t->nmax) * sizeof *t->maxw);
			t->nmax = t->nw;
		}
		if (t->nmax == t->nw) {
			if (grow((void **)&t->maxw, &t->mcap, t->nmax + 1, sizeof *t->maxw))
				goto oom;
			t->maxw[t->nmax++] = width;
		} else if (t->maxw[t->nw] > width)
			width = t->maxw[t->nw];
		else
			t->maxw[t->nw] = width;
		if (grow((void **)&t->widths, &t->wcap, t->nw + 1, sizeof *t->widths) ||
		    grow((void **)&st, &cap, n + 1, sizeof *st))
			goto oom;
		t->widths[t->nw++] = width;
		f = &st[n - 1];
		f->at = end;
		st[n++] = (struct frame){f->line0, end, f->line0};
	}
	free(st);
	return;
oom:
	t->oom = 1;
	free(st);
}

static void tw_flush(struct tw *t)
{
	if (t->cell.size > 0) {
		if (t->in_escape) {
			tw_update_width(t);
			t->cell.width -= 2;
			t->in_escape = 0;
		}
		tw_terminate(t, 0);
	}
	tw_format(t);
	tw_reset(t);
}

static void tw_append(struct tw *t, const char *s, size_t n)
{
	buf_add(&t->text, s, n);
	t->cell.size += n;
}

/* Writer.Write (the flags kubectl sets: no FilterHTML, no StripEscape). */
static void tw_write(struct tw *t, const char *s, size_t n)
{
	size_t start = 0;
	for (size_t i = 0; i < n && !t->oom && !t->text.oom; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (!t->in_escape) {
			if (ch == '\t' || ch == '\v' || ch == '\n' || ch == '\f') {
				tw_append(t, s + start, i - start);
				tw_update_width(t);
				start = i + 1;
				size_t ncells = tw_terminate(t, ch == '\t');
				if (ch == '\n' || ch == '\f') {
					tw_add_line(t);
					if (ch == '\f' || ncells == 1)
						tw_flush(t);
				}
			} else if (ch == 0xFF) { /* tabwriter.Escape */
				tw_append(t, s + start, i - start);
				tw_update_width(t);
				start = i;
				t->in_escape = 1;
			}
		} else if (ch == 0xFF) {
			tw_append(t, s + start, i + 1 - start);
			start = i + 1;
			tw_update_width(t);
			t->cell.width -= 2;
			t->pos = t->text.len;
			t->in_escape = 0;
		}
	}
	tw_append(t, s + start, n - start);
}

int columns_print(const columns *c, const json_t *rows, int headers, FILE *out, char *err, size_t errsz)
{
	if (err && errsz)
		err[0] = 0;
	struct buf text = {0};
	if (headers) {
		for (size_t i = 0; i < c->n; i++) {
			if (i)
				buf_ch(&text, '\t');
			buf_add(&text, c->v[i].header, strlen(c->v[i].header));
		}
		buf_ch(&text, '\n');
	}
	size_t nrows = !rows ? 0 : json_is_array(rows) ? json_array_size(rows) : 1;
	for (size_t r = 0; r < nrows; r++) {
		const json_t *row = json_is_array(rows) ? json_array_get(rows, r) : rows;
		for (size_t i = 0; i < c->n; i++) {
			char *cell;
			size_t len;
			if (jsonpath_cell(c->v[i].path, row, &cell, &len, err, errsz)) {
				free(text.p);
				return -1;
			}
			if (i)
				buf_ch(&text, '\t');
			buf_add(&text, cell, len);
			free(cell);
		}
		buf_ch(&text, '\n');
	}
	struct buf res = {0};
	struct tw t = {.out = &res};
	tw_reset(&t);
	if (!text.oom)
		tw_write(&t, text.p ? text.p : "", text.len);
	tw_flush(&t);
	int oom = text.oom || t.oom || t.text.oom || res.oom;
	for (size_t i = 0; i < t.nlines; i++)
		free(t.lines[i].c);
	free(t.lines);
	free(t.widths);
	free(t.maxw);
	free(t.text.p);
	free(text.p);
	int rc = 0;
	if (oom) {
		set_err(err, errsz, "out of memory");
		rc = -1;
	} else if (res.len && fwrite(res.p, 1, res.len, out) != res.len) {
		if (err && errsz)
			snprintf(err, errsz, "write error: %s", strerror(errno));
		rc = -1;
	}
	free(res.p);
	return rc;
}
