/* Required PodAffinityTerms as the scheduler's PodInfo holds them (kube-scheduler framework
 * types.go: NewPodInfo, GetAffinityTerms, newAffinityTerm). */
#include "model/podaffinity.h"

#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"
#include "model/meta.h"

static void term_release(dsi_atoms *atoms, dsi_pod_affinity_term *t)
{
	dsi_selector_release(atoms, &t->selector);
	dsi_selector_release(atoms, &t->ns_selector);
	for (uint32_t i = 0; i < t->nns; i++)
		dsi_atom_unref(atoms, t->namespaces[i]);
	dsi_free(t->namespaces);
	for (uint32_t i = 0; i < t->nmatch_keys; i++)
		dsi_atom_unref(atoms, t->match_keys[i]);
	for (uint32_t i = 0; i < t->nmismatch_keys; i++)
		dsi_atom_unref(atoms, t->mismatch_keys[i]);
	dsi_free(t->match_keys);
	dsi_free(t->mismatch_keys);
	dsi_atom_unref(atoms, t->topology_key);
	memset(t, 0, sizeof(*t));
}

void dsi_pod_affinity_terms_release(dsi_atoms *atoms, dsi_pod_affinity_terms *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		term_release(atoms, &t->v[i]);
	dsi_free(t->v);
	dsi_free(t->error);
	memset(t, 0, sizeof(*t));
}

/* A selector member: DS_EVALUE (LabelSelectorAsSelector refuses it) becomes *bad with its text. */
static int read_selector(dsi_rd *rd, dsi_atoms *atoms, const json_t *term, const char *key, dsi_selector *out,
			 char **bad)
{
	ds_error scratch;
	memset(&scratch, 0, sizeof(scratch));
	dsi_rd sub = *rd;
	char *whole = NULL;
	sub.err = &scratch;
	sub.whole_message = &whole;
	size_t m = dsi_rd_push(&sub, key);
	int rc = dsi_selector_from_json(&sub, atoms, json_object_get(term, key), out);
	dsi_rd_pop(&sub, m);
	if (rc == DS_EVALUE) {
		if (!*bad)
			*bad = whole ? whole : dsi_strdup(scratch.message);
		else
			dsi_free(whole);
		return *bad ? 0 : dsi_error_nomem(rd->err);
	}
	dsi_free(whole);
	if (rc < 0 && rd->err)
		*rd->err = scratch;
	return rc;
}

/* A list of strings member as atoms. */
static int read_atoms(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_atom **out, uint32_t *n)
{
	json_t *arr;
	int rc = dsi_rd_array(rd, obj, key, &arr);
	size_t len = arr ? json_array_size(arr) : 0;
	if (rc < 0 || !len)
		return rc;
	if (!(*out = dsi_calloc(len, sizeof(dsi_atom))))
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, key), i;
	json_t *v;
	json_array_foreach(arr, i, v)
	{
		const char *s;
		size_t m2 = dsi_rd_push_index(rd, i);
		rc = dsi_rd_expect_string(rd, v, &s);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
		dsi_atom a = dsi_atom_intern(atoms, s, json_string_length(v));
		if (a == DSI_ATOM_ERROR) {
			rc = dsi_error_nomem(rd->err);
			break;
		}
		(*out)[(*n)++] = a;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

/* newAffinityTerm (kube-scheduler framework types.go) */
static int read_term(dsi_rd *rd, dsi_atoms *atoms, const json_t *term, dsi_pod_affinity_term *t, char **bad)
{
	int rc = dsi_rd_expect_object(rd, term);
	json_t *nss;
	if (rc < 0 || (rc = read_selector(rd, atoms, term, "labelSelector", &t->selector, bad)) < 0 ||
	    (rc = read_selector(rd, atoms, term, "namespaceSelector", &t->ns_selector, bad)) < 0 ||
	    (rc = dsi_rd_atom(rd, atoms, term, "topologyKey", 0, &t->topology_key)) < 0 ||
	    (rc = dsi_rd_array(rd, term, "namespaces", &nss)) < 0 ||
	    (rc = read_atoms(rd, atoms, term, "matchLabelKeys", &t->match_keys, &t->nmatch_keys)) < 0 ||
	    (rc = read_atoms(rd, atoms, term, "mismatchLabelKeys", &t->mismatch_keys, &t->nmismatch_keys)) < 0)
		return rc;
	size_t n = nss ? json_array_size(nss) : 0;
	if (n) {
		if (!(t->namespaces = dsi_calloc(n, sizeof(dsi_atom))))
			return dsi_error_nomem(rd->err);
		size_t m = dsi_rd_push(rd, "namespaces"), i;
		json_t *v;
		json_array_foreach(nss, i, v)
		{
			const char *s;
			size_t m2 = dsi_rd_push_index(rd, i);
			rc = dsi_rd_expect_string(rd, v, &s);
			dsi_rd_pop(rd, m2);
			if (rc < 0)
				break;
			dsi_atom a = dsi_atom_intern(atoms, s, json_string_length(v));
			if (a == DSI_ATOM_ERROR) {
				rc = dsi_error_nomem(rd->err);
				break;
			}
			t->namespaces[t->nns++] = a;
		}
		dsi_rd_pop(rd, m);
		if (rc < 0)
			return rc;
	}
	if (t->nns == 0 && t->ns_selector.kind == DSI_SELECTOR_NOTHING) {
		json_t *nsel = json_object_get(term, "namespaceSelector");
		t->own_ns = !nsel || json_is_null(nsel);
	}
	return 0;
}

/* GetAffinityTerms (kube-scheduler framework types.go) on one required list */
static int read_terms(dsi_rd *rd, dsi_atoms *atoms, const json_t *parent, const char *key, const char *what,
		      dsi_pod_affinity_terms *out)
{
	json_t *obj, *arr;
	int rc = dsi_rd_object(rd, parent, key, &obj);
	if (rc < 0 || !obj)
		return rc;
	size_t m = dsi_rd_push(rd, key);
	rc = dsi_rd_array(rd, obj, "requiredDuringSchedulingIgnoredDuringExecution", &arr);
	size_t n = arr ? json_array_size(arr) : 0;
	char *bad = NULL;
	if (rc == 0 && n) {
		size_t m2 = dsi_rd_push(rd, "requiredDuringSchedulingIgnoredDuringExecution"), i;
		json_t *v;
		if (!(out->v = dsi_calloc(n, sizeof(dsi_pod_affinity_term))))
			rc = dsi_error_nomem(rd->err);
		json_array_foreach(arr, i, v)
		{
			if (rc < 0)
				break;
			size_t m3 = dsi_rd_push_index(rd, i);
			char *tbad = NULL;
			rc = read_term(rd, atoms, v, &out->v[out->n], &tbad);
			out->n++;
			dsi_rd_pop(rd, m3);
			if (tbad && !bad)
				bad = tbad;
			else
				dsi_free(tbad);
		}
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	if (rc == 0 && bad) {
		/* the first error, and no term (upstream returns nil, err) */
		for (uint32_t i = 0; i < out->n; i++)
			term_release(atoms, &out->v[i]);
		dsi_free(out->v);
		out->v = NULL;
		out->n = 0;
		out->error = dsi_format("%s: %s", what, bad);
		if (!out->error)
			rc = dsi_error_nomem(rd->err);
	}
	dsi_free(bad);
	if (rc < 0)
		dsi_pod_affinity_terms_release(atoms, out);
	return rc;
}

int dsi_pod_affinity_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *aff, dsi_pod_affinity_terms *affinity,
			  dsi_pod_affinity_terms *anti)
{
	memset(affinity, 0, sizeof(*affinity));
	memset(anti, 0, sizeof(*anti));
	if (!aff)
		return 0;
	int rc = read_terms(rd, atoms, aff, "podAffinity", "requiredAffinityTerms", affinity);
	if (rc == 0)
		rc = read_terms(rd, atoms, aff, "podAntiAffinity", "requiredAntiAffinityTerms", anti);
	if (rc < 0)
		dsi_pod_affinity_terms_release(atoms, affinity);
	return rc;
}

int dsi_pod_affinity_terms_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_pod_affinity_terms *src,
				  dsi_pod_affinity_terms *dst)
{
	memset(dst, 0, sizeof(*dst));
	if (src->error && !(dst->error = dsi_strdup(src->error)))
		return -1;
	if (!src->n)
		return 0;
	if (!(dst->v = dsi_calloc(src->n, sizeof(dsi_pod_affinity_term)))) {
		dsi_pod_affinity_terms_release(to, dst);
		return -1;
	}
	int failed = 0;
	for (uint32_t i = 0; i < src->n && !failed; i++) {
		const dsi_pod_affinity_term *s = &src->v[i];
		dsi_pod_affinity_term *d = &dst->v[i];
		dst->n = i + 1;
		d->own_ns = s->own_ns;
		if (s->nmatch_keys) {
			if (!(d->match_keys = dsi_calloc(s->nmatch_keys, sizeof(dsi_atom)))) {
				failed = 1;
				break;
			}
			for (uint32_t k = 0; k < s->nmatch_keys; k++)
				d->match_keys[k] = dsi_atom_carry_or_none(to, from, s->match_keys[k], &failed);
			d->nmatch_keys = s->nmatch_keys;
		}
		if (s->nmismatch_keys) {
			if (!(d->mismatch_keys = dsi_calloc(s->nmismatch_keys, sizeof(dsi_atom)))) {
				failed = 1;
				break;
			}
			for (uint32_t k = 0; k < s->nmismatch_keys; k++)
				d->mismatch_keys[k] = dsi_atom_carry_or_none(to, from, s->mismatch_keys[k], &failed);
			d->nmismatch_keys = s->nmismatch_keys;
		}
		d->topology_key = dsi_atom_carry_or_none(to, from, s->topology_key, &failed);
		if (dsi_selector_copy_x(to, from, &s->selector, &d->selector) < 0 ||
		    dsi_selector_copy_x(to, from, &s->ns_selector, &d->ns_selector) < 0) {
			failed = 1;
			break;
		}
		if (s->nns) {
			if (!(d->namespaces = dsi_calloc(s->nns, sizeof(dsi_atom)))) {
				failed = 1;
				break;
			}
			for (uint32_t k = 0; k < s->nns; k++)
				d->namespaces[k] = dsi_atom_carry_or_none(to, from, s->namespaces[k], &failed);
			d->nns = s->nns;
		}
	}
	if (failed) {
		dsi_pod_affinity_terms_release(to, dst);
		return -1;
	}
	return 0;
}
