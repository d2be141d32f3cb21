/* spec.topologySpreadConstraints (k8s.io/api core/v1 TopologySpreadConstraint) as the scheduler's
 * PodTopologySpread reads them (plugins/podtopologyspread/common.go). */
#include "model/topologyspread.h"

#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"
#include "model/meta.h"

static void constraint_release(dsi_atoms *atoms, dsi_spread_constraint *c)
{
	dsi_atom_unref(atoms, c->topology_key);
	dsi_selector_release(atoms, &c->selector);
	for (uint32_t i = 0; i < c->nmatch_label_keys; i++)
		dsi_atom_unref(atoms, c->match_label_keys[i]);
	dsi_free(c->match_label_keys);
	memset(c, 0, sizeof(*c));
}

void dsi_spread_constraints_release(dsi_atoms *atoms, dsi_spread_constraints *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		constraint_release(atoms, &s->v[i]);
	dsi_free(s->v);
	dsi_free(s->error);
	memset(s, 0, sizeof(*s));
}

/* labelSelector: LabelSelectorAsSelector's refusal (DS_EVALUE) becomes *bad, whole. */
static int read_selector(dsi_rd *rd, dsi_atoms *atoms, const json_t *c, dsi_selector *out, char **bad)
{
	ds_error scratch;
	memset(&scratch, 0, sizeof(scratch));
	dsi_rd sub = *rd;
	char *whole = NULL;
	sub.err = &scratch;
	sub.whole_message = &whole;
	size_t m = dsi_rd_push(&sub, "labelSelector");
	int rc = dsi_selector_from_json(&sub, atoms, json_object_get(c, "labelSelector"), out);
	dsi_rd_pop(&sub, m);
	if (rc == DS_EVALUE) {
		*bad = whole ? whole : dsi_strdup(scratch.message);
		return *bad ? 0 : dsi_error_nomem(rd->err);
	}
	dsi_free(whole);
	if (rc < 0 && rd->err)
		*rd->err = scratch;
	return rc;
}

static int read_keys(dsi_rd *rd, dsi_atoms *atoms, const json_t *c, dsi_spread_constraint *out)
{
	json_t *arr;
	int rc = dsi_rd_array(rd, c, "matchLabelKeys", &arr);
	size_t n = arr ? json_array_size(arr) : 0;
	if (rc < 0 || !n)
		return rc;
	if (!(out->match_label_keys = dsi_calloc(n, sizeof(dsi_atom))))
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, "matchLabelKeys"), i;
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
		out->match_label_keys[out->nmatch_label_keys++] = a;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

static int read_constraint(dsi_rd *rd, dsi_atoms *atoms, const json_t *c, dsi_spread_constraint *out, char **bad)
{
	const char *when = NULL, *ap = NULL, *tp = NULL;
	int present, rc = dsi_rd_expect_object(rd, c);
	if (rc < 0 || (rc = dsi_rd_int32(rd, c, "maxSkew", &out->max_skew, NULL)) < 0 ||
	    (rc = dsi_rd_int32(rd, c, "minDomains", &out->min_domains, &present)) < 0 ||
	    (rc = dsi_rd_atom(rd, atoms, c, "topologyKey", 0, &out->topology_key)) < 0 ||
	    (rc = dsi_rd_string(rd, c, "whenUnsatisfiable", &when)) < 0 ||
	    (rc = dsi_rd_string(rd, c, "nodeAffinityPolicy", &ap)) < 0 ||
	    (rc = dsi_rd_string(rd, c, "nodeTaintsPolicy", &tp)) < 0 || (rc = read_keys(rd, atoms, c, out)) < 0)
		return rc;
	if (!present)
		out->min_domains = 1; /* ptr.Deref(c.MinDomains, 1) */
	out->do_not_schedule = when && strcmp(when, "DoNotSchedule") == 0;
	out->affinity_ignore = ap && strcmp(ap, "Ignore") == 0;
	out->taints_honor = tp && strcmp(tp, "Honor") == 0;
	char *mine = NULL;
	rc = read_selector(rd, atoms, c, &out->selector, &mine);
	/* only the DoNotSchedule constraints reach the Filter's PreFilter */
	if (mine && out->do_not_schedule && !*bad)
		*bad = mine;
	else
		dsi_free(mine);
	return rc;
}

/* filterTopologySpreadConstraints (podtopologyspread/common.go): the parse, in spec order */
int dsi_spread_constraints_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *spec, dsi_spread_constraints *out)
{
	memset(out, 0, sizeof(*out));
	json_t *arr;
	int rc = dsi_rd_array(rd, spec, "topologySpreadConstraints", &arr);
	size_t n = arr ? json_array_size(arr) : 0;
	if (rc < 0 || !n)
		return rc;
	if (!(out->v = dsi_calloc(n, sizeof(dsi_spread_constraint))))
		return dsi_error_nomem(rd->err);
	char *bad = NULL;
	size_t m = dsi_rd_push(rd, "topologySpreadConstraints"), i;
	json_t *c;
	json_array_foreach(arr, i, c)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		rc = read_constraint(rd, atoms, c, &out->v[out->n], &bad);
		out->n++;
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
	}
	dsi_rd_pop(rd, m);
	if (rc == 0 && bad) {
		for (uint32_t k = 0; k < out->n; k++)
			constraint_release(atoms, &out->v[k]);
		dsi_free(out->v);
		out->v = NULL;
		out->n = 0;
		out->error = dsi_format("obtaining pod's hard topology spread constraints: %s", bad);
		if (!out->error)
			rc = dsi_error_nomem(rd->err);
	}
	dsi_free(bad);
	if (rc < 0)
		dsi_spread_constraints_release(atoms, out);
	return rc;
}

int dsi_spread_constraints_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_spread_constraints *src,
				  dsi_spread_constraints *dst)
{
	memset(dst, 0, sizeof(*dst));
	if (src->error && !(dst->error = dsi_strdup(src->error)))
		return -1;
	if (!src->n)
		return 0;
	if (!(dst->v = dsi_calloc(src->n, sizeof(dsi_spread_constraint)))) {
		dsi_spread_constraints_release(to, dst);
		return -1;
	}
	int failed = 0;
	for (uint32_t i = 0; i < src->n && !failed; i++) {
		const dsi_spread_constraint *s = &src->v[i];
		dsi_spread_constraint *d = &dst->v[i];
		dst->n = i + 1;
		*d = *s;
		d->match_label_keys = NULL;
		d->nmatch_label_keys = 0;
		memset(&d->selector, 0, sizeof(d->selector));
		d->topology_key = dsi_atom_carry_or_none(to, from, s->topology_key, &failed);
		if (dsi_selector_copy_x(to, from, &s->selector, &d->selector) < 0) {
			failed = 1;
			break;
		}
		if (s->nmatch_label_keys) {
			if (!(d->match_label_keys = dsi_calloc(s->nmatch_label_keys, sizeof(dsi_atom)))) {
				failed = 1;
				break;
			}
			for (uint32_t k = 0; k < s->nmatch_label_keys; k++)
				d->match_label_keys[k] =
					dsi_atom_carry_or_none(to, from, s->match_label_keys[k], &failed);
			d->nmatch_label_keys = s->nmatch_label_keys;
		}
	}
	if (failed) {
		dsi_spread_constraints_release(to, dst);
		return -1;
	}
	return 0;
}
