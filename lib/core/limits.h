/* Limits that hold under hostile input. Each refusal is DS_ELIMIT with a message. */
#ifndef DSI_LIMITS_H
#define DSI_LIMITS_H

#include <stddef.h>

/* Nesting depth of JSON and YAML documents: jansson's own fixed limit, used for YAML too. */
#define DSI_MAX_DEPTH 2048

typedef struct dsi_limits {
	size_t max_bytes;       /* one input text (default 256 MiB) */
	size_t max_objects;     /* objects in one input (default 10 million) */
	size_t max_alias_nodes; /* nodes produced by YAML aliases in one document (default 1 million) */
} dsi_limits;

#define DSI_DEFAULT_MAX_BYTES ((size_t)256 << 20)
#define DSI_DEFAULT_MAX_OBJECTS ((size_t)10000000)
#define DSI_DEFAULT_MAX_ALIAS_NODES ((size_t)1000000)

static inline void dsi_limits_default(dsi_limits *l)
{
	l->max_bytes = DSI_DEFAULT_MAX_BYTES;
	l->max_objects = DSI_DEFAULT_MAX_OBJECTS;
	l->max_alias_nodes = DSI_DEFAULT_MAX_ALIAS_NODES;
}

#endif
