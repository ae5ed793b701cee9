/* pamstack: the modules and includes of a PAM service file (pam.conf(5), Linux-PAM's syntax). */
#include "pamstack.h"

#include <stdbool.h>
#include <string.h>

/* A word separator: blanks, and what no name holds (a NUL, a CR of a CRLF file). */
static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\0';
}

/* The next blank-separated word of line[*pos..end) into word; its length, 0 at the end. */
static size_t next_word(const char *line, size_t end, size_t *pos, char *word)
{
	size_t start, n;

	while (*pos < end && is_blank(line[*pos]))
		(*pos)++;
	start = *pos;
	if (start < end && line[start] == '[') {
		/* A bracketed control, [value=action ...], is one word. */
		while (*pos < end && line[*pos] != ']' && line[*pos] != '\0')
			(*pos)++;
		if (*pos < end)
			(*pos)++;
	} else {
		while (*pos < end && !is_blank(line[*pos]))
			(*pos)++;
	}
	n = *pos - start;
	if (n >= PAMSTACK_NAME_MAX)
		n = PAMSTACK_NAME_MAX - 1;
	memcpy(word, line + start, n);
	word[n] = '\0';
	return n;
}

/* One line: an entry for fn, or nothing. */
static int scan_line(const char *line, size_t end, pamstack_fn fn, void *arg)
{
	char type[PAMSTACK_NAME_MAX], control[PAMSTACK_NAME_MAX], path[PAMSTACK_NAME_MAX];
	size_t pos = 0;
	int optional;

	if (next_word(line, end, &pos, type) == 0 || type[0] == '#')
		return 0;
	if (strcmp(type, "@include") == 0)
		return next_word(line, end, &pos, path) > 0 ? fn(PAMSTACK_INCLUDE, path, 0, arg)
							    : 0;
	if (next_word(line, end, &pos, control) == 0 || next_word(line, end, &pos, path) == 0)
		return 0;
	optional = type[0] == '-';
	if (strcmp(control, "include") == 0 || strcmp(control, "substack") == 0)
		return fn(PAMSTACK_INCLUDE, path, optional, arg);
	return fn(PAMSTACK_MODULE, path, optional, arg);
}

int pamstack_scan(const char *text, size_t len, pamstack_fn fn, void *arg)
{
	size_t start = 0, end;
	int rc;

	while (start < len) {
		const char *hash;
		size_t n;

		for (end = start; end < len && text[end] != '\n'; end++)
			;
		/* A '#' starts a comment anywhere on the line. */
		hash = memchr(text + start, '#', end - start);
		n = hash != NULL ? (size_t)(hash - (text + start)) : end - start;
		rc = scan_line(text + start, n, fn, arg);
		if (rc != 0)
			return rc;
		start = end + 1;
	}
	return 0;
}
