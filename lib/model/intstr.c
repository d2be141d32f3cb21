#include "model/intstr.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "core/atoms.h"
#include "core/strbuf.h"
#include "model/labelvalid.h"

static void set_string(dsi_intstr *o, const char *s, size_t n)
{
	memset(o, 0, sizeof(*o));
	o->is_string = 1;
	size_t keep = n < DSI_INTSTR_TEXT_MAX ? n : DSI_INTSTR_TEXT_MAX - 1;
	memcpy(o->text, s, keep);
	o->text[keep] = '\0';
	o->truncated = keep < n;
	if (n && s[n - 1] == '%') {
		o->percent = 1;
		o->atoi = (uint8_t)dsi_go_parse_int64(s, n - 1, &o->pval); /* strings.TrimSuffix(s, "%") */
	}
}

/* IntOrString.UnmarshalJSON (apimachinery pkg/util/intstr/intstr.go) */
int dsi_intstr_from_json(dsi_rd *rd, const json_t *v, dsi_intstr *out, int *present)
{
	memset(out, 0, sizeof(*out));
	if (present)
		*present = 0;
	if (!v || json_is_null(v))
		return 0;
	if (json_is_string(v)) {
		set_string(out, json_string_value(v), json_string_length(v));
	} else if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);
		if (i < INT32_MIN || i > INT32_MAX)
			return dsi_rd_fail(rd, NULL, DS_EVALUE,
					   "expected a 32-bit integer or a percent string, got %lld", (long long)i);
		out->ival = (int32_t)i;
	} else if (json_is_real(v)) {
		return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected an integer or a percent string, got %g",
				   json_real_value(v));
	} else {
		return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected an integer or a percent string, got %s",
				   dsi_json_type_name(v));
	}
	if (present)
		*present = 1;
	return 0;
}

int dsi_intstr_read(dsi_rd *rd, const json_t *obj, const char *key, dsi_intstr *out, int *present)
{
	json_t *v = obj ? json_object_get(obj, key) : NULL;
	size_t mark = dsi_rd_push(rd, key);
	int rc = dsi_intstr_from_json(rd, v, out, present);
	dsi_rd_pop(rd, mark);
	return rc;
}

/* intstr.Parse (apimachinery pkg/util/intstr/intstr.go) */
int dsi_intstr_parse_text(const char *text, dsi_intstr *out, ds_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!text)
		return dsi_error_set(err, DS_EARG, NULL, "text is NULL");
	size_t n = strlen(text);
	int64_t v;
	if (dsi_parse_go_int64(text, n, &v) && v >= INT32_MIN && v <= INT32_MAX) { /* ParseInt(val, 10, 32) */
		out->ival = (int32_t)v;
		return 0;
	}
	set_string(out, text, n);
	return 0;
}

static void quote_text(dsi_strbuf *b, const dsi_intstr *v, size_t n)
{
	dsi_go_quote(b, v->text, n);
	if (v->truncated) {
		dsi_strbuf_truncate(b, b->len - 1);
		dsi_strbuf_puts(b, "...\"");
	}
}

/* GetScaledValueFromIntOrPercent (apimachinery pkg/util/intstr/intstr.go) */
int dsi_intstr_scaled(const dsi_intstr *v, int total, int round_up, int *out, ds_error *err)
{
	*out = 0;
	if (!v)
		return dsi_error_set(err, DS_EMISSING, NULL, "nil value for IntOrString");
	if (!v->is_string) {
		*out = v->ival;
		return 0;
	}
	if (!v->percent)
		return dsi_error_set(err, DS_EVALUE, NULL,
				     "invalid value for IntOrString: invalid type: string is not a percentage");
	if (v->atoi) {
		/* invalid value %q: strconv.Atoi: parsing %q: <reason> */
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_strbuf_puts(&b, "invalid value for IntOrString: invalid value ");
		size_t len = strlen(v->text);
		quote_text(&b, v, len);
		dsi_strbuf_puts(&b, ": strconv.Atoi: parsing ");
		quote_text(&b, v, v->truncated ? len : len - 1);
		dsi_strbuf_puts(&b, v->atoi == 2 ? ": value out of range" : ": invalid syntax");
		int rc = b.oom ? dsi_error_nomem(err) : dsi_error_set(err, DS_EVALUE, NULL, "%s", b.data);
		dsi_strbuf_free(&b);
		return rc;
	}
	/* float64(value) * float64(total) / 100, then math.Ceil / math.Floor */
	volatile double prod = (double)v->pval * (double)total;
	volatile double q = prod / 100;
	double r = round_up ? ceil(q) : floor(q);
	if (!(r >= (double)INT_MIN && r <= (double)INT_MAX))
		return dsi_error_set(err, DS_ELIMIT, NULL, "%lld%% of %d does not fit in an integer",
				     (long long)v->pval, total);
	*out = (int)r;
	return 0;
}

json_t *dsi_intstr_to_json(const dsi_intstr *v) { return v->is_string ? json_string(v->text) : json_integer(v->ival); }
