/*
 * YAML to JSON as Kubernetes reads it (sigs.k8s.io/yaml on go-yaml v2, strict):
 * YAML 1.1 plain scalars (yes/no/on/off booleans, 0600 octal, 0x hex, 1_000),
 * quoted scalars stay strings, non-string keys become strings, anchors,
 * aliases and merge keys work, duplicate keys are errors (an observer can take
 * them instead, dsi_yaml_parse_observed).
 */
#ifndef DSI_YAML_H
#define DSI_YAML_H

#include <jansson.h>
#include <stddef.h>

#include "core/error.h"
#include "core/exec.h"
#include "core/keyscan.h"
#include "core/limits.h"

/* Called once per non-empty document with a new reference (the callee owns
 * doc); index counts every document from 0, line is where it starts. */
typedef int (*dsi_yaml_doc_fn)(void *ctx, json_t *doc, size_t index, int line);

int dsi_yaml_parse(const char *data, size_t size, const dsi_limits *lim, dsi_yaml_doc_fn fn, void *ctx, ds_error *err);
/* The same, telling obs (may be NULL) about mapping keys; with an observer a repeated key is
 * reported to it and its later value replaces the earlier one (go-yaml's non-strict reading). */
int dsi_yaml_parse_observed(const char *data, size_t size, const dsi_limits *lim, const dsi_keyobs *obs,
			    dsi_yaml_doc_fn fn, void *ctx, ds_error *err);

/*
 * The same, a List's items one at a time (no key observer): each element of a document's sequence under
 * its top-level mapping's key "items" goes to item_fn as soon as it has been read, instead of into the
 * document, which then holds "items": [] in its place (the sequence's anchor, if any, keeps the elements:
 * nothing is handed out). item is a new reference, a tree of its own that the callee owns; i its place in
 * the sequence; root the document's top-level mapping as far as it has been read (the keys before
 * "items"); doc and line as for fn. item_fn returns 0, or an error (err filled) that ends the parse.
 */
typedef int (*dsi_yaml_item_fn)(void *ctx, const json_t *root, json_t *item, size_t i, size_t doc, int line);
/* With exec (may be NULL) and more than one of threads (exec->threads' requested) to be had, a large text
 * is parsed by libyaml on one thread while another builds the documents and calls fn and item_fn, in the
 * same order and with the same outcome as on the caller's thread alone; fn and item_fn then run on a
 * thread of the executor's (one at a time, never two at once). skip (DSI_FRONT_*, core/jsonfront.h): what
 * the items' trees may leave out; DSI_FRONT_NODE_IMAGES: an item whose own kind "Node" comes before its
 * status.images, and whose images are in the plain form dsi_jsonscan_plain_images takes in JSON, gets []
 * in their place (anything else builds them: the outcome and errors are those without skip). */
int dsi_yaml_parse_items(const char *data, size_t size, const dsi_limits *lim, dsi_yaml_doc_fn fn,
			 dsi_yaml_item_fn item_fn, const dsi_exec *exec, unsigned threads, unsigned skip, void *ctx,
			 ds_error *err);

/* Where path ("spec.taints[0].effect", as the readers write paths) is in document `document`
 * (0-based, every document counted, as dsi_yaml_parse counts them) of data: the 1-based line and
 * column of the node (or, for a mapping key whose value is not found, of the key). 0: found; 1:
 * only a leading part of the path was found (a missing field: where its parent is); -1: not even
 * the document. Aliases are not followed. */
int dsi_yaml_locate(const char *data, size_t size, size_t document, const char *path, int *line, int *column);

/* Resolve a plain (unquoted, untagged) scalar as go-yaml v2 does. New reference,
 * or NULL with err set (e.g. ".inf", which JSON cannot carry). */
json_t *dsi_yaml_resolve_plain(const char *text, size_t len, ds_error *err);

#endif
