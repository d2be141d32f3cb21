/* Strings as Go prints them, for messages that must read as upstream's. */
#ifndef DSI_GOSTR_H
#define DSI_GOSTR_H

#include <stddef.h>

#include "core/strbuf.h"

/* Go's strconv.Quote (what %q prints): escapes, \x for invalid UTF-8, \u for
 * non-printable runes (C0, C1, white space other than ' ', format
 * characters, private use, noncharacters; unassigned code points are kept). */
void dsi_go_quote(dsi_strbuf *b, const char *s, size_t n);
/* encoding/json's rendering of a string, HTML-safe as json.Marshal writes it. */
void dsi_go_json_string(dsi_strbuf *b, const char *s, size_t n);

#endif
