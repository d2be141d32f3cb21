/*
 * Public wrappers of upstream's decisions on plain JSON (include/daemonset/upstream.h). Each parses
 * its documents into objects of its own (api/object.h: each text parsed once, checked as Go's JSON
 * decoder would decode it into the upstream function's argument types, read leniently: as Go's
 * decoder does, not as the API server validates) and asks the decision the _obj forms ask
 * (api/decide.h), which asks the same internal function the snapshot API asks. The Go structs they
 * return (a Pod, a PodSpec, an Affinity, a Taint) are printed as encoding/json prints them.
 */
#include "daemonset.h"
#include "api/api_options.h"
#include "api/args.h"
#include "api/decide.h"
#include "api/docs.h"

/* Parse text as an object of type t for argument what (mode: DSI_READ_*) into *o, an object on the
 * caller's stack: released with release() when this returns 0, nothing to release otherwise. */
static int parse(dsi_otype t, int mode, const char *text, size_t size, const ds_options *opts, const char *what,
		 ds_object *o, ds_error *err)
{
	return dsi_object_parse_local(t, mode, text, size, opts, what, o, err);
}

static void release(ds_object *o) { dsi_object_release_local(o); }

/* ---- taints and tolerations ----------------------------------------------------------------- */

/* ToleratesTaint (k8s.io/api core/v1 toleration.go) */
int ds_toleration_tolerates_taint(const char *toleration, size_t toleration_size, const char *taint, size_t taint_size,
				  const ds_options *opts, int *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, out);
	*out = 0;
	ds_object tol, t;
	int rc = parse(DSI_OT_TOLERATION, 0, toleration, toleration_size, opts, "toleration", &tol, err);
	if (rc < 0)
		return rc;
	if ((rc = parse(DSI_OT_TAINT, 0, taint, taint_size, opts, "taint", &t, err)) == 0) {
		*out = dsi_tolerates_taint_x(&tol.atoms, &tol.u.tol, &t.atoms, &t.u.taint,
					     dsi_decide_comparison_ops(opts));
		release(&t);
	}
	release(&tol);
	return rc;
}

/* The taints and tolerations lists, then FindMatchingUntoleratedTaint with filter (NULL: nil). */
static int find_untolerated(const char *taints, size_t taints_size, const char *tolerations, size_t tolerations_size,
			    const dsi_effect_filter *filter, const ds_options *opts, int *found, char **json_out,
			    ds_error *err)
{
	ds_object ts, tl;
	int rc = parse(DSI_OT_TAINTS, 0, taints, taints_size, opts, "taints", &ts, err);
	if (rc < 0)
		return rc;
	if ((rc = parse(DSI_OT_TOLERATIONS, 0, tolerations, tolerations_size, opts, "tolerations", &tl, err)) == 0) {
		rc = dsi_decide_find(&ts, &tl, filter, opts, found, json_out, err);
		release(&tl);
	}
	release(&ts);
	return rc;
}

/* FindMatchingUntoleratedTaint (component-helpers scheduling/corev1/helpers.go) */
int ds_taints_find_untolerated2(const char *taints, size_t taints_size, const char *tolerations,
				size_t tolerations_size, const ds_taint_filter *filter, const ds_options *opts,
				int *found, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (found)
		*found = 0;
	if (json_out)
		*json_out = NULL;
	dsi_effect_filter f;
	int nil, rc = dsi_decide_filter(filter, &f, &nil, err);
	return rc < 0 ? rc
		      : find_untolerated(taints, taints_size, tolerations, tolerations_size, nil ? NULL : &f, opts,
					 found, json_out, err);
}

/* The superseded 1.1 form (include/daemonset/upstream.h), here rather than in compat.c: its bit
 * DS_TAINT_EFFECT_OTHER ("" and every unknown effect) has no ds_taint_filter of strings to pass on. */
int ds_taints_find_untolerated(const char *taints, size_t taints_size, const char *tolerations, size_t tolerations_size,
			       unsigned effects, const ds_options *opts, int *found, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (found)
		*found = 0;
	if (json_out)
		*json_out = NULL;
	if (effects & ~(DS_TAINT_EFFECT_NO_SCHEDULE | DS_TAINT_EFFECT_PREFER_NO_SCHEDULE | DS_TAINT_EFFECT_NO_EXECUTE |
			DS_TAINT_EFFECT_OTHER))
		return dsi_error_set(err, DS_EARG, NULL, "unknown effect bits 0x%x", effects);
	/* the bits as the internal mask: 0 is nil; OTHER is "" and every unknown effect */
	dsi_effect_filter f = {0, NULL, 0};
	if (effects & DS_TAINT_EFFECT_NO_SCHEDULE)
		f.mask |= 1u << DSI_EFFECT_NO_SCHEDULE;
	if (effects & DS_TAINT_EFFECT_PREFER_NO_SCHEDULE)
		f.mask |= 1u << DSI_EFFECT_PREFER_NO_SCHEDULE;
	if (effects & DS_TAINT_EFFECT_NO_EXECUTE)
		f.mask |= 1u << DSI_EFFECT_NO_EXECUTE;
	if (effects & DS_TAINT_EFFECT_OTHER)
		f.mask |= (1u << DSI_EFFECT_ALL) | (1u << DSI_EFFECT_OTHER);
	return find_untolerated(taints, taints_size, tolerations, tolerations_size, effects ? &f : NULL, opts, found,
				json_out, err);
}

/* ---- node affinity ------------------------------------------------------------------------------ */

/* RequiredNodeAffinity.Match (component-helpers scheduling/corev1/nodeaffinity/nodeaffinity.go) */
int ds_pod_required_node_affinity_match2(const char *pod, size_t pod_size, const char *node, size_t node_size,
					 const ds_options *opts, int *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, out);
	*out = 0;
	ds_object p, n;
	int rc = parse(DSI_OT_POD, DSI_READ_DEFAULT, pod, pod_size, opts, "pod", &p, err);
	if (rc < 0)
		return rc;
	if ((rc = parse(DSI_OT_NODE, DSI_READ_NODE_PLAIN, node, node_size, opts, "node", &n, err)) == 0) {
		rc = dsi_decide_affinity(&p, &n, out, err);
		release(&n);
	}
	release(&p);
	return rc;
}

/* ---- the DaemonSet controller ------------------------------------------------------------------- */

/* NodeShouldRunDaemonPod (pkg/controller/daemon/daemon_controller.go) */
int ds_daemonset_node_should_run(const char *daemonset, size_t daemonset_size, const char *node, size_t node_size,
				 const ds_options *opts, int *should_run, int *should_continue_running, char **json_out,
				 ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	ds_object d, n;
	int rc = parse(DSI_OT_DAEMONSET, DSI_READ_DS_PLACEMENT, daemonset, daemonset_size, opts, "daemonset", &d, err);
	if (rc < 0)
		return rc;
	if ((rc = parse(DSI_OT_NODE, DSI_READ_DEFAULT, node, node_size, opts, "node", &n, err)) == 0) {
		rc = dsi_decide_should_run(&d, &n, opts, should_run, should_continue_running, json_out, err);
		release(&n);
	}
	release(&d);
	return rc;
}

/* CreatePodTemplate + ReplaceDaemonSetPodNodeNameNodeAffinity + GetPodFromTemplate (syncNodes) */
int ds_daemonset_new_pod(const char *daemonset, size_t size, const char *node_name, const char *hash,
			 const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, node_name, json_out);
	*json_out = NULL;
	ds_object d;
	/* the template hash only where the pod's label takes it */
	int mode = hash || dsi_o_daemon(opts)->revision_hash ? DSI_READ_DS_PLACEMENT : DSI_READ_DS_PLACEMENT_HASH;
	int rc = parse(DSI_OT_DAEMONSET, mode, daemonset, size, opts, "daemonset", &d, err);
	if (rc < 0)
		return rc;
	rc = dsi_decide_new_pod(&d, node_name, hash, opts, json_out, err);
	release(&d);
	return rc;
}

/* AddOrUpdateDaemonPodTolerations (pkg/controller/daemon/util/daemonset_util.go) */
int ds_podspec_add_daemon_tolerations2(const char *podspec, size_t size, const ds_options *opts, char **json_out,
				       ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, json_out);
	*json_out = NULL;
	ds_object p;
	int rc = parse(DSI_OT_POD, DSI_READ_DEFAULT, podspec, size, opts, "podspec", &p, err);
	if (rc < 0)
		return rc;
	rc = dsi_decide_add_tolerations(&p, json_out, err);
	release(&p);
	return rc;
}

/* ReplaceDaemonSetPodNodeNameNodeAffinity (pkg/controller/daemon/util/daemonset_util.go) */
int ds_affinity_replace_node_name2(const char *affinity, size_t size, const char *node_name, const ds_options *opts,
				   char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, node_name, json_out);
	*json_out = NULL;
	ds_object a;
	int rc = parse(DSI_OT_AFFINITY, 0, affinity, size, opts, "affinity", &a, err);
	if (rc < 0)
		return rc;
	rc = dsi_decide_replace_affinity(&a, node_name, json_out, err);
	release(&a);
	return rc;
}

/* rollingUpdate (pkg/controller/daemon/update.go), alone: on the objects' own snapshot, which no one
 * else has. The objects are read first, so that the DaemonSet is read once, into their snapshot's
 * table (the snapshot takes it as read); its errors still come first, as though it were read first. */
int ds_daemonset_rolling_update(const char *daemonset, size_t daemonset_size, const char *objects, size_t objects_size,
				const char *hash, ds_time now, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, json_out);
	*json_out = NULL;
	ds_object l;
	int rc = parse(DSI_OT_LIST, 0, objects, objects_size, opts, "objects", &l, err);
	if (rc < 0) { /* the DaemonSet's error, if it has one, rather than the objects' */
		const ds_error objects_err = *err;
		ds_object d;
		dsi_error_reset(err); /* as it was when the DaemonSet was read first */
		int drc = parse(DSI_OT_DAEMONSET, DSI_READ_DEFAULT, daemonset, daemonset_size, opts, "daemonset", &d,
				err);
		if (drc < 0)
			return drc;
		release(&d);
		*err = objects_err;
		return rc;
	}
	/* the patch is what the ControllerRevisions are compared with (and what a revision to create
	 * holds, which a decision never makes): without any, the DaemonSet is read without it */
	int mode = dsi_cluster_count(&l.u.list.c, DSI_KIND_REVISION) ? DSI_READ_DEFAULT : DSI_READ_DS_HASH;
	dsi_daemonset d;
	if ((rc = dsi_object_parse_daemonset_into(mode, daemonset, daemonset_size, opts, "daemonset", &l.u.list.c.atoms,
						  &d, err)) == 0)
		rc = dsi_decide_rolling_update(&l.u.list.c, NULL, &d, hash, now, opts, json_out, err);
	release(&l);
	return rc;
}

/* ---- the scheduler --------------------------------------------------------------------------------- */

/* The pod (a Pod), the node and its pods, then the filters or preemption on the pods' own snapshot. */
static int scheduler(const char *pod, size_t pod_size, const char *node, size_t node_size, const char *objects,
		     size_t objects_size, const ds_options *opts, int victims, char **json_out, ds_error *err)
{
	DSI_ARGS_NONNULL(err, json_out);
	*json_out = NULL;
	ds_object p, n, l;
	int rc = parse(DSI_OT_POD, DSI_READ_POD_STRICT, pod, pod_size, opts, "pod", &p, err);
	if (rc < 0)
		return rc;
	if ((rc = parse(DSI_OT_NODE, DSI_READ_DEFAULT, node, node_size, opts, "node", &n, err)) == 0) {
		if ((rc = parse(DSI_OT_LIST, 0, objects, objects_size, opts, "objects", &l, err)) == 0) {
			rc = dsi_decide_scheduler(&l.u.list.c, &l, &p, &n, opts, victims, json_out, err);
			release(&l);
		}
		release(&n);
	}
	release(&p);
	return rc;
}

int ds_scheduler_filter(const char *pod, size_t pod_size, const char *node, size_t node_size, const char *objects,
			size_t objects_size, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	return scheduler(pod, pod_size, node, node_size, objects, objects_size, opts, 0, json_out, err);
}

/* SelectVictimsOnNode (scheduler plugins/defaultpreemption/default_preemption.go) */
int ds_preemption_select_victims(const char *pod, size_t pod_size, const char *node, size_t node_size,
				 const char *objects, size_t objects_size, const ds_options *opts, char **json_out,
				 ds_error *err)
{
	DSI_ERR_BEGIN(err);
	return scheduler(pod, pod_size, node, node_size, objects, objects_size, opts, 1, json_out, err);
}
