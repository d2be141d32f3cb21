/* A growable NUL-terminated byte buffer. */
#ifndef DSI_STRBUF_H
#define DSI_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "core/error.h"

typedef struct dsi_strbuf {
	char *data; /* always NUL-terminated when non-NULL */
	size_t len;
	size_t cap;
	int oom; /* set once an append failed; later appends do nothing */
} dsi_strbuf;

#define DSI_STRBUF_INIT                                                                                                \
	{                                                                                                              \
		NULL, 0, 0, 0                                                                                          \
	}

void dsi_strbuf_append(dsi_strbuf *b, const char *s, size_t n);
void dsi_strbuf_puts(dsi_strbuf *b, const char *s);
void dsi_strbuf_putc(dsi_strbuf *b, char c);
void dsi_strbuf_printf(dsi_strbuf *b, const char *fmt, ...) DSI_PRINTF(2, 3);
/* dsi_strbuf_printf with a va_list (which the caller va_ends); -1 when the text could not be formatted
 * (nothing is added) or the buffer is out of memory. */
int dsi_strbuf_vprintf(dsi_strbuf *b, const char *fmt, va_list ap) DSI_PRINTF(2, 0);
void dsi_strbuf_truncate(dsi_strbuf *b, size_t len);
/* A new formatted string of any length (free with dsi_free), NULL without memory: for texts that hold
 * names from the input, which no fixed buffer bounds. */
char *dsi_format(const char *fmt, ...) DSI_PRINTF(1, 2);
char *dsi_vformat(const char *fmt, va_list ap) DSI_PRINTF(1, 0);
/* Give the buffer away (never NULL unless OOM); the strbuf is reset. */
char *dsi_strbuf_detach(dsi_strbuf *b);
void dsi_strbuf_free(dsi_strbuf *b);

#endif
