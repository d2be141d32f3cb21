#include "model/nodeselector.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "model/labelvalid.h"

static void term_release(dsi_atoms *atoms, dsi_ns_term *t)
{
	for (uint32_t i = 0; i < t->nexprs; i++)
		dsi_requirement_release(atoms, &t->exprs[i]);
	for (uint32_t i = 0; i < t->nfields; i++)
		dsi_atom_unref(atoms, t->fields[i].value);
	dsi_free(t->exprs);
	dsi_free(t->fields);
	dsi_free(t->error);
	memset(t, 0, sizeof(*t));
}

void dsi_node_selector_release(dsi_atoms *atoms, dsi_node_selector *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		term_release(atoms, &s->terms[i]);
	dsi_free(s->terms);
	memset(s, 0, sizeof(*s));
}

/* Record the first parse error of a term (its whole field.Error text); the term is then never matched. */
static int term_error(dsi_rd *rd, dsi_ns_term *t, const char *text)
{
	t->invalid = 1;
	if (!t->error) {
		t->error = dsi_strdup(text);
		if (!t->error)
			return dsi_error_nomem(rd->err);
	}
	return 0;
}

/* The same for an error at rd's path: "<path>: <msg>", whole (it is a result, not a ds_error). */
static int term_invalid(dsi_rd *rd, dsi_ns_term *t, const char *msg)
{
	char *text = dsi_format("%s: %s", rd->path, msg);
	int rc = text ? term_error(rd, t, text) : dsi_error_nomem(rd->err);
	dsi_free(text);
	return rc;
}

/* Values of a requirement: a string array; wrong types are real errors. */
static int read_values(dsi_rd *rd, const json_t *req, const char ***vals, size_t *n)
{
	json_t *arr;
	*vals = NULL;
	*n = 0;
	int rc = dsi_rd_array(rd, req, "values", &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	*vals = dsi_calloc(json_array_size(arr), sizeof(char *));
	if (!*vals)
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, "values"), i;
	json_t *v;
	json_array_foreach(arr, i, v)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		rc = dsi_rd_expect_string(rd, v, &(*vals)[i]);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
	}
	dsi_rd_pop(rd, m);
	*n = json_array_size(arr);
	if (rc < 0) {
		dsi_free(*vals);
		*vals = NULL;
	}
	return rc;
}

/* nodeSelectorRequirementsAsSelector (component-helpers nodeaffinity.go): one of matchExpressions */
static int expr_requirement(dsi_rd *rd, dsi_atoms *atoms, const json_t *e, const char *key, const char *op,
			    const char **vals, size_t nvals, dsi_ns_term *t)
{
	static const struct {
		const char *name;
		dsi_selector_op op;
	} ops[] = {{"In", DSI_SEL_IN},         {"NotIn", DSI_SEL_NOT_IN},
		   {"Exists", DSI_SEL_EXISTS}, {"DoesNotExist", DSI_SEL_DOES_NOT_EXIST},
		   {"Gt", DSI_SEL_GT},         {"Lt", DSI_SEL_LT}};
	int rc = 0;
	size_t k;
	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (op && strcmp(op, ops[k].name) == 0)
			break;
	if (k == sizeof(ops) / sizeof(ops[0])) {
		size_t m3 = dsi_rd_push(rd, "operator");
		char *msg = dsi_format("Unsupported value: \"%s\": supported values: \"In\", \"NotIn\", \"Exists\", "
				       "\"DoesNotExist\", \"Gt\", \"Lt\"",
				       op ? op : "");
		rc = msg ? term_invalid(rd, t, msg) : dsi_error_nomem(rd->err);
		dsi_free(msg);
		dsi_rd_pop(rd, m3);
	} else {
		/* labels.NewRequirement(..., field.WithPath(p)): every error names "<p>.key",
		 * "<p>.values[0]" ...; built here rather than through a ds_error, whose
		 * message buffer would cut the longer texts */
		size_t *lens = dsi_calloc(nvals ? nvals : 1, sizeof(size_t));
		dsi_req_errs errs;
		memset(&errs, 0, sizeof(errs));
		int r = DS_ENOMEM;
		if (lens) {
			for (size_t v = 0; v < nvals; v++)
				lens[v] = strlen(vals[v]);
			r = dsi_req_build(atoms, rd->path, key ? key : "", key ? strlen(key) : 0, ops[k].op, vals, lens,
					  nvals, !json_is_array(json_object_get(e, "values")), &errs,
					  &t->exprs[t->nexprs]);
		}
		if (r == DS_EVALUE) {
			dsi_strbuf msg = DSI_STRBUF_INIT;
			dsi_req_errs_message(&errs, &msg);
			r = msg.oom ? DS_ENOMEM : 0;
			if (!r)
				rc = term_error(rd, t, msg.data);
			dsi_strbuf_free(&msg);
		} else if (r == 0) {
			t->nexprs++;
		}
		if (r == DS_ENOMEM)
			rc = dsi_error_nomem(rd->err);
		dsi_req_errs_free(&errs);
		dsi_free(lens);
	}
	return rc;
}

/* nodeSelectorRequirementsAsFieldSelector (component-helpers nodeaffinity.go): one of matchFields */
static int field_requirement(dsi_rd *rd, dsi_atoms *atoms, const json_t *e, const char *key, const char *op,
			     const char **vals, size_t nvals, dsi_ns_term *t)
{
	int rc = 0;
	int in = op && strcmp(op, "In") == 0, notin = op && strcmp(op, "NotIn") == 0;
	if (!in && !notin) {
		size_t m3 = dsi_rd_push(rd, "operator");
		char *msg = dsi_format("Unsupported value: \"%s\": supported values: \"In\", \"NotIn\"", op ? op : "");
		rc = msg ? term_invalid(rd, t, msg) : dsi_error_nomem(rd->err);
		dsi_free(msg);
		dsi_rd_pop(rd, m3);
	} else if (nvals != 1) {
		/* field.Invalid(path, expr.Values, ...): the values as json.Marshal prints them */
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_strbuf_puts(&b, "Invalid value: ");
		if (!json_is_array(json_object_get(e, "values"))) {
			dsi_strbuf_puts(&b, "null");
		} else {
			dsi_strbuf_putc(&b, '[');
			for (size_t v = 0; v < nvals; v++) {
				if (v)
					dsi_strbuf_putc(&b, ',');
				dsi_go_json_string(&b, vals[v], strlen(vals[v]));
			}
			dsi_strbuf_putc(&b, ']');
		}
		dsi_strbuf_puts(&b, ": must have one element");
		size_t m3 = dsi_rd_push(rd, "values");
		rc = b.oom ? dsi_error_nomem(rd->err) : term_invalid(rd, t, b.data);
		dsi_rd_pop(rd, m3);
		dsi_strbuf_free(&b);
	} else {
		dsi_field_req *f = &t->fields[t->nfields];
		f->is_name = key && strcmp(key, "metadata.name") == 0;
		f->not_in = (uint8_t)notin;
		f->value = dsi_atom_intern_cstr(atoms, vals[0]);
		if (f->value == DSI_ATOM_ERROR) {
			f->value = DSI_ATOM_NONE;
			rc = dsi_error_nomem(rd->err);
		} else {
			t->nfields++;
		}
	}
	return rc;
}

/* A term's matchExpressions (fields 0) or matchFields (fields 1): both lists hold NodeSelectorRequirements,
 * whose key, operator and values are read here and judged by the list's own rules. */
static int read_requirements(dsi_rd *rd, dsi_atoms *atoms, const json_t *term, int fields, dsi_ns_term *t)
{
	const char *member = fields ? "matchFields" : "matchExpressions";
	json_t *arr;
	int rc = dsi_rd_array(rd, term, member, &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	if (fields)
		t->fields = dsi_calloc(json_array_size(arr), sizeof(dsi_field_req));
	else
		t->exprs = dsi_calloc(json_array_size(arr), sizeof(dsi_requirement));
	if (fields ? !t->fields : !t->exprs)
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, member), i;
	json_t *e;
	json_array_foreach(arr, i, e)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		const char *key, *op;
		const char **vals = NULL;
		size_t nvals = 0;
		if ((rc = dsi_rd_expect_object(rd, e)) == 0 && (rc = dsi_rd_string(rd, e, "key", &key)) == 0 &&
		    (rc = dsi_rd_string(rd, e, "operator", &op)) == 0 && (rc = read_values(rd, e, &vals, &nvals)) == 0)
			rc = (fields ? field_requirement : expr_requirement)(rd, atoms, e, key, op, vals, nvals, t);
		dsi_free(vals);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

static int by_key_atom(const void *x, const void *y, void *ctx)
{
	(void)ctx;
	dsi_atom a = ((const dsi_requirement *)x)->key, b = ((const dsi_requirement *)y)->key;
	return a < b ? -1 : a > b;
}

static int read_term(dsi_rd *rd, dsi_atoms *atoms, const json_t *term, dsi_ns_term *t)
{
	int rc = dsi_rd_expect_object(rd, term);
	if (rc < 0)
		return rc;
	json_t *exprs = json_object_get(term, "matchExpressions"), *fields = json_object_get(term, "matchFields");
	if ((rc = read_requirements(rd, atoms, term, 0, t)) < 0 || (rc = read_requirements(rd, atoms, term, 1, t)) < 0)
		return rc;
	/* the expressions are ANDed, so their order only matters to speed: sorted by key
	 * atom, as node labels are, a term is matched in one merge pass (dsi_term_matches) */
	dsi_sort_stable(t->exprs, t->nexprs, sizeof(dsi_requirement), by_key_atom, NULL);
	/* a term with neither kind of requirement is dropped (matches nothing, no error) */
	t->empty = json_array_size(exprs) == 0 && json_array_size(fields) == 0;
	return 0;
}

int dsi_node_selector_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_node_selector *out)
{
	memset(out, 0, sizeof(*out));
	json_t *sel;
	int rc = dsi_rd_object(rd, obj, key, &sel);
	if (rc < 0 || !sel)
		return rc;
	size_t m = dsi_rd_push(rd, key);
	rc = dsi_node_selector_read_value(rd, atoms, sel, out);
	dsi_rd_pop(rd, m);
	return rc;
}

int dsi_node_selector_read_value(dsi_rd *rd, dsi_atoms *atoms, const json_t *sel, dsi_node_selector *out)
{
	memset(out, 0, sizeof(*out));
	int rc = dsi_rd_expect_object(rd, sel);
	if (rc < 0)
		return rc;
	out->present = 1;
	json_t *terms;
	if ((rc = dsi_rd_array(rd, sel, "nodeSelectorTerms", &terms)) < 0 || !terms || !json_array_size(terms))
		goto done;
	out->terms = dsi_calloc(json_array_size(terms), sizeof(dsi_ns_term));
	if (!out->terms) {
		rc = dsi_error_nomem(rd->err);
		goto done;
	}
	size_t m2 = dsi_rd_push(rd, "nodeSelectorTerms"), i;
	json_t *term;
	json_array_foreach(terms, i, term)
	{
		size_t m3 = dsi_rd_push_index(rd, i);
		rc = read_term(rd, atoms, term, &out->terms[out->n]);
		out->n++;
		dsi_rd_pop(rd, m3);
		if (rc < 0)
			break;
	}
	dsi_rd_pop(rd, m2);
done:
	if (rc < 0)
		dsi_node_selector_release(atoms, out);
	return rc;
}

int dsi_preferred_terms_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_node_selector *out)
{
	memset(out, 0, sizeof(*out));
	json_t *arr;
	int rc = dsi_rd_array(rd, obj, key, &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	out->present = 1;
	out->terms = dsi_calloc(json_array_size(arr), sizeof(dsi_ns_term));
	if (!out->terms)
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, key), i;
	json_t *e;
	json_array_foreach(arr, i, e)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		json_t *pref;
		dsi_ns_term *t = &out->terms[out->n++];
		if ((rc = dsi_rd_expect_object(rd, e)) < 0 ||
		    (rc = dsi_rd_int32(rd, e, "weight", &t->weight, NULL)) < 0 ||
		    (rc = dsi_rd_object(rd, e, "preference", &pref)) < 0) {
			dsi_rd_pop(rd, m2);
			break;
		}
		if (pref) {
			size_t m3 = dsi_rd_push(rd, "preference");
			rc = read_term(rd, atoms, pref, t);
			dsi_rd_pop(rd, m3);
		} else {
			t->empty = 1;
		}
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
	}
	dsi_rd_pop(rd, m);
	if (rc < 0)
		dsi_node_selector_release(atoms, out);
	return rc;
}
