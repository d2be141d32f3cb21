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

/* The threads of one run wait at the start until all of them exist, so that a run either has all its
 * threads or calls no work at all. */
typedef struct run_state {
	pthread_mutex_t mu;
	pthread_cond_t go;
	int state; /* 0 starting, 1 go, -1 called off */
} run_state;

typedef struct job {
	void (*work)(void *arg, unsigned t);
	void *arg;
	unsigned t;
	run_state *rs;
} job;

static void *thread_main(void *p)
{
	const job *j = p;
	pthread_mutex_lock(&j->rs->mu);
	while (j->rs->state == 0)
		pthread_cond_wait(&j->rs->go, &j->rs->mu);
	int go = j->rs->state > 0;
	pthread_mutex_unlock(&j->rs->mu);
	if (go)
		j->work(j->arg, j->t);
	return NULL;
}

static void start(run_state *rs, int state)
{
	pthread_mutex_lock(&rs->mu);
	rs->state = state;
	pthread_cond_broadcast(&rs->go);
	pthread_mutex_unlock(&rs->mu);
}

/* work(arg, t) for every t < n: t = 0 on the caller's thread, the others on threads of their own. */
static int exec_run(unsigned n, void (*work)(void *arg, unsigned t), void *arg)
{
	pthread_t *tid = dsi_calloc(n, sizeof(*tid));
	job *jobs = dsi_calloc(n, sizeof(*jobs));
	run_state rs = {.state = 0};
	unsigned started = 1;
	int ok = tid && jobs && pthread_mutex_init(&rs.mu, NULL) == 0;
	if (ok && pthread_cond_init(&rs.go, NULL) != 0) {
		pthread_mutex_destroy(&rs.mu);
		ok = 0;
	}
	for (; ok && started < n; started++) {
		jobs[started] = (job){work, arg, started, &rs};
		if (pthread_create(&tid[started], NULL, thread_main, &jobs[started]) != 0)
			break;
	}
	if (ok) {
		start(&rs, started == n ? 1 : -1);
		if (started == n)
			work(arg, 0);
		for (unsigned t = 1; t < started; t++)
			pthread_join(tid[t], NULL);
		pthread_cond_destroy(&rs.go);
		pthread_mutex_destroy(&rs.mu);
	}
	dsi_free(tid);
	dsi_free(jobs);
	return ok && started == n ? 0 : -1;
}

struct dsi_queue {
	pthread_mutex_t mu;
	pthread_cond_t changed; /* an item came or went, or the queue closed */
	void **v;
	size_t cap, head, n;
	int closed;
};

static dsi_queue *queue_new(size_t cap)
{
	dsi_queue *q = dsi_calloc(1, sizeof(*q));
	if (!q || !(q->v = dsi_calloc(cap ? cap : 1, sizeof(void *)))) {
		dsi_free(q);
		return NULL;
	}
	if (pthread_mutex_init(&q->mu, NULL) != 0) {
		dsi_free(q->v);
		dsi_free(q);
		return NULL;
	}
	if (pthread_cond_init(&q->changed, NULL) != 0) {
		pthread_mutex_destroy(&q->mu);
		dsi_free(q->v);
		dsi_free(q);
		return NULL;
	}
	q->cap = cap ? cap : 1;
	return q;
}

static int queue_put(dsi_queue *q, void *item)
{
	pthread_mutex_lock(&q->mu);
	while (q->n == q->cap && !q->closed)
		pthread_cond_wait(&q->changed, &q->mu);
	int rc = q->closed ? -1 : 0;
	if (rc == 0) {
		q->v[(q->head + q->n++) % q->cap] = item;
		pthread_cond_broadcast(&q->changed);
	}
	pthread_mutex_unlock(&q->mu);
	return rc;
}

static void *queue_get(dsi_queue *q)
{
	pthread_mutex_lock(&q->mu);
	while (q->n == 0 && !q->closed)
		pthread_cond_wait(&q->changed, &q->mu);
	void *item = NULL;
	if (q->n) {
		item = q->v[q->head];
		q->head = (q->head + 1) % q->cap;
		q->n--;
		pthread_cond_broadcast(&q->changed);
	}
	pthread_mutex_unlock(&q->mu);
	return item;
}

static void queue_close(dsi_queue *q)
{
	pthread_mutex_lock(&q->mu);
	q->closed = 1;
	pthread_cond_broadcast(&q->changed);
	pthread_mutex_unlock(&q->mu);
}

static void queue_free(dsi_queue *q)
{
	if (!q)
		return;
	pthread_cond_destroy(&q->changed);
	pthread_mutex_destroy(&q->mu);
	dsi_free(q->v);
	dsi_free(q);
}

const dsi_exec dsi_api_exec = {exec_threads, exec_run, queue_new, queue_put, queue_get, queue_close, queue_free};
