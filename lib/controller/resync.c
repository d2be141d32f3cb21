/*
 * ds_controller_resync: list the four kinds through the transport, all or
 * nothing, then replace each kind in the snapshot as the informers' Replace
 * does (replace.c), and queue every DaemonSet.
 */
#include <string.h>

#include "controller/controller.h"
#include "controller/queue.h"
#include "controller/transport.h"
#include "core/alloc.h"

static const struct {
	const char *resource;
	int kind;
} lists[] = {
	{"nodes", DSI_KIND_NODE},
	{"pods", DSI_KIND_POD},
	{"daemonsets", DSI_KIND_DAEMONSET},
	{"controllerrevisions", DSI_KIND_REVISION},
};

static int enqueue_all(dsi_controller *ctrl, ds_time now, json_t *queued, ds_error *err)
{
	const dsi_cluster *c = ctrl->cluster;
	size_t n = dsi_cluster_count(c, DSI_KIND_DAEMONSET);
	for (size_t i = 0; i < n; i++) {
		const dsi_daemonset *ds = c->objs[DSI_KIND_DAEMONSET].v[i];
		char *key = dsi_ctrl_key(dsi_cstr(c, ds->meta.ns), dsi_cstr(c, ds->meta.name));
		dsi_dsstate *s = key ? dsi_dstable_ensure(&ctrl->table, key) : NULL;
		if (!s || json_array_append_new(queued, json_string(key))) {
			dsi_free(key);
			return dsi_error_nomem(err);
		}
		dsi_queue_add(s, now);
		dsi_free(key);
	}
	return 0;
}

int dsi_ctrl_resync(dsi_controller *c, ds_time now, json_t **out, ds_error *err)
{
	*out = NULL;
	json_t *bodies[DSI_ARRAY_LEN(lists)] = {NULL};
	json_t *rvs = json_object(), *counts = json_object(), *queued = json_array();
	int rc = rvs && counts && queued ? 0 : dsi_error_nomem(err);
	for (size_t i = 0; rc == 0 && i < DSI_ARRAY_LEN(lists); i++) {
		/* nodes are cluster-scoped: never filtered by namespace */
		const char *ns = i == 0 ? NULL : c->ns_filter;
		dsi_call call;
		if ((rc = dsi_tp_list(c, lists[i].resource, ns, NULL, &call, err)) < 0)
			break;
		if (call.result != DS_TRANSPORT_OK) {
			rc = dsi_error_set(err, DS_ETRANSPORT, lists[i].resource, "list %s: %s (%s)", lists[i].resource,
					   call.message, dsi_result_name(call.result));
			dsi_call_release(&call);
			break;
		}
		const char *rv =
			json_string_value(json_object_get(json_object_get(call.body, "metadata"), "resourceVersion"));
		json_object_set_new(rvs, lists[i].resource, json_string(rv ? rv : ""));
		size_t count = 0;
		rc = dsi_ctrl_check_list(c, lists[i].kind, call.body, &count, err);
		if (rc < 0)
			dsi_error_prefix_path(err, lists[i].resource);
		json_object_set_new(counts, lists[i].resource, json_integer((json_int_t)count));
		bodies[i] = call.body;
		call.body = NULL;
		dsi_call_release(&call);
	}
	/* every list is good: only running out of memory can fail from here */
	for (size_t i = 0; rc == 0 && i < DSI_ARRAY_LEN(lists); i++)
		rc = dsi_ctrl_replace(c, lists[i].kind, bodies[i], now, err);
	if (rc == 0)
		rc = enqueue_all(c, now, queued, err);
	if (rc == 0 &&
	    !(*out = json_pack("{s:O, s:O, s:O}", "resourceVersions", rvs, "counts", counts, "queued", queued)))
		rc = dsi_error_nomem(err);
	for (size_t i = 0; i < DSI_ARRAY_LEN(lists); i++)
		json_decref(bodies[i]);
	json_decref(rvs);
	json_decref(counts);
	json_decref(queued);
	return rc;
}
