/* Locale-independent number text, formatted as Go formats it. */
#ifndef DSI_NUMFMT_H
#define DSI_NUMFMT_H

#include <stddef.h>

/* Parse a decimal floating-point literal (digits, '.', exponent) regardless
 * of the process locale. Returns 0, or -1 when text is not fully consumed. */
int dsi_parse_double(const char *text, size_t len, double *out);

/* encoding/json's rendering of a float64 ("0.15", "1e+21", "1e-7"). buf >= 32. */
void dsi_format_go_json_float(double v, char *buf, size_t size);

/* strconv.FormatFloat(v, 'g', -1, 32), as sigs.k8s.io/yaml renders float map keys. buf >= 32. */
void dsi_format_go_float32_g(double v, char *buf, size_t size);

#endif
