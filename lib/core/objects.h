/* Manifests (JSON or YAML, Lists, streams) as a flat JSON array of objects: what a transport loads. */
#ifndef DSI_CORE_OBJECTS_H
#define DSI_CORE_OBJECTS_H

#include <jansson.h>

#include "core/error.h"
#include "core/limits.h"

/* Every object of the text, with kind and apiVersion filled in from its list. */
int dsi_objects_parse(const char *data, size_t size, const dsi_limits *lim, json_t **out, ds_error *err);

#endif
