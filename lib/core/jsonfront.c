#include "core/jsonfront.h"

/* jsonfront_simd.cpp, in SIMDJSON=1 builds */
#ifdef DSI_SIMDJSON
dsi_json_front *dsi_json_front_simd_new(void);
void dsi_json_front_simd_free(dsi_json_front *f);
json_t *dsi_json_front_simd_item(dsi_json_front *f, const char *text, size_t n);
#endif

dsi_json_front *dsi_json_front_new(void)
{
#ifdef DSI_SIMDJSON
	return dsi_json_front_simd_new();
#else
	return NULL;
#endif
}

void dsi_json_front_free(dsi_json_front *f)
{
#ifdef DSI_SIMDJSON
	dsi_json_front_simd_free(f);
#else
	(void)f;
#endif
}

json_t *dsi_json_front_item(dsi_json_front *f, const char *text, size_t n, json_error_t *je)
{
#ifdef DSI_SIMDJSON
	json_t *v = f && n <= (size_t)0x7fffffff ? dsi_json_front_simd_item(f, text, n) : NULL;
	if (v) {
		je->position = (int)n;
		return v;
	}
#else
	(void)f;
#endif
	/* jansson's reading, or the one it vouches for: whatever simdjson could not */
	return json_loadb(text, n, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK, je);
}

int dsi_json_front_simd(void)
{
#ifdef DSI_SIMDJSON
	return 1;
#else
	return 0;
#endif
}
