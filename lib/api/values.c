/* The public ABI for value types: quantities, IntOrString, validation, label selectors. */
#include <string.h>

#include "core/sized.h"
#include "core/alloc.h"
#include "core/atoms.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/load.h"
#include "core/reader.h"
#include "core/strbuf.h"
#include "daemonset.h"
#include "model/intstr.h"
#include "model/labels.h"
#include "model/labelvalid.h"
#include "model/quantity.h"
#include "model/selector.h"

/* ---- quantities ---------------------------------------------------------------- */

static int quantity_arg(const char *text, const char *source, dsi_quantity *q, ds_error *err)
{
	if (!text) {
		dsi_error_set(err, DS_EARG, NULL, "%s is NULL", source);
		dsi_error_set_source(err, source);
		return DS_EARG;
	}
	int rc = dsi_quantity_parse(text, strlen(text), q, err);
	if (rc < 0)
		dsi_error_set_source(err, source);
	return rc;
}

static int quantity_string(const dsi_quantity *q, char **out, ds_error *err)
{
	char buf[DSI_QUANTITY_STRING_MAX];
	dsi_quantity_format(q, buf, sizeof(buf));
	if (!(*out = dsi_strdup(buf)))
		return dsi_error_nomem(err);
	return 0;
}

int ds_quantity_parse(const char *text, char **canonical, ds_quantity_info *info, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (canonical)
		*canonical = NULL;
	if (!text)
		return dsi_error_set(err, DS_EARG, NULL, "text is NULL");
	if (info && !DSI_SIZE_COVERS(info, ds_quantity_info, size))
		return dsi_error_set(err, DS_EARG, NULL, "info->size must be set to sizeof(ds_quantity_info)");
	dsi_quantity q;
	int rc = dsi_quantity_parse(text, strlen(text), &q, err);
	if (rc < 0)
		return rc;
	if (info) {
		ds_quantity_info full;
		memset(&full, 0, sizeof(full));
		full.size = info->size;
		full.sign = q.sign;
		full.format = q.format;
		full.verbatim = q.verbatim;
		full.value = dsi_quantity_value(&q, &full.value_overflow);
		full.milli_value = dsi_quantity_milli(&q, &full.milli_overflow);
		memcpy(info, &full, info->size < sizeof(full) ? info->size : sizeof(full));
	}
	if (canonical)
		return quantity_string(&q, canonical, err);
	return 0;
}

int ds_quantity_compare(const char *a, const char *b, int *result, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!result)
		return dsi_error_set(err, DS_EARG, NULL, "result is NULL");
	*result = 0;
	dsi_quantity x, y;
	int rc;
	if ((rc = quantity_arg(a, "a", &x, err)) < 0 || (rc = quantity_arg(b, "b", &y, err)) < 0)
		return rc;
	*result = dsi_quantity_cmp(&x, &y);
	return 0;
}

int ds_quantity_add(const char *a, const char *b, char **sum, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!sum)
		return dsi_error_set(err, DS_EARG, NULL, "sum is NULL");
	*sum = NULL;
	dsi_quantity x, y;
	int rc;
	if ((rc = quantity_arg(a, "a", &x, err)) < 0 || (rc = quantity_arg(b, "b", &y, err)) < 0)
		return rc;
	if (dsi_quantity_add(&x, &y) < 0)
		return dsi_error_set(err, DS_ELIMIT, NULL, "the sum needs more than %d significant digits",
				     DSI_QUANTITY_MAX_DIGITS);
	return quantity_string(&x, sum, err);
}

/* ---- IntOrString ------------------------------------------------------------------ */

int ds_intstr_scale(const char *text, size_t size, int total, int round_up, int *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!out)
		return dsi_error_set(err, DS_EARG, NULL, "out is NULL");
	*out = 0;
	if (!text && size)
		return dsi_error_set(err, DS_EARG, NULL, "text is NULL");
	dsi_limits lim;
	dsi_limits_default(&lim);
	json_t *v = NULL;
	int rc = dsi_parse_one(text ? text : "", size, &lim, &v, err);
	if (rc == DS_EMISSING) { /* "null" or nothing: a nil *IntOrString */
		ds_error_clear(err);
		rc = 0;
	}
	if (rc < 0)
		return rc;
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	dsi_intstr is;
	int present;
	rc = dsi_intstr_from_json(&rd, v, &is, &present);
	json_decref(v);
	if (rc < 0)
		return rc;
	return dsi_intstr_scaled(present ? &is : NULL, total, round_up, out, err);
}

/* ---- validation ------------------------------------------------------------------- */

typedef int (*validator)(const char *s, size_t n, dsi_strbuf *msgs);

static int validate(validator fn, const char *what, const char *s, ds_error *err)
{
	if (!s)
		return dsi_error_set(err, DS_EARG, NULL, "%s is NULL", what);
	dsi_strbuf msgs = DSI_STRBUF_INIT;
	int rc = 0;
	if (fn(s, strlen(s), &msgs))
		rc = msgs.oom ? dsi_error_nomem(err) : dsi_error_set(err, DS_EVALUE, NULL, "%s", msgs.data);
	dsi_strbuf_free(&msgs);
	return rc;
}

int ds_label_key_validate(const char *key, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	return validate(dsi_validate_label_key, "key", key, err);
}

int ds_label_value_validate(const char *value, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	return validate(dsi_validate_label_value, "value", value, err);
}

int ds_dns1123_subdomain_validate(const char *name, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	return validate(dsi_validate_dns1123_subdomain, "name", name, err);
}

int ds_dns1123_label_validate(const char *name, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	return validate(dsi_validate_dns1123_label, "name", name, err);
}

/* ---- selectors -------------------------------------------------------------------- */

/* JSON LabelSelector when the text starts with '{', else the string syntax; NULL: Nothing. */
static int load_selector(const char *text, size_t size, dsi_atoms *atoms, dsi_selector *out, ds_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!text)
		return 0;
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	size_t i = 0;
	while (i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	int rc;
	if (i < size && text[i] == '{') {
		dsi_limits lim;
		dsi_limits_default(&lim);
		json_t *v;
		rc = dsi_parse_one(text, size, &lim, &v, err);
		if (rc == 0) {
			rc = dsi_selector_from_json(&rd, atoms, v, out);
			json_decref(v);
		}
	} else if (memchr(text, '\0', size)) {
		rc = dsi_error_set(err, DS_EVALUE, NULL, "a selector must not contain a NUL character");
	} else { /* labels.Parse wants a C string */
		char *s = dsi_malloc(size + 1);
		if (!s)
			return dsi_error_nomem(err);
		memcpy(s, text, size);
		s[size] = '\0';
		rc = dsi_selector_parse(&rd, atoms, s, out);
		dsi_free(s);
	}
	if (rc < 0)
		dsi_error_set_source(err, "selector");
	return rc;
}

int ds_selector_match(const char *selector, size_t selector_size, const char *labels, size_t labels_size, int *out,
		      ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!out)
		return dsi_error_set(err, DS_EARG, NULL, "out is NULL");
	*out = 0;
	if (!labels && labels_size)
		return dsi_error_set(err, DS_EARG, NULL, "labels is NULL");
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_selector sel;
	dsi_labels set = {NULL, 0};
	int rc = load_selector(selector, selector_size, &atoms, &sel, err);
	if (rc == 0) {
		dsi_limits lim;
		dsi_limits_default(&lim);
		json_t *v = NULL;
		rc = dsi_parse_one(labels ? labels : "", labels_size, &lim, &v, err);
		if (rc == DS_EMISSING) { /* null: no labels */
			ds_error_clear(err);
			rc = 0;
		}
		if (rc == 0) {
			dsi_rd rd;
			dsi_rd_init(&rd, err);
			rc = dsi_labels_from_object(&rd, &atoms, v, &set);
			json_decref(v);
		}
		if (rc < 0)
			dsi_error_set_source(err, "labels");
		else
			*out = dsi_selector_matches(&atoms, &sel, &set);
	}
	dsi_labels_release(&atoms, &set);
	dsi_selector_release(&atoms, &sel);
	dsi_atoms_free(&atoms);
	return rc;
}

int ds_selector_format(const char *selector, size_t size, char **out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!out)
		return dsi_error_set(err, DS_EARG, NULL, "out is NULL");
	*out = NULL;
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_selector sel;
	int rc = load_selector(selector, size, &atoms, &sel, err);
	if (rc == 0) {
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_selector_string(&atoms, &sel, &b);
		if (!(*out = dsi_strbuf_detach(&b)))
			rc = dsi_error_nomem(err);
	}
	dsi_selector_release(&atoms, &sel);
	dsi_atoms_free(&atoms);
	return rc;
}
