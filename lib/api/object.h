/*
 * Parsed objects (ds_object, include/daemonset/object.h): the typed view of one object in a table
 * of strings of its own, built once; the _obj decisions read it and nothing else. Immutable once
 * made, so shared read-only across threads: the reference count is the only field that changes.
 * The text functions of upstream.c parse their documents into objects too (one reading of a
 * document for both), and decide on them with the same code.
 */
#ifndef DSI_API_OBJECT_H
#define DSI_API_OBJECT_H

#include <stdatomic.h>

#include "daemonset.h"
#include "daemon/shouldrun.h"
#include "model/snapshot.h"

typedef enum dsi_otype {
	DSI_OT_TOLERATION,
	DSI_OT_TAINT,
	DSI_OT_TOLERATIONS,
	DSI_OT_TAINTS,
	DSI_OT_NODE,
	DSI_OT_POD,
	DSI_OT_DAEMONSET,
	DSI_OT_AFFINITY,
	DSI_OT_LIST,
	DSI_OT_COUNT
} dsi_otype;

/* How an argument is read, where the text functions differ:
 *   DSI_READ_DEFAULT  as ds_object_parse reads the type;
 *   DSI_READ_POD_STRICT  a Pod as the scheduler's text functions read theirs (a Pod: its metadata,
 *                     and its spec member), not as the pod functions do (a Pod, a PodTemplateSpec
 *                     or a bare PodSpec);
 *   DSI_READ_NODE_PLAIN  a Node as ds_pod_required_node_affinity_match2 reads it: one object decoded
 *                     as a Node whatever its kind, not one of a List or stream;
 *   DSI_READ_DS_PLACEMENT  a DaemonSet read and checked as by default, but without its canonical
 *                     template, template hash and patch (d.hashed, d.patch NULL, d.hash ""), and of
 *                     its template's spec only what NodeShouldRunDaemonPod and NewPod read (nodeName,
 *                     hostNetwork, nodeSelector, required node affinity, tolerations): for a text
 *                     function's own object whose decision reads none of the rest;
 *   DSI_READ_DS_HASH  read as by default, with the canonical template and the hash, without the patch
 *                     (the canonical template is then for the hash alone: its members may not come
 *                     in the canonical order, dsi_canonical_template_for_hash);
 *   DSI_READ_DS_PLACEMENT_HASH  DSI_READ_DS_PLACEMENT with the canonical template and the hash of
 *                     DSI_READ_DS_HASH (NewPod without a hash given). */
enum {
	DSI_READ_DEFAULT = 0,
	DSI_READ_POD_STRICT = 1,
	DSI_READ_NODE_PLAIN = 2,
	DSI_READ_DS_PLACEMENT = 3,
	DSI_READ_DS_HASH = 4,
	DSI_READ_DS_PLACEMENT_HASH = 5
};

/* A taint's timeAdded, which the typed view does not keep (FindMatchingUntoleratedTaint returns it). */
typedef struct dsi_time_added {
	ds_time t;
	uint8_t has;
} dsi_time_added;

struct ds_object {
	atomic_size_t refs;
	dsi_otype type;
	unsigned gates;  /* the featureGates it was read with */
	int k8s_minor;   /* the kubernetesVersion it was read with (a DaemonSet's template hash) */
	dsi_atoms atoms; /* its strings */
	/* the decoded document, where a function returns it changed: a Pod (its spec), an Affinity
	 * (NULL: nil); nothing else references it, and no decision changes it */
	json_t *json;
	dsi_time_added *times; /* []Taint, Taint, Node: each taint's timeAdded (NULL: none has one) */
	union {
		dsi_toleration tol;
		dsi_taint taint;
		dsi_tolerations tols;
		dsi_taints taints;
		dsi_node node;
		struct {
			dsi_meta meta;
			dsi_podspec spec; /* placement parts read */
			uint8_t nested;   /* a Pod or PodTemplateSpec (errors name spec.*), else a bare PodSpec */
			uint8_t strict;   /* DSI_READ_POD_STRICT */
		} pod;
		struct {
			dsi_daemonset d;     /* holds the object's JSON (d.obj), which nothing else references */
			dsi_placement place; /* the merged tolerations; comparison_ops is each decision's */
		} ds;
		struct {
			dsi_cluster c; /* the objects, read leniently; pods not bound */
			/* per pod index: its JSON had no spec object, or spec.nodeName ("" too): the text
			 * functions that take a node bind the others (without a node) to it */
			uint8_t *unbound;
		} list;
	} u;
	/* DaemonSet, Pod: the keys dsi_daemon_tolerations looks up, interned */
	dsi_atom pinned[DSI_N_WELL_KNOWN_TAINTS];
};

/* Parse text as an object of type t (DSI_OT_COUNT: Node or DaemonSet, by its kind); what names the
 * argument in errors ("node"), as the text functions name theirs; mode: DSI_READ_*. */
int dsi_object_parse_as(dsi_otype t, int mode, const char *text, size_t size, const ds_options *opts, const char *what,
			ds_object **out, ds_error *err);
/* The same into *o, an object of the caller's (a text function's, on its stack: no allocation for it),
 * which no one else may see; released with dsi_object_release_local when this returns 0 (on failure
 * there is nothing to release). */
int dsi_object_parse_local(dsi_otype t, int mode, const char *text, size_t size, const ds_options *opts,
			   const char *what, ds_object *o, ds_error *err);
void dsi_object_release_local(ds_object *o);
/* text as a DaemonSet read as mode (DSI_READ_DEFAULT, or DSI_READ_DS_HASH: without the patch)
 * reads it, but its strings interned in atoms (a snapshot's table) and its typed view in *out, the
 * caller's to add to that snapshot or to release (dsi_daemonset_release(atoms, out)); *out zeroed
 * on failure. For a text function whose decision adds its DaemonSet to a snapshot of its own. */
int dsi_object_parse_daemonset_into(int mode, const char *text, size_t size, const ds_options *opts, const char *what,
				    dsi_atoms *atoms, dsi_daemonset *out, ds_error *err);
/* The metadata and spec of a Pod object read again from its JSON into atoms (an overlay on a
 * snapshot's table, for the scheduler), with rd. Release both. */
int dsi_object_pod_read(const ds_object *pod, dsi_rd *rd, dsi_atoms *atoms, dsi_meta *meta, dsi_podspec *spec);
/* DS_EARG unless obj is a ds_object of type t; what names the argument. */
int dsi_object_want(const ds_object *obj, dsi_otype t, const char *what, ds_error *err);
/* The name of type t ("Node"). */
const char *dsi_object_type_name(dsi_otype t);

/* The taints of an object ([]Taint, Taint, Node) and their times; NULL for another type. */
const dsi_taints *dsi_object_taints(const ds_object *o, dsi_taints *one);
/* The tolerations of an object ([]Toleration, Toleration, Pod: its spec's, DaemonSet: its template's,
 * as given); NULL for another type. */
const dsi_tolerations *dsi_object_tolerations(const ds_object *o, dsi_tolerations *one);

#endif
