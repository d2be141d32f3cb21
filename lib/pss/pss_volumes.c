/* Checks on volumes: hostPath (baseline) and the restricted set of volume types. */
#include "pss/pss.h"

/* hostPathVolumes_1_0 (policy/check_hostPathVolumes.go): the path, readOnly and type are not looked at */
int dsi_pss_host_path_volumes_1_0(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs names = {0};
	for (uint32_t i = 0; i < pod->n_volumes; i++)
		if (pod->volumes[i].has_host_path)
			dsi_pss_strs_add(&names, pod->volumes[i].name);
	return dsi_pss_names_verdict(res, "hostPath volumes", &names, "volume", "volumes", "");
}

/* restrictedVolumes_1_0 (policy/check_restrictedVolumes.go): an allowed source anywhere wins;
 * otherwise the first restricted source names the type, "unknown" when there is none */
int dsi_pss_restricted_volumes_1_0(const dsi_pss_pod *pod, dsi_pss_result *res)
{
	dsi_pss_strs names = {0}, types = {0};
	for (uint32_t i = 0; i < pod->n_volumes; i++) {
		const dsi_pss_volume *v = &pod->volumes[i];
		if (v->source < DSI_VOL_HOST_PATH)
			continue;
		dsi_pss_strs_add(&names, v->name);
		dsi_pss_strs_add(&types, dsi_pss_volume_source_name(v->source));
	}
	int rc = 0;
	if (names.oom || types.oom) {
		rc = DS_ENOMEM;
	} else if (!names.n) {
		res->allowed = 1;
	} else {
		dsi_pss_strs_sort_unique(&types);
		dsi_strbuf b = DSI_STRBUF_INIT;
		dsi_strbuf_printf(&b, "%s ", dsi_pss_plural("volume", "volumes", names.n));
		dsi_pss_join_quote(&b, names.v, names.n);
		dsi_strbuf_printf(&b, " %s %s ", dsi_pss_plural("uses", "use", names.n),
				  dsi_pss_plural("restricted volume type", "restricted volume types", types.n));
		dsi_pss_join_quote(&b, types.v, types.n);
		rc = dsi_pss_finish(res, "restricted volume types", &b);
	}
	dsi_pss_strs_free(&names);
	dsi_pss_strs_free(&types);
	return rc;
}
