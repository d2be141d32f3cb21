/* dsctl explain, dsctl fit: why a daemon pod is (or is not) on a node. */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"
#include "plot.h"

static const char *status_colour(const ctx *c, const char *s)
{
	if (strcmp(s, "placed") == 0 || strcmp(s, "create") == 0)
		return colour(c, "ok");
	if (strcmp(s, "not-placed") == 0)
		return colour(c, "dim");
	if (strcmp(s, "kept") == 0 || strcmp(s, "pending") == 0 || strcmp(s, "needs-preemption") == 0)
		return colour(c, "warn");
	return colour(c, "bad");
}

/* The most useful reason of a row, as one line. */
static void first_reason(const json_t *row, char *buf, size_t size)
{
	json_t *r = json_array_get(json_object_get(row, "reasons"), 0);
	if (!r)
		r = json_array_get(json_object_get(row, "scheduler"), 0);
	buf[0] = '\0';
	if (!r)
		return;
	const char *detail = json_string_value(json_object_get(r, "detail"));
	const char *msg = json_string_value(json_object_get(r, "message"));
	json_t *res = json_object_get(r, "resource");
	if (res)
		snprintf(buf, size, "%s (requests %lld, %lld free)", msg, (long long)json_integer_value(json_object_get(res, "requested")),
			 (long long)json_integer_value(json_object_get(res, "free")));
	else
		snprintf(buf, size, "%s", detail ? detail : msg);
}

int cmd_explain(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	const char *plot; /* --plot FILE (plot.c) */
	int rc = plot_option(c, "explain", &plot);
	if (!rc)
		rc = command_ds(c, "explain", 1, 2, "explain needs a DaemonSet (and optionally a node)", ns, name);
	if (rc)
		return rc;
	char *text;
	ds_error err;
	if (ds_explain(c->cluster, ns, name, c->opts, &text, &err) < 0)
		return fail("explain failed", &err);
	json_t *doc = take_json(text);
	if (c->argc == 2) { /* one node: keep only its row */
		json_t *rows = json_object_get(doc, "rows"), *keep = json_array();
		size_t i;
		json_t *r;
		json_array_foreach(rows, i, r)
		{
			if (strcmp(json_string_value(json_object_get(r, "node")), c->argv[1]) == 0)
				json_array_append(keep, r);
		}
		if (!json_array_size(keep)) {
			fprintf(stderr, "error: nodes \"%s\" not found\n", c->argv[1]);
			json_decref(keep);
			json_decref(doc);
			return EXIT_ERROR;
		}
		json_object_set_new(doc, "rows", keep);
	}
	if (plot && (rc = plot_hook(plot, plot_explain_svg, doc, "Placement", ns, name)) >= 0) {
		json_decref(doc);
		return rc;
	}
	if (print_structured(c, doc)) {
		json_decref(doc);
		return EXIT_OK;
	}
	printf("DaemonSet %s/%s over %lld nodes\n\n", ns, name, (long long)json_integer_value(json_object_get(doc, "nodes")));
	table *t = table_new(5, "NODE", "STATUS", "SHOULD-RUN", "PODS", "WHY");
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(doc, "rows"), i, r)
	{
		const char *st = json_string_value(json_object_get(r, "status"));
		char status[64], pods[256] = "", why[512], run[16];
		snprintf(status, sizeof(status), "%s%s%s", status_colour(c, st), st, colour(c, "reset"));
		size_t k;
		json_t *p;
		json_array_foreach(json_object_get(r, "pods"), k, p)
		{
			size_t l = strlen(pods);
			snprintf(pods + l, sizeof(pods) - l, "%s%s", l ? "," : "", json_string_value(json_object_get(p, "name")));
		}
		snprintf(run, sizeof(run), "%s/%s", json_is_true(json_object_get(r, "shouldRun")) ? "yes" : "no",
			 json_is_true(json_object_get(r, "shouldContinueRunning")) ? "keep" : "evict");
		first_reason(r, why, sizeof(why));
		table_row(t, json_string_value(json_object_get(r, "node")), status, run, pods[0] ? pods : "-", why);
	}
	table_print(t, c);
	if (c->argc == 2) { /* the full story for one node */
		json_t *row = json_array_get(json_object_get(doc, "rows"), 0);
		json_t *all = json_array();
		json_array_extend(all, json_object_get(row, "reasons"));
		if (json_object_get(row, "scheduler"))
			json_array_extend(all, json_object_get(row, "scheduler"));
		json_array_foreach(all, i, r)
		{
			printf("\n%s: %s\n", json_string_value(json_object_get(r, "plugin")),
			       json_string_value(json_object_get(r, "message")));
			const char *d = json_string_value(json_object_get(r, "detail"));
			if (d)
				printf("  detail: %s\n", d);
			printf("  field:  %s\n", json_string_value(json_object_get(r, "field")));
			if (json_object_get(r, "nodeField"))
				printf("  node:   %s\n", json_string_value(json_object_get(r, "nodeField")));
		}
		json_t *pre = json_object_get(row, "preemption");
		if (pre) {
			printf("\npreemption: %s\n", json_is_true(json_object_get(pre, "possible")) ? "possible" : "not possible");
			json_t *v;
			json_array_foreach(json_object_get(pre, "victims"), i, v)
			printf("  victim %s/%s (priority %lld)\n", json_string_value(json_object_get(v, "namespace")),
			       json_string_value(json_object_get(v, "name")), (long long)json_integer_value(json_object_get(v, "priority")));
		}
		json_decref(all);
	}
	json_t *warning = json_object_get(doc, "warning");
	if (warning)
		printf("\n%swarning:%s %s\n", colour(c, "warn"), colour(c, "reset"), json_string_value(warning));
	json_decref(doc);
	return EXIT_OK;
}

int cmd_fit(ctx *c)
{
	if (c->argc != 2)
		return usage_error("fit", "fit needs a pod manifest file and a node");
	FILE *f = fopen(c->argv[0], "rb");
	if (!f) {
		fprintf(stderr, "error: cannot open %s\n", c->argv[0]);
		return EXIT_ERROR;
	}
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	char chunk[65536];
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (len + n > cap) {
			cap = (len + n) * 2;
			buf = realloc(buf, cap);
		}
		memcpy(buf + len, chunk, n);
		len += n;
	}
	fclose(f);
	char *text;
	ds_error err;
	int rc = ds_fit(c->cluster, buf ? buf : "", len, c->argv[1], c->opts, &text, &err);
	free(buf);
	if (rc < 0)
		return fail("fit failed", &err);
	json_t *doc = take_json(text);
	if (!print_structured(c, doc)) {
		int fits = json_is_true(json_object_get(doc, "fits"));
		printf("%s%s%s on %s\n", colour(c, fits ? "ok" : "bad"), fits ? "fits" : "does not fit", colour(c, "reset"),
		       c->argv[1]);
		size_t i;
		json_t *r;
		json_array_foreach(json_object_get(doc, "reasons"), i, r)
		printf("  %s: %s\n", json_string_value(json_object_get(r, "plugin")), json_string_value(json_object_get(r, "message")));
		json_t *pre = json_object_get(doc, "preemption");
		if (pre) {
			printf("preemption: %s\n", json_is_true(json_object_get(pre, "possible")) ? "possible, evicting:" : "not possible");
			json_array_foreach(json_object_get(pre, "victims"), i, r)
			printf("  %s/%s\n", json_string_value(json_object_get(r, "namespace")), json_string_value(json_object_get(r, "name")));
		}
	}
	json_decref(doc);
	return EXIT_OK;
}
