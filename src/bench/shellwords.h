/* shellwords: split a command line into words with POSIX shell quoting rules (no expansion). */
#ifndef RARPERF_SHELLWORDS_H
#define RARPERF_SHELLWORDS_H

#include "errbuf.h"

/*
 * Splits s like a POSIX shell splits a simple command, without any
 * expansion (hyperfine -N uses the shell_words crate the same way):
 * blanks separate words; '...' keeps everything literally; "..." keeps
 * everything but \ before $ ` " \ or newline; \ outside quotes escapes the
 * next character (\newline is removed); '#' at the start of a word starts a
 * comment to the end of the line. Returns a NULL-terminated heap array (free
 * with shellwords_free; an empty or blank s gives an empty array), or NULL
 * with eb filled on an unterminated quote or trailing backslash.
 */
char **shellwords_split(const char *s, struct errbuf *eb);

/* Number of words in a NULL-terminated array. */
size_t shellwords_count(char *const *words);

/* Frees what shellwords_split returned. NULL is a no-op. */
void shellwords_free(char **words);

#endif
