/* dsctl version, get, demo. */
#include <string.h>

#include "dsctl.h"


int cmd_version(ctx *c)
{
	json_t *v = json_pack("{s:s, s:s}", "dsctl", DS_VERSION_STRING, "libdaemonset", ds_version());
	if (!print_structured(c, v))
		printf("dsctl %s (libdaemonset %s)\n", DS_VERSION_STRING, ds_version());
	json_decref(v);
	return EXIT_OK;
}

int cmd_get(ctx *c)
{
	char *text;
	ds_error err;
	if (ds_cluster_summary(c->cluster, &text, &err) < 0)
		return fail("cannot summarise the snapshot", &err);
	json_t *s = take_json(text);
	if (!print_structured(c, s)) {
		printf("Loaded %lld nodes, %lld pods, %lld DaemonSets, %lld ControllerRevisions, %lld PodDisruptionBudgets, "
		       "%lld PriorityClasses and %lld other objects.\n\n",
		       (long long)json_integer_value(json_object_get(s, "nodes")),
		       (long long)json_integer_value(json_object_get(s, "pods")),
		       (long long)json_integer_value(json_object_get(s, "daemonSetCount")),
		       (long long)json_integer_value(json_object_get(s, "controllerRevisions")),
		       (long long)json_integer_value(json_object_get(s, "podDisruptionBudgets")),
		       (long long)json_integer_value(json_object_get(s, "priorityClasses")),
		       (long long)json_integer_value(json_object_get(s, "other")));
		table *t = table_new(7, "NAMESPACE", "NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE");
		size_t i;
		json_t *d;
		json_array_foreach(json_object_get(s, "daemonSets"), i, d)
		{
			const char *ns = json_string_value(json_object_get(d, "namespace"));
			const char *name = json_string_value(json_object_get(d, "name"));
			ds_status st;
			memset(&st, 0, sizeof(st));
			st.size = sizeof(st);
			if (ds_status_compute(c->cluster, ns, name, c->now, c->opts, &st, &err) < 0)
				return fail("status failed", &err);
			char v[5][16];
			snprintf(v[0], 16, "%d", st.desired_number_scheduled);
			snprintf(v[1], 16, "%d", st.current_number_scheduled);
			snprintf(v[2], 16, "%d", st.number_ready);
			snprintf(v[3], 16, "%d", st.updated_number_scheduled);
			snprintf(v[4], 16, "%d", st.number_available);
			table_row(t, ns, name, v[0], v[1], v[2], v[3], v[4]);
		}
		table_print(t, c);
		printf("\nNodes:");
		json_t *n;
		json_array_foreach(json_object_get(s, "nodeNames"), i, n) printf(" %s", json_string_value(n));
		printf("\n");
	}
	json_decref(s);
	return EXIT_OK;
}

/* The tour `make demo` runs: what was loaded, fluentd's placement, its next sync, its audit. */
int cmd_demo(ctx *c)
{
	const char *ds = c->argc ? c->argv[0] : "kube-system/fluentd-logging";
	char *saved[1] = {(char *)ds};
	heading(c, "== What the snapshot holds (dsctl get)");
	int rc = cmd_get(c);
	if (rc)
		return rc;
	c->argc = 1;
	c->argv = saved;
	printf("\n");
	heading(c, "== Where fluentd-logging runs, and why not elsewhere (dsctl explain)");
	if ((rc = cmd_explain(c)) != EXIT_OK)
		return rc;
	printf("\n");
	heading(c, "== What the controller's next sync does (dsctl plan)");
	if ((rc = cmd_plan(c)) != EXIT_OK)
		return rc;
	printf("\n");
	heading(c, "== Is it safe (dsctl audit)");
	rc = cmd_audit(c);
	return rc == EXIT_CHECK ? EXIT_OK : rc; /* a failing audit is the demo's point, not an error */
}
