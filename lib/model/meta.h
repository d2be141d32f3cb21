/* ObjectMeta as the semantics need it: identity, labels, owner, timestamps. */
#ifndef DSI_META_H
#define DSI_META_H

#include <jansson.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/reader.h"
#include "model/labels.h"

/* The controller reference (metav1.GetControllerOf: the first ownerReference with controller: true). */
typedef struct dsi_owner {
	dsi_atom api_version, kind, name, uid;
	uint8_t block_owner_deletion;
} dsi_owner;

typedef struct dsi_meta {
	dsi_atom ns; /* DSI_ATOM_NONE for cluster-scoped objects */
	dsi_atom name;
	/* first: a sync reads the namespace, labels and has_deletion of every pod (see dsi_pod) */
	dsi_labels labels;
	uint8_t has_creation;
	uint8_t has_deletion;
	uint8_t has_deletion_grace;
	dsi_atom uid;
	dsi_atom resource_version;
	int64_t generation;
	dsi_owner controller; /* controller.uid == NONE: no controller */
	uint32_t n_owner_refs;
	ds_time creation;
	ds_time deletion;
	int64_t deletion_grace_seconds;
} dsi_meta;

/* Read metadata (member "metadata" of obj). need_name: missing name is DS_EMISSING.
 * Annotations are not kept here; readers that need one look it up in the JSON. */
int dsi_meta_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, int need_name, dsi_meta *out);
void dsi_meta_release(dsi_atoms *atoms, dsi_meta *m);
int dsi_meta_copy(dsi_atoms *atoms, const dsi_meta *src, dsi_meta *dst);
/* The same from table from into table to. */
int dsi_meta_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_meta *src, dsi_meta *dst);

/* Read an optional RFC 3339 member into *t; *present says whether it was there. */
int dsi_rd_time(dsi_rd *rd, const json_t *obj, const char *key, ds_time *t, uint8_t *present);

/* An optional member holding an array of strings ([]string), each interned: *out gets them (dsi_calloc'ed,
 * NULL when there are none), *n counts them (also when an element fails). */
int dsi_rd_atoms(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_atom **out, uint32_t *n);

/* Copy n atoms of table from into table to: *out dsi_calloc'ed (untouched when n is 0), *nout n. An atom
 * that fails is DSI_ATOM_NONE and sets *failed (dsi_atom_carry_or_none), so releasing what was built drops
 * exactly the references taken; -1 (and *failed) when the array cannot be allocated. */
int dsi_atoms_carry_array(dsi_atoms *to, const dsi_atoms *from, const dsi_atom *src, uint32_t n, dsi_atom **out,
			  uint32_t *nout, int *failed);

/* Small helper: intern a member string (absent/null -> NONE, "" -> NONE when empty_is_none). */
int dsi_rd_atom(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, int empty_is_none, dsi_atom *out);

#endif
