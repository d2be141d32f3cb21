#include "controller/table.h"

#include <string.h>

#include "core/alloc.h"

void dsi_dstable_init(dsi_dstable *t)
{
	memset(t, 0, sizeof(*t));
	dsi_map_init(&t->by_hash);
}

static void state_free(dsi_dsstate *s)
{
	dsi_backoff_free(&s->backoff);
	dsi_free(s->key);
	dsi_free(s);
}

void dsi_dstable_free(dsi_dstable *t)
{
	for (size_t i = 0; i < t->n; i++)
		state_free(t->all[i]);
	dsi_free(t->all);
	dsi_map_free(&t->by_hash);
	memset(t, 0, sizeof(*t));
}

static uint64_t key_hash(const char *key)
{
	/* 0 is a valid map key, but keep it away from accidental zero-initialised lookups */
	return dsi_hash_bytes(key, strlen(key)) | 1;
}

dsi_dsstate *dsi_dstable_get(const dsi_dstable *t, const char *key)
{
	for (dsi_dsstate *s = dsi_map_get(&t->by_hash, key_hash(key)); s; s = s->chain)
		if (strcmp(s->key, key) == 0)
			return s;
	return NULL;
}

dsi_dsstate *dsi_dstable_ensure(dsi_dstable *t, const char *key)
{
	dsi_dsstate *s = dsi_dstable_get(t, key);
	if (s)
		return s;
	if (DSI_GROW(t->all, t->cap, t->n + 1) < 0 || dsi_map_reserve(&t->by_hash, 1) < 0)
		return NULL;
	s = dsi_calloc(1, sizeof(*s));
	if (!s || !(s->key = dsi_strdup(key))) {
		dsi_free(s);
		return NULL;
	}
	const char *slash = strchr(key, '/');
	s->ns_len = slash ? (size_t)(slash - key) : 0;
	dsi_backoff_init(&s->backoff);
	uint64_t h = key_hash(key);
	s->chain = dsi_map_get(&t->by_hash, h);
	dsi_map_put(&t->by_hash, h, s); /* reserved: cannot fail */
	s->index = (uint32_t)t->n;
	t->all[t->n++] = s;
	return s;
}

void dsi_dstable_gc(dsi_dstable *t, dsi_dsstate *s)
{
	if (!s || s->exp_set || s->queued || s->waiting || s->failures || s->backoff.n)
		return;
	uint64_t h = key_hash(s->key);
	dsi_dsstate *head = dsi_map_get(&t->by_hash, h), **pp = &head;
	while (*pp && *pp != s)
		pp = &(*pp)->chain;
	if (*pp)
		*pp = s->chain;
	if (head)
		dsi_map_put(&t->by_hash, h, head); /* replaces: no allocation */
	else
		dsi_map_del(&t->by_hash, h);
	t->all[s->index] = t->all[--t->n];
	t->all[s->index]->index = s->index;
	state_free(s);
}
