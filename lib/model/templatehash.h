/* The template hash (controller.ComputeHash's role) and digests of JSON values. */
#ifndef DSI_TEMPLATEHASH_H
#define DSI_TEMPLATEHASH_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define DSI_HASH_MAX 16

/*
 * Our ComputeHash: upstream hashes a Go debug print of the template, which C
 * cannot reproduce. We hash the template's canonical JSON (keys sorted,
 * compact) with FNV-32a, then, when collisionCount is set, its value as 8
 * little-endian bytes (4 of them zero), as upstream does; the decimal of the
 * 32-bit sum is mapped through upstream's safe alphabet (rand.SafeEncodeString).
 * Deterministic in (template, collisionCount). Returns 0 or -1 (no memory).
 */
int dsi_template_hash(const json_t *tmpl, int has_collision_count, int32_t collision_count, char out[DSI_HASH_MAX]);

/* FNV-32a of v's canonical JSON: equal values have equal digests, so a
 * differing digest proves inequality without json_equal. -1 on no memory. */
int dsi_json_digest(const json_t *v, uint32_t *out);

/* rand.SafeEncodeString (apimachinery pkg/util/rand) */
void dsi_safe_encode(const char *in, char *out, size_t size);

#endif
