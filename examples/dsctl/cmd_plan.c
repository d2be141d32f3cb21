/* dsctl plan, dsctl status: what one sync of the controller does. */
#include <string.h>

#include "dsctl.h"
#include "plot.h"

int cmd_plan(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc = command_ds(c, "plan", 1, 1, "plan needs a DaemonSet", ns, name);
	if (rc)
		return rc;
	ds_plan *plan;
	ds_error err;
	if (ds_plan_sync(c->cluster, ns, name, c->now, c->opts, NULL, &plan, &err) < 0)
		return fail("planning failed", &err);
	char *text;
	if (ds_plan_to_json(plan, &text, &err) < 0) {
		ds_plan_free(plan);
		return fail("planning failed", &err);
	}
	json_t *doc = take_json(text);
	if (print_structured(c, doc))
		goto done;
	printf("One sync of DaemonSet %s/%s (revision hash %s)\n", ns, name,
	       json_string_value(json_object_get(doc, "hash")) ? json_string_value(json_object_get(doc, "hash")) : "-");
	if (json_object_get(doc, "skipped")) {
		printf("\nThe controller does nothing: %s\n", json_string_value(json_object_get(doc, "skipped")));
		goto events;
	}
	size_t i, nc = ds_plan_create_count(plan), nd = ds_plan_delete_count(plan);
	printf("\n");
	heading(c, nc ? "Create" : "Create: nothing");
	if (nc) {
		table *t = table_new(3, "NODE", "REASON", "BATCH");
		for (i = 0; i < nc; i++) {
			ds_plan_create cr = {sizeof(cr), 0, 0, 0};
			ds_plan_get_create(plan, i, &cr, &err);
			char b[16];
			snprintf(b, sizeof(b), "%zu", cr.batch); /* 0-based, as ds_plan_get_create(3) and Python */
			table_row(t, cr.node, cr.reason, b);
		}
		table_print(t, c);
	}
	printf("\n");
	heading(c, nd ? "Delete" : "Delete: nothing");
	if (nd) {
		table *t = table_new(3, "POD", "NODE", "REASON");
		for (i = 0; i < nd; i++) {
			ds_plan_delete d = {sizeof(d), 0, 0, 0, 0, 0};
			ds_plan_get_delete(plan, i, &d, &err);
			char pod[512];
			snprintf(pod, sizeof(pod), "%s/%s", d.namespace_, d.name);
			table_row(t, pod, d.node, d.reason);
		}
		table_print(t, c);
	}
	json_t *def = json_object_get(doc, "deferred");
	if (def)
		printf("(%lld creates and %lld deletes wait for later syncs: burstReplicas)\n",
		       (long long)json_integer_value(json_object_get(def, "creates")),
		       (long long)json_integer_value(json_object_get(def, "deletes")));
	json_t *ru = json_object_get(doc, "rollingUpdate");
	printf("\n");
	if (json_is_true(json_object_get(ru, "ran")))
		printf("Rolling update: maxUnavailable %lld, maxSurge %lld, %lld desired\n",
		       (long long)json_integer_value(json_object_get(ru, "maxUnavailable")),
		       (long long)json_integer_value(json_object_get(ru, "maxSurge")),
		       (long long)json_integer_value(json_object_get(ru, "desired")));
	else
		printf("Rolling update: waits for this sync's creates and deletes to be observed\n");
	json_t *h = json_object_get(doc, "history");
	if (json_object_get(h, "create"))
		printf("History: create ControllerRevision %s\n", json_string_value(json_object_get(h, "current")));
	if (json_object_get(h, "delete"))
		printf("History: delete %zu old ControllerRevision(s)\n", json_array_size(json_object_get(h, "delete")));
	json_t *st = json_object_get(doc, "status");
	printf("\nStatus%s: desired %lld, current %lld, updated %lld, ready %lld, available %lld, misscheduled %lld\n",
	       json_is_true(json_object_get(doc, "statusChanged")) ? " (written)" : " (unchanged)",
	       (long long)json_integer_value(json_object_get(st, "desiredNumberScheduled")),
	       (long long)json_integer_value(json_object_get(st, "currentNumberScheduled")),
	       (long long)json_integer_value(json_object_get(st, "updatedNumberScheduled")),
	       (long long)json_integer_value(json_object_get(st, "numberReady")),
	       (long long)json_integer_value(json_object_get(st, "numberAvailable")),
	       (long long)json_integer_value(json_object_get(st, "numberMisscheduled")));
	if (ds_plan_requeue_after(plan) >= 0)
		printf("Sync again in %.1fs\n", (double)ds_plan_requeue_after(plan) / 1000.0);
events:;
	json_t *ev;
	json_array_foreach(json_object_get(doc, "events"), i, ev)
	printf("Event %s %s: %s\n", json_string_value(json_object_get(ev, "type")), json_string_value(json_object_get(ev, "reason")),
	       json_string_value(json_object_get(ev, "message")));
done:
	json_decref(doc);
	ds_plan_free(plan);
	return EXIT_OK;
}

int cmd_status(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc = command_ds(c, "status", 1, 1, "status needs a DaemonSet", ns, name);
	if (rc)
		return rc;
	ds_status st;
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	ds_error err;
	if (ds_status_compute(c->cluster, ns, name, c->now, c->opts, &st, &err) < 0)
		return fail("status failed", &err);
	json_t *doc = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:I}", "desiredNumberScheduled",
				st.desired_number_scheduled, "currentNumberScheduled", st.current_number_scheduled,
				"numberMisscheduled", st.number_misscheduled, "numberReady", st.number_ready,
				"updatedNumberScheduled", st.updated_number_scheduled, "numberAvailable", st.number_available,
				"numberUnavailable", st.number_unavailable, "observedGeneration",
				(json_int_t)st.observed_generation);
	if (!print_structured(c, doc)) {
		table *t = table_new(8, "NAMESPACE", "NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE",
				     "MISSCHEDULED");
		char v[6][16];
		snprintf(v[0], 16, "%d", st.desired_number_scheduled);
		snprintf(v[1], 16, "%d", st.current_number_scheduled);
		snprintf(v[2], 16, "%d", st.number_ready);
		snprintf(v[3], 16, "%d", st.updated_number_scheduled);
		snprintf(v[4], 16, "%d", st.number_available);
		snprintf(v[5], 16, "%d", st.number_misscheduled);
		table_row(t, ns, name, v[0], v[1], v[2], v[3], v[4], v[5]);
		table_print(t, c);
	}
	json_decref(doc);
	return EXIT_OK;
}

typedef struct node_time {
	const char *node, *at;
} node_time;

/* By update time (RFC 3339 UTC strings sort as times), then by node name. */
static int by_update_time(const void *a, const void *b)
{
	const node_time *x = a, *y = b;
	int r = strcmp(x->at, y->at);
	return r ? r : strcmp(x->node, y->node);
}

int cmd_rollout(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	const char *plot; /* --plot FILE (plot.c) */
	int rc = plot_option(c, "rollout", &plot);
	if (!rc)
		rc = command_ds(c, "rollout", 1, 1, "rollout needs a DaemonSet", ns, name);
	if (rc)
		return rc;
	char *text;
	ds_error err;
	if (ds_rollout_simulate(c->cluster, ns, name, c->now, c->opts, &text, &err) < 0)
		return fail("simulation failed", &err);
	json_t *doc = take_json(text);
	if (plot && (rc = plot_hook(plot, plot_rollout_svg, doc, "Rollout", ns, name)) >= 0) {
		json_decref(doc);
		return rc;
	}
	if (print_structured(c, doc)) {
		json_decref(doc);
		return EXIT_OK;
	}
	const char *result = json_string_value(json_object_get(doc, "result"));
	int ok = strcmp(result, "complete") == 0;
	printf("Rollout of %s/%s: %s%s%s after %.0fs (%lld syncs, %lld creates, %lld deletes)\n", ns, name,
	       colour(c, ok ? "ok" : "bad"), result, colour(c, "reset"), json_real_value(json_object_get(doc, "durationSeconds")),
	       (long long)json_integer_value(json_object_get(doc, "syncs")), (long long)json_integer_value(json_object_get(doc, "creates")),
	       (long long)json_integer_value(json_object_get(doc, "deletes")));
	long long mu = json_integer_value(json_object_get(doc, "maxUnavailable"));
	long long ms = json_integer_value(json_object_get(doc, "maxSurge"));
	printf("Budget: maxUnavailable %lld (at most %lld unavailable seen), maxSurge %lld (at most %lld nodes with two pods)%s\n",
	       mu, (long long)json_integer_value(json_object_get(doc, "maxUnavailableSeen")), ms,
	       (long long)json_integer_value(json_object_get(doc, "maxSurgeSeen")),
	       json_is_true(json_object_get(doc, "budgetExceeded")) ? " - EXCEEDED" : "");
	json_t *stall = json_object_get(doc, "stall");
	if (stall) {
		printf("Stalled: %s", json_string_value(json_object_get(stall, "reason")));
		size_t i;
		json_t *n;
		json_array_foreach(json_object_get(stall, "nodes"), i, n) printf("%s%s", i ? ", " : " (", json_string_value(n));
		printf("%s\n", json_array_size(json_object_get(stall, "nodes")) ? ")" : "");
	}
	printf("\n");
	table *t = table_new(3, "AT", "CREATE ON", "DELETE");
	size_t i;
	json_t *w;
	json_array_foreach(json_object_get(doc, "waves"), i, w)
	{
		char cr[512] = "", de[512] = "";
		size_t k;
		json_t *x;
		json_array_foreach(json_object_get(w, "creates"), k, x)
		{
			size_t l = strlen(cr);
			snprintf(cr + l, sizeof(cr) - l, "%s%s", l ? "," : "", json_string_value(x));
		}
		json_array_foreach(json_object_get(w, "deletes"), k, x)
		{
			size_t l = strlen(de);
			snprintf(de + l, sizeof(de) - l, "%s%s", l ? "," : "", json_string_value(x));
		}
		table_row(t, json_string_value(json_object_get(w, "at")), cr[0] ? cr : "-", de[0] ? de : "-");
	}
	table_print(t, c);
	if (c->wide) { /* when each node got its updated, available pod, in that order */
		json_t *times = json_object_get(doc, "nodeUpdatedAt");
		node_time *nodes = calloc(json_object_size(times) + 1, sizeof(*nodes));
		size_t n = 0;
		const char *key;
		json_t *v;
		json_object_foreach(times, key, v) if (nodes) nodes[n++] = (node_time){key, json_string_value(v)};
		if (n > 1)
			qsort(nodes, n, sizeof(*nodes), by_update_time);
		printf("\n");
		t = table_new(2, "NODE", "UPDATED AT");
		for (size_t k = 0; k < n; k++)
			table_row(t, nodes[k].node, nodes[k].at);
		table_print(t, c);
		free(nodes);
	}
	json_decref(doc);
	return ok ? EXIT_OK : EXIT_CHECK;
}
