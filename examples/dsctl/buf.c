/* The growing buffer of buf.h. */
#include <stdint.h>
#include <stdlib.h>

#include "buf.h"

void buf_add(struct buf *b, const void *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + n + 1) {
			if (cap > SIZE_MAX / 2) {
				b->oom = 1;
				return;
			}
			cap *= 2;
		}
		char *p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}
