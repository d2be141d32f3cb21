/*
 * Parsed objects (ds_object, include/daemonset/object.h): the typed view of one object in a table
 * of strings of its own, built once; the _obj decisions read it and nothing else. Immutable once
 * made, so shared read-only across threads: the reference count is the only field that changes.
 */
#ifndef DSI_API_OBJECT_H
#define DSI_API_OBJECT_H

#include <stdatomic.h>

#include "daemonset.h"
#include "daemon/shouldrun.h"
#include "model/snapshot.h"

typedef enum dsi_otype { DSI_OT_TOLERATION, DSI_OT_TAINT, DSI_OT_NODE, DSI_OT_DAEMONSET, DSI_OT_COUNT } dsi_otype;

struct ds_object {
	atomic_size_t refs;
	dsi_otype type;
	unsigned gates;  /* the featureGates it was read with */
	int k8s_minor;   /* the kubernetesVersion it was read with (a DaemonSet's template hash) */
	dsi_atoms atoms; /* its strings */
	union {
		dsi_toleration tol;
		dsi_taint taint;
		dsi_node node;
		struct {
			dsi_daemonset d;     /* holds the object's JSON (d.obj), which nothing else references */
			dsi_placement place; /* the merged tolerations; comparison_ops is each decision's */
			dsi_atom pinned[DSI_N_WELL_KNOWN_TAINTS]; /* the keys dsi_daemon_tolerations looks up */
		} ds;
	} u;
};

/* Parse text as an object of type t (DSI_OT_COUNT: Node or DaemonSet, by its kind); what names the
 * argument in errors ("node"), as the text functions name theirs. */
int dsi_object_parse_as(dsi_otype t, const char *text, size_t size, const ds_options *opts, const char *what,
			ds_object **out, ds_error *err);
/* DS_EARG unless obj is a ds_object of type t; what names the argument. */
int dsi_object_want(const ds_object *obj, dsi_otype t, const char *what, ds_error *err);

#endif
