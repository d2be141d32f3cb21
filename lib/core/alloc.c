#include "core/alloc.h"

#include <stdlib.h>

#include "daemonset.h"

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

/* ds_free: the one function callers use for memory the library returned. */
void ds_free(void *ptr) { dsi_free(ptr); }
