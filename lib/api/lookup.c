#include "daemonset.h"
#include "api/args.h"
#include "api/lookup.h"

#include "api/api_options.h"
#include "apiserver/goencode.h"
#include "apiserver/schema.h"
#include "core/error.h"
#include "core/jsonout.h"
#include "daemon/newpod.h"

int dsi_api_find_ds(const ds_cluster *c, const char *ns, const char *name, const dsi_daemonset **out, ds_error *err)
{
	const ds_cluster *cluster = c;
	DSI_ARGS_NONNULL(err, cluster, name);
	*out = dsi_cluster_daemonset(c, ns ? ns : "", name);
	/* NewNotFound (apimachinery pkg/api/errors/errors.go): the API server's text, which names
	 * no namespace */
	if (!*out)
		return dsi_error_set(err, DS_ENOTFOUND, NULL, "daemonsets.apps \"%s\" not found", name);
	return 0;
}

int dsi_api_find_node(const ds_cluster *c, const char *name, const char *path, const dsi_node **out, ds_error *err)
{
	*out = NULL;
	if (!c || !name)
		return dsi_error_set(err, DS_EARG, path, "%s must not be NULL", c ? "node" : "cluster");
	/* what kubectl prints: Error from server (NotFound): nodes "NAME" not found */
	if (!(*out = dsi_cluster_node_by_name(c, name)))
		return dsi_error_set(err, DS_ENOTFOUND, path, "nodes \"%s\" not found", name);
	return 0;
}

int dsi_api_find_ds_json(const ds_cluster *c, const char *ns, const char *name, char **json_out,
			 const dsi_daemonset **out, ds_error *err)
{
	DSI_ARGS_NONNULL(err, json_out);
	*json_out = NULL;
	return dsi_api_find_ds(c, ns, name, out, err);
}

int dsi_api_emit_pod(const dsi_cluster *c, const dsi_daemonset *ds, const char *node, const char *hash,
		     const ds_options *opts, char **json_out, ds_error *err)
{
	dsi_placement p;
	if (dsi_placement_init(&p, c, ds, dsi_o_core(opts)) < 0)
		return dsi_error_nomem(err);
	int rc = dsi_api_emit_pod_placed(&p, node, hash, json_out, err);
	dsi_placement_release(&p);
	return rc;
}

int dsi_api_emit_pod_placed(const dsi_placement *p, const char *node, const char *hash, char **json_out, ds_error *err)
{
	int rc = dsi_new_pod_write(p, node, hash, json_out, err);
	if (rc <= 0)
		return rc;
	json_t *pod = dsi_new_pod(p, node, hash, err);
	if (!pod)
		return err->code ? err->code : dsi_error_nomem(err);
	if (dsi_go_encode(pod, dsi_schema_root_type("v1", "Pod")) < 0) {
		json_decref(pod);
		return dsi_error_nomem(err);
	}
	return dsi_json_emit(pod, json_out, err);
}
