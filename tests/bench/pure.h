/* make bench, the pure functions (tests/bench/pure.c). */
#ifndef BENCH_PURE_H
#define BENCH_PURE_H

#include <jansson.h>

/* The measurements as JSON; inputs_file (may be NULL) gets the objects, for tests/bench/pure.py. */
json_t *bench_pure(int quiet, const char *inputs_file);
/* bench -O N: ds_objects_parse of an N-node list, in the process of its own the section starts. */
int bench_objects_parse_probe(long n);
/* bench -L NAME[:FORM]: one row's function (FORM text, objects, jansson or other) in a loop for
 * seconds, for a profiler. */
int bench_pure_loop(const char *name, double seconds);
/* The table. */
void bench_pure_print(const json_t *res);

#endif
