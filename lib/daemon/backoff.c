#include "daemon/backoff.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/load.h"
#include "core/optparse.h"
#include "core/reader.h"
#include "core/time.h"
#include "model/meta.h"

void dsi_backoff_init(dsi_backoff *b) { memset(b, 0, sizeof(*b)); }

void dsi_backoff_free(dsi_backoff *b)
{
	for (size_t i = 0; i < b->n; i++)
		dsi_free(b->v[i].key);
	dsi_free(b->v);
	dsi_backoff_init(b);
}

int dsi_backoff_copy(const dsi_backoff *src, dsi_backoff *dst)
{
	dsi_backoff_init(dst);
	for (size_t i = 0; i < src->n; i++) {
		if (DSI_GROW(dst->v, dst->cap, dst->n + 1) < 0 || !(dst->v[dst->n].key = dsi_strdup(src->v[i].key))) {
			dsi_backoff_free(dst);
			return -1;
		}
		dst->v[dst->n].delay_ms = src->v[i].delay_ms;
		dst->v[dst->n].last_update = src->v[i].last_update;
		dst->n++;
	}
	return 0;
}

static dsi_backoff_entry *find(const dsi_backoff *b, const char *key)
{
	for (size_t i = 0; i < b->n; i++)
		if (strcmp(b->v[i].key, key) == 0)
			return &b->v[i];
	return NULL;
}

/* hasExpired (client-go flowcontrol/backoff.go) */
static int expired(const dsi_backoff_entry *e, ds_time now, int64_t max_ms)
{
	return now - e->last_update > 2 * max_ms;
}

/* Backoff.IsInBackOffSinceUpdate (client-go util/flowcontrol/backoff.go) */
int dsi_backoff_in_backoff(const dsi_backoff *b, const char *key, ds_time now, int64_t max_ms)
{
	const dsi_backoff_entry *e = find(b, key);
	if (!e || expired(e, now, max_ms))
		return 0;
	return now - e->last_update < e->delay_ms;
}

int64_t dsi_backoff_get(const dsi_backoff *b, const char *key)
{
	const dsi_backoff_entry *e = find(b, key);
	return e ? e->delay_ms : 0;
}

/* Backoff.Next (client-go util/flowcontrol/backoff.go) */
int dsi_backoff_next(dsi_backoff *b, const char *key, ds_time now, int64_t initial_ms, int64_t max_ms)
{
	dsi_backoff_entry *e = find(b, key);
	if (!e) {
		if (DSI_GROW(b->v, b->cap, b->n + 1) < 0)
			return -1;
		e = &b->v[b->n];
		if (!(e->key = dsi_strdup(key)))
			return -1;
		b->n++;
		e->delay_ms = initial_ms;
	} else if (expired(e, now, max_ms)) {
		e->delay_ms = initial_ms;
	} else {
		e->delay_ms = e->delay_ms * 2 < max_ms ? e->delay_ms * 2 : max_ms;
	}
	e->last_update = now;
	return 0;
}

/* Backoff.GC (client-go util/flowcontrol/backoff.go) */
void dsi_backoff_gc(dsi_backoff *b, ds_time now, int64_t max_ms)
{
	size_t w = 0;
	for (size_t i = 0; i < b->n; i++) {
		if (expired(&b->v[i], now, max_ms)) {
			dsi_free(b->v[i].key);
			continue;
		}
		b->v[w++] = b->v[i];
	}
	b->n = w;
}

int dsi_backoff_read(const char *text, size_t size, dsi_backoff *out, ds_error *err)
{
	dsi_backoff_init(out);
	if (!text || !size)
		return 0;
	json_t *root;
	int rc = dsi_json_loadb(text, size, JSON_REJECT_DUPLICATES, NULL, "backoff state: ", &root, err);
	if (rc < 0)
		return rc;
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	json_t *entries = NULL;
	if ((rc = dsi_rd_expect_object(&rd, root)) == 0)
		rc = dsi_rd_array(&rd, root, "entries", &entries);
	size_t i;
	json_t *e;
	size_t m = dsi_rd_push(&rd, "entries");
	json_array_foreach(entries, i, e)
	{
		if (rc < 0)
			break;
		size_t m2 = dsi_rd_push_index(&rd, i);
		const char *key, *delay, *last;
		int64_t ms;
		ds_time t;
		uint8_t present;
		if ((rc = dsi_rd_expect_object(&rd, e)) < 0 || (rc = dsi_rd_string(&rd, e, "key", &key)) < 0 ||
		    (rc = dsi_rd_string(&rd, e, "delay", &delay)) < 0 ||
		    (rc = dsi_rd_string(&rd, e, "lastUpdate", &last)) < 0 ||
		    (rc = dsi_rd_time(&rd, e, "lastUpdate", &t, &present)) < 0) {
			dsi_rd_pop(&rd, m2);
			break;
		}
		(void)last;
		if (!key || !present) {
			rc = dsi_rd_fail(&rd, key ? "lastUpdate" : "key", DS_EMISSING, "required value");
		} else if (!delay || dsi_parse_duration_ms(delay, &ms) < 0 || ms < 0) {
			rc = dsi_rd_fail(&rd, "delay", DS_EVALUE, "expected a duration such as 2s");
		} else if (DSI_GROW(out->v, out->cap, out->n + 1) < 0 || !(out->v[out->n].key = dsi_strdup(key))) {
			rc = dsi_error_nomem(err);
		} else {
			out->v[out->n].delay_ms = ms;
			out->v[out->n].last_update = t;
			out->n++;
		}
		dsi_rd_pop(&rd, m2);
	}
	dsi_rd_pop(&rd, m);
	json_decref(root);
	if (rc < 0) {
		dsi_error_prefix_path(err, "backoff");
		dsi_backoff_free(out);
	}
	return rc;
}

json_t *dsi_backoff_to_json(const dsi_backoff *b)
{
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < b->n; i++) {
		char t[40], d[40];
		dsi_time_format(b->v[i].last_update, t, sizeof(t));
		snprintf(d, sizeof(d), "%lldms", (long long)b->v[i].delay_ms);
		json_array_append_new(arr,
				      json_pack("{s:s, s:s, s:s}", "key", b->v[i].key, "delay", d, "lastUpdate", t));
	}
	return json_pack("{s:o}", "entries", arr ? arr : json_array());
}
