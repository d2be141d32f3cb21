/* Leader election on a Lease as pure functions (client-go tryAcquireOrRenew / tryRelease). */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define T0 1796137200000LL /* 2026-12-01T15:00:00Z */

static ds_lease_config cfg_for(const char *identity)
{
	ds_lease_config c;
	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.identity = identity;
	c.namespace_ = "kube-system";
	c.name = "daemonset-controller";
	c.lease_duration_ms = 15000;
	c.renew_deadline_ms = 10000;
	return c;
}

static json_t *decide(const ds_lease_config *c, const char *lease, const char *state, ds_time now)
{
	char *out = NULL;
	ds_error err;
	int rc = ds_lease_decide(c, lease, state, now, &out, &err);
	ck_assert_msg(rc == 0, "%s: %s", err.path, err.message);
	json_t *d = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_ptr_nonnull(d);
	return d;
}

static char *dump(const json_t *v) { return json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS); }

static const char *s(const json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

static json_int_t i(const json_t *o, const char *k) { return json_integer_value(json_object_get(o, k)); }

/* The API server stores what was written and gives it a resourceVersion. */
static char *stored(const json_t *decision, const char *rv)
{
	json_t *l = json_deep_copy(json_object_get(decision, "lease"));
	json_object_set_new(json_object_get(l, "metadata"), "resourceVersion", json_string(rv));
	char *t = dump(l);
	json_decref(l);
	return t;
}

START_TEST(test_acquire_when_missing)
{
	ds_lease_config a = cfg_for("a");
	json_t *d = decide(&a, NULL, NULL, T0 + 123);
	ck_assert_str_eq(s(d, "decision"), "acquire");
	ck_assert_str_eq(s(d, "write"), "create");
	ck_assert(json_is_true(json_object_get(d, "leader")));
	json_t *lease = json_object_get(d, "lease");
	ck_assert_str_eq(s(lease, "apiVersion"), "coordination.k8s.io/v1");
	ck_assert_str_eq(s(lease, "kind"), "Lease");
	ck_assert_str_eq(s(json_object_get(lease, "metadata"), "namespace"), "kube-system");
	json_t *spec = json_object_get(lease, "spec");
	ck_assert_str_eq(s(spec, "holderIdentity"), "a");
	ck_assert_int_eq(i(spec, "leaseDurationSeconds"), 15);
	ck_assert_int_eq(i(spec, "leaseTransitions"), 0);
	ck_assert_str_eq(s(spec, "acquireTime"), "2026-12-01T15:00:00.123000Z");
	ck_assert_str_eq(s(spec, "renewTime"), "2026-12-01T15:00:00.123000Z");
	ck_assert(json_is_null(json_object_get(d, "stateIfFailed")));
	json_t *st = json_object_get(d, "state");
	ck_assert(json_equal(json_object_get(st, "observedRecord"), spec));
	ck_assert_str_eq(s(st, "observedTime"), "2026-12-01T15:00:00.123Z");
	json_decref(d);
}
END_TEST

/* Another holder: follow until the lease expires by *our* clock, then take it over. */
START_TEST(test_follow_then_take_over)
{
	ds_lease_config a = cfg_for("a"), b = cfg_for("b");
	json_t *da = decide(&a, NULL, NULL, T0);
	char *lease = stored(da, "10");
	json_decref(da);
	json_t *db = decide(&b, lease, NULL, T0 + 1000);
	ck_assert_str_eq(s(db, "decision"), "follow");
	ck_assert_str_eq(s(db, "write"), "none");
	ck_assert_str_eq(s(db, "holder"), "a");
	ck_assert(json_is_false(json_object_get(db, "leader")));
	ck_assert_int_eq(i(db, "retryAfterMs"), 15000); /* from our first look */
	ck_assert_ptr_null(json_object_get(db, "lease"));
	char *state = dump(json_object_get(db, "state"));
	json_decref(db);
	/* the record did not change: the clock runs from the first look */
	db = decide(&b, lease, state, T0 + 15999);
	ck_assert_str_eq(s(db, "decision"), "follow");
	ck_assert_int_eq(i(db, "retryAfterMs"), 1);
	json_decref(db);
	db = decide(&b, lease, state, T0 + 16000);
	ck_assert_str_eq(s(db, "decision"), "acquire");
	ck_assert_str_eq(s(db, "write"), "update");
	json_t *l = json_object_get(db, "lease");
	ck_assert_str_eq(s(json_object_get(l, "metadata"), "resourceVersion"), "10"); /* an update of what we read */
	json_t *spec = json_object_get(l, "spec");
	ck_assert_str_eq(s(spec, "holderIdentity"), "b");
	ck_assert_int_eq(i(spec, "leaseTransitions"), 1);
	ck_assert_str_eq(s(spec, "acquireTime"), "2026-12-01T15:00:16.000000Z");
	/* if the write fails, the observation (not our record) is what we keep */
	json_t *fs = json_object_get(db, "stateIfFailed");
	ck_assert_str_eq(s(json_object_get(fs, "observedRecord"), "holderIdentity"), "a");
	json_decref(db);
	free(state);
	free(lease);
}
END_TEST

/* Validity is judged by when we saw the record change, not by its renewTime: skewed clocks do not matter. */
START_TEST(test_clock_skew)
{
	ds_lease_config b = cfg_for("b");
	const char *lease =
		"{\"metadata\":{\"name\":\"l\",\"namespace\":\"ns\",\"resourceVersion\":\"3\"},\"spec\":"
		"{\"holderIdentity\":\"a\",\"leaseDurationSeconds\":15,\"renewTime\":\"2020-01-01T00:00:00.000000Z\","
		"\"acquireTime\":\"2020-01-01T00:00:00.000000Z\",\"leaseTransitions\":4}}";
	json_t *d = decide(&b, lease, NULL, T0);
	ck_assert_str_eq(s(d, "decision"), "follow");
	char *state = dump(json_object_get(d, "state"));
	json_decref(d);
	/* a renewal (changed record) restarts our clock */
	const char *renewed =
		"{\"metadata\":{\"name\":\"l\",\"namespace\":\"ns\",\"resourceVersion\":\"4\"},\"spec\":"
		"{\"holderIdentity\":\"a\",\"leaseDurationSeconds\":15,\"renewTime\":\"2020-01-01T00:00:02.000000Z\","
		"\"acquireTime\":\"2020-01-01T00:00:00.000000Z\",\"leaseTransitions\":4}}";
	d = decide(&b, renewed, state, T0 + 14000);
	ck_assert_str_eq(s(d, "decision"), "follow");
	ck_assert_int_eq(i(d, "retryAfterMs"), 15000);
	json_decref(d);
	/* an empty holder (released) is free at once */
	const char *released = "{\"metadata\":{\"name\":\"l\",\"namespace\":\"ns\"},\"spec\":{\"holderIdentity\":\"\","
			       "\"leaseDurationSeconds\":1,\"leaseTransitions\":4}}";
	d = decide(&b, released, state, T0 + 14000);
	ck_assert_str_eq(s(d, "decision"), "acquire");
	ck_assert_int_eq(i(json_object_get(json_object_get(d, "lease"), "spec"), "leaseTransitions"), 5);
	json_decref(d);
	free(state);
}
END_TEST

START_TEST(test_renew_and_release)
{
	ds_lease_config a = cfg_for("a");
	json_t *d = decide(&a, NULL, NULL, T0);
	char *lease = stored(d, "1");
	char *state = dump(json_object_get(d, "state"));
	json_decref(d);
	d = decide(&a, lease, state, T0 + 2000);
	ck_assert_str_eq(s(d, "decision"), "renew");
	json_t *spec = json_object_get(json_object_get(d, "lease"), "spec");
	ck_assert_str_eq(s(spec, "acquireTime"), "2026-12-01T15:00:00.000000Z"); /* kept */
	ck_assert_str_eq(s(spec, "renewTime"), "2026-12-01T15:00:02.000000Z");
	ck_assert_int_eq(i(spec, "leaseTransitions"), 0);
	free(lease);
	lease = stored(d, "2");
	free(state);
	state = dump(json_object_get(d, "state"));
	json_decref(d);
	/* leading: until renewDeadline after the last successful renewal */
	int leader = -1;
	ds_error err;
	ck_assert_int_eq(ds_lease_is_leader(&a, state, T0 + 11999, &leader, &err), 0);
	ck_assert_int_eq(leader, 1);
	ck_assert_int_eq(ds_lease_is_leader(&a, state, T0 + 12000, &leader, &err), 0);
	ck_assert_int_eq(leader, 0);
	ds_lease_config b = cfg_for("b");
	ck_assert_int_eq(ds_lease_is_leader(&b, state, T0 + 3000, &leader, &err), 0);
	ck_assert_int_eq(leader, 0);
	ck_assert_int_eq(ds_lease_is_leader(&a, NULL, T0, &leader, &err), 0);
	ck_assert_int_eq(leader, 0);
	/* release: an empty holder and a one-second lease; transitions kept */
	char *out;
	ck_assert_int_eq(ds_lease_release(&a, lease, state, T0 + 3000, &out, &err), 0);
	d = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_str_eq(s(d, "write"), "update");
	spec = json_object_get(json_object_get(d, "lease"), "spec");
	ck_assert_str_eq(s(spec, "holderIdentity"), "");
	ck_assert_int_eq(i(spec, "leaseDurationSeconds"), 1);
	json_decref(d);
	/* not the holder: nothing to write */
	ck_assert_int_eq(ds_lease_release(&b, lease, state, T0 + 3000, &out, &err), 0);
	d = json_loads(out, 0, NULL);
	ds_free(out);
	ck_assert_str_eq(s(d, "write"), "none");
	json_decref(d);
	ck_assert_int_eq(ds_lease_release(&a, NULL, state, T0 + 3000, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"write\":\"none\""));
	ds_free(out);
	free(lease);
	free(state);
}
END_TEST

/* Two replicas sharing one Lease through a fake API server with optimistic concurrency:
 * at no time do both believe they lead. */
START_TEST(test_two_replicas_never_both_lead)
{
	ds_lease_config cfg[2] = {cfg_for("a"), cfg_for("b")};
	char *state[2] = {NULL, NULL};
	char *lease = NULL; /* the API server's copy */
	int rv = 0, a_down_from = 40000, transitions_seen = 0;
	for (ds_time t = T0; t < T0 + 120000; t += 500) {
		for (int r = 0; r < 2; r++) {
			if (r == 0 && t >= T0 + a_down_from)
				continue; /* replica a stops (a partition): it neither renews nor releases */
			if ((t / 500) % 4 != (r ? 1 : 0) * 2) /* each tries every 2 s (RetryPeriod) */
				continue;
			json_t *d = decide(&cfg[r], lease, state[r], t);
			const char *w = s(d, "write");
			const char *keep = "state";
			if (strcmp(w, "none") != 0) {
				/* the write goes through when based on the current resourceVersion (or a create of
				 * nothing) */
				free(lease);
				char rvs[16];
				snprintf(rvs, sizeof(rvs), "%d", ++rv);
				lease = stored(d, rvs);
				transitions_seen = (int)i(json_object_get(json_object_get(d, "lease"), "spec"),
							  "leaseTransitions");
			}
			free(state[r]);
			state[r] = dump(json_object_get(d, keep));
			json_decref(d);
		}
		int lead[2] = {0, 0};
		ds_error err;
		for (int r = 0; r < 2; r++)
			ck_assert_int_eq(ds_lease_is_leader(&cfg[r], state[r], t, &lead[r], &err), 0);
		ck_assert_msg(!(lead[0] && lead[1]), "both lead at %lld", (long long)(t - T0));
		if (t < T0 + a_down_from)
			ck_assert_msg(lead[0] || t == T0, "a should lead at %lld", (long long)(t - T0));
		if (t > T0 + a_down_from + 20000)
			ck_assert_msg(lead[1], "b should have taken over at %lld", (long long)(t - T0));
	}
	ck_assert_int_eq(transitions_seen, 1);
	free(lease);
	free(state[0]);
	free(state[1]);
}
END_TEST

START_TEST(test_bad_input)
{
	ds_lease_config c = cfg_for("a");
	char *out = (char *)1;
	ds_error err;
	ck_assert_int_eq(ds_lease_decide(NULL, NULL, NULL, T0, &out, &err), DS_EARG);
	ck_assert_ptr_null(out);
	ds_lease_config small = c;
	small.size = 8;
	ck_assert_int_eq(ds_lease_decide(&small, NULL, NULL, T0, &out, &err), DS_EARG);
	ds_lease_config bad = c;
	bad.identity = "";
	ck_assert_int_eq(ds_lease_decide(&bad, NULL, NULL, T0, &out, &err), DS_EVALUE);
	ck_assert_str_eq(err.message, "Lock identity is empty");
	bad = c;
	bad.renew_deadline_ms = 15000;
	ck_assert_int_eq(ds_lease_decide(&bad, NULL, NULL, T0, &out, &err), DS_EVALUE);
	ck_assert_str_eq(err.message, "leaseDuration must be greater than renewDeadline");
	bad = c;
	bad.namespace_ = NULL;
	ck_assert_int_eq(ds_lease_decide(&bad, NULL, NULL, T0, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_lease_decide(&c, "{", NULL, T0, &out, &err), DS_ESYNTAX);
	ck_assert_str_eq(err.path, "lease");
	ck_assert_int_eq(ds_lease_decide(&c, "[]", NULL, T0, &out, &err), DS_ETYPE);
	ck_assert_int_eq(ds_lease_decide(&c, "{\"spec\":{\"renewTime\":5}}", NULL, T0, &out, &err), DS_ETYPE);
	ck_assert_str_eq(err.path, "lease.spec.renewTime");
	ck_assert_int_eq(ds_lease_decide(&c, "{\"spec\":{\"acquireTime\":\"yesterday\"}}", NULL, T0, &out, &err),
			 DS_EVALUE);
	ck_assert_str_eq(err.path, "lease.spec.acquireTime");
	/* out of int32's range: Go's decoder refuses it as a type error, as on every path */
	ck_assert_int_eq(ds_lease_decide(&c, "{\"spec\":{\"leaseDurationSeconds\":99999999999}}", NULL, T0, &out, &err),
			 DS_ETYPE);
	ck_assert_int_eq(ds_lease_decide(&c, NULL, "{\"observedRecord\":7}", T0, &out, &err), DS_ETYPE);
	ck_assert_str_eq(err.path, "state.observedRecord");
	ck_assert_int_eq(ds_lease_decide(&c, NULL, "{\"observedTime\":\"x\",\"observedRecord\":{}}", T0, &out, &err),
			 DS_EVALUE);
	ck_assert_int_eq(ds_lease_decide(&c, NULL, NULL, T0, NULL, &err), DS_EARG);
	int leader;
	ck_assert_int_eq(ds_lease_is_leader(&c, "nope", T0, &leader, &err), DS_ESYNTAX);
	ck_assert_int_eq(ds_lease_is_leader(&c, NULL, T0, NULL, &err), DS_EARG);
	/* "null" and "" are no state */
	ck_assert_int_eq(ds_lease_decide(&c, "null", "", T0, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"write\":\"create\""));
	ds_free(out);
}
END_TEST

static Suite *lease_suite(void)
{
	Suite *su = suite_create("lease");
	TCase *tc = tcase_create("election");
	tcase_add_test(tc, test_acquire_when_missing);
	tcase_add_test(tc, test_follow_then_take_over);
	tcase_add_test(tc, test_clock_skew);
	tcase_add_test(tc, test_renew_and_release);
	tcase_add_test(tc, test_two_replicas_never_both_lead);
	tcase_add_test(tc, test_bad_input);
	suite_add_tcase(su, tc);
	return su;
}

DSI_TEST_MAIN(lease_suite)
