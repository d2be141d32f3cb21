/*
 * Leader election for a host loop, as client-go's LeaderElector (tools/leaderelection) runs it
 * with a LeaseLock: ds_lease_try_acquire_or_renew(3) decides, this file does the GET and the create or update
 * of the coordination.k8s.io/v1 Lease through host_backend.request, and waits through
 * host_backend.wait (so the in-memory cluster's virtual time passes as the real one does).
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_EXAMPLE_LEADER_H
#define DS_EXAMPLE_LEADER_H

#include "backend.h"

typedef struct leader_options {
	const char *identity;                 /* NULL: hostname_UUID, as kube-controller-manager makes it */
	const char *ns, *name;                /* the Lease */
	int64_t lease_ms, renew_ms, retry_ms; /* lease duration, renew deadline, retry period */
} leader_options;

/* kube-controller-manager's defaults (--leader-elect-lease-duration 15s, --leader-elect-renew-deadline
 * 10s, --leader-elect-retry-period 2s); the Lease is dsrun's own, not kube-controller-manager's. */
#define LEADER_OPTIONS_INIT                                                                                            \
	{                                                                                                              \
		NULL, "kube-system", "dsrun", 15000, 10000, 2000                                                       \
	}

typedef struct leader leader;

/* One of --identity, --lease-namespace, --lease-name, --lease-duration, --renew-deadline,
 * --retry-period with its value (durations: 15s, 500ms, or seconds): 1 when flag is one of
 * them, 0 when it is not, -1 (with a message on stderr) for a bad value. */
int leader_flag(leader_options *o, const char *flag, const char *value);

/* tryAcquireOrRenew every retry period until we hold the lease; NULL (with a message on
 * stderr) when the clock reaches until first, or for a bad configuration. */
leader *leader_acquire(const leader_options *o, host_backend *be, ds_time until);
/* Renew when due. 1 while we lead; 0 once the lease was not renewed within the renew
 * deadline (or another holder has it): stop at once. */
int leader_keep(leader *l, host_backend *be);
/* wait_ms, or less: the time until the next renewal. l may be NULL. */
long leader_wait(const leader *l, host_backend *be, long wait_ms);
/* Give the lease up if we hold it (client-go's ReleaseOnCancel) and free l. l may be NULL. */
void leader_release(leader *l, host_backend *be);

#endif
