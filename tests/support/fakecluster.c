/* The parts of a cluster besides the API server, as the fake runs them at each tick of its
 * clock: kube-scheduler (its filters through libdaemonset's ds_scheduler_filter), the kubelet,
 * the garbage collector (with PodGC's orphaned pods), the disruption controller's
 * PodDisruptionBudget status and the namespace controller. */
#include "fakeapi_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The keys of a resource's bucket, sorted: a fixed order for every pass (new array of borrowed keys). */
static const char **keys_of(fake_api *api, const char *resource, size_t *n)
{
	json_t *b = fake_bucket(api, fake_res(resource));
	*n = json_object_size(b);
	const char **keys = calloc(*n + 1, sizeof(*keys));
	size_t i = 0;
	const char *k;
	json_t *v;
	json_object_foreach(b, k, v) keys[i++] = k;
	qsort(keys, *n, sizeof(*keys), cmp_str);
	return keys;
}

/* Keys are borrowed from the bucket, which the passes change: each pass copies them first. */
static json_t *key_list(fake_api *api, const char *resource)
{
	size_t n;
	const char **keys = keys_of(api, resource, &n);
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(keys[i]));
	free(keys);
	return a;
}

static const char *phase_of(const json_t *pod)
{
	const char *p = json_string_value(json_object_get(json_object_get(pod, "status"), "phase"));
	return p ? p : "Pending";
}

static int terminal(const json_t *pod)
{
	const char *p = phase_of(pod);
	return !strcmp(p, "Succeeded") || !strcmp(p, "Failed");
}

static ds_time time_of(const char *text)
{
	ds_time t;
	return text && ds_time_parse(text, &t, NULL) == 0 ? t : 0;
}

static int pod_ready(const json_t *pod)
{
	const json_t *conds = json_object_get(json_object_get(pod, "status"), "conditions");
	for (size_t i = 0; i < json_array_size(conds); i++) {
		const json_t *cd = json_array_get(conds, i);
		const char *t = json_string_value(json_object_get(cd, "type"));
		const char *s = json_string_value(json_object_get(cd, "status"));
		if (t && !strcmp(t, "Ready"))
			return s && !strcmp(s, "True");
	}
	return 0;
}

/* Set (or replace) the condition of type in a pod's status; 1 when it changed. */
static int set_condition(json_t *pod, const char *type, const char *st, const char *reason, const char *message,
			 const char *now)
{
	json_t *status = json_object_get(pod, "status");
	if (!json_is_object(status)) {
		status = json_object();
		json_object_set_new(pod, "status", status);
	}
	json_t *conds = json_object_get(status, "conditions");
	if (!json_is_array(conds)) {
		conds = json_array();
		json_object_set_new(status, "conditions", conds);
	}
	json_t *c = json_pack("{s:s, s:s, s:s}", "type", type, "status", st, "lastTransitionTime", now);
	if (reason)
		json_object_set_new(c, "reason", json_string(reason));
	if (message)
		json_object_set_new(c, "message", json_string(message));
	for (size_t i = 0; i < json_array_size(conds); i++) {
		json_t *old = json_array_get(conds, i);
		const char *t = json_string_value(json_object_get(old, "type"));
		if (!t || strcmp(t, type))
			continue;
		json_t *cmp = json_deep_copy(old);
		json_object_set(cmp, "lastTransitionTime", json_object_get(c, "lastTransitionTime"));
		int same = json_equal(cmp, c);
		json_decref(cmp);
		if (same) {
			json_decref(c);
			return 0;
		}
		const char *ost = json_string_value(json_object_get(old, "status"));
		if (ost && !strcmp(ost, st)) /* the status did not flip: the transition time stays */
			json_object_set(c, "lastTransitionTime", json_object_get(old, "lastTransitionTime"));
		json_array_set_new(conds, i, c);
		return 1;
	}
	json_array_append_new(conds, c);
	return 1;
}

/* ---- kube-scheduler ---- */

/* The pods assigned to node that hold resources there (not terminal), as a JSON array text. */
static char *node_pods(fake_api *api, const char *node)
{
	json_t *a = json_array();
	const char *k;
	json_t *p;
	json_object_foreach(fake_bucket(api, fake_res("pods")), k, p)
	{
		const char *n = json_string_value(json_object_get(json_object_get(p, "spec"), "nodeName"));
		if (n && !strcmp(n, node) && !terminal(p))
			json_array_append(a, p);
	}
	char *s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return s;
}

/* The filters of the default profile for pod on node: 1 fits; 0 not, with the reasons counted into hist. */
static int fits(fake_api *api, const char *pod_text, const json_t *node, json_t *hist)
{
	char *node_text = json_dumps(node, JSON_COMPACT);
	char *objs = node_pods(api, fake_meta_str(node, "name"));
	char *out = NULL;
	ds_error err;
	int rc = ds_scheduler_filter(pod_text, strlen(pod_text), node_text, strlen(node_text), objs, strlen(objs), NULL,
				     &out, &err);
	free(node_text);
	free(objs);
	if (rc < 0) {
		char msg[600];
		snprintf(msg, sizeof(msg), "%s", err.message);
		json_object_set_new(hist, msg, json_integer(json_integer_value(json_object_get(hist, msg)) + 1));
		return 0;
	}
	json_t *v = json_loads(out, 0, NULL);
	ds_free(out);
	int ok = json_is_true(json_object_get(v, "fits"));
	size_t i;
	json_t *reason;
	json_array_foreach(json_object_get(v, "reasons"), i, reason)
	{
		const char *msg = json_string_value(json_object_get(reason, "message"));
		if (msg)
			json_object_set_new(hist, msg,
					    json_integer(json_integer_value(json_object_get(hist, msg)) + 1));
	}
	json_decref(v);
	return ok;
}

/* FitError.Error(): "0/N nodes are available: 1 Insufficient cpu, 2 node(s) didn't match ...". */
static void fit_error(const json_t *hist, size_t nodes, char *buf, size_t size)
{
	size_t n = json_object_size(hist), i = 0;
	char **lines = calloc(n + 1, sizeof(*lines));
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)hist, k, v)
	{
		char line[700];
		snprintf(line, sizeof(line), "%lld %s", (long long)json_integer_value(v), k);
		lines[i++] = strdup(line);
	}
	qsort(lines, n, sizeof(*lines), cmp_str);
	size_t off = (size_t)snprintf(buf, size, "0/%zu nodes are available: ", nodes);
	for (i = 0; i < n; i++) {
		if (off < size)
			off += (size_t)snprintf(buf + off, size - off, "%s%s", i ? ", " : "", lines[i]);
		free(lines[i]);
	}
	if (off < size)
		snprintf(buf + off, size - off, ".");
	free(lines);
}

static void schedule(fake_api *api)
{
	if (api->o.no_scheduler)
		return;
	const res_info *pr = fake_res("pods");
	json_t *pkeys = key_list(api, "pods"), *nkeys = key_list(api, "nodes");
	char now[40];
	fake_time_text(api->now, now, sizeof(now));
	size_t i;
	json_t *kv;
	json_array_foreach(pkeys, i, kv)
	{
		const char *key = json_string_value(kv);
		const json_t *pod = json_object_get(fake_bucket(api, pr), key);
		const json_t *spec = json_object_get(pod, "spec");
		const char *sched = json_string_value(json_object_get(spec, "schedulerName"));
		const char *uid = fake_meta_str(pod, "uid");
		if (!pod || !uid || json_string_value(json_object_get(spec, "nodeName")) ||
		    fake_meta_str(pod, "deletionTimestamp") || terminal(pod) ||
		    (sched && strcmp(sched, "default-scheduler")))
			continue;
		if (time_of(fake_meta_str(pod, "creationTimestamp")) + api->o.schedule_after_ms > api->now)
			continue;
		json_t *tried = json_object_get(api->tried, uid);
		if (tried && (unsigned long long)json_integer_value(tried) == api->rv)
			continue; /* nothing changed since it did not fit */
		const char *pin = fake_pod_node(pod);
		char *pod_text = json_dumps(pod, JSON_COMPACT);
		json_t *hist = json_object();
		const char *chosen = NULL;
		size_t j;
		json_t *nk;
		json_array_foreach(nkeys, j, nk)
		{
			const json_t *node =
				json_object_get(fake_bucket(api, fake_res("nodes")), json_string_value(nk));
			const char *name = fake_meta_str(node, "name");
			if (pin && strcmp(pin, name)) {
				const char *m = "node(s) didn't match Pod's node affinity/selector";
				json_object_set_new(hist, m,
						    json_integer(json_integer_value(json_object_get(hist, m)) + 1));
				continue;
			}
			if (fits(api, pod_text, node, hist)) {
				chosen = name;
				break;
			}
		}
		free(pod_text);
		json_t *np = json_deep_copy(pod);
		if (chosen) { /* the binding */
			json_object_set_new(json_object_get(np, "spec"), "nodeName", json_string(chosen));
			set_condition(np, "PodScheduled", "True", NULL, NULL, now);
			json_object_set_new(api->bound, uid, json_integer(api->now));
			json_object_del(api->tried, uid);
			fake_put(api, pr, key, np, 'M');
		} else {
			char msg[2048];
			fit_error(hist, json_array_size(nkeys), msg, sizeof(msg));
			if (set_condition(np, "PodScheduled", "False", "Unschedulable", msg, now))
				fake_put(api, pr, key, np, 'M');
			else
				json_decref(np);
			json_object_set_new(api->tried, uid, json_integer((json_int_t)api->rv));
		}
		json_decref(hist);
	}
	json_decref(pkeys);
	json_decref(nkeys);
}

/* ---- the kubelet ---- */

static ds_time bound_at(const fake_api *api, const json_t *pod)
{
	const json_t *b = json_object_get(api->bound, fake_meta_str(pod, "uid"));
	return b ? (ds_time)json_integer_value(b) : time_of(fake_meta_str(pod, "creationTimestamp"));
}

/* When the kubelet reports a bound pod Ready: ready_after_ms after binding, plus the longest
 * initialDelaySeconds of its containers' readiness probes. */
static ds_time ready_at(const fake_api *api, const json_t *pod)
{
	json_int_t delay = 0;
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(json_object_get(pod, "spec"), "containers"), i, c)
	{
		json_int_t d = json_integer_value(
			json_object_get(json_object_get(c, "readinessProbe"), "initialDelaySeconds"));
		if (d > delay)
			delay = d;
	}
	return bound_at(api, pod) + api->o.ready_after_ms + delay * 1000;
}

/* The first image of the pod that no registry has, or NULL. */
static const char *missing_image(const fake_api *api, const json_t *pod)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(json_object_get(pod, "spec"), "containers"), i, c)
	{
		const char *image = json_string_value(json_object_get(c, "image"));
		if (image && json_object_get(api->missing, image))
			return image;
	}
	return NULL;
}

/* status.containerStatuses: running and ready, or (missing set) waiting on ErrImagePull. */
static json_t *container_statuses(const json_t *pod, const char *now, const char *missing)
{
	json_t *a = json_array();
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(json_object_get(pod, "spec"), "containers"), i, c)
	{
		const char *image = json_string_value(json_object_get(c, "image"));
		json_t *state = missing ? json_pack("{s:{s:s, s:s}}", "waiting", "reason", "ErrImagePull", "message",
						    "failed to pull and unpack image")
					: json_pack("{s:{s:s}}", "running", "startedAt", now);
		json_array_append_new(a,
				      json_pack("{s:s?, s:s?, s:b, s:b, s:i, s:o}", "name",
						json_string_value(json_object_get(c, "name")), "image", image, "ready",
						!missing, "started", !missing, "restartCount", 0, "state", state));
	}
	return a;
}

static void kubelet(fake_api *api)
{
	const res_info *pr = fake_res("pods");
	json_t *pkeys = key_list(api, "pods");
	char now[40];
	fake_time_text(api->now, now, sizeof(now));
	size_t i;
	json_t *kv;
	json_array_foreach(pkeys, i, kv)
	{
		const char *key = json_string_value(kv);
		const json_t *pod = json_object_get(fake_bucket(api, pr), key);
		const char *node = json_string_value(json_object_get(json_object_get(pod, "spec"), "nodeName"));
		if (!pod || !node)
			continue;
		const char *del = fake_meta_str(pod, "deletionTimestamp");
		if (del) { /* the grace period is over: the kubelet's own delete, with none */
			if (time_of(del) > api->now)
				continue;
			const json_t *meta = json_object_get(pod, "metadata");
			if (!json_array_size(json_object_get(meta, "finalizers"))) {
				fake_remove(api, pr, key);
			} else if (json_integer_value(json_object_get(meta, "deletionGracePeriodSeconds")) != 0) {
				json_t *np = json_deep_copy(pod);
				json_object_set_new(fake_meta(np), "deletionGracePeriodSeconds", json_integer(0));
				fake_put(api, pr, key, np, 'M');
			}
			continue;
		}
		if (api->o.ready_after_ms < 0 || strcmp(phase_of(pod), "Pending") ||
		    !json_object_get(fake_bucket(api, fake_res("nodes")), node) || json_object_get(api->broken, node) ||
		    ready_at(api, pod) > api->now)
			continue;
		json_t *np = json_deep_copy(pod), *st = json_object_get(np, "status");
		if (!json_is_object(st)) {
			st = json_object();
			json_object_set_new(np, "status", st);
		}
		const char *missing = missing_image(api, pod);
		if (missing) { /* ErrImagePull: it stays Pending */
			json_t *cs = container_statuses(pod, now, missing);
			if (json_equal(cs, json_object_get(st, "containerStatuses"))) {
				json_decref(cs);
				json_decref(np);
				continue;
			}
			json_object_set_new(st, "containerStatuses", cs);
			set_condition(np, "Ready", "False", "ContainersNotReady", NULL, now);
			fake_put(api, pr, key, np, 'M');
			continue;
		}
		json_object_set_new(st, "phase", json_string("Running"));
		json_object_set_new(st, "startTime", json_string(now));
		json_object_set_new(st, "containerStatuses", container_statuses(pod, now, NULL));
		set_condition(np, "Initialized", "True", NULL, NULL, now);
		set_condition(np, "Ready", "True", NULL, NULL, now);
		set_condition(np, "ContainersReady", "True", NULL, NULL, now);
		set_condition(np, "PodScheduled", "True", NULL, NULL, now);
		fake_put(api, pr, key, np, 'M');
	}
	json_decref(pkeys);
}

int fake_pod_set_ready(fake_api *api, const char *ns, const char *name, int ready)
{
	const res_info *r = fake_res("pods");
	char key[600], now[40];
	fake_key(r, ns, name, key, sizeof(key));
	const json_t *cur = json_object_get(fake_bucket(api, r), key);
	if (!cur)
		return 404;
	fake_time_text(api->now, now, sizeof(now));
	json_t *pod = json_deep_copy(cur);
	int changed = set_condition(pod, "Ready", ready ? "True" : "False", NULL, NULL, now);
	changed |= set_condition(pod, "ContainersReady", ready ? "True" : "False", NULL, NULL, now);
	json_t *cs = json_object_get(json_object_get(pod, "status"), "containerStatuses");
	size_t i;
	json_t *c;
	json_array_foreach(cs, i, c) json_object_set_new(c, "ready", json_boolean(ready));
	if (changed)
		fake_put(api, r, key, pod, 'M');
	else
		json_decref(pod);
	return 0;
}

int fake_pod_set_phase(fake_api *api, const char *ns, const char *name, const char *phase)
{
	const res_info *r = fake_res("pods");
	char key[600], now[40];
	fake_key(r, ns, name, key, sizeof(key));
	const json_t *cur = json_object_get(fake_bucket(api, r), key);
	if (!cur)
		return 404;
	fake_time_text(api->now, now, sizeof(now));
	json_t *pod = json_deep_copy(cur), *st = json_object_get(pod, "status");
	if (!json_is_object(st)) {
		st = json_object();
		json_object_set_new(pod, "status", st);
	}
	const char *ready = strcmp(phase, "Running") ? "False" : "True";
	json_object_set_new(st, "phase", json_string(phase));
	set_condition(pod, "Ready", ready, NULL, NULL, now);
	set_condition(pod, "ContainersReady", ready, NULL, NULL, now);
	fake_put(api, r, key, pod, 'M');
	return 0;
}

/* ---- the garbage collector ---- */

static int has_finalizer(const json_t *obj, const char *f)
{
	const json_t *fs = json_object_get(json_object_get(obj, "metadata"), "finalizers");
	for (size_t i = 0; i < json_array_size(fs); i++)
		if (!strcmp(json_string_value(json_array_get(fs, i)), f))
			return 1;
	return 0;
}

/* obj without finalizer f, without owner references to uid drop (either may be NULL). */
static json_t *without(const json_t *obj, const char *f, const char *drop)
{
	json_t *o = json_deep_copy(obj), *meta = fake_meta(o);
	json_t *fs = json_object_get(meta, "finalizers"), *refs = json_object_get(meta, "ownerReferences");
	for (size_t i = json_array_size(fs); f && i-- > 0;)
		if (!strcmp(json_string_value(json_array_get(fs, i)), f))
			json_array_remove(fs, i);
	if (fs && !json_array_size(fs))
		json_object_del(meta, "finalizers");
	for (size_t i = json_array_size(refs); drop && i-- > 0;)
		if (!strcmp(json_string_value(json_object_get(json_array_get(refs, i), "uid")), drop))
			json_array_remove(refs, i);
	if (refs && !json_array_size(refs))
		json_object_del(meta, "ownerReferences");
	return o;
}

/* Write obj over key; when it is deleting, has no finalizers left and no grace, it goes. */
static void rewrite(fake_api *api, const res_info *r, const char *key, json_t *obj)
{
	const json_t *meta = json_object_get(obj, "metadata");
	int gone = fake_meta_str(obj, "deletionTimestamp") && !json_array_size(json_object_get(meta, "finalizers")) &&
		   json_integer_value(json_object_get(meta, "deletionGracePeriodSeconds")) == 0;
	fake_put(api, r, key, obj, 'M');
	if (gone)
		fake_remove(api, r, key);
}

static const char *const owned_kinds[] = {"pods", "controllerrevisions", "daemonsets", "events"};

static void gc(fake_api *api)
{
	if (api->o.no_gc)
		return;
	json_t *uids = json_object(); /* every uid there is */
	const char *k;
	json_t *b, *obj;
	json_object_foreach(api->store, k, b)
	{
		const char *k2;
		json_object_foreach(b, k2, obj)
		{
			const char *uid = fake_meta_str(obj, "uid");
			if (uid)
				json_object_set_new(uids, uid, json_true());
		}
	}
	static const char bg[] = "{\"propagationPolicy\":\"Background\"}";
	json_t *background = json_loads(bg, 0, NULL);
	for (size_t t = 0; t < sizeof(owned_kinds) / sizeof(owned_kinds[0]); t++) {
		const res_info *r = fake_res(owned_kinds[t]);
		json_t *keys = key_list(api, r->name);
		size_t i;
		json_t *kv;
		json_array_foreach(keys, i, kv)
		{
			const char *key = json_string_value(kv);
			const json_t *o = json_object_get(fake_bucket(api, r), key);
			const json_t *refs = json_object_get(json_object_get(o, "metadata"), "ownerReferences");
			size_t n = json_array_size(refs), absent = 0;
			const char *gone = NULL;
			for (size_t j = 0; j < n; j++) {
				const json_t *ref = json_array_get(refs, j);
				const char *u = json_string_value(json_object_get(ref, "uid"));
				/* an owner of a kind not served here cannot be looked up: it is left alone */
				if (!fake_res_by_kind(json_string_value(json_object_get(ref, "apiVersion")),
						      json_string_value(json_object_get(ref, "kind"))))
					continue;
				if (u && !json_object_get(uids, u)) {
					absent++;
					gone = u;
				}
			}
			if (!absent)
				continue;
			if (absent == n) { /* every owner is gone: so is it */
				if (!fake_meta_str(o, "deletionTimestamp"))
					fake_delete_obj(api, r, key, background, NULL);
			} else {
				rewrite(api, r, key, without(o, NULL, gone));
			}
		}
		json_decref(keys);
	}
	/* owners deleted in the foreground wait for their dependents; orphaning ones release them */
	json_t *owners = json_array();
	json_object_foreach(api->store, k, b)
	{
		const char *k2;
		json_object_foreach(b, k2,
				    obj) if (fake_meta_str(obj, "deletionTimestamp") &&
					     (has_finalizer(obj, "foregroundDeletion") || has_finalizer(obj, "orphan")))
			json_array_append_new(owners, json_pack("{s:s, s:s}", "r", k, "key", k2));
	}
	size_t i;
	json_t *ow;
	json_array_foreach(owners, i, ow)
	{
		const res_info *r = fake_res(json_string_value(json_object_get(ow, "r")));
		const char *key = json_string_value(json_object_get(ow, "key"));
		const json_t *owner = json_object_get(fake_bucket(api, r), key);
		if (!owner)
			continue;
		const char *uid = fake_meta_str(owner, "uid");
		int orphan = has_finalizer(owner, "orphan"), left = 0;
		for (size_t t = 0; t < sizeof(owned_kinds) / sizeof(owned_kinds[0]); t++) {
			const res_info *dr = fake_res(owned_kinds[t]);
			json_t *keys = key_list(api, dr->name);
			size_t j;
			json_t *kv;
			json_array_foreach(keys, j, kv)
			{
				const char *dkey = json_string_value(kv);
				const json_t *d = json_object_get(fake_bucket(api, dr), dkey);
				const json_t *refs = json_object_get(json_object_get(d, "metadata"), "ownerReferences");
				int owned = 0;
				for (size_t m = 0; m < json_array_size(refs); m++)
					owned |= !strcmp(
						json_string_value(json_object_get(json_array_get(refs, m), "uid")),
						uid);
				if (!owned)
					continue;
				if (orphan)
					rewrite(api, dr, dkey, without(d, NULL, uid));
				else {
					left++;
					if (!fake_meta_str(d, "deletionTimestamp"))
						fake_delete_obj(api, dr, dkey, background, NULL);
				}
			}
			json_decref(keys);
		}
		if (orphan || !left)
			rewrite(api, r, key, without(owner, orphan ? "orphan" : "foregroundDeletion", NULL));
	}
	json_decref(owners);
	/* PodGC: pods bound to nodes that are gone */
	const res_info *pr = fake_res("pods");
	json_t *keys = key_list(api, "pods");
	json_t *kv;
	json_array_foreach(keys, i, kv)
	{
		const char *key = json_string_value(kv);
		const json_t *p = json_object_get(fake_bucket(api, pr), key);
		const char *node = json_string_value(json_object_get(json_object_get(p, "spec"), "nodeName"));
		if (p && node && !json_object_get(fake_bucket(api, fake_res("nodes")), node)) {
			json_t *force = json_pack("{s:i}", "gracePeriodSeconds", 0);
			fake_delete_obj(api, pr, key, force, NULL);
			json_decref(force);
		}
	}
	json_decref(keys);
	json_decref(background);
	json_decref(uids);
}

/* ---- the disruption controller ---- */

static int pdb_selects(const json_t *pdb, const json_t *pod)
{
	const char *ns = fake_meta_str(pdb, "namespace"), *pns = fake_meta_str(pod, "namespace");
	const json_t *sel = json_object_get(json_object_get(pdb, "spec"), "selector");
	if (!ns || !pns || strcmp(ns, pns) || !json_is_object(sel))
		return 0;
	char *s = json_dumps(sel, JSON_COMPACT);
	json_t *labels = json_object_get(json_object_get(pod, "metadata"), "labels");
	char *l = labels ? json_dumps(labels, JSON_COMPACT) : strdup("{}");
	int match = 0;
	ds_error err;
	if (ds_selector_match(s, strlen(s), l, strlen(l), &match, &err) < 0)
		match = 0;
	free(s);
	free(l);
	return match;
}

json_t *fake_pdbs_for(fake_api *api, const json_t *pod)
{
	json_t *a = json_array();
	size_t n;
	const char **keys = keys_of(api, "poddisruptionbudgets", &n);
	json_t *b = fake_bucket(api, fake_res("poddisruptionbudgets"));
	for (size_t i = 0; i < n; i++) {
		json_t *pdb = json_object_get(b, keys[i]);
		if (pdb_selects(pdb, pod))
			json_array_append(a, pdb);
	}
	free(keys);
	return a;
}

/* intstr scaled over total (a percentage rounds up), as GetScaledValueFromIntOrPercent. */
static json_int_t scaled(const json_t *v, json_int_t total)
{
	if (json_is_integer(v))
		return json_integer_value(v);
	const char *s = json_string_value(v);
	if (!s)
		return 0;
	long pct = strtol(s, NULL, 10);
	return (json_int_t)((pct * total + 99) / 100);
}

json_t *fake_pdb_status(fake_api *api, const json_t *pdb)
{
	const json_t *spec = json_object_get(pdb, "spec"), *old = json_object_get(pdb, "status");
	json_t *disrupted = json_object();
	json_int_t expected = 0, healthy = 0;
	const char *k;
	json_t *pod;
	json_object_foreach(fake_bucket(api, fake_res("pods")), k, pod)
	{
		if (!pdb_selects(pdb, pod) || terminal(pod))
			continue;
		expected++;
		const char *name = fake_meta_str(pod, "name");
		json_t *when = json_object_get(json_object_get(old, "disruptedPods"), name);
		if (fake_meta_str(pod, "deletionTimestamp"))
			continue;
		if (when && time_of(json_string_value(when)) + 120000 > api->now) { /* evicted, not gone yet */
			json_object_set(disrupted, name, when);
			continue;
		}
		healthy += pod_ready(pod);
	}
	json_int_t desired = 0;
	if (json_object_get(spec, "minAvailable"))
		desired = scaled(json_object_get(spec, "minAvailable"), expected);
	else if (json_object_get(spec, "maxUnavailable"))
		desired = expected - scaled(json_object_get(spec, "maxUnavailable"), expected);
	if (desired < 0)
		desired = 0;
	json_int_t allowed = healthy - desired > 0 ? healthy - desired : 0;
	json_t *st = json_pack("{s:I, s:I, s:I, s:I, s:I}", "observedGeneration",
			       json_integer_value(json_object_get(json_object_get(pdb, "metadata"), "generation")),
			       "disruptionsAllowed", allowed, "currentHealthy", healthy, "desiredHealthy", desired,
			       "expectedPods", expected);
	if (json_object_size(disrupted))
		json_object_set(st, "disruptedPods", disrupted);
	json_decref(disrupted);
	return st;
}

static void disruption(fake_api *api)
{
	const res_info *r = fake_res("poddisruptionbudgets");
	json_t *keys = key_list(api, r->name);
	size_t i;
	json_t *kv;
	json_array_foreach(keys, i, kv)
	{
		const char *key = json_string_value(kv);
		const json_t *pdb = json_object_get(fake_bucket(api, r), key);
		json_t *st = fake_pdb_status(api, pdb);
		if (json_equal(st, json_object_get(pdb, "status"))) {
			json_decref(st);
			continue;
		}
		json_t *np = json_deep_copy(pdb);
		json_object_set_new(np, "status", st);
		fake_put(api, r, key, np, 'M');
	}
	json_decref(keys);
}

/* ---- the namespace controller: a deleting namespace loses its contents, then goes ---- */

static void namespaces(fake_api *api)
{
	const res_info *nr = fake_res("namespaces");
	json_t *keys = key_list(api, nr->name);
	size_t i;
	json_t *kv;
	json_array_foreach(keys, i, kv)
	{
		const char *ns = json_string_value(kv);
		const json_t *nso = json_object_get(fake_bucket(api, nr), ns);
		if (!fake_meta_str(nso, "deletionTimestamp"))
			continue;
		size_t left = 0;
		const char *rk;
		json_t *b;
		json_t *doomed = json_array();
		json_object_foreach(api->store, rk, b)
		{
			const res_info *r = fake_res(rk);
			if (!r || !r->namespaced)
				continue;
			const char *k;
			json_t *o;
			json_object_foreach(b, k, o)
			{
				const char *ons = fake_meta_str(o, "namespace");
				if (!ons || strcmp(ons, ns))
					continue;
				left++;
				if (!fake_meta_str(o, "deletionTimestamp"))
					json_array_append_new(doomed, json_pack("{s:s, s:s}", "r", rk, "k", k));
			}
		}
		size_t j;
		json_t *d;
		json_array_foreach(doomed, j, d)
		{
			fake_delete_obj(api, fake_res(json_string_value(json_object_get(d, "r"))),
					json_string_value(json_object_get(d, "k")), NULL, NULL);
		}
		json_decref(doomed);
		if (!left)
			fake_remove(api, nr, ns);
	}
	json_decref(keys);
}

void fake_cluster_tick(fake_api *api)
{
	schedule(api);
	kubelet(api);
	gc(api);
	disruption(api);
	namespaces(api);
}

ds_time fake_cluster_next_due(const fake_api *api)
{
	ds_time next = -1;
	const char *k;
	json_t *pod;
	json_object_foreach(json_object_get(api->store, "pods"), k, pod)
	{
		ds_time t = -1;
		const char *node = json_string_value(json_object_get(json_object_get(pod, "spec"), "nodeName"));
		const char *del = fake_meta_str(pod, "deletionTimestamp");
		if (del && node)
			t = time_of(del);
		else if (!node && !api->o.no_scheduler && !del)
			t = time_of(fake_meta_str(pod, "creationTimestamp")) + api->o.schedule_after_ms;
		else if (node && !del && api->o.ready_after_ms >= 0 && !strcmp(phase_of(pod), "Pending") &&
			 !json_object_get(api->broken, node) && !missing_image(api, pod))
			t = ready_at(api, pod);
		if (t > api->now && (next < 0 || t < next))
			next = t;
	}
	return next;
}
