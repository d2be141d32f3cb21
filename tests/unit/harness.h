/* Shared pieces of the Check unit tests. */
#ifndef DSI_TEST_HARNESS_H
#define DSI_TEST_HARNESS_H

#include <check.h>
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "daemonset.h"
#include "daemonset/jansson.h"

/* Each test file defines its suite and ends with DSI_TEST_MAIN(name_suite). */
#define DSI_TEST_MAIN(suite_fn)                                                                                        \
	int main(void)                                                                                                 \
	{                                                                                                              \
		SRunner *sr = srunner_create(suite_fn());                                                              \
		srunner_run_all(sr, CK_NORMAL);                                                                        \
		int nf = srunner_ntests_failed(sr);                                                                    \
		srunner_free(sr);                                                                                      \
		return nf ? 1 : 0;                                                                                     \
	}

/* Read a whole file below the source tree (e.g. "tests/vectors/x.json"); abort the test if missing. */
char *dsi_test_read_file(const char *path, size_t *len);
/* fn(path, ctx) for every file below dir (a directory of the source tree, read recursively; names
 * beginning with '.' left out) whose name ends in one of the suffixes (a NULL-terminated list). Aborts
 * the test when dir cannot be opened. */
void dsi_test_each_file(const char *dir, const char *const *suffixes, void (*fn)(const char *path, void *ctx),
			void *ctx);
/* A JSON file below the source tree (a vector file), parsed (new reference); duplicate keys are an error.
 * Aborts the test when the file cannot be read or is not JSON. */
json_t *dsi_test_load_json(const char *path);
/* The "rows" array of a section of a vector file (borrowed), checked to be non-empty. */
json_t *dsi_test_rows(const json_t *doc, const char *section);
/* A JSON text the library returned through char **out: parsed (new reference) and released with ds_free. */
json_t *dsi_test_take_json(char *out);
/* The ds_error_code a vector file names ("DS_EVALUE"); aborts the test on an unknown name. */
int dsi_test_code(const char *name);

/* A new snapshot holding the sample cluster (examples/cluster), which must load at least one object. */
ds_cluster *dsi_test_load_sample(void);
/* A new snapshot holding the objects of a JSON or YAML text, which must load. */
ds_cluster *dsi_test_cluster_text(const char *text);
/* New options with the settings of a JSON object text (NULL: the defaults); aborts when they are refused. */
ds_options *dsi_test_options(const char *json);
/* The same from a JSON object (NULL or {}: the defaults). */
ds_options *dsi_test_options_of(const json_t *settings);

/* Abort the test, naming the first difference, unless want is a subset of got: objects by the keys of
 * want, arrays of the same length element by element, anything else equal. */
void dsi_test_assert_subset(const char *name, const json_t *want, const json_t *got);
/* Check the outcome of a call against a vector case cs: with "expectError" {code, path, messagePrefix} the
 * call failed so, without out; else it succeeded and its JSON (out, taken) holds cs's "expect" as a subset. */
void dsi_test_expect_outcome(const char *name, const json_t *cs, int rc, const ds_error *err, char *out);

/* xorshift64: the next number of a reproducible pseudo-random sequence whose state is *s (never 0). */
uint64_t dsi_test_rand(uint64_t *s);

/* Assert an error's code and path. */
#define ck_assert_error(err, want_code, want_path)                                                                     \
	do {                                                                                                           \
		ck_assert_msg((err).code == (want_code), "code %d (%s), want %d; path '%s' message '%s'", (err).code,  \
			      ds_strerror((err).code), (want_code), (err).path, (err).message);                        \
		ck_assert_str_eq((err).path, (want_path));                                                             \
		ck_assert_msg((err).message[0] != '\0', "error without a message");                                    \
	} while (0)

#endif
