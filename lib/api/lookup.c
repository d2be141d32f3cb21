#include "api/lookup.h"

#include "core/error.h"

int dsi_api_find_ds(const ds_cluster *c, const char *ns, const char *name, const dsi_daemonset **out, ds_error *err)
{
	if (!c || !name)
		return dsi_error_set(err, DS_EARG, NULL, "cluster and name must not be NULL");
	*out = dsi_cluster_daemonset(c, ns ? ns : "", name);
	if (!*out)
		return dsi_error_set(err, DS_ENOTFOUND, NULL, "daemonsets.apps \"%s\" not found in namespace \"%s\"", name,
				     ns ? ns : "");
	return 0;
}
