#include "controller/errors.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"

int dsi_errs_add(json_t *errs, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return json_array_append_new(errs, json_string(buf)) == 0 ? 0 : -1;
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
