/*
 * Label selectors (apimachinery pkg/labels/selector.go) on interned label
 * sets: requirements built and validated as labels.NewRequirement does,
 * LabelSelectorAsSelector (metav1 helpers.go), the string syntax of
 * labels.Parse, and Selector.String().
 *
 * Matching compares atom ids only: no string comparison and no allocation.
 * The selector and the label sets must use the same dsi_atoms table.
 */
#ifndef DSI_SELECTOR_H
#define DSI_SELECTOR_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/reader.h"
#include "core/strbuf.h"
#include "model/labels.h"

typedef enum dsi_selector_op {
	DSI_SEL_IN,
	DSI_SEL_NOT_IN,
	DSI_SEL_EXISTS,
	DSI_SEL_DOES_NOT_EXIST,
	DSI_SEL_EQUALS,
	DSI_SEL_NOT_EQUALS,
	DSI_SEL_GT,
	DSI_SEL_LT,
	DSI_SEL_DOUBLE_EQUALS, /* "==" in the string syntax: matches as Equals, prints as "==" */
} dsi_selector_op;

typedef struct dsi_requirement {
	dsi_atom key;
	uint8_t op;       /* dsi_selector_op */
	uint32_t nvalues; /* duplicates kept, as upstream keeps them */
	dsi_atom value1;  /* the value when nvalues == 1 */
	dsi_atom *values; /* nvalues > 1: sorted by atom id; NULL otherwise */
	int64_t ival;     /* Gt / Lt: the value as an integer */
} dsi_requirement;

enum {
	DSI_SELECTOR_NOTHING = 0, /* labels.Nothing(): matches no label set (also a zeroed struct) */
	DSI_SELECTOR_REQS = 1,    /* requirements ANDed; none: labels.Everything() */
};

typedef struct dsi_selector {
	dsi_requirement *reqs; /* sorted by key, bytewise; equal keys keep their order */
	uint32_t n;
	uint8_t kind; /* DSI_SELECTOR_* */
} dsi_selector;

/*
 * labels.NewRequirement. values may be NULL only when nvalues is 0; NULL is
 * Go's nil slice and prints as "null" in messages, a non-NULL empty list as
 * "[]". On failure: DS_EVALUE with upstream's error text (all problems,
 * aggregated as upstream: "[a, b]" when several) and err->path set to rd's
 * path extended by the first problem's field ("key", "values", "values[1]").
 */
int dsi_requirement_init(dsi_rd *rd, dsi_atoms *atoms, const char *key, dsi_selector_op op, const char *const *values,
			 size_t nvalues, dsi_requirement *out);
/* The same with upstream's field.Path for the requirement (field.WithPath):
 * field_path is its rendering, e.g. "nodeSelectorTerms[0].matchExpressions[1]"
 * (component-helpers passes one), and prefixes each field in the message.
 * NULL: no path, as labels.Parse and LabelSelectorAsSelector call it. */
int dsi_requirement_init_at(dsi_rd *rd, dsi_atoms *atoms, const char *field_path, const char *key, dsi_selector_op op,
			    const char *const *values, size_t nvalues, dsi_requirement *out);
/* Requirement.Matches */
int dsi_requirement_matches(const dsi_atoms *atoms, const dsi_requirement *r, const dsi_labels *labels);

/* Whether r's values hold v (values of more than one are sorted by atom id). */
static inline int dsi_requirement_has_value(const dsi_requirement *r, dsi_atom v)
{
	if (r->nvalues == 1)
		return r->value1 == v;
	const dsi_atom *a = r->values;
	uint32_t lo = 0, hi = r->nvalues;
	if (hi <= 8) {
		for (uint32_t i = 0; i < hi; i++)
			if (a[i] == v)
				return 1;
		return 0;
	}
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nvalues && a[lo] == v;
}

int dsi_requirement_matches_slow(const dsi_atoms *atoms, const dsi_requirement *r, dsi_atom v);

/* The same, given the value of r's key in the label set (DSI_ATOM_NONE when
 * absent): inline for the common operators, which placement evaluates per node. */
static inline int dsi_requirement_matches_value(const dsi_atoms *atoms, const dsi_requirement *r, dsi_atom v)
{
	switch (r->op) {
	case DSI_SEL_NOT_IN:
	case DSI_SEL_NOT_EQUALS: return v == DSI_ATOM_NONE || !dsi_requirement_has_value(r, v);
	case DSI_SEL_IN:
	case DSI_SEL_EQUALS:
	case DSI_SEL_DOUBLE_EQUALS: return v != DSI_ATOM_NONE && dsi_requirement_has_value(r, v);
	case DSI_SEL_EXISTS: return v != DSI_ATOM_NONE;
	case DSI_SEL_DOES_NOT_EXIST: return v == DSI_ATOM_NONE;
	default: return dsi_requirement_matches_slow(atoms, r, v);
	}
}
/* The same with the requirement's strings in table ra and the label value v in table va (objects
 * parsed apart: ds_object): v is looked up in ra for the set operators, read as an integer in va
 * for Gt and Lt. */
static inline int dsi_requirement_matches_value_x(const dsi_atoms *ra, const dsi_requirement *r, const dsi_atoms *va,
						  dsi_atom v)
{
	if (ra == va)
		return dsi_requirement_matches_value(ra, r, v);
	if (r->op == DSI_SEL_GT || r->op == DSI_SEL_LT)
		return dsi_requirement_matches_slow(va, r, v);
	return dsi_requirement_matches_value(ra, r, dsi_atom_rebase(va, v, ra));
}
void dsi_requirement_release(dsi_atoms *atoms, dsi_requirement *r);
int dsi_requirement_copy(dsi_atoms *atoms, const dsi_requirement *src, dsi_requirement *dst);
/* Requirement.String: "k in (a,b)", "!k", "k>3", ... appended to out. */
void dsi_requirement_string(const dsi_atoms *atoms, const dsi_requirement *r, dsi_strbuf *out);

/* A LabelSelector member of obj (spec.selector, podSelector): absent or null
 * is a nil *LabelSelector, i.e. Nothing. */
int dsi_selector_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_selector *out);
/* LabelSelectorAsSelector (metav1 helpers.go) on a LabelSelector value (NULL
 * or null: Nothing; {}: Everything). Wrong JSON types are DS_ETYPE; an
 * unknown operator is DS_EVALUE at "matchExpressions[i].operator"; invalid
 * requirements are DS_EVALUE with upstream's text. matchLabels are checked in
 * key order (upstream's map order is random). */
int dsi_selector_from_json(dsi_rd *rd, dsi_atoms *atoms, const json_t *sel, dsi_selector *out);
/* labels.Parse: "" is Everything. DS_EVALUE with upstream's text at rd's path. */
int dsi_selector_parse(dsi_rd *rd, dsi_atoms *atoms, const char *text, dsi_selector *out);

int dsi_selector_matches(const dsi_atoms *atoms, const dsi_selector *s, const dsi_labels *labels);
/* Empty(): a selector with no requirement (not Nothing). */
int dsi_selector_is_everything(const dsi_selector *s);
int dsi_selector_is_nothing(const dsi_selector *s);
int dsi_selector_copy(dsi_atoms *atoms, const dsi_selector *src, dsi_selector *dst);
/* The same from table from into table to. */
int dsi_selector_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_selector *src, dsi_selector *dst);
void dsi_selector_release(dsi_atoms *atoms, dsi_selector *s);
/* Selector.String(): requirements joined by ","; "" for Everything and Nothing. */
void dsi_selector_string(const dsi_atoms *atoms, const dsi_selector *s, dsi_strbuf *out);

/* ---- shared by the selector parsers (selector.c, selector_parse.c, nodeselector.c) ---- */

/* Take ownership of reqs[0..n) and sort them (ByKey, kept stable). Frees
 * reqs on failure. */
int dsi_selector_build(dsi_rd *rd, dsi_atoms *atoms, dsi_requirement *reqs, uint32_t n, dsi_selector *out);

/* Where the first problem of a requirement lies. */
enum { DSI_REQ_AT_KEY, DSI_REQ_AT_OPERATOR, DSI_REQ_AT_VALUES, DSI_REQ_AT_VALUE };

/* The distinct field errors of one NewRequirement call, in upstream's order. */
typedef struct dsi_req_errs {
	char **msg;
	size_t n, cap;
	int first_where;    /* DSI_REQ_AT_* */
	size_t first_index; /* DSI_REQ_AT_VALUE: which value */
	int oom;
} dsi_req_errs;

/* NewRequirement on explicit lengths; nil: print an empty values list as
 * "null". Returns 0, DS_EVALUE (errs filled) or DS_ENOMEM. errs must be
 * released with dsi_req_errs_free in every case. */
int dsi_req_build(dsi_atoms *atoms, const char *field_path, const char *key, size_t klen, dsi_selector_op op,
		  const char *const *values, const size_t *vlens, size_t n, int nil, dsi_req_errs *errs,
		  dsi_requirement *out);
/* The aggregate's Error() text. */
void dsi_req_errs_message(const dsi_req_errs *e, dsi_strbuf *out);
/* Report a failed build at rd's path (plus the first problem's field when
 * subpaths), message prefixed by prefix (may be NULL). Returns rc. */
int dsi_req_fail(dsi_rd *rd, const dsi_req_errs *e, int rc, int subpaths, const char *prefix);
void dsi_req_errs_free(dsi_req_errs *e);

#endif
