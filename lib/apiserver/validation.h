/*
 * The API server's validation of DaemonSets (kubernetes pkg/apis/apps/validation,
 * the parts of pkg/apis/core/validation a pod template needs, and apimachinery's
 * ObjectMeta and label-selector validation), with upstream's field paths and
 * message texts (apimachinery pkg/util/validation/field).
 *
 * Two kinds of failure are kept apart: the walk stops with a negative code
 * (DS_ETYPE, DS_EVALUE, ...) where the API server's decoder would refuse the
 * object; field errors - what upstream's validation reports - accumulate in
 * a dsi_field_errors list and never stop the walk.
 */
#ifndef DSI_VALIDATE_H
#define DSI_VALIDATE_H

#include <jansson.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/optparse.h"
#include "core/reader.h"
#include "core/strbuf.h"

/* field.ErrorType, in the order of upstream's constants. */
typedef enum dsi_fe_type {
	DSI_FE_NOT_FOUND,
	DSI_FE_REQUIRED,
	DSI_FE_DUPLICATE,
	DSI_FE_INVALID,
	DSI_FE_NOT_SUPPORTED,
	DSI_FE_FORBIDDEN,
	DSI_FE_TOO_LONG,
	DSI_FE_TOO_MANY,
	DSI_FE_INTERNAL,
} dsi_fe_type;

/* One field.Error. */
typedef struct dsi_field_error {
	int type;      /* dsi_fe_type */
	char *field;   /* field.Path.String(): "spec.template.spec.containers[0].resources.limits[cpu]" */
	json_t *value; /* the bad value as JSON; NULL when the message shows none */
	char *shown;   /* the value as ErrorBody renders it; NULL when it shows none */
	char *detail;  /* "" when none */
} dsi_field_error;

typedef struct dsi_field_errors {
	dsi_field_error *v;
	size_t n, cap;
	int oom;
} dsi_field_errors;

void dsi_field_errors_free(dsi_field_errors *e);
/* "FieldValueInvalid" (the cause type the API returns) / "Invalid" (short). */
const char *dsi_fe_reason(int type);
const char *dsi_fe_short(int type);
/* Error.Error(): "<field>: <ErrorBody>" appended to out. */
void dsi_field_error_string(const dsi_field_error *e, dsi_strbuf *out);

/* The walk's state: two renderings of the current position. */
typedef struct dsi_vctx {
	dsi_rd rd;                             /* our JSON path, for decoder-type errors (ds_error) */
	dsi_strbuf fp;                         /* field.Path as upstream renders it (map keys as [key]) */
	dsi_field_errors *errs;                /* where field errors go */
	dsi_atoms *atoms;                      /* for label selectors */
	unsigned gates;                        /* DSI_GATE_* */
	uint8_t allow_invalid_selector_values; /* LabelSelectorValidationOptions.AllowInvalidLabelValueInSelector */
	uint8_t allow_relaxed_env;             /* useRelaxedEnvironmentVariableValidation's old-spec escape */
} dsi_vctx;

typedef struct dsi_vmark {
	size_t rd, fp;
} dsi_vmark;

/* Descend (Child / Index / Key) and come back. */
dsi_vmark dsi_v_child(dsi_vctx *c, const char *name);
dsi_vmark dsi_v_index(dsi_vctx *c, size_t i);
dsi_vmark dsi_v_key(dsi_vctx *c, const char *key, size_t n);
void dsi_v_pop(dsi_vctx *c, dsi_vmark m);

/*
 * Add a field error at the current field path extended by child (a '.'-joined
 * Child() chain, or NULL). value is stolen (may be NULL); shown is how the
 * message prints it (NULL: not printed).
 */
void dsi_v_add(dsi_vctx *c, const char *child, int type, json_t *value, const char *shown, const char *detail);
/* Shorthands for the BadValue kinds ErrorBody renders differently: */
void dsi_v_required(dsi_vctx *c, const char *child, const char *detail);
void dsi_v_forbidden(dsi_vctx *c, const char *child, const char *detail);
/* a Go string: printed with %q */
void dsi_v_str(dsi_vctx *c, const char *child, int type, const char *s, size_t n, const char *detail);
/* a named string type (RestartPolicy, TaintEffect, ...): printed as JSON */
void dsi_v_named(dsi_vctx *c, const char *child, int type, const char *s, size_t n, const char *detail);
/* an integer: printed with %v */
void dsi_v_int(dsi_vctx *c, const char *child, int type, int64_t v, const char *detail);
/* any other value: printed as json.Marshal would (maps with sorted keys) */
void dsi_v_json(dsi_vctx *c, const char *child, int type, json_t *value, const char *detail);
/* field.NotSupported: the value rendered per named, the valid values quoted */
void dsi_v_not_supported(dsi_vctx *c, const char *child, int named, const char *s, size_t n, const char *const *valid,
			 size_t nvalid);

/* Go's json.Marshal of a JSON value: compact, object keys sorted, HTML-escaped strings. */
void dsi_go_marshal(dsi_strbuf *b, const json_t *v);

/* ---- apimachinery pieces (validate.c) --------------------------------------------- */

/* ValidateLabels (apimachinery pkg/apis/meta/v1/validation): the member key of
 * obj, errors at the current path + child. */
int dsi_v_labels(dsi_vctx *c, const json_t *obj, const char *key, const char *child);
/* ValidateAnnotations (apimachinery pkg/api/validation/objectmeta.go). skip: a
 * key the conversion removed (NULL: none). */
int dsi_v_annotations(dsi_vctx *c, const json_t *obj, const char *key, const char *child, const char *skip);
/* ValidateLabelName at the current path + child. */
void dsi_v_label_name(dsi_vctx *c, const char *child, const char *k, size_t n);
/* IsValidLabelValue messages at the current path + child. */
void dsi_v_label_value(dsi_vctx *c, const char *child, const char *v, size_t n);
/* A DNS name check (subdomain or label) with Invalid errors per message. */
void dsi_v_dns_subdomain(dsi_vctx *c, const char *child, const char *s, size_t n);
void dsi_v_dns_label(dsi_vctx *c, const char *child, const char *s, size_t n);
/* ValidateLabelSelector on the member key of obj (at the current path + key). */
int dsi_v_label_selector(dsi_vctx *c, const json_t *obj, const char *key);
/* ValidateNonnegativeField */
void dsi_v_nonnegative(dsi_vctx *c, const char *child, int64_t v);

/* Typed reads that fail the walk on a wrong JSON type (decoder errors). */
int dsi_v_string(dsi_vctx *c, const json_t *obj, const char *key, const char **out, size_t *len);
int dsi_v_object(dsi_vctx *c, const json_t *obj, const char *key, json_t **out);
int dsi_v_array(dsi_vctx *c, const json_t *obj, const char *key, json_t **out);
int dsi_v_int64(dsi_vctx *c, const json_t *obj, const char *key, int64_t *out, int *present);
int dsi_v_int32(dsi_vctx *c, const json_t *obj, const char *key, int32_t *out, int *present);
int dsi_v_bool(dsi_vctx *c, const json_t *obj, const char *key, int *out, int *present);
/* Element i of arr as an object (null reads as {}: out NULL). */
int dsi_v_elem_object(dsi_vctx *c, const json_t *arr, size_t i, json_t **out);
/* Element i of arr as a string. */
int dsi_v_elem_string(dsi_vctx *c, const json_t *arr, size_t i, const char **out, size_t *len);

/* ---- the pod template (validate_podtemplate.c) ------------------------------------ */

/* ValidatePodTemplateSpec (pkg/apis/core/validation/validation.go) on tmpl
 * (NULL: the zero template) at the current path. */
int dsi_validate_pod_template(dsi_vctx *c, const json_t *tmpl);
/* ValidateTolerations on the array member key of spec. */
int dsi_validate_tolerations(dsi_vctx *c, const json_t *spec, const char *key);

/* ---- DaemonSets (validate.c) --------------------------------------------------------- */

/* A DaemonSet as the API server holds it internally: the apps/v1 JSON with the
 * deprecated.daemonset.template.generation annotation taken out into
 * template_generation (Convert_v1_DaemonSet_To_apps_DaemonSet). */
typedef struct dsi_vds {
	json_t *obj; /* owned */
	int64_t template_generation;
} dsi_vds;

/* Decode: obj must be an apps/v1 DaemonSet (kind and apiVersion may be absent);
 * copies it and moves the template-generation annotation out. An annotation
 * that is not an int64 is DS_EVALUE (the conversion fails upstream). */
int dsi_vds_decode(const json_t *obj, dsi_vds *out, ds_error *err);
/* The same without the copy: out holds a reference to obj itself, which the caller gives up (what
 * the API server's path does to the object, defaults included, changes obj). */
int dsi_vds_decode_own(json_t *obj, dsi_vds *out, ds_error *err);
void dsi_vds_release(dsi_vds *d);
/* The DaemonSet obj (any spelling) as the API server serves it after decoding and defaulting it
 * (canonical.h, without what the registry adds on create): *out, a new object, or an error of
 * dsi_vds_decode or of the decoding. */
int dsi_daemonset_served(const json_t *obj, json_t **out, ds_error *err);

/* relaxedEnvVarUsed over the names of the pod specs spec and old_spec (pkg/api/pod/util.go
 * useRelaxedEnvironmentVariableValidation without its gate): does spec keep an env var name the old one
 * had that the strict rule (IsEnvVarName) refuses? An update may then use the relaxed rule. */
int dsi_relaxed_env_used(const json_t *spec, const json_t *old_spec);

/* Upstream's functions, on objects as given (no defaulting): */
/* ValidateDaemonSet (pkg/apis/apps/validation/validation.go) */
int dsi_validate_daemonset(dsi_vctx *c, const dsi_vds *ds);
/* ValidateDaemonSetUpdate */
int dsi_validate_daemonset_update(dsi_vctx *c, const dsi_vds *ds, const dsi_vds *old);
/* ValidateDaemonSetStatusUpdate */
int dsi_validate_daemonset_status_update(dsi_vctx *c, const dsi_vds *ds, const dsi_vds *old);
/* ValidateRollingUpdateDaemonSet on a RollingUpdateDaemonSet object (NULL:
 * both fields 0, as the internal type holds them) with field path path. */
int dsi_validate_rolling_update(dsi_vctx *c, const json_t *ru);

/* Set up and tear down a walk that writes into errs. */
void dsi_vctx_init(dsi_vctx *c, dsi_field_errors *errs, dsi_atoms *atoms, unsigned gates, ds_error *err);
void dsi_vctx_release(dsi_vctx *c);

/* What the operation is. */
enum { DSI_VALIDATE_CREATE = 0, DSI_VALIDATE_UPDATE = 1, DSI_VALIDATE_STATUS = 2 };

/*
 * The whole operation as ds_daemonset_validate(3) documents it: decode, then
 * (unless as_is) the API server's defaulting and registry preparation
 * (BeforeCreate/BeforeUpdate, the DaemonSet strategy), then validation; the
 * result object {"valid","errors":[...],"message"} in *result.
 */
int dsi_daemonset_validate_json(const json_t *obj, const json_t *old, int op, int as_is, const dsi_core_options *o,
				json_t **result, ds_error *err);
/* The same on objects the caller gives up, which it changes rather than copies (obj and old: parsed for
 * this call and released after it, nothing else referring to them). */
int dsi_daemonset_validate_json_own(json_t *obj, json_t *old, int op, int as_is, const dsi_core_options *o,
				    json_t **result, ds_error *err);

/* An update of old to obj through the API server's path (defaults, BeforeUpdate and PrepareForUpdate:
 * generation and template generation bumped as the template and spec changed, status kept), then
 * ValidateDaemonSetUpdate: *result as dsi_daemonset_validate_json's, and when it is valid *stored, the
 * object the server would store (apps/v1, the template generation in its annotation), in canonical
 * form (canonical.h). */
int dsi_daemonset_update_json(const json_t *obj, const json_t *old, const dsi_core_options *o, json_t **stored,
			      json_t **result, ds_error *err);

/* The result object for a list of field errors about the DaemonSet named name. */
json_t *dsi_validation_result(const dsi_field_errors *errs, const char *name);

/* ---- shared by the files of this layer ---------------------------------------------- */

#define TEMPLATE_GENERATION_KEY "deprecated.daemonset.template.generation"
#define IS_NEGATIVE_MSG "must be greater than or equal to 0"
#define IMMUTABLE_MSG "field is immutable"

/* An object member, for walks in Go's sorted map order. */
typedef struct kv {
	const char *k;
	size_t n;
	json_t *v;
} kv;
/* Order of kv by key bytes (dsi_sort_stable's comparator). */
int dsi_kv_cmp(const void *a, const void *b, void *ctx);
/* The members of obj sorted by key (free with dsi_free; NULL when empty or out of memory). */
kv *dsi_json_sorted_members(const json_t *obj, size_t *count);
/* a[0..n) equals the literal */
int dsi_streq_lit(const char *a, size_t n, const char *lit);
/* One Invalid error per message of msgs (messages joined by "; "), at the current path + child. */
void dsi_v_each_message(dsi_vctx *c, const char *child, int named, const char *s, size_t n, const char *msgs);
/* ValidateObjectMeta for a create, and ValidateObjectMetaUpdate. */
int dsi_v_object_meta_create(dsi_vctx *c, const json_t *meta);
int dsi_v_object_meta_update(dsi_vctx *c, const json_t *meta, const json_t *old);
/* Semantic.DeepEqual on JSON; quantities: compare quantity strings by value. */
int dsi_semantic_equal(const json_t *a, const json_t *b, int quantities);
/* A label selector with a value that fails label-value validation. */
int dsi_selector_has_invalid_value(const json_t *sel);
/* json.Marshal of a LabelSelector as the registry prints it. */
void dsi_marshal_selector(dsi_strbuf *b, const json_t *sel);

#endif
