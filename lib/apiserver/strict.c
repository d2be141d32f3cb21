/* Strict field validation (strict.h): the strict decoder's unknown and duplicate fields. */
#include "apiserver/strict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/schema.h"
#include "core/alloc.h"
#include "core/gostr.h"
#include "core/load.h"
#include "core/sort.h"

/* ---- findings ------------------------------------------------------------------------------- */

void dsi_strict_findings_free(dsi_strict_findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		dsi_free(f->v[i].path);
		dsi_free(f->v[i].suggestion);
	}
	dsi_free(f->v);
	memset(f, 0, sizeof(*f));
}

/* Append a finding; path is copied, suggestion taken. */
static void add_finding(dsi_strict_findings *f, int type, const char *path, size_t len, size_t key, char *suggestion,
			int line, int column)
{
	char *p = f->oom ? NULL : dsi_strndup(path, len);
	if (!p || DSI_GROW(f->v, f->cap, f->n + 1) < 0) {
		dsi_free(p);
		dsi_free(suggestion);
		f->oom = 1;
		return;
	}
	f->v[f->n++] = (dsi_strict_finding){type, p, key, suggestion, line, column};
}

static const char *type_text(int type) { return type == DSI_STRICT_DUPLICATE ? "duplicate field" : "unknown field"; }

void dsi_strict_finding_text(const dsi_strict_finding *f, dsi_strbuf *b)
{
	dsi_strbuf_puts(b, type_text(f->type));
	dsi_strbuf_putc(b, ' ');
	dsi_go_quote(b, f->path, strlen(f->path));
}

/* transformDecodeError (apiserver pkg/endpoints/handlers/rest.go) around runtime.strictDecodingError. */
void dsi_strict_bad_request(const char *kind, const char *api_version, const dsi_strict_findings *f, dsi_strbuf *b)
{
	const char *slash = api_version ? strrchr(api_version, '/') : NULL;
	const char *version = slash ? slash + 1 : api_version ? api_version : "";
	dsi_strbuf_printf(b, "%s in version ", kind);
	dsi_go_quote(b, version, strlen(version));
	dsi_strbuf_printf(b, " cannot be handled as a %s: strict decoding error: ", kind);
	for (size_t i = 0; i < f->n; i++) {
		if (i)
			dsi_strbuf_puts(b, ", ");
		dsi_strict_finding_text(&f->v[i], b);
	}
}

json_t *dsi_strict_finding_json(const dsi_strict_finding *f)
{
	dsi_strbuf msg = DSI_STRBUF_INIT;
	dsi_strict_finding_text(f, &msg);
	json_t *o = msg.oom ? NULL
			    : json_pack("{s:s, s:s, s:s, s:s, s:s?, s:i, s:i}", "type", type_text(f->type), "path",
					f->path, "field", f->path + f->key, "message", msg.data, "suggestion",
					f->suggestion, "line", f->line, "column", f->column);
	if (o && !json_object_get(o, "suggestion") && json_object_set_new(o, "suggestion", json_null()) < 0) {
		json_decref(o);
		o = NULL;
	}
	dsi_strbuf_free(&msg);
	return o;
}

/* ---- what the parser saw: key positions and repeated keys ------------------------------------- */

typedef struct key_pos {
	int line, column;
} key_pos;

typedef struct dup_key {
	size_t document;
	char *path; /* in its document */
	size_t len, key;
	int line, column, yaml;
	uint64_t parent; /* hash of its map's path */
	size_t next;     /* 1 + the repeat recorded before it with the same parent hash, or 0 */
	int typed;       /* its map is one the schema types (the decoder looks at it) */
	int claimed;     /* an object's check took it */
} dup_key;

typedef struct keys {
	dsi_map pos; /* hash of (document, path) -> 1 + index in at; the first time a path is seen */
	key_pos *at;
	size_t nat, at_cap;
	size_t pos_document; /* the document pos holds */
	dup_key *dups;       /* in the order of the text */
	size_t ndups, dups_cap;
	size_t doc_dups;  /* of dups[], how many belong to the last document */
	size_t cursor;    /* dups before this index belong to documents already checked */
	dsi_map parents;  /* hash of a map's path -> 1 + its last repeat */
	int no_positions; /* only repeated keys are observed: pos and at stay empty */
} keys;

/* Repeats kept per document: the decoder reports at most DSI_STRICT_MAX of an object, each text
 * once; this bounds the work for a text made of little else. */
#define MAX_DOC_DUPS (DSI_STRICT_MAX * 10)

static uint64_t path_hash(size_t document, const char *path, size_t len)
{
	return dsi_hash_bytes(path, len) ^ dsi_hash_u64((uint64_t)document + 0x9e3779b97f4a7c15ULL);
}

static void keys_free(keys *k)
{
	dsi_map_free(&k->pos);
	dsi_free(k->at);
	for (size_t i = 0; i < k->ndups; i++)
		dsi_free(k->dups[i].path);
	dsi_free(k->dups);
	dsi_map_free(&k->parents);
	memset(k, 0, sizeof(*k));
}

static int observe(void *ctx, const dsi_keyinfo *ki)
{
	keys *k = ctx;
	if (ki->document != k->pos_document) {
		/* every object of the documents before has been checked: their positions can go */
		dsi_map_free(&k->pos);
		k->nat = 0;
		k->pos_document = ki->document;
	}
	uint64_t h = k->no_positions ? 0 : path_hash(ki->document, ki->path, ki->len);
	if (!k->no_positions && !dsi_map_get(&k->pos, h)) {
		if (DSI_GROW(k->at, k->at_cap, k->nat + 1) < 0 ||
		    dsi_map_put(&k->pos, h, (void *)(uintptr_t)(k->nat + 1)) < 0)
			return DS_ENOMEM;
		k->at[k->nat++] = (key_pos){ki->line, ki->column};
	}
	if (!ki->duplicate)
		return 0;
	if (k->ndups && k->dups[k->ndups - 1].document != ki->document)
		k->doc_dups = 0;
	if (k->doc_dups >= MAX_DOC_DUPS)
		return 0;
	char *path = dsi_strndup(ki->path, ki->len);
	if (!path || DSI_GROW(k->dups, k->dups_cap, k->ndups + 1) < 0) {
		dsi_free(path);
		return DS_ENOMEM;
	}
	uint64_t parent = path_hash(ki->document, ki->path, ki->key ? ki->key - 1 : 0);
	dup_key *d = &k->dups[k->ndups];
	*d = (dup_key){ki->document, path, ki->len, ki->key, ki->line, ki->column, ki->yaml, parent, 0, 0, 0};
	d->next = (uintptr_t)dsi_map_get(&k->parents, parent);
	if (dsi_map_put(&k->parents, parent, (void *)(uintptr_t)(k->ndups + 1)) < 0) {
		dsi_free(path);
		return DS_ENOMEM;
	}
	k->ndups++;
	k->doc_dups++;
	return 0;
}

/* ---- the walk -------------------------------------------------------------------------------- */

/* Beyond this nesting the walk stops (the schema's own types nest far less). */
#define MAX_WALK_DEPTH 256

typedef struct walker {
	keys *ks;        /* NULL: no text */
	size_t unknowns; /* found so far (the first DSI_STRICT_MAX in the order of the keys are kept) */
	size_t document;
	const char *prefix; /* the object's path in its document: "items[3]", or "" */
	size_t prefix_len;
	dsi_strbuf path; /* in the object */
	dsi_strbuf full; /* scratch: the path in the document */
	dsi_strict_findings *out;
	int depth;
} walker;

/* The current path in the document. */
static const char *full_path(walker *w, size_t *len)
{
	if (!w->prefix_len) {
		*len = w->path.len;
		return w->path.data ? w->path.data : "";
	}
	dsi_strbuf_truncate(&w->full, 0);
	dsi_strbuf_append(&w->full, w->prefix, w->prefix_len);
	if (w->path.len) {
		if (w->path.data[0] != '[')
			dsi_strbuf_putc(&w->full, '.');
		dsi_strbuf_append(&w->full, w->path.data, w->path.len);
	}
	*len = w->full.len;
	return w->full.data ? w->full.data : "";
}

/* The repeats in the map at the current path are ones the decoder sees. */
static void mark_typed(walker *w)
{
	if (!w->ks || !w->ks->ndups)
		return;
	size_t len;
	const char *p = full_path(w, &len);
	for (uintptr_t i = (uintptr_t)dsi_map_get(&w->ks->parents, path_hash(w->document, p, len)); i;
	     i = w->ks->dups[i - 1].next) {
		dup_key *d = &w->ks->dups[i - 1];
		size_t plen = d->key ? d->key - 1 : 0;
		if (d->document == w->document && plen == len && memcmp(d->path, p, len) == 0)
			d->typed = 1;
	}
}

static unsigned char fold(char c) { return (unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); }

static int equal_fold(const char *a, size_t n, const char *b)
{
	size_t m = strlen(b);
	if (n != m)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (fold(a[i]) != fold(b[i]))
			return 0;
	return 1;
}

#define MAX_SUGGEST_LEN 64

/* Optimal string alignment distance (edits: insert, delete, substitute, swap two neighbours),
 * ignoring ASCII case; both at most MAX_SUGGEST_LEN bytes. */
static size_t osa_distance(const char *a, size_t n, const char *b, size_t m)
{
	size_t rows[3][MAX_SUGGEST_LEN + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= m; j++)
		prev[j] = j;
	for (size_t i = 1; i <= n; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t cost = fold(a[i - 1]) != fold(b[j - 1]);
			size_t best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (prev[j - 1] + cost < best)
				best = prev[j - 1] + cost;
			if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1]) &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[m];
}

/*
 * The field of type that key was likely meant to be: the same name in another case
 * (readOnlyRootFileSystem: readOnlyRootFilesystem, hostPid: hostPID), else the nearest within two
 * edits (one for names of four characters or fewer; imagee: image), else the field of a child
 * object that has that name (a container's "requests": resources.requests). NULL when none.
 */
static char *suggest(int type, const char *key, size_t n)
{
	size_t count = dsi_schema_nfields_of(type);
	for (size_t i = 0; i < count; i++)
		if (equal_fold(key, n, dsi_schema_field_name(type, i)))
			return dsi_strdup(dsi_schema_field_name(type, i));
	if (n && n <= MAX_SUGGEST_LEN) {
		size_t limit = n <= 4 ? 1 : 2, best = limit + 1, at = 0;
		for (size_t i = 0; i < count; i++) {
			const char *f = dsi_schema_field_name(type, i);
			size_t m = strlen(f);
			if (m > MAX_SUGGEST_LEN || (m > n ? m - n : n - m) > limit)
				continue;
			size_t d = osa_distance(key, n, f, m);
			if (d < best) {
				best = d;
				at = i;
			}
		}
		if (best <= limit)
			return dsi_strdup(dsi_schema_field_name(type, at));
	}
	for (int exact = 1; exact >= 0; exact--)
		for (size_t i = 0; i < count; i++) {
			int child = dsi_schema_field_type_at(type, i);
			size_t cn = dsi_schema_nfields_of(child);
			for (size_t j = 0; j < cn; j++) {
				const char *f = dsi_schema_field_name(child, j);
				if (exact ? strlen(f) == n && memcmp(f, key, n) == 0 : equal_fold(key, n, f)) {
					dsi_strbuf b = DSI_STRBUF_INIT;
					dsi_strbuf_printf(&b, "%s.%s", dsi_schema_field_name(type, i), f);
					return dsi_strbuf_detach(&b);
				}
			}
		}
	return NULL;
}

/* The key at the end of the current path is not a field of type. */
static void unknown(walker *w, int type, const char *key, size_t n)
{
	int line = 0, column = 0;
	if (w->ks) {
		size_t len;
		const char *p = full_path(w, &len);
		uintptr_t at = (uintptr_t)dsi_map_get(&w->ks->pos, path_hash(w->document, p, len));
		if (at) {
			line = w->ks->at[at - 1].line;
			column = w->ks->at[at - 1].column;
		}
	}
	char *s = suggest(type, key, n);
	add_finding(w->out, DSI_STRICT_UNKNOWN, w->path.data, w->path.len, w->path.len - n, s, line, column);
}

static void walk(walker *w, int type, const json_t *v)
{
	if (w->depth >= MAX_WALK_DEPTH || w->path.oom || w->full.oom)
		return;
	w->depth++;
	dsi_schema_kind kind = dsi_schema_kind_of(type);
	if ((kind == DSI_SK_OBJECT || kind == DSI_SK_MAP) && json_is_object(v)) {
		mark_typed(w);
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x)
		{
			size_t mark = w->path.len, n = strlen(k);
			if (mark)
				dsi_strbuf_putc(&w->path, '.');
			dsi_strbuf_append(&w->path, k, n);
			int ft = kind == DSI_SK_MAP ? dsi_schema_elem(type) : dsi_schema_field_type(type, k, n);
			if (ft < 0) {
				if (w->unknowns++ < DSI_STRICT_MAX)
					unknown(w, type, k, n);
			} else
				walk(w, ft, x);
			dsi_strbuf_truncate(&w->path, mark);
		}
	} else if (kind == DSI_SK_ARRAY && json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
		{
			size_t mark = w->path.len;
			dsi_strbuf_printf(&w->path, "[%zu]", i);
			walk(w, dsi_schema_elem(type), x);
			dsi_strbuf_truncate(&w->path, mark);
		}
	}
	w->depth--;
}

/* The repeated keys inside the object at w->prefix of w->document, claimed for it: those the
 * decoder sees (in a map the schema types; everywhere when there is no schema, as in an
 * unstructured object) and, from YAML, all (the YAML decoder refuses them wherever they are). */
static void claim_dups(walker *w, int has_schema)
{
	if (!w->ks)
		return;
	keys *ks = w->ks;
	while (ks->cursor < ks->ndups && ks->dups[ks->cursor].document < w->document)
		ks->cursor++;
	for (size_t i = ks->cursor; i < ks->ndups && ks->dups[i].document == w->document; i++) {
		dup_key *d = &ks->dups[i];
		if (d->claimed)
			continue;
		size_t skip = 0;
		if (w->prefix_len) {
			if (d->len <= w->prefix_len || memcmp(d->path, w->prefix, w->prefix_len) != 0 ||
			    (d->path[w->prefix_len] != '.' && d->path[w->prefix_len] != '['))
				continue;
			skip = w->prefix_len + (d->path[w->prefix_len] == '.');
		}
		d->claimed = 1;
		if (d->typed || d->yaml || !has_schema)
			add_finding(w->out, DSI_STRICT_DUPLICATE, d->path + skip, d->len - skip, d->key - skip, NULL,
				    d->line, d->column);
	}
}

/* Text order (positions unknown last), each text once, at most DSI_STRICT_MAX: the findings
 * from index first on. */
static int by_position(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const dsi_strict_finding *x = a, *y = b;
	long lx = x->line ? x->line : 0x7fffffffL, ly = y->line ? y->line : 0x7fffffffL;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return (x->column > y->column) - (x->column < y->column);
}

static void finish(dsi_strict_findings *f, size_t first)
{
	if (f->n <= first)
		return;
	dsi_sort_stable(f->v + first, f->n - first, sizeof(*f->v), by_position, NULL);
	size_t kept = first;
	for (size_t i = first; i < f->n; i++) {
		int seen = kept - first >= DSI_STRICT_MAX;
		for (size_t j = first; j < kept && !seen; j++)
			seen = f->v[j].type == f->v[i].type && strcmp(f->v[j].path, f->v[i].path) == 0;
		if (seen) {
			dsi_free(f->v[i].path);
			dsi_free(f->v[i].suggestion);
		} else {
			f->v[kept++] = f->v[i];
		}
	}
	f->n = kept;
}

static int root_of(const json_t *obj)
{
	return dsi_schema_root_type(json_string_value(json_object_get(obj, "apiVersion")),
				    json_string_value(json_object_get(obj, "kind")));
}

/* Check obj (at prefix of document) as type (-1: only its repeated keys); findings to out. */
static int check_object(keys *ks, size_t document, const char *prefix, const json_t *obj, int type,
			dsi_strict_findings *out)
{
	walker w;
	memset(&w, 0, sizeof(w));
	w.ks = ks;
	w.document = document;
	w.prefix = prefix;
	w.prefix_len = strlen(prefix);
	w.out = out;
	size_t first = out->n;
	if (type >= 0)
		walk(&w, type, obj);
	claim_dups(&w, type >= 0);
	int oom = w.path.oom || w.full.oom;
	dsi_strbuf_free(&w.path);
	dsi_strbuf_free(&w.full);
	if (oom || out->oom)
		return DS_ENOMEM;
	finish(out, first);
	return 0;
}

int dsi_strict_check(const json_t *obj, dsi_strict_findings *out)
{
	int type = root_of(obj);
	if (type < 0)
		return 1;
	return check_object(NULL, 0, "", obj, type, out);
}

/* Findings from, moved to the end of to. 0 or DS_ENOMEM (from is emptied either way). */
static int take_findings(dsi_strict_findings *to, dsi_strict_findings *from)
{
	int rc = from->oom ? DS_ENOMEM : 0;
	if (!to->n && !to->v && !to->oom) {
		*to = *from;
		memset(from, 0, sizeof(*from));
		return rc;
	}
	for (size_t i = 0; rc == 0 && i < from->n; i++) {
		if (DSI_GROW(to->v, to->cap, to->n + 1) < 0) {
			rc = DS_ENOMEM;
			break;
		}
		to->v[to->n++] = from->v[i];
		from->v[i].path = from->v[i].suggestion = NULL;
	}
	dsi_strict_findings_free(from);
	return rc;
}

static int has_unknown(const dsi_strict_findings *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].type == DSI_STRICT_UNKNOWN)
			return 1;
	return 0;
}

int dsi_strict_parse_one(const char *text, size_t size, const dsi_limits *lim, dsi_field_validation level, int type,
			 json_t **obj, dsi_strict_findings *out, ds_error *err)
{
	/* The first reading observes only the repeated keys. Where every key is (a map of every path of
	 * the text, the costly part at 100,000 containers) matters only for an unknown field's line and
	 * column: a text with one is read again, every key observed, and checked again. */
	keys ks;
	memset(&ks, 0, sizeof(ks));
	ks.no_positions = 1;
	dsi_keyobs obs = {observe, &ks, 0};
	int rc = dsi_parse_one_observed(text, size, lim, &obs, obj, err);
	if (rc == 0 && level != DSI_FV_IGNORE) {
		if (type < 0)
			type = root_of(*obj);
		dsi_strict_findings f;
		memset(&f, 0, sizeof(f));
		int crc = check_object(&ks, 0, "", *obj, type, &f);
		if (crc == 0 && has_unknown(&f)) {
			dsi_strict_findings_free(&f);
			keys_free(&ks);
			json_t *again = NULL;
			ds_error scratch;
			dsi_error_clear(&scratch);
			dsi_keyobs all = {observe, &ks, 1};
			crc = dsi_parse_one_observed(text, size, lim, &all, &again, &scratch) < 0 ? DS_ENOMEM : 0;
			json_decref(again);
			if (crc == 0)
				crc = check_object(&ks, 0, "", *obj, type, &f);
		}
		if (crc < 0 || take_findings(out, &f) < 0) {
			dsi_strict_findings_free(&f);
			json_decref(*obj);
			*obj = NULL;
			rc = dsi_error_nomem(err);
		}
	}
	keys_free(&ks);
	return rc;
}

/* ---- ds_manifest_check_fields ------------------------------------------------------------------ */

typedef struct manifest {
	keys ks;
	dsi_field_validation level;
	json_t *objects, *findings; /* findings go to "errors" (Strict) or "warnings" (Warn) */
} manifest;

static int set_str(json_t *o, const char *k, const char *v)
{
	return json_object_set_new(o, k, v ? json_string(v) : json_null());
}

/* A finding with the object it is about. */
static int add_json(manifest *m, const dsi_strict_finding *f, const json_t *about)
{
	json_t *j = dsi_strict_finding_json(f);
	if (!j || json_object_update(j, (json_t *)about) < 0 || json_array_append_new(m->findings, j) < 0) {
		json_decref(j);
		return DS_ENOMEM;
	}
	return 0;
}

static int check_loaded(void *ctx, const dsi_loaded *item, ds_error *err)
{
	manifest *m = ctx;
	const json_t *meta = json_object_get(item->obj, "metadata");
	int type = dsi_schema_root_type(item->api_version, item->kind);
	json_t *about = json_pack("{s:I}", "document", (json_int_t)item->document + 1), *entry = NULL;
	int rc = about ? 0 : DS_ENOMEM;
	if (rc == 0 && item->path[0])
		rc = json_object_set_new(about, "item", json_integer(atoll(item->path + 6))); /* "items[N]" */
	if (rc == 0)
		rc = set_str(about, "kind", item->kind) |
		     set_str(about, "name", json_string_value(json_object_get(meta, "name")));
	if (rc == 0 && (entry = json_deep_copy(about)) == NULL)
		rc = DS_ENOMEM;
	if (rc == 0)
		rc = set_str(entry, "apiVersion", item->api_version) |
		     set_str(entry, "namespace", json_string_value(json_object_get(meta, "namespace"))) |
		     json_object_set_new(entry, "line", json_integer(item->line)) |
		     json_object_set_new(entry, "checked", json_boolean(type >= 0));
	dsi_strict_findings f;
	memset(&f, 0, sizeof(f));
	if (rc == 0 && m->level != DSI_FV_IGNORE)
		rc = check_object(&m->ks, item->document, item->path, item->obj, type, &f);
	for (size_t i = 0; rc == 0 && i < f.n; i++)
		rc = add_json(m, &f.v[i], about);
	if (rc == 0) {
		dsi_strbuf msg = DSI_STRBUF_INIT;
		if (f.n && m->level == DSI_FV_STRICT && item->kind)
			dsi_strict_bad_request(item->kind, item->api_version, &f, &msg);
		rc = msg.oom || set_str(entry, "message", msg.data) < 0 || json_array_append(m->objects, entry) < 0;
		dsi_strbuf_free(&msg);
	}
	dsi_strict_findings_free(&f);
	json_decref(about);
	json_decref(entry);
	return rc ? dsi_error_nomem(err) : 0;
}

int dsi_manifest_check_fields(const char *text, size_t size, const dsi_limits *lim, dsi_field_validation level,
			      json_t **result, ds_error *err)
{
	*result = NULL;
	manifest m;
	memset(&m, 0, sizeof(m));
	m.level = level;
	m.objects = json_array();
	m.findings = json_array();
	json_t *other = json_array();
	int rc = m.objects && m.findings && other ? 0 : dsi_error_nomem(err);
	dsi_keyobs obs = {observe, &m.ks, level != DSI_FV_IGNORE};
	if (rc == 0)
		rc = dsi_load_text_observed(text, size, lim, &obs, check_loaded, &m, err);
	/* repeats no object took (at the top of a List): reported as a YAML or unstructured decoder would */
	for (size_t i = 0; rc == 0 && level != DSI_FV_IGNORE && i < m.ks.ndups; i++) {
		const dup_key *d = &m.ks.dups[i];
		if (d->claimed)
			continue;
		dsi_strict_finding f = {DSI_STRICT_DUPLICATE, d->path, d->key, NULL, d->line, d->column};
		json_t *about = json_pack("{s:I}", "document", (json_int_t)d->document + 1);
		rc = about ? add_json(&m, &f, about) : DS_ENOMEM;
		json_decref(about);
		if (rc < 0)
			rc = dsi_error_nomem(err);
	}
	if (rc == 0) {
		*result = json_pack("{s:s, s:s, s:O, s:O, s:O}", "fieldValidation", dsi_field_validation_name(level),
				    "schema", dsi_schema_source, "objects", m.objects, "errors",
				    level == DSI_FV_WARN ? other : m.findings, "warnings",
				    level == DSI_FV_WARN ? m.findings : other);
		if (!*result)
			rc = dsi_error_nomem(err);
	}
	json_decref(m.objects);
	json_decref(m.findings);
	json_decref(other);
	keys_free(&m.ks);
	return rc;
}
