/*
 * Two jansson trees are the same tree, as the JSON readers under test must give them (jansson's and the
 * library's own, simdjson's): json_equal, reals with the same sign bit (json_equal says -0.0 == 0.0),
 * strings with the same bytes, and objects' keys in the same order, which the readers and the encoders
 * keep. Header-only, for the unit suites and the fuzz targets alike.
 */
#ifndef DSI_TEST_JSONSAME_H
#define DSI_TEST_JSONSAME_H

#include <jansson.h>
#include <math.h>
#include <string.h>

static inline int dsi_test_json_same(const json_t *a, const json_t *b)
{
	if (json_typeof(a) != json_typeof(b) || !json_equal(a, b))
		return 0;
	size_t i;
	json_t *v;
	switch (json_typeof(a)) {
	case JSON_REAL: return signbit(json_real_value(a)) == signbit(json_real_value(b));
	case JSON_STRING:
		return json_string_length(a) == json_string_length(b) &&
		       memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
	case JSON_ARRAY:
		json_array_foreach(a, i, v) if (!dsi_test_json_same(v, json_array_get(b, i))) return 0;
		return 1;
	case JSON_OBJECT: {
		void *ia = json_object_iter((json_t *)a), *ib = json_object_iter((json_t *)b);
		for (; ia && ib;
		     ia = json_object_iter_next((json_t *)a, ia), ib = json_object_iter_next((json_t *)b, ib))
			if (strcmp(json_object_iter_key(ia), json_object_iter_key(ib)) != 0 ||
			    !dsi_test_json_same(json_object_iter_value(ia), json_object_iter_value(ib)))
				return 0;
		return !ia && !ib;
	}
	default: return 1;
	}
}

#endif
