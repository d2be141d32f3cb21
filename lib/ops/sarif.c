/*
 * SARIF 2.1.0 (OASIS, sarif-schema-2.1.0.json) for audit reports, as code-scanning services read
 * it: one run whose driver lists every rule of the audit, one result per finding with its level,
 * its manifest file and line (physicalLocation) when the report names its "file", and the object
 * and field (logicalLocation). Suppressed findings stay, with a suppression (SARIF's own notion).
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"
#include "ops/audit_internal.h"

static const char *level_of(const char *sev)
{
	if (strcmp(sev, "critical") == 0 || strcmp(sev, "high") == 0)
		return "error";
	return strcmp(sev, "medium") == 0 ? "warning" : "note";
}

/* GitHub reads properties["security-severity"]: >= 9 critical, >= 7 high, >= 4 medium, else low */
static const char *security_severity(const char *sev)
{
	static const char *const names[] = {"critical", "high", "medium", "low", "info"};
	static const char *const scores[] = {"9.5", "8.0", "5.5", "3.0", "0.0"};
	for (size_t i = 0; i < 5; i++)
		if (strcmp(sev, names[i]) == 0)
			return scores[i];
	return "0.0";
}

static int severity_known(const char *sev)
{
	return strcmp(sev, "critical") == 0 || strcmp(sev, "high") == 0 || strcmp(sev, "medium") == 0 ||
	       strcmp(sev, "low") == 0 || strcmp(sev, "info") == 0;
}

/* a file name as a URI reference: '\' becomes '/', bytes outside the unreserved set and "/:@" are %-encoded */
static char *file_uri(const char *file)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	for (const unsigned char *p = (const unsigned char *)file; *p; p++) {
		unsigned char ch = *p == '\\' ? '/' : *p;
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		    strchr("-._~/:@", ch))
			dsi_strbuf_printf(&b, "%c", ch);
		else
			dsi_strbuf_printf(&b, "%%%02X", ch);
	}
	if (b.oom)
		return dsi_strbuf_free(&b), NULL;
	return b.data ? dsi_strbuf_detach(&b) : dsi_strdup("");
}

static const char *str_or(const json_t *o, const char *k, const char *def)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : def;
}

/* the members a finding must have; err's path names the first wrong one */
static int check_report(const json_t *rep, size_t i, int many, ds_error *err)
{
	char where[64], path[128];
	if (many)
		snprintf(where, sizeof(where), "[%zu]", i);
	else
		where[0] = '\0';
	const char *dot = *where ? "." : "";
	if (!json_is_object(rep))
		return dsi_error_set(err, DS_ETYPE, where, "expected an audit report (object), got %s",
				     dsi_json_type_name(rep));
	const json_t *fs = json_object_get(rep, "findings"), *file = json_object_get(rep, "file");
	if (!json_is_array(fs)) {
		snprintf(path, sizeof(path), "%s%sfindings", where, dot);
		return dsi_error_set(err, fs ? DS_ETYPE : DS_EMISSING, path, "expected an array of findings");
	}
	if (file && !json_is_string(file)) {
		snprintf(path, sizeof(path), "%s%sfile", where, dot);
		return dsi_error_set(err, DS_ETYPE, path, "expected string, got %s", dsi_json_type_name(file));
	}
	size_t k;
	json_t *f;
	json_array_foreach(fs, k, f)
	{
		static const char *const need[] = {"id", "severity", "path", "message"};
		for (size_t n = 0; n < 4; n++)
			if (!json_is_string(json_object_get(f, need[n]))) {
				snprintf(path, sizeof(path), "%s%sfindings[%zu].%s", where, dot, k, need[n]);
				return dsi_error_set(err, DS_ETYPE, path, "expected string");
			}
		if (!severity_known(json_string_value(json_object_get(f, "severity")))) {
			snprintf(path, sizeof(path), "%s%sfindings[%zu].severity", where, dot, k);
			return dsi_error_set(err, DS_EVALUE, path, "expected critical, high, medium, low or info");
		}
		json_t *line = json_object_get(f, "line");
		if (line && !json_is_integer(line)) {
			snprintf(path, sizeof(path), "%s%sfindings[%zu].line", where, dot, k);
			return dsi_error_set(err, DS_ETYPE, path, "expected integer");
		}
	}
	return 0;
}

/* index of id among the rules, adding an unknown one at the end */
static json_int_t rule_index(json_t *rules, const char *id, const char *sev)
{
	size_t i;
	json_t *r;
	json_array_foreach(rules, i, r) if (strcmp(str_or(r, "id", ""), id) == 0) return (json_int_t)i;
	r = json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:[s], s:s}}", "id", id, "name", id, "shortDescription", "text",
		      id, "defaultConfiguration", "level", level_of(sev), "properties", "tags", "daemonset",
		      "security-severity", security_severity(sev));
	if (!r || json_array_append_new(rules, r) < 0)
		return -2;
	return (json_int_t)json_array_size(rules) - 1;
}

int dsi_audit_sarif(const json_t *reports, const char *tool_version, json_t **out, ds_error *err)
{
	*out = NULL;
	int many = json_is_array(reports);
	size_t n = many ? json_array_size(reports) : 1;
	for (size_t i = 0; i < n; i++) {
		int rc = check_report(many ? json_array_get(reports, i) : reports, i, many, err);
		if (rc < 0)
			return rc;
	}
	json_t *rules = json_array(), *results = json_array();
	size_t nr;
	const dsi_audit_rule *table = dsi_audit_rules(&nr);
	int oom = !rules || !results;
	for (size_t i = 0; !oom && i < nr; i++) {
		const char *sev = dsi_severity_name(table[i].severity);
		oom = json_array_append_new(rules, json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:[s], s:s}}", "id",
							     table[i].id, "name", table[i].id, "shortDescription",
							     "text", table[i].title, "defaultConfiguration", "level",
							     level_of(sev), "properties", "tags", "daemonset",
							     "security-severity", security_severity(sev))) < 0;
	}
	for (size_t i = 0; !oom && i < n; i++) {
		const json_t *rep = many ? json_array_get(reports, i) : reports;
		const char *kind = str_or(rep, "kind", ""), *ns = str_or(rep, "namespace", ""),
			   *name = str_or(rep, "name", "");
		const char *file = str_or(rep, "file", NULL);
		char *uri = file ? file_uri(file) : NULL;
		if (file && !uri) {
			oom = 1;
			break;
		}
		size_t k;
		json_t *f;
		json_array_foreach(json_object_get(rep, "findings"), k, f)
		{
			const char *id = str_or(f, "id", ""), *sev = str_or(f, "severity", "info"),
				   *path = str_or(f, "path", "");
			json_int_t idx = rule_index(rules, id, sev);
			char *fqn = dsi_format("%s/%s%s%s/%s", kind, ns, *ns ? "/" : "", name, path);
			char *object = dsi_format("%s/%s%s%s", kind, ns, *ns ? "/" : "", name);
			json_t *logical = json_pack("{s:s, s:s?, s:s}", "name", path, "fullyQualifiedName", fqn, "kind",
						    "member");
			json_t *loc = json_pack("{s:[o]}", "logicalLocations", logical);
			if (uri && loc) {
				json_t *phys = json_pack("{s:{s:s}}", "artifactLocation", "uri", uri);
				json_t *line = json_object_get(f, "line");
				if (phys && json_integer_value(line) > 0)
					json_object_set_new(phys, "region",
							    json_pack("{s:I}", "startLine", json_integer_value(line)));
				if (!phys || json_object_set_new(loc, "physicalLocation", phys) < 0)
					oom = 1;
			}
			json_t *res =
				json_pack("{s:s, s:I, s:s, s:{s:s}, s:[o], s:{s:s?}, s:{s:s, s:s, s:s?, s:s}}",
					  "ruleId", id, "ruleIndex", idx, "level", level_of(sev), "message", "text",
					  str_or(f, "message", ""), "locations", loc, "partialFingerprints",
					  "daemonsetFinding/v1", fqn, "properties", "severity", sev, "path", path,
					  "object", object, "remediation", str_or(f, "remediation", ""));
			if (res && json_is_true(json_object_get(f, "suppressed"))) {
				const char *by = str_or(f, "suppressedBy", "annotation");
				json_t *sup = json_pack(
					"[{s:s, s:s, s:s}]", "kind",
					strcmp(by, "option") == 0 ? "external" : "inSource", "status", "accepted",
					"justification",
					strcmp(by, "option") == 0
						? "suppressed by the auditIgnore option"
						: "suppressed by the annotation audit.libdaemonset.io/ignore");
				if (!sup || json_object_set_new(res, "suppressions", sup) < 0)
					oom = 1;
			}
			dsi_free(fqn);
			dsi_free(object);
			if (idx < 0 || !res || json_array_append_new(results, res) < 0)
				oom = 1;
			if (oom)
				break;
		}
		dsi_free(uri);
	}
	json_t *log = oom ? NULL
			  : json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:o}}, s:o}]}", "$schema",
				      "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs",
				      "tool", "driver", "name", "libdaemonset audit", "version",
				      tool_version ? tool_version : "", "rules", rules, "results", results);
	if (!log) {
		if (!oom) {
			rules = results = NULL; /* json_pack took them even though it failed */
		}
		json_decref(rules);
		json_decref(results);
		return dsi_error_nomem(err);
	}
	*out = log;
	return 0;
}
