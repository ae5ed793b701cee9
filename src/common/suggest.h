/* suggest: "did you mean": the nearest of a list of names to a misspelt one (edit distance). */
#ifndef RARPERF_SUGGEST_H
#define RARPERF_SUGGEST_H

#include <stddef.h>

/* Longest word compared: longer ones are never near anything (and cost no more than this). */
#define SUGGEST_WORD_MAX 64

/*
 * Levenshtein distance of a and b with an adjacent swap counting as one edit (optimal string
 * alignment), or SUGGEST_WORD_MAX + 1 when either is longer than SUGGEST_WORD_MAX. Pure.
 */
size_t suggest_distance(const char *a, const char *b);

/*
 * The candidate (NULL-terminated list) nearest to word, or NULL when none is near enough to
 * be a typo: at most a third of the longer name's length in edits (at least 1, at most 3), or
 * the word being the start of exactly one candidate ("nb_role" of "nb_roles"). Ties go to the
 * earliest candidate, so the answer depends only on the list's order. An exact match is never
 * suggested (the caller refused it for another reason). Pure.
 */
const char *suggest_nearest(const char *word, const char *const *candidates);

#endif
