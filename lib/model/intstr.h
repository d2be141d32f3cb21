/*
 * IntOrString (apimachinery pkg/util/intstr): maxUnavailable, maxSurge,
 * partition. A JSON number is the Int form (int32), a JSON string the String
 * form; "3" and 3 are different values, as upstream: only the Int form is a
 * plain number, the String form must be a percentage.
 */
#ifndef DSI_INTSTR_H
#define DSI_INTSTR_H

#include <jansson.h>
#include <stdint.h>

#include "core/error.h"
#include "core/reader.h"

/* String forms longer than this are kept truncated (for messages only). */
#define DSI_INTSTR_TEXT_MAX 96

typedef struct dsi_intstr {
	uint8_t is_string;              /* Type == String */
	uint8_t percent;                /* String: ends with '%' */
	uint8_t atoi;                   /* String: strconv.Atoi of the text without its '%': 0 ok, 1 syntax, 2 range */
	uint8_t truncated;              /* text is a prefix of the real string */
	int32_t ival;                   /* Int: IntVal */
	int64_t pval;                   /* String: the Atoi result when atoi == 0 */
	char text[DSI_INTSTR_TEXT_MAX]; /* String: StrVal, NUL-terminated */
} dsi_intstr;

/* Read member key of obj. Absent or null: *present = 0. A number must be an
 * integer in int32 range (DS_ETYPE / DS_EVALUE otherwise, as Go's decoder
 * refuses it); other JSON types are DS_ETYPE. */
int dsi_intstr_read(dsi_rd *rd, const json_t *obj, const char *key, dsi_intstr *out, int *present);
/* The same for a value already fetched (path is rd's); null: *present = 0. */
int dsi_intstr_from_json(dsi_rd *rd, const json_t *v, dsi_intstr *out, int *present);

/* intstr.Parse: "3" is the Int form when it parses as an int32, anything
 * else ("25%", "x") the String form. For option strings. */
int dsi_intstr_parse_text(const char *text, dsi_intstr *out, ds_error *err);

/* GetScaledValueFromIntOrPercent (apimachinery pkg/util/intstr/intstr.go):
 * the Int form as is; a percentage p as ceil (round_up) or floor of
 * p*total/100 computed in float64 exactly as upstream. Errors (DS_EVALUE,
 * path ""): upstream's texts, "invalid value for IntOrString: invalid type:
 * string is not a percentage" and "invalid value for IntOrString: invalid
 * value \"x%\": strconv.Atoi: parsing \"x\": invalid syntax"; DS_ELIMIT
 * when the result does not fit an int (upstream would wrap). */
int dsi_intstr_scaled(const dsi_intstr *v, int total, int round_up, int *out, ds_error *err);

/* The value as JSON (an integer or a string; new reference, NULL on OOM). */
json_t *dsi_intstr_to_json(const dsi_intstr *v);

#endif
