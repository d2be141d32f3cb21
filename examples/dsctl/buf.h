/*
 * A growing byte buffer for dsctl's text engines (jsonpath.c, columns.c): always NUL-terminated;
 * running out of memory sets oom and makes every later append a no-op, so that callers check once.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DSCTL_BUF_H
#define DSCTL_BUF_H

#include <stddef.h>
#include <string.h>

struct buf {
	char *p;
	size_t len, cap;
	int oom;
};

void buf_add(struct buf *b, const void *s, size_t n);
static inline void buf_str(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }
static inline void buf_ch(struct buf *b, char c) { buf_add(b, &c, 1); }

#endif
