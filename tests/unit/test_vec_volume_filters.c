/*
 * VolumeRestrictions' ReadWriteOncePod check and NodeVolumeLimits (CSILimits), replayed row by row
 * from upstream's tables through ds_scheduler_filter(3):
 *   pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions_test.go TestAccessModeConflicts
 *   pkg/scheduler/framework/plugins/nodevolumelimits/csi_test.go TestCSILimits (index commit 991b78f9)
 * Inputs are transcribed as objects: upstream's pods without a namespace are in "ns" here (the
 * objects of a manifest get a namespace), and every pod has a name (the snapshot needs one).
 *
 * TestCSILimits rows left out, and why:
 *   - "should count VolumeAttachments towards volume limit when no pods exist" and "should schedule
 *     pod when VolumeAttachments count does not exceed limit" (vaCount): the library does not load
 *     VolumeAttachment objects, so their count is not added.
 *   - the ten in-tree migration rows ("should count in-tree volumes if migration is enabled", "nil
 *     csi node", "should count unbound in-tree volumes if migration is enabled", "should not limit pod
 *     if volume used does not report limits", "should count in-tree inline volumes if migration is
 *     enabled", "should count in-tree and csi volumes if migration is enabled (when scheduling in-tree
 *     volumes)", "should count in-tree, inline and csi volumes ...", "should not count in-tree, inline
 *     and csi volumes ...", "should count in-tree and csi volumes if migration is enabled (when
 *     scheduling csi volumes)", "don't skip Filter when the pod has inline migratable volumes"): the
 *     translation of in-tree volumes to CSI (csi-translation-lib) is not reproduced; such a node is
 *     "not evaluated" (checked below on the first of them), and "nil csi node" has no CSINode at all,
 *     which leaves the limits unknown (not evaluated).
 * TestAccessModeConflicts "failed to get PVC" has no PersistentVolumeClaim at all upstream; here an
 * unrelated claim is loaded beside it, since an input without any claim leaves the plugin "not
 * evaluated" (checked too), and (typed_empty_lists) an empty PersistentVolumeClaimList, which says
 * there are none, as upstream's row has it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* ---- text builders ---- */

typedef struct buf {
	char *s;
	size_t n, cap;
} buf;

static void put(buf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		ck_assert_int_ge(k, 0);
		if (b->s && b->n + (size_t)k < b->cap) {
			b->n += (size_t)k;
			return;
		}
		b->cap = (b->cap + (size_t)k + 1) * 2;
		b->s = realloc(b->s, b->cap);
		ck_assert_ptr_nonnull(b->s);
		if (b->n == 0)
			b->s[0] = 0;
	}
}

/* A pod: vols is a ';'-separated list of "pvc:NAME", "eph:VOLNAME", "aws:ID", "cm", "secret". */
static void put_pod(buf *b, const char *ns, const char *name, const char *uid, const char *node, int prio,
		    const char *vols)
{
	put(b, "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"%s\", \"namespace\": \"%s\"",
	    name, ns);
	if (uid)
		put(b, ", \"uid\": \"%s\"", uid);
	put(b, "}, \"spec\": {\"priority\": %d, \"containers\": [{\"name\": \"c\", \"image\": \"i\"}]", prio);
	if (node)
		put(b, ", \"nodeName\": \"%s\"", node);
	put(b, ", \"volumes\": [");
	char copy[512];
	snprintf(copy, sizeof(copy), "%s", vols ? vols : "");
	int i = 0;
	for (char *save = NULL, *v = strtok_r(copy, ";", &save); v; v = strtok_r(NULL, ";", &save), i++) {
		put(b, "%s{\"name\": ", i ? ", " : "");
		if (strncmp(v, "pvc:", 4) == 0)
			put(b, "\"v%d\", \"persistentVolumeClaim\": {\"claimName\": \"%s\"}}", i, v + 4);
		else if (strncmp(v, "eph:", 4) == 0)
			put(b, "\"%s\", \"ephemeral\": {\"volumeClaimTemplate\": {\"spec\": {}}}}", v + 4);
		else if (strncmp(v, "aws:", 4) == 0)
			put(b, "\"v%d\", \"awsElasticBlockStore\": {\"volumeID\": \"%s\"}}", i, v + 4);
		else if (strcmp(v, "cm") == 0)
			put(b, "\"v%d\", \"configMap\": {\"name\": \"cm\"}}", i);
		else
			put(b, "\"v%d\", \"secret\": {\"secretName\": \"s\"}}", i);
	}
	put(b, "]}}");
}

static void put_pvc(buf *b, const char *ns, const char *name, const char *mode, const char *volume, const char *sc,
		    const char *owner_uid)
{
	put(b,
	    "{\"apiVersion\": \"v1\", \"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": \"%s\", "
	    "\"namespace\": \"%s\"",
	    name, ns);
	if (owner_uid)
		put(b,
		    ", \"ownerReferences\": [{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"name\": \"abc\", \"uid\": "
		    "\"%s\", \"controller\": true}]",
		    owner_uid);
	put(b, "}, \"spec\": {");
	int sep = 0;
	if (mode) {
		put(b, "\"accessModes\": [\"%s\"]", mode);
		sep = 1;
	}
	if (volume) {
		put(b, "%s\"volumeName\": \"%s\"", sep ? ", " : "", volume);
		sep = 1;
	}
	if (sc)
		put(b, "%s\"storageClassName\": \"%s\"", sep ? ", " : "", sc);
	put(b, "}}");
}

/* ds_scheduler_filter's answer for the pod text on node (objects: a List's items text). */
static json_t *run(const char *pod, const char *node, const char *items)
{
	buf o = {0};
	put(&o, "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [%s]}", items ? items : "");
	char *out = NULL;
	ds_error err;
	int rc = ds_scheduler_filter(pod, strlen(pod), node, strlen(node), o.s, o.n, NULL, &out, &err);
	ck_assert_msg(rc == 0, "%s at %s", err.message, err.path);
	free(o.s);
	return dsi_test_take_json(out);
}

/* The reason of plugin in an answer (NULL: none). */
static const json_t *reason_of(const json_t *got, const char *plugin)
{
	size_t i;
	const json_t *r;
	json_array_foreach(json_object_get(got, "reasons"), i,
			   r) if (strcmp(json_string_value(json_object_get(r, "plugin")), plugin) == 0) return r;
	return NULL;
}

/* Whether plugin is in the answer's filters.<which> ("ran", "skipped", "notEvaluated"). */
static int filter_in(const json_t *got, const char *which, const char *plugin)
{
	size_t i;
	const json_t *v;
	json_array_foreach(json_object_get(json_object_get(got, "filters"), which), i,
			   v) if (strcmp(json_string_value(v), plugin) == 0) return 1;
	return 0;
}

/* want: "skip", "ok", or a status code with its message */
static void expect(const json_t *got, const char *plugin, const char *code, const char *msg, const char *row)
{
	const json_t *r = reason_of(got, plugin);
	if (strcmp(code, "skip") == 0) {
		ck_assert_msg(!r && filter_in(got, "skipped", plugin), "%s: want Skip", row);
	} else if (strcmp(code, "notEvaluated") == 0) {
		ck_assert_msg(filter_in(got, "notEvaluated", plugin), "%s: want notEvaluated", row);
	} else if (strcmp(code, "ok") == 0) {
		ck_assert_msg(!r && filter_in(got, "ran", plugin), "%s: want ran and passed (reason %s)", row,
			      r ? json_string_value(json_object_get(r, "message")) : "-");
	} else {
		ck_assert_msg(r != NULL, "%s: want %s, got no reason", row, code);
		ck_assert_msg(strcmp(json_string_value(json_object_get(r, "code")), code) == 0, "%s: code %s", row,
			      json_string_value(json_object_get(r, "code")));
		ck_assert_msg(strcmp(json_string_value(json_object_get(r, "message")), msg) == 0, "%s: message %s", row,
			      json_string_value(json_object_get(r, "message")));
	}
}

/* ---- TestAccessModeConflicts ---- */

static const char *node1 = "{\"metadata\": {\"name\": \"node-1\"}, \"status\": {\"allocatable\": {\"pods\": \"10\"}}}";
#define RWOP_MSG "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode"

static char *rwop_pvcs(int two, int unrelated_only)
{
	buf b = {0};
	if (unrelated_only) {
		put_pvc(&b, "other", "unrelated", "ReadWriteOnce", NULL, NULL, NULL);
		return b.s;
	}
	put_pvc(&b, "default", "claim-with-rwop-1", "ReadWriteOncePod", NULL, NULL, NULL);
	put(&b, ", ");
	if (two) {
		put_pvc(&b, "default", "claim-with-rwop-2", "ReadWriteOncePod", NULL, NULL, NULL);
		put(&b, ", ");
	}
	put_pvc(&b, "default", "claim-with-rwx", "ReadWriteMany", NULL, NULL, NULL);
	return b.s;
}

START_TEST(access_mode_conflicts)
{
	int rows = 0;
	buf pod = {0}, items = {0};
	/* "nothing": PreFilter Skip */
	put_pod(&pod, "default", "p", NULL, NULL, 0, NULL);
	json_t *got = run(pod.s, node1, NULL);
	expect(got, "VolumeRestrictions", "skip", NULL, "nothing");
	ck_assert(json_is_true(json_object_get(got, "fits")));
	json_decref(got), rows++;
	/* "failed to get PVC": UnschedulableAndUnresolvable with the lister's not-found */
	free(pod.s), pod = (buf){0};
	put_pod(&pod, "default", "pod-with-one-pvc", NULL, NULL, 0, "pvc:claim-with-rwop-1");
	char *pvcs = rwop_pvcs(0, 1);
	got = run(pod.s, node1, pvcs);
	free(pvcs);
	expect(got, "VolumeRestrictions", "UnschedulableAndUnresolvable",
	       "persistentvolumeclaim \"claim-with-rwop-1\" not found", "failed to get PVC");
	json_decref(got), rows++;
	/* ... and with no claim in the input at all: not evaluated (our rule, not upstream's row) */
	got = run(pod.s, node1, NULL);
	expect(got, "VolumeRestrictions", "notEvaluated", NULL, "no PersistentVolumeClaim loaded");
	ck_assert(!json_is_true(json_object_get(got, "fits")));
	json_decref(got);
	/* "no access mode conflict": the claim is ReadWriteOncePod, no pod uses it: Skip */
	pvcs = rwop_pvcs(0, 0);
	put(&items, "%s, ", pvcs);
	put_pod(&items, "default", "pod-with-rwx", NULL, "node-1", 0, "pvc:claim-with-rwx");
	got = run(pod.s, node1, items.s);
	expect(got, "VolumeRestrictions", "skip", NULL, "no access mode conflict");
	json_decref(got), rows++;
	/* "access mode conflict, unschedulable" */
	free(pod.s), pod = (buf){0};
	put_pod(&pod, "default", "pod-with-one-conflict", NULL, NULL, 100, "pvc:claim-with-rwop-1");
	free(items.s), items = (buf){0};
	put(&items, "%s, ", pvcs);
	put_pod(&items, "default", "pod-with-one-pvc", NULL, "node-1", 0, "pvc:claim-with-rwop-1");
	put(&items, ", ");
	put_pod(&items, "default", "pod-with-rwx", NULL, "node-1", 0, "pvc:claim-with-rwx");
	got = run(pod.s, node1, items.s);
	expect(got, "VolumeRestrictions", "Unschedulable", RWOP_MSG, "access mode conflict, unschedulable");
	json_decref(got), rows++;
	/* preemption: the pod using the claim is a victim whose removal (RemovePod) clears the conflict
	 * (the claims bound to a volume without zone labels here, which VolumeZone skips; unbound and
	 * without a class, as in the rows, VolumeZone refuses the pod everywhere) */
	char *out = NULL;
	ds_error err;
	buf o = {0};
	put(&o, "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [");
	put_pvc(&o, "default", "claim-with-rwop-1", "ReadWriteOncePod", "pv-1", NULL, NULL);
	put(&o, ", {\"apiVersion\": \"v1\", \"kind\": \"PersistentVolume\", \"metadata\": {\"name\": \"pv-1\"}}, ");
	put_pod(&o, "default", "pod-with-one-pvc", NULL, "node-1", 0, "pvc:claim-with-rwop-1");
	put(&o, "]}");
	ck_assert_int_eq(ds_preemption_select_victims(pod.s, pod.n, node1, strlen(node1), o.s, o.n, NULL, &out, &err),
			 0);
	json_t *pre = dsi_test_take_json(out);
	ck_assert(json_is_true(json_object_get(pre, "possible")));
	ck_assert_int_eq(json_array_size(json_object_get(pre, "victims")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(pre, "victims"), 0), "name")),
			 "pod-with-one-pvc");
	json_decref(pre);
	free(o.s);
	free(pvcs);
	/* "two conflicts, unschedulable" */
	free(pod.s), pod = (buf){0};
	put_pod(&pod, "default", "pod-with-two-conflicts", NULL, NULL, 0,
		"pvc:claim-with-rwop-1;pvc:claim-with-rwop-2");
	free(items.s), items = (buf){0};
	pvcs = rwop_pvcs(1, 0);
	put(&items, "%s, ", pvcs);
	put_pod(&items, "default", "pod-with-two-pvcs", NULL, "node-1", 0,
		"pvc:claim-with-rwop-1;pvc:claim-with-rwop-2");
	put(&items, ", ");
	put_pod(&items, "default", "pod-with-rwx", NULL, "node-1", 0, "pvc:claim-with-rwx");
	got = run(pod.s, node1, items.s);
	expect(got, "VolumeRestrictions", "Unschedulable", RWOP_MSG, "two conflicts, unschedulable");
	json_decref(got), rows++;
	free(pvcs);
	free(pod.s);
	free(items.s);
	ck_assert_int_eq(rows, 5); /* TestAccessModeConflicts has 5 rows */
}
END_TEST

/* ---- TestCSILimits ---- */

#define EBS "ebs.csi.aws.com"
#define GCE "pd.csi.storage.gke.io"
#define HOSTPATH "kubernetes.io/hostpath"
#define AWS_INTREE "kubernetes.io/aws-ebs"
#define NODE "node-for-max-pd-test-1"

/* The pods of the table: name -> namespace, uid, volumes. */
static const struct {
	const char *key, *ns, *name, *uid, *vols;
} pods[] = {
	{"runningPod", "ns", "running", NULL, "pvc:csi-" EBS "-3"},
	{"pendingVolumePod", "ns", "pending", NULL, "pvc:csi-4"},
	{"unboundPVCPod2", "ns", "unbound2", NULL, "pvc:csi-4"},
	{"missingPVPod", "ns", "missing-pv", NULL, "pvc:csi-6"},
	{"noSCPVCPod", "ns", "no-sc", NULL, "pvc:csi-5"},
	{"gceTwoVolPod", "ns", "gce-two", NULL, "pvc:csi-" GCE "-1;pvc:csi-" GCE "-2"},
	{"csiEBSOneVolPod", "ns", "ebs-one", NULL, "pvc:csi-" EBS "-0"},
	{"csiEBSTwoVolPod", "ns", "ebs-two", NULL, "pvc:csi-" EBS "-1;pvc:csi-" EBS "-2"},
	{"inTreeNonMigratableOneVolPod", "ns", "hostpath-one", NULL, "pvc:csi-" HOSTPATH "-0"},
	{"inTreeTwoVolPod", "ns", "intree-two", NULL, "pvc:csi-" AWS_INTREE "-1;pvc:csi-" AWS_INTREE "-2"},
	{"ephemeralVolumePod", "test", "abc", "12345", "eph:xyz"},
	{"ephemeralTwoVolumePod", "test", "abc", "12345II", "eph:x;eph:y"},
	{"onlyConfigmapAndSecretVolPod", "ns", "cm-secret", NULL, "cm;secret"},
	{"pvcPodWithConfigmapAndSecret", "ns", "pvc-cm-secret", NULL, "cm;secret;pvc:csi-" EBS "-0"},
	{"ephemeralPodWithConfigmapAndSecret", "test", "abc", NULL, "cm;secret;eph:xyz"},
};

static int pod_index(const char *key)
{
	for (size_t i = 0; i < sizeof(pods) / sizeof(pods[0]); i++)
		if (strcmp(pods[i].key, key) == 0)
			return (int)i;
	ck_abort_msg("no pod %s", key);
	return -1;
}

typedef struct csi_row {
	const char *test;
	const char *new_pod;
	const char *existing[4];
	const char *extra_claims[3]; /* "ephemeralClaim", "conflictingClaim", "ephemeralClaimX", "ephemeralClaimY" */
	int max_vols;
	const char *drivers[3];
	const char *limit_source; /* "csinode", "csinode-with-no-limit", "" */
	const char *code;         /* "ok", "skip", "notEvaluated", or a status code */
	const char *msg;
} csi_row;

#define EXCEEDED "Unschedulable", "node(s) exceed max volume count"

static const csi_row csi_rows[] = {
	{"fits when node volume limit >= new pods CSI volume",
	 "csiEBSOneVolPod",
	 {"runningPod", "csiEBSTwoVolPod"},
	 {NULL},
	 4,
	 {EBS},
	 "csinode",
	 "ok",
	 NULL},
	{"doesn't when node volume limit <= pods CSI volume",
	 "csiEBSOneVolPod",
	 {"runningPod", "csiEBSTwoVolPod"},
	 {NULL},
	 2,
	 {EBS},
	 "csinode",
	 EXCEEDED},
	{"should when driver does not support volume limits",
	 "csiEBSOneVolPod",
	 {"runningPod", "csiEBSTwoVolPod"},
	 {NULL},
	 2,
	 {EBS},
	 "csinode-with-no-limit",
	 "ok",
	 NULL},
	{"count pending PVCs towards volume limit <= pods CSI volume",
	 "csiEBSOneVolPod",
	 {"pendingVolumePod", "csiEBSTwoVolPod"},
	 {NULL},
	 2,
	 {EBS},
	 "csinode",
	 EXCEEDED},
	{"count multiple pending pvcs towards volume limit >= pods CSI volume",
	 "csiEBSOneVolPod",
	 {"pendingVolumePod", "unboundPVCPod2", "csiEBSTwoVolPod"},
	 {NULL},
	 4,
	 {EBS},
	 "csinode",
	 "ok",
	 NULL},
	{"should count PVCs with invalid PV name but valid SC",
	 "csiEBSOneVolPod",
	 {"missingPVPod", "csiEBSTwoVolPod"},
	 {NULL},
	 2,
	 {EBS},
	 "csinode",
	 EXCEEDED},
	{"don't count pvcs with missing SC towards volume limit",
	 "csiEBSOneVolPod",
	 {"runningPod", "noSCPVCPod"},
	 {NULL},
	 2,
	 {EBS},
	 "csinode",
	 "ok",
	 NULL},
	{"count pvcs with the same type towards volume limit",
	 "csiEBSOneVolPod",
	 {"gceTwoVolPod", "csiEBSTwoVolPod"},
	 {NULL},
	 2,
	 {EBS, GCE},
	 "csinode",
	 EXCEEDED},
	{"don't count pvcs with different type towards volume limit",
	 "gceTwoVolPod",
	 {"csiEBSTwoVolPod", "runningPod"},
	 {NULL},
	 2,
	 {EBS, GCE},
	 "csinode",
	 "ok",
	 NULL},
	{"should not count non-migratable in-tree volumes",
	 "inTreeNonMigratableOneVolPod",
	 {"csiEBSTwoVolPod"},
	 {NULL},
	 2,
	 {HOSTPATH, EBS},
	 "csinode",
	 "ok",
	 NULL},
	{"ephemeral volume missing",
	 "ephemeralVolumePod",
	 {NULL},
	 {NULL},
	 0,
	 {EBS},
	 "csinode-with-no-limit",
	 "UnschedulableAndUnresolvable",
	 "looking up PVC test/abc-xyz: persistentvolumeclaim \"abc-xyz\" not found"},
	{"ephemeral volume not owned",
	 "ephemeralVolumePod",
	 {NULL},
	 {"conflictingClaim"},
	 0,
	 {EBS},
	 "csinode-with-no-limit",
	 "Error",
	 "PVC test/abc-xyz was not created for pod test/abc (pod is not owner)"},
	{"ephemeral volume unbound",
	 "ephemeralVolumePod",
	 {NULL},
	 {"ephemeralClaim"},
	 0,
	 {EBS},
	 "csinode-with-no-limit",
	 "ok",
	 NULL},
	{"ephemeral doesn't when node volume limit <= pods CSI volume",
	 "ephemeralVolumePod",
	 {"runningPod", "csiEBSTwoVolPod"},
	 {"ephemeralClaim"},
	 2,
	 {EBS},
	 "csinode",
	 EXCEEDED},
	{"ephemeral doesn't when node volume limit <= pods ephemeral CSI volume",
	 "csiEBSOneVolPod",
	 {"runningPod", "ephemeralTwoVolumePod"},
	 {"ephemeralClaimX", "ephemeralClaimY"},
	 2,
	 {EBS},
	 "csinode",
	 EXCEEDED},
	{"persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume, ephemeral "
	 "disabled",
	 "csiEBSOneVolPod",
	 {"runningPod", "ephemeralVolumePod", "csiEBSTwoVolPod"},
	 {"ephemeralClaim"},
	 3,
	 {EBS},
	 "csinode",
	 EXCEEDED},
	{"persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume",
	 "csiEBSOneVolPod",
	 {"runningPod", "ephemeralVolumePod", "csiEBSTwoVolPod"},
	 {"ephemeralClaim"},
	 3,
	 {EBS},
	 "csinode",
	 EXCEEDED},
	{"persistent okay when node volume limit > pods ephemeral CSI volume + persistent volume",
	 "csiEBSOneVolPod",
	 {"runningPod", "ephemeralVolumePod", "csiEBSTwoVolPod"},
	 {"ephemeralClaim"},
	 5,
	 {EBS},
	 "csinode",
	 "ok",
	 NULL},
	{"skip Filter when the pod only uses secrets and configmaps",
	 "onlyConfigmapAndSecretVolPod",
	 {NULL},
	 {NULL},
	 2,
	 {EBS},
	 "csinode",
	 "skip",
	 NULL},
	{"don't skip Filter when the pod has pvcs",
	 "pvcPodWithConfigmapAndSecret",
	 {NULL},
	 {NULL},
	 2,
	 {EBS},
	 "csinode",
	 "ok",
	 NULL},
	{"don't skip Filter when the pod has ephemeral volumes",
	 "ephemeralPodWithConfigmapAndSecret",
	 {NULL},
	 {NULL},
	 0,
	 {EBS},
	 "csinode-with-no-limit",
	 "UnschedulableAndUnresolvable",
	 "looking up PVC test/abc-xyz: persistentvolumeclaim \"abc-xyz\" not found"},
	/* the first migration row: not evaluated here (see the top of the file) */
	{"should count in-tree volumes if migration is enabled",
	 "inTreeOneVolPod",
	 {"inTreeTwoVolPod"},
	 {NULL},
	 2,
	 {AWS_INTREE, EBS},
	 "csinode",
	 "notEvaluated",
	 NULL},
};

/* The objects of a row: the fixtures of getFakeCSIPVLister, getFakeCSIPVCLister,
 * getFakeCSIStorageClassLister and getNodeWithPodAndVolumeLimits (its CSINode with migration of
 * the in-tree EBS plugin enabled, enableMigrationOnNode), the existing pods on the node, the extra
 * claims. */
static char *csi_objects(const csi_row *r)
{
	buf b = {0};
	int first = 1;
#define SEP() (first ? (first = 0, "") : ", ")
	for (int d = 0; d < 3 && r->drivers[d]; d++) {
		const char *drv = r->drivers[d];
		for (int j = 0; j < 4; j++) {
			char name[128];
			snprintf(name, sizeof(name), "csi-%s-%d", drv, j);
			put(&b,
			    "%s{\"apiVersion\": \"v1\", \"kind\": \"PersistentVolume\", \"metadata\": {\"name\": "
			    "\"%s\"}, \"spec\": {",
			    SEP(), name);
			if (strcmp(drv, AWS_INTREE) == 0)
				put(&b, "\"awsElasticBlockStore\": {\"volumeID\": \"%s\"}}}", name);
			else if (strcmp(drv, HOSTPATH) == 0)
				put(&b, "\"hostPath\": {\"path\": \"/tmp\"}}}");
			else
				put(&b, "\"csi\": {\"driver\": \"%s\", \"volumeHandle\": \"%s\"}}}", drv, name);
			put(&b, ", ");
			put_pvc(&b, "ns", name, NULL, name, NULL, NULL);
		}
	}
	put(&b, "%s", SEP());
	put_pvc(&b, "ns", "csi-4", NULL, NULL, "csi-sc", NULL);
	put(&b, ", ");
	put_pvc(&b, "ns", "csi-5", NULL, NULL, NULL, NULL);
	put(&b, ", ");
	put_pvc(&b, "ns", "csi-6", NULL, "missing-in-action", "csi-sc", NULL);
	put(&b,
	    ", {\"apiVersion\": \"storage.k8s.io/v1\", \"kind\": \"StorageClass\", \"metadata\": {\"name\": "
	    "\"csi-sc\"}, \"provisioner\": \"%s\"}",
	    r->drivers[0]);
	if (r->limit_source[0]) {
		put(&b, ", {\"apiVersion\": \"storage.k8s.io/v1\", \"kind\": \"CSINode\", \"metadata\": {\"name\": "
			"\"" NODE "\", \"annotations\": {\"storage.alpha.kubernetes.io/migrated-plugins\": "
			"\"" AWS_INTREE "\"}}, \"spec\": {\"drivers\": [");
		for (int d = 0; d < 3 && r->drivers[d]; d++) {
			put(&b, "%s{\"name\": \"%s\", \"nodeID\": \"" NODE "\"", d ? ", " : "", r->drivers[d]);
			if (strcmp(r->limit_source, "csinode") == 0)
				put(&b, ", \"allocatable\": {\"count\": %d}", r->max_vols);
			put(&b, "}");
		}
		put(&b, "]}}");
	}
	for (int i = 0; i < 3 && r->extra_claims[i]; i++) {
		const char *c = r->extra_claims[i];
		put(&b, ", ");
		if (strcmp(c, "ephemeralClaim") == 0)
			put_pvc(&b, "test", "abc-xyz", NULL, NULL, "csi-sc", "12345");
		else if (strcmp(c, "conflictingClaim") == 0)
			put_pvc(&b, "test", "abc-xyz", NULL, NULL, "csi-sc", NULL);
		else if (strcmp(c, "ephemeralClaimX") == 0)
			put_pvc(&b, "test", "abc-x", NULL, NULL, "csi-sc", "12345II");
		else
			put_pvc(&b, "test", "abc-y", NULL, NULL, "csi-sc", "12345II");
	}
	for (int i = 0; i < 4 && r->existing[i]; i++) {
		int k = pod_index(r->existing[i]);
		put(&b, ", ");
		put_pod(&b, pods[k].ns, pods[k].name, pods[k].uid, NODE, 0, pods[k].vols);
	}
#undef SEP
	return b.s;
}

START_TEST(csi_limits)
{
	const char *node =
		"{\"metadata\": {\"name\": \"" NODE "\"}, \"status\": {\"allocatable\": {\"pods\": \"100\"}}}";
	size_t n = sizeof(csi_rows) / sizeof(csi_rows[0]);
	for (size_t i = 0; i < n; i++) {
		const csi_row *r = &csi_rows[i];
		buf pod = {0};
		if (strcmp(r->new_pod, "inTreeOneVolPod") == 0) {
			put_pod(&pod, "ns", "intree-one", NULL, NULL, 0, "pvc:csi-" AWS_INTREE "-0");
		} else {
			int k = pod_index(r->new_pod);
			/* the new pod is not the existing pod of the same name (ephemeral rows reuse abc) */
			int clash = 0;
			for (int e = 0; e < 4 && r->existing[e]; e++)
				clash |= strcmp(pods[pod_index(r->existing[e])].name, pods[k].name) == 0 &&
					 strcmp(pods[pod_index(r->existing[e])].ns, pods[k].ns) == 0;
			ck_assert(!clash);
			put_pod(&pod, pods[k].ns, pods[k].name, pods[k].uid, NULL, 0, pods[k].vols);
		}
		char *objs = csi_objects(r);
		json_t *got = run(pod.s, node, objs);
		expect(got, "NodeVolumeLimits", r->code, r->msg, r->test);
		json_decref(got);
		free(objs);
		free(pod.s);
	}
	ck_assert_uint_eq(n, 22); /* 21 upstream rows replayed, and one migration row not evaluated */
}
END_TEST

/* ds_scheduler_filter with objects given as a whole text (not wrapped in a List). */
static json_t *run_text(const char *pod, const char *node, const char *objects)
{
	char *out = NULL;
	ds_error err;
	int rc = ds_scheduler_filter(pod, strlen(pod), node, strlen(node), objects, strlen(objects), NULL, &out, &err);
	ck_assert_msg(rc == 0, "%s at %s", err.message, err.path);
	return dsi_test_take_json(out);
}

/* A typed empty list says the cluster has none of its kind (the API server's reply to a list, as
 * `kubectl get --raw /api/v1/persistentvolumeclaims` prints it): TestAccessModeConflicts' "failed to
 * get PVC" with no claim at all, as upstream has it; a generic empty List (what `kubectl get pvc -o
 * json` prints) says nothing. */
START_TEST(typed_empty_lists)
{
	buf pod = {0};
	put_pod(&pod, "default", "pod-with-one-pvc", NULL, NULL, 0, "pvc:claim-with-rwop-1");
	const char *nf = "persistentvolumeclaim \"claim-with-rwop-1\" not found";
	static const char *const typed[] = {
		"{\"apiVersion\": \"v1\", \"kind\": \"PersistentVolumeClaimList\", \"metadata\": {\"resourceVersion\": "
		"\"42\"}, \"items\": []}",
		"{\"apiVersion\": \"v1\", \"kind\": \"PersistentVolumeClaimList\", \"items\": null}",
		"apiVersion: v1\nkind: PersistentVolumeClaimList\nitems: []\n",
		"{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": []}\n"
		"{\"apiVersion\": \"v1\", \"kind\": \"PersistentVolumeClaimList\", \"items\": []}",
		"kind: CSINodeList\napiVersion: storage.k8s.io/v1\nitems: []\n---\n"
		"kind: PersistentVolumeClaimList\napiVersion: v1\nitems: []\n",
	};
	for (size_t i = 0; i < sizeof(typed) / sizeof(typed[0]); i++) {
		json_t *got = run_text(pod.s, node1, typed[i]);
		expect(got, "VolumeRestrictions", "UnschedulableAndUnresolvable", nf, typed[i]);
		ck_assert(!filter_in(got, "notEvaluated", "VolumeRestrictions"));
		ck_assert(!json_is_true(json_object_get(got, "fits")));
		json_decref(got);
	}
	static const char *const untyped[] = {
		"{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": []}",
		"apiVersion: v1\nkind: List\nitems: []\n",
		"{\"apiVersion\": \"example.com/v1\", \"kind\": \"PersistentVolumeClaimList\", \"items\": []}",
		"{\"apiVersion\": \"v1\", \"kind\": \"PersistentVolumeList\", \"items\": []}",
	};
	for (size_t i = 0; i < sizeof(untyped) / sizeof(untyped[0]); i++) {
		json_t *got = run_text(pod.s, node1, untyped[i]);
		expect(got, "VolumeRestrictions", "notEvaluated", NULL, untyped[i]);
		ck_assert(reason_of(got, "VolumeRestrictions") == NULL ||
			  strcmp(json_string_value(json_object_get(reason_of(got, "VolumeRestrictions"), "code")),
				 "NotEvaluated") == 0);
		json_decref(got);
	}
	/* the same through a parsed List object (ds_scheduler_filter_obj: the list's snapshot is copied) */
	ds_object *p = NULL, *n = NULL, *l = NULL;
	ds_error err;
	char *out = NULL;
	ck_assert_int_eq(ds_object_parse("Pod", pod.s, strlen(pod.s), NULL, &p, &err), 0);
	ck_assert_int_eq(ds_object_parse("Node", node1, strlen(node1), NULL, &n, &err), 0);
	ck_assert_int_eq(ds_object_parse("List", typed[0], strlen(typed[0]), NULL, &l, &err), 0);
	ck_assert_int_eq(ds_scheduler_filter_obj(p, n, l, NULL, &out, &err), 0);
	json_t *got = dsi_test_take_json(out);
	expect(got, "VolumeRestrictions", "UnschedulableAndUnresolvable", nf, "_obj");
	json_decref(got);
	ds_object_free(l), ds_object_free(n), ds_object_free(p);
	free(pod.s);
}
END_TEST

/* What the input lacks leaves NodeVolumeLimits not evaluated: no CSINode (limits unknown), claims
 * without any PersistentVolumeClaim; a pod without volumes it reads is its Skip. */
START_TEST(csi_limits_not_evaluated)
{
	const char *node =
		"{\"metadata\": {\"name\": \"" NODE "\"}, \"status\": {\"allocatable\": {\"pods\": \"100\"}}}";
	buf pod = {0};
	put_pod(&pod, "ns", "ebs-one", NULL, NULL, 0, "pvc:csi-" EBS "-0");
	csi_row r = {"no CSINode", "csiEBSOneVolPod", {NULL}, {NULL}, 2, {EBS}, "", "notEvaluated", NULL};
	char *objs = csi_objects(&r);
	json_t *got = run(pod.s, node, objs);
	expect(got, "NodeVolumeLimits", "notEvaluated", NULL, "no CSINode");
	ck_assert(!json_is_true(json_object_get(got, "fits")));
	json_decref(got);
	free(objs);
	/* only a CSINode: the claim cannot be read */
	const char *csinode = "{\"apiVersion\": \"storage.k8s.io/v1\", \"kind\": \"CSINode\", \"metadata\": {\"name\": "
			      "\"" NODE "\"}, \"spec\": {\"drivers\": []}}";
	got = run(pod.s, node, csinode);
	expect(got, "NodeVolumeLimits", "notEvaluated", NULL, "no PersistentVolumeClaim");
	expect(got, "VolumeRestrictions", "notEvaluated", NULL, "no PersistentVolumeClaim");
	json_decref(got);
	free(pod.s);
	/* an inline csi volume is not NodeVolumeLimits' (csi.go counts claims and migrated in-tree ones) */
	const char *inline_csi = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"ns\"}, \"spec\": {\"containers\": "
				 "[{\"name\": \"c\", \"image\": \"i\"}], \"volumes\": [{\"name\": \"v\", \"csi\": "
				 "{\"driver\": \"d\"}}]}}";
	got = run(inline_csi, node, NULL);
	expect(got, "NodeVolumeLimits", "skip", NULL, "inline csi");
	expect(got, "VolumeRestrictions", "skip", NULL, "inline csi");
	ck_assert(json_is_true(json_object_get(got, "fits")));
	json_decref(got);
}
END_TEST

/* explain on a snapshot with the storage kinds: the node whose CSINode limit a pod's volume uses up
 * is unschedulable (NodeVolumeLimits ran), the other is not-evaluated for VolumeBinding alone. */
START_TEST(explain_with_storage)
{
	ds_cluster *c = dsi_test_cluster_text(
		"apiVersion: v1\n"
		"kind: Node\n"
		"metadata: {name: n1}\n"
		"status: {allocatable: {pods: \"10\"}}\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: Node\n"
		"metadata: {name: n2}\n"
		"status: {allocatable: {pods: \"10\"}}\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: Pod\n"
		"metadata: {name: other, namespace: d}\n"
		"spec:\n"
		"  nodeName: n1\n"
		"  containers: [{name: c, image: i}]\n"
		"  volumes: [{name: v, persistentVolumeClaim: {claimName: data}}]\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: PersistentVolumeClaim\n"
		"metadata: {name: data, namespace: d}\n"
		"spec: {accessModes: [ReadWriteOnce], volumeName: pv1}\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: PersistentVolumeClaim\n"
		"metadata: {name: data2, namespace: d}\n"
		"spec: {accessModes: [ReadWriteOnce], volumeName: pv2}\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: PersistentVolume\n"
		"metadata: {name: pv1}\n"
		"spec: {csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}}\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: PersistentVolume\n"
		"metadata: {name: pv2}\n"
		"spec: {csi: {driver: ebs.csi.aws.com, volumeHandle: vol-2}}\n"
		"---\n"
		"apiVersion: storage.k8s.io/v1\n"
		"kind: CSINode\n"
		"metadata: {name: n1}\n"
		"spec: {drivers: [{name: ebs.csi.aws.com, nodeID: i-1, allocatable: {count: 1}}]}\n"
		"---\n"
		"apiVersion: storage.k8s.io/v1\n"
		"kind: CSINode\n"
		"metadata: {name: n2}\n"
		"spec: {drivers: [{name: ebs.csi.aws.com, nodeID: i-2, allocatable: {count: 1}}]}\n"
		"---\n"
		"apiVersion: apps/v1\n"
		"kind: DaemonSet\n"
		"metadata: {name: ds, namespace: d}\n"
		"spec:\n"
		"  selector: {matchLabels: {a: b}}\n"
		"  template:\n"
		"    metadata: {labels: {a: b}}\n"
		"    spec:\n"
		"      containers: [{name: c, image: i}]\n"
		"      volumes: [{name: v, persistentVolumeClaim: {claimName: data2}}]\n"
		"");
	char *out = NULL;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_explain(c, "d", "ds", NULL, &out, &err), 0);
	json_t *doc = dsi_test_take_json(out);
	const json_t *rows = json_object_get(doc, "rows");
	ck_assert_int_eq(json_array_size(rows), 2);
	for (size_t i = 0; i < 2; i++) {
		const json_t *row = json_array_get(rows, i), *f = json_object_get(row, "filters");
		ck_assert(filter_in(row, "ran", "NodeVolumeLimits"));
		ck_assert(filter_in(row, "notEvaluated", "VolumeBinding"));
		ck_assert(!filter_in(row, "notEvaluated", "NodeVolumeLimits"));
		ck_assert_ptr_nonnull(f);
	}
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, 0), "status")), "unschedulable");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, 1), "status")), "not-evaluated");
	const json_t *first = json_array_get(json_object_get(json_array_get(rows, 0), "scheduler"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(first, "plugin")), "NodeVolumeLimits");
	ck_assert_str_eq(json_string_value(json_object_get(first, "message")), "node(s) exceed max volume count");
	json_decref(doc);
	ds_cluster_free(c);
}
END_TEST

/* ---- VolumeZone: volume_zone_test.go TestSingleZone, TestMultiZone, TestWithBinding ---- */

#define BZ "failure-domain.beta.kubernetes.io/zone"
#define BR "failure-domain.beta.kubernetes.io/region"
#define GZ "topology.kubernetes.io/zone"
#define GR "topology.kubernetes.io/region"
#define ZONE_MSG "node(s) had no available volume zone"

static void put_labeled_pv(buf *b, const char *name, const char *labels)
{
	put(b,
	    ", {\"apiVersion\": \"v1\", \"kind\": \"PersistentVolume\", \"metadata\": {\"name\": \"%s\", \"labels\": "
	    "{%s}}}",
	    name, labels);
}

/* The listers of a table: 's' TestSingleZone, 'm' TestMultiZone, 'b' TestWithBinding. */
static char *zone_objects(char table)
{
	buf b = {0};
	put(&b, "{\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": {\"name\": \"default\"}}");
	if (table == 's') {
		put_labeled_pv(&b, "Vol_1", "\"" BZ "\": \"us-west1-a\"");
		put_labeled_pv(&b, "Vol_2", "\"" BR "\": \"us-west1\", \"uselessLabel\": \"none\"");
		put_labeled_pv(&b, "Vol_3", "\"" BR "\": \"us-west1\"");
		put_labeled_pv(&b, "Vol_Stable_1", "\"" GZ "\": \"us-west1-a\"");
		put_labeled_pv(&b, "Vol_Stable_2", "\"" GR "\": \"us-west1\", \"uselessLabel\": \"none\"");
		put_labeled_pv(&b, "Vol_Stable_3", "\"" GZ "\": \"us-west1-a\", \"" GR "\": \"us-west1-a\"");
	} else if (table == 'm') {
		put_labeled_pv(&b, "Vol_1", "\"" BZ "\": \"us-west1-a\"");
		put_labeled_pv(&b, "Vol_2", "\"" BZ "\": \"us-west1-b\", \"uselessLabel\": \"none\"");
		put_labeled_pv(&b, "Vol_3", "\"" BZ "\": \"us-west1-c__us-west1-a\"");
		put_labeled_pv(&b, "Vol_Stable_1", "\"" GZ "\": \"us-west1-a\"");
		put_labeled_pv(&b, "Vol_Stable_2", "\"" GZ "\": \"us-west1-c__us-west1-a\"");
	} else {
		put_labeled_pv(&b, "Vol_1", "\"" BZ "\": \"us-west1-a\"");
	}
	static const char *const bound[][2] = {{"PVC_1", "Vol_1"},
					       {"PVC_2", "Vol_2"},
					       {"PVC_3", "Vol_3"},
					       {"PVC_4", "Vol_not_exist"},
					       {"PVC_Stable_1", "Vol_Stable_1"},
					       {"PVC_Stable_2", "Vol_Stable_2"},
					       {"PVC_Stable_3", "Vol_Stable_3"}};
	for (size_t i = 0; i < sizeof(bound) / sizeof(bound[0]); i++) {
		if ((table == 'm' && strcmp(bound[i][0], "PVC_Stable_3") == 0) || (table == 'b' && i > 0))
			continue;
		put(&b, ", ");
		put_pvc(&b, "default", bound[i][0], NULL, bound[i][1], NULL, NULL);
	}
	if (table == 'b') {
		put(&b, ", ");
		put_pvc(&b, "default", "PVC_NoSC", NULL, NULL, "Class_0", NULL);
		put(&b, ", ");
		put_pvc(&b, "default", "PVC_EmptySC", NULL, NULL, NULL, NULL);
		put(&b, ", ");
		put_pvc(&b, "default", "PVC_WaitSC", NULL, NULL, "Class_Wait", NULL);
		put(&b, ", ");
		put_pvc(&b, "default", "PVC_ImmediateSC", NULL, NULL, "Class_Immediate", NULL);
		put(&b,
		    ", {\"apiVersion\": \"storage.k8s.io/v1\", \"kind\": \"StorageClass\", \"metadata\": {\"name\": "
		    "\"Class_Immediate\"}, \"provisioner\": \"p\"}");
		put(&b,
		    ", {\"apiVersion\": \"storage.k8s.io/v1\", \"kind\": \"StorageClass\", \"metadata\": {\"name\": "
		    "\"Class_Wait\"}, \"provisioner\": \"p\", \"volumeBindingMode\": \"WaitForFirstConsumer\"}");
	}
	return b.s;
}

typedef struct zone_row {
	char table;
	const char *test, *pvc; /* pvc NULL: a pod without volumes */
	const char *node_labels;
	const char *code, *msg; /* "ok", "skip", or the status */
} zone_row;

#define ZC "UnschedulableAndUnresolvable", ZONE_MSG

static const zone_row zone_rows[] = {
	{'s', "pod without volume", NULL, "\"" BZ "\": \"us-west1-a\"", "skip", NULL},
	{'s', "node without labels", "PVC_1", "", "ok", NULL},
	{'s', "beta zone label matched", "PVC_1", "\"" BZ "\": \"us-west1-a\", \"uselessLabel\": \"none\"", "ok", NULL},
	{'s', "beta region label matched", "PVC_2", "\"" BR "\": \"us-west1\", \"uselessLabel\": \"none\"", "ok", NULL},
	{'s', "beta region label doesn't match", "PVC_2", "\"" BR "\": \"no_us-west1\", \"uselessLabel\": \"none\"",
	 ZC},
	{'s', "beta zone label doesn't match", "PVC_1", "\"" BZ "\": \"no_us-west1-a\", \"uselessLabel\": \"none\"",
	 ZC},
	{'s', "zone label matched", "PVC_Stable_1", "\"" GZ "\": \"us-west1-a\", \"uselessLabel\": \"none\"", "ok",
	 NULL},
	{'s', "region label matched", "PVC_Stable_2", "\"" GR "\": \"us-west1\", \"uselessLabel\": \"none\"", "ok",
	 NULL},
	{'s', "region label doesn't match", "PVC_Stable_2", "\"" GR "\": \"no_us-west1\", \"uselessLabel\": \"none\"",
	 ZC},
	{'s', "zone label doesn't match", "PVC_Stable_1", "\"" GZ "\": \"no_us-west1-a\", \"uselessLabel\": \"none\"",
	 ZC},
	{'s', "pv with zone and region, node with only zone", "PVC_Stable_3", "\"" GZ "\": \"us-west1-a\"", ZC},
	{'s', "pv with zone,node with beta zone", "PVC_Stable_1", "\"" BZ "\": \"us-west1-a\"", ZC},
	{'s', "pv with beta label,node with ga label, matched", "PVC_1", "\"" GZ "\": \"us-west1-a\"", "ok", NULL},
	{'s', "pv with beta label,node with ga label, don't match", "PVC_1", "\"" GZ "\": \"us-west1-b\"", ZC},
	{'m', "node without labels", "PVC_3", "", "ok", NULL},
	{'m', "beta zone label matched", "PVC_3", "\"" BZ "\": \"us-west1-a\", \"uselessLabel\": \"none\"", "ok", NULL},
	{'m', "beta zone label doesn't match", "PVC_1", "\"" BZ "\": \"us-west1-b\", \"uselessLabel\": \"none\"", ZC},
	{'m', "zone label matched", "PVC_Stable_2", "\"" GZ "\": \"us-west1-a\", \"uselessLabel\": \"none\"", "ok",
	 NULL},
	{'m', "zone label doesn't match", "PVC_Stable_1", "\"" GZ "\": \"us-west1-b\", \"uselessLabel\": \"none\"", ZC},
	{'b', "label zone failure domain matched", "PVC_1", "\"" BZ "\": \"us-west1-a\", \"uselessLabel\": \"none\"",
	 "ok", NULL},
	{'b', "unbound volume empty storage class", "PVC_EmptySC",
	 "\"" BZ "\": \"us-west1-a\", \"uselessLabel\": \"none\"", "UnschedulableAndUnresolvable",
	 "PersistentVolumeClaim had no pv name and storageClass name"},
	/* upstream's fake lister says "storageclasses.storage.k8s.io"; the informer's lister, as here, the
	 * singular (v1.Resource("storageclass")) */
	{'b', "unbound volume no storage class", "PVC_NoSC", "\"" BZ "\": \"us-west1-a\", \"uselessLabel\": \"none\"",
	 "UnschedulableAndUnresolvable", "storageclass.storage.k8s.io \"Class_0\" not found"},
	/* upstream: "VolumeBindingMode not set for StorageClass \"Class_Immediate\"", from a class no API
	 * server serves (it defaults the mode to Immediate); a class without it is Immediate here */
	{'b', "unbound volume immediate binding mode", "PVC_ImmediateSC",
	 "\"" BZ "\": \"us-west1-a\", \"uselessLabel\": \"none\"", "UnschedulableAndUnresolvable",
	 "PersistentVolume had no name"},
	{'b', "unbound volume wait binding mode", "PVC_WaitSC",
	 "\"" BZ "\": \"us-west1-a\", \"uselessLabel\": \"none\"", "skip", NULL},
};

START_TEST(volume_zone_rows)
{
	size_t n = sizeof(zone_rows) / sizeof(zone_rows[0]);
	for (size_t i = 0; i < n; i++) {
		const zone_row *r = &zone_rows[i];
		buf pod = {0}, node = {0};
		char vols[64];
		snprintf(vols, sizeof(vols), "pvc:%s", r->pvc ? r->pvc : "");
		put_pod(&pod, "default", "pod_1", NULL, NULL, 0, r->pvc ? vols : NULL);
		put(&node,
		    "{\"metadata\": {\"name\": \"host1\", \"labels\": {%s}}, \"status\": {\"allocatable\": {\"pods\": "
		    "\"10\"}}}",
		    r->node_labels);
		char *objs = zone_objects(r->table), name[160];
		json_t *got = run(pod.s, node.s, objs);
		snprintf(name, sizeof(name), "%c: %s", r->table, r->test);
		expect(got, "VolumeZone", r->code, r->msg, name);
		json_decref(got);
		free(objs);
		free(pod.s);
		free(node.s);
	}
	ck_assert_uint_eq(n, 24); /* 14 + 5 + 5 upstream rows */
	/* without any PersistentVolume in the input, a bound claim leaves VolumeZone not evaluated */
	const char *pod = "{\"metadata\": {\"name\": \"p\", \"namespace\": \"default\"}, \"spec\": {\"containers\": "
			  "[{\"name\": \"c\", \"image\": \"i\"}], \"volumes\": [{\"name\": \"v\", "
			  "\"persistentVolumeClaim\": {\"claimName\": \"c\"}}]}}";
	const char *pvc =
		"{\"apiVersion\": \"v1\", \"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": \"c\", "
		"\"namespace\": \"default\"}, \"spec\": {\"volumeName\": \"pv\"}}";
	json_t *got = run(pod, "{\"metadata\": {\"name\": \"n\", \"labels\": {\"" GZ "\": \"a\"}}}", pvc);
	expect(got, "VolumeZone", "notEvaluated", NULL, "no PersistentVolume");
	json_decref(got);
}
END_TEST

static Suite *vec_volume_filters_suite(void)
{
	Suite *s = suite_create("vec_volume_filters");
	TCase *tc = tcase_create("rows");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, access_mode_conflicts);
	tcase_add_test(tc, csi_limits);
	tcase_add_test(tc, csi_limits_not_evaluated);
	tcase_add_test(tc, typed_empty_lists);
	tcase_add_test(tc, explain_with_storage);
	tcase_add_test(tc, volume_zone_rows);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(vec_volume_filters_suite)
