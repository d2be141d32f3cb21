/*
 * Text to Kubernetes objects: JSON or YAML (detected), a single object, a
 * List or any *List kind (items flattened, their kind and apiVersion taken
 * from the list when absent, as the API server's list responses omit them),
 * concatenated JSON values, multi-document YAML streams, empty documents.
 */
#ifndef DSI_LOAD_H
#define DSI_LOAD_H

#include <jansson.h>
#include <stddef.h>

#include "core/error.h"
#include "core/exec.h"
#include "core/keyscan.h"
#include "core/limits.h"

typedef struct dsi_loaded {
	json_t *obj;             /* borrowed for the duration of the callback */
	const char *path;        /* "items[3]" inside a list, "" otherwise */
	const char *kind;        /* obj's kind, or the one implied by its list; may be NULL */
	const char *api_version; /* likewise */
	size_t document;         /* 0-based document index in the stream */
	int line;                /* line where the document starts (YAML), 0 for JSON */
} dsi_loaded;

/* Return 0 to continue or a negative code (with err filled) to stop. */
typedef int (*dsi_load_fn)(void *ctx, const dsi_loaded *item, ds_error *err);

int dsi_load_text(const char *data, size_t size, const dsi_limits *lim, dsi_load_fn fn, void *ctx, ds_error *err);
/* The same, for callers that stage what fn gets and can drop it: the items of
 * a JSON List are parsed and handed to fn one at a time, never as one tree.
 * The outcome is dsi_load_text's, with two differences that staging hides:
 * fn may see items before a syntax error further on ends the load (with the
 * error dsi_load_text gives), and when that error sends the text to the YAML
 * parser instead, undo(ctx) is called first and must forget every item fn got
 * during this call. */
typedef void (*dsi_load_undo_fn)(void *ctx);
int dsi_load_text_staged(const char *data, size_t size, const dsi_limits *lim, dsi_load_fn fn, dsi_load_undo_fn undo,
			 void *ctx, ds_error *err);

/*
 * The items of a JSON List parsed and staged on several threads, for callers that can stage into
 * per-thread staging and commit it in item order (the snapshot). For each thread, worker_new(ctx)
 * makes its staging (on the caller's thread, before any starts); each thread then parses items and
 * gives each to item(worker, it, seq, err) with seq its place in the text (items of a List are
 * numbered in order across the whole call). When every item was staged, merge(ctx, workers, n, err)
 * takes them all, in seq order; else the load forgets them (worker_free, after merge too) and parses
 * the List again on the caller's thread alone, through fn, so that its outcome and its errors are
 * those of the serial load, item for item.
 */
typedef struct dsi_load_par {
	const dsi_exec *exec;
	unsigned threads; /* the option loadThreads */
	void *(*worker_new)(void *ctx);
	int (*item)(void *worker, const dsi_loaded *it, size_t seq, ds_error *err);
	int (*merge)(void *ctx, void **workers, unsigned n, ds_error *err);
	void (*worker_free)(void *ctx, void *worker);
} dsi_load_par;

/* dsi_load_text_staged, with par (may be NULL) for large Lists, and skip (DSI_FRONT_*,
 * core/jsonfront.h): what the trees of a List's items may leave out, for a fn that never reads it
 * (errors are unchanged: a text that does not parse is reported from the whole of it). */
int dsi_load_text_par(const char *data, size_t size, const dsi_limits *lim, dsi_load_fn fn, dsi_load_undo_fn undo,
		      const dsi_load_par *par, unsigned skip, void *ctx, ds_error *err);
/* Told of each typed List ("<Kind>List", not "List") that a load reads, whatever its items (some,
 * none, or null): the items' kind ("PersistentVolumeClaim") and the list's apiVersion (may be NULL),
 * in a JSON text once its items have all been handed out, else before them; possibly more than once
 * for one List (record it idempotently), and undo must forget it too. So that a caller can tell
 * "the input listed none of this kind" from "the input did not list this kind". */
typedef void (*dsi_load_list_fn)(void *ctx, const char *item_kind, const char *api_version);
/* dsi_load_text_par with list (may be NULL) told of the typed Lists. */
int dsi_load_text_lists(const char *data, size_t size, const dsi_limits *lim, dsi_load_fn fn, dsi_load_undo_fn undo,
			const dsi_load_par *par, unsigned skip, dsi_load_list_fn list, void *ctx, ds_error *err);
/* The same, telling obs (may be NULL) about the keys of the text (keyscan.h); with an observer a
 * repeated key is no error (the later value wins) and a List is never staged. */
int dsi_load_text_observed(const char *data, size_t size, const dsi_limits *lim, const dsi_keyobs *obs, dsi_load_fn fn,
			   void *ctx, ds_error *err);
/* The same for an already-parsed value (not modified). */
int dsi_load_value(const json_t *v, const dsi_limits *lim, dsi_load_fn fn, void *ctx, ds_error *err);
/* dsi_load_value with list (may be NULL) told of the typed Lists (dsi_load_text_lists). */
int dsi_load_value_lists(const json_t *v, const dsi_limits *lim, dsi_load_fn fn, dsi_load_list_fn list, void *ctx,
			 ds_error *err);
/* json_loadb of JSON-only text (flags: jansson's decoding flags); a failure is DS_ESYNTAX at path (may be NULL)
 * with jansson's message after prefix ("" for none) and its line and column. */
int dsi_json_loadb(const char *text, size_t size, size_t flags, const char *path, const char *prefix, json_t **out,
		   ds_error *err);
/* Parse text (JSON or YAML, exactly one document) into a new tree. */
int dsi_parse_one(const char *data, size_t size, const dsi_limits *lim, json_t **out, ds_error *err);
/* The same with an observer of the keys (document 0), as dsi_load_text_observed. */
int dsi_parse_one_observed(const char *data, size_t size, const dsi_limits *lim, const dsi_keyobs *obs, json_t **out,
			   ds_error *err);

#endif
