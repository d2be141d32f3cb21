/* kubectl rollout undo for a DaemonSet (kubectl pkg/polymorphichelpers/rollback.go). */
#ifndef DSI_ROLLBACK_H
#define DSI_ROLLBACK_H

#include <jansson.h>

#include "model/snapshot.h"

/* DaemonSetRollbacker.Rollback: to_revision 0 means the previous revision.
 * On success *out is {"message","toRevision","skipped","patch","daemonSet"}. */
int dsi_rollback(const dsi_cluster *c, const dsi_daemonset *ds, int64_t to_revision, json_t **out, ds_error *err);
/* The revisions kubectl lists (controlled by the DaemonSet, selector matching), by revision. */
json_t *dsi_history_list(const dsi_cluster *c, const dsi_daemonset *ds);

#endif
