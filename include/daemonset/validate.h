/*
 * libdaemonset: validate. Include <daemonset.h> rather than this file.
 *
 * The API server's defaults and validation for apps/v1 DaemonSets: what
 * `kubectl apply` would be told, with upstream's field paths and message
 * texts. No cluster snapshot is needed. See ds_daemonset_validate(3) and
 * ds_daemonset_defaults(3).
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_VALIDATE_H
#define DAEMONSET_VALIDATE_H

#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Apply the defaults the API server applies to a DaemonSet (given as JSON or
 * YAML text, exactly one document): SetDefaults_DaemonSet (updateStrategy
 * RollingUpdate with maxUnavailable 1 and maxSurge 0, revisionHistoryLimit
 * 10) and the pod template's defaults, with quantities as the API server
 * serves them. *json_out receives the defaulted object (free with ds_free).
 */
DS_EXTERN int ds_daemonset_defaults(const char *text, size_t size, const ds_options *opts, char **json_out,
				    ds_error *err);

/* Flags of ds_daemonset_validate and ds_daemonset_validate_update. */
/* Validate the object(s) exactly as given: no defaulting, no registry
 * preparation and no selector-immutability check - upstream's
 * ValidateDaemonSet / ValidateDaemonSetUpdate / ValidateDaemonSetStatusUpdate
 * alone, as their unit tests call them. */
#define DS_VALIDATE_AS_IS 1u
/* ds_daemonset_validate_update: a write to the status subresource. */
#define DS_VALIDATE_STATUS 2u

/*
 * Validate the creation of a DaemonSet as the API server would. Finding
 * problems is a successful call: *json_out receives
 * {"valid": bool, "errors": [{"field", "type", "reason", "value", "detail",
 * "message"}], "message": "DaemonSet.apps \"x\" is invalid: ..." or null}
 * (free with ds_free). Input the API server could not decode (malformed text,
 * a field of the wrong JSON type, an unparsable quantity, another kind) is an
 * error code with the path in err. flags: 0 or DS_VALIDATE_AS_IS.
 * The body is decoded as the option fieldValidation says (default Strict):
 * with unknown or repeated fields, Strict answers as the API server does, a
 * 400 ("code": 400, "reason": "BadRequest", "message": "DaemonSet in version
 * \"v1\" cannot be handled as a DaemonSet: strict decoding error: unknown
 * field ...", one entry per field in "errors"); Warn adds "warnings" to the
 * result; Ignore lets them pass (a repeated key keeps its last value).
 */
DS_EXTERN int ds_daemonset_validate(const char *text, size_t size, unsigned flags, const ds_options *opts,
				    char **json_out, ds_error *err);

/*
 * Validate every DaemonSet of a stream of manifests (one object, a List, a
 * multi-document YAML stream or concatenated JSON values, as kubectl apply -f
 * reads them) as ds_daemonset_validate does, each on its own. Other kinds are
 * skipped (kubectl would send them elsewhere). Documents are numbered as the
 * loader numbers them: every YAML document counts, empty and comment-only ones
 * (as Helm emits them) included. *json_out: {"valid","daemonSets","invalid",
 * "skipped","documents":[{"document","item"?,"line"?,"kind","name","namespace",
 * "skipped"? | "valid","errors","message","defaulted"? | "error":{"code",
 * "path","message","line","column"}}]}, "error" where the API server could not
 * decode the object (line and column of the field, in YAML). Text that is not
 * JSON or YAML fails the call (DS_ESYNTAX with err->line and err->column).
 * flags: 0 or DS_VALIDATE_AS_IS.
 */
DS_EXTERN int ds_daemonset_validate_stream(const char *text, size_t size, unsigned flags, const ds_options *opts,
					   char **json_out, ds_error *err);

/*
 * Strict field validation, as the API server does it for a request with
 * fieldValidation=Strict (kubectl's default, --validate=strict) or Warn:
 * every object of text (JSON or YAML; one document, a List, a multi-document
 * stream or concatenated JSON values) is checked against the published
 * OpenAPI schema of its kind for unknown fields (`unknown field
 * "spec.template.spec.containers[0].imagee"`) and repeated keys (`duplicate
 * field "metadata.labels.app"`), with the field likely meant and the key's
 * line and column. The level is the option fieldValidation (Strict, Warn,
 * Ignore; default Strict). Findings are a successful call: *json_out
 * receives {"fieldValidation", "schema", "errors": [...], "warnings": [...],
 * "objects": [...]} (free with ds_free); ds_manifest_check_fields(3) lists
 * the members. Malformed text is an error code with the position in err.
 */
DS_EXTERN int ds_manifest_check_fields(const char *text, size_t size, const ds_options *opts, char **json_out,
				       ds_error *err);

/*
 * Validate an update of old_text to text (a PUT of the object, or with
 * DS_VALIDATE_STATUS of its status). Same result as ds_daemonset_validate;
 * errors about the old object have paths starting with "(old)".
 */
DS_EXTERN int ds_daemonset_validate_update(const char *text, size_t size, const char *old_text, size_t old_size,
					   unsigned flags, const ds_options *opts, char **json_out, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif
