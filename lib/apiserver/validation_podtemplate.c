/* Pod template validation (kubernetes pkg/apis/core/validation/validation.go): the checks a DaemonSet's template gets. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "apiserver/validation.h"
#include "model/intstr.h"
#include "model/labelvalid.h"
#include "model/quantity.h"
#include "model/resources.h"

static int present(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	return v && !json_is_null(v);
}

/* A set of strings (names seen), so that checking the names of n containers (or volumes, ports,
 * env vars) is linear in n: open addressing over one array of (hash, offset, length), the strings
 * copied into one buffer. Two allocations that grow, where a JSON object made two per name (the
 * pair and its key) and walked every pair again at each doubling: at 100,000 containers the names'
 * set was a sixth of the validation, each pair a cache miss. */
typedef struct set_slot {
	uint64_t hash; /* 0: empty (a hash of 0 is stored as 1) */
	size_t off, len;
} set_slot;

typedef struct strset {
	set_slot *slots;
	size_t cap, count; /* cap: a power of two, or 0 */
	char *text;
	size_t text_len, text_cap;
} strset;

#define STRSET_INIT                                                                                                    \
	{                                                                                                              \
		NULL, 0, 0, NULL, 0, 0                                                                                 \
	}

static uint64_t set_hash(const char *s, size_t n)
{
	uint64_t h = dsi_hash_bytes(s, n);
	return h ? h : 1;
}

/* The slot of s in set: where it is, or the empty one where it would go (cap > 0). */
static set_slot *set_find(const strset *set, const char *s, size_t n, uint64_t h)
{
	size_t mask = set->cap - 1;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		set_slot *e = &set->slots[i];
		if (!e->hash || (e->hash == h && e->len == n && (!n || memcmp(set->text + e->off, s, n) == 0)))
			return e;
	}
}

static int set_has(const strset *set, const char *s, size_t n)
{
	return set->cap && set_find(set, s, n, set_hash(s, n))->hash != 0;
}

static int set_grow(strset *set)
{
	size_t cap = set->cap ? set->cap * 2 : 16;
	set_slot *slots = dsi_calloc(cap, sizeof(*slots));
	if (!slots)
		return -1;
	strset bigger = *set;
	bigger.slots = slots;
	bigger.cap = cap;
	for (size_t i = 0; i < set->cap; i++)
		if (set->slots[i].hash) {
			const set_slot *e = &set->slots[i];
			*set_find(&bigger, set->text + e->off, e->len, e->hash) = *e;
		}
	dsi_free(set->slots);
	*set = bigger;
	return 0;
}

/* Add s (the caller knows it is not there). */
static int set_add(dsi_vctx *c, strset *set, const char *s, size_t n)
{
	if ((set->count + 1) * 2 > set->cap && set_grow(set) < 0)
		return dsi_error_nomem(c->rd.err);
	if (DSI_GROW(set->text, set->text_cap, set->text_len + n + 1) < 0)
		return dsi_error_nomem(c->rd.err);
	uint64_t h = set_hash(s, n);
	set_slot *e = set_find(set, s, n, h);
	if (n)
		memcpy(set->text + set->text_len, s, n);
	*e = (set_slot){h, set->text_len, n};
	set->text_len += n;
	set->count++;
	return 0;
}

static int set_copy(strset *dst, const strset *src)
{
	*dst = *src;
	dst->slots = src->cap ? dsi_malloc(src->cap * sizeof(*src->slots)) : NULL;
	dst->text = src->text_cap ? dsi_malloc(src->text_cap) : NULL;
	if ((src->cap && !dst->slots) || (src->text_cap && !dst->text)) {
		dsi_free(dst->slots);
		dsi_free(dst->text);
		memset(dst, 0, sizeof(*dst));
		return -1;
	}
	if (src->cap)
		memcpy(dst->slots, src->slots, src->cap * sizeof(*src->slots));
	if (src->text_len)
		memcpy(dst->text, src->text, src->text_len);
	return 0;
}

static void set_free(strset *set)
{
	dsi_free(set->slots);
	dsi_free(set->text);
	memset(set, 0, sizeof(*set));
}

/* ---- small upstream checks ----------------------------------------------------------------------- */

/* IsValidPortNum + field.Invalid */
static void port_num(dsi_vctx *c, const char *child, int64_t port)
{
	if (port < 1 || port > 65535)
		dsi_v_int(c, child, DSI_FE_INVALID, port, "must be between 1 and 65535, inclusive");
}

/* IsValidPortName (apimachinery pkg/util/validation/validation.go) */
static void port_name(dsi_vctx *c, const char *child, const char *s, size_t n)
{
	int charset = n > 0, letter = 0, dashes = 0;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-'))
			charset = 0;
		if (ch >= 'a' && ch <= 'z')
			letter = 1;
		if (ch == '-' && i + 1 < n && s[i + 1] == '-')
			dashes = 1;
	}
	if (n > 15)
		dsi_v_str(c, child, DSI_FE_INVALID, s, n, "must be no more than 15 characters");
	if (!charset)
		dsi_v_str(c, child, DSI_FE_INVALID, s, n,
			  "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
	if (!letter)
		dsi_v_str(c, child, DSI_FE_INVALID, s, n, "must contain at least one letter (a-z)");
	if (dashes)
		dsi_v_str(c, child, DSI_FE_INVALID, s, n, "must not contain consecutive hyphens");
	if (n > 0 && (s[0] == '-' || s[n - 1] == '-'))
		dsi_v_str(c, child, DSI_FE_INVALID, s, n, "must not begin or end with a hyphen");
}

/* validatePathNoBacksteps */
static void no_backsteps(dsi_vctx *c, const char *child, const char *s, size_t n)
{
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != '/' && s[i] != '\\')
			continue;
		if (i - start == 2 && s[start] == '.' && s[start + 1] == '.') {
			dsi_v_str(c, child, DSI_FE_INVALID, s, n, "must not contain '..'");
			return;
		}
		start = i + 1;
	}
}

/* validateLocalDescendingPath */
static void local_descending_path(dsi_vctx *c, const char *child, const char *s, size_t n)
{
	if (n && s[0] == '/')
		dsi_v_str(c, child, DSI_FE_INVALID, s, n, "must be a relative path");
	no_backsteps(c, child, s, n);
}

/* A NotSupported on a named-string member read from obj (value "" when absent). */
static int one_of(dsi_vctx *c, const json_t *obj, const char *key, int required, const char *const *valid,
		  size_t nvalid)
{
	const char *s;
	size_t n;
	int rc = dsi_v_string(c, obj, key, &s, &n);
	if (rc < 0)
		return rc;
	if (!n && required) {
		dsi_v_required(c, key, "");
		return 0;
	}
	for (size_t i = 0; i < nvalid; i++)
		if (dsi_streq_lit(s, n, valid[i]))
			return 0;
	dsi_v_not_supported(c, key, 1, s, n, valid, nvalid);
	return 0;
}

/* ---- resources ------------------------------------------------------------------------------------ */

static int has_slash(const char *s, size_t n) { return memchr(s, '/', n) != NULL; }

/* helper.IsNativeResource: no '/' or within *kubernetes.io/ */
static int native_resource(const char *s, size_t n)
{
	if (!has_slash(s, n))
		return 1;
	for (size_t i = 0; i + 14 <= n; i++)
		if (memcmp(s + i, "kubernetes.io/", 14) == 0)
			return 1;
	return 0;
}

static int hugepages(const char *s, size_t n) { return n >= 10 && memcmp(s, "hugepages-", 10) == 0; }

/* helper.IsStandardResourceName */
static int standard_resource(const char *s, size_t n)
{
	static const char *const names[] = {
		"cpu",
		"memory",
		"ephemeral-storage",
		"requests.cpu",
		"requests.memory",
		"requests.ephemeral-storage",
		"limits.cpu",
		"limits.memory",
		"limits.ephemeral-storage",
		"pods",
		"resourcequotas",
		"services",
		"replicationcontrollers",
		"secrets",
		"configmaps",
		"persistentvolumeclaims",
		"storage",
		"requests.storage",
		"services.nodeports",
		"services.loadbalancers",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (dsi_streq_lit(s, n, names[i]))
			return 1;
	return hugepages(s, n) || (n >= 19 && memcmp(s, "requests.hugepages-", 19) == 0);
}

static int standard_container_resource(const char *s, size_t n)
{
	return dsi_streq_lit(s, n, "cpu") || dsi_streq_lit(s, n, "memory") ||
	       dsi_streq_lit(s, n, "ephemeral-storage") || hugepages(s, n);
}

static int extended_resource(const char *s, size_t n)
{
	char buf[512];
	if (n >= sizeof(buf))
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return dsi_is_extended_resource_name(buf);
}

/* validateContainerResourceName (on validateResourceName); the error's value is the ResourceName */
static void container_resource_name(dsi_vctx *c, const char *s, size_t n)
{
	dsi_strbuf msgs = DSI_STRBUF_INIT;
	int bad = dsi_validate_label_key(s, n, &msgs);
	if (bad) {
		const char *p = msgs.data;
		while (p && *p) {
			const char *end = strstr(p, "; ");
			size_t len = end ? (size_t)(end - p) : strlen(p);
			char *one = dsi_strndup(p, len);
			if (one)
				dsi_v_named(c, NULL, DSI_FE_INVALID, s, n, one);
			dsi_free(one);
			p = end ? end + 2 : NULL;
		}
	} else if (!has_slash(s, n) && !standard_resource(s, n)) {
		dsi_v_named(c, NULL, DSI_FE_INVALID, s, n, "must be a standard resource type or fully qualified");
	}
	dsi_strbuf_free(&msgs);
	if (!has_slash(s, n)) {
		if (!standard_container_resource(s, n))
			dsi_v_named(c, NULL, DSI_FE_INVALID, s, n, "must be a standard resource for containers");
	} else if (!native_resource(s, n) && !extended_resource(s, n)) {
		dsi_v_named(c, NULL, DSI_FE_INVALID, s, n, "doesn't follow extended resource name standard");
	}
}

/* Quantity.String() as the decoded value would print it */
static void quantity_string(const json_t *v, const dsi_quantity *q, char *buf, size_t size)
{
	if (q->verbatim && json_is_string(v)) {
		/* UnmarshalJSON trims white space; the cached text is what String() returns */
		const char *s = json_string_value(v);
		size_t n = json_string_length(v);
		while (n && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) {
			s++;
			n--;
		}
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
			n--;
		if (n < size) {
			memcpy(buf, s, n);
			buf[n] = '\0';
			return;
		}
	}
	dsi_quantity_format(q, buf, size);
}

/* IsIntegerResourceName for container resources: the extended ones (and the quota counts) */
static int integer_resource(const char *s, size_t n)
{
	static const char *const names[] = {
		"pods",       "resourcequotas",         "services",           "replicationcontrollers", "secrets",
		"configmaps", "persistentvolumeclaims", "services.nodeports", "services.loadbalancers"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (dsi_streq_lit(s, n, names[i]))
			return 1;
	return extended_resource(s, n);
}

/* ValidateResourceQuantityValue */
static void quantity_value(dsi_vctx *c, const char *name, size_t nlen, const json_t *v, const dsi_quantity *q)
{
	char buf[DSI_QUANTITY_STRING_MAX + 64];
	quantity_string(v, q, buf, sizeof(buf));
	if (q->sign < 0)
		dsi_v_str(c, NULL, DSI_FE_INVALID, buf, strlen(buf), "must be greater than or equal to 0");
	if (integer_resource(name, nlen)) {
		int ovf;
		int64_t milli = dsi_quantity_milli(q, &ovf);
		if (!ovf && milli % 1000 != 0) {
			dsi_strbuf b = DSI_STRBUF_INIT;
			dsi_go_json_string(&b, buf, strlen(buf)); /* Quantity.MarshalJSON */
			dsi_v_add(c, NULL, DSI_FE_INVALID, json_string(buf), b.data, "must be an integer");
			dsi_strbuf_free(&b);
		}
	}
}

typedef struct rentry {
	const char *k;
	size_t n;
	json_t *v;
	dsi_quantity q;
} rentry;

static int rentry_cmp(const void *a, const void *b)
{
	const rentry *x = a, *y = b;
	size_t m = x->n < y->n ? x->n : y->n;
	int r = memcmp(x->k, y->k, m);
	return r ? r : (x->n < y->n ? -1 : x->n > y->n);
}

/* A ResourceList, decoded (quantities parse or the decoder fails), sorted by name. */
static int read_rlist(dsi_vctx *c, const json_t *obj, const char *key, rentry **out, size_t *count)
{
	json_t *m;
	*out = NULL;
	*count = 0;
	int rc = dsi_v_object(c, obj, key, &m);
	if (rc < 0 || !m || !json_object_size(m))
		return rc;
	rentry *e = dsi_calloc(json_object_size(m), sizeof(rentry));
	if (!e)
		return dsi_error_nomem(c->rd.err);
	size_t i = 0;
	const char *k;
	size_t kl;
	json_t *v;
	size_t mk = dsi_rd_push(&c->rd, key);
	json_object_keylen_foreach(m, k, kl, v)
	{
		size_t m2 = dsi_rd_push(&c->rd, k);
		rc = json_is_null(v) ? 0 : dsi_quantity_from_json(&c->rd, v, &e[i].q);
		dsi_rd_pop(&c->rd, m2);
		if (rc < 0)
			break;
		e[i].k = k;
		e[i].n = kl;
		e[i].v = v;
		i++;
	}
	dsi_rd_pop(&c->rd, mk);
	if (rc < 0) {
		dsi_free(e);
		return rc;
	}
	qsort(e, i, sizeof(rentry), rentry_cmp);
	*out = e;
	*count = i;
	return 0;
}

static const rentry *rfind(const rentry *e, size_t n, const char *k, size_t kl)
{
	for (size_t i = 0; i < n; i++)
		if (e[i].n == kl && memcmp(e[i].k, k, kl) == 0)
			return &e[i];
	return NULL;
}

/* validateResourceRequirements with validateContainerResourceName; limits_key is "limits", or
 * NULL for the pod overhead (a list validated as limits) */
static int resource_requirements(dsi_vctx *c, const json_t *res, const char *limits_key, const char *requests_key)
{
	rentry *lim = NULL, *req = NULL;
	size_t nl = 0, nr = 0;
	int rc;
	if ((rc = read_rlist(c, res, limits_key, &lim, &nl)) < 0)
		return rc;
	if (requests_key && (rc = read_rlist(c, res, requests_key, &req, &nr)) < 0) {
		dsi_free(lim);
		return rc;
	}
	int lim_cpu_mem = 0, req_cpu_mem = 0, lim_huge = 0, req_huge = 0;
	dsi_vmark ml = dsi_v_child(c, "limits");
	for (size_t i = 0; i < nl; i++) {
		dsi_vmark mk = dsi_v_key(c, lim[i].k, lim[i].n);
		container_resource_name(c, lim[i].k, lim[i].n);
		quantity_value(c, lim[i].k, lim[i].n, lim[i].v, &lim[i].q);
		dsi_v_pop(c, mk);
		lim_huge |= hugepages(lim[i].k, lim[i].n);
		lim_cpu_mem |= dsi_streq_lit(lim[i].k, lim[i].n, "cpu") || dsi_streq_lit(lim[i].k, lim[i].n, "memory");
	}
	dsi_v_pop(c, ml);
	for (size_t i = 0; i < nr; i++) {
		dsi_vmark mreq = dsi_v_child(c, "requests");
		dsi_vmark mk = dsi_v_key(c, req[i].k, req[i].n);
		container_resource_name(c, req[i].k, req[i].n);
		quantity_value(c, req[i].k, req[i].n, req[i].v, &req[i].q);
		dsi_v_pop(c, mk);
		int overcommit = native_resource(req[i].k, req[i].n) && !hugepages(req[i].k, req[i].n);
		const rentry *l = rfind(lim, nl, req[i].k, req[i].n);
		char qs[DSI_QUANTITY_STRING_MAX + 64], ls[DSI_QUANTITY_STRING_MAX + 64];
		if (l) {
			quantity_string(req[i].v, &req[i].q, qs, sizeof(qs));
			quantity_string(l->v, &l->q, ls, sizeof(ls));
			int cmp = dsi_quantity_cmp(&req[i].q, &l->q);
			dsi_strbuf d = DSI_STRBUF_INIT;
			if (cmp != 0 && !overcommit) {
				dsi_strbuf_puts(&d, "must be equal to ");
				dsi_strbuf_append(&d, req[i].k, req[i].n);
				dsi_strbuf_printf(&d, " limit of %s", ls);
				dsi_v_str(c, NULL, DSI_FE_INVALID, qs, strlen(qs), d.data);
			} else if (cmp > 0) {
				dsi_strbuf_puts(&d, "must be less than or equal to ");
				dsi_strbuf_append(&d, req[i].k, req[i].n);
				dsi_strbuf_printf(&d, " limit of %s", ls);
				dsi_v_str(c, NULL, DSI_FE_INVALID, qs, strlen(qs), d.data);
			}
			dsi_strbuf_free(&d);
		} else if (!overcommit) {
			dsi_v_pop(c, mreq);
			dsi_v_required(c, "limits", "Limit must be set for non overcommitable resources");
			mreq = dsi_v_child(c, "requests");
		}
		dsi_v_pop(c, mreq);
		req_huge |= hugepages(req[i].k, req[i].n);
		req_cpu_mem |= dsi_streq_lit(req[i].k, req[i].n, "cpu") || dsi_streq_lit(req[i].k, req[i].n, "memory");
	}
	if (!lim_cpu_mem && !req_cpu_mem && (req_huge || lim_huge))
		dsi_v_forbidden(c, NULL, "HugePages require cpu or memory");
	dsi_free(lim);
	dsi_free(req);
	return 0;
}

/* ---- containers ------------------------------------------------------------------------------------- */

/* validateContainerPorts */
static int container_ports(dsi_vctx *c, const json_t *ctr)
{
	json_t *ports;
	int rc = dsi_v_array(c, ctr, "ports", &ports);
	if (rc < 0 || !ports)
		return rc;
	strset names = STRSET_INIT;
	static const char *const protocols[] = {"SCTP", "TCP", "UDP"};
	dsi_vmark m = dsi_v_child(c, "ports");
	for (size_t i = 0; rc == 0 && i < json_array_size(ports); i++) {
		json_t *p;
		const char *name, *proto, *ip;
		size_t namen, proton, ipn;
		int32_t cport, hport;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, ports, i, &p)) < 0 ||
		    (rc = dsi_v_string(c, p, "name", &name, &namen)) < 0 ||
		    (rc = dsi_v_int32(c, p, "containerPort", &cport, NULL)) < 0 ||
		    (rc = dsi_v_int32(c, p, "hostPort", &hport, NULL)) < 0 ||
		    (rc = dsi_v_string(c, p, "protocol", &proto, &proton)) < 0 ||
		    (rc = dsi_v_string(c, p, "hostIP", &ip, &ipn)) < 0) {
			dsi_v_pop(c, mi);
			break;
		}
		if (namen) {
			size_t before = c->errs->n;
			port_name(c, "name", name, namen);
			if (c->errs->n == before) {
				if (set_has(&names, name, namen))
					dsi_v_str(c, "name", DSI_FE_DUPLICATE, name, namen, "");
				else
					rc = set_add(c, &names, name, namen);
			}
		}
		if (cport == 0)
			dsi_v_required(c, "containerPort", "");
		else
			port_num(c, "containerPort", cport);
		if (hport != 0)
			port_num(c, "hostPort", hport);
		if (!proton)
			dsi_v_required(c, "protocol", "");
		else if (!dsi_streq_lit(proto, proton, "TCP") && !dsi_streq_lit(proto, proton, "UDP") &&
			 !dsi_streq_lit(proto, proton, "SCTP"))
			dsi_v_not_supported(c, "protocol", 1, proto, proton, protocols, 3);
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	set_free(&names);
	return rc;
}

/* IsEnvVarName (apimachinery pkg/util/validation): the rule without RelaxedEnvironmentVariableValidation.
 * Adds its errors for the member "name"; returns how many. */
static int strict_env_name(dsi_vctx *c, const char *name, size_t n, int report)
{
	int bad = 0;
	for (size_t j = 0; j < n; j++) {
		char ch = name[j];
		int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '-' || ch == '.' || ch == '_' ||
			 (j > 0 && ch >= '0' && ch <= '9');
		if (!ok) {
			bad++;
			if (report)
				dsi_v_str(c, "name", DSI_FE_INVALID, name, n,
					  "a valid environment variable name must consist of alphabetic characters, "
					  "digits, '_', '-', or '.', and must not start with a digit (e.g. "
					  "'my.env-name',  "
					  "or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is "
					  "'[-._a-zA-Z][-._a-zA-Z0-9]*')");
			break;
		}
	}
	/* hasChDirPrefix */
	const char *chdir = n == 1 && name[0] == '.'                     ? "must not be '.'"
			    : n == 2 && name[0] == '.' && name[1] == '.' ? "must not be '..'"
			    : n > 2 && name[0] == '.' && name[1] == '.'  ? "must not start with '..'"
									 : NULL;
	if (chdir) {
		bad++;
		if (report)
			dsi_v_str(c, "name", DSI_FE_INVALID, name, n, chdir);
	}
	return bad;
}

/* ValidateEnv: names, IsRelaxedEnvVarName with RelaxedEnvironmentVariableValidation (on by default since
 * 1.32, locked on since 1.34) or when the update keeps a name the old spec had (dsi_vctx), else IsEnvVarName */
static int env(dsi_vctx *c, const json_t *ctr)
{
	int relaxed = (c->gates & DSI_GATE_RELAXED_ENV_VAR_VALIDATION) || c->allow_relaxed_env;
	json_t *vars;
	int rc = dsi_v_array(c, ctr, "env", &vars);
	if (rc < 0 || !vars)
		return rc;
	dsi_vmark m = dsi_v_child(c, "env");
	for (size_t i = 0; rc == 0 && i < json_array_size(vars); i++) {
		json_t *ev, *vf;
		const char *name, *value;
		size_t n, vn;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, vars, i, &ev)) == 0 &&
		    (rc = dsi_v_string(c, ev, "name", &name, &n)) == 0 &&
		    (rc = dsi_v_string(c, ev, "value", &value, &vn)) == 0 &&
		    (rc = dsi_v_object(c, ev, "valueFrom", &vf)) == 0) {
			if (!n) {
				dsi_v_required(c, "name", "");
			} else if (!relaxed) {
				strict_env_name(c, name, n, 1);
			} else {
				for (size_t j = 0; j < n; j++) {
					unsigned char ch = (unsigned char)name[j];
					if (ch < 0x20 || ch > 0x7e || ch == '=') {
						dsi_v_str(c, "name", DSI_FE_INVALID, name, n,
							  "a valid environment variable name must consist only of "
							  "printable ASCII "
							  "characters other than '='");
						break;
					}
				}
			}
		}
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	return rc;
}

/* ValidateVolumeMounts */
static int volume_mounts(dsi_vctx *c, const json_t *ctr, const strset *volumes, int ephemeral)
{
	json_t *mounts;
	int rc = dsi_v_array(c, ctr, "volumeMounts", &mounts);
	if (rc < 0 || !mounts)
		return rc;
	strset points = STRSET_INIT;
	dsi_vmark m = dsi_v_child(c, "volumeMounts");
	for (size_t i = 0; rc == 0 && i < json_array_size(mounts); i++) {
		json_t *mnt;
		const char *name, *path, *sub, *subx;
		size_t namen, pathn, subn, subxn;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, mounts, i, &mnt)) < 0 ||
		    (rc = dsi_v_string(c, mnt, "name", &name, &namen)) < 0 ||
		    (rc = dsi_v_string(c, mnt, "mountPath", &path, &pathn)) < 0 ||
		    (rc = dsi_v_string(c, mnt, "subPath", &sub, &subn)) < 0 ||
		    (rc = dsi_v_string(c, mnt, "subPathExpr", &subx, &subxn)) < 0 ||
		    (rc = dsi_v_bool(c, mnt, "readOnly", &(int){0}, NULL)) < 0) {
			dsi_v_pop(c, mi);
			break;
		}
		if (!namen)
			dsi_v_required(c, "name", "");
		if (!set_has(volumes, name, namen))
			dsi_v_str(c, "name", DSI_FE_NOT_FOUND, name, namen, "");
		if (!pathn)
			dsi_v_required(c, "mountPath", "");
		if (set_has(&points, path, pathn))
			dsi_v_str(c, "mountPath", DSI_FE_INVALID, path, pathn, "must be unique");
		else if ((rc = set_add(c, &points, path, pathn)) < 0) {
			dsi_v_pop(c, mi);
			break;
		}
		dsi_v_pop(c, mi);
		/* upstream puts the subPath errors under the list's path (fldPath, not idxPath) */
		if (subn)
			local_descending_path(c, "subPath", sub, subn);
		if (subxn) {
			if (subn) {
				mi = dsi_v_index(c, i);
				dsi_v_str(c, "subPathExpr", DSI_FE_INVALID, subx, subxn,
					  "subPathExpr and subPath are mutually exclusive");
				dsi_v_pop(c, mi);
			}
			local_descending_path(c, "subPathExpr", subx, subxn);
		}
		if (ephemeral) {
			mi = dsi_v_index(c, i);
			if (subn)
				dsi_v_forbidden(c, "subPath", "cannot be set for an Ephemeral Container");
			if (subxn)
				dsi_v_forbidden(c, "subPathExpr", "cannot be set for an Ephemeral Container");
			dsi_v_pop(c, mi);
		}
	}
	dsi_v_pop(c, m);
	set_free(&points);
	return rc;
}

/* ValidatePortNumOrName on an IntOrString member */
static int port_num_or_name(dsi_vctx *c, const json_t *obj, const char *key)
{
	dsi_intstr v;
	int pres;
	int rc = dsi_intstr_read(&c->rd, obj, key, &v, &pres);
	if (rc < 0)
		return rc;
	json_t *raw = json_object_get(obj, key);
	if (json_is_string(raw))
		port_name(c, key, json_string_value(raw), json_string_length(raw));
	else
		port_num(c, key, v.ival);
	return 0;
}

/* validateHandler: exec, httpGet, tcpSocket, grpc (probes) or sleep (lifecycle) */
static int handler(dsi_vctx *c, const json_t *h, int lifecycle)
{
	static const char *const probe_kinds[] = {"exec", "httpGet", "tcpSocket", "grpc"};
	static const char *const life_kinds[] = {"exec", "httpGet", "tcpSocket", "sleep"};
	const char *const *kinds = lifecycle ? life_kinds : probe_kinds;
	int count = 0, rc = 0;
	for (size_t i = 0; rc == 0 && i < 4; i++) {
		json_t *a;
		if ((rc = dsi_v_object(c, h, kinds[i], &a)) < 0)
			break;
		if (!a && !present(h, kinds[i]))
			continue;
		if (count++) {
			dsi_v_forbidden(c, kinds[i], "may not specify more than 1 handler type");
			continue;
		}
		dsi_vmark m = dsi_v_child(c, kinds[i]);
		if (!strcmp(kinds[i], "exec")) {
			json_t *cmd;
			if ((rc = dsi_v_array(c, a, "command", &cmd)) == 0 && !json_array_size(cmd))
				dsi_v_required(c, "command", "");
		} else if (!strcmp(kinds[i], "httpGet")) {
			const char *path, *scheme;
			size_t pn, sn;
			json_t *headers;
			static const char *const schemes[] = {"HTTP", "HTTPS"};
			if ((rc = dsi_v_string(c, a, "path", &path, &pn)) == 0 &&
			    (rc = dsi_v_string(c, a, "scheme", &scheme, &sn)) == 0 &&
			    (rc = dsi_v_array(c, a, "httpHeaders", &headers)) == 0) {
				if (!pn)
					dsi_v_required(c, "path", "");
				if ((rc = port_num_or_name(c, a, "port")) == 0) {
					if (!dsi_streq_lit(scheme, sn, "HTTP") && !dsi_streq_lit(scheme, sn, "HTTPS"))
						dsi_v_not_supported(c, "scheme", 1, scheme, sn, schemes, 2);
					for (size_t j = 0; rc == 0 && j < json_array_size(headers); j++) {
						json_t *hd;
						const char *hn = NULL;
						size_t hl = 0;
						dsi_vmark mh = dsi_v_child(c, "httpHeaders");
						dsi_vmark mj = dsi_v_index(c, j);
						if ((rc = dsi_v_elem_object(c, headers, j, &hd)) == 0)
							rc = dsi_v_string(c, hd, "name", &hn, &hl);
						dsi_v_pop(c, mj);
						int ok = rc == 0 && hl > 0;
						for (size_t k = 0; ok && k < hl; k++)
							ok = (hn[k] >= 'a' && hn[k] <= 'z') ||
							     (hn[k] >= 'A' && hn[k] <= 'Z') ||
							     (hn[k] >= '0' && hn[k] <= '9') || hn[k] == '-';
						if (rc == 0 && !ok)
							dsi_v_str(c, NULL, DSI_FE_INVALID, hn, hl,
								  "a valid HTTP header must consist of alphanumeric "
								  "characters or "
								  "'-' (e.g. 'X-Header-Name', regex used for "
								  "validation is "
								  "'[-A-Za-z0-9]+')");
						dsi_v_pop(c, mh);
					}
				}
			}
		} else if (!strcmp(kinds[i], "tcpSocket")) {
			rc = port_num_or_name(c, a, "port");
		} else if (!strcmp(kinds[i], "grpc")) {
			int32_t p;
			if ((rc = dsi_v_int32(c, a, "port", &p, NULL)) == 0)
				port_num(c, "port", p);
		} else { /* sleep: decoded; its bound depends on a feature gate not modelled here */
			int64_t s;
			rc = dsi_v_int64(c, a, "seconds", &s, NULL);
		}
		dsi_v_pop(c, m);
	}
	if (rc == 0 && !count)
		dsi_v_required(c, NULL, "must specify a handler type");
	return rc;
}

enum { PROBE_LIVENESS, PROBE_READINESS, PROBE_STARTUP };

/* validateLivenessProbe / validateReadinessProbe / validateStartupProbe on validateProbe */
static int probe(dsi_vctx *c, const json_t *ctr, const char *key, int kind)
{
	json_t *p;
	int rc = dsi_v_object(c, ctr, key, &p);
	if (rc < 0 || (!p && !present(ctr, key)))
		return rc;
	dsi_vmark m = dsi_v_child(c, key);
	static const char *const fields[] = {"initialDelaySeconds", "timeoutSeconds", "periodSeconds",
					     "successThreshold", "failureThreshold"};
	int32_t vals[5] = {0};
	int64_t tgps = 0;
	int has_tgps = 0;
	if ((rc = handler(c, p, 0)) == 0) {
		for (size_t i = 0; rc == 0 && i < 5; i++)
			if ((rc = dsi_v_int32(c, p, fields[i], &vals[i], NULL)) == 0)
				dsi_v_nonnegative(c, fields[i], vals[i]);
		if (rc == 0)
			rc = dsi_v_int64(c, p, "terminationGracePeriodSeconds", &tgps, &has_tgps);
		if (rc == 0 && has_tgps && tgps <= 0)
			dsi_v_int(c, "terminationGracePeriodSeconds", DSI_FE_INVALID, tgps, "must be greater than 0");
		if (rc == 0 && kind != PROBE_READINESS && vals[3] != 1)
			dsi_v_int(c, "successThreshold", DSI_FE_INVALID, vals[3], "must be 1");
		if (rc == 0 && kind == PROBE_READINESS && has_tgps)
			dsi_v_json(c, "terminationGracePeriodSeconds", DSI_FE_INVALID, json_integer(tgps),
				   "must not be set for readinessProbes");
	}
	dsi_v_pop(c, m);
	return rc;
}

/* validateLifecycle */
static int lifecycle(dsi_vctx *c, const json_t *ctr)
{
	json_t *l;
	int rc = dsi_v_object(c, ctr, "lifecycle", &l);
	if (rc < 0 || !l)
		return rc;
	dsi_vmark m = dsi_v_child(c, "lifecycle");
	static const char *const hooks[] = {"postStart", "preStop"};
	for (size_t i = 0; rc == 0 && i < 2; i++) {
		json_t *h;
		if ((rc = dsi_v_object(c, l, hooks[i], &h)) < 0 || !h)
			continue;
		dsi_vmark mh = dsi_v_child(c, hooks[i]);
		rc = handler(c, h, 1);
		dsi_v_pop(c, mh);
	}
	dsi_v_pop(c, m);
	return rc;
}

/* validateContainerCommon */
static int container_common(dsi_vctx *c, const json_t *ctr, const strset *volumes, int ephemeral)
{
	const char *name, *image;
	size_t namen, imagen;
	json_t *res, *sc;
	int rc;
	if ((rc = dsi_v_string(c, ctr, "name", &name, &namen)) < 0 ||
	    (rc = dsi_v_string(c, ctr, "image", &image, &imagen)) < 0 ||
	    (rc = dsi_v_object(c, ctr, "resources", &res)) < 0 ||
	    (rc = dsi_v_object(c, ctr, "securityContext", &sc)) < 0)
		return rc;
	if (!namen)
		dsi_v_required(c, "name", "");
	else
		dsi_v_dns_label(c, "name", name, namen);
	if (!imagen)
		dsi_v_required(c, "image", "");
	static const char *const tmp[] = {"File", "FallbackToLogsOnError"};
	static const char *const pull[] = {"Always", "IfNotPresent", "Never"};
	if ((rc = one_of(c, ctr, "terminationMessagePolicy", 1, tmp, 2)) < 0 || (rc = container_ports(c, ctr)) < 0 ||
	    (rc = env(c, ctr)) < 0 || (rc = volume_mounts(c, ctr, volumes, ephemeral)) < 0 ||
	    (rc = one_of(c, ctr, "imagePullPolicy", 1, pull, 3)) < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "resources");
	rc = resource_requirements(c, res, "limits", "requests");
	dsi_v_pop(c, m);
	return rc;
}

/* AccumulateUniqueHostPorts over containers[from, to) (checkHostPortConflicts) */
static int host_port_conflicts(dsi_vctx *c, const json_t *ctrs, size_t from, size_t to)
{
	strset seen = STRSET_INIT;
	int rc = 0;
	for (size_t ci = from; rc == 0 && ci < to; ci++) {
		json_t *ports = json_object_get(json_array_get(ctrs, ci), "ports");
		for (size_t pi = 0; rc == 0 && pi < json_array_size(ports); pi++) {
			json_t *p = json_array_get(ports, pi);
			json_t *hp = json_object_get(p, "hostPort"), *pr = json_object_get(p, "protocol"),
			       *ip = json_object_get(p, "hostIP");
			json_int_t port = json_is_integer(hp) ? json_integer_value(hp) : 0;
			if (!port)
				continue;
			dsi_strbuf key = DSI_STRBUF_INIT;
			if (json_is_string(pr))
				dsi_strbuf_append(&key, json_string_value(pr), json_string_length(pr));
			dsi_strbuf_putc(&key, '/');
			if (json_is_string(ip))
				dsi_strbuf_append(&key, json_string_value(ip), json_string_length(ip));
			dsi_strbuf_printf(&key, "/%" JSON_INTEGER_FORMAT, port);
			if (key.oom) {
				rc = dsi_error_nomem(c->rd.err);
			} else if (set_has(&seen, key.data, key.len)) {
				dsi_vmark m1 = dsi_v_index(c, ci);
				dsi_vmark m2 = dsi_v_child(c, "ports");
				dsi_vmark m3 = dsi_v_index(c, pi);
				dsi_v_str(c, "hostPort", DSI_FE_DUPLICATE, key.data, key.len, "");
				dsi_v_pop(c, m3);
				dsi_v_pop(c, m2);
				dsi_v_pop(c, m1);
			} else {
				rc = set_add(c, &seen, key.data, key.len);
			}
			dsi_strbuf_free(&key);
		}
	}
	set_free(&seen);
	return rc;
}

/* validateContainers */
static int containers(dsi_vctx *c, const json_t *spec, const strset *volumes, strset *names)
{
	json_t *ctrs;
	int rc = dsi_v_array(c, spec, "containers", &ctrs);
	if (rc < 0)
		return rc;
	if (!json_array_size(ctrs)) {
		dsi_v_required(c, "containers", "");
		return 0;
	}
	dsi_vmark m = dsi_v_child(c, "containers");
	for (size_t i = 0; rc == 0 && i < json_array_size(ctrs); i++) {
		json_t *ctr;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, ctrs, i, &ctr)) == 0 &&
		    (rc = container_common(c, ctr, volumes, 0)) == 0) {
			json_t *n = json_object_get(ctr, "name");
			const char *name = json_is_string(n) ? json_string_value(n) : "";
			size_t nl = json_is_string(n) ? json_string_length(n) : 0;
			if (set_has(names, name, nl))
				dsi_v_str(c, "name", DSI_FE_DUPLICATE, name, nl, "");
			else
				rc = set_add(c, names, name, nl);
			if (rc == 0 && (rc = lifecycle(c, ctr)) == 0 &&
			    (rc = probe(c, ctr, "livenessProbe", PROBE_LIVENESS)) == 0 &&
			    (rc = probe(c, ctr, "readinessProbe", PROBE_READINESS)) == 0 &&
			    (rc = probe(c, ctr, "startupProbe", PROBE_STARTUP)) == 0 && present(ctr, "restartPolicy"))
				dsi_v_forbidden(c, "restartPolicy", "may not be set for non-init containers");
		}
		dsi_v_pop(c, mi);
	}
	if (rc == 0)
		rc = host_port_conflicts(c, ctrs, 0, json_array_size(ctrs));
	dsi_v_pop(c, m);
	return rc;
}

/* validateInitContainers */
static int init_containers(dsi_vctx *c, const json_t *spec, const strset *volumes, strset *names)
{
	json_t *ctrs;
	int rc = dsi_v_array(c, spec, "initContainers", &ctrs);
	if (rc < 0 || !ctrs)
		return rc;
	static const char *const always[] = {"Always"};
	dsi_vmark m = dsi_v_child(c, "initContainers");
	for (size_t i = 0; rc == 0 && i < json_array_size(ctrs); i++) {
		json_t *ctr;
		const char *rp;
		size_t rpn;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, ctrs, i, &ctr)) < 0 || (rc = container_common(c, ctr, volumes, 0)) < 0 ||
		    (rc = dsi_v_string(c, ctr, "restartPolicy", &rp, &rpn)) < 0) {
			dsi_v_pop(c, mi);
			break;
		}
		int restart_always = 0;
		if (present(ctr, "restartPolicy")) {
			if (!dsi_streq_lit(rp, rpn, "Always"))
				dsi_v_not_supported(c, "restartPolicy", 1, rp, rpn, always, 1);
			restart_always = dsi_streq_lit(rp, rpn, "Always");
		}
		json_t *n = json_object_get(ctr, "name");
		const char *name = json_is_string(n) ? json_string_value(n) : "";
		size_t nl = json_is_string(n) ? json_string_length(n) : 0;
		if (set_has(names, name, nl))
			dsi_v_str(c, "name", DSI_FE_DUPLICATE, name, nl, "");
		else if (nl)
			rc = set_add(c, names, name, nl);
		dsi_v_pop(c, mi);
		if (rc == 0)
			rc = host_port_conflicts(c, ctrs, i, i + 1);
		mi = dsi_v_index(c, i);
		if (rc == 0 && restart_always) {
			if ((rc = lifecycle(c, ctr)) == 0 &&
			    (rc = probe(c, ctr, "livenessProbe", PROBE_LIVENESS)) == 0 &&
			    (rc = probe(c, ctr, "readinessProbe", PROBE_READINESS)) == 0)
				rc = probe(c, ctr, "startupProbe", PROBE_STARTUP);
		} else if (rc == 0) {
			static const char *const forbidden[] = {"lifecycle", "livenessProbe", "readinessProbe",
								"startupProbe"};
			for (size_t k = 0; k < 4; k++)
				if (present(ctr, forbidden[k]))
					dsi_v_forbidden(
						c, forbidden[k],
						"may not be set for init containers without restartPolicy=Always");
		}
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	return rc;
}

/* validateEphemeralContainers (run on templates too; ValidatePodTemplateSpec then forbids the list) */
static int ephemeral_containers(dsi_vctx *c, const json_t *spec, const strset *volumes, const strset *names)
{
	json_t *ctrs;
	int rc = dsi_v_array(c, spec, "ephemeralContainers", &ctrs);
	if (rc < 0 || !json_array_size(ctrs))
		return rc;
	strset all;
	if (set_copy(&all, names) < 0)
		return dsi_error_nomem(c->rd.err);
	/* allowedEphemeralContainerFields: these are refused, in struct order */
	static const char *const refused[] = {"ports",          "resources",          "resizePolicy",
					      "restartPolicy",  "restartPolicyRules", "livenessProbe",
					      "readinessProbe", "startupProbe",       "lifecycle"};
	dsi_vmark m = dsi_v_child(c, "ephemeralContainers");
	for (size_t i = 0; rc == 0 && i < json_array_size(ctrs); i++) {
		json_t *ctr;
		const char *target;
		size_t tn;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, ctrs, i, &ctr)) < 0 || (rc = container_common(c, ctr, volumes, 1)) < 0 ||
		    (rc = dsi_v_string(c, ctr, "targetContainerName", &target, &tn)) < 0) {
			dsi_v_pop(c, mi);
			break;
		}
		json_t *img = json_object_get(ctr, "image");
		if (json_is_string(img)) { /* validateContainerOnlyForPod */
			const char *s = json_string_value(img);
			size_t n = json_string_length(img);
			if (n && (s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || s[0] == '\r' || s[0] == '\v' ||
				  s[0] == '\f' || s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
				  s[n - 1] == '\r' || s[n - 1] == '\v' || s[n - 1] == '\f'))
				dsi_v_str(c, "image", DSI_FE_INVALID, s, n,
					  "must not have leading or trailing whitespace");
		}
		json_t *n = json_object_get(ctr, "name");
		const char *name = json_is_string(n) ? json_string_value(n) : "";
		size_t nl = json_is_string(n) ? json_string_length(n) : 0;
		if (set_has(&all, name, nl))
			dsi_v_str(c, "name", DSI_FE_DUPLICATE, name, nl, "");
		else
			rc = set_add(c, &all, name, nl);
		if (tn && !set_has(names, target, tn))
			dsi_v_str(c, "targetContainerName", DSI_FE_NOT_FOUND, target, tn, "");
		for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
			json_t *v = json_object_get(ctr, refused[k]);
			int set = v && !json_is_null(v);
			if (set && !strcmp(refused[k], "resources")) { /* a struct: set when any member is */
				set = 0;
				const char *rk;
				json_t *rv;
				json_object_foreach(v, rk, rv) set |= !json_is_null(rv);
			}
			if (set)
				dsi_v_forbidden(c, refused[k], "cannot be set for an Ephemeral Container");
		}
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	set_free(&all);
	return rc;
}

/* ---- volumes --------------------------------------------------------------------------------------- */

/* validateVolumeSource's members, in its order, with the names its Forbidden errors use */
static const struct {
	const char *key, *path;
} volume_sources[] = {
	{"emptyDir", "emptyDir"},
	{"hostPath", "hostPath"},
	{"gitRepo", "gitRepo"},
	{"gcePersistentDisk", "gcePersistentDisk"},
	{"awsElasticBlockStore", "awsElasticBlockStore"},
	{"secret", "secret"},
	{"nfs", "nfs"},
	{"iscsi", "iscsi"},
	{"glusterfs", "glusterfs"},
	{"flocker", "flocker"},
	{"persistentVolumeClaim", "persistentVolumeClaim"},
	{"rbd", "rbd"},
	{"cinder", "cinder"},
	{"cephfs", "cephFS"}, /* sic */
	{"quobyte", "quobyte"},
	{"downwardAPI", "downwarAPI"}, /* sic */
	{"fc", "fc"},
	{"flexVolume", "flexVolume"},
	{"configMap", "configMap"},
	{"azureFile", "azureFile"},
	{"vsphereVolume", "vsphereVolume"},
	{"photonPersistentDisk", "photonPersistentDisk"},
	{"portworxVolume", "portworxVolume"},
	{"azureDisk", "azureDisk"},
	{"storageos", "storageos"},
	{"projected", "projected"},
	{"scaleIO", "scaleIO"},
	{"csi", "csi"},
	{"ephemeral", "ephemeral"},
	{"image", "image"},
};

/* validateVolumeSource: the number of sources, and the hostPath and emptyDir details */
static int volume_source(dsi_vctx *c, const json_t *vol)
{
	int count = 0, rc = 0;
	for (size_t i = 0; rc == 0 && i < sizeof(volume_sources) / sizeof(volume_sources[0]); i++) {
		json_t *src;
		if ((rc = dsi_v_object(c, vol, volume_sources[i].key, &src)) < 0 || !src)
			continue;
		if (count++) {
			dsi_v_forbidden(c, volume_sources[i].path, "may not specify more than 1 volume type");
			continue;
		}
		dsi_vmark m = dsi_v_child(c, volume_sources[i].key);
		if (!strcmp(volume_sources[i].key, "hostPath")) {
			const char *path, *type;
			size_t pn, tn;
			static const char *const types[] = {
				"",     "BlockDevice",  "CharDevice", "Directory", "DirectoryOrCreate",
				"File", "FileOrCreate", "Socket"};
			if ((rc = dsi_v_string(c, src, "path", &path, &pn)) == 0 &&
			    (rc = dsi_v_string(c, src, "type", &type, &tn)) == 0) {
				if (!pn) {
					dsi_v_required(c, "path", "");
				} else {
					no_backsteps(c, "path", path, pn);
					int ok = 0;
					for (size_t k = 0; k < 8; k++)
						ok |= dsi_streq_lit(type, tn, types[k]);
					if (!ok)
						dsi_v_not_supported(c, "type", 1, type, tn, types, 8);
				}
			}
		} else if (!strcmp(volume_sources[i].key, "emptyDir") && present(src, "sizeLimit")) {
			dsi_quantity q;
			size_t m2 = dsi_rd_push(&c->rd, "sizeLimit");
			rc = dsi_quantity_from_json(&c->rd, json_object_get(src, "sizeLimit"), &q);
			dsi_rd_pop(&c->rd, m2);
			if (rc == 0 && q.sign < 0)
				dsi_v_forbidden(c, "sizeLimit", "SizeLimit field must be a valid resource quantity");
		}
		dsi_v_pop(c, m);
	}
	if (rc == 0 && !count)
		dsi_v_required(c, NULL, "must specify a volume type");
	return rc;
}

/* ValidateVolumes: the names of the valid volumes go into *valid */
static int volumes(dsi_vctx *c, const json_t *spec, strset *valid)
{
	json_t *vols;
	int rc = dsi_v_array(c, spec, "volumes", &vols);
	if (rc < 0 || !vols)
		return rc;
	strset all = STRSET_INIT;
	dsi_vmark m = dsi_v_child(c, "volumes");
	for (size_t i = 0; rc == 0 && i < json_array_size(vols); i++) {
		json_t *vol;
		const char *name;
		size_t n;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, vols, i, &vol)) == 0 &&
		    (rc = dsi_v_string(c, vol, "name", &name, &n)) == 0) {
			size_t before = c->errs->n;
			rc = volume_source(c, vol);
			if (!n)
				dsi_v_required(c, "name", "");
			else
				dsi_v_dns_label(c, "name", name, n);
			if (set_has(&all, name, n))
				dsi_v_str(c, "name", DSI_FE_DUPLICATE, name, n, "");
			if (rc == 0 && c->errs->n == before)
				rc = set_add(c, &all, name, n) < 0 ? DS_ENOMEM : set_add(c, valid, name, n);
		}
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	set_free(&all);
	return rc;
}

/* ---- scheduling ------------------------------------------------------------------------------------ */

/* ValidateTolerations */
int dsi_validate_tolerations(dsi_vctx *c, const json_t *spec, const char *key)
{
	json_t *tols;
	int rc = dsi_v_array(c, spec, key, &tols);
	if (rc < 0 || !tols)
		return rc;
	static const char *const ops[] = {"Equal", "Exists"};
	static const char *const effects[] = {"NoSchedule", "PreferNoSchedule", "NoExecute"};
	dsi_vmark m = dsi_v_child(c, key);
	for (size_t i = 0; rc == 0 && i < json_array_size(tols); i++) {
		json_t *t;
		const char *k, *op, *val, *eff;
		size_t kn, opn, valn, effn;
		int64_t secs;
		int has_secs;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, tols, i, &t)) < 0 || (rc = dsi_v_string(c, t, "key", &k, &kn)) < 0 ||
		    (rc = dsi_v_string(c, t, "operator", &op, &opn)) < 0 ||
		    (rc = dsi_v_string(c, t, "value", &val, &valn)) < 0 ||
		    (rc = dsi_v_string(c, t, "effect", &eff, &effn)) < 0 ||
		    (rc = dsi_v_int64(c, t, "tolerationSeconds", &secs, &has_secs)) < 0) {
			dsi_v_pop(c, mi);
			break;
		}
		if (kn)
			dsi_v_label_name(c, "key", k, kn);
		if (!kn && !dsi_streq_lit(op, opn, "Exists"))
			dsi_v_named(c, "operator", DSI_FE_INVALID, op, opn,
				    "operator must be Exists when `key` is empty, which means \"match all values and "
				    "all keys\"");
		if (has_secs && !dsi_streq_lit(eff, effn, "NoExecute"))
			dsi_v_named(c, "effect", DSI_FE_INVALID, eff, effn,
				    "effect must be 'NoExecute' when `tolerationSeconds` is set");
		if (!opn || dsi_streq_lit(op, opn, "Equal")) {
			dsi_strbuf msgs = DSI_STRBUF_INIT;
			if (dsi_validate_label_value(val, valn, &msgs)) {
				/* strings.Join(errs, ";") */
				dsi_strbuf joined = DSI_STRBUF_INIT;
				for (const char *p = msgs.data; p && *p;) {
					const char *end = strstr(p, "; ");
					size_t len = end ? (size_t)(end - p) : strlen(p);
					if (joined.len)
						dsi_strbuf_putc(&joined, ';');
					dsi_strbuf_append(&joined, p, len);
					p = end ? end + 2 : NULL;
				}
				dsi_v_str(c, "operator", DSI_FE_INVALID, val, valn, joined.data ? joined.data : "");
				dsi_strbuf_free(&joined);
			}
			dsi_strbuf_free(&msgs);
		} else if (dsi_streq_lit(op, opn, "Exists")) {
			if (valn)
				dsi_v_str(c, "operator", DSI_FE_INVALID, val, valn,
					  "value must be empty when `operator` is 'Exists'");
		} else if ((dsi_streq_lit(op, opn, "Lt") || dsi_streq_lit(op, opn, "Gt")) &&
			   (c->gates & DSI_GATE_TAINT_TOLERATION_COMPARISON_OPERATORS)) {
			/* alpha TaintTolerationComparisonOperators: accepted; its value rules are not modelled */
		} else {
			dsi_v_not_supported(c, "operator", 1, op, opn, ops, 2);
		}
		if (effn) { /* validateTaintEffect(allowEmpty) */
			int ok = 0;
			for (size_t k2 = 0; k2 < 3; k2++)
				ok |= dsi_streq_lit(eff, effn, effects[k2]);
			if (!ok)
				dsi_v_not_supported(c, "effect", 1, eff, effn, effects, 3);
		}
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	return rc;
}

/* ValidateNodeSelectorRequirement */
static int node_selector_requirement(dsi_vctx *c, const json_t *rq, int allow_invalid_values)
{
	const char *op, *key;
	size_t opn, keyn;
	json_t *values;
	int rc;
	if ((rc = dsi_v_string(c, rq, "operator", &op, &opn)) < 0 ||
	    (rc = dsi_v_string(c, rq, "key", &key, &keyn)) < 0 || (rc = dsi_v_array(c, rq, "values", &values)) < 0)
		return rc;
	size_t nv = json_array_size(values);
	if (dsi_streq_lit(op, opn, "In") || dsi_streq_lit(op, opn, "NotIn")) {
		if (!nv)
			dsi_v_required(c, "values", "must be specified when `operator` is 'In' or 'NotIn'");
	} else if (dsi_streq_lit(op, opn, "Exists") || dsi_streq_lit(op, opn, "DoesNotExist")) {
		if (nv)
			dsi_v_forbidden(c, "values",
					"may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
	} else if (dsi_streq_lit(op, opn, "Gt") || dsi_streq_lit(op, opn, "Lt")) {
		if (nv != 1)
			dsi_v_required(c, "values", "must be specified single value when `operator` is 'Lt' or 'Gt'");
	} else {
		dsi_v_named(c, "operator", DSI_FE_INVALID, op, opn, "not a valid selector operator");
	}
	dsi_v_label_name(c, "key", key, keyn);
	dsi_vmark m = dsi_v_child(c, "values");
	for (size_t i = 0; rc == 0 && i < nv; i++) {
		const char *s;
		size_t n;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_string(c, values, i, &s, &n)) == 0 && !allow_invalid_values)
			dsi_v_label_value(c, NULL, s, n);
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	return rc;
}

/* ValidateNodeFieldSelectorRequirement */
static int node_field_requirement(dsi_vctx *c, const json_t *rq)
{
	const char *op, *key;
	size_t opn, keyn;
	json_t *values;
	int rc;
	if ((rc = dsi_v_string(c, rq, "operator", &op, &opn)) < 0 ||
	    (rc = dsi_v_string(c, rq, "key", &key, &keyn)) < 0 || (rc = dsi_v_array(c, rq, "values", &values)) < 0)
		return rc;
	if (dsi_streq_lit(op, opn, "In") || dsi_streq_lit(op, opn, "NotIn")) {
		if (json_array_size(values) != 1)
			dsi_v_required(
				c, "values",
				"must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
	} else {
		dsi_v_named(c, "operator", DSI_FE_INVALID, op, opn, "not a valid selector operator");
	}
	if (!dsi_streq_lit(key, keyn, "metadata.name")) {
		dsi_v_str(c, "key", DSI_FE_INVALID, key, keyn, "not a valid field selector key");
		return 0;
	}
	dsi_vmark m = dsi_v_child(c, "values");
	for (size_t i = 0; rc == 0 && i < json_array_size(values); i++) {
		const char *s;
		size_t n;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_string(c, values, i, &s, &n)) == 0)
			dsi_v_dns_subdomain(c, NULL, s, n); /* ValidateNodeName */
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	return rc;
}

/* ValidateNodeSelectorTerm */
static int node_selector_term(dsi_vctx *c, const json_t *term, int allow_invalid_values)
{
	static const char *const lists[] = {"matchExpressions", "matchFields"};
	int rc = 0;
	for (size_t l = 0; rc == 0 && l < 2; l++) {
		json_t *reqs;
		if ((rc = dsi_v_array(c, term, lists[l], &reqs)) < 0)
			break;
		dsi_vmark m = dsi_v_child(c, lists[l]);
		for (size_t j = 0; rc == 0 && j < json_array_size(reqs); j++) {
			json_t *rq;
			dsi_vmark mj = dsi_v_index(c, j);
			if ((rc = dsi_v_elem_object(c, reqs, j, &rq)) == 0)
				rc = l == 0 ? node_selector_requirement(c, rq, allow_invalid_values)
					    : node_field_requirement(c, rq);
			dsi_v_pop(c, mj);
		}
		dsi_v_pop(c, m);
	}
	return rc;
}

/* validateNodeAffinity: ValidateNodeSelector and ValidatePreferredSchedulingTerms */
static int node_affinity(dsi_vctx *c, const json_t *na)
{
	json_t *req, *pref;
	int rc;
	if ((rc = dsi_v_object(c, na, "requiredDuringSchedulingIgnoredDuringExecution", &req)) < 0 ||
	    (rc = dsi_v_array(c, na, "preferredDuringSchedulingIgnoredDuringExecution", &pref)) < 0)
		return rc;
	if (req || present(na, "requiredDuringSchedulingIgnoredDuringExecution")) {
		json_t *terms;
		dsi_vmark m = dsi_v_child(c, "requiredDuringSchedulingIgnoredDuringExecution");
		if ((rc = dsi_v_array(c, req, "nodeSelectorTerms", &terms)) == 0) {
			if (!json_array_size(terms))
				dsi_v_required(c, "nodeSelectorTerms", "must have at least one node selector term");
			dsi_vmark mt = dsi_v_child(c, "nodeSelectorTerms");
			for (size_t i = 0; rc == 0 && i < json_array_size(terms); i++) {
				json_t *term;
				dsi_vmark mi = dsi_v_index(c, i);
				if ((rc = dsi_v_elem_object(c, terms, i, &term)) == 0)
					rc = node_selector_term(c, term, 0);
				dsi_v_pop(c, mi);
			}
			dsi_v_pop(c, mt);
		}
		dsi_v_pop(c, m);
	}
	dsi_vmark m = dsi_v_child(c, "preferredDuringSchedulingIgnoredDuringExecution");
	for (size_t i = 0; rc == 0 && i < json_array_size(pref); i++) {
		json_t *p, *term;
		int32_t w;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, pref, i, &p)) == 0 &&
		    (rc = dsi_v_int32(c, p, "weight", &w, NULL)) == 0 &&
		    (rc = dsi_v_object(c, p, "preference", &term)) == 0) {
			if (w <= 0 || w > 100)
				dsi_v_int(c, "weight", DSI_FE_INVALID, w, "must be in the range 1-100");
			dsi_vmark mp = dsi_v_child(c, "preference");
			rc = node_selector_term(c, term, 1); /* invalid label values are always allowed here */
			dsi_v_pop(c, mp);
		}
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	return rc;
}

/* validatePodAffinityTerm */
static int pod_affinity_term(dsi_vctx *c, const json_t *term)
{
	json_t *nss;
	const char *tk;
	size_t tkn;
	int rc;
	if ((rc = dsi_v_label_selector(c, term, "labelSelector")) < 0 ||
	    (rc = dsi_v_label_selector(c, term, "namespaceSelector")) < 0 ||
	    (rc = dsi_v_array(c, term, "namespaces", &nss)) < 0 ||
	    (rc = dsi_v_string(c, term, "topologyKey", &tk, &tkn)) < 0)
		return rc;
	for (size_t i = 0; rc == 0 && i < json_array_size(nss); i++) {
		const char *s;
		size_t n;
		dsi_vmark mi = dsi_v_child(c, "namespaces");
		dsi_vmark mj = dsi_v_index(c, i);
		rc = dsi_v_elem_string(c, nss, i, &s, &n);
		dsi_v_pop(c, mj);
		dsi_v_pop(c, mi);
		if (rc == 0)
			dsi_v_dns_label(c, "namespace", s, n); /* upstream's path says "namespace" */
	}
	if (rc < 0)
		return rc;
	if (!tkn)
		dsi_v_required(c, "topologyKey", "can not be empty");
	dsi_v_label_name(c, "topologyKey", tk, tkn);
	return 0;
}

/* validatePodAffinity / validatePodAntiAffinity */
static int pod_affinity(dsi_vctx *c, const json_t *pa)
{
	json_t *req, *pref;
	int rc;
	if ((rc = dsi_v_array(c, pa, "requiredDuringSchedulingIgnoredDuringExecution", &req)) < 0 ||
	    (rc = dsi_v_array(c, pa, "preferredDuringSchedulingIgnoredDuringExecution", &pref)) < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "requiredDuringSchedulingIgnoredDuringExecution");
	for (size_t i = 0; rc == 0 && i < json_array_size(req); i++) {
		json_t *t;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, req, i, &t)) == 0)
			rc = pod_affinity_term(c, t);
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	m = dsi_v_child(c, "preferredDuringSchedulingIgnoredDuringExecution");
	for (size_t i = 0; rc == 0 && i < json_array_size(pref); i++) {
		json_t *w, *t;
		int32_t weight;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, pref, i, &w)) == 0 &&
		    (rc = dsi_v_int32(c, w, "weight", &weight, NULL)) == 0 &&
		    (rc = dsi_v_object(c, w, "podAffinityTerm", &t)) == 0) {
			if (weight <= 0 || weight > 100)
				dsi_v_int(c, "weight", DSI_FE_INVALID, weight, "must be in the range 1-100");
			dsi_vmark mt = dsi_v_child(c, "podAffinityTerm");
			rc = pod_affinity_term(c, t);
			dsi_v_pop(c, mt);
		}
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	return rc;
}

/* validateAffinity */
static int affinity(dsi_vctx *c, const json_t *spec)
{
	json_t *aff;
	int rc = dsi_v_object(c, spec, "affinity", &aff);
	if (rc < 0 || !aff)
		return rc;
	static const char *const kinds[] = {"nodeAffinity", "podAffinity", "podAntiAffinity"};
	dsi_vmark m = dsi_v_child(c, "affinity");
	for (size_t i = 0; rc == 0 && i < 3; i++) {
		json_t *a;
		if ((rc = dsi_v_object(c, aff, kinds[i], &a)) < 0 || !a)
			continue;
		dsi_vmark mk = dsi_v_child(c, kinds[i]);
		rc = i == 0 ? node_affinity(c, a) : pod_affinity(c, a);
		dsi_v_pop(c, mk);
	}
	dsi_v_pop(c, m);
	return rc;
}

/* validatePodDNSConfig: the None policy, counts and option names */
static int dns_config(dsi_vctx *c, const json_t *spec, const char *policy, size_t pn)
{
	json_t *cfg, *ns = NULL, *searches = NULL, *opts = NULL;
	int rc = dsi_v_object(c, spec, "dnsConfig", &cfg);
	if (rc < 0)
		return rc;
	if (cfg &&
	    ((rc = dsi_v_array(c, cfg, "nameservers", &ns)) < 0 ||
	     (rc = dsi_v_array(c, cfg, "searches", &searches)) < 0 || (rc = dsi_v_array(c, cfg, "options", &opts)) < 0))
		return rc;
	if (dsi_streq_lit(policy, pn, "None")) {
		if (!cfg) {
			dsi_v_required(c, "dnsConfig", "must provide `dnsConfig` when `dnsPolicy` is None");
			return 0;
		}
		if (!json_array_size(ns)) {
			dsi_v_required(c, "dnsConfig.nameservers",
				       "must provide at least one DNS nameserver when `dnsPolicy` is None");
			return 0;
		}
	}
	if (!cfg)
		return 0;
	dsi_vmark m = dsi_v_child(c, "dnsConfig");
	if (json_array_size(ns) > 3)
		dsi_v_json(c, "nameservers", DSI_FE_INVALID, json_deep_copy(ns),
			   "must not have more than 3 nameservers");
	size_t total = 0;
	for (size_t i = 0; rc == 0 && i < json_array_size(searches); i++) {
		const char *s;
		size_t n;
		dsi_vmark mi = dsi_v_child(c, "searches");
		dsi_vmark mj = dsi_v_index(c, i);
		rc = dsi_v_elem_string(c, searches, i, &s, &n);
		dsi_v_pop(c, mj);
		dsi_v_pop(c, mi);
		total += n + (i ? 1 : 0);
	}
	if (rc == 0 && json_array_size(searches) > 32)
		dsi_v_json(c, "searches", DSI_FE_INVALID, json_deep_copy(searches),
			   "must not have more than 32 search paths");
	if (rc == 0 && total > 2048)
		dsi_v_json(c, "searches", DSI_FE_INVALID, json_deep_copy(searches),
			   "must not have more than 2048 characters (including spaces) in the search list");
	dsi_vmark mo = dsi_v_child(c, "options");
	for (size_t i = 0; rc == 0 && i < json_array_size(opts); i++) {
		json_t *o;
		const char *name;
		size_t n;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, opts, i, &o)) == 0 &&
		    (rc = dsi_v_string(c, o, "name", &name, &n)) == 0 && !n)
			dsi_v_required(c, NULL, "must not be empty");
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, mo);
	dsi_v_pop(c, m);
	return rc;
}

/* validatePodHostNetworkDeps (a template: a zero hostPort is allowed) */
static void host_network_deps(dsi_vctx *c, const json_t *spec)
{
	if (!json_is_true(json_object_get(spec, "hostNetwork")))
		return;
	json_t *ctrs = json_object_get(spec, "containers");
	for (size_t i = 0; i < json_array_size(ctrs); i++) {
		json_t *ports = json_object_get(json_array_get(ctrs, i), "ports");
		for (size_t j = 0; j < json_array_size(ports); j++) {
			json_t *p = json_array_get(ports, j);
			json_int_t hp = json_integer_value(json_object_get(p, "hostPort"));
			json_int_t cp = json_integer_value(json_object_get(p, "containerPort"));
			if (hp != 0 && hp != cp) {
				dsi_vmark m1 = dsi_v_child(c, "containers");
				dsi_vmark m2 = dsi_v_index(c, i);
				dsi_vmark m3 = dsi_v_child(c, "ports");
				dsi_vmark m4 = dsi_v_index(c, j);
				dsi_v_int(c, "hostPort", DSI_FE_INVALID, hp,
					  "must match `containerPort` when `hostNetwork` is true");
				dsi_v_pop(c, m4);
				dsi_v_pop(c, m3);
				dsi_v_pop(c, m2);
				dsi_v_pop(c, m1);
			}
		}
	}
}

/* readinessGates and schedulingGates */
static int gates(dsi_vctx *c, const json_t *spec)
{
	json_t *rg, *sg;
	int rc;
	if ((rc = dsi_v_array(c, spec, "readinessGates", &rg)) < 0 ||
	    (rc = dsi_v_array(c, spec, "schedulingGates", &sg)) < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "readinessGates");
	for (size_t i = 0; rc == 0 && i < json_array_size(rg); i++) {
		json_t *g;
		const char *s;
		size_t n;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, rg, i, &g)) == 0 &&
		    (rc = dsi_v_string(c, g, "conditionType", &s, &n)) == 0)
			dsi_v_label_name(c, "conditionType", s, n);
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	strset seen = STRSET_INIT;
	m = dsi_v_child(c, "schedulingGates");
	for (size_t i = 0; rc == 0 && i < json_array_size(sg); i++) {
		json_t *g;
		const char *s;
		size_t n;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, sg, i, &g)) == 0 && (rc = dsi_v_string(c, g, "name", &s, &n)) == 0) {
			dsi_v_label_name(c, NULL, s, n);
			if (set_has(&seen, s, n))
				dsi_v_str(c, NULL, DSI_FE_DUPLICATE, s, n, "");
			else
				rc = set_add(c, &seen, s, n);
		}
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	set_free(&seen);
	return rc;
}

/* ValidatePodSpec (pkg/apis/core/validation/validation.go), in its order; spec NULL is the zero spec */
static int pod_spec(dsi_vctx *c, const json_t *spec)
{
	int64_t tgps, ads;
	int has_tgps, has_ads, rc;
	json_t *sc, *ns;
	const char *restart, *dns, *sa, *node, *host, *sub, *pc, *rcn, *pp;
	size_t restartn, dnsn, san, noden, hostn, subn, pcn, rcnn, ppn;
	if ((rc = dsi_v_int64(c, spec, "terminationGracePeriodSeconds", &tgps, &has_tgps)) < 0 ||
	    (rc = dsi_v_int64(c, spec, "activeDeadlineSeconds", &ads, &has_ads)) < 0 ||
	    (rc = dsi_v_object(c, spec, "securityContext", &sc)) < 0 ||
	    (rc = dsi_v_object(c, spec, "nodeSelector", &ns)) < 0 ||
	    (rc = dsi_v_bool(c, spec, "hostNetwork", &(int){0}, NULL)) < 0 ||
	    (rc = dsi_v_string(c, spec, "restartPolicy", &restart, &restartn)) < 0 ||
	    (rc = dsi_v_string(c, spec, "dnsPolicy", &dns, &dnsn)) < 0 ||
	    (rc = dsi_v_string(c, spec, "serviceAccountName", &sa, &san)) < 0 ||
	    (rc = dsi_v_string(c, spec, "nodeName", &node, &noden)) < 0 ||
	    (rc = dsi_v_string(c, spec, "hostname", &host, &hostn)) < 0 ||
	    (rc = dsi_v_string(c, spec, "subdomain", &sub, &subn)) < 0 ||
	    (rc = dsi_v_string(c, spec, "priorityClassName", &pc, &pcn)) < 0 ||
	    (rc = dsi_v_string(c, spec, "runtimeClassName", &rcn, &rcnn)) < 0 ||
	    (rc = dsi_v_string(c, spec, "preemptionPolicy", &pp, &ppn)) < 0)
		return rc;
	if (!has_tgps)
		dsi_v_required(c, "terminationGracePeriodSeconds", "");
	strset vols = STRSET_INIT, names = STRSET_INIT;
	if ((rc = volumes(c, spec, &vols)) < 0 || (rc = containers(c, spec, &vols, &names)) < 0 ||
	    (rc = init_containers(c, spec, &vols, &names)) < 0 ||
	    (rc = ephemeral_containers(c, spec, &vols, &names)) < 0)
		goto out;
	host_network_deps(c, spec);
	static const char *const restarts[] = {"Always", "OnFailure", "Never"};
	static const char *const dnss[] = {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"};
	static const char *const preempts[] = {"PreemptLowerPriority", "Never"};
	if ((rc = one_of(c, spec, "restartPolicy", 1, restarts, 3)) < 0 ||
	    (rc = one_of(c, spec, "dnsPolicy", 1, dnss, 4)) < 0 ||
	    (rc = dsi_v_labels(c, spec, "nodeSelector", "nodeSelector")) < 0 || (rc = affinity(c, spec)) < 0 ||
	    (rc = dns_config(c, spec, dns, dnsn)) < 0 || (rc = gates(c, spec)) < 0)
		goto out;
	if (san)
		dsi_v_dns_subdomain(c, "serviceAccountName", sa, san);
	if (noden)
		dsi_v_dns_subdomain(c, "nodeName", node, noden);
	if (has_ads && (ads < 1 || ads > INT32_MAX))
		dsi_v_int(c, "activeDeadlineSeconds", DSI_FE_INVALID, ads,
			  "must be between 1 and 2147483647, inclusive");
	if (hostn)
		dsi_v_dns_label(c, "hostname", host, hostn);
	if (subn)
		dsi_v_dns_label(c, "subdomain", sub, subn);
	if ((rc = dsi_validate_tolerations(c, spec, "tolerations")) < 0)
		goto out;
	if (pcn)
		dsi_v_dns_subdomain(c, "priorityClassName", pc, pcn);
	if (present(spec, "runtimeClassName"))
		dsi_v_dns_subdomain(c, "runtimeClassName", rcn, rcnn);
	if (present(spec, "preemptionPolicy") && (rc = one_of(c, spec, "preemptionPolicy", 1, preempts, 2)) < 0)
		goto out;
	if (present(spec, "overhead")) { /* validateOverhead: the list validated as limits, under overhead.limits */
		size_t fpm = c->fp.len;
		dsi_strbuf_puts(&c->fp, ".overhead");
		rc = resource_requirements(c, spec, "overhead", NULL);
		dsi_strbuf_truncate(&c->fp, fpm);
	}
out:
	set_free(&vols);
	set_free(&names);
	return rc;
}

/* ValidatePodSpecificAnnotations: mirror pod, deletion cost, seccomp (tolerations and AppArmor are not modelled) */
static int pod_annotations(dsi_vctx *c, const json_t *meta, const json_t *spec)
{
	json_t *ann;
	int rc = dsi_v_object(c, meta, "annotations", &ann);
	if (rc < 0 || !ann)
		return rc;
	dsi_vmark m = dsi_v_child(c, "annotations");
	json_t *mirror = json_object_get(ann, "kubernetes.io/config.mirror");
	json_t *nn = json_object_get(spec, "nodeName");
	if (json_is_string(mirror) && !(json_is_string(nn) && json_string_length(nn))) {
		dsi_vmark mk = dsi_v_key(c, "kubernetes.io/config.mirror", 27);
		dsi_v_str(c, NULL, DSI_FE_INVALID, json_string_value(mirror), json_string_length(mirror),
			  "must set spec.nodeName if mirror pod annotation is set");
		dsi_v_pop(c, mk);
	}
	json_t *cost = json_object_get(ann, "controller.kubernetes.io/pod-deletion-cost");
	if (json_is_string(cost)) {
		/* GetDeletionCostFromPodAnnotations: validFirstDigit, then strconv.ParseInt(v, 10, 32) */
		const char *s = json_string_value(cost);
		size_t n = json_string_length(cost);
		int64_t v = 0;
		int ok = n && (s[0] == '-' || (s[0] == '0' && n == 1) || (s[0] >= '1' && s[0] <= '9')) &&
			 dsi_parse_go_int64(s, n, &v) && v >= INT32_MIN && v <= INT32_MAX;
		if (!ok) {
			dsi_vmark mk = dsi_v_key(c, "controller.kubernetes.io/pod-deletion-cost", 42);
			dsi_v_str(c, NULL, DSI_FE_INVALID, s, n, "must be a 32bit integer");
			dsi_v_pop(c, mk);
		}
	}
	/* ValidateSeccompPodAnnotations: the pod key, then the container keys (Child, not Key) */
	static const char pod_key[] = "seccomp.security.alpha.kubernetes.io/pod";
	static const char ctr_prefix[] = "container.seccomp.security.alpha.kubernetes.io/";
	const char *k;
	json_t *v;
	for (int pass = 0; pass < 2; pass++) {
		json_object_foreach(ann, k, v)
		{
			int match = pass == 0 ? !strcmp(k, pod_key) : !strncmp(k, ctr_prefix, sizeof(ctr_prefix) - 1);
			if (!match || !json_is_string(v))
				continue;
			const char *p = json_string_value(v);
			size_t n = json_string_length(v);
			if (dsi_streq_lit(p, n, "runtime/default") || dsi_streq_lit(p, n, "docker/default") ||
			    dsi_streq_lit(p, n, "unconfined"))
				continue;
			if (n >= 10 && !memcmp(p, "localhost/", 10))
				local_descending_path(c, k, p + 10, n - 10);
			else
				dsi_v_str(c, k, DSI_FE_INVALID, p, n, "must be a valid seccomp profile");
		}
	}
	dsi_v_pop(c, m);
	return 0;
}

/* ValidatePodTemplateSpec */
int dsi_validate_pod_template(dsi_vctx *c, const json_t *tmpl)
{
	json_t *meta, *spec;
	int rc;
	if ((rc = dsi_v_object(c, tmpl, "metadata", &meta)) < 0 || (rc = dsi_v_object(c, tmpl, "spec", &spec)) < 0)
		return rc;
	/* the template's metadata decodes like any ObjectMeta */
	if (meta) {
		dsi_vmark m = dsi_v_child(c, "metadata");
		const char *s;
		size_t n;
		int64_t g;
		rc = dsi_v_string(c, meta, "name", &s, &n);
		if (rc == 0)
			rc = dsi_v_string(c, meta, "namespace", &s, &n);
		if (rc == 0)
			rc = dsi_v_int64(c, meta, "generation", &g, NULL);
		dsi_rd_pop(&c->rd, m.rd);
		dsi_strbuf_truncate(&c->fp, m.fp);
		if (rc < 0)
			return rc;
	}
	/* labels and annotations sit at template.labels / template.annotations in upstream's paths;
	 * decoder errors use the JSON path (template.metadata.labels) */
	size_t mrd = dsi_rd_push(&c->rd, "metadata");
	if ((rc = dsi_v_labels(c, meta, "labels", "labels")) == 0 &&
	    (rc = dsi_v_annotations(c, meta, "annotations", "annotations", NULL)) == 0)
		rc = pod_annotations(c, meta, spec);
	dsi_rd_pop(&c->rd, mrd);
	if (rc < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "spec");
	rc = pod_spec(c, spec);
	dsi_v_pop(c, m);
	if (rc < 0)
		return rc;
	if (json_array_size(json_object_get(spec, "ephemeralContainers")))
		dsi_v_forbidden(c, "spec.ephemeralContainers", "ephemeral containers not allowed in pod template");
	return 0;
}

/* The env var names of every container of a pod spec (gatherPodEnvVarNames, pkg/api/pod/util.go), into
 * names (a JSON object used as a set). */
static void env_names(const json_t *spec, json_t *names)
{
	static const char *const lists[] = {"initContainers", "containers", "ephemeralContainers"};
	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
		const json_t *ctrs = json_object_get(spec, lists[l]);
		for (size_t i = 0; i < json_array_size(ctrs); i++) {
			const json_t *env = json_object_get(json_array_get(ctrs, i), "env");
			for (size_t j = 0; j < json_array_size(env); j++) {
				const char *n = json_string_value(json_object_get(json_array_get(env, j), "name"));
				if (n)
					json_object_set_new(names, n, json_true());
			}
		}
	}
}

int dsi_relaxed_env_used(const json_t *spec, const json_t *old_spec)
{
	json_t *old = json_object(), *now = json_object();
	int used = 0;
	if (old && now) {
		env_names(old_spec, old);
		env_names(spec, now);
		const char *k;
		json_t *v;
		/* relaxedEnvVarUsed: a name the strict rule refuses that the old spec had */
		json_object_foreach(now, k, v)
		{
			if (!used && json_object_get(old, k) && strict_env_name(NULL, k, strlen(k), 0))
				used = 1;
		}
	}
	json_decref(old);
	json_decref(now);
	return used;
}
