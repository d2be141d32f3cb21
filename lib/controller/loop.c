/*
 * The list-watch loop's entry points (ds_controller_step and the ds_controller_io_*
 * calls): which action the host gets next, the calls it performs, and the notes
 * (closes, log lines) it is told before anything new starts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "controller/controller.h"
#include "controller/elector.h"
#include "controller/queue.h"
#include "controller/reflector.h"
#include "core/alloc.h"
#include "core/jsonfast.h"

enum { MAX_LOGS = 1000 }; /* log lines kept for the host; beyond, they are counted and dropped */

/* ---- notes ---- */

static int add_note(dsi_loop *l, int op, uint64_t id, int level, char *message)
{
	dsi_note *n = dsi_calloc(1, sizeof(*n));
	if (!n) {
		dsi_free(message);
		return -1;
	}
	n->op = op;
	n->id = id;
	n->level = level;
	n->message = message;
	if (l->notes_tail)
		l->notes_tail->next = n;
	else
		l->notes = n;
	l->notes_tail = n;
	return 0;
}

int dsi_loop_log(dsi_controller *c, int level, const char *fmt, ...)
{
	dsi_loop *l = &c->loop;
	if (l->nlogs >= MAX_LOGS) {
		l->dropped_logs++;
		return 0;
	}
	va_list ap;
	va_start(ap, fmt);
	char *msg = dsi_vformat(fmt, ap);
	va_end(ap);
	if (!msg || add_note(l, DS_IO_LOG, 0, level, msg) < 0)
		return -1;
	l->nlogs++;
	return 0;
}

static dsi_note *pop_note(dsi_loop *l)
{
	dsi_note *n = l->notes;
	if (n) {
		l->notes = n->next;
		if (!l->notes)
			l->notes_tail = NULL;
		if (n->op == DS_IO_LOG)
			l->nlogs--;
	}
	return n;
}

/* ---- calls ---- */

dsi_iocall *dsi_loop_call_new(dsi_controller *c, int kind, ds_time now, int64_t timeout_ms)
{
	dsi_loop *l = &c->loop;
	dsi_iocall *call = dsi_calloc(1, sizeof(*call));
	if (!call)
		return NULL;
	call->id = ++l->next_id;
	call->kind = kind;
	call->refl = -1;
	call->started = now;
	call->heard = now;
	call->deadline = now + (timeout_ms > 0 ? timeout_ms : 1);
	call->next = l->calls;
	l->calls = call;
	l->requests++;
	return call;
}

static void call_free(dsi_iocall *call)
{
	dsi_strbuf_free(&call->body);
	dsi_free(call->failure);
	dsi_free(call);
}

static void call_unlink(dsi_loop *l, dsi_iocall *call)
{
	for (dsi_iocall **p = &l->calls; *p; p = &(*p)->next)
		if (*p == call) {
			*p = call->next;
			return;
		}
}

void dsi_loop_call_done(dsi_controller *c, dsi_iocall *call)
{
	call_unlink(&c->loop, call);
	call_free(call);
}

int dsi_loop_call_close(dsi_controller *c, dsi_iocall *call)
{
	uint64_t id = call->id;
	dsi_loop_call_done(c, call);
	return add_note(&c->loop, DS_IO_CLOSE, id, 0, NULL);
}

static dsi_iocall *find_call(dsi_loop *l, uint64_t id)
{
	for (dsi_iocall *call = l->calls; call; call = call->next)
		if (call->id == id)
			return call;
	return NULL;
}

/* The message of an error reply: its Status' message, else what the status means. */
char *dsi_loop_status_message(const dsi_iocall *call, const char *error)
{
	json_t *st =
		call->body.len && !call->over ? dsi_json_loadb_fast(call->body.data, call->body.len, 0, NULL) : NULL;
	const char *msg = json_string_value(json_object_get(st, "message"));
	char buf[160];
	if (!msg && call->responded)
		snprintf(buf, sizeof(buf), "the server answered HTTP %d", call->status);
	else if (!msg)
		snprintf(buf, sizeof(buf), "no answer");
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_strbuf_puts(&b, msg ? msg : buf);
	if (error && *error) {
		dsi_strbuf_puts(&b, ": ");
		dsi_strbuf_puts(&b, error);
	}
	json_decref(st);
	char *out = dsi_strbuf_detach(&b);
	dsi_strbuf_free(&b);
	return out;
}

/* The Status' reason of an error reply ("Expired", "Gone", ...), copied into buf ("" when none). */
void dsi_loop_status_reason(const dsi_iocall *call, char *buf, size_t size)
{
	json_t *st =
		call->body.len && !call->over ? dsi_json_loadb_fast(call->body.data, call->body.len, 0, NULL) : NULL;
	const char *r = json_string_value(json_object_get(st, "reason"));
	snprintf(buf, size, "%s", r ? r : "");
	json_decref(st);
}

/* ---- lifetime ---- */

void dsi_loop_init(dsi_controller *c)
{
	dsi_loop *l = &c->loop;
	memset(l, 0, sizeof(*l));
	for (int i = 0; i < DSI_NREFLECTORS; i++)
		dsi_refl_init(&l->refl[i], i);
	dsi_retry_init(&l->backoff, c->ctrl.backoff_initial_ms, c->ctrl.backoff_max_ms, c->ctrl.backoff_reset_ms);
}

int dsi_loop_set_lease(dsi_controller *c, const ds_lease_config *cfg, ds_error *err)
{
	dsi_loop *l = &c->loop;
	if (l->started)
		return dsi_error_set(err, DS_ESTATE, NULL, "set the lease before the first step");
	dsi_elector *e;
	int rc = dsi_elector_new(cfg, c->ctrl.lease_retry_ms, &e, err);
	if (rc < 0)
		return rc;
	dsi_elector_free(l->elector);
	l->elector = e;
	return 0;
}

static void free_io_strings(dsi_loop *l)
{
	dsi_free(l->io_path);
	dsi_free(l->io_rv);
	dsi_free(l->io_body);
	dsi_free(l->io_message);
	dsi_free(l->io_ns);
	dsi_free(l->io_name);
	l->io_path = l->io_rv = l->io_body = l->io_message = l->io_ns = l->io_name = NULL;
}

void dsi_loop_destroy(dsi_loop *l)
{
	while (l->calls) {
		dsi_iocall *call = l->calls;
		l->calls = call->next;
		call_free(call);
	}
	for (dsi_note *n = pop_note(l); n; n = pop_note(l)) {
		dsi_free(n->message);
		dsi_free(n);
	}
	for (int i = 0; i < DSI_NREFLECTORS; i++)
		dsi_refl_release(&l->refl[i]);
	dsi_elector_free(l->elector);
	free_io_strings(l);
	memset(l, 0, sizeof(*l));
}

/* ---- the step ---- */

/* The seed option, or one made from the first step's time and where the controller lives, so that
 * replicas started together still draw apart. */
static void start(dsi_controller *c, ds_time now)
{
	dsi_loop *l = &c->loop;
	uint64_t seed = (uint64_t)c->ctrl.seed;
	if (!seed)
		seed = (uint64_t)now * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)c;
	dsi_rng_seed(&l->rng, seed);
	for (int i = 0; i < DSI_NREFLECTORS; i++) {
		l->refl[i].state = DSI_R_WAIT_LIST;
		l->refl[i].due = now;
	}
	if (l->elector)
		dsi_elector_start(l->elector, now);
	l->started = 1;
}

static int allowed(const dsi_loop *l, ds_time now)
{
	return !l->stopping && !l->stopped && (!l->elector || dsi_elector_leading(l->elector, now));
}

/* processNextWorkItem's error report (daemon_controller.go): HandleError(fmt.Errorf("%v failed with : %w")). */
static int log_sync(void *ctx, const char *key, const dsi_sync_report *rep, ds_error *err)
{
	dsi_controller *c = ctx;
	if (rep->error && dsi_loop_log(c, DS_LOG_ERROR, "%s failed with : %s", key, rep->error) < 0)
		return dsi_error_nomem(err);
	return 0;
}

/* Every reflector, call and timer that has something to say at now. */
static int64_t min_wait(int64_t a, int64_t b) { return a < 0 ? b : b < 0 ? a : a < b ? a : b; }

static int stop_everything(dsi_controller *c)
{
	int rc = 0;
	for (int i = 0; i < DSI_NREFLECTORS; i++)
		if (dsi_refl_halt(c, &c->loop.refl[i]) < 0)
			rc = -1;
	return rc;
}

static void fill_note(dsi_loop *l, dsi_note *n, ds_io *io)
{
	io->op = n->op;
	io->id = n->id;
	io->level = n->level;
	l->io_message = n->message;
	io->message = n->message;
	dsi_free(n);
}

int dsi_loop_step(dsi_controller *c, ds_time now, ds_io *io, ds_error *err)
{
	dsi_loop *l = &c->loop;
	free_io_strings(l);
	if (!l->started)
		start(c, now);
	int rc = 0;
	/* timers: calls past their deadline, leadership, periodic relists */
	if (l->elector && !l->stopped) {
		int lost = 0;
		if ((rc = dsi_elector_timers(c, l->elector, now, &lost, err)) < 0)
			return rc;
		if (lost && !l->stopping) {
			if (stop_everything(c) < 0 || dsi_loop_log(c, DS_LOG_ERROR, "leaderelection lost") < 0)
				return dsi_error_nomem(err);
			l->stopped = 1;
		}
	}
	for (int i = 0; i < DSI_NREFLECTORS && !l->stopped; i++)
		if ((rc = dsi_refl_timers(c, &l->refl[i], now, err)) < 0)
			return rc;
	dsi_note *n = pop_note(l);
	if (n) {
		fill_note(l, n, io);
		return io->op;
	}
	if (l->dropped_logs) {
		char buf[96];
		snprintf(buf, sizeof(buf), "%llu log lines were dropped: the host did not take them",
			 (unsigned long long)l->dropped_logs);
		l->dropped_logs = 0;
		if (!(l->io_message = dsi_strdup(buf)))
			return dsi_error_nomem(err);
		io->op = DS_IO_LOG;
		io->level = DS_LOG_WARNING;
		io->message = l->io_message;
		return io->op;
	}
	if (l->stopped) {
		io->op = DS_IO_STOPPED;
		return io->op;
	}
	if (l->elector) {
		int started = dsi_elector_next(c, l->elector, now, l->stopping, io, err);
		if (started)
			return started < 0 ? started : io->op;
		if (l->stopping && !dsi_elector_busy(l->elector)) {
			l->stopped = 1;
			io->op = DS_IO_STOPPED;
			return io->op;
		}
	} else if (l->stopping) {
		l->stopped = 1;
		io->op = DS_IO_STOPPED;
		return io->op;
	}
	if (allowed(l, now)) {
		for (int i = 0; i < DSI_NREFLECTORS; i++) {
			int started = dsi_refl_next(c, &l->refl[i], now, io, err);
			if (started)
				return started < 0 ? started : io->op;
		}
		int synced = 1;
		for (int i = 0; i < DSI_NREFLECTORS; i++)
			synced &= l->refl[i].synced;
		l->cache_synced = synced;
		if (synced) { /* WaitForCacheSync, then the workers */
			int64_t ignored;
			if ((rc = dsi_ctrl_run(c, now, &ignored, NULL, log_sync, c, err)) < 0)
				return rc;
			if ((n = pop_note(l))) {
				fill_note(l, n, io);
				return io->op;
			}
		}
	}
	int64_t wait = -1;
	int go = allowed(l, now); /* the reflectors wait for the lease */
	for (int i = 0; i < DSI_NREFLECTORS && go; i++)
		wait = min_wait(wait, dsi_refl_wait(c, &l->refl[i], now));
	if (l->elector)
		wait = min_wait(wait, dsi_elector_wait(l->elector, now));
	if (go && l->cache_synced)
		wait = min_wait(wait, dsi_queue_wait(&c->table, now));
	io->op = DS_IO_WAIT;
	io->wait_ms = wait;
	return io->op;
}

/* ---- what the host hands back ---- */

int dsi_loop_response(dsi_controller *c, uint64_t id, int status, ds_time now, ds_error *err)
{
	(void)now;
	(void)err;
	dsi_iocall *call = find_call(&c->loop, id);
	if (!call)
		return 1; /* closed already: the host may still be finishing it */
	call->status = status;
	call->responded = 1;
	call->heard = now;
	return 0;
}

int dsi_loop_data(dsi_controller *c, uint64_t id, const char *data, size_t size, ds_time now, ds_error *err)
{
	dsi_iocall *call = find_call(&c->loop, id);
	if (!call)
		return 1;
	call->heard = now;
	if (!call->responded) { /* bytes without a status: the host means 200 */
		call->status = 200;
		call->responded = 1;
	}
	if (call->kind == DSI_CALL_LIST || call->kind == DSI_CALL_WATCH)
		return dsi_refl_data(c, &c->loop.refl[call->refl], call, data, size, now, err);
	return dsi_elector_data(c, call, data, size, err);
}

int dsi_loop_end(dsi_controller *c, uint64_t id, const char *error, ds_time now, ds_error *err)
{
	dsi_iocall *call = find_call(&c->loop, id);
	if (!call)
		return 1;
	if (call->kind == DSI_CALL_LIST || call->kind == DSI_CALL_WATCH)
		return dsi_refl_end(c, &c->loop.refl[call->refl], call, error, now, err);
	return dsi_elector_end(c, c->loop.elector, call, error, now, err);
}

int dsi_loop_stop(dsi_controller *c, ds_time now, ds_error *err)
{
	dsi_loop *l = &c->loop;
	if (l->stopping || l->stopped)
		return 0;
	if (!l->started)
		start(c, now);
	l->stopping = 1;
	if (stop_everything(c) < 0)
		return dsi_error_nomem(err);
	if (l->elector && dsi_elector_stop(l->elector, now, err) < 0)
		return err->code;
	return 0;
}

/* ---- the report ---- */

json_t *dsi_loop_status(const dsi_controller *c, ds_time now)
{
	const dsi_loop *l = &c->loop;
	json_t *res = json_object();
	json_t *doc = json_pack("{s:b, s:b, s:b, s:I, s:o}", "started", l->started, "synced", l->cache_synced,
				"stopped", l->stopped, "requests", (json_int_t)l->requests, "resources", res);
	if (!doc)
		return NULL;
	for (int i = 0; i < DSI_NREFLECTORS; i++) {
		json_t *r = dsi_refl_status(c, &l->refl[i], now);
		if (!r || json_object_set_new(res, dsi_refl_resource(i), r)) {
			json_decref(doc);
			return NULL;
		}
	}
	json_t *b = json_pack("{s:I, s:I}", "steps", (json_int_t)l->backoff.count, "nextBaseMs",
			      (json_int_t)l->backoff.duration_ms);
	if (!b || json_object_set_new(doc, "backoff", b)) {
		json_decref(doc);
		return NULL;
	}
	if (l->elector) {
		json_t *e = dsi_elector_status(l->elector, now);
		if (!e || json_object_set_new(doc, "leaderElection", e)) {
			json_decref(doc);
			return NULL;
		}
	}
	return doc;
}
