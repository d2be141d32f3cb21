#include "core/jsonscan.h"

#include <string.h>

#include "core/alloc.h"

/* The index after the closing quote of the string whose opening quote is at
 * text[i], or 0. A quote ends the string unless an odd number of backslashes
 * precedes it: every escape is a backslash and one character, and \u's four
 * hex digits are neither quote nor backslash. */
static size_t string_end(const char *text, size_t size, size_t i)
{
	i++;
	for (;;) {
		const char *q = i < size ? memchr(text + i, '"', size - i) : NULL;
		if (!q)
			return 0;
		size_t at = (size_t)(q - text), b = at;
		while (b > i && text[b - 1] == '\\')
			b--;
		if ((at - b) % 2 == 0)
			return at + 1;
		i = at + 1;
	}
}

size_t dsi_jsonscan_skip(const char *text, size_t size, size_t i)
{
	int depth = 0;
	while (i < size) {
		char c = text[i];
		if (c == '"') {
			i = string_end(text, size, i);
			if (!i)
				return 0;
			continue;
		}
		i++;
		if (c == '{' || c == '[') {
			if (++depth > DSI_JSONSCAN_MAX_DEPTH)
				return 0;
		} else if (c == '}' || c == ']') {
			if (--depth <= 0)
				return depth == 0 ? i : 0;
		}
	}
	return 0;
}

static int scalar_end(char c)
{
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void dsi_jsonscan_items_free(dsi_jsonscan_items *items)
{
	dsi_free(items->start);
	dsi_free(items->end);
	memset(items, 0, sizeof(*items));
}

static int items_add(dsi_jsonscan_items *items, size_t start, size_t end)
{
	if (items->n == items->cap) {
		size_t cap = items->cap ? items->cap * 2 : 256;
		size_t *s = dsi_reallocarray(items->start, cap, sizeof(*s));
		if (!s)
			return -1;
		items->start = s;
		size_t *e = dsi_reallocarray(items->end, cap, sizeof(*e));
		if (!e)
			return -1;
		items->end = e;
		items->cap = cap;
	}
	items->start[items->n] = start;
	items->end[items->n++] = end;
	return 0;
}

/* The array at text[i] ('['), its elements recorded: the index after its ']', 0 when an element is not
 * an object or the array does not close, -1 without memory. */
static long long scan_items(const char *text, size_t size, size_t i, dsi_jsonscan_items *items)
{
	i = dsi_jsonscan_space(text, size, i + 1);
	if (i < size && text[i] == ']')
		return (long long)i + 1;
	for (;;) {
		if (i >= size || text[i] != '{')
			return 0;
		size_t e = dsi_jsonscan_skip(text, size, i);
		if (!e)
			return 0;
		if (items_add(items, i, e) < 0)
			return -1;
		i = dsi_jsonscan_space(text, size, e);
		if (i < size && text[i] == ']')
			return (long long)i + 1;
		if (i >= size || text[i] != ',')
			return 0;
		i = dsi_jsonscan_space(text, size, i + 1);
	}
}

int dsi_jsonscan_list(const char *text, size_t size, size_t i, size_t *open, size_t *close, size_t *end,
		      dsi_jsonscan_items *items)
{
	int found = 0;
	items->n = 0;
	if (i >= size || text[i] != '{')
		return 0;
	i = dsi_jsonscan_space(text, size, i + 1);
	for (;;) {
		if (i >= size || text[i] != '"')
			return 0;
		size_t key = i + 1, after_key = string_end(text, size, i);
		if (!after_key)
			return 0;
		int is_items = after_key - key == 6 && memcmp(text + key, "items\"", 6) == 0;
		i = dsi_jsonscan_space(text, size, after_key);
		if (i >= size || text[i] != ':')
			return 0;
		i = dsi_jsonscan_space(text, size, i + 1);
		if (i >= size)
			return 0;
		size_t value_end;
		if (is_items) {
			if (found || text[i] != '[')
				return 0;
			long long e = scan_items(text, size, i, items);
			if (e <= 0)
				return (int)e;
			found = 1;
			*open = i;
			*close = value_end = (size_t)e;
		} else if (text[i] == '{' || text[i] == '[') {
			value_end = dsi_jsonscan_skip(text, size, i);
		} else if (text[i] == '"') {
			value_end = string_end(text, size, i);
		} else {
			for (value_end = i; value_end < size && !scalar_end(text[value_end]); value_end++)
				;
		}
		if (!value_end || value_end == i)
			return 0;
		i = dsi_jsonscan_space(text, size, value_end);
		if (i < size && text[i] == ',') {
			i = dsi_jsonscan_space(text, size, i + 1);
			continue;
		}
		if (i < size && text[i] == '}' && found) {
			*end = i + 1;
			return 1;
		}
		return 0;
	}
}
