#define _DEFAULT_SOURCE /* MAP_ANONYMOUS: POSIX 2024, and in every libc for decades */
#include "core/alloc.h"

#include <stdlib.h>
#include <sys/mman.h>

#include "daemonset/common.h"

void *dsi_malloc(size_t n) { return malloc(n ? n : 1); }

void *dsi_calloc(size_t count, size_t size) { return calloc(count ? count : 1, size ? size : 1); }

void *dsi_realloc(void *p, size_t n) { return realloc(p, n ? n : 1); }

void *dsi_reallocarray(void *p, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	return dsi_realloc(p, count * size);
}

char *dsi_strndup(const char *s, size_t n)
{
	char *d = dsi_malloc(n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *dsi_strdup(const char *s) { return s ? dsi_strndup(s, strlen(s)) : NULL; }

void dsi_free(void *p) { free(p); }

#if (!defined(MAP_ANONYMOUS) || defined(DSI_SANITIZE_ADDRESS)) && !defined(DSI_BLOCKS_FROM_MALLOC)
#define DSI_BLOCKS_FROM_MALLOC 1
#endif
#define DSI_BLOCK_MAP_MIN ((size_t)64 * 1024) /* below, malloc serves well and a mapping wastes a page */

void *dsi_block_alloc(size_t n)
{
#ifndef DSI_BLOCKS_FROM_MALLOC
	if (n >= DSI_BLOCK_MAP_MIN) {
		void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
#endif
	return dsi_malloc(n);
}

void dsi_block_free(void *p, size_t n)
{
	if (!p)
		return;
#ifndef DSI_BLOCKS_FROM_MALLOC
	if (n >= DSI_BLOCK_MAP_MIN) {
		munmap(p, n);
		return;
	}
#endif
	(void)n;
	dsi_free(p);
}

int dsi_grow(void **items, size_t *cap, size_t need, size_t esz)
{
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -1;
		ncap *= 2;
	}
	void *p = dsi_reallocarray(*items, ncap, esz);
	if (!p)
		return -1;
	*items = p;
	*cap = ncap;
	return 0;
}
