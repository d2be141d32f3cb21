/* The template hash (controller.ComputeHash's role) and IsPodUpdated. */
#ifndef DSI_HASH_TEMPLATE_H
#define DSI_HASH_TEMPLATE_H

#include <jansson.h>

#include "model/cluster.h"

#define DSI_HASH_MAX 16

/*
 * Our ComputeHash: upstream hashes a Go debug print of the template, which C
 * cannot reproduce. We hash the template's canonical JSON (keys sorted,
 * compact) with FNV-32a, then, when collisionCount is set, its value as 8
 * little-endian bytes (4 of them zero), as upstream does; the decimal of the
 * 32-bit sum is mapped through upstream's safe alphabet (rand.SafeEncodeString).
 * Deterministic in (template, collisionCount). Returns 0 or -1 (no memory).
 */
int dsi_template_hash(const json_t *tmpl, int has_collision_count, int32_t collision_count, char out[DSI_HASH_MAX]);

/* rand.SafeEncodeString (apimachinery pkg/util/rand) */
void dsi_safe_encode(const char *in, char *out, size_t size);

/* What "updated" compares against, computed once per call. */
typedef struct dsi_revision_key {
	dsi_atom hash;        /* the current hash as an atom of the snapshot, or NONE if no pod can carry it */
	dsi_atom generation;  /* the template generation's decimal as an atom, or NONE */
	int has_hash;         /* the hash is non-empty */
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
