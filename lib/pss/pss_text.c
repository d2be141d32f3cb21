/* Message building as pod-security-admission does it (policy/helpers.go) and Go's %q. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "pss/pss.h"

void dsi_pss_strs_add(dsi_pss_strs *s, const char *str)
{
	if (s->oom)
		return;
	if (DSI_GROW(s->v, s->cap, s->n + 1) < 0) {
		s->oom = 1;
		return;
	}
	s->v[s->n++] = str;
}

void dsi_pss_strs_add_owned(dsi_pss_strs *s, char *str)
{
	if (!str) {
		s->oom = 1;
		return;
	}
	size_t before = s->n;
	dsi_pss_strs_add(s, str);
	if (s->n == before)
		dsi_free(str);
}

static int cmp_str(const void *a, const void *b)
{
	/* Go compares strings bytewise; strcmp compares as unsigned char. */
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* sets.String.List() (apimachinery util/sets): sorted, unique */
void dsi_pss_strs_sort_unique(dsi_pss_strs *s)
{
	if (s->n < 2)
		return;
	qsort(s->v, s->n, sizeof(*s->v), cmp_str);
	size_t w = 1;
	for (size_t r = 1; r < s->n; r++)
		if (strcmp(s->v[r], s->v[w - 1]) != 0)
			s->v[w++] = s->v[r];
	s->n = w;
}

void dsi_pss_strs_free(dsi_pss_strs *s)
{
	dsi_free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
	s->oom = 0;
}

void dsi_pss_strs_free_owned(dsi_pss_strs *s)
{
	for (size_t i = 0; i < s->n; i++)
		dsi_free((void *)s->v[i]);
	dsi_pss_strs_free(s);
}

/* joinQuote (policy/helpers.go): items are not escaped */
void dsi_pss_join_quote(dsi_strbuf *b, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			dsi_strbuf_puts(b, ", ");
		dsi_strbuf_putc(b, '"');
		dsi_strbuf_puts(b, v[i]);
		dsi_strbuf_putc(b, '"');
	}
}

void dsi_pss_join(dsi_strbuf *b, const char *const *v, size_t n, const char *sep)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			dsi_strbuf_puts(b, sep);
		dsi_strbuf_puts(b, v[i]);
	}
}

static void names_phrase(dsi_strbuf *b, const dsi_pss_strs *names, const char *singular, const char *plural)
{
	dsi_strbuf_puts(b, dsi_pss_plural(singular, plural, names->n));
	dsi_strbuf_putc(b, ' ');
	dsi_pss_join_quote(b, names->v, names->n);
}

void dsi_pss_containers_phrase(dsi_strbuf *b, const dsi_pss_strs *names)
{
	names_phrase(b, names, "container", "containers");
}

int dsi_pss_finish(dsi_pss_result *res, const char *reason, dsi_strbuf *b)
{
	res->allowed = 0;
	res->reason = reason;
	res->detail = NULL;
	if (b->oom) {
		dsi_strbuf_free(b);
		return DS_ENOMEM;
	}
	if (b->len == 0) {
		dsi_strbuf_free(b);
		return 0;
	}
	res->detail = dsi_strbuf_detach(b);
	return res->detail ? 0 : DS_ENOMEM;
}

int dsi_pss_names_verdict(dsi_pss_result *res, const char *reason, dsi_pss_strs *names, const char *singular,
			  const char *plural, const char *suffix)
{
	int rc = 0;
	if (names->oom) {
		rc = DS_ENOMEM;
	} else if (!names->n) {
		res->allowed = 1;
	} else {
		dsi_strbuf b = DSI_STRBUF_INIT;
		names_phrase(&b, names, singular, plural);
		dsi_strbuf_puts(&b, suffix);
		rc = dsi_pss_finish(res, reason, &b);
	}
	dsi_pss_strs_free(names);
	return rc;
}
