#include "core/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

static int reserve(dsi_strbuf *b, size_t extra)
{
	if (b->oom)
		return -1;
	if (extra > ((size_t)-1) - b->len - 1 || DSI_GROW(b->data, b->cap, b->len + extra + 1) < 0) {
		b->oom = 1;
		return -1;
	}
	return 0;
}

void dsi_strbuf_append(dsi_strbuf *b, const char *s, size_t n)
{
	if (reserve(b, n) < 0)
		return;
	if (n)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void dsi_strbuf_puts(dsi_strbuf *b, const char *s) { dsi_strbuf_append(b, s, strlen(s)); }

void dsi_strbuf_putc(dsi_strbuf *b, char c) { dsi_strbuf_append(b, &c, 1); }

int dsi_strbuf_vprintf(dsi_strbuf *b, const char *fmt, va_list ap)
{
	char small[256];
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= 0 && (size_t)n < sizeof(small)) {
		dsi_strbuf_append(b, small, (size_t)n);
	} else if (n >= 0 && reserve(b, (size_t)n) == 0) { /* a long text: formatted again, in place */
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
		b->len += (size_t)n;
	}
	va_end(again);
	return n < 0 || b->oom ? -1 : 0;
}

void dsi_strbuf_printf(dsi_strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	dsi_strbuf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *dsi_vformat(const char *fmt, va_list ap)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	if (dsi_strbuf_vprintf(&b, fmt, ap) < 0) {
		dsi_strbuf_free(&b);
		return NULL;
	}
	return dsi_strbuf_detach(&b);
}

char *dsi_format(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = dsi_vformat(fmt, ap);
	va_end(ap);
	return s;
}

void dsi_strbuf_truncate(dsi_strbuf *b, size_t len)
{
	if (b->data && len < b->len) {
		b->len = len;
		b->data[len] = '\0';
	}
}

char *dsi_strbuf_detach(dsi_strbuf *b)
{
	if (b->oom) {
		dsi_strbuf_free(b);
		return NULL;
	}
	if (!b->data && reserve(b, 0) < 0)
		return NULL;
	if (!b->data[0] && b->len == 0)
		b->data[0] = '\0';
	char *d = b->data;
	b->data = NULL;
	b->len = b->cap = 0;
	return d;
}

void dsi_strbuf_free(dsi_strbuf *b)
{
	dsi_free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}
