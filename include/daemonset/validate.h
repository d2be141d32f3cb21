/*
 * libdaemonset: validate. Include <daemonset.h> rather than this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_VALIDATE_H
#define DAEMONSET_VALIDATE_H

#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
