/*
 * libdaemonset: entry points for hosts that parse JSON with jansson
 * themselves. Optional: <daemonset.h> does not include it, so that programs
 * that do not use jansson need none of its headers.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_JANSSON_H
#define DAEMONSET_JANSSON_H

#include <jansson.h>

#include "daemonset.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ds_cluster_load(3) for a value the host parsed with jansson (not modified,
 * not kept): one object, a List or any *List kind, or an array of objects. */
DS_EXTERN int ds_cluster_load_json(ds_cluster *cluster, const json_t *value, size_t *count, ds_error *err);

/* ds_object_parse(3) for a value the host parsed with jansson (not modified,
 * not kept: the object reads a copy). */
DS_EXTERN int ds_object_from_json(const char *type, const json_t *value, const ds_options *opts, ds_object **out,
				  ds_error *err);

#ifdef __cplusplus
}
#endif
#endif
