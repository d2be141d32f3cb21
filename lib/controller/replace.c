/*
 * A list's answer becomes the snapshot's objects of one kind, as the
 * informer's Replace does it (client-go tools/cache/delta_fifo.go): objects
 * that are gone are deleted, the listed ones added or updated, and each
 * change reaches the DaemonSet controller's event handlers like a watch event
 * (handlers.c), so expectations and the queue see what they would upstream.
 */
#include <stdio.h>
#include <string.h>

#include "controller/controller.h"
#include "core/alloc.h"
#include "model/labels.h"

static const struct {
	int kind;
	const char *name, *api;
} kinds[] = {
	{DSI_KIND_NODE, "Node", "v1"},
	{DSI_KIND_POD, "Pod", "v1"},
	{DSI_KIND_DAEMONSET, "DaemonSet", "apps/v1"},
	{DSI_KIND_REVISION, "ControllerRevision", "apps/v1"},
};

static int kind_index(int kind)
{
	for (size_t i = 0; i < DSI_ARRAY_LEN(kinds); i++)
		if (kinds[i].kind == kind)
			return (int)i;
	return -1;
}

/* The items of a list answer, each with the kind and apiVersion the API server leaves out of
 * list items, as {"kind": "List", "items": [...]}; an item of another kind is an error. */
static int normalize(int kind, const json_t *list, json_t **out, ds_error *err)
{
	*out = NULL;
	int ki = kind_index(kind);
	if (ki < 0)
		return dsi_error_set(err, DS_EARG, NULL, "not a kind the controller lists");
	if (!json_is_object(list))
		return dsi_error_set(err, DS_ETYPE, NULL, "expected a %sList object", kinds[ki].name);
	const json_t *items = json_object_get(list, "items");
	if (items && !json_is_array(items) && !json_is_null(items))
		return dsi_error_set(err, DS_ETYPE, "items", "expected an array");
	json_t *arr = json_array();
	json_t *doc = arr ? json_pack("{s:s, s:s, s:o}", "apiVersion", "v1", "kind", "List", "items", arr) : NULL;
	if (!doc)
		return dsi_error_nomem(err);
	for (size_t i = 0; i < json_array_size(items); i++) {
		json_t *item = json_array_get(items, i);
		char path[40];
		snprintf(path, sizeof(path), "items[%zu]", i);
		if (!json_is_object(item)) {
			json_decref(doc);
			return dsi_error_set(err, DS_ETYPE, path, "expected a %s object", kinds[ki].name);
		}
		const char *k = json_string_value(json_object_get(item, "kind"));
		if (k && strcmp(k, kinds[ki].name) != 0) {
			json_decref(doc);
			snprintf(path, sizeof(path), "items[%zu].kind", i);
			return dsi_error_set(err, DS_EVALUE, path, "expected %s, got \"%s\"", kinds[ki].name, k);
		}
		json_t *copy = k ? json_incref(item) : json_copy(item);
		if (!copy ||
		    (!k && (json_object_set_new(copy, "kind", json_string(kinds[ki].name)) ||
			    json_object_set_new(copy, "apiVersion", json_string(kinds[ki].api)))) ||
		    json_array_append_new(arr, copy)) {
			json_decref(doc);
			return dsi_error_nomem(err);
		}
	}
	*out = doc;
	return 0;
}

int dsi_ctrl_check_list(dsi_controller *c, int kind, const json_t *list, size_t *count, ds_error *err)
{
	json_t *doc;
	int rc = normalize(kind, list, &doc, err);
	if (rc < 0)
		return rc;
	dsi_cluster scratch;
	if (dsi_cluster_init(&scratch, &c->core, &c->model) < 0) {
		json_decref(doc);
		return dsi_error_nomem(err);
	}
	rc = dsi_cluster_load_value(&scratch, doc, count, err);
	dsi_cluster_destroy(&scratch);
	json_decref(doc);
	return rc;
}

/* What the handlers need of an object that went away: its identity, labels and controller
 * reference (DeletedFinalStateUnknown carries the last state the informer knew). */
static json_t *deleted_object(const dsi_cluster *cl, int ki, const dsi_meta *m)
{
	json_t *labels = dsi_labels_to_json(&cl->atoms, &m->labels);
	json_t *meta =
		labels ? json_pack("{s:s, s:s, s:s, s:o}", "name", dsi_cstr(cl, m->name), "uid", dsi_cstr(cl, m->uid),
				   "resourceVersion", dsi_cstr(cl, m->resource_version), "labels", labels)
		       : NULL;
	if (meta && m->ns && json_object_set_new(meta, "namespace", json_string(dsi_cstr(cl, m->ns)))) {
		json_decref(meta);
		return NULL;
	}
	if (meta && m->controller.uid) {
		json_t *ref =
			json_pack("{s:s, s:s, s:s, s:s, s:b, s:b}", "apiVersion",
				  dsi_cstr(cl, m->controller.api_version), "kind", dsi_cstr(cl, m->controller.kind),
				  "name", dsi_cstr(cl, m->controller.name), "uid", dsi_cstr(cl, m->controller.uid),
				  "controller", 1, "blockOwnerDeletion", m->controller.block_owner_deletion);
		if (!ref || json_object_set_new(meta, "ownerReferences", json_pack("[o]", ref))) {
			json_decref(meta);
			return NULL;
		}
	}
	return meta ? json_pack("{s:s, s:{s:s, s:s, s:o}}", "type", "DELETED", "object", "kind", kinds[ki].name,
				"apiVersion", kinds[ki].api, "metadata", meta)
		    : NULL;
}

static const dsi_meta *meta_at(const dsi_cluster *cl, int kind, size_t i)
{
	void *o = cl->objs[kind].v[i];
	switch (kind) {
	case DSI_KIND_NODE: return &((const dsi_node *)o)->meta;
	case DSI_KIND_POD: return &((const dsi_pod *)o)->meta;
	case DSI_KIND_DAEMONSET: return &((const dsi_daemonset *)o)->meta;
	default: return &((const dsi_revision *)o)->meta;
	}
}

static void key_of(const char *ns, const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", ns ? ns : "", name ? name : "");
}

int dsi_ctrl_replace(dsi_controller *c, int kind, const json_t *list, ds_time now, ds_error *err)
{
	json_t *doc;
	int rc = normalize(kind, list, &doc, err);
	if (rc < 0)
		return rc;
	int ki = kind_index(kind);
	const json_t *items = json_object_get(doc, "items");
	/* the names listed, then a DELETED event for each object of the kind not among them */
	json_t *listed = json_object(), *events = json_array();
	rc = listed && events ? 0 : dsi_error_nomem(err);
	char key[600];
	for (size_t i = 0; rc == 0 && i < json_array_size(items); i++) {
		const json_t *meta = json_object_get(json_array_get(items, i), "metadata");
		key_of(kind == DSI_KIND_NODE ? NULL : json_string_value(json_object_get(meta, "namespace")),
		       json_string_value(json_object_get(meta, "name")), key, sizeof(key));
		if (json_object_set_new(listed, key, json_true()))
			rc = dsi_error_nomem(err);
	}
	const dsi_cluster *cl = c->cluster;
	for (size_t i = 0; rc == 0 && i < dsi_cluster_count(cl, (dsi_kind)kind); i++) {
		const dsi_meta *m = meta_at(cl, kind, i);
		key_of(m->ns ? dsi_cstr(cl, m->ns) : NULL, dsi_cstr(cl, m->name), key, sizeof(key));
		if (json_object_get(listed, key))
			continue;
		json_t *ev = deleted_object(cl, ki, m);
		if (!ev || json_array_append_new(events, ev))
			rc = dsi_error_nomem(err);
	}
	/* deletions first, as a watch would have told them before the objects that followed */
	for (size_t i = 0; rc == 0 && i < json_array_size(events); i++)
		rc = dsi_ctrl_handle_event(c, json_array_get(events, i), now, err);
	for (size_t i = 0; rc == 0 && i < json_array_size(items); i++) {
		json_t *ev = json_pack("{s:s, s:O}", "type", "ADDED", "object", json_array_get(items, i));
		rc = ev ? dsi_ctrl_handle_event(c, ev, now, err) : dsi_error_nomem(err);
		json_decref(ev);
	}
	json_decref(listed);
	json_decref(events);
	json_decref(doc);
	return rc;
}
