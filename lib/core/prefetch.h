/*
 * A hint to start loading memory that a loop will read a few iterations later. A sync walks
 * every node and every daemon pod once per pass; at 100k nodes they are far beyond the caches,
 * and one miss at a time is what made a plan grow faster than the cluster (make bench).
 */
#ifndef DSI_PREFETCH_H
#define DSI_PREFETCH_H

#if defined(__GNUC__) || defined(__clang__)
#define DSI_PREFETCH(p) __builtin_prefetch(p)
#else
#define DSI_PREFETCH(p) ((void)(p))
#endif

/* How many iterations ahead the passes over nodes and pods prefetch. */
#define DSI_PREFETCH_AHEAD 16

#endif
