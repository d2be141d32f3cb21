/* DaemonSet validation (pkg/apis/apps/validation/validation.go). */
#include "apiserver/validation.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/canonical.h"
#include "apiserver/schema.h"
#include "apiserver/defaults.h"
#include "core/alloc.h"
#include "core/sort.h"
#include "model/intstr.h"
#include "model/labels.h"
#include "model/labelvalid.h"
#include "model/quantity.h"
#include "model/selector.h"

/* ---- DaemonSets (pkg/apis/apps/validation/validation.go) --------------------------------------- */

/* One IntOrString as the internal RollingUpdateDaemonSet holds it. */
typedef struct ios {
	int is_string;
	int32_t ival;
	const char *s;
	size_t n;
} ios;

static int read_ios(dsi_vctx *c, const json_t *obj, const char *key, ios *out)
{
	dsi_intstr tmp;
	int present;
	memset(out, 0, sizeof(*out));
	int rc = dsi_intstr_read(&c->rd, obj, key, &tmp, &present);
	if (rc < 0 || !present)
		return rc;
	json_t *v = json_object_get(obj, key);
	if (json_is_string(v)) {
		out->is_string = 1;
		out->s = json_string_value(v);
		out->n = json_string_length(v);
	} else {
		out->ival = tmp.ival;
	}
	return 0;
}

static json_t *ios_json(const ios *v) { return v->is_string ? json_stringn(v->s, v->n) : json_integer(v->ival); }

/* IsValidPercent: ^[0-9]+%$ */
static int valid_percent(const ios *v)
{
	if (!v->is_string || v->n < 2 || v->s[v->n - 1] != '%')
		return 0;
	for (size_t i = 0; i + 1 < v->n; i++)
		if (v->s[i] < '0' || v->s[i] > '9')
			return 0;
	return 1;
}

/* strconv.Atoi on 64-bit Go: the value; 0 on a syntax error, the clamped value on a range error */
static int64_t go_atoi(const char *s, size_t n)
{
	int64_t v;
	dsi_go_parse_int64(s, n, &v);
	return v;
}

/* getIntOrPercentValue */
static int64_t ios_value(const ios *v)
{
	if (valid_percent(v))
		return go_atoi(v->s, v->n - 1);
	return v->is_string ? go_atoi(v->s, v->n) : v->ival; /* IntValue() */
}

static void ios_error(dsi_vctx *c, const char *child, int type, const ios *v, const char *detail)
{
	dsi_v_json(c, child, type, ios_json(v), detail);
}

/* ValidatePositiveIntOrPercent */
static void positive_int_or_percent(dsi_vctx *c, const char *child, const ios *v)
{
	if (v->is_string) {
		if (!valid_percent(v))
			ios_error(c, child, DSI_FE_INVALID, v,
				  "a valid percent string must be a numeric string followed by an ending '%' (e.g. "
				  "'1%',  "
				  "or '93%', regex used for validation is '[0-9]+%')");
	} else {
		dsi_v_nonnegative(c, child, v->ival);
	}
}

/* IsNotMoreThan100Percent */
static void not_more_than_100(dsi_vctx *c, const char *child, const ios *v)
{
	if (valid_percent(v) && go_atoi(v->s, v->n - 1) > 100)
		ios_error(c, child, DSI_FE_INVALID, v, "must not be greater than 100%");
}

/* ValidateRollingUpdateDaemonSet */
int dsi_validate_rolling_update(dsi_vctx *c, const json_t *ru)
{
	ios mu, ms;
	int rc;
	if ((rc = read_ios(c, ru, "maxUnavailable", &mu)) < 0 || (rc = read_ios(c, ru, "maxSurge", &ms)) < 0)
		return rc;
	positive_int_or_percent(c, "maxUnavailable", &mu);
	positive_int_or_percent(c, "maxSurge", &ms);
	not_more_than_100(c, "maxUnavailable", &mu);
	not_more_than_100(c, "maxSurge", &ms);
	int has_unavailable = ios_value(&mu) != 0, has_surge = ios_value(&ms) != 0;
	if (has_unavailable && has_surge)
		ios_error(c, "maxSurge", DSI_FE_INVALID, &ms, "may not be set when maxUnavailable is non-zero");
	else if (!has_unavailable && !has_surge)
		dsi_v_required(c, "maxUnavailable", "cannot be 0 when maxSurge is 0");
	return 0;
}

/* ValidateDaemonSetUpdateStrategy */
static int update_strategy(dsi_vctx *c, const json_t *spec)
{
	json_t *us, *ru = NULL;
	const char *type = "";
	size_t tn = 0;
	int rc = dsi_v_object(c, spec, "updateStrategy", &us);
	if (rc < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "updateStrategy");
	if ((rc = dsi_v_string(c, us, "type", &type, &tn)) < 0 ||
	    (rc = dsi_v_object(c, us, "rollingUpdate", &ru)) < 0) {
		dsi_v_pop(c, m);
		return rc;
	}
	if (dsi_streq_lit(type, tn, "OnDelete")) {
		if (ru) { /* not validated, but decoded */
			ios a, b;
			dsi_vmark m2 = dsi_v_child(c, "rollingUpdate");
			if ((rc = read_ios(c, ru, "maxUnavailable", &a)) == 0)
				rc = read_ios(c, ru, "maxSurge", &b);
			dsi_v_pop(c, m2);
		}
	} else if (dsi_streq_lit(type, tn, "RollingUpdate")) {
		if (!ru) {
			dsi_v_required(c, "rollingUpdate", "");
		} else {
			dsi_vmark m2 = dsi_v_child(c, "rollingUpdate");
			rc = dsi_validate_rolling_update(c, ru);
			dsi_v_pop(c, m2);
		}
	} else {
		/* NotSupported(fldPath, strategy, ...): the internal struct, json.Marshal'ed with Go field names */
		ios a = {0, 0, NULL, 0}, b = {0, 0, NULL, 0};
		if (ru) {
			dsi_vmark m2 = dsi_v_child(c, "rollingUpdate");
			if ((rc = read_ios(c, ru, "maxUnavailable", &a)) == 0)
				rc = read_ios(c, ru, "maxSurge", &b);
			dsi_v_pop(c, m2);
		}
		if (rc == 0) {
			json_t *val = json_pack(
				"{s:s%,s:o}", "Type", type, tn, "RollingUpdate",
				ru ? json_pack("{s:o,s:o}", "MaxUnavailable", ios_json(&a), "MaxSurge", ios_json(&b))
				   : json_null());
			dsi_strbuf s = DSI_STRBUF_INIT;
			dsi_strbuf_puts(&s, "{\"Type\":");
			dsi_go_json_string(&s, type, tn);
			dsi_strbuf_puts(&s, ",\"RollingUpdate\":");
			if (ru) {
				dsi_strbuf_puts(&s, "{\"MaxUnavailable\":");
				dsi_go_marshal(
					&s, json_object_get(json_object_get(val, "RollingUpdate"), "MaxUnavailable"));
				dsi_strbuf_puts(&s, ",\"MaxSurge\":");
				dsi_go_marshal(&s, json_object_get(json_object_get(val, "RollingUpdate"), "MaxSurge"));
				dsi_strbuf_putc(&s, '}');
			} else {
				dsi_strbuf_puts(&s, "null");
			}
			dsi_strbuf_putc(&s, '}');
			dsi_v_add(c, NULL, DSI_FE_NOT_SUPPORTED, val, s.data,
				  "supported values: \"RollingUpdate\", \"OnDelete\"");
			dsi_strbuf_free(&s);
		}
	}
	dsi_v_pop(c, m);
	return rc;
}

/* The template's labels as a Go map: the object, or NULL (nil) when absent. */
static json_t *template_labels(const json_t *tmpl)
{
	json_t *l = json_object_get(json_object_get(tmpl, "metadata"), "labels");
	return json_is_object(l) ? l : NULL;
}

/* A decoder error reported by a scratch reader relative to <current path>.<fields...> gets its full path. */
static void prefix_error(dsi_vctx *c, const char *const *fields, size_t n)
{
	size_t mark = c->rd.len;
	for (size_t i = 0; i < n; i++)
		dsi_rd_push(&c->rd, fields[i]);
	dsi_error_prefix_path(c->rd.err, c->rd.path);
	dsi_rd_pop(&c->rd, mark);
}

/* selector.Matches(labels.Set(template.Labels)) after LabelSelectorAsSelector: 1 match,
 * 0 no match, 2 the selector does not convert; < 0 a decoder error */
static int selector_matches_template(dsi_vctx *c, const json_t *sel, const json_t *tmpl)
{
	if (!sel)
		return 0; /* nil: labels.Nothing() */
	ds_error tmp;
	dsi_error_clear(&tmp);
	dsi_rd rd;
	dsi_rd_init(&rd, &tmp);
	dsi_selector s;
	int rc = dsi_selector_from_json(&rd, c->atoms, sel, &s);
	if (rc == DS_EVALUE)
		return 2;
	if (rc < 0) {
		if (c->rd.err)
			*c->rd.err = tmp;
		static const char *const at[] = {"selector"};
		prefix_error(c, at, 1);
		return rc;
	}
	dsi_labels labels = {NULL, 0};
	json_t *l = template_labels(tmpl);
	int match = 0;
	if (l) {
		dsi_rd_init(&rd, &tmp);
		if ((rc = dsi_labels_from_object(&rd, c->atoms, l, &labels)) < 0) {
			dsi_selector_release(c->atoms, &s);
			if (c->rd.err)
				*c->rd.err = tmp;
			static const char *const at[] = {"template", "metadata", "labels"};
			prefix_error(c, at, 3);
			return rc;
		}
	}
	match = dsi_selector_matches(c->atoms, &s, &labels);
	dsi_labels_release(c->atoms, &labels);
	dsi_selector_release(c->atoms, &s);
	return match;
}

/* ValidateDaemonSetSpec */
static int daemonset_spec(dsi_vctx *c, const json_t *spec, int64_t template_generation)
{
	json_t *sel, *tmpl;
	int rc;
	if ((rc = dsi_v_object(c, spec, "selector", &sel)) < 0 || (rc = dsi_v_object(c, spec, "template", &tmpl)) < 0 ||
	    (rc = dsi_v_label_selector(c, spec, "selector")) < 0)
		return rc;
	int match = selector_matches_template(c, sel, tmpl);
	if (match < 0)
		return match;
	if (match == 0) {
		json_t *l = template_labels(tmpl);
		dsi_v_json(c, "template.metadata.labels", DSI_FE_INVALID, l ? json_deep_copy(l) : json_null(),
			   "`selector` does not match template `labels`");
	}
	if (sel && !json_object_size(json_object_get(sel, "matchLabels")) &&
	    !json_array_size(json_object_get(sel, "matchExpressions")))
		dsi_v_add(c, "selector", DSI_FE_INVALID, json_deep_copy(sel), "{}",
			  "empty selector is invalid for daemonset");
	dsi_vmark m = dsi_v_child(c, "template");
	rc = dsi_validate_pod_template(c, tmpl);
	dsi_v_pop(c, m);
	if (rc < 0)
		return rc;
	/* the template spec was decoded by the pod template validation */
	json_t *tspec = json_object_get(tmpl, "spec");
	json_t *rp = json_object_get(tspec, "restartPolicy");
	const char *restart = json_is_string(rp) ? json_string_value(rp) : "";
	size_t rn = json_is_string(rp) ? json_string_length(rp) : 0;
	static const char *const always[] = {"Always"};
	if (!dsi_streq_lit(restart, rn, "Always"))
		dsi_v_not_supported(c, "template.spec.restartPolicy", 1, restart, rn, always, 1);
	json_t *ads = json_object_get(tspec, "activeDeadlineSeconds");
	if (ads && !json_is_null(ads))
		dsi_v_forbidden(c, "template.spec.activeDeadlineSeconds",
				"activeDeadlineSeconds in DaemonSet is not Supported");
	int32_t mrs, rhl;
	int has_rhl;
	if ((rc = dsi_v_int32(c, spec, "minReadySeconds", &mrs, NULL)) < 0 ||
	    (rc = dsi_v_int32(c, spec, "revisionHistoryLimit", &rhl, &has_rhl)) < 0)
		return rc;
	dsi_v_nonnegative(c, "minReadySeconds", mrs);
	dsi_v_nonnegative(c, "templateGeneration", template_generation);
	if ((rc = update_strategy(c, spec)) < 0)
		return rc;
	if (has_rhl)
		dsi_v_nonnegative(c, "revisionHistoryLimit", rhl); /* zero is a valid RevisionHistoryLimit */
	return 0;
}

static int spec_of(dsi_vctx *c, const json_t *obj, json_t **spec) { return dsi_v_object(c, obj, "spec", spec); }

static int meta_of(dsi_vctx *c, const json_t *obj, json_t **meta) { return dsi_v_object(c, obj, "metadata", meta); }

/* ValidateDaemonSet */
int dsi_validate_daemonset(dsi_vctx *c, const dsi_vds *ds)
{
	json_t *meta, *spec;
	int rc;
	if ((rc = meta_of(c, ds->obj, &meta)) < 0 || (rc = spec_of(c, ds->obj, &spec)) < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "metadata");
	rc = dsi_v_object_meta_create(c, meta);
	dsi_v_pop(c, m);
	if (rc < 0)
		return rc;
	m = dsi_v_child(c, "spec");
	rc = daemonset_spec(c, spec, ds->template_generation);
	dsi_v_pop(c, m);
	return rc;
}

/* ValidateDaemonSetSpecUpdate */
static void daemonset_spec_update(dsi_vctx *c, const json_t *spec, const json_t *old_spec, int64_t tg, int64_t old_tg)
{
	if (tg < old_tg)
		dsi_v_int(c, "templateGeneration", DSI_FE_INVALID, tg, "must not be decremented");
	int updated = !dsi_semantic_equal_as(json_object_get(spec, "template"), json_object_get(old_spec, "template"),
					     dsi_canonical_template_type());
	if (tg == old_tg && updated)
		dsi_v_int(c, "templateGeneration", DSI_FE_INVALID, tg, "must be incremented upon template update");
	else if (tg > old_tg && !updated)
		dsi_v_int(c, "templateGeneration", DSI_FE_INVALID, tg,
			  "must not be incremented without template update");
}

/* ValidateDaemonSetUpdate */
int dsi_validate_daemonset_update(dsi_vctx *c, const dsi_vds *ds, const dsi_vds *old)
{
	json_t *meta, *spec, *ometa, *ospec;
	int rc;
	if ((rc = meta_of(c, ds->obj, &meta)) < 0 || (rc = spec_of(c, ds->obj, &spec)) < 0 ||
	    (rc = meta_of(c, old->obj, &ometa)) < 0 || (rc = spec_of(c, old->obj, &ospec)) < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "metadata");
	rc = dsi_v_object_meta_update(c, meta, ometa);
	dsi_v_pop(c, m);
	if (rc < 0)
		return rc;
	m = dsi_v_child(c, "spec");
	daemonset_spec_update(c, spec, ospec, ds->template_generation, old->template_generation);
	rc = daemonset_spec(c, spec, ds->template_generation);
	dsi_v_pop(c, m);
	return rc;
}

/* validateDaemonSetStatus */
static int daemonset_status(dsi_vctx *c, const json_t *status, int32_t *cc, int *has_cc)
{
	static const char *const counts[] = {"currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled",
					     "numberReady"};
	static const char *const counts2[] = {"updatedNumberScheduled", "numberAvailable", "numberUnavailable"};
	int32_t v32;
	int64_t og;
	int rc;
	for (size_t i = 0; i < 4; i++) {
		if ((rc = dsi_v_int32(c, status, counts[i], &v32, NULL)) < 0)
			return rc;
		dsi_v_nonnegative(c, counts[i], v32);
	}
	if ((rc = dsi_v_int64(c, status, "observedGeneration", &og, NULL)) < 0)
		return rc;
	dsi_v_nonnegative(c, "observedGeneration", og);
	for (size_t i = 0; i < 3; i++) {
		if ((rc = dsi_v_int32(c, status, counts2[i], &v32, NULL)) < 0)
			return rc;
		dsi_v_nonnegative(c, counts2[i], v32);
	}
	if ((rc = dsi_v_int32(c, status, "collisionCount", cc, has_cc)) < 0)
		return rc;
	if (*has_cc)
		dsi_v_nonnegative(c, "collisionCount", *cc);
	json_t *conds;
	return dsi_v_array(c, status, "conditions", &conds);
}

/* ValidateDaemonSetStatusUpdate */
int dsi_validate_daemonset_status_update(dsi_vctx *c, const dsi_vds *ds, const dsi_vds *old)
{
	json_t *meta, *ometa, *status, *ostatus;
	int rc;
	if ((rc = meta_of(c, ds->obj, &meta)) < 0 || (rc = meta_of(c, old->obj, &ometa)) < 0 ||
	    (rc = dsi_v_object(c, ds->obj, "status", &status)) < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "metadata");
	rc = dsi_v_object_meta_update(c, meta, ometa);
	dsi_v_pop(c, m);
	if (rc < 0)
		return rc;
	int32_t cc = 0, occ = 0;
	int has_cc = 0, ohas_cc = 0;
	m = dsi_v_child(c, "status");
	rc = daemonset_status(c, status, &cc, &has_cc);
	dsi_v_pop(c, m);
	if (rc < 0)
		return rc;
	dsi_rd saved = c->rd;
	dsi_rd_init(&c->rd, saved.err);
	dsi_rd_push(&c->rd, "(old)");
	if ((rc = dsi_v_object(c, old->obj, "status", &ostatus)) == 0) {
		dsi_rd_push(&c->rd, "status");
		rc = dsi_rd_int32(&c->rd, ostatus, "collisionCount", &occ, &ohas_cc);
	}
	c->rd = saved;
	if (rc < 0)
		return rc;
	/* IsDecremented */
	if (ohas_cc && (!has_cc || cc < occ))
		dsi_v_int(c, "status.collisionCount", DSI_FE_INVALID, has_cc ? cc : 0, "cannot be decremented");
	return 0;
}
