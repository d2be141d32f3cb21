#include "core/hash.h"

#include <string.h>

#include "core/alloc.h"

uint64_t dsi_hash_bytes(const void *data, size_t n)
{
	/* FNV-1a over 64 bits, then a finaliser so that short keys spread. */
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return dsi_hash_u64(h);
}

void dsi_map_init(dsi_map *m) { memset(m, 0, sizeof(*m)); }

void dsi_map_free(dsi_map *m)
{
	dsi_free(m->keys);
	dsi_free(m->vals);
	dsi_map_init(m);
}

void *dsi_map_get(const dsi_map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	size_t mask = m->cap - 1;
	for (size_t i = dsi_hash_u64(key) & mask;; i = (i + 1) & mask) {
		if (!m->vals[i])
			return NULL;
		if (m->keys[i] == key)
			return m->vals[i];
	}
}

static void raw_put(uint64_t *keys, void **vals, size_t cap, uint64_t key, void *val)
{
	size_t mask = cap - 1;
	size_t i = dsi_hash_u64(key) & mask;
	while (vals[i] && keys[i] != key)
		i = (i + 1) & mask;
	keys[i] = key;
	vals[i] = val;
}

static int rehash(dsi_map *m, size_t ncap)
{
	uint64_t *keys = dsi_calloc(ncap, sizeof(*keys));
	void **vals = dsi_calloc(ncap, sizeof(*vals));
	if (!keys || !vals) {
		dsi_free(keys);
		dsi_free(vals);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->vals[i])
			raw_put(keys, vals, ncap, m->keys[i], m->vals[i]);
	dsi_free(m->keys);
	dsi_free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = ncap;
	return 0;
}

int dsi_map_reserve(dsi_map *m, size_t n)
{
	size_t need = m->count + n;
	if (need < m->count)
		return -1;
	size_t ncap = m->cap ? m->cap : 16;
	while (ncap / 2 < need) {
		if (ncap > ((size_t)-1) / 4)
			return -1;
		ncap *= 2;
	}
	return ncap == m->cap ? 0 : rehash(m, ncap);
}

int dsi_map_put(dsi_map *m, uint64_t key, void *val)
{
	if (!dsi_map_get(m, key)) {
		if (dsi_map_reserve(m, 1) < 0)
			return -1;
		m->count++;
	}
	raw_put(m->keys, m->vals, m->cap, key, val);
	return 0;
}

void *dsi_map_del(dsi_map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	size_t mask = m->cap - 1;
	size_t i = dsi_hash_u64(key) & mask;
	while (m->vals[i] && m->keys[i] != key)
		i = (i + 1) & mask;
	void *old = m->vals[i];
	if (!old)
		return NULL;
	/* backward-shift: pull later members of the probe run into the hole */
	size_t hole = i;
	for (size_t j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
		size_t home = dsi_hash_u64(m->keys[j]) & mask;
		/* move j into hole unless home lies cyclically in (hole, j] */
		int stays = (hole <= j) ? (hole < home && home <= j) : (hole < home || home <= j);
		if (!stays) {
			m->keys[hole] = m->keys[j];
			m->vals[hole] = m->vals[j];
			hole = j;
		}
	}
	m->vals[hole] = NULL;
	m->keys[hole] = 0;
	m->count--;
	return old;
}

int dsi_map_copy(dsi_map *dst, const dsi_map *src)
{
	dsi_map_init(dst);
	if (!src->cap)
		return 0;
	dst->keys = dsi_malloc(src->cap * sizeof(*dst->keys));
	dst->vals = dsi_malloc(src->cap * sizeof(*dst->vals));
	if (!dst->keys || !dst->vals) {
		dsi_map_free(dst);
		return -1;
	}
	memcpy(dst->keys, src->keys, src->cap * sizeof(*dst->keys));
	memcpy(dst->vals, src->vals, src->cap * sizeof(*dst->vals));
	dst->cap = src->cap;
	dst->count = src->count;
	return 0;
}
