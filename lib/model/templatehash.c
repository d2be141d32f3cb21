#include "model/templatehash.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/jsonout.h"

void dsi_safe_encode(const char *in, char *out, size_t size)
{
	static const char alphanums[] = "bcdfghjklmnpqrstvwxz2456789";
	size_t i = 0;
	for (; in[i] && i + 1 < size; i++)
		out[i] = alphanums[(unsigned char)in[i] % (sizeof(alphanums) - 1)];
	out[i] = '\0';
}

static uint32_t fnv32a(uint32_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

int dsi_json_digest(const json_t *v, uint32_t *out)
{
	char *text = dsi_json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (!text)
		return -1;
	*out = fnv32a(2166136261u, text, strlen(text));
	dsi_free(text);
	return 0;
}

/* ComputeHash (pkg/controller/controller_utils.go), over canonical JSON instead of a Go print */
int dsi_template_hash(const json_t *tmpl, int has_collision_count, int32_t collision_count, char out[DSI_HASH_MAX])
{
	json_t *null_tmpl = NULL;
	if (!tmpl)
		tmpl = null_tmpl = json_object();
	uint32_t h;
	int rc = dsi_json_digest(tmpl, &h);
	json_decref(null_tmpl);
	if (rc < 0)
		return -1;
	if (has_collision_count) {
		unsigned char b[8] = {0};
		uint32_t v = (uint32_t)collision_count;
		for (int i = 0; i < 4; i++)
			b[i] = (unsigned char)(v >> (8 * i));
		h = fnv32a(h, b, sizeof(b));
	}
	char dec[16];
	snprintf(dec, sizeof(dec), "%u", h);
	dsi_safe_encode(dec, out, DSI_HASH_MAX);
	return 0;
}
