#include "core/load.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/jsonfast.h"
#include "core/jsonfront.h"
#include "core/jsonscan.h"
#include "core/keyscan.h"
#include "core/reader.h"
#include "core/yaml.h"

typedef struct walker {
	const char *data; /* the text, to find where a field of a YAML document is */
	size_t size;
	const dsi_limits *lim;
	dsi_load_fn fn;
	void *ctx;
	size_t count;
	int yaml;
	dsi_load_undo_fn undo;   /* set: a List's items may be parsed one at a time (see stream_list) */
	const dsi_keyobs *obs;   /* set: keys are reported, repeated keys are no error (keyscan.h) */
	const dsi_load_par *par; /* set: a large List's items may be staged on several threads */
	unsigned skip;           /* DSI_FRONT_*: what a List item's tree may leave out (core/jsonfront.h) */
	dsi_load_list_fn list;   /* set: told of each typed List, whatever its items (dsi_load_text_lists) */
	/* A YAML List's items handed out as they are read (yaml_item), for the document ydoc: those that
	 * wait for the list's kind ([i, item] pairs, in order), and the error of the first that failed,
	 * which stands once the rest of the document has been read. */
	size_t ydoc;
	int ystreamed;
	json_t *ypending;
	int yfailed;
	ds_error yerr;
} walker;

static int is_list_kind(const char *kind)
{
	size_t n = strlen(kind);
	return n >= 4 && strcmp(kind + n - 4, "List") == 0;
}

/* Which document an error is about and, in YAML, where its field is: the offending field's line and
 * column (or its parent's, for a missing field), else the document's first line. */
static void note_document(const walker *w, ds_error *err, size_t document, int line, int yaml)
{
	if (!err || err->source[0])
		return;
	if (yaml) {
		snprintf(err->source, sizeof(err->source), "document %zu", document + 1);
		int l, c;
		if (!err->line && dsi_yaml_locate(w->data, w->size, document, err->path, &l, &c) >= 0)
			dsi_error_set_position(err, l, c);
		else if (!err->line)
			dsi_error_set_position(err, line, 1);
	} else if (document) {
		snprintf(err->source, sizeof(err->source), "JSON value %zu", document + 1);
	}
}

static int emit(walker *w, json_t *obj, const char *path, const char *kind, const char *api, size_t document, int line,
		ds_error *err)
{
	if (++w->count > w->lim->max_objects)
		return dsi_error_set(err, DS_ELIMIT, path, "more than %zu objects in one input", w->lim->max_objects);
	dsi_loaded item = {obj, path, kind, api, document, line};
	return w->fn(w->ctx, &item, err);
}

/* Item i of a list as fn gets it: an object, whose kind and apiVersion default to the list's. path
 * holds at least 48 bytes. */
static int item_loaded(json_t *item, size_t i, const char *item_kind, const char *api, size_t document, int line,
		       char *path, dsi_loaded *out, ds_error *err)
{
	snprintf(path, 48, "items[%zu]", i);
	if (!json_is_object(item))
		return dsi_error_set(err, DS_ETYPE, path, "expected a Kubernetes object, got %s",
				     dsi_json_type_name(item));
	const char *ik, *ia;
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	if (dsi_rd_string(&rd, item, "kind", &ik) < 0 || dsi_rd_string(&rd, item, "apiVersion", &ia) < 0) {
		dsi_error_prefix_path(err, path);
		return err->code;
	}
	/* the item is the list's kind in the list's version (as the API server's list responses leave them
	 * out, and kubectl cluster-info dump writes them): the object says so itself, so that whoever
	 * reads it later (the audit, an update) finds its kind */
	if ((!ik || !*ik) && item_kind[0]) {
		if (json_object_set_new(item, "kind", json_string(item_kind)) < 0)
			return dsi_error_nomem(err);
		ik = json_string_value(json_object_get(item, "kind"));
	}
	if ((!ia || !*ia) && api && *api) {
		if (json_object_set_new(item, "apiVersion", json_string(api)) < 0)
			return dsi_error_nomem(err);
		ia = json_string_value(json_object_get(item, "apiVersion"));
	}
	*out = (dsi_loaded){item, path, ik && *ik ? ik : NULL, ia && *ia ? ia : api, document, line};
	return 0;
}

static int emit_item(walker *w, json_t *item, size_t i, const char *item_kind, const char *api, size_t document,
		     int line, ds_error *err)
{
	char path[48];
	dsi_loaded it;
	int rc = item_loaded(item, i, item_kind, api, document, line, path, &it, err);
	return rc < 0 ? rc : emit(w, item, path, it.kind, it.api_version, document, line, err);
}

/* The kind of a *List's items ("" for List), a new string (NULL without memory). */
static char *list_item_kind(const char *kind)
{
	return strcmp(kind, "List") != 0 ? dsi_strndup(kind, strlen(kind) - 4) : dsi_strdup("");
}

/* One document's top-level value: an object, or a list of objects whose
 * items from index first on are emitted. */
static int walk_value(walker *w, const json_t *v, size_t document, int line, size_t first, ds_error *err)
{
	dsi_rd rd;
	dsi_rd_init(&rd, err);
	if (!json_is_object(v))
		return dsi_error_set(err, DS_ETYPE, NULL, "expected a Kubernetes object, got %s",
				     dsi_json_type_name(v));
	const char *kind, *api;
	if (dsi_rd_string(&rd, v, "kind", &kind) < 0 || dsi_rd_string(&rd, v, "apiVersion", &api) < 0)
		return err->code;
	json_t *items = json_object_get(v, "items");
	if (!(kind && is_list_kind(kind)) || !items)
		return emit(w, (json_t *)v, "", kind, api, document, line, err);
	/* null: Go's nil slice, which every Kubernetes decoder reads as an empty list */
	if (!json_is_null(items) && !json_is_array(items))
		return dsi_rd_fail(&rd, "items", DS_ETYPE, "expected array, got %s", dsi_json_type_name(items));
	char *item_kind = list_item_kind(kind);
	if (!item_kind)
		return dsi_error_nomem(err);
	if (w->list && item_kind[0])
		w->list(w->ctx, item_kind, api);
	int rc = 0;
	for (size_t i = first; rc == 0 && i < json_array_size(items); i++)
		rc = emit_item(w, json_array_get(items, i), i, item_kind, api, document, line, err);
	dsi_free(item_kind);
	return rc < 0 ? rc : 0;
}

/* A document of a YAML stream that loads whole: yaml_doc says so when a document whose items were handed
 * out one at a time turns out not to be a List after all (the load then starts again, without). */
#define YAML_WHOLE (-1000)

static void ystate_reset(walker *w, size_t doc)
{
	w->ydoc = doc;
	w->ystreamed = 0;
	w->yfailed = 0;
	json_decref(w->ypending);
	w->ypending = NULL;
}

/* The items of a document that were handed out one at a time, at its end: what walk_value would have
 * done with them, in its order. */
static int yaml_streamed_doc(walker *w, const json_t *doc, size_t index, int line, ds_error *err)
{
	const char *kind = json_string_value(json_object_get(doc, "kind"));
	const json_t *api = json_object_get(doc, "apiVersion");
	if (!kind || !is_list_kind(kind) || (api && !json_is_null(api) && !json_is_string(api)))
		return YAML_WHOLE; /* walk_value's own checks find what is wrong, or an object with items */
	if (w->yfailed) {
		if (err)
			*err = w->yerr;
		return w->yfailed;
	}
	char *item_kind = list_item_kind(kind);
	if (!item_kind)
		return dsi_error_nomem(err);
	if (w->list && item_kind[0])
		w->list(w->ctx, item_kind, json_string_value(api));
	size_t i;
	json_t *pair;
	int rc = 0;
	json_array_foreach(w->ypending, i, pair)
	{
		rc = emit_item(w, json_array_get(pair, 1), (size_t)json_integer_value(json_array_get(pair, 0)),
			       item_kind, json_string_value(api), index, line, err);
		if (rc < 0)
			break;
	}
	dsi_free(item_kind);
	return rc < 0 ? rc : 0;
}

static int yaml_doc(void *ctx, json_t *doc, size_t index, int line)
{
	void **args = ctx;
	walker *w = args[0];
	ds_error *err = args[1];
	int rc = w->ystreamed && w->ydoc == index ? yaml_streamed_doc(w, doc, index, line, err)
						  : walk_value(w, doc, index, line, 0, err);
	ystate_reset(w, index + 1);
	if (rc < 0 && rc != YAML_WHOLE)
		note_document(w, err, index, line, 1);
	json_decref(doc);
	return rc;
}

/* An item of a YAML List as soon as it has been read: handed out when what it needs of its list is known
 * (its own kind, and its own apiVersion or the list's, which kubectl writes before the items), else kept
 * until the document ends, as are all after it, so that they go out in order. An item that fails ends
 * the handing out; its error waits for the end of the document, whose syntax errors come first. */
static int yaml_item(void *ctx, const json_t *root, json_t *item, size_t i, size_t doc, int line)
{
	void **args = ctx;
	walker *w = args[0];
	if (w->ydoc != doc)
		ystate_reset(w, doc);
	w->ystreamed = 1;
	if (w->yfailed) {
		json_decref(item);
		return 0;
	}
	const json_t *kind = json_object_get(item, "kind"), *api = json_object_get(item, "apiVersion");
	const json_t *list_api = json_object_get(root, "apiVersion");
	int ready = !w->ypending &&
		    (!json_is_object(item) ||
		     (kind && !json_is_null(kind) && ((api && !json_is_null(api)) || json_is_string(list_api))));
	if (!ready) {
		if ((!w->ypending && !(w->ypending = json_array())) ||
		    json_array_append_new(w->ypending, json_pack("[I, o]", (json_int_t)i, item)) < 0)
			return dsi_error_nomem(args[1]);
		return 0;
	}
	dsi_error_clear(&w->yerr);
	int rc = emit_item(w, item, i, "", json_string_value(list_api), doc, line, &w->yerr);
	json_decref(item);
	if (rc == DS_ENOMEM) {
		if (args[1])
			*(ds_error *)args[1] = w->yerr;
		return rc;
	}
	if (rc < 0)
		w->yfailed = rc;
	return 0;
}

/* The YAML stream of the text through fn, a List's items one at a time when the caller stages (and so
 * can forget what it was given when a document turns out to load whole after all). */
static int load_yaml(walker *w, const char *data, size_t size, ds_error *err)
{
	void *args[2] = {w, err};
	w->yaml = 1;
	if (!w->undo || w->obs)
		return dsi_yaml_parse_observed(data, size, w->lim, w->obs, yaml_doc, args, err);
	ystate_reset(w, 0);
	const dsi_exec *exec = w->par ? w->par->exec : NULL;
	int rc = dsi_yaml_parse_items(data, size, w->lim, yaml_doc, yaml_item, exec, exec ? w->par->threads : 1,
				      w->skip, args, err);
	ystate_reset(w, 0);
	if (rc != YAML_WHOLE)
		return rc;
	if (w->count)
		w->undo(w->ctx);
	w->count = 0;
	dsi_error_clear(err);
	return dsi_yaml_parse_observed(data, size, w->lim, NULL, yaml_doc, args, err);
}

static size_t skip_space_and_bom(const char *data, size_t size)
{
	size_t i = 0;
	if (size >= 3 && (unsigned char)data[0] == 0xEF && (unsigned char)data[1] == 0xBB &&
	    (unsigned char)data[2] == 0xBF)
		i = 3;
	while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
		i++;
	return i;
}

static int json_error_to_ds(const json_error_t *je, ds_error *err)
{
	int code = DS_ESYNTAX;
	switch (json_error_code(je)) {
	case json_error_out_of_memory: return dsi_error_nomem(err);
	case json_error_stack_overflow: code = DS_ELIMIT; break;
	case json_error_numeric_overflow:
		/* a float beyond float64 is an error to encoding/json (and so to the API
		 * server); not a syntax error, so the text is not re-read as YAML, which
		 * would keep it as a string. Too big integers do fall back: YAML's
		 * reading matches the API server's untyped view of them. */
		if (strstr(je->text, "real number overflow")) {
			dsi_error_set(err, DS_EVALUE, NULL,
				      "json: cannot unmarshal number into Go value of type float64: %s", je->text);
			dsi_error_set_position(err, je->line > 0 ? je->line : 0, je->column > 0 ? je->column : 0);
			return DS_EVALUE;
		}
		break;
	default: break;
	}
	dsi_error_set(err, code, NULL, "%s", je->text);
	dsi_error_set_position(err, je->line > 0 ? je->line : 0, je->column > 0 ? je->column : 0);
	return code;
}

#define DSI_JSON_FLAGS (JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK)

/*
 * A List, parsed one item at a time when the walker allows it: a 100k-node
 * NodeList is a gigabyte of text and several as a jansson tree, and a tree
 * that size is slow to build and free (glibc spends its time merging the
 * freed chunks). jansson parses the list without its items, then each item
 * alone. Nothing may differ from parsing the whole value: anything unusual
 * before the first item is emitted (a key spelt with escapes, a depth near
 * jansson's limit, a list whose items are not objects) returns LIST_WHOLE;
 * a failure after that parses the whole value after all, whose syntax error
 * (if any) is the answer, as it would have been before any item was emitted.
 * Hence only callers that undo what fn did when the load fails may stream.
 */
enum { LIST_DONE = 0, LIST_WHOLE = 1, LIST_SYNTAX = 2 };

static int list_whole(walker *w, const char *data, size_t size, size_t pos, size_t document, size_t first, int failed,
		      size_t *end, json_error_t *je, ds_error *err)
{
	json_t *v = dsi_json_loadb_fast(data + pos, size - pos, DSI_JSON_FLAGS, je);
	if (!v) {
		if (failed)
			dsi_error_clear(err); /* the syntax error replaces fn's, all of it */
		return LIST_SYNTAX;
	}
	/* parses after all: fn's error stands, or the items the scanner could not split */
	int rc = failed ? failed : walk_value(w, v, document, 0, first, err);
	*end = pos + (size_t)je->position;
	json_decref(v);
	return rc;
}

/* ---- a List's items on several threads (dsi_load_par) ---- */

/* Below this many items a List is staged on the caller's thread alone: threads would cost more than
 * they save. Items are handed out in chunks of PAR_CHUNK, so that a thread that the machine slows
 * down does not hold the others back. */
#define PAR_MIN_ITEMS 64
#define PAR_CHUNK 16

typedef struct par_run {
	const walker *w;
	const char *data;
	const dsi_jsonscan_items *items;
	const char *item_kind, *api;
	size_t document;
	void **workers;
	ds_error *errs; /* one per thread: a failure's report, which the serial load replaces */
	atomic_size_t next;
	atomic_int failed;
} par_run;

static void par_work(void *arg, unsigned t)
{
	par_run *p = arg;
	const dsi_load_par *par = p->w->par;
	char path[48];
	dsi_json_front *front = dsi_json_front_new(); /* this thread's; NULL: jansson alone */
	/* the items are read where they lie, in the text up to the last one's end */
	dsi_json_front_set_buffer(front, p->data, p->items->n ? p->items->end[p->items->n - 1] : 0);
	for (int done = 0; !done;) {
		size_t from = atomic_fetch_add(&p->next, 1) * PAR_CHUNK;
		if (from >= p->items->n || atomic_load(&p->failed))
			break;
		size_t to = from + PAR_CHUNK < p->items->n ? from + PAR_CHUNK : p->items->n;
		for (size_t i = from; i < to; i++) {
			size_t s = p->items->start[i], e = p->items->end[i];
			json_error_t je;
			json_t *item = dsi_json_front_item(front, p->data + s, e - s, p->w->skip, p->item_kind, &je);
			dsi_loaded it;
			int rc = item && (size_t)je.position == e - s
					 ? item_loaded(item, i, p->item_kind, p->api, p->document, 0, path, &it,
						       &p->errs[t])
					 : -1;
			if (rc == 0)
				rc = par->item(p->workers[t], &it, i, &p->errs[t]);
			json_decref(item);
			if (rc < 0) {
				atomic_store(&p->failed, 1);
				done = 1;
				break;
			}
		}
	}
	dsi_json_front_free(front);
}

/* The items on the executor's threads: 0 when every one was staged and merged, 1 when the caller is
 * to stage them on its own thread after all (a failure, which the serial load will report as it
 * does, or no threads to be had). */
static int par_items(const walker *w, const char *data, const dsi_jsonscan_items *items, const char *item_kind,
		     const char *api, size_t document, ds_error *err)
{
	const dsi_load_par *par = w->par;
	unsigned n = par->exec->threads(par->threads);
	size_t chunks = (items->n + PAR_CHUNK - 1) / PAR_CHUNK;
	if (n > chunks)
		n = (unsigned)chunks;
	if (n < 2)
		return 1;
	par_run p = {w,
		     data,
		     items,
		     item_kind,
		     api,
		     document,
		     dsi_calloc(n, sizeof(void *)),
		     dsi_calloc(n, sizeof(ds_error)),
		     0,
		     0};
	int rc = p.workers && p.errs ? 0 : 1;
	for (unsigned t = 0; rc == 0 && t < n; t++)
		if (!(p.workers[t] = par->worker_new(w->ctx)))
			rc = 1;
	if (rc == 0) {
		if (par->exec->run(n, par_work, &p) < 0 || atomic_load(&p.failed) ||
		    par->merge(w->ctx, p.workers, n, err) < 0)
			rc = 1;
	}
	for (unsigned t = 0; p.workers && t < n; t++)
		if (p.workers[t])
			par->worker_free(w->ctx, p.workers[t]);
	dsi_free(p.workers);
	dsi_free(p.errs);
	if (rc)
		dsi_error_clear(err);
	return rc;
}

/* ---- a List's items found on several threads ---- */

/* Below this much text one thread scans it in well under a millisecond. */
#define PAR_SCAN_MIN ((size_t)1 << 20)

typedef struct scan_run {
	const char *text;
	size_t size;
	dsi_jsonscan_part *parts;
} scan_run;

static void scan_work(void *arg, unsigned t)
{
	scan_run *r = arg;
	dsi_jsonscan_part_scan(r->text, r->size, &r->parts[t]);
}

/* dsi_jsonscan_list_by's finder for a walker with threads: the array cut where indented text says an
 * element begins (dsi_jsonscan_guess_element), each part scanned on a thread of its own, and the parts
 * joined only where the one before ended exactly at the next one's start; from the first that did not,
 * the scan goes on from where the part before it stopped, on this thread. The items and the answer are
 * those of the one-thread scan. */
static long long par_scan(void *ctx, const char *text, size_t size, size_t open, dsi_jsonscan_items *items)
{
	const walker *w = ctx;
	size_t first = dsi_jsonscan_space(text, size, open + 1);
	if (first < size && text[first] == ']')
		return (long long)first + 1;
	unsigned n = size - open >= PAR_SCAN_MIN ? w->par->exec->threads(w->par->threads) : 1;
	if (n < 1)
		n = 1;
	dsi_jsonscan_part *parts = dsi_calloc(n, sizeof(*parts));
	if (!parts)
		return -1;
	unsigned np = 1;
	parts[0].from = first;
	for (unsigned k = 1; k < n; k++) {
		size_t g = dsi_jsonscan_guess_element(text, size, first, open + (size - open) / n * k);
		if (g <= parts[np - 1].from)
			break;
		parts[np - 1].stop = g;
		parts[np++].from = g;
	}
	parts[np - 1].stop = SIZE_MAX;
	scan_run r = {text, size, parts};
	if (np < 2 || w->par->exec->run(np, scan_work, &r) < 0)
		for (unsigned k = 0; k < np; k++) /* no threads: the same parts, one after the other */
			dsi_jsonscan_part_scan(text, size, &parts[k]);
	long long rc = dsi_jsonscan_join(text, size, parts, np, items);
	dsi_free(parts);
	return rc;
}

static int stream_list(walker *w, const char *data, size_t size, size_t pos, size_t document, size_t *end,
		       json_error_t *je, ds_error *err)
{
	size_t open, close, vend;
	dsi_jsonscan_items items = {0};
	if (!w->undo ||
	    dsi_jsonscan_list_by(data, size, pos, &open, &close, &vend, &items, w->par ? par_scan : NULL, w) != 1) {
		dsi_jsonscan_items_free(&items);
		return LIST_WHOLE;
	}
	/* the list with "items": [] */
	size_t head = open - pos, tail = vend - close, n = head + 2 + tail;
	char *text = dsi_malloc(n);
	if (!text) {
		dsi_jsonscan_items_free(&items);
		return LIST_WHOLE;
	}
	memcpy(text, data + pos, head);
	memcpy(text + head, "[]", 2);
	memcpy(text + head + 2, data + close, tail);
	json_t *list = dsi_json_loadb_fast(text, n, DSI_JSON_FLAGS, je);
	dsi_free(text);
	const char *kind = list ? json_string_value(json_object_get(list, "kind")) : NULL;
	json_t *api = list ? json_object_get(list, "apiVersion") : NULL;
	if (!list || (size_t)je->position != n || !kind || !is_list_kind(kind) || (api && !json_is_string(api))) {
		json_decref(list);
		dsi_jsonscan_items_free(&items);
		return LIST_WHOLE;
	}
	char *item_kind = list_item_kind(kind);
	if (!item_kind) { /* the whole list's path reports it */
		json_decref(list);
		dsi_jsonscan_items_free(&items);
		return LIST_WHOLE;
	}
	int rc = LIST_DONE;
	if (w->par && items.n >= PAR_MIN_ITEMS && w->count + items.n <= w->lim->max_objects &&
	    par_items(w, data, &items, item_kind, json_string_value(api), document, err) == 0) {
		w->count += items.n;
		*end = vend;
		if (w->list && item_kind[0])
			w->list(w->ctx, item_kind, json_string_value(api));
		dsi_free(item_kind);
		json_decref(list);
		dsi_jsonscan_items_free(&items);
		return LIST_DONE;
	}
	dsi_json_front *front = dsi_json_front_new();
	dsi_json_front_set_buffer(front, data, size); /* items read in place */
	for (size_t k = 0; k < items.n; k++) {
		size_t s = items.start[k], e = items.end[k];
		json_t *item = dsi_json_front_item(front, data + s, e - s, w->skip, item_kind, je);
		/* on valid JSON the scanner and jansson agree where an item ends: checked, not assumed */
		if (!item || (size_t)je->position != e - s) {
			json_decref(item);
			rc = k ? list_whole(w, data, size, pos, document, k, 0, end, je, err) : LIST_WHOLE;
			break;
		}
		int failed = emit_item(w, item, k, item_kind, json_string_value(api), document, 0, err);
		json_decref(item);
		if (failed < 0) {
			json_error_t whole;
			rc = list_whole(w, data, size, pos, document, 0, failed, end, &whole, err);
			if (rc == LIST_SYNTAX)
				*je = whole;
			break;
		}
	}
	dsi_json_front_free(front);
	if (rc == LIST_DONE) {
		*end = vend;
		if (w->list && item_kind[0])
			w->list(w->ctx, item_kind, json_string_value(api));
	}
	dsi_free(item_kind);
	json_decref(list);
	dsi_jsonscan_items_free(&items);
	return rc;
}

/*
 * The JSON value at data[pos] (NULL with je filled on a syntax error, or with *rc < 0 when the
 * observer failed). With an observer, a repeated key is no error (jansson keeps the later value),
 * and the observer hears of the value's keys from the text: all of them when it asks, else
 * (when jansson saw a repeat) the repeats. line and column are those of data[pos].
 */
static json_t *load_observed(const dsi_keyobs *obs, const char *data, size_t size, size_t pos, size_t index,
			     const int *line, const int *column, json_error_t *je, ds_error *err, int *rc)
{
	*rc = 0;
	json_t *v = dsi_json_loadb_fast(data + pos, size - pos, DSI_JSON_FLAGS, je); /* core/jsonfast.h */
	int repeats = !v && obs && json_error_code(je) == json_error_duplicate_key;
	if (repeats)
		v = dsi_json_loadb_fast(data + pos, size - pos, JSON_DISABLE_EOF_CHECK, je);
	if (v && obs && (repeats || obs->all_keys) &&
	    dsi_json_scan_keys(data, pos, pos + (size_t)je->position, *line, *column, index, obs) < 0) {
		json_decref(v);
		*rc = dsi_error_nomem(err);
		return NULL;
	}
	return v;
}

/* Parse concatenated JSON values; fn gets each. Returns 0, or < 0. On a
 * syntax error in the first value, *first_failed is set (caller may try YAML). */
static int parse_json_stream(walker *w, const char *data, size_t size, size_t start, ds_error *err, int *first_failed)
{
	size_t pos = start;
	size_t index = 0;
	int line = 1, column = 1; /* of data[pos], for the observer */
	dsi_text_position(data, 0, pos, &line, &column);
	*first_failed = 0;
	while (pos < size) {
		json_error_t je;
		size_t end = pos;
		int rc = stream_list(w, data, size, pos, index, &end, &je, err);
		if (rc == LIST_WHOLE) {
			json_t *v = load_observed(w->obs, data, size, pos, index, &line, &column, &je, err, &rc);
			if (v) {
				rc = walk_value(w, v, index, 0, 0, err);
				end = pos + (size_t)je.position;
				json_decref(v);
			} else if (rc == 0) {
				rc = LIST_SYNTAX;
			}
		}
		if (rc == LIST_SYNTAX) {
			if (index == 0)
				*first_failed = 1;
			rc = json_error_to_ds(&je, err);
			if (index)
				note_document(w, err, index, 0, 0);
			return rc;
		}
		if (rc < 0) {
			note_document(w, err, index, 0, 0);
			return rc;
		}
		size_t next = end + skip_space_and_bom(data + end, size - end);
		if (w->obs)
			dsi_text_position(data, pos, next, &line, &column);
		pos = next;
		index++;
	}
	return 0;
}

static int load_text(const char *data, size_t size, const dsi_limits *lim, const dsi_keyobs *obs, dsi_load_fn fn,
		     dsi_load_undo_fn undo, const dsi_load_par *par, unsigned skip, dsi_load_list_fn list, void *ctx,
		     ds_error *err)
{
	if (size > lim->max_bytes)
		return dsi_error_too_large(err, NULL, size, lim->max_bytes);
	if (!data && size)
		return dsi_error_set(err, DS_EARG, NULL, "data is NULL");
	walker w = {.data = data,
		    .size = size,
		    .lim = lim,
		    .fn = fn,
		    .ctx = ctx,
		    .undo = obs ? NULL : undo,
		    .skip = obs ? 0 : skip,
		    .obs = obs,
		    .par = obs || !undo ? NULL : par,
		    .list = list};
	size_t start = data ? skip_space_and_bom(data, size) : 0;
	if (start < size && (data[start] == '{' || data[start] == '[')) {
		int first_failed;
		ds_error jerr;
		dsi_error_clear(&jerr);
		int rc = parse_json_stream(&w, data, size, start, &jerr, &first_failed);
		if (rc == 0 || !first_failed || jerr.code != DS_ESYNTAX) {
			if (rc < 0 && err)
				*err = jerr;
			return rc;
		}
		/* "{a: 1}" is YAML flow style: try YAML, report the JSON error if that fails too */
		if (w.count && w.undo)
			w.undo(ctx); /* what a streamed List handed out before its syntax error */
		ds_error yerr;
		dsi_error_clear(&yerr);
		w.count = 0;
		rc = load_yaml(&w, data, size, &yerr);
		if (rc < 0 && err)
			*err = yerr.code == DS_ESYNTAX ? jerr : yerr;
		return rc;
	}
	return load_yaml(&w, data ? data : "", size, err);
}

int dsi_load_text(const char *data, size_t size, const dsi_limits *lim, dsi_load_fn fn, void *ctx, ds_error *err)
{
	return load_text(data, size, lim, NULL, fn, NULL, NULL, 0, NULL, ctx, err);
}

int dsi_load_text_observed(const char *data, size_t size, const dsi_limits *lim, const dsi_keyobs *obs, dsi_load_fn fn,
			   void *ctx, ds_error *err)
{
	return load_text(data, size, lim, obs, fn, NULL, NULL, 0, NULL, ctx, err);
}

int dsi_load_text_staged(const char *data, size_t size, const dsi_limits *lim, dsi_load_fn fn, dsi_load_undo_fn undo,
			 void *ctx, ds_error *err)
{
	return load_text(data, size, lim, NULL, fn, undo, NULL, 0, NULL, ctx, err);
}

int dsi_load_text_par(const char *data, size_t size, const dsi_limits *lim, dsi_load_fn fn, dsi_load_undo_fn undo,
		      const dsi_load_par *par, unsigned skip, void *ctx, ds_error *err)
{
	return load_text(data, size, lim, NULL, fn, undo, par, skip, NULL, ctx, err);
}

int dsi_load_text_lists(const char *data, size_t size, const dsi_limits *lim, dsi_load_fn fn, dsi_load_undo_fn undo,
			const dsi_load_par *par, unsigned skip, dsi_load_list_fn list, void *ctx, ds_error *err)
{
	return load_text(data, size, lim, NULL, fn, undo, par, skip, list, ctx, err);
}

int dsi_load_value(const json_t *v, const dsi_limits *lim, dsi_load_fn fn, void *ctx, ds_error *err)
{
	return dsi_load_value_lists(v, lim, fn, NULL, ctx, err);
}

int dsi_load_value_lists(const json_t *v, const dsi_limits *lim, dsi_load_fn fn, dsi_load_list_fn list, void *ctx,
			 ds_error *err)
{
	walker w = {.lim = lim, .fn = fn, .ctx = ctx, .list = list};
	if (!v)
		return dsi_error_set(err, DS_EARG, NULL, "value is NULL");
	return walk_value(&w, v, 0, 0, 0, err);
}

typedef struct one_ctx {
	json_t *doc;
	size_t count;
} one_ctx;

static int keep_one(void *ctx, json_t *doc, size_t index, int line)
{
	(void)index;
	(void)line;
	one_ctx *c = ctx;
	if (c->count++) {
		json_decref(doc);
		return DS_EARG;
	}
	c->doc = doc;
	return 0;
}

int dsi_json_loadb(const char *text, size_t size, size_t flags, const char *path, const char *prefix, json_t **out,
		   ds_error *err)
{
	json_error_t je;
	if ((*out = dsi_json_loadb_fast(text, size, flags, &je)))
		return 0;
	dsi_error_set(err, DS_ESYNTAX, path, "%s%s", prefix, je.text);
	dsi_error_set_position(err, je.line, je.column);
	return DS_ESYNTAX;
}

int dsi_parse_one(const char *data, size_t size, const dsi_limits *lim, json_t **out, ds_error *err)
{
	return dsi_parse_one_observed(data, size, lim, NULL, out, err);
}

int dsi_parse_one_observed(const char *data, size_t size, const dsi_limits *lim, const dsi_keyobs *obs, json_t **out,
			   ds_error *err)
{
	*out = NULL;
	if (size > lim->max_bytes)
		return dsi_error_too_large(err, NULL, size, lim->max_bytes);
	if (!data && size)
		return dsi_error_set(err, DS_EARG, NULL, "data is NULL");
	size_t start = data ? skip_space_and_bom(data, size) : 0;
	if (start < size && (data[start] == '{' || data[start] == '[')) {
		json_error_t je;
		json_t *v = dsi_json_loadb_fast(data + start, size - start, JSON_REJECT_DUPLICATES, &je);
		int repeats = !v && obs && json_error_code(&je) == json_error_duplicate_key;
		if (repeats)
			v = dsi_json_loadb_fast(data + start, size - start, 0, &je);
		if (v) {
			int line = 1, column = 1;
			dsi_text_position(data, 0, start, &line, &column);
			if (obs && (repeats || obs->all_keys) &&
			    dsi_json_scan_keys(data, start, start + (size_t)je.position, line, column, 0, obs) < 0) {
				json_decref(v);
				return dsi_error_nomem(err);
			}
			*out = v;
			return 0;
		}
		/* as the loader does: a too big integer falls back to YAML, which reads it as the API
		 * server's untyped view does (a float64), so that its typed field refuses it with its path */
		int too_big = json_error_code(&je) == json_error_numeric_overflow && !strstr(je.text, "real number");
		if (json_error_code(&je) != json_error_invalid_syntax &&
		    json_error_code(&je) != json_error_premature_end_of_input && !too_big)
			return json_error_to_ds(&je, err);
		ds_error jerr;
		dsi_error_clear(&jerr);
		json_error_to_ds(&je, &jerr);
		one_ctx c = {NULL, 0};
		ds_error yerr;
		dsi_error_clear(&yerr);
		int rc = dsi_yaml_parse_observed(data, size, lim, obs, keep_one, &c, &yerr);
		if (rc == 0 && c.count == 1) {
			*out = c.doc;
			return 0;
		}
		json_decref(c.doc);
		if (err)
			*err = jerr;
		return jerr.code;
	}
	one_ctx c = {NULL, 0};
	int rc = dsi_yaml_parse_observed(data ? data : "", size, lim, obs, keep_one, &c, err);
	if (rc == DS_EARG || (rc == 0 && c.count > 1)) {
		json_decref(c.doc);
		return dsi_error_set(err, DS_EARG, NULL, "expected one document, got several");
	}
	if (rc < 0) {
		json_decref(c.doc);
		return rc;
	}
	if (!c.doc)
		return dsi_error_set(err, DS_EMISSING, NULL, "the input holds no document");
	*out = c.doc;
	return 0;
}
