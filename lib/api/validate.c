/* Public entry points of DaemonSet defaulting and validation (ds_daemonset_validate(3)) and of
 * strict field validation (ds_manifest_check_fields(3)). */
#include <jansson.h>
#include <string.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "core/error.h"
#include "core/gostr.h"
#include "core/jsonout.h"
#include "core/load.h"
#include "core/optparse.h"
#include "apiserver/defaults.h"
#include "apiserver/schema.h"
#include "apiserver/strict.h"
#include "apiserver/validation.h"

static int parse(const char *text, size_t size, const dsi_core_options *o, json_t **obj, ds_error *err)
{
	return dsi_parse_one(text, size, &o->limits, obj, err);
}

int ds_daemonset_defaults(const char *text, size_t size, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	if (!text || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "text and json_out must not be NULL");
	const dsi_core_options *o = dsi_o_core(opts);
	json_t *obj;
	int rc = parse(text, size, o, &obj, err);
	if (rc < 0)
		return rc;
	dsi_vds ds;
	if ((rc = dsi_vds_decode(obj, &ds, err)) == 0) {
		dsi_vds_release(&ds); /* the kind, apiVersion and annotation checks of the decoder */
		rc = dsi_daemonset_set_defaults(obj, err);
	}
	if (rc < 0) {
		json_decref(obj);
		return rc;
	}
	return dsi_json_emit(obj, json_out, err);
}

/* One strict finding in a validation result: the shape of its errors, with the finding's own
 * members; reason "BadRequest" (a 400 has no causes: the request was not decoded) or "Warning". */
static json_t *strict_entry(const dsi_strict_finding *f, const char *reason)
{
	json_t *e = dsi_strict_finding_json(f);
	dsi_strbuf detail = DSI_STRBUF_INIT;
	if (f->suggestion) {
		dsi_strbuf_puts(&detail, "did you mean ");
		dsi_go_quote(&detail, f->suggestion, strlen(f->suggestion));
		dsi_strbuf_putc(&detail, '?');
	}
	if (e && (detail.oom || json_object_set(e, "field", json_object_get(e, "path")) < 0 || json_object_del(e, "path") < 0 ||
		  json_object_set_new(e, "reason", json_string(reason)) < 0 ||
		  json_object_set_new(e, "value", json_null()) < 0 ||
		  json_object_set_new(e, "detail", json_string(detail.data ? detail.data : "")) < 0)) {
		json_decref(e);
		e = NULL;
	}
	dsi_strbuf_free(&detail);
	return e;
}

/*
 * What fieldValidation makes of the findings of the request body: Strict with findings, the API
 * server's answer is a 400 BadRequest instead of any validation (the body was not decoded): the
 * result is replaced; Warn: a "warnings" member (present, maybe empty, whenever the level is Warn).
 */
static int apply_field_validation(dsi_field_validation level, const dsi_strict_findings *f, json_t **result,
				  ds_error *err)
{
	if (level == DSI_FV_IGNORE || (level == DSI_FV_STRICT && !f->n))
		return 0;
	json_t *list = json_array();
	for (size_t i = 0; list && i < f->n; i++)
		if (json_array_append_new(list, strict_entry(&f->v[i], level == DSI_FV_STRICT ? "BadRequest" : "Warning")) < 0) {
			json_decref(list);
			list = NULL;
		}
	if (!list)
		return dsi_error_nomem(err);
	if (level == DSI_FV_WARN)
		return json_object_set_new(*result, "warnings", list) < 0 ? dsi_error_nomem(err) : 0;
	dsi_strbuf msg = DSI_STRBUF_INIT;
	dsi_strict_bad_request("DaemonSet", "apps/v1", f, &msg);
	json_t *r = msg.oom ? NULL
			    : json_pack("{s:b, s:i, s:s, s:s, s:o}", "valid", 0, "code", 400, "reason", "BadRequest", "message",
					msg.data, "errors", list);
	dsi_strbuf_free(&msg);
	if (!r)
		return dsi_error_nomem(err);
	json_decref(*result);
	*result = r;
	return 0;
}

/* The request body: parsed as the API server's strict decoder reads it into a DaemonSet. */
static int parse_body(const char *text, size_t size, const ds_options *opts, json_t **obj, dsi_strict_findings *f,
		      ds_error *err)
{
	dsi_field_validation level = dsi_field_validation_of(dsi_o_apiserver(opts));
	return dsi_strict_parse_one(text, size, &dsi_o_core(opts)->limits, level,
				    dsi_schema_root_type("apps/v1", "DaemonSet"), obj, f, err);
}

int ds_manifest_check_fields(const char *text, size_t size, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	if (!text || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "text and json_out must not be NULL");
	json_t *result;
	int rc = dsi_manifest_check_fields(text, size, &dsi_o_core(opts)->limits,
					   dsi_field_validation_of(dsi_o_apiserver(opts)), &result, err);
	if (rc < 0)
		return rc;
	return dsi_json_emit(result, json_out, err);
}

int ds_daemonset_validate(const char *text, size_t size, unsigned flags, const ds_options *opts, char **result_json,
			  ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (result_json)
		*result_json = NULL;
	if (!text || !result_json)
		return dsi_error_set(err, DS_EARG, NULL, "text and result_json must not be NULL");
	if (flags & ~DS_VALIDATE_AS_IS)
		return dsi_error_set(err, DS_EARG, NULL, "unknown flags 0x%x (only DS_VALIDATE_AS_IS applies to a create)",
				     flags & ~DS_VALIDATE_AS_IS);
	const dsi_core_options *o = dsi_o_core(opts);
	json_t *obj, *result;
	dsi_strict_findings f;
	memset(&f, 0, sizeof(f));
	int rc = parse_body(text, size, opts, &obj, &f, err);
	if (rc < 0)
		return rc;
	rc = dsi_daemonset_validate_json(obj, NULL, DSI_VALIDATE_CREATE, (flags & DS_VALIDATE_AS_IS) != 0, o, &result, err);
	json_decref(obj);
	if (rc == 0 && (rc = apply_field_validation(dsi_field_validation_of(dsi_o_apiserver(opts)), &f, &result, err)) < 0)
		json_decref(result);
	dsi_strict_findings_free(&f);
	if (rc < 0)
		return rc;
	return dsi_json_emit(result, result_json, err);
}

int ds_daemonset_validate_update(const char *text, size_t size, const char *old_text, size_t old_size, unsigned flags,
				 const ds_options *opts, char **result_json, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (result_json)
		*result_json = NULL;
	if (!text || !old_text || !result_json)
		return dsi_error_set(err, DS_EARG, NULL, "text, old_text and result_json must not be NULL");
	if (flags & ~(DS_VALIDATE_AS_IS | DS_VALIDATE_STATUS))
		return dsi_error_set(err, DS_EARG, NULL, "unknown flags 0x%x",
				     flags & ~(DS_VALIDATE_AS_IS | DS_VALIDATE_STATUS));
	const dsi_core_options *o = dsi_o_core(opts);
	json_t *obj, *old, *result;
	dsi_strict_findings f;
	memset(&f, 0, sizeof(f));
	int rc = parse_body(text, size, opts, &obj, &f, err);
	if (rc < 0)
		return rc;
	/* the stored object: decoded long ago, its fields are not the request's */
	if ((rc = parse(old_text, old_size, o, &old, err)) < 0) {
		dsi_error_prefix_path(err, "(old)");
		json_decref(obj);
		dsi_strict_findings_free(&f);
		return rc;
	}
	int op = (flags & DS_VALIDATE_STATUS) ? DSI_VALIDATE_STATUS : DSI_VALIDATE_UPDATE;
	rc = dsi_daemonset_validate_json(obj, old, op, (flags & DS_VALIDATE_AS_IS) != 0, o, &result, err);
	json_decref(obj);
	json_decref(old);
	if (rc == 0 && (rc = apply_field_validation(dsi_field_validation_of(dsi_o_apiserver(opts)), &f, &result, err)) < 0)
		json_decref(result);
	dsi_strict_findings_free(&f);
	if (rc < 0)
		return rc;
	return dsi_json_emit(result, result_json, err);
}
