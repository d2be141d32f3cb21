/* What a pod is "updated" against: IsPodUpdated. The hash itself: model/templatehash.h. */
#ifndef DSI_HASH_TEMPLATE_H
#define DSI_HASH_TEMPLATE_H

#include <jansson.h>

#include "model/snapshot.h"
#include "model/templatehash.h"

/* What "updated" compares against, computed once per call. */
typedef struct dsi_revision_key {
	dsi_atom hash;       /* the current hash as an atom of the snapshot, or NONE if no pod can carry it */
	dsi_atom generation; /* the template generation's decimal as an atom, or NONE */
	int has_hash;        /* the hash is non-empty */
} dsi_revision_key;

void dsi_revision_key_init(const dsi_cluster *c, const dsi_daemonset *ds, const char *hash, dsi_revision_key *k);
/* IsPodUpdated (pkg/controller/daemon/util/daemonset_util.go): the hash label
 * equals the current hash, or the pod-template-generation label equals the
 * DaemonSet's template generation. */
static inline int dsi_pod_updated(const dsi_revision_key *k, const dsi_pod *p)
{
	return (k->has_hash && k->hash && p->revision_hash == k->hash) ||
	       (k->generation && p->template_generation == k->generation);
}

#endif
