/* The snapshot: loading dumps, indexes, watch events, atomic failure, copies, error paths. */
/* This suite also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model/snapshot.h"

START_TEST(sample_cluster_loads)
{
	ds_cluster *c = dsi_test_load_sample();
	ck_assert_uint_eq(ds_cluster_count(c, "Node"), 6);
	ck_assert_uint_eq(ds_cluster_count(c, "DaemonSet"), 3);
	/* nodes are kept in name order, whatever the input order */
	static const char *const order[] = {"cp-1", "gpu-1", "worker-1", "worker-2", "worker-3", "worker-4"};
	for (size_t i = 0; i < 6; i++)
		ck_assert_str_eq(dsi_cstr(c, dsi_cluster_node_at(c, i)->meta.name), order[i]);
	const dsi_node *cp = dsi_cluster_node_by_name(c, "cp-1");
	ck_assert_ptr_nonnull(cp);
	ck_assert_uint_eq(cp->taints.n, 1);
	ck_assert_int_eq(cp->taints.v[0].effect, DSI_EFFECT_NO_SCHEDULE);
	ck_assert_int_eq(cp->allocatable.milli_cpu, 4000);
	ck_assert_int_eq(cp->allocatable.memory, 15LL << 30);
	ck_assert_int_eq(cp->allocatable.pods, 110);
	const dsi_node *gpu = dsi_cluster_node_by_name(c, "gpu-1");
	dsi_atom g = dsi_atom_lookup_cstr(&c->atoms, "nvidia.com/gpu");
	ck_assert_int_eq(dsi_resources_scalar(&gpu->allocatable, g), 4);
	ck_assert(dsi_cluster_node_by_name(c, "worker-3")->unschedulable);
	const dsi_daemonset *ds = dsi_cluster_daemonset(c, "kube-system", "fluentd-logging");
	ck_assert_ptr_nonnull(ds);
	ck_assert_int_eq(ds->strategy, DSI_STRATEGY_ROLLING_UPDATE);
	ck_assert_int_eq(ds->template_generation, 2);
	ck_assert_int_eq(ds->tspec.requests.milli_cpu, 100);
	ck_assert_int_eq(ds->tspec.requests.memory, 200LL << 20);
	char *summary;
	ds_error err;
	ck_assert_int_eq(ds_cluster_summary(c, &summary, &err), 0);
	ck_assert_ptr_nonnull(strstr(summary, "\"nodes\":6"));
	ds_free(summary);
	ds_cluster_free(c);
}
END_TEST

static const char *pod_yaml =
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: %s\n  namespace: default\n"
	"  ownerReferences:\n  - {apiVersion: apps/v1, kind: DaemonSet, name: ds, uid: u-1, controller: true}\n"
	"spec:\n  nodeName: %s\n  containers:\n  - name: c\n    resources: {requests: {cpu: 250m}}\n";

static void add_pod(ds_cluster *c, const char *name, const char *node)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), pod_yaml, name, node);
	ds_error err;
	ck_assert_msg(ds_cluster_load(c, buf, strlen(buf), NULL, &err) == 0, "%s: %s", err.path, err.message);
}

static size_t count_on_node(ds_cluster *c, const char *node)
{
	size_t n = 0;
	dsi_atom a = dsi_atom_lookup_cstr(&c->atoms, node);
	for (const dsi_pod *p = a ? dsi_cluster_pods_on_node(c, a) : NULL; p; p = p->node_next)
		n++;
	return n;
}

START_TEST(pod_indexes_follow_updates)
{
	ds_cluster *c;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, NULL), 0);
	add_pod(c, "a", "n1");
	add_pod(c, "b", "n1");
	add_pod(c, "c", "n2");
	ck_assert_uint_eq(count_on_node(c, "n1"), 2);
	ck_assert_uint_eq(count_on_node(c, "n2"), 1);
	/* the same pod again, now bound elsewhere: it moves between lists */
	add_pod(c, "a", "n2");
	ck_assert_uint_eq(ds_cluster_count(c, "Pod"), 3);
	ck_assert_uint_eq(count_on_node(c, "n1"), 1);
	ck_assert_uint_eq(count_on_node(c, "n2"), 2);
	const dsi_pod_group *owned = dsi_cluster_pods_of_owner(c, dsi_atom_lookup_cstr(&c->atoms, "u-1"));
	ck_assert_ptr_nonnull(owned);
	ck_assert_uint_eq(owned->n, 3);
	ds_error err;
	ck_assert_int_eq(ds_cluster_remove(c, "Pod", "default", "b", &err), 0);
	ck_assert_uint_eq(count_on_node(c, "n1"), 0);
	ck_assert_int_eq(ds_cluster_remove(c, "Pod", "default", "b", &err), DS_ENOTFOUND);
	ds_cluster_free(c);
}
END_TEST

/* Every bound pod caches the index of its node: right after any mix of node and pod changes. */
static void check_node_indexes(ds_cluster *c)
{
	for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_POD); i++) {
		const dsi_pod *p = c->objs[DSI_KIND_POD].v[i];
		if (!p->spec.node_name)
			continue;
		const dsi_node *n = dsi_cluster_node(c, p->spec.node_name);
		ck_assert_msg(p->node_index == (n ? n->index : DSI_NO_NODE), "pod %s on %s: cached %u",
			      dsi_cstr(c, p->meta.name), dsi_cstr(c, p->spec.node_name), p->node_index);
	}
}

/* Every pod is in the owner group of its controller uid (or of its namespace's orphans) at the
 * place it records, each group holds only such pods, and no group is empty. */
static void check_owner_groups(ds_cluster *c)
{
	size_t npods = dsi_cluster_count(c, DSI_KIND_POD), grouped = 0;
	for (size_t i = 0; i < npods; i++) {
		const dsi_pod *p = c->objs[DSI_KIND_POD].v[i];
		const dsi_pod_group *g = p->meta.controller.uid ? dsi_cluster_pods_of_owner(c, p->meta.controller.uid)
								: dsi_cluster_orphans(c, p->meta.ns);
		ck_assert_msg(g != NULL, "pod %s: no group", dsi_cstr(c, p->meta.name));
		ck_assert_uint_lt(p->group_pos, g->n);
		ck_assert_ptr_eq(g->v[p->group_pos], p);
	}
	const dsi_map *maps[2] = {&c->pods_by_owner, &c->orphans_by_ns};
	for (int m = 0; m < 2; m++)
		for (size_t i = 0; i < maps[m]->cap; i++) {
			const dsi_pod_group *g = maps[m]->vals[i];
			if (!g)
				continue;
			ck_assert_uint_gt(g->n, 0);
			ck_assert_uint_le(g->n, g->cap);
			ck_assert_uint_eq(g->pending, 0);
			ck_assert_uint_eq(maps[m]->keys[i], g->key);
			grouped += g->n;
		}
	ck_assert_uint_eq(grouped, npods);
}

/* Pods move between owner groups as their controller and namespace change, batch by batch. */
START_TEST(owner_groups_follow_changes)
{
	ds_cluster *c, *d;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, NULL), 0);
	unsigned seed = 7;
	char ev[8192];
	for (int round = 0; round < 60; round++) {
		size_t len = 0;
		/* a batch of up to 12 events over 16 pod names, 2 owners, an owner reference without a uid
		 * (an orphan still) or none, in namespace ns0 or the empty one (a dump that names none) */
		int nev = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 12;
		for (int e = 0; e < nev; e++) {
			unsigned r = (seed = seed * 1103515245u + 12345u) >> 8;
			int name = (int)(r % 16), owner = (int)(r / 16 % 4), ns = (int)(r / 64 % 2),
			    del = r / 128 % 5 == 0;
			char refs[160] = "";
			if (owner)
				snprintf(refs, sizeof(refs),
					 ",\"ownerReferences\":[{\"apiVersion\":\"apps/"
					 "v1\",\"kind\":\"DaemonSet\",\"name\":\"d\","
					 "\"uid\":\"%s\",\"controller\":true}]",
					 owner == 3   ? ""
					 : owner == 1 ? "u-1"
						      : "u-2");
			len += (size_t)snprintf(
				ev + len, sizeof(ev) - len,
				"{\"type\":\"%s\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":"
				"{\"name\":\"p%d\",\"namespace\":\"%s\"%s}}}\n",
				del ? "DELETED" : "MODIFIED", name, ns ? "" : "ns0", refs);
		}
		ck_assert_uint_lt(len, sizeof(ev));
		ck_assert_msg(ds_cluster_apply_events(c, ev, len, NULL, &err) == 0, "%s", err.message);
		check_owner_groups(c);
	}
	ck_assert_uint_gt(dsi_cluster_count(c, DSI_KIND_POD), 0);
	/* a batch that fails leaves the groups as they were */
	const char *bad = "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":"
			  "{\"name\":\"q\",\"namespace\":\"ns9\"}}}\n{\"type\":\"ADDED\",\"object\":{\"kind\":7}}\n";
	ck_assert_int_lt(ds_cluster_apply_events(c, bad, strlen(bad), NULL, &err), 0);
	dsi_atom ns9 = dsi_atom_lookup_cstr(&c->atoms, "ns9"); /* 0 (the empty namespace) once forgotten */
	ck_assert(ns9 == 0 || dsi_cluster_orphans(c, ns9) == NULL);
	check_owner_groups(c);
	ck_assert_int_eq(ds_cluster_copy(c, &d, &err), 0);
	check_owner_groups(d);
	/* all gone: no group is left */
	for (int i = 0; i < 16; i++)
		for (int ns = 0; ns < 2; ns++) {
			char name[16];
			snprintf(name, sizeof(name), "p%d", i);
			ds_cluster_remove(d, "Pod", ns ? "" : "ns0", name, &err);
		}
	ck_assert_uint_eq(dsi_cluster_count(d, DSI_KIND_POD), 0);
	ck_assert_uint_eq(d->pods_by_owner.count + d->orphans_by_ns.count, 0);
	check_owner_groups(c);
	ds_cluster_free(d);
	ds_cluster_free(c);
}
END_TEST

static void add_node(ds_cluster *c, const char *name, const char *label)
{
	char buf[256];
	snprintf(buf, sizeof(buf),
		 "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"%s\","
		 "\"labels\":{\"l\":\"%s\"}}}",
		 name, label);
	ds_error err;
	ck_assert_msg(ds_cluster_load(c, buf, strlen(buf), NULL, &err) == 0, "%s: %s", err.path, err.message);
}

START_TEST(pods_know_their_node_index)
{
	ds_cluster *c, *d;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, NULL), 0);
	add_pod(c, "early", "n3"); /* before its node */
	check_node_indexes(c);
	ck_assert_uint_eq(((const dsi_pod *)c->objs[DSI_KIND_POD].v[0])->node_index, DSI_NO_NODE);
	add_node(c, "n1", "a");
	add_node(c, "n2", "a");
	add_node(c, "n3", "a");
	add_pod(c, "p1", "n1");
	add_pod(c, "p2", "n2");
	add_pod(c, "p3", "n3");
	check_node_indexes(c);
	/* removing n1 moves the last node into its slot */
	ck_assert_int_eq(ds_cluster_remove(c, "Node", NULL, "n1", &err), 0);
	check_node_indexes(c);
	add_node(c, "n3", "b"); /* replaced in place */
	add_node(c, "n1", "b"); /* back, at the end */
	check_node_indexes(c);
	add_pod(c, "p2", "n1"); /* rebound */
	check_node_indexes(c);
	const char *ev = "{\"type\":\"DELETED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{"
			 "\"name\":\"n2\"}}}\n"
			 "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{"
			 "\"name\":\"n4\"}}}\n"
			 "{\"type\":\"DELETED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{"
			 "\"name\":\"n3\"}}}\n"
			 "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{"
			 "\"name\":\"n3\"}}}\n";
	ck_assert_msg(ds_cluster_apply_events(c, ev, strlen(ev), NULL, &err) == 0, "%s", err.message);
	check_node_indexes(c);
	ck_assert_int_eq(ds_cluster_copy(c, &d, &err), 0);
	check_node_indexes(d);
	ck_assert_int_eq(ds_cluster_remove(d, "Node", NULL, "n1", &err), 0);
	check_node_indexes(d);
	check_node_indexes(c);
	ds_cluster_free(d);
	ds_cluster_free(c);
}
END_TEST

/* A batch's nodes and pods share a block; replacing, removing and copying them one by one keeps
 * every other object intact (ASan checks the frees). */
START_TEST(slab_objects_live_independently)
{
	ds_cluster *c, *d;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, NULL), 0);
	const char *page =
		"{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
		"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"a\":\"1\",\"b\":"
		"\"2\"}},"
		"\"spec\":{\"taints\":[{\"key\":\"t\",\"effect\":\"NoSchedule\"}]}},"
		"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\",\"labels\":{\"a\":\"3\"}}},"
		"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n3\"}},"
		"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p1\",\"namespace\":\"d\",\"labels\":{"
		"\"app\":\"x\"}},"
		"\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"c\"}]}},"
		"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p2\",\"namespace\":\"d\"},"
		"\"spec\":{\"nodeName\":\"n2\",\"containers\":[{\"name\":\"c\"}]}}]}";
	ck_assert_msg(ds_cluster_load(c, page, strlen(page), NULL, &err) == 0, "%s", err.message);
	const dsi_node *n1 = dsi_cluster_node_by_name(c, "n1"), *n2 = dsi_cluster_node_by_name(c, "n2");
	ck_assert_ptr_nonnull(n1->slab);
	ck_assert_ptr_eq(n1->slab, n2->slab);
	ck_assert_uint_eq(n1->meta.labels.n, 2);
	ck_assert_uint_eq(n1->taints.n, 1);
	/* replace n1 and p1, remove n2 and p2: n3 and the new objects stay whole */
	add_node(c, "n1", "z");
	add_pod(c, "p1", "n3");
	ck_assert_int_eq(ds_cluster_remove(c, "Node", NULL, "n2", &err), 0);
	ck_assert_int_eq(ds_cluster_remove(c, "Pod", "d", "p2", &err), 0);
	ck_assert_ptr_null(dsi_cluster_node_by_name(c, "n1")->slab); /* one object: no block */
	ck_assert_ptr_nonnull(dsi_cluster_node_by_name(c, "n3")->slab);
	ck_assert_int_eq(ds_cluster_copy(c, &d, &err), 0);
	ds_cluster_free(c);
	n1 = dsi_cluster_node_by_name(d, "n1");
	ck_assert_ptr_eq(n1->slab, dsi_cluster_node_by_name(d, "n3")->slab); /* the copy packs its batch */
	ck_assert_uint_eq(n1->meta.labels.n, 1);
	ck_assert_str_eq(dsi_cstr(d, dsi_labels_get(&n1->meta.labels, dsi_atom_lookup_cstr(&d->atoms, "l"))), "z");
	ck_assert_ptr_nonnull(dsi_cluster_node_by_name(d, "n3"));
	check_node_indexes(d);
	ds_cluster_free(d);
}
END_TEST

/* dsi_cluster.label_key_nodes against a recount of every node's label keys */
static void check_label_key_counts(const ds_cluster *c)
{
	size_t end = c->label_key_cap > c->atoms.count ? c->label_key_cap : c->atoms.count;
	for (dsi_atom k = 1; k < end; k++) {
		uint32_t n = 0;
		for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_NODE); i++)
			n += dsi_labels_get(&dsi_cluster_node_at(c, i)->meta.labels, k) != DSI_ATOM_NONE;
		ck_assert_msg(dsi_cluster_nodes_with_label_key(c, k) == n, "key %u (%s): %u nodes counted, %u have it",
			      k, dsi_cstr(c, k), dsi_cluster_nodes_with_label_key(c, k), n);
	}
}

static int desired(ds_cluster *c)
{
	ds_status st = {.size = sizeof(st)};
	ds_error err;
	ck_assert_msg(ds_status_compute(c, "d", "gpu", 0, NULL, &st, &err) == 0, "%s", err.message);
	return st.desired_number_scheduled;
}

/* Placement decides a requirement on a key that no node has once per sync, trusting the
 * snapshot's count of nodes per label key: the count follows every way a node comes and goes. */
START_TEST(label_key_counts_follow_changes)
{
	ds_cluster *c, *d;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, NULL), 0);
	const char *ds =
		"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"gpu\","
		"\"namespace\":\"d\",\"uid\":\"u\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"g\"}},"
		"\"template\":{\"metadata\":{\"labels\":{\"app\":\"g\"}},\"spec\":{\"affinity\":{\"nodeAffinity\":"
		"{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":"
		"[{\"key\":\"gpu\",\"operator\":\"In\",\"values\":[\"yes\"]},{\"key\":\"l\",\"operator\":"
		"\"NotIn\",\"values\":[\"x\"]}]}]}}},\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}";
	ck_assert_msg(ds_cluster_load(c, ds, strlen(ds), NULL, &err) == 0, "%s", err.message);
	check_label_key_counts(c);
	ck_assert_int_eq(desired(c), 0);
	add_node(c, "n1", "a");
	add_node(c, "n2", "a");
	check_label_key_counts(c);
	ck_assert_int_eq(desired(c), 0); /* no node has gpu: the term is decided before any node */
	const char *gpu = "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\","
			  "\"labels\":{\"gpu\":\"yes\",\"l\":\"b\"}}}";
	ck_assert_int_eq(ds_cluster_load(c, gpu, strlen(gpu), NULL, &err), 0); /* n2 replaced in place */
	check_label_key_counts(c);
	ck_assert_int_eq(desired(c), 1);
	ck_assert_int_eq(ds_cluster_copy(c, &d, &err), 0);
	check_label_key_counts(d);
	ck_assert_int_eq(desired(d), 1);
	ck_assert_int_eq(ds_cluster_remove(d, "Node", NULL, "n2", &err), 0);
	check_label_key_counts(d);
	ck_assert_int_eq(desired(d), 0);
	ck_assert_int_eq(desired(c), 1); /* the copy's counts are its own */
	ds_cluster_free(d);
	/* a failed batch counts nothing; events add, replace and delete */
	const char *broken = "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[{\"apiVersion\":\"v1\",\"kind\":"
			     "\"Node\",\"metadata\":{\"name\":\"n5\",\"labels\":{\"gpu\":\"yes\"}}},{\"kind\":\"Node\","
			     "\"metadata\":{\"name\":7}}]}";
	ck_assert_int_ne(ds_cluster_load(c, broken, strlen(broken), NULL, &err), 0);
	check_label_key_counts(c);
	const char *ev = "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":"
			 "{\"name\":\"n3\",\"labels\":{\"gpu\":\"yes\"}}}}\n"
			 "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":"
			 "{\"name\":\"n2\"}}}\n"
			 "{\"type\":\"DELETED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":"
			 "{\"name\":\"n1\"}}}\n";
	ck_assert_msg(ds_cluster_apply_events(c, ev, strlen(ev), NULL, &err) == 0, "%s", err.message);
	check_label_key_counts(c);
	ck_assert_int_eq(desired(c), 1); /* n3 has gpu and no l */
	ck_assert_int_eq(dsi_cluster_nodes_with_label_key(c, dsi_atom_lookup_cstr(&c->atoms, "l")), 0);
	ck_assert_int_eq(ds_cluster_remove(c, "Node", NULL, "n3", &err), 0);
	check_label_key_counts(c);
	ck_assert_int_eq(desired(c), 0);
	ds_cluster_free(c);
}
END_TEST

START_TEST(watch_events)
{
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, NULL), 0);
	const char *ev =
		"{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"}"
		"}}\n"
		"{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}"
		"}}\n"
		"{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"resourceVersion\":\"9\"}}}\n"
		"{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n3\"}"
		"}}\n"
		"{\"type\":\"DELETED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":"
		"\"n2\"}}}\n";
	size_t n;
	ck_assert_msg(ds_cluster_apply_events(c, ev, strlen(ev), &n, &err) == 0, "%s %s", err.path, err.message);
	ck_assert_uint_eq(ds_cluster_count(c, "Node"), 2);
	ck_assert_str_eq(dsi_cstr(c, dsi_cluster_node_at(c, 0)->meta.name), "n1");
	ck_assert_str_eq(dsi_cstr(c, dsi_cluster_node_at(c, 1)->meta.name), "n3");
	const char *bad =
		"{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"message\":\"too old resource version\"}}";
	ck_assert_int_eq(ds_cluster_apply_events(c, bad, strlen(bad), NULL, &err), DS_ETRANSPORT);
	ck_assert_ptr_nonnull(strstr(err.message, "too old resource version"));
	const char *weird = "{\"type\":\"RENAMED\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"name\":\"x\"}}}";
	ck_assert_int_eq(ds_cluster_apply_events(c, weird, strlen(weird), NULL, &err), DS_EVALUE);
	ck_assert_str_eq(err.path, "type");
	ds_cluster_free(c);
}
END_TEST

START_TEST(failed_load_changes_nothing)
{
	ds_cluster *c = dsi_test_load_sample();
	uint64_t version = c->version;
	/* the first document is fine, the second has a bad taint effect: nothing may be applied */
	const char *text = "apiVersion: v1\nkind: Node\nmetadata: {name: new-node}\n---\n"
			   "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: x}\n"
			   "- apiVersion: v1\n  kind: Node\n  metadata: {name: yy}\n  spec:\n    taints:\n"
			   "    - {key: a, effect: NoSchedule}\n    - {key: b, effect: Sometimes}\n";
	ds_error err;
	ck_assert_int_eq(ds_cluster_load(c, text, strlen(text), NULL, &err), DS_EVALUE);
	ck_assert_str_eq(err.path, "items[1].spec.taints[1].effect");
	/* the document, and where in the text the offending field is (not where its document starts) */
	ck_assert_str_eq(err.source, "document 2");
	ck_assert_int_eq(err.line, 17);
	ck_assert_int_eq(err.column, 16);
	ck_assert_ptr_nonnull(strstr(err.message, "NoSchedule"));
	ck_assert_uint_eq(ds_cluster_count(c, "Node"), 6);
	ck_assert_ptr_null(dsi_cluster_node_by_name(c, "new-node"));
	ck_assert_uint_eq(c->version, version);
	ds_cluster_free(c);
}
END_TEST

/* Every field the library reads, with a wrong type, gives DS_ETYPE at its path. */
START_TEST(wrong_types_have_paths)
{
	static const struct {
		const char *doc, *path;
		int code;
	} cases[] = {
		{"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":1}}", "metadata.name", DS_ETYPE},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\",\"labels\":{\"a\":1}}}",
		 "metadata.labels.a", DS_ETYPE},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\",\"labels\":{\"app.kubernetes."
		 "io/x\":true}}}",
		 "metadata.labels[\"app.kubernetes.io/x\"]", DS_ETYPE},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":{\"taints\":{}}}",
		 "spec.taints", DS_ETYPE},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":{\"taints\":[{"
		 "\"key\":\"a\","
		 "\"effect\":\"NoSchedule\",\"timeAdded\":\"x\"}]}}",
		 "spec.taints[0].timeAdded", DS_EVALUE},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":{\"unschedulable\":"
		 "\"yes\"}}",
		 "spec.unschedulable", DS_ETYPE},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"status\":{\"allocatable\":{"
		 "\"cpu\":\"lots\"}}}",
		 "status.allocatable.cpu", DS_EVALUE},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"status\":{\"conditions\":[{"
		 "\"type\":\"Ready\","
		 "\"status\":\"True\",\"lastTransitionTime\":\"yesterday\"}]}}",
		 "status.conditions[0].lastTransitionTime", DS_EVALUE},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{"
		 "\"name\":\"c\","
		 "\"ports\":[{\"containerPort\":80,\"hostPort\":\"80\"}]}]}}",
		 "spec.containers[0].ports[0].hostPort", DS_ETYPE},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"priority\":"
		 "3000000000}}",
		 "spec.priority", DS_ETYPE},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"status\":{\"phase\":"
		 "\"Sleeping\"}}",
		 "status.phase", DS_EVALUE},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"ownerReferences\":[{"
		 "\"controller\":\"true\"}]}}",
		 "metadata.ownerReferences[0].controller", DS_ETYPE},
		{"{\"apiVersion\":\"apps/"
		 "v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"d\"},\"spec\":{\"template\":{\"spec\":"
		 "{\"tolerations\":[{\"key\":\"a\",\"operator\":\"Maybe\"}]}}}}",
		 "spec.template.spec.tolerations[0].operator", DS_EVALUE},
		{"{\"apiVersion\":\"apps/"
		 "v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"d\"},\"spec\":{\"updateStrategy\":"
		 "{\"rollingUpdate\":{\"maxUnavailable\":true}}}}",
		 "spec.updateStrategy.rollingUpdate.maxUnavailable", DS_ETYPE},
		{"{\"apiVersion\":\"apps/"
		 "v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"d\"},\"spec\":{\"minReadySeconds\":1.5}}",
		 "spec.minReadySeconds", DS_ETYPE},
		{"{\"apiVersion\":\"apps/"
		 "v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"d\"},\"spec\":{\"template\":{\"spec\":"
		 "{\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{"
		 "\"nodeSelectorTerms\":"
		 "[{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\",\"values\":[1]}]}]}}}}}}}",
		 "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
		 "nodeSelectorTerms[0]."
		 "matchExpressions[0].values[0]",
		 DS_ETYPE},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{}}", "metadata.name", DS_EMISSING},
		{"{\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n\"}}", "kind", DS_EMISSING},
		{"{\"apiVersion\":\"extensions/v1beta1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"d\"}}",
		 "apiVersion", DS_EUNSUPPORTED},
		{"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"status\":{\"allocatable\":"
		 "{\"memory\":\"99999999999999999999999999\"}}}",
		 "status.allocatable.memory", DS_EVALUE},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ds_cluster *c;
		ck_assert_int_eq(ds_cluster_new(NULL, &c, NULL), 0);
		ds_error err;
		int rc = ds_cluster_load(c, cases[i].doc, strlen(cases[i].doc), NULL, &err);
		ck_assert_msg(rc == cases[i].code && strcmp(err.path, cases[i].path) == 0,
			      "case %zu: rc %d (%s) path '%s' message '%s'; want %d at '%s'", i, rc, ds_strerror(rc),
			      err.path, err.message, cases[i].code, cases[i].path);
		ck_assert_msg(err.message[0], "case %zu: no message", i);
		ck_assert_uint_eq(
			ds_cluster_count(c, "Node") + ds_cluster_count(c, "Pod") + ds_cluster_count(c, "DaemonSet"), 0);
		ds_cluster_free(c);
	}
}
END_TEST

START_TEST(copy_is_independent)
{
	ds_cluster *c = dsi_test_load_sample(), *d;
	ds_error err;
	ck_assert_int_eq(ds_cluster_copy(c, &d, &err), 0);
	ck_assert_uint_eq(ds_cluster_count(d, "Node"), 6);
	ck_assert_uint_eq(ds_cluster_count(d, "DaemonSet"), 3);
	ck_assert_int_eq(ds_cluster_remove(d, "Node", NULL, "worker-1", &err), 0);
	ck_assert_uint_eq(ds_cluster_count(d, "Node"), 5);
	ck_assert_uint_eq(ds_cluster_count(c, "Node"), 6);
	ck_assert_ptr_nonnull(dsi_cluster_daemonset(d, "kube-system", "fluentd-logging"));
	ds_cluster_free(c);
	ck_assert_ptr_nonnull(dsi_cluster_node_by_name(d, "gpu-1"));
	ds_cluster_free(d);
}
END_TEST

/* The reference counts of every value of the snapshot's stored JSON, in a fixed order. */
static void counts_of(const json_t *v, size_t *out, size_t *n, size_t cap)
{
	if (*n < cap)
		out[*n] = v->refcount;
	(*n)++;
	const char *k;
	json_t *x;
	size_t i;
	if (json_is_object(v))
		json_object_foreach((json_t *)v, k, x) counts_of(x, out, n, cap);
	else if (json_is_array(v))
		json_array_foreach(v, i, x) counts_of(x, out, n, cap);
}

static size_t snapshot_counts(const ds_cluster *c, size_t *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_DAEMONSET); i++) {
		const dsi_daemonset *ds = c->objs[DSI_KIND_DAEMONSET].v[i];
		counts_of(ds->obj, out, &n, cap);
		counts_of(ds->patch, out, &n, cap);
	}
	for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_REVISION); i++)
		counts_of(((const dsi_revision *)c->objs[DSI_KIND_REVISION].v[i])->obj, out, &n, cap);
	for (size_t i = 0; i < dsi_cluster_count(c, DSI_KIND_PDB); i++)
		counts_of(((const dsi_pdb *)c->objs[DSI_KIND_PDB].v[i])->obj, out, &n, cap);
	return n;
}

/* Threads may share a snapshot and a plan (daemonset(7), THREAD SAFETY), and jansson reads a reference count
 * non-atomically before changing it: no read-only call may keep (or take) a reference to the snapshot's JSON.
 * A copy, plans and the results built from them leave every count as it was (make tsan sees the transient ones
 * that our own code takes; this sees those kept inside jansson's containers too). */
START_TEST(reads_leave_reference_counts)
{
	ds_cluster *c = dsi_test_load_sample(), *copy = NULL;
	ds_error err;
	/* a DaemonSet without a ControllerRevision: its plan creates one from the DaemonSet's patch */
	static const char extra[] =
		"{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"extra\",\"namespace\":"
		"\"default\",\"uid\":\"u-extra\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"x\"}},"
		"\"template\":{\"metadata\":{\"labels\":{\"app\":\"x\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
		"\"image\":\"i\"}]}}}}";
	ck_assert_msg(ds_cluster_load(c, extra, sizeof(extra) - 1, NULL, &err) == 0, "%s", err.message);
	enum { CAP = 20000 };
	size_t *before = calloc(CAP, sizeof(size_t)), *after = calloc(CAP, sizeof(size_t));
	ck_assert_ptr_nonnull(before);
	ck_assert_ptr_nonnull(after);
	size_t n = snapshot_counts(c, before, CAP);
	ck_assert_uint_gt(n, 100);
	ck_assert_uint_le(n, CAP);
	ck_assert_int_eq(ds_cluster_copy(c, &copy, &err), 0);
	ds_plan *plans[8] = {NULL};
	size_t nplans = 0;
	const char *ns, *name;
	for (size_t i = 0; nplans < 8 && ds_cluster_daemonset_at(c, i, &ns, &name, &err) == 0; i++) {
		ck_assert_int_eq(ds_daemonset_plan(c, ns, name, 1796223600000LL, NULL, NULL, 0, &plans[nplans], &err),
				 0);
		char *out = NULL;
		ck_assert_int_eq(ds_plan_to_json(plans[nplans++], &out, &err), 0);
		ds_free(out);
		ck_assert_int_eq(ds_cluster_get(c, "DaemonSet", ns, name, &out, &err), 0);
		ds_free(out);
		ck_assert_int_eq(ds_daemonset_history(c, ns, name, NULL, &out, &err), 0);
		ds_free(out);
		if (ds_daemonset_rollback(c, ns, name, 0, NULL, &out, &err) == 0)
			ds_free(out);
	}
	char *plan_json = NULL;
	ck_assert_int_eq(ds_plan_to_json(plans[nplans - 1], &plan_json, &err), 0);
	ck_assert_ptr_nonnull(strstr(plan_json, "\"create\":{\"apiVersion\":\"apps/v1\",\"data\""));
	ds_free(plan_json);
	ck_assert_uint_eq(snapshot_counts(c, after, CAP), n);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(after[i] == before[i], "value %zu of the stored JSON: %zu references, %zu before", i,
			      after[i], before[i]);
	for (size_t i = 0; i < nplans; i++)
		ds_plan_free(plans[i]);
	ds_cluster_free(copy);
	free(before);
	free(after);
	ds_cluster_free(c);
}
END_TEST

/* The accessors' shape (daemonset(7), Accessors): node i in name order, DS_EARG past the end; the 1.1 form
 * returns NULL there. */
START_TEST(node_names_by_index)
{
	ds_cluster *c = dsi_test_load_sample();
	ds_error err;
	const char *name = "x";
	ck_assert_int_eq(ds_cluster_node_name_at(c, 0, &name, &err), 0);
	ck_assert_str_eq(name, "cp-1");
	ck_assert_int_eq(ds_cluster_node_name_at(c, 5, &name, &err), 0);
	ck_assert_str_eq(name, "worker-4");
	ck_assert_int_eq(ds_cluster_node_name_at(c, 6, &name, &err), DS_EARG);
	ck_assert_ptr_null(name);
	ck_assert_str_eq(err.message, "Node 6 out of range (6)");
	ck_assert_int_eq(ds_cluster_node_name_at(NULL, 0, &name, &err), DS_EARG);
	ck_assert_str_eq(err.message, "cluster must not be NULL");
	ck_assert_int_eq(ds_cluster_node_name_at(c, 0, NULL, &err), DS_EARG);
	ck_assert_str_eq(err.message, "name must not be NULL");
	ck_assert_str_eq(ds_cluster_node_at(c, 1), "gpu-1");
	ck_assert_ptr_null(ds_cluster_node_at(c, 6));
	ck_assert_ptr_null(ds_cluster_node_at(NULL, 0));
	ds_cluster_free(c);
}
END_TEST

START_TEST(legacy_daemonsets_with_option)
{
	ds_options *o;
	ds_error err;
	ck_assert_int_eq(ds_options_new(&o), 0);
	ck_assert_int_eq(ds_options_set(o, "legacyDaemonSets", "true", &err), 0);
	ds_cluster *c;
	ck_assert_int_eq(ds_cluster_new(o, &c, &err), 0);
	ds_options_free(o);
	const char *ds = "apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata: {name: old, namespace: default}\n"
			 "spec:\n  template:\n    metadata:\n      labels: {app: old}\n    spec:\n      containers: "
			 "[{name: c}]\n";
	ck_assert_msg(ds_cluster_load(c, ds, strlen(ds), NULL, &err) == 0, "%s", err.message);
	const dsi_daemonset *d = dsi_cluster_daemonset(c, "default", "old");
	ck_assert_ptr_nonnull(d);
	/* extensions/v1beta1 defaulted the selector from the template labels and the strategy to OnDelete */
	ck_assert_int_eq(d->strategy, DSI_STRATEGY_ON_DELETE);
	ck_assert(!dsi_selector_is_nothing(&d->selector));
	ck_assert(dsi_selector_matches(&c->atoms, &d->selector, &d->template_labels));
	ds_cluster_free(c);
}
END_TEST

START_TEST(many_nodes_in_pages)
{
	ds_cluster *c;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, NULL), 0);
	/* pages of nodes in reverse name order, as a paged list could deliver them */
	for (int page = 9; page >= 0; page--) {
		json_t *list = json_pack("{s:s, s:s, s:[]}", "apiVersion", "v1", "kind", "NodeList", "items");
		for (int i = 99; i >= 0; i--) {
			char name[32];
			snprintf(name, sizeof(name), "node-%03d", page * 100 + i);
			json_array_append_new(json_object_get(list, "items"),
					      json_pack("{s:{s:s}}", "metadata", "name", name));
		}
		ds_error err;
		ck_assert_int_eq(ds_cluster_load_json(c, (const struct json_t *)list, NULL, &err), 0);
		json_decref(list);
	}
	ck_assert_uint_eq(ds_cluster_count(c, "Node"), 1000);
	for (size_t i = 0; i < 1000; i++) {
		char want[32];
		snprintf(want, sizeof(want), "node-%03zu", i);
		ck_assert_str_eq(dsi_cstr(c, dsi_cluster_node_at(c, i)->meta.name), want);
	}
	ds_cluster_free(c);
}
END_TEST

/* A jansson value is copied, not kept: later changes by the host do not show, and its
 * reference count is back where it was. */
START_TEST(load_json_does_not_keep_host_values)
{
	ds_cluster *c;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, NULL), 0);
	json_t *ds = json_pack("{s:s, s:s, s:{s:s, s:s}, s:{s:{s:{s:s}}, s:{s:{s:{s:s}}, s:{s:[{s:s, s:s}]}}}}",
			       "apiVersion", "apps/v1", "kind", "DaemonSet", "metadata", "name", "agent", "namespace",
			       "kube-system", "spec", "selector", "matchLabels", "app", "agent", "template", "metadata",
			       "labels", "app", "agent", "spec", "containers", "name", "a", "image", "a:1");
	ds_error err;
	ck_assert_int_eq(ds_cluster_load_json(c, (const struct json_t *)ds, NULL, &err), 0);
	ck_assert_uint_eq(ds->refcount, 1);
	json_object_set_new(json_object_get(ds, "metadata"), "name", json_string("changed"));
	char *out = NULL;
	ck_assert_int_eq(ds_cluster_get(c, "DaemonSet", "kube-system", "agent", &out, &err), 0);
	json_t *got = json_loads(out, 0, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(got, "metadata"), "name")), "agent");
	json_decref(got);
	ds_free(out);
	json_decref(ds);
	ds_cluster_free(c);
}
END_TEST

/* Objects of other kinds are kept by group and kind, however long (a fixed buffer overflowed here). */
START_TEST(long_kind_is_kept)
{
	char kind[700];
	memset(kind, 'K', sizeof(kind) - 1);
	kind[sizeof(kind) - 1] = '\0';
	json_t *o =
		json_pack("{s:s, s:s, s:{s:s}}", "apiVersion", "example.com/v1", "kind", kind, "metadata", "name", "a");
	char *text = json_dumps(o, 0);
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, NULL), 0);
	ck_assert_msg(ds_cluster_load(c, text, strlen(text), NULL, &err) == 0, "%s", err.message);
	ck_assert_uint_eq(ds_cluster_count(c, "Other"), 1);
	ds_cluster_free(c);
	free(text);
	json_decref(o);
}
END_TEST

/* JSON with a float beyond float64 is refused (encoding/json's error), not re-read as
 * YAML, which would keep the number as a string; the same text as YAML is a string. */
START_TEST(json_float_overflow_is_an_error)
{
	static const char json_text[] = "{\"kind\":\"Node\",\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"y\"}},"
					"\"status\":{\"capacity\":{\"cpu\":1e309}}}";
	ds_cluster *c;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, NULL), 0);
	ck_assert_int_eq(ds_cluster_load(c, json_text, strlen(json_text), NULL, &err), DS_EVALUE);
	ck_assert_int_eq(err.line, 1);
	ck_assert_ptr_nonnull(strstr(err.message, "float64"));
	ck_assert_uint_eq(ds_cluster_count(c, "Node"), 0);
	ds_cluster_free(c);
}
END_TEST

static Suite *cluster_suite(void)
{
	Suite *s = suite_create("snapshot");
	TCase *tc = tcase_create("snapshot");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sample_cluster_loads);
	tcase_add_test(tc, pod_indexes_follow_updates);
	tcase_add_test(tc, pods_know_their_node_index);
	tcase_add_test(tc, owner_groups_follow_changes);
	tcase_add_test(tc, slab_objects_live_independently);
	tcase_add_test(tc, label_key_counts_follow_changes);
	tcase_add_test(tc, watch_events);
	tcase_add_test(tc, failed_load_changes_nothing);
	tcase_add_test(tc, wrong_types_have_paths);
	tcase_add_test(tc, copy_is_independent);
	tcase_add_test(tc, reads_leave_reference_counts);
	tcase_add_test(tc, node_names_by_index);
	tcase_add_test(tc, legacy_daemonsets_with_option);
	tcase_add_test(tc, many_nodes_in_pages);
	tcase_add_test(tc, load_json_does_not_keep_host_values);
	tcase_add_test(tc, long_kind_is_kept);
	tcase_add_test(tc, json_float_overflow_is_an_error);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(cluster_suite)
