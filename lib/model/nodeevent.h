/*
 * Node watch events that change nothing the model reads, recognised from their text without a tree.
 * Kubelets post their Node's status every 40 s (the heartbeat); in such an update only
 * metadata.resourceVersion, the conditions' lastHeartbeatTime and often status.images move, and the
 * model reads none of those but the resourceVersion. The scan hashes the event's object with exactly
 * those three kinds of value masked out (each checked to be in a plain form the full path accepts,
 * otherwise hashed like any other byte); the snapshot keeps the hash of the text each node was last
 * read from (snapshot.c), and an event whose hash is its node's changes only the node's
 * resourceVersion. Everything else, and any event not in the plain form, takes the full path.
 */
#ifndef DSI_NODEEVENT_H
#define DSI_NODEEVENT_H

#include <stddef.h>
#include <stdint.h>

/* The longest resourceVersion the scan masks (digits): longer ones are hashed. */
#define DSI_NODE_EVENT_RV_MAX 20

typedef struct dsi_node_event {
	uint64_t hash[2]; /* the object's text outside the masked values, with a mark for each */
	const char *name; /* metadata.name, in the text (not NUL-terminated) */
	size_t name_len;
	const char *rv; /* metadata.resourceVersion when it was masked (digits), else NULL */
	size_t rv_len;
	int modified; /* type MODIFIED (ADDED otherwise) */
} dsi_node_event;

/* 1 when text[0, size) is exactly one watch event {"type": "ADDED"|"MODIFIED", "object": ...} whose
 * object is a v1 Node, with the keys the scan reads spelt plainly (no escapes, no second spelling
 * that Go's decoder would take for them), *out filled; 0 for anything else. Reads each byte once,
 * allocates nothing, never fails otherwise. */
int dsi_node_event_scan(const char *text, size_t size, dsi_node_event *out);

#endif
