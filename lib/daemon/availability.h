/* Pod readiness and availability (k8s.io/kubernetes pkg/api/v1/pod util). */
#ifndef DSI_AVAILABILITY_H
#define DSI_AVAILABILITY_H

#include "model/pod.h"

/* IsPodReady: the Ready condition is True. */
static inline int dsi_pod_ready_p(const dsi_pod *p) { return p->ready; }

/* IsPodAvailable: Ready, and minReadySeconds is 0 or the Ready condition's
 * lastTransitionTime + minReadySeconds is before now (at or before from 1.34,
 * PR #132122; k8s_minor selects). */
static inline int dsi_pod_available(const dsi_pod *p, int32_t min_ready_seconds, ds_time now, int k8s_minor)
{
	if (!p->ready)
		return 0;
	if (min_ready_seconds == 0)
		return 1;
	if (!p->has_ready_time)
		return 0;
	ds_time at = p->ready_time + (ds_time)min_ready_seconds * 1000;
	return k8s_minor >= 34 ? at <= now : at < now;
}

/* When an unavailable but Ready pod becomes available (-1: never, or not ready). */
static inline ds_time dsi_pod_available_at(const dsi_pod *p, int32_t min_ready_seconds, int k8s_minor)
{
	if (!p->ready || !p->has_ready_time)
		return -1;
	ds_time at = p->ready_time + (ds_time)min_ready_seconds * 1000;
	return k8s_minor >= 34 ? at : at + 1;
}

#endif
