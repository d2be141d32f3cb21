/* The API server's path: the generic registry and the DaemonSet strategy around validation. */
#include "apiserver/validation.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/canonical.h"
#include "apiserver/schema.h"
#include "apiserver/defaults.h"
#include "core/alloc.h"
#include "core/sort.h"
#include "model/intstr.h"
#include "model/labels.h"
#include "model/labelvalid.h"
#include "model/quantity.h"
#include "model/selector.h"

/* ---- the API server's path (generic registry + DaemonSet strategy) ---------------------------- */

static json_t *meta_obj(json_t *obj)
{
	json_t *m = json_object_get(obj, "metadata");
	if (!json_is_object(m)) {
		m = json_object();
		if (!m || json_object_set_new(obj, "metadata", m) < 0)
			return NULL;
	}
	return m;
}

static int member_empty(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	return !v || json_is_null(v) || (json_is_string(v) && !json_string_length(v));
}

/* BeforeCreate (apiserver pkg/registry/rest/create.go) and PrepareForCreate (daemonset strategy.go) */
static int prepare_create(dsi_vds *d, ds_error *err)
{
	json_t *meta = meta_obj(d->obj);
	if (!meta)
		return dsi_error_nomem(err);
	int rc = 0;
	/* the request's namespace: kubectl's default context sends "default" */
	if (member_empty(meta, "namespace"))
		rc |= json_object_set_new(meta, "namespace", json_string("default"));
	/* names.SimpleNameGenerator: generateName (cut to 58) plus 5 random characters; "xxxxx" stands for them */
	json_t *gen = json_object_get(meta, "generateName");
	if (member_empty(meta, "name") && json_is_string(gen) && json_string_length(gen)) {
		size_t n = json_string_length(gen) > 58 ? 58 : json_string_length(gen);
		char *name = dsi_malloc(n + 6);
		if (!name)
			return dsi_error_nomem(err);
		memcpy(name, json_string_value(gen), n);
		memcpy(name + n, "xxxxx", 6);
		rc |= json_object_set_new(meta, "name", json_stringn(name, n + 5));
		dsi_free(name);
	}
	json_object_del(meta, "deletionTimestamp");
	json_object_del(meta, "deletionGracePeriodSeconds");
	json_object_del(d->obj, "status");
	rc |= json_object_set_new(meta, "generation", json_integer(1));
	if (d->template_generation < 1)
		d->template_generation = 1;
	return rc ? dsi_error_nomem(err) : 0;
}

static int copy_member(json_t *dst, const json_t *src, const char *key)
{
	json_t *v = json_object_get(src, key);
	if (!v) {
		json_object_del(dst, key);
		return 0;
	}
	return json_object_set_new(dst, key, json_deep_copy(v));
}

/* BeforeUpdate (apiserver pkg/registry/rest/update.go) with Store.Update's unconditional update, then
 * the strategy's PrepareForUpdate (daemonset strategy.go; StatusStrategy for the status subresource) */
static int prepare_update(dsi_vds *d, const dsi_vds *old, int status, ds_error *err)
{
	json_t *meta = meta_obj(d->obj), *ometa = json_object_get(old->obj, "metadata");
	if (!meta)
		return dsi_error_nomem(err);
	int rc = 0;
	if (member_empty(meta, "namespace"))
		rc |= copy_member(meta, ometa, "namespace");
	if (member_empty(meta, "resourceVersion")) /* AllowUnconditionalUpdate */
		rc |= copy_member(meta, ometa, "resourceVersion");
	rc |= copy_member(meta, ometa, "generation"); /* requests cannot update generation */
	if (member_empty(meta, "uid"))
		rc |= copy_member(meta, ometa, "uid");
	if (!member_empty(ometa, "creationTimestamp"))
		rc |= copy_member(meta, ometa, "creationTimestamp");
	if (!member_empty(ometa, "deletionGracePeriodSeconds") && member_empty(meta, "deletionGracePeriodSeconds"))
		rc |= copy_member(meta, ometa, "deletionGracePeriodSeconds");
	if (status) {
		rc |= copy_member(d->obj, old->obj, "spec");
		d->template_generation = old->template_generation;
		return rc ? dsi_error_nomem(err) : 0;
	}
	rc |= copy_member(d->obj, old->obj, "status");
	d->template_generation = old->template_generation;
	json_t *spec = json_object_get(d->obj, "spec"), *ospec = json_object_get(old->obj, "spec");
	json_t *ogen = json_object_get(ometa, "generation");
	json_int_t gen = json_is_integer(ogen) ? json_integer_value(ogen) : 0;
	if (!dsi_semantic_equal_as(json_object_get(spec, "template"), json_object_get(ospec, "template"),
				   dsi_canonical_template_type())) {
		d->template_generation = old->template_generation + 1;
		rc |= json_object_set_new(meta, "generation", json_integer(gen + 1));
	} else if (!dsi_semantic_equal_as(spec, ospec,
					  dsi_schema_at(dsi_schema_root_type("apps/v1", "DaemonSet"), "spec"))) {
		rc |= json_object_set_new(meta, "generation", json_integer(gen + 1));
	}
	return rc ? dsi_error_nomem(err) : 0;
}

static const char *object_name(const json_t *obj)
{
	json_t *n = json_object_get(json_object_get(obj, "metadata"), "name");
	return json_is_string(n) ? json_string_value(n) : "";
}

json_t *dsi_validation_result(const dsi_field_errors *errs, const char *name)
{
	json_t *res = json_object(), *list = json_array();
	if (!res || !list) {
		json_decref(res);
		json_decref(list);
		return NULL;
	}
	int bad = json_object_set_new(res, "valid", json_boolean(errs->n == 0)) < 0 ||
		  json_object_set_new(res, "errors", list) < 0;
	/* NewInvalid (apimachinery pkg/api/errors): ToAggregate drops repeated messages */
	dsi_strbuf agg = DSI_STRBUF_INIT;
	size_t distinct = 0;
	char **seen = errs->n ? dsi_calloc(errs->n, sizeof(char *)) : NULL;
	if (errs->n && !seen)
		bad = 1;
	for (size_t i = 0; !bad && i < errs->n; i++) {
		const dsi_field_error *e = &errs->v[i];
		dsi_strbuf msg = DSI_STRBUF_INIT;
		dsi_field_error_string(e, &msg);
		json_t *item = json_pack("{s:s,s:s,s:s,s:O?,s:s,s:s}", "field", e->field, "type", dsi_fe_short(e->type),
					 "reason", dsi_fe_reason(e->type), "value", e->value, "detail", e->detail,
					 "message", msg.data ? msg.data : "");
		if (item && !json_object_get(item, "value"))
			json_object_set_new(item, "value", json_null());
		if (!item || msg.oom || json_array_append_new(list, item) < 0) {
			bad = 1;
			dsi_strbuf_free(&msg);
			break;
		}
		int dup = 0;
		for (size_t j = 0; j < distinct && !dup; j++)
			dup = strcmp(seen[j], msg.data) == 0;
		if (dup) {
			dsi_strbuf_free(&msg);
			continue;
		}
		seen[distinct++] = dsi_strbuf_detach(&msg);
	}
	if (!bad && distinct) {
		dsi_strbuf_puts(&agg, "DaemonSet.apps ");
		dsi_go_quote(&agg, name, strlen(name));
		dsi_strbuf_puts(&agg, " is invalid: ");
		if (distinct > 1)
			dsi_strbuf_putc(&agg, '[');
		for (size_t j = 0; j < distinct; j++) {
			if (j)
				dsi_strbuf_puts(&agg, ", ");
			dsi_strbuf_puts(&agg, seen[j]);
		}
		if (distinct > 1)
			dsi_strbuf_putc(&agg, ']');
	}
	for (size_t j = 0; j < distinct; j++)
		dsi_free(seen[j]);
	dsi_free(seen);
	if (!bad)
		bad = json_object_set_new(res, "message", distinct ? json_string(agg.data) : json_null()) < 0 ||
		      agg.oom;
	dsi_strbuf_free(&agg);
	if (bad || errs->oom) {
		json_decref(res);
		return NULL;
	}
	return res;
}

static int validate_json(const json_t *obj, const json_t *old, int own, int op, int as_is, const dsi_core_options *o,
			 json_t **result, ds_error *err)
{
	*result = NULL;
	dsi_vds ds, ods;
	memset(&ods, 0, sizeof(ods));
	int rc = own ? dsi_vds_decode_own((json_t *)obj, &ds, err) : dsi_vds_decode(obj, &ds, err);
	if (rc < 0)
		return rc;
	if (op != DSI_VALIDATE_CREATE &&
	    (rc = own ? dsi_vds_decode_own((json_t *)old, &ods, err) : dsi_vds_decode(old, &ods, err)) < 0) {
		dsi_error_prefix_path(err, "(old)");
		dsi_vds_release(&ds);
		return rc;
	}
	int old_invalid_values = 0;
	if (!as_is) {
		if ((rc = dsi_daemonset_set_defaults(ds.obj, err)) < 0)
			goto out;
		if (op != DSI_VALIDATE_CREATE && (rc = dsi_daemonset_set_defaults(ods.obj, err)) < 0) {
			dsi_error_prefix_path(err, "(old)");
			goto out;
		}
		old_invalid_values =
			op == DSI_VALIDATE_UPDATE &&
			dsi_selector_has_invalid_value(json_object_get(json_object_get(ods.obj, "spec"), "selector"));
		rc = op == DSI_VALIDATE_CREATE ? prepare_create(&ds, err)
					       : prepare_update(&ds, &ods, op == DSI_VALIDATE_STATUS, err);
		if (rc < 0)
			goto out;
	}
	dsi_field_errors errs;
	memset(&errs, 0, sizeof(errs));
	dsi_atoms atoms;
	dsi_atoms_init(&atoms);
	dsi_vctx c;
	dsi_vctx_init(&c, &errs, &atoms, o->gates, err);
	c.allow_invalid_selector_values = (uint8_t)old_invalid_values;
	if (op != DSI_VALIDATE_CREATE) {
		const json_t *t = json_object_get(json_object_get(json_object_get(ds.obj, "spec"), "template"), "spec");
		const json_t *ot =
			json_object_get(json_object_get(json_object_get(ods.obj, "spec"), "template"), "spec");
		c.allow_relaxed_env = (uint8_t)dsi_relaxed_env_used(t, ot);
	}
	if (op == DSI_VALIDATE_CREATE) {
		rc = dsi_validate_daemonset(&c, &ds);
	} else if (op == DSI_VALIDATE_UPDATE) {
		rc = dsi_validate_daemonset_update(&c, &ds, &ods);
		json_t *sel = json_object_get(json_object_get(ds.obj, "spec"), "selector");
		json_t *osel = json_object_get(json_object_get(ods.obj, "spec"), "selector");
		int nil = !sel || json_is_null(sel), onil = !osel || json_is_null(osel);
		/* apps/v1: the selector is immutable (ValidateImmutableField in the strategy's ValidateUpdate) */
		if (rc == 0 && !as_is && (nil != onil || !dsi_semantic_equal(sel, osel, 0))) {
			dsi_strbuf b = DSI_STRBUF_INIT;
			dsi_marshal_selector(&b, sel);
			dsi_v_add(&c, "spec.selector", DSI_FE_INVALID, nil ? json_null() : json_deep_copy(sel), b.data,
				  IMMUTABLE_MSG);
			dsi_strbuf_free(&b);
		}
	} else {
		rc = dsi_validate_daemonset_status_update(&c, &ds, &ods);
	}
	if (rc == 0 && (c.fp.oom || errs.oom))
		rc = dsi_error_nomem(err);
	if (rc == 0 && !(*result = dsi_validation_result(&errs, object_name(ds.obj))))
		rc = dsi_error_nomem(err);
	dsi_vctx_release(&c);
	dsi_atoms_free(&atoms);
	dsi_field_errors_free(&errs);
out:
	dsi_vds_release(&ds);
	dsi_vds_release(&ods);
	return rc;
}

int dsi_daemonset_validate_json(const json_t *obj, const json_t *old, int op, int as_is, const dsi_core_options *o,
				json_t **result, ds_error *err)
{
	return validate_json(obj, old, 0, op, as_is, o, result, err);
}

int dsi_daemonset_validate_json_own(json_t *obj, json_t *old, int op, int as_is, const dsi_core_options *o,
				    json_t **result, ds_error *err)
{
	return validate_json(obj, old, 1, op, as_is, o, result, err);
}

/* Convert_apps_DaemonSet_To_v1_DaemonSet: the template generation back into its annotation. */
static int encode_template_generation(dsi_vds *d)
{
	if (!d->template_generation)
		return 0;
	json_t *meta = meta_obj(d->obj);
	json_t *ann = meta ? json_object_get(meta, "annotations") : NULL;
	if (meta && !json_is_object(ann) &&
	    (!(ann = json_object()) || json_object_set_new(meta, "annotations", ann) < 0))
		return -1;
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", (long long)d->template_generation);
	return meta ? json_object_set_new(ann, TEMPLATE_GENERATION_KEY, json_string(buf)) : -1;
}

int dsi_daemonset_update_json(const json_t *obj, const json_t *old, const dsi_core_options *o, json_t **stored,
			      json_t **result, ds_error *err)
{
	*stored = NULL;
	int rc = dsi_daemonset_validate_json(obj, old, DSI_VALIDATE_UPDATE, 0, o, result, err);
	if (rc < 0 || !json_is_true(json_object_get(*result, "valid")))
		return rc;
	/* valid: the same path again, keeping the object it makes */
	dsi_vds ds, ods;
	if ((rc = dsi_vds_decode(obj, &ds, err)) < 0)
		return rc;
	if ((rc = dsi_vds_decode(old, &ods, err)) < 0) {
		dsi_vds_release(&ds);
		return rc;
	}
	if ((rc = dsi_daemonset_set_defaults(ds.obj, err)) == 0 &&
	    (rc = dsi_daemonset_set_defaults(ods.obj, err)) == 0 && (rc = prepare_update(&ds, &ods, 0, err)) == 0) {
		if (encode_template_generation(&ds) < 0)
			rc = dsi_error_nomem(err);
		else /* as the API server stores it and serves it back (canonical.h) */
			rc = dsi_canonical(ds.obj, dsi_schema_root_type("apps/v1", "DaemonSet"), DSI_CANON_STORAGE,
					   stored, err);
	}
	dsi_vds_release(&ds);
	dsi_vds_release(&ods);
	return rc;
}
