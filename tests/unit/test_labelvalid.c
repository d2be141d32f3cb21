/* Label key/value and DNS-1123 validation with upstream's messages; Go's quoting. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model/labelvalid.h"

#define VECTORS "tests/vectors/values/label_validation.json"

typedef int (*validator)(const char *s, size_t n, dsi_strbuf *msgs);

static void check_lists(json_t *doc, const char *section, validator fn)
{
	json_t *sec = json_object_get(doc, section), *v;
	size_t i, nvalid = 0, ninvalid = 0;
	json_array_foreach(json_object_get(sec, "valid"), i, v)
	{
		dsi_strbuf msgs = DSI_STRBUF_INIT;
		int n = fn(json_string_value(v), json_string_length(v), &msgs);
		ck_assert_msg(n == 0, "%s: '%s' should be valid: %s", section, json_string_value(v), msgs.data);
		ck_assert_ptr_null(msgs.data);
		nvalid++;
	}
	json_array_foreach(json_object_get(sec, "invalid"), i, v)
	{
		dsi_strbuf msgs = DSI_STRBUF_INIT;
		int n = fn(json_string_value(v), json_string_length(v), &msgs);
		ck_assert_msg(n > 0, "%s: '%s' should be invalid", section, json_string_value(v));
		ck_assert_msg(msgs.data && msgs.len > 0, "no message");
		ck_assert_int_eq(fn(json_string_value(v), json_string_length(v), NULL), n); /* msgs is optional */
		dsi_strbuf_free(&msgs);
		ninvalid++;
	}
	ck_assert_msg(nvalid > 3 && ninvalid > 3, "%s: too few cases", section);
}

static void check_messages(json_t *doc, const char *section, validator fn)
{
	json_t *row;
	size_t i;
	json_array_foreach(json_object_get(json_object_get(doc, section), "rows"), i, row)
	{
		json_t *in = json_object_get(row, "in");
		const char *want = json_string_value(json_object_get(row, "message"));
		dsi_strbuf msgs = DSI_STRBUF_INIT;
		int n = fn(json_string_value(in), json_string_length(in), &msgs);
		ck_assert_msg(n > 0, "%s: '%s' should be invalid", section, json_string_value(in));
		ck_assert_msg(msgs.data && strcmp(msgs.data, want) == 0, "%s: '%.40s'\n got: %s\nwant: %s", section,
			      json_string_value(in), msgs.data, want);
		/* the count is the number of "; "-joined messages */
		int parts = 1;
		for (const char *p = want; (p = strstr(p, "; ")) != NULL; p += 2)
			parts++;
		ck_assert_int_eq(n, parts);
		dsi_strbuf_free(&msgs);
	}
}

START_TEST(label_keys)
{
	json_t *doc = dsi_test_load_json(VECTORS);
	check_lists(doc, "label_key", dsi_validate_label_key);
	check_messages(doc, "label_key_messages", dsi_validate_label_key);
	json_decref(doc);
}
END_TEST

START_TEST(label_values)
{
	json_t *doc = dsi_test_load_json(VECTORS);
	check_lists(doc, "label_value", dsi_validate_label_value);
	check_messages(doc, "label_value_messages", dsi_validate_label_value);
	json_decref(doc);
}
END_TEST

START_TEST(dns_names)
{
	json_t *doc = dsi_test_load_json(VECTORS);
	check_lists(doc, "dns1123_label", dsi_validate_dns1123_label);
	check_messages(doc, "dns1123_label_messages", dsi_validate_dns1123_label);
	check_lists(doc, "dns1123_subdomain", dsi_validate_dns1123_subdomain);
	check_messages(doc, "dns1123_subdomain_messages", dsi_validate_dns1123_subdomain);
	json_decref(doc);
}
END_TEST

START_TEST(lengths_and_bytes)
{
	/* an embedded NUL is a byte like any other: invalid, never a terminator */
	ck_assert_int_gt(dsi_validate_label_key("a\0b", 3, NULL), 0);
	ck_assert_int_gt(dsi_validate_label_value("a\0", 2, NULL), 0);
	ck_assert_int_eq(dsi_validate_label_value("a\0", 1, NULL), 0);
	/* lengths are bytes: 32 two-byte characters are 64 bytes */
	char v[80] = "";
	for (int i = 0; i < 32; i++)
		strcat(v, "\xc3\xa9");
	dsi_strbuf msgs = DSI_STRBUF_INIT;
	ck_assert_int_eq(dsi_validate_label_value(v, strlen(v), &msgs), 2);
	ck_assert_msg(strncmp(msgs.data, "must be no more than 63 bytes; ", 31) == 0, "%s", msgs.data);
	dsi_strbuf_free(&msgs);
	/* messages are appended after what the buffer holds */
	dsi_strbuf_puts(&msgs, "before");
	ck_assert_int_eq(dsi_validate_dns1123_label("a.b", 3, &msgs), 1);
	ck_assert_str_eq(msgs.data, "before; must not contain dots");
	dsi_strbuf_free(&msgs);
	/* a prefix of exactly 253 bytes and a name of 63 are fine; one more is not */
	char key[400];
	memset(key, 'a', 253);
	key[253] = '/';
	memset(key + 254, 'b', 63);
	ck_assert_int_eq(dsi_validate_label_key(key, 317, NULL), 0);
	key[317] = 'b';
	ck_assert_int_eq(dsi_validate_label_key(key, 318, NULL), 1);
	memmove(key + 1, key, 318);
	ck_assert_int_eq(dsi_validate_label_key(key, 318, NULL), 1); /* 254-byte prefix */
}
END_TEST

static void expect_quote(const char *in, size_t n, const char *want)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_go_quote(&b, in, n);
	ck_assert_msg(strcmp(b.data, want) == 0, "quote: got %s want %s", b.data, want);
	dsi_strbuf_free(&b);
}

static void expect_json(const char *in, size_t n, const char *want)
{
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_go_json_string(&b, in, n);
	ck_assert_msg(strcmp(b.data, want) == 0, "json: got %s want %s", b.data, want);
	dsi_strbuf_free(&b);
}

START_TEST(go_renderings)
{
	/* strconv.Quote */
	expect_quote("plain", 5, "\"plain\"");
	expect_quote("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
	expect_quote("\a\b\f\n\r\t\v", 7, "\"\\a\\b\\f\\n\\r\\t\\v\"");
	expect_quote("\x01\x7f", 2, "\"\\x01\\x7f\"");
	expect_quote("\0", 1, "\"\\x00\"");
	expect_quote("\xff", 1, "\"\\xff\"");
	expect_quote("\xc3", 1, "\"\\xc3\"");                   /* truncated sequence */
	expect_quote("\xc0\x80", 2, "\"\\xc0\\x80\"");          /* overlong */
	expect_quote("\xed\xa0\x80", 3, "\"\\xed\\xa0\\x80\""); /* surrogate */
	expect_quote("r\xc4\x81 <>&", 7, "\"r\xc4\x81 <>&\"");
	expect_quote("\xc2\xa0", 2, "\"\\u00a0\"");
	expect_quote("\xc2\x85", 2, "\"\\u0085\"");
	expect_quote("\xe2\x80\x8b", 3, "\"\\u200b\"");
	expect_quote("\xef\xbb\xbf", 3, "\"\\ufeff\"");
	expect_quote("\xf3\xa0\x80\x81", 4, "\"\\U000e0001\"");
	expect_quote("\xf0\x9f\x98\x80", 4, "\"\xf0\x9f\x98\x80\"");
	expect_quote("\xef\xbf\xbd", 3, "\"\xef\xbf\xbd\"");
	/* encoding/json with HTML escaping */
	expect_json("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
	expect_json("<&>", 3, "\"\\u003c\\u0026\\u003e\"");
	expect_json("\b\f\n\r\t\x01\x1f", 7, "\"\\b\\f\\n\\r\\t\\u0001\\u001f\"");
	expect_json("\x7f", 1, "\"\x7f\"");
	expect_json("\xff", 1, "\"\\ufffd\"");
	expect_json("\xe2\x80\xa8\xe2\x80\xa9", 6, "\"\\u2028\\u2029\"");
	expect_json("\xc3\xa9", 2, "\"\xc3\xa9\"");
}
END_TEST

static Suite *labelvalid_suite(void)
{
	Suite *s = suite_create("labelvalid");
	TCase *tc = tcase_create("labelvalid");
	tcase_add_test(tc, label_keys);
	tcase_add_test(tc, label_values);
	tcase_add_test(tc, dns_names);
	tcase_add_test(tc, lengths_and_bytes);
	tcase_add_test(tc, go_renderings);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(labelvalid_suite)
