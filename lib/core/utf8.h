/*
 * One UTF-8 sequence as jansson 2.14 accepts it (src/utf.c: utf8_check_first and utf8_check_full): no
 * continuation byte first, no overlong form, no surrogate, nothing above U+10FFFF. The library's JSON
 * reader (jsonfast.c) and writer (jsonout.c) hold strings to jansson's rule, so that a text either
 * gives is one jansson would read or write the same.
 */
#ifndef DSI_UTF8_H
#define DSI_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length of the sequence at s (n bytes there, s[0] >= 0x80) when jansson accepts it, else 0. */
static inline size_t dsi_utf8_len(const unsigned char *s, size_t n)
{
	size_t k = s[0] >= 0xC2 && s[0] <= 0xDF   ? 2
		   : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
		   : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
						  : 0;
	if (!k || k > n)
		return 0;
	uint32_t v = s[0] & (k == 2 ? 0x1Fu : k == 3 ? 0x0Fu : 0x07u);
	for (size_t i = 1; i < k; i++) {
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
		v = (v << 6) | (s[i] & 0x3Fu);
	}
	if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || (k == 2 && v < 0x80) || (k == 3 && v < 0x800) ||
	    (k == 4 && v < 0x10000))
		return 0;
	return k;
}

#endif
