/* Tests for sanitize: nothing from a host or a file can drive a terminal, split a TSV field or
 * inject markup into a Markdown report. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sanitize.h"

static const char *clean(const char *s, size_t len)
{
	static char out[512];

	sanitize_text(out, sizeof(out), s, len);
	return out;
}

static const char *markdown(const char *s)
{
	static char out[1024];

	sanitize_markdown(out, sizeof(out), s);
	return out;
}

/* True when s is valid UTF-8 without a C0 control, DEL, C1 control or bidi control. */
static bool terminal_safe(const char *s)
{
	size_t len = strlen(s), n;

	for (size_t i = 0; i < len; i += n) {
		uint32_t cp;
		n = sanitize_utf8_char(s + i, len - i, &cp);
		if (n == 0 || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c ||
		    cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069))
			return false;
	}
	return true;
}

/* True when s has no unescaped character of the Markdown/HTML markup set (a '\' before it). */
static bool markdown_inert(const char *s)
{
	for (size_t i = 0; s[i] != '\0'; i++) {
		if (s[i] == '\\') {
			if (s[i + 1] == '\0')
				return false;
			i++; /* the escaped character, or the letter of \xHH, \t, \n, \r */
			continue;
		}
		if (strchr("`*[]<>&|~", s[i]) != NULL)
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
	/* every bidi control: marks (U+061C, U+200E, U+200F), embeddings and overrides
	 * (U+202A-U+202E), isolates (U+2066-U+2069) */
	CHECK_STR_EQ(clean("\xd8\x9c", 2), "\\xd8\\x9c");
	CHECK_STR_EQ(clean("\xe2\x80\x8f", 3), "\\xe2\\x80\\x8f");
	CHECK_STR_EQ(clean("\xe2\x80\xaa", 3), "\\xe2\\x80\\xaa");
	CHECK_STR_EQ(clean("\xe2\x81\xa9", 3), "\\xe2\\x81\\xa9");
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

static void test_markdown(void)
{
	/* HTML renders as text; the 8-bit CSI and a bidi override are escaped as in text mode */
	CHECK_STR_EQ(markdown("<img src=x onerror=alert(1)>"), "\\<img src=x onerror=alert(1)\\>");
	CHECK_STR_EQ(markdown("a\x9b"
			      "31mb"),
		     "a\\x9b31mb");
	CHECK_STR_EQ(markdown("\xc2\x9b"
			      "2J"),
		     "\\xc2\\x9b2J");
	CHECK_STR_EQ(markdown("evil\xe2\x80\xae"
			      "txt.exe"),
		     "evil\\xe2\\x80\\xaetxt.exe");
	/* a table cell cannot be ended, nor its row, nor a link, code span or emphasis opened */
	CHECK_STR_EQ(markdown("a|b\nc"), "a\\|b\\nc");
	CHECK_STR_EQ(markdown("[x](javascript:y)"), "\\[x\\](javascript:y)");
	CHECK_STR_EQ(markdown("`code` *em* ~~s~~"), "\\`code\\` \\*em\\* \\~\\~s\\~\\~");
	CHECK_STR_EQ(markdown("&lt; &amp;"), "\\&lt; \\&amp;");
	/* a backslash of the source is escaped, so it cannot escape what follows */
	CHECK_STR_EQ(markdown("a\\|b"), "a\\\\\\|b");
	/* '_' inside a word cannot make emphasis and stays; at a word's edge it is escaped */
	CHECK_STR_EQ(markdown("nb_tasks _x_ a_ _b"), "nb_tasks \\_x\\_ a\\_ \\_b");
	CHECK_STR_EQ(markdown("_"), "\\_");
	/* plain text, UTF-8 and the punctuation Markdown leaves alone are kept */
	CHECK_STR_EQ(markdown("sudo 1.9.13p3 (RootAsRole, caf\xc3\xa9): -45.2% [no]"),
		     "sudo 1.9.13p3 (RootAsRole, caf\xc3\xa9): -45.2% \\[no\\]");
	CHECK(markdown_inert(markdown("<a href='x'>|`*[]&~\\")));
}

static void test_markdown_every_byte(void)
{
	char in[3], out[32];

	/* whatever two bytes surround it, no byte comes out as a control or live markup */
	for (int c = 0; c < 256; c++) {
		in[0] = 'a';
		in[1] = (char)c;
		in[2] = '\0';
		if (c == 0)
			continue;
		sanitize_markdown(out, sizeof(out), in);
		CHECK(terminal_safe(out));
		CHECK(markdown_inert(out));
	}
}

static void test_fputs_and_unsafe_at(void)
{
	static const char nasty[] = "<b>\x1b[31m|\xc2\x9b\xe2\x80\xae_x_\xff";
	char want[256], *got = NULL;
	size_t got_len = 0;
	FILE *f = open_memstream(&got, &got_len);

	CHECK(f != NULL);
	if (f == NULL)
		return;
	/* the stream writer is the buffer writer without its cap */
	CHECK_INT_EQ(sanitize_fputs(nasty, SANITIZE_MARKDOWN, f), 0);
	CHECK_INT_EQ(sanitize_fputs(nasty, SANITIZE_TEXT, f), 0);
	fclose(f);
	sanitize_markdown(want, sizeof(want), nasty);
	sanitize_str(want + strlen(want), sizeof(want) - strlen(want), nasty);
	CHECK_STR_EQ(got, want);
	free(got);

	CHECK_INT_EQ(sanitize_unsafe_at("plain caf\xc3\xa9 <b>|", 16), 16);
	CHECK_INT_EQ(sanitize_unsafe_at("ab\tc", 4), 2);
	CHECK_INT_EQ(sanitize_unsafe_at("ab\x9b", 3), 2);
	CHECK_INT_EQ(sanitize_unsafe_at("ab\xc2\x9b", 4), 2);
	CHECK_INT_EQ(sanitize_unsafe_at("a\xe2\x80\xae", 4), 1);
	CHECK_INT_EQ(sanitize_unsafe_at("a\xe2\x80", 3), 1);
	CHECK_INT_EQ(sanitize_unsafe_at("", 0), 0);
}

/* Lines for a terminal: newlines kept, everything else as SANITIZE_TEXT, any length. */
static void test_fprintf_lines(void)
{
	char *got = NULL, *big = malloc(5000);
	size_t got_len = 0, i;
	FILE *f = open_memstream(&got, &got_len);

	CHECK(f != NULL && big != NULL);
	if (f == NULL || big == NULL) {
		free(big);
		return;
	}
	CHECK_INT_EQ(sanitize_fprintf(f, "plan of %s:\n  %s\n", "\x1b[2Jevil\r", "caf\xc3\xa9\t"),
		     0);
	fflush(f);
	CHECK_STR_EQ(got, "plan of \\x1b[2Jevil\\r:\n  caf\xc3\xa9\\t\n");
	/* Past the stack buffer: the whole text, its ESC bytes escaped. */
	for (i = 0; i < 4999; i++)
		big[i] = i % 100 == 0 ? '\x1b' : 'a';
	big[4999] = '\0';
	rewind(f);
	CHECK_INT_EQ(sanitize_fprintf(f, "%s", big), 0);
	CHECK_INT_EQ(sanitize_write_lines("x\n\x9by", 4, f), 0);
	fclose(f);
	CHECK(memchr(got, 0x1b, got_len) == NULL && memchr(got, 0x9b, got_len) == NULL);
	CHECK_INT_EQ(got_len, 4949 + 50 * 4 + 2 + 4 + 1);
	free(got);
	free(big);
}

int main(void)
{
	RUN(test_escapes_and_controls);
	RUN(test_text_kept);
	RUN(test_idempotent);
	RUN(test_cut_at_a_whole_escape);
	RUN(test_every_byte);
	RUN(test_markdown);
	RUN(test_markdown_every_byte);
	RUN(test_fputs_and_unsafe_at);
	RUN(test_fprintf_lines);
	return HARNESS_EXIT();
}
