#include "core/sort.h"

#include <string.h>

#include "core/alloc.h"

static void sift_down(void **a, size_t start, size_t end, dsi_cmp_fn cmp, void *ctx)
{
	size_t root = start;
	for (;;) {
		size_t child = 2 * root + 1;
		if (child >= end)
			return;
		if (child + 1 < end && cmp(a[child], a[child + 1], ctx) < 0)
			child++;
		if (cmp(a[root], a[child], ctx) >= 0)
			return;
		void *t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

void dsi_sort_ptrs(void **items, size_t n, dsi_cmp_fn cmp, void *ctx)
{
	if (n < 2)
		return;
	for (size_t i = n / 2; i-- > 0;)
		sift_down(items, i, n, cmp, ctx);
	for (size_t end = n - 1; end > 0; end--) {
		void *t = items[0];
		items[0] = items[end];
		items[end] = t;
		sift_down(items, 0, end, cmp, ctx);
	}
}

static void insertion(char *a, size_t n, size_t esz, dsi_cmp_fn cmp, void *ctx, char *tmp)
{
	for (size_t i = 1; i < n; i++) {
		memcpy(tmp, a + i * esz, esz);
		size_t j = i;
		while (j > 0 && cmp(a + (j - 1) * esz, tmp, ctx) > 0) {
			memcpy(a + j * esz, a + (j - 1) * esz, esz);
			j--;
		}
		memcpy(a + j * esz, tmp, esz);
	}
}

static void merge_sort(char *a, char *buf, size_t n, size_t esz, dsi_cmp_fn cmp, void *ctx)
{
	if (n <= 16) {
		insertion(a, n, esz, cmp, ctx, buf);
		return;
	}
	size_t mid = n / 2;
	merge_sort(a, buf, mid, esz, cmp, ctx);
	merge_sort(a + mid * esz, buf, n - mid, esz, cmp, ctx);
	memcpy(buf, a, mid * esz);
	size_t i = 0, j = mid, k = 0;
	while (i < mid && j < n) {
		if (cmp(a + j * esz, buf + i * esz, ctx) < 0)
			memcpy(a + (k++) * esz, a + (j++) * esz, esz);
		else
			memcpy(a + (k++) * esz, buf + (i++) * esz, esz);
	}
	while (i < mid)
		memcpy(a + (k++) * esz, buf + (i++) * esz, esz);
}

void dsi_sort_stable(void *items, size_t n, size_t esz, dsi_cmp_fn cmp, void *ctx)
{
	if (n < 2)
		return;
	char *buf = dsi_reallocarray(NULL, n / 2 + 16, esz);
	if (!buf) { /* no memory: a stable insertion sort by swapping neighbours, slow but with no buffer */
		char *a = items;
		for (size_t i = 1; i < n; i++)
			for (size_t j = i; j > 0 && cmp(a + (j - 1) * esz, a + j * esz, ctx) > 0; j--)
				for (size_t b = 0; b < esz; b++) {
					char t = a[(j - 1) * esz + b];
					a[(j - 1) * esz + b] = a[j * esz + b];
					a[j * esz + b] = t;
				}
		return;
	}
	merge_sort(items, buf, n, esz, cmp, ctx);
	dsi_free(buf);
}
