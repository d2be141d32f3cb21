/*
 * dsctl cordon, uncordon, drain, upgrade: kubectl's node operations planned
 * on the snapshot (ds_node_cordon(3), ds_node_drain(3), ds_cluster_upgrade(3)). Nothing is sent
 * anywhere; the commands print what kubectl would print and what follows for
 * the DaemonSets.
 */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"

static const char *str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static long long num(const json_t *o, const char *k) { return (long long)json_integer_value(json_object_get(o, k)); }

/* Join the strings of an array (or the member k of each object) with sep. */
static void join(const json_t *arr, const char *k, const char *sep, char *buf, size_t size)
{
	size_t i, l = 0;
	json_t *x;
	buf[0] = '\0';
	json_array_foreach(arr, i, x)
	{
		const char *s = k ? str(x, k) : json_string_value(x);
		l = strlen(buf);
		snprintf(buf + l, size - l, "%s%s", i ? sep : "", s ? s : "");
	}
}

/* Library errors in kubectl's words where kubectl has them. */
static int node_fail(const char *what, const ds_error *err)
{
	if (err->code == DS_ENOTFOUND) { /* kubectl's words, not "from server": there is none */
		fprintf(stderr, "error: %s\n", err->message);
		return EXIT_ERROR;
	}
	if (err->code == DS_EVALUE || (err->code == DS_EARG && strstr(err->message, "--selector"))) {
		fprintf(stderr, "error: %s\n", err->message); /* a flag's value: kubectl's message */
		return EXIT_USAGE;
	}
	return fail(what, err);
}

/* kubectl drain's flags and the options they set (ds_options_create(3), Drain). */
static const char *const drain_options[][2] = {
	{"force", "force"},
	{"ignore-daemonsets", "ignoreDaemonSets"},
	{"delete-emptydir-data", "deleteEmptyDirData"},
	{"disable-eviction", "disableEviction"},
	{"grace-period", "gracePeriodSeconds"},
	{"skip-wait-for-delete-timeout", "skipWaitForDeleteTimeoutSeconds"},
	{"pod-selector", "podSelector"},
};

static int apply_drain_flags(ctx *c)
{
	for (size_t k = 0; k < sizeof(drain_options) / sizeof(drain_options[0]); k++) {
		const char *value = flag_value(c, drain_options[k][0]);
		ds_error err;
		if (value && ds_options_set(c->opts, drain_options[k][1], value, &err) < 0)
			return usage_error(c->cmd->name, "invalid argument \"%s\" for \"--%s\" flag: %s", value,
					   drain_options[k][0], err.message);
	}
	return EXIT_OK;
}

static const char *effect_colour(const ctx *c, const char *e)
{
	if (strcmp(e, "keeps") == 0)
		return colour(c, "ok");
	if (strcmp(e, "deletes") == 0)
		return colour(c, "bad");
	return colour(c, "warn");
}

/* One node's cordon or uncordon as a table. */
static void print_cordon(ctx *c, const json_t *doc)
{
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(doc, "stdout"), i, x) puts(json_string_value(x));
	json_t *taint = json_object_get(doc, "taint");
	const char *action = str(taint, "action");
	char *patch = json_dumps(json_object_get(doc, "patch"), JSON_COMPACT | JSON_ENCODE_ANY);
	say(c, 2, "\n%sPATCH%s %s\n", colour(c, "dim"), colour(c, "reset"),
	    json_is_true(json_object_get(doc, "changed")) && patch ? patch : "none: spec.unschedulable is already so");
	free(patch);
	if (strcmp(action, "add") == 0 || strcmp(action, "remove") == 0)
		say(c, 2, "Then the node lifecycle controller %s the taint %s:%s.\n",
		    strcmp(action, "add") == 0 ? "adds" : "removes", str(taint, "key"), str(taint, "effect"));
	json_t *dss = json_object_get(doc, "daemonSets");
	say(c, 2, "\n");
	if (!json_array_size(dss)) {
		say(c, 2, "No DaemonSet has or should have a pod on %s.\n", str(doc, "node"));
		return;
	}
	heading(c, "DaemonSets on the node afterwards");
	int why = 0; /* a WHY column only when some DaemonSet has a reason */
	json_array_foreach(dss, i, x) why |= str(x, "reason")[0] != '\0';
	table *t = why ? table_new(5, "NAMESPACE", "NAME", "PODS ON NODE", "EFFECT", "WHY")
		       : table_new(4, "NAMESPACE", "NAME", "PODS ON NODE", "EFFECT");
	json_array_foreach(dss, i, x)
	{
		char pods[1024], effect[64];
		join(json_object_get(x, "podsOnNode"), NULL, ",", pods, sizeof(pods));
		const char *e = str(x, "effect");
		snprintf(effect, sizeof(effect), "%s%s%s", effect_colour(c, e), e, colour(c, "reset"));
		table_row(t, str(x, "namespace"), str(x, "name"), pods[0] ? pods : "-", effect,
			  str(x, "reason")[0] ? str(x, "reason") : "-");
	}
	table_print(t, c);
}

/* The results of a command over n nodes (taken) in the format of -o when it is not the table: one
 * node's document as it is, several as kubectl's List. Returns rc, or EXIT_ERROR when printing fails. */
static int print_node_results(const ctx *c, int rc, size_t n, json_t *items)
{
	if (rc == EXIT_OK && c->out != OUT_TABLE) {
		json_t *doc = n == 1 ? json_incref(json_array_get(items, 0))
				     : json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List", "items", items);
		if (print_structured(c, doc) < 0)
			rc = EXIT_ERROR;
		json_decref(doc);
	}
	json_decref(items);
	return rc;
}

static int cordon_common(ctx *c, int desired)
{
	const char **nodes;
	size_t n;
	int rc = select_nodes(c, 0, 0, &nodes, &n);
	json_t *items = json_array();
	for (size_t k = 0; rc == EXIT_OK && k < n; k++) {
		char *text;
		ds_error err;
		if (ds_node_cordon(c->cluster, nodes[k], desired, c->opts, &text, &err) < 0) {
			rc = node_fail(desired ? "cannot plan the cordon" : "cannot plan the uncordon", &err);
			break;
		}
		json_t *doc = take_json(text);
		if (c->out == OUT_TABLE) {
			if (k)
				say(c, 2, "\n");
			print_cordon(c, doc);
		}
		json_array_append_new(items, doc);
	}
	free(nodes);
	return print_node_results(c, rc, n, items);
}

int cmd_cordon(ctx *c) { return cordon_common(c, 1); }

int cmd_uncordon(ctx *c) { return cordon_common(c, 0); }

/* A shell word as a user would type it. */
static void shell_word(const char *s, char *buf, size_t size)
{
	int plain = s[0] != '\0';
	for (const char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789=,!._/-:", *p))
			plain = 0;
	snprintf(buf, size, plain ? "%s" : "'%s'", s);
}

/* The kubectl command line the plan models, from the options it used. */
static void drain_command(const json_t *doc, char *buf, size_t size)
{
	json_t *o = json_object_get(doc, "options");
	snprintf(buf, size, "kubectl drain %s", str(doc, "node"));
	size_t l;
#define ADD(...) (l = strlen(buf), snprintf(buf + l, size - l, __VA_ARGS__))
	if (json_is_true(json_object_get(o, "force")))
		ADD(" --force");
	if (json_is_true(json_object_get(o, "ignoreDaemonSets")))
		ADD(" --ignore-daemonsets");
	if (json_is_true(json_object_get(o, "deleteEmptyDirData")))
		ADD(" --delete-emptydir-data");
	if (json_is_true(json_object_get(o, "disableEviction")))
		ADD(" --disable-eviction");
	if (num(o, "gracePeriodSeconds") >= 0)
		ADD(" --grace-period=%lld", num(o, "gracePeriodSeconds"));
	if (num(o, "skipWaitForDeleteTimeoutSeconds") > 0)
		ADD(" --skip-wait-for-delete-timeout=%lld", num(o, "skipWaitForDeleteTimeoutSeconds"));
	if (json_is_string(json_object_get(o, "podSelector"))) {
		char w[512];
		shell_word(str(o, "podSelector"), w, sizeof(w));
		ADD(" --pod-selector=%s", w);
	}
#undef ADD
}

static const char *verdict_colour(const ctx *c, const char *v)
{
	if (strcmp(v, "drained") == 0)
		return colour(c, "ok");
	if (strcmp(v, "blocked") == 0)
		return colour(c, "warn");
	return colour(c, "bad");
}

/* One line on what became of a pod. */
static void pod_detail(const json_t *doc, const json_t *p, char *buf, size_t size)
{
	json_t *r = json_object_get(p, "removal");
	if (!json_is_object(r)) {
		snprintf(buf, size, "%s", str(p, "message"));
		return;
	}
	if (strcmp(str(r, "result"), "not-run") == 0) { /* the library says why it stays */
		size_t i;
		json_t *x;
		json_array_foreach(json_object_get(doc, "remaining"), i, x)
		{
			if (strcmp(str(x, "namespace"), str(p, "namespace")) == 0 &&
			    strcmp(str(x, "name"), str(p, "name")) == 0) {
				snprintf(buf, size, "%s", str(x, "why"));
				return;
			}
		}
	}
	const char *pdb = str(r, "pdb"), *budget = str(r, "budget"), *error = str(r, "error");
	snprintf(buf, size, "%s", str(r, "result"));
	size_t l = strlen(buf);
	if (pdb[0])
		snprintf(buf + l, size - l, " (PodDisruptionBudget %s%s%s)", pdb, strcmp(budget, "none") ? ": " : "",
			 strcmp(budget, "none") ? budget : "");
	l = strlen(buf);
	if (error[0])
		snprintf(buf + l, size - l, ": %s", error);
}

/*
 * The transcript's two streams merged in the order kubectl writes them
 * (RunDrain and pkg/drain): the cordon line, the warnings of the pod
 * filters, the evictions with their errors, then the error summary or
 * "node/NAME drained" last. Evictions run concurrently, so their lines
 * are in list order, as the library gives them.
 */
static void print_transcript(const ctx *c, const json_t *doc)
{
	json_t *tr = json_object_get(doc, "transcript");
	json_t *out = json_object_get(tr, "stdout"), *err = json_object_get(tr, "stderr");
	size_t nout = json_array_size(out),
	       ncordon = json_array_size(json_object_get(json_object_get(doc, "cordon"), "stdout"));
	char drained[600];
	snprintf(drained, sizeof(drained), "node/%s drained", str(doc, "node"));
	const char *last = json_string_value(json_array_get(out, nout ? nout - 1 : 0));
	int has_drained = last && strcmp(last, drained) == 0;
	size_t i;
	json_t *x;
	for (i = 0; i < ncordon && i < nout; i++)
		puts(json_string_value(json_array_get(out, i)));
	json_array_foreach(err, i, x)
	{
		if (strncmp(json_string_value(x), "Warning: ", 9) == 0)
			say(c, 2, "%s%s%s\n", colour(c, "warn"), json_string_value(x), colour(c, "reset"));
	}
	for (i = ncordon; i < nout - (size_t)has_drained; i++)
		puts(json_string_value(json_array_get(out, i)));
	json_array_foreach(err, i, x)
	{
		if (strncmp(json_string_value(x), "Warning: ", 9) != 0)
			say(c, 2, "%s%s%s\n", colour(c, "bad"), json_string_value(x), colour(c, "reset"));
	}
	if (has_drained)
		puts(last);
}

/* One node's drain as kubectl shows it, then its verdict, the pods and the reboot. */
static void print_drain(ctx *c, const json_t *doc)
{
	const char *verdict = str(doc, "verdict");
	json_t *tr = json_object_get(doc, "transcript");
	json_t *code = json_object_get(tr, "exitCode");
	char cmdline[1024];
	drain_command(doc, cmdline, sizeof(cmdline));
	say(c, 2, "%s# %s%s\n", colour(c, "dim"), cmdline, colour(c, "reset"));
	size_t i;
	json_t *x;
	print_transcript(c, doc);
	if (!json_is_true(json_object_get(tr, "complete")))
		say(c, 2, "%s(kubectl repeats the refused evictions and their errors every 5s and does not exit)%s\n",
		    colour(c, "dim"), colour(c, "reset"));
	if (json_is_integer(code))
		say(c, 2, "\nVerdict: %s%s%s (kubectl exits %lld)\n", verdict_colour(c, verdict), verdict,
		    colour(c, "reset"), (long long)json_integer_value(code));
	else
		say(c, 2,
		    "\nVerdict: %s%s%s (kubectl does not exit: an eviction is retried until its PodDisruptionBudget "
		    "allows it)\n",
		    verdict_colour(c, verdict), verdict, colour(c, "reset"));
	json_t *pods = json_object_get(doc, "pods");
	if (json_array_size(pods)) {
		say(c, 2, "\n");
		table *t = table_new(4, "POD", "KUBECTL", "ACTION", "DETAIL");
		json_array_foreach(pods, i, x)
		{
			char pod[512], detail[1024];
			snprintf(pod, sizeof(pod), "%s/%s", str(x, "namespace"), str(x, "name"));
			pod_detail(doc, x, detail, sizeof(detail));
			table_row(t, pod, str(x, "reason"), str(x, "outcome"), detail[0] ? detail : "-");
		}
		table_print(t, c);
	} else {
		say(c, 2, "\nNo pod is bound to %s%s.\n", str(doc, "node"),
		    json_is_string(json_object_get(json_object_get(doc, "options"), "podSelector"))
			    ? " that matches --pod-selector"
			    : "");
	}
	json_array_foreach(json_object_get(doc, "blocked"), i, x)
		say(c, 2, "\n%sblocked:%s %s/%s: PodDisruptionBudget %s: %s\n", colour(c, "warn"), colour(c, "reset"),
		    str(x, "namespace"), str(x, "name"), str(x, "pdb"),
		    str(x, "cause")[0] ? str(x, "cause") : str(x, "message"));
	json_t *dss = json_object_get(doc, "daemonSets");
	if (json_array_size(dss)) {
		say(c, 2, "\n");
		heading(c, "When the node reboots");
		json_array_foreach(dss, i, x) say(c, 2, "%s\n", str(x, "note"));
	}
}

/* kubectl's exit code for a drain; one that never ends (retried evictions) is a failed check. */
static int drain_status(const json_t *doc)
{
	json_t *code = json_object_get(json_object_get(doc, "transcript"), "exitCode");
	return json_is_integer(code) ? (int)json_integer_value(code) : EXIT_CHECK;
}

/*
 * kubectl drain NODE... cordons the nodes, then drains one after the other, each once the pods of
 * the one before are gone: each node is planned on a copy of the snapshot without the pods the
 * nodes before it removed.
 */
int cmd_drain(ctx *c)
{
	const char **nodes;
	size_t n;
	int rc = apply_drain_flags(c);
	if (rc == EXIT_OK)
		rc = select_nodes(c, 0, 0, &nodes, &n);
	else
		nodes = NULL;
	ds_cluster *work = NULL;
	ds_error err;
	if (rc == EXIT_OK && n > 1 && ds_cluster_copy(c->cluster, &work, &err) < 0)
		rc = fail("cannot copy the snapshot", &err);
	json_t *items = json_array();
	int worst = EXIT_OK;
	for (size_t k = 0; rc == EXIT_OK && k < n; k++) {
		char *text;
		if (ds_node_drain(work ? work : c->cluster, nodes[k], c->now, c->opts, &text, &err) < 0) {
			rc = node_fail("cannot plan the drain", &err);
			break;
		}
		json_t *doc = take_json(text), *x;
		size_t i;
		json_array_foreach(json_object_get(doc, "removed"), i, x)
		{
			const char *slash = strchr(json_string_value(x), '/');
			char ns[DSCTL_NAME_MAX];
			snprintf(ns, sizeof(ns), "%.*s", (int)(slash - json_string_value(x)), json_string_value(x));
			if (work && slash)
				ds_cluster_remove(work, "Pod", ns, slash + 1, NULL);
		}
		int st = drain_status(doc);
		if (st > worst)
			worst = st;
		if (c->out == OUT_TABLE) {
			if (k)
				say(c, 2, "\n");
			print_drain(c, doc);
		}
		json_array_append_new(items, doc);
		/* a failed node stops kubectl (it names the nodes left); a blocked one never ends */
		if (st != EXIT_OK && k + 1 < n && c->out == OUT_TABLE) {
			say(c, 2, "\n%s%s%s\n", colour(c, "warn"),
			    st == EXIT_CHECK ? "kubectl never gets to the other nodes:"
					     : "There are pending nodes to be drained:",
			    colour(c, "reset"));
			for (size_t r = k + 1; r < n; r++)
				say(c, 2, " %s\n", nodes[r]);
		}
		if (st != EXIT_OK)
			break;
	}
	ds_cluster_free(work);
	free(nodes);
	rc = print_node_results(c, rc, n, items);
	return rc != EXIT_OK ? rc : worst;
}

static void print_batch(const ctx *c, const json_t *b)
{
	char nodes[2048];
	join(json_object_get(b, "nodes"), NULL, ", ", nodes, sizeof(nodes));
	const char *verdict = str(b, "verdict");
	say(c, 2, "\n%sBatch %lld%s (%s%s): %s%s%s\n", colour(c, "bold"), num(b, "index"), colour(c, "reset"), nodes,
	    json_is_true(json_object_get(b, "controlPlane")) ? ", control plane" : "", verdict_colour(c, verdict),
	    verdict, colour(c, "reset"));
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(b, "cordons"), i, x)
	{
		size_t k;
		json_t *l;
		json_array_foreach(json_object_get(x, "stdout"), k, l) say(c, 2, "  %s\n", json_string_value(l));
	}
	json_array_foreach(json_object_get(b, "evictions"), i, x)
	{
		say(c, 2, "  %s %s/%s on %s%s%s%s\n", strcmp(str(x, "method"), "delete") == 0 ? "delete" : "evict",
		    str(x, "namespace"), str(x, "name"), str(x, "node"),
		    str(x, "pdb")[0] ? " (PodDisruptionBudget " : "", str(x, "pdb"), str(x, "pdb")[0] ? ")" : "");
	}
	json_array_foreach(json_object_get(b, "ignoredDaemonPods"), i, x)
	{
		json_t *d = json_object_get(x, "daemonSet");
		say(c, 2, "  %s %s/%s on %s (DaemonSet %s/%s): goes down at reboot\n",
		    strcmp(str(x, "reason"), "ignored") == 0 ? "ignore" : "refuse", str(x, "namespace"), str(x, "name"),
		    str(x, "node"), str(d, "namespace"), str(d, "name"));
	}
	json_array_foreach(json_object_get(b, "blocked"), i, x) say(
		c, 2, "  %sblocked%s %s/%s on %s: PodDisruptionBudget %s: %s\n", colour(c, "warn"), colour(c, "reset"),
		str(x, "namespace"), str(x, "name"), str(x, "node"), str(x, "pdb"), str(x, "message"));
	json_array_foreach(json_object_get(b, "errors"), i, x) say(
		c, 2, "  %serror%s %s: %s\n", colour(c, "bad"), colour(c, "reset"), str(x, "node"), str(x, "message"));
	json_array_foreach(json_object_get(b, "warnings"), i, x)
		say(c, 2, "  %swarning%s %s\n", colour(c, "warn"), colour(c, "reset"), str(x, "message"));
	if (json_array_size(json_object_get(b, "uncordonAfter"))) {
		join(json_object_get(b, "uncordonAfter"), NULL, ", ", nodes, sizeof(nodes));
		say(c, 2, "  after the reboot: kubectl uncordon %s\n", nodes);
	}
}

int cmd_upgrade(ctx *c)
{
	const char *selector = flag_value(c, "selector"), *batch = flag_value(c, "batch-size");
	const char **nodes = calloc((size_t)c->argc + 1, sizeof(char *));
	size_t nn = 0;
	int rc = apply_drain_flags(c);
	ds_error berr;
	if (rc == EXIT_OK && batch && ds_options_set(c->opts, "batchSize", batch, &berr) < 0)
		rc = usage_error("upgrade",
				 "invalid argument \"%s\" for \"--batch-size\" flag: a positive number of nodes",
				 batch);
	if (rc != EXIT_OK || !nodes)
		goto out;
	for (int i = 0; i < c->argc; i++)
		nodes[nn++] = node_arg(c->argv[i]);
	if (nn && selector) { /* kubectl's words (drain.go) */
		rc = usage_error("upgrade", "cannot specify both a node name and a --selector option");
		goto out;
	}
	char *text;
	ds_error err;
	if (ds_cluster_upgrade(c->cluster, nn ? nodes : NULL, nn,
			       nn         ? NULL
			       : selector ? selector
					  : "",
			       c->now, c->opts, &text, &err) < 0) {
		rc = node_fail("cannot plan the upgrade", &err);
		goto out;
	}
	json_t *doc = take_json(text);
	json_t *sum = json_object_get(doc, "summary");
	rc = json_is_true(json_object_get(sum, "ok")) ? EXIT_OK : EXIT_CHECK;
	int p = print_structured(c, doc);
	if (p) {
		json_decref(doc);
		rc = p < 0 ? EXIT_ERROR : rc;
		goto out;
	}
	say(c, 2, "Upgrade of %lld node(s) in %lld batch(es) of up to %lld: %s\n", num(sum, "nodes"),
	    num(sum, "batches"), num(doc, "batchSize"), str(doc, "order"));
	say(c, 2, "\n");
	table *t = table_new(7, "BATCH", "NODES", "VERDICT", "EVICTIONS", "BLOCKED", "DAEMON PODS DOWN", "WARNINGS");
	size_t i;
	json_t *b;
	json_array_foreach(json_object_get(doc, "batches"), i, b)
	{
		char idx[16], nodelist[2048], v[64], ev[16], bl[16], dp[16], w[16];
		snprintf(idx, sizeof(idx), "%lld", num(b, "index"));
		char *nl = join_list(json_object_get(b, "nodes"), NULL, ",", c->wide ? 0 : 4);
		snprintf(nodelist, sizeof(nodelist), "%s", nl ? nl : "");
		free(nl);
		snprintf(v, sizeof(v), "%s%s%s", verdict_colour(c, str(b, "verdict")), str(b, "verdict"),
			 colour(c, "reset"));
		snprintf(ev, sizeof(ev), "%zu", json_array_size(json_object_get(b, "evictions")));
		snprintf(bl, sizeof(bl), "%zu", json_array_size(json_object_get(b, "blocked")));
		snprintf(dp, sizeof(dp), "%zu", json_array_size(json_object_get(b, "ignoredDaemonPods")));
		snprintf(w, sizeof(w), "%zu", json_array_size(json_object_get(b, "warnings")));
		table_row(t, idx, nodelist, v, ev, bl, dp, w);
	}
	table_print(t, c);
	json_array_foreach(json_object_get(doc, "batches"), i, b) print_batch(c, b);
	say(c, 2,
	    "\n%s%s%s: %lld eviction(s), %lld blocked, %lld daemon pod(s) down at reboot, %lld node(s) failed, "
	    "%lld warning(s)\n",
	    colour(c, rc ? "bad" : "ok"), rc ? "Not safe as planned" : "Safe as planned", colour(c, "reset"),
	    num(sum, "evictions"), num(sum, "blocked"), num(sum, "ignoredDaemonPods"), num(sum, "errors"),
	    num(sum, "warnings"));
	json_decref(doc);
out:
	free(nodes);
	return rc;
}
