/*
 * Leader election on a coordination.k8s.io/v1 Lease as pure functions of
 * (Lease, previous observation, now): client-go tools/leaderelection's
 * tryAcquireOrRenew and tryRelease with the LeaseLock. As client-go does, a
 * lease is judged valid by when *we* observed its record change (the local
 * clock), never by the renewTime another replica wrote, so clock skew between
 * replicas does not matter.
 */
#ifndef DSI_CTRL_LEASE_H
#define DSI_CTRL_LEASE_H

#include <jansson.h>

#include "daemonset/controller.h"

#include "core/error.h"

typedef struct dsi_lease_cfg {
	const char *identity, *ns, *name;
	int64_t duration_ms, renew_deadline_ms;
} dsi_lease_cfg;

/* Read and check the public config (size-versioned). */
int dsi_lease_cfg_read(const ds_lease_config *in, dsi_lease_cfg *out, ds_error *err);
/* tryAcquireOrRenew: the decision document (see ds_lease_decide(3)). */
int dsi_lease_decide(const dsi_lease_cfg *cfg, const json_t *lease, const json_t *state, ds_time now, json_t **out,
		     ds_error *err);
/* tryRelease */
int dsi_lease_release(const dsi_lease_cfg *cfg, const json_t *lease, const json_t *state, ds_time now, json_t **out,
		      ds_error *err);
/* IsLeader and not past the renew deadline since our last successful write. */
int dsi_lease_is_leader(const dsi_lease_cfg *cfg, const json_t *state, ds_time now, int *leader, ds_error *err);

#endif
