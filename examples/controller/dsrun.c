/* dsrun: a DaemonSet controller in one loop - a transport, libdaemonset's driver, and the
 * watch fed back. Runs every DaemonSet to its goal; --restart NS/NAME then rolls one out again.
 *   dsrun [--cluster DIR]                the in-memory cluster of memtransport.c, virtual time
 *   dsrun --url http://127.0.0.1:8001    kubectl proxy (or --in-cluster), httptransport.c
 *   dsrun --leader-elect ...             only while holding a Lease, leader.c
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
	"             [--leader-elect [--lease-namespace NS] [--lease-name NAME] [--identity ID]\n"
	"                             [--lease-duration D] [--renew-deadline D] [--retry-period D]]\n"
	"--leader-elect: reconcile only while holding the coordination.k8s.io/v1 Lease NS/NAME, as client-go's\n"
	"  leader election does: take it first (trying every retry period), renew it every retry period, exit 1\n"
	"  with \"leaderelection lost\" when it was not renewed within the renew deadline, give it up on exit.\n"
	"  Defaults: the Lease kube-system/dsrun (its own: kube-controller-manager holds kube-system/\n"
	"  kube-controller-manager), ID hostname_UUID, and kube-controller-manager's 15s, 10s and 2s\n"
	"  (--leader-elect-lease-duration, --leader-elect-renew-deadline, --leader-elect-retry-period).\n";

/* List everything, then watch from where each list ended. */
static int list_and_watch(ds_controller *ctrl)
{
	static const char *const kinds[] = {"nodes", "pods", "daemonsets", "controllerrevisions"};
	char *out;
	ds_error err;
	if (ds_controller_resync(ctrl, be.now(be.self), &out, &err) < 0)
		return fprintf(stderr, "dsrun: list: %s\n", err.message), -1;
	json_t *doc = json_loads(out, 0, NULL);
	for (size_t i = 0; be.watch && i < 4; i++)
		be.watch(be.self, kinds[i],
			 json_string_value(json_object_get(json_object_get(doc, "resourceVersions"), kinds[i])));
	json_decref(doc), ds_free(out);
	return 0;
}

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

int main(int argc, char **argv)
{
	const char *dir = "examples/cluster", *url = NULL, *again = NULL, *restarted = NULL, *timeout = "300";
	int in_cluster = 0, syncs = 0, elect = 0, lost = 0, flag = 0;
	json_int_t old_generation = 0;
	leader_options lo = LEADER_OPTIONS_INIT;
	for (int i = 1; i < argc; i++) {
		const char **opt = !strcmp(argv[i], "--cluster")   ? &dir
				   : !strcmp(argv[i], "--url")     ? &url
				   : !strcmp(argv[i], "--restart") ? &again
				   : !strcmp(argv[i], "--timeout") ? &timeout
								   : NULL;
		if (!strcmp(argv[i], "--in-cluster"))
			in_cluster = 1;
		else if (!strcmp(argv[i], "--leader-elect"))
			elect = 1;
		else if (opt && i + 1 < argc)
			*opt = argv[++i];
		else if ((flag = i + 1 < argc ? leader_flag(&lo, argv[i], argv[i + 1]) : 0) > 0)
			i++;
		else
			return flag < 0 ? 2 : (fputs(usage, stderr), 2);
	}
	ds_error err = {0};
	char why[256] = "built without libcurl";
#ifdef DSRUN_HTTP
	http_options ho = {url, in_cluster, 0};
	if ((url || in_cluster) && http_backend(&ho, &be, why, sizeof(why)) < 0)
#else
	if (url || in_cluster)
#endif
		return fprintf(stderr, "dsrun: %s\n", why), 1;
	if (!url && !in_cluster && mem_backend(dir, 1796223600000LL /* 2026-12-02T15:00:00Z */, &be, &err) < 0)
		return fprintf(stderr, "dsrun: %s: %s\n", dir, err.message), 1;
	ds_time until = be.now(be.self) + (ds_time)atoi(timeout) * 1000;
	leader *le = NULL; /* --leader-elect: lead before listing, as kube-controller-manager starts its informers */
	if (elect && !(le = leader_acquire(&lo, &be, until)))
		return be.close(be.self), 1;
	ds_controller *ctrl;
	if (ds_controller_new(&be.transport, NULL, NULL, &ctrl, &err) < 0 || list_and_watch(ctrl) < 0)
		return leader_release(le, &be), 1;
	while (be.now(be.self) < until) {
		int64_t wait_ms;
		if (le && (lost = !leader_keep(le, &be)))
			break; /* not renewed within the renew deadline: stop reconciling at once */
		if ((syncs = ds_controller_run(ctrl, be.now(be.self), &wait_ms, NULL, &err)) < 0)
			break;
		size_t len = 0;
		int relist = 0;
		long wait = leader_wait(le, &be, wait_ms < 0 || wait_ms > 1000 ? 1000 : (long)wait_ms);
		char *ev = be.wait(be.self, wait, &len, &relist);
		if (ev && ds_controller_apply_events(ctrl, ev, len, be.now(be.self), NULL, NULL, &err) < 0)
			relist = 1; /* a watch ERROR, or an event the snapshot refused: list again */
		free(ev);
		if (relist && list_and_watch(ctrl) < 0)
			break;
		if (wait_ms == 0 || !converged(ctrl, 0) || (restarted && generation(ctrl, restarted) <= old_generation))
			continue; /* work is due, the goal is not reached, or the watch has not shown the restart yet */
		if (!again)
			break;
		char ns[256], patch[200], at[32]; /* kubectl rollout restart: the time (RFC 3339) on the template */
		const char *name = split(again, ns, sizeof(ns));
		ds_time_format(be.now(be.self) / 1000 * 1000, at, sizeof(at));
		snprintf(patch, sizeof(patch),
			 "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":"
			 "{\"kubectl.kubernetes.io/restartedAt\":\"%s\"}}}}}",
			 at);
		old_generation = generation(ctrl, again);
		printf("restart %s: %s\n", again,
		       be.patch(be.self, "daemonsets", ns, name, patch) == DS_TRANSPORT_OK ? "patched" : "failed");
		restarted = again, again = NULL;
	}
	leader_release(le, &be); /* as client-go's ReleaseOnCancel */
	int done = !lost && !again && converged(ctrl, 1);
	if (lost)
		fputs("dsrun: leaderelection lost\n", stderr);
	else
		printf("%s%s\n", done ? "converged" : "not converged ", syncs < 0 ? err.message : "");
	ds_controller_free(ctrl);
	be.close(be.self);
	return done ? 0 : 1;
}
