/*
 * "What if" edits of a DaemonSet in the snapshot, made as kubectl and the API server make them:
 * --image (kubectl set image), --template FILE and --strategy SETTINGS change a copy of the stored
 * object, and ds_daemonset_update(3) stores it as a PUT would (defaults, generation and template
 * generation bumped, validation). All edits of one command line are one update. `dsctl set image`
 * prints the result.
 */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"

/* kubectl's setImage over one list of containers: every container named name, or all for "*". */
static int set_image_in(json_t *containers, const char *name, const char *image)
{
	size_t i;
	json_t *ct;
	int found = 0;
	json_array_foreach(containers, i, ct)
	{
		const char *n = json_string_value(json_object_get(ct, "name"));
		if (strcmp(name, "*") == 0 || (n && strcmp(n, name) == 0)) {
			json_object_set_new(ct, "image", json_string(image));
			found = 1;
		}
	}
	return found;
}

/* CONTAINER=IMAGE pairs (kubectl's ParsePairs) into the template's containers and init containers. */
static int edit_images(ctx *c, json_t *ds, const char *const *pairs, int n)
{
	json_t *spec = json_object_get(json_object_get(json_object_get(ds, "spec"), "template"), "spec");
	for (int i = 0; i < n; i++) {
		const char *eq = strchr(pairs[i], '=');
		if (!eq || eq == pairs[i] || !eq[1])
			return usage_error(c->cmd->name, "invalid image argument \"%s\": expected CONTAINER=IMAGE",
					   pairs[i]);
		char name[256];
		snprintf(name, sizeof(name), "%.*s", (int)(eq - pairs[i]), pairs[i]);
		int found = set_image_in(json_object_get(spec, "initContainers"), name, eq + 1);
		found |= set_image_in(json_object_get(spec, "containers"), name, eq + 1);
		if (!found) {
			fprintf(stderr, "error: unable to find container named \"%s\"\n", name); /* kubectl's words */
			return EXIT_ERROR;
		}
	}
	return EXIT_OK;
}

/* --template FILE: a PodTemplateSpec, a PodTemplate's or a DaemonSet's template. */
static int edit_template(ctx *c, json_t *ds, const char *path)
{
	size_t len;
	char *text = read_file(c, path, &len), *out;
	if (!text)
		return EXIT_ERROR;
	ds_error err;
	int rc = ds_objects_parse(text, len, c->opts, &out, &err);
	free(text);
	if (rc < 0)
		return fail("cannot read the template", &err);
	json_t *objs = take_json(out), *o = json_array_get(objs, 0), *tpl = NULL;
	const char *kind = json_string_value(json_object_get(o, "kind"));
	if (json_array_size(objs) != 1)
		fprintf(stderr, "error: %s: expected one object, got %zu\n", path, json_array_size(objs));
	else if (kind && strcmp(kind, "DaemonSet") == 0)
		tpl = json_object_get(json_object_get(o, "spec"), "template");
	else if (kind && strcmp(kind, "PodTemplate") == 0)
		tpl = json_object_get(o, "template");
	else if (!kind && json_is_object(json_object_get(o, "spec")))
		tpl = o;
	else
		fprintf(stderr, "error: %s: expected a PodTemplateSpec, a PodTemplate or a DaemonSet, got %s\n", path,
			kind ? kind : "an object without spec");
	if (tpl)
		json_object_set(json_object_get(ds, "spec"), "template", tpl);
	json_decref(objs);
	return tpl ? EXIT_OK : EXIT_ERROR;
}

/* --strategy: "maxUnavailable=10%,maxSurge=1", "type=OnDelete", or the type alone. */
static int edit_strategy(ctx *c, json_t *ds, const char *settings)
{
	json_t *spec = json_object_get(ds, "spec"), *us = json_object_get(spec, "updateStrategy");
	if (!json_is_object(us)) {
		us = json_object();
		json_object_set_new(spec, "updateStrategy", us);
	}
	char *copy = strdup(settings), *save = NULL;
	int rc = copy ? EXIT_OK : EXIT_ERROR;
	for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && rc == EXIT_OK;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		const char *key = eq ? item : "type", *value = eq ? eq + 1 : item;
		if (eq)
			*eq = '\0';
		if (strcmp(key, "type") == 0 &&
		    (strcmp(value, "RollingUpdate") == 0 || strcmp(value, "OnDelete") == 0)) {
			json_object_set_new(us, "type", json_string(value));
			if (strcmp(value, "OnDelete") == 0)
				json_object_del(us, "rollingUpdate");
		} else if ((strcmp(key, "maxUnavailable") == 0 || strcmp(key, "maxSurge") == 0) && *value) {
			json_t *ru = json_object_get(us, "rollingUpdate");
			if (!json_is_object(ru)) {
				ru = json_object();
				json_object_set_new(us, "rollingUpdate", ru);
			}
			char *end;
			long long v = strtoll(value, &end, 10);
			/* an IntOrString: a number is an int, "10%" a string */
			json_object_set_new(ru, key, *end ? json_string(value) : json_integer(v));
			json_object_set_new(us, "type", json_string("RollingUpdate"));
		} else {
			rc = usage_error(c->cmd->name,
					 "invalid --strategy \"%s\": expected maxUnavailable=N|N%%, maxSurge=N|N%%, "
					 "type=RollingUpdate|OnDelete",
					 settings);
		}
	}
	free(copy);
	return rc;
}

int apply_edits(ctx *c, const char *ns, const char *name)
{
	int nimages = 0;
	while (flag_nth(c, "image", nimages))
		nimages++;
	const char *tpl = flag_value(c, "template"), *strategy = flag_value(c, "strategy");
	const char **pairs = calloc((size_t)nimages + 1, sizeof(*pairs));
	if (!pairs)
		return EXIT_ERROR;
	for (int i = 0; i < nimages; i++)
		pairs[i] = flag_nth(c, "image", i);
	/* `dsctl set image DS PAIR...`: its pairs too */
	int set_image = strcmp(c->cmd->name, "set") == 0;
	if (!nimages && !tpl && !strategy && !set_image) {
		free(pairs);
		return EXIT_OK;
	}
	char *text;
	ds_error err;
	if (ds_cluster_get(c->cluster, "DaemonSet", ns, name, &text, &err) < 0) {
		free(pairs);
		return fail("cannot read the DaemonSet", &err);
	}
	json_t *ds = take_json(text), *before = json_deep_copy(ds);
	int rc = EXIT_OK;
	if (tpl)
		rc = edit_template(c, ds, tpl);
	if (rc == EXIT_OK && set_image)
		rc = edit_images(c, ds, (const char *const *)c->argv + 2, c->argc - 2);
	if (rc == EXIT_OK)
		rc = edit_images(c, ds, pairs, nimages);
	if (rc == EXIT_OK && strategy)
		rc = edit_strategy(c, ds, strategy);
	free(pairs);
	/* kubectl computes its patch on the client: no change, no request (and set image prints nothing) */
	int unchanged = json_equal(before, ds);
	json_decref(before);
	char *body = rc == EXIT_OK && !unchanged ? json_dumps(ds, JSON_COMPACT) : NULL;
	json_decref(ds);
	if (rc != EXIT_OK)
		return rc;
	if (unchanged) {
		if (set_image && c->out != OUT_TABLE) {
			if (ds_cluster_get(c->cluster, "DaemonSet", ns, name, &text, &err) < 0)
				return fail("cannot read the DaemonSet", &err);
			json_t *obj = take_json(text);
			rc = print_structured(c, obj) < 0 ? EXIT_ERROR : EXIT_OK;
			json_decref(obj);
		}
		return rc;
	}
	if (!body)
		return EXIT_ERROR;
	char *out = NULL;
	int urc = ds_daemonset_update(c->cluster, body, strlen(body), c->opts, &out, &err);
	free(body);
	json_t *result = take_json(out);
	if (urc == DS_EINVALID) {
		/* the API server's answer to the PUT, as kubectl prints it */
		fprintf(stderr, "error: %s\n", json_string_value(json_object_get(result, "message")));
		rc = EXIT_ERROR;
	} else if (urc < 0) {
		rc = fail("cannot update the DaemonSet", &err);
	} else if (set_image) {
		/* kubectl set image prints the object it patched, or nothing when no image changed */
		if (print_structured(c, json_object_get(result, "object")) < 0)
			rc = EXIT_ERROR;
		else if (c->out == OUT_TABLE && json_is_true(json_object_get(result, "templateChanged")))
			printf("daemonset.apps/%s image updated\n", name);
	} else if (c->out == OUT_TABLE) {
		say(c, 2, "%s# daemonset.apps/%s updated in the snapshot: generation %lld -> %lld%s%s\n\n",
		    colour(c, "dim"), name,
		    (long long)json_integer_value(json_object_get(result, "previousGeneration")),
		    (long long)json_integer_value(json_object_get(result, "generation")),
		    json_is_true(json_object_get(result, "templateChanged")) ? ", new template" : "",
		    colour(c, "reset"));
	}
	json_decref(result);
	return rc;
}

int command_ds(ctx *c, char ns[DSCTL_NAME_MAX], char name[DSCTL_NAME_MAX])
{
	int rc = resolve_ds(c, c->argv[0], ns, name);
	return rc != EXIT_OK ? rc : apply_edits(c, ns, name);
}

int cmd_set(ctx *c)
{
	if (strcmp(c->argv[0], "image") != 0)
		return usage_error("set", "unknown subcommand \"%s\": dsctl set image DAEMONSET CONTAINER=IMAGE...",
				   c->argv[0]);
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc = resolve_ds(c, c->argv[1], ns, name);
	return rc != EXIT_OK ? rc : apply_edits(c, ns, name);
}
