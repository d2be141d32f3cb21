/* The public wrappers' argument checks (args.h). */
#include "api/args.h"

#include <string.h>

#include "core/strbuf.h"

int dsi_args_nonnull(ds_error *err, const char *names, const void *const *v, size_t n)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += !v[i];
	if (!bad)
		return 0;
	dsi_strbuf b = DSI_STRBUF_INIT;
	const char *p = names;
	for (size_t i = 0, said = 0; i < n; i++) {
		size_t len = strcspn(p, ",");
		if (!v[i]) {
			if (said)
				dsi_strbuf_puts(&b, said + 1 == bad ? " and " : ", ");
			dsi_strbuf_append(&b, p, len);
			said++;
		}
		p += len;
		p += strspn(p, ", ");
	}
	dsi_strbuf_puts(&b, " must not be NULL");
	int rc = b.oom ? dsi_error_nomem(err) : dsi_error_set(err, DS_EARG, NULL, "%s", b.data);
	dsi_strbuf_free(&b);
	return rc;
}
