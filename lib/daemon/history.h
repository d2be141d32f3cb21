/* ControllerRevision history of a DaemonSet (pkg/controller/daemon/update.go). */
#ifndef DSI_HISTORY_H
#define DSI_HISTORY_H

#include <jansson.h>

#include "daemon/hash.h"
#include "model/cluster.h"

typedef struct dsi_history {
	json_t *patch;                 /* getPatch(ds): {"spec":{"template":{...,"$patch":"replace"}}} */
	const dsi_revision *current;   /* the revision whose data matches the template, or NULL */
	json_t *create;                /* when current is NULL: the ControllerRevision to create */
	const dsi_revision **old;      /* claimed revisions that are not current, by revision ascending */
	uint32_t nold;
	const dsi_revision **dups;     /* other revisions matching the template (deleted) */
	uint32_t ndups;
	const dsi_revision **adopt;    /* orphans claimed by the selector (patched with a controller ref) */
	uint32_t nadopt;
	const dsi_revision **release;  /* controlled but no longer matching the selector */
	uint32_t nrelease;
	int64_t next_revision;         /* max(old revisions) + 1 */
	int bump;                      /* current->revision < next_revision: patch it up */
	char hash[DSI_HASH_MAX + 8];   /* the current revision's hash label, or the computed one */
} dsi_history;

/* controlledHistories + constructHistory (update.go): claim, find or build the
 * current revision, deduplicate. */
int dsi_history_construct(const dsi_cluster *c, const dsi_daemonset *ds, dsi_history *h, ds_error *err);
void dsi_history_release(dsi_history *h);

/* getPatch (update.go) */
json_t *dsi_history_patch(const json_t *tmpl);

/* cleanupHistory (update.go): old revisions beyond revisionHistoryLimit that
 * no daemon pod (terminal and deleting ones included) still uses, oldest
 * first. Fills out (h->nold entries at most) and returns the count. */
uint32_t dsi_history_cleanup(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_history *h,
			     const dsi_revision **out);

#endif
