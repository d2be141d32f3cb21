/*
 * The storage kinds the volume filters read (PersistentVolumeClaim, PersistentVolume,
 * StorageClass, CSINode, lib/model/volumes.c): loaded from dumps and manifests into a snapshot,
 * counted, removed by kind, and refused with a path and what was expected when a field has the
 * wrong type.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model/snapshot.h"

static const char *dump =
	"{\"kind\": \"List\", \"apiVersion\": \"v1\", \"items\": ["
	"{\"kind\": \"PersistentVolumeClaim\", \"apiVersion\": \"v1\", \"metadata\": {\"name\": \"data\", "
	"\"namespace\": \"ns\"}, \"spec\": {\"accessModes\": [\"ReadWriteOncePod\"], \"volumeName\": \"pv-1\", "
	"\"storageClassName\": \"fast\"}, \"status\": {\"phase\": \"Bound\"}},"
	"{\"kind\": \"PersistentVolume\", \"apiVersion\": \"v1\", \"metadata\": {\"name\": \"pv-1\"}, "
	"\"spec\": {\"csi\": {\"driver\": \"ebs.csi.aws.com\", \"volumeHandle\": \"vol-1\"}}},"
	"{\"kind\": \"StorageClass\", \"apiVersion\": \"storage.k8s.io/v1\", \"metadata\": {\"name\": \"fast\"}, "
	"\"provisioner\": \"ebs.csi.aws.com\", \"volumeBindingMode\": \"WaitForFirstConsumer\"},"
	"{\"kind\": \"CSINode\", \"apiVersion\": \"storage.k8s.io/v1\", \"metadata\": {\"name\": \"n1\"}, "
	"\"spec\": {\"drivers\": [{\"name\": \"ebs.csi.aws.com\", \"nodeID\": \"i-1\", \"allocatable\": "
	"{\"count\": 25}}]}}"
	"]}";

START_TEST(loads_and_counts)
{
	ds_cluster *c = dsi_test_cluster_text(dump);
	ck_assert_uint_eq(ds_cluster_count(c, "PersistentVolumeClaim"), 1);
	ck_assert_uint_eq(ds_cluster_count(c, "PersistentVolume"), 1);
	ck_assert_uint_eq(ds_cluster_count(c, "StorageClass"), 1);
	ck_assert_uint_eq(ds_cluster_count(c, "CSINode"), 1);
	ck_assert_uint_eq(ds_cluster_count(c, "Other"), 0);
	char *out = NULL;
	ds_error err;
	ck_assert_int_eq(ds_cluster_summary(c, &out, &err), 0);
	json_t *s = dsi_test_take_json(out);
	ck_assert_int_eq(json_integer_value(json_object_get(s, "persistentVolumeClaims")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(s, "csiNodes")), 1);
	json_decref(s);
	/* cluster-scoped kinds are found by name alone; the claim by namespace and name */
	ck_assert_int_eq(ds_cluster_remove(c, "CSINode", NULL, "n1", &err), 0);
	ck_assert_int_eq(ds_cluster_remove(c, "PersistentVolumeClaim", "ns", "data", &err), 0);
	ck_assert_int_eq(ds_cluster_remove(c, "PersistentVolumeClaim", "ns", "data", &err), DS_ENOTFOUND);
	ck_assert_uint_eq(ds_cluster_count(c, "CSINode"), 0);
	ck_assert_uint_eq(ds_cluster_count(c, "PersistentVolumeClaim"), 0);
	/* a storage kind of another group stays another kind */
	const char *crd = "{\"kind\": \"StorageClass\", \"apiVersion\": \"example.com/v1\", \"metadata\": "
			  "{\"name\": \"x\"}}";
	ck_assert_int_eq(ds_cluster_load(c, crd, strlen(crd), NULL, &err), 0);
	ck_assert_uint_eq(ds_cluster_count(c, "StorageClass"), 1);
	ck_assert_uint_eq(ds_cluster_count(c, "Other"), 1);
	ds_cluster_free(c);
}
END_TEST

/* Each wrong field: the load fails whole, with the code and the JSON path. */
START_TEST(bad_fields)
{
	static const struct {
		const char *doc, *path;
		int code;
	} rows[] = {
		{"{\"kind\": \"PersistentVolumeClaim\", \"apiVersion\": \"v1\", \"metadata\": {\"name\": \"c\", "
		 "\"namespace\": \"n\"}, \"spec\": {\"accessModes\": [\"ReadWriteOnce\", 3]}}",
		 "spec.accessModes[1]", DS_ETYPE},
		{"{\"kind\": \"PersistentVolumeClaim\", \"apiVersion\": \"v1\", \"metadata\": {\"name\": \"c\", "
		 "\"namespace\": \"n\"}, \"spec\": {\"volumeName\": 7}}",
		 "spec.volumeName", DS_ETYPE},
		{"{\"kind\": \"PersistentVolumeClaim\", \"apiVersion\": \"v1\", \"metadata\": {\"name\": \"c\", "
		 "\"namespace\": \"n\", \"annotations\": {\"volume.beta.kubernetes.io/storage-class\": true}}}",
		 "metadata.annotations[\"volume.beta.kubernetes.io/storage-class\"]", DS_ETYPE},
		{"{\"kind\": \"PersistentVolume\", \"apiVersion\": \"v1\", \"metadata\": {\"name\": \"p\"}, "
		 "\"spec\": {\"csi\": {\"driver\": [\"x\"]}}}",
		 "spec.csi.driver", DS_ETYPE},
		{"{\"kind\": \"PersistentVolume\", \"apiVersion\": \"v1\", \"metadata\": {\"name\": \"p\"}, "
		 "\"spec\": {\"gcePersistentDisk\": \"pd\"}}",
		 "spec.gcePersistentDisk", DS_ETYPE},
		{"{\"kind\": \"StorageClass\", \"apiVersion\": \"storage.k8s.io/v1\", \"metadata\": {\"name\": "
		 "\"s\"}, \"provisioner\": \"p\", \"volumeBindingMode\": \"Later\"}",
		 "volumeBindingMode", DS_EVALUE},
		{"{\"kind\": \"CSINode\", \"apiVersion\": \"storage.k8s.io/v1\", \"metadata\": {\"name\": \"n\"}, "
		 "\"spec\": {\"drivers\": [{\"name\": \"d\", \"allocatable\": {\"count\": \"5\"}}]}}",
		 "spec.drivers[0].allocatable.count", DS_ETYPE},
		{"{\"kind\": \"CSINode\", \"apiVersion\": \"storage.k8s.io/v1\", \"metadata\": {\"name\": \"n\"}, "
		 "\"spec\": {\"drivers\": [{\"nodeID\": \"i\"}]}}",
		 "spec.drivers[0].name", DS_EMISSING},
		{"{\"kind\": \"CSINode\", \"apiVersion\": \"storage.k8s.io/v1\", \"metadata\": {\"name\": \"n\"}, "
		 "\"spec\": {\"drivers\": {}}}",
		 "spec.drivers", DS_ETYPE},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ds_cluster *c = NULL;
		ds_error err;
		ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
		int rc = ds_cluster_load(c, rows[i].doc, strlen(rows[i].doc), NULL, &err);
		ck_assert_msg(rc == rows[i].code, "row %zu: rc %d (%s)", i, rc, err.message);
		ck_assert_msg(strcmp(err.path, rows[i].path) == 0, "row %zu: path %s", i, err.path);
		ck_assert_uint_eq(ds_cluster_count(c, "PersistentVolumeClaim") +
					  ds_cluster_count(c, "PersistentVolume") +
					  ds_cluster_count(c, "StorageClass") + ds_cluster_count(c, "CSINode"),
				  0);
		ds_cluster_free(c);
	}
}
END_TEST

/* A typed List supplies its kind with no items at all (dsi_cluster_supplied): "this cluster has
 * none" rather than "not loaded". A generic List, another group's kind or a refused version supply
 * nothing; a load that fails records nothing; copies keep it, removals do not undo it. */
static ds_cluster *fresh(void)
{
	ds_cluster *c = NULL;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	return c;
}

static int load(ds_cluster *c, const char *text)
{
	ds_error err;
	return ds_cluster_load(c, text, strlen(text), NULL, &err);
}

START_TEST(typed_empty_lists)
{
	static const struct {
		const char *text;
		int supply; /* -1: none */
	} rows[] = {
		{"{\"kind\": \"PersistentVolumeClaimList\", \"apiVersion\": \"v1\", \"items\": []}", DSI_SUPPLY_PVC},
		{"{\"kind\": \"PersistentVolumeList\", \"apiVersion\": \"v1\", \"metadata\": {\"resourceVersion\": "
		 "\"7\"}, \"items\": null}",
		 DSI_SUPPLY_PV},
		{"kind: StorageClassList\napiVersion: storage.k8s.io/v1\nitems: []\n", DSI_SUPPLY_STORAGE_CLASS},
		{"apiVersion: storage.k8s.io/v1\nkind: CSINodeList\nitems:\n", DSI_SUPPLY_CSINODE},
		{"{\"kind\": \"ResourceClaimList\", \"apiVersion\": \"resource.k8s.io/v1\", \"items\": []}",
		 DSI_SUPPLY_RESOURCE_CLAIM},
		{"{\"kind\": \"DeviceClassList\", \"apiVersion\": \"resource.k8s.io/v1beta2\", \"items\": []}",
		 DSI_SUPPLY_DEVICE_CLASS},
		{"kind: ResourceSliceList\napiVersion: resource.k8s.io/v1\nitems: []\n", DSI_SUPPLY_RESOURCE_SLICE},
		/* a concatenated stream: the second value's list */
		{"{\"kind\": \"List\", \"apiVersion\": \"v1\", \"items\": []}\n"
		 "{\"kind\": \"PersistentVolumeClaimList\", \"apiVersion\": \"v1\", \"items\": []}",
		 DSI_SUPPLY_PVC},
		/* supplies nothing: a generic List, another group's kind, a version loading refuses, no items */
		{"{\"kind\": \"List\", \"apiVersion\": \"v1\", \"items\": []}", -1},
		{"kind: List\napiVersion: v1\nitems: []\n", -1},
		{"{\"kind\": \"PersistentVolumeClaimList\", \"apiVersion\": \"example.com/v1\", \"items\": []}", -1},
		{"{\"kind\": \"ResourceClaimList\", \"apiVersion\": \"resource.k8s.io/v1beta1\", \"items\": []}", -1},
		{"{\"kind\": \"ResourceClaimList\", \"apiVersion\": \"v1\", \"items\": []}", -1},
		{"{\"kind\": \"PodList\", \"apiVersion\": \"v1\", \"items\": []}", -1},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ds_cluster *c = fresh();
		ck_assert_msg(load(c, rows[i].text) == 0, "row %zu: load", i);
		for (int s = 0; s < DSI_SUPPLY_COUNT; s++)
			ck_assert_msg(dsi_cluster_supplied(c, (dsi_supply)s) == (s == rows[i].supply),
				      "row %zu: kind %d", i, s);
		ck_assert_uint_eq(ds_cluster_count(c, "PersistentVolumeClaim") + ds_cluster_count(c, "Other"), 0);
		ds_cluster_free(c);
	}
}
END_TEST

START_TEST(typed_lists_all_or_nothing)
{
	/* each fails after its typed List was read: nothing is recorded, and the version stays */
	static const char *const failing[] = {
		"{\"kind\": \"PersistentVolumeClaimList\", \"apiVersion\": \"v1\", \"items\": []}\n"
		"{\"kind\": \"Pod\", \"apiVersion\": \"v1\", \"metadata\": 7}",
		"kind: PersistentVolumeClaimList\napiVersion: v1\nitems: []\n---\nkind: Pod\napiVersion: v1\n"
		"metadata: 7\n",
		"{\"kind\": \"PersistentVolumeClaimList\", \"apiVersion\": \"v1\", \"items\": [{\"metadata\": "
		"{\"name\": "
		"\"a\", \"namespace\": \"n\"}}, {\"metadata\": {\"name\": \"b\", \"namespace\": \"n\"}, \"spec\": "
		"{\"volumeName\": 7}}]}",
		"{\"kind\": \"PersistentVolumeClaimList\", \"apiVersion\": \"v1\", \"items\": []} {",
	};
	for (size_t i = 0; i < sizeof(failing) / sizeof(failing[0]); i++) {
		ds_cluster *c = fresh();
		uint64_t v = ((dsi_cluster *)c)->version;
		ck_assert_msg(load(c, failing[i]) < 0, "row %zu loads", i);
		ck_assert_msg(!dsi_cluster_supplied(c, DSI_SUPPLY_PVC), "row %zu: recorded", i);
		ck_assert_uint_eq(((dsi_cluster *)c)->listed, 0);
		ck_assert_uint_eq(((dsi_cluster *)c)->version, v);
		ds_cluster_free(c);
	}
	/* a copy keeps the record; removing the listed objects keeps it (the cluster has none) */
	ds_cluster *c = fresh(), *d = NULL;
	ds_error err;
	ck_assert_int_eq(load(c, "{\"kind\": \"PersistentVolumeClaimList\", \"apiVersion\": \"v1\", \"items\": "
				 "[{\"metadata\": {\"name\": \"a\", \"namespace\": \"n\"}}]}"),
			 0);
	ck_assert_int_eq(ds_cluster_copy(c, &d, &err), 0);
	ck_assert(dsi_cluster_supplied(d, DSI_SUPPLY_PVC));
	ck_assert_int_eq(ds_cluster_remove(d, "PersistentVolumeClaim", "n", "a", &err), 0);
	ck_assert_uint_eq(ds_cluster_count(d, "PersistentVolumeClaim"), 0);
	ck_assert(dsi_cluster_supplied(d, DSI_SUPPLY_PVC));
	ck_assert(!dsi_cluster_supplied(d, DSI_SUPPLY_PV));
	ds_cluster_free(d);
	ds_cluster_free(c);
	/* a claim loaded alone supplies its kind while it is there */
	c = fresh();
	ck_assert_int_eq(load(c, "{\"kind\": \"PersistentVolumeClaim\", \"apiVersion\": \"v1\", \"metadata\": "
				 "{\"name\": \"a\", \"namespace\": \"n\"}}"),
			 0);
	ck_assert(dsi_cluster_supplied(c, DSI_SUPPLY_PVC));
	ck_assert_int_eq(ds_cluster_remove(c, "PersistentVolumeClaim", "n", "a", &err), 0);
	ck_assert(!dsi_cluster_supplied(c, DSI_SUPPLY_PVC));
	ds_cluster_free(c);
}
END_TEST

static Suite *storage_kinds_suite(void)
{
	Suite *s = suite_create("storage_kinds");
	TCase *tc = tcase_create("load");
	tcase_add_test(tc, loads_and_counts);
	tcase_add_test(tc, bad_fields);
	tcase_add_test(tc, typed_empty_lists);
	tcase_add_test(tc, typed_lists_all_or_nothing);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(storage_kinds_suite)
