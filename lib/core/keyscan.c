/* The keys of a JSON text with their paths and positions (keyscan.h). */
#include "core/keyscan.h"

#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "core/limits.h"
#include "core/strbuf.h"

void dsi_text_position(const char *text, size_t from, size_t to, int *line, int *column)
{
	for (size_t i = from; i < to; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*column = 1;
		} else if (((unsigned char)text[i] & 0xC0) != 0x80) {
			(*column)++;
		}
	}
}

/* A key seen in the open object: its decoded bytes in the arena. */
typedef struct seen_key {
	uint64_t hash;
	size_t off, len;
} seen_key;

/* Objects with more keys than this find repeats through a hash map. */
#define LINEAR_KEYS 16

typedef struct frame {
	int is_object;
	size_t path_len;  /* the path before this container's keys or indexes */
	size_t index;     /* arrays: the element being read */
	size_t first_key; /* objects: their keys are keys[first_key, nkeys) */
	size_t arena_len; /* the arena before this object's keys */
	dsi_map map;      /* hash -> 1 + index in keys, once the object is large */
} frame;

typedef struct scanner {
	const char *text;
	size_t pos, end;
	int line, column;
	dsi_strbuf path, arena;
	seen_key *keys;
	size_t nkeys, keys_cap;
	frame *stack;
	size_t depth, cap;
	const dsi_keyobs *obs;
	size_t document;
} scanner;

static void advance(scanner *s, size_t to)
{
	dsi_text_position(s->text, s->pos, to, &s->line, &s->column);
	s->pos = to;
}

static void skip_space(scanner *s)
{
	size_t i = s->pos;
	while (i < s->end && (s->text[i] == ' ' || s->text[i] == '\t' || s->text[i] == '\n' || s->text[i] == '\r'))
		i++;
	advance(s, i);
}

static int hexval(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

static int read_hex4(const char *p, const char *end, unsigned *out)
{
	if (end - p < 4)
		return -1;
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		int h = hexval(p[i]);
		if (h < 0)
			return -1;
		v = v << 4 | (unsigned)h;
	}
	*out = v;
	return 0;
}

static void put_utf8(dsi_strbuf *b, unsigned cp)
{
	char u[4];
	size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
	static const unsigned char lead[] = {0, 0, 0xC0, 0xE0, 0xF0};
	for (size_t i = n; i-- > 1; cp >>= 6)
		u[i] = (char)(0x80 | (cp & 0x3F));
	u[0] = (char)(lead[n] | cp);
	dsi_strbuf_append(b, u, n);
}

/* The string at s->pos (its opening quote), decoded onto the arena; moves past it. -1 when it is
 * not a well-formed string. */
static int read_string(scanner *s)
{
	const char *p = s->text + s->pos + 1, *end = s->text + s->end;
	while (p < end && *p != '"') {
		if (*p != '\\') {
			const char *q = p;
			while (q < end && *q != '"' && *q != '\\')
				q++;
			dsi_strbuf_append(&s->arena, p, (size_t)(q - p));
			p = q;
			continue;
		}
		if (end - p < 2)
			return -1;
		char c = p[1];
		p += 2;
		static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
		const char *k = memchr(from, c, sizeof(from) - 1);
		if (k) {
			dsi_strbuf_putc(&s->arena, to[k - from]);
			continue;
		}
		unsigned cp, lo;
		if (c != 'u' || read_hex4(p, end, &cp) < 0)
			return -1;
		p += 4;
		if (cp >= 0xD800 && cp < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u' &&
		    read_hex4(p + 2, end, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
			cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			p += 6;
		} else if (cp >= 0xD800 && cp < 0xE000) {
			cp = 0xFFFD;
		}
		put_utf8(&s->arena, cp);
	}
	if (p >= end)
		return -1;
	advance(s, (size_t)(p + 1 - s->text));
	return 0;
}

/* Skip a string without keeping it. */
static int skip_string(scanner *s)
{
	size_t arena = s->arena.len;
	int rc = read_string(s);
	dsi_strbuf_truncate(&s->arena, arena);
	return rc;
}

static int push(scanner *s, int is_object)
{
	if (s->depth >= DSI_MAX_DEPTH || DSI_GROW(s->stack, s->cap, s->depth + 1) < 0)
		return -1;
	frame *f = &s->stack[s->depth++];
	memset(f, 0, sizeof(*f));
	f->is_object = is_object;
	f->path_len = s->path.len;
	f->first_key = s->nkeys;
	f->arena_len = s->arena.len;
	dsi_map_init(&f->map);
	return 0;
}

static void pop(scanner *s)
{
	frame *f = &s->stack[--s->depth];
	dsi_map_free(&f->map);
	s->nkeys = f->first_key;
	dsi_strbuf_truncate(&s->arena, f->arena_len);
	dsi_strbuf_truncate(&s->path, f->path_len);
}

static int same_key(const scanner *s, const seen_key *k, uint64_t h, size_t off, size_t len)
{
	return k->hash == h && k->len == len && memcmp(s->arena.data + k->off, s->arena.data + off, len) == 0;
}

/* Whether the object f already has the key arena[off, off + len); records it. 1, 0, or -1 (memory). */
static int repeated(scanner *s, frame *f, size_t off, size_t len)
{
	uint64_t h = dsi_hash_bytes(s->arena.data + off, len);
	size_t n = s->nkeys - f->first_key;
	int dup = 0;
	if (n <= LINEAR_KEYS) {
		for (size_t i = f->first_key; i < s->nkeys && !dup; i++)
			dup = same_key(s, &s->keys[i], h, off, len);
	} else {
		void *at = dsi_map_get(&f->map, h);
		if (at) {
			dup = same_key(s, &s->keys[(uintptr_t)at - 1], h, off, len);
			/* two keys with one hash: compare them all */
			for (size_t i = f->first_key; i < s->nkeys && !dup; i++)
				dup = same_key(s, &s->keys[i], h, off, len);
		}
	}
	if (dup)
		return 1;
	if (DSI_GROW(s->keys, s->keys_cap, s->nkeys + 1) < 0)
		return -1;
	s->keys[s->nkeys] = (seen_key){h, off, len};
	s->nkeys++;
	if (n + 1 > LINEAR_KEYS) {
		if (n + 1 == LINEAR_KEYS + 1) /* the map starts: index what came before */
			for (size_t i = f->first_key; i + 1 < s->nkeys; i++)
				if (!dsi_map_get(&f->map, s->keys[i].hash) &&
				    dsi_map_put(&f->map, s->keys[i].hash, (void *)(uintptr_t)(i + 1)) < 0)
					return -1;
		if (!dsi_map_get(&f->map, h) && dsi_map_put(&f->map, h, (void *)(uintptr_t)s->nkeys) < 0)
			return -1;
	}
	return 0;
}

/* The key at s->pos of the object on top: read, reported, and made the last part of the path. */
static int read_key(scanner *s)
{
	frame *f = &s->stack[s->depth - 1];
	int line = s->line, column = s->column;
	size_t off = s->arena.len;
	if (read_string(s) < 0)
		return 1;
	size_t len = s->arena.len - off;
	int dup = repeated(s, f, off, len);
	if (dup < 0 || s->arena.oom)
		return DS_ENOMEM;
	dsi_strbuf_truncate(&s->path, f->path_len);
	if (f->path_len)
		dsi_strbuf_putc(&s->path, '.');
	size_t key = s->path.len;
	dsi_strbuf_append(&s->path, s->arena.data + off, len);
	if (s->path.oom)
		return DS_ENOMEM;
	if (!dup && !s->obs->all_keys)
		return 0;
	dsi_keyinfo k = {s->document, s->path.data, s->path.len, key, line, column, dup, 0};
	return s->obs->fn(s->obs->ctx, &k);
}

static int index_path(scanner *s)
{
	frame *f = &s->stack[s->depth - 1];
	dsi_strbuf_truncate(&s->path, f->path_len);
	dsi_strbuf_printf(&s->path, "[%zu]", f->index);
	return s->path.oom ? DS_ENOMEM : 0;
}

/* 0 when the scan ended (at the value's end or at anything unexpected), DS_ENOMEM otherwise. */
static int scan(scanner *s)
{
	enum { VALUE, AFTER_VALUE, KEY } want = VALUE;
	for (;;) {
		skip_space(s);
		if (s->pos >= s->end)
			return 0;
		char c = s->text[s->pos];
		int rc = 0;
		if (want == VALUE) {
			if (c == '{' || c == '[') {
				if (push(s, c == '{') < 0)
					return s->depth >= DSI_MAX_DEPTH ? 0 : DS_ENOMEM;
				advance(s, s->pos + 1);
				skip_space(s);
				char close = c == '{' ? '}' : ']';
				if (s->pos < s->end && s->text[s->pos] == close) {
					advance(s, s->pos + 1);
					pop(s);
					want = AFTER_VALUE;
				} else if (c == '{') {
					want = KEY;
				} else if ((rc = index_path(s)) != 0) {
					return rc;
				}
				continue;
			}
			if (c == '"') {
				if (skip_string(s) < 0)
					return 0;
			} else {
				size_t i = s->pos;
				while (i < s->end && !strchr(",]} \t\r\n", s->text[i]))
					i++;
				if (i == s->pos)
					return 0;
				advance(s, i);
			}
			want = AFTER_VALUE;
		} else if (want == AFTER_VALUE) {
			if (!s->depth)
				return 0;
			frame *f = &s->stack[s->depth - 1];
			if (c == ',') {
				advance(s, s->pos + 1);
				if (f->is_object) {
					want = KEY;
				} else {
					f->index++;
					if ((rc = index_path(s)) != 0)
						return rc;
					want = VALUE;
				}
			} else if (c == (f->is_object ? '}' : ']')) {
				advance(s, s->pos + 1);
				pop(s);
			} else {
				return 0;
			}
		} else {
			if (c != '"')
				return 0;
			if ((rc = read_key(s)) != 0)
				return rc < 0 ? rc : 0;
			skip_space(s);
			if (s->pos >= s->end || s->text[s->pos] != ':')
				return 0;
			advance(s, s->pos + 1);
			want = VALUE;
		}
	}
}

int dsi_json_scan_keys(const char *text, size_t start, size_t end, int line, int column, size_t document,
		       const dsi_keyobs *obs)
{
	scanner s;
	memset(&s, 0, sizeof(s));
	s.text = text;
	s.pos = start;
	s.end = end;
	s.line = line;
	s.column = column;
	s.obs = obs;
	s.document = document;
	/* both buffers exist from the start, so that an empty key is a pointer into one */
	dsi_strbuf_append(&s.path, "", 0);
	dsi_strbuf_append(&s.arena, "", 0);
	int rc = s.path.oom || s.arena.oom ? DS_ENOMEM : scan(&s);
	while (s.depth)
		pop(&s);
	dsi_strbuf_free(&s.path);
	dsi_strbuf_free(&s.arena);
	dsi_free(s.keys);
	dsi_free(s.stack);
	return rc;
}
