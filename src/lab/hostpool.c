/* hostpool: worker threads pulling host indexes from a shared counter; state under one mutex. */
#include "hostpool.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "sanitize.h"

struct hostpool {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct hostpool_status *hosts;
	size_t nhosts, next, finished;
	unsigned forks, nthreads;
	pthread_t *threads;
	hostpool_job job;
	void *ctx;
	bool joined;
};

struct hostpool *hostpool_new(size_t nhosts, unsigned forks, struct errbuf *eb)
{
	struct hostpool *hp = calloc(1, sizeof(*hp));

	if (hp == NULL || (hp->hosts = calloc(nhosts ? nhosts : 1, sizeof(*hp->hosts))) == NULL) {
		free(hp);
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&hp->lock, NULL);
	pthread_cond_init(&hp->changed, NULL);
	hp->nhosts = nhosts;
	hp->forks = forks < 1 ? 1 : forks > HOSTPOOL_FORKS_MAX ? HOSTPOOL_FORKS_MAX : forks;
	for (size_t i = 0; i < nhosts; i++)
		hp->hosts[i].eta_s = -1;
	return hp;
}

size_t hostpool_count(const struct hostpool *hp)
{
	return hp->nhosts;
}

/* The one place a host ends: its outcome, its message (sanitised), the time. */
static void hostpool_finish(struct hostpool *hp, size_t i, const struct host_end *end)
{
	pthread_mutex_lock(&hp->lock);
	if (hp->hosts[i].state != HOSTPOOL_FINISHED) {
		hp->hosts[i].state = HOSTPOOL_FINISHED;
		hp->hosts[i].outcome = end->outcome;
		hp->hosts[i].exit_code = end->exit_code;
		hp->hosts[i].finished_ns = clock_now_ns();
		hp->hosts[i].state_ns[HOSTPOOL_FINISHED] = hp->hosts[i].finished_ns;
		hp->hosts[i].point[0] = '\0';
		sanitize_str(hp->hosts[i].message, sizeof(hp->hosts[i].message), end->eb.msg);
		hp->finished++;
	}
	hp->hosts[i].version++;
	pthread_cond_broadcast(&hp->changed);
	pthread_mutex_unlock(&hp->lock);
}

static void *worker(void *arg)
{
	struct hostpool *hp = arg;
	struct host_end end;

	for (;;) {
		size_t i;
		pthread_mutex_lock(&hp->lock);
		i = hp->next < hp->nhosts ? hp->next++ : hp->nhosts;
		if (i < hp->nhosts) {
			hp->hosts[i].state = HOSTPOOL_CONNECTING;
			hp->hosts[i].started_ns = clock_now_ns();
			hp->hosts[i].state_ns[HOSTPOOL_CONNECTING] = hp->hosts[i].started_ns;
			hp->hosts[i].version++;
		}
		pthread_mutex_unlock(&hp->lock);
		if (i >= hp->nhosts)
			break;
		/* a job that sets nothing ends exec with its last message */
		host_end_set(&end, HOST_EXEC, NULL);
		pthread_mutex_lock(&hp->lock);
		snprintf(end.eb.msg, sizeof(end.eb.msg), "%s", hp->hosts[i].message);
		pthread_mutex_unlock(&hp->lock);
		hp->job(hp, i, hp->ctx, &end);
		hostpool_finish(hp, i, &end);
	}
	return NULL;
}

int hostpool_start(struct hostpool *hp, hostpool_job job, void *ctx, struct errbuf *eb)
{
	pthread_attr_t attr;
	unsigned n = hp->forks < hp->nhosts ? hp->forks : (unsigned)hp->nhosts;
	int err;

	hp->job = job;
	hp->ctx = ctx;
	hp->threads = calloc(n ? n : 1, sizeof(*hp->threads));
	if (hp->threads == NULL)
		return errbuf_set(eb, "out of memory");
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, HOSTPOOL_STACK_BYTES);
	for (unsigned i = 0; i < n; i++) {
		err = pthread_create(&hp->threads[i], &attr, worker, hp);
		if (err != 0) {
			pthread_attr_destroy(&attr);
			/* the started workers still take every host */
			if (hp->nthreads > 0)
				return 0;
			return errbuf_set_errno(eb, err, "pthread_create");
		}
		hp->nthreads++;
	}
	pthread_attr_destroy(&attr);
	return 0;
}

static void join_all(struct hostpool *hp)
{
	if (hp->joined)
		return;
	for (unsigned i = 0; i < hp->nthreads; i++)
		pthread_join(hp->threads[i], NULL);
	hp->joined = true;
}

bool hostpool_wait(struct hostpool *hp, long timeout_ms)
{
	struct timespec ts;
	bool all;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&hp->lock);
	while (hp->finished < hp->nhosts) {
		if (pthread_cond_timedwait(&hp->changed, &hp->lock, &ts) == ETIMEDOUT)
			break;
	}
	all = hp->finished >= hp->nhosts;
	pthread_mutex_unlock(&hp->lock);
	if (all)
		join_all(hp);
	return all;
}

void hostpool_free(struct hostpool *hp)
{
	if (hp == NULL)
		return;
	if (hp->threads != NULL)
		join_all(hp);
	pthread_mutex_destroy(&hp->lock);
	pthread_cond_destroy(&hp->changed);
	free(hp->threads);
	free(hp->hosts);
	free(hp);
}

static void changed(struct hostpool *hp, size_t i)
{
	hp->hosts[i].version++;
	pthread_cond_broadcast(&hp->changed);
	pthread_mutex_unlock(&hp->lock);
}

void hostpool_set_state(struct hostpool *hp, size_t i, enum hostpool_state state)
{
	pthread_mutex_lock(&hp->lock);
	if (hp->hosts[i].state != HOSTPOOL_FINISHED && state != HOSTPOOL_FINISHED) {
		hp->hosts[i].state = state;
		if (hp->hosts[i].state_ns[state] == 0)
			hp->hosts[i].state_ns[state] = clock_now_ns();
	}
	changed(hp, i);
}

void hostpool_set_progress(struct hostpool *hp, size_t i, uint32_t done, uint32_t total,
			   double eta_s)
{
	pthread_mutex_lock(&hp->lock);
	hp->hosts[i].done = done;
	hp->hosts[i].total = total;
	hp->hosts[i].eta_s = eta_s;
	changed(hp, i);
}

void hostpool_set_point(struct hostpool *hp, size_t i, const char *point)
{
	pthread_mutex_lock(&hp->lock);
	sanitize_str(hp->hosts[i].point, sizeof(hp->hosts[i].point), point);
	changed(hp, i);
}

void hostpool_set_message(struct hostpool *hp, size_t i, const char *message)
{
	pthread_mutex_lock(&hp->lock);
	sanitize_str(hp->hosts[i].message, sizeof(hp->hosts[i].message), message);
	changed(hp, i);
}

void hostpool_get(struct hostpool *hp, size_t i, struct hostpool_status *out)
{
	pthread_mutex_lock(&hp->lock);
	*out = hp->hosts[i];
	pthread_mutex_unlock(&hp->lock);
}

const char *hostpool_state_name(enum hostpool_state s)
{
	static const char *const names[] = {"waiting", "connecting", "uploading",
					    "running", "fetching",   "finished"};

	return (unsigned)s < 6 ? names[s] : "?";
}
