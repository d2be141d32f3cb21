/* The Kubernetes REST API behind ds_transport, with libcurl (see httptransport.h).
 *
 * In-cluster (http_options.in_cluster), as client-go's rest.InClusterConfig:
 * https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT (an IPv6 host in brackets), the
 * service account's CA (ca.crt) and bearer token (token) from
 * /var/run/secrets/kubernetes.io/serviceaccount. The token is read when the client starts (missing,
 * unreadable or empty: http_new fails) and again before every request, as bound tokens rotate; a
 * read that fails later keeps the last good token. An unreadable ca.crt falls back to the system's
 * trusted CAs, with a warning on stderr.
 *
 * For tests only: the environment variable DSRUN_SERVICEACCOUNT_DIR, read once by http_new,
 * names another directory holding token and ca.crt (tests/python/test_http_transport.py). */
#include "httptransport.h"

#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SA_DIR "/var/run/secrets/kubernetes.io/serviceaccount"
#define SA_DIR_ENV "DSRUN_SERVICEACCOUNT_DIR" /* tests only */
#define TOKEN_MAX (1 << 20)                   /* a JWT is a few kB */

typedef struct buf {
	char *data;
	size_t len, cap;
} buf;

typedef struct watch {
	CURL *easy;
	struct curl_slist *hdr;
	char *resource, *ns, *rv;
	buf line; /* the event being received */
	long status;
} watch;

struct http_client {
	char base[512];
	int in_cluster;
	char token_path[4096], ca_path[4096]; /* in-cluster: the service account's files */
	int have_ca;                          /* ca_path was readable at start */
	char *token;                          /* in-cluster: the last token read */
	long timeout_ms;
	CURL *easy;      /* requests, one at a time */
	CURLM *multi;    /* watches */
	watch **watches; /* each allocated on its own: curl keeps pointers to them */
	size_t nwatches;
	buf events; /* complete watch events not yet polled */
	int relist;
};

static int buf_add(buf *b, const char *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 4096) + n + 1;
		char *d = realloc(b->data, cap);
		if (!d)
			return -1;
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

static size_t to_buf(char *p, size_t size, size_t n, void *ud) { return buf_add(ud, p, size * n) ? 0 : size * n; }

static const struct {
	const char *resource, *prefix;
} groups[] = {
	{"nodes", "/api/v1"},
	{"pods", "/api/v1"},
	{"events", "/api/v1"},
	{"daemonsets", "/apis/apps/v1"},
	{"controllerrevisions", "/apis/apps/v1"},
	{"leases", "/apis/coordination.k8s.io/v1"},
};

/* BASE/api/v1[/namespaces/NS]/RESOURCE[/NAME][/SUB][?QUERY] */
static int url_for(http_client *h, char *out, size_t size, const char *resource, const char *ns, const char *name,
		   const char *sub, const char *query)
{
	const char *prefix = NULL;
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (strcmp(groups[i].resource, resource) == 0)
			prefix = groups[i].prefix;
	if (!prefix)
		return -1;
	char *ens = ns && *ns ? curl_easy_escape(h->easy, ns, 0) : NULL;
	char *ename = name ? curl_easy_escape(h->easy, name, 0) : NULL;
	int n = snprintf(out, size, "%s%s%s%s/%s%s%s%s%s%s%s", h->base, prefix, ens ? "/namespaces/" : "",
			 ens ? ens : "", resource, ename ? "/" : "", ename ? ename : "", sub ? "/" : "", sub ? sub : "",
			 query ? "?" : "", query ? query : "");
	curl_free(ens);
	curl_free(ename);
	return n > 0 && (size_t)n < size ? 0 : -1;
}

/* fileTokenSource.Token (client-go transport/token_source.go): the whole file, spaces trimmed,
 * never empty. The token goes into a header: control characters are refused too. */
static char *read_token(const char *path, char *errbuf, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(errbuf, errlen, "failed to read token file \"%s\": %s", path, strerror(errno));
		return NULL;
	}
	buf b = {0};
	char chunk[4096];
	size_t n;
	int fail = 0;
	while (!fail && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fail = b.len + n > TOKEN_MAX ? EFBIG : buf_add(&b, chunk, n) ? ENOMEM : 0;
	if (!fail && ferror(f))
		fail = errno ? errno : EIO;
	fclose(f);
	if (fail) {
		snprintf(errbuf, errlen, "failed to read token file \"%s\": %s", path, strerror(fail));
		free(b.data);
		return NULL;
	}
	static const char space[] = " \t\n\v\f\r";
	size_t start = 0, end = b.len;
	while (start < end && b.data[start] && strchr(space, b.data[start])) /* strchr finds '\0' too */
		start++;
	while (end > start && b.data[end - 1] && strchr(space, b.data[end - 1]))
		end--;
	if (start == end) {
		snprintf(errbuf, errlen, "read empty token from file \"%s\"", path);
		free(b.data);
		return NULL;
	}
	for (size_t i = start; i < end; i++)
		if ((unsigned char)b.data[i] < 0x20 || b.data[i] == 0x7f) {
			snprintf(errbuf, errlen, "invalid token in file \"%s\": it holds control characters", path);
			free(b.data);
			return NULL;
		}
	memmove(b.data, b.data + start, end - start);
	b.data[end - start] = '\0';
	return b.data;
}

static struct curl_slist *headers(http_client *h, const char *content_type)
{
	struct curl_slist *l = curl_slist_append(NULL, "Accept: application/json");
	if (content_type) {
		char ct[128];
		snprintf(ct, sizeof(ct), "Content-Type: %s", content_type);
		l = curl_slist_append(l, ct);
	}
	if (h->in_cluster) {
		/* bearerAuthRoundTripper.RoundTrip (client-go transport/round_trippers.go): bound tokens
		 * rotate, so read the file each time; if that fails, keep the last good token
		 * (cachingTokenSource.Token, transport/token_source.go). */
		char why[256];
		char *tok = read_token(h->token_path, why, sizeof(why));
		if (tok) {
			free(h->token);
			h->token = tok;
		}
		size_t n = strlen(h->token) + sizeof("Authorization: Bearer ");
		char *hdr = malloc(n);
		if (hdr) {
			snprintf(hdr, n, "Authorization: Bearer %s", h->token);
			l = curl_slist_append(l, hdr);
			free(hdr);
		}
	}
	return l;
}

static void common_options(http_client *h, CURL *e)
{
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
	if (h->in_cluster && h->have_ca)
		curl_easy_setopt(e, CURLOPT_CAINFO, h->ca_path);
}

/* The API's answer as a transport result: 2xx, 404, 409 (AlreadyExists or a conflict),
 * 422, then what may pass (429, 5xx, the network) and what will not. */
static int result_of(long status, const char *body, ds_reply *reply)
{
	if (status >= 200 && status < 300) {
		if (body && reply && ds_reply_append(reply, body, strlen(body)) < 0)
			return DS_TRANSPORT_FATAL;
		return DS_TRANSPORT_OK;
	}
	json_t *st = body ? json_loads(body, 0, NULL) : NULL;
	const char *msg = json_string_value(json_object_get(st, "message"));
	const char *reason = json_string_value(json_object_get(st, "reason"));
	char fallback[64];
	snprintf(fallback, sizeof(fallback), "the server answered HTTP %ld", status);
	ds_reply_set_message(reply, msg ? msg : fallback);
	int r;
	if (status == 404)
		r = DS_TRANSPORT_NOT_FOUND;
	else if (status == 409)
		r = reason && strcmp(reason, "AlreadyExists") == 0 ? DS_TRANSPORT_ALREADY_EXISTS
								   : DS_TRANSPORT_CONFLICT;
	else if (status == 422)
		r = DS_TRANSPORT_INVALID;
	else if (status == 429 || status >= 500)
		r = DS_TRANSPORT_TRANSIENT;
	else
		r = DS_TRANSPORT_FATAL;
	json_decref(st);
	return r;
}

/* One call; the answer goes into reply (may be NULL) and, when out is set, into *out (free()). */
static int request_out(http_client *h, const char *method, const char *url, const char *content_type, const char *body,
		       ds_reply *reply, char **out)
{
	CURL *e = h->easy;
	curl_easy_reset(e);
	common_options(h, e);
	buf resp = {0};
	struct curl_slist *hdr = headers(h, content_type);
	char detail[CURL_ERROR_SIZE] = "";
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, detail);
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, h->timeout_ms);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, to_buf);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &resp);
	if (body)
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
	CURLcode cc = curl_easy_perform(e);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, NULL); /* detail is about to go */
	long status = 0;
	int r;
	if (cc != CURLE_OK) { /* what failed, then curl's detail (which certificate problem, ...) */
		char msg[CURL_ERROR_SIZE + 128];
		snprintf(msg, sizeof(msg), "%s%s%s", curl_easy_strerror(cc), detail[0] ? ": " : "", detail);
		ds_reply_set_message(reply, msg);
		r = DS_TRANSPORT_TRANSIENT; /* the request may or may not have arrived: try again later */
	} else {
		curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
		r = result_of(status, resp.data, reply);
	}
	curl_slist_free_all(hdr);
	if (out)
		*out = resp.data;
	else
		free(resp.data);
	return r;
}

static int request(http_client *h, const char *method, const char *url, const char *content_type, const char *body,
		   ds_reply *reply)
{
	return request_out(h, method, url, content_type, body, reply, NULL);
}

#define URL_OR_FAIL(...)                                                                                               \
	char url[2048];                                                                                                \
	if (url_for(__VA_ARGS__) < 0) {                                                                                \
		ds_reply_set_message(reply, "no REST path for this resource");                                         \
		return DS_TRANSPORT_FATAL;                                                                             \
	}

static int tp_list(void *ud, const char *resource, const char *ns, const char *selector, ds_reply *reply)
{
	http_client *h = ud;
	char query[600] = "";
	if (selector && *selector) {
		char *esc = curl_easy_escape(h->easy, selector, 0);
		snprintf(query, sizeof(query), "labelSelector=%s", esc ? esc : "");
		curl_free(esc);
	}
	URL_OR_FAIL(h, url, sizeof(url), resource, ns, NULL, NULL, query[0] ? query : NULL);
	return request(h, "GET", url, NULL, NULL, reply);
}

static int tp_get(void *ud, const char *resource, const char *ns, const char *name, ds_reply *reply)
{
	http_client *h = ud;
	URL_OR_FAIL(h, url, sizeof(url), resource, ns, name, NULL, NULL);
	return request(h, "GET", url, NULL, NULL, reply);
}

static int tp_create(void *ud, const char *resource, const char *ns, const char *body, ds_reply *reply)
{
	http_client *h = ud;
	URL_OR_FAIL(h, url, sizeof(url), resource, ns, NULL, NULL, NULL);
	return request(h, "POST", url, "application/json", body, reply);
}

static int tp_remove(void *ud, const char *resource, const char *ns, const char *name, const char *uid, ds_reply *reply)
{
	http_client *h = ud;
	URL_OR_FAIL(h, url, sizeof(url), resource, ns, name, NULL, NULL);
	char body[300];
	if (uid) /* DeleteOptions with a uid precondition: never delete a namesake */
		snprintf(body, sizeof(body),
			 "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"preconditions\":{\"uid\":\"%s\"}}", uid);
	return request(h, "DELETE", url, uid ? "application/json" : NULL, uid ? body : NULL, reply);
}

static int tp_update_status(void *ud, const char *resource, const char *ns, const char *name, const char *body,
			    ds_reply *reply)
{
	http_client *h = ud;
	URL_OR_FAIL(h, url, sizeof(url), resource, ns, name, "status", NULL);
	return request(h, "PUT", url, "application/json", body, reply);
}

static int tp_patch(void *ud, const char *resource, const char *ns, const char *name, const char *type,
		    const char *body, ds_reply *reply)
{
	http_client *h = ud;
	URL_OR_FAIL(h, url, sizeof(url), resource, ns, name, NULL, NULL);
	return request(h, "PATCH", url, type, body, reply);
}

static int tp_event(void *ud, const char *ns, const char *body, ds_reply *reply)
{
	http_client *h = ud;
	URL_OR_FAIL(h, url, sizeof(url), "events", ns, NULL, NULL, NULL);
	return request(h, "POST", url, "application/json", body, reply);
}

void http_transport(http_client *h, ds_transport *t)
{
	memset(t, 0, sizeof(*t));
	t->size = sizeof(*t);
	t->user_data = h;
	t->list = tp_list;
	t->get = tp_get;
	t->create = tp_create;
	t->remove = tp_remove;
	t->update_status = tp_update_status;
	t->patch = tp_patch;
	t->record_event = tp_event;
}

http_client *http_new(const http_options *o, char *errbuf, size_t errlen)
{
	static int curl_ready;
	if (!curl_ready) { /* once per process, before any handle */
		curl_global_init(CURL_GLOBAL_DEFAULT);
		curl_ready = 1;
	}
	http_client *h = calloc(1, sizeof(*h));
	if (!h) {
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	h->timeout_ms = o && o->timeout_ms > 0 ? o->timeout_ms : 30000;
	if (o && o->in_cluster) {
		/* InClusterConfig (client-go rest/config.go) */
		const char *host = getenv("KUBERNETES_SERVICE_HOST"), *port = getenv("KUBERNETES_SERVICE_PORT");
		if (!host || !*host || !port || !*port) { /* ErrNotInCluster */
			snprintf(errbuf, errlen,
				 "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
				 "KUBERNETES_SERVICE_PORT must be defined");
			free(h);
			return NULL;
		}
		int v6 = strchr(host, ':') != NULL; /* net.JoinHostPort */
		int n = snprintf(h->base, sizeof(h->base), "https://%s%s%s:%s", v6 ? "[" : "", host, v6 ? "]" : "",
				 port);
		const char *dir = getenv(SA_DIR_ENV);
		if (!dir || !*dir)
			dir = SA_DIR;
		int nt = snprintf(h->token_path, sizeof(h->token_path), "%s/token", dir);
		int nc = snprintf(h->ca_path, sizeof(h->ca_path), "%s/ca.crt", dir);
		if (n < 0 || (size_t)n >= sizeof(h->base) || nt < 0 || (size_t)nt >= sizeof(h->token_path) || nc < 0 ||
		    (size_t)nc >= sizeof(h->ca_path)) {
			snprintf(errbuf, errlen,
				 "unable to load in-cluster configuration: the server address or %s is too long",
				 SA_DIR_ENV);
			free(h);
			return NULL;
		}
		if (!(h->token = read_token(h->token_path, errbuf, errlen))) {
			free(h);
			return NULL;
		}
		FILE *ca = fopen(h->ca_path, "r");
		if (ca) {
			fclose(ca);
			h->have_ca = 1;
		} else { /* client-go logs this and trusts the system's CAs instead */
			fprintf(stderr, "Expected to load root CA config from %s, but got err: %s\n", h->ca_path,
				strerror(errno));
		}
		h->in_cluster = 1;
	} else {
		snprintf(h->base, sizeof(h->base), "%s", o && o->base_url ? o->base_url : "http://127.0.0.1:8001");
		size_t n = strlen(h->base);
		if (n && h->base[n - 1] == '/')
			h->base[n - 1] = '\0';
	}
	h->easy = curl_easy_init();
	h->multi = curl_multi_init();
	if (!h->easy || !h->multi) {
		snprintf(errbuf, errlen, "curl could not start");
		http_free(h);
		return NULL;
	}
	return h;
}

static void watch_stop(http_client *h, watch *w)
{
	if (w->easy) {
		curl_multi_remove_handle(h->multi, w->easy);
		curl_easy_cleanup(w->easy);
		w->easy = NULL;
	}
	curl_slist_free_all(w->hdr);
	w->hdr = NULL;
	free(w->line.data);
	memset(&w->line, 0, sizeof(w->line));
}

void http_unwatch(http_client *h)
{
	for (size_t i = 0; i < h->nwatches; i++) {
		watch_stop(h, h->watches[i]);
		free(h->watches[i]->resource);
		free(h->watches[i]->ns);
		free(h->watches[i]->rv);
		free(h->watches[i]);
	}
	free(h->watches);
	h->watches = NULL;
	h->nwatches = 0;
	h->relist = 0;
}

void http_free(http_client *h)
{
	if (!h)
		return;
	http_unwatch(h);
	if (h->multi)
		curl_multi_cleanup(h->multi);
	if (h->easy)
		curl_easy_cleanup(h->easy);
	free(h->events.data);
	free(h->token);
	free(h);
}

/* A complete event: keep it, remember its resourceVersion, notice 410 Gone. */
static void watch_line(http_client *h, watch *w, const char *line, size_t n)
{
	json_t *ev = json_loadb(line, n, 0, NULL);
	if (!ev)
		return;
	const char *type = json_string_value(json_object_get(ev, "type"));
	json_t *obj = json_object_get(ev, "object");
	if (type && strcmp(type, "ERROR") == 0) {
		if (json_integer_value(json_object_get(obj, "code")) == 410)
			h->relist = 1; /* "too old resource version": list again */
	} else {
		const char *rv =
			json_string_value(json_object_get(json_object_get(obj, "metadata"), "resourceVersion"));
		if (rv) {
			free(w->rv);
			w->rv = strdup(rv);
		}
		if (type && strcmp(type, "BOOKMARK") != 0 && buf_add(&h->events, line, n) == 0)
			buf_add(&h->events, "\n", 1);
	}
	json_decref(ev);
}

static size_t watch_data(char *p, size_t size, size_t n, void *ud)
{
	watch *w = ud;
	return buf_add(&w->line, p, size * n) ? 0 : size * n;
}

static int watch_start(http_client *h, watch *w)
{
	char query[512], url[2048];
	snprintf(query, sizeof(query), "watch=1&allowWatchBookmarks=true%s%s",
		 w->rv && *w->rv ? "&resourceVersion=" : "", w->rv && *w->rv ? w->rv : "");
	if (url_for(h, url, sizeof(url), w->resource, w->ns, NULL, NULL, query) < 0)
		return -1;
	w->easy = curl_easy_init();
	if (!w->easy)
		return -1;
	common_options(h, w->easy);
	w->hdr = headers(h, NULL); /* freed with the handle */
	curl_easy_setopt(w->easy, CURLOPT_URL, url);
	curl_easy_setopt(w->easy, CURLOPT_WRITEFUNCTION, watch_data);
	curl_easy_setopt(w->easy, CURLOPT_WRITEDATA, w);
	curl_easy_setopt(w->easy, CURLOPT_PRIVATE, w);
	curl_easy_setopt(w->easy, CURLOPT_HTTPHEADER, w->hdr);
	curl_multi_add_handle(h->multi, w->easy);
	return 0;
}

int http_watch(http_client *h, const char *resource, const char *ns, const char *rv)
{
	watch **ws = realloc(h->watches, (h->nwatches + 1) * sizeof(*ws));
	if (!ws)
		return -1;
	h->watches = ws;
	watch *w = calloc(1, sizeof(*w));
	if (!w)
		return -1;
	ws[h->nwatches++] = w;
	w->resource = strdup(resource);
	w->ns = ns ? strdup(ns) : NULL;
	w->rv = strdup(rv ? rv : "");
	return watch_start(h, w);
}

/* Split what a watch received into complete lines. */
static void drain_lines(http_client *h, watch *w)
{
	size_t start = 0;
	for (size_t i = 0; i < w->line.len; i++)
		if (w->line.data[i] == '\n') {
			if (i > start)
				watch_line(h, w, w->line.data + start, i - start);
			start = i + 1;
		}
	if (start) {
		memmove(w->line.data, w->line.data + start, w->line.len - start);
		w->line.len -= start;
	}
}

char *http_poll(http_client *h, long timeout_ms, size_t *len, int *relist)
{
	int running = 0;
	curl_multi_perform(h->multi, &running);
	if (!h->events.len)
		curl_multi_poll(h->multi, NULL, 0, (int)(timeout_ms > 0 ? timeout_ms : 0), NULL);
	curl_multi_perform(h->multi, &running);
	for (size_t i = 0; i < h->nwatches; i++)
		drain_lines(h, h->watches[i]);
	CURLMsg *msg;
	int left;
	while ((msg = curl_multi_info_read(h->multi, &left))) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		char *priv = NULL;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &priv);
		watch *w = (watch *)priv;
		if (!w)
			continue;
		long status = 0;
		curl_easy_getinfo(w->easy, CURLINFO_RESPONSE_CODE, &status);
		drain_lines(h, w);
		watch_stop(h, w);
		if (status == 410)
			h->relist = 1;
		else
			watch_start(h, w); /* the server ended it (timeout): go on from where it was */
	}
	if (relist)
		*relist = h->relist;
	char *out = h->events.data;
	if (len)
		*len = h->events.len;
	memset(&h->events, 0, sizeof(h->events));
	return out;
}

int http_patch(http_client *h, const char *resource, const char *ns, const char *name, const char *patch)
{
	char url[2048];
	if (url_for(h, url, sizeof(url), resource, ns, name, NULL, NULL) < 0)
		return DS_TRANSPORT_FATAL;
	CURL *e = h->easy;
	curl_easy_reset(e);
	common_options(h, e);
	buf resp = {0};
	struct curl_slist *hdr = headers(h, DS_PATCH_MERGE);
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, "PATCH");
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(e, CURLOPT_POSTFIELDS, patch);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, to_buf);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &resp);
	CURLcode cc = curl_easy_perform(e);
	long status = 0;
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(hdr);
	free(resp.data);
	if (cc != CURLE_OK)
		return DS_TRANSPORT_TRANSIENT;
	return status >= 200 && status < 300 ? DS_TRANSPORT_OK
	       : status == 404               ? DS_TRANSPORT_NOT_FOUND
					     : DS_TRANSPORT_FATAL;
}

/* ---- as a host backend ---- */

static ds_time be_now(void *self)
{
	(void)self;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (ds_time)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static char *be_wait(void *self, long wait_ms, size_t *len, int *relist)
{
	char *ev = http_poll(self, wait_ms, len, relist);
	if (*relist)
		http_unwatch(self); /* the host lists again and watches from there */
	return ev;
}

static int be_watch(void *self, const char *resource, const char *rv) { return http_watch(self, resource, NULL, rv); }

static int be_patch(void *self, const char *resource, const char *ns, const char *name, const char *patch)
{
	return http_patch(self, resource, ns, name, patch);
}

static int be_request(void *self, const char *method, const char *resource, const char *ns, const char *name,
		      const char *body, char **out)
{
	char url[2048];
	*out = NULL;
	if (url_for(self, url, sizeof(url), resource, ns, strcmp(method, "POST") ? name : NULL, NULL, NULL) < 0)
		return DS_TRANSPORT_FATAL;
	return request_out(self, method, url, body ? "application/json" : NULL, body, NULL, out);
}

static void be_close(void *self) { http_free(self); }

int http_backend(const http_options *o, host_backend *b, char *errbuf, size_t errlen)
{
	memset(b, 0, sizeof(*b));
	http_client *h = http_new(o, errbuf, errlen);
	if (!h)
		return -1;
	http_transport(h, &b->transport);
	b->self = h;
	b->now = be_now;
	b->wait = be_wait;
	b->watch = be_watch;
	b->patch = be_patch;
	b->request = be_request;
	b->close = be_close;
	return 0;
}
