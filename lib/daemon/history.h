/* ControllerRevision history of a DaemonSet (pkg/controller/daemon/update.go). */
#ifndef DSI_HISTORY_H
#define DSI_HISTORY_H

#include <jansson.h>

#include "daemon/podupdated.h"
#include "model/snapshot.h"

typedef struct dsi_history {
	const json_t *patch;         /* borrowed: ds->patch, getPatch(ds) */
	const dsi_revision *current; /* the revision whose data matches the template, or NULL */
	json_t *create;              /* when current is NULL and DSI_HISTORY_CREATE: the ControllerRevision to create */
	const dsi_revision **old;    /* claimed revisions that are not current, by revision ascending */
	uint32_t nold;
	const dsi_revision **dups; /* other revisions matching the template (deleted) */
	uint32_t ndups;
	const dsi_revision **adopt; /* orphans claimed by the selector (patched with a controller ref) */
	uint32_t nadopt;
	const dsi_revision **release; /* controlled but no longer matching the selector */
	uint32_t nrelease;
	int64_t next_revision;       /* max(old revisions) + 1 */
	int bump;                    /* current->revision < next_revision: patch it up */
	char hash[DSI_HASH_MAX + 8]; /* the current revision's hash label, or the computed one */
	const char *new_hash;        /* when current is NULL: the hash the new revision is named by (borrowed) */
	/* no revision matches the template although the DaemonSet has some and the controller has seen
	 * its generation: the template was edited without the API server (a hand-edited dump) */
	int edited_outside;
} dsi_history;

/* controlledHistories + constructHistory (update.go): claim, find or build the
 * current revision, deduplicate. */
#define DSI_HISTORY_CREATE 1u /* build h->create when no revision is current */
/* hash (NULL: ds->hash) is the template's hash when no revision matches it (option revisionHash). */
int dsi_history_construct(const dsi_cluster *c, const dsi_daemonset *ds, const char *hash, unsigned flags,
			  dsi_history *h, ds_error *err);
void dsi_history_release(dsi_history *h);
/* The name of the revision to create when none is current (snapshot, update.go: <ds>-<hash>, hash
 * h->new_hash), which h->create has when it was built. */
void dsi_history_new_name(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_history *h, char *buf, size_t size);

/* Whether r's data equals the DaemonSet's patch (the digest rules most out). */
static inline int dsi_revision_is_current(const dsi_daemonset *ds, const dsi_revision *r)
{
	return r->data && r->data_digest == ds->patch_digest && json_equal(r->data, ds->patch);
}

/* cleanupHistory (update.go): old revisions beyond revisionHistoryLimit that
 * no daemon pod (terminal and deleting ones included) still uses, oldest
 * first. Fills out (h->nold entries at most) and returns the count. */
uint32_t dsi_history_cleanup(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_history *h,
			     const dsi_revision **out);

/* The warning for h->edited_outside: *out a new string (dsi_free), or NULL when it is not set; -1
 * without memory. */
int dsi_history_warning(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_history *h, char **out);

/* The names of n revisions as a JSON array of strings (new reference, NULL when out of memory). */
json_t *dsi_revision_names(const dsi_cluster *c, const dsi_revision *const *v, uint32_t n);

#endif
