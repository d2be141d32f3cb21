/* The Kubernetes REST API for the list-watch loop and ds_transport, with libcurl's multi interface
 * (see httptransport.h).
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

/* A transfer on the multi handle: a call of the loop (id), or a write of a sync (reply). */
typedef struct xfer {
	http_client *h;
	CURL *easy; /* NULL: it could not start (finished, with error) */
	struct curl_slist *hdr;
	char *body; /* the request body: curl reads it from here */
	char errbuf[CURL_ERROR_SIZE];
	int loop;        /* a call of the loop */
	uint64_t id;     /* the loop's id */
	int responded;   /* the loop was told the status */
	int paused;      /* its bytes came while the controller was busy: they wait */
	int given_up;    /* the library wants no more of it */
	int finished;    /* curl is done with it */
	CURLcode cc;     /* how it ended */
	char *error;     /* why it failed, when it did */
	ds_reply *reply; /* a write: where a 2xx body goes */
	buf errbody;     /* a write's error reply, for its Status message (cut at STATUS_MAX) */
	int over;        /* the reply went beyond maxDocumentBytes */
	struct xfer *next;
} xfer;

struct http_client {
	char base[512];
	int in_cluster;
	char token_path[4096], ca_path[4096]; /* in-cluster: the service account's files */
	int have_ca;                          /* ca_path was readable at start */
	char *token;                          /* in-cluster: the last token read */
	long timeout_ms;
	CURL *escaper; /* for curl_easy_escape */
	CURLM *multi;  /* every transfer */
	xfer *xfers;
	ds_controller *ctrl; /* during http_poll: where the loop's bytes go */
	int busy;            /* a write runs inside a controller call: the loop's bytes wait */
};

#define STATUS_MAX ((size_t)64 << 10) /* an error reply's Status is small */

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
	char *ens = ns && *ns ? curl_easy_escape(h->escaper, ns, 0) : NULL;
	char *ename = name ? curl_easy_escape(h->escaper, name, 0) : NULL;
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
	/* verified TLS, no redirects (a 3xx is an answer like any other), http and https only */
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	if (h->in_cluster && h->have_ca)
		curl_easy_setopt(e, CURLOPT_CAINFO, h->ca_path);
}

static ds_time wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (ds_time)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void xfer_free(http_client *h, xfer *x)
{
	if (x->easy) {
		curl_multi_remove_handle(h->multi, x->easy);
		curl_easy_cleanup(x->easy);
	}
	curl_slist_free_all(x->hdr);
	free(x->body);
	free(x->error);
	free(x->errbody.data);
	free(x);
}

static void xfer_unlink(http_client *h, xfer *x)
{
	for (xfer **p = &h->xfers; *p; p = &(*p)->next)
		if (*p == x) {
			*p = x->next;
			return;
		}
}

/* The loop learns the status before the first bytes (or at the end, when there are none). */
static int tell_status(http_client *h, xfer *x)
{
	if (x->responded)
		return 0;
	x->responded = 1;
	long status = 0;
	curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
	if (!status)
		return 0; /* no answer: the end says why */
	int rc = ds_controller_io_response(h->ctrl, x->id, (int)status, wall_ms(), NULL);
	if (rc != 0)
		x->given_up = 1;
	return rc;
}

/* A loop call's bytes, straight to the library: no reply is collected here. */
static size_t loop_data(char *p, size_t size, size_t n, void *ud)
{
	xfer *x = ud;
	http_client *h = x->h;
	if (x->given_up)
		return 0;          /* abort the transfer */
	if (h->busy || !h->ctrl) { /* inside a controller call: curl keeps the bytes until http_poll */
		x->paused = 1;
		return CURL_WRITEFUNC_PAUSE;
	}
	if (tell_status(h, x) != 0)
		return 0;
	if (ds_controller_io_data(h->ctrl, x->id, p, size * n, wall_ms(), NULL) != 0) {
		x->given_up = 1;
		return 0;
	}
	return size * n;
}

/* A write's bytes: a 2xx body into the library's reply as it arrives (refused beyond
 * maxDocumentBytes: the transfer stops there), an error body kept for its Status message. */
static size_t write_data(char *p, size_t size, size_t n, void *ud)
{
	xfer *x = ud;
	long status = 0;
	curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
	if (status >= 200 && status < 300) {
		if (x->reply && ds_reply_append2(x->reply, p, size * n, NULL) < 0) {
			x->over = 1;
			return 0;
		}
		return size * n;
	}
	size_t keep = x->errbody.len < STATUS_MAX ? STATUS_MAX - x->errbody.len : 0;
	if (keep > size * n)
		keep = size * n;
	if (keep && buf_add(&x->errbody, p, keep) < 0)
		return 0;
	return size * n;
}

static xfer *xfer_new(http_client *h, const char *method, const char *url, const char *content_type, const char *body,
		      int loop)
{
	xfer *x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->h = h;
	x->loop = loop;
	x->next = h->xfers;
	h->xfers = x;
	if (body && !(x->body = strdup(body))) {
		x->finished = 1;
		x->error = strdup("out of memory");
		return x;
	}
	x->easy = curl_easy_init();
	if (!x->easy) {
		x->finished = 1;
		x->error = strdup("curl could not start a transfer");
		return x;
	}
	common_options(h, x->easy);
	x->hdr = headers(h, content_type);
	curl_easy_setopt(x->easy, CURLOPT_ERRORBUFFER, x->errbuf);
	curl_easy_setopt(x->easy, CURLOPT_URL, url);
	curl_easy_setopt(x->easy, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(x->easy, CURLOPT_HTTPHEADER, x->hdr);
	curl_easy_setopt(x->easy, CURLOPT_PRIVATE, x);
	curl_easy_setopt(x->easy, CURLOPT_WRITEFUNCTION, loop ? loop_data : write_data);
	curl_easy_setopt(x->easy, CURLOPT_WRITEDATA, x);
	if (x->body)
		curl_easy_setopt(x->easy, CURLOPT_POSTFIELDS, x->body);
	if (!loop)
		curl_easy_setopt(x->easy, CURLOPT_TIMEOUT_MS, h->timeout_ms);
	if (curl_multi_add_handle(h->multi, x->easy) != CURLM_OK) {
		x->finished = 1;
		x->error = strdup("curl could not start a transfer");
	}
	return x;
}

/* Finished transfers: noted on each, to be reported by whoever waits for it. */
static void collect(http_client *h)
{
	CURLMsg *msg;
	int left;
	while ((msg = curl_multi_info_read(h->multi, &left))) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		char *priv = NULL;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &priv);
		xfer *x = (xfer *)priv;
		if (!x)
			continue;
		x->finished = 1;
		x->cc = msg->data.result;
		if (x->cc != CURLE_OK && !x->error) { /* what failed, then curl's detail */
			char m[CURL_ERROR_SIZE + 128];
			snprintf(m, sizeof(m), "%s%s%s", curl_easy_strerror(x->cc), x->errbuf[0] ? ": " : "",
				 x->errbuf);
			x->error = strdup(m);
		}
	}
}

/* The API's answer as a transport result: 2xx, 404, 409 (AlreadyExists or a conflict), 422,
 * then what may pass (429, 5xx, the network) and what will not. */
static int result_of(long status, const buf *errbody, ds_reply *reply)
{
	if (status >= 200 && status < 300)
		return DS_TRANSPORT_OK;
	json_t *st = errbody->len ? json_loadb(errbody->data, errbody->len, 0, NULL) : NULL;
	const char *msg = json_string_value(json_object_get(st, "message"));
	const char *reason = json_string_value(json_object_get(st, "reason"));
	char fallback[64];
	snprintf(fallback, sizeof(fallback), "the server answered HTTP %ld", status);
	ds_reply_set_message2(reply, msg ? msg : fallback, NULL);
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

/* One write, on the multi handle, until it is done (the loop's transfers go on meanwhile, their
 * bytes held back). The answer goes into reply (may be NULL). */
static int request(http_client *h, const char *method, const char *url, const char *content_type, const char *body,
		   ds_reply *reply)
{
	xfer *x = xfer_new(h, method, url, content_type, body, 0);
	if (!x) {
		ds_reply_set_message2(reply, "out of memory", NULL);
		return DS_TRANSPORT_TRANSIENT;
	}
	x->reply = reply;
	h->busy++;
	while (!x->finished) {
		int running = 0;
		curl_multi_perform(h->multi, &running);
		collect(h);
		if (!x->finished)
			curl_multi_poll(h->multi, NULL, 0, 100, NULL);
	}
	h->busy--;
	long status = 0;
	if (x->easy)
		curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
	int r;
	if (x->over) {
		ds_reply_set_message2(reply, "the reply is larger than maxDocumentBytes: it was not read further",
				      NULL);
		r = DS_TRANSPORT_FATAL;
	} else if (x->error) {
		ds_reply_set_message2(reply, x->error, NULL);
		r = DS_TRANSPORT_TRANSIENT; /* the request may or may not have arrived: try again later */
	} else {
		r = result_of(status, &x->errbody, reply);
	}
	xfer_unlink(h, x);
	xfer_free(h, x);
	return r;
}

#define URL_OR_FAIL(...)                                                                                               \
	char url[2048];                                                                                                \
	if (url_for(__VA_ARGS__) < 0) {                                                                                \
		ds_reply_set_message2(reply, "no REST path for this resource", NULL);                                  \
		return DS_TRANSPORT_FATAL;                                                                             \
	}

static int tp_list(void *ud, const char *resource, const char *ns, const char *selector, ds_reply *reply)
{
	http_client *h = ud;
	char query[600] = "";
	if (selector && *selector) {
		char *esc = curl_easy_escape(h->escaper, selector, 0);
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
	h->escaper = curl_easy_init();
	h->multi = curl_multi_init();
	if (!h->escaper || !h->multi) {
		snprintf(errbuf, errlen, "curl could not start");
		http_free(h);
		return NULL;
	}
	return h;
}

void http_free(http_client *h)
{
	if (!h)
		return;
	while (h->xfers) {
		xfer *x = h->xfers;
		h->xfers = x->next;
		xfer_free(h, x);
	}
	if (h->multi)
		curl_multi_cleanup(h->multi);
	if (h->escaper)
		curl_easy_cleanup(h->escaper);
	free(h->token);
	free(h);
}

/* ---- the loop's calls ---- */

int http_start(http_client *h, const ds_io *io)
{
	char url[4096];
	int n = snprintf(url, sizeof(url), "%s%s", h->base, io->path);
	const char *ctype = io->body ? "application/json" : NULL;
	xfer *x = xfer_new(h, io->method, n > 0 && (size_t)n < sizeof(url) ? url : "", ctype, io->body, 1);
	if (!x)
		return -1;
	x->id = io->id;
	if ((size_t)n >= sizeof(url) && !x->error) {
		x->finished = 1;
		x->error = strdup("the request path is too long");
	}
	return x->finished ? -1 : 0;
}

void http_cancel(http_client *h, uint64_t id)
{
	for (xfer *x = h->xfers; x; x = x->next)
		if (x->loop && x->id == id) {
			xfer_unlink(h, x);
			xfer_free(h, x);
			return;
		}
}

int http_poll(http_client *h, ds_controller *ctrl, int64_t wait_ms, ds_error *err)
{
	(void)err;
	h->ctrl = ctrl;
	for (xfer *x = h->xfers; x; x = x->next) /* bytes held back during a write go now */
		if (x->paused && x->easy) {
			x->paused = 0;
			curl_easy_pause(x->easy, CURLPAUSE_CONT);
		}
	int running = 0, ended = 0;
	curl_multi_perform(h->multi, &running);
	collect(h);
	for (xfer *x = h->xfers; x && !ended; x = x->next)
		ended = x->loop && x->finished;
	if (!ended && wait_ms != 0) {
		curl_multi_poll(h->multi, NULL, 0, wait_ms < 0 || wait_ms > 60000 ? 60000 : (int)wait_ms, NULL);
		curl_multi_perform(h->multi, &running);
		collect(h);
	}
	for (xfer **p = &h->xfers; *p;) {
		xfer *x = *p;
		if (!x->loop || !x->finished) {
			p = &x->next;
			continue;
		}
		*p = x->next;
		if (!x->given_up && (x->easy ? tell_status(h, x) == 0 : 1))
			ds_controller_io_end(ctrl, x->id, x->error, wall_ms(), NULL);
		xfer_free(h, x);
	}
	h->ctrl = NULL;
	return 0;
}

int http_patch(http_client *h, const char *resource, const char *ns, const char *name, const char *patch)
{
	char url[2048];
	if (url_for(h, url, sizeof(url), resource, ns, name, NULL, NULL) < 0)
		return DS_TRANSPORT_FATAL;
	return request(h, "PATCH", url, DS_PATCH_MERGE, patch, NULL);
}

/* ---- as a host backend ---- */

static ds_time be_now(void *self)
{
	(void)self;
	return wall_ms();
}

static int be_start(void *self, const ds_io *io) { return http_start(self, io); }

static void be_cancel(void *self, uint64_t id) { http_cancel(self, id); }

static int be_poll(void *self, ds_controller *ctrl, int64_t wait_ms, ds_error *err)
{
	return http_poll(self, ctrl, wait_ms, err);
}

static int be_patch(void *self, const char *resource, const char *ns, const char *name, const char *patch)
{
	return http_patch(self, resource, ns, name, patch);
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
	b->start = be_start;
	b->cancel = be_cancel;
	b->poll = be_poll;
	b->patch = be_patch;
	b->close = be_close;
	return 0;
}
