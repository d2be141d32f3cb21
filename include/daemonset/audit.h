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
 * loading limits. *json_out receives the report (free with ds_free);
 * its keys are listed in ds_object_audit(3).
 */
DS_EXTERN int ds_object_audit(const char *text, size_t size, const ds_options *opts, char **json_out, ds_error *err);

/*
 * Evaluate the Pod Security Standards for one object (same kinds as
 * ds_audit) at level ("privileged", "baseline", "restricted") and version
 * ("latest" or "v1.N"); NULL takes the option, then restricted / latest.
 * opts may be NULL. *json_out receives the verdict, the violations and
 * the admission texts (free with ds_free).
 */
DS_EXTERN int ds_pod_security_evaluate(const char *text, size_t size, const char *level, const char *version,
				       const ds_options *opts, char **json_out, ds_error *err);

/* ---- superseded names (SONAME 1 keeps them; see "Conventions" in daemonset(7)) ---- */
DS_EXTERN int ds_audit(const char *text, size_t size, const ds_options *opts, char **report_json, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif
