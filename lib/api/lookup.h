/* Lookups shared by the public wrappers. */
#ifndef DSI_API_LOOKUP_H
#define DSI_API_LOOKUP_H

#include "model/cluster.h"

/* The DaemonSet ns/name of the snapshot, or DS_EARG / DS_ENOTFOUND with the
 * API server's text ("daemonsets.apps \"x\" not found in namespace \"y\""). */
int dsi_api_find_ds(const ds_cluster *c, const char *ns, const char *name, const dsi_daemonset **out, ds_error *err);

#endif
