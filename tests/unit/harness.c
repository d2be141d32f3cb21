#include "harness.h"

#include <stdio.h>
#include <stdlib.h>

char *dsi_test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s (run the tests from the source tree)", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	size_t got = fread(buf, 1, (size_t)n, f);
	fclose(f);
	ck_assert_uint_eq(got, (size_t)n);
	buf[n] = '\0';
	if (len)
		*len = (size_t)n;
	return buf;
}
