/* Field errors (apimachinery pkg/util/validation/field) and json.Marshal, as upstream renders them. */
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

/* ---- field errors (apimachinery pkg/util/validation/field/errors.go) ------------------ */

void dsi_field_errors_free(dsi_field_errors *e)
{
	for (size_t i = 0; i < e->n; i++) {
		dsi_free(e->v[i].field);
		dsi_free(e->v[i].shown);
		dsi_free(e->v[i].detail);
		json_decref(e->v[i].value);
	}
	dsi_free(e->v);
	memset(e, 0, sizeof(*e));
}

/* ErrorType constants (the StatusCause type the API returns) */
const char *dsi_fe_reason(int type)
{
	static const char *const r[] = {"FieldValueNotFound", "FieldValueRequired",     "FieldValueDuplicate",
					"FieldValueInvalid",  "FieldValueNotSupported", "FieldValueForbidden",
					"FieldValueTooLong",  "FieldValueTooMany",      "InternalError"};
	return (type >= 0 && type <= DSI_FE_INTERNAL) ? r[type] : "InternalError";
}

const char *dsi_fe_short(int type)
{
	static const char *const r[] = {"NotFound",  "Required", "Duplicate", "Invalid", "NotSupported",
					"Forbidden", "TooLong",  "TooMany",   "Internal"};
	return (type >= 0 && type <= DSI_FE_INTERNAL) ? r[type] : "Internal";
}

/* ErrorType.String() */
static const char *type_string(int type)
{
	static const char *const r[] = {"Not found",     "Required value",    "Duplicate value",
					"Invalid value", "Unsupported value", "Forbidden",
					"Too long",      "Too many",          "Internal error"};
	return (type >= 0 && type <= DSI_FE_INTERNAL) ? r[type] : "Internal error";
}

/* Error.Error() = Field + ": " + ErrorBody() */
void dsi_field_error_string(const dsi_field_error *e, dsi_strbuf *out)
{
	dsi_strbuf_puts(out, e->field);
	dsi_strbuf_puts(out, ": ");
	dsi_strbuf_puts(out, type_string(e->type));
	if (e->shown) {
		dsi_strbuf_puts(out, ": ");
		dsi_strbuf_puts(out, e->shown);
	}
	if (e->detail && *e->detail) {
		dsi_strbuf_puts(out, ": ");
		dsi_strbuf_puts(out, e->detail);
	}
}

static void errs_push(dsi_field_errors *errs, int type, dsi_strbuf *field, json_t *value, char *shown,
		      const char *detail)
{
	char *f = field->oom ? NULL : dsi_strdup(field->data ? field->data : "");
	char *d = dsi_strdup(detail ? detail : "");
	if (!f || !d || errs->oom || DSI_GROW(errs->v, errs->cap, errs->n + 1) < 0) {
		errs->oom = 1;
		dsi_free(f);
		dsi_free(d);
		dsi_free(shown);
		json_decref(value);
		return;
	}
	dsi_field_error *e = &errs->v[errs->n++];
	e->type = type;
	e->field = f;
	e->value = value;
	e->shown = shown;
	e->detail = d;
}

void dsi_v_add(dsi_vctx *c, const char *child, int type, json_t *value, const char *shown, const char *detail)
{
	dsi_strbuf f = DSI_STRBUF_INIT;
	dsi_strbuf_append(&f, c->fp.data ? c->fp.data : "", c->fp.len);
	if (child && *child) {
		if (f.len)
			dsi_strbuf_putc(&f, '.');
		dsi_strbuf_puts(&f, child);
	}
	char *s = NULL;
	if (shown && !(s = dsi_strdup(shown)))
		c->errs->oom = 1;
	/* Required, Forbidden, TooLong and Internal never print their value */
	if (type == DSI_FE_REQUIRED || type == DSI_FE_FORBIDDEN || type == DSI_FE_TOO_LONG || type == DSI_FE_INTERNAL) {
		dsi_free(s);
		s = NULL;
	}
	errs_push(c->errs, type, &f, value, s, detail);
	dsi_strbuf_free(&f);
}

void dsi_v_required(dsi_vctx *c, const char *child, const char *detail)
{
	dsi_v_add(c, child, DSI_FE_REQUIRED, NULL, NULL, detail);
}

void dsi_v_forbidden(dsi_vctx *c, const char *child, const char *detail)
{
	dsi_v_add(c, child, DSI_FE_FORBIDDEN, NULL, NULL, detail);
}

/* ErrorBody: `case string: %q` */
void dsi_v_str(dsi_vctx *c, const char *child, int type, const char *s, size_t n, const char *detail)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_go_quote(&b, s, n);
	dsi_v_add(c, child, type, json_stringn(s, n), b.data, detail);
	dsi_strbuf_free(&b);
}

/* ErrorBody's default case: json.Marshal of a named string type */
void dsi_v_named(dsi_vctx *c, const char *child, int type, const char *s, size_t n, const char *detail)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_go_json_string(&b, s, n);
	dsi_v_add(c, child, type, json_stringn(s, n), b.data, detail);
	dsi_strbuf_free(&b);
}

/* ErrorBody: `case int64, int32, ...: %v` */
void dsi_v_int(dsi_vctx *c, const char *child, int type, int64_t v, const char *detail)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	dsi_v_add(c, child, type, json_integer((json_int_t)v), buf, detail);
}

void dsi_v_json(dsi_vctx *c, const char *child, int type, json_t *value, const char *detail)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_go_marshal(&b, value);
	dsi_v_add(c, child, type, value, b.data, detail);
	dsi_strbuf_free(&b);
}

/* field.NotSupported: detail "supported values: " + each strconv.Quote'd, ", "-joined */
void dsi_v_not_supported(dsi_vctx *c, const char *child, int named, const char *s, size_t n, const char *const *valid,
			 size_t nvalid)
{
	dsi_strbuf d = DSI_STRBUF_INIT;
	if (nvalid)
		dsi_strbuf_puts(&d, "supported values: ");
	for (size_t i = 0; i < nvalid; i++) {
		if (i)
			dsi_strbuf_puts(&d, ", ");
		dsi_go_quote(&d, valid[i], strlen(valid[i]));
	}
	if (named)
		dsi_v_named(c, child, DSI_FE_NOT_SUPPORTED, s, n, d.data ? d.data : "");
	else
		dsi_v_str(c, child, DSI_FE_NOT_SUPPORTED, s, n, d.data ? d.data : "");
	dsi_strbuf_free(&d);
}

/* ---- json.Marshal of JSON values ----------------------------------------------------- */

int dsi_kv_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const kv *x = a, *y = b;
	size_t m = x->n < y->n ? x->n : y->n;
	int r = memcmp(x->k, y->k, m);
	return r ? r : (x->n < y->n ? -1 : x->n > y->n);
}

/* The members of obj sorted bytewise by key (Go's map order in json.Marshal; ours for maps). */
kv *dsi_json_sorted_members(const json_t *obj, size_t *count)
{
	*count = 0;
	size_t n = json_object_size(obj);
	if (!n)
		return NULL;
	kv *v = dsi_calloc(n, sizeof(kv));
	if (!v)
		return NULL;
	const char *k;
	size_t klen, i = 0;
	json_t *val;
	json_object_keylen_foreach((json_t *)obj, k, klen, val)
	{
		v[i].k = k;
		v[i].n = klen;
		v[i].v = val;
		i++;
	}
	dsi_sort_stable(v, n, sizeof(kv), dsi_kv_cmp, NULL);
	*count = n;
	return v;
}

void dsi_go_marshal(dsi_strbuf *b, const json_t *v)
{
	char num[40];
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		size_t n;
		kv *m = dsi_json_sorted_members(v, &n);
		if (json_object_size(v) && !m) {
			b->oom = 1;
			return;
		}
		dsi_strbuf_putc(b, '{');
		for (size_t i = 0; i < n; i++) {
			if (i)
				dsi_strbuf_putc(b, ',');
			dsi_go_json_string(b, m[i].k, m[i].n);
			dsi_strbuf_putc(b, ':');
			dsi_go_marshal(b, m[i].v);
		}
		dsi_strbuf_putc(b, '}');
		dsi_free(m);
		return;
	}
	case JSON_ARRAY:
		dsi_strbuf_putc(b, '[');
		for (size_t i = 0; i < json_array_size(v); i++) {
			if (i)
				dsi_strbuf_putc(b, ',');
			dsi_go_marshal(b, json_array_get(v, i));
		}
		dsi_strbuf_putc(b, ']');
		return;
	case JSON_STRING: dsi_go_json_string(b, json_string_value(v), json_string_length(v)); return;
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		dsi_strbuf_puts(b, num);
		return;
	case JSON_REAL:
		snprintf(num, sizeof(num), "%.17g", json_real_value(v));
		dsi_strbuf_puts(b, num);
		return;
	case JSON_TRUE: dsi_strbuf_puts(b, "true"); return;
	case JSON_FALSE: dsi_strbuf_puts(b, "false"); return;
	default: dsi_strbuf_puts(b, "null"); return;
	}
}
