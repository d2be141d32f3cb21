/* dsctl plan, dsctl status: what one sync of the controller does. */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"
#include "plot.h"

/* -l on a plan: only the creates and deletes on the selected nodes (the document's too). */
static void select_plan_nodes(ctx *c, json_t *doc)
{
	const char *lists[] = {"creates", "deletes"};
	for (size_t l = 0; l < 2; l++) {
		json_t *keep = json_array(), *x;
		size_t i;
		json_array_foreach(json_object_get(doc, lists[l]), i, x)
		{
			const char *node = json_string_value(json_object_get(x, "node"));
			if (node && node_selected(c, node))
				json_array_append(keep, x);
		}
		json_object_set_new(doc, lists[l], keep);
	}
}

int cmd_plan(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	const char *sel = flag_value(c, "selector");
	int rc, m;
	ds_error err;
	if (sel && ds_selector_match(sel, strlen(sel), "{}", 2, &m, &err) < 0)
		return usage_error(c->cmd->name, "invalid label selector \"%s\": %s", sel, err.message);
	if ((rc = command_ds(c, ns, name)) != EXIT_OK)
		return rc;
	ds_plan *plan;
	if (ds_daemonset_plan(c->cluster, ns, name, c->now, c->opts, NULL, 0, &plan, &err) < 0)
		return fail("planning failed", &err);
	char *text;
	if (ds_plan_to_json(plan, &text, &err) < 0) {
		ds_plan_free(plan);
		return fail("planning failed", &err);
	}
	json_t *doc = take_json(text);
	if (sel)
		select_plan_nodes(c, doc);
	if ((rc = print_structured(c, doc)) != 0) {
		rc = rc < 0 ? EXIT_ERROR : EXIT_OK;
		goto done;
	}
	say(c, 2, "One sync of DaemonSet %s/%s (revision hash %s)\n", ns, name,
	    json_string_value(json_object_get(doc, "hash")) ? json_string_value(json_object_get(doc, "hash")) : "-");
	if (json_object_get(doc, "skipped")) {
		say(c, 2, "\nThe controller does nothing: %s\n", json_string_value(json_object_get(doc, "skipped")));
		goto events;
	}
	size_t i, nc = ds_plan_create_count(plan), nd = ds_plan_delete_count(plan);
	/* with -l, the headings count what is shown */
	size_t shown_c = json_array_size(json_object_get(doc, "creates")),
	       shown_d = json_array_size(json_object_get(doc, "deletes"));
	say(c, 2, "\n");
	heading(c, shown_c ? "Create" : sel && nc ? "Create: nothing on the selected nodes" : "Create: nothing");
	if (shown_c) {
		table *t = table_new(3, "NODE", "REASON", "BATCH");
		for (i = 0; i < nc; i++) {
			ds_plan_create cr = DS_PLAN_CREATE_INIT;
			ds_plan_create_at(plan, i, &cr, &err);
			if (sel && !node_selected(c, cr.node))
				continue;
			char b[16];
			snprintf(b, sizeof(b), "%zu", cr.batch); /* 0-based, as ds_plan_create_at(3) and Python */
			table_row(t, cr.node, cr.reason, b);
		}
		table_print(t, c);
	}
	say(c, 2, "\n");
	heading(c, shown_d ? "Delete" : sel && nd ? "Delete: nothing on the selected nodes" : "Delete: nothing");
	if (shown_d) {
		table *t = table_new(3, "POD", "NODE", "REASON");
		for (i = 0; i < nd; i++) {
			ds_plan_delete d = DS_PLAN_DELETE_INIT;
			ds_plan_delete_at(plan, i, &d, &err);
			if (sel && d.node && !node_selected(c, d.node))
				continue;
			char pod[512];
			snprintf(pod, sizeof(pod), "%s/%s", d.namespace_, d.name);
			table_row(t, pod, d.node, d.reason);
		}
		table_print(t, c);
	}
	json_t *def = json_object_get(doc, "deferred");
	if (def)
		say(c, 2, "(%lld creates and %lld deletes wait for later syncs: burstReplicas)\n",
		    (long long)json_integer_value(json_object_get(def, "creates")),
		    (long long)json_integer_value(json_object_get(def, "deletes")));
	json_t *ru = json_object_get(doc, "rollingUpdate");
	say(c, 2, "\n");
	if (json_is_true(json_object_get(ru, "ran")))
		say(c, 2, "Rolling update: maxUnavailable %lld, maxSurge %lld, %lld desired\n",
		    (long long)json_integer_value(json_object_get(ru, "maxUnavailable")),
		    (long long)json_integer_value(json_object_get(ru, "maxSurge")),
		    (long long)json_integer_value(json_object_get(ru, "desired")));
	else
		say(c, 2, "Rolling update: waits for this sync's creates and deletes to be observed\n");
	json_t *h = json_object_get(doc, "history");
	if (json_object_get(h, "create"))
		say(c, 2, "History: create ControllerRevision %s\n", json_string_value(json_object_get(h, "current")));
	if (json_object_get(h, "delete"))
		say(c, 2, "History: delete %zu old ControllerRevision(s)\n",
		    json_array_size(json_object_get(h, "delete")));
	json_t *st = json_object_get(doc, "status");
	say(c, 2,
	    "\nStatus%s: desired %lld, current %lld, updated %lld, ready %lld, available %lld, misscheduled %lld\n",
	    json_is_true(json_object_get(doc, "statusChanged")) ? " (written)" : " (unchanged)",
	    (long long)json_integer_value(json_object_get(st, "desiredNumberScheduled")),
	    (long long)json_integer_value(json_object_get(st, "currentNumberScheduled")),
	    (long long)json_integer_value(json_object_get(st, "updatedNumberScheduled")),
	    (long long)json_integer_value(json_object_get(st, "numberReady")),
	    (long long)json_integer_value(json_object_get(st, "numberAvailable")),
	    (long long)json_integer_value(json_object_get(st, "numberMisscheduled")));
	if (ds_plan_requeue_after(plan) >= 0)
		say(c, 2, "Sync again in %.1fs\n", (double)ds_plan_requeue_after(plan) / 1000.0);
events:;
	json_t *ev;
	json_array_foreach(json_object_get(doc, "events"), i, ev) say(
		c, 2, "Event %s %s: %s\n", json_string_value(json_object_get(ev, "type")),
		json_string_value(json_object_get(ev, "reason")), json_string_value(json_object_get(ev, "message")));
	rc = EXIT_OK;
done:
	json_decref(doc);
	ds_plan_free(plan);
	return rc;
}

int cmd_status(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc = command_ds(c, ns, name);
	if (rc)
		return rc;
	ds_status st = DS_STATUS_INIT;
	ds_error err;
	if (ds_daemonset_status(c->cluster, ns, name, c->now, c->opts, &st, &err) < 0)
		return fail("status failed", &err);
	json_t *doc = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:I}", "desiredNumberScheduled",
				st.desired_number_scheduled, "currentNumberScheduled", st.current_number_scheduled,
				"numberMisscheduled", st.number_misscheduled, "numberReady", st.number_ready,
				"updatedNumberScheduled", st.updated_number_scheduled, "numberAvailable",
				st.number_available, "numberUnavailable", st.number_unavailable, "observedGeneration",
				(json_int_t)st.observed_generation);
	int p = print_structured(c, doc);
	if (!p) {
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
	return p < 0 ? EXIT_ERROR : EXIT_OK;
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

/* What the simulation assumed (it says so itself), and its warnings. */
static void print_assumptions(const ctx *c, const json_t *doc)
{
	const json_t *v;
	const char *k;
	size_t i;
	say(c, 2,
	    "\n%sAssumptions%s (--set simReadyAfter=, simTerminateAfter=, simFailNodes=, simMaxTime= change "
	    "them):\n",
	    colour(c, "bold"), colour(c, "reset"));
	json_object_foreach((json_t *)json_object_get(doc, "assumptions"), k, v)
	{
		char *s = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		say(c, 2, "  %s: %s\n", k, s ? s : json_string_value(v));
		free(s);
	}
	json_array_foreach(json_object_get(doc, "warnings"), i, v)
		say(c, 2, "%swarning:%s %s\n", colour(c, "warn"), colour(c, "reset"),
		    json_is_string(v) ? json_string_value(v) : json_string_value(json_object_get(v, "message")));
}

int cmd_rollout(ctx *c)
{
	if (c->sub && strcmp(c->sub, "status") == 0)
		return cmd_rollout_status(c);
	if (c->sub && strcmp(c->sub, "history") == 0)
		return cmd_rollout_history(c);
	if (c->sub && strcmp(c->sub, "undo") == 0)
		return cmd_rollback(c);
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	const char *plot = c->out == OUT_SVG ? "-" : flag_value(c, "plot");
	if (plot && !*plot)
		return usage_error(c->cmd->name, "--plot needs a file (- for standard output)");
	int rc = command_ds(c, ns, name);
	if (rc)
		return rc;
	char *text;
	ds_error err;
	if (ds_daemonset_rollout(c->cluster, ns, name, c->now, c->opts, &text, &err) < 0)
		return fail("simulation failed", &err);
	json_t *doc = take_json(text);
	/* the exit status says whether the rollout completes, whatever the format (dsctl(1)) */
	int done = strcmp(json_string_value(json_object_get(doc, "result")), "complete") == 0;
	if (plot && (rc = plot_hook(plot, plot_rollout_svg, doc, "Rollout", ns, name)) >= 0) {
		json_decref(doc);
		return rc;
	}
	int p = print_structured(c, doc);
	if (p) {
		json_decref(doc);
		return p < 0 ? EXIT_ERROR : done ? EXIT_OK : EXIT_CHECK;
	}
	const char *result = json_string_value(json_object_get(doc, "result"));
	int ok = strcmp(result, "complete") == 0;
	say(c, 2, "Rollout of %s/%s: %s%s%s after %.0fs (%lld syncs, %lld creates, %lld deletes)\n", ns, name,
	    colour(c, ok ? "ok" : "bad"), result, colour(c, "reset"),
	    json_real_value(json_object_get(doc, "durationSeconds")),
	    (long long)json_integer_value(json_object_get(doc, "syncs")),
	    (long long)json_integer_value(json_object_get(doc, "creates")),
	    (long long)json_integer_value(json_object_get(doc, "deletes")));
	long long mu = json_integer_value(json_object_get(doc, "maxUnavailable"));
	long long ms = json_integer_value(json_object_get(doc, "maxSurge"));
	say(c, 2,
	    "Budget: maxUnavailable %lld (at most %lld unavailable seen), maxSurge %lld (at most %lld nodes with "
	    "two pods)%s\n",
	    mu, (long long)json_integer_value(json_object_get(doc, "maxUnavailableSeen")), ms,
	    (long long)json_integer_value(json_object_get(doc, "maxSurgeSeen")),
	    json_is_true(json_object_get(doc, "budgetExceeded")) ? " - EXCEEDED" : "");
	json_t *stall = json_object_get(doc, "stall");
	if (stall) {
		/* hundreds of nodes can stall: a few names and a count */
		char *nodes = join_list(json_object_get(stall, "nodes"), NULL, ", ", 20);
		say(c, 2, "Stalled: %s%s%s%s\n", json_string_value(json_object_get(stall, "reason")),
		    nodes && *nodes ? " (" : "", nodes ? nodes : "", nodes && *nodes ? ")" : "");
		free(nodes);
	}
	say(c, 2, "\n");
	/* a wave can touch hundreds of nodes: the first few by name and a count (-o wide: each node's time) */
	table *t = table_new(3, "AT", "CREATE ON", "DELETE");
	size_t i;
	json_t *w;
	json_array_foreach(json_object_get(doc, "waves"), i, w)
	{
		char *cr = join_list(json_object_get(w, "creates"), NULL, ",", 4),
		     *de = join_list(json_object_get(w, "deletes"), NULL, ",", 4);
		table_row(t, json_string_value(json_object_get(w, "at")), cr && *cr ? cr : "-", de && *de ? de : "-");
		free(cr);
		free(de);
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
		say(c, 2, "\n");
		t = table_new(2, "NODE", "UPDATED AT");
		for (size_t k = 0; k < n; k++)
			table_row(t, nodes[k].node, nodes[k].at);
		table_print(t, c);
		free(nodes);
	}
	print_assumptions(c, doc);
	json_decref(doc);
	return ok ? EXIT_OK : EXIT_CHECK;
}
