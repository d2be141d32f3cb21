/* dsctl explain, dsctl fit: why a daemon pod is (or is not) on a node. */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"
#include "plot.h"

static const char *str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static const char *status_colour(const ctx *c, const char *s)
{
	if (strcmp(s, "placed") == 0 || strcmp(s, "create") == 0)
		return colour(c, "ok");
	if (strcmp(s, "not-placed") == 0)
		return colour(c, "dim");
	if (strcmp(s, "kept") == 0 || strcmp(s, "pending") == 0 || strcmp(s, "needs-preemption") == 0 ||
	    strcmp(s, "not-evaluated") == 0)
		return colour(c, "warn");
	return colour(c, "bad");
}

/* The reasons of a row, the controller's then the scheduler's. */
static const json_t *first_reason_of(const json_t *row)
{
	const json_t *r = json_array_get(json_object_get(row, "reasons"), 0);
	return r ? r : json_array_get(json_object_get(row, "scheduler"), 0);
}

/* The most useful reason of a row, as one line. */
static void first_reason(const json_t *row, char *buf, size_t size)
{
	const json_t *r = first_reason_of(row);
	buf[0] = '\0';
	if (!r)
		return;
	const char *detail = json_string_value(json_object_get(r, "detail"));
	json_t *res = json_object_get(r, "resource");
	if (res)
		snprintf(buf, size, "%s (requests %lld, %lld free)", str(r, "message"),
			 (long long)json_integer_value(json_object_get(res, "requested")),
			 (long long)json_integer_value(json_object_get(res, "free")));
	else
		snprintf(buf, size, "%s", detail ? detail : str(r, "message"));
}

/* Whether a scheduler reason is "Too many pods" on a node that allows none: a Node written by hand
 * without status.allocatable, which the scheduler reads as room for 0 pods (NodeResourcesFit). */
static int no_allocatable_pods(const json_t *reason)
{
	const json_t *res = json_object_get(reason, "resource");
	return res && strcmp(str(reason, "message"), "Too many pods") == 0 &&
	       json_integer_value(json_object_get(res, "allocatable")) == 0;
}

/* The hint under a table or a fit for such nodes (names: a JSON array of them). */
static void allocatable_hint(const ctx *c, const json_t *names)
{
	size_t n = json_array_size(names);
	if (!n)
		return;
	char *list = join_list(names, NULL, ", ", 5);
	say(c, 2,
	    "\n%snote:%s %s declare%s no allocatable pods (status.allocatable.pods is missing or 0), so no pod fits "
	    "there. A Node written by hand needs status.allocatable, as the kubelet reports it: pods: \"110\", cpu: "
	    "\"4\", memory: 16Gi.\n",
	    colour(c, "warn"), colour(c, "reset"), list ? list : "", n == 1 ? "s" : "");
	free(list);
}

/* The nodes of the rows whose scheduler says so. */
static json_t *rows_without_allocatable(const json_t *doc)
{
	json_t *names = json_array(), *r, *x;
	size_t i, k;
	json_array_foreach(json_object_get(doc, "rows"), i, r) json_array_foreach(json_object_get(r, "scheduler"), k, x)
	{
		if (no_allocatable_pods(x)) {
			json_array_append(names, json_object_get(r, "node"));
			break;
		}
	}
	return names;
}

/* The reason a row counts under in --summary: the plugin's message, per taint for taints (the
 * numbers of a resource shortage differ per node; the resource does not). */
static void reason_key(const json_t *row, char *buf, size_t size)
{
	const json_t *r = first_reason_of(row), *taint = json_object_get(r, "taint");
	const char *st = str(row, "status");
	if (!r) /* no reason to give: what the status itself says */
		snprintf(buf, size, "%s",
			 strcmp(st, "create") == 0    ? "no pod yet: the next sync creates one"
			 : strcmp(st, "pending") == 0 ? "a pod waits for the scheduler"
						      : "-");
	else if (taint)
		snprintf(buf, size, "%s: untolerated taint %s%s%s:%s", str(r, "plugin"), str(taint, "key"),
			 json_object_get(taint, "value") ? "=" : "", str(taint, "value"), str(taint, "effect"));
	else
		snprintf(buf, size, "%s: %s", str(r, "plugin"), str(r, "message"));
}

/* Whether TEXT (--reason) appears in any of the row's reasons. */
static int mentions(const json_t *row, const char *text)
{
	static const char *const members[] = {"plugin", "message", "detail", "field", "nodeField"};
	const char *lists[] = {"reasons", "scheduler"};
	for (size_t l = 0; l < 2; l++) {
		size_t i;
		json_t *r;
		json_array_foreach(json_object_get(row, lists[l]), i, r)
		{
			for (size_t m = 0; m < sizeof(members) / sizeof(members[0]); m++)
				if (strstr(str(r, members[m]), text))
					return 1;
			const json_t *t = json_object_get(r, "taint");
			if (t && (strstr(str(t, "key"), text) || strstr(str(t, "value"), text)))
				return 1;
		}
	}
	return 0;
}

/* Whether the status is one of --status's comma-separated list. */
static int status_listed(const char *list, const char *status)
{
	size_t n = strlen(status);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncmp(p, status, n) == 0)
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

static int known_statuses(const ctx *c, const char *list)
{
	static const char *const all[] = {"placed",        "create",        "needs-preemption",
					  "unschedulable", "not-evaluated", "pending",
					  "kept",          "evict",         "not-placed"};
	const size_t nall = sizeof(all) / sizeof(all[0]);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ","), k = 0;
		while (k < nall && !(strlen(all[k]) == len && strncmp(all[k], p, len) == 0))
			k++;
		if (k == nall)
			return usage_error(c->cmd->name,
					   "unknown status \"%.*s\" for --status: placed, create, needs-preemption, "
					   "unschedulable, not-evaluated, pending, kept, evict or not-placed",
					   (int)len, p);
		p += len + (p[len] == ',');
	}
	return EXIT_OK;
}

/* Keep the rows NODE, -l, --status and --reason ask for. */
static int filter_rows(ctx *c, json_t *doc)
{
	const char *node = c->argc == 2 ? node_arg(c->argv[1]) : NULL, *status = flag_value(c, "status"),
		   *reason = flag_value(c, "reason"), *sel = flag_value(c, "selector");
	if (!node && !status && !reason && !sel)
		return EXIT_OK;
	if (sel) { /* checked once, here */
		int m;
		ds_error err;
		if (ds_selector_match(sel, strlen(sel), "{}", 2, &m, &err) < 0)
			return usage_error(c->cmd->name, "invalid label selector \"%s\": %s", sel, err.message);
	}
	json_t *keep = json_array(), *r;
	size_t i;
	json_array_foreach(json_object_get(doc, "rows"), i, r)
	{
		if ((node && strcmp(str(r, "node"), node) != 0) ||
		    (status && !status_listed(status, str(r, "status"))) || (reason && !mentions(r, reason)) ||
		    (sel && !node_selected(c, str(r, "node"))))
			continue;
		json_array_append(keep, r);
	}
	if (node && !json_array_size(keep)) {
		fprintf(stderr, "Error from server (NotFound): nodes \"%s\" not found\n", node);
		json_decref(keep);
		return EXIT_ERROR;
	}
	json_object_set_new(doc, "rows", keep);
	return EXIT_OK;
}

/* Counts by status and by reason (--summary), as a document of its own. */
static json_t *summarise(const json_t *doc)
{
	json_t *by_status = json_object(), *by_reason = json_object(), *r;
	size_t i;
	json_array_foreach(json_object_get(doc, "rows"), i, r)
	{
		const char *st = str(r, "status");
		json_object_set_new(by_status, st,
				    json_integer(json_integer_value(json_object_get(by_status, st)) + 1));
		if (strcmp(st, "placed") == 0)
			continue;
		char key[512];
		reason_key(r, key, sizeof(key));
		json_t *g = json_object_get(by_reason, key);
		if (!g) {
			g = json_pack("{s:s, s:s, s:i, s:[]}", "status", st, "reason", key, "nodes", 0, "examples");
			json_object_set_new(by_reason, key, g);
		}
		json_object_set_new(g, "nodes", json_integer(json_integer_value(json_object_get(g, "nodes")) + 1));
		if (json_array_size(json_object_get(g, "examples")) < 3)
			json_array_append(json_object_get(g, "examples"), json_object_get(r, "node"));
	}
	/* the statuses in the order of dsctl(1), from placed to not placed */
	static const char *const order[] = {"placed",        "create",        "needs-preemption",
					    "unschedulable", "not-evaluated", "pending",
					    "kept",          "evict",         "not-placed"};
	json_t *ordered = json_object();
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		if (json_object_get(by_status, order[k]))
			json_object_set(ordered, order[k], json_object_get(by_status, order[k]));
	json_decref(by_status);
	by_status = ordered;
	/* the reasons, most nodes first */
	json_t *reasons = json_array();
	const char *k;
	json_t *g;
	json_object_foreach(by_reason, k, g)
	{
		size_t at = 0;
		while (at < json_array_size(reasons) &&
		       json_integer_value(json_object_get(json_array_get(reasons, at), "nodes")) >=
			       json_integer_value(json_object_get(g, "nodes")))
			at++;
		json_array_insert(reasons, at, g);
	}
	json_decref(by_reason);
	return json_pack("{s:O, s:I, s:o, s:o}", "daemonSet", json_object_get(doc, "daemonSet"), "nodes",
			 (json_int_t)json_array_size(json_object_get(doc, "rows")), "byStatus", by_status, "byReason",
			 reasons);
}

static int print_summary(ctx *c, const json_t *doc, const char *ns, const char *name)
{
	json_t *s = summarise(doc);
	int p = print_structured(c, s);
	if (p) {
		json_decref(s);
		return p < 0 ? EXIT_ERROR : EXIT_OK;
	}
	say(c, 2, "DaemonSet %s/%s over %lld nodes\n\n", ns, name,
	    (long long)json_integer_value(json_object_get(s, "nodes")));
	table *t = table_new(2, "STATUS", "NODES");
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(s, "byStatus"), k, v)
	{
		char st[64], n[32];
		snprintf(st, sizeof(st), "%s%s%s", status_colour(c, k), k, colour(c, "reset"));
		snprintf(n, sizeof(n), "%lld", (long long)json_integer_value(v));
		table_row(t, st, n);
	}
	table_print(t, c);
	if (json_array_size(json_object_get(s, "byReason"))) {
		say(c, 2, "\n");
		t = table_new(4, "STATUS", "NODES", "REASON", "FOR EXAMPLE");
		size_t i;
		json_array_foreach(json_object_get(s, "byReason"), i, v)
		{
			char st[64], n[32];
			snprintf(st, sizeof(st), "%s%s%s", status_colour(c, str(v, "status")), str(v, "status"),
				 colour(c, "reset"));
			snprintf(n, sizeof(n), "%lld", (long long)json_integer_value(json_object_get(v, "nodes")));
			char *ex = join_list(json_object_get(v, "examples"), NULL, ",", 0);
			long long more = json_integer_value(json_object_get(v, "nodes")) -
					 (long long)json_array_size(json_object_get(v, "examples"));
			char examples[1024];
			snprintf(examples, sizeof(examples), "%s%s", ex ? ex : "", more > 0 ? ",..." : "");
			table_row(t, st, n, str(v, "reason"), examples);
			free(ex);
		}
		table_print(t, c);
	}
	json_t *bare = rows_without_allocatable(doc);
	allocatable_hint(c, bare);
	json_decref(bare);
	json_decref(s);
	return EXIT_OK;
}

/* One line under the table: how many nodes of each status. */
static void print_tally(const ctx *c, const json_t *doc)
{
	json_t *s = summarise(doc), *v;
	const char *k;
	char line[1024];
	size_t l = (size_t)snprintf(line, sizeof(line),
				    "%lld node(s):", (long long)json_integer_value(json_object_get(s, "nodes")));
	int first = 1;
	json_object_foreach(json_object_get(s, "byStatus"), k, v)
	{
		if (l < sizeof(line))
			l += (size_t)snprintf(line + l, sizeof(line) - l, "%s %lld %s%s%s", first ? "" : ",",
					      (long long)json_integer_value(v), status_colour(c, k), k,
					      colour(c, "reset"));
		first = 0;
	}
	say(c, 2, "\n%s\n", line);
	json_decref(s);
}

/* With one node: every reason, the fields they come from, and preemption. */
static void print_node_story(const ctx *c, const json_t *doc)
{
	json_t *row = json_array_get(json_object_get(doc, "rows"), 0);
	json_t *all = json_array(), *r;
	size_t i;
	json_array_extend(all, json_object_get(row, "reasons"));
	if (json_object_get(row, "scheduler"))
		json_array_extend(all, json_object_get(row, "scheduler"));
	json_array_foreach(all, i, r)
	{
		say(c, 2, "\n%s: %s\n", str(r, "plugin"), str(r, "message"));
		if (json_object_get(r, "detail"))
			say(c, 2, "  detail: %s\n", str(r, "detail"));
		say(c, 2, "  field:  %s\n", str(r, "field"));
		if (json_object_get(r, "nodeField"))
			say(c, 2, "  node:   %s\n", str(r, "nodeField"));
	}
	json_t *pre = json_object_get(row, "preemption");
	if (pre) {
		say(c, 2, "\npreemption: %s\n",
		    json_is_true(json_object_get(pre, "possible")) ? "possible" : "not possible");
		json_t *v;
		json_array_foreach(json_object_get(pre, "victims"), i, v)
			say(c, 2, "  victim %s/%s (priority %lld)\n", str(v, "namespace"), str(v, "name"),
			    (long long)json_integer_value(json_object_get(v, "priority")));
	}
	json_decref(all);
}

int cmd_explain(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc;
	if (flag_value(c, "status") && (rc = known_statuses(c, flag_value(c, "status"))) != EXIT_OK)
		return rc;
	if ((rc = command_ds(c, ns, name)) != EXIT_OK)
		return rc;
	char *text;
	ds_error err;
	if (ds_daemonset_explain(c->cluster, ns, name, c->opts, &text, &err) < 0)
		return fail("explain failed", &err);
	json_t *doc = take_json(text);
	if ((rc = filter_rows(c, doc)) != EXIT_OK) {
		json_decref(doc);
		return rc;
	}
	/* -o svg is --plot -: the picture is the output */
	const char *plot = c->out == OUT_SVG ? "-" : flag_value(c, "plot");
	if (plot && !*plot) {
		json_decref(doc);
		return usage_error(c->cmd->name, "--plot needs a file (- for standard output)");
	}
	if (plot && (rc = plot_hook(plot, plot_explain_svg, doc, "Placement", ns, name)) >= 0) {
		json_decref(doc);
		return rc;
	}
	if (flag_on(c, "summary")) {
		rc = print_summary(c, doc, ns, name);
		json_decref(doc);
		return rc;
	}
	int p = print_structured(c, doc);
	if (p) {
		json_decref(doc);
		return p < 0 ? EXIT_ERROR : EXIT_OK;
	}
	size_t shown = json_array_size(json_object_get(doc, "rows"));
	long long total = json_integer_value(json_object_get(doc, "nodes"));
	if ((long long)shown == total)
		say(c, 2, "DaemonSet %s/%s over %lld nodes\n\n", ns, name, total);
	else
		say(c, 2, "DaemonSet %s/%s: %zu of %lld nodes\n\n", ns, name, shown, total);
	table *t = c->wide ? table_new(6, "NODE", "STATUS", "SHOULD-RUN", "PODS", "PLUGIN", "WHY")
			   : table_new(5, "NODE", "STATUS", "SHOULD-RUN", "PODS", "WHY");
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(doc, "rows"), i, r)
	{
		const char *st = str(r, "status");
		char status[64], why[1024], run[16];
		snprintf(status, sizeof(status), "%s%s%s", status_colour(c, st), st, colour(c, "reset"));
		char *pods = join_list(json_object_get(r, "pods"), "name", ",", c->wide ? 0 : 2);
		snprintf(run, sizeof(run), "%s/%s", json_is_true(json_object_get(r, "shouldRun")) ? "yes" : "no",
			 json_is_true(json_object_get(r, "shouldContinueRunning")) ? "keep" : "evict");
		first_reason(r, why, sizeof(why));
		if (c->wide)
			table_row(t, str(r, "node"), status, run, pods && *pods ? pods : "-",
				  first_reason_of(r) ? str(first_reason_of(r), "plugin") : "-", why);
		else
			table_row(t, str(r, "node"), status, run, pods && *pods ? pods : "-", why);
		free(pods);
	}
	table_print(t, c);
	if (c->argc == 2)
		print_node_story(c, doc);
	else if (shown > 1)
		print_tally(c, doc);
	json_t *bare = rows_without_allocatable(doc);
	allocatable_hint(c, bare);
	json_decref(bare);
	if (json_object_get(doc, "warning"))
		say(c, 2, "\n%swarning:%s %s\n", colour(c, "warn"), colour(c, "reset"), str(doc, "warning"));
	json_decref(doc);
	return EXIT_OK;
}

int cmd_fit(ctx *c)
{
	size_t len;
	char *buf = read_file(c, c->argv[0], &len);
	if (!buf)
		return EXIT_ERROR;
	const char *node = node_arg(c->argv[1]);
	char *text;
	ds_error err;
	int rc = ds_pod_fit(c->cluster, buf, len, node, c->opts, &text, &err);
	free(buf);
	if (rc < 0)
		return fail("fit failed", &err);
	json_t *doc = take_json(text);
	int p = print_structured(c, doc);
	if (!p) {
		int fits = json_is_true(json_object_get(doc, "fits"));
		say(c, 2, "%s%s%s on %s\n", colour(c, fits ? "ok" : "bad"), fits ? "fits" : "does not fit",
		    colour(c, "reset"), node);
		size_t i;
		json_t *r;
		json_t *bare = json_array();
		json_array_foreach(json_object_get(doc, "reasons"), i, r)
		{
			say(c, 2, "  %s: %s\n", str(r, "plugin"), str(r, "message"));
			if (no_allocatable_pods(r) && !json_array_size(bare))
				json_array_append_new(bare, json_string(node));
		}
		allocatable_hint(c, bare);
		json_decref(bare);
		json_t *pre = json_object_get(doc, "preemption");
		if (pre) {
			say(c, 2, "preemption: %s\n",
			    json_is_true(json_object_get(pre, "possible")) ? "possible, evicting:" : "not possible");
			json_array_foreach(json_object_get(pre, "victims"), i, r)
				say(c, 2, "  %s/%s\n", str(r, "namespace"), str(r, "name"));
		}
	}
	json_decref(doc);
	return p < 0 ? EXIT_ERROR : EXIT_OK;
}
