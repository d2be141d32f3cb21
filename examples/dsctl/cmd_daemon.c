/* dsctl pod, history, rollback: the pod for a node and the revision history. */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"

int cmd_pod(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc = command_ds(c, ns, name);
	if (rc)
		return rc;
	char *text;
	ds_error err;
	if (ds_daemonset_pod(c->cluster, ns, name, node_arg(c->argv[1]), c->opts, &text, &err) < 0)
		return fail("cannot generate the pod", &err);
	json_t *pod = take_json(text);
	int p = print_structured(c, pod);
	if (!p)
		print_yaml(pod); /* a manifest reads best as YAML, also by default */
	json_decref(pod);
	return p < 0 ? EXIT_ERROR : EXIT_OK;
}

int cmd_history(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc = command_ds(c, ns, name);
	if (rc)
		return rc;
	char *text;
	ds_error err;
	if (ds_daemonset_history(c->cluster, ns, name, c->opts, &text, &err) < 0)
		return fail("cannot read the history", &err);
	json_t *doc = take_json(text);
	int p = print_structured(c, doc);
	if (!p) {
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
			snprintf(rev, sizeof(rev), "%lld%s",
				 (long long)json_integer_value(json_object_get(r, "revision")),
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
		size_t k;
		json_t *w;
		json_array_foreach(json_object_get(doc, "warnings"), k, w) printf(
			"%swarning:%s %s\n", colour(c, "warn"), colour(c, "reset"),
			json_is_string(w) ? json_string_value(w) : json_string_value(json_object_get(w, "message")));
	}
	json_decref(doc);
	return p < 0 ? EXIT_ERROR : EXIT_OK;
}

int cmd_rollback(ctx *c)
{
	long long to = 0;
	const char *v = flag_value(c, "to-revision");
	if (v) {
		char *end;
		to = strtoll(v, &end, 10);
		if (!*v || *end || to < 0)
			return usage_error("rollback",
					   "invalid argument \"%s\" for \"--to-revision\" flag: a revision number", v);
	}
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc = resolve_ds(c, c->argv[0], ns, name);
	if (rc)
		return rc;
	char *text;
	ds_error err;
	if (ds_daemonset_rollback(c->cluster, ns, name, to, c->opts, &text, &err) < 0) {
		fprintf(stderr, "error: %s\n", err.message); /* kubectl's own words */
		return EXIT_ERROR;
	}
	json_t *doc = take_json(text);
	int p = print_structured(c, doc);
	if (!p)
		puts(json_string_value(json_object_get(doc, "message")));
	json_decref(doc);
	return p < 0 ? EXIT_ERROR : EXIT_OK;
}
