/*
 * An object as Go prints it (encoding/json Marshal of the Go struct) after decoding it from JSON,
 * by the schema's types and the Go facts of their fields (apiserver/schema.h): the objects that
 * upstream's functions return (the Pod NewPod makes, a PodSpec, an Affinity) are Go structs, and
 * the API server serves them so.
 */
#ifndef DSI_GOENCODE_H
#define DSI_GOENCODE_H

#include <jansson.h>

/*
 * Rewrite v (an object or array of schema type `type`, owned by the caller: no subtree may be
 * shared) in place:
 * - a field Go does not have is dropped (the decoder ignored it);
 * - an omitempty field with an empty value is dropped (isEmptyValue: nil pointer, slice or map,
 *   empty slice or map, "", 0, false; a struct value is never empty, so {"preference": {}} stays,
 *   and a non-nil pointer is kept whatever it points to: terminationGracePeriodSeconds 0 stays);
 * - an omitzero field with a zero value is dropped (creationTimestamp null);
 * - null where Go has a value prints that value: "" for a string, 0, false, {} for a struct,
 *   "0" for a Quantity, 0 for an IntOrString (Time and pointers, slices, maps: null stays);
 * - a Quantity is printed in its String() form ("1000m": "1"), a Time as RFC 3339 UTC seconds.
 * Fields that are absent stay absent, even those Go would print with their zero value.
 * Returns 0, or DS_ENOMEM (v then partly rewritten). type -1: v stays as it is.
 */
int dsi_go_encode(json_t *v, int type);

/* dsi_go_print's options. */
#define DSI_GO_STORAGE                                                                                                 \
	1u /* after the API server's storage round trip (protobuf): an empty slice or map                              \
	    * (and an empty []byte) comes back nil, so it prints as a nil one does */
#define DSI_GO_SHARED                                                                                                  \
	2u /* the scalars (strings, numbers, booleans) v prints as they are are v's own, referenced rather             \
	    * than copied: for a print that no one changes in place and that is dropped while v lives */

/*
 * What encoding/json prints for the Go struct that v decodes into (type: its schema type): every
 * field of the struct, not only those v has. A field v lacks (or has null) is its zero value, which
 * is printed unless omitempty or omitzero leaves it out: "resources": {} for a container (a struct
 * value, never empty), "selector": null (a pointer without omitempty), 0 for an int32 without
 * omitempty. Fields Go does not have are dropped, null elements of slices and maps print the zero
 * value of their type (null for pointers), Quantities and Times are printed as their MarshalJSON
 * does. Members of types the schema does not know (RawExtension) are copied as they are. v is
 * expected to have passed dsi_decode_check; a member of the wrong JSON type is copied as it is.
 * Returns a new value, NULL when out of memory; type -1: a copy of v.
 */
json_t *dsi_go_print(const json_t *v, int type, unsigned opts);

/* What Go prints for the zero value of a type of Go kind kind (dsi_go_kind): "", 0, false, {} for
 * a struct, "0" for a Quantity, 0 for an IntOrString; null for nil and for Time. New reference. */
json_t *dsi_go_zero(int type, unsigned kind);
/* The Go kind of the elements of a slice or map type, the field holding it having flags. */
unsigned dsi_go_elem_kind(int type, unsigned flags);
/* isEmptyValue (omitempty) of what v decodes into, a value of Go kind kind (DSI_GO_*). */
int dsi_go_is_empty(const json_t *v, unsigned kind);
/* IsZero (omitzero) of what v decodes into, of schema type type and Go kind kind. */
int dsi_go_is_zero(const json_t *v, int type, unsigned kind);
/* What Time.MarshalJSON prints for v, a value of type, into buf (NUL-terminated; size >=
 * DSI_GO_TIME_MAX): its length, or 0 when type is no Time or v no time (printed as it is). */
#define DSI_GO_TIME_MAX 40
size_t dsi_go_time_text(const json_t *v, int type, char *buf, size_t size);

#endif
