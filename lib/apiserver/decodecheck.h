/*
 * What Go's JSON decoder refuses when it decodes a document into the Kubernetes API types
 * (encoding/json through sigs.k8s.io/json, as upstream's functions receive their objects): a value
 * of the wrong JSON type for its field, an integer field given a fraction or a number out of its
 * range, an IntOrString, Quantity or Time that does not unmarshal, []byte that is not base64. It is
 * decoding, not validation: null is accepted everywhere (the zero value, or nil), unknown fields
 * are ignored, enums and required fields are not looked at. The types are the schema's
 * (apiserver/schema.h).
 */
#ifndef DSI_DECODECHECK_H
#define DSI_DECODECHECK_H

#include <jansson.h>

#include "core/error.h"

/* Would json.Unmarshal of v into the Go type of schema type `type` succeed? 0, or the error it
 * returns as DS_ETYPE ("expected string, got number") or DS_EVALUE (an unparsable quantity or
 * time, bad base64) with the JSON path of the field below v ("spec.containers[0].name", "[2].key"
 * for an array). As Go, the first type error in document order is reported unless an error of a
 * type's own UnmarshalJSON (IntOrString, Quantity, Time) comes later, which stops the decoder at
 * once. type -1: anything goes. */
int dsi_decode_check(const json_t *v, int type, ds_error *err);

/* After dsi_decode_check: null elements of slices and null values of maps in v replaced by the
 * zero value Go decodes them into ({} for a struct, "" for a string, ...; null stays for pointers),
 * so that readers see what the Go function sees. 0, or DS_ENOMEM (v then partly rewritten). */
int dsi_decode_zero_nulls(json_t *v, int type);

/* Both: v checked, then (when it passed and has null elements) made what Go decodes. */
int dsi_decode(json_t *v, int type, ds_error *err);

/* Schema types of what the pure functions decode, or -1. */
int dsi_decode_type_named(const char *short_name); /* "PodSpec": io.k8s.api.core.v1.PodSpec, ... */
int dsi_decode_type_taints(void);                  /* []Taint */
int dsi_decode_type_tolerations(void);             /* []Toleration */
/* The type an object of the library's kinds decodes into by its kind (Node, Pod, DaemonSet,
 * ControllerRevision, PodDisruptionBudget, PriorityClass, whatever group the snapshot reads it
 * from), or -1 for another kind. */
int dsi_decode_type_of_kind(const char *kind);

#endif
