/*
 * The JSON front end of a List's items (lib/core/jsonfront.h): on every text, the same outcome as
 * json_loadb(text, n, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK): the same tree (types
 * exact, reals bit for bit) or the same error (text, line, column, position). In a SIMDJSON=1
 * build, also which texts simdjson reads itself and which it leaves to jansson: each of the
 * cases jansson reads differently (a repeated key, "\u0000", an integer beyond int64, a real out
 * of range or subnormal, surrogate escapes, raw control characters, invalid UTF-8, deep nesting,
 * something after the value) must go to jansson, and plain items must not; and items read where
 * they lie in a larger text (dsi_json_front_set_buffer) come out the same.
 *
 * With DSI_FRONT_NODE_IMAGES, a Node's status.images in kubelet's plain form is [] in the tree and
 * nothing else differs; every other text (another kind, an escape, a value out of the plain form)
 * keeps its images; and a malformed byte anywhere, inside the images too, gives jansson's error on
 * the whole text, in both builds, with and without the simdjson parser.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "core/jsonfront.h"
#include "core/jsonscan.h"
#include "../support/jsonsame.h"

#ifdef DSI_SIMDJSON
json_t *dsi_json_front_simd_item(dsi_json_front *f, const char *text, size_t n, unsigned skip, const char *item_kind);
#endif

/* text through the front end and through jansson: the same outcome. Returns whether simdjson read
 * it itself (always 0 in the default build). */
static int alike(dsi_json_front *f, const char *text, size_t n)
{
	json_error_t jf, jj;
	memset(&jf, 0, sizeof(jf));
	memset(&jj, 0, sizeof(jj));
	json_t *a = dsi_json_front_item(f, text, n, 0, NULL, &jf);
	json_t *b = json_loadb(text, n, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK, &jj);
	ck_assert_msg(!a == !b, "%.60s: %s against %s", text, a ? "a tree" : jf.text, b ? "a tree" : jj.text);
	if (a) {
		ck_assert_msg(dsi_test_json_same(a, b), "%.60s: the trees differ", text);
		ck_assert_int_eq(jf.position, jj.position);
	} else {
		ck_assert_str_eq(jf.text, jj.text);
		ck_assert_int_eq(jf.line, jj.line);
		ck_assert_int_eq(jf.column, jj.column);
		ck_assert_int_eq(jf.position, jj.position);
	}
	json_decref(a);
	json_decref(b);
	int simd = 0;
#ifdef DSI_SIMDJSON
	json_t *s = f ? dsi_json_front_simd_item(f, text, n, 0, NULL) : NULL;
	simd = s != NULL;
	json_decref(s);
#endif
	return simd;
}

static const char *const plain[] = {
	"{}",
	("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"a\":\"b\"}},"
	 "\"status\":{\"allocatable\":{\"cpu\":\"4\"},\"images\":[{\"names\":[\"x\"],\"sizeBytes\":123}]}}"),
	"{\"a\":true,\"b\":false,\"c\":null,\"d\":[],\"e\":{},\"f\":[1,2.5,\"x\",[{}]]}",
	"{ \"a\" : 1 ,\n\t\"b\" :\r\n[ -1 , 0 ] }",
	"{\"min\":-9223372036854775808,\"max\":9223372036854775807}",
	"{\"r\":1.0,\"e\":1E2,\"f\":0.1,\"g\":-2.5e-3,\"h\":123456789012345678.5,\"z\":-0.0,\"u\":1e-400}",
	/* digits beyond what a double holds: simdjson 3.0.1 alone reads 8.96e-11 (fuzz_jsonfront) */
	"{\"a\":0.40872000752518720007525113333,\"b\":1.00000000000000011102230246251565404236316680908203125}",
	"{\"a\\\"b\":1,\"\\u00e9\":\"\\u00e9\\n\\t\\\\\\/\\u003c\",\"\":\"empty\"}",
	"{\"utf8\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}",
	/* escapes whose unescaped length puts an escaped quote where a plain string's closing quote
	 * would be (simdjson's reader tells escapes from none by that byte and the one before it) */
	"{\"a\":\"\\u0041\\\"abcde\",\"\\u0041\\\"abcde\":\"\\n\\\"\"}",
	/* DEL is no control character to either */
	"{\"del\x7f\":\"\x7f\"}",
};

static const char *const jansson_only[] = {
	"{\"a\":1,\"a\":2}",                              /* a repeated key */
	"{\"a\":{\"b\":1,\"b\":1}}",                      /* deeper */
	"{\"a\":{\"x\":[1]},\"b\":[],\"a\":{\"x\":[1]}}", /* apart, the same value */
	"{\"a\":[{\"k\":1,\"l\":2,\"m\":3,\"k\":4}]}",    /* in an array */
	"{\"a\":1,\"b\":2,\"\\u0061\":3}",                /* spelt with an escape */
	"{\"a\":\"x\\u0000y\"}",                          /* NUL */
	"{\"a\\u0000\":1}",                               /* NUL in a key */
	"{\"a\":9223372036854775808}",                    /* beyond int64 */
	"{\"a\":-9223372036854775809}",                   /* below */
	"{\"a\":1e400}",                                  /* a real out of range */
	"{\"a\":4e-320}",                                 /* subnormal: strtod says ERANGE */
	"{\"a\":\"\\ud83d\\ude00\"}",                     /* a surrogate pair */
	/* pairs whose unescaped length puts their string's escaped quote where a plain string's
	 * closing quote would be */
	"{\"a\":\"\\ud83d\\ude00\\\"abcdefgh\"}", /* a value */
	"{\"\\ud83d\\ude00\\\"abcdefgh\":1}",     /* a key */
	"{\"a\":\"\\ud800\"}",                    /* a lone surrogate */
	"{\"\\uDC00\":1}",                        /* in a key */
	"{\"a\":\"tab\there\"}",                  /* a raw control character */
	"{\"a\\n\x01\":1}",                       /* in a key, with an escape */
	"{\"a\":\"\\\x01\"}",                     /* after a backslash */
	"{\"a\":\"\x1f\\u0041\"}",                /* before an escape */
	"{\"a\":\"\xff\"}",                       /* invalid UTF-8 */
	"{\"a\":\"\xc3\"}",                       /* truncated UTF-8 */
	"{\"a\":1} x",                            /* something after the value */
	"{\"a\":1}\n",                            /* space after it: jansson's position is before it */
	"{\"a\":01}",                             /* not JSON */
	"{\"a\":1,}",                             /* not JSON */
	"{\"a\" 1}",                              /* not JSON */
	"{\"a\":[1,2}",                           /* not JSON */
	"{\"a\":tru}",                            /* not JSON */
	"{\"a\":-}",                              /* not JSON */
	"[1]",                                    /* not an object: the scanner hands none */
};

START_TEST(plain_items_alike)
{
	dsi_json_front *f = dsi_json_front_new();
	ck_assert_int_eq(f != NULL, dsi_json_front_simd());
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		ck_assert_msg(alike(f, plain[i], strlen(plain[i])) == dsi_json_front_simd(), "%s: not read by simdjson",
			      plain[i]);
	/* a large item, then small ones again in the grown buffer */
	size_t n = 200000, len = 0;
	char *big = malloc(n + 64);
	ck_assert_ptr_nonnull(big);
	len += (size_t)sprintf(big, "{\"items\":[");
	for (int i = 0; len < n - 100; i++)
		len += (size_t)sprintf(big + len, "%s{\"k%d\":\"v%d\",\"n\":%d}", i ? "," : "", i, i, i * 7);
	len += (size_t)sprintf(big + len, "]}");
	ck_assert_int_eq(alike(f, big, len), dsi_json_front_simd());
	free(big);
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		ck_assert_int_eq(alike(f, plain[i], strlen(plain[i])), dsi_json_front_simd());
	dsi_json_front_free(f);
	/* without a front end, jansson reads everything */
	ck_assert_int_eq(alike(NULL, plain[1], strlen(plain[1])), 0);
}
END_TEST

START_TEST(doubtful_items_are_janssons)
{
	dsi_json_front *f = dsi_json_front_new();
	/* no bytes at all, first on a front end that has no buffer yet (fuzz_jsonfront found a memcpy
	 * to NULL there: tests/vectors/regress/fuzz_jsonfront/empty) */
	ck_assert(!alike(f, "", 0));
	for (size_t i = 0; i < sizeof(jansson_only) / sizeof(jansson_only[0]); i++)
		ck_assert_msg(!alike(f, jansson_only[i], strlen(jansson_only[i])), "%s: read by simdjson",
			      jansson_only[i]);
	/* nesting: 1,500 levels are jansson's (simdjson stops at 1024), 100 simdjson's */
	for (int depth = 100; depth <= 1500; depth += 1400) {
		size_t n = 16 + 2 * (size_t)depth;
		char *t = malloc(n);
		ck_assert_ptr_nonnull(t);
		size_t len = (size_t)sprintf(t, "{\"a\":");
		for (int d = 0; d < depth; d++)
			t[len++] = '[';
		for (int d = 0; d < depth; d++)
			t[len++] = ']';
		t[len++] = '}';
		ck_assert_int_eq(alike(f, t, len), depth < 1000 && dsi_json_front_simd());
		free(t);
	}
	dsi_json_front_free(f);
}
END_TEST

/* Items where they lie in a larger text (dsi_json_front_set_buffer, as the loader reads a List's),
 * in an allocation of that text's size alone: the same outcome as alone whatever follows them
 * there, the padding simdjson reads (a List's bytes, a quote, a backslash, bytes JSON refuses), or
 * nothing (an item at the very end, or too near it to be read where it is), and the plain ones still
 * simdjson's own. */
START_TEST(items_read_in_place)
{
	static const char *const after[] = {",\n    {\"a\": [", "\"", "\\", "\x01\xff"};
	static const size_t pads[] = {0, 1, 63, 64, 65, 300};
	dsi_json_front *f = dsi_json_front_new();
	for (int set = 0; set < 2; set++) {
		const char *const *texts = set ? jansson_only : plain;
		size_t count = set ? sizeof(jansson_only) / sizeof(jansson_only[0]) : sizeof(plain) / sizeof(plain[0]);
		for (size_t i = 0; i < count; i++)
			for (size_t a = 0; a < sizeof(after) / sizeof(after[0]); a++)
				for (size_t p = 0; p < sizeof(pads) / sizeof(pads[0]); p++) {
					size_t n = strlen(texts[i]), at = (i + a) % 2, size = at + n + pads[p];
					char *buf = malloc(size);
					ck_assert_ptr_nonnull(buf);
					buf[0] = '[';
					memcpy(buf + at, texts[i], n);
					for (size_t k = at + n; k < size; k++)
						buf[k] = after[a][(k - at - n) % strlen(after[a])];
					dsi_json_front_set_buffer(f, buf, size);
					ck_assert_msg(alike(f, buf + at, n) == (!set && dsi_json_front_simd()),
						      "%s with %zu bytes after it", texts[i], pads[p]);
					/* an item that is not in the buffer: copied */
					ck_assert_int_eq(alike(f, texts[i], n), !set && dsi_json_front_simd());
					dsi_json_front_set_buffer(f, NULL, 0);
					free(buf);
				}
	}
	dsi_json_front_set_buffer(NULL, plain[0], 2); /* no front end: nothing to do */
	dsi_json_front_free(f);
}
END_TEST

/* text through the front end with status.images left out, against jansson on the whole text:
 * the same error, or the same tree with status.images [] when cut (else unchanged). */
static void cut_alike(dsi_json_front *f, const char *text, const char *item_kind, int cut)
{
	size_t n = strlen(text);
	json_error_t jf, jj;
	memset(&jf, 0, sizeof(jf));
	memset(&jj, 0, sizeof(jj));
	json_t *a = dsi_json_front_item(f, text, n, DSI_FRONT_NODE_IMAGES, item_kind, &jf);
	json_t *b = json_loadb(text, n, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK, &jj);
	ck_assert_msg(!a == !b, "%s: %s against %s", text, a ? "a tree" : jf.text, b ? "a tree" : jj.text);
	if (!a) {
		ck_assert_msg(cut < 0, "%s: an error (%s)", text, jj.text);
		ck_assert_str_eq(jf.text, jj.text);
		ck_assert_int_eq(jf.line, jj.line);
		ck_assert_int_eq(jf.column, jj.column);
		ck_assert_int_eq(jf.position, jj.position);
		return;
	}
	ck_assert_msg(cut >= 0, "%s: no error", text);
	ck_assert_int_eq(jf.position, jj.position);
#ifdef DSI_SIMDJSON
	if (f && cut == 1) { /* simdjson read it, leaving the images unread */
		json_t *s = dsi_json_front_simd_item(f, text, n, DSI_FRONT_NODE_IMAGES, item_kind);
		ck_assert_msg(s && dsi_test_json_same(s, a), "%s: not read by simdjson", text);
		json_decref(s);
	}
#endif
	json_t *status = json_object_get(b, "status");
	if (cut == 2 && dsi_test_json_same(a, b)) /* either */
		cut = 0;
	if (cut) {
		ck_assert_ptr_nonnull(json_object_get(status, "images"));
		ck_assert_int_eq(json_object_set_new(status, "images", json_array()), 0);
	}
	ck_assert_msg(dsi_test_json_same(a, b), "%s: the trees differ (cut %d)", text, cut);
	json_decref(a);
	json_decref(b);
}

#define IMG "[{\"names\":[\"reg.io/a@sha256:00\",\"reg.io/a:1\"],\"sizeBytes\":123},{\"sizeBytes\":0,\"names\":[]},{}]"
#define NODE(kind, images)                                                                                             \
	"{\"apiVersion\":\"v1\"," kind "\"metadata\":{\"name\":\"n\"},\"status\":{\"images\":" images "}}"

/* cut: 1 left out, 0 kept, -1 jansson's error; 2 either: simdjson's reader knows the Node's
 * status.images from its tree, escapes and all, the scanner only keys spelt without escapes */
static const struct {
	const char *text, *item_kind;
	int cut;
} cuts[] = {
	{NODE("\"kind\":\"Node\",", IMG), NULL, 1},
	{NODE("", IMG), "Node", 1},               /* a NodeList's item without a kind */
	{NODE("\"kind\":\"\",", IMG), "Node", 1}, /* or with "" */
	{NODE("\"kind\":\"Node\",", "[]"), NULL, 1},
	{"{\"status\":{\"a\":[1,{\"images\":2}],\"images\":" IMG ",\"b\":\"}\"},\"kind\":\"Node\",\"spec\":{}}", NULL,
	 1},
	{"\n{ \"kind\" : \"Node\" ,\n \"status\" : { \"images\" :\n [ { \"names\" : [ \"a\" , \"b\" ] ,\n"
	 " \"sizeBytes\" : 7 } ] } }",
	 NULL, 1},
	/* not a Node, or not known to be one */
	{NODE("\"kind\":\"Pod\",", IMG), "Node", 0},
	{NODE("", IMG), NULL, 0},
	{NODE("", IMG), "Pod", 0},
	{NODE("\"kind\":\"N\\u006fde\",", IMG), "Node", 2}, /* an escape */
	{NODE("\"kind\":null,", IMG), "Node", 0},
	{"{\"kind\":\"Node\",\"metadata\":{\"status\":{\"images\":" IMG "}}}", NULL, 0}, /* not the root's */
	{"{\"kind\":\"Node\",\"st\\u0061tus\":{\"images\":" IMG "}}", NULL, 2},
	{"{\"kind\":\"Node\",\"status\":{\"im\\u0061ges\":" IMG "}}", NULL, 2},
	{"{\"st\\u0061tus\":{\"images\":" IMG "},\"kind\":\"Pod\"}", "Node", 0}, /* read again, whole */
	/* images out of the plain form: read as they stand (the decoding check says what it thinks) */
	{NODE("\"kind\":\"Node\",", "null"), NULL, 0},
	{NODE("\"kind\":\"Node\",", "[null]"), NULL, 0},
	{NODE("\"kind\":\"Node\",", "[{\"names\":null}]"), NULL, 0},
	{NODE("\"kind\":\"Node\",", "[{\"names\":[\"x\\u0041\"]}]"), NULL, 0}, /* an escape */
	{NODE("\"kind\":\"Node\",", "[{\"names\":[\"\xc3\xa9\"]}]"), NULL, 0}, /* not ASCII */
	{NODE("\"kind\":\"Node\",", "[{\"names\":[1]}]"), NULL, 0},
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":1.5}]"), NULL, 0},
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":1e3}]"), NULL, 0},
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":-1}]"), NULL, 0},
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":\"12\"}]"), NULL, 0},
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":1234567890123456789}]"), NULL, 0}, /* 19 digits */
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":null}]"), NULL, 0},
	{NODE("\"kind\":\"Node\",", "[{\"names\":[],\"other\":1}]"), NULL, 0},
	{NODE("\"kind\":\"Node\",", "{}"), NULL, 0},
	/* malformed inside the images: jansson's error on the whole text, position and all */
	{NODE("\"kind\":\"Node\",", "[{\"names\":[\"a\",]}]"), NULL, -1},
	{NODE("\"kind\":\"Node\",", "[{\"names\" [\"a\"]}]"), NULL, -1},
	{NODE("\"kind\":\"Node\",", "[{\"names\":[\"a\tb\"]}]"), NULL, -1},  /* a raw control character */
	{NODE("\"kind\":\"Node\",", "[{\"names\":[\"a\xff\"]}]"), NULL, -1}, /* invalid UTF-8 */
	{NODE("\"kind\":\"Node\",", "[{\"names\":[],\"names\":[]}]"), NULL, -1},
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":01}]"), NULL, -1},
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":1,}]"), NULL, -1},
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":1},]"), NULL, -1},
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":1},tru]"), NULL, -1},
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":1}"), NULL, -1},
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":1}]]"), NULL, -1},
	{NODE("\"kind\":\"Node\",", "[{\"sizeBytes\":1}\n,\n{\"names\":[\"a\"\n\"b\"]}]"), NULL, -1},
	/* malformed around plain images: the error jansson gives on the whole text, not on the cut one */
	{"{\"kind\":\"Node\",\"status\":{\"images\":" IMG ",\n\"x\":01}}", NULL, -1},
	{"{\"kind\":\"Node\",\"status\":{\"images\":" IMG "}\n\n  ,}", NULL, -1},
	{"{\"kind\":\"Node\",\"status\":{\"images\":" IMG ",\"images\":[]}}", NULL, -1},
	{"{\"kind\":\"Node\",\"status\":{\"images\":" IMG "},\"status\":{}}", NULL, -1},
	{"{\"kind\":\"Node\",\"status\":{\"images\":" IMG "},\"kind\":\"Node\"}", NULL, -1},
	{"{\"kind\":\"Node\",\"status\":{\"images\":" IMG "},\"a\":\"\xff\"}", NULL, -1},
	{"{\"kind\":\"Node\",\"a\":[1 2],\"status\":{\"images\":" IMG "}}", NULL, -1},
	/* jansson stops before the x, where the item ends for the loader: not the cut's end */
	{"{\"kind\":\"Node\",\"status\":{\"images\":" IMG "}}x", NULL, 0},
};

START_TEST(node_images_left_out)
{
	dsi_json_front *f = dsi_json_front_new();
	for (int with = 0; with < 2; with++) /* the build's front end, then jansson alone */
		for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++)
			cut_alike(with ? NULL : f, cuts[i].text, cuts[i].item_kind, cuts[i].cut);
	dsi_json_front_free(f);
}
END_TEST

/* Through ds_cluster_load, which leaves the images out of a List's items, against the same List
 * with its "items" spelt "\u0069tems", which the loader does not stream (core/jsonscan.h) and so
 * reads whole, nothing left out: the same nodes, or the same error (a List that JSON refuses is
 * read as YAML, as before). 100 nodes: the items are parsed on the loading threads too. */
static void load_one(const char *items_key, const char *image, int bad_at, int *rc, size_t *count, char **sum,
		     ds_error *err)
{
	size_t cap = 1 << 20, k = 0;
	char *t = malloc(cap);
	ck_assert_ptr_nonnull(t);
	k += (size_t)snprintf(t, cap, "{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\n\"%s\":[\n", items_key);
	for (int i = 0; i < 100; i++)
		k += (size_t)snprintf(t + k, cap - k,
				      "%s{\"metadata\":{\"name\":\"n%d\",\"uid\":\"u%d\",\"labels\":{\"a\":\"%d\"}},"
				      "\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\"},\"images\":%s}}",
				      i ? "," : "", i, i, i, i == bad_at ? image : IMG);
	k += (size_t)snprintf(t + k, cap - k, "]}");
	ds_cluster *c;
	*count = 0;
	*sum = NULL;
	ck_assert_int_eq(ds_cluster_new(NULL, &c, err), 0);
	*rc = ds_cluster_load(c, t, k, count, err);
	if (*rc == 0)
		ck_assert_int_eq(ds_cluster_summary(c, sum, err), 0);
	ds_cluster_free(c);
	free(t);
}

static void load_both(const char *image, int bad_at, int code)
{
	int r1, r2;
	size_t n1, n2;
	char *s1, *s2;
	ds_error e1, e2;
	load_one("items", image, bad_at, &r1, &n1, &s1, &e1);
	load_one("\\u0069tems", image, bad_at, &r2, &n2, &s2, &e2);
	ck_assert_msg(r1 == code, "%s: %d (%s), not %d", image, r1, r1 ? e1.message : "", code);
	ck_assert_int_eq(r1, r2);
	if (r1 == 0) {
		ck_assert_uint_eq(n1, n2);
		ck_assert_str_eq(s1, s2);
	} else {
		ck_assert_str_eq(e1.path, e2.path);
		ck_assert_str_eq(e1.message, e2.message);
		ck_assert_int_eq(e1.line, e2.line);
		ck_assert_int_eq(e1.column, e2.column);
	}
	ds_free(s1);
	ds_free(s2);
}

START_TEST(cluster_load_leaves_images_out)
{
	load_both(IMG, -1, 0);
	load_both("[{\"sizeBytes\":1.5}]", 70, DS_ETYPE);                   /* the decoding check's, in images */
	load_both("[{\"sizeBytes\":\"1\"}]", 3, DS_ETYPE);                  /* likewise */
	load_both("[{\"names\":[\"a\"],\"sizeBytes\":01}]", 80, 0);         /* JSON refuses it, YAML reads it */
	load_both("[{\"names\":[\"a\",],\"sizeBytes\":1}]", 0, 0);          /* likewise, in the first item */
	load_both("[{\"names\":[\"a\"],\"sizeBytes\":1}}", 99, DS_ESYNTAX); /* neither reads it */
	load_both("[{\"names\":[\"a\xff\"],\"sizeBytes\":1}]", 99, DS_ESYNTAX);
}
END_TEST

/* The scanner's 16-byte loops (SSE2) against a byte at a time, on random texts of the bytes that
 * matter, around every 16-byte boundary. */
static size_t ref_string_end(const char *t, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (t[i] == '\\')
			i++;
		else if (t[i] == '"')
			return i + 1;
	}
	return 0;
}

static size_t ref_skip(const char *t, size_t n, size_t i)
{
	int depth = 0;
	while (i < n) {
		char c = t[i];
		if (c == '"') {
			if (!(i = ref_string_end(t, n, i)))
				return 0;
			continue;
		}
		i++;
		if (c == '{' || c == '[')
			depth++;
		else if ((c == '}' || c == ']') && --depth <= 0)
			return depth == 0 ? i : 0;
	}
	return 0;
}

START_TEST(scanner_loops_alike)
{
	static const char bytes[] = "\"\\{}[]a :,u\x01\x7f\xc3";
	char t[320], img[400];
	unsigned seed = 34;
	for (int round = 0; round < 200000; round++) {
		seed = seed * 1103515245u + 12345u;
		/* up to five of the skip's 64-byte windows, so that strings, escapes and brackets cross them */
		size_t n = 1 + (seed >> 16) % 300;
		t[0] = (seed >> 8) & 1 ? '{' : '[';
		for (size_t i = 1; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly letters, so that strings and values cross the 16- and 64-byte loads; in
			 * a third of the rounds no backslash, for the windows read by their masks alone */
			t[i] = (seed >> 16) % 3 ? 'a' : bytes[(seed >> 20) % (sizeof(bytes) - 1)];
			if (round % 3 == 0 && t[i] == '\\')
				t[i] = '"';
			/* in odd rounds no bracket closes before the last fifth, which is mostly closing
			 * brackets: values that run through several windows, then end or do not */
			if (round % 2 && i < n * 4 / 5 && (t[i] == '}' || t[i] == ']'))
				t[i] = 'a';
			else if (round % 2 && i >= n * 4 / 5 && t[i] == 'a')
				t[i] = '}';
		}
		size_t want = ref_skip(t, n, 0);
		ck_assert_uint_eq(dsi_jsonscan_skip(t, n, 0), want);
		for (int level = 0; level < 2; level++) /* the instructions this machine would not choose */
			ck_assert_uint_eq(dsi_jsonscan_skip_with(t, n, 0, level), want);
		/* the same bytes as an image's name: plain only if none is a backslash, a control
		 * character or beyond ASCII */
		int is_plain = 1;
		for (size_t i = 1; i < n; i++) {
			t[i] = t[i] == '"' ? 'b' : t[i]; /* one string: a quote would end it */
			is_plain &= t[i] != '\\' && (unsigned char)t[i] >= 0x20 && (unsigned char)t[i] <= 0x7e;
		}
		int len = snprintf(img, sizeof(img), "[{\"names\":[\"%.*s\"]}]", (int)(n - 1), t + 1);
		size_t e = dsi_jsonscan_plain_images(img, (size_t)len, 0);
		ck_assert_msg(is_plain ? e == (size_t)len : e == 0, "%s: %zu", img, e);
	}
}
END_TEST

START_TEST(space_runs_alike)
{
	static const char bytes[] = "    \t\n\r a{";
	char t[200];
	unsigned seed = 35;
	for (int round = 0; round < 100000; round++) {
		seed = seed * 1103515245u + 12345u;
		size_t n = (seed >> 16) % sizeof(t);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly spaces, in runs that cross the 16-byte loads */
			t[i] = (seed >> 16) % 8 ? ' ' : bytes[(seed >> 20) % (sizeof(bytes) - 1)];
		}
		size_t from = n ? (seed >> 8) % n : 0, want = from;
		while (want < n && (t[want] == ' ' || t[want] == '\t' || t[want] == '\n' || t[want] == '\r'))
			want++;
		ck_assert_uint_eq(dsi_jsonscan_space(t, n, from), want);
	}
}
END_TEST

static Suite *jsonfront_suite(void)
{
	Suite *s = suite_create("jsonfront");
	TCase *tc = tcase_create("alike");
	tcase_add_test(tc, plain_items_alike);
	tcase_add_test(tc, doubtful_items_are_janssons);
	tcase_add_test(tc, items_read_in_place);
	tcase_add_test(tc, node_images_left_out);
	tcase_add_test(tc, cluster_load_leaves_images_out);
	tcase_add_test(tc, scanner_loops_alike);
	tcase_add_test(tc, space_runs_alike);
	suite_add_tcase(s, tc);
	return s;
}

DSI_TEST_MAIN(jsonfront_suite)
