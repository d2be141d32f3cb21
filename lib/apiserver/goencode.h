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

/* What Go prints for the zero value of a type of Go kind kind (dsi_go_kind): "", 0, false, {} for
 * a struct, "0" for a Quantity, 0 for an IntOrString; null for nil and for Time. New reference. */
json_t *dsi_go_zero(int type, unsigned kind);
/* The Go kind of the elements of a slice or map type, the field holding it having flags. */
unsigned dsi_go_elem_kind(int type, unsigned flags);

#endif
