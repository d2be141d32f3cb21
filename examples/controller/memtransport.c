/* An in-memory Kubernetes API behind ds_transport (see memtransport.h). */
#include "memtransport.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fault {
	char *op, *resource, *message;
	long skip, count, seen;
	int result, executed;
} fault;

/* A watch event kept for the watches: its resourceVersion, resource, namespace and line. */
typedef struct hist {
	unsigned long long rv;
	const char *resource; /* static */
	char *ns;             /* NULL: cluster-scoped */
	char *line;           /* with its newline */
	size_t len;
} hist;

/* A call of the loop being answered. */
typedef struct mem_call {
	uint64_t id;
	int op; /* DS_IO_LIST, ... */
	const struct res_info *r;
	char *ns;
	int status; /* to send */
	int status_sent;
	char *out; /* bytes still to send */
	size_t len, pos;
	int finished; /* an end is due once out is sent */
	/* watches */
	unsigned long long cursor;
	ds_time deadline, next_bookmark;
	struct mem_call *next;
} mem_call;

struct mem_cluster {
	ds_time now;
	mem_options o;
	json_t *store; /* resource -> {"ns/name": object} */
	unsigned long long rv, uids;
	unsigned rand, chunks;
	char *log;
	size_t log_len, log_cap;
	int no_log; /* the loop's watches serve the events: no log for mem_take_events */
	hist *hist;
	size_t nhist, hist_cap, hist_start; /* a ring: hist_start is the oldest */
	unsigned long long hist_dropped_rv; /* the newest resourceVersion dropped from the history */
	json_t *broken;                     /* node name -> true */
	json_t *max_pods;                   /* owner uid -> most pods on one node at once */
	json_t *calls;                      /* "op" and "op resource" -> count */
	fault *faults;
	size_t nfaults;
	mem_call *open; /* the loop's calls */
};

typedef struct res_info {
	const char *resource, *kind, *api, *qualified;
	int namespaced, watched;
} res_info;

static const res_info resources[] = {
	{"nodes", "Node", "v1", "nodes", 0, 1},
	{"pods", "Pod", "v1", "pods", 1, 1},
	{"daemonsets", "DaemonSet", "apps/v1", "daemonsets.apps", 1, 1},
	{"controllerrevisions", "ControllerRevision", "apps/v1", "controllerrevisions.apps", 1, 1},
	{"events", "Event", "v1", "events", 1, 0},
	{"leases", "Lease", "coordination.k8s.io/v1", "leases.coordination.k8s.io", 1, 0},
};

static const res_info *res_by_name(const char *resource)
{
	for (size_t i = 0; resource && i < sizeof(resources) / sizeof(resources[0]); i++)
		if (strcmp(resources[i].resource, resource) == 0)
			return &resources[i];
	return NULL;
}

static const res_info *res_by_kind(const char *kind)
{
	for (size_t i = 0; kind && i < sizeof(resources) / sizeof(resources[0]); i++)
		if (strcmp(resources[i].kind, kind) == 0)
			return &resources[i];
	return NULL;
}

static void key_of(const res_info *r, const char *ns, const char *name, char *buf, size_t size)
{
	if (r->namespaced)
		snprintf(buf, size, "%s/%s", ns ? ns : "", name);
	else
		snprintf(buf, size, "%s", name);
}

static json_t *bucket(mem_cluster *m, const res_info *r)
{
	json_t *b = json_object_get(m->store, r->resource);
	if (!b) {
		b = json_object();
		json_object_set_new(m->store, r->resource, b);
	}
	return b;
}

/* The stored object r ns/name (NULL: none), its key written into key. */
static json_t *stored(mem_cluster *m, const res_info *r, const char *ns, const char *name, char *key, size_t size)
{
	key_of(r, ns, name, key, size);
	return json_object_get(bucket(m, r), key);
}

/* The failure result with its message, whole (an injected fault's message may be of any length). */
static int fail(ds_reply *reply, int result, const char *fmt, ...)
{
	if (!reply)
		return result;
	va_list ap, again;
	va_start(ap, fmt);
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (buf)
		vsnprintf(buf, (size_t)n + 1, fmt, again);
	va_end(again);
	ds_reply_set_message2(reply, buf ? buf : "out of memory", NULL);
	free(buf);
	return result;
}

static int send_json(ds_reply *reply, const json_t *v)
{
	if (!reply)
		return DS_TRANSPORT_OK;
	char *s = json_dumps(v, JSON_COMPACT);
	if (!s)
		return fail(reply, DS_TRANSPORT_TRANSIENT, "out of memory");
	int rc = ds_reply_append2(reply, s, strlen(s), NULL);
	free(s);
	return rc < 0 ? fail(reply, DS_TRANSPORT_FATAL, "reply too large") : DS_TRANSPORT_OK;
}

static const char *meta_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(json_object_get(obj, "metadata"), key));
}

static json_t *meta_of(json_t *obj)
{
	json_t *meta = json_object_get(obj, "metadata");
	if (!json_is_object(meta)) {
		meta = json_object();
		json_object_set_new(obj, "metadata", meta);
	}
	return meta;
}

static void now_text(ds_time t, char *buf) { ds_time_format(t - t % 1000, buf, 40); }

static void bump(mem_cluster *m, json_t *obj)
{
	char rv[32];
	snprintf(rv, sizeof(rv), "%llu", ++m->rv);
	json_object_set_new(meta_of(obj), "resourceVersion", json_string(rv));
}

/* Keep an event for the watches; the oldest goes when the history is full. */
static void remember(mem_cluster *m, const res_info *r, const json_t *obj, const char *line, size_t n)
{
	if (m->nhist == m->hist_cap && m->hist_cap < (size_t)m->o.history) {
		size_t cap = m->hist_cap ? m->hist_cap * 2 : 1024;
		if (cap > (size_t)m->o.history)
			cap = (size_t)m->o.history;
		hist *h = malloc(cap * sizeof(*h));
		if (!h)
			return;
		for (size_t i = 0; i < m->nhist; i++) /* unroll the ring */
			h[i] = m->hist[(m->hist_start + i) % m->hist_cap];
		free(m->hist);
		m->hist = h;
		m->hist_cap = cap;
		m->hist_start = 0;
	}
	if (m->nhist == m->hist_cap) { /* full: drop the oldest */
		hist *old = &m->hist[m->hist_start];
		m->hist_dropped_rv = old->rv;
		free(old->ns);
		free(old->line);
		m->hist_start = (m->hist_start + 1) % m->hist_cap;
		m->nhist--;
	}
	hist *h = &m->hist[(m->hist_start + m->nhist) % m->hist_cap];
	const char *ns = meta_str(obj, "namespace");
	h->rv = m->rv;
	h->resource = r->resource;
	h->ns = r->namespaced && ns ? strdup(ns) : NULL;
	h->line = malloc(n + 2);
	if (!h->line) {
		free(h->ns);
		return;
	}
	memcpy(h->line, line, n);
	h->line[n] = '\n';
	h->line[n + 1] = '\0';
	h->len = n + 1;
	m->nhist++;
}

/* The watch log: one {"type","object"} line per change. */
static void emit(mem_cluster *m, const res_info *r, const char *type, const json_t *obj)
{
	if (!r->watched)
		return;
	json_t *ev = json_pack("{s:s, s:O}", "type", type, "object", obj);
	char *line = ev ? json_dumps(ev, JSON_COMPACT) : NULL;
	json_decref(ev);
	if (!line)
		return;
	size_t n = strlen(line);
	remember(m, r, obj, line, n);
	if (m->no_log) {
		free(line);
		return;
	}
	if (m->log_len + n + 2 > m->log_cap) {
		size_t cap = (m->log_cap ? m->log_cap * 2 : 4096) + n + 2;
		char *p = realloc(m->log, cap);
		if (!p) {
			free(line);
			return;
		}
		m->log = p;
		m->log_cap = cap;
	}
	memcpy(m->log + m->log_len, line, n);
	m->log_len += n;
	m->log[m->log_len++] = '\n';
	m->log[m->log_len] = '\0';
	free(line);
}

/* spec.nodeName, or the node of the controller's matchFields metadata.name pin. */
static const char *target_node(const json_t *pod)
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
			if (k && op && strcmp(k, "metadata.name") == 0 && strcmp(op, "In") == 0 &&
			    json_array_size(vals) == 1)
				return json_string_value(json_array_get(vals, 0));
		}
	}
	return NULL;
}

const char *mem_controller_uid(const json_t *obj)
{
	const json_t *refs = json_object_get(json_object_get(obj, "metadata"), "ownerReferences");
	for (size_t i = 0; i < json_array_size(refs); i++)
		if (json_is_true(json_object_get(json_array_get(refs, i), "controller")))
			return json_string_value(json_object_get(json_array_get(refs, i), "uid"));
	return NULL;
}

/* Keep the high-water mark of pods per (controller, node). */
static void track_pods(mem_cluster *m, const json_t *pod)
{
	const char *owner = mem_controller_uid(pod), *node = target_node(pod);
	if (!owner || !node)
		return;
	int count = 0;
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(m->store, "pods"), k, v)
	{
		const char *o = mem_controller_uid(v), *n = target_node(v);
		count += o && n && strcmp(o, owner) == 0 && strcmp(n, node) == 0;
	}
	if (count > json_integer_value(json_object_get(m->max_pods, owner)))
		json_object_set_new(m->max_pods, owner, json_integer(count));
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

static void new_uid(mem_cluster *m, json_t *obj)
{
	char uid[64];
	snprintf(uid, sizeof(uid), "6d656d00-0000-4000-8000-%012llx", ++m->uids);
	json_object_set_new(meta_of(obj), "uid", json_string(uid));
}

/* What the API server fills in on create. */
static void server_fields(mem_cluster *m, const res_info *r, json_t *obj, const char *ns)
{
	json_t *meta = meta_of(obj);
	json_object_set_new(obj, "kind", json_string(r->kind));
	json_object_set_new(obj, "apiVersion", json_string(r->api));
	if (r->namespaced)
		json_object_set_new(meta, "namespace", json_string(ns));
	if (!meta_str(obj, "uid"))
		new_uid(m, obj);
	if (!meta_str(obj, "creationTimestamp")) {
		char t[40];
		now_text(m->now, t);
		json_object_set_new(meta, "creationTimestamp", json_string(t));
	}
	if (strcmp(r->resource, "daemonsets") == 0) {
		if (!json_is_integer(json_object_get(meta, "generation")))
			json_object_set_new(meta, "generation", json_integer(1));
		json_t *ann = json_object_get(meta, "annotations");
		if (!json_is_object(ann)) {
			ann = json_object();
			json_object_set_new(meta, "annotations", ann);
		}
		if (!json_object_get(ann, "deprecated.daemonset.template.generation"))
			json_object_set_new(ann, "deprecated.daemonset.template.generation", json_string("1"));
	}
	if (strcmp(r->resource, "pods") == 0 && !json_is_object(json_object_get(obj, "status")))
		json_object_set_new(obj, "status", json_pack("{s:s}", "phase", "Pending"));
	bump(m, obj);
}

/* RFC 7386 JSON merge patch; takes target, returns the result. */
static json_t *merge_patch(json_t *target, const json_t *patch)
{
	if (!json_is_object(patch)) {
		json_decref(target);
		return json_deep_copy(patch);
	}
	if (!json_is_object(target)) {
		json_decref(target);
		target = json_object();
	}
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)patch, k, v)
	{
		if (json_is_null(v)) {
			json_object_del(target, k);
			continue;
		}
		json_t *cur = json_object_get(target, k);
		json_object_set_new(target, k, merge_patch(cur ? json_incref(cur) : NULL, v));
	}
	return target;
}

/* Strategic merge of metadata.ownerReferences (merge key uid, "$patch": "delete"). */
static void merge_owner_refs(json_t *obj, const json_t *refs)
{
	json_t *meta = meta_of(obj);
	json_t *cur = json_object_get(meta, "ownerReferences");
	if (!json_is_array(cur)) {
		cur = json_array();
		json_object_set_new(meta, "ownerReferences", cur);
	}
	for (size_t i = 0; i < json_array_size(refs); i++) {
		const json_t *p = json_array_get(refs, i);
		const char *uid = json_string_value(json_object_get(p, "uid"));
		const char *dir = json_string_value(json_object_get(p, "$patch"));
		size_t j;
		for (j = 0; j < json_array_size(cur); j++) {
			const char *u = json_string_value(json_object_get(json_array_get(cur, j), "uid"));
			if (uid && u && strcmp(u, uid) == 0)
				break;
		}
		if (dir && strcmp(dir, "delete") == 0) {
			if (j < json_array_size(cur))
				json_array_remove(cur, j);
		} else if (j < json_array_size(cur)) {
			json_array_set_new(cur, j, merge_patch(json_incref(json_array_get(cur, j)), p));
		} else {
			json_array_append_new(cur, json_deep_copy(p));
		}
	}
	if (!json_array_size(cur))
		json_object_del(meta, "ownerReferences");
}

/* The registry's PrepareForUpdate for DaemonSets: a spec change bumps generation, a
 * template change the template generation too. */
static void ds_generation(const json_t *old, json_t *cur)
{
	const json_t *os = json_object_get(old, "spec"), *ns = json_object_get(cur, "spec");
	if (json_equal(os, ns))
		return;
	json_t *meta = meta_of(cur);
	json_int_t g = json_integer_value(json_object_get(json_object_get(old, "metadata"), "generation"));
	json_object_set_new(meta, "generation", json_integer(g + 1));
	if (json_equal(json_object_get(os, "template"), json_object_get(ns, "template")))
		return;
	json_t *ann = json_object_get(meta, "annotations");
	if (!json_is_object(ann)) {
		ann = json_object();
		json_object_set_new(meta, "annotations", ann);
	}
	const char *tg = json_string_value(json_object_get(ann, "deprecated.daemonset.template.generation"));
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", (tg ? atoll(tg) : 0) + 1);
	json_object_set_new(ann, "deprecated.daemonset.template.generation", json_string(buf));
}

/* ---- the operations (reply may be NULL: the answer is lost) ---- */

static int not_found(ds_reply *reply, const res_info *r, const char *name)
{
	return fail(reply, DS_TRANSPORT_NOT_FOUND, "%s \"%s\" not found", r->qualified, name);
}

static int by_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The List the API server answers: items sorted by key, without their kind and apiVersion (the
 * list's kind says it), metadata.resourceVersion the cluster's latest. */
static json_t *list_json(mem_cluster *m, const res_info *r, const char *ns, const char *selector)
{
	json_t *items = json_array();
	size_t n = json_object_size(bucket(m, r)), i = 0;
	const char **keys = malloc((n ? n : 1) * sizeof(*keys));
	const char *k;
	json_t *v;
	if (!items || !keys) {
		json_decref(items);
		free(keys);
		return NULL;
	}
	json_object_foreach(bucket(m, r), k, v) keys[i++] = k;
	qsort(keys, n, sizeof(*keys), by_str);
	for (i = 0; i < n; i++) {
		json_t *obj = json_object_get(bucket(m, r), keys[i]);
		const char *ons = meta_str(obj, "namespace");
		if (ns && r->namespaced && (!ons || strcmp(ons, ns) != 0))
			continue;
		int match = 1;
		if (selector && *selector) { /* k=v[,k=v...] */
			char buf[512];
			snprintf(buf, sizeof(buf), "%s", selector);
			for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && match;
			     tok = strtok_r(NULL, ",", &save)) {
				char *eq = strchr(tok, '=');
				if (!eq)
					continue;
				*eq = '\0';
				const char *lv = json_string_value(json_object_get(
					json_object_get(json_object_get(obj, "metadata"), "labels"), tok));
				match = lv && strcmp(lv, eq + 1) == 0;
			}
		}
		json_t *item = match ? json_copy(obj) : NULL;
		if (item) {
			json_object_del(item, "kind");
			json_object_del(item, "apiVersion");
			json_array_append_new(items, item);
		}
	}
	free(keys);
	char kind[64], rv[32];
	snprintf(kind, sizeof(kind), "%sList", r->kind);
	snprintf(rv, sizeof(rv), "%llu", m->rv);
	return json_pack("{s:s, s:s, s:{s:s}, s:o}", "kind", kind, "apiVersion", r->api, "metadata", "resourceVersion",
			 rv, "items", items);
}

static int op_list(mem_cluster *m, const res_info *r, const char *ns, const char *selector, ds_reply *reply)
{
	json_t *list = list_json(m, r, ns, selector);
	int rc = list ? send_json(reply, list) : fail(reply, DS_TRANSPORT_TRANSIENT, "out of memory");
	json_decref(list);
	return rc;
}

/* A write's end: obj stored under key, told to the watchers as event, counted when a pod, and sent as the
 * reply; the caller's reference to obj is given up. */
static int store_and_reply(mem_cluster *m, const res_info *r, const char *key, json_t *obj, const char *event,
			   ds_reply *reply)
{
	json_object_set(bucket(m, r), key, obj);
	emit(m, r, event, obj);
	if (strcmp(r->resource, "pods") == 0)
		track_pods(m, obj);
	int rc = send_json(reply, obj);
	json_decref(obj);
	return rc;
}

static int op_get(mem_cluster *m, const res_info *r, const char *ns, const char *name, ds_reply *reply)
{
	char key[600];
	const json_t *obj = stored(m, r, ns, name, key, sizeof(key));
	return obj ? send_json(reply, obj) : not_found(reply, r, name);
}

static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";

static int op_create(mem_cluster *m, const res_info *r, const char *ns, const char *body, ds_reply *reply)
{
	json_error_t je;
	json_t *obj = body ? json_loads(body, 0, &je) : NULL;
	if (!json_is_object(obj)) {
		json_decref(obj);
		return fail(reply, DS_TRANSPORT_FATAL, "the body is not a JSON object");
	}
	json_t *meta = meta_of(obj);
	const char *name = meta_str(obj, "name"), *gen = meta_str(obj, "generateName");
	char key[600], buf[300];
	if ((!name || !*name) && gen) {
		do { /* names.SimpleNameGenerator: five random characters */
			size_t n = (size_t)snprintf(buf, sizeof(buf) - 6, "%s", gen);
			for (int i = 0; i < 5; i++) {
				m->rand = m->rand * 1103515245u + 12345u;
				buf[n + (size_t)i] = alphabet[(m->rand >> 16) % (sizeof(alphabet) - 1)];
			}
			buf[n + 5] = '\0';
		} while (stored(m, r, ns, buf, key, sizeof(key)));
		json_object_set_new(meta, "name", json_string(buf));
		name = meta_str(obj, "name");
	}
	if (!name || !*name) {
		json_decref(obj);
		return fail(reply, DS_TRANSPORT_INVALID,
			    "%s \"\" is invalid: metadata.name: Required value: name or "
			    "generateName is required",
			    r->kind);
	}
	if (stored(m, r, ns, name, key, sizeof(key))) {
		int rc = fail(reply, DS_TRANSPORT_ALREADY_EXISTS, "%s \"%s\" already exists", r->qualified, name);
		json_decref(obj);
		return rc;
	}
	if (!owner_refs_ok(obj)) {
		int rc = fail(
			reply, DS_TRANSPORT_INVALID,
			"%s \"%s\" is invalid: metadata.ownerReferences: Only one reference can have Controller set to "
			"true",
			r->kind, name);
		json_decref(obj);
		return rc;
	}
	json_object_del(meta, "uid");
	json_object_del(meta, "resourceVersion");
	json_object_del(meta, "creationTimestamp");
	server_fields(m, r, obj, ns);
	return store_and_reply(m, r, key, obj, "ADDED", reply);
}

static void remove_now(mem_cluster *m, const res_info *r, const char *key)
{
	json_t *obj = json_incref(json_object_get(bucket(m, r), key));
	json_object_del(bucket(m, r), key);
	bump(m, obj);
	emit(m, r, "DELETED", obj);
	json_decref(obj);
}

static int op_remove(mem_cluster *m, const res_info *r, const char *ns, const char *name, const char *uid,
		     ds_reply *reply)
{
	char key[600];
	json_t *obj = stored(m, r, ns, name, key, sizeof(key));
	if (!obj)
		return not_found(reply, r, name);
	const char *have = meta_str(obj, "uid");
	if (uid && (!have || strcmp(have, uid) != 0))
		return fail(
			reply, DS_TRANSPORT_CONFLICT,
			"Operation cannot be fulfilled on %s \"%s\": Precondition failed: UID in precondition: %s, UID "
			"in object meta: %s",
			r->qualified, name, uid, have ? have : "");
	if (strcmp(r->resource, "pods") == 0 && m->o.grace_ms > 0) {
		if (!meta_str(obj, "deletionTimestamp")) { /* graceful: the kubelet finishes it */
			char t[40];
			now_text(m->now + m->o.grace_ms, t);
			json_object_set_new(meta_of(obj), "deletionTimestamp", json_string(t));
			json_object_set_new(meta_of(obj), "deletionGracePeriodSeconds",
					    json_integer(m->o.grace_ms / 1000));
			bump(m, obj);
			emit(m, r, "MODIFIED", obj);
		}
		return send_json(reply, obj);
	}
	json_incref(obj);
	remove_now(m, r, key);
	int rc = send_json(reply, obj);
	json_decref(obj);
	return rc;
}

static int conflict_modified(ds_reply *reply, const res_info *r, const char *name)
{
	return fail(reply, DS_TRANSPORT_CONFLICT,
		    "Operation cannot be fulfilled on %s \"%s\": the object has been modified; please apply your "
		    "changes to "
		    "the latest version and try again",
		    r->qualified, name);
}

static int op_update_status(mem_cluster *m, const res_info *r, const char *ns, const char *name, const char *body,
			    ds_reply *reply)
{
	char key[600];
	json_t *obj = stored(m, r, ns, name, key, sizeof(key));
	if (!obj)
		return not_found(reply, r, name);
	json_t *in = body ? json_loads(body, 0, NULL) : NULL;
	if (!json_is_object(in)) {
		json_decref(in);
		return fail(reply, DS_TRANSPORT_FATAL, "the body is not a JSON object");
	}
	const char *rv = meta_str(in, "resourceVersion"), *uid = meta_str(in, "uid");
	int rc;
	if (!rv)
		rc = fail(reply, DS_TRANSPORT_INVALID,
			  "%s \"%s\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for "
			  "an update",
			  r->kind, name);
	else if (strcmp(rv, meta_str(obj, "resourceVersion")) != 0 || (uid && strcmp(uid, meta_str(obj, "uid")) != 0))
		rc = conflict_modified(reply, r, name);
	else {
		json_t *st = json_object_get(in, "status");
		json_object_set(obj, "status", st ? st : json_object());
		bump(m, obj);
		emit(m, r, "MODIFIED", obj);
		rc = send_json(reply, obj);
	}
	json_decref(in);
	return rc;
}

/* A patch (merge, or strategic for owner references) with the server's checks. */
static int patch_object(mem_cluster *m, const res_info *r, const char *key, const char *name, const json_t *patch,
			int strategic, ds_reply *reply)
{
	json_t *old = json_object_get(bucket(m, r), key);
	if (!old)
		return not_found(reply, r, name);
	json_t *p = json_deep_copy(patch);
	json_t *pmeta = json_object_get(p, "metadata");
	const char *puid = json_string_value(json_object_get(pmeta, "uid"));
	if (puid && strcmp(puid, meta_str(old, "uid")) != 0) {
		json_decref(p);
		return fail(reply, DS_TRANSPORT_INVALID,
			    "%s \"%s\" is invalid: metadata.uid: Invalid value: \"%s\": field is immutable", r->kind,
			    name, puid);
	}
	json_t *cur = json_deep_copy(old);
	if (strategic && json_is_object(pmeta) && json_is_array(json_object_get(pmeta, "ownerReferences"))) {
		merge_owner_refs(cur, json_object_get(pmeta, "ownerReferences"));
		json_object_del(pmeta, "ownerReferences");
	}
	cur = merge_patch(cur, p);
	json_decref(p);
	if (!owner_refs_ok(cur)) {
		json_decref(cur);
		return fail(
			reply, DS_TRANSPORT_INVALID,
			"%s \"%s\" is invalid: metadata.ownerReferences: Only one reference can have Controller set to "
			"true",
			r->kind, name);
	}
	if (strcmp(r->resource, "daemonsets") == 0)
		ds_generation(old, cur);
	if (json_equal(old, cur)) { /* nothing to write */
		int rc = send_json(reply, cur);
		json_decref(cur);
		return rc;
	}
	bump(m, cur);
	return store_and_reply(m, r, key, cur, "MODIFIED", reply);
}

static int op_patch(mem_cluster *m, const res_info *r, const char *ns, const char *name, const char *type,
		    const char *body, ds_reply *reply)
{
	char key[600];
	key_of(r, ns, name, key, sizeof(key));
	json_t *patch = body ? json_loads(body, 0, NULL) : NULL;
	if (!json_is_object(patch)) {
		json_decref(patch);
		return fail(reply, DS_TRANSPORT_FATAL, "the patch is not a JSON object");
	}
	int strategic = type && strcmp(type, DS_PATCH_STRATEGIC) == 0;
	if (!strategic && (!type || strcmp(type, DS_PATCH_MERGE) != 0)) {
		json_decref(patch);
		return fail(reply, DS_TRANSPORT_FATAL, "the server does not support patch type %s",
			    type ? type : "(none)");
	}
	int rc = patch_object(m, r, key, name, patch, strategic, reply);
	json_decref(patch);
	return rc;
}

/* ---- faults and the callbacks ---- */

static void count_call(mem_cluster *m, const char *op, const char *resource)
{
	char k[128];
	snprintf(k, sizeof(k), "%s %s", op, resource);
	json_object_set_new(m->calls, op, json_integer(json_integer_value(json_object_get(m->calls, op)) + 1));
	json_object_set_new(m->calls, k, json_integer(json_integer_value(json_object_get(m->calls, k)) + 1));
	if (strcmp(op, "event") != 0) /* the total counts calls; watch events are not calls */
		json_object_set_new(m->calls, "", json_integer(json_integer_value(json_object_get(m->calls, "")) + 1));
}

static fault *fault_for(mem_cluster *m, const char *op, const char *resource)
{
	count_call(m, op, resource);
	fault *hit = NULL;
	for (size_t i = 0; i < m->nfaults; i++) {
		fault *f = &m->faults[i];
		if ((f->op ? strcmp(f->op, op) != 0 : strcmp(op, "event") == 0) ||
		    (f->resource && strcmp(f->resource, resource) != 0))
			continue;
		f->seen++;
		if (!hit && f->seen > f->skip && (f->count < 0 || f->seen <= f->skip + f->count))
			hit = f;
	}
	return hit;
}

/* Runs op (unless the fault stops it first) and answers as the fault says. */
#define WITH_FAULTS(m, opname, resource, reply, call)                                                                  \
	do {                                                                                                           \
		const res_info *r_ = res_by_name(resource);                                                            \
		fault *f_ = fault_for(m, opname, resource ? resource : "");                                            \
		if (!r_)                                                                                               \
			return fail(reply, DS_TRANSPORT_FATAL, "the server could not find the requested resource %s",  \
				    resource ? resource : "");                                                         \
		if (f_ && !f_->executed)                                                                               \
			return fail(reply, f_->result, "%s", f_->message);                                             \
		ds_reply *out_ = f_ ? NULL : reply;                                                                    \
		int rc_ = call;                                                                                        \
		return f_ ? fail(reply, f_->result, "%s", f_->message) : rc_;                                          \
	} while (0)

static int tp_list(void *ud, const char *resource, const char *ns, const char *selector, ds_reply *reply)
{
	WITH_FAULTS((mem_cluster *)ud, "list", resource, reply, op_list(ud, r_, ns, selector, out_));
}

static int tp_get(void *ud, const char *resource, const char *ns, const char *name, ds_reply *reply)
{
	WITH_FAULTS((mem_cluster *)ud, "get", resource, reply, op_get(ud, r_, ns, name, out_));
}

static int tp_create(void *ud, const char *resource, const char *ns, const char *body, ds_reply *reply)
{
	WITH_FAULTS((mem_cluster *)ud, "create", resource, reply, op_create(ud, r_, ns, body, out_));
}

static int tp_remove(void *ud, const char *resource, const char *ns, const char *name, const char *uid, ds_reply *reply)
{
	WITH_FAULTS((mem_cluster *)ud, "delete", resource, reply, op_remove(ud, r_, ns, name, uid, out_));
}

static int tp_update_status(void *ud, const char *resource, const char *ns, const char *name, const char *body,
			    ds_reply *reply)
{
	WITH_FAULTS((mem_cluster *)ud, "updateStatus", resource, reply, op_update_status(ud, r_, ns, name, body, out_));
}

static int tp_patch(void *ud, const char *resource, const char *ns, const char *name, const char *type,
		    const char *body, ds_reply *reply)
{
	WITH_FAULTS((mem_cluster *)ud, "patch", resource, reply, op_patch(ud, r_, ns, name, type, body, out_));
}

static int tp_event(void *ud, const char *ns, const char *body, ds_reply *reply)
{
	WITH_FAULTS((mem_cluster *)ud, "recordEvent", "events", reply, op_create(ud, r_, ns, body, out_));
}

void mem_transport(mem_cluster *m, ds_transport *t)
{
	memset(t, 0, sizeof(*t));
	t->size = sizeof(*t);
	t->user_data = m;
	t->list = tp_list;
	t->get = tp_get;
	t->create = tp_create;
	t->remove = tp_remove;
	t->update_status = tp_update_status;
	t->patch = tp_patch;
	t->record_event = tp_event;
}

/* ---- the host's side ---- */

mem_cluster *mem_new(ds_time now, const mem_options *o)
{
	mem_cluster *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->now = now;
	m->o.ready_after_ms = 2000;
	m->o.seed = 1;
	if (o) {
		m->o = *o;
		if (!m->o.ready_after_ms)
			m->o.ready_after_ms = 2000;
	}
	if (m->o.history <= 0)
		m->o.history = 20000;
	if (m->o.bookmark_ms <= 0)
		m->o.bookmark_ms = 60000;
	m->rand = m->o.seed ? m->o.seed : 1;
	m->chunks = m->rand * 2654435761u + 1;
	m->rv = 1000;
	m->store = json_object();
	m->broken = json_object();
	m->max_pods = json_object();
	m->calls = json_object();
	if (!m->store || !m->broken || !m->max_pods || !m->calls) {
		mem_free(m);
		return NULL;
	}
	return m;
}

void mem_free(mem_cluster *m)
{
	if (!m)
		return;
	json_decref(m->store);
	json_decref(m->broken);
	json_decref(m->max_pods);
	json_decref(m->calls);
	mem_clear_faults(m);
	free(m->log);
	for (size_t i = 0; i < m->nhist; i++) {
		free(m->hist[(m->hist_start + i) % m->hist_cap].ns);
		free(m->hist[(m->hist_start + i) % m->hist_cap].line);
	}
	free(m->hist);
	while (m->open) {
		mem_call *c = m->open;
		m->open = c->next;
		free(c->ns);
		free(c->out);
		free(c);
	}
	free(m);
}

int mem_load(mem_cluster *m, const char *text, size_t len, ds_error *err)
{
	char *arr_text = NULL;
	int rc = ds_objects_parse(text, len, NULL, &arr_text, err);
	if (rc < 0)
		return rc;
	json_t *arr = json_loads(arr_text, 0, NULL);
	ds_free(arr_text);
	size_t i;
	json_t *obj;
	json_array_foreach(arr, i, obj)
	{
		const res_info *r = res_by_kind(json_string_value(json_object_get(obj, "kind")));
		const char *name = meta_str(obj, "name");
		if (!r || !name)
			continue; /* PodDisruptionBudgets and the like: not served here */
		const char *ns = r->namespaced ? meta_str(obj, "namespace") : NULL;
		char key[600];
		int existed = stored(m, r, ns ? ns : "default", name, key, sizeof(key)) != NULL;
		server_fields(m, r, obj, ns ? ns : "default");
		json_object_set(bucket(m, r), key, obj);
		emit(m, r, existed ? "MODIFIED" : "ADDED", obj);
	}
	json_decref(arr);
	return 0;
}

static int read_file(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			char *p = realloc(buf, cap *= 2);
			if (!p)
				free(buf);
			buf = p;
		}
	}
	fclose(f);
	*text = buf;
	*len = n;
	return buf ? 0 : -1;
}

/* The files ds_manifests_list names (the library's one directory walk), each loaded in turn;
 * the first that cannot be read or parsed stops it, with the file's name in err. */
int mem_load_file(mem_cluster *m, const char *path, ds_error *err)
{
	char *names_text = NULL;
	int rc = ds_manifests_list(path, &names_text, err);
	if (rc < 0)
		return rc;
	json_t *names = json_loads(names_text, 0, NULL);
	ds_free(names_text);
	if (!json_is_array(names)) {
		json_decref(names);
		return DS_ENOMEM;
	}
	for (size_t i = 0; rc == 0 && i < json_array_size(names); i++) {
		const char *name = json_string_value(json_array_get(names, i));
		char *text;
		size_t len;
		if (read_file(name, &text, &len) < 0) {
			if (err)
				snprintf(err->message, sizeof(err->message), "%s: cannot read", name);
			rc = DS_EIO;
			break;
		}
		rc = mem_load(m, text, len, err);
		free(text);
		if (rc < 0 && err && !err->source[0]) /* which file */
			snprintf(err->source, sizeof(err->source), "%s", name);
	}
	json_decref(names);
	return rc;
}

char *mem_take_events(mem_cluster *m, size_t *len)
{
	char *log = m->log;
	if (len)
		*len = m->log_len;
	m->log = NULL;
	m->log_len = m->log_cap = 0;
	return log;
}

ds_time mem_now(const mem_cluster *m) { return m->now; }

int mem_break_node(mem_cluster *m, const char *node) { return json_object_set_new(m->broken, node, json_true()); }

void mem_advance(mem_cluster *m, ds_time now)
{
	if (now > m->now)
		m->now = now;
	const res_info *r = res_by_name("pods");
	json_t *pods = bucket(m, r);
	json_t *keys = json_array();
	const char *k;
	json_t *v;
	json_object_foreach(pods, k, v) json_array_append_new(keys, json_string(k));
	char t[40];
	now_text(m->now, t);
	for (size_t i = 0; i < json_array_size(keys); i++) {
		const char *key = json_string_value(json_array_get(keys, i));
		json_t *pod = json_object_get(pods, key);
		const char *del = meta_str(pod, "deletionTimestamp");
		ds_time when;
		if (del) { /* the kubelet finishes a graceful deletion */
			if (ds_time_parse(del, &when, NULL) == 0 && when <= m->now)
				remove_now(m, r, key);
			continue;
		}
		json_t *spec = json_object_get(pod, "spec");
		const char *node = json_string_value(json_object_get(spec, "nodeName"));
		if (!node || !*node) { /* the scheduler binds a pinned pod to an existing node */
			const char *target = target_node(pod);
			if (target && json_object_get(json_object_get(m->store, "nodes"), target)) {
				json_object_set_new(spec, "nodeName", json_string(target));
				bump(m, pod);
				emit(m, r, "MODIFIED", pod);
				track_pods(m, pod);
			}
			continue;
		}
		const char *phase = json_string_value(json_object_get(json_object_get(pod, "status"), "phase"));
		ds_time created;
		if ((phase && strcmp(phase, "Pending") != 0) || json_object_get(m->broken, node) ||
		    ds_time_parse(meta_str(pod, "creationTimestamp"), &created, NULL) < 0 ||
		    created + m->o.ready_after_ms > m->now)
			continue;
		json_object_set_new(pod, "status",
				    json_pack("{s:s, s:s, s:[{s:s, s:s, s:s}]}", "phase", "Running", "startTime", t,
					      "conditions", "type", "Ready", "status", "True", "lastTransitionTime",
					      t));
		bump(m, pod);
		emit(m, r, "MODIFIED", pod);
	}
	json_decref(keys);
}

int mem_patch(mem_cluster *m, const char *resource, const char *ns, const char *name, const char *merge_patch_text)
{
	const res_info *r = res_by_name(resource);
	json_t *patch = merge_patch_text ? json_loads(merge_patch_text, 0, NULL) : NULL;
	if (!r || !json_is_object(patch)) {
		json_decref(patch);
		return DS_TRANSPORT_FATAL;
	}
	char key[600];
	key_of(r, ns, name, key, sizeof(key));
	int rc = patch_object(m, r, key, name, patch, 0, NULL);
	json_decref(patch);
	return rc;
}

void mem_add_fault(mem_cluster *m, const char *op, const char *resource, long skip, long count, int result,
		   int executed, const char *message)
{
	fault *p = realloc(m->faults, (m->nfaults + 1) * sizeof(*p));
	if (!p)
		return;
	m->faults = p;
	fault *f = &p[m->nfaults++];
	memset(f, 0, sizeof(*f));
	f->op = op ? strdup(op) : NULL;
	f->resource = resource ? strdup(resource) : NULL;
	f->message = strdup(message ? message : "injected fault");
	f->skip = skip;
	f->count = count;
	f->result = result;
	f->executed = executed;
}

void mem_clear_faults(mem_cluster *m)
{
	for (size_t i = 0; i < m->nfaults; i++) {
		free(m->faults[i].op);
		free(m->faults[i].resource);
		free(m->faults[i].message);
	}
	free(m->faults);
	m->faults = NULL;
	m->nfaults = 0;
}

long mem_calls(const mem_cluster *m, const char *op, const char *resource)
{
	char k[128];
	if (op && resource)
		snprintf(k, sizeof(k), "%s %s", op, resource);
	else
		snprintf(k, sizeof(k), "%s", op ? op : "");
	return (long)json_integer_value(json_object_get(m->calls, k));
}

const json_t *mem_objects(const mem_cluster *m, const char *resource)
{
	const res_info *r = res_by_name(resource);
	return r ? bucket((mem_cluster *)m, r) : NULL;
}

int mem_max_pods_per_node(const mem_cluster *m, const char *owner_uid)
{
	return (int)json_integer_value(json_object_get(m->max_pods, owner_uid));
}

/* The API server's PUT, as far as a Lease needs it: the new spec replaces the stored one (metadata
 * other than resourceVersion is kept), if metadata.resourceVersion is still the stored one. */
static int op_update(mem_cluster *m, const res_info *r, const char *key, const json_t *in)
{
	json_t *cur = json_object_get(bucket(m, r), key), *spec = json_object_get(in, "spec");
	const char *rv = meta_str(in, "resourceVersion");
	if (!cur)
		return DS_TRANSPORT_NOT_FOUND;
	if (!rv)
		return DS_TRANSPORT_INVALID;
	if (strcmp(rv, meta_str(cur, "resourceVersion")) != 0)
		return DS_TRANSPORT_CONFLICT;
	json_t *obj = json_deep_copy(cur);
	json_object_set_new(obj, "spec", spec ? json_deep_copy(spec) : json_object());
	bump(m, obj);
	json_object_set_new(bucket(m, r), key, obj);
	emit(m, r, "MODIFIED", obj);
	return DS_TRANSPORT_OK;
}

/* ---- the list-watch loop's calls ---- */

static json_t *status_doc(int code, const char *reason, const char *message)
{
	return json_pack("{s:s, s:s, s:{}, s:s, s:s, s:s, s:i}", "kind", "Status", "apiVersion", "v1", "metadata",
			 "status", "Failure", "message", message, "reason", reason, "code", code);
}

static const char *reason_of(int code)
{
	switch (code) {
	case 403: return "Forbidden";
	case 404: return "NotFound";
	case 409: return "Conflict";
	case 410: return "Expired";
	case 422: return "Invalid";
	case 429: return "TooManyRequests";
	default: return code >= 500 ? "InternalError" : "BadRequest";
	}
}

static int status_of_result(int result, int create)
{
	static const int codes[] = {200, 404, 409, 409, 422, 500, 403};
	int code = result >= 0 && result <= DS_TRANSPORT_FATAL ? codes[result] : 500;
	return code == 200 && create ? 201 : code;
}

/* The call's answer: status and body (taken). */
static void answer(mem_call *c, int status, json_t *body)
{
	c->status = status;
	c->out = body ? json_dumps(body, JSON_COMPACT) : NULL;
	c->len = c->out ? strlen(c->out) : 0;
	c->finished = 1;
	json_decref(body);
}

static void append_out(mem_call *c, const char *p, size_t n)
{
	char *d = realloc(c->out, c->len + n + 1);
	if (!d)
		return;
	memcpy(d + c->len, p, n);
	c->len += n;
	d[c->len] = '\0';
	c->out = d;
}

static unsigned long long parse_rv(const char *s) { return s && *s ? strtoull(s, NULL, 10) : 0; }

/* A Lease call of the elector: GET, POST or PUT, answered at once. */
static void lease_call(mem_cluster *m, mem_call *c, const ds_io *io)
{
	char key[600];
	const res_info *r = c->r;
	if (io->op == DS_IO_GET) {
		const json_t *obj = stored(m, r, io->namespace_, io->name ? io->name : "", key, sizeof(key));
		char msg[700];
		snprintf(msg, sizeof(msg), "%s \"%s\" not found", r->qualified, io->name ? io->name : "");
		answer(c, obj ? 200 : 404, obj ? json_deep_copy(obj) : status_doc(404, "NotFound", msg));
		return;
	}
	json_t *in = io->body ? json_loads(io->body, 0, NULL) : NULL;
	const char *name = meta_str(in, "name");
	int rc = io->op == DS_IO_CREATE ? op_create(m, r, io->namespace_, io->body, NULL) : DS_TRANSPORT_FATAL;
	if (io->op == DS_IO_UPDATE && json_is_object(in) && io->name) {
		key_of(r, io->namespace_, io->name, key, sizeof(key));
		rc = op_update(m, r, key, in);
		name = io->name;
	}
	int code = status_of_result(rc, io->op == DS_IO_CREATE);
	const json_t *obj = rc == DS_TRANSPORT_OK && name ? stored(m, r, io->namespace_, name, key, sizeof(key)) : NULL;
	answer(c, code, obj ? json_deep_copy(obj) : status_doc(code, reason_of(code), "the lease was not written"));
	json_decref(in);
}

int mem_start(mem_cluster *m, const ds_io *io)
{
	m->no_log = 1; /* the watches carry the events from now on */
	const res_info *r = res_by_name(io->resource);
	mem_call *c = calloc(1, sizeof(*c));
	if (!c)
		return -1;
	c->id = io->id;
	c->op = io->op;
	c->r = r;
	c->ns = io->namespace_ ? strdup(io->namespace_) : NULL;
	c->next = m->open;
	m->open = c;
	const char *op = io->op == DS_IO_LIST     ? "list"
			 : io->op == DS_IO_WATCH  ? "watch"
			 : io->op == DS_IO_GET    ? "get"
			 : io->op == DS_IO_CREATE ? "create"
						  : "update";
	count_call(m, op, io->resource ? io->resource : "");
	if (!r) {
		answer(c, 404, status_doc(404, "NotFound", "the server could not find the requested resource"));
		return 0;
	}
	if (io->op == DS_IO_LIST) {
		answer(c, 200, list_json(m, r, io->namespace_, NULL));
	} else if (io->op == DS_IO_WATCH) {
		c->status = 200;
		c->cursor = parse_rv(io->resource_version);
		c->deadline = m->now + (io->timeout_seconds > 0 ? io->timeout_seconds : 1800) * 1000;
		c->next_bookmark = m->now + m->o.bookmark_ms;
		if (m->hist_dropped_rv && c->cursor < m->hist_dropped_rv) { /* the watch cache's 410 */
			char msg[160];
			snprintf(msg, sizeof(msg), "too old resource version: %llu (%llu)", c->cursor,
				 m->hist_dropped_rv + 1);
			json_t *ev =
				json_pack("{s:s, s:o}", "type", "ERROR", "object", status_doc(410, "Expired", msg));
			char *line = ev ? json_dumps(ev, JSON_COMPACT) : NULL;
			if (line) {
				append_out(c, line, strlen(line));
				append_out(c, "\n", 1);
			}
			free(line);
			json_decref(ev);
			c->finished = 1;
		}
	} else {
		lease_call(m, c, io);
	}
	return 0;
}

static void call_free(mem_call *c)
{
	free(c->ns);
	free(c->out);
	free(c);
}

void mem_cancel(mem_cluster *m, uint64_t id)
{
	for (mem_call **p = &m->open; *p; p = &(*p)->next)
		if ((*p)->id == id) {
			mem_call *c = *p;
			*p = c->next;
			call_free(c);
			return;
		}
}

long mem_open_calls(const mem_cluster *m)
{
	long n = 0;
	for (const mem_call *c = m->open; c; c = c->next)
		n++;
	return n;
}

/* A watch's new events into its bytes to send; its bookmark and end. */
static void watch_fill(mem_cluster *m, mem_call *c)
{
	for (size_t i = 0; i < m->nhist && !c->finished; i++) {
		const hist *h = &m->hist[(m->hist_start + i) % m->hist_cap];
		if (h->rv <= c->cursor)
			continue;
		c->cursor = h->rv;
		if (h->resource != c->r->resource || (c->ns && (!h->ns || strcmp(c->ns, h->ns) != 0)))
			continue;
		append_out(c, h->line, h->len);
	}
	if (c->finished)
		return;
	if (m->now >= c->next_bookmark || m->now >= c->deadline) {
		/* everything up to the cluster's latest version was sent: a bookmark may say so */
		char line[256];
		snprintf(line, sizeof(line),
			 "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"%s\",\"apiVersion\":\"%s\",\"metadata\":"
			 "{\"resourceVersion\":\"%llu\"}}}\n",
			 c->r->kind, c->r->api, m->rv);
		append_out(c, line, strlen(line));
		c->cursor = m->rv;
		c->next_bookmark = m->now + m->o.bookmark_ms;
	}
	if (m->now >= c->deadline) /* timeoutSeconds: the server ends it */
		c->finished = 1;
}

/* Send what c has: its status, its bytes in chunks of random sizes, its end. Returns how many
 * things were handed over; *gone when the call is over (ended, or given up by the library). */
static int send_call(mem_cluster *m, mem_call *c, ds_controller *ctrl, int *gone, ds_error *err)
{
	int n = 0, rc;
	*gone = 0;
	if (!c->status_sent) {
		c->status_sent = 1;
		n++;
		if ((rc = ds_controller_io_response(ctrl, c->id, c->status, m->now, err)) != 0) {
			*gone = 1;
			return rc < 0 ? rc : n;
		}
	}
	if (c->op == DS_IO_WATCH)
		watch_fill(m, c);
	while (c->pos < c->len) {
		m->chunks = m->chunks * 1103515245u + 12345u;
		size_t chunk = 1 + (m->chunks >> 8) % 3000;
		if (chunk > c->len - c->pos)
			chunk = c->len - c->pos;
		n++;
		rc = ds_controller_io_data(ctrl, c->id, c->out + c->pos, chunk, m->now, err);
		c->pos += chunk;
		if (rc != 0) {
			*gone = 1;
			return rc < 0 ? rc : n;
		}
	}
	if (c->op == DS_IO_WATCH && c->pos == c->len && !c->finished) { /* all sent: forget it */
		free(c->out);
		c->out = NULL;
		c->len = c->pos = 0;
	}
	if (c->finished && c->pos >= c->len) {
		n++;
		*gone = 1;
		rc = ds_controller_io_end(ctrl, c->id, NULL, m->now, err);
		return rc < 0 ? rc : n;
	}
	return n;
}

static int deliver(mem_cluster *m, ds_controller *ctrl, ds_error *err)
{
	int total = 0;
	mem_call **order = NULL; /* oldest first: the list is newest first */
	size_t n = 0;
	for (mem_call *p = m->open; p; p = p->next)
		n++;
	order = malloc((n ? n : 1) * sizeof(*order));
	if (!order)
		return DS_ENOMEM;
	n = 0;
	for (mem_call *p = m->open; p; p = p->next)
		order[n++] = p;
	for (size_t i = n; i-- > 0;) {
		mem_call *c = order[i];
		int gone = 0;
		int rc = send_call(m, c, ctrl, &gone, err);
		if (gone)
			mem_cancel(m, c->id);
		if (rc < 0) {
			free(order);
			return rc;
		}
		total += rc;
	}
	free(order);
	return total;
}

/* The cluster's next change after now: a pinned pod to bind, a pod to become ready, a graceful
 * deletion to finish, a watch's bookmark or end. -1: none. */
static ds_time next_due(mem_cluster *m)
{
	ds_time due = -1;
#define DUE(t) (due = due < 0 || (t) < due ? (t) : due)
	const char *k;
	json_t *pod;
	json_object_foreach(bucket(m, res_by_name("pods")), k, pod)
	{
		const char *del = meta_str(pod, "deletionTimestamp");
		ds_time when;
		if (del) {
			if (ds_time_parse(del, &when, NULL) == 0)
				DUE(when);
			continue;
		}
		const json_t *spec = json_object_get(pod, "spec");
		const char *node = json_string_value(json_object_get(spec, "nodeName"));
		if (!node || !*node) {
			const char *target = target_node(pod);
			if (target && json_object_get(json_object_get(m->store, "nodes"), target))
				DUE(m->now);
			continue;
		}
		const char *phase = json_string_value(json_object_get(json_object_get(pod, "status"), "phase"));
		ds_time created;
		if ((!phase || strcmp(phase, "Pending") == 0) && !json_object_get(m->broken, node) &&
		    ds_time_parse(meta_str(pod, "creationTimestamp"), &created, NULL) == 0)
			DUE(created + m->o.ready_after_ms);
	}
	for (const mem_call *c = m->open; c; c = c->next)
		if (c->op == DS_IO_WATCH && !c->finished) {
			DUE(c->next_bookmark);
			DUE(c->deadline);
		}
#undef DUE
	return due;
}

int mem_serve(mem_cluster *m, ds_controller *ctrl, int64_t wait_ms, ds_error *err)
{
	int n = deliver(m, ctrl, err);
	if (n != 0)
		return n;
	ds_time target = wait_ms < 0 ? INT64_MAX : m->now + wait_ms;
	ds_time due = next_due(m);
	if (due >= 0 && due < target)
		target = due;
	if (target == INT64_MAX)
		target = m->now + 1000;
	mem_advance(m, target > m->now ? target : m->now);
	return deliver(m, ctrl, err);
}

/* ---- as a host backend ---- */

static ds_time be_now(void *self) { return mem_now(self); }

static int be_start(void *self, const ds_io *io) { return mem_start(self, io); }

static void be_cancel(void *self, uint64_t id) { mem_cancel(self, id); }

static int be_poll(void *self, ds_controller *ctrl, int64_t wait_ms, ds_error *err)
{
	int rc = mem_serve(self, ctrl, wait_ms, err);
	return rc < 0 ? rc : 0;
}

static int be_patch(void *self, const char *resource, const char *ns, const char *name, const char *patch)
{
	return mem_patch(self, resource, ns, name, patch);
}

static void be_close(void *self) { mem_free(self); }

int mem_backend(const char *path, ds_time now, host_backend *b, ds_error *err)
{
	memset(b, 0, sizeof(*b));
	mem_cluster *m = mem_new(now, NULL);
	if (!m)
		return DS_ENOMEM;
	int rc = path ? mem_load_file(m, path, err) : 0;
	if (rc < 0) {
		mem_free(m);
		return rc;
	}
	free(mem_take_events(m, NULL)); /* the first list covers them */
	mem_transport(m, &b->transport);
	b->self = m;
	b->now = be_now;
	b->start = be_start;
	b->cancel = be_cancel;
	b->poll = be_poll;
	b->patch = be_patch;
	b->close = be_close;
	return 0;
}
