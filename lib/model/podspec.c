#include "model/podspec.h"

#include <string.h>

#include "core/alloc.h"
#include "core/optparse.h"
#include "model/meta.h"
#include "model/volumes.h"

void dsi_podspec_release(dsi_atoms *atoms, dsi_podspec *s)
{
	dsi_atom_unref(atoms, s->node_name);
	dsi_atom_unref(atoms, s->target_node);
	dsi_atom_unref(atoms, s->priority_class);
	dsi_resources_release(atoms, &s->requests);
	for (uint32_t i = 0; i < s->nports; i++)
		dsi_atom_unref(atoms, s->ports[i].ip);
	dsi_free(s->ports);
	dsi_labels_release(atoms, &s->node_selector);
	dsi_node_selector_release(atoms, &s->required);
	dsi_node_selector_release(atoms, &s->preferred);
	dsi_tolerations_release(atoms, &s->tolerations);
	dsi_pod_affinity_terms_release(atoms, &s->pod_affinity);
	dsi_pod_affinity_terms_release(atoms, &s->pod_anti_affinity);
	dsi_spread_constraints_release(atoms, &s->spread);
	dsi_disks_release(atoms, s->disks, s->ndisks);
	for (uint32_t i = 0; i < s->nvclaims; i++)
		dsi_atom_unref(atoms, s->vclaims[i].name);
	dsi_free(s->vclaims);
	dsi_pod_claims_release(atoms, &s->claims);
	memset(s, 0, sizeof(*s));
}

int dsi_target_node_name(const json_t *spec, const char **out)
{
	const char *nn = json_string_value(json_object_get(spec, "nodeName"));
	if (nn && *nn) {
		*out = nn;
		return 0;
	}
	json_t *terms =
		json_object_get(json_object_get(json_object_get(json_object_get(spec, "affinity"), "nodeAffinity"),
						"requiredDuringSchedulingIgnoredDuringExecution"),
				"nodeSelectorTerms");
	size_t i, j;
	json_t *term, *f;
	json_array_foreach(terms, i, term)
	{
		json_array_foreach(json_object_get(term, "matchFields"), j, f)
		{
			const char *key = json_string_value(json_object_get(f, "key"));
			const char *op = json_string_value(json_object_get(f, "operator"));
			if (!key || !op || strcmp(key, "metadata.name") != 0 || strcmp(op, "In") != 0)
				continue;
			json_t *vals = json_object_get(f, "values");
			/* the first metadata.name In requirement decides; it must name exactly one node */
			if (json_array_size(vals) != 1 || !json_is_string(json_array_get(vals, 0)))
				return -1;
			*out = json_string_value(json_array_get(vals, 0));
			return 0;
		}
	}
	return -1;
}

static int read_ports(dsi_rd *rd, dsi_atoms *atoms, const json_t *c, dsi_podspec *out, size_t *cap)
{
	json_t *ports;
	int rc = dsi_rd_array(rd, c, "ports", &ports);
	if (rc < 0 || !ports)
		return rc;
	size_t m = dsi_rd_push(rd, "ports"), i;
	json_t *p;
	json_array_foreach(ports, i, p)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		int32_t host_port, container_port;
		const char *proto, *ip;
		if ((rc = dsi_rd_expect_object(rd, p)) < 0 ||
		    (rc = dsi_rd_int32(rd, p, "hostPort", &host_port, NULL)) < 0 ||
		    (rc = dsi_rd_int32(rd, p, "containerPort", &container_port, NULL)) < 0 ||
		    (rc = dsi_rd_string(rd, p, "protocol", &proto)) < 0 ||
		    (rc = dsi_rd_string(rd, p, "hostIP", &ip)) < 0) {
			dsi_rd_pop(rd, m2);
			break;
		}
		uint8_t pr = DSI_PROTO_TCP;
		if (proto && *proto && strcmp(proto, "TCP") != 0) {
			if (strcmp(proto, "UDP") == 0)
				pr = DSI_PROTO_UDP;
			else if (strcmp(proto, "SCTP") == 0)
				pr = DSI_PROTO_SCTP;
			else {
				rc = dsi_rd_fail(rd, "protocol", DS_EVALUE,
						 "unsupported value \"%s\": expected one of \"TCP\", \"UDP\", \"SCTP\"",
						 proto);
				dsi_rd_pop(rd, m2);
				break;
			}
		}
		dsi_rd_pop(rd, m2);
		if (host_port <= 0) /* GetHostPorts ignores ports without a hostPort */
			continue;
		if (DSI_GROW(out->ports, *cap, (size_t)out->nports + 1) < 0) {
			rc = dsi_error_nomem(rd->err);
			break;
		}
		dsi_host_port *hp = &out->ports[out->nports];
		hp->port = host_port;
		hp->proto = pr;
		hp->ip = DSI_ATOM_NONE;
		if (ip && *ip && strcmp(ip, "0.0.0.0") != 0) {
			hp->ip = dsi_atom_intern_cstr(atoms, ip);
			if (hp->ip == DSI_ATOM_ERROR) {
				hp->ip = DSI_ATOM_NONE;
				rc = dsi_error_nomem(rd->err);
				break;
			}
		}
		out->nports++;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

/* Read containers or initContainers: their requests, restartPolicy and host ports. */
static int read_containers(dsi_rd *rd, dsi_atoms *atoms, const json_t *spec, const char *key, int init, int sidecars_on,
			   dsi_container_req **out, uint32_t *n, dsi_podspec *ps, size_t *ports_cap)
{
	json_t *arr;
	*out = NULL;
	*n = 0;
	int rc = dsi_rd_array(rd, spec, key, &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	*out = dsi_calloc(json_array_size(arr), sizeof(dsi_container_req));
	if (!*out)
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, key), i;
	json_t *c;
	json_array_foreach(arr, i, c)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		json_t *res;
		const char *policy;
		dsi_container_req *cr = &(*out)[*n];
		if ((rc = dsi_rd_expect_object(rd, c)) < 0 || (rc = dsi_rd_object(rd, c, "resources", &res)) < 0 ||
		    (rc = dsi_rd_string(rd, c, "restartPolicy", &policy)) < 0) {
			dsi_rd_pop(rd, m2);
			break;
		}
		/* PodRequests (component-helpers resource/helpers.go) counts a restartable init container as a
		 * sidecar whatever the gate; with SidecarContainers off the scheduler refuses the pod instead
		 * (NodeResourcesFit's PreFilter) */
		cr->restartable_init = (uint8_t)(init && policy && strcmp(policy, "Always") == 0);
		if (cr->restartable_init && !sidecars_on)
			ps->sidecar_gate_off = 1;
		if (res) {
			size_t m3 = dsi_rd_push(rd, "resources");
			rc = dsi_qlist_read(rd, atoms, res, "requests", &cr->requests);
			dsi_rd_pop(rd, m3);
		}
		(*n)++;
		/* GetHostPorts counts regular and restartable init containers only */
		if (rc == 0 && (!init || cr->restartable_init))
			rc = read_ports(rd, atoms, c, ps, ports_cap);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

static void free_containers(dsi_atoms *atoms, dsi_container_req *c, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		dsi_qlist_release(atoms, &c[i].requests);
	dsi_free(c);
}

static int read_requests(dsi_rd *rd, dsi_atoms *atoms, const json_t *spec, unsigned gates, dsi_podspec *out)
{
	dsi_container_req *cs = NULL, *is = NULL;
	uint32_t nc = 0, ni = 0;
	dsi_qlist pod_level = {0}, overhead = {0}, total = {0};
	size_t ports_cap = 0;
	json_t *res;
	int rc;
	if ((rc = read_containers(rd, atoms, spec, "containers", 0, 0, &cs, &nc, out, &ports_cap)) < 0 ||
	    (rc = read_containers(rd, atoms, spec, "initContainers", 1, (gates & DSI_GATE_SIDECAR_CONTAINERS) != 0, &is,
				  &ni, out, &ports_cap)) < 0 ||
	    (rc = dsi_qlist_read(rd, atoms, spec, "overhead", &overhead)) < 0 ||
	    (rc = dsi_rd_object(rd, spec, "resources", &res)) < 0)
		goto done;
	if (res) {
		size_t m = dsi_rd_push(rd, "resources");
		rc = dsi_qlist_read(rd, atoms, res, "requests", &pod_level);
		dsi_rd_pop(rd, m);
		if (rc < 0)
			goto done;
	}
	if (dsi_pod_requests(atoms, cs, nc, is, ni, &pod_level, &overhead, (gates & DSI_GATE_POD_LEVEL_RESOURCES) != 0,
			     &total) < 0) {
		rc = dsi_rd_fail(rd, NULL, DS_EVALUE, "the pod's resource requests overflow when added up");
		goto done;
	}
	size_t m = dsi_rd_push(rd, "containers"); /* the total is what overflows; name where requests live */
	rc = dsi_resources_from_qlist(rd, atoms, &total, &out->requests);
	dsi_rd_pop(rd, m);
done:
	free_containers(atoms, cs, nc);
	free_containers(atoms, is, ni);
	dsi_qlist_release(atoms, &pod_level);
	dsi_qlist_release(atoms, &overhead);
	dsi_qlist_release(atoms, &total);
	return rc;
}

/* The claim a volume names (persistentVolumeClaim or ephemeral), appended to out->vclaims. */
static int read_claim(dsi_rd *rd, dsi_atoms *atoms, const json_t *v, dsi_podspec *out)
{
	json_t *pvc = NULL, *eph = NULL;
	int rc = dsi_rd_object(rd, v, "persistentVolumeClaim", &pvc);
	if (rc == 0)
		rc = dsi_rd_object(rd, v, "ephemeral", &eph);
	if (rc < 0 || (!pvc && !eph))
		return rc;
	dsi_claim_ref ref = {DSI_ATOM_NONE, (uint8_t)(pvc == NULL)};
	if (pvc) {
		size_t m = dsi_rd_push(rd, "persistentVolumeClaim");
		rc = dsi_rd_atom(rd, atoms, pvc, "claimName", 1, &ref.name);
		dsi_rd_pop(rd, m);
	} else {
		rc = dsi_rd_atom(rd, atoms, v, "name", 1, &ref.name);
	}
	if (rc < 0)
		return rc;
	dsi_claim_ref *grown = dsi_reallocarray(out->vclaims, out->nvclaims + 1, sizeof(dsi_claim_ref));
	if (!grown) {
		dsi_atom_unref(atoms, ref.name);
		return dsi_error_nomem(rd->err);
	}
	out->vclaims = grown;
	out->vclaims[out->nvclaims++] = ref;
	return 0;
}

static int read_volumes(dsi_rd *rd, dsi_atoms *atoms, const json_t *spec, dsi_podspec *out)
{
	json_t *vols;
	int rc = dsi_rd_array(rd, spec, "volumes", &vols);
	if (rc < 0 || !vols)
		return rc;
	size_t m = dsi_rd_push(rd, "volumes"), i;
	json_t *v;
	json_array_foreach(vols, i, v)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		json_t *ed;
		rc = dsi_rd_expect_object(rd, v);
		if (rc == 0)
			rc = dsi_rd_object(rd, v, "emptyDir", &ed);
		if (rc == 0)
			rc = dsi_disk_read(rd, atoms, v, &out->disks, &out->ndisks);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
		if (ed) /* kubectl's localStorageFilter: any non-null emptyDir */
			out->has_emptydir = 1;
		if (json_is_object(v)) {
			const json_t *x;
			if ((x = json_object_get(v, "persistentVolumeClaim")) && !json_is_null(x))
				out->has_pvc = 1;
			if ((x = json_object_get(v, "ephemeral")) && !json_is_null(x))
				out->has_pvc = 1;
			if ((x = json_object_get(v, "csi")) && !json_is_null(x))
				out->has_csi = 1;
			static const char *const intree[] = DSI_INTREE_MIGRATABLE_KEYS;
			for (size_t k = 0; k < sizeof(intree) / sizeof(intree[0]); k++)
				if ((x = json_object_get(v, intree[k])) && !json_is_null(x))
					out->has_intree_inline = 1;
		}
		m2 = dsi_rd_push_index(rd, i);
		rc = read_claim(rd, atoms, v, out);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

static int read_affinity(dsi_rd *rd, dsi_atoms *atoms, const json_t *spec, unsigned flags, dsi_podspec *out)
{
	json_t *aff, *na;
	int rc = dsi_rd_object(rd, spec, "affinity", &aff);
	if (rc < 0 || !aff)
		return rc;
	size_t m = dsi_rd_push(rd, "affinity");
	int only = (flags & DSI_PODSPEC_PLACEMENT_ONLY) != 0; /* the required node affinity alone */
	rc = only ? 0 : dsi_pod_affinity_read(rd, atoms, aff, &out->pod_affinity, &out->pod_anti_affinity);
	if (rc == 0)
		rc = dsi_rd_object(rd, aff, "nodeAffinity", &na);
	if (rc == 0 && na && (flags & DSI_PODSPEC_PLACEMENT)) {
		size_t m2 = dsi_rd_push(rd, "nodeAffinity");
		rc = dsi_node_selector_read(rd, atoms, na, "requiredDuringSchedulingIgnoredDuringExecution",
					    &out->required);
		if (rc == 0 && !only)
			rc = dsi_preferred_terms_read(rd, atoms, na, "preferredDuringSchedulingIgnoredDuringExecution",
						      &out->preferred);
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	return rc;
}

/* What the scheduler reads of a spec besides placement: host namespaces, priority, grace period,
 * claims, spread constraints, volumes, requests (released by the caller on failure). */
static int read_scheduling(dsi_rd *rd, dsi_atoms *atoms, const json_t *spec, unsigned gates, dsi_podspec *out)
{
	int rc, b, present;
	const char *policy;
	if ((rc = dsi_rd_bool(rd, spec, "hostPID", &b, NULL)) < 0)
		return rc;
	out->host_pid = (uint8_t)b;
	if ((rc = dsi_rd_bool(rd, spec, "hostIPC", &b, NULL)) < 0)
		return rc;
	out->host_ipc = (uint8_t)b;
	if ((rc = dsi_rd_int32(rd, spec, "priority", &out->priority, &present)) < 0)
		return rc;
	out->has_priority = (uint8_t)present;
	if ((rc = dsi_rd_atom(rd, atoms, spec, "priorityClassName", 1, &out->priority_class)) < 0 ||
	    (rc = dsi_rd_string(rd, spec, "preemptionPolicy", &policy)) < 0)
		return rc;
	out->preempt_never = policy && strcmp(policy, "Never") == 0;
	if ((rc = dsi_rd_int64(rd, spec, "terminationGracePeriodSeconds", &out->termination_grace_seconds, &present)) <
	    0)
		return rc;
	if (!present)
		out->termination_grace_seconds = 30;
	if ((rc = dsi_pod_claims_read(rd, atoms, spec, &out->claims)) < 0)
		return rc;
	out->has_resource_claims = out->claims.n > 0;
	if ((rc = dsi_spread_constraints_read(rd, atoms, spec, &out->spread)) < 0)
		return rc;
	if ((rc = read_volumes(rd, atoms, spec, out)) < 0)
		return rc;
	return read_requests(rd, atoms, spec, gates, out);
}

int dsi_podspec_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *spec, unsigned flags, unsigned gates, dsi_podspec *out)
{
	memset(out, 0, sizeof(*out));
	out->termination_grace_seconds = 30;
	if (!spec)
		return 0;
	int rc, b;
	if ((rc = dsi_rd_atom(rd, atoms, spec, "nodeName", 1, &out->node_name)) < 0)
		goto fail;
	if ((rc = dsi_rd_bool(rd, spec, "hostNetwork", &b, NULL)) < 0)
		goto fail;
	out->host_network = (uint8_t)b;
	if ((!(flags & DSI_PODSPEC_PLACEMENT_ONLY) && (rc = read_scheduling(rd, atoms, spec, gates, out)) < 0) ||
	    (rc = read_affinity(rd, atoms, spec, flags, out)) < 0)
		goto fail;
	if (flags & DSI_PODSPEC_PLACEMENT) {
		if ((rc = dsi_labels_read(rd, atoms, spec, "nodeSelector", &out->node_selector)) < 0 ||
		    (rc = dsi_tolerations_read(rd, atoms, spec, "tolerations", &out->tolerations)) < 0)
			goto fail;
	}
	if (flags & DSI_PODSPEC_PLACEMENT_ONLY)
		return 0;
	const char *target;
	if (dsi_target_node_name(spec, &target) == 0) {
		out->target_node = dsi_atom_intern_cstr(atoms, target);
		if (out->target_node == DSI_ATOM_ERROR) {
			out->target_node = DSI_ATOM_NONE;
			rc = dsi_error_nomem(rd->err);
			goto fail;
		}
	}
	return 0;
fail:
	dsi_podspec_release(atoms, out);
	return rc;
}

int dsi_podspec_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_podspec *src, dsi_podspec *dst)
{
	memset(dst, 0, sizeof(*dst));
	dsi_podspec tmp = *src;
	tmp.requests.scalars = NULL;
	tmp.ports = NULL;
	tmp.node_selector.v = NULL;
	tmp.node_selector.n = 0;
	tmp.tolerations.v = NULL;
	tmp.tolerations.n = 0;
	tmp.node_name = tmp.target_node = tmp.priority_class = DSI_ATOM_NONE;
	memset(&tmp.required, 0, sizeof(tmp.required));
	memset(&tmp.preferred, 0, sizeof(tmp.preferred));
	memset(&tmp.pod_affinity, 0, sizeof(tmp.pod_affinity));
	memset(&tmp.pod_anti_affinity, 0, sizeof(tmp.pod_anti_affinity));
	memset(&tmp.spread, 0, sizeof(tmp.spread));
	tmp.disks = NULL;
	tmp.ndisks = 0;
	tmp.vclaims = NULL;
	tmp.nvclaims = 0;
	memset(&tmp.claims, 0, sizeof(tmp.claims));
	if (dsi_resources_copy_x(to, from, &src->requests, &tmp.requests) < 0)
		return -1;
	if (src->nports) {
		tmp.ports = dsi_malloc(src->nports * sizeof(dsi_host_port));
		if (!tmp.ports) {
			dsi_resources_release(to, &tmp.requests);
			return -1;
		}
		memcpy(tmp.ports, src->ports, src->nports * sizeof(dsi_host_port));
	}
	tmp.nports = src->nports;
	int failed = 0;
	for (uint32_t i = 0; i < tmp.nports; i++)
		tmp.ports[i].ip = dsi_atom_carry_or_none(to, from, src->ports[i].ip, &failed);
	tmp.node_name = dsi_atom_carry_or_none(to, from, src->node_name, &failed);
	tmp.target_node = dsi_atom_carry_or_none(to, from, src->target_node, &failed);
	tmp.priority_class = dsi_atom_carry_or_none(to, from, src->priority_class, &failed);
	/* placement parts are only parsed for templates, which are never copied this way */
	*dst = tmp;
	if (failed || dsi_labels_copy_x(to, from, &src->node_selector, &dst->node_selector) < 0 ||
	    dsi_tolerations_copy_x(to, from, &src->tolerations, &dst->tolerations) < 0 ||
	    dsi_pod_affinity_terms_copy_x(to, from, &src->pod_affinity, &dst->pod_affinity) < 0 ||
	    dsi_pod_affinity_terms_copy_x(to, from, &src->pod_anti_affinity, &dst->pod_anti_affinity) < 0 ||
	    dsi_spread_constraints_copy_x(to, from, &src->spread, &dst->spread) < 0 ||
	    dsi_disks_copy_x(to, from, src->disks, src->ndisks, &dst->disks) < 0 ||
	    dsi_pod_claims_copy_x(to, from, &src->claims, &dst->claims) < 0) {
		dsi_podspec_release(to, dst);
		return -1;
	}
	dst->ndisks = src->ndisks;
	if (src->nvclaims) {
		if (!(dst->vclaims = dsi_calloc(src->nvclaims, sizeof(dsi_claim_ref)))) {
			dsi_podspec_release(to, dst);
			return -1;
		}
		for (uint32_t i = 0; i < src->nvclaims; i++) {
			dst->vclaims[i].ephemeral = src->vclaims[i].ephemeral;
			dst->vclaims[i].name = dsi_atom_carry_or_none(to, from, src->vclaims[i].name, &failed);
			dst->nvclaims = i + 1;
		}
		if (failed) {
			dsi_podspec_release(to, dst);
			return -1;
		}
	}
	return 0;
}

int dsi_podspec_copy(dsi_atoms *atoms, const dsi_podspec *src, dsi_podspec *dst)
{
	return dsi_podspec_copy_x(atoms, atoms, src, dst);
}
