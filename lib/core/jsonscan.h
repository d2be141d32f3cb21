/*
 * Finding the items of a large JSON List without parsing the List: a scanner
 * that only knows strings and brackets. It does not validate; jansson parses
 * each piece it returns, and anything the scanner finds unusual makes the
 * caller parse the whole value instead. So its only duty is to be right about
 * where valid JSON values begin and end.
 */
#ifndef DSI_JSONSCAN_H
#define DSI_JSONSCAN_H

#include <stddef.h>

/* Bracket nesting beyond which the scanner gives up (jansson's limit is 2048
 * values deep, counted from the whole document's root). */
#define DSI_JSONSCAN_MAX_DEPTH 1024

/* The end of the object or array that starts at text[i] ('{' or '['), or 0
 * when it does not close before size or nests too deep. */
size_t dsi_jsonscan_skip(const char *text, size_t size, size_t i);

/* Where the items of a List are: item k is text[start[k], end[k]). */
typedef struct dsi_jsonscan_items {
	size_t *start, *end;
	size_t n, cap;
} dsi_jsonscan_items;

/* The top-level object at text[i] has a member "items" (spelt without
 * escapes, exactly once) whose value is an array of objects, separated by
 * JSON's whitespace and commas alone: returns 1 with the array's '[' at
 * *open, the index after its ']' at *close, the index after the object's '}'
 * at *end and the items in *items (which the caller frees with
 * dsi_jsonscan_items_free, also after 0). One pass over the text: each byte
 * of the list is looked at once. Returns 0 for anything else, and -1 when
 * out of memory. */
int dsi_jsonscan_list(const char *text, size_t size, size_t i, size_t *open, size_t *close, size_t *end,
		      dsi_jsonscan_items *items);
void dsi_jsonscan_items_free(dsi_jsonscan_items *items);

/* JSON's own whitespace, as jansson skips it. */
static inline size_t dsi_jsonscan_space(const char *text, size_t size, size_t i)
{
	while (i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	return i;
}

#endif
