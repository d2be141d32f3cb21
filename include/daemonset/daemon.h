/*
 * libdaemonset: the pod the controller creates for a node, the template hash,
 * revision history and rollback. Include <daemonset.h> rather than this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_DAEMON_H
#define DAEMONSET_DAEMON_H

#include "daemonset/cluster.h"
#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The Pod the DaemonSet controller creates for node, as it would POST it:
 * generateName "<name>-", the template's labels plus controller-revision-hash
 * and pod-template-generation, a controller owner reference, the default
 * tolerations merged in, and required node affinity replaced by a
 * matchFields metadata.name pin (ReplaceDaemonSetPodNodeNameNodeAffinity).
 * The node need not be in the snapshot.
 */
DS_EXTERN int ds_daemonset_pod(const ds_cluster *cluster, const char *namespace_, const char *name, const char *node,
			       const ds_options *opts, char **json_out, ds_error *err);

/*
 * The template hash for a pod template (JSON or YAML text of a
 * PodTemplateSpec), with collisionCount (-1 when not set): upstream's
 * controller.ComputeHash, as the DaemonSet controller of the Kubernetes
 * release the option kubernetesVersion names computes it (its Go types'
 * print; see ds_template_hash(3) for which releases are verified). out
 * needs 16 bytes. ds_template_hash is ds_template_hash_opts with the
 * default options.
 */
DS_EXTERN int ds_template_hash(const char *template_text, size_t size, int32_t collision_count, char *out,
			       size_t out_size, ds_error *err);
DS_EXTERN int ds_template_hash_opts(const char *template_text, size_t size, int32_t collision_count,
				    const ds_options *opts, char *out, size_t out_size, ds_error *err);

/*
 * The DaemonSet's revision history as the controller sees it: the current
 * revision (an existing ControllerRevision whose data matches the template,
 * or the one a sync would create), the hash pods are labelled with, the
 * revisions kept and what a sync would delete (revisionHistoryLimit), and
 * per revision how many pods run it. JSON.
 */
DS_EXTERN int ds_daemonset_history(const ds_cluster *cluster, const char *namespace_, const char *name,
				   const ds_options *opts, char **json_out, ds_error *err);

/*
 * kubectl rollout undo: restore the template of revision to_revision (0: the
 * previous one). JSON {"message","toRevision","skipped","patch","daemonSet"}:
 * the message kubectl prints ("daemonset.apps/x rolled back", or "... skipped
 * rollback (current template already matches revision N)"), the patch kubectl
 * sends, and the DaemonSet with the template restored. DS_ENOTFOUND "unable to
 * find specified revision N in history"; DS_ESTATE "no last revision to roll back to".
 */
DS_EXTERN int ds_daemonset_rollback(const ds_cluster *cluster, const char *namespace_, const char *name,
				    int64_t to_revision, const ds_options *opts, char **json_out, ds_error *err);

/*
 * "What if" edits, made as the API server makes them. ds_daemonset_update
 * is a PUT of text (a whole DaemonSet, JSON or YAML; metadata.namespace
 * missing: option defaultNamespace): the API server's defaults, BeforeUpdate
 * and the DaemonSet strategy's PrepareForUpdate (status kept; metadata.generation
 * and the deprecated.daemonset.template.generation annotation bumped when the
 * template changed, the generation alone when another part of the spec did),
 * then ValidateDaemonSetUpdate. A valid update replaces the DaemonSet in the
 * snapshot (it mutates the snapshot); an invalid one is DS_EINVALID with the
 * API server's message, and leaves it as it was. json_out (may be NULL, also
 * filled for DS_EINVALID): {"valid","errors","message","object" (as stored),
 * "generation","previousGeneration","templateChanged"}.
 */
DS_EXTERN int ds_daemonset_update(ds_cluster *cluster, const char *text, size_t size, const ds_options *opts,
				  char **json_out, ds_error *err);
/* kubectl set image DS CONTAINER=IMAGE: the image of the containers and init
 * containers named container ("*": all of them), then ds_daemonset_update.
 * DS_ENOTFOUND "unable to find container named \"x\"" when none has that name. */
DS_EXTERN int ds_daemonset_set_image(ds_cluster *cluster, const char *namespace_, const char *name,
				     const char *container, const char *image, const ds_options *opts, char **json_out,
				     ds_error *err);

/* Whether a pod of the snapshot runs the DaemonSet's current revision
 * (IsPodUpdated: hash label, or the pod-template-generation label). Reads
 * option revisionHash. */
DS_EXTERN int ds_daemonset_pod_updated(const ds_cluster *cluster, const char *namespace_, const char *name,
				       const char *pod_name, const ds_options *opts, int *updated, ds_error *err);

/* ---- superseded names (SONAME 1 keeps them; see "Conventions" in daemonset(7)) ---- */
#ifndef DS_NO_DEPRECATED
DS_EXTERN DS_DEPRECATED("ds_daemonset_pod") int ds_daemon_pod(const ds_cluster *cluster, const char *namespace_,
							      const char *name, const char *node,
							      const ds_options *opts, char **json_out, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_daemonset_history") int ds_daemon_history(const ds_cluster *cluster, const char *namespace_,
								      const char *name, const ds_options *opts,
								      char **json_out, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_daemonset_rollback") int ds_daemon_rollback(const ds_cluster *cluster,
									const char *namespace_, const char *name,
									int64_t to_revision, const ds_options *opts,
									char **json_out, ds_error *err);
DS_EXTERN DS_DEPRECATED("ds_daemonset_pod_updated") int ds_daemon_pod_updated(const ds_cluster *cluster,
									      const char *namespace_, const char *name,
									      const char *pod_name, int *updated,
									      ds_error *err);
#endif

#ifdef __cplusplus
}
#endif
#endif
