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

/* AddressSanitizer builds: pools that carve small objects out of blocks are bypassed, so that
 * every object has its own bounds (see DSI_BLOCKS_FROM_MALLOC below for valgrind). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DSI_SANITIZE_ADDRESS 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(DSI_SANITIZE_ADDRESS)
#define DSI_SANITIZE_ADDRESS 1
#endif

/*
 * Blocks of memory that live as long as a snapshot (the atoms' strings). At 64 KiB and more they
 * are mapped from the system: asking malloc for that much makes it consolidate its free lists
 * first, and an ingest leaves a whole parse tree's small chunks in them. n must be the size asked
 * for when freeing. Built with -DDSI_BLOCKS_FROM_MALLOC (make valgrind), or for AddressSanitizer,
 * they come from malloc so that a leaked block shows.
 */
void *dsi_block_alloc(size_t n);
void dsi_block_free(void *p, size_t n);

/*
 * Grow *items (of *cap elements of size esz) so that it holds at least
 * need elements; capacity doubles. Returns 0 or -1 (nothing changed).
 */
int dsi_grow(void **items, size_t *cap, size_t need, size_t esz);

#define DSI_GROW(arr, cap, need) dsi_grow((void **)&(arr), &(cap), (need), sizeof(*(arr)))

#define DSI_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
