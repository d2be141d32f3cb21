/*
 * dsctl get: kubectl get over the loaded objects. `get TYPE[,TYPE...] [NAME...]` or `get TYPE/NAME...`
 * with kubectl's names and short names, -l, --field-selector, -A; kubectl's tables (the columns of
 * k8s.io/kubernetes pkg/printers/internalversion/printers.go), -o name, and -o json|yaml|jsonpath|
 * custom-columns over the objects themselves (one object, or a v1 List that dsctl and kubectl read
 * back). Without TYPE, the summary of what was loaded (or, with -o, every object).
 */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"

struct resource_type {
	const char *kind, *plural, *group; /* group "" is the core group */
	const char *names;                 /* what kubectl accepts for it, blank-separated */
	int namespaced;
	const char *fields; /* its field selectors beyond metadata.name (and metadata.namespace) */
};

/* The kinds the snapshot keeps, with kubectl's resource names and short names (kubectl api-resources). */
static const resource_type types[] = {
	{"DaemonSet", "daemonsets", "apps", "ds daemonset daemonsets daemonset.apps daemonsets.apps", 1, ""},
	{"Node", "nodes", "", "no node nodes", 0, "spec.unschedulable"},
	/* ToSelectableFields in pkg/registry/core/pod/strategy.go */
	{"Pod", "pods", "", "po pod pods", 1,
	 "spec.nodeName spec.restartPolicy spec.schedulerName spec.serviceAccountName spec.hostNetwork status.phase "
	 "status.podIP status.nominatedNodeName"},
	{"ControllerRevision", "controllerrevisions", "apps",
	 "controllerrevision controllerrevisions controllerrevision.apps controllerrevisions.apps", 1, ""},
	{"PodDisruptionBudget", "poddisruptionbudgets", "policy",
	 "pdb poddisruptionbudget poddisruptionbudgets poddisruptionbudget.policy poddisruptionbudgets.policy", 1, ""},
	{"PriorityClass", "priorityclasses", "scheduling.k8s.io",
	 "pc priorityclass priorityclasses priorityclass.scheduling.k8s.io priorityclasses.scheduling.k8s.io", 0, ""},
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

static int word_in(const char *word, const char *list)
{
	size_t n = strlen(word);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, " ");
		if (len == n && strncmp(p, word, n) == 0)
			return 1;
		p += len + (p[len] == ' ');
	}
	return 0;
}

const resource_type *resource_type_named(const char *name)
{
	for (size_t i = 0; i < NTYPES; i++)
		if (word_in(name, types[i].names))
			return &types[i];
	return NULL;
}

void suggest_resource_types(suggestions *s, const char *typed)
{
	/* the names as cobra compares command names: not the short names, of which every short word is near */
	for (size_t i = 0; i < NTYPES; i++) {
		char singular[64];
		snprintf(singular, sizeof(singular), "%s", types[i].plural);
		singular[strlen(singular) - (strcmp(types[i].plural, "priorityclasses") == 0 ? 2 : 1)] = '\0';
		if (suggestion_matches(typed, types[i].plural) || suggestion_matches(typed, singular))
			suggestions_push(s, types[i].plural);
	}
}

/* ---- reading JSON ----------------------------------------------------------------------------- */

/* The member at a dotted path ("status.nodeInfo.kubeletVersion"), or NULL. */
static json_t *at(const json_t *o, const char *path)
{
	json_t *v = (json_t *)o;
	while (v && *path) {
		size_t len = strcspn(path, ".");
		char key[128];
		snprintf(key, sizeof(key), "%.*s", (int)len, path);
		v = json_object_get(v, key);
		path += len + (path[len] == '.');
	}
	return v;
}

static const char *str_at(const json_t *o, const char *path)
{
	const char *s = json_string_value(at(o, path));
	return s ? s : "";
}

static const char *meta(const json_t *o, const char *k) { return str_at(json_object_get(o, "metadata"), k); }

/* An object's namespace, as the API server stores it: "default" when a manifest names none. */
static const char *namespace_of(const json_t *o)
{
	const char *ns = meta(o, "namespace");
	return *ns ? ns : "default";
}

static const char *group_of(const json_t *o)
{
	static char group[128];
	const char *av = str_at(o, "apiVersion"), *slash = strchr(av, '/');
	snprintf(group, sizeof(group), "%.*s", slash ? (int)(slash - av) : 0, av);
	return group;
}

static const resource_type *type_of(const json_t *o)
{
	const char *kind = str_at(o, "kind");
	for (size_t i = 0; i < NTYPES; i++)
		if (strcmp(types[i].kind, kind) == 0 && strcmp(types[i].group, group_of(o)) == 0)
			return &types[i];
	return NULL;
}

/* ---- the objects ------------------------------------------------------------------------------ */

/* The objects of one input text, in order (ds_objects_parse(3)), appended to all. */
static int add_objects(ctx *c, const char *label, const char *text, size_t len, json_t *all)
{
	char *out;
	ds_error err;
	if (ds_objects_parse(text, len, c->opts, &out, &err) < 0) {
		name_source(&err, label);
		return fail("cannot read the input", &err);
	}
	json_t *objs = take_json(out);
	json_array_extend(all, objs);
	json_decref(objs);
	return EXIT_OK;
}

/* The key an object is stored under: a later object with the same key replaces it, as loading does. */
static void object_key(const json_t *o, char *buf, size_t size)
{
	const resource_type *t = type_of(o);
	snprintf(buf, size, "%s/%s/%s/%s", group_of(o), str_at(o, "kind"), t && !t->namespaced ? "" : namespace_of(o),
		 meta(o, "name"));
}

/*
 * Every object of the inputs in load order, each key once (the last wins, as in the snapshot).
 * DaemonSets come from the snapshot, as it stores them (a manifest's namespace and the API server's
 * defaults filled in: ds_cluster_get(3)); the snapshot keeps the other kinds only in part, so they
 * are read again from the inputs.
 */
static json_t *loaded_objects(ctx *c)
{
	json_t *all = json_array();
	const char *stdin_only[] = {"-"};
	const char **files = c->nfiles ? c->files : stdin_only;
	int n = c->nfiles ? c->nfiles : 1, rc = EXIT_OK;
	for (int i = 0; i < n && rc == EXIT_OK; i++) {
		if (strcmp(files[i], "-") == 0) {
			rc = add_objects(c, "-", c->stdin_text ? c->stdin_text : "", c->stdin_len, all);
			continue;
		}
		char *list;
		ds_error err;
		if (ds_manifests_list(files[i], &list, &err) < 0) {
			rc = fail("cannot read the input", &err);
			break;
		}
		json_t *paths = take_json(list), *p;
		size_t k;
		json_array_foreach(paths, k, p)
		{
			size_t len;
			char *text = read_file(c, json_string_value(p), &len);
			rc = text ? add_objects(c, json_string_value(p), text, len, all) : EXIT_ERROR;
			free(text);
			if (rc != EXIT_OK)
				break;
		}
		json_decref(paths);
	}
	if (rc != EXIT_OK) {
		json_decref(all);
		return NULL;
	}
	/* each key once, at the place of its last occurrence */
	json_t *seen = json_object(), *out = json_array(), *o;
	size_t i;
	char key[1024];
	json_array_foreach(all, i, o)
	{
		object_key(o, key, sizeof(key));
		json_object_set_new(seen, key, json_integer((json_int_t)i));
	}
	json_array_foreach(all, i, o)
	{
		object_key(o, key, sizeof(key));
		if (json_integer_value(json_object_get(seen, key)) != (json_int_t)i)
			continue;
		if (strcmp(str_at(o, "kind"), "DaemonSet") == 0 && strcmp(group_of(o), "apps") == 0)
			continue; /* from the snapshot, below */
		json_array_append(out, o);
	}
	json_decref(seen);
	json_decref(all);
	const char *ns, *name;
	for (size_t d = 0; ds_cluster_daemonset_at(c->cluster, d, &ns, &name, NULL) == 0; d++) {
		char *text;
		ds_error err;
		if (ds_cluster_get(c->cluster, "DaemonSet", ns, name, &text, &err) < 0)
			continue;
		json_t *ds = take_json(text);
		if (!json_is_object(ds))
			continue;
		/* what the API server serves has them, whatever the manifest left out */
		if (!json_is_string(json_object_get(ds, "apiVersion")))
			json_object_set_new(ds, "apiVersion", json_string("apps/v1"));
		if (!json_is_string(json_object_get(ds, "kind")))
			json_object_set_new(ds, "kind", json_string("DaemonSet"));
		json_array_append_new(out, ds);
	}
	return out;
}

/* kubectl lists in the API server's order: by namespace, then name. */
static int by_namespace_and_name(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int r = strcmp(meta(x, "namespace"), meta(y, "namespace"));
	return r ? r : strcmp(meta(x, "name"), meta(y, "name"));
}

/* ---- selectors -------------------------------------------------------------------------------- */

static int labels_match(const char *sel, const json_t *o)
{
	json_t *labels = at(o, "metadata.labels");
	char *text = labels ? json_dumps(labels, JSON_ENCODE_ANY | JSON_COMPACT) : strdup("{}");
	int m = 0;
	ds_error err;
	if (text && ds_selector_match(sel, strlen(sel), text, strlen(text), &m, &err) < 0)
		m = 0;
	free(text);
	return m;
}

/* The value a field selector compares (fields.Set of the registry's GetAttrs): strings as stored,
 * booleans as strconv.FormatBool. NULL when the type has no such field. */
static const char *field_value(const resource_type *t, const json_t *o, const char *field, char *buf, size_t size)
{
	if (strcmp(field, "metadata.name") == 0)
		return meta(o, "name");
	if (strcmp(field, "metadata.namespace") == 0 && t->namespaced)
		return namespace_of(o);
	if (!word_in(field, t->fields))
		return NULL;
	if (strcmp(field, "spec.unschedulable") == 0 || strcmp(field, "spec.hostNetwork") == 0) {
		snprintf(buf, size, "%s", json_is_true(at(o, field)) ? "true" : "false");
		return buf;
	}
	if (strcmp(field, "status.podIP") == 0) { /* the first of status.podIPs */
		json_t *ips = at(o, "status.podIPs");
		return json_array_size(ips) ? str_at(json_array_get(ips, 0), "ip") : str_at(o, "status.podIP");
	}
	return str_at(o, field);
}

typedef struct field_req {
	char key[512], value[512];
	int negate;
} field_req;

/* fields.ParseSelector: "k=v", "k==v", "k!=v", comma-separated. */
static int parse_field_selector(ctx *c, const char *sel, field_req **out, size_t *n)
{
	size_t cap = 1;
	for (const char *p = sel; *p; p++)
		cap += *p == ',';
	*out = calloc(cap, sizeof(**out));
	*n = 0;
	if (!*out)
		return EXIT_ERROR;
	for (const char *p = sel; *p;) {
		size_t len = strcspn(p, ",");
		char term[512];
		snprintf(term, sizeof(term), "%.*s", (int)len, p);
		char *op = strstr(term, "!="), *eq = strchr(term, '=');
		field_req *r = &(*out)[*n];
		if (op) {
			r->negate = 1;
			*op = '\0';
			snprintf(r->value, sizeof(r->value), "%s", op + 2);
		} else if (eq) {
			*eq = '\0';
			snprintf(r->value, sizeof(r->value), "%s", eq[1] == '=' ? eq + 2 : eq + 1);
		} else {
			return usage_error(c->cmd->name,
					   "invalid field selector \"%s\": expected KEY=VALUE, KEY==VALUE "
					   "or KEY!=VALUE",
					   sel);
		}
		snprintf(r->key, sizeof(r->key), "%s", term);
		(*n)++;
		p += len + (p[len] == ',');
	}
	return EXIT_OK;
}

/* Every key must be a field of every type asked for: the API server's "field label not supported". */
static int check_fields(const field_req *reqs, size_t n, const resource_type *const *ts, size_t nt)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < nt; k++) {
			char buf[8];
			json_t *empty = json_object();
			int ok = field_value(ts[k], empty, reqs[i].key, buf, sizeof(buf)) != NULL;
			json_decref(empty);
			if (ok)
				continue;
			suggestions s;
			suggestions_init(&s);
			char all[512];
			snprintf(all, sizeof(all), "metadata.name%s%s%s",
				 ts[k]->namespaced ? " metadata.namespace" : "", *ts[k]->fields ? " " : "",
				 ts[k]->fields);
			for (const char *p = all; *p;) {
				size_t len = strcspn(p, " ");
				char w[64];
				snprintf(w, sizeof(w), "%.*s", (int)len, p);
				suggestions_add(&s, reqs[i].key, w);
				p += len + (p[len] == ' ');
			}
			fprintf(stderr, "error: %s: field label not supported: %s (%s have: %s)\n", ts[k]->plural,
				reqs[i].key, ts[k]->plural, all);
			suggestions_print(&s, stderr);
			return EXIT_ERROR;
		}
	return EXIT_OK;
}

static int fields_match(const resource_type *t, const json_t *o, const field_req *reqs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char buf[8];
		const char *v = field_value(t, o, reqs[i].key, buf, sizeof(buf));
		if (!v || (strcmp(v, reqs[i].value) == 0) == reqs[i].negate)
			return 0;
	}
	return 1;
}

/* ---- kubectl's cells -------------------------------------------------------------------------- */

/* translateTimestampSince: duration.HumanDuration (k8s.io/apimachinery/pkg/util/duration) of the
 * time since ts, at --now; "<unknown>" without a timestamp. */
static void age(const ctx *c, const char *ts, char *buf, size_t size)
{
	ds_time t;
	if (!ts || !*ts || ds_time_parse(ts, &t, NULL) < 0) {
		snprintf(buf, size, "<unknown>");
		return;
	}
	long long ms = (long long)(c->now - t), seconds = ms / 1000;
	if (seconds < -1) {
		snprintf(buf, size, "<invalid>");
		return;
	}
	if (seconds < 0)
		seconds = 0;
	long long minutes = seconds / 60, hours = seconds / 3600, days = hours / 24;
	if (seconds < 120)
		snprintf(buf, size, "%llds", seconds);
	else if (minutes < 10)
		seconds % 60 ? snprintf(buf, size, "%lldm%llds", minutes, seconds % 60)
			     : snprintf(buf, size, "%lldm", minutes);
	else if (minutes < 180)
		snprintf(buf, size, "%lldm", minutes);
	else if (hours < 8)
		minutes % 60 ? snprintf(buf, size, "%lldh%lldm", hours, minutes % 60)
			     : snprintf(buf, size, "%lldh", hours);
	else if (hours < 48)
		snprintf(buf, size, "%lldh", hours);
	else if (hours < 24 * 8)
		hours % 24 ? snprintf(buf, size, "%lldd%lldh", days, hours % 24) : snprintf(buf, size, "%lldd", days);
	else if (hours < 24 * 365 * 2)
		snprintf(buf, size, "%lldd", days);
	else if (hours < 24 * 365 * 8)
		days % 365 ? snprintf(buf, size, "%lldy%lldd", days / 365, days % 365)
			   : snprintf(buf, size, "%lldy", days / 365);
	else
		snprintf(buf, size, "%lldy", days / 365);
}

/* labels.FormatLabels: "k=v,k2=v2" sorted by key, "<none>" when empty. */
static char *format_labels(const json_t *labels)
{
	size_t n = json_object_size(labels), len = 8, k = 0;
	const char **keys = calloc(n + 1, sizeof(*keys));
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)labels, key, v)
	{
		keys[k++] = key;
		len += strlen(key) + strlen(json_string_value(v) ? json_string_value(v) : "") + 2;
	}
	for (size_t i = 1; i < k; i++) /* insertion sort: a few labels */
		for (size_t j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
			const char *t = keys[j];
			keys[j] = keys[j - 1];
			keys[j - 1] = t;
		}
	char *out = malloc(len);
	if (out) {
		out[0] = '\0';
		for (size_t i = 0; i < k; i++) {
			const char *val = json_string_value(json_object_get(labels, keys[i]));
			size_t l = strlen(out);
			snprintf(out + l, len - l, "%s%s=%s", i ? "," : "", keys[i], val ? val : "");
		}
		if (!k)
			snprintf(out, len, "<none>");
	}
	free(keys);
	return out;
}

/* metav1.FormatLabelSelector: matchLabels as k=v, then the expressions in the selector's syntax. */
static char *format_selector(const json_t *sel)
{
	json_t *ml = json_object_get(sel, "matchLabels"), *e;
	char *labels = json_object_size(ml) ? format_labels(ml) : strdup("");
	size_t len = (labels ? strlen(labels) : 0) + 16, i;
	json_array_foreach(json_object_get(sel, "matchExpressions"), i, e)
	{
		len += strlen(str_at(e, "key")) + 16;
		size_t k;
		json_t *v;
		json_array_foreach(json_object_get(e, "values"), k, v) len +=
			strlen(json_string_value(v) ? json_string_value(v) : "") + 1;
	}
	char *out = malloc(len);
	if (!out) {
		free(labels);
		return NULL;
	}
	snprintf(out, len, "%s", labels ? labels : "");
	free(labels);
	json_array_foreach(json_object_get(sel, "matchExpressions"), i, e)
	{
		const char *op = str_at(e, "operator"), *key = str_at(e, "key");
		size_t l = strlen(out);
		if (l)
			out[l++] = ',', out[l] = '\0';
		if (strcmp(op, "Exists") == 0)
			snprintf(out + l, len - l, "%s", key);
		else if (strcmp(op, "DoesNotExist") == 0)
			snprintf(out + l, len - l, "!%s", key);
		else {
			snprintf(out + l, len - l, "%s %s (", key, strcmp(op, "NotIn") == 0 ? "notin" : "in");
			size_t k;
			json_t *v;
			json_array_foreach(json_object_get(e, "values"), k, v)
			{
				l = strlen(out);
				snprintf(out + l, len - l, "%s%s", k ? "," : "",
					 json_string_value(v) ? json_string_value(v) : "");
			}
			l = strlen(out);
			snprintf(out + l, len - l, ")");
		}
	}
	if (!*out)
		snprintf(out, len, "<none>");
	return out;
}

/* layoutContainerCells: the names and the images, comma-separated. */
static void container_cells(const json_t *containers, char **names, char **images)
{
	json_t *ct;
	size_t i, ln = 1, li = 1;
	json_array_foreach(containers, i, ct)
	{
		ln += strlen(str_at(ct, "name")) + 1;
		li += strlen(str_at(ct, "image")) + 1;
	}
	*names = calloc(1, ln);
	*images = calloc(1, li);
	json_array_foreach(containers, i, ct)
	{
		if (!*names || !*images)
			break;
		if (i) {
			strcat(*names, ",");
			strcat(*images, ",");
		}
		strcat(*names, str_at(ct, "name"));
		strcat(*images, str_at(ct, "image"));
	}
}

/* ---- the tables ------------------------------------------------------------------------------- */

typedef struct get_table {
	table *t;
	int ns_col, kind_prefix, show_labels;
} get_table;

static void name_cell(const get_table *g, const resource_type *t, const json_t *o, char *buf, size_t size)
{
	if (!g->kind_prefix) {
		snprintf(buf, size, "%s", meta(o, "name"));
		return;
	}
	/* several types: kubectl writes each name with its type, the kind in lower case */
	snprintf(buf, size, "%s%s%s/%s", t->kind, *t->group ? "." : "", t->group, meta(o, "name"));
	for (char *p = buf; *p && *p != '/'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p | 0x20);
}

/* A row: [NAMESPACE] NAME, the type's cells, [LABELS]; cells is NULL-terminated. */
static void add_row(get_table *g, const resource_type *t, const json_t *o, const char **cells)
{
	const char *v[24];
	size_t n = 0;
	char name[600];
	name_cell(g, t, o, name, sizeof(name));
	if (g->ns_col)
		v[n++] = t->namespaced ? namespace_of(o) : "";
	v[n++] = name;
	for (size_t i = 0; cells[i] && n < 22; i++)
		v[n++] = cells[i];
	char *labels = g->show_labels ? format_labels(at(o, "metadata.labels")) : NULL;
	if (g->show_labels)
		v[n++] = labels ? labels : "";
	while (n < 24)
		v[n++] = "";
	table_row(g->t, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14],
		  v[15], v[16], v[17], v[18], v[19], v[20], v[21], v[22], v[23]);
	free(labels);
}

/* The headers of a type's table (the column definitions' names in upper case, as kubectl prints them). */
static const char *const *headers(const resource_type *t, int wide)
{
	static const char *const ds[] = {"DESIRED", "CURRENT", "READY",      "UP-TO-DATE", "AVAILABLE", "NODE SELECTOR",
					 "AGE",     NULL,      "CONTAINERS", "IMAGES",     "SELECTOR",  NULL};
	static const char *const node[] = {
		"STATUS",      "ROLES",       "AGE",      "VERSION",        NULL,
		"INTERNAL-IP", "EXTERNAL-IP", "OS-IMAGE", "KERNEL-VERSION", "CONTAINER-RUNTIME",
		NULL};
	static const char *const pod[] = {"READY", "STATUS",         "RESTARTS",        "AGE", NULL, "IP",
					  "NODE",  "NOMINATED NODE", "READINESS GATES", NULL};
	static const char *const cr[] = {"CONTROLLER", "REVISION", "AGE", NULL, NULL};
	static const char *const pdb[] = {"MIN AVAILABLE", "MAX UNAVAILABLE", "ALLOWED DISRUPTIONS", "AGE", NULL, NULL};
	static const char *const pc[] = {"VALUE", "GLOBAL-DEFAULT", "AGE", "PREEMPTIONPOLICY", NULL, NULL};
	const char *const *h = strcmp(t->kind, "DaemonSet") == 0             ? ds
			       : strcmp(t->kind, "Node") == 0                ? node
			       : strcmp(t->kind, "Pod") == 0                 ? pod
			       : strcmp(t->kind, "ControllerRevision") == 0  ? cr
			       : strcmp(t->kind, "PodDisruptionBudget") == 0 ? pdb
									     : pc;
	(void)wide;
	return h;
}

static get_table table_for(const ctx *c, const resource_type *t, int kind_prefix)
{
	get_table g = {NULL, !c->ns && t->namespaced, kind_prefix, flag_on(c, "show-labels")};
	const char *v[24];
	size_t n = 0;
	if (g.ns_col)
		v[n++] = "NAMESPACE";
	v[n++] = "NAME";
	const char *const *h = headers(t, c->wide);
	size_t i = 0;
	for (; h[i]; i++)
		v[n++] = h[i];
	if (c->wide)
		for (i++; h[i]; i++)
			v[n++] = h[i];
	if (g.show_labels)
		v[n++] = "LABELS";
	int ncols = (int)n;
	while (n < 24)
		v[n++] = "";
	g.t = table_new(ncols, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13],
			v[14], v[15], v[16], v[17], v[18], v[19], v[20], v[21], v[22], v[23]);
	return g;
}

/* printDaemonSet. The counts are the status the controller would write at --now (dsctl status), which
 * is the stored status for a consistent dump and says something for a manifest too. */
static void daemonset_row(ctx *c, get_table *g, const resource_type *t, const json_t *o)
{
	ds_status st = DS_STATUS_INIT;
	ds_error err;
	char v[5][16], a[32];
	int known = ds_daemonset_status(c->cluster, namespace_of(o), meta(o, "name"), c->now, c->opts, &st, &err) == 0;
	int n[5] = {st.desired_number_scheduled, st.current_number_scheduled, st.number_ready,
		    st.updated_number_scheduled, st.number_available};
	for (int i = 0; i < 5; i++)
		snprintf(v[i], sizeof(v[i]), known ? "%d" : "?", n[i]);
	char *selector = format_labels(at(o, "spec.template.spec.nodeSelector"));
	age(c, meta(o, "creationTimestamp"), a, sizeof(a));
	char *names = NULL, *images = NULL, *sel = NULL;
	if (c->wide) {
		container_cells(at(o, "spec.template.spec.containers"), &names, &images);
		sel = format_selector(at(o, "spec.selector"));
	}
	const char *cells[] = {v[0], v[1], v[2], v[3], v[4], selector ? selector : "", a, names, images, sel, NULL};
	if (!c->wide)
		cells[7] = NULL;
	add_row(g, t, o, cells);
	free(selector);
	free(names);
	free(images);
	free(sel);
}

/* printNode and findNodeRoles. */
static void node_row(ctx *c, get_table *g, const resource_type *t, const json_t *o)
{
	char status[64] = "", roles[512] = "", a[32];
	size_t i;
	json_t *cond;
	json_array_foreach(at(o, "status.conditions"), i, cond) if (strcmp(str_at(cond, "type"), "Ready") == 0)
		snprintf(status, sizeof(status), "%s",
			 strcmp(str_at(cond, "status"), "True") == 0 ? "Ready" : "NotReady");
	if (!*status)
		snprintf(status, sizeof(status), "Unknown");
	if (json_is_true(at(o, "spec.unschedulable")))
		strcat(status, ",SchedulingDisabled");
	/* node-role.kubernetes.io/<role> keys and the kubernetes.io/role value, sorted, once each */
	const char *found[64];
	size_t nf = 0;
	const char *k;
	json_t *v;
	json_object_foreach(at(o, "metadata.labels"), k, v)
	{
		const char *role = strncmp(k, "node-role.kubernetes.io/", 24) == 0 ? k + 24
				   : strcmp(k, "kubernetes.io/role") == 0          ? json_string_value(v)
										   : NULL;
		int dup = 0;
		for (size_t j = 0; role && j < nf; j++)
			dup |= strcmp(found[j], role) == 0;
		if (role && *role && !dup && nf < 64)
			found[nf++] = role;
	}
	for (size_t x = 1; x < nf; x++)
		for (size_t y = x; y > 0 && strcmp(found[y - 1], found[y]) > 0; y--) {
			const char *tmp = found[y];
			found[y] = found[y - 1];
			found[y - 1] = tmp;
		}
	for (size_t x = 0; x < nf; x++) {
		size_t l = strlen(roles);
		snprintf(roles + l, sizeof(roles) - l, "%s%s", x ? "," : "", found[x]);
	}
	age(c, meta(o, "creationTimestamp"), a, sizeof(a));
	const char *ip[2] = {"<none>", "<none>"};
	json_t *addr;
	json_array_foreach(at(o, "status.addresses"), i, addr)
	{
		const char *type = str_at(addr, "type");
		int which = strcmp(type, "InternalIP") == 0 ? 0 : strcmp(type, "ExternalIP") == 0 ? 1 : -1;
		if (which >= 0 && strcmp(ip[which], "<none>") == 0)
			ip[which] = str_at(addr, "address");
	}
	const char *os = str_at(o, "status.nodeInfo.osImage"), *kernel = str_at(o, "status.nodeInfo.kernelVersion"),
		   *cri = str_at(o, "status.nodeInfo.containerRuntimeVersion");
	const char *cells[] = {status,
			       *roles ? roles : "<none>",
			       a,
			       str_at(o, "status.nodeInfo.kubeletVersion"),
			       c->wide ? ip[0] : NULL,
			       ip[1],
			       *os ? os : "<unknown>",
			       *kernel ? kernel : "<unknown>",
			       *cri ? cri : "<unknown>",
			       NULL};
	add_row(g, t, o, cells);
}

/* printPod: READY, STATUS (the reason of the first container that has one, init containers first),
 * RESTARTS with the time since the last one. */
static void pod_row(ctx *c, get_table *g, const resource_type *t, const json_t *o)
{
	const json_t *st = json_object_get(o, "status"), *spec = json_object_get(o, "spec");
	long long restarts = 0, restartable_restarts = 0;
	size_t total = json_array_size(json_object_get(spec, "containers")), ready = 0, i;
	char reason[256], last[64] = "", last_restartable[64] = "";
	snprintf(reason, sizeof(reason), "%s", *str_at(st, "reason") ? str_at(st, "reason") : str_at(st, "phase"));
	json_t *x;
	json_array_foreach(json_object_get(st, "conditions"), i,
			   x) if (strcmp(str_at(x, "type"), "PodScheduled") == 0 &&
				  strcmp(str_at(x, "reason"), "SchedulingGated") == 0)
		snprintf(reason, sizeof(reason), "SchedulingGated");
	/* init containers with restartPolicy Always (sidecars) count as containers */
	json_t *inits = json_object_get(spec, "initContainers");
	json_array_foreach(inits, i, x) if (strcmp(str_at(x, "restartPolicy"), "Always") == 0) total++;
	int initializing = 0;
	json_array_foreach(json_object_get(st, "initContainerStatuses"), i, x)
	{
		restarts += json_integer_value(json_object_get(x, "restartCount"));
		const char *fin = str_at(x, "lastState.terminated.finishedAt");
		if (strcmp(fin, last) > 0)
			snprintf(last, sizeof(last), "%s", fin);
		int sidecar = 0;
		size_t k;
		json_t *ic;
		json_array_foreach(inits, k, ic) if (strcmp(str_at(ic, "name"), str_at(x, "name")) == 0) sidecar =
			strcmp(str_at(ic, "restartPolicy"), "Always") == 0;
		if (sidecar) {
			restartable_restarts += json_integer_value(json_object_get(x, "restartCount"));
			if (strcmp(fin, last_restartable) > 0)
				snprintf(last_restartable, sizeof(last_restartable), "%s", fin);
		}
		json_t *term = at(x, "state.terminated"), *wait = at(x, "state.waiting");
		if (term && json_integer_value(json_object_get(term, "exitCode")) == 0)
			continue;
		if (sidecar && json_is_true(json_object_get(x, "started"))) {
			ready += json_is_true(json_object_get(x, "ready"));
			continue;
		}
		if (term) {
			if (*str_at(term, "reason"))
				snprintf(reason, sizeof(reason), "Init:%s", str_at(term, "reason"));
			else if (json_integer_value(json_object_get(term, "signal")))
				snprintf(reason, sizeof(reason), "Init:Signal:%lld",
					 (long long)json_integer_value(json_object_get(term, "signal")));
			else
				snprintf(reason, sizeof(reason), "Init:ExitCode:%lld",
					 (long long)json_integer_value(json_object_get(term, "exitCode")));
		} else if (wait && *str_at(wait, "reason") && strcmp(str_at(wait, "reason"), "PodInitializing") != 0) {
			snprintf(reason, sizeof(reason), "Init:%s", str_at(wait, "reason"));
		} else {
			snprintf(reason, sizeof(reason), "Init:%zu/%zu", i, json_array_size(inits));
		}
		initializing = 1;
		break;
	}
	int initialized = 0;
	json_array_foreach(json_object_get(st, "conditions"), i, x) if (strcmp(str_at(x, "type"), "Initialized") == 0 &&
									strcmp(str_at(x, "status"), "True") == 0)
		initialized = 1;
	if (!initializing || initialized) {
		restarts = restartable_restarts;
		snprintf(last, sizeof(last), "%s", last_restartable);
		int running = 0;
		json_t *cs = json_object_get(st, "containerStatuses");
		for (size_t k = json_array_size(cs); k-- > 0;) {
			x = json_array_get(cs, k);
			restarts += json_integer_value(json_object_get(x, "restartCount"));
			const char *fin = str_at(x, "lastState.terminated.finishedAt");
			if (strcmp(fin, last) > 0)
				snprintf(last, sizeof(last), "%s", fin);
			json_t *term = at(x, "state.terminated"), *wait = at(x, "state.waiting");
			if (wait && *str_at(wait, "reason"))
				snprintf(reason, sizeof(reason), "%s", str_at(wait, "reason"));
			else if (term && *str_at(term, "reason"))
				snprintf(reason, sizeof(reason), "%s", str_at(term, "reason"));
			else if (term && json_integer_value(json_object_get(term, "signal")))
				snprintf(reason, sizeof(reason), "Signal:%lld",
					 (long long)json_integer_value(json_object_get(term, "signal")));
			else if (term)
				snprintf(reason, sizeof(reason), "ExitCode:%lld",
					 (long long)json_integer_value(json_object_get(term, "exitCode")));
			else if (json_is_true(json_object_get(x, "ready")) && at(x, "state.running")) {
				running = 1;
				ready++;
			}
		}
		if (strcmp(reason, "Completed") == 0 && running) {
			int pod_ready = 0;
			json_array_foreach(json_object_get(st, "conditions"), i,
					   x) if (strcmp(str_at(x, "type"), "Ready") == 0 &&
						  strcmp(str_at(x, "status"), "True") == 0) pod_ready = 1;
			snprintf(reason, sizeof(reason), "%s", pod_ready ? "Running" : "NotReady");
		}
	}
	const char *phase = str_at(st, "phase");
	if (*meta(o, "deletionTimestamp") && strcmp(str_at(st, "reason"), "NodeLost") == 0)
		snprintf(reason, sizeof(reason), "Unknown");
	else if (*meta(o, "deletionTimestamp") && strcmp(phase, "Succeeded") != 0 && strcmp(phase, "Failed") != 0)
		snprintf(reason, sizeof(reason), "Terminating");
	char ready_s[48], restarts_s[64], a[32], since[32];
	snprintf(ready_s, sizeof(ready_s), "%zu/%zu", ready, total);
	if (restarts && *last) {
		age(c, last, since, sizeof(since));
		snprintf(restarts_s, sizeof(restarts_s), "%lld (%s ago)", restarts, since);
	} else {
		snprintf(restarts_s, sizeof(restarts_s), "%lld", restarts);
	}
	age(c, meta(o, "creationTimestamp"), a, sizeof(a));
	const char *ip = json_array_size(json_object_get(st, "podIPs"))
				 ? str_at(json_array_get(json_object_get(st, "podIPs"), 0), "ip")
				 : "";
	char gates[48] = "<none>";
	json_t *rg = json_object_get(spec, "readinessGates");
	if (json_array_size(rg)) {
		size_t yes = 0, k;
		json_t *gate;
		json_array_foreach(rg, k, gate)
			json_array_foreach(json_object_get(st, "conditions"), i,
					   x) if (strcmp(str_at(x, "type"), str_at(gate, "conditionType")) == 0)
		{
			yes += strcmp(str_at(x, "status"), "True") == 0;
			break;
		}
		snprintf(gates, sizeof(gates), "%zu/%zu", yes, json_array_size(rg));
	}
	const char *node = str_at(spec, "nodeName"), *nominated = str_at(st, "nominatedNodeName");
	const char *cells[] = {ready_s,
			       *reason ? reason : "",
			       restarts_s,
			       a,
			       c->wide ? (*ip ? ip : "<none>") : NULL,
			       *node ? node : "<none>",
			       *nominated ? nominated : "<none>",
			       gates,
			       NULL};
	add_row(g, t, o, cells);
}

/* printControllerRevision: the controller as kind.group/name. */
static void revision_row(ctx *c, get_table *g, const resource_type *t, const json_t *o)
{
	char controller[600] = "<none>", rev[32], a[32];
	size_t i;
	json_t *ref;
	json_array_foreach(at(o, "metadata.ownerReferences"), i,
			   ref) if (json_is_true(json_object_get(ref, "controller")))
	{
		const char *av = str_at(ref, "apiVersion"), *slash = strchr(av, '/');
		char kind[128];
		snprintf(kind, sizeof(kind), "%s", str_at(ref, "kind"));
		for (char *p = kind; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p | 0x20);
		snprintf(controller, sizeof(controller), "%s%s%.*s/%s", kind, slash ? "." : "",
			 slash ? (int)(slash - av) : 0, av, str_at(ref, "name"));
		break;
	}
	snprintf(rev, sizeof(rev), "%lld", (long long)json_integer_value(json_object_get(o, "revision")));
	age(c, meta(o, "creationTimestamp"), a, sizeof(a));
	const char *cells[] = {controller, rev, a, NULL};
	add_row(g, t, o, cells);
}

/* An IntOrString as Go's String() prints it. */
static void intstr(const json_t *v, char *buf, size_t size)
{
	if (json_is_integer(v))
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
	else if (json_is_string(v))
		snprintf(buf, size, "%s", json_string_value(v));
	else
		snprintf(buf, size, "N/A");
}

/* printPodDisruptionBudget and printPriorityClass. */
static void policy_row(ctx *c, get_table *g, const resource_type *t, const json_t *o)
{
	char x[64], y[64], z[32], a[32];
	age(c, meta(o, "creationTimestamp"), a, sizeof(a));
	if (strcmp(t->kind, "PodDisruptionBudget") == 0) {
		intstr(at(o, "spec.minAvailable"), x, sizeof(x));
		intstr(at(o, "spec.maxUnavailable"), y, sizeof(y));
		snprintf(z, sizeof(z), "%lld", (long long)json_integer_value(at(o, "status.disruptionsAllowed")));
		const char *cells[] = {x, y, z, a, NULL};
		add_row(g, t, o, cells);
	} else {
		snprintf(x, sizeof(x), "%lld", (long long)json_integer_value(json_object_get(o, "value")));
		const char *pp = str_at(o, "preemptionPolicy");
		const char *cells[] = {x, json_is_true(json_object_get(o, "globalDefault")) ? "true" : "false", a,
				       *pp ? pp : "PreemptLowerPriority", NULL};
		add_row(g, t, o, cells);
	}
}

static void object_row(ctx *c, get_table *g, const resource_type *t, const json_t *o)
{
	if (strcmp(t->kind, "DaemonSet") == 0)
		daemonset_row(c, g, t, o);
	else if (strcmp(t->kind, "Node") == 0)
		node_row(c, g, t, o);
	else if (strcmp(t->kind, "Pod") == 0)
		pod_row(c, g, t, o);
	else if (strcmp(t->kind, "ControllerRevision") == 0)
		revision_row(c, g, t, o);
	else
		policy_row(c, g, t, o);
}

/* ---- the command ------------------------------------------------------------------------------ */

/* What the arguments ask for: types, and the names wanted of each (none: all). */
typedef struct request {
	const resource_type *type;
	const char **names;
	size_t nnames;
} request;

static int unknown_type(ctx *c, const char *name)
{
	suggestions s;
	suggestions_init(&s);
	suggest_resource_types(&s, name);
	/* kubectl's words when the server has no such resource */
	fprintf(stderr, "error: the server doesn't have a resource type \"%s\"\n", name);
	fprintf(stderr,
		"(dsctl reads daemonsets (ds), nodes (no), pods (po), controllerrevisions, poddisruptionbudgets "
		"(pdb) and priorityclasses (pc))\n");
	suggestions_print(&s, stderr);
	(void)c;
	return EXIT_ERROR;
}

/* The arguments as kubectl reads them: TYPE[,TYPE] [NAME...], or TYPE/NAME... */
static int parse_requests(ctx *c, request *reqs, size_t *nreqs)
{
	*nreqs = 0;
	int slashed = strchr(c->argv[0], '/') != NULL;
	if (slashed) {
		for (int i = 0; i < c->argc; i++) {
			const char *slash = strchr(c->argv[i], '/');
			if (!slash) /* kubectl's message for a mix of the two forms */
				return usage_error(
					"get", "arguments in resource/name form must have a single resource and name");
			char type[128];
			snprintf(type, sizeof(type), "%.*s", (int)(slash - c->argv[i]), c->argv[i]);
			const resource_type *t = resource_type_named(type);
			if (!t)
				return unknown_type(c, type);
			size_t k = 0;
			while (k < *nreqs && reqs[k].type != t)
				k++;
			if (k == *nreqs)
				reqs[(*nreqs)++] = (request){t, calloc((size_t)c->argc, sizeof(char *)), 0};
			if (!reqs[k].names)
				return EXIT_ERROR;
			reqs[k].names[reqs[k].nnames++] = slash + 1;
		}
		return EXIT_OK;
	}
	for (const char *p = c->argv[0]; *p;) {
		size_t len = strcspn(p, ",");
		char type[128];
		snprintf(type, sizeof(type), "%.*s", (int)len, p);
		const resource_type *t = resource_type_named(type);
		if (!t)
			return unknown_type(c, type);
		int dup = 0;
		for (size_t k = 0; k < *nreqs; k++)
			dup |= reqs[k].type == t;
		if (!dup) {
			/* counted at once, so that the caller frees it whatever happens next */
			request *r = &reqs[(*nreqs)++];
			*r = (request){t, calloc((size_t)c->argc, sizeof(char *)), 0};
			if (!r->names)
				return EXIT_ERROR;
			for (int i = 1; i < c->argc; i++) {
				if (strchr(c->argv[i], '/'))
					return usage_error("get",
							   "there is no need to specify a resource type as a separate "
							   "argument when "
							   "passing arguments in resource/name form (e.g. 'dsctl get "
							   "resource/<resource_name>' "
							   "instead of 'dsctl get resource resource/<resource_name>'");
				r->names[r->nnames++] = c->argv[i];
			}
		}
		p += len + (p[len] == ',');
	}
	return EXIT_OK;
}

/* Whether o is what request r and the selectors ask for. */
static int wanted(const ctx *c, const request *r, const json_t *o, const field_req *fr, size_t nfr)
{
	if (type_of(o) != r->type)
		return 0;
	if (r->type->namespaced && c->ns && strcmp(namespace_of(o), c->ns) != 0)
		return 0;
	if (r->nnames) {
		int named = 0;
		for (size_t i = 0; i < r->nnames; i++)
			named |= strcmp(r->names[i], meta(o, "name")) == 0;
		if (!named)
			return 0;
	}
	const char *sel = flag_value(c, "selector");
	return (!sel || labels_match(sel, o)) && fields_match(r->type, o, fr, nfr);
}

/* A name asked for that nothing matched: kubectl's NotFound without "from server", and the loaded
 * names of that type close to it. */
static void name_not_found(const ctx *c, const request *r, const char *name, const json_t *objects)
{
	fprintf(stderr, "error: %s%s%s \"%s\" not found\n", r->type->plural, *r->type->group ? "." : "", r->type->group,
		name);
	suggestions s;
	suggestions_init(&s);
	size_t i;
	json_t *o;
	json_array_foreach(objects, i, o)
	{
		if (type_of(o) != r->type)
			continue;
		const char *other = meta(o, "name");
		if (suggestion_matches(name, other) ||
		    (strcmp(other, name) == 0 && c->ns && strcmp(namespace_of(o), c->ns) != 0)) {
			char full[600];
			snprintf(full, sizeof(full), "%s%s%s", r->type->namespaced ? namespace_of(o) : "",
				 r->type->namespaced ? "/" : "", other);
			suggestions_push(&s, full);
		}
	}
	suggestions_print(&s, stderr);
}

/* dsctl get without a type: what was loaded, and the DaemonSets with their status. */
static int print_summary(ctx *c)
{
	char *text;
	ds_error err;
	if (ds_cluster_summary(c->cluster, &text, &err) < 0)
		return fail("cannot summarise the snapshot", &err);
	json_t *s = take_json(text), *d;
	size_t i;
	say(c, 0,
	    "Loaded %lld nodes, %lld pods, %lld DaemonSets, %lld ControllerRevisions, %lld PodDisruptionBudgets, %lld "
	    "PriorityClasses and %lld other objects.\n\n",
	    (long long)json_integer_value(json_object_get(s, "nodes")),
	    (long long)json_integer_value(json_object_get(s, "pods")),
	    (long long)json_integer_value(json_object_get(s, "daemonSetCount")),
	    (long long)json_integer_value(json_object_get(s, "controllerRevisions")),
	    (long long)json_integer_value(json_object_get(s, "podDisruptionBudgets")),
	    (long long)json_integer_value(json_object_get(s, "priorityClasses")),
	    (long long)json_integer_value(json_object_get(s, "other")));
	table *t = table_new(8, "NAMESPACE", "NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE", "");
	int from_manifest = 0;
	json_array_foreach(json_object_get(s, "daemonSets"), i, d)
	{
		const char *ns = json_string_value(json_object_get(d, "namespace"));
		const char *name = json_string_value(json_object_get(d, "name"));
		ds_status st = DS_STATUS_INIT;
		if (ds_daemonset_status(c->cluster, ns, name, c->now, c->opts, &st, &err) < 0) {
			json_decref(s);
			table_print(t, c);
			return fail("status failed", &err);
		}
		char v[5][16];
		snprintf(v[0], 16, "%d", st.desired_number_scheduled);
		snprintf(v[1], 16, "%d", st.current_number_scheduled);
		snprintf(v[2], 16, "%d", st.number_ready);
		snprintf(v[3], 16, "%d", st.updated_number_scheduled);
		snprintf(v[4], 16, "%d", st.number_available);
		/* fromManifest: {"namespaceDefaulted", "apiDefaults"}, present only for a manifest */
		int manifest = json_is_object(json_object_get(d, "fromManifest"));
		from_manifest |= manifest;
		table_row(t, ns, name, v[0], v[1], v[2], v[3], v[4], manifest ? "(manifest)" : "");
	}
	table_print(t, c);
	if (from_manifest)
		say(c, 0,
		    "\n(manifest): read from a file, not from an API server: the namespace and the API server's "
		    "defaults "
		    "were filled in as kubectl apply and the API server would.\n");
	/* a cluster has thousands of nodes: a few names unless -o wide */
	char *nodes = join_list(json_object_get(s, "nodeNames"), NULL, ", ", c->wide ? 0 : 12);
	say(c, 7, "\nNodes: %s\n", nodes && *nodes ? nodes : "none");
	free(nodes);
	json_decref(s);
	return EXIT_OK;
}

/* -o name: kubectl's resource/name lines. */
static void print_names(const json_t *objects)
{
	size_t i;
	json_t *o;
	json_array_foreach(objects, i, o)
	{
		const char *group = group_of(o);
		char kind[128];
		snprintf(kind, sizeof(kind), "%s", str_at(o, "kind"));
		for (char *p = kind; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p | 0x20);
		printf("%s%s%s/%s\n", kind, *group ? "." : "", group, meta(o, "name"));
	}
}

/* The objects as kubectl prints them with -o json|yaml|jsonpath|custom-columns: the object itself
 * when one was named, else a v1 List (which dsctl -f and kubectl read back). */
static int print_objects(ctx *c, json_t *objects, int single)
{
	if (c->out == OUT_NAME) {
		print_names(objects);
		return EXIT_OK;
	}
	json_t *doc = single && json_array_size(objects) == 1
			      ? json_incref(json_array_get(objects, 0))
			      : json_pack("{s:s, s:O, s:s, s:{s:s}}", "apiVersion", "v1", "items", objects, "kind",
					  "List", "metadata", "resourceVersion", "");
	int p;
	if (c->out == OUT_COLUMNS && !single) {
		/* custom-columns: one row per object */
		ctx rows = *c;
		rows.cmd = &(command){.name = c->cmd->name, .rows = "items"};
		p = print_structured(&rows, doc);
	} else {
		p = print_structured(c, doc);
	}
	json_decref(doc);
	return p < 0 ? EXIT_ERROR : EXIT_OK;
}

int cmd_get(ctx *c)
{
	if (flag_on(c, "all-namespaces") && c->ns) /* -A wins over -n, as in kubectl */
		c->ns = NULL;
	if (c->argc == 0 && c->out == OUT_TABLE && !flag_value(c, "selector") && !flag_value(c, "field-selector"))
		return print_summary(c);
	request reqs[NTYPES];
	size_t nreqs = 0, nfr = 0;
	field_req *fr = NULL;
	int rc = EXIT_OK;
	const char *fs = flag_value(c, "field-selector"), *sel = flag_value(c, "selector");
	if (sel) {
		int m;
		ds_error err;
		if (ds_selector_match(sel, strlen(sel), "{}", 2, &m, &err) < 0)
			return usage_error("get", "invalid label selector \"%s\": %s", sel, err.message);
	}
	if (c->argc == 0) { /* -o with no type: every kind */
		for (size_t i = 0; i < NTYPES; i++)
			reqs[nreqs++] = (request){&types[i], NULL, 0};
	} else if ((rc = parse_requests(c, reqs, &nreqs)) != EXIT_OK) {
		goto out;
	}
	for (size_t i = 0; i < nreqs; i++)
		if (reqs[i].nnames && flag_on(c, "all-namespaces") && reqs[i].type->namespaced) {
			rc = usage_error("get", "a resource cannot be retrieved by name across all namespaces");
			goto out;
		}
	if (fs) {
		const resource_type *ts[NTYPES];
		for (size_t i = 0; i < nreqs; i++)
			ts[i] = reqs[i].type;
		if ((rc = parse_field_selector(c, fs, &fr, &nfr)) != EXIT_OK ||
		    (rc = check_fields(fr, nfr, ts, nreqs)) != EXIT_OK)
			goto out;
	}
	json_t *objects = loaded_objects(c);
	if (!objects) {
		rc = EXIT_ERROR;
		goto out;
	}
	/* without a type, -o prints every object, other kinds too */
	json_t *chosen = json_array(), *o;
	size_t i;
	if (c->argc == 0) {
		json_array_foreach(objects, i, o)
		{
			const resource_type *t = type_of(o);
			request any = {t, NULL, 0};
			if (!t ? (!sel || labels_match(sel, o)) && !fs : wanted(c, &any, o, fr, nfr))
				json_array_append(chosen, o);
		}
	}
	int tables = 0, missing = 0;
	for (size_t r = 0; r < nreqs && (c->argc || c->out == OUT_TABLE); r++) {
		json_t *mine = json_array();
		json_array_foreach(objects, i, o) if (wanted(c, &reqs[r], o, fr, nfr)) json_array_append(mine, o);
		size_t n = json_array_size(mine);
		json_t **sorted = calloc(n + 1, sizeof(*sorted));
		for (size_t k = 0; sorted && k < n; k++)
			sorted[k] = json_array_get(mine, k);
		if (sorted && n > 1)
			qsort(sorted, n, sizeof(*sorted), by_namespace_and_name);
		/* kubectl prints the named objects in the order given */
		for (size_t k = 0; k < reqs[r].nnames; k++) {
			int found = 0;
			for (size_t j = 0; sorted && j < n; j++)
				found |= strcmp(meta(sorted[j], "name"), reqs[r].names[k]) == 0;
			if (!found) {
				name_not_found(c, &reqs[r], reqs[r].names[k], objects);
				missing = 1;
			}
		}
		if (c->out != OUT_TABLE) {
			for (size_t k = 0; sorted && k < n; k++)
				json_array_append(chosen, sorted[k]);
		} else if (n) {
			if (tables++)
				printf("\n");
			get_table g = table_for(c, reqs[r].type, nreqs > 1);
			for (size_t k = 0; sorted && k < n; k++)
				object_row(c, &g, reqs[r].type, sorted[k]);
			table_print(g.t, c);
		}
		free(sorted);
		json_decref(mine);
	}
	int none = c->out == OUT_TABLE ? !tables : !json_array_size(chosen);
	if (c->out != OUT_TABLE) {
		int single = c->argc && nreqs == 1 && reqs[0].nnames == 1 && !strchr(c->argv[0], ',');
		if (json_array_size(chosen) || !missing)
			rc = print_objects(c, chosen, single);
	}
	if (none && !missing && (c->out == OUT_TABLE || c->out == OUT_NAME)) {
		/* kubectl's words, on standard error */
		if (c->ns)
			fprintf(stderr, "No resources found in %s namespace.\n", c->ns);
		else
			fprintf(stderr, "No resources found\n");
	}
	if (missing && rc == EXIT_OK)
		rc = EXIT_ERROR;
	json_decref(chosen);
	json_decref(objects);
out:
	for (size_t k = 0; k < nreqs; k++)
		free((void *)reqs[k].names);
	free(fr);
	return rc;
}
