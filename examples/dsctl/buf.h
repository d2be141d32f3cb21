/*
 * Text helpers of dsctl's text engines (jsonpath.c, columns.c): a growing byte buffer, always
 * NUL-terminated (running out of memory sets oom and makes every later append a no-op, so that
 * callers check once), and Go's UTF-8 decoding.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DSCTL_BUF_H
#define DSCTL_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct buf {
	char *p;
	size_t len, cap;
	int oom;
};

void buf_add(struct buf *b, const void *s, size_t n);
static inline void buf_str(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }
static inline void buf_ch(struct buf *b, char c) { buf_add(b, &c, 1); }

/* Go's utf8.DecodeRune on the n bytes at s (n > 0): the rune and its width in *w; an invalid or
 * truncated sequence is U+FFFD of width 1. */
int32_t utf8_decode(const unsigned char *s, size_t n, size_t *w);

#endif
