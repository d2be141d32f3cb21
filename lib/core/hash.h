/* Hashing and a u64-keyed open-addressing map used by the snapshot indexes. */
#ifndef DSI_HASH_H
#define DSI_HASH_H

#include <stddef.h>
#include <stdint.h>

uint64_t dsi_hash_bytes(const void *data, size_t n);

static inline uint64_t dsi_hash_u64(uint64_t x)
{
	/* splitmix64 finaliser: cheap and mixes every bit */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/*
 * Map from a 64-bit key to a non-NULL pointer. Linear probing with
 * backward-shift deletion (no tombstones), load factor at most 1/2.
 * Lookups never modify the map, so they are safe from several threads.
 */
typedef struct dsi_map {
	uint64_t *keys;
	void **vals; /* NULL marks an empty slot */
	size_t cap;  /* power of two, or 0 */
	size_t count;
} dsi_map;

void dsi_map_init(dsi_map *m);
void dsi_map_free(dsi_map *m);
void *dsi_map_get(const dsi_map *m, uint64_t key);
/* Insert or replace; returns 0 or -1 on allocation failure (map unchanged). */
int dsi_map_put(dsi_map *m, uint64_t key, void *val);
/* Make room for n more entries so that the next n puts cannot fail. */
int dsi_map_reserve(dsi_map *m, size_t n);
/* Remove; returns the old value or NULL. */
void *dsi_map_del(dsi_map *m, uint64_t key);
int dsi_map_copy(dsi_map *dst, const dsi_map *src);

static inline uint64_t dsi_key2(uint32_t a, uint32_t b) { return ((uint64_t)a << 32) | b; }

#endif
