/* Public entry points of DaemonSet defaulting and validation (ds_daemonset_validate(3)). */
#include <jansson.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "core/error.h"
#include "core/jsonout.h"
#include "core/load.h"
#include "core/optparse.h"
#include "apiserver/defaults.h"
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

int ds_daemonset_validate(const char *text, size_t size, unsigned flags, const ds_options *opts, char **json_out,
			  ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	if (!text || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "text and json_out must not be NULL");
	if (flags & ~DS_VALIDATE_AS_IS)
		return dsi_error_set(err, DS_EARG, NULL, "unknown flags 0x%x (only DS_VALIDATE_AS_IS applies to a create)",
				     flags & ~DS_VALIDATE_AS_IS);
	const dsi_core_options *o = dsi_o_core(opts);
	json_t *obj, *result;
	int rc = parse(text, size, o, &obj, err);
	if (rc < 0)
		return rc;
	rc = dsi_daemonset_validate_json(obj, NULL, DSI_VALIDATE_CREATE, (flags & DS_VALIDATE_AS_IS) != 0, o, &result, err);
	json_decref(obj);
	if (rc < 0)
		return rc;
	return dsi_json_emit(result, json_out, err);
}

int ds_daemonset_validate_update(const char *text, size_t size, const char *old_text, size_t old_size, unsigned flags,
				 const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	if (!text || !old_text || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "text, old_text and json_out must not be NULL");
	if (flags & ~(DS_VALIDATE_AS_IS | DS_VALIDATE_STATUS))
		return dsi_error_set(err, DS_EARG, NULL, "unknown flags 0x%x",
				     flags & ~(DS_VALIDATE_AS_IS | DS_VALIDATE_STATUS));
	const dsi_core_options *o = dsi_o_core(opts);
	json_t *obj, *old, *result;
	int rc = parse(text, size, o, &obj, err);
	if (rc < 0)
		return rc;
	if ((rc = parse(old_text, old_size, o, &old, err)) < 0) {
		dsi_error_prefix_path(err, "(old)");
		json_decref(obj);
		return rc;
	}
	int op = (flags & DS_VALIDATE_STATUS) ? DSI_VALIDATE_STATUS : DSI_VALIDATE_UPDATE;
	rc = dsi_daemonset_validate_json(obj, old, op, (flags & DS_VALIDATE_AS_IS) != 0, o, &result, err);
	json_decref(obj);
	json_decref(old);
	if (rc < 0)
		return rc;
	return dsi_json_emit(result, json_out, err);
}
