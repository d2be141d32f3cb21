/*
 * The Go structs upstream's functions return, written as text without building them: what
 * dsi_go_encode makes of a copy of a value, printed by dsi_json_emit (compact, keys sorted), written
 * straight from the value it is made of, with the changes the function makes given as a patch. A
 * pure function's result (a PodSpec with its tolerations merged, an Affinity pinned to a node, the
 * Pod NewPod makes) is mostly its input: writing it from the input costs a walk, where the tree
 * costs a deep copy, a rewrite and a dump.
 */
#ifndef DSI_GOEMIT_H
#define DSI_GOEMIT_H

#include <jansson.h>

#include "core/jsonout.h"

/*
 * Write into o what dsi_json_dumps(dsi_go_encode(v'), JSON_COMPACT | JSON_SORT_KEYS) writes, v' being
 * a deep copy of v (schema type `type`, Go kind and field flags `flags`: DSI_GO_STRUCT for a whole
 * object) with patch (NULL: none) merged into it as json_object_set would merge it member by member:
 * each member of an object patch replaces v's member of that name, but an object merges into an
 * object of v recursively (RFC 7386's merge patch, where null deletes nothing); a member v lacks is
 * added. v NULL: absent (the patch alone). Neither v nor patch is modified or referenced, so both may
 * be shared with other threads.
 *
 * Where the tree's dump would go to jansson (a real number, a string that is not UTF-8, a value nested
 * too deep) or a merged member's omitzero would need the merged value, o->fail becomes 1 and the
 * caller builds the tree instead; -1: out of memory.
 */
void dsi_go_emit(dsi_jout *o, const json_t *v, const json_t *patch, int type, unsigned flags);

/* A member of the top-level object that its caller writes (a typed list it holds, without a JSON
 * tree): it replaces v's member of that name, or is added; where the field is omitempty and empty
 * says the value is empty, it is left out. */
typedef struct dsi_go_member {
	const char *key;
	void (*write)(dsi_jout *o, const void *ctx);
	json_t *(*json)(const void *ctx); /* the same value as JSON (new reference, NULL: no memory), for a
					   * caller that builds the tree where the writer hands it back */
	const void *ctx;
	int empty;
} dsi_go_member;

/* dsi_go_emit with member m (NULL: none) written by its caller; where the value (the patch merged)
 * is no object, the member goes into an object of its own. */
void dsi_go_emit_with(dsi_jout *o, const json_t *v, const json_t *patch, int type, unsigned flags,
		      const dsi_go_member *m);

/* The merge dsi_go_emit writes, on a tree: patch (an object) merged into target (an object, changed),
 * its values copied. 0, or -1 without memory (target then partly merged). */
int dsi_go_merge(json_t *target, const json_t *patch);

#endif
