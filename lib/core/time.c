#include "core/time.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"

int64_t dsi_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	/* Howard Hinnant's algorithm */
	y -= m <= 2;
	const int64_t era = (y >= 0 ? y : y - 399) / 400;
	const unsigned yoe = (unsigned)(y - era * 400);
	const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	z += 719468;
	const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	const unsigned doe = (unsigned)(z - era * 146097);
	const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	const unsigned mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static int digits(const char *s, size_t n, size_t at, size_t count, unsigned *out)
{
	if (at + count > n)
		return -1;
	unsigned v = 0;
	for (size_t i = 0; i < count; i++) {
		unsigned c = (unsigned char)s[at + i] - '0';
		if (c > 9)
			return -1;
		v = v * 10 + c;
	}
	*out = v;
	return 0;
}

static int days_in_month(unsigned y, unsigned m)
{
	static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return dm[m - 1];
}

/*
 * time.Parse(time.RFC3339, s), which metav1.Time's UnmarshalJSON calls (apimachinery pkg/apis/meta/v1/time.go).
 * Go tries the strict parseRFC3339 (time/format_rfc3339.go) and falls back to the layout parser (time/format.go
 * parse), so the accepted set is the layout parser's: the hour ("15") has one or two digits, a fraction follows
 * '.' or ',' and is truncated, literals ('T', 'Z') match byte for byte, and an offset may reach 24 hours or
 * 60 minutes. Kept to the millisecond.
 */
int dsi_time_parse(const char *s, size_t n, ds_time *out, ds_error *err)
{
	unsigned Y, M, D, h, mi, se;
	const char *what = "expected an RFC 3339 time such as 2006-01-02T15:04:05Z";
	int shown = (int)(n > 64 ? 64 : n);
	size_t i = 11;
	/* getnum(value, false) for the hour */
	int ok = !digits(s, n, 0, 4, &Y) && n >= 11 && s[4] == '-' && !digits(s, n, 5, 2, &M) && s[7] == '-' &&
		 !digits(s, n, 8, 2, &D) && s[10] == 'T' && !digits(s, n, i, 1, &h);
	if (ok) {
		i++;
		unsigned h2;
		if (!digits(s, n, i, 1, &h2)) {
			h = h * 10 + h2;
			i++;
		}
		ok = i < n && s[i] == ':' && !digits(s, n, i + 1, 2, &mi) && i + 3 < n && s[i + 3] == ':' &&
		     !digits(s, n, i + 4, 2, &se);
		i += 6;
	}
	if (!ok)
		return dsi_error_set(err, DS_EVALUE, NULL, "%s, got \"%.*s\"", what, shown, s);
	if (M < 1 || M > 12 || D < 1 || (int)D > days_in_month(Y, M) || h > 23 || mi > 59 || se > 59)
		return dsi_error_set(err, DS_EVALUE, NULL, "time \"%.*s\" is out of range", shown, s);
	int64_t ms = 0;
	if (i + 1 < n && (s[i] == '.' || s[i] == ',') && s[i + 1] >= '0' && s[i + 1] <= '9') {
		i++;
		int64_t scale = 100;
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			ms += (s[i] - '0') * scale;
			scale /= 10;
			i++;
		}
	}
	int64_t offset = 0;
	if (i < n && s[i] == 'Z') {
		i++;
	} else if (i < n && (s[i] == '+' || s[i] == '-')) {
		unsigned oh, om;
		if (digits(s, n, i + 1, 2, &oh) || i + 3 >= n || s[i + 3] != ':' || digits(s, n, i + 4, 2, &om))
			return dsi_error_set(err, DS_EVALUE, NULL, "%s, got \"%.*s\"", what, shown, s);
		/* the layout parser's test is "> 24" / "> 60": "some people do write offsets of 24 hours" */
		if (oh > 24 || om > 60)
			return dsi_error_set(err, DS_EVALUE, NULL, "time zone offset in \"%.*s\" is out of range",
					     shown, s);
		offset = (int64_t)(oh * 3600 + om * 60) * (s[i] == '-' ? -1 : 1);
		i += 6;
	} else {
		return dsi_error_set(err, DS_EVALUE, NULL, "%s, got \"%.*s\"", what, shown, s);
	}
	if (i != n)
		return dsi_error_set(err, DS_EVALUE, NULL, "%s, got \"%.*s\"", what, shown, s);
	int64_t days = dsi_days_from_civil(Y, M, D);
	int64_t secs = days * 86400 + h * 3600 + mi * 60 + se - offset;
	*out = secs * 1000 + ms;
	return 0;
}

int dsi_time_format(ds_time t, char *buf, size_t size)
{
	if (!buf || size < 32)
		return DS_EARG;
	int64_t secs = t / 1000, ms = t % 1000;
	if (ms < 0) {
		ms += 1000;
		secs--;
	}
	int64_t days = secs / 86400, rem = secs % 86400;
	if (rem < 0) {
		rem += 86400;
		days--;
	}
	int64_t y;
	unsigned m, d;
	civil_from_days(days, &y, &m, &d);
	/* appendInt(b, year, 4) (Go time/format.go): a sign, then at least four digits ("-0001", "10000") */
	char year[24];
	if (y < 0)
		snprintf(year, sizeof(year), "-%04llu", (unsigned long long)(0 - (uint64_t)y));
	else
		snprintf(year, sizeof(year), "%04lld", (long long)y);
	int n;
	if (ms)
		n = snprintf(buf, size, "%s-%02u-%02uT%02u:%02u:%02u.%03uZ", year, m, d, (unsigned)(rem / 3600),
			     (unsigned)(rem / 60 % 60), (unsigned)(rem % 60), (unsigned)ms);
	else
		n = snprintf(buf, size, "%s-%02u-%02uT%02u:%02u:%02uZ", year, m, d, (unsigned)(rem / 3600),
			     (unsigned)(rem / 60 % 60), (unsigned)(rem % 60));
	return n;
}
