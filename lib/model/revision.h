/* ControllerRevision: a stored template of a DaemonSet. */
#ifndef DSI_REVISION_H
#define DSI_REVISION_H

#include <jansson.h>

#include "model/meta.h"

typedef struct dsi_revision {
	dsi_meta meta;
	json_t *obj;          /* the object as loaded (owned) */
	json_t *data;         /* borrowed: .data */
	uint32_t data_digest; /* dsi_json_digest(data) when data is set: a cheap first inequality test */
	int64_t revision;
	dsi_atom hash; /* label controller-revision-hash; the name when the label is absent (constructHistory) */
	uint32_t index;
} dsi_revision;

int dsi_revision_read(dsi_rd *rd, dsi_atoms *atoms, json_t *obj, dsi_revision *out);
void dsi_revision_release(dsi_atoms *atoms, dsi_revision *r);

#endif
