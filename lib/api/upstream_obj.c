/*
 * Upstream's decisions on parsed objects (include/daemonset/object.h): the typed views the objects
 * hold, read as they are, in the tables of the objects (compared across tables by content). No
 * parsing, no decoding check, no allocation but the result.
 */
#include "daemonset.h"
#include "api/api_options.h"
#include "api/object.h"
#include "core/jsonout.h"
#include "daemon/explain.h"
#include "sched/tolerations.h"

static int comparison_ops(const ds_options *opts)
{
	return dsi_gate(dsi_o_core(opts), DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS);
}

/* ToleratesTaint (k8s.io/api core/v1 toleration.go) */
int ds_toleration_tolerates_taint_obj(const ds_object *toleration, const ds_object *taint, const ds_options *opts,
				      int *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	int rc;
	if (!out)
		return dsi_error_set(err, DS_EARG, NULL, "out must not be NULL");
	*out = 0;
	if ((rc = dsi_object_want(toleration, DSI_OT_TOLERATION, "toleration", err)) < 0 ||
	    (rc = dsi_object_want(taint, DSI_OT_TAINT, "taint", err)) < 0)
		return rc;
	*out = dsi_tolerates_taint_x(&toleration->atoms, &toleration->u.tol, &taint->atoms, &taint->u.taint,
				     comparison_ops(opts));
	return 0;
}

/* NodeShouldRunDaemonPod (pkg/controller/daemon/daemon_controller.go) */
int ds_daemonset_node_should_run_obj(const ds_object *daemonset, const ds_object *node, const ds_options *opts,
				     int *should_run, int *should_continue_running, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	int rc;
	if (json_out)
		*json_out = NULL;
	if ((rc = dsi_object_want(daemonset, DSI_OT_DAEMONSET, "daemonset", err)) < 0 ||
	    (rc = dsi_object_want(node, DSI_OT_NODE, "node", err)) < 0)
		return rc;
	dsi_placement p = daemonset->u.ds.place;
	p.comparison_ops = comparison_ops(opts);
	dsi_verdict v;
	dsi_node_should_run_x(&p, &node->atoms, &node->u.node, &v);
	if (should_run)
		*should_run = v.should_run;
	if (should_continue_running)
		*should_continue_running = v.should_continue;
	if (json_out)
		rc = dsi_json_emit(dsi_verdict_json_x(&p, &node->atoms, &node->u.node, &v), json_out, err);
	return rc;
}
