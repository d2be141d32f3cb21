/* manage and podsShouldBeOnNode (pkg/controller/daemon/daemon_controller.go): per node, the pods to create
 * and the pods to delete so that each node that should run the daemon runs one. */
#include "core/alloc.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "daemon/availability.h"
#include "daemon/syncpass.h"

/* A failed pod: the controller and the kubelet fight over a rejected pod, so the controller backs off
 * per node (failedPodsBackoffKey, daemon_controller.go: "<uid>/<observedGeneration>/<node>") before it
 * deletes the pod again. */
static int failed_pod(dsi_sync_pass *s, const dsi_node *node, const dsi_pod *pod)
{
	const dsi_cluster *c = s->c;
	char *key = dsi_format("%s/%lld/%s", dsi_cstr(c, s->ds->meta.uid), (long long)s->ds->status.observed_generation,
			       dsi_cstr(c, node->meta.name));
	if (!key)
		return dsi_error_nomem(s->err);
	int64_t max = s->o->daemon->backoff_max_ms;
	int rc = 0;
	if (dsi_backoff_in_backoff(&s->plan->backoff, key, s->now, max))
		dsi_sync_note_requeue(s, dsi_backoff_get(&s->plan->backoff, key));
	else if (dsi_backoff_next(&s->plan->backoff, key, s->now, s->o->daemon->backoff_initial_ms, max) < 0)
		rc = dsi_error_nomem(s->err);
	else if ((rc = dsi_sync_add_event(s, "Warning", "FailedDaemonPod",
					  "Found failed daemon pod %s/%s on node %s, will try to kill it",
					  dsi_cstr(c, pod->meta.ns), dsi_cstr(c, pod->meta.name),
					  dsi_cstr(c, node->meta.name))) == 0)
		rc = dsi_sync_add_delete(s, pod, DSI_DEL_FAILED);
	dsi_free(key);
	return rc;
}

/* util.AllowsSurge: SurgeCount(ds, 1) > 0, an invalid value counting as none */
static int allows_surge(dsi_sync_pass *s)
{
	int32_t v;
	ds_error tmp, *saved = s->err;
	s->err = &tmp;
	int rc = dsi_sync_scaled(s, &s->ds->max_surge, s->ds->has_max_surge, DSI_MAX_SURGE_PATH, 1, &v);
	s->err = saved;
	return rc == 0 && v > 0;
}

/* podsShouldBeOnNode (daemon_controller.go) */
static int pods_should_be_on_node(dsi_sync_pass *s, uint32_t idx, int surge)
{
	const dsi_node *node = s->c->objs[DSI_KIND_NODE].v[idx]; /* read only for its name */
	const dsi_verdict *v = &s->verdict[idx];
	int32_t first = s->pods.first[idx];
	int exists = s->pods.count[idx] > 0;
	const dsi_cluster *c = s->c;
	if (v->should_run && !exists)
		return dsi_sync_add_create(s, node, DSI_CREATE_MISSING);
	int32_t *on = s->node_pods;
	const dsi_pod **running = s->running;
	uint32_t n = dsi_sync_pods_of(s, first, on), nrun = 0;
	const uint8_t *state = s->pods.state;
	int rc = 0;
	if (v->should_continue) {
		for (uint32_t i = 0; i < n && rc == 0; i++) {
			const dsi_pod *pod = s->pods.v[on[i]]; /* not read unless acted on */
			if (state[on[i]] & DSI_DSP_DELETING)
				continue;
			if (state[on[i]] & DSI_DSP_FAILED) {
				rc = failed_pod(s, node, pod);
				continue;
			}
			if (state[on[i]] & DSI_DSP_SUCCEEDED) {
				if ((rc = dsi_sync_add_event(s, "Normal", "SucceededDaemonPod",
							     "Found succeeded daemon pod %s/%s on node %s, will try to "
							     "delete it",
							     dsi_cstr(c, pod->meta.ns), dsi_cstr(c, pod->meta.name),
							     dsi_cstr(c, node->meta.name))) == 0)
					rc = dsi_sync_add_delete(s, pod, DSI_DEL_SUCCEEDED);
				continue;
			}
			running[nrun++] = pod;
		}
		if (rc < 0)
			return rc;
		if (!surge) {
			if (nrun <= 1)
				return 0;
			dsi_sort_stable(running, nrun, sizeof(running[0]), dsi_pod_cmp_creation, (void *)c);
			for (uint32_t i = 1; i < nrun && rc == 0; i++)
				rc = dsi_sync_add_delete(s, running[i], DSI_DEL_DUPLICATE);
			return rc;
		}
		if (nrun <= 1) {
			if (nrun == 0 && v->should_run) /* surging: keep one non-deleted pod on the node */
				return dsi_sync_add_create(s, node, DSI_CREATE_MISSING);
			return 0;
		}
		/* surge: keep the oldest pod of the current hash and the oldest other one */
		dsi_sort_stable(running, nrun, sizeof(running[0]), dsi_pod_cmp_creation, (void *)c);
		const dsi_pod *newest = NULL, *oldest_old = NULL;
		for (uint32_t i = 0; i < nrun && rc == 0; i++) {
			int cur = s->key.hash && running[i]->revision_hash == s->key.hash;
			if (cur && !newest)
				newest = running[i];
			else if (!cur && !oldest_old)
				oldest_old = running[i];
			else
				rc = dsi_sync_add_delete(s, running[i], DSI_DEL_DUPLICATE);
		}
		if (rc == 0 && newest && oldest_old &&
		    (!dsi_pod_ready_p(oldest_old) ||
		     dsi_pod_available(newest, s->ds->min_ready_seconds, s->now, s->o->core->k8s_minor)))
			rc = dsi_sync_add_delete(s, oldest_old, DSI_DEL_SURGE_REPLACED);
		return rc;
	}
	if (exists) /* it should not run here any more: every pod that is not already going */
		for (uint32_t i = 0; i < n && rc == 0; i++)
			if (!(state[on[i]] & DSI_DSP_DELETING))
				rc = dsi_sync_add_delete(s, s->pods.v[on[i]], DSI_DEL_NOT_WANTED);
	return rc;
}

/* manage (daemon_controller.go) */
int dsi_sync_manage(dsi_sync_pass *s)
{
	int surge = allows_surge(s);
	int rc = 0;
	size_t nn = dsi_cluster_count(s->c, DSI_KIND_NODE);
	for (size_t i = 0; i < nn && rc == 0; i++)
		rc = pods_should_be_on_node(s, s->order[i], surge);
	/* getUnscheduledPodsWithoutNode (daemon_controller.go): pending pods pinned to a node that is
	 * gone can never run. Upstream has no deletionTimestamp check here: a terminating one is
	 * deleted again (terminal pods with a deletionTimestamp are not collected at all). */
	for (int32_t k = s->pods.lost; k >= 0 && rc == 0; k = s->pods.next[k])
		if (!s->pods.v[k]->spec.node_name)
			rc = dsi_sync_add_delete(s, s->pods.v[k], DSI_DEL_NODE_GONE);
	return rc;
}
