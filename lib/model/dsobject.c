#include "model/dsobject.h"

#include <string.h>

#include "core/alloc.h"

void dsi_daemonset_release(dsi_atoms *atoms, dsi_daemonset *ds)
{
	dsi_meta_release(atoms, &ds->meta);
	dsi_selector_release(atoms, &ds->selector);
	dsi_labels_release(atoms, &ds->template_labels);
	dsi_podspec_release(atoms, &ds->tspec);
	if (ds->adv.has_rollout_selector)
		dsi_selector_release(atoms, &ds->adv.rollout_selector);
	json_decref(ds->patch);
	json_decref(ds->given);
	if (!ds->borrowed) {
		json_decref(ds->hashed);
		json_decref(ds->obj);
	}
	memset(ds, 0, sizeof(*ds));
}

/* getPatch (pkg/controller/daemon/update.go) */
json_t *dsi_daemonset_patch(const json_t *tmpl)
{
	/* a shallow copy: the members are tmpl's, which the patch only reads (the revision to create
	 * copies it whole) */
	json_t *t = json_is_object(tmpl) ? json_copy((json_t *)tmpl) : json_object();
	if (!t || json_object_set_new(t, "$patch", json_string("replace"))) {
		json_decref(t);
		return NULL;
	}
	return json_pack("{s:{s:o}}", "spec", "template", t);
}

static void intstr_int(dsi_intstr *v, int32_t i)
{
	memset(v, 0, sizeof(*v));
	v->ival = i;
}

static int read_status(dsi_rd *rd, const json_t *obj, dsi_ds_status *st)
{
	json_t *s;
	int rc = dsi_rd_object(rd, obj, "status", &s);
	if (rc < 0 || !s)
		return rc;
	size_t m = dsi_rd_push(rd, "status");
	int present = 0;
	if ((rc = dsi_rd_int32(rd, s, "currentNumberScheduled", &st->current_number_scheduled, NULL)) < 0 ||
	    (rc = dsi_rd_int32(rd, s, "numberMisscheduled", &st->number_misscheduled, NULL)) < 0 ||
	    (rc = dsi_rd_int32(rd, s, "desiredNumberScheduled", &st->desired_number_scheduled, NULL)) < 0 ||
	    (rc = dsi_rd_int32(rd, s, "numberReady", &st->number_ready, NULL)) < 0 ||
	    (rc = dsi_rd_int32(rd, s, "updatedNumberScheduled", &st->updated_number_scheduled, NULL)) < 0 ||
	    (rc = dsi_rd_int32(rd, s, "numberAvailable", &st->number_available, NULL)) < 0 ||
	    (rc = dsi_rd_int32(rd, s, "numberUnavailable", &st->number_unavailable, NULL)) < 0 ||
	    (rc = dsi_rd_int64(rd, s, "observedGeneration", &st->observed_generation, NULL)) < 0 ||
	    (rc = dsi_rd_int32(rd, s, "collisionCount", &st->collision_count, &present)) < 0) {
		dsi_rd_pop(rd, m);
		return rc;
	}
	st->has_collision_count = (uint8_t)present;
	dsi_rd_pop(rd, m);
	return 0;
}

/* The rollingUpdate block: upstream's two knobs, and OpenKruise's extras for its DaemonSet. */
static int read_rolling(dsi_rd *rd, dsi_atoms *atoms, const json_t *ru, dsi_daemonset *ds)
{
	int present, rc;
	if ((rc = dsi_intstr_read(rd, ru, "maxUnavailable", &ds->max_unavailable, &present)) < 0)
		return rc;
	ds->has_max_unavailable = (uint8_t)present;
	if ((rc = dsi_intstr_read(rd, ru, "maxSurge", &ds->max_surge, &present)) < 0)
		return rc;
	ds->has_max_surge = (uint8_t)present;
	if (!ds->kruise)
		return 0;
	int paused;
	if ((rc = dsi_intstr_read(rd, ru, "partition", &ds->adv.partition, &present)) < 0)
		return rc;
	ds->adv.has_partition = (uint8_t)present;
	if ((rc = dsi_rd_bool(rd, ru, "paused", &paused, NULL)) < 0)
		return rc;
	ds->adv.paused = (uint8_t)paused;
	if (json_is_object(json_object_get(ru, "selector"))) {
		if ((rc = dsi_selector_read(rd, atoms, ru, "selector", &ds->adv.rollout_selector)) < 0)
			return rc;
		ds->adv.has_rollout_selector = 1;
	}
	return 0;
}

static int read_strategy(dsi_rd *rd, dsi_atoms *atoms, const json_t *spec, dsi_daemonset *ds)
{
	json_t *us, *ru = NULL;
	const char *type = NULL;
	int rc = dsi_rd_object(rd, spec, "updateStrategy", &us);
	if (rc < 0)
		return rc;
	if (us) {
		size_t m = dsi_rd_push(rd, "updateStrategy");
		if ((rc = dsi_rd_string(rd, us, "type", &type)) == 0)
			rc = dsi_rd_object(rd, us, "rollingUpdate", &ru);
		if (rc == 0 && type && *type && strcmp(type, "RollingUpdate") != 0 && strcmp(type, "OnDelete") != 0 &&
		    !rd->lenient)
			rc = dsi_rd_fail(rd, "type", DS_EVALUE,
					 "unsupported value \"%s\": supported values: \"OnDelete\", \"RollingUpdate\"",
					 type);
		if (rc == 0 && ru) {
			size_t m2 = dsi_rd_push(rd, "rollingUpdate");
			rc = read_rolling(rd, atoms, ru, ds);
			dsi_rd_pop(rd, m2);
		}
		dsi_rd_pop(rd, m);
		if (rc < 0)
			return rc;
	}
	/* SetDefaults_DaemonSet (pkg/apis/apps/v1/defaults.go); extensions/v1beta1 defaulted to OnDelete */
	if (!type || !*type)
		type = (ds->legacy == 1) ? "OnDelete" : "RollingUpdate";
	ds->strategy = strcmp(type, "OnDelete") == 0        ? DSI_STRATEGY_ON_DELETE
		       : strcmp(type, "RollingUpdate") == 0 ? DSI_STRATEGY_ROLLING_UPDATE
							    : DSI_STRATEGY_OTHER;
	if (ds->strategy == DSI_STRATEGY_ROLLING_UPDATE) {
		/* apps/v1 defaults a missing maxUnavailable to 1 whatever maxSurge says (validation then
		 * refuses both non-zero); OpenKruise defaults it to 0 when maxSurge is given */
		if (!ds->has_max_unavailable) {
			ds->has_max_unavailable = 1;
			intstr_int(&ds->max_unavailable, (ds->kruise && ds->has_max_surge) ? 0 : 1);
		}
		if (!ds->has_max_surge) {
			ds->has_max_surge = 1;
			intstr_int(&ds->max_surge, 0);
		}
	}
	return 0;
}

int dsi_daemonset_read(dsi_rd *rd, dsi_atoms *atoms, json_t *obj, json_t *hashed, const char *api_version, int legacy,
		       unsigned gates, int k8s_minor, dsi_daemonset *out)
{
	return dsi_daemonset_read_ex(rd, atoms, obj, hashed, api_version, legacy, gates, k8s_minor, 0, out);
}

int dsi_daemonset_read_ex(dsi_rd *rd, dsi_atoms *atoms, json_t *obj, json_t *hashed, const char *api_version,
			  int legacy, unsigned gates, int k8s_minor, unsigned skip, dsi_daemonset *out)
{
	memset(out, 0, sizeof(*out));
	/* borrowed: no reference taken, so no count of the caller's values changes (nor any patch
	 * sharing them made) */
	out->borrowed = (skip & DSI_DS_BORROW) != 0;
	if (out->borrowed)
		skip |= DSI_DS_NO_PATCH;
	out->obj = out->borrowed ? obj : json_incref(obj);
	out->hashed = out->borrowed ? hashed : json_incref(hashed);
	out->kruise = api_version && strncmp(api_version, "apps.kruise.io/", 15) == 0;
	if (legacy)
		out->legacy = (uint8_t)(api_version && strcmp(api_version, "extensions/v1beta1") == 0 ? 1 : 2);
	int rc, present;
	json_t *spec, *tmpl = NULL, *tspec = NULL;
	if ((rc = dsi_meta_read(rd, atoms, obj, 1, &out->meta)) < 0)
		goto fail;
	if ((rc = dsi_rd_object(rd, obj, "spec", &spec)) < 0)
		goto fail;
	size_t m = dsi_rd_push(rd, "spec");
	json_t *sel = json_object_get(spec, "selector");
	out->selector_missing = !sel || json_is_null(sel);
	out->selector_empty = json_is_object(sel) && !json_object_size(sel);
	if ((rc = dsi_selector_read(rd, atoms, spec, "selector", &out->selector)) < 0 ||
	    (rc = dsi_rd_object(rd, spec, "template", &tmpl)) < 0 ||
	    (rc = dsi_rd_int32(rd, spec, "minReadySeconds", &out->min_ready_seconds, NULL)) < 0 ||
	    (rc = dsi_rd_int32(rd, spec, "revisionHistoryLimit", &out->revision_history_limit, &present)) < 0)
		goto pop;
	if (!present)
		out->revision_history_limit = 10;
	if ((rc = read_strategy(rd, atoms, spec, out)) < 0)
		goto pop;
	if (out->kruise && (rc = dsi_intstr_read(rd, spec, "burstReplicas", &out->adv.burst_replicas, &present)) < 0)
		goto pop;
	out->adv.has_burst = (uint8_t)(out->kruise && present);
	out->template = tmpl;
	if (tmpl) {
		size_t m2 = dsi_rd_push(rd, "template");
		json_t *tmeta;
		rc = dsi_rd_object(rd, tmpl, "metadata", &tmeta);
		if (rc == 0 && tmeta) {
			size_t m3 = dsi_rd_push(rd, "metadata");
			rc = dsi_labels_read(rd, atoms, tmeta, "labels", &out->template_labels);
			dsi_rd_pop(rd, m3);
		}
		if (rc == 0)
			rc = dsi_rd_object(rd, tmpl, "spec", &tspec);
		if (rc == 0 && tspec) {
			size_t m3 = dsi_rd_push(rd, "spec");
			rc = dsi_podspec_read(rd, atoms, tspec,
					      DSI_PODSPEC_PLACEMENT |
						      ((skip & DSI_DS_PLACEMENT_ONLY) ? DSI_PODSPEC_PLACEMENT_ONLY : 0),
					      gates, &out->tspec);
			dsi_rd_pop(rd, m3);
		} else if (rc == 0) {
			out->tspec.termination_grace_seconds = 30;
		}
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			goto pop;
	}
	/* extensions/v1beta1 defaulted a missing selector from the template labels */
	if (out->legacy == 1 && out->selector_missing && out->template_labels.n) {
		dsi_selector_release(atoms, &out->selector);
		json_t *ml = dsi_labels_to_json(atoms, &out->template_labels);
		json_t *s = ml ? json_pack("{s:o}", "matchLabels", ml) : NULL;
		rc = s ? dsi_selector_from_json(rd, atoms, s, &out->selector) : dsi_error_nomem(rd->err);
		json_decref(s);
		if (rc < 0)
			goto pop;
		out->selector_missing = 0;
	}
pop:
	dsi_rd_pop(rd, m);
	if (rc < 0)
		goto fail;
	/* deprecated.daemonset.template.generation: used only when it parses as int64 */
	const char *tg =
		json_string_value(json_object_get(json_object_get(json_object_get(obj, "metadata"), "annotations"),
						  "deprecated.daemonset.template.generation"));
	if (tg && dsi_parse_go_int64(tg, strlen(tg), &out->template_generation))
		out->has_template_generation = 1;
	if ((rc = read_status(rd, obj, &out->status)) < 0)
		goto fail;
	/* what every sync compares against, computed once per object (per generation) */
	const json_t *ht = out->hashed ? out->hashed : out->template;
	if (!(skip & (DSI_DS_NO_PATCH | DSI_DS_NO_HASH)) &&
	    (!(out->patch = dsi_daemonset_patch(ht)) || dsi_json_digest(out->patch, &out->patch_digest) < 0)) {
		rc = dsi_error_nomem(rd->err);
		goto fail;
	}
	if (!(skip & DSI_DS_NO_HASH) && dsi_template_hash(ht, k8s_minor, out->status.has_collision_count,
							  out->status.collision_count, out->hash, NULL) < 0) {
		rc = dsi_error_nomem(rd->err);
		goto fail;
	}
	return 0;
fail:
	dsi_daemonset_release(atoms, out);
	return rc;
}
