/*
 * The simdjson front end of `make SIMDJSON=1` (core/jsonfront.h): a List item read with simdjson's
 * On-Demand API straight into the jansson tree jansson would have built. simdjson finds the
 * structure and validates UTF-8 many times faster than jansson's byte-at-a-time lexer; the tree is
 * still built, since everything above core reads jansson values. Whenever its reading might differ
 * from jansson's, it gives up (NULL) and jansson parses the item: that keeps both the trees and the
 * errors (messages, lines, columns) exactly those of the default build.
 */
#include <simdjson.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>
#include <string_view>

extern "C" {
#include "core/jsonfront.h"
#include "core/jsonscan.h"
#include "core/numfmt.h"
}

using namespace simdjson;

struct dsi_json_front {
	ondemand::parser parser;
	padded_string text; /* the item with simdjson's padding after it, grown as items need */
	size_t cap = 0;
	/* the text the items lie in (dsi_json_front_set_buffer): an item followed there by
	 * SIMDJSON_PADDING bytes is read where it is, not copied */
	const char *buf = nullptr;
	size_t buf_size = 0;
};

namespace
{

/* Fewer levels than jansson's 2048: a deeper item is jansson's. */
constexpr size_t max_depth = 1024;

/* The characters of a string from p (just after its opening quote) to its closing quote are ones
 * jansson reads as simdjson does: no control character (jansson refuses them) and no surrogate
 * escape (a lone one is jansson's error, a pair its decoding). Out of line: only strings with an
 * escape come here, and plain_string's test for the others is inlined at every string. */
__attribute__((noinline)) bool plain_chars(const char *p)
{
	for (;; p++) {
		unsigned char c = static_cast<unsigned char>(*p);
		if (c == '"')
			return true;
		if (c < 0x20)
			return false;
		if (c == '\\') {
			p++;
			if (*p == 'u' && (p[1] == 'd' || p[1] == 'D') && std::strchr("89abAB", p[2]) && p[2])
				return false;
		}
	}
}

/* The string whose characters start at p (just after its opening quote), which simdjson read as s,
 * is one jansson reads as simdjson does. Without an escape it is: simdjson's stage 1 refuses a
 * control character in a string as jansson does (UNESCAPED_CHARS: json_structural_indexer.h and the
 * fallback's validate_string in simdjson 3.0.1), and so a raw NUL. It has none when its characters
 * are s itself, since an escape is longer than what it stands for: then p[s.size()] is its closing
 * quote, which no backslash escapes, and if it had an escape that byte would be inside it, a quote
 * only when escaped. Else plain_chars, and no NUL ("\u0000": jansson refuses it). */
inline bool plain_string(const char *p, std::string_view s)
{
	size_t n = s.size();
	if (p[n] == '"' && (n == 0 || p[n - 1] != '\\'))
		return true;
	return plain_chars(p) && !std::memchr(s.data(), 0, n);
}

/* What may be left out of an item (DSI_FRONT_NODE_IMAGES): the members "images" of the root's
 * "status" whose value dsi_jsonscan_plain_images accepts (core/jsonscan.h), an empty array in their
 * place, On-Demand skipping the value unread. Whether the item is a Node is known from its tree
 * (the kind may come after the status), so a cut made in another kind's item is undone. */
struct cut {
	const char *base; /* the item's text, as simdjson reads it */
	size_t n;
	bool made;
};

/* where a value is: the root, the root's status (whose images may be cut), anywhere else */
enum class at { root, status, other };

json_t *convert(ondemand::value &v, size_t depth, at where, cut *c);

json_t *fail(json_t *partial)
{
	json_decref(partial);
	return nullptr;
}

json_t *convert_object(ondemand::object obj, size_t depth, at where, cut *c)
{
	json_t *o = json_object();
	if (!o)
		return nullptr;
	size_t members = 0;
	/* each field and value used where simdjson's result holds it, not copied out: GCC 12 copied
	 * the value with stores and a load of different widths, a store-forwarding stall per member
	 * that perf put at a third of this function's samples */
	for (auto result : obj) {
		if (result.error())
			return fail(o);
		ondemand::field &&field = std::move(result).value_unsafe();
		ondemand::raw_json_string raw = field.key();
		std::string_view key;
		if (field.unescaped_key().get(key) || !plain_string(raw.raw(), key))
			return fail(o);
		ondemand::value &v = field.value();
		json_t *m;
		if (where == at::status && key == "images" &&
		    dsi_jsonscan_plain_images(c->base, c->n,
					      static_cast<size_t>(v.raw_json_token().data() - c->base))) {
			m = json_array();
			c->made = true;
		} else {
			m = convert(v, depth + 1, where == at::root && key == "status" ? at::status : at::other, c);
		}
		if (!m || json_object_setn_new_nocheck(o, key.data(), key.size(), m) < 0)
			return fail(o);
		members++;
	}
	/* a key twice (the second set replaced the first's value): jansson refuses it */
	return json_object_size(o) == members ? o : fail(o);
}

json_t *convert_array(ondemand::array arr, size_t depth, cut *c)
{
	json_t *a = json_array();
	if (!a)
		return nullptr;
	for (auto element : arr) {
		if (element.error())
			return fail(a);
		ondemand::value &&v = std::move(element).value_unsafe();
		json_t *m = convert(v, depth + 1, at::other, c);
		if (!m || json_array_append_new(a, m) < 0)
			return fail(a);
	}
	return a;
}

/* A number as jansson reads it: an integer unless it has a fraction or an exponent, and then a
 * real. simdjson checks the grammar (what jansson refuses, such as "01" or "1.", it refuses too);
 * the value is the C library's, as jansson's is: strtoll's integer, strtod's real in the "C"
 * locale (simdjson 3.0.1 got 0.40872000752518720007525113333 wrong: fuzz_jsonfront). jansson
 * refuses integers beyond int64 and reals whose strtod reports a range error (infinite or
 * subnormal), so those are jansson's too. */
json_t *convert_number(ondemand::value &v)
{
	std::string_view raw = v.raw_json_token();
	size_t len = 0;
	bool real = false;
	for (; len < raw.size(); len++) {
		char c = raw[len];
		if (c == '.' || c == 'e' || c == 'E')
			real = true;
		else if (!(c == '-' || c == '+' || (c >= '0' && c <= '9')))
			break;
	}
	if (real) {
		double checked, d;
		if (v.get_double().get(checked) || dsi_parse_double(raw.data(), len, &d) < 0 || !std::isfinite(d) ||
		    std::fpclassify(d) == FP_SUBNORMAL)
			return nullptr;
		return json_real(d);
	}
	int64_t i, j;
	if (v.get_int64().get(i) || !dsi_parse_go_int64(raw.data(), len, &j) || i != j)
		return nullptr;
	return json_integer(static_cast<json_int_t>(i));
}

json_t *convert(ondemand::value &v, size_t depth, at where, cut *c)
{
	if (depth > max_depth)
		return nullptr;
	ondemand::json_type t;
	if (v.type().get(t))
		return nullptr;
	switch (t) {
	case ondemand::json_type::object: {
		ondemand::object obj;
		return v.get_object().get(obj) ? nullptr : convert_object(obj, depth, where, c);
	}
	case ondemand::json_type::array: {
		ondemand::array arr;
		return v.get_array().get(arr) ? nullptr : convert_array(arr, depth, c);
	}
	case ondemand::json_type::string: {
		std::string_view s;
		if (v.get_string().get(s) || !plain_string(v.raw_json_token().data() + 1, s))
			return nullptr;
		return json_stringn_nocheck(s.data(), s.size());
	}
	case ondemand::json_type::number: return convert_number(v);
	case ondemand::json_type::boolean: {
		bool b;
		return v.get_bool().get(b) ? nullptr : json_boolean(b);
	}
	case ondemand::json_type::null: {
		bool null;
		return v.is_null().get(null) || !null ? nullptr : json_null();
	}
	}
	return nullptr;
}

} // namespace

extern "C" {

dsi_json_front *dsi_json_front_simd_new(void);
void dsi_json_front_simd_free(dsi_json_front *f);
void dsi_json_front_simd_set_buffer(dsi_json_front *f, const char *data, size_t size);
json_t *dsi_json_front_simd_item(dsi_json_front *f, const char *text, size_t n, unsigned skip, const char *item_kind);

dsi_json_front *dsi_json_front_simd_new(void) { return new (std::nothrow) dsi_json_front; }

void dsi_json_front_simd_free(dsi_json_front *f) { delete f; }

void dsi_json_front_simd_set_buffer(dsi_json_front *f, const char *data, size_t size)
{
	f->buf = data;
	f->buf_size = data ? size : 0;
}

/* The item's tree, or NULL for jansson to parse it (any doubt, any error, no memory); skip and
 * item_kind as dsi_json_front_item's. */
json_t *dsi_json_front_simd_item(dsi_json_front *f, const char *text, size_t n, unsigned skip, const char *item_kind)
{
	/* no value at all: jansson's error (and no buffer to copy into yet) */
	if (n == 0)
		return nullptr;
	try {
		/* On-Demand reads SIMDJSON_PADDING bytes past the text, whatever they hold, and writes
		 * nothing into it: in the caller's text, when it goes on that far, else in a copy */
		const char *base = text;
		size_t allocated = 0;
		uintptr_t at = reinterpret_cast<uintptr_t>(text), from = reinterpret_cast<uintptr_t>(f->buf);
		if (f->buf && at >= from && at - from <= f->buf_size &&
		    f->buf_size - (at - from) >= n + SIMDJSON_PADDING) {
			allocated = f->buf_size - (at - from);
		} else {
			if (n > f->cap) {
				size_t cap = n < 65536 ? 65536 : n + n / 2;
				f->text = padded_string(cap);
				f->cap = cap;
			}
			std::memcpy(f->text.data(), text, n);
			base = f->text.data();
			allocated = f->cap + SIMDJSON_PADDING;
		}
		for (bool may_cut = skip & DSI_FRONT_NODE_IMAGES;; may_cut = false) {
			ondemand::document doc;
			/* and the text must end with the object's '}', where jansson's position will be (a
			 * List item does: the scanner ends it there), not with space after it: tested once
			 * stage 1 has read the text, not before it, when that byte is not in the cache yet */
			if (f->parser.iterate(base, n, allocated).get(doc) || base[n - 1] != '}')
				return nullptr;
			ondemand::object obj;
			if (doc.get_object().get(obj))
				return nullptr;
			cut c = {base, n, false};
			json_t *v = convert_object(obj, 1, may_cut ? at::root : at::other, &c);
			const char *after;
			if (v && !doc.current_location().get(after)) /* something after the value: jansson says what */
				return fail(v);
			if (!v || !c.made)
				return v;
			/* a Node as the loader reads it (core/load.c, item_loaded): its kind, or its List's */
			json_t *kind = json_object_get(v, "kind");
			const char *k = json_string_value(kind);
			if ((k && std::strcmp(k, "Node") == 0) ||
			    ((!kind || (k && !*k)) && item_kind && std::strcmp(item_kind, "Node") == 0))
				return v;
			json_decref(v); /* another kind's status.images: read again, whole */
		}
	} catch (...) { /* padded_string's allocation: std::bad_alloc */
		return nullptr;
	}
}
}
