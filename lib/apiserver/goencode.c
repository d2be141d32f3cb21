/* Objects as Go's encoding/json prints the structs decoded from them (goencode.h). */
#include "apiserver/goencode.h"

#include <string.h>

#include "apiserver/schema.h"
#include "core/error.h"
#include "core/time.h"
#include "model/quantity.h"

static int is_time(int type)
{
	const char *format = dsi_schema_type_name(type);
	return dsi_schema_kind_of(type) == DSI_SK_STRING && format[0] == 'd' && strcmp(format, "date-time") == 0;
}

/* The Go kind of an element of a slice or map of type (a field's own kind is in its flags). */
static unsigned elem_kind(int type, unsigned flags)
{
	if (flags & DSI_SF_ELEM_NIL)
		return DSI_GO_POINTER;
	switch (dsi_schema_kind_of(dsi_schema_elem(type))) {
	case DSI_SK_OBJECT:
	case DSI_SK_QUANTITY:
	case DSI_SK_INT_OR_STRING: return DSI_GO_STRUCT;
	case DSI_SK_ARRAY: return DSI_GO_SLICE;
	case DSI_SK_MAP: return DSI_GO_MAP;
	case DSI_SK_ANY: return DSI_GO_STRUCT; /* RawExtension: null prints null */
	default: return is_time(dsi_schema_elem(type)) ? DSI_GO_STRUCT : DSI_GO_VALUE;
	}
}

static int zero_scalar(const json_t *v)
{
	return json_is_null(v) || json_is_false(v) || (json_is_string(v) && json_string_length(v) == 0) ||
	       (json_is_integer(v) && json_integer_value(v) == 0) || (json_is_real(v) && json_real_value(v) == 0);
}

/* isEmptyValue (encoding/json encode.go) of what v decodes into. */
static int is_empty(const json_t *v, unsigned kind)
{
	switch (kind) {
	case DSI_GO_POINTER:
	case DSI_GO_INTERFACE: return json_is_null(v);
	case DSI_GO_SLICE: /* []byte is a base64 string */
		return json_is_null(v) || (json_is_array(v) && json_array_size(v) == 0) ||
		       (json_is_string(v) && json_string_length(v) == 0);
	case DSI_GO_MAP: return json_is_null(v) || (json_is_object(v) && json_object_size(v) == 0);
	case DSI_GO_STRUCT: return 0;
	default: return zero_scalar(v);
	}
}

/* Time's epoch: time.Time{} is 0001-01-01T00:00:00Z. */
#define GO_ZERO_TIME (-62135596800000LL)

static int is_zero(const json_t *v, int type, unsigned kind);

/* A struct value's zero: IsZero() where the type has one (Time, Quantity), else every field zero. */
static int struct_zero(const json_t *v, int type)
{
	if (json_is_null(v))
		return 1;
	ds_time t;
	switch (dsi_schema_kind_of(type)) {
	case DSI_SK_STRING:
		return is_time(type) && json_is_string(v) &&
		       dsi_time_parse(json_string_value(v), json_string_length(v), &t, NULL) == 0 && t == GO_ZERO_TIME;
	case DSI_SK_QUANTITY: {
		dsi_quantity q;
		dsi_rd rd;
		dsi_rd_init(&rd, NULL);
		return dsi_quantity_from_json(&rd, v, &q) == 0 && dsi_quantity_is_zero(&q);
	}
	case DSI_SK_INT_OR_STRING: return json_is_integer(v) && json_integer_value(v) == 0;
	case DSI_SK_OBJECT: {
		if (!json_is_object(v))
			return 0;
		const char *key;
		json_t *m;
		json_object_foreach((json_t *)v, key, m)
		{
			long i = dsi_schema_field_index(type, key, strlen(key));
			if (i >= 0 && !is_zero(m, dsi_schema_field_type_at(type, (size_t)i),
					       dsi_schema_field_flags_at(type, (size_t)i) & DSI_GO_KIND_MASK))
				return 0;
		}
		return 1;
	}
	default: return 0;
	}
}

/* reflect.Value.IsZero, or the IsZero method omitzero calls. */
static int is_zero(const json_t *v, int type, unsigned kind)
{
	switch (kind) {
	case DSI_GO_POINTER:
	case DSI_GO_INTERFACE:
	case DSI_GO_SLICE:
	case DSI_GO_MAP: return json_is_null(v); /* a non-nil empty slice is not zero */
	case DSI_GO_STRUCT: return struct_zero(v, type);
	default: return zero_scalar(v);
	}
}

json_t *dsi_go_zero(int type, unsigned kind)
{
	dsi_schema_kind sk = dsi_schema_kind_of(type);
	if (kind == DSI_GO_VALUE) {
		switch (sk) {
		case DSI_SK_STRING: return json_string("");
		case DSI_SK_INTEGER:
		case DSI_SK_NUMBER: return json_integer(0);
		case DSI_SK_BOOLEAN: return json_false();
		default: return json_null();
		}
	}
	if (kind == DSI_GO_STRUCT) {
		switch (sk) {
		case DSI_SK_OBJECT: return json_object();
		case DSI_SK_QUANTITY: return json_string("0");
		case DSI_SK_INT_OR_STRING: return json_integer(0);
		default: return json_null(); /* Time, RawExtension: their MarshalJSON says null */
		}
	}
	return json_null(); /* nil */
}

unsigned dsi_go_elem_kind(int type, unsigned flags) { return elem_kind(type, flags); }

size_t dsi_go_time_text(const json_t *v, int type, char *buf, size_t size)
{
	ds_time t;
	if (!is_time(type) || !json_is_string(v) ||
	    dsi_time_parse(json_string_value(v), json_string_length(v), &t, NULL) < 0)
		return 0;
	/* Time.MarshalJSON: t.UTC().Format(time.RFC3339), whole seconds */
	t -= (t % 1000 + 1000) % 1000;
	int n = dsi_time_format(t, buf, size);
	return n > 0 ? (size_t)n : 0;
}
int dsi_go_is_empty(const json_t *v, unsigned kind) { return is_empty(v, kind); }
int dsi_go_is_zero(const json_t *v, int type, unsigned kind) { return is_zero(v, type, kind); }

static json_t *encoded(json_t *v, int type, unsigned flags);

/* The members of v (an object of type, or a slice's or map's elements) rewritten in place. */
static int encode_object(json_t *v, int type)
{
	const char *key;
	json_t *m, *tmp;
	json_object_foreach_safe(v, tmp, key, m)
	{
		long i = dsi_schema_field_index(type, key, strlen(key));
		if (i < 0) { /* the decoder had no field for it */
			json_object_del(v, key);
			continue;
		}
		int ft = dsi_schema_field_type_at(type, (size_t)i);
		unsigned flags = dsi_schema_field_flags_at(type, (size_t)i), kind = flags & DSI_GO_KIND_MASK;
		if (((flags & DSI_SF_OMITEMPTY) && is_empty(m, kind)) ||
		    ((flags & DSI_SF_OMITZERO) && is_zero(m, ft, kind))) {
			json_object_del(v, key);
			continue;
		}
		json_t *r = encoded(m, ft, flags);
		if (!r || (r != m && json_object_set(v, key, r) < 0)) {
			json_decref(r);
			return DS_ENOMEM;
		}
		json_decref(r);
	}
	return 0;
}

static int encode_elems(json_t *v, int type, unsigned flags)
{
	int et = dsi_schema_elem(type);
	unsigned kind = elem_kind(type, flags);
	if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++) {
			json_t *m = json_array_get(v, i), *r = encoded(m, et, kind);
			if (!r || (r != m && json_array_set(v, i, r) < 0)) {
				json_decref(r);
				return DS_ENOMEM;
			}
			json_decref(r);
		}
		return 0;
	}
	const char *key;
	json_t *m;
	json_object_foreach(v, key, m)
	{
		json_t *r = encoded(m, et, kind);
		if (!r || (r != m && json_object_set(v, key, r) < 0)) {
			json_decref(r);
			return DS_ENOMEM;
		}
		json_decref(r);
	}
	return 0;
}

/* What Go prints for v decoded into a value of type with the Go facts flags: a new reference (v
 * itself, rewritten in place, or its replacement), NULL when out of memory. */
static json_t *encoded(json_t *v, int type, unsigned flags)
{
	dsi_schema_kind sk = dsi_schema_kind_of(type);
	unsigned kind = flags & DSI_GO_KIND_MASK;
	if (json_is_null(v))
		return dsi_go_zero(type, kind);
	switch (sk) {
	case DSI_SK_OBJECT:
		if (json_is_object(v) && encode_object(v, type) < 0)
			return NULL;
		return json_incref(v);
	case DSI_SK_ARRAY:
	case DSI_SK_MAP:
		if ((json_is_array(v) || json_is_object(v)) && encode_elems(v, type, flags) < 0)
			return NULL;
		return json_incref(v);
	case DSI_SK_QUANTITY: return dsi_quantity_served_json(v);
	case DSI_SK_STRING: {
		char buf[DSI_GO_TIME_MAX];
		return dsi_go_time_text(v, type, buf, sizeof(buf)) ? json_string(buf) : json_incref(v);
	}
	default: return json_incref(v);
	}
}

int dsi_go_encode(json_t *v, int type)
{
	if (type < 0)
		return 0;
	json_t *r = encoded(v, type, DSI_GO_STRUCT);
	if (!r)
		return DS_ENOMEM;
	json_decref(r); /* v itself: objects and arrays are rewritten in place */
	return 0;
}

/* ---- the whole struct, as encoding/json prints it (dsi_go_print) ------------------------------- */

static json_t *print_value(const json_t *v, int type, unsigned kind, unsigned opts);

/* The Go value a member decodes into is nil (or, for a value kind, zero): absent or null, and, after
 * the storage round trip, an empty slice or map (protobuf keeps no empty repeated field or map). */
static int decodes_nil(const json_t *v, unsigned kind, unsigned opts)
{
	if (!v || json_is_null(v))
		return 1;
	if (!(opts & DSI_GO_STORAGE))
		return 0;
	if (kind == DSI_GO_SLICE)
		return (json_is_array(v) && json_array_size(v) == 0) || (json_is_string(v) && !json_string_length(v));
	if (kind == DSI_GO_MAP)
		return json_is_object(v) && json_object_size(v) == 0;
	return 0;
}

#define PRINT_MAX_FIELDS 64 /* the most fields of a struct (PodSpec's) are 42 */

/* The member of obj (an object) for each of the n fields of the struct type, NULL where absent:
 * each member found among the fields by its name (dsi_schema_field_index), one pass over the few
 * members rather than a lookup in obj for each of the many fields; what json_object_get finds. */
static void field_members(const json_t *obj, int type, size_t n, const json_t **fv)
{
	for (size_t i = 0; i < n; i++)
		fv[i] = NULL;
	const char *key;
	size_t klen;
	json_t *m;
	json_object_keylen_foreach((json_t *)obj, key, klen, m)
	{
		long i = dsi_schema_field_index(type, key, klen); /* a key with a NUL in it is no field's */
		if (i >= 0)
			fv[i] = m;
	}
}

/* Every field of the struct type (obj: its JSON, NULL for the zero struct) printed or left out. */
static json_t *print_struct(const json_t *obj, int type, unsigned opts)
{
	json_t *out = json_object();
	size_t n = dsi_schema_nfields_of(type);
	const json_t *fv[PRINT_MAX_FIELDS];
	int found = json_is_object(obj) && n <= PRINT_MAX_FIELDS;
	if (found)
		field_members(obj, type, n, fv);
	for (size_t i = 0; out && i < n; i++) {
		const char *name = dsi_schema_field_name(type, i);
		int ft = dsi_schema_field_type_at(type, i);
		unsigned flags = dsi_schema_field_flags_at(type, i), kind = flags & DSI_GO_KIND_MASK;
		const json_t *m = found ? fv[i] : json_is_object(obj) ? json_object_get(obj, name) : NULL;
		int nil = decodes_nil(m, kind, opts);
		json_t *r;
		if (nil && kind != DSI_GO_VALUE && kind != DSI_GO_STRUCT) {
			if (flags & (DSI_SF_OMITEMPTY | DSI_SF_OMITZERO))
				continue; /* nil is both empty and zero */
			r = json_null();
		} else {
			const json_t *val = nil ? NULL : m; /* NULL: the zero value (a struct is never empty) */
			if (((flags & DSI_SF_OMITEMPTY) && (val ? is_empty(val, kind) : kind != DSI_GO_STRUCT)) ||
			    ((flags & DSI_SF_OMITZERO) && (!val || is_zero(val, ft, kind))))
				continue;
			/* the element kinds of a slice or map ride in the flags of the field */
			r = print_value(val, ft, kind | (flags & DSI_SF_ELEM_NIL), opts);
		}
		if (!r || json_object_set_new_nocheck(out, name, r) < 0) { /* a schema name: ASCII */
			json_decref(out);
			return NULL;
		}
	}
	return out;
}

/* What Go prints for v (NULL: the zero value) decoded into type, of Go kind kind (with the
 * DSI_SF_ELEM_NIL bit for slices and maps). A new value, NULL when out of memory. */
static json_t *print_value(const json_t *v, int type, unsigned kind, unsigned opts)
{
	unsigned k = kind & DSI_GO_KIND_MASK;
	dsi_schema_kind sk = dsi_schema_kind_of(type);
	if (!v || json_is_null(v)) {
		if (k == DSI_GO_STRUCT && sk == DSI_SK_OBJECT)
			return print_struct(NULL, type, opts);
		return dsi_go_zero(type, k);
	}
	switch (sk) {
	case DSI_SK_OBJECT: return json_is_object(v) ? print_struct(v, type, opts) : json_deep_copy(v);
	case DSI_SK_ARRAY:
	case DSI_SK_MAP: {
		if (decodes_nil(v, k, opts))
			return json_null();
		int et = dsi_schema_elem(type);
		unsigned ek = elem_kind(type, kind);
		if (json_is_array(v)) {
			json_t *out = json_array();
			for (size_t i = 0; out && i < json_array_size(v); i++)
				if (json_array_append_new(out, print_value(json_array_get(v, i), et, ek, opts)) < 0) {
					json_decref(out);
					out = NULL;
				}
			return out;
		}
		if (json_is_object(v)) {
			json_t *out = json_object(), *m;
			const char *key;
			json_object_foreach((json_t *)v, key, m)
			{
				/* a key of a jansson object: valid UTF-8 already (and so is what precedes a NUL) */
				if (out && json_object_set_new_nocheck(out, key, print_value(m, et, ek, opts)) < 0) {
					json_decref(out);
					out = NULL;
				}
			}
			return out;
		}
		return json_deep_copy(v); /* []byte: its base64 text */
	}
	default: {
		/* scalars: encoded() rewrites no scalar in place */
		json_t *c = (opts & DSI_GO_SHARED) ? json_incref((json_t *)v) : json_deep_copy(v);
		json_t *r = c ? encoded(c, type, k) : NULL;
		json_decref(c);
		return r;
	}
	}
}

json_t *dsi_go_print(const json_t *v, int type, unsigned opts)
{
	if (type < 0)
		return json_deep_copy(v);
	return print_value(v, type, DSI_GO_STRUCT, opts);
}
