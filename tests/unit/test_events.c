/* Tests for events: the progress stream reader of doc/interfaces.md §5. */
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "harness.h"
#include "progress.h"

struct seen {
	int n, kinds[16];
	struct events_event last_done, last_point_done, last_point_start, first;
};

static int collect(void *ctx, const struct events_event *ev)
{
	struct seen *s = ctx;

	if (s->n == 0)
		s->first = *ev;
	if (s->n < 16)
		s->kinds[s->n] = ev->kind;
	s->n++;
	if (ev->kind == EVENTS_DONE)
		s->last_done = *ev;
	if (ev->kind == EVENTS_POINT_DONE)
		s->last_point_done = *ev;
	if (ev->kind == EVENTS_POINT_START)
		s->last_point_start = *ev;
	return 0;
}

static const char stream[] =
    "{\"event\":\"start\",\"t\":0,\"name\":\"quick\",\"total\":12,\"done\":3,"
    "\"subjects\":[\"sudo\",\"doas\"],\"out\":\"/path/DIR\"}\n"
    "{\"event\":\"skip_subject\",\"t\":0.1,\"subject\":\"sr-json\",\"reason\":\"missing\"}\n"
    "{\"event\":\"point_start\",\"t\":0.2,\"index\":4,\"total\":12,"
    "\"params\":{\"nb_roles\":\"1\",\"nb_tasks\":\"10\"}}\n"
    "{\"event\":\"point_done\",\"t\":1.9,\"index\":4,\"done\":4,\"total\":12,\"eta_s\":13.2}\n"
    "{\"event\":\"error\",\"t\":2.0,\"message\":\"point 5: subject doas denied\"}\n"
    "{\"event\":\"done\",\"t\":20.1,\"status\":0,\"files\":{\"results.json\":"
    "\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"}}\n";

static void test_good_stream_in_pieces(void)
{
	struct events_reader *r = events_reader_new();
	struct errbuf eb = {0};
	struct seen s = {0};
	bool done = false;
	size_t len = strlen(stream);

	/* feed in 7-byte pieces: lines span several reads */
	for (size_t off = 0; off < len; off += 7) {
		size_t n = len - off < 7 ? len - off : 7;
		CHECK_INT_EQ(events_feed(r, stream + off, n, collect, &s, &eb), 0);
	}
	CHECK_INT_EQ(events_finish(r, collect, &s, &done, &eb), 0);
	CHECK(done);
	CHECK_INT_EQ(s.n, 6);
	CHECK_INT_EQ(s.kinds[0], EVENTS_START);
	CHECK_INT_EQ(s.kinds[1], EVENTS_SKIP_SUBJECT);
	CHECK_INT_EQ(s.kinds[4], EVENTS_ERROR);
	CHECK_STR_EQ(s.first.text, "quick");
	CHECK_INT_EQ(s.first.total, 12);
	CHECK_INT_EQ(s.first.done, 3);
	CHECK_STR_EQ(s.last_point_start.text, "nb_roles=1 nb_tasks=10");
	CHECK_INT_EQ(s.last_point_start.index, 4);
	CHECK_INT_EQ(s.last_point_done.done, 4);
	CHECK(s.last_point_done.eta_s > 13.1 && s.last_point_done.eta_s < 13.3);
	CHECK_INT_EQ(s.last_done.status, 0);
	CHECK_INT_EQ(s.last_done.nfiles, 1);
	CHECK_STR_EQ(s.last_done.files[0].name, "results.json");
	CHECK_INT_EQ(events_lines(r), 6);
	events_reader_free(r);
}

static void test_unknown_event_and_keys_ignored(void)
{
	static const char in[] = "{\"event\":\"future\",\"t\":1,\"x\":[1,2]}\n\n"
				 "{\"event\":\"point_done\",\"t\":2,\"done\":1,\"new\":{}}\n"
				 "{\"event\":\"done\",\"t\":3,\"status\":1}";
	struct events_reader *r = events_reader_new();
	struct errbuf eb = {0};
	struct seen s = {0};
	bool done = false;

	CHECK_INT_EQ(events_feed(r, in, strlen(in), collect, &s, &eb), 0);
	CHECK_INT_EQ(s.n, 2);
	CHECK_INT_EQ(events_finish(r, collect, &s, &done, &eb), 0);
	CHECK(done);
	CHECK_INT_EQ(s.kinds[0], EVENTS_UNKNOWN);
	CHECK_INT_EQ(s.kinds[1], EVENTS_POINT_DONE);
	CHECK(s.last_point_done.eta_s < 0);
	CHECK_INT_EQ(s.last_done.status, 1);
	events_reader_free(r);
}

static void test_overlong_line_is_an_error(void)
{
	struct events_reader *r = events_reader_new();
	struct errbuf eb = {0};
	char *big = malloc(EVENTS_LINE_MAX_BYTES);
	struct seen s = {0};

	memset(big, 'x', EVENTS_LINE_MAX_BYTES);
	static const char first[] = "{\"event\":\"start\",\"t\":0,\"total\":1}\n";

	CHECK_INT_EQ(events_feed(r, first, strlen(first), collect, &s, &eb), 0);
	CHECK_INT_EQ(events_feed(r, big, EVENTS_LINE_MAX_BYTES, collect, &s, &eb), 0);
	CHECK_INT_EQ(events_feed(r, "y", 1, collect, &s, &eb), -1);
	CHECK_STR_EQ(eb.msg, "line 2: longer than 65536 bytes");
	/* the reader stays failed */
	CHECK_INT_EQ(events_feed(r, "\n", 1, collect, &s, &eb), -1);
	free(big);
	events_reader_free(r);
}

static void test_bad_json_is_an_error(void)
{
	struct events_reader *r = events_reader_new();
	struct errbuf eb = {0};
	struct events_event ev;
	static const char in[] = "{\"event\":\"start\",\"t\":0,\"total\":2}\n{\"event\":\"point_\n";

	CHECK_INT_EQ(events_feed(r, in, strlen(in), NULL, NULL, &eb), -1);
	CHECK_STR_EQ(eb.msg, "line 2: not a JSON object");
	events_reader_free(r);
	CHECK_INT_EQ(events_parse_line("[1]", 3, &ev, &eb), -1);
	CHECK_INT_EQ(events_parse_line("{\"t\":1}", 7, &ev, &eb), -1);
	CHECK_STR_EQ(eb.msg, "event without a string \"event\" and a number \"t\"");
	CHECK_INT_EQ(
	    events_parse_line("{\"event\":\"point_done\",\"t\":1,\"done\":-1}", 38, &ev, &eb), -1);
	CHECK_STR_EQ(eb.msg, "done: -1 is out of range (0 to 4294967295)");
	CHECK_INT_EQ(events_parse_line("{\"event\":\"done\",\"t\":1,\"status\":0,"
				       "\"files\":{\"results.json\":\"abc\"}}",
				       64, &ev, &eb),
		     -1);
	CHECK_STR_EQ(eb.msg, "done: files.results.json must be a SHA-256 hex string");
}

static int stop_at_two(void *ctx, const struct events_event *ev)
{
	(void)ev;
	return ++*(int *)ctx == 2 ? 7 : 0;
}

static void test_callback_stops_the_feed(void)
{
	struct events_reader *r = events_reader_new();
	struct errbuf eb = {0};
	int n = 0;
	static const char in[] = "{\"event\":\"a\",\"t\":0}\n{\"event\":\"b\",\"t\":0}\n"
				 "{\"event\":\"c\",\"t\":0}\n";

	CHECK_INT_EQ(events_feed(r, in, strlen(in), stop_at_two, &n, &eb), 7);
	CHECK_INT_EQ(n, 2);
	events_reader_free(r);
}

/* The writer (src/sweep/progress) and this reader spell the events alike: every event written is
 * read back as its kind, and the one the reader does not know (remeasure) as unknown. */
static void test_writer_and_reader_share_the_names(void)
{
	static const enum events_kind want[] = {
	    EVENTS_START,   EVENTS_SKIP_SUBJECT, EVENTS_POINT_START, EVENTS_POINT_DONE,
	    EVENTS_UNKNOWN, EVENTS_ERROR,        EVENTS_DONE};
	const char *names[] = {"nb_tasks"}, *values[] = {"10"}, *subjects[] = {"sudo"};
	const char *files[] = {"results.json"};
	const char *sums[] = {"0000000000000000000000000000000000000000000000000000000000000000"};
	struct progress p;
	char *text = NULL, *line, *nl;
	size_t len = 0, i = 0;

	progress_init(&p, PROGRESS_JSONL, 2, 0);
	p.out = open_memstream(&text, &len);
	CHECK(p.out != NULL);
	if (p.out == NULL)
		return;
	progress_start(&p, "t", subjects, 1, "/out");
	progress_skip(&p, "doas", "not installed");
	progress_point_start(&p, 1, names, values, 1);
	progress_point_done(&p, 1);
	progress_remeasure(&p, 2, "contention");
	progress_error(&p, "it failed");
	progress_done(&p, 0, files, sums, 1);
	fclose(p.out);
	for (line = text; line != NULL && *line != '\0'; line = nl != NULL ? nl + 1 : NULL) {
		struct events_event ev;
		struct errbuf eb = {{0}};

		nl = strchr(line, '\n');
		CHECK_INT_EQ(
		    events_parse_line(line, nl ? (size_t)(nl - line) : strlen(line), &ev, &eb), 0);
		CHECK(i < sizeof(want) / sizeof(want[0]) && ev.kind == want[i]);
		i++;
	}
	CHECK_INT_EQ(i, sizeof(want) / sizeof(want[0]));
	free(text);
}

int main(void)
{
	RUN(test_good_stream_in_pieces);
	RUN(test_unknown_event_and_keys_ignored);
	RUN(test_overlong_line_is_an_error);
	RUN(test_bad_json_is_an_error);
	RUN(test_callback_stops_the_feed);
	RUN(test_writer_and_reader_share_the_names);
	return HARNESS_EXIT();
}
