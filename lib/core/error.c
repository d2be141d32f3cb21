#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void copy_trunc(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void dsi_error_clear(ds_error *err)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
}

int dsi_error_set(ds_error *err, int code, const char *path, const char *fmt, ...)
{
	if (!err)
		return code;
	err->code = code;
	err->line = 0;
	err->column = 0;
	copy_trunc(err->path, sizeof(err->path), path ? path : "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return code;
}

int dsi_error_io(ds_error *err, int errnum, const char *what, const char *path)
{
	char text[128];
	/* strerror is not thread-safe; the XSI strerror_r is (POSIX 2008) */
	if (strerror_r(errnum, text, sizeof(text)) != 0)
		snprintf(text, sizeof(text), "error %d", errnum);
	return dsi_error_set(err, DS_EIO, NULL, "%s %s: %s", what, path, text);
}

int dsi_error_too_large(ds_error *err, const char *what, size_t size, size_t max)
{
	if (!size) /* a stream: read as far as the limit, its size unknown */
		return dsi_error_set(err, DS_ELIMIT, NULL,
				     "%s is larger than the limit of %zu bytes: set the option maxDocumentBytes higher "
				     "to read it",
				     what ? what : "input", max);
	if (!what)
		return dsi_error_set(err, DS_ELIMIT, NULL,
				     "input of %zu bytes is larger than the limit of %zu bytes: set the option "
				     "maxDocumentBytes to %zu or more to read it",
				     size, max, size);
	return dsi_error_set(err, DS_ELIMIT, NULL,
			     "%s is %zu bytes, larger than the limit of %zu bytes: set the option maxDocumentBytes "
			     "to %zu or more to read it",
			     what, size, max, size);
}

int dsi_error_nomem(ds_error *err)
{
	if (err) {
		err->code = DS_ENOMEM;
		copy_trunc(err->message, sizeof(err->message), "out of memory");
	}
	return DS_ENOMEM;
}

void dsi_error_prefix_path(ds_error *err, const char *prefix)
{
	if (!err || !prefix || !*prefix)
		return;
	char buf[DS_ERROR_PATH_MAX];
	size_t plen = strlen(prefix), olen = strlen(err->path);
	int dot = err->path[0] && err->path[0] != '[';
	size_t n = 0;
	for (size_t i = 0; i < plen && n + 1 < sizeof(buf); i++)
		buf[n++] = prefix[i];
	if (dot && n + 1 < sizeof(buf))
		buf[n++] = '.';
	for (size_t i = 0; i < olen && n + 1 < sizeof(buf); i++)
		buf[n++] = err->path[i];
	buf[n] = '\0';
	memcpy(err->path, buf, n + 1);
}

/* A source too long for its field keeps its end, where the file's name and the document and item
 * within it are ("...ed/charts/agent/templates/daemonset.yaml: document 3, items[2]"); the cut falls
 * on a UTF-8 character's first byte. */
void dsi_error_set_source(ds_error *err, const char *source)
{
	if (!err || !source)
		return;
	size_t n = strlen(source), size = sizeof(err->source);
	if (n < size) {
		memcpy(err->source, source, n + 1);
		return;
	}
	const char *tail = source + n - (size - 4);
	while (*tail && ((unsigned char)*tail & 0xC0) == 0x80)
		tail++;
	memcpy(err->source, "...", 3);
	memcpy(err->source + 3, tail, strlen(tail) + 1);
}

void dsi_error_set_position(ds_error *err, int line, int column)
{
	if (err) {
		err->line = line;
		err->column = column;
	}
}
