/* libdaemonset's list-watch loop hosted over the fake API server (see fakeloop.h). */
#include "fakeloop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakehost.h"

/* A call of the loop being answered. */
typedef struct lcall {
	uint64_t id;
	int op;
	int status; /* the HTTP status; a FAKE_E* code: no answer came */
	int status_sent;
	char *out; /* bytes still to hand over */
	size_t len, pos;
	size_t cut;   /* hand over no more than this, then end ((size_t)-1: all) */
	int reset;    /* the end is a dropped connection */
	int silent;   /* the status, then nothing */
	int finished; /* an end is due once out is handed over */
	int brk;      /* a watch: the link breaks in its first event (FAKE_LINK_RESET or _TRUNCATE), -1: no */
	fake_watch *w;
	char *line; /* a watch: the event being read from the fake */
	size_t line_len, line_cap;
	struct lcall *next;
} lcall;

struct fake_loop {
	fake_api *api;
	ds_controller *ctrl;
	ds_transport inner, tp; /* the fake's callbacks, and the link's around them */
	unsigned chunks;
	lcall *calls;
	fake_link_fault *faults;
	size_t nfaults;
	long hits, events;
	json_t *watch_calls; /* the index of each watch among the fake's calls */
	json_t *logs;
	json_t *sync_calls; /* what the syncs asked through the transport, in order */
	size_t chunk;       /* the pieces' size (0: at random) */
	char error[512];    /* the library error that ended the last turn */
	int print, stopped;
};

/* A library error: kept for fake_loop_error; -1. */
static int loop_error(fake_loop *l, const char *what, const char *message)
{
	snprintf(l->error, sizeof(l->error), "%s: %s", what, message);
	return -1;
}

/* The public calls that abort on a library error (tests want to see those). */
static void die(const fake_loop *l)
{
	fprintf(stderr, "fakeloop: %s\n", l->error);
	abort();
}

static const fake_link_fault *link_fault(fake_loop *l, int events, long index)
{
	for (size_t i = 0; i < l->nfaults; i++)
		if (l->faults[i].events == events && l->faults[i].index == index) {
			l->hits++;
			return &l->faults[i];
		}
	return NULL;
}

/* ---- the syncs' writes, through the link ---- */

/* A write the link breaks: it went through (the fake did it), its answer did not. */
static int broken_write(const fake_link_fault *f, int result, ds_reply *reply)
{
	if (!f)
		return result;
	if (f->kind == FAKE_LINK_TRUNCATE) {
		ds_reply_set_message2(reply, "unexpected end of JSON input", NULL);
		return DS_TRANSPORT_FATAL;
	}
	ds_reply_set_message2(reply,
			      f->kind == FAKE_LINK_SILENT
				      ? "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
				      : "read: connection reset by peer",
			      NULL);
	return DS_TRANSPORT_TRANSIENT;
}

/* The call a sync made, kept for fake_loop_sync_calls; its result. */
static int kept(fake_loop *l, const char *op, const char *resource, const char *ns, const char *name, int result)
{
	static const char *const results[] = {"OK",      "NOT_FOUND", "CONFLICT", "ALREADY_EXISTS",
					      "INVALID", "TRANSIENT", "FATAL"};
	json_t *c = json_pack("{s:I, s:s, s:s, s:s}", "atMs", (json_int_t)(fake_now(l->api) - FAKE_T0), "op", op,
			      "resource", resource, "result",
			      result >= 0 && result <= DS_TRANSPORT_FATAL ? results[result] : "?");
	if (c && ns)
		json_object_set_new(c, "namespace", json_string(ns));
	if (c && name)
		json_object_set_new(c, "name", json_string(name));
	if (!c || json_array_append_new(l->sync_calls, c))
		abort();
	return result;
}

#define THROUGH_THE_LINK(l, op, resource, ns, name, call)                                                              \
	const fake_link_fault *f_ = link_fault((l), 0, fake_calls((l)->api, NULL, NULL));                              \
	int r_ = (l)->inner.call;                                                                                      \
	return kept((l), (op), (resource), (ns), (name), broken_write(f_, r_, reply))

static int tp_list(void *ud, const char *resource, const char *ns, const char *selector, ds_reply *reply)
{
	fake_loop *l = ud;
	THROUGH_THE_LINK(l, "list", resource, ns, NULL, list(l->inner.user_data, resource, ns, selector, reply));
}

static int tp_get(void *ud, const char *resource, const char *ns, const char *name, ds_reply *reply)
{
	fake_loop *l = ud;
	THROUGH_THE_LINK(l, "get", resource, ns, name, get(l->inner.user_data, resource, ns, name, reply));
}

static int tp_create(void *ud, const char *resource, const char *ns, const char *body, ds_reply *reply)
{
	fake_loop *l = ud;
	THROUGH_THE_LINK(l, "create", resource, ns, NULL, create(l->inner.user_data, resource, ns, body, reply));
}

static int tp_remove(void *ud, const char *resource, const char *ns, const char *name, const char *uid, ds_reply *reply)
{
	fake_loop *l = ud;
	THROUGH_THE_LINK(l, "delete", resource, ns, name, remove(l->inner.user_data, resource, ns, name, uid, reply));
}

static int tp_update_status(void *ud, const char *resource, const char *ns, const char *name, const char *body,
			    ds_reply *reply)
{
	fake_loop *l = ud;
	THROUGH_THE_LINK(l, "updateStatus", resource, ns, name,
			 update_status(l->inner.user_data, resource, ns, name, body, reply));
}

static int tp_patch(void *ud, const char *resource, const char *ns, const char *name, const char *type,
		    const char *body, ds_reply *reply)
{
	fake_loop *l = ud;
	THROUGH_THE_LINK(l, "patch", resource, ns, name,
			 patch(l->inner.user_data, resource, ns, name, type, body, reply));
}

static int tp_event(void *ud, const char *ns, const char *body, ds_reply *reply)
{
	fake_loop *l = ud;
	THROUGH_THE_LINK(l, "event", "events", ns, NULL, record_event(l->inner.user_data, ns, body, reply));
}

/* ---- the loop's calls ---- */

static void answer(lcall *c, int status, char *body)
{
	c->status = status;
	c->out = body;
	c->len = body ? strlen(body) : 0;
	c->finished = 1;
}

int fake_loop_start(fake_loop *l, const ds_io *io)
{
	lcall *c = calloc(1, sizeof(*c));
	if (!c)
		return -1;
	c->id = io->id;
	c->op = io->op;
	c->cut = (size_t)-1;
	c->brk = -1;
	c->next = l->calls;
	l->calls = c;
	long index = fake_calls(l->api, NULL, NULL);
	const fake_link_fault *f = link_fault(l, 0, index);
	if (io->op == DS_IO_WATCH)
		json_array_append_new(l->watch_calls, json_integer(index));
	char *out = NULL;
	int code;
	switch (io->op) {
	case DS_IO_LIST: code = fake_list(l->api, io->resource, io->namespace_, NULL, &out); break;
	case DS_IO_WATCH: {
		fake_watch_opts o = {.bookmarks = io->allow_watch_bookmarks, .timeout_ms = io->timeout_seconds * 1000};
		c->w = fake_watch_open(l->api, io->resource, io->namespace_, io->resource_version, &o, &code, &out);
		break;
	}
	case DS_IO_GET: code = fake_get(l->api, io->resource, io->namespace_, io->name, &out); break;
	case DS_IO_CREATE: code = fake_create(l->api, io->resource, io->namespace_, io->body, &out); break;
	default: code = fake_update(l->api, io->resource, io->namespace_, io->name, NULL, io->body, &out); break;
	}
	if (c->w)
		c->status = 200;
	else
		answer(c, code, out);
	if (f && f->kind == FAKE_LINK_SILENT) {
		c->status = 200;
		c->silent = 1;
	} else if (f && (f->kind == FAKE_LINK_RESET || f->kind == FAKE_LINK_TRUNCATE) && c->status > 0) {
		if (c->w) {
			c->brk = f->kind;
		} else {
			c->cut = c->len / 2;
			c->reset = f->kind == FAKE_LINK_RESET;
		}
	}
	return 0;
}

static void call_free(lcall *c)
{
	fake_watch_close(c->w);
	free(c->out);
	free(c->line);
	free(c);
}

void fake_loop_cancel(fake_loop *l, uint64_t id)
{
	for (lcall **p = &l->calls; *p; p = &(*p)->next)
		if ((*p)->id == id) {
			lcall *c = *p;
			*p = c->next;
			call_free(c);
			return;
		}
}

static void append_out(lcall *c, const char *p, size_t n)
{
	char *d = realloc(c->out, c->len + n + 1);
	if (!d)
		abort();
	memcpy(d + c->len, p, n);
	c->len += n;
	d[c->len] = '\0';
	c->out = d;
}

/* One whole event line (with its newline) onto the bytes to hand over, through the link. */
static void carry_event(fake_loop *l, lcall *c, const char *line, size_t n)
{
	const fake_link_fault *f = link_fault(l, 1, l->events++);
	int kind = f ? f->kind : c->brk;
	c->brk = -1;
	if (kind == FAKE_LINK_MALFORMED) {
		static const char bad[] = "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Pod\",}}\n";
		append_out(c, bad, sizeof(bad) - 1);
	} else if (kind == FAKE_LINK_RESET || kind == FAKE_LINK_TRUNCATE) {
		c->cut = c->len + n / 2;
		c->reset = kind == FAKE_LINK_RESET;
		c->finished = 1;
		append_out(c, line, n);
	} else {
		append_out(c, line, n);
	}
}

/* What the fake's watch has now, line by line. */
static void read_watch(fake_loop *l, lcall *c)
{
	char buf[4096];
	size_t n;
	while (!c->finished && (n = fake_watch_read(c->w, buf, sizeof(buf))) > 0) {
		for (size_t i = 0; i < n && !c->finished; i++) {
			if (c->line_len + 1 > c->line_cap) {
				size_t cap = c->line_cap ? c->line_cap * 2 : 4096;
				char *p = realloc(c->line, cap);
				if (!p)
					abort();
				c->line = p;
				c->line_cap = cap;
			}
			c->line[c->line_len++] = buf[i];
			if (buf[i] == '\n') {
				carry_event(l, c, c->line, c->line_len);
				c->line_len = 0;
			}
		}
	}
	if (!c->finished && fake_watch_done(c->w)) { /* the server ended it */
		if (c->line_len)
			append_out(c, c->line, c->line_len);
		c->line_len = 0;
		c->finished = 1;
	}
}

static ds_time now_of(const fake_loop *l) { return fake_now(l->api); }

/* Hand over what c has. Returns how many things went; *gone once the call is over. */
static int send_call(fake_loop *l, lcall *c, int *gone)
{
	ds_error err;
	int n = 0, rc;
	*gone = 0;
	if (!c->status_sent && c->status > 0) {
		c->status_sent = 1;
		n++;
		if ((rc = ds_controller_io_response(l->ctrl, c->id, c->status, now_of(l), &err)) != 0) {
			if (rc < 0)
				return loop_error(l, "io_response", err.message);
			*gone = 1;
			return n;
		}
	}
	if (c->silent)
		return n;
	if (c->w)
		read_watch(l, c);
	size_t limit = c->cut < c->len ? c->cut : c->len;
	while (c->pos < limit) {
		size_t chunk = l->chunk;
		if (!chunk) {
			l->chunks = l->chunks * 1103515245u + 12345u;
			chunk = 1 + (l->chunks >> 8) % 3000;
		}
		if (chunk > limit - c->pos)
			chunk = limit - c->pos;
		n++;
		rc = ds_controller_io_data(l->ctrl, c->id, c->out + c->pos, chunk, now_of(l), &err);
		c->pos += chunk;
		if (rc != 0) {
			if (rc < 0)
				return loop_error(l, "io_data", err.message);
			*gone = 1;
			return n;
		}
	}
	if (c->w && !c->finished && c->pos == c->len) { /* all handed over: start afresh */
		free(c->out);
		c->out = NULL;
		c->len = c->pos = 0;
	}
	if (c->finished && c->pos >= limit) {
		n++;
		*gone = 1;
		const char *why = c->status <= 0 ? (c->status == FAKE_ETIMEDOUT      ? "context deadline exceeded"
						    : c->status == FAKE_ECONNREFUSED ? "connect: connection refused"
										     : "read: connection reset by peer")
				  : c->reset     ? "read: connection reset by peer"
						 : NULL;
		if (ds_controller_io_end(l->ctrl, c->id, why, now_of(l), &err) < 0)
			return loop_error(l, "io_end", err.message);
	}
	return n;
}

static int deliver(fake_loop *l)
{
	size_t n = 0;
	for (lcall *c = l->calls; c; c = c->next)
		n++;
	lcall **order = malloc((n ? n : 1) * sizeof(*order));
	if (!order)
		abort();
	n = 0;
	for (lcall *c = l->calls; c; c = c->next)
		order[n++] = c;
	int total = 0;
	for (size_t i = n; i-- > 0;) { /* oldest first */
		int gone = 0, sent = send_call(l, order[i], &gone);
		if (sent < 0) {
			free(order);
			return -1;
		}
		total += sent;
		if (gone)
			fake_loop_cancel(l, order[i]->id);
	}
	free(order);
	return total;
}

/* fake_loop_serve, -1 on a library error */
static int serve(fake_loop *l, int64_t wait_ms)
{
	fake_advance(l->api, now_of(l)); /* what is due now (a pod the scheduler can bind at once) */
	int n = deliver(l);
	if (n)
		return n;
	ds_time now = now_of(l), target = wait_ms < 0 ? INT64_MAX : now + wait_ms;
	ds_time due = fake_next_due(l->api);
	if (due >= 0 && due < target)
		target = due;
	if (target == INT64_MAX)
		target = now + 1000;
	fake_advance(l->api, target > now ? target : now);
	return deliver(l);
}

int fake_loop_serve(fake_loop *l, int64_t wait_ms)
{
	int n = serve(l, wait_ms);
	if (n < 0)
		die(l);
	return n;
}

int64_t fake_loop_try_turn(fake_loop *l, int64_t max_wait_ms)
{
	ds_error err;
	for (;;) {
		ds_io io = DS_IO_INIT;
		int op = ds_controller_step(l->ctrl, now_of(l), &io, &err);
		if (op < 0) {
			loop_error(l, "step", err.message);
			return FAKE_LOOP_ERROR;
		}
		switch (op) {
		case DS_IO_LOG:
			json_array_append_new(l->logs, json_string(io.message));
			if (l->print)
				fprintf(stderr, "[%lld] %s\n", (long long)(now_of(l) - FAKE_T0), io.message);
			continue;
		case DS_IO_CLOSE: fake_loop_cancel(l, io.id); continue;
		case DS_IO_STOPPED: l->stopped = 1; return -2;
		case DS_IO_WAIT: {
			int64_t wait = io.wait_ms;
			if (max_wait_ms >= 0 && (wait < 0 || wait > max_wait_ms))
				wait = max_wait_ms;
			return serve(l, wait) < 0 ? FAKE_LOOP_ERROR : io.wait_ms;
		}
		default:
			if (fake_loop_start(l, &io) < 0) {
				loop_error(l, "start", "out of memory");
				return FAKE_LOOP_ERROR;
			}
			continue;
		}
	}
}

int64_t fake_loop_turn(fake_loop *l, int64_t max_wait_ms)
{
	int64_t r = fake_loop_try_turn(l, max_wait_ms);
	if (r == FAKE_LOOP_ERROR)
		die(l);
	return r;
}

/* ---- lifetime and what tests look at ---- */

fake_loop *fake_loop_new(fake_api *api, const ds_options *opts, const ds_controller_config *cfg, unsigned seed,
			 char *errbuf, size_t errlen)
{
	fake_loop *l = calloc(1, sizeof(*l));
	if (!l || !(l->logs = json_array()) || !(l->watch_calls = json_array()) || !(l->sync_calls = json_array())) {
		if (l) {
			json_decref(l->logs);
			json_decref(l->watch_calls);
		}
		free(l);
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	l->api = api;
	l->chunks = seed ? seed : 1;
	fake_transport(api, &l->inner);
	l->tp = l->inner;
	l->tp.user_data = l;
	l->tp.list = tp_list;
	l->tp.get = tp_get;
	l->tp.create = tp_create;
	l->tp.remove = tp_remove;
	l->tp.update_status = tp_update_status;
	l->tp.patch = tp_patch;
	l->tp.record_event = tp_event;
	ds_error err;
	if (ds_controller_new(&l->tp, opts, cfg, &l->ctrl, &err) < 0) {
		snprintf(errbuf, errlen, "%s", err.message);
		json_decref(l->logs);
		json_decref(l->watch_calls);
		json_decref(l->sync_calls);
		free(l);
		return NULL;
	}
	return l;
}

void fake_loop_free(fake_loop *l)
{
	if (!l)
		return;
	while (l->calls) {
		lcall *c = l->calls;
		l->calls = c->next;
		call_free(c);
	}
	ds_controller_free(l->ctrl);
	json_decref(l->logs);
	json_decref(l->watch_calls);
	json_decref(l->sync_calls);
	free(l->faults);
	free(l);
}

ds_controller *fake_loop_controller(const fake_loop *l) { return l->ctrl; }

void fake_loop_add_link_fault(fake_loop *l, const fake_link_fault *f)
{
	fake_link_fault *p = realloc(l->faults, (l->nfaults + 1) * sizeof(*p));
	if (!p)
		abort();
	l->faults = p;
	l->faults[l->nfaults++] = *f;
}

long fake_loop_link_hits(const fake_loop *l) { return l->hits; }

long fake_loop_events(const fake_loop *l) { return l->events; }

const json_t *fake_loop_watch_calls(const fake_loop *l) { return l->watch_calls; }

const json_t *fake_loop_logs(const fake_loop *l) { return l->logs; }

int fake_loop_logged(const fake_loop *l, const char *needle)
{
	int n = 0;
	for (size_t i = 0; i < json_array_size(l->logs); i++)
		n += strstr(json_string_value(json_array_get(l->logs, i)), needle) != NULL;
	return n;
}

void fake_loop_print(fake_loop *l, int on) { l->print = on; }

const json_t *fake_loop_sync_calls(const fake_loop *l) { return l->sync_calls; }

void fake_loop_set_chunk(fake_loop *l, size_t chunk) { l->chunk = chunk; }

const char *fake_loop_error(const fake_loop *l) { return l->error; }
