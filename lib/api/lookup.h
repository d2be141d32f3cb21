/* Lookups and answers shared by the public wrappers. */
#ifndef DSI_API_LOOKUP_H
#define DSI_API_LOOKUP_H

#include "daemon/shouldrun.h"
#include "model/nodeselector.h"
#include "model/snapshot.h"

/* The DaemonSet ns/name of the snapshot, or DS_EARG / DS_ENOTFOUND with the
 * API server's text ("daemonsets.apps \"x\" not found"). */
int dsi_api_find_ds(const ds_cluster *c, const char *ns, const char *name, const dsi_daemonset **out, ds_error *err);
/* The start of a wrapper that answers about one DaemonSet in JSON: json_out must not be NULL (DS_EARG) and
 * stays NULL until the answer, then the DaemonSet as dsi_api_find_ds finds it. */
int dsi_api_find_ds_json(const ds_cluster *c, const char *ns, const char *name, char **json_out,
			 const dsi_daemonset **out, ds_error *err);

/* The node named name of the snapshot: DS_EARG when name is NULL, DS_ENOTFOUND with the API
 * server's text ("nodes \"x\" not found") when there is none; errors carry path (may be NULL). */
int dsi_api_find_node(const ds_cluster *c, const char *name, const char *path, const dsi_node **out, ds_error *err);

/* LazyErrorNodeSelector.Match when no term matched (component-helpers nodeaffinity.go): DS_EVALUE
 * with the parse errors of the invalid terms as upstream aggregates them, or 0 when no term is
 * invalid (a plain "no match"). */
int dsi_api_node_selector_errors(const dsi_node_selector *s, ds_error *err);

/* The Pod the controller creates for node (dsi_new_pod with the options' placement), printed as Go's
 * encoding/json prints the Go object (dsi_go_encode), into *json_out; shared by ds_daemonset_pod and
 * ds_daemonset_new_pod. */
int dsi_api_emit_pod(const dsi_cluster *c, const dsi_daemonset *ds, const char *node, const char *hash,
		     const ds_options *opts, char **json_out, ds_error *err);
/* The same for a DaemonSet's placement made already (a parsed object's). */
int dsi_api_emit_pod_placed(const dsi_placement *p, const char *node, const char *hash, char **json_out, ds_error *err);

#endif
