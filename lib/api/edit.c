/* Public wrappers of "what if" edits of a snapshot's DaemonSet, made as the API server makes them
 * (include/daemonset/daemon.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "api/args.h"
#include "api/lookup.h"
#include "apiserver/validation.h"
#include "core/jsonout.h"
#include "core/load.h"

/* The update of ds to obj: validated and, when valid, stored in the snapshot. *out: the result. */
static int update(ds_cluster *cluster, const dsi_daemonset *ds, const json_t *obj, const ds_options *opts, json_t **out,
		  ds_error *err)
{
	*out = NULL;
	json_t *stored = NULL, *result = NULL;
	/* the old object as the server stores it: it always has a resourceVersion, which a trimmed dump
	 * may lack (an update without one then copies the old one, which must not be empty) */
	json_t *old = json_deep_copy(ds->obj), *ometa = json_object_get(old, "metadata");
	if (!old)
		return dsi_error_nomem(err);
	if (json_is_object(ometa) && !json_string_length(json_object_get(ometa, "resourceVersion")))
		json_object_set_new(ometa, "resourceVersion", json_string("1"));
	int rc = dsi_daemonset_update_json(obj, old, dsi_o_core(opts), &stored, &result, err);
	json_decref(old);
	if (rc < 0)
		return rc;
	if (!stored) {
		*out = result;
		return dsi_error_set(err, DS_EINVALID, NULL, "%s",
				     json_string_value(json_object_get(result, "message")));
	}
	/* a write gives the object a new resourceVersion (one higher, when the old one is a number) */
	json_t *meta = json_object_get(stored, "metadata");
	const char *rv = json_string_value(json_object_get(meta, "resourceVersion"));
	char *end;
	long long n = rv ? strtoll(rv, &end, 10) : 0;
	if (rv && *rv && !*end && n >= 0 && n < LLONG_MAX) {
		char buf[32];
		snprintf(buf, sizeof(buf), "%lld", n + 1);
		json_object_set_new(meta, "resourceVersion", json_string(buf));
	}
	/* what changed, read before the old DaemonSet (ds) goes */
	json_t *otmpl = json_object_get(json_object_get(ds->obj, "spec"), "template");
	json_object_set_new(
		result, "templateChanged",
		json_boolean(!json_equal(otmpl, json_object_get(json_object_get(stored, "spec"), "template"))));
	json_object_set(result, "previousGeneration",
			json_object_get(json_object_get(ds->obj, "metadata"), "generation"));
	json_object_set(result, "generation", json_object_get(json_object_get(stored, "metadata"), "generation"));
	/* a snapshot object: the DaemonSet read from the stored form replaces the old one */
	if ((rc = dsi_cluster_load_value(cluster, stored, NULL, err)) < 0) {
		json_decref(stored);
		json_decref(result);
		return rc;
	}
	json_object_set_new(result, "object", stored);
	*out = result;
	return 0;
}

/* The result into json_out (when not NULL), whatever rc says. */
static int finish(int rc, json_t *out, char **json_out, ds_error *err)
{
	if (!json_out) {
		json_decref(out);
		return rc;
	}
	if (!out)
		return rc;
	ds_error keep = *err;
	int erc = dsi_json_emit(out, json_out, err);
	if (rc < 0) {
		*err = keep;
		return rc;
	}
	return erc;
}

/* The API server's update (PUT) of a DaemonSet: BeforeUpdate, PrepareForUpdate, ValidateDaemonSetUpdate */
int ds_daemonset_update(ds_cluster *cluster, const char *text, size_t size, const ds_options *opts, char **json_out,
			ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	DSI_ARGS_NONNULL(err, cluster);
	DSI_ARG_DOC(err, text, size);
	json_t *obj;
	int rc = dsi_parse_one(text ? text : "", size, &cluster->core.limits, &obj, err);
	if (rc < 0)
		return rc;
	if (!json_is_object(obj)) { /* the type is named before obj is freed */
		rc = dsi_error_set(err, DS_ETYPE, NULL, "expected a DaemonSet object, got %s", dsi_json_type_name(obj));
		json_decref(obj);
		return rc;
	}
	/* the request's namespace: the object's, else kubectl's */
	json_t *meta = json_object_get(obj, "metadata");
	const char *ns = json_string_value(json_object_get(meta, "namespace"));
	const char *name = json_string_value(json_object_get(meta, "name"));
	if (!ns || !*ns)
		ns = cluster->default_ns;
	const dsi_daemonset *ds;
	if (!name || !*name)
		rc = dsi_error_set(err, DS_EMISSING, "metadata.name", "the DaemonSet to update needs metadata.name");
	else
		rc = dsi_api_find_ds(cluster, ns, name, &ds, err);
	json_t *out = NULL;
	if (rc == 0) {
		if (json_is_object(meta) && !json_string_value(json_object_get(meta, "namespace")))
			json_object_set_new(meta, "namespace", json_string(ns));
		rc = update(cluster, ds, obj, opts, &out, err);
	}
	json_decref(obj);
	return finish(rc, out, json_out, err);
}

/* Set image in the containers list member `key` of spec: those named container, or all for "*". */
static int set_in(json_t *spec, const char *key, const char *container, const char *image)
{
	int found = 0;
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(spec, key), i, c)
	{
		const char *n = json_string_value(json_object_get(c, "name"));
		if (json_is_object(c) && (strcmp(container, "*") == 0 || (n && strcmp(n, container) == 0))) {
			json_object_set_new(c, "image", json_string(image));
			found = 1;
		}
	}
	return found;
}

/* kubectl set image (kubectl pkg/cmd/set/set_image.go) on a DaemonSet, then the API server's update */
int ds_daemonset_set_image(ds_cluster *cluster, const char *namespace_, const char *name, const char *container,
			   const char *image, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	DSI_ARG_NAME(err, container);
	DSI_ARG_NAME(err, image);
	const dsi_daemonset *ds;
	int rc = dsi_api_find_ds(cluster, namespace_, name, &ds, err);
	if (rc < 0)
		return rc;
	json_t *obj = json_deep_copy(ds->obj);
	if (!obj)
		return dsi_error_nomem(err);
	json_t *spec = json_object_get(json_object_get(json_object_get(obj, "spec"), "template"), "spec");
	/* init containers too, as kubectl's UpdatePodSpecForObject visits them */
	int found = set_in(spec, "initContainers", container, image);
	found |= set_in(spec, "containers", container, image);
	json_t *out = NULL;
	if (!found)
		rc = dsi_error_set(err, DS_ENOTFOUND, NULL, "unable to find container named \"%s\"", container);
	else
		rc = update(cluster, ds, obj, opts, &out, err);
	json_decref(obj);
	return finish(rc, out, json_out, err);
}
