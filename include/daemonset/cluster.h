/*
 * libdaemonset: the snapshot. Include <daemonset.h> rather than this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_CLUSTER_H
#define DAEMONSET_CLUSTER_H

#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A snapshot of cluster state: Nodes, Pods, DaemonSets, ControllerRevisions,
 * PodDisruptionBudgets, PriorityClasses, and the identity of every other
 * object (so that owners can be found). Loading and watch events mutate it;
 * every other function only reads it, and reads are safe from several
 * threads at once. Mutations need the caller's exclusion.
 */
typedef struct ds_cluster ds_cluster;

/* A new, empty snapshot. opts (may be NULL) sets limits, feature gates and
 * legacyDaemonSets for everything loaded into it; it is not kept. */
DS_EXTERN int ds_cluster_new(const ds_options *opts, ds_cluster **out, ds_error *err);
DS_EXTERN void ds_cluster_free(ds_cluster *cluster);
/* An independent copy (for what-if planning and simulation). */
DS_EXTERN int ds_cluster_copy(const ds_cluster *cluster, ds_cluster **out, ds_error *err);

/*
 * Add or replace objects from JSON or YAML text: one object, a List or any
 * *List kind, concatenated JSON values, or a multi-document YAML stream
 * (a `kubectl get -A -o yaml` dump works as is). An object replaces the one
 * with the same kind, namespace and name. All or nothing: on error the
 * snapshot is unchanged. *count (may be NULL) gets the number of objects.
 */
DS_EXTERN int ds_cluster_load(ds_cluster *cluster, const char *data, size_t size, size_t *count, ds_error *err);
/* The same for a file, or every *.json, *.yaml and *.yml file of a directory
 * (sorted by name). err->source names the file that failed. */
DS_EXTERN int ds_cluster_load_file(ds_cluster *cluster, const char *path, size_t *count, ds_error *err);
/* (For a value the host parsed with jansson: ds_cluster_load_json, in <daemonset/jansson.h>.) */
/* Apply watch events {"type":"ADDED|MODIFIED|DELETED|BOOKMARK|ERROR","object":{...}},
 * one or several (concatenated, as a watch stream sends them). All or nothing.
 * An ERROR event is DS_ETRANSPORT (the host should list again). */
DS_EXTERN int ds_cluster_apply_events(ds_cluster *cluster, const char *data, size_t size, size_t *count, ds_error *err);
/* Remove one object. kind: "Node", "Pod", "DaemonSet", "ControllerRevision",
 * "PodDisruptionBudget", "PriorityClass", or "group/Kind" for any other
 * ("apps/Deployment", "/Service"). namespace may be NULL for cluster-scoped kinds. */
DS_EXTERN int ds_cluster_remove(ds_cluster *cluster, const char *kind, const char *namespace_, const char *name,
				ds_error *err);

/* Number of objects of a kind ("Node", ..., or "Other"). */
DS_EXTERN size_t ds_cluster_count(const ds_cluster *cluster, const char *kind);
/* The name of node i (0 <= i < ds_cluster_count(cluster, "Node")) in name
 * order; DS_EARG past the end. The string belongs to the snapshot and stays
 * valid until the snapshot next changes. */
DS_EXTERN int ds_cluster_node_name_at(const ds_cluster *cluster, size_t i, const char **name, ds_error *err);
/* The namespace and name of DaemonSet i (0 <= i < ds_cluster_count(cluster,
 * "DaemonSet")) in (namespace, name) order; DS_EARG past the end. The strings
 * belong to the snapshot, as for ds_cluster_node_name_at. */
DS_EXTERN int ds_cluster_daemonset_at(const ds_cluster *cluster, size_t i, const char **namespace_, const char **name,
				      ds_error *err);
/* A JSON summary: {"nodes":N,"pods":N,...,"nodeNames":[sorted],"daemonSets":[{"namespace","name"}]}. */
DS_EXTERN int ds_cluster_summary(const ds_cluster *cluster, char **json_out, ds_error *err);
/* The stored JSON of a DaemonSet or ControllerRevision (as loaded), or the
 * typed view of a Node or Pod as the library reads it. */
DS_EXTERN int ds_cluster_get(const ds_cluster *cluster, const char *kind, const char *namespace_, const char *name,
			     char **json_out, ds_error *err);

/* Objects in JSON or YAML text (one, a List, a multi-document stream) as a
 * JSON array, with kind and apiVersion filled in from their list: what a
 * host or transport needs to handle manifests without a snapshot. Reads the
 * option limits (maxDocumentBytes, maxObjects, maxAliasNodes). */
DS_EXTERN int ds_objects_parse(const char *data, size_t size, const ds_options *opts, char **json_out, ds_error *err);

/* The files ds_cluster_load_file(3) reads for path, in the order it reads
 * them, as a JSON array of strings: path itself when it is not a directory,
 * else its *.json, *.yaml and *.yml files (not hidden, no recursion) in name
 * order. The one directory walk every reader of this library uses. */
DS_EXTERN int ds_manifests_list(const char *path, char **json_out, ds_error *err);

/* Where a field is in a manifest: path as the library's results write it
 * ("spec.template.spec.containers[0].image"; "items[2]." first for an item
 * of a List) in document `document` of text (1-based, every document of a
 * YAML stream counted, empty and comment-only ones too, as the "document"
 * members and error sources number them; JSON text is one document).
 * *line and *column (1-based) of the field's key (of the element, in an
 * array); for a field that is absent, of the nearest enclosing field present, with
 * *exact (may be NULL) 0. DS_ENOTFOUND when there is no such document
 * (or the text does not parse as far as it). */
DS_EXTERN int ds_manifest_locate(const char *text, size_t size, size_t document, const char *path, int *line,
				 int *column, int *exact, ds_error *err);

/* ---- superseded names (SONAME 1 keeps them; see "Conventions" in daemonset(7)) ---- */
#ifndef DS_NO_DEPRECATED
/* The name of node i, or NULL past the end (1.1; the accessor shape of 1.2 reports the end as DS_EARG). */
DS_EXTERN DS_DEPRECATED("ds_cluster_node_name_at") const char *ds_cluster_node_at(const ds_cluster *cluster, size_t i);
#endif

#ifdef __cplusplus
}
#endif
#endif
