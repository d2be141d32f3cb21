/* dsctl audit: Pod Security Standards and DaemonSet risks. */
#include <string.h>

#include "dsctl.h"

static const char *sev_colour(const ctx *c, const char *s)
{
	if (strcmp(s, "critical") == 0 || strcmp(s, "high") == 0)
		return colour(c, "bad");
	if (strcmp(s, "medium") == 0)
		return colour(c, "warn");
	return colour(c, "dim");
}

static int audit_one(ctx *c, const char *ns, const char *name, json_t *all)
{
	char *obj, *text;
	ds_error err;
	if (ds_cluster_get(c->cluster, "DaemonSet", ns, name, &obj, &err) < 0)
		return fail("cannot read the DaemonSet", &err);
	int rc = ds_audit(obj, strlen(obj), c->opts, &text, &err);
	ds_free(obj);
	if (rc < 0)
		return fail("audit failed", &err);
	json_t *doc = take_json(text);
	json_t *req = json_object_get(doc, "requested");
	int allowed = json_is_true(json_object_get(req, "allowed"));
	if (all) {
		json_array_append(all, doc);
		json_decref(doc);
		return allowed ? EXIT_OK : EXIT_CHECK;
	}
	printf("%s%s/%s%s: meets Pod Security Standard \"%s\"; requested \"%s\" %s%s%s\n", colour(c, "bold"), ns, name,
	       colour(c, "reset"), json_string_value(json_object_get(doc, "level")),
	       json_string_value(json_object_get(req, "level")), colour(c, allowed ? "ok" : "bad"),
	       allowed ? "passes" : "fails", colour(c, "reset"));
	const char *warning = json_string_value(json_object_get(req, "warning"));
	if (warning)
		printf("  Warning: %s\n", warning);
	table *t = table_new(3, "SEVERITY", "FIELD", "FINDING");
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(doc, "findings"), i, f)
	{
		const char *sev = json_string_value(json_object_get(f, "severity"));
		char s[48];
		snprintf(s, sizeof(s), "%s%s%s", sev_colour(c, sev), sev, colour(c, "reset"));
		table_row(t, s, json_string_value(json_object_get(f, "path")), json_string_value(json_object_get(f, "message")));
	}
	printf("\n");
	table_print(t, c);
	printf("\n");
	json_decref(doc);
	return allowed ? EXIT_OK : EXIT_CHECK;
}

int cmd_audit(ctx *c)
{
	int worst = EXIT_OK;
	json_t *all = c->out == OUT_TABLE ? NULL : json_array();
	if (c->argc == 0) { /* every DaemonSet of the snapshot */
		char *text;
		ds_error err;
		if (ds_cluster_summary(c->cluster, &text, &err) < 0)
			return fail("cannot list DaemonSets", &err);
		json_t *s = take_json(text);
		size_t i;
		json_t *d;
		json_array_foreach(json_object_get(s, "daemonSets"), i, d)
		{
			int rc = audit_one(c, json_string_value(json_object_get(d, "namespace")),
					   json_string_value(json_object_get(d, "name")), all);
			if (rc > worst)
				worst = rc;
		}
		json_decref(s);
	} else {
		for (int i = 0; i < c->argc; i++) {
			char ns[256], name[256];
			int rc = resolve_ds(c, c->argv[i], ns, sizeof(ns), name, sizeof(name));
			if (rc == EXIT_OK)
				rc = audit_one(c, ns, name, all);
			if (rc > worst)
				worst = rc;
		}
	}
	if (all) {
		print_structured(c, all);
		json_decref(all);
	}
	return worst;
}
