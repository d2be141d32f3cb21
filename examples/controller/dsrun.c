/* dsrun: a DaemonSet controller as a thin host of libdaemonset's list-watch loop
 * (ds_controller_step(3)): the library decides every list, watch, wait, retry and Lease call;
 * dsrun performs them and hands the bytes back. Runs every DaemonSet to its goal; --restart
 * NS/NAME then rolls one out again.
 *   dsrun [--cluster DIR]                the in-memory cluster of memtransport.c, virtual time
 *   dsrun --url http://127.0.0.1:8001    kubectl proxy (or --in-cluster), httptransport.c
 *   dsrun --leader-elect ...             only while holding a Lease
 * SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leader.h"
#include "memtransport.h"
#ifdef DSRUN_HTTP
#include "httptransport.h"
#endif

static host_backend be;

static const char usage[] =
	"usage: dsrun [--cluster DIR | --url URL | --in-cluster] [--restart NS/NAME] [--timeout S]\n"
	"             [--option NAME=VALUE]... [--leader-elect [--lease-namespace NS] [--lease-name NAME]\n"
	"             [--identity ID] [--lease-duration D] [--renew-deadline D] [--retry-period D]]\n"
	"--option: a library option (ds_options_set(3)), e.g. maxDocumentBytes=33554432, relistPeriod=10m, seed=1.\n"
	"--leader-elect: reconcile only while holding the coordination.k8s.io/v1 Lease NS/NAME, as client-go's\n"
	"  leader election does: take it first (trying every retry period), renew it every retry period, exit 1\n"
	"  with \"leaderelection lost\" when it was not renewed within the renew deadline, give it up on exit.\n"
	"  Defaults: the Lease kube-system/dsrun (its own: kube-controller-manager holds kube-system/\n"
	"  kube-controller-manager), ID hostname_UUID, and kube-controller-manager's 15s, 10s and 2s\n"
	"  (--leader-elect-lease-duration, --leader-elect-renew-deadline, --leader-elect-retry-period).\n";

static json_t *daemonset(ds_controller *ctrl, const char *ns, const char *name) /* from the snapshot */
{
	char *obj;
	if (ds_cluster_get(ds_controller_cluster(ctrl), "DaemonSet", ns, name, &obj, NULL) < 0)
		return NULL;
	json_t *ds = json_loads(obj, 0, NULL);
	ds_free(obj);
	return ds;
}

/* Every DaemonSet of the snapshot reports its current generation rolled out. */
static int converged(ds_controller *ctrl, int print)
{
	char *text = NULL;
	json_t *sum =
		ds_cluster_summary(ds_controller_cluster(ctrl), &text, NULL) == 0 ? json_loads(text, 0, NULL) : NULL;
	json_t *d;
	size_t i;
	int ok = json_array_size(json_object_get(sum, "daemonSets")) > 0;
	json_array_foreach(json_object_get(sum, "daemonSets"), i, d)
	{
		const char *ns = json_string_value(json_object_get(d, "namespace"));
		const char *name = json_string_value(json_object_get(d, "name"));
		json_t *ds = daemonset(ctrl, ns, name), *st = json_object_get(ds, "status");
		json_int_t want = json_integer_value(json_object_get(st, "desiredNumberScheduled"));
		json_int_t updated = json_integer_value(json_object_get(st, "updatedNumberScheduled"));
		json_int_t available = json_integer_value(json_object_get(st, "numberAvailable"));
		ok &= json_integer_value(json_object_get(st, "observedGeneration")) >=
			      json_integer_value(json_object_get(json_object_get(ds, "metadata"), "generation")) &&
		      updated == want && available == want;
		if (print)
			printf("%s/%s: desired %lld, updated %lld, available %lld\n", ns, name, (long long)want,
			       (long long)updated, (long long)available);
		json_decref(ds);
	}
	json_decref(sum);
	ds_free(text);
	return ok;
}

static const char *split(const char *key, char *ns, size_t size) /* "ns/name": the namespace into ns */
{
	const char *name = strchr(key, '/') ? strchr(key, '/') + 1 : key;
	snprintf(ns, size, "%.*s", name > key ? (int)(name - key - 1) : 0, key);
	return name;
}

static json_int_t generation(ds_controller *ctrl, const char *key) /* as the snapshot has it */
{
	char ns[256];
	json_t *ds = daemonset(ctrl, ns, split(key, ns, sizeof(ns)));
	json_int_t g = json_integer_value(json_object_get(json_object_get(ds, "metadata"), "generation"));
	json_decref(ds);
	return g;
}

/* The leader election's state: whether we ever led, and whether that was lost. */
static void election(ds_controller *ctrl, ds_time now, int *acquired, int *lost)
{
	char *text = NULL;
	*acquired = *lost = 0;
	if (ds_controller_loop_status(ctrl, now, &text, NULL) < 0)
		return;
	json_t *st = json_loads(text, 0, NULL);
	json_t *le = json_object_get(st, "leaderElection");
	*acquired = json_is_true(json_object_get(le, "acquired"));
	*lost = json_is_true(json_object_get(le, "lost"));
	json_decref(st);
	ds_free(text);
}

/* kubectl rollout restart: the time (RFC 3339) on the template. */
static void restart(ds_controller *ctrl, const char *key, json_int_t *old_generation)
{
	char ns[256], patch[200], at[32];
	const char *name = split(key, ns, sizeof(ns));
	ds_time_format(be.now(be.self) / 1000 * 1000, at, sizeof(at));
	snprintf(patch, sizeof(patch),
		 "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"kubectl.kubernetes.io/"
		 "restartedAt\":\"%s\"}}}}}",
		 at);
	*old_generation = generation(ctrl, key);
	printf("restart %s: %s\n", key,
	       be.patch(be.self, "daemonsets", ns, name, patch) == DS_TRANSPORT_OK ? "patched" : "failed");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *dir = "examples/cluster", *url = NULL, *again = NULL, *restarted = NULL, *timeout = "300";
	int in_cluster = 0, elect = 0, flag = 0;
	json_int_t old_generation = 0;
	leader_options lo = LEADER_OPTIONS_INIT;
	ds_options *opts = NULL;
	ds_error err = {0};
	if (ds_options_create(&opts, &err) < 0)
		return fprintf(stderr, "dsrun: %s\n", err.message), 1;
	for (int i = 1; i < argc; i++) {
		const char **opt = !strcmp(argv[i], "--cluster")   ? &dir
				   : !strcmp(argv[i], "--url")     ? &url
				   : !strcmp(argv[i], "--restart") ? &again
				   : !strcmp(argv[i], "--timeout") ? &timeout
								   : NULL;
		if (!strcmp(argv[i], "--in-cluster")) {
			in_cluster = 1;
		} else if (!strcmp(argv[i], "--leader-elect")) {
			elect = 1;
		} else if (!strcmp(argv[i], "--option") && i + 1 < argc) {
			char name[128];
			const char *eq = strchr(argv[++i], '=');
			snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - argv[i]) : 0, argv[i]);
			if (!eq || ds_options_set(opts, name, eq + 1, &err) < 0)
				return fprintf(stderr, "dsrun: --option %s: %s\n", argv[i],
					       eq ? err.message : "expected NAME=VALUE"),
				       2;
		} else if (opt && i + 1 < argc) {
			*opt = argv[++i];
		} else if ((flag = i + 1 < argc ? leader_flag(&lo, argv[i], argv[i + 1]) : 0) > 0) {
			i++;
		} else {
			return flag < 0 ? 2 : (fputs(usage, stderr), 2);
		}
	}
	char why[256] = "built without libcurl";
#ifdef DSRUN_HTTP
	http_options ho = {url, in_cluster, 0};
	if ((url || in_cluster) && http_backend(&ho, &be, why, sizeof(why)) < 0)
#else
	if (url || in_cluster)
#endif
		return fprintf(stderr, "dsrun: %s\n", why), 1;
	if (!url && !in_cluster && mem_backend(dir, 1796223600000LL /* 2026-12-02T15:00:00Z */, &be, &err) < 0)
		return fprintf(stderr, "dsrun: %s%s%s\n", err.source, err.source[0] ? ": " : "", err.message), 1;
	char identity[320];
	ds_lease_config lease;
	if (elect && leader_config(&lo, identity, sizeof(identity), &lease, opts) < 0)
		return be.close(be.self), 1;
	ds_controller *ctrl;
	if (ds_controller_new(&be.transport, opts, NULL, &ctrl, &err) < 0)
		return fprintf(stderr, "dsrun: %s\n", err.message), be.close(be.self), 1;
	/* lead before listing, as kube-controller-manager starts its informers */
	if (elect && ds_controller_set_lease(ctrl, &lease, &err) < 0) {
		fprintf(stderr, "dsrun: --leader-elect: %s\n", err.message);
		ds_controller_free(ctrl);
		return be.close(be.self), 1;
	}
	ds_time until = be.now(be.self) + (ds_time)atoi(timeout) * 1000;
	int stopping = 0, done = 0;
	for (;;) {
		ds_time now = be.now(be.self);
		if (!stopping && (now >= until || done)) {
			ds_controller_stop(ctrl, now, NULL); /* closes every call, gives the lease up */
			stopping = 1;
		}
		ds_io io = DS_IO_INIT;
		int op = ds_controller_step(ctrl, now, &io, &err);
		if (op < 0) {
			fprintf(stderr, "dsrun: %s\n", err.message);
			break;
		}
		if (op == DS_IO_LOG) {
			fprintf(stderr, "dsrun: %s\n", io.message);
			continue;
		}
		if (op == DS_IO_CLOSE) {
			be.cancel(be.self, io.id);
			continue;
		}
		if (op == DS_IO_STOPPED)
			break;
		if (op != DS_IO_WAIT) {
			be.start(be.self, &io);
			continue;
		}
		if (!stopping && converged(ctrl, 0) &&
		    !(restarted &&
		      generation(ctrl, restarted) <= old_generation)) { /* the goal, as the cache shows it */
			if (again) {
				restart(ctrl, again, &old_generation);
				restarted = again, again = NULL;
			} else {
				done = 1;
				continue;
			}
		}
		int64_t wait = io.wait_ms < 0 || io.wait_ms > 1000 ? 1000 : io.wait_ms;
		if (!stopping && until - now < wait)
			wait = until - now > 0 ? until - now : 0;
		if (be.poll(be.self, ctrl, wait, &err) < 0) {
			fprintf(stderr, "dsrun: %s\n", err.message);
			break;
		}
	}
	int acquired = 0, lost = 0;
	if (elect)
		election(ctrl, be.now(be.self), &acquired, &lost);
	int ok = done && !lost && converged(ctrl, 1);
	if (lost)
		fputs("dsrun: leaderelection lost\n", stderr);
	else if (elect && !acquired)
		fprintf(stderr, "dsrun: timed out waiting for leader lease %s/%s\n", lo.ns, lo.name);
	else
		printf("%s\n", ok ? "converged" : "not converged");
	ds_controller_free(ctrl);
	ds_options_free(opts);
	be.close(be.self);
	return ok ? 0 : 1;
}
