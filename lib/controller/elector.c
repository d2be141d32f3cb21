#include "controller/elector.h"

#include <stdio.h>
#include <string.h>

#include "controller/retry.h"
#include "core/alloc.h"
#include "core/jsonfast.h"
#include "core/jsonout.h"
#include "core/sized.h"
#include "core/time.h"

/* JitterFactor (client-go tools/leaderelection/leaderelection.go): acquire retries every
 * RetryPeriod plus up to 1.2 times it at random. */
#define JITTER_FACTOR 1.2

/* A Lease is small: a reply beyond this is not one. */
#define LEASE_MAX ((size_t)1 << 20)

enum { E_WAIT, E_GET, E_WRITE, E_RELEASE, E_DONE };

struct dsi_elector {
	char *identity, *ns, *name;
	dsi_lease_cfg cfg; /* its strings are the copies above */
	int64_t retry_ms;
	int phase;
	ds_time due;     /* E_WAIT: the next attempt */
	int write_ready; /* E_WRITE, E_RELEASE: the write is decided, not started */
	dsi_iocall *call;
	json_t *lease;    /* the Lease as last read or written (NULL: none) */
	json_t *state;    /* what the last decision says to keep (NULL: none) */
	json_t *decision; /* E_WRITE, E_RELEASE: the decision being written */
	int announced;    /* "attempting to acquire" was said */
	int stopping;     /* release once the call in flight is over */
	int led;          /* we acquired the lease once */
	int lost;
	char holder[320]; /* the other holder last reported */
	uint64_t attempts, failures;
};

static char *dup_or_null(const char *s) { return s ? dsi_strdup(s) : NULL; }

int dsi_elector_new(const ds_lease_config *cfg, int64_t retry_ms, dsi_elector **out, ds_error *err)
{
	*out = NULL;
	dsi_lease_cfg c;
	int rc = dsi_lease_cfg_read(cfg, &c, err);
	if (rc < 0)
		return rc;
	if (!c.ns || !*c.ns || !c.name || !*c.name)
		return dsi_error_set(err, DS_EARG, "lease", "the Lease needs a namespace and a name");
	int64_t retry = retry_ms > 0 ? retry_ms : c.renew_deadline_ms / 5;
	if (retry < 1)
		retry = 1;
	/* NewLeaderElector (leaderelection.go) */
	if ((double)c.renew_deadline_ms <= JITTER_FACTOR * (double)retry)
		return dsi_error_set(err, DS_EVALUE, "leaseRetryPeriod",
				     "renewDeadline must be greater than retryPeriod*JitterFactor");
	dsi_elector *e = dsi_calloc(1, sizeof(*e));
	if (!e)
		return dsi_error_nomem(err);
	e->identity = dsi_strdup(c.identity);
	e->ns = dup_or_null(c.ns);
	e->name = dup_or_null(c.name);
	if (!e->identity || !e->ns || !e->name) {
		dsi_elector_free(e);
		return dsi_error_nomem(err);
	}
	e->cfg = c;
	e->cfg.identity = e->identity;
	e->cfg.ns = e->ns;
	e->cfg.name = e->name;
	e->retry_ms = retry;
	e->phase = E_DONE;
	*out = e;
	return 0;
}

void dsi_elector_free(dsi_elector *e)
{
	if (!e)
		return;
	dsi_free(e->identity);
	dsi_free(e->ns);
	dsi_free(e->name);
	json_decref(e->lease);
	json_decref(e->state);
	json_decref(e->decision);
	dsi_free(e);
}

void dsi_elector_start(dsi_elector *e, ds_time now)
{
	e->phase = E_WAIT;
	e->due = now;
}

/* The last decision's state says we hold the lease, renewed within the renew deadline. */
static int holds(const dsi_elector *e, ds_time now)
{
	int lead = 0;
	ds_error tmp;
	return e->state && dsi_lease_is_leader(&e->cfg, e->state, now, &lead, &tmp) == 0 && lead;
}

int dsi_elector_leading(const dsi_elector *e, ds_time now) { return e->led && !e->lost && holds(e, now); }

int dsi_elector_busy(const dsi_elector *e) { return e->phase == E_RELEASE || e->stopping; }

/* The next attempt: renewals every retry period while we lead (wait.Until, then PollImmediateUntil
 * between failures); otherwise the retry period jittered (wait.JitterUntil). */
static int release_now(dsi_elector *e, ds_time now, ds_error *err);

static void schedule(dsi_controller *c, dsi_elector *e, ds_time now)
{
	e->phase = e->stopping ? E_DONE : E_WAIT;
	e->due = now +
		 (dsi_elector_leading(e, now) ? e->retry_ms : dsi_jitter(e->retry_ms, JITTER_FACTOR, &c->loop.rng));
}

/* How long a call may take: a renewal no longer than the renew deadline leaves (the context
 * renew's poll runs under), anything else the renew deadline. */
static int64_t call_budget(const dsi_elector *e, ds_time now)
{
	if (!dsi_elector_leading(e, now))
		return e->cfg.renew_deadline_ms;
	const char *t = json_string_value(json_object_get(e->state, "observedTime"));
	ds_time seen;
	ds_error tmp;
	if (!t || dsi_time_parse(t, strlen(t), &seen, &tmp) < 0)
		return e->cfg.renew_deadline_ms;
	int64_t left = seen + e->cfg.renew_deadline_ms - now;
	return left > 1 ? left : 1;
}

static void set_json(json_t **slot, json_t *v)
{
	json_decref(*slot);
	*slot = v;
}

int dsi_elector_timers(dsi_controller *c, dsi_elector *e, ds_time now, int *lost, ds_error *err)
{
	*lost = 0;
	if (e->call && now >= e->call->deadline) {
		int phase = e->phase;
		if (dsi_loop_call_close(c, e->call) < 0)
			return dsi_error_nomem(err);
		e->call = NULL;
		e->failures++;
		const char *what = phase == E_GET       ? "error retrieving resource lock"
				   : phase == E_RELEASE ? "Failed to release lock"
							: "Failed to update lock";
		if (dsi_loop_log(c, DS_LOG_ERROR, "%s %s/%s: the call timed out", what, e->ns, e->name) < 0)
			return dsi_error_nomem(err);
		if (phase == E_RELEASE) {
			e->phase = E_DONE;
		} else if (e->stopping) {
			int rc = release_now(e, now, err);
			if (rc < 0)
				return rc;
		} else {
			schedule(c, e, now);
		}
	}
	if (e->led && !e->lost && e->phase != E_RELEASE && e->phase != E_DONE && !dsi_elector_leading(e, now)) {
		e->lost = 1;
		*lost = 1;
		const char *holder = json_string_value(
			json_object_get(json_object_get(e->state, "observedRecord"), "holderIdentity"));
		if ((!holder || strcmp(holder, e->identity) == 0) &&
		    dsi_loop_log(c, DS_LOG_ERROR, "failed to renew lease %s/%s: timed out waiting for the condition",
				 e->ns, e->name) < 0)
			return dsi_error_nomem(err);
		if (e->call && dsi_loop_call_close(c, e->call) < 0)
			return dsi_error_nomem(err);
		e->call = NULL;
		e->phase = E_DONE;
	}
	return 0;
}

static const char *lease_path(const dsi_elector *e, int named, char *buf, size_t size)
{
	snprintf(buf, size, "/apis/coordination.k8s.io/v1/namespaces/%s/leases%s%s", e->ns, named ? "/" : "",
		 named ? e->name : "");
	return buf;
}

static int start_call(dsi_controller *c, dsi_elector *e, int kind, ds_time now, ds_io *io, ds_error *err)
{
	dsi_loop *l = &c->loop;
	char path[700];
	int named = kind != DSI_CALL_LEASE_CREATE;
	lease_path(e, named, path, sizeof(path));
	int64_t budget = call_budget(e, now);
	dsi_iocall *call = dsi_loop_call_new(c, kind, now, budget);
	l->io_path = dsi_strdup(path);
	if (!call || !l->io_path)
		return dsi_error_nomem(err);
	if (kind != DSI_CALL_LEASE_GET) {
		l->io_body = dsi_json_dumps(json_object_get(e->decision, "lease"), JSON_COMPACT);
		if (!l->io_body)
			return dsi_error_nomem(err);
	}
	e->call = call;
	e->write_ready = 0;
	io->op = kind == DSI_CALL_LEASE_GET ? DS_IO_GET : kind == DSI_CALL_LEASE_CREATE ? DS_IO_CREATE : DS_IO_UPDATE;
	io->id = call->id;
	io->method = kind == DSI_CALL_LEASE_GET ? "GET" : kind == DSI_CALL_LEASE_CREATE ? "POST" : "PUT";
	io->path = l->io_path;
	io->resource = "leases";
	io->namespace_ = e->ns;
	io->name = named ? e->name : NULL;
	io->body = l->io_body;
	io->timeout_ms = budget;
	return 1;
}

int dsi_elector_next(dsi_controller *c, dsi_elector *e, ds_time now, int stopping, ds_io *io, ds_error *err)
{
	if (e->call || e->lost)
		return 0;
	if (e->write_ready && (e->phase == E_RELEASE || (e->phase == E_WRITE && !stopping))) {
		const char *write = json_string_value(json_object_get(e->decision, "write"));
		int create = write && strcmp(write, "create") == 0;
		return start_call(c, e, create ? DSI_CALL_LEASE_CREATE : DSI_CALL_LEASE_UPDATE, now, io, err);
	}
	if (stopping || e->phase != E_WAIT || e->due > now)
		return 0;
	if (!e->announced) {
		e->announced = 1;
		if (dsi_loop_log(c, DS_LOG_INFO, "attempting to acquire leader lease %s/%s...", e->ns, e->name) < 0)
			return dsi_error_nomem(err);
	}
	e->phase = E_GET;
	e->attempts++;
	return start_call(c, e, DSI_CALL_LEASE_GET, now, io, err);
}

int dsi_elector_data(dsi_controller *c, dsi_iocall *call, const char *data, size_t size, ds_error *err)
{
	(void)c;
	call->bytes += size;
	if (call->over || size > LEASE_MAX - call->body.len) {
		call->over = 1;
		return 0;
	}
	dsi_strbuf_append(&call->body, data, size);
	return call->body.oom ? dsi_error_nomem(err) : 0;
}

/* The holder another replica wrote: said once per holder (OnNewLeader). */
static int report_holder(dsi_controller *c, dsi_elector *e, const json_t *decision)
{
	const char *holder = json_string_value(json_object_get(decision, "holder"));
	if (!holder || !*holder || strcmp(holder, e->identity) == 0 || strcmp(holder, e->holder) == 0)
		return 0;
	snprintf(e->holder, sizeof(e->holder), "%s", holder);
	return dsi_loop_log(c, DS_LOG_INFO, "the lease %s/%s is held by %s", e->ns, e->name, holder);
}

/* tryAcquireOrRenew's decision on the Lease just read: keep its state, or write. */
static int decide(dsi_controller *c, dsi_elector *e, ds_time now, ds_error *err)
{
	json_t *doc = NULL;
	ds_error e2;
	memset(&e2, 0, sizeof(e2));
	int rc = dsi_lease_decide(&e->cfg, e->lease, e->state, now, &doc, &e2);
	if (rc == DS_ENOMEM) {
		*err = e2;
		return rc;
	}
	if (rc < 0) {
		e->failures++;
		schedule(c, e, now);
		return dsi_loop_log(c, DS_LOG_ERROR, "error retrieving resource lock %s/%s: %s%s%s", e->ns, e->name,
				    e2.path, e2.path[0] ? ": " : "", e2.message) < 0
			       ? dsi_error_nomem(err)
			       : 0;
	}
	if (report_holder(c, e, doc) < 0) {
		json_decref(doc);
		return dsi_error_nomem(err);
	}
	const char *write = json_string_value(json_object_get(doc, "write"));
	if (!write || strcmp(write, "none") == 0) {
		json_t *keep = json_object_get(doc, "state");
		set_json(&e->state, json_is_object(keep) ? json_incref(keep) : NULL);
		json_decref(doc);
		schedule(c, e, now);
		return 0;
	}
	set_json(&e->decision, doc);
	e->phase = E_WRITE;
	e->write_ready = 1;
	return 0;
}

static int get_end(dsi_controller *c, dsi_elector *e, dsi_iocall *call, const char *error, ds_time now, ds_error *err)
{
	if (call->responded && call->status == 404 && !error) {
		set_json(&e->lease, NULL);
		return decide(c, e, now, err);
	}
	json_t *lease = NULL;
	if (call->responded && call->status == 200 && !error && !call->over)
		lease = dsi_json_loadb_fast(call->body.data ? call->body.data : "", call->body.len, 0, NULL);
	if (json_is_object(lease)) {
		set_json(&e->lease, lease);
		return decide(c, e, now, err);
	}
	json_decref(lease);
	char *msg = dsi_loop_status_message(call, error);
	if (!msg)
		return dsi_error_nomem(err);
	e->failures++;
	schedule(c, e, now);
	int rc = dsi_loop_log(c, DS_LOG_ERROR, "error retrieving resource lock %s/%s: %s", e->ns, e->name, msg);
	dsi_free(msg);
	return rc < 0 ? dsi_error_nomem(err) : 0;
}

static int write_end(dsi_controller *c, dsi_elector *e, dsi_iocall *call, const char *error, ds_time now, ds_error *err)
{
	int release = e->phase == E_RELEASE;
	const char *write = json_string_value(json_object_get(e->decision, "write"));
	int create = write && strcmp(write, "create") == 0;
	int ok = call->responded && call->status >= 200 && call->status < 300 && !error;
	int rc = 0;
	if (ok) {
		json_t *stored = call->over ? NULL
					    : dsi_json_loadb_fast(call->body.data ? call->body.data : "",
								  call->body.len, 0, NULL);
		set_json(&e->lease,
			 json_is_object(stored) ? stored : json_incref(json_object_get(e->decision, "lease")));
		if (!json_is_object(stored))
			json_decref(stored);
		json_t *keep = json_object_get(e->decision, "state");
		set_json(&e->state, json_is_object(keep) ? json_incref(keep) : NULL);
		if (release)
			rc = dsi_loop_log(c, DS_LOG_INFO, "released lease %s/%s", e->ns, e->name);
		else if (!e->led && holds(e, now)) {
			e->led = 1;
			rc = dsi_loop_log(c, DS_LOG_INFO, "successfully acquired lease %s/%s", e->ns, e->name);
		}
	} else {
		char *msg = dsi_loop_status_message(call, error);
		if (!msg)
			return dsi_error_nomem(err);
		json_t *keep = json_object_get(e->decision, "stateIfFailed");
		if (!release)
			set_json(&e->state, json_is_object(keep) ? json_incref(keep) : NULL);
		e->failures++;
		rc = dsi_loop_log(c, DS_LOG_ERROR, "%s: %s",
				  release  ? "Failed to release lock"
				  : create ? "error initially creating leader election record"
					   : "Failed to update lock",
				  msg);
		dsi_free(msg);
	}
	set_json(&e->decision, NULL);
	if (release)
		e->phase = E_DONE;
	else
		schedule(c, e, now);
	return rc < 0 ? dsi_error_nomem(err) : 0;
}

int dsi_elector_end(dsi_controller *c, dsi_elector *e, dsi_iocall *call, const char *error, ds_time now, ds_error *err)
{
	e->call = NULL;
	int stopping = e->stopping;
	int rc = call->kind == DSI_CALL_LEASE_GET ? get_end(c, e, call, error, now, err)
						  : write_end(c, e, call, error, now, err);
	dsi_loop_call_done(c, call);
	if (rc == 0 && stopping)
		rc = release_now(e, now, err);
	return rc;
}

/* ReleaseOnCancel (leaderelection.go): release() writes tryRelease's Lease when we hold it. */
static int release_now(dsi_elector *e, ds_time now, ds_error *err)
{
	e->stopping = 0;
	set_json(&e->decision, NULL);
	e->write_ready = 0;
	e->phase = E_DONE;
	if (!dsi_elector_leading(e, now) || !e->lease)
		return 0;
	json_t *doc = NULL;
	int rc = dsi_lease_release(&e->cfg, e->lease, e->state, now, &doc, err);
	if (rc < 0)
		return rc;
	const char *write = json_string_value(json_object_get(doc, "write"));
	if (!write || strcmp(write, "none") == 0) {
		json_decref(doc);
		return 0;
	}
	e->decision = doc;
	e->phase = E_RELEASE;
	e->write_ready = 1;
	return 0;
}

/* A call in flight (a renewal, say) finishes first, within its deadline: a release written over
 * a renewal that went through but was not seen would meet a conflict. */
int dsi_elector_stop(dsi_elector *e, ds_time now, ds_error *err)
{
	if (e->call && !e->lost) {
		e->stopping = 1;
		return 0;
	}
	return release_now(e, now, err);
}

int64_t dsi_elector_wait(const dsi_elector *e, ds_time now)
{
	int64_t w = -1;
	if (e->call)
		w = e->call->deadline > now ? e->call->deadline - now : 0;
	else if (e->write_ready)
		w = 0;
	else if (e->phase == E_WAIT && !e->lost)
		w = e->due > now ? e->due - now : 0;
	if (e->led && !e->lost) { /* when the lease would lapse unrenewed */
		const char *t = json_string_value(json_object_get(e->state, "observedTime"));
		ds_time seen;
		ds_error tmp;
		if (t && dsi_time_parse(t, strlen(t), &seen, &tmp) == 0) {
			int64_t left = seen + e->cfg.renew_deadline_ms - now;
			left = left > 0 ? left : 0;
			w = w < 0 || left < w ? left : w;
		}
	}
	return w;
}

json_t *dsi_elector_status(const dsi_elector *e, ds_time now)
{
	const char *holder =
		json_string_value(json_object_get(json_object_get(e->state, "observedRecord"), "holderIdentity"));
	return json_pack("{s:s, s:s, s:b, s:b, s:b, s:s, s:I, s:I, s:I}", "identity", e->identity, "lease", e->name,
			 "leading", dsi_elector_leading(e, now), "acquired", e->led, "lost", e->lost, "holder",
			 holder ? holder : "", "attempts", (json_int_t)e->attempts, "failures", (json_int_t)e->failures,
			 "retryPeriodMs", (json_int_t)e->retry_ms);
}
