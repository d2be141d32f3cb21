#include "core/jsonscan.h"

#include <stdint.h>
#include <string.h>

#include "core/alloc.h"

/* 16 bytes at a time where the compiler targets SSE2 (every x86-64): the scanner is a pass over
 * every byte of a dump, and most bytes are neither quotes nor brackets. */
#if defined(__SSE2__)
#define SCAN_SSE2 1
#include <emmintrin.h>
/* and 32 where the machine running it has AVX2 (chosen at run time; GCC and clang on x86-64) */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SCAN_AVX2 1
#include <immintrin.h>
#endif

static unsigned sse2_mask(const char *p, char a, char b)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	return (unsigned)_mm_movemask_epi8(
		_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(a)), _mm_cmpeq_epi8(v, _mm_set1_epi8(b))));
}
#endif

/* The index after the closing quote of the string whose opening quote is at text[i], or 0: a
 * backslash and the character after it are an escape (\u's four hex digits are neither quote nor
 * backslash). */
static size_t string_end(const char *text, size_t size, size_t i)
{
	for (i++;;) {
#ifdef SCAN_SSE2
		for (unsigned m; i + 16 <= size; i += 16)
			if ((m = sse2_mask(text + i, '"', '\\')) != 0) {
				i += (size_t)__builtin_ctz(m);
				break;
			}
#endif
		while (i < size && text[i] != '"' && text[i] != '\\')
			i++;
		if (i >= size)
			return 0;
		if (text[i] == '"')
			return i + 1;
		i += 2;
	}
}

/* The bytes text[i, j) of a value's scan, one at a time, from the state the bytes before left:
 * *in_string, *escaped (a backslash in a string escapes the next byte) and *depth. The index after
 * the bracket that closes the value, 0 when the brackets do not balance or nest too deep, or j
 * when the value goes on. */
static size_t skip_bytes(const char *text, size_t i, size_t j, int *in_string, int *escaped, int *depth)
{
	for (; i < j; i++) {
		char c = text[i];
		if (*in_string) {
			if (*escaped)
				*escaped = 0;
			else if (c == '\\')
				*escaped = 1;
			else if (c == '"')
				*in_string = 0;
		} else if (c == '"') {
			*in_string = 1;
		} else if (c == '{' || c == '[') {
			if (++*depth > DSI_JSONSCAN_MAX_DEPTH)
				return 0;
		} else if (c == '}' || c == ']') {
			if (--*depth <= 0)
				return *depth == 0 ? i + 1 : 0;
		}
	}
	return SIZE_MAX;
}

#ifdef SCAN_SSE2
/* Bit k of each mask: text[k] is a quote, a backslash, '{' or '[', '}' or ']' (64 bytes). */
typedef struct marks64 {
	uint64_t quote, backslash, open, close;
} marks64;

static marks64 marks_of(const char *p)
{
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), open = _mm_set1_epi8('{'),
		      close = _mm_set1_epi8('}'), fold = _mm_set1_epi8(0x20);
	marks64 m = {0, 0, 0, 0};
	for (int k = 0; k < 4; k++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k)), f = _mm_or_si128(v, fold);
		m.quote |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << (16 * k);
		m.backslash |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)) << (16 * k);
		m.open |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(f, open)) << (16 * k);
		m.close |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(f, close)) << (16 * k);
	}
	return m;
}

/* Bit k: the xor of bits 0..k (inside a string after an odd number of quotes). */
static uint64_t prefix_xor(uint64_t x)
{
	x ^= x << 1;
	x ^= x << 2;
	x ^= x << 4;
	x ^= x << 8;
	x ^= x << 16;
	x ^= x << 32;
	return x;
}
#endif

#ifdef SCAN_SSE2
typedef marks64 (*marks_fn)(const char *p);

/* 64 bytes a step: the quotes' prefix xor says which bytes lie in strings, and only the brackets
 * outside them are visited (kubectl's JSON has a quote every few bytes, a bracket every few dozen).
 * A window with a backslash (rare in Kubernetes objects) is read a byte at a time. The windows from
 * *i on (each machine's marks_fn inlined into a copy of its own), with skip_bytes' state and
 * result: SIZE_MAX leaves *i at the tail of fewer than 64 bytes. */
static inline __attribute__((always_inline)) size_t skip_windows(marks_fn marks, const char *text, size_t size,
								 size_t *i, int *in_string, int *escaped, int *depth)
{
	for (; *i + 64 <= size; *i += 64) {
		marks64 m = marks(text + *i);
		if (m.backslash || *escaped) {
			size_t e = skip_bytes(text, *i, *i + 64, in_string, escaped, depth);
			if (e != SIZE_MAX)
				return e;
			continue;
		}
		uint64_t strings = prefix_xor(m.quote) ^ (*in_string ? ~(uint64_t)0 : 0);
		for (uint64_t b = (m.open | m.close) & ~strings; b; b &= b - 1) {
			unsigned k = (unsigned)__builtin_ctzll(b);
			if (m.open >> k & 1) {
				if (++*depth > DSI_JSONSCAN_MAX_DEPTH)
					return 0;
			} else if (--*depth <= 0) {
				return *depth == 0 ? *i + k + 1 : 0;
			}
		}
		*in_string = (int)(strings >> 63);
	}
	return SIZE_MAX;
}

static size_t skip_sse2(const char *text, size_t size, size_t *i, int *in_string, int *escaped, int *depth)
{
	return skip_windows(marks_of, text, size, i, in_string, escaped, depth);
}
#endif

#ifdef SCAN_AVX2
__attribute__((target("avx2"))) static marks64 marks_avx2(const char *p)
{
	const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\'), open = _mm256_set1_epi8('{'),
		      close = _mm256_set1_epi8('}'), fold = _mm256_set1_epi8(0x20);
	marks64 m = {0, 0, 0, 0};
	for (int k = 0; k < 2; k++) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32 * k)),
			f = _mm256_or_si256(v, fold);
		m.quote |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, quote)) << (32 * k);
		m.backslash |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, backslash)) << (32 * k);
		m.open |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(f, open)) << (32 * k);
		m.close |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(f, close)) << (32 * k);
	}
	return m;
}

__attribute__((target("avx2"))) static size_t skip_avx2(const char *text, size_t size, size_t *i, int *in_string,
							int *escaped, int *depth)
{
	return skip_windows(marks_avx2, text, size, i, in_string, escaped, depth);
}
#endif

size_t dsi_jsonscan_skip_with(const char *text, size_t size, size_t i, int level)
{
	int depth = 0, in_string = 0, escaped = 0;
	size_t e = SIZE_MAX;
#ifdef SCAN_AVX2
	if (level >= 2 && __builtin_cpu_supports("avx2"))
		e = skip_avx2(text, size, &i, &in_string, &escaped, &depth);
#endif
#ifdef SCAN_SSE2
	if (e == SIZE_MAX && level >= 1) /* after AVX2, only a tail shorter than a window is left */
		e = skip_sse2(text, size, &i, &in_string, &escaped, &depth);
#endif
	if (e == SIZE_MAX)
		e = skip_bytes(text, i, size, &in_string, &escaped, &depth);
	return e == SIZE_MAX ? 0 : e;
}

size_t dsi_jsonscan_skip(const char *text, size_t size, size_t i) { return dsi_jsonscan_skip_with(text, size, i, 2); }

static int scalar_end(char c)
{
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void dsi_jsonscan_items_free(dsi_jsonscan_items *items)
{
	dsi_free(items->start);
	dsi_free(items->end);
	memset(items, 0, sizeof(*items));
}

static int items_add(dsi_jsonscan_items *items, size_t start, size_t end)
{
	if (items->n == items->cap) {
		size_t cap = items->cap ? items->cap * 2 : 256;
		size_t *s = dsi_reallocarray(items->start, cap, sizeof(*s));
		if (!s)
			return -1;
		items->start = s;
		size_t *e = dsi_reallocarray(items->end, cap, sizeof(*e));
		if (!e)
			return -1;
		items->end = e;
		items->cap = cap;
	}
	items->start[items->n] = start;
	items->end[items->n++] = end;
	return 0;
}

int dsi_jsonscan_items_append(dsi_jsonscan_items *to, const dsi_jsonscan_items *from)
{
	for (size_t k = 0; k < from->n; k++)
		if (items_add(to, from->start[k], from->end[k]) < 0)
			return -1;
	return 0;
}

int dsi_jsonscan_elements(const char *text, size_t size, size_t i, size_t stop, dsi_jsonscan_items *items, size_t *at)
{
	for (;;) {
		if (i >= stop) {
			*at = i;
			return 2;
		}
		if (i >= size || text[i] != '{')
			return 0;
		size_t e = dsi_jsonscan_skip(text, size, i);
		if (!e)
			return 0;
		if (items_add(items, i, e) < 0)
			return -1;
		i = dsi_jsonscan_space(text, size, e);
		if (i < size && text[i] == ']') {
			*at = i + 1;
			return 1;
		}
		if (i >= size || text[i] != ',')
			return 0;
		i = dsi_jsonscan_space(text, size, i + 1);
	}
}

void dsi_jsonscan_part_scan(const char *text, size_t size, dsi_jsonscan_part *p)
{
	p->rc = dsi_jsonscan_elements(text, size, p->from, p->stop, &p->items, &p->at);
}

long long dsi_jsonscan_join(const char *text, size_t size, dsi_jsonscan_part *parts, unsigned np,
			    dsi_jsonscan_items *items)
{
	long long rc = 0;
	for (unsigned k = 0; k < np; k++) {
		const dsi_jsonscan_part *p = &parts[k];
		if (p->rc < 0 || dsi_jsonscan_items_append(items, &p->items) < 0) {
			rc = -1;
			break;
		}
		/* the array's end, or no array at all: parts[k] is read from an element's start, so it says
		 * what one scan would */
		if (p->rc == 1 || p->rc == 0) {
			rc = p->rc == 1 ? (long long)p->at : 0;
			break;
		}
		if (k + 1 < np && p->at == parts[k + 1].from)
			continue; /* an element begins where the next part began: that part is right too */
		size_t at = 0;
		int more = dsi_jsonscan_elements(text, size, p->at, SIZE_MAX, items, &at);
		rc = more == 1 ? (long long)at : more;
		break;
	}
	for (unsigned k = 0; k < np; k++)
		dsi_jsonscan_items_free(&parts[k].items);
	return rc;
}

size_t dsi_jsonscan_guess_element(const char *text, size_t size, size_t first, size_t from)
{
	/* the first element's indentation: the blanks between the line's start and its '{' */
	size_t b = first;
	while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t'))
		b--;
	size_t indent = first - b;
	if (b == 0 || text[b - 1] != '\n' || indent == 0 || from <= first)
		return 0;
	for (size_t i = from; i < size;) {
		const char *nl = memchr(text + i, '\n', size - i);
		if (!nl)
			return 0;
		size_t s = (size_t)(nl - text) + 1, e = s + indent;
		if (e < size && text[e] == '{' && memcmp(text + s, text + b, indent) == 0) {
			/* the line before ends with the comma between two elements */
			size_t c = s - 1;
			while (c > first && (text[c - 1] == ' ' || text[c - 1] == '\t' || text[c - 1] == '\r'))
				c--;
			if (c > first && text[c - 1] == ',')
				return e;
		}
		i = s;
	}
	return 0;
}

/* The array at text[i] ('['), its elements recorded: the index after its ']', 0 when an element is not
 * an object or the array does not close, -1 without memory. */
static long long scan_items(void *ctx, const char *text, size_t size, size_t i, dsi_jsonscan_items *items)
{
	(void)ctx;
	i = dsi_jsonscan_space(text, size, i + 1);
	if (i < size && text[i] == ']')
		return (long long)i + 1;
	size_t at;
	int rc = dsi_jsonscan_elements(text, size, i, SIZE_MAX, items, &at);
	return rc == 1 ? (long long)at : rc;
}

int dsi_jsonscan_list(const char *text, size_t size, size_t i, size_t *open, size_t *close, size_t *end,
		      dsi_jsonscan_items *items)
{
	return dsi_jsonscan_list_by(text, size, i, open, close, end, items, NULL, NULL);
}

int dsi_jsonscan_list_by(const char *text, size_t size, size_t i, size_t *open, size_t *close, size_t *end,
			 dsi_jsonscan_items *items, dsi_jsonscan_items_fn scan, void *ctx)
{
	if (!scan)
		scan = scan_items;
	int found = 0;
	items->n = 0;
	if (i >= size || text[i] != '{')
		return 0;
	i = dsi_jsonscan_space(text, size, i + 1);
	for (;;) {
		if (i >= size || text[i] != '"')
			return 0;
		size_t key = i + 1, after_key = string_end(text, size, i);
		if (!after_key)
			return 0;
		int is_items = after_key - key == 6 && memcmp(text + key, "items\"", 6) == 0;
		i = dsi_jsonscan_space(text, size, after_key);
		if (i >= size || text[i] != ':')
			return 0;
		i = dsi_jsonscan_space(text, size, i + 1);
		if (i >= size)
			return 0;
		size_t value_end;
		if (is_items) {
			if (found || text[i] != '[')
				return 0;
			long long e = scan(ctx, text, size, i, items);
			if (e <= 0)
				return (int)e;
			found = 1;
			*open = i;
			*close = value_end = (size_t)e;
		} else if (text[i] == '{' || text[i] == '[') {
			value_end = dsi_jsonscan_skip(text, size, i);
		} else if (text[i] == '"') {
			value_end = string_end(text, size, i);
		} else {
			for (value_end = i; value_end < size && !scalar_end(text[value_end]); value_end++)
				;
		}
		if (!value_end || value_end == i)
			return 0;
		i = dsi_jsonscan_space(text, size, value_end);
		if (i < size && text[i] == ',') {
			i = dsi_jsonscan_space(text, size, i + 1);
			continue;
		}
		if (i < size && text[i] == '}' && found) {
			*end = i + 1;
			return 1;
		}
		return 0;
	}
}

/* ---- a Node's status.images, which the snapshot never reads ---- */

/* The index after the string at text[i] ('"') when its characters are printable ASCII without
 * escapes (what jansson and Go read as they stand), else 0. */
static size_t plain_string_end(const char *text, size_t size, size_t i)
{
	i++;
#ifdef SCAN_SSE2
	/* a quote, a backslash, or a byte below 0x20 or above 0x7e (as signed: negative, or 0x7f) */
	const __m128i quote = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20),
		      del = _mm_set1_epi8(0x7f);
	for (; i + 16 <= size; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(text + i));
		__m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bs)),
					 _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)));
		unsigned bits = (unsigned)_mm_movemask_epi8(m);
		if (bits) {
			i += (size_t)__builtin_ctz(bits);
			return text[i] == '"' ? i + 1 : 0;
		}
	}
#endif
	for (; i < size; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == '"')
			return i + 1;
		if (c < 0x20 || c > 0x7e || c == '\\')
			return 0;
	}
	return 0;
}

static int plain_key(const char *text, size_t from, size_t to, const char *word)
{
	size_t n = strlen(word);
	return to - from == n + 2 && memcmp(text + from + 1, word, n) == 0;
}

/* The index after the array of strings at text[i], each plain, else 0. */
/* The index after the string at text[i] if it is a plain one, else 0. */
static size_t plain_string(const char *text, size_t size, size_t i)
{
	return i < size && text[i] == '"' ? plain_string_end(text, size, i) : 0;
}

/* The index after the array at text[i] whose every element elem reads (returning the index after
 * it, or 0), else 0. */
static size_t plain_array(const char *text, size_t size, size_t i,
			  size_t (*elem)(const char *text, size_t size, size_t i))
{
	if (i >= size || text[i] != '[')
		return 0;
	i = dsi_jsonscan_space(text, size, i + 1);
	if (i < size && text[i] == ']')
		return i + 1;
	for (;;) {
		if (!(i = elem(text, size, i)))
			return 0;
		i = dsi_jsonscan_space(text, size, i);
		if (i < size && text[i] == ']')
			return i + 1;
		if (i >= size || text[i] != ',')
			return 0;
		i = dsi_jsonscan_space(text, size, i + 1);
	}
}

/* The index after the non-negative integer at text[i] of at most 18 digits and no leading zero
 * (within int64: jansson's json_integer, Go's int64), else 0. */
static size_t plain_size(const char *text, size_t size, size_t i)
{
	size_t j = i;
	while (j < size && text[j] >= '0' && text[j] <= '9')
		j++;
	if (j == i || j - i > 18 || (text[i] == '0' && j - i > 1))
		return 0;
	return j < size && !scalar_end(text[j]) ? 0 : j;
}

/* The literal lit[0, n) (n <= 16) at text[i]: with n a constant, two word compares, not a call to
 * memcmp for each image. */
static inline int literal_at(const char *text, size_t size, size_t i, const char *lit, size_t n)
{
	if (i + n > size)
		return 0;
	uint64_t a[2] = {0, 0}, b[2] = {0, 0};
	memcpy(a, text + i, n);
	memcpy(b, lit, n);
	return (a[0] == b[0]) & (a[1] == b[1]);
}

/* One ContainerImage in the compact form the API server writes, {"names":["...",...],"sizeBytes":N}:
 * the index after it, else 0 (plain_image then reads it member by member). Most of a Node's watch
 * event is these. */
static size_t compact_image(const char *text, size_t size, size_t i)
{
	if (!literal_at(text, size, i, "{\"names\":[\"", 11))
		return 0;
	for (i += 10;; i++) {
		if (!(i = plain_string(text, size, i)))
			return 0;
		if (i >= size || text[i] != ',')
			break;
	}
	if (!literal_at(text, size, i, "],\"sizeBytes\":", 14) || !(i = plain_size(text, size, i + 14)))
		return 0;
	return i < size && text[i] == '}' ? i + 1 : 0;
}

/* The index after one ContainerImage object at text[i]: members "names" and "sizeBytes" in their
 * plain forms, each at most once, else 0. */
static size_t plain_image(const char *text, size_t size, size_t i)
{
	size_t e = compact_image(text, size, i);
	if (e)
		return e;
	if (i >= size || text[i] != '{')
		return 0;
	i = dsi_jsonscan_space(text, size, i + 1);
	if (i < size && text[i] == '}')
		return i + 1;
	int names = 0, bytes = 0;
	for (;;) {
		size_t k = i;
		if (!(i = plain_string(text, size, i)))
			return 0;
		size_t ke = i;
		i = dsi_jsonscan_space(text, size, i);
		if (i >= size || text[i] != ':')
			return 0;
		i = dsi_jsonscan_space(text, size, i + 1);
		if (plain_key(text, k, ke, "names") && !names++)
			i = plain_array(text, size, i, plain_string);
		else if (plain_key(text, k, ke, "sizeBytes") && !bytes++)
			i = plain_size(text, size, i);
		else
			return 0;
		if (!i)
			return 0;
		i = dsi_jsonscan_space(text, size, i);
		if (i < size && text[i] == '}')
			return i + 1;
		if (i >= size || text[i] != ',')
			return 0;
		i = dsi_jsonscan_space(text, size, i + 1);
	}
}

size_t dsi_jsonscan_plain_images(const char *text, size_t size, size_t i)
{
	return plain_array(text, size, i, plain_image);
}

/* The index after the value at text[i] as the scanner knows values (strings and brackets; a
 * scalar runs to the next delimiter), or 0. */
static size_t value_end(const char *text, size_t size, size_t i)
{
	if (i >= size)
		return 0;
	if (text[i] == '"')
		return string_end(text, size, i);
	if (text[i] == '{' || text[i] == '[')
		return dsi_jsonscan_skip(text, size, i);
	size_t j = i;
	while (j < size && !scalar_end(text[j]))
		j++;
	return j > i ? j : 0;
}

/*
 * Walks the members of the object at text[i] (keys must be plain) and calls member(ctx, key
 * start, key end, value start) for each; member returns the index after the value, 0 to give
 * up, or SIZE_MAX to stop the walk there (found what it wanted). Returns 1 when the walk
 * reached the object's end or was stopped, else 0.
 */
typedef size_t (*member_fn)(void *ctx, const char *text, size_t size, size_t k, size_t ke, size_t v);

static int walk_members(const char *text, size_t size, size_t i, member_fn member, void *ctx)
{
	if (i >= size || text[i] != '{')
		return 0;
	i = dsi_jsonscan_space(text, size, i + 1);
	if (i < size && text[i] == '}')
		return 1;
	for (;;) {
		size_t k = i;
		if (!(i = plain_string(text, size, i)))
			return 0; /* a key spelt with escapes may be one of those looked for */
		size_t ke = i;
		i = dsi_jsonscan_space(text, size, i);
		if (i >= size || text[i] != ':')
			return 0;
		i = dsi_jsonscan_space(text, size, i + 1);
		size_t e = member(ctx, text, size, k, ke, i);
		if (e == SIZE_MAX)
			return 1;
		if (!e)
			return 0;
		i = dsi_jsonscan_space(text, size, e);
		if (i < size && text[i] == '}')
			return 1;
		if (i >= size || text[i] != ',')
			return 0;
		i = dsi_jsonscan_space(text, size, i + 1);
	}
}

typedef struct node_walk {
	int kind;   /* 0 not seen, 1 "Node", 2 "" (the list's kind stands), -1 anything else */
	int status; /* members "status" seen */
	int images; /* members "images" seen in it */
	size_t from, to;
} node_walk;

static size_t status_member(void *ctx, const char *text, size_t size, size_t k, size_t ke, size_t v)
{
	node_walk *w = ctx;
	if (!plain_key(text, k, ke, "images"))
		return value_end(text, size, v);
	if (w->images++)
		return 0; /* twice: jansson's error */
	size_t e = dsi_jsonscan_plain_images(text, size, v);
	if (!e)
		return 0; /* not the plain form: read as it stands */
	w->from = v;
	w->to = e;
	return e;
}

static size_t root_member(void *ctx, const char *text, size_t size, size_t k, size_t ke, size_t v)
{
	node_walk *w = ctx;
	if (plain_key(text, k, ke, "kind")) {
		if (w->kind)
			return 0;
		size_t e = plain_string(text, size, v);
		w->kind = !e ? -1 : e - v == 6 && memcmp(text + v + 1, "Node", 4) == 0 ? 1 : e - v == 2 ? 2 : -1;
		if (w->kind < 0)
			return 0;
		return w->status && w->images ? SIZE_MAX : e;
	}
	if (!plain_key(text, k, ke, "status"))
		return value_end(text, size, v);
	if (w->status++ || !walk_members(text, size, v, status_member, w) || !w->images)
		return 0;
	/* both known: the rest of the object is jansson's to read */
	return w->kind ? SIZE_MAX : value_end(text, size, v);
}

int dsi_jsonscan_node_images(const char *text, size_t size, const char *item_kind, size_t *from, size_t *to)
{
	node_walk w = {0, 0, 0, 0, 0};
	size_t i = dsi_jsonscan_space(text, size, 0);
	if (!walk_members(text, size, i, root_member, &w) || !w.images)
		return 0;
	int node = w.kind == 1 || (w.kind != -1 && item_kind && strcmp(item_kind, "Node") == 0);
	if (!node)
		return 0;
	*from = w.from;
	*to = w.to;
	return 1;
}
