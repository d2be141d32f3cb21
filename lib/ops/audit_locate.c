/*
 * The line of a field in a YAML manifest, for SARIF locations and editors: a JSON path
 * ("spec.template.spec.containers[0].image", ["key"] for keys with dots) walked through the block
 * structure of the text by indentation. It is a locator, not a parser: the manifest was already
 * parsed (core/yaml.c); flow collections, anchors and JSON text are not walked, and a path that
 * leaves the text (a field the finding says is missing) gives the line of its deepest ancestor.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/riskaudit.h"

typedef struct line {
	const char *s;
	int len, indent, num;
} line;

typedef struct doc {
	line *v;
	int n;
	int ovl, ovc; /* the first line of a sequence item starts its content after "- " */
} doc;

static int eff(const doc *d, int i) { return i == d->ovl ? d->ovc : d->v[i].indent; }
static const char *at(const doc *d, int i) { return d->v[i].s + eff(d, i); }
static int rest_len(const doc *d, int i) { return d->v[i].len - eff(d, i); }

static int is_dash(const doc *d, int i)
{
	const char *p = at(d, i);
	return rest_len(d, i) >= 1 && p[0] == '-' && (rest_len(d, i) == 1 || p[1] == ' ');
}

/* the key at line i: length of `key:` / `"key":` / `'key':` up to after the colon, 0 when it is not key */
static int key_at(const doc *d, int i, const char *key, size_t klen)
{
	const char *p = at(d, i);
	int n = rest_len(d, i), k = 0;
	char q = (n > 0 && (p[0] == '"' || p[0] == '\'')) ? p[0] : 0;
	if (q)
		k++;
	if (n - k < (int)klen || memcmp(p + k, key, klen) != 0)
		return 0;
	k += (int)klen;
	if (q) {
		if (k >= n || p[k] != q)
			return 0;
		k++;
	}
	while (k < n && p[k] == ' ')
		k++;
	if (k >= n || p[k] != ':' || (k + 1 < n && p[k + 1] != ' '))
		return 0;
	return k + 1;
}

/* the value after a key or a dash is on the same line: a scalar or a flow collection */
static int inline_value(const char *p, int n)
{
	int k = 0;
	while (k < n && p[k] == ' ')
		k++;
	return k < n && p[k] != '#';
}

/* end of the block value of the node at line i whose column is c */
static int block_end(const doc *d, int i, int c, int hi)
{
	int j = i + 1;
	while (j < hi && (eff(d, j) > c || (eff(d, j) == c && is_dash(d, j))))
		j++;
	return j;
}

/* one path segment: 1 key (into key), 2 index, 0 end, -1 malformed */
static int segment(const char **pp, char *key, size_t size, long *index)
{
	const char *p = *pp;
	if (*p == '.')
		p++;
	if (!*p)
		return 0;
	if (p[0] == '[' && p[1] == '"') {
		const char *e = strstr(p + 2, "\"]");
		if (!e || (size_t)(e - p - 2) >= size)
			return -1;
		memcpy(key, p + 2, (size_t)(e - p - 2));
		key[e - p - 2] = '\0';
		*pp = e + 2;
		return 1;
	}
	if (p[0] == '[') {
		char *e;
		*index = strtol(p + 1, &e, 10);
		if (e == p + 1 || *e != ']' || *index < 0)
			return -1;
		*pp = e + 1;
		return 2;
	}
	size_t n = strcspn(p, ".[");
	if (n >= size)
		return -1;
	memcpy(key, p, n);
	key[n] = '\0';
	*pp = p + n;
	return 1;
}

static int split_lines(const char *text, size_t size, doc *d)
{
	int cap = 0;
	d->v = NULL;
	d->n = 0;
	d->ovl = -1;
	int num = 0;
	for (size_t pos = 0; pos < size;) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', size - pos);
		int len = nl ? (int)(nl - s) : (int)(size - pos);
		pos += (size_t)len + (nl ? 1 : 0);
		num++;
		if (len > 0 && s[len - 1] == '\r')
			len--;
		int ind = 0;
		while (ind < len && s[ind] == ' ')
			ind++;
		if (ind == len || s[ind] == '#' ||
		    (ind == 0 && len >= 3 && (!memcmp(s, "---", 3) || !memcmp(s, "...", 3))))
			continue;
		if (d->n == cap) {
			cap = cap ? cap * 2 : 64;
			line *v = dsi_realloc(d->v, (size_t)cap * sizeof(*v));
			if (!v)
				return -1;
			d->v = v;
		}
		d->v[d->n++] = (line){s, len, ind, num};
	}
	return 0;
}

int dsi_audit_locate_line(const char *text, size_t size, const char *path)
{
	doc d;
	if (!text || !path || split_lines(text, size, &d) < 0) {
		return 0;
	}
	int found = 0, lo = 0, hi = d.n;
	if (d.n && (d.v[0].s[d.v[0].indent] == '{' || d.v[0].s[d.v[0].indent] == '['))
		hi = 0; /* JSON or a flow document: not walked */
	const char *p = path;
	char key[256];
	long index = 0;
	int kind;
	while (lo < hi && (kind = segment(&p, key, sizeof(key), &index)) > 0) {
		int c = eff(&d, lo), i;
		if (kind == 1) {
			int k = 0;
			size_t klen = strlen(key);
			for (i = lo; i < hi; i++)
				if (eff(&d, i) == c && (k = key_at(&d, i, key, klen)) > 0)
					break;
			if (i == hi)
				break;
			found = d.v[i].num;
			if (inline_value(at(&d, i) + k, rest_len(&d, i) - k))
				break;
			hi = block_end(&d, i, c, hi);
			lo = i + 1;
			d.ovl = -1;
		} else {
			long seen = -1;
			for (i = lo; i < hi; i++)
				if (eff(&d, i) == c && is_dash(&d, i) && ++seen == index)
					break;
			if (i == hi)
				break;
			found = d.v[i].num;
			int end = i + 1;
			while (end < hi && eff(&d, end) > c)
				end++;
			hi = end;
			const char *r = at(&d, i) + 1;
			int rn = rest_len(&d, i) - 1, skip = 0;
			while (skip < rn && r[skip] == ' ')
				skip++;
			if (skip < rn && r[skip] != '#') {
				/* "- key: value": the item's content starts on the dash line */
				d.ovc = (int)(r + skip - d.v[i].s);
				d.ovl = i;
				lo = i;
			} else {
				d.ovl = -1;
				lo = i + 1;
			}
		}
	}
	dsi_free(d.v);
	return found;
}
