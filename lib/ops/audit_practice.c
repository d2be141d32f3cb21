/*
 * Best-practice checks a DaemonSet operator expects (the reliability half of what kube-score and
 * Polaris check, judged for agents that run once per node): requests and limits, probes, image
 * tags and pull policy, priority class, update strategy, termination grace period, DNS with
 * hostNetwork, minReadySeconds. Each check has a stable id (dsi_audit_rules) and its own fixtures
 * in tests/unit/test_audit_practice.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"
#include "ops/audit_internal.h"

/* ---- containers ----------------------------------------------------------------------------- */

/* a member of a resource list (requests, limits) is set */
static int has_resource(dsi_rd *rd, const json_t *resources, const char *list, const char *name, int *out)
{
	json_t *l;
	*out = 0;
	int rc = dsi_rd_object(rd, resources, list, &l);
	if (rc == 0 && l) {
		json_t *v = json_object_get(l, name);
		*out = v && !json_is_null(v);
	}
	return rc;
}

/* repository[:tag][@digest]: the tag ("" when none) and whether a digest pins it */
static void image_tag(const char *image, const char **tag, size_t *tag_len, int *digest)
{
	const char *at = strchr(image, '@');
	*digest = at != NULL;
	size_t end = at ? (size_t)(at - image) : strlen(image);
	const char *slash = NULL;
	for (const char *p = image; p < image + end; p++)
		if (*p == '/')
			slash = p;
	const char *colon = NULL;
	for (const char *p = slash ? slash : image; p < image + end; p++)
		if (*p == ':')
			colon = p;
	*tag = colon ? colon + 1 : "";
	*tag_len = colon ? (size_t)(image + end - colon - 1) : 0;
}

static int container_checks(dsi_audit_ctx *a, dsi_rd *rd, const dsi_pss_container *c, const json_t *cj)
{
	const char *image, *policy, *restart;
	json_t *res = NULL, *probe;
	int rc;
	if ((rc = dsi_rd_string(rd, cj, "image", &image)) < 0 ||
	    (rc = dsi_rd_string(rd, cj, "imagePullPolicy", &policy)) < 0 ||
	    (rc = dsi_rd_string(rd, cj, "restartPolicy", &restart)) < 0 ||
	    (rc = dsi_rd_object(rd, cj, "resources", &res)) < 0)
		return rc;
	/* a sidecar (an init container with restartPolicy Always) runs next to the containers */
	int runs = c->list == DSI_PSS_CONTAINERS || (restart && strcmp(restart, "Always") == 0);
	if (image && *image) {
		const char *tag;
		size_t tlen;
		int digest;
		image_tag(image, &tag, &tlen, &digest);
		int floating = !digest && (tlen == 0 || (tlen == 6 && strncmp(tag, "latest", 6) == 0));
		if (floating)
			dsi_findings_add(
				a->out, "imageTag", DSI_SEV_MEDIUM, dsi_audit_cpath(a, c, ".image"),
				"Pin the image to a version tag, or better a digest (image@sha256:...), and "
				"change it with the DaemonSet so that a rollout is what changes the agent.",
				"container \"%s\" uses image \"%s\" %s: nodes pull whatever the tag points to "
				"when they start a pod, so the DaemonSet can run different versions on different "
				"nodes and an image push changes nodes without a rollout",
				c->name, image, tlen ? "with the tag latest" : "without a tag (latest)");
		if (floating && policy && (strcmp(policy, "IfNotPresent") == 0 || strcmp(policy, "Never") == 0))
			dsi_findings_add(
				a->out, "imagePullPolicy", DSI_SEV_LOW, dsi_audit_cpath(a, c, ".imagePullPolicy"),
				"Pin the image; with a floating tag use imagePullPolicy: Always.",
				"container \"%s\" uses a floating tag with imagePullPolicy %s: each node keeps the "
				"image it pulled first",
				c->name, policy);
	}
	if (!runs)
		return 0;
	size_t m = dsi_rd_push(rd, "resources");
	int cpu_req = 0, mem_req = 0, cpu_lim = 0, mem_lim = 0;
	if (res && ((rc = has_resource(rd, res, "requests", "cpu", &cpu_req)) < 0 ||
		    (rc = has_resource(rd, res, "requests", "memory", &mem_req)) < 0 ||
		    (rc = has_resource(rd, res, "limits", "cpu", &cpu_lim)) < 0 ||
		    (rc = has_resource(rd, res, "limits", "memory", &mem_lim)) < 0))
		return rc;
	dsi_rd_pop(rd, m);
	/* a limit without a request is defaulted to the limit (SetDefaults_ResourceRequirements) */
	cpu_req |= cpu_lim;
	mem_req |= mem_lim;
	if (!cpu_req || !mem_req)
		dsi_findings_add(
			a->out, "resourceRequests", DSI_SEV_MEDIUM, dsi_audit_cpath(a, c, ".resources.requests"),
			"Set resources.requests.cpu and .memory to what the agent uses on a busy node, so that "
			"the scheduler reserves it on every node and the kubelet does not evict the agent "
			"first (BestEffort pods go first).",
			"container \"%s\" requests no %s: nothing is reserved for it on the node", c->name,
			!cpu_req && !mem_req ? "CPU or memory"
			: !cpu_req           ? "CPU"
					     : "memory");
	if (!mem_lim)
		dsi_findings_add(a->out, "memoryLimit", DSI_SEV_MEDIUM,
				 dsi_audit_cpath(a, c, ".resources.limits.memory"),
				 "Set resources.limits.memory: a leak in an agent then restarts the agent instead of "
				 "starving every node at once.",
				 "container \"%s\" has no memory limit: it can take all of the node's memory, on every "
				 "node it runs on",
				 c->name);
	if (!cpu_lim)
		dsi_findings_add(a->out, "cpuLimit", DSI_SEV_INFO, dsi_audit_cpath(a, c, ".resources.limits.cpu"),
				 "Often deliberate: CPU limits throttle agents at their busiest. Set one when the "
				 "agent must never take more than a share of the node.",
				 "container \"%s\" has no CPU limit", c->name);
	if ((rc = dsi_rd_object(rd, cj, "livenessProbe", &probe)) < 0)
		return rc;
	if (!probe)
		dsi_findings_add(a->out, "livenessProbe", DSI_SEV_LOW, dsi_audit_cpath(a, c, ".livenessProbe"),
				 "Add a livenessProbe on the agent's health endpoint so that the kubelet restarts an "
				 "agent that hangs.",
				 "container \"%s\" has no liveness probe: a hung agent keeps running", c->name);
	if ((rc = dsi_rd_object(rd, cj, "readinessProbe", &probe)) < 0)
		return rc;
	if (!probe)
		dsi_findings_add(a->out, "readinessProbe", DSI_SEV_LOW, dsi_audit_cpath(a, c, ".readinessProbe"),
				 "Add a readinessProbe: a rolling update counts a pod available only once it is ready, "
				 "so readiness is what stops a broken version from reaching every node.",
				 "container \"%s\" has no readiness probe: its pods count as ready as soon as they "
				 "start, so a rolling update moves on even when the new version does not work",
				 c->name);
	return 0;
}

/* ---- the pod ------------------------------------------------------------------------------ */

static int pod_checks(dsi_audit_ctx *a, dsi_rd *rd, const json_t *spec)
{
	const char *prio, *dns;
	int64_t grace;
	int has_grace, rc;
	if ((rc = dsi_rd_string(rd, spec, "priorityClassName", &prio)) < 0 ||
	    (rc = dsi_rd_string(rd, spec, "dnsPolicy", &dns)) < 0 ||
	    (rc = dsi_rd_int64(rd, spec, "terminationGracePeriodSeconds", &grace, &has_grace)) < 0)
		return rc;
	if (a->is_daemonset && (!prio || !*prio))
		dsi_findings_add(a->out, "priorityClassName", DSI_SEV_MEDIUM,
				 dsi_format("%s.priorityClassName", a->spec),
				 "Set priorityClassName: system-node-critical for agents the node needs (CNI, CSI, "
				 "device plugins, kube-proxy), or a class of your own above your workloads.",
				 "the pods have no priority class: on a full node the daemon pod cannot preempt others "
				 "to get its place, and under node pressure it is evicted before higher-priority pods");
	if (has_grace && grace == 0)
		dsi_findings_add(a->out, "terminationGracePeriodSeconds", DSI_SEV_MEDIUM,
				 dsi_format("%s.terminationGracePeriodSeconds", a->spec),
				 "Give the agent time to clean up (the default is 30 seconds).",
				 "terminationGracePeriodSeconds is 0: the agent is killed at once on every update, "
				 "drain and deletion, without a chance to clean up what it set up on the node");
	else if (has_grace && grace > 600)
		dsi_findings_add(
			a->out, "terminationGracePeriodSeconds", DSI_SEV_LOW,
			dsi_format("%s.terminationGracePeriodSeconds", a->spec),
			"Keep the grace period to what the agent needs to stop: node drains, shutdowns and "
			"each step of a rolling update wait for it.",
			"terminationGracePeriodSeconds is %lld: every update, drain and node shutdown may wait "
			"that long for the pod",
			(long long)grace);
	if (a->pod->host_network && (!dns || strcmp(dns, "ClusterFirst") == 0))
		dsi_findings_add(
			a->out, "dnsPolicy", DSI_SEV_LOW, dsi_format("%s.dnsPolicy", a->spec),
			"Set dnsPolicy: ClusterFirstWithHostNet if the agent resolves cluster names (Services), "
			"or Default to say that it uses the node's resolver on purpose.",
			"the pods use hostNetwork with dnsPolicy %s, which the kubelet treats as Default: they "
			"use the node's resolv.conf and cannot resolve Service names",
			dns ? dns : "ClusterFirst (the default)");
	return 0;
}

/* ---- the DaemonSet ------------------------------------------------------------------------ */

/* IntOrString: *pct 1 for "N%" (value N), 0 for an integer; -1 when absent or unreadable */
static int int_or_percent(const json_t *v, long long *value, int *pct)
{
	if (json_is_integer(v)) {
		*value = json_integer_value(v);
		*pct = 0;
		return 0;
	}
	const char *s = json_string_value(v);
	if (!s || !*s)
		return -1;
	char *end;
	*value = strtoll(s, &end, 10);
	*pct = *end == '%';
	return end != s && (*end == '\0' || (*end == '%' && end[1] == '\0')) ? 0 : -1;
}

static int daemonset_checks(dsi_audit_ctx *a, dsi_rd *rd)
{
	const json_t *spec = json_object_get(a->obj, "spec");
	if (!json_is_object(spec))
		return 0;
	dsi_rd_init(rd, rd->err);
	size_t m = dsi_rd_push(rd, "spec");
	json_t *us = NULL, *ru = NULL;
	const char *type = NULL;
	int64_t mrs;
	int has_mrs, rc;
	if ((rc = dsi_rd_int64(rd, spec, "minReadySeconds", &mrs, &has_mrs)) < 0 ||
	    (rc = dsi_rd_object(rd, spec, "updateStrategy", &us)) < 0)
		return rc;
	if (us) {
		size_t m2 = dsi_rd_push(rd, "updateStrategy");
		if ((rc = dsi_rd_string(rd, us, "type", &type)) < 0 ||
		    (rc = dsi_rd_object(rd, us, "rollingUpdate", &ru)) < 0)
			return rc;
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	if (!has_mrs || mrs == 0)
		dsi_findings_add(a->out, "minReadySeconds", DSI_SEV_LOW, dsi_strdup("spec.minReadySeconds"),
				 "Set minReadySeconds to how long the agent must stay ready before it counts as "
				 "working (for example 10 to 30), so that an agent that crashes soon after starting "
				 "stops the rollout.",
				 "minReadySeconds is %s: a pod counts as available the moment it is ready, so a "
				 "version that fails a few seconds after starting still rolls out to every node",
				 has_mrs ? "0" : "not set (0)");
	if (type && strcmp(type, "OnDelete") == 0) {
		dsi_findings_add(a->out, "updateStrategy", DSI_SEV_LOW, dsi_strdup("spec.updateStrategy.type"),
				 "Use RollingUpdate unless someone replaces the pods by hand on purpose (for example "
				 "node by node during maintenance).",
				 "updateStrategy is OnDelete: a changed template reaches a node only when its pod is "
				 "deleted, so nodes run old and new versions side by side until then");
		return 0;
	}
	long long mu = 1, ms = 0;
	int mu_pct = 0, ms_pct = 0;
	if (ru) {
		json_t *v;
		if ((v = json_object_get(ru, "maxUnavailable")) && int_or_percent(v, &mu, &mu_pct) < 0)
			mu = 1, mu_pct = 0;
		if ((v = json_object_get(ru, "maxSurge")) && int_or_percent(v, &ms, &ms_pct) < 0)
			ms = 0, ms_pct = 0;
	}
	if (mu_pct && mu >= 50)
		dsi_findings_add(
			a->out, "updateStrategy", DSI_SEV_MEDIUM,
			dsi_strdup("spec.updateStrategy.rollingUpdate.maxUnavailable"),
			"Lower maxUnavailable (1, or a small percentage) so that a bad version stops after a "
			"few nodes.",
			"maxUnavailable is %lld%%: a rolling update may take the agent down on %s nodes at once", mu,
			mu >= 100 ? "all" : "half or more of the");
	if (ms_pct && ms >= 50)
		dsi_findings_add(a->out, "updateStrategy", DSI_SEV_LOW,
				 dsi_strdup("spec.updateStrategy.rollingUpdate.maxSurge"),
				 "Lower maxSurge so that only a few nodes run two copies of the agent at once.",
				 "maxSurge is %lld%%: %s nodes run an old and a new pod side by side during an update, "
				 "each using its resources",
				 ms, ms >= 100 ? "all" : "half or more of the");
	if (ms > 0) {
		/* the new pod needs the same host ports as the old one on the same node */
		int ports = 0;
		for (uint32_t i = 0; i < a->pod->n_containers && !ports; i++)
			for (uint32_t p = 0; p < a->pod->containers[i].n_ports && !ports; p++)
				ports = a->pod->containers[i].ports[p].host_port != 0 ||
					(a->pod->host_network && a->pod->containers[i].ports[p].container_port != 0);
		if (ports)
			dsi_findings_add(
				a->out, "updateStrategy", DSI_SEV_MEDIUM,
				dsi_strdup("spec.updateStrategy.rollingUpdate.maxSurge"),
				"With host ports use maxSurge: 0 and maxUnavailable instead: the surge pod needs "
				"the same host ports as the pod it replaces.",
				"maxSurge is %lld%s while the pods use host ports%s: the scheduler cannot place "
				"the new pod next to the old one (NodePorts), so the rolling update stalls",
				ms, ms_pct ? "%" : "", a->pod->host_network ? " (hostNetwork)" : "");
	}
	return 0;
}

int dsi_audit_practice(dsi_audit_ctx *a, ds_error *err)
{
	const json_t *spec = a->target->tmpl ? json_object_get(a->target->tmpl, "spec") : NULL;
	dsi_rd rd;
	int rc;
	if (json_is_object(spec)) {
		for (uint32_t i = 0; i < a->pod->n_containers; i++) {
			const dsi_pss_container *c = &a->pod->containers[i];
			if (c->list == DSI_PSS_EPHEMERAL_CONTAINERS)
				continue;
			const char *list = dsi_pss_container_list_name(c->list);
			const json_t *cj = json_array_get(json_object_get(spec, list), c->index);
			if (!json_is_object(cj))
				continue;
			dsi_pss_rd_at(&rd, err, a->spec);
			dsi_rd_push(&rd, list);
			dsi_rd_push_index(&rd, c->index);
			if ((rc = container_checks(a, &rd, c, cj)) < 0)
				return rc;
		}
		dsi_pss_rd_at(&rd, err, a->spec);
		if ((rc = pod_checks(a, &rd, spec)) < 0)
			return rc;
	}
	dsi_rd_init(&rd, err);
	return a->is_daemonset ? daemonset_checks(a, &rd) : 0;
}
