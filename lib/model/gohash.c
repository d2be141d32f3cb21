/*
 * go-spew's %#v print of a pod template's Go value, streamed into FNV-32a: upstream's ComputeHash.
 * The Go value is never built: the JSON is walked along the release's Go types (gohash_types.c)
 * and each value is printed as the struct the API server decoded and a controller's informer
 * handed over would print. See gohash.h.
 */
#include "model/gohash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/jsonout.h"
#include "core/numfmt.h"
#include "core/strbuf.h"
#include "model/quantity.h"

/* ---- where the print goes ------------------------------------------------------------------------- */

typedef struct sink {
	uint32_t h;
	dsi_strbuf *buf; /* NULL: hash only */
	unsigned inexact;
	int oom;
} sink;

uint32_t dsi_fnv32a(uint32_t h, const void *data, size_t n)
{
	const unsigned char *u = data;
	for (size_t i = 0; i < n; i++) {
		h ^= u[i];
		h *= 16777619u;
	}
	return h;
}

static void put(sink *s, const char *p, size_t n)
{
	s->h = dsi_fnv32a(s->h, p, n);
	if (s->buf)
		dsi_strbuf_append(s->buf, p, n);
}

/* a literal */
#define PUTL(s, lit) put((s), (lit), sizeof(lit) - 1)

/* a NUL-terminated string, hashed as it is scanned (no strlen first) */
static void puts_(sink *s, const char *p)
{
	const unsigned char *u = (const unsigned char *)p;
	uint32_t h = s->h;
	for (; *u; u++) {
		h ^= *u;
		h *= 16777619u;
	}
	s->h = h;
	if (s->buf)
		dsi_strbuf_append(s->buf, p, (size_t)((const char *)u - p));
}

/* the decimal of v, as %lld prints it */
static void put_i64(sink *s, long long v)
{
	char b[DSI_DECIMAL_MAX], *e = b + sizeof(b), *p = dsi_format_int64(e, v);
	put(s, p, (size_t)(e - p));
}

/* the decimal of v, as %llu prints it */
static void put_u64(sink *s, unsigned long long v)
{
	char b[DSI_DECIMAL_MAX], *e = b + sizeof(b), *p = dsi_format_decimal(e, v, 0);
	put(s, p, (size_t)(e - p));
}

static const char *tname(uint16_t t) { return dsi_gotype_names + dsi_gotypes[t].name; }

/* spew shows a value's type as "(T)" unless the value is a slice element or a map key or value */
static void put_type(sink *s, uint16_t t, int ignore)
{
	if (ignore)
		return;
	put(s, "(", 1);
	puts_(s, tname(t));
	put(s, ")", 1);
}

/* ---- resource.Quantity as ParseQuantity leaves it ------------------------------------------------- */

/* A non-negative big integer, little-endian base 2^32 limbs: the unscaled value of an inf.Dec. */
#define BIG_LIMBS 72 /* 2304 bits: beyond that the print is marked inexact */
typedef struct big {
	uint32_t l[BIG_LIMBS];
	int n;
	int overflow;
} big;

static void big_mul_add(big *b, uint32_t m, uint32_t a)
{
	uint64_t carry = a;
	for (int i = 0; i < b->n; i++) {
		uint64_t v = (uint64_t)b->l[i] * m + carry;
		b->l[i] = (uint32_t)v;
		carry = v >> 32;
	}
	if (carry) {
		if (b->n == BIG_LIMBS)
			b->overflow = 1;
		else
			b->l[b->n++] = (uint32_t)carry;
	}
}

/* b /= d; returns the remainder */
static uint32_t big_div(big *b, uint32_t d)
{
	uint64_t r = 0;
	for (int i = b->n - 1; i >= 0; i--) {
		uint64_t v = (r << 32) | b->l[i];
		b->l[i] = (uint32_t)(v / d);
		r = v % d;
	}
	while (b->n && !b->l[b->n - 1])
		b->n--;
	return (uint32_t)r;
}

static int big_cmp(const big *a, const big *b)
{
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (int i = a->n - 1; i >= 0; i--)
		if (a->l[i] != b->l[i])
			return a->l[i] < b->l[i] ? -1 : 1;
	return 0;
}

static void big_set_u64(big *b, uint64_t v)
{
	b->n = 0;
	b->overflow = 0;
	if (v)
		b->l[b->n++] = (uint32_t)v;
	if (v >> 32)
		b->l[b->n++] = (uint32_t)(v >> 32);
}

/* What ParseQuantity returns: the int64Amount, or the inf.Dec (dec), the cached string, the Format. */
typedef struct goquantity {
	int64_t value;
	int32_t scale;
	int dec;
	int neg;
	int32_t dec_scale;
	big unscaled;
	const char *format;
	const char *cached; /* points into the text, or NULL */
	size_t cached_len;
} goquantity;

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* parseQuantityString (quantity.go): sign, the number's text, numerator, denominator and suffix */
typedef struct qparts {
	int positive;
	const char *num, *denom, *suffix;
	size_t num_n, denom_n, suffix_n, value_n;
} qparts;

static int parse_quantity_string(const char *str, size_t end, qparts *p)
{
	size_t pos = 0;
	memset(p, 0, sizeof(*p));
	p->positive = 1;
	p->suffix = str + end;
	if (pos < end && (str[0] == '-' || str[0] == '+')) {
		p->positive = str[0] == '+';
		pos++;
	}
	while (pos < end && str[pos] == '0')
		pos++;
	if (pos >= end) {
		p->num = "0";
		p->num_n = 1;
		p->value_n = 1; /* value = "0" (num) */
		return 0;
	}
	size_t i = pos;
	while (i < end && is_digit(str[i]))
		i++;
	p->num = str + pos;
	p->num_n = i - pos;
	if (i >= end) {
		p->value_n = end;
		return 0;
	}
	pos = i;
	if (!p->num_n) {
		p->num = "0";
		p->num_n = 1;
	}
	if (pos < end && str[pos] == '.') {
		pos++;
		i = pos;
		while (i < end && is_digit(str[i]))
			i++;
		p->denom = str + pos;
		p->denom_n = i - pos;
		if (i >= end) {
			p->value_n = end;
			return 0;
		}
		pos = i;
	}
	p->value_n = pos;
	size_t start = pos;
	i = pos;
	while (i < end && strchr("eEinumkKMGTP", str[i]))
		i++;
	if (i >= end) {
		p->suffix = str + start;
		p->suffix_n = end - start;
		return 0;
	}
	pos = i;
	if (str[pos] == '-' || str[pos] == '+')
		pos++;
	for (i = pos; i < end && is_digit(str[i]); i++)
		;
	if (i < end)
		return -1;
	p->suffix = str + start;
	p->suffix_n = end - start;
	return 0;
}

enum { DECIMAL_SI, BINARY_SI, DECIMAL_EXPONENT };
static const char *const format_names[] = {"DecimalSI", "BinarySI", "DecimalExponent"};

/* quantitySuffixer.interpret (suffix.go) */
static int interpret_suffix(const char *s, size_t n, int *base, int32_t *exponent, int *format)
{
	static const struct {
		const char *s;
		int base, exp, format;
	} table[] = {
		{"", 10, 0, DECIMAL_SI},   {"n", 10, -9, DECIMAL_SI}, {"u", 10, -6, DECIMAL_SI},
		{"m", 10, -3, DECIMAL_SI}, {"k", 10, 3, DECIMAL_SI},  {"M", 10, 6, DECIMAL_SI},
		{"G", 10, 9, DECIMAL_SI},  {"T", 10, 12, DECIMAL_SI}, {"P", 10, 15, DECIMAL_SI},
		{"E", 10, 18, DECIMAL_SI}, {"Ki", 2, 10, BINARY_SI},  {"Mi", 2, 20, BINARY_SI},
		{"Gi", 2, 30, BINARY_SI},  {"Ti", 2, 40, BINARY_SI},  {"Pi", 2, 50, BINARY_SI},
		{"Ei", 2, 60, BINARY_SI},
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strlen(table[i].s) == n && memcmp(table[i].s, s, n) == 0) {
			*base = table[i].base;
			*exponent = table[i].exp;
			*format = table[i].format;
			return 0;
		}
	if (n > 1 && (s[0] == 'e' || s[0] == 'E')) {
		/* strconv.ParseInt(suffix[1:], 10, 64), then int32() */
		size_t i = 1;
		int neg = 0;
		if (s[i] == '+' || s[i] == '-')
			neg = s[i++] == '-';
		if (i >= n)
			return -1;
		uint64_t v = 0;
		for (; i < n; i++) {
			if (!is_digit(s[i]) || v > (UINT64_C(1) << 62))
				return -1;
			v = v * 10 + (uint64_t)(s[i] - '0');
		}
		*base = 10;
		*exponent = (int32_t)(uint32_t)(neg ? (uint64_t)0 - v : v);
		*format = DECIMAL_EXPONENT;
		return 0;
	}
	return -1;
}

/* ParseQuantity (apimachinery pkg/api/resource/quantity.go): the Quantity's fields; -1 when it refuses */
static int go_parse_quantity(const char *str, size_t len, goquantity *q)
{
	memset(q, 0, sizeof(*q));
	if (!len)
		return -1;
	if (len == 1 && str[0] == '0') {
		q->format = format_names[DECIMAL_SI];
		q->cached = str;
		q->cached_len = 1;
		return 0;
	}
	qparts p;
	int base, format;
	int32_t exponent;
	if (parse_quantity_string(str, len, &p) < 0 ||
	    interpret_suffix(p.suffix, p.suffix_n, &base, &exponent, &format) < 0)
		return -1;
	int32_t precision = 0, scale = 0;
	int64_t mantissa = 1;
	if (format == BINARY_SI) {
		if (exponent >= 0 && !p.denom_n) {
			mantissa = (int64_t)1 << exponent;
			precision = 15 - (int32_t)p.num_n - (int32_t)((float)exponent * 3 / 10) - 1;
		} else {
			precision = -1;
		}
	} else {
		scale = exponent;
		precision = 18 - (int32_t)(p.num_n + p.denom_n);
	}
	q->format = format_names[format];
	if (precision >= 0) {
		scale -= (int32_t)p.denom_n;
		if (scale >= -9) {
			/* shifted = num + denom: at most 18 digits here */
			char shifted[40];
			size_t sn = p.num_n + p.denom_n;
			memcpy(shifted, p.num, p.num_n);
			if (p.denom_n)
				memcpy(shifted + p.num_n, p.denom, p.denom_n);
			int64_t value = 0;
			for (size_t i = 0; i < sn; i++)
				value = value * 10 + (shifted[i] - '0');
			/* int64Multiply (math.go) */
			int ok = 1;
			int64_t result;
			if (value == 0 || mantissa == 1)
				result = value * mantissa;
			else if (value > INT64_MAX / mantissa)
				ok = 0;
			else
				result = value * mantissa;
			if (ok) {
				q->value = p.positive ? result : -result;
				q->scale = scale;
				int canonical =
					format == BINARY_SI
						? exponent % 10 == 0 && (value & 7) != 0
						: scale % 3 == 0 &&
							  !(sn >= 3 && memcmp(shifted + sn - 3, "000", 3) == 0) &&
							  shifted[0] != '0';
				if (canonical) {
					q->cached = str;
					q->cached_len = len;
				}
				return 0;
			}
		}
	}
	/* the inf.Dec path: amount = value's digits (SetString), the suffix applied, rounded up to nano
	 * precision (scale 9), BinarySI capped at the largest int64 */
	q->dec = 1;
	q->neg = !p.positive;
	big *u = &q->unscaled;
	big_set_u64(u, 0);
	int64_t dscale = (int64_t)p.denom_n;
	for (size_t i = 0; i < p.num_n; i++)
		big_mul_add(u, 10, (uint32_t)(p.num[i] - '0'));
	for (size_t i = 0; i < p.denom_n; i++)
		big_mul_add(u, 10, (uint32_t)(p.denom[i] - '0'));
	if (base == 10)
		dscale -= exponent;
	else
		for (int32_t i = 0; i < exponent; i++)
			big_mul_add(u, 2, 0);
	if (u->n) {
		/* Round(amount, 9, RoundUp) */
		int inexact = 0;
		for (; dscale > 9 && u->n; dscale--)
			inexact |= big_div(u, 10) != 0;
		for (; dscale < 9 && !u->overflow; dscale++)
			big_mul_add(u, 10, 0);
		if (inexact)
			big_mul_add(u, 1, 1);
		if (dscale > 9) { /* everything rounded away: the smallest unit */
			big_set_u64(u, 1);
			dscale = 9;
		}
		if (format == BINARY_SI) {
			/* amount.Cmp(maxAllowed) > 0: compare with (2^63-1) * 10^9 at scale 9 */
			big max;
			big_set_u64(&max, INT64_MAX);
			for (int i = 0; i < 9; i++)
				big_mul_add(&max, 10, 0);
			if (big_cmp(u, &max) > 0) {
				big_set_u64(u, INT64_MAX);
				dscale = 0;
			}
			big one;
			big_set_u64(&one, 1000000000);
			if (dscale == 9 && big_cmp(u, &one) < 0)
				q->format = format_names[DECIMAL_SI];
		}
	}
	q->dec_scale = (int32_t)dscale;
	return 0;
}

static void put_quantity(sink *s, const goquantity *q)
{
	PUTL(s, "{i:(resource.int64Amount){value:(int64)");
	put_i64(s, q->value);
	PUTL(s, " scale:(resource.Scale)");
	put_i64(s, q->scale);
	PUTL(s, "} d:(resource.infDecAmount){Dec:(*inf.Dec)");
	if (!q->dec) {
		PUTL(s, "<nil>");
	} else {
		if (q->unscaled.overflow)
			s->inexact |= DSI_GOHASH_BIGNUM;
		puts_(s, q->neg && q->unscaled.n ? "{unscaled:(big.Int){neg:(bool)true abs:(big.nat)["
						 : "{unscaled:(big.Int){neg:(bool)false abs:(big.nat)[");
		/* big.Word is 64 bits on the platforms a controller runs on */
		for (int i = 0; i < q->unscaled.n; i += 2) {
			uint64_t w = q->unscaled.l[i];
			if (i + 1 < q->unscaled.n)
				w |= (uint64_t)q->unscaled.l[i + 1] << 32;
			if (i)
				put(s, " ", 1);
			put_u64(s, w);
		}
		PUTL(s, "]} scale:(inf.Scale)");
		put_i64(s, q->dec_scale);
		PUTL(s, "}");
	}
	PUTL(s, "} s:(string)");
	if (q->cached)
		put(s, q->cached, q->cached_len);
	PUTL(s, " Format:(resource.Format)");
	puts_(s, q->format ? q->format : "");
	PUTL(s, "}");
}

/* The Quantity a controller holds for a JSON value: its String() (as stored) parsed again. */
static void print_quantity(sink *s, const json_t *v)
{
	json_t *zero = NULL;
	if (!v)
		v = zero = json_null(); /* a value Quantity field: protobuf always writes String(), "0" */
	json_t *text = dsi_quantity_served_json((json_t *)v);
	json_decref(zero);
	goquantity q;
	if (!text) {
		s->oom = 1;
		return;
	}
	if (!json_is_string(text) || go_parse_quantity(json_string_value(text), json_string_length(text), &q) < 0) {
		s->inexact |= DSI_GOHASH_RANGE;
		memset(&q, 0, sizeof(q));
	}
	put_quantity(s, &q);
	json_decref(text);
}

/* ---- the walk ----------------------------------------------------------------------------------- */

static void print_value(sink *s, uint16_t t, const json_t *v, int ignore);

/* A map's member, sorted by key. */
typedef struct kv {
	const char *key;
	const json_t *val;
} kv;

static int cmp_key(const void *a, const void *b) { return strcmp(((const kv *)a)->key, ((const kv *)b)->key); }

/* The JSON value of each of the n fields of a struct in obj (NULL: absent): the members of obj
 * matched to the fields by their json names, one pass over the members rather than a lookup per
 * field (a struct has up to ~40 fields, its JSON a handful); what json_object_get(obj, name) finds */
static void field_values(const dsi_gofield *fs, unsigned n, const json_t *obj, const json_t **fv)
{
	for (unsigned i = 0; i < n; i++)
		fv[i] = fs[i].json == DSI_GOF_INLINE ? obj : NULL; /* an embedded struct reads the same object */
	if (!obj || !json_object_size(obj))
		return;
	const char *key;
	size_t klen;
	json_t *m;
	json_object_keylen_foreach((json_t *)obj, key, klen, m)
	{
		if (strlen(key) != klen)
			continue; /* a key with a NUL in it is no field's name */
		for (unsigned i = 0; i < n; i++) {
			uint16_t j = fs[i].json;
			if (j < DSI_GOF_SKIP && dsi_gotype_names[j] == key[0] && strcmp(dsi_gotype_names + j, key) == 0)
				fv[i] = m;
		}
	}
}

#define MAX_FIELDS 64 /* the most fields of a struct here is 42 */

static void print_struct_fields(sink *s, uint16_t t, const json_t *obj, int *first)
{
	const dsi_gotype *ty = &dsi_gotypes[t];
	const dsi_gofield *fs = &dsi_gofields[ty->first];
	const json_t *fv[MAX_FIELDS];
	int matched = ty->n <= MAX_FIELDS;
	if (matched)
		field_values(fs, ty->n, obj, fv);
	for (unsigned i = 0; i < ty->n; i++) {
		const dsi_gofield *f = &fs[i];
		if (!*first)
			put(s, " ", 1);
		*first = 0;
		puts_(s, dsi_gotype_names + f->name);
		put(s, ":", 1);
		const json_t *v = NULL;
		if (matched)
			v = fv[i];
		else if (f->json == DSI_GOF_INLINE)
			v = obj;
		else if (f->json != DSI_GOF_SKIP && obj)
			v = json_object_get(obj, dsi_gotype_names + f->json);
		print_value(s, f->type, v, 0);
	}
}

static void print_zero_time(sink *s)
{
	PUTL(s, "{Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}}");
}

static void print_value(sink *s, uint16_t t, const json_t *v, int ignore)
{
	const dsi_gotype *ty = &dsi_gotypes[t];
	if (v && json_is_null(v))
		v = NULL; /* null decodes as the zero value (nil for pointers, slices and maps) */
	if (ty->kind == DSI_GK_PTR) {
		/* formatPtr: "(*T)" or, inside a slice or map, "<*>"; nil is "<nil>" */
		if (!ignore) {
			put_type(s, t, 0);
		} else if (v) {
			PUTL(s, "<*>");
		}
		if (!v)
			PUTL(s, "<nil>");
		else
			print_value(s, ty->elem, v, 1);
		return;
	}
	put_type(s, t, ignore);
	switch (ty->kind) {
	case DSI_GK_STRUCT: {
		if (v && !json_is_object(v)) {
			s->inexact |= DSI_GOHASH_RANGE;
			v = NULL;
		}
		put(s, "{", 1);
		int first = 1;
		print_struct_fields(s, t, v, &first);
		put(s, "}", 1);
		return;
	}
	case DSI_GK_SLICE: {
		if (v && !json_is_array(v)) {
			s->inexact |= DSI_GOHASH_RANGE;
			v = NULL;
		}
		/* the storage round trip (protobuf) leaves an empty slice nil */
		if (!v || !json_array_size(v)) {
			PUTL(s, "<nil>");
			return;
		}
		put(s, "[", 1);
		for (size_t i = 0; i < json_array_size(v); i++) {
			if (i)
				put(s, " ", 1);
			print_value(s, ty->elem, json_array_get(v, i), 1);
		}
		put(s, "]", 1);
		return;
	}
	case DSI_GK_MAP: {
		if (v && !json_is_object(v)) {
			s->inexact |= DSI_GOHASH_RANGE;
			v = NULL;
		}
		size_t n = v ? json_object_size(v) : 0;
		if (!n) {
			PUTL(s, "<nil>");
			return;
		}
		kv small[16], *keys = n <= 16 ? small : dsi_malloc(n * sizeof(*keys));
		if (!keys) {
			s->oom = 1;
			return;
		}
		size_t k = 0, klen;
		const char *key;
		json_t *mv;
		json_object_keylen_foreach((json_t *)v, key, klen, mv)
		{
			keys[k].key = key;
			/* what json_object_get(v, key) finds: a key with a NUL in it reads the one cut there */
			keys[k++].val = strlen(key) == klen ? mv : json_object_get(v, key);
		}
		qsort(keys, n, sizeof(*keys), cmp_key); /* SortKeys: Go compares strings bytewise */
		PUTL(s, "map[");
		for (size_t i = 0; i < n; i++) {
			if (i)
				put(s, " ", 1);
			puts_(s, keys[i].key);
			put(s, ":", 1);
			print_value(s, ty->elem, keys[i].val, 1);
		}
		put(s, "]", 1);
		if (keys != small)
			dsi_free(keys);
		return;
	}
	case DSI_GK_STRING:
		if (json_is_string(v))
			put(s, json_string_value(v), json_string_length(v));
		else if (v)
			s->inexact |= DSI_GOHASH_RANGE;
		return;
	case DSI_GK_BOOL:
		if (v && !json_is_boolean(v))
			s->inexact |= DSI_GOHASH_RANGE;
		puts_(s, json_is_true(v) ? "true" : "false");
		return;
	case DSI_GK_INT:
	case DSI_GK_UINT:
		if (v && !json_is_integer(v))
			s->inexact |= DSI_GOHASH_RANGE;
		if (ty->kind == DSI_GK_UINT && json_integer_value(v) < 0)
			s->inexact |= DSI_GOHASH_RANGE;
		put_i64(s, json_is_integer(v) ? json_integer_value(v) : 0);
		return;
	case DSI_GK_FLOAT: /* no float reaches a pod template */
		s->inexact |= DSI_GOHASH_RANGE;
		put(s, "0", 1);
		return;
	case DSI_GK_QUANTITY: print_quantity(s, v); return;
	case DSI_GK_INTSTR:
		/* IntOrString.UnmarshalJSON: a string is Type 1, anything else an int32 (Type 0) */
		PUTL(s, "{Type:(intstr.Type)");
		puts_(s, json_is_string(v) ? "1" : "0");
		PUTL(s, " IntVal:(int32)");
		if (v && !json_is_string(v) && !json_is_integer(v))
			s->inexact |= DSI_GOHASH_RANGE;
		put_i64(s, json_is_integer(v) ? json_integer_value(v) : 0);
		PUTL(s, " StrVal:(string)");
		if (json_is_string(v))
			put(s, json_string_value(v), json_string_length(v));
		put(s, "}", 1);
		return;
	case DSI_GK_TIME:
		/* a set time comes back from protobuf as time.Unix(s, 0).Local(): its loc is the
		 * controller's local zone, which is not known here */
		if (v)
			s->inexact |= DSI_GOHASH_TIME;
		print_zero_time(s);
		return;
	case DSI_GK_FIELDSV1: {
		/* FieldsV1.UnmarshalJSON keeps the member's JSON text as Raw bytes */
		PUTL(s, "{Raw:([]uint8)");
		char *raw = v ? dsi_json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
		if (v && !raw) {
			s->oom = 1;
			return;
		}
		if (!raw) {
			PUTL(s, "<nil>");
		} else {
			put(s, "[", 1);
			for (size_t i = 0; raw[i]; i++) {
				if (i)
					put(s, " ", 1);
				put_i64(s, (unsigned char)raw[i]);
			}
			put(s, "]", 1);
		}
		dsi_free(raw);
		put(s, "}", 1);
		return;
	}
	default: return;
	}
}

/* ---- entry points ------------------------------------------------------------------------------- */

int dsi_gohash_min_minor(void) { return dsi_gotype_roots[0].minor; }
int dsi_gohash_max_minor(void) { return dsi_gotype_roots[dsi_gotype_nroots - 1].minor; }

/* The PodTemplateSpec of 1.<minor>: the newest release not after it (the oldest before the first). */
static uint16_t root_of(int minor)
{
	uint16_t t = dsi_gotype_roots[0].type;
	for (size_t i = 0; i < dsi_gotype_nroots && dsi_gotype_roots[i].minor <= minor; i++)
		t = dsi_gotype_roots[i].type;
	return t;
}

static int run(sink *s, const json_t *tmpl, int minor)
{
	/* DeepHashObject(hasher, *template): the struct value, its type shown */
	print_value(s, root_of(minor), tmpl, 0);
	return s->oom || (s->buf && s->buf->oom) ? -1 : 0;
}

int dsi_gohash_sum(const json_t *tmpl, int minor, int has_cc, int32_t cc, uint32_t *sum, unsigned *inexact)
{
	sink s = {DSI_FNV32A_INIT, NULL, 0, 0};
	if (run(&s, tmpl, minor) < 0)
		return -1;
	if (has_cc) {
		/* binary.LittleEndian.PutUint32 into an 8-byte slice: the last 4 bytes stay zero */
		char b[8] = {0};
		uint32_t u = (uint32_t)cc;
		for (int i = 0; i < 4; i++)
			b[i] = (char)(u >> (8 * i));
		put(&s, b, sizeof(b));
	}
	*sum = s.h;
	if (inexact)
		*inexact = s.inexact;
	return 0;
}

char *dsi_gohash_print(const json_t *tmpl, int minor, unsigned *inexact)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	sink s = {DSI_FNV32A_INIT, &b, 0, 0};
	if (run(&s, tmpl, minor) < 0) {
		dsi_strbuf_free(&b);
		return NULL;
	}
	if (inexact)
		*inexact = s.inexact;
	return dsi_strbuf_detach(&b);
}
