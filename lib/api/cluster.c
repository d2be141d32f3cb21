/* Public wrappers of the snapshot (include/daemonset/cluster.h). */
#include <stdio.h>
#include <string.h>

#include "daemonset.h"
#include "daemonset/jansson.h"
#include "api/api_options.h"
#include "api/args.h"
#include "api/exec.h"
#include "apiserver/canonical.h"
#include "core/alloc.h"
#include "core/files.h"
#include "core/jsonout.h"
#include "core/objects.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "core/yaml.h"
#include "model/snapshot.h"

int ds_cluster_new(const ds_options *opts, ds_cluster **out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, out);
	*out = NULL;
	dsi_model_options model = *dsi_o_model(opts);
	model.prepare = dsi_canonical_prepare; /* objects as the API server holds them */
	model.exec = &dsi_api_exec;            /* a large List loads on several threads */
	ds_cluster *c = dsi_calloc(1, sizeof(*c));
	if (!c || dsi_cluster_init(c, dsi_o_core(opts), &model) < 0) {
		dsi_free(c);
		return dsi_error_nomem(err);
	}
	*out = c;
	return 0;
}

void ds_cluster_free(ds_cluster *cluster)
{
	if (!cluster)
		return;
	dsi_cluster_destroy(cluster);
	dsi_free(cluster);
}

int ds_cluster_copy(const ds_cluster *cluster, ds_cluster **out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, cluster, out);
	*out = NULL;
	ds_cluster *c = dsi_calloc(1, sizeof(*c));
	if (!c)
		return dsi_error_nomem(err);
	int rc = dsi_cluster_copy(cluster, c, err);
	if (rc < 0) {
		dsi_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

int ds_cluster_load(ds_cluster *cluster, const char *data, size_t size, size_t *count, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (count)
		*count = 0;
	DSI_ARGS_NONNULL(err, cluster);
	DSI_ARG_DOC(err, data, size);
	return dsi_cluster_load_text(cluster, data, size, count, err);
}

int ds_cluster_load_json(ds_cluster *cluster, const json_t *value, size_t *count, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (count)
		*count = 0;
	DSI_ARGS_NONNULL(err, cluster, value);
	/* The snapshot keeps some objects as JSON: copy them so that it never shares (and
	 * never touches the reference counts of) the caller's values. */
	json_t *own = json_deep_copy((const json_t *)value);
	if (!own)
		return dsi_error_nomem(err);
	int rc = dsi_cluster_load_value(cluster, own, count, err);
	json_decref(own);
	return rc;
}

int ds_cluster_apply_events(ds_cluster *cluster, const char *data, size_t size, size_t *count, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (count)
		*count = 0;
	DSI_ARGS_NONNULL(err, cluster);
	DSI_ARG_DOC(err, data, size);
	return dsi_cluster_apply_events(cluster, data, size, count, err);
}

typedef struct add_ctx {
	dsi_batch *b;
	size_t max;
} add_ctx;

/* One file into the batch; an error names the file (and, inside it, what the loader named). */
static int add_file(void *ctx, const char *path, ds_error *err)
{
	add_ctx *a = ctx;
	char *text;
	size_t len;
	int rc = dsi_read_file(path, a->max, &text, &len, err);
	if (rc == 0) {
		rc = dsi_cluster_batch_add_text(a->b, text, len, err);
		dsi_free(text);
	}
	if (rc < 0) {
		dsi_strbuf src = DSI_STRBUF_INIT;
		dsi_strbuf_puts(&src, path);
		if (err->source[0])
			dsi_strbuf_printf(&src, ": %s", err->source);
		if (!src.oom)
			dsi_error_set_source(err, src.data);
		dsi_strbuf_free(&src);
	}
	return rc;
}

int ds_cluster_load_file(ds_cluster *cluster, const char *path, size_t *count, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (count)
		*count = 0;
	DSI_ARGS_NONNULL(err, cluster, path);
	add_ctx a = {dsi_cluster_batch_begin(cluster), cluster->core.limits.max_bytes};
	if (!a.b)
		return dsi_error_nomem(err);
	return dsi_cluster_batch_end(a.b, dsi_each_manifest(path, add_file, &a, err), count, err);
}

/* "Node" -> DSI_KIND_NODE; "group/Kind" -> DSI_KIND_OTHER */
static int parse_kind(const char *kind, dsi_kind *k, const char **gk, ds_error *err)
{
	*gk = NULL;
	DSI_ARGS_NONNULL(err, kind);
	int v = dsi_kind_from_name(kind);
	if (v >= 0) {
		*k = (dsi_kind)v;
		return 0;
	}
	if (strchr(kind, '/')) {
		*k = DSI_KIND_OTHER;
		*gk = kind;
		return 0;
	}
	if (strcmp(kind, "Other") == 0) {
		*k = DSI_KIND_OTHER;
		return 0;
	}
	return dsi_error_set(err, DS_EARG, NULL,
			     "unknown kind \"%s\": expected Node, Pod, DaemonSet, ControllerRevision, "
			     "PodDisruptionBudget, PriorityClass, PersistentVolumeClaim, PersistentVolume, "
			     "StorageClass, CSINode or group/Kind",
			     kind);
}

int ds_cluster_remove(ds_cluster *cluster, const char *kind, const char *namespace_, const char *name, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	dsi_kind k;
	const char *gk;
	DSI_ARGS_NONNULL(err, cluster, name);
	int rc = parse_kind(kind, &k, &gk, err);
	if (rc < 0)
		return rc;
	if (k == DSI_KIND_OTHER && !gk)
		return dsi_error_set(err, DS_EARG, NULL, "name another kind as group/Kind, e.g. apps/Deployment");
	return dsi_cluster_remove(cluster, k, gk, namespace_, name, err);
}

size_t ds_cluster_count(const ds_cluster *cluster, const char *kind)
{
	if (!cluster || !kind)
		return 0;
	int k = strcmp(kind, "Other") == 0 ? DSI_KIND_OTHER : dsi_kind_from_name(kind);
	return k < 0 ? 0 : dsi_cluster_count(cluster, (dsi_kind)k);
}

static int emit(json_t *v, char **out, ds_error *err) { return dsi_json_emit(v, out, err); }

int ds_cluster_node_name_at(const ds_cluster *cluster, size_t i, const char **name, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, cluster, name);
	*name = NULL;
	size_t n = dsi_cluster_count(cluster, DSI_KIND_NODE);
	if (i >= n)
		return dsi_error_set(err, DS_EARG, NULL, "Node %zu out of range (%zu)", i, n);
	*name = dsi_cstr(cluster, dsi_cluster_node_at(cluster, i)->meta.name);
	return 0;
}

static int list_file(void *ctx, const char *path, ds_error *err)
{
	return json_array_append_new(ctx, json_string(path)) < 0 ? dsi_error_nomem(err) : 0;
}

int ds_manifests_list(const char *path, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, path, json_out);
	*json_out = NULL;
	json_t *files = json_array();
	if (!files)
		return dsi_error_nomem(err);
	int rc = dsi_each_manifest(path, list_file, files, err);
	if (rc < 0) {
		json_decref(files);
		return rc;
	}
	return dsi_json_emit(files, json_out, err);
}

int ds_manifest_locate(const char *text, size_t size, size_t document, const char *path, int *line, int *column,
		       int *exact, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, path, line, column);
	DSI_ARG_DOC(err, text, size);
	if (document < 1)
		return dsi_error_set(err, DS_EARG, NULL, "documents are numbered from 1");
	*line = *column = 0;
	int r = dsi_yaml_locate(text ? text : "", size, document - 1, path, line, column);
	if (r < 0)
		return dsi_error_set(err, DS_ENOTFOUND, NULL, "the text has no document %zu", document);
	if (exact)
		*exact = r == 0;
	return 0;
}

static int cmp_ds_key(const void *a, const void *b, void *ctx)
{
	const dsi_cluster *c = ctx;
	const dsi_daemonset *x = a, *y = b;
	int r = strcmp(dsi_cstr(c, x->meta.ns), dsi_cstr(c, y->meta.ns));
	return r ? r : strcmp(dsi_cstr(c, x->meta.name), dsi_cstr(c, y->meta.name));
}

/* The snapshot's DaemonSets by (namespace, name): the storage order depends on the history of loads.
 * *out is freed with dsi_free (NULL when there are none). */
static int sorted_daemonsets(const ds_cluster *c, void ***out, size_t *n)
{
	*n = dsi_cluster_count(c, DSI_KIND_DAEMONSET);
	*out = NULL;
	if (!*n)
		return 0;
	if (!(*out = dsi_calloc(*n, sizeof(**out))))
		return -1;
	memcpy(*out, c->objs[DSI_KIND_DAEMONSET].v, *n * sizeof(**out));
	dsi_sort_ptrs(*out, *n, cmp_ds_key, (void *)c);
	return 0;
}

int ds_cluster_daemonset_at(const ds_cluster *cluster, size_t i, const char **namespace_, const char **name,
			    ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (namespace_)
		*namespace_ = NULL;
	if (name)
		*name = NULL;
	DSI_ARGS_NONNULL(err, cluster);
	void **sorted;
	size_t n;
	if (sorted_daemonsets(cluster, &sorted, &n) < 0)
		return dsi_error_nomem(err);
	if (i >= n) {
		dsi_free(sorted);
		return dsi_error_set(err, DS_EARG, NULL, "DaemonSet %zu out of range (%zu)", i, n);
	}
	const dsi_daemonset *d = sorted[i];
	dsi_free(sorted);
	if (namespace_)
		*namespace_ = dsi_cstr(cluster, d->meta.ns);
	if (name)
		*name = dsi_cstr(cluster, d->meta.name);
	return 0;
}

int ds_cluster_summary(const ds_cluster *cluster, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, cluster, json_out);
	const dsi_cluster *c = cluster;
	json_t *o = json_object(), *nodes = json_array(), *dss = json_array();
	for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_NODE); i++)
		json_array_append_new(nodes, json_string(dsi_cstr(c, dsi_cluster_node_at(c, i)->meta.name)));
	void **sorted;
	size_t nds;
	if (sorted_daemonsets(c, &sorted, &nds) < 0) {
		json_decref(o), json_decref(nodes), json_decref(dss);
		return dsi_error_nomem(err);
	}
	for (size_t i = 0; i < nds; i++) {
		const dsi_daemonset *d = sorted[i];
		json_t *e = json_pack("{s:s, s:s}", "namespace", dsi_cstr(c, d->meta.ns), "name",
				      dsi_cstr(c, d->meta.name));
		/* from a manifest: what loading gave it (kubectl's namespace, the API server's defaults) */
		if (e && d->manifest)
			json_object_set_new(e, "fromManifest",
					    json_pack("{s:b, s:b}", "namespaceDefaulted",
						      (d->manifest & DSI_MANIFEST_NAMESPACE) != 0, "apiDefaults",
						      (d->manifest & DSI_MANIFEST_DEFAULTS) != 0));
		json_array_append_new(dss, e);
	}
	dsi_free(sorted);
	json_object_set_new(o, "nodes", json_integer((json_int_t)dsi_cluster_count(c, DSI_KIND_NODE)));
	json_object_set_new(o, "pods", json_integer((json_int_t)dsi_cluster_count(c, DSI_KIND_POD)));
	json_object_set_new(o, "daemonSetCount", json_integer((json_int_t)dsi_cluster_count(c, DSI_KIND_DAEMONSET)));
	json_object_set_new(o, "controllerRevisions",
			    json_integer((json_int_t)dsi_cluster_count(c, DSI_KIND_REVISION)));
	json_object_set_new(o, "podDisruptionBudgets", json_integer((json_int_t)dsi_cluster_count(c, DSI_KIND_PDB)));
	json_object_set_new(o, "priorityClasses",
			    json_integer((json_int_t)dsi_cluster_count(c, DSI_KIND_PRIORITY_CLASS)));
	json_object_set_new(o, "persistentVolumeClaims", json_integer((json_int_t)dsi_cluster_count(c, DSI_KIND_PVC)));
	json_object_set_new(o, "persistentVolumes", json_integer((json_int_t)dsi_cluster_count(c, DSI_KIND_PV)));
	json_object_set_new(o, "storageClasses",
			    json_integer((json_int_t)dsi_cluster_count(c, DSI_KIND_STORAGE_CLASS)));
	json_object_set_new(o, "csiNodes", json_integer((json_int_t)dsi_cluster_count(c, DSI_KIND_CSINODE)));
	json_object_set_new(o, "other", json_integer((json_int_t)dsi_cluster_count(c, DSI_KIND_OTHER)));
	json_object_set_new(o, "nodeNames", nodes);
	json_object_set_new(o, "daemonSets", dss);
	return emit(o, json_out, err);
}

static json_t *pod_json(const dsi_cluster *c, const dsi_pod *p)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:b}", "namespace", dsi_cstr(c, p->meta.ns), "name",
			      dsi_cstr(c, p->meta.name), "phase", dsi_phase_name(p->phase), "ready", p->ready);
	if (!o)
		return NULL;
	if (p->spec.node_name)
		json_object_set_new(o, "nodeName", json_string(dsi_cstr(c, p->spec.node_name)));
	if (p->spec.target_node)
		json_object_set_new(o, "targetNode", json_string(dsi_cstr(c, p->spec.target_node)));
	if (p->meta.controller.uid || p->meta.controller.kind)
		json_object_set_new(
			o, "controller",
			json_pack("{s:s, s:s, s:s, s:s}", "apiVersion", dsi_cstr(c, p->meta.controller.api_version),
				  "kind", dsi_cstr(c, p->meta.controller.kind), "name",
				  dsi_cstr(c, p->meta.controller.name), "uid", dsi_cstr(c, p->meta.controller.uid)));
	json_object_set_new(o, "labels", dsi_labels_to_json(&c->atoms, &p->meta.labels));
	json_object_set_new(o, "requests", dsi_resources_to_json(&c->atoms, &p->spec.requests));
	if (p->spec.has_priority)
		json_object_set_new(o, "priority", json_integer(p->spec.priority));
	if (p->meta.has_deletion)
		json_object_set_new(o, "terminating", json_true());
	return o;
}

int ds_cluster_get(const ds_cluster *cluster, const char *kind, const char *namespace_, const char *name,
		   char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, cluster, name, json_out);
	const dsi_cluster *c = cluster;
	*json_out = NULL;
	dsi_kind k;
	const char *gk;
	int rc = parse_kind(kind, &k, &gk, err);
	if (rc < 0)
		return rc;
	dsi_atom ns = dsi_atom_lookup_id(&c->atoms, namespace_);
	dsi_atom n = dsi_atom_lookup_id(&c->atoms, name);
	void *o = (n && (!namespace_ || !*namespace_ || ns)) ? dsi_map_get(&c->by_key[k], dsi_key2(ns, n)) : NULL;
	if (!o || k == DSI_KIND_OTHER || k == DSI_KIND_PRIORITY_CLASS || k == DSI_KIND_PVC || k == DSI_KIND_PV ||
	    k == DSI_KIND_STORAGE_CLASS || k == DSI_KIND_CSINODE)
		return dsi_error_set(err, o ? DS_EARG : DS_ENOTFOUND, NULL,
				     o ? "%s objects are not kept in full" : "%s %s not found", kind, name);
	/* the stored JSON is the snapshot's, which other threads may be reading: dumped as it is */
	switch (k) {
	case DSI_KIND_NODE: return emit(dsi_node_to_json(&c->atoms, o), json_out, err);
	case DSI_KIND_POD: return emit(pod_json(c, o), json_out, err);
	case DSI_KIND_DAEMONSET: return dsi_json_emit_shared(((dsi_daemonset *)o)->obj, json_out, err);
	case DSI_KIND_REVISION: return dsi_json_emit_shared(((dsi_revision *)o)->obj, json_out, err);
	case DSI_KIND_PDB: return dsi_json_emit_shared(((dsi_pdb *)o)->obj, json_out, err);
	default: return emit(NULL, json_out, err);
	}
}

int ds_objects_parse(const char *data, size_t size, const ds_options *opts, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, json_out);
	DSI_ARG_DOC(err, data, size);
	*json_out = NULL;
	return dsi_objects_text(data ? data : "", size, &dsi_o_core(opts)->limits, json_out, err);
}
