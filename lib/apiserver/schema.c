/* Reading the generated schema tables (schema_data.c). */
#include "apiserver/schema.h"

#include <string.h>

int dsi_schema_root_type(const char *api_version, const char *kind)
{
	if (!api_version || !kind)
		return -1;
	for (size_t i = 0; i < dsi_schema_nroots; i++) {
		const dsi_schema_root *r = &dsi_schema_roots[i];
		if (strcmp(dsi_schema_names + r->api_version, api_version) == 0 &&
		    strcmp(dsi_schema_names + r->kind, kind) == 0)
			return r->type;
	}
	return -1;
}

int dsi_schema_named(const char *name)
{
	for (size_t i = 0; i < dsi_schema_ntypes; i++)
		if (dsi_schema_types[i].kind == DSI_SK_OBJECT &&
		    strcmp(dsi_schema_names + dsi_schema_types[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* name[0, len) against a NUL-terminated field name, in byte order. */
static int name_cmp(const char *name, size_t len, const char *field)
{
	size_t flen = strlen(field);
	int c = memcmp(name, field, len < flen ? len : flen);
	if (c)
		return c;
	return len < flen ? -1 : len > flen;
}

long dsi_schema_field_index(int type, const char *name, size_t len)
{
	if (type < 0 || dsi_schema_types[type].kind != DSI_SK_OBJECT)
		return -1;
	size_t lo = 0, hi = dsi_schema_types[type].n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = name_cmp(name, len, dsi_schema_field_name(type, mid));
		if (c == 0)
			return (long)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

int dsi_schema_field_type(int type, const char *name, size_t len)
{
	long i = dsi_schema_field_index(type, name, len);
	return i < 0 ? -1 : dsi_schema_field_type_at(type, (size_t)i);
}

int dsi_schema_at(int type, const char *path)
{
	const char *s = path;
	while (type >= 0 && *s) {
		if (*s == '.') {
			s++;
			continue;
		}
		if (s[0] == '[' && s[1] == ']') {
			dsi_schema_kind k = dsi_schema_kind_of(type);
			type = k == DSI_SK_ARRAY || k == DSI_SK_MAP ? dsi_schema_elem(type) : -1;
			s += 2;
			continue;
		}
		size_t n = strcspn(s, ".[");
		type = dsi_schema_field_type(type, s, n);
		s += n;
	}
	return type;
}
