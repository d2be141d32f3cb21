/*
 * Strict field validation, as the API server does it with fieldValidation=Strict (or Warn): the
 * decoder (sigs.k8s.io/json UnmarshalStrict, case-sensitive) reports each field the Go type does
 * not have, `unknown field "spec.template.spec.containers[0].imagee"`, and each key repeated in
 * one object, `duplicate field "metadata.labels.app"`, with the path of the key in the object
 * (keys joined with '.', array elements as [i]); it does not look inside an unknown field or a
 * field of free form (RawExtension, FieldsV1), keeps at most 100 and each text once. The field
 * facts come from the published OpenAPI schema (schema.h). Beyond upstream, each unknown field
 * gets the field that was likely meant (a different case, a typo of up to two edits, or the field
 * of a child object it belongs in) and, when the text is at hand, its line and column.
 */
#ifndef DSI_STRICT_H
#define DSI_STRICT_H

#include <jansson.h>
#include <stdint.h>

#include "apiserver/apiserver_options.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/keyscan.h"
#include "core/limits.h"
#include "core/strbuf.h"

enum { DSI_STRICT_UNKNOWN, DSI_STRICT_DUPLICATE };

/* The decoder keeps this many strict errors of one object (saveStrictError, sigs.k8s.io/json
 * internal/golang/encoding/json/decode.go: "prevent excessive numbers of accumulated errors"). */
#define DSI_STRICT_MAX 100

typedef struct dsi_strict_finding {
	int type;         /* DSI_STRICT_UNKNOWN or DSI_STRICT_DUPLICATE */
	char *path;       /* in the object: "spec.template.spec.containers[0].imagee" */
	size_t key;       /* the field's own name is path + key */
	char *suggestion; /* the likely intended field, written where the key is ("image",
			   * "resources.requests"); NULL when none */
	int line, column; /* of the key in the text; 0 when not known */
} dsi_strict_finding;

typedef struct dsi_strict_findings {
	dsi_strict_finding *v;
	size_t n, cap;
	int oom;
} dsi_strict_findings;

void dsi_strict_findings_free(dsi_strict_findings *f);

/* One finding's text as the API server words it (and as the Warning header carries it):
 * `unknown field "path"` / `duplicate field "path"`. */
void dsi_strict_finding_text(const dsi_strict_finding *f, dsi_strbuf *b);
/* The whole 400 BadRequest message for an object of kind in apiVersion:
 * `DaemonSet in version "v1" cannot be handled as a DaemonSet: strict decoding error: ..., ...`. */
void dsi_strict_bad_request(const char *kind, const char *api_version, const dsi_strict_findings *f, dsi_strbuf *b);
/* A finding as JSON: {"type", "path", "field", "message", "suggestion", "line", "column"} (NULL: no memory). */
json_t *dsi_strict_finding_json(const dsi_strict_finding *f);

/*
 * The unknown fields of one parsed object, for callers that no longer have its text (the audit):
 * its kind and apiVersion pick the schema. Repeated keys are gone from a parse tree, so they are
 * not found here, and positions are 0. Returns 0 with the findings appended to out (in the order
 * of the object's keys), 1 when there is no schema for the object's kind (out unchanged), or
 * DS_ENOMEM.
 */
int dsi_strict_check(const json_t *obj, dsi_strict_findings *out);

/*
 * Parse exactly one object from text as the API server's strict decoder reads a request body:
 * the JSON or YAML text into *obj (a repeated key keeps its last value), and its unknown and
 * repeated fields into out (sorted by position, each text once, at most DSI_STRICT_MAX). type:
 * the schema type to decode into (dsi_schema_root_type), or -1 to take it from the object's kind
 * and apiVersion (an object of another kind has only its repeated keys checked, as an
 * unstructured object is). With DSI_FV_IGNORE nothing is looked for. Errors as dsi_parse_one.
 */
int dsi_strict_parse_one(const char *text, size_t size, const dsi_limits *lim, dsi_field_validation level, int type,
			 json_t **obj, dsi_strict_findings *out, ds_error *err);

/*
 * ds_manifest_check_fields(3): every object of a text (documents, Lists, concatenated JSON)
 * checked at level; *result receives {"fieldValidation", "errors", "warnings", "objects"}.
 */
int dsi_manifest_check_fields(const char *text, size_t size, const dsi_limits *lim, dsi_field_validation level,
			      json_t **result, ds_error *err);

#endif
