/*
 * Node watch events that change nothing the model reads (lib/model/nodeevent.c): a heartbeat-only
 * update is applied without a tree and changes only the node's resourceVersion, and anything else
 * is applied as before. Each event is also applied to a snapshot that never saw the node, where it
 * takes the full path: both must end with the same node (or the same error). An event that looks
 * like a heartbeat but changes a label, a taint, unschedulable, allocatable, a condition's status or
 * transition time must not be taken for one, and the counter of quiet events says which path ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model/node.h"
#include "model/nodeevent.h"
#include "model/snapshot.h"

/* The parts of the node an event varies; NULL: the base event's. */
typedef struct variant {
	const char *type, *rv, *heartbeat, *image_size, *zone, *taints, *unschedulable, *cpu, *ready, *transition;
	const char *meta_extra, *status_extra;
} variant;

static const variant base = {"ADDED", "10",   "2026-12-02T14:59:00Z", "1000", "a", "", "false",
			     "4",     "True", "2026-11-01T08:00:00Z", "",     ""};

#define OR(f) (v->f ? v->f : base.f)

static char *event_text(const variant *v)
{
	char *t = malloc(8192);
	ck_assert_ptr_nonnull(t);
	int n = snprintf(
		t, 8192,
		"{\"type\":\"%s\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\","
		"\"uid\":\"u1\",\"resourceVersion\":%s%s%s,\"labels\":{\"zone\":\"%s\"}%s},\"spec\":{%"
		"s\"unschedulable\":%s},"
		"\"status\":{\"allocatable\":{\"cpu\":\"%s\",\"memory\":\"1Gi\",\"pods\":\"110\"},\"conditions\":[{"
		"\"type\":"
		"\"MemoryPressure\",\"status\":\"False\",\"lastHeartbeatTime\":%s%s%s,\"lastTransitionTime\":"
		"\"2026-11-01T08:00:00Z\"},{\"type\":\"Ready\",\"status\":\"%s\",\"lastHeartbeatTime\":%s%s%s,"
		"\"lastTransitionTime\":\"%s\",\"reason\":\"KubeletReady\"}],\"images\":[{\"names\":[\"r/a@sha256:00\","
		"\"r/a:v1\"],\"sizeBytes\":%s},{\"names\":[\"r/b:v2\"],\"sizeBytes\":5}]%s}}}",
		OR(type), OR(rv)[0] == '!' ? "" : "\"", OR(rv)[0] == '!' ? OR(rv) + 1 : OR(rv),
		OR(rv)[0] == '!' ? "" : "\"", OR(zone), OR(meta_extra), OR(taints), OR(unschedulable), OR(cpu),
		OR(heartbeat)[0] == '!' ? "" : "\"", OR(heartbeat)[0] == '!' ? OR(heartbeat) + 1 : OR(heartbeat),
		OR(heartbeat)[0] == '!' ? "" : "\"", OR(ready), OR(heartbeat)[0] == '!' ? "" : "\"",
		OR(heartbeat)[0] == '!' ? OR(heartbeat) + 1 : OR(heartbeat), OR(heartbeat)[0] == '!' ? "" : "\"",
		OR(transition), OR(image_size), OR(status_extra));
	ck_assert(n > 0 && n < 8192);
	return t;
}

static ds_cluster *fresh(void)
{
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	return c;
}

static int apply(ds_cluster *c, const variant *v, ds_error *err)
{
	char *t = event_text(v);
	size_t count = 0;
	memset(err, 0, sizeof(*err));
	int rc = ds_cluster_apply_events(c, t, strlen(t), &count, err);
	if (rc == 0)
		ck_assert_uint_eq(count, 1);
	free(t);
	return rc;
}

static uint64_t quiet(const ds_cluster *c) { return ((const dsi_cluster *)c)->quiet_events; }

static const dsi_node *node(const ds_cluster *c)
{
	const dsi_node *n = dsi_cluster_node_by_name((const dsi_cluster *)c, "n1");
	ck_assert_ptr_nonnull(n);
	return n;
}

/* Everything the model holds of node n1 in a and b is the same (what dsi_node_to_json shows, the
 * resourceVersion, uid and the conditions). */
static void same_node(const ds_cluster *a, const ds_cluster *b, const char *what)
{
	const dsi_cluster *ca = (const dsi_cluster *)a, *cb = (const dsi_cluster *)b;
	const dsi_node *na = node(a), *nb = node(b);
	json_t *ja = dsi_node_to_json(&ca->atoms, na), *jb = dsi_node_to_json(&cb->atoms, nb);
	ck_assert_msg(json_equal(ja, jb), "%s: the nodes differ", what);
	json_decref(ja);
	json_decref(jb);
	ck_assert_str_eq(dsi_cstr(ca, na->meta.resource_version), dsi_cstr(cb, nb->meta.resource_version));
	ck_assert_str_eq(dsi_cstr(ca, na->meta.uid), dsi_cstr(cb, nb->meta.uid));
	ck_assert_uint_eq(na->nconditions, nb->nconditions);
	for (uint32_t i = 0; i < na->nconditions; i++) {
		ck_assert_str_eq(dsi_cstr(ca, na->conditions[i].type), dsi_cstr(cb, nb->conditions[i].type));
		ck_assert_msg(na->conditions[i].status == nb->conditions[i].status, "%s: condition %u's status", what,
			      i);
		ck_assert_msg(na->conditions[i].last_transition == nb->conditions[i].last_transition,
			      "%s: condition %u's lastTransitionTime", what, i);
	}
}

/* v applied after the base event (which kept its hash) and to a snapshot without the node: the
 * same outcome. Returns whether the first took the quiet path. */
static int alike(const variant *v, const char *what)
{
	ds_cluster *a = fresh(), *b = fresh();
	ds_error ea, eb;
	ck_assert_int_eq(apply(a, &base, &ea), 0);
	uint64_t q = quiet(a), version = ((dsi_cluster *)a)->version;
	int ra = apply(a, v, &ea), rb = apply(b, v, &eb);
	ck_assert_msg(ra == rb, "%s: %d against %d (%s)", what, ra, rb, ra ? ea.message : eb.message);
	if (ra < 0) {
		ck_assert_int_eq(ea.code, eb.code);
		ck_assert_str_eq(ea.message, eb.message);
		ck_assert_str_eq(ea.path, eb.path);
	} else {
		same_node(a, b, what);
		ck_assert_msg(((dsi_cluster *)a)->version > version, "%s: the version did not move", what);
	}
	int was_quiet = quiet(a) > q;
	ds_cluster_free(a);
	ds_cluster_free(b);
	return was_quiet;
}

START_TEST(heartbeat_only_is_quiet)
{
	/* what kubelets change every 40 s: heartbeats, resourceVersion, image sizes and names */
	variant v = {.type = "MODIFIED", .rv = "11", .heartbeat = "2026-12-02T15:00:40Z", .image_size = "2000"};
	ck_assert_msg(alike(&v, "heartbeat"), "a heartbeat-only event took the full path");
	variant w = {.type = "MODIFIED", .rv = "12", .heartbeat = "2024-02-29T23:59:59Z", .image_size = "0"};
	ck_assert(alike(&w, "leap day"));
	/* and again and again on one snapshot: each moves the resourceVersion */
	ds_cluster *c = fresh();
	ds_error err;
	ck_assert_int_eq(apply(c, &base, &err), 0);
	ck_assert_uint_eq(quiet(c), 0);
	char rv[16], hb[32];
	for (int i = 0; i < 5; i++) {
		snprintf(rv, sizeof(rv), "%d", 20 + i);
		snprintf(hb, sizeof(hb), "2026-12-02T15:0%d:00Z", i);
		variant h = {.type = "MODIFIED", .rv = rv, .heartbeat = hb};
		ck_assert_int_eq(apply(c, &h, &err), 0);
		ck_assert_uint_eq(quiet(c), (uint64_t)i + 1);
		ck_assert_str_eq(dsi_cstr((dsi_cluster *)c, node(c)->meta.resource_version), rv);
	}
	ds_cluster_free(c);
}
END_TEST

START_TEST(changes_the_model_reads_are_applied)
{
	/* each also moves the heartbeat and the resourceVersion, as a real update does */
#define HB .type = "MODIFIED", .rv = "11", .heartbeat = "2026-12-02T15:00:40Z"
	const struct {
		const char *what;
		variant v;
	} cases[] = {
		{"a label", {HB, .zone = "b"}},
		{"a taint", {HB, .taints = "\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}],"}},
		{"unschedulable", {HB, .unschedulable = "true"}},
		{"allocatable", {HB, .cpu = "3500m"}},
		{"Ready's status", {HB, .ready = "False"}},
		{"Ready's lastTransitionTime", {HB, .transition = "2026-12-02T15:00:40Z"}},
		{"the resourceVersion alone, as ADDED", {.type = "ADDED", .rv = "11"}},
		{"the resourceVersion spelt twice (Go takes ResourceVersion)",
		 {HB, .meta_extra = ",\"ResourceVersion\":\"99\""}},
		{"images spelt twice", {HB, .status_extra = ",\"Images\":[]"}},
	};
#undef HB
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(!alike(&cases[i].v, cases[i].what), "%s: taken for a heartbeat", cases[i].what);
}
END_TEST

START_TEST(unusual_values_take_the_full_path)
{
	const struct {
		const char *what;
		variant v;
	} cases[] = {
		{"no such day", {.type = "MODIFIED", .rv = "11", .heartbeat = "2026-02-30T00:00:00Z"}},
		{"not a time", {.type = "MODIFIED", .rv = "11", .heartbeat = "yesterday"}},
		{"a time with a fraction", {.type = "MODIFIED", .rv = "11", .heartbeat = "2026-12-02T15:00:40.5Z"}},
		{"a null heartbeat", {.type = "MODIFIED", .rv = "11", .heartbeat = "!null"}},
		{"a number for a heartbeat", {.type = "MODIFIED", .rv = "11", .heartbeat = "!12"}},
		{"sizeBytes as a string", {.type = "MODIFIED", .rv = "11", .image_size = "\"big\""}},
		{"sizeBytes beyond int64", {.type = "MODIFIED", .rv = "11", .image_size = "99999999999999999999"}},
		{"sizeBytes with an exponent", {.type = "MODIFIED", .rv = "11", .image_size = "1e3"}},
		{"a resourceVersion as a number", {.type = "MODIFIED", .rv = "!11"}},
		{"a resourceVersion not digits", {.type = "MODIFIED", .rv = "abc"}},
		{"an empty resourceVersion", {.type = "MODIFIED", .rv = ""}},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(!alike(&cases[i].v, cases[i].what), "%s: taken for a heartbeat", cases[i].what);
}
END_TEST

/* A node replaced by another path keeps no hash: the next event, though its text is the one the
 * node was once read from but for the heartbeat, is read whole. */
START_TEST(other_paths_forget_the_hash)
{
	ds_cluster *c = fresh();
	ds_error err;
	ck_assert_int_eq(apply(c, &base, &err), 0);
	variant b = {.type = "ADDED", .rv = "11", .zone = "b"};
	char *t = event_text(&b);
	const char *obj = strstr(t, "\"object\":") + 9;
	ck_assert_int_eq(ds_cluster_load(c, obj, strlen(obj) - 1, NULL, &err), 0);
	free(t);
	ck_assert_str_eq(dsi_cstr((dsi_cluster *)c, node(c)->meta.labels.v[0].value), "b");
	variant h = {.type = "MODIFIED", .rv = "12", .heartbeat = "2026-12-02T15:00:40Z"};
	ck_assert_int_eq(apply(c, &h, &err), 0);
	ck_assert_uint_eq(quiet(c), 0);
	ck_assert_str_eq(dsi_cstr((dsi_cluster *)c, node(c)->meta.labels.v[0].value), "a");
	/* a copy starts without hashes; the original goes on with its own */
	ds_cluster *copy;
	ck_assert_int_eq(ds_cluster_copy(c, &copy, &err), 0);
	variant h2 = {.type = "MODIFIED", .rv = "13", .heartbeat = "2026-12-02T15:01:20Z"};
	ck_assert_int_eq(apply(copy, &h2, &err), 0);
	ck_assert_uint_eq(quiet(copy), 0);
	ck_assert_int_eq(apply(c, &h2, &err), 0);
	ck_assert_uint_eq(quiet(c), 1);
	/* a deleted and re-added node starts again */
	variant d = {.type = "DELETED", .rv = "14"};
	ck_assert_int_eq(apply(c, &d, &err), 0);
	ck_assert_ptr_null(dsi_cluster_node_by_name((dsi_cluster *)c, "n1"));
	ck_assert_int_eq(apply(c, &h2, &err), 0);
	ck_assert_uint_eq(quiet(c), 1);
	ds_cluster_free(copy);
	ds_cluster_free(c);
}
END_TEST

/* An image's name of any length with one unusual byte (or none) anywhere in it: the images are masked
 * (two events that differ only in an image's size hash alike) exactly when every name is printable
 * ASCII without an escape, whichever of the scan's 16-byte steps the byte falls in. */
START_TEST(image_names_plain_at_every_place)
{
	static const char *const odd[] = {NULL, "\\\"", "\\u0041", "\xc3\xa9", "\x7f", "\\n"};
	char name[80], text[512];
	for (size_t k = 0; k < sizeof(odd) / sizeof(odd[0]); k++)
		for (size_t len = 1; len < 60; len += 3)
			for (size_t at = 0; at < len; at += 5) {
				memset(name, 'a', len);
				name[len] = '\0';
				if (odd[k]) {
					size_t w = strlen(odd[k]);
					memcpy(name + at, odd[k], w);
					name[at + w] = '\0';
				}
				uint64_t h[2][2];
				int ok[2];
				for (int size = 0; size < 2; size++) {
					snprintf(text, sizeof(text),
						 "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":"
						 "\"Node\",\"metadata\":{\"name\":\"n1\",\"resourceVersion\":\"7\"},"
						 "\"status\":{\"images\":[{\"names\":[\"%s\"],\"sizeBytes\":%d}]}}}",
						 name, 100 + size);
					dsi_node_event ev;
					ok[size] = dsi_node_event_scan(text, strlen(text), &ev);
					h[size][0] = ev.hash[0];
					h[size][1] = ev.hash[1];
				}
				ck_assert_msg(ok[0] && ok[1], "%s: not scanned", name);
				int masked = h[0][0] == h[1][0] && h[0][1] == h[1][1];
				ck_assert_msg(masked == !odd[k], "%s (%zu bytes, odd byte at %zu): masked %d", name,
					      len, at, masked);
			}
}
END_TEST

/* Whether the images value imgs is masked: its event hashes as the one with "images":[] does (not
 * when the scan leaves the whole event to the full path). */
static int images_masked(const char *imgs)
{
	char text[1024];
	uint64_t h[2][2];
	for (int k = 0; k < 2; k++) {
		snprintf(text, sizeof(text),
			 "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{"
			 "\"name\":\"n1\",\"resourceVersion\":\"7\"},\"status\":{\"images\":%s}}}",
			 k ? imgs : "[]");
		dsi_node_event ev;
		if (!dsi_node_event_scan(text, strlen(text), &ev)) {
			ck_assert_msg(k, "the event with images [] was not scanned");
			return 0; /* the whole event is left to the full path */
		}
		h[k][0] = ev.hash[0];
		h[k][1] = ev.hash[1];
	}
	return h[0][0] == h[1][0] && h[0][1] == h[1][1];
}

/* The images in the API server's compact form are read by a shortcut; spaced out, member by member:
 * the same verdict either way, on the forms kubelets write and on each way to stray from them. */
START_TEST(compact_images_read_as_spaced_ones)
{
	static const struct {
		const char *compact, *spaced;
		int masked;
	} cases[] = {
		{"[{\"names\":[\"a\"],\"sizeBytes\":5}]", "[ { \"names\" : [ \"a\" ] , \"sizeBytes\" : 5 } ]", 1},
		{"[{\"names\":[\"a\",\"b\",\"c\"],\"sizeBytes\":0},{\"names\":[\"d\"],\"sizeBytes\":123456789012345678}"
		 "]",
		 "[{\"names\": [\"a\", \"b\", \"c\"], \"sizeBytes\": 0}, {\"names\": [\"d\"], \"sizeBytes\": "
		 "123456789012345678}]",
		 1},
		{"[{\"names\":[],\"sizeBytes\":5}]", "[{\"names\": [], \"sizeBytes\": 5}]", 1},
		{"[{\"names\":[\"a\"]}]", "[{\"names\": [\"a\"]}]", 1},
		{"[{\"sizeBytes\":5,\"names\":[\"a\"]}]", "[{\"sizeBytes\": 5, \"names\": [\"a\"]}]", 1},
		{"[{\"names\":[\"a\"],\"sizeBytes\":1234567890123456789}]",
		 "[{\"names\": [\"a\"], \"sizeBytes\": 1234567890123456789}]", 0},
		{"[{\"names\":[\"a\"],\"sizeBytes\":05}]", "[{\"names\": [\"a\"], \"sizeBytes\": 05}]", 0},
		{"[{\"names\":[\"a\"],\"sizeBytes\":-5}]", "[{\"names\": [\"a\"], \"sizeBytes\": -5}]", 0},
		{"[{\"names\":[\"a\"],\"sizeBytes\":5.0}]", "[{\"names\": [\"a\"], \"sizeBytes\": 5.0}]", 0},
		{"[{\"names\":[\"a\"],\"sizeBytes\":}]", "[{\"names\": [\"a\"], \"sizeBytes\": }]", 0},
		{"[{\"names\":[\"a\"],\"sizeBytes\":5,\"x\":1}]", "[{\"names\": [\"a\"], \"sizeBytes\": 5, \"x\": 1}]",
		 0},
		{"[{\"names\":[\"a\"],\"sizeBytes\":5,\"sizeBytes\":6}]",
		 "[{\"names\": [\"a\"], \"sizeBytes\": 5, \"sizeBytes\": 6}]", 0},
		{"[{\"names\":[\"a\",],\"sizeBytes\":5}]", "[{\"names\": [\"a\", ], \"sizeBytes\": 5}]", 0},
		{"[{\"names\":[\"a\\u0041\"],\"sizeBytes\":5}]", "[{\"names\": [\"a\\u0041\"], \"sizeBytes\": 5}]", 0},
		{"[{\"names\":[5],\"sizeBytes\":5}]", "[{\"names\": [5], \"sizeBytes\": 5}]", 0},
		/* a comma before a closing bracket is not JSON: left to the full path (which reads the
		 * event as YAML's flow style) */
		{"[{\"names\":[\"a\"],\"sizeBytes\":5,}]", "[{\"names\": [\"a\"], \"sizeBytes\": 5, }]", 0},
		{"[{\"names\":[\"a\"],\"sizeBytes\":5},]", "[{\"names\": [\"a\"], \"sizeBytes\": 5}, ]", 0},
		/* an image that does not close */
		{"[{\"names\":[\"a\"],\"sizeBytes\":5 ]", "[{\"names\": [\"a\"], \"sizeBytes\": 5 ]", 0},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		ck_assert_msg(images_masked(cases[k].compact) == cases[k].masked, "%s", cases[k].compact);
		ck_assert_msg(images_masked(cases[k].spaced) == cases[k].masked, "%s", cases[k].spaced);
	}
}
END_TEST

static Suite *node_event_suite(void)
{
	Suite *s = suite_create("node_event");
	TCase *tc = tcase_create("quiet");
	tcase_add_test(tc, heartbeat_only_is_quiet);
	tcase_add_test(tc, changes_the_model_reads_are_applied);
	tcase_add_test(tc, unusual_values_take_the_full_path);
	tcase_add_test(tc, other_paths_forget_the_hash);
	tcase_add_test(tc, image_names_plain_at_every_place);
	tcase_add_test(tc, compact_images_read_as_spaced_ones);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(node_event_suite)
