/* Pod Security Standards: every check, version, override and message, against upstream's tables and fixtures. */
#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "pss/pss.h"
#include "harness.h"

#define VEC "tests/vectors/pss/"

static int cmp_name(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* Names of the vector files VEC<prefix>*.json, sorted. */
static size_t vector_files(const char *prefix, char names[][320], size_t cap)
{
	DIR *d = opendir(VEC);
	ck_assert_msg(d != NULL, "cannot open " VEC " (run from the source tree)");
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || len < 5 ||
		    strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		ck_assert_uint_lt(n, cap);
		snprintf(names[n++], 320, "%s%s", VEC, e->d_name);
	}
	closedir(d);
	qsort(names, n, 320, cmp_name);
	return n;
}

static int minor_of(const char *version)
{
	int minor;
	ck_assert_msg(dsi_pss_parse_version(version, &minor) == 0, "bad version %s in a vector", version);
	return minor;
}

/* Read metadata + spec into a pod view (rd path ""). */
static void read_pod(json_t *meta, json_t *spec, unsigned flags, dsi_pss_pod *pod)
{
	json_t *tmpl = json_object();
	if (meta)
		json_object_set(tmpl, "metadata", meta);
	if (spec)
		json_object_set(tmpl, "spec", spec);
	ds_error err;
	ds_error_clear(&err);
	dsi_rd rd;
	dsi_rd_init(&rd, &err);
	int rc = dsi_pss_pod_read(&rd, tmpl, flags, pod);
	ck_assert_msg(rc == 0, "reading the pod: %s: %s", err.path, err.message);
	/* the view borrows strings from meta and spec, which the caller keeps */
	json_decref(tmpl);
}

static char *detail_of(const dsi_pss_eval *e)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_pss_forbidden_detail(e, &b);
	dsi_strbuf_putc(&b, '\0');
	return dsi_strbuf_detach(&b);
}

START_TEST(parse_levels_and_versions)
{
	json_t *v = dsi_test_load_json(VEC "versions.json");
	const char *k;
	json_t *want;
	json_object_foreach(json_object_get(v, "versions"), k, want)
	{
		int minor = -2;
		ck_assert_msg(dsi_pss_parse_version(k, &minor) == 0, "%s rejected", k);
		if (json_is_string(want))
			ck_assert_int_eq(minor, DSI_PSS_LATEST);
		else
			ck_assert_int_eq(minor, (int)json_integer_value(want));
	}
	size_t i;
	json_array_foreach(json_object_get(v, "badVersions"), i, want)
	{
		int minor;
		ck_assert_msg(dsi_pss_parse_version(json_string_value(want), &minor) < 0, "%s accepted",
			      json_string_value(want));
	}
	json_array_foreach(json_object_get(v, "levels"), i, want)
	{
		dsi_pss_level l;
		ck_assert_int_eq(dsi_pss_parse_level(json_string_value(want), &l), 0);
		ck_assert_str_eq(dsi_pss_level_name(l), json_string_value(want));
	}
	json_array_foreach(json_object_get(v, "badLevels"), i, want)
	{
		dsi_pss_level l;
		ck_assert_int_lt(dsi_pss_parse_level(json_string_value(want), &l), 0);
	}
	json_decref(v);
	/* the digest's syntax notes: leading zeros, signs and overflow are rejected; huge minors saturate */
	static const char *const bad[] = {"v1.05", "v1.-1",   "v1.+1", "V1.1",
					  "v1.1 ", "latest ", "v1.",   "v1.99999999999999999999"};
	for (size_t j = 0; j < sizeof(bad) / sizeof(bad[0]); j++) {
		int m;
		ck_assert_msg(dsi_pss_parse_version(bad[j], &m) < 0, "%s accepted", bad[j]);
	}
	int m;
	ck_assert_int_eq(dsi_pss_parse_version("v1.9999999999", &m), 0);
	ck_assert_int_eq(m, DSI_PSS_LATEST - 1);
	char buf[16];
	dsi_pss_version_string(37, buf, sizeof(buf));
	ck_assert_str_eq(buf, "v1.37");
	dsi_pss_version_string(DSI_PSS_LATEST, buf, sizeof(buf));
	ck_assert_str_eq(buf, "latest");
}
END_TEST

static int fake_check(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	(void)pod;
	res->allowed = 0;
	return 0;
}

START_TEST(registry_selection)
{
	json_t *v = dsi_test_load_json(VEC "registry.json");
	size_t r, ncases = 0;
	json_t *reg;
	json_array_foreach(json_object_get(v, "registries"), r, reg)
	{
		dsi_pss_check checks[16];
		dsi_pss_revision revs[16][4];
		const char *over[16][4][4];
		size_t n = 0, i;
		json_t *c;
		json_array_foreach(json_object_get(reg, "checks"), i, c)
		{
			dsi_pss_check *ck = &checks[n++];
			ck->id = json_string_value(json_object_get(c, "id"));
			ck_assert_int_eq(
				dsi_pss_parse_level(json_string_value(json_object_get(c, "level")), &ck->level), 0);
			json_t *vers = json_object_get(c, "versions"), *ovs = json_object_get(c, "overrides");
			for (size_t k = 0; k < json_array_size(vers); k++) {
				revs[i][k].min_minor = minor_of(json_string_value(json_array_get(vers, k)));
				revs[i][k].fn = fake_check;
				revs[i][k].overrides = NULL;
				json_t *ov = json_array_get(ovs, k);
				if (ov) {
					size_t o;
					for (o = 0; o < json_array_size(ov); o++)
						over[i][k][o] = json_string_value(json_array_get(ov, o));
					over[i][k][o] = NULL;
					revs[i][k].overrides = over[i][k];
				}
			}
			ck->revs = revs[i];
			ck->n_revs = json_array_size(vers);
		}
		json_array_foreach(json_object_get(reg, "cases"), i, c)
		{
			dsi_pss_level level;
			ck_assert_int_eq(dsi_pss_parse_level(json_string_value(json_array_get(c, 0)), &level), 0);
			int minor = minor_of(json_string_value(json_array_get(c, 1)));
			dsi_pss_planned plan[DSI_PSS_MAX_CHECKS];
			size_t np = dsi_pss_plan(checks, n, level, minor, DSI_PSS_LATEST, plan, NULL);
			json_t *want = json_array_get(c, 2);
			char got[512] = "", exp[512] = "";
			for (size_t k = 0; k < np; k++)
				snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s:v1.%d", k ? "," : "",
					 plan[k].check->id, plan[k].rev->min_minor);
			for (size_t k = 0; k < json_array_size(want); k++)
				snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), "%s%s", k ? "," : "",
					 json_string_value(json_array_get(want, k)));
			ck_assert_msg(strcmp(got, exp) == 0, "%s %s:%s: got [%s], want [%s]",
				      json_string_value(json_object_get(reg, "test")),
				      json_string_value(json_array_get(c, 0)), json_string_value(json_array_get(c, 1)),
				      got, exp);
			ncases++;
		}
	}
	ck_assert_uint_eq(ncases, 15 + 9 + 12 + 3);
	json_decref(v);
}
END_TEST

/* The order and overrides of the real checks at the newest version, per the digest. */
START_TEST(default_order_and_overrides)
{
	size_t n;
	const dsi_pss_check *checks = dsi_pss_default_checks(&n);
	ck_assert_int_eq(dsi_pss_max_minor(checks, n), 37);
	dsi_pss_planned plan[DSI_PSS_MAX_CHECKS];
	static const struct {
		dsi_pss_level level;
		int minor;
		const char *want;
	} cases[] = {
		{DSI_PSS_BASELINE, DSI_PSS_LATEST,
		 "appArmorProfile,capabilities_baseline,hostNamespaces,hostPathVolumes,hostPorts,"
		 "hostProbesAndHostLifecycle,"
		 "privileged,procMount,seLinuxOptions,seccompProfile_baseline,sysctls,windowsHostProcess"},
		{DSI_PSS_RESTRICTED, 37,
		 "appArmorProfile,hostNamespaces,hostPorts,hostProbesAndHostLifecycle,privileged,seLinuxOptions,"
		 "sysctls,"
		 "windowsHostProcess,allowPrivilegeEscalation,capabilities_restricted,procMount_restricted,"
		 "restrictedVolumes,"
		 "runAsNonRoot,runAsUser,seccompProfile_restricted"},
		/* before 1.35 procMount itself runs at restricted; before 1.22 capabilities_baseline does */
		{DSI_PSS_RESTRICTED, 34,
		 "appArmorProfile,hostNamespaces,hostPorts,hostProbesAndHostLifecycle,privileged,procMount,"
		 "seLinuxOptions,"
		 "sysctls,windowsHostProcess,allowPrivilegeEscalation,capabilities_restricted,restrictedVolumes,"
		 "runAsNonRoot,"
		 "runAsUser,seccompProfile_restricted"},
		{DSI_PSS_RESTRICTED, 21,
		 "appArmorProfile,capabilities_baseline,hostNamespaces,hostPorts,privileged,procMount,seLinuxOptions,"
		 "sysctls,"
		 "windowsHostProcess,allowPrivilegeEscalation,restrictedVolumes,runAsNonRoot,seccompProfile_"
		 "restricted"},
		{DSI_PSS_RESTRICTED, 18,
		 "appArmorProfile,capabilities_baseline,hostNamespaces,hostPorts,privileged,procMount,seLinuxOptions,"
		 "seccompProfile_baseline,sysctls,windowsHostProcess,allowPrivilegeEscalation,restrictedVolumes,"
		 "runAsNonRoot"},
		{DSI_PSS_RESTRICTED, 0,
		 "appArmorProfile,capabilities_baseline,hostNamespaces,hostPorts,privileged,procMount,seLinuxOptions,"
		 "seccompProfile_baseline,sysctls,windowsHostProcess,restrictedVolumes,runAsNonRoot"},
		{DSI_PSS_BASELINE, 33,
		 "appArmorProfile,capabilities_baseline,hostNamespaces,hostPathVolumes,hostPorts,privileged,procMount,"
		 "seLinuxOptions,seccompProfile_baseline,sysctls,windowsHostProcess"},
		{DSI_PSS_PRIVILEGED, DSI_PSS_LATEST, ""},
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		int eff;
		size_t np = dsi_pss_plan(checks, n, cases[c].level, cases[c].minor, DSI_PSS_LATEST, plan, &eff);
		char got[1024] = "";
		for (size_t k = 0; k < np; k++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", k ? "," : "", plan[k].check->id);
		ck_assert_msg(strcmp(got, cases[c].want) == 0, "case %zu: got %s", c, got);
		ck_assert_int_eq(eff, cases[c].minor > 37 ? 37 : cases[c].minor);
	}
	/* revisions in force at the newest version */
	dsi_pss_plan(checks, n, DSI_PSS_BASELINE, 99, DSI_PSS_LATEST, plan, NULL);
	ck_assert_ptr_eq(plan[10].rev->fn, dsi_pss_sysctls_1_37);
	ck_assert_ptr_eq(plan[8].rev->fn, dsi_pss_selinux_1_31);
	/* an emulation version lowers "latest" and clamps newer requests */
	int eff;
	size_t np = dsi_pss_plan(checks, n, DSI_PSS_BASELINE, DSI_PSS_LATEST, 35, plan, &eff);
	ck_assert_int_eq(eff, 35);
	ck_assert_ptr_eq(plan[np - 2].rev->fn, dsi_pss_sysctls_1_32);
	dsi_pss_plan(checks, n, DSI_PSS_BASELINE, 37, 35, plan, &eff);
	ck_assert_int_eq(eff, 35);
	dsi_pss_plan(checks, n, DSI_PSS_BASELINE, 30, 35, plan, &eff);
	ck_assert_int_eq(eff, 30);
}
END_TEST

/* Upstream's per-check unit test tables, with exact reasons and details. */
START_TEST(check_tables)
{
	char files[64][320];
	size_t nf = vector_files("checks_", files, 64), ncases = 0;
	ck_assert_uint_eq(nf, 20);
	for (size_t f = 0; f < nf; f++) {
		json_t *v = dsi_test_load_json(files[f]);
		ck_assert_msg(json_is_string(json_object_get(v, "source")), "%s: no source", files[f]);
		size_t i;
		json_t *c;
		json_array_foreach(json_object_get(v, "cases"), i, c)
		{
			const char *name = json_string_value(json_object_get(c, "name"));
			dsi_pss_pod pod;
			read_pod(json_object_get(c, "metadata"), json_object_get(c, "spec"), 0, &pod);
			int want_allowed = json_is_true(json_object_get(c, "allowed"));
			int minor = minor_of(json_string_value(json_object_get(c, "version")));
			ds_error err;
			ds_error_clear(&err);
			const char *level = json_string_value(json_object_get(c, "level"));
			if (level) {
				/* evaluation through the registry, possibly with an emulation version */
				dsi_pss_level l;
				ck_assert_int_eq(dsi_pss_parse_level(level, &l), 0);
				json_t *emu = json_object_get(c, "emulationVersion");
				dsi_pss_eval e;
				ck_assert_int_eq(
					dsi_pss_evaluate(&pod, l, minor,
							 emu ? minor_of(json_string_value(emu)) : DSI_PSS_LATEST, &e,
							 &err),
					0);
				ck_assert_msg(e.allowed == want_allowed, "%s: %s: allowed=%d", files[f], name,
					      e.allowed);
				dsi_pss_eval_free(&e);
			} else {
				const char *id = json_string_value(json_object_get(c, "check"));
				dsi_pss_result res;
				ck_assert_msg(dsi_pss_run_check(&pod, id, minor, &res, &err) == 0, "%s", err.message);
				ck_assert_msg(res.allowed == want_allowed, "%s: %s: allowed=%d (%s)", files[f], name,
					      res.allowed, res.detail ? res.detail : "");
				json_t *reason = json_object_get(c, "reason"), *detail = json_object_get(c, "detail");
				if (reason)
					ck_assert_msg(strcmp(res.reason ? res.reason : "", json_string_value(reason)) ==
							      0,
						      "%s: %s: reason\n got %s\nwant %s", files[f], name, res.reason,
						      json_string_value(reason));
				if (detail)
					ck_assert_msg(strcmp(res.detail ? res.detail : "", json_string_value(detail)) ==
							      0,
						      "%s: %s: detail\n got %s\nwant %s", files[f], name, res.detail,
						      json_string_value(detail));
				dsi_pss_result_free(&res);
			}
			dsi_pss_pod_free(&pod);
			ncases++;
		}
		json_decref(v);
	}
	ck_assert_uint_eq(ncases, 104);
}
END_TEST

/* Every generated fixture pod of upstream's test/testdata, at every level and version it was generated for. */
START_TEST(fixtures)
{
	char files[64][320];
	size_t nf = vector_files("fixtures_", files, 64), npods = 0, nfail = 0, nlatest = 0;
	ck_assert_uint_eq(nf, 20);
	for (size_t f = 0; f < nf; f++) {
		json_t *v = dsi_test_load_json(files[f]);
		const char *sub = json_string_value(json_object_get(v, "expectSubstring"));
		size_t i;
		json_t *fx;
		json_array_foreach(json_object_get(v, "fixtures"), i, fx)
		{
			json_t *pod_json = json_object_get(fx, "pod");
			const char *name = json_string_value(json_object_get(fx, "name"));
			dsi_pss_pod pod;
			/* created as Pods through the API server: defaulted before admission */
			read_pod(json_object_get(pod_json, "metadata"), json_object_get(pod_json, "spec"),
				 DSI_PSS_DEFAULT_VOLUMES | DSI_PSS_DEFAULT_HOST_PORTS, &pod);
			for (int verdict = 0; verdict < 2; verdict++) {
				json_t *list = json_object_get(fx, verdict ? "fail" : "pass");
				size_t k;
				json_t *lv;
				json_array_foreach(list, k, lv)
				{
					char buf[64];
					snprintf(buf, sizeof(buf), "%s", json_string_value(lv));
					char *slash = strchr(buf, '/');
					ck_assert_ptr_nonnull(slash);
					*slash = '\0';
					dsi_pss_level level;
					ck_assert_int_eq(dsi_pss_parse_level(buf, &level), 0);
					int minor = minor_of(slash + 1);
					dsi_pss_eval e;
					ds_error err;
					ck_assert_int_eq(dsi_pss_evaluate(&pod, level, minor, DSI_PSS_LATEST, &e, &err),
							 0);
					ck_assert_int_eq(e.minor, minor);
					char *detail = detail_of(&e);
					if (!verdict) {
						ck_assert_msg(e.allowed, "%s: %s at %s should pass: %s", files[f], name,
							      json_string_value(lv), detail);
					} else {
						ck_assert_msg(!e.allowed, "%s: %s at %s should fail", files[f], name,
							      json_string_value(lv));
						ck_assert_msg(sub && strstr(detail, sub), "%s: %s at %s: %s lacks %s",
							      files[f], name, json_string_value(lv), detail, sub);
						nfail++;
					}
					if (minor == 37) {
						/* "latest" is the newest version: the same verdict and texts */
						dsi_pss_eval el;
						ck_assert_int_eq(dsi_pss_evaluate(&pod, level, DSI_PSS_LATEST,
										  DSI_PSS_LATEST, &el, &err),
								 0);
						char *dl = detail_of(&el);
						ck_assert_int_eq(el.minor, 37);
						ck_assert_str_eq(dl, detail);
						dsi_free(dl);
						dsi_pss_eval_free(&el);
						nlatest++;
					}
					dsi_free(detail);
					dsi_pss_eval_free(&e);
					npods++;
				}
			}
			dsi_pss_pod_free(&pod);
		}
		json_decref(v);
	}
	/* upstream's testdata tree holds 4,537 pods, 3,486 of them in fail/ directories */
	ck_assert_uint_eq(npods, 4537);
	ck_assert_uint_eq(nfail, 3486);
	ck_assert_uint_gt(nlatest, 100);
}
END_TEST

/* Each revision takes effect exactly at its MinimumVersion (policy/check_*.go Versions). */
START_TEST(revision_boundaries)
{
	/* a pod that passes restricted at every version, to tweak */
#define OKC "\"securityContext\":{\"allowPrivilegeEscalation\":false,\"capabilities\":{\"drop\":[\"ALL\"]}}"
#define PODSC "\"runAsNonRoot\":true,\"seccompProfile\":{\"type\":\"RuntimeDefault\"}"
	static const struct {
		const char *level;
		int minor;
		const char *spec, *meta;
		const char *want; /* ForbiddenDetail, "" = allowed */
	} cases[] = {
		/* sysctls allow-list growth */
		{"baseline", 26,
		 "{\"securityContext\":{\"sysctls\":[{\"name\":\"net.ipv4.ip_local_reserved_ports\"}]}}", NULL,
		 "forbidden sysctls (net.ipv4.ip_local_reserved_ports)"},
		{"baseline", 27,
		 "{\"securityContext\":{\"sysctls\":[{\"name\":\"net.ipv4.ip_local_reserved_ports\"}]}}", NULL, ""},
		{"baseline", 28, "{\"securityContext\":{\"sysctls\":[{\"name\":\"net.ipv4.tcp_fin_timeout\"}]}}", NULL,
		 "forbidden sysctls (net.ipv4.tcp_fin_timeout)"},
		{"baseline", 29, "{\"securityContext\":{\"sysctls\":[{\"name\":\"net.ipv4.tcp_fin_timeout\"}]}}", NULL,
		 ""},
		{"baseline", 31, "{\"securityContext\":{\"sysctls\":[{\"name\":\"net.ipv4.tcp_wmem\"}]}}", NULL,
		 "forbidden sysctls (net.ipv4.tcp_wmem)"},
		{"baseline", 32, "{\"securityContext\":{\"sysctls\":[{\"name\":\"net.ipv4.tcp_wmem\"}]}}", NULL, ""},
		{"baseline", 36,
		 "{\"securityContext\":{\"sysctls\":[{\"name\":\"net.ipv4.tcp_notsent_lowat\"},{\"name\":\"vm."
		 "swappiness\"},"
		 "{\"name\":\"net.ipv4.tcp_slow_start_after_idle\"},{\"name\":\"vm.swappiness\"}]}}",
		 NULL,
		 "forbidden sysctls (net.ipv4.tcp_notsent_lowat, vm.swappiness, net.ipv4.tcp_slow_start_after_idle, "
		 "vm.swappiness)"},
		{"baseline", 37,
		 "{\"securityContext\":{\"sysctls\":[{\"name\":\"net.ipv4.tcp_notsent_lowat\"},{\"name\":\"vm."
		 "swappiness\"},"
		 "{\"name\":\"net.ipv4.tcp_slow_start_after_idle\"},{\"name\":\"vm.swappiness\"}]}}",
		 NULL, "forbidden sysctls (vm.swappiness, vm.swappiness)"},
		/* container_engine_t from 1.31 */
		{"baseline", 30,
		 "{\"containers\":[{\"name\":\"a\",\"securityContext\":{\"seLinuxOptions\":{\"type\":\"container_"
		 "engine_t\"}}}]}",
		 NULL,
		 "seLinuxOptions (container \"a\" set forbidden securityContext.seLinuxOptions: type "
		 "\"container_engine_t\")"},
		{"baseline", 31,
		 "{\"containers\":[{\"name\":\"a\",\"securityContext\":{\"seLinuxOptions\":{\"type\":\"container_"
		 "engine_t\"}}}]}",
		 NULL, ""},
		/* seccomp: annotations until 1.18, fields from 1.19 */
		{"baseline", 18, "{\"securityContext\":{\"seccompProfile\":{\"type\":\"Unconfined\"}}}",
		 "{\"annotations\":{\"seccomp.security.alpha.kubernetes.io/pod\":\"\"}}",
		 "seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod=\"\")"},
		{"baseline", 19, "{\"securityContext\":{\"seccompProfile\":{\"type\":\"Unconfined\"}}}",
		 "{\"annotations\":{\"seccomp.security.alpha.kubernetes.io/pod\":\"\"}}",
		 "seccompProfile (pod must not set securityContext.seccompProfile.type to \"Unconfined\")"},
		/* restricted: allowPrivilegeEscalation from 1.8 */
		{"restricted", 7, "{\"securityContext\":{\"runAsNonRoot\":true},\"containers\":[{\"name\":\"a\"}]}",
		 NULL, ""},
		{"restricted", 8, "{\"securityContext\":{\"runAsNonRoot\":true},\"containers\":[{\"name\":\"a\"}]}",
		 NULL,
		 "allowPrivilegeEscalation != false (container \"a\" must set "
		 "securityContext.allowPrivilegeEscalation=false)"},
		/* capabilities_restricted from 1.22 overrides capabilities_baseline */
		{"restricted", 21,
		 "{\"securityContext\":{" PODSC
		 "},\"containers\":[{\"name\":\"a\",\"securityContext\":{\"allowPrivilegeEscalation\":"
		 "false,\"capabilities\":{\"add\":[\"NET_RAW\"]}}}]}",
		 NULL,
		 "non-default capabilities (container \"a\" must not include \"NET_RAW\" in "
		 "securityContext.capabilities.add)"},
		{"restricted", 22,
		 "{\"securityContext\":{" PODSC
		 "},\"containers\":[{\"name\":\"a\",\"securityContext\":{\"allowPrivilegeEscalation\":"
		 "false,\"capabilities\":{\"add\":[\"NET_RAW\"]}}}]}",
		 NULL,
		 "unrestricted capabilities (container \"a\" must set securityContext.capabilities.drop=[\"ALL\"]; "
		 "container \"a\" "
		 "must not include \"NET_RAW\" in securityContext.capabilities.add)"},
		/* runAsUser from 1.23 */
		{"restricted", 22,
		 "{\"securityContext\":{" PODSC ",\"runAsUser\":0},\"containers\":[{\"name\":\"a\"," OKC "}]}", NULL,
		 ""},
		{"restricted", 23,
		 "{\"securityContext\":{" PODSC ",\"runAsUser\":0},\"containers\":[{\"name\":\"a\"," OKC "}]}", NULL,
		 "runAsUser=0 (pod must not set runAsUser=0)"},
		/* Windows exemptions from 1.25; runAsNonRoot still required */
		{"restricted", 24, "{\"os\":{\"name\":\"windows\"},\"containers\":[{\"name\":\"w\"}]}", NULL,
		 "allowPrivilegeEscalation != false (container \"w\" must set "
		 "securityContext.allowPrivilegeEscalation=false), "
		 "unrestricted capabilities (container \"w\" must set securityContext.capabilities.drop=[\"ALL\"]), "
		 "runAsNonRoot != true (pod or container \"w\" must set securityContext.runAsNonRoot=true), "
		 "seccompProfile (pod or container \"w\" must set securityContext.seccompProfile.type to "
		 "\"RuntimeDefault\" or "
		 "\"Localhost\")"},
		{"restricted", 25, "{\"os\":{\"name\":\"windows\"},\"containers\":[{\"name\":\"w\"}]}", NULL,
		 "runAsNonRoot != true (pod or container \"w\" must set securityContext.runAsNonRoot=true)"},
		/* probe and lifecycle hosts from 1.34 */
		{"baseline", 33,
		 "{\"containers\":[{\"name\":\"a\",\"readinessProbe\":{\"tcpSocket\":{\"host\":\"127.0.0.1\"}}}]}",
		 NULL, ""},
		{"baseline", 34,
		 "{\"containers\":[{\"name\":\"b\",\"readinessProbe\":{\"tcpSocket\":{\"host\":\"127.0.0.1\"}}},{"
		 "\"name\":\"a\","
		 "\"lifecycle\":{\"preStop\":{\"httpGet\":{\"host\":\"::1\"}}}}]}",
		 NULL,
		 "probe or lifecycle host (containers \"a\", \"b\" use probe or lifecycle hosts \"127.0.0.1\", "
		 "\"::1\")"},
		/* user namespaces relax procMount, runAsNonRoot and runAsUser from 1.35, but not procMount_restricted
		 */
		{"baseline", 34,
		 "{\"hostUsers\":false,\"containers\":[{\"name\":\"a\",\"securityContext\":{\"procMount\":\"Unmasked\"}"
		 "}]}",
		 NULL, "procMount (container \"a\" must not set securityContext.procMount to \"Unmasked\")"},
		{"baseline", 35,
		 "{\"hostUsers\":false,\"containers\":[{\"name\":\"a\",\"securityContext\":{\"procMount\":\"Unmasked\"}"
		 "}]}",
		 NULL, ""},
		{"restricted", 35,
		 "{\"hostUsers\":false,\"securityContext\":{\"seccompProfile\":{\"type\":\"RuntimeDefault\"},"
		 "\"runAsUser\":0},"
		 "\"containers\":[{\"name\":\"a\",\"securityContext\":{\"allowPrivilegeEscalation\":false,"
		 "\"capabilities\":{"
		 "\"drop\":[\"ALL\"]},\"procMount\":\"Unmasked\"}}]}",
		 NULL, "procMount (container \"a\" must not set securityContext.procMount to \"Unmasked\")"},
		{"restricted", 34,
		 "{\"hostUsers\":false,\"securityContext\":{\"seccompProfile\":{\"type\":\"RuntimeDefault\"},"
		 "\"runAsUser\":0},"
		 "\"containers\":[{\"name\":\"a\"," OKC "}]}",
		 NULL,
		 "runAsNonRoot != true (pod or container \"a\" must set securityContext.runAsNonRoot=true), "
		 "runAsUser=0 (pod must "
		 "not set runAsUser=0)"},
		/* hostUsers unset is not a user namespace */
		{"restricted", 35,
		 "{\"securityContext\":{\"seccompProfile\":{\"type\":\"RuntimeDefault\"}},\"containers\":[{\"name\":"
		 "\"a\"," OKC "}]}",
		 NULL, "runAsNonRoot != true (pod or container \"a\" must set securityContext.runAsNonRoot=true)"},
		/* restrictedVolumes replaces hostPathVolumes at restricted */
		{"restricted", 37,
		 "{\"securityContext\":{" PODSC "},\"containers\":[{\"name\":\"a\"," OKC
		 "}],\"volumes\":[{\"name\":\"h\","
		 "\"hostPath\":{\"path\":\"/"
		 "\"}},{\"name\":\"n\",\"nfs\":{}},{\"name\":\"both\",\"hostPath\":{},\"configMap\":{}}]}",
		 NULL,
		 "restricted volume types (volumes \"h\", \"n\" use restricted volume types \"hostPath\", \"nfs\")"},
		{"baseline", 37,
		 "{\"containers\":[{\"name\":\"a\"}],\"volumes\":[{\"name\":\"h\",\"hostPath\":{\"path\":\"/"
		 "\"}},{\"name\":\"n\","
		 "\"nfs\":{}},{\"name\":\"both\",\"hostPath\":{},\"configMap\":{}}]}",
		 NULL, "hostPath volumes (volumes \"h\", \"both\")"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_error_t je;
		json_t *spec = json_loads(cases[i].spec, 0, &je);
		ck_assert_msg(spec != NULL, "case %zu: %s", i, je.text);
		json_t *meta = cases[i].meta ? json_loads(cases[i].meta, 0, NULL) : NULL;
		dsi_pss_pod pod;
		read_pod(meta, spec, DSI_PSS_DEFAULT_VOLUMES, &pod);
		dsi_pss_level level;
		ck_assert_int_eq(dsi_pss_parse_level(cases[i].level, &level), 0);
		dsi_pss_eval e;
		ds_error err;
		ck_assert_int_eq(dsi_pss_evaluate(&pod, level, cases[i].minor, DSI_PSS_LATEST, &e, &err), 0);
		char *detail = detail_of(&e);
		ck_assert_msg(strcmp(detail, cases[i].want) == 0, "case %zu (%s v1.%d):\n got %s\nwant %s", i,
			      cases[i].level, cases[i].minor, detail, cases[i].want);
		ck_assert_int_eq(e.allowed, cases[i].want[0] == '\0');
		dsi_free(detail);
		dsi_pss_eval_free(&e);
		dsi_pss_pod_free(&pod);
		json_decref(spec);
		json_decref(meta);
	}
#undef OKC
#undef PODSC
}
END_TEST

/* restrictedvolumes0 passes upstream only because the API server defaults a source-less volume to emptyDir. */
START_TEST(sourceless_volume_defaulting)
{
	json_t *spec = json_pack("{s:[{s:s}], s:[{s:s}]}", "containers", "name", "c", "volumes", "name", "v");
	dsi_pss_pod pod;
	read_pod(NULL, spec, 0, &pod);
	dsi_pss_result res;
	ds_error err;
	ck_assert_int_eq(dsi_pss_run_check(&pod, "restrictedVolumes", 0, &res, &err), 0);
	ck_assert_int_eq(res.allowed, 0);
	ck_assert_str_eq(res.detail, "volume \"v\" uses restricted volume type \"unknown\"");
	dsi_pss_result_free(&res);
	dsi_pss_pod_free(&pod);
	read_pod(NULL, spec, DSI_PSS_DEFAULT_VOLUMES, &pod);
	ck_assert_int_eq(dsi_pss_run_check(&pod, "restrictedVolumes", 0, &res, &err), 0);
	ck_assert_int_eq(res.allowed, 1);
	ck_assert_int_eq(pod.volumes[0].defaulted, 1);
	dsi_pss_pod_free(&pod);
	json_decref(spec);
}
END_TEST

/* SetDefaults_Pod: hostNetwork fills hostPort = containerPort in containers and initContainers only. */
START_TEST(host_network_host_ports)
{
	json_t *spec = json_loads(
		"{\"hostNetwork\":true,"
		"\"initContainers\":[{\"name\":\"i\",\"ports\":[{\"containerPort\":8443}]}],"
		"\"containers\":[{\"name\":\"c\",\"ports\":[{\"containerPort\":9100},{\"containerPort\":10443,"
		"\"hostPort\":10443}]}],"
		"\"ephemeralContainers\":[{\"name\":\"e\",\"ports\":[{\"containerPort\":7000}]}]}",
		0, NULL);
	ck_assert_ptr_nonnull(spec);
	dsi_pss_pod pod;
	dsi_pss_result res;
	ds_error err;
	/* a template: no defaulting, only the explicit hostPort */
	read_pod(NULL, spec, DSI_PSS_DEFAULT_VOLUMES, &pod);
	ck_assert_int_eq(dsi_pss_run_check(&pod, "hostPorts", 37, &res, &err), 0);
	ck_assert_str_eq(res.detail, "container \"c\" uses hostPort 10443");
	dsi_pss_result_free(&res);
	dsi_pss_pod_free(&pod);
	/* a pod: ports sorted as strings, ephemeral containers not defaulted */
	read_pod(NULL, spec, DSI_PSS_DEFAULT_VOLUMES | DSI_PSS_DEFAULT_HOST_PORTS, &pod);
	ck_assert_int_eq(dsi_pss_run_check(&pod, "hostPorts", 37, &res, &err), 0);
	ck_assert_str_eq(res.reason, "hostPort");
	ck_assert_str_eq(res.detail, "containers \"i\", \"c\" use hostPorts 10443, 8443, 9100");
	dsi_pss_result_free(&res);
	dsi_pss_pod_free(&pod);
	json_decref(spec);
}
END_TEST

/* visitContainers: initContainers, containers, then ephemeralContainers, which are checked like the others. */
START_TEST(container_walk_order)
{
	json_t *spec =
		json_loads("{\"ephemeralContainers\":[{\"name\":\"debug\",\"securityContext\":{\"privileged\":true}}],"
			   "\"containers\":[{\"name\":\"main\",\"securityContext\":{\"privileged\":true}}],"
			   "\"initContainers\":[{\"name\":\"init\",\"securityContext\":{\"privileged\":true}}]}",
			   0, NULL);
	dsi_pss_pod pod;
	read_pod(NULL, spec, 0, &pod);
	dsi_pss_result res;
	ds_error err;
	ck_assert_int_eq(dsi_pss_run_check(&pod, "privileged", 0, &res, &err), 0);
	ck_assert_str_eq(res.detail,
			 "containers \"init\", \"main\", \"debug\" must not set securityContext.privileged=true");
	dsi_pss_result_free(&res);
	ck_assert_int_eq(pod.containers[2].list, DSI_PSS_EPHEMERAL_CONTAINERS);
	ck_assert_int_eq(dsi_pss_run_check(&pod, "hostProbesAndHostLifecycle", 33, &res, &err), DS_ENOTFOUND);
	ck_assert_int_eq(dsi_pss_run_check(&pod, "noSuchCheck", 37, &res, &err), DS_ENOTFOUND);
	dsi_pss_pod_free(&pod);
	json_decref(spec);
}
END_TEST

/* AggregateCheckResults, ForbiddenReason, ForbiddenDetail and the admission texts. */
START_TEST(aggregation_and_messages)
{
	dsi_pss_violation v[3] = {
		{"hostNamespaces", "host namespaces", (char *)"hostNetwork=true"},
		{"x", "unknown forbidden reason", NULL},
		{"privileged", "privileged", (char *)"container \"a\" must not set securityContext.privileged=true"},
	};
	dsi_pss_eval e = {0, 37, v, 3};
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_pss_forbidden_reason(&e, &b);
	ck_assert_str_eq(b.data, "host namespaces, unknown forbidden reason, privileged");
	dsi_strbuf_truncate(&b, 0);
	dsi_pss_forbidden_detail(&e, &b);
	ck_assert_str_eq(b.data,
			 "host namespaces (hostNetwork=true), unknown forbidden reason, privileged (container \"a\" "
			 "must not set securityContext.privileged=true)");
	dsi_strbuf_truncate(&b, 0);
	e.n = 1;
	dsi_pss_warning(&b, "restricted", "latest", &e);
	ck_assert_str_eq(b.data, "would violate PodSecurity \"restricted:latest\": host namespaces (hostNetwork=true)");
	dsi_strbuf_truncate(&b, 0);
	dsi_pss_forbidden_message(&b, "web-0", "baseline", "v1.30", &e);
	ck_assert_str_eq(b.data,
			 "pods \"web-0\" is forbidden: violates PodSecurity \"baseline:v1.30\": host namespaces "
			 "(hostNetwork=true)");
	dsi_strbuf_truncate(&b, 0);
	dsi_pss_forbidden_message(&b, "", "baseline", "latest", &e);
	ck_assert_str_eq(
		b.data,
		"pods is forbidden: violates PodSecurity \"baseline:latest\": host namespaces (hostNetwork=true)");
	dsi_strbuf_free(&b);
}
END_TEST

static int reasonless(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	(void)pod;
	res->allowed = 0;
	res->reason = "";
	return 0;
}

START_TEST(unknown_forbidden_reason)
{
	static const dsi_pss_revision revs[] = {{0, reasonless, NULL}};
	static const dsi_pss_check checks[] = {{"silent", DSI_PSS_BASELINE, revs, 1}};
	dsi_pss_pod pod;
	read_pod(NULL, NULL, 0, &pod);
	dsi_pss_eval e;
	ds_error err;
	ck_assert_int_eq(dsi_pss_evaluate_checks(checks, 1, &pod, DSI_PSS_BASELINE, 0, DSI_PSS_LATEST, &e, &err), 0);
	ck_assert_int_eq(e.allowed, 0);
	ck_assert_uint_eq(e.n, 1);
	ck_assert_str_eq(e.v[0].reason, "unknown forbidden reason");
	ck_assert_ptr_null(e.v[0].detail);
	dsi_pss_eval_free(&e);
	dsi_pss_pod_free(&pod);
}
END_TEST

/* fmt's %q as the AppArmor and seccomp annotation details print values. */
START_TEST(go_quote)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{"unconfined", "\"unconfined\""},
		{"", "\"\""},
		{"a\"b\\c", "\"a\\\"b\\\\c\""},
		{"tab\there\n", "\"tab\\there\\n\""},
		{"\x01\x7f", "\"\\x01\\x7f\""},
		{"\a\b\f\r\v", "\"\\a\\b\\f\\r\\v\""},
		{"caf\xc3\xa9", "\"caf\xc3\xa9\""},
		{"nb\xc2\xa0sp", "\"nb\\u00a0sp\""},
		{"\xe2\x80\xa8", "\"\\u2028\""},
		{"\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""},
		{"\xf3\xa0\x80\x81", "\"\\U000e0001\""},
		{"bad\xff", "\"bad\\xff\""},
		/* noncharacters and unassigned format code points are not printable (unicode.IsPrint) */
		{"\xef\xb7\x90", "\"\\ufdd0\""},
		{"\xe2\x81\xa5", "\"\\u2065\""},
		{"\xef\xbf\xbe", "\"\\ufffe\""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_go_quote(&b, cases[i].in, strlen(cases[i].in));
		ck_assert_msg(strcmp(b.data, cases[i].want) == 0, "case %zu: %s", i, b.data);
		dsi_strbuf_free(&b);
	}
	/* through the AppArmor check: annotation values are %q-quoted, then joinQuote wraps them */
	json_t *meta =
		json_pack("{s:{s:s}}", "annotations", "container.apparmor.security.beta.kubernetes.io/a", "un\"conf\n");
	dsi_pss_pod pod;
	read_pod(meta, NULL, 0, &pod);
	dsi_pss_result res;
	ds_error err;
	ck_assert_int_eq(dsi_pss_run_check(&pod, "appArmorProfile", 37, &res, &err), 0);
	ck_assert_str_eq(res.reason, "forbidden AppArmor profile");
	ck_assert_str_eq(res.detail, "annotation must not set AppArmor profile type to "
				     "\"container.apparmor.security.beta.kubernetes.io/a=\"un\\\"conf\\n\"\"");
	dsi_pss_result_free(&res);
	dsi_pss_pod_free(&pod);
	json_decref(meta);
}
END_TEST

/* Every field is type-checked: a wrong type is DS_ETYPE with the field's full path, never a crash. */
START_TEST(wrong_types_have_paths)
{
	static const struct {
		const char *json;
		int code;
		const char *path;
	} cases[] = {
		{"{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"a\"},{\"name\":\"b\","
		 "\"securityContext\":"
		 "{\"privileged\":\"yes\"}}]}}}}",
		 DS_ETYPE, "spec.template.spec.containers[1].securityContext.privileged"},
		{"{\"spec\":{\"template\":{\"spec\":{\"hostNetwork\":\"true\"}}}}", DS_ETYPE,
		 "spec.template.spec.hostNetwork"},
		{"{\"spec\":{\"template\":{\"spec\":{\"initContainers\":{}}}}}", DS_ETYPE,
		 "spec.template.spec.initContainers"},
		{"{\"spec\":{\"template\":{\"spec\":{\"containers\":[5]}}}}", DS_ETYPE,
		 "spec.template.spec.containers[0]"},
		{"{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"securityContext\":{\"capabilities\":{\"add\":"
		 "[\"NET_ADMIN\",7]}}}]}}}}",
		 DS_ETYPE, "spec.template.spec.containers[0].securityContext.capabilities.add[1]"},
		{"{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"ports\":[{\"hostPort\":\"80\"}]}]}}}}",
		 DS_ETYPE, "spec.template.spec.containers[0].ports[0].hostPort"},
		{"{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"ports\":[{\"containerPort\":4294967296}]}]}}}}",
		 DS_ETYPE, "spec.template.spec.containers[0].ports[0].containerPort"},
		{"{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"ports\":[{\"hostPort\":80.5}]}]}}}}", DS_ETYPE,
		 "spec.template.spec.containers[0].ports[0].hostPort"},
		{"{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"container.apparmor.security.beta."
		 "kubernetes.io/a\""
		 ":1}}}}}",
		 DS_ETYPE, "spec.template.metadata.annotations[\"container.apparmor.security.beta.kubernetes.io/a\"]"},
		{"{\"spec\":{\"template\":{\"spec\":{\"volumes\":[{\"name\":\"v\",\"hostPath\":\"/\"}]}}}}", DS_ETYPE,
		 "spec.template.spec.volumes[0].hostPath"},
		{"{\"spec\":{\"template\":{\"spec\":{\"volumes\":[{\"name\":\"v\",\"hostPath\":{\"path\":1}}]}}}}",
		 DS_ETYPE, "spec.template.spec.volumes[0].hostPath.path"},
		{"{\"spec\":{\"template\":{\"spec\":{\"securityContext\":{\"sysctls\":[{\"name\":true}]}}}}}", DS_ETYPE,
		 "spec.template.spec.securityContext.sysctls[0].name"},
		{"{\"spec\":{\"template\":{\"spec\":{\"securityContext\":{\"seccompProfile\":{\"type\":[]}}}}}}",
		 DS_ETYPE, "spec.template.spec.securityContext.seccompProfile.type"},
		{"{\"spec\":{\"template\":{\"spec\":{\"ephemeralContainers\":[{\"livenessProbe\":{\"httpGet\":{"
		 "\"host\":1}}}]}}}}",
		 DS_ETYPE, "spec.template.spec.ephemeralContainers[0].livenessProbe.httpGet.host"},
		{"{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"lifecycle\":{\"preStop\":{\"tcpSocket\":\"x\"}}"
		 "}]}}}}",
		 DS_ETYPE, "spec.template.spec.containers[0].lifecycle.preStop.tcpSocket"},
		{"{\"spec\":{\"template\":{\"spec\":{\"securityContext\":{\"runAsUser\":\"0\"}}}}}", DS_ETYPE,
		 "spec.template.spec.securityContext.runAsUser"},
		{"{\"spec\":{\"template\":{\"spec\":{\"hostUsers\":0}}}}", DS_ETYPE, "spec.template.spec.hostUsers"},
		{"{\"spec\":{\"template\":{\"spec\":{\"os\":{\"name\":false}}}}}", DS_ETYPE,
		 "spec.template.spec.os.name"},
		{"{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"volumeMounts\":[{\"readOnly\":\"true\"}]}]}}}}",
		 DS_ETYPE, "spec.template.spec.containers[0].volumeMounts[0].readOnly"},
		{"{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"securityContext\":{\"windowsOptions\":{"
		 "\"hostProcess\""
		 ":1}}}]}}}}",
		 DS_ETYPE, "spec.template.spec.containers[0].securityContext.windowsOptions.hostProcess"},
		{"{\"spec\":{\"template\":[]}}", DS_ETYPE, "spec.template"},
		{"{\"kind\":\"CronJob\",\"spec\":{\"jobTemplate\":{\"spec\":{\"template\":{\"spec\":{\"containers\":[{"
		 "\"securityContext\":{\"seLinuxOptions\":{\"user\":2}}}]}}}}}}",
		 DS_ETYPE, "spec.jobTemplate.spec.template.spec.containers[0].securityContext.seLinuxOptions.user"},
		{"{\"kind\":\"Pod\",\"spec\":{\"containers\":[{\"securityContext\":{\"procMount\":1}}]}}", DS_ETYPE,
		 "spec.containers[0].securityContext.procMount"},
		{"{\"kind\":7}", DS_ETYPE, "kind"},
		{"{\"kind\":\"Service\",\"spec\":{}}", DS_EUNSUPPORTED, "kind"},
		{"{\"metadata\":{}}", DS_EMISSING, "kind"},
		{"[1]", DS_ETYPE, ""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_error_t je;
		json_t *obj = json_loads(cases[i].json, JSON_DECODE_ANY, &je);
		ck_assert_msg(obj != NULL, "case %zu: %s", i, je.text);
		ds_error err;
		ds_error_clear(&err);
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		dsi_pss_target t;
		int rc = dsi_pss_find_target(&rd, obj, &t);
		if (rc == 0) {
			dsi_pss_rd_at(&rd, &err, t.path);
			dsi_pss_pod pod;
			rc = t.tmpl ? dsi_pss_pod_read(&rd, t.tmpl, DSI_PSS_DEFAULT_VOLUMES, &pod) : 0;
			if (rc == 0 && t.tmpl)
				dsi_pss_pod_free(&pod);
		}
		ck_assert_msg(rc == cases[i].code, "case %zu: rc %d, want %d (%s: %s)", i, rc, cases[i].code, err.path,
			      err.message);
		ck_assert_error(err, cases[i].code, cases[i].path);
		json_decref(obj);
	}
}
END_TEST

/* Where the pod is for each kind (DefaultPodSpecExtractor). */
START_TEST(targets)
{
	static const struct {
		const char *json, *path;
		int is_pod, has_tmpl;
	} cases[] = {
		{"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{}}", "", 1, 1},
		{"{\"kind\":\"DaemonSet\",\"spec\":{\"template\":{}}}", "spec.template", 0, 1},
		{"{\"kind\":\"Deployment\",\"spec\":{}}", "spec.template", 0, 0},
		{"{\"kind\":\"CronJob\",\"spec\":{\"jobTemplate\":{\"spec\":{\"template\":{}}}}}",
		 "spec.jobTemplate.spec.template", 0, 1},
		{"{\"kind\":\"PodTemplate\",\"template\":{}}", "template", 0, 1},
		{"{\"kind\":\"ReplicationController\",\"spec\":{}}", "spec.template", 0, 0},
		{"{\"kind\":\"Rollout\",\"spec\":{\"template\":{}}}", "spec.template", 0, 1},
		{"{\"spec\":{\"template\":{}}}", "spec.template", 0, 1},
		{"{\"spec\":{\"containers\":[]}}", "", 1, 1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *obj = json_loads(cases[i].json, 0, NULL);
		ds_error err;
		dsi_rd rd;
		dsi_rd_init(&rd, &err);
		dsi_pss_target t;
		ck_assert_msg(dsi_pss_find_target(&rd, obj, &t) == 0, "case %zu: %s", i, err.message);
		ck_assert_str_eq(t.path, cases[i].path);
		ck_assert_int_eq(t.is_pod, cases[i].is_pod);
		ck_assert_int_eq(t.tmpl != NULL, cases[i].has_tmpl);
		json_decref(obj);
	}
}
END_TEST

/* ds_pod_security_evaluate: the API server's defaults before the checks (admission's view), or the
 * checks alone; and "latest" bounded by kubernetesVersion is said in the result. */
START_TEST(defaulting_and_latest_are_explicit)
{
	/* with hostNetwork, SetDefaults_Pod makes hostPort = containerPort: baseline's hostPorts check sees 80 */
	static const char pod[] = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
				  "\"spec\":{\"hostNetwork\":true,\"containers\":[{\"name\":\"c\",\"ports\":"
				  "[{\"containerPort\":80}]}]}}";
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_pod_security_evaluate(pod, strlen(pod), "baseline", "latest", NULL, &out, &err), 0);
	json_t *r = dsi_test_take_json(out);
	char *v = json_dumps(json_object_get(r, "violations"), JSON_COMPACT);
	ck_assert_ptr_nonnull(strstr(v, "hostPort"));
	free(v);
	/* the default release (kubernetesVersion 1.35) bounds "latest" below the newest checks: said */
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r, "latest"), "evaluatedAs")), "v1.35");
	json_decref(r);
	ds_options *newest = dsi_test_options("{\"kubernetesVersion\": \"1.99\"}");
	ck_assert_int_eq(ds_pod_security_evaluate(pod, strlen(pod), "baseline", "latest", newest, &out, &err), 0);
	r = dsi_test_take_json(out);
	ck_assert_ptr_null(json_object_get(r, "latest")); /* nothing bounds it: the newest checks run */
	json_decref(r);
	ds_options_free(newest);
	ds_options *o = dsi_test_options("{\"podSecurityDefaulting\": false}");
	ck_assert_int_eq(ds_pod_security_evaluate(pod, strlen(pod), "baseline", "latest", o, &out, &err), 0);
	r = dsi_test_take_json(out);
	v = json_dumps(json_object_get(r, "violations"), JSON_COMPACT);
	ck_assert_ptr_null(strstr(v, "hostPort")); /* the check alone: no port is a host port */
	ck_assert_ptr_nonnull(strstr(v, "hostNetwork"));
	free(v);
	json_decref(r);
	ds_options_free(o);
	/* an older release: "latest" is that release's checks, and the result says so */
	o = dsi_test_options("{\"kubernetesVersion\": \"1.24\"}");
	ck_assert_int_eq(ds_pod_security_evaluate(pod, strlen(pod), "restricted", "latest", o, &out, &err), 0);
	r = dsi_test_take_json(out);
	ck_assert_str_eq(json_string_value(json_object_get(r, "effectiveVersion")), "v1.24");
	json_t *note = json_object_get(r, "latest");
	ck_assert_str_eq(json_string_value(json_object_get(note, "evaluatedAs")), "v1.24");
	ck_assert_ptr_nonnull(json_string_value(json_object_get(note, "newestChecks")));
	json_decref(r);
	/* a version asked for by name is not "latest": no note */
	ck_assert_int_eq(ds_pod_security_evaluate(pod, strlen(pod), "restricted", "v1.20", o, &out, &err), 0);
	r = dsi_test_take_json(out);
	ck_assert_ptr_null(json_object_get(r, "latest"));
	json_decref(r);
	ds_options_free(o);
}
END_TEST

static Suite *pss_suite(void)
{
	Suite *s = suite_create("pss");
	TCase *tc = tcase_create("pss");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, parse_levels_and_versions);
	tcase_add_test(tc, registry_selection);
	tcase_add_test(tc, default_order_and_overrides);
	tcase_add_test(tc, check_tables);
	tcase_add_test(tc, fixtures);
	tcase_add_test(tc, revision_boundaries);
	tcase_add_test(tc, sourceless_volume_defaulting);
	tcase_add_test(tc, host_network_host_ports);
	tcase_add_test(tc, container_walk_order);
	tcase_add_test(tc, aggregation_and_messages);
	tcase_add_test(tc, unknown_forbidden_reason);
	tcase_add_test(tc, go_quote);
	tcase_add_test(tc, wrong_types_have_paths);
	tcase_add_test(tc, targets);
	tcase_add_test(tc, defaulting_and_latest_are_explicit);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(pss_suite)
