#include "daemon/rollback.h"

#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"
#include "daemon/history.h"

static int by_revision(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const dsi_revision *x = *(const dsi_revision *const *)a, *y = *(const dsi_revision *const *)b;
	return (x->revision > y->revision) - (x->revision < y->revision);
}

/* daemonSetHistory (kubectl polymorphichelpers/history.go): revisions in the
 * namespace that match the selector and are controlled by the DaemonSet. */
static const dsi_revision **controlled(const dsi_cluster *c, const dsi_daemonset *ds, size_t *n)
{
	size_t total = dsi_cluster_count(c, DSI_KIND_REVISION);
	const dsi_revision **v = dsi_calloc(total ? total : 1, sizeof(*v));
	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < total; i++) {
		const dsi_revision *r = c->objs[DSI_KIND_REVISION].v[i];
		if (r->meta.ns == ds->meta.ns && ds->meta.uid && r->meta.controller.uid == ds->meta.uid &&
		    dsi_selector_matches(&c->atoms, &ds->selector, &r->meta.labels))
			v[(*n)++] = r;
	}
	dsi_sort_stable(v, *n, sizeof(*v), by_revision, NULL);
	return v;
}

json_t *dsi_history_list(const dsi_cluster *c, const dsi_daemonset *ds)
{
	size_t n;
	const dsi_revision **v = controlled(c, ds, &n);
	json_t *arr = json_array();
	for (size_t i = 0; v && arr && i < n; i++)
		json_array_append_new(arr,
				      json_pack("{s:I, s:s, s:s, s:b}", "revision", (json_int_t)v[i]->revision, "name",
						dsi_cstr(c, v[i]->meta.name), "hash", dsi_cstr(c, v[i]->hash),
						"current", dsi_revision_is_current(ds, v[i])));
	dsi_free(v);
	return arr;
}

/* DaemonSetRollbacker.Rollback + findHistory + daemonSetMatch (kubectl rollback.go) */
int dsi_rollback(const dsi_cluster *c, const dsi_daemonset *ds, int64_t to_revision, json_t **out, ds_error *err)
{
	*out = NULL;
	if (to_revision < 0)
		return dsi_error_set(err, DS_ENOTFOUND, NULL, "unable to find specified revision %lld in history",
				     (long long)to_revision);
	size_t n;
	const dsi_revision **v = controlled(c, ds, &n);
	if (!v)
		return dsi_error_nomem(err);
	int rc = 0;
	const dsi_revision *to = NULL;
	if (to_revision == 0) {
		if (n <= 1) {
			dsi_free(v);
			return dsi_error_set(err, DS_ESTATE, NULL, "no last revision to roll back to");
		}
		to = v[n - 2]; /* the second newest */
	} else {
		for (size_t i = 0; i < n; i++)
			if (v[i]->revision == to_revision)
				to = v[i];
	}
	dsi_free(v);
	if (!to)
		return dsi_error_set(err, DS_ENOTFOUND, NULL, "unable to find specified revision %lld in history",
				     (long long)to_revision);
	json_t *tmpl = json_object_get(json_object_get(to->data, "spec"), "template");
	int64_t rev = to_revision ? to_revision : to->revision;
	char msg[600];
	const char *name = dsi_cstr(c, ds->meta.name);
	int skipped = dsi_revision_is_current(ds, to);
	if (!json_is_object(tmpl))
		return dsi_error_set(err, DS_EINVALID, "data.spec.template",
				     "controllerrevisions.apps \"%s\" holds no pod template",
				     dsi_cstr(c, to->meta.name));
	if (skipped)
		snprintf(msg, sizeof(msg),
			 "daemonset.apps/%s skipped rollback (current template already matches revision %lld)", name,
			 (long long)rev);
	else
		snprintf(msg, sizeof(msg), "daemonset.apps/%s rolled back", name);
	/* the stored patch replaces the whole template ("$patch": "replace") */
	json_t *result = json_deep_copy(ds->obj), *t = json_deep_copy(tmpl);
	if (!result || !t) {
		json_decref(result);
		json_decref(t);
		return dsi_error_nomem(err);
	}
	json_object_del(t, "$patch");
	json_t *spec = json_object_get(result, "spec");
	if (json_is_object(spec))
		json_object_set_new(spec, "template", t);
	else
		json_decref(t);
	/* patch is a copy: the revision's data is the snapshot's, which other threads may be reading */
	*out = json_pack("{s:s, s:I, s:b, s:o, s:o}", "message", msg, "toRevision", (json_int_t)to->revision, "skipped",
			 skipped, "patch", json_deep_copy(to->data), "daemonSet", result);
	if (!*out)
		rc = dsi_error_nomem(err);
	return rc;
}
