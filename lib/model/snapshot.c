#include "model/snapshot.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/jsonfront.h"
#include "core/load.h"
#include "core/sort.h"
#include "model/nodeevent.h"

static const char *const kind_names[DSI_KIND_COUNT] = {"Node",
						       "Pod",
						       "DaemonSet",
						       "ControllerRevision",
						       "PodDisruptionBudget",
						       "PriorityClass",
						       "PersistentVolumeClaim",
						       "PersistentVolume",
						       "StorageClass",
						       "CSINode",
						       "Other"};

const char *dsi_kind_name(dsi_kind k) { return k < DSI_KIND_COUNT ? kind_names[k] : ""; }

int dsi_kind_from_name(const char *kind)
{
	for (int k = 0; k < DSI_KIND_OTHER; k++)
		if (strcmp(kind, kind_names[k]) == 0)
			return k;
	return -1;
}

/* ---- per-kind plumbing ---- */

static dsi_meta *meta_of(dsi_kind k, void *o)
{
	switch (k) {
	case DSI_KIND_NODE: return &((dsi_node *)o)->meta;
	case DSI_KIND_POD: return &((dsi_pod *)o)->meta;
	case DSI_KIND_DAEMONSET: return &((dsi_daemonset *)o)->meta;
	case DSI_KIND_REVISION: return &((dsi_revision *)o)->meta;
	case DSI_KIND_PDB: return &((dsi_pdb *)o)->meta;
	case DSI_KIND_PRIORITY_CLASS: return &((dsi_priority_class *)o)->meta;
	case DSI_KIND_PVC: return &((dsi_pvc *)o)->meta;
	case DSI_KIND_PV: return &((dsi_pv *)o)->meta;
	case DSI_KIND_STORAGE_CLASS: return &((dsi_storage_class *)o)->meta;
	case DSI_KIND_CSINODE: return &((dsi_csinode *)o)->meta;
	default: return &((dsi_other *)o)->meta;
	}
}

static uint32_t *index_of(dsi_kind k, void *o)
{
	switch (k) {
	case DSI_KIND_NODE: return &((dsi_node *)o)->index;
	case DSI_KIND_POD: return &((dsi_pod *)o)->index;
	case DSI_KIND_DAEMONSET: return &((dsi_daemonset *)o)->index;
	case DSI_KIND_REVISION: return &((dsi_revision *)o)->index;
	case DSI_KIND_PDB: return &((dsi_pdb *)o)->index;
	case DSI_KIND_PRIORITY_CLASS: return &((dsi_priority_class *)o)->index;
	case DSI_KIND_PVC: return &((dsi_pvc *)o)->index;
	case DSI_KIND_PV: return &((dsi_pv *)o)->index;
	case DSI_KIND_STORAGE_CLASS: return &((dsi_storage_class *)o)->index;
	case DSI_KIND_CSINODE: return &((dsi_csinode *)o)->index;
	default: return &((dsi_other *)o)->index;
	}
}

/* dsi_other objects with the same namespace/name but another kind chain through this. */
typedef struct other_box {
	dsi_other o;
	struct other_box *next;
} other_box;

/*
 * Slabs: the nodes (with their labels and taints) and the pods (with their labels) of one batch
 * are moved into one block, in document order, so that a sync walking the nodes in name order
 * (or a DaemonSet's pods) reads memory sequentially instead of chasing pointers scattered among
 * the parser's freed garbage. An object in a slab is released as any other, except that the
 * arrays and the struct that live in the block are not freed: the block is freed with its last
 * object. Objects replaced by later events are allocated one by one again.
 */
typedef struct dsi_slab {
	size_t live; /* objects in the block not yet released */
	max_align_t data[];
} dsi_slab;

static void slab_unref(dsi_slab *slab)
{
	if (--slab->live == 0)
		dsi_free(slab);
}

/* Release o, whose atoms are in table atoms (the snapshot's, or a thread's staging table). */
static void release_obj(dsi_atoms *atoms, dsi_kind k, void *o)
{
	dsi_slab *slab = NULL;
	switch (k) {
	case DSI_KIND_NODE: {
		dsi_node *n = o;
		if ((slab = n->slab)) { /* arrays in the block (the non-empty ones): drop their references only */
			if (n->meta.labels.n)
				dsi_kv_array_disown(atoms, (void **)&n->meta.labels.v, &n->meta.labels.n,
						    sizeof(dsi_label));
			if (n->taints.n)
				dsi_kv_array_disown(atoms, (void **)&n->taints.v, &n->taints.n, sizeof(dsi_taint));
		}
		dsi_node_release(atoms, n);
		break;
	}
	case DSI_KIND_POD: {
		dsi_pod *p = o;
		if ((slab = p->slab) && p->meta.labels.n)
			dsi_kv_array_disown(atoms, (void **)&p->meta.labels.v, &p->meta.labels.n, sizeof(dsi_label));
		dsi_pod_release(atoms, p);
		break;
	}
	case DSI_KIND_DAEMONSET: dsi_daemonset_release(atoms, o); break;
	case DSI_KIND_REVISION: dsi_revision_release(atoms, o); break;
	case DSI_KIND_PDB: dsi_pdb_release(atoms, o); break;
	case DSI_KIND_PRIORITY_CLASS: dsi_priority_class_release(atoms, o); break;
	case DSI_KIND_PVC: dsi_pvc_release(atoms, o); break;
	case DSI_KIND_PV: dsi_pv_release(atoms, o); break;
	case DSI_KIND_STORAGE_CLASS: dsi_storage_class_release(atoms, o); break;
	case DSI_KIND_CSINODE: dsi_csinode_release(atoms, o); break;
	default:
		dsi_meta_release(atoms, &((dsi_other *)o)->meta);
		dsi_atom_unref(atoms, ((dsi_other *)o)->group_kind);
		dsi_dra_free(atoms, ((dsi_other *)o)->dra);
		break;
	}
	if (slab)
		slab_unref(slab);
	else
		dsi_free(o);
}

static uint64_t key_of(const dsi_meta *m) { return dsi_key2(m->ns, m->name); }

/* ---- pod lists (intrusive, per node name, per owner uid, orphans per namespace) ---- */

/* The index a pod bound to `name` caches: kept right by every change to nodes and bindings, so that
 * a sync groups pods by node without a lookup per pod. */
static void set_pods_node_index(dsi_cluster *c, dsi_atom name, uint32_t index)
{
	for (dsi_pod *p = dsi_map_get(&c->pods_on_node, name); p; p = p->node_next)
		p->node_index = index;
}

static void node_list_link(dsi_cluster *c, dsi_pod *p)
{
	p->node_index = DSI_NO_NODE;
	if (!p->spec.node_name)
		return;
	const dsi_node *n = dsi_cluster_node(c, p->spec.node_name);
	p->node_index = n ? n->index : DSI_NO_NODE;
	dsi_pod *head = dsi_map_get(&c->pods_on_node, p->spec.node_name);
	p->node_prev = NULL;
	p->node_next = head;
	if (head)
		head->node_prev = p;
	dsi_map_put(&c->pods_on_node, p->spec.node_name, p); /* reserved: cannot fail */
}

static void node_list_unlink(dsi_cluster *c, dsi_pod *p)
{
	if (!p->spec.node_name)
		return;
	if (p->node_prev)
		p->node_prev->node_next = p->node_next;
	else if (p->node_next)
		dsi_map_put(&c->pods_on_node, p->spec.node_name, p->node_next); /* replaces: no allocation */
	else
		dsi_map_del(&c->pods_on_node, p->spec.node_name);
	if (p->node_next)
		p->node_next->node_prev = p->node_prev;
	p->node_next = p->node_prev = NULL;
	p->node_index = DSI_NO_NODE;
}

/* The group a pod is listed in: its controller's uid, or for pods without one (an owner reference
 * without a uid included) its namespace, which may be the empty one (0) of a dump that names none. */
static dsi_map *owner_map(dsi_cluster *c, dsi_pod *p, dsi_atom *key)
{
	if (p->meta.controller.uid) {
		*key = p->meta.controller.uid;
		return &c->pods_by_owner;
	}
	*key = p->meta.ns;
	return &c->orphans_by_ns;
}

static void group_free(dsi_pod_group *g)
{
	dsi_free(g->v);
	dsi_free(g);
}

/* An empty group goes, unless the batch being committed reserved places in it. */
static void group_drop_if_empty(dsi_map *m, dsi_pod_group *g)
{
	if (g->n == 0 && g->pending == 0) {
		dsi_map_del(m, g->key);
		group_free(g);
	}
}

/* Commit cannot fail: the batch reserved the group and its place (reserve_groups). */
static void owner_group_add(dsi_cluster *c, dsi_pod *p)
{
	dsi_atom key;
	dsi_map *m = owner_map(c, p, &key);
	dsi_pod_group *g = dsi_map_get(m, key);
	if (!g || g->n == g->cap)
		return; /* not reached: reserved */
	p->group_pos = g->n;
	g->v[g->n++] = p;
}

static void owner_group_remove(dsi_cluster *c, dsi_pod *p)
{
	dsi_atom key;
	dsi_map *m = owner_map(c, p, &key);
	dsi_pod_group *g = dsi_map_get(m, key);
	if (!g || p->group_pos >= g->n || g->v[p->group_pos] != p)
		return;
	dsi_pod *last = g->v[--g->n];
	g->v[p->group_pos] = last;
	last->group_pos = p->group_pos;
	group_drop_if_empty(m, g);
}

static void groups_free(dsi_map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->vals[i])
			group_free(m->vals[i]);
	dsi_map_free(m);
}

/* ---- node order ---- */

static int cmp_node_name(const dsi_cluster *c, const dsi_node *a, const dsi_node *b)
{
	return strcmp(dsi_cstr(c, a->meta.name), dsi_cstr(c, b->meta.name));
}

/* Position of the node named like n in node_order (or where it would go). */
static size_t order_find(const dsi_cluster *c, const dsi_node *n, size_t count)
{
	size_t lo = 0, hi = count;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cmp_node_name(c, c->node_order[mid], n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- init / destroy ---- */

int dsi_cluster_init(dsi_cluster *c, const dsi_core_options *core, const dsi_model_options *model)
{
	memset(c, 0, sizeof(*c));
	c->core = *core;
	c->model = *model;
	/* a DNS label fits; the option's string belongs to the caller */
	snprintf(c->default_ns, sizeof(c->default_ns), "%s", model->default_namespace ? model->default_namespace : "");
	c->model.default_namespace = NULL;
	dsi_atoms_init(&c->atoms);
	c->k_hash_label = dsi_atom_intern_cstr(&c->atoms, "controller-revision-hash");
	c->k_gen_label = dsi_atom_intern_cstr(&c->atoms, "pod-template-generation");
	int failed = c->k_hash_label == DSI_ATOM_ERROR || c->k_gen_label == DSI_ATOM_ERROR;
	for (int i = 0; i < DSI_N_WELL_KNOWN_TAINTS; i++) {
		c->k_taints[i] = dsi_atom_intern_cstr(&c->atoms, dsi_well_known_taint_keys[i]);
		failed |= c->k_taints[i] == DSI_ATOM_ERROR;
	}
	if (failed) {
		dsi_atoms_free(&c->atoms);
		return -1;
	}
	for (int k = 0; k < DSI_KIND_COUNT; k++)
		dsi_map_init(&c->by_key[k]);
	dsi_map_init(&c->pods_on_node);
	dsi_map_init(&c->pods_by_owner);
	dsi_map_init(&c->orphans_by_ns);
	return 0;
}

void dsi_cluster_destroy(dsi_cluster *c)
{
	for (int k = 0; k < DSI_KIND_COUNT; k++) {
		for (size_t i = 0; i < c->objs[k].n; i++) {
			if (k == DSI_KIND_OTHER) {
				other_box *b = c->objs[k].v[i];
				release_obj(&c->atoms, DSI_KIND_OTHER, b);
			} else {
				release_obj(&c->atoms, (dsi_kind)k, c->objs[k].v[i]);
			}
		}
		dsi_free(c->objs[k].v);
		dsi_map_free(&c->by_key[k]);
	}
	dsi_map_free(&c->pods_on_node);
	groups_free(&c->pods_by_owner);
	groups_free(&c->orphans_by_ns);
	dsi_free(c->node_order);
	dsi_free(c->label_key_nodes);
	dsi_atoms_free(&c->atoms);
	memset(c, 0, sizeof(*c));
}

/* ---- lookups ---- */

dsi_node *dsi_cluster_node(const dsi_cluster *c, dsi_atom name)
{
	return name ? dsi_map_get(&c->by_key[DSI_KIND_NODE], dsi_key2(0, name)) : NULL;
}

dsi_node *dsi_cluster_node_by_name(const dsi_cluster *c, const char *name)
{
	return dsi_cluster_node(c, dsi_atom_lookup_id(&c->atoms, name));
}

dsi_pod *dsi_cluster_pod(const dsi_cluster *c, dsi_atom ns, dsi_atom name)
{
	return dsi_map_get(&c->by_key[DSI_KIND_POD], dsi_key2(ns, name));
}

dsi_daemonset *dsi_cluster_daemonset(const dsi_cluster *c, const char *ns, const char *name)
{
	dsi_atom a = dsi_atom_lookup_id(&c->atoms, name);
	dsi_atom n = dsi_atom_lookup_id(&c->atoms, ns);
	if (!a || (ns && *ns && !n))
		return NULL;
	return dsi_map_get(&c->by_key[DSI_KIND_DAEMONSET], dsi_key2(n, a));
}

dsi_priority_class *dsi_cluster_priority_class(const dsi_cluster *c, dsi_atom name)
{
	return name ? dsi_map_get(&c->by_key[DSI_KIND_PRIORITY_CLASS], dsi_key2(0, name)) : NULL;
}

dsi_pvc *dsi_cluster_pvc(const dsi_cluster *c, dsi_atom ns, dsi_atom name)
{
	return name ? dsi_map_get(&c->by_key[DSI_KIND_PVC], dsi_key2(ns, name)) : NULL;
}

dsi_pv *dsi_cluster_pv(const dsi_cluster *c, dsi_atom name)
{
	return name ? dsi_map_get(&c->by_key[DSI_KIND_PV], dsi_key2(0, name)) : NULL;
}

dsi_storage_class *dsi_cluster_storage_class(const dsi_cluster *c, dsi_atom name)
{
	return name ? dsi_map_get(&c->by_key[DSI_KIND_STORAGE_CLASS], dsi_key2(0, name)) : NULL;
}

dsi_csinode *dsi_cluster_csinode(const dsi_cluster *c, dsi_atom name)
{
	return name ? dsi_map_get(&c->by_key[DSI_KIND_CSINODE], dsi_key2(0, name)) : NULL;
}

dsi_other *dsi_cluster_other(const dsi_cluster *c, const char *group_kind, const char *ns, const char *name)
{
	dsi_atom gk = dsi_atom_lookup_cstr(&c->atoms, group_kind);
	dsi_atom a = dsi_atom_lookup_id(&c->atoms, name);
	dsi_atom n = dsi_atom_lookup_id(&c->atoms, ns);
	if (!gk || !a || (ns && *ns && !n))
		return NULL;
	for (other_box *b = dsi_map_get(&c->by_key[DSI_KIND_OTHER], dsi_key2(n, a)); b; b = b->next)
		if (b->o.group_kind == gk)
			return &b->o;
	return NULL;
}

/* ---- staging: parse every object of a batch before changing anything ---- */

typedef struct staged {
	dsi_kind kind;
	int remove;   /* a DELETED watch event */
	void *obj;    /* parsed object (NULL for removals of unknown kinds) */
	dsi_meta key; /* for removals: namespace/name (atoms referenced) */
	dsi_atom gk;  /* for others: group/kind */
	size_t seq;   /* a thread's staging: the item's place in its List (dsi_load_par) */
} staged;

typedef struct batch {
	dsi_cluster *c;
	dsi_atoms *atoms; /* where the staged objects' atoms are: the snapshot's, or a thread's overlay on it */
	staged *v;
	size_t n, cap;
	size_t count[DSI_KIND_COUNT];
	int events;             /* items are watch events */
	size_t mark;            /* b->n when the current text began (unstage) */
	uint32_t listed;        /* dsi_supply bits of the typed Lists it read, for the snapshot's on commit */
	uint32_t listed_mark;   /* listed when the current text began (unstage) */
	dsi_pod_group **groups; /* the owner groups its pods join, each once (reserve_groups) */
	size_t ngroups;
} batch;

/* The table of a batch's atoms: a thread's own, or (atoms unset) the snapshot's. */
static dsi_atoms *batch_atoms(const batch *b) { return b->atoms ? b->atoms : &b->c->atoms; }

/* Drop the staged objects from index n on. */
static void batch_truncate(batch *b, size_t n)
{
	for (size_t i = n; i < b->n; i++) {
		staged *s = &b->v[i];
		if (s->obj) {
			release_obj(batch_atoms(b), s->kind, s->obj);
			b->count[s->kind]--;
		}
		dsi_meta_release(batch_atoms(b), &s->key);
		dsi_atom_unref(batch_atoms(b), s->gk);
	}
	b->n = n;
}

static void batch_free(batch *b)
{
	batch_truncate(b, 0);
	dsi_free(b->v);
	b->v = NULL;
	b->n = b->cap = 0;
}

/* "apps.kruise.io/v1alpha1" + "DaemonSet" -> "apps.kruise.io/DaemonSet"; "v1" -> "/Kind" */
static dsi_atom group_kind_atom(dsi_atoms *atoms, const char *api, const char *kind)
{
	/* "group/Kind" ("/Kind" for the core group); kind and api may be as long as the
	 * document allows, so the key is built on the heap */
	const char *slash = api ? strchr(api, '/') : NULL;
	size_t glen = slash ? (size_t)(slash - api) : 0, klen = strlen(kind);
	char *buf = dsi_malloc(glen + klen + 2);
	if (!buf)
		return DSI_ATOM_ERROR;
	memcpy(buf, api ? api : "", glen);
	buf[glen] = '/';
	memcpy(buf + glen + 1, kind, klen + 1);
	dsi_atom a = dsi_atom_intern_cstr(atoms, buf);
	dsi_free(buf);
	return a;
}

int dsi_classify_kind(const char *kind, const char *api, int legacy_daemonsets, dsi_rd *rd, dsi_kind *out, int *legacy)
{
	*legacy = 0;
	*out = DSI_KIND_OTHER;
	int k = dsi_kind_from_name(kind);
	if (k < 0)
		return 0;
	const char *want[DSI_KIND_OTHER] = {
		"v1", "v1", "apps/v1",           "apps/v1",          "policy/v1", "scheduling.k8s.io/v1",
		"v1", "v1", "storage.k8s.io/v1", "storage.k8s.io/v1"};
	if (!api || !*api || strcmp(api, want[k]) == 0) {
		*out = (dsi_kind)k;
		return 0;
	}
	if (k == DSI_KIND_DAEMONSET) {
		if (strcmp(api, "apps.kruise.io/v1alpha1") == 0 || strcmp(api, "apps.kruise.io/v1beta1") == 0) {
			*out = DSI_KIND_DAEMONSET;
			return 0;
		}
		if (strcmp(api, "extensions/v1beta1") == 0 || strcmp(api, "apps/v1beta2") == 0) {
			if (!legacy_daemonsets)
				return dsi_rd_fail(
					rd, "apiVersion", DS_EUNSUPPORTED,
					"no matches for kind \"DaemonSet\" in version \"%s\": DaemonSets are served "
					"as apps/v1 since Kubernetes 1.16 (set the legacyDaemonSets option to read "
					"this one with its group's old defaults)",
					api);
			*legacy = 1;
			*out = DSI_KIND_DAEMONSET;
			return 0;
		}
	}
	if (k == DSI_KIND_PDB && strcmp(api, "policy/v1beta1") == 0) {
		*out = DSI_KIND_PDB;
		return 0;
	}
	/* same kind name in another group (e.g. a CRD): keep its identity only */
	return 0;
}

/* BeforeCreate (apiserver pkg/registry/rest/create.go) via EnsureObjectNamespaceMatchesRequestNamespace
 * (rest/meta.go): the API server clears metadata.namespace of a cluster-scoped object, so a Node
 * or PriorityClass is found by its name alone whatever namespace its text claims. */
static void clear_cluster_scoped_namespace(dsi_atoms *atoms, dsi_kind k, dsi_meta *m)
{
	if (k != DSI_KIND_NODE && k != DSI_KIND_PRIORITY_CLASS && k != DSI_KIND_PV && k != DSI_KIND_STORAGE_CLASS &&
	    k != DSI_KIND_CSINODE)
		return;
	dsi_atom_unref(atoms, m->ns);
	m->ns = 0;
}

/* The kinds of ours that live in a namespace. */
static int namespaced(dsi_kind k)
{
	return k == DSI_KIND_POD || k == DSI_KIND_DAEMONSET || k == DSI_KIND_REVISION || k == DSI_KIND_PDB ||
	       k == DSI_KIND_PVC;
}

/* Every object is read as the API server holds it: the API layer's prepare (decoding, defaults, the
 * canonical form) gives it to the readers. An object from a manifest, not from an API server
 * (which gives every object a uid), is first given kubectl's namespace when it names none. What
 * was done to a manifest is returned as DSI_MANIFEST_* bits; *prep holds what prepare made. */
static int as_served(dsi_cluster *c, dsi_kind k, int in_ns, json_t *obj, int event, dsi_prepared *prep, ds_error *err)
{
	memset(prep, 0, sizeof(*prep));
	json_t *meta = json_object_get(obj, "metadata");
	const char *uid = json_string_value(json_object_get(meta, "uid"));
	unsigned how =
		(c->model.lenient ? DSI_PREPARE_LENIENT : 0) | (c->model.apply_defaults ? DSI_PREPARE_DEFAULTS : 0);
	int done = 0;
	/* a watch event comes from a server; a wrong type of metadata is the reader's to report */
	if (!event && !c->model.lenient && (!meta || json_is_object(meta)) && !(uid && *uid)) {
		done = DSI_MANIFEST;
		how |= DSI_PREPARE_MANIFEST;
		const char *ns = json_string_value(json_object_get(meta, "namespace"));
		if ((namespaced(k) || in_ns) && c->default_ns[0] && (!ns || !*ns) &&
		    !(json_object_get(meta, "namespace") && !ns)) {
			if (!meta && (!(meta = json_object()) || json_object_set_new(obj, "metadata", meta) < 0))
				return dsi_error_nomem(err);
			if (json_object_set_new(meta, "namespace", json_string(c->default_ns)) < 0)
				return dsi_error_nomem(err);
			done |= DSI_MANIFEST_NAMESPACE;
		}
	}
	if (c->model.prepare && k != DSI_KIND_OTHER) {
		int rc = c->model.prepare(obj, (int)k, how, prep, err);
		if (rc < 0)
			return rc;
		if (prep->defaulted && done)
			done |= DSI_MANIFEST_DEFAULTS;
	}
	return done;
}

static int stage(batch *b, json_t *obj, const char *kind, const char *api, int remove, ds_error *err)
{
	dsi_cluster *c = b->c;
	dsi_atoms *atoms = batch_atoms(b);
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	rd.lenient = c->model.lenient;
	if (!kind || !*kind)
		return dsi_rd_fail(&rd, "kind", DS_EMISSING, "required value: every object needs a kind");
	dsi_kind k;
	int legacy, rc;
	dsi_dra_kind dra = 0;
	if ((rc = dsi_classify_kind(kind, api, c->model.legacy_daemonsets, &rd, &k, &legacy)) < 0 ||
	    (k == DSI_KIND_OTHER && !remove && (rc = dsi_dra_classify(&rd, kind, api, &dra)) < 0))
		return rc;
	if (DSI_GROW(b->v, b->cap, b->n + 1) < 0)
		return dsi_error_nomem(err);
	staged *s = &b->v[b->n];
	memset(s, 0, sizeof(*s));
	s->kind = k;
	s->remove = remove;
	if (k == DSI_KIND_OTHER) {
		s->gk = group_kind_atom(atoms, api, kind);
		if (s->gk == DSI_ATOM_ERROR) {
			s->gk = 0;
			return dsi_error_nomem(err);
		}
	}
	if (remove) {
		if ((rc = dsi_meta_read(&rd, atoms, obj, 1, &s->key)) < 0) {
			dsi_atom_unref(atoms, s->gk);
			return rc;
		}
		clear_cluster_scoped_namespace(atoms, k, &s->key);
		b->n++;
		return 0;
	}
	static const size_t sizes[DSI_KIND_COUNT] = {sizeof(dsi_node),     sizeof(dsi_pod),  sizeof(dsi_daemonset),
						     sizeof(dsi_revision), sizeof(dsi_pdb),  sizeof(dsi_priority_class),
						     sizeof(dsi_pvc),      sizeof(dsi_pv),   sizeof(dsi_storage_class),
						     sizeof(dsi_csinode),  sizeof(other_box)};
	void *o = dsi_calloc(1, sizes[k]);
	if (!o) {
		dsi_atom_unref(atoms, s->gk);
		return dsi_error_nomem(err);
	}
	unsigned gates = c->core.gates;
	dsi_prepared prep;
	/* a ResourceClaim lives in a namespace too */
	int manifest = as_served(c, k, dra == DSI_DRA_CLAIM, obj, b->events, &prep, err);
	if (manifest < 0) {
		dsi_free(o);
		dsi_atom_unref(atoms, s->gk);
		return manifest;
	}
	json_t *given = obj;
	if (prep.obj)
		obj = prep.obj;
	switch (k) {
	case DSI_KIND_NODE: rc = dsi_node_read(&rd, atoms, obj, o); break;
	case DSI_KIND_POD: rc = dsi_pod_read(&rd, atoms, obj, gates, o); break;
	case DSI_KIND_DAEMONSET:
		rc = dsi_daemonset_read(&rd, atoms, obj, prep.hashed, api, legacy, gates, c->core.k8s_minor, o);
		break;
	case DSI_KIND_REVISION: rc = dsi_revision_read(&rd, atoms, obj, o); break;
	case DSI_KIND_PDB: rc = dsi_pdb_read(&rd, atoms, obj, o); break;
	case DSI_KIND_PRIORITY_CLASS: rc = dsi_priority_class_read(&rd, atoms, obj, o); break;
	case DSI_KIND_PVC: rc = dsi_pvc_read(&rd, atoms, obj, o); break;
	case DSI_KIND_PV: rc = dsi_pv_read(&rd, atoms, obj, o); break;
	case DSI_KIND_STORAGE_CLASS: rc = dsi_storage_class_read(&rd, atoms, obj, o); break;
	case DSI_KIND_CSINODE: rc = dsi_csinode_read(&rd, atoms, obj, o); break;
	default:
		rc = dsi_meta_read(&rd, atoms, obj, 1, &((other_box *)o)->o.meta);
		((other_box *)o)->o.group_kind = s->gk;
		s->gk = 0; /* the object holds the reference now */
		if (rc == 0 && dra && (rc = dsi_dra_read(&rd, atoms, dra, obj, &((other_box *)o)->o.dra)) < 0)
			dsi_meta_release(atoms, &((other_box *)o)->o.meta);
		if (rc < 0) /* released below with the batch's */
			s->gk = ((other_box *)o)->o.group_kind;
		break;
	}
	json_decref(prep.obj); /* the reader keeps what it needs */
	json_decref(prep.hashed);
	if (rc < 0) {
		dsi_free(o);
		dsi_atom_unref(atoms, s->gk);
		return rc;
	}
	clear_cluster_scoped_namespace(atoms, k, meta_of(k, o));
	if (dra == DSI_DRA_CLASS || dra == DSI_DRA_SLICE) { /* cluster-scoped as well */
		dsi_atom_unref(atoms, meta_of(k, o)->ns);
		meta_of(k, o)->ns = 0;
	}
	if (k == DSI_KIND_DAEMONSET) {
		((dsi_daemonset *)o)->manifest = (uint8_t)manifest;
		((dsi_daemonset *)o)->given = prep.obj ? json_incref(given) : NULL;
	}
	s->obj = o;
	b->count[k]++;
	b->n++;
	return 0;
}

/* ---- commit ---- */

/* A place in its owner group for every pod of the batch, so that commit cannot fail. The groups
 * are remembered in the batch; groups_settle releases what was not used. */
static int reserve_groups(dsi_cluster *c, batch *b)
{
	size_t npods = b->count[DSI_KIND_POD];
	if (!npods)
		return 0;
	if (!(b->groups = dsi_malloc(npods * sizeof(*b->groups))))
		return -1;
	for (size_t i = 0; i < b->n; i++) {
		const staged *s = &b->v[i];
		if (s->kind != DSI_KIND_POD || !s->obj)
			continue;
		dsi_atom key;
		dsi_map *m = owner_map(c, s->obj, &key);
		dsi_pod_group *g = dsi_map_get(m, key);
		if (!g) {
			if (!(g = dsi_calloc(1, sizeof(*g))))
				return -1;
			g->key = key;
			dsi_map_put(m, key, g); /* reserved by the caller: cannot fail */
		}
		if (g->pending++ == 0)
			b->groups[b->ngroups++] = g;
	}
	for (size_t i = 0; i < b->ngroups; i++) {
		dsi_pod_group *g = b->groups[i];
		size_t need = (size_t)g->n + g->pending;
		if (need > g->cap) {
			size_t cap = g->cap ? g->cap : 4;
			while (cap < need)
				cap *= 2;
			if (cap > UINT32_MAX)
				return -1;
			dsi_pod **v = dsi_reallocarray(g->v, cap, sizeof(*v));
			if (!v)
				return -1;
			g->v = v;
			g->cap = (uint32_t)cap;
		}
	}
	return 0;
}

/* After a commit, or a reservation that failed: the reservations end, and groups left empty go. */
static void groups_settle(dsi_cluster *c, batch *b)
{
	for (size_t i = 0; i < b->ngroups; i++) {
		dsi_pod_group *g = b->groups[i];
		g->pending = 0;
		/* the map it is in: the one that holds it under its key */
		dsi_map *m = dsi_map_get(&c->pods_by_owner, g->key) == g ? &c->pods_by_owner : &c->orphans_by_ns;
		group_drop_if_empty(m, g);
	}
	dsi_free(b->groups);
	b->groups = NULL;
	b->ngroups = 0;
}

static int reserve(dsi_cluster *c, batch *b)
{
	size_t total = 0;
	for (int k = 0; k < DSI_KIND_COUNT; k++) {
		size_t need = c->objs[k].n + b->count[k];
		if (DSI_GROW(c->objs[k].v, c->objs[k].cap, need) < 0 || dsi_map_reserve(&c->by_key[k], b->count[k]) < 0)
			return -1;
		total += b->count[k];
	}
	size_t npods = b->count[DSI_KIND_POD];
	if (dsi_map_reserve(&c->pods_on_node, npods) < 0 || dsi_map_reserve(&c->pods_by_owner, npods) < 0 ||
	    dsi_map_reserve(&c->orphans_by_ns, npods) < 0)
		return -1;
	size_t ncap = c->objs[DSI_KIND_NODE].n + b->count[DSI_KIND_NODE];
	dsi_node **o = dsi_reallocarray(c->node_order, ncap ? ncap : 1, sizeof(*o));
	if (!o)
		return -1;
	c->node_order = o;
	(void)total;
	/* room for the label keys of the batch's nodes (keys are few and interned early: the ids are
	 * small, and the array stays much shorter than the atom table) */
	size_t need = 0;
	for (size_t i = 0; i < b->n; i++) {
		const dsi_node *n = b->v[i].kind == DSI_KIND_NODE && !b->v[i].remove ? b->v[i].obj : NULL;
		for (uint32_t j = 0; n && j < n->meta.labels.n; j++)
			if (n->meta.labels.v[j].key >= need)
				need = (size_t)n->meta.labels.v[j].key + 1;
	}
	if (need > c->label_key_cap) {
		size_t cap = need + need / 2;
		uint32_t *k = dsi_reallocarray(c->label_key_nodes, cap, sizeof(*k));
		if (!k)
			return -1;
		memset(k + c->label_key_cap, 0, (cap - c->label_key_cap) * sizeof(*k));
		c->label_key_nodes = k;
		c->label_key_cap = cap;
	}
	return reserve_groups(c, b);
}

/* dsi_cluster.label_key_nodes as a node comes (delta 1) or goes (-1) */
static void count_label_keys(dsi_cluster *c, const dsi_node *n, int delta)
{
	for (uint32_t i = 0; i < n->meta.labels.n; i++) {
		dsi_atom k = n->meta.labels.v[i].key;
		if (k < c->label_key_cap) /* always, after reserve */
			c->label_key_nodes[k] += (uint32_t)delta;
	}
}

static void vec_remove(dsi_cluster *c, dsi_kind k, void *o)
{
	dsi_vec *v = &c->objs[k];
	uint32_t i = *index_of(k, o);
	v->v[i] = v->v[--v->n];
	*index_of(k, v->v[i]) = i;
	if (k == DSI_KIND_NODE) { /* its pods lose their node; the moved node's pods follow it */
		set_pods_node_index(c, ((dsi_node *)o)->meta.name, DSI_NO_NODE);
		if (v->v[i] != o)
			set_pods_node_index(c, ((dsi_node *)v->v[i])->meta.name, i);
	}
}

static void order_remove(dsi_cluster *c, dsi_node *n)
{
	size_t pos = order_find(c, n, c->norder);
	if (pos < c->norder && c->node_order[pos] == n) {
		memmove(&c->node_order[pos], &c->node_order[pos + 1], (c->norder - pos - 1) * sizeof(dsi_node *));
		c->norder--;
	}
}

/* Unlink an object from every index and free it. */
static void drop(dsi_cluster *c, dsi_kind k, void *o)
{
	if (k == DSI_KIND_NODE) {
		order_remove(c, o);
		count_label_keys(c, o, -1);
	}
	if (k == DSI_KIND_POD) {
		node_list_unlink(c, o);
		owner_group_remove(c, o);
	}
	if (k == DSI_KIND_OTHER) {
		other_box *box = o, **pp;
		uint64_t key = key_of(&box->o.meta);
		other_box *head = dsi_map_get(&c->by_key[k], key);
		for (pp = &head; *pp && *pp != box; pp = &(*pp)->next)
			;
		if (*pp)
			*pp = box->next;
		if (head)
			dsi_map_put(&c->by_key[k], key, head);
		else
			dsi_map_del(&c->by_key[k], key);
	} else {
		dsi_map_del(&c->by_key[k], key_of(meta_of(k, o)));
	}
	vec_remove(c, k, o);
	release_obj(&c->atoms, k, o);
}

static void *find_existing(dsi_cluster *c, dsi_kind k, const dsi_meta *m, dsi_atom gk)
{
	void *o = dsi_map_get(&c->by_key[k], key_of(m));
	if (k != DSI_KIND_OTHER)
		return o;
	for (other_box *b = o; b; b = b->next)
		if (b->o.group_kind == gk)
			return b;
	return NULL;
}

static int by_name(const void *a, const void *b, void *ctx) { return cmp_node_name(ctx, a, b); }

static void commit(dsi_cluster *c, batch *b)
{
	dsi_node **added = NULL;
	size_t nadded = 0;
	size_t nnew = b->count[DSI_KIND_NODE];
	if (nnew)
		added = dsi_malloc(nnew * sizeof(*added)); /* fallback below if NULL */
	for (size_t i = 0; i < b->n; i++) {
		staged *s = &b->v[i];
		dsi_kind k = s->kind;
		const dsi_meta *m = s->remove ? &s->key : meta_of(k, s->obj);
		dsi_atom gk = k == DSI_KIND_OTHER ? (s->remove ? s->gk : ((other_box *)s->obj)->o.group_kind) : 0;
		void *old = find_existing(c, k, m, gk);
		if (s->remove) {
			if (old) {
				if (k == DSI_KIND_NODE)
					for (size_t j = 0; j < nadded; j++)
						if (added[j] == old)
							added[j] = added[--nadded];
				drop(c, k, old);
			}
			continue;
		}
		void *o = s->obj;
		s->obj = NULL;
		if (old && k == DSI_KIND_NODE) {
			/* same name: takes the old one's place in the order and the array */
			dsi_node *on = old, *nn = o;
			size_t pos = order_find(c, on, c->norder);
			int in_order = pos < c->norder && c->node_order[pos] == on;
			nn->index = on->index;
			c->objs[k].v[nn->index] = nn;
			if (in_order)
				c->node_order[pos] = nn;
			for (size_t j = 0; j < nadded; j++)
				if (added[j] == on)
					added[j] = nn;
			dsi_map_put(&c->by_key[k], key_of(&nn->meta), nn);
			count_label_keys(c, on, -1);
			count_label_keys(c, nn, 1);
			release_obj(&c->atoms, k, on);
			continue;
		}
		if (old)
			drop(c, k, old);
		*index_of(k, o) = (uint32_t)c->objs[k].n;
		c->objs[k].v[c->objs[k].n++] = o;
		if (k == DSI_KIND_OTHER) {
			other_box *box = o;
			box->next = dsi_map_get(&c->by_key[k], key_of(&box->o.meta));
			dsi_map_put(&c->by_key[k], key_of(&box->o.meta), box);
		} else {
			dsi_map_put(&c->by_key[k], key_of(meta_of(k, o)), o);
		}
		if (k == DSI_KIND_POD) {
			node_list_link(c, o);
			owner_group_add(c, o);
		}
		if (k == DSI_KIND_NODE) {
			count_label_keys(c, o, 1);
			if (added)
				added[nadded++] = o;
			set_pods_node_index(c, ((dsi_node *)o)->meta.name, ((dsi_node *)o)->index);
		}
	}
	size_t total = c->objs[DSI_KIND_NODE].n;
	if (!added && nnew) {
		c->norder = total;
		/* no memory for the merge: rebuild the order from the array (still correct, slower) */
		for (size_t i = 0; i < total; i++)
			c->node_order[i] = c->objs[DSI_KIND_NODE].v[i];
		dsi_sort_ptrs((void **)c->node_order, total, by_name, c);
	} else if (nadded) {
		/* merge the sorted new nodes into the order from the back */
		dsi_sort_ptrs((void **)added, nadded, by_name, c);
		size_t i = c->norder, j = nadded, w = c->norder + nadded;
		c->norder = w;
		while (j > 0) {
			if (i > 0 && cmp_node_name(c, c->node_order[i - 1], added[j - 1]) > 0)
				c->node_order[--w] = c->node_order[--i];
			else
				c->node_order[--w] = added[--j];
		}
	}
	dsi_free(added);
	c->version++;
}

/* ---- loading ---- */

static int stage_loaded(void *ctx, const dsi_loaded *it, ds_error *err)
{
	batch *b = ctx;
	int rc = stage(b, it->obj, it->kind, it->api_version, 0, err);
	if (rc < 0)
		dsi_error_prefix_path(err, it->path);
	return rc;
}

/* dsi_load_text_staged's undo: forget what the current text staged. */
static void unstage(void *ctx)
{
	batch *b = ctx;
	batch_truncate(b, b->mark);
	b->listed = b->listed_mark;
}

int dsi_supply_of(const char *item_kind, const char *api)
{
	static const char *const kinds[DSI_SUPPLY_COUNT] = {
		"PersistentVolumeClaim", "PersistentVolume", "StorageClass", "CSINode",
		"ResourceClaim",         "DeviceClass",      "ResourceSlice"};
	static const dsi_kind ours[DSI_SUPPLY_RESOURCE_CLAIM] = {DSI_KIND_PVC, DSI_KIND_PV, DSI_KIND_STORAGE_CLASS,
								 DSI_KIND_CSINODE};
	for (int s = 0; s < DSI_SUPPLY_COUNT; s++) {
		if (strcmp(item_kind, kinds[s]) != 0)
			continue;
		ds_error e;
		dsi_rd rd;
		dsi_rd_init(&rd, &e);
		if (s < DSI_SUPPLY_RESOURCE_CLAIM) { /* in its own group, as loading classifies its items */
			dsi_kind k;
			int legacy;
			return dsi_classify_kind(item_kind, api, 0, &rd, &k, &legacy) == 0 && k == ours[s] ? s : -1;
		}
		/* a version loading refuses (an item would be an error) supplies nothing */
		dsi_dra_kind dra;
		return dsi_dra_classify(&rd, item_kind, api, &dra) == 0 && dra ? s : -1;
	}
	return -1;
}

/* dsi_load_text_lists' list: the typed Lists of the kinds dsi_cluster_supplied asks about */
static void stage_list(void *ctx, const char *item_kind, const char *api)
{
	batch *b = ctx;
	int s = dsi_supply_of(item_kind, api);
	if (s >= 0)
		b->listed |= 1u << s;
}

void dsi_cluster_mark_listed(dsi_cluster *c, uint32_t kinds)
{
	if (kinds & ~c->listed)
		c->version++;
	c->listed |= kinds;
}

int dsi_cluster_supplied(const dsi_cluster *c, dsi_supply s)
{
	static const dsi_kind ours[DSI_SUPPLY_RESOURCE_CLAIM] = {DSI_KIND_PVC, DSI_KIND_PV, DSI_KIND_STORAGE_CLASS,
								 DSI_KIND_CSINODE};
	if (dsi_cluster_listed(c, s))
		return 1;
	if (s < DSI_SUPPLY_RESOURCE_CLAIM)
		return dsi_cluster_count(c, ours[s]) > 0;
	const dsi_dra_kind want = s == DSI_SUPPLY_RESOURCE_CLAIM ? DSI_DRA_CLAIM
				  : s == DSI_SUPPLY_DEVICE_CLASS ? DSI_DRA_CLASS
								 : DSI_DRA_SLICE;
	for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_OTHER); i++) {
		const dsi_other *o = c->objs[DSI_KIND_OTHER].v[i];
		if (o->dra && o->dra->kind == want)
			return 1;
	}
	return 0;
}

static void *copy_obj(dsi_cluster *dst, const dsi_atoms *from, dsi_kind k, const void *so, int take_json,
		      ds_error *err);

/* ---- a List's items staged on several threads (dsi_load_par) ---- */

/* A thread's staging: its own batch, whose atoms are in an overlay on the snapshot's table (which
 * nothing changes while the threads run), so that threads intern strings without a lock. */
typedef struct worker {
	batch b;
	dsi_atoms atoms;
} worker;

static void *worker_new(void *ctx)
{
	const batch *main = ctx;
	worker *w = dsi_calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	dsi_atoms_init_overlay(&w->atoms, &main->c->atoms);
	w->b.c = main->c;
	w->b.atoms = &w->atoms;
	w->b.events = main->events;
	return w;
}

static int worker_item(void *wp, const dsi_loaded *it, size_t seq, ds_error *err)
{
	worker *w = wp;
	int rc = stage_loaded(&w->b, it, err);
	if (rc == 0)
		w->b.v[w->b.n - 1].seq = seq;
	return rc;
}

static void worker_free(void *ctx, void *wp)
{
	(void)ctx;
	worker *w = wp;
	dsi_atoms_ending(&w->atoms); /* every object staged goes, and the table with them */
	batch_free(&w->b);
	dsi_atoms_free(&w->atoms);
	dsi_free(w);
}

/* Every thread's staged objects into the batch, in item order, their atoms carried into the
 * snapshot's table (on the caller's thread, the threads having ended). All or nothing. */
static int merge_workers(void *ctx, void **wp, unsigned n, ds_error *err)
{
	batch *b = ctx;
	size_t mark = b->n, total = 0;
	size_t *next = dsi_calloc(n, sizeof(*next));
	if (!next)
		return dsi_error_nomem(err);
	for (unsigned t = 0; t < n; t++)
		total += ((worker *)wp[t])->b.n;
	int rc = DSI_GROW(b->v, b->cap, b->n + total) < 0 ? dsi_error_nomem(err) : 0;
	for (size_t done = 0; rc == 0 && done < total; done++) {
		unsigned best = n; /* the thread whose next item comes first: each staged its own in order */
		for (unsigned t = 0; t < n; t++) {
			const batch *x = &((worker *)wp[t])->b;
			if (next[t] < x->n &&
			    (best == n || x->v[next[t]].seq < ((worker *)wp[best])->b.v[next[best]].seq))
				best = t;
		}
		worker *w = wp[best];
		const staged *s = &w->b.v[next[best]++];
		void *o = copy_obj(b->c, &w->atoms, s->kind, s->obj, 1, err);
		if (!o) {
			rc = err->code ? err->code : dsi_error_nomem(err);
			break;
		}
		staged *d = &b->v[b->n++];
		memset(d, 0, sizeof(*d));
		d->kind = s->kind;
		d->obj = o;
		b->count[s->kind]++;
	}
	dsi_free(next);
	if (rc < 0)
		batch_truncate(b, mark);
	return rc;
}

static int load_staged(batch *b, const char *data, size_t size, dsi_load_fn fn, ds_error *err)
{
	dsi_cluster *c = b->c;
	b->mark = b->n;
	b->listed_mark = b->listed;
	const dsi_load_par par = {c->model.exec, (unsigned)c->core.load_threads, worker_new, worker_item, merge_workers,
				  worker_free};
	/* a Node's status.images is nothing the snapshot reads (dsi_node_read), and in its plain form
	 * nothing the decoding check refuses: left out of a List item's tree (core/jsonfront.h) */
	return dsi_load_text_lists(data, size, &c->core.limits, fn, unstage, c->model.exec && !b->events ? &par : NULL,
				   b->events ? 0 : DSI_FRONT_NODE_IMAGES, b->events ? NULL : stage_list, b, err);
}

#define SLAB_ROUND(n) (((n) + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t))
/* Nodes and pods start on a cache line, so that what a sync reads of each is one line (see
 * dsi_node, dsi_pod). */
#define SLAB_LINE 64
#define SLAB_LINE_ROUND(n) (((n) + SLAB_LINE - 1) / SLAB_LINE * SLAB_LINE)

/* Move array *v of n elements (esz each) to *at, freeing the original. */
static void slab_move(char **at, void **v, uint32_t n, size_t esz)
{
	if (!n)
		return;
	memcpy(*at, *v, n * esz);
	dsi_free(*v);
	*v = *at;
	*at += SLAB_ROUND(n * esz);
}

static size_t slab_size(dsi_kind k, const void *o)
{
	if (k == DSI_KIND_NODE) {
		const dsi_node *n = o;
		return SLAB_LINE_ROUND(SLAB_ROUND(sizeof(dsi_node)) + SLAB_ROUND(n->meta.labels.n * sizeof(dsi_label)) +
				       SLAB_ROUND(n->taints.n * sizeof(dsi_taint)));
	}
	const dsi_pod *p = o;
	return SLAB_LINE_ROUND(SLAB_ROUND(sizeof(dsi_pod)) + SLAB_ROUND(p->meta.labels.n * sizeof(dsi_label)));
}

typedef struct slab_slot {
	dsi_atom group; /* pods: the owner group they join (controller uid, or namespace for orphans) */
	size_t pos;     /* index in the batch */
} slab_slot;

static int by_group(const void *a, const void *b)
{
	const slab_slot *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Pack the staged objects of kind k (nodes or pods) into one slab: nodes in document order (a
 * paged list comes in name order, the order a sync walks), pods grouped by owner (a sync
 * walks one DaemonSet's pods), in document order within a group. Only memory placement changes:
 * the batch commits in its own order. Optional: without memory the objects stay where they are. */
static void slab_pack(batch *b, dsi_kind k)
{
	if (b->count[k] < 2)
		return;
	slab_slot *order = dsi_malloc(b->count[k] * sizeof(*order));
	if (!order)
		return;
	size_t total = 0, n = 0;
	for (size_t i = 0; i < b->n; i++) {
		const staged *st = &b->v[i];
		if (st->kind != k || !st->obj)
			continue;
		size_t sz = slab_size(k, st->obj);
		if (total > SIZE_MAX / 2 - sz || n == b->count[k]) {
			dsi_free(order);
			return;
		}
		total += sz;
		order[n].pos = i;
		order[n].group = 0;
		if (k == DSI_KIND_POD) {
			const dsi_pod *p = st->obj;
			order[n].group = p->meta.controller.uid ? p->meta.controller.uid : p->meta.ns;
		}
		n++;
	}
	if (k == DSI_KIND_POD)
		qsort(order, n, sizeof(*order), by_group);
	dsi_slab *slab = dsi_malloc(sizeof(dsi_slab) + SLAB_LINE + total);
	if (!slab) {
		dsi_free(order);
		return;
	}
	slab->live = 0;
	char *at = (char *)slab->data;
	at += (SLAB_LINE - (uintptr_t)at % SLAB_LINE) % SLAB_LINE;
	for (size_t j = 0; j < n; j++) {
		staged *st = &b->v[order[j].pos];
		void *obj = at;
		if (k == DSI_KIND_NODE) {
			dsi_node *nd = obj;
			*nd = *(dsi_node *)st->obj;
			at += SLAB_ROUND(sizeof(dsi_node));
			slab_move(&at, (void **)&nd->meta.labels.v, nd->meta.labels.n, sizeof(dsi_label));
			slab_move(&at, (void **)&nd->taints.v, nd->taints.n, sizeof(dsi_taint));
			at = (char *)obj + slab_size(k, nd);
			nd->slab = slab;
		} else {
			dsi_pod *p = obj;
			*p = *(dsi_pod *)st->obj;
			at += SLAB_ROUND(sizeof(dsi_pod));
			slab_move(&at, (void **)&p->meta.labels.v, p->meta.labels.n, sizeof(dsi_label));
			at = (char *)obj + slab_size(k, p);
			p->slab = slab;
		}
		dsi_free(st->obj);
		st->obj = obj;
		slab->live++;
	}
	dsi_free(order);
}

static int finish_batch(dsi_cluster *c, batch *b, int rc, size_t *count, ds_error *err)
{
	if (rc == 0) {
		slab_pack(b, DSI_KIND_NODE);
		slab_pack(b, DSI_KIND_POD);
	}
	if (rc == 0 && reserve(c, b) < 0)
		rc = dsi_error_nomem(err);
	if (rc == 0) {
		commit(c, b); /* bumps the version */
		c->listed |= b->listed;
		if (count)
			*count = b->n;
	}
	groups_settle(c, b);
	batch_free(b);
	return rc;
}

int dsi_cluster_load_text(dsi_cluster *c, const char *data, size_t size, size_t *count, ds_error *err)
{
	batch b = {.c = c, .atoms = &c->atoms, .events = 0};
	int rc = load_staged(&b, data, size, stage_loaded, err);
	return finish_batch(c, &b, rc, count, err);
}

int dsi_cluster_load_value(dsi_cluster *c, const json_t *v, size_t *count, ds_error *err)
{
	batch b = {.c = c, .atoms = &c->atoms, .events = 0};
	int rc = dsi_load_value_lists(v, &c->core.limits, stage_loaded, stage_list, &b, err);
	return finish_batch(c, &b, rc, count, err);
}

dsi_batch *dsi_cluster_batch_begin(dsi_cluster *c)
{
	batch *b = dsi_calloc(1, sizeof(*b));
	if (b) {
		b->c = c;
		b->atoms = &c->atoms;
	}
	return b;
}

int dsi_cluster_batch_add_text(dsi_batch *b, const char *data, size_t size, ds_error *err)
{
	return load_staged(b, data, size, stage_loaded, err);
}

int dsi_cluster_batch_end(dsi_batch *b, int rc, size_t *count, ds_error *err)
{
	if (!b)
		return rc < 0 ? rc : dsi_error_nomem(err);
	rc = finish_batch(b->c, b, rc, count, err);
	dsi_free(b);
	return rc;
}

/* One watch event {"type": ADDED|MODIFIED|DELETED|BOOKMARK|ERROR, "object": {...}}. */
static int stage_event(void *ctx, const dsi_loaded *it, ds_error *err)
{
	batch *b = ctx;
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	const char *type;
	json_t *obj;
	int rc;
	if ((rc = dsi_rd_string(&rd, it->obj, "type", &type)) < 0 ||
	    (rc = dsi_rd_object(&rd, it->obj, "object", &obj)) < 0)
		return rc;
	if (!type)
		return dsi_rd_fail(
			&rd, "type", DS_EMISSING,
			"required value: a watch event has a type (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR)");
	if (strcmp(type, "BOOKMARK") == 0)
		return 0;
	if (strcmp(type, "ERROR") == 0) {
		const char *msg = json_string_value(json_object_get(obj, "message"));
		return dsi_error_set(err, DS_ETRANSPORT, "object", "the watch ended with an error: %s (relist)",
				     msg ? msg : "no message");
	}
	int remove = strcmp(type, "DELETED") == 0;
	if (!remove && strcmp(type, "ADDED") != 0 && strcmp(type, "MODIFIED") != 0)
		return dsi_rd_fail(&rd, "type", DS_EVALUE,
				   "unsupported value \"%s\": expected ADDED, MODIFIED, DELETED, BOOKMARK or ERROR",
				   type);
	if (!obj)
		return dsi_rd_fail(&rd, "object", DS_EMISSING, "required value: the event's object");
	const char *kind = json_string_value(json_object_get(obj, "kind"));
	const char *api = json_string_value(json_object_get(obj, "apiVersion"));
	rc = stage(b, obj, kind, api, remove, err);
	if (rc < 0)
		dsi_error_prefix_path(err, "object");
	return rc;
}

/* The node the event names, if the snapshot has one. */
static dsi_node *event_node(const dsi_cluster *c, const dsi_node_event *ev)
{
	return dsi_cluster_node(c, dsi_atom_lookup(&c->atoms, ev->name, ev->name_len));
}

/* A MODIFIED Node event whose object, but for the values nodeevent.c masks, is the text its node was
 * read from: the full path would read the same node with the event's resourceVersion, so only that
 * changes (and the version, as a commit bumps it). 1: applied; 0: take the full path. */
static int apply_quiet(dsi_cluster *c, const dsi_node_event *ev, const char **rv_out)
{
	dsi_node *n = ev->modified && ev->rv ? event_node(c, ev) : NULL;
	if (!n || !n->has_event_hash || n->event_hash[0] != ev->hash[0] || n->event_hash[1] != ev->hash[1])
		return 0;
	dsi_atom rv = dsi_atom_intern(&c->atoms, ev->rv, ev->rv_len);
	if (rv == DSI_ATOM_ERROR)
		return 0; /* the full path reports the want of memory */
	dsi_atom_unref(&c->atoms, n->meta.resource_version);
	n->meta.resource_version = rv;
	c->version++;
	c->quiet_events++;
	if (rv_out)
		*rv_out = dsi_cstr(c, rv);
	return 1;
}

/* After the full path applied a Node event: the node it made keeps the event's hash, when the node
 * under the scanned name is that node (new since before, which was there under it) and holds the
 * resourceVersion the scan masked; anything else keeps no hash, and its next event takes the full path. */
static void keep_hash(dsi_cluster *c, const dsi_node_event *ev, const dsi_node *before)
{
	dsi_node *n = event_node(c, ev);
	if (!n || n == before || !ev->rv)
		return;
	const char *rv = dsi_cstr(c, n->meta.resource_version);
	if (strlen(rv) != ev->rv_len || memcmp(rv, ev->rv, ev->rv_len) != 0)
		return;
	n->event_hash[0] = ev->hash[0];
	n->event_hash[1] = ev->hash[1];
	n->has_event_hash = 1;
}

static int scan_event(const dsi_cluster *c, const char *data, size_t size, dsi_node_event *ev)
{
	return size <= c->core.limits.max_bytes && dsi_node_event_scan(data, size, ev);
}

int dsi_cluster_apply_quiet(dsi_cluster *c, const char *data, size_t size, const char **rv)
{
	dsi_node_event ev;
	return scan_event(c, data, size, &ev) && apply_quiet(c, &ev, rv);
}

int dsi_cluster_apply_events(dsi_cluster *c, const char *data, size_t size, size_t *count, ds_error *err)
{
	dsi_node_event ev;
	int node_event = scan_event(c, data, size, &ev);
	if (node_event && apply_quiet(c, &ev, NULL)) {
		if (count)
			*count = 1;
		return 0;
	}
	dsi_node *before = node_event ? event_node(c, &ev) : NULL;
	batch b = {.c = c, .atoms = &c->atoms, .events = 1};
	int rc = load_staged(&b, data, size, stage_event, err);
	rc = finish_batch(c, &b, rc, count, err);
	if (rc == 0 && node_event)
		keep_hash(c, &ev, before);
	return rc;
}

int dsi_cluster_remove(dsi_cluster *c, dsi_kind kind, const char *group_kind, const char *ns, const char *name,
		       ds_error *err)
{
	dsi_atom a = dsi_atom_lookup_id(&c->atoms, name);
	dsi_atom n = dsi_atom_lookup_id(&c->atoms, ns);
	dsi_atom gk = group_kind ? dsi_atom_lookup_cstr(&c->atoms, group_kind) : 0;
	dsi_meta m;
	memset(&m, 0, sizeof(m));
	m.ns = n;
	m.name = a;
	void *o = (a && (!ns || !*ns || n)) ? find_existing(c, kind, &m, gk) : NULL;
	if (!o)
		return dsi_error_set(err, DS_ENOTFOUND, NULL, "%s %s%s%s not found", dsi_kind_name(kind),
				     ns && *ns ? ns : "", ns && *ns ? "/" : "", name);
	drop(c, kind, o);
	c->version++;
	return 0;
}

int dsi_cluster_bind_pod(dsi_cluster *c, dsi_pod *p, dsi_atom node)
{
	if (node && dsi_map_reserve(&c->pods_on_node, 1) < 0)
		return -1;
	node_list_unlink(c, p);
	dsi_atom_ref(&c->atoms, node);
	dsi_atom_unref(&c->atoms, p->spec.node_name);
	p->spec.node_name = node;
	if (node)
		node_list_link(c, p);
	c->version++;
	return 0;
}

/* ---- copy ---- */

/* A new object equal to so, in dst; so's atoms are in table from (dst's own when dst's table is a
 * copy of the source's, so that ids agree). The objects that keep their JSON are read again from it:
 * from a deep copy, since the source may be read by other threads while it is copied and sharing its
 * values would touch their reference counts, which jansson does not read atomically; the copy owns all
 * it holds. take_json: so's JSON is the caller's to share (a thread's staging, after the threads
 * have ended). */
static void *copy_obj(dsi_cluster *dst, const dsi_atoms *from, dsi_kind k, const void *so, int take_json, ds_error *err)
{
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	void *o = NULL;
	json_t *own = NULL;
	int rc = -1;
#define OWN(j) ((j) && take_json ? json_incref(j) : json_deep_copy(j))
	switch (k) {
	case DSI_KIND_NODE:
		if ((o = dsi_calloc(1, sizeof(dsi_node))))
			rc = dsi_node_copy_x(&dst->atoms, from, so, o);
		break;
	case DSI_KIND_POD:
		if ((o = dsi_calloc(1, sizeof(dsi_pod))))
			rc = dsi_pod_copy_x(&dst->atoms, from, so, o);
		break;
	case DSI_KIND_DAEMONSET: { /* keeps its JSON: read it again */
		const dsi_daemonset *sd = so;
		const char *api = json_string_value(json_object_get(sd->obj, "apiVersion"));
		json_t *hashed = NULL, *given = NULL; /* copies too: threads never share a count */
		if ((own = OWN(sd->obj)) && (!sd->hashed || (hashed = OWN(sd->hashed))) &&
		    (!sd->given || (given = OWN(sd->given))) && (o = dsi_calloc(1, sizeof(dsi_daemonset))) &&
		    (rc = dsi_daemonset_read(&rd, &dst->atoms, own, hashed, api, sd->legacy != 0, dst->core.gates,
					     dst->core.k8s_minor, o)) == 0) {
			/* what loading it gave it, which its JSON does not say */
			((dsi_daemonset *)o)->manifest = sd->manifest;
			((dsi_daemonset *)o)->given = given;
			given = NULL;
		}
		json_decref(hashed);
		json_decref(given);
		break;
	}
	case DSI_KIND_REVISION:
		if ((own = OWN(((const dsi_revision *)so)->obj)) && (o = dsi_calloc(1, sizeof(dsi_revision))))
			rc = dsi_revision_read(&rd, &dst->atoms, own, o);
		break;
	case DSI_KIND_PDB:
		if ((own = OWN(((const dsi_pdb *)so)->obj)) && (o = dsi_calloc(1, sizeof(dsi_pdb))))
			rc = dsi_pdb_read(&rd, &dst->atoms, own, o);
		break;
	case DSI_KIND_PRIORITY_CLASS:
		if ((o = dsi_calloc(1, sizeof(dsi_priority_class)))) {
			*(dsi_priority_class *)o = *(const dsi_priority_class *)so;
			rc = dsi_meta_copy_x(&dst->atoms, from, &((const dsi_priority_class *)so)->meta,
					     &((dsi_priority_class *)o)->meta);
		}
		break;
	case DSI_KIND_PVC:
		if ((o = dsi_calloc(1, sizeof(dsi_pvc))))
			rc = dsi_pvc_copy_x(&dst->atoms, from, so, o);
		break;
	case DSI_KIND_PV:
		if ((o = dsi_calloc(1, sizeof(dsi_pv))))
			rc = dsi_pv_copy_x(&dst->atoms, from, so, o);
		break;
	case DSI_KIND_STORAGE_CLASS:
		if ((o = dsi_calloc(1, sizeof(dsi_storage_class))))
			rc = dsi_storage_class_copy_x(&dst->atoms, from, so, o);
		break;
	case DSI_KIND_CSINODE:
		if ((o = dsi_calloc(1, sizeof(dsi_csinode))))
			rc = dsi_csinode_copy_x(&dst->atoms, from, so, o);
		break;
	default:
		if ((o = dsi_calloc(1, sizeof(other_box)))) {
			const other_box *sb = so;
			other_box *box = o;
			if ((rc = dsi_meta_copy_x(&dst->atoms, from, &sb->o.meta, &box->o.meta)) == 0 &&
			    (box->o.group_kind = dsi_atom_carry(&dst->atoms, from, sb->o.group_kind)) ==
				    DSI_ATOM_ERROR) {
				dsi_meta_release(&dst->atoms, &box->o.meta);
				rc = -1;
			}
			/* a typed view keeps its JSON: read it again */
			if (rc == 0 && sb->o.dra &&
			    (!(own = OWN(sb->o.dra->obj)) ||
			     (rc = dsi_dra_read(&rd, &dst->atoms, sb->o.dra->kind, own, &box->o.dra)) < 0)) {
				dsi_meta_release(&dst->atoms, &box->o.meta);
				dsi_atom_unref(&dst->atoms, box->o.group_kind);
				rc = -1;
			}
		}
		break;
	}
#undef OWN
	json_decref(own); /* the object holds its own reference */
	if (rc < 0) {
		dsi_free(o);
		if (!err->code)
			dsi_error_nomem(err);
		return NULL;
	}
	return o;
}

int dsi_cluster_add_objects(dsi_cluster *c, const dsi_kind *kinds, void *const *objs, size_t n, ds_error *err)
{
	batch b = {.c = c, .atoms = &c->atoms, .events = 0};
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		if (rc == 0 && DSI_GROW(b.v, b.cap, b.n + 1) < 0)
			rc = dsi_error_nomem(err);
		if (rc < 0) { /* the rest are freed as the batch's would be */
			release_obj(&c->atoms, kinds[i], objs[i]);
			continue;
		}
		memset(&b.v[b.n], 0, sizeof(staged));
		b.v[b.n].kind = kinds[i];
		b.v[b.n].obj = objs[i];
		b.count[kinds[i]]++;
		b.n++;
	}
	return finish_batch(c, &b, rc, NULL, err);
}

int dsi_cluster_copy(const dsi_cluster *src, dsi_cluster *dst, ds_error *err)
{
	memset(dst, 0, sizeof(*dst));
	dst->core = src->core;
	dst->model = src->model;
	memcpy(dst->default_ns, src->default_ns, sizeof(dst->default_ns));
	for (int k = 0; k < DSI_KIND_COUNT; k++)
		dsi_map_init(&dst->by_key[k]);
	if (dsi_atoms_copy(&dst->atoms, &src->atoms) < 0)
		return dsi_error_nomem(err);
	dst->k_hash_label = src->k_hash_label;
	dst->k_gen_label = src->k_gen_label;
	memcpy(dst->k_taints, src->k_taints, sizeof(dst->k_taints));
	batch b = {.c = dst, .atoms = &dst->atoms, .events = 0};
	int rc = 0;
	for (int k = 0; k < DSI_KIND_COUNT && rc == 0; k++) {
		for (size_t i = 0; i < src->objs[k].n; i++) {
			if (DSI_GROW(b.v, b.cap, b.n + 1) < 0) {
				rc = dsi_error_nomem(err);
				break;
			}
			void *o = copy_obj(dst, &dst->atoms, (dsi_kind)k, src->objs[k].v[i], 0, err);
			if (!o) {
				rc = err->code;
				break;
			}
			memset(&b.v[b.n], 0, sizeof(staged));
			b.v[b.n].kind = (dsi_kind)k;
			b.v[b.n].obj = o;
			b.count[k]++;
			b.n++;
		}
	}
	rc = finish_batch(dst, &b, rc, NULL, err);
	if (rc < 0) {
		dsi_cluster_destroy(dst);
	} else {
		dst->version = src->version;
		dst->listed = src->listed;
	}
	return rc;
}
