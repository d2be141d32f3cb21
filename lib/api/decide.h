/*
 * Upstream's decisions on parsed objects (api/object.h), shared by the text functions of upstream.c
 * (which parse their documents into objects first) and the _obj forms of upstream_obj.c: one piece
 * of code per decision. The arguments are of the right types (the callers check).
 */
#ifndef DSI_API_DECIDE_H
#define DSI_API_DECIDE_H

#include "api/object.h"
#include "sched/tolerations.h"

/* The TaintTolerationComparisonOperators gate of opts. */
int dsi_decide_comparison_ops(const ds_options *opts);
/* A public taint filter as the internal one (NULL: a nil filter, *out unset and 0 returned as
 * *nil = 1); DS_EARG when it is malformed. */
int dsi_decide_filter(const ds_taint_filter *pf, dsi_effect_filter *out, int *nil, ds_error *err);

int dsi_decide_find(const ds_object *taints, const ds_object *tolerations, const dsi_effect_filter *filter,
		    const ds_options *opts, int *found, char **json_out, ds_error *err);
int dsi_decide_affinity(const ds_object *pod, const ds_object *node, int *out, ds_error *err);
int dsi_decide_should_run(const ds_object *daemonset, const ds_object *node, const ds_options *opts, int *should_run,
			  int *should_continue_running, char **json_out, ds_error *err);
int dsi_decide_new_pod(const ds_object *daemonset, const char *node_name, const char *hash, const ds_options *opts,
		       char **json_out, ds_error *err);
int dsi_decide_add_tolerations(const ds_object *pod, char **json_out, ds_error *err);
int dsi_decide_replace_affinity(const ds_object *affinity, const char *node_name, char **json_out, ds_error *err);
/* On c, a private snapshot of the objects (the caller's to destroy), which these change: the
 * DaemonSet, or the node, is added to it. The DaemonSet is read (a text function's, read into c's
 * table by dsi_object_parse_daemonset_into, without its patch when c has no ControllerRevision: c
 * takes it, or releases it when one of the objects stands for it), else daemonset (a ds_object of
 * the caller's, copied). The plan is one of decisions only (DSI_SYNC_DECISIONS_ONLY). */
int dsi_decide_rolling_update(dsi_cluster *c, const ds_object *daemonset, dsi_daemonset *read, const char *hash,
			      ds_time now, const ds_options *opts, char **json_out, ds_error *err);
/* list: the List c was made of (NULL: none), for which of its pods the node binds. victims: SelectVictimsOnNode
 * rather than the filters. */
int dsi_decide_scheduler(dsi_cluster *c, const ds_object *list, const ds_object *pod, const ds_object *node,
			 const ds_options *opts, int victims, char **json_out, ds_error *err);

#endif
