/*
 * dsrun --leader-elect: the flags of kube-controller-manager's leader election, and the
 * ds_lease_config they make. The election itself runs in the library's loop
 * (ds_controller_step(3) after ds_controller_set_lease(3)): client-go's LeaderElector
 * (tools/leaderelection) with a LeaseLock, the Lease calls performed by the host like any other.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_EXAMPLE_LEADER_H
#define DS_EXAMPLE_LEADER_H

#include <daemonset.h>
#include <stddef.h>

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

/* One of --identity, --lease-namespace, --lease-name, --lease-duration, --renew-deadline,
 * --retry-period with its value (durations: 15s, 500ms, or seconds): 1 when flag is one of
 * them, 0 when it is not, -1 (with a message on stderr) for a bad value. */
int leader_flag(leader_options *o, const char *flag, const char *value);

/* The lease configuration of o (its retry period is the option leaseRetryPeriod, set in opts);
 * identity (size bytes) holds the identity it names. 0, or -1 with a message on stderr. */
int leader_config(const leader_options *o, char *identity, size_t size, ds_lease_config *out, ds_options *opts);

#endif
