#include "model/labelvalid.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- upstream's message texts (content/kube.go, content/dns.go, validation.go) ---- */

#define RE_LABEL_KEY "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
#define MSG_LABEL_KEY                                                                                                  \
	"must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "       \
	"character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '" RE_LABEL_KEY "')"
#define RE_DNS1123_LABEL "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
#define RE_DNS1123_SUBDOMAIN RE_DNS1123_LABEL "(\\." RE_DNS1123_LABEL ")*"

static const char msg_key_slashes[] =
	"a valid label key " MSG_LABEL_KEY " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
static const char msg_key_name[] = "name part " MSG_LABEL_KEY;
static const char msg_label_value[] =
	"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
	"and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation "
	"is '(" RE_LABEL_KEY ")?')";
static const char msg_subdomain[] =
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
	"and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '" RE_DNS1123_SUBDOMAIN
	"')";
static const char msg_dns_label[] =
	"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
	"with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '" RE_DNS1123_LABEL
	"')";

static void add(dsi_strbuf *msgs, int *count, const char *prefix, const char *msg)
{
	(*count)++;
	if (!msgs)
		return;
	if (msgs->len)
		dsi_strbuf_puts(msgs, "; ");
	dsi_strbuf_puts(msgs, prefix);
	dsi_strbuf_puts(msgs, msg);
}

static void add_maxlen(dsi_strbuf *msgs, int *count, const char *prefix, int max, const char *unit)
{
	char m[64];
	snprintf(m, sizeof(m), "must be no more than %d %s", max, unit); /* MaxLenError */
	add(msgs, count, prefix, m);
}

static inline int is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
static inline int is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

/* ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$ */
static int name_ok(const char *s, size_t n)
{
	if (!n || !is_alnum(s[0]) || !is_alnum(s[n - 1]))
		return 0;
	for (size_t i = 1; i + 1 < n; i++)
		if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return 0;
	return 1;
}

/* ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ */
static int dns_label_ok(const char *s, size_t n)
{
	if (!n || !is_lower_alnum(s[0]) || !is_lower_alnum(s[n - 1]))
		return 0;
	for (size_t i = 1; i + 1 < n; i++)
		if (!is_lower_alnum(s[i]) && s[i] != '-')
			return 0;
	return 1;
}

/* dns1123SubdomainFmt: labels joined by single dots */
static int subdomain_ok(const char *s, size_t n)
{
	size_t start = 0;
	for (size_t i = 0; i <= n; i++)
		if (i == n || s[i] == '.') {
			if (!dns_label_ok(s + start, i - start))
				return 0;
			start = i + 1;
		}
	return 1;
}

/* content.IsDNS1123Subdomain ("bytes") and validation.IsDNS1123Subdomain ("characters") */
static int check_subdomain(const char *s, size_t n, const char *prefix, const char *unit, dsi_strbuf *msgs)
{
	int count = 0;
	if (n > 253)
		add_maxlen(msgs, &count, prefix, 253, unit);
	if (!subdomain_ok(s, n))
		add(msgs, &count, prefix, msg_subdomain);
	return count;
}

/* IsLabelKey (apimachinery pkg/api/validate/content/kube.go) */
int dsi_validate_label_key(const char *k, size_t n, dsi_strbuf *msgs)
{
	int count = 0;
	const char *slash = memchr(k, '/', n);
	const char *name = k;
	size_t nlen = n;
	if (slash) {
		if (memchr(slash + 1, '/', n - (size_t)(slash + 1 - k))) {
			add(msgs, &count, "", msg_key_slashes);
			return count;
		}
		size_t plen = (size_t)(slash - k);
		if (plen == 0) {
			add(msgs, &count, "prefix part ", "must be non-empty");
		} else {
			count += check_subdomain(k, plen, "prefix part ", "bytes", msgs);
		}
		name = slash + 1;
		nlen = n - plen - 1;
	}
	if (nlen == 0)
		add(msgs, &count, "name part ", "must be non-empty");
	else if (nlen > 63)
		add_maxlen(msgs, &count, "name part ", 63, "bytes");
	if (!name_ok(name, nlen))
		add(msgs, &count, "", msg_key_name);
	return count;
}

/* IsLabelValue (apimachinery pkg/api/validate/content/kube.go) */
int dsi_validate_label_value(const char *v, size_t n, dsi_strbuf *msgs)
{
	int count = 0;
	if (n > 63)
		add_maxlen(msgs, &count, "", 63, "bytes");
	if (n && !name_ok(v, n))
		add(msgs, &count, "", msg_label_value);
	return count;
}

/* IsDNS1123Subdomain (apimachinery pkg/util/validation/validation.go) */
int dsi_validate_dns1123_subdomain(const char *s, size_t n, dsi_strbuf *msgs)
{
	return check_subdomain(s, n, "", "characters", msgs);
}

/* IsDNS1123Label (apimachinery pkg/util/validation/validation.go) */
int dsi_validate_dns1123_label(const char *s, size_t n, dsi_strbuf *msgs)
{
	int count = 0;
	if (n > 63)
		add_maxlen(msgs, &count, "", 63, "characters");
	if (!dns_label_ok(s, n))
		add(msgs, &count, "", subdomain_ok(s, n) ? "must not contain dots" : msg_dns_label);
	return count;
}

/* ---- Go renderings ------------------------------------------------------------------ */

/* utf8.DecodeRuneInString: the rune at s and its width; width 1 with
 * *valid == 0 for an invalid encoding. */
static uint32_t decode_rune(const unsigned char *s, size_t n, size_t *width, int *valid)
{
	*valid = 1;
	*width = 1;
	unsigned char c = s[0];
	if (c < 0x80)
		return c;
	size_t need;
	uint32_t r, min;
	if (c >= 0xc2 && c <= 0xdf) {
		need = 2;
		r = c & 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 3;
		r = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 4;
		r = c & 0x07;
		min = 0x10000;
	} else {
		*valid = 0;
		return 0xfffd;
	}
	if (n < need) {
		*valid = 0;
		return 0xfffd;
	}
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*valid = 0;
			return 0xfffd;
		}
		r = (r << 6) | (s[i] & 0x3f);
	}
	if (r < min || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) {
		*valid = 0;
		return 0xfffd;
	}
	*width = need;
	return r;
}

/* unicode.IsPrint for runes >= 0x80, approximately: the non-printing
 * categories Kubernetes text is likely to contain. */
static int go_is_print(uint32_t r)
{
	static const uint32_t ranges[][2] = {
		{0x80, 0xa0},       {0xad, 0xad},       {0x600, 0x605},     {0x61c, 0x61c},     {0x6dd, 0x6dd},
		{0x70f, 0x70f},     {0x890, 0x891},     {0x8e2, 0x8e2},     {0x180e, 0x180e},   {0x1680, 0x1680},
		{0x2000, 0x200f},   {0x2028, 0x202f},   {0x205f, 0x206f},   {0x3000, 0x3000},   {0xe000, 0xf8ff},
		{0xfeff, 0xfeff},   {0xfff9, 0xfffb},   {0xfffe, 0xffff},   {0x110bd, 0x110bd}, {0x110cd, 0x110cd},
		{0x13430, 0x1343f}, {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a}, {0xe0001, 0xe0001}, {0xe0020, 0xe007f},
		{0xf0000, 0x10ffff},
	};
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (r >= ranges[i][0] && r <= ranges[i][1])
			return 0;
	return 1;
}

static const char lowerhex[] = "0123456789abcdef";

/* strconv.Quote */
void dsi_go_quote(dsi_strbuf *b, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	char esc[16];
	dsi_strbuf_putc(b, '"');
	for (size_t i = 0; i < n;) {
		size_t w;
		int valid;
		uint32_t r = decode_rune(s + i, n - i, &w, &valid);
		if (!valid) {
			snprintf(esc, sizeof(esc), "\\x%c%c", lowerhex[s[i] >> 4], lowerhex[s[i] & 15]);
			dsi_strbuf_puts(b, esc);
			i++;
			continue;
		}
		if (r == '"' || r == '\\') {
			dsi_strbuf_putc(b, '\\');
			dsi_strbuf_putc(b, (char)r);
		} else if ((r >= 0x20 && r < 0x7f) || (r >= 0x80 && go_is_print(r))) {
			dsi_strbuf_append(b, str + i, w);
		} else {
			switch (r) {
			case '\a': dsi_strbuf_puts(b, "\\a"); break;
			case '\b': dsi_strbuf_puts(b, "\\b"); break;
			case '\f': dsi_strbuf_puts(b, "\\f"); break;
			case '\n': dsi_strbuf_puts(b, "\\n"); break;
			case '\r': dsi_strbuf_puts(b, "\\r"); break;
			case '\t': dsi_strbuf_puts(b, "\\t"); break;
			case '\v': dsi_strbuf_puts(b, "\\v"); break;
			default:
				if (r < 0x20 || r == 0x7f)
					snprintf(esc, sizeof(esc), "\\x%02x", (unsigned)r);
				else if (r < 0x10000)
					snprintf(esc, sizeof(esc), "\\u%04x", (unsigned)r);
				else
					snprintf(esc, sizeof(esc), "\\U%08x", (unsigned)r);
				dsi_strbuf_puts(b, esc);
			}
		}
		i += w;
	}
	dsi_strbuf_putc(b, '"');
}

/* encoding/json appendString with escapeHTML (json.Marshal) */
void dsi_go_json_string(dsi_strbuf *b, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	char esc[8];
	dsi_strbuf_putc(b, '"');
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		if (c < 0x80) {
			switch (c) {
			case '"': dsi_strbuf_puts(b, "\\\""); break;
			case '\\': dsi_strbuf_puts(b, "\\\\"); break;
			case '\b': dsi_strbuf_puts(b, "\\b"); break;
			case '\f': dsi_strbuf_puts(b, "\\f"); break;
			case '\n': dsi_strbuf_puts(b, "\\n"); break;
			case '\r': dsi_strbuf_puts(b, "\\r"); break;
			case '\t': dsi_strbuf_puts(b, "\\t"); break;
			default:
				if (c < 0x20 || c == '<' || c == '>' || c == '&') {
					snprintf(esc, sizeof(esc), "\\u00%c%c", lowerhex[c >> 4], lowerhex[c & 15]);
					dsi_strbuf_puts(b, esc);
				} else {
					dsi_strbuf_putc(b, (char)c);
				}
			}
			i++;
			continue;
		}
		size_t w;
		int valid;
		uint32_t r = decode_rune(s + i, n - i, &w, &valid);
		if (!valid)
			dsi_strbuf_puts(b, "\\ufffd");
		else if (r == 0x2028 || r == 0x2029)
			dsi_strbuf_puts(b, r == 0x2028 ? "\\u2028" : "\\u2029");
		else
			dsi_strbuf_append(b, str + i, w);
		i += w;
	}
	dsi_strbuf_putc(b, '"');
}
