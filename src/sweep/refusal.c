/* refusal: a tool's refusal of a policy classified, and its error line made safe. */
#include "refusal.h"

#include <ctype.h>
#include <string.h>
#include <sys/wait.h>

#include "sanitize.h"

/* The words a tool uses for each class, lower case; matched anywhere in the line. The limit's
 * come first: "too many items in list" is also a parse error to sudo-rs, but its cause is a
 * size. please says "Exiting as too much config has already been read." past 10 MiB and
 * "Error parsing FILE: SECTION:LINE" for a rule that is no regular expression. */
static const char *const limit_words[] = {
    "too many", "too long",      "too large",       "too big",  "limit",           "exceed",
    "maximum",  "out of memory", "cannot allocate", "overflow", "too much config", NULL};
static const char *const parse_words[] = {"syntax error",  "parse",    "unexpected",   "invalid",
					  "garbage",       "expected", "unterminated", "malformed",
					  "error parsing", NULL};
static const char *const crash_words[] = {"panicked", "fatal runtime error", "segmentation fault",
					  "stack overflow", NULL};

/* Rust's exit status after a panic in the main thread. */
#define REFUSAL_RUST_PANIC_EXIT 101

const char *refusal_class_name(enum refusal_class c)
{
	static const char *const names[] = {"none", "limit", "parse", "crash", "timeout"};

	return (unsigned)c < REFUSAL_CLASS_COUNT ? names[c] : "?";
}

enum refusal_class refusal_class_parse(const char *name)
{
	for (int c = REFUSAL_LIMIT; name != NULL && c < REFUSAL_CLASS_COUNT; c++)
		if (strcmp(name, refusal_class_name((enum refusal_class)c)) == 0)
			return (enum refusal_class)c;
	return REFUSAL_NONE;
}

/* Whether s holds word, ASCII case-insensitively (word is lower case). */
static bool holds(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; *s != '\0'; s++) {
		size_t k = 0;

		while (k < n && s[k] != '\0' && tolower((unsigned char)s[k]) == word[k])
			k++;
		if (k == n)
			return true;
	}
	return false;
}

/* Whether s holds one of words. */
static bool holds_any(const char *s, const char *const *words)
{
	for (; *words != NULL; words++)
		if (holds(s, *words))
			return true;
	return false;
}

enum refusal_class refusal_classify(int status, bool timed_out, const char *line)
{
	if (line == NULL)
		line = "";
	if (timed_out)
		return REFUSAL_TIMEOUT;
	/* "stack overflow" is a crash before it is a limit's "overflow". */
	if (WIFSIGNALED(status) ||
	    (WIFEXITED(status) && WEXITSTATUS(status) == REFUSAL_RUST_PANIC_EXIT) ||
	    holds_any(line, crash_words))
		return REFUSAL_CRASH;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return REFUSAL_NONE;
	if (holds_any(line, limit_words))
		return REFUSAL_LIMIT;
	if (holds_any(line, parse_words))
		return REFUSAL_PARSE;
	return REFUSAL_NONE;
}

size_t refusal_line(char *dst, size_t cap, const char *raw, size_t len)
{
	size_t start = 0, end;

	if (cap == 0)
		return 0;
	if (raw == NULL)
		len = 0;
	/* A tool may start with blank lines, or end its lines with CR LF: neither is its message.
	 */
	while (start < len && (raw[start] == '\n' || raw[start] == '\r'))
		start++;
	for (end = start; end < len && raw[end] != '\n'; end++)
		;
	while (end > start && raw[end - 1] == '\r')
		end--;
	return sanitize_text(dst, cap, raw + start, end - start);
}
