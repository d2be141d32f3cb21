/* Rollout simulation on top of the sync planner. */
#ifndef DSI_SIMULATE_H
#define DSI_SIMULATE_H

#include <jansson.h>

#include "daemon/daemon_options.h"
#include "model/snapshot.h"

/* Simulate ds's rollout from start until it completes, stalls or reaches
 * simMaxTime. The snapshot is not changed (the simulation runs on a copy). */
int dsi_simulate(const dsi_cluster *c, const dsi_daemonset *ds, ds_time start, const dsi_daemon_cfg *o, json_t **out,
		 ds_error *err);

#endif
