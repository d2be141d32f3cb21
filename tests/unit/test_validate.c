/* DaemonSet validation: upstream's table (validation_daemonset.json), every rule with its exact field, type and
 * detail, the API server's preparation (defaults, registry), updates, status, and bad input. */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/atoms.h"
#include "apiserver/validation.h"
#include "harness.h"

#define VECTORS "tests/vectors/upstream/validation_daemonset.json"

/* ---- helpers ------------------------------------------------------------------------------- */

static json_t *validate_text(const char *text, unsigned flags)
{
	char *out = NULL;
	ds_error err;
	int rc = ds_daemonset_validate(text, strlen(text), flags, NULL, &out, &err);
	ck_assert_msg(rc == 0, "ds_daemonset_validate: %s: %s: %s", ds_strerror(rc), err.path, err.message);
	return dsi_test_take_json(out);
}

static json_t *validate_obj(const json_t *obj, unsigned flags)
{
	char *text = json_dumps(obj, JSON_COMPACT);
	json_t *r = validate_text(text, flags);
	free(text);
	return r;
}

static json_t *update_obj(const json_t *obj, const json_t *old, unsigned flags)
{
	char *a = json_dumps(obj, JSON_COMPACT), *b = json_dumps(old, JSON_COMPACT), *out = NULL;
	ds_error err;
	int rc = ds_daemonset_validate_update(a, strlen(a), b, strlen(b), flags, NULL, &out, &err);
	ck_assert_msg(rc == 0, "ds_daemonset_validate_update: %s: %s: %s", ds_strerror(rc), err.path, err.message);
	free(a);
	free(b);
	return dsi_test_take_json(out);
}

/* A DaemonSet the API server accepts as is (after defaulting). */
static json_t *base(void)
{
	json_error_t je;
	json_t *v =
		json_loads("{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\","
			   "\"metadata\":{\"name\":\"agent\",\"namespace\":\"kube-system\",\"resourceVersion\":\"7\"},"
			   "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"agent\"}},"
			   "\"template\":{\"metadata\":{\"labels\":{\"app\":\"agent\"}},"
			   "\"spec\":{\"containers\":[{\"name\":\"agent\",\"image\":\"agent:1.0\"}]}}}}",
			   0, &je);
	ck_assert_msg(v != NULL, "%s", je.text);
	return v;
}

static json_t *with(json_t *obj, const char *path, const char *value);

/* base() with what the API server would default written out: valid as is too. */
static json_t *full(void)
{
	json_t *v = base();
	with(v, "spec.template.spec.containers[0].imagePullPolicy", "\"IfNotPresent\"");
	with(v, "spec.template.spec.containers[0].terminationMessagePolicy", "\"File\"");
	with(v, "spec.template.spec.restartPolicy", "\"Always\"");
	with(v, "spec.template.spec.dnsPolicy", "\"ClusterFirst\"");
	with(v, "spec.template.spec.terminationGracePeriodSeconds", "30");
	with(v, "spec.updateStrategy", "{\"type\":\"OnDelete\"}");
	return v;
}

/* Set (or, for value NULL, delete) the member at a path such as "spec.template.spec.containers[0].ports". */
static json_t *with(json_t *obj, const char *path, const char *value)
{
	json_t *cur = obj;
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", path);
	char *p = buf;
	for (;;) {
		char *dot = strpbrk(p, ".[");
		char key[128];
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		memcpy(key, p, n);
		key[n] = '\0';
		if (!dot) {
			if (!value) {
				json_object_del(cur, key);
			} else {
				json_error_t je;
				json_t *v = json_loads(value, JSON_DECODE_ANY, &je);
				ck_assert_msg(v != NULL, "bad value %s: %s", value, je.text);
				json_object_set_new(cur, key, v);
			}
			return obj;
		}
		json_t *next = n ? json_object_get(cur, key) : cur;
		if (n && !next) {
			next = json_object();
			json_object_set_new(cur, key, next);
		}
		if (*dot == '[') {
			size_t i = strtoul(dot + 1, &dot, 10);
			next = json_array_get(next, i);
			ck_assert_ptr_nonnull(next);
			dot++; /* ']' */
			if (!*dot) {
				ck_abort_msg("path ends with an index");
			}
			if (*dot == '.')
				dot++;
			cur = next;
			p = dot;
			continue;
		}
		cur = next;
		p = dot + 1;
	}
}

typedef struct want {
	const char *field, *type, *detail, *message; /* message NULL: not compared */
} want;

static void dump(const json_t *errs, char *buf, size_t size)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < json_array_size(errs) && off < size; i++)
		off += (size_t)snprintf(buf + off, size - off, "\n  %s",
					json_string_value(json_object_get(json_array_get(errs, i), "message")));
}

static void expect(json_t *res, const want *w, size_t n, int line)
{
	json_t *errs = json_object_get(res, "errors");
	char got[8192];
	dump(errs, got, sizeof(got));
	ck_assert_msg(json_array_size(errs) == n, "line %d: %zu errors, want %zu:%s", line, json_array_size(errs), n,
		      got);
	ck_assert_msg(json_is_true(json_object_get(res, "valid")) == (n == 0), "line %d: valid flag wrong:%s", line,
		      got);
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(errs, i);
		ck_assert_str_eq(json_string_value(json_object_get(e, "field")), w[i].field);
		ck_assert_str_eq(json_string_value(json_object_get(e, "type")), w[i].type);
		ck_assert_str_eq(json_string_value(json_object_get(e, "detail")), w[i].detail);
		if (w[i].message)
			ck_assert_str_eq(json_string_value(json_object_get(e, "message")), w[i].message);
	}
	if (!n)
		ck_assert(json_is_null(json_object_get(res, "message")));
	json_decref(res);
}

#define EXPECT(res, ...)                                                                                               \
	do {                                                                                                           \
		static const want w_[] = {__VA_ARGS__};                                                                \
		expect((res), w_, sizeof(w_) / sizeof(w_[0]), __LINE__);                                               \
	} while (0)
#define EXPECT_VALID(res) expect((res), NULL, 0, __LINE__)

/* Validate base() with one change, on the API server's path. */
static json_t *changed(const char *path, const char *value)
{
	json_t *ds = with(base(), path, value);
	json_t *r = validate_obj(ds, 0);
	json_decref(ds);
	return r;
}

#define SUBDOMAIN_MSG                                                                                                  \
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "     \
	"start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "              \
	"'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
#define DNS_LABEL_MSG                                                                                                  \
	"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "    \
	"end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "             \
	"'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
#define NAME_PART_MSG                                                                                                  \
	"name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "          \
	"alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "           \
	"'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
#define LABEL_VALUE_MSG                                                                                                \
	"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "      \
	"start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "   \
	"validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
#define PERCENT_MSG                                                                                                    \
	"a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex "      \
	"used for validation is '[0-9]+%')"
#define STRATEGY_TYPES "supported values: \"RollingUpdate\", \"OnDelete\""

/* ---- upstream's table ------------------------------------------------------------------------- */

/* Every error's field must start with one of the prefixes or equal one of the exact paths. */
static void check_fields(const json_t *res, const json_t *expect_, const char *name)
{
	json_t *prefixes = json_object_get(expect_, "errorFieldPrefixes"),
	       *exact = json_object_get(expect_, "errorFieldsExact");
	json_t *errs = json_object_get(res, "errors");
	for (size_t i = 0; i < json_array_size(errs); i++) {
		const char *f = json_string_value(json_object_get(json_array_get(errs, i), "field"));
		int ok = 0;
		for (size_t j = 0; j < json_array_size(prefixes); j++) {
			const char *p = json_string_value(json_array_get(prefixes, j));
			ok |= strncmp(f, p, strlen(p)) == 0;
		}
		for (size_t j = 0; j < json_array_size(exact); j++)
			ok |= strcmp(f, json_string_value(json_array_get(exact, j))) == 0;
		ck_assert_msg(ok, "%s: error field %s is not among the allowed ones", name, f);
	}
}

/* What upstream's logic gives for the table's error rows (derived from validation.go; the
 * table itself only restricts the fields). */
static const struct derived {
	const char *name;
	const char *fields[8]; /* "field|type|detail" */
} derived[] = {
	{"ValidateDaemonSet error: zero-length ID",
	 {"metadata.name|Required|name or generateName is required",
	  "spec.updateStrategy|NotSupported|" STRATEGY_TYPES}},
	{"ValidateDaemonSet error: missing-namespace",
	 {"metadata.namespace|Required|", "spec.updateStrategy|NotSupported|" STRATEGY_TYPES}},
	{"ValidateDaemonSet error: nil selector",
	 {"spec.template.metadata.labels|Invalid|`selector` does not match template `labels`",
	  "spec.updateStrategy|NotSupported|" STRATEGY_TYPES}},
	{"ValidateDaemonSet error: empty selector",
	 {"spec.selector|Invalid|empty selector is invalid for daemonset",
	  "spec.updateStrategy|NotSupported|" STRATEGY_TYPES}},
	{"ValidateDaemonSet error: invalid template",
	 {"spec.template.metadata.labels|Invalid|`selector` does not match template `labels`",
	  "spec.template.spec.terminationGracePeriodSeconds|Required|", "spec.template.spec.containers|Required|",
	  "spec.template.spec.restartPolicy|Required|", "spec.template.spec.dnsPolicy|Required|",
	  "spec.template.spec.restartPolicy|NotSupported|supported values: \"Always\"",
	  "spec.updateStrategy|NotSupported|" STRATEGY_TYPES}},
	{"ValidateDaemonSet error: invalid_annotation",
	 {"metadata.annotations|Invalid|" NAME_PART_MSG, "spec.updateStrategy|NotSupported|" STRATEGY_TYPES}},
	{"ValidateDaemonSet error: invalid restart policy 1",
	 {"spec.template.metadata.labels|Invalid|`selector` does not match template `labels`",
	  "spec.template.spec.restartPolicy|NotSupported|supported values: \"Always\"",
	  "spec.updateStrategy|NotSupported|" STRATEGY_TYPES}},
	{"ValidateDaemonSet error: template may not contain ephemeral containers",
	 {"spec.template.spec.ephemeralContainers|Forbidden|ephemeral containers not allowed in pod template"}},
	{"ValidateDaemonSetUpdate: change daemon name", {"metadata.name|Invalid|field is immutable"}},
	{"ValidateDaemonSetUpdate: invalid selector", {"spec.selector.matchLabels|Invalid|" NAME_PART_MSG}},
	{"ValidateDaemonSetUpdate: invalid pod", {"spec.template.spec.containers|Required|"}},
	{"ValidateDaemonSetUpdate: invalid update strategy", {"spec.updateStrategy|NotSupported|" STRATEGY_TYPES}},
	{"ValidateDaemonSetUpdate: negative templateGeneration",
	 {"spec.templateGeneration|Invalid|must be greater than or equal to 0"}},
	{"ValidateDaemonSetUpdate: decreased templateGeneration",
	 {"spec.templateGeneration|Invalid|must not be decremented"}},
	{"ValidateDaemonSetUpdate: unchanged templateGeneration upon template update",
	 {"spec.templateGeneration|Invalid|must be incremented upon template update"}},
	{"ValidateDaemonSetStatusUpdate error: negative NumberReady",
	 {"status.numberReady|Invalid|must be greater than or equal to 0"}},
};

static void check_derived(const char *name, const json_t *res)
{
	for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]); i++) {
		if (strcmp(derived[i].name, name) != 0)
			continue;
		json_t *errs = json_object_get(res, "errors");
		size_t n = 0;
		while (n < 8 && derived[i].fields[n])
			n++;
		char got[8192];
		dump(errs, got, sizeof(got));
		ck_assert_msg(json_array_size(errs) == n, "%s: %zu errors, want %zu:%s", name, json_array_size(errs), n,
			      got);
		for (size_t j = 0; j < n; j++) {
			char buf[1024];
			json_t *e = json_array_get(errs, j);
			snprintf(buf, sizeof(buf), "%s|%s|%s", json_string_value(json_object_get(e, "field")),
				 json_string_value(json_object_get(e, "type")),
				 json_string_value(json_object_get(e, "detail")));
			ck_assert_msg(strcmp(buf, derived[i].fields[j]) == 0, "%s: error %zu is %s, want %s", name, j,
				      buf, derived[i].fields[j]);
		}
	}
}

START_TEST(upstream_table)
{
	json_t *doc = dsi_test_load_json(VECTORS);
	json_t *cases = json_object_get(doc, "cases");
	size_t run = 0, rolling = 0;
	for (size_t i = 0; i < json_array_size(cases); i++) {
		json_t *c = json_array_get(cases, i), *exp = json_object_get(c, "expect");
		const char *fn = json_string_value(json_object_get(c, "function"));
		const char *name = json_string_value(json_object_get(c, "name"));
		json_t *res = NULL;
		if (!strcmp(fn, "ValidateDaemonSet")) {
			res = validate_obj(json_object_get(c, "daemonset"), DS_VALIDATE_AS_IS);
		} else if (!strcmp(fn, "ValidateDaemonSetUpdate")) {
			res = update_obj(json_object_get(c, "daemonset"), json_object_get(c, "oldDaemonSet"),
					 DS_VALIDATE_AS_IS);
		} else if (!strcmp(fn, "ValidateDaemonSetStatusUpdate")) {
			res = update_obj(json_object_get(c, "daemonset"), json_object_get(c, "oldDaemonSet"),
					 DS_VALIDATE_AS_IS | DS_VALIDATE_STATUS);
		} else if (!strcmp(fn, "ValidateRollingUpdateDaemonSet")) {
			dsi_field_errors errs;
			memset(&errs, 0, sizeof(errs));
			dsi_atoms atoms;
			dsi_atoms_init(&atoms);
			ds_error err;
			dsi_vctx vc;
			dsi_vctx_init(&vc, &errs, &atoms, 0, &err);
			dsi_strbuf_puts(&vc.fp, json_string_value(json_object_get(c, "path")));
			ck_assert_int_eq(dsi_validate_rolling_update(&vc, json_object_get(c, "rollingUpdate")), 0);
			ck_assert_msg((errs.n == 0) == json_is_true(json_object_get(exp, "valid")), "%s: %zu errors",
				      name, errs.n);
			for (size_t j = 0; j < errs.n; j++)
				ck_assert_msg(strncmp(errs.v[j].field, "spec.updateStrategy.rollingUpdate.", 34) == 0,
					      "%s: %s", name, errs.v[j].field);
			dsi_vctx_release(&vc);
			dsi_field_errors_free(&errs);
			dsi_atoms_free(&atoms);
			rolling++;
			run++;
			continue;
		} else {
			continue; /* SetDefaults_DaemonSet: test_defaults.c */
		}
		run++;
		char got[8192];
		dump(json_object_get(res, "errors"), got, sizeof(got));
		ck_assert_msg(json_is_true(json_object_get(res, "valid")) ==
				      json_is_true(json_object_get(exp, "valid")),
			      "%s: valid is %d:%s", name, json_is_true(json_object_get(res, "valid")), got);
		json_t *count = json_object_get(exp, "errorCount");
		if (count)
			ck_assert_msg(
				json_array_size(json_object_get(res, "errors")) == (size_t)json_integer_value(count),
				"%s: %zu errors, want %lld:%s", name, json_array_size(json_object_get(res, "errors")),
				(long long)json_integer_value(count), got);
		if (json_object_get(exp, "errorFieldPrefixes"))
			check_fields(res, exp, name);
		check_derived(name, res);
		/* the aggregate names the object and lists every message */
		if (!json_is_true(json_object_get(res, "valid")))
			ck_assert(strncmp(json_string_value(json_object_get(res, "message")), "DaemonSet.apps \"",
					  16) == 0);
		json_decref(res);
	}
	ck_assert_uint_eq(run, 63);
	ck_assert_uint_eq(rolling, 24);
	json_decref(doc);
}
END_TEST

/* ---- the rules, one by one --------------------------------------------------------------------- */

START_TEST(valid_and_messages)
{
	json_t *r = changed("metadata.labels", "{\"tier\":\"node\"}");
	EXPECT_VALID(r);
	/* one error: no brackets in the aggregate */
	r = changed("metadata.name", "\"Bad_Name\"");
	ck_assert_str_eq(
		json_string_value(json_object_get(r, "message")),
		"DaemonSet.apps \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": " SUBDOMAIN_MSG);
	json_t *e = json_array_get(json_object_get(r, "errors"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(e, "reason")), "FieldValueInvalid");
	ck_assert_str_eq(json_string_value(json_object_get(e, "value")), "Bad_Name");
	EXPECT(r, {"metadata.name", "Invalid", SUBDOMAIN_MSG, NULL});
	/* several: brackets, ", "-joined, repeated messages once (subPath errors share the list's path) */
	r = changed("spec.template.spec.containers[0].volumeMounts",
		    "[{\"name\":\"v\",\"mountPath\":\"/a\",\"subPath\":\"../x\"},{\"name\":\"v\",\"mountPath\":\"/"
		    "b\",\"subPath\":\"../x\"}]");
	const char *msg = json_string_value(json_object_get(r, "message"));
	ck_assert_str_eq(
		msg, "DaemonSet.apps \"agent\" is invalid: [spec.template.spec.containers[0].volumeMounts[0].name: Not "
		     "found: "
		     "\"v\", spec.template.spec.containers[0].volumeMounts.subPath: Invalid value: \"../x\": must not "
		     "contain '..', spec.template.spec.containers[0].volumeMounts[1].name: Not found: \"v\"]");
	EXPECT(r, {"spec.template.spec.containers[0].volumeMounts[0].name", "NotFound", "", NULL},
	       {"spec.template.spec.containers[0].volumeMounts.subPath", "Invalid", "must not contain '..'", NULL},
	       {"spec.template.spec.containers[0].volumeMounts[1].name", "NotFound", "", NULL},
	       {"spec.template.spec.containers[0].volumeMounts.subPath", "Invalid", "must not contain '..'", NULL});
}
END_TEST

START_TEST(object_meta)
{
	EXPECT(changed("metadata.name", NULL), {"metadata.name", "Required", "name or generateName is required",
						"metadata.name: Required value: name or generateName is required"});
	/* the server generates a name from generateName (five placeholder characters here) */
	json_t *ds = with(with(base(), "metadata.name", NULL), "metadata.generateName", "\"agent-\"");
	EXPECT_VALID(validate_obj(ds, 0));
	json_decref(ds);
	/* as is: the generateName is checked with its trailing dash masked, the name is required */
	ds = with(with(full(), "metadata.name", NULL), "metadata.generateName", "\"agent-\"");
	EXPECT(validate_obj(ds, DS_VALIDATE_AS_IS),
	       {"metadata.name", "Required", "name or generateName is required", NULL});
	json_decref(ds);
	EXPECT(changed("metadata.generateName", "\"Gen\""), {"metadata.generateName", "Invalid", SUBDOMAIN_MSG, NULL});
	/* a request without namespace gets the request's ("default"); as is it is required */
	EXPECT_VALID(changed("metadata.namespace", NULL));
	ds = with(full(), "metadata.namespace", NULL);
	EXPECT(validate_obj(ds, DS_VALIDATE_AS_IS),
	       {"metadata.namespace", "Required", "", "metadata.namespace: Required value"});
	json_decref(ds);
	EXPECT(changed("metadata.namespace", "\"kube.system\""),
	       {"metadata.namespace", "Invalid", "must not contain dots",
		"metadata.namespace: Invalid value: \"kube.system\": must not contain dots"});
	EXPECT(changed("metadata.labels",
		       "{\"ok\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}"),
	       {"metadata.labels", "Invalid", "must be no more than 63 bytes", NULL});
	/* annotation keys are checked lowercased; their total size is limited */
	EXPECT_VALID(changed("metadata.annotations", "{\"Example.COM/Key\":\"x\"}"));
	size_t big = 256 * 1024;
	char *huge = malloc(big + 32);
	memcpy(huge, "{\"k\":\"", 6);
	memset(huge + 6, 'x', big);
	memcpy(huge + 6 + big, "\"}", 3);
	EXPECT(changed("metadata.annotations", huge),
	       {"metadata.annotations", "TooLong", "may not be more than 262144 bytes",
		"metadata.annotations: Too long: may not be more than 262144 bytes"});
	free(huge);
	EXPECT(changed("metadata.finalizers", "[\"orphan\",\"foregroundDeletion\",\"cleanup\",\"bad/\"]"),
	       {"metadata.finalizers", "Invalid", "name part must be non-empty", NULL},
	       {"metadata.finalizers", "Invalid", NAME_PART_MSG, NULL},
	       {"metadata.finalizers", "Invalid", "finalizer orphan and foregroundDeletion cannot be both set",
		"metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\",\"cleanup\",\"bad/\"]: "
		"finalizer orphan and "
		"foregroundDeletion cannot be both set"},
	       {"metadata.finalizers[2]", "Invalid",
		"name is neither a standard finalizer name nor is it fully qualified", NULL});
	EXPECT(changed("metadata.ownerReferences",
		       "[{\"apiVersion\":\"apps/v1/x\",\"kind\":\"\",\"name\":\"a\",\"uid\":\"1\",\"controller\":true},"
		       "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"b\",\"uid\":\"\",\"controller\":true}]"),
	       {"metadata.ownerReferences[0].apiVersion", "Invalid", "must be <group>/<version> or <version>", NULL},
	       {"metadata.ownerReferences[0].kind", "Required", "must not be empty", NULL},
	       {"metadata.ownerReferences[1].uid", "Required", "must not be empty", NULL},
	       {"metadata.ownerReferences[1]", "Invalid", "/v1, Kind=Event is disallowed from being an owner",
		"metadata.ownerReferences[1]: Invalid value: "
		"{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"b\",\"uid\":\"\","
		"\"controller\":true}: /v1, Kind=Event is disallowed from being an owner"},
	       {"metadata.ownerReferences", "Invalid",
		"Only one reference can have Controller set to true. Found \"true\" in references for /a and Event/b",
		NULL});
	/* the server sets generation 1 on create; as is, a negative one is refused */
	EXPECT_VALID(changed("metadata.generation", "-2"));
	ds = with(full(), "metadata.generation", "-2");
	EXPECT(validate_obj(ds, DS_VALIDATE_AS_IS),
	       {"metadata.generation", "Invalid", "must be greater than or equal to 0", NULL});
	json_decref(ds);
}
END_TEST

START_TEST(selector_rules)
{
	EXPECT(changed("spec.selector", NULL),
	       {"spec.template.metadata.labels", "Invalid", "`selector` does not match template `labels`",
		"spec.template.metadata.labels: Invalid value: {\"app\":\"agent\"}: `selector` does not match template "
		"`labels`"});
	EXPECT(changed("spec.selector", "{\"matchLabels\":{}}"),
	       {"spec.selector", "Invalid", "empty selector is invalid for daemonset",
		"spec.selector: Invalid value: {}: empty selector is invalid for daemonset"});
	EXPECT(changed("spec.selector", "{\"matchLabels\":{\"app\":\"other\"}}"),
	       {"spec.template.metadata.labels", "Invalid", "`selector` does not match template `labels`", NULL});
	/* a selector that does not convert is reported once, without the template check */
	EXPECT(changed("spec.selector", "{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\"},{\"key\":\"x\","
					"\"operator\":\"Near\",\"values\":[\"a\"]},"
					"{\"key\":\"y\",\"operator\":\"Exists\",\"values\":[\"b c\"]}]}"),
	       {"spec.selector.matchExpressions[0].values", "Required",
		"must be specified when `operator` is 'In' or 'NotIn'", NULL},
	       {"spec.selector.matchExpressions[1].operator", "Invalid", "not a valid selector operator",
		"spec.selector.matchExpressions[1].operator: Invalid value: \"Near\": not a valid selector operator"},
	       {"spec.selector.matchExpressions[2].values", "Forbidden",
		"may not be specified when `operator` is 'Exists' or 'DoesNotExist'", NULL},
	       {"spec.selector.matchExpressions[2].values[0]", "Invalid", LABEL_VALUE_MSG, NULL});
	EXPECT_VALID(changed(
		"spec.selector",
		"{\"matchLabels\":{\"app\":\"agent\"},\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"NotIn\","
		"\"values\":[\"web\"]}]}"));
	/* template labels: checked as labels at template.labels */
	EXPECT(changed("spec.template.metadata.labels", "{\"app\":\"agent\",\"-x\":\"y\"}"),
	       {"spec.template.labels", "Invalid", NAME_PART_MSG, NULL});
}
END_TEST

START_TEST(template_rules)
{
	static const char *const restart = "supported values: \"Always\"";
	EXPECT(changed("spec.template.spec.restartPolicy", "\"OnFailure\""),
	       {"spec.template.spec.restartPolicy", "NotSupported", restart,
		"spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\""});
	EXPECT(changed("spec.template.spec.restartPolicy", "\"Sometimes\""),
	       {"spec.template.spec.restartPolicy", "NotSupported",
		"supported values: \"Always\", \"OnFailure\", \"Never\"", NULL},
	       {"spec.template.spec.restartPolicy", "NotSupported", "supported values: \"Always\"", NULL});
	EXPECT(changed("spec.template.spec.activeDeadlineSeconds", "600"),
	       {"spec.template.spec.activeDeadlineSeconds", "Forbidden",
		"activeDeadlineSeconds in DaemonSet is not Supported",
		"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not "
		"Supported"});
	EXPECT(changed("spec.template.spec.activeDeadlineSeconds", "0"),
	       {"spec.template.spec.activeDeadlineSeconds", "Invalid", "must be between 1 and 2147483647, inclusive",
		NULL},
	       {"spec.template.spec.activeDeadlineSeconds", "Forbidden",
		"activeDeadlineSeconds in DaemonSet is not Supported", NULL});
	EXPECT(changed("spec.template.spec.dnsPolicy", "\"Custom\""),
	       {"spec.template.spec.dnsPolicy", "NotSupported",
		"supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\"", NULL});
	EXPECT(changed("spec.template.spec.dnsPolicy", "\"None\""),
	       {"spec.template.spec.dnsConfig", "Required", "must provide `dnsConfig` when `dnsPolicy` is None", NULL});
	EXPECT(changed("spec.template.spec.ephemeralContainers",
		       "[{\"name\":\"debug\",\"image\":\"busybox\",\"ports\":[{\"containerPort\":1}]}]"),
	       {"spec.template.spec.ephemeralContainers[0].ports", "Forbidden",
		"cannot be set for an Ephemeral Container", NULL},
	       {"spec.template.spec.ephemeralContainers", "Forbidden",
		"ephemeral containers not allowed in pod template", NULL});
	EXPECT(changed("spec.template.spec.nodeSelector", "{\"a/b/c\":\"x\",\"disk\":\"ssd\"}"),
	       {"spec.template.spec.nodeSelector", "Invalid",
		"a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
		"with an "
		"alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
		"'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. "
		"'example.com/MyName')",
		NULL});
	EXPECT(changed("spec.template.spec.serviceAccountName", "\"Agent\""),
	       {"spec.template.spec.serviceAccountName", "Invalid", SUBDOMAIN_MSG, NULL});
	EXPECT(changed("spec.template.spec.hostname", "\"a.b\""),
	       {"spec.template.spec.hostname", "Invalid", "must not contain dots", NULL});
	EXPECT(changed("spec.template.spec.preemptionPolicy", "\"Always\""),
	       {"spec.template.spec.preemptionPolicy", "NotSupported",
		"supported values: \"PreemptLowerPriority\", \"Never\"", NULL});
	EXPECT(changed("spec.template.spec.schedulingGates", "[{\"name\":\"a\"},{\"name\":\"a\"}]"),
	       {"spec.template.spec.schedulingGates[1]", "Duplicate", "",
		"spec.template.spec.schedulingGates[1]: Duplicate value: \"a\""});
	/* pod-specific annotations of the template */
	EXPECT(changed("spec.template.metadata.annotations",
		       "{\"controller.kubernetes.io/pod-deletion-cost\":\"012\",\"seccomp.security.alpha.kubernetes.io/"
		       "pod\":\"chrome\"}"),
	       {"spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]", "Invalid",
		"must be a 32bit integer", NULL},
	       {"spec.template.annotations.seccomp.security.alpha.kubernetes.io/pod", "Invalid",
		"must be a valid seccomp profile", NULL});
}
END_TEST

/* Names seen across many containers (the set the checks keep grows past its first size): the 41st
 * container repeats the first one's name, an init container a container's, a volume another's. */
START_TEST(duplicates_among_many)
{
	size_t cap = 16384, n = 0;
	char *b = malloc(cap);
	ck_assert_ptr_nonnull(b);
	n += (size_t)snprintf(b + n, cap - n,
			      "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"d\","
			      "\"namespace\":\"default\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},"
			      "\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"volumes\":[{\"name\":"
			      "\"v\",\"emptyDir\":{}},{\"name\":\"v\",\"emptyDir\":{}}],\"containers\":[");
	for (int i = 0; i < 41; i++)
		n += (size_t)snprintf(b + n, cap - n,
				      "%s{\"name\":\"c%d\",\"image\":\"i\",\"volumeMounts\":[{\"name\":\"v\","
				      "\"mountPath\":\"/a\"},{\"name\":\"v\",\"mountPath\":\"/b\"}]}",
				      i ? "," : "", i == 40 ? 0 : i);
	n += (size_t)snprintf(b + n, cap - n, "],\"initContainers\":[{\"name\":\"c7\",\"image\":\"i\"}]}}}}");
	char *out;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_validate(b, n, 0, NULL, &out, &err), 0);
	free(b);
	json_t *r = dsi_test_take_json(out);
	json_t *errs = json_object_get(r, "errors");
	static const char *const fields[] = {"spec.template.spec.volumes[1].name",
					     "spec.template.spec.containers[40].name",
					     "spec.template.spec.initContainers[0].name"};
	ck_assert_uint_eq(json_array_size(errs), sizeof(fields) / sizeof(fields[0]));
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		json_t *e = json_array_get(errs, i);
		ck_assert_str_eq(json_string_value(json_object_get(e, "field")), fields[i]);
		ck_assert_str_eq(json_string_value(json_object_get(e, "type")), "Duplicate");
	}
	json_decref(r);
}
END_TEST

START_TEST(container_rules)
{
	EXPECT(changed("spec.template.spec.containers", "[]"), {"spec.template.spec.containers", "Required", "", NULL});
	EXPECT(changed("spec.template.spec.containers", "[{\"name\":\"Agent\",\"image\":\"a\"},{\"name\":\"Agent\"},{"
							"\"image\":\"b\",\"terminationMessagePolicy\":\"Log\","
							"\"imagePullPolicy\":\"Sometimes\"}]"),
	       {"spec.template.spec.containers[0].name", "Invalid", DNS_LABEL_MSG, NULL},
	       {"spec.template.spec.containers[1].name", "Invalid", DNS_LABEL_MSG, NULL},
	       {"spec.template.spec.containers[1].image", "Required", "", NULL},
	       {"spec.template.spec.containers[1].name", "Duplicate", "",
		"spec.template.spec.containers[1].name: Duplicate value: \"Agent\""},
	       {"spec.template.spec.containers[2].name", "Required", "", NULL},
	       {"spec.template.spec.containers[2].terminationMessagePolicy", "NotSupported",
		"supported values: \"File\", \"FallbackToLogsOnError\"", NULL},
	       {"spec.template.spec.containers[2].imagePullPolicy", "NotSupported",
		"supported values: \"Always\", \"IfNotPresent\", \"Never\"", NULL});
	/* as is, nothing is defaulted */
	json_t *ds = with(with(base(), "spec.updateStrategy", "{\"type\":\"OnDelete\"}"),
			  "spec.template.spec.containers[0].ports", "[{\"containerPort\":80}]");
	EXPECT(validate_obj(ds, DS_VALIDATE_AS_IS),
	       {"spec.template.spec.terminationGracePeriodSeconds", "Required", "", NULL},
	       {"spec.template.spec.containers[0].terminationMessagePolicy", "Required", "", NULL},
	       {"spec.template.spec.containers[0].ports[0].protocol", "Required", "", NULL},
	       {"spec.template.spec.containers[0].imagePullPolicy", "Required", "", NULL},
	       {"spec.template.spec.restartPolicy", "Required", "", NULL},
	       {"spec.template.spec.dnsPolicy", "Required", "", NULL},
	       {"spec.template.spec.restartPolicy", "NotSupported", "supported values: \"Always\"", NULL});
	json_decref(ds);
	EXPECT(changed("spec.template.spec.containers[0].ports",
		       "[{\"containerPort\":0},{\"containerPort\":70000,\"hostPort\":-1,\"protocol\":\"ICMP\"},"
		       "{\"name\":\"web\",\"containerPort\":80},{\"name\":\"web\",\"containerPort\":81},{\"name\":\"--"
		       "\",\"containerPort\":82}]"),
	       {"spec.template.spec.containers[0].ports[0].containerPort", "Required", "", NULL},
	       {"spec.template.spec.containers[0].ports[1].containerPort", "Invalid",
		"must be between 1 and 65535, inclusive",
		"spec.template.spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and "
		"65535, inclusive"},
	       {"spec.template.spec.containers[0].ports[1].hostPort", "Invalid",
		"must be between 1 and 65535, inclusive", NULL},
	       {"spec.template.spec.containers[0].ports[1].protocol", "NotSupported",
		"supported values: \"SCTP\", \"TCP\", \"UDP\"", NULL},
	       {"spec.template.spec.containers[0].ports[3].name", "Duplicate", "", NULL},
	       {"spec.template.spec.containers[0].ports[4].name", "Invalid", "must contain at least one letter (a-z)",
		NULL},
	       {"spec.template.spec.containers[0].ports[4].name", "Invalid", "must not contain consecutive hyphens",
		NULL},
	       {"spec.template.spec.containers[0].ports[4].name", "Invalid", "must not begin or end with a hyphen",
		NULL});
	/* host ports: conflicts across containers, and hostNetwork */
	ds = with(base(), "spec.template.spec.containers",
		  "[{\"name\":\"a\",\"image\":\"a\",\"ports\":[{\"containerPort\":80,\"hostPort\":8080}]},"
		  "{\"name\":\"b\",\"image\":\"b\",\"ports\":[{\"containerPort\":81,\"hostPort\":8080},{"
		  "\"containerPort\":82,\"hostPort\":8080,"
		  "\"protocol\":\"UDP\"}]}]");
	EXPECT(validate_obj(ds, 0),
	       {"spec.template.spec.containers[1].ports[0].hostPort", "Duplicate", "",
		"spec.template.spec.containers[1].ports[0].hostPort: Duplicate value: \"TCP//8080\""});
	EXPECT(validate_obj(with(ds, "spec.template.spec.hostNetwork", "true"), 0),
	       {"spec.template.spec.containers[1].ports[0].hostPort", "Duplicate", "", NULL},
	       {"spec.template.spec.containers[0].ports[0].hostPort", "Invalid",
		"must match `containerPort` when `hostNetwork` is true",
		"spec.template.spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` "
		"when `hostNetwork` is true"},
	       {"spec.template.spec.containers[1].ports[0].hostPort", "Invalid",
		"must match `containerPort` when `hostNetwork` is true", NULL},
	       {"spec.template.spec.containers[1].ports[1].hostPort", "Invalid",
		"must match `containerPort` when `hostNetwork` is true", NULL});
	json_decref(ds);
	/* a template may leave hostPort 0 with hostNetwork (the pod defaults it) */
	ds = with(with(base(), "spec.template.spec.hostNetwork", "true"), "spec.template.spec.containers[0].ports",
		  "[{\"containerPort\":9100}]");
	EXPECT_VALID(validate_obj(ds, 0));
	json_decref(ds);
	EXPECT(changed("spec.template.spec.containers[0].env",
		       "[{\"value\":\"x\"},{\"name\":\"A=B\"},{\"name\":\"my.var-1\"}]"),
	       {"spec.template.spec.containers[0].env[0].name", "Required", "", NULL},
	       {"spec.template.spec.containers[0].env[1].name", "Invalid",
		"a valid environment variable name must consist only of printable ASCII characters other than '='",
		NULL});
	EXPECT(changed("spec.template.spec.containers[0].livenessProbe",
		       "{\"successThreshold\":2,\"periodSeconds\":-1}"),
	       {"spec.template.spec.containers[0].livenessProbe", "Required", "must specify a handler type", NULL},
	       {"spec.template.spec.containers[0].livenessProbe.periodSeconds", "Invalid",
		"must be greater than or equal to 0", NULL},
	       {"spec.template.spec.containers[0].livenessProbe.successThreshold", "Invalid", "must be 1", NULL});
	EXPECT(changed("spec.template.spec.containers[0].readinessProbe",
		       "{\"httpGet\":{\"port\":\"HTTP\",\"scheme\":\"FTP\"},\"exec\":{},"
		       "\"terminationGracePeriodSeconds\":5}"),
	       {"spec.template.spec.containers[0].readinessProbe.exec.command", "Required", "", NULL},
	       {"spec.template.spec.containers[0].readinessProbe.httpGet", "Forbidden",
		"may not specify more than 1 handler type", NULL},
	       {"spec.template.spec.containers[0].readinessProbe.terminationGracePeriodSeconds", "Invalid",
		"must not be set for readinessProbes", NULL});
	EXPECT(changed("spec.template.spec.containers[0].startupProbe", "{\"tcpSocket\":{\"port\":0}}"),
	       {"spec.template.spec.containers[0].startupProbe.tcpSocket.port", "Invalid",
		"must be between 1 and 65535, inclusive", NULL});
	EXPECT(changed("spec.template.spec.containers[0].restartPolicy", "\"Always\""),
	       {"spec.template.spec.containers[0].restartPolicy", "Forbidden", "may not be set for non-init containers",
		NULL});
	EXPECT(changed("spec.template.spec.initContainers",
		       "[{\"name\":\"agent\",\"image\":\"i\",\"restartPolicy\":\"Never\",\"livenessProbe\":{\"exec\":{"
		       "\"command\":[\"true\"]}}},"
		       "{\"name\":\"side\",\"image\":\"i\",\"restartPolicy\":\"Always\",\"readinessProbe\":{\"exec\":{"
		       "\"command\":[\"true\"]}}}]"),
	       {"spec.template.spec.initContainers[0].restartPolicy", "NotSupported", "supported values: \"Always\"",
		NULL},
	       {"spec.template.spec.initContainers[0].name", "Duplicate", "", NULL},
	       {"spec.template.spec.initContainers[0].livenessProbe", "Forbidden",
		"may not be set for init containers without restartPolicy=Always", NULL});
}
END_TEST

START_TEST(resource_rules)
{
	EXPECT(changed("spec.template.spec.containers[0].resources",
		       "{\"limits\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},\"requests\":{\"cpu\":\"1\",\"memory\":\"-"
		       "1\"}}"),
	       {"spec.template.spec.containers[0].resources.requests", "Invalid",
		"must be less than or equal to cpu limit of 500m",
		"spec.template.spec.containers[0].resources.requests: Invalid value: \"1\": must be less than or equal "
		"to cpu limit of 500m"},
	       {"spec.template.spec.containers[0].resources.requests[memory]", "Invalid",
		"must be greater than or equal to 0",
		"spec.template.spec.containers[0].resources.requests[memory]: Invalid value: \"-1\": must be greater "
		"than or equal to 0"});
	EXPECT(changed("spec.template.spec.containers[0].resources",
		       "{\"limits\":{\"example.com/gpu\":\"2\"},\"requests\":{\"example.com/gpu\":\"1\",\"example.com/"
		       "fpga\":\"500m\"}}"),
	       {"spec.template.spec.containers[0].resources.requests[example.com/fpga]", "Invalid",
		"must be an integer",
		"spec.template.spec.containers[0].resources.requests[example.com/fpga]: Invalid value: \"500m\": must "
		"be an integer"},
	       {"spec.template.spec.containers[0].resources.limits", "Required",
		"Limit must be set for non overcommitable resources", NULL},
	       {"spec.template.spec.containers[0].resources.requests", "Invalid",
		"must be equal to example.com/gpu limit of 2", NULL});
	EXPECT(changed("spec.template.spec.containers[0].resources",
		       "{\"limits\":{\"foo\":\"1\",\"pods\":\"1\",\"hugepages-2Mi\":\"2Mi\"}}"),
	       {"spec.template.spec.containers[0].resources.limits[foo]", "Invalid",
		"must be a standard resource type or fully qualified",
		"spec.template.spec.containers[0].resources.limits[foo]: Invalid value: \"foo\": must be a standard "
		"resource type or fully "
		"qualified"},
	       {"spec.template.spec.containers[0].resources.limits[foo]", "Invalid",
		"must be a standard resource for containers", NULL},
	       {"spec.template.spec.containers[0].resources.limits[pods]", "Invalid",
		"must be a standard resource for containers", NULL},
	       {"spec.template.spec.containers[0].resources", "Forbidden", "HugePages require cpu or memory", NULL});
	/* the pod overhead is validated as a limits list */
	EXPECT(changed("spec.template.spec.overhead", "{\"cpu\":\"-100m\"}"),
	       {"spec.template.spec.overhead.limits[cpu]", "Invalid", "must be greater than or equal to 0", NULL});
}
END_TEST

START_TEST(volume_rules)
{
	EXPECT(changed("spec.template.spec.volumes", "[{\"name\":\"a\",\"hostPath\":{\"path\":\"/x/../"
						     "etc\",\"type\":\"Folder\"},\"cephfs\":{\"monitors\":[\"m\"]}},"
						     "{\"name\":\"b\",\"emptyDir\":{},\"downwardAPI\":{}},{\"name\":"
						     "\"c\",\"emptyDir\":{}},{\"name\":\"c\",\"emptyDir\":{}},"
						     "{\"name\":\"D\",\"hostPath\":{}}]"),
	       {"spec.template.spec.volumes[0].hostPath.path", "Invalid", "must not contain '..'", NULL},
	       {"spec.template.spec.volumes[0].hostPath.type", "NotSupported",
		"supported values: \"\", \"BlockDevice\", \"CharDevice\", \"Directory\", \"DirectoryOrCreate\", "
		"\"File\", "
		"\"FileOrCreate\", \"Socket\"",
		NULL},
	       {"spec.template.spec.volumes[0].cephFS", "Forbidden", "may not specify more than 1 volume type", NULL},
	       {"spec.template.spec.volumes[1].downwarAPI", "Forbidden", "may not specify more than 1 volume type",
		NULL},
	       {"spec.template.spec.volumes[3].name", "Duplicate", "", NULL},
	       {"spec.template.spec.volumes[4].hostPath.path", "Required", "", NULL},
	       {"spec.template.spec.volumes[4].name", "Invalid", DNS_LABEL_MSG, NULL});
	/* as is, a volume without a source is refused; the server makes it an emptyDir */
	json_t *ds = with(with(full(), "spec.template.spec.volumes", "[{\"name\":\"v\"}]"),
			  "spec.template.spec.containers[0].volumeMounts",
			  "[{\"name\":\"v\",\"mountPath\":\"/v\"},{\"name\":\"w\",\"mountPath\":\"/v\"}]");
	EXPECT(validate_obj(ds, 0), {"spec.template.spec.containers[0].volumeMounts[1].name", "NotFound", "", NULL},
	       {"spec.template.spec.containers[0].volumeMounts[1].mountPath", "Invalid", "must be unique", NULL});
	json_t *r = validate_obj(ds, DS_VALIDATE_AS_IS);
	json_t *first = json_array_get(json_object_get(r, "errors"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(first, "message")),
			 "spec.template.spec.volumes[0]: Required value: must specify a volume type");
	json_decref(r);
	json_decref(ds);
}
END_TEST

START_TEST(toleration_rules)
{
	EXPECT(changed("spec.template.spec.tolerations",
		       "[{\"key\":\"node-role.kubernetes.io/control-plane\",\"effect\":\"NoSchedule\"},"
		       "{\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":5},"
		       "{\"key\":\"a\",\"operator\":\"Exists\",\"value\":\"x\",\"effect\":\"Bad\"},"
		       "{\"key\":\"b\",\"tolerationSeconds\":5,\"effect\":\"NoSchedule\"},"
		       "{\"operator\":\"Equal\"},{\"key\":\"c\",\"operator\":\"Lt\",\"value\":\"3\"},"
		       "{\"key\":\"bad key\",\"value\":\"a b\"}]"),
	       {"spec.template.spec.tolerations[2].operator", "Invalid",
		"value must be empty when `operator` is 'Exists'",
		"spec.template.spec.tolerations[2].operator: Invalid value: \"x\": value must be empty when `operator` "
		"is 'Exists'"},
	       {"spec.template.spec.tolerations[2].effect", "NotSupported",
		"supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
		"spec.template.spec.tolerations[2].effect: Unsupported value: \"Bad\": supported values: "
		"\"NoSchedule\", "
		"\"PreferNoSchedule\", \"NoExecute\""},
	       {"spec.template.spec.tolerations[3].effect", "Invalid",
		"effect must be 'NoExecute' when `tolerationSeconds` is set", NULL},
	       {"spec.template.spec.tolerations[4].operator", "Invalid",
		"operator must be Exists when `key` is empty, which means \"match all values and all keys\"", NULL},
	       {"spec.template.spec.tolerations[5].operator", "NotSupported", "supported values: \"Equal\", \"Exists\"",
		NULL},
	       {"spec.template.spec.tolerations[6].key", "Invalid", NAME_PART_MSG, NULL},
	       {"spec.template.spec.tolerations[6].operator", "Invalid", LABEL_VALUE_MSG, NULL});
	/* with the alpha comparison operators gate, Lt and Gt are accepted */
	ds_options *o;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set(o, "featureGates", "TaintTolerationComparisonOperators=true", NULL), 0);
	json_t *ds =
		with(base(), "spec.template.spec.tolerations", "[{\"key\":\"c\",\"operator\":\"Gt\",\"value\":\"3\"}]");
	char *text = json_dumps(ds, 0), *out = NULL;
	ck_assert_int_eq(ds_daemonset_validate(text, strlen(text), 0, o, &out, NULL), 0);
	EXPECT_VALID(dsi_test_take_json(out));
	free(text);
	json_decref(ds);
	ds_options_free(o);
}
END_TEST

START_TEST(affinity_rules)
{
	EXPECT(changed("spec.template.spec.affinity",
		       "{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":["
		       "{\"matchExpressions\":[{\"key\":\"k\",\"operator\":\"In\"},{\"key\":\"k2\",\"operator\":"
		       "\"Foo\",\"values\":[\"a b\"]},"
		       "{\"key\":\"k3\",\"operator\":\"Gt\",\"values\":[\"1\",\"2\"]}],"
		       "\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"a\",\"B\"]},{"
		       "\"key\":\"x\",\"operator\":\"Exists\"}]}]},"
		       "\"preferredDuringSchedulingIgnoredDuringExecution\":[{\"weight\":0,\"preference\":{"
		       "\"matchExpressions\":"
		       "[{\"key\":\"k\",\"operator\":\"In\",\"values\":[\"a b\"]}]}}]},"
		       "\"podAntiAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":[{\"labelSelector\":{"
		       "\"matchLabels\":{\"app\":\"agent\"}},"
		       "\"namespaces\":[\"Bad\"]}]}}"),
	       {"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
		"nodeSelectorTerms[0]."
		"matchExpressions[0].values",
		"Required", "must be specified when `operator` is 'In' or 'NotIn'", NULL},
	       {"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
		"nodeSelectorTerms[0]."
		"matchExpressions[1].operator",
		"Invalid", "not a valid selector operator", NULL},
	       {"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
		"nodeSelectorTerms[0]."
		"matchExpressions[1].values[0]",
		"Invalid", LABEL_VALUE_MSG, NULL},
	       {"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
		"nodeSelectorTerms[0]."
		"matchExpressions[2].values",
		"Required", "must be specified single value when `operator` is 'Lt' or 'Gt'", NULL},
	       {"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
		"nodeSelectorTerms[0]."
		"matchFields[0].values",
		"Required", "must be only one value when `operator` is 'In' or 'NotIn' for node field selector", NULL},
	       {"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
		"nodeSelectorTerms[0]."
		"matchFields[0].values[1]",
		"Invalid", SUBDOMAIN_MSG, NULL},
	       {"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
		"nodeSelectorTerms[0]."
		"matchFields[1].operator",
		"Invalid", "not a valid selector operator", NULL},
	       {"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
		"nodeSelectorTerms[0]."
		"matchFields[1].key",
		"Invalid", "not a valid field selector key", NULL},
	       {"spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight",
		"Invalid", "must be in the range 1-100", NULL},
	       {"spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
		"namespace",
		"Invalid", DNS_LABEL_MSG, NULL},
	       {"spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
		"topologyKey",
		"Required", "can not be empty", NULL},
	       {"spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
		"topologyKey",
		"Invalid", "name part must be non-empty", NULL},
	       {"spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
		"topologyKey",
		"Invalid", NAME_PART_MSG, NULL});
	EXPECT(changed("spec.template.spec.affinity",
		       "{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{}}}"),
	       {"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
		"nodeSelectorTerms",
		"Required", "must have at least one node selector term", NULL});
}
END_TEST

START_TEST(spec_and_strategy_rules)
{
	EXPECT(changed("spec.minReadySeconds", "-1"),
	       {"spec.minReadySeconds", "Invalid", "must be greater than or equal to 0",
		"spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"});
	EXPECT_VALID(changed("spec.revisionHistoryLimit", "0"));
	EXPECT(changed("spec.revisionHistoryLimit", "-1"),
	       {"spec.revisionHistoryLimit", "Invalid", "must be greater than or equal to 0", NULL});
	EXPECT(changed("spec.updateStrategy", "{\"type\":\"Random\",\"rollingUpdate\":{\"maxUnavailable\":\"25%\"}}"),
	       {"spec.updateStrategy", "NotSupported", STRATEGY_TYPES,
		"spec.updateStrategy: Unsupported value: "
		"{\"Type\":\"Random\",\"RollingUpdate\":{\"MaxUnavailable\":\"25%\","
		"\"MaxSurge\":0}}: supported values: \"RollingUpdate\", \"OnDelete\""});
	/* OnDelete ignores a rollingUpdate block */
	EXPECT_VALID(
		changed("spec.updateStrategy", "{\"type\":\"OnDelete\",\"rollingUpdate\":{\"maxUnavailable\":0}}"));
	json_t *ds = with(full(), "spec.updateStrategy", "{\"type\":\"RollingUpdate\"}");
	EXPECT(validate_obj(ds, DS_VALIDATE_AS_IS), {"spec.updateStrategy.rollingUpdate", "Required", "", NULL});
	EXPECT_VALID(validate_obj(ds, 0)); /* defaulted: maxUnavailable 1, maxSurge 0 */
	json_decref(ds);
	/* "abc" counts as 0 (IntValue), -1 as non-zero: exactly one is set */
	EXPECT(changed("spec.updateStrategy.rollingUpdate", "{\"maxUnavailable\":\"abc\",\"maxSurge\":-1}"),
	       {"spec.updateStrategy.rollingUpdate.maxUnavailable", "Invalid", PERCENT_MSG,
		"spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"abc\": " PERCENT_MSG},
	       {"spec.updateStrategy.rollingUpdate.maxSurge", "Invalid", "must be greater than or equal to 0", NULL});
	EXPECT(changed("spec.updateStrategy.rollingUpdate", "{\"maxUnavailable\":1,\"maxSurge\":-1}"),
	       {"spec.updateStrategy.rollingUpdate.maxSurge", "Invalid", "must be greater than or equal to 0", NULL},
	       {"spec.updateStrategy.rollingUpdate.maxSurge", "Invalid",
		"may not be set when maxUnavailable is non-zero",
		"spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: -1: may not be set when maxUnavailable is "
		"non-zero"});
	EXPECT(changed("spec.updateStrategy.rollingUpdate", "{\"maxUnavailable\":\"0%\",\"maxSurge\":\"200%\"}"),
	       {"spec.updateStrategy.rollingUpdate.maxSurge", "Invalid", "must not be greater than 100%",
		"spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: \"200%\": must not be greater than 100%"});
	EXPECT(changed("spec.updateStrategy.rollingUpdate", "{\"maxUnavailable\":0,\"maxSurge\":\"0%\"}"),
	       {"spec.updateStrategy.rollingUpdate.maxUnavailable", "Required", "cannot be 0 when maxSurge is 0",
		"spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"});
	EXPECT_VALID(changed("spec.updateStrategy.rollingUpdate", "{\"maxUnavailable\":0,\"maxSurge\":\"10%\"}"));
	/* a bare numeric string is not a percent, but its IntValue() counts */
	EXPECT(changed("spec.updateStrategy.rollingUpdate", "{\"maxUnavailable\":\"2\",\"maxSurge\":0}"),
	       {"spec.updateStrategy.rollingUpdate.maxUnavailable", "Invalid", PERCENT_MSG, NULL});
	/* huge percentages saturate and stay above 100% */
	EXPECT(changed("spec.updateStrategy.rollingUpdate",
		       "{\"maxUnavailable\":\"99999999999999999999999%\",\"maxSurge\":0}"),
	       {"spec.updateStrategy.rollingUpdate.maxUnavailable", "Invalid", "must not be greater than 100%", NULL});
	/* template generation: as is, a negative annotation; on the server, set to 1 on create */
	ds = with(full(), "metadata.annotations", "{\"deprecated.daemonset.template.generation\":\"-4\"}");
	EXPECT_VALID(validate_obj(ds, 0));
	EXPECT(validate_obj(ds, DS_VALIDATE_AS_IS),
	       {"spec.templateGeneration", "Invalid", "must be greater than or equal to 0",
		"spec.templateGeneration: Invalid value: -4: must be greater than or equal to 0"});
	json_decref(ds);
}
END_TEST

static json_t *with_rv(json_t *ds, const char *rv)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "\"%s\"", rv);
	return with(ds, "metadata.resourceVersion", buf);
}

START_TEST(update_rules)
{
	json_t *old = full(), *ds = with(full(), "spec.selector", "{\"matchLabels\":{\"app\":\"agent\",\"x\":\"y\"}}");
	with(ds, "spec.template.metadata.labels", "{\"app\":\"agent\",\"x\":\"y\"}");
	/* apps/v1: the selector is immutable (registry strategy); upstream's function alone allows it */
	EXPECT(update_obj(ds, old, 0),
	       {"spec.selector", "Invalid", "field is immutable",
		"spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"agent\",\"x\":\"y\"}}: field is immutable"});
	with(ds, "metadata.annotations", "{\"deprecated.daemonset.template.generation\":\"1\"}");
	with(old, "metadata.annotations", "{\"deprecated.daemonset.template.generation\":\"0\"}");
	EXPECT_VALID(update_obj(ds, old, DS_VALIDATE_AS_IS));
	json_decref(ds);
	/* a template change on the server bumps the generation itself */
	ds = with(full(), "spec.template.spec.containers[0].image", "\"agent:2.0\"");
	with(ds, "metadata.annotations", "{\"deprecated.daemonset.template.generation\":\"0\"}");
	EXPECT_VALID(update_obj(ds, old, 0));
	EXPECT(update_obj(ds, old, DS_VALIDATE_AS_IS),
	       {"spec.templateGeneration", "Invalid", "must be incremented upon template update",
		"spec.templateGeneration: Invalid value: 0: must be incremented upon template update"});
	json_decref(ds);
	/* semantically equal templates: quantities by value, empty lists as absent */
	json_t *a = with(full(), "spec.template.spec.containers[0].resources", "{\"requests\":{\"cpu\":\"1000m\"}}");
	json_t *b = with(with(full(), "spec.template.spec.containers[0].resources", "{\"requests\":{\"cpu\":1}}"),
			 "spec.template.spec.imagePullSecrets", "[]");
	with(a, "metadata.annotations", "{\"deprecated.daemonset.template.generation\":\"3\"}");
	with(b, "metadata.annotations", "{\"deprecated.daemonset.template.generation\":\"4\"}");
	EXPECT(update_obj(b, a, DS_VALIDATE_AS_IS),
	       {"spec.templateGeneration", "Invalid", "must not be incremented without template update", NULL});
	with(b, "spec.template.spec.containers[0].resources", "{\"requests\":{\"cpu\":\"1001m\"}}");
	EXPECT_VALID(update_obj(b, a, DS_VALIDATE_AS_IS));
	with(b, "metadata.annotations", "{\"deprecated.daemonset.template.generation\":\"2\"}");
	EXPECT(update_obj(b, a, DS_VALIDATE_AS_IS),
	       {"spec.templateGeneration", "Invalid", "must not be decremented", NULL});
	json_decref(a);
	json_decref(b);
	/* metadata: the resource version comes from the stored object when the request has none */
	ds = with(full(), "metadata.resourceVersion", NULL);
	EXPECT_VALID(update_obj(ds, old, 0));
	json_t *old2 = with(full(), "metadata.resourceVersion", NULL);
	EXPECT(update_obj(ds, old2, 0),
	       {"metadata.resourceVersion", "Invalid", "must be specified for an update",
		"metadata.resourceVersion: Invalid value: \"\": must be specified for an update"});
	json_decref(old2);
	json_decref(ds);
	with(old, "metadata.annotations", NULL);
	ds = with(with(with_rv(full(), "8"), "metadata.namespace", "\"default\""), "metadata.uid", "\"u2\"");
	with(old, "metadata.uid", "\"u1\"");
	with(old, "metadata.generation", "3");
	with(ds, "metadata.generation", "2");
	EXPECT(update_obj(ds, old, DS_VALIDATE_AS_IS),
	       {"metadata.generation", "Invalid", "must not be decremented", NULL},
	       {"metadata.namespace", "Invalid", "field is immutable",
		"metadata.namespace: Invalid value: \"default\": field is immutable"},
	       {"metadata.uid", "Invalid", "field is immutable",
		"metadata.uid: Invalid value: \"u2\": field is immutable"});
	/* the server takes the generation from the stored object (and the uid only when the request has none) */
	EXPECT(update_obj(ds, old, 0), {"metadata.namespace", "Invalid", "field is immutable", NULL},
	       {"metadata.uid", "Invalid", "field is immutable", NULL});
	with(ds, "metadata.uid", NULL);
	EXPECT(update_obj(ds, old, 0), {"metadata.namespace", "Invalid", "field is immutable", NULL});
	json_decref(ds);
	/* timestamps are immutable; an object being deleted takes no new finalizers */
	with(old, "metadata.deletionTimestamp", "\"2026-01-02T03:04:05Z\"");
	with(old, "metadata.finalizers", "[\"example.com/a\"]");
	ds = with(with(full(), "metadata.finalizers", "[\"example.com/b\",\"example.com/a\",\"example.com/0\"]"),
		  "metadata.creationTimestamp", "\"2026-01-01T00:00:00.5Z\"");
	with(ds, "metadata.uid", "\"u1\"");
	with(ds, "metadata.generation", "3");
	EXPECT(update_obj(ds, old, DS_VALIDATE_AS_IS),
	       {"metadata.finalizers", "Forbidden",
		"no new finalizers can be added if the object is being deleted, found new finalizers "
		"[]string{\"example.com/0\", "
		"\"example.com/b\"}",
		NULL},
	       {"metadata.creationTimestamp", "Invalid", "field is immutable",
		"metadata.creationTimestamp: Invalid value: \"2026-01-01T00:00:00Z\": field is immutable"},
	       {"metadata.deletionTimestamp", "Invalid", "field is immutable",
		"metadata.deletionTimestamp: Invalid value: null: field is immutable"});
	json_decref(ds);
	json_decref(old);
}
END_TEST

START_TEST(status_rules)
{
	json_t *old = with(base(), "status", "{\"collisionCount\":2,\"numberReady\":1}");
	json_t *ds = with(base(), "status", "{\"collisionCount\":1,\"numberAvailable\":-1}");
	EXPECT(update_obj(ds, old, DS_VALIDATE_STATUS),
	       {"status.numberAvailable", "Invalid", "must be greater than or equal to 0", NULL},
	       {"status.collisionCount", "Invalid", "cannot be decremented",
		"status.collisionCount: Invalid value: 1: cannot be decremented"});
	with(ds, "status", "{\"numberReady\":3}");
	EXPECT(update_obj(ds, old, DS_VALIDATE_STATUS | DS_VALIDATE_AS_IS),
	       {"status.collisionCount", "Invalid", "cannot be decremented",
		"status.collisionCount: Invalid value: 0: cannot be decremented"});
	with(ds, "status", "{\"collisionCount\":-1}");
	with(old, "status", "{}");
	EXPECT(update_obj(ds, old, DS_VALIDATE_STATUS),
	       {"status.collisionCount", "Invalid", "must be greater than or equal to 0", NULL});
	/* a status write keeps the stored spec: a broken spec in the request is not looked at */
	with(ds, "status", "{\"collisionCount\":3}");
	with(ds, "spec.template.spec.containers", "[]");
	EXPECT_VALID(update_obj(ds, old, DS_VALIDATE_STATUS));
	json_decref(ds);
	json_decref(old);
}
END_TEST

/* ---- bad input -------------------------------------------------------------------------------- */

static void expect_error(const char *text, unsigned flags, int code, const char *path)
{
	char *out = (char *)1;
	ds_error err;
	int rc = ds_daemonset_validate(text, strlen(text), flags, NULL, &out, &err);
	ck_assert_msg(rc == code, "%s: rc %d (%s: %s), want %d", text, rc, err.path, err.message, code);
	ck_assert_ptr_null(out);
	ck_assert_error(err, code, path);
}

START_TEST(bad_input)
{
	expect_error("", 0, DS_EMISSING, "");
	expect_error("{\"kind\":", 0, DS_ESYNTAX, "");
	expect_error("[1,2]", 0, DS_ETYPE, "");
	expect_error("\"x\"", 0, DS_ETYPE, "");
	expect_error("kind: Deployment", 0, DS_EUNSUPPORTED, "kind");
	expect_error("apiVersion: extensions/v1beta1\nkind: DaemonSet", 0, DS_EUNSUPPORTED, "apiVersion");
	expect_error("kind: DaemonSet\nmetadata: []", 0, DS_ETYPE, "metadata");
	expect_error("kind: DaemonSet\nmetadata: {name: 5}", DS_VALIDATE_AS_IS, DS_ETYPE, "metadata.name");
	expect_error("kind: DaemonSet\nmetadata: {labels: {a: [1]}}", 0, DS_ETYPE, "metadata.labels.a");
	expect_error("kind: DaemonSet\nmetadata: {annotations: {deprecated.daemonset.template.generation: x1}}", 0,
		     DS_EVALUE, "metadata.annotations[\"deprecated.daemonset.template.generation\"]");
	expect_error("kind: DaemonSet\nmetadata: {annotations: {deprecated.daemonset.template.generation: "
		     "'99999999999999999999'}}",
		     0, DS_EVALUE, "metadata.annotations[\"deprecated.daemonset.template.generation\"]");
	expect_error("kind: DaemonSet\nspec: {template: {spec: {containers: 5}}}", 0, DS_ETYPE,
		     "spec.template.spec.containers");
	expect_error("kind: DaemonSet\nspec: {template: {spec: {containers: 5}}}", DS_VALIDATE_AS_IS, DS_ETYPE,
		     "spec.template.spec.containers");
	expect_error(
		"kind: DaemonSet\nspec: {template: {spec: {containers: [{name: a, ports: [{containerPort: x}]}]}}}", 0,
		DS_ETYPE, "spec.template.spec.containers[0].ports[0].containerPort");
	expect_error("kind: DaemonSet\nspec: {template: {spec: {containers: [{name: a, ports: [{containerPort: "
		     "4294967296}]}]}}}",
		     DS_VALIDATE_AS_IS, DS_ETYPE, "spec.template.spec.containers[0].ports[0].containerPort");
	expect_error("kind: DaemonSet\nspec: {template: {spec: {containers: [{resources: {limits: {cpu: 1x}}}]}}}", 0,
		     DS_EVALUE, "spec.template.spec.containers[0].resources.limits.cpu");
	expect_error("kind: DaemonSet\nspec: {template: {spec: {containers: [{resources: {limits: {cpu: 1x}}}]}}}",
		     DS_VALIDATE_AS_IS, DS_EVALUE, "spec.template.spec.containers[0].resources.limits.cpu");
	expect_error("kind: DaemonSet\nspec: {updateStrategy: {rollingUpdate: {maxSurge: 1.5}}}", 0, DS_ETYPE,
		     "spec.updateStrategy.rollingUpdate.maxSurge");
	expect_error("kind: DaemonSet\nspec: {selector: {matchLabels: x}}", 0, DS_ETYPE, "spec.selector.matchLabels");
	/* a template label of the wrong type, found while matching the selector against the template */
	expect_error(
		"kind: DaemonSet\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: [1]}}}}", 0,
		DS_ETYPE, "spec.template.metadata.labels.a");
	expect_error(
		"kind: DaemonSet\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: [1]}}}}",
		DS_VALIDATE_AS_IS, DS_ETYPE, "spec.template.metadata.labels.a");
	expect_error("kind: DaemonSet\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: "
		     "{example.com/a: 1}}}}",
		     0, DS_ETYPE, "spec.template.metadata.labels[\"example.com/a\"]");
	expect_error(
		"kind: DaemonSet\nspec: {selector: {matchLabels: {a: [1]}}, template: {metadata: {labels: {a: b}}}}", 0,
		DS_ETYPE, "spec.selector.matchLabels.a");
	expect_error("kind: DaemonSet\nspec: {template: {spec: {tolerations: [{tolerationSeconds: '5'}]}}}", 0,
		     DS_ETYPE, "spec.template.spec.tolerations[0].tolerationSeconds");
	expect_error("kind: DaemonSet\nspec: {minReadySeconds: true}", 0, DS_ETYPE, "spec.minReadySeconds");
	expect_error("kind: DaemonSet\nmetadata: {name: a}\n---\nkind: DaemonSet\nmetadata: {name: b}\n", 0, DS_EARG,
		     "");
	/* arguments and flags */
	char *out = (char *)1;
	ds_error err;
	ck_assert_int_eq(ds_daemonset_validate(NULL, 0, 0, NULL, &out, &err), DS_EARG);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(ds_daemonset_validate("{}", 2, 0, NULL, NULL, NULL), DS_EARG);
	ck_assert_int_eq(ds_daemonset_validate("{}", 2, DS_VALIDATE_STATUS, NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_daemonset_validate_update("{}", 2, NULL, 0, 0, NULL, &out, &err), DS_EARG);
	ck_assert_int_eq(ds_daemonset_validate_update("{}", 2, "{}", 2, 8, NULL, &out, &err), DS_EARG);
	/* the old object's problems are reported under "(old)" */
	ck_assert_int_eq(ds_daemonset_validate_update("{}", 2, "{\"metadata\":[]}", 15, 0, NULL, &out, &err), DS_ETYPE);
	ck_assert_str_eq(err.path, "(old).metadata");
	ck_assert_int_eq(ds_daemonset_validate_update("{}", 2, "{", 1, 0, NULL, &out, &err), DS_ESYNTAX);
	ck_assert_str_eq(err.path, "(old)");
	ck_assert_int_eq(ds_daemonset_validate_update("{}", 2, "{\"metadata\":{\"creationTimestamp\":\"yesterday\"}}",
						      46, DS_VALIDATE_AS_IS, NULL, &out, &err),
			 DS_EVALUE);
	ck_assert_str_eq(err.path, "(old).metadata.creationTimestamp");
	ck_assert_int_eq(ds_daemonset_validate_update("{}", 2, "{\"status\":{\"collisionCount\":\"1\"}}", 33,
						      DS_VALIDATE_STATUS | DS_VALIDATE_AS_IS, NULL, &out, &err),
			 DS_ETYPE);
	ck_assert_str_eq(err.path, "(old).status.collisionCount");
	ck_assert_ptr_null(out);
}
END_TEST

/* The same input gives the same result from several threads' worth of calls (no hidden state). */
START_TEST(repeatable)
{
	json_t *ds = with(base(), "spec.template.spec.tolerations", "[{\"operator\":\"Equal\"},{\"key\":\"-\"}]");
	char *text = json_dumps(ds, 0), *first = NULL;
	for (int i = 0; i < 20; i++) {
		char *out = NULL;
		ck_assert_int_eq(ds_daemonset_validate(text, strlen(text), 0, NULL, &out, NULL), 0);
		if (!first)
			first = out;
		else {
			ck_assert_str_eq(out, first);
			ds_free(out);
		}
	}
	ds_free(first);
	free(text);
	json_decref(ds);
}
END_TEST

static Suite *validate_suite(void)
{
	Suite *s = suite_create("validate");
	TCase *tc = tcase_create("validate");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, upstream_table);
	tcase_add_test(tc, valid_and_messages);
	tcase_add_test(tc, object_meta);
	tcase_add_test(tc, selector_rules);
	tcase_add_test(tc, template_rules);
	tcase_add_test(tc, container_rules);
	tcase_add_test(tc, duplicates_among_many);
	tcase_add_test(tc, resource_rules);
	tcase_add_test(tc, volume_rules);
	tcase_add_test(tc, toleration_rules);
	tcase_add_test(tc, affinity_rules);
	tcase_add_test(tc, spec_and_strategy_rules);
	tcase_add_test(tc, update_rules);
	tcase_add_test(tc, status_rules);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, repeatable);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(validate_suite)
