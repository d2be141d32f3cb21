/* dsctl pod, history, rollback: the pod for a node and the revision history. */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"

int cmd_pod(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc = command_ds(c, "pod", 2, 2, "pod needs a DaemonSet and a node", ns, name);
	if (rc)
		return rc;
	char *text;
	ds_error err;
	if (ds_daemon_pod(c->cluster, ns, name, c->argv[1], c->opts, &text, &err) < 0)
		return fail("cannot generate the pod", &err);
	json_t *pod = take_json(text);
	if (c->out == OUT_JSON)
		print_json(pod);
	else
		print_yaml(pod); /* a manifest reads best as YAML, also by default */
	json_decref(pod);
	return EXIT_OK;
}

int cmd_history(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc = command_ds(c, "history", 1, 1, "history needs a DaemonSet", ns, name);
	if (rc)
		return rc;
	char *text;
	ds_error err;
	if (ds_daemon_history(c->cluster, ns, name, c->opts, &text, &err) < 0)
		return fail("cannot read the history", &err);
	json_t *doc = take_json(text);
	if (!print_structured(c, doc)) {
		json_t *cur = json_object_get(doc, "current");
		printf("daemonset.apps/%s: current revision %lld (%s%s), pods labelled %s\n\n", name,
		       (long long)json_integer_value(json_object_get(cur, "revision")),
		       json_string_value(json_object_get(cur, "name")),
		       json_is_true(json_object_get(cur, "exists")) ? "" : ", created by the next sync",
		       json_string_value(json_object_get(doc, "hash")));
		table *t = table_new(4, "REVISION", "NAME", "HASH", "PODS");
		size_t i;
		json_t *r;
		json_array_foreach(json_object_get(doc, "revisions"), i, r)
		{
			char rev[32], pods[32];
			snprintf(rev, sizeof(rev), "%lld%s", (long long)json_integer_value(json_object_get(r, "revision")),
				 json_is_true(json_object_get(r, "current")) ? " (current)" : "");
			const char *h = json_string_value(json_object_get(r, "hash"));
			snprintf(pods, sizeof(pods), "%lld",
				 (long long)json_integer_value(json_object_get(json_object_get(doc, "podsByHash"), h)));
			table_row(t, rev, json_string_value(json_object_get(r, "name")), h, pods);
		}
		table_print(t, c);
		if (json_array_size(json_object_get(doc, "wouldDelete")))
			printf("\nThe next sync deletes %zu revision(s) beyond revisionHistoryLimit %lld.\n",
			       json_array_size(json_object_get(doc, "wouldDelete")),
			       (long long)json_integer_value(json_object_get(doc, "revisionHistoryLimit")));
	}
	json_decref(doc);
	return EXIT_OK;
}

int cmd_rollback(ctx *c)
{
	long long to = 0;
	const char *ds = NULL;
	for (int i = 0; i < c->argc; i++) {
		if (strncmp(c->argv[i], "--to-revision=", 14) == 0)
			to = atoll(c->argv[i] + 14);
		else if (strcmp(c->argv[i], "--to-revision") == 0 && i + 1 < c->argc)
			to = atoll(c->argv[++i]);
		else if (!ds)
			ds = c->argv[i];
		else
			return usage_error("rollback", "unexpected argument %s", c->argv[i]);
	}
	if (!ds)
		return usage_error("rollback", "rollback needs a DaemonSet");
	char ns[256], name[256];
	int rc = resolve_ds(c, ds, ns, sizeof(ns), name, sizeof(name));
	if (rc)
		return rc;
	char *text;
	ds_error err;
	if (ds_daemon_rollback(c->cluster, ns, name, to, c->opts, &text, &err) < 0) {
		fprintf(stderr, "error: %s\n", err.message); /* kubectl's own words */
		return EXIT_ERROR;
	}
	json_t *doc = take_json(text);
	if (!print_structured(c, doc))
		puts(json_string_value(json_object_get(doc, "message")));
	json_decref(doc);
	return EXIT_OK;
}
