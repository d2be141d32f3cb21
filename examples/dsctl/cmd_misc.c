/* dsctl version, get, demo. */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"

int cmd_version(ctx *c)
{
	json_t *v = json_pack("{s:s, s:s}", "dsctl", DS_VERSION_STRING, "libdaemonset", ds_version());
	int p = print_structured(c, v);
	if (!p)
		printf("dsctl %s (libdaemonset %s)\n", DS_VERSION_STRING, ds_version());
	json_decref(v);
	return p < 0 ? EXIT_ERROR : EXIT_OK;
}

int cmd_get(ctx *c)
{
	char *text;
	ds_error err;
	if (ds_cluster_summary(c->cluster, &text, &err) < 0)
		return fail("cannot summarise the snapshot", &err);
	json_t *s = take_json(text), *d;
	size_t i;
	if (c->out == OUT_NAME) { /* kubectl's -o name */
		json_array_foreach(json_object_get(s, "daemonSets"), i, d)
			printf("daemonset.apps/%s\n", json_string_value(json_object_get(d, "name")));
		json_decref(s);
		return EXIT_OK;
	}
	int p = print_structured(c, s);
	if (!p) {
		printf("Loaded %lld nodes, %lld pods, %lld DaemonSets, %lld ControllerRevisions, %lld "
		       "PodDisruptionBudgets, "
		       "%lld PriorityClasses and %lld other objects.\n\n",
		       (long long)json_integer_value(json_object_get(s, "nodes")),
		       (long long)json_integer_value(json_object_get(s, "pods")),
		       (long long)json_integer_value(json_object_get(s, "daemonSetCount")),
		       (long long)json_integer_value(json_object_get(s, "controllerRevisions")),
		       (long long)json_integer_value(json_object_get(s, "podDisruptionBudgets")),
		       (long long)json_integer_value(json_object_get(s, "priorityClasses")),
		       (long long)json_integer_value(json_object_get(s, "other")));
		table *t =
			table_new(8, "NAMESPACE", "NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE", "");
		int from_manifest = 0;
		json_array_foreach(json_object_get(s, "daemonSets"), i, d)
		{
			const char *ns = json_string_value(json_object_get(d, "namespace"));
			const char *name = json_string_value(json_object_get(d, "name"));
			ds_status st = DS_STATUS_INIT;
			if (ds_daemonset_status(c->cluster, ns, name, c->now, c->opts, &st, &err) < 0) {
				json_decref(s);
				return fail("status failed", &err);
			}
			char v[5][16];
			snprintf(v[0], 16, "%d", st.desired_number_scheduled);
			snprintf(v[1], 16, "%d", st.current_number_scheduled);
			snprintf(v[2], 16, "%d", st.number_ready);
			snprintf(v[3], 16, "%d", st.updated_number_scheduled);
			snprintf(v[4], 16, "%d", st.number_available);
			int manifest = json_is_true(json_object_get(d, "fromManifest"));
			from_manifest |= manifest;
			table_row(t, ns, name, v[0], v[1], v[2], v[3], v[4], manifest ? "(manifest)" : "");
		}
		table_print(t, c);
		if (from_manifest)
			printf("\n(manifest): read from a file, not from an API server: the namespace and the API "
			       "server's "
			       "defaults were filled in as kubectl apply and the API server would.\n");
		/* a cluster has thousands of nodes: a few names unless -o wide */
		char *nodes = join_list(json_object_get(s, "nodeNames"), NULL, ", ", c->wide ? 0 : 12);
		printf("\nNodes: %s\n", nodes && *nodes ? nodes : "none");
		free(nodes);
	}
	json_decref(s);
	return p < 0 ? EXIT_ERROR : EXIT_OK;
}

/* The tour `make demo` runs: what was loaded, fluentd's placement, its next sync, its audit. */
int cmd_demo(ctx *c)
{
	const char *ds = c->argc ? c->argv[0] : "kube-system/fluentd-logging";
	char *saved[1] = {(char *)ds}, **argv = c->argv;
	int argc = c->argc;
	heading(c, "== What the snapshot holds (dsctl get)");
	int rc = cmd_get(c);
	/* the other commands take the DaemonSet as their argument */
	c->argc = 1;
	c->argv = saved;
	if (rc == EXIT_OK) {
		printf("\n");
		heading(c, "== Where fluentd-logging runs, and why not elsewhere (dsctl explain)");
		rc = cmd_explain(c);
	}
	if (rc == EXIT_OK) {
		printf("\n");
		heading(c, "== What the controller's next sync does (dsctl plan)");
		rc = cmd_plan(c);
	}
	if (rc == EXIT_OK) {
		printf("\n");
		heading(c, "== Is it safe (dsctl audit)");
		rc = cmd_audit(c);
		rc = rc == EXIT_CHECK ? EXIT_OK : rc; /* a failing audit is the demo's point, not an error */
	}
	c->argc = argc;
	c->argv = argv;
	return rc;
}
