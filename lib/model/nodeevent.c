#include "model/nodeevent.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/error.h"
#include "core/jsonscan.h"
#include "core/time.h"

/* Where in the Node the scan is: the objects whose members it looks at, and everything else. */
enum { AT_ROOT, AT_META, AT_STATUS, AT_COND, AT_OTHER };
/* The members it looks at. */
enum { K_OTHER, K_BAD, K_META, K_STATUS, K_KIND, K_API, K_NAME, K_RV, K_CONDS, K_IMAGES, K_HEARTBEAT };
/* What stands in the hash for a masked value. */
enum { MARK_END = 1, MARK_RV, MARK_HEARTBEAT, MARK_IMAGES };

typedef struct scan {
	const char *t;
	size_t n;
	size_t seg; /* the first byte not yet hashed */
	uint64_t h[2];
	dsi_node_event *out;
	const char *kind, *api;
	size_t kind_len, api_len;
} scan;

/* ---- the hash: two independent 64-bit lanes (xxHash64's round and finaliser, two seeds); a text's
 * 16-byte steps give one word to each lane, its tail and marks go to both ---- */

#define P1 0x9E3779B185EBCA87u
#define P2 0xC2B2AE3D27D4EB4Fu
#define P3 0x165667B19E3779F9u
#define P4 0x85EBCA77C2B2AE63u

static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static void mix(uint64_t h[2], uint64_t w)
{
	h[0] = rotl(h[0] + w * P2, 31) * P1;
	h[1] = rotl(h[1] ^ (w * P4), 27) * P3 + P4;
}

static uint64_t avalanche(uint64_t h)
{
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	return h ^ (h >> 32);
}

/* text[seg, upto) and then mark: the mark keeps apart texts whose bytes only join differently. */
static void flush(scan *s, size_t upto, unsigned mark)
{
	const char *p = s->t + s->seg;
	size_t n = upto - s->seg, i = 0;
	uint64_t w;
	/* 16 bytes a step, a word to each lane (the multiplications, not the bytes, bound this loop) */
	for (; i + 16 <= n; i += 16) {
		uint64_t w1;
		memcpy(&w, p + i, 8);
		memcpy(&w1, p + i + 8, 8);
		s->h[0] = rotl(s->h[0] + w * P2, 31) * P1;
		s->h[1] = rotl(s->h[1] ^ (w1 * P4), 27) * P3 + P4;
	}
	if (i + 8 <= n) {
		memcpy(&w, p + i, 8);
		mix(s->h, w);
		i += 8;
	}
	w = 0;
	memcpy(&w, p + i, n - i);
	mix(s->h, w);
	mix(s->h, ((uint64_t)mark << 56) ^ (uint64_t)n);
	s->seg = upto;
}

/* ---- the text ---- */

static size_t ws(const scan *s, size_t i) { return dsi_jsonscan_space(s->t, s->n, i); }

static int at(const scan *s, size_t i, char c) { return i < s->n && s->t[i] == c; }

/* The index after the string that starts at t[i] ('"'), 0 when it does not end. *plain: printable
 * ASCII without escapes, what the masked values and the keys read must be. */
static size_t str_end(const scan *s, size_t i, int *plain)
{
	*plain = 1;
	for (i++; i < s->n; i++) {
#ifdef __SSE2__
		/* 16 bytes at a time over what needs no look: printable ASCII but the quote and the
		 * backslash (an image's name, a label: the bulk of a Node's text) */
		for (; i + 16 <= s->n; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s->t + i));
			__m128i odd = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
								_mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
						   /* below 0x20, and (signed) from 0x80 on; and 0x7f */
						   _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
								_mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f))));
			unsigned m = (unsigned)_mm_movemask_epi8(odd);
			if (m) {
				i += (size_t)__builtin_ctz(m);
				break;
			}
		}
		if (i >= s->n)
			break;
#endif
		unsigned char c = (unsigned char)s->t[i];
		if (c == '"')
			return i + 1;
		if (c == '\\') {
			*plain = 0;
			i++;
		} else if (c < 0x20 || c > 0x7e) {
			*plain = 0;
		}
	}
	return 0;
}

/* The index after the value at t[i], 0 when it does not end. It need not check the value: the
 * bytes outside the masked values are hashed, and only a text the full path read before has them. */
static size_t value_end(const scan *s, size_t i)
{
	if (i >= s->n)
		return 0;
	char c = s->t[i];
	if (c == '"') {
		int plain;
		return str_end(s, i, &plain);
	}
	if (c == '{' || c == '[')
		return dsi_jsonscan_skip(s->t, s->n, i);
	size_t j = i;
	while (j < s->n && s->t[j] != ',' && s->t[j] != '}' && s->t[j] != ']' && s->t[j] != ' ' && s->t[j] != '\t' &&
	       s->t[j] != '\n' && s->t[j] != '\r')
		j++;
	return j;
}

/* Whether key[0, n) is word in another case: Go's decoder takes "ResourceVersion" for
 * resourceVersion (encoding/json matches member names case-insensitively). */
static int fold_equal(const char *key, size_t n, const char *word)
{
	size_t k = 0;
	for (; k < n && word[k]; k++) {
		char a = key[k], b = word[k];
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (a != b)
			return 0;
	}
	return k == n && !word[k];
}

/* Which member key[0, n) of an object at where is: K_BAD for a second spelling of one the scan reads. */
static int which(int where, const char *key, size_t n, int plain)
{
	static const struct {
		int where, id;
		const char *key;
	} keys[] = {{AT_ROOT, K_META, "metadata"},
		    {AT_ROOT, K_STATUS, "status"},
		    {AT_ROOT, K_KIND, "kind"},
		    {AT_ROOT, K_API, "apiVersion"},
		    {AT_META, K_NAME, "name"},
		    {AT_META, K_RV, "resourceVersion"},
		    {AT_STATUS, K_CONDS, "conditions"},
		    {AT_STATUS, K_IMAGES, "images"},
		    {AT_COND, K_HEARTBEAT, "lastHeartbeatTime"}};
	if (where == AT_OTHER)
		return K_OTHER;
	if (!plain) /* an escape may spell one of them */
		return K_BAD;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (keys[i].where != where || !fold_equal(key, n, keys[i].key))
			continue;
		return memcmp(key, keys[i].key, n) == 0 ? keys[i].id : K_BAD;
	}
	return K_OTHER;
}

/* A plain string value at t[i]: its bytes in *v, *len; the index after it, or 0. */
static size_t plain_string(const scan *s, size_t i, const char **v, size_t *len)
{
	int plain;
	size_t e = at(s, i, '"') ? str_end(s, i, &plain) : 0;
	if (!e || !plain)
		return 0;
	*v = s->t + i + 1;
	*len = e - i - 2;
	return e;
}

static int digits(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return n > 0;
}

/* metadata.resourceVersion as the API server writes it: decimal digits. */
static size_t rv_value(scan *s, size_t i)
{
	const char *v;
	size_t len, e = plain_string(s, i, &v, &len);
	if (!e || len > DSI_NODE_EVENT_RV_MAX || !digits(v, len))
		return 0;
	s->out->rv = v;
	s->out->rv_len = len;
	return e;
}

/* A heartbeat as kubelets write it, "2026-12-02T14:59:00Z", that the decoding check's
 * dsi_time_parse (metav1.Time) accepts. */
static size_t time_value(const scan *s, size_t i)
{
	const char *v;
	size_t len, e = plain_string(s, i, &v, &len);
	if (!e || len != 20 || !digits(v, 4) || v[4] != '-' || !digits(v + 5, 2) || v[7] != '-' || !digits(v + 8, 2) ||
	    v[10] != 'T' || !digits(v + 11, 2) || v[13] != ':' || !digits(v + 14, 2) || v[16] != ':' ||
	    !digits(v + 17, 2) || v[19] != 'Z')
		return 0;
	ds_time t;
	ds_error err;
	dsi_error_reset(&err); /* its strings' first bytes: a report is 720 bytes, and each condition has a time */
	return dsi_time_parse(v, len, &t, &err) == 0 ? e : 0;
}

/* A masked value: the bytes before it are hashed, then its mark; it may be the plain form (e, the
 * index after it) or not (0: it is hashed as it stands). */
static size_t masked(scan *s, size_t i, size_t e, unsigned mark)
{
	if (!e)
		return value_end(s, i);
	flush(s, i, mark);
	s->seg = e;
	return e;
}

static size_t object(scan *s, size_t i, int where);

/* status.conditions: each condition's members are looked at. */
static size_t conditions(scan *s, size_t i)
{
	i = ws(s, i + 1);
	if (at(s, i, ']'))
		return i + 1;
	for (;;) {
		size_t e = at(s, i, '{') ? object(s, i, AT_COND) : value_end(s, i);
		if (!e)
			return 0;
		i = ws(s, e);
		if (at(s, i, ']'))
			return i + 1;
		if (!at(s, i, ','))
			return 0;
		i = ws(s, i + 1);
	}
}

/* The object at t[i] ('{') at where: the index after it, or 0 when the scan cannot vouch for it. */
static size_t object(scan *s, size_t i, int where)
{
	unsigned seen = 0;
	i = ws(s, i + 1);
	if (at(s, i, '}'))
		return i + 1;
	for (;;) {
		int plain;
		size_t ke = at(s, i, '"') ? str_end(s, i, &plain) : 0;
		if (!ke)
			return 0;
		int id = which(where, s->t + i + 1, ke - i - 2, plain);
		if (id == K_BAD || (id != K_OTHER && (seen & (1u << id))))
			return 0; /* another spelling or a second time: the full path says what it means */
		seen |= 1u << id;
		i = ws(s, ke);
		if (!at(s, i, ':'))
			return 0;
		i = ws(s, i + 1);
		size_t e;
		switch (id) {
		case K_META: e = at(s, i, '{') ? object(s, i, AT_META) : value_end(s, i); break;
		case K_STATUS: e = at(s, i, '{') ? object(s, i, AT_STATUS) : value_end(s, i); break;
		case K_CONDS: e = at(s, i, '[') ? conditions(s, i) : value_end(s, i); break;
		case K_KIND:
			e = plain_string(s, i, &s->kind, &s->kind_len);
			if (!e)
				e = value_end(s, i);
			break;
		case K_API:
			e = plain_string(s, i, &s->api, &s->api_len);
			if (!e)
				e = value_end(s, i);
			break;
		case K_NAME:
			e = plain_string(s, i, &s->out->name, &s->out->name_len);
			if (!e)
				e = value_end(s, i);
			break;
		case K_RV: e = masked(s, i, rv_value(s, i), MARK_RV); break;
		case K_HEARTBEAT: e = masked(s, i, time_value(s, i), MARK_HEARTBEAT); break;
		case K_IMAGES: e = masked(s, i, dsi_jsonscan_plain_images(s->t, s->n, i), MARK_IMAGES); break;
		default: e = value_end(s, i); break;
		}
		if (!e)
			return 0;
		i = ws(s, e);
		if (at(s, i, '}'))
			return i + 1;
		if (!at(s, i, ','))
			return 0;
		i = ws(s, i + 1);
	}
}

static int is(const char *v, size_t n, const char *word) { return v && n == strlen(word) && memcmp(v, word, n) == 0; }

int dsi_node_event_scan(const char *text, size_t size, dsi_node_event *out)
{
	memset(out, 0, sizeof(*out));
	scan s = {.t = text, .n = size, .h = {0x243F6A8885A308D3u, 0x13198A2E03707344u}, .out = out};
	size_t i = ws(&s, 0);
	if (!at(&s, i, '{'))
		return 0;
	i = ws(&s, i + 1);
	int have_type = 0, have_object = 0;
	while (!at(&s, i, '}')) {
		const char *k, *v;
		size_t klen, vlen;
		if (!(i = plain_string(&s, i, &k, &klen)))
			return 0;
		i = ws(&s, i);
		if (!at(&s, i, ':'))
			return 0;
		i = ws(&s, i + 1);
		if (is(k, klen, "type") && !have_type++) {
			if (!(i = plain_string(&s, i, &v, &vlen)) || !(is(v, vlen, "ADDED") || is(v, vlen, "MODIFIED")))
				return 0;
			out->modified = is(v, vlen, "MODIFIED");
		} else if (is(k, klen, "object") && !have_object++) {
			if (!at(&s, i, '{'))
				return 0;
			s.seg = i;
			size_t e = object(&s, i, AT_ROOT);
			if (!e)
				return 0;
			flush(&s, e, MARK_END);
			i = e;
		} else { /* anything else: the full path */
			return 0;
		}
		i = ws(&s, i);
		if (at(&s, i, ','))
			i = ws(&s, i + 1);
		else if (!at(&s, i, '}'))
			return 0;
	}
	if (ws(&s, i + 1) != size || !have_type || !have_object || !out->name_len || !is(s.kind, s.kind_len, "Node") ||
	    !is(s.api, s.api_len, "v1"))
		return 0;
	out->hash[0] = avalanche(s.h[0]);
	out->hash[1] = avalanche(s.h[1]);
	return 1;
}
