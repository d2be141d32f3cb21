#include "core/optparse.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/atoms.h"
#include "core/error.h"

#define FIELD(base, d, T) ((T *)((char *)(base) + (d)->offset))

/* One stage of a gate's life: from Kubernetes 1.<minor> on, its default, and whether upstream locks
 * it there (GA, LockToDefault: a component refuses another value; the library takes it, for what-if
 * questions, and ds_options(3) says so). */
typedef struct gate_stage {
	uint8_t minor, on, locked;
} gate_stage;

/*
 * The feature gates whose value changes a decision the library makes, with upstream's versioned
 * defaults (kubernetes/kubernetes pkg/features/kube_features.go, defaultVersionedKubernetesFeatureGates;
 * the scheduler's gates in its features file of the same map). Before its first stage a gate does not
 * exist: its feature is off. Alphabetical, as upstream lists them.
 */
static const struct gate_def {
	const char *name;
	unsigned bit;
	gate_stage stages[4]; /* in order; minor 0 ends the list */
} gates[] = {
	/* alpha 1.34, beta 1.36, GA 1.37: extended resources a DeviceClass backs (DynamicResources
	 * looks at them; NodeResourcesFit leaves to it those the node does not advertise) */
	{"DRAExtendedResource", DSI_GATE_DRA_EXTENDED_RESOURCE, {{34, 0, 0}, {36, 1, 0}, {37, 1, 1}}},
	/* alpha 1.26, beta 1.32 (off), GA 1.34, locked 1.35: off, the DynamicResources plugin is
	 * disabled (its PreFilter returns Skip) */
	{"DynamicResourceAllocation",
	 DSI_GATE_DYNAMIC_RESOURCE_ALLOCATION,
	 {{26, 0, 0}, {32, 0, 0}, {34, 1, 0}, {35, 1, 1}}},
	/* alpha 1.32, beta 1.34: pod-level spec.resources in a pod's requests (fit, preemption) */
	{"PodLevelResources", DSI_GATE_POD_LEVEL_RESOURCES, {{32, 0, 0}, {34, 1, 0}}},
	/* alpha 1.30, beta 1.32, GA 1.34: the env var names validation accepts */
	{"RelaxedEnvironmentVariableValidation",
	 DSI_GATE_RELAXED_ENV_VAR_VALIDATION,
	 {{30, 0, 0}, {32, 1, 0}, {34, 1, 1}}},
	/* alpha 1.28, beta 1.29, GA 1.33: restartable init containers in a pod's requests */
	{"SidecarContainers", DSI_GATE_SIDECAR_CONTAINERS, {{28, 0, 0}, {29, 1, 0}, {33, 1, 1}}},
	/* alpha 1.35: the toleration operators Gt and Lt (placement, validation) */
	{"TaintTolerationComparisonOperators", DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS, {{35, 0, 0}}},
};

/* The stage of gate g in force at 1.<minor>, or NULL before it exists. */
static const gate_stage *gate_stage_at(const struct gate_def *g, int minor)
{
	const gate_stage *at = NULL;
	for (size_t i = 0; i < DSI_ARRAY_LEN(g->stages) && g->stages[i].minor; i++)
		if (g->stages[i].minor <= minor)
			at = &g->stages[i];
	return at;
}

unsigned dsi_gates_default(int minor)
{
	unsigned on = 0;
	for (size_t i = 0; i < DSI_ARRAY_LEN(gates); i++) {
		const gate_stage *st = gate_stage_at(&gates[i], minor);
		if (st && st->on)
			on |= gates[i].bit;
	}
	return on;
}

/* The gates in force: the version's defaults, then those set one by one. */
static void gates_settle(dsi_core_options *o)
{
	o->gates = (dsi_gates_default(o->k8s_minor) & ~o->gates_set) | (o->gates_on & o->gates_set);
}

const dsi_opt_def *dsi_opt_find(const dsi_opt_table *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->defs[i].name, name) == 0)
			return &t->defs[i];
	return NULL;
}

void dsi_opt_free(const dsi_opt_table *t, void *base)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->defs[i].type == DSI_OPT_STRING) {
			dsi_free(*FIELD(base, &t->defs[i], char *));
			*FIELD(base, &t->defs[i], char *) = NULL;
		}
}

int dsi_opt_copy(const dsi_opt_table *t, void *dst, const void *src)
{
	memcpy(dst, src, t->size);
	for (size_t i = 0; i < t->n; i++)
		if (t->defs[i].type == DSI_OPT_STRING)
			*FIELD(dst, &t->defs[i], char *) = NULL;
	for (size_t i = 0; i < t->n; i++) {
		if (t->defs[i].type != DSI_OPT_STRING)
			continue;
		const char *str = *FIELD(src, &t->defs[i], char *const);
		if (str && !(*FIELD(dst, &t->defs[i], char *) = dsi_strdup(str))) {
			dsi_opt_free(t, dst);
			return -1;
		}
	}
	return 0;
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

/* featureGates: "Name=true,Name=false" into the core options at base (the gates named are set one by
 * by one, over the version's defaults). All or nothing. */
static int parse_gates(const char *v, dsi_core_options *o, ds_error *err, const char *name)
{
	unsigned set = o->gates_set, on = o->gates_on;
	const char *p = v;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', n);
		if (!eq)
			return dsi_error_set(err, DS_EVALUE, name, "expected Name=true|false[,...], got \"%.*s\"",
					     (int)n, p);
		size_t kn = (size_t)(eq - p);
		char val[8];
		size_t vn = n - kn - 1;
		if (vn >= sizeof(val))
			vn = sizeof(val) - 1;
		memcpy(val, eq + 1, vn);
		val[vn] = '\0';
		int b;
		if (parse_bool(val, &b) < 0)
			return dsi_error_set(err, DS_EVALUE, name,
					     "feature gate %.*s: expected true or false, got \"%s\"", (int)kn, p, val);
		size_t i;
		for (i = 0; i < DSI_ARRAY_LEN(gates); i++)
			if (strlen(gates[i].name) == kn && memcmp(gates[i].name, p, kn) == 0)
				break;
		if (i == DSI_ARRAY_LEN(gates)) {
			dsi_strbuf known = DSI_STRBUF_INIT;
			for (size_t k = 0; k < DSI_ARRAY_LEN(gates); k++)
				dsi_strbuf_printf(&known, "%s%s", k ? ", " : "", gates[k].name);
			int rc =
				dsi_error_set(err, DS_EVALUE, name,
					      "unrecognized feature gate: %.*s (known: %s; the library knows the gates "
					      "that change its decisions)",
					      (int)kn, p, known.data ? known.data : "");
			dsi_strbuf_free(&known);
			return rc;
		}
		set |= gates[i].bit;
		on = b ? (on | gates[i].bit) : (on & ~gates[i].bit);
		p += n;
		if (*p == ',')
			p++;
	}
	o->gates_set = set;
	o->gates_on = on;
	gates_settle(o);
	return 0;
}

int dsi_opt_set(const dsi_opt_def *d, void *base, const char *value, ds_error *err)
{
	const char *name = d->name;
	int64_t iv;
	switch (d->type) {
	case DSI_OPT_BOOL:
	case DSI_OPT_TRISTATE: {
		int b;
		if (parse_bool(value, &b) < 0)
			return dsi_error_set(err, DS_EVALUE, name, "expected true or false, got \"%s\"", value);
		*FIELD(base, d, int) = b;
		return 0;
	}
	case DSI_OPT_INT32:
	case DSI_OPT_INT64:
	case DSI_OPT_SIZE:
		if (!dsi_parse_go_int64(value, strlen(value), &iv) || iv < d->min || iv > d->max)
			return dsi_error_set(err, DS_EVALUE, name, "expected an integer from %lld to %lld, got \"%s\"",
					     (long long)d->min, (long long)d->max, value);
		if (d->type == DSI_OPT_INT32)
			*FIELD(base, d, int32_t) = (int32_t)iv;
		else if (d->type == DSI_OPT_INT64)
			*FIELD(base, d, int64_t) = iv;
		else
			*FIELD(base, d, size_t) = (size_t)iv;
		return 0;
	case DSI_OPT_DURATION:
		if (dsi_parse_duration_ms(value, &iv) < 0 || iv < d->min)
			return dsi_error_set(err, DS_EVALUE, name,
					     "expected a duration such as 30s, 15m or 1h30m, got \"%s\"", value);
		*FIELD(base, d, int64_t) = iv;
		return 0;
	case DSI_OPT_VERSION: {
		const char *p = value;
		if (*p == 'v')
			p++;
		int64_t minor;
		if (strncmp(p, "1.", 2) != 0 || !dsi_parse_go_int64(p + 2, strcspn(p + 2, "."), &minor) || minor < 0 ||
		    minor > 99)
			return dsi_error_set(err, DS_EVALUE, name, "expected a version such as 1.35, got \"%s\"",
					     value);
		/* the core options: the version sets the gates' defaults, under those set one by one */
		*FIELD(base, d, int) = (int)minor;
		gates_settle((dsi_core_options *)base);
		return 0;
	}
	case DSI_OPT_GATES: return parse_gates(value, (dsi_core_options *)base, err, name);
	case DSI_OPT_STRING: {
		if (d->choices) {
			const char *const *c;
			for (c = d->choices; *c && strcmp(*c, value) != 0; c++)
				;
			if (!*c)
				return dsi_error_set(err, DS_EVALUE, name, "unexpected value \"%s\"", value);
		}
		const char *want = d->check ? d->check(value) : NULL;
		if (want)
			return dsi_error_set(err, DS_EVALUE, name, "unexpected value \"%.60s\": expected %s", value,
					     want);
		char *copy = dsi_strdup(value);
		if (!copy)
			return dsi_error_nomem(err);
		dsi_free(*FIELD(base, d, char *));
		*FIELD(base, d, char *) = copy;
		return 0;
	}
	}
	return DS_EARG;
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

void dsi_opt_format(const dsi_opt_def *d, const void *base, dsi_strbuf *b)
{
	switch (d->type) {
	case DSI_OPT_BOOL: dsi_strbuf_puts(b, *FIELD(base, d, const int) ? "true" : "false"); break;
	case DSI_OPT_TRISTATE: {
		int v = *FIELD(base, d, const int);
		dsi_strbuf_puts(b, v < 0 ? "" : v ? "true" : "false");
		break;
	}
	case DSI_OPT_INT32: dsi_strbuf_printf(b, "%ld", (long)*FIELD(base, d, const int32_t)); break;
	case DSI_OPT_INT64: dsi_strbuf_printf(b, "%lld", (long long)*FIELD(base, d, const int64_t)); break;
	case DSI_OPT_SIZE: dsi_strbuf_printf(b, "%zu", *FIELD(base, d, const size_t)); break;
	case DSI_OPT_DURATION: format_duration(*FIELD(base, d, const int64_t), b); break;
	case DSI_OPT_VERSION: dsi_strbuf_printf(b, "1.%d", *FIELD(base, d, const int)); break;
	case DSI_OPT_GATES:
		for (size_t i = 0; i < DSI_ARRAY_LEN(gates); i++)
			dsi_strbuf_printf(b, "%s%s=%s", i ? "," : "", gates[i].name,
					  (*FIELD(base, d, const unsigned) & gates[i].bit) ? "true" : "false");
		break;
	case DSI_OPT_STRING: {
		const char *s = *FIELD(base, d, char *const);
		if (!s)
			s = d->unset;
		dsi_strbuf_puts(b, s ? s : "");
		break;
	}
	}
}

/* ---- core's own settings ---------------------------------------------------------------------- */

/* The version whose behaviour is the default: upstream's current release (daemonset(7)). */
#define DSI_DEFAULT_K8S_MINOR 35

static const dsi_core_options core_defaults = {
	.k8s_minor = DSI_DEFAULT_K8S_MINOR,
	/* dsi_gates_default(DSI_DEFAULT_K8S_MINOR), which test_options checks */
	.gates = DSI_GATE_POD_LEVEL_RESOURCES | DSI_GATE_SIDECAR_CONTAINERS | DSI_GATE_RELAXED_ENV_VAR_VALIDATION |
		 DSI_GATE_DYNAMIC_RESOURCE_ALLOCATION,
	.limits = {DSI_DEFAULT_MAX_BYTES, DSI_DEFAULT_MAX_OBJECTS, DSI_DEFAULT_MAX_ALIAS_NODES},
};

const dsi_core_options *dsi_core_options_default(void) { return &core_defaults; }

#define O(field) offsetof(dsi_core_options, field)
static const dsi_opt_def core_defs[] = {
	{"kubernetesVersion", DSI_OPT_VERSION, O(k8s_minor), 0, 0, NULL, NULL, NULL},
	{"featureGates", DSI_OPT_GATES, O(gates), 0, 0, NULL, NULL, NULL},
	{"maxDocumentBytes", DSI_OPT_SIZE, O(limits.max_bytes), 1, INT64_MAX, NULL, NULL, NULL},
	{"maxObjects", DSI_OPT_SIZE, O(limits.max_objects), 1, INT64_MAX, NULL, NULL, NULL},
	{"maxAliasNodes", DSI_OPT_SIZE, O(limits.max_alias_nodes), 0, INT64_MAX, NULL, NULL, NULL},
	{"loadThreads", DSI_OPT_INT32, O(load_threads), 0, 1024, NULL, NULL, NULL},
};
#undef O

const dsi_opt_table dsi_core_option_table = {core_defs, DSI_ARRAY_LEN(core_defs), sizeof(dsi_core_options),
					     &core_defaults};
