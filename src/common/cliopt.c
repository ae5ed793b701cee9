/* cliopt: getopt_long with every long option written in full, and one line for an unknown one. */
#include "cliopt.h"

#include <string.h>

#include "suggest.h"

/* Most names cliopt_unknown compares (a program's long options and its extras). */
#define CLIOPT_NAMES_MAX 96

/* Whether typed ("--name" or "--name=value") is exactly name. */
static int cliopt_is_exact(const char *typed, const char *name)
{
	size_t len = strcspn(typed + 2, "=");

	return strncmp(typed, "--", 2) == 0 && strlen(name) == len &&
	       strncmp(typed + 2, name, len) == 0;
}

int cliopt_next(int argc, char **argv, const char *shortopts, const struct option *longopts,
		struct cliopt_seen *seen)
{
	int idx = -1, c;

	opterr = 0;
	seen->typed = NULL;
	c = getopt_long(argc, argv, shortopts, longopts, &idx);
	if (c == -1)
		return c;
	if (idx < 0 && c != '?' && c != ':') {
		seen->short_buf[0] = '-';
		seen->short_buf[1] = (char)c;
		seen->short_buf[2] = '\0';
		seen->typed = seen->short_buf;
		return c;
	}
	/* The element holding the option: the one before a separate value, else the last. */
	if (idx >= 0 && optarg != NULL && optind >= 2 && optarg == argv[optind - 1])
		seen->typed = argv[optind - 2];
	else if (optind >= 1)
		seen->typed = argv[optind - 1];
	if (c == ':' && seen->typed != NULL && strncmp(seen->typed, "--", 2) == 0) {
		/* A long option without its value: glibc does not say which; an abbreviation is
		 * refused as one, before its missing value. */
		for (size_t i = 0; longopts[i].name != NULL; i++)
			if (cliopt_is_exact(seen->typed, longopts[i].name))
				return c;
		return CLIOPT_ABBREVIATION;
	}
	if ((c == '?' || c == ':') && (seen->typed == NULL || strncmp(seen->typed, "--", 2) != 0)) {
		/* An unknown short option, or a short one without its value. */
		seen->short_buf[0] = '-';
		seen->short_buf[1] = (char)optopt;
		seen->short_buf[2] = '\0';
		seen->typed = seen->short_buf;
		return c;
	}
	if (idx >= 0 && seen->typed != NULL && !cliopt_is_exact(seen->typed, longopts[idx].name))
		return CLIOPT_ABBREVIATION;
	return c;
}

int cliopt_unknown(const char *prog, const char *typed, const struct option *longopts,
		   const char *const *extra, struct errbuf *eb)
{
	const char *names[CLIOPT_NAMES_MAX + 1], *near = NULL, *whole = NULL;
	size_t n = 0, len = strcspn(typed, "=");
	char word[SUGGEST_WORD_MAX + 1];

	for (size_t i = 0; longopts != NULL && longopts[i].name != NULL && n < CLIOPT_NAMES_MAX;
	     i++)
		names[n++] = longopts[i].name;
	for (size_t i = 0; extra != NULL && extra[i] != NULL && n < CLIOPT_NAMES_MAX; i++)
		names[n++] = extra[i];
	names[n] = NULL;
	if (strncmp(typed, "--", 2) == 0 && len > 2 && len - 2 <= SUGGEST_WORD_MAX) {
		memcpy(word, typed + 2, len - 2);
		word[len - 2] = '\0';
		/* An abbreviation getopt would have taken: the one name it starts. */
		for (size_t i = 0; i < n; i++) {
			if (strncmp(names[i], word, len - 2) == 0 && strlen(names[i]) > len - 2) {
				whole = whole == NULL ? names[i] : "";
			}
		}
		if (whole != NULL && whole[0] != '\0')
			return errbuf_set(eb,
					  "'%.*s' is not an option: long options are written in "
					  "full (--%s; see %s --help)",
					  (int)len, typed, whole, prog);
		near = suggest_nearest(word, names);
	}
	if (near != NULL)
		return errbuf_set(eb, "unknown option '%.*s' (did you mean --%s? see %s --help)",
				  (int)len, typed, near, prog);
	return errbuf_set(eb, "unknown option '%.*s' (see %s --help)", (int)len, typed, prog);
}
