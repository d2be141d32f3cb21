/* Public wrappers for cordon, drain and upgrade planning (include/daemonset/ops.h). */
#include "daemonset.h"
#include "api/api_options.h"
#include "api/args.h"
#include "api/lookup.h"
#include "core/alloc.h"
#include "core/jsonout.h"
#include "ops/cordon.h"
#include "ops/drain.h"
#include "ops/upgrade.h"

/* The node of a kubectl argument, or the error kubectl would give. */
static int find_node(const ds_cluster *c, const char *arg, const dsi_node **out, ds_error *err)
{
	const char *name = dsi_cordon_node_arg(arg);
	if (!name)
		return dsi_error_set(err, DS_EARG, "node",
				     "expected a node name (\"NAME\" or \"node/NAME\"), got \"%s\"", arg);
	return dsi_api_find_node(c, name, "node", out, err);
}

int ds_node_cordon(const ds_cluster *cluster, const char *node, int desired, const ds_options *opts, char **json_out,
		   ds_error *err)
{
	DSI_ERR_BEGIN(err);
	const dsi_ops_cfg ocfg = dsi_o_ops_cfg(opts);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, cluster, node, json_out);
	if (desired != 0 && desired != 1)
		return dsi_error_set(err, DS_EARG, "desired", "expected 1 (cordon) or 0 (uncordon), got %d", desired);
	const dsi_node *n;
	int rc = find_node(cluster, node, &n, err);
	if (rc < 0)
		return rc;
	json_t *doc;
	if ((rc = dsi_cordon_json(cluster, n, desired, &ocfg, &doc, err)) < 0)
		return rc;
	return dsi_json_emit(doc, json_out, err);
}

int ds_node_drain(const ds_cluster *cluster, const char *node, ds_time now, const ds_options *opts, char **json_out,
		  ds_error *err)
{
	DSI_ERR_BEGIN(err);
	const dsi_ops_cfg ocfg = dsi_o_ops_cfg(opts);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, cluster, node, json_out);
	const dsi_node *n;
	int rc = find_node(cluster, node, &n, err);
	if (rc < 0)
		return rc;
	dsi_drain_cfg cfg;
	json_t *doc = NULL;
	rc = dsi_drain_cfg_init(&cfg, cluster, &ocfg, err);
	if (rc == 0)
		rc = dsi_drain_json(&cfg, n, now, &doc, err);
	dsi_drain_cfg_release(&cfg);
	if (rc < 0)
		return rc;
	return dsi_json_emit(doc, json_out, err);
}

int ds_cluster_upgrade(const ds_cluster *cluster, const char *const *nodes, size_t nnodes, const char *selector,
		       ds_time now, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	const dsi_ops_cfg ocfg = dsi_o_ops_cfg(opts);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, cluster, json_out);
	DSI_ARG_DOC(err, nodes, nnodes);
	const dsi_node **v;
	size_t n, ncp;
	int rc = dsi_upgrade_select(cluster, nodes, nnodes, selector, &v, &n, &ncp, err);
	if (rc < 0)
		return rc;
	json_t *doc;
	rc = dsi_upgrade_json(cluster, v, n, ncp, selector, now, &ocfg, &doc, err);
	dsi_free(v);
	if (rc < 0)
		return rc;
	return dsi_json_emit(doc, json_out, err);
}
