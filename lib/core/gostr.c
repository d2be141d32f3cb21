/* Strings as Go prints them: strconv.Quote (%q) and encoding/json. */
#include "core/gostr.h"

#include <stdint.h>
#include <stdio.h>

/* utf8.DecodeRuneInString: the rune at s and its width; width 1 with
 * *valid == 0 for an invalid encoding. */
static uint32_t decode_rune(const unsigned char *s, size_t n, size_t *width, int *valid)
{
	*valid = 1;
	*width = 1;
	unsigned char c = s[0];
	if (c < 0x80)
		return c;
	size_t need;
	uint32_t r, min;
	if (c >= 0xc2 && c <= 0xdf) {
		need = 2;
		r = c & 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 3;
		r = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 4;
		r = c & 0x07;
		min = 0x10000;
	} else {
		*valid = 0;
		return 0xfffd;
	}
	if (n < need) {
		*valid = 0;
		return 0xfffd;
	}
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*valid = 0;
			return 0xfffd;
		}
		r = (r << 6) | (s[i] & 0x3f);
	}
	if (r < min || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) {
		*valid = 0;
		return 0xfffd;
	}
	*width = need;
	return r;
}

/* unicode.IsPrint (Go unicode/graphic.go) for runes >= 0x80, approximately:
 * the ranges that are not graphic (separators, controls, format characters,
 * private use, noncharacters). Other unassigned code points count as printable. */
static int go_is_print(uint32_t r)
{
	static const uint32_t ranges[][2] = {
		{0x80, 0xa0},        {0xad, 0xad},       {0x600, 0x605},     {0x61c, 0x61c},     {0x6dd, 0x6dd},
		{0x70f, 0x70f},      {0x890, 0x891},     {0x8e2, 0x8e2},     {0x1680, 0x1680},   {0x180e, 0x180e},
		{0x2000, 0x200f},    {0x2028, 0x202f},   {0x205f, 0x206f},   {0x3000, 0x3000},   {0xe000, 0xf8ff},
		{0xfdd0, 0xfdef},    {0xfeff, 0xfeff},   {0xfff9, 0xfffb},   {0x110bd, 0x110bd}, {0x110cd, 0x110cd},
		{0x13430, 0x1343f},  {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a}, {0xe0001, 0xe0001}, {0xe0020, 0xe007f},
		{0xf0000, 0x10ffff},
	};
	if ((r & 0xfffe) == 0xfffe)
		return 0; /* the two noncharacters at the end of every plane */
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (r >= ranges[i][0] && r <= ranges[i][1])
			return 0;
	return 1;
}

static const char lowerhex[] = "0123456789abcdef";

/* strconv.Quote */
void dsi_go_quote(dsi_strbuf *b, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	char esc[16];
	dsi_strbuf_putc(b, '"');
	for (size_t i = 0; i < n;) {
		size_t w;
		int valid;
		uint32_t r = decode_rune(s + i, n - i, &w, &valid);
		if (!valid) {
			snprintf(esc, sizeof(esc), "\\x%c%c", lowerhex[s[i] >> 4], lowerhex[s[i] & 15]);
			dsi_strbuf_puts(b, esc);
			i++;
			continue;
		}
		if (r == '"' || r == '\\') {
			dsi_strbuf_putc(b, '\\');
			dsi_strbuf_putc(b, (char)r);
		} else if ((r >= 0x20 && r < 0x7f) || (r >= 0x80 && go_is_print(r))) {
			dsi_strbuf_append(b, str + i, w);
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
					snprintf(esc, sizeof(esc), "\\x%02x", (unsigned)r);
				else if (r < 0x10000)
					snprintf(esc, sizeof(esc), "\\u%04x", (unsigned)r);
				else
					snprintf(esc, sizeof(esc), "\\U%08x", (unsigned)r);
				dsi_strbuf_puts(b, esc);
			}
		}
		i += w;
	}
	dsi_strbuf_putc(b, '"');
}

/* encoding/json appendString with escapeHTML (json.Marshal) */
void dsi_go_json_string(dsi_strbuf *b, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	char esc[8];
	dsi_strbuf_putc(b, '"');
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		if (c < 0x80) {
			switch (c) {
			case '"': dsi_strbuf_puts(b, "\\\""); break;
			case '\\': dsi_strbuf_puts(b, "\\\\"); break;
			case '\b': dsi_strbuf_puts(b, "\\b"); break;
			case '\f': dsi_strbuf_puts(b, "\\f"); break;
			case '\n': dsi_strbuf_puts(b, "\\n"); break;
			case '\r': dsi_strbuf_puts(b, "\\r"); break;
			case '\t': dsi_strbuf_puts(b, "\\t"); break;
			default:
				if (c < 0x20 || c == '<' || c == '>' || c == '&') {
					snprintf(esc, sizeof(esc), "\\u00%c%c", lowerhex[c >> 4], lowerhex[c & 15]);
					dsi_strbuf_puts(b, esc);
				} else {
					dsi_strbuf_putc(b, (char)c);
				}
			}
			i++;
			continue;
		}
		size_t w;
		int valid;
		uint32_t r = decode_rune(s + i, n - i, &w, &valid);
		if (!valid)
			dsi_strbuf_puts(b, "\\ufffd");
		else if (r == 0x2028 || r == 0x2029)
			dsi_strbuf_puts(b, r == 0x2028 ? "\\u2028" : "\\u2029");
		else
			dsi_strbuf_append(b, str + i, w);
		i += w;
	}
	dsi_strbuf_putc(b, '"');
}
