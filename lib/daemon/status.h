/* DaemonSet status as the controller counts it (updateDaemonSetStatus). */
#ifndef DSI_STATUS_H
#define DSI_STATUS_H

#include "daemon/daemon_options.h"
#include "daemon/dspods.h"
#include "daemon/podupdated.h"
#include "daemon/shouldrun.h"

typedef struct dsi_status_input {
	const dsi_cluster *c;
	const dsi_daemonset *ds;
	const dsi_verdict *verdict; /* per node index */
	const dsi_ds_pods *pods;
	const dsi_revision_key *key;
	ds_time now;
	int k8s_minor;
} dsi_status_input;

/* updateDaemonSetStatus (daemon_controller.go): for each node that should run a
 * pod, the oldest of its pods (podByCreationTimestampAndPhase) decides ready,
 * available and updated; pods on nodes that should not run one are misscheduled. */
void dsi_status_count(const dsi_status_input *in, dsi_ds_status *out);
/* storeDaemonSetStatus skips the write when the counters are unchanged and
 * observedGeneration is current. */
int dsi_status_changed(const dsi_daemonset *ds, const dsi_ds_status *st);
/* The whole pass on its own: placement, pods, current hash, counting. */
int dsi_status_compute(const dsi_cluster *c, const dsi_daemonset *ds, ds_time now, const dsi_daemon_cfg *o,
		       dsi_ds_status *out, ds_error *err);

#endif
