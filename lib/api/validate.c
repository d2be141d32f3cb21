/* Public entry points of DaemonSet defaulting and validation (ds_daemonset_validate(3)) and of
 * strict field validation (ds_manifest_check_fields(3)). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "api/args.h"
#include "core/error.h"
#include "core/gostr.h"
#include "core/jsonout.h"
#include "core/load.h"
#include "core/optparse.h"
#include "core/yaml.h"
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
	DSI_ARGS_NONNULL(err, text, json_out);
	const dsi_core_options *o = dsi_o_core(opts);
	json_t *obj;
	int rc = parse(text, size, o, &obj, err);
	if (rc < 0)
		return rc;
	json_t *served;
	rc = dsi_daemonset_served(obj, &served, err);
	json_decref(obj);
	if (rc < 0)
		return rc;
	return dsi_json_emit(served, json_out, err);
}

/* A finding (dsi_strict_finding_json's shape) turned into an entry of a validation result, in the
 * shape of its errors: "field", "reason" ("BadRequest": a 400 has no causes, the request was not
 * decoded; or "Warning"), "value" null and "detail" with the suggestion, keeping the finding's own
 * members but those that locate the object (the result is about one object already). */
static int strict_entry(json_t *e, const char *reason)
{
	const char *suggestion = json_string_value(json_object_get(e, "suggestion"));
	dsi_strbuf detail = DSI_STRBUF_INIT;
	if (suggestion) {
		dsi_strbuf_puts(&detail, "did you mean ");
		dsi_go_quote(&detail, suggestion, strlen(suggestion));
		dsi_strbuf_putc(&detail, '?');
	}
	static const char *const locating[] = {"document", "item", "kind", "name", "namespace"};
	for (size_t i = 0; i < sizeof(locating) / sizeof(locating[0]); i++)
		json_object_del(e, locating[i]);
	int rc = detail.oom || json_object_set(e, "field", json_object_get(e, "path")) < 0 ||
				 json_object_del(e, "path") < 0 ||
				 json_object_set_new(e, "reason", json_string(reason)) < 0 ||
				 json_object_set_new(e, "value", json_null()) < 0 ||
				 json_object_set_new(e, "detail", json_string(detail.data ? detail.data : "")) < 0
			 ? -1
			 : 0;
	dsi_strbuf_free(&detail);
	return rc;
}

/*
 * What fieldValidation makes of the findings of one request body (findings: an array of
 * dsi_strict_finding_json objects, taken): Strict with findings, the API server's answer is a 400
 * BadRequest with bad_request as its message instead of any validation (the body was not decoded):
 * *result is replaced; Warn: a "warnings" member (present, maybe empty, whenever the level is Warn).
 */
static int apply_field_validation(dsi_field_validation level, json_t *findings, const char *bad_request,
				  json_t **result, ds_error *err)
{
	if (level == DSI_FV_IGNORE || (level == DSI_FV_STRICT && !json_array_size(findings))) {
		json_decref(findings);
		return 0;
	}
	size_t i;
	json_t *e;
	json_array_foreach(findings, i, e) if (strict_entry(e, level == DSI_FV_STRICT ? "BadRequest" : "Warning") < 0)
	{
		json_decref(findings);
		return dsi_error_nomem(err);
	}
	if (level == DSI_FV_WARN)
		return json_object_set_new(*result, "warnings", findings) < 0 ? dsi_error_nomem(err) : 0;
	json_t *r = json_pack("{s:b, s:i, s:s, s:s, s:o}", "valid", 0, "code", 400, "reason", "BadRequest", "message",
			      bad_request ? bad_request : "", "errors", findings);
	if (!r)
		return dsi_error_nomem(err);
	json_decref(*result);
	*result = r;
	return 0;
}

/* apply_field_validation for the findings of one DaemonSet request body. */
static int apply_findings(dsi_field_validation level, const dsi_strict_findings *f, json_t **result, ds_error *err)
{
	json_t *list = json_array();
	for (size_t i = 0; list && i < f->n; i++)
		if (json_array_append_new(list, dsi_strict_finding_json(&f->v[i])) < 0) {
			json_decref(list);
			list = NULL;
		}
	dsi_strbuf msg = DSI_STRBUF_INIT;
	if (level == DSI_FV_STRICT)
		dsi_strict_bad_request("DaemonSet", "apps/v1", f, &msg);
	int rc = !list || msg.oom ? (json_decref(list), dsi_error_nomem(err))
				  : apply_field_validation(level, list, msg.data, result, err);
	dsi_strbuf_free(&msg);
	return rc;
}

/* The request body: parsed as the API server's strict decoder reads it into a DaemonSet. */
static int parse_body(const char *text, size_t size, const ds_options *opts, json_t **obj, dsi_strict_findings *f,
		      ds_error *err)
{
	dsi_field_validation level = dsi_field_validation_of(dsi_o_apiserver(opts));
	return dsi_strict_parse_one(text, size, &dsi_o_core(opts)->limits, level,
				    dsi_schema_root_type("apps/v1", "DaemonSet"), obj, f, err);
}

/* The end of ds_daemonset_validate and _update: the verdict (rc: the validation's return) with
 * fieldValidation's findings f applied, emitted; f is freed. */
static int emit_verdict(int rc, const ds_options *opts, dsi_strict_findings *f, json_t *result, char **json_out,
			ds_error *err)
{
	if (rc == 0 && (rc = apply_findings(dsi_field_validation_of(dsi_o_apiserver(opts)), f, &result, err)) < 0)
		json_decref(result);
	dsi_strict_findings_free(f);
	if (rc < 0)
		return rc;
	return dsi_json_emit(result, json_out, err);
}

int ds_manifest_check_fields(const char *text, size_t size, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, text, json_out);
	json_t *result;
	int rc = dsi_manifest_check_fields(text, size, &dsi_o_core(opts)->limits,
					   dsi_field_validation_of(dsi_o_apiserver(opts)), &result, err);
	if (rc < 0)
		return rc;
	return dsi_json_emit(result, json_out, err);
}

int ds_daemonset_validate(const char *text, size_t size, unsigned flags, const ds_options *opts, char **json_out,
			  ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, text, json_out);
	if (flags & ~DS_VALIDATE_AS_IS)
		return dsi_error_set(err, DS_EARG, NULL,
				     "unknown flags 0x%x (only DS_VALIDATE_AS_IS applies to a create)",
				     flags & ~DS_VALIDATE_AS_IS);
	const dsi_core_options *o = dsi_o_core(opts);
	json_t *obj, *result;
	dsi_strict_findings f;
	memset(&f, 0, sizeof(f));
	int rc = parse_body(text, size, opts, &obj, &f, err);
	if (rc < 0)
		return rc;
	/* obj is this call's alone: the API server's path changes it rather than a copy */
	rc = dsi_daemonset_validate_json_own(obj, NULL, DSI_VALIDATE_CREATE, (flags & DS_VALIDATE_AS_IS) != 0, o,
					     &result, err);
	json_decref(obj);
	return emit_verdict(rc, opts, &f, result, json_out, err);
}

int ds_daemonset_validate_update(const char *text, size_t size, const char *old_text, size_t old_size, unsigned flags,
				 const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, text, old_text, json_out);
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
	rc = dsi_daemonset_validate_json_own(obj, old, op, (flags & DS_VALIDATE_AS_IS) != 0, o, &result, err);
	json_decref(obj);
	json_decref(old);
	return emit_verdict(rc, opts, &f, result, json_out, err);
}

/* ---- a stream of manifests ---------------------------------------------------------------------- */

typedef struct stream_ctx {
	const char *text;
	size_t size;
	int yaml; /* the text is YAML (not JSON): field positions can be found */
	unsigned flags;
	const dsi_core_options *o;
	json_t *docs;
	size_t invalid, skipped;
	dsi_field_validation level;
	json_t *fields; /* dsi_manifest_check_fields' result for the whole text; NULL with Ignore */
} stream_ctx;

static int same_object(json_t *a, json_int_t document, json_int_t item)
{
	json_t *ai = json_object_get(a, "item");
	return json_integer_value(json_object_get(a, "document")) == document &&
	       (ai ? json_integer_value(ai) : -1) == item;
}

/* The strict findings of one object of the stream (copies), and its 400 message. */
static json_t *object_findings(const stream_ctx *s, json_int_t document, json_int_t item, const char **bad_request)
{
	json_t *list = json_array(), *f;
	size_t i;
	*bad_request = NULL;
	json_array_foreach(json_object_get(s->fields, s->level == DSI_FV_STRICT ? "errors" : "warnings"), i,
			   f) if (same_object(f, document, item) && json_array_append_new(list, json_deep_copy(f)) < 0)
	{
		json_decref(list);
		return NULL;
	}
	json_array_foreach(json_object_get(s->fields, "objects"), i,
			   f) if (same_object(f, document, item)) *bad_request =
		json_string_value(json_object_get(f, "message"));
	return list;
}

/* The decoder error of one document as JSON, with the field's position when the text is YAML. */
static json_t *error_entry(const stream_ctx *s, const dsi_loaded *it, ds_error *e)
{
	char path[DS_ERROR_PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s%s%s", it->path, it->path[0] && e->path[0] && e->path[0] != '[' ? "." : "",
		 e->path);
	int line = 0, column = 0;
	if (s->yaml)
		dsi_yaml_locate(s->text, s->size, it->document, path, &line, &column);
	char code[32]; /* "DS_ETYPE" of "DS_ETYPE: field has the wrong type" */
	snprintf(code, sizeof(code), "%.*s", (int)strcspn(ds_strerror(e->code), ":"), ds_strerror(e->code));
	return json_pack("{s:s, s:s, s:s, s:i, s:i}", "code", code, "path", e->path, "message", e->message, "line",
			 line, "column", column);
}

static int stream_item(void *ctx, const dsi_loaded *it, ds_error *err)
{
	stream_ctx *s = ctx;
	json_t *meta = json_object_get(it->obj, "metadata");
	json_t *e = json_pack("{s:I, s:s?}", "document", (json_int_t)it->document + 1, "kind", it->kind);
	if (!e)
		return dsi_error_nomem(err);
	if (it->path[0])
		json_object_set_new(e, "item", json_integer(strtoll(it->path + 6, NULL, 10))); /* "items[N]" */
	if (json_is_object(meta)) {
		if (json_is_string(json_object_get(meta, "name")))
			json_object_set(e, "name", json_object_get(meta, "name"));
		if (json_is_string(json_object_get(meta, "namespace")))
			json_object_set(e, "namespace", json_object_get(meta, "namespace"));
	}
	if (s->yaml) {
		int line, column;
		if (dsi_yaml_locate(s->text, s->size, it->document, it->path, &line, &column) >= 0)
			json_object_set_new(e, "line", json_integer(line));
	}
	int rc = 0;
	if (!it->kind || strcmp(it->kind, "DaemonSet") != 0) {
		json_object_set_new(e, "skipped", json_true()); /* not ours: kubectl apply sends it elsewhere */
		s->skipped++;
	} else {
		ds_error derr;
		ds_error_clear(&derr);
		json_t *result = NULL, *served;
		int vrc = dsi_daemonset_validate_json(it->obj, NULL, DSI_VALIDATE_CREATE,
						      (s->flags & DS_VALIDATE_AS_IS) != 0, s->o, &result, &derr);
		/* the defaulted object beside the verdict (ds_daemonset_defaults of this document) */
		if (vrc == 0 && (vrc = dsi_daemonset_served(it->obj, &served, &derr)) == 0)
			json_object_set_new(e, "defaulted", served);
		if (vrc == DS_ENOMEM) {
			json_decref(e);
			return dsi_error_nomem(err);
		}
		if (vrc < 0) {
			json_object_set_new(e, "error", error_entry(s, it, &derr));
			s->invalid++;
		} else {
			json_object_update(e, result);
			if (!json_is_true(json_object_get(result, "valid")))
				s->invalid++;
			json_decref(result);
		}
	}
	/* fieldValidation, as for a request with this object as its body: Strict with findings is a
	 * 400 whatever the validation said (and nothing was defaulted); Warn adds "warnings" */
	if (s->fields) {
		const char *bad_request;
		json_int_t item = json_integer_value(json_object_get(e, "item"));
		json_t *findings = object_findings(s, (json_int_t)it->document + 1,
						   json_object_get(e, "item") ? item : -1, &bad_request);
		json_t *verdict = json_object();
		int was_valid = !json_object_get(e, "error") && !json_is_false(json_object_get(e, "valid"));
		if (!findings || !verdict ||
		    apply_field_validation(s->level, findings, bad_request, &verdict, err) < 0) {
			json_decref(verdict);
			json_decref(e);
			return dsi_error_nomem(err);
		}
		if (json_object_get(verdict, "code")) { /* the 400 replaces the verdict */
			static const char *const verdict_keys[] = {"valid",     "errors", "message",
								   "defaulted", "error",  "warnings"};
			for (size_t k = 0; k < sizeof(verdict_keys) / sizeof(verdict_keys[0]); k++)
				json_object_del(e, verdict_keys[k]);
			if (was_valid)
				s->invalid++;
		}
		json_object_update(e, verdict);
		json_decref(verdict);
	}
	if (json_array_append_new(s->docs, e) < 0)
		rc = dsi_error_nomem(err);
	return rc;
}

int ds_daemonset_validate_stream(const char *text, size_t size, unsigned flags, const ds_options *opts, char **json_out,
				 ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, json_out);
	DSI_ARG_DOC(err, text, size);
	if (flags & ~DS_VALIDATE_AS_IS)
		return dsi_error_set(err, DS_EARG, NULL, "unknown flags 0x%x (only DS_VALIDATE_AS_IS applies)",
				     flags & ~DS_VALIDATE_AS_IS);
	size_t i = 0;
	while (i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	stream_ctx s = {
		text, size, !(i < size && (text[i] == '{' || text[i] == '[')), flags, dsi_o_core(opts), json_array(),
		0,    0,    dsi_field_validation_of(dsi_o_apiserver(opts)),    NULL};
	if (!s.docs)
		return dsi_error_nomem(err);
	int rc = s.level == DSI_FV_IGNORE
			 ? 0
			 : dsi_manifest_check_fields(text ? text : "", size, &s.o->limits, s.level, &s.fields, err);
	if (rc == 0)
		rc = dsi_load_text(text ? text : "", size, &s.o->limits, stream_item, &s, err);
	json_decref(s.fields);
	if (rc < 0) {
		json_decref(s.docs);
		return rc;
	}
	json_t *doc = json_pack("{s:b, s:I, s:I, s:I, s:s, s:o}", "valid", s.invalid == 0, "daemonSets",
				(json_int_t)(json_array_size(s.docs) - s.skipped), "invalid", (json_int_t)s.invalid,
				"skipped", (json_int_t)s.skipped, "fieldValidation", dsi_field_validation_name(s.level),
				"documents", s.docs);
	return dsi_json_emit(doc, json_out, err);
}
