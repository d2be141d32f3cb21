#include "model/pdb.h"

#include <string.h>

#include "core/alloc.h"

int dsi_pdb_read(dsi_rd *rd, dsi_atoms *atoms, json_t *obj, dsi_pdb *out)
{
	memset(out, 0, sizeof(*out));
	out->obj = json_incref(obj);
	int rc, present = 0;
	json_t *spec, *status;
	if ((rc = dsi_meta_read(rd, atoms, obj, 1, &out->meta)) < 0)
		goto fail;
	if ((rc = dsi_rd_object(rd, obj, "spec", &spec)) < 0 || (rc = dsi_rd_object(rd, obj, "status", &status)) < 0)
		goto fail;
	if (spec) {
		size_t m = dsi_rd_push(rd, "spec");
		rc = dsi_selector_read(rd, atoms, spec, "selector", &out->selector);
		/* labels.Nothing() for nil, Everything() (Empty) for no requirements: {}, or empty
		 * matchLabels and matchExpressions, or only members LabelSelector does not have */
		out->selector_empty_or_nil = out->selector.kind == DSI_SELECTOR_NOTHING || out->selector.n == 0;
		if (rc == 0)
			rc = dsi_intstr_read(rd, spec, "minAvailable", &out->min_available, &present);
		out->has_min_available = (uint8_t)present;
		if (rc == 0)
			rc = dsi_intstr_read(rd, spec, "maxUnavailable", &out->max_unavailable, &present);
		out->has_max_unavailable = (uint8_t)present;
		dsi_rd_pop(rd, m);
		if (rc < 0)
			goto fail;
	} else {
		out->selector_empty_or_nil = 1;
	}
	if (status) {
		size_t m = dsi_rd_push(rd, "status");
		json_t *dp;
		if ((rc = dsi_rd_int32(rd, status, "disruptionsAllowed", &out->disruptions_allowed, NULL)) < 0 ||
		    (rc = dsi_rd_int32(rd, status, "currentHealthy", &out->current_healthy, NULL)) < 0 ||
		    (rc = dsi_rd_int32(rd, status, "desiredHealthy", &out->desired_healthy, NULL)) < 0 ||
		    (rc = dsi_rd_int32(rd, status, "expectedPods", &out->expected_pods, NULL)) < 0 ||
		    (rc = dsi_rd_object(rd, status, "disruptedPods", &dp)) < 0) {
			dsi_rd_pop(rd, m);
			goto fail;
		}
		if (dp && json_object_size(dp)) {
			out->disrupted = dsi_calloc(json_object_size(dp), sizeof(dsi_atom));
			if (!out->disrupted) {
				dsi_rd_pop(rd, m);
				rc = dsi_error_nomem(rd->err);
				goto fail;
			}
			const char *k;
			json_t *v;
			json_object_foreach(dp, k, v)
			{
				dsi_atom a = dsi_atom_intern_cstr(atoms, k);
				if (a == DSI_ATOM_ERROR) {
					rc = dsi_error_nomem(rd->err);
					break;
				}
				out->disrupted[out->ndisrupted++] = a;
			}
		}
		dsi_rd_pop(rd, m);
		if (rc < 0)
			goto fail;
	}
	return 0;
fail:
	dsi_pdb_release(atoms, out);
	return rc;
}

void dsi_pdb_release(dsi_atoms *atoms, dsi_pdb *p)
{
	dsi_meta_release(atoms, &p->meta);
	dsi_selector_release(atoms, &p->selector);
	json_decref(p->obj);
	for (uint32_t i = 0; i < p->ndisrupted; i++)
		dsi_atom_unref(atoms, p->disrupted[i]);
	dsi_free(p->disrupted);
	memset(p, 0, sizeof(*p));
}

int dsi_priority_class_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_priority_class *out)
{
	memset(out, 0, sizeof(*out));
	int rc, gd;
	const char *policy;
	if ((rc = dsi_meta_read(rd, atoms, obj, 1, &out->meta)) < 0)
		return rc;
	if ((rc = dsi_rd_int32(rd, obj, "value", &out->value, NULL)) < 0 ||
	    (rc = dsi_rd_bool(rd, obj, "globalDefault", &gd, NULL)) < 0 ||
	    (rc = dsi_rd_string(rd, obj, "preemptionPolicy", &policy)) < 0) {
		dsi_priority_class_release(atoms, out);
		return rc;
	}
	out->global_default = (uint8_t)gd;
	out->preempt_never = policy && strcmp(policy, "Never") == 0;
	return 0;
}

void dsi_priority_class_release(dsi_atoms *atoms, dsi_priority_class *p)
{
	dsi_meta_release(atoms, &p->meta);
	memset(p, 0, sizeof(*p));
}
