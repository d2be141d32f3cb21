/* Layered topology counts (the CycleState's maps: interpodaffinity's topologyToMatchedTermCount,
 * podtopologyspread's TpValueToMatchNum), cloned in O(1). */
#include "sched/topocount.h"

#include <string.h>

/* A count in a map value: never NULL (bit 0 set). */
static void *enc(int64_t n) { return (void *)(uintptr_t)(((uint64_t)n << 1) | 1u); }
static int64_t dec(const void *v) { return v ? (int64_t)((intptr_t)(uintptr_t)v >> 1) : 0; }

void dsi_topocount_init(dsi_topocount *t, const dsi_topocount *base)
{
	memset(t, 0, sizeof(*t));
	dsi_map_init(&t->local);
	t->base = base;
	if (base) {
		t->present = base->present;
		t->nonzero = base->nonzero;
	}
}

void dsi_topocount_release(dsi_topocount *t)
{
	dsi_map_free(&t->local);
	memset(t, 0, sizeof(*t));
}

int dsi_topocount_has(const dsi_topocount *t, uint64_t key)
{
	for (; t; t = t->base)
		if (dsi_map_get(&t->local, key))
			return 1;
	return 0;
}

int64_t dsi_topocount_get(const dsi_topocount *t, uint64_t key)
{
	int64_t n = 0;
	for (; t; t = t->base)
		n += dec(dsi_map_get(&t->local, key));
	return n;
}

int dsi_topocount_add(dsi_topocount *t, uint64_t key, int64_t d, int64_t *now)
{
	int had = dsi_topocount_has(t, key);
	int64_t old = dsi_topocount_get(t, key), mine = dec(dsi_map_get(&t->local, key));
	if (dsi_map_put(&t->local, key, enc(mine + d)) < 0)
		return -1;
	int64_t n = old + d;
	t->present += !had;
	t->nonzero = t->nonzero + (n != 0) - (old != 0);
	if (now)
		*now = n;
	return 0;
}

void dsi_topocount_each(const dsi_topocount *root, void (*fn)(void *ctx, uint64_t key, int64_t n), void *ctx)
{
	for (size_t i = 0; i < root->local.cap; i++)
		if (root->local.vals[i])
			fn(ctx, root->local.keys[i], dec(root->local.vals[i]));
}
