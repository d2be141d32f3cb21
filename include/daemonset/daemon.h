/*
 * libdaemonset: daemon. Include <daemonset.h> rather than this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_DAEMON_H
#define DAEMONSET_DAEMON_H

#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
