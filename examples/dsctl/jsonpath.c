/*
 * kubectl's JSONPath templates (-o jsonpath=..., and the cells of -o custom-columns=...), carried over from
 * k8s.io/client-go/util/jsonpath (parser.go, jsonpath.go) and the comparison functions it borrows from
 * text/template (client-go third_party/forked/golang/template/funcs.go), run over a jansson document the way
 * kubectl runs them over an unstructured object: a JSON integer is an int64, a real a float64.
 *
 * The grammar (what client-go's parser accepts, quirks included):
 *   template   text outside braces is printed as is; {ACTION} is evaluated; a "{" cannot be escaped
 *              outside an action ({"{"} prints one)
 *   ACTION     a sequence of, applied left to right to the current values (at first the document):
 *     .name        the member "name" of each object (a "\" keeps the next character: .kubernetes\.io/arch);
 *                  a name ends at space, tab, CR, LF, . , [ ] $ @ { }
 *     .*           every member value or element (a string yields its bytes as numbers, as in client-go)
 *     [*]          every element: the slice [:] (of an object it is an error)
 *     ..name  ..   recursive descent: every object, array and non-empty string under the values, in
 *                  pre-order, then .name of each (three dots are the same as two; more is an error)
 *     [i] [-i]     an element (negative from the end); [a:b] [a:] [:b] [a:b:s] [::s] slices (s > 0);
 *                  [] is [0]; an index out of range is an error, [n:n] an empty selection
 *     ['a.b']      the path .a.b (the key is parsed as a field path: ['a\.b'] is the key "a.b");
 *                  double quotes are not keys: ["a"] is "invalid array index"
 *     [x, y, ...]  union: the results of [x], [y], ... one after the other
 *     [?(L OP R)]  filter an array: the elements for which L OP R holds, L and R evaluated on the element
 *                  (@.status, a number, "text" or 'text', true, false); OP one of == != < > <= >=;
 *                  numbers compare only with numbers of the same kind (an integer with 1, a real with 1.0),
 *                  strings with strings, booleans only with == and !=; anything else (null included) is
 *                  an error. [?(@.x)] keeps the elements where @.x exists (where a path like @.a[3]
 *                  fails on its index, it counts as existing, as in client-go).
 *     "text" 'text' a literal, with Go's escapes (\n \t \\ \" \' \xHH \uHHHH \ooo ...)
 *     12 -3 1.5    number literals; true false boolean literals
 *     @ $ space    ignored ({@} and {$} print the current value)
 *     range end    {range EXPR}BODY{end} runs BODY once per value of EXPR, each as the current value (an
 *                  empty range still walks BODY once with no value, without printing: with allow_missing 0
 *                  a field there is "not found", as in client-go)
 *   Output: the values of one action are separated by a space; strings raw, integers in decimal, reals as
 *   Go's fmt prints a float64 (1.5, 1e+06), true/false, null as "null", objects and arrays as Go's
 *   encoding/json writes them (compact, keys sorted, <, > and & as \u003c \u003e \u0026); a null iterated
 *   by range prints "<no value>".
 * Errors as client-go words them: a syntax error ("unclosed action", "unterminated array", "unrecognized
 * character in action: U+002A '*'", ...) with the character where it is; at run time "NAME is not found"
 * when allow_missing is 0 (a missing member is skipped when it is 1, kubectl's default), "array index out
 * of bounds: index 5, length 2", "not in range, nothing to end", "unrecognized identifier foo", ... The
 * output is written only when the whole template succeeds.
 *
 * Not carried over, or different:
 *   - Regular expressions (=~) are not supported (client-go has none either); nor are functions, scripts
 *     (?(@.a + 1)), or the jsonpath-as-json output.
 *   - Members of an object come in the document's order for .* and .. (client-go walks Go maps, in random
 *     order); printed objects have sorted keys as in client-go.
 *   - Letters and digits beyond ASCII: every non-ASCII character counts as a letter (client-go asks Go's
 *     unicode tables), which changes only which error a stray symbol gets.
 *   - Go panics where client-go indexes a nil value (a null iterated by range, then [0]); here that is the
 *     error "<nil> is not array or slice".
 *   - Each execution starts afresh (client-go's JSONPath keeps range state between executions).
 *   - Limits against runaway templates: 64 nested bracket parses, 1000 nested ranges, 2^25 values.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "buf.h"
#include "jsonpath.h"

#include <errno.h>
#include <math.h> /* HUGE_VAL, signbit, isnan, isinf: macros, no libm */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EOF_RUNE (-1)
#define MAX_NESTING 64
#define MAX_RANGE_DEPTH 1000
#define MAX_VALUES ((size_t)1 << 25)
#define PRINTF(a, b) __attribute__((format(printf, a, b)))

/* ---- bytes ------------------------------------------------------------------------------------------ */

static size_t utf8_encode(int32_t r, char out[4])
{
	if (r < 0 || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF))
		r = 0xFFFD;
	if (r < 0x80) {
		out[0] = (char)r;
		return 1;
	}
	if (r < 0x800) {
		out[0] = (char)(0xC0 | r >> 6);
		out[1] = (char)(0x80 | (r & 0x3F));
		return 2;
	}
	if (r < 0x10000) {
		out[0] = (char)(0xE0 | r >> 12);
		out[1] = (char)(0x80 | (r >> 6 & 0x3F));
		out[2] = (char)(0x80 | (r & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | r >> 18);
	out[1] = (char)(0x80 | (r >> 12 & 0x3F));
	out[2] = (char)(0x80 | (r >> 6 & 0x3F));
	out[3] = (char)(0x80 | (r & 0x3F));
	return 4;
}

/* ---- numbers as Go prints them ------------------------------------------------------------------------ */

/* The shortest decimal digits that read back as v (v > 0, finite): v = 0.DIGITS x 10^dp. */
static void float_digits(double v, char dig[24], int *nd, int *dp)
{
	char tmp[48];
	int p;
	for (p = 1; p < 17; p++) {
		snprintf(tmp, sizeof tmp, "%.*e", p - 1, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	snprintf(tmp, sizeof tmp, "%.*e", p - 1, v);
	int n = 0;
	const char *s = tmp;
	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9' && n < 23)
			dig[n++] = *s;
	while (n > 1 && dig[n - 1] == '0')
		n--;
	dig[n] = 0;
	*nd = n;
	*dp = (*s == 'e' ? atoi(s + 1) : 0) + 1;
}

/* strconv's %e: d.ddde+XX, at least two exponent digits. */
static void fmt_e(struct buf *b, const char *dig, int nd, int dp)
{
	buf_ch(b, dig[0]);
	if (nd > 1) {
		buf_ch(b, '.');
		buf_add(b, dig + 1, (size_t)nd - 1);
	}
	int exp = dp - 1;
	char t[16];
	snprintf(t, sizeof t, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
	buf_str(b, t);
}

/* strconv's %f with the shortest digits. */
static void fmt_f(struct buf *b, const char *dig, int nd, int dp)
{
	if (dp > 0) {
		for (int i = 0; i < dp; i++)
			buf_ch(b, i < nd ? dig[i] : '0');
	} else
		buf_ch(b, '0');
	if (nd - dp > 0) {
		buf_ch(b, '.');
		for (int i = 0; i < nd - dp; i++) {
			int j = dp + i;
			buf_ch(b, j < 0 || j >= nd ? '0' : dig[j]);
		}
	}
}

/* fmt.Print of a float64: %v is strconv's 'g' with the shortest digits, which takes %e when the exponent is
 * below -4 or from 6 on (123456 but 1.234567e+06, 0.0001 but 1e-05). */
static void go_fmt_float(struct buf *b, double v)
{
	if (isnan(v)) {
		buf_str(b, "NaN");
		return;
	}
	if (isinf(v)) {
		buf_str(b, v > 0 ? "+Inf" : "-Inf");
		return;
	}
	if (signbit(v))
		buf_ch(b, '-');
	if (v == 0) {
		buf_ch(b, '0');
		return;
	}
	char dig[24];
	int nd, dp;
	float_digits(v < 0 ? -v : v, dig, &nd, &dp);
	if (dp - 1 < -4 || dp - 1 >= 6)
		fmt_e(b, dig, nd, dp);
	else
		fmt_f(b, dig, nd, dp);
}

/* encoding/json's float64: 'f' with the shortest digits, 'e' below 1e-6 and from 1e21, "e-07" as "e-7". */
static void go_json_float(struct buf *b, double v)
{
	if (isnan(v) || isinf(v)) { /* not in JSON; json.Marshal would fail */
		buf_str(b, "null");
		return;
	}
	if (signbit(v))
		buf_ch(b, '-');
	if (v == 0) {
		buf_ch(b, '0');
		return;
	}
	double a = v < 0 ? -v : v;
	char dig[24];
	int nd, dp;
	float_digits(a, dig, &nd, &dp);
	if (a < 1e-6 || a >= 1e21) {
		size_t at = b->len;
		fmt_e(b, dig, nd, dp);
		if (!b->oom && b->len - at >= 4 && b->p[b->len - 4] == 'e' && b->p[b->len - 3] == '-' &&
		    b->p[b->len - 2] == '0') {
			b->p[b->len - 2] = b->p[b->len - 1];
			b->p[--b->len] = 0;
		}
	} else
		fmt_f(b, dig, nd, dp);
}

static void go_int(struct buf *b, json_int_t v)
{
	char t[32];
	snprintf(t, sizeof t, "%" JSON_INTEGER_FORMAT, v);
	buf_str(b, t);
}

/* ---- values as kubectl prints them ---------------------------------------------------------------------- */

struct kv {
	const char *k;
	size_t klen;
	json_t *v;
};

static int kv_cmp(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	size_t n = x->klen < y->klen ? x->klen : y->klen;
	int c = memcmp(x->k, y->k, n);
	if (c)
		return c;
	return x->klen < y->klen ? -1 : x->klen > y->klen;
}

/* The members of an object sorted as Go sorts string map keys (bytewise). NULL with *n = 0 when empty or
 * out of memory (*oom set). */
static struct kv *sorted_members(const json_t *o, size_t *n, int *oom)
{
	*n = json_object_size(o);
	if (*n == 0)
		return NULL;
	struct kv *a = malloc(*n * sizeof *a);
	if (!a) {
		*oom = 1;
		*n = 0;
		return NULL;
	}
	size_t i = 0;
	const char *k;
	size_t kl;
	json_t *v;
	json_object_keylen_foreach((json_t *)o, k, kl, v)
	{
		if (i < *n)
			a[i++] = (struct kv){k, kl, v};
	}
	*n = i;
	qsort(a, i, sizeof *a, kv_cmp);
	return a;
}

/* encoding/json's string: HTML-safe escapes, \ufffd for invalid UTF-8, U+2028 and U+2029 escaped. */
static void json_quote(struct buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	buf_ch(b, '"');
	size_t i = 0, start = 0;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x80) {
			if (c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&') {
				i++;
				continue;
			}
			buf_add(b, s + start, i - start);
			switch (c) {
			case '"': buf_str(b, "\\\""); break;
			case '\\': buf_str(b, "\\\\"); break;
			case '\b': buf_str(b, "\\b"); break;
			case '\f': buf_str(b, "\\f"); break;
			case '\n': buf_str(b, "\\n"); break;
			case '\r': buf_str(b, "\\r"); break;
			case '\t': buf_str(b, "\\t"); break;
			default: {
				char t[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
				buf_str(b, t);
			}
			}
			start = ++i;
			continue;
		}
		size_t w;
		int32_t r = utf8_decode((const unsigned char *)s + i, n - i, &w);
		if (r == 0xFFFD && w == 1) {
			buf_add(b, s + start, i - start);
			buf_str(b, "\\ufffd");
			start = ++i;
			continue;
		}
		if (r == 0x2028 || r == 0x2029) {
			buf_add(b, s + start, i - start);
			buf_str(b, r == 0x2028 ? "\\u2028" : "\\u2029");
			start = i + w;
		}
		i += w;
	}
	buf_add(b, s + start, n - start);
	buf_ch(b, '"');
}

/* json.Marshal of the value (compact). */
static void json_marshal(struct buf *b, const json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_OBJECT: {
		size_t n;
		struct kv *m = sorted_members(j, &n, &b->oom);
		buf_ch(b, '{');
		for (size_t i = 0; i < n; i++) {
			if (i)
				buf_ch(b, ',');
			json_quote(b, m[i].k, m[i].klen);
			buf_ch(b, ':');
			json_marshal(b, m[i].v);
		}
		buf_ch(b, '}');
		free(m);
		break;
	}
	case JSON_ARRAY:
		buf_ch(b, '[');
		for (size_t i = 0; i < json_array_size(j); i++) {
			if (i)
				buf_ch(b, ',');
			json_marshal(b, json_array_get(j, i));
		}
		buf_ch(b, ']');
		break;
	case JSON_STRING: json_quote(b, json_string_value(j), json_string_length(j)); break;
	case JSON_INTEGER: go_int(b, json_integer_value(j)); break;
	case JSON_REAL: go_json_float(b, json_real_value(j)); break;
	case JSON_TRUE: buf_str(b, "true"); break;
	case JSON_FALSE: buf_str(b, "false"); break;
	case JSON_NULL: buf_str(b, "null"); break;
	}
}

/* fmt.Sprint of the value as an unstructured object holds it: map[k:v ...] with sorted keys, [a b], <nil>. */
static void go_sprint(struct buf *b, const json_t *j)
{
	if (!j) {
		buf_str(b, "<nil>");
		return;
	}
	switch (json_typeof(j)) {
	case JSON_OBJECT: {
		size_t n;
		struct kv *m = sorted_members(j, &n, &b->oom);
		buf_str(b, "map[");
		for (size_t i = 0; i < n; i++) {
			if (i)
				buf_ch(b, ' ');
			buf_add(b, m[i].k, m[i].klen);
			buf_ch(b, ':');
			go_sprint(b, m[i].v);
		}
		buf_ch(b, ']');
		free(m);
		break;
	}
	case JSON_ARRAY:
		buf_ch(b, '[');
		for (size_t i = 0; i < json_array_size(j); i++) {
			if (i)
				buf_ch(b, ' ');
			go_sprint(b, json_array_get(j, i));
		}
		buf_ch(b, ']');
		break;
	case JSON_STRING: buf_add(b, json_string_value(j), json_string_length(j)); break;
	case JSON_INTEGER: go_int(b, json_integer_value(j)); break;
	case JSON_REAL: go_fmt_float(b, json_real_value(j)); break;
	case JSON_TRUE: buf_str(b, "true"); break;
	case JSON_FALSE: buf_str(b, "false"); break;
	case JSON_NULL: buf_str(b, "<nil>"); break;
	}
}

/* client-go's PrintResults for one value: JSON for maps and slices, fmt.Print for the rest, "null" for a nil
 * member, "<no value>" for an invalid reflect.Value (a null the template iterated over with range). */
static void print_value(struct buf *b, const json_t *j)
{
	if (!j)
		buf_str(b, "<no value>");
	else if (json_is_object(j) || json_is_array(j))
		json_marshal(b, j);
	else if (json_is_null(j))
		buf_str(b, "null");
	else
		go_sprint(b, j);
}

/* The Go type client-go names in "... is not array or slice". */
static const char *go_type(const json_t *j)
{
	if (!j)
		return "<nil>";
	switch (json_typeof(j)) {
	case JSON_OBJECT: return "map[string]interface {}";
	case JSON_ARRAY: return "[]interface {}";
	case JSON_STRING: return "string";
	case JSON_INTEGER: return "int64";
	case JSON_REAL: return "float64";
	case JSON_TRUE:
	case JSON_FALSE: return "bool";
	default: return "<nil>";
	}
}

/* ---- the syntax tree -------------------------------------------------------------------------------------- */

enum kind {
	N_LIST,
	N_TEXT,
	N_FIELD,
	N_ARRAY,
	N_FILTER,
	N_INT,
	N_FLOAT,
	N_BOOL,
	N_WILDCARD,
	N_RECURSIVE,
	N_UNION,
	N_IDENT
};

struct node;
struct list {
	struct node **v;
	size_t n, cap;
};

struct param {
	int64_t value;
	int known, derived;
};

struct node {
	enum kind kind;
	char *s; /* FIELD and IDENT: the name; FILTER: the operator */
	size_t slen;
	json_t *lit;            /* TEXT, INT, FLOAT, BOOL: the value the node yields */
	struct param params[3]; /* ARRAY: start, end, step */
	struct list sub, right; /* LIST: its nodes; FILTER: the left and right sides */
	struct list *parts;     /* UNION */
	size_t nparts;
};

struct jsonpath {
	struct list root;
};

static void list_free(struct list *l);

static void node_free(struct node *n)
{
	if (!n)
		return;
	free(n->s);
	json_decref(n->lit);
	list_free(&n->sub);
	list_free(&n->right);
	for (size_t i = 0; i < n->nparts; i++)
		list_free(&n->parts[i]);
	free(n->parts);
	free(n);
}

static void list_free(struct list *l)
{
	for (size_t i = 0; i < l->n; i++)
		node_free(l->v[i]);
	free(l->v);
	*l = (struct list){0};
}

/* ---- the parser (client-go parser.go) ------------------------------------------------------------------- */

struct parser {
	const char *in;
	size_t len, pos, start, width;
	struct list root;
	/* A nested parser reads "PREFIX" + a piece of its parent's input + "SUFFIX" (as client-go's parseAction):
	 * where the piece starts in the parent, the prefix length and the piece length map error positions. */
	const struct parser *parent;
	size_t sub_off, pre, sub_len;
	const char *tmpl;
	int depth;
	char *err;
	size_t errsz;
};

static int perr(const struct parser *p, size_t off, const char *fmt, ...) PRINTF(3, 4);
static int perr(const struct parser *p, size_t off, const char *fmt, ...)
{
	if (!p->err || !p->errsz)
		return -1;
	for (; p->parent; p = p->parent) {
		size_t o = off < p->pre ? 0 : off - p->pre;
		off = p->sub_off + (o > p->sub_len ? p->sub_len : o);
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err, p->errsz, fmt, ap);
	va_end(ap);
	size_t n = strlen(p->err), len = strlen(p->tmpl), ch = 1;
	if (off >= len) {
		snprintf(p->err + n, p->errsz - n, " (at the end of the template)");
		return -1;
	}
	for (size_t i = 0, w; i < off; i += w, ch++)
		utf8_decode((const unsigned char *)p->tmpl + i, len - i, &w);
	snprintf(p->err + n, p->errsz - n, " (at character %zu)", ch);
	return -1;
}

static int oom(const struct parser *p)
{
	if (p->err && p->errsz)
		snprintf(p->err, p->errsz, "out of memory");
	return -1;
}

static int32_t p_next(struct parser *p)
{
	if (p->pos >= p->len) {
		p->width = 0;
		return EOF_RUNE;
	}
	int32_t r = utf8_decode((const unsigned char *)p->in + p->pos, p->len - p->pos, &p->width);
	p->pos += p->width;
	return r;
}

static void p_backup(struct parser *p) { p->pos -= p->width; }

static int32_t p_peek(struct parser *p)
{
	int32_t r = p_next(p);
	p_backup(p);
	return r;
}

static int p_has(const struct parser *p, const char *s)
{
	size_t n = strlen(s);
	return p->len - p->pos >= n && memcmp(p->in + p->pos, s, n) == 0;
}

static int is_digit(int32_t r) { return r >= '0' && r <= '9'; }

/* unicode.IsLetter and IsDigit, with every character beyond ASCII (but U+FFFD, an invalid byte) a letter. */
static int is_alnum(int32_t r)
{
	return r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || is_digit(r) ||
	       (r >= 0x80 && r != 0xFFFD);
}

static int is_term(int32_t r)
{
	switch (r) {
	case EOF_RUNE:
	case ' ':
	case '\t':
	case '\r':
	case '\n':
	case '.':
	case ',':
	case '[':
	case ']':
	case '$':
	case '@':
	case '{':
	case '}': return 1;
	default: return 0;
	}
}

/* strconv.IsPrint, roughly beyond ASCII: what %#U shows between quotes. */
static int is_print(int32_t r)
{
	if (r < 0x80)
		return r >= 0x20 && r < 0x7F;
	return r > 0xA0 && r != 0xAD && !(r >= 0x2000 && r <= 0x200F) && !(r >= 0x2028 && r <= 0x202F) &&
	       !(r >= 0x205F && r <= 0x206F) && r != 0x3000 && r != 0xFEFF;
}

static struct node *new_node(enum kind k)
{
	struct node *n = calloc(1, sizeof *n);
	if (n)
		n->kind = k;
	return n;
}

/* Append n to l; on failure n is freed. */
static int list_add(struct list *l, struct node *n)
{
	if (!n)
		return -1;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 4;
		struct node **v = realloc(l->v, cap * sizeof *v);
		if (!v) {
			node_free(n);
			return -1;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = n;
	return 0;
}

static int add_named(struct parser *p, struct list *cur, enum kind k, const char *s, size_t n)
{
	struct node *nd = new_node(k);
	if (!nd || !(nd->s = malloc(n + 1))) {
		free(nd);
		return oom(p);
	}
	memcpy(nd->s, s, n);
	nd->s[n] = 0;
	nd->slen = n;
	return list_add(cur, nd) ? oom(p) : 0;
}

static int add_lit(struct parser *p, struct list *cur, enum kind k, json_t *lit)
{
	struct node *nd = lit ? new_node(k) : NULL;
	if (!nd) {
		json_decref(lit);
		return oom(p);
	}
	nd->lit = lit;
	return list_add(cur, nd) ? oom(p) : 0;
}

static int parse_all(struct parser *p);

/* client-go's parseAction: parse "{" ... "}" built around a piece of this parser's input (starting at off,
 * n bytes) and return the nodes of its first action. */
static int parse_action(struct parser *p, const char *pre, const char *piece, size_t n, size_t off, const char *suf,
			struct list *out)
{
	if (p->depth >= MAX_NESTING)
		return perr(p, off, "template nested too deeply");
	size_t lp = strlen(pre), ls = strlen(suf);
	char *s = malloc(lp + n + ls + 1);
	if (!s)
		return oom(p);
	memcpy(s, pre, lp);
	memcpy(s + lp, piece, n);
	memcpy(s + lp + n, suf, ls + 1);
	struct parser c = {.in = s,
			   .len = lp + n + ls,
			   .parent = p,
			   .sub_off = off,
			   .pre = lp,
			   .sub_len = n,
			   .tmpl = p->tmpl,
			   .depth = p->depth + 1,
			   .err = p->err,
			   .errsz = p->errsz};
	int rc = parse_all(&c);
	if (rc == 0) { /* the input starts with "{": its first node is that action */
		*out = c.root.v[0]->sub;
		c.root.v[0]->sub = (struct list){0};
	}
	list_free(&c.root);
	free(s);
	return rc;
}

/* .name or .* (the "." already read). */
static int parse_field(struct parser *p, struct list *cur)
{
	p->start = p->pos;
	for (;;) {
		int32_t r = p_next(p);
		if (r == '\\')
			p_next(p);
		else if (is_term(r)) {
			p_backup(p);
			break;
		}
	}
	const char *v = p->in + p->start;
	size_t n = p->pos - p->start;
	p->start = p->pos;
	if (n == 1 && v[0] == '*')
		return list_add(cur, new_node(N_WILDCARD)) ? oom(p) : 0;
	char *name = malloc(n + 1);
	if (!name)
		return oom(p);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] != '\\')
			name[k++] = v[i];
	int rc = add_named(p, cur, N_FIELD, name, k);
	free(name);
	return rc;
}

static int parse_recursive(struct parser *p, struct list *cur)
{
	if (cur->n && cur->v[cur->n - 1]->kind == N_RECURSIVE)
		return perr(p, p->pos, "invalid multiple recursive descent");
	p->pos += 2;
	p->start = p->pos;
	if (list_add(cur, new_node(N_RECURSIVE)))
		return oom(p);
	if (is_alnum(p_peek(p)))
		return parse_field(p, cur);
	return 0;
}

/* strconv.Atoi on a 64-bit platform. */
static int go_atoi(const char *s, size_t n, int64_t *out)
{
	size_t i = 0;
	int neg = 0;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i == n)
		return -1;
	uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < n; i++) {
		if (!is_digit((unsigned char)s[i]))
			return -1;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (lim - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v; /* 0 - 2^63 wraps to INT64_MIN */
	return 0;
}

/* strconv.ParseFloat on what parseNumber collects: a sign, digits and dots. */
static int go_parse_float(const char *s, size_t n, double *out)
{
	size_t i = 0, digits = 0, dots = 0;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < n; i++) {
		if (s[i] == '.')
			dots++;
		else if (is_digit((unsigned char)s[i]))
			digits++;
		else
			return -1;
	}
	if (!digits || dots > 1)
		return -1;
	char *t = malloc(n + 1);
	if (!t)
		return -1;
	memcpy(t, s, n);
	t[n] = 0;
	errno = 0;
	double v = strtod(t, NULL);
	int range = errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL);
	free(t);
	if (range) /* ParseFloat's ErrRange; an underflow to 0 is no error */
		return -1;
	*out = v;
	return 0;
}

static int parse_number(struct parser *p, struct list *cur)
{
	size_t at = p->pos;
	int32_t r = p_peek(p);
	if (r == '+' || r == '-')
		p_next(p);
	for (;;) {
		r = p_next(p);
		if (r != '.' && !is_digit(r)) {
			p_backup(p);
			break;
		}
	}
	const char *v = p->in + p->start;
	size_t n = p->pos - p->start;
	p->start = p->pos;
	int64_t i;
	double d;
	if (go_atoi(v, n, &i) == 0)
		return add_lit(p, cur, N_INT, json_integer((json_int_t)i));
	if (go_parse_float(v, n, &d) == 0)
		return add_lit(p, cur, N_FLOAT, json_real(d));
	return perr(p, at, "cannot parse number %.*s", (int)n, v);
}

static int parse_identifier(struct parser *p, struct list *cur)
{
	while (!is_term(p_next(p)))
		;
	p_backup(p);
	const char *v = p->in + p->start;
	size_t n = p->pos - p->start;
	p->start = p->pos;
	if (n == 4 && memcmp(v, "true", 4) == 0)
		return add_lit(p, cur, N_BOOL, json_true());
	if (n == 5 && memcmp(v, "false", 5) == 0)
		return add_lit(p, cur, N_BOOL, json_false());
	return add_named(p, cur, N_IDENT, v, n);
}

/* One group of the slice regexp ^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$ starting at s[*i]. */
static void slice_group(const char *s, size_t n, size_t *i, int colon)
{
	if (colon)
		(*i)++;
	if (*i < n && s[*i] == '-')
		(*i)++;
	while (*i < n && is_digit((unsigned char)s[*i]))
		(*i)++;
}

static int parse_array(struct parser *p, struct list *cur)
{
	size_t at = p->pos - 1;
	for (;;) {
		int32_t r = p_next(p);
		if (r == EOF_RUNE || r == '\n')
			return perr(p, at, "unterminated array");
		if (r == ']')
			break;
	}
	size_t toff = p->start + 1;
	const char *text = p->in + toff;
	size_t tlen = p->pos - 1 - toff;
	p->start = p->pos;
	if (tlen == 1 && text[0] == '*')
		text = ":";

	if (memchr(text, ',', tlen)) { /* union: each part parsed as [PART] */
		struct node *u = new_node(N_UNION);
		size_t parts = 1;
		for (size_t i = 0; i < tlen; i++)
			parts += text[i] == ',';
		if (!u || !(u->parts = calloc(parts, sizeof *u->parts))) {
			free(u);
			return oom(p);
		}
		size_t a = 0;
		for (size_t k = 0; k < parts; k++) {
			size_t b = a;
			while (b < tlen && text[b] != ',')
				b++;
			size_t s = a, e = b;
			while (s < e && text[s] == ' ')
				s++;
			while (e > s && text[e - 1] == ' ')
				e--;
			if (parse_action(p, "{[", text + s, e - s, toff + s, "]}", &u->parts[k])) {
				node_free(u);
				return -1;
			}
			u->nparts++;
			a = b + 1;
		}
		return list_add(cur, u) ? oom(p) : 0;
	}

	if (tlen >= 2 && text[0] == '\'' && text[tlen - 1] == '\'' && !memchr(text + 1, '\'', tlen - 2)) {
		struct list l = {0}; /* ['key']: the path .key */
		if (parse_action(p, "{.", text + 1, tlen - 2, toff + 1, "}", &l))
			return -1;
		for (size_t i = 0; i < l.n; i++) {
			if (list_add(cur, l.v[i])) {
				l.v[i] = NULL;
				list_free(&l);
				return oom(p);
			}
			l.v[i] = NULL;
		}
		list_free(&l);
		return 0;
	}

	size_t g[4] = {0}, i = 0; /* group k is text[g[k]..g[k+1]) */
	slice_group(text, tlen, &i, 0);
	g[1] = i;
	if (i < tlen && text[i] == ':')
		slice_group(text, tlen, &i, 1);
	g[2] = i;
	if (i < tlen && text[i] == ':')
		slice_group(text, tlen, &i, 1);
	g[3] = i;
	if (i != tlen)
		return perr(p, at, "invalid array index %.*s", (int)tlen, text);
	struct node *nd = new_node(N_ARRAY);
	if (!nd)
		return oom(p);
	for (int k = 0; k < 3; k++) {
		const char *v = text + g[k];
		size_t n = g[k + 1] - g[k];
		struct param *pr = &nd->params[k];
		if (n) {
			if (k > 0)
				v++, n--;
			if (k > 0 && n == 0)
				pr->known = 0;
			else {
				pr->known = 1;
				if (go_atoi(v, n, &pr->value)) {
					node_free(nd);
					return perr(p, at, "array index %.*s is not a number", (int)n, v);
				}
			}
		} else if (k == 1) { /* [i]: the end is i+1, "derived" (client-go: [-1] ends at the length) */
			pr->known = 1;
			pr->value = (int64_t)((uint64_t)nd->params[0].value + 1);
			pr->derived = 1;
		}
	}
	return list_add(cur, nd) ? oom(p) : 0;
}

static int is_op(char c) { return c == '!' || c == '<' || c == '>' || c == '='; }

static int parse_filter(struct parser *p, struct list *cur)
{
	size_t at = p->pos;
	p->pos += 3;
	p->start = p->pos;
	int begin = 0, end = 0;
	int32_t pair = 0;
	for (;;) {
		int32_t r = p_next(p);
		if (r == EOF_RUNE || r == '\n')
			return perr(p, at, "unterminated filter");
		if (r == '"' || r == '\'') {
			if (!begin) {
				begin = 1;
				pair = r;
				continue;
			}
			if (p->in[p->pos - 2] != '\\' && r == pair)
				end = 1;
		} else if (r == ')' && begin == end)
			break;
	}
	if (p_next(p) != ']')
		return perr(p, p->pos - p->width, "unclosed array expect ]");
	size_t toff = p->start;
	const char *text = p->in + toff;
	size_t tlen = p->pos - 2 - toff;
	p->start = p->pos;

	/* ^([^!<>=]+)([!<>=]+)(.+?)$ */
	size_t k = 0, e;
	while (k < tlen && !is_op(text[k]))
		k++;
	e = k;
	while (e < tlen && is_op(text[e]))
		e++;
	if (e == tlen && e - k >= 2)
		e--;
	struct node *nd = new_node(N_FILTER);
	if (!nd)
		return oom(p);
	int rc;
	if (k == 0 || k == tlen || e == tlen) {
		nd->s = strdup("exists");
		rc = nd->s ? parse_action(p, "{", text, tlen, toff, "}", &nd->sub) : oom(p);
	} else {
		nd->slen = e - k;
		nd->s = malloc(nd->slen + 1);
		if (!nd->s)
			rc = oom(p);
		else {
			memcpy(nd->s, text + k, nd->slen);
			nd->s[nd->slen] = 0;
			rc = parse_action(p, "{", text, k, toff, "}", &nd->sub);
			if (rc == 0)
				rc = parse_action(p, "{", text + e, tlen - e, toff + e, "}", &nd->right);
		}
	}
	if (rc) {
		node_free(nd);
		return rc;
	}
	return list_add(cur, nd) ? oom(p) : 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* client-go's UnquoteExtend: strconv.Unquote that also takes single-quoted strings of any length. */
static int unquote(const char *s, size_t n, struct buf *out)
{
	if (n < 2 || s[0] != s[n - 1] || (s[0] != '"' && s[0] != '\''))
		return -1;
	char q = s[0];
	s++, n -= 2;
	if (!memchr(s, '\\', n) && !memchr(s, q, n)) {
		buf_add(out, s, n);
		return 0;
	}
	size_t i = 0;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (c == (unsigned char)q)
			return -1;
		if (c >= 0x80) {
			size_t w;
			char t[4];
			int32_t r = utf8_decode((const unsigned char *)s + i, n - i, &w);
			buf_add(out, t, utf8_encode(r, t));
			i += w;
			continue;
		}
		if (c != '\\') {
			buf_ch(out, (char)c);
			i++;
			continue;
		}
		if (i + 1 >= n)
			return -1;
		char e = s[i + 1];
		i += 2;
		int32_t v = 0;
		switch (e) {
		case 'a': buf_ch(out, '\a'); break;
		case 'b': buf_ch(out, '\b'); break;
		case 'f': buf_ch(out, '\f'); break;
		case 'n': buf_ch(out, '\n'); break;
		case 'r': buf_ch(out, '\r'); break;
		case 't': buf_ch(out, '\t'); break;
		case 'v': buf_ch(out, '\v'); break;
		case '\\': buf_ch(out, '\\'); break;
		case '\'':
		case '"':
			if (e != q)
				return -1;
			buf_ch(out, e);
			break;
		case 'x':
		case 'u':
		case 'U': {
			size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
			if (n - i < digits)
				return -1;
			for (size_t j = 0; j < digits; j++) {
				int h = hexval(s[i + j]);
				if (h < 0)
					return -1;
				v = (int32_t)((uint32_t)v << 4 | (uint32_t)h);
			}
			i += digits;
			if (e == 'x') { /* one byte, maybe not UTF-8 */
				buf_ch(out, (char)v);
				break;
			}
			if (v < 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
				return -1;
			char t[4];
			buf_add(out, t, utf8_encode(v, t));
			break;
		}
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7':
			v = e - '0';
			if (n - i < 2)
				return -1;
			for (size_t j = 0; j < 2; j++) {
				if (s[i + j] < '0' || s[i + j] > '7')
					return -1;
				v = v << 3 | (s[i + j] - '0');
			}
			i += 2;
			if (v > 255)
				return -1;
			buf_ch(out, (char)v);
			break;
		default: return -1;
		}
	}
	return 0;
}

static int parse_quote(struct parser *p, struct list *cur, int32_t q)
{
	size_t at = p->pos - 1;
	for (;;) {
		int32_t r = p_next(p);
		if (r == EOF_RUNE || r == '\n')
			return perr(p, at, "unterminated quoted string");
		if (r == q && p->in[p->pos - 2] != '\\')
			break;
	}
	const char *v = p->in + p->start;
	size_t n = p->pos - p->start;
	p->start = p->pos;
	struct buf b = {0};
	if (unquote(v, n, &b)) {
		free(b.p);
		return perr(p, at, "unquote string %.*s error invalid syntax", (int)n, v);
	}
	if (b.oom) {
		free(b.p);
		return oom(p);
	}
	json_t *s = json_stringn_nocheck(b.p ? b.p : "", b.len);
	free(b.p);
	return add_lit(p, cur, N_TEXT, s);
}

/* client-go's Parse, with its tail calls as a loop: text, then actions. */
static int parse_all(struct parser *p)
{
	struct list *cur = NULL;
	for (;;) {
		if (!cur) {
			while (!(p->pos < p->len && p->in[p->pos] == '{'))
				if (p_next(p) == EOF_RUNE)
					break;
			if (p->pos > p->start) {
				json_t *t = json_stringn_nocheck(p->in + p->start, p->pos - p->start);
				p->start = p->pos;
				if (add_lit(p, &p->root, N_TEXT, t))
					return -1;
			}
			if (p->pos >= p->len)
				return 0;
			p->pos++;
			p->start = p->pos;
			struct node *l = new_node(N_LIST);
			if (list_add(&p->root, l))
				return oom(p);
			cur = &l->sub;
			continue;
		}
		int rc = 0;
		if (p_has(p, "}")) {
			p->pos++;
			p->start = p->pos;
			cur = NULL;
			continue;
		}
		if (p_has(p, "[?("))
			rc = parse_filter(p, cur);
		else if (p_has(p, ".."))
			rc = parse_recursive(p, cur);
		else {
			size_t at = p->pos;
			int32_t r = p_next(p);
			if (r == EOF_RUNE || r == '\r' || r == '\n')
				return perr(p, at, "unclosed action");
			if (r == ' ' || r == '@' || r == '$')
				p->start = p->pos;
			else if (r == '[')
				rc = parse_array(p, cur);
			else if (r == '"' || r == '\'')
				rc = parse_quote(p, cur, r);
			else if (r == '.')
				rc = parse_field(p, cur);
			else if (r == '+' || r == '-' || is_digit(r)) {
				p_backup(p);
				rc = parse_number(p, cur);
			} else if (is_alnum(r)) {
				p_backup(p);
				rc = parse_identifier(p, cur);
			} else {
				char u[16] = "";
				if (is_print(r)) {
					char t[4];
					size_t n = utf8_encode(r, t);
					snprintf(u, sizeof u, " '%.*s'", (int)n, t);
				}
				char m[40];
				snprintf(m, sizeof m, "U+%04X%s", (unsigned)r, u);
				return perr(p, at, "unrecognized character in action: %s", m);
			}
		}
		if (rc)
			return rc;
	}
}

jsonpath *jsonpath_parse(const char *template_, char *err, size_t errsz)
{
	if (err && errsz)
		err[0] = 0;
	struct parser p = {
		.in = template_ ? template_ : "", .tmpl = template_ ? template_ : "", .err = err, .errsz = errsz};
	p.len = strlen(p.in);
	jsonpath *jp = calloc(1, sizeof *jp);
	if (!jp) {
		oom(&p);
		return NULL;
	}
	if (parse_all(&p)) {
		list_free(&p.root);
		free(jp);
		return NULL;
	}
	jp->root = p.root;
	return jp;
}

void jsonpath_free(jsonpath *p)
{
	if (!p)
		return;
	list_free(&p->root);
	free(p);
}

/* ---- execution (client-go jsonpath.go) ------------------------------------------------------------------- */

/* A list of reflect.Values: each a JSON value (a reference held), or NULL for an invalid reflect.Value (the
 * nil interface{} client-go starts from when the document is null or a range iterates over a null). */
struct vals {
	json_t **v;
	size_t n, cap;
};

struct exec {
	const struct list *root;
	int allow_missing;
	int begin_range, in_range, end_range; /* client-go's counters */
	size_t last_end;                      /* client-go's lastEndNode, an index into root */
	int has_last_end;
	int depth, discard;
	size_t work;
	int fatal; /* out of memory or a limit: not an error an existence filter may swallow */
	int (*emit)(struct exec *, const struct vals *);
	void *ctx;
	char *err;
	size_t errsz;
};

static int eerr(struct exec *ex, const char *fmt, ...) PRINTF(2, 3);
static int eerr(struct exec *ex, const char *fmt, ...)
{
	if (ex->err && ex->errsz) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(ex->err, ex->errsz, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int efatal(struct exec *ex, const char *msg)
{
	ex->fatal = 1;
	return eerr(ex, "%s", msg);
}

static void vals_free(struct vals *a)
{
	for (size_t i = 0; i < a->n; i++)
		json_decref(a->v[i]);
	free(a->v);
	*a = (struct vals){0};
}

static int vals_push(struct exec *ex, struct vals *a, json_t *j)
{
	if (++ex->work > MAX_VALUES) {
		ex->fatal = 1;
		return eerr(ex, "the template yields too many values (more than %zu)", MAX_VALUES);
	}
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 4;
		json_t **v = realloc(a->v, cap * sizeof *v);
		if (!v)
			return efatal(ex, "out of memory");
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = json_incref(j);
	return 0;
}

static int vals_copy(struct exec *ex, const struct vals *in, struct vals *out)
{
	for (size_t i = 0; i < in->n; i++)
		if (vals_push(ex, out, in->v[i]))
			return -1;
	return 0;
}

static int eval_list(struct exec *ex, const struct vals *in, const struct list *l, struct vals *out);

/* The value a Go reflect.Value holds after template.Indirect: 1 when it is a nil interface (a JSON null). */
static int is_nil(const json_t *j) { return j && json_is_null(j); }

static int eval_field(struct exec *ex, const struct vals *in, const struct node *nd, struct vals *out)
{
	if (in->n == 0)
		return 0;
	for (size_t i = 0; i < in->n; i++) {
		json_t *r = json_is_object(in->v[i]) ? json_object_getn(in->v[i], nd->s, nd->slen) : NULL;
		if (r && vals_push(ex, out, r))
			return -1;
	}
	if (out->n == 0 && !ex->allow_missing)
		return eerr(ex, "%s is not found", nd->s);
	return 0;
}

static int eval_array(struct exec *ex, const struct vals *in, const struct node *nd, struct vals *out)
{
	for (size_t i = 0; i < in->n; i++) {
		json_t *v = in->v[i];
		if (is_nil(v))
			continue;
		if (!json_is_array(v)) {
			vals_free(out);
			if (vals_copy(ex, in, out))
				return -1;
			return eerr(ex, "%s is not array or slice", go_type(v));
		}
		int64_t len = (int64_t)json_array_size(v);
		struct param p[3] = {nd->params[0], nd->params[1], nd->params[2]};
		if (!p[0].known)
			p[0].value = 0;
		if (p[0].value < 0)
			p[0].value += len;
		if (!p[1].known)
			p[1].value = len;
		if (p[1].value < 0 || (p[1].value == 0 && p[1].derived))
			p[1].value += len;
		if (p[1].value == p[0].value) /* zero elements asked: client-go returns what it has so far */
			return 0;
		int bad = p[0].value >= len || p[0].value < 0 || p[1].value > len || p[1].value < 0 ||
			  p[0].value > p[1].value || (p[2].known && p[2].value <= 0);
		if (bad) { /* client-go returns its input with the error */
			vals_free(out);
			if (vals_copy(ex, in, out))
				return -1;
		}
		if (p[0].value >= len || p[0].value < 0)
			return eerr(ex, "array index out of bounds: index %lld, length %lld", (long long)p[0].value,
				    (long long)len);
		if (p[1].value > len || p[1].value < 0) /* Go's int arithmetic wraps */
			return eerr(ex, "array index out of bounds: index %lld, length %lld",
				    (long long)(int64_t)((uint64_t)p[1].value - 1), (long long)len);
		if (p[0].value > p[1].value)
			return eerr(ex, "starting index %lld is greater than ending index %lld", (long long)p[0].value,
				    (long long)p[1].value);
		if (p[2].known && p[2].value <= 0)
			return eerr(ex, "step must be > 0");
		int64_t step = p[2].known ? p[2].value : 1;
		for (int64_t k = p[0].value; k < p[1].value; k += step) {
			if (vals_push(ex, out, json_array_get(v, (size_t)k)))
				return -1;
			if (step > p[1].value - k)
				break;
		}
	}
	return 0;
}

enum ckind { CK_INVALID, CK_BOOL, CK_INT, CK_FLOAT, CK_STRING };

static enum ckind ckind(const json_t *j)
{
	switch (j ? json_typeof(j) : JSON_NULL) {
	case JSON_TRUE:
	case JSON_FALSE: return CK_BOOL;
	case JSON_INTEGER: return CK_INT;
	case JSON_REAL: return CK_FLOAT;
	case JSON_STRING: return CK_STRING;
	default: return CK_INVALID;
	}
}

static int str_cmp(const json_t *a, const json_t *b)
{
	size_t la = json_string_length(a), lb = json_string_length(b), n = la < lb ? la : lb;
	int c = memcmp(json_string_value(a), json_string_value(b), n);
	return c ? c : la < lb ? -1 : la > lb;
}

/* text/template's eq and lt (client-go's fork): basic kinds only, and the same kind on both sides. */
static int t_equal(struct exec *ex, const json_t *a, const json_t *b, int *truth)
{
	enum ckind ka = ckind(a), kb;
	if (ka == CK_INVALID || (kb = ckind(b)) == CK_INVALID)
		return eerr(ex, "invalid type for comparison");
	if (ka != kb)
		return eerr(ex, "incompatible types for comparison");
	switch (ka) {
	case CK_BOOL: *truth = json_is_true(a) == json_is_true(b); break;
	case CK_INT: *truth = json_integer_value(a) == json_integer_value(b); break;
	case CK_FLOAT: *truth = json_real_value(a) == json_real_value(b); break;
	default: *truth = str_cmp(a, b) == 0; break;
	}
	return 0;
}

static int t_less(struct exec *ex, const json_t *a, const json_t *b, int *truth)
{
	enum ckind ka = ckind(a), kb;
	if (ka == CK_INVALID || (kb = ckind(b)) == CK_INVALID)
		return eerr(ex, "invalid type for comparison");
	if (ka != kb)
		return eerr(ex, "incompatible types for comparison");
	switch (ka) {
	case CK_BOOL: return eerr(ex, "invalid type for comparison");
	case CK_INT: *truth = json_integer_value(a) < json_integer_value(b); break;
	case CK_FLOAT: *truth = json_real_value(a) < json_real_value(b); break;
	default: *truth = str_cmp(a, b) < 0; break;
	}
	return 0;
}

static int compare(struct exec *ex, const char *op, const json_t *a, const json_t *b, int *pass)
{
	int t = 0;
	if (strcmp(op, "<") == 0)
		return t_less(ex, a, b, pass);
	if (strcmp(op, ">") == 0 || strcmp(op, "<=") == 0) { /* > is not <=; <= is < or == */
		if (t_less(ex, a, b, &t))
			return -1;
		if (!t && t_equal(ex, a, b, &t))
			return -1;
		*pass = op[0] == '>' ? !t : t;
		return 0;
	}
	if (strcmp(op, "==") == 0 || strcmp(op, "!=") == 0) {
		if (t_equal(ex, a, b, &t))
			return -1;
		*pass = op[0] == '=' ? t : !t;
		return 0;
	}
	if (strcmp(op, ">=") == 0) {
		if (t_less(ex, a, b, &t))
			return -1;
		*pass = !t;
		return 0;
	}
	return eerr(ex, "unrecognized filter operator %s", op);
}

static int eval_filter(struct exec *ex, const struct vals *in, const struct node *nd, struct vals *out)
{
	int exists = strcmp(nd->s, "exists") == 0;
	for (size_t i = 0; i < in->n; i++) {
		json_t *v = in->v[i];
		if (!json_is_array(v)) {
			struct buf b = {0};
			if (v)
				go_sprint(&b, v);
			else
				buf_str(&b, "<invalid reflect.Value>");
			vals_free(out);
			int rc = vals_copy(ex, in, out);
			if (rc == 0)
				eerr(ex, "%s is not array or slice and cannot be filtered", b.p ? b.p : "");
			free(b.p);
			return -1;
		}
		for (size_t k = 0; k < json_array_size(v); k++) {
			json_t *e = json_array_get(v, k);
			struct vals tmp = {0}, lefts = {0}, rights = {0};
			if (vals_push(ex, &tmp, e))
				return -1;
			int rc = eval_list(ex, &tmp, &nd->sub, &lefts), fail = 0, pass = 0;
			if (exists) { /* an error of the path only means that it does not exist */
				fail = ex->fatal || (lefts.n > 0 && vals_push(ex, out, e));
			} else if (rc || lefts.n > 1) {
				fail = 1;
				if (!rc)
					eerr(ex, "can only compare one element at a time");
			} else if (lefts.n == 1) {
				rc = eval_list(ex, &tmp, &nd->right, &rights);
				if (rc || rights.n > 1) {
					fail = 1;
					if (!rc)
						eerr(ex, "can only compare one element at a time");
				} else if (rights.n == 1) {
					if (compare(ex, nd->s, lefts.v[0], rights.v[0], &pass))
						fail = 2; /* client-go returns the results so far */
					else if (pass && vals_push(ex, out, e))
						fail = 2;
				}
			}
			vals_free(&tmp);
			vals_free(&lefts);
			vals_free(&rights);
			if (fail == 1 && !ex->fatal) {
				vals_free(out);
				if (vals_copy(ex, in, out))
					return -1;
			}
			if (fail)
				return -1;
		}
	}
	return 0;
}

static int push_children(struct exec *ex, json_t *v, struct vals *out)
{
	if (json_is_object(v)) {
		const char *k;
		size_t kl;
		json_t *m;
		json_object_keylen_foreach(v, k, kl, m)
		{
			(void)kl;
			if (vals_push(ex, out, m))
				return -1;
		}
	} else if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++)
			if (vals_push(ex, out, json_array_get(v, i)))
				return -1;
	} else if (json_is_string(v)) { /* a Go string indexes to its bytes */
		const unsigned char *s = (const unsigned char *)json_string_value(v);
		for (size_t i = 0; i < json_string_length(v); i++) {
			json_t *byte = json_integer(s[i]);
			int rc = byte ? vals_push(ex, out, byte) : efatal(ex, "out of memory");
			json_decref(byte);
			if (rc)
				return -1;
		}
	}
	return 0;
}

static int has_children(const json_t *v)
{
	return (json_is_object(v) && json_object_size(v)) || (json_is_array(v) && json_array_size(v)) ||
	       (json_is_string(v) && json_string_length(v));
}

/* Every container (and non-empty string) at or under v, in pre-order. The depth is the document's, which
 * jansson's parser bounds. */
static int recurse(struct exec *ex, json_t *v, struct vals *out)
{
	if (!v || !has_children(v))
		return 0;
	if (vals_push(ex, out, v))
		return -1;
	if (json_is_object(v)) {
		const char *k;
		size_t kl;
		json_t *m;
		json_object_keylen_foreach(v, k, kl, m)
		{
			(void)kl;
			if (recurse(ex, m, out))
				return -1;
		}
	} else if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++)
			if (recurse(ex, json_array_get(v, i), out))
				return -1;
	}
	return 0;
}

static int walk(struct exec *ex, const struct vals *in, const struct node *nd, struct vals *out)
{
	switch (nd->kind) {
	case N_LIST: return eval_list(ex, in, &nd->sub, out);
	case N_TEXT: return vals_push(ex, out, nd->lit);
	case N_INT:
	case N_FLOAT:
	case N_BOOL:
		for (size_t i = 0; i < in->n; i++)
			if (vals_push(ex, out, nd->lit))
				return -1;
		return 0;
	case N_FIELD: return eval_field(ex, in, nd, out);
	case N_ARRAY: return eval_array(ex, in, nd, out);
	case N_FILTER: return eval_filter(ex, in, nd, out);
	case N_WILDCARD:
		for (size_t i = 0; i < in->n; i++)
			if (in->v[i] && push_children(ex, in->v[i], out))
				return -1;
		return 0;
	case N_RECURSIVE:
		for (size_t i = 0; i < in->n; i++)
			if (recurse(ex, in->v[i], out))
				return -1;
		return 0;
	case N_UNION:
		for (size_t k = 0; k < nd->nparts; k++) {
			struct vals t = {0};
			int rc = eval_list(ex, in, &nd->parts[k], &t);
			for (size_t i = 0; rc == 0 && i < t.n; i++)
				rc = vals_push(ex, out, t.v[i]);
			vals_free(&t);
			if (rc) {
				if (!ex->fatal) {
					vals_free(out);
					vals_copy(ex, in, out);
				}
				return -1;
			}
		}
		return 0;
	case N_IDENT:
		if (strcmp(nd->s, "range") == 0) {
			ex->begin_range++;
			return vals_copy(ex, in, out);
		}
		if (strcmp(nd->s, "end") == 0) {
			if (ex->in_range > 0) {
				ex->end_range++;
				return 0;
			}
			return eerr(ex, "not in range, nothing to end");
		}
		if (vals_copy(ex, in, out))
			return -1;
		return eerr(ex, "unrecognized identifier %s", nd->s);
	}
	return 0;
}

/* client-go's evalList: on an error, out holds what the failing node returned (an existence filter looks). */
static int eval_list(struct exec *ex, const struct vals *in, const struct list *l, struct vals *out)
{
	struct vals cur = {0};
	if (vals_copy(ex, in, &cur)) {
		vals_free(&cur);
		return -1;
	}
	for (size_t i = 0; i < l->n; i++) {
		struct vals next = {0};
		int rc = walk(ex, &cur, l->v[i], &next);
		vals_free(&cur);
		cur = next;
		if (rc) {
			*out = cur;
			return -1;
		}
	}
	*out = cur;
	return 0;
}

/* client-go's FindResults from node start on, with data as the current value; each top-level result list goes
 * to ex->emit (none while an empty range is skipped over). */
static int find_results(struct exec *ex, size_t start, json_t *data)
{
	if (++ex->depth > MAX_RANGE_DEPTH) {
		ex->depth--;
		ex->fatal = 1;
		return eerr(ex, "ranges nested too deeply (more than %d)", MAX_RANGE_DEPTH);
	}
	struct vals cur = {0};
	int rc = vals_push(ex, &cur, data);
	for (size_t i = start; rc == 0 && i < ex->root->n; i++) {
		struct vals res = {0};
		rc = walk(ex, &cur, ex->root->v[i], &res);
		if (rc) {
			vals_free(&res);
			break;
		}
		if (ex->end_range > 0 && ex->end_range <= ex->in_range) { /* an end: this block is done */
			ex->end_range--;
			ex->last_end = i;
			ex->has_last_end = 1;
			vals_free(&res);
			break;
		}
		if (ex->begin_range > 0) { /* a range: the nodes after it, once per value */
			ex->begin_range--;
			ex->in_range++;
			if (res.n > 0) {
				for (size_t k = 0; rc == 0 && k < res.n; k++)
					rc = find_results(ex, i + 1, is_nil(res.v[k]) ? NULL : res.v[k]);
			} else { /* still walked, to find its end; the output is dropped */
				ex->discard++;
				rc = find_results(ex, i + 1, NULL);
				ex->discard--;
			}
			ex->in_range--;
			vals_free(&res);
			for (size_t k = i + 1; ex->has_last_end && k < ex->root->n; k++)
				if (k == ex->last_end) {
					i = k;
					break;
				}
			continue;
		}
		if (!ex->discard)
			rc = ex->emit(ex, &res);
		vals_free(&res);
	}
	vals_free(&cur);
	ex->depth--;
	return rc;
}

static int run(const jsonpath *p, const json_t *doc, int allow_missing, int (*emit)(struct exec *, const struct vals *),
	       void *ctx, char *err, size_t errsz)
{
	if (err && errsz)
		err[0] = 0;
	if (!p) {
		if (err && errsz)
			snprintf(err, errsz, "no template");
		return -1;
	}
	struct exec ex = {
		.root = &p->root, .allow_missing = allow_missing, .emit = emit, .ctx = ctx, .err = err, .errsz = errsz};
	int rc = find_results(&ex, 0, doc && !json_is_null(doc) ? (json_t *)doc : NULL);
	if (rc == 0 && err && errsz) /* an existence filter may have swallowed an error */
		err[0] = 0;
	return rc;
}

static int emit_print(struct exec *ex, const struct vals *g)
{
	struct buf *b = ex->ctx;
	for (size_t i = 0; i < g->n; i++) {
		print_value(b, g->v[i]);
		if (i + 1 != g->n)
			buf_ch(b, ' ');
	}
	return b->oom ? efatal(ex, "out of memory") : 0;
}

int jsonpath_execute(const jsonpath *p, const json_t *doc, int allow_missing, FILE *out, char *err, size_t errsz)
{
	struct buf b = {0};
	if (run(p, doc, allow_missing, emit_print, &b, err, errsz)) {
		free(b.p);
		return -1;
	}
	int rc = 0;
	if (b.len && fwrite(b.p, 1, b.len, out) != b.len) {
		if (err && errsz)
			snprintf(err, errsz, "write error: %s", strerror(errno));
		rc = -1;
	}
	free(b.p);
	return rc;
}

struct cell {
	struct buf b;
	size_t groups, items;
};

static void cell_item(struct cell *c, const json_t *v, int none)
{
	if (c->items++)
		buf_ch(&c->b, ',');
	if (none) {
		buf_str(&c->b, "<none>");
		return;
	}
	struct buf t = {0};
	go_sprint(&t, v);
	for (size_t i = 0; i < t.len; i++) { /* printers.EscapeTerminal */
		if (t.p[i] == '\x1b')
			buf_str(&c->b, "^[");
		else if (t.p[i] == '\r')
			buf_str(&c->b, "\\r");
		else
			buf_ch(&c->b, t.p[i]);
	}
	c->b.oom |= t.oom;
	free(t.p);
}

static int emit_cell(struct exec *ex, const struct vals *g)
{
	struct cell *c = ex->ctx;
	if (c->groups++ == 0 && g->n == 0)
		cell_item(c, NULL, 1);
	for (size_t i = 0; i < g->n; i++)
		cell_item(c, g->v[i], 0);
	return c->b.oom ? efatal(ex, "out of memory") : 0;
}

int jsonpath_cell(const jsonpath *p, const json_t *row, char **cell, size_t *len, char *err, size_t errsz)
{
	struct cell c = {0};
	*cell = NULL;
	*len = 0;
	if (run(p, row, 1, emit_cell, &c, err, errsz)) {
		free(c.b.p);
		return -1;
	}
	if (c.groups == 0)
		cell_item(&c, NULL, 1);
	if (c.b.oom) {
		free(c.b.p);
		if (err && errsz)
			snprintf(err, errsz, "out of memory");
		return -1;
	}
	*cell = c.b.p;
	*len = c.b.len;
	return 0;
}
