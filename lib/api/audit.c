/* Public entry points of the security audit (ds_object_audit(3)). */
#include <jansson.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "api/lookup.h"
#include "core/error.h"
#include "core/jsonout.h"
#include "core/load.h"
#include "core/optparse.h"
#include "ops/riskaudit.h"

/* Parse exactly one object with the options' limits. */
static int parse(const char *text, size_t size, const dsi_ops_cfg *o, json_t **obj, ds_error *err)
{
	return dsi_parse_one(text, size, &o->core->limits, obj, err);
}

int ds_object_audit(const char *text, size_t size, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	if (!text || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "text and json_out must not be NULL");
	const dsi_ops_cfg cfg = dsi_o_ops_cfg(opts), *o = &cfg;
	json_t *obj, *report;
	int rc = parse(text, size, o, &obj, err);
	if (rc < 0)
		return rc;
	const dsi_audit_input in = {.obj = obj, .text = text, .size = size};
	rc = dsi_audit_report(&in, o, &report, err);
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
	if (!text || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "text and json_out must not be NULL");
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
	if ((rc = dsi_audit_daemonset(cluster, ds, &cfg, &report, err)) < 0)
		return rc;
	return dsi_json_emit(report, json_out, err);
}

int ds_audit_sarif(const char *reports, size_t size, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	if (!reports || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "reports and json_out must not be NULL");
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
