/*
 * The resource.Quantity fields of a PodSpec, written as the API server
 * serves them: every quantity in its String() form, as Quantity.MarshalJSON
 * writes it (apimachinery pkg/api/resource/quantity.go).
 */
#ifndef DSI_QUANTITY_FIELDS_H
#define DSI_QUANTITY_FIELDS_H

#include <jansson.h>

#include "core/error.h"

/* A quantity that does not parse is an error (DS_EVALUE, DS_ETYPE or
 * DS_ELIMIT with its path below spec), as the API server refuses to decode
 * it; without the flag it is left as it is (validation reports it). */
#define DSI_QFIELDS_STRICT 1u

/* Rewrite, in the pod spec JSON object spec (in place), every field of type
 * resource.Quantity (k8s.io/api core/v1 types.go):
 *   containers[], initContainers[], ephemeralContainers[]: resources.limits,
 *     resources.requests, env[].valueFrom.resourceFieldRef.divisor;
 *   resources.limits and resources.requests (pod-level resources); overhead;
 *   volumes[]: emptyDir.sizeLimit,
 * downwardAPI.items[].resourceFieldRef.divisor,
 *     projected.sources[].downwardAPI.items[].resourceFieldRef.divisor,
 *     ephemeral.volumeClaimTemplate.spec.resources.limits and .requests.
 * Numbers and non-canonical strings become Quantity.String() ("cpu": 0.15 ->
 * "150m", "1000m" -> "1", "0.5Gi" -> "512Mi"; text upstream keeps verbatim,
 * such as "1e3", stays). A null member of a resource list and a divisor that
 * is null or absent are "0" (a zero Quantity, which MarshalJSON writes
 * although the field is omitempty). Parts of the wrong JSON type are skipped.
 * Returns 0, DS_ENOMEM, or with DSI_QFIELDS_STRICT the first bad quantity's
 * error (spec is then partly rewritten). */
int dsi_podspec_canonical_quantities(json_t *spec, unsigned flags, ds_error *err);

#endif
