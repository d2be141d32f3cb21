#include "core/reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/numfmt.h"

void dsi_rd_init(dsi_rd *rd, ds_error *err)
{
	rd->err = err;
	rd->lenient = 0;
	rd->whole_message = NULL;
	rd->len = 0;
	rd->path[0] = '\0';
}

/* Whether key can be written plainly (a.b), else it is written ["a.b"]; *len gets its length. */
static int plain_key(const char *key, size_t *len)
{
	int plain = *key != '\0';
	const char *p = key;
	for (; *p; p++)
		if (*p == '.' || *p == '[' || *p == ']' || *p == '"' || *p == ' ' || *p == '/')
			plain = 0;
	*len = (size_t)(p - key);
	return plain;
}

/* Append n bytes of s to buf at *len, as far as they fit before its last byte (the paths are
 * written at every step of every read, so with memcpy rather than snprintf; a path too long for
 * its buffer is cut as snprintf would cut it). */
static void put(char *buf, size_t size, size_t *len, const char *s, size_t n)
{
	size_t room = size - 1 - *len;
	if (n > room)
		n = room;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
}

/* Append the path text for key to buf at *len (truncating safely). */
static void append_key(char *buf, size_t size, size_t *len, const char *key)
{
	size_t n;
	if (plain_key(key, &n)) {
		if (*len)
			put(buf, size, len, ".", 1);
		put(buf, size, len, key, n);
	} else {
		put(buf, size, len, "[\"", 2);
		put(buf, size, len, key, n);
		put(buf, size, len, "\"]", 2);
	}
}

size_t dsi_rd_push(dsi_rd *rd, const char *key)
{
	size_t mark = rd->len;
	append_key(rd->path, sizeof(rd->path), &rd->len, key);
	return mark;
}

size_t dsi_rd_push_index(dsi_rd *rd, size_t i)
{
	size_t mark = rd->len;
	char d[DSI_DECIMAL_MAX + 2], *e = d + sizeof(d);
	e[-1] = ']';
	char *b = dsi_format_decimal(e - 1, i, 0);
	*--b = '[';
	put(rd->path, sizeof(rd->path), &rd->len, b, (size_t)(e - b));
	return mark;
}

int dsi_rd_fail(dsi_rd *rd, const char *key, int code, const char *fmt, ...)
{
	if (!rd->err)
		return code;
	char path[DS_ERROR_PATH_MAX];
	size_t len = rd->len;
	memcpy(path, rd->path, len + 1);
	if (key)
		append_key(path, sizeof(path), &len, key);
	char msg[DS_ERROR_MESSAGE_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dsi_error_set(rd->err, code, path, "%s", msg);
}

const char *dsi_json_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "object";
	case JSON_ARRAY: return "array";
	case JSON_STRING: return "string";
	case JSON_INTEGER:
	case JSON_REAL: return "number";
	case JSON_TRUE:
	case JSON_FALSE: return "boolean";
	default: return "null";
	}
}

static json_t *member(const json_t *obj, const char *key)
{
	json_t *v = obj ? json_object_get(obj, key) : NULL;
	return (v && !json_is_null(v)) ? v : NULL;
}

static int wrong(dsi_rd *rd, const char *key, const char *want, const json_t *v)
{
	return dsi_rd_fail(rd, key, DS_ETYPE, "expected %s, got %s", want, dsi_json_type_name(v));
}

int dsi_rd_object(dsi_rd *rd, const json_t *obj, const char *key, json_t **out)
{
	json_t *v = member(obj, key);
	*out = NULL;
	if (!v)
		return 0;
	if (!json_is_object(v))
		return wrong(rd, key, "object", v);
	*out = v;
	return 0;
}

int dsi_rd_array(dsi_rd *rd, const json_t *obj, const char *key, json_t **out)
{
	json_t *v = member(obj, key);
	*out = NULL;
	if (!v)
		return 0;
	if (!json_is_array(v))
		return wrong(rd, key, "array", v);
	*out = v;
	return 0;
}

int dsi_rd_string(dsi_rd *rd, const json_t *obj, const char *key, const char **out)
{
	json_t *v = member(obj, key);
	*out = NULL;
	if (!v)
		return 0;
	if (!json_is_string(v))
		return wrong(rd, key, "string", v);
	*out = json_string_value(v);
	return 0;
}

int dsi_rd_bool(dsi_rd *rd, const json_t *obj, const char *key, int *out, int *present)
{
	json_t *v = member(obj, key);
	*out = 0;
	if (present)
		*present = v != NULL;
	if (!v)
		return 0;
	if (!json_is_boolean(v))
		return wrong(rd, key, "boolean", v);
	*out = json_is_true(v);
	return 0;
}

const char *dsi_go_int_refusal(const json_t *v, int bits, char *buf, size_t size)
{
	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);
		if (bits == 64 || (i >= INT32_MIN && i <= INT32_MAX))
			return NULL;
		snprintf(buf, size, "expected a 32-bit integer, got %lld", (long long)i);
		return buf;
	}
	if (!json_is_real(v))
		return NULL;
	/* a real: written with a fraction or an exponent, or too large for an int64 (a YAML uint64) */
	double d = json_real_value(v);
	char num[40];
	dsi_format_go_json_float(d, num, sizeof(num));
	if (d >= 9223372036854775808.0 || d <= -9223372036854775808.0) {
		/* whole numbers at that size, in full: what the text said, as far as a float64 holds it */
		snprintf(buf, size, "expected a %d-bit integer, got %.0f", bits, d);
		return buf;
	}
	/* "2.0" for a float without a fraction (the JSON had one) */
	snprintf(buf, size, "expected an integer, got %s%s", num, strpbrk(num, ".eEnN") ? "" : ".0");
	return buf;
}

/* An integer member that Go decodes into an int of bits bits. */
static int read_int(dsi_rd *rd, const json_t *obj, const char *key, int bits, int64_t *out, int *present)
{
	json_t *v = member(obj, key);
	*out = 0;
	if (present)
		*present = v != NULL;
	if (!v)
		return 0;
	char msg[96];
	if (!json_is_number(v))
		return wrong(rd, key, "integer", v);
	if (dsi_go_int_refusal(v, bits, msg, sizeof(msg)))
		return dsi_rd_fail(rd, key, DS_ETYPE, "%s", msg);
	*out = (int64_t)json_integer_value(v);
	return 0;
}

int dsi_rd_int64(dsi_rd *rd, const json_t *obj, const char *key, int64_t *out, int *present)
{
	return read_int(rd, obj, key, 64, out, present);
}

int dsi_rd_int32(dsi_rd *rd, const json_t *obj, const char *key, int32_t *out, int *present)
{
	int64_t v;
	int rc = read_int(rd, obj, key, 32, &v, present);
	*out = (int32_t)v; /* in range: read_int refused any other */
	return rc;
}

int dsi_rd_expect_object(dsi_rd *rd, const json_t *v)
{
	if (!json_is_object(v))
		return wrong(rd, NULL, "object", v);
	return 0;
}

int dsi_rd_expect_string(dsi_rd *rd, const json_t *v, const char **out)
{
	if (!json_is_string(v))
		return wrong(rd, NULL, "string", v);
	*out = json_string_value(v);
	return 0;
}

int dsi_rd_string_map(dsi_rd *rd, const json_t *obj, const char *key, dsi_rd_kv_fn fn, void *ctx)
{
	json_t *m;
	int rc = dsi_rd_object(rd, obj, key, &m);
	if (rc < 0 || !m)
		return rc;
	size_t mark = dsi_rd_push(rd, key);
	const char *k;
	size_t klen;
	json_t *v;
	json_object_keylen_foreach(m, k, klen, v)
	{
		if (!json_is_string(v)) {
			rc = json_is_null(v) ? 0 : wrong(rd, k, "string", v);
			if (rc < 0)
				break;
			/* Go decodes null in a map[string]string as "" */
			rc = fn(ctx, k, klen, "", 0);
		} else {
			rc = fn(ctx, k, klen, json_string_value(v), json_string_length(v));
		}
		if (rc < 0)
			break;
	}
	dsi_rd_pop(rd, mark);
	return rc;
}
