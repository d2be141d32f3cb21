/* A DaemonSet: the whole object kept as JSON (templates round-trip intact) plus typed views. */
#ifndef DSI_DAEMONSET_H
#define DSI_DAEMONSET_H

#include <jansson.h>

#include "model/intstr.h"
#include "model/meta.h"
#include "model/podspec.h"
#include "model/selector.h"
#include "model/templatehash.h"

/* OTHER: a type the API does not know, from a lenient read; like OnDelete, no rolling update runs. */
enum { DSI_STRATEGY_ROLLING_UPDATE = 0, DSI_STRATEGY_ON_DELETE = 1, DSI_STRATEGY_OTHER = 2 };

typedef struct dsi_ds_status {
	int32_t current_number_scheduled, number_misscheduled, desired_number_scheduled, number_ready;
	int32_t updated_number_scheduled, number_available, number_unavailable;
	int64_t observed_generation;
	int32_t collision_count;
	uint8_t has_collision_count;
} dsi_ds_status;

/* OpenKruise Advanced DaemonSet controls (apps.kruise.io), or the same set by options. */
typedef struct dsi_ds_advanced {
	uint8_t has_partition;
	dsi_intstr partition;
	uint8_t paused;
	uint8_t has_rollout_selector;
	dsi_selector rollout_selector; /* over node labels */
	uint8_t has_burst;
	dsi_intstr burst_replicas;
} dsi_ds_advanced;

typedef struct dsi_daemonset {
	dsi_meta meta;
	json_t *obj;             /* the object as the API server holds it (owned; apiserver/canonical.h) */
	json_t *given;           /* owned or NULL: the object as it was given, when obj is its canonical form
				  * (only it has the fields the API does not know, which the audit reports) */
	json_t *template;        /* borrowed: spec.template */
	json_t *hashed;          /* owned or NULL: the template in canonical form when obj's is not (lenient reads) */
	json_t *patch;           /* owned: getPatch, what the current ControllerRevision's data equals */
	uint32_t patch_digest;   /* dsi_json_digest(patch) */
	char hash[DSI_HASH_MAX]; /* dsi_template_hash(template, kubernetesVersion, status.collisionCount) */
	dsi_selector selector;
	uint8_t selector_empty;   /* spec.selector is {} (the controller refuses: SelectingAll) */
	uint8_t selector_missing; /* no spec.selector: matches nothing */
	uint8_t strategy;
	uint8_t kruise; /* apps.kruise.io DaemonSet */
	uint8_t legacy; /* extensions/v1beta1 or apps/v1beta2 read with legacyDaemonSets */
	uint8_t has_template_generation;
	dsi_intstr max_unavailable, max_surge;
	uint8_t has_max_unavailable, has_max_surge;
	int32_t min_ready_seconds;
	int32_t revision_history_limit;
	int64_t template_generation; /* annotation deprecated.daemonset.template.generation */
	dsi_labels template_labels;
	dsi_podspec tspec; /* the template's spec, placement parts included */
	dsi_ds_status status;
	dsi_ds_advanced adv;
	uint32_t index;   /* owned by the snapshot */
	uint8_t manifest; /* read from a manifest (no uid): what the loader gave it, DSI_MANIFEST_* of snapshot.h */
	uint8_t borrowed; /* obj and hashed are not owned (DSI_DS_BORROW) */
} dsi_daemonset;

/* Read a DaemonSet (apps/v1; apps.kruise.io/v1alpha1|v1beta1; legacy groups
 * when legacy is set). API defaults are applied to the typed view as the API
 * server would (RollingUpdate, maxUnavailable 1, maxSurge 0, revisionHistoryLimit 10);
 * the JSON is kept as given. obj gains a reference. The hash and the patch are
 * computed over hashed (the template in canonical form, apiserver/canonical.h;
 * gains a reference) or, when it is NULL, over obj's spec.template (which the
 * snapshot has made canonical): ComputeHash as the controller of Kubernetes
 * 1.<k8s_minor> computes it. */
int dsi_daemonset_read(dsi_rd *rd, dsi_atoms *atoms, json_t *obj, json_t *hashed, const char *api_version, int legacy,
		       unsigned gates, int k8s_minor, dsi_daemonset *out);
/* The same, leaving out what a reader does not need (skip): DSI_DS_NO_PATCH, the patch and its
 * digest (NULL and 0); DSI_DS_NO_HASH, those and the hash (""); DSI_DS_PLACEMENT_ONLY, every part of
 * the template's spec but those NodeShouldRunDaemonPod and NewPod read (DSI_PODSPEC_PLACEMENT_ONLY).
 * For a DaemonSet a pure function reads for itself alone (a placement decision needs none of them);
 * nothing else may see it. DSI_DS_BORROW (no patch either): obj and hashed are borrowed, no
 * reference taken nor released, so that values other threads read are read without a count
 * changing; they must outlive it, unchanged, and nothing may take a reference to them through it. */
enum { DSI_DS_NO_PATCH = 1, DSI_DS_NO_HASH = 2, DSI_DS_PLACEMENT_ONLY = 4, DSI_DS_BORROW = 8 };
int dsi_daemonset_read_ex(dsi_rd *rd, dsi_atoms *atoms, json_t *obj, json_t *hashed, const char *api_version,
			  int legacy, unsigned gates, int k8s_minor, unsigned skip, dsi_daemonset *out);
void dsi_daemonset_release(dsi_atoms *atoms, dsi_daemonset *ds);
/* getPatch (update.go): {"spec":{"template":{...tmpl, "$patch":"replace"}}} (new reference, NULL: no
 * memory). It shares tmpl's members, which no one may change while it lives. */
json_t *dsi_daemonset_patch(const json_t *tmpl);

#endif
