/* Locale-independent number text, formatted as Go formats it. */
#ifndef DSI_NUMFMT_H
#define DSI_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

/* Parse a decimal floating-point literal (digits, '.', exponent) regardless
 * of the process locale. Returns 0, or -1 when text is not fully consumed. */
int dsi_parse_double(const char *text, size_t len, double *out);

/* encoding/json's rendering of a float64 ("0.15", "1e+21", "1e-7"). buf >= 32. */
void dsi_format_go_json_float(double v, char *buf, size_t size);

/* strconv.FormatFloat(v, 'g', -1, 32), as sigs.k8s.io/yaml renders float map keys. buf >= 32. */
void dsi_format_go_float32_g(double v, char *buf, size_t size);

/* The decimal of a magnitude with a '-' before it when negative, as %lld and %llu print it, written
 * backwards so that it ends just before end: returns where it begins (20 digits and the sign fit in
 * the DSI_DECIMAL_MAX bytes before end). */
#define DSI_DECIMAL_MAX 21
char *dsi_format_decimal(char *end, unsigned long long magnitude, int negative);
/* The same for a signed value (the most negative one too). */
static inline char *dsi_format_int64(char *end, long long v)
{
	return dsi_format_decimal(end, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, v < 0);
}

/* strconv.ParseInt(s, 10, 64), which strconv.Atoi is on 64-bit Go: 0 ok;
 * 1 ErrSyntax (*out 0); 2 ErrRange (*out clamped to INT64_MIN or INT64_MAX).
 * As Go, a uint64 overflow is reported at once, before later characters. */
int dsi_go_parse_int64(const char *s, size_t n, int64_t *out);

/* The same as a yes/no: 1 and *out set when s is an int64, else 0 (*out untouched). */
static inline int dsi_parse_go_int64(const char *s, size_t n, int64_t *out)
{
	int64_t v;
	if (dsi_go_parse_int64(s, n, &v) != 0)
		return 0;
	*out = v;
	return 1;
}

#endif
