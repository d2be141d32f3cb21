/* The template hash (controller.ComputeHash's role) and digests of JSON values. */
#ifndef DSI_TEMPLATEHASH_H
#define DSI_TEMPLATEHASH_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define DSI_HASH_MAX 16

/*
 * ComputeHash as the controller of Kubernetes 1.<k8s_minor> computes it: FNV-32a over go-spew's print
 * of the template's Go value (model/gohash.h: the release's Go types, the template as the API
 * server decodes and stores it), then, when collisionCount is set, its value as 8 little-endian
 * bytes (4 of them zero); the decimal of the 32-bit sum is mapped through upstream's safe alphabet
 * (rand.SafeEncodeString). tmpl should be what the API server serves (defaults applied: apiserver's
 * canonical form); NULL is the zero template. *inexact (may be NULL): DSI_GOHASH_* bits of what
 * could not be reproduced. Returns 0 or -1 (no memory).
 */
int dsi_template_hash(const json_t *tmpl, int k8s_minor, int has_collision_count, int32_t collision_count,
		      char out[DSI_HASH_MAX], unsigned *inexact);

/* FNV-32a of v's canonical JSON: equal values have equal digests, so a
 * differing digest proves inequality without json_equal. -1 on no memory. */
int dsi_json_digest(const json_t *v, uint32_t *out);

/* rand.SafeEncodeString (apimachinery pkg/util/rand) */
void dsi_safe_encode(const char *in, char *out, size_t size);

#endif
