/* Leader election on a Lease for a host loop (see leader.h). The messages are client-go's.
 * SPDX-License-Identifier: Apache-2.0 */
#include "leader.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct leader {
	ds_lease_config cfg;
	char identity[320], holder[320]; /* ours, and the other holder last reported */
	int64_t retry_ms;
	char *lease;  /* the Lease as last read or written: the resourceVersion the next update names */
	char *state;  /* what the last decision says to keep */
	ds_time next; /* the next renewal */
};

/* A lease or state document kept as text; none yet is NULL, size 0. */
static size_t doc_len(const char *s) { return s ? strlen(s) : 0; }

/* hostname + "_" + a random (version 4) UUID, as kube-controller-manager's leader election does */
static void default_identity(char *buf, size_t size)
{
	char host[256] = "";
	unsigned char r[16];
	FILE *f = fopen("/dev/urandom", "rb");
	size_t got = f ? fread(r, 1, sizeof(r), f) : 0;
	if (f)
		fclose(f);
	if (gethostname(host, sizeof(host)) != 0)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	if (got != sizeof(r)) {
		snprintf(buf, size, "%s_%ld", host, (long)getpid());
		return;
	}
	r[6] = (unsigned char)((r[6] & 0x0f) | 0x40);
	r[8] = (unsigned char)((r[8] & 0x3f) | 0x80);
	snprintf(buf, size, "%s_%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", host, r[0], r[1],
		 r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]);
}

int leader_flag(leader_options *o, const char *flag, const char *value)
{
	const char **s = !strcmp(flag, "--identity")          ? &o->identity
			 : !strcmp(flag, "--lease-namespace") ? &o->ns
			 : !strcmp(flag, "--lease-name")      ? &o->name
							      : NULL;
	int64_t *d = !strcmp(flag, "--lease-duration")   ? &o->lease_ms
		     : !strcmp(flag, "--renew-deadline") ? &o->renew_ms
		     : !strcmp(flag, "--retry-period")   ? &o->retry_ms
							 : NULL;
	if (!s && !d)
		return 0;
	char *end = NULL;
	double v = d ? strtod(value, &end) : 0;
	double unit = !d || end == value ? 0 : !strcmp(end, "ms") ? 1 : !*end || !strcmp(end, "s") ? 1000 : 0;
	if (s ? !*value : !(unit > 0 && v > 0 && v * unit < 1e12)) {
		fprintf(stderr, "dsrun: %s %s: expected %s\n", flag, value, s ? "a name" : "a duration (15s, 500ms)");
		return -1;
	}
	if (s)
		*s = value;
	else
		*d = (int64_t)(v * unit + 0.5);
	return 1;
}

/* What went wrong: the Status' message, else what the result means. */
static void complain(const leader *l, const char *what, int rc, const char *answer)
{
	static const char *const meaning[] = {"",         "not found",
					      "conflict", "already exists",
					      "invalid",  "the server did not answer in time or is unavailable",
					      "refused"};
	json_t *st = answer ? json_loads(answer, 0, NULL) : NULL;
	const char *msg = json_string_value(json_object_get(st, "message"));
	fprintf(stderr, "dsrun: %s %s/%s: %s\n", what, l->cfg.namespace_, l->cfg.name,
		msg                                  ? msg
		: rc > 0 && rc <= DS_TRANSPORT_FATAL ? meaning[rc]
						     : "failed");
	json_decref(st);
}

/* Write what a decision says (POST or PUT); the answer becomes the Lease we know. 1: written. */
static int write_lease(leader *l, host_backend *be, const json_t *d, const char *failure)
{
	const char *write = json_string_value(json_object_get(d, "write"));
	if (!write || !strcmp(write, "none"))
		return 1;
	char *body = json_dumps(json_object_get(d, "lease"), JSON_COMPACT), *answer = NULL;
	int create = !strcmp(write, "create");
	int rc = body ? be->request(be->self, create ? "POST" : "PUT", "leases", l->cfg.namespace_, l->cfg.name, body,
				    &answer)
		      : DS_TRANSPORT_FATAL;
	free(body);
	if (rc == DS_TRANSPORT_OK) {
		free(l->lease);
		l->lease = answer;
		return 1;
	}
	complain(l, create ? "error initially creating leader election record" : failure, rc, answer);
	free(answer);
	return 0;
}

/* tryAcquireOrRenew: GET the Lease, decide, write. 1 when we lead after it. */
static int attempt(leader *l, host_backend *be)
{
	char *got = NULL, *text = NULL;
	ds_error err;
	int rc = be->request(be->self, "GET", "leases", l->cfg.namespace_, l->cfg.name, NULL, &got);
	if (rc != DS_TRANSPORT_OK && rc != DS_TRANSPORT_NOT_FOUND) {
		complain(l, "error retrieving resource lock", rc, got);
		free(got);
		return 0;
	}
	free(l->lease);
	l->lease = NULL;
	if (rc == DS_TRANSPORT_OK)
		l->lease = got;
	else
		free(got);
	if (ds_lease_try_acquire_or_renew(&l->cfg, l->lease, doc_len(l->lease), l->state, doc_len(l->state),
					  be->now(be->self), &text, &err) < 0) {
		fprintf(stderr, "dsrun: lease %s/%s: %s%s%s\n", l->cfg.namespace_, l->cfg.name, err.path,
			err.path[0] ? ": " : "", err.message);
		return 0;
	}
	json_t *d = json_loads(text, 0, NULL);
	ds_free(text);
	int ok = write_lease(l, be, d, "Failed to update lock");
	json_t *keep = json_object_get(d, ok ? "state" : "stateIfFailed");
	free(l->state);
	l->state = json_is_object(keep) ? json_dumps(keep, JSON_COMPACT) : NULL;
	const char *holder = json_string_value(json_object_get(d, "holder"));
	int lead = ok && json_is_true(json_object_get(d, "leader"));
	if (holder && strcmp(holder, l->identity) != 0 && strcmp(holder, l->holder) != 0) { /* OnNewLeader */
		snprintf(l->holder, sizeof(l->holder), "%s", holder);
		fprintf(stderr, "dsrun: the lease %s/%s is held by %s\n", l->cfg.namespace_, l->cfg.name, holder);
	}
	json_decref(d);
	return lead;
}

static void pause_ms(host_backend *be, long ms) /* no watch yet: what it returns is covered by the first list */
{
	size_t len;
	int relist;
	free(be->wait(be->self, ms, &len, &relist));
}

leader *leader_acquire(const leader_options *o, host_backend *be, ds_time until)
{
	leader *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	if (o->identity)
		snprintf(l->identity, sizeof(l->identity), "%s", o->identity);
	else
		default_identity(l->identity, sizeof(l->identity));
	ds_lease_config cfg = {sizeof(ds_lease_config), l->identity, o->ns, o->name, o->lease_ms, o->renew_ms};
	l->cfg = cfg;
	l->retry_ms = o->retry_ms;
	ds_error err = {0};
	int lead, jitter_ok = o->renew_ms * 10 > o->retry_ms * 12; /* NewLeaderElector's checks */
	if (!be->request || !jitter_ok || ds_lease_leading(&l->cfg, NULL, 0, 0, &lead, &err) < 0) {
		fprintf(stderr, "dsrun: --leader-elect: %s\n",
			!be->request ? "this backend makes no calls of its own"
			: !jitter_ok ? "renewDeadline must be greater than retryPeriod*JitterFactor"
				     : err.message);
		free(l);
		return NULL;
	}
	fprintf(stderr, "dsrun: attempting to acquire leader lease %s/%s...\n", o->ns, o->name);
	while (!attempt(l, be)) { /* every retry period (client-go adds up to 1.2 times it at random) */
		ds_time now = be->now(be->self);
		if (now < until)
			pause_ms(be, until - now < l->retry_ms ? (long)(until - now) : (long)l->retry_ms);
		if (be->now(be->self) >= until) {
			fprintf(stderr, "dsrun: timed out waiting for leader lease %s/%s\n", o->ns, o->name);
			leader_release(l, be);
			return NULL;
		}
	}
	fprintf(stderr, "dsrun: successfully acquired lease %s/%s\n", o->ns, o->name);
	l->next = be->now(be->self) + l->retry_ms;
	return l;
}

int leader_keep(leader *l, host_backend *be)
{
	int lead = 0;
	if (be->now(be->self) >= l->next) {
		attempt(l, be);
		l->next = be->now(be->self) + l->retry_ms;
	}
	ds_lease_leading(&l->cfg, l->state, doc_len(l->state), be->now(be->self), &lead, NULL);
	return lead;
}

long leader_wait(const leader *l, host_backend *be, long wait_ms)
{
	ds_time left = l ? l->next - be->now(be->self) : wait_ms;
	return left < wait_ms ? (left > 0 ? (long)left : 0) : wait_ms;
}

void leader_release(leader *l, host_backend *be)
{
	char *text = NULL;
	if (l && l->lease &&
	    ds_lease_try_release(&l->cfg, l->lease, strlen(l->lease), l->state, doc_len(l->state), be->now(be->self),
				 &text, NULL) == 0) {
		json_t *d = json_loads(text, 0, NULL);
		const char *write = json_string_value(json_object_get(d, "write"));
		if (write && strcmp(write, "none") && write_lease(l, be, d, "Failed to release lock"))
			fprintf(stderr, "dsrun: released lease %s/%s\n", l->cfg.namespace_, l->cfg.name);
		json_decref(d);
		ds_free(text);
	}
	if (l) {
		free(l->lease);
		free(l->state);
		free(l);
	}
}
