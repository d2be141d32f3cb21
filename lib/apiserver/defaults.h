/*
 * The API server's defaults for an apps/v1 DaemonSet: SetDefaults_DaemonSet
 * and the pod template defaults the generated SetObjectDefaults_DaemonSet
 * applies (pkg/apis/apps/v1, pkg/apis/core/v1), on the JSON object in place,
 * with quantities rewritten as the API server serves them.
 */
#ifndef DSI_DEFAULTS_H
#define DSI_DEFAULTS_H

#include <jansson.h>

#include "core/error.h"

/* SetObjectDefaults_DaemonSet (pkg/apis/apps/v1/zz_generated.defaults.go) on
 * obj (a JSON object), in place. A member of the wrong JSON type is DS_ETYPE
 * and an unparsable quantity DS_EVALUE, with the path in err; obj is then
 * partly defaulted. */
int dsi_daemonset_set_defaults(json_t *obj, ds_error *err);
/* The defaults SetObjectDefaults_DaemonSet gives its spec.template (a PodTemplateSpec object; the
 * pod spec's, not SetDefaults_Pod's), on tmpl in place; paths from the template ("spec.containers[0]"). */
int dsi_template_set_defaults(json_t *tmpl, ds_error *err);
/* SetObjectDefaults_Pod on a v1 Pod object, in place: SetDefaults_Pod (requests from limits) and the
 * pod spec's defaults, as for a DaemonSet's template. Errors as above. */
int dsi_pod_set_defaults(json_t *obj, ds_error *err);

/* parsers.ParseImageName (pkg/util/parsers): the tag of a container image
 * reference, "latest" when it has neither tag nor digest; NULL (and *len 0)
 * when the reference does not parse or has a digest and no tag. */
const char *dsi_image_tag(const char *image, size_t n, size_t *len);

#endif
