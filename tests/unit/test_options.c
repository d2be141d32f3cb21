/* ds_options: typed named settings, validated when set, all-or-nothing JSON. */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <stdlib.h>
#include <string.h>

#include "api/api_options.h"
#include "core/optparse.h"
#include "harness.h"

static char *get(const ds_options *o, const char *name)
{
	char *v = NULL;
	ds_error err;
	ck_assert_msg(ds_options_get(o, name, &v, &err) == 0, "%s: %s", name, err.message);
	return v;
}

static void assert_value(const ds_options *o, const char *name, const char *want)
{
	char *v = get(o, name);
	ck_assert_str_eq(v, want);
	ds_free(v);
}

START_TEST(defaults_read_back)
{
	ds_options *o;
	ck_assert_int_eq(ds_options_new(&o), 0);
	assert_value(o, "burstReplicas", "250");
	assert_value(o, "slowStartInitialBatchSize", "1");
	assert_value(o, "podSecurityLevel", "restricted");
	assert_value(o, "partition", "");
	ds_options_free(o);
}
END_TEST

START_TEST(set_and_get)
{
	ds_options *o;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set(o, "burstReplicas", "50", &err), 0);
	ck_assert_int_eq(ds_options_set(o, "partition", "10%", &err), 0);
	ck_assert_int_eq(ds_options_set(o, "updateOrder", "label:zone", &err), 0);
	assert_value(o, "burstReplicas", "50");
	assert_value(o, "partition", "10%");
	assert_value(o, "updateOrder", "label:zone");
	ck_assert_int_eq(ds_options_set(o, "partition", "0", &err), 0);
	assert_value(o, "partition", "0");
	ds_options_free(o);
}
END_TEST

/* A bad value is refused where it is set, names the option and leaves the old value. */
START_TEST(bad_values_are_refused)
{
	static const struct {
		const char *name, *value;
	} bad[] = {
		{"partition", "x"},
		{"partition", "x%"},
		{"partition", "-1"},
		{"partition", "-5%"},
		{"partition", "1.5"},
		{"partition", "99999999999"},
		{"partition", ""},
		{"updateOrder", "zone"},
		{"updateOrder", "label:"},
		{"burstReplicas", "0"},
		{"burstReplicas", "abc"},
		{"podSecurityLevel", "strict"},
		{"backoffInitial", "1 h"},
		{"daemonSetKinds", "[\"apps.kruise.io/DaemonSet\"]"},
		{"daemonSetKinds", "DaemonSet"},
		{"daemonSetKinds", "apps.kruise.io/"},
		{"daemonSetKinds", "a/b/C"},
		{"daemonSetKinds", "Apps/DaemonSet"},
		{"daemonSetKinds", "a.io/A b.io/B"},
		{"fieldValidation", "strict"},
		{"fieldValidation", "true"},
		{"fieldValidation", ""},
	};
	ds_options *o;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set(o, "partition", "2", &err), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(ds_options_set(o, bad[i].name, bad[i].value, &err) == DS_EVALUE, "%s=%s accepted",
			      bad[i].name, bad[i].value);
		ck_assert_error(err, DS_EVALUE, bad[i].name);
	}
	assert_value(o, "partition", "2");
	ck_assert_int_eq(ds_options_set(o, "daemonSetKinds", "apps.kruise.io/DaemonSet , /Foo,", &err), 0);
	ck_assert_int_eq(ds_options_set(o, "noSuchOption", "1", &err), DS_EARG);
	ck_assert_str_eq(err.path, "noSuchOption");
	ds_options_free(o);
}
END_TEST

/* set_json applies all members or none. */
START_TEST(set_json_all_or_nothing)
{
	ds_options *o;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set_json(o, "{\"burstReplicas\": 7, \"partition\": \"x\"}", &err), DS_EVALUE);
	ck_assert_str_eq(err.path, "partition");
	assert_value(o, "burstReplicas", "250");
	ck_assert_int_eq(ds_options_set_json(o, "{\"burstReplicas\": 7, \"partition\": 3}", &err), 0);
	assert_value(o, "burstReplicas", "7");
	assert_value(o, "partition", "3");
	ck_assert_int_lt(ds_options_set_json(o, "[1]", &err), 0);
	ck_assert_int_lt(ds_options_set_json(o, "{", &err), 0);
	/* YAML, as the header promises: typed scalars, and the same all-or-nothing rule */
	static const char yaml[] = "# from a config file\nburstReplicas: 9\nkubernetesVersion: '1.31'\n";
	ck_assert_int_eq(ds_options_set_all(o, yaml, strlen(yaml), &err), 0);
	assert_value(o, "burstReplicas", "9");
	assert_value(o, "kubernetesVersion", "1.31");
	static const char bad[] = "burstReplicas: 11\npartition: x\n";
	ck_assert_int_eq(ds_options_set_all(o, bad, strlen(bad), &err), DS_EVALUE);
	ck_assert_str_eq(err.path, "partition");
	assert_value(o, "burstReplicas", "9");
	ck_assert_int_eq(ds_options_set_all(o, "- a\n", 4, &err), DS_ETYPE);
	ck_assert_int_eq(ds_options_set_all(o, "a: [", 4, &err), DS_ESYNTAX);
	ck_assert_int_eq(ds_options_set_json(o, "{\"partition\": 1, \"partition\": 2}", &err), DS_ESYNTAX);
	ds_options_free(o);
}
END_TEST

/* The option table and ds_options_create(3) list the same names. */
START_TEST(option_names_match_the_manual)
{
	size_t n = 0;
	while (dsi_options_name(n))
		n++;
	size_t len;
	char *page = dsi_test_read_file("man/man3/ds_options_create.3", &len);
	char *sect = strstr(page, "\n.SH OPTIONS\n"), *end = sect ? strstr(sect + 1, "\n.SH ") : NULL;
	ck_assert_ptr_nonnull(end);
	*end = '\0';
	size_t documented = 0;
	for (char *line = strstr(sect, "\n.TP\n"); line; line = strstr(line + 1, "\n.TP\n")) {
		char buf[256];
		const char *p = line + 5, *eol = strchr(p, '\n');
		if (!eol || strncmp(p, ".B", 2) != 0 || (size_t)(eol - p) >= sizeof(buf))
			continue;
		memcpy(buf, p, (size_t)(eol - p));
		buf[eol - p] = '\0';
		/* ".B name" or ".BR a \", \" b" */
		char *save;
		for (char *tok = strtok_r(buf + 3, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			if (tok[0] == '"')
				continue;
			size_t i;
			for (i = 0; i < n && strcmp(dsi_options_name(i), tok) != 0; i++)
				;
			ck_assert_msg(i < n, "option %s of ds_options_create(3) is not in the option table", tok);
			documented++;
		}
	}
	ck_assert_uint_eq(documented, n);
	free(page);
	for (size_t i = 0; i < n; i++) {
		char *v;
		ck_assert_msg(ds_options_get(NULL, dsi_options_name(i), &v, NULL) == 0, "%s", dsi_options_name(i));
		ds_free(v);
	}
}
END_TEST

START_TEST(options_copy_round_trips)
{
	static const char every[] =
		"{\"kubernetesVersion\": \"1.33\", \"featureGates\": \"TaintTolerationComparisonOperators=true,"
		"PodLevelResources=false\", \"maxDocumentBytes\": 12345678, \"maxObjects\": 4321, \"maxAliasNodes\": "
		"99, \"loadThreads\": 3,"
		"\"legacyDaemonSets\": true, \"fieldValidation\": \"Warn\", \"burstReplicas\": 17, "
		"\"slowStartInitialBatchSize\": 3, "
		"\"backoffInitial\": "
		"\"2s\", \"backoffMax\": \"1h30m\", \"expectationsTimeout\": \"1m0.5s\", \"partition\": \"10%\", "
		"\"paused\": "
		"false, \"rolloutNodeSelector\": {\"matchLabels\": {\"a\": \"b\"}}, \"updateOrder\": \"label:zone\", "
		"\"force\": "
		"true, \"ignoreDaemonSets\": true, \"deleteEmptyDirData\": true, \"disableEviction\": true, "
		"\"gracePeriodSeconds\": 30, \"skipWaitForDeleteTimeoutSeconds\": 60, \"podSelector\": \"app=web\", "
		"\"daemonSetKinds\": \"apps.kruise.io/DaemonSet\", \"batchSize\": 5, \"podSecurityLevel\": "
		"\"baseline\", "
		"\"podSecurityVersion\": \"v1.30\", \"auditFailOn\": \"high\", \"auditIgnore\": \"hostPort,imageTag\", "
		"\"simReadyAfter\": \"31s\", \"simTerminateAfter\": \"7s\", "
		"\"simStep\": "
		"\"500ms\", \"simMaxTime\": \"2h\", \"simFailNodes\": \"a,b\", \"ignoredResources\": "
		"\"example.com/gpu\", "
		"\"ignoredResourceGroups\": \"example.org\", \"revisionHash\": \"5d8f7b9c6\", \"defaultNamespace\": "
		"\"team-a\", \"applyDefaults\": false, \"podSecurityDefaulting\": false, \"minWatchTimeout\": \"6m\", "
		"\"watchTimeoutMargin\": \"31s\", \"watchIdleTimeout\": \"3m\", \"listTimeout\": \"2m\", "
		"\"reflectorBackoffInitial\": \"900ms\", \"reflectorBackoffMax\": \"40s\", \"reflectorBackoffReset\": "
		"\"3m\", \"relistPeriod\": \"10m\", \"seed\": 7, \"leaseRetryPeriod\": \"3s\"}";
	ds_options *src = dsi_test_options(every), *copy, *defaults;
	ds_error err;
	ck_assert_int_eq(dsi_options_dup(src, &copy), 0);
	ck_assert_int_eq(dsi_options_dup(NULL, &defaults), 0);
	(void)err;
	for (size_t i = 0; dsi_options_name(i); i++) {
		const char *name = dsi_options_name(i);
		char *a, *b, *d;
		ck_assert_int_eq(ds_options_get(src, name, &a, NULL), 0);
		ck_assert_int_eq(ds_options_get(copy, name, &b, NULL), 0);
		ck_assert_int_eq(ds_options_get(defaults, name, &d, NULL), 0);
		ck_assert_msg(strcmp(a, b) == 0, "%s: %s, copied as %s", name, a, b);
		/* the test is worth something only if every option differs from its default */
		ck_assert_msg(strcmp(a, d) != 0, "%s is at its default %s", name, d);
		ds_free(a);
		ds_free(b);
		ds_free(d);
	}
	ds_options_free(src);
	ds_options_free(copy);
	ds_options_free(defaults);
}
END_TEST

/* The gates' defaults per Kubernetes version, written from upstream's versioned specs
 * (pkg/features/kube_features.go): DRAExtendedResource beta (on) 1.36; DynamicResourceAllocation beta
 * (off) 1.32, GA (on) 1.34; PodLevelResources beta 1.34;
 * RelaxedEnvironmentVariableValidation beta 1.32; SidecarContainers beta 1.29;
 * TaintTolerationComparisonOperators alpha (off) 1.35. */
static const struct {
	const char *version, *gates;
} versioned[] = {
	{"1.27", "DRAExtendedResource=false,DynamicResourceAllocation=false,"
		 "PodLevelResources=false,RelaxedEnvironmentVariableValidation=false,"
		 "SidecarContainers=false,TaintTolerationComparisonOperators=false"},
	{"1.29", "DRAExtendedResource=false,DynamicResourceAllocation=false,"
		 "PodLevelResources=false,RelaxedEnvironmentVariableValidation=false,"
		 "SidecarContainers=true,TaintTolerationComparisonOperators=false"},
	{"1.31", "DRAExtendedResource=false,DynamicResourceAllocation=false,"
		 "PodLevelResources=false,RelaxedEnvironmentVariableValidation=false,"
		 "SidecarContainers=true,TaintTolerationComparisonOperators=false"},
	{"1.32", "DRAExtendedResource=false,DynamicResourceAllocation=false,"
		 "PodLevelResources=false,RelaxedEnvironmentVariableValidation=true,"
		 "SidecarContainers=true,TaintTolerationComparisonOperators=false"},
	{"1.33", "DRAExtendedResource=false,DynamicResourceAllocation=false,"
		 "PodLevelResources=false,RelaxedEnvironmentVariableValidation=true,"
		 "SidecarContainers=true,TaintTolerationComparisonOperators=false"},
	{"1.34", "DRAExtendedResource=false,DynamicResourceAllocation=true,"
		 "PodLevelResources=true,RelaxedEnvironmentVariableValidation=true,"
		 "SidecarContainers=true,TaintTolerationComparisonOperators=false"},
	{"1.35", "DRAExtendedResource=false,DynamicResourceAllocation=true,"
		 "PodLevelResources=true,RelaxedEnvironmentVariableValidation=true,"
		 "SidecarContainers=true,TaintTolerationComparisonOperators=false"},
	{"1.36", "DRAExtendedResource=true,DynamicResourceAllocation=true,"
		 "PodLevelResources=true,RelaxedEnvironmentVariableValidation=true,"
		 "SidecarContainers=true,TaintTolerationComparisonOperators=false"},
	{"1.40", "DRAExtendedResource=true,DynamicResourceAllocation=true,"
		 "PodLevelResources=true,RelaxedEnvironmentVariableValidation=true,"
		 "SidecarContainers=true,TaintTolerationComparisonOperators=false"},
};

/* kubernetesVersion alone gives a cluster of that version's gates; the library's own default is 1.35's. */
START_TEST(gates_follow_the_version)
{
	for (size_t i = 0; i < sizeof(versioned) / sizeof(versioned[0]); i++) {
		ds_options *o = dsi_test_options(NULL);
		ds_error err;
		ck_assert_int_eq(ds_options_set(o, "kubernetesVersion", versioned[i].version, &err), 0);
		char *g = get(o, "featureGates");
		ck_assert_msg(strcmp(g, versioned[i].gates) == 0, "%s: %s, want %s", versioned[i].version, g,
			      versioned[i].gates);
		ds_free(g);
		ds_options_free(o);
	}
	ck_assert_uint_eq(dsi_core_options_default()->gates, dsi_gates_default(dsi_core_options_default()->k8s_minor));
	ds_options *o = dsi_test_options(NULL);
	assert_value(o, "featureGates", versioned[6].gates);
	ds_options_free(o);
	/* ds_options(3) lists each gate with its defaults */
	size_t len;
	char *page = dsi_test_read_file("man/man3/ds_options_create.3", &len);
	static const char *const names[] = {"DRAExtendedResource", "DynamicResourceAllocation",
					    "PodLevelResources",   "RelaxedEnvironmentVariableValidation",
					    "SidecarContainers",   "TaintTolerationComparisonOperators"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char tag[96];
		snprintf(tag, sizeof(tag), ".TP\n\\fB%s\\fP\n", names[i]);
		ck_assert_msg(strstr(page, tag) != NULL, "ds_options(3) does not list %s", names[i]);
	}
	free(page);
}
END_TEST

/* A gate set one by one stays set whatever the version says, set before or after it; the others follow
 * the version; ds_options_set_all judges them at its kubernetesVersion whatever the order of members. */
START_TEST(gates_set_one_by_one_over_the_version)
{
	ds_options *o = dsi_test_options(NULL);
	ds_error err;
	ck_assert_int_eq(ds_options_set(o, "featureGates", "PodLevelResources=false", &err), 0);
	ck_assert_int_eq(ds_options_set(o, "kubernetesVersion", "1.36", &err), 0);
	assert_value(o, "featureGates",
		     "DRAExtendedResource=true,DynamicResourceAllocation=true,PodLevelResources=false,"
		     "RelaxedEnvironmentVariableValidation=true,"
		     "SidecarContainers=true,TaintTolerationComparisonOperators=false");
	ck_assert_int_eq(ds_options_set(o, "kubernetesVersion", "1.31", &err), 0);
	ck_assert_int_eq(ds_options_set(o, "featureGates", "TaintTolerationComparisonOperators=true", &err), 0);
	assert_value(o, "featureGates",
		     "DRAExtendedResource=false,DynamicResourceAllocation=false,PodLevelResources=false,"
		     "RelaxedEnvironmentVariableValidation=false,"
		     "SidecarContainers=true,TaintTolerationComparisonOperators=true");
	/* DRAExtendedResource is known (the cluster config named it) */
	ck_assert_int_eq(ds_options_set(o, "featureGates", "DRAExtendedResource=true", &err), 0);
	ds_options_free(o);
	o = dsi_test_options("{\"featureGates\": \"SidecarContainers=false\", \"kubernetesVersion\": \"1.33\"}");
	assert_value(o, "featureGates",
		     "DRAExtendedResource=false,DynamicResourceAllocation=false,PodLevelResources=false,"
		     "RelaxedEnvironmentVariableValidation=true,"
		     "SidecarContainers=false,TaintTolerationComparisonOperators=false");
	ds_options_free(o);
	/* an unknown gate: the known ones listed, nothing changed */
	o = dsi_test_options(NULL);
	ck_assert_int_eq(ds_options_set(o, "featureGates", "PodLevelResources=false,NoSuchGate=true", &err), DS_EVALUE);
	ck_assert_str_eq(err.path, "featureGates");
	ck_assert_str_eq(
		err.message,
		"unrecognized feature gate: NoSuchGate (known: DRAExtendedResource, DynamicResourceAllocation, "
		"PodLevelResources, "
		"RelaxedEnvironmentVariableValidation, SidecarContainers, TaintTolerationComparisonOperators; "
		"the library knows the gates that change its decisions)");
	assert_value(o, "featureGates", versioned[6].gates);
	ds_options_free(o);
}
END_TEST

/* What a gate decides follows the version: env var names a 1.31 API server refuses (the strict rule) and a
 * 1.35 one takes; an update that keeps such a name of its old template is taken at 1.31 too. */
START_TEST(gates_change_decisions)
{
	static const char ds[] =
		"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: a, namespace: default}\n"
		"spec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n"
		"    spec:\n      containers:\n      - name: c\n        image: i\n        env:\n"
		"        - {name: 1FOO, value: x}\n";
	ds_options *o131 = dsi_test_options("{\"kubernetesVersion\": \"1.31\"}");
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_validate(ds, strlen(ds), 0, NULL, &out, &err), 0);
	json_t *r = dsi_test_take_json(out);
	ck_assert(json_is_true(json_object_get(r, "valid")));
	json_decref(r);
	ck_assert_int_eq(ds_daemonset_validate(ds, strlen(ds), 0, o131, &out, &err), 0);
	r = dsi_test_take_json(out);
	ck_assert(json_is_false(json_object_get(r, "valid")));
	json_t *e = json_array_get(json_object_get(r, "errors"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(e, "field")),
			 "spec.template.spec.containers[0].env[0].name");
	ck_assert_str_eq(
		json_string_value(json_object_get(e, "detail")),
		"a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or "
		"'.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or "
		"'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')");
	json_decref(r);
	/* the gate set one by one wins over the version */
	ds_options *on = dsi_test_options(
		"{\"kubernetesVersion\": \"1.31\", \"featureGates\": \"RelaxedEnvironmentVariableValidation=true\"}");
	ck_assert_int_eq(ds_daemonset_validate(ds, strlen(ds), 0, on, &out, &err), 0);
	r = dsi_test_take_json(out);
	ck_assert(json_is_true(json_object_get(r, "valid")));
	json_decref(r);
	/* an update keeping the name its old template had: useRelaxedEnvironmentVariableValidation's escape */
	static const char old[] =
		"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: a, namespace: default, "
		"resourceVersion: '1', generation: 1}\n"
		"spec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n"
		"    spec:\n      containers:\n      - name: c\n        image: h\n        env:\n"
		"        - {name: 1FOO, value: x}\n";
	ck_assert_int_eq(ds_daemonset_validate_update(ds, strlen(ds), old, strlen(old), 0, o131, &out, &err), 0);
	r = dsi_test_take_json(out);
	ck_assert_msg(json_is_true(json_object_get(r, "valid")), "%s",
		      json_string_value(json_object_get(r, "message")));
	json_decref(r);
	ds_options_free(on);
	ds_options_free(o131);
}
END_TEST

static Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("options");
	tcase_add_test(tc, defaults_read_back);
	tcase_add_test(tc, set_and_get);
	tcase_add_test(tc, bad_values_are_refused);
	tcase_add_test(tc, set_json_all_or_nothing);
	tcase_add_test(tc, option_names_match_the_manual);
	tcase_add_test(tc, options_copy_round_trips);
	tcase_add_test(tc, gates_follow_the_version);
	tcase_add_test(tc, gates_set_one_by_one_over_the_version);
	tcase_add_test(tc, gates_change_decisions);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(options_suite)
