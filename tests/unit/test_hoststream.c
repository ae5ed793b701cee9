/* Tests for hoststream: a host's done event, its file names, the checked results, done.json. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>

#include "digest.h"
#include "fileio.h"
#include "harness.h"
#include "hostpool.h"
#include "hoststream.h"

static char tmp[64];

/* What the fake fetch writes for each file name, and what it answers. */
struct fake {
	const char *results; /* results.json's text */
	/* HOSTSTREAM_FETCHED (the default, 0): writes the text; ALREADY_THERE: writes the text
	 * too (an earlier run's file) and says so; FETCH_FAILED: fails with HOST_TIMEOUT */
	enum hoststream_fetched answer;
};

static enum hoststream_fetched fake_fetch(void *c, const struct events_file *f, const char *dst,
					  enum host_outcome *outcome, struct errbuf *eb)
{
	const struct fake *fk = c;
	const char *text = strcmp(f->name, "results.json") == 0 ? fk->results : "x\n";
	FILE *out;

	*outcome = HOST_EXEC;
	if (fk->answer == HOSTSTREAM_FETCH_FAILED) {
		*outcome = HOST_TIMEOUT;
		errbuf_set(eb, "%s: the download timed out", f->name);
		return HOSTSTREAM_FETCH_FAILED;
	}
	out = fopen(dst, "we");
	if (out == NULL) {
		errbuf_set(eb, "%s: cannot write", dst);
		return HOSTSTREAM_FETCH_FAILED;
	}
	fputs(text, out);
	fclose(out);
	return fk->answer;
}

/* One host's run for the pool: its stream's text, the fake fetch, its directory. */
struct host_run {
	const char *events;
	struct fake fk;
	const char *dir;
};

/* The hostpool job: the stream through hoststream and the fake fetch (exit status 0). */
static void stream_job(struct hostpool *hp, size_t i, void *c, struct host_end *end)
{
	struct host_run *r = c;
	struct hoststream st = {.hp = hp, .index = i, .reader = events_reader_new()};

	if (st.reader == NULL) {
		host_end_set(end, HOST_EXEC, "out of memory");
		return;
	}
	if (hoststream_on_output(&st, r->events, strlen(r->events)) != 0)
		host_end_set(end, HOST_EXEC, "%s", st.eb.msg);
	else if (hoststream_check_end(&st, 0, "", end) == 0)
		hoststream_fetch(&st, r->dir, fake_fetch, &r->fk, true, end);
	events_reader_free(st.reader);
}

/*
 * Runs one host's stream (the events text, exit status 0) through
 * hoststream and the fake fetch into tmp/<host>; returns its final status.
 */
static struct hostpool_status run_host_fetching(const char *host, const char *events,
						const char *results, enum hoststream_fetched answer)
{
	struct errbuf eb = {{0}};
	struct hostpool *hp = hostpool_new(1, 1, &eb);
	struct hostpool_status s;
	char dir[256];
	struct host_run r = {events, {results, answer}, dir};
	int loops = 0;

	memset(&s, 0, sizeof(s));
	snprintf(dir, sizeof(dir), "%s/%s", tmp, host);
	mkdir(dir, 0755);
	if (hp == NULL || hostpool_start(hp, stream_job, &r, &eb) < 0) {
		CHECK(0);
		goto out;
	}
	while (!hostpool_wait(hp, 100) && loops++ < 100)
		;
	hostpool_get(hp, 0, &s);
out:
	hostpool_free(hp);
	return s;
}

static struct hostpool_status run_host(const char *host, const char *events, const char *results)
{
	return run_host_fetching(host, events, results, HOSTSTREAM_FETCHED);
}

/* A done event listing files {name: sha256 of text} (names given raw, JSON-quoted here). */
static void done_event(char *buf, size_t cap, const char *const *names, const char *const *texts,
		       size_t n)
{
	char hex[DIGEST_SHA256_HEX_LEN + 1];
	cJSON *files = cJSON_CreateObject();
	char *ftext;

	for (size_t i = 0; i < n; i++) {
		digest_sha256_hex(texts[i], strlen(texts[i]), hex);
		cJSON_AddStringToObject(files, names[i], hex);
	}
	ftext = cJSON_PrintUnformatted(files);
	snprintf(buf, cap,
		 "{\"event\":\"start\",\"t\":0,\"total\":1}\n"
		 "{\"event\":\"point_done\",\"t\":1,\"done\":1,\"total\":1}\n"
		 "{\"event\":\"done\",\"t\":2,\"status\":0,\"files\":%s}\n",
		 ftext);
	cJSON_free(ftext);
	cJSON_Delete(files);
}

static const char good[] = "{\"results\":[{\"command\":\"a\",\"parameters\":{\"n\":\"1\"}}]}\n";

static void test_good_host_is_ok_with_a_done_record(void)
{
	static const char *const names[] = {"results.json", "results.tsv"};
	const char *texts[] = {good, "x\n"};
	char ev[2048], path[256], *text = NULL;
	struct errbuf eb = {{0}};
	struct hostpool_status s;
	cJSON *root;
	size_t len;
	uint32_t done = 0, total = 0;

	done_event(ev, sizeof(ev), names, texts, 2);
	s = run_host("good", ev, good);
	CHECK_INT_EQ(s.outcome, HOST_OK);
	snprintf(path, sizeof(path), "%s/good/done.json", tmp);
	CHECK_INT_EQ(fileio_read(path, 4096, NULL, &text, &len, &eb), 0);
	root = cJSON_Parse(text);
	CHECK(root != NULL);
	cJSON_Delete(root);
	free(text);
	snprintf(path, sizeof(path), "%s/good", tmp);
	CHECK(hoststream_host_complete(path, &done, &total));
	CHECK_INT_EQ(done, 1);
	CHECK_INT_EQ(total, 1);
}

/* results.json that is not JSON, or a done event without it: never ok */
static void test_bad_results_are_not_ok(void)
{
	static const char *const names[] = {"results.json"};
	static const char *const only_tsv[] = {"results.tsv"};
	const char *nojson[] = {"this is not JSON\n"};
	const char *texts[] = {"x\n"};
	char ev[2048], path[256];
	struct hostpool_status s;

	done_event(ev, sizeof(ev), names, nojson, 1);
	s = run_host("nojson", ev, nojson[0]);
	CHECK_INT_EQ(s.outcome, HOST_RESULTS);
	CHECK_STR_EQ(s.message, "results.json: not a JSON object");
	snprintf(path, sizeof(path), "%s/nojson/done.json", tmp);
	CHECK(access(path, F_OK) != 0);

	done_event(ev, sizeof(ev), only_tsv, texts, 1);
	s = run_host("nores", ev, good);
	CHECK_INT_EQ(s.outcome, HOST_RESULTS);
	CHECK_STR_EQ(s.message, "done event lists no results.json");

	/* a done event with no files at all */
	s = run_host("nofiles", "{\"event\":\"done\",\"t\":2,\"status\":0}\n", good);
	CHECK_INT_EQ(s.outcome, HOST_RESULTS);
	s = run_host("nonobj", ev, good);
	CHECK(s.outcome != HOST_OK);
	{
		const char *t2[] = {"{\"results\":[42,null]}"};
		done_event(ev, sizeof(ev), names, t2, 1);
		s = run_host("nonobj", ev, t2[0]);
		CHECK_INT_EQ(s.outcome, HOST_RESULTS);
	}
}

/* Only results.json, results.tsv and journal.jsonl: done.json, quotes, paths are host errors. */
static void test_unexpected_file_names(void)
{
	static const char *const hostile[] = {
	    "done.json", "a\"b", "a\\b", "x\x1b]52;c;AAAA\x07", "results.json2", "merged.json"};
	char ev[2048], path[256], *text = NULL;
	struct hostpool_status s;
	struct errbuf eb = {{0}};
	size_t len;

	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		const char *names[] = {"results.json", hostile[i]};
		const char *texts[] = {good, "{}"};
		done_event(ev, sizeof(ev), names, texts, 2);
		s = run_host("names", ev, good);
		CHECK_INT_EQ(s.outcome, HOST_RESULTS);
		CHECK(strncmp(s.message, "done event lists an unexpected file", 35) == 0);
		/* what reaches the display is sanitised */
		CHECK(strchr(s.message, '\x1b') == NULL);
	}
	/* the same file twice (JSON objects may repeat a key) */
	{
		const char *names[] = {"results.json", "results.json"};
		const char *texts[] = {good, good};
		done_event(ev, sizeof(ev), names, texts, 2);
		s = run_host("names", ev, good);
		CHECK_INT_EQ(s.outcome, HOST_RESULTS);
		CHECK_STR_EQ(s.message, "done event lists results.json twice");
	}
	/* a '/' or a leading '.' never passes the event reader */
	{
		const char *names[] = {"results.json", "../x"};
		const char *texts[] = {good, good};
		done_event(ev, sizeof(ev), names, texts, 2);
		s = run_host("names", ev, good);
		CHECK_INT_EQ(s.outcome, HOST_EXEC);
	}
	snprintf(path, sizeof(path), "%s/names/done.json", tmp);
	CHECK(access(path, F_OK) != 0);
	snprintf(path, sizeof(path), "%s/names", tmp);
	CHECK(!hoststream_host_complete(path, NULL, NULL));
	/* a done.json naming a hostile file (an older rarlab's) is not a complete host */
	snprintf(path, sizeof(path), "%s/good/done.json", tmp);
	CHECK_INT_EQ(fileio_read(path, 4096, NULL, &text, &len, &eb), 0);
	if (text != NULL) {
		char *edited = malloc(len + 64);
		FILE *f;
		char *p = strstr(text, "\"results.tsv\"");
		CHECK(p != NULL);
		if (p != NULL && edited != NULL) {
			snprintf(edited, len + 64, "%.*s\"done.json\"%s", (int)(p - text), text,
				 p + strlen("\"results.tsv\""));
			f = fopen(path, "we");
			fputs(edited, f);
			fclose(f);
			snprintf(path, sizeof(path), "%s/good", tmp);
			CHECK(!hoststream_host_complete(path, NULL, NULL));
		}
		free(edited);
	}
	free(text);
}

/* A fetch that failed ends the host with the fetch's own outcome and message, no done.json. */
static void test_failed_fetch_gives_its_outcome(void)
{
	static const char *const names[] = {"results.json"};
	const char *texts[] = {good};
	char ev[2048], path[256];
	struct hostpool_status s;

	done_event(ev, sizeof(ev), names, texts, 1);
	s = run_host_fetching("fetchfail", ev, good, HOSTSTREAM_FETCH_FAILED);
	CHECK_INT_EQ(s.outcome, HOST_TIMEOUT);
	CHECK_STR_EQ(s.message, "results.json: the download timed out");
	snprintf(path, sizeof(path), "%s/fetchfail/done.json", tmp);
	CHECK(access(path, F_OK) != 0);
}

/* A file already there is not verified again: its SHA-256 matched before (an earlier run's). */
static void test_file_already_there_is_not_verified_again(void)
{
	static const char *const names[] = {"results.json", "results.tsv"};
	const char *texts[] = {good, "not what the fetch writes\n"};
	char ev[2048];
	struct hostpool_status s;

	done_event(ev, sizeof(ev), names, texts, 2);
	/* results.tsv differs from its SHA-256: fetched, that fails the host */
	s = run_host_fetching("fetched", ev, good, HOSTSTREAM_FETCHED);
	CHECK_INT_EQ(s.outcome, HOST_EXEC);
	CHECK_STR_EQ(s.message, "results.tsv: SHA-256 differs from the done event");
	/* already there: the fetch vouched for it */
	s = run_host_fetching("there", ev, good, HOSTSTREAM_ALREADY_THERE);
	CHECK_INT_EQ(s.outcome, HOST_OK);
}

int main(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/rp-test-hoststream.XXXXXX");
	if (mkdtemp(tmp) == NULL)
		return 1;
	RUN(test_good_host_is_ok_with_a_done_record);
	RUN(test_bad_results_are_not_ok);
	RUN(test_unexpected_file_names);
	RUN(test_failed_fetch_gives_its_outcome);
	RUN(test_file_already_there_is_not_verified_again);
	if (harness_remove_tree(tmp) != 0)
		return 1;
	return HARNESS_EXIT();
}
