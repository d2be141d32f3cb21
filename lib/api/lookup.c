#include "daemonset.h"
#include "api/lookup.h"

#include "core/error.h"

int dsi_api_find_ds(const ds_cluster *c, const char *ns, const char *name, const dsi_daemonset **out, ds_error *err)
{
	if (!c || !name)
		return dsi_error_set(err, DS_EARG, NULL, "cluster and name must not be NULL");
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
	if (!json_out)
		return dsi_error_set(err, DS_EARG, NULL, "json_out must not be NULL");
	*json_out = NULL;
	return dsi_api_find_ds(c, ns, name, out, err);
}
