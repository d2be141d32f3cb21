/* labels.Parse: the string syntax of label selectors, lexed and parsed as upstream does. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "model/labelvalid.h"
#include "model/selector.h"

/* Token (apimachinery pkg/labels/selector.go) */
enum {
	T_ERROR,
	T_EOS,
	T_CPAR,
	T_COMMA,
	T_DNE,
	T_DEQ,
	T_EQ,
	T_GT,
	T_ID,
	T_IN,
	T_LT,
	T_NEQ,
	T_NOTIN,
	T_OPAR,
};

typedef struct token {
	int tok;
	const char *lit;
	size_t len;
} token;

typedef struct parser {
	token *t;
	size_t n, cap, pos;
	dsi_atoms *atoms;
	dsi_strbuf err; /* the error text, when a step fails */
	int oom;
	dsi_requirement *reqs;
	size_t nreqs, reqcap;
} parser;

/* isWhitespace */
static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* isSpecialSymbol */
static int is_special(char c)
{
	switch (c) {
	case '=':
	case '!':
	case '(':
	case ')':
	case ',':
	case '>':
	case '<': return 1;
	default: return 0;
	}
}

static int special_token(const char *s, size_t n)
{
	if (n == 1)
		switch (s[0]) {
		case ')': return T_CPAR;
		case ',': return T_COMMA;
		case '!': return T_DNE;
		case '=': return T_EQ;
		case '>': return T_GT;
		case '<': return T_LT;
		case '(': return T_OPAR;
		default: return T_ERROR;
		}
	if (n == 2 && s[1] == '=' && (s[0] == '=' || s[0] == '!'))
		return s[0] == '=' ? T_DEQ : T_NEQ;
	return T_ERROR;
}

static int push_token(parser *p, int tok, const char *lit, size_t len)
{
	if (DSI_GROW(p->t, p->cap, p->n + 1) < 0) {
		p->oom = 1;
		return -1;
	}
	p->t[p->n].tok = tok;
	p->t[p->n].lit = lit;
	p->t[p->n].len = len;
	p->n++;
	return 0;
}

/* Lexer.Lex over the whole input (Parser.scan) */
static int scan(parser *p, const char *s)
{
	size_t i = 0;
	for (;;) {
		while (s[i] && is_ws(s[i]))
			i++;
		if (!s[i])
			return push_token(p, T_EOS, "", 0);
		size_t start = i;
		if (is_special(s[i])) {
			/* scanSpecialSymbol: extend while the buffer is still a token */
			int last = T_ERROR;
			size_t lastlen = 0;
			while (s[i] && is_special(s[i])) {
				int t = special_token(s + start, i - start + 1);
				if (t != T_ERROR) {
					last = t;
					lastlen = i - start + 1;
				} else if (last != T_ERROR) {
					break;
				}
				i++;
			}
			i = start + lastlen;
			if (push_token(p, last, s + start, lastlen) < 0)
				return -1;
			continue;
		}
		/* scanIDOrKeyword */
		while (s[i] && !is_special(s[i]) && !is_ws(s[i]))
			i++;
		size_t len = i - start;
		int tok = T_ID;
		if (len == 2 && memcmp(s + start, "in", 2) == 0)
			tok = T_IN;
		else if (len == 5 && memcmp(s + start, "notin", 5) == 0)
			tok = T_NOTIN;
		if (push_token(p, tok, s + start, len) < 0)
			return -1;
	}
}

/* Parser.lookahead / Parser.consume: in the Values context "in" and "notin" are identifiers */
static token lookahead(const parser *p, int values)
{
	token t = p->t[p->pos < p->n ? p->pos : p->n - 1];
	if (values && (t.tok == T_IN || t.tok == T_NOTIN))
		t.tok = T_ID;
	return t;
}

static token consume(parser *p, int values)
{
	token t = lookahead(p, values);
	if (p->pos < p->n - 1)
		p->pos++;
	return t;
}

/* "found '<lit>'<rest>" */
static int found(parser *p, const token *t, const char *rest)
{
	dsi_strbuf_puts(&p->err, "found '");
	dsi_strbuf_append(&p->err, t->lit, t->len);
	dsi_strbuf_puts(&p->err, "'");
	dsi_strbuf_puts(&p->err, rest);
	return -1;
}

/* A sets.String: sorted, without duplicates. */
typedef struct strset {
	const char **v;
	size_t *len;
	size_t n, cap, lcap;
} strset;

static void set_insert(parser *p, strset *s, const char *v, size_t len)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->len[i] == len && memcmp(s->v[i], v, len) == 0)
			return;
	if (DSI_GROW(s->v, s->cap, s->n + 1) < 0 || DSI_GROW(s->len, s->lcap, s->n + 1) < 0) {
		p->oom = 1;
		return;
	}
	s->v[s->n] = v;
	s->len[s->n] = len;
	s->n++;
}

static void set_free(strset *s)
{
	dsi_free((void *)s->v);
	dsi_free(s->len);
	memset(s, 0, sizeof(*s));
}

/* sets.String.List(): sorted bytewise */
static void set_sort(strset *s)
{
	for (size_t i = 1; i < s->n; i++)
		for (size_t j = i; j > 0; j--) {
			size_t a = s->len[j - 1], b = s->len[j];
			int c = memcmp(s->v[j - 1], s->v[j], a < b ? a : b);
			if (c < 0 || (c == 0 && a <= b))
				break;
			const char *tv = s->v[j];
			s->v[j] = s->v[j - 1];
			s->v[j - 1] = tv;
			s->len[j] = a;
			s->len[j - 1] = b;
		}
}

/* parseIdentifiersList */
static int parse_identifiers(parser *p, strset *s)
{
	for (;;) {
		token t = consume(p, 1);
		if (t.tok == T_ID) {
			set_insert(p, s, t.lit, t.len);
			token t2 = lookahead(p, 1);
			if (t2.tok == T_COMMA)
				continue;
			if (t2.tok == T_CPAR)
				return 0;
			return found(p, &t2, ", expected: ',' or ')'");
		}
		if (t.tok == T_COMMA) { /* "(," ",," ",)" each add "" */
			if (s->n == 0)
				set_insert(p, s, "", 0);
			token t2 = lookahead(p, 1);
			if (t2.tok == T_CPAR) {
				set_insert(p, s, "", 0);
				return 0;
			}
			if (t2.tok == T_COMMA)
				set_insert(p, s, "", 0);
			continue;
		}
		return found(p, &t, ", expected: ',', or identifier");
	}
}

/* parseValues */
static int parse_values(parser *p, strset *s)
{
	token t = consume(p, 1);
	if (t.tok != T_OPAR)
		return found(p, &t, " expected: '('");
	t = lookahead(p, 1);
	if (t.tok == T_ID || t.tok == T_COMMA) {
		if (parse_identifiers(p, s) < 0)
			return -1;
		token c = consume(p, 1);
		if (c.tok != T_CPAR)
			return found(p, &t, ", expected: ')'");
		return 0;
	}
	if (t.tok == T_CPAR) { /* "()" */
		consume(p, 1);
		set_insert(p, s, "", 0);
		return 0;
	}
	return found(p, &t, ", expected: ',', ')' or identifier");
}

/* parseExactValue */
static int parse_exact_value(parser *p, strset *s)
{
	token t = lookahead(p, 1);
	if (t.tok == T_EOS || t.tok == T_COMMA) {
		set_insert(p, s, "", 0);
		return 0;
	}
	t = consume(p, 1);
	if (t.tok == T_ID) {
		set_insert(p, s, t.lit, t.len);
		return 0;
	}
	return found(p, &t, ", expected: identifier");
}

static int add_requirement(parser *p, const token *key, dsi_selector_op op, const strset *vals)
{
	if (DSI_GROW(p->reqs, p->reqcap, p->nreqs + 1) < 0) {
		p->oom = 1;
		return -1;
	}
	dsi_req_errs errs;
	static const char *const none[1] = {NULL};
	static const size_t nolen[1];
	int rc = dsi_req_build(p->atoms, NULL, key->lit, key->len, op, vals ? vals->v : none, vals ? vals->len : nolen,
			       vals ? vals->n : 0, 0, &errs, &p->reqs[p->nreqs]);
	if (rc == 0) {
		p->nreqs++;
	} else if (rc == DS_ENOMEM) {
		p->oom = 1;
	} else {
		dsi_strbuf_puts(&p->err, "unable to parse requirement: ");
		dsi_req_errs_message(&errs, &p->err);
	}
	dsi_req_errs_free(&errs);
	return rc < 0 ? -1 : 0;
}

/* parseRequirement with parseKeyAndInferOperator and parseOperator */
static int parse_requirement(parser *p)
{
	int op = -1;
	token t = consume(p, 1);
	if (t.tok == T_DNE) {
		op = DSI_SEL_DOES_NOT_EXIST;
		t = consume(p, 1);
	}
	if (t.tok != T_ID) {
		dsi_strbuf_puts(&p->err, "unable to parse requirement: ");
		return found(p, &t, ", expected: identifier");
	}
	dsi_strbuf why = DSI_STRBUF_INIT;
	if (dsi_validate_label_key(t.lit, t.len, &why)) {
		/* validateLabelKey(literal, p.path) with a nil path: field "<nil>" */
		dsi_strbuf_puts(&p->err, "unable to parse requirement: <nil>: Invalid value: ");
		dsi_go_quote(&p->err, t.lit, t.len);
		dsi_strbuf_puts(&p->err, ": ");
		if (why.data)
			dsi_strbuf_append(&p->err, why.data, why.len);
		dsi_strbuf_free(&why);
		return -1;
	}
	dsi_strbuf_free(&why);
	token key = t;
	token next = lookahead(p, 1);
	if ((next.tok == T_EOS || next.tok == T_COMMA) && op != DSI_SEL_DOES_NOT_EXIST)
		op = DSI_SEL_EXISTS;
	if (op == DSI_SEL_EXISTS || op == DSI_SEL_DOES_NOT_EXIST)
		return add_requirement(p, &key, (dsi_selector_op)op, NULL);

	t = consume(p, 0);
	switch (t.tok) {
	case T_IN: op = DSI_SEL_IN; break;
	case T_EQ: op = DSI_SEL_EQUALS; break;
	case T_DEQ: op = DSI_SEL_DOUBLE_EQUALS; break;
	case T_GT: op = DSI_SEL_GT; break;
	case T_LT: op = DSI_SEL_LT; break;
	case T_NOTIN: op = DSI_SEL_NOT_IN; break;
	case T_NEQ: op = DSI_SEL_NOT_EQUALS; break;
	default:
		dsi_strbuf_puts(&p->err, "unable to parse requirement: ");
		return found(p, &t, ", expected: in, notin, =, ==, !=, gt, lt");
	}
	strset vals;
	memset(&vals, 0, sizeof(vals));
	int rc = (op == DSI_SEL_IN || op == DSI_SEL_NOT_IN) ? parse_values(p, &vals) : parse_exact_value(p, &vals);
	if (rc < 0 && !p->oom) {
		/* prefix the message already written */
		dsi_strbuf msg = p->err;
		memset(&p->err, 0, sizeof(p->err));
		dsi_strbuf_puts(&p->err, "unable to parse requirement: ");
		if (msg.data)
			dsi_strbuf_append(&p->err, msg.data, msg.len);
		dsi_strbuf_free(&msg);
	}
	if (rc == 0 && !p->oom) {
		set_sort(&vals);
		rc = add_requirement(p, &key, (dsi_selector_op)op, &vals);
	}
	set_free(&vals);
	return p->oom ? -1 : rc;
}

/* Parser.parse */
static int parse_all(parser *p)
{
	for (;;) {
		token t = lookahead(p, 1);
		if (t.tok == T_ID || t.tok == T_DNE) {
			if (parse_requirement(p) < 0)
				return -1;
			token c = consume(p, 1);
			if (c.tok == T_EOS)
				return 0;
			if (c.tok == T_COMMA) {
				token t2 = lookahead(p, 1);
				if (t2.tok != T_ID && t2.tok != T_DNE)
					return found(p, &t2, ", expected: identifier after ','");
				continue;
			}
			return found(p, &c, ", expected: ',' or 'end of string'");
		}
		if (t.tok == T_EOS)
			return 0;
		return found(p, &t, ", expected: !, identifier, or 'end of string'");
	}
}

/* Parse (apimachinery pkg/labels/selector.go) */
int dsi_selector_parse(dsi_rd *rd, dsi_atoms *atoms, const char *text, dsi_selector *out)
{
	memset(out, 0, sizeof(*out));
	if (!text)
		return dsi_rd_fail(rd, NULL, DS_EARG, "selector text is NULL");
	parser p;
	memset(&p, 0, sizeof(p));
	p.atoms = atoms;
	int rc = scan(&p, text) < 0 ? -1 : parse_all(&p);
	if (rc < 0 || p.oom) {
		for (size_t i = 0; i < p.nreqs; i++)
			dsi_requirement_release(atoms, &p.reqs[i]);
		dsi_free(p.reqs);
		dsi_free(p.t);
		if (p.oom || p.err.oom) {
			dsi_strbuf_free(&p.err);
			return dsi_error_nomem(rd->err);
		}
		rc = dsi_rd_fail(rd, NULL, DS_EVALUE, "%s", p.err.data ? p.err.data : "invalid selector");
		dsi_strbuf_free(&p.err);
		return rc;
	}
	dsi_free(p.t);
	dsi_strbuf_free(&p.err);
	if (p.nreqs > UINT32_MAX) {
		for (size_t i = 0; i < p.nreqs; i++)
			dsi_requirement_release(atoms, &p.reqs[i]);
		dsi_free(p.reqs);
		return dsi_rd_fail(rd, NULL, DS_ELIMIT, "too many requirements");
	}
	return dsi_selector_build(rd, atoms, p.reqs, (uint32_t)p.nreqs, out);
}
