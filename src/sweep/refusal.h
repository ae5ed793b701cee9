/* refusal: a tool's refusal of a policy (a limit, a parse error, a crash, a time-out), read from
 * how its grant check ended and its own error line; pure: no I/O. */
#ifndef RARPERF_REFUSAL_H
#define RARPERF_REFUSAL_H

#include <stdbool.h>
#include <stddef.h>

/* The tool's error line as kept: bounded (a longer one is cut), sanitised (it is the tool's
 * output, untrusted: it reaches a terminal, results.json and report.md). */
#define REFUSAL_LINE_MAX 201

/* What a failed grant check says about the policy. */
enum refusal_class {
	REFUSAL_NONE,    /* a plain denial (no word of a limit, a parse error or a crash): the
			    policy or the prefix is wrong, not too large; the sweep stops as before */
	REFUSAL_LIMIT,   /* the tool says the policy passes one of its limits ("too many items") */
	REFUSAL_PARSE,   /* the tool cannot read the policy ("syntax error", "parse error") */
	REFUSAL_CRASH,   /* killed by a signal, or a panic (Rust's exit status 101) */
	REFUSAL_TIMEOUT, /* the check passed run_timeout_s and was killed; the runner leaves such a
			    subject out of that point only (runstate_leave_out), since a hang need
			    not come from the policy's size */
	REFUSAL_CLASS_COUNT
};

/* "none", "limit", "parse", "crash", "timeout"; "?" out of range. */
const char *refusal_class_name(enum refusal_class c);

/* The class refusal_class_name names name; REFUSAL_NONE for any other string or NULL. */
enum refusal_class refusal_class_parse(const char *name);

/*
 * The class of a grant check that did not pass: timed_out (killed at run_timeout_s), else
 * status (its raw wait status: exited or killed by a signal) and line, the tool's first stderr
 * line (refusal_line; NULL or "" when it said nothing). A crash is told by the exit status or a
 * runtime's own words ("panicked", "fatal runtime error"), a limit or a parse error by the
 * tool's words, case-insensitively ("too many", "limit", "exceed" ...; "syntax error", "parse",
 * "unexpected" ...); anything else is REFUSAL_NONE.
 */
enum refusal_class refusal_classify(int status, bool timed_out, const char *line);

/*
 * The first non-blank line of raw[0..len) (a tool's stderr, any bytes: need not be
 * NUL-terminated), its CR LF ending dropped, made safe (sanitize_text: controls, bidi controls
 * and invalid UTF-8 escaped) into dst (cap bytes, NUL-terminated when cap > 0), cut at a whole
 * character or escape when it does not fit. Returns the length written.
 */
size_t refusal_line(char *dst, size_t cap, const char *raw, size_t len);

#endif
