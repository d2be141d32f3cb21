/*
 * fakeapiserver: the fake API server of fakeapi.h behind HTTP/1.1 on loopback, for real clients -
 * kubectl, dsrun --url, the kubectl-ds plugin. One thread, poll(2), keep-alive connections,
 * chunked watch streams. It serves what kubectl needs: /version, legacy discovery (/api,
 * /apis, /api/v1, /apis/GROUP/VERSION with subresources, pods/eviction as policy/v1), the
 * REST paths of the resources fakeapi.h serves with their query parameters (labelSelector,
 * fieldSelector, limit, continue, watch, resourceVersion, timeoutSeconds,
 * allowWatchBookmarks, gracePeriodSeconds, propagationPolicy), DeleteOptions bodies, the
 * eviction subresource, and server-side tables (Accept: ...;as=Table) with the columns
 * kube-apiserver's printers give (nodes, pods, DaemonSets, ControllerRevisions, namespaces,
 * the rest NAME and AGE). The fake's clock follows the real one (times --speed).
 *
 *   fakeapiserver [--port N] [--speed X] [--ready-after MS] [--now RFC3339] [--log FILE] FILE...
 *
 * prints "serving on http://127.0.0.1:PORT" once it listens, then serves until SIGTERM or
 * SIGINT. FILEs hold objects to load first (JSON or YAML: objects, Lists, streams).
 * SPDX-License-Identifier: Apache-2.0
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "fakeapi.h"

#define MAX_CONNS 128
#define SERVER_VERSION "v1.35.0"

typedef struct buf {
	char *p;
	size_t len, cap;
} buf;

static void buf_add(buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 8192) + n + 1;
		char *q = realloc(b->p, cap);
		if (!q)
			return;
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void buf_drop(buf *b, size_t n)
{
	memmove(b->p, b->p + n, b->len - n);
	b->len -= n;
	if (b->p)
		b->p[b->len] = '\0';
}

typedef struct conn {
	int fd;
	buf in, out;
	fake_watch *watch; /* a watch streamed as chunks */
	int close_after;   /* close once out is written */
} conn;

static fake_api *api;
static conn conns[MAX_CONNS];
static double speed = 1.0;
static ds_time real0, virt0;
static FILE *reqlog;
static volatile sig_atomic_t stopping;

static ds_time real_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (ds_time)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static ds_time virtual_now(void) { return virt0 + (ds_time)((double)(real_ms() - real0) * speed); }

/* ---- requests ---- */

typedef struct request {
	char method[16];
	char path[8192];  /* decoded, without the query */
	json_t *query;    /* name -> value, decoded */
	const char *body; /* NUL-terminated (may be empty) */
	char content_type[256], accept[1024];
} request;

static int hexval(int c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

static void url_decode(char *s, int plus)
{
	char *o = s;
	for (char *p = s; *p; p++) {
		if (*p == '%' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
			*o++ = (char)(hexval(p[1]) * 16 + hexval(p[2]));
			p += 2;
		} else if (plus && *p == '+')
			*o++ = ' ';
		else
			*o++ = *p;
	}
	*o = '\0';
}

static json_t *parse_query(const char *q)
{
	json_t *o = json_object();
	char *copy = strdup(q ? q : "");
	for (char *save = NULL, *t = strtok_r(copy, "&", &save); t; t = strtok_r(NULL, "&", &save)) {
		char *eq = strchr(t, '=');
		if (eq)
			*eq = '\0';
		url_decode(t, 1);
		char *v = eq ? eq + 1 : (char *)"";
		url_decode(v, 1);
		json_object_set_new(o, t, json_string(v));
	}
	free(copy);
	return o;
}

static const char *qget(const request *rq, const char *k) { return json_string_value(json_object_get(rq->query, k)); }

/* ---- responses ---- */

static const char *reason_phrase(int code)
{
	switch (code) {
	case 200: return "OK";
	case 201: return "Created";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 409: return "Conflict";
	case 410: return "Gone";
	case 415: return "Unsupported Media Type";
	case 422: return "Unprocessable Entity";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 503: return "Service Unavailable";
	default: return "Status";
	}
}

static void respond(conn *c, int code, const char *ctype, const char *body)
{
	char head[512];
	size_t n = body ? strlen(body) : 0;
	int len = snprintf(head, sizeof(head),
			   "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nCache-Control: no-cache, private\r\nContent-Length: "
			   "%zu\r\n%s\r\n",
			   code, reason_phrase(code), ctype, n, c->close_after ? "Connection: close\r\n" : "");
	buf_add(&c->out, head, (size_t)len);
	if (n)
		buf_add(&c->out, body, n);
}

static void respond_json(conn *c, int code, const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT);
	respond(c, code, "application/json", s);
	free(s);
}

static void respond_status(conn *c, int code, const char *reason, const char *msg)
{
	json_t *st = json_pack("{s:s, s:s, s:{}, s:s, s:s, s:s, s:i}", "kind", "Status", "apiVersion", "v1", "metadata",
			       "status", "Failure", "message", msg, "reason", reason, "code", code);
	respond_json(c, code, st);
	json_decref(st);
}

static void not_found(conn *c)
{
	respond_status(c, 404, "NotFound", "the server could not find the requested resource");
}

/* ---- discovery ---- */

static json_t *resources_of(const char *group, const char *version)
{
	json_t *all = fake_resources(), *out = json_array();
	size_t i;
	json_t *r;
	json_array_foreach(all, i, r)
	{
		if (strcmp(json_string_value(json_object_get(r, "group")), group) ||
		    strcmp(json_string_value(json_object_get(r, "version")), version))
			continue;
		const char *name = json_string_value(json_object_get(r, "name"));
		const char *kind = json_string_value(json_object_get(r, "kind"));
		char singular[128];
		snprintf(singular, sizeof(singular), "%s", kind);
		for (char *p = singular; *p; p++)
			*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
		json_t *res =
			json_pack("{s:s, s:s, s:O, s:s, s:[s, s, s, s, s, s, s, s]}", "name", name, "singularName",
				  singular, "namespaced", json_object_get(r, "namespaced"), "kind", kind, "verbs",
				  "create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");
		if (json_array_size(json_object_get(r, "shortNames")))
			json_object_set(res, "shortNames", json_object_get(r, "shortNames"));
		if (!strcmp(name, "daemonsets"))
			json_object_set_new(res, "categories", json_pack("[s]", "all"));
		if (!strcmp(name, "pods"))
			json_object_set_new(res, "categories", json_pack("[s]", "all"));
		json_array_append_new(out, res);
		size_t j;
		json_t *sub;
		json_array_foreach(json_object_get(r, "subresources"), j, sub)
		{
			char full[160];
			snprintf(full, sizeof(full), "%s/%s", name, json_string_value(sub));
			json_t *s;
			if (!strcmp(json_string_value(sub), "eviction"))
				s = json_pack("{s:s, s:s, s:b, s:s, s:s, s:s, s:[s]}", "name", full, "singularName", "",
					      "namespaced", 1, "group", "policy", "version", "v1", "kind", "Eviction",
					      "verbs", "create");
			else if (!strcmp(json_string_value(sub), "binding"))
				s = json_pack("{s:s, s:s, s:b, s:s, s:[s]}", "name", full, "singularName", "",
					      "namespaced", 1, "kind", "Binding", "verbs", "create");
			else
				s = json_pack("{s:s, s:s, s:O, s:s, s:[s, s, s]}", "name", full, "singularName", "",
					      "namespaced", json_object_get(r, "namespaced"), "kind", kind, "verbs",
					      "get", "patch", "update");
			json_array_append_new(out, s);
		}
	}
	json_decref(all);
	return out;
}

/* OpenAPI v3, as far as kubectl asks: the root lists a document per group-version; each
 * document has, per resource, the PATCH operation with its group-version-kind and the
 * fieldValidation query parameter (kubectl's QueryParamVerifierV3 looks for it before it
 * leaves field validation to the server). No schemas: kubectl computes strategic patches
 * from its compiled-in types. */
static int openapi_v3(conn *c, const json_t *all, const char *rest)
{
	size_t i;
	json_t *r;
	if (!*rest) {
		json_t *paths = json_object();
		json_array_foreach(all, i, r)
		{
			const char *g = json_string_value(json_object_get(r, "group"));
			const char *v = json_string_value(json_object_get(r, "version"));
			char key[160], url[256];
			snprintf(key, sizeof(key), "%s%s/%s", *g ? "apis/" : "api", g, v);
			snprintf(url, sizeof(url), "/openapi/v3/%s?hash=FAKE", key);
			json_object_set_new(paths, key, json_pack("{s:s}", "serverRelativeURL", url));
		}
		json_t *root = json_pack("{s:o}", "paths", paths);
		respond_json(c, 200, root);
		json_decref(root);
		return 1;
	}
	json_t *paths = json_object();
	json_array_foreach(all, i, r)
	{
		const char *g = json_string_value(json_object_get(r, "group"));
		const char *v = json_string_value(json_object_get(r, "version"));
		char gv[160], path[300];
		snprintf(gv, sizeof(gv), "/%s%s/%s", *g ? "apis/" : "api", g, v);
		if (strcmp(gv, rest))
			continue;
		snprintf(path, sizeof(path), "%s%s/%s/{name}", gv,
			 json_is_true(json_object_get(r, "namespaced")) ? "/namespaces/{namespace}" : "",
			 json_string_value(json_object_get(r, "name")));
		json_t *op =
			json_pack("{s:{s:s, s:s, s:s}, s:[{s:s, s:s, s:{s:s}}]}", "x-kubernetes-group-version-kind",
				  "group", g, "version", v, "kind", json_string_value(json_object_get(r, "kind")),
				  "parameters", "name", "fieldValidation", "in", "query", "schema", "type", "string");
		json_object_set_new(paths, path, json_pack("{s:o}", "patch", op));
	}
	if (!json_object_size(paths)) {
		json_decref(paths);
		not_found(c);
		return 1;
	}
	json_t *doc = json_pack("{s:s, s:{s:s, s:s}, s:o}", "openapi", "3.0.0", "info", "title", "Kubernetes",
				"version", SERVER_VERSION, "paths", paths);
	respond_json(c, 200, doc);
	json_decref(doc);
	return 1;
}

static int discovery(conn *c, const request *rq)
{
	const char *p = rq->path;
	if (!strcmp(p, "/version")) {
		json_t *v = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "major", "1", "minor", "35",
				      "gitVersion", SERVER_VERSION, "gitCommit", "fakeapiserver", "gitTreeState",
				      "clean", "buildDate", "2026-01-01T00:00:00Z", "goVersion", "go1.25", "compiler",
				      "gc", "platform", "linux/amd64", "emulationMajor", "1");
		respond_json(c, 200, v);
		json_decref(v);
		return 1;
	}
	if (!strcmp(p, "/healthz") || !strcmp(p, "/readyz") || !strcmp(p, "/livez")) {
		respond(c, 200, "text/plain; charset=utf-8", "ok");
		return 1;
	}
	if (!strcmp(p, "/api")) {
		json_t *v = json_pack("{s:s, s:[s], s:[{s:s, s:s}]}", "kind", "APIVersions", "versions", "v1",
				      "serverAddressByClientCIDRs", "clientCIDR", "0.0.0.0/0", "serverAddress",
				      "127.0.0.1");
		respond_json(c, 200, v);
		json_decref(v);
		return 1;
	}
	json_t *all = fake_resources();
	if (!strncmp(p, "/openapi/v3", 11)) {
		int rc = openapi_v3(c, all, p + 11);
		json_decref(all);
		return rc;
	}
	if (!strcmp(p, "/apis")) {
		json_t *groups = json_array(), *seen = json_object();
		size_t i;
		json_t *r;
		json_array_foreach(all, i, r)
		{
			const char *g = json_string_value(json_object_get(r, "group"));
			const char *v = json_string_value(json_object_get(r, "version"));
			if (!*g || json_object_get(seen, g))
				continue;
			json_object_set_new(seen, g, json_true());
			char gv[128];
			snprintf(gv, sizeof(gv), "%s/%s", g, v);
			json_array_append_new(groups, json_pack("{s:s, s:[{s:s, s:s}], s:{s:s, s:s}}", "name", g,
								"versions", "groupVersion", gv, "version", v,
								"preferredVersion", "groupVersion", gv, "version", v));
		}
		json_t *list =
			json_pack("{s:s, s:s, s:o}", "kind", "APIGroupList", "apiVersion", "v1", "groups", groups);
		respond_json(c, 200, list);
		json_decref(list);
		json_decref(seen);
		json_decref(all);
		return 1;
	}
	char group[128] = "", version[64] = "";
	int matched = 0;
	if (!strcmp(p, "/api/v1")) {
		snprintf(version, sizeof(version), "v1");
		matched = 1;
	} else if (sscanf(p, "/apis/%127[^/]/%63[^/]", group, version) == 2 && strchr(p + 6, '/') &&
		   !strchr(strchr(p + 6, '/') + 1, '/')) {
		matched = 1;
	} else if (sscanf(p, "/apis/%127[^/]", group) == 1 && !strchr(p + 6, '/')) { /* an APIGroup */
		size_t i;
		json_t *r;
		json_array_foreach(all, i, r) if (!strcmp(json_string_value(json_object_get(r, "group")), group))
		{
			char gv[256];
			const char *v = json_string_value(json_object_get(r, "version"));
			snprintf(gv, sizeof(gv), "%s/%s", group, v);
			json_t *g = json_pack("{s:s, s:s, s:s, s:[{s:s, s:s}], s:{s:s, s:s}}", "kind", "APIGroup",
					      "apiVersion", "v1", "name", group, "versions", "groupVersion", gv,
					      "version", v, "preferredVersion", "groupVersion", gv, "version", v);
			respond_json(c, 200, g);
			json_decref(g);
			json_decref(all);
			return 1;
		}
	}
	json_decref(all);
	if (!matched)
		return 0;
	json_t *res = resources_of(group, version);
	if (!json_array_size(res)) {
		json_decref(res);
		return 0;
	}
	char gv[256];
	snprintf(gv, sizeof(gv), "%s%s%s", group, *group ? "/" : "", version);
	json_t *list = json_pack("{s:s, s:s, s:s, s:o}", "kind", "APIResourceList", "apiVersion", "v1", "groupVersion",
				 gv, "resources", res);
	respond_json(c, 200, list);
	json_decref(list);
	return 1;
}

/* ---- tables (pkg/printers/internalversion/printers.go) ---- */

/* duration.HumanDuration */
static void human_duration(int64_t ms, char *out, size_t size)
{
	int64_t s = ms / 1000;
	if (s < -1)
		snprintf(out, size, "<invalid>");
	else if (s < 0)
		snprintf(out, size, "0s");
	else if (s < 120)
		snprintf(out, size, "%llds", (long long)s);
	else if (s / 60 < 10)
		s % 60 ? snprintf(out, size, "%lldm%llds", (long long)(s / 60), (long long)(s % 60))
		       : snprintf(out, size, "%lldm", (long long)(s / 60));
	else if (s / 60 < 180)
		snprintf(out, size, "%lldm", (long long)(s / 60));
	else if (s / 3600 < 8)
		(s / 60) % 60 ? snprintf(out, size, "%lldh%lldm", (long long)(s / 3600), (long long)((s / 60) % 60))
			      : snprintf(out, size, "%lldh", (long long)(s / 3600));
	else if (s / 3600 < 48)
		snprintf(out, size, "%lldh", (long long)(s / 3600));
	else if (s / 3600 < 24 * 8)
		(s / 3600) % 24
			? snprintf(out, size, "%lldd%lldh", (long long)(s / 86400), (long long)((s / 3600) % 24))
			: snprintf(out, size, "%lldd", (long long)(s / 86400));
	else if (s / 3600 < 24 * 365 * 2)
		snprintf(out, size, "%lldd", (long long)(s / 86400));
	else if (s / 3600 < 24 * 365 * 8)
		(s / 86400) % 365 ? snprintf(out, size, "%lldy%lldd", (long long)(s / 86400 / 365),
					     (long long)((s / 86400) % 365))
				  : snprintf(out, size, "%lldy", (long long)(s / 86400 / 365));
	else
		snprintf(out, size, "%lldy", (long long)(s / 86400 / 365));
}

static const char *str_at(const json_t *o, const char *a, const char *b)
{
	return json_string_value(json_object_get(json_object_get(o, a), b));
}

static json_t *age_cell(const json_t *obj)
{
	ds_time t;
	const char *ct = str_at(obj, "metadata", "creationTimestamp");
	char out[32] = "<unknown>";
	if (ct && ds_time_parse(ct, &t, NULL) == 0)
		human_duration(fake_now(api) - t, out, sizeof(out));
	return json_string(out);
}

/* labels.FormatLabels: k=v,... sorted, "<none>" when empty. */
static json_t *format_labels(const json_t *m)
{
	if (!json_object_size(m))
		return json_string("<none>");
	size_t n = json_object_size(m), i = 0;
	const char **keys = calloc(n, sizeof(*keys));
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)m, k, v) keys[i++] = k;
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && strcmp(keys[b - 1], keys[b]) > 0; b--) {
			const char *t = keys[b];
			keys[b] = keys[b - 1];
			keys[b - 1] = t;
		}
	buf b = {0};
	for (i = 0; i < n; i++) {
		if (i)
			buf_add(&b, ",", 1);
		buf_add(&b, keys[i], strlen(keys[i]));
		buf_add(&b, "=", 1);
		const char *val = json_string_value(json_object_get(m, keys[i]));
		buf_add(&b, val ? val : "", val ? strlen(val) : 0);
	}
	json_t *s = json_string(b.p);
	free(b.p);
	free(keys);
	return s;
}

static json_t *node_row(const json_t *n, int wide)
{
	const json_t *conds = json_object_get(json_object_get(n, "status"), "conditions");
	const char *ready = "Unknown";
	for (size_t i = 0; i < json_array_size(conds); i++) {
		const json_t *cd = json_array_get(conds, i);
		if (!strcmp(json_string_value(json_object_get(cd, "type")), "Ready"))
			ready = !strcmp(json_string_value(json_object_get(cd, "status")), "True") ? "Ready"
												  : "NotReady";
	}
	char status[64];
	snprintf(status, sizeof(status), "%s%s", ready,
		 json_is_true(json_object_get(json_object_get(n, "spec"), "unschedulable")) ? ",SchedulingDisabled"
											    : "");
	buf roles = {0};
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(json_object_get(n, "metadata"), "labels"), k, v)
	{
		const char *role = !strncmp(k, "node-role.kubernetes.io/", 24) ? k + 24 : NULL;
		if (!role && !strcmp(k, "kubernetes.io/role"))
			role = json_string_value(v);
		if (role && *role) {
			if (roles.len)
				buf_add(&roles, ",", 1);
			buf_add(&roles, role, strlen(role));
		}
	}
	const char *version = json_string_value(
		json_object_get(json_object_get(json_object_get(n, "status"), "nodeInfo"), "kubeletVersion"));
	json_t *row = json_pack("[s, s, s, o, s]", str_at(n, "metadata", "name"), status,
				roles.len ? roles.p : "<none>", age_cell(n), version ? version : "");
	free(roles.p);
	if (wide) {
		const json_t *info = json_object_get(json_object_get(n, "status"), "nodeInfo");
		const char *ip = "<none>";
		const json_t *addrs = json_object_get(json_object_get(n, "status"), "addresses");
		for (size_t i = 0; i < json_array_size(addrs); i++)
			if (!strcmp(json_string_value(json_object_get(json_array_get(addrs, i), "type")), "InternalIP"))
				ip = json_string_value(json_object_get(json_array_get(addrs, i), "address"));
		json_array_append_new(row, json_string(ip));
		json_array_append_new(row, json_string("<none>"));
		const char *keys[] = {"osImage", "kernelVersion", "containerRuntimeVersion"};
		for (int i = 0; i < 3; i++) {
			const char *s = json_string_value(json_object_get(info, keys[i]));
			json_array_append_new(row, json_string(s ? s : "<unknown>"));
		}
	}
	return row;
}

static json_t *pod_row(const json_t *p, int wide)
{
	const json_t *st = json_object_get(p, "status");
	const char *reason = json_string_value(json_object_get(st, "reason"));
	const char *phase = json_string_value(json_object_get(st, "phase"));
	char status[128];
	snprintf(status, sizeof(status), "%s", reason ? reason : phase ? phase : "Unknown");
	const json_t *cs = json_object_get(st, "containerStatuses");
	int total = (int)json_array_size(json_object_get(json_object_get(p, "spec"), "containers")), ready = 0;
	json_int_t restarts = 0;
	for (size_t i = 0; i < json_array_size(cs); i++) {
		const json_t *c = json_array_get(cs, i);
		restarts += json_integer_value(json_object_get(c, "restartCount"));
		const char *waiting = str_at(json_object_get(c, "state"), "waiting", "reason");
		if (waiting && *waiting)
			snprintf(status, sizeof(status), "%s", waiting);
		ready += json_is_true(json_object_get(c, "ready"));
	}
	if (str_at(p, "metadata", "deletionTimestamp"))
		snprintf(status, sizeof(status), "Terminating");
	char readys[32];
	snprintf(readys, sizeof(readys), "%d/%d", ready, total);
	json_t *row =
		json_pack("[s, s, s, I, o]", str_at(p, "metadata", "name"), readys, status, restarts, age_cell(p));
	if (wide) {
		const char *ip = json_string_value(json_object_get(st, "podIP"));
		const char *node = str_at(p, "spec", "nodeName");
		json_array_append_new(row, json_string(ip ? ip : "<none>"));
		json_array_append_new(row, json_string(node ? node : "<none>"));
		json_array_append_new(row, json_string("<none>"));
		json_array_append_new(row, json_string("<none>"));
	}
	return row;
}

static json_int_t st_int(const json_t *o, const char *k)
{
	return json_integer_value(json_object_get(json_object_get(o, "status"), k));
}

static json_t *ds_row(const json_t *d, int wide)
{
	const json_t *spec = json_object_get(d, "spec");
	const json_t *tspec = json_object_get(json_object_get(spec, "template"), "spec");
	json_t *row = json_pack(
		"[s, I, I, I, I, I, o, o]", str_at(d, "metadata", "name"), st_int(d, "desiredNumberScheduled"),
		st_int(d, "currentNumberScheduled"), st_int(d, "numberReady"), st_int(d, "updatedNumberScheduled"),
		st_int(d, "numberAvailable"), format_labels(json_object_get(tspec, "nodeSelector")), age_cell(d));
	if (wide) {
		buf names = {0}, images = {0};
		size_t i;
		json_t *c;
		json_array_foreach(json_object_get(tspec, "containers"), i, c)
		{
			const char *n = json_string_value(json_object_get(c, "name")),
				   *im = json_string_value(json_object_get(c, "image"));
			if (i) {
				buf_add(&names, ",", 1);
				buf_add(&images, ",", 1);
			}
			buf_add(&names, n ? n : "", n ? strlen(n) : 0);
			buf_add(&images, im ? im : "", im ? strlen(im) : 0);
		}
		json_array_append_new(row, json_string(names.p ? names.p : ""));
		json_array_append_new(row, json_string(images.p ? images.p : ""));
		char *sel = json_dumps(json_object_get(spec, "selector"), JSON_COMPACT), *fmt = NULL;
		if (sel && ds_selector_format(sel, strlen(sel), &fmt, NULL) == 0)
			json_array_append_new(row, json_string(fmt));
		else
			json_array_append_new(row, json_string("<none>"));
		ds_free(fmt);
		free(sel);
		free(names.p);
		free(images.p);
	}
	return row;
}

static json_t *revision_row(const json_t *r, int wide)
{
	(void)wide;
	const json_t *refs = json_object_get(json_object_get(r, "metadata"), "ownerReferences");
	char ctrl[300] = "<none>";
	for (size_t i = 0; i < json_array_size(refs); i++) {
		const json_t *ref = json_array_get(refs, i);
		if (json_is_true(json_object_get(ref, "controller"))) {
			const char *kind = json_string_value(json_object_get(ref, "kind"));
			const char *api_version = json_string_value(json_object_get(ref, "apiVersion"));
			const char *slash = api_version ? strchr(api_version, '/') : NULL;
			char lower[64];
			snprintf(lower, sizeof(lower), "%s", kind ? kind : "");
			for (char *q = lower; *q; q++)
				*q = (char)(*q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q);
			if (slash)
				snprintf(ctrl, sizeof(ctrl), "%s.%.*s/%s", lower, (int)(slash - api_version),
					 api_version, json_string_value(json_object_get(ref, "name")));
			else
				snprintf(ctrl, sizeof(ctrl), "%s/%s", lower,
					 json_string_value(json_object_get(ref, "name")));
		}
	}
	return json_pack("[s, s, I, o]", str_at(r, "metadata", "name"), ctrl,
			 json_integer_value(json_object_get(r, "revision")), age_cell(r));
}

static json_t *namespace_row(const json_t *n, int wide)
{
	(void)wide;
	const char *phase = str_at(n, "status", "phase");
	return json_pack("[s, s, o]", str_at(n, "metadata", "name"), phase ? phase : "Active", age_cell(n));
}

static json_t *default_row(const json_t *o, int wide)
{
	(void)wide;
	return json_pack("[s, o]", str_at(o, "metadata", "name"), age_cell(o));
}

typedef struct printer {
	const char *resource;
	const char *columns; /* name:type, '+' before a wide one */
	json_t *(*row)(const json_t *obj, int wide);
} printer;

static const printer printers[] = {
	{"nodes",
	 "Name:string,Status:string,Roles:string,Age:string,Version:string,+Internal-IP:string,+External-IP:string,"
	 "+OS-Image:string,+Kernel-Version:string,+Container-Runtime:string",
	 node_row},
	{"pods",
	 "Name:string,Ready:string,Status:string,Restarts:string,Age:string,+IP:string,+Node:string,+Nominated "
	 "Node:string,+Readiness Gates:string",
	 pod_row},
	{"daemonsets",
	 "Name:string,Desired:integer,Current:integer,Ready:integer,Up-to-date:integer,Available:integer,"
	 "Node Selector:string,Age:string,+Containers:string,+Images:string,+Selector:string",
	 ds_row},
	{"controllerrevisions", "Name:string,Controller:string,Revision:integer,Age:string", revision_row},
	{"namespaces", "Name:string,Status:string,Age:string", namespace_row},
	{NULL, "Name:string,Age:string", default_row},
};

static json_t *to_table(const char *resource, const json_t *v)
{
	const printer *pr = printers;
	while (pr->resource && strcmp(pr->resource, resource))
		pr++;
	json_t *cols = json_array();
	char spec[512];
	snprintf(spec, sizeof(spec), "%s", pr->columns);
	for (char *save = NULL, *t = strtok_r(spec, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int wide = *t == '+';
		char *colon = strchr(t, ':');
		*colon = '\0';
		json_array_append_new(cols, json_pack("{s:s, s:s, s:s, s:s, s:i}", "name", t + wide, "type", colon + 1,
						      "format", !strcmp(t + wide, "Name") ? "name" : "", "description",
						      "", "priority", wide));
	}
	json_t *rows = json_array(), *items = json_object_get(v, "items");
	int single = !json_is_array(items);
	for (size_t i = 0; i < (single ? 1 : json_array_size(items)); i++) {
		const json_t *obj = single ? v : json_array_get(items, i);
		json_t *pom = json_pack("{s:s, s:s, s:O}", "kind", "PartialObjectMetadata", "apiVersion",
					"meta.k8s.io/v1", "metadata", json_object_get(obj, "metadata"));
		json_array_append_new(rows, json_pack("{s:o, s:o}", "cells", pr->row(obj, 1), "object", pom));
	}
	json_t *t = json_pack("{s:s, s:s, s:{}, s:o, s:o}", "kind", "Table", "apiVersion", "meta.k8s.io/v1", "metadata",
			      "columnDefinitions", cols, "rows", rows);
	const json_t *meta = json_object_get(v, "metadata");
	if (!single)
		json_object_set(t, "metadata", (json_t *)meta);
	return t;
}

/* ---- the REST paths ---- */

typedef struct route {
	char resource[128], ns[256], name[256], sub[64];
	int has_ns;
} route;

/* /api/v1/... or /apis/G/V/...: [namespaces/NS/]RESOURCE[/NAME[/SUB]] */
static int parse_route(const char *path, route *rt)
{
	memset(rt, 0, sizeof(*rt));
	const char *rest;
	char group[128] = "", version[64] = "";
	if (!strncmp(path, "/api/v1/", 8)) {
		rest = path + 8;
		snprintf(version, sizeof(version), "v1");
	} else if (sscanf(path, "/apis/%127[^/]/%63[^/]/", group, version) == 2) {
		rest = path + 6 + strlen(group) + 1 + strlen(version) + 1;
	} else
		return -1;
	char parts[5][256];
	int n = 0;
	char *copy = strdup(rest);
	for (char *save = NULL, *t = strtok_r(copy, "/", &save); t && n < 5; t = strtok_r(NULL, "/", &save))
		snprintf(parts[n++], sizeof(parts[0]), "%s", t);
	free(copy);
	int i = 0;
	if (n >= 3 && !strcmp(parts[0], "namespaces")) {
		snprintf(rt->ns, sizeof(rt->ns), "%s", parts[1]);
		rt->has_ns = 1;
		i = 2;
	}
	if (i >= n)
		return -1;
	snprintf(rt->resource, sizeof(rt->resource), "%s", parts[i]);
	if (i + 1 < n)
		snprintf(rt->name, sizeof(rt->name), "%s", parts[i + 1]);
	if (i + 2 < n)
		snprintf(rt->sub, sizeof(rt->sub), "%s", parts[i + 2]);
	/* the resource must be served in that group and version */
	json_t *all = fake_resources();
	int ok = 0;
	size_t k;
	json_t *r;
	json_array_foreach(all, k, r) if (!strcmp(json_string_value(json_object_get(r, "name")), rt->resource) &&
					  !strcmp(json_string_value(json_object_get(r, "group")), group) &&
					  !strcmp(json_string_value(json_object_get(r, "version")), version))
	{
		ok = 1;
		if (!json_is_true(json_object_get(r, "namespaced")) && rt->has_ns)
			ok = 0;
	}
	json_decref(all);
	return ok ? 0 : -1;
}

static void start_watch(conn *c, const route *rt, const request *rq)
{
	const char *to = qget(rq, "timeoutSeconds");
	const char *bm = qget(rq, "allowWatchBookmarks"), *sie = qget(rq, "sendInitialEvents");
	fake_watch_opts o = {qget(rq, "labelSelector"), qget(rq, "fieldSelector"), bm && !strcmp(bm, "true"),
			     sie && !strcmp(sie, "true"), to ? (int64_t)(atof(to) * 1000 * speed) : 0};
	int code = 200;
	char *out = NULL;
	fake_watch *w = fake_watch_open(api, rt->resource, rt->has_ns ? rt->ns : NULL, qget(rq, "resourceVersion"), &o,
					&code, &out);
	if (!w) {
		respond(c, code > 0 ? code : 500, "application/json", out);
		free(out);
		return;
	}
	static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: no-cache, "
				   "private\r\nTransfer-Encoding: chunked\r\n\r\n";
	buf_add(&c->out, head, sizeof(head) - 1);
	c->watch = w;
}

/* DeleteOptions from the body, or from the query (gracePeriodSeconds, propagationPolicy). */
static char *delete_options(const request *rq)
{
	json_t *o = rq->body && *rq->body ? json_loads(rq->body, 0, NULL) : NULL;
	if (!json_is_object(o)) {
		json_decref(o);
		o = json_object();
	}
	const char *g = qget(rq, "gracePeriodSeconds"), *pp = qget(rq, "propagationPolicy");
	if (g && !json_object_get(o, "gracePeriodSeconds"))
		json_object_set_new(o, "gracePeriodSeconds", json_integer(atoll(g)));
	if (pp && !json_object_get(o, "propagationPolicy"))
		json_object_set_new(o, "propagationPolicy", json_string(pp));
	char *s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s;
}

/* Strict field validation (kubectl's --validate=strict) for DaemonSets, through libdaemonset. */
static int strict_fields(conn *c, const request *rq, const route *rt)
{
	const char *fv = qget(rq, "fieldValidation");
	if (!fv || strcmp(fv, "Strict") || strcmp(rt->resource, "daemonsets") || !rq->body || !*rq->body)
		return 0;
	char *out = NULL;
	if (ds_manifest_check_fields(rq->body, strlen(rq->body), NULL, &out, NULL) < 0)
		return 0;
	json_t *v = json_loads(out, 0, NULL);
	ds_free(out);
	const json_t *errs = json_object_get(v, "errors");
	if (!json_array_size(errs)) {
		json_decref(v);
		return 0;
	}
	buf msg = {0};
	const char *kind = "DaemonSet";
	char head[128];
	snprintf(head, sizeof(head), "%s in version \"v1\" cannot be handled as a %s: strict decoding error: ", kind,
		 kind);
	buf_add(&msg, head, strlen(head));
	size_t i;
	json_t *e;
	json_array_foreach(errs, i, e)
	{
		const char *m = json_string_value(json_object_get(e, "message"));
		if (i)
			buf_add(&msg, ", ", 2);
		buf_add(&msg, m ? m : "", m ? strlen(m) : 0);
	}
	respond_status(c, 400, "BadRequest", msg.p);
	free(msg.p);
	json_decref(v);
	return 1;
}

static void answer(conn *c, const request *rq, const route *rt, int code, char *out)
{
	if (code <= 0) { /* a fault without an answer: the connection breaks */
		free(out);
		c->close_after = 1;
		respond_status(c, 503, "ServiceUnavailable", "the fake dropped the answer");
		return;
	}
	if (code < 300 && strstr(rq->accept, "as=Table") && out) {
		json_t *v = json_loads(out, 0, NULL);
		json_t *t = to_table(rt->resource, v);
		respond_json(c, code, t);
		json_decref(t);
		json_decref(v);
	} else {
		respond(c, code, "application/json", out);
	}
	free(out);
}

static void rest(conn *c, const request *rq)
{
	route rt;
	if (parse_route(rq->path, &rt) < 0) {
		not_found(c);
		return;
	}
	const char *ns = rt.has_ns ? rt.ns : NULL, *m = rq->method;
	char *out = NULL;
	int code;
	if (!strcmp(m, "GET") && !rt.name[0]) {
		const char *w = qget(rq, "watch");
		if (w && (!strcmp(w, "true") || !strcmp(w, "1"))) {
			start_watch(c, &rt, rq);
			return;
		}
		const char *limit = qget(rq, "limit");
		fake_list_opts o = {qget(rq, "labelSelector"), qget(rq, "fieldSelector"), limit ? atol(limit) : 0,
				    qget(rq, "continue")};
		code = fake_list(api, rt.resource, ns, &o, &out);
	} else if (!strcmp(m, "GET")) {
		code = fake_get(api, rt.resource, ns, rt.name, &out);
	} else if (!strcmp(m, "POST") && !rt.name[0]) {
		if (strict_fields(c, rq, &rt))
			return;
		code = fake_create(api, rt.resource, ns, rq->body, &out);
	} else if (!strcmp(m, "POST") && !strcmp(rt.resource, "pods") && !strcmp(rt.sub, "eviction")) {
		code = fake_evict(api, ns, rt.name, rq->body, &out);
	} else if (!strcmp(m, "PUT") && rt.name[0]) {
		if (strict_fields(c, rq, &rt))
			return;
		code = fake_update(api, rt.resource, ns, rt.name, rt.sub[0] ? rt.sub : NULL, rq->body, &out);
	} else if (!strcmp(m, "PATCH") && rt.name[0]) {
		code = fake_patch(api, rt.resource, ns, rt.name, rt.sub[0] ? rt.sub : NULL, rq->content_type, rq->body,
				  &out);
	} else if (!strcmp(m, "DELETE")) {
		char *opts = delete_options(rq);
		if (rt.name[0])
			code = fake_delete(api, rt.resource, ns, rt.name, opts, &out);
		else {
			fake_list_opts o = {qget(rq, "labelSelector"), qget(rq, "fieldSelector"), 0, NULL};
			code = fake_delete_collection(api, rt.resource, ns, &o, opts, &out);
		}
		free(opts);
	} else {
		respond_status(c, 405, "MethodNotAllowed",
			       "the server does not allow this method on the requested resource");
		return;
	}
	answer(c, rq, &rt, code, out);
}

/* One complete request at the start of c->in: 1 handled (consumed), 0 incomplete, -1 bad. */
static int handle_one(conn *c)
{
	char *end = strstr(c->in.p ? c->in.p : "", "\r\n\r\n");
	if (!end)
		return c->in.len > 65536 ? -1 : 0;
	size_t head_len = (size_t)(end - c->in.p) + 4;
	long clen = 0;
	request rq;
	memset(&rq, 0, sizeof(rq));
	char target[8192] = "", version[16] = "";
	if (sscanf(c->in.p, "%15s %8191s %15s", rq.method, target, version) != 3)
		return -1;
	for (char *line = strstr(c->in.p, "\r\n") + 2; line < end; line = strstr(line, "\r\n") + 2) {
		char *eol = strstr(line, "\r\n");
		char name[64];
		size_t nl = strcspn(line, ":");
		if (nl >= sizeof(name) || line + nl > eol)
			continue;
		memcpy(name, line, nl);
		name[nl] = '\0';
		const char *val = line + nl + 1;
		while (*val == ' ')
			val++;
		int vlen = (int)(eol - val);
		if (!strcasecmp(name, "Content-Length"))
			clen = atol(val);
		else if (!strcasecmp(name, "Content-Type"))
			snprintf(rq.content_type, sizeof(rq.content_type), "%.*s", vlen, val);
		else if (!strcasecmp(name, "Accept"))
			snprintf(rq.accept, sizeof(rq.accept), "%.*s", vlen, val);
		else if (!strcasecmp(name, "Connection") && !strncasecmp(val, "close", 5))
			c->close_after = 1;
	}
	if (clen < 0 || c->in.len < head_len + (size_t)clen)
		return 0;
	char *body = malloc((size_t)clen + 1);
	memcpy(body, c->in.p + head_len, (size_t)clen);
	body[clen] = '\0';
	rq.body = body;
	char *q = strchr(target, '?');
	rq.query = parse_query(q ? q + 1 : "");
	if (q)
		*q = '\0';
	snprintf(rq.path, sizeof(rq.path), "%s", target);
	url_decode(rq.path, 0);
	size_t before = c->out.len;
	if (!discovery(c, &rq)) {
		if (!strncmp(rq.path, "/api/", 5) || !strncmp(rq.path, "/apis/", 6))
			rest(c, &rq);
		else
			not_found(c);
	}
	if (reqlog) {
		int code = 0;
		if (c->out.len > before)
			sscanf(c->out.p + before, "HTTP/1.1 %d", &code);
		fprintf(reqlog, "%s %s%s%s %s %d\n", rq.method, target, q ? "?" : "", q ? q + 1 : "",
			rq.content_type[0] ? rq.content_type : "-", code);
		fflush(reqlog);
	}
	json_decref(rq.query);
	free(body);
	buf_drop(&c->in, head_len + (size_t)clen);
	return 1;
}

/* The watch's new bytes as chunks; the last chunk when it ends. */
static void pump_watch(conn *c)
{
	char tmp[65536];
	size_t n;
	while ((n = fake_watch_read(c->watch, tmp, sizeof(tmp))) > 0) {
		char head[32];
		int hl = snprintf(head, sizeof(head), "%zx\r\n", n);
		buf_add(&c->out, head, (size_t)hl);
		buf_add(&c->out, tmp, n);
		buf_add(&c->out, "\r\n", 2);
	}
	if (fake_watch_done(c->watch)) {
		buf_add(&c->out, "0\r\n\r\n", 5);
		fake_watch_close(c->watch);
		c->watch = NULL;
	}
}

static void drop(conn *c)
{
	close(c->fd);
	fake_watch_close(c->watch);
	free(c->in.p);
	free(c->out.p);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	buf b = {0};
	char tmp[65536];
	size_t n;
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		buf_add(&b, tmp, n);
	fclose(f);
	*len = b.len;
	return b.p ? b.p : strdup("");
}

int main(int argc, char **argv)
{
	int port = 0;
	fake_options fo = {0};
	const char *at = NULL;
	int nfiles = 0;
	const char *files[64];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--port") && i + 1 < argc)
			port = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--speed") && i + 1 < argc)
			speed = atof(argv[++i]);
		else if (!strcmp(argv[i], "--ready-after") && i + 1 < argc)
			fo.ready_after_ms = atoll(argv[++i]);
		else if (!strcmp(argv[i], "--now") && i + 1 < argc)
			at = argv[++i];
		else if (!strcmp(argv[i], "--log") && i + 1 < argc)
			reqlog = fopen(argv[++i], "w");
		else if (argv[i][0] != '-' && nfiles < 64)
			files[nfiles++] = argv[i];
		else {
			fprintf(stderr,
				"usage: fakeapiserver [--port N] [--speed X] [--ready-after MS] [--now RFC3339] "
				"[--log FILE] FILE...\n");
			return 2;
		}
	}
	real0 = real_ms();
	virt0 = real0 - real0 % 1000;
	if (at && ds_time_parse(at, &virt0, NULL) < 0) {
		fprintf(stderr, "fakeapiserver: --now %s: not an RFC 3339 time\n", at);
		return 2;
	}
	fo.now = virt0;
	api = fake_new(&fo);
	for (int i = 0; i < nfiles; i++) {
		size_t len;
		char *text = read_file(files[i], &len), why[512];
		if (!text || fake_load(api, text, len, why, sizeof(why)) < 0) {
			fprintf(stderr, "fakeapiserver: %s: %s\n", files[i], text ? why : "cannot read it");
			return 1;
		}
		free(text);
	}
	int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	struct sockaddr_in addr = {0};
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	addr.sin_port = htons((uint16_t)port);
	socklen_t alen = sizeof(addr);
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(lfd, 64) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&addr, &alen) < 0) {
		fprintf(stderr, "fakeapiserver: cannot listen on port %d: %s\n", port, strerror(errno));
		return 1;
	}
	fcntl(lfd, F_SETFL, O_NONBLOCK);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	for (int i = 0; i < MAX_CONNS; i++)
		conns[i].fd = -1;
	printf("serving on http://127.0.0.1:%d\n", ntohs(addr.sin_port));
	fflush(stdout);
	while (!stopping) {
		struct pollfd pfd[MAX_CONNS + 1];
		int idx[MAX_CONNS + 1], n = 0;
		pfd[n].fd = lfd;
		pfd[n].events = POLLIN;
		idx[n++] = -1;
		for (int i = 0; i < MAX_CONNS; i++)
			if (conns[i].fd >= 0) {
				pfd[n].fd = conns[i].fd;
				pfd[n].events = POLLIN | (conns[i].out.len ? POLLOUT : 0);
				idx[n++] = i;
			}
		poll(pfd, (nfds_t)n, 10);
		fake_advance(api, virtual_now());
		if (pfd[0].revents & POLLIN)
			for (int fd; (fd = accept(lfd, NULL, NULL)) >= 0;) {
				int slot = -1;
				for (int i = 0; i < MAX_CONNS && slot < 0; i++)
					if (conns[i].fd < 0)
						slot = i;
				if (slot < 0) {
					close(fd);
					continue;
				}
				fcntl(fd, F_SETFL, O_NONBLOCK);
				setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
				conns[slot].fd = fd;
			}
		for (int k = 1; k < n; k++) {
			conn *c = &conns[idx[k]];
			if (c->fd < 0)
				continue;
			if (pfd[k].revents & (POLLIN | POLLHUP | POLLERR)) {
				char tmp[65536];
				ssize_t got = read(c->fd, tmp, sizeof(tmp));
				if (got <= 0 && !(got < 0 && (errno == EAGAIN || errno == EINTR))) {
					drop(c);
					continue;
				}
				if (got > 0)
					buf_add(&c->in, tmp, (size_t)got);
			}
			while (!c->watch && c->in.len) {
				int rc = handle_one(c);
				if (rc < 0) {
					c->close_after = 1;
					respond_status(c, 400, "BadRequest", "malformed request");
					c->in.len = 0;
				}
				if (rc <= 0)
					break;
			}
		}
		for (int i = 0; i < MAX_CONNS; i++) {
			conn *c = &conns[i];
			if (c->fd < 0)
				continue;
			if (c->watch)
				pump_watch(c);
			while (c->out.len) {
				ssize_t w = write(c->fd, c->out.p, c->out.len);
				if (w <= 0)
					break;
				buf_drop(&c->out, (size_t)w);
			}
			if (!c->out.len && c->close_after && !c->watch)
				drop(c);
		}
	}
	for (int i = 0; i < MAX_CONNS; i++)
		if (conns[i].fd >= 0)
			drop(&conns[i]);
	close(lfd);
	fake_free(api);
	if (reqlog)
		fclose(reqlog);
	return 0;
}
