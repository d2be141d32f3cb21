/* What Go's JSON decoder refuses (decodecheck.h), by the schema's types. */
#include "apiserver/decodecheck.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "apiserver/goencode.h"
#include "apiserver/schema.h"
#include "core/numfmt.h"
#include "core/reader.h"
#include "core/time.h"
#include "model/quantity.h"

/* encoding/json's maxNestingDepth: deeper documents fail ("exceeded max depth"). */
#define MAX_DEPTH 10000

typedef struct checker {
	dsi_rd rd;      /* the path; its err is scratch */
	ds_error *err;  /* the answer */
	ds_error first; /* the first type error: decodeState.saveError keeps it and decoding goes on */
	int saved;
	ds_error scratch;
	int depth;
	int elem_nulls; /* null elements of arrays and maps seen (what dsi_decode_zero_nulls replaces) */
	int fast;       /* a first pass that keeps no path and gives up at the first error (decode_check) */
} checker;

static size_t push(checker *c, const char *key) { return c->fast ? 0 : dsi_rd_push(&c->rd, key); }
static size_t push_index(checker *c, size_t i) { return c->fast ? 0 : dsi_rd_push_index(&c->rd, i); }
static void pop(checker *c, size_t mark)
{
	if (!c->fast)
		dsi_rd_pop(&c->rd, mark);
}

/* A type error Go saves (UnmarshalTypeError, base64's CorruptInputError): the first one is reported
 * when the document is done, unless an error that stops the decoder comes first. */
static int save(checker *c)
{
	if (c->fast)
		return DS_ETYPE; /* the full pass finds which error it is */
	if (!c->saved) {
		c->first = c->scratch;
		c->saved = 1;
	}
	return 0;
}

/* An error of an UnmarshalJSON method: the decoder stops there. */
static int stop(checker *c)
{
	if (!c->fast)
		*c->err = c->scratch;
	return c->scratch.code;
}

/* A number as text for messages, "2.0" for a float without a fraction (JSON had one). */
static void number_text(const json_t *v, char *buf, size_t size)
{
	if (json_is_integer(v)) {
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
		return;
	}
	dsi_format_go_json_float(json_real_value(v), buf, size);
	if (!strpbrk(buf, ".eEnN"))
		snprintf(buf + strlen(buf), size - strlen(buf), ".0");
}

static int wrong_type(checker *c, const char *want, const json_t *v)
{
	dsi_rd_fail(&c->rd, NULL, DS_ETYPE, "expected %s, got %s", want, dsi_json_type_name(v));
	return save(c);
}

/* An int32 or int64 field (literalStore: strconv.ParseInt of the literal, then OverflowInt). */
static int check_integer(checker *c, const json_t *v, const char *format)
{
	char msg[96];
	if (!json_is_number(v))
		return wrong_type(c, "integer", v);
	if (!dsi_go_int_refusal(v, strcmp(format, "int32") == 0 ? 32 : 64, msg, sizeof(msg)))
		return 0;
	dsi_rd_fail(&c->rd, NULL, DS_ETYPE, "%s", msg);
	return save(c);
}

/* IntOrString.UnmarshalJSON (apimachinery util/intstr): a string, or json.Unmarshal into its int32. */
static int check_int_or_string(checker *c, const json_t *v)
{
	char num[40];
	if (json_is_string(v))
		return 0;
	if (json_is_integer(v) && json_integer_value(v) >= INT32_MIN && json_integer_value(v) <= INT32_MAX)
		return 0;
	if (json_is_number(v)) {
		number_text(v, num, sizeof(num));
		dsi_rd_fail(&c->rd, NULL, DS_ETYPE, "expected a 32-bit integer or a string, got %s", num);
	} else {
		dsi_rd_fail(&c->rd, NULL, DS_ETYPE, "expected an integer or a string, got %s", dsi_json_type_name(v));
	}
	return stop(c);
}

/* Quantity.UnmarshalJSON: ParseQuantity of the string, or of a number's text. */
static int check_quantity(checker *c, const json_t *v)
{
	if (json_is_string(v) && dsi_quantity_plain(json_string_value(v), json_string_length(v)))
		return 0; /* what nodes and containers mostly say, accepted without computing its value */
	dsi_quantity q;
	return dsi_quantity_from_json(&c->rd, v, &q) < 0 ? stop(c) : 0;
}

/* metav1.Time.UnmarshalJSON: json.Unmarshal into a string, then time.Parse(time.RFC3339, ...). */
static int check_time(checker *c, const json_t *v)
{
	if (!json_is_string(v)) {
		dsi_rd_fail(&c->rd, NULL, DS_ETYPE, "expected string, got %s", dsi_json_type_name(v));
		return stop(c);
	}
	ds_time t;
	ds_error e;
	dsi_error_reset(&e); /* the strings' first bytes, not the whole 720-byte report: every time goes here */
	if (dsi_time_parse(json_string_value(v), json_string_length(v), &t, &e) < 0) {
		dsi_rd_fail(&c->rd, NULL, e.code, "%s", e.message);
		return stop(c);
	}
	return 0;
}

static int b64_value(unsigned char ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + 52;
	return ch == '+' ? 62 : ch == '/' ? 63 : -1;
}

/* base64.StdEncoding.Decode, which encoding/json uses for []byte: padded, '\r' and '\n' skipped.
 * Returns -1, or the offset of its CorruptInputError. */
static long b64_error(const char *s, size_t n)
{
	size_t i = 0;
	for (;;) {
		size_t j = 0;
		while (j < 4) {
			while (i < n && (s[i] == '\r' || s[i] == '\n'))
				i++;
			if (i == n)
				return j == 0 ? -1 : (long)(i - j);
			unsigned char ch = (unsigned char)s[i++];
			if (ch == '=') {
				/* padding: "xx==" or "xxx=", then nothing but newlines */
				if (j < 2)
					return (long)(i - 1);
				if (j == 2) {
					while (i < n && (s[i] == '\r' || s[i] == '\n'))
						i++;
					if (i == n)
						return (long)n;
					if (s[i] != '=')
						return (long)(i - 1);
					i++;
				}
				while (i < n && (s[i] == '\r' || s[i] == '\n'))
					i++;
				return i < n ? (long)i : -1;
			}
			if (b64_value(ch) < 0)
				return (long)(i - 1);
			j++;
		}
	}
}

static int check(checker *c, const json_t *v, int type);

static int check_object(checker *c, const json_t *v, int type)
{
	if (!json_is_object(v))
		return wrong_type(c, "object", v);
	const char *key;
	size_t len;
	json_t *m;
	json_object_keylen_foreach((json_t *)v, key, len, m)
	{
		/* case-sensitive, as sigs.k8s.io/json matches; an unknown field is skipped */
		int ft = dsi_schema_field_type(type, key, len);
		if (ft < 0)
			continue;
		size_t mark = push(c, key);
		int rc = check(c, m, ft);
		pop(c, mark);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int check(checker *c, const json_t *v, int type)
{
	if (json_is_null(v) || type < 0)
		return 0; /* null: the zero value, or nil */
	if (c->depth >= MAX_DEPTH) {
		dsi_rd_fail(&c->rd, NULL, DS_ELIMIT, "exceeded max depth");
		return stop(c);
	}
	const char *format = dsi_schema_type_name(type);
	int rc = 0;
	c->depth++;
	switch (dsi_schema_kind_of(type)) {
	case DSI_SK_ANY: break;
	case DSI_SK_STRING:
		/* the first letter first: most strings have no format, and this is every string's path */
		if (format[0] == 'd' && strcmp(format, "date-time") == 0) {
			rc = check_time(c, v);
		} else if (!json_is_string(v)) {
			rc = wrong_type(c, "string", v);
		} else if (format[0] == 'b' && strcmp(format, "byte") == 0) {
			long at = b64_error(json_string_value(v), json_string_length(v));
			if (at >= 0) {
				dsi_rd_fail(&c->rd, NULL, DS_EVALUE, "illegal base64 data at input byte %ld", at);
				rc = save(c);
			}
		}
		break;
	case DSI_SK_INTEGER: rc = check_integer(c, v, format); break;
	case DSI_SK_NUMBER: rc = json_is_number(v) ? 0 : wrong_type(c, "number", v); break;
	case DSI_SK_BOOLEAN: rc = json_is_boolean(v) ? 0 : wrong_type(c, "boolean", v); break;
	case DSI_SK_INT_OR_STRING: rc = check_int_or_string(c, v); break;
	case DSI_SK_QUANTITY: rc = check_quantity(c, v); break;
	case DSI_SK_OBJECT: rc = check_object(c, v, type); break;
	case DSI_SK_ARRAY:
		if (!json_is_array(v)) {
			rc = wrong_type(c, "array", v);
			break;
		}
		for (size_t i = 0; rc == 0 && i < json_array_size(v); i++) {
			size_t mark = push_index(c, i);
			c->elem_nulls += json_is_null(json_array_get(v, i));
			rc = check(c, json_array_get(v, i), dsi_schema_elem(type));
			pop(c, mark);
		}
		break;
	case DSI_SK_MAP: {
		if (!json_is_object(v)) {
			rc = wrong_type(c, "object", v);
			break;
		}
		const char *key;
		json_t *m;
		json_object_foreach((json_t *)v, key, m)
		{
			size_t mark = push(c, key);
			c->elem_nulls += json_is_null(m);
			rc = check(c, m, dsi_schema_elem(type));
			pop(c, mark);
			if (rc < 0)
				break;
		}
		break;
	}
	}
	c->depth--;
	return rc;
}

/* The check, and how many null elements it saw. */
static int decode_check(const json_t *v, int type, int *elem_nulls, ds_error *err)
{
	checker c; /* 2 KB: its reports are written only on an error (c.first, once saved) */
	c.err = err;
	int rc = 0;
	/* most documents decode: a first pass that keeps no path says so; only a document that fails is
	 * walked again with the path, as Go's decoder goes, to say where and which error */
	for (int fast = 1; fast >= 0; fast--) {
		c.saved = 0;
		c.depth = 0;
		c.elem_nulls = 0;
		c.fast = fast;
		dsi_error_reset(&c.scratch);
		dsi_rd_init(&c.rd, &c.scratch);
		rc = check(&c, v, type);
		*elem_nulls = c.elem_nulls;
		if (fast && rc == 0)
			return 0;
	}
	if (rc < 0)
		return rc;
	if (c.saved) {
		*err = c.first;
		return c.first.code;
	}
	return 0;
}

int dsi_decode_check(const json_t *v, int type, ds_error *err)
{
	int nulls;
	return decode_check(v, type, &nulls, err);
}

int dsi_decode(json_t *v, int type, ds_error *err)
{
	int nulls, rc = decode_check(v, type, &nulls, err);
	if (rc == 0 && nulls && dsi_decode_zero_nulls(v, type) < 0)
		rc = dsi_error_nomem(err);
	return rc;
}

static int zero_nulls(json_t *v, int type, unsigned flags, int depth)
{
	if (type < 0 || json_is_null(v) || depth > MAX_DEPTH)
		return 0;
	dsi_schema_kind sk = dsi_schema_kind_of(type);
	const char *key;
	json_t *m;
	if (sk == DSI_SK_OBJECT && json_is_object(v)) {
		json_object_foreach(v, key, m)
		{
			long i = dsi_schema_field_index(type, key, strlen(key));
			if (i >= 0 && zero_nulls(m, dsi_schema_field_type_at(type, (size_t)i),
						 dsi_schema_field_flags_at(type, (size_t)i), depth + 1) < 0)
				return DS_ENOMEM;
		}
		return 0;
	}
	if (sk != DSI_SK_ARRAY && sk != DSI_SK_MAP)
		return 0;
	int et = dsi_schema_elem(type);
	unsigned ek = dsi_go_elem_kind(type, flags);
	/* the elements' own facts: the kind of a slice or map is all the schema says of them */
	unsigned eflags = ek;
	if (sk == DSI_SK_ARRAY && json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++) {
			m = json_array_get(v, i);
			if (json_is_null(m) && json_array_set_new(v, i, dsi_go_zero(et, ek)) < 0)
				return DS_ENOMEM;
			if (zero_nulls(json_array_get(v, i), et, eflags, depth + 1) < 0)
				return DS_ENOMEM;
		}
	} else if (sk == DSI_SK_MAP && json_is_object(v)) {
		json_object_foreach(v, key, m)
		{
			if (json_is_null(m) && json_object_set_new(v, key, dsi_go_zero(et, ek)) < 0)
				return DS_ENOMEM;
			if (zero_nulls(json_object_get(v, key), et, eflags, depth + 1) < 0)
				return DS_ENOMEM;
		}
	}
	return 0;
}

int dsi_decode_zero_nulls(json_t *v, int type) { return zero_nulls(v, type, DSI_GO_STRUCT, 0); }

int dsi_decode_type_named(const char *short_name)
{
	/* the types the pure functions decode, by their place under a root type (binary searches of
	 * field names) rather than by a scan of every type's name, which took longer than a decision */
	static const struct {
		const char *name, *root, *path;
	} placed[] = {
		{"PodSpec", "Pod", "spec"},           {"Toleration", "Pod", "spec.tolerations[]"},
		{"Affinity", "Pod", "spec.affinity"}, {"NodeSpec", "Node", "spec"},
		{"Taint", "Node", "spec.taints[]"},
	};
	for (size_t i = 0; i < sizeof(placed) / sizeof(placed[0]); i++)
		if (strcmp(short_name, placed[i].name) == 0)
			return dsi_schema_at(dsi_schema_root_type("v1", placed[i].root), placed[i].path);
	char name[128];
	snprintf(name, sizeof(name), "io.k8s.api.core.v1.%s", short_name);
	return dsi_schema_named(name);
}

int dsi_decode_type_taints(void) { return dsi_schema_at(dsi_decode_type_named("NodeSpec"), "taints"); }

int dsi_decode_type_tolerations(void) { return dsi_schema_at(dsi_decode_type_named("PodSpec"), "tolerations"); }

int dsi_decode_type_of_kind(const char *kind)
{
	/* the snapshot's kinds, each in the group and version it reads them as (other groups of the
	 * same kind, Kruise's DaemonSet, policy/v1beta1: the fields they share are typed alike) */
	static const char *const kinds[][2] = {
		{"Node", "v1"},
		{"Pod", "v1"},
		{"DaemonSet", "apps/v1"},
		{"ControllerRevision", "apps/v1"},
		{"PodDisruptionBudget", "policy/v1"},
		{"PriorityClass", "scheduling.k8s.io/v1"},
	};
	for (size_t i = 0; kind && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kind, kinds[i][0]) == 0)
			return dsi_schema_root_type(kinds[i][1], kinds[i][0]);
	return -1;
}
