#include "model/quantity.h"

#include <stdio.h>
#include <string.h>

#include "core/atoms.h"
#include "core/numfmt.h"

/* ---- 128-bit unsigned arithmetic (portable: no __int128) ------------------ */

typedef struct u128 {
	uint64_t hi, lo;
} u128;

static const u128 pow10_tab[DSI_QUANTITY_MAX_DIGITS + 1] = {
	{0x0000000000000000ULL, 0x0000000000000001ULL}, {0x0000000000000000ULL, 0x000000000000000aULL},
	{0x0000000000000000ULL, 0x0000000000000064ULL}, {0x0000000000000000ULL, 0x00000000000003e8ULL},
	{0x0000000000000000ULL, 0x0000000000002710ULL}, {0x0000000000000000ULL, 0x00000000000186a0ULL},
	{0x0000000000000000ULL, 0x00000000000f4240ULL}, {0x0000000000000000ULL, 0x0000000000989680ULL},
	{0x0000000000000000ULL, 0x0000000005f5e100ULL}, {0x0000000000000000ULL, 0x000000003b9aca00ULL},
	{0x0000000000000000ULL, 0x00000002540be400ULL}, {0x0000000000000000ULL, 0x000000174876e800ULL},
	{0x0000000000000000ULL, 0x000000e8d4a51000ULL}, {0x0000000000000000ULL, 0x000009184e72a000ULL},
	{0x0000000000000000ULL, 0x00005af3107a4000ULL}, {0x0000000000000000ULL, 0x00038d7ea4c68000ULL},
	{0x0000000000000000ULL, 0x002386f26fc10000ULL}, {0x0000000000000000ULL, 0x016345785d8a0000ULL},
	{0x0000000000000000ULL, 0x0de0b6b3a7640000ULL}, {0x0000000000000000ULL, 0x8ac7230489e80000ULL},
	{0x0000000000000005ULL, 0x6bc75e2d63100000ULL}, {0x0000000000000036ULL, 0x35c9adc5dea00000ULL},
	{0x000000000000021eULL, 0x19e0c9bab2400000ULL}, {0x000000000000152dULL, 0x02c7e14af6800000ULL},
	{0x000000000000d3c2ULL, 0x1bcecceda1000000ULL}, {0x0000000000084595ULL, 0x161401484a000000ULL},
	{0x000000000052b7d2ULL, 0xdcc80cd2e4000000ULL}, {0x00000000033b2e3cULL, 0x9fd0803ce8000000ULL},
	{0x00000000204fce5eULL, 0x3e25026110000000ULL}, {0x00000001431e0faeULL, 0x6d7217caa0000000ULL},
	{0x0000000c9f2c9cd0ULL, 0x4674edea40000000ULL}, {0x0000007e37be2022ULL, 0xc0914b2680000000ULL},
	{0x000004ee2d6d415bULL, 0x85acef8100000000ULL}, {0x0000314dc6448d93ULL, 0x38c15b0a00000000ULL},
	{0x0001ed09bead87c0ULL, 0x378d8e6400000000ULL}, {0x0013426172c74d82ULL, 0x2b878fe800000000ULL},
	{0x00c097ce7bc90715ULL, 0xb34b9f1000000000ULL}, {0x0785ee10d5da46d9ULL, 0x00f436a000000000ULL},
	{0x4b3b4ca85a86c47aULL, 0x098a224000000000ULL},
};

static inline u128 u128_of(uint64_t v)
{
	u128 r = {0, v};
	return r;
}

static inline int u128_is_zero(u128 a) { return !a.hi && !a.lo; }

static inline int u128_cmp(u128 a, u128 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	if (a.lo != b.lo)
		return a.lo < b.lo ? -1 : 1;
	return 0;
}

/* a += b; -1 (a unchanged) when the sum does not fit. */
static int u128_add(u128 *a, u128 b)
{
	uint64_t lo = a->lo + b.lo;
	uint64_t carry = lo < a->lo;
	uint64_t hi1 = a->hi + b.hi;
	if (hi1 < a->hi)
		return -1;
	uint64_t hi = hi1 + carry;
	if (hi < hi1)
		return -1;
	a->hi = hi;
	a->lo = lo;
	return 0;
}

/* a - b for a >= b. */
static u128 u128_sub(u128 a, u128 b)
{
	u128 r;
	r.lo = a.lo - b.lo;
	r.hi = a.hi - b.hi - (a.lo < b.lo);
	return r;
}

static u128 mul64(uint64_t a, uint64_t b)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	u128 r;
	r.lo = (mid << 32) | (uint32_t)p00;
	r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return r;
}

/* a *= m; -1 (a unchanged) on overflow. */
static int u128_mul(u128 *a, uint64_t m)
{
	u128 lo = mul64(a->lo, m), hi = mul64(a->hi, m);
	if (hi.hi)
		return -1;
	uint64_t h = lo.hi + hi.lo;
	if (h < lo.hi)
		return -1;
	a->hi = h;
	a->lo = lo.lo;
	return 0;
}

/* a *= 10^k; -1 (a unchanged) on overflow. */
static int u128_mul_pow10(u128 *a, int64_t k)
{
	if (u128_is_zero(*a) || k == 0)
		return 0;
	if (k < 0 || k > DSI_QUANTITY_MAX_DIGITS)
		return -1;
	u128 r = *a;
	while (k > 0) {
		int step = k > 19 ? 19 : (int)k;
		if (u128_mul(&r, pow10_tab[step].lo) < 0)
			return -1;
		k -= step;
	}
	*a = r;
	return 0;
}

/* a /= d for 0 < d < 2^32; returns the remainder. */
static uint32_t u128_divmod32(u128 *a, uint32_t d)
{
	if (!a->hi) {
		uint32_t r = (uint32_t)(a->lo % d);
		a->lo /= d;
		return r;
	}
	uint64_t limb[4] = {a->hi >> 32, a->hi & 0xffffffffu, a->lo >> 32, a->lo & 0xffffffffu};
	uint64_t r = 0;
	for (int i = 0; i < 4; i++) {
		uint64_t cur = (r << 32) | limb[i];
		limb[i] = cur / d;
		r = cur % d;
	}
	a->hi = (limb[0] << 32) | limb[1];
	a->lo = (limb[2] << 32) | limb[3];
	return (uint32_t)r;
}

/* Decimal digits of a (0 has 1). */
static int u128_ndigits(u128 a)
{
	int k = 1;
	while (k <= DSI_QUANTITY_MAX_DIGITS && u128_cmp(a, pow10_tab[k]) >= 0)
		k++;
	return k; /* 39 means >= 10^38 */
}

/* Decimal text of a into out (>= 40 bytes); returns the length, no NUL. */
static size_t u128_to_str(u128 a, char *out)
{
	char rev[48];
	size_t n = 0;
	do {
		uint32_t chunk = u128_divmod32(&a, 1000000000u);
		int last = u128_is_zero(a);
		for (int i = 0; i < 9; i++) {
			rev[n++] = (char)('0' + chunk % 10);
			chunk /= 10;
			if (last && !chunk)
				break;
		}
	} while (!u128_is_zero(a));
	for (size_t i = 0; i < n; i++)
		out[i] = rev[n - 1 - i];
	return n;
}

/* ---- representation helpers -------------------------------------------------- */

static inline u128 mant_of(const dsi_quantity *q)
{
	u128 m = {q->mant_hi, q->mant_lo};
	return m;
}

/* Move factors of ten from m into e; store into q. Returns -1 when the
 * result exceeds the representation (q untouched). */
static int store(dsi_quantity *q, int sign, u128 m, int64_t e)
{
	if (u128_is_zero(m)) {
		q->mant_hi = q->mant_lo = 0;
		q->exp = 0;
		q->sign = 0;
		return 0;
	}
	for (;;) {
		u128 t = m;
		if (u128_divmod32(&t, 10) != 0)
			break;
		m = t;
		e++;
	}
	if (u128_cmp(m, pow10_tab[DSI_QUANTITY_MAX_DIGITS]) >= 0 || e > DSI_QUANTITY_MAX_EXP)
		return -1;
	q->mant_hi = m.hi;
	q->mant_lo = m.lo;
	q->exp = (int32_t)e;
	q->sign = (int8_t)(sign < 0 ? -1 : 1);
	return 0;
}

/* ---- parsing ---------------------------------------------------------------------- */

/* Upstream's error texts (ErrFormatWrong, ErrNumeric, ErrSuffix in quantity.go). */
static const char msg_format[] =
	"quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
static const char msg_numeric[] = "unable to parse numeric part of quantity";
static const char msg_suffix[] = "unable to parse quantity's suffix";

static inline int is_digit(char c) { return c >= '0' && c <= '9'; }

static int is_suffix_char(char c)
{
	switch (c) {
	case 'e':
	case 'E':
	case 'i':
	case 'n':
	case 'u':
	case 'm':
	case 'k':
	case 'K':
	case 'M':
	case 'G':
	case 'T':
	case 'P': return 1;
	default: return 0;
	}
}

/* quantitySuffixer.interpret (apimachinery pkg/api/resource/suffix.go) */
static int interpret_suffix(const char *s, size_t n, int *base, int64_t *exp, uint8_t *format)
{
	static const struct {
		const char *text;
		int base, exp;
		uint8_t format;
	} tab[] = {
		{"", 10, 0, DSI_QFMT_DECIMAL_SI},   {"n", 10, -9, DSI_QFMT_DECIMAL_SI},
		{"u", 10, -6, DSI_QFMT_DECIMAL_SI}, {"m", 10, -3, DSI_QFMT_DECIMAL_SI},
		{"k", 10, 3, DSI_QFMT_DECIMAL_SI},  {"M", 10, 6, DSI_QFMT_DECIMAL_SI},
		{"G", 10, 9, DSI_QFMT_DECIMAL_SI},  {"T", 10, 12, DSI_QFMT_DECIMAL_SI},
		{"P", 10, 15, DSI_QFMT_DECIMAL_SI}, {"E", 10, 18, DSI_QFMT_DECIMAL_SI},
		{"Ki", 2, 10, DSI_QFMT_BINARY_SI},  {"Mi", 2, 20, DSI_QFMT_BINARY_SI},
		{"Gi", 2, 30, DSI_QFMT_BINARY_SI},  {"Ti", 2, 40, DSI_QFMT_BINARY_SI},
		{"Pi", 2, 50, DSI_QFMT_BINARY_SI},  {"Ei", 2, 60, DSI_QFMT_BINARY_SI},
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strlen(tab[i].text) == n && memcmp(tab[i].text, s, n) == 0) {
			*base = tab[i].base;
			*exp = tab[i].exp;
			*format = tab[i].format;
			return 1;
		}
	if (n > 1 && (s[0] == 'e' || s[0] == 'E')) {
		int64_t v;
		if (!dsi_parse_go_int64(s + 1, n - 1, &v))
			return 0;
		*base = 10;
		*exp = v;
		*format = DSI_QFMT_DECIMAL_EXPONENT;
		return 1;
	}
	return 0;
}

typedef struct lexed {
	const char *s;
	int neg;
	size_t int_start, ni;  /* integer digits, leading zeros included */
	size_t frac_start, nf; /* fraction digits */
	size_t lz;             /* leading zeros of the integer digits */
} lexed;

static inline char digit_at(const lexed *x, size_t i)
{
	return i < x->ni ? x->s[x->int_start + i] : x->s[x->frac_start + (i - x->ni)];
}

/*
 * Upstream's fast path in ParseQuantity decides two visible things: whether
 * String() echoes the input text, and (for text without digits) whether the
 * slow path's inf.Dec parse fails with ErrNumeric. Returns 1 when upstream
 * takes the fast path.
 */
static int upstream_fast_path(const lexed *x, int base, int64_t e10, int *verbatim)
{
	size_t nnum = x->ni - x->lz;   /* numerator without leading zeros */
	size_t lnum = nnum ? nnum : 1; /* upstream uses "0" when empty */
	*verbatim = 0;
	if (base == 10) {
		if (lnum + x->nf > 18)
			return 0;
		int64_t scale = e10 - (int64_t)x->nf;
		if (scale < -9)
			return 0;
		/* shifted = num + denom: canonical-looking when it has no leading
		 * zero, does not end in "000" and scale is a multiple of 3 */
		size_t total = lnum + x->nf;
		int ends000 = total >= 3;
		for (size_t k = 0; ends000 && k < 3; k++) {
			size_t i = total - 1 - k; /* index into num+denom */
			char c = i < lnum ? (nnum ? x->s[x->int_start + x->lz + i] : '0')
					  : x->s[x->frac_start + (i - lnum)];
			ends000 = c == '0';
		}
		*verbatim = scale % 3 == 0 && nnum > 0 && !ends000;
		return 1;
	}
	if (x->nf != 0)
		return 0;
	int64_t precision = 15 - (int64_t)lnum - e10 * 3 / 10 - 1;
	if (precision < 0)
		return 0;
	uint64_t v = 0;
	for (size_t i = 0; i < nnum; i++)
		v = v * 10 + (uint64_t)(x->s[x->int_start + x->lz + i] - '0');
	*verbatim = (v & 7) != 0; /* value&0x07 != 0 */
	return 1;
}

static int parse_decimal(const lexed *x, int64_t e10, dsi_quantity *q, ds_error *err)
{
	size_t n = x->ni + x->nf;
	size_t f = 0, l = 0;
	int any = 0;
	for (size_t i = 0; i < n; i++)
		if (digit_at(x, i) != '0') {
			if (!any)
				f = i;
			any = 1;
			l = i;
		}
	if (!any)
		return 0; /* zero */
	int64_t E = e10 - (int64_t)x->nf;
	int64_t icut = (int64_t)n - 1 + E + 9; /* digits at or left of icut are >= 10^-9 */
	u128 m = u128_of(0);
	int64_t e;
	if ((int64_t)f > icut) {
		/* everything is below nano: rounds up to 1n (roundUp, away from zero) */
		m = u128_of(1);
		e = -9;
	} else {
		int64_t last = (int64_t)l < icut ? (int64_t)l : icut;
		if (last - (int64_t)f + 1 > DSI_QUANTITY_MAX_DIGITS)
			return dsi_error_set(err, DS_ELIMIT, NULL, "quantity has more than %d significant digits",
					     DSI_QUANTITY_MAX_DIGITS);
		for (int64_t i = (int64_t)f; i <= last; i++) {
			u128_mul(&m, 10);
			u128_add(&m, u128_of((uint64_t)(digit_at(x, (size_t)i) - '0')));
		}
		e = E + ((int64_t)n - 1 - last);
		if ((int64_t)l > last)
			u128_add(&m, u128_of(1)); /* inf.RoundUp at nano precision */
	}
	if (store(q, x->neg ? -1 : 1, m, e) < 0)
		return dsi_error_set(err, DS_ELIMIT, NULL, "quantity is too large (more than 10^%d)",
				     DSI_QUANTITY_MAX_EXP);
	return 0;
}

static int parse_binary(const lexed *x, int64_t e2, dsi_quantity *q)
{
	const u128 cap = u128_of((uint64_t)INT64_MAX); /* maxAllowed */
	size_t nnum = x->ni - x->lz;
	const char *num = x->s + x->int_start + x->lz;
	u128 z = u128_of(0);
	uint64_t nano = 0;
	int sticky = 0, capped = 0;
	if (nnum > 19) {
		capped = 1;
	} else {
		uint64_t iv = 0;
		for (size_t i = 0; i < nnum; i++)
			iv = iv * 10 + (uint64_t)(num[i] - '0');
		uint64_t mult = (uint64_t)1 << e2;
		z = mul64(iv, mult);
		/* fraction * 2^e2, exactly, from the last digit: digits below
		 * nano only matter as "non-zero" for rounding up */
		uint64_t carry = 0;
		for (size_t j = x->nf; j >= 1; j--) {
			uint64_t d = (uint64_t)(x->s[x->frac_start + j - 1] - '0');
			uint64_t t = d * mult + carry;
			uint64_t r = t % 10;
			carry = t / 10;
			if (j > 9)
				sticky |= r != 0;
			else
				nano += r * pow10_tab[9 - j].lo;
		}
		u128_add(&z, u128_of(carry));
		int c = u128_cmp(z, cap);
		capped = c > 0 || (c == 0 && (nano || sticky));
	}
	int sign = x->neg ? -1 : 1;
	if (capped) {
		store(q, sign, cap, 0); /* the cap applies to the magnitude */
		return 0;
	}
	u128_mul(&z, 1000000000u);
	u128_add(&z, u128_of(nano + (uint64_t)sticky));
	store(q, sign, z, -9);
	return 0;
}

int dsi_quantity_plain(const char *s, size_t n)
{
	/* 1 to 9 digits (no sign, no fraction), then "" or one of the SI suffixes of interpret_suffix:
	 * at most 999999999Ei, far inside what parse_binary and parse_decimal hold */
	size_t d = 0;
	while (d < n && d < 10 && s[d] >= '0' && s[d] <= '9')
		d++;
	if (d == 0 || d > 9)
		return 0;
	const char *x = s + d;
	switch (n - d) {
	case 0: return 1;
	case 1: return *x == 'm' || *x == 'k' || *x == 'M' || *x == 'G' || *x == 'T' || *x == 'P' || *x == 'E';
	case 2:
		return x[1] == 'i' &&
		       (x[0] == 'K' || x[0] == 'M' || x[0] == 'G' || x[0] == 'T' || x[0] == 'P' || x[0] == 'E');
	default: return 0;
	}
}

/* ParseQuantity (apimachinery pkg/api/resource/quantity.go) */
int dsi_quantity_parse(const char *s, size_t n, dsi_quantity *q, ds_error *err)
{
	memset(q, 0, sizeof(*q));
	if (!s || n == 0)
		return dsi_error_set(err, DS_EVALUE, NULL, "%s", msg_format);
	if (n == 1 && s[0] == '0') {
		q->verbatim = 1;
		return 0;
	}
	/* parseQuantityString: sign, digits, '.', digits, suffix letters, sign, digits */
	lexed x;
	memset(&x, 0, sizeof(x));
	x.s = s;
	size_t pos = 0;
	if (s[0] == '-' || s[0] == '+') {
		x.neg = s[0] == '-';
		pos = 1;
	}
	x.int_start = pos;
	while (pos < n && is_digit(s[pos]))
		pos++;
	x.ni = pos - x.int_start;
	x.frac_start = pos;
	if (pos < n && s[pos] == '.') {
		x.frac_start = ++pos;
		while (pos < n && is_digit(s[pos]))
			pos++;
		x.nf = pos - x.frac_start;
	}
	size_t suf = pos;
	while (pos < n && is_suffix_char(s[pos]))
		pos++;
	if (pos < n && (s[pos] == '+' || s[pos] == '-'))
		pos++;
	while (pos < n && is_digit(s[pos]))
		pos++;
	if (pos != n)
		return dsi_error_set(err, DS_EVALUE, NULL, "%s", msg_format);
	while (x.lz < x.ni && s[x.int_start + x.lz] == '0')
		x.lz++;

	int base;
	int64_t e;
	uint8_t format;
	if (!interpret_suffix(s + suf, n - suf, &base, &e, &format))
		return dsi_error_set(err, DS_EVALUE, NULL, "%s", msg_suffix);
	if (e < INT32_MIN || e > INT32_MAX)
		return dsi_error_set(err, DS_ELIMIT, NULL,
				     "quantity exponent %lld is out of range (Kubernetes would truncate it to 32 bits)",
				     (long long)e);
	int verbatim;
	int fast = upstream_fast_path(&x, base, e, &verbatim);
	if (!fast && x.ni + x.nf == 0)
		return dsi_error_set(err, DS_EVALUE, NULL, "%s", msg_numeric); /* inf.Dec finds no digit */

	int rc = base == 10 ? parse_decimal(&x, e, q, err) : parse_binary(&x, e, q);
	if (rc < 0) {
		memset(q, 0, sizeof(*q));
		return rc;
	}
	q->format = format;
	if (base == 2 && q->sign && q->exp < 0 && u128_ndigits(mant_of(q)) + q->exp <= 0)
		q->format = DSI_QFMT_DECIMAL_SI; /* a BinarySI value strictly between 0 and 1 */
	q->verbatim = (uint8_t)verbatim;
	return 0;
}

/* ---- integer views ------------------------------------------------------------------ */

/* Quantity.ScaledValue (apimachinery pkg/api/resource/quantity.go): ceil(q / 10^scale)
 * away from zero; upstream's garbage on overflow becomes an explicit flag. */
int64_t dsi_quantity_scaled(const dsi_quantity *q, int scale, int *overflow)
{
	if (overflow)
		*overflow = 0;
	if (!q->sign)
		return 0;
	int64_t e = (int64_t)q->exp - scale;
	u128 v = mant_of(q);
	if (e >= 0) {
		if (u128_ndigits(v) + e > 20 || u128_mul_pow10(&v, e) < 0)
			goto overflow;
	} else if (e < -DSI_QUANTITY_MAX_DIGITS) {
		v = u128_of(1);
	} else {
		int rem = 0;
		int64_t k = -e;
		while (k > 0) {
			int step = k > 9 ? 9 : (int)k;
			rem |= u128_divmod32(&v, (uint32_t)pow10_tab[step].lo) != 0;
			k -= step;
		}
		if (rem)
			u128_add(&v, u128_of(1));
	}
	uint64_t limit = q->sign > 0 ? (uint64_t)INT64_MAX : (uint64_t)INT64_MAX + 1;
	if (v.hi || v.lo > limit)
		goto overflow;
	if (q->sign > 0)
		return (int64_t)v.lo;
	return v.lo == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v.lo;
overflow:
	if (overflow)
		*overflow = 1;
	return q->sign > 0 ? INT64_MAX : INT64_MIN;
}

/* Quantity.Value (apimachinery pkg/api/resource/quantity.go) */
int64_t dsi_quantity_value(const dsi_quantity *q, int *overflow) { return dsi_quantity_scaled(q, 0, overflow); }

/* Quantity.MilliValue (apimachinery pkg/api/resource/quantity.go) */
int64_t dsi_quantity_milli(const dsi_quantity *q, int *overflow) { return dsi_quantity_scaled(q, -3, overflow); }

/* ---- comparison and arithmetic ------------------------------------------------------- */

static int cmp_magnitude(const dsi_quantity *a, const dsi_quantity *b)
{
	u128 x = mant_of(a), y = mant_of(b);
	int64_t oa = u128_ndigits(x) + (int64_t)a->exp, ob = u128_ndigits(y) + (int64_t)b->exp;
	if (oa != ob)
		return oa < ob ? -1 : 1;
	/* same order of magnitude: aligning fits in 38 digits */
	if (a->exp > b->exp)
		u128_mul_pow10(&x, (int64_t)a->exp - b->exp);
	else if (b->exp > a->exp)
		u128_mul_pow10(&y, (int64_t)b->exp - a->exp);
	return u128_cmp(x, y);
}

/* Quantity.Cmp (apimachinery pkg/api/resource/quantity.go) */
int dsi_quantity_cmp(const dsi_quantity *a, const dsi_quantity *b)
{
	if (a->sign != b->sign)
		return a->sign < b->sign ? -1 : 1;
	if (!a->sign)
		return 0;
	int c = cmp_magnitude(a, b);
	return a->sign > 0 ? c : -c;
}

static int add_signed(dsi_quantity *acc, const dsi_quantity *b, int bsign)
{
	dsi_quantity r = *acc;
	r.verbatim = 0;
	if (!acc->sign)
		r.format = b->format; /* a zero accumulator takes y's format */
	if (!bsign) {
		*acc = r;
		return 0;
	}
	if (!acc->sign) {
		r.mant_hi = b->mant_hi;
		r.mant_lo = b->mant_lo;
		r.exp = b->exp;
		r.sign = (int8_t)bsign;
		*acc = r;
		return 0;
	}
	u128 x = mant_of(acc), y = mant_of(b);
	int64_t lo = acc->exp < b->exp ? acc->exp : b->exp;
	if (u128_mul_pow10(&x, (int64_t)acc->exp - lo) < 0 || u128_mul_pow10(&y, (int64_t)b->exp - lo) < 0)
		return -1; /* the operands are more than 38 digits apart: so is the sum */
	int sign;
	u128 sum;
	if (acc->sign == bsign) {
		sum = x;
		if (u128_add(&sum, y) < 0)
			return -1;
		sign = bsign;
	} else {
		int c = u128_cmp(x, y);
		sum = c >= 0 ? u128_sub(x, y) : u128_sub(y, x);
		sign = c >= 0 ? acc->sign : bsign;
	}
	if (store(&r, sign, sum, lo) < 0)
		return -1;
	*acc = r;
	return 0;
}

/* Quantity.Add (apimachinery pkg/api/resource/quantity.go) */
int dsi_quantity_add(dsi_quantity *acc, const dsi_quantity *b) { return add_signed(acc, b, b->sign); }

/* Quantity.Sub (apimachinery pkg/api/resource/quantity.go) */
int dsi_quantity_sub(dsi_quantity *acc, const dsi_quantity *b) { return add_signed(acc, b, -b->sign); }

/* ---- canonical string ------------------------------------------------------------------ */

static int64_t floor_div3(int64_t e) { return e >= 0 ? e / 3 : -((-e + 2) / 3); }

/* Quantity.CanonicalizeBytes (apimachinery pkg/api/resource/quantity.go) */
int dsi_quantity_format(const dsi_quantity *q, char *buf, size_t size)
{
	char t[DSI_QUANTITY_STRING_MAX + 16];
	size_t n = 0;
	if (!q->sign) {
		t[n++] = '0';
		goto out;
	}
	if (q->sign < 0)
		t[n++] = '-';
	u128 m = mant_of(q);
	int64_t e = q->exp;
	int nd = u128_ndigits(m);
	int format = q->format;
	if (format == DSI_QFMT_BINARY_SI) {
		/* decimal form below 1024, for fractions, and (ours) from 10^38 on */
		u128 v = m;
		if (e < 0 || nd + e > DSI_QUANTITY_MAX_DIGITS || u128_mul_pow10(&v, e) < 0 ||
		    u128_cmp(v, u128_of(1024)) < 0) {
			format = DSI_QFMT_DECIMAL_SI;
		} else {
			static const char *const bin[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
			int k = 0;
			while (k < 6 && (v.lo & 1023u) == 0) { /* divisible by 1024 */
				v.lo = (v.lo >> 10) | (v.hi << 54);
				v.hi >>= 10;
				k++;
			}
			n += u128_to_str(v, t + n);
			memcpy(t + n, bin[k], strlen(bin[k]));
			n += strlen(bin[k]);
			goto out;
		}
	}
	/* largest exponent that is a multiple of 3 with an integer mantissa */
	int64_t e3 = floor_div3(e) * 3;
	if (format == DSI_QFMT_DECIMAL_SI && e3 > 18 && nd + (e - 18) <= 40)
		e3 = 18; /* past E there is no suffix: write ...000E */
	n += u128_to_str(m, t + n);
	for (int64_t k = e3; k < e; k++)
		t[n++] = '0';
	if (format == DSI_QFMT_DECIMAL_SI && e3 >= -9 && e3 <= 18) {
		static const char *const dec[] = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
		const char *sfx = dec[(e3 + 9) / 3];
		memcpy(t + n, sfx, strlen(sfx));
		n += strlen(sfx);
	} else if (e3 != 0) {
		n += (size_t)snprintf(t + n, sizeof(t) - n, "e%lld", (long long)e3);
	}
out:
	t[n] = '\0';
	if (size) {
		size_t c = n < size ? n : size - 1;
		memcpy(buf, t, c);
		buf[c] = '\0';
	}
	return (int)n;
}

/* ---- JSON ---------------------------------------------------------------------------- */

/* Length of a Unicode white-space character (unicode.IsSpace) at s, else 0. */
static size_t space_at(const unsigned char *s, size_t n)
{
	if (!n)
		return 0;
	unsigned char c = s[0];
	if (c == ' ' || (c >= '\t' && c <= '\r'))
		return 1;
	if (c == 0xc2 && n >= 2 && (s[1] == 0x85 || s[1] == 0xa0))
		return 2;
	if (n < 3)
		return 0;
	if (c == 0xe1 && s[1] == 0x9a && s[2] == 0x80) /* U+1680 */
		return 3;
	if (c == 0xe2 && s[1] == 0x80 &&
	    ((s[2] >= 0x80 && s[2] <= 0x8a) || s[2] == 0xa8 || s[2] == 0xa9 || s[2] == 0xaf))
		return 3;                              /* U+2000..200A, U+2028, U+2029, U+202F */
	if (c == 0xe2 && s[1] == 0x81 && s[2] == 0x9f) /* U+205F */
		return 3;
	if (c == 0xe3 && s[1] == 0x80 && s[2] == 0x80) /* U+3000 */
		return 3;
	return 0;
}

/* strings.TrimSpace */
static void trim_space(const char **s, size_t *n)
{
	const unsigned char *p = (const unsigned char *)*s;
	size_t len = *n, k;
	while ((k = space_at(p, len)) > 0) {
		p += k;
		len -= k;
	}
	for (;;) {
		size_t cut = 0;
		for (size_t w = 1; w <= 3 && w <= len && !cut; w++)
			if (space_at(p + len - w, w) == w)
				cut = w;
		if (!cut)
			break;
		len -= cut;
	}
	*s = (const char *)p;
	*n = len;
}

/* The text Quantity.UnmarshalJSON parses for a JSON value (a number's is written into num); DS_ETYPE at
 * key (NULL: the current path) for other types. */
static int value_text(dsi_rd *rd, const char *key, const json_t *v, char *num, size_t numsize, const char **text,
		      size_t *len)
{
	if (json_is_string(v)) {
		*text = json_string_value(v);
		*len = json_string_length(v);
		trim_space(text, len);
		return 0;
	}
	if (json_is_integer(v)) {
		snprintf(num, numsize, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		dsi_format_go_json_float(json_real_value(v), num, numsize);
	} else {
		return dsi_rd_fail(rd, key, DS_ETYPE,
				   "expected a quantity (a string such as \"100m\" or a number), got %s",
				   dsi_json_type_name(v));
	}
	*text = num;
	*len = strlen(num);
	return 0;
}

/* The quantity of a JSON value and the text it was parsed from (value_text); errors at key. */
static int value_quantity(dsi_rd *rd, const char *key, const json_t *v, char *num, size_t numsize, const char **text,
			  size_t *len, dsi_quantity *q)
{
	int rc = value_text(rd, key, v, num, numsize, text, len);
	if (rc < 0)
		return rc;
	ds_error tmp;
	dsi_error_clear(&tmp);
	rc = dsi_quantity_parse(*text, *len, q, &tmp);
	if (rc < 0)
		return rc == DS_ENOMEM ? dsi_error_nomem(rd->err) : dsi_rd_fail(rd, key, rc, "%s", tmp.message);
	return 0;
}

/* Quantity.UnmarshalJSON (apimachinery pkg/api/resource/quantity.go) */
int dsi_quantity_from_json(dsi_rd *rd, const json_t *v, dsi_quantity *q)
{
	memset(q, 0, sizeof(*q));
	if (!v || json_is_null(v))
		return 0;
	char num[64];
	const char *text;
	size_t len;
	return value_quantity(rd, NULL, v, num, sizeof(num), &text, &len, q);
}

int dsi_quantity_read(dsi_rd *rd, const json_t *obj, const char *key, dsi_quantity *q, int *present)
{
	json_t *v = obj ? json_object_get(obj, key) : NULL;
	memset(q, 0, sizeof(*q));
	if (present)
		*present = v && !json_is_null(v);
	if (!v || json_is_null(v))
		return 0;
	size_t mark = dsi_rd_push(rd, key);
	int rc = dsi_quantity_from_json(rd, v, q);
	dsi_rd_pop(rd, mark);
	return rc;
}

/* What the API server serves for one member (Quantity.String with its verbatim quirk). */
static int served_text(dsi_rd *rd, const char *key, const json_t *v, char *out, size_t size, int *keep)
{
	*keep = 0;
	if (json_is_null(v)) {
		snprintf(out, size, "0");
		return 0;
	}
	char num[64];
	const char *text;
	size_t len;
	dsi_quantity q;
	int rc = value_quantity(rd, key, v, num, sizeof(num), &text, &len, &q);
	if (rc < 0)
		return rc;
	if (q.verbatim && json_is_string(v) && len == json_string_length(v)) {
		*keep = 1; /* served exactly as written */
		return 0;
	}
	if (q.verbatim) {
		if (len >= size)
			return dsi_rd_fail(rd, key, DS_ELIMIT, "quantity text is too long");
		memcpy(out, text, len);
		out[len] = '\0';
		return 0;
	}
	dsi_quantity_format(&q, out, size);
	return 0;
}

int dsi_quantity_served_text(const json_t *v, char *out, size_t size)
{
	int keep;
	dsi_rd rd;
	dsi_rd_init(&rd, NULL);
	return served_text(&rd, NULL, v, out, size, &keep) < 0 || keep ? 1 : 0;
}

json_t *dsi_quantity_served_json(json_t *v)
{
	char buf[DSI_QUANTITY_STRING_MAX];
	return dsi_quantity_served_text(v, buf, sizeof(buf)) ? json_incref(v) : json_string(buf);
}

int dsi_quantity_normalize_json(json_t *map, ds_error *err)
{
	if (!map || json_is_null(map))
		return 0;
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	if (!json_is_object(map))
		return dsi_rd_fail(&rd, NULL, DS_ETYPE, "expected an object of quantities, got %s",
				   dsi_json_type_name(map));
	const char *key;
	json_t *v;
	char buf[DSI_QUANTITY_STRING_MAX];
	int keep, rc;
	/* validate everything first: all or nothing */
	json_object_foreach(map, key, v)
	{
		if ((rc = served_text(&rd, key, v, buf, sizeof(buf), &keep)) < 0)
			return rc;
	}
	json_object_foreach(map, key, v)
	{
		if ((rc = served_text(&rd, key, v, buf, sizeof(buf), &keep)) < 0)
			return rc;
		if (!keep && json_object_set_new(map, key, json_string(buf)) < 0)
			return dsi_error_nomem(err);
	}
	return 0;
}
