/* Go structs written as text from the values they are made of (goemit.h): dsi_go_encode's rules
 * (goencode.c) applied while writing, member by member, in jansson's sorted order. */
#include "apiserver/goemit.h"

#include <string.h>

#include "apiserver/goencode.h"
#include "apiserver/schema.h"
#include "core/alloc.h"
#include "model/quantity.h"

/* As deep as jsonout.c writes before jansson's dump takes over. */
#define MAX_DEPTH 2048

/* One member to write: its value, and the object merged into it (NULL: none). */
typedef struct entry {
	dsi_jout_keyed k; /* first: dsi_jout_sort_keyed */
	const json_t *value, *patch;
	int type;
	unsigned flags;
	const dsi_go_member *raw; /* the caller writes it */
} entry;

static void emit(dsi_jout *o, const json_t *v, const json_t *patch, int type, unsigned flags, int depth,
		 const dsi_go_member *raw);

/* Whether a member that merges the object patch into the object v is left out; -1: only the merged
 * value could say (omitzero of a struct). */
static int merged_omitted(const json_t *v, const json_t *patch, unsigned flags)
{
	unsigned kind = flags & DSI_GO_KIND_MASK;
	if ((flags & DSI_SF_OMITZERO) && kind == DSI_GO_STRUCT)
		return -1;
	/* an object is not nil, not an empty slice or string and not a zero scalar: only a map can be
	 * empty, and the merge is empty only when both are */
	return (flags & DSI_SF_OMITEMPTY) && kind == DSI_GO_MAP && json_object_size(v) == 0 &&
	       json_object_size(patch) == 0;
}

/* Adds the member key (with v's value m and the patch's pm, either NULL) to e, or leaves it out as
 * encode_object does; strct: the members are fields of the struct type, else elements of type
 * (etype, eflags). 0, or -1 when o->fail was set. */
static int add(dsi_jout *o, entry *e, size_t *n, const char *key, size_t len, const json_t *m, const json_t *pm,
	       int type, int strct, int etype, unsigned eflags)
{
	int ft = etype;
	unsigned ff = eflags;
	if (strct) {
		long i = dsi_schema_field_index(type, key, len); /* keys hold no NUL: jansson refuses one */
		if (i < 0)
			return 0; /* the decoder had no field for it */
		ft = dsi_schema_field_type_at(type, (size_t)i);
		ff = dsi_schema_field_flags_at(type, (size_t)i);
	}
	const json_t *val = m, *sub = NULL;
	if (pm) {
		if (json_is_object(pm) && json_is_object(m))
			sub = pm;
		else
			val = pm;
	}
	if (strct) {
		unsigned kind = ff & DSI_GO_KIND_MASK;
		if (sub) {
			int omit = merged_omitted(m, sub, ff);
			if (omit < 0) {
				o->fail = 1;
				return -1;
			}
			if (omit)
				return 0;
		} else if (((ff & DSI_SF_OMITEMPTY) && dsi_go_is_empty(val, kind)) ||
			   ((ff & DSI_SF_OMITZERO) && dsi_go_is_zero(val, ft, kind))) {
			return 0;
		}
	}
	e[(*n)++] = (entry){{key, len}, val, sub, ft, ff, NULL};
	return 0;
}

/* patch's member key: a patch has a member or two, which compares find sooner than a hash */
static const json_t *patch_get(const json_t *patch, const char *key, size_t len)
{
	if (json_object_size(patch) > 4)
		return json_object_getn(patch, key, len);
	const char *k;
	size_t kl;
	json_t *m;
	json_object_keylen_foreach((json_t *)patch, k, kl, m)
	{
		if (kl == len && memcmp(k, key, len) == 0)
			return m;
	}
	return NULL;
}

/* The members of v (an object or NULL) with patch (an object or NULL) merged, as fields of the struct
 * type (strct) or as the elements of the map or slice type with flags. */
static void members(dsi_jout *o, const json_t *v, const json_t *patch, int type, unsigned flags, int strct, int depth,
		    const dsi_go_member *raw)
{
	size_t nv = json_is_object(v) ? json_object_size(v) : 0, np = patch ? json_object_size(patch) : 0, n = 0;
	size_t rl = raw ? strlen(raw->key) : 0;
	entry small[48], *e = small;
	if (nv + np + 1 > sizeof(small) / sizeof(small[0]) && !(e = dsi_reallocarray(NULL, nv + np + 1, sizeof(*e)))) {
		o->fail = -1;
		return;
	}
	int et = strct ? -1 : dsi_schema_elem(type);
	unsigned ek = strct ? 0 : dsi_go_elem_kind(type, flags);
	const char *key;
	size_t len;
	const json_t *m;
	int rc = 0;
	if (nv)
		json_object_keylen_foreach((json_t *)v, key, len, m)
		{
			if (rc == 0 && !(raw && len == rl && memcmp(key, raw->key, rl) == 0))
				rc = add(o, e, &n, key, len, m, patch ? patch_get(patch, key, len) : NULL, type, strct,
					 et, ek);
		}
	if (np)
		json_object_keylen_foreach((json_t *)patch, key, len, m)
		{
			if (rc == 0 && !(nv && json_object_getn(v, key, len)) &&
			    !(raw && len == rl && memcmp(key, raw->key, rl) == 0))
				rc = add(o, e, &n, key, len, NULL, m, type, strct, et, ek);
		}
	if (rc == 0 && raw) {
		long i = strct ? dsi_schema_field_index(type, raw->key, rl) : -1;
		unsigned ff = i < 0 ? 0 : dsi_schema_field_flags_at(type, (size_t)i);
		if (strct && i < 0) {
			o->fail = 1; /* not a field: nothing to write it as */
			rc = -1;
		} else if (!(raw->empty && (ff & DSI_SF_OMITEMPTY))) {
			e[n++] = (entry){{raw->key, rl}, NULL, NULL, -1, ff, raw};
		}
	}
	if (rc == 0) {
		dsi_jout_sort_keyed(e, n, sizeof(*e));
		dsi_jout_putc(o, '{');
		for (size_t i = 0; i < n && !o->fail; i++) {
			dsi_jout_key(o, i == 0, e[i].k.key, e[i].k.len);
			if (e[i].raw)
				e[i].raw->write(o, e[i].raw->ctx);
			else
				emit(o, e[i].value, e[i].patch, e[i].type, e[i].flags, depth + 1, NULL);
		}
		dsi_jout_putc(o, '}');
	}
	if (e != small)
		dsi_free(e);
}

/* encoded() of goencode.c, written: v (NULL: absent) of type with flags, patch merged. */
static void emit(dsi_jout *o, const json_t *v, const json_t *patch, int type, unsigned flags, int depth,
		 const dsi_go_member *raw)
{
	if (o->fail)
		return;
	if (depth > MAX_DEPTH) {
		o->fail = 1;
		return;
	}
	if (patch && !json_is_object(patch)) { /* a patch that is no object replaces */
		v = patch;
		patch = NULL;
	} else if (patch && !json_is_object(v)) { /* an object patch on what is no object: the patch */
		v = NULL;
	}
	if (raw && (type < 0 || dsi_schema_kind_of(type) != DSI_SK_OBJECT)) {
		o->fail = 1; /* a member only an object of fields has */
		return;
	}
	if (raw && !patch && !json_is_object(v))
		v = NULL; /* the member alone */
	if (type < 0) {   /* dsi_go_encode leaves it as it is */
		if (patch)
			o->fail = 1;
		else
			dsi_jout_value(o, v, depth);
		return;
	}
	dsi_schema_kind sk = dsi_schema_kind_of(type);
	if (depth == 0 && !patch && !raw && !json_is_object(v) && !json_is_array(v)) {
		dsi_jout_value(o, v, depth); /* dsi_go_encode rewrites objects and arrays in place, nothing else */
		return;
	}
	if (!patch && !raw && (!v || json_is_null(v))) {
		json_t *z = dsi_go_zero(type, flags & DSI_GO_KIND_MASK);
		if (!z)
			o->fail = -1;
		dsi_jout_value(o, z, depth);
		json_decref(z);
		return;
	}
	switch (sk) {
	case DSI_SK_OBJECT:
		if (patch || raw || json_is_object(v)) {
			members(o, v, patch, type, flags, 1, depth, raw);
			return;
		}
		break;
	case DSI_SK_ARRAY:
	case DSI_SK_MAP:
		if (patch || json_is_object(v)) {
			members(o, v, patch, type, flags, 0, depth, NULL);
			return;
		}
		if (json_is_array(v)) {
			int et = dsi_schema_elem(type);
			unsigned ek = dsi_go_elem_kind(type, flags);
			size_t n = json_array_size(v);
			dsi_jout_putc(o, '[');
			for (size_t i = 0; i < n && !o->fail; i++) {
				if (i)
					dsi_jout_putc(o, ',');
				emit(o, json_array_get(v, i), NULL, et, ek, depth + 1, NULL);
			}
			dsi_jout_putc(o, ']');
			return;
		}
		break;
	case DSI_SK_QUANTITY: {
		char buf[DSI_QUANTITY_STRING_MAX];
		if (patch) {
			o->fail = 1;
			return;
		}
		if (dsi_quantity_served_text(v, buf, sizeof(buf)) == 0) {
			dsi_jout_string(o, buf, strlen(buf));
			return;
		}
		break;
	}
	case DSI_SK_STRING: {
		char buf[DSI_GO_TIME_MAX];
		size_t len;
		if (patch) {
			o->fail = 1;
			return;
		}
		if ((len = dsi_go_time_text(v, type, buf, sizeof(buf)))) {
			dsi_jout_string(o, buf, len);
			return;
		}
		break;
	}
	default:
		if (patch) {
			o->fail = 1;
			return;
		}
		break;
	}
	dsi_jout_value(o, v, depth);
}

void dsi_go_emit(dsi_jout *o, const json_t *v, const json_t *patch, int type, unsigned flags)
{
	emit(o, v, patch, type, flags, 0, NULL);
}

void dsi_go_emit_with(dsi_jout *o, const json_t *v, const json_t *patch, int type, unsigned flags,
		      const dsi_go_member *m)
{
	emit(o, v, patch, type, flags, 0, m);
}

int dsi_go_merge(json_t *target, const json_t *patch)
{
	const char *key;
	size_t len;
	json_t *pm;
	json_object_keylen_foreach((json_t *)patch, key, len, pm)
	{
		json_t *t = json_object_getn(target, key, len);
		if (json_is_object(pm) && json_is_object(t)) {
			if (dsi_go_merge(t, pm) < 0)
				return -1;
		} else if (json_object_setn_new(target, key, len, json_deep_copy(pm)) < 0) {
			return -1;
		}
	}
	return 0;
}
