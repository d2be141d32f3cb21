#include "controller/reply.h"

#include <string.h>

#include "core/alloc.h"

void dsi_reply_init(ds_reply *r, size_t limit)
{
	memset(r, 0, sizeof(*r));
	r->limit = limit;
}

void dsi_reply_release(ds_reply *r)
{
	dsi_strbuf_free(&r->body);
	dsi_free(r->message);
	memset(r, 0, sizeof(*r));
}

int dsi_reply_write(ds_reply *r, const char *data, size_t size, ds_error *err)
{
	if (r->over || size > r->limit || r->body.len > r->limit - size) {
		r->over = 1;
		return dsi_error_set(err, DS_ELIMIT, NULL,
				     "the reply is larger than maxDocumentBytes (%zu bytes): stop reading it",
				     r->limit);
	}
	dsi_strbuf_append(&r->body, data, size);
	return r->body.oom ? dsi_error_nomem(err) : 0;
}

int dsi_reply_set_message(ds_reply *r, const char *message, ds_error *err)
{
	char *m = NULL;
	if (message && !(m = dsi_strdup(message)))
		return dsi_error_nomem(err);
	dsi_free(r->message);
	r->message = m;
	return 0;
}
