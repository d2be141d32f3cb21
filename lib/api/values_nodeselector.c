/* The public ABI for node selectors (include/daemonset/values.h): a core/v1 NodeSelector against a Node. */
#include <string.h>

#include "core/atoms.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/load.h"
#include "core/reader.h"
#include "core/strbuf.h"
#include "daemonset.h"
#include "model/meta.h"
#include "model/node.h"
#include "model/nodeselector.h"
#include "api/lookup.h"
#include "sched/nodeaffinity.h"

static const char *json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	default: return "an object";
	}
}

/* The NodeSelector text, read by the model (lib/model/nodeselector.c): wrong types are errors, invalid
 * requirements only mark their term invalid. */
static int load_node_selector(const char *text, size_t size, dsi_atoms *atoms, dsi_node_selector *out, ds_error *err)
{
	memset(out, 0, sizeof(*out));
	dsi_limits lim;
	dsi_limits_default(&lim);
	json_t *v = NULL;
	int rc = dsi_parse_one(text, size, &lim, &v, err);
	if (rc == 0 && !json_is_object(v))
		rc = dsi_error_set(err, DS_ETYPE, "",
				   "expected a NodeSelector object ({\"nodeSelectorTerms\": [...]}), "
				   "got %s",
				   json_kind(v));
	if (rc == 0) {
		/* paths from the selector itself ("nodeSelectorTerms[0]..."), as NewLazyErrorNodeSelector
		 * without a path option names them */
		dsi_rd rd;
		dsi_rd_init(&rd, err);
		rc = dsi_node_selector_read_value(&rd, atoms, v, out);
	}
	json_decref(v);
	if (rc < 0)
		dsi_error_set_source(err, "node_selector");
	return rc;
}

/* The Node text: only metadata counts (name for matchFields, labels for matchExpressions). A nameless node
 * is allowed, as upstream; "null" is a nil *v1.Node (*present 0). */
static int load_node(const char *text, size_t size, dsi_atoms *atoms, dsi_node *out, int *present, ds_error *err)
{
	memset(out, 0, sizeof(*out));
	*present = 0;
	dsi_limits lim;
	dsi_limits_default(&lim);
	json_t *v = NULL;
	int rc = dsi_parse_one(text, size, &lim, &v, err);
	if (rc == DS_EMISSING) { /* no document: a nil node */
		ds_error_clear(err);
		rc = 0;
	}
	if (rc == 0 && v && !json_is_null(v)) {
		dsi_rd rd;
		dsi_rd_init(&rd, err);
		if ((rc = dsi_rd_expect_object(&rd, v)) == 0 && (rc = dsi_meta_read(&rd, atoms, v, 0, &out->meta)) == 0)
			*present = 1;
	}
	json_decref(v);
	if (rc < 0)
		dsi_error_set_source(err, "node");
	return rc;
}

/* A term's error text, flattened into the aggregate (errors.Flatten): one requirement's several
 * errors come as "[e1, e2]", whose brackets are dropped. */
static void put_flat(dsi_strbuf *b, const char *text)
{
	size_t n = strlen(text);
	if (text[0] == '[' && n >= 2 && text[n - 1] == ']')
		dsi_strbuf_append(b, text + 1, n - 2);
	else
		dsi_strbuf_puts(b, text);
}

/*
 * LazyErrorNodeSelector.Match when no term matched (component-helpers
 * nodeaffinity.go): the parse errors of the invalid terms, flattened into one
 * aggregate (errors.NewAggregate: one error is its own text, several are
 * "[e1, e2]"). The library keeps the first error of each term. 0 when no term
 * is invalid (a plain "no match").
 */
int dsi_api_node_selector_errors(const dsi_node_selector *s, ds_error *err)
{
	dsi_strbuf all = DSI_STRBUF_INIT;
	size_t elements = 0;
	const char *first = NULL;
	for (uint32_t i = 0; i < s->n; i++) {
		const dsi_ns_term *t = &s->terms[i];
		if (!t->invalid || !t->error)
			continue;
		if (!first)
			first = t->error;
		if (elements)
			dsi_strbuf_puts(&all, ", ");
		put_flat(&all, t->error);
		/* an aggregate (one requirement's several errors) counts as several */
		elements += t->error[0] == '[' ? 2 : 1;
	}
	if (!first)
		return 0;
	if (all.oom) {
		dsi_strbuf_free(&all);
		return dsi_error_nomem(err);
	}
	/* the path of the first error: its text up to ": " */
	char path[DS_ERROR_PATH_MAX];
	const char *p = first[0] == '[' ? first + 1 : first;
	const char *colon = strstr(p, ": ");
	size_t plen = colon ? (size_t)(colon - p) : 0;
	if (plen >= sizeof(path))
		plen = sizeof(path) - 1;
	memcpy(path, p, plen);
	path[plen] = '\0';
	int rc = dsi_error_set(err, DS_EVALUE, path, elements > 1 ? "[%s]" : "%s", all.data ? all.data : "");
	dsi_error_set_source(err, "node_selector");
	dsi_strbuf_free(&all);
	return rc;
}

/* MatchNodeSelectorTerms (component-helpers scheduling/corev1/helpers.go): the lazy NodeSelector's Match */
int ds_node_selector_match(const char *node_selector, size_t selector_size, const char *node, size_t node_size,
			   int *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!out)
		return dsi_error_set(err, DS_EARG, NULL, "out is NULL");
	*out = 0;
	if (!node_selector)
		return dsi_error_set(err, DS_EARG, NULL, "node_selector is NULL");
	if (!node)
		return dsi_error_set(err, DS_EARG, NULL, "node is NULL");
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_node_selector sel;
	dsi_node n;
	memset(&n, 0, sizeof(n));
	int present = 0;
	int rc = load_node_selector(node_selector, selector_size, &atoms, &sel, err);
	if (rc == 0)
		rc = load_node(node, node_size, &atoms, &n, &present, err);
	/* a nil node matches nothing and reports nothing, as upstream */
	if (rc == 0 && present) {
		if (dsi_node_selector_matches(&atoms, &sel, &n))
			*out = 1;
		else
			rc = dsi_api_node_selector_errors(&sel, err);
	}
	dsi_node_release(&atoms, &n);
	dsi_node_selector_release(&atoms, &sel);
	dsi_atoms_free(&atoms);
	return rc;
}
