/* Tests for journal: write then read back, torn last line, corrupt middle line, hash/version
 * checks. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "journal.h"

static char dir[] = "/tmp/rarperf-test-journal-XXXXXX";
static const char *sha = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

static cJSON *versions(const char *sudo_version)
{
	cJSON *v = cJSON_CreateObject();

	cJSON_AddStringToObject(v, "rarperf", "0.1.0");
	cJSON_AddStringToObject(v, "sudo", sudo_version);
	return v;
}

/* Writes a journal with npoints points of two subjects and 3 runs each. */
static void write_journal(const char *path, int npoints)
{
	struct errbuf eb = {0};
	uint64_t wall[3] = {1000, 2000, 3000}, user[3] = {1, 2, 3}, sys[3] = {4, 5, 6};
	int codes[3] = {0, 0, 0};
	struct journal_subject subj[2];
	cJSON *v = versions("1.9.13p3");
	struct journal *j;
	char id[64];
	int i;

	unlink(path);
	memset(subj, 0, sizeof(subj));
	for (i = 0; i < 2; i++) {
		subj[i].subject = i ? "doas" : "sudo";
		subj[i].format = i ? "doas" : "sudoers";
		subj[i].command = "/opt/x -n /usr/bin/true";
		subj[i].result.n = 3;
		subj[i].result.wall_ns = wall;
		subj[i].result.user_ns = user;
		subj[i].result.system_ns = sys;
		subj[i].result.exit_codes = codes;
	}
	j = journal_create(path, sha, v, "2026-01-01T00:00:00Z", &eb);
	CHECK(j != NULL);
	for (i = 0; j != NULL && i < npoints; i++) {
		snprintf(id, sizeof(id), "nb_tasks=%d", i + 1);
		CHECK_INT_EQ(journal_append_step(j, id, (size_t)i, subj, 2, NULL, &eb), 0);
	}
	journal_close(j);
	cJSON_Delete(v);
}

static void append_raw(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND);

	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK_INT_EQ(write(fd, text, strlen(text)), (long long)strlen(text));
		close(fd);
	}
}

static void test_round_trip(void)
{
	struct journal_contents c;
	struct errbuf eb = {0};
	char path[128];
	cJSON *v = versions("1.9.13p3");

	snprintf(path, sizeof(path), "%s/j1.jsonl", dir);
	write_journal(path, 3);
	CHECK_INT_EQ(journal_read(path, &c, &eb), 0);
	CHECK_INT_EQ(c.npoints, 3);
	CHECK(!c.torn);
	if (c.npoints == 3) {
		CHECK_STR_EQ(c.points[2].id, "nb_tasks=3");
		CHECK_INT_EQ(c.points[2].index, 2);
		CHECK_INT_EQ(c.points[2].nsubjects, 2);
		CHECK_STR_EQ(c.points[2].subjects[1].subject, "doas");
		CHECK_INT_EQ(c.points[2].subjects[1].result.n, 3);
		CHECK_INT_EQ(c.points[2].subjects[1].result.wall_ns[2], 3000);
		CHECK_INT_EQ(c.points[2].subjects[1].result.system_ns[0], 4);
	}
	CHECK_INT_EQ(journal_check(&c, sha, v, &eb), 0);
	journal_contents_clear(&c);
	cJSON_Delete(v);
}

static void test_torn_last_line_is_ignored_and_dropped(void)
{
	struct journal_contents c;
	struct errbuf eb = {0};
	struct journal *j;
	char path[128];
	size_t valid;

	snprintf(path, sizeof(path), "%s/j2.jsonl", dir);
	write_journal(path, 2);
	append_raw(path, "{\"point\":\"nb_tasks=3\",\"index\":2,\"subj");
	CHECK_INT_EQ(journal_read(path, &c, &eb), 0);
	CHECK_INT_EQ(c.npoints, 2);
	CHECK(c.torn);
	valid = c.valid_len;
	journal_contents_clear(&c);
	/* Reopening cuts the torn tail, so the next line starts clean. */
	j = journal_reopen(path, valid, &eb);
	CHECK(j != NULL);
	journal_close(j);
	append_raw(path, "garbage that is not json\n");
	CHECK_INT_EQ(journal_read(path, &c, &eb), 0); /* a bad last complete line: torn too */
	CHECK_INT_EQ(c.npoints, 2);
	CHECK(c.torn);
	journal_contents_clear(&c);
}

static void test_corrupt_middle_line_is_an_error(void)
{
	struct journal_contents c;
	struct errbuf eb = {0};
	char path[128];
	const char *text;

	snprintf(path, sizeof(path), "%s/j3.jsonl", dir);
	write_journal(path, 1);
	append_raw(path, "{\"point\":1}\n{\"point\":\"x\"}\n");
	CHECK_INT_EQ(journal_read(path, &c, &eb), -1);
	CHECK(strstr(eb.msg, "line 3: not a journal point") != NULL);
	text = "{\"journal\":1}\n";
	CHECK_INT_EQ(journal_parse(text, strlen(text), "t", &c, &eb), 0); /* bad last = torn */
	CHECK(c.header == NULL);
	journal_contents_clear(&c);
}

static void test_hash_or_version_mismatch_refused(void)
{
	struct journal_contents c;
	struct errbuf eb = {0};
	char path[128];
	cJSON *v = versions("1.9.15");
	const char *other = "1111111111111111111111111111111111111111111111111111111111111111";

	snprintf(path, sizeof(path), "%s/j4.jsonl", dir);
	write_journal(path, 1);
	CHECK_INT_EQ(journal_read(path, &c, &eb), 0);
	CHECK_INT_EQ(journal_check(&c, other, v, &eb), -1);
	CHECK(strstr(eb.msg, "manifest changed") != NULL);
	CHECK_INT_EQ(journal_check(&c, sha, v, &eb), -1);
	CHECK(strstr(eb.msg, "tool versions or the pinned environment changed") != NULL);
	journal_contents_clear(&c);
	cJSON_Delete(v);
}

static void test_duplicate_point_is_an_error(void)
{
	struct journal_contents c;
	struct errbuf eb = {0};
	char path[128];

	snprintf(path, sizeof(path), "%s/j5.jsonl", dir);
	write_journal(path, 1);
	append_raw(path, "{\"point\":\"nb_tasks=1\",\"index\":0,\"subjects\":[{\"subject\":\"s\","
			 "\"format\":\"doas\",\"command\":\"c\",\"wall_ns\":[1],\"user_ns\":[1],"
			 "\"system_ns\":[1],\"exit_codes\":[0]}]}\n{\"point\":\"x\",\"index\":1,"
			 "\"subjects\":[]}\n");
	CHECK_INT_EQ(journal_read(path, &c, &eb), -1);
	CHECK(strstr(eb.msg, "already recorded") != NULL);
}

static void test_create_refuses_existing(void)
{
	struct errbuf eb = {0};
	char path[128];
	cJSON *v = versions("1");

	snprintf(path, sizeof(path), "%s/j6.jsonl", dir);
	write_journal(path, 0);
	CHECK(journal_create(path, sha, v, "now", &eb) == NULL);
	CHECK(strstr(eb.msg, "File exists") != NULL);
	cJSON_Delete(v);
}

/* Context switches and step info round-trip; a line from before them reads as unknown and 0. */
static void test_contention_fields(void)
{
	uint64_t wall[2] = {1000, 2000}, user[2] = {1, 2}, sys[2] = {3, 4};
	uint32_t csw[2] = {0, 7};
	struct proc_rusage ru[2] = {{200, 0, 6700, 0, 3}, {210, 1, 6800, 8, 4}};
	int codes[2] = {0, 0};
	struct journal_subject subj;
	struct journal_step_info info = {.has_host = true,
					 .steal = 0.25,
					 .busy = 0.5,
					 .load1 = 3.5,
					 .running = 4,
					 .remeasured = 1,
					 .discarded_runs = 20};
	struct journal_contents c;
	struct errbuf eb = {0};
	cJSON *v = versions("1.9.13p3");
	struct journal *j;
	char path[128];
	int64_t stall[2] = {0, 2500000};

	snprintf(path, sizeof(path), "%s/j-csw.jsonl", dir);
	unlink(path);
	memset(&subj, 0, sizeof(subj));
	subj.subject = "sudo";
	subj.format = "sudoers";
	subj.command = "sudo true";
	subj.result = (struct measure_result){.n = 2,
					      .wall_ns = wall,
					      .user_ns = user,
					      .system_ns = sys,
					      .exit_codes = codes,
					      .nivcsw = csw,
					      .ru = ru};
	j = journal_create(path, sha, v, "2026-01-01T00:00:00Z", &eb);
	CHECK(j != NULL);
	if (j != NULL) {
		subj.result.stall_ns = stall;
		CHECK_INT_EQ(journal_append_step(j, "a;round=1", 0, &subj, 1, &info, &eb), 0);
		subj.result.nivcsw = NULL;
		subj.result.ru = NULL;
		/* One run's stall unknown: the step keeps none (its runs read as unknown). */
		stall[0] = -1;
		CHECK_INT_EQ(journal_append_step(j, "a;round=2", 0, &subj, 1, NULL, &eb), 0);
	}
	journal_close(j);
	/* a line written before rarbench recorded contention */
	append_raw(path, "{\"point\":\"a;round=3\",\"index\":0,\"subjects\":[{\"subject\":\"sudo\","
			 "\"format\":\"sudoers\",\"command\":\"x\",\"wall_ns\":[5],\"user_ns\":[1],"
			 "\"system_ns\":[1],\"exit_codes\":[0]}]}\n");
	CHECK_INT_EQ(journal_read(path, &c, &eb), 0);
	CHECK_INT_EQ(c.npoints, 3);
	if (c.npoints == 3) {
		const struct journal_step_info *i0 = &c.points[0].info;

		CHECK(c.points[0].subjects[0].result.nivcsw != NULL &&
		      c.points[0].subjects[0].result.nivcsw[1] == 7);
		/* Every run's rusage back as written; none where a step had none. */
		CHECK(c.points[0].subjects[0].result.ru != NULL &&
		      c.points[0].subjects[0].result.ru[1].minflt == 210 &&
		      c.points[0].subjects[0].result.ru[1].maxrss_kib == 6800 &&
		      c.points[0].subjects[0].result.ru[0].nvcsw == 3);
		CHECK(c.points[1].subjects[0].result.ru == NULL);
		CHECK(c.points[0].subjects[0].result.stall_ns != NULL &&
		      c.points[0].subjects[0].result.stall_ns[0] == 0 &&
		      c.points[0].subjects[0].result.stall_ns[1] == 2500000);
		CHECK(c.points[1].subjects[0].result.stall_ns == NULL);
		CHECK(c.points[2].subjects[0].result.stall_ns == NULL);
		CHECK(i0->has_host && i0->steal == 0.25 && i0->busy == 0.5 && i0->load1 == 3.5);
		CHECK_INT_EQ(i0->running, 4);
		CHECK_INT_EQ(i0->remeasured, 1);
		CHECK_INT_EQ(i0->discarded_runs, 20);
		CHECK(c.points[1].subjects[0].result.nivcsw == NULL);
		CHECK(!c.points[1].info.has_host && c.points[1].info.remeasured == 0);
		CHECK(c.points[2].subjects[0].result.nivcsw == NULL);
		CHECK(!c.points[2].info.has_host && c.points[2].info.discarded_runs == 0);
	}
	journal_contents_clear(&c);
	/* a malformed addition is an error like any other field */
	append_raw(path,
		   "{\"point\":\"a;round=4\",\"index\":0,\"remeasured\":-1,\"subjects\":[{"
		   "\"subject\":\"sudo\",\"format\":\"sudoers\",\"command\":\"x\",\"wall_ns\":[5],"
		   "\"user_ns\":[1],\"system_ns\":[1],\"exit_codes\":[0],\"nivcsw\":[1,2]}]}\n"
		   "{\"point\":\"a;round=5\",\"index\":0,\"subjects\":[{\"subject\":\"sudo\","
		   "\"format\":\"sudoers\",\"command\":\"x\",\"wall_ns\":[5],\"user_ns\":[1],"
		   "\"system_ns\":[1],\"exit_codes\":[0]}]}\n");
	CHECK_INT_EQ(journal_read(path, &c, &eb), -1);
	CHECK(strstr(eb.msg, "line 5: not a journal point") != NULL);
	journal_contents_clear(&c);
	unlink(path);
	cJSON_Delete(v);
}

/* A step's refusals (runstate.h, "Refusals") come back as written, so --resume knows them; a
 * refusal that is not text (an escape byte) or not whole is not a journal point. */
static void test_refused_round_trip(void)
{
	uint64_t wall[1] = {1000}, user[1] = {1}, sys[1] = {1};
	int codes[1] = {0};
	struct journal_refusal refused[1] = {
	    {.subject = (char *)"sudo-rs",
	     .cls = (char *)"limit",
	     .error = (char *)"/etc/sudoers-rs:130:3080: too many items"}};
	struct journal_step_info info = {.refused = refused, .nrefused = 1};
	struct journal_subject subj;
	struct journal_contents c;
	struct errbuf eb = {0};
	cJSON *v = versions("1.9.13p3");
	struct journal *j;
	char path[128];

	snprintf(path, sizeof(path), "%s/j-refused.jsonl", dir);
	unlink(path);
	memset(&subj, 0, sizeof(subj));
	subj.subject = "sudo";
	subj.format = "sudoers";
	subj.command = "sudo true";
	subj.result = (struct measure_result){
	    .n = 1, .wall_ns = wall, .user_ns = user, .system_ns = sys, .exit_codes = codes};
	j = journal_create(path, sha, v, "2026-01-01T00:00:00Z", &eb);
	CHECK(j != NULL);
	if (j != NULL) {
		CHECK_INT_EQ(journal_append_step(j, "a", 4, &subj, 1, &info, &eb), 0);
		CHECK_INT_EQ(journal_append_step(j, "b", 5, &subj, 1, NULL, &eb), 0);
	}
	journal_close(j);
	CHECK_INT_EQ(journal_read(path, &c, &eb), 0);
	CHECK_INT_EQ(c.npoints, 2);
	if (c.npoints == 2) {
		CHECK_INT_EQ(c.points[0].info.nrefused, 1);
		if (c.points[0].info.nrefused == 1) {
			CHECK_STR_EQ(c.points[0].info.refused[0].subject, "sudo-rs");
			CHECK_STR_EQ(c.points[0].info.refused[0].cls, "limit");
			CHECK_STR_EQ(c.points[0].info.refused[0].error,
				     "/etc/sudoers-rs:130:3080: too many items");
		}
		CHECK_INT_EQ(c.points[1].info.nrefused, 0);
	}
	journal_contents_clear(&c);
	append_raw(path, "{\"point\":\"c\",\"index\":6,\"refused\":[{\"subject\":\"sudo-rs\","
			 "\"class\":\"limit\",\"error\":\"\\u001b[2J\"}],\"subjects\":[{"
			 "\"subject\":\"sudo\",\"format\":\"sudoers\",\"command\":\"x\","
			 "\"wall_ns\":[5],\"user_ns\":[1],\"system_ns\":[1],\"exit_codes\":[0]}]}\n"
			 "{\"point\":\"d\",\"index\":6,\"subjects\":[{\"subject\":\"sudo\","
			 "\"format\":\"sudoers\",\"command\":\"x\",\"wall_ns\":[5],\"user_ns\":[1],"
			 "\"system_ns\":[1],\"exit_codes\":[0]}]}\n");
	CHECK_INT_EQ(journal_read(path, &c, &eb), -1);
	CHECK(strstr(eb.msg, "line 4: not a journal point") != NULL);
	journal_contents_clear(&c);
	unlink(path);
	cJSON_Delete(v);
}

/* A step's daemon cost (pkexec's polkitd) comes back as written, for results.json; a daemons
 * entry without its numbers is not a journal point. */
static void test_daemons_round_trip(void)
{
	uint64_t wall[1] = {1000}, user[1] = {1}, sys[1] = {1};
	int codes[1] = {0};
	struct journal_daemon daemons[1] = {{.subject = (char *)"pkexec",
					     .name = (char *)"polkitd",
					     .cpu_ns = 12345678,
					     .runs = 12,
					     .maxrss_kib = 8648}};
	struct journal_step_info info = {.daemons = daemons, .ndaemons = 1};
	struct journal_subject subj;
	struct journal_contents c;
	struct errbuf eb = {0};
	cJSON *v = versions("122-3");
	struct journal *j;
	char path[128];

	snprintf(path, sizeof(path), "%s/j-daemons.jsonl", dir);
	unlink(path);
	memset(&subj, 0, sizeof(subj));
	subj.subject = "pkexec";
	subj.format = "polkit";
	subj.command = "pkexec true";
	subj.result = (struct measure_result){
	    .n = 1, .wall_ns = wall, .user_ns = user, .system_ns = sys, .exit_codes = codes};
	j = journal_create(path, sha, v, "2026-01-01T00:00:00Z", &eb);
	CHECK(j != NULL);
	if (j != NULL) {
		CHECK_INT_EQ(journal_append_step(j, "a", 0, &subj, 1, &info, &eb), 0);
		CHECK_INT_EQ(journal_append_step(j, "b", 1, &subj, 1, NULL, &eb), 0);
	}
	journal_close(j);
	CHECK_INT_EQ(journal_read(path, &c, &eb), 0);
	CHECK_INT_EQ(c.npoints, 2);
	if (c.npoints == 2) {
		CHECK_INT_EQ(c.points[0].info.ndaemons, 1);
		if (c.points[0].info.ndaemons == 1) {
			const struct journal_daemon *d = &c.points[0].info.daemons[0];

			CHECK_STR_EQ(d->subject, "pkexec");
			CHECK_STR_EQ(d->name, "polkitd");
			CHECK_INT_EQ(d->cpu_ns, 12345678);
			CHECK_INT_EQ(d->runs, 12);
			CHECK_INT_EQ(d->maxrss_kib, 8648);
		}
		CHECK_INT_EQ(c.points[1].info.ndaemons, 0);
	}
	journal_contents_clear(&c);
	append_raw(path, "{\"point\":\"c\",\"index\":2,\"daemons\":[{\"subject\":\"pkexec\","
			 "\"name\":\"polkitd\"}],\"subjects\":[{\"subject\":\"pkexec\","
			 "\"format\":\"polkit\",\"command\":\"x\",\"wall_ns\":[5],\"user_ns\":[1],"
			 "\"system_ns\":[1],\"exit_codes\":[0]}]}\n"
			 "{\"point\":\"d\",\"index\":2,\"subjects\":[{\"subject\":\"pkexec\","
			 "\"format\":\"polkit\",\"command\":\"x\",\"wall_ns\":[5],\"user_ns\":[1],"
			 "\"system_ns\":[1],\"exit_codes\":[0]}]}\n");
	CHECK_INT_EQ(journal_read(path, &c, &eb), -1);
	CHECK(strstr(eb.msg, "line 4: not a journal point") != NULL);
	journal_contents_clear(&c);
	unlink(path);
	cJSON_Delete(v);
}

int main(void)
{
	char cmd[128];

	if (mkdtemp(dir) == NULL)
		return 1;
	RUN(test_round_trip);
	RUN(test_contention_fields);
	RUN(test_refused_round_trip);
	RUN(test_daemons_round_trip);
	RUN(test_torn_last_line_is_ignored_and_dropped);
	RUN(test_corrupt_middle_line_is_an_error);
	RUN(test_hash_or_version_mismatch_refused);
	RUN(test_duplicate_point_is_an_error);
	RUN(test_create_refuses_existing);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return HARNESS_EXIT();
}
