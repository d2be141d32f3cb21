/* Public wrappers: pod generation, template hash, history, rollback (include/daemonset/daemon.h). */
#include <string.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "api/args.h"
#include "api/lookup.h"
#include "apiserver/canonical.h"
#include "apiserver/goencode.h"
#include "apiserver/schema.h"
#include "core/alloc.h"
#include "core/jsonout.h"
#include "core/load.h"
#include "daemon/dspods.h"
#include "daemon/history.h"
#include "daemon/newpod.h"
#include "daemon/rollback.h"

int ds_daemonset_pod(const ds_cluster *cluster, const char *namespace_, const char *name, const char *node,
		     const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, json_out);
	DSI_ARG_NAME(err, node);
	*json_out = NULL;
	const dsi_daemonset *ds;
	int rc = dsi_api_find_ds(cluster, namespace_, name, &ds, err);
	if (rc < 0)
		return rc;
	dsi_history h;
	if ((rc = dsi_history_construct(cluster, ds, dsi_o_daemon(opts)->revision_hash, 0, &h, err)) < 0)
		return rc;
	/* the Go object the controller sends, printed as encoding/json prints it (as NewPod's) */
	rc = dsi_api_emit_pod(cluster, ds, node, h.hash, opts, json_out, err);
	dsi_history_release(&h);
	return rc;
}

int ds_template_hash_opts(const char *template_text, size_t size, int32_t collision_count, const ds_options *opts,
			  char *out, size_t out_size, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!template_text)
		return dsi_error_set(err, DS_EARG, NULL, "template_text must not be NULL: expected a PodTemplateSpec");
	if (!out)
		return dsi_error_set(err, DS_EARG, NULL, "out must not be NULL: expected a buffer of at least %d bytes",
				     DSI_HASH_MAX);
	if (out_size < DSI_HASH_MAX)
		return dsi_error_set(err, DS_EARG, NULL, "out_size is %zu: expected at least %d bytes", out_size,
				     DSI_HASH_MAX);
	/* status.collisionCount is a non-negative *int32 (ValidateNonnegativeField); -1 stands for nil */
	if (collision_count < -1)
		return dsi_error_set(err, DS_EARG, NULL,
				     "collision_count is %d: expected -1 (not set) or a non-negative count",
				     (int)collision_count);
	const dsi_core_options *core = dsi_o_core(opts);
	json_t *t;
	int rc = dsi_parse_one(template_text, size, &core->limits, &t, err);
	if (rc < 0)
		return rc;
	if (!json_is_object(t)) {
		/* the type name must be taken before the value is released */
		rc = dsi_error_set(err, DS_ETYPE, NULL, "expected a PodTemplateSpec object, got %s",
				   dsi_json_type_name(t));
		json_decref(t);
		return rc;
	}
	/* the template as the controller holds it: decoded, defaulted, stored (canonical.h) */
	json_t *c;
	rc = dsi_canonical_template(t, DSI_CANON_SERVED, &c, err);
	json_decref(t);
	if (rc < 0)
		return rc;
	char h[DSI_HASH_MAX];
	rc = dsi_template_hash(c, core->k8s_minor, collision_count >= 0, collision_count, h, NULL);
	json_decref(c);
	if (rc < 0)
		return dsi_error_nomem(err);
	memcpy(out, h, strlen(h) + 1);
	return 0;
}

int ds_template_hash(const char *template_text, size_t size, int32_t collision_count, char *out, size_t out_size,
		     ds_error *err)
{
	return ds_template_hash_opts(template_text, size, collision_count, NULL, out, out_size, err);
}

int ds_daemonset_history(const ds_cluster *cluster, const char *namespace_, const char *name, const ds_options *opts,
			 char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	const dsi_daemonset *ds;
	int rc = dsi_api_find_ds_json(cluster, namespace_, name, json_out, &ds, err);
	if (rc < 0)
		return rc;
	dsi_history h;
	if ((rc = dsi_history_construct(cluster, ds, dsi_o_daemon(opts)->revision_hash, DSI_HISTORY_CREATE, &h, err)) <
	    0)
		return rc;
	const dsi_revision **kill = dsi_calloc(h.nold + 1, sizeof(*kill));
	dsi_ds_pods pods;
	if (!kill || dsi_ds_pods_collect(cluster, ds, 1, &pods) < 0) {
		dsi_free(kill);
		dsi_history_release(&h);
		return dsi_error_nomem(err);
	}
	uint32_t nkill = dsi_history_cleanup(cluster, ds, &h, kill);
	/* pods per hash label */
	json_t *per = json_object();
	for (uint32_t i = 0; per && i < pods.n; i++) {
		const char *hl = pods.v[i]->revision_hash ? dsi_cstr(cluster, pods.v[i]->revision_hash) : "(none)";
		json_object_set_new(per, hl, json_integer(json_integer_value(json_object_get(per, hl)) + 1));
	}
	json_t *cur =
		h.current ? json_pack("{s:s, s:I, s:b}", "name", dsi_cstr(cluster, h.current->meta.name), "revision",
				      (json_int_t)(h.bump ? h.next_revision : h.current->revision), "exists", 1)
			  : json_pack("{s:O, s:I, s:b}", "name",
				      json_object_get(json_object_get(h.create, "metadata"), "name"), "revision",
				      (json_int_t)h.next_revision, "exists", 0);
	json_t *doc = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:i}", "hash", h.hash, "current", cur, "revisions",
				dsi_history_list(cluster, ds), "podsByHash", per, "wouldDelete",
				dsi_revision_names(cluster, kill, nkill), "duplicates",
				dsi_revision_names(cluster, h.dups, h.ndups), "revisionHistoryLimit",
				ds->revision_history_limit);
	char *w = NULL;
	if (dsi_history_warning(cluster, ds, &h, &w) < 0) {
		json_decref(doc);
		doc = NULL; /* dsi_json_emit: out of memory */
	} else if (doc && w) {
		json_object_set_new(doc, "warnings", json_pack("[s]", w));
	}
	dsi_free(w);
	dsi_free(kill);
	dsi_ds_pods_release(&pods);
	dsi_history_release(&h);
	return dsi_json_emit(doc, json_out, err);
}

int ds_daemonset_rollback(const ds_cluster *cluster, const char *namespace_, const char *name, int64_t to_revision,
			  const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	(void)opts;
	const dsi_daemonset *ds;
	int rc = dsi_api_find_ds_json(cluster, namespace_, name, json_out, &ds, err);
	if (rc < 0)
		return rc;
	json_t *out;
	if ((rc = dsi_rollback(cluster, ds, to_revision, &out, err)) < 0)
		return rc;
	return dsi_json_emit(out, json_out, err);
}

int ds_daemonset_pod_updated(const ds_cluster *cluster, const char *namespace_, const char *name, const char *pod_name,
			     const ds_options *opts, int *updated, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, updated);
	*updated = 0;
	if (!pod_name || !*pod_name)
		return dsi_error_set(err, DS_EARG, NULL, "pod_name is %s: expected a pod name",
				     pod_name ? "empty" : "NULL");
	const dsi_daemonset *ds;
	int rc = dsi_api_find_ds(cluster, namespace_, name, &ds, err);
	if (rc < 0)
		return rc;
	dsi_atom ns = dsi_atom_lookup_id(&cluster->atoms, namespace_);
	dsi_atom pn = dsi_atom_lookup_id(&cluster->atoms, pod_name);
	const dsi_pod *pod = pn ? dsi_cluster_pod(cluster, ns, pn) : NULL;
	if (!pod)
		return dsi_error_set(err, DS_ENOTFOUND, NULL, "pods \"%s\" not found", pod_name);
	dsi_history h;
	if ((rc = dsi_history_construct(cluster, ds, dsi_o_daemon(opts)->revision_hash, 0, &h, err)) < 0)
		return rc;
	dsi_revision_key k;
	dsi_revision_key_init(cluster, ds, h.hash, &k);
	*updated = dsi_pod_updated(&k, pod);
	dsi_history_release(&h);
	return 0;
}
