/* The synthetic cluster of make bench (gen.c), shared by bench.c and ingest.c. */
#ifndef BENCH_GEN_H
#define BENCH_GEN_H

#include <stddef.h>

/* A growable text buffer; put appends printf-style (aborts without memory). */
typedef struct buf {
	char *p;
	size_t n, cap;
} buf;
void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
unsigned rnd(unsigned *s);

extern const char *const ds_names[4];
extern const char *const ds_hash_new[4];
extern const char *const ds_hash_old[4];

/* Node i (~10 KB: 25 labels, 0-3 taints, 40 images, 4 conditions); seed advances. */
void gen_node(buf *b, int i, unsigned *seed);
/* Whether DaemonSet d runs on node i (mirrors their selectors). */
int ds_on_node(int d, int i);
/* The pod of DaemonSet d on node (app: the web pod instead), ~4 KB. */
void gen_pod(buf *b, int node, int d, int app);
/* gen_pod with a replica number: k > 0 names a further web pod on the node (web-NNNNNN-k, its own uid);
 * k = 0 is gen_pod. */
void gen_pod_k(buf *b, int node, int d, int app, int k);
const char *ds_template(int d, int hash_new);
/* The four DaemonSets and their current ControllerRevisions, as a List. */
void gen_daemonsets(buf *b);

/* A List item (JSON text) as YAML: "- " and its members sorted, at indentation 2, as kubectl writes a
 * List's items. */
void yaml_item(buf *b, const char *json, size_t len);

#endif
