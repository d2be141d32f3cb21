/*
 * libdaemonset: parsed objects, and upstream's decisions on them. Include
 * <daemonset.h> rather than this file.
 *
 * A ds_object is a Kubernetes object (or a toleration, a taint, ...) parsed
 * once: its text read, checked as Go's JSON decoder would decode it, and
 * turned into the typed view the decisions read. Every function of
 * <daemonset/upstream.h> has a form here that takes objects where that one
 * takes text (its name ends in _obj); a decision on objects parses nothing,
 * checks nothing and allocates nothing but its result, and answers what the
 * text form answers for the same documents.
 *
 * Ownership: an object is reference counted. The function that makes one
 * gives the caller one reference; ds_object_ref takes another and
 * ds_object_free drops one, the last freeing it. Objects are immutable: no
 * function changes one, so any number of threads may use the same object at
 * once (the count is atomic, and a decision touches nothing shared, jansson's
 * reference counts included). An object holds nothing of the text or value
 * it was made from, nor of the snapshot it was taken from.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_OBJECT_H
#define DAEMONSET_OBJECT_H

#include "daemonset/cluster.h"
#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ds_object ds_object;

/*
 * Parse one document as type, the Go type upstream's functions take:
 *   "Toleration", "Taint"   one object;
 *   "Node", "DaemonSet"     one object (or a List or stream of one), read
 *                           as ds_daemonset_node_should_run(3) reads it;
 *   NULL                    the object's kind says (Node or DaemonSet).
 * opts (may be NULL) gives the feature gates and limits the object is read
 * with, and legacyDaemonSets; a decision reads its own options for what it
 * decides. *out gets the object (one reference). Errors as the text
 * functions report them, the argument's name as their source.
 */
DS_EXTERN int ds_object_parse(const char *type, const char *text, size_t size, const ds_options *opts, ds_object **out,
			      ds_error *err);
/* Take a reference (obj may be NULL); returns obj. */
DS_EXTERN ds_object *ds_object_ref(ds_object *obj);
/* Drop a reference; the last frees the object. NULL is fine. */
DS_EXTERN void ds_object_free(ds_object *obj);
/* The object's type as ds_object_parse names it ("Node", ...), static. */
DS_EXTERN const char *ds_object_type(const ds_object *obj);

/* The Node or DaemonSet namespace_/name of a snapshot as an object of its
 * own (a copy: it stays valid, and unchanged, when the snapshot changes or
 * is freed), read with the snapshot's options. kind: "Node" (namespace_
 * ignored, may be NULL) or "DaemonSet". DS_ENOTFOUND when there is none. */
DS_EXTERN int ds_cluster_get_object(const ds_cluster *cluster, const char *kind, const char *namespace_,
				    const char *name, ds_object **out, ds_error *err);

/* ---- upstream's decisions on objects (the text forms: <daemonset/upstream.h>) ---- */

/* Toleration.ToleratesTaint, as ds_toleration_tolerates_taint(3). */
DS_EXTERN int ds_toleration_tolerates_taint_obj(const ds_object *toleration, const ds_object *taint,
						const ds_options *opts, int *out, ds_error *err);

/* NodeShouldRunDaemonPod, as ds_daemonset_node_should_run(3): daemonset a
 * DaemonSet, node a Node. */
DS_EXTERN int ds_daemonset_node_should_run_obj(const ds_object *daemonset, const ds_object *node,
					       const ds_options *opts, int *should_run, int *should_continue_running,
					       char **json_out, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif
