/* The pod the DaemonSet controller creates for a node. */
#ifndef DSI_NEWPOD_H
#define DSI_NEWPOD_H

#include <jansson.h>

#include "daemon/shouldrun.h"

/* ReplaceDaemonSetPodNodeNameNodeAffinity (pkg/controller/daemon/util/daemonset_util.go)
 * on a pod spec JSON object (modified in place). */
int dsi_pin_node_affinity(json_t *spec, const char *node);
/* The same as a patch of an Affinity (goemit.h's merge): {"nodeAffinity": {"requiredDuring...":
 * {"nodeSelectorTerms": [the pin]}}}, merged into the pod's affinity as dsi_pin_node_affinity
 * changes it. A new reference, NULL without memory. */
json_t *dsi_pin_patch(const char *node);

/* CreatePodTemplate + ReplaceDaemonSetPodNodeNameNodeAffinity + GetPodFromTemplate:
 * a new Pod object (new reference) for node, or NULL with err set. p carries
 * the merged tolerations (see dsi_placement_init). hash may be "" (no label).
 * Quantities are in the API server's canonical form (dsi_podspec_canonical_quantities). */
json_t *dsi_new_pod(const dsi_placement *p, const char *node, const char *hash, ds_error *err);

/* dsi_new_pod printed as dsi_go_encode and dsi_json_emit print it (the API's result), written from
 * the template without building the pod (apiserver/goemit.h). 0 with *json_out set, an error of
 * dsi_new_pod (< 0), or 1 (nothing set) where the text is the tree's to write (goemit.h's cases). */
int dsi_new_pod_write(const dsi_placement *p, const char *node, const char *hash, char **json_out, ds_error *err);

/* The same in two steps, for many nodes: the pod without the node pin, built
 * once; then a pod per node that shares every subtree of proto except the
 * path to spec.affinity (NULL: no memory). Such pods are read-only: a change
 * to a shared subtree would show in all of them. */
json_t *dsi_new_pod_proto(const dsi_placement *p, const char *hash, ds_error *err);
json_t *dsi_new_pod_for(const json_t *proto, const char *node);

/* getPodsPrefix (pkg/controller/controller_utils.go): "<name>-", or "<name>"
 * when the dash would make an invalid name prefix. A new string (dsi_free), NULL without memory. */
char *dsi_pods_prefix(const char *name);

#endif
