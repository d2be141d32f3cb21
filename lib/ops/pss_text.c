/* Message building as pod-security-admission does it (policy/helpers.go) and Go's %q. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/pss.h"

void dsi_pss_strs_add(dsi_pss_strs *s, const char *str)
{
	if (s->oom)
		return;
	if (DSI_GROW(s->v, s->cap, s->n + 1) < 0) {
		s->oom = 1;
		return;
	}
	s->v[s->n++] = str;
}

void dsi_pss_strs_add_owned(dsi_pss_strs *s, char *str)
{
	if (!str) {
		s->oom = 1;
		return;
	}
	size_t before = s->n;
	dsi_pss_strs_add(s, str);
	if (s->n == before)
		dsi_free(str);
}

static int cmp_str(const void *a, const void *b)
{
	/* Go compares strings bytewise; strcmp compares as unsigned char. */
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* sets.String.List() (apimachinery util/sets): sorted, unique */
void dsi_pss_strs_sort_unique(dsi_pss_strs *s)
{
	if (s->n < 2)
		return;
	qsort(s->v, s->n, sizeof(*s->v), cmp_str);
	size_t w = 1;
	for (size_t r = 1; r < s->n; r++)
		if (strcmp(s->v[r], s->v[w - 1]) != 0)
			s->v[w++] = s->v[r];
	s->n = w;
}

void dsi_pss_strs_free(dsi_pss_strs *s)
{
	dsi_free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
	s->oom = 0;
}

void dsi_pss_strs_free_owned(dsi_pss_strs *s)
{
	for (size_t i = 0; i < s->n; i++)
		dsi_free((void *)s->v[i]);
	dsi_pss_strs_free(s);
}

/* joinQuote (policy/helpers.go): items are not escaped */
void dsi_pss_join_quote(dsi_strbuf *b, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			dsi_strbuf_puts(b, ", ");
		dsi_strbuf_putc(b, '"');
		dsi_strbuf_puts(b, v[i]);
		dsi_strbuf_putc(b, '"');
	}
}

void dsi_pss_join(dsi_strbuf *b, const char *const *v, size_t n, const char *sep)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			dsi_strbuf_puts(b, sep);
		dsi_strbuf_puts(b, v[i]);
	}
}

void dsi_pss_containers_phrase(dsi_strbuf *b, const dsi_pss_strs *names)
{
	dsi_strbuf_puts(b, dsi_pss_plural("container", "containers", names->n));
	dsi_strbuf_putc(b, ' ');
	dsi_pss_join_quote(b, names->v, names->n);
}

int dsi_pss_finish(dsi_pss_result *res, const char *reason, dsi_strbuf *b)
{
	res->allowed = 0;
	res->reason = reason;
	res->detail = NULL;
	if (b->oom) {
		dsi_strbuf_free(b);
		return DS_ENOMEM;
	}
	if (b->len == 0) {
		dsi_strbuf_free(b);
		return 0;
	}
	res->detail = dsi_strbuf_detach(b);
	return res->detail ? 0 : DS_ENOMEM;
}

/* Decode one UTF-8 sequence; returns its length, *cp = -1 when invalid (Go's RuneError of width 1). */
static size_t utf8_decode(const unsigned char *s, long *cp)
{
	unsigned c = s[0];
	size_t n;
	long v, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xe0) == 0xc0) {
		n = 2, v = c & 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 3, v = c & 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 4, v = c & 0x07, min = 0x10000;
	} else {
		*cp = -1;
		return 1;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*cp = -1;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
		*cp = -1;
		return 1;
	}
	*cp = v;
	return n;
}

/*
 * unicode.IsPrint for non-ASCII code points, approximated by the ranges that
 * are not graphic (Zs/Zl/Zp separators, Cc/Cf controls, private use,
 * noncharacters). Unassigned code points are treated as printable.
 */
static int go_is_print(long r)
{
	static const long ranges[][2] = {
		{0x80, 0xa0},       {0xad, 0xad},       {0x600, 0x605},      {0x61c, 0x61c},     {0x6dd, 0x6dd},
		{0x70f, 0x70f},     {0x890, 0x891},     {0x8e2, 0x8e2},      {0x1680, 0x1680},   {0x180e, 0x180e},
		{0x2000, 0x200f},   {0x2028, 0x202f},   {0x205f, 0x2064},    {0x2066, 0x206f},   {0x3000, 0x3000},
		{0xe000, 0xf8ff},   {0xfdd0, 0xfdef},   {0xfeff, 0xfeff},    {0xfff9, 0xfffb},   {0xfffe, 0xffff},
		{0x110bd, 0x110bd}, {0x110cd, 0x110cd}, {0x13430, 0x1343f},  {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a},
		{0xe0001, 0xe0001}, {0xe0020, 0xe007f}, {0xf0000, 0x10ffff},
	};
	for (size_t i = 0; i < DSI_ARRAY_LEN(ranges); i++)
		if (r >= ranges[i][0] && r <= ranges[i][1])
			return 0;
	if ((r & 0xfffe) == 0xfffe)
		return 0; /* noncharacters at the end of every plane */
	return 1;
}

/* strconv.Quote (Go strconv/quote.go), which fmt's %q uses for strings */
void dsi_pss_go_quote(dsi_strbuf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	dsi_strbuf_putc(b, '"');
	while (*p) {
		long r;
		size_t n = utf8_decode(p, &r);
		if (r < 0) {
			char esc[4] = {'\\', 'x', hex[*p >> 4], hex[*p & 15]};
			dsi_strbuf_append(b, esc, 4);
			p += 1;
			continue;
		}
		if (r == '"' || r == '\\') {
			dsi_strbuf_putc(b, '\\');
			dsi_strbuf_putc(b, (char)r);
		} else if (r >= 0x20 && r < 0x7f) {
			dsi_strbuf_putc(b, (char)r);
		} else if (r >= 0x80 && go_is_print(r)) {
			dsi_strbuf_append(b, (const char *)p, n);
		} else {
			switch (r) {
			case '\a': dsi_strbuf_puts(b, "\\a"); break;
			case '\b': dsi_strbuf_puts(b, "\\b"); break;
			case '\f': dsi_strbuf_puts(b, "\\f"); break;
			case '\n': dsi_strbuf_puts(b, "\\n"); break;
			case '\r': dsi_strbuf_puts(b, "\\r"); break;
			case '\t': dsi_strbuf_puts(b, "\\t"); break;
			case '\v': dsi_strbuf_puts(b, "\\v"); break;
			default:
				if (r < 0x20 || r == 0x7f)
					dsi_strbuf_printf(b, "\\x%02x", (unsigned)r);
				else if (r < 0x10000)
					dsi_strbuf_printf(b, "\\u%04lx", (unsigned long)r);
				else
					dsi_strbuf_printf(b, "\\U%08lx", (unsigned long)r);
			}
		}
		p += n;
	}
	dsi_strbuf_putc(b, '"');
}
