/*
 * libFuzzer target: resource.Quantity parsing and exact arithmetic.
 *
 * Input: "A" or "A|B". Invariants for each side that parses:
 * - ds_quantity_parse and dsi_quantity_parse agree;
 * - parse -> format -> parse is stable: the reparsed quantity compares
 *   equal and keeps its sign; the text is a fixed point from the second
 *   round on, and from the first when the format does not change (BinarySI
 *   2000 is written "2000", which reads as DecimalSI and is written "2k");
 *   Value() and MilliValue() are unchanged;
 * - formatting into a short buffer truncates like snprintf;
 * - ScaledValue() at every scale is defined (no UB under UBSan).
 * For A and B: Cmp is antisymmetric and agrees with ds_quantity_compare;
 * A+B == B+A; (A+B)-B == A and A-B+B == A when no step overflows.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_common.h"
#include "model/quantity.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void fmt(const dsi_quantity *q, char *buf)
{
	int n = dsi_quantity_format(q, buf, DSI_QUANTITY_STRING_MAX);
	FUZZ_ASSERT(n > 0 && n < DSI_QUANTITY_STRING_MAX && (size_t)n == strlen(buf), "format length %d for '%s'", n,
		    buf);
}

/* Parse s[0..n); on success check the round trip and return 1. */
static int one(const char *s, size_t n, dsi_quantity *q)
{
	ds_error err;
	ds_error_clear(&err);
	int rc = dsi_quantity_parse(s, n, q, &err);
	if (rc < 0) {
		FUZZ_ASSERT(rc == DS_EVALUE || rc == DS_ELIMIT, "dsi_quantity_parse returned %d (%s)", rc, err.message);
		FUZZ_ASSERT(err.code == rc && err.message[0], "dsi_quantity_parse %d without its report", rc);
	}
	/* the public function sees the text up to the first NUL */
	char *c = fuzz_cstr((const uint8_t *)s, n);
	char *canon = NULL;
	ds_quantity_info info;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	int prc = ds_quantity_parse(c, &canon, &info, &err);
	fuzz_check_rc("ds_quantity_parse", prc, &err);
	if (strlen(c) == n)
		FUZZ_ASSERT(prc == rc, "ds_quantity_parse %d, dsi_quantity_parse %d for '%s'", prc, rc, c);
	free(c);
	if (rc < 0) {
		ds_free(canon);
		return 0;
	}

	char a[DSI_QUANTITY_STRING_MAX], b[DSI_QUANTITY_STRING_MAX];
	fmt(q, a);
	FUZZ_ASSERT(canon && strcmp(canon, a) == 0, "ds_quantity_parse gives '%s', dsi_quantity_format '%s'",
		    canon ? canon : "(null)", a);
	ds_free(canon);
	FUZZ_ASSERT(info.sign == q->sign && info.format == q->format, "info disagrees with the quantity of '%s'", a);

	dsi_quantity r;
	int rrc = dsi_quantity_parse(a, strlen(a), &r, &err);
	FUZZ_ASSERT(rrc == 0, "canonical form '%s' does not parse: %s", a, err.message);
	FUZZ_ASSERT(dsi_quantity_cmp(q, &r) == 0, "'%s' reparsed is another value", a);
	FUZZ_ASSERT(q->sign == r.sign, "'%s' reparsed changed sign", a);
	fmt(&r, b);
	/* a may differ from b: BinarySI 2000 is written "2000", which reads as DecimalSI and is
	 * written "2k" (as upstream). From the second round on the text must be a fixed point. */
	dsi_quantity r2;
	rrc = dsi_quantity_parse(b, strlen(b), &r2, &err);
	FUZZ_ASSERT(rrc == 0, "canonical form '%s' does not parse: %s", b, err.message);
	FUZZ_ASSERT(dsi_quantity_cmp(q, &r2) == 0, "'%s' reparsed is another value", b);
	char c2[DSI_QUANTITY_STRING_MAX];
	fmt(&r2, c2);
	FUZZ_ASSERT(strcmp(b, c2) == 0, "format is not stable: '%s' -> '%s' -> '%s'", a, b, c2);
	if (r.format == q->format)
		FUZZ_ASSERT(strcmp(a, b) == 0, "format is not stable in one format: '%s' then '%s'", a, b);
	int o1, o2;
	FUZZ_ASSERT(dsi_quantity_value(q, &o1) == dsi_quantity_value(&r, &o2) && o1 == o2, "Value() changed for '%s'",
		    a);
	FUZZ_ASSERT(dsi_quantity_milli(q, &o1) == dsi_quantity_milli(&r, &o2) && o1 == o2,
		    "MilliValue() changed for '%s'", a);
	FUZZ_ASSERT(info.value == dsi_quantity_value(q, &o1) && info.value_overflow == o1, "info.value for '%s'", a);
	for (int scale = -9; scale <= 18; scale++)
		(void)dsi_quantity_scaled(q, scale, &o1);

	/* truncation as snprintf: same length returned, a NUL-terminated prefix */
	size_t len = strlen(a);
	for (size_t size = 1; size <= len; size += 3) {
		char t[DSI_QUANTITY_STRING_MAX];
		memset(t, 'x', sizeof(t));
		int n2 = dsi_quantity_format(q, t, size);
		FUZZ_ASSERT((size_t)n2 == len, "format into %zu bytes returned %d, want %zu", size, n2, len);
		FUZZ_ASSERT(t[size - 1] == '\0' && strncmp(t, a, size - 1) == 0, "truncated format of '%s'", a);
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 256)
		return 0;
	const char *s = (const char *)data;
	const char *bar = memchr(s, '|', size);
	dsi_quantity qa, qb;
	if (!bar) {
		one(s, size, &qa);
		return 0;
	}
	size_t na = (size_t)(bar - s), nb = size - na - 1;
	int oka = one(s, na, &qa);
	int okb = one(bar + 1, nb, &qb);
	if (!oka || !okb)
		return 0;
	/* The texts themselves go to the public functions: a canonical string may read back in
	 * another format (BinarySI 2^63-1, the cap of "8Ei", is written 9223372036854775807, which
	 * reads as DecimalSI), and Add keeps the first operand's format. */
	char *fa = fuzz_cstr(data, na), *fb = fuzz_cstr((const uint8_t *)bar + 1, nb);
	int texts = strlen(fa) == na && strlen(fb) == nb; /* no NUL inside */
	int ab = dsi_quantity_cmp(&qa, &qb), ba = dsi_quantity_cmp(&qb, &qa);
	FUZZ_ASSERT(ab == -ba && ab >= -1 && ab <= 1, "Cmp('%s','%s') = %d but reversed %d", fa, fb, ab, ba);
	int pub = 2, rc;
	ds_error err;
	if (texts) {
		rc = ds_quantity_compare(fa, fb, &pub, &err);
		fuzz_check_rc("ds_quantity_compare", rc, &err);
		FUZZ_ASSERT(rc == 0 && pub == ab, "ds_quantity_compare('%s','%s') = %d, Cmp %d", fa, fb, pub, ab);
	}

	dsi_quantity s1 = qa, s2 = qb;
	int r1 = dsi_quantity_add(&s1, &qb), r2 = dsi_quantity_add(&s2, &qa);
	FUZZ_ASSERT(r1 == r2, "'%s'+'%s' overflow %d but reversed %d", fa, fb, r1, r2);
	char *sum = NULL;
	if (texts) {
		rc = ds_quantity_add(fa, fb, &sum, &err);
		fuzz_check_rc("ds_quantity_add", rc, &err);
		FUZZ_ASSERT((rc == 0) == (r1 == 0), "ds_quantity_add('%s','%s') %d, dsi_quantity_add %d", fa, fb, rc,
			    r1);
	}
	if (r1 == 0) {
		char f1[DSI_QUANTITY_STRING_MAX];
		fmt(&s1, f1);
		FUZZ_ASSERT(!sum || strcmp(sum, f1) == 0, "ds_quantity_add '%s', dsi_quantity_add '%s'", sum, f1);
		FUZZ_ASSERT(dsi_quantity_cmp(&s1, &s2) == 0, "'%s'+'%s' is not commutative", fa, fb);
		dsi_quantity back = s1;
		if (dsi_quantity_sub(&back, &qb) == 0)
			FUZZ_ASSERT(dsi_quantity_cmp(&back, &qa) == 0, "('%s'+'%s')-'%s' != '%s'", fa, fb, fb, fa);
	}
	ds_free(sum);
	dsi_quantity d = qa;
	if (dsi_quantity_sub(&d, &qb) == 0) {
		FUZZ_ASSERT((d.sign > 0   ? 1
			     : d.sign < 0 ? -1
					  : 0) == ab,
			    "sign of '%s'-'%s' disagrees with Cmp", fa, fb);
		if (dsi_quantity_add(&d, &qb) == 0)
			FUZZ_ASSERT(dsi_quantity_cmp(&d, &qa) == 0, "('%s'-'%s')+'%s' != '%s'", fa, fb, fb, fa);
	}
	free(fa);
	free(fb);
	return 0;
}
