/*
 * dsctl -o yaml: a jansson value through libyaml's event API, styled as kubectl -o yaml prints.
 *
 * kubectl turns an object into JSON, then into YAML with sigs.k8s.io/yaml, which marshals with go-yaml v2
 * (v2.4.0, vendored as sigs.k8s.io/yaml/goyaml.v2). go-yaml's emitter is a Go port of libyaml's, so the same
 * events given to libyaml print the same text; what go-yaml adds is the choice of style for each scalar
 * (encode.go, stringv), which this file carries over:
 *
 *  - Block mappings and block sequences; a sequence under a key is not indented ("key:\n- a"), empty ones
 *    are printed [] and {} (libyaml's check_empty_*).
 *  - Keys sorted as go-yaml sorts map keys (sorter.go, keyList.Less): sigs.k8s.io/yaml's JSONToYAML reads
 *    the JSON into an interface{}, so every object becomes a Go map and go-yaml's mapv sorts its keys:
 *    rune by rune; two letters by code point; a letter after anything else; runs of digits by their value
 *    (worker-2 before worker-10); then by length. Letters are ASCII letters and every character beyond
 *    ASCII (Go's unicode.IsLetter, approximated without Unicode tables), digits ASCII digits.
 *  - A string containing "\n" asks for the literal block style (|, |-, |+ and an indentation indicator as
 *    libyaml decides). libyaml falls back to double quotes where a block scalar cannot carry the text (a
 *    key, a space before a line break, a character that needs an escape).
 *  - Otherwise a string that go-yaml's resolve() would read back as something else than a string when
 *    plain asks for double quotes: the YAML 1.1 words y Y yes Yes YES n N no No NO true True TRUE false
 *    False FALSE on On ON off Off OFF, null Null NULL ~ and the empty string; .inf .Inf .INF (also with + or
 *    -) and .nan .NaN .NAN; text starting with a digit or a sign that strconv.ParseInt or ParseUint (base 0,
 *    so 0x1F, 0b101, 0o17 and 0755 octal; underscores removed first) accept, or that matches yamlStyleFloat
 *    ([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?, underscores removed) and ParseFloat takes without
 *    overflow; text starting with '.' that ParseFloat takes (.5, .5e3); timestamps: four digits, '-', and
 *    then what time.Parse accepts for 2006-1-2T15:4:5.999999999Z07:00 (also with a lower-case t),
 *    "2006-1-2 15:4:5.999999999" or 2006-1-2 (month 1-12, a day that exists, hour < 24, ...); and YAML 1.1
 *    sexagesimal numbers ([-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?, such as 12:30), which go-yaml
 *    quotes although it does not read them.
 *  - Three deliberate differences, for YAML 1.1 and 1.2 readers other than go-yaml:
 *    "<<" is double-quoted: go-yaml's resolve() never looks it up ('<' has no hint in its table) and prints
 *    it plain, but a plain << key is a merge key to every YAML 1.1 reader, go-yaml's and this library's
 *    included, so the text would not read back.
 *    "=" is double-quoted: go-yaml prints it plain, but it is YAML 1.1's value key (tag:yaml.org,2002:value),
 *    which readers such as PyYAML refuse to construct.
 *    A string with a NEL, LS or PS (U+0085, U+2028, U+2029) is double-quoted with the escapes \N, \L, \P:
 *    go-yaml writes LS and PS raw in single quotes or a block scalar, which reads back only where they are
 *    line breaks (YAML 1.1); a YAML 1.2 reader would keep the indentation written after them.
 *  - Everything else asks for the plain style, and libyaml's analysis (the same in go-yaml) turns it into
 *    single quotes when plain text cannot carry it: a leading indicator (- ? : , [ ] { } # & * ! | > ' " %
 *    @ `), ": " or " #" inside, a trailing ':', leading or trailing spaces, "---" or "..." at the start, a
 *    line break (also NEL, LS, PS); and into double quotes with escapes when even single quotes cannot: a
 *    character outside YAML's printable set (C0 and C1 controls with tab, \r and NEL among them, DEL,
 *    U+FEFF, U+FFFE, U+FFFF; libyaml and go-yaml also count characters beyond U+FFFF as such and escape
 *    them), or a space next to a line break.
 *  - Long plain and quoted scalars are folded at spaces after column 80, the width go-yaml v2.4.0 (and so
 *    kubectl) keeps; a folded line reads back as the same text.
 *  - Integers as digits; reals as kubectl prints a float64 (yamlout_real); true, false, null.
 */
#include "yamlout.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int is_word(const char *s, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && memcmp(*list, s, n) == 0)
			return 1;
	return 0;
}

/* go-yaml v2's resolveMap (without "<<"): the plain scalars that are booleans, null or special floats. */
static const char *const resolve_words[] = {"y",     "Y",     "yes",   "Yes",   "YES",   "true",  "True",  "TRUE",
					    "on",    "On",    "ON",    "n",     "N",     "no",    "No",    "NO",
					    "false", "False", "FALSE", "off",   "Off",   "OFF",   "",      "~",
					    "null",  "Null",  "NULL",  ".nan",  ".NaN",  ".NAN",  ".inf",  ".Inf",
					    ".INF",  "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", NULL};

/* strconv.ParseInt(s, 0, 64) or ParseUint(s, 0, 64) succeeds (s has no underscores). */
static int go_int(const char *s, size_t n)
{
	size_t i = 0;
	int neg = 0, sign = 0;
	if (i < n && (s[i] == '+' || s[i] == '-')) {
		neg = s[i] == '-';
		sign = 1;
		i++;
	}
	if (i >= n)
		return 0;
	unsigned base = 10;
	if (s[i] == '0') {
		char c = n - i >= 3 ? s[i + 1] : 0;
		if (c == 'b' || c == 'B')
			base = 2, i += 2;
		else if (c == 'o' || c == 'O')
			base = 8, i += 2;
		else if (c == 'x' || c == 'X')
			base = 16, i += 2;
		else
			base = 8, i += 1; /* "0" alone is 0 */
	}
	uint64_t v = 0;
	for (; i < n; i++) {
		char c = s[i];
		unsigned d = is_digit(c)              ? (unsigned)(c - '0')
			     : (c >= 'a' && c <= 'f') ? (unsigned)(c - 'a' + 10)
			     : (c >= 'A' && c <= 'F') ? (unsigned)(c - 'A' + 10)
						      : 99;
		if (d >= base || v > (UINT64_MAX - d) / base)
			return 0;
		v = v * base + d;
	}
	if (!sign)
		return 1; /* ParseInt, else ParseUint */
	return neg ? v <= (uint64_t)INT64_MAX + 1 : v <= (uint64_t)INT64_MAX;
}

/* go-yaml's yamlStyleFloat. */
static int yaml_style_float(const char *s, size_t n)
{
	size_t i = 0, d;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	if (i < n && s[i] == '.') {
		for (d = ++i; i < n && is_digit(s[i]); i++)
			;
		if (i == d)
			return 0;
	} else {
		for (d = i; i < n && is_digit(s[i]); i++)
			;
		if (i == d)
			return 0;
		if (i < n && s[i] == '.')
			for (i++; i < n && is_digit(s[i]); i++)
				;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		for (d = i; i < n && is_digit(s[i]); i++)
			;
		if (i == d)
			return 0;
	}
	return i == n;
}

/* Go's underscoreOK for a decimal number: each '_' between two digits. */
static int underscore_ok(const char *s, size_t n)
{
	char saw = '^';
	for (size_t i = 0; i < n; i++) {
		if (is_digit(s[i]))
			saw = '0';
		else if (s[i] == '_') {
			if (saw != '0')
				return 0;
			saw = '_';
		} else {
			if (saw == '_')
				return 0;
			saw = '!';
		}
	}
	return saw != '_';
}

/* ParseFloat of text that matched yamlStyleFloat: it fails only when the value overflows. */
static int finite_float(const char *s, size_t n)
{
	char buf[64], *p = n < sizeof(buf) ? buf : malloc(n + 1);
	if (!p)
		return 1; /* out of memory: call it a number, which only quotes it */
	memcpy(p, s, n);
	p[n] = '\0';
	double d = strtod(p, NULL);
	if (p != buf)
		free(p);
	return !isinf(d);
}

/* time.Parse's getnum: one or two digits. */
static int getnum(const char **p, const char *e, int *v)
{
	if (*p >= e || !is_digit(**p))
		return -1;
	*v = *(*p)++ - '0';
	if (*p < e && is_digit(**p))
		*v = *v * 10 + (*(*p)++ - '0');
	return 0;
}

static int days_in(int month, int year)
{
	static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
	return month == 2 && leap ? 29 : days[month - 1];
}

/* go-yaml's parseTimestamp: time.Parse with its four layouts; sep is 'T', 't', ' ' or 0 (date only). */
static int go_timestamp_layout(const char *s, const char *e, char sep)
{
	int year = 0, month, day, h, m, sec;
	for (int i = 0; i < 4; i++)
		year = year * 10 + (s[i] - '0');
	const char *p = s + 5;
	if (getnum(&p, e, &month) < 0 || month < 1 || month > 12 || p >= e || *p++ != '-' || getnum(&p, e, &day) < 0)
		return 0;
	if (sep) {
		if (sep == ' ') { /* a space in a layout matches one or more */
			if (p >= e || *p != ' ')
				return 0;
			while (p < e && *p == ' ')
				p++;
		} else if (p >= e || *p++ != sep) {
			return 0;
		}
		if (getnum(&p, e, &h) < 0 || h > 23 || p >= e || *p++ != ':' || getnum(&p, e, &m) < 0 || m > 59 ||
		    p >= e || *p++ != ':' || getnum(&p, e, &sec) < 0 || sec > 59)
			return 0;
		if (e - p >= 2 && (*p == '.' || *p == ',') && is_digit(p[1])) /* .999999999: any number of digits */
			for (p++; p < e && is_digit(*p); p++)
				;
		if (sep != ' ') { /* Z07:00 */
			if (p < e && *p == 'Z') {
				p++;
			} else {
				if (e - p < 6 || (*p != '+' && *p != '-') || !is_digit(p[1]) || !is_digit(p[2]) ||
				    p[3] != ':' || !is_digit(p[4]) || !is_digit(p[5]))
					return 0;
				if ((p[1] - '0') * 10 + (p[2] - '0') > 24 || (p[4] - '0') * 10 + (p[5] - '0') > 60)
					return 0;
				p += 6;
			}
		}
	}
	return p == e && day >= 1 && day <= days_in(month, year);
}

static int go_timestamp(const char *s, size_t n)
{
	if (n < 5 || !is_digit(s[0]) || !is_digit(s[1]) || !is_digit(s[2]) || !is_digit(s[3]) || s[4] != '-')
		return 0;
	return go_timestamp_layout(s, s + n, 'T') || go_timestamp_layout(s, s + n, 't') ||
	       go_timestamp_layout(s, s + n, ' ') || go_timestamp_layout(s, s + n, 0);
}

/* go-yaml's isBase60Float: [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)? */
static int base60(const char *s, size_t n)
{
	size_t i = 0;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	if (i >= n || !is_digit(s[i]))
		return 0;
	while (i < n && (is_digit(s[i]) || s[i] == '_'))
		i++;
	int groups = 0;
	while (i < n && s[i] == ':') {
		size_t d = ++i;
		while (i < n && is_digit(s[i]))
			i++;
		if (!(i - d == 1 || (i - d == 2 && s[d] <= '5')))
			return 0;
		groups++;
	}
	if (!groups)
		return 0;
	if (i < n && s[i] == '.')
		for (i++; i < n && (is_digit(s[i]) || s[i] == '_'); i++)
			;
	return i == n;
}

/* Does plain text read back as this string? (the rules in the comment at the top) */
static int plain_is_string(const char *s, size_t n)
{
	if (is_word(s, n, resolve_words) || (n == 2 && s[0] == '<' && s[1] == '<') || (n == 1 && s[0] == '='))
		return 0;
	char c = s[0];
	if (c != '.' && c != '+' && c != '-' && !is_digit(c))
		return 1;
	/* the numeric forms: work on the text without underscores */
	char buf[128], *plain = n < sizeof(buf) ? buf : malloc(n + 1);
	if (!plain)
		return 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] != '_')
			plain[k++] = s[i];
	plain[k] = '\0';
	int number;
	if (c == '.') /* ParseFloat of the text as it is */
		number = yaml_style_float(plain, k) && underscore_ok(s, n) && finite_float(plain, k);
	else
		number = go_timestamp(s, n) || go_int(plain, k) ||
			 (yaml_style_float(plain, k) && finite_float(plain, k));
	if (plain != buf)
		free(plain);
	return !number && !base60(s, n);
}

/*
 * A float64 as kubectl prints it: encoding/json writes it as digits ('f') when 1e-6 <= |v| < 1e21, and go-yaml
 * reads the JSON back before printing, so an integral value becomes an int (or a uint64) printed as digits;
 * any other value is printed by go-yaml's floatv, strconv.FormatFloat(v, 'g', -1, 64): the shortest digits
 * that read back as v, in exponent form (1e+21, 1.5e-07, at least two exponent digits) when the exponent is
 * below -4 or at least 6 (the precision Go's %g uses for the shortest form), else fixed.
 */
void yamlout_real(double v, char buf[32])
{
	if (!isfinite(v)) { /* JSON has none; go-yaml's spelling */
		snprintf(buf, 32, "%s", isnan(v) ? ".nan" : v > 0 ? ".inf" : "-.inf");
		return;
	}
	double mag = v < 0 ? -v : v; /* no libm: dsctl does not link it */
	if (mag < 1e21 && (mag >= 9007199254740992.0 || v == (double)(long long)v)) { /* integral (2^53 and up are) */
		if (v >= -9223372036854775808.0 && v < 9223372036854775808.0) {
			snprintf(buf, 32, "%lld", (long long)v);
			return;
		}
		if (v >= 0 && v < 18446744073709551616.0) {
			snprintf(buf, 32, "%llu", (unsigned long long)v);
			return;
		}
	}
	int p;
	for (p = 1; p < 17; p++) { /* the shortest %e that reads back */
		snprintf(buf, 32, "%.*e", p - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, 32, "%.*e", p - 1, v);
	int exp = atoi(strchr(buf, 'e') + 1);
	if (exp < -4 || exp >= 6)
		return;
	snprintf(buf, 32, "%.*f", p - 1 - exp > 0 ? p - 1 - exp : 0, v);
}

static int emit(yaml_emitter_t *e, yaml_event_t *ev)
{
	return yaml_emitter_emit(e, ev) ? 0 : -1; /* the emitter frees the event either way */
}

static int emit_scalar(yaml_emitter_t *e, const char *s, size_t n, yaml_scalar_style_t style)
{
	yaml_event_t ev;
	if (n > INT32_MAX || !yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)n, 1, 1, style))
		return -1;
	return emit(e, &ev);
}

/* NEL (C2 85), LS (E2 80 A8) or PS (E2 80 A9): the line breaks of YAML 1.1 only. */
static int has_unicode_break(const char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		unsigned char a = (unsigned char)s[i], b = (unsigned char)s[i + 1];
		if ((a == 0xC2 && b == 0x85) ||
		    (a == 0xE2 && b == 0x80 && i + 2 < n && ((unsigned char)s[i + 2] & 0xFE) == 0xA8))
			return 1;
	}
	return 0;
}

static int emit_string(yaml_emitter_t *e, const char *s, size_t n)
{
	yaml_scalar_style_t style = has_unicode_break(s, n) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
				    : memchr(s, '\n', n)    ? YAML_LITERAL_SCALAR_STYLE
				    : plain_is_string(s, n) ? YAML_PLAIN_SCALAR_STYLE
							    : YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	return emit_scalar(e, s, n, style);
}

/* Decode one UTF-8 character (jansson's strings are valid UTF-8). */
static uint32_t next_rune(const unsigned char **p)
{
	const unsigned char *s = *p;
	uint32_t c = s[0];
	int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
	if (n > 1) {
		c &= 0x3F >> (n - 1);
		for (int i = 1; i < n; i++)
			c = (c << 6) | (s[i] & 0x3F);
	}
	*p = s + n;
	return c;
}

static int rune_letter(uint32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80; }
static int rune_digit(uint32_t c) { return c >= '0' && c <= '9'; }

static size_t runes(const char *s, uint32_t *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;
	while (*p)
		out[n++] = next_rune(&p);
	return n;
}

/* go-yaml's keyList.Less for two string keys, as runes. */
static int go_key_less(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	for (size_t i = 0; i < na && i < nb; i++) {
		if (a[i] == b[i])
			continue;
		int al = rune_letter(a[i]), bl = rune_letter(b[i]);
		if (al && bl)
			return a[i] < b[i];
		if (al || bl)
			return bl;
		uint64_t an = 0, bn = 0; /* int64 in Go, wrapping alike */
		if (a[i] == '0' || b[i] == '0')
			for (size_t j = i; j-- > 0 && rune_digit(a[j]);)
				if (a[j] != '0') {
					an = bn = 1;
					break;
				}
		size_t ai, bi;
		for (ai = i; ai < na && rune_digit(a[ai]); ai++)
			an = an * 10 + (a[ai] - '0');
		for (bi = i; bi < nb && rune_digit(b[bi]); bi++)
			bn = bn * 10 + (b[bi] - '0');
		if (an != bn)
			return (int64_t)an < (int64_t)bn;
		if (ai != bi)
			return ai < bi;
		return a[i] < b[i];
	}
	return na < nb;
}

typedef struct key {
	const char *text;
	uint32_t *runes;
	size_t n;
} key;

static int by_go_order(const void *x, const void *y)
{
	const key *a = x, *b = y;
	return go_key_less(a->runes, a->n, b->runes, b->n) ? -1 : go_key_less(b->runes, b->n, a->runes, a->n) ? 1 : 0;
}

static int emit_value(yaml_emitter_t *e, const json_t *v);

/* An object's members, keys in go-yaml's order. */
static int emit_members(yaml_emitter_t *e, const json_t *v)
{
	size_t n = json_object_size(v), total = 0, i = 0;
	const char *k;
	json_t *x;
	json_object_foreach((json_t *)v, k, x) total += strlen(k) + 1;
	key *keys = malloc((n ? n : 1) * sizeof(*keys));
	uint32_t *buf = malloc((total ? total : 1) * sizeof(*buf)), *next = buf;
	int rc = -1;
	if (!keys || !buf)
		goto out;
	json_object_foreach((json_t *)v, k, x)
	{
		keys[i] = (key){k, next, runes(k, next)};
		next += keys[i++].n;
	}
	qsort(keys, n, sizeof(*keys), by_go_order);
	for (i = 0; i < n; i++)
		if (emit_string(e, keys[i].text, strlen(keys[i].text)) < 0 ||
		    emit_value(e, json_object_get(v, keys[i].text)) < 0)
			goto out;
	rc = 0;
out:
	free(keys);
	free(buf);
	return rc;
}

static int emit_value(yaml_emitter_t *e, const json_t *v)
{
	yaml_event_t ev;
	char num[32];
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE) ||
		    emit(e, &ev) < 0)
			return -1;
		if (emit_members(e, v) < 0 || !yaml_mapping_end_event_initialize(&ev))
			return -1;
		return emit(e, &ev);
	}
	case JSON_ARRAY: {
		if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE) ||
		    emit(e, &ev) < 0)
			return -1;
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
		{
			if (emit_value(e, x) < 0)
				return -1;
		}
		if (!yaml_sequence_end_event_initialize(&ev))
			return -1;
		return emit(e, &ev);
	}
	case JSON_STRING: return emit_string(e, json_string_value(v), json_string_length(v));
	case JSON_INTEGER: snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v)); break;
	case JSON_REAL: yamlout_real(json_real_value(v), num); break;
	case JSON_TRUE: snprintf(num, sizeof(num), "true"); break;
	case JSON_FALSE: snprintf(num, sizeof(num), "false"); break;
	default: snprintf(num, sizeof(num), "null"); break;
	}
	return emit_scalar(e, num, strlen(num), YAML_PLAIN_SCALAR_STYLE);
}

int yamlout_write(FILE *out, const json_t *v)
{
	yaml_emitter_t e;
	yaml_event_t ev;
	if (!yaml_emitter_initialize(&e)) {
		fprintf(stderr, "error: cannot write YAML: out of memory\n");
		return -1;
	}
	yaml_emitter_set_output_file(&e, out);
	yaml_emitter_set_unicode(&e, 1); /* as go-yaml: UTF-8 as it is, escapes only where YAML needs them */
	int rc = -1;
	if (yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) && emit(&e, &ev) == 0 &&
	    yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) && emit(&e, &ev) == 0 &&
	    emit_value(&e, v) == 0 && yaml_document_end_event_initialize(&ev, 1) && emit(&e, &ev) == 0) {
		/* libyaml 0.2.5 ends a stream that had a |+ scalar anywhere with "..."; go-yaml clears the flag
		 * first (encoder.finish), and so does this: keep-chomped lines end with the stream or at the "---"
		 * dsctl prints before the next document */
		e.open_ended = 0;
		if (yaml_stream_end_event_initialize(&ev) && emit(&e, &ev) == 0 && yaml_emitter_flush(&e))
			rc = 0;
	}
	if (rc < 0)
		fprintf(stderr, "error: cannot write YAML: %s\n", e.problem ? e.problem : "out of memory");
	yaml_emitter_delete(&e);
	return rc;
}
