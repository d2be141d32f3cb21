/* JSON text for results, allocated by the library (released with ds_free). */
#ifndef DSI_JSONOUT_H
#define DSI_JSONOUT_H

#include <jansson.h>

#include "core/error.h"

/* JSON text of v with jansson's flags, or NULL on allocation failure (or where jansson's dump fails:
 * a string that is not UTF-8, a loop). The compact forms are written by jsonout.c itself, byte for
 * byte as jansson writes them; the others go through json_dump_callback. Either way the result is
 * the library's memory (a host's json_set_alloc_funcs cannot make it unsafe to pass to ds_free). */
char *dsi_json_dumps(const json_t *v, size_t flags);
/* Dump v into *out (and release v); DS_ENOMEM when v is NULL or dumping fails. */
int dsi_json_emit(json_t *v, char **out, ds_error *err);
/* The same for a value the caller keeps, which other threads may be reading: no reference count is
 * touched (jansson's json_incref reads the count non-atomically). */
int dsi_json_emit_shared(const json_t *v, char **out, ds_error *err);

#endif
