#include "core/jsonout.h"

#include "core/strbuf.h"

static int to_strbuf(const char *buf, size_t size, void *data)
{
	dsi_strbuf *b = data;
	dsi_strbuf_append(b, buf, size);
	return b->oom ? -1 : 0;
}

char *dsi_json_dumps(const json_t *v, size_t flags)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	if (!v || json_dump_callback(v, to_strbuf, &b, flags | JSON_ENCODE_ANY) < 0) {
		dsi_strbuf_free(&b);
		return NULL;
	}
	return dsi_strbuf_detach(&b);
}

int dsi_json_emit_shared(const json_t *v, char **out, ds_error *err)
{
	*out = dsi_json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	return *out ? 0 : dsi_error_nomem(err);
}

int dsi_json_emit(json_t *v, char **out, ds_error *err)
{
	int rc = dsi_json_emit_shared(v, out, err);
	json_decref(v);
	return rc;
}
