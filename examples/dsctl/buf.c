/* The text helpers of buf.h. */
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

int32_t utf8_decode(const unsigned char *s, size_t n, size_t *w)
{
	unsigned c = s[0];
	size_t need;
	int32_t r, min;
	*w = 1;
	if (c < 0x80)
		return (int32_t)c;
	if (c >= 0xC2 && c <= 0xDF)
		need = 1, r = c & 0x1F, min = 0x80;
	else if (c >= 0xE0 && c <= 0xEF)
		need = 2, r = c & 0x0F, min = 0x800;
	else if (c >= 0xF0 && c <= 0xF4)
		need = 3, r = c & 0x07, min = 0x10000;
	else
		return 0xFFFD;
	if (n < need + 1)
		return 0xFFFD;
	for (size_t i = 1; i <= need; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0xFFFD;
		r = r << 6 | (s[i] & 0x3F);
	}
	if (r < min || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF))
		return 0xFFFD;
	*w = need + 1;
	return r;
}
