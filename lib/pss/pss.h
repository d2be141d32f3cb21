/*
 * Pod Security Standards as kubernetes/pod-security-admission evaluates them:
 * a typed view of a pod (metadata + spec), every check with its versioned
 * revisions, the registry that picks the checks for a level and version
 * (overrides, order), aggregation into ForbiddenReason/ForbiddenDetail, and
 * the admission messages.
 *
 * The checks never invent rules: what pod-security-admission does not check
 * (readOnlyRootFilesystem, hostPath paths, tolerations, ...) belongs to the
 * DaemonSet risk audit (ops/audit.h).
 */
#ifndef DSI_PSS_H
#define DSI_PSS_H

#include <jansson.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/gostr.h"
#include "core/reader.h"
#include "core/strbuf.h"

/* ---- levels and versions (api/helpers.go) -------------------------------- */

typedef enum dsi_pss_level {
	DSI_PSS_PRIVILEGED = 0,
	DSI_PSS_BASELINE = 1,
	DSI_PSS_RESTRICTED = 2,
} dsi_pss_level;

/* "latest" as a minor version: newer than any v1.N. */
#define DSI_PSS_LATEST INT_MAX

/* ParseLevel: "privileged", "baseline" or "restricted"; -1 otherwise. */
int dsi_pss_parse_level(const char *s, dsi_pss_level *out);
const char *dsi_pss_level_name(dsi_pss_level level);
/* ParseVersion: "latest" or ^v1\.(0|[1-9][0-9]*)$ into a minor (DSI_PSS_LATEST
 * for latest; minors beyond INT_MAX-1 saturate, they clamp anyway); -1 otherwise. */
int dsi_pss_parse_version(const char *s, int *minor);
/* "v1.N", or "latest" for DSI_PSS_LATEST, into buf (16 bytes are enough). */
void dsi_pss_version_string(int minor, char *buf, size_t size);

/* ---- the pod view ------------------------------------------------------------ */

/* An optional boolean: unset, false or true. */
enum { DSI_PSS_UNSET = -1 };

/* seccompProfile / appArmorProfile: present, and its type ("" when the object
 * has no type, which the checks treat as a bad value, as upstream does). */
typedef struct dsi_pss_profile {
	uint8_t set;
	const char *type;
	const char *localhost; /* localhostProfile, NULL when absent */
} dsi_pss_profile;

typedef struct dsi_pss_selinux {
	uint8_t set;
	const char *user, *role, *type, *level; /* "" when absent */
} dsi_pss_selinux;

/* A container's securityContext (the pod-level one is in dsi_pss_pod). */
typedef struct dsi_pss_sc {
	uint8_t set;
	int8_t privileged, allow_privilege_escalation, run_as_non_root, read_only_root_filesystem, host_process;
	uint8_t has_run_as_user;
	int64_t run_as_user;
	const char *proc_mount; /* NULL when unset */
	uint8_t has_capabilities;
	const char **cap_add, **cap_drop;
	uint32_t n_add, n_drop;
	dsi_pss_profile seccomp, apparmor;
	dsi_pss_selinux selinux;
} dsi_pss_sc;

typedef struct dsi_pss_port {
	int32_t container_port, host_port;
	uint8_t host_port_defaulted; /* host_port came from the hostNetwork default */
} dsi_pss_port;

typedef struct dsi_pss_mount {
	const char *name, *mount_path, *sub_path, *propagation; /* "" when absent */
	uint8_t read_only, sub_path_expr;
} dsi_pss_mount;

typedef enum dsi_pss_container_list {
	DSI_PSS_INIT_CONTAINERS = 0,
	DSI_PSS_CONTAINERS = 1,
	DSI_PSS_EPHEMERAL_CONTAINERS = 2,
} dsi_pss_container_list;

/* "initContainers", "containers", "ephemeralContainers" */
const char *dsi_pss_container_list_name(int list);

typedef struct dsi_pss_container {
	const char *name; /* "" when absent */
	uint8_t list;     /* dsi_pss_container_list */
	uint32_t index;   /* in its list */
	dsi_pss_sc sc;
	dsi_pss_port *ports;
	uint32_t n_ports;
	const char **probe_hosts; /* non-empty host of each probe and lifecycle handler, in visit order */
	uint32_t n_probe_hosts;
	dsi_pss_mount *mounts;
	uint32_t n_mounts;
} dsi_pss_container;

/* Volume sources in the order restrictedVolumes tests them: the allowed ones first. */
typedef enum dsi_pss_volume_source {
	DSI_VOL_CONFIG_MAP,
	DSI_VOL_CSI,
	DSI_VOL_DOWNWARD_API,
	DSI_VOL_EMPTY_DIR,
	DSI_VOL_EPHEMERAL,
	DSI_VOL_IMAGE,
	DSI_VOL_PERSISTENT_VOLUME_CLAIM,
	DSI_VOL_PROJECTED,
	DSI_VOL_SECRET,
	DSI_VOL_HOST_PATH, /* first restricted type */
	DSI_VOL_GCE_PERSISTENT_DISK,
	DSI_VOL_AWS_ELASTIC_BLOCK_STORE,
	DSI_VOL_GIT_REPO,
	DSI_VOL_NFS,
	DSI_VOL_ISCSI,
	DSI_VOL_GLUSTERFS,
	DSI_VOL_RBD,
	DSI_VOL_FLEX_VOLUME,
	DSI_VOL_CINDER,
	DSI_VOL_CEPHFS,
	DSI_VOL_FLOCKER,
	DSI_VOL_FC,
	DSI_VOL_AZURE_FILE,
	DSI_VOL_VSPHERE_VOLUME,
	DSI_VOL_QUOBYTE,
	DSI_VOL_AZURE_DISK,
	DSI_VOL_PHOTON_PERSISTENT_DISK,
	DSI_VOL_PORTWORX_VOLUME,
	DSI_VOL_SCALE_IO,
	DSI_VOL_STORAGEOS,
	DSI_VOL_UNKNOWN, /* no source at all */
	DSI_VOL_COUNT
} dsi_pss_volume_source;

/* The JSON field name of a source ("hostPath", ...), "unknown" for DSI_VOL_UNKNOWN. */
const char *dsi_pss_volume_source_name(int source);

typedef struct dsi_pss_volume {
	const char *name;
	uint8_t source;                         /* dsi_pss_volume_source */
	uint8_t has_host_path;                  /* hostPath present (hostPathVolumes looks only at this) */
	const char *host_path, *host_path_type; /* "" when absent */
	uint8_t defaulted;                      /* no source: the API server's default emptyDir applied */
} dsi_pss_volume;

typedef struct dsi_pss_annotation {
	const char *key, *value;
} dsi_pss_annotation;

typedef struct dsi_pss_pod {
	dsi_pss_annotation *annotations;
	uint32_t n_annotations;
	uint8_t host_network, host_pid, host_ipc;
	int8_t host_users;   /* spec.hostUsers */
	const char *os_name; /* spec.os.name, NULL when absent */
	/* spec.securityContext */
	uint8_t sc_set;
	int8_t run_as_non_root, host_process;
	uint8_t has_run_as_user;
	int64_t run_as_user;
	dsi_pss_profile seccomp, apparmor;
	dsi_pss_selinux selinux;
	const char **sysctls;
	uint32_t n_sysctls;
	/* visitContainers order: initContainers, containers, ephemeralContainers */
	dsi_pss_container *containers;
	uint32_t n_containers;
	dsi_pss_volume *volumes;
	uint32_t n_volumes;
	int8_t automount_sa_token;
	const char *service_account_name; /* "" when absent */
	void *arena_;                     /* owns the arrays */
} dsi_pss_pod;

/* The API server's defaulting before admission. */
enum {
	/* SetDefaults_Volume: a volume without a source becomes emptyDir (Pods and templates). */
	DSI_PSS_DEFAULT_VOLUMES = 1u << 0,
	/* SetDefaults_Pod: with hostNetwork, hostPort = containerPort for containers and
	 * initContainers (Pods only, not templates). */
	DSI_PSS_DEFAULT_HOST_PORTS = 1u << 1,
};

/*
 * Read a pod template (or a Pod): the object's "metadata" and "spec" members.
 * rd's path is where tmpl sits ("spec.template", "" for a Pod); a wrong type
 * anywhere is DS_ETYPE with the full path. Strings are borrowed from tmpl,
 * which must outlive the view. flags: DSI_PSS_DEFAULT_*.
 */
int dsi_pss_pod_read(dsi_rd *rd, const json_t *tmpl, unsigned flags, dsi_pss_pod *out);
void dsi_pss_pod_free(dsi_pss_pod *pod);

/* ---- checks and the registry (policy/checks.go, policy/registry.go) ---------- */

typedef struct dsi_pss_result {
	int allowed;
	const char *reason; /* static */
	char *detail;       /* owned, NULL when empty */
} dsi_pss_result;

/* A CheckPodFn: fills res; returns 0 or DS_ENOMEM. */
typedef int (*dsi_pss_check_fn)(const dsi_pss_pod *pod, dsi_pss_result *res);

typedef struct dsi_pss_revision {
	int min_minor;
	dsi_pss_check_fn fn;
	const char *const *overrides; /* NULL-terminated baseline IDs, or NULL */
} dsi_pss_revision;

typedef struct dsi_pss_check {
	const char *id;
	dsi_pss_level level;          /* baseline or restricted */
	const dsi_pss_revision *revs; /* strictly increasing min_minor */
	size_t n_revs;
} dsi_pss_check;

/* DefaultChecks: the checks pod-security-admission registers. */
const dsi_pss_check *dsi_pss_default_checks(size_t *n);
/* The newest MinimumVersion of any check: what "latest" means (v1.37). */
int dsi_pss_max_minor(const dsi_pss_check *checks, size_t n);
#define DSI_PSS_MAX_CHECKS 64

typedef struct dsi_pss_planned {
	const dsi_pss_check *check;
	const dsi_pss_revision *rev;
} dsi_pss_planned;

/*
 * The check revisions EvaluatePod runs for level at version minor, in order
 * (baseline IDs sorted bytewise, then restricted IDs), after clamping minor
 * to the newest version (lowered to emulation_minor when that is older;
 * DSI_PSS_LATEST for none). Returns the count; *effective gets the clamped minor.
 */
/* The newest version of the checks: what "latest" means when no emulation version bounds it. */
int dsi_pss_newest_minor(void);

size_t dsi_pss_plan(const dsi_pss_check *checks, size_t n, dsi_pss_level level, int minor, int emulation_minor,
		    dsi_pss_planned *out, int *effective);

typedef struct dsi_pss_violation {
	const char *check;
	const char *reason; /* "unknown forbidden reason" when the check gave none */
	char *detail;       /* owned, NULL when empty */
} dsi_pss_violation;

typedef struct dsi_pss_eval {
	int allowed;
	int minor; /* the version actually evaluated */
	dsi_pss_violation *v;
	size_t n;
} dsi_pss_eval;

/* EvaluatePod + AggregateCheckResults over the given checks. */
int dsi_pss_evaluate_checks(const dsi_pss_check *checks, size_t n, const dsi_pss_pod *pod, dsi_pss_level level,
			    int minor, int emulation_minor, dsi_pss_eval *out, ds_error *err);
/* The same over the default checks. */
int dsi_pss_evaluate(const dsi_pss_pod *pod, dsi_pss_level level, int minor, int emulation_minor, dsi_pss_eval *out,
		     ds_error *err);
void dsi_pss_eval_free(dsi_pss_eval *e);
/* Run the revision of one default check that is in force at minor. DS_ENOTFOUND
 * for an unknown ID or a version older than the check's first revision. */
int dsi_pss_run_check(const dsi_pss_pod *pod, const char *id, int minor, dsi_pss_result *res, ds_error *err);
void dsi_pss_result_free(dsi_pss_result *res);

/* AggregateCheckResult.ForbiddenReason / ForbiddenDetail, appended to b. */
void dsi_pss_forbidden_reason(const dsi_pss_eval *e, dsi_strbuf *b);
void dsi_pss_forbidden_detail(const dsi_pss_eval *e, dsi_strbuf *b);

/* ---- admission (admission/admission.go, response.go) --------------------------- */

/* `would violate PodSecurity "<level>:<version>": <detail>` (warnings, audit annotations). */
void dsi_pss_warning(dsi_strbuf *b, const char *level, const char *version, const dsi_pss_eval *e);
/* `violates PodSecurity "<level>:<version>": <detail>` */
void dsi_pss_violation_text(dsi_strbuf *b, const char *level, const char *version, const dsi_pss_eval *e);
/* NewForbidden for pods: `pods "<name>" is forbidden: violates PodSecurity ...`
 * (`pods is forbidden: ...` when name is empty). */
void dsi_pss_forbidden_message(dsi_strbuf *b, const char *pod_name, const char *level, const char *version,
			       const dsi_pss_eval *e);

/* Where the pod (template) of an object is: DefaultPodSpecExtractor. */
typedef struct dsi_pss_target {
	const char *kind;       /* NULL when absent */
	const char *name;       /* NULL when absent */
	const char *namespace_; /* NULL when absent */
	const json_t *tmpl;     /* the object holding metadata + spec; NULL: nothing to evaluate */
	int is_pod;             /* the object is a Pod: tmpl is the object itself */
	char path[64];          /* tmpl's path: "", "spec.template", "template", "spec.jobTemplate.spec.template" */
} dsi_pss_target;

/* A reader positioned at path (a dotted path such as "spec.template"). */
static inline void dsi_pss_rd_at(dsi_rd *rd, ds_error *err, const char *path)
{
	dsi_rd_init(rd, err);
	size_t n = strlen(path);
	if (n >= sizeof(rd->path))
		n = sizeof(rd->path) - 1;
	memcpy(rd->path, path, n);
	rd->path[n] = '\0';
	rd->len = n;
}

/* Find the pod template of a Pod, a PodTemplate, a CronJob or any object with
 * spec.template. DS_ETYPE for wrong types, DS_EUNSUPPORTED for a kind without one. */
int dsi_pss_find_target(dsi_rd *rd, const json_t *obj, dsi_pss_target *out);

/* ---- text helpers (policy/helpers.go, Go's fmt) -------------------------------- */

/* A list of borrowed strings. */
typedef struct dsi_pss_strs {
	const char **v;
	size_t n, cap;
	int oom;
} dsi_pss_strs;

void dsi_pss_strs_add(dsi_pss_strs *s, const char *str);
/* Owned strings (freed by dsi_pss_strs_free_owned). */
void dsi_pss_strs_add_owned(dsi_pss_strs *s, char *str);
/* sets.List(): sort bytewise and drop duplicates. */
void dsi_pss_strs_sort_unique(dsi_pss_strs *s);
void dsi_pss_strs_free(dsi_pss_strs *s);
void dsi_pss_strs_free_owned(dsi_pss_strs *s);

/* joinQuote: "a", "b" (no escaping, as upstream). */
void dsi_pss_join_quote(dsi_strbuf *b, const char *const *v, size_t n);
/* strings.Join(v, sep) */
void dsi_pss_join(dsi_strbuf *b, const char *const *v, size_t n, const char *sep);
/* pluralize */
static inline const char *dsi_pss_plural(const char *singular, const char *plural, size_t n)
{
	return n == 1 ? singular : plural;
}

/* `<N(container)> <joinQuote(names)>`, e.g. `containers "a", "b"`. */
void dsi_pss_containers_phrase(dsi_strbuf *b, const dsi_pss_strs *names);
/* A finished detail string, or DS_ENOMEM. Consumes b. */
int dsi_pss_finish(dsi_pss_result *res, const char *reason, dsi_strbuf *b);
/* The verdict of a check that lists what breaks its one rule (containers, volumes): allowed when names is
 * empty, else the detail `<N(noun)> <joinQuote(names)><suffix>`; DS_ENOMEM when names ran out of memory.
 * Frees names. */
int dsi_pss_names_verdict(dsi_pss_result *res, const char *reason, dsi_pss_strs *names, const char *singular,
			  const char *plural, const char *suffix);

/* ---- the check functions, by family ------------------------------------------- */

/* pss_host.c */
int dsi_pss_host_namespaces_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_host_ports_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_host_probes_1_34(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_windows_host_process_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
/* pss_privilege.c */
int dsi_pss_privileged_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_capabilities_baseline_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_allow_privilege_escalation_1_8(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_allow_privilege_escalation_1_25(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_capabilities_restricted_1_22(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_capabilities_restricted_1_25(const dsi_pss_pod *pod, dsi_pss_result *res);
/* The baseline capability allow-list (capabilities_allowed_1_0). */
int dsi_pss_capability_in_baseline(const char *cap);
/* pss_profiles.c */
int dsi_pss_apparmor_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_selinux_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_selinux_1_31(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_seccomp_baseline_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_seccomp_baseline_1_19(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_seccomp_restricted_1_19(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_seccomp_restricted_1_25(const dsi_pss_pod *pod, dsi_pss_result *res);
/* validSeccomp / allowedProfileType: "RuntimeDefault" or "Localhost". */
int dsi_pss_profile_type_allowed(const char *type);
/* pss_users.c */
int dsi_pss_proc_mount_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_proc_mount_1_35(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_run_as_non_root_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_run_as_non_root_1_35(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_run_as_user_1_23(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_run_as_user_1_35(const dsi_pss_pod *pod, dsi_pss_result *res);
/* relaxPolicyForUserNamespacePod: spec.hostUsers is explicitly false. */
static inline int dsi_pss_user_namespace(const dsi_pss_pod *pod) { return pod->host_users == 0; }
/* pss_volumes.c */
int dsi_pss_host_path_volumes_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_restricted_volumes_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
/* pss_sysctls.c */
int dsi_pss_sysctls_1_0(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_sysctls_1_27(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_sysctls_1_29(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_sysctls_1_32(const dsi_pss_pod *pod, dsi_pss_result *res);
int dsi_pss_sysctls_1_37(const dsi_pss_pod *pod, dsi_pss_result *res);
/* The newest allow-list (v1.37): the namespaced "safe" sysctls. */
int dsi_pss_sysctl_safe(const char *name);

#endif
