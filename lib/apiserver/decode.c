/* Decoding an apps/v1 DaemonSet as the API server does (Convert_v1_DaemonSet_To_apps_DaemonSet). */
#include "apiserver/validation.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/canonical.h"
#include "apiserver/decodecheck.h"
#include "apiserver/defaults.h"
#include "apiserver/schema.h"
#include "core/alloc.h"
#include "core/sort.h"
#include "model/intstr.h"
#include "model/labels.h"
#include "model/labelvalid.h"
#include "model/quantity.h"
#include "model/selector.h"

/* ---- decoding (Convert_v1_DaemonSet_To_apps_DaemonSet) ----------------------------------------- */

void dsi_vds_release(dsi_vds *d)
{
	json_decref(d->obj);
	memset(d, 0, sizeof(*d));
}

/* How vds_decode keeps the object: a copy of its own, the caller's object itself (which it may
 * change), or nothing (the decoder's checks only). */
enum { VDS_COPY, VDS_OWN, VDS_CHECK };

static int vds_decode(const json_t *obj, int how, dsi_vds *out, ds_error *err)
{
	memset(out, 0, sizeof(*out));
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	if (!json_is_object(obj))
		return dsi_rd_fail(&rd, NULL, DS_ETYPE, "expected a DaemonSet object, got %s", dsi_json_type_name(obj));
	const char *kind, *av;
	int rc;
	if ((rc = dsi_rd_string(&rd, obj, "kind", &kind)) < 0 || (rc = dsi_rd_string(&rd, obj, "apiVersion", &av)) < 0)
		return rc;
	if (kind && *kind && strcmp(kind, "DaemonSet") != 0)
		return dsi_rd_fail(&rd, "kind", DS_EUNSUPPORTED, "expected a DaemonSet, got kind \"%s\"", kind);
	if (av && *av && strcmp(av, "apps/v1") != 0)
		return dsi_rd_fail(
			&rd, "apiVersion", DS_EUNSUPPORTED,
			"expected apiVersion \"apps/v1\", got \"%s\" (extensions/v1beta1 and apps/v1beta2 are "
			"no longer served)",
			av);
	/* what Go's decoder refuses (types, integer ranges, quantities) before anything reads it */
	if ((rc = dsi_decode_check(obj, dsi_schema_root_type("apps/v1", "DaemonSet"), err)) < 0)
		return rc;
	json_t *meta, *ann;
	if ((rc = dsi_rd_object(&rd, obj, "metadata", &meta)) < 0)
		return rc;
	size_t m = dsi_rd_push(&rd, "metadata");
	rc = dsi_rd_object(&rd, meta, "annotations", &ann);
	dsi_rd_pop(&rd, m);
	if (rc < 0)
		return rc;
	if (how == VDS_OWN)
		out->obj = json_incref((json_t *)obj);
	else if (how == VDS_COPY && !(out->obj = json_deep_copy(obj)))
		return dsi_error_nomem(err);
	json_t *tg = json_object_get(ann, TEMPLATE_GENERATION_KEY);
	if (tg && !json_is_null(tg)) {
		m = dsi_rd_push(&rd, "metadata");
		size_t m2 = dsi_rd_push(&rd, "annotations");
		if (!json_is_string(tg))
			rc = dsi_rd_fail(&rd, TEMPLATE_GENERATION_KEY, DS_ETYPE, "expected string, got %s",
					 dsi_json_type_name(tg));
		else if (!dsi_parse_go_int64(json_string_value(tg), json_string_length(tg),
					     &out->template_generation)) {
			/* strconv.ParseInt's error: syntax, or range when only digits overflowed */
			const char *s = json_string_value(tg);
			size_t n = json_string_length(tg), i = (n && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
			int digits = i < n;
			for (; i < n; i++)
				if (s[i] < '0' || s[i] > '9')
					digits = 0;
			dsi_strbuf q = DSI_STRBUF_INIT;
			dsi_go_quote(&q, s, n);
			rc = dsi_rd_fail(&rd, TEMPLATE_GENERATION_KEY, DS_EVALUE, "strconv.ParseInt: parsing %s: %s",
					 q.data ? q.data : "\"\"", digits ? "value out of range" : "invalid syntax");
			dsi_strbuf_free(&q);
		}
		dsi_rd_pop(&rd, m2);
		dsi_rd_pop(&rd, m);
		if (rc < 0) {
			dsi_vds_release(out);
			return rc;
		}
	}
	if (out->obj)
		json_object_del(json_object_get(json_object_get(out->obj, "metadata"), "annotations"),
				TEMPLATE_GENERATION_KEY);
	return 0;
}

int dsi_vds_decode(const json_t *obj, dsi_vds *out, ds_error *err) { return vds_decode(obj, VDS_COPY, out, err); }

int dsi_vds_decode_own(json_t *obj, dsi_vds *out, ds_error *err) { return vds_decode(obj, VDS_OWN, out, err); }

int dsi_daemonset_served(const json_t *obj, json_t **out, ds_error *err)
{
	*out = NULL;
	dsi_vds ds;
	/* the kind, apiVersion and annotation checks of the decoder (no copy: nothing reads it) */
	int rc = vds_decode(obj, VDS_CHECK, &ds, err);
	if (rc < 0)
		return rc;
	dsi_vds_release(&ds);
	json_t *c;
	if ((rc = dsi_canonical(obj, dsi_schema_root_type("apps/v1", "DaemonSet"), DSI_CANON_SERVED, &c, err)) < 0)
		return rc;
	/* served with its TypeMeta, whatever the request left out */
	if (json_object_set_new(c, "apiVersion", json_string("apps/v1")) < 0 ||
	    json_object_set_new(c, "kind", json_string("DaemonSet")) < 0) {
		json_decref(c);
		return dsi_error_nomem(err);
	}
	*out = c;
	return 0;
}
