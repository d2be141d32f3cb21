/*
 * The document arguments of the pure functions (upstream.h) and of parsed objects (object.h): each
 * text parsed once, checked as Go's JSON decoder would decode it into the upstream function's
 * argument type (apiserver/decodecheck.h), and its objects found with the place of each in the
 * text for error paths. Shared by the text functions and ds_object_parse, so that both read a
 * document alike.
 */
#ifndef DSI_API_DOCS_H
#define DSI_API_DOCS_H

#include <jansson.h>

#include "daemonset.h"
#include "core/limits.h"
#include "core/reader.h"
#include "model/snapshot.h"

/* One JSON or YAML document; "null" or nothing gives *out NULL. Errors name what as their source. */
int dsi_api_parse_doc(const char *text, size_t size, const char *what, json_t **out, ds_error *err);
/* v (owned) as Go's decoder takes it into type: DS_ETYPE or DS_EVALUE where it refuses it, else v
 * with its null elements made the zero values they decode into. */
int dsi_api_go_decode(json_t *v, int type, ds_error *err);
/* The Go type a Pod argument decodes into: a Pod (or a PodTemplateSpec: the same fields but status)
 * when it has a spec, else a bare PodSpec. */
int dsi_api_pod_type(const json_t *obj);
/* A Pod, always (the scheduler's text functions). */
int dsi_api_pod_type_strict(void);
/* One document that must be an object (what: its name in errors) that Go's decoder takes as the
 * core/v1 type named type_name ("Pod": dsi_api_pod_type; NULL: not checked here). */
int dsi_api_parse_object(const char *text, size_t size, const char *what, const char *type_name, json_t **out,
			 ds_error *err);
/* The part of dsi_api_parse_object after parsing, for a value (owned; "null" or NULL: nothing),
 * which is freed and made NULL on error. */
int dsi_api_check_object(json_t **v, const char *what, const char *type_name, ds_error *err);
/* An array document (nothing or "null": empty) of the array type type, wrapped as {"v": array}
 * for the list readers. */
int dsi_api_parse_list(const char *text, size_t size, const char *what, int type, json_t **wrapped, ds_error *err);
/* The part of dsi_api_parse_list after parsing, for a value (owned; NULL or "null": empty). */
int dsi_api_check_list(json_t *v, const char *what, int type, json_t **wrapped, ds_error *err);
/* A reader that reads as Go's decoder does (dsi_rd.lenient). */
void dsi_api_lenient_rd(dsi_rd *rd, ds_error *err);
/* A Pod's or a PodTemplateSpec's spec, or obj itself when it is a bare PodSpec. */
const json_t *dsi_api_spec_of(const json_t *obj);

/* Where an object of a document argument was: "[2]" in an array, "items[2]" in a List, "" for an
 * object alone or a document of a stream (document: 0-based). */
typedef struct dsi_api_origin {
	char path[32];
	size_t document;
} dsi_api_origin;

/* The objects of a document argument (a JSON array of objects, or what the loader reads: one
 * object, a List, a stream), each with kind and apiVersion filled in from its list. */
typedef struct dsi_api_objects {
	json_t *arr;
	dsi_api_origin *where; /* one per object of arr */
	size_t documents;      /* documents of the stream */
	uint32_t listed;       /* 1 << dsi_supply: the typed Lists it held, items or none (dsi_cluster_supplied) */
} dsi_api_objects;

/* Parse text once into o (released with dsi_api_objects_release in every case). */
int dsi_api_objects_of(const char *text, size_t size, const dsi_limits *lim, dsi_api_objects *o, ds_error *err);
void dsi_api_objects_release(dsi_api_objects *o);
/* The same for a value (owned: a copy no one else holds, whose objects are taken as they are). */
int dsi_api_objects_of_value(json_t *v, const dsi_limits *lim, dsi_api_objects *o, ds_error *err);
/* Every object of o as Go decodes it into its kind's type (kind: for those without one), then
 * each without a kind given kind and api_version. Errors name the object's place in the text, and
 * *document the object's document (1-based) in a stream of several, else 0. */
int dsi_api_objects_decode(dsi_api_objects *o, const char *kind, const char *api_version, size_t *document,
			   ds_error *err);
/* err's path, of an object of o loaded as item i of a List ("items[i]..."), as the path in the text
 * of that object; returns the object's document (1-based) in a stream of several, or 0. */
size_t dsi_api_error_at_origin(ds_error *err, const dsi_api_objects *o);
/* err's source: what, and where in it when the loader or dsi_api_error_at_origin said. */
void dsi_api_error_source(ds_error *err, const char *what, size_t document);

/* A private snapshot whose loads read leniently. */
int dsi_api_scratch_init(dsi_cluster *c, const ds_options *opts, ds_error *err);
/* Load the objects of text (one object, a List or a stream) into c, each object without a kind taken
 * as kind/api_version; bind (when not NULL) sets spec.nodeName of pods that have none. exactly: the
 * text must hold one object. Errors name their field as a path in text, with what as the source. */
int dsi_api_scratch_add(dsi_cluster *c, const char *text, size_t size, const char *kind, const char *api_version,
			const char *bind, int exactly, const char *what, ds_error *err);
/* The same for text or (when not NULL) a value (owned: a copy no one else holds); kept (may be NULL)
 * gets the objects as loaded, with kinds filled in (the caller releases them). */
int dsi_api_scratch_add_objects(dsi_cluster *c, const char *text, size_t size, json_t *value, const char *kind,
				const char *api_version, const char *bind, int exactly, dsi_api_objects *kept,
				const char *what, ds_error *err);

#endif
