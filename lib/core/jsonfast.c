/*
 * The fast JSON reader (core/jsonfast.h). It reads the grammar jansson 2.14 accepts (src/load.c:
 * lex_scan, lex_scan_string, lex_scan_number, parse_object, parse_array, parse_json) and builds
 * the tree with the constructors jansson's parser calls, in the same order, so that the tree is
 * jansson's. It accepts only a subset of what jansson accepts, and gives up (NULL) on the rest:
 * the caller's json_loadb then reads the text, to the same tree or to jansson's error.
 */
#include "core/jsonfast.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/alloc.h"
#include "core/numfmt.h"
#include "core/utf8.h"

#define FAST_FLAGS (JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY)
#define NO_CUT SIZE_MAX

typedef struct reader {
	const char *s;
	size_t n, p;             /* the text and where the reading is */
	size_t cut_from, cut_to; /* text[cut_from, cut_to) is read as [] (NO_CUT: none) */
	int cut_made;
	int reject_dups; /* JSON_REJECT_DUPLICATES */
	char *buf;       /* the unescaped bytes of a string with escapes */
	size_t cap;
} reader;

/* JSON's whitespace, as jansson's lex_scan skips it. Most calls stand on a token already; the rest
 * are mostly a pretty-printed text's newline and indentation, 16 bytes at a time with SSE2. */
static inline size_t skip_space(const char *s, size_t n, size_t p)
{
	if (p < n && (unsigned char)s[p] > ' ')
		return p;
#if defined(__SSE2__)
	const __m128i sp = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n'), tab = _mm_set1_epi8('\t'),
		      cr = _mm_set1_epi8('\r');
	while (n - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + p));
		__m128i space = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, nl)),
					     _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, cr)));
		unsigned other = (unsigned)_mm_movemask_epi8(space) ^ 0xFFFFu;
		if (other)
			return p + (size_t)__builtin_ctz(other);
		p += 16;
	}
#endif
	while (p < n && (s[p] == ' ' || s[p] == '\n' || s[p] == '\t' || s[p] == '\r'))
		p++;
	return p;
}

/* Whether byte c ends a plain run of string bytes: '"', '\\', a control character (which jansson
 * refuses in strings) or a byte >= 0x80 (whose UTF-8 sequence is to be checked). */
static inline int special(unsigned char c) { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80; }

/* The index of the first special byte at or after p, or n. Most of a Kubernetes object's text is
 * string bytes, so this loop is most of the reading: 16 bytes at a time with SSE2, else 8 (a byte
 * is flagged when it is below 0x20, at or above 0x80, or equal to '"' or '\\'; the classic
 * has-less/has-zero tricks flag false bytes only above a true one, so a flagged word has one). */
static inline size_t scan_plain(const char *s, size_t n, size_t p)
{
#if defined(__SSE2__)
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), ctl = _mm_set1_epi8(0x1f);
	while (n - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + p));
		__m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
					   _mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v));
		unsigned mask = (unsigned)(_mm_movemask_epi8(hit) | _mm_movemask_epi8(v));
		if (mask)
			return p + (size_t)__builtin_ctz(mask);
		p += 16;
	}
#endif
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	while (n - p >= 8) {
		uint64_t w;
		memcpy(&w, s + p, 8);
		uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
		uint64_t hit = ((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b) | w;
		if (hit & highs)
			break;
		p += 8;
	}
	while (p < n && !special((unsigned char)s[p]))
		p++;
	return p;
}

static int hex4(const char *h, uint32_t *out)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++) {
		char c = h[i];
		uint32_t d;
		if (c >= '0' && c <= '9')
			d = (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (uint32_t)(c - 'A' + 10);
		else
			return 0;
		v = v << 4 | d;
	}
	*out = v;
	return 1;
}

/* jansson's utf8_encode of a code point jansson's decoding produced (never 0, never a surrogate). */
static size_t utf8_put(uint32_t c, char *t)
{
	if (c < 0x80) {
		t[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		t[0] = (char)(0xC0 | (c >> 6));
		t[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		t[0] = (char)(0xE0 | (c >> 12));
		t[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		t[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	t[0] = (char)(0xF0 | (c >> 18));
	t[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	t[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	t[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

/* The escape at s[p] ('\\' there) unescaped at t as jansson's lex_scan_string does: its length in
 * the text (*used) and in t (returned), or 0 to give up: an unknown escape or bad hex digits
 * (jansson's "invalid escape"), "\u0000" (refused in values and keys alike), a lone surrogate or a
 * high one followed by anything but a low one (jansson's errors). */
static size_t unescape(const char *s, size_t n, size_t p, char *t, size_t *used)
{
	if (n - p < 2)
		return 0;
	*used = 2;
	switch (s[p + 1]) {
	case '"': *t = '"'; return 1;
	case '\\': *t = '\\'; return 1;
	case '/': *t = '/'; return 1;
	case 'b': *t = '\b'; return 1;
	case 'f': *t = '\f'; return 1;
	case 'n': *t = '\n'; return 1;
	case 'r': *t = '\r'; return 1;
	case 't': *t = '\t'; return 1;
	case 'u': break;
	default: return 0;
	}
	uint32_t c, lo;
	if (n - p < 6 || !hex4(s + p + 2, &c) || c == 0 || (c >= 0xDC00 && c <= 0xDFFF))
		return 0;
	*used = 6;
	if (c >= 0xD800 && c <= 0xDBFF) {
		if (n - p < 12 || s[p + 6] != '\\' || s[p + 7] != 'u' || !hex4(s + p + 8, &lo) || lo < 0xDC00 ||
		    lo > 0xDFFF)
			return 0;
		c = ((c - 0xD800) << 10) + (lo - 0xDC00) + 0x10000;
		*used = 12;
	}
	return utf8_put(c, t);
}

/* Room in r->buf for m bytes after its first t. */
static int reserve(reader *r, size_t t, size_t m)
{
	if (m <= r->cap - t)
		return 1;
	size_t cap = r->cap ? r->cap : 256;
	while (cap - t < m) {
		if (cap > SIZE_MAX / 2)
			return 0;
		cap *= 2;
	}
	char *b = dsi_realloc(r->buf, cap);
	if (!b)
		return 0;
	r->buf = b;
	r->cap = cap;
	return 1;
}

/* The string whose opening quote is at r->p: its bytes at *out (the text itself, or r->buf when it
 * has escapes, valid until the next string), r->p after its closing quote; 0 to give up. */
static int read_string(reader *r, const char **out, size_t *len)
{
	const char *s = r->s;
	size_t n = r->n, start = r->p + 1, q = start;
	for (;;) {
		q = scan_plain(s, n, q);
		if (q >= n)
			return 0; /* no closing quote: jansson's "premature end of input" */
		unsigned char c = (unsigned char)s[q];
		if (c == '"') {
			*out = s + start;
			*len = q - start;
			r->p = q + 1;
			return 1;
		}
		if (c == '\\')
			break;
		if (c < 0x20)
			return 0;
		size_t k = dsi_utf8_len((const unsigned char *)s + q, n - q);
		if (!k)
			return 0;
		q += k;
	}
	/* escapes: unescaped into r->buf, grown as the string needs (not to the rest of the text's
	 * length, which for a whole List read at once would be hundreds of megabytes) */
	size_t t = q - start;
	if (!reserve(r, 0, t + 4)) /* never memcpy to a NULL buffer */
		return 0;
	memcpy(r->buf, s + start, t);
	for (;;) {
		unsigned char c = (unsigned char)s[q];
		if (c == '"')
			break;
		if (c == '\\') {
			size_t used, m;
			if (!reserve(r, t, 4) || !(m = unescape(s, n, q, r->buf + t, &used)))
				return 0;
			t += m;
			q += used;
		} else if (c < 0x20) {
			return 0;
		} else if (c >= 0x80) {
			size_t k = dsi_utf8_len((const unsigned char *)s + q, n - q);
			if (!k || !reserve(r, t, k))
				return 0;
			memcpy(r->buf + t, s + q, k);
			t += k;
			q += k;
		} else {
			size_t e = scan_plain(s, n, q);
			if (!reserve(r, t, e - q))
				return 0;
			memcpy(r->buf + t, s + q, e - q);
			t += e - q;
			q = e;
		}
		if (q >= n)
			return 0;
	}
	*out = r->buf;
	*len = t;
	r->p = q + 1;
	return 1;
}

static inline int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The number at r->p, read as jansson's lex_scan_number does: without a fraction or an exponent an
 * integer with strtoll's value (jansson refuses one beyond int64: give up), else a real with
 * strtod's (jansson's jsonp_strtod: the C locale's, which dsi_parse_double is; jansson refuses an
 * overflow to infinity, and keeps an underflow's value). A form jansson's lexer refuses ("01",
 * "1.", "-", "1e+") gives up; what follows the number is the caller's to check, as in jansson. */
static json_t *read_number(reader *r)
{
	const char *s = r->s;
	size_t n = r->n, p = r->p, start = p;
	int neg = 0;
	if (s[p] == '-') {
		neg = 1;
		p++;
	}
	if (p >= n || !is_digit(s[p]))
		return NULL;
	size_t digits = p;
	if (s[p] == '0') {
		p++;
		if (p < n && is_digit(s[p]))
			return NULL;
	} else {
		while (p < n && is_digit(s[p]))
			p++;
	}
	if (p >= n || (s[p] != '.' && s[p] != 'e' && s[p] != 'E')) {
		/* strtoll: at most 9223372036854775807, or ...808 negative */
		uint64_t v = 0;
		const uint64_t limit = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
		for (size_t i = digits; i < p; i++) {
			unsigned d = (unsigned)(s[i] - '0');
			if (v > (limit - d) / 10)
				return NULL;
			v = v * 10 + d;
		}
		r->p = p;
		json_int_t i =
			neg ? (v == (uint64_t)INT64_MAX + 1u ? (json_int_t)INT64_MIN : -(json_int_t)v) : (json_int_t)v;
		return json_integer(i);
	}
	if (s[p] == '.') {
		p++;
		if (p >= n || !is_digit(s[p]))
			return NULL;
		while (p < n && is_digit(s[p]))
			p++;
	}
	if (p < n && (s[p] == 'e' || s[p] == 'E')) {
		p++;
		if (p < n && (s[p] == '+' || s[p] == '-'))
			p++;
		if (p >= n || !is_digit(s[p]))
			return NULL;
		while (p < n && is_digit(s[p]))
			p++;
	}
	double d;
	if (dsi_parse_double(s + start, p - start, &d) < 0 || isinf(d) || isnan(d))
		return NULL;
	r->p = p;
	return json_real(d);
}

static json_t *read_value(reader *r, size_t depth);

static json_t *give_up(json_t *partial)
{
	json_decref(partial);
	return NULL;
}

/* The object at r->p ('{'): members in the text's order, each set as jansson's parse_object sets it.
 * Under JSON_REJECT_DUPLICATES a repeated key gives up (jansson's error), found by counting the
 * members set against the object's size; without it the tree is already jansson's (the same
 * json_object_setn_new_nocheck in the same order: the later value in the earlier key's place). */
static json_t *read_object(reader *r, size_t depth)
{
	const char *s = r->s;
	size_t n = r->n;
	json_t *o = json_object();
	if (!o)
		return NULL;
	r->p = skip_space(s, n, r->p + 1);
	if (r->p < n && s[r->p] == '}') {
		r->p++;
		return o;
	}
	size_t count = 0;
	for (;;) {
		if (r->p >= n || s[r->p] != '"')
			return give_up(o);
		const char *k;
		size_t klen;
		if (!read_string(r, &k, &klen))
			return give_up(o);
		char *own = NULL; /* a key with escapes, out of the buffer the value's strings reuse */
		if (k == r->buf) {
			if (!(own = dsi_malloc(klen ? klen : 1)))
				return give_up(o);
			memcpy(own, k, klen);
			k = own;
		}
		r->p = skip_space(s, n, r->p);
		json_t *v = NULL;
		if (r->p < n && s[r->p] == ':') {
			r->p = skip_space(s, n, r->p + 1);
			v = read_value(r, depth + 1);
		}
		/* json_object_setn_new_nocheck releases v when it fails */
		int set = v ? json_object_setn_new_nocheck(o, k, klen, v) : -1;
		dsi_free(own);
		if (set < 0)
			return give_up(o);
		count++;
		r->p = skip_space(s, n, r->p);
		if (r->p < n && s[r->p] == ',') {
			r->p = skip_space(s, n, r->p + 1);
			continue;
		}
		if (r->p < n && s[r->p] == '}') {
			r->p++;
			break;
		}
		return give_up(o);
	}
	return !r->reject_dups || json_object_size(o) == count ? o : give_up(o);
}

static json_t *read_array(reader *r, size_t depth)
{
	const char *s = r->s;
	size_t n = r->n;
	json_t *a = json_array();
	if (!a)
		return NULL;
	r->p = skip_space(s, n, r->p + 1);
	if (r->p < n && s[r->p] == ']') {
		r->p++;
		return a;
	}
	for (;;) {
		json_t *v = read_value(r, depth + 1);
		if (!v || json_array_append_new(a, v) < 0) /* which releases v when it fails */
			return give_up(a);
		r->p = skip_space(s, n, r->p);
		if (r->p < n && s[r->p] == ',') {
			r->p = skip_space(s, n, r->p + 1);
			continue;
		}
		if (r->p < n && s[r->p] == ']') {
			r->p++;
			return a;
		}
		return give_up(a);
	}
}

/* true, false or null at r->p: jansson's lexer reads a word of letters, so a letter after it makes
 * another word (its "invalid token"). */
static json_t *read_word(reader *r, const char *word, size_t len, json_t *value)
{
	const char *s = r->s;
	size_t p = r->p;
	if (r->n - p < len || memcmp(s + p, word, len) != 0)
		return NULL;
	p += len;
	if (p < r->n && ((s[p] >= 'a' && s[p] <= 'z') || (s[p] >= 'A' && s[p] <= 'Z')))
		return NULL;
	r->p = p;
	return value;
}

/* The value at r->p (not space), depth levels deep (the root is 1, as in jansson). */
static json_t *read_value(reader *r, size_t depth)
{
	if (depth > DSI_JSON_FAST_MAX_DEPTH || r->p >= r->n)
		return NULL;
	if (r->p == r->cut_from && !r->cut_made) {
		r->cut_made = 1;
		r->p = r->cut_to;
		return json_array();
	}
	switch (r->s[r->p]) {
	case '{': return read_object(r, depth);
	case '[': return read_array(r, depth);
	case '"': {
		const char *v;
		size_t len;
		if (!read_string(r, &v, &len))
			return NULL;
		return json_stringn_nocheck(v, len);
	}
	case 't': return read_word(r, "true", 4, json_true());
	case 'f': return read_word(r, "false", 5, json_false());
	case 'n': return read_word(r, "null", 4, json_null());
	default: return read_number(r);
	}
}

static json_t *load(const char *text, size_t n, size_t from, size_t to, size_t flags, json_error_t *je)
{
	if (!text || (flags & ~(size_t)FAST_FLAGS) || n > (size_t)INT_MAX)
		return NULL;
	reader r = {text, n, skip_space(text, n, 0), from, to, 0, (flags & JSON_REJECT_DUPLICATES) != 0, NULL, 0};
	if (r.p >= n || (!(flags & JSON_DECODE_ANY) && text[r.p] != '{' && text[r.p] != '['))
		return NULL;
	json_t *v = read_value(&r, 1);
	dsi_free(r.buf);
	if (!v || (from != NO_CUT && !r.cut_made))
		return give_up(v);
	size_t end = r.p;
	/* after a number or a word jansson's lexer reads the next character, whose UTF-8 sequence its
	 * stream checks: only space or ASCII there is certain */
	if (!json_is_object(v) && !json_is_array(v) && end < n && (unsigned char)text[end] >= 0x80)
		return give_up(v);
	if (!(flags & JSON_DISABLE_EOF_CHECK)) {
		/* jansson's position after its check: the whole text, when only space follows */
		end = skip_space(text, n, end);
		if (end != n)
			return give_up(v);
	}
	if (je) {
		/* jsonp_error_init(je, "<buffer>"), then the position parse_json saves on success */
		je->text[0] = '\0';
		je->line = -1;
		je->column = -1;
		je->position = (int)end;
		memcpy(je->source, "<buffer>", sizeof("<buffer>"));
	}
	return v;
}

json_t *dsi_json_fast_loadb(const char *text, size_t n, size_t flags, json_error_t *je)
{
	return load(text, n, NO_CUT, 0, flags, je);
}

json_t *dsi_json_fast_loadb_cut(const char *text, size_t n, size_t from, size_t to, size_t flags, json_error_t *je)
{
	if (from >= to || to > n)
		return NULL;
	return load(text, n, from, to, flags, je);
}

json_t *dsi_json_loadb_fast(const char *text, size_t n, size_t flags, json_error_t *je)
{
	json_t *v = dsi_json_fast_loadb(text, n, flags, je);
	return v ? v : json_loadb(text, n, flags, je);
}
