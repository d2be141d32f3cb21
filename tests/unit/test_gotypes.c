/*
 * Go's encoding/json on the Kubernetes types, as the pure functions apply it: the Go facts the
 * schema carries (tests/gen-schema.py from the struct tags of k8s.io/api v0.36.0), what decoding
 * refuses (apiserver/decodecheck.c) and how a returned object is printed (apiserver/goencode.c),
 * row by row against encoding/json's documented behaviour, then through the public functions
 * (the two examples of issue 20, a wrong type at depth in each input of each function, null,
 * IntOrString, Quantity, integer ranges and fractions).
 *
 * The encoding/json documentation quoted below is that of Go's encoding/json package (decode.go
 * Unmarshal, encode.go Marshal); the custom types' behaviour is k8s.io/apimachinery v0.36.0's
 * (IntOrString.UnmarshalJSON in util/intstr, Quantity.UnmarshalJSON in api/resource,
 * Time.UnmarshalJSON and MarshalJSON in apis/meta/v1/time.go).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/decodecheck.h"
#include "apiserver/goencode.h"
#include "apiserver/schema.h"
#include "harness.h"

/* A type by a short name: "core.v1.PodSpec", "meta.v1.ObjectMeta", or a kind "Pod", then a
 * dotted path below it ("spec.containers[]"; NULL: the type itself). */
static int ty(const char *name, const char *path)
{
	char full[160];
	int t;
	if (strncmp(name, "meta.", 5) == 0) {
		snprintf(full, sizeof(full), "io.k8s.apimachinery.pkg.apis.%s", name);
		t = dsi_schema_named(full);
	} else if (strchr(name, '.')) {
		snprintf(full, sizeof(full), "io.k8s.api.%s", name);
		t = dsi_schema_named(full);
	} else {
		t = dsi_decode_type_of_kind(name);
		if (t < 0)
			t = dsi_schema_root_type("v1", name);
	}
	ck_assert_msg(t >= 0, "no type %s", name);
	if (path) {
		t = dsi_schema_at(t, path);
		ck_assert_msg(t >= 0, "no %s in %s", path, name);
	}
	return t;
}

static json_t *parse(const char *text)
{
	json_error_t je;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &je);
	ck_assert_msg(v != NULL, "bad JSON in the table: %s: %s", je.text, text);
	return v;
}

/* ---- the Go facts ------------------------------------------------------------------------------ */

static unsigned flags_of(const char *type, const char *field)
{
	int t = ty(type, NULL);
	long i = dsi_schema_field_index(t, field, strlen(field));
	ck_assert_msg(i >= 0, "%s has no field %s", type, field);
	return dsi_schema_field_flags_at(t, (size_t)i);
}

/* Fields as their struct tags in k8s.io/api v0.36.0 declare them. */
START_TEST(go_facts_of_fields)
{
	static const struct {
		const char *type, *field;
		unsigned flags;
	} rows[] = {
		/* HostNetwork bool `json:"hostNetwork,omitempty"` */
		{"core.v1.PodSpec", "hostNetwork", DSI_GO_VALUE | DSI_SF_OMITEMPTY},
		/* Containers []Container `json:"containers"` */
		{"core.v1.PodSpec", "containers", DSI_GO_SLICE},
		/* TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"` */
		{"core.v1.PodSpec", "terminationGracePeriodSeconds", DSI_GO_POINTER | DSI_SF_OMITEMPTY},
		{"core.v1.PodSpec", "affinity", DSI_GO_POINTER | DSI_SF_OMITEMPTY},
		{"core.v1.PodSpec", "nodeSelector", DSI_GO_MAP | DSI_SF_OMITEMPTY},
		/* Preference NodeSelectorTerm `json:"preference"`: a struct, not a pointer */
		{"core.v1.PreferredSchedulingTerm", "preference", DSI_GO_STRUCT},
		{"core.v1.PreferredSchedulingTerm", "weight", DSI_GO_VALUE},
		{"core.v1.NodeSelectorTerm", "matchExpressions", DSI_GO_SLICE | DSI_SF_OMITEMPTY},
		/* Resources ResourceRequirements `json:"resources,omitempty"`: omitempty on a struct */
		{"core.v1.Container", "resources", DSI_GO_STRUCT | DSI_SF_OMITEMPTY},
		{"core.v1.Container", "name", DSI_GO_VALUE},
		/* Divisor resource.Quantity `json:"divisor,omitempty"` */
		{"core.v1.ResourceFieldSelector", "divisor", DSI_GO_STRUCT | DSI_SF_OMITEMPTY},
		{"core.v1.Taint", "key", DSI_GO_VALUE},
		{"core.v1.Taint", "effect", DSI_GO_VALUE},
		{"core.v1.Taint", "value", DSI_GO_VALUE | DSI_SF_OMITEMPTY},
		{"core.v1.Taint", "timeAdded", DSI_GO_POINTER | DSI_SF_OMITEMPTY},
		{"core.v1.Toleration", "tolerationSeconds", DSI_GO_POINTER | DSI_SF_OMITEMPTY},
		/* CreationTimestamp Time `json:"creationTimestamp,omitempty,omitzero"` */
		{"meta.v1.ObjectMeta", "creationTimestamp", DSI_GO_STRUCT | DSI_SF_OMITEMPTY | DSI_SF_OMITZERO},
		{"meta.v1.ObjectMeta", "labels", DSI_GO_MAP | DSI_SF_OMITEMPTY},
		/* UID types.UID `json:"uid"` (a string), Controller *bool `json:"controller,omitempty"` */
		{"meta.v1.OwnerReference", "uid", DSI_GO_VALUE},
		{"meta.v1.OwnerReference", "controller", DSI_GO_POINTER | DSI_SF_OMITEMPTY},
		/* TypeMeta inlined: Kind string `json:"kind,omitempty"` */
		{"Pod", "kind", DSI_GO_VALUE | DSI_SF_OMITEMPTY},
		/* Status PodStatus `json:"status,omitempty"` */
		{"Pod", "status", DSI_GO_STRUCT | DSI_SF_OMITEMPTY},
		/* VolumeSource inlined into Volume: HostPath *HostPathVolumeSource */
		{"core.v1.Volume", "hostPath", DSI_GO_POINTER | DSI_SF_OMITEMPTY},
		/* DaemonEndpoint.Port: `json:"Port"`, the capital kept */
		{"core.v1.DaemonEndpoint", "Port", DSI_GO_VALUE},
		{"apps.v1.RollingUpdateDaemonSet", "maxUnavailable", DSI_GO_POINTER | DSI_SF_OMITEMPTY},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		ck_assert_msg(flags_of(rows[i].type, rows[i].field) == rows[i].flags, "%s.%s: flags 0x%x, want 0x%x",
			      rows[i].type, rows[i].field, flags_of(rows[i].type, rows[i].field), rows[i].flags);
	/* the tables say where the facts came from */
	ck_assert_ptr_nonnull(strstr(dsi_schema_source, "k8s.io/api v0.36.0"));
	ck_assert_ptr_nonnull(strstr(dsi_schema_source, "k8s.io/apimachinery v0.36.0"));
	/* every field has its Go kind: a non-value field is somewhere, and pointers are not rare */
	size_t pointers = 0, values = 0;
	for (size_t i = 0; i < dsi_schema_nfields; i++) {
		pointers += (dsi_schema_fields[i].flags & DSI_GO_KIND_MASK) == DSI_GO_POINTER;
		values += (dsi_schema_fields[i].flags & DSI_GO_KIND_MASK) == DSI_GO_VALUE;
	}
	ck_assert_uint_gt(pointers, 100);
	ck_assert_uint_lt(values, dsi_schema_nfields);
}
END_TEST

/* ---- decoding ------------------------------------------------------------------------------------ */

typedef struct decode_row {
	const char *type, *path; /* ty() */
	const char *json;
	int code;                       /* 0: decodes */
	const char *err_path, *message; /* message: a part of it */
} decode_row;

static const decode_row DECODE[] = {
	/* "If a JSON value is not appropriate for a given target type ... Unmarshal skips that field
	 * and completes the unmarshaling as best it can ... returns an UnmarshalTypeError describing
	 * the earliest such error." */
	{"core.v1.Container", NULL, "{\"name\": 5}", DS_ETYPE, "name", "expected string, got number"},
	{"core.v1.Container", NULL, "{\"name\": \"c\", \"image\": true}", DS_ETYPE, "image",
	 "expected string, got boolean"},
	{"core.v1.Container", NULL, "{\"name\": 5, \"image\": 6}", DS_ETYPE, "name", NULL},
	{"core.v1.Container", NULL, "{\"image\": 6, \"name\": 5}", DS_ETYPE, "image", NULL},
	{"core.v1.PodSpec", NULL,
	 "{\"containers\": [{\"name\": \"a\"}, {\"name\": \"b\", \"ports\": [{\"containerPort\": \"80\"}]}]}", DS_ETYPE,
	 "containers[1].ports[0].containerPort", "expected integer, got string"},
	{"core.v1.PodSpec", NULL, "{\"hostNetwork\": \"true\"}", DS_ETYPE, "hostNetwork",
	 "expected boolean, got string"},
	{"core.v1.PodSpec", NULL, "{\"containers\": {}}", DS_ETYPE, "containers", "expected array, got object"},
	{"core.v1.PodSpec", NULL, "{\"affinity\": []}", DS_ETYPE, "affinity", "expected object, got array"},
	{"core.v1.PodSpec", NULL, "{\"nodeSelector\": {\"a\": 1}}", DS_ETYPE, "nodeSelector.a",
	 "expected string, got number"},
	{"meta.v1.ObjectMeta", NULL, "{\"labels\": {\"app.kubernetes.io/name\": false}}", DS_ETYPE,
	 "labels[\"app.kubernetes.io/name\"]", "got boolean"},
	{"core.v1.PodSpec", NULL, "5", DS_ETYPE, "", "expected object, got number"},
	{"core.v1.Taint", "", "{\"key\": \"k\", \"effect\": 1}", DS_ETYPE, "effect", NULL},
	/* "The JSON null value unmarshals into an interface, map, pointer, or slice by setting that Go
	 * value to nil ... unmarshaling a JSON null into any other Go type has no effect" */
	{"core.v1.PodSpec", NULL,
	 "{\"containers\": [null, {\"name\": null, \"ports\": null}], \"hostNetwork\": null, \"affinity\": null, "
	 "\"nodeSelector\": {\"a\": null}, \"tolerations\": [null], \"overhead\": {\"cpu\": null}}",
	 0, NULL, NULL},
	{"meta.v1.ObjectMeta", NULL, "{\"creationTimestamp\": null, \"labels\": null}", 0, NULL, NULL},
	/* unknown fields: "By default, object keys which don't have a corresponding struct field are
	 * ignored"; sigs.k8s.io/json matches names case-sensitively, so "Name" is unknown too */
	{"core.v1.Container", NULL, "{\"nmae\": 5, \"Name\": 6, \"NAME\": [1]}", 0, NULL, NULL},
	/* integers: strconv.ParseInt of the literal, then OverflowInt (literalStore) */
	{"core.v1.Container", "ports[]", "{\"containerPort\": 1.5}", DS_ETYPE, "containerPort",
	 "expected an integer, got 1.5"},
	{"core.v1.Container", "ports[]", "{\"containerPort\": 80.0}", DS_ETYPE, "containerPort",
	 "expected an integer, got 80.0"},
	{"core.v1.Container", "ports[]", "{\"containerPort\": 1e3}", DS_ETYPE, "containerPort", "got 1000.0"},
	{"core.v1.Container", "ports[]", "{\"containerPort\": 2147483647}", 0, NULL, NULL},
	{"core.v1.Container", "ports[]", "{\"containerPort\": 2147483648}", DS_ETYPE, "containerPort",
	 "expected a 32-bit integer, got 2147483648"},
	{"core.v1.Container", "ports[]", "{\"containerPort\": -2147483649}", DS_ETYPE, "containerPort", NULL},
	{"core.v1.PodSpec", NULL, "{\"terminationGracePeriodSeconds\": 4294967296}", 0, NULL, NULL}, /* int64 */
	{"core.v1.PodSpec", NULL, "{\"terminationGracePeriodSeconds\": -0}", 0, NULL, NULL},
	{"core.v1.PodSpec", NULL, "{\"terminationGracePeriodSeconds\": 0.5}", DS_ETYPE, "terminationGracePeriodSeconds",
	 NULL},
	/* IntOrString.UnmarshalJSON: a string, else json.Unmarshal into its int32 */
	{"apps.v1.RollingUpdateDaemonSet", NULL, "{\"maxUnavailable\": \"25%\", \"maxSurge\": 1}", 0, NULL, NULL},
	{"apps.v1.RollingUpdateDaemonSet", NULL, "{\"maxUnavailable\": \"anything\"}", 0, NULL, NULL},
	{"apps.v1.RollingUpdateDaemonSet", NULL, "{\"maxUnavailable\": null}", 0, NULL, NULL},
	{"apps.v1.RollingUpdateDaemonSet", NULL, "{\"maxUnavailable\": 1.5}", DS_ETYPE, "maxUnavailable",
	 "expected a 32-bit integer or a string, got 1.5"},
	{"apps.v1.RollingUpdateDaemonSet", NULL, "{\"maxUnavailable\": 3000000000}", DS_ETYPE, "maxUnavailable", NULL},
	{"apps.v1.RollingUpdateDaemonSet", NULL, "{\"maxUnavailable\": true}", DS_ETYPE, "maxUnavailable",
	 "expected an integer or a string, got boolean"},
	{"apps.v1.RollingUpdateDaemonSet", NULL, "{\"maxUnavailable\": {}}", DS_ETYPE, "maxUnavailable", NULL},
	/* Quantity.UnmarshalJSON: ParseQuantity of the string, or of the number's text */
	{"core.v1.ResourceRequirements", NULL, "{\"limits\": {\"cpu\": \"100m\", \"memory\": 1073741824, \"x\": 0.5}}",
	 0, NULL, NULL},
	{"core.v1.ResourceRequirements", NULL, "{\"limits\": {\"cpu\": \"lots\"}}", DS_EVALUE, "limits.cpu", NULL},
	{"core.v1.ResourceRequirements", NULL, "{\"requests\": {\"cpu\": true}}", DS_ETYPE, "requests.cpu",
	 "got boolean"},
	{"core.v1.ResourceRequirements", NULL, "{\"requests\": {\"cpu\": [\"1\"]}}", DS_ETYPE, "requests.cpu",
	 "got array"},
	/* an UnmarshalJSON error stops the decoder: it beats a type error saved before it */
	{"core.v1.Container", NULL, "{\"name\": 5, \"resources\": {\"limits\": {\"cpu\": \"lots\"}}}", DS_EVALUE,
	 "resources.limits.cpu", NULL},
	{"core.v1.Container", NULL, "{\"resources\": {\"limits\": {\"cpu\": \"1\"}}, \"name\": 5}", DS_ETYPE, "name",
	 NULL},
	/* metav1.Time.UnmarshalJSON: a string, then time.Parse(time.RFC3339, ...) */
	{"meta.v1.ObjectMeta", NULL, "{\"creationTimestamp\": \"2024-05-01T10:00:00+02:00\"}", 0, NULL, NULL},
	{"meta.v1.ObjectMeta", NULL, "{\"creationTimestamp\": 1714550400}", DS_ETYPE, "creationTimestamp",
	 "expected string, got number"},
	{"meta.v1.ObjectMeta", NULL, "{\"creationTimestamp\": \"2024-05-01\"}", DS_EVALUE, "creationTimestamp",
	 "RFC 3339"},
	{"core.v1.Taint", NULL, "{\"key\": \"k\", \"timeAdded\": \"yesterday\"}", DS_EVALUE, "timeAdded", NULL},
	/* []byte: "[]byte encodes as a base64-encoded string" (base64.StdEncoding, padded) */
	{"Secret", NULL, "{\"data\": {\"k\": \"aGVsbG8=\", \"e\": \"\"}}", 0, NULL, NULL},
	{"Secret", NULL, "{\"data\": {\"k\": \"aGVs\\nbG8=\"}}", 0, NULL, NULL}, /* newlines are skipped */
	{"Secret", NULL, "{\"data\": {\"k\": \"aGVsbG8\"}}", DS_EVALUE, "data.k", "illegal base64 data at input byte"},
	{"Secret", NULL, "{\"data\": {\"k\": \"a!==\"}}", DS_EVALUE, "data.k", "at input byte 1"},
	{"Secret", NULL, "{\"data\": {\"k\": 5}}", DS_ETYPE, "data.k", "expected string, got number"},
	/* RawExtension and the like take anything */
	{"ControllerRevision", NULL, "{\"data\": [1, \"x\", {\"y\": null}], \"revision\": 2}", 0, NULL, NULL},
	{"ControllerRevision", NULL, "{\"revision\": \"2\"}", DS_ETYPE, "revision", NULL},
	/* objects of one type whose members come in another order than the one before, or are unknown:
	 * each is checked by its own names */
	{"core.v1.PodSpec", NULL,
	 "{\"containers\": [{\"name\": \"a\", \"image\": \"i\", \"ports\": []}, "
	 "{\"image\": \"j\", \"ports\": 5, \"name\": \"b\"}]}",
	 DS_ETYPE, "containers[1].ports", "expected array, got number"},
	{"core.v1.PodSpec", NULL, "{\"containers\": [{\"name\": \"a\", \"image\": \"i\"}, {\"nam\": 5, \"image\": 7}]}",
	 DS_ETYPE, "containers[1].image", "expected string, got number"},
	{"core.v1.PodSpec", NULL, "{\"containers\": [{\"name\": \"a\"}, {\"names\": 5}, {\"name\": 6}]}", DS_ETYPE,
	 "containers[2].name", NULL},
	/* the kinds of the snapshot */
	{"Node", NULL, "{\"spec\": {\"taints\": [{\"key\": \"k\", \"effect\": \"NoSchedule\", \"value\": 1}]}}",
	 DS_ETYPE, "spec.taints[0].value", NULL},
	{"DaemonSet", NULL, "{\"spec\": {\"updateStrategy\": {\"rollingUpdate\": {\"maxSurge\": false}}}}", DS_ETYPE,
	 "spec.updateStrategy.rollingUpdate.maxSurge", NULL},
	{"PodDisruptionBudget", NULL, "{\"spec\": {\"minAvailable\": \"50%\", \"selector\": {\"matchLabels\": []}}}",
	 DS_ETYPE, "spec.selector.matchLabels", "expected object, got array"},
	{"PriorityClass", NULL, "{\"value\": \"1000\"}", DS_ETYPE, "value", NULL},
};

START_TEST(decode_table)
{
	const decode_row *r = &DECODE[_i];
	json_t *v = parse(r->json);
	ds_error err;
	ds_error_clear(&err);
	int rc = dsi_decode_check(v, ty(r->type, r->path && *r->path ? r->path : NULL), &err);
	ck_assert_msg(rc == r->code, "%s: rc %d (%s at %s), want %d", r->json, rc, err.message, err.path, r->code);
	if (r->code) {
		ck_assert_error(err, r->code, r->err_path);
		if (r->message)
			ck_assert_msg(strstr(err.message, r->message), "%s: message \"%s\", want \"%s\"", r->json,
				      err.message, r->message);
	}
	json_decref(v);
}
END_TEST

/* null elements of slices and values of maps become what Go decodes them into */
START_TEST(decoded_nulls)
{
	json_t *v = parse(
		"{\"containers\": [null, {\"name\": \"c\", \"args\": [\"a\", null]}], \"nodeSelector\": {\"k\": null}, "
		"\"overhead\": {\"cpu\": null}, \"affinity\": null, \"hostNetwork\": null}");
	ck_assert_int_eq(dsi_decode_zero_nulls(v, ty("core.v1.PodSpec", NULL)), 0);
	json_t *want = parse(
		"{\"containers\": [{}, {\"name\": \"c\", \"args\": [\"a\", \"\"]}], \"nodeSelector\": {\"k\": \"\"}, "
		"\"overhead\": {\"cpu\": \"0\"}, \"affinity\": null, \"hostNetwork\": null}");
	ck_assert_msg(json_equal(v, want), "got %s", json_dumps(v, JSON_COMPACT));
	json_decref(v);
	json_decref(want);
}
END_TEST

/* ---- encoding --------------------------------------------------------------------------------- */

typedef struct encode_row {
	const char *type, *in, *out;
} encode_row;

static const encode_row ENCODE[] = {
	/* "The "omitempty" option specifies that the field should be omitted from the encoding if the
	 * field has an empty value, defined as false, 0, a nil pointer, a nil interface value, and any
	 * array, slice, map, or string of length zero." A struct value is never empty. */
	{"core.v1.PreferredSchedulingTerm", "{\"weight\": 1, \"preference\": {\"matchExpressions\": []}}",
	 "{\"weight\": 1, \"preference\": {}}"},
	{"core.v1.PreferredSchedulingTerm", "{\"weight\": 0, \"preference\": {}}",
	 "{\"weight\": 0, \"preference\": {}}"},
	{"core.v1.PodSpec",
	 "{\"hostNetwork\": false, \"hostPID\": true, \"dnsPolicy\": \"\", \"nodeSelector\": {}, \"containers\": []}",
	 "{\"hostPID\": true, \"containers\": []}"},
	/* a pointer is omitted only when nil */
	{"core.v1.PodSpec",
	 "{\"terminationGracePeriodSeconds\": 0, \"automountServiceAccountToken\": false, \"affinity\": {}}",
	 "{\"terminationGracePeriodSeconds\": 0, \"automountServiceAccountToken\": false, \"affinity\": {}}"},
	{"core.v1.PodSpec", "{\"affinity\": null, \"priority\": null, \"tolerations\": null}", "{}"},
	{"core.v1.Affinity",
	 "{\"nodeAffinity\": {\"requiredDuringSchedulingIgnoredDuringExecution\": null, "
	 "\"preferredDuringSchedulingIgnoredDuringExecution\": []}}",
	 "{\"nodeAffinity\": {}}"},
	/* null where Go has a value prints the value; absent fields stay absent */
	{"core.v1.Container", "{\"name\": null, \"image\": null, \"resources\": null}",
	 "{\"name\": \"\", \"resources\": {}}"},
	{"core.v1.Container", "{\"image\": \"i\"}", "{\"image\": \"i\"}"},
	{"core.v1.PodSpec",
	 "{\"containers\": [null], \"tolerations\": [null, {\"key\": \"\", \"operator\": \"Exists\"}]}",
	 "{\"containers\": [{}], \"tolerations\": [{}, {\"operator\": \"Exists\"}]}"},
	{"core.v1.Container", "{\"name\": \"c\", \"args\": [\"a\", null, \"\"]}",
	 "{\"name\": \"c\", \"args\": [\"a\", \"\", \"\"]}"},
	{"meta.v1.ObjectMeta", "{\"labels\": {\"a\": null, \"b\": \"\"}, \"annotations\": {}, \"finalizers\": null}",
	 "{\"labels\": {\"a\": \"\", \"b\": \"\"}}"},
	/* Time: "omitzero ... If the field type has an IsZero() bool method, that will be used";
	 * MarshalJSON writes t.UTC().Format(time.RFC3339) */
	{"meta.v1.ObjectMeta", "{\"name\": \"x\", \"creationTimestamp\": null}", "{\"name\": \"x\"}"},
	{"meta.v1.ObjectMeta", "{\"creationTimestamp\": \"0001-01-01T00:00:00Z\"}", "{}"},
	{"meta.v1.ObjectMeta", "{\"creationTimestamp\": \"2024-05-01T12:30:00.75+02:00\"}",
	 "{\"creationTimestamp\": \"2024-05-01T10:30:00Z\"}"},
	{"core.v1.Taint", "{\"key\": \"k\", \"value\": \"\", \"effect\": \"\", \"timeAdded\": null}",
	 "{\"key\": \"k\", \"effect\": \"\"}"},
	/* Quantity: MarshalJSON writes String(); its zero value is "0" and a struct is never empty */
	{"core.v1.ResourceRequirements",
	 "{\"limits\": {\"cpu\": \"1000m\", \"memory\": \"1024Mi\", \"n\": 0.5, \"x\": null}, \"requests\": {}}",
	 "{\"limits\": {\"cpu\": \"1\", \"memory\": \"1Gi\", \"n\": \"500m\", \"x\": \"0\"}}"},
	{"core.v1.ResourceFieldSelector", "{\"resource\": \"limits.cpu\", \"divisor\": null}",
	 "{\"resource\": \"limits.cpu\", \"divisor\": \"0\"}"},
	{"core.v1.ResourceFieldSelector", "{\"resource\": \"limits.cpu\", \"divisor\": \"1e3\"}",
	 "{\"resource\": \"limits.cpu\", \"divisor\": \"1e3\"}"},
	/* IntOrString: Int 0 is its zero value */
	{"core.v1.HTTPGetAction", "{\"port\": null}", "{\"port\": 0}"},
	{"core.v1.HTTPGetAction", "{\"port\": \"http\", \"host\": \"\"}", "{\"port\": \"http\"}"},
	/* a field the struct does not have is not in what it prints */
	{"core.v1.Toleration",
	 "{\"key\": \"k\", \"operator\": \"Exists\", \"effect\": \"NoSchedule\", \"Key\": \"x\", \"foo\": 1}",
	 "{\"key\": \"k\", \"operator\": \"Exists\", \"effect\": \"NoSchedule\"}"},
	/* RawExtension: as it is; Revision int64 `json:"revision"`: 0 printed */
	{"ControllerRevision", "{\"data\": {\"spec\": {\"x\": []}}, \"revision\": 0}",
	 "{\"data\": {\"spec\": {\"x\": []}}, \"revision\": 0}"},
};

START_TEST(encode_table)
{
	const encode_row *r = &ENCODE[_i];
	json_t *v = parse(r->in), *want = parse(r->out);
	ck_assert_int_eq(dsi_go_encode(v, ty(r->type, NULL)), 0);
	char *got = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	ck_assert_msg(json_equal(v, want), "%s %s: got %s, want %s", r->type, r->in, got, r->out);
	free(got);
	json_decref(v);
	json_decref(want);
}
END_TEST

/* Encoding what Go printed changes nothing more: the printed form is a fixed point. */
START_TEST(encode_is_idempotent)
{
	for (size_t i = 0; i < sizeof(ENCODE) / sizeof(ENCODE[0]); i++) {
		json_t *v = parse(ENCODE[i].out), *again = parse(ENCODE[i].out);
		ck_assert_int_eq(dsi_go_encode(again, ty(ENCODE[i].type, NULL)), 0);
		ck_assert_msg(json_equal(v, again), "%s: %s changed", ENCODE[i].type, ENCODE[i].out);
		json_decref(v);
		json_decref(again);
	}
}
END_TEST

/* ---- through the public functions -------------------------------------------------------------- */

static const char *const DS_HEAD =
	"{\"apiVersion\": \"apps/v1\", \"kind\": \"DaemonSet\", \"metadata\": {\"name\": \"ds\", "
	"\"namespace\": \"default\", \"uid\": \"u\"}, \"spec\": {\"selector\": {\"matchLabels\": "
	"{\"app\": \"d\"}}, \"template\": {\"metadata\": {\"labels\": {\"app\": \"d\"}}, \"spec\": ";

/* A DaemonSet whose template spec is spec. */
static char *daemonset(const char *spec)
{
	size_t n = strlen(DS_HEAD) + strlen(spec) + 8;
	char *s = malloc(n);
	ck_assert_ptr_nonnull(s);
	snprintf(s, n, "%s%s}}}", DS_HEAD, spec);
	return s;
}

static json_t *new_pod_spec(const char *spec)
{
	char *ds = daemonset(spec), *out = NULL;
	ds_error err;
	int rc = ds_daemonset_new_pod(ds, strlen(ds), "n1", "h", NULL, &out, &err);
	ck_assert_msg(rc == 0, "%s: %s at %s", spec, err.message, err.path);
	free(ds);
	json_t *pod = dsi_test_take_json(out);
	json_t *s = json_incref(json_object_get(pod, "spec"));
	json_decref(pod);
	return s;
}

/* Issue 20: a container name 5 is Go's "cannot unmarshal number into Go struct field
 * Container.spec.template.spec.containers.name of type string". */
START_TEST(issue_container_name_number)
{
	char *ds = daemonset("{\"containers\": [{\"name\": 5, \"image\": \"i\"}]}"), *out = NULL;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_new_pod(ds, strlen(ds), "n1", "h", NULL, &out, &err), DS_ETYPE);
	ck_assert_error(err, DS_ETYPE, "spec.template.spec.containers[0].name");
	ck_assert_str_eq(err.message, "expected string, got number");
	ck_assert_str_eq(err.source, "daemonset");
	ck_assert_ptr_null(out);
	free(ds);
}
END_TEST

/* Issue 20: an empty matchExpressions disappears, {"preference": {}} stays. */
START_TEST(issue_preferred_term_printed_as_go)
{
	json_t *spec =
		new_pod_spec("{\"containers\": [{\"name\": \"c\", \"image\": \"i\"}], \"hostNetwork\": false, "
			     "\"terminationGracePeriodSeconds\": 0, \"affinity\": {\"nodeAffinity\": "
			     "{\"preferredDuringSchedulingIgnoredDuringExecution\": [{\"weight\": 1, \"preference\": "
			     "{\"matchExpressions\": []}}, {\"weight\": 2, \"preference\": {}}]}}}");
	json_t *pref = json_object_get(json_object_get(json_object_get(spec, "affinity"), "nodeAffinity"),
				       "preferredDuringSchedulingIgnoredDuringExecution");
	json_t *want = parse("[{\"weight\": 1, \"preference\": {}}, {\"weight\": 2, \"preference\": {}}]");
	ck_assert_msg(json_equal(pref, want), "got %s", json_dumps(pref, JSON_COMPACT));
	ck_assert_ptr_null(json_object_get(spec, "hostNetwork"));
	ck_assert_int_eq(json_integer_value(json_object_get(spec, "terminationGracePeriodSeconds")), 0);
	ck_assert_ptr_nonnull(json_object_get(spec, "terminationGracePeriodSeconds"));
	json_decref(want);
	json_decref(spec);
}
END_TEST

/* One call of each pure function with a document of the given input replaced by text. */
typedef struct call_row {
	const char *fn, *input, *text;
	int code;
	const char *path, *source;
} call_row;

#define POD                                                                                                            \
	"{\"metadata\": {\"name\": \"p\", \"namespace\": \"default\"}, \"spec\": {\"containers\": [{\"name\": "        \
	"\"c\"}]}}"
#define NODE "{\"metadata\": {\"name\": \"n\"}, \"status\": {\"allocatable\": {\"pods\": \"10\"}}}"
#define DS                                                                                                             \
	"{\"apiVersion\": \"apps/v1\", \"kind\": \"DaemonSet\", \"metadata\": {\"name\": \"ds\", \"namespace\": "      \
	"\"default\", \"uid\": \"u\"}, \"spec\": {\"selector\": "                                                      \
	"{\"matchLabels\": {\"a\": \"b\"}}, \"template\": {\"metadata\": {\"labels\": {\"a\": \"b\"}}, \"spec\": "     \
	"{\"containers\": [{\"name\": \"c\"}]}}}}"

static const call_row CALLS[] = {
	/* a wrong type at depth in each input of each function */
	{"tolerates_taint", "toleration", "{\"key\": \"k\", \"tolerationSeconds\": \"300\"}", DS_ETYPE,
	 "tolerationSeconds", "toleration"},
	{"tolerates_taint", "taint", "{\"key\": \"k\", \"effect\": \"NoSchedule\", \"timeAdded\": 5}", DS_ETYPE,
	 "timeAdded", "taint"},
	{"find_untolerated", "taints", "[{\"key\": \"a\", \"effect\": \"NoSchedule\"}, {\"key\": [\"b\"]}]", DS_ETYPE,
	 "[1].key", "taints"},
	{"find_untolerated", "tolerations", "[{\"operator\": \"Exists\", \"tolerationSeconds\": 1.5}]", DS_ETYPE,
	 "[0].tolerationSeconds", "tolerations"},
	{"affinity_match", "pod",
	 "{\"spec\": {\"affinity\": {\"nodeAffinity\": {\"requiredDuringSchedulingIgnoredDuringExecution\": "
	 "{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"k\", \"operator\": \"In\", \"values\": "
	 "[1]}]}]}}}}}",
	 DS_ETYPE,
	 "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]."
	 "matchExpressions[0]."
	 "values[0]",
	 "pod"},
	{"affinity_match", "pod", "{\"nodeSelector\": {\"k\": true}}", DS_ETYPE, "nodeSelector.k",
	 "pod"}, /* a PodSpec */
	{"affinity_match", "pod", "{\"metadata\": {\"labels\": 1}, \"spec\": {}}", DS_ETYPE, "metadata.labels", "pod"},
	{"affinity_match", "node", "{\"metadata\": {\"name\": \"n\", \"labels\": {\"a\": 1}}}", DS_ETYPE,
	 "metadata.labels.a", "node"},
	{"should_run", "daemonset",
	 "{\"metadata\": {\"name\": \"ds\"}, \"spec\": {\"template\": {\"spec\": {\"tolerations\": [{\"key\": 1}]}}}}",
	 DS_ETYPE, "spec.template.spec.tolerations[0].key", "daemonset"},
	{"should_run", "node", "{\"metadata\": {\"name\": \"n\"}, \"spec\": {\"unschedulable\": \"yes\"}}", DS_ETYPE,
	 "spec.unschedulable", "node"},
	{"new_pod", "daemonset",
	 "{\"metadata\": {\"name\": \"ds\"}, \"spec\": {\"template\": {\"metadata\": {\"labels\": {\"a\": \"b\"}}, "
	 "\"spec\": {\"containers\": [{\"name\": \"c\", \"resources\": {\"limits\": {\"cpu\": \"lots\"}}}]}}}}",
	 DS_EVALUE, "spec.template.spec.containers[0].resources.limits.cpu", "daemonset"},
	{"new_pod", "daemonset", "{\"kind\": 5, \"metadata\": {\"name\": \"ds\"}}", DS_ETYPE, "kind", "daemonset"},
	{"add_tolerations", "podspec", "{\"hostNetwork\": 1}", DS_ETYPE, "hostNetwork", "podspec"},
	{"add_tolerations", "podspec", "{\"spec\": {\"containers\": [{\"ports\": [{\"hostPort\": 1e9}]}]}}", DS_ETYPE,
	 "spec.containers[0].ports[0].hostPort", "podspec"},
	{"replace_node_name", "affinity",
	 "{\"podAntiAffinity\": {\"requiredDuringSchedulingIgnoredDuringExecution\": {}}}", DS_ETYPE,
	 "podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution", "affinity"},
	{"rolling_update", "daemonset",
	 "{\"metadata\": {\"name\": \"ds\"}, \"spec\": {\"updateStrategy\": {\"rollingUpdate\": {\"maxUnavailable\": "
	 "1.5}}}}",
	 DS_ETYPE, "spec.updateStrategy.rollingUpdate.maxUnavailable", "daemonset"},
	{"rolling_update", "objects",
	 "[" NODE ", {\"kind\": \"Node\", \"metadata\": {\"name\": \"m\", \"generation\": \"1\"}}]", DS_ETYPE,
	 "[1].metadata.generation", "objects"},
	{"rolling_update", "objects",
	 "{\"kind\": \"List\", \"items\": [{\"metadata\": {\"name\": \"p\"}, \"status\": {\"startTime\": \"today\"}}]}",
	 DS_EVALUE, "items[0].status.startTime", "objects"},
	{"scheduler_filter", "pod",
	 "{\"spec\": {\"containers\": [{\"name\": \"c\", \"resources\": {\"requests\": "
	 "{\"cpu\": {}}}}]}}",
	 DS_ETYPE, "spec.containers[0].resources.requests.cpu", "pod"},
	{"scheduler_filter", "node",
	 "{\"metadata\": {\"name\": \"n\"}, \"status\": {\"allocatable\": {\"pods\": false}}}", DS_ETYPE,
	 "status.allocatable.pods", "node"},
	{"scheduler_filter", "objects", "[{\"metadata\": {\"name\": \"q\"}, \"spec\": {\"priority\": \"high\"}}]",
	 DS_ETYPE, "[0].spec.priority", "objects"},
	{"select_victims", "objects",
	 "[{\"apiVersion\": \"policy/v1\", \"kind\": \"PodDisruptionBudget\", \"metadata\": {\"name\": \"b\"}, "
	 "\"spec\": {\"maxUnavailable\": [1]}}]",
	 DS_ETYPE, "[0].spec.maxUnavailable", "objects"},
	{"select_victims", "objects",
	 "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: pc-x}\nvalue: 1000\n---\n"
	 "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: pc-y}\nvalue: 1.5\n",
	 DS_ETYPE, "value", "objects, document 2"},
	/* sigs.k8s.io/yaml reads YAML 1.1: an unquoted y is true, then no string */
	{"select_victims", "objects",
	 "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: y}\nvalue: 1\n", DS_ETYPE,
	 "metadata.name", "objects"},
	/* null where Go takes it: an answer */
	{"tolerates_taint", "toleration", "{\"key\": null, \"operator\": null, \"tolerationSeconds\": null}", 0, NULL,
	 NULL},
	{"find_untolerated", "taints", "[null, {\"key\": null, \"effect\": \"NoSchedule\"}]", 0, NULL, NULL},
	{"affinity_match", "node", "{\"metadata\": {\"name\": null, \"labels\": {\"a\": null}}, \"spec\": null}", 0,
	 NULL, NULL},
	{"new_pod", "daemonset",
	 "{\"metadata\": {\"name\": \"ds\"}, \"spec\": {\"template\": {\"metadata\": {\"labels\": {\"a\": \"b\"}}, "
	 "\"spec\": {\"containers\": [null], \"tolerations\": [null], \"affinity\": null}}}}",
	 0, NULL, NULL},
	{"scheduler_filter", "objects", "[{\"metadata\": {\"name\": \"q\"}, \"spec\": {\"containers\": [null]}}]", 0,
	 NULL, NULL},
	/* IntOrString and Quantity in both forms */
	{"rolling_update", "daemonset",
	 "{\"metadata\": {\"name\": \"ds\"}, \"spec\": {\"updateStrategy\": {\"rollingUpdate\": {\"maxUnavailable\": "
	 "\"50%\", "
	 "\"maxSurge\": 0}}}}",
	 0, NULL, NULL},
	{"scheduler_filter", "pod",
	 "{\"spec\": {\"containers\": [{\"name\": \"c\", \"resources\": {\"requests\": "
	 "{\"cpu\": 0.5, \"memory\": \"1Gi\"}}}]}}",
	 0, NULL, NULL},
};

/* The call of row r: the named input replaced by r->text, the others valid. */
static int run_call(const call_row *r, ds_error *err)
{
	const char *pod = POD, *node = NODE, *ds = DS, *objects = "[]";
	const char *tol = "{\"operator\": \"Exists\"}", *taint = "{\"key\": \"k\", \"effect\": \"NoSchedule\"}";
	const char *taints = "[]", *tols = "[]", *aff = "null";
#define IN(name, var)                                                                                                  \
	if (strcmp(r->input, name) == 0)                                                                               \
	var = r->text
	IN("pod", pod);
	IN("node", node);
	IN("daemonset", ds);
	IN("objects", objects);
	IN("toleration", tol);
	IN("taint", taint);
	IN("taints", taints);
	IN("tolerations", tols);
	IN("affinity", aff);
	IN("podspec", pod);
#undef IN
	char *out = NULL;
	int v = 0, rc;
	if (strcmp(r->fn, "tolerates_taint") == 0)
		rc = ds_toleration_tolerates_taint(tol, strlen(tol), taint, strlen(taint), NULL, &v, err);
	else if (strcmp(r->fn, "find_untolerated") == 0)
		rc = ds_taints_find_untolerated2(taints, strlen(taints), tols, strlen(tols), NULL, NULL, &v, &out, err);
	else if (strcmp(r->fn, "affinity_match") == 0)
		rc = ds_pod_required_node_affinity_match2(pod, strlen(pod), node, strlen(node), NULL, &v, err);
	else if (strcmp(r->fn, "should_run") == 0)
		rc = ds_daemonset_node_should_run(ds, strlen(ds), node, strlen(node), NULL, &v, NULL, &out, err);
	else if (strcmp(r->fn, "new_pod") == 0)
		rc = ds_daemonset_new_pod(ds, strlen(ds), "n", "h", NULL, &out, err);
	else if (strcmp(r->fn, "add_tolerations") == 0)
		rc = ds_podspec_add_daemon_tolerations2(pod, strlen(pod), NULL, &out, err);
	else if (strcmp(r->fn, "replace_node_name") == 0)
		rc = ds_affinity_replace_node_name2(aff, strlen(aff), "n", NULL, &out, err);
	else if (strcmp(r->fn, "rolling_update") == 0)
		rc = ds_daemonset_rolling_update(ds, strlen(ds), objects, strlen(objects), "h", 0, NULL, &out, err);
	else if (strcmp(r->fn, "scheduler_filter") == 0)
		rc = ds_scheduler_filter(pod, strlen(pod), node, strlen(node), objects, strlen(objects), NULL, &out,
					 err);
	else
		rc = ds_preemption_select_victims(pod, strlen(pod), node, strlen(node), objects, strlen(objects), NULL,
						  &out, err);
	ck_assert_msg(rc == 0 || out == NULL, "an output with an error");
	ds_free(out);
	return rc;
}

START_TEST(public_functions_table)
{
	const call_row *r = &CALLS[_i];
	ds_error err;
	int rc = run_call(r, &err);
	ck_assert_msg(rc == r->code, "%s %s %s: rc %d (%s at \"%s\", source %s), want %d", r->fn, r->input, r->text, rc,
		      err.message, err.path, err.source, r->code);
	if (r->code) {
		ck_assert_error(err, r->code, r->path);
		ck_assert_str_eq(err.source, r->source);
	}
}
END_TEST

/* ds_daemonset_pod returns the same Go object from a snapshot: printed the same way. */
START_TEST(snapshot_pod_printed_as_go)
{
	ds_cluster *c = dsi_test_cluster_text(
		"{\"apiVersion\": \"apps/v1\", \"kind\": \"DaemonSet\", \"metadata\": {\"name\": \"ds\", "
		"\"namespace\": \"default\", \"uid\": \"u\"}, \"spec\": {\"selector\": {\"matchLabels\": {\"a\": "
		"\"b\"}}, "
		"\"template\": {\"metadata\": {\"labels\": {\"a\": \"b\"}, \"creationTimestamp\": null}, \"spec\": "
		"{\"hostNetwork\": false, \"containers\": [{\"name\": \"c\", \"image\": \"i\"}], \"affinity\": "
		"{\"nodeAffinity\": {\"preferredDuringSchedulingIgnoredDuringExecution\": [{\"weight\": 1, "
		"\"preference\": {\"matchExpressions\": []}}]}}}}}}");
	char *out = NULL;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_pod(c, "default", "ds", "node-1", NULL, &out, &err), 0);
	json_t *pod = dsi_test_take_json(out), *spec = json_object_get(pod, "spec");
	ck_assert_ptr_null(json_object_get(spec, "hostNetwork"));
	json_t *pref = json_object_get(json_object_get(json_object_get(spec, "affinity"), "nodeAffinity"),
				       "preferredDuringSchedulingIgnoredDuringExecution");
	json_t *want = parse("[{\"weight\": 1, \"preference\": {}}]");
	ck_assert_msg(json_equal(pref, want), "got %s", json_dumps(pref, JSON_COMPACT));
	json_decref(want);
	json_decref(pod);
	ds_cluster_free(c);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gotypes");
	TCase *tc = tcase_create("facts");
	tcase_add_test(tc, go_facts_of_fields);
	suite_add_tcase(s, tc);
	tc = tcase_create("decode");
	tcase_add_loop_test(tc, decode_table, 0, (int)(sizeof(DECODE) / sizeof(DECODE[0])));
	tcase_add_test(tc, decoded_nulls);
	suite_add_tcase(s, tc);
	tc = tcase_create("encode");
	tcase_add_loop_test(tc, encode_table, 0, (int)(sizeof(ENCODE) / sizeof(ENCODE[0])));
	tcase_add_test(tc, encode_is_idempotent);
	suite_add_tcase(s, tc);
	tc = tcase_create("public");
	tcase_add_test(tc, issue_container_name_number);
	tcase_add_test(tc, issue_preferred_term_printed_as_go);
	tcase_add_loop_test(tc, public_functions_table, 0, (int)(sizeof(CALLS) / sizeof(CALLS[0])));
	tcase_add_test(tc, snapshot_pod_printed_as_go);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(suite)
