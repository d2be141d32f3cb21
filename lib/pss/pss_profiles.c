/* Checks on confinement profiles: AppArmor, SELinux, seccomp (baseline and restricted). */
#include <string.h>

#include "core/alloc.h"
#include "pss/pss.h"

static int has_prefix(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* validSeccomp (check_seccompProfile_baseline.go) and allowedProfileType (check_appArmorProfile.go) */
int dsi_pss_profile_type_allowed(const char *type)
{
	return strcmp(type, "RuntimeDefault") == 0 || strcmp(type, "Localhost") == 0;
}

/* `key="value"` with Go's %q for the value */
static char *key_eq_quoted(const char *key, const char *value)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_strbuf_puts(&b, key);
	dsi_strbuf_putc(&b, '=');
	dsi_go_quote(&b, value, strlen(value));
	if (b.oom) {
		dsi_strbuf_free(&b);
		return NULL;
	}
	return dsi_strbuf_detach(&b);
}

/* "pod", `containers "a"` and others joined with " and " */
static void setters(dsi_strbuf *b, int pod_bad, const dsi_pss_strs *names, const char *more)
{
	int first = 1;
	if (pod_bad) {
		dsi_strbuf_puts(b, "pod");
		first = 0;
	}
	if (names->n) {
		if (!first)
			dsi_strbuf_puts(b, " and ");
		dsi_pss_containers_phrase(b, names);
		first = 0;
	}
	if (more) {
		if (!first)
			dsi_strbuf_puts(b, " and ");
		dsi_strbuf_puts(b, more);
	}
}

#define APPARMOR_ANNOTATION_PREFIX "container.apparmor.security.beta.kubernetes.io/"

/* allowedAnnotationValue (check_appArmorProfile.go) */
static int apparmor_annotation_allowed(const char *v)
{
	return !*v || strcmp(v, "runtime/default") == 0 || has_prefix(v, "localhost/");
}

/* appArmorProfile_1_0 (policy/check_appArmorProfile.go) */
int dsi_pss_apparmor_1_0(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs names = {0}, values = {0}, annotations = {0};
	int pod_bad = pod->apparmor.set && !dsi_pss_profile_type_allowed(pod->apparmor.type);
	if (pod_bad)
		dsi_pss_strs_add(&values, pod->apparmor.type);
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		const dsi_pss_sc *sc = &pod->containers[i].sc;
		if (sc->apparmor.set && !dsi_pss_profile_type_allowed(sc->apparmor.type)) {
			dsi_pss_strs_add(&names, pod->containers[i].name);
			dsi_pss_strs_add(&values, sc->apparmor.type);
		}
	}
	/* annotation keys for containers that do not exist count too */
	for (uint32_t i = 0; i < pod->n_annotations; i++) {
		const dsi_pss_annotation *a = &pod->annotations[i];
		if (has_prefix(a->key, APPARMOR_ANNOTATION_PREFIX) && !apparmor_annotation_allowed(a->value))
			dsi_pss_strs_add_owned(&annotations, key_eq_quoted(a->key, a->value));
	}
	int rc = 0;
	if (names.oom || values.oom || annotations.oom) {
		rc = DS_ENOMEM;
	} else if (!pod_bad && !names.n && !annotations.n) {
		res->allowed = 1;
	} else {
		dsi_pss_strs_sort_unique(&values);
		dsi_pss_strs_sort_unique(&annotations); /* keys are distinct, so nothing is dropped */
		size_t total = values.n + annotations.n;
		dsi_strbuf b = DSI_STRBUF_INIT;
		setters(&b, pod_bad, &names,
			annotations.n ? dsi_pss_plural("annotation", "annotations", annotations.n) : NULL);
		dsi_strbuf_puts(&b, " must not set AppArmor profile type to ");
		dsi_pss_join_quote(&b, values.v, values.n);
		if (values.n && annotations.n)
			dsi_strbuf_puts(&b, ", ");
		dsi_pss_join_quote(&b, annotations.v, annotations.n);
		rc = dsi_pss_finish(
			res, dsi_pss_plural("forbidden AppArmor profile", "forbidden AppArmor profiles", total), &b);
	}
	dsi_pss_strs_free(&names);
	dsi_pss_strs_free(&values);
	dsi_pss_strs_free_owned(&annotations);
	return rc;
}

/* seLinuxOptions (policy/check_seLinuxOptions.go) with the allowed types of a revision */
static int selinux_check(const dsi_pss_pod *pod, const char *const *allowed_types, dsi_pss_result *res)
{
	dsi_pss_strs names = {0}, types = {0};
	int set_user = 0, set_role = 0, pod_bad = 0;
	for (uint32_t i = 0; i <= pod->n_containers; i++) {
		/* the pod first (i == 0), then container i-1 */
		const dsi_pss_selinux *o = i == 0 ? &pod->selinux : &pod->containers[i - 1].sc.selinux;
		if (!o->set)
			continue;
		int valid = 1;
		const char *const *t;
		for (t = allowed_types; *t && strcmp(*t, o->type) != 0; t++)
			;
		if (!*t) {
			valid = 0;
			dsi_pss_strs_add(&types, o->type);
		}
		if (*o->user)
			valid = 0, set_user = 1;
		if (*o->role)
			valid = 0, set_role = 1;
		if (valid)
			continue;
		if (i == 0)
			pod_bad = 1;
		else
			dsi_pss_strs_add(&names, pod->containers[i - 1].name);
	}
	int rc = 0;
	if (names.oom || types.oom) {
		rc = DS_ENOMEM;
	} else if (!pod_bad && !names.n) {
		res->allowed = 1;
	} else {
		dsi_pss_strs_sort_unique(&types);
		dsi_strbuf b = DSI_STRBUF_INIT;
		setters(&b, pod_bad, &names, NULL);
		dsi_strbuf_puts(&b, " set forbidden securityContext.seLinuxOptions: ");
		const char *sep = "";
		if (types.n) {
			dsi_strbuf_printf(&b, "%s ", dsi_pss_plural("type", "types", types.n));
			dsi_pss_join_quote(&b, types.v, types.n);
			sep = "; ";
		}
		if (set_user) {
			dsi_strbuf_printf(&b, "%suser may not be set", sep);
			sep = "; ";
		}
		if (set_role)
			dsi_strbuf_printf(&b, "%srole may not be set", sep);
		rc = dsi_pss_finish(res, "seLinuxOptions", &b);
	}
	dsi_pss_strs_free(&names);
	dsi_pss_strs_free(&types);
	return rc;
}

/* seLinuxOptions1_0 (policy/check_seLinuxOptions.go) */
int dsi_pss_selinux_1_0(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	static const char *const allowed[] = {"", "container_t", "container_init_t", "container_kvm_t", NULL};
	return selinux_check(pod, allowed, res);
}

/* seLinuxOptions1_31 (policy/check_seLinuxOptions.go): container_engine_t allowed too */
int dsi_pss_selinux_1_31(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	static const char *const allowed[] = {
		"", "container_t", "container_init_t", "container_kvm_t", "container_engine_t", NULL};
	return selinux_check(pod, allowed, res);
}

#define SECCOMP_POD_ANNOTATION "seccomp.security.alpha.kubernetes.io/pod"
#define SECCOMP_CONTAINER_PREFIX "container.seccomp.security.alpha.kubernetes.io/"

/* validSeccompAnnotationValue (check_seccompProfile_baseline.go): "" is not valid */
static int seccomp_annotation_allowed(const char *v)
{
	return strcmp(v, "runtime/default") == 0 || strcmp(v, "docker/default") == 0 || has_prefix(v, "localhost/");
}

static const dsi_pss_annotation *find_annotation(const dsi_pss_pod *pod, const char *key, size_t klen_a,
						 const char *key_b)
{
	for (uint32_t i = 0; i < pod->n_annotations; i++) {
		const char *k = pod->annotations[i].key;
		if (strncmp(k, key, klen_a) == 0 && strcmp(k + klen_a, key_b) == 0)
			return &pod->annotations[i];
	}
	return NULL;
}

/* seccompProfileBaseline_1_0 (policy/check_seccompProfile_baseline.go): the alpha annotations */
int dsi_pss_seccomp_baseline_1_0(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs forbidden = {0};
	const dsi_pss_annotation *a = find_annotation(pod, SECCOMP_POD_ANNOTATION, strlen(SECCOMP_POD_ANNOTATION), "");
	if (a && !seccomp_annotation_allowed(a->value))
		dsi_pss_strs_add_owned(&forbidden, key_eq_quoted(a->key, a->value));
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		a = find_annotation(pod, SECCOMP_CONTAINER_PREFIX, strlen(SECCOMP_CONTAINER_PREFIX),
				    pod->containers[i].name);
		if (!a || seccomp_annotation_allowed(a->value))
			continue;
		/* a set: a container name listed twice adds the annotation once */
		char *item = key_eq_quoted(a->key, a->value);
		size_t k;
		for (k = 0; item && k < forbidden.n && strcmp(forbidden.v[k], item) != 0; k++)
			;
		if (item && k < forbidden.n)
			dsi_free(item);
		else
			dsi_pss_strs_add_owned(&forbidden, item);
	}
	int rc = 0;
	if (forbidden.oom) {
		rc = DS_ENOMEM;
	} else if (!forbidden.n) {
		res->allowed = 1;
	} else {
		dsi_pss_strs_sort_unique(&forbidden);
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_strbuf_printf(&b, "forbidden %s ", dsi_pss_plural("annotation", "annotations", forbidden.n));
		dsi_pss_join(&b, forbidden.v, forbidden.n, ", ");
		rc = dsi_pss_finish(res, "seccompProfile", &b);
	}
	dsi_pss_strs_free_owned(&forbidden);
	return rc;
}

/* `<setters> must not set securityContext.seccompProfile.type to <values>` */
static void seccomp_bad(dsi_strbuf *b, int pod_bad, const dsi_pss_strs *names, dsi_pss_strs *values)
{
	dsi_pss_strs_sort_unique(values);
	setters(b, pod_bad, names, NULL);
	dsi_strbuf_puts(b, " must not set securityContext.seccompProfile.type to ");
	dsi_pss_join_quote(b, values->v, values->n);
}

/* seccompProfileBaseline_1_19 (policy/check_seccompProfile_baseline.go): fields; annotations ignored */
int dsi_pss_seccomp_baseline_1_19(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs names = {0}, values = {0};
	int pod_bad = pod->seccomp.set && !dsi_pss_profile_type_allowed(pod->seccomp.type);
	if (pod_bad)
		dsi_pss_strs_add(&values, pod->seccomp.type);
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		const dsi_pss_sc *sc = &pod->containers[i].sc;
		if (sc->seccomp.set && !dsi_pss_profile_type_allowed(sc->seccomp.type)) {
			dsi_pss_strs_add(&names, pod->containers[i].name);
			dsi_pss_strs_add(&values, sc->seccomp.type);
		}
	}
	int rc = 0;
	if (names.oom || values.oom) {
		rc = DS_ENOMEM;
	} else if (!pod_bad && !names.n) {
		res->allowed = 1;
	} else {
		dsi_strbuf b = DSI_STRBUF_INIT;
		seccomp_bad(&b, pod_bad, &names, &values);
		rc = dsi_pss_finish(res, "seccompProfile", &b);
	}
	dsi_pss_strs_free(&names);
	dsi_pss_strs_free(&values);
	return rc;
}

/* seccompProfileRestricted_1_19 (policy/check_seccompProfile_restricted.go) */
int dsi_pss_seccomp_restricted_1_19(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs bad = {0}, implicit = {0}, values = {0};
	int pod_bad = 0, pod_set = 0;
	if (pod->seccomp.set) {
		if (!dsi_pss_profile_type_allowed(pod->seccomp.type)) {
			pod_bad = 1;
			dsi_pss_strs_add(&values, pod->seccomp.type);
		} else {
			pod_set = 1;
		}
	}
	for (uint32_t i = 0; i < pod->n_containers; i++) {
		const dsi_pss_sc *sc = &pod->containers[i].sc;
		if (sc->seccomp.set) {
			if (!dsi_pss_profile_type_allowed(sc->seccomp.type)) {
				dsi_pss_strs_add(&bad, pod->containers[i].name);
				dsi_pss_strs_add(&values, sc->seccomp.type);
			}
		} else if (!pod_set) {
			dsi_pss_strs_add(&implicit, pod->containers[i].name);
		}
	}
	int rc = 0;
	dsi_strbuf b = DSI_STRBUF_INIT;
	if (bad.oom || implicit.oom || values.oom) {
		rc = DS_ENOMEM;
	} else if (pod_bad || bad.n) {
		seccomp_bad(&b, pod_bad, &bad, &values);
		rc = dsi_pss_finish(res, "seccompProfile", &b);
	} else if (implicit.n) {
		dsi_strbuf_puts(&b, "pod or ");
		dsi_pss_containers_phrase(&b, &implicit);
		dsi_strbuf_puts(&b,
				" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\"");
		rc = dsi_pss_finish(res, "seccompProfile", &b);
	} else {
		res->allowed = 1;
	}
	dsi_pss_strs_free(&bad);
	dsi_pss_strs_free(&implicit);
	dsi_pss_strs_free(&values);
	return rc;
}

/* seccompProfileRestricted_1_25 (policy/check_seccompProfile_restricted.go): Windows pods exempt */
int dsi_pss_seccomp_restricted_1_25(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	if (pod->os_name && strcmp(pod->os_name, "windows") == 0) {
		res->allowed = 1;
		return 0;
	}
	return dsi_pss_seccomp_restricted_1_19(pod, res);
}
