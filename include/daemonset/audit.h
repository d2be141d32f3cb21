/*
 * libdaemonset: security audit. Include <daemonset.h> rather than this file.
 *
 * The Pod Security Standards exactly as kubernetes/pod-security-admission
 * evaluates them (levels privileged, baseline, restricted; versions v1.0 to
 * latest), applied to a Pod or to the pod template of a DaemonSet or any
 * other workload, plus DaemonSet-specific risk findings with a severity, the
 * field's path, a message and a remediation. See ds_object_audit(3).
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_AUDIT_H
#define DAEMONSET_AUDIT_H

#include "daemonset/cluster.h"
#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Audit one object given as JSON or YAML text: a DaemonSet, any workload
 * with spec.template (Deployment, StatefulSet, ReplicaSet, Job, ...), a
 * CronJob (spec.jobTemplate.spec.template), a PodTemplate or a Pod.
 * Reads the options podSecurityLevel (default restricted),
 * podSecurityVersion (default latest), kubernetesVersion (bounds "latest",
 * as the API server's emulation version does), featureGates and the
 * loading limits, auditFailOn and auditIgnore. *json_out receives the
 * report (free with ds_free); its keys are listed in ds_object_audit(3).
 * What the report says about where a DaemonSet's pods run comes from its
 * nodeSelector, required node affinity and tolerations; findings carry the
 * line of their field when text is YAML.
 */
DS_EXTERN int ds_object_audit(const char *text, size_t size, const ds_options *opts, char **json_out, ds_error *err);

/*
 * The audit of the DaemonSet namespace_/name of a snapshot: the report of
 * ds_object_audit, and in its placement the nodes of the snapshot that should run
 * the pods and how many of them are control-plane nodes ("runs on 3 of 40
 * nodes, including 0 control-plane nodes"). See ds_daemonset_audit(3).
 */
DS_EXTERN int ds_daemonset_audit(const ds_cluster *cluster, const char *namespace_, const char *name,
				 const ds_options *opts, char **json_out, ds_error *err);

/*
 * SARIF 2.1.0 for audit reports: reports is the JSON (or YAML) text of one
 * report of ds_object_audit / ds_daemonset_audit or of an array of them; a
 * report's optional "file" member names its manifest (result locations then
 * point at it, with the finding's line). *json_out receives the SARIF log
 * (free with ds_free). See ds_audit_sarif(3).
 */
DS_EXTERN int ds_audit_sarif(const char *reports, size_t size, const ds_options *opts, char **json_out, ds_error *err);

/*
 * Evaluate the Pod Security Standards for one object (same kinds as
 * ds_object_audit) at level ("privileged", "baseline", "restricted") and version
 * ("latest" or "v1.N"); NULL takes the option, then restricted / latest.
 * opts may be NULL. *json_out receives the verdict, the violations and
 * the admission texts (free with ds_free).
 */
DS_EXTERN int ds_pod_security_evaluate(const char *text, size_t size, const char *level, const char *version,
				       const ds_options *opts, char **json_out, ds_error *err);

/* ---- superseded names (SONAME 1 keeps them; see "Conventions" in daemonset(7)) ---- */
#ifndef DS_NO_DEPRECATED
DS_EXTERN DS_DEPRECATED("ds_object_audit") int ds_audit(const char *text, size_t size, const ds_options *opts,
							char **report_json, ds_error *err);
#endif

#ifdef __cplusplus
}
#endif
#endif
