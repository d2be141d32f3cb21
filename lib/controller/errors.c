#include "controller/errors.h"

#include <stdarg.h>
#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"

/* The message whole, however long (a host's transport message, an API server's Status): the aggregate
 * is a string of its own (the sync result's "error"), with no fixed field to fit. */
int dsi_errs_add(json_t *errs, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *m = dsi_vformat(fmt, ap);
	va_end(ap);
	if (!m)
		return -1;
	json_t *v = json_string(m);
	dsi_free(m);
	return v && json_array_append_new(errs, v) == 0 ? 0 : -1;
}

/* aggregate.Error (apimachinery pkg/util/errors/errors.go) */
char *dsi_errs_message(const json_t *errs)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	size_t n = json_array_size(errs), seen = 0;
	dsi_strbuf_puts(&b, "");
	for (size_t i = 0; i < n; i++) {
		const char *m = json_string_value(json_array_get(errs, i));
		if (!m)
			continue;
		int dup = 0;
		for (size_t j = 0; j < i && !dup; j++) {
			const char *o = json_string_value(json_array_get(errs, j));
			dup = o && strcmp(o, m) == 0;
		}
		if (dup)
			continue;
		if (seen++)
			dsi_strbuf_puts(&b, ", ");
		dsi_strbuf_puts(&b, m);
	}
	char *s = dsi_strbuf_detach(&b);
	if (s && seen > 1) {
		size_t len = strlen(s);
		char *w = dsi_malloc(len + 3);
		if (w) {
			w[0] = '[';
			memcpy(w + 1, s, len);
			w[len + 1] = ']';
			w[len + 2] = '\0';
		}
		dsi_free(s);
		s = w;
	}
	return s;
}
