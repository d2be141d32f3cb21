#include "api/exec.h"

#include <pthread.h>
#include <unistd.h>

#include "core/alloc.h"

/* The option loadThreads, or (0) the CPUs online now. */
static unsigned exec_threads(unsigned requested)
{
	if (requested)
		return requested;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

typedef struct job {
	void (*work)(void *arg, unsigned t);
	void *arg;
	unsigned t;
} job;

static void *thread_main(void *p)
{
	const job *j = p;
	j->work(j->arg, j->t);
	return NULL;
}

/* work(arg, t) for every t < n: t = 0 on the caller's thread, the others on threads of their own; a
 * thread that cannot be started has its share run on the caller's thread afterwards. */
static void exec_run(unsigned n, void (*work)(void *arg, unsigned t), void *arg)
{
	pthread_t *tid = dsi_calloc(n, sizeof(*tid));
	job *jobs = dsi_calloc(n, sizeof(*jobs));
	unsigned char *started = dsi_calloc(n, 1);
	for (unsigned t = 1; tid && jobs && started && t < n; t++) {
		jobs[t] = (job){work, arg, t};
		started[t] = pthread_create(&tid[t], NULL, thread_main, &jobs[t]) == 0;
	}
	work(arg, 0);
	for (unsigned t = 1; t < n; t++) {
		if (started && started[t])
			pthread_join(tid[t], NULL);
		else
			work(arg, t);
	}
	dsi_free(tid);
	dsi_free(jobs);
	dsi_free(started);
}

const dsi_exec dsi_api_exec = {exec_threads, exec_run};
