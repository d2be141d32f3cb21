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
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Bracket nesting beyond which the scanner gives up (jansson's limit is 2048
 * values deep, counted from the whole document's root). */
#define DSI_JSONSCAN_MAX_DEPTH 1024

/* The end of the object or array that starts at text[i] ('{' or '['), or 0
 * when it does not close before size or nests too deep. */
size_t dsi_jsonscan_skip(const char *text, size_t size, size_t i);
/* The same with the machine's vector instructions up to level (0 none, 1 SSE2, 2 AVX2 when the
 * processor has it): dsi_jsonscan_skip is level 2; the tests compare every level. */
size_t dsi_jsonscan_skip_with(const char *text, size_t size, size_t i, int level);

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

/* The finder of the items of dsi_jsonscan_list_by: given the index of the array's '[', it records the
 * array's elements in items and returns the index after its ']', 0 when an element is not an object
 * or the array does not close, -1 without memory (NULL: dsi_jsonscan_list's, one pass on one thread). */
typedef long long (*dsi_jsonscan_items_fn)(void *ctx, const char *text, size_t size, size_t open,
					   dsi_jsonscan_items *items);
int dsi_jsonscan_list_by(const char *text, size_t size, size_t i, size_t *open, size_t *close, size_t *end,
			 dsi_jsonscan_items *items, dsi_jsonscan_items_fn scan, void *ctx);

/* The elements of an array from text[i] on, where an element begins (its '{'): each recorded in items,
 * until one would begin at stop or after. 1 when the array ended first (*at the index after its ']'),
 * 2 when the next element begins at *at >= stop, 0 when an element is not an object or the array is
 * not one (the scan's only verdict), -1 without memory. Scans of an array's parts on several threads
 * join where one's *at is the next one's i. */
int dsi_jsonscan_elements(const char *text, size_t size, size_t i, size_t stop, dsi_jsonscan_items *items, size_t *at);

/* from's items after to's; -1 without memory. */
int dsi_jsonscan_items_append(dsi_jsonscan_items *to, const dsi_jsonscan_items *from);

/* A part of an array's elements for a scan on several threads: from an element's start (the first
 * element's, or a guess) to the next part's from (stop; SIZE_MAX for the last). */
typedef struct dsi_jsonscan_part {
	size_t from, stop;
	int rc; /* dsi_jsonscan_elements' answer on the part */
	size_t at;
	dsi_jsonscan_items items;
} dsi_jsonscan_part;
/* Scan the part (dsi_jsonscan_elements from p->from to p->stop): parts are independent. */
void dsi_jsonscan_part_scan(const char *text, size_t size, dsi_jsonscan_part *p);
/* The array's elements from its scanned parts (parts[0] from the first element, each stop the next
 * part's from), exactly as one scan from parts[0].from finds them: a part is taken only when the one
 * before ended where it begins; from the first that is not, the scan goes on from where the part
 * before stopped. Returns as a dsi_jsonscan_items_fn; frees the parts' items. */
long long dsi_jsonscan_join(const char *text, size_t size, dsi_jsonscan_part *parts, unsigned np,
			    dsi_jsonscan_items *items);

/* A guess at where an element of the array whose first element begins at text[first] begins at or
 * after from, for indented text (kubectl's): a '{' indented as the first element's, starting a line
 * after one that ends with a comma. 0 when there is none (or the text is not indented). Only a guess:
 * a scan from the array's start says whether an element begins there. */
size_t dsi_jsonscan_guess_element(const char *text, size_t size, size_t first, size_t from);

/* The index after the value at text[i] when it is status.images in the form kubelets write
 * ([{"names": ["..."], "sizeBytes": N}, ...]: each member at most once, no other member, strings of
 * printable ASCII without escapes, N a non-negative integer of at most 18 digits without a leading
 * zero), else 0. Unlike the rest of this scanner it validates: a value it accepts is valid JSON that
 * jansson reads without error (no repeated key, no escape, nothing beyond int64) and that Go's
 * decoder puts into []ContainerImage without error (k8s.io/api/core/v1 types.go, ContainerImage). */
size_t dsi_jsonscan_plain_images(const char *text, size_t size, size_t i);

/* Where the object at text[0, size) has its member status.images, when the object is a Node (its
 * kind "Node", or no kind or "" and item_kind "Node") and that value is in the plain form above:
 * 1 with it at text[*from, *to), else 0. The object's root and status members must be spelt
 * without escapes, status and images (and kind) once each. The rest of the object is not
 * validated: whoever skips the value must still parse the text around it, and on any error parse
 * the whole text (on a prefix that jansson reads without error this scanner and jansson agree where
 * each value begins, so the value found is the one jansson would read as status.images). */
int dsi_jsonscan_node_images(const char *text, size_t size, const char *item_kind, size_t *from, size_t *to);

static inline int dsi_jsonscan_is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* JSON's own whitespace, as jansson skips it; runs of spaces (kubectl's indentation, a dozen or
 * more bytes before each member) 16 at a time where the compiler targets SSE2. */
static inline size_t dsi_jsonscan_space(const char *text, size_t size, size_t i)
{
	while (i < size && dsi_jsonscan_is_space(text[i])) {
		i++;
#ifdef __SSE2__
		for (unsigned m; i + 16 <= size; i += 16)
			if ((m = (unsigned)_mm_movemask_epi8(
				     _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(text + i)),
						    _mm_set1_epi8(' ')))) != 0xffffu) {
				i += (size_t)__builtin_ctz(~m);
				break;
			}
#endif
	}
	return i;
}

#endif
