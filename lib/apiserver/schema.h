/*
 * Field facts of the Kubernetes API types a manifest can hold (DaemonSet, the pod template and
 * everything under it, ObjectMeta, the other workloads, RBAC, ...): for each type its field names
 * and each field's type, from the published OpenAPI schema, and how Go serializes each field
 * (its json tag's omitempty and omitzero, and the kind of its Go type), from the Go structs of
 * k8s.io/api and k8s.io/apimachinery of the same release. The tables are generated
 * (schema_data.c, by tests/gen-schema.py, which records the upstream sources and versions);
 * this header is how the rest of the library reads them.
 */
#ifndef DSI_SCHEMA_H
#define DSI_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

/* What a value of a type is. */
typedef enum dsi_schema_kind {
	DSI_SK_ANY,     /* anything: RawExtension, FieldsV1, preserve-unknown-fields */
	DSI_SK_STRING,  /* (with a format: "date-time" for metav1.Time, "byte", ...) */
	DSI_SK_INTEGER, /* format "int32" or "int64" */
	DSI_SK_NUMBER,  /* format "double" */
	DSI_SK_BOOLEAN,
	DSI_SK_INT_OR_STRING, /* intstr.IntOrString */
	DSI_SK_QUANTITY,      /* resource.Quantity */
	DSI_SK_OBJECT,        /* a named type with fields */
	DSI_SK_ARRAY,         /* of elem */
	DSI_SK_MAP,           /* string keys to elem */
} dsi_schema_kind;

/* The generated tables (schema_data.c). Names are offsets into dsi_schema_names. */
typedef struct dsi_schema_type {
	uint8_t kind;   /* dsi_schema_kind */
	uint16_t elem;  /* ARRAY, MAP: the element type */
	uint16_t first; /* OBJECT: its fields are dsi_schema_fields[first, first + n), sorted by name */
	uint16_t n;
	uint32_t name; /* OBJECT: the OpenAPI name; a scalar: its format ("" when none) */
} dsi_schema_type;

/* A field's Go facts (dsi_schema_field.flags): the kind of its Go type in bits 4-6, ... */
typedef enum dsi_go_kind {
	DSI_GO_VALUE = 0x00,     /* a string, bool or number (or a named type of one) */
	DSI_GO_STRUCT = 0x10,    /* a struct value: never omitempty's "empty" (Time, Quantity, IntOrString too) */
	DSI_GO_POINTER = 0x20,   /* nil for JSON null */
	DSI_GO_SLICE = 0x30,     /* nil for null, empty for [] */
	DSI_GO_MAP = 0x40,       /* nil for null, empty for {} */
	DSI_GO_INTERFACE = 0x50, /* nil for null */
} dsi_go_kind;
#define DSI_GO_KIND_MASK 0x70
/* ... and its json tag's options in the low bits. */
#define DSI_SF_OMITEMPTY 0x01 /* ",omitempty": left out when empty (encoding/json isEmptyValue) */
#define DSI_SF_OMITZERO 0x02  /* ",omitzero": left out when zero (IsZero(), or the zero value) */
#define DSI_SF_ELEM_NIL 0x04  /* a slice or map of pointers: a null element is nil, not a zero value */
/* Tables generated without the Go sources: nothing known (a VALUE without options). */
#define DSI_SF_UNKNOWN 0x00

typedef struct dsi_schema_field {
	uint32_t name;
	uint16_t type;
	uint8_t flags; /* dsi_go_kind | DSI_SF_* */
} dsi_schema_field;

typedef struct dsi_schema_root {
	uint32_t api_version, kind;
	uint16_t type;
} dsi_schema_root;

extern const char dsi_schema_source[]; /* the upstream schema: release, file, sha256 */
extern const char dsi_schema_names[];
extern const dsi_schema_type dsi_schema_types[];
extern const size_t dsi_schema_ntypes;
extern const dsi_schema_field dsi_schema_fields[];
extern const size_t dsi_schema_nfields;
extern const dsi_schema_root dsi_schema_roots[];
extern const size_t dsi_schema_nroots;

/* Type ids index dsi_schema_types; -1 is "none". */

/* The type of the top-level object of apiVersion/kind ("apps/v1", "DaemonSet"; "v1", "Pod"), or -1. */
int dsi_schema_root_type(const char *api_version, const char *kind);
/* The type id of the named OpenAPI type ("io.k8s.api.core.v1.PodSpec"), or -1. */
int dsi_schema_named(const char *name);

static inline dsi_schema_kind dsi_schema_kind_of(int type) { return (dsi_schema_kind)dsi_schema_types[type].kind; }
/* ARRAY and MAP: the element type. */
static inline int dsi_schema_elem(int type) { return dsi_schema_types[type].elem; }
/* OBJECT: its OpenAPI name; a scalar: its format ("" when none). */
static inline const char *dsi_schema_type_name(int type) { return dsi_schema_names + dsi_schema_types[type].name; }

/* OBJECT: how many fields, and field i's name and type (in byte order of the names). */
static inline size_t dsi_schema_nfields_of(int type)
{
	return dsi_schema_types[type].kind == DSI_SK_OBJECT ? dsi_schema_types[type].n : 0;
}
static inline const char *dsi_schema_field_name(int type, size_t i)
{
	return dsi_schema_names + dsi_schema_fields[dsi_schema_types[type].first + i].name;
}
static inline int dsi_schema_field_type_at(int type, size_t i)
{
	return dsi_schema_fields[dsi_schema_types[type].first + i].type;
}
static inline unsigned dsi_schema_field_flags_at(int type, size_t i)
{
	return dsi_schema_fields[dsi_schema_types[type].first + i].flags;
}

/* OBJECT: the type of its field name[0, len) (exact, case-sensitive, as the API server decodes), or -1. */
int dsi_schema_field_type(int type, const char *name, size_t len);
/* OBJECT: the index of its field name[0, len) for the *_at accessors, or -1. */
long dsi_schema_field_index(int type, const char *name, size_t len);

/* The type at a dotted path below type ("spec.template.spec.containers"; array elements and map
 * values are stepped into with "[]"), or -1. For tests and tools. */
int dsi_schema_at(int type, const char *path);

#endif
