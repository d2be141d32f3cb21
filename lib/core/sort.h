/* Sorting with a context argument (qsort has none; qsort_r is not portable). */
#ifndef DSI_SORT_H
#define DSI_SORT_H

#include <stddef.h>

typedef int (*dsi_cmp_fn)(const void *a, const void *b, void *ctx);

/* Heapsort of n pointers: in place, no allocation, O(n log n). Not stable. */
void dsi_sort_ptrs(void **items, size_t n, dsi_cmp_fn cmp, void *ctx);
/* Stable insertion-merge sort of n elements of size esz (allocates a buffer;
 * falls back to an in-place insertion sort, of any element size, when that fails). */
void dsi_sort_stable(void *items, size_t n, size_t esz, dsi_cmp_fn cmp, void *ctx);

#endif
