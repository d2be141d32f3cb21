/*
 * The form of a scenario (daemonset-scenario(5)): which keys exist and what
 * type each value has. Everything is checked before a scenario runs, so that
 * a wrong type is an error naming its path rather than a crash, and a typo or
 * a value that cannot be compared is an error rather than a silent pass.
 */
#include <string.h>

#include "scenario/scenario.h"
#include "core/alloc.h"
#include "core/reader.h"

/* What a field takes. */
typedef enum ftype {
	F_REF,         /* the check's kind key: a DaemonSet (or, for drain, a node) */
	F_STRING,      /* text */
	F_TEXT,        /* text contained in the result, or null: none */
	F_SET,         /* a list of names (exact set), or a count */
	F_STRINGS,     /* a list of names, each required (or forbidden) */
	F_NOT_PLACED,  /* a set, or {node: text or null} */
	F_STATUSES,    /* {node: explain status} */
	F_OUTCOMES,    /* {pod: drain outcome} */
	F_NUMBER,      /* a number, or {max: n, min: n} */
	F_BOOL,        /* true or false */
	F_INTEGER,     /* an integer */
	F_PLAN_STATUS, /* {status counter: integer} */
	F_LABELS,      /* {label: text} */
	F_OPTIONS,     /* {option: value}, read by ds_options_set_all */
	F_TIME,        /* RFC 3339 text, read by ds_time_parse */
	F_LOAD,        /* a path or a list of paths */
	F_OBJECTS,     /* a list of Kubernetes objects */
	F_CHECKS,      /* a non-empty list of checks */
	F_STEPS,       /* a list of edits of the cluster: setImage, patch */
	F_PATCH,       /* a mapping: a JSON merge patch */
} ftype;

typedef struct field {
	const char *name;
	ftype type;
} field;

#define MAX_FIELDS 12

/* Each kind: its fields besides the three every check takes, and the one it requires. */
static const struct kind {
	const char *name;
	const char *ref; /* what the kind key names */
	const char *required;
	const char *required_why;
	field fields[MAX_FIELDS];
} kinds[DSI_SC_KINDS] = {
	[DSI_SC_EXPLAIN] = {"explain",
			    "namespace/name of a DaemonSet",
			    NULL,
			    NULL,
			    {{"placed", F_SET},
			     {"create", F_SET},
			     {"evict", F_SET},
			     {"kept", F_SET},
			     {"pending", F_SET},
			     {"unschedulable", F_SET},
			     {"needsPreemption", F_SET},
			     {"notPlaced", F_NOT_PLACED},
			     {"statuses", F_STATUSES}}},
	[DSI_SC_SHOULD_RUN] = {"shouldRunOn",
			       "namespace/name of a DaemonSet",
			       "node",
			       "the node it asks about",
			       {{"node", F_STRING}, {"shouldRun", F_BOOL}, {"shouldContinueRunning", F_BOOL}}},
	[DSI_SC_PLAN] = {"plan",
			 "namespace/name of a DaemonSet",
			 NULL,
			 NULL,
			 {{"creates", F_SET},
			  {"deletes", F_SET},
			  {"events", F_SET},
			  {"status", F_PLAN_STATUS},
			  {"skipped", F_TEXT}}},
	[DSI_SC_STATUS] = {"status",
			   "namespace/name of a DaemonSet",
			   NULL,
			   NULL,
			   {{"desiredNumberScheduled", F_INTEGER},
			    {"currentNumberScheduled", F_INTEGER},
			    {"numberMisscheduled", F_INTEGER},
			    {"numberReady", F_INTEGER},
			    {"updatedNumberScheduled", F_INTEGER},
			    {"numberAvailable", F_INTEGER},
			    {"numberUnavailable", F_INTEGER}}},
	[DSI_SC_POD] = {"pod",
			"namespace/name of a DaemonSet",
			"node",
			"the node the pod is for",
			{{"node", F_STRING}, {"labels", F_LABELS}, {"tolerations", F_STRINGS}}},
	[DSI_SC_ROLLOUT] = {"rollout",
			    "namespace/name of a DaemonSet",
			    NULL,
			    NULL,
			    {{"result", F_TEXT},
			     {"maxUnavailableSeen", F_NUMBER},
			     {"maxSurgeSeen", F_NUMBER},
			     {"updated", F_NUMBER},
			     {"durationSeconds", F_NUMBER},
			     {"creates", F_NUMBER},
			     {"deletes", F_NUMBER},
			     {"budgetExceeded", F_BOOL},
			     {"stall", F_TEXT}}},
	[DSI_SC_DRAIN] = {"drain",
			  "a node name",
			  NULL,
			  NULL,
			  {{"drained", F_BOOL},
			   {"verdict", F_TEXT},
			   {"error", F_TEXT},
			   {"warning", F_TEXT},
			   {"outcomes", F_OUTCOMES}}},
	[DSI_SC_AUDIT] = {"audit",
			  "namespace/name of a DaemonSet",
			  NULL,
			  NULL,
			  {{"level", F_TEXT}, {"allowed", F_BOOL}, {"findings", F_STRINGS}, {"noFindings", F_STRINGS}}},
};

/* Every check also takes these. */
static const field common_fields[] = {{"name", F_STRING}, {"options", F_OPTIONS}, {"now", F_TIME}};

static const field top_fields[] = {{"name", F_STRING},  {"load", F_LOAD}, {"objects", F_OBJECTS},
				   {"steps", F_STEPS},  {"now", F_TIME},  {"options", F_OPTIONS},
				   {"checks", F_CHECKS}};

/* The steps: each names its DaemonSet under its kind's key, with these fields (required first). */
static const struct step_kind {
	const char *name;
	field fields[2];
	const char *required, *required_why;
} step_kinds[] = {
	{"setImage", {{"container", F_STRING}, {"image", F_STRING}}, "image", "the image to set (as kubectl set image)"},
	{"patch", {{"merge", F_PATCH}, {NULL, F_STRING}}, "merge", "a JSON merge patch of the DaemonSet"},
};

/* The statuses of ds_daemonset_explain's rows (lib/daemon/explain.c). */
static const char *const explain_statuses[] = {"placed",        "create",           "evict",      "kept", "pending",
					       "unschedulable", "needs-preemption", "not-placed", NULL};
/* The outcomes of ds_node_drain's pods (lib/ops/drain.c). */
static const char *const drain_outcomes[] = {"evict", "delete", "skip", "ignore", "error", NULL};
/* The members of a plan's status (ds_plan_to_json). */
static const char *const plan_status_fields[] = {"desiredNumberScheduled", "currentNumberScheduled",
						 "numberMisscheduled",     "numberReady",
						 "updatedNumberScheduled", "numberAvailable",
						 "numberUnavailable",      "observedGeneration",
						 "collisionCount",         NULL};

const char *dsi_scenario_kind_name(dsi_sc_kind kind) { return kind < DSI_SC_KINDS ? kinds[kind].name : "check"; }

dsi_sc_kind dsi_scenario_kind_of(const json_t *check)
{
	int k;
	for (k = 0; k < DSI_SC_KINDS; k++)
		if (json_object_get(check, kinds[k].name))
			break;
	return (dsi_sc_kind)k;
}

/* "a string", "an integer", ... for messages. */
static const char *type_of(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return json_object_size(v) ? "a mapping" : "an empty mapping";
	case JSON_ARRAY: return json_array_size(v) ? "a list" : "an empty list";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a fraction";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

static void join(char *buf, size_t size, const char *const *words, const char *last_sep)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; words[i] && n < size; i++) {
		const char *sep = i == 0 ? "" : words[i + 1] ? ", " : last_sep;
		int w = snprintf(buf + n, size - n, "%s%s", sep, words[i]);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

static int one_of(const char *s, const char *const *words)
{
	for (size_t i = 0; words[i]; i++)
		if (strcmp(s, words[i]) == 0)
			return 1;
	return 0;
}

static int expect_string(dsi_rd *rd, const json_t *v)
{
	return json_is_string(v) ? 0 : dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a string, got %s", type_of(v));
}

static int expect_enum(dsi_rd *rd, const json_t *v, const char *const *words)
{
	if (expect_string(rd, v) < 0)
		return rd->err->code;
	if (one_of(json_string_value(v), words))
		return 0;
	char list[256];
	join(list, sizeof(list), words, " or ");
	return dsi_rd_fail(rd, NULL, DS_EVALUE, "expected %s, got \"%.60s\"", list, json_string_value(v));
}

static int expect_strings(dsi_rd *rd, const json_t *v, const char *what)
{
	if (!json_is_array(v))
		return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected %s, got %s", what, type_of(v));
	size_t i;
	json_t *x;
	json_array_foreach(v, i, x)
	{
		size_t m = dsi_rd_push_index(rd, i);
		if (expect_string(rd, x) < 0)
			return rd->err->code;
		dsi_rd_pop(rd, m);
	}
	return 0;
}

/* A list of names, or a count. */
static int expect_set(dsi_rd *rd, const json_t *v, const char *what)
{
	if (json_is_integer(v))
		return json_integer_value(v) >= 0
			       ? 0
			       : dsi_rd_fail(rd, NULL, DS_EVALUE, "expected a count from 0, got %lld",
					     (long long)json_integer_value(v));
	if (!json_is_array(v))
		return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a list of %s or a count, got %s", what, type_of(v));
	return expect_strings(rd, v, what);
}

/* A mapping whose every member passes check. */
static int expect_map(dsi_rd *rd, const json_t *v, const char *what,
		      int (*check)(dsi_rd *, const json_t *, const void *), const void *arg)
{
	if (!json_is_object(v))
		return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a mapping of %s, got %s", what, type_of(v));
	const char *k;
	json_t *x;
	json_object_foreach((json_t *)v, k, x)
	{
		size_t m = dsi_rd_push(rd, k);
		if (check(rd, x, arg) < 0)
			return rd->err->code;
		dsi_rd_pop(rd, m);
	}
	return 0;
}

static int member_text(dsi_rd *rd, const json_t *v, const void *arg)
{
	(void)arg;
	return json_is_string(v) || json_is_null(v)
		       ? 0
		       : dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a string or null, got %s", type_of(v));
}

static int member_string(dsi_rd *rd, const json_t *v, const void *arg)
{
	(void)arg;
	return expect_string(rd, v);
}

static int member_enum(dsi_rd *rd, const json_t *v, const void *arg) { return expect_enum(rd, v, arg); }

static int member_integer(dsi_rd *rd, const json_t *v, const void *arg)
{
	(void)arg;
	return json_is_integer(v) ? 0 : dsi_rd_fail(rd, NULL, DS_ETYPE, "expected an integer, got %s", type_of(v));
}

static int check_plan_status(dsi_rd *rd, const json_t *v)
{
	if (!json_is_object(v))
		return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a mapping of status fields to integers, got %s",
				   type_of(v));
	const char *k;
	json_t *x;
	json_object_foreach((json_t *)v, k, x)
	{
		if (!one_of(k, plan_status_fields)) {
			char list[320];
			join(list, sizeof(list), plan_status_fields, " or ");
			return dsi_rd_fail(rd, k, DS_EVALUE, "unknown status field (expected %s)", list);
		}
		size_t m = dsi_rd_push(rd, k);
		if (member_integer(rd, x, NULL) < 0)
			return rd->err->code;
		dsi_rd_pop(rd, m);
	}
	return 0;
}

/* A number, or bounds {max: n, min: n}. */
static int check_number(dsi_rd *rd, const json_t *v)
{
	if (json_is_number(v))
		return 0;
	if (!json_is_object(v))
		return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a number or bounds {max: n, min: n}, got %s",
				   type_of(v));
	if (!json_object_size(v))
		return dsi_rd_fail(rd, NULL, DS_EVALUE, "expected max, min or both, got an empty mapping");
	const char *k;
	json_t *x;
	json_object_foreach((json_t *)v, k, x)
	{
		if (strcmp(k, "max") != 0 && strcmp(k, "min") != 0)
			return dsi_rd_fail(rd, k, DS_EVALUE, "unknown bound (expected max or min)");
		if (!json_is_number(x))
			return dsi_rd_fail(rd, k, DS_ETYPE, "expected a number, got %s", type_of(x));
	}
	return 0;
}

/* A path to load: a non-empty string. */
static int check_path(dsi_rd *rd, const json_t *v)
{
	if (!json_is_string(v))
		return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a string (a path), got %s", type_of(v));
	if (!*json_string_value(v))
		return dsi_rd_fail(rd, NULL, DS_EVALUE, "expected a path, got an empty string");
	return 0;
}

static int check_field(dsi_rd *rd, const json_t *v, ftype t, const char *ref_what);

static int check_step(dsi_rd *rd, const json_t *step)
{
	if (!json_is_object(step))
		return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a mapping with setImage or patch, got %s",
				   type_of(step));
	const struct step_kind *k = NULL;
	for (size_t i = 0; !k && i < DSI_ARRAY_LEN(step_kinds); i++)
		if (json_object_get(step, step_kinds[i].name))
			k = &step_kinds[i];
	if (!k)
		return dsi_rd_fail(rd, NULL, DS_EMISSING, "expected setImage or patch naming its DaemonSet");
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)step, key, v)
	{
		size_t m = dsi_rd_push(rd, key);
		if (strcmp(key, k->name) == 0) {
			if (check_field(rd, v, F_REF, "namespace/name of a DaemonSet") < 0)
				return rd->err->code;
			dsi_rd_pop(rd, m);
			continue;
		}
		const field *f = NULL;
		for (size_t i = 0; !f && i < DSI_ARRAY_LEN(k->fields); i++)
			if (k->fields[i].name && strcmp(k->fields[i].name, key) == 0)
				f = &k->fields[i];
		if (!f) {
			dsi_rd_pop(rd, m);
			return dsi_rd_fail(rd, key, DS_EVALUE, "unknown field of a %s step (expected %s%s%s)", k->name,
					   k->fields[0].name, k->fields[1].name ? " or " : "",
					   k->fields[1].name ? k->fields[1].name : "");
		}
		if (check_field(rd, v, f->type, NULL) < 0)
			return rd->err->code;
		dsi_rd_pop(rd, m);
	}
	if (!json_object_get(step, k->required))
		return dsi_rd_fail(rd, NULL, DS_EMISSING, "a %s step needs %s: %s", k->name, k->required,
				   k->required_why);
	return 0;
}

static int check_check(dsi_rd *rd, const json_t *chk)
{
	char list[320];
	const char *names[DSI_SC_KINDS + 1];
	for (int k = 0; k < DSI_SC_KINDS; k++)
		names[k] = kinds[k].name;
	names[DSI_SC_KINDS] = NULL;
	join(list, sizeof(list), names, " or ");
	if (!json_is_object(chk))
		return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a mapping with one of %s, got %s", list, type_of(chk));
	dsi_sc_kind kind = dsi_scenario_kind_of(chk);
	if (kind == DSI_SC_KINDS)
		return dsi_rd_fail(rd, NULL, DS_EMISSING,
				   "expected one of %s naming its DaemonSet (or node, for drain)", list);
	const struct kind *k = &kinds[kind];
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)chk, key, v)
	{
		const field *f = NULL;
		if (strcmp(key, k->name) == 0) {
			size_t m = dsi_rd_push(rd, key);
			if (check_field(rd, v, F_REF, k->ref) < 0)
				return rd->err->code;
			dsi_rd_pop(rd, m);
			continue;
		}
		for (size_t i = 0; !f && i < MAX_FIELDS && k->fields[i].name; i++)
			if (strcmp(k->fields[i].name, key) == 0)
				f = &k->fields[i];
		for (size_t i = 0; !f && i < DSI_ARRAY_LEN(common_fields); i++)
			if (strcmp(common_fields[i].name, key) == 0)
				f = &common_fields[i];
		if (!f) {
			const char *fields[MAX_FIELDS + DSI_ARRAY_LEN(common_fields) + 1];
			size_t n = 0;
			for (size_t i = 0; i < MAX_FIELDS && k->fields[i].name; i++)
				fields[n++] = k->fields[i].name;
			for (size_t i = 0; i < DSI_ARRAY_LEN(common_fields); i++)
				fields[n++] = common_fields[i].name;
			fields[n] = NULL;
			join(list, sizeof(list), fields, " or ");
			return dsi_rd_fail(rd, key, DS_EVALUE, "unknown field of %s %s check (expected %s)",
					   strchr("aeiou", k->name[0]) ? "an" : "a", k->name, list);
		}
		size_t m = dsi_rd_push(rd, key);
		if (check_field(rd, v, f->type, NULL) < 0)
			return rd->err->code;
		dsi_rd_pop(rd, m);
	}
	if (k->required && !json_object_get(chk, k->required))
		return dsi_rd_fail(rd, NULL, DS_EMISSING, "%s %s check needs %s: %s",
				   strchr("aeiou", k->name[0]) ? "an" : "a", k->name, k->required, k->required_why);
	return 0;
}

static int check_field(dsi_rd *rd, const json_t *v, ftype t, const char *ref_what)
{
	switch (t) {
	case F_REF:
		if (!json_is_string(v))
			return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a string (%s), got %s", ref_what, type_of(v));
		if (!*json_string_value(v))
			return dsi_rd_fail(rd, NULL, DS_EVALUE, "expected %s, got an empty string", ref_what);
		return 0;
	case F_STRING: return expect_string(rd, v);
	case F_TEXT: return member_text(rd, v, NULL);
	case F_SET: return expect_set(rd, v, "names");
	case F_STRINGS: return expect_strings(rd, v, "a list of strings");
	case F_NOT_PLACED:
		if (json_is_object(v))
			return expect_map(rd, v, "node to reason text", member_text, NULL);
		return expect_set(rd, v, "nodes");
	case F_STATUSES: return expect_map(rd, v, "node to status", member_enum, explain_statuses);
	case F_OUTCOMES: return expect_map(rd, v, "pod to outcome", member_enum, drain_outcomes);
	case F_NUMBER: return check_number(rd, v);
	case F_BOOL:
		return json_is_boolean(v)
			       ? 0
			       : dsi_rd_fail(rd, NULL, DS_ETYPE, "expected true or false, got %s", type_of(v));
	case F_INTEGER: return member_integer(rd, v, NULL);
	case F_PLAN_STATUS: return check_plan_status(rd, v);
	case F_LABELS: return expect_map(rd, v, "label to value", member_string, NULL);
	case F_OPTIONS:
		return json_is_object(v)
			       ? 0
			       : dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a mapping of option names to values, got %s",
					     type_of(v));
	case F_TIME:
		return json_is_string(v) ? 0
					 : dsi_rd_fail(rd, NULL, DS_ETYPE,
						       "expected an RFC 3339 time as a string, got %s", type_of(v));
	case F_LOAD: {
		if (json_is_string(v))
			return check_path(rd, v);
		if (!json_is_array(v))
			return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a path or a list of paths, got %s",
					   type_of(v));
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
		{
			size_t m = dsi_rd_push_index(rd, i);
			if (check_path(rd, x) < 0)
				return rd->err->code;
			dsi_rd_pop(rd, m);
		}
		return 0;
	}
	case F_OBJECTS: {
		if (!json_is_array(v))
			return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a list of Kubernetes objects, got %s",
					   type_of(v));
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
		{
			if (!json_is_object(x)) {
				dsi_rd_push_index(rd, i);
				return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a Kubernetes object, got %s",
						   type_of(x));
			}
		}
		return 0;
	}
	case F_PATCH:
		if (!json_is_object(v))
			return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a mapping (a JSON merge patch), got %s",
					   type_of(v));
		return 0;
	case F_STEPS: {
		if (!json_is_array(v))
			return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected a list of steps, got %s", type_of(v));
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
		{
			size_t m = dsi_rd_push_index(rd, i);
			if (check_step(rd, x) < 0)
				return rd->err->code;
			dsi_rd_pop(rd, m);
		}
		return 0;
	}
	case F_CHECKS: {
		if (!json_is_array(v) || !json_array_size(v))
			return dsi_rd_fail(rd, NULL, json_is_array(v) ? DS_EVALUE : DS_ETYPE,
					   "expected a non-empty list of checks, got %s", type_of(v));
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
		{
			size_t m = dsi_rd_push_index(rd, i);
			if (check_check(rd, x) < 0)
				return rd->err->code;
			dsi_rd_pop(rd, m);
		}
		return 0;
	}
	}
	return dsi_rd_fail(rd, NULL, DS_EARG, "unknown field type");
}

int dsi_scenario_form(const json_t *sc, ds_error *err)
{
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	const char *names[DSI_ARRAY_LEN(top_fields) + 1];
	for (size_t i = 0; i < DSI_ARRAY_LEN(top_fields); i++)
		names[i] = top_fields[i].name;
	names[DSI_ARRAY_LEN(top_fields)] = NULL;
	char list[128];
	join(list, sizeof(list), names, " and ");
	if (!json_is_object(sc))
		return dsi_rd_fail(&rd, NULL, DS_ETYPE, "expected a mapping with %s, got %s", list, type_of(sc));
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)sc, key, v)
	{
		const field *f = NULL;
		for (size_t i = 0; !f && i < DSI_ARRAY_LEN(top_fields); i++)
			if (strcmp(top_fields[i].name, key) == 0)
				f = &top_fields[i];
		if (!f) {
			join(list, sizeof(list), names, " or ");
			return dsi_rd_fail(&rd, key, DS_EVALUE, "unknown field (expected %s)", list);
		}
		size_t m = dsi_rd_push(&rd, key);
		if (check_field(&rd, v, f->type, NULL) < 0)
			return err->code;
		dsi_rd_pop(&rd, m);
	}
	if (!json_object_get(sc, "now"))
		return dsi_error_set(err, DS_EMISSING, NULL,
				     "a scenario needs now: the time its plans are computed at (RFC 3339)");
	if (!json_object_get(sc, "checks"))
		return dsi_error_set(err, DS_EMISSING, NULL, "a scenario needs a non-empty list of checks");
	return 0;
}
