#include "model/pod.h"

#include <stddef.h>
#include <string.h>

#include "core/alloc.h"
#include "model/node.h"

const char *dsi_phase_name(int phase)
{
	static const char *const names[] = {"", "Pending", "Running", "Succeeded", "Failed", "Unknown"};
	return phase >= 0 && phase <= DSI_PHASE_UNKNOWN ? names[phase] : "";
}

static int read_status(dsi_rd *rd, dsi_atoms *atoms, const json_t *status, dsi_pod *out)
{
	const char *phase;
	int rc = dsi_rd_string(rd, status, "phase", &phase);
	if (rc < 0)
		return rc;
	out->phase = DSI_PHASE_NONE;
	for (int p = DSI_PHASE_PENDING; phase && p <= DSI_PHASE_UNKNOWN; p++)
		if (strcmp(phase, dsi_phase_name(p)) == 0)
			out->phase = (uint8_t)p;
	if (phase && *phase && out->phase == DSI_PHASE_NONE && !rd->lenient) /* lenient: not terminal, as upstream */
		return dsi_rd_fail(rd, "phase", DS_EVALUE,
				   "unsupported value \"%s\": expected Pending, Running, Succeeded, Failed or Unknown",
				   phase);
	if ((rc = dsi_rd_time(rd, status, "startTime", &out->start_time, &out->has_start_time)) < 0)
		return rc;
	dsi_condition *conds;
	uint32_t n;
	if ((rc = dsi_conditions_read(rd, atoms, status, &conds, &n)) < 0)
		return rc;
	dsi_atom ready = dsi_atom_lookup_cstr(atoms, "Ready");
	for (uint32_t i = 0; i < n; i++) {
		if (ready && conds[i].type == ready) { /* GetPodReadyCondition: the first Ready condition */
			out->ready = conds[i].status == DSI_COND_TRUE;
			out->has_ready_time = conds[i].has_transition;
			out->ready_time = conds[i].last_transition;
			ready = DSI_ATOM_NONE;
		}
		dsi_atom_unref(atoms, conds[i].type);
	}
	dsi_free(conds);
	return 0;
}

int dsi_pod_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, unsigned gates, dsi_pod *out)
{
	memset(out, 0, sizeof(*out));
	json_t *spec, *status;
	int rc;
	if ((rc = dsi_meta_read(rd, atoms, obj, 1, &out->meta)) < 0)
		return rc;
	if ((rc = dsi_rd_object(rd, obj, "spec", &spec)) < 0 || (rc = dsi_rd_object(rd, obj, "status", &status)) < 0)
		goto fail;
	if (spec) {
		size_t m = dsi_rd_push(rd, "spec");
		rc = dsi_podspec_read(rd, atoms, spec, 0, gates, &out->spec);
		dsi_rd_pop(rd, m);
		if (rc < 0)
			goto fail;
	} else {
		out->spec.termination_grace_seconds = 30;
	}
	if (status) {
		size_t m = dsi_rd_push(rd, "status");
		rc = read_status(rd, atoms, status, out);
		dsi_rd_pop(rd, m);
		if (rc < 0)
			goto fail;
	}
	json_t *ann = json_object_get(json_object_get(obj, "metadata"), "annotations");
	out->is_mirror = json_object_get(ann, "kubernetes.io/config.mirror") != NULL;
	dsi_atom k = dsi_atom_lookup_cstr(atoms, "controller-revision-hash");
	out->revision_hash = k ? dsi_labels_get(&out->meta.labels, k) : DSI_ATOM_NONE;
	k = dsi_atom_lookup_cstr(atoms, "pod-template-generation");
	out->template_generation = k ? dsi_labels_get(&out->meta.labels, k) : DSI_ATOM_NONE;
	return 0;
fail:
	dsi_pod_release(atoms, out);
	return rc;
}

void dsi_pod_release(dsi_atoms *atoms, dsi_pod *p)
{
	dsi_meta_release(atoms, &p->meta);
	dsi_podspec_release(atoms, &p->spec);
	memset(p, 0, sizeof(*p));
}

/* What a sync's passes read of every pod shares the pod's first cache line (see dsi_pod). */
_Static_assert(offsetof(dsi_pod, ready_time) + sizeof(ds_time) <= 64 && offsetof(dsi_pod, meta.ns) < 64 &&
		       offsetof(dsi_pod, meta.labels) + sizeof(dsi_labels) <= 64 &&
		       offsetof(dsi_pod, meta.has_deletion) < 64 && offsetof(dsi_pod, node_index) < 64,
	       "dsi_pod: the fields every pass reads must stay in the first 64 bytes");

int dsi_pod_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_pod *src, dsi_pod *dst)
{
	*dst = *src;
	if (dsi_meta_copy_x(to, from, &src->meta, &dst->meta) < 0)
		return -1;
	if (dsi_podspec_copy_x(to, from, &src->spec, &dst->spec) < 0) {
		dsi_meta_release(to, &dst->meta);
		return -1;
	}
	/* label values, whose references the labels hold: the copied labels' */
	dst->revision_hash = src->revision_hash ? dsi_atom_rebase(from, src->revision_hash, to) : DSI_ATOM_NONE;
	dst->template_generation =
		src->template_generation ? dsi_atom_rebase(from, src->template_generation, to) : DSI_ATOM_NONE;
	dst->node_next = dst->node_prev = NULL;
	dst->group_pos = 0;
	dst->slab = NULL; /* a copy owns its own memory */
	return 0;
}

int dsi_pod_copy(dsi_atoms *atoms, const dsi_pod *src, dsi_pod *dst) { return dsi_pod_copy_x(atoms, atoms, src, dst); }
