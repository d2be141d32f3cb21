#include "controller/reflector.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "controller/retry.h"
#include "core/alloc.h"
#include "core/jsonfast.h"
#include "model/nodeevent.h"

enum { DSI_R_HALTED = DSI_R_WATCHING + 1 };

/* The cap on the body of an error reply: enough for any Status; the rest is not kept. */
#define STATUS_MAX ((size_t)64 << 10)

static const struct {
	const char *resource, *kind, *prefix;
	int skind, namespaced;
} res[DSI_NREFLECTORS] = {
	{"nodes", "Node", "/api/v1", DSI_KIND_NODE, 0},
	{"pods", "Pod", "/api/v1", DSI_KIND_POD, 1},
	{"daemonsets", "DaemonSet", "/apis/apps/v1", DSI_KIND_DAEMONSET, 1},
	{"controllerrevisions", "ControllerRevision", "/apis/apps/v1", DSI_KIND_REVISION, 1},
};

const char *dsi_refl_resource(int index) { return res[index].resource; }

void dsi_refl_init(dsi_reflector *r, int index)
{
	memset(r, 0, sizeof(*r));
	r->index = index;
	r->state = DSI_R_HALTED;
}

void dsi_refl_release(dsi_reflector *r)
{
	dsi_free(r->rv);
	dsi_free(r->last_error);
	memset(r, 0, sizeof(*r));
}

static const char *rv_of(const dsi_reflector *r) { return r->rv ? r->rv : ""; }

/* relistResourceVersion (reflector.go): "0" for the first list (the watch cache may answer), ""
 * after the version was gone (a consistent read), else the last one seen. */
static const char *relist_rv(const dsi_reflector *r)
{
	if (r->rv_unavailable)
		return "";
	if (!r->rv || !*r->rv)
		return "0";
	return r->rv;
}

static void put_escaped(dsi_strbuf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
		    ch == '.' || ch == '_' || ch == '~') {
			dsi_strbuf_putc(b, (char)ch);
		} else {
			dsi_strbuf_putc(b, '%');
			dsi_strbuf_putc(b, hex[ch >> 4]);
			dsi_strbuf_putc(b, hex[ch & 15]);
		}
	}
}

/* The collection's path: PREFIX[/namespaces/NS]/RESOURCE */
static void put_collection(dsi_strbuf *b, const dsi_controller *c, int i)
{
	dsi_strbuf_puts(b, res[i].prefix);
	if (res[i].namespaced && c->ns_filter) {
		dsi_strbuf_puts(b, "/namespaces/");
		put_escaped(b, c->ns_filter);
	}
	dsi_strbuf_putc(b, '/');
	dsi_strbuf_puts(b, res[i].resource);
}

static void fmt_ms(int64_t ms, char *buf, size_t size)
{
	snprintf(buf, size, "%lld.%03llds", (long long)(ms / 1000), (long long)(ms % 1000));
}

/* Give the reflector's call up (if any) and wait: the failure is counted and logged; after a step
 * of the shared back-off the resource is listed again (relist) or watched from its resourceVersion.
 * why is taken over. */
static int retry(dsi_controller *c, dsi_reflector *r, ds_time now, int relist, int level, char *why, ds_error *err)
{
	if (!why)
		return dsi_error_nomem(err);
	r->failures++;
	dsi_free(r->last_error);
	r->last_error = why;
	int64_t delay = dsi_retry_step(&c->loop.backoff, now, &c->loop.rng);
	char d[32];
	fmt_ms(delay, d, sizeof(d));
	/* the log line first, then the close: the host reads why before it aborts the call */
	int rc = dsi_loop_log(c, level, "%s; %s in %s", why, relist ? "listing again" : "watching again", d);
	if (r->call && dsi_loop_call_close(c, r->call) < 0)
		rc = -1;
	r->call = NULL;
	r->state = relist ? DSI_R_WAIT_LIST : DSI_R_WAIT_WATCH;
	r->due = now + delay;
	return rc < 0 ? dsi_error_nomem(err) : 0;
}

/* ---- starting calls ---- */

/* What a list and a watch start alike: the call (budget ms), the path built in b (freed here) and the
 * resourceVersion kept for the host until the next call, r's call, and io's common fields. */
static int start_call(dsi_controller *c, dsi_reflector *r, int kind, dsi_strbuf *b, const char *rv, ds_time now,
		      int64_t budget, ds_io *io, ds_error *err)
{
	dsi_loop *l = &c->loop;
	dsi_iocall *call = b->oom ? NULL : dsi_loop_call_new(c, kind, now, budget);
	l->io_path = call ? dsi_strbuf_detach(b) : NULL;
	l->io_rv = dsi_strdup(rv);
	dsi_strbuf_free(b);
	if (!call || !l->io_path || !l->io_rv)
		return dsi_error_nomem(err);
	call->refl = r->index;
	r->call = call;
	io->id = call->id;
	io->method = "GET";
	io->path = l->io_path;
	io->resource = res[r->index].resource;
	io->namespace_ = res[r->index].namespaced ? c->ns_filter : NULL;
	io->resource_version = l->io_rv;
	io->timeout_ms = budget;
	return 0;
}

static int start_list(dsi_controller *c, dsi_reflector *r, ds_time now, ds_io *io, ds_error *err)
{
	const char *rv = relist_rv(r);
	dsi_strbuf b = DSI_STRBUF_INIT;
	put_collection(&b, c, r->index);
	if (*rv) {
		dsi_strbuf_puts(&b, "?resourceVersion=");
		put_escaped(&b, rv);
	}
	int rc = start_call(c, r, DSI_CALL_LIST, &b, rv, now, c->ctrl.list_timeout_ms, io, err);
	if (rc < 0)
		return rc;
	r->state = DSI_R_LISTING;
	r->lists++;
	io->op = DS_IO_LIST;
	return 1;
}

static int start_watch(dsi_controller *c, dsi_reflector *r, ds_time now, ds_io *io, ds_error *err)
{
	/* timeoutSeconds random in [minWatchTimeout, 2*minWatchTimeout) (reflector.go's watch) */
	double min_s = (double)(c->ctrl.min_watch_timeout_ms / 1000);
	int64_t timeout_s = (int64_t)(min_s + dsi_rng_float(&c->loop.rng) * min_s);
	if (timeout_s < 1)
		timeout_s = 1;
	dsi_strbuf b = DSI_STRBUF_INIT;
	put_collection(&b, c, r->index);
	/* the query as Go's url.Values.Encode orders it */
	dsi_strbuf_puts(&b, "?allowWatchBookmarks=true&resourceVersion=");
	put_escaped(&b, rv_of(r));
	dsi_strbuf_printf(&b, "&timeoutSeconds=%lld&watch=true", (long long)timeout_s);
	int64_t budget = timeout_s * 1000 + c->ctrl.watch_margin_ms;
	int rc = start_call(c, r, DSI_CALL_WATCH, &b, rv_of(r), now, budget, io, err);
	if (rc < 0)
		return rc;
	r->state = DSI_R_WATCHING;
	r->watches++;
	io->op = DS_IO_WATCH;
	io->timeout_seconds = timeout_s;
	io->allow_watch_bookmarks = 1;
	return 1;
}

int dsi_refl_next(dsi_controller *c, dsi_reflector *r, ds_time now, ds_io *io, ds_error *err)
{
	if (r->due > now)
		return 0;
	if (r->state == DSI_R_WAIT_LIST)
		return start_list(c, r, now, io, err);
	if (r->state == DSI_R_WAIT_WATCH)
		return start_watch(c, r, now, io, err);
	return 0;
}

/* ---- the answers ---- */

/* Keep bytes of an answer: a list or an error reply. A list beyond maxDocumentBytes is given up
 * here, while it streams in; an error reply's body is cut at STATUS_MAX. */
static int keep_body(dsi_controller *c, dsi_reflector *r, dsi_iocall *call, const char *data, size_t size, ds_time now,
		     ds_error *err)
{
	int ok = call->status >= 200 && call->status < 300;
	size_t limit = ok ? c->core.limits.max_bytes : STATUS_MAX;
	if (call->over || size > limit - call->body.len || call->body.len > limit) {
		if (!ok) {
			call->over = 1;
			return 0;
		}
		int rc = retry(
			c, r, now, 1, DS_LOG_ERROR,
			dsi_format("failed to list %s: the reply is larger than maxDocumentBytes (%zu bytes): refused "
				   "as it streamed in",
				   res[r->index].resource, limit),
			err);
		return rc < 0 ? rc : 1;
	}
	dsi_strbuf_append(&call->body, data, size);
	return call->body.oom ? dsi_error_nomem(err) : 0;
}

static int expired(int code, const char *reason, const char *message)
{
	/* isExpiredError (reflector.go): StatusReasonExpired or StatusReasonGone (HTTP 410); and the
	 * message the API server has sent with them, "too old resource version" */
	return code == 410 || (reason && (strcmp(reason, "Expired") == 0 || strcmp(reason, "Gone") == 0)) ||
	       (message && strstr(message, "too old resource version"));
}

/* A watch ERROR event: its Status ends the watch. */
static int watch_error(dsi_controller *c, dsi_reflector *r, const json_t *st, ds_time now, ds_error *err)
{
	const char *msg = json_string_value(json_object_get(st, "message"));
	const char *reason = json_string_value(json_object_get(st, "reason"));
	int code = (int)json_integer_value(json_object_get(st, "code"));
	if (expired(code, reason, msg)) /* relist (as client-go, after a step of the back-off) */
		return retry(c, r, now, 1, DS_LOG_INFO,
			     dsi_format("watch of %s closed with: %s", res[r->index].resource, msg ? msg : "Gone"),
			     err);
	return retry(c, r, now, 1, DS_LOG_WARNING,
		     dsi_format("watch of %s ended with: %s", res[r->index].resource, msg ? msg : "an error event"),
		     err);
}

static int malformed(dsi_controller *c, dsi_reflector *r, uint64_t offset, const char *why, ds_time now, ds_error *err)
{
	return retry(c, r, now, 1, DS_LOG_ERROR,
		     dsi_format("malformed watch event at byte offset %llu of the watch on %s: %s",
				(unsigned long long)offset, res[r->index].resource, why),
		     err);
}

/* One complete event of the watch (the text in call->body, which began at offset). 0: go on; 1:
 * the watch was given up; negative: out of memory. */
static int watch_event(dsi_controller *c, dsi_reflector *r, dsi_iocall *call, uint64_t offset, ds_time now,
		       ds_error *err)
{
	if (res[r->index].skind == DSI_KIND_NODE) {
		/* a kubelet's heartbeat (model/nodeevent.h): what the checks and the handlers below would do
		 * with it (updateNode wakes nobody when the node's verdicts stay), without a tree */
		char *next_rv = dsi_malloc(DSI_NODE_EVENT_RV_MAX + 1);
		const char *rv;
		if (!next_rv)
			return dsi_error_nomem(err);
		if (dsi_cluster_apply_quiet(c->cluster, call->body.data, call->body.len, &rv)) {
			snprintf(next_rv, DSI_NODE_EVENT_RV_MAX + 1, "%s", rv);
			dsi_strbuf_truncate(&call->body, 0);
			dsi_free(r->rv);
			r->rv = next_rv;
			call->events++;
			r->events++;
			return 0;
		}
		dsi_free(next_rv);
	}
	json_error_t je;
	json_t *ev = dsi_json_loadb_fast(call->body.data, call->body.len, 0, &je);
	dsi_strbuf_truncate(&call->body, 0);
	char why[DS_ERROR_PATH_MAX + DS_ERROR_MESSAGE_MAX + 200];
	int rc;
	if (!ev) {
		snprintf(why, sizeof(why), "not JSON: %s", je.text);
		return (rc = malformed(c, r, offset, why, now, err)) < 0 ? rc : 1;
	}
	const char *type = json_string_value(json_object_get(ev, "type"));
	json_t *obj = json_object_get(ev, "object");
	const char *kind = json_string_value(json_object_get(obj, "kind"));
	const char *rv = json_string_value(json_object_get(json_object_get(obj, "metadata"), "resourceVersion"));
	int bookmark = type && strcmp(type, "BOOKMARK") == 0;
	why[0] = '\0';
	if (!type)
		snprintf(why, sizeof(why), "type: required value: ADDED, MODIFIED, DELETED, BOOKMARK or ERROR");
	else if (!json_is_object(obj))
		snprintf(why, sizeof(why), "object: expected an object");
	else if (strcmp(type, "ERROR") == 0) {
		rc = watch_error(c, r, obj, now, err);
		json_decref(ev);
		return rc < 0 ? rc : 1;
	} else if (!bookmark && strcmp(type, "ADDED") != 0 && strcmp(type, "MODIFIED") != 0 &&
		   strcmp(type, "DELETED") != 0)
		snprintf(why, sizeof(why),
			 "type: unsupported value \"%.100s\": expected ADDED, MODIFIED, DELETED, "
			 "BOOKMARK or ERROR",
			 type);
	else if (kind && strcmp(kind, res[r->index].kind) != 0)
		snprintf(why, sizeof(why), "object.kind: expected %s, got \"%.100s\"", res[r->index].kind, kind);
	else if (!rv || !*rv)
		snprintf(why, sizeof(why), "object.metadata.resourceVersion: required value");
	if (why[0]) {
		json_decref(ev);
		return (rc = malformed(c, r, offset, why, now, err)) < 0 ? rc : 1;
	}
	char *next_rv = dsi_strdup(rv);
	if (!next_rv || (!kind && json_object_set_new(obj, "kind", json_string(res[r->index].kind)))) {
		dsi_free(next_rv);
		json_decref(ev);
		return dsi_error_nomem(err);
	}
	ds_error e;
	memset(&e, 0, sizeof(e));
	rc = bookmark ? 0 : dsi_ctrl_handle_event(c, ev, now, &e);
	json_decref(ev);
	if (rc == DS_ENOMEM) {
		dsi_free(next_rv);
		*err = e;
		return rc;
	}
	if (rc < 0) { /* the snapshot refused the object: the cache cannot follow; list again */
		dsi_free(next_rv);
		snprintf(why, sizeof(why), "%s%s%s", e.path, e.path[0] ? ": " : "", e.message);
		return (rc = malformed(c, r, offset, why, now, err)) < 0 ? rc : 1;
	}
	dsi_free(r->rv); /* a bookmark moves it as an event does */
	r->rv = next_rv;
	call->events++;
	r->events++;
	return 0;
}

static int watch_bytes(dsi_controller *c, dsi_reflector *r, dsi_iocall *call, const char *p, size_t n, ds_time now,
		       ds_error *err)
{
	size_t limit = c->core.limits.max_bytes;
	while (n) {
		uint64_t base = call->frame.offset;
		size_t used = 0;
		int st = dsi_jframe_scan(&call->frame, p, n, &used);
		if (st == DSI_JFRAME_BAD) {
			char why[80];
			snprintf(why, sizeof(why), "expected '{' to begin an event, got byte 0x%02x",
				 (unsigned)(unsigned char)p[used]);
			int rc = malformed(c, r, base + used, why, now, err);
			return rc < 0 ? rc : 1;
		}
		if (st == DSI_JFRAME_DONE || call->frame.in_value) {
			/* the event's bytes in this chunk: from where it began (or the chunk's start) */
			size_t from = call->frame.start > base ? (size_t)(call->frame.start - base) : 0;
			size_t len = used - from;
			if (len > limit || call->body.len > limit - len) {
				char why[160];
				snprintf(why, sizeof(why), "the event is larger than maxDocumentBytes (%zu bytes)",
					 limit);
				int rc = malformed(c, r, call->frame.start, why, now, err);
				return rc < 0 ? rc : 1;
			}
			dsi_strbuf_append(&call->body, p + from, len);
			if (call->body.oom)
				return dsi_error_nomem(err);
		}
		if (st == DSI_JFRAME_DONE) {
			int rc = watch_event(c, r, call, call->frame.start, now, err);
			if (rc != 0)
				return rc;
		}
		p += used;
		n -= used;
	}
	return 0;
}

int dsi_refl_data(dsi_controller *c, dsi_reflector *r, dsi_iocall *call, const char *data, size_t size, ds_time now,
		  ds_error *err)
{
	call->bytes += size;
	if (call->kind == DSI_CALL_WATCH && call->status == 200)
		return watch_bytes(c, r, call, data, size, now, err);
	return keep_body(c, r, call, data, size, now, err);
}

/* The host ended the reflector's call: forget it (nothing to close). */
static void ended(dsi_controller *c, dsi_reflector *r)
{
	dsi_loop_call_done(c, r->call);
	r->call = NULL;
}

/* A list's answer, complete: check it, then replace the kind in the snapshot. */
static int list_done(dsi_controller *c, dsi_reflector *r, dsi_iocall *call, ds_time now, ds_error *err)
{
	json_error_t je;
	json_t *list = dsi_json_loadb_fast(call->body.data ? call->body.data : "", call->body.len, 0, &je);
	const char *resource = res[r->index].resource;
	ended(c, r); /* call is gone from here on */
	if (!list)
		return retry(c, r, now, 1, DS_LOG_ERROR,
			     dsi_format("failed to list %s: the reply is not JSON: %s (line %d, column %d)", resource,
					je.text, je.line, je.column),
			     err);
	const char *rv = json_string_value(json_object_get(json_object_get(list, "metadata"), "resourceVersion"));
	char *new_rv = rv && *rv ? dsi_strdup(rv) : NULL;
	ds_error e;
	memset(&e, 0, sizeof(e));
	size_t count = 0;
	int rc = rv && *rv ? (new_rv ? dsi_ctrl_check_list(c, res[r->index].skind, list, &count, &e)
				     : dsi_error_nomem(&e))
			   : dsi_error_set(&e, DS_EMISSING, "metadata.resourceVersion", "required value");
	if (rc == 0)
		rc = dsi_ctrl_replace(c, res[r->index].skind, list, now, &e);
	json_decref(list);
	if (rc == DS_ENOMEM) {
		dsi_free(new_rv);
		*err = e;
		return rc;
	}
	if (rc < 0) {
		dsi_free(new_rv);
		return retry(
			c, r, now, 1, DS_LOG_ERROR,
			dsi_format("failed to list %s: %s%s%s", resource, e.path, e.path[0] ? ": " : "", e.message),
			err);
	}
	dsi_free(r->rv);
	r->rv = new_rv;
	r->rv_unavailable = 0;
	r->synced = 1;
	r->listed_at = now;
	r->state = DSI_R_WAIT_WATCH; /* watch from the list's resourceVersion at once */
	r->due = now;
	return 0;
}

static int list_end(dsi_controller *c, dsi_reflector *r, dsi_iocall *call, const char *error, ds_time now,
		    ds_error *err)
{
	const char *resource = res[r->index].resource;
	if (call->responded && call->status >= 200 && call->status < 300 && !error)
		return list_done(c, r, call, now, err);
	char reason[64];
	dsi_loop_status_reason(call, reason, sizeof(reason));
	char *msg = dsi_loop_status_message(call, error);
	int responded = call->responded, status = call->status;
	ended(c, r);
	if (!msg)
		return dsi_error_nomem(err);
	if (responded && !r->rv_unavailable && expired(status, reason, msg)) {
		/* list's fallback (reflector.go): the version is gone; list at once from etcd */
		r->rv_unavailable = 1;
		r->state = DSI_R_WAIT_LIST;
		r->due = now;
		int rc = dsi_loop_log(c, DS_LOG_INFO, "list of %s: %s; listing again from the latest version", resource,
				      msg);
		dsi_free(msg);
		return rc < 0 ? dsi_error_nomem(err) : 0;
	}
	char *why = dsi_format("failed to list %s: %s", resource, msg);
	dsi_free(msg);
	return retry(c, r, now, 1, DS_LOG_ERROR, why, err);
}

static int watch_end(dsi_controller *c, dsi_reflector *r, dsi_iocall *call, const char *error, ds_time now,
		     ds_error *err)
{
	const char *resource = res[r->index].resource;
	int responded = call->responded, code = call->status, in_value = call->frame.in_value;
	uint64_t start = call->frame.start, events = call->events;
	ds_time started = call->started;
	if (!responded || code != 200) {
		char reason[64];
		dsi_loop_status_reason(call, reason, sizeof(reason));
		char *msg = dsi_loop_status_message(call, error);
		ended(c, r);
		if (!msg)
			return dsi_error_nomem(err);
		/* isWatchErrorRetriable: no answer (connection refused) or 429: watch again after a back-off;
		 * 410: the version is gone; anything else: list again, after a back-off */
		int rewatch = !responded || code == 429;
		int gone = responded && expired(code, reason, msg);
		char *why = gone ? dsi_format("watch of %s closed with: %s", resource, msg)
				 : dsi_format("watch of %s failed: %s", resource, msg);
		dsi_free(msg);
		return retry(c, r, now, !rewatch, gone ? DS_LOG_INFO : DS_LOG_WARNING, why, err);
	}
	ended(c, r);
	if (in_value) /* cut in the middle of an event */
		return malformed(c, r, start, error ? error : "the stream ended in the middle of the event (truncated)",
				 now, err);
	if (error) /* cut between events: nothing was lost; go on from the last resourceVersion */
		return retry(c, r, now, 0, DS_LOG_WARNING, dsi_format("watch of %s ended with: %s", resource, error),
			     err);
	if (now - started < 1000 && events == 0) /* VeryShortWatchError (reflector.go) */
		return retry(
			c, r, now, 1, DS_LOG_WARNING,
			dsi_format("very short watch: %s: Unexpected watch close - watch lasted less than a second and "
				   "no items received",
				   resource),
			err);
	/* the server ended it (timeoutSeconds): watch again from where it was, at once */
	r->state = DSI_R_WAIT_WATCH;
	r->due = now;
	return 0;
}

int dsi_refl_end(dsi_controller *c, dsi_reflector *r, dsi_iocall *call, const char *error, ds_time now, ds_error *err)
{
	return call->kind == DSI_CALL_LIST ? list_end(c, r, call, error, now, err)
					   : watch_end(c, r, call, error, now, err);
}

/* ---- timers ---- */

/* When a watch that hears nothing is given up (-1: never). */
static ds_time idle_deadline(const dsi_controller *c, const dsi_iocall *call)
{
	int64_t idle = c->ctrl.watch_idle_ms;
	return call->kind == DSI_CALL_WATCH && idle > 0 ? call->heard + idle : -1;
}

int dsi_refl_timers(dsi_controller *c, dsi_reflector *r, ds_time now, ds_error *err)
{
	const char *resource = res[r->index].resource;
	dsi_iocall *call = r->call;
	ds_time idle = call ? idle_deadline(c, call) : -1;
	if (call && idle >= 0 && now >= idle && now < call->deadline) {
		char d[32];
		fmt_ms(c->ctrl.watch_idle_ms, d, sizeof(d));
		/* the API server sends a bookmark about every minute: this one is hung. Nothing after
		 * the last resourceVersion was delivered, so the watch goes on from it */
		return retry(c, r, now, 0, DS_LOG_WARNING,
			     dsi_format("watch of %s sent nothing for %s (watchIdleTimeout): closing it", resource, d),
			     err);
	}
	if (call && now >= call->deadline) {
		char d[32];
		fmt_ms(call->deadline - call->started, d, sizeof(d));
		if (r->state == DSI_R_LISTING)
			return retry(c, r, now, 1, DS_LOG_WARNING,
				     dsi_format("list of %s timed out after %s", resource, d), err);
		/* silent past its timeoutSeconds and the margin: a hung connection; nothing after the last
		 * resourceVersion was delivered, so the watch can go on from it */
		return retry(
			c, r, now, 0, DS_LOG_WARNING,
			dsi_format(
				"watch of %s still open %s after it started, past its timeoutSeconds and the margin: "
				"closing it",
				resource, d),
			err);
	}
	int64_t period = c->ctrl.relist_period_ms;
	if (period > 0 && r->synced && (r->state == DSI_R_WATCHING || r->state == DSI_R_WAIT_WATCH) &&
	    now >= r->listed_at + period) {
		if (dsi_loop_log(c, DS_LOG_INFO, "periodic relist of %s (relistPeriod)", resource) < 0 ||
		    (r->call && dsi_loop_call_close(c, r->call) < 0))
			return dsi_error_nomem(err);
		r->call = NULL;
		r->state = DSI_R_WAIT_LIST;
		r->due = now;
	}
	return 0;
}

int64_t dsi_refl_wait(const dsi_controller *c, const dsi_reflector *r, ds_time now)
{
	int64_t w = -1;
	if (r->state == DSI_R_WAIT_LIST || r->state == DSI_R_WAIT_WATCH)
		w = r->due > now ? r->due - now : 0;
	else if (r->call) {
		ds_time until = r->call->deadline, idle = idle_deadline(c, r->call);
		if (idle >= 0 && idle < until)
			until = idle;
		w = until > now ? until - now : 0;
	}
	int64_t period = c->ctrl.relist_period_ms;
	if (period > 0 && r->synced && (r->state == DSI_R_WATCHING || r->state == DSI_R_WAIT_WATCH)) {
		int64_t p = r->listed_at + period > now ? r->listed_at + period - now : 0;
		w = w < 0 || p < w ? p : w;
	}
	return w;
}

int dsi_refl_halt(dsi_controller *c, dsi_reflector *r)
{
	int rc = r->call ? dsi_loop_call_close(c, r->call) : 0;
	r->call = NULL;
	r->state = DSI_R_HALTED;
	return rc;
}

json_t *dsi_refl_status(const dsi_controller *c, const dsi_reflector *r, ds_time now)
{
	static const char *const names[] = {"waitingToList", "listing", "waitingToWatch", "watching", "stopped"};
	json_t *doc = json_pack("{s:s, s:s, s:b, s:I, s:I, s:I, s:I, s:I}", "state", names[r->state], "resourceVersion",
				rv_of(r), "synced", r->synced, "lists", (json_int_t)r->lists, "watches",
				(json_int_t)r->watches, "failures", (json_int_t)r->failures, "events",
				(json_int_t)r->events, "nextInMs", (json_int_t)dsi_refl_wait(c, r, now));
	if (doc && r->last_error && json_object_set_new(doc, "lastError", json_string(r->last_error))) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}
