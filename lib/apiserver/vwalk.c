/* The validation walk: its two paths (ours and field.Path) and typed reads that fail on decoder errors. */
#include "apiserver/validation.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/defaults.h"
#include "core/alloc.h"
#include "core/sort.h"
#include "model/intstr.h"
#include "model/labels.h"
#include "model/labelvalid.h"
#include "model/quantity.h"
#include "model/selector.h"

/* ---- the walk's two paths ----------------------------------------------------------------- */

void dsi_vctx_init(dsi_vctx *c, dsi_field_errors *errs, dsi_atoms *atoms, unsigned gates, ds_error *err)
{
	memset(c, 0, sizeof(*c));
	dsi_rd_init(&c->rd, err);
	c->errs = errs;
	c->atoms = atoms;
	c->gates = gates;
}

void dsi_vctx_release(dsi_vctx *c) { dsi_strbuf_free(&c->fp); }

dsi_vmark dsi_v_child(dsi_vctx *c, const char *name)
{
	dsi_vmark m = {dsi_rd_push(&c->rd, name), c->fp.len};
	if (c->fp.len)
		dsi_strbuf_putc(&c->fp, '.');
	dsi_strbuf_puts(&c->fp, name);
	return m;
}

dsi_vmark dsi_v_index(dsi_vctx *c, size_t i)
{
	dsi_vmark m = {dsi_rd_push_index(&c->rd, i), c->fp.len};
	dsi_strbuf_printf(&c->fp, "[%zu]", i);
	return m;
}

/* field.Path.Key renders [key] without quotes */
dsi_vmark dsi_v_key(dsi_vctx *c, const char *key, size_t n)
{
	char tmp[DS_ERROR_PATH_MAX];
	size_t k = n < sizeof(tmp) - 1 ? n : sizeof(tmp) - 1;
	memcpy(tmp, key, k);
	tmp[k] = '\0';
	dsi_vmark m = {dsi_rd_push(&c->rd, tmp), c->fp.len};
	dsi_strbuf_putc(&c->fp, '[');
	dsi_strbuf_append(&c->fp, key, n);
	dsi_strbuf_putc(&c->fp, ']');
	return m;
}

void dsi_v_pop(dsi_vctx *c, dsi_vmark m)
{
	dsi_rd_pop(&c->rd, m.rd);
	dsi_strbuf_truncate(&c->fp, m.fp);
}

/* ---- typed reads (decoder errors) --------------------------------------------------------- */

int dsi_v_string(dsi_vctx *c, const json_t *obj, const char *key, const char **out, size_t *len)
{
	int rc = dsi_rd_string(&c->rd, obj, key, out);
	if (len)
		*len = (rc == 0 && *out) ? json_string_length(json_object_get(obj, key)) : 0;
	if (rc == 0 && !*out)
		*out = "";
	return rc;
}

int dsi_v_object(dsi_vctx *c, const json_t *obj, const char *key, json_t **out)
{
	return dsi_rd_object(&c->rd, obj, key, out);
}

int dsi_v_array(dsi_vctx *c, const json_t *obj, const char *key, json_t **out)
{
	return dsi_rd_array(&c->rd, obj, key, out);
}

int dsi_v_int64(dsi_vctx *c, const json_t *obj, const char *key, int64_t *out, int *present)
{
	return dsi_rd_int64(&c->rd, obj, key, out, present);
}

int dsi_v_int32(dsi_vctx *c, const json_t *obj, const char *key, int32_t *out, int *present)
{
	return dsi_rd_int32(&c->rd, obj, key, out, present);
}

int dsi_v_bool(dsi_vctx *c, const json_t *obj, const char *key, int *out, int *present)
{
	return dsi_rd_bool(&c->rd, obj, key, out, present);
}

/* Element i of arr when it is of type want (named want_name in the error); absent or null: NULL. */
static int elem_of_type(dsi_vctx *c, const json_t *arr, size_t i, json_type want, const char *want_name, json_t **out)
{
	json_t *e = json_array_get(arr, i);
	*out = NULL;
	if (!e || json_is_null(e))
		return 0;
	if (json_typeof(e) != want)
		return dsi_rd_fail(&c->rd, NULL, DS_ETYPE, "expected %s, got %s", want_name, dsi_json_type_name(e));
	*out = e;
	return 0;
}

int dsi_v_elem_object(dsi_vctx *c, const json_t *arr, size_t i, json_t **out)
{
	return elem_of_type(c, arr, i, JSON_OBJECT, "object", out);
}

int dsi_v_elem_string(dsi_vctx *c, const json_t *arr, size_t i, const char **out, size_t *len)
{
	json_t *e;
	int rc = elem_of_type(c, arr, i, JSON_STRING, "string", &e);
	*out = e ? json_string_value(e) : "";
	*len = e ? json_string_length(e) : 0;
	return rc;
}
