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
	"and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
	"validation "
	"is '(" RE_LABEL_KEY ")?')";
static const char msg_subdomain[] =
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
	"and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
	"'" RE_DNS1123_SUBDOMAIN "')";
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

static inline int is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
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
