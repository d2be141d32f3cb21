/*
 * libdaemonset: Kubernetes DaemonSet semantics as pure functions behind a
 * stable C ABI. This umbrella header is the only one programs include.
 *
 * Overview: daemonset(7). Every function has a page in section 3.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_H
#define DAEMONSET_H

#include "daemonset/common.h"     /* versions, errors, memory, time, options */
#include "daemonset/values.h"     /* quantities, int-or-percent, label selectors */
#include "daemonset/cluster.h"    /* the snapshot: loading objects and watch events */
#include "daemonset/placement.h"  /* should-run, explain, fit, preemption */
#include "daemonset/upstream.h"   /* upstream's decisions one by one, on plain JSON */
#include "daemonset/object.h"     /* parsed objects, and the decisions on them */
#include "daemonset/daemon.h"     /* pod generation and revision history */
#include "daemonset/validate.h"   /* the API server's defaults and validation for DaemonSets */
#include "daemonset/plan.h"       /* one sync planned, status, rollout simulation */
#include "daemonset/ops.h"        /* cordon, drain, upgrade planning */
#include "daemonset/audit.h"      /* Pod Security Standards and DaemonSet risk audit */
#include "daemonset/controller.h" /* the driver with host-supplied transport */
#include "daemonset/scenario.h"   /* offline scenario tests */

#endif
