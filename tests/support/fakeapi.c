/* The fake API server: the store, the REST calls, watches and faults (see fakeapi.h). */
#include "fakeapi_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The resources served: what the DaemonSet controller, its tests, kubectl and dsctl use. */
static const res_info resources[] = {
	{"nodes", "Node", "", "v1", "nodes", 0, "no", "status"},
	{"pods", "Pod", "", "v1", "pods", 1, "po", "status,eviction,binding"},
	{"namespaces", "Namespace", "", "v1", "namespaces", 0, "ns", "status"},
	{"events", "Event", "", "v1", "events", 1, "ev", ""},
	{"daemonsets", "DaemonSet", "apps", "v1", "daemonsets.apps", 1, "ds", "status"},
	{"controllerrevisions", "ControllerRevision", "apps", "v1", "controllerrevisions.apps", 1, "", ""},
	{"poddisruptionbudgets", "PodDisruptionBudget", "policy", "v1", "poddisruptionbudgets.policy", 1, "pdb",
	 "status"},
	{"priorityclasses", "PriorityClass", "scheduling.k8s.io", "v1", "priorityclasses.scheduling.k8s.io", 0, "pc",
	 ""},
	{"leases", "Lease", "coordination.k8s.io", "v1", "leases.coordination.k8s.io", 1, "", ""},
};
#define NRES (sizeof(resources) / sizeof(resources[0]))

const res_info *fake_res(const char *name)
{
	for (size_t i = 0; name && i < NRES; i++)
		if (strcmp(resources[i].name, name) == 0)
			return &resources[i];
	return NULL;
}

const res_info *fake_res_by_kind(const char *api_version, const char *kind)
{
	for (size_t i = 0; kind && i < NRES; i++) {
		const res_info *r = &resources[i];
		if (strcmp(r->kind, kind) != 0)
			continue;
		char gv[128];
		snprintf(gv, sizeof(gv), "%s%s%s", r->group, *r->group ? "/" : "", r->version);
		if (!api_version || strcmp(api_version, gv) == 0)
			return r;
	}
	return NULL;
}

json_t *fake_resources(void)
{
	json_t *a = json_array();
	for (size_t i = 0; i < NRES; i++) {
		const res_info *r = &resources[i];
		json_t *shorts = json_array(), *subs = json_array();
		char buf[256];
		snprintf(buf, sizeof(buf), "%s", r->short_names);
		for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
			json_array_append_new(shorts, json_string(t));
		snprintf(buf, sizeof(buf), "%s", r->subresources);
		for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
			json_array_append_new(subs, json_string(t));
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:b, s:o, s:o}", "name", r->name, "kind",
						   r->kind, "group", r->group, "version", r->version, "namespaced",
						   r->namespaced, "shortNames", shorts, "subresources", subs));
	}
	return a;
}

void fake_key(const res_info *r, const char *ns, const char *name, char *buf, size_t size)
{
	if (r->namespaced)
		snprintf(buf, size, "%s/%s", ns ? ns : "", name ? name : "");
	else
		snprintf(buf, size, "%s", name ? name : "");
}

const char *fake_meta_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(json_object_get(obj, "metadata"), key));
}

json_t *fake_meta(json_t *obj)
{
	json_t *m = json_object_get(obj, "metadata");
	if (!json_is_object(m)) {
		m = json_object();
		json_object_set_new(obj, "metadata", m);
	}
	return m;
}

void fake_time_text(ds_time t, char *buf, size_t size)
{
	char tmp[40];
	ds_time_format(t - (t % 1000 + 1000) % 1000, tmp, sizeof(tmp));
	snprintf(buf, size, "%s", tmp);
}

json_t *fake_bucket(fake_api *api, const res_info *r)
{
	json_t *b = json_object_get(api->store, r->name);
	if (!b) {
		b = json_object();
		json_object_set_new(api->store, r->name, b);
	}
	return b;
}

const char *fake_controller_uid(const json_t *obj)
{
	const json_t *refs = json_object_get(json_object_get(obj, "metadata"), "ownerReferences");
	for (size_t i = 0; i < json_array_size(refs); i++)
		if (json_is_true(json_object_get(json_array_get(refs, i), "controller")))
			return json_string_value(json_object_get(json_array_get(refs, i), "uid"));
	return NULL;
}

const char *fake_pod_node(const json_t *pod)
{
	const json_t *spec = json_object_get(pod, "spec");
	const char *n = json_string_value(json_object_get(spec, "nodeName"));
	if (n && *n)
		return n;
	const json_t *terms =
		json_object_get(json_object_get(json_object_get(json_object_get(spec, "affinity"), "nodeAffinity"),
						"requiredDuringSchedulingIgnoredDuringExecution"),
				"nodeSelectorTerms");
	for (size_t i = 0; i < json_array_size(terms); i++) {
		const json_t *fields = json_object_get(json_array_get(terms, i), "matchFields");
		for (size_t j = 0; j < json_array_size(fields); j++) {
			const json_t *f = json_array_get(fields, j);
			const char *k = json_string_value(json_object_get(f, "key"));
			const char *op = json_string_value(json_object_get(f, "operator"));
			const json_t *vals = json_object_get(f, "values");
			if (k && op && !strcmp(k, "metadata.name") && !strcmp(op, "In") && json_array_size(vals) == 1)
				return json_string_value(json_array_get(vals, 0));
		}
	}
	return NULL;
}

/* ---- answers ---- */

static char *dump(const json_t *v) { return v ? json_dumps(v, JSON_COMPACT) : NULL; }

static int answer(char **out, int code, const json_t *v)
{
	if (out)
		*out = dump(v);
	return code;
}

static const char *reason_of(int code)
{
	switch (code) {
	case 400: return "BadRequest";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "NotFound";
	case 405: return "MethodNotAllowed";
	case 406: return "NotAcceptable";
	case 409: return "Conflict";
	case 410: return "Expired";
	case 415: return "UnsupportedMediaType";
	case 422: return "Invalid";
	case 429: return "TooManyRequests";
	case 503: return "ServiceUnavailable";
	case 504: return "Timeout";
	default: return code >= 500 ? "InternalError" : "";
	}
}

/* A failure Status (metav1.Status) as kube-apiserver writes it; details name the object. */
static int status(char **out, int code, const char *reason, const res_info *r, const char *name, const char *fmt, ...)
{
	if (out)
		*out = NULL;
	if (code <= 0)
		return code; /* no answer at all */
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	json_t *st = json_pack("{s:s, s:s, s:{}, s:s, s:s, s:s, s:i}", "kind", "Status", "apiVersion", "v1", "metadata",
			       "status", "Failure", "message", msg, "reason", reason ? reason : reason_of(code), "code",
			       code);
	if (r) {
		json_t *d = json_object();
		if (name)
			json_object_set_new(d, "name", json_string(name));
		if (*r->group)
			json_object_set_new(d, "group", json_string(r->group));
		json_object_set_new(d, "kind", json_string(r->name));
		json_object_set_new(st, "details", d);
	}
	int rc = answer(out, code, st);
	json_decref(st);
	return rc;
}

static int not_found(char **out, const res_info *r, const char *name)
{
	return status(out, 404, NULL, r, name, "%s \"%s\" not found", r->qualified, name);
}

static int conflict_modified(char **out, const res_info *r, const char *name)
{
	return status(out, 409, "Conflict", r, name,
		      "Operation cannot be fulfilled on %s \"%s\": the object has been modified; please apply your "
		      "changes to the latest version and try again",
		      r->qualified, name);
}

static int conflict_uid(char **out, const res_info *r, const char *name, const char *want, const char *have)
{
	return status(
		out, 409, "Conflict", r, name,
		"Operation cannot be fulfilled on %s \"%s\": Precondition failed: UID in precondition: %s, UID in "
		"object meta: %s",
		r->qualified, name, want, have ? have : "");
}

/* ---- the store and the watch log ---- */

static void log_add(fake_api *api, const res_info *r, char type, json_t *obj, json_t *old)
{
	size_t cap = api->o.watch_window;
	if (api->log_len == cap) { /* the oldest goes: its rv and older are compacted away */
		logent *e = &api->log[api->log_start];
		api->compacted = e->rv;
		json_decref(e->obj);
		json_decref(e->old);
		api->log_start = (api->log_start + 1) % cap;
		api->log_len--;
	}
	logent *e = &api->log[(api->log_start + api->log_len) % cap];
	e->rv = api->rv;
	e->r = r;
	e->type = type;
	e->obj = json_incref(obj);
	e->old = old ? json_incref(old) : NULL;
	api->log_len++;
}

static void bump(fake_api *api, json_t *obj)
{
	char rv[32];
	snprintf(rv, sizeof(rv), "%llu", ++api->rv);
	json_object_set_new(fake_meta(obj), "resourceVersion", json_string(rv));
}

void fake_put(fake_api *api, const res_info *r, const char *key, json_t *obj, char type)
{
	json_t *b = fake_bucket(api, r);
	json_t *old = json_incref(json_object_get(b, key));
	bump(api, obj);
	json_object_set(b, key, obj);
	log_add(api, r, type, obj, old);
	if (api->observer)
		api->observer(api->observer_data, type == 'A' ? "ADDED" : "MODIFIED", r->name, obj);
	json_decref(old);
	json_decref(obj);
}

void fake_remove(fake_api *api, const res_info *r, const char *key)
{
	json_t *b = fake_bucket(api, r);
	json_t *old = json_object_get(b, key);
	if (!old)
		return;
	json_incref(old);
	json_object_del(b, key);
	json_t *gone = json_deep_copy(old);
	bump(api, gone);
	log_add(api, r, 'D', gone, old);
	if (!strcmp(r->name, "pods")) {
		const char *uid = fake_meta_str(old, "uid");
		if (uid) {
			json_object_del(api->bound, uid);
			json_object_del(api->tried, uid);
		}
	}
	if (api->observer)
		api->observer(api->observer_data, "DELETED", r->name, gone);
	json_decref(gone);
	json_decref(old);
}

/* The keys of a bucket, sorted (jansson keeps insertion order). */
static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static const char **sorted_keys(const json_t *bucket, size_t *n)
{
	*n = json_object_size(bucket);
	const char **keys = calloc(*n + 1, sizeof(*keys));
	size_t i = 0;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)bucket, k, v) keys[i++] = k;
	qsort(keys, *n, sizeof(*keys), cmp_str);
	return keys;
}

/* ---- namespaces: every namespace used exists (as if created first) ---- */

static void ensure_namespace(fake_api *api, const char *ns)
{
	const res_info *r = fake_res("namespaces");
	if (!ns || !*ns || json_object_get(fake_bucket(api, r), ns))
		return;
	char t[40], uid[64];
	fake_time_text(api->now, t, sizeof(t));
	snprintf(uid, sizeof(uid), "fa4e0000-0000-4000-8000-%012llx", ++api->uids);
	json_t *o = json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:{s:s}}, s:{s:[s]}, s:{s:s}}", "apiVersion", "v1", "kind",
			      "Namespace", "metadata", "name", ns, "uid", uid, "creationTimestamp", t, "labels",
			      "kubernetes.io/metadata.name", ns, "spec", "finalizers", "kubernetes", "status", "phase",
			      "Active");
	fake_put(api, r, ns, o, 'A');
}

/* ---- what the server adds and checks ---- */

static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789"; /* names.SimpleNameGenerator */

static void new_uid(fake_api *api, json_t *obj)
{
	char uid[64];
	snprintf(uid, sizeof(uid), "fa4e0000-0000-4000-8000-%012llx", ++api->uids);
	json_object_set_new(fake_meta(obj), "uid", json_string(uid));
}

/* ValidateOwnerReferences: at most one controller. */
static int owner_refs_ok(const json_t *obj)
{
	const json_t *refs = json_object_get(json_object_get(obj, "metadata"), "ownerReferences");
	int n = 0;
	for (size_t i = 0; i < json_array_size(refs); i++)
		n += json_is_true(json_object_get(json_array_get(refs, i), "controller"));
	return n <= 1;
}

static void ensure_annotation(json_t *obj, const char *key, const char *value)
{
	json_t *meta = fake_meta(obj), *ann = json_object_get(meta, "annotations");
	if (!json_is_object(ann)) {
		ann = json_object();
		json_object_set_new(meta, "annotations", ann);
	}
	if (!json_object_get(ann, key))
		json_object_set_new(ann, key, json_string(value));
}

/* The API server's defaults for a DaemonSet (through libdaemonset); NULL when it cannot decode it. */
static json_t *ds_defaulted(const json_t *obj, char *why, size_t size)
{
	char *text = dump(obj), *out = NULL;
	ds_error err;
	int rc = text ? ds_daemonset_defaults(text, strlen(text), NULL, &out, &err) : DS_ENOMEM;
	free(text);
	if (rc < 0) {
		snprintf(why, size, "%s%s%s", err.path, err.path[0] ? ": " : "", err.message);
		return NULL;
	}
	json_t *v = json_loads(out, 0, NULL);
	ds_free(out);
	return v;
}

/* ValidateDaemonSet (old NULL) or ValidateDaemonSetUpdate: 0, or the 400 or 422 answered. */
static int ds_validate(const res_info *r, const json_t *obj, const json_t *old, int status_only, char **out)
{
	char *text = dump(obj), *old_text = old ? dump(old) : NULL, *res = NULL;
	ds_error err;
	ds_options *opts = NULL;
	ds_options_create(&opts, NULL);
	ds_options_set(opts, "fieldValidation", "Ignore", NULL);
	int rc = old ? ds_daemonset_validate_update(text, strlen(text), old_text, strlen(old_text),
						    status_only ? DS_VALIDATE_STATUS : 0, opts, &res, &err)
		     : ds_daemonset_validate(text, strlen(text), 0, opts, &res, &err);
	ds_options_free(opts);
	free(text);
	free(old_text);
	const char *name = fake_meta_str(obj, "name");
	if (rc < 0)
		return status(out, 400, "BadRequest", r, name, "%s%s%s", err.path, err.path[0] ? ": " : "",
			      err.message);
	json_t *v = json_loads(res, 0, NULL);
	ds_free(res);
	if (json_is_true(json_object_get(v, "valid"))) {
		json_decref(v);
		return 0;
	}
	json_t *causes = json_array();
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(v, "errors"), i, e)
	{
		json_array_append_new(causes, json_pack("{s:s?, s:s?, s:s?}", "reason",
							json_string_value(json_object_get(e, "reason")), "message",
							json_string_value(json_object_get(e, "message")), "field",
							json_string_value(json_object_get(e, "field"))));
	}
	int code = json_integer_value(json_object_get(v, "code")) == 400 ? 400 : 422;
	status(out, code, NULL, r, name, "%s", json_string_value(json_object_get(v, "message")));
	if (out && *out) { /* details.causes, as StatusError carries them */
		json_t *st = json_loads(*out, 0, NULL);
		json_object_set_new(json_object_get(st, "details"), "causes", causes);
		free(*out);
		*out = dump(st);
		json_decref(st);
	} else {
		json_decref(causes);
	}
	json_decref(v);
	return code;
}

/* What a create of obj into r turns it into, before it is stored: 0 or the answer given. */
static int prepare_create(const res_info *r, json_t *obj, const char *ns, char **out)
{
	json_t *meta = fake_meta(obj);
	const char *name = fake_meta_str(obj, "name");
	json_object_set_new(obj, "kind", json_string(r->kind));
	char gv[128];
	snprintf(gv, sizeof(gv), "%s%s%s", r->group, *r->group ? "/" : "", r->version);
	json_object_set_new(obj, "apiVersion", json_string(gv));
	if (r->namespaced)
		json_object_set_new(meta, "namespace", json_string(ns));
	else
		json_object_del(meta, "namespace");
	if (!owner_refs_ok(obj))
		return status(
			out, 422, "Invalid", r, name,
			"%s \"%s\" is invalid: metadata.ownerReferences: Invalid value: []v1.OwnerReference{...}: "
			"Only one reference can have Controller set to true",
			r->kind, name);
	if (!strcmp(r->name, "daemonsets")) {
		char why[DS_ERROR_PATH_MAX + DS_ERROR_MESSAGE_MAX + 8];
		json_t *d = ds_defaulted(obj, why, sizeof(why));
		if (!d)
			return status(out, 400, "BadRequest", r, name, "%s", why);
		json_object_clear(obj);
		json_object_update(obj, d);
		json_decref(d);
		int rc = ds_validate(r, obj, NULL, 0, out);
		if (rc)
			return rc;
		/* PrepareForCreate: no status, generation 1, the template generation */
		json_object_set_new(obj, "status", json_object());
		json_object_set_new(fake_meta(obj), "generation", json_integer(1));
		ensure_annotation(obj, "deprecated.daemonset.template.generation", "1");
	} else if (!strcmp(r->name, "pods")) {
		json_t *spec = json_object_get(obj, "spec");
		if (!json_is_object(spec) || !json_array_size(json_object_get(spec, "containers")))
			return status(out, 422, "Invalid", r, name,
				      "Pod \"%s\" is invalid: spec.containers: Required value", name);
		if (!json_object_get(spec, "terminationGracePeriodSeconds"))
			json_object_set_new(spec, "terminationGracePeriodSeconds", json_integer(30));
		if (!json_object_get(spec, "schedulerName"))
			json_object_set_new(spec, "schedulerName", json_string("default-scheduler"));
		if (!json_object_get(spec, "restartPolicy"))
			json_object_set_new(spec, "restartPolicy", json_string("Always"));
		json_object_set_new(obj, "status", json_pack("{s:s}", "phase", "Pending"));
	} else if (!strcmp(r->name, "controllerrevisions")) {
		if (!json_is_integer(json_object_get(obj, "revision")))
			json_object_set_new(obj, "revision", json_integer(0));
	} else if (!strcmp(r->name, "poddisruptionbudgets")) {
		json_object_set_new(fake_meta(obj), "generation", json_integer(1));
		json_object_set_new(obj, "status", json_object());
	}
	return 0;
}

/* Server-set metadata on create (the object's own are replaced). */
static void server_meta(fake_api *api, json_t *obj)
{
	json_t *meta = fake_meta(obj);
	new_uid(api, obj);
	char t[40];
	fake_time_text(api->now, t, sizeof(t));
	json_object_set_new(meta, "creationTimestamp", json_string(t));
	json_object_del(meta, "deletionTimestamp");
	json_object_del(meta, "deletionGracePeriodSeconds");
	json_object_del(meta, "selfLink");
}

/* ---- faults ---- */

typedef struct call {
	fault_ent *hit;
	const res_info *r;
} call;

static void count(fake_api *api, const char *op, const char *resource)
{
	char k[160];
	snprintf(k, sizeof(k), "%s %s", op, resource);
	const char *keys[] = {op, k, ""};
	for (int i = 0; i < 3; i++)
		json_object_set_new(api->calls, keys[i],
				    json_integer(json_integer_value(json_object_get(api->calls, keys[i])) + 1));
}

static int fault_answer(const fault_ent *f, const res_info *r, const char *name, char **out)
{
	int code = f->f.code;
	if (code <= 0) {
		if (out)
			*out = NULL;
		return code;
	}
	return status(out, code, NULL, r, name, "%s", f->message ? f->message : "injected fault");
}

/* The start of a call: 1 when it is answered already (*rc), 0 to go on. */
static int call_begin(fake_api *api, call *c, const char *op, const char *resource, const char *name, char **out,
		      int *rc)
{
	memset(c, 0, sizeof(*c));
	if (out)
		*out = NULL;
	count(api, op, resource ? resource : "");
	for (size_t i = 0; i < api->nfaults; i++) {
		fault_ent *f = &api->faults[i];
		if ((f->op && strcmp(f->op, op)) || (f->resource && (!resource || strcmp(f->resource, resource))))
			continue;
		f->seen++;
		if (!c->hit && f->seen > f->f.skip && (f->f.count < 0 || f->seen <= f->f.skip + f->f.count)) {
			c->hit = f;
			api->fault_hits++;
		}
	}
	if (c->hit && c->hit->f.delay_ms > 0)
		fake_advance(api, api->now + c->hit->f.delay_ms);
	c->r = fake_res(resource);
	if (!c->r) {
		*rc = status(out, 404, "NotFound", NULL, NULL, "the server could not find the requested resource");
		return 1;
	}
	if (c->hit && c->hit->f.code != 0 && !c->hit->f.executed) {
		*rc = fault_answer(c->hit, c->r, name, out);
		return 1;
	}
	return 0;
}

/* The fault wants the write done a second time. */
static int twice(const call *c) { return c->hit && c->hit->f.duplicate; }

static int call_end(call *c, int rc, const char *name, char **out)
{
	if (!c->hit || c->hit->f.code == 0)
		return rc;
	if (out) {
		free(*out);
		*out = NULL;
	}
	return fault_answer(c->hit, c->r, name, out);
}

void fake_add_fault(fake_api *api, const fake_fault *f)
{
	fault_ent *p = realloc(api->faults, (api->nfaults + 1) * sizeof(*p));
	if (!p)
		return;
	api->faults = p;
	fault_ent *e = &p[api->nfaults++];
	memset(e, 0, sizeof(*e));
	e->f = *f;
	e->op = f->op ? strdup(f->op) : NULL;
	e->resource = f->resource ? strdup(f->resource) : NULL;
	e->message = f->message ? strdup(f->message) : NULL;
	e->f.op = e->op;
	e->f.resource = e->resource;
	e->f.message = e->message;
}

void fake_add_event_fault(fake_api *api, const fake_event_fault *f)
{
	event_fault_ent *p = realloc(api->efaults, (api->nefaults + 1) * sizeof(*p));
	if (!p)
		return;
	api->efaults = p;
	event_fault_ent *e = &p[api->nefaults++];
	memset(e, 0, sizeof(*e));
	e->f = *f;
	e->resource = f->resource ? strdup(f->resource) : NULL;
	e->f.resource = e->resource;
}

void fake_clear_faults(fake_api *api)
{
	for (size_t i = 0; i < api->nfaults; i++) {
		free(api->faults[i].op);
		free(api->faults[i].resource);
		free(api->faults[i].message);
	}
	free(api->faults);
	api->faults = NULL;
	api->nfaults = 0;
	for (size_t i = 0; i < api->nefaults; i++)
		free(api->efaults[i].resource);
	free(api->efaults);
	api->efaults = NULL;
	api->nefaults = 0;
}

long fake_fault_hits(const fake_api *api) { return api->fault_hits; }

long fake_calls(const fake_api *api, const char *op, const char *resource)
{
	char k[160];
	if (op && resource)
		snprintf(k, sizeof(k), "%s %s", op, resource);
	else if (op)
		snprintf(k, sizeof(k), "%s", op);
	else if (resource) { /* any op on resource */
		long n = 0;
		const char *key;
		json_t *v;
		size_t rl = strlen(resource);
		json_object_foreach(api->calls, key, v)
		{
			const char *sp = strchr(key, ' ');
			if (sp && strlen(sp + 1) == rl && !strcmp(sp + 1, resource))
				n += (long)json_integer_value(v);
		}
		return n;
	} else
		k[0] = '\0';
	return (long)json_integer_value(json_object_get(api->calls, k));
}

/* ---- lists ---- */

static int selected(const fake_list_opts *o, const json_t *obj)
{
	if (!o)
		return 1;
	return (!o->label_selector || fake_labels_match(o->label_selector, obj, NULL, 0) == 1) &&
	       (!o->field_selector || fake_fields_match(o->field_selector, obj, NULL, 0) == 1);
}

static int check_selectors(const res_info *r, const char *label, const char *field, char **out)
{
	char why[512];
	json_t *empty = json_object();
	int bad = (label && fake_labels_match(label, empty, why, sizeof(why)) < 0) ||
		  (field && fake_fields_match(field, empty, why, sizeof(why)) < 0);
	json_decref(empty);
	return bad ? status(out, 400, "BadRequest", r, NULL, "%s", why) : 0;
}

/* The objects of r in ns matching o, in key order (new array). */
static json_t *matching(fake_api *api, const res_info *r, const char *ns, const fake_list_opts *o)
{
	json_t *items = json_array(), *b = fake_bucket(api, r);
	size_t n;
	const char **keys = sorted_keys(b, &n);
	for (size_t i = 0; i < n; i++) {
		json_t *obj = json_object_get(b, keys[i]);
		const char *ons = fake_meta_str(obj, "namespace");
		if (ns && *ns && r->namespaced && (!ons || strcmp(ons, ns)))
			continue;
		if (selected(o, obj))
			json_array_append(items, obj);
	}
	free(keys);
	return items;
}

static json_t *list_of(const res_info *r, const char *rv, json_t *items)
{
	char kind[96], gv[128];
	snprintf(kind, sizeof(kind), "%sList", r->kind);
	snprintf(gv, sizeof(gv), "%s%s%s", r->group, *r->group ? "/" : "", r->version);
	return json_pack("{s:s, s:s, s:{s:s}, s:o}", "kind", kind, "apiVersion", gv, "metadata", "resourceVersion", rv,
			 "items", items);
}

static int do_list(fake_api *api, const res_info *r, const char *ns, const fake_list_opts *o, char **out)
{
	int rc = check_selectors(r, o ? o->label_selector : NULL, o ? o->field_selector : NULL, out);
	if (rc)
		return rc;
	json_t *items, *page = NULL;
	char rv[32];
	size_t from = 0;
	if (o && o->continue_ && *o->continue_) { /* the same snapshot, further on */
		page = json_object_get(api->pages, o->continue_);
		unsigned long long at = page ? strtoull(json_string_value(json_object_get(page, "rv")), NULL, 10) : 0;
		if (!page || at < api->compacted)
			return status(
				out, 410, "Expired", NULL, NULL,
				"The provided continue parameter is too old to display a consistent list result. You "
				"can "
				"start a new list without the continue parameter, or use the continue token in this "
				"response to retrieve the remainder of the results. Continuing with the provided token "
				"results in an inconsistent list - objects that were created, modified, or deleted "
				"between the time the first chunk was returned and now may show up in the list.");
		items = json_incref(json_object_get(page, "items"));
		from = (size_t)json_integer_value(json_object_get(page, "from"));
		snprintf(rv, sizeof(rv), "%s", json_string_value(json_object_get(page, "rv")));
	} else {
		items = matching(api, r, ns, o);
		snprintf(rv, sizeof(rv), "%llu", api->rv);
	}
	size_t total = json_array_size(items), upto = total;
	if (o && o->limit > 0 && from + (size_t)o->limit < total)
		upto = from + (size_t)o->limit;
	json_t *sel = json_array();
	for (size_t i = from; i < upto; i++)
		json_array_append(sel, json_array_get(items, i));
	json_t *list = list_of(r, rv, sel);
	if (upto < total) {
		char token[64];
		snprintf(token, sizeof(token), "fake-continue-%llu-%zu-%zu", api->rv, upto,
			 json_object_size(api->pages));
		json_object_set_new(api->pages, token,
				    json_pack("{s:s, s:O, s:I}", "rv", rv, "items", items, "from", (json_int_t)upto));
		json_t *meta = json_object_get(list, "metadata");
		json_object_set_new(meta, "continue", json_string(token));
		json_object_set_new(meta, "remainingItemCount", json_integer((json_int_t)(total - upto)));
	}
	json_decref(items);
	rc = answer(out, 200, list);
	json_decref(list);
	return rc;
}

int fake_list(fake_api *api, const char *resource, const char *ns, const fake_list_opts *o, char **out)
{
	call c;
	int rc;
	if (call_begin(api, &c, "list", resource, NULL, out, &rc))
		return rc;
	return call_end(&c, do_list(api, c.r, ns, o, out), NULL, out);
}

int fake_get(fake_api *api, const char *resource, const char *ns, const char *name, char **out)
{
	call c;
	int rc;
	if (call_begin(api, &c, "get", resource, name, out, &rc))
		return rc;
	const json_t *obj = fake_object(api, resource, ns, name);
	rc = obj ? answer(out, 200, obj) : not_found(out, c.r, name);
	return call_end(&c, rc, name, out);
}

/* ---- create ---- */

static json_t *parse_object(const char *body) { return body ? json_loads(body, 0, NULL) : NULL; }

static int do_create(fake_api *api, const res_info *r, const char *ns, json_t *obj, char **out)
{
	json_t *meta = fake_meta(obj);
	const char *bns = fake_meta_str(obj, "namespace");
	if (r->namespaced && bns && *bns && ns && strcmp(bns, ns))
		return status(out, 400, "BadRequest", NULL, NULL,
			      "the namespace of the provided object does not match the namespace sent on the request");
	if (r->namespaced && (!ns || !*ns))
		ns = bns && *bns ? bns : "default";
	const char *rv = fake_meta_str(obj, "resourceVersion");
	if (rv && *rv)
		return status(out, 500, "InternalError", NULL, NULL,
			      "resourceVersion should not be set on objects to be created");
	const char *name = fake_meta_str(obj, "name"), *gen = fake_meta_str(obj, "generateName");
	char key[600], buf[300];
	if ((!name || !*name) && gen && *gen) {
		do {
			size_t n = (size_t)snprintf(buf, sizeof(buf) - 6, "%.*s", 58, gen);
			for (int i = 0; i < 5; i++) {
				api->rand = api->rand * 1103515245u + 12345u;
				buf[n + (size_t)i] = alphabet[(api->rand >> 16) % (sizeof(alphabet) - 1)];
			}
			buf[n + 5] = '\0';
			fake_key(r, ns, buf, key, sizeof(key));
		} while (json_object_get(fake_bucket(api, r), key));
		json_object_set_new(meta, "name", json_string(buf));
	}
	name = fake_meta_str(obj, "name");
	if (!name || !*name)
		return status(out, 422, "Invalid", r, "",
			      "%s \"\" is invalid: metadata.name: Required value: name or generateName is required",
			      r->kind);
	fake_key(r, ns, name, key, sizeof(key));
	if (json_object_get(fake_bucket(api, r), key))
		return status(out, 409, "AlreadyExists", r, name, "%s \"%s\" already exists", r->qualified, name);
	if (r->namespaced) {
		const json_t *nso = fake_object(api, "namespaces", NULL, ns);
		if (nso && fake_meta_str(nso, "deletionTimestamp"))
			return status(out, 403, "Forbidden", r, name,
				      "%s \"%s\" is forbidden: unable to create new content in namespace %s because it "
				      "is being terminated",
				      r->qualified, name, ns);
	}
	int rc = prepare_create(r, obj, ns, out);
	if (rc)
		return rc;
	server_meta(api, obj);
	if (r->namespaced)
		ensure_namespace(api, ns);
	if (!strcmp(r->name, "pods") && fake_pod_node(obj) &&
	    json_string_value(json_object_get(json_object_get(obj, "spec"), "nodeName")))
		json_object_set_new(api->bound, fake_meta_str(obj, "uid"), json_integer(api->now));
	fake_put(api, r, key, json_incref(obj), 'A');
	return answer(out, 201, obj);
}

int fake_create(fake_api *api, const char *resource, const char *ns, const char *body, char **out)
{
	call c;
	int rc;
	json_t *obj = parse_object(body);
	const char *name = fake_meta_str(obj, "name");
	if (call_begin(api, &c, "create", resource, name, out, &rc)) {
		json_decref(obj);
		return rc;
	}
	if (!json_is_object(obj))
		rc = status(out, 400, "BadRequest", NULL, NULL,
			    "the body of the request was in an unknown format - accepted media types include: "
			    "application/json, application/yaml");
	else
		rc = do_create(api, c.r, ns, obj, out);
	if (twice(&c)) {
		json_t *again = parse_object(body);
		char *o2 = NULL;
		do_create(api, c.r, ns, again, &o2);
		free(o2);
		json_decref(again);
	}
	rc = call_end(&c, rc, name, out);
	json_decref(obj);
	return rc;
}

/* ---- update and patch ---- */

static int has_status_subresource(const res_info *r) { return strstr(r->subresources, "status") != NULL; }

/* ValidatePodUpdate's rule: only images, activeDeadlineSeconds, added tolerations and
 * terminationGracePeriodSeconds may change in a pod's spec. 1 when in and old differ elsewhere. */
static int pod_spec_forbidden(const json_t *old_spec, const json_t *new_spec)
{
	json_t *a = json_deep_copy(old_spec), *b = json_deep_copy(new_spec);
	static const char *const lists[] = {"containers", "initContainers", "ephemeralContainers"};
	for (int k = 0; k < 3; k++) {
		json_t *la = json_object_get(a, lists[k]), *lb = json_object_get(b, lists[k]);
		for (size_t i = 0; i < json_array_size(la) && i < json_array_size(lb); i++) {
			json_object_del(json_array_get(la, i), "image");
			json_object_del(json_array_get(lb, i), "image");
		}
	}
	static const char *const free_fields[] = {"activeDeadlineSeconds", "tolerations",
						  "terminationGracePeriodSeconds"};
	for (int k = 0; k < 3; k++) {
		json_object_del(a, free_fields[k]);
		json_object_del(b, free_fields[k]);
	}
	int forbidden = !json_equal(a, b);
	json_decref(a);
	json_decref(b);
	return forbidden;
}

/* The registry's PrepareForUpdate and validation: what the stored object becomes when in
 * is written over cur (subresource "status" or the object). NULL with the answer given. */
static json_t *prepare_update(fake_api *api, const res_info *r, const json_t *cur, const json_t *in, int status_only,
			      char **out, int *rc)
{
	(void)api;
	const char *name = fake_meta_str(cur, "name");
	json_t *obj;
	if (status_only) {
		obj = json_deep_copy(cur);
		json_t *st = json_object_get(in, "status");
		json_object_set_new(obj, "status", st ? json_deep_copy(st) : json_object());
	} else {
		obj = json_deep_copy(in);
		json_t *meta = fake_meta(obj);
		const json_t *cmeta = json_object_get(cur, "metadata");
		static const char *const kept[] = {
			"uid",  "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "namespace",
			"name", "generation"};
		for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
			json_t *v = json_object_get(cmeta, kept[i]);
			if (v)
				json_object_set(meta, kept[i], v);
			else
				json_object_del(meta, kept[i]);
		}
		json_object_set(obj, "kind", json_object_get(cur, "kind"));
		json_object_set(obj, "apiVersion", json_object_get(cur, "apiVersion"));
		if (has_status_subresource(r)) {
			json_t *st = json_object_get(cur, "status");
			if (st)
				json_object_set(obj, "status", st);
			else
				json_object_del(obj, "status");
		}
		/* a deleting object's finalizers may only go */
	}
	if (!owner_refs_ok(obj)) {
		json_decref(obj);
		*rc = status(out, 422, "Invalid", r, name,
			     "%s \"%s\" is invalid: metadata.ownerReferences: Invalid value: []v1.OwnerReference{...}: "
			     "Only one reference can have Controller set to true",
			     r->kind, name);
		return NULL;
	}
	if (!strcmp(r->name, "daemonsets")) {
		if (!status_only) {
			char why[DS_ERROR_PATH_MAX + DS_ERROR_MESSAGE_MAX + 8];
			json_t *d = ds_defaulted(obj, why, sizeof(why));
			json_decref(obj);
			if (!d) {
				*rc = status(out, 400, "BadRequest", r, name, "%s", why);
				return NULL;
			}
			obj = d;
		}
		if ((*rc = ds_validate(r, obj, cur, status_only, out))) {
			json_decref(obj);
			return NULL;
		}
		const json_t *os = json_object_get(cur, "spec"), *ns = json_object_get(obj, "spec");
		if (!status_only && !json_equal(os, ns)) { /* PrepareForUpdate: generation follows the spec */
			json_int_t g =
				json_integer_value(json_object_get(json_object_get(cur, "metadata"), "generation"));
			json_object_set_new(fake_meta(obj), "generation", json_integer(g + 1));
			if (!json_equal(json_object_get(os, "template"), json_object_get(ns, "template"))) {
				const char *tg = json_string_value(json_object_get(
					json_object_get(json_object_get(cur, "metadata"), "annotations"),
					"deprecated.daemonset.template.generation"));
				char buf[32];
				snprintf(buf, sizeof(buf), "%lld", (tg ? atoll(tg) : 0) + 1);
				json_t *ann = json_object_get(fake_meta(obj), "annotations");
				if (!json_is_object(ann)) {
					ann = json_object();
					json_object_set_new(fake_meta(obj), "annotations", ann);
				}
				json_object_set_new(ann, "deprecated.daemonset.template.generation", json_string(buf));
			}
		}
	} else if (!strcmp(r->name, "pods") && !status_only &&
		   pod_spec_forbidden(json_object_get(cur, "spec"), json_object_get(obj, "spec"))) {
		json_decref(obj);
		*rc = status(out, 422, "Invalid", r, name,
			     "Pod \"%s\" is invalid: spec: Forbidden: pod updates may not change fields other than "
			     "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
			     "`spec.tolerations` (only additions to existing tolerations),"
			     "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously "
			     "negative)",
			     name);
		return NULL;
	} else if (!strcmp(r->name, "controllerrevisions") &&
		   !json_equal(json_object_get(cur, "data"), json_object_get(obj, "data"))) {
		json_decref(obj);
		*rc = status(out, 422, "Invalid", r, name,
			     "ControllerRevision.apps \"%s\" is invalid: data: Invalid value: \"\": field is immutable",
			     name);
		return NULL;
	} else if (!strcmp(r->name, "poddisruptionbudgets") && !status_only &&
		   !json_equal(json_object_get(cur, "spec"), json_object_get(obj, "spec"))) {
		json_int_t g = json_integer_value(json_object_get(json_object_get(cur, "metadata"), "generation"));
		json_object_set_new(fake_meta(obj), "generation", json_integer(g + 1));
	}
	return obj;
}

/* The write of in over the stored object at key: preconditions, preparation, no-op
 * detection, and the end of a deletion whose finalizers are gone. */
static int write_over(fake_api *api, const res_info *r, const char *key, const char *name, const json_t *in,
		      int status_only, int allow_unconditional, char **out)
{
	const json_t *cur = json_object_get(fake_bucket(api, r), key);
	if (!cur)
		return not_found(out, r, name);
	const char *rv = fake_meta_str(in, "resourceVersion"), *uid = fake_meta_str(in, "uid");
	if ((!rv || !*rv) && !allow_unconditional)
		return status(
			out, 422, "Invalid", r, name,
			"%s \"%s\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for "
			"an update",
			r->kind, name);
	if (uid && *uid && strcmp(uid, fake_meta_str(cur, "uid")))
		return conflict_uid(out, r, name, uid, fake_meta_str(cur, "uid"));
	if (rv && *rv && strcmp(rv, fake_meta_str(cur, "resourceVersion")))
		return conflict_modified(out, r, name);
	int rc = 0;
	json_t *obj = prepare_update(api, r, cur, in, status_only, out, &rc);
	if (!obj)
		return rc;
	json_object_set(fake_meta(obj), "resourceVersion",
			json_object_get(json_object_get(cur, "metadata"), "resourceVersion"));
	if (json_equal(obj, cur)) { /* nothing changed: no write, no event, the same resourceVersion */
		rc = answer(out, 200, cur);
		json_decref(obj);
		return rc;
	}
	const json_t *meta = json_object_get(obj, "metadata");
	if (fake_meta_str(obj, "deletionTimestamp") && !json_array_size(json_object_get(meta, "finalizers")) &&
	    json_integer_value(json_object_get(meta, "deletionGracePeriodSeconds")) == 0) {
		/* the last finalizer went from an object whose grace period is over: it goes */
		fake_put(api, r, key, json_incref(obj), 'M');
		fake_remove(api, r, key);
		rc = answer(out, 200, obj);
		json_decref(obj);
		return rc;
	}
	fake_put(api, r, key, json_incref(obj), 'M');
	rc = answer(out, 200, obj);
	json_decref(obj);
	return rc;
}

static int do_update(fake_api *api, const res_info *r, const char *ns, const char *name, int status_only,
		     const char *body, char **out)
{
	json_t *in = parse_object(body);
	if (!json_is_object(in)) {
		json_decref(in);
		return status(out, 400, "BadRequest", NULL, NULL,
			      "the body of the request was in an unknown format - accepted media types include: "
			      "application/json, application/yaml");
	}
	const char *bname = fake_meta_str(in, "name");
	int rc;
	if (bname && strcmp(bname, name))
		rc = status(out, 400, "BadRequest", r, name,
			    "the name of the object (%s) does not match the name on the URL (%s)", bname, name);
	else {
		char key[600];
		fake_key(r, ns, name, key, sizeof(key));
		rc = write_over(api, r, key, name, in, status_only, 1, out);
	}
	json_decref(in);
	return rc;
}

int fake_update(fake_api *api, const char *resource, const char *ns, const char *name, const char *subresource,
		const char *body, char **out)
{
	int status_only = subresource && !strcmp(subresource, "status");
	call c;
	int rc;
	if (call_begin(api, &c, status_only ? "updateStatus" : "update", resource, name, out, &rc))
		return rc;
	if (subresource && !status_only)
		rc = status(out, 404, "NotFound", NULL, NULL, "the server could not find the requested resource");
	else
		rc = do_update(api, c.r, ns, name, status_only, body, out);
	if (twice(&c)) {
		char *o2 = NULL;
		do_update(api, c.r, ns, name, status_only, body, &o2);
		free(o2);
	}
	return call_end(&c, rc, name, out);
}

static int do_patch(fake_api *api, const res_info *r, const char *ns, const char *name, int status_only,
		    const char *type, const char *body, char **out)
{
	char key[600], why[512] = "";
	fake_key(r, ns, name, key, sizeof(key));
	const json_t *cur = json_object_get(fake_bucket(api, r), key);
	if (!cur)
		return not_found(out, r, name);
	json_t *patch = body ? json_loads(body, 0, NULL) : NULL;
	if (!patch)
		return status(out, 400, "BadRequest", NULL, NULL, "error decoding patch: invalid JSON");
	json_t *in = NULL;
	const char *t = type ? type : "";
	if (!strncmp(t, "application/merge-patch+json", 28))
		in = json_is_object(patch) ? fake_merge_patch(cur, patch) : NULL;
	else if (!strncmp(t, "application/strategic-merge-patch+json", 38))
		in = json_is_object(patch) ? fake_strategic_patch(cur, patch, why, sizeof(why)) : NULL;
	else if (!strncmp(t, "application/json-patch+json", 27))
		in = json_is_array(patch) ? fake_json_patch(cur, patch, why, sizeof(why)) : NULL;
	else {
		json_decref(patch);
		return status(out, 415, "UnsupportedMediaType", NULL, NULL,
			      "the body of the request was in an unknown format - accepted media types include: "
			      "application/json-patch+json, application/merge-patch+json, "
			      "application/strategic-merge-patch+json, application/apply-patch+yaml");
	}
	json_decref(patch);
	if (!json_is_object(in)) {
		json_decref(in);
		return status(out, why[0] ? 422 : 400, NULL, r, name, "%s", why[0] ? why : "the patch is not valid");
	}
	/* a patch names its object: uid and resourceVersion in it are preconditions */
	int rc = write_over(api, r, key, name, in, status_only, 1, out);
	json_decref(in);
	return rc;
}

int fake_patch(fake_api *api, const char *resource, const char *ns, const char *name, const char *subresource,
	       const char *patch_type, const char *body, char **out)
{
	int status_only = subresource && !strcmp(subresource, "status");
	call c;
	int rc;
	if (call_begin(api, &c, status_only ? "patchStatus" : "patch", resource, name, out, &rc))
		return rc;
	if (subresource && !status_only)
		rc = status(out, 404, "NotFound", NULL, NULL, "the server could not find the requested resource");
	else
		rc = do_patch(api, c.r, ns, name, status_only, patch_type, body, out);
	if (twice(&c)) {
		char *o2 = NULL;
		do_patch(api, c.r, ns, name, status_only, patch_type, body, &o2);
		free(o2);
	}
	return call_end(&c, rc, name, out);
}

/* ---- delete ---- */

static int is_terminal(const json_t *pod)
{
	const char *ph = json_string_value(json_object_get(json_object_get(pod, "status"), "phase"));
	return ph && (!strcmp(ph, "Succeeded") || !strcmp(ph, "Failed"));
}

static void add_finalizer(json_t *obj, const char *f)
{
	json_t *meta = fake_meta(obj), *fs = json_object_get(meta, "finalizers");
	if (!json_is_array(fs)) {
		fs = json_array();
		json_object_set_new(meta, "finalizers", fs);
	}
	for (size_t i = 0; i < json_array_size(fs); i++)
		if (!strcmp(json_string_value(json_array_get(fs, i)), f))
			return;
	json_array_append_new(fs, json_string(f));
}

int fake_delete_obj(fake_api *api, const res_info *r, const char *key, const json_t *options, char **out)
{
	const json_t *cur = json_object_get(fake_bucket(api, r), key);
	const char *slash = strchr(key, '/');
	const char *name = r->namespaced && slash ? slash + 1 : key;
	if (!cur)
		return not_found(out, r, name);
	const json_t *pre = json_object_get(options, "preconditions");
	const char *puid = json_string_value(json_object_get(pre, "uid"));
	const char *prv = json_string_value(json_object_get(pre, "resourceVersion"));
	if (puid && strcmp(puid, fake_meta_str(cur, "uid")))
		return conflict_uid(out, r, name, puid, fake_meta_str(cur, "uid"));
	if (prv && strcmp(prv, fake_meta_str(cur, "resourceVersion")))
		return status(out, 409, "Conflict", r, name,
			      "Operation cannot be fulfilled on %s \"%s\": Precondition failed: ResourceVersion in "
			      "precondition: %s, ResourceVersion in object meta: %s",
			      r->qualified, name, prv, fake_meta_str(cur, "resourceVersion"));
	if (!strcmp(r->name, "namespaces")) { /* Terminating: the namespace controller empties it, then it goes */
		if (fake_meta_str(cur, "deletionTimestamp"))
			return answer(out, 200, cur);
		json_t *ns = json_deep_copy(cur);
		char t[40];
		fake_time_text(api->now, t, sizeof(t));
		json_object_set_new(fake_meta(ns), "deletionTimestamp", json_string(t));
		json_object_set_new(fake_meta(ns), "deletionGracePeriodSeconds", json_integer(0));
		json_object_set_new(ns, "status", json_pack("{s:s}", "phase", "Terminating"));
		fake_put(api, r, key, json_incref(ns), 'M');
		int rc = answer(out, 200, ns);
		json_decref(ns);
		return rc;
	}
	/* CheckGracefulDelete (pod strategy): the options' period, else the spec's; none when
	 * unscheduled or terminal. Other kinds go at once. */
	json_int_t grace = 0;
	const json_t *og = json_object_get(options, "gracePeriodSeconds");
	if (!strcmp(r->name, "pods")) {
		grace = og ? json_integer_value(og)
			   : json_integer_value(
				     json_object_get(json_object_get(cur, "spec"), "terminationGracePeriodSeconds"));
		if (!json_string_value(json_object_get(json_object_get(cur, "spec"), "nodeName")) || is_terminal(cur))
			grace = 0;
	}
	const char *policy = json_string_value(json_object_get(options, "propagationPolicy"));
	const json_t *orphan = json_object_get(options, "orphanDependents");
	if (!policy && json_is_boolean(orphan))
		policy = json_is_true(orphan) ? "Orphan" : "Background";
	json_t *obj = json_deep_copy(cur);
	json_t *meta = fake_meta(obj);
	if (policy && !strcmp(policy, "Orphan"))
		add_finalizer(obj, "orphan");
	else if (policy && !strcmp(policy, "Foreground"))
		add_finalizer(obj, "foregroundDeletion");
	int finalizers = json_array_size(json_object_get(meta, "finalizers")) > 0;
	const char *deleting = fake_meta_str(cur, "deletionTimestamp");
	if (deleting) { /* already going: a shorter grace period only */
		json_int_t left = json_integer_value(json_object_get(meta, "deletionGracePeriodSeconds"));
		if (grace < left) {
			char t[40];
			fake_time_text(api->now + grace * 1000, t, sizeof(t));
			json_object_set_new(meta, "deletionTimestamp", json_string(t));
			json_object_set_new(meta, "deletionGracePeriodSeconds", json_integer(grace));
		}
		if (!finalizers && json_integer_value(json_object_get(meta, "deletionGracePeriodSeconds")) == 0) {
			fake_remove(api, r, key);
			int rc = answer(out, 200, obj);
			json_decref(obj);
			return rc;
		}
		if (json_equal(obj, cur)) {
			json_decref(obj);
			return answer(out, 200, cur);
		}
		fake_put(api, r, key, json_incref(obj), 'M');
		int rc = answer(out, 200, obj);
		json_decref(obj);
		return rc;
	}
	if (grace == 0 && !finalizers) {
		fake_remove(api, r, key);
		int rc = answer(out, 200, obj);
		json_decref(obj);
		return rc;
	}
	char t[40];
	fake_time_text(api->now + grace * 1000, t, sizeof(t));
	json_object_set_new(meta, "deletionTimestamp", json_string(t));
	json_object_set_new(meta, "deletionGracePeriodSeconds", json_integer(grace));
	json_t *gen = json_object_get(meta, "generation");
	if (json_integer_value(gen) > 0)
		json_object_set_new(meta, "generation", json_integer(json_integer_value(gen) + 1));
	fake_put(api, r, key, json_incref(obj), 'M');
	int rc = answer(out, 200, obj);
	json_decref(obj);
	return rc;
}

int fake_delete(fake_api *api, const char *resource, const char *ns, const char *name, const char *options, char **out)
{
	call c;
	int rc;
	if (call_begin(api, &c, "delete", resource, name, out, &rc))
		return rc;
	json_t *opts = options && *options ? json_loads(options, 0, NULL) : NULL;
	if (options && *options && !json_is_object(opts))
		rc = status(out, 400, "BadRequest", NULL, NULL, "the DeleteOptions are not a JSON object");
	else {
		char key[600];
		fake_key(c.r, ns, name, key, sizeof(key));
		rc = fake_delete_obj(api, c.r, key, opts, out);
		if (twice(&c)) {
			char *o2 = NULL;
			fake_delete_obj(api, c.r, key, opts, &o2);
			free(o2);
		}
	}
	json_decref(opts);
	return call_end(&c, rc, name, out);
}

int fake_delete_collection(fake_api *api, const char *resource, const char *ns, const fake_list_opts *sel,
			   const char *options, char **out)
{
	call c;
	int rc;
	if (call_begin(api, &c, "deleteCollection", resource, NULL, out, &rc))
		return rc;
	if ((rc = check_selectors(c.r, sel ? sel->label_selector : NULL, sel ? sel->field_selector : NULL, out)))
		return call_end(&c, rc, NULL, out);
	json_t *opts = options && *options ? json_loads(options, 0, NULL) : NULL;
	json_t *items = matching(api, c.r, ns, sel), *gone = json_array();
	size_t i;
	json_t *obj;
	json_array_foreach(items, i, obj)
	{
		char key[600];
		fake_key(c.r, fake_meta_str(obj, "namespace"), fake_meta_str(obj, "name"), key, sizeof(key));
		char *one = NULL;
		if (fake_delete_obj(api, c.r, key, opts, &one) == 200)
			json_array_append_new(gone, json_loads(one, 0, NULL));
		free(one);
	}
	char rv[32];
	snprintf(rv, sizeof(rv), "%llu", api->rv);
	json_t *list = list_of(c.r, rv, gone);
	rc = answer(out, 200, list);
	json_decref(list);
	json_decref(items);
	json_decref(opts);
	return call_end(&c, rc, NULL, out);
}

/* ---- eviction (pkg/registry/core/pod/storage/eviction.go) ---- */

static int do_evict(fake_api *api, const res_info *r, const char *ns, const char *name, json_t *ev, char **out)
{
	char key[600];
	fake_key(r, ns, name, key, sizeof(key));
	const json_t *pod = json_object_get(fake_bucket(api, r), key);
	if (!pod)
		return not_found(out, r, name);
	const json_t *dopts = json_object_get(ev, "deleteOptions");
	static const char ok[] = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\","
				 "\"code\":201}";
	/* canIgnorePDB: a terminal, pending or deleting pod goes without asking its budget */
	const char *phase = json_string_value(json_object_get(json_object_get(pod, "status"), "phase"));
	if (is_terminal(pod) || (phase && !strcmp(phase, "Pending")) || fake_meta_str(pod, "deletionTimestamp")) {
		char *del = NULL;
		int rc = fake_delete_obj(api, r, key, dopts, &del);
		if (rc != 200) {
			if (out)
				*out = del;
			else
				free(del);
			return rc;
		}
		free(del);
		if (out)
			*out = strdup(ok);
		return 201;
	}
	json_t *pdbs = fake_pdbs_for(api, pod);
	if (json_array_size(pdbs) > 1) {
		json_decref(pdbs);
		return status(out, 500, "InternalError", r, name,
			      "This pod has more than one PodDisruptionBudget, which the eviction subresource does not "
			      "support.");
	}
	json_t *pdb = json_array_get(pdbs, 0);
	if (pdb) {
		json_t *st = fake_pdb_status(api, pdb);
		json_int_t allowed = json_integer_value(json_object_get(st, "disruptionsAllowed"));
		json_int_t want = json_integer_value(json_object_get(st, "desiredHealthy"));
		json_int_t have = json_integer_value(json_object_get(st, "currentHealthy"));
		const char *pname = fake_meta_str(pdb, "name");
		if (allowed <= 0) {
			char cause[512];
			snprintf(cause, sizeof(cause),
				 "The disruption budget %s needs %lld healthy pods and has %lld currently", pname,
				 (long long)want, (long long)have);
			status(out, 429, "TooManyRequests", r, name,
			       "Cannot evict pod as it would violate the pod's disruption budget.");
			if (out && *out) {
				json_t *s = json_loads(*out, 0, NULL);
				json_object_set_new(
					json_object_get(s, "details"), "causes",
					json_pack("[{s:s, s:s}]", "reason", "DisruptionBudget", "message", cause));
				free(*out);
				*out = dump(s);
				json_decref(s);
			}
			json_decref(st);
			json_decref(pdbs);
			return 429;
		}
		/* the budget's status records the disruption before the pod goes */
		char pkey[600], t[40];
		fake_key(fake_res("poddisruptionbudgets"), ns, pname, pkey, sizeof(pkey));
		json_t *np = json_deep_copy(pdb);
		json_object_set_new(st, "disruptionsAllowed", json_integer(allowed - 1));
		fake_time_text(api->now, t, sizeof(t));
		json_t *dp = json_object_get(st, "disruptedPods");
		if (!json_is_object(dp)) {
			dp = json_object();
			json_object_set_new(st, "disruptedPods", dp);
		}
		json_object_set_new(dp, name, json_string(t));
		json_object_set(np, "status", st);
		json_decref(st);
		fake_put(api, fake_res("poddisruptionbudgets"), pkey, np, 'M');
	}
	json_decref(pdbs);
	char *del = NULL;
	int rc = fake_delete_obj(api, r, key, dopts, &del);
	free(del);
	if (rc != 200)
		return not_found(out, r, name);
	if (out)
		*out = strdup(ok);
	return 201;
}

int fake_evict(fake_api *api, const char *ns, const char *name, const char *body, char **out)
{
	call c;
	int rc;
	if (call_begin(api, &c, "evict", "pods", name, out, &rc))
		return rc;
	json_t *ev = body && *body ? json_loads(body, 0, NULL) : json_object();
	if (!json_is_object(ev))
		rc = status(out, 400, "BadRequest", NULL, NULL, "the Eviction is not a JSON object");
	else
		rc = do_evict(api, c.r, ns, name, ev, out);
	if (twice(&c)) {
		char *o2 = NULL;
		do_evict(api, c.r, ns, name, ev, &o2);
		free(o2);
	}
	json_decref(ev);
	return call_end(&c, rc, name, out);
}

/* ---- watches ---- */

static void wbuf_add(fake_watch *w, const char *p, size_t n)
{
	if (w->len + n + 1 > w->cap) {
		size_t cap = (w->cap ? w->cap * 2 : 4096) + n + 1;
		char *b = realloc(w->buf, cap);
		if (!b)
			return;
		w->buf = b;
		w->cap = cap;
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
	w->buf[w->len] = '\0';
}

static void wsend(fake_watch *w, char *line, ds_time due)
{
	if (!line)
		return;
	if (due <= w->api->now && !w->nheld) {
		wbuf_add(w, line, strlen(line));
		wbuf_add(w, "\n", 1);
		free(line);
		return;
	}
	if (w->nheld == w->capheld) {
		size_t cap = w->capheld ? w->capheld * 2 : 8;
		held_line *h = realloc(w->held, cap * sizeof(*h));
		if (!h) {
			free(line);
			return;
		}
		w->held = h;
		w->capheld = cap;
	}
	w->held[w->nheld].due = due;
	w->held[w->nheld++].line = line;
}

static char *event_line(const char *type, const json_t *obj)
{
	json_t *ev = json_pack("{s:s, s:O}", "type", type, "object", obj);
	char *s = dump(ev);
	json_decref(ev);
	return s;
}

static void send_expired(fake_watch *w, unsigned long long rv)
{
	char msg[128];
	snprintf(msg, sizeof(msg), "too old resource version: %llu (%llu)", rv, w->api->compacted + 1);
	json_t *st = json_pack("{s:s, s:s, s:{}, s:s, s:s, s:s, s:i}", "kind", "Status", "apiVersion", "v1", "metadata",
			       "status", "Failure", "message", msg, "reason", "Expired", "code", 410);
	wsend(w, event_line("ERROR", st), w->api->now);
	json_decref(st);
	w->ended = 1;
}

static int in_scope(const fake_watch *w, const json_t *obj)
{
	if (!obj)
		return 0;
	const char *ons = fake_meta_str(obj, "namespace");
	if (w->ns && w->r->namespaced && (!ons || strcmp(ons, w->ns)))
		return 0;
	return (!w->label_sel || fake_labels_match(w->label_sel, obj, NULL, 0) == 1) &&
	       (!w->field_sel || fake_fields_match(w->field_sel, obj, NULL, 0) == 1);
}

/* One event through the watch-event faults onto the stream. 0, or -1 when the stream ended. */
static int deliver(fake_watch *w, const char *type, const json_t *obj)
{
	fake_api *api = w->api;
	event_fault_ent *hit = NULL;
	for (size_t i = 0; i < api->nefaults; i++) {
		event_fault_ent *f = &api->efaults[i];
		if (f->resource && strcmp(f->resource, w->r->name))
			continue;
		f->seen++;
		if (!hit && f->seen > f->f.skip && (f->f.count < 0 || f->seen <= f->f.skip + f->f.count)) {
			hit = f;
			api->fault_hits++;
		}
	}
	int kind = hit ? hit->f.kind : -1;
	ds_time due = api->now + (kind == FAKE_EVENT_DELAY ? hit->f.delay_ms : 0);
	switch (kind) {
	case FAKE_EVENT_DROP: return 0;
	case FAKE_EVENT_CLOSE: w->ended = 1; return -1;
	case FAKE_EVENT_EXPIRE: send_expired(w, w->cursor); return -1;
	case FAKE_EVENT_DUPLICATE: wsend(w, event_line(type, obj), due); /* fall through */
	default: wsend(w, event_line(type, obj), due); return 0;
	}
}

/* The index in the ring of the first event with an rv above after. */
static size_t first_after(const fake_api *api, unsigned long long after)
{
	size_t lo = 0, hi = api->log_len;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (api->log[(api->log_start + mid) % api->o.watch_window].rv <= after)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void send_bookmark(fake_watch *w, int initial_end)
{
	char rv[32], gv[128];
	snprintf(rv, sizeof(rv), "%llu", w->api->rv);
	snprintf(gv, sizeof(gv), "%s%s%s", w->r->group, *w->r->group ? "/" : "", w->r->version);
	json_t *o = json_pack("{s:s, s:s, s:{s:s}}", "kind", w->r->kind, "apiVersion", gv, "metadata",
			      "resourceVersion", rv);
	if (initial_end)
		json_object_set_new(json_object_get(o, "metadata"), "annotations",
				    json_pack("{s:s}", "k8s.io/initial-events-end", "true"));
	wsend(w, event_line("BOOKMARK", o), w->api->now);
	json_decref(o);
	w->last_bookmark = w->api->now;
}

/* Everything that happened since the stream last looked, onto it. */
static void pump(fake_watch *w)
{
	fake_api *api = w->api;
	if (w->ended)
		return;
	if (w->cursor < api->compacted) { /* it fell behind what is kept */
		send_expired(w, w->cursor);
		return;
	}
	for (size_t i = first_after(api, w->cursor); i < api->log_len && !w->ended; i++) {
		const logent *e = &api->log[(api->log_start + i) % api->o.watch_window];
		w->cursor = e->rv;
		if (e->r != w->r)
			continue;
		int was = e->type != 'A' && in_scope(w, e->old), is = e->type != 'D' && in_scope(w, e->obj);
		if (was && is)
			deliver(w, "MODIFIED", e->obj);
		else if (is)
			deliver(w, "ADDED", e->obj);
		else if (was) { /* deleted, or moved out of the selection: the last state seen, at this rv */
			json_t *o = json_deep_copy(e->type == 'D' ? e->obj : e->old);
			char rv[32];
			snprintf(rv, sizeof(rv), "%llu", e->rv);
			json_object_set_new(fake_meta(o), "resourceVersion", json_string(rv));
			deliver(w, "DELETED", o);
			json_decref(o);
		}
	}
	if (!w->ended)
		w->cursor = api->rv;
	if (!w->ended && w->bookmarks && api->now - w->last_bookmark >= api->o.bookmark_every_ms)
		send_bookmark(w, 0);
	if (!w->ended && w->deadline && api->now >= w->deadline)
		w->ended = 1;
}

fake_watch *fake_watch_open(fake_api *api, const char *resource, const char *ns, const char *rv,
			    const fake_watch_opts *o, int *code, char **out)
{
	call c;
	int rc;
	if (code)
		*code = 200;
	if (call_begin(api, &c, "watch", resource, NULL, out, &rc) ||
	    (rc = check_selectors(c.r, o ? o->label_selector : NULL, o ? o->field_selector : NULL, out))) {
		if (code)
			*code = rc;
		return NULL;
	}
	char *end = NULL;
	unsigned long long from = rv && *rv ? strtoull(rv, &end, 10) : 0;
	if (rv && *rv && (!end || *end)) {
		rc = status(out, 400, "BadRequest", NULL, NULL,
			    "resourceVersion: Invalid value: \"%s\": must be an integer", rv);
		if (code)
			*code = rc;
		return NULL;
	}
	fake_watch *w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->api = api;
	w->r = c.r;
	w->ns = ns && *ns ? strdup(ns) : NULL;
	w->label_sel = o && o->label_selector && *o->label_selector ? strdup(o->label_selector) : NULL;
	w->field_sel = o && o->field_selector && *o->field_selector ? strdup(o->field_selector) : NULL;
	w->bookmarks = o && o->bookmarks;
	w->deadline = o && o->timeout_ms > 0 ? api->now + o->timeout_ms : 0;
	w->last_bookmark = api->now;
	w->next = api->watches;
	api->watches = w;
	int initial = from == 0 || (o && o->send_initial_events);
	if (from && from < api->compacted) {
		w->cursor = from;
		send_expired(w, from);
	} else if (initial) { /* the state now, as ADDED events, then the changes */
		json_t *items = matching(api, c.r, ns, &(fake_list_opts){w->label_sel, w->field_sel, 0, NULL});
		size_t i;
		json_t *obj;
		json_array_foreach(items, i, obj) wsend(w, event_line("ADDED", obj), api->now);
		json_decref(items);
		w->cursor = api->rv;
		if (o && o->send_initial_events)
			send_bookmark(w, 1);
	} else {
		w->cursor = from;
	}
	if (c.hit && c.hit->f.code != 0) { /* a fault after the watch started: it ends at once */
		w->ended = 1;
		w->len = w->off = 0;
	}
	return w;
}

size_t fake_watch_read(fake_watch *w, char *buf, size_t n)
{
	if (!w)
		return 0;
	pump(w);
	size_t k = 0; /* held lines that came due, in order */
	while (k < w->nheld && w->held[k].due <= w->api->now) {
		wbuf_add(w, w->held[k].line, strlen(w->held[k].line));
		wbuf_add(w, "\n", 1);
		free(w->held[k].line);
		k++;
	}
	if (k) {
		memmove(w->held, w->held + k, (w->nheld - k) * sizeof(*w->held));
		w->nheld -= k;
	}
	size_t avail = w->len - w->off, take = avail < n ? avail : n;
	if (take)
		memcpy(buf, w->buf + w->off, take);
	w->off += take;
	if (w->off == w->len)
		w->off = w->len = 0;
	return take;
}

int fake_watch_done(const fake_watch *w) { return !w || (w->ended && w->len == w->off && !w->nheld); }

void fake_watch_close(fake_watch *w)
{
	if (!w)
		return;
	for (fake_watch **p = &w->api->watches; *p; p = &(*p)->next)
		if (*p == w) {
			*p = w->next;
			break;
		}
	for (size_t i = 0; i < w->nheld; i++)
		free(w->held[i].line);
	free(w->held);
	free(w->buf);
	free(w->ns);
	free(w->label_sel);
	free(w->field_sel);
	free(w);
}

void fake_compact(fake_api *api)
{
	while (api->log_len) {
		logent *e = &api->log[api->log_start];
		json_decref(e->obj);
		json_decref(e->old);
		api->log_start = (api->log_start + 1) % api->o.watch_window;
		api->log_len--;
	}
	api->compacted = api->rv;
	json_object_clear(api->pages);
}

void fake_close_watches(fake_api *api)
{
	for (fake_watch *w = api->watches; w; w = w->next) {
		pump(w);
		w->ended = 1;
	}
}

/* ---- the fake itself ---- */

fake_api *fake_new(const fake_options *o)
{
	fake_api *api = calloc(1, sizeof(*api));
	if (!api)
		return NULL;
	if (o)
		api->o = *o;
	if (!api->o.now)
		api->o.now = FAKE_T0;
	if (!api->o.seed)
		api->o.seed = 1;
	if (!api->o.watch_window)
		api->o.watch_window = 10000;
	if (!api->o.ready_after_ms)
		api->o.ready_after_ms = 1000;
	if (!api->o.bookmark_every_ms)
		api->o.bookmark_every_ms = 60000;
	api->now = api->o.now;
	api->rand = api->o.seed;
	api->rv = 1000;
	api->store = json_object();
	api->pages = json_object();
	api->calls = json_object();
	api->bound = json_object();
	api->tried = json_object();
	api->broken = json_object();
	api->missing = json_object();
	api->log = calloc(api->o.watch_window, sizeof(*api->log));
	if (!api->store || !api->pages || !api->calls || !api->bound || !api->tried || !api->broken || !api->missing ||
	    !api->log) {
		fake_free(api);
		return NULL;
	}
	static const char *const namespaces[] = {"default", "kube-system", "kube-public", "kube-node-lease"};
	for (size_t i = 0; i < 4; i++)
		ensure_namespace(api, namespaces[i]);
	return api;
}

void fake_free(fake_api *api)
{
	if (!api)
		return;
	while (api->watches)
		fake_watch_close(api->watches);
	for (size_t i = 0; api->log && i < api->log_len; i++) {
		logent *e = &api->log[(api->log_start + i) % api->o.watch_window];
		json_decref(e->obj);
		json_decref(e->old);
	}
	free(api->log);
	fake_clear_faults(api);
	json_decref(api->store);
	json_decref(api->pages);
	json_decref(api->calls);
	json_decref(api->bound);
	json_decref(api->tried);
	json_decref(api->broken);
	json_decref(api->missing);
	free(api);
}

int fake_load(fake_api *api, const char *text, size_t len, char *errbuf, size_t errlen)
{
	char *arr_text = NULL;
	ds_error err;
	if (ds_objects_parse(text, len, NULL, &arr_text, &err) < 0) {
		snprintf(errbuf, errlen, "%s%s%s", err.path, err.path[0] ? ": " : "", err.message);
		return -1;
	}
	json_t *arr = json_loads(arr_text, 0, NULL);
	ds_free(arr_text);
	size_t i;
	json_t *in;
	int rc = 0;
	json_array_foreach(arr, i, in)
	{
		const res_info *r = fake_res_by_kind(json_string_value(json_object_get(in, "apiVersion")),
						     json_string_value(json_object_get(in, "kind")));
		const char *name = fake_meta_str(in, "name");
		if (!r || !name) {
			snprintf(errbuf, errlen, "item %zu: %s is not served here", i,
				 json_string_value(json_object_get(in, "kind"))
					 ? json_string_value(json_object_get(in, "kind"))
					 : "(no kind)");
			rc = -1;
			break;
		}
		const char *ns = r->namespaced ? fake_meta_str(in, "namespace") : NULL;
		if (r->namespaced && (!ns || !*ns))
			ns = "default";
		json_t *obj = json_deep_copy(in);
		if (!strcmp(r->name, "daemonsets")) {
			char why[DS_ERROR_PATH_MAX + DS_ERROR_MESSAGE_MAX + 8];
			json_t *d = ds_defaulted(obj, why, sizeof(why));
			if (!d) {
				snprintf(errbuf, errlen, "%s: %s", name, why);
				json_decref(obj);
				rc = -1;
				break;
			}
			json_decref(obj);
			obj = d;
			if (!json_is_integer(json_object_get(fake_meta(obj), "generation")))
				json_object_set_new(fake_meta(obj), "generation", json_integer(1));
			ensure_annotation(obj, "deprecated.daemonset.template.generation", "1");
		}
		json_t *meta = fake_meta(obj);
		char gv[128];
		snprintf(gv, sizeof(gv), "%s%s%s", r->group, *r->group ? "/" : "", r->version);
		json_object_set_new(obj, "apiVersion", json_string(gv));
		if (r->namespaced) {
			json_object_set_new(meta, "namespace", json_string(ns));
			ensure_namespace(api, ns);
		}
		if (!fake_meta_str(obj, "uid"))
			new_uid(api, obj);
		if (!fake_meta_str(obj, "creationTimestamp")) {
			char t[40];
			fake_time_text(api->now, t, sizeof(t));
			json_object_set_new(meta, "creationTimestamp", json_string(t));
		}
		if (!strcmp(r->name, "pods") && !json_object_get(obj, "status"))
			json_object_set_new(obj, "status", json_pack("{s:s}", "phase", "Pending"));
		char key[600];
		fake_key(r, ns, name, key, sizeof(key));
		int existed = json_object_get(fake_bucket(api, r), key) != NULL;
		if (!strcmp(r->name, "pods") &&
		    json_string_value(json_object_get(json_object_get(obj, "spec"), "nodeName")))
			json_object_set_new(api->bound, fake_meta_str(obj, "uid"), json_integer(api->now));
		fake_put(api, r, key, obj, existed ? 'M' : 'A');
	}
	json_decref(arr);
	return rc;
}

ds_time fake_now(const fake_api *api) { return api->now; }

void fake_advance(fake_api *api, ds_time now)
{
	if (now > api->now)
		api->now = now;
	if (api->in_tick)
		return;
	api->in_tick = 1;
	fake_cluster_tick(api);
	api->in_tick = 0;
}

ds_time fake_next_due(const fake_api *api)
{
	ds_time next = fake_cluster_next_due(api);
	for (const fake_watch *w = api->watches; w; w = w->next) {
		if (w->nheld && (next < 0 || w->held[0].due < next))
			next = w->held[0].due;
		if (w->deadline && !w->ended && (next < 0 || w->deadline < next))
			next = w->deadline;
	}
	return next;
}

unsigned long long fake_resource_version(const fake_api *api) { return api->rv; }

const json_t *fake_objects(const fake_api *api, const char *resource)
{
	const res_info *r = fake_res(resource);
	return r ? fake_bucket((fake_api *)api, r) : NULL;
}

const json_t *fake_object(const fake_api *api, const char *resource, const char *ns, const char *name)
{
	const res_info *r = fake_res(resource);
	if (!r || !name)
		return NULL;
	char key[600];
	fake_key(r, ns, name, key, sizeof(key));
	return json_object_get(fake_bucket((fake_api *)api, r), key);
}

void fake_observe(fake_api *api, fake_observer fn, void *user_data)
{
	api->observer = fn;
	api->observer_data = user_data;
}

void fake_node_break(fake_api *api, const char *node, int broken)
{
	if (broken)
		json_object_set_new(api->broken, node, json_true());
	else
		json_object_del(api->broken, node);
}

void fake_image_missing(fake_api *api, const char *image, int missing)
{
	if (missing)
		json_object_set_new(api->missing, image, json_true());
	else
		json_object_del(api->missing, image);
}
