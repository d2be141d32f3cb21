/* The Quantity fields of a PodSpec in the API server's canonical string form.
 */
#include "model/quantity_fields.h"

#include <string.h>

#include "core/reader.h"
#include "model/quantity.h"

typedef struct walk {
	dsi_rd rd; /* the path below spec; its err is the caller's */
	int strict;
} walk;

/* A failed rewrite: out of memory always fails; a bad quantity only in strict
 * mode, at the current path. */
static int fail(walk *w, int rc, const ds_error *tmp)
{
	if (rc == DS_ENOMEM)
		return dsi_error_nomem(w->rd.err);
	if (!w->strict)
		return 0;
	if (w->rd.err) {
		*w->rd.err = *tmp;
		dsi_error_prefix_path(w->rd.err, w->rd.path);
	}
	return rc;
}

/* The member key of obj as the API server serves it
 * (dsi_quantity_normalize_json on a one-member map, so that its String() rules,
 * the verbatim quirk included, apply unchanged). */
static int serve_member(walk *w, json_t *obj, const char *key)
{
	json_t *wrap = json_pack("{sO}", key, json_object_get(obj, key));
	if (!wrap)
		return dsi_error_nomem(w->rd.err);
	ds_error tmp;
	dsi_error_clear(&tmp);
	int rc = dsi_quantity_normalize_json(wrap, &tmp);
	if (rc == 0 && json_object_set(obj, key, json_object_get(wrap, key)) < 0)
		rc = tmp.code = DS_ENOMEM;
	json_decref(wrap);
	return rc < 0 ? fail(w, rc, &tmp) : 0;
}

/* A ResourceList member (map[ResourceName]Quantity): a null value decodes to
 * the zero Quantity, "0". */
static int resource_list(walk *w, json_t *obj, const char *key)
{
	json_t *map = json_object_get(obj, key);
	if (!json_is_object(map))
		return 0;
	size_t m = dsi_rd_push(&w->rd, key);
	ds_error tmp;
	dsi_error_clear(&tmp);
	int rc = dsi_quantity_normalize_json(map, &tmp); /* all or nothing: the common case in one pass */
	if (rc < 0 && rc != DS_ENOMEM && !w->strict) {
		/* some member does not parse: rewrite the others one by one */
		const char *name;
		json_t *v;
		rc = 0;
		json_object_foreach(map, name, v)
		{
			if ((rc = serve_member(w, map, name)) < 0)
				break;
		}
		dsi_rd_pop(&w->rd, m);
		return rc;
	}
	if (rc < 0)
		rc = fail(w, rc, &tmp);
	dsi_rd_pop(&w->rd, m);
	return rc;
}

/* A ResourceRequirements (or VolumeResourceRequirements) member: its limits and
 * requests. */
static int requirements(walk *w, json_t *obj, const char *key)
{
	json_t *res = json_object_get(obj, key);
	if (!json_is_object(res))
		return 0;
	size_t m = dsi_rd_push(&w->rd, key);
	int rc = resource_list(w, res, "limits");
	if (rc == 0)
		rc = resource_list(w, res, "requests");
	dsi_rd_pop(&w->rd, m);
	return rc;
}

/* ResourceFieldSelector.Divisor is a Quantity, not a pointer: omitempty does
 * not drop a struct, so an absent (or null) divisor is served as "0". */
static int field_selector(walk *w, json_t *obj)
{
	json_t *sel = json_object_get(obj, "resourceFieldRef");
	if (!json_is_object(sel))
		return 0;
	size_t m = dsi_rd_push(&w->rd, "resourceFieldRef");
	int rc = 0;
	json_t *d = json_object_get(sel, "divisor");
	if (!d || json_is_null(d)) {
		if (json_object_set_new(sel, "divisor", json_string("0")) < 0)
			rc = dsi_error_nomem(w->rd.err);
	} else {
		rc = serve_member(w, sel, "divisor");
	}
	dsi_rd_pop(&w->rd, m);
	return rc;
}

typedef int (*elem_fn)(walk *w, json_t *elem);

/* fn on each object element of the array member key (other elements are not
 * ours to judge). */
static int each(walk *w, json_t *obj, const char *key, elem_fn fn)
{
	json_t *arr = json_object_get(obj, key);
	if (!json_is_array(arr))
		return 0;
	size_t m = dsi_rd_push(&w->rd, key);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < json_array_size(arr); i++) {
		json_t *e = json_array_get(arr, i);
		if (!json_is_object(e))
			continue;
		size_t m2 = dsi_rd_push_index(&w->rd, i);
		rc = fn(w, e);
		dsi_rd_pop(&w->rd, m2);
	}
	dsi_rd_pop(&w->rd, m);
	return rc;
}

/* fn on the object member key, when it is one. */
static int with(walk *w, json_t *obj, const char *key, elem_fn fn)
{
	json_t *o = json_object_get(obj, key);
	if (!json_is_object(o))
		return 0;
	size_t m = dsi_rd_push(&w->rd, key);
	int rc = fn(w, o);
	dsi_rd_pop(&w->rd, m);
	return rc;
}

static int env_source(walk *w, json_t *src) { return field_selector(w, src); }

static int env_var(walk *w, json_t *ev) { return with(w, ev, "valueFrom", env_source); }

static int container(walk *w, json_t *c)
{
	int rc = requirements(w, c, "resources");
	return rc < 0 ? rc : each(w, c, "env", env_var);
}

static int downward_items(walk *w, json_t *src) { return each(w, src, "items", field_selector); }

static int projection(walk *w, json_t *p) { return with(w, p, "downwardAPI", downward_items); }

static int projected(walk *w, json_t *p) { return each(w, p, "sources", projection); }

static int empty_dir(walk *w, json_t *e)
{
	json_t *v = json_object_get(e, "sizeLimit");
	/* a *Quantity: null is nil, not a zero quantity */
	return (!v || json_is_null(v)) ? 0 : serve_member(w, e, "sizeLimit");
}

static int claim_spec(walk *w, json_t *s) { return requirements(w, s, "resources"); }

static int claim_template(walk *w, json_t *t) { return with(w, t, "spec", claim_spec); }

static int ephemeral(walk *w, json_t *e) { return with(w, e, "volumeClaimTemplate", claim_template); }

static int volume(walk *w, json_t *v)
{
	int rc;
	if ((rc = with(w, v, "emptyDir", empty_dir)) < 0 || (rc = with(w, v, "downwardAPI", downward_items)) < 0 ||
	    (rc = with(w, v, "projected", projected)) < 0)
		return rc;
	return with(w, v, "ephemeral", ephemeral);
}

/* Quantity.MarshalJSON / CanonicalizeBytes (apimachinery
 * pkg/api/resource/quantity.go) on every Quantity field of a PodSpec
 * (k8s.io/api core/v1 types.go) */
int dsi_podspec_canonical_quantities(json_t *spec, unsigned flags, ds_error *err)
{
	if (!json_is_object(spec))
		return 0;
	walk w;
	dsi_rd_init(&w.rd, err);
	w.strict = (flags & DSI_QFIELDS_STRICT) != 0;
	int rc;
	if ((rc = each(&w, spec, "volumes", volume)) < 0 || (rc = each(&w, spec, "initContainers", container)) < 0 ||
	    (rc = each(&w, spec, "containers", container)) < 0 ||
	    (rc = each(&w, spec, "ephemeralContainers", container)) < 0 ||
	    (rc = resource_list(&w, spec, "overhead")) < 0)
		return rc;
	return requirements(&w, spec, "resources");
}
