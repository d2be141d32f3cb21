/* Memory helpers and growable arrays used by every layer. */
#ifndef DSI_ALLOC_H
#define DSI_ALLOC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

void *dsi_malloc(size_t n);
void *dsi_calloc(size_t count, size_t size);
void *dsi_realloc(void *p, size_t n);
/* realloc to count*size with overflow checking; NULL (p untouched) on failure. */
void *dsi_reallocarray(void *p, size_t count, size_t size);
char *dsi_strdup(const char *s);
char *dsi_strndup(const char *s, size_t n);
void dsi_free(void *p);

/*
 * Grow *items (of *cap elements of size esz) so that it holds at least
 * need elements; capacity doubles. Returns 0 or -1 (nothing changed).
 */
int dsi_grow(void **items, size_t *cap, size_t need, size_t esz);

#define DSI_GROW(arr, cap, need) dsi_grow((void **)&(arr), &(cap), (need), sizeof(*(arr)))

#define DSI_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
