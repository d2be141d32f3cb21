/*
 * The security audit of a DaemonSet (or any pod template, or a Pod): the Pod
 * Security Standards verdicts (ops/pss.h) plus DaemonSet-specific risk
 * findings, each with a severity, the offending field's path, a message and
 * a remediation. Findings are our own judgement, not upstream rules: the PSS
 * part stays exactly upstream's.
 */
#ifndef DSI_AUDIT_H
#define DSI_AUDIT_H

#include <jansson.h>

#include "model/snapshot.h"
#include "ops/ops_options.h"
#include "pss/pss.h"

typedef enum dsi_severity {
	DSI_SEV_CRITICAL = 0,
	DSI_SEV_HIGH,
	DSI_SEV_MEDIUM,
	DSI_SEV_LOW,
	DSI_SEV_INFO,
	DSI_SEV_COUNT
} dsi_severity;

/* "critical", "high", "medium", "low", "info" */
const char *dsi_severity_name(int severity);

typedef struct dsi_finding {
	const char *id; /* stable, static */
	int severity;
	char *path, *message;
	const char *remediation; /* static */
} dsi_finding;

typedef struct dsi_findings {
	dsi_finding *v;
	size_t n, cap;
	int oom;
} dsi_findings;

void dsi_findings_free(dsi_findings *f);
/* Deterministic order: severity, then path, then id, then message (bytewise). */
void dsi_findings_sort(dsi_findings *f);

/* A field of the object the API does not know (strict field validation, lib/apiserver, finds them). */
typedef struct dsi_audit_field {
	const char *path;       /* "spec.template.spec.containers[0].imagee" */
	const char *suggestion; /* the field likely meant, written where the key is; NULL: none */
} dsi_audit_field;

/* What one audit reads: the object, and optionally its text (for the line of each finding) and the
 * unknown fields found in it (reported as "unknownField"). */
typedef struct dsi_audit_input {
	const json_t *obj;
	const char *text; /* NULL: no line numbers */
	size_t size;
	const dsi_audit_field *unknown_fields;
	size_t n_unknown_fields;
} dsi_audit_input;

/* The report of ds_audit(3) for one object. */
int dsi_audit_report(const dsi_audit_input *in, const dsi_ops_cfg *o, json_t **out, ds_error *err);
/* The result of ds_pod_security_evaluate(3); level/version NULL take the options' (then restricted, latest). */
int dsi_pss_evaluate_object(const json_t *obj, const char *level, const char *version, const dsi_ops_cfg *o,
			    json_t **out, ds_error *err);

/* Risk rating of a host path (normalised like Go's path.Clean): severity when
 * mounted writable / read-only, and what it exposes. For tests and docs. */
int dsi_audit_host_path_severity(const char *path, int writable, const char **what);

/* ds_daemonset_audit(3): the report of the DaemonSet ds, and in its "placement" the nodes of the
 * snapshot that should run its pods (NodeShouldRunDaemonPod) and how many are control-plane nodes. */
int dsi_audit_daemonset(const dsi_cluster *c, const dsi_daemonset *ds, const dsi_audit_field *unknown_fields,
			size_t n_unknown_fields, const dsi_ops_cfg *o, json_t **out, ds_error *err);

/* The SARIF 2.1.0 log for reports (one report object or an array of them; a report's "file" names
 * its manifest). lib/ops/sarif.c */
int dsi_audit_sarif(const json_t *reports, const char *tool_version, json_t **out, ds_error *err);

#endif
