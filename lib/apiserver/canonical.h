/*
 * One canonical form for every object that enters the library: the object as the API server holds
 * it. Go's JSON decoder reads the text into the k8s.io/api struct (wrong JSON types and integers out
 * of their int32/int64 range refused, with the JSON path; unknown fields ignored; null the zero
 * value or nil), the API server applies its defaults (SetObjectDefaults_*), stores the struct
 * (protobuf: an empty slice or map comes back nil) and serves it as encoding/json prints it (every
 * field of the struct but those omitempty or omitzero leave out; Quantities in their canonical
 * form, "0.1" -> "100m", "1000m" -> "1"; an IntOrString as it was decoded, 80 and "80" apart).
 * Spellings the API server stores alike come out alike: an env var's value "" or null or absent,
 * tolerations [] or null or absent, resources {} or absent.
 *
 * What the library keeps of a DaemonSet, its ControllerRevisions and the template it hashes is in
 * this form (the snapshot reads them through it), and so is what `defaults` prints.
 */
#ifndef DSI_CANONICAL_H
#define DSI_CANONICAL_H

#include <jansson.h>

#include "core/error.h"
#include "model/model_options.h"

/* Flags of the canonical functions. */
#define DSI_CANON_DEFAULTS 1u /* apply the API server's defaults of the type (below) */
#define DSI_CANON_STORAGE 2u  /* after the storage round trip: empty slices and maps are nil */
#define DSI_CANON_CHECKED 4u  /* v has passed dsi_decode_check as type already: not checked again */
/* As the API server serves the object (and as a controller's informer hands it over). */
#define DSI_CANON_SERVED (DSI_CANON_DEFAULTS | DSI_CANON_STORAGE)

/*
 * The canonical form of v, a value of schema type `type` (apiserver/schema.h), in *out (a new
 * value). Returns 0, or with *out NULL and err (not NULL) filled: DS_ETYPE or DS_EVALUE where Go's
 * decoder refuses v (dsi_decode_check: the path below v), an error of the defaults, DS_ENOMEM. v
 * is not modified. The defaults (DSI_CANON_DEFAULTS)
 * exist for three types: an apps/v1 DaemonSet (SetObjectDefaults_DaemonSet), a v1 Pod
 * (SetObjectDefaults_Pod) and a PodTemplateSpec (the defaults SetObjectDefaults_DaemonSet gives
 * spec.template); other types are printed without.
 */
int dsi_canonical(const json_t *v, int type, unsigned flags, json_t **out, ds_error *err);

/* The schema type of a pod template (io.k8s.api.core.v1.PodTemplateSpec). */
int dsi_canonical_template_type(void);

/*
 * A DaemonSet's spec.template (tmpl: a JSON object; NULL or null: the zero template) in canonical
 * form in *out: dsi_canonical with the template type. This is what the template hash is computed over, what
 * a ControllerRevision's data holds (getPatch) and what NewPod copies. Errors as dsi_canonical, with
 * paths from the template ("spec.containers[0].ports[0].containerPort").
 */
int dsi_canonical_template(const json_t *tmpl, unsigned flags, json_t **out, ds_error *err);

/*
 * The canonical form of a template for its hash alone (dsi_template_hash), cheaper than
 * dsi_canonical_template: printed first (a new tree of its own), then defaulted in place, with no
 * copy of the template. Equal to dsi_canonical_template(tmpl, DSI_CANON_SERVED) value for value
 * (json_equal), returns and errors alike; only the members the defaults add come after the others
 * rather than in the canonical order, which the hash does not see (it walks Go's fields and sorts
 * map keys). checked: tmpl has passed dsi_decode_check as a template already (not checked again).
 */
int dsi_canonical_template_for_hash(const json_t *tmpl, int checked, json_t **out, ds_error *err);

/*
 * An object in canonical form, by the type its apiVersion and kind name in the schema (no
 * apiVersion: that of the snapshot's kinds, Node, Pod, DaemonSet, ControllerRevision,
 * PodDisruptionBudget, PriorityClass; another group's kind, such as OpenKruise's DaemonSet, has
 * fields the schema does not know and no canonical form here). DSI_CANON_DEFAULTS applies
 * only to an apps/v1 DaemonSet and a v1 Pod. A ControllerRevision's data (a RawExtension, bytes to
 * the API server) keeps its members, and the template it holds ({"spec": {"template": {...,
 * "$patch": "replace"}}}, getPatch's shape) is made canonical when it decodes (else it is kept as
 * it is: the controller compares the bytes, it never decodes them). *obj_out: the new object; 1
 * when the kind has no canonical form here (*obj_out then NULL); errors as dsi_canonical.
 */
int dsi_canonical_object(const json_t *obj, unsigned flags, json_t **obj_out, ds_error *err);

/* Semantic.DeepEqual (apimachinery pkg/api/equality) of a and b (NULL: the zero value) decoded into
 * type: their canonical forms (storage round trip: nil and empty slices and maps alike) compared,
 * quantities by value. What does not decode is compared as JSON (dsi_semantic_equal). */
int dsi_semantic_equal_as(const json_t *a, const json_t *b, int type);

/* The snapshot's hook (dsi_model_options.prepare): what the snapshot reads of an object is in
 * canonical form, and what Go's decoder refuses is refused (see canonical.c). */
int dsi_canonical_prepare(json_t *obj, int kind, unsigned how, dsi_prepared *out, ds_error *err);

#endif
