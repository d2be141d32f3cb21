#include "core/yaml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "core/jsonfront.h"
#include "core/keyscan.h"
#include "core/numfmt.h"
#include "core/strbuf.h"

/* ---- plain scalar resolution (go-yaml v2 resolve.go) ---- */

static int is_one_of(const char *t, size_t n, const char *const *list)
{
	for (; *list; list++) /* the first byte first: most plain scalars rule out every word with it */
		if (n ? (*list)[0] == t[0] && strlen(*list) == n && memcmp(*list, t, n) == 0 : !(*list)[0])
			return 1;
	return 0;
}

static const char *const yaml_true[] = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", NULL};
static const char *const yaml_false[] = {"n",     "N",     "no",  "No",  "NO",  "false",
					 "False", "FALSE", "off", "Off", "OFF", NULL};
static const char *const yaml_null[] = {"", "~", "null", "Null", "NULL", NULL};
static const char *const yaml_special_float[] = {".nan",  ".NaN",  ".NAN",  ".inf",  ".Inf",  ".INF", "+.inf",
						 "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", NULL};

/* The longest of those words ("false", "+.inf"): a longer scalar is none of them. */
#define YAML_WORD_MAX 5

/* A plain scalar that resolve_plain keeps a string: neither a word above nor anything that starts like
 * a number. */
static int plain_is_string(const char *t, size_t n)
{
	char c = n ? t[0] : '0';
	if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == '~')
		return 0;
	return n > YAML_WORD_MAX ||
	       !(is_one_of(t, n, yaml_null) || is_one_of(t, n, yaml_true) || is_one_of(t, n, yaml_false));
}

/* What go-yaml v2's resolve() made of a scalar: the Go type behind the JSON value. */
typedef enum scalar_kind {
	KIND_NULL,
	KIND_BOOL,
	KIND_INT,   /* int / int64 */
	KIND_UINT,  /* uint64 above INT64_MAX */
	KIND_FLOAT, /* float64 */
	KIND_STR,
} scalar_kind;

/* Go strconv.ParseInt/ParseUint(s, 0, 64) on text without underscores: 1 with the magnitude, the sign and
 * whether a sign character was written (ParseUint takes none) when the digits fit 64 unsigned bits. */
static int go_parse_int_base0(const char *s, size_t n, uint64_t *mag, int *neg, int *has_sign)
{
	size_t i = 0;
	*neg = 0;
	*has_sign = 0;
	if (i < n && (s[i] == '+' || s[i] == '-')) {
		*neg = s[i] == '-';
		*has_sign = 1;
		i++;
	}
	unsigned base = 10;
	if (i + 1 < n && s[i] == '0') {
		char c = s[i + 1];
		if (c == 'x' || c == 'X') {
			base = 16;
			i += 2;
		} else if (c == 'b' || c == 'B') {
			base = 2;
			i += 2;
		} else if (c == 'o' || c == 'O') {
			base = 8;
			i += 2;
		} else {
			base = 8;
			i += 1;
		}
	}
	if (i >= n)
		return 0;
	uint64_t v = 0;
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return 0;
		if (d >= base)
			return 0;
		if (v > (UINT64_MAX - d) / base)
			return 0;
		v = v * base + d;
	}
	*mag = v;
	return 1;
}

/* The end of the run of digits of s[0, n) that starts at i ([0-9]*). */
static size_t skip_digits(const char *s, size_t n, size_t i)
{
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/* ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static int yaml_style_float(const char *s, size_t n)
{
	size_t i = 0, d;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	if (i < n && s[i] == '.') {
		if ((d = skip_digits(s, n, i + 1)) == i + 1)
			return 0;
		i = d;
	} else {
		if ((d = skip_digits(s, n, i)) == i)
			return 0;
		i = d;
		if (i < n && s[i] == '.')
			i = skip_digits(s, n, i + 1);
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if ((d = skip_digits(s, n, i)) == i)
			return 0;
		i = d;
	}
	return i == n;
}

/* underscoreOK (Go strconv/atoi.go) for a decimal float such as ".5_0": each '_' between two digits. */
static int go_underscore_ok(const char *s, size_t n)
{
	char saw = '^';
	for (size_t i = 0; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			saw = '0';
		} else if (s[i] == '_') {
			if (saw != '0')
				return 0;
			saw = '_';
		} else {
			if (saw == '_')
				return 0;
			saw = '!';
		}
	}
	return saw != '_';
}

/*
 * A float64 as it reaches the cluster: encoding/json prints an integral float64 below 1e21 as digits, which
 * Kubernetes reads back as an int64 when it fits (apimachinery pkg/util/json convertNumber); anything else stays
 * a float64. The range test comes first: converting an out-of-range double to int64 is undefined.
 */
static json_t *json_from_double(double v)
{
	if (v >= -9223372036854775808.0 && v < 9223372036854775808.0 && v == (double)(int64_t)v)
		return json_integer((json_int_t)v);
	return json_real(v);
}

/*
 * resolve (go-yaml v2 resolve.go) for a plain scalar, then sigs.k8s.io/yaml's JSON conversion. For text that
 * starts with a digit or sign: ParseInt(plain, 0, 64), then ParseUint(plain, 0, 64), then ParseFloat for text
 * matching yamlStyleFloat; whatever fails them all, including a float that overflows float64 ("1e309": ParseFloat
 * reports ErrRange), stays a string. Text starting with '.' goes straight to ParseFloat.
 *
 * A uint64 (9223372036854775808 up to 18446744073709551615, or hex/octal/binary of that size) is printed by
 * encoding/json as its exact digits. jansson integers are int64, so it becomes the JSON real of the same value:
 * what Kubernetes itself holds for that number in an untyped object (apimachinery pkg/util/json convertNumber:
 * not an int64, so a float64). Typed integer fields reject it there as here; the digits beyond float64's 53 bits
 * are lost, as in Kubernetes' untyped view.
 */
static json_t *resolve_plain(const char *text, size_t len, scalar_kind *kind, uint64_t *uvalue, ds_error *err)
{
	*kind = KIND_STR;
	*uvalue = 0;
	if (len <= YAML_WORD_MAX && is_one_of(text, len, yaml_null)) {
		*kind = KIND_NULL;
		return json_null();
	}
	if (len <= YAML_WORD_MAX && (is_one_of(text, len, yaml_true) || is_one_of(text, len, yaml_false))) {
		*kind = KIND_BOOL;
		return json_boolean(is_one_of(text, len, yaml_true));
	}
	if (len <= YAML_WORD_MAX && is_one_of(text, len, yaml_special_float)) {
		dsi_error_set(err, DS_EVALUE, NULL, "%.*s cannot be represented in JSON (json: unsupported value)",
			      (int)len, text);
		return NULL;
	}
	char c = len ? text[0] : 0;
	if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
		char buf[128];
		char *plain = buf;
		if (len >= sizeof(buf)) {
			plain = dsi_malloc(len + 1);
			if (!plain) {
				dsi_error_nomem(err);
				return NULL;
			}
		}
		/* the digit/sign case parses text without underscores; ParseFloat on ".x" checks them itself */
		int underscores = memchr(text, '_', len) != NULL;
		size_t n = 0;
		for (size_t i = 0; i < len; i++)
			if (text[i] != '_')
				plain[n++] = text[i];
		plain[n] = '\0';
		uint64_t mag;
		int neg, has_sign;
		json_t *out = NULL;
		int parsed = 0;
		if (c != '.' && go_parse_int_base0(plain, n, &mag, &neg, &has_sign)) {
			if (neg && mag <= (uint64_t)INT64_MAX + 1) { /* ParseInt */
				out = json_integer((json_int_t)(0 - mag));
				*kind = KIND_INT;
				parsed = 1;
			} else if (!neg && mag <= (uint64_t)INT64_MAX) { /* ParseInt */
				out = json_integer((json_int_t)mag);
				*kind = KIND_INT;
				parsed = 1;
			} else if (!has_sign) { /* ParseUint: a uint64 */
				out = json_real((double)mag);
				*kind = KIND_UINT;
				*uvalue = mag;
				parsed = 1;
			}
		}
		if (!parsed && yaml_style_float(plain, n) &&
		    (c != '.' || !underscores || go_underscore_ok(text, len))) {
			double d;
			/* ParseFloat fails with ErrRange exactly where the correctly rounded value is infinite */
			if (dsi_parse_double(plain, n, &d) == 0 && !isinf(d)) {
				out = json_from_double(d);
				*kind = KIND_FLOAT;
				parsed = 1;
			}
		}
		if (!parsed)
			out = json_stringn(text, len);
		if (plain != buf)
			dsi_free(plain);
		if (!out)
			dsi_error_nomem(err);
		return out;
	}
	json_t *s = json_stringn(text, len);
	if (!s)
		dsi_error_nomem(err);
	return s;
}

json_t *dsi_yaml_resolve_plain(const char *text, size_t len, ds_error *err)
{
	scalar_kind kind;
	uint64_t uvalue;
	return resolve_plain(text, len, &kind, &uvalue, err);
}

/* ---- the event-driven builder ---- */

typedef struct anchor {
	char *name;
	json_t *value;
	size_t size;         /* nodes, counting what aliases inside it expand to */
	int kind;            /* scalar_kind of a scalar, what a key made from it needs */
	uint64_t uvalue;     /* a KIND_UINT scalar's exact value */
	struct anchor *next; /* same hash */
} anchor;

typedef struct frame {
	json_t *node;
	int is_map;
	char *anchor_name;
	size_t size;
	int line, column;
	/* mapping state */
	int have_key;
	int key_is_merge;
	int merge_src; /* a sequence given to a merge key: its maps' keys belong to the map that merges */
	char *key;     /* the key being filled (while have_key): a buffer the frame keeps, key_cap bytes */
	size_t key_len, key_cap;
	json_t *merges; /* objects to merge in, earliest first (it wins) */
	/* sequence state */
	int stream;   /* the top-level "items" of a document, whose elements go to the item callback */
	size_t count; /* elements handed to it */
} frame;

typedef struct builder {
	const dsi_limits *lim;
	ds_error *err;
	frame *stack;
	size_t depth, cap;
	size_t used; /* stack entries ever used, whose key buffers are theirs */
	json_t *root;
	anchor **anchors; /* all anchors of the document, for freeing */
	size_t nanchors, anchors_cap;
	dsi_map anchor_index; /* hash(name) -> chain */
	size_t decode_count;
	size_t alias_count;
	int shared;            /* aliases or merges made the tree share nodes */
	const dsi_keyobs *obs; /* NULL: a repeated key is an error */
	size_t doc_index;
	int doc_line;
	dsi_strbuf path;          /* the observer's key path */
	dsi_yaml_item_fn item_fn; /* NULL: every node stays in its document */
	void *item_ctx;
	unsigned skip; /* DSI_FRONT_*: what an item's tree may leave out (core/jsonfront.h) */
	/* A Node's status.images being read without its tree (images_event): its events so far, held
	 * until the value ends in the plain form ([] in its place) or turns out not to (all replayed). */
	int sk_on, sk_replay;
	int sk_lvl;  /* 0: in the images; 1: in an image; 2: in its names */
	int sk_want; /* in an image: 0 a key, 1 the names, 2 sizeBytes */
	int sk_seen; /* the image's keys so far: 1 names, 2 sizeBytes */
	struct skev *sk_ev;
	size_t sk_n, sk_cap;
	dsi_strbuf sk_text; /* the scalars' text, each followed by a NUL */
} builder;

static int fail_at(builder *b, const yaml_mark_t *m, int code, const char *fmt, const char *arg)
{
	dsi_error_set(b->err, code, NULL, fmt, arg);
	if (m)
		dsi_error_set_position(b->err, (int)m->line + 1, (int)m->column + 1);
	return code;
}

static anchor *anchor_find(builder *b, const char *name)
{
	for (anchor *a = dsi_map_get(&b->anchor_index, dsi_hash_bytes(name, strlen(name))); a; a = a->next)
		if (strcmp(a->name, name) == 0)
			return a;
	return NULL;
}

static int anchor_define(builder *b, const char *name, json_t *value, size_t size, int kind, uint64_t uvalue)
{
	anchor *a = anchor_find(b, name);
	if (a) { /* a redefinition serves the aliases after it */
		json_decref(a->value);
		a->value = json_incref(value);
		a->size = size;
		a->kind = kind;
		a->uvalue = uvalue;
		return 0;
	}
	uint64_t h = dsi_hash_bytes(name, strlen(name));
	if (DSI_GROW(b->anchors, b->anchors_cap, b->nanchors + 1) < 0 || dsi_map_reserve(&b->anchor_index, 1) < 0)
		return dsi_error_nomem(b->err);
	a = dsi_calloc(1, sizeof(*a));
	if (!a || !(a->name = dsi_strdup(name))) {
		dsi_free(a);
		return dsi_error_nomem(b->err);
	}
	a->value = json_incref(value);
	a->size = size;
	a->kind = kind;
	a->uvalue = uvalue;
	a->next = dsi_map_get(&b->anchor_index, h);
	dsi_map_put(&b->anchor_index, h, a); /* cannot fail after reserve */
	b->anchors[b->nanchors++] = a;
	return 0;
}

static void frame_release(frame *f)
{
	json_decref(f->node);
	json_decref(f->merges);
	dsi_free(f->anchor_name);
	char *key = f->key; /* the buffer stays with the entry, for the next frame there */
	size_t cap = f->key_cap;
	memset(f, 0, sizeof(*f));
	f->key = key;
	f->key_cap = cap;
}

/* f's key becomes text[0, len) (no NUL inside). */
static int set_key(builder *b, frame *f, const char *text, size_t len)
{
	if (len >= f->key_cap) {
		size_t cap = len < 64 ? 64 : len + 1;
		char *k = dsi_malloc(cap);
		if (!k)
			return dsi_error_nomem(b->err);
		dsi_free(f->key);
		f->key = k;
		f->key_cap = cap;
	}
	memcpy(f->key, text, len);
	f->key[len] = '\0';
	f->key_len = len;
	return 0;
}

static void builder_reset(builder *b)
{
	while (b->depth)
		frame_release(&b->stack[--b->depth]);
	json_decref(b->root);
	b->root = NULL;
	for (size_t i = 0; i < b->nanchors; i++) {
		json_decref(b->anchors[i]->value);
		dsi_free(b->anchors[i]->name);
		dsi_free(b->anchors[i]);
	}
	b->nanchors = 0;
	dsi_map_free(&b->anchor_index);
	b->decode_count = b->alias_count = 0;
	b->shared = 0;
	b->sk_on = b->sk_replay = 0;
	b->sk_n = 0;
	dsi_strbuf_truncate(&b->sk_text, 0);
}

/* go-yaml v2: refuse when aliases produced too large a share of the nodes. */
static double allowed_alias_ratio(size_t decode_count)
{
	const double lo = 400000, hi = 4000000;
	if ((double)decode_count <= lo)
		return 0.99;
	if ((double)decode_count >= hi)
		return 0.10;
	return 0.99 - 0.89 * (((double)decode_count - lo) / (hi - lo));
}

static int count_alias(builder *b, size_t size, const yaml_mark_t *m)
{
	b->decode_count += size;
	b->alias_count += size;
	if (b->alias_count > b->lim->max_alias_nodes)
		return fail_at(b, m, DS_ELIMIT, "document contains excessive aliasing (%s)",
			       "aliases expand to more nodes than the limit allows");
	if (b->alias_count > 100 && b->decode_count > 1000 &&
	    (double)b->alias_count / (double)b->decode_count > allowed_alias_ratio(b->decode_count))
		return fail_at(b, m, DS_ELIMIT, "document contains excessive aliasing%s", "");
	return 0;
}

static const char *yaml_type_name(const json_t *v)
{
	return json_is_object(v) ? "map" : json_is_array(v) ? "sequence" : "scalar";
}

/* sigs.k8s.io/yaml turns non-string keys into strings. */
static int key_string(builder *b, frame *f, const json_t *k, const yaml_mark_t *m)
{
	char buf[64];
	const char *s = buf;
	switch (json_typeof(k)) {
	case JSON_STRING: s = json_string_value(k); break;
	case JSON_INTEGER: snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(k)); break;
	case JSON_REAL: dsi_format_go_float32_g(json_real_value(k), buf, sizeof(buf)); break;
	case JSON_TRUE: s = "true"; break;
	case JSON_FALSE: s = "false"; break;
	case JSON_NULL: return fail_at(b, m, DS_ESYNTAX, "unsupported map key: %s", "null");
	default: return fail_at(b, m, DS_ESYNTAX, "unsupported map key: a %s cannot be a key", yaml_type_name(k));
	}
	return set_key(b, f, s, strlen(s));
}

static int add_merge_source(builder *b, frame *f, json_t *v, const yaml_mark_t *m)
{
	const char *want = "map merge requires map or sequence of maps as the value%s";
	if (!f->merges && !(f->merges = json_array()))
		return dsi_error_nomem(b->err);
	if (json_is_object(v))
		return json_array_append(f->merges, v) ? dsi_error_nomem(b->err) : 0;
	if (!json_is_array(v))
		return fail_at(b, m, DS_ESYNTAX, want, "");
	size_t i;
	json_t *e;
	json_array_foreach(v, i, e)
	{
		if (!json_is_object(e))
			return fail_at(b, m, DS_ESYNTAX, want, "");
		if (json_array_append(f->merges, e))
			return dsi_error_nomem(b->err);
	}
	return 0;
}

/*
 * A key of the innermost map f, just read at m: tell the observer, with its path from the open
 * containers (a map's key being filled, a sequence's element being built; the keys that a merge
 * key brings belong to the map that merges). A repeat is seen here, before its value replaces the
 * earlier one; keys that a merge brings in later are not repeats.
 */
static int observe_key(builder *b, frame *f, const yaml_mark_t *m)
{
	int dup = json_object_get(f->node, f->key) != NULL;
	if (!dup && !b->obs->all_keys)
		return 0;
	dsi_strbuf *p = &b->path;
	dsi_strbuf_truncate(p, 0);
	for (size_t i = 0; i + 1 < b->depth; i++) {
		const frame *o = &b->stack[i];
		if (o->is_map && !o->have_key)
			return 0; /* inside a complex key, which fails when it ends */
		if (o->is_map && !o->key_is_merge) {
			if (p->len)
				dsi_strbuf_putc(p, '.');
			dsi_strbuf_puts(p, o->key);
		} else if (!o->is_map && !o->merge_src) {
			dsi_strbuf_printf(p, "[%zu]", json_array_size(o->node));
		}
	}
	if (p->len)
		dsi_strbuf_putc(p, '.');
	size_t key = p->len;
	dsi_strbuf_puts(p, f->key);
	if (p->oom)
		return dsi_error_nomem(b->err);
	dsi_keyinfo k = {b->doc_index, p->data, p->len, key, (int)m->line + 1, (int)m->column + 1, dup, 1};
	return b->obs->fn(b->obs->ctx, &k) < 0 ? dsi_error_nomem(b->err) : 0;
}

/* An element of a document's top-level "items" (new reference, consumed) to the item callback: a tree of
 * its own, which nothing else in the document shares (a copy when anchors or aliases are about, so that
 * what the callback does to it cannot reach an alias read later). */
static int stream_item(builder *b, frame *f, json_t *v)
{
	if (b->nanchors || b->shared) {
		json_t *copy = json_deep_copy(v);
		json_decref(v);
		if (!(v = copy))
			return dsi_error_nomem(b->err);
	}
	return b->item_fn(b->item_ctx, b->stack[0].node, v, f->count++, b->doc_index, b->doc_line);
}

/* Deliver a finished value (new reference, consumed) to the open container. */
static int deliver(builder *b, json_t *v, size_t size, const yaml_mark_t *m, int plain_merge_key)
{
	if (!b->depth) {
		b->root = v;
		return 0;
	}
	frame *f = &b->stack[b->depth - 1];
	f->size += size;
	if (!f->is_map && f->stream)
		return stream_item(b, f, v);
	if (!f->is_map) {
		if (json_array_append_new(f->node, v))
			return dsi_error_nomem(b->err);
		return 0;
	}
	int rc = 0;
	if (!f->have_key) {
		f->key_is_merge = plain_merge_key;
		if (!plain_merge_key)
			rc = key_string(b, f, v, m);
		json_decref(v);
		if (rc == 0)
			f->have_key = 1;
		if (rc == 0 && !plain_merge_key && b->obs)
			rc = observe_key(b, f, m);
		return rc;
	}
	f->have_key = 0;
	if (f->key_is_merge) {
		rc = add_merge_source(b, f, v, m);
		json_decref(v);
		b->shared = 1;
		return rc;
	}
	if (!b->obs && json_object_getn(f->node, f->key, f->key_len)) {
		rc = fail_at(b, m, DS_ESYNTAX, "key \"%s\" already set in map", f->key);
		json_decref(v);
	} else if (json_object_setn_new(f->node, f->key, f->key_len, v)) {
		rc = dsi_error_nomem(b->err);
	}
	return rc;
}

/* A mapping key that is a string as written (most keys): what deliver does with one, without making a
 * JSON string of it first. */
static int string_key(builder *b, frame *f, const char *text, size_t len, const yaml_mark_t *m)
{
	b->decode_count++;
	if (memchr(text, '\0', len))
		return fail_at(b, m, DS_ESYNTAX, "NUL characters in strings are not supported%s", "");
	f->size++;
	f->key_is_merge = 0;
	int rc = set_key(b, f, text, len);
	if (rc < 0)
		return rc;
	f->have_key = 1;
	return b->obs ? observe_key(b, f, m) : 0;
}

static int push(builder *b, json_t *node, int is_map, const yaml_char_t *anchor_name, const yaml_mark_t *m)
{
	if (!node)
		return dsi_error_nomem(b->err);
	if (b->depth >= DSI_MAX_DEPTH) {
		json_decref(node);
		return fail_at(b, m, DS_ELIMIT, "document nesting is deeper than %s levels", "2048");
	}
	if (DSI_GROW(b->stack, b->cap, b->depth + 1) < 0) {
		json_decref(node);
		return dsi_error_nomem(b->err);
	}
	const frame *parent = b->depth ? &b->stack[b->depth - 1] : NULL;
	int merge_src = !is_map && parent && parent->is_map && parent->have_key && parent->key_is_merge;
	frame *f = &b->stack[b->depth++];
	if (b->depth > b->used) { /* an entry not used before: no buffer yet */
		memset(f, 0, sizeof(*f));
		b->used = b->depth;
	}
	char *key = f->key;
	size_t key_cap = f->key_cap;
	memset(f, 0, sizeof(*f));
	f->key = key;
	f->key_cap = key_cap;
	f->node = node;
	f->is_map = is_map;
	f->merge_src = merge_src;
	/* a List's items, one at a time: the sequence under the root mapping's key "items" (not one an
	 * anchor names, which an alias would then find empty) */
	f->stream = b->item_fn && !is_map && b->depth == 2 && parent->is_map && parent->have_key &&
		    !parent->key_is_merge && strcmp(parent->key, "items") == 0 && !anchor_name;
	f->size = 1;
	b->decode_count++;
	if (anchor_name && !(f->anchor_name = dsi_strdup((const char *)anchor_name)))
		return dsi_error_nomem(b->err);
	return 0;
}

/* Apply merge keys: explicit keys win, then earlier merge sources. */
static int apply_merges(builder *b, frame *f)
{
	size_t i;
	json_t *src;
	json_array_foreach(f->merges, i, src)
	{
		const char *k;
		json_t *v;
		json_object_foreach(src, k, v)
		{
			if (!json_object_get(f->node, k) && json_object_set(f->node, k, v))
				return dsi_error_nomem(b->err);
		}
	}
	return 0;
}

static int pop(builder *b, const yaml_mark_t *m)
{
	frame *f = &b->stack[b->depth - 1];
	int rc = 0;
	if (f->is_map && f->merges)
		rc = apply_merges(b, f);
	if (rc == 0 && f->anchor_name)
		rc = anchor_define(b, f->anchor_name, f->node, f->size, -1, 0);
	if (rc < 0)
		return rc;
	json_t *node = f->node;
	size_t size = f->size;
	f->node = NULL;
	frame_release(f);
	b->depth--;
	return deliver(b, node, size, m, 0);
}

static int is_core_tag(const char *tag, const char *name)
{
	return tag && strncmp(tag, "tag:yaml.org,2002:", 18) == 0 && strcmp(tag + 18, name) == 0;
}

static const char *kind_tag(scalar_kind k)
{
	switch (k) {
	case KIND_NULL: return "!!null";
	case KIND_BOOL: return "!!bool";
	case KIND_INT:
	case KIND_UINT: return "!!int";
	case KIND_FLOAT: return "!!float";
	default: return "!!str";
	}
}

/* The JSON value of a scalar event (new reference in *out), and the Go type go-yaml gave it. */
static int scalar_value(builder *b, const yaml_event_t *ev, json_t **out, scalar_kind *kind, uint64_t *uvalue)
{
	const char *text = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	const char *tag = (const char *)ev->data.scalar.tag;
	const yaml_mark_t *m = &ev->start_mark;
	*out = NULL;
	*kind = KIND_STR;
	if (memchr(text, '\0', len))
		return fail_at(b, m, DS_ESYNTAX, "NUL characters in strings are not supported%s", "");
	int resolve = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	const char *want = NULL;
	if (is_core_tag(tag, "str") || is_core_tag(tag, "binary") || is_core_tag(tag, "timestamp") ||
	    (tag && strcmp(tag, "!") == 0))
		resolve = 0;
	else if (is_core_tag(tag, "int") || is_core_tag(tag, "float") || is_core_tag(tag, "bool") ||
		 is_core_tag(tag, "null"))
		resolve = 1, want = tag + 18;
	json_t *v;
	if (!resolve) {
		v = json_stringn(text, len);
	} else {
		v = resolve_plain(text, len, kind, uvalue, b->err);
		if (!v) {
			dsi_error_set_position(b->err, (int)m->line + 1, (int)m->column + 1);
			return b->err ? b->err->code : DS_EVALUE;
		}
		/* resolve's deferred check: the resolved type must be the tagged one, except that !!float takes an
		 * int / int64 (converted to float64, the same JSON number) but not a uint64 */
		if (want && !((strcmp(want, "int") == 0 && (*kind == KIND_INT || *kind == KIND_UINT)) ||
			      (strcmp(want, "float") == 0 && (*kind == KIND_FLOAT || *kind == KIND_INT)) ||
			      (strcmp(want, "bool") == 0 && *kind == KIND_BOOL) ||
			      (strcmp(want, "null") == 0 && *kind == KIND_NULL))) {
			char msg[DS_ERROR_MESSAGE_MAX];
			snprintf(msg, sizeof(msg), "cannot decode %s `%.*s` as a !!%s", kind_tag(*kind),
				 (int)(len > 200 ? 200 : len), text, want);
			json_decref(v);
			return fail_at(b, m, DS_ESYNTAX, "%s", msg);
		}
		if (want && strcmp(want, "float") == 0)
			*kind = KIND_FLOAT;
	}
	if (!v)
		return dsi_error_nomem(b->err);
	*out = v;
	return 0;
}

/*
 * A scalar about to become a map key (convertToJSONableObject, sigs.k8s.io/yaml yaml.go): a float64 key is
 * spelled with FormatFloat(f, 'g', -1, 32) even when integral (1e10 gives "1e+10", not "10000000000"), so
 * *v becomes a real for key_string; a uint64 key has no case there: "unsupported map key of type: uint64".
 * kind is a scalar_kind, or -1 for a container.
 */
static int key_kind(builder *b, int kind, uint64_t uvalue, json_t **v, const yaml_mark_t *m)
{
	frame *f = b->depth ? &b->stack[b->depth - 1] : NULL;
	if (!f || !f->is_map || f->have_key)
		return 0;
	if (kind == KIND_UINT) {
		char key[32];
		snprintf(key, sizeof(key), "%#llx", (unsigned long long)uvalue); /* Go's %#v of a uint64 */
		return fail_at(b, m, DS_ESYNTAX, "unsupported map key of type: uint64, key: %s", key);
	}
	if (kind == KIND_FLOAT && json_is_integer(*v)) {
		json_t *r = json_real((double)json_integer_value(*v));
		if (!r)
			return dsi_error_nomem(b->err);
		json_decref(*v);
		*v = r;
	}
	return 0;
}

typedef struct emit_ctx {
	dsi_yaml_doc_fn fn;
	void *ctx;
} emit_ctx;

static int finish_document(builder *b, emit_ctx *e, size_t index, int line)
{
	json_t *doc = b->root;
	b->root = NULL;
	if (!doc || json_is_null(doc)) { /* a lone "---" or a comment-only document */
		json_decref(doc);
		return 0;
	}
	if (b->shared) { /* aliases share nodes; give the caller a plain tree */
		json_t *copy = json_deep_copy(doc);
		json_decref(doc);
		if (!copy)
			return dsi_error_nomem(b->err);
		doc = copy;
	}
	return e->fn(e->ctx, doc, index, line);
}

static int handle(builder *b, yaml_event_t *ev, emit_ctx *e, size_t *doc_index, int *doc_line);

/* ---- a Node's status.images left out (DSI_FRONT_NODE_IMAGES) ------------------------------------------ */

/* An event of the images held back: where it starts, and a scalar's text in sk_text. */
typedef struct skev {
	uint32_t line, column;
	size_t off, len;
	uint8_t type, style;
} skev;

/* The sequence that ev starts is a List item's status.images and the item is a Node: the item's own
 * kind, set before its status (kubectl writes keys sorted), is the string "Node". Nothing an anchor
 * names is open (an alias could otherwise reach the value left out), and the sequence has neither
 * anchor nor tag. */
static int images_start(const builder *b, const yaml_event_t *ev)
{
	if (!(b->skip & DSI_FRONT_NODE_IMAGES) || b->sk_replay || b->depth != 4 || ev->data.sequence_start.anchor ||
	    ev->data.sequence_start.tag)
		return 0;
	const frame *s = b->stack;
	if (!s[1].stream || !s[2].is_map || !s[3].is_map)
		return 0;
	for (size_t i = 0; i < 4; i++)
		if (s[i].anchor_name)
			return 0;
	if (!s[2].have_key || s[2].key_is_merge || strcmp(s[2].key, "status") != 0 || !s[3].have_key ||
	    s[3].key_is_merge || strcmp(s[3].key, "images") != 0)
		return 0;
	const json_t *kind = json_object_get(s[2].node, "kind");
	return json_is_string(kind) && strcmp(json_string_value(kind), "Node") == 0;
}

/* Printable ASCII, as the JSON scanner's plain strings (core/jsonscan.c). */
static int printable_ascii(const char *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (t[i] < 0x20 || t[i] > 0x7e)
			return 0;
	return 1;
}

/* An image's name as scalar_value makes it a JSON string, without a tag: quoted (or block) text
 * stays a string; plain text that resolve_plain leaves a string (resolve_plain itself for text that
 * starts like a number, such as an ECR registry's account number). -1: no memory. */
static int image_name(builder *b, const char *t, size_t n, int style)
{
	if (!printable_ascii(t, n))
		return 0;
	if (style != YAML_PLAIN_SCALAR_STYLE || plain_is_string(t, n))
		return 1;
	if (!n || t[0] < '0' || t[0] > '9')
		return 0;
	scalar_kind kind;
	uint64_t u;
	json_t *v = resolve_plain(t, n, &kind, &u, b->err);
	if (!v)
		return -1;
	json_decref(v);
	return kind == KIND_STR;
}

/* sizeBytes as the JSON scanner takes it: a plain decimal of at most 18 digits without a leading zero,
 * which resolve_plain reads as that int64 (a leading zero would be octal). */
static int image_size(const char *t, size_t n, int style)
{
	if (style != YAML_PLAIN_SCALAR_STYLE || !n || n > 18 || (t[0] == '0' && n > 1))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (t[i] < '0' || t[i] > '9')
			return 0;
	return 1;
}

/*
 * An event of a Node's status.images (the first is its sequence start): held while the value is in the
 * plain form that dsi_jsonscan_plain_images takes in JSON (a sequence of mappings with at most the keys
 * names, a sequence of printable ASCII strings, and sizeBytes, a non-negative int64; each key once; no
 * anchor, alias, tag or merge key anywhere). Every such event would only have built nodes, so no error
 * can come of the ones held; at the sequence's end an empty sequence of the same node count goes where
 * it would have. On the first event out of that form, the held ones and it go through handle as
 * always, so that the tree, the counts and every error are what they would have been.
 */
static int images_event(builder *b, yaml_event_t *ev, emit_ctx *e, size_t *doc_index, int *doc_line)
{
	int ok = 0, end = 0;
	if (!b->sk_on) {
		b->sk_on = 1;
		b->sk_lvl = 0;
		b->sk_n = 0;
		dsi_strbuf_truncate(&b->sk_text, 0);
		ok = 1;
	} else {
		switch (ev->type) {
		case YAML_MAPPING_START_EVENT:
			ok = b->sk_lvl == 0 && !ev->data.mapping_start.anchor && !ev->data.mapping_start.tag;
			b->sk_lvl = 1;
			b->sk_want = b->sk_seen = 0;
			break;
		case YAML_MAPPING_END_EVENT:
			ok = b->sk_lvl == 1 && b->sk_want == 0;
			b->sk_lvl = 0;
			break;
		case YAML_SEQUENCE_START_EVENT:
			ok = b->sk_lvl == 1 && b->sk_want == 1 && !ev->data.sequence_start.anchor &&
			     !ev->data.sequence_start.tag;
			b->sk_lvl = 2;
			break;
		case YAML_SEQUENCE_END_EVENT:
			ok = b->sk_lvl == 2 || b->sk_lvl == 0;
			end = b->sk_lvl == 0;
			b->sk_lvl = 1;
			b->sk_want = 0;
			break;
		case YAML_SCALAR_EVENT: {
			const char *t = (const char *)ev->data.scalar.value;
			size_t n = ev->data.scalar.length;
			int style = (int)ev->data.scalar.style;
			if (ev->data.scalar.anchor || ev->data.scalar.tag)
				break;
			if (b->sk_lvl == 2) {
				if ((ok = image_name(b, t, n, style)) < 0)
					return dsi_error_nomem(b->err);
			} else if (b->sk_lvl == 1 && b->sk_want == 0) {
				/* handle's string keys: neither word starts like a number nor is "<<" */
				if (n == 5 && memcmp(t, "names", 5) == 0 && !(b->sk_seen & 1))
					ok = 1, b->sk_seen |= 1, b->sk_want = 1;
				else if (n == 9 && memcmp(t, "sizeBytes", 9) == 0 && !(b->sk_seen & 2))
					ok = 1, b->sk_seen |= 2, b->sk_want = 2;
			} else if (b->sk_lvl == 1 && b->sk_want == 2) {
				ok = image_size(t, n, style);
				b->sk_want = 0;
			}
			break;
		}
		default: break;
		}
	}
	if (ok && end) {
		size_t nodes = 0;
		for (size_t i = 0; i < b->sk_n; i++)
			nodes += b->sk_ev[i].type == YAML_SCALAR_EVENT ||
				 b->sk_ev[i].type == YAML_MAPPING_START_EVENT ||
				 b->sk_ev[i].type == YAML_SEQUENCE_START_EVENT;
		b->sk_on = 0;
		b->sk_n = 0;
		b->decode_count += nodes;
		json_t *empty = json_array();
		if (!empty)
			return dsi_error_nomem(b->err);
		return deliver(b, empty, nodes, &ev->start_mark, 0);
	}
	if (ok) {
		if (DSI_GROW(b->sk_ev, b->sk_cap, b->sk_n + 1) < 0)
			return dsi_error_nomem(b->err);
		skev *k = &b->sk_ev[b->sk_n++];
		*k = (skev){(uint32_t)ev->start_mark.line, (uint32_t)ev->start_mark.column, 0, 0, (uint8_t)ev->type, 0};
		if (ev->type == YAML_SCALAR_EVENT) {
			k->off = b->sk_text.len;
			k->len = ev->data.scalar.length;
			k->style = (uint8_t)ev->data.scalar.style;
			dsi_strbuf_append(&b->sk_text, (const char *)ev->data.scalar.value, k->len);
			dsi_strbuf_putc(&b->sk_text, '\0');
			if (b->sk_text.oom)
				return dsi_error_nomem(b->err);
		}
		return 0;
	}
	/* out of the plain form: what was held, then this event, as always */
	b->sk_on = 0;
	b->sk_replay = 1;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < b->sk_n; i++) {
		const skev *k = &b->sk_ev[i];
		yaml_event_t held;
		memset(&held, 0, sizeof(held));
		held.type = (yaml_event_type_t)k->type;
		held.start_mark.line = k->line;
		held.start_mark.column = k->column;
		if (k->type == YAML_SCALAR_EVENT) {
			held.data.scalar.value = (yaml_char_t *)b->sk_text.data + k->off;
			held.data.scalar.length = k->len;
			held.data.scalar.style = (yaml_scalar_style_t)k->style;
		}
		rc = handle(b, &held, e, doc_index, doc_line);
	}
	b->sk_n = 0;
	if (rc == 0)
		rc = handle(b, ev, e, doc_index, doc_line);
	b->sk_replay = 0;
	return rc;
}

static int handle(builder *b, yaml_event_t *ev, emit_ctx *e, size_t *doc_index, int *doc_line)
{
	if (b->sk_on || (ev->type == YAML_SEQUENCE_START_EVENT && images_start(b, ev)))
		return images_event(b, ev, e, doc_index, doc_line);
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		builder_reset(b);
		*doc_line = (int)ev->start_mark.line + 1;
		b->doc_index = *doc_index;
		b->doc_line = *doc_line;
		return 0;
	case YAML_DOCUMENT_END_EVENT: {
		int rc = finish_document(b, e, *doc_index, *doc_line);
		(*doc_index)++;
		builder_reset(b);
		return rc;
	}
	case YAML_MAPPING_START_EVENT: return push(b, json_object(), 1, ev->data.mapping_start.anchor, &ev->start_mark);
	case YAML_SEQUENCE_START_EVENT:
		return push(b, json_array(), 0, ev->data.sequence_start.anchor, &ev->start_mark);
	case YAML_MAPPING_END_EVENT:
	case YAML_SEQUENCE_END_EVENT: return pop(b, &ev->start_mark);
	case YAML_SCALAR_EVENT: {
		frame *top = b->depth ? &b->stack[b->depth - 1] : NULL;
		const char *text = (const char *)ev->data.scalar.value;
		size_t len = ev->data.scalar.length;
		if (top && top->is_map && !top->have_key && !ev->data.scalar.anchor && !ev->data.scalar.tag &&
		    (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
		     (plain_is_string(text, len) && !(len == 2 && memcmp(text, "<<", 2) == 0))))
			return string_key(b, top, text, len, &ev->start_mark);
		b->decode_count++;
		int merge = 0;
		if (b->depth && b->stack[b->depth - 1].is_map && !b->stack[b->depth - 1].have_key &&
		    ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && !ev->data.scalar.tag &&
		    ev->data.scalar.length == 2 && memcmp(ev->data.scalar.value, "<<", 2) == 0)
			merge = 1;
		json_t *v = NULL;
		scalar_kind kind = KIND_STR;
		uint64_t uvalue = 0;
		int rc = merge ? 0 : scalar_value(b, ev, &v, &kind, &uvalue);
		if (rc < 0)
			return rc;
		if (merge)
			v = json_null();
		if (ev->data.scalar.anchor) {
			rc = anchor_define(b, (const char *)ev->data.scalar.anchor, v, 1, (int)kind, uvalue);
			if (rc < 0) {
				json_decref(v);
				return rc;
			}
		}
		if ((rc = key_kind(b, (int)kind, uvalue, &v, &ev->start_mark)) < 0) {
			json_decref(v);
			return rc;
		}
		return deliver(b, v, 1, &ev->start_mark, merge);
	}
	case YAML_ALIAS_EVENT: {
		anchor *a = anchor_find(b, (const char *)ev->data.alias.anchor);
		if (!a)
			return fail_at(b, &ev->start_mark, DS_ESYNTAX, "unknown anchor '%s' referenced",
				       (const char *)ev->data.alias.anchor);
		int rc = count_alias(b, a->size, &ev->start_mark);
		if (rc < 0)
			return rc;
		json_t *v = json_incref(a->value);
		if ((rc = key_kind(b, a->kind, a->uvalue, &v, &ev->start_mark)) < 0) {
			json_decref(v);
			return rc;
		}
		b->shared = 1;
		return deliver(b, v, a->size, &ev->start_mark, 0);
	}
	default: return 0;
	}
}

/* libyaml's reader (bad UTF-8, control characters) reports a byte offset and no mark: the line
 * and column (in characters, counting bytes that do not continue a UTF-8 sequence) of that byte. */
static void reader_position(const char *data, size_t size, size_t offset, ds_error *err)
{
	int line = 1, column = 1;
	for (size_t i = 0; i < offset && i < size; i++) {
		if (data[i] == '\n') {
			line++;
			column = 1;
		} else if (((unsigned char)data[i] & 0xC0) != 0x80) {
			column++;
		}
	}
	dsi_error_set_position(err, line, column);
}

int dsi_yaml_parse(const char *data, size_t size, const dsi_limits *lim, dsi_yaml_doc_fn fn, void *ctx, ds_error *err)
{
	return dsi_yaml_parse_observed(data, size, lim, NULL, fn, ctx, err);
}

/* What libyaml said when it stopped: copied from the parser, so that the thread that reports it need
 * not be the one that parsed (libyaml's problem and context are static strings). */
typedef struct yfail {
	int memory, reader;
	const char *problem, *context;
	yaml_mark_t mark; /* of the problem when there is one, else of the parser */
	size_t offset;    /* a reader error's byte */
} yfail;

static void yfail_of(const yaml_parser_t *p, yfail *f)
{
	f->memory = p->error == YAML_MEMORY_ERROR;
	f->reader = p->error == YAML_READER_ERROR;
	f->problem = p->problem;
	f->context = p->context;
	f->mark = p->problem ? p->problem_mark : p->mark;
	f->offset = p->problem_offset;
}

static int yfail_report(const yfail *f, const char *data, size_t size, ds_error *err)
{
	if (f->memory)
		return dsi_error_nomem(err);
	if (f->context)
		dsi_error_set(err, DS_ESYNTAX, NULL, "%s %s", f->problem ? f->problem : "error", f->context);
	else
		dsi_error_set(err, DS_ESYNTAX, NULL, "%s", f->problem ? f->problem : "malformed YAML");
	if (f->reader)
		reader_position(data, size, f->offset, err);
	else
		dsi_error_set_position(err, (int)f->mark.line + 1, (int)f->mark.column + 1);
	return DS_ESYNTAX;
}

typedef struct parse_in {
	const char *data;
	size_t size;
	const dsi_limits *lim;
	const dsi_keyobs *obs;
	dsi_yaml_doc_fn fn;
	dsi_yaml_item_fn item_fn;
	void *ctx;
	ds_error *err;
	unsigned skip;
} parse_in;

/* The events of one parse, in order, to the builder: handle's state around it. */
typedef struct consumer {
	builder b;
	emit_ctx e;
	size_t doc_index;
	int doc_line;
} consumer;

static void consumer_init(consumer *c, const parse_in *in)
{
	memset(c, 0, sizeof(*c));
	c->b.lim = in->lim;
	c->b.err = in->err;
	c->b.obs = in->obs;
	c->b.item_fn = in->item_fn;
	c->b.item_ctx = in->ctx;
	c->b.skip = in->item_fn ? in->skip : 0;
	c->e = (emit_ctx){in->fn, in->ctx};
	c->doc_line = 1;
}

static void consumer_end(consumer *c)
{
	builder_reset(&c->b);
	dsi_strbuf_free(&c->b.path);
	dsi_strbuf_free(&c->b.sk_text);
	for (size_t i = 0; i < c->b.used; i++)
		dsi_free(c->b.stack[i].key);
	dsi_free(c->b.sk_ev);
	dsi_free(c->b.stack);
	dsi_free(c->b.anchors);
}

/* The parse on the caller's thread: each event handled as libyaml makes it. */
static int parse_serial(const parse_in *in)
{
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser))
		return dsi_error_nomem(in->err);
	yaml_parser_set_input_string(&parser, (const unsigned char *)in->data, in->size);
	consumer c;
	consumer_init(&c, in);
	int rc = 0;
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev)) {
			yfail f;
			yfail_of(&parser, &f);
			rc = yfail_report(&f, in->data, in->size, in->err);
			break;
		}
		int done = ev.type == YAML_STREAM_END_EVENT;
		rc = handle(&c.b, &ev, &c.e, &c.doc_index, &c.doc_line);
		yaml_event_delete(&ev);
		if (rc < 0 || done)
			break;
	}
	consumer_end(&c);
	yaml_parser_delete(&parser);
	return rc;
}

/*
 * The parse on two threads: libyaml's scanner and parser, most of a YAML load's time, on one; the
 * builder and everything the callbacks do on the other, in the same order as parse_serial, so that
 * the outcome and the errors are its own. The events travel in blocks, each event a record followed
 * by its strings; at most PIPE_BLOCKS blocks are in flight.
 */
#define PIPE_MIN_BYTES ((size_t)256 << 10)
#define PIPE_BLOCK ((size_t)128 << 10)
#define PIPE_BLOCKS 16

typedef struct yrec {
	uint32_t line, column; /* the event's start mark */
	uint32_t anchor, tag;  /* lengths + 1 of the strings that follow (0: none) */
	size_t len;            /* a scalar's value, the last string */
	uint8_t type, style;
} yrec;

typedef struct yblock {
	size_t used, cap;
	int last;   /* the stream ends with this block: after its end event, or with fail */
	int failed; /* libyaml stopped */
	yfail fail;
	max_align_t data[];
} yblock;

typedef struct pipe_run {
	const parse_in *in;
	const dsi_exec *exec;
	dsi_queue *q;
	int rc;
} pipe_run;

static size_t rec_size(size_t anc, size_t tag, size_t len)
{
	size_t n = sizeof(yrec) + anc + tag + len + 1;
	return (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
}

static yblock *block_new(size_t need)
{
	size_t cap = need > PIPE_BLOCK ? need : PIPE_BLOCK;
	yblock *k = dsi_malloc(sizeof(yblock) + cap);
	if (k) {
		memset(k, 0, sizeof(*k));
		k->cap = cap;
	}
	return k;
}

static size_t opt_len(const yaml_char_t *s) { return s ? strlen((const char *)s) + 1 : 0; }

static void put_str(char **at, const yaml_char_t *s, size_t n)
{
	if (n) {
		memcpy(*at, s, n - 1);
		(*at)[n - 1] = '\0';
		*at += n;
	}
}

/* Thread 0: libyaml's events into blocks. */
static void produce(pipe_run *r)
{
	const parse_in *in = r->in;
	yaml_parser_t parser;
	yblock *k = block_new(0);
	int ok = k && yaml_parser_initialize(&parser);
	if (!ok) {
		if (k) {
			k->failed = k->last = 1;
			k->fail.memory = 1;
			if (r->exec->queue_put(r->q, k) < 0)
				dsi_free(k);
		}
		r->exec->queue_close(r->q);
		return;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)in->data, in->size);
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev)) {
			k->failed = k->last = 1;
			yfail_of(&parser, &k->fail);
		} else {
			const yaml_char_t *anc = NULL, *tag = NULL, *value = NULL;
			size_t len = 0;
			uint8_t style = 0;
			if (ev.type == YAML_SCALAR_EVENT) {
				anc = ev.data.scalar.anchor;
				tag = ev.data.scalar.tag;
				value = ev.data.scalar.value;
				len = ev.data.scalar.length;
				style = (uint8_t)ev.data.scalar.style;
			} else if (ev.type == YAML_MAPPING_START_EVENT) {
				anc = ev.data.mapping_start.anchor;
			} else if (ev.type == YAML_SEQUENCE_START_EVENT) {
				anc = ev.data.sequence_start.anchor;
			} else if (ev.type == YAML_ALIAS_EVENT) {
				anc = ev.data.alias.anchor;
			}
			size_t na = opt_len(anc), nt = opt_len(tag), need = rec_size(na, nt, len);
			if (k->used + need > k->cap) {
				yblock *next = block_new(need);
				if (!next || r->exec->queue_put(r->q, k) < 0) {
					yaml_event_delete(&ev);
					dsi_free(next);
					if (!next) { /* no memory: the consumer reports it */
						k->failed = k->last = 1;
						k->fail.memory = 1;
						if (r->exec->queue_put(r->q, k) == 0)
							k = NULL;
					}
					break;
				}
				k = next;
			}
			yrec *rec = (yrec *)(void *)((char *)k->data + k->used);
			*rec = (yrec){(uint32_t)ev.start_mark.line,
				      (uint32_t)ev.start_mark.column,
				      (uint32_t)na,
				      (uint32_t)nt,
				      len,
				      (uint8_t)ev.type,
				      style};
			char *at = (char *)(rec + 1);
			put_str(&at, anc, na);
			put_str(&at, tag, nt);
			if (value)
				memcpy(at, value, len);
			at[len] = '\0';
			k->used += need;
			k->last = ev.type == YAML_STREAM_END_EVENT;
			yaml_event_delete(&ev);
		}
		if (k->last) {
			if (r->exec->queue_put(r->q, k) == 0)
				k = NULL;
			break;
		}
	}
	dsi_free(k);
	yaml_parser_delete(&parser);
	r->exec->queue_close(r->q);
}

/* Thread 1: the events of each block, in order, as parse_serial handles them. */
static void consume(pipe_run *r)
{
	const parse_in *in = r->in;
	consumer c;
	consumer_init(&c, in);
	int rc = 0, done = 0;
	yblock *k;
	while (!done && (k = r->exec->queue_get(r->q))) {
		for (size_t at = 0; rc == 0 && !done && at < k->used;) {
			const yrec *rec = (const yrec *)(const void *)((const char *)k->data + at);
			yaml_char_t *str = (yaml_char_t *)(rec + 1);
			yaml_char_t *anc = rec->anchor ? str : NULL;
			yaml_char_t *tag = rec->tag ? str + rec->anchor : NULL;
			yaml_event_t ev;
			memset(&ev, 0, sizeof(ev));
			ev.type = (yaml_event_type_t)rec->type;
			ev.start_mark.line = rec->line;
			ev.start_mark.column = rec->column;
			if (ev.type == YAML_SCALAR_EVENT) {
				ev.data.scalar.anchor = anc;
				ev.data.scalar.tag = tag;
				ev.data.scalar.value = str + rec->anchor + rec->tag;
				ev.data.scalar.length = rec->len;
				ev.data.scalar.style = (yaml_scalar_style_t)rec->style;
			} else if (ev.type == YAML_MAPPING_START_EVENT) {
				ev.data.mapping_start.anchor = anc;
			} else if (ev.type == YAML_SEQUENCE_START_EVENT) {
				ev.data.sequence_start.anchor = anc;
			} else if (ev.type == YAML_ALIAS_EVENT) {
				ev.data.alias.anchor = anc;
			}
			done = ev.type == YAML_STREAM_END_EVENT;
			rc = handle(&c.b, &ev, &c.e, &c.doc_index, &c.doc_line);
			at += rec_size(rec->anchor, rec->tag, rec->len);
		}
		if (rc == 0 && !done && k->failed)
			rc = yfail_report(&k->fail, in->data, in->size, in->err);
		done |= rc < 0 || k->last;
		dsi_free(k);
	}
	if (!done && rc == 0) /* the stream ended without its end: no memory for a block */
		rc = dsi_error_nomem(in->err);
	/* the producer may be waiting to hand over more: it stops at the next block */
	r->exec->queue_close(r->q);
	while ((k = r->exec->queue_get(r->q)))
		dsi_free(k);
	consumer_end(&c);
	r->rc = rc;
}

static void pipe_work(void *arg, unsigned t)
{
	if (t == 0)
		produce(arg);
	else
		consume(arg);
}

static int parse(const parse_in *in, const dsi_exec *exec, unsigned threads)
{
	if (!exec || in->size < PIPE_MIN_BYTES || exec->threads(threads) < 2)
		return parse_serial(in);
	pipe_run r = {in, exec, exec->queue_new(PIPE_BLOCKS), 0};
	if (!r.q)
		return parse_serial(in);
	int started = exec->run(2, pipe_work, &r);
	exec->queue_free(r.q);
	return started < 0 ? parse_serial(in) : r.rc;
}

int dsi_yaml_parse_observed(const char *data, size_t size, const dsi_limits *lim, const dsi_keyobs *obs,
			    dsi_yaml_doc_fn fn, void *ctx, ds_error *err)
{
	const parse_in in = {data, size, lim, obs, fn, NULL, ctx, err, 0};
	return parse(&in, NULL, 0);
}

int dsi_yaml_parse_items(const char *data, size_t size, const dsi_limits *lim, dsi_yaml_doc_fn fn,
			 dsi_yaml_item_fn item_fn, const dsi_exec *exec, unsigned threads, unsigned skip, void *ctx,
			 ds_error *err)
{
	const parse_in in = {data, size, lim, NULL, fn, item_fn, ctx, err, skip};
	return parse(&in, exec, threads);
}

/* ---- where a field is: the line and column of a path in a document --------------------------------- */

/* One component of a path as the readers write them: a key ("spec", ["a.b/c"]) or an index ([3]). */
typedef struct path_comp {
	const char *key; /* NULL for an index */
	size_t len;
	size_t index;
} path_comp;

/* Split path ("items[2].spec.taints[0].effect", "metadata.labels[\"a/b\"]") into at most max
 * components; -1 when it does not parse. */
static int split_path(const char *p, path_comp *out, int max)
{
	int n = 0;
	while (*p) {
		if (n == max)
			return -1;
		if (*p == '.')
			p++;
		if (p[0] == '[' && p[1] == '"') { /* ["key"] */
			const char *e = strstr(p + 2, "\"]");
			if (!e)
				return -1;
			out[n++] = (path_comp){p + 2, (size_t)(e - p - 2), 0};
			p = e + 2;
		} else if (*p == '[') {
			char *end;
			unsigned long long v = strtoull(p + 1, &end, 10);
			if (end == p + 1 || *end != ']')
				return -1;
			out[n++] = (path_comp){NULL, 0, (size_t)v};
			p = end + 1;
		} else {
			size_t len = strcspn(p, ".[");
			if (!len)
				return -1;
			out[n++] = (path_comp){p, len, 0};
			p += len;
		}
	}
	return n;
}

typedef struct locator {
	yaml_parser_t parser;
	yaml_mark_t best; /* the deepest node of the path found so far */
	int depth;        /* how many components it matched */
	int failed;       /* the parser failed */
} locator;

static int next_event(locator *l, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&l->parser, ev)) {
		l->failed = 1;
		return 0;
	}
	return 1;
}

/* Skip the rest of a node whose start event ev was (consumed). */
static int skip_node(locator *l, const yaml_event_t *start)
{
	if (start->type != YAML_MAPPING_START_EVENT && start->type != YAML_SEQUENCE_START_EVENT)
		return 1;
	int depth = 1;
	while (depth) {
		yaml_event_t ev;
		if (!next_event(l, &ev))
			return 0;
		if (ev.type == YAML_MAPPING_START_EVENT || ev.type == YAML_SEQUENCE_START_EVENT)
			depth++;
		else if (ev.type == YAML_MAPPING_END_EVENT || ev.type == YAML_SEQUENCE_END_EVENT)
			depth--;
		yaml_event_delete(&ev);
	}
	return 1;
}

/* Walk the node that starts with start along comps[i..n): record the deepest match; the node is
 * consumed whole. */
static int walk(locator *l, yaml_event_t *start, const path_comp *comps, int i, int n)
{
	if (i > l->depth) {
		l->depth = i;
		l->best = start->start_mark;
	}
	if (i == n)
		return skip_node(l, start);
	const path_comp *c = &comps[i];
	if (start->type == YAML_MAPPING_START_EVENT) {
		for (;;) {
			yaml_event_t key, val;
			if (!next_event(l, &key))
				return 0;
			if (key.type == YAML_MAPPING_END_EVENT) {
				yaml_event_delete(&key);
				return 1;
			}
			int match = c->key && key.type == YAML_SCALAR_EVENT && key.data.scalar.length == c->len &&
				    memcmp(key.data.scalar.value, c->key, c->len) == 0;
			yaml_mark_t key_mark = key.start_mark;
			int ok = skip_node(l, &key);
			yaml_event_delete(&key);
			if (!ok || !next_event(l, &val))
				return 0;
			if (match && i + 1 > l->depth) { /* the key itself, in case its value is not a node we walk */
				l->depth = i + 1;
				l->best = key_mark;
			}
			ok = match ? walk(l, &val, comps, i + 1, n) : skip_node(l, &val);
			yaml_event_delete(&val);
			if (!ok)
				return 0;
		}
	}
	if (start->type == YAML_SEQUENCE_START_EVENT) {
		for (size_t k = 0;; k++) {
			yaml_event_t item;
			if (!next_event(l, &item))
				return 0;
			if (item.type == YAML_SEQUENCE_END_EVENT) {
				yaml_event_delete(&item);
				return 1;
			}
			int ok = !c->key && k == c->index ? walk(l, &item, comps, i + 1, n) : skip_node(l, &item);
			yaml_event_delete(&item);
			if (!ok)
				return 0;
		}
	}
	return 1; /* a scalar or an alias: the path goes no deeper here */
}

int dsi_yaml_locate(const char *data, size_t size, size_t document, const char *path, int *line, int *column)
{
	*line = *column = 0;
	path_comp comps[64];
	int n = split_path(path ? path : "", comps, 64);
	if (n < 0)
		return -1;
	locator l;
	memset(&l, 0, sizeof(l));
	l.depth = -1;
	if (!yaml_parser_initialize(&l.parser))
		return -1;
	yaml_parser_set_input_string(&l.parser, (const unsigned char *)data, size);
	size_t doc = 0;
	int found = 0;
	for (;;) {
		yaml_event_t ev;
		if (!next_event(&l, &ev))
			break;
		yaml_event_type_t t = ev.type;
		if (t == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		if (t == YAML_DOCUMENT_START_EVENT && doc++ == document) {
			yaml_event_t root;
			yaml_event_delete(&ev);
			if (next_event(&l, &root)) {
				/* an empty document's root is an empty plain scalar: no node to point at */
				int empty = root.type == YAML_SCALAR_EVENT && !root.data.scalar.length &&
					    root.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
				if (!empty)
					walk(&l, &root, comps, 0, n);
				yaml_event_delete(&root);
			}
			found = l.depth >= 0;
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&l.parser);
	if (!found)
		return -1;
	*line = (int)l.best.line + 1;
	*column = (int)l.best.column + 1;
	return l.depth == n ? 0 : 1;
}
