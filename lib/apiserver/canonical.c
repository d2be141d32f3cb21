/* The canonical form of objects: as the API server holds them (canonical.h). */
#include "apiserver/canonical.h"

#include <string.h>

#include "apiserver/decodecheck.h"
#include "apiserver/defaults.h"
#include "apiserver/goencode.h"
#include "apiserver/schema.h"
#include "apiserver/validation.h"
#include "model/quantity.h"
#include "model/snapshot.h"

int dsi_canonical_template_type(void) { return dsi_schema_named("io.k8s.api.core.v1.PodTemplateSpec"); }

typedef int (*defaults_fn)(json_t *obj, ds_error *err);

/* The defaulting function of type, or NULL: SetObjectDefaults_DaemonSet, SetObjectDefaults_Pod, and
 * the template part of the DaemonSet's. */
static defaults_fn defaults_of(int type)
{
	if (type == dsi_schema_root_type("apps/v1", "DaemonSet"))
		return dsi_daemonset_set_defaults;
	if (type == dsi_schema_root_type("v1", "Pod"))
		return dsi_pod_set_defaults;
	if (type == dsi_canonical_template_type())
		return dsi_template_set_defaults;
	return NULL;
}

int dsi_canonical(const json_t *v, int type, unsigned flags, json_t **out, ds_error *err)
{
	*out = NULL;
	int rc = (flags & DSI_CANON_CHECKED) ? 0 : dsi_decode_check(v, type, err);
	if (rc < 0)
		return rc;
	defaults_fn defaults = (flags & DSI_CANON_DEFAULTS) ? defaults_of(type) : NULL;
	json_t *decoded = NULL;
	if (defaults) {
		/* defaulting is on the decoded struct: null is the zero value, so it takes the default */
		if (!(decoded = json_is_null(v) ? json_object() : json_deep_copy(v)))
			return dsi_error_nomem(err);
		if ((rc = defaults(decoded, err)) < 0) {
			json_decref(decoded);
			return rc;
		}
	}
	*out = dsi_go_print(decoded ? decoded : v, type, (flags & DSI_CANON_STORAGE) ? DSI_GO_STORAGE : 0);
	json_decref(decoded);
	return *out ? 0 : dsi_error_nomem(err);
}

int dsi_canonical_template(const json_t *tmpl, unsigned flags, json_t **out, ds_error *err)
{
	json_t *zero = NULL;
	*out = NULL;
	if (!tmpl && !(tmpl = zero = json_object()))
		return dsi_error_nomem(err);
	int rc = dsi_canonical(tmpl, dsi_canonical_template_type(), flags, out, err);
	json_decref(zero);
	return rc;
}

/* The defaults of a template (dsi_template_set_defaults) applied to its print rather than to a copy
 * of it: each default reads a member as Go's zero value alike whether it is absent, null or printed
 * as that zero value (def_string: "", def_pointer: nil, def_int_zero: 0, a volume's sources:
 * nil pointers), the print drops only members no default reads (fields Go does not have, and
 * omitempty's empty values, which read as absent), and what a default sets prints as itself (a
 * string, an integer, a bool, {} for securityContext and emptyDir, whose fields are all omitempty);
 * a ResourceList's quantities are rounded up to milli and served from their served form, the same
 * value in the same format. test_canonical's template_for_hash compares the two ways on every
 * template of examples/ and tests/ and on the edge cases of each default. */
int dsi_canonical_template_for_hash(const json_t *tmpl, int checked, json_t **out, ds_error *err)
{
	int type = dsi_canonical_template_type(), rc = 0;
	json_t *zero = NULL;
	*out = NULL;
	if (!tmpl || json_is_null(tmpl)) /* null decodes as the zero template */
		tmpl = zero = json_object();
	if (!tmpl)
		return dsi_error_nomem(err);
	if (!checked)
		rc = dsi_decode_check(tmpl, type, err);
	json_t *p = rc < 0 ? NULL : dsi_go_print(tmpl, type, DSI_GO_STORAGE | DSI_GO_SHARED);
	json_decref(zero);
	if (rc < 0)
		return rc;
	if (!p)
		return dsi_error_nomem(err);
	if ((rc = dsi_template_set_defaults(p, err)) < 0) {
		json_decref(p);
		return rc;
	}
	*out = p;
	return 0;
}

/* The type of obj by its apiVersion and kind, or -1. */
static int object_type(const json_t *obj)
{
	const char *kind = json_string_value(json_object_get(obj, "kind"));
	const char *api = json_string_value(json_object_get(obj, "apiVersion"));
	if (!kind)
		return -1;
	return api && *api ? dsi_schema_root_type(api, kind) : dsi_decode_type_of_kind(kind);
}

/* A ControllerRevision's data with the template it holds made canonical, in place; a template that
 * does not decode is left as it is. 0 or DS_ENOMEM. */
static int revision_data(json_t *rev, unsigned flags, ds_error *err)
{
	json_t *spec = json_object_get(json_object_get(rev, "data"), "spec");
	json_t *tmpl = json_object_get(spec, "template"), *c;
	if (!json_is_object(tmpl))
		return 0;
	ds_error scratch;
	dsi_error_clear(&scratch);
	json_t *patch = json_object_get(tmpl, "$patch");
	int rc = dsi_canonical_template(tmpl, flags, &c, &scratch);
	if (rc < 0)
		return rc == DS_ENOMEM ? dsi_error_nomem(err) : 0;
	if (patch && json_object_set(c, "$patch", patch) < 0) {
		json_decref(c);
		return dsi_error_nomem(err);
	}
	return json_object_set_new(spec, "template", c) < 0 ? dsi_error_nomem(err) : 0;
}

int dsi_canonical_object(const json_t *obj, unsigned flags, json_t **obj_out, ds_error *err)
{
	*obj_out = NULL;
	int type = object_type(obj);
	if (type < 0)
		return 1;
	json_t *out;
	int rc = dsi_canonical(obj, type, flags, &out, err);
	if (rc < 0)
		return rc;
	if (type == dsi_schema_root_type("apps/v1", "ControllerRevision") &&
	    (rc = revision_data(out, flags, err)) < 0) {
		json_decref(out);
		return rc;
	}
	*obj_out = out;
	return 0;
}

/* A template in canonical form for the hash of a DaemonSet read as it is (*out NULL when it does
 * not decode); hash_only: for the hash alone (dsi_canonical_template_for_hash, served, its members
 * in no particular order). 0 or DS_ENOMEM. */
static int hashed_template(const json_t *obj, unsigned flags, int hash_only, json_t **out, ds_error *err)
{
	json_t *tmpl = json_object_get(json_object_get(obj, "spec"), "template");
	if (!json_is_object(tmpl))
		tmpl = NULL;
	ds_error scratch;
	dsi_error_clear(&scratch);
	int rc = hash_only ? dsi_canonical_template_for_hash(tmpl, (flags & DSI_CANON_CHECKED) != 0, out, &scratch)
			   : dsi_canonical_template(tmpl, flags, out, &scratch);
	return rc == DS_ENOMEM ? dsi_error_nomem(err) : 0;
}

/* The snapshot's prepare (model_options.h): every object is decoded as Go's decoder does (what it
 * refuses is refused, with the JSON path); what the snapshot keeps as JSON (an apps/v1 DaemonSet,
 * a ControllerRevision, a PodDisruptionBudget) is read in canonical form, with the API server's
 * defaults unless it is a manifest loaded without the option applyDefaults; a Pod from a manifest
 * is defaulted in place (the snapshot keeps what it reads of it, not its JSON). A DaemonSet of
 * another group (OpenKruise's, the legacy ones) and a pure function's DaemonSet (read as given, as
 * the Go function receives it) hash their template in canonical form. */
int dsi_canonical_prepare(json_t *obj, int kind, unsigned how, dsi_prepared *out, ds_error *err)
{
	memset(out, 0, sizeof(*out));
	if (how & DSI_PREPARE_LENIENT) {
		if (kind != DSI_KIND_DAEMONSET)
			return 0;
		unsigned flags = DSI_CANON_SERVED | ((how & DSI_PREPARE_CHECKED) ? DSI_CANON_CHECKED : 0);
		return hashed_template(obj, flags, (how & DSI_PREPARE_HASH_ONLY) != 0, &out->hashed, err);
	}
	const char *kname = json_string_value(json_object_get(obj, "kind"));
	const char *api = json_string_value(json_object_get(obj, "apiVersion"));
	int type = dsi_decode_type_of_kind(kname);
	int own = type >= 0 && (!api || !*api || type == dsi_schema_root_type(api, kname));
	int defaults = !(how & DSI_PREPARE_MANIFEST) || (how & DSI_PREPARE_DEFAULTS);
	int rc;
	switch (kind) {
	case DSI_KIND_DAEMONSET:
	case DSI_KIND_REVISION:
	case DSI_KIND_PDB:
		if (!own)
			break;
		if ((rc = dsi_canonical_object(obj, DSI_CANON_STORAGE | (defaults ? DSI_CANON_DEFAULTS : 0), &out->obj,
					       err)) < 0)
			return rc;
		out->defaulted = kind == DSI_KIND_DAEMONSET && defaults && (how & DSI_PREPARE_MANIFEST);
		return 0;
	case DSI_KIND_POD:
		if ((rc = dsi_decode_check(obj, type, err)) < 0)
			return rc;
		if (!own || !(how & DSI_PREPARE_MANIFEST) || !defaults)
			return 0;
		if ((rc = dsi_pod_set_defaults(obj, err)) < 0)
			return rc;
		out->defaulted = 1;
		return 0;
	default: break;
	}
	if ((rc = dsi_decode_check(obj, type, err)) < 0)
		return rc;
	if (kind == DSI_KIND_DAEMONSET) /* another group's: read as it is, its template hashed canonical */
		return hashed_template(obj, 0, 0, &out->hashed, err);
	return 0;
}

/* a and b, canonical values of type, equal as Semantic.DeepEqual finds the Go values: quantities by
 * value (Quantity.Cmp: "1e3" and "1k"), the rest as printed. */
static int typed_equal(const json_t *a, const json_t *b, int type)
{
	if (!a || !b)
		return a == b;
	if (type < 0)
		return json_equal(a, b);
	switch (dsi_schema_kind_of(type)) {
	case DSI_SK_QUANTITY: {
		dsi_quantity qa, qb;
		dsi_rd rd;
		ds_error scratch;
		dsi_rd_init(&rd, &scratch);
		if (dsi_quantity_from_json(&rd, a, &qa) < 0 || dsi_quantity_from_json(&rd, b, &qb) < 0)
			return json_equal(a, b);
		return dsi_quantity_cmp(&qa, &qb) == 0;
	}
	case DSI_SK_OBJECT:
	case DSI_SK_MAP: {
		if (!json_is_object(a) || !json_is_object(b))
			return json_equal(a, b);
		if (json_object_size(a) != json_object_size(b))
			return 0;
		const char *key;
		json_t *m;
		json_object_foreach((json_t *)a, key, m)
		{
			int t = dsi_schema_kind_of(type) == DSI_SK_MAP ? dsi_schema_elem(type)
								       : dsi_schema_field_type(type, key, strlen(key));
			if (!typed_equal(m, json_object_get(b, key), t))
				return 0;
		}
		return 1;
	}
	case DSI_SK_ARRAY:
		if (!json_is_array(a) || !json_is_array(b))
			return json_equal(a, b);
		if (json_array_size(a) != json_array_size(b))
			return 0;
		for (size_t i = 0; i < json_array_size(a); i++)
			if (!typed_equal(json_array_get(a, i), json_array_get(b, i), dsi_schema_elem(type)))
				return 0;
		return 1;
	default: return json_equal(a, b);
	}
}

int dsi_semantic_equal_as(const json_t *a, const json_t *b, int type)
{
	json_t *ca = NULL, *cb = NULL;
	ds_error scratch;
	dsi_error_clear(&scratch);
	json_t *null_a = a ? NULL : json_null(), *null_b = b ? NULL : json_null();
	int eq;
	if (dsi_canonical(a ? a : null_a, type, DSI_CANON_STORAGE, &ca, &scratch) < 0 ||
	    dsi_canonical(b ? b : null_b, type, DSI_CANON_STORAGE, &cb, &scratch) < 0)
		eq = dsi_semantic_equal(a, b, 0); /* what does not decode: the JSON's own equality */
	else
		eq = typed_equal(ca, cb, type);
	json_decref(ca);
	json_decref(cb);
	return eq;
}
