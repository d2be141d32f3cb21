/*
 * libdaemonset: values. Include <daemonset.h> rather than this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_VALUES_H
#define DAEMONSET_VALUES_H

#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
