/* Manifests (JSON or YAML, Lists, streams) as a flat JSON array of objects: what a transport loads. */
#ifndef DSI_CORE_OBJECTS_H
#define DSI_CORE_OBJECTS_H

#include <jansson.h>

#include "core/error.h"
#include "core/limits.h"
#include "core/load.h"

/* A copy of the object a loader callback is given (an object), with kind and apiVersion filled in from its
 * list when it has none; NULL when out of memory. */
json_t *dsi_loaded_object(const dsi_loaded *it);
/* Every object of the text, with kind and apiVersion filled in from its list, as the text of a JSON array
 * (compact, keys sorted; free with dsi_free). */
int dsi_objects_text(const char *data, size_t size, const dsi_limits *lim, char **out, ds_error *err);

#endif
