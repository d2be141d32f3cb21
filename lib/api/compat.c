/*
 * The names SONAME 1 keeps. Each public function of 1.0 whose name or
 * signature does not follow the conventions of daemonset(7) (ds_<noun>_<verb>,
 * every JSON or YAML document as text and size), each accessor of 1.1 not in
 * the one accessor shape of 1.2, and each upstream function of 1.1 to which
 * 1.2 added an argument (the successor named with a 2), has a successor; the
 * old name stays exported and calls it. Nothing here has behaviour of its own
 * (ds_taints_find_untolerated, whose effect bits need a translation of their
 * own, stays in upstream.c).
 */
#include <string.h>

#include "api/args.h"
#include "core/error.h"
#include "daemonset.h"

/* A NUL-terminated document's size, 0 for NULL (the successors read NULL with size 0 as "none"). */
static size_t len(const char *s) { return s ? strlen(s) : 0; }

int ds_should_run(const ds_cluster *cluster, const char *namespace_, const char *name, const char *node,
		  const ds_options *opts, int *should_run, int *should_continue_running, ds_error *err)
{
	return ds_daemonset_should_run(cluster, namespace_, name, node, opts, should_run, should_continue_running, NULL,
				       err);
}

int ds_should_run_json(const ds_cluster *cluster, const char *namespace_, const char *name, const char *node,
		       const ds_options *opts, char **json_out, ds_error *err)
{
	if (!json_out) {
		DSI_ERR_BEGIN(err);
		DSI_ARGS_NONNULL(err, json_out);
	}
	return ds_daemonset_should_run(cluster, namespace_, name, node, opts, NULL, NULL, json_out, err);
}

int ds_explain(const ds_cluster *cluster, const char *namespace_, const char *name, const ds_options *opts,
	       char **json_out, ds_error *err)
{
	return ds_daemonset_explain(cluster, namespace_, name, opts, json_out, err);
}

int ds_fit(const ds_cluster *cluster, const char *pod, size_t size, const char *node, const ds_options *opts,
	   char **json_out, ds_error *err)
{
	return ds_pod_fit(cluster, pod, size, node, opts, json_out, err);
}

int ds_daemon_pod(const ds_cluster *cluster, const char *namespace_, const char *name, const char *node,
		  const ds_options *opts, char **json_out, ds_error *err)
{
	return ds_daemonset_pod(cluster, namespace_, name, node, opts, json_out, err);
}

int ds_daemon_history(const ds_cluster *cluster, const char *namespace_, const char *name, const ds_options *opts,
		      char **json_out, ds_error *err)
{
	return ds_daemonset_history(cluster, namespace_, name, opts, json_out, err);
}

int ds_daemon_rollback(const ds_cluster *cluster, const char *namespace_, const char *name, int64_t to_revision,
		       const ds_options *opts, char **json_out, ds_error *err)
{
	return ds_daemonset_rollback(cluster, namespace_, name, to_revision, opts, json_out, err);
}

int ds_daemon_pod_updated(const ds_cluster *cluster, const char *namespace_, const char *name, const char *pod_name,
			  int *updated, ds_error *err)
{
	return ds_daemonset_pod_updated(cluster, namespace_, name, pod_name, NULL, updated, err);
}

int ds_plan_sync(const ds_cluster *cluster, const char *namespace_, const char *name, ds_time now,
		 const ds_options *opts, const char *backoff_json, ds_plan **out, ds_error *err)
{
	return ds_daemonset_plan(cluster, namespace_, name, now, opts, backoff_json, len(backoff_json), out, err);
}

int ds_status_compute(const ds_cluster *cluster, const char *namespace_, const char *name, ds_time now,
		      const ds_options *opts, ds_status *out, ds_error *err)
{
	return ds_daemonset_status(cluster, namespace_, name, now, opts, out, err);
}

int ds_rollout_simulate(const ds_cluster *cluster, const char *namespace_, const char *name, ds_time start,
			const ds_options *opts, char **json_out, ds_error *err)
{
	return ds_daemonset_rollout(cluster, namespace_, name, start, opts, json_out, err);
}

int ds_cordon(const ds_cluster *cluster, const char *node, int desired, const ds_options *opts, char **json_out,
	      ds_error *err)
{
	return ds_node_cordon(cluster, node, desired, opts, json_out, err);
}

int ds_drain(const ds_cluster *cluster, const char *node, ds_time now, const ds_options *opts, char **json_out,
	     ds_error *err)
{
	return ds_node_drain(cluster, node, now, opts, json_out, err);
}

int ds_upgrade(const ds_cluster *cluster, const char *const *nodes, size_t nnodes, const char *selector, ds_time now,
	       const ds_options *opts, char **json_out, ds_error *err)
{
	return ds_cluster_upgrade(cluster, nodes, nnodes, selector, now, opts, json_out, err);
}

int ds_audit(const char *text, size_t size, const ds_options *opts, char **report_json, ds_error *err)
{
	return ds_object_audit(text, size, opts, report_json, err);
}

int ds_intstr_scaled(const char *value, int total, int round_up, int *out, ds_error *err)
{
	if (!value) { /* 1.0 refused NULL; the successor reads it as a nil value */
		DSI_ERR_BEGIN(err);
		if (out)
			*out = 0;
		return dsi_error_set(err, DS_EARG, NULL, out ? "value is NULL" : "out is NULL");
	}
	return ds_intstr_scale(value, strlen(value), total, round_up, out, err);
}

int ds_selector_matches(const char *selector, const char *labels, int *out, ds_error *err)
{
	if (!labels) { /* 1.0 refused NULL labels */
		DSI_ERR_BEGIN(err);
		if (out)
			*out = 0;
		return dsi_error_set(err, DS_EARG, NULL, out ? "labels is NULL" : "out is NULL");
	}
	return ds_selector_match(selector, len(selector), labels, strlen(labels), out, err);
}

int ds_selector_string(const char *selector, char **out, ds_error *err)
{
	return ds_selector_format(selector, len(selector), out, err);
}

int ds_node_selector_matches(const char *node_selector, const char *node, int *out, ds_error *err)
{
	if (!node_selector || !node) {
		DSI_ERR_BEGIN(err);
		if (out)
			*out = 0;
		return dsi_error_set(err, DS_EARG, NULL,
				     !out   ? "out is NULL"
				     : node ? "node_selector is NULL"
					    : "node is NULL");
	}
	return ds_node_selector_match(node_selector, strlen(node_selector), node, strlen(node), out, err);
}

int ds_options_set_json(ds_options *opts, const char *json, ds_error *err)
{
	if (!json) {
		DSI_ERR_BEGIN(err);
		DSI_ARGS_NONNULL(err, json);
	}
	return ds_options_set_all(opts, json, strlen(json), err);
}

int ds_lease_decide(const ds_lease_config *cfg, const char *lease_json, const char *state_json, ds_time now,
		    char **json_out, ds_error *err)
{
	return ds_lease_try_acquire_or_renew(cfg, lease_json, len(lease_json), state_json, len(state_json), now,
					     json_out, err);
}

int ds_lease_release(const ds_lease_config *cfg, const char *lease_json, const char *state_json, ds_time now,
		     char **json_out, ds_error *err)
{
	return ds_lease_try_release(cfg, lease_json, len(lease_json), state_json, len(state_json), now, json_out, err);
}

int ds_lease_is_leader(const ds_lease_config *cfg, const char *state_json, ds_time now, int *leader, ds_error *err)
{
	return ds_lease_leading(cfg, state_json, len(state_json), now, leader, err);
}

/* ---- 1.1's accessors ---- */

int ds_plan_get_create(const ds_plan *plan, size_t i, ds_plan_create *out, ds_error *err)
{
	return ds_plan_create_at(plan, i, out, err);
}

int ds_plan_get_delete(const ds_plan *plan, size_t i, ds_plan_delete *out, ds_error *err)
{
	return ds_plan_delete_at(plan, i, out, err);
}

int ds_plan_get_event(const ds_plan *plan, size_t i, ds_plan_event *out, ds_error *err)
{
	return ds_plan_event_at(plan, i, out, err);
}

int ds_plan_get_status(const ds_plan *plan, ds_status *out, int *changed, ds_error *err)
{
	return ds_plan_status(plan, out, changed, err);
}

const char *ds_cluster_node_at(const ds_cluster *cluster, size_t i)
{
	const char *name = NULL;
	return ds_cluster_node_name_at(cluster, i, &name, NULL) == 0 ? name : NULL;
}

/* ---- 1.0's reply functions, without a ds_error ---- */

int ds_reply_append(ds_reply *reply, const char *data, size_t size)
{
	return ds_reply_append2(reply, data, size, NULL);
}

int ds_reply_set_message(ds_reply *reply, const char *message) { return ds_reply_set_message2(reply, message, NULL); }

/* ---- 1.1's upstream functions without options (1.2 added them) ---- */

int ds_pod_required_node_affinity_match(const char *pod, size_t pod_size, const char *node, size_t node_size, int *out,
					ds_error *err)
{
	return ds_pod_required_node_affinity_match2(pod, pod_size, node, node_size, NULL, out, err);
}

int ds_podspec_add_daemon_tolerations(const char *podspec, size_t size, char **json_out, ds_error *err)
{
	return ds_podspec_add_daemon_tolerations2(podspec, size, NULL, json_out, err);
}

int ds_affinity_replace_node_name(const char *affinity, size_t size, const char *node_name, char **json_out,
				  ds_error *err)
{
	return ds_affinity_replace_node_name2(affinity, size, node_name, NULL, json_out, err);
}
