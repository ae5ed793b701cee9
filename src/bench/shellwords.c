/* shellwords: split a command line into words with POSIX shell quoting rules (no expansion). */
#include "shellwords.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

size_t shellwords_count(char *const *words)
{
	size_t n = 0;

	while (words != NULL && words[n] != NULL)
		n++;
	return n;
}

void shellwords_free(char **words)
{
	if (words == NULL)
		return;
	for (size_t i = 0; words[i] != NULL; i++)
		free(words[i]);
	free(words);
}

static bool shellwords_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Ends the word in buf[0..bl) and adds a copy to words[*nw]. Returns 0, or -1 out of memory. */
static int add_word(char **words, size_t *nw, char *buf, size_t bl)
{
	buf[bl] = '\0';
	words[*nw] = strdup(buf);
	return words[(*nw)++] == NULL ? -1 : 0;
}

/*
 * The inside of "...", p just past the opening quote: a backslash escapes only $ ` " \ and
 * newline (backslash-newline is dropped). Copies it to buf + *bl; returns what follows the
 * closing quote, or NULL when there is none.
 */
static const char *copy_double_quoted(const char *p, char *buf, size_t *bl)
{
	for (;;) {
		if (*p == '\0')
			return NULL;
		if (*p == '"')
			return p + 1;
		if (*p == '\\' && p[1] != '\0' && strchr("$`\"\\\n", p[1]) != NULL) {
			if (p[1] != '\n')
				buf[(*bl)++] = p[1];
			p += 2;
			continue;
		}
		buf[(*bl)++] = *p++;
	}
}

char **shellwords_split(const char *s, struct errbuf *eb)
{
	size_t len = strlen(s);
	/* A word is never longer than s, and there are at most len/2+1 words. */
	char **words = calloc(len / 2 + 2, sizeof(*words));
	char *buf = malloc(len + 1);
	size_t nw = 0, bl = 0;
	bool in_word = false;
	const char *p = s;

	if (words == NULL || buf == NULL) {
		errbuf_set(eb, "out of memory");
		goto fail;
	}
	while (*p != '\0') {
		char c = *p;

		if (shellwords_blank(c)) {
			if (in_word) {
				if (add_word(words, &nw, buf, bl) != 0)
					goto oom;
				bl = 0;
				in_word = false;
			}
			p++;
		} else if (c == '#' && !in_word) {
			while (*p != '\0' && *p != '\n')
				p++;
		} else if (c == '\\') {
			in_word = true;
			if (p[1] == '\0') {
				errbuf_set(eb, "trailing backslash in '%s'", s);
				goto fail;
			}
			if (p[1] != '\n')
				buf[bl++] = p[1];
			p += 2;
		} else if (c == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (end == NULL) {
				errbuf_set(eb, "unterminated single quote in '%s'", s);
				goto fail;
			}
			in_word = true;
			memcpy(buf + bl, p + 1, (size_t)(end - p - 1));
			bl += (size_t)(end - p - 1);
			p = end + 1;
		} else if (c == '"') {
			in_word = true;
			p = copy_double_quoted(p + 1, buf, &bl);
			if (p == NULL) {
				errbuf_set(eb, "unterminated double quote in '%s'", s);
				goto fail;
			}
		} else {
			in_word = true;
			buf[bl++] = c;
			p++;
		}
	}
	if (in_word && add_word(words, &nw, buf, bl) != 0)
		goto oom;
	free(buf);
	return words;
oom:
	errbuf_set(eb, "out of memory");
fail:
	free(buf);
	shellwords_free(words);
	return NULL;
}
