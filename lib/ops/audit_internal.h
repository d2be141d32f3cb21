/*
 * What the audit's files share (riskaudit.c, audit_placement.c, audit_windows.c,
 * audit_practice.c, audit_report.c, sarif.c): the rule table, the finding helpers,
 * the placement the audit derives from a template, and the context of one audit.
 */
#ifndef DSI_AUDIT_INTERNAL_H
#define DSI_AUDIT_INTERNAL_H

#include <jansson.h>

#include "ops/riskaudit.h"

/* ---- rules: every finding id the audit can report ------------------------------------------ */

typedef struct dsi_audit_rule {
	const char *id;
	int severity; /* the most severe level it reports (its SARIF default level) */
	const char *title;
} dsi_audit_rule;

const dsi_audit_rule *dsi_audit_rules(size_t *n);
/* NULL for an id the audit does not know. */
const dsi_audit_rule *dsi_audit_rule_find(const char *id, size_t len);

/* ---- findings ----------------------------------------------------------------------------- */

/* Add a finding; path and message are taken over (NULL means out of memory, remembered in f->oom). */
void dsi_findings_add_owned(dsi_findings *f, const char *id, int sev, char *path, char *message,
			    const char *remediation);
void dsi_findings_add(dsi_findings *f, const char *id, int sev, char *path, const char *remediation, const char *fmt,
		      ...) DSI_PRINTF(6, 7);

/* ---- placement: where the pods can run, from the template alone ------------------------------ */

/* Three-valued answers: whether a kind of node can match the template's node selection. */
enum { DSI_TRI_FALSE = 0, DSI_TRI_TRUE = 1, DSI_TRI_UNKNOWN = 2 };

typedef struct dsi_audit_placement {
	/* Can a node of each kind match nodeSelector and the required node affinity?
	 * TRUE: every such node; FALSE: none; UNKNOWN: only those that carry the labels the selection
	 * asks for (a GPU label, an opt-in label, an architecture). A Linux and a Windows worker carry
	 * kubernetes.io/os and no node-role.kubernetes.io/control-plane label; a control-plane node
	 * carries node-role.kubernetes.io/control-plane and kubernetes.io/os=linux. */
	int linux_nodes, windows_nodes, control_plane_nodes;
	int has_selection;            /* nodeSelector or required node affinity present */
	char *selection;              /* the selection in words ("" when none) */
	int tolerates_cp;             /* node-role.kubernetes.io/control-plane:NoSchedule */
	int tolerates_all;            /* any NoSchedule and NoExecute taint */
	int tolerates_all_noschedule; /* any NoSchedule taint */
	int windows;                  /* Windows pods: the Windows rules replace the Linux-only ones */
	const char *windows_reason;
} dsi_audit_placement;

/* Read from the template: spec.nodeSelector, spec.affinity.nodeAffinity's required terms,
 * spec.tolerations, spec.os.name, windowsOptions.hostProcess. spec_path is where the pod spec is. */
int dsi_audit_placement_read(const dsi_pss_target *t, const dsi_pss_pod *pod, const char *spec_path,
			     const dsi_ops_cfg *o, dsi_audit_placement *out, ds_error *err);
void dsi_audit_placement_free(dsi_audit_placement *p);
/* Whether the pods run on control-plane nodes: "yes", "if-selected" or "no". */
const char *dsi_audit_placement_cp(const dsi_audit_placement *p);
/* "every Linux node ...": the claim in words, a new string. */
char *dsi_audit_placement_claim(const dsi_audit_placement *p);
/* The "placement" member of a DaemonSet's report (new reference, NULL when out of memory). */
json_t *dsi_audit_placement_json(const dsi_audit_placement *p);

/* ---- one audit ------------------------------------------------------------------------------ */

typedef struct dsi_audit_ctx {
	const json_t *obj; /* the whole object */
	const dsi_pss_pod *pod;
	const dsi_pss_target *target;
	const dsi_audit_placement *place;
	int is_daemonset;
	char spec[96], meta[96];
	dsi_findings *out;
} dsi_audit_ctx;

/* "<spec>.containers[i]<rest>", a new string */
char *dsi_audit_cpath(const dsi_audit_ctx *a, const dsi_pss_container *c, const char *rest);

/* The risk findings of one object (riskaudit.c), sorted. */
int dsi_audit_risks(const json_t *obj, const dsi_pss_target *target, const dsi_pss_pod *pod,
		    const dsi_audit_placement *place, const dsi_ops_cfg *o, dsi_findings *out, ds_error *err);

/* audit_report.c: the findings (with suppression and lines), summary and score, placement,
 * failOn and failed of a report being built. */
int dsi_audit_finish(json_t *report, dsi_findings *f, const dsi_audit_input *in, const dsi_pss_target *t,
		     const dsi_audit_placement *place, const dsi_ops_cfg *o, ds_error *err);

/* audit_windows.c */
/* A hostPath that names a Windows location: a drive letter path (C:\...), a UNC path or a named pipe. */
int dsi_audit_windows_path(const char *path);
/* Rate a Windows host path: severity, what it exposes, the finding id ("windowsNamedPipe" or "hostPath")
 * and the remediation. */
int dsi_audit_windows_path_rating(const char *path, int writable, const char **what, const char **id, const char **fix);
/* runAsUserName and the other Windows findings of the pod. */
int dsi_audit_windows(dsi_audit_ctx *a, ds_error *err);

/* audit_practice.c: requests and limits, probes, images, priority, update strategy, grace period,
 * DNS with hostNetwork, minReadySeconds. */
int dsi_audit_practice(dsi_audit_ctx *a, ds_error *err);

#endif
