#include "model/selector.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "model/labelvalid.h"

/* ---- errors as upstream renders them (field.Error, field.ErrorList.ToAggregate) ---- */

void dsi_req_errs_free(dsi_req_errs *e)
{
	for (size_t i = 0; i < e->n; i++)
		dsi_free(e->msg[i]);
	dsi_free(e->msg);
	memset(e, 0, sizeof(*e));
}

/* Add one field error "<field>: <body>" (b is consumed); identical texts count once. */
static void errs_add(dsi_req_errs *e, int where, size_t index, dsi_strbuf *b)
{
	if (b->oom) {
		e->oom = 1;
		dsi_strbuf_free(b);
		return;
	}
	char *text = dsi_strbuf_detach(b);
	if (!text) {
		e->oom = 1;
		return;
	}
	if (!e->n) {
		e->first_where = where;
		e->first_index = index;
	}
	for (size_t i = 0; i < e->n; i++)
		if (strcmp(e->msg[i], text) == 0) {
			dsi_free(text);
			return;
		}
	if (DSI_GROW(e->msg, e->cap, e->n + 1) < 0) {
		dsi_free(text);
		e->oom = 1;
		return;
	}
	e->msg[e->n++] = text;
}

/* field.Path rendering: prefix.child, or child alone for a nil path. */
static void put_field(dsi_strbuf *b, const char *prefix, const char *child)
{
	if (prefix && *prefix) {
		dsi_strbuf_puts(b, prefix);
		dsi_strbuf_putc(b, '.');
	}
	dsi_strbuf_puts(b, child);
}

/* json.Marshal of a []string (nil: null) */
static void put_json_list(dsi_strbuf *b, const char *const *v, const size_t *lens, size_t n, int nil)
{
	if (!n && nil) {
		dsi_strbuf_puts(b, "null");
		return;
	}
	dsi_strbuf_putc(b, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			dsi_strbuf_putc(b, ',');
		dsi_go_json_string(b, v[i], lens[i]);
	}
	dsi_strbuf_putc(b, ']');
}

void dsi_req_errs_message(const dsi_req_errs *e, dsi_strbuf *out)
{
	if (e->n == 1) {
		dsi_strbuf_puts(out, e->msg[0]);
		return;
	}
	dsi_strbuf_putc(out, '[');
	for (size_t i = 0; i < e->n; i++) {
		if (i)
			dsi_strbuf_puts(out, ", ");
		dsi_strbuf_puts(out, e->msg[i]);
	}
	dsi_strbuf_putc(out, ']');
}

static int cmp_atom(const void *a, const void *b)
{
	dsi_atom x = *(const dsi_atom *)a, y = *(const dsi_atom *)b;
	return (x > y) - (x < y);
}

/* labels.NewRequirement (apimachinery pkg/labels/selector.go) */
int dsi_req_build(dsi_atoms *atoms, const char *field_path, const char *key, size_t klen, dsi_selector_op op,
		  const char *const *values, const size_t *vlens, size_t n, int nil, dsi_req_errs *errs,
		  dsi_requirement *out)
{
	memset(out, 0, sizeof(*out));
	memset(errs, 0, sizeof(*errs));
	dsi_strbuf b = DSI_STRBUF_INIT, why = DSI_STRBUF_INIT;

	if (dsi_validate_label_key(key, klen, &why)) {
		put_field(&b, field_path, "key");
		dsi_strbuf_puts(&b, ": Invalid value: ");
		dsi_go_quote(&b, key, klen);
		dsi_strbuf_puts(&b, ": ");
		if (why.data)
			dsi_strbuf_append(&b, why.data, why.len);
		errs_add(errs, DSI_REQ_AT_KEY, 0, &b);
	}
	dsi_strbuf_free(&why);

	const char *count_msg = NULL;
	switch (op) {
	case DSI_SEL_IN:
	case DSI_SEL_NOT_IN:
		if (n == 0)
			count_msg = "for 'in', 'notin' operators, values set can't be empty";
		break;
	case DSI_SEL_EQUALS:
	case DSI_SEL_DOUBLE_EQUALS:
	case DSI_SEL_NOT_EQUALS:
		if (n != 1)
			count_msg = "exact-match compatibility requires one single value";
		break;
	case DSI_SEL_EXISTS:
	case DSI_SEL_DOES_NOT_EXIST:
		if (n != 0)
			count_msg = "values set must be empty for exists and does not exist";
		break;
	case DSI_SEL_GT:
	case DSI_SEL_LT:
		if (n != 1)
			count_msg = "for 'Gt', 'Lt' operators, exactly one value is required";
		break;
	default: {
		char opname[32];
		snprintf(opname, sizeof(opname), "%d", (int)op);
		put_field(&b, field_path, "operator");
		dsi_strbuf_puts(&b, ": Unsupported value: ");
		dsi_go_json_string(&b, opname, strlen(opname));
		dsi_strbuf_puts(&b, ": supported values: \"in\", \"notin\", \"=\", \"==\", \"!=\", \"gt\", \"lt\", "
				    "\"exists\", \"!\"");
		errs_add(errs, DSI_REQ_AT_OPERATOR, 0, &b);
	}
	}
	if (count_msg) {
		put_field(&b, field_path, "values");
		dsi_strbuf_puts(&b, ": Invalid value: ");
		put_json_list(&b, values, vlens, n, nil);
		dsi_strbuf_puts(&b, ": ");
		dsi_strbuf_puts(&b, count_msg);
		errs_add(errs, DSI_REQ_AT_VALUES, 0, &b);
	}
	int64_t ival = 0;
	if (op == DSI_SEL_GT || op == DSI_SEL_LT)
		for (size_t i = 0; i < n; i++) {
			int64_t v;
			if (dsi_parse_go_int64(values[i], vlens[i], &v)) {
				ival = v;
				continue;
			}
			put_field(&b, field_path, "values");
			dsi_strbuf_printf(&b, "[%zu]: Invalid value: ", i);
			dsi_go_quote(&b, values[i], vlens[i]);
			dsi_strbuf_puts(&b, ": for 'Gt', 'Lt' operators, the value must be an integer");
			errs_add(errs, DSI_REQ_AT_VALUE, i, &b);
		}
	for (size_t i = 0; i < n; i++) {
		if (!dsi_validate_label_value(values[i], vlens[i], &why)) {
			dsi_strbuf_free(&why);
			continue;
		}
		put_field(&b, field_path, "values");
		dsi_strbuf_printf(&b, "[%zu][", i);
		dsi_strbuf_append(&b, key, klen);
		dsi_strbuf_puts(&b, "]: Invalid value: ");
		dsi_go_quote(&b, values[i], vlens[i]);
		dsi_strbuf_puts(&b, ": ");
		if (why.data)
			dsi_strbuf_append(&b, why.data, why.len);
		dsi_strbuf_free(&why);
		errs_add(errs, DSI_REQ_AT_VALUE, i, &b);
	}
	if (errs->oom)
		return DS_ENOMEM;
	if (errs->n)
		return DS_EVALUE;

	/* valid: intern */
	out->op = (uint8_t)op;
	out->ival = ival;
	out->key = dsi_atom_intern(atoms, key, klen);
	if (out->key == DSI_ATOM_ERROR) {
		out->key = DSI_ATOM_NONE;
		return DS_ENOMEM;
	}
	if (n == 1) {
		out->value1 = dsi_atom_intern(atoms, values[0], vlens[0]);
		if (out->value1 == DSI_ATOM_ERROR) {
			out->value1 = DSI_ATOM_NONE;
			dsi_requirement_release(atoms, out);
			return DS_ENOMEM;
		}
		out->nvalues = 1;
	} else if (n > 1) {
		if (n > UINT32_MAX || !(out->values = dsi_calloc(n, sizeof(dsi_atom)))) {
			dsi_requirement_release(atoms, out);
			return DS_ENOMEM;
		}
		for (size_t i = 0; i < n; i++) {
			dsi_atom a = dsi_atom_intern(atoms, values[i], vlens[i]);
			if (a == DSI_ATOM_ERROR) {
				dsi_requirement_release(atoms, out);
				return DS_ENOMEM;
			}
			out->values[out->nvalues++] = a;
		}
		qsort(out->values, n, sizeof(dsi_atom), cmp_atom);
	}
	return 0;
}

/* Fill rd's error from a failed build: rd's path, then the first problem's field. */
int dsi_req_fail(dsi_rd *rd, const dsi_req_errs *e, int rc, int subpaths, const char *prefix)
{
	if (rc == DS_ENOMEM)
		return dsi_error_nomem(rd->err);
	dsi_strbuf msg = DSI_STRBUF_INIT;
	if (prefix)
		dsi_strbuf_puts(&msg, prefix);
	dsi_req_errs_message(e, &msg);
	if (msg.oom) {
		dsi_strbuf_free(&msg);
		return dsi_error_nomem(rd->err);
	}
	if (rd->whole_message && !*rd->whole_message && !(*rd->whole_message = dsi_strdup(msg.data))) {
		dsi_strbuf_free(&msg);
		return dsi_error_nomem(rd->err);
	}
	size_t mark = rd->len;
	if (subpaths) {
		switch (e->first_where) {
		case DSI_REQ_AT_KEY: dsi_rd_push(rd, "key"); break;
		case DSI_REQ_AT_OPERATOR: dsi_rd_push(rd, "operator"); break;
		case DSI_REQ_AT_VALUES: dsi_rd_push(rd, "values"); break;
		default: dsi_rd_push(rd, "values"); dsi_rd_push_index(rd, e->first_index);
		}
	}
	rc = dsi_rd_fail(rd, NULL, rc, "%s", msg.data);
	dsi_rd_pop(rd, mark);
	dsi_strbuf_free(&msg);
	return rc;
}

int dsi_requirement_init_at(dsi_rd *rd, dsi_atoms *atoms, const char *field_path, const char *key, dsi_selector_op op,
			    const char *const *values, size_t nvalues, dsi_requirement *out)
{
	memset(out, 0, sizeof(*out));
	if (!key)
		key = "";
	if (!values && nvalues)
		return dsi_rd_fail(rd, NULL, DS_EARG, "values is NULL");
	const char *vsmall[8];
	size_t lsmall[8];
	const char **vals = vsmall;
	size_t *lens = lsmall;
	if (nvalues > 8) {
		vals = dsi_calloc(nvalues, sizeof(char *));
		lens = dsi_calloc(nvalues, sizeof(size_t));
	}
	int rc;
	dsi_req_errs e;
	memset(&e, 0, sizeof(e));
	if (!vals || !lens) {
		rc = dsi_error_nomem(rd->err);
	} else {
		for (size_t i = 0; i < nvalues; i++) {
			vals[i] = values[i] ? values[i] : ""; /* a NULL element reads as "" */
			lens[i] = strlen(vals[i]);
		}
		rc = dsi_req_build(atoms, field_path, key, strlen(key), op, vals, lens, nvalues, values == NULL, &e,
				   out);
		if (rc < 0)
			rc = dsi_req_fail(rd, &e, rc, 1, NULL);
	}
	dsi_req_errs_free(&e);
	if (vals != vsmall)
		dsi_free((void *)vals);
	if (lens != lsmall)
		dsi_free(lens);
	return rc;
}

int dsi_requirement_init(dsi_rd *rd, dsi_atoms *atoms, const char *key, dsi_selector_op op, const char *const *values,
			 size_t nvalues, dsi_requirement *out)
{
	return dsi_requirement_init_at(rd, atoms, NULL, key, op, values, nvalues, out);
}

void dsi_requirement_release(dsi_atoms *atoms, dsi_requirement *r)
{
	dsi_atom_unref(atoms, r->key);
	dsi_atom_unref(atoms, r->value1);
	for (uint32_t i = 0; r->values && i < r->nvalues; i++)
		dsi_atom_unref(atoms, r->values[i]);
	dsi_free(r->values);
	memset(r, 0, sizeof(*r));
}

int dsi_requirement_copy(dsi_atoms *atoms, const dsi_requirement *src, dsi_requirement *dst)
{
	*dst = *src;
	dst->values = NULL;
	if (src->values) {
		if (!(dst->values = dsi_malloc(src->nvalues * sizeof(dsi_atom)))) {
			memset(dst, 0, sizeof(*dst));
			return -1;
		}
		memcpy(dst->values, src->values, src->nvalues * sizeof(dsi_atom));
		for (uint32_t i = 0; i < src->nvalues; i++)
			dsi_atom_ref(atoms, src->values[i]);
	}
	dsi_atom_ref(atoms, src->key);
	dsi_atom_ref(atoms, src->value1);
	return 0;
}

/* ---- matching ---------------------------------------------------------------------- */

/* Requirement.Matches (apimachinery pkg/labels/selector.go), given the label's value */
int dsi_requirement_matches_slow(const dsi_atoms *atoms, const dsi_requirement *r, dsi_atom v)
{
	int64_t lv;
	switch (r->op) {
	case DSI_SEL_IN:
	case DSI_SEL_EQUALS:
	case DSI_SEL_DOUBLE_EQUALS: return v != DSI_ATOM_NONE && dsi_requirement_has_value(r, v);
	case DSI_SEL_NOT_IN:
	case DSI_SEL_NOT_EQUALS: return v == DSI_ATOM_NONE || !dsi_requirement_has_value(r, v);
	case DSI_SEL_EXISTS: return v != DSI_ATOM_NONE;
	case DSI_SEL_DOES_NOT_EXIST: return v == DSI_ATOM_NONE;
	case DSI_SEL_GT:
	case DSI_SEL_LT:
		/* the label value must parse as strconv.ParseInt(v, 10, 64) */
		if (v == DSI_ATOM_NONE || r->nvalues != 1 || !dsi_atom_int(atoms, v, &lv))
			return 0;
		return r->op == DSI_SEL_GT ? lv > r->ival : lv < r->ival;
	default: return 0;
	}
}

int dsi_requirement_matches(const dsi_atoms *atoms, const dsi_requirement *r, const dsi_labels *labels)
{
	return dsi_requirement_matches_value(atoms, r, dsi_labels_get(labels, r->key));
}

/* internalSelector.Matches (apimachinery pkg/labels/selector.go) */
int dsi_selector_matches(const dsi_atoms *atoms, const dsi_selector *s, const dsi_labels *labels)
{
	if (s->kind != DSI_SELECTOR_REQS)
		return 0; /* nothingSelector */
	for (uint32_t i = 0; i < s->n; i++)
		if (!dsi_requirement_matches(atoms, &s->reqs[i], labels))
			return 0;
	return 1;
}

int dsi_selector_is_everything(const dsi_selector *s) { return s->kind == DSI_SELECTOR_REQS && s->n == 0; }

int dsi_selector_is_nothing(const dsi_selector *s) { return s->kind != DSI_SELECTOR_REQS; }

/* ---- building, copying, releasing --------------------------------------------------- */

typedef struct keyed {
	const char *key;
	uint32_t index;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
	const keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	if (c)
		return c;
	return (x->index > y->index) - (x->index < y->index);
}

/* internalSelector.Add: sort.Sort(ByKey(...)), kept stable here */
int dsi_selector_build(dsi_rd *rd, dsi_atoms *atoms, dsi_requirement *reqs, uint32_t n, dsi_selector *out)
{
	memset(out, 0, sizeof(*out));
	if (n > 1) {
		keyed *k = dsi_calloc(n, sizeof(keyed));
		dsi_requirement *sorted = dsi_calloc(n, sizeof(dsi_requirement));
		if (!k || !sorted) {
			dsi_free(k);
			dsi_free(sorted);
			for (uint32_t i = 0; i < n; i++)
				dsi_requirement_release(atoms, &reqs[i]);
			dsi_free(reqs);
			return dsi_error_nomem(rd->err);
		}
		for (uint32_t i = 0; i < n; i++) {
			k[i].key = dsi_atom_str(atoms, reqs[i].key);
			k[i].index = i;
		}
		qsort(k, n, sizeof(keyed), cmp_keyed);
		for (uint32_t i = 0; i < n; i++)
			sorted[i] = reqs[k[i].index];
		dsi_free(k);
		dsi_free(reqs);
		reqs = sorted;
	}
	if (!n) {
		dsi_free(reqs);
		reqs = NULL;
	}
	out->reqs = reqs;
	out->n = n;
	out->kind = DSI_SELECTOR_REQS;
	return 0;
}

void dsi_selector_release(dsi_atoms *atoms, dsi_selector *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		dsi_requirement_release(atoms, &s->reqs[i]);
	dsi_free(s->reqs);
	memset(s, 0, sizeof(*s));
}

int dsi_selector_copy(dsi_atoms *atoms, const dsi_selector *src, dsi_selector *dst)
{
	memset(dst, 0, sizeof(*dst));
	if (src->n) {
		if (!(dst->reqs = dsi_calloc(src->n, sizeof(dsi_requirement))))
			return -1;
		for (uint32_t i = 0; i < src->n; i++) {
			if (dsi_requirement_copy(atoms, &src->reqs[i], &dst->reqs[i]) < 0) {
				dsi_selector_release(atoms, dst);
				return -1;
			}
			dst->n = i + 1;
		}
	}
	dst->kind = src->kind;
	return 0;
}

int dsi_selector_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_selector *src, dsi_selector *dst)
{
	if (to == from)
		return dsi_selector_copy(to, src, dst);
	memset(dst, 0, sizeof(*dst));
	dst->kind = src->kind;
	if (!src->n)
		return 0;
	if (!(dst->reqs = dsi_calloc(src->n, sizeof(dsi_requirement))))
		return -1;
	int failed = 0;
	for (uint32_t i = 0; i < src->n && !failed; i++) {
		const dsi_requirement *r = &src->reqs[i];
		dsi_requirement *d = &dst->reqs[i];
		dst->n = i + 1;
		d->op = r->op;
		d->ival = r->ival;
		d->nvalues = r->nvalues;
		d->key = dsi_atom_carry_or_none(to, from, r->key, &failed);
		d->value1 = dsi_atom_carry_or_none(to, from, r->value1, &failed);
		if (r->values) {
			if (!(d->values = dsi_calloc(r->nvalues, sizeof(dsi_atom)))) {
				failed = 1;
				break;
			}
			for (uint32_t k = 0; k < r->nvalues; k++)
				d->values[k] = dsi_atom_carry_or_none(to, from, r->values[k], &failed);
			/* sorted by atom id, which differ from table to table */
			qsort(d->values, r->nvalues, sizeof(dsi_atom), cmp_atom);
		}
	}
	if (failed) {
		dsi_selector_release(to, dst);
		return -1;
	}
	return 0;
}

/* ---- String() ---------------------------------------------------------------------- */

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* Requirement.String (apimachinery pkg/labels/selector.go) */
void dsi_requirement_string(const dsi_atoms *atoms, const dsi_requirement *r, dsi_strbuf *out)
{
	if (r->op == DSI_SEL_DOES_NOT_EXIST)
		dsi_strbuf_putc(out, '!');
	dsi_strbuf_append(out, dsi_atom_str(atoms, r->key), dsi_atom_len(atoms, r->key));
	const char *sep;
	switch (r->op) {
	case DSI_SEL_EQUALS: sep = "="; break;
	case DSI_SEL_DOUBLE_EQUALS: sep = "=="; break;
	case DSI_SEL_NOT_EQUALS: sep = "!="; break;
	case DSI_SEL_IN: sep = " in "; break;
	case DSI_SEL_NOT_IN: sep = " notin "; break;
	case DSI_SEL_GT: sep = ">"; break;
	case DSI_SEL_LT: sep = "<"; break;
	default: return; /* Exists, DoesNotExist */
	}
	dsi_strbuf_puts(out, sep);
	int set = r->op == DSI_SEL_IN || r->op == DSI_SEL_NOT_IN;
	if (set)
		dsi_strbuf_putc(out, '(');
	if (r->nvalues == 1) {
		dsi_strbuf_append(out, dsi_atom_str(atoms, r->value1), dsi_atom_len(atoms, r->value1));
	} else if (r->nvalues > 1) {
		/* safeSort: values in string order */
		const char **v = dsi_calloc(r->nvalues, sizeof(char *));
		if (!v) {
			out->oom = 1;
			return;
		}
		for (uint32_t i = 0; i < r->nvalues; i++)
			v[i] = dsi_atom_str(atoms, r->values[i]);
		qsort(v, r->nvalues, sizeof(char *), cmp_cstr);
		for (uint32_t i = 0; i < r->nvalues; i++) {
			if (i)
				dsi_strbuf_putc(out, ',');
			dsi_strbuf_puts(out, v[i]);
		}
		dsi_free(v);
	}
	if (set)
		dsi_strbuf_putc(out, ')');
}

/* internalSelector.String (apimachinery pkg/labels/selector.go) */
void dsi_selector_string(const dsi_atoms *atoms, const dsi_selector *s, dsi_strbuf *out)
{
	if (!out->data)
		dsi_strbuf_append(out, "", 0);
	if (s->kind != DSI_SELECTOR_REQS)
		return;
	for (uint32_t i = 0; i < s->n; i++) {
		if (i)
			dsi_strbuf_putc(out, ',');
		dsi_requirement_string(atoms, &s->reqs[i], out);
	}
}

/* ---- LabelSelector ---------------------------------------------------------------- */

static int read_expression(dsi_rd *rd, dsi_atoms *atoms, const json_t *e, dsi_requirement *out)
{
	const char *key = "", *opname = "";
	size_t klen = 0, oplen = 0;
	json_t *vals = NULL;
	if (e && !json_is_null(e)) { /* a null element decodes as the zero LabelSelectorRequirement */
		int rc = dsi_rd_expect_object(rd, e);
		if (rc < 0)
			return rc;
		json_t *k = json_object_get(e, "key"), *o = json_object_get(e, "operator");
		if (k && !json_is_null(k)) {
			if (!json_is_string(k))
				return dsi_rd_fail(rd, "key", DS_ETYPE, "expected string, got %s",
						   dsi_json_type_name(k));
			key = json_string_value(k);
			klen = json_string_length(k);
		}
		if (o && !json_is_null(o)) {
			if (!json_is_string(o))
				return dsi_rd_fail(rd, "operator", DS_ETYPE, "expected string, got %s",
						   dsi_json_type_name(o));
			opname = json_string_value(o);
			oplen = json_string_length(o);
		}
		if ((rc = dsi_rd_array(rd, e, "values", &vals)) < 0)
			return rc;
	}
	static const struct {
		const char *name;
		dsi_selector_op op;
	} ops[] = {{"In", DSI_SEL_IN},
		   {"NotIn", DSI_SEL_NOT_IN},
		   {"Exists", DSI_SEL_EXISTS},
		   {"DoesNotExist", DSI_SEL_DOES_NOT_EXIST}};
	size_t k;
	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (strlen(ops[k].name) == oplen && memcmp(ops[k].name, opname, oplen) == 0)
			break;
	if (k == sizeof(ops) / sizeof(ops[0])) {
		dsi_strbuf m = DSI_STRBUF_INIT;
		dsi_go_quote(&m, opname, oplen);
		dsi_strbuf_puts(&m, " is not a valid label selector operator");
		int rc = m.oom ? dsi_error_nomem(rd->err) : dsi_rd_fail(rd, "operator", DS_EVALUE, "%s", m.data);
		dsi_strbuf_free(&m);
		return rc;
	}
	size_t n = vals ? json_array_size(vals) : 0;
	const char **v = dsi_calloc(n ? n : 1, sizeof(char *));
	size_t *lens = dsi_calloc(n ? n : 1, sizeof(size_t));
	if (!v || !lens) {
		dsi_free(v);
		dsi_free(lens);
		return dsi_error_nomem(rd->err);
	}
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *x = json_array_get(vals, i);
		if (json_is_null(x)) { /* null decodes as "" */
			v[i] = "";
		} else if (json_is_string(x)) {
			v[i] = json_string_value(x);
			lens[i] = json_string_length(x);
		} else {
			size_t m1 = dsi_rd_push(rd, "values");
			dsi_rd_push_index(rd, i);
			rc = dsi_rd_fail(rd, NULL, DS_ETYPE, "expected string, got %s", dsi_json_type_name(x));
			dsi_rd_pop(rd, m1);
			break;
		}
	}
	if (rc == 0) {
		/* append([]string(nil), expr.Values...) is nil when there are no values */
		dsi_req_errs errs;
		rc = dsi_req_build(atoms, NULL, key, klen, ops[k].op, v, lens, n, 1, &errs, out);
		if (rc < 0)
			rc = dsi_req_fail(rd, &errs, rc, 1, NULL);
		dsi_req_errs_free(&errs);
	}
	dsi_free(v);
	dsi_free(lens);
	return rc;
}

typedef struct mkey {
	const char *key;
	size_t len;
	json_t *value;
} mkey;

static int cmp_mkey(const void *a, const void *b)
{
	const mkey *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->key, y->key, n);
	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

/* LabelSelectorAsSelector (apimachinery pkg/apis/meta/v1/helpers.go) */
int dsi_selector_from_json(dsi_rd *rd, dsi_atoms *atoms, const json_t *sel, dsi_selector *out)
{
	memset(out, 0, sizeof(*out));
	if (!sel || json_is_null(sel))
		return 0; /* labels.Nothing() */
	int rc = dsi_rd_expect_object(rd, sel);
	if (rc < 0)
		return rc;
	json_t *ml, *me;
	if ((rc = dsi_rd_object(rd, sel, "matchLabels", &ml)) < 0 ||
	    (rc = dsi_rd_array(rd, sel, "matchExpressions", &me)) < 0)
		return rc;
	size_t nl = ml ? json_object_size(ml) : 0, ne = me ? json_array_size(me) : 0;
	if (nl + ne == 0) {
		out->kind = DSI_SELECTOR_REQS; /* labels.Everything() */
		return 0;
	}
	if (nl + ne > UINT32_MAX)
		return dsi_rd_fail(rd, NULL, DS_ELIMIT, "too many requirements");
	dsi_requirement *reqs = dsi_calloc(nl + ne, sizeof(dsi_requirement));
	mkey *keys = dsi_calloc(nl ? nl : 1, sizeof(mkey));
	if (!reqs || !keys) {
		dsi_free(reqs);
		dsi_free(keys);
		return dsi_error_nomem(rd->err);
	}
	uint32_t cnt = 0;
	if (nl) {
		/* upstream ranges over a Go map (random order): take key order */
		const char *k;
		size_t klen, i = 0;
		json_t *v;
		json_object_keylen_foreach(ml, k, klen, v)
		{
			keys[i].key = k;
			keys[i].len = klen;
			keys[i].value = v;
			i++;
		}
		qsort(keys, nl, sizeof(mkey), cmp_mkey);
		size_t m1 = dsi_rd_push(rd, "matchLabels");
		for (i = 0; i < nl && rc == 0; i++) {
			const char *val = "";
			size_t vlen = 0;
			json_t *v2 = keys[i].value;
			char kz[DS_ERROR_PATH_MAX];
			snprintf(kz, sizeof(kz), "%.*s", (int)(keys[i].len < sizeof(kz) ? keys[i].len : sizeof(kz) - 1),
				 keys[i].key);
			if (json_is_string(v2)) {
				val = json_string_value(v2);
				vlen = json_string_length(v2);
			} else if (!json_is_null(v2)) {
				rc = dsi_rd_fail(rd, kz, DS_ETYPE, "expected string, got %s", dsi_json_type_name(v2));
				break;
			}
			dsi_req_errs errs;
			rc = dsi_req_build(atoms, NULL, keys[i].key, keys[i].len, DSI_SEL_EQUALS, &val, &vlen, 1, 0,
					   &errs, &reqs[cnt]);
			if (rc < 0) {
				size_t m2 = dsi_rd_push(rd, kz);
				rc = dsi_req_fail(rd, &errs, rc, 0, NULL);
				dsi_rd_pop(rd, m2);
			} else {
				cnt++;
			}
			dsi_req_errs_free(&errs);
		}
		dsi_rd_pop(rd, m1);
	}
	dsi_free(keys);
	if (rc == 0 && ne) {
		size_t m1 = dsi_rd_push(rd, "matchExpressions");
		for (size_t i = 0; i < ne && rc == 0; i++) {
			size_t m2 = dsi_rd_push_index(rd, i);
			rc = read_expression(rd, atoms, json_array_get(me, i), &reqs[cnt]);
			if (rc == 0)
				cnt++;
			dsi_rd_pop(rd, m2);
		}
		dsi_rd_pop(rd, m1);
	}
	if (rc < 0) {
		for (uint32_t i = 0; i < cnt; i++)
			dsi_requirement_release(atoms, &reqs[i]);
		dsi_free(reqs);
		return rc;
	}
	return dsi_selector_build(rd, atoms, reqs, cnt, out);
}

int dsi_selector_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_selector *out)
{
	json_t *v = obj ? json_object_get(obj, key) : NULL;
	memset(out, 0, sizeof(*out));
	if (!v || json_is_null(v))
		return 0;
	size_t mark = dsi_rd_push(rd, key);
	int rc = dsi_selector_from_json(rd, atoms, v, out);
	dsi_rd_pop(rd, mark);
	return rc;
}
