/* Public wrappers for placement (include/daemonset/placement.h). */
#include <stdio.h>
#include <string.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "api/args.h"
#include "api/lookup.h"
#include "core/jsonout.h"
#include "core/load.h"
#include "daemon/explain.h"
#include "sched/fitreport.h"

static int find_node(const ds_cluster *c, const char *name, const dsi_node **out, ds_error *err)
{
	return dsi_api_find_node(c, name, NULL, out, err);
}

/* The DaemonSet and the node, and the placement verdict for them; p is the caller's to release when 0 is returned. */
static int node_verdict(const ds_cluster *cluster, const char *ns, const char *name, const char *node,
			const ds_options *opts, dsi_placement *p, const dsi_node **n, dsi_verdict *v, ds_error *err)
{
	const dsi_daemonset *ds;
	int rc;
	if ((rc = dsi_api_find_ds(cluster, ns, name, &ds, err)) < 0 || (rc = find_node(cluster, node, n, err)) < 0)
		return rc;
	if (dsi_placement_init(p, cluster, ds, dsi_o_core(opts)) < 0)
		return dsi_error_nomem(err);
	dsi_node_should_run(p, *n, v);
	return 0;
}

int ds_daemonset_should_run(const ds_cluster *cluster, const char *namespace_, const char *name, const char *node,
			    const ds_options *opts, int *should_run, int *should_continue_running, char **json_out,
			    ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	dsi_placement p;
	const dsi_node *n;
	dsi_verdict v;
	int rc = node_verdict(cluster, namespace_, name, node, opts, &p, &n, &v, err);
	if (rc < 0)
		return rc;
	if (should_run)
		*should_run = v.should_run;
	if (should_continue_running)
		*should_continue_running = v.should_continue;
	if (json_out)
		rc = dsi_json_emit(dsi_verdict_json(&p, n, &v), json_out, err);
	dsi_placement_release(&p);
	return rc;
}

int ds_daemonset_explain(const ds_cluster *cluster, const char *namespace_, const char *name, const ds_options *opts,
			 char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	const dsi_daemonset *ds;
	int rc;
	if ((rc = dsi_api_find_ds_json(cluster, namespace_, name, json_out, &ds, err)) < 0)
		return rc;
	json_t *doc;
	if ((rc = dsi_explain(cluster, ds, dsi_o_core(opts), &doc, err)) < 0)
		return rc;
	return dsi_json_emit(doc, json_out, err);
}

int ds_pod_fit(const ds_cluster *cluster, const char *pod, size_t size, const char *node, const ds_options *opts,
	       char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, cluster, pod, json_out);
	*json_out = NULL;
	const dsi_node *n;
	int rc = find_node(cluster, node, &n, err);
	if (rc < 0)
		return rc;
	const dsi_core_options *o = dsi_o_core(opts);
	json_t *obj, *out = NULL;
	if ((rc = dsi_parse_one(pod, size, &cluster->core.limits, &obj, err)) < 0)
		return rc;
	/* the pod's strings go into an overlay: the snapshot stays untouched (it may be shared) */
	dsi_atoms atoms;
	dsi_atoms_init_overlay(&atoms, &cluster->atoms);
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	dsi_meta meta;
	dsi_podspec spec;
	if ((rc = dsi_pod_read_for_fit(&rd, &atoms, obj, o->gates, &meta, &spec)) == 0) {
		rc = dsi_fit_report(cluster, &atoms, &meta, &spec, n, o, dsi_o_sched(opts), &out, err);
		dsi_podspec_release(&atoms, &spec);
		dsi_meta_release(&atoms, &meta);
	}
	json_decref(obj);
	if (rc == 0)
		rc = dsi_json_emit(out, json_out, err);
	dsi_atoms_free(&atoms);
	return rc;
}
