#include "core/jsonframe.h"

static int space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

int dsi_jframe_scan(dsi_jframe *f, const char *p, size_t n, size_t *used)
{
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if (!f->in_value) {
			if (space(c)) {
				f->offset++;
				continue;
			}
			if (c != '{') {
				*used = i;
				return DSI_JFRAME_BAD;
			}
			f->in_value = 1;
			f->start = f->offset;
			f->depth = 0;
		}
		f->offset++;
		if (f->in_string) {
			if (f->escape)
				f->escape = 0;
			else if (c == '\\')
				f->escape = 1;
			else if (c == '"')
				f->in_string = 0;
			continue;
		}
		if (c == '"')
			f->in_string = 1;
		else if (c == '{' || c == '[')
			f->depth++;
		else if ((c == '}' || c == ']') && --f->depth == 0) {
			f->in_value = 0;
			*used = i + 1;
			return DSI_JFRAME_DONE;
		}
	}
	*used = n;
	return DSI_JFRAME_MORE;
}
