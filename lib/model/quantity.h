/*
 * resource.Quantity (apimachinery pkg/api/resource) with exact arithmetic.
 *
 * A quantity is sign * mantissa * 10^exp with an unsigned mantissa below
 * 10^38 that carries no factor of ten (so every value has one
 * representation), exp >= -9 (parsing rounds up to nano precision as
 * upstream does) and exp <= DSI_QUANTITY_MAX_EXP. Within those limits every
 * operation is exact; outside them the library says so (DS_ELIMIT when
 * parsing, an overflow flag or -1 otherwise) where upstream would silently
 * produce garbage.
 *
 * String form: dsi_quantity_format always gives the true canonical form
 * (largest exponent with an integer mantissa). Upstream's String() returns
 * the parsed text verbatim when a cheap check finds it already canonical
 * ("1.G", "010", "1E3", "+5"); `verbatim` records when it would.
 */
#ifndef DSI_QUANTITY_H
#define DSI_QUANTITY_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/reader.h"

/* Format (upstream resource.Format): remembered from the suffix. */
typedef enum dsi_qformat {
	DSI_QFMT_DECIMAL_SI = 0,       /* "", n u m k M G T P E */
	DSI_QFMT_BINARY_SI = 1,        /* Ki Mi Gi Ti Pi Ei */
	DSI_QFMT_DECIMAL_EXPONENT = 2, /* e3, E-6, ... */
} dsi_qformat;

/* Significant decimal digits a quantity may carry. */
#define DSI_QUANTITY_MAX_DIGITS 38
/* Largest power of ten of the least significant digit. */
#define DSI_QUANTITY_MAX_EXP 2000000000
/* Room for any canonical string plus its NUL. */
#define DSI_QUANTITY_STRING_MAX 64

/* The zero value (all bits zero) is the quantity 0 in DecimalSI. */
typedef struct dsi_quantity {
	uint64_t mant_hi, mant_lo; /* |value| / 10^exp; no factor of 10; 0 for zero */
	int32_t exp;               /* >= -9; 0 for zero */
	int8_t sign;               /* -1, 0, +1 */
	uint8_t format;            /* dsi_qformat */
	uint8_t verbatim;          /* upstream's String() would return the parsed text unchanged */
} dsi_quantity;

/* ParseQuantity (apimachinery pkg/api/resource/quantity.go): s[0..n) exactly,
 * no whitespace allowed. DS_EVALUE with upstream's message, or DS_ELIMIT
 * beyond the limits above; the caller adds the path. */
int dsi_quantity_parse(const char *s, size_t n, dsi_quantity *q, ds_error *err);
/* 1 when s[0..n) is a plain quantity, which dsi_quantity_parse always accepts: 1 to 9 digits and
 * no suffix or one of m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei ("64Mi", "95690m"); 0 when it
 * is something else (which only dsi_quantity_parse can judge). For checks that need no value. */
int dsi_quantity_plain(const char *s, size_t n);

/* A quantity member as the API server decodes it (Quantity.UnmarshalJSON):
 * a string (surrounding Unicode white space trimmed), or a JSON number read as
 * the text Go's encoding/json gives its float64 value (what kubectl and
 * sigs.k8s.io/yaml send). Absent or null: *present = 0 and q is zero. */
int dsi_quantity_read(dsi_rd *rd, const json_t *obj, const char *key, dsi_quantity *q, int *present);
/* The same for a value already fetched (path is rd's). */
int dsi_quantity_from_json(dsi_rd *rd, const json_t *v, dsi_quantity *q);

/* Value() and MilliValue(): rounded up away from zero. When the result does
 * not fit in int64, *overflow is set (if given) and INT64_MAX or INT64_MIN is
 * returned; otherwise *overflow is cleared. */
int64_t dsi_quantity_value(const dsi_quantity *q, int *overflow);
int64_t dsi_quantity_milli(const dsi_quantity *q, int *overflow);
/* ScaledValue(10^scale), for scales -9 to 18. */
int64_t dsi_quantity_scaled(const dsi_quantity *q, int scale, int *overflow);

/* Cmp: -1, 0, 1. */
int dsi_quantity_cmp(const dsi_quantity *a, const dsi_quantity *b);
/* acc += b as Quantity.Add (acc takes b's format when acc is zero). Returns
 * 0, or -1 when the sum needs more than DSI_QUANTITY_MAX_DIGITS digits or a
 * larger exponent (acc unchanged). */
int dsi_quantity_add(dsi_quantity *acc, const dsi_quantity *b);
/* acc -= b (Quantity.Sub); -1 on overflow as dsi_quantity_add. */
int dsi_quantity_sub(dsi_quantity *acc, const dsi_quantity *b);
static inline int dsi_quantity_is_zero(const dsi_quantity *q) { return q->sign == 0; }

/* The canonical string (Quantity.String without the verbatim quirk) into buf;
 * returns its length. DSI_QUANTITY_STRING_MAX bytes always suffice; a smaller
 * buffer gets a truncated, NUL-terminated string (as snprintf). Values whose
 * canonical exponent has no suffix (DecimalSI beyond E, BinarySI beyond Ei or
 * of 10^38 and more) are written in exponent form or with the largest suffix,
 * never with the suffix dropped as upstream does. */
int dsi_quantity_format(const dsi_quantity *q, char *buf, size_t size);

/* Rewrite every member of a map of quantities (requests, limits, capacity)
 * as the API server would serve it: numbers and non-canonical strings become
 * their String() form ("cpu": 1 -> "1", 0.15 -> "150m", "1000m" -> "1"),
 * null becomes "0". Invalid members are DS_EVALUE with the member name as
 * path (the map itself is then partly rewritten). NULL or null is fine. */
int dsi_quantity_normalize_json(json_t *map_of_quantities, ds_error *err);
/* One quantity value as Quantity.MarshalJSON writes it after UnmarshalJSON read it (null: "0"):
 * a new reference, v itself when it is served as it is or does not parse; NULL: no memory. */
json_t *dsi_quantity_served_json(json_t *v);
/* The same as text: 0 with out (size >= DSI_QUANTITY_STRING_MAX) holding what to serve, 1 when v is
 * served as it is (a string already canonical, or not a quantity). */
int dsi_quantity_served_text(const json_t *v, char *out, size_t size);

#endif
