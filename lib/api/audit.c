/* Public entry points of the security audit (ds_object_audit(3)). */
#include <jansson.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "api/args.h"
#include "api/lookup.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/jsonout.h"
#include "core/load.h"
#include "core/optparse.h"
#include "apiserver/strict.h"
#include "ops/riskaudit.h"

/* Parse exactly one object with the options' limits. */
static int parse(const char *text, size_t size, const dsi_ops_cfg *o, json_t **obj, ds_error *err)
{
	return dsi_parse_one(text, size, &o->core->limits, obj, err);
}

/* The unknown fields among the findings of strict field validation, as the audit takes them
 * (pointing into f). Repeated keys are the decoder's business, not a risk of the object. */
static dsi_audit_field *unknown_fields(const dsi_strict_findings *f, size_t *n)
{
	dsi_audit_field *u = dsi_malloc((f->n ? f->n : 1) * sizeof(*u));
	*n = 0;
	for (size_t i = 0; u && i < f->n; i++)
		if (f->v[i].type == DSI_STRICT_UNKNOWN)
			u[(*n)++] = (dsi_audit_field){f->v[i].path, f->v[i].suggestion};
	return u;
}

int ds_object_audit(const char *text, size_t size, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, text, json_out);
	const dsi_ops_cfg cfg = dsi_o_ops_cfg(opts), *o = &cfg;
	json_t *obj, *report;
	dsi_strict_findings f = {0};
	/* fieldValidation Strict or Warn: the fields the API does not know are findings; with
	 * Ignore they are not looked for. The object's own kind picks the schema. */
	int rc = dsi_strict_parse_one(text, size, &o->core->limits, dsi_field_validation_of(dsi_o_apiserver(opts)), -1,
				      &obj, &f, err);
	if (rc < 0)
		return rc;
	size_t n;
	dsi_audit_field *u = unknown_fields(&f, &n);
	const dsi_audit_input in = {.obj = obj, .text = text, .size = size, .unknown_fields = u, .n_unknown_fields = n};
	rc = u ? dsi_audit_report(&in, o, &report, err) : dsi_error_nomem(err);
	dsi_free(u);
	dsi_strict_findings_free(&f);
	json_decref(obj);
	if (rc < 0)
		return rc;
	return dsi_json_emit(report, json_out, err);
}

int ds_pod_security_evaluate(const char *text, size_t size, const char *level, const char *version,
			     const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, text, json_out);
	const dsi_ops_cfg cfg = dsi_o_ops_cfg(opts), *o = &cfg;
	json_t *obj, *result;
	int rc = parse(text, size, o, &obj, err);
	if (rc < 0)
		return rc;
	rc = dsi_pss_evaluate_object(obj, level, version, o, &result, err);
	json_decref(obj);
	if (rc < 0)
		return rc;
	return dsi_json_emit(result, json_out, err);
}

int ds_daemonset_audit(const ds_cluster *cluster, const char *namespace_, const char *name, const ds_options *opts,
		       char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	const dsi_daemonset *ds;
	int rc = dsi_api_find_ds_json(cluster, namespace_, name, json_out, &ds, err);
	if (rc < 0)
		return rc;
	const dsi_ops_cfg cfg = dsi_o_ops_cfg(opts);
	json_t *report;
	/* the text is gone: unknown fields of the object as it was given (repeated keys were resolved when it
	 * was read; its canonical form has only the fields the API knows) */
	dsi_strict_findings f = {0};
	if (dsi_field_validation_of(dsi_o_apiserver(opts)) != DSI_FV_IGNORE &&
	    dsi_strict_check(ds->given ? ds->given : ds->obj, &f) < 0)
		return dsi_error_nomem(err);
	size_t n;
	dsi_audit_field *u = unknown_fields(&f, &n);
	rc = u ? dsi_audit_daemonset(cluster, ds, u, n, &cfg, &report, err) : dsi_error_nomem(err);
	dsi_free(u);
	dsi_strict_findings_free(&f);
	if (rc < 0)
		return rc;
	return dsi_json_emit(report, json_out, err);
}

int ds_audit_sarif(const char *reports, size_t size, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, reports, json_out);
	const dsi_ops_cfg cfg = dsi_o_ops_cfg(opts), *o = &cfg;
	json_t *in, *log;
	int rc = parse(reports, size, o, &in, err);
	if (rc < 0)
		return rc;
	rc = dsi_audit_sarif(in, DS_VERSION_STRING, &log, err);
	json_decref(in);
	if (rc < 0)
		return rc;
	return dsi_json_emit(log, json_out, err);
}
