#include "model/taints.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "model/labels.h"
#include "model/meta.h"

const char *const dsi_well_known_taint_keys[DSI_N_WELL_KNOWN_TAINTS] = {
	DSI_TAINT_NOT_READY,     DSI_TAINT_UNREACHABLE,         DSI_TAINT_UNSCHEDULABLE, DSI_TAINT_MEMORY_PRESSURE,
	DSI_TAINT_DISK_PRESSURE, DSI_TAINT_NETWORK_UNAVAILABLE, DSI_TAINT_PID_PRESSURE,  DSI_TAINT_OUT_OF_SERVICE,
};

const char *dsi_effect_name(uint32_t effect)
{
	switch (effect) {
	case DSI_EFFECT_NO_SCHEDULE: return "NoSchedule";
	case DSI_EFFECT_PREFER_NO_SCHEDULE: return "PreferNoSchedule";
	case DSI_EFFECT_NO_EXECUTE: return "NoExecute";
	default: return "";
	}
}

const char *dsi_toleration_op_name(uint32_t op)
{
	switch (op) {
	case DSI_TOL_EQUAL: return "Equal";
	case DSI_TOL_EXISTS: return "Exists";
	case DSI_TOL_LT: return "Lt";
	case DSI_TOL_GT: return "Gt";
	default: return "";
	}
}

const char *dsi_effect_text(const dsi_atoms *atoms, uint32_t effect)
{
	const char *s = effect >= DSI_EFFECT_OTHER ? dsi_atom_str(atoms, effect - DSI_EFFECT_OTHER) : NULL;
	return s ? s : dsi_effect_name(effect);
}

const char *dsi_toleration_op_text(const dsi_atoms *atoms, uint32_t op)
{
	const char *s = op >= DSI_TOL_OTHER ? dsi_atom_str(atoms, op - DSI_TOL_OTHER) : NULL;
	return s ? s : dsi_toleration_op_name(op);
}

/* An unknown string as base + its atom (a reference held); -1 without memory. */
static int other(dsi_rd *rd, dsi_atoms *atoms, const char *s, uint32_t base, uint32_t *out)
{
	dsi_atom a = dsi_atom_intern_cstr(atoms, s);
	if (a == DSI_ATOM_ERROR)
		return dsi_error_nomem(rd->err);
	*out = base + a;
	return 0;
}

static int parse_effect(dsi_rd *rd, dsi_atoms *atoms, const char *s, int allow_empty, uint32_t *out)
{
	*out = DSI_EFFECT_ALL;
	if (!s || !*s) {
		if (allow_empty || rd->lenient)
			return 0;
		return dsi_rd_fail(
			rd, "effect", DS_EMISSING,
			"required value: expected one of \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"");
	}
	if (strcmp(s, "NoSchedule") == 0)
		*out = DSI_EFFECT_NO_SCHEDULE;
	else if (strcmp(s, "PreferNoSchedule") == 0)
		*out = DSI_EFFECT_PREFER_NO_SCHEDULE;
	else if (strcmp(s, "NoExecute") == 0)
		*out = DSI_EFFECT_NO_EXECUTE;
	else if (rd->lenient)
		return other(rd, atoms, s, DSI_EFFECT_OTHER, out);
	else
		return dsi_rd_fail(rd, "effect", DS_EVALUE,
				   "unsupported value \"%s\": expected one of \"NoSchedule\", \"PreferNoSchedule\", "
				   "\"NoExecute\"%s",
				   s, allow_empty ? " or empty" : "");
	return 0;
}

/* Intern a possibly-empty string; "" and absent both become DSI_ATOM_NONE. */
static int intern_opt(dsi_rd *rd, dsi_atoms *atoms, const char *s, dsi_atom *out)
{
	*out = DSI_ATOM_NONE;
	if (!s || !*s)
		return 0;
	*out = dsi_atom_intern_cstr(atoms, s);
	return *out == DSI_ATOM_ERROR ? (*out = DSI_ATOM_NONE, dsi_error_nomem(rd->err)) : 0;
}

/* The references an unknown effect or operator holds (only a lenient read makes them). */
static void other_ref(dsi_atoms *atoms, uint32_t v, uint32_t base, void (*fn)(dsi_atoms *, dsi_atom))
{
	if (v >= base)
		fn(atoms, v - base);
}

static void taint_others(dsi_atoms *atoms, const dsi_taint *v, uint32_t n, void (*fn)(dsi_atoms *, dsi_atom))
{
	for (uint32_t i = 0; i < n; i++)
		other_ref(atoms, v[i].effect, DSI_EFFECT_OTHER, fn);
}

static void toleration_others(dsi_atoms *atoms, const dsi_toleration *v, uint32_t n, void (*fn)(dsi_atoms *, dsi_atom))
{
	for (uint32_t i = 0; i < n; i++) {
		other_ref(atoms, v[i].effect, DSI_EFFECT_OTHER, fn);
		other_ref(atoms, v[i].op, DSI_TOL_OTHER, fn);
	}
}

_Static_assert(offsetof(dsi_taint, key) == 0 && offsetof(dsi_taint, value) == sizeof(dsi_atom) &&
		       offsetof(dsi_toleration, key) == 0 && offsetof(dsi_toleration, value) == sizeof(dsi_atom),
	       "taints and tolerations begin with their key and value (dsi_kv_array_*)");

void dsi_taints_release(dsi_atoms *atoms, dsi_taints *t)
{
	taint_others(atoms, t->v, t->n, dsi_atom_unref);
	dsi_kv_array_release(atoms, (void **)&t->v, &t->n, sizeof(*t->v));
}

void dsi_tolerations_release(dsi_atoms *atoms, dsi_tolerations *t)
{
	toleration_others(atoms, t->v, t->n, dsi_atom_unref);
	dsi_kv_array_release(atoms, (void **)&t->v, &t->n, sizeof(*t->v));
}

void dsi_taint_release(dsi_atoms *atoms, dsi_taint *t)
{
	taint_others(atoms, t, 1, dsi_atom_unref);
	dsi_atom_unref(atoms, t->key);
	dsi_atom_unref(atoms, t->value);
	memset(t, 0, sizeof(*t));
}

void dsi_toleration_release(dsi_atoms *atoms, dsi_toleration *t)
{
	toleration_others(atoms, t, 1, dsi_atom_unref);
	dsi_atom_unref(atoms, t->key);
	dsi_atom_unref(atoms, t->value);
	memset(t, 0, sizeof(*t));
}

/* The array member `key` of obj into *v (elements of esz bytes), each element read by one() with the path
 * at it. *n counts the elements one() read whole; one() leaves nothing held when it fails, so the caller
 * releases *n elements on failure. */
typedef int (*read_one_fn)(dsi_rd *rd, dsi_atoms *atoms, const json_t *e, void *elem);
static int read_list(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, size_t esz, read_one_fn one,
		     void **v, uint32_t *n)
{
	*v = NULL;
	*n = 0;
	json_t *arr;
	int rc = dsi_rd_array(rd, obj, key, &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	char *items = dsi_calloc(json_array_size(arr), esz);
	if (!items)
		return dsi_error_nomem(rd->err);
	*v = items;
	size_t m1 = dsi_rd_push(rd, key), i;
	json_t *e;
	json_array_foreach(arr, i, e)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		rc = one(rd, atoms, e, items + (size_t)*n * esz);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
		(*n)++;
	}
	dsi_rd_pop(rd, m1);
	return rc;
}

/* key and value of a taint or toleration, interned; on failure neither is held */
static int intern_key_value(dsi_rd *rd, dsi_atoms *atoms, const char *k, const char *v, dsi_atom *key, dsi_atom *value)
{
	int rc = intern_opt(rd, atoms, k, key);
	if (rc == 0 && (rc = intern_opt(rd, atoms, v, value)) < 0) {
		dsi_atom_unref(atoms, *key);
		*key = DSI_ATOM_NONE;
	}
	return rc;
}

static int read_taint(dsi_rd *rd, dsi_atoms *atoms, const json_t *e, void *elem)
{
	dsi_taint *t = elem;
	memset(t, 0, sizeof(*t));
	const char *k, *v, *eff;
	ds_time added; /* not kept (no rule reads it), but metav1.Time refuses what does not parse */
	uint8_t has_added;
	int rc;
	if ((rc = dsi_rd_expect_object(rd, e)) < 0 || (rc = dsi_rd_string(rd, e, "key", &k)) < 0 ||
	    (rc = dsi_rd_string(rd, e, "value", &v)) < 0 || (rc = dsi_rd_string(rd, e, "effect", &eff)) < 0 ||
	    (rc = dsi_rd_time(rd, e, "timeAdded", &added, &has_added)) < 0)
		return rc;
	if ((!k || !*k) && !rd->lenient)
		return dsi_rd_fail(rd, "key", DS_EMISSING, "required value: a taint needs a key");
	if ((rc = parse_effect(rd, atoms, eff, 0, &t->effect)) < 0)
		return rc;
	if ((rc = intern_key_value(rd, atoms, k, v, &t->key, &t->value)) < 0)
		taint_others(atoms, t, 1, dsi_atom_unref);
	return rc;
}

static int read_toleration(dsi_rd *rd, dsi_atoms *atoms, const json_t *e, void *elem)
{
	dsi_toleration *t = elem;
	memset(t, 0, sizeof(*t));
	const char *k, *v, *eff, *op;
	int present, rc;
	if ((rc = dsi_rd_expect_object(rd, e)) < 0 || (rc = dsi_rd_string(rd, e, "key", &k)) < 0 ||
	    (rc = dsi_rd_string(rd, e, "value", &v)) < 0 || (rc = dsi_rd_string(rd, e, "effect", &eff)) < 0 ||
	    (rc = dsi_rd_string(rd, e, "operator", &op)) < 0 ||
	    (rc = dsi_rd_int64(rd, e, "tolerationSeconds", &t->seconds, &present)) < 0 ||
	    (rc = parse_effect(rd, atoms, eff, 1, &t->effect)) < 0)
		return rc;
	t->has_seconds = (uint8_t)present;
	t->op_empty = !op || !*op;
	if (!op || !*op || strcmp(op, "Equal") == 0)
		t->op = DSI_TOL_EQUAL;
	else if (strcmp(op, "Exists") == 0)
		t->op = DSI_TOL_EXISTS;
	else if (strcmp(op, "Lt") == 0)
		t->op = DSI_TOL_LT;
	else if (strcmp(op, "Gt") == 0)
		t->op = DSI_TOL_GT;
	else if (rd->lenient)
		rc = other(rd, atoms, op, DSI_TOL_OTHER, &t->op);
	else
		rc = dsi_rd_fail(rd, "operator", DS_EVALUE,
				 "unsupported value \"%s\": expected one of \"Equal\", \"Exists\", \"Lt\", \"Gt\"", op);
	if (rc == 0)
		rc = intern_key_value(rd, atoms, k, v, &t->key, &t->value);
	if (rc < 0)
		toleration_others(atoms, t, 1, dsi_atom_unref);
	return rc;
}

int dsi_taints_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_taints *out)
{
	void *v;
	int rc = read_list(rd, atoms, obj, key, sizeof(dsi_taint), read_taint, &v, &out->n);
	out->v = v;
	if (rc < 0)
		dsi_taints_release(atoms, out);
	return rc;
}

int dsi_tolerations_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_tolerations *out)
{
	void *v;
	int rc = read_list(rd, atoms, obj, key, sizeof(dsi_toleration), read_toleration, &v, &out->n);
	out->v = v;
	if (rc < 0)
		dsi_tolerations_release(atoms, out);
	return rc;
}

/* An unknown effect or operator (base + atom) of table from, carried into table to. */
static uint32_t carry_other(dsi_atoms *to, const dsi_atoms *from, uint32_t v, uint32_t base, int *failed)
{
	return v < base ? v : base + dsi_atom_carry_or_none(to, from, v - base, failed);
}

int dsi_tolerations_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_tolerations *src, dsi_tolerations *dst)
{
	int failed = 0;
	if (dsi_kv_array_copy_x(to, from, src->v, src->n, sizeof(*src->v), (void **)&dst->v, &dst->n, &failed) < 0)
		return -1;
	for (uint32_t i = 0; i < dst->n; i++) {
		dst->v[i].effect = carry_other(to, from, dst->v[i].effect, DSI_EFFECT_OTHER, &failed);
		dst->v[i].op = carry_other(to, from, dst->v[i].op, DSI_TOL_OTHER, &failed);
	}
	if (failed)
		dsi_tolerations_release(to, dst);
	return failed ? -1 : 0;
}

int dsi_taints_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_taints *src, dsi_taints *dst)
{
	int failed = 0;
	if (dsi_kv_array_copy_x(to, from, src->v, src->n, sizeof(*src->v), (void **)&dst->v, &dst->n, &failed) < 0)
		return -1;
	for (uint32_t i = 0; i < dst->n; i++)
		dst->v[i].effect = carry_other(to, from, dst->v[i].effect, DSI_EFFECT_OTHER, &failed);
	if (failed)
		dsi_taints_release(to, dst);
	return failed ? -1 : 0;
}

int dsi_tolerations_copy(dsi_atoms *atoms, const dsi_tolerations *src, dsi_tolerations *dst)
{
	return dsi_tolerations_copy_x(atoms, atoms, src, dst);
}

int dsi_taints_copy(dsi_atoms *atoms, const dsi_taints *src, dsi_taints *dst)
{
	return dsi_taints_copy_x(atoms, atoms, src, dst);
}

int dsi_taint_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *v, dsi_taint *out)
{
	return read_taint(rd, atoms, v, out);
}

int dsi_toleration_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *v, dsi_toleration *out)
{
	return read_toleration(rd, atoms, v, out);
}

static const char *str_or_empty(const dsi_atoms *atoms, dsi_atom a)
{
	const char *s = dsi_atom_str(atoms, a);
	return s ? s : "";
}

json_t *dsi_taint_to_json(const dsi_atoms *atoms, const dsi_taint *t)
{
	json_t *o = json_pack("{s:s, s:s}", "key", str_or_empty(atoms, t->key), "effect",
			      dsi_effect_text(atoms, t->effect));
	if (o && t->value)
		json_object_set_new(o, "value", json_string(str_or_empty(atoms, t->value)));
	return o;
}

json_t *dsi_toleration_to_json(const dsi_atoms *atoms, const dsi_toleration *t)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	if (t->key)
		json_object_set_new(o, "key", json_string(str_or_empty(atoms, t->key)));
	if (!t->op_empty) /* omitempty, as the API serves it */
		json_object_set_new(o, "operator", json_string(dsi_toleration_op_text(atoms, t->op)));
	if (t->value)
		json_object_set_new(o, "value", json_string(str_or_empty(atoms, t->value)));
	if (t->effect)
		json_object_set_new(o, "effect", json_string(dsi_effect_text(atoms, t->effect)));
	if (t->has_seconds)
		json_object_set_new(o, "tolerationSeconds", json_integer(t->seconds));
	return o;
}

/* ,"name":"s" (no comma before the first member), when s is not empty (omitempty) */
static void put_member(dsi_jout *o, int *first, const char *name, const char *s)
{
	if (!*s)
		return;
	dsi_jout_key(o, *first, name, strlen(name));
	*first = 0;
	dsi_jout_string(o, s, strlen(s));
}

void dsi_tolerations_write(dsi_jout *o, const dsi_atoms *atoms, const dsi_tolerations *t)
{
	dsi_jout_putc(o, '[');
	for (uint32_t i = 0; i < t->n; i++) {
		const dsi_toleration *x = &t->v[i];
		int first = 1;
		dsi_jout_put(o, i ? ",{" : "{", i ? 2 : 1);
		/* the fields in jansson's sorted order */
		put_member(o, &first, "effect", x->effect ? dsi_effect_text(atoms, x->effect) : "");
		put_member(o, &first, "key", x->key ? str_or_empty(atoms, x->key) : "");
		put_member(o, &first, "operator", x->op_empty ? "" : dsi_toleration_op_text(atoms, x->op));
		if (x->has_seconds) {
			dsi_jout_key(o, first, "tolerationSeconds", 17);
			dsi_jout_integer(o, x->seconds);
			first = 0;
		}
		put_member(o, &first, "value", x->value ? str_or_empty(atoms, x->value) : "");
		dsi_jout_putc(o, '}');
	}
	dsi_jout_putc(o, ']');
}

void dsi_tolerations_ref_write(dsi_jout *o, const void *ref)
{
	const dsi_tolerations_ref *r = ref;
	dsi_tolerations_write(o, r->atoms, r->tols);
}

json_t *dsi_tolerations_ref_json(const void *ref)
{
	const dsi_tolerations_ref *r = ref;
	json_t *arr = json_array();
	for (uint32_t i = 0; arr && i < r->tols->n; i++)
		if (json_array_append_new(arr, dsi_toleration_to_json(r->atoms, &r->tols->v[i])) < 0) {
			json_decref(arr);
			arr = NULL;
		}
	return arr;
}

void dsi_taint_string(const dsi_atoms *atoms, const dsi_taint *t, char *buf, size_t size)
{
	/* Taint.ToString (k8s.io/api core/v1 taint.go) */
	const char *k = str_or_empty(atoms, t->key), *v = str_or_empty(atoms, t->value);
	const char *e = dsi_effect_text(atoms, t->effect);
	if (*e == '\0' && *v == '\0')
		snprintf(buf, size, "%s", k);
	else if (*e == '\0')
		snprintf(buf, size, "%s=%s:", k, v);
	else if (*v == '\0')
		snprintf(buf, size, "%s:%s", k, e);
	else
		snprintf(buf, size, "%s=%s:%s", k, v, e);
}
