/* ds_time_parse / ds_time_format (include/daemonset/common.h).
 *
 * metav1.Time decodes with time.Parse(time.RFC3339, s) (apimachinery pkg/apis/meta/v1/time.go UnmarshalJSON).
 * Go's Parse first tries the strict parseRFC3339 (time/format_rfc3339.go) and, when that fails, the general
 * layout parser (time/format.go parse), so what Kubernetes accepts is the union of the two: the layout
 * "2006-01-02T15:04:05Z07:00" read with getnum (a one-digit hour is fine, "15" is not zero-padded), a fractional
 * second after '.' or ',' (truncated), "Z" only in upper case, the literal 'T' matched byte for byte, and a
 * numeric offset whose hour may be 24 and minute 60 ("some people do write offsets of 24 hours"). Seconds stop at
 * 59 (no leap second); years have exactly four digits. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define S 1000LL
#define H (3600 * S)
#define T20261202 1796223845000LL /* 2026-12-02T15:04:05Z */
#define YEAR0 (-62167219200000LL) /* 0000-01-01T00:00:00Z */

static ds_time parse_ok(const char *text)
{
	ds_time t = -12345;
	ds_error err;
	int rc = ds_time_parse(text, &t, &err);
	ck_assert_msg(rc == 0, "\"%s\": %s: %s", text, ds_strerror(rc), err.message);
	return t;
}

static void parse_bad(const char *text)
{
	ds_time t = -12345;
	ds_error err;
	int rc = ds_time_parse(text, &t, &err);
	ck_assert_msg(rc == DS_EVALUE, "\"%s\": rc %d, want DS_EVALUE (parsed as %lld)", text, rc, (long long)t);
	ck_assert_int_eq(err.code, DS_EVALUE);
	ck_assert_msg(err.message[0] != '\0', "\"%s\": no message", text);
	ck_assert_msg(t == -12345, "\"%s\": out written on error", text);
}

static void format_is(ds_time t, const char *want)
{
	char buf[32];
	int n = ds_time_format(t, buf, sizeof(buf));
	ck_assert_msg(n == (int)strlen(want), "%lld: length %d, want %zu (%s)", (long long)t, n, strlen(want), buf);
	ck_assert_str_eq(buf, want);
}

START_TEST(parse_basic)
{
	ck_assert_int_eq(parse_ok("1970-01-01T00:00:00Z"), 0);
	ck_assert_int_eq(parse_ok("2026-12-02T15:04:05Z"), T20261202);
	ck_assert_int_eq(parse_ok("1969-07-20T20:17:40Z"), -14182940000LL);
	ck_assert_int_eq(parse_ok("2024-02-29T00:00:00Z"), 1709164800000LL);
	ck_assert_int_eq(parse_ok("2000-02-29T12:00:00Z"), 951825600000LL);
	/* the general parser reads the hour ("15") with getnum: one digit is enough */
	ck_assert_int_eq(parse_ok("2026-12-02T5:04:05Z"), T20261202 - 10 * H);
	ck_assert_int_eq(parse_ok("2026-12-02T05:04:05Z"), T20261202 - 10 * H);
}
END_TEST

START_TEST(parse_fraction)
{
	ck_assert_int_eq(parse_ok("2026-12-02T15:04:05.5Z"), T20261202 + 500);
	ck_assert_int_eq(parse_ok("2026-12-02T15:04:05.123Z"), T20261202 + 123);
	ck_assert_int_eq(parse_ok("2026-12-02T15:04:05.000001Z"), T20261202);
	/* truncated, not rounded (parseNanoseconds), and any number of digits */
	ck_assert_int_eq(parse_ok("2026-12-02T15:04:05.9999Z"), T20261202 + 999);
	ck_assert_int_eq(parse_ok("2026-12-02T15:04:05.123456789Z"), T20261202 + 123);
	ck_assert_int_eq(parse_ok("2026-12-02T15:04:05.12345678901234567890Z"), T20261202 + 123);
	/* a comma works as the separator too (commaOrPeriod) */
	ck_assert_int_eq(parse_ok("2026-12-02T15:04:05,25Z"), T20261202 + 250);
	ck_assert_int_eq(parse_ok("2026-12-02T15:04:05.5+01:00"), T20261202 + 500 - H);
	/* a separator needs a digit after it */
	parse_bad("2026-12-02T15:04:05.Z");
	parse_bad("2026-12-02T15:04:05,Z");
	parse_bad("2026-12-02T15:04:05.5");
	parse_bad("2026-12-02T15:04:05..5Z");
	parse_bad("2026-12-02T15:04:05.5.5Z");
}
END_TEST

START_TEST(parse_offsets)
{
	ck_assert_int_eq(parse_ok("2026-12-02T17:04:05+02:00"), T20261202);
	ck_assert_int_eq(parse_ok("2026-12-02T07:34:05-07:30"), T20261202);
	ck_assert_int_eq(parse_ok("2026-12-02T15:04:05+00:00"), T20261202);
	ck_assert_int_eq(parse_ok("2026-12-02T15:04:05-00:00"), T20261202);
	ck_assert_int_eq(parse_ok("2026-12-03T15:03:05+23:59"), T20261202 + 24 * H - 23 * H - 59 * 60 * S - 60 * S);
	/* the general parser's range test is "> 24" and "> 60" */
	ck_assert_int_eq(parse_ok("2026-12-03T15:04:05+24:00"), T20261202);
	ck_assert_int_eq(parse_ok("2026-12-02T16:04:05+00:60"), T20261202);
	ck_assert_int_eq(parse_ok("2026-12-01T14:04:05-24:60"), T20261202);
	parse_bad("2026-12-02T15:04:05+25:00");
	parse_bad("2026-12-02T15:04:05+00:61");
	parse_bad("2026-12-02T15:04:05+0200");
	parse_bad("2026-12-02T15:04:05+2:00");
	parse_bad("2026-12-02T15:04:05+02");
	parse_bad("2026-12-02T15:04:05+02:0");
	parse_bad("2026-12-02T15:04:05+02:000");
	parse_bad("2026-12-02T15:04:05 02:00");
	parse_bad("2026-12-02T15:04:05*02:00");
	parse_bad("2026-12-02T15:04:05Z+02:00");
	parse_bad("2026-12-02T15:04:05");
	/* crossing the year boundary is fine */
	ck_assert_int_eq(parse_ok("0000-01-01T00:00:00+01:00"), YEAR0 - H);
	ck_assert_int_eq(parse_ok("9999-12-31T23:59:59-01:00"), 253402300799000LL + H);
}
END_TEST

/* Go matches the layout's literals byte for byte: no lower-case 't' or 'z', no space for 'T'. */
START_TEST(parse_case_and_separators)
{
	parse_bad("2026-12-02t15:04:05Z");
	parse_bad("2026-12-02T15:04:05z");
	parse_bad("2026-12-02t15:04:05z");
	parse_bad("2026-12-02 15:04:05Z");
	parse_bad("2026-12-02_15:04:05Z");
	parse_bad("2026/12/02T15:04:05Z");
	parse_bad("2026-12-02T15.04.05Z");
	parse_bad(" 2026-12-02T15:04:05Z");
	parse_bad("2026-12-02T15:04:05Z ");
	parse_bad("2026-12-02T15:04:05Zjunk");
	parse_bad("2026-12-02");
	parse_bad("2026-12-02T");
	parse_bad("");
	parse_bad("yesterday");
	/* the hour has one or two digits, minutes and seconds exactly two */
	parse_bad("2026-12-02T015:04:05Z");
	parse_bad("2026-12-02TT15:04:05Z");
	parse_bad("2026-12-02T15:4:05Z");
	parse_bad("2026-12-02T15:04:5Z");
	parse_bad("2026-12-02T:04:05Z");
	/* month and day exactly two digits */
	parse_bad("2026-1-02T15:04:05Z");
	parse_bad("2026-12-2T15:04:05Z");
}
END_TEST

START_TEST(parse_ranges)
{
	/* years 0000..9999, exactly four digits */
	ck_assert_int_eq(parse_ok("0000-01-01T00:00:00Z"), YEAR0);
	ck_assert_int_eq(parse_ok("0000-02-29T00:00:00Z"), YEAR0 + (31 + 28) * 24 * H); /* year 0 is a leap year */
	ck_assert_int_eq(parse_ok("9999-12-31T23:59:59Z"), 253402300799000LL);
	ck_assert_int_eq(parse_ok("0001-01-01T00:00:00Z"), YEAR0 + 366 * 24 * H);
	parse_bad("10000-01-01T00:00:00Z");
	parse_bad("999-01-01T00:00:00Z");
	parse_bad("+2026-12-02T15:04:05Z");
	parse_bad("-001-12-02T15:04:05Z");
	/* month, day (per month and leap year), hour, minute, second */
	parse_bad("2026-00-10T00:00:00Z");
	parse_bad("2026-13-01T00:00:00Z");
	parse_bad("2026-01-00T00:00:00Z");
	parse_bad("2026-01-32T00:00:00Z");
	parse_bad("2026-04-31T00:00:00Z");
	parse_bad("2023-02-29T00:00:00Z");
	parse_bad("1900-02-29T00:00:00Z");
	ck_assert_int_eq(parse_ok("2026-04-30T00:00:00Z") + 24 * H, parse_ok("2026-05-01T00:00:00Z"));
	parse_bad("2026-12-02T24:00:00Z");
	parse_bad("2026-12-02T99:00:00Z");
	parse_bad("2026-12-02T23:60:00Z");
	/* no leap second */
	parse_bad("2016-12-31T23:59:60Z");
	parse_bad("2016-12-31T23:59:60.5Z");
	parse_bad("2026-12-02T23:59:99Z");
	ck_assert_int_eq(parse_ok("2016-12-31T23:59:59.999Z") + 1, parse_ok("2017-01-01T00:00:00Z"));
}
END_TEST

START_TEST(parse_errors)
{
	ds_time t = 7;
	ds_error err;
	ck_assert_int_eq(ds_time_parse("2026-12-02 15:04:05Z", &t, &err), DS_EVALUE);
	ck_assert_str_eq(err.message,
			 "expected an RFC 3339 time such as 2006-01-02T15:04:05Z, got \"2026-12-02 15:04:05Z\"");
	ck_assert_str_eq(err.path, "");
	ck_assert_int_eq(ds_time_parse("2026-13-02T15:04:05Z", &t, &err), DS_EVALUE);
	ck_assert_str_eq(err.message, "time \"2026-13-02T15:04:05Z\" is out of range");
	ck_assert_int_eq(t, 7);
	ck_assert_int_eq(ds_time_parse(NULL, &t, &err), DS_EARG);
	ck_assert_int_eq(ds_time_parse("2026-12-02T15:04:05Z", NULL, &err), DS_EARG);
	/* err may be NULL */
	ck_assert_int_eq(ds_time_parse("nope", &t, NULL), DS_EVALUE);
	ck_assert_int_eq(ds_time_parse("2026-12-02T15:04:05Z", &t, NULL), 0);
	ck_assert_int_eq(t, T20261202);
	/* a long input is quoted shortened, never overflowing the message */
	char longtext[600];
	memset(longtext, '9', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	ck_assert_int_eq(ds_time_parse(longtext, &t, &err), DS_EVALUE);
	ck_assert_uint_lt(strlen(err.message), DS_ERROR_MESSAGE_MAX);
}
END_TEST

START_TEST(format_basic)
{
	format_is(0, "1970-01-01T00:00:00Z");
	format_is(T20261202, "2026-12-02T15:04:05Z");
	/* milliseconds only when there is a fraction */
	format_is(T20261202 + 1, "2026-12-02T15:04:05.001Z");
	format_is(T20261202 + 120, "2026-12-02T15:04:05.120Z");
	format_is(T20261202 + 999, "2026-12-02T15:04:05.999Z");
	format_is(-1, "1969-12-31T23:59:59.999Z");
	format_is(-1000, "1969-12-31T23:59:59Z");
	format_is(YEAR0, "0000-01-01T00:00:00Z");
	format_is(253402300799999LL, "9999-12-31T23:59:59.999Z");
	/* outside 0000..9999 Go's appendInt writes a sign and at least four digits (metav1.Time MarshalJSON) */
	format_is(YEAR0 - H, "-0001-12-31T23:00:00Z");
	format_is(253402300800000LL, "10000-01-01T00:00:00Z");
	/* buffer checks */
	char buf[32];
	ck_assert_int_eq(ds_time_format(0, NULL, 32), DS_EARG);
	ck_assert_int_eq(ds_time_format(0, buf, 31), DS_EARG);
	ck_assert_int_eq(ds_time_format(0, buf, 0), DS_EARG);
	/* the extremes of ds_time fit in 32 bytes */
	ck_assert_int_gt(ds_time_format(INT64_MAX, buf, sizeof(buf)), 0);
	ck_assert_uint_lt(strlen(buf), sizeof(buf));
	ck_assert_int_gt(ds_time_format(INT64_MIN, buf, sizeof(buf)), 0);
	ck_assert_uint_lt(strlen(buf), sizeof(buf));
}
END_TEST

START_TEST(round_trip)
{
	/* canonical text survives parse then format, with and without milliseconds */
	static const char *const texts[] = {
		"1970-01-01T00:00:00Z",     "2026-12-02T15:04:05Z",     "2026-12-02T15:04:05.001Z",
		"2026-12-02T15:04:05.500Z", "2024-02-29T23:59:59.999Z", "0000-01-01T00:00:00Z",
		"9999-12-31T23:59:59Z",     "1969-12-31T23:59:59.999Z", "1600-03-01T00:00:00Z",
		"2100-02-28T12:00:00.010Z",
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char buf[32];
		ds_time t = parse_ok(texts[i]);
		ck_assert_int_eq(ds_time_format(t, buf, sizeof(buf)), (int)strlen(texts[i]));
		ck_assert_str_eq(buf, texts[i]);
	}
	/* offsets come back in UTC; digits past the millisecond are dropped */
	format_is(parse_ok("2026-12-02T17:04:05+02:00"), "2026-12-02T15:04:05Z");
	format_is(parse_ok("2026-12-02T15:04:05.123456789Z"), "2026-12-02T15:04:05.123Z");
	format_is(parse_ok("2026-12-02T5:04:05,5Z"), "2026-12-02T05:04:05.500Z");
	/* every millisecond value across 0000..9999 survives format then parse (a coarse sweep plus neighbours) */
	for (ds_time t = YEAR0; t <= 253402300799999LL; t += 7777777777LL) {
		for (int d = 0; d < 3; d++) {
			char buf[32];
			ds_time u = t + d * 333, back = -1;
			ck_assert_int_gt(ds_time_format(u, buf, sizeof(buf)), 0);
			ck_assert_msg(ds_time_parse(buf, &back, NULL) == 0, "%lld formatted as unparsable %s",
				      (long long)u, buf);
			ck_assert_msg(back == u, "%lld -> %s -> %lld", (long long)u, buf, (long long)back);
		}
	}
}
END_TEST

static Suite *time_suite(void)
{
	Suite *s = suite_create("time");
	TCase *tc = tcase_create("rfc3339");
	tcase_add_test(tc, parse_basic);
	tcase_add_test(tc, parse_fraction);
	tcase_add_test(tc, parse_offsets);
	tcase_add_test(tc, parse_case_and_separators);
	tcase_add_test(tc, parse_ranges);
	tcase_add_test(tc, parse_errors);
	tcase_add_test(tc, format_basic);
	tcase_add_test(tc, round_trip);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(time_suite)
