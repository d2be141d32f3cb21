/* Files: reading one whole, and the one walk over a directory of manifests that every reader shares. */
#ifndef DSI_FILES_H
#define DSI_FILES_H

#include <stddef.h>

#include "daemonset/common.h"

/* Read a whole file into *out (NUL-terminated, free with dsi_free), refusing one larger than max
 * bytes (DS_ELIMIT) before reading it. DS_EIO names the path. */
int dsi_read_file(const char *path, size_t max, char **out, size_t *len, ds_error *err);

/* A manifest's file name: *.json, *.yaml or *.yml, not hidden. */
int dsi_manifest_name(const char *name);

typedef int (*dsi_file_fn)(void *ctx, const char *path, ds_error *err);
/* path itself when it is not a directory; else each manifest file directly in it (no recursion),
 * sorted by name (bytes), as "path/name". fn is called for each in turn until it returns < 0,
 * which ends the walk with that code. DS_EIO when path cannot be read. */
int dsi_each_manifest(const char *path, dsi_file_fn fn, void *ctx, ds_error *err);

#endif
