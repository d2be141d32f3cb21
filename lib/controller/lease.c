#include "controller/lease.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/sized.h"
#include "core/reader.h"
#include "core/time.h"

/* LeaderElectionRecord (client-go tools/leaderelection/resourcelock/interface.go) */
typedef struct record {
	const char *holder;
	int64_t duration_s;
	ds_time acquire, renew;
	int64_t transitions;
} record;

int dsi_lease_cfg_read(const ds_lease_config *in, dsi_lease_cfg *out, ds_error *err)
{
	if (!in || !DSI_SIZE_COVERS(in, ds_lease_config, renew_deadline_ms))
		return dsi_error_set(err, DS_EARG, NULL, "cfg must not be NULL; set cfg->size");
	if (!in->identity || !*in->identity)
		return dsi_error_set(err, DS_EVALUE, "identity", "Lock identity is empty");
	/* NewLeaderElector (leaderelection.go) */
	if (in->lease_duration_ms <= in->renew_deadline_ms)
		return dsi_error_set(err, DS_EVALUE, "lease_duration_ms",
				     "leaseDuration must be greater than renewDeadline");
	if (in->lease_duration_ms < 1000)
		return dsi_error_set(err, DS_EVALUE, "lease_duration_ms",
				     "leaseDuration must be greater than zero (whole seconds: leaseDurationSeconds)");
	if (in->renew_deadline_ms < 1)
		return dsi_error_set(err, DS_EVALUE, "renew_deadline_ms", "renewDeadline must be greater than zero");
	out->identity = in->identity;
	out->ns = in->namespace_;
	out->name = in->name;
	out->duration_ms = in->lease_duration_ms;
	out->renew_deadline_ms = in->renew_deadline_ms;
	return 0;
}

/* metav1.MicroTime as the API writes it: RFC 3339 with six fractional digits. */
static json_t *micro_time(ds_time t)
{
	int64_t ms = t % 1000;
	if (ms < 0)
		ms += 1000;
	char buf[48];
	dsi_time_format(t - ms, buf, sizeof(buf)); /* "...:05Z" */
	size_t n = strlen(buf);
	if (n && buf[n - 1] == 'Z')
		snprintf(buf + n - 1, sizeof(buf) - n + 1, ".%03d000Z", (int)ms);
	return json_string(buf);
}

static int read_time(dsi_rd *rd, const json_t *spec, const char *key, ds_time *out)
{
	const char *s;
	*out = 0;
	int rc = dsi_rd_string(rd, spec, key, &s);
	if (rc < 0 || !s)
		return rc;
	ds_error tmp;
	if (dsi_time_parse(s, strlen(s), out, &tmp) < 0)
		return dsi_rd_fail(rd, key, DS_EVALUE, "%s", tmp.message);
	return 0;
}

/* LeaseSpecToLeaderElectionRecord (resourcelock/leaselock.go); absent fields are zero. */
static int read_record(dsi_rd *rd, const json_t *spec, record *r)
{
	memset(r, 0, sizeof(*r));
	r->holder = "";
	if (!spec)
		return 0;
	int rc, present;
	if ((rc = dsi_rd_expect_object(rd, spec)) < 0 ||
	    (rc = dsi_rd_string(rd, spec, "holderIdentity", &r->holder)) < 0)
		return rc;
	if (!r->holder)
		r->holder = "";
	int32_t v;
	if ((rc = dsi_rd_int32(rd, spec, "leaseDurationSeconds", &v, &present)) < 0)
		return rc;
	r->duration_s = present ? v : 0;
	if ((rc = dsi_rd_int32(rd, spec, "leaseTransitions", &v, &present)) < 0)
		return rc;
	r->transitions = present ? v : 0;
	if ((rc = read_time(rd, spec, "acquireTime", &r->acquire)) < 0 ||
	    (rc = read_time(rd, spec, "renewTime", &r->renew)) < 0)
		return rc;
	return 0;
}

/* LeaderElectionRecordToLeaseSpec (resourcelock/leaselock.go) */
static json_t *record_json(const record *r)
{
	return json_pack("{s:s, s:I, s:o, s:o, s:I}", "holderIdentity", r->holder, "leaseDurationSeconds",
			 (json_int_t)r->duration_s, "acquireTime", micro_time(r->acquire), "renewTime",
			 micro_time(r->renew), "leaseTransitions", (json_int_t)r->transitions);
}

/* The previous observation: the record and when it was first seen. */
typedef struct observed {
	int has;
	json_t *record; /* borrowed from the state */
	record rec;
	ds_time time;
} observed;

static int read_state(const json_t *state, observed *o, ds_error *err)
{
	memset(o, 0, sizeof(*o));
	if (!state)
		return 0;
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	json_t *rec;
	ds_time t;
	int rc;
	if ((rc = dsi_rd_expect_object(&rd, state)) < 0 ||
	    (rc = dsi_rd_object(&rd, state, "observedRecord", &rec)) < 0 ||
	    (rc = read_time(&rd, state, "observedTime", &t)) < 0)
		return rc;
	if (!rec)
		return 0;
	size_t mark = dsi_rd_push(&rd, "observedRecord");
	rc = read_record(&rd, rec, &o->rec);
	dsi_rd_pop(&rd, mark);
	if (rc < 0)
		return rc;
	o->has = 1;
	o->record = rec;
	o->time = t;
	return 0;
}

static json_t *state_json(const json_t *rec, ds_time t)
{
	char when[40];
	dsi_time_format(t, when, sizeof(when));
	return json_pack("{s:O, s:s}", "observedRecord", rec, "observedTime", when);
}

/* The Lease to write: the one read with its spec replaced (LeaseLock.Update), or a new one (Create). */
static json_t *lease_to_write(const dsi_lease_cfg *cfg, const json_t *lease, json_t *spec)
{
	if (lease) {
		json_t *l = json_deep_copy(lease);
		if (!l || json_object_set_new(l, "spec", spec)) {
			json_decref(l);
			return NULL;
		}
		return l;
	}
	return json_pack("{s:s, s:s, s:{s:s, s:s}, s:o}", "apiVersion", "coordination.k8s.io/v1", "kind", "Lease",
			 "metadata", "name", cfg->name, "namespace", cfg->ns, "spec", spec);
}

static int read_lease(const json_t *lease, record *r, ds_error *err)
{
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	json_t *spec;
	int rc;
	if ((rc = dsi_rd_expect_object(&rd, lease)) < 0 || (rc = dsi_rd_object(&rd, lease, "spec", &spec)) < 0)
		return rc;
	size_t mark = dsi_rd_push(&rd, "spec");
	rc = read_record(&rd, spec, r);
	dsi_rd_pop(&rd, mark);
	return rc;
}

/* tryAcquireOrRenew (client-go tools/leaderelection/leaderelection.go) */
int dsi_lease_decide(const dsi_lease_cfg *cfg, const json_t *lease, const json_t *state, ds_time now, json_t **out,
		     ds_error *err)
{
	*out = NULL;
	observed obs;
	int rc = read_state(state, &obs, err);
	if (rc < 0)
		return rc;
	record want = {cfg->identity, cfg->duration_ms / 1000, now, now, 0};
	const char *decision, *write;
	json_t *keep_on_failure = NULL, *to_write = NULL, *rec = NULL, *keep = NULL;
	int64_t retry = cfg->renew_deadline_ms / 5;
	int leader;
	const char *holder;
	if (!lease) { /* NotFound: create it, holding it */
		if (!cfg->ns || !cfg->name)
			return dsi_error_set(err, DS_EARG, NULL,
					     "the Lease does not exist: cfg namespace_ and name are needed");
		decision = "acquire";
		write = "create";
		rec = record_json(&want);
		keep_on_failure = state ? json_deep_copy(state) : json_null();
		leader = 1;
		holder = cfg->identity;
	} else {
		record old;
		if ((rc = read_lease(lease, &old, err)) < 0)
			return rc;
		json_t *old_json = record_json(&old);
		if (!old_json)
			return dsi_error_nomem(err);
		/* a record that changed since the last look restarts the clock */
		ds_time seen = obs.has && json_equal(obs.record, old_json) ? obs.time : now;
		json_t *observed_state = state_json(old_json, seen);
		int valid = seen + old.duration_s * 1000 > now;
		int is_leader = strcmp(old.holder, cfg->identity) == 0;
		if (*old.holder && valid && !is_leader) {
			decision = "follow";
			write = "none";
			keep = observed_state;
			leader = 0;
			holder = old.holder;
			retry = seen + old.duration_s * 1000 - now;
			json_decref(old_json);
		} else {
			if (is_leader) {
				want.acquire = old.acquire;
				want.transitions = old.transitions;
				decision = "renew";
			} else {
				want.transitions = old.transitions + 1;
				decision = "acquire";
			}
			write = "update";
			rec = record_json(&want);
			keep_on_failure = observed_state;
			leader = 1;
			holder = cfg->identity;
			json_decref(old_json);
		}
	}
	if (rec) {
		keep = state_json(rec, now);
		to_write = lease_to_write(cfg, lease, json_deep_copy(rec));
	}
	*out = json_pack("{s:s, s:s, s:s, s:b, s:I}", "decision", decision, "write", write, "holder", holder, "leader",
			 leader, "retryAfterMs", (json_int_t)retry);
	if (*out && keep)
		json_object_set(*out, "state", keep);
	if (*out && keep_on_failure)
		json_object_set(*out, "stateIfFailed", keep_on_failure);
	if (*out && to_write)
		json_object_set(*out, "lease", to_write);
	int bad = !*out || !keep || (rec && !to_write);
	json_decref(keep);
	json_decref(keep_on_failure);
	json_decref(to_write);
	json_decref(rec);
	if (bad) {
		json_decref(*out);
		*out = NULL;
		return dsi_error_nomem(err);
	}
	return 0;
}

/* tryRelease (client-go tools/leaderelection/leaderelection.go): only a leader writes,
 * an empty holder with a one-second lease. */
int dsi_lease_release(const dsi_lease_cfg *cfg, const json_t *lease, const json_t *state, ds_time now, json_t **out,
		      ds_error *err)
{
	*out = NULL;
	observed obs;
	int rc = read_state(state, &obs, err);
	if (rc < 0)
		return rc;
	if (!lease || !obs.has || strcmp(obs.rec.holder, cfg->identity) != 0) {
		*out = json_pack("{s:s, s:s, s:b, s:O}", "decision", "release", "write", "none", "leader", 0, "state",
				 state ? (json_t *)state : json_null());
		return *out ? 0 : dsi_error_nomem(err);
	}
	record old;
	if ((rc = read_lease(lease, &old, err)) < 0)
		return rc;
	record r = {"", 1, now, now, old.transitions};
	json_t *rec = record_json(&r);
	json_t *keep = rec ? state_json(rec, now) : NULL;
	json_t *l = rec ? lease_to_write(cfg, lease, json_deep_copy(rec)) : NULL;
	*out = keep && l
		       ? json_pack("{s:s, s:s, s:b, s:O, s:O, s:O}", "decision", "release", "write", "update", "leader",
				   0, "lease", l, "state", keep, "stateIfFailed", state ? (json_t *)state : json_null())
		       : NULL;
	json_decref(rec);
	json_decref(keep);
	json_decref(l);
	return *out ? 0 : dsi_error_nomem(err);
}

/* IsLeader (leaderelection.go), and renew's deadline: a leader that could not renew
 * for renewDeadline stops leading. */
int dsi_lease_is_leader(const dsi_lease_cfg *cfg, const json_t *state, ds_time now, int *leader, ds_error *err)
{
	*leader = 0;
	observed obs;
	int rc = read_state(state, &obs, err);
	if (rc < 0)
		return rc;
	*leader = obs.has && strcmp(obs.rec.holder, cfg->identity) == 0 && now - obs.time < cfg->renew_deadline_ms;
	return 0;
}
