/* DaemonSet validation: field errors, ObjectMeta, selectors, the DaemonSet spec, updates and status. */
#include "daemon/validate.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"
#include "daemon/defaults.h"
#include "model/intstr.h"
#include "model/labels.h"
#include "model/labelvalid.h"
#include "model/quantity.h"
#include "model/selector.h"

#define TEMPLATE_GENERATION_KEY "deprecated.daemonset.template.generation"
#define IS_NEGATIVE_MSG "must be greater than or equal to 0"
#define IMMUTABLE_MSG "field is immutable"

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
	static const char *const r[] = {"FieldValueNotFound",     "FieldValueRequired", "FieldValueDuplicate",
					"FieldValueInvalid",      "FieldValueNotSupported", "FieldValueForbidden",
					"FieldValueTooLong",      "FieldValueTooMany",  "InternalError"};
	return (type >= 0 && type <= DSI_FE_INTERNAL) ? r[type] : "InternalError";
}

const char *dsi_fe_short(int type)
{
	static const char *const r[] = {"NotFound",  "Required", "Duplicate", "Invalid",  "NotSupported",
					"Forbidden", "TooLong",  "TooMany",   "Internal"};
	return (type >= 0 && type <= DSI_FE_INTERNAL) ? r[type] : "Internal";
}

/* ErrorType.String() */
static const char *type_string(int type)
{
	static const char *const r[] = {"Not found",        "Required value", "Duplicate value", "Invalid value",
					"Unsupported value", "Forbidden",      "Too long",        "Too many",
					"Internal error"};
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

static void errs_push(dsi_field_errors *errs, int type, dsi_strbuf *field, json_t *value, char *shown, const char *detail)
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
void dsi_v_not_supported(dsi_vctx *c, const char *child, int named, const char *s, size_t n,
			 const char *const *valid, size_t nvalid)
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

typedef struct kv {
	const char *k;
	size_t n;
	json_t *v;
} kv;

static int kv_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const kv *x = a, *y = b;
	size_t m = x->n < y->n ? x->n : y->n;
	int r = memcmp(x->k, y->k, m);
	return r ? r : (x->n < y->n ? -1 : x->n > y->n);
}

/* The members of obj sorted bytewise by key (Go's map order in json.Marshal; ours for maps). */
static kv *sorted_members(const json_t *obj, size_t *count)
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
	dsi_sort_stable(v, n, sizeof(kv), kv_cmp, NULL);
	*count = n;
	return v;
}

void dsi_go_marshal(dsi_strbuf *b, const json_t *v)
{
	char num[40];
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		size_t n;
		kv *m = sorted_members(v, &n);
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

/* ---- apimachinery validators ----------------------------------------------------------------- */

/* One field error per message of a labelvalid check ("; "-joined there). */
static void each_message(dsi_vctx *c, const char *child, int named, const char *s, size_t n, const char *msgs)
{
	const char *p = msgs;
	while (p && *p) {
		const char *end = strstr(p, "; ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *one = dsi_strndup(p, len);
		if (!one) {
			c->errs->oom = 1;
			return;
		}
		if (named)
			dsi_v_named(c, child, DSI_FE_INVALID, s, n, one);
		else
			dsi_v_str(c, child, DSI_FE_INVALID, s, n, one);
		dsi_free(one);
		p = end ? end + 2 : NULL;
	}
}

/* A field error per message of one labelvalid check of s (none when s is valid). */
static void check_each(dsi_vctx *c, const char *child, const char *s, size_t n,
		       int (*check)(const char *s, size_t n, dsi_strbuf *msgs))
{
	dsi_strbuf m = DSI_STRBUF_INIT;
	if (check(s, n, &m))
		each_message(c, child, 0, s, n, m.data);
	dsi_strbuf_free(&m);
}

/* ValidateLabelName (apimachinery pkg/apis/meta/v1/validation/validation.go) */
void dsi_v_label_name(dsi_vctx *c, const char *child, const char *k, size_t n)
{
	check_each(c, child, k, n, dsi_validate_label_key);
}

void dsi_v_label_value(dsi_vctx *c, const char *child, const char *v, size_t n)
{
	check_each(c, child, v, n, dsi_validate_label_value);
}

/* NameIsDNSSubdomain / ValidateDNS1123Subdomain */
void dsi_v_dns_subdomain(dsi_vctx *c, const char *child, const char *s, size_t n)
{
	check_each(c, child, s, n, dsi_validate_dns1123_subdomain);
}

/* NameIsDNSLabel / ValidateDNS1123Label */
void dsi_v_dns_label(dsi_vctx *c, const char *child, const char *s, size_t n)
{
	check_each(c, child, s, n, dsi_validate_dns1123_label);
}

/* ValidateNonnegativeField (apimachinery pkg/api/validation/generic.go) */
void dsi_v_nonnegative(dsi_vctx *c, const char *child, int64_t v)
{
	if (v < 0)
		dsi_v_int(c, child, DSI_FE_INVALID, v, IS_NEGATIVE_MSG);
}

/* The members of a map[string]string member, sorted bytewise by key (*out NULL and *n 0 when it is absent or
 * empty), after checking that every value is a string (null reads as ""). *out is the caller's to free. */
static int string_map(dsi_vctx *c, const json_t *obj, const char *key, kv **out, size_t *n)
{
	json_t *m;
	*out = NULL;
	*n = 0;
	int rc = dsi_rd_object(&c->rd, obj, key, &m);
	if (rc < 0 || !m)
		return rc;
	const char *k;
	json_t *v;
	json_object_foreach(m, k, v)
	{
		if (!json_is_string(v) && !json_is_null(v)) {
			size_t mk = dsi_rd_push(&c->rd, key);
			rc = dsi_rd_fail(&c->rd, k, DS_ETYPE, "expected string, got %s", dsi_json_type_name(v));
			dsi_rd_pop(&c->rd, mk);
			return rc;
		}
	}
	*out = sorted_members(m, n);
	if (json_object_size(m) && !*out)
		return dsi_error_nomem(c->rd.err);
	return 0;
}

/* ValidateLabels (apimachinery pkg/apis/meta/v1/validation/validation.go); keys in bytewise order */
int dsi_v_labels(dsi_vctx *c, const json_t *obj, const char *key, const char *child)
{
	kv *v;
	size_t n;
	int rc = string_map(c, obj, key, &v, &n);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		dsi_v_label_name(c, child, v[i].k, v[i].n);
		const char *s = json_is_string(v[i].v) ? json_string_value(v[i].v) : "";
		dsi_v_label_value(c, child, s, json_is_string(v[i].v) ? json_string_length(v[i].v) : 0);
	}
	dsi_free(v);
	return 0;
}

/* ValidateAnnotations (apimachinery pkg/api/validation/objectmeta.go) */
int dsi_v_annotations(dsi_vctx *c, const json_t *obj, const char *key, const char *child, const char *skip)
{
	kv *v;
	size_t n;
	int rc = string_map(c, obj, key, &v, &n);
	if (rc < 0)
		return rc;
	int64_t total = 0;
	for (size_t i = 0; i < n; i++) {
		if (skip && strlen(skip) == v[i].n && memcmp(skip, v[i].k, v[i].n) == 0)
			continue;
		/* the rule is QualifiedName except that case does not matter */
		char *low = dsi_strndup(v[i].k, v[i].n);
		if (!low) {
			dsi_free(v);
			return dsi_error_nomem(c->rd.err);
		}
		for (size_t j = 0; j < v[i].n; j++)
			if (low[j] >= 'A' && low[j] <= 'Z')
				low[j] = (char)(low[j] - 'A' + 'a');
		dsi_strbuf msgs = DSI_STRBUF_INIT;
		if (dsi_validate_label_key(low, v[i].n, &msgs))
			each_message(c, child, 0, v[i].k, v[i].n, msgs.data);
		dsi_strbuf_free(&msgs);
		dsi_free(low);
		total += (int64_t)v[i].n + (json_is_string(v[i].v) ? (int64_t)json_string_length(v[i].v) : 0);
	}
	dsi_free(v);
	if (total > 256 * 1024) /* TotalAnnotationSizeLimitB */
		dsi_v_add(c, child, DSI_FE_TOO_LONG, NULL, NULL, "may not be more than 262144 bytes");
	return 0;
}

static int streq(const char *a, size_t n, const char *lit) { return strlen(lit) == n && memcmp(a, lit, n) == 0; }

/* ValidateLabelSelectorRequirement */
static int selector_requirement(dsi_vctx *c, const json_t *req)
{
	const char *op, *key;
	size_t oplen, keylen;
	json_t *values;
	int rc;
	if ((rc = dsi_v_string(c, req, "operator", &op, &oplen)) < 0 || (rc = dsi_v_string(c, req, "key", &key, &keylen)) < 0 ||
	    (rc = dsi_v_array(c, req, "values", &values)) < 0)
		return rc;
	size_t nvalues = json_array_size(values);
	if (streq(op, oplen, "In") || streq(op, oplen, "NotIn")) {
		if (!nvalues)
			dsi_v_required(c, "values", "must be specified when `operator` is 'In' or 'NotIn'");
	} else if (streq(op, oplen, "Exists") || streq(op, oplen, "DoesNotExist")) {
		if (nvalues)
			dsi_v_forbidden(c, "values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
	} else {
		dsi_v_named(c, "operator", DSI_FE_INVALID, op, oplen, "not a valid selector operator");
	}
	dsi_v_label_name(c, "key", key, keylen);
	dsi_vmark mv = dsi_v_child(c, "values");
	for (size_t i = 0; rc == 0 && i < nvalues; i++) {
		const char *s;
		size_t n;
		dsi_vmark mi = dsi_v_index(c, i);
		rc = dsi_v_elem_string(c, values, i, &s, &n);
		if (rc == 0 && !c->allow_invalid_selector_values)
			dsi_v_label_value(c, NULL, s, n);
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, mv);
	return rc;
}

/* ValidateLabelSelector (apimachinery pkg/apis/meta/v1/validation/validation.go) */
int dsi_v_label_selector(dsi_vctx *c, const json_t *obj, const char *key)
{
	json_t *sel, *exprs;
	int rc = dsi_v_object(c, obj, key, &sel);
	if (rc < 0 || !sel)
		return rc;
	dsi_vmark m = dsi_v_child(c, key);
	if ((rc = dsi_v_labels(c, sel, "matchLabels", "matchLabels")) == 0 &&
	    (rc = dsi_v_array(c, sel, "matchExpressions", &exprs)) == 0) {
		dsi_vmark me = dsi_v_child(c, "matchExpressions");
		for (size_t i = 0; rc == 0 && i < json_array_size(exprs); i++) {
			json_t *req;
			dsi_vmark mi = dsi_v_index(c, i);
			if ((rc = dsi_v_elem_object(c, exprs, i, &req)) == 0)
				rc = selector_requirement(c, req);
			dsi_v_pop(c, mi);
		}
		dsi_v_pop(c, me);
	}
	dsi_v_pop(c, m);
	return rc;
}

/* LabelSelectorHasInvalidLabelValue */
static int selector_has_invalid_value(const json_t *sel)
{
	json_t *exprs = json_object_get(sel, "matchExpressions");
	for (size_t i = 0; i < json_array_size(exprs); i++) {
		json_t *vals = json_object_get(json_array_get(exprs, i), "values");
		for (size_t j = 0; j < json_array_size(vals); j++) {
			json_t *v = json_array_get(vals, j);
			if (json_is_string(v) && dsi_validate_label_value(json_string_value(v), json_string_length(v), NULL))
				return 1;
		}
	}
	return 0;
}

/* A metav1.LabelSelector as json.Marshal writes it (struct order, omitempty). */
static void marshal_selector(dsi_strbuf *b, const json_t *sel)
{
	if (!sel || json_is_null(sel)) {
		dsi_strbuf_puts(b, "null");
		return;
	}
	json_t *ml = json_object_get(sel, "matchLabels"), *me = json_object_get(sel, "matchExpressions");
	int first = 1;
	dsi_strbuf_putc(b, '{');
	if (json_object_size(ml)) {
		dsi_strbuf_puts(b, "\"matchLabels\":");
		dsi_go_marshal(b, ml);
		first = 0;
	}
	if (json_array_size(me)) {
		dsi_strbuf_puts(b, first ? "\"matchExpressions\":[" : ",\"matchExpressions\":[");
		for (size_t i = 0; i < json_array_size(me); i++) {
			json_t *r = json_array_get(me, i), *k = json_object_get(r, "key"), *o = json_object_get(r, "operator"),
			       *v = json_object_get(r, "values");
			dsi_strbuf_puts(b, i ? ",{\"key\":" : "{\"key\":");
			dsi_go_json_string(b, json_is_string(k) ? json_string_value(k) : "", json_is_string(k) ? json_string_length(k) : 0);
			dsi_strbuf_puts(b, ",\"operator\":");
			dsi_go_json_string(b, json_is_string(o) ? json_string_value(o) : "", json_is_string(o) ? json_string_length(o) : 0);
			if (json_array_size(v)) {
				dsi_strbuf_puts(b, ",\"values\":");
				dsi_go_marshal(b, v);
			}
			dsi_strbuf_putc(b, '}');
		}
		dsi_strbuf_putc(b, ']');
	}
	dsi_strbuf_putc(b, '}');
}

/* ---- ObjectMeta (apimachinery pkg/api/validation/objectmeta.go) ---------------------------- */

/* maskTrailingDash (apimachinery pkg/api/validation/generic.go), quirk included */
static char *mask_trailing_dash(const char *s, size_t n, size_t *outn)
{
	char *r = dsi_strndup(s, n);
	*outn = n;
	if (r && n > 1 && s[n - 1] == '-') {
		r[n - 2] = 'a';
		r[n - 1] = '\0';
		*outn = n - 1;
	}
	return r;
}

/* schema.ParseGroupVersion: 0 ok (version set), -1 error */
static int parse_group_version(const char *s, size_t n, size_t *vlen)
{
	if (n == 0 || (n == 1 && s[0] == '/')) {
		*vlen = 0;
		return 0;
	}
	const char *slash = memchr(s, '/', n);
	if (!slash) {
		*vlen = n;
		return 0;
	}
	if (memchr(slash + 1, '/', n - (size_t)(slash - s) - 1))
		return -1;
	*vlen = n - (size_t)(slash - s) - 1;
	return 0;
}

/* An OwnerReference as json.Marshal writes it. */
static void marshal_owner_ref(dsi_strbuf *b, const json_t *r)
{
	static const char *const strs[] = {"apiVersion", "kind", "name", "uid"};
	dsi_strbuf_putc(b, '{');
	for (size_t i = 0; i < 4; i++) {
		json_t *v = json_object_get(r, strs[i]);
		dsi_strbuf_printf(b, "%s\"%s\":", i ? "," : "", strs[i]);
		dsi_go_json_string(b, json_is_string(v) ? json_string_value(v) : "", json_is_string(v) ? json_string_length(v) : 0);
	}
	static const char *const bools[] = {"controller", "blockOwnerDeletion"};
	for (size_t i = 0; i < 2; i++) {
		json_t *v = json_object_get(r, bools[i]);
		if (json_is_boolean(v))
			dsi_strbuf_printf(b, ",\"%s\":%s", bools[i], json_is_true(v) ? "true" : "false");
	}
	dsi_strbuf_putc(b, '}');
}

/* ValidateOwnerReferences */
static int owner_references(dsi_vctx *c, const json_t *meta)
{
	json_t *refs;
	int rc = dsi_v_array(c, meta, "ownerReferences", &refs);
	if (rc < 0 || !refs)
		return rc;
	dsi_vmark m = dsi_v_child(c, "ownerReferences");
	const json_t *first_controller = NULL;
	for (size_t i = 0; rc == 0 && i < json_array_size(refs); i++) {
		json_t *r;
		const char *av, *kind, *name, *uid;
		size_t avn, kindn, namen, uidn;
		int ctrl = 0;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, refs, i, &r)) < 0 || (rc = dsi_v_string(c, r, "apiVersion", &av, &avn)) < 0 ||
		    (rc = dsi_v_string(c, r, "kind", &kind, &kindn)) < 0 || (rc = dsi_v_string(c, r, "name", &name, &namen)) < 0 ||
		    (rc = dsi_v_string(c, r, "uid", &uid, &uidn)) < 0 || (rc = dsi_v_bool(c, r, "controller", &ctrl, NULL)) < 0 ||
		    (rc = dsi_v_bool(c, r, "blockOwnerDeletion", &(int){0}, NULL)) < 0) {
			dsi_v_pop(c, mi);
			break;
		}
		/* validateOwnerReference */
		size_t vlen = 0;
		int gverr = parse_group_version(av, avn, &vlen);
		if (!avn)
			dsi_v_required(c, "apiVersion", "must not be empty");
		else if (gverr < 0 || vlen == 0)
			dsi_v_str(c, "apiVersion", DSI_FE_INVALID, av, avn, "must be <group>/<version> or <version>");
		if (!kindn)
			dsi_v_required(c, "kind", "must not be empty");
		if (!namen)
			dsi_v_required(c, "name", "must not be empty");
		if (!uidn)
			dsi_v_required(c, "uid", "must not be empty");
		/* BannedOwners: v1 Event (a malformed apiVersion parses as the empty GroupVersion) */
		if (gverr == 0 && streq(av, avn, "v1") && streq(kind, kindn, "Event")) {
			dsi_strbuf b = DSI_STRBUF_INIT;
			marshal_owner_ref(&b, r);
			dsi_v_add(c, NULL, DSI_FE_INVALID, json_deep_copy(r), b.data, "/v1, Kind=Event is disallowed from being an owner");
			dsi_strbuf_free(&b);
		}
		dsi_v_pop(c, mi);
		if (ctrl) {
			if (first_controller) {
				json_t *fk = json_object_get(first_controller, "kind"), *fn = json_object_get(first_controller, "name");
				dsi_strbuf d = DSI_STRBUF_INIT, b = DSI_STRBUF_INIT;
				dsi_strbuf_puts(&d, "Only one reference can have Controller set to true. Found \"true\" in references for ");
				dsi_strbuf_printf(&d, "%s/%s and ", json_is_string(fk) ? json_string_value(fk) : "",
						  json_is_string(fn) ? json_string_value(fn) : "");
				dsi_strbuf_append(&d, kind, kindn);
				dsi_strbuf_putc(&d, '/');
				dsi_strbuf_append(&d, name, namen);
				dsi_strbuf_putc(&b, '[');
				for (size_t j = 0; j < json_array_size(refs); j++) {
					if (j)
						dsi_strbuf_putc(&b, ',');
					marshal_owner_ref(&b, json_array_get(refs, j));
				}
				dsi_strbuf_putc(&b, ']');
				dsi_v_add(c, NULL, DSI_FE_INVALID, json_deep_copy(refs), b.data, d.data);
				dsi_strbuf_free(&d);
				dsi_strbuf_free(&b);
			} else {
				first_controller = r;
			}
		}
	}
	dsi_v_pop(c, m);
	return rc;
}

static int is_standard_finalizer(const char *s, size_t n)
{
	return streq(s, n, "kubernetes") || streq(s, n, "orphan") || streq(s, n, "foregroundDeletion");
}

/* ValidateFinalizers (apimachinery) then validateKubeFinalizerName (pkg/apis/core/validation) */
static int finalizers(dsi_vctx *c, const json_t *meta)
{
	json_t *fins;
	int rc = dsi_v_array(c, meta, "finalizers", &fins);
	if (rc < 0 || !fins)
		return rc;
	dsi_vmark m = dsi_v_child(c, "finalizers");
	int orphan = 0, foreground = 0;
	for (size_t i = 0; i < json_array_size(fins); i++) {
		const char *s;
		size_t n;
		dsi_vmark mi = dsi_v_index(c, i);
		rc = dsi_v_elem_string(c, fins, i, &s, &n);
		dsi_v_pop(c, mi);
		if (rc < 0)
			break;
		dsi_v_label_name(c, NULL, s, n);
		orphan |= streq(s, n, "orphan");
		foreground |= streq(s, n, "foregroundDeletion");
	}
	if (rc == 0 && orphan && foreground)
		dsi_v_json(c, NULL, DSI_FE_INVALID, json_deep_copy(fins), "finalizer orphan and foregroundDeletion cannot be both set");
	for (size_t i = 0; rc == 0 && i < json_array_size(fins); i++) {
		json_t *f = json_array_get(fins, i);
		const char *s = json_is_string(f) ? json_string_value(f) : "";
		size_t n = json_is_string(f) ? json_string_length(f) : 0;
		if (!memchr(s, '/', n) && !is_standard_finalizer(s, n)) {
			dsi_vmark mi = dsi_v_index(c, i);
			dsi_v_str(c, NULL, DSI_FE_INVALID, s, n, "name is neither a standard finalizer name nor is it fully qualified");
			dsi_v_pop(c, mi);
		}
	}
	dsi_v_pop(c, m);
	return rc;
}

/* ValidateObjectMeta (pkg/apis/core/validation, apimachinery ValidateObjectMetaAccessor) with NameIsDNSSubdomain */
static int object_meta_create(dsi_vctx *c, const json_t *meta)
{
	const char *name, *gen, *ns;
	size_t namen, genn, nsn;
	int64_t generation;
	int rc;
	if ((rc = dsi_v_string(c, meta, "name", &name, &namen)) < 0 || (rc = dsi_v_string(c, meta, "generateName", &gen, &genn)) < 0 ||
	    (rc = dsi_v_string(c, meta, "namespace", &ns, &nsn)) < 0 || (rc = dsi_v_int64(c, meta, "generation", &generation, NULL)) < 0)
		return rc;
	if (genn) {
		size_t mn;
		char *masked = mask_trailing_dash(gen, genn, &mn);
		if (!masked)
			return dsi_error_nomem(c->rd.err);
		dsi_strbuf msgs = DSI_STRBUF_INIT;
		if (dsi_validate_dns1123_subdomain(masked, mn, &msgs))
			each_message(c, "generateName", 0, gen, genn, msgs.data);
		dsi_strbuf_free(&msgs);
		dsi_free(masked);
	}
	if (!namen)
		dsi_v_required(c, "name", "name or generateName is required");
	else
		dsi_v_dns_subdomain(c, "name", name, namen);
	if (!nsn)
		dsi_v_required(c, "namespace", "");
	else
		dsi_v_dns_label(c, "namespace", ns, nsn);
	dsi_v_nonnegative(c, "generation", generation);
	if ((rc = dsi_v_labels(c, meta, "labels", "labels")) < 0 ||
	    (rc = dsi_v_annotations(c, meta, "annotations", "annotations", NULL)) < 0 || (rc = owner_references(c, meta)) < 0)
		return rc;
	return finalizers(c, meta);
}

/* metav1.Time as decoded: absent/null = the zero time. Returns 0 and *set. */
static int read_time(dsi_vctx *c, const json_t *meta, const char *key, ds_time *t, int *set)
{
	const char *s;
	size_t n;
	*set = 0;
	*t = 0;
	int rc = dsi_v_string(c, meta, key, &s, &n);
	if (rc < 0 || !n)
		return rc;
	ds_error tmp;
	if (ds_time_parse(s, t, &tmp) < 0)
		return dsi_rd_fail(&c->rd, key, DS_EVALUE, "%s", tmp.message);
	*set = 1;
	return 0;
}

/* metav1.Time as json.Marshal writes it: RFC 3339 in UTC, whole seconds; "null" for the zero time */
static void time_shown(dsi_strbuf *b, json_t **val, ds_time t, int set)
{
	if (!set) {
		dsi_strbuf_puts(b, "null");
		*val = json_null();
		return;
	}
	ds_time whole = t - ((t % 1000) + 1000) % 1000;
	char buf[40];
	ds_time_format(whole, buf, sizeof(buf));
	dsi_strbuf_printf(b, "\"%s\"", buf);
	*val = json_string(buf);
}

static int str_eq(const char *a, size_t an, const char *b, size_t bn) { return an == bn && memcmp(a, b, an) == 0; }

/* ValidateObjectMetaAccessorUpdate (apimachinery pkg/api/validation/objectmeta.go) + validateKubeFinalizerName */
static int object_meta_update(dsi_vctx *c, const json_t *meta, const json_t *old)
{
	const char *rv, *name, *oname, *ns, *ons, *uid, *ouid, *dummy;
	size_t rvn, namen, onamen, nsn, onsn, uidn, ouidn, dn;
	int64_t gen, ogen, grace = 0, ograce = 0;
	int has_grace, ohas_grace, rc;
	ds_time ct, oct, dt, odt;
	int ct_set, oct_set, dt_set, odt_set;
	/* the old object is read through the same checks (it was stored, so it decodes) */
	if ((rc = dsi_v_string(c, meta, "resourceVersion", &rv, &rvn)) < 0 || (rc = dsi_v_string(c, meta, "name", &name, &namen)) < 0 ||
	    (rc = dsi_v_string(c, meta, "namespace", &ns, &nsn)) < 0 || (rc = dsi_v_string(c, meta, "uid", &uid, &uidn)) < 0 ||
	    (rc = dsi_v_string(c, meta, "generateName", &dummy, &dn)) < 0 ||
	    (rc = dsi_v_int64(c, meta, "generation", &gen, NULL)) < 0 ||
	    (rc = dsi_v_int64(c, meta, "deletionGracePeriodSeconds", &grace, &has_grace)) < 0 ||
	    (rc = read_time(c, meta, "creationTimestamp", &ct, &ct_set)) < 0 ||
	    (rc = read_time(c, meta, "deletionTimestamp", &dt, &dt_set)) < 0)
		return rc;
	/* the old object's fields, with paths under "(old)" */
	dsi_rd saved = c->rd;
	dsi_rd_init(&c->rd, saved.err);
	dsi_rd_push(&c->rd, "(old)");
	dsi_rd_push(&c->rd, "metadata");
	rc = 0;
	if ((rc = dsi_v_string(c, old, "name", &oname, &onamen)) < 0 || (rc = dsi_v_string(c, old, "namespace", &ons, &onsn)) < 0 ||
	    (rc = dsi_v_string(c, old, "uid", &ouid, &ouidn)) < 0 || (rc = dsi_v_int64(c, old, "generation", &ogen, NULL)) < 0 ||
	    (rc = dsi_v_int64(c, old, "deletionGracePeriodSeconds", &ograce, &ohas_grace)) < 0 ||
	    (rc = read_time(c, old, "creationTimestamp", &oct, &oct_set)) < 0 ||
	    (rc = read_time(c, old, "deletionTimestamp", &odt, &odt_set)) < 0) {
		c->rd = saved;
		return rc;
	}
	c->rd = saved;
	/* ValidateNoNewFinalizers when the old object is being deleted */
	if (odt_set) {
		json_t *nf, *of;
		if ((rc = dsi_v_array(c, meta, "finalizers", &nf)) < 0)
			return rc;
		of = json_object_get(old, "finalizers");
		json_t *extra = json_array();
		for (size_t i = 0; extra && i < json_array_size(nf); i++) {
			json_t *f = json_array_get(nf, i);
			if (!json_is_string(f))
				continue;
			int found = 0;
			for (size_t j = 0; !found && j < json_array_size(of); j++)
				found = json_equal(f, json_array_get(of, j));
			for (size_t j = 0; !found && j < json_array_size(extra); j++)
				found = json_equal(f, json_array_get(extra, j));
			if (!found)
				json_array_append(extra, f);
		}
		if (!extra)
			return dsi_error_nomem(c->rd.err);
		if (json_array_size(extra)) {
			/* sets.String.List() sorts; %#v of []string */
			size_t n = json_array_size(extra);
			kv *items = dsi_calloc(n, sizeof(kv));
			if (!items) {
				json_decref(extra);
				return dsi_error_nomem(c->rd.err);
			}
			for (size_t i = 0; i < n; i++) {
				items[i].k = json_string_value(json_array_get(extra, i));
				items[i].n = json_string_length(json_array_get(extra, i));
			}
			dsi_sort_stable(items, n, sizeof(kv), kv_cmp, NULL);
			dsi_strbuf d = DSI_STRBUF_INIT;
			dsi_strbuf_puts(&d, "no new finalizers can be added if the object is being deleted, found new finalizers []string{");
			for (size_t i = 0; i < n; i++) {
				if (i)
					dsi_strbuf_puts(&d, ", ");
				dsi_go_quote(&d, items[i].k, items[i].n);
			}
			dsi_strbuf_putc(&d, '}');
			dsi_v_forbidden(c, "finalizers", d.data);
			dsi_strbuf_free(&d);
			dsi_free(items);
		}
		json_decref(extra);
	}
	if (!rvn)
		dsi_v_str(c, "resourceVersion", DSI_FE_INVALID, rv, rvn, "must be specified for an update");
	dsi_v_nonnegative(c, "generation", gen);
	if (gen < ogen)
		dsi_v_int(c, "generation", DSI_FE_INVALID, gen, "must not be decremented");
	if (!str_eq(name, namen, oname, onamen))
		dsi_v_str(c, "name", DSI_FE_INVALID, name, namen, IMMUTABLE_MSG);
	if (!str_eq(ns, nsn, ons, onsn))
		dsi_v_str(c, "namespace", DSI_FE_INVALID, ns, nsn, IMMUTABLE_MSG);
	if (!str_eq(uid, uidn, ouid, ouidn))
		dsi_v_named(c, "uid", DSI_FE_INVALID, uid, uidn, IMMUTABLE_MSG);
	if (ct_set != oct_set || ct != oct) {
		dsi_strbuf b = DSI_STRBUF_INIT;
		json_t *v;
		time_shown(&b, &v, ct, ct_set);
		dsi_v_add(c, "creationTimestamp", DSI_FE_INVALID, v, b.data, IMMUTABLE_MSG);
		dsi_strbuf_free(&b);
	}
	if (dt_set != odt_set || dt != odt) {
		dsi_strbuf b = DSI_STRBUF_INIT;
		json_t *v;
		time_shown(&b, &v, dt, dt_set);
		dsi_v_add(c, "deletionTimestamp", DSI_FE_INVALID, v, b.data, IMMUTABLE_MSG);
		dsi_strbuf_free(&b);
	}
	if (has_grace != ohas_grace || grace != ograce) {
		if (has_grace)
			dsi_v_json(c, "deletionGracePeriodSeconds", DSI_FE_INVALID, json_integer(grace), IMMUTABLE_MSG);
		else
			dsi_v_add(c, "deletionGracePeriodSeconds", DSI_FE_INVALID, json_null(), "null", IMMUTABLE_MSG);
	}
	if ((rc = dsi_v_labels(c, meta, "labels", "labels")) < 0 ||
	    (rc = dsi_v_annotations(c, meta, "annotations", "annotations", NULL)) < 0 || (rc = owner_references(c, meta)) < 0)
		return rc;
	/* validateKubeFinalizerName on each new finalizer */
	json_t *fins;
	if ((rc = dsi_v_array(c, meta, "finalizers", &fins)) < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "finalizers");
	for (size_t i = 0; rc == 0 && i < json_array_size(fins); i++) {
		const char *s;
		size_t n;
		dsi_vmark mi = dsi_v_index(c, i);
		rc = dsi_v_elem_string(c, fins, i, &s, &n);
		if (rc == 0 && !memchr(s, '/', n) && !is_standard_finalizer(s, n))
			dsi_v_str(c, NULL, DSI_FE_INVALID, s, n, "name is neither a standard finalizer name nor is it fully qualified");
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	return rc;
}

/* ---- semantic equality (apimachinery pkg/api/equality Semantic.DeepEqual, on JSON) ------------- */

/* Go's zero values that the JSON may spell differently: absent, null, "", [], {}. */
static int zeroish(const json_t *v)
{
	return !v || json_is_null(v) || (json_is_string(v) && !json_string_length(v)) ||
	       (json_is_array(v) && !json_array_size(v)) || (json_is_object(v) && !json_object_size(v));
}

static int quantity_equal(const json_t *a, const json_t *b)
{
	dsi_quantity qa, qb;
	dsi_rd rd;
	ds_error tmp;
	dsi_rd_init(&rd, &tmp);
	if (dsi_quantity_from_json(&rd, a, &qa) < 0 || dsi_quantity_from_json(&rd, b, &qb) < 0)
		return json_equal(a, b);
	return dsi_quantity_cmp(&qa, &qb) == 0;
}

static int sem_equal(const json_t *a, const json_t *b, int quantities);

static int sem_equal_members(const json_t *a, const json_t *b, int values_are_quantities)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)a, k, v)
	{
		/* values_are_quantities: this object maps names to quantities */
		int mode = values_are_quantities ? 1
			   : (!strcmp(k, "limits") || !strcmp(k, "requests") || !strcmp(k, "overhead")) ? 2
			   : !strcmp(k, "sizeLimit")                                                    ? 1
												: 0;
		if (!sem_equal(v, json_object_get(b, k), mode))
			return 0;
	}
	json_object_foreach((json_t *)b, k, v)
	{
		if (!json_object_get(a, k) && !zeroish(v))
			return 0;
	}
	return 1;
}

/* quantities: 0 none, 1 this value is a quantity, 2 this object maps names to quantities */
static int sem_equal(const json_t *a, const json_t *b, int quantities)
{
	if (zeroish(a) || zeroish(b))
		return zeroish(a) && zeroish(b);
	if (quantities == 1)
		return quantity_equal(a, b);
	if (json_typeof(a) != json_typeof(b)) {
		if (json_is_number(a) && json_is_number(b))
			return json_number_value(a) == json_number_value(b);
		return 0;
	}
	if (json_is_object(a))
		return sem_equal_members(a, b, quantities == 2 ? 1 : 0);
	if (json_is_array(a)) {
		if (json_array_size(a) != json_array_size(b))
			return 0;
		for (size_t i = 0; i < json_array_size(a); i++)
			if (!sem_equal(json_array_get(a, i), json_array_get(b, i), 0))
				return 0;
		return 1;
	}
	return json_equal(a, b);
}

/* ---- DaemonSets (pkg/apis/apps/validation/validation.go) --------------------------------------- */

/* One IntOrString as the internal RollingUpdateDaemonSet holds it. */
typedef struct ios {
	int is_string;
	int32_t ival;
	const char *s;
	size_t n;
} ios;

static int read_ios(dsi_vctx *c, const json_t *obj, const char *key, ios *out)
{
	dsi_intstr tmp;
	int present;
	memset(out, 0, sizeof(*out));
	int rc = dsi_intstr_read(&c->rd, obj, key, &tmp, &present);
	if (rc < 0 || !present)
		return rc;
	json_t *v = json_object_get(obj, key);
	if (json_is_string(v)) {
		out->is_string = 1;
		out->s = json_string_value(v);
		out->n = json_string_length(v);
	} else {
		out->ival = tmp.ival;
	}
	return 0;
}

static json_t *ios_json(const ios *v) { return v->is_string ? json_stringn(v->s, v->n) : json_integer(v->ival); }

/* IsValidPercent: ^[0-9]+%$ */
static int valid_percent(const ios *v)
{
	if (!v->is_string || v->n < 2 || v->s[v->n - 1] != '%')
		return 0;
	for (size_t i = 0; i + 1 < v->n; i++)
		if (v->s[i] < '0' || v->s[i] > '9')
			return 0;
	return 1;
}

/* strconv.Atoi on 64-bit Go: the value; 0 on a syntax error, the clamped value on a range error */
static int64_t go_atoi(const char *s, size_t n)
{
	int64_t v;
	dsi_go_parse_int64(s, n, &v);
	return v;
}

/* getIntOrPercentValue */
static int64_t ios_value(const ios *v)
{
	if (valid_percent(v))
		return go_atoi(v->s, v->n - 1);
	return v->is_string ? go_atoi(v->s, v->n) : v->ival; /* IntValue() */
}

static void ios_error(dsi_vctx *c, const char *child, int type, const ios *v, const char *detail)
{
	dsi_v_json(c, child, type, ios_json(v), detail);
}

/* ValidatePositiveIntOrPercent */
static void positive_int_or_percent(dsi_vctx *c, const char *child, const ios *v)
{
	if (v->is_string) {
		if (!valid_percent(v))
			ios_error(c, child, DSI_FE_INVALID, v,
				  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  "
				  "or '93%', regex used for validation is '[0-9]+%')");
	} else {
		dsi_v_nonnegative(c, child, v->ival);
	}
}

/* IsNotMoreThan100Percent */
static void not_more_than_100(dsi_vctx *c, const char *child, const ios *v)
{
	if (valid_percent(v) && go_atoi(v->s, v->n - 1) > 100)
		ios_error(c, child, DSI_FE_INVALID, v, "must not be greater than 100%");
}

/* ValidateRollingUpdateDaemonSet */
int dsi_validate_rolling_update(dsi_vctx *c, const json_t *ru)
{
	ios mu, ms;
	int rc;
	if ((rc = read_ios(c, ru, "maxUnavailable", &mu)) < 0 || (rc = read_ios(c, ru, "maxSurge", &ms)) < 0)
		return rc;
	positive_int_or_percent(c, "maxUnavailable", &mu);
	positive_int_or_percent(c, "maxSurge", &ms);
	not_more_than_100(c, "maxUnavailable", &mu);
	not_more_than_100(c, "maxSurge", &ms);
	int has_unavailable = ios_value(&mu) != 0, has_surge = ios_value(&ms) != 0;
	if (has_unavailable && has_surge)
		ios_error(c, "maxSurge", DSI_FE_INVALID, &ms, "may not be set when maxUnavailable is non-zero");
	else if (!has_unavailable && !has_surge)
		dsi_v_required(c, "maxUnavailable", "cannot be 0 when maxSurge is 0");
	return 0;
}

/* ValidateDaemonSetUpdateStrategy */
static int update_strategy(dsi_vctx *c, const json_t *spec)
{
	json_t *us, *ru = NULL;
	const char *type = "";
	size_t tn = 0;
	int rc = dsi_v_object(c, spec, "updateStrategy", &us);
	if (rc < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "updateStrategy");
	if ((rc = dsi_v_string(c, us, "type", &type, &tn)) < 0 || (rc = dsi_v_object(c, us, "rollingUpdate", &ru)) < 0) {
		dsi_v_pop(c, m);
		return rc;
	}
	if (streq(type, tn, "OnDelete")) {
		if (ru) { /* not validated, but decoded */
			ios a, b;
			dsi_vmark m2 = dsi_v_child(c, "rollingUpdate");
			if ((rc = read_ios(c, ru, "maxUnavailable", &a)) == 0)
				rc = read_ios(c, ru, "maxSurge", &b);
			dsi_v_pop(c, m2);
		}
	} else if (streq(type, tn, "RollingUpdate")) {
		if (!ru) {
			dsi_v_required(c, "rollingUpdate", "");
		} else {
			dsi_vmark m2 = dsi_v_child(c, "rollingUpdate");
			rc = dsi_validate_rolling_update(c, ru);
			dsi_v_pop(c, m2);
		}
	} else {
		/* NotSupported(fldPath, strategy, ...): the internal struct, json.Marshal'ed with Go field names */
		ios a = {0, 0, NULL, 0}, b = {0, 0, NULL, 0};
		if (ru) {
			dsi_vmark m2 = dsi_v_child(c, "rollingUpdate");
			if ((rc = read_ios(c, ru, "maxUnavailable", &a)) == 0)
				rc = read_ios(c, ru, "maxSurge", &b);
			dsi_v_pop(c, m2);
		}
		if (rc == 0) {
			json_t *val = json_pack("{s:s%,s:o}", "Type", type, tn, "RollingUpdate",
						ru ? json_pack("{s:o,s:o}", "MaxUnavailable", ios_json(&a), "MaxSurge", ios_json(&b))
						   : json_null());
			dsi_strbuf s = DSI_STRBUF_INIT;
			dsi_strbuf_puts(&s, "{\"Type\":");
			dsi_go_json_string(&s, type, tn);
			dsi_strbuf_puts(&s, ",\"RollingUpdate\":");
			if (ru) {
				dsi_strbuf_puts(&s, "{\"MaxUnavailable\":");
				dsi_go_marshal(&s, json_object_get(json_object_get(val, "RollingUpdate"), "MaxUnavailable"));
				dsi_strbuf_puts(&s, ",\"MaxSurge\":");
				dsi_go_marshal(&s, json_object_get(json_object_get(val, "RollingUpdate"), "MaxSurge"));
				dsi_strbuf_putc(&s, '}');
			} else {
				dsi_strbuf_puts(&s, "null");
			}
			dsi_strbuf_putc(&s, '}');
			dsi_v_add(c, NULL, DSI_FE_NOT_SUPPORTED, val, s.data,
				  "supported values: \"RollingUpdate\", \"OnDelete\"");
			dsi_strbuf_free(&s);
		}
	}
	dsi_v_pop(c, m);
	return rc;
}

/* The template's labels as a Go map: the object, or NULL (nil) when absent. */
static json_t *template_labels(const json_t *tmpl)
{
	json_t *l = json_object_get(json_object_get(tmpl, "metadata"), "labels");
	return json_is_object(l) ? l : NULL;
}

/* A decoder error reported by a scratch reader relative to <current path>.<fields...> gets its full path. */
static void prefix_error(dsi_vctx *c, const char *const *fields, size_t n)
{
	size_t mark = c->rd.len;
	for (size_t i = 0; i < n; i++)
		dsi_rd_push(&c->rd, fields[i]);
	dsi_error_prefix_path(c->rd.err, c->rd.path);
	dsi_rd_pop(&c->rd, mark);
}

/* selector.Matches(labels.Set(template.Labels)) after LabelSelectorAsSelector: 1 match,
 * 0 no match, 2 the selector does not convert; < 0 a decoder error */
static int selector_matches_template(dsi_vctx *c, const json_t *sel, const json_t *tmpl)
{
	if (!sel)
		return 0; /* nil: labels.Nothing() */
	ds_error tmp;
	ds_error_clear(&tmp);
	dsi_rd rd;
	dsi_rd_init(&rd, &tmp);
	dsi_selector s;
	int rc = dsi_selector_from_json(&rd, c->atoms, sel, &s);
	if (rc == DS_EVALUE)
		return 2;
	if (rc < 0) {
		if (c->rd.err)
			*c->rd.err = tmp;
		static const char *const at[] = {"selector"};
		prefix_error(c, at, 1);
		return rc;
	}
	dsi_labels labels = {NULL, 0};
	json_t *l = template_labels(tmpl);
	int match = 0;
	if (l) {
		dsi_rd_init(&rd, &tmp);
		if ((rc = dsi_labels_from_object(&rd, c->atoms, l, &labels)) < 0) {
			dsi_selector_release(c->atoms, &s);
			if (c->rd.err)
				*c->rd.err = tmp;
			static const char *const at[] = {"template", "metadata", "labels"};
			prefix_error(c, at, 3);
			return rc;
		}
	}
	match = dsi_selector_matches(c->atoms, &s, &labels);
	dsi_labels_release(c->atoms, &labels);
	dsi_selector_release(c->atoms, &s);
	return match;
}

/* ValidateDaemonSetSpec */
static int daemonset_spec(dsi_vctx *c, const json_t *spec, int64_t template_generation)
{
	json_t *sel, *tmpl;
	int rc;
	if ((rc = dsi_v_object(c, spec, "selector", &sel)) < 0 || (rc = dsi_v_object(c, spec, "template", &tmpl)) < 0 ||
	    (rc = dsi_v_label_selector(c, spec, "selector")) < 0)
		return rc;
	int match = selector_matches_template(c, sel, tmpl);
	if (match < 0)
		return match;
	if (match == 0) {
		json_t *l = template_labels(tmpl);
		dsi_v_json(c, "template.metadata.labels", DSI_FE_INVALID, l ? json_deep_copy(l) : json_null(),
			   "`selector` does not match template `labels`");
	}
	if (sel && !json_object_size(json_object_get(sel, "matchLabels")) &&
	    !json_array_size(json_object_get(sel, "matchExpressions")))
		dsi_v_add(c, "selector", DSI_FE_INVALID, json_deep_copy(sel), "{}", "empty selector is invalid for daemonset");
	dsi_vmark m = dsi_v_child(c, "template");
	rc = dsi_validate_pod_template(c, tmpl);
	dsi_v_pop(c, m);
	if (rc < 0)
		return rc;
	/* the template spec was decoded by the pod template validation */
	json_t *tspec = json_object_get(tmpl, "spec");
	json_t *rp = json_object_get(tspec, "restartPolicy");
	const char *restart = json_is_string(rp) ? json_string_value(rp) : "";
	size_t rn = json_is_string(rp) ? json_string_length(rp) : 0;
	static const char *const always[] = {"Always"};
	if (!streq(restart, rn, "Always"))
		dsi_v_not_supported(c, "template.spec.restartPolicy", 1, restart, rn, always, 1);
	json_t *ads = json_object_get(tspec, "activeDeadlineSeconds");
	if (ads && !json_is_null(ads))
		dsi_v_forbidden(c, "template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in DaemonSet is not Supported");
	int32_t mrs, rhl;
	int has_rhl;
	if ((rc = dsi_v_int32(c, spec, "minReadySeconds", &mrs, NULL)) < 0 ||
	    (rc = dsi_v_int32(c, spec, "revisionHistoryLimit", &rhl, &has_rhl)) < 0)
		return rc;
	dsi_v_nonnegative(c, "minReadySeconds", mrs);
	dsi_v_nonnegative(c, "templateGeneration", template_generation);
	if ((rc = update_strategy(c, spec)) < 0)
		return rc;
	if (has_rhl)
		dsi_v_nonnegative(c, "revisionHistoryLimit", rhl); /* zero is a valid RevisionHistoryLimit */
	return 0;
}

static int spec_of(dsi_vctx *c, const json_t *obj, json_t **spec) { return dsi_v_object(c, obj, "spec", spec); }

static int meta_of(dsi_vctx *c, const json_t *obj, json_t **meta) { return dsi_v_object(c, obj, "metadata", meta); }

/* ValidateDaemonSet */
int dsi_validate_daemonset(dsi_vctx *c, const dsi_vds *ds)
{
	json_t *meta, *spec;
	int rc;
	if ((rc = meta_of(c, ds->obj, &meta)) < 0 || (rc = spec_of(c, ds->obj, &spec)) < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "metadata");
	rc = object_meta_create(c, meta);
	dsi_v_pop(c, m);
	if (rc < 0)
		return rc;
	m = dsi_v_child(c, "spec");
	rc = daemonset_spec(c, spec, ds->template_generation);
	dsi_v_pop(c, m);
	return rc;
}

/* ValidateDaemonSetSpecUpdate */
static void daemonset_spec_update(dsi_vctx *c, const json_t *spec, const json_t *old_spec, int64_t tg, int64_t old_tg)
{
	if (tg < old_tg)
		dsi_v_int(c, "templateGeneration", DSI_FE_INVALID, tg, "must not be decremented");
	int updated = !sem_equal(json_object_get(spec, "template"), json_object_get(old_spec, "template"), 0);
	if (tg == old_tg && updated)
		dsi_v_int(c, "templateGeneration", DSI_FE_INVALID, tg, "must be incremented upon template update");
	else if (tg > old_tg && !updated)
		dsi_v_int(c, "templateGeneration", DSI_FE_INVALID, tg, "must not be incremented without template update");
}

/* ValidateDaemonSetUpdate */
int dsi_validate_daemonset_update(dsi_vctx *c, const dsi_vds *ds, const dsi_vds *old)
{
	json_t *meta, *spec, *ometa, *ospec;
	int rc;
	if ((rc = meta_of(c, ds->obj, &meta)) < 0 || (rc = spec_of(c, ds->obj, &spec)) < 0 ||
	    (rc = meta_of(c, old->obj, &ometa)) < 0 || (rc = spec_of(c, old->obj, &ospec)) < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "metadata");
	rc = object_meta_update(c, meta, ometa);
	dsi_v_pop(c, m);
	if (rc < 0)
		return rc;
	m = dsi_v_child(c, "spec");
	daemonset_spec_update(c, spec, ospec, ds->template_generation, old->template_generation);
	rc = daemonset_spec(c, spec, ds->template_generation);
	dsi_v_pop(c, m);
	return rc;
}

/* validateDaemonSetStatus */
static int daemonset_status(dsi_vctx *c, const json_t *status, int32_t *cc, int *has_cc)
{
	static const char *const counts[] = {"currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled",
					     "numberReady"};
	static const char *const counts2[] = {"updatedNumberScheduled", "numberAvailable", "numberUnavailable"};
	int32_t v32;
	int64_t og;
	int rc;
	for (size_t i = 0; i < 4; i++) {
		if ((rc = dsi_v_int32(c, status, counts[i], &v32, NULL)) < 0)
			return rc;
		dsi_v_nonnegative(c, counts[i], v32);
	}
	if ((rc = dsi_v_int64(c, status, "observedGeneration", &og, NULL)) < 0)
		return rc;
	dsi_v_nonnegative(c, "observedGeneration", og);
	for (size_t i = 0; i < 3; i++) {
		if ((rc = dsi_v_int32(c, status, counts2[i], &v32, NULL)) < 0)
			return rc;
		dsi_v_nonnegative(c, counts2[i], v32);
	}
	if ((rc = dsi_v_int32(c, status, "collisionCount", cc, has_cc)) < 0)
		return rc;
	if (*has_cc)
		dsi_v_nonnegative(c, "collisionCount", *cc);
	json_t *conds;
	return dsi_v_array(c, status, "conditions", &conds);
}

/* ValidateDaemonSetStatusUpdate */
int dsi_validate_daemonset_status_update(dsi_vctx *c, const dsi_vds *ds, const dsi_vds *old)
{
	json_t *meta, *ometa, *status, *ostatus;
	int rc;
	if ((rc = meta_of(c, ds->obj, &meta)) < 0 || (rc = meta_of(c, old->obj, &ometa)) < 0 ||
	    (rc = dsi_v_object(c, ds->obj, "status", &status)) < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "metadata");
	rc = object_meta_update(c, meta, ometa);
	dsi_v_pop(c, m);
	if (rc < 0)
		return rc;
	int32_t cc = 0, occ = 0;
	int has_cc = 0, ohas_cc = 0;
	m = dsi_v_child(c, "status");
	rc = daemonset_status(c, status, &cc, &has_cc);
	dsi_v_pop(c, m);
	if (rc < 0)
		return rc;
	dsi_rd saved = c->rd;
	dsi_rd_init(&c->rd, saved.err);
	dsi_rd_push(&c->rd, "(old)");
	if ((rc = dsi_v_object(c, old->obj, "status", &ostatus)) == 0) {
		dsi_rd_push(&c->rd, "status");
		rc = dsi_rd_int32(&c->rd, ostatus, "collisionCount", &occ, &ohas_cc);
	}
	c->rd = saved;
	if (rc < 0)
		return rc;
	/* IsDecremented */
	if (ohas_cc && (!has_cc || cc < occ))
		dsi_v_int(c, "status.collisionCount", DSI_FE_INVALID, has_cc ? cc : 0, "cannot be decremented");
	return 0;
}

/* ---- decoding (Convert_v1_DaemonSet_To_apps_DaemonSet) ----------------------------------------- */

void dsi_vds_release(dsi_vds *d)
{
	json_decref(d->obj);
	memset(d, 0, sizeof(*d));
}

int dsi_vds_decode(const json_t *obj, dsi_vds *out, ds_error *err)
{
	memset(out, 0, sizeof(*out));
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	if (!json_is_object(obj))
		return dsi_rd_fail(&rd, NULL, DS_ETYPE, "expected a DaemonSet object, got %s", dsi_json_type_name(obj));
	const char *kind, *av;
	int rc;
	if ((rc = dsi_rd_string(&rd, obj, "kind", &kind)) < 0 || (rc = dsi_rd_string(&rd, obj, "apiVersion", &av)) < 0)
		return rc;
	if (kind && *kind && strcmp(kind, "DaemonSet") != 0)
		return dsi_rd_fail(&rd, "kind", DS_EUNSUPPORTED, "expected a DaemonSet, got kind \"%s\"", kind);
	if (av && *av && strcmp(av, "apps/v1") != 0)
		return dsi_rd_fail(&rd, "apiVersion", DS_EUNSUPPORTED,
				   "expected apiVersion \"apps/v1\", got \"%s\" (extensions/v1beta1 and apps/v1beta2 are "
				   "no longer served)",
				   av);
	json_t *meta, *ann;
	if ((rc = dsi_rd_object(&rd, obj, "metadata", &meta)) < 0)
		return rc;
	size_t m = dsi_rd_push(&rd, "metadata");
	rc = dsi_rd_object(&rd, meta, "annotations", &ann);
	dsi_rd_pop(&rd, m);
	if (rc < 0)
		return rc;
	if (!(out->obj = json_deep_copy(obj)))
		return dsi_error_nomem(err);
	json_t *tg = json_object_get(ann, TEMPLATE_GENERATION_KEY);
	if (tg && !json_is_null(tg)) {
		m = dsi_rd_push(&rd, "metadata");
		size_t m2 = dsi_rd_push(&rd, "annotations");
		if (!json_is_string(tg))
			rc = dsi_rd_fail(&rd, TEMPLATE_GENERATION_KEY, DS_ETYPE, "expected string, got %s", dsi_json_type_name(tg));
		else if (!dsi_parse_go_int64(json_string_value(tg), json_string_length(tg), &out->template_generation)) {
			/* strconv.ParseInt's error: syntax, or range when only digits overflowed */
			const char *s = json_string_value(tg);
			size_t n = json_string_length(tg), i = (n && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
			int digits = i < n;
			for (; i < n; i++)
				if (s[i] < '0' || s[i] > '9')
					digits = 0;
			dsi_strbuf q = DSI_STRBUF_INIT;
			dsi_go_quote(&q, s, n);
			rc = dsi_rd_fail(&rd, TEMPLATE_GENERATION_KEY, DS_EVALUE, "strconv.ParseInt: parsing %s: %s",
					 q.data ? q.data : "\"\"", digits ? "value out of range" : "invalid syntax");
			dsi_strbuf_free(&q);
		}
		dsi_rd_pop(&rd, m2);
		dsi_rd_pop(&rd, m);
		if (rc < 0) {
			dsi_vds_release(out);
			return rc;
		}
	}
	json_object_del(json_object_get(json_object_get(out->obj, "metadata"), "annotations"), TEMPLATE_GENERATION_KEY);
	return 0;
}

/* ---- the API server's path (generic registry + DaemonSet strategy) ---------------------------- */

static json_t *meta_obj(json_t *obj)
{
	json_t *m = json_object_get(obj, "metadata");
	if (!json_is_object(m)) {
		m = json_object();
		if (!m || json_object_set_new(obj, "metadata", m) < 0)
			return NULL;
	}
	return m;
}

static int member_empty(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	return !v || json_is_null(v) || (json_is_string(v) && !json_string_length(v));
}

/* BeforeCreate (apiserver pkg/registry/rest/create.go) and PrepareForCreate (daemonset strategy.go) */
static int prepare_create(dsi_vds *d, ds_error *err)
{
	json_t *meta = meta_obj(d->obj);
	if (!meta)
		return dsi_error_nomem(err);
	int rc = 0;
	/* the request's namespace: kubectl's default context sends "default" */
	if (member_empty(meta, "namespace"))
		rc |= json_object_set_new(meta, "namespace", json_string("default"));
	/* names.SimpleNameGenerator: generateName (cut to 58) plus 5 random characters; "xxxxx" stands for them */
	json_t *gen = json_object_get(meta, "generateName");
	if (member_empty(meta, "name") && json_is_string(gen) && json_string_length(gen)) {
		size_t n = json_string_length(gen) > 58 ? 58 : json_string_length(gen);
		char *name = dsi_malloc(n + 6);
		if (!name)
			return dsi_error_nomem(err);
		memcpy(name, json_string_value(gen), n);
		memcpy(name + n, "xxxxx", 6);
		rc |= json_object_set_new(meta, "name", json_stringn(name, n + 5));
		dsi_free(name);
	}
	json_object_del(meta, "deletionTimestamp");
	json_object_del(meta, "deletionGracePeriodSeconds");
	json_object_del(d->obj, "status");
	rc |= json_object_set_new(meta, "generation", json_integer(1));
	if (d->template_generation < 1)
		d->template_generation = 1;
	return rc ? dsi_error_nomem(err) : 0;
}

static int copy_member(json_t *dst, const json_t *src, const char *key)
{
	json_t *v = json_object_get(src, key);
	if (!v) {
		json_object_del(dst, key);
		return 0;
	}
	return json_object_set_new(dst, key, json_deep_copy(v));
}

/* BeforeUpdate (apiserver pkg/registry/rest/update.go) with Store.Update's unconditional update, then
 * the strategy's PrepareForUpdate (daemonset strategy.go; StatusStrategy for the status subresource) */
static int prepare_update(dsi_vds *d, const dsi_vds *old, int status, ds_error *err)
{
	json_t *meta = meta_obj(d->obj), *ometa = json_object_get(old->obj, "metadata");
	if (!meta)
		return dsi_error_nomem(err);
	int rc = 0;
	if (member_empty(meta, "namespace"))
		rc |= copy_member(meta, ometa, "namespace");
	if (member_empty(meta, "resourceVersion")) /* AllowUnconditionalUpdate */
		rc |= copy_member(meta, ometa, "resourceVersion");
	rc |= copy_member(meta, ometa, "generation"); /* requests cannot update generation */
	if (member_empty(meta, "uid"))
		rc |= copy_member(meta, ometa, "uid");
	if (!member_empty(ometa, "creationTimestamp"))
		rc |= copy_member(meta, ometa, "creationTimestamp");
	if (!member_empty(ometa, "deletionGracePeriodSeconds") && member_empty(meta, "deletionGracePeriodSeconds"))
		rc |= copy_member(meta, ometa, "deletionGracePeriodSeconds");
	if (status) {
		rc |= copy_member(d->obj, old->obj, "spec");
		d->template_generation = old->template_generation;
		return rc ? dsi_error_nomem(err) : 0;
	}
	rc |= copy_member(d->obj, old->obj, "status");
	d->template_generation = old->template_generation;
	json_t *spec = json_object_get(d->obj, "spec"), *ospec = json_object_get(old->obj, "spec");
	json_t *ogen = json_object_get(ometa, "generation");
	json_int_t gen = json_is_integer(ogen) ? json_integer_value(ogen) : 0;
	if (!sem_equal(json_object_get(spec, "template"), json_object_get(ospec, "template"), 0)) {
		d->template_generation = old->template_generation + 1;
		rc |= json_object_set_new(meta, "generation", json_integer(gen + 1));
	} else if (!sem_equal(spec, ospec, 0)) {
		rc |= json_object_set_new(meta, "generation", json_integer(gen + 1));
	}
	return rc ? dsi_error_nomem(err) : 0;
}

static const char *object_name(const json_t *obj)
{
	json_t *n = json_object_get(json_object_get(obj, "metadata"), "name");
	return json_is_string(n) ? json_string_value(n) : "";
}

json_t *dsi_validation_result(const dsi_field_errors *errs, const char *name)
{
	json_t *res = json_object(), *list = json_array();
	if (!res || !list) {
		json_decref(res);
		json_decref(list);
		return NULL;
	}
	int bad = json_object_set_new(res, "valid", json_boolean(errs->n == 0)) < 0 ||
		  json_object_set_new(res, "errors", list) < 0;
	/* NewInvalid (apimachinery pkg/api/errors): ToAggregate drops repeated messages */
	dsi_strbuf agg = DSI_STRBUF_INIT;
	size_t distinct = 0;
	char **seen = errs->n ? dsi_calloc(errs->n, sizeof(char *)) : NULL;
	if (errs->n && !seen)
		bad = 1;
	for (size_t i = 0; !bad && i < errs->n; i++) {
		const dsi_field_error *e = &errs->v[i];
		dsi_strbuf msg = DSI_STRBUF_INIT;
		dsi_field_error_string(e, &msg);
		json_t *item = json_pack("{s:s,s:s,s:s,s:O?,s:s,s:s}", "field", e->field, "type", dsi_fe_short(e->type), "reason",
					 dsi_fe_reason(e->type), "value", e->value, "detail", e->detail, "message",
					 msg.data ? msg.data : "");
		if (item && !json_object_get(item, "value"))
			json_object_set_new(item, "value", json_null());
		if (!item || msg.oom || json_array_append_new(list, item) < 0) {
			bad = 1;
			dsi_strbuf_free(&msg);
			break;
		}
		int dup = 0;
		for (size_t j = 0; j < distinct && !dup; j++)
			dup = strcmp(seen[j], msg.data) == 0;
		if (dup) {
			dsi_strbuf_free(&msg);
			continue;
		}
		seen[distinct++] = dsi_strbuf_detach(&msg);
	}
	if (!bad && distinct) {
		dsi_strbuf_puts(&agg, "DaemonSet.apps ");
		dsi_go_quote(&agg, name, strlen(name));
		dsi_strbuf_puts(&agg, " is invalid: ");
		if (distinct > 1)
			dsi_strbuf_putc(&agg, '[');
		for (size_t j = 0; j < distinct; j++) {
			if (j)
				dsi_strbuf_puts(&agg, ", ");
			dsi_strbuf_puts(&agg, seen[j]);
		}
		if (distinct > 1)
			dsi_strbuf_putc(&agg, ']');
	}
	for (size_t j = 0; j < distinct; j++)
		dsi_free(seen[j]);
	dsi_free(seen);
	if (!bad)
		bad = json_object_set_new(res, "message", distinct ? json_string(agg.data) : json_null()) < 0 || agg.oom;
	dsi_strbuf_free(&agg);
	if (bad || errs->oom) {
		json_decref(res);
		return NULL;
	}
	return res;
}

int dsi_daemonset_validate_json(const json_t *obj, const json_t *old, int op, int as_is, const dsi_options *o,
				json_t **result, ds_error *err)
{
	*result = NULL;
	dsi_vds ds, ods;
	memset(&ods, 0, sizeof(ods));
	int rc = dsi_vds_decode(obj, &ds, err);
	if (rc < 0)
		return rc;
	if (op != DSI_VALIDATE_CREATE && (rc = dsi_vds_decode(old, &ods, err)) < 0) {
		dsi_error_prefix_path(err, "(old)");
		dsi_vds_release(&ds);
		return rc;
	}
	int old_invalid_values = 0;
	if (!as_is) {
		if ((rc = dsi_daemonset_set_defaults(ds.obj, err)) < 0)
			goto out;
		if (op != DSI_VALIDATE_CREATE && (rc = dsi_daemonset_set_defaults(ods.obj, err)) < 0) {
			dsi_error_prefix_path(err, "(old)");
			goto out;
		}
		old_invalid_values = op == DSI_VALIDATE_UPDATE &&
				     selector_has_invalid_value(json_object_get(json_object_get(ods.obj, "spec"), "selector"));
		rc = op == DSI_VALIDATE_CREATE ? prepare_create(&ds, err) : prepare_update(&ds, &ods, op == DSI_VALIDATE_STATUS, err);
		if (rc < 0)
			goto out;
	}
	dsi_field_errors errs;
	memset(&errs, 0, sizeof(errs));
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_vctx c;
	dsi_vctx_init(&c, &errs, &atoms, o->gates, err);
	c.allow_invalid_selector_values = (uint8_t)old_invalid_values;
	if (op == DSI_VALIDATE_CREATE) {
		rc = dsi_validate_daemonset(&c, &ds);
	} else if (op == DSI_VALIDATE_UPDATE) {
		rc = dsi_validate_daemonset_update(&c, &ds, &ods);
		json_t *sel = json_object_get(json_object_get(ds.obj, "spec"), "selector");
		json_t *osel = json_object_get(json_object_get(ods.obj, "spec"), "selector");
		int nil = !sel || json_is_null(sel), onil = !osel || json_is_null(osel);
		/* apps/v1: the selector is immutable (ValidateImmutableField in the strategy's ValidateUpdate) */
		if (rc == 0 && !as_is && (nil != onil || !sem_equal(sel, osel, 0))) {
			dsi_strbuf b = DSI_STRBUF_INIT;
			marshal_selector(&b, sel);
			dsi_v_add(&c, "spec.selector", DSI_FE_INVALID, nil ? json_null() : json_deep_copy(sel), b.data, IMMUTABLE_MSG);
			dsi_strbuf_free(&b);
		}
	} else {
		rc = dsi_validate_daemonset_status_update(&c, &ds, &ods);
	}
	if (rc == 0 && (c.fp.oom || errs.oom))
		rc = dsi_error_nomem(err);
	if (rc == 0 && !(*result = dsi_validation_result(&errs, object_name(ds.obj))))
		rc = dsi_error_nomem(err);
	dsi_vctx_release(&c);
	dsi_atoms_free(&atoms);
	dsi_field_errors_free(&errs);
out:
	dsi_vds_release(&ds);
	dsi_vds_release(&ods);
	return rc;
}
