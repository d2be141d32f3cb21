#include "model/revision.h"

#include <string.h>

#include "model/templatehash.h"

int dsi_revision_read(dsi_rd *rd, dsi_atoms *atoms, json_t *obj, dsi_revision *out)
{
	memset(out, 0, sizeof(*out));
	out->obj = json_incref(obj);
	int rc, present;
	if ((rc = dsi_meta_read(rd, atoms, obj, 1, &out->meta)) < 0 ||
	    (rc = dsi_rd_int64(rd, obj, "revision", &out->revision, &present)) < 0)
		goto fail;
	out->data = json_object_get(obj, "data");
	if (out->data && dsi_json_digest(out->data, &out->data_digest) < 0) {
		rc = dsi_error_nomem(rd->err);
		goto fail;
	}
	dsi_atom k = dsi_atom_lookup_cstr(atoms, "controller-revision-hash");
	out->hash = k ? dsi_labels_get(&out->meta.labels, k) : DSI_ATOM_NONE;
	if (!out->hash) /* constructHistory labels such revisions with their name */
		out->hash = out->meta.name;
	dsi_atom_ref(atoms, out->hash);
	return 0;
fail:
	dsi_revision_release(atoms, out);
	return rc;
}

void dsi_revision_release(dsi_atoms *atoms, dsi_revision *r)
{
	dsi_atom_unref(atoms, r->hash);
	dsi_meta_release(atoms, &r->meta);
	json_decref(r->obj);
	memset(r, 0, sizeof(*r));
}
