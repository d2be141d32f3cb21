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

int dsi_reply_append(ds_reply *r, const char *data, size_t size)
{
	if (r->over || size > r->limit || r->body.len > r->limit - size) {
		r->over = 1;
		return DS_ELIMIT;
	}
	dsi_strbuf_append(&r->body, data, size);
	return r->body.oom ? DS_ENOMEM : 0;
}

int dsi_reply_set_message(ds_reply *r, const char *message)
{
	char *m = dsi_strdup(message);
	if (!m)
		return DS_ENOMEM;
	dsi_free(r->message);
	r->message = m;
	return 0;
}
