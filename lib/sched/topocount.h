/* Counts per topology key (a topology pair, a domain, a node), layered so that a scheduling
 * cycle's state can be cloned in O(1): a clone reads through to the state it was cloned from and
 * keeps only its own changes (preemption clones the state once per try on every node; copying
 * counts that grow with the nodes there would make explaining a DaemonSet quadratic). */
#ifndef DSI_TOPOCOUNT_H
#define DSI_TOPOCOUNT_H

#include <stdint.h>

#include "core/hash.h"

typedef struct dsi_topocount {
	const struct dsi_topocount *base; /* NULL: the root; else read through (must outlive this) */
	dsi_map local;                    /* key -> this layer's count (root) or change (clone) */
	uint32_t present;                 /* keys ever added, zero counts included */
	uint32_t nonzero;                 /* keys whose count is not zero */
} dsi_topocount;

/* An empty root (base NULL), or a clone of base. */
void dsi_topocount_init(dsi_topocount *t, const dsi_topocount *base);
void dsi_topocount_release(dsi_topocount *t);
int dsi_topocount_has(const dsi_topocount *t, uint64_t key);
int64_t dsi_topocount_get(const dsi_topocount *t, uint64_t key);
/* Add d to key's count (the key becomes present, as a Go map entry made by +=); *now (may be
 * NULL) gets the new count. -1 without memory. */
int dsi_topocount_add(dsi_topocount *t, uint64_t key, int64_t d, int64_t *now);
/* Call fn for each key of a root with its count, in no particular order. */
void dsi_topocount_each(const dsi_topocount *root, void (*fn)(void *ctx, uint64_t key, int64_t n), void *ctx);

#endif
