#include "core/files.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/sort.h"
#include "core/strbuf.h"

/*
 * Bounded while it reads: a regular file's size is known before it is read (one allocation of that
 * size); a pipe, a terminal or a file that grows is read in chunks into a buffer that never holds more
 * than max bytes, and the read stops at the first byte beyond max.
 */
int dsi_read_file(const char *path, size_t max, char **out, size_t *len, ds_error *err)
{
	*out = NULL;
	*len = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return dsi_error_io(err, errno, "cannot open", path);
	struct stat st;
	size_t cap = 65536, n = 0;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
		if ((uint64_t)st.st_size > max) {
			fclose(f);
			return dsi_error_too_large(err, path, (size_t)st.st_size, max);
		}
		cap = (size_t)st.st_size + 1; /* room to see that it grew */
	}
	if (cap > max)
		cap = max + 1 > max ? max + 1 : max;
	char *buf = dsi_malloc(cap + 1);
	int rc = buf ? 0 : dsi_error_nomem(err);
	while (rc == 0) {
		if (n == cap) { /* grows by doubling, never beyond max + 1 bytes of text */
			size_t want = cap > max / 2 ? max + 1 : cap * 2;
			char *p = want > cap ? dsi_realloc(buf, want + 1) : NULL;
			if (!p) {
				rc = want > cap ? dsi_error_nomem(err) : dsi_error_too_large(err, path, 0, max);
				break;
			}
			buf = p;
			cap = want;
		}
		size_t k = fread(buf + n, 1, cap - n, f);
		n += k;
		if (n > max) { /* a pipe or a file that grew: no size to check beforehand */
			rc = dsi_error_too_large(err, path, 0, max);
			break;
		}
		if (k == 0) {
			if (ferror(f))
				rc = dsi_error_set(err, DS_EIO, NULL, "cannot read %s", path);
			break;
		}
	}
	fclose(f);
	if (rc < 0) {
		dsi_free(buf);
		return rc;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

static int has_suffix(const char *s, size_t n, const char *suf)
{
	size_t m = strlen(suf);
	return n > m && memcmp(s + n - m, suf, m) == 0;
}

int dsi_manifest_name(const char *name)
{
	size_t n = strlen(name);
	return name[0] != '.' &&
	       (has_suffix(name, n, ".json") || has_suffix(name, n, ".yaml") || has_suffix(name, n, ".yml"));
}

static int cmp_str(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(a, b);
}

int dsi_each_manifest(const char *path, dsi_file_fn fn, void *ctx, ds_error *err)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return dsi_error_io(err, errno, "cannot open", path);
	if (!S_ISDIR(st.st_mode))
		return fn(ctx, path, err);
	DIR *d = opendir(path);
	if (!d)
		return dsi_error_io(err, errno, "cannot open", path);
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!dsi_manifest_name(e->d_name))
			continue;
		if (DSI_GROW(names, cap, n + 1) < 0 || !(names[n] = dsi_strdup(e->d_name))) {
			rc = dsi_error_nomem(err);
			break;
		}
		n++;
	}
	closedir(d);
	if (rc == 0)
		dsi_sort_ptrs((void **)names, n, cmp_str, NULL);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		dsi_strbuf p = DSI_STRBUF_INIT;
		dsi_strbuf_printf(&p, "%s/%s", path, names[i]);
		rc = p.oom ? dsi_error_nomem(err) : fn(ctx, p.data, err);
		dsi_strbuf_free(&p);
	}
	for (size_t i = 0; i < n; i++)
		dsi_free(names[i]);
	dsi_free(names);
	return rc;
}
