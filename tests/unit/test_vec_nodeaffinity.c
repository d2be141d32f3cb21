/*
 * component-helpers' node affinity tables, replayed against lib/model/nodeselector.h
 * and lib/sched/nodeaffinity.h: tests/vectors/upstream/nodeaffinity.json
 * (NodeSelector.Match, PreferredSchedulingTerms.Score, nodeSelectorRequirementsAsSelector,
 * RequiredNodeAffinity.Match, MatchNodeSelectorTerms).
 *
 * The library parses a selector once, lazily: a term with a parse error is
 * kept, marked invalid with the first error's text, and never matches. Upstream's
 * strict constructors (NewNodeSelector, NewPreferredSchedulingTerms) report
 * every error instead; their error rows are checked term by term: the terms
 * upstream names must be exactly the invalid ones, and each one's text must be
 * upstream's field.Error text of its first error (type, bad value, detail), at
 * the library's JSON path of the field.
 */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"
#include "harness.h"
#include "sched/nodeaffinity.h"
#include "vectors.h"

/* Cases that fail because of a library bug, with the reason. */
/* Cases that fail because of a library bug, with the reason (none today). */
static const vt_entry known[] = {
	{NULL, NULL},
};

/* Rows the C API cannot express. */
static const vt_entry skips[] = {
	{"NodeSelector: nil node", "a nil *v1.Node: the library's matchers take a node of the snapshot, never NULL"},
	{"MatchNodeSelectorTerms: nil terms", "a nil *v1.Node (and nil selector): no counterpart in the C API"},
	{NULL, NULL},
};

/* A node read by the library. Upstream's fixtures may have no name (fields are
 * then not matched at all): such a node is read under a stand-in name that is
 * then hidden, so the matcher sees a node without a name. */
typedef struct tnode {
	dsi_node n;
	dsi_atom hidden;
} tnode;

static char *node_read(dsi_atoms *atoms, const json_t *obj, tnode *out)
{
	memset(out, 0, sizeof(*out));
	int unnamed = !*vt_str(json_object_get(obj, "metadata"), "name");
	json_t *o = vt_with_meta(obj, "vt-unnamed-node", NULL, NULL);
	ds_error err;
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	int rc = dsi_node_read(&rd, atoms, o, &out->n);
	json_decref(o);
	if (rc < 0)
		return vt_fmt("the reader refused the node: %s: %s", err.path, err.message);
	if (unnamed) {
		out->hidden = out->n.meta.name;
		out->n.meta.name = DSI_ATOM_NONE;
	}
	return NULL;
}

static void node_release(dsi_atoms *atoms, tnode *t)
{
	if (t->hidden)
		t->n.meta.name = t->hidden;
	dsi_node_release(atoms, &t->n);
}

/* A NodeSelector (required) or a []PreferredSchedulingTerm read by the library. */
static char *selector_read(dsi_atoms *atoms, const json_t *value, int preferred, dsi_node_selector *out)
{
	ds_error err;
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	json_t *w = json_pack("{s:O}", "x", value);
	int rc = preferred ? dsi_preferred_terms_read(&rd, atoms, w, "x", out)
			   : dsi_node_selector_read(&rd, atoms, w, "x", out);
	json_decref(w);
	if (rc < 0)
		return vt_fmt("the reader refused the selector: %s: %s", err.path, err.message);
	return NULL;
}

/* Where upstream's field paths start, and how the library's paths (JSON paths
 * under the driver's wrapper member "x") spell the same field. */
enum {
	AT_SELECTOR,  /* NewNodeSelector: "nodeSelectorTerms[i]..." -> "x.nodeSelectorTerms[i]..." */
	AT_PREFERRED, /* NewPreferredSchedulingTerms: "[i].match..." -> "x[i].preference.match..." (upstream's
			 path skips the preference member; the library names it) */
	AT_ROOT,      /* nodeSelectorRequirementsAsSelector(path "root"): "root[j]..." -> the one term's
			 "x.nodeSelectorTerms[0].matchExpressions[j]..." */
};

/* The term an upstream field path belongs to, and the library's spelling of the path. */
static unsigned map_field(const char *field, int at, char *out, size_t size)
{
	const char *p = field;
	unsigned idx = 0;
	switch (at) {
	case AT_SELECTOR:
		ck_assert_msg(strncmp(field, "nodeSelectorTerms[", 18) == 0, "field %s", field);
		idx = (unsigned)strtoul(field + 18, NULL, 10);
		snprintf(out, size, "x.%s", field);
		break;
	case AT_PREFERRED:
		ck_assert_msg(field[0] == '[', "field %s", field);
		idx = (unsigned)strtoul(field + 1, (char **)&p, 10);
		ck_assert_msg(*p == ']', "field %s", field);
		snprintf(out, size, "x[%u].preference%s", idx, p + 1);
		break;
	default:
		ck_assert_msg(strncmp(field, "root", 4) == 0, "field %s", field);
		snprintf(out, size, "x.nodeSelectorTerms[0].matchExpressions%s", field + 4);
	}
	return idx;
}

/* field.Error.Error() of one of upstream's structured errors, at the library's path. */
static char *upstream_text(const json_t *e, const char *path)
{
	const char *type = vt_str(e, "type");
	const char *tt = strcmp(type, "Invalid") == 0        ? "Invalid value"
			 : strcmp(type, "NotSupported") == 0 ? "Unsupported value"
							     : NULL;
	ck_assert_msg(tt != NULL, "unhandled field error type %s", type);
	/* ErrorBody: strings %q, everything else json.Marshal */
	char *bad = vt_dump(json_object_get(e, "badValue"));
	char *detail;
	if (strcmp(type, "NotSupported") == 0) {
		/* field.NotSupported: "supported values: " + strconv.Quote of each, joined by ", " */
		detail = vt_fmt("supported values: ");
		size_t i;
		json_t *v;
		json_array_foreach(json_object_get(e, "supportedValues"), i, v)
		{
			char *q = vt_dump(v), *grown = vt_fmt("%s%s%s", detail, i ? ", " : "", q);
			free(q);
			free(detail);
			detail = grown;
		}
	} else {
		detail = vt_fmt("%s", vt_str(e, "detail"));
	}
	char *text = *detail ? vt_fmt("%s: %s: %s: %s", path, tt, bad, detail) : vt_fmt("%s: %s: %s", path, tt, bad);
	free(bad);
	free(detail);
	return text;
}

/* Append msg (taken) to the problems found so far in *acc. */
static void add_problem(char **acc, char *msg)
{
	if (!*acc) {
		*acc = msg;
		return;
	}
	char *both = vt_fmt("%s; %s", *acc, msg);
	free(*acc);
	free(msg);
	*acc = both;
}

/*
 * Upstream's field errors (in upstream order) against the library's invalid
 * terms: the terms upstream names must be exactly the invalid ones, and each
 * term's text must be the field.Error text of its first error (the library
 * keeps one error per term).
 */
static char *check_errors(const dsi_node_selector *s, const json_t *errors, int at)
{
	uint8_t named[64] = {0};
	size_t i;
	json_t *e;
	char *bad = NULL;
	json_array_foreach(errors, i, e)
	{
		char path[256];
		unsigned idx = map_field(vt_str(e, "field"), at, path, sizeof(path));
		ck_assert_uint_lt(idx, 64);
		if (named[idx])
			continue; /* not the term's first error */
		named[idx] = 1;
		if (idx >= s->n || !s->terms[idx].invalid) {
			add_problem(&bad, vt_fmt("term %u is valid for the library; upstream: %s: %s", idx,
						 vt_str(e, "field"), vt_str(e, "detail")));
			continue;
		}
		char *want = upstream_text(e, path);
		const char *got = s->terms[idx].error ? s->terms[idx].error : "";
		if (strcmp(got, want) != 0)
			add_problem(&bad, vt_fmt("term %u error \"%s\", upstream \"%s\"", idx, got, want));
		free(want);
	}
	for (uint32_t t = 0; t < s->n && t < 64; t++)
		if (s->terms[t].invalid && !named[t])
			add_problem(&bad,
				    vt_fmt("term %u is invalid for the library (%s); upstream reports no error for it",
					   t, s->terms[t].error ? s->terms[t].error : ""));
	return bad;
}

static char *expect_match(int got, const json_t *expect)
{
	int want = json_is_true(json_object_get(expect, "match"));
	return got == want ? NULL : vt_fmt("match = %d, upstream %d", got, want);
}

/* NewNodeSelector(strict) + Match, and the lazy MatchNodeSelectorTerms. */
static char *node_selector_match(const json_t *cs, int strict)
{
	const json_t *expect = json_object_get(cs, "expect");
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_node_selector s;
	memset(&s, 0, sizeof(s));
	tnode node;
	memset(&node, 0, sizeof(node));
	char *bad = selector_read(&atoms, json_object_get(cs, "nodeSelector"), 0, &s);
	if (!bad && json_object_get(expect, "errors")) {
		ck_assert(strict);
		bad = check_errors(&s, json_object_get(expect, "errors"), AT_SELECTOR);
	} else if (!bad) {
		for (uint32_t t = 0; strict && !bad && t < s.n; t++)
			if (s.terms[t].invalid)
				bad = vt_fmt("term %u is invalid for the library (%s); upstream parses it", t,
					     s.terms[t].error);
		if (!bad)
			bad = node_read(&atoms, json_object_get(cs, "node"), &node);
		if (!bad)
			bad = expect_match(dsi_node_selector_matches(&atoms, &s, &node.n), expect);
		node_release(&atoms, &node);
	}
	dsi_node_selector_release(&atoms, &s);
	dsi_atoms_free(&atoms);
	return bad;
}

/* NewPreferredSchedulingTerms + Score. Upstream's error rows have no node: the
 * library reports the parse error when scoring, so a bare node stands in. */
static char *preferred_score(const json_t *cs)
{
	const json_t *expect = json_object_get(cs, "expect");
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_node_selector s;
	memset(&s, 0, sizeof(s));
	tnode node;
	memset(&node, 0, sizeof(node));
	char *bad = selector_read(&atoms, json_object_get(cs, "preferredTerms"), 1, &s);
	const json_t *jn = json_object_get(cs, "node");
	json_t *stand_in = json_is_null(jn) ? json_pack("{s:s, s:s, s:{s:s}}", "apiVersion", "v1", "kind", "Node",
							"metadata", "name", "stand-in")
					    : NULL;
	if (!bad)
		bad = node_read(&atoms, stand_in ? stand_in : jn, &node);
	if (!bad) {
		int64_t score = dsi_preferred_score(&atoms, &s, &node.n);
		if (json_object_get(expect, "errors")) {
			if (score != -1)
				bad = vt_fmt("score %lld, upstream reports parse errors", (long long)score);
			else
				bad = check_errors(&s, json_object_get(expect, "errors"), AT_PREFERRED);
		} else {
			json_int_t want = json_integer_value(json_object_get(expect, "score"));
			if (score != want)
				bad = vt_fmt("score %lld, upstream %lld", (long long)score, (long long)want);
		}
	}
	node_release(&atoms, &node);
	json_decref(stand_in);
	dsi_node_selector_release(&atoms, &s);
	dsi_atoms_free(&atoms);
	return bad;
}

/* nodeSelectorRequirementsAsSelector through the library's term reader: a
 * term holding only these expressions; its requirements printed by
 * Selector.String() (sorted by key, as labels.NewSelector().Add keeps them). */
static char *requirements_as_selector(const json_t *cs)
{
	const json_t *expect = json_object_get(cs, "expect");
	ck_assert_str_eq(vt_str(cs, "path"), "root");
	json_t *sel = json_pack("{s:[{s:O}]}", "nodeSelectorTerms", "matchExpressions",
				json_object_get(cs, "matchExpressions"));
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_node_selector s;
	memset(&s, 0, sizeof(s));
	char *bad = selector_read(&atoms, sel, 0, &s);
	json_decref(sel);
	if (!bad) {
		ck_assert_uint_eq(s.n, 1);
		const dsi_ns_term *t = &s.terms[0];
		if (json_is_true(json_object_get(expect, "matchesNothing"))) {
			if (!t->empty || t->invalid || t->nexprs)
				bad = vt_fmt("the term is not labels.Nothing() (empty %d, invalid %d, %u requirements)",
					     t->empty, t->invalid, t->nexprs);
		} else if (json_object_get(expect, "errors")) {
			bad = check_errors(&s, json_object_get(expect, "errors"), AT_ROOT);
		} else if (t->invalid) {
			bad = vt_fmt("the library refuses it: %s", t->error);
		} else {
			dsi_requirement *reqs = dsi_calloc(t->nexprs, sizeof(*reqs));
			ck_assert_ptr_nonnull(reqs);
			for (uint32_t k = 0; k < t->nexprs; k++)
				ck_assert_int_eq(dsi_requirement_copy(&atoms, &t->exprs[k], &reqs[k]), 0);
			ds_error err;
			dsi_rd rd;
			dsi_rd_init(&rd, &err);
			dsi_selector built;
			ck_assert_int_eq(dsi_selector_build(&rd, &atoms, reqs, t->nexprs, &built), 0);
			dsi_strbuf b = DSI_STRBUF_INIT;
			dsi_selector_string(&atoms, &built, &b);
			const char *want = vt_str(expect, "selector");
			const char *got = b.data ? b.data : "";
			if (strcmp(got, want) != 0)
				bad = vt_fmt("selector \"%s\", upstream \"%s\"", got, want);
			dsi_strbuf_free(&b);
			dsi_selector_release(&atoms, &built);
		}
	}
	dsi_node_selector_release(&atoms, &s);
	dsi_atoms_free(&atoms);
	return bad;
}

/* GetRequiredNodeAffinity(pod).Match: the pod's nodeSelector and required terms. */
static char *required_affinity(const json_t *cs)
{
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_podspec spec;
	memset(&spec, 0, sizeof(spec));
	tnode node;
	memset(&node, 0, sizeof(node));
	ds_error err;
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	char *bad = NULL;
	const json_t *pod = json_object_get(cs, "pod");
	if (dsi_podspec_read(&rd, &atoms, json_object_get(pod, "spec"), DSI_PODSPEC_PLACEMENT, 0, &spec) < 0)
		bad = vt_fmt("the reader refused the pod spec: %s: %s", err.path, err.message);
	if (!bad)
		bad = node_read(&atoms, json_object_get(cs, "node"), &node);
	if (!bad)
		bad = expect_match(dsi_required_affinity_matches(&atoms, &spec, &node.n, NULL),
				   json_object_get(cs, "expect"));
	node_release(&atoms, &node);
	dsi_podspec_release(&atoms, &spec);
	dsi_atoms_free(&atoms);
	return bad;
}

START_TEST(nodeaffinity_json)
{
	json_t *doc = vt_load("nodeaffinity.json");
	json_t *cs;
	size_t i;
	vt_run r;
	vt_begin(&r, "nodeaffinity.json", known);
	json_array_foreach(vt_cases(doc), i, cs)
	{
		const char *name = vt_str(cs, "name"), *fn = vt_str(cs, "function");
		const vt_entry *skip = vt_find(skips, name);
		if (skip)
			vt_skip(&r, name, skip->reason);
		else if (strcmp(fn, "NewNodeSelector+Match") == 0)
			vt_record(&r, name, node_selector_match(cs, 1));
		else if (strcmp(fn, "MatchNodeSelectorTerms") == 0)
			vt_record(&r, name, node_selector_match(cs, 0));
		else if (strcmp(fn, "NewPreferredSchedulingTerms+Score") == 0)
			vt_record(&r, name, preferred_score(cs));
		else if (strcmp(fn, "nodeSelectorRequirementsAsSelector") == 0)
			vt_record(&r, name, requirements_as_selector(cs));
		else if (strcmp(fn, "GetRequiredNodeAffinity(pod).Match") == 0)
			vt_record(&r, name, required_affinity(cs));
		else
			ck_abort_msg("%s: unknown function %s", name, fn);
	}
	ck_assert_uint_eq(r.skipped, 2);
	vt_end(&r);
	json_decref(doc);
}
END_TEST

/* The driver itself: an unnamed node's fields are not matched, a named one's are. */
START_TEST(driver_hides_stand_in_names)
{
	json_t *cs = json_pack("{s:{s:[{s:[{s:s, s:s, s:[s]}]}]}, s:{s:{}}, s:{s:b}}", "nodeSelector",
			       "nodeSelectorTerms", "matchFields", "key", "metadata.name", "operator", "In", "values",
			       "host_1", "node", "metadata", "expect", "match", 1);
	char *bad = node_selector_match(cs, 0);
	ck_assert_msg(bad == NULL, "%s", bad);
	json_object_set_new(json_object_get(cs, "node"), "metadata", json_pack("{s:s}", "name", "host_2"));
	bad = node_selector_match(cs, 0);
	ck_assert_ptr_nonnull(bad);
	free(bad);
	json_decref(cs);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vec_nodeaffinity");
	TCase *tc = tcase_create("vectors");
	tcase_add_test(tc, nodeaffinity_json);
	tcase_add_test(tc, driver_hides_stand_in_names);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
