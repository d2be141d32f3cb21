#include "core/optparse.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/atoms.h"
#include "core/error.h"

#define FIELD(base, d, T) ((T *)((char *)(base) + (d)->offset))

static const struct {
	const char *name;
	unsigned bit;
} gates[] = {
	{"TaintTolerationComparisonOperators", DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS},
	{"PodLevelResources", DSI_GATE_POD_LEVEL_RESOURCES},
	{"SidecarContainers", DSI_GATE_SIDECAR_CONTAINERS},
};

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

static int parse_gates(const char *v, unsigned *gatesp, ds_error *err, const char *name)
{
	unsigned g = *gatesp;
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
		int on;
		if (parse_bool(val, &on) < 0)
			return dsi_error_set(err, DS_EVALUE, name,
					     "feature gate %.*s: expected true or false, got \"%s\"", (int)kn, p, val);
		size_t i;
		for (i = 0; i < DSI_ARRAY_LEN(gates); i++)
			if (strlen(gates[i].name) == kn && memcmp(gates[i].name, p, kn) == 0)
				break;
		if (i == DSI_ARRAY_LEN(gates))
			return dsi_error_set(
				err, DS_EVALUE, name,
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
		*FIELD(base, d, int) = (int)minor;
		return 0;
	}
	case DSI_OPT_GATES: return parse_gates(value, FIELD(base, d, unsigned), err, name);
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
	.gates = DSI_GATE_POD_LEVEL_RESOURCES | DSI_GATE_SIDECAR_CONTAINERS,
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
