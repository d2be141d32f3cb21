#include "daemon/history.h"

#include <string.h>

#include "core/alloc.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "daemon/dspods.h"

void dsi_history_release(dsi_history *h)
{
	json_decref(h->create);
	dsi_free(h->old);
	dsi_free(h->dups);
	dsi_free(h->adopt);
	dsi_free(h->release);
	memset(h, 0, sizeof(*h));
}

static int by_name(const void *a, const void *b, void *ctx)
{
	const dsi_cluster *c = ctx;
	return strcmp(dsi_cstr(c, ((const dsi_revision *)a)->meta.name),
		      dsi_cstr(c, ((const dsi_revision *)b)->meta.name));
}

static int by_revision(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const dsi_revision *x = *(const dsi_revision *const *)a, *y = *(const dsi_revision *const *)b;
	return (x->revision > y->revision) - (x->revision < y->revision);
}

void dsi_history_new_name(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_history *h, char *buf, size_t size)
{
	snprintf(buf, size, "%s-%s", dsi_cstr(c, ds->meta.name), h->new_hash ? h->new_hash : "");
}

/* controlledHistories + constructHistory + dedupCurHistories (update.go) */
int dsi_history_construct(const dsi_cluster *c, const dsi_daemonset *ds, const char *hash, unsigned flags,
			  dsi_history *h, ds_error *err)
{
	memset(h, 0, sizeof(*h));
	size_t n = dsi_cluster_count(c, DSI_KIND_REVISION);
	h->patch = ds->patch;
	const dsi_revision **mine = dsi_calloc(n ? n : 1, sizeof(*mine));
	h->old = dsi_calloc(n ? n : 1, sizeof(*h->old));
	h->dups = dsi_calloc(n ? n : 1, sizeof(*h->dups));
	h->adopt = dsi_calloc(n ? n : 1, sizeof(*h->adopt));
	h->release = dsi_calloc(n ? n : 1, sizeof(*h->release));
	if (!mine || !h->old || !h->dups || !h->adopt || !h->release) {
		dsi_free(mine);
		dsi_history_release(h);
		return dsi_error_nomem(err);
	}
	uint32_t nmine = 0;
	for (size_t i = 0; i < n; i++) {
		const dsi_revision *r = c->objs[DSI_KIND_REVISION].v[i];
		if (r->meta.ns != ds->meta.ns)
			continue;
		int ours = ds->meta.uid && r->meta.controller.uid == ds->meta.uid;
		int matches = dsi_selector_matches(&c->atoms, &ds->selector, &r->meta.labels);
		if (ours && matches)
			mine[nmine++] = r;
		else if (ours && !ds->meta.has_deletion)
			h->release[h->nrelease++] = r;
		else if (!r->meta.controller.uid && matches && !ds->meta.has_deletion && !r->meta.has_deletion) {
			mine[nmine++] = r;
			h->adopt[h->nadopt++] = r;
		}
	}
	/* list order upstream is the informer's; ours is by name, so ties are deterministic */
	dsi_sort_ptrs((void **)mine, nmine, by_name, (void *)c);
	int64_t max_old = 0;
	for (uint32_t i = 0; i < nmine; i++) {
		const dsi_revision *r = mine[i];
		if (dsi_revision_is_current(ds, r)) {
			/* dedupCurHistories keeps the highest revision (the later one on a tie) */
			if (!h->current || r->revision >= h->current->revision) {
				if (h->current)
					h->dups[h->ndups++] = h->current;
				h->current = r;
			} else {
				h->dups[h->ndups++] = r;
			}
		} else {
			h->old[h->nold++] = r;
			if (r->revision > max_old)
				max_old = r->revision;
		}
	}
	dsi_free(mine);
	dsi_sort_stable(h->old, h->nold, sizeof(*h->old), by_revision, NULL);
	h->next_revision = max_old + 1;
	if (h->current) {
		snprintf(h->hash, sizeof(h->hash), "%s", dsi_cstr(c, h->current->hash));
		h->bump = h->current->revision < h->next_revision;
		return 0;
	}
	h->edited_outside =
		nmine > 0 && ds->meta.generation > 0 && ds->status.observed_generation == ds->meta.generation;
	/* snapshot (update.go): a new revision named <ds>-<hash> */
	if (!hash || !*hash)
		hash = ds->hash;
	snprintf(h->hash, sizeof(h->hash), "%s", hash);
	h->new_hash = hash;
	if (!(flags & DSI_HISTORY_CREATE))
		return 0; /* status and placement only need the hash */
	json_t *labels = dsi_labels_to_json(&c->atoms, &ds->template_labels);
	if (labels)
		json_object_set_new(labels, "controller-revision-hash", json_string(hash));
	char name[600];
	dsi_history_new_name(c, ds, h, name, sizeof(name));
	json_t *ann = json_object_get(json_object_get(ds->obj, "metadata"), "annotations");
	const char *api = ds->kruise ? json_string_value(json_object_get(ds->obj, "apiVersion")) : "apps/v1";
	/* data is a copy: the patch is the snapshot's, which other threads may be reading */
	h->create = json_pack(
		"{s:s, s:s, s:{s:s, s:s, s:o, s:[{s:s, s:s, s:s, s:s, s:b, s:b}]}, s:o, s:I}", "apiVersion", "apps/v1",
		"kind", "ControllerRevision", "metadata", "name", name, "namespace", dsi_cstr(c, ds->meta.ns), "labels",
		labels ? labels : json_object(), "ownerReferences", "apiVersion", api ? api : "apps/v1", "kind",
		"DaemonSet", "name", dsi_cstr(c, ds->meta.name), "uid", dsi_cstr(c, ds->meta.uid), "controller", 1,
		"blockOwnerDeletion", 1, "data", json_deep_copy(h->patch), "revision", (json_int_t)h->next_revision);
	/* the revision carries the DaemonSet's annotations */
	if (h->create && json_is_object(ann) && json_object_size(ann))
		json_object_set_new(json_object_get(h->create, "metadata"), "annotations", json_deep_copy(ann));
	if (!h->create) {
		dsi_history_release(h);
		return dsi_error_nomem(err);
	}
	return 0;
}

static int hash_in(const dsi_atom *live, uint32_t n, dsi_atom h)
{
	for (uint32_t i = 0; i < n; i++)
		if (live[i] == h)
			return 1;
	return 0;
}

/* cleanupHistory (update.go) */
uint32_t dsi_history_cleanup(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_history *h,
			     const dsi_revision **out)
{
	int64_t to_kill = (int64_t)h->nold - ds->revision_history_limit;
	if (to_kill <= 0)
		return 0;
	dsi_ds_pods pods;
	if (dsi_ds_pods_collect(c, ds, 1, &pods) < 0)
		return 0;
	dsi_atom *live = dsi_calloc(pods.n ? pods.n : 1, sizeof(dsi_atom));
	uint32_t nlive = 0;
	for (uint32_t i = 0; live && i < pods.n; i++)
		if (pods.v[i]->revision_hash)
			live[nlive++] = pods.v[i]->revision_hash;
	uint32_t k = 0;
	for (uint32_t i = 0; live && i < h->nold && to_kill > 0; i++) {
		if (hash_in(live, nlive, h->old[i]->hash))
			continue;
		out[k++] = h->old[i];
		to_kill--;
	}
	dsi_free(live);
	dsi_ds_pods_release(&pods);
	return k;
}

int dsi_history_warning(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_history *h, char **out)
{
	*out = NULL;
	if (!h->edited_outside)
		return 0;
	*out = dsi_format(
		"the template of DaemonSet %s/%s matches none of its ControllerRevisions, yet its metadata.generation "
		"(%lld) is the one the controller last observed: the template was changed without the API server, "
		"which bumps metadata.generation and the deprecated.daemonset.template.generation annotation; pods "
		"may be counted as updated that are not (edit it with ds_daemonset_update(3) or dsctl set)",
		dsi_cstr(c, ds->meta.ns), dsi_cstr(c, ds->meta.name), (long long)ds->meta.generation);
	return *out ? 0 : -1;
}

json_t *dsi_revision_names(const dsi_cluster *c, const dsi_revision *const *v, uint32_t n)
{
	json_t *a = json_array();
	for (uint32_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(dsi_cstr(c, v[i]->meta.name)));
	return a;
}
