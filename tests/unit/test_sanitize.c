/* Tests for sanitize: nothing from a host can drive a terminal or split a TSV field. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "sanitize.h"

static const char *clean(const char *s, size_t len)
{
	static char out[512];

	sanitize_text(out, sizeof(out), s, len);
	return out;
}

/* True when s is valid UTF-8 without a C0 control, DEL or C1 control. */
static bool terminal_safe(const char *s)
{
	size_t len = strlen(s), n;

	for (size_t i = 0; i < len; i += n) {
		uint32_t cp;
		n = sanitize_utf8_char(s + i, len - i, &cp);
		if (n == 0 || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
			return false;
	}
	return true;
}

static void test_escapes_and_controls(void)
{
	/* OSC 52 (clipboard write), a cursor move, a colour: all inert */
	static const char osc52[] = "\x1b]52;c;cm0gLXJmIH4=\x07";
	CHECK_STR_EQ(clean(osc52, strlen(osc52)), "\\x1b]52;c;cm0gLXJmIH4=\\x07");
	CHECK_STR_EQ(clean("\x1b[2J\x1b[H", 7), "\\x1b[2J\\x1b[H");
	CHECK_STR_EQ(clean("\x1b[31mred\x1b[0m", 12), "\\x1b[31mred\\x1b[0m");
	/* TSV: tab and newlines cannot split a field or a line */
	CHECK_STR_EQ(clean("a\tb\nc\rd", 7), "a\\tb\\nc\\rd");
	CHECK_STR_EQ(clean("del\x7f", 4), "del\\x7f");
	CHECK_STR_EQ(clean("nul\0x", 5), "nul\\x00x");
	/* C1 controls: as UTF-8 (U+009B, CSI) and as raw bytes */
	CHECK_STR_EQ(clean("\xc2\x9b"
			   "31m",
			   5),
		     "\\xc2\\x9b31m");
	CHECK_STR_EQ(clean("\x9b"
			   "31m",
			   4),
		     "\\x9b31m");
	/* invalid UTF-8: overlong, surrogate, truncated, past U+10FFFF */
	CHECK_STR_EQ(clean("\xc0\xaf", 2), "\\xc0\\xaf");
	CHECK_STR_EQ(clean("\xed\xa0\x80", 3), "\\xed\\xa0\\x80");
	CHECK_STR_EQ(clean("\xe2\x82", 2), "\\xe2\\x82");
	CHECK_STR_EQ(clean("\xf4\x90\x80\x80", 4), "\\xf4\\x90\\x80\\x80");
	/* bidi overrides and line separators */
	CHECK_STR_EQ(clean("a\xe2\x80\xae"
			   "b",
			   5),
		     "a\\xe2\\x80\\xaeb");
	CHECK_STR_EQ(clean("a\xe2\x80\xa8"
			   "b",
			   5),
		     "a\\xe2\\x80\\xa8b");
	CHECK_STR_EQ(clean("\xe2\x81\xa6", 3), "\\xe2\\x81\\xa6");
}

static void test_text_kept(void)
{
	CHECK_STR_EQ(clean("point 5: subject doas denied /usr/bin/true (exit 1)", 51),
		     "point 5: subject doas denied /usr/bin/true (exit 1)");
	/* valid UTF-8 stays, backslashes stay (so a second pass changes nothing) */
	CHECK_STR_EQ(clean("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 a\\b", 18),
		     "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 a\\b");
}

static void test_idempotent(void)
{
	static const char nasty[] = "x\x1b]52;c;AAAA\x07\t\xc2\x9b\xff\\x1b\xe2\x80\xae";
	char once[256], twice[256];

	sanitize_text(once, sizeof(once), nasty, sizeof(nasty) - 1);
	sanitize_str(twice, sizeof(twice), once);
	CHECK_STR_EQ(twice, once);
	CHECK(terminal_safe(once));
}

static void test_cut_at_a_whole_escape(void)
{
	char out[8];
	size_t n;

	/* "ab" + \x1b (4 bytes) + NUL do not fit in 6: stops after "ab" */
	n = sanitize_text(out, 6,
			  "ab\x1b"
			  "cd",
			  5);
	CHECK_STR_EQ(out, "ab");
	CHECK_INT_EQ(n, 2);
	/* never half of a UTF-8 character */
	n = sanitize_text(out, 5, "abc\xc3\xa9", 5);
	CHECK_STR_EQ(out, "abc");
	n = sanitize_text(out, 1, "abc", 3);
	CHECK_STR_EQ(out, "");
	CHECK_INT_EQ(n, 0);
	CHECK_INT_EQ(sanitize_text(out, 0, "abc", 3), 0);
}

static void test_every_byte(void)
{
	char in[2], out[16];

	/* no single byte, whatever it is, comes out as a control */
	for (int c = 0; c < 256; c++) {
		in[0] = (char)c;
		sanitize_text(out, sizeof(out), in, 1);
		CHECK(terminal_safe(out));
		CHECK(strchr(out, '\t') == NULL && strchr(out, '\n') == NULL);
	}
}

int main(void)
{
	RUN(test_escapes_and_controls);
	RUN(test_text_kept);
	RUN(test_idempotent);
	RUN(test_cut_at_a_whole_escape);
	RUN(test_every_byte);
	return HARNESS_EXIT();
}
