/*
 * quickstart: load a cluster dump and ask where a DaemonSet runs.
 *
 *   cc quickstart.c $(pkg-config --cflags --libs daemonset) -o quickstart
 *   ./quickstart examples/cluster kube-system fluentd-logging
 *
 * Uses only the public API. SPDX-License-Identifier: Apache-2.0
 */
#include <daemonset.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "examples/cluster";
	const char *ns = argc > 2 ? argv[2] : "kube-system";
	const char *name = argc > 3 ? argv[3] : "fluentd-logging";
	ds_cluster *cluster;
	ds_error err;
	size_t loaded;

	if (ds_cluster_new(NULL, &cluster, &err) < 0 || ds_cluster_load_file(cluster, path, &loaded, &err) < 0) {
		fprintf(stderr, "%s: %s %s: %s\n", ds_strerror(err.code), err.source, err.path, err.message);
		return 1;
	}
	printf("libdaemonset %s: loaded %zu objects, %zu nodes\n", ds_version(), loaded,
	       ds_cluster_count(cluster, "Node"));

	/* The controller's verdict for each node, in name order. */
	const char *node;
	for (size_t i = 0; ds_cluster_node_name_at(cluster, i, &node, NULL) == 0; i++) {
		int run, keep;
		if (ds_daemonset_should_run(cluster, ns, name, node, NULL, &run, &keep, NULL, &err) < 0) {
			fprintf(stderr, "%s: %s\n", node, err.message);
			continue;
		}
		printf("%-10s shouldRun=%d shouldContinueRunning=%d\n", node, run, keep);
	}

	/* What one sync of the controller would do now. */
	ds_time now;
	ds_time_parse("2026-12-02T15:00:00Z", &now, NULL);
	ds_plan *plan;
	if (ds_daemonset_plan(cluster, ns, name, now, NULL, NULL, 0, &plan, &err) < 0) {
		fprintf(stderr, "plan: %s\n", err.message);
		ds_cluster_free(cluster);
		return 1;
	}
	for (size_t i = 0; i < ds_plan_create_count(plan); i++) {
		ds_plan_create c = DS_PLAN_CREATE_INIT;
		ds_plan_create_at(plan, i, &c, NULL);
		printf("create a pod on %s (%s)\n", c.node, c.reason);
	}
	for (size_t i = 0; i < ds_plan_delete_count(plan); i++) {
		ds_plan_delete d = DS_PLAN_DELETE_INIT;
		ds_plan_delete_at(plan, i, &d, NULL);
		printf("delete %s/%s on %s (%s)\n", d.namespace_, d.name, d.node, d.reason);
	}
	ds_plan_free(plan);
	ds_cluster_free(cluster);
	return 0;
}
