#include "model/templatehash.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/jsonout.h"
#include "model/gohash.h"

void dsi_safe_encode(const char *in, char *out, size_t size)
{
	static const char alphanums[] = "bcdfghjklmnpqrstvwxz2456789";
	size_t i = 0;
	for (; in[i] && i + 1 < size; i++)
		out[i] = alphanums[(unsigned char)in[i] % (sizeof(alphanums) - 1)];
	out[i] = '\0';
}

int dsi_json_digest(const json_t *v, uint32_t *out)
{
	char *text = dsi_json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (!text)
		return -1;
	*out = dsi_fnv32a(DSI_FNV32A_INIT, text, strlen(text));
	dsi_free(text);
	return 0;
}

/* ComputeHash (pkg/controller/controller_utils.go): FNV-32a of DeepHashObject's go-spew print of the
 * template (model/gohash.c), the collision count, then SafeEncodeString of the sum's decimal */
int dsi_template_hash(const json_t *tmpl, int k8s_minor, int has_collision_count, int32_t collision_count,
		      char out[DSI_HASH_MAX], unsigned *inexact)
{
	uint32_t h;
	if (dsi_gohash_sum(tmpl, k8s_minor, has_collision_count, collision_count, &h, inexact) < 0)
		return -1;
	char dec[16];
	snprintf(dec, sizeof(dec), "%u", h);
	dsi_safe_encode(dec, out, DSI_HASH_MAX);
	return 0;
}
