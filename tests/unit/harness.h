/* Shared pieces of the Check unit tests. */
#ifndef DSI_TEST_HARNESS_H
#define DSI_TEST_HARNESS_H

#include <check.h>
#include <stddef.h>

#include "daemonset.h"

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

/* Assert an error's code and path. */
#define ck_assert_error(err, want_code, want_path)                                                                     \
	do {                                                                                                           \
		ck_assert_msg((err).code == (want_code), "code %d (%s), want %d; path '%s' message '%s'", (err).code,  \
			      ds_strerror((err).code), (want_code), (err).path, (err).message);                        \
		ck_assert_str_eq((err).path, (want_path));                                                             \
		ck_assert_msg((err).message[0] != '\0', "error without a message");                                   \
	} while (0)

#endif
