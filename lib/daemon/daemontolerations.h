/* The tolerations the DaemonSet controller adds to every daemon pod. */
#ifndef DSI_DAEMON_TOLERATIONS_H
#define DSI_DAEMON_TOLERATIONS_H

#include "model/taints.h"

/* AddOrUpdateDaemonPodTolerations (pkg/controller/daemon/util/daemonset_util.go):
 * not-ready and unreachable NoExecute; disk-pressure, memory-pressure,
 * pid-pressure and unschedulable NoSchedule; network-unavailable NoSchedule
 * for hostNetwork pods; all Exists, without tolerationSeconds. Every template
 * toleration equal in key, operator, value and effect is replaced in place
 * (losing its tolerationSeconds, as upstream's helper does); the others are
 * appended in that order.
 * Uses only atoms the snapshot pinned (no interning), so it is read-only. */
int dsi_daemon_tolerations(const dsi_atoms *atoms, const dsi_tolerations *tmpl, int host_network, dsi_tolerations *out);

#endif
