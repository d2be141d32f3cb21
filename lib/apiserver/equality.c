/* Semantic equality (apimachinery pkg/api/equality Semantic.DeepEqual), on JSON. */
#include "apiserver/validation.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/defaults.h"
#include "core/alloc.h"
#include "core/sort.h"
#include "model/intstr.h"
#include "model/labels.h"
#include "model/labelvalid.h"
#include "model/quantity.h"
#include "model/selector.h"

/* ---- semantic equality (apimachinery pkg/api/equality Semantic.DeepEqual, on JSON) ------------- */

/* Go's zero values that the JSON may spell differently: absent, null, "", [], {}. */
static int zeroish(const json_t *v)
{
	return !v || json_is_null(v) || (json_is_string(v) && !json_string_length(v)) ||
	       (json_is_array(v) && !json_array_size(v)) || (json_is_object(v) && !json_object_size(v));
}

static int quantity_equal(const json_t *a, const json_t *b)
{
	dsi_quantity qa, qb;
	dsi_rd rd;
	ds_error tmp;
	dsi_rd_init(&rd, &tmp);
	if (dsi_quantity_from_json(&rd, a, &qa) < 0 || dsi_quantity_from_json(&rd, b, &qb) < 0)
		return json_equal(a, b);
	return dsi_quantity_cmp(&qa, &qb) == 0;
}

static int sem_equal_members(const json_t *a, const json_t *b, int values_are_quantities)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)a, k, v)
	{
		/* values_are_quantities: this object maps names to quantities */
		int mode = values_are_quantities                                                        ? 1
			   : (!strcmp(k, "limits") || !strcmp(k, "requests") || !strcmp(k, "overhead")) ? 2
			   : !strcmp(k, "sizeLimit")                                                    ? 1
													: 0;
		if (!dsi_semantic_equal(v, json_object_get(b, k), mode))
			return 0;
	}
	json_object_foreach((json_t *)b, k, v)
	{
		if (!json_object_get(a, k) && !zeroish(v))
			return 0;
	}
	return 1;
}

/* quantities: 0 none, 1 this value is a quantity, 2 this object maps names to quantities */
int dsi_semantic_equal(const json_t *a, const json_t *b, int quantities)
{
	if (zeroish(a) || zeroish(b))
		return zeroish(a) && zeroish(b);
	if (quantities == 1)
		return quantity_equal(a, b);
	if (json_typeof(a) != json_typeof(b)) {
		if (json_is_number(a) && json_is_number(b))
			return json_number_value(a) == json_number_value(b);
		return 0;
	}
	if (json_is_object(a))
		return sem_equal_members(a, b, quantities == 2 ? 1 : 0);
	if (json_is_array(a)) {
		if (json_array_size(a) != json_array_size(b))
			return 0;
		for (size_t i = 0; i < json_array_size(a); i++)
			if (!dsi_semantic_equal(json_array_get(a, i), json_array_get(b, i), 0))
				return 0;
		return 1;
	}
	return json_equal(a, b);
}
