#include "core/jsonout.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/alloc.h"
#include "core/strbuf.h"
#include "core/utf8.h"

/*
 * Compact JSON, written here rather than by json_dump_callback: the same bytes as jansson 2.14's
 * dump (dump.c do_dump and dump_string) with JSON_COMPACT, with or without JSON_SORT_KEYS, at a
 * fraction of its cost (jansson inserts every array and object into a hash table of parents to
 * detect loops, formats each pointer with snprintf for it, calls the callback once per token and
 * looks every sorted key up again). Strings are copied as they are but for '"', '\\' and the
 * control characters, escaped as jansson escapes them; a string that is not valid UTF-8, a value
 * nested deeper than jansson's parser would build (a loop) or a real number hand the whole value
 * back to jansson, whose dump then decides (a loop or bad UTF-8 fails there too).
 */

/* How deep a value may nest before jansson's dump takes over (its parser stops at 2048). */
#define MAX_DEPTH 2048

typedef dsi_jout jout;

static int reserve(jout *o, size_t n)
{
	if (o->fail)
		return -1;
	if (o->cap - o->len > n)
		return 0;
	size_t cap = o->cap ? o->cap : 256;
	while (cap - o->len <= n) {
		if (cap > ((size_t)-1) / 2) {
			o->fail = -1;
			return -1;
		}
		cap *= 2;
	}
	char *p = dsi_realloc(o->p, cap);
	if (!p) {
		o->fail = -1;
		return -1;
	}
	o->p = p;
	o->cap = cap;
	return 0;
}

static void put(jout *o, const char *s, size_t n)
{
	if (reserve(o, n) == 0) {
		memcpy(o->p + o->len, s, n);
		o->len += n;
	}
}

static void putc_(jout *o, char c)
{
	if (reserve(o, 1) == 0)
		o->p[o->len++] = c;
}

/* How many bytes from s on (at most n) are copied as they are: printable ASCII but '"' and '\\'. Keys
 * and values are mostly such runs: 16 bytes are tested at a time where SSE2 is (x86-64's baseline). */
static size_t plain_run(const unsigned char *s, size_t n)
{
	size_t i = 0;
#if defined(__SSE2__)
	const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		/* signed: the bytes from 0x80 on are negative, so below 0x20 too */
		__m128i special = _mm_or_si128(_mm_cmplt_epi8(v, space),
					       _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
		unsigned m = (unsigned)_mm_movemask_epi8(special);
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	while (i < n && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\')
		i++;
	return i;
}

static void put_string(jout *o, const char *str, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *s = (const unsigned char *)str;
	/* at most 6 bytes for each input byte, and the quotes */
	if (n > ((size_t)-1) / 8 || reserve(o, 6 * n + 2) < 0) {
		o->fail = o->fail ? o->fail : -1;
		return;
	}
	char *w = o->p + o->len;
	*w++ = '"';
	size_t i = 0;
	while (i < n) {
		size_t run = plain_run(s + i, n - i);
		memcpy(w, s + i, run);
		w += run;
		if ((i += run) == n)
			break;
		unsigned char c = s[i];
		if (c >= 0x80) {
			size_t k = dsi_utf8_len(s + i, n - i);
			if (!k) {
				o->fail = 1;
				return;
			}
			memcpy(w, s + i, k);
			w += k;
			i += k;
			continue;
		}
		*w++ = '\\';
		switch (c) {
		case '"': *w++ = '"'; break;
		case '\\': *w++ = '\\'; break;
		case '\b': *w++ = 'b'; break;
		case '\f': *w++ = 'f'; break;
		case '\n': *w++ = 'n'; break;
		case '\r': *w++ = 'r'; break;
		case '\t': *w++ = 't'; break;
		default:
			*w++ = 'u';
			*w++ = '0';
			*w++ = '0';
			*w++ = hex[c >> 4];
			*w++ = hex[c & 15];
			break;
		}
		i++;
	}
	*w++ = '"';
	o->len = (size_t)(w - o->p);
}

static void put_integer(jout *o, json_int_t v)
{
	char buf[24], *e = buf + sizeof(buf), *b = e;
	/* as unsigned: the most negative value too */
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	do {
		*--b = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--b = '-';
	put(o, b, (size_t)(e - b));
}

typedef struct member {
	dsi_jout_keyed k; /* first: dsi_jout_sort_keyed */
	json_t *value;
} member;

int dsi_jout_key_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);
	return c ? c : (alen > blen) - (alen < blen);
}

/* jansson's compare_keys on the keys elements begin with */
static int keyed_cmp(const void *x, const void *y)
{
	const dsi_jout_keyed *a = x, *b = y;
	return dsi_jout_key_cmp(a->key, a->len, b->key, b->len);
}

void dsi_jout_sort_keyed(void *base, size_t n, size_t size)
{
	char tmp[DSI_JOUT_KEYED_MAX], *e = base;
	if (n > 8 || size > sizeof(tmp)) {
		qsort(base, n, size, keyed_cmp);
		return;
	}
	for (size_t i = 1; i < n; i++) /* most objects are small: an insertion sort */
		for (size_t j = i; j > 0 && keyed_cmp(e + (j - 1) * size, e + j * size) > 0; j--) {
			memcpy(tmp, e + j * size, size);
			memcpy(e + j * size, e + (j - 1) * size, size);
			memcpy(e + (j - 1) * size, tmp, size);
		}
}

static void put_value(jout *o, const json_t *v, int sort, int depth);

static void put_object(jout *o, const json_t *v, int sort, int depth)
{
	void *it = json_object_iter((json_t *)v);
	putc_(o, '{');
	if (!sort) {
		for (int first = 1; it && !o->fail; it = json_object_iter_next((json_t *)v, it), first = 0) {
			if (!first)
				putc_(o, ',');
			put_string(o, json_object_iter_key(it), json_object_iter_key_len(it));
			putc_(o, ':');
			put_value(o, json_object_iter_value(it), sort, depth + 1);
		}
		putc_(o, '}');
		return;
	}
	member small[32], *m = small;
	size_t n = json_object_size(v);
	if (n > sizeof(small) / sizeof(small[0]) && !(m = dsi_reallocarray(NULL, n, sizeof(*m)))) {
		o->fail = -1;
		return;
	}
	size_t k = 0;
	for (; it && k < n; it = json_object_iter_next((json_t *)v, it), k++)
		m[k] = (member){{json_object_iter_key(it), json_object_iter_key_len(it)}, json_object_iter_value(it)};
	dsi_jout_sort_keyed(m, k, sizeof(*m));
	for (size_t i = 0; i < k && !o->fail; i++) {
		if (i)
			putc_(o, ',');
		put_string(o, m[i].k.key, m[i].k.len);
		putc_(o, ':');
		put_value(o, m[i].value, sort, depth + 1);
	}
	putc_(o, '}');
	if (m != small)
		dsi_free(m);
}

static void put_value(jout *o, const json_t *v, int sort, int depth)
{
	if (o->fail)
		return;
	if (!v || depth > MAX_DEPTH) {
		o->fail = 1;
		return;
	}
	switch (json_typeof(v)) {
	case JSON_NULL: put(o, "null", 4); break;
	case JSON_TRUE: put(o, "true", 4); break;
	case JSON_FALSE: put(o, "false", 5); break;
	case JSON_INTEGER: put_integer(o, json_integer_value(v)); break;
	case JSON_STRING: put_string(o, json_string_value(v), json_string_length(v)); break;
	case JSON_ARRAY: {
		size_t n = json_array_size(v);
		putc_(o, '[');
		for (size_t i = 0; i < n && !o->fail; i++) {
			if (i)
				putc_(o, ',');
			put_value(o, json_array_get(v, i), sort, depth + 1);
		}
		putc_(o, ']');
		break;
	}
	case JSON_OBJECT: put_object(o, v, sort, depth); break;
	default: o->fail = 1; break; /* a real number: jansson's own formatting */
	}
}

int dsi_jout_reserve(dsi_jout *o, size_t n) { return reserve(o, n); }
void dsi_jout_put(dsi_jout *o, const char *s, size_t n) { put(o, s, n); }

void dsi_jout_key(dsi_jout *o, int first, const char *key, size_t n)
{
	if (!first)
		putc_(o, ',');
	put_string(o, key, n);
	putc_(o, ':');
}
void dsi_jout_string(dsi_jout *o, const char *s, size_t n)
{
	if (!o->fail)
		put_string(o, s, n);
}
void dsi_jout_integer(dsi_jout *o, json_int_t v) { put_integer(o, v); }
void dsi_jout_value(dsi_jout *o, const json_t *v, int depth) { put_value(o, v, 1, depth); }

char *dsi_jout_finish(dsi_jout *o)
{
	if (o->fail == 0 && reserve(o, 1) == 0) {
		o->p[o->len] = '\0';
		return o->p;
	}
	dsi_free(o->p);
	o->p = NULL;
	o->len = o->cap = 0;
	return NULL;
}

static int to_strbuf(const char *buf, size_t size, void *data)
{
	dsi_strbuf *b = data;
	dsi_strbuf_append(b, buf, size);
	return b->oom ? -1 : 0;
}

/* jansson's dump of v (the values this file hands back) */
static char *jansson_dumps(const json_t *v, size_t flags)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	if (!v || json_dump_callback(v, to_strbuf, &b, flags | JSON_ENCODE_ANY) < 0) {
		dsi_strbuf_free(&b);
		return NULL;
	}
	return dsi_strbuf_detach(&b);
}

char *dsi_json_dumps(const json_t *v, size_t flags)
{
	if (!v)
		return NULL;
	/* only the compact forms are written here */
	if ((flags & ~(size_t)(JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER)) ||
	    !(flags & JSON_COMPACT))
		return jansson_dumps(v, flags);
	jout o = DSI_JOUT_INIT;
	put_value(&o, v, (flags & JSON_SORT_KEYS) != 0, 0);
	char *text = dsi_jout_finish(&o);
	return text || o.fail < 0 ? text : jansson_dumps(v, flags);
}

int dsi_json_emit_shared(const json_t *v, char **out, ds_error *err)
{
	*out = dsi_json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	return *out ? 0 : dsi_error_nomem(err);
}

int dsi_json_emit(json_t *v, char **out, ds_error *err)
{
	int rc = dsi_json_emit_shared(v, out, err);
	json_decref(v);
	return rc;
}
