/*
 * dsctl audit: Pod Security Standards and DaemonSet risks (ds_daemonset_audit(3)), with where the
 * DaemonSet runs; -o sarif for code scanning (ds_audit_sarif(3)), each finding at its file and line.
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

static const char *sev_colour(const ctx *c, const char *s)
{
	if (strcmp(s, "critical") == 0 || strcmp(s, "high") == 0)
		return colour(c, "bad");
	if (strcmp(s, "medium") == 0)
		return colour(c, "warn");
	return colour(c, "dim");
}

/* A report's verdict: 3 when the requested level fails or a finding reaches --fail-on. */
static int verdict(const json_t *doc)
{
	return json_is_true(json_object_get(json_object_get(doc, "requested"), "allowed")) &&
			       !json_is_true(json_object_get(doc, "failed"))
		       ? EXIT_OK
		       : EXIT_CHECK;
}

static void print_report(ctx *c, const json_t *doc)
{
	const json_t *req = json_object_get(doc, "requested"), *sum = json_object_get(doc, "summary"),
		     *place = json_object_get(doc, "placement");
	int allowed = json_is_true(json_object_get(req, "allowed"));
	say(c, 2, "%s%s/%s%s: meets Pod Security Standard \"%s\"; requested \"%s\" %s%s%s\n", colour(c, "bold"),
	    str(doc, "namespace"), str(doc, "name"), colour(c, "reset"), str(doc, "level"), str(req, "level"),
	    colour(c, allowed ? "ok" : "bad"), allowed ? "passes" : "fails", colour(c, "reset"));
	if (json_object_get(req, "warning"))
		say(c, 2, "  Warning: %s\n", str(req, "warning"));
	/* where the risks apply: the claim from its selection, and with nodes loaded, how many */
	if (place && num(json_object_get(place, "nodes"), "total") > 0)
		say(c, 2, "  Runs on: %s; %s\n", str(place, "summary"), str(place, "claim"));
	else if (place)
		say(c, 2, "  Runs on: %s\n", str(place, "claim"));
	char nsup[64] = "", fail_on[256] = "";
	if (num(sum, "suppressed"))
		snprintf(nsup, sizeof(nsup), ", %lld suppressed", num(sum, "suppressed"));
	if (json_object_get(doc, "failOn") && strcmp(str(doc, "failOn"), "none") != 0)
		snprintf(fail_on, sizeof(fail_on), " (--fail-on %s: %s%s%s)", str(doc, "failOn"),
			 colour(c, json_is_true(json_object_get(doc, "failed")) ? "bad" : "ok"),
			 json_is_true(json_object_get(doc, "failed")) ? "fails" : "passes", colour(c, "reset"));
	say(c, 2, "  Score %lld/100: %lld critical, %lld high, %lld medium, %lld low, %lld info%s%s\n\n",
	    num(sum, "score"), num(sum, "critical"), num(sum, "high"), num(sum, "medium"), num(sum, "low"),
	    num(sum, "info"), nsup, fail_on);
	table *t = table_new(3, "SEVERITY", "FIELD", "FINDING");
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(doc, "findings"), i, f)
	{
		const char *sev = str(f, "severity");
		int suppressed = json_is_true(json_object_get(f, "suppressed"));
		char s[64], msg[4096];
		snprintf(s, sizeof(s), "%s%s%s", suppressed ? colour(c, "dim") : sev_colour(c, sev), sev,
			 colour(c, "reset"));
		snprintf(msg, sizeof(msg), "%s%s [%s]", suppressed ? "(suppressed) " : "", str(f, "message"),
			 str(f, "id"));
		table_row(t, s, str(f, "path"), msg);
	}
	table_print(t, c);
	say(c, 2, "\n");
}

/*
 * -o sarif: each report gets the file its DaemonSet came from, and each finding its line there
 * (ds_manifest_locate(3)), when the DaemonSet was read from a file given with -f. The files are
 * walked in load order and a later object replaces an earlier one of the same name, as in the
 * snapshot: the report points at the object that was audited.
 */
static void locate_findings(ctx *c, json_t *reports)
{
	for (int i = 0; i < c->nfiles; i++) {
		char *list;
		ds_error err;
		if (strcmp(c->files[i], "-") == 0 || ds_manifests_list(c->files[i], &list, &err) < 0)
			continue;
		json_t *files = take_json(list), *file;
		size_t k;
		json_array_foreach(files, k, file)
		{
			size_t len;
			char *text = read_file(c, json_string_value(file), &len), *out;
			/* the objects of the file, numbered as the library numbers documents */
			if (!text || ds_manifest_check_fields(text, len, c->opts, &out, &err) < 0) {
				free(text);
				continue;
			}
			json_t *objs = take_json(out), *o, *r;
			size_t j, n;
			json_array_foreach(json_object_get(objs, "objects"), j, o)
			{
				if (strcmp(str(o, "kind"), "DaemonSet") != 0)
					continue;
				json_array_foreach(reports, n, r)
				{
					const char *ns = json_is_string(json_object_get(o, "namespace"))
								 ? str(o, "namespace")
								 : c->ns;
					if (strcmp(str(r, "name"), str(o, "name")) != 0 ||
					    (ns && strcmp(str(r, "namespace"), ns) != 0))
						continue;
					json_object_set(r, "file", file);
					json_t *f;
					size_t q;
					json_array_foreach(json_object_get(r, "findings"), q, f)
					{
						char path[1024];
						json_t *item = json_object_get(o, "item");
						if (item)
							snprintf(path, sizeof(path), "items[%lld].%s",
								 (long long)json_integer_value(item), str(f, "path"));
						else
							snprintf(path, sizeof(path), "%s", str(f, "path"));
						int line, column;
						if (ds_manifest_locate(text, len, (size_t)num(o, "document"), path,
								       &line, &column, NULL, &err) == 0)
							json_object_set_new(f, "line", json_integer(line));
						else /* not the line of an earlier file's object */
							json_object_del(f, "line");
					}
				}
			}
			json_decref(objs);
			free(text);
		}
		json_decref(files);
	}
}

int cmd_audit(ctx *c)
{
	ds_error err;
	const char *fail_on = flag_value(c, "fail-on");
	if (fail_on && ds_options_set(c->opts, "auditFailOn", fail_on, &err) < 0)
		return usage_error("audit", "invalid argument \"%s\" for \"--fail-on\" flag: %s", fail_on, err.message);
	if (flag_nth(c, "ignore", 0)) { /* --ignore a --ignore b,c: the option's "a,b,c" */
		size_t len = 1;
		for (int i = 0; flag_nth(c, "ignore", i); i++)
			len += strlen(flag_nth(c, "ignore", i)) + 1;
		char *ids = calloc(1, len);
		for (int i = 0; ids && flag_nth(c, "ignore", i); i++) {
			if (i)
				strcat(ids, ",");
			strcat(ids, flag_nth(c, "ignore", i));
		}
		int rc = ids ? ds_options_set(c->opts, "auditIgnore", ids, &err) : DS_ENOMEM;
		free(ids);
		if (rc < 0)
			return usage_error("audit", "invalid argument for \"--ignore\" flag: %s", err.message);
	}
	/* the DaemonSets: those named, or all of the snapshot */
	size_t n = c->argc ? (size_t)c->argc : ds_cluster_count(c->cluster, "DaemonSet");
	char(*names)[2][DSCTL_NAME_MAX] = calloc(n + 1, sizeof(*names));
	if (!names)
		return EXIT_ERROR;
	int worst = EXIT_OK;
	for (size_t i = 0; i < n; i++) {
		if (c->argc) {
			int rc = resolve_ds(c, c->argv[i], names[i][0], names[i][1]);
			if (rc != EXIT_OK) {
				free(names);
				return rc;
			}
		} else {
			const char *ns, *name;
			ds_cluster_daemonset_at(c->cluster, i, &ns, &name, NULL);
			snprintf(names[i][0], DSCTL_NAME_MAX, "%s", ns);
			snprintf(names[i][1], DSCTL_NAME_MAX, "%s", name);
		}
	}
	json_t *reports = json_array();
	for (size_t i = 0; i < n; i++) {
		char *text;
		if (ds_daemonset_audit(c->cluster, names[i][0], names[i][1], c->opts, &text, &err) < 0) {
			json_decref(reports);
			free(names);
			return fail("audit failed", &err);
		}
		json_t *doc = take_json(text);
		int v = verdict(doc);
		if (v > worst)
			worst = v;
		if (c->out == OUT_TABLE)
			print_report(c, doc);
		json_array_append_new(reports, doc);
	}
	free(names);
	if (c->out == OUT_SARIF) {
		locate_findings(c, reports);
		char *in = json_dumps(reports, JSON_COMPACT), *log;
		int rc = in ? ds_audit_sarif(in, strlen(in), c->opts, &log, &err) : DS_ENOMEM;
		free(in);
		if (rc < 0) {
			json_decref(reports);
			return fail("cannot write SARIF", &err);
		}
		json_t *l = take_json(log);
		print_json(l);
		json_decref(l);
	} else if (c->out != OUT_TABLE) {
		/* an array of reports, however many (custom-columns: one row per report) */
		if (print_structured(c, reports) < 0)
			worst = EXIT_ERROR;
	}
	json_decref(reports);
	return worst;
}
