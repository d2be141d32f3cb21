/*
 * A fast reader of JSON text into exactly the jansson tree that json_loadb builds (issues 33 and 34).
 * jansson's own lexer takes one byte at a time through a stream (80-120 MB/s) and was most of every
 * call on text; this reader scans strings 16 bytes at a time and builds the same tree with jansson's
 * constructors: the same types (integer vs real), the same values (strtoll's integers, the C
 * locale's strtod reals), the same keys in the same order, the same string bytes, and je->position
 * where jansson puts it. It never reports an error of its own: whenever its reading might differ
 * from jansson's or jansson would refuse the text (a repeated key under JSON_REJECT_DUPLICATES, an
 * integer beyond int64, a real
 * beyond double, "\u0000", a lone surrogate escape, a control character or invalid UTF-8 in a
 * string, nesting beyond DSI_JSON_FAST_MAX_DEPTH, anything after the value, any syntax error) it
 * gives up (NULL, je untouched) and the caller runs json_loadb, so every error, with its message,
 * line and column, is jansson's own.
 */
#ifndef DSI_JSONFAST_H
#define DSI_JSONFAST_H

#include <jansson.h>
#include <stddef.h>

/* Fewer levels than jansson's 2048: a deeper value is jansson's to read (and to refuse). */
#define DSI_JSON_FAST_MAX_DEPTH 1024

/* json_loadb(text, n, flags, je)'s tree with je as jansson fills it on success (position, line and
 * column -1, source "<buffer>", empty text), or NULL with je untouched: then only json_loadb knows.
 * flags: JSON_REJECT_DUPLICATES, JSON_DISABLE_EOF_CHECK and JSON_DECODE_ANY; any other flag gives up.
 * je may be NULL. */
json_t *dsi_json_fast_loadb(const char *text, size_t n, size_t flags, json_error_t *je);

/* The same reading of text[0, n) with text[from, to) read as "[]" (the tree that json_loadb gives
 * on text[0, from) "[]" text[to, n), with je->position counted in text itself): NULL also when no
 * value begins at text[from], so that the caller's own way of leaving the value out decides. */
json_t *dsi_json_fast_loadb_cut(const char *text, size_t n, size_t from, size_t to, size_t flags, json_error_t *je);

/* This reader's tree, else json_loadb's outcome (tree or error): a drop-in json_loadb for the
 * flags above. */
json_t *dsi_json_loadb_fast(const char *text, size_t n, size_t flags, json_error_t *je);

#endif
