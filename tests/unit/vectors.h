/*
 * Replaying the upstream test tables of tests/vectors/upstream/ (see INDEX.json
 * there): reading a file, filling the object metadata a snapshot needs,
 * building snapshots, and book-keeping of pass / known failure / skip per case.
 *
 * Each driver runs its cases and reports every one through vt_record (NULL
 * mismatch: the library agrees with upstream) or vt_skip. vt_end then asserts
 * that the only failures are the driver's explicit known failures, that every
 * known failure still fails (a fixed bug must drop its entry) and that every
 * entry names a case of the file. VT_VERBOSE=1 in the environment prints what
 * each known failure looks like.
 */
#ifndef DSI_TEST_VECTORS_H
#define DSI_TEST_VECTORS_H

#include <jansson.h>
#include <stddef.h>

#include "daemonset.h"

/* A case name and why it is listed (a known library bug, a skip, a correction).
 * Tables end with {NULL, NULL}, so that an empty table is just that line. */
typedef struct vt_entry {
	const char *name;
	const char *reason;
} vt_entry;

typedef struct vt_run {
	const char *file;
	const vt_entry *known;
	size_t nknown;
	unsigned char *known_seen; /* 1: the case ran and failed as expected; 2: it passed */
	unsigned ncases, passed, known_failed, skipped;
	json_t *problems; /* strings: unexpected failures and stale entries */
} vt_run;

/* tests/vectors/upstream/<file>, parsed (new reference); the test aborts when it cannot be read. */
json_t *vt_load(const char *file);
/* The "cases" array of a loaded file (borrowed), checked to be non-empty. */
json_t *vt_cases(const json_t *doc);

void vt_begin(vt_run *r, const char *file, const vt_entry *known);
/* One case ran: mismatch is NULL when it agrees with upstream, else a malloc'ed description (taken). */
void vt_record(vt_run *r, const char *name, char *mismatch);
void vt_skip(vt_run *r, const char *name, const char *reason);
/* Print "<file>: N cases: P passed, K known failures, S skipped" and assert the run is as expected. */
void vt_end(vt_run *r);

/* The entry for name in a table, or NULL. */
const vt_entry *vt_find(const vt_entry *t, const char *name);

/* printf into a new string (malloc). */
char *vt_fmt(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
	__attribute__((format(printf, 1, 2)))
#endif
	;
/* Compact JSON text with sorted keys (malloc); "null" for NULL. */
char *vt_dump(const json_t *v);

/* A deep copy of obj whose metadata gets name / namespace / uid where they are
 * absent or empty (a NULL argument leaves that field alone). */
json_t *vt_with_meta(const json_t *obj, const char *name, const char *ns, const char *uid);
/* A new snapshot holding the objects of the array objs (steals nothing). opts may be NULL. */
ds_cluster *vt_cluster(const json_t *objs, const ds_options *opts);

/* featureGates.<gate> of a case: 1 when true, 0 when false or absent. */
int vt_gate(const json_t *cs, const char *gate);
/* The string member key of obj, or "" when absent. */
const char *vt_str(const json_t *obj, const char *key);

#endif
