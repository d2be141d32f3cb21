/*
 * libdaemonset: cluster. Include <daemonset.h> rather than this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_CLUSTER_H
#define DAEMONSET_CLUSTER_H

#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
