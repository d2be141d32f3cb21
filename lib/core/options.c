#include "core/options.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/atoms.h"
#include "core/error.h"
#include "core/strbuf.h"

/* The version whose behaviour is the default (upstream's current release, see daemonset(7)). */
#define DSI_DEFAULT_K8S_MINOR 35

static const dsi_options defaults = {
	.k8s_minor = DSI_DEFAULT_K8S_MINOR,
	.gates = DSI_GATE_POD_LEVEL_RESOURCES | DSI_GATE_SIDECAR_CONTAINERS,
	.limits = {DSI_DEFAULT_MAX_BYTES, DSI_DEFAULT_MAX_OBJECTS, DSI_DEFAULT_MAX_ALIAS_NODES},
	.burst_replicas = 250,
	.slow_start_initial_batch = 1,
	.backoff_initial_ms = 1000,
	.backoff_max_ms = 15 * 60 * 1000,
	.expectations_timeout_ms = 5 * 60 * 1000,
	.paused = -1,
	.grace_period_seconds = -1,
	.batch_size = 1,
	.sim_ready_after_ms = 10 * 1000,
	.sim_terminate_after_ms = 5 * 1000,
	.sim_step_ms = 1000,
	.sim_max_time_ms = 24LL * 3600 * 1000,
};

const dsi_options *dsi_options_default(void) { return &defaults; }

typedef enum opt_type { OPT_BOOL, OPT_TRISTATE, OPT_INT32, OPT_INT64, OPT_SIZE, OPT_DURATION, OPT_STRING, OPT_VERSION, OPT_GATES } opt_type;

typedef struct opt_def {
	const char *name;
	opt_type type;
	size_t offset;
	int64_t min, max;
	const char *const *choices; /* for OPT_STRING: allowed values, NULL = any */
	const char *(*check)(const char *value); /* for OPT_STRING: NULL or what was expected */
} opt_def;

/* The order nodes are updated in (lib/daemon/syncplan.c reads it). */
static const char *check_update_order(const char *v)
{
	if (!strcmp(v, "name") || !strcmp(v, "name-desc") || (!strncmp(v, "label:", 6) && v[6]))
		return NULL;
	return "\"name\", \"name-desc\" or \"label:<key>\"";
}

/* Owner kinds kubectl drain should treat as DaemonSets: "group/Kind" entries separated by commas
 * (lib/ops/drain_filters.c splits them). Group: DNS subdomain characters; Kind: letters and digits. */
static const char *check_kinds(const char *v)
{
	static const char *want = "group/Kind entries separated by commas, e.g. \"apps.kruise.io/DaemonSet\" "
				  "(\"/Kind\" for the core group)";
	for (const char *s = v; *s;) {
		s += strspn(s, ", \t");
		if (!*s)
			break;
		size_t group = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789.-");
		if (s[group] != '/')
			return want;
		size_t kind = strspn(s + group + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");
		s += group + 1 + kind;
		s += strspn(s, " \t");
		if (!kind || (*s && *s != ','))
			return want;
	}
	return NULL;
}

/* A count or a percentage of nodes, never negative, as an IntOrString in a
 * DaemonSet spec would be written ("3", "10%"); at most INT32_MAX. */
static const char *check_count_or_percent(const char *v)
{
	static const char *want = "a non-negative integer or percentage (e.g. 3 or 10%)";
	size_t n = strspn(v, "0123456789");
	if (n == 0 || n > 10 || (v[n] && strcmp(v + n, "%") != 0))
		return want;
	return strtoll(v, NULL, 10) > INT32_MAX ? want : NULL;
}

static const char *const pss_levels[] = {"privileged", "baseline", "restricted", NULL};

#define O(field) offsetof(dsi_options, field)
static const opt_def table[] = {
	{"kubernetesVersion", OPT_VERSION, O(k8s_minor), 0, 0, NULL, NULL},
	{"featureGates", OPT_GATES, O(gates), 0, 0, NULL, NULL},
	{"maxDocumentBytes", OPT_SIZE, O(limits.max_bytes), 1, INT64_MAX, NULL, NULL},
	{"maxObjects", OPT_SIZE, O(limits.max_objects), 1, INT64_MAX, NULL, NULL},
	{"maxAliasNodes", OPT_SIZE, O(limits.max_alias_nodes), 0, INT64_MAX, NULL, NULL},
	{"legacyDaemonSets", OPT_BOOL, O(legacy_daemonsets), 0, 1, NULL, NULL},
	{"burstReplicas", OPT_INT32, O(burst_replicas), 1, INT32_MAX, NULL, NULL},
	{"slowStartInitialBatchSize", OPT_INT32, O(slow_start_initial_batch), 1, INT32_MAX, NULL, NULL},
	{"backoffInitial", OPT_DURATION, O(backoff_initial_ms), 0, INT64_MAX, NULL, NULL},
	{"backoffMax", OPT_DURATION, O(backoff_max_ms), 0, INT64_MAX, NULL, NULL},
	{"expectationsTimeout", OPT_DURATION, O(expectations_timeout_ms), 0, INT64_MAX, NULL, NULL},
	{"updateOrder", OPT_STRING, O(update_order), 0, 0, NULL, check_update_order},
	{"partition", OPT_STRING, O(partition), 0, 0, NULL, check_count_or_percent},
	{"paused", OPT_TRISTATE, O(paused), 0, 1, NULL, NULL},
	{"rolloutNodeSelector", OPT_STRING, O(rollout_node_selector), 0, 0, NULL, NULL},
	{"force", OPT_BOOL, O(force), 0, 1, NULL, NULL},
	{"ignoreDaemonSets", OPT_BOOL, O(ignore_daemonsets), 0, 1, NULL, NULL},
	{"deleteEmptyDirData", OPT_BOOL, O(delete_emptydir_data), 0, 1, NULL, NULL},
	{"disableEviction", OPT_BOOL, O(disable_eviction), 0, 1, NULL, NULL},
	{"gracePeriodSeconds", OPT_INT64, O(grace_period_seconds), -1, INT64_MAX, NULL, NULL},
	{"skipWaitForDeleteTimeoutSeconds", OPT_INT64, O(skip_wait_for_delete_timeout_seconds), 0, INT64_MAX, NULL, NULL},
	{"podSelector", OPT_STRING, O(pod_selector), 0, 0, NULL, NULL},
	{"daemonSetKinds", OPT_STRING, O(daemonset_kinds), 0, 0, NULL, check_kinds},
	{"batchSize", OPT_INT32, O(batch_size), 1, INT32_MAX, NULL, NULL},
	{"podSecurityLevel", OPT_STRING, O(pss_level), 0, 0, pss_levels, NULL},
	{"podSecurityVersion", OPT_STRING, O(pss_version), 0, 0, NULL, NULL},
	{"simReadyAfter", OPT_DURATION, O(sim_ready_after_ms), 0, INT64_MAX, NULL, NULL},
	{"simTerminateAfter", OPT_DURATION, O(sim_terminate_after_ms), 0, INT64_MAX, NULL, NULL},
	{"simStep", OPT_DURATION, O(sim_step_ms), 1, INT64_MAX, NULL, NULL},
	{"simMaxTime", OPT_DURATION, O(sim_max_time_ms), 1, INT64_MAX, NULL, NULL},
	{"simFailNodes", OPT_STRING, O(sim_fail_nodes), 0, 0, NULL, NULL},
};
#undef O

static const struct {
	const char *name;
	unsigned bit;
} gates[] = {
	{"TaintTolerationComparisonOperators", DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS},
	{"PodLevelResources", DSI_GATE_POD_LEVEL_RESOURCES},
	{"SidecarContainers", DSI_GATE_SIDECAR_CONTAINERS},
};

#define FIELD(o, d, T) ((T *)((char *)(o) + (d)->offset))

static void free_strings(dsi_options *o)
{
	for (size_t i = 0; i < DSI_ARRAY_LEN(table); i++)
		if (table[i].type == OPT_STRING) {
			dsi_free(*FIELD(o, &table[i], char *));
			*FIELD(o, &table[i], char *) = NULL;
		}
}

static int copy_options(dsi_options *dst, const dsi_options *src)
{
	*dst = *src;
	for (size_t i = 0; i < DSI_ARRAY_LEN(table); i++) {
		if (table[i].type != OPT_STRING)
			continue;
		const char *s = *FIELD(src, &table[i], char *);
		*FIELD(dst, &table[i], char *) = NULL;
		if (s && !(*FIELD(dst, &table[i], char *) = dsi_strdup(s))) {
			free_strings(dst);
			return -1;
		}
	}
	return 0;
}

int ds_options_new(ds_options **out)
{
	if (!out)
		return DS_EARG;
	ds_options *o = dsi_calloc(1, sizeof(*o));
	if (!o)
		return DS_ENOMEM;
	o->v = defaults;
	*out = o;
	return 0;
}

const char *dsi_options_name(size_t i) { return i < DSI_ARRAY_LEN(table) ? table[i].name : NULL; }

int dsi_options_dup(const ds_options *src, ds_options **out)
{
	*out = NULL;
	ds_options *o = dsi_calloc(1, sizeof(*o));
	if (!o || copy_options(&o->v, dsi_opts(src)) < 0) {
		dsi_free(o);
		return DS_ENOMEM;
	}
	*out = o;
	return 0;
}

void ds_options_free(ds_options *opts)
{
	if (!opts)
		return;
	free_strings(&opts->v);
	dsi_free(opts);
}

int dsi_parse_duration_ms(const char *s, int64_t *out)
{
	/* Go time.ParseDuration: [-+]?([0-9]*(\.[0-9]*)?[a-z]+)+, or "0" */
	const char *p = s;
	int neg = 0;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (strcmp(p, "0") == 0) {
		*out = 0;
		return 0;
	}
	if (!*p)
		return -1;
	double total_ns = 0;
	while (*p) {
		double v = 0, scale = 1;
		int digits = 0;
		while (*p >= '0' && *p <= '9') {
			v = v * 10 + (*p++ - '0');
			digits++;
		}
		if (*p == '.') {
			p++;
			while (*p >= '0' && *p <= '9') {
				scale /= 10;
				v += (*p++ - '0') * scale;
				digits++;
			}
		}
		if (!digits)
			return -1;
		double unit;
		if (strncmp(p, "ns", 2) == 0)
			unit = 1, p += 2;
		else if (strncmp(p, "us", 2) == 0)
			unit = 1e3, p += 2;
		else if (strncmp(p, "\xc2\xb5s", 3) == 0)
			unit = 1e3, p += 3;
		else if (strncmp(p, "ms", 2) == 0)
			unit = 1e6, p += 2;
		else if (*p == 's')
			unit = 1e9, p += 1;
		else if (*p == 'm')
			unit = 60e9, p += 1;
		else if (*p == 'h')
			unit = 3600e9, p += 1;
		else
			return -1;
		total_ns += v * unit;
	}
	if (total_ns > 9.2e18)
		return -1;
	*out = (int64_t)(total_ns / 1e6) * (neg ? -1 : 1);
	return 0;
}

static int parse_bool(const char *v, int *out)
{
	if (strcmp(v, "true") == 0 || strcmp(v, "1") == 0)
		*out = 1;
	else if (strcmp(v, "false") == 0 || strcmp(v, "0") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

static int parse_gates(const char *v, unsigned *gatesp, ds_error *err, const char *name)
{
	unsigned g = *gatesp;
	const char *p = v;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', n);
		if (!eq)
			return dsi_error_set(err, DS_EVALUE, name, "expected Name=true|false[,...], got \"%.*s\"", (int)n, p);
		size_t kn = (size_t)(eq - p);
		char val[8];
		size_t vn = n - kn - 1;
		if (vn >= sizeof(val))
			vn = sizeof(val) - 1;
		memcpy(val, eq + 1, vn);
		val[vn] = '\0';
		int on;
		if (parse_bool(val, &on) < 0)
			return dsi_error_set(err, DS_EVALUE, name, "feature gate %.*s: expected true or false, got \"%s\"",
					     (int)kn, p, val);
		size_t i;
		for (i = 0; i < DSI_ARRAY_LEN(gates); i++)
			if (strlen(gates[i].name) == kn && memcmp(gates[i].name, p, kn) == 0)
				break;
		if (i == DSI_ARRAY_LEN(gates))
			return dsi_error_set(err, DS_EVALUE, name,
					     "unrecognized feature gate: %.*s (known: TaintTolerationComparisonOperators, "
					     "PodLevelResources, SidecarContainers)",
					     (int)kn, p);
		g = on ? (g | gates[i].bit) : (g & ~gates[i].bit);
		p += n;
		if (*p == ',')
			p++;
	}
	*gatesp = g;
	return 0;
}

static const opt_def *find_opt(const char *name)
{
	for (size_t i = 0; i < DSI_ARRAY_LEN(table); i++)
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

static int set_one(dsi_options *o, const opt_def *d, const char *value, ds_error *err)
{
	const char *name = d->name;
	int64_t iv;
	switch (d->type) {
	case OPT_BOOL:
	case OPT_TRISTATE: {
		int b;
		if (parse_bool(value, &b) < 0)
			return dsi_error_set(err, DS_EVALUE, name, "expected true or false, got \"%s\"", value);
		*FIELD(o, d, int) = b;
		return 0;
	}
	case OPT_INT32:
	case OPT_INT64:
	case OPT_SIZE:
		if (!dsi_parse_go_int64(value, strlen(value), &iv) || iv < d->min || iv > d->max)
			return dsi_error_set(err, DS_EVALUE, name, "expected an integer from %lld to %lld, got \"%s\"",
					     (long long)d->min, (long long)d->max, value);
		if (d->type == OPT_INT32)
			*FIELD(o, d, int32_t) = (int32_t)iv;
		else if (d->type == OPT_INT64)
			*FIELD(o, d, int64_t) = iv;
		else
			*FIELD(o, d, size_t) = (size_t)iv;
		return 0;
	case OPT_DURATION:
		if (dsi_parse_duration_ms(value, &iv) < 0 || iv < d->min)
			return dsi_error_set(err, DS_EVALUE, name, "expected a duration such as 30s, 15m or 1h30m, got \"%s\"",
					     value);
		*FIELD(o, d, int64_t) = iv;
		return 0;
	case OPT_VERSION: {
		const char *p = value;
		if (*p == 'v')
			p++;
		int64_t minor;
		if (strncmp(p, "1.", 2) != 0 || !dsi_parse_go_int64(p + 2, strcspn(p + 2, "."), &minor) || minor < 0 ||
		    minor > 99)
			return dsi_error_set(err, DS_EVALUE, name, "expected a version such as 1.35, got \"%s\"", value);
		*FIELD(o, d, int) = (int)minor;
		return 0;
	}
	case OPT_GATES: return parse_gates(value, FIELD(o, d, unsigned), err, name);
	case OPT_STRING: {
		if (d->choices) {
			const char *const *c;
			for (c = d->choices; *c && strcmp(*c, value) != 0; c++)
				;
			if (!*c)
				return dsi_error_set(err, DS_EVALUE, name, "unexpected value \"%s\"", value);
		}
		const char *want = d->check ? d->check(value) : NULL;
		if (want)
			return dsi_error_set(err, DS_EVALUE, name, "unexpected value \"%.60s\": expected %s", value, want);
		char *copy = dsi_strdup(value);
		if (!copy)
			return dsi_error_nomem(err);
		dsi_free(*FIELD(o, d, char *));
		*FIELD(o, d, char *) = copy;
		return 0;
	}
	}
	return DS_EARG;
}

int ds_options_set(ds_options *opts, const char *name, const char *value, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!opts || !name || !value)
		return dsi_error_set(err, DS_EARG, NULL, "opts, name and value must not be NULL");
	const opt_def *d = find_opt(name);
	if (!d)
		return dsi_error_set(err, DS_EARG, name, "unknown option \"%s\" (see ds_options(3))", name);
	return set_one(&opts->v, d, value, err);
}

int ds_options_set_json(ds_options *opts, const char *json, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!opts || !json)
		return dsi_error_set(err, DS_EARG, NULL, "opts and json must not be NULL");
	json_error_t je;
	json_t *root = json_loads(json, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		dsi_error_set(err, DS_ESYNTAX, NULL, "%s", je.text);
		dsi_error_set_position(err, je.line, je.column);
		return DS_ESYNTAX;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		return dsi_error_set(err, DS_ETYPE, NULL, "expected an object of options");
	}
	dsi_options work;
	if (copy_options(&work, &opts->v) < 0) {
		json_decref(root);
		return dsi_error_nomem(err);
	}
	int rc = 0;
	const char *k;
	json_t *v;
	json_object_foreach(root, k, v)
	{
		const opt_def *d = find_opt(k);
		if (!d) {
			rc = dsi_error_set(err, DS_EARG, k, "unknown option \"%s\" (see ds_options(3))", k);
			break;
		}
		char buf[64];
		const char *text;
		if (json_is_string(v))
			text = json_string_value(v);
		else if (json_is_integer(v))
			snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v)), text = buf;
		else if (json_is_boolean(v))
			text = json_is_true(v) ? "true" : "false";
		else if ((json_is_object(v) || json_is_array(v)) && d->type == OPT_STRING) {
			char *dumped = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
			if (!dumped) {
				rc = dsi_error_nomem(err);
				break;
			}
			rc = set_one(&work, d, dumped, err);
			free(dumped);
			if (rc < 0)
				break;
			continue;
		} else {
			rc = dsi_error_set(err, DS_ETYPE, k, "expected a string, integer or boolean, got %s",
					   json_is_null(v) ? "null" : json_is_real(v) ? "a fraction" : "a structure");
			break;
		}
		if ((rc = set_one(&work, d, text, err)) < 0)
			break;
	}
	json_decref(root);
	if (rc < 0) {
		free_strings(&work);
		return rc;
	}
	free_strings(&opts->v);
	opts->v = work;
	return 0;
}

static void format_duration(int64_t ms, dsi_strbuf *b)
{
	if (ms == 0) {
		dsi_strbuf_puts(b, "0s");
		return;
	}
	if (ms < 0) {
		dsi_strbuf_putc(b, '-');
		ms = -ms;
	}
	int64_t h = ms / 3600000, m = ms / 60000 % 60, s = ms / 1000 % 60, r = ms % 1000;
	if (h)
		dsi_strbuf_printf(b, "%lldh", (long long)h);
	if (h || m)
		dsi_strbuf_printf(b, "%lldm", (long long)m);
	if (r)
		dsi_strbuf_printf(b, "%lld.%03llds", (long long)s, (long long)r);
	else
		dsi_strbuf_printf(b, "%llds", (long long)s);
}

int ds_options_get(const ds_options *opts, const char *name, char **out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!name || !out)
		return dsi_error_set(err, DS_EARG, NULL, "name and out must not be NULL");
	*out = NULL;
	const opt_def *d = find_opt(name);
	if (!d)
		return dsi_error_set(err, DS_EARG, name, "unknown option \"%s\" (see ds_options(3))", name);
	const dsi_options *o = dsi_opts(opts);
	dsi_strbuf b = DSI_STRBUF_INIT;
	switch (d->type) {
	case OPT_BOOL: dsi_strbuf_puts(&b, *FIELD(o, d, const int) ? "true" : "false"); break;
	case OPT_TRISTATE: {
		int v = *FIELD(o, d, const int);
		dsi_strbuf_puts(&b, v < 0 ? "" : v ? "true" : "false");
		break;
	}
	case OPT_INT32: dsi_strbuf_printf(&b, "%ld", (long)*FIELD(o, d, const int32_t)); break;
	case OPT_INT64: dsi_strbuf_printf(&b, "%lld", (long long)*FIELD(o, d, const int64_t)); break;
	case OPT_SIZE: dsi_strbuf_printf(&b, "%zu", *FIELD(o, d, const size_t)); break;
	case OPT_DURATION: format_duration(*FIELD(o, d, const int64_t), &b); break;
	case OPT_VERSION: dsi_strbuf_printf(&b, "1.%d", *FIELD(o, d, const int)); break;
	case OPT_GATES:
		for (size_t i = 0; i < DSI_ARRAY_LEN(gates); i++)
			dsi_strbuf_printf(&b, "%s%s=%s", i ? "," : "", gates[i].name,
					  (*FIELD(o, d, const unsigned) & gates[i].bit) ? "true" : "false");
		break;
	case OPT_STRING: {
		const char *s = *FIELD(o, d, char *const);
		if (!s && d->offset == offsetof(dsi_options, pss_level))
			s = "restricted";
		else if (!s && d->offset == offsetof(dsi_options, pss_version))
			s = "latest";
		dsi_strbuf_puts(&b, s ? s : "");
		break;
	}
	}
	*out = dsi_strbuf_detach(&b);
	return *out ? 0 : dsi_error_nomem(err);
}
