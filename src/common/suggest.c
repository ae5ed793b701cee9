/* suggest: the nearest name by edit distance, so that every "unknown X" can say "did you mean". */
#include "suggest.h"

#include <string.h>

size_t suggest_distance(const char *a, const char *b)
{
	/* Three rows suffice for the swap: the row before the previous one. */
	size_t row[3][SUGGEST_WORD_MAX + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la > SUGGEST_WORD_MAX || lb > SUGGEST_WORD_MAX)
		return SUGGEST_WORD_MAX + 1;
	for (j = 0; j <= lb; j++)
		row[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *cur = row[i % 3], *prev = row[(i - 1) % 3], *prev2 = row[(i + 1) % 3];

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1], best = prev[j - 1] + cost;

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return row[la % 3][lb];
}

/* A third of the longer name, 1 to 3 edits: "sr" is not a typo of "id", "repetition" is. */
static size_t suggest_budget(size_t la, size_t lb)
{
	size_t n = (la > lb ? la : lb) / 3;

	return n < 1 ? 1 : n > 3 ? 3 : n;
}

const char *suggest_nearest(const char *word, const char *const *candidates)
{
	const char *best = NULL, *prefixed = NULL;
	size_t best_d = SUGGEST_WORD_MAX + 1, lw = strlen(word), i, nprefixed = 0;

	if (lw == 0)
		return NULL;
	for (i = 0; candidates[i] != NULL; i++) {
		size_t d, lc = strlen(candidates[i]);

		if (strcmp(word, candidates[i]) == 0)
			continue;
		if (lc > lw && strncmp(word, candidates[i], lw) == 0 && lw >= 3) {
			nprefixed++;
			prefixed = candidates[i];
		}
		d = suggest_distance(word, candidates[i]);
		if (d <= suggest_budget(lw, lc) && d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	if (best == NULL && nprefixed == 1)
		return prefixed;
	return best;
}
