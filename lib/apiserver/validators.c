/* apimachinery validators: labels, annotations, label names and values, DNS names, label selectors. */
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

/* ---- apimachinery validators ----------------------------------------------------------------- */

/* One field error per message of a labelvalid check ("; "-joined there). */
void dsi_v_each_message(dsi_vctx *c, const char *child, int named, const char *s, size_t n, const char *msgs)
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
		dsi_v_each_message(c, child, 0, s, n, m.data);
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
	*out = dsi_json_sorted_members(m, n);
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
			dsi_v_each_message(c, child, 0, v[i].k, v[i].n, msgs.data);
		dsi_strbuf_free(&msgs);
		dsi_free(low);
		total += (int64_t)v[i].n + (json_is_string(v[i].v) ? (int64_t)json_string_length(v[i].v) : 0);
	}
	dsi_free(v);
	if (total > 256 * 1024) /* TotalAnnotationSizeLimitB */
		dsi_v_add(c, child, DSI_FE_TOO_LONG, NULL, NULL, "may not be more than 262144 bytes");
	return 0;
}

int dsi_streq_lit(const char *a, size_t n, const char *lit) { return strlen(lit) == n && memcmp(a, lit, n) == 0; }

/* ValidateLabelSelectorRequirement */
static int selector_requirement(dsi_vctx *c, const json_t *req)
{
	const char *op, *key;
	size_t oplen, keylen;
	json_t *values;
	int rc;
	if ((rc = dsi_v_string(c, req, "operator", &op, &oplen)) < 0 ||
	    (rc = dsi_v_string(c, req, "key", &key, &keylen)) < 0 || (rc = dsi_v_array(c, req, "values", &values)) < 0)
		return rc;
	size_t nvalues = json_array_size(values);
	if (dsi_streq_lit(op, oplen, "In") || dsi_streq_lit(op, oplen, "NotIn")) {
		if (!nvalues)
			dsi_v_required(c, "values", "must be specified when `operator` is 'In' or 'NotIn'");
	} else if (dsi_streq_lit(op, oplen, "Exists") || dsi_streq_lit(op, oplen, "DoesNotExist")) {
		if (nvalues)
			dsi_v_forbidden(c, "values",
					"may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
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
int dsi_selector_has_invalid_value(const json_t *sel)
{
	json_t *exprs = json_object_get(sel, "matchExpressions");
	for (size_t i = 0; i < json_array_size(exprs); i++) {
		json_t *vals = json_object_get(json_array_get(exprs, i), "values");
		for (size_t j = 0; j < json_array_size(vals); j++) {
			json_t *v = json_array_get(vals, j);
			if (json_is_string(v) &&
			    dsi_validate_label_value(json_string_value(v), json_string_length(v), NULL))
				return 1;
		}
	}
	return 0;
}

/* A metav1.LabelSelector as json.Marshal writes it (struct order, omitempty). */
void dsi_marshal_selector(dsi_strbuf *b, const json_t *sel)
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
			json_t *r = json_array_get(me, i), *k = json_object_get(r, "key"),
			       *o = json_object_get(r, "operator"), *v = json_object_get(r, "values");
			dsi_strbuf_puts(b, i ? ",{\"key\":" : "{\"key\":");
			dsi_go_json_string(b, json_is_string(k) ? json_string_value(k) : "",
					   json_is_string(k) ? json_string_length(k) : 0);
			dsi_strbuf_puts(b, ",\"operator\":");
			dsi_go_json_string(b, json_is_string(o) ? json_string_value(o) : "",
					   json_is_string(o) ? json_string_length(o) : 0);
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
