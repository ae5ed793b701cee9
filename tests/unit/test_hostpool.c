/* Tests for hostpool: every host runs once, at most `forks` at once, states and outcomes kept. */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "harness.h"
#include "hostpool.h"

static atomic_int running, peak, calls;

static void job(struct hostpool *hp, size_t i, void *ctx, struct host_end *end)
{
	struct timespec ts = {0, 20 * 1000000L};
	int now = atomic_fetch_add(&running, 1) + 1, old = atomic_load(&peak);

	(void)ctx;
	while (now > old && !atomic_compare_exchange_weak(&peak, &old, now))
		;
	atomic_fetch_add(&calls, 1);
	hostpool_set_state(hp, i, HOSTPOOL_RUNNING);
	hostpool_set_progress(hp, i, 1, 2, 3.5);
	hostpool_set_point(hp, i, "nb_roles=1");
	nanosleep(&ts, NULL);
	atomic_fetch_sub(&running, 1);
	if (i == 3)
		return; /* no outcome given: the pool says exec */
	if (i == 4) {
		host_end_set(end, HOST_EXIT, "boom");
		end->exit_code = 3;
	} else {
		end->outcome = HOST_OK; /* the message stays the last one set */
	}
}

static void test_bounded_concurrency(void)
{
	struct errbuf eb = {{0}};
	struct hostpool *hp = hostpool_new(10, 3, &eb);
	struct hostpool_status s;
	char name[32];
	int loops = 0;

	CHECK(hp != NULL);
	if (hp == NULL)
		return;
	CHECK_INT_EQ(hostpool_start(hp, job, NULL, &eb), 0);
	while (!hostpool_wait(hp, 50) && loops++ < 200)
		;
	CHECK_INT_EQ(atomic_load(&calls), 10);
	CHECK(atomic_load(&peak) <= 3);
	CHECK(atomic_load(&peak) >= 2);
	hostpool_get(hp, 0, &s);
	CHECK_INT_EQ(s.state, HOSTPOOL_FINISHED);
	CHECK_INT_EQ(s.outcome, HOST_OK);
	CHECK_INT_EQ(s.done, 1);
	CHECK_INT_EQ(s.total, 2);
	CHECK(s.finished_ns >= s.started_ns && s.started_ns > 0);
	hostpool_get(hp, 3, &s);
	CHECK_STR_EQ(host_outcome_name(s.outcome, s.exit_code, name, sizeof(name)), "exec");
	hostpool_get(hp, 4, &s);
	CHECK_STR_EQ(host_outcome_name(s.outcome, s.exit_code, name, sizeof(name)), "exit=3");
	CHECK_STR_EQ(s.message, "boom");
	hostpool_free(hp);
}

static void test_names(void)
{
	char buf[16];

	CHECK_STR_EQ(host_outcome_name(HOST_HOSTKEY, 0, buf, sizeof(buf)), "hostkey");
	CHECK_STR_EQ(host_outcome_name(HOST_INTERRUPTED, 0, buf, sizeof(buf)), "interrupted");
	CHECK_STR_EQ(hostpool_state_name(HOSTPOOL_FETCHING), "fetching");
	CHECK_STR_EQ(host_outcome_name(HOST_RESULTS, 0, buf, sizeof(buf)), "results");
}

/* A job whose outcome message is hostile text. */
static void hostile_end(struct hostpool *hp, size_t i, void *ctx, struct host_end *end)
{
	(void)hp;
	(void)i;
	(void)ctx;
	host_end_set(end, HOST_EXIT, "%s", "\x1b[31mboom\tat\nline\xc2\x9b");
	end->exit_code = 1;
}

/* Every text a host sends (point, message, outcome message) is stored sanitised. */
static void test_host_text_is_sanitised(void)
{
	struct errbuf eb = {{0}};
	struct hostpool *hp = hostpool_new(1, 1, &eb);
	struct hostpool_status s;
	int loops = 0;

	CHECK(hp != NULL);
	if (hp == NULL)
		return;
	hostpool_set_point(hp, 0, "nb_tasks=\x1b[2J\x1b[H");
	hostpool_set_message(hp, 0, "\x1b]52;c;cm0gLXJmIH4=\x07");
	hostpool_get(hp, 0, &s);
	CHECK_STR_EQ(s.point, "nb_tasks=\\x1b[2J\\x1b[H");
	CHECK_STR_EQ(s.message, "\\x1b]52;c;cm0gLXJmIH4=\\x07");
	CHECK_INT_EQ(hostpool_start(hp, hostile_end, NULL, &eb), 0);
	while (!hostpool_wait(hp, 50) && loops++ < 200)
		;
	hostpool_get(hp, 0, &s);
	CHECK_INT_EQ(s.state, HOSTPOOL_FINISHED);
	CHECK_STR_EQ(s.message, "\\x1b[31mboom\\tat\\nline\\xc2\\x9b");
	hostpool_free(hp);
}

int main(void)
{
	RUN(test_bounded_concurrency);
	RUN(test_names);
	RUN(test_host_text_is_sanitised);
	return HARNESS_EXIT();
}
