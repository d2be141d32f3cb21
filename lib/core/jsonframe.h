/*
 * Framing a stream of JSON values as bytes arrive, in any chunking: where each
 * top-level value begins and ends, without parsing it. A watch stream is such
 * a stream (client-go's json.Framer hands the decoder one value at a time, and
 * the API server writes each event followed by a newline). Only objects are
 * accepted at the top level; whitespace separates them.
 */
#ifndef DSI_JSONFRAME_H
#define DSI_JSONFRAME_H

#include <stddef.h>
#include <stdint.h>

typedef struct dsi_jframe {
	uint64_t offset; /* bytes of the stream scanned so far */
	uint64_t start;  /* offset where the current value began (valid while in_value) */
	uint32_t depth;
	uint8_t in_value, in_string, escape;
} dsi_jframe;

enum {
	DSI_JFRAME_MORE = 0, /* every byte given was consumed; the value (if any) continues */
	DSI_JFRAME_DONE = 1, /* a value ended at *used bytes into the chunk */
	DSI_JFRAME_BAD = 2   /* the byte at *used is not the start of an object (nothing consumed after it) */
};

/* Scan n bytes of p. *used: how many bytes belong to what was scanned (the value's
 * bytes and the whitespace before it); with DONE the value's last byte is p[*used - 1]. */
int dsi_jframe_scan(dsi_jframe *f, const char *p, size_t n, size_t *used);

#endif
