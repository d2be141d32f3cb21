/* This file also calls the 1.0 names, which SONAME 1 keeps (daemonset(7), Superseded names). */
#define DS_NO_DEPRECATION_WARNINGS

#include "harness.h"

#include <dirent.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dsi_test_each_file(const char *dir, const char *const *suffixes, void (*fn)(const char *path, void *ctx),
			void *ctx)
{
	DIR *d = opendir(dir);
	ck_assert_msg(d != NULL, "cannot open %s (run the tests from the source tree)", dir);
	struct dirent *e;
	char path[4096];
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		DIR *sub = opendir(path);
		if (sub) {
			closedir(sub);
			dsi_test_each_file(path, suffixes, fn, ctx);
			continue;
		}
		size_t len = strlen(e->d_name);
		for (const char *const *s = suffixes; *s; s++) {
			size_t sl = strlen(*s);
			if (len > sl && strcmp(e->d_name + len - sl, *s) == 0) {
				fn(path, ctx);
				break;
			}
		}
	}
	closedir(d);
}

char *dsi_test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s (run the tests from the source tree)", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	size_t got = fread(buf, 1, (size_t)n, f);
	fclose(f);
	ck_assert_uint_eq(got, (size_t)n);
	buf[n] = '\0';
	if (len)
		*len = (size_t)n;
	return buf;
}

json_t *dsi_test_load_json(const char *path)
{
	size_t n;
	char *text = dsi_test_read_file(path, &n);
	json_error_t je;
	json_t *v = json_loadb(text, n, JSON_REJECT_DUPLICATES, &je);
	free(text);
	ck_assert_msg(v != NULL, "%s:%d: %s", path, je.line, je.text);
	return v;
}

json_t *dsi_test_rows(const json_t *doc, const char *section)
{
	json_t *r = json_object_get(json_object_get(doc, section), "rows");
	ck_assert_msg(json_array_size(r) > 0, "section %s has no rows", section);
	return r;
}

json_t *dsi_test_take_json(char *out)
{
	ck_assert_ptr_nonnull(out);
	json_error_t je;
	json_t *v = json_loads(out, 0, &je);
	ck_assert_msg(v != NULL, "output is not JSON: %s", je.text);
	ds_free(out);
	return v;
}

int dsi_test_code(const char *name)
{
	static const struct {
		const char *name;
		int code;
	} codes[] = {{"DS_ENOMEM", DS_ENOMEM},         {"DS_EARG", DS_EARG},     {"DS_ESYNTAX", DS_ESYNTAX},
		     {"DS_ETYPE", DS_ETYPE},           {"DS_EVALUE", DS_EVALUE}, {"DS_EMISSING", DS_EMISSING},
		     {"DS_ENOTFOUND", DS_ENOTFOUND},   {"DS_ELIMIT", DS_ELIMIT}, {"DS_EUNSUPPORTED", DS_EUNSUPPORTED},
		     {"DS_EINVALID", DS_EINVALID},     {"DS_EIO", DS_EIO},       {"DS_ECONFLICT", DS_ECONFLICT},
		     {"DS_ETRANSPORT", DS_ETRANSPORT}, {"DS_ESTATE", DS_ESTATE}};
	for (size_t i = 0; name && i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcmp(codes[i].name, name) == 0)
			return codes[i].code;
	ck_abort_msg("unknown code %s", name ? name : "(none)");
	return 0;
}

ds_cluster *dsi_test_load_sample(void)
{
	ds_cluster *c = NULL;
	ds_error err;
	size_t n = 0;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	int rc = ds_cluster_load_file(c, "examples/cluster", &n, &err);
	ck_assert_msg(rc == 0, "%s: %s: %s", err.source, err.path, err.message);
	ck_assert_uint_gt(n, 0);
	return c;
}

ds_cluster *dsi_test_cluster_text(const char *text)
{
	ds_cluster *c = NULL;
	ds_error err;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, &err), 0);
	int rc = ds_cluster_load(c, text, strlen(text), NULL, &err);
	ck_assert_msg(rc == 0, "%s: %s", err.path, err.message);
	return c;
}

ds_options *dsi_test_options(const char *json)
{
	ds_options *o;
	ck_assert_int_eq(ds_options_new(&o), 0);
	if (json) {
		ds_error err;
		int rc = ds_options_set_json(o, json, &err);
		ck_assert_msg(rc == 0, "options %s: %s: %s", json, err.path, err.message);
	}
	return o;
}

ds_options *dsi_test_options_of(const json_t *settings)
{
	if (!settings || !json_object_size(settings))
		return dsi_test_options(NULL);
	char *text = json_dumps(settings, JSON_COMPACT);
	ck_assert_ptr_nonnull(text);
	ds_options *o = dsi_test_options(text);
	free(text);
	return o;
}

/* want is a subset of got: objects by the keys of want, arrays of the same length element by element,
 * anything else equal. where (from where[len] on, cap bytes in all) gets the first difference. */
static int subset(const json_t *want, const json_t *got, char *where, size_t len, size_t cap)
{
	if (json_is_object(want)) {
		if (!json_is_object(got)) {
			snprintf(where + len, cap - len, ": not an object");
			return 0;
		}
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)want, k, v)
		{
			int n = snprintf(where + len, cap - len, ".%s", k);
			json_t *g = json_object_get(got, k);
			if (!g) {
				snprintf(where + len + (size_t)n, cap - len - (size_t)n, ": missing");
				return 0;
			}
			if (!subset(v, g, where, len + (size_t)n, cap))
				return 0;
		}
		where[len] = '\0';
		return 1;
	}
	if (json_is_array(want)) {
		if (!json_is_array(got) || json_array_size(got) != json_array_size(want)) {
			snprintf(where + len, cap - len, ": %zu elements, want %zu", json_array_size(got),
				 json_array_size(want));
			return 0;
		}
		for (size_t i = 0; i < json_array_size(want); i++) {
			int n = snprintf(where + len, cap - len, "[%zu]", i);
			if (!subset(json_array_get(want, i), json_array_get(got, i), where, len + (size_t)n, cap))
				return 0;
		}
		where[len] = '\0';
		return 1;
	}
	if (!json_equal((json_t *)want, (json_t *)got)) {
		snprintf(where + len, cap - len, ": different value");
		return 0;
	}
	return 1;
}

void dsi_test_assert_subset(const char *name, const json_t *want, const json_t *got)
{
	char where[512] = "";
	if (!subset(want, got, where, 0, sizeof(where))) {
		char *w = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		char *g = json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		fprintf(stderr, "%s: mismatch at %s\nwant %s\ngot  %s\n", name, where, w, g);
		free(w);
		free(g);
		ck_abort_msg("%s: mismatch at %s", name, where);
	}
}

uint64_t dsi_test_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

void dsi_test_expect_outcome(const char *name, const json_t *cs, int rc, const ds_error *err, char *out)
{
	const json_t *ee = json_object_get(cs, "expectError");
	if (ee) {
		ck_assert_msg(rc == dsi_test_code(json_string_value(json_object_get(ee, "code"))), "%s: rc %d (%s)",
			      name, rc, err->message);
		ck_assert_ptr_null(out);
		ck_assert_error(*err, rc, json_string_value(json_object_get(ee, "path")));
		const char *prefix = json_string_value(json_object_get(ee, "messagePrefix"));
		ck_assert_msg(strncmp(err->message, prefix, strlen(prefix)) == 0, "%s: message '%s'", name,
			      err->message);
	} else {
		ck_assert_msg(rc == 0, "%s: %s: %s: %s", name, ds_strerror(rc), err->path, err->message);
		json_t *got = dsi_test_take_json(out);
		dsi_test_assert_subset(name, json_object_get(cs, "expect"), got);
		json_decref(got);
	}
}
