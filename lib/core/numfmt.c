#include "core/numfmt.h"

#include <stdint.h>

#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void) { c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0); }

/* Run the C library's conversions in the "C" numeric locale for this thread only. */
static locale_t enter_c_locale(void)
{
	pthread_once(&c_locale_once, make_c_locale);
	return c_locale ? uselocale(c_locale) : (locale_t)0;
}

static void leave_c_locale(locale_t old)
{
	if (old)
		uselocale(old);
}

int dsi_parse_double(const char *text, size_t len, double *out)
{
	char buf[128];
	char *tmp = buf;
	if (len >= sizeof(buf)) {
		tmp = malloc(len + 1);
		if (!tmp)
			return -1;
	}
	memcpy(tmp, text, len);
	tmp[len] = '\0';
	locale_t old = enter_c_locale();
	char *end;
	*out = strtod(tmp, &end);
	leave_c_locale(old);
	int ok = len > 0 && end == tmp + len;
	if (tmp != buf)
		free(tmp);
	return ok ? 0 : -1;
}

/* Shortest "%.*e" digits that round-trip v (as float32 when f32). */
static int shortest_e(double v, int f32, char *buf, size_t size)
{
	int maxp = f32 ? 9 : 17;
	for (int p = 1; p <= maxp; p++) {
		snprintf(buf, size, "%.*e", p - 1, v);
		double back = strtod(buf, NULL);
		if (f32 ? (float)back == (float)v : back == v)
			return p;
	}
	return maxp;
}

/* Split "d.ddde±XX" into digits and decimal exponent. */
static void split_e(const char *e, char *digits, size_t dsize, int *exp10, int *neg)
{
	size_t n = 0;
	const char *p = e;
	*neg = 0;
	if (*p == '-') {
		*neg = 1;
		p++;
	}
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9' && n + 1 < dsize)
			digits[n++] = *p;
	digits[n] = '\0';
	*exp10 = *p == 'e' ? atoi(p + 1) : 0;
	/* drop trailing zeros of the mantissa */
	while (n > 1 && digits[n - 1] == '0')
		digits[--n] = '\0';
}

/* Render digits × 10^(exp10) in fixed or exponent notation, Go style. */
static void render(char *buf, size_t size, int neg, const char *digits, int exp10, int use_e, int go_json)
{
	size_t nd = strlen(digits);
	char out[400];
	size_t o = 0;
	if (neg)
		out[o++] = '-';
	if (use_e) {
		out[o++] = digits[0];
		if (nd > 1) {
			out[o++] = '.';
			for (size_t i = 1; i < nd; i++)
				out[o++] = digits[i];
		}
		int x = exp10;
		char sign = x < 0 ? '-' : '+';
		if (x < 0)
			x = -x;
		if (go_json)
			o += (size_t)snprintf(out + o, sizeof(out) - o, "e%c%d", sign, x);
		else
			o += (size_t)snprintf(out + o, sizeof(out) - o, "e%c%02d", sign, x);
	} else {
		int point = exp10 + 1; /* digits before the decimal point */
		if (point <= 0) {
			out[o++] = '0';
			out[o++] = '.';
			for (int i = 0; i < -point && o < sizeof(out) - 2; i++)
				out[o++] = '0';
			for (size_t i = 0; i < nd && o < sizeof(out) - 1; i++)
				out[o++] = digits[i];
		} else {
			for (int i = 0; i < point && o < sizeof(out) - 2; i++)
				out[o++] = (size_t)i < nd ? digits[i] : '0';
			if ((size_t)point < nd) {
				out[o++] = '.';
				for (size_t i = (size_t)point; i < nd && o < sizeof(out) - 1; i++)
					out[o++] = digits[i];
			}
		}
	}
	out[o] = '\0';
	snprintf(buf, size, "%s", out);
}

static void go_format(double v, int f32, int go_json, char *buf, size_t size)
{
	if (v == 0) {
		snprintf(buf, size, "%s", signbit(v) && !go_json ? "-0" : "0");
		return;
	}
	locale_t old = enter_c_locale();
	char e[64], digits[32];
	int exp10, neg;
	shortest_e(v, f32, e, sizeof(e));
	leave_c_locale(old);
	split_e(e, digits, sizeof(digits), &exp10, &neg);
	int use_e;
	if (go_json) {
		double a = fabs(v);
		use_e = a < 1e-6 || a >= 1e21;
	} else {
		/* strconv 'g' with the shortest precision decides with eprec = 6 */
		use_e = exp10 < -4 || exp10 >= 6;
	}
	render(buf, size, neg, digits, exp10, use_e, go_json);
}

void dsi_format_go_json_float(double v, char *buf, size_t size) { go_format(v, 0, 1, buf, size); }

void dsi_format_go_float32_g(double v, char *buf, size_t size) { go_format(v, 1, 0, buf, size); }

/* ParseInt / ParseUint (Go strconv/atoi.go), base 10 */
int dsi_go_parse_int64(const char *s, size_t n, int64_t *out)
{
	*out = 0;
	size_t i = 0;
	int neg = 0;
	if (n && (s[0] == '+' || s[0] == '-')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i == n)
		return 1;
	uint64_t v = 0;
	for (; i < n; i++) {
		unsigned d = (unsigned)((unsigned char)s[i] - '0');
		if (d > 9)
			return 1;
		if (v > (UINT64_MAX - d) / 10) { /* ParseUint: out of range, reported at once */
			*out = neg ? INT64_MIN : INT64_MAX;
			return 2;
		}
		v = v * 10 + d;
	}
	if (v > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX)) {
		*out = neg ? INT64_MIN : INT64_MAX;
		return 2;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

char *dsi_format_decimal(char *end, unsigned long long magnitude, int negative)
{
	char *p = end;
	do {
		*--p = (char)('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude);
	if (negative)
		*--p = '-';
	return p;
}
