/*
 * Upstream's DaemonSet tests replayed against libdaemonset's controller over the fake
 * cluster: the pieces the replays share - a controller host over a fake API server, the
 * steps and polls of upstream's tests on virtual time (wait.Poll as rp_wait), invariants
 * checked at every step (and, when asked, at every write), and the report of a failing
 * replay: the virtual time, the step, the cluster's pods per node and the controller's
 * last plan. A client for the tests' own calls (get, list, create, update with
 * RetryOnConflict, patch) that aborts the test on an unexpected answer.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_TEST_REPLAY_H
#define DS_TEST_REPLAY_H

#include <check.h>

#include "fakehost.h"

typedef struct replay replay;

/* A condition polled by rp_wait: 1 holds, 0 not yet, -1 failed for good (why set). */
typedef int (*rp_cond)(replay *r, void *arg, char *why, size_t size);

#define RP_MAX_INVARIANTS 8

struct replay {
	const char *test;    /* upstream's name for it */
	char step[512];      /* the step upstream's test is at (ginkgo.By, or the helper it runs) */
	const char *waiting; /* what rp_wait waits for */
	fake_api *api;
	fake_host host;
	ds_options *opts;
	ds_time t0;
	int64_t step_ms; /* the host's turn (default 100 ms) */
	struct {
		const char *name;
		rp_cond fn;
		void *arg;
		int every_write;
	} inv[RP_MAX_INVARIANTS];
	int ninv;
	int in_check;
	char violation[16384]; /* the first invariant broken, with the report of that moment */
	uint64_t rand;         /* for upstream's random choices (a node, a pod), reproducible */
	long steps;
	size_t traced; /* the syncs' calls traced so far (DS_REPLAY_TRACE) */
};

/* A fake cluster (fo may be NULL) loaded with cluster_yaml (may be NULL), and a controller
 * over it with the options of options_json (may be NULL), listed and watching. */
void rp_start(replay *r, const char *test, const fake_options *fo, const char *options_json, const char *cluster_yaml);
void rp_stop(replay *r);
/* The step upstream's test is at, for the report. */
void rp_by(replay *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An invariant checked after every host step, and after every write of the cluster when
 * every_write is set; the first violation fails the test at the end of that step. */
void rp_invariant(replay *r, const char *name, rp_cond fn, void *arg, int every_write);
void rp_invariants_clear(replay *r);
/* wait.Poll: cond checked every poll_ms of virtual time until it holds, for up to
 * timeout_ms; the cluster and the controller run meanwhile, the invariants are checked.
 * Fails the test (with the report) on timeout, on -1, or on a broken invariant. */
void rp_wait(replay *r, const char *what, int64_t poll_ms, int64_t timeout_ms, rp_cond cond, void *arg);
/* Let ms of virtual time pass, invariants checked. */
void rp_run(replay *r, int64_t ms);
/* Fail the test now: the report on stderr, then the message. */
void rp_fail(replay *r, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* The report: the virtual time, the step, the pods per node, the controller's last plan. */
void rp_report(replay *r, FILE *f);

/* What upstream's tests take for granted, as an invariant (arg: an rp_placement): never
 * two live pods (not terminal, not deleting) of one DaemonSet on a node - at most
 * max_surge nodes with two during a surge -, and never a pod on the forbidden node while
 * *forbid (or always, forbid NULL). */
typedef struct rp_placement {
	int max_surge;         /* nodes that may have two live pods at once */
	const char *forbidden; /* a node that must never get a pod (NULL: none) */
	int *forbid;           /* while *forbid is set */
} rp_placement;
int rp_placement_holds(replay *r, void *arg, char *why, size_t size);

/* ---- the tests' own calls (aborting on an unexpected answer) ---- */
/* GET (new reference), NULL on 404. */
json_t *rp_get(replay *r, const char *resource, const char *ns, const char *name);
/* LIST: the items (new reference), label_selector and field_selector may be NULL. */
json_t *rp_list(replay *r, const char *resource, const char *ns, const char *label_selector,
		const char *field_selector);
/* A call whose answer must be want: the body parsed (new reference; NULL without one). */
json_t *rp_expect(replay *r, int want, int code, char *out, const char *what);
json_t *rp_create(replay *r, const char *resource, const char *ns, const json_t *obj);
/* retry.RetryOnConflict around GET, mutate, PUT (of the object, or of "status"). */
json_t *rp_update(replay *r, const char *resource, const char *ns, const char *name, const char *subresource,
		  void (*mutate)(json_t *obj, void *arg), void *arg);
json_t *rp_patch(replay *r, const char *resource, const char *ns, const char *name, const char *subresource,
		 const char *type, const char *body);
void rp_delete(replay *r, const char *resource, const char *ns, const char *name, const char *options);

/* ---- facts about objects ---- */
const char *rp_str(const json_t *obj, const char *path); /* a dotted path: "spec.nodeName" */
json_int_t rp_int(const json_t *obj, const char *path);
int rp_pod_ready(const json_t *pod);
/* podutil.IsPodAvailable at the fake's now. */
int rp_pod_available(replay *r, const json_t *pod, json_int_t min_ready_seconds);
int rp_pod_terminal(const json_t *pod);
/* metav1.IsControlledBy: the controller reference names the object's uid. */
int rp_controlled_by(const json_t *obj, const json_t *owner);
/* The nodes where daemon.NodeShouldRunDaemonPod says the DaemonSet runs (e2edaemonset.SchedulableNodes),
 * by name, sorted (new reference). */
json_t *rp_schedulable_nodes(replay *r, const json_t *ds);
/* The revision of history whose data matches the DaemonSet's template (daemon.Match), exactly one. */
json_t *rp_cur_history(replay *r, const json_t *ds, const json_t *history);
/* controller.ComputeHash of the DaemonSet's template with its status.collisionCount. */
void rp_template_hash(const json_t *ds, char *out, size_t size);
/* A reproducible pseudo-random number below n (upstream's rand.Intn). */
int rp_intn(replay *r, int n);

#endif
