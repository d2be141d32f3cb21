/* The fake API server's patches (RFC 7386 merge, strategic merge, RFC 6902 JSON patch)
 * and selectors (labels.Parse through libdaemonset, fields.ParseSelector's = == !=). */
#include "fakeapi_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_t *fake_merge_patch(const json_t *target, const json_t *patch)
{
	if (!json_is_object(patch))
		return json_deep_copy(patch);
	json_t *out = json_is_object(target) ? json_deep_copy(target) : json_object();
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)patch, k, v)
	{
		if (json_is_null(v)) {
			json_object_del(out, k);
			continue;
		}
		json_object_set_new(out, k, fake_merge_patch(json_object_get(out, k), v));
	}
	return out;
}

/* ---- strategic merge: the patchStrategy and patchMergeKey tags of the types served ---- */

typedef struct merge_rule {
	const char *field, *key; /* key NULL: a list of scalars merged as a set */
} merge_rule;

static const merge_rule rules[] = {
	{"containers", "name"},
	{"initContainers", "name"},
	{"ephemeralContainers", "name"},
	{"env", "name"},
	{"ports", "containerPort"},
	{"volumes", "name"},
	{"volumeMounts", "mountPath"},
	{"volumeDevices", "devicePath"},
	{"imagePullSecrets", "name"},
	{"hostAliases", "ip"},
	{"ownerReferences", "uid"},
	{"conditions", "type"},
	{"addresses", "type"},
	{"resourceClaims", "name"},
	{"topologySpreadConstraints", "topologyKey"},
	{"finalizers", NULL},
};

static const merge_rule *rule_for(const char *field)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!strcmp(rules[i].field, field))
			return &rules[i];
	return NULL;
}

static int directive(const json_t *map, const char *value)
{
	const char *p = json_string_value(json_object_get(map, "$patch"));
	return p && !strcmp(p, value);
}

/* A patch value without its directives (for a new element or a replaced map). */
static json_t *plain(const json_t *v)
{
	if (json_is_object(v)) {
		json_t *o = json_object();
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x) if (k[0] != '$') json_object_set_new(o, k, plain(x));
		return o;
	}
	if (json_is_array(v)) {
		json_t *a = json_array();
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) if (!(json_is_object(x) && json_object_get(x, "$patch")))
			json_array_append_new(a, plain(x));
		return a;
	}
	return json_deep_copy(v);
}

static json_t *smp_map(const json_t *orig, const json_t *patch, char *why, size_t size);

static json_t *smp_list(const json_t *orig, const json_t *patch, const merge_rule *rule, char *why, size_t size)
{
	size_t i;
	json_t *item;
	json_array_foreach(patch, i, item) if (json_is_object(item) && directive(item, "replace")) return plain(patch);
	json_t *out = json_is_array(orig) ? json_deep_copy(orig) : json_array();
	if (!rule->key) { /* a set of scalars */
		json_array_foreach(patch, i, item)
		{
			size_t j;
			json_t *have;
			int found = 0;
			json_array_foreach(out, j, have) found |= json_equal(have, item);
			if (!found)
				json_array_append(out, item);
		}
		return out;
	}
	json_array_foreach(patch, i, item)
	{
		const json_t *kv = json_object_get(item, rule->key);
		if (!json_is_object(item) || !kv) {
			snprintf(why, size, "map: %s does not contain declared merge key: %s", rule->field, rule->key);
			json_decref(out);
			return NULL;
		}
		size_t j, at = (size_t)-1;
		json_t *have;
		json_array_foreach(out, j, have) if (json_equal(json_object_get(have, rule->key), kv)) at = j;
		if (directive(item, "delete")) {
			if (at != (size_t)-1)
				json_array_remove(out, at);
			continue;
		}
		json_t *merged = smp_map(at != (size_t)-1 ? json_array_get(out, at) : NULL, item, why, size);
		if (!merged) {
			json_decref(out);
			return NULL;
		}
		if (at != (size_t)-1)
			json_array_set_new(out, at, merged);
		else
			json_array_append_new(out, merged);
	}
	return out;
}

/* $setElementOrder/field: the listed elements first, in that order, then the others as they were. */
static void set_order(json_t *list, const json_t *order, const merge_rule *rule)
{
	json_t *sorted = json_array(), *rest = json_array();
	size_t i, j;
	json_t *o, *x;
	json_t *used = json_array();
	json_array_foreach(list, j, x) json_array_append_new(used, json_false());
	json_array_foreach(order, i, o)
	{
		const json_t *want = rule && rule->key ? json_object_get(o, rule->key) : o;
		json_array_foreach(list, j, x)
		{
			const json_t *have = rule && rule->key ? json_object_get(x, rule->key) : x;
			if (!json_is_true(json_array_get(used, j)) && json_equal(want, have)) {
				json_array_append(sorted, x);
				json_array_set_new(used, j, json_true());
				break;
			}
		}
	}
	json_array_foreach(list, j, x) if (!json_is_true(json_array_get(used, j))) json_array_append(rest, x);
	json_array_extend(sorted, rest);
	json_array_clear(list);
	json_array_extend(list, sorted);
	json_decref(sorted);
	json_decref(rest);
	json_decref(used);
}

static json_t *smp_map(const json_t *orig, const json_t *patch, char *why, size_t size)
{
	if (directive(patch, "replace"))
		return plain(patch);
	json_t *out = json_is_object(orig) ? json_deep_copy(orig) : json_object();
	const json_t *retain = json_object_get(patch, "$retainKeys");
	if (json_is_array(retain)) {
		json_t *kept = json_object();
		size_t i;
		json_t *k;
		json_array_foreach(retain, i, k)
		{
			const char *name = json_string_value(k);
			if (name && json_object_get(out, name))
				json_object_set(kept, name, json_object_get(out, name));
		}
		json_decref(out);
		out = kept;
	}
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)patch, k, v)
	{
		if (!strncmp(k, "$deleteFromPrimitiveList/", 25)) {
			json_t *list = json_object_get(out, k + 25);
			for (size_t i = json_array_size(list); i-- > 0;) {
				size_t j;
				json_t *d;
				json_array_foreach(v, j, d) if (json_equal(json_array_get(list, i), d))
				{
					json_array_remove(list, i);
					break;
				}
			}
			continue;
		}
		if (k[0] == '$')
			continue;
		if (json_is_null(v)) {
			json_object_del(out, k);
			continue;
		}
		if (json_is_object(v)) {
			if (directive(v, "delete")) {
				json_object_del(out, k);
				continue;
			}
			json_t *m = smp_map(json_object_get(out, k), v, why, size);
			if (!m) {
				json_decref(out);
				return NULL;
			}
			json_object_set_new(out, k, m);
			continue;
		}
		const merge_rule *rule = json_is_array(v) ? rule_for(k) : NULL;
		if (rule) {
			json_t *l = smp_list(json_object_get(out, k), v, rule, why, size);
			if (!l) {
				json_decref(out);
				return NULL;
			}
			json_object_set_new(out, k, l);
		} else {
			json_object_set_new(out, k, plain(v));
		}
	}
	json_object_foreach((json_t *)patch, k, v)
	{
		if (strncmp(k, "$setElementOrder/", 17))
			continue;
		json_t *list = json_object_get(out, k + 17);
		if (json_is_array(list) && json_is_array(v))
			set_order(list, v, rule_for(k + 17));
	}
	return out;
}

json_t *fake_strategic_patch(const json_t *target, const json_t *patch, char *why, size_t size)
{
	return smp_map(target, patch, why, size);
}

/* ---- RFC 6902 ---- */

/* Split a JSON pointer into its unescaped tokens (new array of strings); NULL when malformed. */
static json_t *pointer_tokens(const char *ptr)
{
	json_t *a = json_array();
	if (!*ptr)
		return a;
	if (*ptr != '/') {
		json_decref(a);
		return NULL;
	}
	const char *p = ptr + 1;
	for (;;) {
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *tok = malloc(n + 1);
		size_t o = 0;
		for (size_t i = 0; i < n; i++) {
			if (p[i] == '~' && i + 1 < n && (p[i + 1] == '0' || p[i + 1] == '1')) {
				tok[o++] = p[i + 1] == '0' ? '~' : '/';
				i++;
			} else
				tok[o++] = p[i];
		}
		tok[o] = '\0';
		json_array_append_new(a, json_string(tok));
		free(tok);
		if (!end)
			break;
		p = end + 1;
	}
	return a;
}

static int array_index(const char *tok, size_t size, int allow_end, size_t *out)
{
	if (allow_end && !strcmp(tok, "-")) {
		*out = size;
		return 0;
	}
	char *end;
	long v = strtol(tok, &end, 10);
	if (!*tok || *end || v < 0 || (size_t)v > size || (!allow_end && (size_t)v == size))
		return -1;
	*out = (size_t)v;
	return 0;
}

/* The container of the pointer's last token (borrowed), or NULL. */
static json_t *parent_of(json_t *doc, const json_t *toks)
{
	json_t *cur = doc;
	for (size_t i = 0; cur && i + 1 < json_array_size(toks); i++) {
		const char *t = json_string_value(json_array_get(toks, i));
		size_t idx;
		if (json_is_object(cur))
			cur = json_object_get(cur, t);
		else if (json_is_array(cur) && array_index(t, json_array_size(cur), 0, &idx) == 0)
			cur = json_array_get(cur, idx);
		else
			cur = NULL;
	}
	return cur;
}

static json_t *pointer_get(json_t *doc, const char *ptr)
{
	json_t *toks = pointer_tokens(ptr);
	if (!toks)
		return NULL;
	json_t *v = NULL;
	if (!json_array_size(toks))
		v = doc;
	else {
		json_t *p = parent_of(doc, toks);
		const char *last = json_string_value(json_array_get(toks, json_array_size(toks) - 1));
		size_t idx;
		if (json_is_object(p))
			v = json_object_get(p, last);
		else if (json_is_array(p) && array_index(last, json_array_size(p), 0, &idx) == 0)
			v = json_array_get(p, idx);
	}
	json_decref(toks);
	return v;
}

/* add (replace: the member must exist) value (new reference taken) at ptr; 0 or -1. */
static int pointer_put(json_t *doc, const char *ptr, json_t *value, int replace)
{
	json_t *toks = pointer_tokens(ptr);
	int rc = -1;
	if (toks && json_array_size(toks)) {
		json_t *p = parent_of(doc, toks);
		const char *last = json_string_value(json_array_get(toks, json_array_size(toks) - 1));
		size_t idx;
		if (json_is_object(p) && (!replace || json_object_get(p, last)))
			rc = json_object_set(p, last, value);
		else if (json_is_array(p) && array_index(last, json_array_size(p), !replace, &idx) == 0)
			rc = replace ? json_array_set(p, idx, value) : json_array_insert(p, idx, value);
	}
	json_decref(toks);
	json_decref(value);
	return rc;
}

static int pointer_remove(json_t *doc, const char *ptr)
{
	json_t *toks = pointer_tokens(ptr);
	int rc = -1;
	if (toks && json_array_size(toks)) {
		json_t *p = parent_of(doc, toks);
		const char *last = json_string_value(json_array_get(toks, json_array_size(toks) - 1));
		size_t idx;
		if (json_is_object(p))
			rc = json_object_del(p, last);
		else if (json_is_array(p) && array_index(last, json_array_size(p), 0, &idx) == 0)
			rc = json_array_remove(p, idx);
	}
	json_decref(toks);
	return rc;
}

json_t *fake_json_patch(const json_t *target, const json_t *ops, char *why, size_t size)
{
	json_t *doc = json_deep_copy(target);
	size_t i;
	json_t *op;
	json_array_foreach(ops, i, op)
	{
		const char *o = json_string_value(json_object_get(op, "op"));
		const char *path = json_string_value(json_object_get(op, "path"));
		const char *from = json_string_value(json_object_get(op, "from"));
		json_t *value = json_object_get(op, "value");
		int rc = -1;
		if (!o || !path)
			rc = -1;
		else if (!strcmp(o, "add") && value)
			rc = pointer_put(doc, path, json_deep_copy(value), 0);
		else if (!strcmp(o, "replace") && value)
			rc = pointer_put(doc, path, json_deep_copy(value), 1);
		else if (!strcmp(o, "remove"))
			rc = pointer_remove(doc, path);
		else if (!strcmp(o, "test"))
			rc = value && json_equal(pointer_get(doc, path), value) ? 0 : -1;
		else if ((!strcmp(o, "copy") || !strcmp(o, "move")) && from) {
			json_t *v = pointer_get(doc, from);
			v = v ? json_deep_copy(v) : NULL;
			if (v && !strcmp(o, "move") && pointer_remove(doc, from) < 0) {
				json_decref(v);
				v = NULL;
			}
			rc = v ? pointer_put(doc, path, v, 0) : -1;
		}
		if (rc < 0) {
			snprintf(why, size, "the JSON patch's operation %zu (%s %s) failed", i, o ? o : "?",
				 path ? path : "?");
			json_decref(doc);
			return NULL;
		}
	}
	return doc;
}

/* ---- selectors ---- */

int fake_labels_match(const char *selector, const json_t *obj, char *why, size_t size)
{
	if (!selector || !*selector)
		return 1;
	const json_t *labels = json_object_get(json_object_get(obj, "metadata"), "labels");
	char *l = labels ? json_dumps(labels, JSON_COMPACT) : NULL;
	int match = 0;
	ds_error err;
	int rc = ds_selector_match(selector, strlen(selector), l ? l : "{}", l ? strlen(l) : 2, &match, &err);
	free(l);
	if (rc < 0) {
		if (why)
			snprintf(why, size, "unable to parse requirement: %s", err.message);
		return -1;
	}
	return match ? 1 : 0;
}

/* The value a field selector compares: a dotted path into the object, "" when absent. */
static void field_value(const json_t *obj, const char *path, char *buf, size_t size)
{
	char p[256];
	snprintf(p, sizeof(p), "%s", path);
	const json_t *cur = obj;
	for (char *save = NULL, *t = strtok_r(p, ".", &save); t && cur; t = strtok_r(NULL, ".", &save))
		cur = json_object_get(cur, t);
	if (json_is_string(cur))
		snprintf(buf, size, "%s", json_string_value(cur));
	else if (json_is_boolean(cur))
		snprintf(buf, size, "%s", json_is_true(cur) ? "true" : "false");
	else if (json_is_integer(cur))
		snprintf(buf, size, "%lld", (long long)json_integer_value(cur));
	else
		buf[0] = '\0';
}

int fake_fields_match(const char *selector, const json_t *obj, char *why, size_t size)
{
	if (!selector || !*selector)
		return 1;
	char sel[1024];
	snprintf(sel, sizeof(sel), "%s", selector);
	int match = 1;
	for (char *save = NULL, *t = strtok_r(sel, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *op = strstr(t, "!=");
		int neg = op != NULL;
		size_t oplen = 2;
		if (!op) {
			op = strstr(t, "==");
			if (!op) {
				op = strchr(t, '=');
				oplen = 1;
			}
		}
		if (!op || op == t) {
			if (why)
				snprintf(why, size, "invalid selector: '%s'; can't understand '%s'", selector, t);
			return -1;
		}
		*op = '\0';
		char have[512];
		field_value(obj, t, have, sizeof(have));
		int eq = !strcmp(have, op + oplen);
		match &= neg ? !eq : eq;
	}
	return match;
}
