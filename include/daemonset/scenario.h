/*
 * libdaemonset: scenario. Include <daemonset.h> rather than this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_SCENARIO_H
#define DAEMONSET_SCENARIO_H

#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
