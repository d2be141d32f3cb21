/* The sysctls check: only the namespaced "safe" sysctls, an allow-list that grew over versions. */
#include <string.h>

#include "pss/pss.h"

/* sysctlsAllowedV1Dot0 ... V1Dot37 (policy/check_sysctls.go): each revision's list ends at its entry */
static const struct {
	const char *name;
	int since; /* the minor version that allows it */
} allowed[] = {
	{"kernel.shm_rmid_forced", 0},
	{"net.ipv4.ip_local_port_range", 0},
	{"net.ipv4.tcp_syncookies", 0},
	{"net.ipv4.ping_group_range", 0},
	{"net.ipv4.ip_unprivileged_port_start", 0},
	{"net.ipv4.ip_local_reserved_ports", 27},
	{"net.ipv4.tcp_keepalive_time", 29},
	{"net.ipv4.tcp_fin_timeout", 29},
	{"net.ipv4.tcp_keepalive_intvl", 29},
	{"net.ipv4.tcp_keepalive_probes", 29},
	{"net.ipv4.tcp_rmem", 32},
	{"net.ipv4.tcp_wmem", 32},
	{"net.ipv4.tcp_slow_start_after_idle", 37},
	{"net.ipv4.tcp_notsent_lowat", 37},
};

static int allowed_at(const char *name, int minor)
{
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		if (allowed[i].since <= minor && strcmp(allowed[i].name, name) == 0)
			return 1;
	return 0;
}

int dsi_pss_sysctl_safe(const char *name) { return allowed_at(name, 37); }

/* sysctls (policy/check_sysctls.go): bad names in spec order, duplicates kept, unquoted */
static int sysctls_check(const dsi_pss_pod *pod, int minor, dsi_pss_result *res)
{
	dsi_pss_strs bad = {0};
	for (uint32_t i = 0; i < pod->n_sysctls; i++)
		if (!allowed_at(pod->sysctls[i], minor))
			dsi_pss_strs_add(&bad, pod->sysctls[i]);
	int rc = 0;
	if (bad.oom) {
		rc = DS_ENOMEM;
	} else if (!bad.n) {
		res->allowed = 1;
	} else {
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_pss_join(&b, bad.v, bad.n, ", ");
		rc = dsi_pss_finish(res, "forbidden sysctls", &b);
	}
	dsi_pss_strs_free(&bad);
	return rc;
}

/* sysctlsV1Dot0 */
int dsi_pss_sysctls_1_0(const dsi_pss_pod *pod, dsi_pss_result *res) { return sysctls_check(pod, 0, res); }
/* sysctlsV1Dot27 */
int dsi_pss_sysctls_1_27(const dsi_pss_pod *pod, dsi_pss_result *res) { return sysctls_check(pod, 27, res); }
/* sysctlsV1Dot29 */
int dsi_pss_sysctls_1_29(const dsi_pss_pod *pod, dsi_pss_result *res) { return sysctls_check(pod, 29, res); }
/* sysctlsV1Dot32 */
int dsi_pss_sysctls_1_32(const dsi_pss_pod *pod, dsi_pss_result *res) { return sysctls_check(pod, 32, res); }
/* sysctlsV1Dot37 */
int dsi_pss_sysctls_1_37(const dsi_pss_pod *pod, dsi_pss_result *res) { return sysctls_check(pod, 37, res); }
