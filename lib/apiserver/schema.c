/* Reading the generated schema tables (schema_data.c). */
#include "apiserver/schema.h"

#include <string.h>

/* Two NUL-terminated strings are equal (inline: most differ at their first byte, and a call to
 * strcmp would cost more than the comparison; every text function looks its types up). */
static int same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

int dsi_schema_root_type(const char *api_version, const char *kind)
{
	if (!api_version || !kind)
		return -1;
	for (size_t i = 0; i < dsi_schema_nroots; i++) {
		const dsi_schema_root *r = &dsi_schema_roots[i];
		if (same(dsi_schema_names + r->kind, kind) && same(dsi_schema_names + r->api_version, api_version))
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

/* name[0, len) against a NUL-terminated field name, in byte order (one pass: a decoding check
 * compares every field of a document so). */
static int name_cmp(const char *name, size_t len, const char *field)
{
	const unsigned char *a = (const unsigned char *)name, *b = (const unsigned char *)field;
	for (size_t i = 0; i < len; i++) {
		if (!b[i])
			return 1; /* field is a prefix of name */
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	}
	return b[len] ? -1 : 0;
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
