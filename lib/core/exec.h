/*
 * Threads, which the pure layers never start themselves: the layer above supplies an executor
 * (lib/api/exec.c), and the loaders that can use threads take it as a parameter. Every thread of a
 * run is started and joined within one call; none outlives it.
 */
#ifndef DSI_EXEC_H
#define DSI_EXEC_H

#include <stddef.h>

/* A bounded queue of pointers between the threads of one run. */
typedef struct dsi_queue dsi_queue;

typedef struct dsi_exec {
	/* How many threads a call may use: requested (the option loadThreads), or for 0 the CPUs online. */
	unsigned (*threads)(unsigned requested);
	/* work(arg, t) for every t < n, on n threads at once (the caller's among them); returns 0 when every
	 * call has returned, or -1, having called none, when n threads cannot be had. */
	int (*run)(unsigned n, void (*work)(void *arg, unsigned t), void *arg);
	/* A queue of at most cap items (NULL without memory). put waits while it is full and returns 0, or
	 * -1 once it is closed (the item stays the caller's); get waits while it is empty and open, and
	 * returns NULL when it is closed and empty. close wakes every waiter. */
	dsi_queue *(*queue_new)(size_t cap);
	int (*queue_put)(dsi_queue *q, void *item);
	void *(*queue_get)(dsi_queue *q);
	void (*queue_close)(dsi_queue *q);
	void (*queue_free)(dsi_queue *q);
} dsi_exec;

#endif
