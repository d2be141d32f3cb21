/*
 * The snapshot (ds_cluster): typed objects with indexes so that lookups by
 * name, pods by node and pods by owner are O(1)/O(k). Mutations (loads,
 * watch events) are atomic: a batch is parsed completely before anything
 * changes, and the commit cannot fail. Read-only use from several threads
 * is safe; mutation needs the caller's exclusion.
 */
#ifndef DSI_CLUSTER_H
#define DSI_CLUSTER_H

#include "core/hash.h"
#include "core/optparse.h"
#include "model/model_options.h"
#include "model/dsobject.h"
#include "model/node.h"
#include "model/pdb.h"
#include "model/pod.h"
#include "model/resourceclaim.h"
#include "model/revision.h"
#include "model/volumes.h"

typedef enum dsi_kind {
	DSI_KIND_NODE,
	DSI_KIND_POD,
	DSI_KIND_DAEMONSET,
	DSI_KIND_REVISION,
	DSI_KIND_PDB,
	DSI_KIND_PRIORITY_CLASS,
	/* the storage kinds the volume plugins read (model/volumes.h) */
	DSI_KIND_PVC,
	DSI_KIND_PV,
	DSI_KIND_STORAGE_CLASS,
	DSI_KIND_CSINODE,
	DSI_KIND_OTHER,
	DSI_KIND_COUNT
} dsi_kind;

/* The kinds whose presence the scheduler's plugins ask about (dsi_cluster_supplied). */
typedef enum dsi_supply {
	DSI_SUPPLY_PVC,
	DSI_SUPPLY_PV,
	DSI_SUPPLY_STORAGE_CLASS,
	DSI_SUPPLY_CSINODE,
	DSI_SUPPLY_RESOURCE_CLAIM, /* resource.k8s.io v1 or v1beta2, as loading reads them (model/resourceclaim.h) */
	DSI_SUPPLY_DEVICE_CLASS,
	DSI_SUPPLY_RESOURCE_SLICE,
	DSI_SUPPLY_COUNT
} dsi_supply;

/* Any other kind: only its identity, so owners can be found (drain asks whether a DaemonSet exists). */
typedef struct dsi_other {
	dsi_meta meta;
	dsi_atom group_kind; /* "apps.kruise.io/DaemonSet", "apps/Deployment", "/Service" */
	uint32_t index;
	dsi_dra_obj *dra; /* ResourceClaim, DeviceClass, ResourceSlice (model/resourceclaim.h): typed */
} dsi_other;

typedef struct dsi_vec {
	void **v;
	size_t n, cap;
} dsi_vec;

/* The pods of one owner: a controller's uid, or the pods without a controller in a namespace. An
 * array rather than a linked list, so that a sync's claim pass can overlap the cache misses of
 * the pods it reads (a list walk waits for each pod in turn). Order: none to rely on. */
typedef struct dsi_pod_group {
	struct dsi_pod **v;
	uint32_t n, cap;
	uint32_t pending; /* during a batch's commit: places reserved for its pods */
	dsi_atom key;
} dsi_pod_group;

struct ds_cluster {
	dsi_core_options core;   /* limits and gates for everything loaded into it */
	dsi_model_options model; /* its strings are not kept (default_namespace is copied below) */
	char default_ns[64]; /* option defaultNamespace (a DNS label): for manifests without a namespace; "": none */
	dsi_atoms atoms;
	dsi_atom k_hash_label;                      /* "controller-revision-hash", kept interned */
	dsi_atom k_gen_label;                       /* "pod-template-generation" */
	dsi_atom k_taints[DSI_N_WELL_KNOWN_TAINTS]; /* well-known taint keys, kept interned */
	dsi_vec objs[DSI_KIND_COUNT];
	dsi_map by_key[DSI_KIND_COUNT]; /* (ns,name) -> object; others: hash of group/kind too */
	dsi_map pods_on_node;           /* spec.nodeName -> first pod */
	dsi_map pods_by_owner;          /* controller uid -> dsi_pod_group */
	dsi_map orphans_by_ns; /* namespace (0: the empty one) -> dsi_pod_group of the pods without a controller uid */
	dsi_node **node_order; /* nodes sorted by name */
	size_t norder;         /* valid entries in node_order (all nodes, outside a commit) */
	/* per atom id: how many nodes have a label with that key, so that placement can decide a
	 * requirement on a key that no node has once per sync instead of once per node */
	uint32_t *label_key_nodes;
	size_t label_key_cap;
	uint32_t listed;       /* 1 << dsi_supply: a typed List of that kind was loaded, items or none */
	uint64_t version;      /* bumped by every change */
	uint64_t quiet_events; /* Node events applied without a tree: they changed only the resourceVersion */
};

typedef struct ds_cluster dsi_cluster;

/* What loading did to an object read from a manifest (no metadata.uid): dsi_daemonset.manifest. */
enum { DSI_MANIFEST = 1, DSI_MANIFEST_NAMESPACE = 2, DSI_MANIFEST_DEFAULTS = 4 };

int dsi_cluster_init(dsi_cluster *c, const dsi_core_options *core, const dsi_model_options *model);
void dsi_cluster_destroy(dsi_cluster *c);
int dsi_cluster_copy(const dsi_cluster *src, dsi_cluster *dst, ds_error *err);

/* Text, JSON values, watch events: parse all, then commit. *count gets the objects applied. */
int dsi_cluster_load_text(dsi_cluster *c, const char *data, size_t size, size_t *count, ds_error *err);
int dsi_cluster_load_value(dsi_cluster *c, const json_t *v, size_t *count, ds_error *err);
int dsi_cluster_apply_events(dsi_cluster *c, const char *data, size_t size, size_t *count, ds_error *err);
/* When data is one MODIFIED Node event that changes nothing the model reads but the node's
 * resourceVersion (model/nodeevent.h): applies it, as dsi_cluster_apply_events would, without a tree,
 * and returns 1 with the new resourceVersion in *rv (when rv is not NULL; the snapshot's string).
 * Otherwise 0, nothing done: the caller takes the full path. */
int dsi_cluster_apply_quiet(dsi_cluster *c, const char *data, size_t size, const char **rv);
/* Several inputs as one all-or-nothing batch (a directory of manifests). */
typedef struct batch dsi_batch;
dsi_batch *dsi_cluster_batch_begin(dsi_cluster *c);
int dsi_cluster_batch_add_text(dsi_batch *b, const char *data, size_t size, ds_error *err);
/* Commit (or, with rc < 0, discard) and free the batch; returns rc or the commit's error. */
int dsi_cluster_batch_end(dsi_batch *b, int rc, size_t *count, ds_error *err);
/* Add objects read or copied elsewhere into c's strings (heap objects of their kind's type, such as
 * dsi_node_copy_x makes), as one batch: c owns them from then on, freed when the batch fails too. */
int dsi_cluster_add_objects(dsi_cluster *c, const dsi_kind *kinds, void *const *objs, size_t n, ds_error *err);
int dsi_cluster_remove(dsi_cluster *c, dsi_kind kind, const char *group_kind, const char *ns, const char *name,
		       ds_error *err);

/* In-place changes for simulations on a private copy. Fields that no index
 * depends on (readiness, phase, deletion timestamp, status) may be written
 * directly; binding a pod moves it between node lists, so it goes through here. */
int dsi_cluster_bind_pod(dsi_cluster *c, dsi_pod *p, dsi_atom node); /* -1: no memory, nothing changed */

/* Which kind of ours an object of kind and api (apiVersion, may be NULL) is, as loading classifies it
 * (DSI_KIND_OTHER: another kind, or one of ours from another group); *legacy: a DaemonSet of a
 * legacy group (extensions/v1beta1, apps/v1beta2), which only legacy_daemonsets lets through (else
 * DS_EUNSUPPORTED at rd's path + "apiVersion"). */
int dsi_classify_kind(const char *kind, const char *api, int legacy_daemonsets, dsi_rd *rd, dsi_kind *out, int *legacy);

/* Kind names as the API uses them ("Node", "Pod", ...); -1 when not one of ours. */
int dsi_kind_from_name(const char *kind);
const char *dsi_kind_name(dsi_kind k);

static inline size_t dsi_cluster_count(const dsi_cluster *c, dsi_kind k) { return c->objs[k].n; }
static inline dsi_node *dsi_cluster_node_at(const dsi_cluster *c, size_t i) { return c->node_order[i]; }

dsi_node *dsi_cluster_node(const dsi_cluster *c, dsi_atom name);
dsi_node *dsi_cluster_node_by_name(const dsi_cluster *c, const char *name);
dsi_pod *dsi_cluster_pod(const dsi_cluster *c, dsi_atom ns, dsi_atom name);
dsi_daemonset *dsi_cluster_daemonset(const dsi_cluster *c, const char *ns, const char *name);
dsi_priority_class *dsi_cluster_priority_class(const dsi_cluster *c, dsi_atom name);
/* Whether the input supplied kind s, so that one missing is not there (upstream's not-found) rather
 * than not loaded: a typed List of it was loaded ("kind": "PersistentVolumeClaimList", items or
 * none, as the API server's list replies are typed), or the snapshot holds an object of it. A
 * generic List names no kind, and so supplies none but those of its items. The record is kept by
 * copies (dsi_cluster_copy) and made by a load only when it commits; removing objects (a DELETED
 * event, dsi_cluster_remove) keeps it: a cluster whose listed PVCs were all deleted has none. */
int dsi_cluster_supplied(const dsi_cluster *c, dsi_supply s);
static inline int dsi_cluster_listed(const dsi_cluster *c, dsi_supply s) { return (c->listed >> s) & 1u; }
/* Which of ours the items of a typed List of item_kind in api (may be NULL) are, as loading would
 * classify them; -1: none that dsi_cluster_supplied asks about. */
int dsi_supply_of(const char *item_kind, const char *api);
/* Record kinds (1 << dsi_supply bits) as listed, for a caller that loaded their lists itself as
 * one generic List (api/docs.c): after that load committed. */
void dsi_cluster_mark_listed(dsi_cluster *c, uint32_t kinds);
/* The storage objects by (namespace and) name; NULL when absent. */
dsi_pvc *dsi_cluster_pvc(const dsi_cluster *c, dsi_atom ns, dsi_atom name);
dsi_pv *dsi_cluster_pv(const dsi_cluster *c, dsi_atom name);
dsi_storage_class *dsi_cluster_storage_class(const dsi_cluster *c, dsi_atom name);
dsi_csinode *dsi_cluster_csinode(const dsi_cluster *c, dsi_atom name);
/* An object of another kind by group/kind ("apps.kruise.io/DaemonSet"), namespace and name. */
dsi_other *dsi_cluster_other(const dsi_cluster *c, const char *group_kind, const char *ns, const char *name);
static inline dsi_pod *dsi_cluster_pods_on_node(const dsi_cluster *c, dsi_atom node)
{
	return dsi_map_get(&c->pods_on_node, node);
}
/* The pods whose controller has this uid, and those without a controller in a namespace; NULL
 * when there are none. */
static inline const dsi_pod_group *dsi_cluster_pods_of_owner(const dsi_cluster *c, dsi_atom uid)
{
	return dsi_map_get(&c->pods_by_owner, uid);
}
static inline const dsi_pod_group *dsi_cluster_orphans(const dsi_cluster *c, dsi_atom ns)
{
	return dsi_map_get(&c->orphans_by_ns, ns);
}

/* How many nodes of the snapshot have a label with this key (0 for atoms it does not know). */
static inline uint32_t dsi_cluster_nodes_with_label_key(const dsi_cluster *c, dsi_atom key)
{
	return key < c->label_key_cap ? c->label_key_nodes[key] : 0;
}
/* The string of an atom, "" for none. */
static inline const char *dsi_cstr(const dsi_cluster *c, dsi_atom a)
{
	const char *s = dsi_atom_str(&c->atoms, a);
	return s ? s : "";
}

#endif
